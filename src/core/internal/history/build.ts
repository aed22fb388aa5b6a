// Building and updating the history index.
//
//  - Full build: into a temp file beside the index, renamed over it when complete (readers never see half an
//    index; a cancelled or crashed build leaves the old one in place).
//  - Incremental update: the commits from the last indexed HEAD to the current one, in place, in transactions.
//  - Re-sync after a rewritten history (rebase, force-push, reset, a deepened shallow clone): commits no longer
//    reachable from HEAD are removed and the missing ones added; when most of history changed it is a full build.
//
// Every writer holds the writer lock (location.ts). git output is streamed: documentation diffs first, parked in a
// table of the database being written, then every commit with its touched paths, looked up against them.
import { randomBytes } from "node:crypto";
import { promises as fs } from "node:fs";
import { join } from "node:path";
import { SCHEMA, SCHEMA_VERSION, classifyDbError, closeParkedConnection, openDb, readMeta, safeClose, CorruptIndexError, type Db } from "./db";
import { checkMetaSeal, historySealKey, rowSeal, writeSealedMeta } from "./seal";
import { gitOutput, readSpooledCommits, spoolCommits, streamDocDiffs, type CommitRecord, type DocDiff } from "./gitStream";
import {
  INDEX_FILE,
  firstParentMergesSupported,
  readLockHolder,
  removeProgressFile,
  removeStaleTemps,
  tryWriterLock,
  writeProgressFile,
  type BuildProgress,
  type RepoState,
} from "./location";

/** Stored per commit: the first touched files (citations use 50; the count is kept separately). */
const MAX_STORED_FILES = 50;
/** Commit bodies beyond this are cut (release notes pasted into dependency bumps). */
const MAX_BODY_CHARS = 8_000;
/** Commits per transaction. */
const BATCH = 1_000;

export type UpdateAction = "current" | "built" | "updated" | "resynced" | "busy" | "too-large" | "empty";

export interface UpdateResult {
  action: UpdateAction;
  /** Commits added and removed by this update. */
  added: number;
  removed: number;
  ms: number;
  /** Commits in the index afterwards. */
  commits?: number;
  /** Why a rebuild or re-sync happened ("history rewritten", "index unreadable: …"). */
  reason?: string;
  /** action "too-large": how many commits the update would have indexed. */
  pending?: number;
  /** action "busy": the process holding the writer lock. */
  holder?: number;
}

export interface UpdateOptions {
  /** Build from scratch even when an index exists. */
  rebuild?: boolean;
  /** Do nothing (action "too-large") when more than this many commits would have to be indexed. */
  maxCommits?: number;
  signal?: AbortSignal;
  onProgress?: (p: BuildProgress) => void;
  /** One-line notices (a corrupt index being rebuilt). */
  log?: (line: string) => void;
}

/**
 * Pathspecs for "documentation": Markdown anywhere (a plain pathspec's `*` crosses folders) plus the non-Markdown
 * convention files discovery reads (`.cursorrules`, `.cursor/rules/**`). Fixed, so every process builds the same
 * index whatever its settings. Kept few and plain on purpose: git matches every pathspec against every changed
 * path of every commit, and the ADR and convention globs as `:(glob,icase)` pathspecs (28 of them) made this pass
 * 4× slower on 100,000 commits while adding nothing `*.md` does not already cover.
 */
export const DOC_PATHSPECS = ["*.md", "*.markdown", "*.mdx", ".cursorrules", ".cursor/rules/*"];

