// Options that differ from the chosen one only by a vendor's name ("ESLint with Google code style" beside a chosen
// "ESLint with Airbnb code style"): the vendor's word tells them apart, so adding its package introduces a rejected
// option, while a vendor's word beside a product of its own ("Amazon Cognito") still keys by the product. Real git.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { loadDecisions } from "../../src/core/guard/decisions";
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
    assert.deepEqual(keysOf("Use AWS Systems Manager", new Set())?.exact, ["aws", "systems", "manager"], "a vendor's product of common words keys by all of them in a row");
  });

  test("adding the rejected vendor's config is flagged; the chosen one's update is not", async () => {
    const repo = createGitRepo([{ message: "init", files: { "docs/adr/0003-lint.md": RECORD, "package.json": PACKAGE } }]);
    writeFiles(repo, { "package.json": PACKAGE.replace('"eslint-config-airbnb": "^19.0.0"', '"eslint-config-airbnb": "^19.0.0",\n    "eslint-config-google": "^0.14.0"') });
    assert.deepEqual(await check(repo), ["introduces-rejected-option high package.json:6 ← docs/adr/0003-lint.md"]);
    writeFiles(repo, { "package.json": PACKAGE.replace("^19.0.0", "^19.0.4") });
    assert.deepEqual(await check(repo), []);
  });
});

const SCHEDULING_RECORD = `# 21. Run a Go Lambda to stop idle instances

## Status

Accepted

## Context

Non-production instances should be stopped outside working hours.

## Options

### Option 1 - Use a third party Lambda

A Python Lambda someone else maintains.

### Option 2 - Use AWS Systems Manager

Maintenance windows that stop tagged instances.

### Option 3 - Create a custom Lambda using Go

Our own code in a core language.

## Decision

Option 3, we will create a custom Lambda using Go.
`;

describe("guard: options that share a word with the chosen one", () => {
  test("a turned-down option sharing only a word with the chosen one stays turned down; a vendor's product is found by its resource", async () => {
    const tf = "resource \"aws_instance\" \"app\" {\n  ami = \"ami-1\"\n}\n";
    const repo = createGitRepo([{ message: "init", files: { "docs/adr/0021-scheduling.md": SCHEDULING_RECORD, "infra/main.tf": tf } }]);
    const record = (await loadDecisions(repo)).decisions.find((d) => d.citation.path === "docs/adr/0021-scheduling.md");
    assert.ok(record && !record.required.some((r) => /third party/i.test(r.name)), "the third-party Lambda is not kept as chosen");
    writeFiles(repo, { "infra/schedule.tf": "resource \"aws_ssm_association\" \"stop\" {\n  name = \"AWS-StopEC2Instance\"\n}\n" });
    assert.deepEqual(await check(repo), ["introduces-rejected-option high infra/schedule.tf:1 ← docs/adr/0021-scheduling.md"]);
    writeFiles(repo, { "infra/schedule.tf": "resource \"aws_ssm_parameter\" \"ami\" {\n  name  = \"/app/ami\"\n  type  = \"String\"\n  value = \"ami-1\"\n}\n" });
    assert.deepEqual(await check(repo), [], "a parameter is not the scheduling product the record turned down");
  });
});
