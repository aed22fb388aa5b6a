// The deliberation pipeline: classify -> discover artifacts -> plan terms -> run experts concurrently -> fuse ->
// synthesize -> bind citations -> sign and store the receipt. Pure Node: the CLI and the VS Code host both call
// `deliberate`, and nothing below src/core imports vscode.
import { existsSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { classifyQuestion } from "./classify";
import { configVersion as computeConfigVersion, resolveConfig } from "./config";
import { fuseRankedLists } from "./fuse";
import { canonicalJson, sha256 } from "./hash";
import { buildExternalExperts, recheckExternalCitations } from "./external";
import { describeDiscovery } from "./internal/discovery";
import { discoverWithSnapshot } from "./internal/corpus/discovery";
import type { CorpusCacheOptions } from "./internal/corpus/store";
import { codeStateHolds, fingerprintHolds, readTurnCacheEntry, writeTurnCacheEntry, type TurnCacheEntry } from "./turnCache";
import { createDocsExpert } from "./internal/docsExpert";
import { createGitExpert } from "./internal/git";
import { checkRepository, UnsafeRepositoryError, type RepositoryCheck } from "./internal/gitSafety";
import type { HistoryIndexOptions } from "./internal/history";
import { signReceipt, type SigningKey } from "./receipts/signing";
import { artifactPathKeys, withContentHashes } from "./receipts/citedContent";
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
  type DecisionSourceRecord,
  type DraftPicker,
  type FusedEvidence,
  type LearnedWeights,
  type OptionPicker,
  type Receipt,
  type StageStatus,
} from "./schemas";
import { createRulesSynthesizer } from "./synth/rules";
import { measureCodeUsage, type UsageJoin } from "./synth/codeUsage";
import { applyObjections, critique, type RaisedObjection } from "./critic";
import type { ModelCritic, ModelCriticResult } from "./critic/model";
import { CODE_USAGE_BUDGET_MS, codeUsageState, type CodeUsageReport } from "./internal/codeUsage";
import { listUsageScope, type UsageScope } from "./internal/codeUsageScope";
import { createRulesPlanner } from "./terms";
import type {
  ArtifactSet,
  DeliberationConfig,
  Expert,
  ExpertContext,
  ExpertResult,
  ProgressListener,
  QueryPlanner,
  QueryPlanResult,
  SynthesisInput,
  SynthesisOutput,
  Synthesizer,
} from "./types";
import { isCancellation, throwIfCancelled } from "./cancel";
import { describeFallback } from "./fallback";
import { oneLine } from "./text";
import { StageRecorder, type StageOutcome } from "./stageRecorder";
import { expertStage, type ExpertSide, type ExpertStage } from "./stages";
import { loadLearning } from "./learning/load";
import { priorFor, versionWithWeights } from "./learning/weights";
import { preferOwnRecords, readSources, sourceReadings, sourcesKey, tagSourceItems, withSourceFiles, withSourceRefs, type DecisionSourcesRequest, type SourceRead } from "./sources";

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
   * it the git expert indexes the history for each question in a temporary folder (the same answer, slower).
   */
  history?: HistoryIndexOptions;
  /**
   * Where snapshots of the discovered artifacts and the docs index may be kept between processes
   * (internal/corpus/). Without it they are kept in this process's memory only.
   */
  corpusCache?: CorpusCacheOptions;
  /** Decision records that live outside the repository (src/core/sources/): folders and git URLs. */
  sources?: DecisionSourcesRequest;
  /** Default true: rank with the weights learned from operator picks in the receipts folder (learning/). */
  learning?: boolean;
  /** The model Critic (critic/model.ts, from createModelStack({ critic: true })); the rules Critic always runs. */
  critic?: ModelCritic;
  /** Default true. False skips the rules Critic (no objections, no effect): only to measure answers without it. */
  rulesCritic?: boolean;
  /** The code-usage count of each option (internal/codeUsage.ts): its time budget, or false to skip it (benchmarks). */
  codeUsage?: { budgetMs?: number } | false;
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

interface ExpertRun {
  stage: ExpertStage;
  expert: Expert;
  result: ExpertResult;
  ms: number;
}

