// The Deliberative Search MCP server (stdio, the official SDK's low-level Server): the tools of tools.ts, receipts
// as resources, the allowed roots, progress notifications and cancellation. `deliberate mcp` (src/cli/mcp.ts) and
// the extension's bundled dist/mcpServer.js both start it through runStdioServer.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  RootsListChangedNotificationSchema,
  type CallToolResult,
} from "@modelcontextprotocol/sdk/types.js";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { z } from "zod";
import { isCancellation } from "../core/cancel";
import { classifyQuestion } from "../core/classify";
import { defaultKeyDir, loadOrCreateKeyFile, type SigningKey } from "../core/receipts/signing";
import { terminalSafe, terminalSafeLine } from "../core/sanitize";
import { oneLine } from "../core/text";
import { keepStdoutForProtocol, stderrLog, type McpLog } from "./log";
import { listReceiptResources, readReceiptResource, receiptUri, RESOURCE_TEMPLATE } from "./resources";
import type { CheckRunner } from "./checkTool";
import type { DeliberationRunner } from "./deliberateTool";
import { AllowedRoots } from "./roots";
import { LineStdioTransport } from "./stdioTransport";
import { isInputError, type McpSettings, type ToolContext } from "./toolResult";
import { TOOLS, type ToolSpec } from "./tools";
import { toolJsonSchema } from "./toolSchemas";
import type { WarmReport } from "./warm";
import { DeliberationWorkers } from "./workerPool";

export const SERVER_NAME = "deliberative-search";
const SERVER_VERSION = "0.1.0";

const INSTRUCTIONS =
  "Deliberative Search answers open design questions for this repository from its ADRs, conventions and git history. " +
  "Call `deliberate` with the question before writing code that makes a design choice, read the options and citations, " +
  "then call `record_pick` with the chosen option id. Receipts are signed; `get_receipt` shows a pick a person made meanwhile.";

export interface McpServerOptions {
  /** The `--repo` folders (at least one; the command line defaults it to the current directory). */
  repos: string[];
  settings: McpSettings;
  env?: NodeJS.ProcessEnv;
  log?: McpLog;
  /**
   * A CommonJS module exporting `mcpWorkerMain` (src/mcp/worker.ts): `deliberate` then runs in worker threads started
   * from it. Without it, in this thread (tests that call createMcpServer directly).
   */
  workerEntry?: string;
  /** Set by runStdioServer: where `deliberate` runs. */
  deliberations?: DeliberationRunner;
  /** Set by runStdioServer: where `check_change` runs. */
  checks?: CheckRunner;
  /** Set by runStdioServer: every tool call in flight, so the end of stdin can wait for them. */
  inFlight?: Set<Promise<unknown>>;
}

function errorResult(message: string): CallToolResult {
  return { content: [{ type: "text", text: terminalSafeLine(message).slice(0, 2000) }], isError: true };
}

/** A zod failure as one line: the first two problems with their argument paths, and how many more there are. */
export function describeArgsError(tool: string, error: z.ZodError): string {
  const problems = error.issues.map((issue) => {
    const at = issue.path.join(".");
    if (issue.code === "invalid_type" && /received undefined/.test(issue.message)) return `${at} is required`;
    return at ? `${at}: ${issue.message}` : issue.message;
  });
  const more = problems.length > 2 ? ` (and ${problems.length - 2} more)` : "";
  return `invalid arguments for ${tool}: ${problems.slice(0, 2).join("; ")}${more}`;
}

