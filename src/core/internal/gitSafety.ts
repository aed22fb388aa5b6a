// How every git process is started: never running a program the repository (or a folder shaped like one) names.
//
// A repository's config can name commands git runs on its own: core.fsmonitor (on any command that reads the index,
// e.g. `git ls-files`), hooks, diff.external and textconv drivers, a pager, gpg, remote helpers and ssh for a
// partial clone's lazy fetch. A cloned repository cannot ship its .git/config, but it can commit a folder shaped
// like a bare repository (HEAD, objects/, refs/, config), and a downloaded archive can ship anything. So:
//  - every git call carries HARDENED_CONFIG (command-line `-c` beats every config file) and, for direct spawns,
//    hardenedGitEnv(); commands that produce diffs also pass --no-ext-diff --no-textconv (no config key turns
//    every textconv driver off, and an empty diff.external makes git fail rather than skip it);
//  - safe.bareRepository=explicit makes git itself refuse a bare-shaped folder it would otherwise discover;
//  - checkRepository() refuses a folder whose git directory is not the `.git` at its work tree's top level.
//    Linked worktrees and submodules (a `.git` *file* pointing into another repository's `.git/`) are accepted;
//    a `.git` file pointing anywhere else is refused.
// Filters (filter.<driver>.clean/smudge/process) run when git converts between the work tree and the index: a diff
// against the work tree does (git hashes a stat-dirty file through the clean filter). No config key turns every
// driver off, so the guard's work-tree diffs carry filterOverrides(): each driver the config defines, emptied (an
// empty command is no filter) and not required. A submodule's config names drivers of its own, which a `git status`
// inside it would run when the superproject's diff asks whether it is dirty: those diffs pass
// --ignore-submodules=dirty (guard/change.ts), so no git runs inside a submodule. Every other command we run converts nothing (ls-files, log,
// rev-parse, rev-list, cat-file --batch-check, show of a blob without --textconv).
import { execFile } from "node:child_process";
import { realpathSync, statSync } from "node:fs";
import { isAbsolute, join, resolve, sep } from "node:path";
import type { SimpleGitOptions } from "simple-git";
import { cachedCheck, keepCheck, proofBeforeCheck } from "./gitStateCache";

/** `-c` settings on every git call: git's own defaults for things that run programs, whatever the config says. */
export const HARDENED_CONFIG: readonly string[] = [
  "core.fsmonitor=false",
  "core.hooksPath=/dev/null",
  "safe.bareRepository=explicit",
  "core.pager=cat",
  "log.showSignature=false",
  // No transport at all: a partial clone's lazy fetch would otherwise run ssh or a remote helper from the config.
  "protocol.allow=never",
  "credential.helper=",
];

/** HARDENED_CONFIG as git arguments (`-c k=v` pairs), to put before the subcommand. */
export function hardenedGitArgs(): string[] {
  return HARDENED_CONFIG.flatMap((c) => ["-c", c]);
}

/** Ambient variables that make git run a program or look elsewhere; simple-git strips the same set (every GIT_*). */
const STRIPPED_ENV = /^(GIT_.*|PAGER|EDITOR|VISUAL|SSH_ASKPASS)$/i;

/** The environment for a git process: ambient GIT_* and pager/editor variables removed, ours set. */
export function hardenedGitEnv(base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(base)) if (!STRIPPED_ENV.test(k)) env[k] = v;
  // GIT_NO_LAZY_FETCH: git ≥ 2.44 never fetches a missing object (older gits: protocol.allow=never above).
  return { ...env, GIT_PAGER: "cat", GIT_TERMINAL_PROMPT: "0", GIT_OPTIONAL_LOCKS: "0", GIT_NO_LAZY_FETCH: "1" };
}

/**
 * simple-git options carrying HARDENED_CONFIG. simple-git refuses `-c` keys that can run programs unless the matching
 * `unsafe` flag is set — even to switch them off — so exactly those flags are set, and nothing our own arguments
 * could use (our arguments never contain `-c`).
 */
