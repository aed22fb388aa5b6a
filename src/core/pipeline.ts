// The deliberation pipeline: classify -> discover artifacts -> plan terms -> run experts concurrently -> fuse ->
// synthesize -> bind citations -> sign and store the receipt. Pure Node: the CLI and the VS Code host both call
// `deliberate`, and nothing below src/core imports vscode.
import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { classifyQuestion } from "./classify";
import { configVersion as computeConfigVersion, resolveConfig } from "./config";
import { fuseRankedLists } from "./fuse";
import { canonicalJson, sha256 } from "./hash";
import { buildExternalExperts, recheckExternalCitations } from "./external";
import { describeDiscovery, discoverArtifacts, discoveryDirectories } from "./internal/discovery";
import { fingerprintHolds, readTurnCacheEntry, takeFingerprint, writeTurnCacheEntry, type TurnCacheEntry } from "./turnCache";
import { createDocsExpert } from "./internal/docsExpert";
import { createGitExpert } from "./internal/git";
import type { HistoryIndexOptions } from "./internal/history";
import { signReceipt, type SigningKey } from "./receipts/signing";
import {
  DEFAULT_RECEIPTS_DIR,
  ReceiptsDirError,
  evidenceFileOf,
  loadTrustedReceipt,
  newReceiptId,
  prepareReceiptsDir,
  readEvidence,
  storeEvidenceFile,
  unresolvedCitations,
  writeReceipt,
} from "./receipts/store";
import { hasControlChars } from "./sanitize";
import {
  OptionPickerSchema,
  RECEIPT_SCHEMA_VERSION,
  ReceiptSchema,
  formatZodError,
  type Classification,
  type DraftPicker,
  type FusedEvidence,
  type OptionPicker,
  type Receipt,
  type StageStatus,
} from "./schemas";
import { createRulesSynthesizer } from "./synth/rules";
import { createRulesPlanner } from "./terms";
import type {
  ArtifactSet,
  DeliberationConfig,
  Expert,
  ExpertResult,
  ProgressListener,
  QueryPlanner,
  Synthesizer,
} from "./types";
import { join } from "node:path";

export const MAX_QUESTION_BYTES = 4096;

/** A failure the caller should show as one line (bad input, unusable repo). Never carries a stack to the user. */
export class DeliberationError extends Error {
  constructor(
    message: string,
    readonly code: "bad-input" | "corrupt" | "internal",
  ) {
    super(message);
    this.name = "DeliberationError";
  }
}

export interface DeliberateRequest {
  repo: string;
  question: string;
  /** Where the question came from in the editor; `text` holds the ~20 surrounding lines. */
  context?: { file?: string; line?: number; text?: string };
  config?: Partial<DeliberationConfig>;
  /**
   * What the classifier reads when it differs from the question: the raw comment with its decision tag
   * ("TODO(decide): …"), which is the author's explicit signal that this is an open question.
   */
  classifyText?: string;
  /** Deliberate even when the classifier does not call it an open question. */
  force?: boolean;
  /** Default true. When false the payload still gets a receipt id, but nothing is written. */
  writeReceipt?: boolean;
  /** Default true: a turn with the same key returns the stored receipt without re-mining. */
  useCache?: boolean;
  signingKey: SigningKey;
  planner?: QueryPlanner;
  synthesizer?: Synthesizer;
  /**
   * Where external best practice may come from. Installed dependency docs are always consulted (offline-capable);
   * web pages and SearxNG only when online and configured.
   */
  external?: ExternalSources;
  /** Replaces the experts built from `external` (tests, benchmarks). */
  externalExperts?: Expert[];
  /** Replaces the built-in internal experts (tests, benchmarks). */
  internalExperts?: Expert[];
  /**
   * The persistent git history index (src/core/internal/history): how the host wants it used and built. Without
   * it the git expert runs the bounded live search only.
   */
  history?: HistoryIndexOptions;
  signal?: AbortSignal;
  onProgress?: ProgressListener;
  /** Experts' diagnostic lines (skipped files, malformed front matter, …) for a log channel. */
  onLog?: (line: string) => void;
  now?: () => Date;
}

export interface ExternalSources {
  docsUrls?: string[];
  searxngUrl?: string;
  /** HOST[:PORT] entries added to the allow-list for this run. */
  allowHosts?: string[];
  pageBudget?: number;
  timeoutMs?: number;
}

export type DeliberateOutcome =
  | { kind: "abstained"; question: string; classification: Classification }
  | {
      kind: "deliberated";
      receipt: Receipt;
      payload: OptionPicker;
      evidence: FusedEvidence[];
      /** Where the receipt was written, or undefined with writeReceipt=false. */
      receiptFile?: string;
      cached: boolean;
    };

