// Options that differ from the chosen one only by a vendor's name ("ESLint with Google code style" beside a chosen
// "ESLint with Airbnb code style"): the vendor's word tells them apart, so adding its package introduces a rejected
// option, while a vendor's word beside a product of its own ("Amazon Cognito") still keys by the product. Real git.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { keysOf } from "../../src/core/guard/names";
import { createGitRepo, writeFiles } from "../helpers/gitRepo";
import { checkWorktree, strongFindings } from "../helpers/guardRepo";

async function check(repo: string): Promise<string[]> {
  return strongFindings(await checkWorktree(repo)).map((f) => `${f.kind} ${f.severity} ${f.file}:${f.line} ← ${f.decision.path}`);
}

const RECORD = `# Use ESLint with the Airbnb style

- Status: accepted

## Context and Problem Statement

We need one lint setup and one code style for every package.

## Considered Options

- ESLint with Airbnb code style
- ESLint with Google code style
- ESLint with StandardJS code style

## Decision Outcome

Chosen option: "ESLint with Airbnb code style", because it is the most widely used.
`;

const PACKAGE = `{
  "name": "ledger",
  "devDependencies": {
    "eslint": "^8.0.0",
    "eslint-config-airbnb": "^19.0.0"
  }
}
`;

describe("guard: an option told apart from the chosen one only by its vendor", () => {
  test("the vendor's word keys it when every other word is the chosen option's or a common one", () => {
    assert.deepEqual(keysOf("ESLint with Google code style", new Set(["eslint", "airbnb"]))?.tokens, ["google"]);
    assert.deepEqual(keysOf("Amazon Cognito", new Set())?.tokens, ["cognito"], "a product of its own keys by the product");
    assert.equal(keysOf("Apache 2.0", new Set()), undefined, "a vendor and a qualifier still name nothing");
  });

  test("adding the rejected vendor's config is flagged; the chosen one's update is not", async () => {
    const repo = createGitRepo([{ message: "init", files: { "docs/adr/0003-lint.md": RECORD, "package.json": PACKAGE } }]);
    writeFiles(repo, { "package.json": PACKAGE.replace('"eslint-config-airbnb": "^19.0.0"', '"eslint-config-airbnb": "^19.0.0",\n    "eslint-config-google": "^0.14.0"') });
    assert.deepEqual(await check(repo), ["introduces-rejected-option high package.json:6 ← docs/adr/0003-lint.md"]);
    writeFiles(repo, { "package.json": PACKAGE.replace("^19.0.0", "^19.0.4") });
    assert.deepEqual(await check(repo), []);
  });
});
