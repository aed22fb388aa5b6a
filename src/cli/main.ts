// `deliberate`: the command-line face of the same core the extension uses.
//   deliberate "<question>" [--repo DIR] [--json] [--shape option-picker|ranked-evidence] [--offline] [--force] [--no-receipt]
//   deliberate pick <receipt_id> <option_id> [--reason TEXT] [--repo DIR]
//   deliberate verify [--repo DIR] [--allow-untrusted] [--evidence] [--json]
//   deliberate list [--repo DIR] [--json]
//   deliberate keys show|add|list
// Exit codes: 0 ok, 1 a check failed (verify, a refused pick), 2 bad input, 3 the classifier abstained, 130 cancelled.
// Everything printed passes through the terminal sanitiser (sanitize.ts): text from the repository, a model or the
// web never reaches the terminal with its control sequences.
import { hostname, userInfo } from "node:os";
import { DeliberationError, deliberate, type DeliberateRequest, type ExternalSources } from "../core/pipeline";
import { hostCorpusCache } from "../core/internal/corpus/store";
import { canonicalUrl, hasCredentials, parseAllowHost } from "../core/external";
import { describeFallback, fallbackOf } from "../core/fallback";
import { createModelStack, createOpenAIChatModel, describeEgress, describeModelConfig, modelOptionsFromCli, ModelConfigError } from "../core/model";
import { toRankedRows } from "../core/fuse";
import { keyIdOf, loadKeyFileIfExists, loadOrCreateKeyFile } from "../core/receipts/signing";
import {
  DEFAULT_RECEIPTS_DIR,
  LockTimeoutError,
  PickRefusedError,
  ReceiptInputError,
  ReceiptsDirError,
  recordPick,
  verifyAll,
  type ReceiptVerification,
} from "../core/receipts/store";
import { ALLOWED_SIGNERS_FILE, SIGNER_NAME, addAllowedSigner, classifySigner, readAllowedSigners, signerLine } from "../core/receipts/trust";
import { objectionLines } from "./objections";
import { terminalSafe, terminalSafeJson, terminalSafeLine } from "../core/sanitize";
import { citationLocation, modelDissentLine, rationaleBeforeNote, recommendationHeadline, synthesisLabel, synthesisSummary } from "../core/render";
import { UNDECIDABLE } from "../core/constants";
import type { OptionPicker, Receipt } from "../core/schemas";
import { SUMMARY_STAGES, parseExpertStage, stageTitle } from "../core/stages";
import { oneLine } from "../core/text";
import { exitCodeForError, runAsProcess } from "./processEntry";
import type { DeliberationConfig, ProgressEvent } from "../core/types";
import { DEFAULT_CONFIG } from "../core/config";
import { UsageError, cancelOnSigint, parseOptions, repoOption, type OptionSpec, type OptionValues } from "./common";
import { INDEX_USAGE, historyOptionsForCli, indexCommand } from "./historyIndex";
import { STATS_USAGE, statsCommand } from "./stats";
import { freshnessDetail, freshnessJson, freshnessOf } from "./freshness";
import { DIFF_USAGE, diffCommand } from "./diff";
import { ADR_USAGE, adrCommand } from "./adr";
import { CHECK_USAGE, checkCommand } from "./check";
import { listCommand } from "./list";

const USAGE = `usage:
  deliberate "<question>" [--repo DIR] [--json] [--shape option-picker|ranked-evidence] [--offline] [--force] [--no-receipt]
             [--no-cache] [--docs-url URL]... [--searxng URL] [--allow-host HOST[:PORT]]...
             [--provider openai|none] [--base-url URL] [--model NAME] [--keep-internal-local] [--critic] [--dry-run]
             [--adr-glob GLOB]... [--convention-glob GLOB]... [--git-budget-ms MS]
             [--source FOLDER|GIT-URL[#REF][:PATH]]...
  deliberate pick <receipt_id> <option_id> [--reason TEXT] [--repo DIR]
  deliberate verify [--repo DIR] [--allow-untrusted] [--evidence] [--json]
  deliberate list [--repo DIR] [--json]
  deliberate keys show [--name NAME]
  deliberate keys add <name> <public-key> [--repo DIR]
  deliberate keys list [--repo DIR]
  ${INDEX_USAGE}
  ${STATS_USAGE}
  ${DIFF_USAGE}
  deliberate mcp [--repo DIR]... [--source SRC]... [--offline] [--provider openai|none] [--base-url URL] [--model NAME] [--keep-internal-local]
                 [--no-cache] [--git-budget-ms MS]
  ${ADR_USAGE}
  ${CHECK_USAGE}`;

