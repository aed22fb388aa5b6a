// The MCP server's command line, shared by `deliberate mcp` (src/cli/mcp.ts) and the extension's bundled
// dist/mcpServer.js (src/vscode/mcpServerMain.ts): `--repo DIR` (repeatable; default the current directory) and the
// CLI's model flags. A bad flag or model setting fails before serving, as one line on stderr (exit 2).
import { existsSync, statSync } from "node:fs";
import { parse, resolve } from "node:path";
import { parseArgs } from "node:util";
import { ModelConfigError, modelOptionsFromCli } from "../core/model";
import { terminalSafeLine } from "../core/sanitize";
import { parseSourceSpec } from "../core/sources/spec";
import { oneLine } from "../core/text";
import { runStdioServer } from "./server";
import type { McpSettings } from "./toolResult";

export const MCP_USAGE = "deliberate mcp [--repo DIR]... [--source FOLDER|GIT-URL[#REF][:PATH]]... [--offline] [--provider openai|none] [--base-url URL] [--model NAME] [--keep-internal-local] [--no-cache] [--git-budget-ms MS]";

export function wantsHelp(argv: string[]): boolean {
  return argv.includes("--help") || argv.includes("-h");
}

/** `--help`: the usage on stdout (nothing is served, so stdout is free). */
export function printHelp(): number {
  process.stdout.write(`usage: ${MCP_USAGE}\nServes the Model Context Protocol on stdin/stdout: tools deliberate, record_pick, get_receipt, list_receipts, verify_receipts; receipts as deliberation://<repo>/<receipt_id> resources.\n`);
  return 0;
}

/** A bad command line: one line, exit 2, nothing served. */
export class McpUsageError extends Error {}

const OPTIONS = {
  repo: { type: "string", multiple: true },
  offline: { type: "boolean" },
  provider: { type: "string" },
  "base-url": { type: "string" },
  model: { type: "string" },
  "keep-internal-local": { type: "boolean" },
  source: { type: "string", multiple: true },
  // What the eval's resident mode needs to answer exactly as `deliberate "<q>" --no-cache --git-budget-ms MS` does.
  "no-cache": { type: "boolean" },
  "git-budget-ms": { type: "string" },
} as const;

function checkedRepo(dir: string): string {
  const repo = resolve(dir);
  // Some clients start servers in `/` (Cursor does): serving the whole disk is never what was meant.
  if (repo === parse(repo).root) throw new McpUsageError(`refusing to serve the file-system root ${repo} as a repository: pass --repo DIR (e.g. the workspace folder)`);
  if (!existsSync(repo)) throw new McpUsageError(`repository path does not exist: ${repo}`);
  if (!statSync(repo).isDirectory()) throw new McpUsageError(`repository path is not a directory: ${repo}`);
  return repo;
}

export function mcpSettingsFromArgs(argv: string[], env: NodeJS.ProcessEnv): { repos: string[]; settings: McpSettings } {
  let values: ReturnType<typeof parseArgs<{ args: string[]; options: typeof OPTIONS; allowPositionals: false; strict: true }>>["values"];
  try {
    values = parseArgs({ args: argv, options: OPTIONS, allowPositionals: false, strict: true }).values;
  } catch (err) {
    throw new McpUsageError(`${oneLine(err)} (usage: ${MCP_USAGE})`);
  }
  const repos = (values.repo ?? ["."]).map(checkedRepo);
  const model = { provider: values.provider, baseUrl: values["base-url"], model: values.model };
  try {
    modelOptionsFromCli({ ...model, offline: !!values.offline }, env);
  } catch (err) {
    if (err instanceof ModelConfigError) throw new McpUsageError(err.message);
    throw err;
  }
  const budget = values["git-budget-ms"];
  const gitBudgetMs = budget === undefined ? undefined : Number(budget);
  if (gitBudgetMs !== undefined && (!Number.isInteger(gitBudgetMs) || gitBudgetMs < 50 || gitBudgetMs > 60_000)) {
    throw new McpUsageError(`--git-budget-ms: expected an integer from 50 to 60000, got ${budget}`);
  }
  // A relative folder source is the server's folder's: resolved here, so the deliberation threads need no cwd.
  const sources = (values.source ?? []).map((s) => resolveFolderSource(s));
  return { repos, settings: { offline: !!values.offline, keepInternalLocal: !!values["keep-internal-local"], model, ...(sources.length ? { sources } : {}), ...(values["no-cache"] ? { noTurnCache: true } : {}), ...(gitBudgetMs !== undefined ? { gitBudgetMs } : {}) } };
}

function resolveFolderSource(raw: string): string {
  const spec = parseSourceSpec(raw);
  if ("bad" in spec) return raw;
  return spec.kind === "folder" ? `${spec.name}=${spec.folder}` : raw;
}

export { mcpWorkerMain } from "./worker";

/** How the host runs the server: `workerEntry` is a module exporting `mcpWorkerMain`, for the deliberation threads. */
export interface McpHost {
  workerEntry?: string;
}

/** Serves until the client closes stdin; then exits, even if a background history build still holds the event loop. */
export async function serveMcp(repos: string[], settings: McpSettings, env: NodeJS.ProcessEnv, host: McpHost = {}): Promise<number> {
  await runStdioServer({ repos, settings, env, ...(host.workerEntry ? { workerEntry: host.workerEntry } : {}) });
  setTimeout(() => process.exit(0), 200).unref();
  return 0;
}

/** dist/mcpServer.js's whole program: parse, serve, exit code. */
export async function mcpMain(argv: string[], env: NodeJS.ProcessEnv, host: McpHost = {}): Promise<number> {
  if (wantsHelp(argv)) return printHelp();
  try {
    const { repos, settings } = mcpSettingsFromArgs(argv, env);
    return await serveMcp(repos, settings, env, host);
  } catch (err) {
    process.stderr.write(`deliberate mcp: ${terminalSafeLine(oneLine(err))}\n`);
    return err instanceof McpUsageError ? 2 : 1;
  }
}
