// Which git processes a question starts (issue 20: every spawn of a 150 MB Node process costs it tens of ms of CPU,
// and each on the answer's critical path adds its wall time). A `git` first on PATH logs its arguments and runs the
// real one, so these tests see exactly what ran: reading an index's repository state runs no `git version` (only a
// build or an update asks for it), and a code-usage count whose scope was listed beforehand starts one process, the
// plain `git grep`, with no `--untracked` walk and no second lock-file listing.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { chmodSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { countCodeUsage } from "../../src/core/internal/codeUsage";
import { listUsageScope } from "../../src/core/internal/codeUsageScope";
import { checkRepository } from "../../src/core/internal/gitSafety";
import { buildIndex, readRepoState } from "../../src/core/internal/history";
import { createGitRepo, makeTempDir } from "../helpers/gitRepo";

describe("git processes of a question", () => {
  let bin: string;
  let log: string;
  let cache: string;
  const saved = { PATH: process.env.PATH, XDG_CACHE_HOME: process.env.XDG_CACHE_HOME };
  /** The subcommands git ran since the last call (the hardened `-c key=value` pairs left out). */
  const ran = (): string[][] => {
    const lines = readFileSync(log, "utf8").split("\n").filter(Boolean);
    writeFileSync(log, "");
    return lines.map((l) => {
      const words = l.split(" ");
      const out: string[] = [];
      for (let i = 0; i < words.length; i++) {
        if (words[i] === "-c") i++;
        else out.push(words[i]);
      }
      return out;
    });
  };

  before(() => {
    const real = execFileSync("sh", ["-c", "command -v git"], { encoding: "utf8" }).trim();
    bin = makeTempDir("delib-gitlog-");
    log = join(bin, "calls.log");
    writeFileSync(log, "");
    writeFileSync(join(bin, "git"), `#!/bin/sh\necho "$*" >> '${log}'\nexec '${real}' "$@"\n`);
    chmodSync(join(bin, "git"), 0o755);
    cache = makeTempDir("delib-gitlog-cache-");
    process.env.PATH = `${bin}${delimiter}${saved.PATH ?? ""}`;
    process.env.XDG_CACHE_HOME = cache;
  });
  after(() => {
    process.env.PATH = saved.PATH;
    if (saved.XDG_CACHE_HOME === undefined) delete process.env.XDG_CACHE_HOME;
    else process.env.XDG_CACHE_HOME = saved.XDG_CACHE_HOME;
    rmSync(bin, { recursive: true, force: true });
    rmSync(cache, { recursive: true, force: true });
  });

  test("reading the repository state runs rev-parse only; a build asks git's version", async () => {
    const repo = createGitRepo([
      { message: "first", files: { "docs/adr/0001-queue.md": "# Use a queue\n" } },
      { message: "second", files: { "docs/adr/0002-cache.md": "# Use a cache\n" } },
    ]);
    ran();
    const state = await readRepoState(repo);
    assert.ok(!("error" in state));
    const calls = ran();
    assert.ok(calls.length >= 1 && calls.every((c) => c[0] === "rev-parse"), JSON.stringify(calls));
    await buildIndex(repo);
    assert.ok(ran().some((c) => c[0] === "version"), "the build still learns which git it runs");
  });

  test("a count whose scope was listed runs one git grep and nothing else", async () => {
    const repo = createGitRepo([
      {
        message: "app",
        files: {
          "package.json": `{ "dependencies": { "pino": "^9.0.0" } }\n`,
          "package-lock.json": `{ "packages": { "node_modules/pino": { "version": "9.0.0" } } }\n`,
          "src/log.ts": `import pino from "pino";\n`,
        },
      },
    ]);
    const options = [{ id: "opt-pino", title: "Keep pino", terms: ["pino"] }];
    // The pipeline checks the repository once per turn and hands the check on, as here.
    const repoCheck = await checkRepository(repo);
    ran();
    const scope = await listUsageScope(repo, { repoCheck });
    assert.equal(ran().length, 3, "three listings, started together ahead of the count");
    const report = await countCodeUsage(repo, options, { repoCheck, scope: Promise.resolve(scope) });
    const calls = ran();
    assert.deepEqual(calls.map((c) => c[0]), ["grep"], JSON.stringify(calls));
    assert.ok(!calls[0].includes("--untracked"));
    assert.equal(report.options[0].files, 3);
    // Without a scope the count lists the lock files itself and walks the work tree, as before.
    const unscoped = await countCodeUsage(repo, options, { repoCheck });
    const before = ran();
    assert.deepEqual(before.map((c) => c[0]), ["ls-files", "grep"]);
    assert.ok(before[1].includes("--untracked"));
    assert.deepEqual({ ...unscoped, ms: 0 }, { ...report, ms: 0 });
  });
});
