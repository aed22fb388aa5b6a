// How the guard runs git (change.ts): hardened (internal/gitSafety.ts), its output read up to a byte and a line limit,
// then git is stopped. Git runs in a process group of its own, so stopping it (the limit reached, the 30 s timeout, a
// cancellation) kills whatever it started too, and the run settles when git exits, not when the last holder of its
// pipes lets go. A git that outlives the timeout is a check that could not run (GitTimeoutError), never bad input.
import { spawn, type ChildProcess } from "node:child_process";
import { hardenedGitArgs, hardenedGitEnv } from "../internal/gitSafety";

/** Bytes of `git diff` output read at most. */
export const MAX_DIFF_BYTES = 16 * 1024 * 1024;

/** How long one git process may take; tests lower it. */
export const gitTimeout = { ms: 30_000 };

/** Git did not finish within gitTimeout.ms: the check could not run (not a finding, not bad input). */
export class GitTimeoutError extends Error {
  override name = "GitTimeoutError";
  constructor(command: string, ms: number) {
    super(`git ${command} did not finish within ${ms % 1000 === 0 ? ms / 1000 : (ms / 1000).toFixed(1)} s`);
  }
}

export interface GitRun {
  stdout: string;
  code: number | null;
  stderr: string;
  /** Output stopped at maxBytes or maxLines (git was stopped there). */
  cut: boolean;
}

export interface GitRunOptions {
  signal?: AbortSignal;
  maxBytes?: number;
  maxLines?: number;
  /** `-c` arguments put before the subcommand. */
  config?: string[];
}

const POSIX = process.platform !== "win32";

/** Stops git and everything it started (its process group on POSIX). */
function killTree(child: ChildProcess): void {
  try {
    if (POSIX && child.pid) process.kill(-child.pid, "SIGKILL");
    else child.kill("SIGKILL");
  } catch {
    child.kill("SIGKILL");
  }
}

/** Keeps git's stdout up to maxBytes and maxLines; `take` returns true once a limit is reached. */
function outputReader(maxBytes: number, maxLines: number) {
  const chunks: Buffer[] = [];
  let bytes = 0;
  let lines = 0;
  return {
    take(d: Buffer): boolean {
      let take = d;
      if (bytes + d.length > maxBytes) take = d.subarray(0, maxBytes - bytes);
      for (let i = take.indexOf(10); i >= 0; i = take.indexOf(10, i + 1)) {
        if (++lines > maxLines) {
          take = take.subarray(0, i + 1);
          break;
        }
      }
      chunks.push(take);
      bytes += take.length;
      return take.length < d.length || lines > maxLines;
    },
    text: () => Buffer.concat(chunks).toString("utf8"),
  };
}

/** Runs git with the hardened config; stops reading (and stops git) at maxBytes or maxLines of output. */
export function runGit(cwd: string, args: string[], opts: GitRunOptions = {}): Promise<GitRun> {
  const out = outputReader(opts.maxBytes ?? MAX_DIFF_BYTES, opts.maxLines ?? Number.POSITIVE_INFINITY);
  const timeoutMs = gitTimeout.ms;
  return new Promise((resolve, reject) => {
    if (opts.signal?.aborted) return reject(opts.signal.reason ?? new Error("aborted"));
    const child = spawn("git", [...hardenedGitArgs(), "-c", "core.quotePath=false", ...(opts.config ?? []), ...args], {
      cwd,
      env: hardenedGitEnv(),
      detached: POSIX,
      stdio: ["ignore", "pipe", "pipe"],
      windowsHide: true,
    });
    let stopped: "cut" | "timeout" | "abort" | undefined;
    let exited: { code: number | null } | undefined;
    let settled = false;
    let stderr = "";
    const stop = (why: "cut" | "timeout" | "abort") => {
      if (stopped) return;
      stopped = why;
      killTree(child);
      if (exited) finish(exited.code);
    };
    const timer = setTimeout(() => stop("timeout"), timeoutMs);
    const onAbort = () => stop("abort");
    opts.signal?.addEventListener("abort", onAbort, { once: true });
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      opts.signal?.removeEventListener("abort", onAbort);
      child.stdout?.destroy();
      child.stderr?.destroy();
      fn();
    };
    child.stdout!.on("data", (d: Buffer) => {
      if (!stopped && out.take(d)) stop("cut");
    });
    child.stderr!.on("data", (d: Buffer) => {
      if (stderr.length < 4000) stderr += d.toString("utf8");
    });
    child.on("error", (err) => settle(() => reject(err)));
    const finish = (code: number | null) =>
      settle(() => {
        if (stopped === "abort" || opts.signal?.aborted) return reject(opts.signal?.reason ?? new Error("aborted"));
        if (stopped === "timeout") return reject(new GitTimeoutError(args.find((a) => !a.startsWith("-")) ?? "", timeoutMs));
        resolve({ stdout: out.text(), code: stopped === "cut" ? 0 : code, stderr, cut: stopped === "cut" });
      });
    // After a stop, git's exit settles the run: a process that kept its pipes open must not hold the check.
    child.on("exit", (code) => {
      exited = { code };
      if (stopped) finish(code);
    });
    child.on("close", (code) => finish(code));
  });
}

/** Git's stdout when it exits 0, else undefined. */
export async function gitOk(cwd: string, args: string[], signal?: AbortSignal): Promise<string | undefined> {
  const r = await runGit(cwd, args, { signal, maxBytes: 1024 * 1024 });
  return r.code === 0 ? r.stdout.trim() : undefined;
}
