// `deliberate index`: building the git history index (and the docs index) ahead of time, its status, and
// incremental runs.
import assert from "node:assert/strict";
import { existsSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { createHistoryRepo } from "../fixtures/historyRepo";
import { createSampleRepo } from "../fixtures/sampleRepo";
import { assertCliBuilt, newCliUser, runCli } from "../helpers/cli";
import { git } from "../helpers/gitRepo";

describe("deliberate index (CLI)", () => {
  const user = newCliUser();
  const cli = (args: string[]) => runCli(args, { env: user.env });

  it("builds ahead of time, reports its status, and is up to date afterwards", () => {
    assertCliBuilt();
    const repo = createHistoryRepo();
    const before = cli(["index", "--repo", repo, "--status"]);
    assert.equal(before.code, 0, before.stderr);
    assert.match(before.stdout, /not built yet/);
    const built = cli(["index", "--repo", repo]);
    assert.equal(built.code, 0, built.stderr);
    assert.match(built.stdout, /indexed 6 commits in [\d.]+ s/);
    const status = cli(["index", "--repo", repo, "--status"]);
    assert.match(status.stdout, /6 commits/);
    assert.match(status.stdout, new RegExp(`last commit: ${git(repo, ["rev-parse", "HEAD"]).trim()} \\(HEAD\\)`));
    assert.match(status.stdout, /delete it with: rm -rf /);
    const json = JSON.parse(cli(["index", "--repo", repo, "--status", "--json"]).stdout);
    assert.equal(json.summary.commits, 6);
    assert.ok(statSync(json.summary.file).size > 0);
    assert.match(cli(["index", "--repo", repo]).stdout, /up to date/);
    assert.match(cli(["index", "--repo", repo, "--rebuild"]).stdout, /indexed 6 commits/);
    const bad = cli(["index", "--repo", repo, "--status", "--rebuild"]);
    assert.equal(bad.code, 2);
  });

  it("builds the docs index too, outside the repository, and a question in a fresh process reads it", () => {
    assertCliBuilt();
    const own = newCliUser();
    const run = (args: string[], env: NodeJS.ProcessEnv = own.env) => runCli(args, { env });
    const repo = createSampleRepo();
    const built = run(["index", "--repo", repo]);
    assert.equal(built.code, 0, built.stderr);
    const line = /docs index: ([\d,]+) documents, ([\d,]+) sections in [\d.]+ s \((.+)\)/.exec(built.stdout);
    assert.ok(line, built.stdout);
    assert.ok(Number(line[1].replace(/,/g, "")) >= 5);
    const dir = line[3];
    assert.ok(dir.startsWith(join(own.cacheHome, "deliberative-search", "corpus")), dir);
    const files = readdirSync(dir);
    assert.ok(files.some((f) => f.startsWith("discovery-")) && files.some((f) => f.startsWith("docs-")), files.join(", "));
    assert.equal(git(repo, ["status", "--porcelain"]).trim(), "", "nothing written into the work tree");
    assert.match(run(["index", "--repo", repo, "--status"]).stdout, new RegExp(`docs index: ${dir.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} \\([\\d.]+ (KB|MB); deleting it is always safe\\)`));
    const json = JSON.parse(run(["index", "--repo", repo, "--json"]).stdout);
    assert.equal(json.docs.discovery, "disk", "the second build found the discovery snapshot still valid");
    // The same question with the snapshots and without them (DELIBERATIVE_CORPUS_CACHE=off): the same payload.
    const q = ["Should we use PostgreSQL or MongoDB for order storage?", "--repo", repo, "--offline", "--json", "--no-receipt", "--no-cache"];
    const withCache = run(q);
    const without = run(q, { ...own.env, DELIBERATIVE_CORPUS_CACHE: "off" });
    assert.equal(withCache.code, 0, withCache.stderr);
    assert.equal(without.code, 0, without.stderr);
    const strip = (s: string) => ({ ...JSON.parse(s), receipt_ref: "", evidence_ref: "" });
    assert.deepEqual(strip(withCache.stdout), strip(without.stdout));
    // A damaged snapshot: one line on stderr, the same answer, and a whole snapshot again afterwards.
    const docs = join(dir, readdirSync(dir).find((f) => f.startsWith("docs-"))!);
    writeFileSync(docs, "junk");
    const damaged = run(q);
    assert.equal(damaged.code, 0, damaged.stderr);
    assert.match(damaged.stderr, /deliberate: docs index not a snapshot file; rebuilding it/);
    assert.deepEqual(strip(damaged.stdout), strip(without.stdout));
    assert.ok(statSync(docs).size > 100, "rewritten");
  });

  it("keeps nothing on disk with DELIBERATIVE_CORPUS_CACHE=off", () => {
    const own = newCliUser();
    const repo = createSampleRepo();
    const r = runCli(["index", "--repo", repo], { env: { ...own.env, DELIBERATIVE_CORPUS_CACHE: "off" } });
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stdout, /docs index/);
    assert.ok(!existsSync(join(own.cacheHome, "deliberative-search", "corpus")));
  });
});
