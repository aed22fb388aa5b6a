// The git history expert: finds the commits where the team made (or reversed) a choice, so a decision can cite
// "we replaced winston with pino in 9572ac1" next to the ADR that explains it.
//
// Two searches, both through simple-git (argument arrays, never a shell string):
//  1. `git log --grep` over commit messages for the plan's terms (and, separately and at lower weight, its
//     expansions), with `--name-status` so every hit knows the files it touched;
//  2. the pickaxe (`git log -S<term>`) for the top few terms, limited to the most recent `config.git.pickaxeCommits`
//     commits, fed to git as an explicit commit list on stdin so a 100k-commit history costs the same as a small one.
//
// The whole stage runs under the wall-clock budget `config.git.maxMs`: when it expires every outstanding git
// process is killed, the complete records already streamed are kept, and the result says it was cut short.
//
// With a history index (history/index.ts; hosts opt in through `createGitExpert({ index })`), the same terms are
// answered from the index instead: BM25 over every commit's subject, body, touched paths and documentation diff
// lines, in milliseconds on any history size. Until the index is ready the bounded live search above answers, and
// the stage reason says the index is building.
import { simpleGit } from "simple-git";
import type { EvidenceItem } from "../schemas";
import { hardenedSimpleGitOptions } from "./gitSafety";
import type { Expert, ExpertContext, ExpertResult } from "../types";
import {
  DECISION_VERB,
  EXPANSION_WEIGHT,
  MAX_EXPANSION_TERMS,
  MAX_PRIMARY_TERMS,
  PRIMARY_WEIGHT,
  commitEvidence,
  selectTerms,
  type Term,
} from "./gitTerms";
import { notCommits, parseCommitRecord, type CommitRecord } from "./history/gitStream";
import {
  CorruptIndexError,
  IndexBusyError,
  discardCorruptIndex,
  inThreadReader,
  prepareIndex,
  searchIndex,
  type HistoryIndexOptions,
  type Prepared,
  type SearchOutcome as IndexOutcome,
} from "./history";

/** Record / field separators in our `--format`; git writes them, commit messages essentially never contain them. */
const RS = "\x1e";
const LOG_FORMAT = "--format=%x1e%H%x1f%ct%x1f%s%x1f%b%x1f";

/** Options every history search shares: no signatures, no external diff or textconv drivers, stable output. */
const LOG_BASE = ["log", "--no-show-signature", "--no-ext-diff", "--no-textconv", "--no-renames", "--no-color", "-z", "--name-status", LOG_FORMAT];

const MAX_PICKAXE_TERMS = 3;

const SCORE = {
  subject: 3,
  subjectPartial: 1,
  body: 1.5,
  bodyPartial: 0.5,
  pickaxe: 1,
  path: 0.5,
  decisionVerb: 1.5,
  recency: 0.5,
  /** Half-life of the recency bonus, in days before HEAD. */
  recencyHalfLifeDays: 365,
};


interface SearchOutcome {
  records: CommitRecord[];
  /** The process ran to completion (false when the budget or an abort killed it). */
  complete: boolean;
  error?: string;
}

export interface GitExpertOptions {
  /** Use (and build, the host's way) the persistent history index. Without it: the bounded live search only. */
  index?: HistoryIndexOptions;
  /**
   * Start getting the index ready at once (the pipeline creates the expert before discovery): the git calls and the
   * index check overlap discovery, and `run` answers synchronously from a ready index.
   */
  prepare?: { repo: string; signal: AbortSignal };
}

interface Early {
  promise: Promise<Prepared>;
  value?: Prepared;
  error?: unknown;
  /** Notices logged before `run` had a log to write to. */
  lines: string[];
  log?: (line: string) => void;
}