interface Io {
  out: (s: string) => void;
  err: (s: string) => void;
  stderrIsTTY: boolean;
  env: NodeJS.ProcessEnv;
}

/** The same Io with every line made terminal-safe (control sequences and characters stripped). */
function safeIo(io: Io): Io {
  return { ...io, out: (s) => io.out(terminalSafe(s)), err: (s) => io.err(terminalSafe(s)) };
}

/** JSON for stdout: C1/DEL escaped (JSON.stringify already escapes C0), so it prints inertly and parses the same. */
function printJson(io: Io, value: unknown): void {
  io.out(terminalSafeJson(JSON.stringify(value, null, 2)));
}

export async function main(argv: string[], rawIo: Io): Promise<number> {
  const io = safeIo(rawIo);
  try {
    const [first] = argv;
    if (argv.length === 0) {
      io.err("deliberate: no question given (deliberate --help shows the usage)");
      return 2;
    }
    if (first === "--help" || first === "-h") {
      io.out(USAGE);
      return 0;
    }
    if (first === "pick") return await pickCommand(argv.slice(1), io);
    if (first === "verify") return await verifyCommand(argv.slice(1), io);
    if (first === "list") return await listCommand(argv.slice(1), io);
    if (first === "keys") return await keysCommand(argv.slice(1), io);
    if (first === "index") return await indexCommand(argv.slice(1), io);
    if (first === "stats") return await statsCommand(argv.slice(1), io);
    if (first === "diff") return await diffCommand(argv.slice(1), io);
    if (first === "mcp") return await (await import("./mcp")).mcpCommand(argv.slice(1), rawIo.env);
    if (first === "adr") return await adrCommand(argv.slice(1), io);
    if (first === "check") return await checkCommand(argv.slice(1), io);
    return await deliberateCommand(argv, io);
  } catch (err) {
    return exitCodeForError(err, io.err, (e) => e instanceof UsageError || e instanceof DeliberationError || e instanceof ReceiptsDirError || e instanceof ReceiptInputError);
  }
}

const DELIBERATE_OPTIONS: OptionSpec = {
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
  critic: { type: "boolean" },
  "dry-run": { type: "boolean" },
  "adr-glob": { type: "string", multiple: true },
  "convention-glob": { type: "string", multiple: true },
  "git-budget-ms": { type: "string" },
  source: { type: "string", multiple: true },
};

type Shape = "option-picker" | "ranked-evidence";
type ChatModel = ReturnType<typeof createOpenAIChatModel>;

async function deliberateCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseOptions(argv, DELIBERATE_OPTIONS);
  if (positionals.length !== 1) throw new UsageError(positionals.length ? "give the question as one quoted argument" : "the question is empty");
  const shape = (values.shape as string | undefined) ?? "option-picker";
  if (shape !== "option-picker" && shape !== "ranked-evidence") throw new UsageError(`unknown --shape ${shape} (option-picker or ranked-evidence)`);
  const repo = repoOption(values.repo as string | undefined);
  const offline = !!values.offline;
  const external = externalSources(values);
  const model = modelFromArgs(values, offline, io);
  const showProgress = io.stderrIsTTY && !values.json;
  return cancelOnSigint(async (signal) => {
    const request: DeliberateRequest = {
      repo,
      question: positionals[0],
      config: { offline, ...discoveryOverrides(values) },
      external,
      ...model.stack,
      force: !!values.force,
      writeReceipt: !values["no-receipt"],
      useCache: !values["no-cache"],
      signingKey: loadOrCreateKeyFile(undefined),
      signal,
      onProgress: io.stderrIsTTY ? (e) => progressLine(e, io) : undefined,
      history: historyOptionsForCli(io, showProgress),
      corpusCache: hostCorpusCache(io.env, (l) => io.err(`deliberate: ${l}`)),
      // DELIBERATIVE_CRITIC=off: answers without the rules Critic, so the eval can measure what it changes.
      ...(io.env.DELIBERATIVE_CRITIC === "off" ? { rulesCritic: false } : {}),
      // Decision sources (src/core/sources/): records that live in another folder or repository.
      ...((values.source as string[] | undefined)?.length ? { sources: { specs: values.source as string[], cwd: process.cwd() } } : {}),
    };
    if (showProgress && model.describe) io.err(`  ${model.describe}`);
    if (values["dry-run"]) return dryRun(request, model.chat, model.keepInternalLocal, io);
    return printOutcome(await deliberate(request), shape, !!values.json, showProgress, io);
  });
}

