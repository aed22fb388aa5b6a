// Where a source's files are read from: a local folder as it is, or a git source's copy in the user cache folder,
// fetched at most every `refreshMinutes` and used as last fetched when offline or when a fetch fails. Every git call
// goes through the hardened runner's settings (gitSafety.ts); the only thing added is permission for the one
// transport the source's URL names. The URL with its credentials is given to git on the command line only: it is
// never written to the cache's git config, to the state file, or to any message.
import { execFile } from "node:child_process";
import { promises as fs, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { z } from "zod";
import { userCacheDir } from "../cacheDir";
import { checkRepository, hardenedGitArgs, hardenedGitEnv, UnsafeRepositoryError } from "../internal/gitSafety";
import { cacheKeyOf, redactText, type SourceSpec } from "./spec";

export const DEFAULT_REFRESH_MINUTES = 60;

/** A source that cannot be read: one line, free of credentials. */
export class SourceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SourceError";
  }
}

export interface SourceCheckout {
  /** The folder discovery reads: the folder source, or the git source's work tree (its top). */
  root: string;
  /** Only records under this path from `root` count (`decisions/`); "" for all. */
  prefix: string;
  /** The commit read, when the source is a git repository. */
  commit?: string;
  /** When a git source's copy was fetched (ISO). */
  fetched_at?: string;
  /** For the stage status: how old the copy is, or why it was not refreshed. */
  note?: string;
}

export interface CheckoutOptions {
  /** The folder holding git sources' copies; default `<user cache>/sources`. */
  cacheRoot?: string;
  refreshMinutes?: number;
  offline?: boolean;
  signal?: AbortSignal;
  now?: () => Date;
}

const StateSchema = z.object({
  safe_url: z.string(),
  ref: z.string().optional(),
  commit: z.string().regex(/^[0-9a-f]{40,64}$/),
  fetched_at: z.string().datetime({ offset: true }),
});
type State = z.infer<typeof StateSchema>;

export function sourcesCacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  return join(userCacheDir(env), "sources");
}

/** Opens a source for reading: the folder, or the git source's cached copy (fetched first when due). */
export async function openSource(spec: SourceSpec, opts: CheckoutOptions = {}): Promise<SourceCheckout> {
  return spec.kind === "folder" ? openFolder(spec) : openGit(spec, opts);
}

async function openFolder(spec: Extract<SourceSpec, { kind: "folder" }>): Promise<SourceCheckout> {
  const st = statSafe(spec.folder);
  if (!st) throw new SourceError(`folder does not exist: ${spec.folder}`);
  if (!st.isDirectory()) throw new SourceError(`is a file, not a folder: ${spec.folder}`);
  let check;
  try {
    check = await checkRepository(spec.folder);
  } catch (err) {
    throw new SourceError(err instanceof UnsafeRepositoryError ? err.message : oneLine(err));
  }
  if (check.kind === "none") return { root: spec.folder, prefix: "" };
  // A folder inside a work tree: records are named from the folder, the commit is the work tree's HEAD.
  const commit = await runGit(spec.folder, ["rev-parse", "--verify", "--quiet", "HEAD^{commit}"], {}).then((o) => o.trim(), () => undefined);
  return { root: spec.folder, prefix: "", ...(commit && /^[0-9a-f]{40,64}$/.test(commit) ? { commit } : {}) };
}