export function normaliseQuestion(question: string): string {
  return question.replace(/\s+/g, " ").trim();
}

function checkAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : new Error("deliberation cancelled");
}

export function validateRequest(req: Pick<DeliberateRequest, "repo" | "question">): { repo: string; question: string } {
  const repo = resolve(req.repo);
  if (!existsSync(repo)) throw new DeliberationError(`repository path does not exist: ${repo}`, "bad-input");
  if (!statSync(repo).isDirectory()) throw new DeliberationError(`repository path is not a directory: ${repo}`, "bad-input");
  if (hasControlChars(req.question ?? "")) throw new DeliberationError("the question contains control characters (escape sequences are not accepted)", "bad-input");
  const question = normaliseQuestion(req.question ?? "");
  if (!question) throw new DeliberationError("the question is empty", "bad-input");
  const bytes = Buffer.byteLength(req.question, "utf8");
  if (bytes > MAX_QUESTION_BYTES) {
    throw new DeliberationError(`the question is ${bytes} bytes; the limit is ${MAX_QUESTION_BYTES} (4 kB)`, "bad-input");
  }
  return { repo, question };
}

interface TimedStage {
  name: string;
  expert: Expert;
  result: ExpertResult;
  ms: number;
}

async function runExpert(
  expert: Expert,
  stageName: string,
  ctx: Omit<Parameters<Expert["run"]>[0], "log">,
  progress: ProgressListener,
  log: (m: string) => void,
): Promise<TimedStage> {
  const started = performance.now();
  progress({ stage: stageName, state: "start" });
  let result: ExpertResult;
  try {
    result = await expert.run({ ...ctx, log: (m) => log(`[${expert.name}] ${m}`) });
  } catch (err) {
    if (ctx.signal.aborted) throw err;
    result = { status: "failed", reason: `${expert.name} failed: ${oneLine(err)}`, items: [] };
  }
  // A claim without a location is dropped, never softened.
  const items = result.items.filter((i) => i.path_or_url && (i.line_range || i.commit || i.kind === "external"));
  if (items.length === 0 && result.status === "ok") result = { ...result, status: "empty", reason: result.reason ?? "no cited evidence" };
  result = { ...result, items };
  const ms = performance.now() - started;
  progress({ stage: stageName, state: "done", status: result.status, reason: result.reason, ms, count: items.length });
  return { name: stageName, expert, result, ms };
}

export function oneLine(err: unknown): string {
  const msg = err instanceof Error ? err.message : String(err);
  return msg.split("\n")[0].slice(0, 300);
}

/** Folds several experts' outcomes into one stage status: ok if any found evidence, else the reasons of each. */
function aggregateStage(stages: TimedStage[], emptyReason: string): StageStatus {
  if (stages.length === 0) return { status: "empty", reason: emptyReason, count: 0, ms: 0 };
  const count = stages.reduce((n, s) => n + s.result.items.length, 0);
  const ms = Math.max(...stages.map((s) => s.ms));
  const truncated = stages.some((s) => s.result.truncated) || undefined;
  const reasons = stages.filter((s) => s.result.reason).map((s) => `${s.expert.name}: ${s.result.reason}`);
  const status: StageStatus["status"] = count > 0 ? "ok" : stages.every((s) => s.result.status === "failed") ? "failed" : "empty";
  return { status, count, ms: round1(ms), ...(reasons.length ? { reason: reasons.join("; ") } : {}), ...(truncated ? { truncated } : {}) };
}

function stageStatusOf(s: TimedStage): StageStatus {
  return {
    status: s.result.status,
    count: s.result.items.length,
    ms: round1(s.ms),
    ...(s.result.reason ? { reason: s.result.reason } : {}),
    ...(s.result.truncated ? { truncated: true } : {}),
  };
}

function round1(n: number): number {
  return Math.round(n * 10) / 10;
}

function turnCacheKey(parts: Record<string, string>): string {
  return sha256(canonicalJson(parts)).slice(0, 40);
}

