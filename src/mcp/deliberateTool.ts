// The `deliberate` tool: the same core pipeline as the CLI (signing key, model stack from the environment, offline
// flag, history index), answered as the OptionPicker payload (structuredContent) plus its Markdown rendering.
import type { z } from "zod";
import { deliberate, type DeliberateOutcome, type DeliberateRequest } from "../core/pipeline";
import { hostCorpusCache } from "../core/internal/corpus/store";
import { createModelStack, createOpenAIChatModel, describeModelConfig, modelOptionsFromCli, ModelConfigError } from "../core/model";
import { toRankedRows } from "../core/fuse";
import { receiptToMarkdown } from "../core/render";
import { stageRunningLabel, stageTitle } from "../core/stages";
import type { HistoryIndexOptions } from "../core/internal/history";
import type { ProgressEvent } from "../core/types";
import type { Receipt } from "../core/schemas";
import { ToolInputError, type ToolContext, type ToolResult } from "./toolResult";
import type { DeliberateInput } from "./toolSchemas";

type Args = z.infer<typeof DeliberateInput>;

/** The model stack from the environment, exactly as the CLI reads it (DELIBERATIVE_BASE_URL, DELIBERATIVE_MODEL, …). */
function modelStack(ctx: ToolContext, offline: boolean): Pick<DeliberateRequest, "planner" | "synthesizer"> {
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
  return createModelStack(createOpenAIChatModel(config.options), { keepInternalLocal: ctx.settings.keepInternalLocal });
}

/** A long-lived server builds the history index in this process without waiting, as the extension does. */
function historyOptions(ctx: ToolContext): HistoryIndexOptions | undefined {
  if (ctx.env.DELIBERATIVE_HISTORY_INDEX === "off") return undefined;
  return { build: "background", log: (l) => ctx.log(l) };
}

/** One MCP progress notification per stage start and end, when the client sent a progress token. */
function progressReporter(ctx: ToolContext): ((e: ProgressEvent) => void) | undefined {
  if (!ctx.reportProgress) return undefined;
  const report = ctx.reportProgress;
  return (e) => report(e.state === "start" ? `${stageTitle(e.stage)}: ${stageRunningLabel(e.stage)}` : `${stageTitle(e.stage)}: ${e.status ?? "done"}${e.count !== undefined ? ` (${e.count})` : ""}`);
}

export async function deliberateTool(args: Args, ctx: ToolContext): Promise<ToolResult> {
  const repo = await ctx.roots.resolveRepo(args.repo, args.context?.path);
  const file = args.context ? await ctx.roots.resolveContextPath(repo, args.context.path) : undefined;
  const offline = !!args.offline || ctx.settings.offline;
  const request: DeliberateRequest = {
    repo,
    question: args.question,
    ...(args.context ? { context: { file, ...(args.context.line ? { line: args.context.line } : {}), ...(args.context.text ? { text: args.context.text } : {}) } } : {}),
    config: { offline },
    ...modelStack(ctx, offline),
    force: !!args.force,
    signingKey: ctx.signingKey(),
    signal: ctx.signal,
    onProgress: progressReporter(ctx),
    onLog: (l) => ctx.log(l),
    history: historyOptions(ctx),
    corpusCache: hostCorpusCache(ctx.env, (l) => ctx.log(l)),
  };
  const outcome = await deliberate(request);
  if (outcome.kind === "deliberated") await ctx.receiptsChanged();
  return renderOutcome(outcome, args.shape ?? "option-picker", await ctx.resourceUri(repo));
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
