// git never runs a program a repository names (issue 19, finding 2), and the history index is cited only as far
// as the repository confirms it (finding 10). Real repositories, the built CLI, real git; markers on disk prove
// whether a repository-named command ran.
import assert from "node:assert/strict";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { createGitExpert } from "../../src/core/internal/git";
import { buildIndex, type HistoryIndexOptions } from "../../src/core/internal/history";
import { openDb, safeClose } from "../../src/core/internal/history/db";
import { rowSeal, type SealedRow } from "../../src/core/internal/history/seal";
import { cacheSealKey } from "../../src/core/cacheKey";
import { resolveConfig } from "../../src/core/config";
import { ReceiptSchema, type OptionPicker } from "../../src/core/schemas";
import type { ExpertContext } from "../../src/core/types";
import { AllowedRoots, RootError } from "../../src/mcp/roots";
import { createHistoryRepo } from "../fixtures/historyRepo";
import { assertCliBuilt, assertOneLineError, newCliUser, runCli } from "../helpers/cli";
import { commit, createGitRepo, git, makeTempDir, writeFiles } from "../helpers/gitRepo";

const QUESTION = "Should we use pino or winston for logging?";

/** A folder where repository-named commands leave a file each, and the shell command that leaves one. */
function markerDir(): { dir: string; touch: (name: string) => string; left: () => string[] } {
  const dir = makeTempDir("delib-markers-");
  return { dir, touch: (name) => `touch '${join(dir, name)}'`, left: () => readdirSync(dir) };
}

function receiptOf(repo: string, stdout: string) {
  const p = JSON.parse(stdout) as OptionPicker;
  return { payload: p, receipt: ReceiptSchema.parse(JSON.parse(readFileSync(join(repo, ".deliberations", `${p.receipt_ref}.json`), "utf8"))) };
}