export function hardenedSimpleGitOptions(): Pick<SimpleGitOptions, "config" | "unsafe"> {
  return {
    config: [...HARDENED_CONFIG],
    unsafe: {
      allowUnsafeFsMonitor: true,
      allowUnsafeHooksPath: true,
      allowUnsafePager: true,
      allowUnsafeProtocolOverride: true,
      allowUnsafeCredentialHelper: true,
    },
  };
}

/** `filter.<driver>.<key>` of a program-running key; the driver name may itself hold dots. */
const FILTER_KEY = /^filter\.(.+)\.(?:clean|smudge|process)$/i;

/**
 * `-c` arguments that switch off every filter driver the configuration (any scope, includes followed) defines, for
 * a git command that reads the work tree through the index (a diff against the work tree). Reading the config runs
 * nothing. No driver, or no config: no arguments.
 */
export function filterOverrides(cwd: string, signal?: AbortSignal): Promise<string[]> {
  return new Promise((res, rej) => {
    execFile(
      "git",
      [...hardenedGitArgs(), "config", "--null", "--get-regexp", "^filter\\."],
      { cwd, env: hardenedGitEnv(), signal, timeout: 15_000, windowsHide: true, encoding: "utf8", maxBuffer: 4 * 1024 * 1024 },
      (err, stdout) => {
        // A config git could not list in time: the diff would run whatever drivers it names, so it does not run.
        if (err && (err.killed || err.signal) && !signal?.aborted) return rej(new Error("git config did not finish within 15 s: the drivers it names could not be switched off"));
        // Exit 1 is "no such key"; any other failure leaves the command as it was (it is hardened either way, and a
        // config git cannot read fails the diff too).
        if (err && !stdout) return res([]);
        const drivers = new Set<string>();
        for (const entry of stdout.split("\0")) {
          const m = FILTER_KEY.exec(entry.split("\n")[0] ?? "");
          if (m) drivers.add(m[1]);
        }
        res([...drivers].sort().flatMap((d) => ["-c", `filter.${d}.clean=`, "-c", `filter.${d}.smudge=`, "-c", `filter.${d}.process=`, "-c", `filter.${d}.required=false`]));
      },
    );
  });
}

/** The folder cannot be used: one line saying why. */
export class UnsafeRepositoryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UnsafeRepositoryError";
  }
}

export type RepositoryCheck =
  /** A work tree whose git directory is its top level's `.git` (or a worktree/submodule gitfile). */
  | { kind: "work-tree"; toplevel: string; gitDir: string }
  /** Not inside any repository (or git is missing): a plain folder, walked without git. */
  | { kind: "none" };

const REV_PARSE = ["rev-parse", "--show-toplevel", "--absolute-git-dir"];