/** Runs one expert under its own clock; a throwing expert is a failed stage with its reason, never a crash. */
async function runExpert(expert: Expert, side: ExpertSide, ctx: Omit<ExpertContext, "log">, recorder: StageRecorder, progress: ProgressListener, log: (m: string) => void): Promise<ExpertRun> {
  const stage = expertStage(side, expert.name);
  const started = performance.now();
  progress({ stage, state: "start" });
  let result: ExpertResult;
  try {
    result = await expert.run({ ...ctx, log: (m) => log(`[${expert.name}] ${m}`) });
  } catch (err) {
    if (isCancellation(err, ctx.signal)) throw err;
    result = { status: "failed", reason: `${expert.name} failed: ${oneLine(err)}`, items: [] };
  }
  // A claim without a location is dropped, never softened.
  const items = result.items.filter((i) => i.path_or_url && (i.line_range || i.commit || i.kind === "external"));
  if (items.length === 0 && result.status === "ok") result = { ...result, status: "empty", reason: result.reason ?? "no cited evidence" };
  result = { ...result, items };
  const ms = performance.now() - started;
  recorder.record(stage, { status: result.status, count: items.length, ...(result.reason ? { reason: result.reason } : {}), ...(result.truncated ? { truncated: true } : {}) }, ms);
  return { stage, expert, result, ms };
}

/** Folds several experts' outcomes into one stage: ok if any found evidence, else the reasons of each. */
function aggregate(runs: ExpertRun[], emptyReason: string): { outcome: StageOutcome; ms: number } {
  if (runs.length === 0) return { outcome: { status: "empty", reason: emptyReason, count: 0 }, ms: 0 };
  const count = runs.reduce((n, s) => n + s.result.items.length, 0);
  const truncated = runs.some((s) => s.result.truncated) || undefined;
  const reasons = runs.filter((s) => s.result.reason).map((s) => `${s.expert.name}: ${s.result.reason}`);
  const status: StageStatus["status"] = count > 0 ? "ok" : runs.every((s) => s.result.status === "failed") ? "failed" : "empty";
  const outcome = { status, count, ...(reasons.length ? { reason: reasons.join("; ") } : {}), ...(truncated ? { truncated } : {}) };
  return { outcome, ms: Math.max(...runs.map((s) => s.ms)) };
}

function turnCacheKey(parts: Record<string, string>): string {
  return sha256(canonicalJson(parts)).slice(0, 40);
}

/** Everything one deliberation needs, resolved once from the request. */
interface Turn {
  req: DeliberateRequest;
  repo: string;
  question: string;
  signal: AbortSignal;
  progress: ProgressListener;
  log: (line: string) => void;
  now: () => Date;
  config: DeliberationConfig;
  version: string;
  dirName: string;
  planner: QueryPlanner;
  synthesizer: Synthesizer;
  externalExperts: Expert[];
  writeToDisk: boolean;
  cacheFile: string;
  useCache: boolean;
  recorder: StageRecorder;
  /** The decision sources as read for this turn (src/core/sources/). */
  reads: SourceRead[];
  /** The weights learned from operator picks, when learning is on. */
  learned?: LearnedWeights;
  /** The repository check run at the start of the turn (gitSafety.ts). */
  repoCheck?: Promise<RepositoryCheck>;
  /** The state of the code the usage count reads, taken at the start of gather when the turn will be cached. */
  codeState?: Promise<string | undefined>;
  /** The code-usage count's untracked scope, listed while the experts work (internal/codeUsageScope.ts). */
  usageScope?: { scope: Promise<UsageScope | undefined>; stop: () => void };
}

/** What the gather step found: the artifacts, the plan and the fused, ranked evidence. */
interface Gathered {
  artifacts: ArtifactSet;
  planned: QueryPlanResult;
  evidence: FusedEvidence[];
  sources: string[];
  fingerprint: TurnCacheEntry["fingerprint"];
  /** The decision sources consulted, and the texts read from them (keyed by `name:path`). */
  decisionSources: { records: DecisionSourceRecord[]; texts: Map<string, string> };
}

/**
 * classify → (turn cache) → gather (discover, plan, experts, fuse) → decide (synthesize, bind citations) → seal
 * (sign, store). Each step records its stages through one recorder.
 */