export async function deliberate(req: DeliberateRequest): Promise<DeliberateOutcome> {
  const { repo, question } = validateRequest(req);
  const signal = req.signal ?? new AbortController().signal;
  const progress: ProgressListener = req.onProgress ?? (() => {});
  const log = req.onLog ?? (() => {});
  const now = req.now ?? (() => new Date());
  const config = resolveConfig(req.config);
  const version = computeConfigVersion(config);
  const dirName = config.receiptsDir || DEFAULT_RECEIPTS_DIR;
  const planner = req.planner ?? createRulesPlanner();
  const synthesizer = req.synthesizer ?? createRulesSynthesizer();
  const stages: Record<string, StageStatus> = {};

  // 1. Classify. An abstention is an outcome, not an error; `force` deliberates anyway and records the mismatch.
  let t = performance.now();
  const classification = classifyQuestion(req.classifyText?.trim() ? req.classifyText : question);
  stages.classify = { status: "ok", count: 1, ms: round1(performance.now() - t), reason: `${classification.class} (${classification.confidence.toFixed(2)})` };
  if (classification.class !== "open-question" && !req.force) return { kind: "abstained", question, classification };
  checkAborted(signal);

  const questionHash = sha256(question.toLowerCase());
  const scope = `${repo}|${req.context?.file ?? ""}|${req.context?.text ? sha256(req.context.text).slice(0, 16) : ""}`;
  const externalExperts = (req.externalExperts ?? buildExternalExperts({ offline: config.offline, repo, ...req.external, useCache: req.useCache !== false })).filter(
    (e) => !config.offline || e.offlineCapable,
  );
  const external = canonicalJson({ experts: externalExperts.map((e) => e.name).sort(), sources: req.external ?? {} });
  const cacheKey = turnCacheKey({ questionHash, scope, version, synth: `${synthesizer.id}|${synthesizer.name}`, planner: planner.name, external, force: String(!!req.force) });
  const cacheFile = join(repo, dirName, "cache", `${cacheKey}.json`);
  const writeReceiptToDisk = req.writeReceipt !== false;
  const useCache = req.useCache !== false && writeReceiptToDisk;

  // The receipts folder exists before anything is fingerprinted: creating it later would change the workspace
  // root's mtime and spoil the next turn's fast cache path.
  // A receipts folder that is a file, unwritable or a symlink out of the repository is bad input (one line).
  if (writeReceiptToDisk) {
    try {
      await prepareReceiptsDir(repo, dirName, ["cache"]);
    } catch (err) {
      if (err instanceof ReceiptsDirError) throw new DeliberationError(err.message, "bad-input");
      throw err;
    }
  }

  // 2. Turn cache, fast path: when no artifact's stats changed, the stored receipt answers without re-mining.
  const cacheEntry = useCache ? await readTurnCacheEntry(cacheFile) : undefined;
  if (cacheEntry && (await fingerprintHolds(repo, cacheEntry.fingerprint))) {
    const hit = await cachedOutcome(repo, cacheEntry, dirName, req.signingKey);
    if (hit) {
      progress({ stage: "cache", state: "done", status: "ok", count: 1 });
      return hit;
    }
  }

  // The git expert gets its history index ready now (git rev-parse, opening the index): that I/O overlaps
  // discovery instead of queueing behind the docs expert's CPU-bound ranking later.
  const gitExpert = req.internalExperts ? undefined : createGitExpert({ index: req.history, prepare: { repo, signal } });

  // 3. Discover the artifact set (ADRs, architecture docs, agent instructions). Its hash keys the turn cache.
  progress({ stage: "discovery", state: "start" });
  t = performance.now();
  const artifacts: ArtifactSet = await discoverArtifacts(repo, config, signal);
  stages.discovery = {
    status: artifacts.files.length ? "ok" : "empty",
    count: artifacts.files.length,
    ms: round1(performance.now() - t),
    ...(artifacts.files.length ? {} : { reason: "no ADRs, architecture docs or agent instructions found" }),
    ...(describeDiscovery(artifacts) ? { reason: describeDiscovery(artifacts) } : {}),
  };
  progress({ stage: "discovery", state: "done", status: stages.discovery.status, ms: stages.discovery.ms, count: artifacts.files.length });
  checkAborted(signal);
  // The fingerprint for this turn's cache entry is taken while the experts run — never after the receipt write,
  // so a file edited mid-run shows up as a changed stat next time.
  const fingerprint = writeReceiptToDisk
    ? discoveryDirectories(repo, config).then((dirs) =>
        takeFingerprint(repo, [...artifacts.files.map((f) => f.path), ...artifacts.skipped.map((f) => f.path)], dirs),
      )
    : undefined;
  fingerprint?.catch(() => undefined);

  // Slow path: stats changed (a touched file, a fresh checkout) but the content may not have.
  if (cacheEntry && cacheEntry.artifact_set_hash === artifacts.hash) {
    const hit = await cachedOutcome(repo, cacheEntry, dirName, req.signingKey);
    if (hit) {
      const fp = await fingerprint?.catch(() => undefined);
      if (fp) await writeTurnCacheEntry(cacheFile, { ...cacheEntry, fingerprint: fp }).catch(() => undefined);
      progress({ stage: "cache", state: "done", status: "ok", count: 1 });
      return hit;
    }
  }

  // 4. Plan the query terms (rules, or a model draft behind the same interface).
  progress({ stage: "plan", state: "start" });
  t = performance.now();
  const planned = await planner.plan({ question, context: req.context?.text, signal });
  const plan = planned.plan;
  stages.plan = { status: "ok", count: plan.terms.length + plan.expansions.length, ms: round1(performance.now() - t), ...(planned.fallback_reason ? { reason: planned.fallback_reason } : {}) };
  progress({ stage: "plan", state: "done", status: "ok", ms: stages.plan.ms });
  checkAborted(signal);

  // 5. Experts run concurrently; each reports ok / empty / failed with its reason and timing.
  const ctx = { repo, question, plan, config, artifacts, signal };
  // Git first: its child processes start before the docs expert's CPU-bound ranking takes the event loop.
  const internalExperts = req.internalExperts ?? [gitExpert ?? createGitExpert({ index: req.history }), createDocsExpert()];
  const [internalRuns, externalRuns] = await Promise.all([
    Promise.all(internalExperts.map((e) => runExpert(e, `internal:${e.name}`, ctx, progress, log))),
    Promise.all(externalExperts.map((e) => runExpert(e, `external:${e.name}`, ctx, progress, log))),
  ]);
  checkAborted(signal);
  for (const run of [...internalRuns, ...externalRuns]) stages[run.name] = stageStatusOf(run);
  stages.internal = aggregateStage(internalRuns, "no internal experts ran");
  stages.external = aggregateStage(
    externalRuns,
    config.offline ? "offline: no external best-practice sources were consulted" : "no external sources configured",
  );
  const sources = [...new Set(externalRuns.flatMap((r) => r.result.sources ?? []))].sort();

  // 6. Fuse.
  t = performance.now();
  const fusedAll = fuseRankedLists(
    [...internalRuns, ...externalRuns].map((r) => ({ expert: r.expert.name, items: r.result.items })),
    config.rrfK,
  );
  const evidence = fusedAll.slice(0, config.maxEvidence);
  stages.fusion = { status: evidence.length ? "ok" : "empty", count: evidence.length, ms: round1(performance.now() - t), ...(evidence.length ? {} : { reason: "no expert returned cited evidence" }) };

  // 7. Synthesize. A synthesizer that throws falls back to the rules synthesizer, and the receipt says why.
  progress({ stage: "synthesis", state: "start" });
  t = performance.now();
  const synthInput = { question, classification, evidence, stages: { internal: stages.internal, external: stages.external }, configVersion: version, signal };
  let synthesis: Awaited<ReturnType<Synthesizer["synthesize"]>>;
  try {
    synthesis = await synthesizer.synthesize(synthInput);
  } catch (err) {
    if (signal.aborted) throw err;
    if (synthesizer.id === "rules") throw err;
    synthesis = await createRulesSynthesizer().synthesize(synthInput);
    synthesis.info = { ...synthesis.info, fallback_reason: `${synthesizer.name} failed: ${oneLine(err)}` };
  }
  checkAborted(signal);
  const receiptId = newReceiptId(now());
  const evidenceFile = evidenceFileOf(evidence);
  const evidenceRef = evidenceFile.ref;
  let payload = bindPayload(synthesis.draft, evidenceRef, receiptId);
  payload = await markUnresolved(repo, payload, { offline: config.offline, signal, ...req.external });
  const synthMs = round1(performance.now() - t);
  stages.synthesis = {
    status: "ok",
    count: payload.options.length,
    ms: synthMs,
    ...(synthesis.info.fallback_reason ? { reason: synthesis.info.fallback_reason } : {}),
  };
  progress({ stage: "synthesis", state: "done", status: "ok", ms: synthMs, count: payload.options.length });

  // 8. Receipt: signed, written atomically, with the evidence stored content-addressed beside it.
  t = performance.now();
  const createdAt = now().toISOString();
  const dissentCount = payload.options.reduce((n, o) => n + o.dissent.length, 0);
  const unsigned = {
    schema_version: RECEIPT_SCHEMA_VERSION,
    receipt_id: receiptId,
    created_at: createdAt,
    question,
    question_hash: questionHash,
    classification,
    ...(classification.class !== "open-question" ? { class_mismatch: true } : {}),
    config_version: version,
    artifact_set_hash: artifacts.hash,
    citation_set_hash: sha256(canonicalJson(payload.citations.map((c) => c.id).sort())),
    evidence_ref: evidenceRef,
    stages,
    plan,
    synthesis: {
      ...synthesis.info,
      options_count: payload.options.length,
      recommendation_id: payload.recommendation.option_id,
      dissent_count: dissentCount,
      ...(planned.calls?.length ? { calls: [...planned.calls, ...(synthesis.info.calls ?? [])] } : {}),
    },
    ...(sources.length ? { sources } : {}),
    ...(req.context?.file ? { context: { file: req.context.file, ...(req.context.line ? { line: req.context.line } : {}) } } : {}),
    operator_pick: null,
    picks: [],
    evidence_files: [{ path: evidenceFile.path, sha256: evidenceFile.sha256 }],
    payload,
  };
  const receipt = signReceipt(unsigned, req.signingKey);
  const parsed = ReceiptSchema.safeParse(receipt);
  if (!parsed.success) throw new DeliberationError(`internal error: receipt failed its schema: ${formatZodError(parsed.error)}`, "internal");
  let receiptFile: string | undefined;
  if (writeReceiptToDisk) {
    checkAborted(signal);
    await storeEvidenceFile(repo, evidenceFile, dirName);
    receiptFile = await writeReceipt(repo, receipt, dirName);
    // A turn that fell back (model down, bad key) is not cached: the next turn should try the model again.
    const fp = await fingerprint?.catch(() => undefined);
    if (fp && !synthesis.info.fallback_reason && !planned.fallback_reason) {
      await writeTurnCacheEntry(cacheFile, { receipt_id: receiptId, artifact_set_hash: artifacts.hash, fingerprint: fp });
    }
  }
  // The receipt write's own timing goes to the progress listener; it cannot be inside the bytes it signs.
  progress({ stage: "receipt", state: "done", status: writeReceiptToDisk ? "ok" : "skipped", ms: round1(performance.now() - t) });
  return { kind: "deliberated", receipt, payload, evidence, receiptFile, cached: false };
}

