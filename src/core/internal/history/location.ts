// Where a repository's history index lives, what state the repository is in, and the writer lock.
//
// The index is in the user's cache directory, never in the working tree (so it cannot be committed by accident):
//   $XDG_CACHE_HOME/deliberative-search/history/<key>/index.sqlite    (else %LOCALAPPDATA% on Windows, else ~/.cache)
// <key> hashes the work tree's real path; the index records the repository's root commits and its last indexed
// HEAD, and every update checks that HEAD still descends from it. Deleting the folder is always safe: the next
// deliberation (or `deliberate index`) rebuilds it.
import { createHash, randomBytes } from "node:crypto";
import { promises as fs, readFileSync, realpathSync } from "node:fs";
import { hostname } from "node:os";
import { isAbsolute, join, relative, resolve } from "node:path";
import { cachedCheck, cachedHead, headProof, keepHead } from "../gitStateCache";
import { gitOutput } from "./gitStream";
import { userCacheDir } from "../../cacheDir";
import { folderWritableInside, isInside } from "../../contain";
import { CACHE_KEY_FILE } from "../../cacheKey";
import { historySealKey } from "./seal";
import { processAlive as alive } from "../../pid";

export const INDEX_FILE = "index.sqlite";

export function historyCacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  return join(userCacheDir(env), "history");
}

export function indexDirFor(toplevel: string, env: NodeJS.ProcessEnv = process.env): string {
  const key = createHash("sha256").update(toplevel).digest("hex").slice(0, 20);
  return join(historyCacheRoot(env), key);
}

/**
 * Why a repository's index folder must not be used, or undefined when it may. Below the history root it must stay
 * inside the user's cache folder: a `history` or `<key>` folder that is a symlink leading elsewhere (planted by
 * whoever can write the cache folder) would have builds write, and questions read, wherever it points. And there
 * must be a per-user key to seal the index with (seal.ts). Building and asking both check, so neither uses a folder
 * the other refuses. A folder the caller chose outside the history root (a question's private index in a temp
 * folder) is not checked.
 */
export async function indexDirRefusal(dir: string, env: NodeJS.ProcessEnv = process.env): Promise<string | undefined> {
  const root = userCacheDir(env);
  if (!isInside(historyCacheRoot(env), resolve(dir))) return undefined;
  if (!historySealKey()) return `no usable key to seal the history index with (${CACHE_KEY_FILE} in the signing-key folder is missing, unwritable or readable by others); not keeping one`;
  // No cache folder yet: whatever a build creates is created inside it.
  if (!(await fs.lstat(root).then(() => true, () => false))) return undefined;
  if (await folderWritableInside(root, relative(root, resolve(dir)))) return undefined;
  return `history index folder ${dir} is a symlink leading outside the cache folder; not using it (delete it: the next build recreates it)`;
}

export interface RepoState {
  /** Real path of the work tree's top level (the index key). */
  toplevel: string;
  /** The current HEAD commit; undefined in a repository with no commits yet. */
  head?: string;
  /** Fingerprint of .git/shallow ("" when the clone is complete): deepening a shallow clone changes it. */
  shallow: string;
  /** The boundary commits of a shallow clone (their diffs change once the clone is deepened). */
  shallowShas: string[];
  dir: string;
  file: string;
}

let gitVersion: Promise<string> | undefined;

/**
 * git ≥ 2.31: merges are indexed with their first-parent diff, as `git log --diff-merges=first-parent` lists them. Asked once per process
 * and only by a build or an update: a question that reads an index as it is runs no `git version`.
 */
export async function firstParentMergesSupported(cwd: string): Promise<boolean> {
  gitVersion ??= gitOutput(["version"], { cwd }).catch(() => "");
  const m = /git version (\d+)\.(\d+)/.exec(await gitVersion);
  return !!m && (Number(m[1]) > 2 || (Number(m[1]) === 2 && Number(m[2]) >= 31));
}

/** The repository's state in one quick git call (rev-parse; two when HEAD does not resolve), or an error message. */
export async function readRepoState(repo: string, signal?: AbortSignal): Promise<RepoState | { error: string }> {
  // In a long-lived process, while the folder's layout and the files HEAD resolves through are provably unchanged
  // (gitStateCache.ts), the state is the one git gave last time: no git runs.
  const key = resolve(repo);
  const check = cachedCheck<{ toplevel: string; gitDir: string }>(key);
  const known = check ? cachedHead<Omit<RepoState, "dir" | "file">>(key, check.gitDir) : undefined;
  if (known) {
    signal?.throwIfAborted();
    const dir = indexDirFor(known.toplevel);
    return { ...known, shallowShas: [...known.shallowShas], dir, file: join(dir, INDEX_FILE) };
  }
  const proof = check ? headProof(check.gitDir) : undefined;
  const state = await readRepoStateFromGit(repo, signal);
  if (check && !("error" in state) && state.head && state.toplevel === check.toplevel) {
    keepHead(key, proof, { toplevel: state.toplevel, head: state.head, shallow: state.shallow, shallowShas: [...state.shallowShas] });
  }
  return state;
}

