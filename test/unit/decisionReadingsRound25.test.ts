// Readings fixed in the twenty-fifth session (issue 21): a passive refusal ("Changes to the YAML setup will no longer
// be accepted") turns its subject down, not the words after "no"; "we propose to roll out X" after a leading clause
// puts X forward, not "propose to roll out X". Every record here is written for these tests.
import { test } from "node:test";
import assert from "node:assert/strict";
import { parseAdr } from "../../src/core/internal/adr";
import { decisionModelOf, readDecisionSentence } from "../../src/core/decisions";

test("a subject that 'will no longer be accepted' is what the sentence turns down", () => {
  assert.deepEqual(readDecisionSentence("Changes to the YAML configuration will no longer be accepted.").rejected, ["Changes to the YAML configuration"]);
  // Set off by a comma, the subject still opens the sentence.
  assert.deepEqual(readDecisionSentence("New options for these same integrations, will no longer be accepted.").rejected, ["New options for these same integrations"]);
  assert.deepEqual(readDecisionSentence("Plain passwords will not be supported.").rejected, ["Plain passwords"]);
  // A refusal of an action still reads its object.
  assert.deepEqual(readDecisionSentence("We will not use MongoDB.").rejected, ["MongoDB"]);
});

test("'Instead of X, we propose to roll out Y' puts Y forward and turns X down", () => {
  const r = readDecisionSentence("Instead of using the upstream isolation, we propose to roll out one stack per project namespace.");
  assert.equal(r.chosen, "roll out one stack per project namespace");
  assert.deepEqual(r.rejected, ["upstream isolation"]);
});

test("a record's decision with a refused passive offers the subject, never a fragment after 'no'", () => {
  const text = [
    "# 10. Device integrations are set up in the UI",
    "",
    "## Status",
    "",
    "Accepted",
    "",
    "## Decision",
    "",
    "Integrations that talk to devices are configured through the UI only.",
    "",
    "Changes to the YAML configuration of those integrations will no longer be accepted.",
  ].join("\n");
  const model = decisionModelOf(parseAdr("adr/0010-device-integrations.md", text));
  const names = model.rejected.map((r) => r.name);
  assert.ok(names.includes("Changes to the YAML configuration of those integrations"), names.join(" | "));
  assert.ok(!names.some((n) => /^longer\b/i.test(n)), names.join(" | "));
});

test("a choice the record goes on to name is known by that name", () => {
  const text = [
    "# Pipelines for many users",
    "",
    "| Status | Accepted |",
    "",
    "## Decision",
    "",
    "Instead of the upstream isolation, we propose to roll out one single-user stack per project namespace. (The rest of this record will refer to this approach as the “stack-per-project approach”.)",
    "",
    "## Alternatives",
    "",
    "1. Use the upstream isolation as it is.",
  ].join("\n");
  assert.equal(decisionModelOf(parseAdr("adr/0002-pipelines.md", text)).chosen?.name, "stack-per-project approach");
  // Without the naming sentence, the choice is read from the sentence itself.
  const plain = text.replace(/ \(The rest[^)]*\)/, "");
  assert.equal(decisionModelOf(parseAdr("adr/0002-pipelines.md", plain)).chosen?.name, "roll out one single-user stack per project namespace");
});