/** Tokens of one path segment (memoised: the same folders recur in every commit). */
const segmentCache = new Map<string, string[]>();
function segmentTokens(seg: string): string[] {
  let out = segmentCache.get(seg);
  if (out) return out;
  const base = seg.replace(/\.[A-Za-z0-9]{1,8}$/, "");
  const parts = [seg, ...base.split(/[-_.\s]+/), ...base.replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2").split(/[\s\-_.]+/)];
  out = [...new Set(parts.map((p) => p.trim().toLowerCase()).filter((t) => t.length >= 2))];
  if (segmentCache.size > 50_000) segmentCache.clear();
  segmentCache.set(seg, out);
  return out;
}

/** Path tokens for the FTS `paths` column: every segment once, camelCase and snake_case split too. */
export function pathTokens(paths: string[]): string {
  const seen = new Set<string>();
  for (const p of paths) {
    for (const seg of p.split("/")) for (const t of segmentTokens(seg)) seen.add(t);
    if (seen.size > 4000) break;
  }
  return [...seen].join(" ");
}

/** Touched files as stored: one "<status><path>" per line (paths never contain a newline in git's -z output we keep). */
export function encodeFiles(files: { status: string; path: string }[]): string {
  return files
    .filter((f) => !f.path.includes("\n"))
    .map((f) => f.status + f.path)
    .join("\n");
}

export function decodeFiles(text: string): { status: string; path: string }[] {
  return text ? text.split("\n").map((l) => ({ status: l[0], path: l.slice(1) })) : [];
}

/** A commit's row as the index stores it (and seal.ts seals). */
export function storedCommit(c: CommitRecord): { ts: number; subject: string; body: string; nfiles: number; files: string } {
  const body = c.body.length > MAX_BODY_CHARS ? c.body.slice(0, MAX_BODY_CHARS) : c.body;
  return { ts: c.ts, subject: c.subject, body, nfiles: c.files.length, files: encodeFiles(c.files.slice(0, MAX_STORED_FILES)) };
}

/** A commit's documentation diff as the index stores it (the `docs` column). */
export function storedDocs(d: DocDiff): string {
  return JSON.stringify(d.files.map((f) => ({ p: f.path, h: f.hunks.map((h) => [h.line, h.count, h.text]) })));
}

/** Files whose commit counts are kept: a documentation file touched by a large share of all commits (a changelog)
 * is a hub, and a commit touching it says nothing about it (search.ts keeps hubs out of `touched_paths`). */
export const DOC_FILE = /\.(md|markdown|mdx|rst|adoc|txt)$/i;

function addDocCounts(db: Db, counts: Map<string, number>, sign: 1 | -1): void {
  if (counts.size === 0) return;
  const st = db.prepare("INSERT INTO doc_paths(path, n) VALUES (?, ?) ON CONFLICT(path) DO UPDATE SET n = max(0, n + excluded.n)");
  try {
    for (const [path, n] of counts) st.run([path, sign * n]);
  } finally {
    st.finalize();
  }
  counts.clear();
}

function nowIso(): string {
  return new Date().toISOString();
}

/**
 * Brings the index of `state` up to date with its HEAD: nothing, an incremental update, a re-sync or a full build.
 * Never throws for a busy index (action "busy"); a corrupt one is rebuilt with one log line.
 */
export async function updateIndex(state: RepoState, opts: UpdateOptions): Promise<UpdateResult> {
  const started = performance.now();
  const result = (r: Omit<UpdateResult, "ms">): UpdateResult => ({ ...r, ms: Math.round(performance.now() - started) });
  // A read connection left open for a query would keep reading the file a rebuild renames away.
  closeParkedConnection();
  if (!state.head) return result({ action: "empty", added: 0, removed: 0, commits: 0 });
  const lock = await tryWriterLock(state.dir);
  if (!lock) return result({ action: "busy", added: 0, removed: 0, holder: (await readLockHolder(state.dir))?.pid });
  try {
    await removeStaleTemps(state.dir);
    let reason: string | undefined;
    if (!opts.rebuild) {
      const exists = await fs.stat(state.file).then(
        () => true,
        () => false,
      );
      if (exists) {
        try {
          const r = await updateInPlace(state, opts);
          if (r !== "rebuild") return result(r);
          reason = "most of history changed";
        } catch (err) {
          const e = classifyDbError(err);
          if (!(e instanceof CorruptIndexError)) throw e;
          reason = `index unreadable (${e.message})`;
          opts.log?.(`history index at ${state.file} cannot be used (${e.message}); rebuilding it`);
          await removeIndexFiles(state.file);
        }
      }
    }
    if (opts.maxCommits !== undefined) {
      const total = Number((await gitOutput(["rev-list", "--count", state.head, "--"], { cwd: state.toplevel, signal: opts.signal })).trim());
      if (total > opts.maxCommits) return result({ action: "too-large", added: 0, removed: 0, pending: total, ...(reason ? { reason } : {}) });
    }
    const built = await fullBuild(state, opts);
    return result({ action: "built", added: built.commits, removed: 0, commits: built.commits, ...(reason ? { reason } : {}) });
  } finally {
    await removeProgressFile(state.dir);
    await lock.release();
  }
}

type InPlace = Omit<UpdateResult, "ms"> | "rebuild";

async function updateInPlace(state: RepoState, opts: UpdateOptions): Promise<InPlace> {
  // create: an ATTACHed scratch database inherits the open flags.
  const db = openDb(state.file, { write: true, create: true });
  try {
    const meta = readMeta(db);
    if (meta.schema !== SCHEMA_VERSION) throw new CorruptIndexError(`schema ${meta.schema ?? "missing"}, expected ${SCHEMA_VERSION}`);
    checkMetaSeal(historySealKey(), meta);
    if (meta.pathspecs !== JSON.stringify(DOC_PATHSPECS)) return "rebuild";
    // The commit count is kept in meta: count(*) reads every page of the commits table (tens of MB on a real repo).
    const counted = Number(meta.commits);
    const known = Number.isFinite(counted) && counted >= 0;
    const countNow = (delta: number) => (known ? counted + delta : Number((db.get("SELECT count(*) AS n FROM commits") as { n: number }).n));
    if (meta.head === state.head && (meta.shallow ?? "") === state.shallow) return { action: "current", added: 0, removed: 0, commits: countNow(0) };
    const head = state.head!;
    const cwd = state.toplevel;
    // One git call answers both questions: does HEAD still descend from the last indexed commit (nothing on the
    // left of old...HEAD), and how many commits are new (the right).
    let pending = -1;
    if (meta.head && (meta.shallow ?? "") === state.shallow) {
      const lr = await gitOutput(["rev-list", "--count", "--left-right", `${meta.head}...${head}`, "--"], { cwd, signal: opts.signal }).catch(() => "");
      const m = /^(\d+)\s+(\d+)/.exec(lr.trim());
      if (m && Number(m[1]) === 0) pending = Number(m[2]);
    }
    if (pending >= 0) {
      if (opts.maxCommits !== undefined && pending > opts.maxCommits) return { action: "too-large", added: 0, removed: 0, pending };
      const added = await indexCommits(db, state, { range: [head, `^${meta.head}`] }, pending, opts, countNow(0));
      const commits = countNow(added);
      writeSealedMeta(db, { head, updated_at: nowIso(), commits: String(commits) });
      return { action: "updated", added, removed: 0, commits };
    }

    // Rewritten history: re-sync against what HEAD reaches now.
    const reachable = new Set((await gitOutput(["rev-list", head, "--"], { cwd, signal: opts.signal })).split("\n").filter(Boolean));
    // The boundary commits of a shallow clone were indexed as if they had no parent; once deepened, index them anew.
    const boundary = new Set<string>(meta.shallow_shas ? (JSON.parse(meta.shallow_shas) as string[]) : []);
    if ((meta.shallow ?? "") === state.shallow) boundary.clear();
    const stale: number[] = [];
    const present = new Set<string>();
    for (const row of db.all("SELECT id, sha FROM commits") as { id: number; sha: string }[]) {
      if (!reachable.has(row.sha) || boundary.has(row.sha)) stale.push(Number(row.id));
      else present.add(row.sha);
    }
    const missing = [...reachable].filter((s) => !present.has(s));
    if (missing.length > Math.max(5_000, reachable.size / 2)) return "rebuild";
    if (opts.maxCommits !== undefined && missing.length > opts.maxCommits) return { action: "too-large", added: 0, removed: 0, pending: missing.length };
    reachable.clear();
    db.exec("BEGIN IMMEDIATE");
    try {
      const delCommit = db.prepare("DELETE FROM commits WHERE id = ? RETURNING files");
      const delFts = db.prepare("DELETE FROM fts WHERE rowid = ?");
      const gone = new Map<string, number>();
      try {
        for (const id of stale) {
          const row = delCommit.get([id]) as { files: string } | null;
          for (const f of decodeFiles(row?.files ?? "")) if (DOC_FILE.test(f.path)) gone.set(f.path, (gone.get(f.path) ?? 0) + 1);
          delFts.run([id]);
        }
      } finally {
        delCommit.finalize();
        delFts.finalize();
      }
      addDocCounts(db, gone, -1);
      db.exec("COMMIT");
    } catch (err) {
      db.exec("ROLLBACK");
      throw err;
    }
    const added = missing.length ? await indexCommits(db, state, { stdin: missing }, missing.length, opts, present.size) : 0;
    const commits = present.size + added;
    writeSealedMeta(db, {
      head,
      shallow: state.shallow,
      shallow_shas: JSON.stringify(state.shallowShas),
      updated_at: nowIso(),
      resynced_at: nowIso(),
      commits: String(commits),
    });
    return { action: "resynced", added, removed: stale.length, commits, reason: state.shallow !== (meta.shallow ?? "") ? "shallow clone changed" : "history rewritten" };
  } finally {
    safeClose(db);
  }
}

async function fullBuild(state: RepoState, opts: UpdateOptions): Promise<{ commits: number }> {
  await fs.mkdir(state.dir, { recursive: true });
  const tmp = join(state.dir, `${INDEX_FILE}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  const head = state.head!;
  const cwd = state.toplevel;
  const started = Date.now();
  let db: Db | undefined = openDb(tmp, { create: true, write: true });
  try {
    db.exec(SCHEMA);
    // A temp file renamed into place when complete: no need to sync every transaction (the file is synced once).
    db.exec("PRAGMA synchronous = OFF");
    const [total, roots] = await Promise.all([
      gitOutput(["rev-list", "--count", head, "--"], { cwd, signal: opts.signal }).then((s) => Number(s.trim())),
      gitOutput(["rev-list", "--max-parents=0", head, "--"], { cwd, signal: opts.signal }).then((s) => s.split("\n").filter(Boolean)),
    ]);
    const added = await indexCommits(db, state, { range: [head] }, total, opts, 0);
    opts.onProgress?.({ phase: "finishing", done: added, total });
    db.exec("INSERT INTO fts(fts) VALUES('optimize')");
    writeSealedMeta(db, {
      schema: SCHEMA_VERSION,
      repo: state.toplevel,
      head,
      roots: JSON.stringify(roots),
      shallow: state.shallow,
      shallow_shas: JSON.stringify(state.shallowShas),
      pathspecs: JSON.stringify(DOC_PATHSPECS),
      built_at: nowIso(),
      updated_at: nowIso(),
      build_ms: String(Date.now() - started),
      commits: String(added),
    });
    safeClose(db);
    db = undefined;
    const handle = await fs.open(tmp, "r+");
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(tmp, state.file);
    return { commits: added };
  } catch (err) {
    safeClose(db);
    await fs.rm(tmp, { force: true });
    await fs.rm(`${tmp}-journal`, { force: true });
    await fs.rm(`${tmp}.lock`, { recursive: true, force: true });
    throw err;
  }
}

/**
 * Indexes the commits of a range (or a list of shas) into `db`: documentation diffs first into a parking table,
 * then every commit, in transactions of BATCH commits. Returns how many commits were added.
 */
async function indexCommits(db: Db, state: RepoState, revs: { range: string[] } | { stdin: string[] }, total: number, opts: UpdateOptions, already: number): Promise<number> {
  let progressAt = 0;
  const startedAt = nowIso();
  const progressFile = (p: BuildProgress) => {
    opts.onProgress?.(p);
    const now = Date.now();
    if (now - progressAt < 500) return;
    progressAt = now;
    void writeProgressFile(state.dir, { ...p, pid: process.pid, kind: "range" in revs && revs.range.length === 1 ? "build" : "update", started_at: startedAt, updated_at: new Date(now).toISOString() });
  };

  // Documentation diffs wait in a scratch database beside the index (deleted afterwards), not in the index itself.
  const scratch = join(state.dir, `pending.${process.pid}.${randomBytes(4).toString("hex")}.sqlite`);
  db.exec(`ATTACH DATABASE '${scratch.replace(/'/g, "''")}' AS scratch`);
  db.exec("PRAGMA scratch.synchronous = OFF; PRAGMA scratch.journal_mode = OFF");
  db.exec("CREATE TABLE scratch.pending_docs(sha TEXT PRIMARY KEY, docs TEXT NOT NULL, text TEXT NOT NULL) WITHOUT ROWID");
  try {
    return await indexWithScratch(db, state, revs, total, opts, progressFile, already);
  } finally {
    try {
      db.exec("DETACH DATABASE scratch");
    } catch {
      // a failed transaction may keep it attached until close; the file goes anyway
    }
    await fs.rm(scratch, { force: true });
    await fs.rm(`${scratch}-journal`, { force: true });
    await fs.rm(`${scratch}.lock`, { recursive: true, force: true });
  }
}