async function openGit(spec: Extract<SourceSpec, { kind: "git" }>, opts: CheckoutOptions): Promise<SourceCheckout> {
  const now = opts.now ?? (() => new Date());
  // A file:// source is on this machine: offline never stops reading it, only the network.
  opts = { ...opts, offline: !!opts.offline && spec.scheme !== "file" };
  const base = resolve(opts.cacheRoot ?? sourcesCacheRoot());
  const key = cacheKeyOf(spec);
  const dir = join(base, key);
  const stateFile = join(base, `${key}.json`);
  const state = await readState(stateFile);
  const have = state && statSafe(join(dir, ".git"))?.isDirectory() ? state : undefined;
  const refreshMs = Math.max(0, opts.refreshMinutes ?? DEFAULT_REFRESH_MINUTES) * 60_000;
  const age = have ? now().getTime() - Date.parse(have.fetched_at) : Infinity;
  if (have && (opts.offline || age < refreshMs)) {
    return checkoutOf(spec, dir, have, opts.offline ? `offline: using the copy fetched ${ago(age)}` : undefined);
  }
  if (opts.offline) throw new SourceError("offline, and this source was never fetched");
  // One fetch at a time per copy, across threads and processes (an MCP server's workers, the editor, the CLI).
  return withCopyLock(dir, opts.signal, async () => {
    // Someone else may have fetched it while this waited.
    const latest = await readState(stateFile);
    const current = latest && statSafe(join(dir, ".git"))?.isDirectory() ? latest : have;
    const currentAge = current ? now().getTime() - Date.parse(current.fetched_at) : Infinity;
    if (current && current !== have && currentAge < refreshMs) return checkoutOf(spec, dir, current);
    try {
      const fetched = await fetchSource(spec, dir, opts.signal);
      const next: State = { safe_url: spec.safeUrl, ...(spec.ref ? { ref: spec.ref } : {}), commit: fetched, fetched_at: now().toISOString() };
      await writeState(stateFile, next);
      return checkoutOf(spec, dir, next);
    } catch (err) {
      if (opts.signal?.aborted) throw err;
      const why = err instanceof SourceError ? err.message : oneLine(err);
      if (!current) throw new SourceError(why);
      // The last fetched copy answers; the stage says why and how old it is. Its checkout may have been interrupted.
      await runGit(dir, ["-c", "core.symlinks=false", "checkout", "--quiet", "--force", "--detach", current.commit], { signal: opts.signal }).catch(() => undefined);
      return checkoutOf(spec, dir, current, `refresh failed (${why}); using the copy fetched ${ago(currentAge)}`);
    }
  });
}

/** A lock older than this was left by a process that died mid-fetch. */
const STALE_LOCK_MS = 180_000;
const copyLocks = new Map<string, Promise<void>>();

async function withCopyLock<T>(dir: string, signal: AbortSignal | undefined, work: () => Promise<T>): Promise<T> {
  const before = copyLocks.get(dir) ?? Promise.resolve();
  let release: () => void = () => {};
  const mine = before.then(() => new Promise<void>((r) => (release = r)));
  copyLocks.set(dir, mine);
  try {
    await before;
    const file = `${dir}.lock`;
    await acquireLockFile(file, signal);
    try {
      return await work();
    } finally {
      await fs.rm(file, { force: true }).catch(() => undefined);
    }
  } finally {
    release();
    if (copyLocks.get(dir) === mine) copyLocks.delete(dir);
  }
}