export async function deliberate(req: DeliberateRequest): Promise<DeliberateOutcome> {
  const { repo, question } = validateRequest(req);
  const signal = req.signal ?? new AbortController().signal;
  // A folder git would treat as a repository it must not (bare-shaped, a git directory) is refused before any git
  // runs and before any answer; the check overlaps the steps that run no git (learned weights, turn cache, classify).
  // The check's result is kept: the code-usage stage would otherwise run the same git rev-parse again.
  const repoChecked = checkRepository(repo, signal).catch((err: unknown) => {
    throw err instanceof UnsafeRepositoryError ? new DeliberationError(err.message, "bad-input") : err;
  });
  repoChecked.catch(() => undefined);
  const progress: ProgressListener = req.onProgress ?? (() => {});
  const recorder = new StageRecorder(progress, signal);
  // Decision sources are read first (a cached one costs a stat or two): what they hold is part of the turn's key.
  const sourceReads = readSources(req.sources, repo, resolveConfig(req.config), signal);
  sourceReads.catch(() => undefined);
  const learned = req.learning === false ? undefined : await learnedWeightsFor(req, repo);
  const reads = await sourceReads;
  const turn: Turn = { ...resolveTurn(req, repo, question, signal, progress, recorder, learned, reads), repoCheck: repoChecked };

  // Fast path first: no artifact's stats changed, so the stored receipt answers without re-mining or even reading
  // the question again (an abstained question never has a cache entry, and `force` is part of the key).
  const entry = turn.useCache ? await readTurnCacheEntry(turn.cacheFile) : undefined;
  if (entry && (await fingerprintHolds(repo, entry.fingerprint)) && (await codeStillHolds(turn, entry, () => currentCodeState(turn)))) {
    const hit = await cachedOutcome(repo, entry, turn.dirName, req.signingKey);
    if (hit) {
      await repoChecked;
      return served(turn, hit);
    }
  }

  // An abstention is an outcome, not an error; `force` deliberates anyway and records the mismatch.
  const classification = await recorder.run(
    "classify",
    () => classifyQuestion(req.classifyText?.trim() ? req.classifyText : question),
    (c) => ({ status: "ok", count: 1, reason: `${c.class} (${c.confidence.toFixed(2)})` }),
    { announce: false },
  );
  await repoChecked;
  if (classification.class !== "open-question" && !req.force) return { kind: "abstained", question, classification };
  await prepareReceiptsFolder(turn);
  try {
    const gathered = await gather(turn, entry);
    if ("kind" in gathered) return gathered;
    const decided = await decide(turn, classification, gathered);
    return seal(turn, classification, gathered, decided);
  } finally {
    // A listing the count never used (a cached answer, a failure) must not keep the process waiting on git.
    turn.usageScope?.stop();
  }
}

/** The learned weights (cached and signed in the receipts folder); a failure to read them ranks without them. */
async function learnedWeightsFor(req: DeliberateRequest, repo: string): Promise<LearnedWeights | undefined> {
  const dirName = resolveConfig(req.config).receiptsDir || DEFAULT_RECEIPTS_DIR;
  const report = await loadLearning(repo, req.signingKey, { dirName, writeCache: req.writeReceipt !== false }).catch((err) => {
    req.onLog?.(`learned weights unavailable, ranking without them: ${oneLine(err)}`);
    return undefined;
  });
  return report?.learned;
}

/** Resolves the request into a turn: its config, planner, synthesizer, experts and turn-cache key. */
function resolveTurn(req: DeliberateRequest, repo: string, question: string, signal: AbortSignal, progress: ProgressListener, recorder: StageRecorder, learned: LearnedWeights | undefined, reads: SourceRead[]): Turn {
  const config = resolveConfig(req.config);
  const version = versionWithWeights(computeConfigVersion(config), learned);
  const dirName = config.receiptsDir || DEFAULT_RECEIPTS_DIR;
  const planner = req.planner ?? createRulesPlanner();
  const synthesizer = req.synthesizer ?? createRulesSynthesizer();
  const externalExperts = (req.externalExperts ?? buildExternalExperts({ offline: config.offline, repo, ...req.external, useCache: req.useCache !== false })).filter(
    (e) => !config.offline || e.offlineCapable,
  );
  const scope = `${repo}|${req.context?.file ?? ""}|${req.context?.text ? sha256(req.context.text).slice(0, 16) : ""}`;
  const external = canonicalJson({ experts: externalExperts.map((e) => e.name).sort(), sources: req.external ?? {} });
  const cacheKey = turnCacheKey({
    questionHash: sha256(question.toLowerCase()),
    scope,
    version,
    synth: `${synthesizer.id}|${synthesizer.name}`,
    planner: planner.name,
    external,
    force: String(!!req.force),
    // Which sources were read, at which commit, with which records: a source that moved on is a new turn.
    ...(reads.length ? { sources: sourcesKey(reads) } : {}),
    ...(req.critic ? { critic: req.critic.name } : {}),
  });
  const writeToDisk = req.writeReceipt !== false;
  return {
    req,
    repo,
    question,
    signal,
    progress,
    log: req.onLog ?? (() => {}),
    now: req.now ?? (() => new Date()),
    config,
    version,
    dirName,
    planner,
    synthesizer,
    externalExperts,
    writeToDisk,
    cacheFile: join(repo, dirName, "cache", `${cacheKey}.json`),
    useCache: req.useCache !== false && writeToDisk,
    recorder,
    reads,
    learned,
  };
}

