// `npm run eval`: retrieval, recommendation, option and classifier quality of the built CLI on a corpus of real
// ADR repositories (issue 9 §7). See eval/README.md.
//
//   MIRRORS=/work/.mirror npm run eval                 every question (corpus: eval/corpus.json)
//   npm run eval -- --only jabref,madr                 questions of repos whose name contains "jabref" or "madr"
//   npm run eval -- --id james-03 --verbose            one question, with its per-question line
//   npm run eval -- --no-write                         do not write eval/results.json
//   npm run eval -- --set test                         one column: dev, test or independent (repeatable)
//   npm run eval -- --once                             skip the second (warm) pass and its determinism check
//   npm run eval -- --jobs 2                           run two CLI processes at a time (default 1: the latency
//                                                      figures are one process at a time, as issue 20's target says)
//   npm run eval -- --resident                         answer through one running MCP server per repository (the
//                                                      product as an agent or the editor runs it; eval/resident.ts)
//   npm run eval -- --resident --compare-fresh         then the fresh-process pass too: latency side by side, and
//                                                      every resident answer checked against the fresh one
//
// Each repo is checked out at its pinned commit under EVAL_WORKDIR (default ~/.cache/deliberative-search-eval);
// each question runs `node dist/cli.js "<q>" --repo <dir> --offline --json --no-cache --force` as a real process.
// The eval reports and always exits 0; targets are printed as PASS/FAIL.
import { execFileSync, spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import {
  adrTitle,
  firstRank,
  judgeGrounded,
  judgeOptions,
  noAnswerFlagged,
  percentile,
  rankedDocs,
  ratio,
  sharedWords,
  UNDECIDABLE_ID,
  type LooseEvidence,
  type LoosePayload,
} from "./metrics";
import { answerKey, firstDifference, stableJson } from "./answerKey";
import { baselineFor, type Bm25Baseline } from "./baseline";
import { consideredAmongOptions } from "./considered";
import { scoreDecisionModel, type DecisionModelScore } from "./decisionModel";
import { runGuardEval, writeGuardResults } from "./guard/run";
import { byRepository, ResidentServer, summariseLatency, type LatencySummary, type ResidentAnswer } from "./resident";
import { loadSets, SET_NAMES, type CorpusRepo, type QuestionStyle, type SetName, type SetQuestion } from "./sets";

const EVAL_DIR = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(EVAL_DIR, "..");
const BUILT_CLI = join(ROOT, "dist", "cli.js");
/** The CLI the eval runs: a private copy of dist/ taken at the start, so a rebuild meanwhile cannot mix two builds. */
let CLI = BUILT_CLI;
const RESULTS_FILE = join(EVAL_DIR, "results.json");
/**
 * Questions run one CLI process at a time by default, so p50/p95 are per question and not shared cores; `--jobs N`
 * (or EVAL_CONCURRENCY=N) runs N at a time for a quicker, noisier pass.
 */
let CONCURRENCY = clampJobs(Number(process.env.EVAL_CONCURRENCY) || 1);

function clampJobs(n: number): number {
  return Math.max(1, Math.min(8, Math.floor(n)));
}
const QUESTION_TIMEOUT_MS = 120_000;
const RECEIPTS_DIR = ".deliberations";
/** A git budget that never cuts the history search short on the corpus: answers must not depend on machine speed. */
const GIT_BUDGET_MS = "60000";

interface ClassifierItem {
  text: string;
  label: "open-question" | "lookup" | "other";
}

// ---------------------------------------------------------------------------------------------------------------
// Arguments

interface Args {
  only?: string;
  id?: string;
  sets: SetName[];
  verbose: boolean;
  write: boolean;
  twice: boolean;
  showHeldOut: boolean;
  /** Answer through one resident MCP server per repository instead of one CLI process per question. */
  resident: boolean;
  /** With --resident: also a fresh-process pass, compared answer by answer. */
  compareFresh: boolean;
}

function parseArgs(argv: string[]): Args {
  const args: Args = { verbose: false, write: true, twice: true, showHeldOut: false, sets: [], resident: false, compareFresh: false };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split("=", 2) as [string, string | undefined];
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined) usage(`${flag} needs a value`);
      return v;
    };
    switch (flag) {
      case "--only":
        args.only = value();
        break;
      case "--id":
        args.id = value();
        break;
      case "--verbose":
      case "-v":
        args.verbose = true;
        break;
      case "--no-write":
        args.write = false;
        break;
      case "--show-held-out":
        args.showHeldOut = true;
        break;
      case "--once":
        args.twice = false;
        break;
      case "--resident":
        args.resident = true;
        break;
      case "--compare-fresh":
        args.compareFresh = true;
        break;
      case "--jobs": {
        const jobs = Number(value());
        if (!Number.isFinite(jobs) || jobs < 1) usage(`--jobs: expected a number >= 1`);
        CONCURRENCY = clampJobs(jobs);
        break;
      }
      case "--set": {
        const name = value();
        if (!(SET_NAMES as readonly string[]).includes(name)) usage(`--set: expected one of ${SET_NAMES.join(", ")}, got ${name}`);
        args.sets.push(name as SetName);
        break;
      }
      case "--help":
      case "-h":
        usage();
        break;
      default:
        usage(`unknown argument ${argv[i]}`);
    }
  }
  return args;
}

function usage(error?: string): never {
  if (error) console.error(`eval: ${error}`);
  console.error("usage: MIRRORS=/work/.mirror npm run eval -- [--set dev|test|independent]... [--only <repo substring>] [--id <question id>] [--once] [--jobs N] [--resident [--compare-fresh]] [--verbose [--show-held-out]] [--no-write]");
  process.exit(error ? 2 : 0);
}

// ---------------------------------------------------------------------------------------------------------------
// Inputs

function readJson<T>(file: string): T {
  return JSON.parse(readFileSync(file, "utf8")) as T;
}

function loadClassifierSet(): ClassifierItem[] {
  const raw = readJson<{ items: ClassifierItem[] } | ClassifierItem[]>(join(EVAL_DIR, "classifier.json"));
  return Array.isArray(raw) ? raw : raw.items;
}

// ---------------------------------------------------------------------------------------------------------------
// Checkouts

function git(args: string[], opts: { cwd?: string; input?: string } = {}): string {
  return execFileSync("git", args, {
    cwd: opts.cwd,
    input: opts.input,
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
    stdio: ["pipe", "pipe", "pipe"],
  });
}

function mirrorGitDir(mirrors: string, repo: CorpusRepo): string {
  for (const candidate of [join(mirrors, repo.mirror, "repo"), join(mirrors, repo.mirror)]) {
    if (existsSync(join(candidate, "HEAD")) && existsSync(join(candidate, "objects"))) return candidate;
  }
  throw new Error(`no git mirror for ${repo.name} under ${join(mirrors, repo.mirror)}`);
}

