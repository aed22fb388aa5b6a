import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import { resolveConfig } from "../../src/core/config";
import { evidenceId } from "../../src/core/hash";
import { createGitExpert } from "../../src/core/internal/git";
import { EvidenceItemSchema } from "../../src/core/schemas";
import type { DeliberationConfig, ExpertContext } from "../../src/core/types";
import { createSampleRepo } from "../fixtures/sampleRepo";
import { GIT_ENV, commit, createGitRepo, git, makeTempDir } from "../helpers/gitRepo";

function context(
  repo: string,
  terms: string[],
  opts: { expansions?: string[]; git?: Partial<DeliberationConfig["git"]>; signal?: AbortSignal; logs?: string[] } = {},
): ExpertContext {
  const config = resolveConfig();
  return {
    repo,
    question: terms.join(" "),
    plan: { mode: "rules", terms, expansions: opts.expansions ?? [] },
    // A budget a loaded test machine never reaches: the history is indexed for each question (git.ts).
    config: { ...config, git: { ...config.git, maxMs: 60_000, ...(opts.git ?? {}) } },
    artifacts: { files: [], skipped: [], hash: "" },
    signal: opts.signal ?? new AbortController().signal,
    log: (m) => opts.logs?.push(m),
  };
}

/**
 * A linear history of `count` commits built with one `git fast-import` run (seconds faster than `count` separate
 * `git commit` calls). Every commit rewrites one of 40 small modules; a few early ones mention pino.
 */
function createLargeRepo(count: number): string {
  const dir = makeTempDir("delib-large-");
  git(dir, ["init", "-q", "-b", "main"]);
  const parts: string[] = [];
  const data = (s: string) => `data ${Buffer.byteLength(s)}\n${s}`;
  const base = Date.UTC(2015, 0, 1) / 1000;
  for (let i = 1; i <= count; i++) {
    const ts = base + i * 3600;
    const message = i % 997 === 0 ? `Switch module ${i} logging to pino\n\nThe old logger was slow.\n` : `chore: tune module ${i % 40} (step ${i})\n`;
    const content = `// module ${i % 40}\nexport const value = ${i};\nexport function step${i}() { return ${i} * 2; }\n${i % 500 === 0 ? "import pino from 'pino';\n" : ""}`;
    parts.push(
      "commit refs/heads/main",
      `mark :${i}`,
      `author Test Author <author@example.test> ${ts} +0000`,
      `committer Test Author <author@example.test> ${ts} +0000`,
      data(message),
      ...(i > 1 ? [`from :${i - 1}`] : []),
      `M 100644 inline src/module${i % 40}.ts`,
      data(content),
      "",
    );
  }
  execFileSync("git", ["fast-import", "--quiet"], { cwd: dir, env: GIT_ENV, input: parts.join("\n") + "\n", stdio: ["pipe", "ignore", "pipe"] });
  return dir;
}

const cleanup: string[] = [];
after(() => {
  for (const dir of cleanup) rmSync(dir, { recursive: true, force: true });
});

