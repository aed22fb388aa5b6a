// Readings of considered options added for issue 21 (considered recall): a colon inside inline code is no gloss; a
// list led into by "many … including:" or "The main strategies are:" names options, but one after a conceded "Whilst
// there are several ways …" does not, nor does a list of requirements or risks; pros and cons under an option's
// sub-heading leave the heading as the option; alternatives titled by a line of their own, and "a previous design
// that …", are read; a "Compatibility Requirements" part under the alternatives is none of them. Every record here is
// written for these tests.
import { test } from "node:test";
import assert from "node:assert/strict";
import { parseAdr } from "../../src/core/internal/adr";
import { decisionModelOf, optionName } from "../../src/core/decisions";

const considered = (path: string, lines: string[]) => decisionModelOf(parseAdr(path, lines.join("\n"))).considered.map((o) => o.name);

test("a colon inside inline code is part of the option's name, not the start of its gloss", () => {
  assert.equal(optionName("Running `on: push`. This keeps the current behaviour.").name, "Running on: push");
  assert.equal(optionName("Add `Category: X` under the heading").name, "Add Category: X under the heading");
  // A colon outside code still ends the name.
  assert.equal(optionName("Log4brains: an architecture knowledge base").name, "Log4brains");
});

test("a list led into by 'many solutions …, including:' names the options, without their long asides", () => {
  const names = considered("rfcs/rfc-010-build-servers.md", [
    "# RFC-010: Use one build server",
    "",
    "## Problem",
    "",
    "We currently have many solutions for running builds across the estate, including:",
    "",
    "- Buildkite (hosted, paid on a team card)",
    "- Drone (self-hosted, behind the VPN and team membership rules)",
    "- Woodpecker",
    "",
    "## Proposal",
    "",
    "Run every build on one server, chosen after a trial.",
  ]);
  assert.deepEqual(names, ["Buildkite", "Drone", "Woodpecker"]);
});

test("'The main strategies for X are:' announces the list after it", () => {
  const names = considered("adr/0007-storing-translations.md", [
    "# 7. Store translations",
    "",
    "## Context",
    "",
    "The main strategies for storing translated text are:",
    "",
    "- Extra columns",
    "  - a column per language on each table",
    "- Translation tables",
    "  - a table per model",
    "",
    "## Decision",
    "",
    "We will pick a strategy after a spike.",
  ]);
  assert.deepEqual(names, ["Extra columns", "Translation tables"]);
});

test("a list after options conceded in passing ('Whilst there are several ways …') names no options", () => {
  const names = considered("rfcs/rfc-020-move-the-store.md", [
    "# RFC-020: Move the store to Postgres",
    "",
    "## Summary",
    "",
    "Move the document store to Postgres.",
    "",
    "## Proposal",
    "",
    "Whilst there are several possible ways to run the migration, this RFC is about the end state. We are confident we can migrate with:",
    "",
    "- zero downtime",
    "- no changes to the public API",
  ]);
  assert.ok(!names.includes("zero downtime"), names.join(" | "));
});

test("a list of what could go wrong, announced as 'two ways', names no options", () => {
  const names = considered("rfcs/rfc-030-draft-isolation.md", [
    "# RFC-030: Keep draft reads apart",
    "",
    "## Proposal",
    "",
    "We have identified two ways that a live frontend might read from the draft store:",
    "",
    "1. The live store could read from the draft database if its settings were misconfigured.",
    "2. Live instances of frontend applications could read from the draft store if their configuration was wrong.",
    "",
    "We will add a firewall rule.",
  ]);
  assert.ok(!names.some((n) => /could read/.test(n)), names.join(" | "));
});

test("pros and cons under an option's sub-heading leave the heading as the option", () => {
  const names = considered("adr/0024-caching.md", [
    "# 24. Caching",
    "",
    "## Considered Options",
    "",
    "### In-memory caching",
    "",
    "- Requires minimal setup",
    "- Less scalable than a shared cache",
    "",
    "### Distributed caching",
    "",
    "- Requires infrastructure work",
    "- More scalable",
    "",
    "## Decision Outcome",
    "",
    "We will use distributed caching.",
  ]);
  assert.deepEqual(names, ["In-memory caching", "Distributed caching"]);
});

test("alternatives titled by a line of their own under 'Options considered but not pursued' are read", () => {
  const names = considered("rfcs/rfc-040-review-tool.md", [
    "# RFC-040: A review tool",
    "",
    "## Summary",
    "",
    "Build a review tool inside the publisher.",
    "",
    "## Options considered but not pursued",
    "",
    "Signed links (no login) / Reply form",
    "",
    "This would have been simple to build, but links could leak.",
    "",
    "Chat integrations / Mail proxies",
    "",
    "Another option was to lean on chat tools the reviewers know. It would give no audit trail.",
  ]);
  assert.ok(names.includes("Signed links (no login) / Reply form"), names.join(" | "));
  assert.ok(names.includes("Chat integrations / Mail proxies"), names.join(" | "));
});