/**
 * The receipts folder exists before anything is fingerprinted: creating it later would change the workspace root's
 * mtime and spoil the next turn's fast cache path. A receipts folder that is a file, unwritable or a symlink out of
 * the repository is bad input (one line).
 */
async function prepareReceiptsFolder(turn: Turn): Promise<void> {
  if (!turn.writeToDisk) return;
  try {
    await prepareReceiptsDir(turn.repo, turn.dirName, ["cache"]);
  } catch (err) {
    if (err instanceof ReceiptsDirError) throw new DeliberationError(err.message, "bad-input");
    throw err;
  }
}

function served(turn: Turn, hit: DeliberateOutcome): DeliberateOutcome {
  turn.recorder.announceDone("cache", "ok", undefined, 1);
  return hit;
}

/** Discovers the artifacts, plans the terms, runs the experts concurrently and fuses their ranked lists. */
async function gather(turn: Turn, entry: TurnCacheEntry | undefined): Promise<Gathered | DeliberateOutcome> {
  const { req, repo, config, signal, recorder } = turn;
  // The git expert gets its history index ready now (git rev-parse, opening the index): that I/O overlaps
  // discovery instead of queueing behind the docs expert's CPU-bound ranking later.
  const gitExpert = req.internalExperts ? undefined : createGitExpert({ index: req.history, prepare: { repo, signal } });
  // Taken before the count reads anything, so a change made meanwhile shows on the next turn. Only a turn that uses
  // the cache pays for it; the entry of one that does not carries no state and is never served.
  if (turn.useCache && req.codeUsage !== false) {
    turn.codeState = currentCodeState(turn);
    turn.codeState.catch(() => undefined);
  }
  // With no cached turn to serve, the count's listing starts now, beside discovery; else after the cache is checked.
  if (!entry) startUsageScope(turn);
  // The discovery's own fingerprint (taken before it read anything) is the one this turn's cache entry stores.
  const { set: artifacts, fingerprint } = await recorder.run(
    "discovery",
    () => discoverWithSnapshot(repo, config, { signal, cache: req.corpusCache }),
    ({ set }) => ({
      status: set.files.length ? "ok" : "empty",
      count: set.files.length,
      ...(describeDiscovery(set) ? { reason: describeDiscovery(set) } : set.files.length ? {} : { reason: "no ADRs, architecture docs or agent instructions found" }),
    }),
  );

  // Slow path: stats changed (a touched file, a fresh checkout) but the content may not have.
  if (entry && entry.artifact_set_hash === artifacts.hash && (await codeStillHolds(turn, entry, () => turn.codeState ?? currentCodeState(turn)))) {
    const hit = await cachedOutcome(repo, entry, turn.dirName, req.signingKey);
    if (hit) {
      if (turn.writeToDisk) await writeTurnCacheEntry(turn.cacheFile, { ...entry, fingerprint }).catch(() => undefined);
      return served(turn, hit);
    }
  }

  startUsageScope(turn);
  const planned = await recorder.run(
    "plan",
    () => turn.planner.plan({ question: turn.question, context: req.context?.text, signal }),
    (p) => ({ status: "ok", count: p.plan.terms.length + p.plan.expansions.length, ...(p.fallback ? { reason: `${describeFallback(p.fallback)} (rules plan used)`, fallback: p.fallback } : {}) }),
  );

  const reads = turn.reads;
  for (const r of reads) recorder.record(expertStage("internal", r.stage), r.outcome, r.ms);
  // The sources' records join the repository's: one docs expert ranks them together (the receipt keeps the
  // repository's own artifact set).
  const ctx = { repo, question: turn.question, plan: planned.plan, config, artifacts: withSourceFiles(artifacts, reads), signal };
  // Git first: its child processes start before the docs expert's CPU-bound ranking takes the event loop.
  const internalExperts = req.internalExperts ?? [gitExpert ?? createGitExpert({ index: req.history }), createDocsExpert({ cache: req.corpusCache })];
  const [internalRuns, externalRuns] = await Promise.all([
    Promise.all(internalExperts.map((e) => runExpert(e, "internal", ctx, recorder, turn.progress, turn.log))),
    Promise.all(turn.externalExperts.map((e) => runExpert(e, "external", ctx, recorder, turn.progress, turn.log))),
  ]);
  throwIfCancelled(signal);
  const internal = aggregate(internalRuns, "no internal experts ran");
  const external = aggregate(externalRuns, config.offline ? "offline: no external best-practice sources were consulted" : "no external sources configured");
  recorder.record("internal", internal.outcome, internal.ms, { report: false });
  recorder.record("external", external.outcome, external.ms, { report: false });
  const sources = [...new Set(externalRuns.flatMap((r) => r.result.sources ?? []))].sort();

  const evidence = await recorder.run(
    "fusion",
    () => preferOwnRecords(fuseRankedLists([...internalRuns, ...externalRuns].map((r) => ({ expert: r.expert.name, items: tagSourceItems(r.result.items, reads) })), config.rrfK, priorFor(turn.learned))).slice(0, config.maxEvidence),
    (ev) => ({ status: ev.length ? "ok" : "empty", count: ev.length, ...(ev.length ? {} : { reason: "no expert returned cited evidence" }) }),
    { announce: false },
  );
  return { artifacts, planned, evidence, sources, fingerprint, decisionSources: sourceReadings(reads) };
}