export function createGitExpert(opts: GitExpertOptions = {}): Expert {
  let early: Early | undefined;
  if (opts.index && opts.prepare) {
    const e: Early = { lines: [], promise: Promise.resolve({ kind: "live" }) };
    const index = opts.index;
    const log = (line: string) => {
      if (e.log) e.log(line);
      else e.lines.push(line);
      index.log?.(line);
    };
    e.promise = prepareIndex(opts.prepare.repo, index, opts.prepare.signal, log).then(
      (v) => (e.value = v),
      (err: unknown) => {
        e.error = err;
        return { kind: "live", reason: `history index unavailable (${oneLineOf(err)})` } as Prepared;
      },
    );
    early = e;
  }
  return {
    name: "git",
    kind: "internal",
    run: (ctx) => (opts.index ? runIndexed(ctx, opts.index, early) : runGitExpert(ctx)),
  };
}

/** The index answers when it is ready; otherwise the live search does, and its reason says why. */
function runIndexed(ctx: ExpertContext, index: HistoryIndexOptions, early: Early | undefined): Promise<ExpertResult> {
  ctx.signal.throwIfAborted();
  const started = performance.now();
  const notice = (line: string) => {
    ctx.log(line);
    index.log?.(line);
  };
  if (early) {
    early.log = ctx.log;
    for (const l of early.lines.splice(0)) ctx.log(l);
    // Ready already and read in this thread: search without yielding, so the docs expert's CPU-bound work cannot
    // delay this stage; only confirming the commits waits for git. (A worker-thread reader answers through a message.)
    const ready = early.value;
    if (ready?.kind === "ready" && ready.reader === inThreadReader) {
      let outcome: IndexOutcome | undefined;
      try {
        outcome = searchIndex(ready.state.file, indexTerms(ctx).terms, nowTs(), ctx.config.git.maxResults);
      } catch {
        // corrupt or busy: the general path below handles it
      }
      if (outcome) {
        const found = outcome;
        return confirmCommits(ready, found, ctx.signal).then(
          () => resultFromIndex(ctx, ready, found, started),
          // Not confirmed (a commit the repository does not have, or git failed): the general path meets it again and
          // discards and rebuilds the index, or answers with the live search.
          () => runIndexedAsync(ctx, index, early, started, notice),
        );
      }
    }
  }
  return runIndexedAsync(ctx, index, early, started, notice);
}

async function runIndexedAsync(
  ctx: ExpertContext,
  index: HistoryIndexOptions,
  early: Early | undefined,
  started: number,
  notice: (line: string) => void,
): Promise<ExpertResult> {
  const opts: HistoryIndexOptions = index;
  let prepared: Prepared;
  try {
    prepared = early && !early.error ? await early.promise : await prepareIndex(ctx.repo, opts, ctx.signal, notice);
  } catch (err) {
    if (ctx.signal.aborted) throw err;
    prepared = { kind: "live", reason: `history index unavailable (${oneLineOf(err)})` };
  }
  // Twice at most: a query that finds the index corrupt discards it, and a foreground host rebuilds it at once.
  for (let attempt = 0; attempt < 2 && prepared.kind === "ready"; attempt++) {
    ctx.signal.throwIfAborted();
    try {
      return await queryIndex(ctx, prepared, started);
    } catch (err) {
      if (isCorrupt(err) && attempt === 0) {
        prepared = await discardCorruptIndex(prepared.state, opts, (err as Error).message, notice);
        if (prepared.kind === "ready") prepared = { ...prepared, note: `history index rebuilt: ${(err as Error).message}` };
      } else if (err instanceof IndexBusyError || (err as Error)?.name === "IndexBusyError") prepared = { kind: "live", reason: "history index busy (another process is writing it)" };
      else prepared = { kind: "live", reason: `history index query failed (${oneLineOf(err)})` };
    }
  }
  const reason = prepared.kind === "live" ? prepared.reason : undefined;
  const live = await runGitExpert(ctx);
  if (!reason) return live;
  return { ...live, reason: live.reason ? `${reason}; ${live.reason}` : reason };
}

function isCorrupt(err: unknown): boolean {
  return err instanceof CorruptIndexError || (err as Error)?.name === "CorruptIndexError";
}

/**
 * The index is trusted only as far as the repository confirms it: every commit about to be cited must exist there
 * (one `git cat-file --batch-check` for all of them). One that does not means the index is not this repository's
 * history — altered, or from another repository — so it is treated as corrupt: discarded and rebuilt.
 */
