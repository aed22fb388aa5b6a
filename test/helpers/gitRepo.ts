// Builds real git repositories in temp dirs for tests and benchmarks.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

export const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: "Test Author",
  GIT_AUTHOR_EMAIL: "author@example.test",
  GIT_COMMITTER_NAME: "Test Author",
  GIT_COMMITTER_EMAIL: "author@example.test",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
};

export function git(repo: string, args: string[], env: Record<string, string> = {}): string {
  return execFileSync("git", args, { cwd: repo, env: { ...GIT_ENV, ...env }, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

export function makeTempDir(prefix = "delib-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function writeFiles(root: string, files: Record<string, string | Buffer>): void {
  for (const [rel, content] of Object.entries(files)) {
    const abs = join(root, rel);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, content);
  }
}

export interface CommitSpec {
  message: string;
  files?: Record<string, string | Buffer>;
  remove?: string[];
  /** ISO date for author and committer, so histories are reproducible. */
  date?: string;
}

/** Creates a repo and applies the commits in order. Returns the repo path. */
export function createGitRepo(commits: CommitSpec[], dir = makeTempDir()): string {
  git(dir, ["init", "-q", "-b", "main"]);
  commits.forEach((c, i) => commit(dir, c, i));
  return dir;
}

export function commit(repo: string, c: CommitSpec, index = 0): string {
  if (c.files) writeFiles(repo, c.files);
  for (const rel of c.remove ?? []) rmSync(join(repo, rel), { force: true });
  git(repo, ["add", "-A"]);
  const date = c.date ?? new Date(Date.UTC(2024, 0, 1 + index)).toISOString();
  git(repo, ["commit", "-q", "--allow-empty", "-m", c.message], { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date });
  return git(repo, ["rev-parse", "HEAD"]).trim();
}