async function readRepoStateFromGit(repo: string, signal?: AbortSignal): Promise<RepoState | { error: string }> {
  let out: string;
  let head: string | undefined;
  try {
    // One git process in the common case (a repository with commits); a second only when HEAD does not resolve.
    out = await gitOutput(["rev-parse", "--show-toplevel", "--is-shallow-repository", "--git-path", "shallow", "--verify", "-q", "HEAD^{commit}"], { cwd: repo, signal });
    head = out.split("\n")[3]?.trim() || undefined;
  } catch {
    try {
      out = await gitOutput(["rev-parse", "--show-toplevel", "--is-shallow-repository", "--git-path", "shallow"], { cwd: repo, signal });
    } catch (err) {
      return { error: err instanceof Error ? err.message : String(err) };
    }
  }
  const [top, isShallow, shallowPath] = out.split("\n").map((l) => l.trim());
  if (!top) return { error: `not a git work tree: ${repo}` };
  let toplevel = top;
  try {
    toplevel = realpathSync(top);
  } catch {
    // keep git's answer
  }
  let shallow = "";
  let shallowShas: string[] = [];
  if (isShallow === "true" && shallowPath) {
    try {
      const text = readFileSync(isAbsolute(shallowPath) ? shallowPath : join(toplevel, shallowPath), "utf8");
      shallowShas = text.split("\n").map((l) => l.trim()).filter((l) => /^[0-9a-f]{40,64}$/.test(l)).sort();
      shallow = createHash("sha256").update(shallowShas.join("\n")).digest("hex").slice(0, 16);
    } catch {
      shallow = "unknown";
    }
  }
  const dir = indexDirFor(toplevel);
  return { toplevel, head, shallow, shallowShas, dir, file: join(dir, INDEX_FILE) };
}

// ---------------------------------------------------------------------------------------------------------------
// The writer lock: one updater per index at a time, across processes. A lock whose owner died (same host, pid gone)
// or that has not been refreshed for HEARTBEAT_STALE_MS is broken; a live builder refreshes it every few seconds.

const HOST = hostname();
const HEARTBEAT_MS = 5_000;
const HEARTBEAT_STALE_MS = 120_000;

export interface LockHolder {
  pid: number;
  host: string;
  started: number;
}


export async function readLockHolder(dir: string): Promise<LockHolder | undefined> {
  const lock = join(dir, "writer.lock");
  try {
    const [text, st] = await Promise.all([fs.readFile(lock, "utf8"), fs.stat(lock)]);
    const holder = JSON.parse(text || "{}") as Partial<LockHolder>;
    const pid = Number(holder.pid);
    if (holder.host === HOST && Number.isInteger(pid) && pid > 0 && !alive(pid)) return undefined;
    if (Date.now() - st.mtimeMs > HEARTBEAT_STALE_MS) return undefined;
    return { pid, host: String(holder.host ?? "?"), started: Number(holder.started) || st.mtimeMs };
  } catch (err) {
    // Unparsable: being written right now, or garbage. Young means being written.
    try {
      const st = await fs.stat(lock);
      if (Date.now() - st.mtimeMs < 2_000) return { pid: 0, host: "?", started: st.mtimeMs };
    } catch {
      return undefined;
    }
    void err;
    return undefined;
  }
}

export interface WriterLock {
  release(): Promise<void>;
}

/** Takes the writer lock without waiting: undefined when a live process holds it. */
export async function tryWriterLock(dir: string): Promise<WriterLock | undefined> {
  await fs.mkdir(dir, { recursive: true });
  const lock = join(dir, "writer.lock");
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const handle = await fs.open(lock, "wx", 0o644);
      try {
        await handle.writeFile(JSON.stringify({ pid: process.pid, host: HOST, started: Date.now() }));
      } finally {
        await handle.close();
      }
      const beat = setInterval(() => {
        const now = new Date();
        void fs.utimes(lock, now, now).catch(() => undefined);
      }, HEARTBEAT_MS);
      beat.unref();
      let released = false;
      return {
        release: async () => {
          if (released) return;
          released = true;
          clearInterval(beat);
          await fs.rm(lock, { force: true });
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      if (await readLockHolder(dir)) return undefined;
      // Abandoned: move it aside first, so two processes never both delete a fresh lock.
      const aside = `${lock}.${randomBytes(6).toString("hex")}.stale`;
      await fs.rename(lock, aside).then(
        () => fs.rm(aside, { force: true }),
        () => undefined,
      );
    }
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// Progress of a build, for other processes (`deliberate index --status`, a CLI question while a detached build runs).

export interface BuildProgress {
  phase: "docs" | "commits" | "finishing";
  /** Commits indexed so far (phase commits), or documentation commits read (phase docs). */
  done: number;
  /** Commits to index, when known. */
  total?: number;
}

export interface ProgressFile extends BuildProgress {
  pid: number;
  kind: "build" | "update";
  started_at: string;
  updated_at: string;
}

export async function writeProgressFile(dir: string, p: ProgressFile): Promise<void> {
  const file = join(dir, "progress.json");
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    await fs.writeFile(tmp, JSON.stringify(p));
    await fs.rename(tmp, file);
  } catch {
    await fs.rm(tmp, { force: true }).catch(() => undefined);
  }
}

export async function readProgressFile(dir: string): Promise<ProgressFile | undefined> {
  try {
    return JSON.parse(await fs.readFile(join(dir, "progress.json"), "utf8")) as ProgressFile;
  } catch {
    return undefined;
  }
}

export async function removeProgressFile(dir: string): Promise<void> {
  await fs.rm(join(dir, "progress.json"), { force: true }).catch(() => undefined);
}

/** Temp files of builds whose process died. */
export async function removeStaleTemps(dir: string): Promise<void> {
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const m = /^(?:index\.sqlite\.(\d+)\.[0-9a-f]+\.tmp|pending\.(\d+)\.[0-9a-f]+\.sqlite|commits\.(\d+)\.[0-9a-f]+\.log)(?:-journal|\.lock)?$/.exec(name);
    if (!m) continue;
    const pid = Number(m[1] ?? m[2] ?? m[3]);
    if (pid === process.pid || alive(pid)) continue;
    await fs.rm(join(dir, name), { recursive: true, force: true }).catch(() => undefined);
  }
}
