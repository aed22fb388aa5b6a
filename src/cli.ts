// `deliberate`: the command-line face of the same core the extension uses.
//   deliberate "<question>" [--repo DIR] [--json] [--shape option-picker|ranked-evidence] [--offline] [--force] [--no-receipt]
//   deliberate pick <receipt_id> <option_id> [--reason TEXT] [--repo DIR]
//   deliberate verify [--repo DIR]
//   deliberate list [--repo DIR] [--json]
// Exit codes: 0 ok, 1 a check failed (verify), 2 bad input, 3 the classifier abstained, 130 cancelled.
import { parseArgs } from "node:util";
import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { DeliberationError, deliberate, oneLine, type DeliberateRequest, type ExternalSources } from "./core/pipeline";
import { canonicalUrl, parseAllowHost } from "./core/external";
import { createModelStack, createOpenAIChatModel, describeEgress, describeModelConfig, modelOptionsFromCli, ModelConfigError } from "./core/model";
import { toRankedRows } from "./core/fuse";
import { loadOrCreateKeyFile } from "./core/receipts/signing";
import { listReceipts, recordPick, verifyAll } from "./core/receipts/store";
import { citationLocation, recommendationHeadline } from "./core/render";
import { UNDECIDABLE, type OptionPicker, type Receipt } from "./core/schemas";
import type { DeliberationConfig, ProgressEvent } from "./core/types";
import { DEFAULT_CONFIG } from "./core/config";

const USAGE = `usage:
  deliberate "<question>" [--repo DIR] [--json] [--shape option-picker|ranked-evidence] [--offline] [--force] [--no-receipt]
             [--no-cache] [--docs-url URL]... [--searxng URL] [--allow-host HOST[:PORT]]...
             [--provider openai|none] [--base-url URL] [--model NAME] [--keep-internal-local] [--dry-run]
             [--adr-glob GLOB]... [--convention-glob GLOB]... [--git-budget-ms MS]
  deliberate pick <receipt_id> <option_id> [--reason TEXT] [--repo DIR]
  deliberate verify [--repo DIR]
  deliberate list [--repo DIR] [--json]`;

class UsageError extends Error {}

interface Io {
  out: (s: string) => void;
  err: (s: string) => void;
  stderrIsTTY: boolean;
  env: NodeJS.ProcessEnv;
}

function repoOption(value: string | undefined): string {
  const repo = resolve(value ?? ".");
  if (!existsSync(repo)) throw new UsageError(`repository path does not exist: ${repo}`);
  if (!statSync(repo).isDirectory()) throw new UsageError(`repository path is not a directory: ${repo}`);
  return repo;
}

export async function main(argv: string[], io: Io): Promise<number> {
  try {
    const [first] = argv;
    if (!first || first === "--help" || first === "-h") {
      io.out(USAGE);
      return first ? 0 : 2;
    }
    if (first === "pick") return await pickCommand(argv.slice(1), io);
    if (first === "verify") return await verifyCommand(argv.slice(1), io);
    if (first === "list") return await listCommand(argv.slice(1), io);
    return await deliberateCommand(argv, io);
  } catch (err) {
    if (err instanceof UsageError || err instanceof DeliberationError) {
      io.err(`deliberate: ${err.message}`);
      return 2;
    }
    if ((err as Error)?.name === "AbortError") {
      io.err("deliberate: cancelled");
      return 130;
    }
    io.err(`deliberate: ${oneLine(err)}`);
    return 1;
  }
}

type OptionSpec = Record<string, { type: "string" | "boolean"; multiple?: boolean }>;

type OptionValues = Record<string, string | boolean | string[] | undefined>;

function parse(args: string[], options: OptionSpec): { values: OptionValues; positionals: string[] } {
  try {
    const { values, positionals } = parseArgs({ args, options, allowPositionals: true, strict: true });
    return { values: values as OptionValues, positionals };
  } catch (err) {
    throw new UsageError(oneLine(err));
  }
}

