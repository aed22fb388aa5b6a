// The `deliberate` tool: the same core pipeline as the CLI (signing key, model stack from the environment, offline
// flag, history index), answered as the OptionPicker payload (structuredContent) plus its Markdown rendering.
import type { z } from "zod";
import { DEFAULT_CONFIG } from "../core/config";
import { deliberate, type DeliberateOutcome, type DeliberateRequest } from "../core/pipeline";
import { hostCorpusCache } from "../core/internal/corpus/store";
import { createModelStack, createOpenAIChatModel, describeModelConfig, modelOptionsFromCli, ModelConfigError } from "../core/model";
import { toRankedRows } from "../core/fuse";
import { receiptToMarkdown } from "../core/render";
import { stageRunningLabel, stageTitle } from "../core/stages";
import type { HistoryIndexOptions } from "../core/internal/history";
import type { DeliberationConfig, ProgressEvent } from "../core/types";
import type { Receipt } from "../core/schemas";
import type { SigningKey } from "../core/receipts/signing";
import type { McpLog } from "./log";
import { ToolInputError, type McpSettings, type ToolContext, type ToolResult } from "./toolResult";
import type { DeliberateInput } from "./toolSchemas";

type Args = z.infer<typeof DeliberateInput>;
/** What modelStack, historyOptions and progressReporter read: the host's settings, environment, log and progress. */
type RunContext = Pick<ToolContext, "settings" | "env" | "log" | "reportProgress">;

/** The model stack from the environment, exactly as the CLI reads it (DELIBERATIVE_BASE_URL, DELIBERATIVE_MODEL, …). */
function modelStack(ctx: RunContext, offline: boolean, critic = false): Pick<DeliberateRequest, "planner" | "synthesizer" | "critic"> {
  let config: ReturnType<typeof modelOptionsFromCli>;
  try {
    config = modelOptionsFromCli({ ...ctx.settings.model, offline: offline || ctx.settings.offline }, ctx.env);
  } catch (err) {
    if (err instanceof ModelConfigError) throw new ToolInputError(`model configuration: ${err.message}`);
    throw err;
  }
  if (config.note) ctx.log(config.note);
  if (config.provider !== "openai") return {};
  ctx.log(`model: ${describeModelConfig(config)}`);
  return createModelStack(createOpenAIChatModel(config.options), { keepInternalLocal: ctx.settings.keepInternalLocal, critic });
}

/** A long-lived server builds the history index in this process without waiting, as the extension does. */
function historyOptions(ctx: RunContext): HistoryIndexOptions | undefined {
  if (ctx.env.DELIBERATIVE_HISTORY_INDEX === "off") return undefined;
  return { build: "background", log: (l) => ctx.log(l) };
}

/** One MCP progress notification per stage start and end, when the client sent a progress token. */
function progressReporter(ctx: RunContext): ((e: ProgressEvent) => void) | undefined {
  if (!ctx.reportProgress) return undefined;
  const report = ctx.reportProgress;
  return (e) => report(e.state === "start" ? `${stageTitle(e.stage)}: ${stageRunningLabel(e.stage)}` : `${stageTitle(e.stage)}: ${e.status ?? "done"}${e.count !== undefined ? ` (${e.count})` : ""}`);
}

/**
 * What a deliberation needs once the main thread has checked its paths against the allowed roots: plain data, so
 * it can be handed to a worker thread (src/mcp/workerPool.ts) as it is.
 */
export interface DeliberationJob {
  args: Args;
  /** The repository, a real path inside an allowed root. */
  repo: string;
  /** `context.path` relative to `repo`, checked. */
  file?: string;
  settings: McpSettings;
  /** The receipt's URI (ToolContext.resourceUri) around its id: `${before}${receipt_id}${after}`. */
  receiptUri: { before: string; after: string };
}

/** Stands for the receipt id while the main thread spells the receipt's URI for the worker. */
const RECEIPT_ID_MARK = "RECEIPT-ID-MARK";

/** What a deliberation needs from its host besides the job: in a worker, these cross the thread boundary. */
export interface DeliberationHost {
  env: NodeJS.ProcessEnv;
  log: McpLog;
  signingKey: () => SigningKey;
  signal: AbortSignal;
  reportProgress?: (message: string) => void;
}

export interface DeliberationDone {
  result: ToolResult;
  /** A new receipt is on disk: the client hears that the resource list changed. */
  wroteReceipt: boolean;
}

/** Runs a prepared deliberation somewhere else (a worker thread), so the server's message loop stays free. */
export interface DeliberationRunner {
  run(job: DeliberationJob, signal: AbortSignal, reportProgress?: (message: string) => void): Promise<DeliberationDone>;
}

export async function deliberateTool(args: Args, ctx: ToolContext): Promise<ToolResult> {
  const job = await prepareDeliberation(args, ctx);
  const done = ctx.deliberations
    ? await ctx.deliberations.run(job, ctx.signal, ctx.reportProgress)
    : await runDeliberation(job, { env: ctx.env, log: ctx.log, signingKey: ctx.signingKey, signal: ctx.signal, reportProgress: ctx.reportProgress });
  if (done.wroteReceipt) await ctx.receiptsChanged();
  return done.result;
}

