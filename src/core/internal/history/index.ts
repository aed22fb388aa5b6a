// The history index's front door: what the git expert, `deliberate index` and the extension call.
//
//   prepareIndex()  — before a query: is there an index for HEAD? Catch up inline when few commits are missing;
//                     otherwise start (or join) a build the host's way and say so.
//   buildIndex()    — build or update now (`deliberate index`, the extension's background build, the bench).
//   indexStatus()   — size, last indexed commit, when it was built, a build in progress.
import { promises as fs } from "node:fs";
import { CancellationError } from "../../cancel";
import { DOC_PATHSPECS, updateIndex, removeIndexFiles, type UpdateResult } from "./build";
import { CorruptIndexError, preferSqliteWasmTiering } from "./db";
import { gitOutput } from "./gitStream";
import { indexDirRefusal, readLockHolder, readProgressFile, readRepoState, tryWriterLock, type BuildProgress, type RepoState } from "./location";
import { summariseIndex, type IndexSummary } from "./search";
import { inThreadReader, type IndexReader } from "./search";

export { DOC_PATHSPECS, type UpdateResult } from "./build";
export { historyCacheRoot, indexDirFor, readRepoState, type BuildProgress, type RepoState } from "./location";
export { searchIndex, type IndexedCommit, type SearchOutcome } from "./search";
export { inThreadReader, type IndexReader } from "./search";

function readerFor(file: string): IndexReader {
  void file;
  return inThreadReader;
}
export { CorruptIndexError, IndexBusyError, preferSqliteWasmTiering, sqliteWasmTiering, type WasmTiering } from "./db";

/** How a host wants a missing (or far-behind) index built. */
export interface HistoryIndexOptions {
  /**
   * foreground: build before answering (the CLI on a terminal, with progress);
   * background: in this process without waiting (the extension, a long-lived host);
   * detached: by a separate process that outlives this one (the CLI in scripts: `spawnDetached`);
   * none: use an index if there is one, never build.
   */
  build: "foreground" | "background" | "detached" | "none";
  /** Catch-up updates (and re-syncs) of at most this many commits run inline before the query. Default 2000. */
  inlineMax?: number;
  /** Histories with fewer commits are indexed before the query in the foreground unless `build` is "none". Default 1000. */
  minCommits?: number;
  /** Progress of a foreground build. */
  onProgress?: (p: BuildProgress) => void;
  /** A background build started (or joined) in this process: the extension shows a cancellable notification. */
  onBackgroundBuild?: (build: BackgroundBuild) => void;
  /** Starts a detached `deliberate index` for the repository (build "detached"). */
  spawnDetached?: (toplevel: string) => void;
  /** Where one-line notices go besides the expert log (the CLI: stderr), e.g. "index unreadable; rebuilding". */
  log?: (line: string) => void;
  /**
   * The process answers this question and exits (the CLI): SQLite's WebAssembly is compiled by V8's baseline
   * compiler only when it is first loaded to read an index, which saves ~0.4 s of CPU per question (see db.ts).
   */
  shortLived?: boolean;
}

export const DEFAULT_INLINE_MAX = 2_000;
export const DEFAULT_MIN_COMMITS = 1_000;

export type Prepared =
  | { kind: "ready"; state: RepoState; update?: UpdateResult; note?: string; reader: IndexReader }
  | { kind: "live"; reason?: string; state?: RepoState };

export interface BackgroundBuild {
  readonly toplevel: string;
  readonly progress: BuildProgress | undefined;
  onProgress(cb: (p: BuildProgress) => void): () => void;
  cancel(): void;
  readonly done: Promise<UpdateResult>;
}

const running = new Map<string, BackgroundBuild>();

/** Builds running in this process (the extension's notification joins them). */
export function runningBuild(toplevel: string): BackgroundBuild | undefined {
  return running.get(toplevel);
}

export async function buildIndex(
  repo: string,
  opts: { rebuild?: boolean; signal?: AbortSignal; onProgress?: (p: BuildProgress) => void; log?: (line: string) => void; maxCommits?: number; state?: RepoState } = {},
): Promise<UpdateResult & { state?: RepoState; error?: string }> {
  const state = opts.state ?? (await readRepoState(repo, opts.signal));
  if ("error" in state) return { action: "empty", added: 0, removed: 0, ms: 0, error: state.error };
  const refused = await indexDirRefusal(state.dir);
  if (refused) return { action: "empty", added: 0, removed: 0, ms: 0, error: refused, state };
  const r = await updateIndex(state, {
    rebuild: opts.rebuild,
    maxCommits: opts.maxCommits,
    signal: opts.signal,
    onProgress: opts.onProgress,
    log: opts.log,
  });
  return { ...r, state };
}