interface Decided {
  synthesis: SynthesisOutput;
  payload: OptionPicker;
  receiptId: string;
  evidenceFile: ReturnType<typeof evidenceFileOf>;
  /** The fused evidence, then the code-usage lines the payload cites. */
  evidence: FusedEvidence[];
  /** Whether the code-usage count read any code (an option named a package to look for). */
  codeRead: boolean;
}

/**
 * Synthesizes the options, counts their use in the code, and binds the payload. A model synthesizer that throws
 * falls back to the rules one.
 */
async function decide(turn: Turn, classification: Classification, gathered: Gathered): Promise<Decided> {
  const { recorder, signal, synthesizer } = turn;
  const stages = recorder.stages;
  const input = {
    question: turn.question,
    classification,
    evidence: gathered.evidence,
    stages: { internal: stages.internal!, external: stages.external! },
    configVersion: turn.version,
    signal,
  };
  const synthesis = await recorder.run(
    "synthesis",
    async (): Promise<SynthesisOutput> => {
      let out: SynthesisOutput;
      try {
        out = await synthesizer.synthesize(input);
      } catch (err) {
        if (isCancellation(err, signal) || synthesizer.id === "rules") throw err;
        out = await createRulesSynthesizer().synthesize(input);
        out.info = { ...out.info, fallback: { kind: "synthesizer-error", detail: `${synthesizer.name} failed: ${oneLine(err)}` } };
      }
      throwIfCancelled(signal);
      return out;
    },
    (out) => ({
      status: "ok",
      count: out.draft.options.length,
      ...(out.info.fallback ? { reason: describeFallback(out.info.fallback) } : {}),
    }),
  );
  const reviewed = await criticStage(turn, input, synthesis, gathered);
  const evidence = reviewed.evidence;
  const receiptId = newReceiptId(turn.now());
  const evidenceFile = evidenceFileOf(evidence);
  const bound = withSourceRefs(bindPayload(reviewed.draft, evidenceFile.ref, receiptId), evidence);
  const { payload, unchecked } = await markUnresolved(turn.repo, bound, { offline: turn.config.offline, signal, ...turn.req.external });
  noteUnchecked(recorder, unchecked);
  return { synthesis: reviewed.synthesis, payload, receiptId, evidenceFile, evidence, codeRead: reviewed.codeRead };
}

/** At most this many model calls per deliberation (plan, synthesis, critic, revision all count). */
const MAX_MODEL_CALLS = 3;

/**
 * Code usage, then the "critic" stage: the rules Critic always, the model Critic when the host gave one, and — with
 * the model Critic on, on a blocking objection, with a synthesizer that can revise and a model call left — one
 * revision round whose draft is counted and criticised again (the model's first-draft objections stay, as concerns).
 */
