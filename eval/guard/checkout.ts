// Sparse working trees of the eval corpus's repositories at their pinned commits, for the guard's seeded changes:
// the repository's root files, its decision-record folder, and every file a seeded change touches. Objects are
// shared with the mirror (git clone --shared), so a checkout costs only the files it writes.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface CorpusRepo {
  name: string;
  mirror: string;
  sha: string;
  adr_dir?: string;
  /** Folders the checkout also needs: instruction files that AGENTS.md or CLAUDE.md point to (`.agents/`). */
  extra_paths?: string[];
}

const ROOT = join(__dirname, "../..");

/** The question eval's repositories, and the guard's own extra ones (eval/guard/repos.json, held-out only). */
export function corpusRepos(): CorpusRepo[] {
  const read = (f: string) => (JSON.parse(readFileSync(join(ROOT, "eval", f), "utf8")) as { repos: CorpusRepo[] }).repos;
  return [...read("corpus.json"), ...read("corpus-test.json"), ...read("guard/repos.json")];
}

export function git(args: string[], input?: string): string {
  return execFileSync("git", ["-c", "core.hooksPath=/dev/null", "-c", "core.fsmonitor=false", ...args], {
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
    input,
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null", GIT_AUTHOR_NAME: "eval", GIT_AUTHOR_EMAIL: "eval@example.test", GIT_COMMITTER_NAME: "eval", GIT_COMMITTER_EMAIL: "eval@example.test" },
    stdio: ["pipe", "pipe", "pipe"],
  });
}

function mirrorGitDir(mirrors: string, repo: CorpusRepo): string {
  for (const candidate of [join(mirrors, repo.mirror, "repo"), join(mirrors, repo.mirror)]) {
    if (existsSync(join(candidate, "HEAD")) && existsSync(join(candidate, "objects"))) return candidate;
  }
  throw new Error(`no git mirror for ${repo.name} under ${join(mirrors, repo.mirror)}`);
}

const escape = (p: string) => p.replace(/[\\*?[\]!#]/g, (c) => `\\${c}`);

/** A fresh sparse checkout of `repo` at its pinned commit with `files` present; returns its folder. */
export function sparseCheckout(mirrors: string, workRoot: string, repo: CorpusRepo, files: string[], id: string): string {
  const dir = join(workRoot, `${repo.mirror}-${id}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(workRoot, { recursive: true });
  git(["clone", "--quiet", "--shared", "--no-checkout", mirrorGitDir(mirrors, repo), dir]);
  git(["-C", dir, "config", "core.sparseCheckout", "true"]);
  // Root files, the records, the instruction files wherever they are, and what the change touches.
  const patterns = ["/*", "!/*/", ...(repo.adr_dir ? [`/${escape(repo.adr_dir)}/`] : []), "AGENTS.md", "CLAUDE.md", "CONTRIBUTING.md", "/.github/", ...(repo.extra_paths ?? []).map((p) => `/${escape(p)}`), ...files.map((f) => `/${escape(f)}`)];
  writeFileSync(join(dir, ".git", "info", "sparse-checkout"), `${patterns.join("\n")}\n`);
  git(["-C", dir, "checkout", "--quiet", "--detach", repo.sha]);
  return dir;
}
