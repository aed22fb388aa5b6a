// `deliberate index`: building the git history index ahead of time, its status, and incremental runs.
import assert from "node:assert/strict";
import { statSync } from "node:fs";
import { describe, it } from "node:test";
import { createHistoryRepo } from "../fixtures/historyRepo";
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
});
