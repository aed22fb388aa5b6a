// Readings fixed in the twenty-second session (issue 21): an alternatives section whose headings answer for each
// option ("Why not republish forks?", "Why this is not just overrides") names the options themselves, not the
// questions about them; an option whose link was its object does not end on the words that led to it; a record
// whose title names one of the question's options chose it, though a weighed variant of it names it too. Every record
// here is written for these tests.
import { test } from "node:test";
import assert from "node:assert/strict";
import { parseAdr } from "../../src/core/internal/adr";
import { decisionModelOf, optionName } from "../../src/core/decisions";
import { createGitRepo } from "../helpers/gitRepo";
import { askOffline, recommendedOption } from "../helpers/ask";

test("a heading that asks 'why not X?' names the option X", () => {
  assert.equal(optionName("Why not republish forks?").name, "Republish forks");
  assert.equal(optionName("Why this is not just overrides").name, "Overrides");
  assert.equal(optionName("Why not use a message queue instead?").name, "A message queue");
  assert.equal(optionName("Why it is not native dependency patching").name, "Native dependency patching");
  // A heading that asks something else is left as written.
  assert.equal(optionName("Why we chose SQLite").name, "Why we chose SQLite");
});

test("an alternatives section of 'why not' headings lists the options they answer for", () => {
  const text = [
    "# Patch dependency manifests from the root",
    "",
    "Status: accepted",
    "",
    "## Proposal",
    "",
    "A root-only field in the project manifest lets a project patch its dependencies' manifests.",
    "",
    "## Alternatives",
    "",
    "### Why not republish forks?",
    "",
    "Every fork has to be kept up to date by hand.",
    "",
    "### Why this is not just overrides",
    "",
    "Overrides replace a version; they cannot add a missing peer.",
    "",
  ].join("\n");
  const model = decisionModelOf(parseAdr("accepted/0007-patch-manifests.md", text));
  const names = model.considered.map((o) => o.name);
  assert.ok(names.includes("Republish forks"), names.join(" | "));
  assert.ok(names.includes("Overrides"), names.join(" | "));
  assert.ok(!names.some((n) => /^why\b/i.test(n)), names.join(" | "));
});

test("an option whose address was its object ends before the words that led to it", () => {
  assert.equal(optionName("Other templates listed at <https://example.org/templates>").name, "Other templates listed");
  assert.equal(optionName("Hosted at [the forge](https://example.org)").name, "Hosted at the forge");
  // Without an address, a trailing word is the record's own.
  assert.equal(optionName("Move to").name, "Move to");
});

test("a record whose title names one of the question's options chose it, though a weighed variant names it too", async () => {
  const repo = createGitRepo([
    {
      message: "records",
      files: {
        "docs/adr/0012-attachment-cleanup-with-bloom-filters.md": [
          "# 12. Orphaned attachment cleanup with bloom filters",
          "",
          "## Status",
          "",
          "Accepted",
          "",
          "## Context",
          "",
          "Attachments are stored once and shared between messages, so nothing knows when one is no longer used.",
          "",
          "## Decision",
          "",
          "We will propose a simple two-step background job.",
          "",
          "The first step builds a bloom filter from every message that references an attachment.",
          "",
          "The second step walks the attachments and checks each one in the bloom filter to predict whether it is still referenced.",
          "",
          "## Alternatives",
          "",
          "### Iterative approach",
          "",
          "Walk every message for each attachment: far too slow.",
          "",
          "### Implementation of the Bloom Filter approach with Apache Spark",
          "",
          "The same two steps could also run as Spark jobs, for deployments that already operate a Spark cluster.",
          "",
        ].join("\n"),
        "docs/adr/0001-record-decisions.md": "# 1. Record decisions\n\n## Status\n\nAccepted\n\n## Decision\n\nWe keep decision records.\n",
      },
    },
  ]);
  const p = await askOffline(repo, "Shared attachments are never deleted today. Should we track references and deletions in tables for a garbage collector, or run a periodic sweep backed by a bloom filter?");
  assert.equal(recommendedOption(p)?.title, "Run a periodic sweep backed by a bloom filter", `${p.options.map((o) => o.title).join(" | ")} / ${p.recommendation.rationale}`);
});