/** Adds the refs and validates the full contract; a synthesizer that breaks it is a bug, not a soft failure. */
function bindPayload(draft: DraftPicker, evidenceRef: string, receiptRef: string): OptionPicker {
  const result = OptionPickerSchema.safeParse({ ...draft, evidence_ref: evidenceRef, receipt_ref: receiptRef });
  if (!result.success) throw new DeliberationError(`synthesis produced an invalid payload: ${formatZodError(result.error)}`, "internal");
  return result.data;
}

/**
 * Return-time resolution check: a citation whose file, lines, installed package or URL vanished mid-flight is
 * kept, flagged `resolution_failed`, and every option citing it drops to low confidence. Never silently dropped
 * or replaced.
 */
async function markUnresolved(
  repo: string,
  payload: OptionPicker,
  ext: ExternalSources & { offline: boolean; signal: AbortSignal },
): Promise<OptionPicker> {
  const [internal, external] = await Promise.all([
    unresolvedCitations(repo, { payload } as Receipt),
    payload.citations.some((c) => c.kind === "external")
      ? recheckExternalCitations(payload.citations, { repo, ...ext, timeoutMs: Math.min(ext.timeoutMs ?? 3000, 3000) })
      : Promise.resolve({ failed: [] as string[] }),
  ]);
  const failed = new Set([...internal, ...external.failed]);
  if (failed.size === 0) return payload;
  return {
    ...payload,
    citations: payload.citations.map((c) => (failed.has(c.id) ? { ...c, resolution_failed: true as const } : c)),
    options: payload.options.map((o) =>
      [...o.supports, ...o.dissent].some((id) => failed.has(id)) ? { ...o, confidence: "low" as const } : o,
    ),
  };
}

/**
 * The stored receipt and evidence for a cache entry, or undefined when either is gone or no longer matches. The
 * cache lives in the repository, so a hit is served only from a receipt that verifies: valid signature, trusted
 * signer (your key or an allowed signer), evidence intact.
 */
async function cachedOutcome(repo: string, entry: TurnCacheEntry, dirName: string, key: SigningKey): Promise<DeliberateOutcome | undefined> {
  const loaded = await loadTrustedReceipt(repo, entry.receipt_id, key.publicKeyPem, dirName).catch(() => undefined);
  if (!loaded || loaded.receipt.artifact_set_hash !== entry.artifact_set_hash) return undefined;
  const receipt = loaded.receipt;
  const evidence = await readEvidence(repo, receipt.evidence_ref, dirName).catch(() => undefined);
  if (!evidence) return undefined;
  return { kind: "deliberated", receipt, payload: receipt.payload, evidence, receiptFile: loaded.file, cached: true };
}
