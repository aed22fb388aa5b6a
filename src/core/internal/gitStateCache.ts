// Git facts kept between questions in a long-lived process (the MCP server's worker, the extension host), each with
// a proof, read from the repository's own files without running git, that the state it depends on is unchanged.
//
// Each git process costs a question more than git's own work: spawning blocks the calling thread until the child
// has exec'd, and that grows with the process's memory (a server holding a large corpus paid ~50 ms per spawn under
// load; a question ran seven or eight). Three facts a question asks git for depend only on state we can read
// directly:
//  - the repository check (gitSafety.ts): where the work tree's top level and its git directory are. Proved by the
//    identity (device, inode, owner) of the folder and of every `.git` entry from it up to the top level, and the
//    content of a `.git` file: moving, replacing or re-initialising any of them, or a nested repository appearing,
//    changes the proof;
//  - HEAD and the shallow boundary (history/location.ts readRepoState): proved by the content of HEAD, of every
//    loose ref it points through, of packed-refs, of a reftable's table list and of the shallow file;
//  - anything `git ls-files --cached` says (the tracked lock files): proved by the index file's own trailing
//    checksum (a hash of its whole content), its size and the HEAD proof above.
// Any file that cannot be read, an index without a checksum (index.skipHash) or a state the proof does not
// understand means no proof: git runs as before. Nothing here is written to disk; a process keeps a few entries.
import { createHash } from "node:crypto";
import { closeSync, fstatSync, openSync, readdirSync, readFileSync, readSync, statSync, type Dirent, type Stats } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import { sha256 } from "../hash";

/** Entries kept per kind: a workspace with a few folders. */
const KEEP = 16;

function remember<V>(map: Map<string, V>, key: string, value: V): void {
  map.delete(key);
  map.set(key, value);
  while (map.size > KEEP) map.delete(map.keys().next().value!);
}

function statOrNull(path: string): Stats | null {
  try {
    return statSync(path, { throwIfNoEntry: false }) ?? null;
  } catch {
    return null;
  }
}

function readOrNull(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return null;
    throw err;
  }
}