async function confirmCommits(prepared: Extract<Prepared, { kind: "ready" }>, outcome: IndexOutcome, signal: AbortSignal): Promise<void> {
  const cited = outcome.commits.filter((c) => c.files.length > 0).map((c) => c.sha);
  const missing = await notCommits(cited, { cwd: prepared.state.toplevel, signal });
  if (missing.length) {
    const more = missing.length > 1 ? ` and ${missing.length - 1} more` : "";
    throw new CorruptIndexError(`it cites commit ${missing[0].slice(0, 12)}${more}, which is not in the repository`);
  }
}

function indexTerms(ctx: ExpertContext): { primary: Term[]; expansions: Term[]; terms: Term[] } {
  const primary = selectTerms(ctx.plan.terms, PRIMARY_WEIGHT, MAX_PRIMARY_TERMS, new Set());
  const expansions = selectTerms(ctx.plan.expansions, EXPANSION_WEIGHT, MAX_EXPANSION_TERMS, new Set(primary.map((t) => t.text)));
  return { primary, expansions, terms: [...primary, ...expansions] };
}

function nowTs(): number {
  return Math.floor(Date.now() / 1000);
}

async function queryIndex(ctx: ExpertContext, prepared: Extract<Prepared, { kind: "ready" }>, started: number): Promise<ExpertResult> {
  const { terms } = indexTerms(ctx);
  if (terms.length === 0) return { status: "empty", reason: "no usable search terms for git history", items: [] };
  const outcome = await prepared.reader.search(prepared.state.file, terms, nowTs(), Math.max(0, ctx.config.git.maxResults));
  await confirmCommits(prepared, outcome, ctx.signal);
  return resultFromIndex(ctx, prepared, outcome, started);
}

function resultFromIndex(ctx: ExpertContext, prepared: Extract<Prepared, { kind: "ready" }>, outcome: IndexOutcome, started: number): ExpertResult {
  const { primary, expansions, terms } = indexTerms(ctx);
  if (terms.length === 0) return { status: "empty", reason: "no usable search terms for git history", items: [] };
  // Hub documents (a changelog touched by most commits) are left out of touched_paths: fusion credits the documents
  // a commit touched, and a changelog entry says nothing about the changelog.
  const hubs = new Set(outcome.hubs);
  const items: EvidenceItem[] = outcome.commits
    .filter((c) => c.files.length > 0)
    .map((c) => {
      const item = commitEvidence(c, terms, c.score, c.doc);
      return hubs.size && item.touched_paths ? { ...item, touched_paths: item.touched_paths.filter((p) => !hubs.has(p)) } : item;
    });
  const u = prepared.update;
  const notes: string[] = [];
  if (prepared.note) notes.push(prepared.note);
  if (u && (u.action === "updated" || u.action === "resynced") && (u.added || u.removed)) {
    notes.push(`history index ${u.action === "updated" ? "caught up" : `re-synced (${u.reason ?? "history rewritten"})`}: +${u.added}${u.removed ? ` −${u.removed}` : ""} commits in ${u.ms} ms`);
  }
  if (outcome.capped.length) notes.push(`scored over the newest 2000 matches of very common terms: ${outcome.capped.join(", ")}`);
  if (outcome.common.length) notes.push(`left out terms found in over a quarter of all commits: ${outcome.common.join(", ")}`);
  const ms = Math.round(performance.now() - started);
  ctx.log(
    `history index: ${items.length} commits from ${outcome.candidates} candidates in ${ms} ms (${outcome.meta.commits ?? "?"} commits indexed; ` +
      `terms: ${primary.map((t) => t.text).join(", ") || "-"}; expansions: ${expansions.map((t) => t.text).join(", ") || "-"})`,
  );
  const reason = notes.length ? notes.join("; ") : undefined;
  if (items.length > 0) return { status: "ok", items, ...(reason ? { reason } : {}) };
  return { status: "empty", reason: [`no indexed commit matched ${terms.map((t) => t.text).join(", ")}`, ...notes].join("; "), items: [] };
}