async function indexWithScratch(
  db: Db,
  state: RepoState,
  revs: { range: string[] } | { stdin: string[] },
  total: number,
  opts: UpdateOptions,
  progressFile: (p: BuildProgress) => void,
  already: number,
): Promise<number> {
  const cwd = state.toplevel;
  const signal = opts.signal;
  // The commit log is written to a spool file by one git process while another git streams the documentation
  // diffs (two cores busy instead of one); it is read back once the diffs are parked.
  const spool = join(state.dir, `commits.${process.pid}.${randomBytes(4).toString("hex")}.log`);
  const spooled = spoolCommits(revs, { cwd, signal, firstParentMerges: await firstParentMergesSupported(cwd) }, spool);
  spooled.catch(() => undefined);
  try {
    return await parkThenIndex(db, revs, total, { ...opts, cwd }, progressFile, spooled, spool, already);
  } finally {
    await fs.rm(spool, { force: true });
  }
}

/** First pass: every commit's documentation diff, parked in a scratch table in batches. */
async function parkDocDiffs(
  db: Db,
  revs: { range: string[] } | { stdin: string[] },
  total: number,
  opts: UpdateOptions & { cwd: string },
  progressFile: (p: BuildProgress) => void,
): Promise<void> {
  const { cwd, signal } = opts;
  let docsSeen = 0;
  const park = db.prepare("INSERT OR REPLACE INTO scratch.pending_docs(sha, docs, text) VALUES (?, ?, ?)");
  let inTx = 0;
  db.exec("BEGIN IMMEDIATE");
  try {
    await streamDocDiffs(revs, DOC_PATHSPECS, { cwd, signal }, async (d: DocDiff) => {
      park.run([d.sha, storedDocs(d), d.text]);
      docsSeen++;
      if (++inTx >= BATCH) {
        db.exec("COMMIT");
        progressFile({ phase: "docs", done: docsSeen, total });
        await yieldToLoop();
        db.exec("BEGIN IMMEDIATE");
        inTx = 0;
      }
    });
    db.exec("COMMIT");
  } catch (err) {
    if (db.inTransaction) db.exec("ROLLBACK");
    throw err;
  } finally {
    park.finalize();
  }
}