/** The part that needs the allowed roots (main thread): which repository, which context file, which URI name. */
export async function prepareDeliberation(args: Args, ctx: Pick<ToolContext, "roots" | "settings" | "resourceUri">): Promise<DeliberationJob> {
  const repo = await ctx.roots.resolveRepo(args.repo, args.context?.path);
  const file = args.context ? await ctx.roots.resolveContextPath(repo, args.context.path) : undefined;
  const [before, after = ""] = (await ctx.resourceUri(repo))(RECEIPT_ID_MARK).split(RECEIPT_ID_MARK);
  return { args, repo, ...(file !== undefined ? { file } : {}), settings: ctx.settings, receiptUri: { before, after } };
}

/**
 * Test hook: a synchronous busy loop of this many milliseconds before the pipeline, standing in for a run stuck in
 * synchronous code that never looks at its AbortSignal (a pathological match), so tests can show that such a run
 * neither holds the server's message loop nor outlives its cancellation.
 */
const TEST_BUSY_ENV = "DELIBERATIVE_MCP_TEST_BUSY_MS";

function busyWaitForTests(env: NodeJS.ProcessEnv): void {
  const ms = Number(env[TEST_BUSY_ENV] ?? 0);
  if (!(ms > 0)) return;
  const until = performance.now() + Math.min(ms, 600_000);
  while (performance.now() < until) {
    // spinning on purpose
  }
}

/** The pipeline's settings for a call: offline or not, and the server's history budget (--git-budget-ms). */
export function deliberationConfig(settings: McpSettings, offline: boolean): Partial<DeliberationConfig> {
  return { offline, ...(settings.gitBudgetMs !== undefined ? { git: { ...DEFAULT_CONFIG.git, maxMs: settings.gitBudgetMs } } : {}) };
}

/** The pipeline run itself: in the server's worker thread, or in-process when the server has no worker. */
export async function runDeliberation(job: DeliberationJob, host: DeliberationHost): Promise<DeliberationDone> {
  busyWaitForTests(host.env);
  const { args, repo, file } = job;
  const ctx = { settings: job.settings, env: host.env, log: host.log, reportProgress: host.reportProgress };
  const offline = !!args.offline || job.settings.offline;
  const request: DeliberateRequest = {
    repo,
    question: args.question,
    ...(args.context ? { context: { file, ...(args.context.line ? { line: args.context.line } : {}), ...(args.context.text ? { text: args.context.text } : {}) } } : {}),
    config: deliberationConfig(job.settings, offline),
    ...modelStack(ctx, offline, args.critic === true),
    force: !!args.force,
    ...(job.settings.noTurnCache ? { useCache: false } : {}),
    // DELIBERATIVE_CRITIC=off: without the rules Critic, as the CLI (the eval's resident mode compares the two).
    ...(host.env.DELIBERATIVE_CRITIC === "off" ? { rulesCritic: false } : {}),
    signingKey: host.signingKey(),
    signal: host.signal,
    onProgress: progressReporter(ctx),
    onLog: (l) => host.log(l),
    history: historyOptions(ctx),
    corpusCache: hostCorpusCache(host.env, (l) => host.log(l)),
    ...(job.settings.sources?.length ? { sources: { specs: job.settings.sources } } : {}),
  };
  const outcome = await deliberate(request);
  const uriOf = (id: string) => `${job.receiptUri.before}${id}${job.receiptUri.after}`;
  return { result: renderOutcome(outcome, args.shape ?? "option-picker", uriOf), wroteReceipt: outcome.kind === "deliberated" };
}

function renderOutcome(outcome: DeliberateOutcome, shape: "option-picker" | "ranked-evidence", uriOf: (id: string) => string): ToolResult {
  if (outcome.kind === "abstained") {
    const c = outcome.classification;
    const hint = "Call deliberate again with force: true to deliberate anyway.";
    const why = c.reasons.slice(0, 2).join("; ") || "no design phrasing";
    return {
      text: `This does not look like an open design question (${c.class}, confidence ${c.confidence.toFixed(2)}: ${why}). ${hint}`,
      structured: { abstained: true, question: outcome.question, classification: c, hint },
    };
  }
  if (shape === "ranked-evidence") {
    const rows = toRankedRows(outcome.evidence);
    const lines = rows.map((r) => `${r.rank}. \`${r.commit ? `${r.commit.slice(0, 10)} ` : ""}${r.path_or_url}${r.line_range ? `:${r.line_range.start}-${r.line_range.end}` : ""}\` (${r.expert}, ${r.score.toFixed(4)})`);
    return { text: [`# Ranked evidence: ${outcome.receipt.question}`, "", ...(lines.length ? lines : ["(no evidence found)"])].join("\n"), structured: { rows } };
  }
  return { text: pickerMarkdown(outcome.receipt, uriOf(outcome.receipt.receipt_id), outcome.cached), structured: outcome.payload };
}

/** The receipt's Markdown plus what an agent needs next: the option ids, the receipt id and how to record a pick. */
export function pickerMarkdown(receipt: Receipt, uri: string, cached = false): string {
  const p = receipt.payload;
  const ids = p.options.map((o) => `- \`${o.id}\`: ${o.title}${o.id === p.recommendation.option_id ? " (recommended)" : ""}`);
  const cites = p.citations.length ? "" : "\nNo evidence took a side.";
  return [
    receiptToMarkdown(receipt).trimEnd(),
    "",
    "## Next step",
    "",
    "Option ids:",
    ...ids,
    "",
    `Receipt id: \`${receipt.receipt_id}\` (${uri})${cached ? " — answered from the turn cache" : ""}.${cites}`,
    `Record the choice with the record_pick tool: {"receipt_id": "${receipt.receipt_id}", "option_id": "<option id>", "reason": "…"}.`,
    "",
  ].join("\n");
}