/** Starts (or joins) a build in this process without waiting for it. */
export function startBackgroundBuild(state: RepoState, opts: { log?: (line: string) => void } = {}): BackgroundBuild {
  const existing = running.get(state.toplevel);
  if (existing) return existing;
  const controller = new AbortController();
  const listeners = new Set<(p: BuildProgress) => void>();
  let last: BuildProgress | undefined;
  const done = buildIndex(state.toplevel, {
    state,
    signal: controller.signal,
    log: opts.log,
    onProgress: (p) => {
      last = p;
      for (const l of listeners) l(p);
    },
  }).finally(() => running.delete(state.toplevel));
  done.catch(() => undefined);
  const build: BackgroundBuild = {
    toplevel: state.toplevel,
    get progress() {
      return last;
    },
    onProgress(cb) {
      listeners.add(cb);
      return () => listeners.delete(cb);
    },
    cancel: () => controller.abort(new CancellationError("history indexing cancelled")),
    done,
  };
  running.set(state.toplevel, build);
  return build;
}

function describeProgress(p: BuildProgress | undefined): string {
  if (!p) return "starting";
  if (p.phase === "docs") return `reading documentation diffs (${p.done.toLocaleString("en")} commits)`;
  if (p.phase === "finishing") return "finishing";
  return p.total ? `${p.done.toLocaleString("en")} / ${p.total.toLocaleString("en")} commits` : `${p.done.toLocaleString("en")} commits`;
}

/** The message a stage reason carries while an index is being built. */
export function buildingReason(p: BuildProgress | undefined, where: string): string {
  return `history index is building (${where}; ${describeProgress(p)}); this question indexes the history for itself meanwhile`;
}

/**
 * Gets the index ready for a query, or says why this question must index the history for itself. Inline work is bounded
 * (inlineMax commits); anything bigger is handed to the host's build mode.
 */
export async function prepareIndex(repo: string, opts: HistoryIndexOptions, signal: AbortSignal, log: (line: string) => void): Promise<Prepared> {
  if (opts.shortLived) preferSqliteWasmTiering("baseline");
  const state = await readRepoState(repo, signal);
  if ("error" in state || !state.head) return { kind: "live" };
  const refused = await indexDirRefusal(state.dir);
  if (refused) {
    log(refused);
    return { kind: "live", reason: refused, state };
  }
  const inlineMax = opts.inlineMax ?? DEFAULT_INLINE_MAX;
  const exists = await fs.stat(state.file).then(
    () => true,
    () => false,
  );
  const local = running.get(state.toplevel);
  if (local) {
    if (opts.build === "foreground") return awaitForeground(local.done, state, opts);
    opts.onBackgroundBuild?.(local);
    if (!exists) return { kind: "live", reason: buildingReason(local.progress, "in this process"), state };
  }
  if (!exists) {
    const min = opts.minCommits ?? DEFAULT_MIN_COMMITS;
    const count = await gitOutput(["rev-list", "--count", `--max-count=${min}`, state.head, "--"], { cwd: state.toplevel, signal }).then(
      (s) => Number(s.trim()),
      () => 0,
    );
    // A short history is indexed at once in the foreground, whatever the host's way of building (except "never"):
    // it is quick, and the question indexes it anyway (git.ts), so keeping the result saves every later question.
    if (count < min) return opts.build === "none" ? { kind: "live", state } : kickBuild(state, { ...opts, build: "foreground", onProgress: undefined }, "no history index yet", log);
    return kickBuild(state, opts, "no history index yet", log);
  }
  // An index exists. Current (the common case): no lock, no writes.
  const reader = readerFor(state.file);
  let stale = true;
  try {
    const meta = await reader.meta(state.file);
    stale = !(meta.head === state.head && (meta.shallow ?? "") === state.shallow && meta.pathspecs === JSON.stringify(DOC_PATHSPECS));
  } catch (err) {
    if (err instanceof CorruptIndexError || (err as Error)?.name === "CorruptIndexError") return discardCorruptIndex(state, opts, (err as Error).message, log);
    // busy: fall through to the update, which reports it
  }
  if (!stale) return { kind: "ready", state, reader };
  // Catch up inline when that is cheap.
  let update: UpdateResult;
  try {
    update = await updateIndex(state, { maxCommits: inlineMax, signal, log });
  } catch (err) {
    if (signal.aborted) throw err;
    return { kind: "live", reason: `history index could not be updated (${oneLine(err)})`, state };
  }
  switch (update.action) {
    case "current":
    case "updated":
    case "resynced":
      return { kind: "ready", state, update, reader };
    case "built":
      return { kind: "ready", state, update, reader, ...(update.reason ? { note: `history index rebuilt: ${update.reason}` } : {}) };
    case "busy": {
      // Another process is writing: the index on disk is still a complete (if slightly older) index.
      const p = await readProgressFile(state.dir);
      return { kind: "ready", state, update, reader, note: `history index is being updated by another process${p ? ` (${describeProgress(p)})` : ""}; newest commits may be missing` };
    }
    case "too-large":
      return kickBuild(state, opts, `${update.pending?.toLocaleString("en")} commits to index`, log);
    default:
      return { kind: "live", state };
  }
}