function oneLineOf(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split("\n")[0].slice(0, 200);
}

async function runGitExpert(ctx: ExpertContext): Promise<ExpertResult> {
  ctx.signal.throwIfAborted();
  const started = performance.now();
  const { maxMs, pickaxeCommits, maxResults } = ctx.config.git;
  const primary = selectTerms(ctx.plan.terms, PRIMARY_WEIGHT, MAX_PRIMARY_TERMS, new Set());
  const expansions = selectTerms(ctx.plan.expansions, EXPANSION_WEIGHT, MAX_EXPANSION_TERMS, new Set(primary.map((t) => t.text)));
  const allTerms = [...primary, ...expansions];
  if (allTerms.length === 0) return { status: "empty", reason: "no usable search terms for git history", items: [] };

  // Budget: one controller for every git process of this run, aborted by the timer or by the pipeline's signal.
  const budget = new AbortController();
  const onOuterAbort = () => budget.abort(ctx.signal.reason);
  ctx.signal.addEventListener("abort", onOuterAbort, { once: true });
  const timer = setTimeout(() => budget.abort(new Error(`git budget of ${maxMs} ms expired`)), Math.max(0, maxMs));
  const stopped = new Promise<void>((resolve) => {
    if (budget.signal.aborted) resolve();
    else budget.signal.addEventListener("abort", () => resolve(), { once: true });
  });
  const run: GitRunner = (args, stdin) => runGit(ctx.repo, args, budget.signal, stopped, maxMs, stdin);

  try {
    const probe = await probeRepository(ctx, run, budget.signal, allTerms.length);
    if ("status" in probe) return probe;
    const search = await searchHistory(run, primary, expansions, probe.firstParentDiff, maxResults, pickaxeCommits);
    ctx.signal.throwIfAborted();
    const budgetHit = budget.signal.aborted;
    const { items, candidates } = rankRecords(search, allTerms, probe.headTs, maxResults);
    const report = describeSearch(search, { primary, expansions, allTerms, budgetHit, maxMs, pickaxeCommits });
    const ms = Math.round(performance.now() - started);
    ctx.log(
      `${items.length} commits from ${candidates} candidates in ${ms} ms ` +
        `(terms: ${primary.map((t) => t.text).join(", ") || "-"}; expansions: ${expansions.map((t) => t.text).join(", ") || "-"}; ` +
        `pickaxe: ${search.pickaxeTerms.map((t) => t.text).join(", ") || "-"})${report.truncated ? " [truncated]" : ""}`,
    );
    return gitResult(items, report, search, allTerms);
  } finally {
    clearTimeout(timer);
    ctx.signal.removeEventListener("abort", onOuterAbort);
    // Kill whatever is still running (nothing, on the normal path).
    if (!budget.signal.aborted) budget.abort(new Error("git expert finished"));
  }
}

type GitRunner = (args: string[], stdin?: string) => Promise<GitRun>;

interface HistorySearch {
  primaryOutcome?: SearchOutcome;
  expansionOutcome?: SearchOutcome;
  pickaxeTerms: Term[];
  pickaxeOutcomes: { term: Term; outcome: SearchOutcome }[];
  windowTruncated: boolean;
}

/** Is this a repository with at least one commit, and which git is it? Returns a result to give up with, or what the search needs. */
async function probeRepository(
  ctx: ExpertContext,
  run: GitRunner,
  budget: AbortSignal,
  termCount: number,
): Promise<ExpertResult | { headTs: number; firstParentDiff: string[] }> {
  const [gitDirRun, headRun, versionRun] = await Promise.all([
    run(["rev-parse", "--git-dir"]),
    run(["log", "--no-show-signature", "-1", "--format=%H %ct", "HEAD", "--"]),
    run(["version"]),
  ]);
  ctx.signal.throwIfAborted();
  if (budget.aborted && !(gitDirRun.complete && headRun.complete)) {
    const maxMs = ctx.config.git.maxMs;
    return { status: "empty", reason: `git history search cut short at ${maxMs} ms budget (searched 0 of ${termCount} terms)`, items: [], truncated: true };
  }
  if (gitDirRun.error !== undefined) return { status: "empty", reason: notRepoReason(ctx.repo, gitDirRun.error), items: [] };
  const head = /^([0-9a-f]{40,64}) (\d+)/.exec(headRun.output.trim());
  if (headRun.error !== undefined || !head) return { status: "empty", reason: `no commits yet in ${ctx.repo}`, items: [] };
  return { headTs: Number(head[2]), firstParentDiff: gitAtLeast(versionRun.output, 2, 31) ? ["--diff-merges=first-parent"] : [] };
}