async function parkThenIndex(
  db: Db,
  revs: { range: string[] } | { stdin: string[] },
  total: number,
  opts: UpdateOptions & { cwd: string },
  progressFile: (p: BuildProgress) => void,
  spooled: Promise<void>,
  spool: string,
  already: number,
): Promise<number> {
  const { signal } = opts;
  await parkDocDiffs(db, revs, total, opts, progressFile);
  // Then the commits, joined with their parked documentation diffs.
  const exists = db.prepare("SELECT 1 AS x FROM commits WHERE sha = ?");
  const idTaken = db.prepare("SELECT 1 AS x FROM commits WHERE id = ?");
  const docsOf = db.prepare("SELECT docs, text FROM scratch.pending_docs WHERE sha = ?");
  const insCommit = db.prepare("INSERT INTO commits(id, sha, ts, subject, body, nfiles, files, docs, mac) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
  // No key (a question's private index, when the user has none): rows go unsealed, and are read only by this process.
  const key = historySealKey();
  const insFts = db.prepare("INSERT INTO fts(rowid, subject, body, paths, diff) VALUES (?, ?, ?, ?, ?)");
  const docCounts = new Map<string, number>();
  let added = 0;
  let seen = 0;
  let seq = already;
  let inTx = 0;
  await spooled;
  db.exec("BEGIN IMMEDIATE");
  try {
    await readSpooledCommits(spool, async (c: CommitRecord) => {
      seen++;
      if (!exists.get([c.sha])) {
        let id = c.ts * 4096 + (seq++ & 4095);
        while (idTaken.get([id])) id++;
        const docs = docsOf.get([c.sha]) as { docs: string; text: string } | null;
        const row = { sha: c.sha, ...storedCommit(c), docs: docs?.docs ?? null };
        insCommit.run([id, c.sha, row.ts, row.subject, row.body, row.nfiles, row.files, row.docs, key ? rowSeal(key, row) : null]);
        insFts.run([id, c.subject, row.body, pathTokens(c.files.map((f) => f.path)), docs?.text ?? ""]);
        for (const f of c.files) if (DOC_FILE.test(f.path)) docCounts.set(f.path, (docCounts.get(f.path) ?? 0) + 1);
        added++;
      }
      if (++inTx >= BATCH) {
        addDocCounts(db, docCounts, 1);
        db.exec("COMMIT");
        progressFile({ phase: "commits", done: seen, total });
        await yieldToLoop();
        db.exec("BEGIN IMMEDIATE");
        inTx = 0;
      }
    }, signal);
    addDocCounts(db, docCounts, 1);
    db.exec("COMMIT");
    progressFile({ phase: "commits", done: seen, total });
  } catch (err) {
    if (db.inTransaction) db.exec("ROLLBACK");
    throw err;
  } finally {
    for (const st of [exists, idTaken, docsOf, insCommit, insFts]) st.finalize();
  }
  return added;
}

/** Deletes an index file with its journal and VFS lock (the caller holds the writer lock). */
export async function removeIndexFiles(file: string): Promise<void> {
  closeParkedConnection();
  await fs.rm(file, { force: true });
  await fs.rm(`${file}-journal`, { force: true });
  await fs.rm(`${file}.lock`, { recursive: true, force: true });
}

function yieldToLoop(): Promise<void> {
  return new Promise((r) => setImmediate(r));
}