async function criticStage(turn: Turn, input: SynthesisInput, first: SynthesisOutput, gathered: Gathered): Promise<{ draft: DraftPicker; evidence: FusedEvidence[]; synthesis: SynthesisOutput; codeRead: boolean }> {
  const { recorder, signal } = turn;
  const texts = new Map(gathered.artifacts.files.map((f) => [f.path, f.text] as const));
  let synthesis = first;
  let usage = await codeUsageStage(turn, first.draft, gathered.evidence);
  let evidence = [...gathered.evidence, ...usage.added];
  const rulesCritique = (): RaisedObjection[] => (turn.req.rulesCritic === false ? [] : critique({ question: turn.question, draft: usage.draft, evidence, ...(usage.report ? { usage: { report: usage.report, citedBy: usage.citedBy } } : {}), recordText: (p) => texts.get(p) }));
  const callsMade = () => (gathered.planned.calls?.length ?? 0) + (synthesis.info.calls?.length ?? 0);
  const outcome = await recorder.run(
    "critic",
    async () => {
      let raised: RaisedObjection[] = rulesCritique();
      let model: ModelCriticResult | undefined;
      if (turn.req.critic && callsMade() < MAX_MODEL_CALLS) {
        model = await turn.req.critic.review({ question: turn.question, draft: usage.draft, evidence, signal });
        if (model.call) synthesis = { ...synthesis, info: { ...synthesis.info, calls: [...(synthesis.info.calls ?? []), model.call] } };
        raised = [...raised, ...model.objections];
      }
      const blocking = raised.filter((o) => o.severity === "blocking");
      // The revision round belongs to the model Critic: with it off, a model deliberation makes its usual calls.
      if (model && blocking.length && turn.synthesizer.revise && synthesis.info.mode === "model" && callsMade() < MAX_MODEL_CALLS) {
        const revised: SynthesisOutput = await turn.synthesizer.revise(input, blocking.map((o) => ({ severity: o.severity, text: o.text, citations: o.citations }))).catch((err: unknown) => {
          if (isCancellation(err, signal)) throw err;
          // A revision that throws leaves the first draft standing.
          return { draft: synthesis.draft, info: { mode: "rules", fallback: { kind: "synthesizer-error", detail: `revision failed: ${oneLine(err)}` } } };
        });
        const calls = [...(synthesis.info.calls ?? []), ...(revised.info.calls ?? [])];
        if (revised.info.mode === "model" && !revised.info.fallback) {
          synthesis = { draft: revised.draft, info: { ...revised.info, calls } };
          usage = await codeUsageStage(turn, revised.draft, gathered.evidence);
          evidence = [...gathered.evidence, ...usage.added];
          const earlier = (model?.objections ?? []).map((o) => ({ ...o, severity: "concern" as const, effect: undefined, text: `${o.text} (raised on the first draft)` }));
          raised = [...rulesCritique(), ...earlier];
        } else {
          synthesis = { ...synthesis, info: { ...synthesis.info, calls } };
        }
      }
      return { raised, model };
    },
    ({ raised, model }) => {
      const blocking = raised.filter((o) => o.severity === "blocking").length;
      const counts = raised.length ? `${blocking} blocking, ${raised.length - blocking} concern${raised.length - blocking === 1 ? "" : "s"}` : "";
      const reason = [counts, model?.fallback ? `model critic not used: ${describeFallback(model.fallback)}` : ""].filter(Boolean).join("; ");
      return { status: "ok", count: raised.length, ...(reason ? { reason } : {}), ...(model?.fallback ? { fallback: model.fallback } : {}) };
    },
  );
  const codeRead = usage.report?.options.some((u) => u.terms.length) ?? false;
  return { draft: applyObjections(usage.draft, outcome.raised, evidence), evidence, synthesis, codeRead };
}