describe("git expert on the sample repository", () => {
  let repo: string;
  before(() => {
    repo = createSampleRepo();
    cleanup.push(repo);
  });

  it("names itself", () => {
    const expert = createGitExpert();
    assert.equal(expert.name, "git");
    assert.equal(expert.kind, "internal");
  });

  it("finds the winston -> pino migration with its sha and touched file", async () => {
    const result = await createGitExpert().run(context(repo, ["winston", "pino", "logging"]));
    assert.equal(result.status, "ok");
    assert.ok(!result.truncated, result.reason);
    const top = result.items[0];
    assert.equal(top.title, "Replace winston with pino for structured logging");
    const sha = git(repo, ["log", "--format=%H", "--grep=Replace winston", "HEAD"]).trim();
    assert.match(sha, /^[0-9a-f]{40}$/);
    assert.equal(top.commit, sha);
    // The touched file whose path names a term wins over package.json and src/log.ts.
    assert.equal(top.path_or_url, "docs/decisions/20240312-use-pino-for-logging.md");
    assert.equal(top.kind, "internal");
    assert.equal(top.expert, "git");
    assert.equal(top.source_type, "commit");
    assert.equal(top.precision_class, "commit");
    assert.equal(top.id, evidenceId({ kind: "internal", path_or_url: top.path_or_url, commit: sha }));
    assert.match(top.excerpt, /^Replace winston with pino for structured logging/);
    assert.match(top.excerpt, /\(files: docs\/decisions\/20240312-use-pino-for-logging\.md, package\.json, src\/log\.ts\)$/);
    for (const item of result.items) {
      EvidenceItemSchema.parse(item);
      assert.match(item.commit ?? "", /^[0-9a-f]{40}$/);
      assert.notEqual(item.path_or_url, ".");
      assert.ok(item.path_or_url.length > 0);
    }
  });

  it("finds the MongoDB -> PostgreSQL migration commit", async () => {
    const result = await createGitExpert().run(context(repo, ["mongodb", "postgresql"]));
    assert.equal(result.status, "ok");
    const sha = git(repo, ["log", "--format=%H", "--grep=Migrate orders", "HEAD"]).trim();
    const migration = result.items.find((i) => i.commit === sha);
    assert.ok(migration, `migration commit missing from ${result.items.map((i) => i.title).join(" | ")}`);
    assert.equal(migration.title, "Migrate orders from MongoDB to PostgreSQL");
    assert.ok(["package.json", "src/db/client.ts"].includes(migration.path_or_url), migration.path_or_url);
    // So is the record that decided the move (its diff names both databases).
    assert.ok(result.items.some((i) => i.title === "ADR 5: move order storage to PostgreSQL, superseding ADR 2"));
  });

  it("is deterministic and orders by score", async () => {
    const ctx = () => context(repo, ["mongodb", "postgresql", "orders"], { expansions: ["storage", "database"] });
    const a = await createGitExpert().run(ctx());
    const b = await createGitExpert().run(ctx());
    assert.deepEqual(a, b);
    for (let i = 1; i < a.items.length; i++) assert.ok(a.items[i - 1].score >= a.items[i].score);
  });

  it("ignores short and common terms and reports when nothing is usable", async () => {
    const result = await createGitExpert().run(context(repo, ["a", "to", "fix", "add"]));
    assert.equal(result.status, "empty");
    assert.match(result.reason ?? "", /no usable search terms/);
  });

  it("reports empty with a reason when nothing matches", async () => {
    const result = await createGitExpert().run(context(repo, ["kubernetes"]));
    assert.equal(result.status, "empty");
    assert.match(result.reason ?? "", /no commits matched kubernetes/);
    assert.deepEqual(result.items, []);
  });

  it("respects maxResults", async () => {
    const result = await createGitExpert().run(context(repo, ["adr", "orders", "postgresql", "mongodb"], { git: { maxResults: 2 } }));
    assert.equal(result.items.length, 2);
  });
});