/** Decides from `git rev-parse --show-toplevel --absolute-git-dir` (its output, or its error). */
function decide(dir: string, result: { stdout: string } | { error: string }): RepositoryCheck {
  const refuse = (why?: string) =>
    new UnsafeRepositoryError(`not a git repository with a .git folder at its top: ${dir}${why ? ` (${why})` : ""}`);
  if ("error" in result) {
    const e = result.error;
    if (/not a git repository/i.test(e) || /ENOENT/.test(e)) return { kind: "none" };
    // A repository another user owns: git refuses every command there (safe.directory), so none of its config can
    // run either; the folder is read like a plain one and the git stage says why it has no history.
    if (/dubious ownership/i.test(e)) return { kind: "none" };
    if (/cannot use bare repository/i.test(e)) throw refuse("it is a git directory, or a folder shaped like a bare repository");
    if (/must be run in a work tree/i.test(e)) throw refuse("it is inside a git directory, not a work tree");
    throw refuse(e.split("\n").find((l) => l.trim())?.replace(/^fatal:\s*/, "").slice(0, 200));
  }
  const [top, gitDir] = result.stdout.split("\n").map((l) => l.trim());
  if (!top || !gitDir) throw refuse("git names no work tree");
  const real = (p: string) => {
    try {
      return realpathSync(p);
    } catch {
      return resolve(p);
    }
  };
  const toplevel = real(top);
  const realGitDir = real(isAbsolute(gitDir) ? gitDir : join(dir, gitDir));
  const dotGit = join(toplevel, ".git");
  const st = statSafe(dotGit);
  if (st?.isDirectory()) {
    if (real(dotGit) === realGitDir) return { kind: "work-tree", toplevel, gitDir: realGitDir };
    throw refuse(`its git directory is ${realGitDir}`);
  }
  // A gitfile: linked worktrees (.git/worktrees/NAME) and submodules (.git/modules/NAME…) live inside another
  // repository's `.git` folder; a gitfile naming that `.git` itself is refused.
  if (st?.isFile() && isWorktreeOrModuleDir(realGitDir)) return { kind: "work-tree", toplevel, gitDir: realGitDir };
  throw refuse(`its git directory is ${realGitDir}`);
}

function isWorktreeOrModuleDir(gitDir: string): boolean {
  const parts = gitDir.split(sep);
  const at = parts.lastIndexOf(".git");
  if (at < 0) return false;
  const rest = parts.slice(at + 1);
  if (rest[0] === "worktrees") return rest.length === 2 && !!rest[1];
  // A submodule's name may hold slashes ("vendor/lib"), and its own submodules nest under it.
  return rest[0] === "modules" && rest.length >= 2;
}

function statSafe(p: string) {
  try {
    return statSync(p);
  } catch {
    return undefined;
  }
}

function errorText(err: unknown, stderr: unknown): string {
  const s = typeof stderr === "string" ? stderr : Buffer.isBuffer(stderr) ? stderr.toString("utf8") : "";
  if (s.trim()) return s;
  const e = err as NodeJS.ErrnoException & { stderr?: unknown };
  if (e?.code === "ENOENT") return "ENOENT: git is not installed";
  return e instanceof Error ? e.message : String(err);
}

/**
 * Is `dir` a folder git may be run in? A plain folder outside any repository is ("none"); a work tree whose git
 * directory is its top level's `.git` is; anything else (a bare-shaped folder, a git directory, a work tree whose
 * git directory lives elsewhere) throws an UnsafeRepositoryError with one line. The check itself runs hardened.
 */
export function checkRepository(dir: string, signal?: AbortSignal): Promise<RepositoryCheck> {
  if (signal?.aborted) return Promise.reject(signal.reason ?? new Error("aborted"));
  // A long-lived process asks this for every question: while the folder's layout is provably the same, the verdict
  // is too (gitStateCache.ts), and no git runs.
  const key = resolve(dir);
  const cached = cachedCheck<Extract<RepositoryCheck, { kind: "work-tree" }>>(key);
  if (cached) return Promise.resolve({ ...cached });
  const proof = proofBeforeCheck(key);
  return new Promise((res, rej) => {
    execFile(
      "git",
      [...hardenedGitArgs(), ...REV_PARSE],
      { cwd: dir, env: hardenedGitEnv(), signal, timeout: 15_000, windowsHide: true, encoding: "utf8" },
      (err, stdout, stderr) => {
        if (signal?.aborted) return rej(signal.reason ?? new Error("aborted"));
        try {
          const check = decide(dir, err ? { error: errorText(err, stderr) } : { stdout });
          if (check.kind === "work-tree") keepCheck(key, proof, { ...check });
          res(check);
        } catch (e) {
          rej(e);
        }
      },
    );
  });
}

/** Throws an UnsafeRepositoryError unless `dir` is a plain folder or a normal work tree (see checkRepository). */
export async function assertNormalRepo(dir: string, signal?: AbortSignal): Promise<void> {
  await checkRepository(dir, signal);
}