async function deliberateCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(argv, {
    repo: { type: "string" },
    json: { type: "boolean" },
    shape: { type: "string" },
    offline: { type: "boolean" },
    force: { type: "boolean" },
    "no-receipt": { type: "boolean" },
    "no-cache": { type: "boolean" },
    "docs-url": { type: "string", multiple: true },
    searxng: { type: "string" },
    "allow-host": { type: "string", multiple: true },
    provider: { type: "string" },
    "base-url": { type: "string" },
    model: { type: "string" },
    "keep-internal-local": { type: "boolean" },
    "dry-run": { type: "boolean" },
    "adr-glob": { type: "string", multiple: true },
    "convention-glob": { type: "string", multiple: true },
    "git-budget-ms": { type: "string" },
  });
  if (positionals.length !== 1) throw new UsageError(positionals.length ? "give the question as one quoted argument" : "the question is empty");
  const shape = (values.shape as string | undefined) ?? "option-picker";
  if (shape !== "option-picker" && shape !== "ranked-evidence") throw new UsageError(`unknown --shape ${shape} (option-picker or ranked-evidence)`);
  const repo = repoOption(values.repo as string | undefined);
  const offline = !!values.offline;
  const external = externalSources(values);
  let modelConfig: ReturnType<typeof modelOptionsFromCli>;
  try {
    modelConfig = modelOptionsFromCli(
      { provider: values.provider as string | undefined, baseUrl: values["base-url"] as string | undefined, model: values.model as string | undefined, offline },
      io.env,
    );
  } catch (err) {
    if (err instanceof ModelConfigError) throw new UsageError(err.message);
    throw err;
  }
  if (modelConfig.note) io.err(`deliberate: ${modelConfig.note}`);
  const keepInternalLocal = !!values["keep-internal-local"];
  const chat = modelConfig.provider === "openai" ? createOpenAIChatModel(modelConfig.options) : undefined;
  const stack = chat ? createModelStack(chat, { keepInternalLocal }) : {};

  const controller = new AbortController();
  const onSigint = () => controller.abort(Object.assign(new Error("cancelled"), { name: "AbortError" }));
  process.once("SIGINT", onSigint);
  const showProgress = io.stderrIsTTY && !values.json;
  try {
    const request: DeliberateRequest = {
      repo,
      question: positionals[0],
      config: { offline, ...discoveryOverrides(values) },
      external,
      ...stack,
      force: !!values.force,
      writeReceipt: !values["no-receipt"],
      useCache: !values["no-cache"],
      signingKey: loadOrCreateKeyFile(undefined),
      signal: controller.signal,
      onProgress: io.stderrIsTTY ? (e) => progressLine(e, io) : undefined,
    };
    if (showProgress && chat) io.err(`  ${describeModelConfig(modelConfig)}`);
    if (values["dry-run"]) return await dryRun(request, chat, keepInternalLocal, io);
    const outcome = await deliberate(request);
    if (outcome.kind === "abstained") {
      const c = outcome.classification;
      io.err(
        `deliberate: this does not look like an open design question (${c.class}, confidence ${c.confidence.toFixed(2)}: ${c.reasons.slice(0, 2).join("; ") || "no design phrasing"}); use --force to deliberate anyway`,
      );
      return 3;
    }
    if (shape === "ranked-evidence") {
      const rows = toRankedRows(outcome.evidence);
      if (values.json) io.out(JSON.stringify(rows, null, 2));
      else for (const r of rows) io.out(`${String(r.rank).padStart(3)}  ${r.score.toFixed(4)}  ${r.expert.padEnd(8)} ${r.commit ? `${r.commit.slice(0, 10)} ` : ""}${r.path_or_url}${r.line_range ? `:${r.line_range.start}-${r.line_range.end}` : ""}`);
      return 0;
    }
    if (values.json) io.out(JSON.stringify(outcome.payload, null, 2));
    else io.out(renderPicker(outcome.payload, outcome.receipt, outcome.receiptFile, outcome.cached));
    if (showProgress && outcome.cached) io.err("(turn cache hit: same question, config and artifacts)");
    return 0;
  } finally {
    process.removeListener("SIGINT", onSigint);
  }
}

/** Prints exactly what would leave the machine (which snippets, to which host) without calling the model. */
async function dryRun(request: DeliberateRequest, chat: ReturnType<typeof createOpenAIChatModel> | undefined, keepInternalLocal: boolean, io: Io): Promise<number> {
  if (!chat) {
    io.out("dry run: no model configured (provider none); nothing would leave the machine.");
    return 0;
  }
  const probe = await deliberate({ ...request, planner: undefined, synthesizer: undefined, writeReceipt: false, useCache: false });
  if (probe.kind === "abstained") {
    io.err("deliberate: this does not look like an open design question; use --force to preview anyway");
    return 3;
  }
  io.out(describeEgress({ question: probe.receipt.question, evidence: probe.evidence, model: chat, keepInternalLocal, candidates: probe.payload.options }).text);
  return 0;
}

