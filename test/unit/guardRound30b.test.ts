// The guard on records it had never seen (issue 22, dev10): a folder a change creates for a rejected tool, a heading
// that groups options, words every sibling option shares, an acronym's spelled-out words, an option described in
// parentheses, and a file name that states the choice. Each has an innocent look-alike. Real git repositories,
// records written for these tests.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { keysOf, tokenSet } from "../../src/core/guard/names";
import { sharedOptionWords, slugChoice, ungroupedOptions, withoutAsides } from "../../src/core/guard/optionGroups";
import { createGitRepo } from "../helpers/gitRepo";
import { checkFilesOverHead, findingSummary } from "../helpers/guardRepo";

const LOAD_ADR = `# Load testing tool

- Status: accepted
- Date: 2023-03-01

## Context and Problem Statement

Which tool should drive our load tests?

## Considered Options

* Siegeworks
* Hammerly
* Stampede

## Decision Outcome

Chosen option: "Stampede", because its scripts are plain code.
`;

const AUTH_ADR = `# Authorisation for the shop API

- Status: accepted
- Date: 2023-05-01

## Context and Problem Statement

How do services decide what a caller may do?

## Considered Options

### Gatekeeper as the only service

- Gatekeeper with signed tokens
- Gatekeeper with opaque tokens

### Gatekeeper for identity, another service for permissions

- Gatekeeper with signed tokens and Rule Decision Engine (RDE)

## Decision Outcome

Chosen option: "Gatekeeper with signed tokens", because it needs no second service.
`;

const PKG = '{\n  "name": "shop",\n  "dependencies": {\n    "react": "^18.0.0"\n  }\n}\n';

describe("guard: records it had never seen (round 30b)", () => {
  test("a folder the change creates for a rejected tool brings it in; the project's own folder of that name does not", async () => {
    const repo = createGitRepo([
      { message: "init", files: { "docs/decisions/0003-load-testing.md": LOAD_ADR, "package.json": PKG, "tools/hammerly/README.md": "Notes from the trial.\n" } },
    ]);
    const created = await checkFilesOverHead(repo, { "perf/hammerly/requirements.txt": "hammerly==2.1.0\n" });
    assert.deepEqual(findingSummary(created), ["introduces-rejected-option docs/decisions/0003-load-testing.md"]);
    // A folder that was there before is the project's own naming, as a file named for it is.
    const own = await checkFilesOverHead(repo, { "tools/hammerly/notes.ts": "export const hammerly = 'trial notes';\n" });
    assert.deepEqual(findingSummary(own), []);
    const chosen = await checkFilesOverHead(repo, { "perf/stampede/requirements.txt": "stampede==1.0.0\n" });
    assert.deepEqual(findingSummary(chosen), []);
  });

  test("a heading over a list of options is a group: its items are the options, its own words are not", async () => {
    const lines = AUTH_ADR.split("\n");
    const at = (text: string) => lines.findIndex((l) => l.includes(text)) + 1;
    const heading = "Gatekeeper for identity, another service for permissions";
    const read = ungroupedOptions([{ name: heading, range: { start: at(heading), end: at(heading) } }], lines, "Gatekeeper with signed tokens");
    assert.deepEqual(read.map((r) => r.name), ["Gatekeeper with signed tokens and Rule Decision Engine (RDE)"]);
    // Pros and cons under an option's heading are not options.
    const pros = ["### Hammerly", "", "* Good, because it is fast.", "* Bad, because it needs a GUI."];
    assert.deepEqual(ungroupedOptions([{ name: "Hammerly", range: { start: 1, end: 1 } }], pros, undefined).map((r) => r.name), ["Hammerly"]);
    const repo = createGitRepo([{ message: "init", files: { "docs/decisions/0005-authorisation.md": AUTH_ADR, "package.json": PKG } }]);
    const engine = await checkFilesOverHead(repo, { "deploy/compose.yml": "services:\n  rde:\n    image: example/rde:1.2.0\n" });
    assert.deepEqual([...new Set(findingSummary(engine))], ["introduces-rejected-option docs/decisions/0005-authorisation.md"]);
    // The group's words ("permissions", "identity") and the acronym's spelled-out words ("rule") are no names.
    const permissions = await checkFilesOverHead(repo, { "src/permissions.ts": "export const identityRule = (permissions: string[]) => permissions.length > 0;\n" });
    assert.deepEqual(findingSummary(permissions), []);
  });

  test("an acronym's spelled-out words name it together, never one by one", () => {
    assert.deepEqual(keysOf("Rule Decision Engine (RDE)")?.tokens, ["rde"]);
    assert.deepEqual(keysOf("Row Level Filters (RLF)")?.tokens, ["rlf"]);
    // Initials that do not spell it leave the words as they were.
    assert.ok(keysOf("Rule Engine (XYZ)")?.tokens.includes("rule"));
  });

  test("words three sibling options share say what they are ways of, not which one", () => {
    const shared = sharedOptionWords(["Table per Shard", "Schema per Shard", "Cluster per Shard", "Row Filters"]);
    assert.ok(shared.has("shard") && !shared.has("table") && !shared.has("filters"));
    // Two options sharing a word, or one listed twice, tell nothing.
    assert.deepEqual([...sharedOptionWords(["2D Canvas", "WebGL Canvas", "WebGL Canvas", "SVG"])], []);
    // A vendor's word is left to the vendor rule.
    assert.deepEqual([...sharedOptionWords(["AWS Batch", "AWS Lambda", "AWS Fargate"])], []);
  });

  test("an option described in parentheses is known by its name", () => {
    assert.equal(withoutAsides("Queue Stream (Storing data (JSON) and querying data (JSON), scale and streaming)"), "Queue Stream");
    assert.equal(withoutAsides("Plain name"), "Plain name");
  });

  test("a file name that states a choice names it like a title; one that names the rival too keeps only the choice", () => {
    assert.equal(slugChoice("docs/adr/2024-05-20-use-vdr-links-to-reference-resources.md"), "vdr links to reference resources");
    assert.equal(slugChoice("docs/adr/0012-use-stampede-instead-of-hammerly.md"), "stampede");
    assert.equal(slugChoice("docs/adr/0012-load-testing.md"), undefined);
    // A run of capitalised words the choice claims, but for an ordinary word, is the choice's.
    assert.equal(keysOf("DID URLs and plain servers", tokenSet(["did urls to reference resources"])), undefined);
    assert.ok(keysOf("DID URLs and plain servers", tokenSet(["storage for resources"])));
  });
});