async function awaitForeground(done: Promise<UpdateResult>, state: RepoState, opts: HistoryIndexOptions): Promise<Prepared> {
  void opts;
  const r = await done;
  if (r.action === "busy") return { kind: "live", reason: "history index is being built by another process; this question indexes the history for itself meanwhile", state };
  return { kind: "ready", state, update: r, reader: readerFor(state.file) };
}

async function kickBuild(state: RepoState, opts: HistoryIndexOptions, why: string, log: (line: string) => void): Promise<Prepared> {
  const holder = await readLockHolder(state.dir);
  if (holder && opts.build !== "foreground") {
    const p = await readProgressFile(state.dir);
    return { kind: "live", reason: buildingReason(p, `process ${holder.pid}`), state };
  }
  switch (opts.build) {
    case "foreground": {
      const r = await buildIndex(state.toplevel, { state, onProgress: opts.onProgress, log });
      if (r.action === "busy") return { kind: "live", reason: buildingReason(await readProgressFile(state.dir), `process ${r.holder ?? "?"}`), state };
      return { kind: "ready", state, update: r, reader: readerFor(state.file) };
    }
    case "background": {
      const b = startBackgroundBuild(state, { log });
      opts.onBackgroundBuild?.(b);
      return { kind: "live", reason: buildingReason(b.progress, `${why}; in the background`), state };
    }
    case "detached":
      if (opts.spawnDetached) {
        try {
          opts.spawnDetached(state.toplevel);
          return { kind: "live", reason: `history index is building in the background (${why}; \`deliberate index --status\` shows progress); this question indexes the history for itself meanwhile`, state };
        } catch (err) {
          return { kind: "live", reason: `history index could not be started (${oneLine(err)})`, state };
        }
      }
      return { kind: "live", reason: `no history index (${why}; \`deliberate index\` builds it)`, state };
    default:
      return { kind: "live", reason: `no history index (${why}; \`deliberate index\` builds it)`, state };
  }
}

/**
 * A corrupt or unreadable index: one log line, the file removed (when no other process is writing it), and a
 * rebuild started the host's way.
 */
export async function discardCorruptIndex(state: RepoState, opts: HistoryIndexOptions, reason: string, log: (line: string) => void): Promise<Prepared> {
  const lock = await tryWriterLock(state.dir);
  if (!lock) return { kind: "live", reason: buildingReason(await readProgressFile(state.dir), "another process"), state };
  try {
    log(`history index at ${state.file} cannot be used (${reason}); rebuilding it`);
    await removeIndexFiles(state.file);
  } finally {
    await lock.release();
  }
  return kickBuild(state, opts, "the index could not be used", log);
}

function oneLine(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split("\n")[0].slice(0, 200);
}

export interface IndexStatus {
  toplevel?: string;
  dir?: string;
  exists: boolean;
  summary?: IndexSummary;
  /** HEAD is not the last indexed commit. */
  behind?: boolean;
  head?: string;
  building?: { pid: number; progress?: BuildProgress };
  error?: string;
}

export async function indexStatus(repo: string): Promise<IndexStatus> {
  const state = await readRepoState(repo);
  if ("error" in state) return { exists: false, error: state.error };
  const refused = await indexDirRefusal(state.dir);
  if (refused) return { toplevel: state.toplevel, dir: state.dir, exists: false, head: state.head, error: refused };
  const st = await fs.stat(state.file).catch(() => undefined);
  const holder = await readLockHolder(state.dir);
  const progress = holder ? await readProgressFile(state.dir) : undefined;
  const out: IndexStatus = {
    toplevel: state.toplevel,
    dir: state.dir,
    exists: !!st,
    head: state.head,
    ...(holder ? { building: { pid: holder.pid, ...(progress ? { progress } : {}) } } : {}),
  };
  if (st) {
    try {
      out.summary = summariseIndex(state.file, st.size);
      out.behind = out.summary.head !== state.head;
    } catch (err) {
      out.error = oneLine(err);
    }
  }
  return out;
}
