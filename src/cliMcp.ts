// `deliberate mcp [--repo DIR]... [--offline] [--provider openai|none] [--base-url URL] [--model NAME]
// [--keep-internal-local]`: serves the Model Context Protocol on stdin/stdout (src/mcp/server.ts) so coding agents
// (Claude Code, Cursor, Copilot agent mode, Cline, Continue, …) can deliberate. The model settings are the CLI's:
// these flags, else the DELIBERATIVE_* environment variables. Logs go to stderr; stdout is JSON-RPC only.
import { UsageError, parseOptions, repoOption } from "./cliCommon";
import { ModelConfigError, modelOptionsFromCli } from "./core/model";
import { runStdioServer } from "./mcp/server";
import type { McpSettings } from "./mcp/toolResult";

export const MCP_USAGE =
  "deliberate mcp [--repo DIR]... [--offline] [--provider openai|none] [--base-url URL] [--model NAME] [--keep-internal-local]";

const OPTIONS = {
  repo: { type: "string", multiple: true },
  offline: { type: "boolean" },
  provider: { type: "string" },
  "base-url": { type: "string" },
  model: { type: "string" },
  "keep-internal-local": { type: "boolean" },
} as const;

/** The server's settings from its command line; a bad flag or model setting fails here, before serving. */
export function mcpSettingsFromArgs(argv: string[], env: NodeJS.ProcessEnv): { repos: string[]; settings: McpSettings } {
  const { values } = parseOptions(argv, OPTIONS, { positionals: false, usage: MCP_USAGE });
  const repos = ((values.repo as string[] | undefined) ?? ["."]).map((r) => repoOption(r));
  const model = { provider: values.provider as string | undefined, baseUrl: values["base-url"] as string | undefined, model: values.model as string | undefined };
  try {
    modelOptionsFromCli({ ...model, offline: !!values.offline }, env);
  } catch (err) {
    if (err instanceof ModelConfigError) throw new UsageError(err.message);
    throw err;
  }
  return { repos, settings: { offline: !!values.offline, keepInternalLocal: !!values["keep-internal-local"], model } };
}

export async function mcpCommand(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const { repos, settings } = mcpSettingsFromArgs(argv, env);
  await runStdioServer({ repos, settings, env });
  // The client closed the connection: stop, even if a background history build still holds the event loop.
  setTimeout(() => process.exit(0), 200).unref();
  return 0;
}