/** Escapes a path for a gitignore-style sparse-checkout pattern. */
function sparseEscape(path: string): string {
  return path.replace(/[\\*?[\]!#]/g, (c) => `\\${c}`);
}

const READY_MARK = "deliberative-search-eval-ready";

/**
 * A working tree of `repo` at its pinned commit, sharing the mirror's objects (full history for the git expert).
 * Blobs the mirror lacks (a few large binaries were left out of the snapshots) are excluded with a sparse checkout.
 */
function ensureCheckout(mirrors: string, workRoot: string, repo: CorpusRepo): string {
  const dir = join(workRoot, `${repo.mirror}@${repo.sha.slice(0, 12)}`);
  if (existsSync(join(dir, ".git", READY_MARK))) {
    try {
      if (git(["-C", dir, "rev-parse", "HEAD"]).trim() === repo.sha) return dir;
    } catch {
      // fall through and re-create
    }
  }
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(workRoot, { recursive: true });
  const source = mirrorGitDir(mirrors, repo);
  git(["clone", "--quiet", "--shared", "--no-checkout", source, dir]);
  const tree = git(["-C", dir, "ls-tree", "-r", "-z", repo.sha]).split("\0").filter(Boolean);
  const blobs: { id: string; path: string }[] = [];
  for (const entry of tree) {
    const m = /^\d+ blob ([0-9a-f]+)\t([\s\S]+)$/.exec(entry);
    if (m) blobs.push({ id: m[1], path: m[2] });
  }
  const check = git(["-C", dir, "cat-file", "--batch-check"], { input: blobs.map((b) => b.id).join("\n") + "\n" });
  const missingIds = new Set(
    check
      .split("\n")
      .filter((l) => / missing$/.test(l))
      .map((l) => l.split(" ")[0]),
  );
  const missing = blobs.filter((b) => missingIds.has(b.id)).map((b) => b.path);
  if (missing.length) {
    git(["-C", dir, "config", "core.sparseCheckout", "true"]);
    writeFileSync(join(dir, ".git", "info", "sparse-checkout"), ["/*", ...missing.map((p) => `!/${sparseEscape(p)}`)].join("\n") + "\n");
  }
  git(["-C", dir, "checkout", "--quiet", "--detach", repo.sha]);
  writeFileSync(join(dir, ".git", READY_MARK), `${repo.sha}\nmissing blobs skipped: ${missing.length}\n${missing.join("\n")}\n`);
  return dir;
}

function readAtCheckout(dir: string, path: string): string | undefined {
  try {
    return readFileSync(join(dir, path), "utf8");
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// One question through the built CLI

interface CliRun {
  exitCode: number | null;
  ms: number;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/**
 * How the CLI runs: its own cache folder (so the user's caches never leak in), no background indexing (an index that
 * appears half-way through a run would change later answers), and a pass's switches for the snapshot and the index.
 */
interface CliEnv {
  cacheDir: string;
  /** Cold pass: no corpus snapshot and no history index, read or written. */
  cold: boolean;
}

function cliEnv(env: CliEnv): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NO_COLOR: "1",
    XDG_CACHE_HOME: env.cacheDir,
    DELIBERATIVE_NO_BACKGROUND_INDEX: "1",
    ...(env.cold ? { DELIBERATIVE_HISTORY_INDEX: "off", DELIBERATIVE_CORPUS_CACHE: "off" } : {}),
  };
}

function runCli(question: string, repoDir: string, env: CliEnv): Promise<CliRun> {
  return new Promise((resolvePromise) => {
    const started = process.hrtime.bigint();
    const argv = [CLI, question, "--repo", repoDir, "--offline", "--json", "--no-cache", "--force", "--git-budget-ms", GIT_BUDGET_MS];
    const child = spawn(process.execPath, argv, {
      cwd: repoDir,
      env: cliEnv(env),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, QUESTION_TIMEOUT_MS);
    const finish = (exitCode: number | null) => {
      clearTimeout(timer);
      resolvePromise({ exitCode, ms: Number(process.hrtime.bigint() - started) / 1e6, stdout, stderr, timedOut });
    };
    child.on("error", (err) => {
      stderr += String(err);
      finish(null);
    });
    child.on("close", (code) => finish(code));
  });
}

interface QuestionResult {
  id: string;
  set: SetName;
  style: QuestionStyle;
  repo: string;
  question: string;
  tags: string[];
  gold: string[];
  superseded: string[];
  exit_code: number | null;
  ms: number;
  error?: string;
  no_content_word_overlap: boolean;
  no_content_word_overlap_declared?: boolean;
  gold_titles: string[];
  gold_rank?: number;
  superseded_ranks: (number | null)[];
  superseded_above_successor: boolean;
  top_docs: string[];
  docs_found: number;
  evidence_items: number;
  options: string[];
  recommendation?: { option_id: string; title?: string; confidence?: string };
  /** Blocking objections the Critic raised (issue 23). */
  blocking_objections?: number;
  /** The answer before the Critic's effect, when the Critic lowered or withdrew it. */
  before_critic?: { option_id: string; confidence: string; grounded: boolean };
  /** Open questions: how many of the deciding record's considered options (at most 4) are among the options. */
  considered_in_options?: { wanted: number; found: number };
  grounded?: boolean;
  grounded_reason?: string;
  no_answer_flagged?: boolean;
  options_right: boolean;
  options_detail: { unmatched: string[][]; fragments: string[]; off_topic: string[] };
  /** The plain BM25 baseline's rank of the first gold record. */
  baseline_rank?: number;
  baseline_superseded_above: boolean;
  /** Stages a budget cut short (the eval's budgets should never cut). */
  truncated: string[];
  /** The answer with ids, timestamps and timings left out, for the determinism check. */
  answer_key?: string;
  /** The ranked documents, option titles and recommendation: what must never change between runs. */
  decision_key?: string;
  /** Cold pass vs warm pass: identical payloads, identical decision (ranking, options, recommendation), first difference. */
  determinism?: { identical: boolean; same_decision: boolean; difference?: string };
  /** Resident mode: the first question its server answered (it paid for loading the corpus). */
  first_on_server?: boolean;
}

function oneLine(text: string): string {
  return text.trim().split("\n").filter(Boolean).pop()?.slice(0, 300) ?? "";
}


function savePayload(dir: string, q: SetQuestion, repoDir: string, payload: LoosePayload, evidence: LooseEvidence[]): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${q.id}.json`), JSON.stringify({ question: q, repo_dir: repoDir, critic: process.env.DELIBERATIVE_CRITIC ?? "on", payload, evidence }) + "\n");
}

/** Asks one question somewhere else than a fresh CLI process (resident mode: a running MCP server). */
type Ask = (question: string) => Promise<CliRun>;

/** A resident server's answer in the shape of a CLI run: the payload as stdout, exit 0, or the error as stderr. */
function residentRun(answer: ResidentAnswer): CliRun {
  if (answer.error !== undefined) return { exitCode: 1, ms: answer.ms, stdout: "", stderr: answer.error, timedOut: answer.timedOut };
  return { exitCode: 0, ms: answer.ms, stdout: JSON.stringify(answer.payload), stderr: "", timedOut: false };
}

async function evaluateQuestion(q: SetQuestion, repoDir: string, env: CliEnv, baseline: Bm25Baseline, ask?: Ask): Promise<QuestionResult> {
  const baselineDocs = baseline.rank(q.question);
  const baselineRank = q.gold.length ? firstRank(baselineDocs, q.gold) : undefined;
  const baselineSup = (q.superseded ?? []).some((p) => {
    const r = firstRank(baselineDocs, [p]);
    return r !== undefined && (baselineRank === undefined || r < baselineRank);
  });
  const goldTitles = q.gold.map((p) => adrTitle(readAtCheckout(repoDir, p) ?? "", p));
  const overlap = q.gold.length > 0 && goldTitles.every((t) => sharedWords(q.question, t).length === 0);
  const base: QuestionResult = {
    id: q.id,
    set: q.set,
    style: q.style,
    repo: q.repo,
    question: q.question,
    tags: q.tags ?? [],
    gold: q.gold,
    superseded: q.superseded ?? [],
    exit_code: null,
    ms: 0,
    no_content_word_overlap: overlap,
    no_content_word_overlap_declared: q.no_content_word_overlap,
    gold_titles: goldTitles,
    superseded_ranks: [],
    superseded_above_successor: false,
    top_docs: [],
    docs_found: 0,
    evidence_items: 0,
    options: [],
    options_right: false,
    options_detail: { unmatched: q.expected_options ?? [], fragments: [], off_topic: [] },
    baseline_rank: baselineRank,
    baseline_superseded_above: q.gold.length > 0 && baselineSup,
    truncated: [],
  };
  const run = ask ? await ask(q.question) : await runCli(q.question, repoDir, env);
  base.exit_code = run.exitCode;
  base.ms = Math.round(run.ms);
  if (run.timedOut) return { ...base, error: `timed out after ${QUESTION_TIMEOUT_MS} ms` };
  if (run.exitCode !== 0) return { ...base, error: `exit ${run.exitCode}: ${oneLine(run.stderr) || oneLine(run.stdout)}` };

  let payload: LoosePayload;
  try {
    payload = JSON.parse(run.stdout) as LoosePayload;
  } catch (err) {
    return { ...base, error: `stdout is not JSON: ${(err as Error).message}` };
  }
  // The receipt on disk is the record of the run; prefer its payload, fall back to stdout.
  let evidenceRef = payload.evidence_ref;
  const errors: string[] = [];
  const truncated: string[] = [];
  if (payload.receipt_ref) {
    try {
      const receipt = readJson<{ payload?: LoosePayload; evidence_ref?: string; stages?: Record<string, { truncated?: boolean; reason?: string }> }>(
        join(repoDir, RECEIPTS_DIR, `${payload.receipt_ref}.json`),
      );
      if (receipt.payload) payload = receipt.payload;
      evidenceRef = receipt.evidence_ref ?? evidenceRef;
      // A time budget that ran out, not a fixed count cap ("pickaxe limited to the last 2000 commits" is the same
      // on every run): only the former makes an answer depend on the machine.
      for (const [stage, status] of Object.entries(receipt.stages ?? {})) {
        if (status?.truncated && /budget|cut short|timed? ?out/i.test(status.reason ?? "")) truncated.push(stage);
      }
    } catch (err) {
      errors.push(`receipt unreadable: ${(err as Error).message}`);
    }
  } else errors.push("payload has no receipt_ref");
  let evidence: LooseEvidence[] = [];
  if (evidenceRef) {
    try {
      const raw = readJson<unknown>(join(repoDir, RECEIPTS_DIR, "evidence", `${evidenceRef}.json`));
      const list = Array.isArray(raw) ? raw : ((raw as { items?: unknown; evidence?: unknown }).items ?? (raw as { evidence?: unknown }).evidence);
      if (Array.isArray(list)) evidence = list as LooseEvidence[];
      else errors.push("evidence file is not an array");
    } catch (err) {
      errors.push(`evidence unreadable: ${(err as Error).message}`);
    }
  } else errors.push("no evidence_ref");

  // EVAL_SAVE_PAYLOADS=DIR keeps each answer's payload and evidence, so eval/critic.ts can rerun the Critic offline.
  if (process.env.EVAL_SAVE_PAYLOADS) savePayload(process.env.EVAL_SAVE_PAYLOADS, q, repoDir, payload, evidence);
  const docs = rankedDocs(evidence);
  const goldRank = q.gold.length ? firstRank(docs, q.gold) : undefined;
  const supRanks = (q.superseded ?? []).map((p) => firstRank(docs, [p]) ?? null);
  const supAbove = q.gold.length > 0 && supRanks.some((r) => r !== null && (goldRank === undefined || r < goldRank));
  const options = (payload.options ?? []).filter((o) => o && typeof o.title === "string");
  const titles = options.map((o) => o.title);
  // An option the deciding record itself names (one of its considered options, word for word) is neither a fragment
  // of the question nor off topic, however short or unlike the question's wording it is.
  const goldTexts = q.gold.map((p) => readAtCheckout(repoDir, p) ?? "");
  const verdict = judgeOptions(q, titles, goldTexts);
  const consideredInOptions = q.style === "open" && q.gold.length ? consideredAmongOptions(q.gold[0], goldTexts[0], titles, repoDir) : undefined;
  const recId = payload.recommendation?.option_id;
  const result: QuestionResult = {
    ...base,
    error: errors.length ? errors.join("; ") : undefined,
    gold_rank: goldRank,
    superseded_ranks: supRanks,
    superseded_above_successor: supAbove,
    top_docs: docs.slice(0, 5),
    docs_found: docs.length,
    evidence_items: evidence.length,
    options: titles,
    recommendation: recId
      ? { option_id: recId, title: options.find((o) => o.id === recId)?.title, confidence: payload.recommendation?.confidence }
      : undefined,
    options_right: verdict.ok,
    blocking_objections: (payload.objections ?? []).filter((o) => o?.severity === "blocking").length,
    ...(consideredInOptions ? { considered_in_options: consideredInOptions } : {}),
    options_detail: { unmatched: verdict.unmatched, fragments: verdict.fragments, off_topic: verdict.off_topic },
    truncated,
    answer_key: answerKey(payload, docs),
    decision_key: stableJson({ ranked_documents: docs, options: titles, recommendation: recId ?? null }),
  };
  const effect = payload.critic_effect;
  if (effect) {
    const draftPayload = { ...payload, recommendation: { option_id: effect.draft_option_id, confidence: effect.draft_confidence, rationale: "" } };
    result.before_critic = { option_id: effect.draft_option_id, confidence: effect.draft_confidence, grounded: q.gold.length > 0 && judgeGrounded(q, draftPayload).grounded };
  }
  if (q.gold.length) {
    const g = judgeGrounded(q, payload);
    result.grounded = g.grounded;
    result.grounded_reason = g.reason;
  } else {
    result.no_answer_flagged = noAnswerFlagged(payload);
  }
  return result;
}

// ---------------------------------------------------------------------------------------------------------------
// Aggregation

interface Metrics {
  questions: number;
  with_gold: number;
  errors: number;
  recall_at_1?: number;
  recall_at_3?: number;
  mrr?: number;
  other_words_questions: number;
  other_words_recall_at_3?: number;
  superseded_questions: number;
  superseded_above_successor: number;
  grounded?: number;
  no_answer_questions: number;
  no_answer_flagged: number;
  no_answer_flagged_share?: number;
  options_right?: number;
  latency_p50_ms?: number;
  latency_p95_ms?: number;
  baseline_recall_at_1?: number;
  baseline_recall_at_3?: number;
  baseline_superseded_above_successor: number;
  open_questions: number;
  open_recall_at_3?: number;
  /** Open questions whose deciding record weighed 2+ options, and of those how many offer all of them (up to 4). */
  open_considered_questions: number;
  open_considered_offered: number;
  /** Calibration: answers at each confidence, and how many were right (grounded, or no record decides and none was claimed). */
  high_answers: number;
  high_right: number;
  med_answers: number;
  med_right: number;
  /** The same calibration on the drafts, before the Critic lowered or withdrew them. */
  draft_high_answers: number;
  draft_high_right: number;
  draft_med_answers: number;
  draft_med_right: number;
  /** The Critic: drafted answers that are wrong / right, and how many of each carry a blocking objection. */
  wrong_answers: number;
  wrong_blocked: number;
  right_answers: number;
  right_blocked: number;
  /** Questions a budget cut short (any stage). */
  truncated: number;
  /** Questions run twice, and how many gave the identical answer. */
  determinism_checked: number;
  determinism_identical: number;
  /** Of those, how many kept the same ranking, options and recommendation. */
  determinism_same_decision: number;
}

/** The answer as the synthesizer drafted it, before the Critic lowered or withdrew it. */
function drafted(r: QuestionResult): { option_id?: string; confidence?: string; grounded: boolean } {
  return r.before_critic ?? { option_id: r.recommendation?.option_id, confidence: r.recommendation?.confidence, grounded: r.grounded === true };
}

/**
 * A decided answer is right when it is grounded in the gold record; on a question no record decides, never. The
 * Critic is judged on the drafts it saw (an answer it withdrew still counts, as blocked); calibration is given both
 * for the final answers and for the drafts (without the Critic's effect).
 */
function calibration(results: QuestionResult[]): Pick<Metrics, "high_answers" | "high_right" | "med_answers" | "med_right" | "draft_high_answers" | "draft_high_right" | "draft_med_answers" | "draft_med_right" | "wrong_answers" | "wrong_blocked" | "right_answers" | "right_blocked"> {
  const isDecided = (id?: string) => !!id && id !== "undecidable-on-current-evidence";
  const decided = results.filter((r) => isDecided(r.recommendation?.option_id));
  const right = (r: QuestionResult) => r.gold.length > 0 && r.grounded === true;
  const at = (level: string) => decided.filter((r) => r.recommendation?.confidence === level);
  const drafts = results.filter((r) => isDecided(drafted(r).option_id));
  const draftRight = (r: QuestionResult) => r.gold.length > 0 && drafted(r).grounded;
  const draftAt = (level: string) => drafts.filter((r) => drafted(r).confidence === level);
  const wrong = drafts.filter((r) => !draftRight(r));
  const good = drafts.filter(draftRight);
  const blocked = (rs: QuestionResult[]) => rs.filter((r) => (r.blocking_objections ?? 0) > 0).length;
  return {
    high_answers: at("high").length,
    high_right: at("high").filter(right).length,
    med_answers: at("med").length,
    med_right: at("med").filter(right).length,
    draft_high_answers: draftAt("high").length,
    draft_high_right: draftAt("high").filter(draftRight).length,
    draft_med_answers: draftAt("med").length,
    draft_med_right: draftAt("med").filter(draftRight).length,
    wrong_answers: wrong.length,
    wrong_blocked: blocked(wrong),
    right_answers: good.length,
    right_blocked: blocked(good),
  };
}

function aggregate(results: QuestionResult[]): Metrics {
  const gold = results.filter((r) => r.gold.length > 0);
  const ow = gold.filter((r) => r.no_content_word_overlap);
  const sup = gold.filter((r) => r.superseded.length > 0);
  const noAns = results.filter((r) => r.gold.length === 0);
  const open = gold.filter((r) => r.style === "open");
  const within = (rs: QuestionResult[], k: number) => rs.filter((r) => r.gold_rank !== undefined && r.gold_rank <= k).length;
  const latencies = results.filter((r) => r.exit_code === 0).map((r) => r.ms);
  const flagged = noAns.filter((r) => r.no_answer_flagged).length;
  return {
    questions: results.length,
    with_gold: gold.length,
    errors: results.filter((r) => r.exit_code !== 0 || r.error).length,
    recall_at_1: ratio(within(gold, 1), gold.length),
    recall_at_3: ratio(within(gold, 3), gold.length),
    mrr: gold.length ? gold.reduce((s, r) => s + (r.gold_rank ? 1 / r.gold_rank : 0), 0) / gold.length : undefined,
    other_words_questions: ow.length,
    other_words_recall_at_3: ratio(within(ow, 3), ow.length),
    superseded_questions: sup.length,
    superseded_above_successor: gold.filter((r) => r.superseded_above_successor).length,
    grounded: ratio(gold.filter((r) => r.grounded).length, gold.length),
    no_answer_questions: noAns.length,
    no_answer_flagged: flagged,
    no_answer_flagged_share: ratio(flagged, noAns.length),
    options_right: ratio(results.filter((r) => r.options_right).length, results.length),
    latency_p50_ms: percentile(latencies, 50),
    latency_p95_ms: percentile(latencies, 95),
    baseline_recall_at_1: ratio(gold.filter((r) => r.baseline_rank !== undefined && r.baseline_rank <= 1).length, gold.length),
    baseline_recall_at_3: ratio(gold.filter((r) => r.baseline_rank !== undefined && r.baseline_rank <= 3).length, gold.length),
    baseline_superseded_above_successor: gold.filter((r) => r.baseline_superseded_above).length,
    open_questions: open.length,
    open_recall_at_3: ratio(within(open, 3), open.length),
    open_considered_questions: open.filter((r) => r.considered_in_options).length,
    open_considered_offered: open.filter((r) => r.considered_in_options && r.considered_in_options.found === r.considered_in_options.wanted).length,
    ...calibration(results),
    truncated: results.filter((r) => r.truncated.length > 0).length,
    determinism_checked: results.filter((r) => r.determinism).length,
    determinism_identical: results.filter((r) => r.determinism?.identical).length,
    determinism_same_decision: results.filter((r) => r.determinism?.same_decision).length,
  };
}

interface ClassifierResult {
  n: number;
  accuracy?: number;
  open_recall?: number;
  not_open_specificity?: number;
  misses: { text: string; label: string; class: string; confidence: number }[];
  error?: string;
}

async function evaluateClassifier(items: ClassifierItem[]): Promise<ClassifierResult> {
  let classify: (text: string) => { class: string; confidence: number };
  try {
    const mod = (await import("../src/core/classify")) as { classifyQuestion?: (text: string) => { class: string; confidence: number } };
    if (typeof mod.classifyQuestion !== "function") throw new Error("src/core/classify has no classifyQuestion export");
    classify = mod.classifyQuestion;
  } catch (err) {
    return { n: items.length, misses: [], error: `classifier not importable: ${(err as Error).message}` };
  }
  const misses: ClassifierResult["misses"] = [];
  let right = 0;
  let openRight = 0;
  let openTotal = 0;
  let notRight = 0;
  for (const item of items) {
    const c = classify(item.text);
    const saysOpen = c.class === "open-question";
    const isOpen = item.label === "open-question";
    if (isOpen) openTotal++;
    if (saysOpen === isOpen) {
      right++;
      if (isOpen) openRight++;
      else notRight++;
    } else misses.push({ text: item.text, label: item.label, class: c.class, confidence: Math.round(c.confidence * 100) / 100 });
  }
  return {
    n: items.length,
    accuracy: ratio(right, items.length),
    open_recall: ratio(openRight, openTotal),
    not_open_specificity: ratio(notRight, items.length - openTotal),
    misses,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Targets and the table

interface Target {
  name: string;
  value: (m: Metrics, c: ClassifierResult) => number | undefined;
  ok: (v: number, m: Metrics) => boolean;
  goal: string;
  show: (v: number, m: Metrics) => string;
  /** Columns the target applies to (all when absent). */
  sets?: SetName[];
  /** A figure shown for comparison, with no target of its own. */
  info?: boolean;
}

const pct = (v: number) => v.toFixed(2);

const TARGETS: Target[] = [
  { name: "recall@3", value: (m) => m.recall_at_3, ok: (v) => v >= 0.95, goal: ">= 0.95", show: pct },
  { name: "recall@1", value: (m) => m.recall_at_1, ok: (v) => v >= 0.85, goal: ">= 0.85", show: pct },
  {
    name: "recall@3 - baseline",
    value: (m) => (m.recall_at_3 === undefined || m.baseline_recall_at_3 === undefined ? undefined : m.recall_at_3 - m.baseline_recall_at_3),
    ok: (v) => v >= 0,
    goal: ">= 0",
    show: (v) => (v >= 0 ? "+" : "") + pct(v),
  },
  {
    name: "recall@1 - baseline",
    value: (m) => (m.recall_at_1 === undefined || m.baseline_recall_at_1 === undefined ? undefined : m.recall_at_1 - m.baseline_recall_at_1),
    ok: (v) => v >= 0,
    goal: ">= 0",
    show: (v) => (v >= 0 ? "+" : "") + pct(v),
  },
  { name: "open-question recall@3", value: (m) => m.open_recall_at_3, ok: (v) => v >= 0.85, goal: ">= 0.85", show: pct },
  {
    name: "superseded above successor",
    value: (m) => (m.superseded_questions ? m.superseded_above_successor : undefined),
    ok: (v) => v === 0,
    goal: "0",
    show: (v, m) => `${v}/${m.superseded_questions}`,
  },
  { name: "other-words recall@3", value: (m) => m.other_words_recall_at_3, ok: (v) => v >= 0.5, goal: ">= 0.50", show: pct },
  { name: "grounded", value: (m) => m.grounded, ok: (v) => v >= 0.85, goal: ">= 0.85", show: pct },
  {
    name: "no-answer flagged",
    value: (m) => m.no_answer_flagged_share,
    ok: (v) => v >= 5 / 6,
    goal: ">= 5/6",
    show: (_v, m) => `${m.no_answer_flagged}/${m.no_answer_questions}`,
  },
  { name: "options right", value: (m) => m.options_right, ok: (v) => v >= 0.9, goal: ">= 0.90", show: pct },
  {
    name: "open: record's options offered",
    value: (m) => (m.open_considered_questions ? m.open_considered_offered / m.open_considered_questions : undefined),
    ok: (v) => v >= 0.8,
    goal: ">= 0.80",
    show: (_v, m) => `${m.open_considered_offered}/${m.open_considered_questions}`,
  },
  {
    name: "high answers right",
    value: (m) => (m.high_answers ? m.high_right / m.high_answers : undefined),
    ok: (v) => v >= 0.95,
    goal: ">= 0.95",
    show: (v, m) => `${pct(v)} (${m.high_right}/${m.high_answers})`,
  },
  {
    name: "Critic: wrong answers blocked",
    value: (m) => (m.wrong_answers ? m.wrong_blocked / m.wrong_answers : undefined),
    ok: (v) => v >= 0.6,
    goal: ">= 0.60",
    show: (v, m) => `${pct(v)} (${m.wrong_blocked}/${m.wrong_answers})`,
  },
  {
    name: "Critic: right answers blocked",
    value: (m) => (m.right_answers ? m.right_blocked / m.right_answers : undefined),
    ok: (v) => v <= 0.1,
    goal: "<= 0.10",
    show: (v, m) => `${pct(v)} (${m.right_blocked}/${m.right_answers})`,
  },
  {
    name: "med answers right",
    value: (m) => (m.med_answers ? m.med_right / m.med_answers : undefined),
    ok: (v) => v >= 0.75,
    goal: ">= 0.75",
    show: (v, m) => `${pct(v)} (${m.med_right}/${m.med_answers})`,
  },
  {
    name: "high right, no Critic",
    value: (m) => (m.draft_high_answers ? m.draft_high_right / m.draft_high_answers : undefined),
    ok: () => true,
    info: true,
    goal: "(before the Critic)",
    show: (v, m) => `${pct(v)} (${m.draft_high_right}/${m.draft_high_answers})`,
  },
  {
    name: "med right, no Critic",
    value: (m) => (m.draft_med_answers ? m.draft_med_right / m.draft_med_answers : undefined),
    ok: () => true,
    info: true,
    goal: "(before the Critic)",
    show: (v, m) => `${pct(v)} (${m.draft_med_right}/${m.draft_med_answers})`,
  },
  {
    name: "same ranking, options, rec.",
    value: (m) => (m.determinism_checked ? m.determinism_same_decision / m.determinism_checked : undefined),
    ok: (v) => v === 1,
    goal: "all",
    show: (_v, m) => `${m.determinism_same_decision}/${m.determinism_checked}`,
  },
  {
    name: "identical on a second run",
    value: (m) => (m.determinism_checked ? m.determinism_identical / m.determinism_checked : undefined),
    ok: (v) => v === 1,
    goal: "all",
    show: (_v, m) => `${m.determinism_identical}/${m.determinism_checked}`,
  },
  { name: "budget cuts", value: (m) => m.truncated, ok: (v) => v === 0, goal: "0", show: (v) => String(v) },
  { name: "latency p95 (ms)", value: (m) => m.latency_p95_ms, ok: (v) => v <= 1000, goal: "<= 1000", show: (v) => String(Math.round(v)) },
];

/** The classifier is one set of labelled strings, not a column. */
const CLASSIFIER_TARGET = { name: "classifier accuracy", ok: (v: number) => v >= 0.9, goal: ">= 0.90" };

function fmt(v: number | undefined, digits = 2): string {
  return v === undefined ? "–" : v.toFixed(digits);
}

function printTable(byRepo: [string, Metrics][], overall: Metrics): void {
  const header = ["repo", "n", "gold", "R@1", "R@3", "BM25 R@1", "BM25 R@3", "MRR", "OW R@3", "sup>", "grounded", "no-ans", "options", "p50", "p95", "err"];
  const row = (name: string, m: Metrics) => [
    name,
    String(m.questions),
    String(m.with_gold),
    fmt(m.recall_at_1),
    fmt(m.recall_at_3),
    fmt(m.baseline_recall_at_1),
    fmt(m.baseline_recall_at_3),
    fmt(m.mrr),
    m.other_words_questions ? `${fmt(m.other_words_recall_at_3)} (${m.other_words_questions})` : "–",
    m.superseded_questions ? `${m.superseded_above_successor}/${m.superseded_questions}` : "–",
    fmt(m.grounded),
    m.no_answer_questions ? `${m.no_answer_flagged}/${m.no_answer_questions}` : "–",
    fmt(m.options_right),
    m.latency_p50_ms === undefined ? "–" : String(Math.round(m.latency_p50_ms)),
    m.latency_p95_ms === undefined ? "–" : String(Math.round(m.latency_p95_ms)),
    String(m.errors),
  ];
  const rows = [header, ...byRepo.map(([name, m]) => row(name, m)), row("overall", overall)];
  const widths = header.map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  const line = (r: string[]) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
  console.log(line(rows[0]));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const r of rows.slice(1, -1)) console.log(line(r));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  console.log(line(rows[rows.length - 1]));
}

function verboseLine(r: QuestionResult): string {
  const rank = r.gold.length ? (r.gold_rank ? `gold@${r.gold_rank}` : "gold@–") : "no-gold";
  const sup = r.superseded.length ? ` sup@${r.superseded_ranks.map((x) => x ?? "–").join(",")}` : "";
  const top = r.top_docs.slice(0, 3).map((d) => d.split("/").slice(-2).join("/")).join(" | ") || "(no docs)";
  const rec = r.recommendation
    ? r.recommendation.option_id === UNDECIDABLE_ID
      ? `undecidable (${r.recommendation.confidence ?? "?"})`
      : `"${r.recommendation.title ?? r.recommendation.option_id}" (${r.recommendation.confidence ?? "?"})`
    : "–";
  const marks = [
    r.gold.length ? (r.grounded ? "grounded" : `not grounded: ${r.grounded_reason}`) : r.no_answer_flagged ? "flagged" : "NOT flagged",
    r.options_right ? "options ok" : `options: ${[
      r.options_detail.unmatched.length ? `missing ${r.options_detail.unmatched.map((g) => g[0]).join("/")}` : "",
      r.options_detail.fragments.length ? `fragments ${r.options_detail.fragments.map((t) => JSON.stringify(t)).join(",")}` : "",
      r.options_detail.off_topic.length ? `off-topic ${r.options_detail.off_topic.map((t) => JSON.stringify(t)).join(",")}` : "",
    ]
      .filter(Boolean)
      .join("; ")}`,
  ];
  return [
    `${r.id.padEnd(11)} ${rank}${sup} ${r.ms}ms${r.error ? `  ERROR ${r.error}` : ""}`,
    `    top: ${top}`,
    `    options: ${r.options.map((t) => JSON.stringify(t)).join(", ") || "–"}`,
    `    rec: ${rec}; ${marks.join("; ")}`,
  ].join("\n");
}

/** The targets, one column per set, PASS/FAIL per cell; returns them for results.json. */
function targetTable(columns: SetName[], bySet: Map<SetName, Metrics>, classifier: ClassifierResult) {
  const rows = TARGETS.map((t) => ({
    name: t.name,
    goal: t.goal,
    cells: Object.fromEntries(
      columns.map((set) => {
        const m = bySet.get(set)!;
        const v = t.sets && !t.sets.includes(set) ? undefined : t.value(m, classifier);
        return [set, { value: v ?? null, shown: v === undefined ? "–" : t.show(v, m), pass: v === undefined || t.info ? null : t.ok(v, m) }];
      }),
    ),
  }));
  const cell = (c: { shown: string; pass: boolean | null }) => (c.pass === null ? c.shown : `${c.pass ? "PASS" : "FAIL"} ${c.shown}`);
  const nameWidth = Math.max(...rows.map((r) => r.name.length), CLASSIFIER_TARGET.name.length);
  const widths = columns.map((set) => Math.max(set.length, ...rows.map((r) => cell(r.cells[set]).length)));
  console.log(`  ${"target".padEnd(nameWidth)}  ${columns.map((set, i) => set.padStart(widths[i])).join("  ")}  goal`);
  for (const r of rows) console.log(`  ${r.name.padEnd(nameWidth)}  ${columns.map((set, i) => cell(r.cells[set]).padStart(widths[i])).join("  ")}  ${r.goal}`);
  const acc = classifier.accuracy;
  const classifierRow = { name: CLASSIFIER_TARGET.name, goal: CLASSIFIER_TARGET.goal, value: acc ?? null, pass: acc === undefined ? null : CLASSIFIER_TARGET.ok(acc) };
  console.log(`  ${CLASSIFIER_TARGET.name.padEnd(nameWidth)}  ${acc === undefined ? "–" : `${classifierRow.pass ? "PASS" : "FAIL"} ${fmt(acc)}`} (one labelled set)  ${CLASSIFIER_TARGET.goal}`);
  return { columns: rows, classifier: classifierRow };
}

function warnMissingPaths(questions: SetQuestion[], dirs: Map<string, string>): void {
  for (const q of questions) {
    const dir = dirs.get(q.repo)!;
    for (const p of [...q.gold, ...(q.superseded ?? [])]) {
      if (!existsSync(join(dir, p))) console.log(`eval: warning: ${q.id}: ${p} does not exist at the pinned commit`);
    }
  }
}

/** `deliberate index`: the history index and the docs snapshot, as a user who ran it once has them. */
function indexRepo(dir: string, cacheDir: string): void {
  const t = Date.now();
  try {
    execFileSync(process.execPath, [CLI, "index", "--repo", dir], { env: cliEnv({ cacheDir, cold: false }), stdio: ["ignore", "ignore", "pipe"], timeout: 15 * 60_000 });
    console.log(`eval: indexed ${dir} in ${Date.now() - t} ms`);
  } catch (err) {
    console.log(`eval: warning: deliberate index failed for ${dir}: ${oneLine(String((err as { stderr?: Buffer }).stderr ?? err))}`);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Resident mode's report

interface FreshLatency {
  p50_ms?: number;
  p95_ms?: number;
}

type ResidentLatency = LatencySummary & {
  /** The same questions as fresh processes (--compare-fresh). */
  fresh?: FreshLatency;
  /** How many resident answers were compared with their fresh one, and how many were identical (answer key). */
  same_as_fresh?: { checked: number; identical: number };
};

interface ResidentReport {
  how: string;
  by_set: Record<string, ResidentLatency>;
  by_repo: Record<string, ResidentLatency & { server_start_ms?: number; warm_up_ms?: number }>;
  /** Per column: the slowest and the median server start-up including its warm-up (spawn to "warm-up: done"). */
  start_up?: Record<string, { servers: number; p50_ms?: number; max_ms?: number }>;
  /** Resident answers that differ from the fresh one: the first difference for dev questions, ids only for held-out. */
  differences?: { id: string; set: SetName; difference?: string }[];
}

function answered(r: QuestionResult): boolean {
  return r.exit_code === 0;
}

/** Latency per column and per repository, with and without each server's first question, beside the fresh figures. */
function residentReport(
  results: QuestionResult[],
  fresh: QuestionResult[] | undefined,
  serverStartMs: Map<string, { start: number; warm?: number }>,
  columns: SetName[],
  repos: CorpusRepo[],
  showHeldOut: boolean,
): ResidentReport {
  const indexesOf = (keep: (r: QuestionResult) => boolean) => results.flatMap((r, i) => (keep(r) ? [i] : []));
  const latency = (indexes: number[]): ResidentLatency => {
    const summary: ResidentLatency = summariseLatency(indexes.map((i) => results[i]).filter(answered).map((r) => ({ ms: r.ms, first: r.first_on_server === true })));
    if (fresh) {
      const ms = indexes.map((i) => fresh[i]).filter(answered).map((r) => r.ms);
      const p = (q: number) => percentile(ms, q);
      summary.fresh = { p50_ms: p(50) === undefined ? undefined : Math.round(p(50)!), p95_ms: p(95) === undefined ? undefined : Math.round(p(95)!) };
      const same = indexes.filter((i) => results[i].answer_key !== undefined && results[i].answer_key === fresh[i].answer_key);
      summary.same_as_fresh = { checked: indexes.length, identical: same.length };
    }
    return summary;
  };
  const report: ResidentReport = {
    how: "one `deliberate mcp` server per repository (offline, no turn cache, the eval's git budget), questions one at a time over stdio with the MCP SDK's client; ms = one tools/call round trip",
    by_set: Object.fromEntries(columns.map((set) => [set, latency(indexesOf((r) => r.set === set))])),
    by_repo: Object.fromEntries(
      repos.map((repo) => {
        const started = serverStartMs.get(repo.name);
        return [repo.name, { ...latency(indexesOf((r) => r.repo === repo.name)), ...(started ? { server_start_ms: started.start, ...(started.warm !== undefined ? { warm_up_ms: started.warm } : {}) } : {}) }];
      }),
    ),
    start_up: Object.fromEntries(
      columns.map((set) => {
        const ms = repos.filter((repo) => repo.set === set && serverStartMs.has(repo.name)).map((repo) => serverStartMs.get(repo.name)!).map((s) => s.warm ?? s.start);
        return [set, { servers: ms.length, p50_ms: percentile(ms, 50), max_ms: ms.length ? Math.max(...ms) : undefined }];
      }),
    ),
  };
  if (fresh) {
    report.differences = results.flatMap((r, i) => {
      const a = r.answer_key;
      const b = fresh[i].answer_key;
      if (a !== undefined && a === b) return [];
      const shown = r.set === "dev" || showHeldOut;
      const difference = a === undefined || b === undefined ? (r.error ?? fresh[i].error ?? "no answer") : firstDifference(a, b, ["resident", "fresh"]);
      return [{ id: r.id, set: r.set, ...(shown ? { difference } : {}) }];
    });
  }
  printResidentReport(report, columns, repos);
  return report;
}

function printResidentReport(report: ResidentReport, columns: SetName[], repos: CorpusRepo[]): void {
  const ms = (v: number | undefined) => (v === undefined ? "–" : String(v));
  const compared = Object.values(report.by_set).some((l) => l.fresh);
  const header = ["", "questions", "p50", "p95", "p50 w/o 1st", "p95 w/o 1st", "1st max", ...(compared ? ["fresh p50", "fresh p95", "same answer"] : [])];
  const row = (name: string, l: ResidentLatency, extra: string[] = []) => [
    name,
    String(l.questions),
    ms(l.p50_ms),
    ms(l.p95_ms),
    ms(l.after_first.p50_ms),
    ms(l.after_first.p95_ms),
    ms(l.first.max_ms),
    ...(compared ? [ms(l.fresh?.p50_ms), ms(l.fresh?.p95_ms), l.same_as_fresh ? `${l.same_as_fresh.identical}/${l.same_as_fresh.checked}` : "–"] : []),
    ...extra,
  ];
  const table = (rows: string[][]) => {
    const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length)));
    for (const r of rows) console.log(`  ${r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ")}`);
  };
  console.log("");
  console.log("resident latency, ms (one MCP server per repository, one question at a time; \"w/o 1st\" leaves out each server's first question, which loads whatever the warm-up did not):");
  table([[...header, "start-up p50", "start-up max"], ...columns.map((set) => row(set, report.by_set[set], [ms(report.start_up?.[set]?.p50_ms), ms(report.start_up?.[set]?.max_ms)]))]);
  console.log("  (start-up: spawn to the end of the server's warm-up, or to `initialize` answered when it has none; not in the questions' times)");
  console.log("  per repository:");
  table([
    [...header, "server start", "warm-up done"],
    ...repos
      .filter((repo) => report.by_repo[repo.name]?.questions)
      .map((repo) => row(`[${repo.set}] ${repo.name}`, report.by_repo[repo.name], [ms(report.by_repo[repo.name].server_start_ms), ms(report.by_repo[repo.name].warm_up_ms)])),
  ]);
  if (report.differences) {
    console.log(`  resident vs fresh: ${report.differences.length} answer${report.differences.length === 1 ? "" : "s"} differ`);
    for (const d of report.differences) console.log(`    ${d.id} [${d.set}]${d.difference ? `: ${d.difference}` : ""}`);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Main

async function pool<T, R>(items: T[], n: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(n, items.length) }, async () => {
    for (;;) {
      const i = next++;
      if (i >= items.length) return;
      out[i] = await fn(items[i], i);
    }
  });
  await Promise.all(workers);
  return out;
}

function tagCounts(questions: SetQuestion[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const q of questions) for (const t of q.tags ?? []) counts[t] = (counts[t] ?? 0) + 1;
  return counts;
}

async function main(): Promise<void> {
  const mirrors = process.env.MIRRORS;
  if (!mirrors) {
    console.log("eval: MIRRORS not set; skipping (point it at the fetched mirrors, e.g. MIRRORS=/work/.mirror)");
    return;
  }
  const args = parseArgs(process.argv.slice(2));
  if (!existsSync(BUILT_CLI)) throw new Error(`${BUILT_CLI} is missing; run npm run build (npm run eval does)`);
  const workRoot = resolve(process.env.EVAL_WORKDIR || join(os.homedir(), ".cache", "deliberative-search-eval"));
  const distCopy = join(workRoot, "dist");
  rmSync(distCopy, { recursive: true, force: true });
  mkdirSync(workRoot, { recursive: true });
  cpSync(dirname(BUILT_CLI), distCopy, { recursive: true });
  CLI = join(distCopy, "cli.js");
  const sets = loadSets(EVAL_DIR, ROOT);
  for (const m of sets.missing) console.log(`eval: warning: ${m} not found; that column is empty`);
  // --only takes one repository substring or several, comma-separated.
  const only = args.only?.toLowerCase().split(",").filter(Boolean);
  const questions = sets.questions.filter(
    (q) => (!args.sets.length || args.sets.includes(q.set)) && (!only || only.some((o) => q.repo.toLowerCase().includes(o))) && (!args.id || q.id === args.id),
  );
  if (!questions.length) usage(`no question matches${args.only ? ` --only ${args.only}` : ""}${args.id ? ` --id ${args.id}` : ""}`);

  const started = Date.now();
  const repos = sets.repos.filter((r) => questions.some((q) => q.repo === r.name));
  const dirs = new Map<string, string>();
  const baselines = new Map<string, Bm25Baseline>();
  for (const repo of repos) {
    const t = Date.now();
    const dir = ensureCheckout(mirrors, workRoot, repo);
    rmSync(join(dir, RECEIPTS_DIR), { recursive: true, force: true });
    dirs.set(repo.name, dir);
    baselines.set(repo.name, baselineFor(dir));
    console.log(`eval: [${repo.set}] ${repo.name} @ ${repo.sha.slice(0, 12)} ready in ${Date.now() - t} ms (${dir})`);
  }
  warnMissingPaths(questions, dirs);

  // A cache folder of the eval's own. Two passes empty it first (the first pass is cold for every repository); one
  // pass keeps it and answers warm, with each repository indexed first (the index is checked against HEAD anyway).
  const cacheDir = join(workRoot, "cache");
  if (args.twice) rmSync(cacheDir, { recursive: true, force: true });
  const progress = (r: QuestionResult, done: number) => {
    // Held-out answers stay unread while tuning: per-question lines only for the dev set unless asked.
    if (args.verbose && (r.set === "dev" || args.showHeldOut)) console.log(verboseLine(r));
    else if (process.stdout.isTTY) process.stdout.write(`\r  ${done}/${questions.length}`);
  };
  const runFreshPass = async (label: string, env: CliEnv) => {
    console.log(`eval: ${label}: ${questions.length} question${questions.length === 1 ? "" : "s"} on ${repos.length} repo${repos.length === 1 ? "" : "s"}, a fresh CLI process per question, concurrency ${CONCURRENCY}`);
    let done = 0;
    const out = await pool(questions, CONCURRENCY, async (q) => {
      const r = await evaluateQuestion(q, dirs.get(q.repo)!, env, baselines.get(q.repo)!);
      progress(r, ++done);
      return r;
    });
    if (!args.verbose && process.stdout.isTTY) process.stdout.write("\r");
    return out;
  };
  // Resident: one `deliberate mcp` per repository, its questions one at a time (never concurrent: the timings are
  // per question), each server started just before its repository's first question and closed after its last.
  const serverStartMs = new Map<string, { start: number; warm?: number }>();
  const runResidentPass = async (label: string, env: CliEnv) => {
    console.log(`eval: ${label}: ${questions.length} question${questions.length === 1 ? "" : "s"} on ${repos.length} repo${repos.length === 1 ? "" : "s"}, resident: one MCP server per repository, one question at a time`);
    const out: QuestionResult[] = new Array(questions.length);
    let done = 0;
    for (const group of byRepository(questions)) {
      const dir = dirs.get(group.repo)!;
      let server: ResidentServer | undefined;
      let startError = "no server";
      try {
        server = await ResidentServer.start({ cli: CLI, repoDir: dir, env: cliEnv(env), gitBudgetMs: GIT_BUDGET_MS, timeoutMs: QUESTION_TIMEOUT_MS });
        serverStartMs.set(group.repo, { start: Math.round(server.startMs), ...(server.warmMs !== undefined ? { warm: Math.round(server.warmMs) } : {}) });
      } catch (err) {
        startError = (err as Error).message;
      }
      for (const [k, i] of group.indexes.entries()) {
        const q = questions[i];
        const ask: Ask = async (question) => {
          if (!server) return { exitCode: 1, ms: 0, stdout: "", stderr: startError, timedOut: false };
          const run = residentRun(await server.ask(question));
          return run.exitCode === 0 ? run : { ...run, stderr: `${run.stderr}${oneLine(server.stderr()) ? ` (server: ${oneLine(server.stderr())})` : ""}` };
        };
        const r = await evaluateQuestion(q, dir, env, baselines.get(q.repo)!, ask);
        r.first_on_server = k === 0;
        out[i] = r;
        progress(r, ++done);
      }
      await server?.close();
    }
    if (!args.verbose && process.stdout.isTTY) process.stdout.write("\r");
    return out;
  };
  const runPass = (label: string, env: CliEnv) => (args.resident ? runResidentPass(label, env) : runFreshPass(label, env));
  console.log(
    args.resident
      ? `eval: mode: resident (each repository's questions through one \`deliberate mcp\` server, SDK client over stdio)${args.compareFresh ? ", then a fresh-process pass to compare" : ""}`
      : "eval: mode: fresh process (one `deliberate` CLI process per question)",
  );
  let results: QuestionResult[];
  if (args.twice) {
    // Cold: no corpus snapshot, no history index. Then `deliberate index` builds both, and the warm pass must give
    // the very same answers.
    const cold = await runPass("cold pass (no snapshot, no history index)", { cacheDir, cold: true });
    for (const repo of repos) indexRepo(dirs.get(repo.name)!, cacheDir);
    for (const dir of dirs.values()) rmSync(join(dir, RECEIPTS_DIR), { recursive: true, force: true });
    results = await runPass("warm pass (snapshot and history index built)", { cacheDir, cold: false });
    results.forEach((r, i) => {
      const a = cold[i].answer_key;
      const b = r.answer_key;
      const sameDecision = cold[i].decision_key !== undefined && cold[i].decision_key === r.decision_key;
      if (a === undefined || b === undefined) r.determinism = { identical: false, same_decision: false, difference: cold[i].error ?? r.error ?? "no answer" };
      else r.determinism = a === b ? { identical: true, same_decision: true } : { identical: false, same_decision: sameDecision, difference: firstDifference(a, b) };
    });
  } else {
    for (const repo of repos) indexRepo(dirs.get(repo.name)!, cacheDir);
    results = await runPass("one pass (warm: snapshot and history index built)", { cacheDir, cold: false });
  }
  // The same questions as fresh processes, on the same warm state: every resident answer must equal its fresh one.
  let fresh: QuestionResult[] | undefined;
  if (args.resident && args.compareFresh) {
    for (const dir of dirs.values()) rmSync(join(dir, RECEIPTS_DIR), { recursive: true, force: true });
    fresh = await runFreshPass("fresh-process pass (warm), to compare with the resident answers", { cacheDir, cold: false });
  }

  for (const r of results) {
    if (r.no_content_word_overlap_declared !== undefined && r.no_content_word_overlap_declared !== r.no_content_word_overlap && r.gold.length) {
      const shared = r.gold_titles.flatMap((t) => sharedWords(r.question, t));
      console.log(
        `eval: note: ${r.id} declares no_content_word_overlap=${r.no_content_word_overlap_declared}, computed ${r.no_content_word_overlap}` +
          (shared.length ? ` (shares ${[...new Set(shared)].join(", ")} with "${r.gold_titles.join('" / "')}")` : ` (title "${r.gold_titles.join('" / "')}")`),
      );
    }
  }

  const classifierItems = loadClassifierSet();
  const classifier = await evaluateClassifier(classifierItems);

  const columns = SET_NAMES.filter((set) => results.some((r) => r.set === set));
  const bySet = new Map(columns.map((set) => [set, aggregate(results.filter((r) => r.set === set))]));
  for (const set of columns) {
    const inSet = repos.filter((repo) => repo.set === set);
    console.log("");
    console.log(`${set}:`);
    printTable(
      inSet.map((repo) => [repo.name, aggregate(results.filter((r) => r.repo === repo.name))]),
      bySet.get(set)!,
    );
  }
  const overall = aggregate(results);
  const resident = args.resident ? residentReport(results, fresh, serverStartMs, columns, repos, args.showHeldOut) : undefined;
  console.log("");
  const classifierLine = classifier.error
    ? `classifier: ${classifier.error}`
    : `classifier: ${fmt(classifier.accuracy)} on ${classifier.n} strings (open recall ${fmt(classifier.open_recall)}, non-open ${fmt(classifier.not_open_specificity)}; ${classifier.misses.length} misses)`;
  console.log(classifierLine);
  // The calibration and Critic lines above are with the rules Critic's effect unless the CLI ran without it.
  if (process.env.DELIBERATIVE_CRITIC === "off") console.log("critic: off (DELIBERATIVE_CRITIC=off): calibration without the Critic; no objections raised");
  if (args.verbose) for (const m of classifier.misses) console.log(`    miss: [${m.label} → ${m.class} ${m.confidence}] ${m.text}`);
  console.log("");
  const targets = targetTable(columns, bySet, classifier);
  let decisionModel: DecisionModelScore | { error: string };
  try {
    decisionModel = scoreDecisionModel(mirrors);
    const d = decisionModel;
    console.log(
      `  decision model (${d.records} hand-labelled records, ${d.repositories} repositories): chosen option ${fmt(d.chosen_accuracy)} (>= 0.90), ` +
        `considered recall ${fmt(d.considered_recall)} (>= 0.85), status ${fmt(d.status_accuracy)} (>= 0.95)`,
    );
  } catch (err) {
    decisionModel = { error: (err as Error).message };
    console.log(`  decision model: not scored (${decisionModel.error})`);
  }
  // The decision guard's seeded changes (issue 22, eval/guard/): both sets, unless the run is narrowed to some questions.
  let guard: ReturnType<typeof runGuardEval> | { error: string } | undefined;
  if (!args.only && !args.id) {
    try {
      const summary = runGuardEval(mirrors, { cli: CLI, log: (line) => console.log(`  guard ${line}`) });
      if (args.write) writeGuardResults(summary);
      guard = summary;
    } catch (err) {
      guard = { error: (err as Error).message.split("\n")[0] };
      console.log(`  guard: not scored (${guard.error})`);
    }
  }
  const owWithGold = results.filter((r) => r.gold.length && r.no_content_word_overlap).length;
  console.log("");
  console.log(
    `eval: ${results.length} question${results.length === 1 ? "" : "s"} (${overall.with_gold} with gold, ${owWithGold} share no content word with the gold title, ${overall.superseded_questions} superseded, ${overall.no_answer_questions} no-answer, ${overall.open_questions} open with gold); ` +
      `${overall.errors} errors; ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );

  if (args.write) {
    const head = (() => {
      try {
        return git(["-C", ROOT, "rev-parse", "HEAD"]).trim();
      } catch {
        return undefined;
      }
    })();
    const out = {
      generated_at: new Date().toISOString(),
      project_head: head,
      node: process.version,
      filter: args.only || args.id || args.sets.length ? { only: args.only, id: args.id, sets: args.sets } : undefined,
      passes: args.twice ? "cold, then warm" : "one",
      mode: args.resident ? "resident" : "fresh-process",
      ...(resident ? { resident } : {}),
      jobs: CONCURRENCY,
      corpus: repos.map((r) => ({ name: r.name, sha: r.sha, set: r.set })),
      question_set: { questions: questions.length, tags: tagCounts(questions), other_words_with_gold: owWithGold },
      targets,
      overall,
      by_set: Object.fromEntries(bySet),
      by_repo: Object.fromEntries(repos.map((repo) => [repo.name, aggregate(results.filter((r) => r.repo === repo.name))])),
      classifier,
      decision_model: decisionModel,
      guard,
      questions: results,
    };
    writeFileSync(RESULTS_FILE, JSON.stringify(out, null, 2) + "\n");
    console.log(`eval: wrote ${RESULTS_FILE.slice(ROOT.length + 1)}`);
  }
}

main().catch((err) => {
  console.error(`eval: ${(err as Error).stack ?? err}`);
  process.exitCode = 1;
});
