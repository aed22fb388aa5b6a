// Decision prose that names the choice after "from … to" or as a passive subject; the records are written for these tests.
import { test } from "node:test";
import assert from "node:assert/strict";
import { parseAdr } from "../../src/core/internal/adr";
import { decisionModelOf } from "../../src/core/decisions";
import { readDecisionSentence } from "../../src/core/decisions/prose";

const record = (decision: string, options = "") =>
  `# 4. Bundling\n\n## Status\n\nAccepted\n\n## Context\n\nBuilds are slow.\n${options}\n## Decision\n\n${decision}\n\n## Consequences\n\nFaster builds.\n`;

test("a move from one thing to another chose what it moves to", () => {
  assert.equal(readDecisionSentence("We have decided to migrate from Jenkins and the shell scripts to a pipeline on GitHub Actions.").chosen, "pipeline on GitHub Actions");
});

test("an option named only as what the decision moves away from is not the chosen one", () => {
  const m = decisionModelOf(parseAdr("docs/adr/0004-bundling.md", record("We have decided to move from Grunt/Browserify and the asset gems to a build based on esbuild.", "\n## Considered Options\n\n* Browserify\n* esbuild\n* Parcel\n")));
  assert.equal(m.chosen?.considered_index, 1);
  assert.match(m.chosen?.name ?? "", /esbuild/);
});

test("in 'X was decided on to Y', X is the choice and Y its purpose", () => {
  assert.equal(readDecisionSentence("After a long discussion, Thrift was decided on to replace the current RPC layer.").chosen, "Thrift");
  const m = decisionModelOf(parseAdr("docs/adr/0004-bundling.md", record("Thrift was decided on to replace the current RPC layer.")));
  assert.equal(m.chosen?.name, "Thrift");
});

test("a past passive of picking reports the choice; a past 'was used' is history", () => {
  assert.equal(readDecisionSentence("Avro was selected as the wire format.").chosen, "Avro");
  assert.equal(decisionModelOf(parseAdr("docs/adr/0004-bundling.md", record("Avro was chosen for the event payloads."))).chosen?.name, "Avro");
  assert.equal(readDecisionSentence("Avro was used by the old pipeline.").chosen, undefined);
});
