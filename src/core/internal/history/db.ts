// The history index's storage: one SQLite database per repository, with an FTS5 table (BM25 over subject, body,
// path tokens and documentation diff text) beside a plain table of what a citation needs. SQLite runs as
// WebAssembly (node-sqlite3-wasm), so the same code works in Node and in VS Code's extension host with no native
// build; its VFS reads and writes the file directly, so a query never loads the index into memory.
//
// Concurrency. The VFS serialises every transaction (readers included) with a `<db>.lock` directory; a writer's
// transaction is atomic through SQLite's rollback journal. Writers are serialised further by our own lock
// (build.ts), and a full build writes a new file that is renamed over the old one. A `<db>.lock` directory left by
// a killed process is removed once it is older than any transaction we run.
import { rmSync, statSync } from "node:fs";
import { setFlagsFromString } from "node:v8";
import type { Database as WasmDatabase } from "node-sqlite3-wasm";

/** Bump when the schema or what is indexed changes: an index of another version is rebuilt. */
export const SCHEMA_VERSION = "7";

/** A `<db>.lock` directory older than this belongs to a dead process (our transactions last well under it). */
const STALE_VFS_LOCK_MS = 30_000;
/** How long a reader waits for another process's transaction. */
const READ_BUSY_MS = 400;
const WRITE_BUSY_MS = 5_000;

export type Db = WasmDatabase;

let sqlite: typeof import("node-sqlite3-wasm") | undefined;
/** How SQLite's WebAssembly was compiled when it loaded: undefined until then. */
let loadedTiering: WasmTiering | undefined;
let preferredTiering: WasmTiering = "optimising";

/**
 * optimising: V8's default (baseline code first, hot functions recompiled by its optimising compiler on background
 * threads). baseline: the baseline compiler only. A short-lived process that opens an existing index for one query
 * spends ~0.4 s of CPU on optimising SQLite's hot functions that it never wins back; a build or a long-lived host
 * (the extension, the MCP server) runs long enough to gain from it.
 */
export type WasmTiering = "optimising" | "baseline";

/**
 * Asks for `tiering` when SQLite's WebAssembly is first compiled (it cannot change afterwards). Baseline applies only
 * when that first use reads an index: a process whose first use builds one still optimises. Returns how it was
 * compiled if that already happened.
 */
export function preferSqliteWasmTiering(tiering: WasmTiering): WasmTiering | undefined {
  preferredTiering = tiering;
  return loadedTiering;
}

/** How SQLite's WebAssembly was compiled in this process (undefined: not loaded yet). */
export function sqliteWasmTiering(): WasmTiering | undefined {
  return loadedTiering;
}

/** Loaded on first use: compiling the WebAssembly module costs a few tens of ms that other commands should not pay. */
function wasm(forWrite: boolean): typeof import("node-sqlite3-wasm") {
  if (sqlite) return sqlite;
  // Someone who set V8's WebAssembly flags for this process (node --wasm-…) keeps them as they are.
  const ownFlags = /wasm|liftoff/.test(`${process.execArgv.join(" ")} ${process.env.NODE_OPTIONS ?? ""}`);
  const tiering: WasmTiering = preferredTiering === "baseline" && !forWrite && !ownFlags ? "baseline" : "optimising";
  if (tiering === "baseline") {
    // The flags stay off for the rest of the process: SQLite's functions are compiled lazily, each when first called,
    // under the flags of that moment (turned back on, every later function would be optimised at once). They are
    // back at their defaults before anything else runs at exit, because V8 rejects code cached under other flags
    // and the CLI caches its compiled bundle at exit (src/cli/launcher.ts).
    setFlagsFromString(BASELINE_ONLY);
    process.prependListener("exit", () => setFlagsFromString(DEFAULT_TIERING));
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  sqlite = require("node-sqlite3-wasm") as typeof import("node-sqlite3-wasm");
  loadedTiering = tiering;
  return sqlite;
}

const BASELINE_ONLY = "--no-wasm-tier-up --no-wasm-dynamic-tiering";
const DEFAULT_TIERING = "--wasm-tier-up --wasm-dynamic-tiering";

/** The index could not be read as an index of this version: the caller rebuilds it. */
export class CorruptIndexError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CorruptIndexError";
  }
}

/** Another process holds the database (a transaction in progress): retry later, never rebuild. */
export class IndexBusyError extends Error {
  constructor(message = "the history index is busy (another process is writing it)") {
    super(message);
    this.name = "IndexBusyError";
  }
}

export function classifyDbError(err: unknown): Error {
  const msg = err instanceof Error ? err.message : String(err);
  if (err instanceof CorruptIndexError || err instanceof IndexBusyError) return err;
  if (/database is locked|SQLITE_BUSY|busy/i.test(msg)) return new IndexBusyError();
  if (/malformed|not a database|file is not a database|corrupt|no such table|no such column|fts5|SQLITE_CORRUPT|SQLITE_NOTADB|disk image/i.test(msg)) {
    return new CorruptIndexError(msg.split("\n")[0].slice(0, 200));
  }
  return err instanceof Error ? err : new Error(msg);
}