/** Message search (primary and expansions separately, concurrently) and the pickaxe over a bounded window. */
async function searchHistory(run: GitRunner, primary: Term[], expansions: Term[], firstParentDiff: string[], maxResults: number, pickaxeCommits: number): Promise<HistorySearch> {
  const grepLimit = Math.max(1, maxResults * 5);
  const grepArgs = (terms: Term[]) => [
    ...LOG_BASE,
    ...firstParentDiff,
    `--max-count=${grepLimit}`,
    "--regexp-ignore-case",
    "--fixed-strings",
    ...terms.map((t) => `--grep=${t.text}`),
    "HEAD",
    "--",
  ];
  const grepPrimary = primary.length ? run(grepArgs(primary)).then(parseSearch) : Promise.resolve(undefined);
  const grepExpansions = expansions.length ? run(grepArgs(expansions)).then(parseSearch) : Promise.resolve(undefined);
  const pickaxeTerms = pickPickaxeTerms(primary);
  let windowTruncated = false;
  const pickaxeRuns = (async (): Promise<HistorySearch["pickaxeOutcomes"]> => {
    if (pickaxeTerms.length === 0 || pickaxeCommits <= 0) return [];
    const window = await run(["rev-list", `--max-count=${pickaxeCommits + 1}`, "HEAD", "--"]);
    if (!window.complete || window.error !== undefined) {
      return pickaxeTerms.map((term) => ({ term, outcome: { records: [], complete: false, error: window.error } }));
    }
    const shas = window.output.split("\n").filter((l) => /^[0-9a-f]{40,64}$/.test(l));
    if (shas.length > pickaxeCommits) windowTruncated = true;
    const stdin = shas.slice(0, pickaxeCommits).join("\n") + "\n";
    return Promise.all(
      pickaxeTerms.map(async (term) => {
        const args = [...LOG_BASE, "--stdin", "--no-walk=unsorted", "--regexp-ignore-case", `-S${term.text}`, "--"];
        return { term, outcome: parseSearch(await run(args, stdin)) };
      }),
    );
  })();
  const [primaryOutcome, expansionOutcome, pickaxeOutcomes] = await Promise.all([grepPrimary, grepExpansions, pickaxeRuns]);
  return { primaryOutcome, expansionOutcome, pickaxeTerms, pickaxeOutcomes, windowTruncated };
}

/** Merges every search's commits, scores them and keeps the best `maxResults`. */
function rankRecords(search: HistorySearch, allTerms: Term[], headTs: number, maxResults: number): { items: EvidenceItem[]; candidates: number } {
  const records = new Map<string, CommitRecord>();
  const pickaxeHits = new Map<string, Set<Term>>();
  for (const outcome of [search.primaryOutcome, search.expansionOutcome]) {
    for (const r of outcome?.records ?? []) records.set(r.sha, r);
  }
  for (const { term, outcome } of search.pickaxeOutcomes) {
    for (const r of outcome.records) {
      if (!records.has(r.sha)) records.set(r.sha, r);
      const hits = pickaxeHits.get(r.sha) ?? new Set<Term>();
      hits.add(term);
      pickaxeHits.set(r.sha, hits);
    }
  }
  const scored: { item: EvidenceItem; ts: number }[] = [];
  for (const record of records.values()) {
    if (record.files.length === 0) continue; // nothing to cite: empty commits and merges without a diff
    const score = scoreCommit(record, allTerms, pickaxeHits.get(record.sha), headTs);
    if (score <= 0) continue;
    scored.push({ item: commitEvidence(record, allTerms, score), ts: record.ts });
  }
  scored.sort((a, b) => b.item.score - a.item.score || b.ts - a.ts || cmp(a.item.commit ?? "", b.item.commit ?? ""));
  return { items: scored.slice(0, Math.max(0, maxResults)).map((s) => s.item), candidates: records.size };
}