describe("git runs no repository-controlled program", () => {
  it("refuses a committed folder shaped like a bare repository (core.fsmonitor in its config), after a clone too", async () => {
    assertCliBuilt();
    const markers = markerDir();
    const origin = createGitRepo([{ message: "Initial commit", files: { "README.md": "# Shop\n\nWe log with pino.\n" } }]);
    // HEAD, objects/, refs/ and a config: what git's discovery takes for a bare repository.
    writeFiles(origin, {
      "evil/HEAD": "ref: refs/heads/main\n",
      "evil/objects/info/keep": "",
      "evil/refs/heads/keep": "",
      "evil/config": `[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = .\n\tfsmonitor = "${markers.touch("fsmonitor")}"\n`,
      "evil/docs/adr/0001-logging.md": "# 1. Logging\n\n## Status\n\nAccepted\n\n## Decision\n\nWe will use pino for logging.\n",
    });
    commit(origin, { message: "Add a folder", files: {} }, 1);
    const clone = makeTempDir("delib-clone-");
    git(clone, ["clone", "-q", origin, "."]);
    const folder = join(clone, "evil");
    assert.ok(existsSync(join(folder, "config")), "the bare-shaped folder survives the clone");

    const user = newCliUser();
    const refusal = /^deliberate: not a git repository with a \.git folder at its top: .*evil \(it is a git directory, or a folder shaped like a bare repository\)$/;
    assertOneLineError(runCli([QUESTION, "--repo", folder, "--offline", "--json"], { env: user.env }), 2, refusal);
    assertOneLineError(runCli(["index", "--repo", folder], { env: user.env }), 2, refusal);
    assertOneLineError(runCli(["index", "--repo", join(clone, ".git")], { env: user.env }), 2, /not a git repository with a \.git folder at its top: .*\.git \(/);
    assert.ok(!existsSync(join(folder, ".deliberations")), "nothing written");

    // The MCP server's tools resolve their repo argument through the allowed roots: the same refusal.
    const roots = await AllowedRoots.create([clone]);
    await assert.rejects(roots.resolveRepo("evil"), (err: Error) => err instanceof RootError && /not a git repository with a \.git folder at its top/.test(err.message));
    assert.equal(await roots.resolveRepo(undefined), clone, "the clone itself is a normal work tree");
    assert.deepEqual(markers.left(), []);
  });

  it("a repository's own .git/config (fsmonitor, hooks, external diff, textconv, pager) runs nothing: question and index", () => {
    assertCliBuilt();
    const markers = markerDir();
    const repo = createHistoryRepo();
    const hooks = join(repo, ".git", "evil-hooks");
    mkdirSync(hooks);
    for (const hook of ["post-index-change", "post-checkout", "pre-auto-gc", "reference-transaction", "fsmonitor-watchman"]) {
      writeFileSync(join(hooks, hook), `#!/bin/sh\n${markers.touch(`hook-${hook}`)}\n`);
      chmodSync(join(hooks, hook), 0o755);
    }
    writeFileSync(join(repo, ".git", "info", "attributes"), "*.md diff=evil\n*.ts diff=evil\n");
    const config: [string, string][] = [
      ["core.fsmonitor", markers.touch("fsmonitor")],
      ["core.hooksPath", hooks],
      ["diff.external", markers.touch("diff-external")],
      ["diff.evil.textconv", markers.touch("textconv")],
      ["diff.evil.command", markers.touch("diff-command")],
      ["core.pager", markers.touch("pager")],
      ["log.showSignature", "true"],
      ["gpg.program", markers.touch("gpg")],
    ];
    for (const [k, v] of config) git(repo, ["config", k, v]);
    // The repository itself is fine (a normal .git): the question runs, the index builds, then the question again
    // from the index. Each used to run core.fsmonitor through `git ls-files`.
    const user = newCliUser();
    const env = { ...user.env, DELIBERATIVE_NO_BACKGROUND_INDEX: "1" };
    const first = runCli([QUESTION, "--repo", repo, "--offline", "--json", "--force", "--git-budget-ms", "30000"], { env });
    assert.equal(first.code, 0, first.stderr);
    const indexed = runCli(["index", "--repo", repo], { env });
    assert.equal(indexed.code, 0, indexed.stderr);
    // Whether or not the first question kept an index of this short history (history/index.ts), all 6 are indexed.
    assert.match(indexed.stdout, /indexed 6 commits|history index is up to date: 6 commits/);
    const second = runCli([QUESTION, "--repo", repo, "--offline", "--json", "--force", "--git-budget-ms", "30000", "--no-cache"], { env });
    assert.equal(second.code, 0, second.stderr);
    const { receipt } = receiptOf(repo, second.stdout);
    assert.equal(receipt.stages["internal:git"].status, "ok", JSON.stringify(receipt.stages["internal:git"]));
    assert.deepEqual(markers.left(), [], "no repository-named command ran");
  });
});

describe("the history index is confirmed before it is cited", () => {
  // Re-sealed with the user's key (history/seal.ts), so what is tested is the repository's confirmation behind the seal
  // (an index of another repository of the same user); a row changed without the key fails its seal first.
  const tamper = (file: string, subject: string, sha: string, keyDir?: string) => {
    const db = openDb(file, { write: true });
    try {
      const row = db.get("SELECT ts, subject, body, nfiles, files, docs FROM commits WHERE subject = ?", [subject]) as unknown as Omit<SealedRow, "sha">;
      const mac = rowSeal(cacheSealKey("history-index", keyDir)!, { ...row, sha, ts: Number(row.ts), nfiles: Number(row.nfiles) });
      db.run("UPDATE commits SET sha = ?, mac = ? WHERE subject = ?", [sha, mac, subject]);
      assert.equal(Number((db.get("SELECT count(*) AS n FROM commits WHERE sha = ?", [sha]) as { n: number }).n), 1);
    } finally {
      safeClose(db);
    }
  };
  const SUBJECT = "Switch logging from winston to pino";

  it("CLI: an altered sha is never cited; the stage says in one line that the index could not be used", async () => {
    assertCliBuilt();
    const repo = createHistoryRepo();
    const user = newCliUser();
    const env = { ...user.env, DELIBERATIVE_NO_BACKGROUND_INDEX: "1" };
    assert.equal(runCli(["index", "--repo", repo], { env }).code, 0);
    const real = git(repo, ["log", "--format=%H", `--grep=${SUBJECT}`]).trim();
    const fake = "0123456789abcdef0123456789abcdef01234567";
    const file = JSON.parse(runCli(["index", "--repo", repo, "--status", "--json"], { env }).stdout).summary.file as string;
    tamper(file, SUBJECT, fake, user.keyDir);

    const r = runCli([QUESTION, "--repo", repo, "--offline", "--json", "--force", "--git-budget-ms", "30000"], { env });
    assert.equal(r.code, 0, r.stderr);
    assert.ok(!r.stdout.includes(fake) && !r.stdout.includes(fake.slice(0, 7)), "the altered sha is not cited");
    const { payload, receipt } = receiptOf(repo, r.stdout);
    assert.ok(!JSON.stringify(receipt).includes(fake), "nor recorded in the receipt");
    const stage = receipt.stages["internal:git"];
    assert.equal(stage.status, "ok", JSON.stringify(stage));
    assert.match(stage.reason ?? "", /history index \(the index could not be used; `deliberate index` builds it\)/);
    assert.doesNotMatch(stage.reason ?? "", /\n/);
    // A question-private index answered instead (git.ts), with the real commit.
    assert.ok(payload.citations.some((c) => c.commit === real), JSON.stringify(payload.citations.map((c) => c.commit)));
    assert.ok(payload.citations.every((c) => !c.commit || c.commit !== fake));
  });

  it("git expert: a sha that names no commit (here a blob) discards the index, rebuilds it and says so once", async () => {
    const cache = makeTempDir("delib-history-cache-");
    const saved = process.env.XDG_CACHE_HOME;
    process.env.XDG_CACHE_HOME = cache;
    try {
      const repo = createHistoryRepo();
      const built = await buildIndex(repo);
      assert.equal(built.action, "built");
      const blob = git(repo, ["rev-parse", "HEAD:README.md"]).trim();
      const real = git(repo, ["log", "--format=%H", `--grep=${SUBJECT}`]).trim();
      tamper(built.state!.file, SUBJECT, blob);

      const notices: string[] = [];
      const logs: string[] = [];
      const opts: HistoryIndexOptions = { build: "foreground", minCommits: 1, log: (l) => notices.push(l) };
      const out = await createGitExpert({ index: opts }).run(context(repo, ["pino", "logging"], logs));
      assert.equal(out.status, "ok");
      assert.ok(out.items.every((i) => i.commit !== blob), "the blob is never cited as a commit");
      assert.ok(out.items.some((i) => i.commit === real), "the rebuilt index cites the real commit");
      assert.equal(notices.length, 1, notices.join("\n"));
      assert.match(notices[0], new RegExp(`cannot be used \\(it cites commit ${blob.slice(0, 12)}, which is not in the repository\\); rebuilding it`));
      assert.match(out.reason ?? "", new RegExp(`^history index rebuilt: it cites commit ${blob.slice(0, 12)}, which is not in the repository$`));
      assert.equal((await buildIndex(repo)).action, "current", "the rebuilt index is current");
    } finally {
      if (saved === undefined) delete process.env.XDG_CACHE_HOME;
      else process.env.XDG_CACHE_HOME = saved;
    }
  });
});

function context(repo: string, words: string[], logs: string[]): ExpertContext {
  return {
    repo,
    question: words.join(" "),
    plan: { mode: "rules", terms: words, expansions: [] },
    config: resolveConfig(),
    artifacts: { files: [], skipped: [], hash: "" },
    signal: new AbortController().signal,
    log: (m) => logs.push(m),
  };
}