/** Removes a `<db>.lock` directory left behind by a process that died inside a transaction. */
export function clearStaleVfsLock(file: string, olderThanMs = STALE_VFS_LOCK_MS): boolean {
  const lock = `${file}.lock`;
  try {
    const st = statSync(lock);
    if (Date.now() - st.mtimeMs < olderThanMs) return false;
    rmSync(lock, { recursive: true, force: true });
    return true;
  } catch {
    return false;
  }
}

export interface OpenOptions {
  create?: boolean;
  /** Writers wait longer for readers to finish. */
  write?: boolean;
}

export function openDb(file: string, opts: OpenOptions = {}): Db {
  const { Database } = wasm(Boolean(opts.write || opts.create));
  let db: Db;
  try {
    db = new Database(file, { fileMustExist: !opts.create });
  } catch (err) {
    throw classifyDbError(err);
  }
  try {
    db.exec(`PRAGMA busy_timeout = ${opts.write ? WRITE_BUSY_MS : READ_BUSY_MS}`);
    return db;
  } catch (err) {
    safeClose(db);
    throw classifyDbError(err);
  }
}

/**
 * Runs `fn` against the database, retrying once after clearing a stale VFS lock. Errors come back classified:
 * CorruptIndexError (rebuild), IndexBusyError (fall back for now), or anything else.
 */
export function withRetry<T>(file: string, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    const e = classifyDbError(err);
    if (e instanceof IndexBusyError && clearStaleVfsLock(file)) {
      try {
        return fn();
      } catch (err2) {
        throw classifyDbError(err2);
      }
    }
    throw e;
  }
}

/** How long a parked connection waits for its query before it is closed (a long-lived host holds no idle handle). */
const PARKED_MS = 5_000;

interface Parked {
  file: string;
  db: Db;
  /** The file it opened: a rebuild renames a new file over the path, and this handle would still read the old one. */
  dev: number;
  ino: number;
  timer: ReturnType<typeof setTimeout>;
}

/** At most one read connection kept open between the freshness check and the query that follows it. */
let parked: Parked | undefined;

/** Keeps a read connection (no transaction open) for the next takeParkedConnection(file); false if it cannot. */
export function parkConnection(file: string, db: Db): boolean {
  let st: { dev: number; ino: number };
  try {
    st = statSync(file);
  } catch {
    return false;
  }
  closeParkedConnection();
  const timer = setTimeout(closeParkedConnection, PARKED_MS);
  timer.unref?.();
  parked = { file, db, dev: st.dev, ino: st.ino, timer };
  return true;
}

/** The parked connection to `file` (handed over: the caller closes it), if it still reads the file at that path. */
export function takeParkedConnection(file: string): Db | undefined {
  const p = parked;
  if (!p || p.file !== file) return undefined;
  parked = undefined;
  clearTimeout(p.timer);
  let same = false;
  try {
    const st = statSync(file);
    same = st.dev === p.dev && st.ino === p.ino;
  } catch {
    // gone: open afresh, which reports it
  }
  if (same && p.db.isOpen) return p.db;
  safeClose(p.db);
  return undefined;
}

/** Closes the parked connection (before the index is written, replaced or removed). */
export function closeParkedConnection(): void {
  const p = parked;
  parked = undefined;
  if (!p) return;
  clearTimeout(p.timer);
  safeClose(p.db);
}

export function safeClose(db: Db | undefined): void {
  try {
    if (db?.isOpen) db.close();
  } catch {
    // closing a broken handle: nothing more to do
  }
}

export const SCHEMA = `
PRAGMA page_size = 8192;
PRAGMA journal_mode = DELETE;
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS commits(
  id INTEGER PRIMARY KEY,
  sha TEXT NOT NULL UNIQUE,
  ts INTEGER NOT NULL,
  subject TEXT NOT NULL,
  body TEXT NOT NULL,
  nfiles INTEGER NOT NULL,
  files TEXT NOT NULL,
  docs TEXT,
  -- seal.ts: an HMAC over the row under the per-user key
  mac BLOB
);
CREATE TABLE IF NOT EXISTS doc_paths(path TEXT PRIMARY KEY, n INTEGER NOT NULL) WITHOUT ROWID;
CREATE VIRTUAL TABLE IF NOT EXISTS fts USING fts5(
  subject, body, paths, diff,
  content = '', contentless_delete = 1,
  tokenize = 'porter unicode61 remove_diacritics 2'
);
`;

export type Meta = Record<string, string>;

export function readMeta(db: Db): Meta {
  const rows = db.all("SELECT key, value FROM meta") as { key: string; value: string }[];
  return Object.fromEntries(rows.map((r) => [r.key, r.value]));
}

export function writeMeta(db: Db, values: Meta): void {
  const st = db.prepare("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)");
  try {
    for (const [k, v] of Object.entries(values)) st.run([k, v]);
  } finally {
    st.finalize();
  }
}