/** What was cut short and what failed, as stage reasons. */
function describeSearch(
  search: HistorySearch,
  o: { primary: Term[]; expansions: Term[]; allTerms: Term[]; budgetHit: boolean; maxMs: number; pickaxeCommits: number },
): { reasons: string[]; errors: string[]; truncated: boolean } {
  const reasons: string[] = [];
  let truncated = false;
  if (o.budgetHit) {
    truncated = true;
    const searched = [...(search.primaryOutcome?.complete ? o.primary : []), ...(search.expansionOutcome?.complete ? o.expansions : [])].length;
    let reason = `git history search cut short at ${o.maxMs} ms budget (searched ${searched} of ${o.allTerms.length} terms`;
    const pickaxeDone = search.pickaxeOutcomes.filter((p) => p.outcome.complete).length;
    if (search.pickaxeTerms.length && o.pickaxeCommits > 0 && pickaxeDone < search.pickaxeTerms.length) {
      reason += `; pickaxe finished for ${pickaxeDone} of ${search.pickaxeTerms.length} terms`;
    }
    reasons.push(reason + ")");
  }
  if (search.windowTruncated) {
    truncated = true;
    reasons.push(`pickaxe limited to the last ${o.pickaxeCommits} commits`);
  }
  const errors = [search.primaryOutcome, search.expansionOutcome, ...search.pickaxeOutcomes.map((p) => p.outcome)]
    .map((x) => x?.error)
    .filter((e): e is string => e !== undefined && !o.budgetHit);
  for (const e of [...new Set(errors)]) reasons.push(`git log failed: ${e}`);
  return { reasons, errors, truncated };
}

function gitResult(items: EvidenceItem[], report: { reasons: string[]; errors: string[]; truncated: boolean }, search: HistorySearch, allTerms: Term[]): ExpertResult {
  const { reasons, errors, truncated } = report;
  const flag = truncated ? { truncated } : {};
  if (items.length > 0) return { status: "ok", items, ...(reasons.length ? { reason: reasons.join("; ") } : {}), ...flag };
  const greps = [search.primaryOutcome, search.expansionOutcome].filter((x) => x !== undefined);
  if (greps.every((x) => x!.error !== undefined) && errors.length > 0) return { status: "failed", reason: reasons.join("; "), items: [], ...flag };
  return { status: "empty", reason: [`no commits matched ${allTerms.map((t) => t.text).join(", ")}`, ...reasons].join("; "), items: [], ...flag };
}

// ---------------------------------------------------------------------------------------------------------------
// Running git

interface GitRun {
  output: string;
  complete: boolean;
  error?: string;
}

/**
 * Runs one git command. Resolves (never rejects) as soon as the command finishes or the budget stops: in the
 * second case with whatever stdout had streamed so far and `complete: false`, without waiting for the killed
 * process to exit.
 */
