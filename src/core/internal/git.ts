// The git history expert: finds the commits where the team made (or reversed) a choice, so a decision can cite
// "we replaced winston with pino in 9572ac1" next to the ADR that explains it.
//
// One search, whatever the host keeps: BM25 over every commit's subject, body, touched paths and documentation diff
// lines (history/search.ts), read from the history index (history/index.ts; hosts opt in through
// `createGitExpert({ index })`). Where no persistent index can answer — the host keeps none
// (DELIBERATIVE_HISTORY_INDEX=off), none is built yet, or another process is still building it — the same index is
// built for this question in a temporary folder and searched the same way, then removed. So a question gives the
// same commits cold or warm: the persistent index is only a cache of that build. A history of 1,000 commits or more
// is built under the wall-clock budget `config.git.maxMs`; when it expires the stage cites no commit and says it was
// cut short (truncated), rather than answering from a different, partial search. A shorter one is always built in
// full, so its answer never depends on the machine's speed.
import { existsSync, promises as fs, statSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import type { EvidenceItem } from "../schemas";
import type { Expert, ExpertContext, ExpertResult } from "../types";
import { EXPANSION_WEIGHT, MAX_EXPANSION_TERMS, MAX_PRIMARY_TERMS, PRIMARY_WEIGHT, commitEvidence, selectTerms, type Term } from "./gitTerms";
import { gitOutput, notCommits } from "./history/gitStream";
import { closeParkedConnection } from "./history/db";
import { confirmedCommits } from "./gitStateCache";
import { INDEX_FILE } from "./history/location";
import {
  CorruptIndexError,
  DEFAULT_MIN_COMMITS,
  IndexBusyError,
  buildIndex,
  discardCorruptIndex,
  inThreadReader,
  prepareIndex,
  readRepoState,
  searchIndex,
  type HistoryIndexOptions,
  type Prepared,
  type SearchOutcome as IndexOutcome,
} from "./history";

export interface GitExpertOptions {
  /** Use (and build, the host's way) the persistent history index. Without it: a private index per question. */
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
    run: (ctx) => (opts.index ? runIndexed(ctx, opts.index, early) : runWithPrivateIndex(ctx)),
  };
}

/** The persistent index answers when it is ready; otherwise a private one does, and the reason says why. */
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
        outcome = searchIndex(ready.state.file, indexTerms(ctx).terms, ctx.config.git.maxResults, { keepOpen: !index.shortLived });
      } catch {
        // corrupt or busy: the general path below handles it
      }
      if (outcome) {
        const found = outcome;
        return confirmCommits(ready, found, ctx.signal, !index.shortLived).then(
          () => resultFromIndex(ctx, readyNotes(ready), found, started),
          // Not confirmed (a commit the repository does not have, or git failed): the general path meets it again and
          // discards and rebuilds the index, or answers from an index of its own.
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
      return await queryIndex(ctx, prepared, started, !opts.shortLived);
    } catch (err) {
      if (isCorrupt(err) && attempt === 0) {
        prepared = await discardCorruptIndex(prepared.state, opts, (err as Error).message, notice);
        if (prepared.kind === "ready") prepared = { ...prepared, note: `history index rebuilt: ${(err as Error).message}` };
      } else if (err instanceof IndexBusyError || (err as Error)?.name === "IndexBusyError") prepared = { kind: "live", reason: "history index busy (another process is writing it)" };
      else prepared = { kind: "live", reason: `history index query failed (${oneLineOf(err)})` };
    }
  }
  const reason = prepared.kind === "live" ? prepared.reason : undefined;
  const own = await runWithPrivateIndex(ctx);
  if (!reason) return own;
  return { ...own, reason: own.reason ? `${reason}; ${own.reason}` : reason };
}

function isCorrupt(err: unknown): boolean {
  return err instanceof CorruptIndexError || (err as Error)?.name === "CorruptIndexError";
}

/**
 * The index is trusted only as far as the repository confirms it: every commit about to be cited must exist there
 * (one `git cat-file --batch-check` for all of them). One that does not means the index is not this repository's
 * history — altered, or from another repository — so it is treated as corrupt: discarded and rebuilt.
 */