/** --adr-glob / --convention-glob replace the default globs; --git-budget-ms bounds the history search. */
function discoveryOverrides(values: OptionValues): Partial<DeliberationConfig> {
  const out: Partial<DeliberationConfig> = {};
  const adr = values["adr-glob"] as string[] | undefined;
  const conventions = values["convention-glob"] as string[] | undefined;
  if (adr?.length) out.adrGlobs = adr;
  if (conventions?.length) out.conventionGlobs = conventions;
  const budget = values["git-budget-ms"] as string | undefined;
  if (budget !== undefined) {
    const ms = Number(budget);
    if (!Number.isInteger(ms) || ms < 50 || ms > 60_000) throw new UsageError(`--git-budget-ms: expected an integer from 50 to 60000, got ${budget}`);
    out.git = { ...DEFAULT_CONFIG.git, maxMs: ms };
  }
  return out;
}

/** --docs-url, --searxng and --allow-host, validated up front so a typo fails before any work is done. */
function externalSources(values: OptionValues): ExternalSources {
  const docsUrls = (values["docs-url"] as string[] | undefined) ?? [];
  const allowHosts = (values["allow-host"] as string[] | undefined) ?? [];
  const searxngUrl = values.searxng as string | undefined;
  for (const u of docsUrls) if (!canonicalUrl(u)) throw new UsageError(`--docs-url: not an http(s) URL: ${u}`);
  if (searxngUrl !== undefined && !canonicalUrl(searxngUrl)) throw new UsageError(`--searxng: not an http(s) URL: ${searxngUrl}`);
  for (const h of allowHosts) if (!parseAllowHost(h)) throw new UsageError(`--allow-host: expected HOST[:PORT], got ${h}`);
  return {
    ...(docsUrls.length ? { docsUrls } : {}),
    ...(searxngUrl ? { searxngUrl } : {}),
    ...(allowHosts.length ? { allowHosts } : {}),
  };
}

function progressLine(e: ProgressEvent, io: Io): void {
  if (e.state !== "done") return;
  const ms = e.ms !== undefined ? ` ${e.ms.toFixed(0)} ms` : "";
  const count = e.count !== undefined ? ` (${e.count})` : "";
  io.err(`  ${e.stage.padEnd(18)} ${e.status ?? ""}${count}${ms}${e.reason && e.status !== "ok" ? ` — ${e.reason}` : ""}`);
}

function wrap(text: string, width = 96, indent = "   "): string {
  const out: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/)) {
    if ((line + " " + word).trim().length > width) {
      out.push(line);
      line = word;
    } else line = `${line} ${word}`.trim();
  }
  if (line) out.push(line);
  return out.map((l) => indent + l).join("\n");
}

export function renderPicker(p: OptionPicker, receipt: Receipt, file: string | undefined, cached: boolean): string {
  const lines: string[] = [];
  const num = (id: string) => p.citations.findIndex((c) => c.id === id) + 1;
  lines.push(`Question: ${p.question}`, "");
  const mark = p.recommendation.option_id === UNDECIDABLE ? "?" : "★";
  lines.push(`${mark} ${recommendationHeadline(p)}  [confidence ${p.recommendation.confidence}]`);
  lines.push(wrap(p.recommendation.rationale), "");
  lines.push("Options:");
  for (const o of p.options) {
    const rec = o.id === p.recommendation.option_id ? " ★" : "";
    const picked = receipt.operator_pick?.option_id === o.id ? " ✔ picked" : "";
    lines.push(`  ${o.id}${rec}${picked}`);
    lines.push(`   ${o.title}  · cost ${o.cost} · risk ${o.risk}${o.confidence ? ` · confidence ${o.confidence}` : ""}`);
    lines.push(wrap(o.summary));
    lines.push(`   supports: ${o.supports.map((id) => `[${num(id)}]`).join(" ") || "—"}   dissent: ${o.dissent.map((id) => `[${num(id)}]`).join(" ") || "—"}`);
    for (const t of o.tradeoffs) lines.push(`     ${t}`);
  }
  lines.push("", "Citations:");
  p.citations.forEach((c, i) => {
    const when = c.fetched_at ? ` fetched ${c.fetched_at}` : "";
    const failed = c.resolution_failed ? " (no longer resolves)" : "";
    lines.push(`  [${i + 1}] ${c.kind === "internal" ? "int" : "ext"}  ${citationLocation(c)}${when}${failed}${c.title ? `  — ${c.title}` : ""}`);
  });
  if (!p.citations.length) lines.push("  (none: no evidence took a side)");
  const st = (n: string) => receipt.stages[n];
  lines.push("");
  lines.push(
    `Stages: ${["internal", "external", "synthesis"].map((n) => `${n} ${st(n)?.status ?? "?"}`).join(" · ")}   Coverage: ${p.coverage.internal} internal, ${p.coverage.external} external`,
  );
  for (const n of ["internal", "external"]) if (st(n)?.status !== "ok" && st(n)?.reason) lines.push(`  ${n}: ${st(n)!.reason}`);
  lines.push(`Receipt: ${receipt.receipt_id}${file ? `  (${file})` : "  (not written)"}${cached ? "  [cached turn]" : ""}`);
  lines.push(`Pick with: deliberate pick ${receipt.receipt_id} <option_id> [--reason "…"]`);
  return lines.join("\n");
}