async function runGit(dir: string, args: string[], signal: AbortSignal, stopped: Promise<void>, maxMs: number, stdin?: string): Promise<GitRun> {
  if (signal.aborted) return { output: "", complete: false };
  const chunks: Buffer[] = [];
  const partial = (): GitRun => ({ output: Buffer.concat(chunks).toString("utf8"), complete: false });
  let task: Promise<GitRun>;
  try {
    const git = simpleGit({
      baseDir: dir,
      ...hardenedSimpleGitOptions(),
      abort: signal,
      // Belt and braces: a git process that goes silent is killed even if the budget timer somehow did not fire.
      timeout: { block: Math.max(1000, maxMs + 1000) },
      maxConcurrentProcesses: 1,
      ...(stdin !== undefined ? { input: () => stdin } : {}),
    });
    git.outputHandler((_command, stdout) => {
      stdout.on("data", (chunk: Buffer | string) => chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk)));
    });
    task = git.raw(args).then(
      (output): GitRun => ({ output, complete: true }),
      (err: unknown): GitRun => (signal.aborted ? partial() : { output: "", complete: true, error: gitErrorMessage(err) }),
    );
  } catch (err) {
    // simpleGit() throws synchronously when the directory does not exist.
    return { output: "", complete: true, error: gitErrorMessage(err) };
  }
  return Promise.race([task, stopped.then(partial)]);
}

function gitErrorMessage(err: unknown): string {
  const msg = err instanceof Error ? err.message : String(err);
  const line = msg
    .split("\n")
    .map((l) => l.trim())
    .find((l) => l.length > 0);
  return (line ?? "unknown git error").slice(0, 300);
}

function notRepoReason(dir: string, error: string): string {
  if (/not a git repository/i.test(error)) return `not a git repository: ${dir}`;
  if (/does not exist/i.test(error)) return `not a git repository: ${dir} (directory does not exist)`;
  if (/ENOENT|spawn git/i.test(error)) return `not a git repository: ${dir} (git is not available: ${error})`;
  return `not a git repository: ${dir} (${error})`;
}

function gitAtLeast(versionOutput: string, major: number, minor: number): boolean {
  const m = /git version (\d+)\.(\d+)/.exec(versionOutput);
  if (!m) return false;
  const [maj, min] = [Number(m[1]), Number(m[2])];
  return maj > major || (maj === major && min >= minor);
}

// ---------------------------------------------------------------------------------------------------------------
// Parsing

function parseSearch(run: GitRun): SearchOutcome {
  if (run.error !== undefined) return { records: [], complete: true, error: run.error };
  return { records: parseLog(run.output, run.complete), complete: run.complete };
}

/**
 * Parses `git log -z --name-status` output in our record format. When the output is partial (the process was
 * killed) the last record may be cut anywhere, so it is dropped.
 */
function parseLog(output: string, complete = true): CommitRecord[] {
  const parts = output.split(RS).slice(1);
  if (!complete) parts.pop();
  return parts.flatMap((part) => parseCommitRecord(part) ?? []);
}

// ---------------------------------------------------------------------------------------------------------------
// Terms, scoring, evidence

/** The pickaxe reads diffs, so it gets the first few single-word terms: they are what code actually contains. */
function pickPickaxeTerms(primary: Term[]): Term[] {
  const words = primary.filter((t) => !t.text.includes(" ") && t.text.length >= 3);
  return words.slice(0, MAX_PICKAXE_TERMS);
}

function scoreCommit(record: CommitRecord, terms: Term[], pickaxe: Set<Term> | undefined, headTs: number): number {
  const subject = record.subject.toLowerCase();
  const body = record.body.toLowerCase();
  let score = 0;
  let subjectHit = false;
  for (const term of terms) {
    if (term.word.test(record.subject)) {
      score += SCORE.subject * term.weight;
      subjectHit = true;
    } else if (subject.includes(term.text)) {
      score += SCORE.subjectPartial * term.weight;
    }
    if (term.word.test(record.body)) score += SCORE.body * term.weight;
    else if (body.includes(term.text)) score += SCORE.bodyPartial * term.weight;
    if (pickaxe?.has(term)) score += SCORE.pickaxe * term.weight;
    if (record.files.some((f) => f.path.toLowerCase().includes(term.text))) score += SCORE.path * term.weight;
  }
  if (score <= 0) return 0;
  if (subjectHit && DECISION_VERB.test(record.subject)) score += SCORE.decisionVerb;
  const ageDays = Math.max(0, headTs - record.ts) / 86400;
  score += SCORE.recency * Math.pow(0.5, ageDays / SCORE.recencyHalfLifeDays);
  return Math.round(score * 1000) / 1000;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