/** --provider / --base-url / --model (and the environment): the model stack, or none. */
function modelFromArgs(values: OptionValues, offline: boolean, io: Io): { chat?: ChatModel; stack: Pick<DeliberateRequest, "planner" | "synthesizer" | "critic">; keepInternalLocal: boolean; describe?: string } {
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
  if (modelConfig.provider !== "openai") {
    if (values.critic) io.err("deliberate: --critic needs a model (--provider openai); only the rules Critic runs");
    return { stack: {}, keepInternalLocal };
  }
  const chat = createOpenAIChatModel(modelConfig.options);
  return { chat, stack: createModelStack(chat, { keepInternalLocal, critic: !!values.critic }), keepInternalLocal, describe: describeModelConfig(modelConfig) };
}

/** The outcome on stdout: the picker (text or --json) or the ranked evidence; exit 3 when the classifier abstained. */
function printOutcome(outcome: Awaited<ReturnType<typeof deliberate>>, shape: Shape, json: boolean, showProgress: boolean, io: Io): number {
  if (outcome.kind === "abstained") {
    const c = outcome.classification;
    io.err(
      `deliberate: this does not look like an open design question (${c.class}, confidence ${c.confidence.toFixed(2)}: ${c.reasons.slice(0, 2).join("; ") || "no design phrasing"}); use --force to deliberate anyway`,
    );
    return 3;
  }
  if (shape === "ranked-evidence") {
    const rows = toRankedRows(outcome.evidence);
    if (json) printJson(io, rows);
    else for (const r of rows) io.out(`${String(r.rank).padStart(3)}  ${r.score.toFixed(4)}  ${r.expert.padEnd(8)} ${r.commit ? `${r.commit.slice(0, 10)} ` : ""}${r.path_or_url}${r.line_range ? `:${r.line_range.start}-${r.line_range.end}` : ""}`);
    return 0;
  }
  // The JSON is the payload plus which path produced it (the receipt's synthesis mode), so a model answer is visible.
  if (json) printJson(io, { ...outcome.payload, synthesis: synthesisSummary(outcome.receipt.synthesis) });
  else io.out(renderPicker(outcome.payload, outcome.receipt, outcome.receiptFile, outcome.cached));
  if (showProgress && outcome.cached) io.err("(turn cache hit: same question, config and artifacts)");
  return 0;
}

