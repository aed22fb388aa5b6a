// Git facts a long-lived process keeps between questions (src/core/internal/gitStateCache.ts): the repository check,
// HEAD, the tracked-lock listing and the code-usage scope's listings. Each case asks twice so the fact is kept (a
// fact is kept only under a proof taken before git looked), counts the git processes, changes the repository the
// way a user would, and checks that the next answer is git's new one, not the kept one.
import { describe, test, beforeEach } from "node:test";
import assert from "node:assert/strict";
import { appendFileSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { checkRepository } from "../../src/core/internal/gitSafety";
import { readRepoState } from "../../src/core/internal/history";
import { listUsageScope } from "../../src/core/internal/codeUsageScope";
import { listTrackedLocks } from "../../src/core/internal/codeUsage";
import { forgetGitState } from "../../src/core/internal/gitStateCache";
import { closeKeptBatchChecks, notCommits } from "../../src/core/internal/history/gitStream";
import { createGitRepo, git, makeTempDir } from "../helpers/gitRepo";

/** A file the racy-stat rule does not doubt: older than the window in which a stat cannot prove anything. */
const settle = () => new Promise((r) => setTimeout(r, 60));

function repoWithCode(): string {
  return createGitRepo([
    {
      message: "service",
      files: {
        "package.json": '{ "dependencies": { "pg": "^8.0.0" } }\n',
        "package-lock.json": "{}\n",
        "src/db.ts": 'import { Pool } from "pg";\n',
        "docs/adr/0001-db.md": "# Use PostgreSQL\n",
        ".gitignore": "*.log\n",
      },
    },
  ]);
}

/** Counts the git processes started while `fn` runs (child_process.spawn and execFile both go through spawn). */
async function gitRuns<T>(fn: () => Promise<T>): Promise<{ value: T; runs: number }> {
  const proto = (require("node:child_process") as typeof import("node:child_process")).ChildProcess.prototype as unknown as { spawn: (o: { file?: string }) => unknown };
  const original = proto.spawn;
  let runs = 0;
  proto.spawn = function (this: unknown, options: { file?: string }) {
    if (options?.file === "git") runs++;
    return original.call(this, options);
  };
  try {
    return { value: await fn(), runs };
  } finally {
    proto.spawn = original;
  }
}

describe("git facts kept between questions", () => {
  beforeEach(() => forgetGitState());

  test("the repository check is kept from its second run on, and a moved .git is noticed", async () => {
    const repo = repoWithCode();
    await settle();
    await checkRepository(repo);
    await checkRepository(repo);
    const kept = await gitRuns(() => checkRepository(repo));
    assert.equal(kept.runs, 0, "the third check runs no git");
    assert.equal(kept.value.kind, "work-tree");
    renameSync(join(repo, ".git"), join(repo, "git-moved"));
    const after = await gitRuns(() => checkRepository(repo));
    assert.equal(after.runs, 1, "a changed layout runs git again");
    assert.equal(after.value.kind, "none", "no repository any more");
  });

  test("HEAD is kept until a commit, a branch switch or a reset moves it", async () => {
    const repo = repoWithCode();
    await settle();
    await checkRepository(repo);
    await checkRepository(repo);
    const first = await readRepoState(repo);
    assert.ok(!("error" in first));
    const again = await gitRuns(() => readRepoState(repo));
    assert.equal(again.runs, 0, "HEAD read from the kept state");
    assert.ok(!("error" in again.value) && again.value.head === first.head);

    writeFileSync(join(repo, "NOTES.md"), "notes\n");
    git(repo, ["add", "NOTES.md"]);
    git(repo, ["commit", "-q", "-m", "notes"]);
    const moved = await readRepoState(repo);
    assert.ok(!("error" in moved));
    assert.equal(moved.head, git(repo, ["rev-parse", "HEAD"]).trim(), "the new commit, not the kept one");
    assert.notEqual(moved.head, first.head);

    git(repo, ["checkout", "-q", "-b", "other", first.head!]);
    const switched = await readRepoState(repo);
    assert.ok(!("error" in switched));
    assert.equal(switched.head, first.head, "a branch at the first commit");

    git(repo, ["checkout", "-q", "--detach", moved.head!]);
    const detached = await readRepoState(repo);
    assert.ok(!("error" in detached));
    assert.equal(detached.head, moved.head, "a detached HEAD");
  });

  test("the tracked lock files are kept until the index changes", async () => {
    const repo = repoWithCode();
    await settle();
    await checkRepository(repo);
    await checkRepository(repo);
    assert.deepEqual(await listTrackedLocks(repo, 5000), ["package-lock.json"]);
    const kept = await gitRuns(() => listTrackedLocks(repo, 5000));
    assert.equal(kept.runs, 0);
    assert.deepEqual(kept.value, ["package-lock.json"]);
    mkdirSync(join(repo, "web"));
    writeFileSync(join(repo, "web", "yarn.lock"), "# yarn\n");
    git(repo, ["add", "web/yarn.lock"]);
    assert.deepEqual(await listTrackedLocks(repo, 5000), ["package-lock.json", "web/yarn.lock"], "a newly added lock file");
  });

  test("the usage scope is kept until a file appears, a folder appears, an ignore rule or the index changes", async () => {
    const repo = repoWithCode();
    const opts = { excludeDirs: [".deliberations"] };
    await settle();
    await checkRepository(repo);
    await checkRepository(repo);
    assert.deepEqual((await listUsageScope(repo, opts))?.untracked, []);
    const kept = await gitRuns(() => listUsageScope(repo, opts));
    assert.equal(kept.runs, 0, "nothing changed: no git");
    assert.deepEqual(kept.value?.untracked, []);

    // Receipts are written where the count never looks: still kept.
    mkdirSync(join(repo, ".deliberations", "evidence"), { recursive: true });
    await settle();
    await listUsageScope(repo, opts);
    writeFileSync(join(repo, ".deliberations", "evidence", "e.json"), "{}\n");
    assert.equal((await gitRuns(() => listUsageScope(repo, opts))).runs, 0, "a receipt does not spoil the proof");

    // An untracked file in an existing folder.
    writeFileSync(join(repo, "src", "cache.ts"), 'import Redis from "ioredis";\n');
    assert.deepEqual((await listUsageScope(repo, opts))?.untracked, ["src/cache.ts"]);
    await settle();
    await listUsageScope(repo, opts);

    // A new folder, then a file inside it once the folder's parent was proved again.
    mkdirSync(join(repo, "src", "legacy"));
    await settle();
    assert.deepEqual((await listUsageScope(repo, opts))?.untracked, ["src/cache.ts"]);
    await settle();
    await listUsageScope(repo, opts);
    writeFileSync(join(repo, "src", "legacy", "mongo.ts"), 'import { MongoClient } from "mongodb";\n');
    assert.deepEqual((await listUsageScope(repo, opts))?.untracked, ["src/cache.ts", "src/legacy/mongo.ts"], "a file in a folder made after the first survey");
    await settle();
    await listUsageScope(repo, opts);

    // An ignore rule edited in place.
    appendFileSync(join(repo, ".gitignore"), "src/legacy/\n");
    assert.deepEqual((await listUsageScope(repo, opts))?.untracked, ["src/cache.ts"], "the newly ignored folder drops out");
    await settle();
    await listUsageScope(repo, opts);

    // info/exclude.
    appendFileSync(join(repo, ".git", "info", "exclude"), "src/cache.ts\n");
    assert.deepEqual((await listUsageScope(repo, opts))?.untracked, [], "excluded through info/exclude");
    await settle();
    await listUsageScope(repo, opts);

    // The index: a tracked file that an ignore rule matches.
    writeFileSync(join(repo, "build.log.ts"), "export {};\n");
    appendFileSync(join(repo, ".gitignore"), "build.log.ts\n");
    git(repo, ["add", "-f", "build.log.ts"]);
    const scope = await listUsageScope(repo, opts);
    assert.deepEqual(scope?.ignoredTracked, ["build.log.ts"]);
    rmSync(join(repo, "src", "legacy"), { recursive: true });
  });

  test("a kept cat-file answers later questions, and still finds a commit made after it started", async () => {
    const repo = repoWithCode();
    try {
      const head = git(repo, ["rev-parse", "HEAD"]).trim();
      const fake = "0".repeat(40);
      assert.deepEqual(await notCommits([head, fake], { cwd: repo, keep: true }), [fake]);
      writeFileSync(join(repo, "later.md"), "later\n");
      git(repo, ["add", "later.md"]);
      git(repo, ["commit", "-q", "-m", "later"]);
      const later = git(repo, ["rev-parse", "HEAD"]).trim();
      const asked = await gitRuns(() => notCommits([later, head, fake], { cwd: repo, keep: true }));
      assert.equal(asked.runs, 0, "the kept process answered");
      assert.deepEqual(asked.value, [fake]);
      const tree = git(repo, ["rev-parse", "HEAD^{tree}"]).trim();
      assert.deepEqual(await notCommits([tree], { cwd: repo, keep: true }), [tree], "a tree is not a commit");
    } finally {
      closeKeptBatchChecks();
    }
  });

  test("a folder outside any repository is never kept as one", async () => {
    const dir = makeTempDir();
    assert.equal((await checkRepository(dir)).kind, "none");
    assert.equal((await checkRepository(dir)).kind, "none");
    git(dir, ["init", "-q"]);
    assert.equal((await checkRepository(dir)).kind, "work-tree", "a repository made there is seen at once");
  });
});