/** Values kept under a proof of the git directory's state; a value is dropped once its proof no longer holds. */
function provedCache(proofOf: (gitDir: string) => string | undefined) {
  const entries = new Map<string, { proof: string; value: unknown }>();
  return {
    get(key: string, gitDir: string): unknown {
      const hit = entries.get(key);
      if (!hit) return undefined;
      if (proofOf(gitDir) === hit.proof) return hit.value;
      entries.delete(key);
      return undefined;
    },
    keep(key: string, proof: string | undefined, value: unknown): void {
      if (proof) remember(entries, key, { proof, value });
    },
    clear(): void {
      entries.clear();
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// The repository check's layout

/**
 * The identity of `dir` and of each `.git` entry from `dir` up to `toplevel` (inclusive), and of the git directory:
 * what `git rev-parse --show-toplevel --absolute-git-dir` and the check's verdict read. Undefined when `dir` is not
 * inside `toplevel` or a stat fails in an unexpected way.
 */
export function layoutProof(dir: string, toplevel: string, gitDir: string): string | undefined {
  const rel = relative(toplevel, dir);
  if (rel.startsWith("..") || isAbsolute(rel)) return undefined;
  const parts: unknown[] = [];
  const id = (st: Stats | null) => (st ? [st.dev, st.ino, st.mode, st.uid] : null);
  parts.push(id(statOrNull(dir)), id(statOrNull(gitDir)));
  for (let folder = dir; ; folder = dirname(folder)) {
    const dotGit = join(folder, ".git");
    const st = statOrNull(dotGit);
    // A `.git` file (a worktree or submodule) names its git directory: its content is part of the proof.
    parts.push(id(st), st?.isFile() ? readOrNull(dotGit) : null);
    if (folder === toplevel || dirname(folder) === folder) break;
  }
  return sha256(JSON.stringify(parts));
}

/** A cached repository check and the layout proof it was taken under. */
const checks = new Map<string, { proof: string; value: { toplevel: string; gitDir: string } }>();
/** Where the last check of a folder found its top level and git directory: what the next proof is taken over. */
const lastPaths = new Map<string, { toplevel: string; gitDir: string }>();

/** The cached check for `dir`, if its layout is unchanged. */
export function cachedCheck<T extends { toplevel: string; gitDir: string }>(dir: string): T | undefined {
  const hit = checks.get(dir);
  if (!hit) return undefined;
  if (layoutProof(dir, hit.value.toplevel, hit.value.gitDir) === hit.proof) return hit.value as T;
  checks.delete(dir);
  return undefined;
}

/**
 * The layout proof over the paths the last check found, taken before git runs again: a check is kept only under a
 * proof taken before git looked (so a change made meanwhile fails the next proof), which means from the second
 * check of a folder on.
 */
export function proofBeforeCheck(dir: string): string | undefined {
  const paths = lastPaths.get(dir);
  return paths ? layoutProof(dir, paths.toplevel, paths.gitDir) : undefined;
}

/** Keeps a work-tree check when the proof taken before it was over the very paths it found. */
export function keepCheck(dir: string, proof: string | undefined, value: { toplevel: string; gitDir: string }): void {
  const paths = lastPaths.get(dir);
  if (proof && paths && paths.toplevel === value.toplevel && paths.gitDir === value.gitDir) remember(checks, dir, { proof, value });
  remember(lastPaths, dir, { toplevel: value.toplevel, gitDir: value.gitDir });
}

// ---------------------------------------------------------------------------------------------------------------
// HEAD, refs and the shallow boundary

/** The common git directory of a (possibly linked-worktree) git directory. */
export function commonDirOf(gitDir: string): string {
  const common = readOrNull(join(gitDir, "commondir"));
  if (common === null) return gitDir;
  const path = common.trim();
  return isAbsolute(path) ? path : resolve(gitDir, path);
}

/**
 * What HEAD resolves to is decided by these files' contents: HEAD, the loose refs it points through (per-worktree
 * or common), packed-refs, a reftable's table list, and the shallow file. Undefined when they cannot be read.
 */
export function headProof(gitDir: string): string | undefined {
  try {
    const common = commonDirOf(gitDir);
    const parts: (string | null)[] = [gitDir, common];
    let head = readOrNull(join(gitDir, "HEAD"));
    parts.push(head);
    // Symbolic refs are followed a few levels, each loose ref read where git would look for it.
    for (let depth = 0; head !== null && depth < 5; depth++) {
      const m = /^ref:\s*(\S+)\s*$/.exec(head.trim());
      if (!m) break;
      const name = m[1];
      if (name.split("/").some((p) => p === ".." || p === "")) return undefined;
      const perWorktree = !name.startsWith("refs/") || name.startsWith("refs/worktree/") || name.startsWith("refs/bisect/");
      head = readOrNull(join(perWorktree ? gitDir : common, ...name.split("/")));
      parts.push(name, head);
    }
    parts.push(readOrNull(join(common, "packed-refs")), readOrNull(join(common, "reftable", "tables.list")), readOrNull(join(common, "shallow")));
    return sha256(JSON.stringify(parts));
  } catch {
    return undefined;
  }
}

const heads = provedCache(headProof);

export function cachedHead<T>(key: string, gitDir: string): T | undefined {
  return heads.get(key, gitDir) as T | undefined;
}

export function keepHead(key: string, proof: string | undefined, value: unknown): void {
  heads.keep(key, proof, value);
}

// ---------------------------------------------------------------------------------------------------------------
// The index

/**
 * The index file's trailing checksum (a hash of all its content, which git writes last), its size and the HEAD
 * proof: what `git ls-files --cached` lists is decided by them. Undefined without an index, without a checksum
 * (index.skipHash writes zeros) or when it cannot be read.
 */
export function indexProof(gitDir: string): string | undefined {
  const head = headProof(gitDir);
  if (!head) return undefined;
  let fd: number | undefined;
  try {
    fd = openSync(join(gitDir, "index"), "r");
    const size = fstatSync(fd).size;
    if (size < 32) return undefined;
    // The trailer is 20 bytes (SHA-1) or 32 (SHA-256): the last 32 cover both.
    const tail = Buffer.alloc(32);
    if (readSync(fd, tail, 0, 32, size - 32) !== 32) return undefined;
    if (tail.subarray(12).every((b) => b === 0)) return undefined;
    return sha256(`${head}\0${size}\0${tail.toString("hex")}`);
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

const listings = provedCache(indexProof);

export function cachedListing<T>(key: string, gitDir: string): T | undefined {
  return listings.get(key, gitDir) as T | undefined;
}

export function keepListing(key: string, proof: string | undefined, value: unknown): void {
  listings.keep(key, proof, value);
}

// ---------------------------------------------------------------------------------------------------------------
// Confirmed commits

/** Commit ids git confirmed, per repository state (top level, HEAD, shallow boundary, the history index file). */
const confirmed = new Map<string, Set<string>>();

export function confirmedCommits(key: string): Set<string> {
  let set = confirmed.get(key);
  if (!set) {
    set = new Set();
    remember(confirmed, key, set);
  }
  return set;
}

/** Forgets everything kept (tests). */
export function forgetGitState(): void {
  checks.clear();
  lastPaths.clear();
  heads.clear();
  listings.clear();
  confirmed.clear();
  worktrees.clear();
}

// ---------------------------------------------------------------------------------------------------------------
// The work tree, for listings that walk it (`git ls-files --others`, `--ignored`)

/** Past this many folders a work tree is not surveyed (its listings run git every time). */
export const MAX_SURVEY_DIRS = 20_000;
/** A folder or file changed this recently cannot prove that nothing changed after it (see fingerprint.ts). */
const RACY_MS = 20;

export interface WorktreeSurvey {
  /** Every folder below the top level (workspace-relative, "" for the top), except `.git` and the excluded ones. */
  dirs: string[];
  /** Every `.gitignore` found in them. */
  ignoreFiles: string[];
  /** When the walk started: a folder changed after it was not necessarily walked as it is now. */
  startedAt: number;
}

/**
 * Walks the work tree's folders (never into `.git` or an excluded folder, never through a symlink): the folders whose
 * entries decide what is untracked, and the ignore files that decide what is ignored. Undefined past
 * MAX_SURVEY_DIRS or on an unreadable folder.
 */
export function surveyWorktree(toplevel: string, excludeDirs: string[]): WorktreeSurvey | undefined {
  const startedAt = Date.now();
  const excluded = new Set(excludeDirs.map((d) => d.replace(/^\.?\/+|\/+$/g, "")).filter(Boolean));
  const dirs: string[] = [];
  const ignoreFiles: string[] = [];
  const queue = [""];
  while (queue.length) {
    const rel = queue.pop()!;
    dirs.push(rel);
    if (dirs.length > MAX_SURVEY_DIRS) return undefined;
    let entries: Dirent[];
    try {
      entries = readdirSync(rel ? join(toplevel, rel) : toplevel, { withFileTypes: true });
    } catch {
      return undefined;
    }
    for (const e of entries) {
      const path = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (e.name !== ".git" && !excluded.has(path)) queue.push(path);
      } else if (e.name === ".gitignore") ignoreFiles.push(path);
    }
  }
  dirs.sort();
  ignoreFiles.sort();
  return { dirs, ignoreFiles, startedAt };
}

/** The config files git reads besides the repository's, and the default global excludes file. */
function userGitFiles(env: NodeJS.ProcessEnv): string[] {
  const home = env.HOME ?? "";
  const xdg = env.XDG_CONFIG_HOME || (home ? join(home, ".config") : "");
  return ["/etc/gitconfig", ...(home ? [join(home, ".gitconfig")] : []), ...(xdg ? [join(xdg, "git", "config"), join(xdg, "git", "ignore")] : [])];
}

/**
 * Proof that a work tree's listings are unchanged: the mtime of every surveyed folder (a file created, removed or
 * renamed in it changes that), the stats of its ignore files, of info/exclude, of every config file and the global
 * excludes file, and the index proof. Undefined when something changed since the survey started (or too recently
 * to tell), when a config names its own excludes file or includes other files (not followed here), or when a stat
 * fails.
 */
export function worktreeProof(toplevel: string, gitDir: string, survey: WorktreeSurvey, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const index = indexProof(gitDir);
  if (!index) return undefined;
  const limit = survey.startedAt - RACY_MS;
  const h = createHash("sha256").update(index);
  for (const d of survey.dirs) {
    const st = statOrNull(d ? join(toplevel, d) : toplevel);
    if (!st || !st.isDirectory() || st.mtimeMs >= limit) return undefined;
    h.update(`${d}\0${st.mtimeMs}\0${st.ino}\n`);
  }
  const common = commonDirOf(gitDir);
  const files = [...survey.ignoreFiles.map((f) => join(toplevel, f)), join(common, "info", "exclude"), join(common, "config"), join(gitDir, "config.worktree"), ...userGitFiles(env)];
  for (const f of files) {
    const st = statOrNull(f);
    if (st && (st.mtimeMs >= limit || st.ctimeMs >= limit)) return undefined;
    h.update(`${f}\0${st ? `${st.size}\0${st.mtimeMs}\0${st.ctimeMs}\0${st.ino}` : "-"}\n`);
  }
  for (const config of [join(common, "config"), join(gitDir, "config.worktree"), ...userGitFiles(env).filter((f) => !f.endsWith("ignore"))]) {
    const text = readOrNull(config);
    if (text !== null && /excludesfile|^\s*\[\s*include/im.test(text)) return undefined;
  }
  return h.digest("hex");
}

const worktrees = new Map<string, { proof: string; survey: WorktreeSurvey; value: unknown }>();

/** A listing kept under a work-tree proof, if the proof (over the folders surveyed then) still holds. */
export function cachedWorktreeListing<T>(key: string, toplevel: string, gitDir: string): T | undefined {
  const hit = worktrees.get(key);
  if (!hit) return undefined;
  if (worktreeProof(toplevel, gitDir, hit.survey) === hit.proof) return hit.value as T;
  worktrees.delete(key);
  return undefined;
}

/**
 * Surveys the work tree and takes its proof: call before git lists anything, and keep the listing with
 * keepWorktreeListing. Undefined when there is no proof to be had.
 */
export function worktreeProofBefore(toplevel: string, gitDir: string, excludeDirs: string[]): { survey: WorktreeSurvey; proof: string } | undefined {
  const survey = surveyWorktree(toplevel, excludeDirs);
  const proof = survey && worktreeProof(toplevel, gitDir, survey);
  return survey && proof ? { survey, proof } : undefined;
}

export function keepWorktreeListing(key: string, before: { survey: WorktreeSurvey; proof: string } | undefined, value: unknown): void {
  if (before) remember(worktrees, key, { ...before, value });
  else worktrees.delete(key);
}