/** Prints exactly what would leave the machine (which snippets, to which host) without calling the model. */
async function dryRun(request: DeliberateRequest, chat: ChatModel | undefined, keepInternalLocal: boolean, io: Io): Promise<number> {
  if (!chat) {
    io.out("dry run: no model configured (provider none); nothing would leave the machine.");
    return 0;
  }
  const probe = await deliberate({ ...request, planner: undefined, synthesizer: undefined, critic: undefined, writeReceipt: false, useCache: false });
  if (probe.kind === "abstained") {
    io.err("deliberate: this does not look like an open design question; use --force to preview anyway");
    return 3;
  }
  // The synthesis call reads the fused evidence; the code-usage lines are counted after it (the critic sees them).
  const fused = probe.evidence.filter((e) => e.expert !== "code");
  io.out(describeEgress({ question: probe.receipt.question, evidence: fused, model: chat, keepInternalLocal, candidates: probe.payload.options, critic: !!request.critic }).text);
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
  // A user name or password in a URL would end up in the signed receipt, the evidence files and the web cache:
  // refused, and never echoed back.
  const credentials = (flag: string) =>
    new UsageError(`${flag}: URLs with credentials (user:password@) are refused; they would be stored in receipts and caches`);
  for (const u of docsUrls) {
    if (hasCredentials(u)) throw credentials("--docs-url");
    if (!canonicalUrl(u)) throw new UsageError(`--docs-url: not an http(s) URL: ${u}`);
  }
  if (searxngUrl !== undefined) {
    if (hasCredentials(searxngUrl)) throw credentials("--searxng");
    if (!canonicalUrl(searxngUrl)) throw new UsageError(`--searxng: not an http(s) URL: ${searxngUrl}`);
  }
  for (const h of allowHosts) {
    if (h.includes("@")) throw new UsageError("--allow-host: credentials (user:password@) are not accepted; give HOST[:PORT]");
    if (!parseAllowHost(h)) throw new UsageError(`--allow-host: expected HOST[:PORT], got ${h}`);
  }
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
  io.err(`  ${stageTitle(e.stage).padEnd(24)} ${e.status ?? ""}${count}${ms}${e.reason && e.status !== "ok" ? ` — ${e.reason}` : ""}`);
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
  lines.push(wrap(rationaleBeforeNote(p)));
  const dissent = modelDissentLine(p);
  if (dissent) lines.push(dissent);
  lines.push(`Synthesis: ${synthesisLabel(receipt.synthesis)}`, "");
  lines.push("Options:");
  for (const o of p.options) {
    const rec = o.id === p.recommendation.option_id ? " ★" : "";
    const picked = receipt.operator_pick?.option_id === o.id ? ` ✔ picked${receipt.picks?.at(-1)?.picked_by === "agent" ? " by an agent" : ""}` : "";
    lines.push(`  ${o.id}${rec}${picked}`);
    lines.push(`   ${o.title}  · cost ${o.cost} · risk ${o.risk}${o.confidence ? ` · confidence ${o.confidence}` : ""}`);
    lines.push(wrap(o.summary));
    lines.push(`   supports: ${o.supports.map((id) => `[${num(id)}]`).join(" ") || "—"}   dissent: ${o.dissent.map((id) => `[${num(id)}]`).join(" ") || "—"}`);
    for (const t of o.tradeoffs) lines.push(`     ${t}`);
  }
  lines.push(...objectionLines(p, num, (t, indent) => wrap(t, 96, indent)));
  lines.push("", "Citations:");
  p.citations.forEach((c, i) => {
    const when = c.fetched_at ? ` fetched ${c.fetched_at}` : "";
    const failed = c.resolution_failed ? " (no longer resolves)" : "";
    lines.push(`  [${i + 1}] ${c.kind === "internal" ? "int" : "ext"}  ${citationLocation(c)}${when}${failed}${c.title ? `  — ${c.title}` : ""}`);
  });
  if (!p.citations.length) lines.push("  (none: no evidence took a side)");
  lines.push("", ...stageLines(receipt));
  lines.push(`Receipt: ${receipt.receipt_id}${file ? `  (${file})` : "  (not written)"}${cached ? "  [cached turn]" : ""}`);
  lines.push(`Pick with: deliberate pick ${receipt.receipt_id} <option_id> [--reason "…"]`);
  return lines.join("\n");
}

/** The summary stages with their status, the reasons of those that did not go well, and a model fallback. */
function stageLines(receipt: Receipt): string[] {
  const p = receipt.payload;
  const lines = [
    `Stages: ${SUMMARY_STAGES.map((n) => `${stageTitle(n)} ${receipt.stages[n]?.status ?? "?"}`).join(" · ")}   Coverage: ${p.coverage.internal} internal, ${p.coverage.external} external`,
  ];
  for (const n of SUMMARY_STAGES) {
    const s = receipt.stages[n];
    if (s && s.status !== "ok" && s.reason) lines.push(`  ${stageTitle(n)}: ${s.reason}`);
  }
  // A summary stage is ok when any of its experts is; an expert that failed still weakens the answer, so it shows.
  for (const [name, s] of Object.entries(receipt.stages)) {
    const expert = parseExpertStage(name);
    if (expert && s?.status === "failed") lines.push(`  ${stageTitle(name)} (${expert.side}): failed${s.reason ? ` — ${s.reason}` : ""}`);
  }
  const fallback = fallbackOf(receipt.synthesis);
  if (fallback) lines.push(`  ${stageTitle("synthesis")}: rules synthesizer used — ${describeFallback(fallback)}`);
  return lines;
}