/** The "internal:code" stage: each option's use in the code, joined to the draft's tradeoffs and citations. */
async function codeUsageStage(turn: Turn, draft: DraftPicker, evidence: FusedEvidence[]): Promise<UsageJoin & { report?: CodeUsageReport }> {
  if (turn.req.codeUsage === false) return { draft, added: [], citedBy: new Map() };
  const stage = expertStage("internal", "code");
  turn.progress({ stage, state: "start" });
  const started = performance.now();
  const budget = codeUsageBudget(turn);
  const repoCheck = await turn.repoCheck;
  const joined = await measureCodeUsage(turn.repo, draft, evidence, {
    signal: turn.signal,
    excludeDirs: [turn.dirName],
    ignoreGlobs: turn.config.ignoreGlobs,
    ...(repoCheck ? { repoCheck } : {}),
    ...(budget !== undefined ? { budgetMs: budget } : {}),
    ...(turn.usageScope ? { scope: turn.usageScope.scope } : {}),
  });
  const r = joined.report;
  turn.recorder.record(
    stage,
    { status: r.status, count: r.options.reduce((n, u) => n + u.files, 0), ...(r.reason ? { reason: r.reason } : {}), ...(r.truncated ? { truncated: true } : {}) },
    performance.now() - started,
  );
  throwIfCancelled(turn.signal);
  return joined;
}

/** A history budget raised past the default (--git-budget-ms, as the eval does) raises the code-usage search's too. */
function codeUsageBudget(turn: Turn): number | undefined {
  const own = turn.req.codeUsage === false ? undefined : turn.req.codeUsage?.budgetMs;
  return own ?? (turn.config.git.maxMs > CODE_USAGE_BUDGET_MS ? turn.config.git.maxMs : undefined);
}

/** Starts listing the code-usage count's untracked scope once per turn, under the count's budget; stop() ends it. */
function startUsageScope(turn: Turn): void {
  if (turn.usageScope || turn.req.codeUsage === false) return;
  const listing = new AbortController();
  const onAbort = () => listing.abort();
  turn.signal.addEventListener("abort", onAbort, { once: true });
  const budgetMs = codeUsageBudget(turn) ?? CODE_USAGE_BUDGET_MS;
  const scope = (async () => {
    const repoCheck = await turn.repoCheck?.catch(() => undefined);
    return listUsageScope(turn.repo, { excludeDirs: [turn.dirName], ...(repoCheck ? { repoCheck } : {}), budgetMs, signal: listing.signal });
  })().catch(() => undefined);
  turn.usageScope = {
    scope,
    stop: () => {
      turn.signal.removeEventListener("abort", onAbort);
      listing.abort();
    },
  };
}

/** A cached turn's code-usage figures hold when code usage is off, or the code is in the state the entry recorded. */
async function codeStillHolds(turn: Turn, entry: TurnCacheEntry, current: () => Promise<string | undefined>): Promise<boolean> {
  return turn.req.codeUsage === false || codeStateHolds(entry, current);
}

/** The state of the code the usage count reads (internal/codeUsage.ts); undefined when it cannot be taken. */
async function currentCodeState(turn: Turn): Promise<string | undefined> {
  const repoCheck = await turn.repoCheck?.catch(() => undefined);
  return codeUsageState(turn.repo, { excludeDirs: [turn.dirName], ignoreGlobs: turn.config.ignoreGlobs, ...(repoCheck ? { repoCheck } : {}), signal: turn.signal }).catch((err: unknown) => {
    if (isCancellation(err, turn.signal)) throw err;
    return undefined;
  });
}