async function acquireLockFile(file: string, signal: AbortSignal | undefined): Promise<void> {
  await fs.mkdir(dirname(file), { recursive: true });
  for (;;) {
    signal?.throwIfAborted();
    try {
      await fs.writeFile(file, `${process.pid}\n`, { flag: "wx" });
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
    const st = await fs.stat(file).catch(() => undefined);
    if (st && Date.now() - st.mtimeMs > STALE_LOCK_MS) {
      await fs.rm(file, { force: true }).catch(() => undefined);
      continue;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

function checkoutOf(spec: Extract<SourceSpec, { kind: "git" }>, dir: string, state: State, note?: string): SourceCheckout {
  // Discovery reads the whole work tree, as it would inside that repository (its .adr-dir, its folder names), and
  // only records under `path` are kept: the same records are found the same way wherever they live.
  const st = statSafe(spec.path ? join(dir, spec.path) : dir);
  if (!st) throw new SourceError(`the path ${spec.path} does not exist at ${state.commit.slice(0, 10)}`);
  if (!st.isDirectory()) throw new SourceError(`the path ${spec.path} is a file, not a folder`);
  return { root: dir, prefix: spec.path ? `${spec.path}/` : "", commit: state.commit, fetched_at: state.fetched_at, ...(note ? { note } : {}) };
}

/** Fetches the ref (or the remote's HEAD) into a private ref and checks it out, detached. Returns the commit. */
async function fetchSource(spec: Extract<SourceSpec, { kind: "git" }>, dir: string, signal?: AbortSignal): Promise<string> {
  await fs.mkdir(dir, { recursive: true });
  if (!statSafe(join(dir, ".git"))) await runGit(dir, ["init", "--quiet"], { signal });
  const refspec = `+${spec.ref ?? "HEAD"}:refs/deliberate/tip`;
  try {
    await runGit(dir, ["fetch", "--quiet", "--no-tags", "--no-recurse-submodules", "--no-write-fetch-head", "--", spec.url, refspec], { signal, scheme: spec.scheme });
  } catch (err) {
    const msg = oneLine(err);
    if (/couldn't find remote ref|invalid refspec|not our ref/i.test(msg)) throw new SourceError(`the ref ${spec.ref ?? "HEAD"} does not exist there`);
    if (/does not appear to be a git repository|repository .* not found|could not read from remote|unable to access|could not resolve host|connection refused|no such file/i.test(msg)) {
      throw new SourceError(`unreachable (${msg.replace(/^fatal:\s*/, "").slice(0, 160)})`);
    }
    throw new SourceError(`fetch failed: ${msg.slice(0, 200)}`);
  }
  const commit = (await runGit(dir, ["rev-parse", "--verify", "--quiet", "refs/deliberate/tip^{commit}"], { signal })).trim();
  if (!/^[0-9a-f]{40,64}$/.test(commit)) throw new SourceError(`the ref ${spec.ref ?? "HEAD"} names no commit`);
  // Every commit a receipt may cite stays reachable, so `verify --evidence` can re-read the source at it.
  await runGit(dir, ["update-ref", `refs/deliberate/seen/${commit}`, commit], { signal });
  // No symlinks in the copy: a link would read as a text file holding its target, never as the file it names.
  await runGit(dir, ["-c", "core.symlinks=false", "checkout", "--quiet", "--force", "--detach", commit], { signal });
  return commit;
}

/**
 * The text of `path` (from the source's top) at `commit`, from a git source's cached copy or a folder's own
 * repository: undefined when the commit or the file is not there.
 */
export async function readAtCommit(gitDir: string, commit: string, path: string, signal?: AbortSignal): Promise<string | undefined> {
  if (!/^[0-9a-f]{7,64}$/.test(commit) || path.includes("\0") || path.startsWith("-")) return undefined;
  return runGit(gitDir, ["cat-file", "blob", `${commit}:${path}`], { signal }).catch(() => undefined);
}

/** Where a git source's copy lives, whether or not it was fetched yet. */
export function cachedCopyOf(spec: Extract<SourceSpec, { kind: "git" }>, cacheRoot?: string): string {
  return join(resolve(cacheRoot ?? sourcesCacheRoot()), cacheKeyOf(spec));
}

interface GitOptions {
  signal?: AbortSignal;
  /** The one transport this call may use (fetch only); every other call has none. */
  scheme?: "https" | "ssh" | "file";
}

function runGit(cwd: string, args: string[], opts: GitOptions): Promise<string> {
  const transport = opts.scheme ? ["-c", `protocol.${opts.scheme}.allow=always`] : [];
  return new Promise((res, rej) => {
    execFile(
      "git",
      [...hardenedGitArgs(), "-c", "gc.auto=0", "-c", "submodule.recurse=false", ...transport, ...args],
      { cwd, env: hardenedGitEnv(), signal: opts.signal, timeout: 120_000, windowsHide: true, encoding: "utf8", maxBuffer: 8 * 1024 * 1024 },
      (err, stdout, stderr) => {
        if (opts.signal?.aborted) return rej(opts.signal.reason ?? new Error("aborted"));
        if (err) return rej(new Error(redactText(firstLine(stderr) || (err instanceof Error ? err.message : String(err)))));
        res(stdout);
      },
    );
  });
}

async function readState(file: string): Promise<State | undefined> {
  try {
    const parsed = StateSchema.safeParse(JSON.parse(await fs.readFile(file, "utf8")));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

async function writeState(file: string, state: State): Promise<void> {
  const tmp = `${file}.${process.pid}.tmp`;
  await fs.writeFile(tmp, `${JSON.stringify(state, null, 2)}\n`);
  await fs.rename(tmp, file);
}

function statSafe(p: string) {
  try {
    return statSync(p);
  } catch {
    return undefined;
  }
}

function firstLine(s: string | undefined): string {
  return (s ?? "").split("\n").map((l) => l.trim()).find((l) => l && !/^hint:/i.test(l)) ?? "";
}

function oneLine(err: unknown): string {
  const msg = err instanceof Error ? err.message : String(err);
  return redactText(msg.split("\n").find((l) => l.trim())?.trim() ?? "unknown error").slice(0, 300);
}

/** "12 s ago", "5 min ago", "3 h ago", "2 days ago". */
export function ago(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return "just now";
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  if (s < 172_800) return `${Math.round(s / 3600)} h ago`;
  return `${Math.round(s / 86_400)} days ago`;
}