describe("git expert edge cases", () => {
  it("returns empty for a directory that is not a git repository", async () => {
    const dir = makeTempDir("delib-nogit-");
    cleanup.push(dir);
    const result = await createGitExpert().run(context(dir, ["pino"]));
    assert.equal(result.status, "empty");
    assert.match(result.reason ?? "", /^not a git repository: /);
    assert.ok(result.reason?.includes(dir));
    assert.deepEqual(result.items, []);
  });

  it("returns empty for a directory that does not exist", async () => {
    const result = await createGitExpert().run(context("/nonexistent/delib-git-test", ["pino"]));
    assert.equal(result.status, "empty");
    assert.match(result.reason ?? "", /^not a git repository: \/nonexistent\/delib-git-test/);
  });

  it("returns empty with a reason when git itself is missing", async () => {
    const repo = createSampleRepo();
    const emptyBin = makeTempDir("delib-nobin-");
    cleanup.push(repo, emptyBin);
    const savedPath = process.env.PATH;
    process.env.PATH = emptyBin;
    try {
      const result = await createGitExpert().run(context(repo, ["pino"]));
      assert.equal(result.status, "empty");
      assert.match(result.reason ?? "", /^not a git repository: .*git is not available/);
    } finally {
      process.env.PATH = savedPath;
    }
  });

  it("returns empty for a repository with no commits", async () => {
    const dir = makeTempDir("delib-nocommit-");
    cleanup.push(dir);
    git(dir, ["init", "-q", "-b", "main"]);
    const result = await createGitExpert().run(context(dir, ["pino"]));
    assert.equal(result.status, "empty");
    assert.match(result.reason ?? "", /no commits yet/);
  });

  it("never cites a commit that touched no files", async () => {
    const repo = createGitRepo([
      { message: "Initial commit", files: { "README.md": "# x\n" } },
      { message: "Adopt pino everywhere (empty marker commit)" },
      { message: "Introduce pino logger", files: { "src/logger.ts": "export const logger = 1;\n", "package-lock.json": "{}\n" } },
      { message: "Drop pino from the lockfile", files: { "package-lock.json": "{\"pino\":1}\n" } },
    ]);
    cleanup.push(repo);
    const result = await createGitExpert().run(context(repo, ["pino"]));
    assert.equal(result.status, "ok");
    assert.deepEqual(
      result.items.map((i) => i.title),
      ["Drop pino from the lockfile", "Introduce pino logger"],
    );
    // The first non-lock file is preferred; a lock file is cited only when it is all the commit touched.
    assert.deepEqual(
      result.items.map((i) => i.path_or_url),
      ["package-lock.json", "src/logger.ts"],
    );
  });

  it("cites merge commits by their first-parent diff and keeps unusual paths intact", async () => {
    const repo = createGitRepo([{ message: "Initial commit", files: { "README.md": "# x\n" } }]);
    cleanup.push(repo);
    git(repo, ["checkout", "-q", "-b", "feature"]);
    commit(repo, { message: "wip", files: { "docs/décisions/log ging.md": "we log with pino\n" } }, 1);
    git(repo, ["checkout", "-q", "main"]);
    const date = new Date(Date.UTC(2024, 0, 5)).toISOString();
    git(repo, ["merge", "-q", "--no-ff", "-m", "Merge branch 'feature': adopt pino for logging", "feature"], {
      GIT_AUTHOR_DATE: date,
      GIT_COMMITTER_DATE: date,
    });
    const result = await createGitExpert().run(context(repo, ["pino"]));
    assert.equal(result.status, "ok");
    const merge = result.items.find((i) => i.title?.startsWith("Merge branch"));
    assert.ok(merge, result.items.map((i) => i.title).join(" | "));
    assert.equal(merge.commit, git(repo, ["rev-parse", "HEAD"]).trim());
    assert.equal(merge.path_or_url, "docs/décisions/log ging.md");
  });

  it("rejects when the pipeline signal aborts mid-run", async () => {
    const repo = createSampleRepo();
    cleanup.push(repo);
    const controller = new AbortController();
    const pending = createGitExpert().run(context(repo, ["winston", "pino"], { signal: controller.signal }));
    setTimeout(() => controller.abort(new Error("cancelled by test")), 2);
    await assert.rejects(pending, /cancelled by test/);
  });

  it("rejects at once when the signal is already aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    const dir = makeTempDir();
    cleanup.push(dir);
    await assert.rejects(createGitExpert().run(context(dir, ["pino"], { signal: controller.signal })), { name: "AbortError" });
  });
});

describe("git expert budget on a 3000-commit history", () => {
  let repo: string;
  let buildMs = 0;
  before(() => {
    const t = performance.now();
    repo = createLargeRepo(3000);
    cleanup.push(repo);
    buildMs = Math.round(performance.now() - t);
  });

  it("finds the old switch-to-pino commits by message across the whole history", async () => {
    const result = await createGitExpert().run(context(repo, ["pino"]));
    assert.equal(result.status, "ok");
    assert.ok(!result.truncated, result.reason);
    const titles = result.items.map((i) => i.title);
    assert.ok(titles.includes("Switch module 997 logging to pino"), titles.join(" | "));
    assert.ok(titles.includes("Switch module 2991 logging to pino"), titles.join(" | "));
  });

  it("cites no commit and says so when the budget expires before the history is indexed", async (t) => {
    t.diagnostic(`built the 3000-commit repo with fast-import in ${buildMs} ms`);
    const started = performance.now();
    const result = await createGitExpert().run(context(repo, ["pino", "module"], { git: { maxMs: 1 } }));
    const ms = performance.now() - started;
    t.diagnostic(`maxMs 1: ${Math.round(ms)} ms, status ${result.status}, reason: ${result.reason}`);
    assert.ok(ms < 2000, `took ${ms} ms`);
    assert.equal(result.truncated, true);
    assert.deepEqual(result.items, []);
    assert.match(result.reason ?? "", /git history search cut short at the 1 ms budget/);
  });
});