test("a 'Compatibility Requirements' part among the alternatives' sub-headings is no alternative", () => {
  const names = considered("text/0048-result-cache.md", [
    "# Result cache",
    "",
    "## Summary",
    "",
    "Add a result cache between the query layer and the storage nodes.",
    "",
    "## Motivation",
    "",
    "Repeated queries are slow.",
    "",
    "## Alternatives",
    "",
    "There was a previous design that cached data on the storage side. However its performance was poor.",
    "",
    "### Storing results in the client",
    "",
    "Another potential option is to keep results in the client.",
    "",
    "### Compatibility Requirements",
    "",
    "There is a high cost to breaking changes.",
  ]);
  assert.ok(names.includes("Storing results in the client"), names.join(" | "));
  assert.ok(!names.includes("Compatibility Requirements"), names.join(" | "));
});

test("'There was a previous design that …' alone names that design as an alternative", () => {
  const names = considered("text/0049-result-cache.md", [
    "# Result cache",
    "",
    "## Summary",
    "",
    "Add a result cache between the query layer and the storage nodes.",
    "",
    "## Motivation",
    "",
    "Repeated queries are slow.",
    "",
    "## Alternatives",
    "",
    "There was a previous design that cached data on the storage side. However its performance was poor.",
  ]);
  assert.ok(names.includes("cached data on the storage side"), names.join(" | "));
});

test("a label before the colon ('Preferred syntax: X') leaves the name after it", () => {
  assert.equal(optionName("Preferred syntax: Explicit table naming").name, "Explicit table naming");
  assert.equal(optionName("Discouraged approach: Implicit naming").name, "Implicit naming");
  // A name before a gloss is kept as before.
  assert.equal(optionName("Log4brains: architecture knowledge base").name, "Log4brains");
});

test("a question heading among the alternatives groups the answers listed under it", () => {
  const names = considered("proposals/202012-deletions.md", [
    "# Deletions in object storage",
    "",
    "## Summary",
    "",
    "Delete series with tombstones.",
    "",
    "## Proposed Approach",
    "",
    "* We propose to implement deletions with tombstones written by a CLI tool.",
    "",
    "## Alternatives",
    "",
    "#### Where the deletion API sits",
    "",
    "1. **Compactor:**",
    "* Pros: a single writer",
    "* Cons: no quick access to the indexes",
    "1. **Store:**",
    "* Pros: quick access to the indexes",
    "* Cons: many writers",
    "",
    "#### How we store the tombstones",
    "",
    "1. Global file per block",
    "2. Global appendable file",
    "",
    "Reasons for not choosing 1:",
    "* It does not scale with the number of blocks.",
  ]);
  for (const n of ["Compactor", "Store", "Global file per block", "Global appendable file"]) assert.ok(names.includes(n), names.join(" | "));
  assert.ok(!names.includes("Where the deletion API sits") && !names.some((n) => /does not scale/.test(n)), names.join(" | "));
});

test("'Two popular alternatives to X are A and B' weighs X, A and B", () => {
  const names = considered("rfd/0100/README.md", [
    "# RFD 100 Better lint checks",
    "",
    "## Problems",
    "",
    "Our linter misses several checks.",
    "",
    "## Alternative linters",
    "",
    "Two popular alternatives to JavaScript Lint are [ESLint] and [JSHint]. Both are written in JavaScript.",
    "",
    "## Recommended changes",
    "",
    "Require a check target in every repository.",
  ]);
  assert.deepEqual(names, ["JavaScript Lint", "ESLint", "JSHint"]);
});

test("a template's alternatives question answered in paragraphs: 'We have also considered X, which …' names X", () => {
  const names = considered("text/0107-scaffolding.md", [
    "# Summary",
    "",
    "Scaffold new buildpacks from templates.",
    "",
    "# Motivation",
    "",
    "Authors start from nothing.",
    "",
    "# Alternatives",
    "",
    "- What other designs have been considered?",
    "",
    "We have also considered springerle, which uses a single txtar file to describe the project.",
    "",
    "- Why is this proposal the best?",
    "",
    "We could reuse a pure Go tool.",
  ]);
  assert.ok(names.includes("springerle"), names.join(" | "));
  // What answers another question is no alternative.
  assert.ok(!names.some((n) => /pure Go/.test(n)), names.join(" | "));
});

test("options a decision announces in a list of its own are weighed beside the record's listed ones, not objectives or flags", () => {
  const names = considered("adr/0025-caching.md", [
    "# 25. Caching",
    "",
    "## Considered Options",
    "",
    "### In-memory caching",
    "",
    "- Requires minimal setup",
    "",
    "### Distributed caching",
    "",
    "- More scalable",
    "",
    "## Decision Outcome",
    "",
    "Distributed caching is the only one of the two that works across instances.",
    "",
    "We weighed the options. Objectives of the cache:",
    "",
    "- Serve pages fast",
    "- Cost little",
    "",
    "The new component allows the following options:",
    "",
    "- --cache.ttl, duration",
    "- --cache.size, int",
    "",
    "For distributed caching, there are 3 main options:",
    "",
    "- Redis",
    "- SQL Server",
    "- NCache",
  ]);
  assert.deepEqual(names, ["In-memory caching", "Distributed caching", "Redis", "SQL Server", "NCache"]);
});