/** Your name in picks and in `keys show`: $DELIBERATIVE_SIGNER_NAME, else user@host (only name-safe characters). */
function localSignerName(env: NodeJS.ProcessEnv): string {
  const wanted = env.DELIBERATIVE_SIGNER_NAME?.trim();
  if (wanted && SIGNER_NAME.test(wanted)) return wanted;
  let user = "user";
  try {
    user = userInfo().username || user;
  } catch {
    // no passwd entry (containers): keep the default
  }
  const name = `${user}@${hostname()}`.replace(/[^A-Za-z0-9._@+-]/g, "-").slice(0, 100);
  return SIGNER_NAME.test(name) ? name : "user";
}

async function pickCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseOptions(argv, { repo: { type: "string" }, reason: { type: "string" } });
  if (positionals.length !== 2) throw new UsageError("pick needs <receipt_id> <option_id>");
  const repo = repoOption(values.repo as string | undefined);
  const [receiptId, optionId] = positionals;
  let receipt;
  try {
    receipt = await recordPick(
      repo,
      receiptId,
      { option_id: optionId, reason: values.reason as string | undefined },
      loadOrCreateKeyFile(undefined),
      DEFAULT_RECEIPTS_DIR,
      { who: localSignerName(io.env) },
    );
  } catch (err) {
    if (err instanceof PickRefusedError || err instanceof LockTimeoutError) {
      io.err(`deliberate: ${terminalSafeLine(err.message)}`);
      return 1;
    }
    if (err instanceof ReceiptInputError) throw err;
    throw new UsageError(oneLine(err));
  }
  const pick = receipt.operator_pick!;
  const n = receipt.picks?.length ?? 1;
  io.out(
    `picked ${pick.option_id} for ${receipt.receipt_id}${pick.overrode_recommendation ? " (overrides the recommendation)" : ""}; pick ${n} in its history; receipt re-signed`,
  );
  return 0;
}

function verifyLabel(r: ReceiptVerification): string {
  if (r.ignored) return "IGNORED";
  if (r.signature === "corrupt") return "CORRUPT";
  if (r.signature === "invalid") return "INVALID";
  if (r.evidence === "changed" || r.evidence === "missing") return "TAMPERED";
  if (r.ok) return "ok";
  if (r.trust === "untrusted") return "UNTRUSTED";
  if (r.legacy) return "LEGACY";
  return "FAILED";
}

async function verifyCommand(argv: string[], io: Io): Promise<number> {
  const { values } = parseOptions(argv, { repo: { type: "string" }, "allow-untrusted": { type: "boolean" }, json: { type: "boolean" }, evidence: { type: "boolean" } });
  const repo = repoOption(values.repo as string | undefined);
  const own = loadKeyFileIfExists(undefined);
  const allowUntrusted = !!values["allow-untrusted"];
  const results = await verifyAll(repo, DEFAULT_RECEIPTS_DIR, { ownPublicKeyPem: own?.publicKeyPem, allowUntrusted });
  // --evidence: each receipt's freshness (reported only; the exit code stays about signatures and trust).
  const fresh = values.evidence ? await freshnessOf(repo) : undefined;
  if (values.json) {
    printJson(io, fresh ? results.map((r) => ({ ...r, freshness: freshnessJson(fresh.get(r.receipt_id)) })) : results);
    return results.every((r) => r.ok) ? 0 : 1;
  }
  if (!results.length) {
    io.out("no receipts found");
    return 0;
  }
  let failed = 0;
  let ignored = 0;
  for (const r of results) {
    // A misnamed copy of a receipt (one receipt counts once) is ignored: never valid, and verify still fails on it.
    if (r.ignored) ignored++;
    else if (!r.ok) failed++;
    const label = verifyLabel(r);
    let line: string;
    if (r.ignored) line = r.summary;
    else if (r.signature === "corrupt") line = r.reason ?? "corrupt";
    else if (r.signature === "invalid") line = r.reason ?? "signature invalid";
    else {
      const citations = r.unresolved.length ? `${r.unresolved.length} citation(s) no longer resolve: ${r.unresolved.join(", ")}` : "citations resolve";
      line = `signature valid; ${r.summary}; ${citations}`;
    }
    io.out(`${label.padEnd(9)} ${r.receipt_id}  ${terminalSafeLine(line)}`);
    for (const l of fresh ? freshnessDetail(fresh.get(r.receipt_id)) : []) io.out(terminalSafeLine(l));
  }
  io.out(`${results.length - failed - ignored} valid, ${failed} failed${ignored ? `, ${ignored} ignored (a file name that is not its receipt_id: rename or delete the copies)` : ""}`);
  const untrusted = results.filter((r) => !r.ok && r.signature === "valid" && (r.trust === "untrusted" || r.legacy) && r.evidence !== "changed" && r.evidence !== "missing");
  if (untrusted.length) {
    io.out(`trust: your own key and the signers in ${DEFAULT_RECEIPTS_DIR}/${ALLOWED_SIGNERS_FILE} are trusted; add a teammate with \`deliberate keys add NAME KEY\`, or accept with --allow-untrusted`);
  }
  return failed || ignored ? 1 : 0;
}

