// `deliberate mcp`: serves the Model Context Protocol on stdin/stdout (src/mcp/) so coding agents (Claude Code,
// Cursor, Copilot agent mode, Cline, Continue, …) can deliberate. The model settings are the CLI's: the same flags,
// else the DELIBERATIVE_* environment variables. Logs go to stderr; stdout is JSON-RPC only.
import { UsageError } from "./common";
import { McpUsageError, mcpSettingsFromArgs, printHelp, serveMcp, wantsHelp } from "../mcp/main";

export async function mcpCommand(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  if (wantsHelp(argv)) return printHelp();
  let parsed: ReturnType<typeof mcpSettingsFromArgs>;
  try {
    parsed = mcpSettingsFromArgs(argv, env);
  } catch (err) {
    if (err instanceof McpUsageError) throw new UsageError(err.message);
    throw err;
  }
  // `deliberate` runs in worker threads that load this same module (in the bundle, dist/cliMain.js, whose exports
  // include mcpWorkerMain: see src/cli/main.ts).
  return serveMcp(parsed.repos, parsed.settings, env, { workerEntry: __filename });
}

export { mcpWorkerMain } from "../mcp/worker";