async function pickCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(argv, { repo: { type: "string" }, reason: { type: "string" } });
  if (positionals.length !== 2) throw new UsageError("pick needs <receipt_id> <option_id>");
  const repo = repoOption(values.repo as string | undefined);
  const [receiptId, optionId] = positionals;
  let receipt: Receipt;
  try {
    receipt = await recordPick(repo, receiptId, { option_id: optionId, reason: values.reason as string | undefined }, loadOrCreateKeyFile(undefined));
  } catch (err) {
    throw new UsageError(oneLine(err));
  }
  const pick = receipt.operator_pick!;
  io.out(`picked ${pick.option_id} for ${receipt.receipt_id}${pick.overrode_recommendation ? " (overrides the recommendation)" : ""}; receipt re-signed`);
  return 0;
}

async function verifyCommand(argv: string[], io: Io): Promise<number> {
  const { values } = parse(argv, { repo: { type: "string" } });
  const repo = repoOption(values.repo as string | undefined);
  const results = await verifyAll(repo);
  if (!results.length) {
    io.out("no receipts found");
    return 0;
  }
  let failed = 0;
  for (const r of results) {
    const ok = r.signature === "valid";
    if (!ok) failed++;
    const citations = r.unresolved.length ? `; ${r.unresolved.length} citation(s) no longer resolve: ${r.unresolved.join(", ")}` : "; citations resolve";
    io.out(`${ok ? "ok     " : r.signature === "corrupt" ? "CORRUPT" : "INVALID"} ${r.receipt_id}  ${ok ? "signature valid" : r.reason}${r.signature === "corrupt" ? "" : citations}`);
  }
  io.out(`${results.length - failed} valid, ${failed} failed`);
  return failed ? 1 : 0;
}

async function listCommand(argv: string[], io: Io): Promise<number> {
  const { values } = parse(argv, { repo: { type: "string" }, json: { type: "boolean" } });
  const repo = repoOption(values.repo as string | undefined);
  const entries = await listReceipts(repo);
  const rows = entries.map((e) =>
    e.state === "corrupt"
      ? { receipt_id: e.receipt_id, state: "corrupt", error: e.error }
      : {
          receipt_id: e.receipt_id,
          state: e.receipt.operator_pick ? (e.receipt.operator_pick.overrode_recommendation ? "overridden" : "picked") : "pending",
          created_at: e.receipt.created_at,
          question: e.receipt.question,
          recommendation: e.receipt.payload.recommendation.option_id,
          pick: e.receipt.operator_pick?.option_id ?? null,
        },
  );
  if (values.json) io.out(JSON.stringify(rows, null, 2));
  else if (!rows.length) io.out("no receipts found");
  else for (const r of rows) io.out("error" in r ? `${r.receipt_id}  CORRUPT  ${r.error}` : `${r.receipt_id}  ${r.state.padEnd(10)} ${r.question}`);
  return 0;
}

if (require.main === module) {
  main(process.argv.slice(2), {
    out: (s) => process.stdout.write(s + "\n"),
    err: (s) => process.stderr.write(s + "\n"),
    stderrIsTTY: !!process.stderr.isTTY,
    env: process.env,
  }).then(
    (code) => {
      process.exitCode = code;
    },
    (err) => {
      process.stderr.write(`deliberate: ${oneLine(err)}\n`);
      process.exitCode = 1;
    },
  );
}