export function createMcpServer(roots: AllowedRoots, options: McpServerOptions): Server {
  const log = options.log ?? stderrLog();
  const env = options.env ?? process.env;
  const server = new Server({ name: SERVER_NAME, title: "Deliberative Search", version: SERVER_VERSION }, { capabilities: { tools: {}, resources: { listChanged: true } }, instructions: INSTRUCTIONS });
  let key: SigningKey | undefined;
  const signingKey = () => (key ??= loadOrCreateKeyFile(defaultKeyDir(env)));
  const resourceUri = async (repo: string) => {
    const root = (await roots.list()).find((r) => r.path === repo);
    return (id: string) => (root ? receiptUri(root.name, id) : pathToFileURL(join(repo, ".deliberations", `${id}.json`)).href);
  };
  const refreshRoots = () => roots.refreshClientRoots(async () => (await server.listRoots(undefined, { timeout: 5000 })).roots.map((r) => r.uri), log);
  server.oninitialized = () => {
    if (server.getClientCapabilities()?.roots) void refreshRoots();
  };
  server.setNotificationHandler(RootsListChangedNotificationSchema, async () => {
    await refreshRoots();
  });
  server.onerror = (err) => log(`protocol: ${oneLine(err)}`);

  let published: ReturnType<typeof publishedTools> | undefined;
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: (published ??= publishedTools()) }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = TOOLS.find((t) => t.name === request.params.name);
    if (!tool) return errorResult(`unknown tool "${request.params.name}" (tools: ${TOOLS.map((t) => t.name).join(", ")})`);
    const token = extra._meta?.progressToken;
    let step = 0;
    // Sending a notification is asynchronous: the result must not overtake the last stages' progress.
    const sent: Promise<void>[] = [];
    const ctx: ToolContext = {
      roots,
      settings: options.settings,
      env,
      log,
      signingKey,
      clientName: clientLabel(server),
      signal: extra.signal,
      ...(token !== undefined
        ? {
            reportProgress: (message: string) => {
              sent.push(extra.sendNotification({ method: "notifications/progress", params: { progressToken: token, progress: ++step, message } }).catch(() => undefined));
            },
          }
        : {}),
      receiptsChanged: () => server.sendResourceListChanged().catch(() => undefined),
      resourceUri,
      ...(options.deliberations ? { deliberations: options.deliberations } : {}),
      ...(options.checks ? { checks: options.checks } : {}),
    };
    const call = (async () => {
      const result = await callTool(tool, request.params.arguments ?? {}, ctx, log);
      await Promise.all(sent);
      return result;
    })();
    options.inFlight?.add(call);
    return call.finally(() => options.inFlight?.delete(call));
  });

  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: await listReceiptResources(roots) }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: [
      {
        uriTemplate: RESOURCE_TEMPLATE,
        name: "receipt",
        title: "Deliberation receipt",
        description: "A signed deliberation receipt, as JSON and Markdown. {repo} names an allowed root (list_receipts gives each receipt's URI).",
        mimeType: "application/json",
      },
    ],
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    try {
      return { contents: await readReceiptResource(roots, request.params.uri) };
    } catch (err) {
      throw new McpError(ErrorCode.InvalidParams, terminalSafeLine(oneLine(err)));
    }
  });
  return server;
}

/** tools/list: each tool with its zod schemas published as JSON Schema (computed once). */
function publishedTools() {
  return TOOLS.map((t) => ({
    name: t.name,
    title: t.title,
    description: t.description,
    inputSchema: toolJsonSchema(t.input, "input"),
    outputSchema: toolJsonSchema(t.output, "output"),
    annotations: { title: t.title, ...t.annotations },
  }));
}

/** The agent's name for the pick history: its `initialize` clientInfo, e.g. "claude-code via MCP". */
function clientLabel(server: Server): string {
  const name = server.getClientVersion()?.name?.replace(/[^A-Za-z0-9._@+ -]/g, "").trim().slice(0, 80);
  return `${name || "agent"} via MCP`;
}