/** Signs the receipt, then writes the evidence and the receipt atomically and remembers the turn. */
async function seal(turn: Turn, classification: Classification, gathered: Gathered, decided: Decided): Promise<DeliberateOutcome> {
  const { req, repo, signal, recorder } = turn;
  const started = performance.now();
  const { synthesis, evidenceFile } = decided;
  // Each internal citation carries the hash of its cited lines, as discovery read them, inside the signed payload.
  const known = new Map([...gathered.artifacts.files.map((f) => [f.path, f.text] as const), ...gathered.decisionSources.texts]);
  const payload = { ...decided.payload, citations: await withContentHashes(repo, decided.payload.citations, known) };
  const info = synthesis.info;
  const calls = [...(gathered.planned.calls ?? []), ...(info.calls ?? [])];
  const unsigned = {
    schema_version: RECEIPT_SCHEMA_VERSION,
    receipt_id: decided.receiptId,
    created_at: turn.now().toISOString(),
    question: turn.question,
    question_hash: sha256(turn.question.toLowerCase()),
    classification,
    ...(classification.class !== "open-question" ? { class_mismatch: true } : {}),
    config_version: turn.version,
    artifact_set_hash: gathered.artifacts.hash,
    artifact_path_keys: artifactPathKeys(gathered.artifacts.files.map((f) => f.path)),
    citation_set_hash: sha256(canonicalJson(payload.citations.map((c) => c.id).sort())),
    evidence_ref: evidenceFile.ref,
    stages: recorder.snapshot(),
    plan: gathered.planned.plan,
    synthesis: {
      ...info,
      // Readers of receipts written before `fallback` existed only know this text.
      ...(info.fallback ? { fallback_reason: describeFallback(info.fallback) } : {}),
      options_count: payload.options.length,
      recommendation_id: payload.recommendation.option_id,
      dissent_count: payload.options.reduce((n, o) => n + o.dissent.length, 0),
      ...(calls.length ? { calls } : {}),
    },
    ...(gathered.sources.length ? { sources: gathered.sources } : {}),
    ...(gathered.decisionSources.records.length ? { decision_sources: gathered.decisionSources.records } : {}),
    ...(req.context?.file ? { context: { file: req.context.file, ...(req.context.line ? { line: req.context.line } : {}) } } : {}),
    operator_pick: null,
    picks: [],
    evidence_files: [{ path: evidenceFile.path, sha256: evidenceFile.sha256 }],
    ...(turn.learned ? { learned_weights: turn.learned } : {}),
    payload,
  };
  const receipt = signReceipt(unsigned, req.signingKey);
  const parsed = ReceiptSchema.safeParse(receipt);
  if (!parsed.success) throw new DeliberationError(`internal error: receipt failed its schema: ${formatZodError(parsed.error)}`, "internal");
  let receiptFile: string | undefined;
  if (turn.writeToDisk) {
    throwIfCancelled(signal);
    await storeEvidenceFile(repo, evidenceFile, turn.dirName);
    receiptFile = await writeReceipt(repo, receipt, turn.dirName);
    // A turn that fell back (model down, bad key) is not cached: the next turn should try the model again.
    if (!info.fallback && !gathered.planned.fallback) {
      const codeState = decided.codeRead ? await turn.codeState : "";
      await writeTurnCacheEntry(turn.cacheFile, {
        receipt_id: decided.receiptId,
        artifact_set_hash: gathered.artifacts.hash,
        fingerprint: gathered.fingerprint,
        ...(codeState !== undefined ? { code_state: codeState } : {}),
      });
    }
  }
  // The receipt write's own timing goes to the progress listener; it cannot be inside the bytes it signs.
  recorder.announceDone("receipt", turn.writeToDisk ? "ok" : "skipped", performance.now() - started);
  return { kind: "deliberated", receipt, payload, evidence: decided.evidence, receiptFile, cached: false };
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
): Promise<{ payload: OptionPicker; unchecked: string[] }> {
  const [internal, external] = await Promise.all([
    unresolvedCitations(repo, { payload } as Receipt),
    payload.citations.some((c) => c.kind === "external")
      ? recheckExternalCitations(payload.citations, { repo, ...ext, timeoutMs: Math.min(ext.timeoutMs ?? 3000, 3000) })
      : Promise.resolve({ failed: [] as string[], unchecked: [] as string[], reasons: {} as Record<string, string> }),
  ]);
  // Web citations a probe was sent for but the deadline cut short (offline ones were never meant to be probed).
  const unchecked = external.unchecked.filter((id) => external.reasons[id]).map((id) => external.reasons[id]);
  const failed = new Set([...internal, ...external.failed]);
  if (failed.size === 0) return { payload, unchecked };
  return { unchecked, payload: {
    ...payload,
    citations: payload.citations.map((c) => (failed.has(c.id) ? { ...c, resolution_failed: true as const } : c)),
    options: payload.options.map((o) =>
      [...o.supports, ...o.dissent].some((id) => failed.has(id)) ? { ...o, confidence: "low" as const } : o,
    ),
  } };
}

/**
 * Cited web pages the return-time re-check could not reach in time are neither failed nor confirmed: the external
 * stage's reason says how many and why, so the receipt and every reader show it rather than nothing.
 */
function noteUnchecked(recorder: StageRecorder, whys: string[]): void {
  const stage = recorder.stages.external;
  if (!whys.length || !stage) return;
  const note = `${whys.length} cited web page(s) neither confirmed nor failed at return time (${whys[0]})`;
  recorder.stages.external = { ...stage, reason: stage.reason ? `${stage.reason}; ${note}` : note };
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