async function keysCommand(argv: string[], io: Io): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === "show") {
    const { values, positionals } = parseOptions(rest, { name: { type: "string" } });
    if (positionals.length) throw new UsageError("keys show takes no arguments (--name NAME sets the name on the line)");
    const name = (values.name as string | undefined) ?? localSignerName(io.env);
    if (!SIGNER_NAME.test(name)) throw new UsageError("--name: 1-100 letters, digits or ._@+-");
    const key = loadOrCreateKeyFile(undefined);
    io.out(signerLine(name, key.publicKeyPem));
    return 0;
  }
  if (sub === "add") {
    const { values, positionals } = parseOptions(rest, { repo: { type: "string" } });
    if (positionals.length < 2) throw new UsageError("keys add needs <name> <public-key> (the line `deliberate keys show` prints)");
    const repo = repoOption(values.repo as string | undefined);
    const [name, ...keyParts] = positionals;
    let result;
    try {
      result = await addAllowedSigner(repo, DEFAULT_RECEIPTS_DIR, name, keyParts.join(" "));
    } catch (err) {
      if (err instanceof LockTimeoutError) throw err;
      throw new UsageError(`keys add: ${oneLine(err)}`);
    }
    const where = `${DEFAULT_RECEIPTS_DIR}/${ALLOWED_SIGNERS_FILE}`;
    io.out(
      result.added
        ? `added ${result.signer.name} (${result.signer.keyId}) to ${where}; commit it so everyone's verify trusts this signer`
        : `already listed in ${where} as ${result.signer.name} (${result.signer.keyId}); nothing changed`,
    );
    return 0;
  }
  if (sub === "list") {
    const { values, positionals } = parseOptions(rest, { repo: { type: "string" } });
    if (positionals.length) throw new UsageError("keys list takes no arguments");
    const repo = repoOption(values.repo as string | undefined);
    const signers = await readAllowedSigners(repo, DEFAULT_RECEIPTS_DIR);
    const own = loadKeyFileIfExists(undefined);
    const where = `${DEFAULT_RECEIPTS_DIR}/${ALLOWED_SIGNERS_FILE}`;
    if (signers.unreadable) io.err(`deliberate: ${terminalSafeLine(signers.unreadable)}`);
    if (own) {
      const mine = classifySigner(own.publicKeyPem, own.publicKeyPem, signers);
      io.out(`you        ${own.keyId}  (your own key; always trusted${mine.name && mine.name !== "you" ? `; listed as ${mine.name}` : "; not listed"})`);
    } else io.out("you        (no signing key yet: `deliberate keys show` creates one)");
    if (!signers.signers.length) io.out(`no allowed signers in ${where}`);
    for (const s of signers.signers) {
      io.out(`${terminalSafeLine(s.name).padEnd(10)} ${s.keyId}  (${where} line ${s.line})${own && keyIdOf(own.publicKeyPem) === s.keyId ? " [you]" : ""}`);
    }
    for (const e of signers.errors) io.err(`deliberate: ${where} line ${e.line} ignored: ${terminalSafeLine(e.reason)}`);
    return 0;
  }
  throw new UsageError(`keys needs show, add or list${sub ? ` (got ${JSON.stringify(sub.slice(0, 40))})` : ""}`);
}

// `deliberate mcp` runs each deliberation in a worker thread that loads this bundle and calls this (src/mcp/worker.ts).
export { mcpWorkerMain } from "../mcp/worker";

/** The process entry: dist/cli.js (launcher.ts) runs it; so does running this bundle directly. */
export function runCli(): void {
  runAsProcess((io) => main(process.argv.slice(2), io));
}

if (require.main === module) runCli();