/** Validates the arguments, runs the tool, validates its result: any failure is a one-line `isError` result. */
async function callTool(tool: ToolSpec, rawArgs: unknown, ctx: ToolContext, log: McpLog): Promise<CallToolResult> {
  const parsed = tool.input.safeParse(rawArgs);
  if (!parsed.success) return errorResult(describeArgsError(tool.name, parsed.error));
  const started = performance.now();
  try {
    const result = await tool.run(parsed.data as never, ctx);
    const checked = tool.output.safeParse(result.structured);
    if (!checked.success) {
      log(`${tool.name}: result does not match its output schema: ${oneLine(checked.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "))}`);
      return errorResult(`${tool.name} failed: its result did not match the output schema (see the server log)`);
    }
    log(`${tool.name}: done in ${Math.round(performance.now() - started)} ms`);
    // The text quotes the repository (ADR titles, file names, rules, questions): an agent's client may print it in a
    // terminal, so no escape sequence, control, bidi or invisible character stays in it, as in the CLI's output. The
    // structured content keeps the data as it is; the transport writes its C1, bidi and invisible characters as
    // \u escapes (stdioTransport.ts), as `deliberate check --json` does.
    return { content: [{ type: "text", text: terminalSafe(result.text) }], structuredContent: result.structured };
  } catch (err) {
    if (isCancellation(err, ctx.signal)) {
      log(`${tool.name}: cancelled after ${Math.round(performance.now() - started)} ms`);
      return errorResult(`${tool.name}: cancelled`);
    }
    if (isInputError(err)) return errorResult(`${tool.name}: ${oneLine(err)}`);
    log(`${tool.name} failed: ${oneLine(err)}`);
    return errorResult(`${tool.name} failed: ${oneLine(err)}`);
  }
}

/** "warm-up: done in 1234 ms (repo: 77 documents, history index ready, 1200 ms)": the eval waits for this line. */
export function describeWarmUp(report: WarmReport): string {
  const each = report.repos.map((r) => `${r.repo}: ${r.error ? `failed (${r.error})` : `${r.documents} documents, history index ${r.history}`}, ${r.ms} ms`);
  return `${WARM_UP_DONE} in ${report.ms} ms${report.cut ? " (cut short by a call)" : ""}${report.error ? ` (failed: ${report.error})` : ""}${each.length ? ` (${each.join("; ")})` : ""}`;
}

/** The start of the log line that says the warm-up is over. */
export const WARM_UP_DONE = "warm-up: done";

/**
 * Serves MCP on stdin/stdout until the client closes stdin. stdout carries JSON-RPC only: console output goes to
 * stderr. At the end of stdin the deliberations in flight are cancelled (their worker threads stopped), every other
 * call finishes and is answered, then the connection closes; resolves when it has and every worker is gone.
 */
export async function runStdioServer(options: McpServerOptions): Promise<void> {
  const log = options.log ?? stderrLog();
  keepStdoutForProtocol(log);
  process.on("unhandledRejection", (err) => log(`unhandled rejection: ${oneLine(err)}`));
  const roots = await AllowedRoots.create(options.repos);
  const env = options.env ?? process.env;
  // DELIBERATIVE_MCP_WORKERS=off runs deliberations in this thread (a debugger's choice; long runs then block the server).
  const workerEntry = env.DELIBERATIVE_MCP_WORKERS === "off" ? undefined : options.workerEntry;
  const workers = workerEntry ? new DeliberationWorkers({ entry: workerEntry, env, log }) : undefined;
  const inFlight = new Set<Promise<unknown>>();
  const server = createMcpServer(roots, { ...options, log, inFlight, ...(workers ? { deliberations: workers, checks: workers } : {}) });
  const transport = new LineStdioTransport({
    onInputEnd: async () => {
      await workers?.stop();
      await Promise.allSettled([...inFlight]);
    },
  });
  const closed = new Promise<void>((done) => {
    server.onclose = () => done();
  });
  await server.connect(transport);
  log(`serving ${(await roots.list()).map((r) => r.path).join(", ")} over stdio${workers ? "" : " (deliberations in this thread)"}`);
  // The worker that answers the first call loads the served repositories' corpora and history indexes now, while
  // the client is idle (DELIBERATIVE_MCP_WARM=off: on the first call instead). One line says when it is done.
  if (workers) {
    const repos = (await roots.list()).map((r) => r.path);
    const warm = env.DELIBERATIVE_MCP_WARM !== "off";
    void workers.prewarm(warm ? { repos, settings: options.settings } : undefined).then((report) => {
      if (report) log(describeWarmUp(report));
    });
  }
  // The English parser loads on first use (~100 ms or more): load it while the client is still idle, so the agent's
  // first question is not the slow one (a worker does the same for itself).
  else setTimeout(() => classifyQuestion("Should we use PostgreSQL or MongoDB for orders?"), 20).unref();
  await closed;
  await workers?.stop();
}
