// Runs the built `deliberate` CLI (dist/cli.js) as a real process: the one harness every CLI test uses.
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { makeTempDir } from "./gitRepo";

// DELIBERATE_TEST_CLI runs the same tests against another build (e.g. the code before a fix, to see them fail).
export const CLI = process.env.DELIBERATE_TEST_CLI ?? resolve(__dirname, "../../dist/cli.js");

export interface CliRun {
  /** The exit code; null when the process was killed (a timeout). */
  code: number | null;
  stdout: string;
  stderr: string;
  /** Wall-clock time from spawn to exit. */
  ms: number;
}

export interface CliOptions {
  /** The whole environment of the process (default: this process's). A CliUser's `env` keeps keys and caches apart. */
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Run as another user (tests that need an unprivileged process when they run as root). */
  uid?: number;
  gid?: number;
  /** Synchronous runs only. Default 60 000 ms. */
  timeoutMs?: number;
}

/** A person using the CLI: a signing-key folder and a cache folder of their own, both outside every repository. */
export interface CliUser {
  keyDir: string;
  cacheHome: string;
  env: NodeJS.ProcessEnv;
}

export function newCliUser(): CliUser {
  const keyDir = makeTempDir("delib-cli-keys-");
  const cacheHome = makeTempDir("delib-cli-cache-");
  return { keyDir, cacheHome, env: { ...process.env, DELIBERATIVE_KEY_DIR: keyDir, XDG_CACHE_HOME: cacheHome, DELIBERATIVE_SIGNER_NAME: "" } };
}

export function assertCliBuilt(): void {
  assert.ok(existsSync(CLI), `${CLI} is missing: run \`npm run build\` first`);
}

/** Runs the CLI to completion. Blocks this process, so a server living in it cannot answer: use runCliAsync then. */
export function runCli(args: string[], opts: CliOptions = {}): CliRun {
  const started = performance.now();
  const r = spawnSync(process.execPath, [CLI, ...args], {
    cwd: opts.cwd,
    env: opts.env ?? process.env,
    encoding: "utf8",
    timeout: opts.timeoutMs ?? 60_000,
    ...(opts.uid !== undefined ? { uid: opts.uid } : {}),
    ...(opts.gid !== undefined ? { gid: opts.gid } : {}),
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, ms: performance.now() - started };
}

/** Like runCli, but this process keeps running meanwhile: for in-process servers and concurrent runs. */
export function runCliAsync(args: string[], opts: CliOptions = {}): Promise<CliRun> {
  const started = performance.now();
  return new Promise((done, fail) => {
    const p = spawn(process.execPath, [CLI, ...args], {
      cwd: opts.cwd,
      env: opts.env ?? process.env,
      ...(opts.uid !== undefined ? { uid: opts.uid } : {}),
      ...(opts.gid !== undefined ? { gid: opts.gid } : {}),
    });
    let stdout = "";
    let stderr = "";
    p.stdout.on("data", (d) => (stdout += d));
    p.stderr.on("data", (d) => (stderr += d));
    p.on("error", fail);
    p.on("close", (code) => done({ code, stdout, stderr, ms: performance.now() - started }));
  });
}

/** Runs the CLI, asserts it exited 0, and parses its stdout as JSON. */
export function runCliJson<T = unknown>(args: string[], opts: CliOptions = {}): T {
  const r = runCli(args, opts);
  assert.equal(r.code, 0, `exit ${r.code}: ${r.stderr}`);
  return JSON.parse(r.stdout) as T;
}

/** A usage or check failure: the given exit code and exactly one line on stderr, with no stack trace. */
export function assertOneLineError(r: Pick<CliRun, "code" | "stdout" | "stderr">, code: number, pattern: RegExp): void {
  assert.equal(r.code, code, `exit ${r.code}: ${r.stdout}${r.stderr}`);
  const lines = r.stderr.trim().split("\n");
  assert.equal(lines.length, 1, `one line on stderr, got: ${r.stderr}`);
  assert.match(lines[0], pattern);
  assert.doesNotMatch(r.stderr, /\n\s+at /, "no stack trace");
}