async function confirmCommits(prepared: Extract<Prepared, { kind: "ready" }>, outcome: IndexOutcome, signal: AbortSignal, keep: boolean): Promise<void> {
  // Commits git confirmed before, for the same HEAD and the same index file, are not asked about again: while HEAD is
  // where it was they stay reachable, so no gc removes them.
  const { state } = prepared;
  const file = statSync(state.file, { throwIfNoEntry: false });
  const known = file ? confirmedCommits(JSON.stringify([state.toplevel, state.head, state.shallow, state.file, file.dev, file.ino, file.size, file.mtimeMs])) : new Set<string>();
  const cited = outcome.commits.filter((c) => c.files.length > 0 && !known.has(c.sha)).map((c) => c.sha);
  // A long-lived host asks a `cat-file` process it keeps (one git process fewer per question).
  const missing = cited.length ? await notCommits(cited, { cwd: state.toplevel, signal, keep }) : [];
  const absent = new Set(missing);
  for (const sha of cited) if (!absent.has(sha)) known.add(sha);
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

async function queryIndex(ctx: ExpertContext, prepared: Extract<Prepared, { kind: "ready" }>, started: number, keep: boolean): Promise<ExpertResult> {
  const { terms } = indexTerms(ctx);
  if (terms.length === 0) return { status: "empty", reason: "no usable search terms for git history", items: [] };
  const outcome = await prepared.reader.search(prepared.state.file, terms, Math.max(0, ctx.config.git.maxResults));
  await confirmCommits(prepared, outcome, ctx.signal, keep);
  return resultFromIndex(ctx, readyNotes(prepared), outcome, started);
}

/** What a ready persistent index has to say: rebuilt, caught up, re-synced. */
function readyNotes(prepared: Extract<Prepared, { kind: "ready" }>): string[] {
  const notes: string[] = [];
  if (prepared.note) notes.push(prepared.note);
  const u = prepared.update;
  if (u && (u.action === "updated" || u.action === "resynced") && (u.added || u.removed)) {
    notes.push(`history index ${u.action === "updated" ? "caught up" : `re-synced (${u.reason ?? "history rewritten"})`}: +${u.added}${u.removed ? ` −${u.removed}` : ""} commits in ${u.ms} ms`);
  }
  return notes;
}

function resultFromIndex(ctx: ExpertContext, notes: string[], outcome: IndexOutcome, started: number, where = "history index"): ExpertResult {
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
  if (outcome.capped.length) notes.push(`scored over the newest 2000 matches of very common terms: ${outcome.capped.join(", ")}`);
  if (outcome.common.length) notes.push(`left out terms found in over a quarter of all commits: ${outcome.common.join(", ")}`);
  const ms = Math.round(performance.now() - started);
  ctx.log(
    `${where}: ${items.length} commits from ${outcome.candidates} candidates in ${ms} ms (${outcome.meta.commits ?? "?"} commits indexed; ` +
      `terms: ${primary.map((t) => t.text).join(", ") || "-"}; expansions: ${expansions.map((t) => t.text).join(", ") || "-"})`,
  );
  const reason = notes.length ? notes.join("; ") : undefined;
  if (items.length > 0) return { status: "ok", items, ...(reason ? { reason } : {}) };
  return { status: "empty", reason: [`no commits matched ${terms.map((t) => t.text).join(", ")}`, ...notes].join("; "), items: [] };
}

function oneLineOf(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split("\n")[0].slice(0, 200);
}

/**
 * No persistent index answers (the host keeps none, none is built yet, another process is building it): the same
 * index is built for this question in a temporary folder, searched exactly as a persistent one, and removed. The
 * build runs under the git budget; when the budget expires, no commit is cited and the stage says it was cut short.
 */
async function runWithPrivateIndex(ctx: ExpertContext): Promise<ExpertResult> {
  ctx.signal.throwIfAborted();
  const started = performance.now();
  const { terms } = indexTerms(ctx);
  if (terms.length === 0) return { status: "empty", reason: "no usable search terms for git history", items: [] };
  if (!existsSync(ctx.repo)) return { status: "empty", reason: `not a git repository: ${ctx.repo} (directory does not exist)`, items: [] };
  const state = await readRepoState(ctx.repo, ctx.signal);
  ctx.signal.throwIfAborted();
  if ("error" in state) return { status: "empty", reason: notRepoReason(ctx.repo, state.error), items: [] };
  if (!state.head) return { status: "empty", reason: `no commits yet in ${ctx.repo}`, items: [] };
  const maxMs = Math.max(0, ctx.config.git.maxMs);
  // A short history is indexed in full whatever the budget (it is bounded by its size, and quick): its answer must
  // not depend on how loaded the machine is. A longer one gets the git budget.
  const short = (await countCommits(state.toplevel, DEFAULT_MIN_COMMITS, ctx.signal)) < DEFAULT_MIN_COMMITS;
  const budget = short ? ctx.signal : AbortSignal.any([ctx.signal, AbortSignal.timeout(Math.max(1, maxMs))]);
  const dir = await fs.mkdtemp(join(os.tmpdir(), "deliberative-history-"));
  const own = { ...state, dir, file: join(dir, INDEX_FILE) };
  try {
    const built = await buildIndex(ctx.repo, { state: own, rebuild: true, signal: budget });
    ctx.signal.throwIfAborted();
    if (built.error) return { status: "failed", reason: `git history search failed (${built.error})`, items: [] };
    const outcome = searchIndex(own.file, terms, Math.max(0, ctx.config.git.maxResults));
    return resultFromIndex(ctx, [], outcome, started, `history indexed for this question (${built.commits ?? 0} commits in ${built.ms} ms)`);
  } catch (err) {
    if (ctx.signal.aborted) throw err;
    if (budget.aborted) {
      return {
        status: "empty",
        reason: `git history search cut short at the ${maxMs} ms budget: indexing the history for this question did not finish, so no commit is cited (\`deliberate index\` builds the index once; --git-budget-ms raises the budget)`,
        items: [],
        truncated: true,
      };
    }
    return { status: "failed", reason: `git history search failed (${oneLineOf(err)})`, items: [] };
  } finally {
    closeParkedConnection();
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/** Commits reachable from HEAD, counted up to `max`. */
async function countCommits(cwd: string, max: number, signal: AbortSignal): Promise<number> {
  try {
    return Number((await gitOutput(["rev-list", "--count", `--max-count=${max}`, "HEAD", "--"], { cwd, signal })).trim()) || 0;
  } catch (err) {
    if (signal.aborted) throw err;
    return max;
  }
}

function notRepoReason(dir: string, error: string): string {
  if (/not a git repository/i.test(error)) return `not a git repository: ${dir}`;
  if (/ENOENT|spawn git/i.test(error)) return `not a git repository: ${dir} (git is not available: ${error.split("\n")[0]})`;
  return `not a git repository: ${dir} (${error.split("\n")[0]})`;
}
