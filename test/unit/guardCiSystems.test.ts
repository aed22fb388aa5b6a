// The CI system a record chose, against the ones it names besides it: a new configuration of a system the record
// set aside introduces it again; of one it never named, goes around the choice; and a later record that moved to
// another system, naming the earlier one's, retires the earlier choice. Real git repositories.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { keysOf } from "../../src/core/guard/names";
import { ciSystemsOfFile } from "../../src/core/guard/newFiles";
import { createGitRepo, writeFiles } from "../helpers/gitRepo";
import { checkWorktree, strongFindings } from "../helpers/guardRepo";

async function check(repo: string): Promise<string[]> {
  return strongFindings(await checkWorktree(repo)).map((f) => `${f.kind} ${f.file} ← ${f.decision.path}`);
}

const record = (n: number, title: string, context: string, decision: string) => `# ${n}. ${title}\n\nDate: 202${n}-01-01\n\n## Status\n\nAccepted\n\n## Context\n\n${context}\n\n## Decision\n\n${decision}\n`;
const WORKFLOW = "name: test\non: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - run: make test\n";
const TRAVIS = "language: php\nscript:\n  - composer test\n";

describe("guard: CI systems a record chose and set aside", () => {
  test("'e.g. GitHub Actions' keys by the system, not by the abbreviation", () => {
    assert.deepEqual(keysOf("migrate the extra CI to another service, e.g. GitHub Actions")?.tokens, ["actions", "github"]);
    assert.deepEqual(ciSystemsOfFile("ci/concourse/deploy.yml"), [["concourse"]]);
  });

  test("a new configuration of a system the record names besides its choice introduces it; of an unnamed one, goes around the choice", async () => {
    const adr = record(1, "Use GitHub Actions for the extra test matrix", "The extra test matrix runs on legacy Travis CI, which is being phased out.", "We will move the extra test matrix to GitHub Actions.");
    const repo = createGitRepo([{ message: "init", files: { "docs/adr/0001-ci.md": adr, ".github/workflows/test.yml": WORKFLOW } }]);
    writeFiles(repo, { ".travis.yml": TRAVIS });
    assert.deepEqual(await check(repo), ["introduces-rejected-option .travis.yml ← docs/adr/0001-ci.md"]);
    const quiet = createGitRepo([{ message: "init", files: { "docs/adr/0001-ci.md": record(1, "Use GitHub Actions", "We need CI.", "We will use GitHub Actions."), ".github/workflows/test.yml": WORKFLOW } }]);
    writeFiles(quiet, { ".travis.yml": TRAVIS });
    assert.deepEqual(await check(quiet), ["removes-chosen-option .travis.yml ← docs/adr/0001-ci.md"]);
  });

  test("a later record that moved to another system and names the earlier one's retires the earlier choice", async () => {
    const first = record(3, "Use Concourse CI", "Our self-hosted Jenkins is hard to keep patched.", "We will run our pipelines on a self hosted Concourse CI.");
    const second = record(4, "Use GitHub Actions", "We run a self managed Concourse instance for our pipelines.", "We will switch to GitHub Actions for our pipelines and decommission the Concourse pipelines.");
    const repo = createGitRepo([{ message: "init", files: { "adr/003-use-concourse.md": first, "adr/004-use-github-actions.md": second, "README.md": "# Platform\n" } }]);
    writeFiles(repo, { ".github/workflows/deploy.yml": WORKFLOW });
    assert.deepEqual(await check(repo), [], "the workflow follows the later record");
    writeFiles(repo, { "pipelines/concourse/upgrade.yaml": "jobs:\n  - name: upgrade\n    plan: []\n" });
    assert.deepEqual(await check(repo), ["introduces-rejected-option pipelines/concourse/upgrade.yaml ← adr/004-use-github-actions.md"]);
  });
});
