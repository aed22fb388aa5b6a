// Readings of the decision model added by session dm4: "X will need to be done" commits to X being done, subject and
// all, as "X will be done" does; with no decision section, an option's own section that commits to it in the first
// person, naming it first (or by its initials), chooses it. Every record and sentence here is written for these tests.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { parseAdr } from "../../src/core/internal/adr";
import { DecisionRecordSchema, decisionModelOf, type DecisionRecord } from "../../src/core/decisions";
import { readDecisionSentence } from "../../src/core/decisions/prose";

function model(path: string, text: string): DecisionRecord {
  const m = decisionModelOf(parseAdr(path, text));
  DecisionRecordSchema.parse(m);
  return m;
}

describe("a commitment that something will need to be done", () => {
  test("keeps its subject, as the plain future passive does", () => {
    assert.equal(readDecisionSentence("Uploads from guests will need to be scanned").chosen, "Uploads from guests will need to be scanned");
    assert.equal(readDecisionSentence("Uploads from guests will need to be scanned").cue, "passive");
  });

  test("a need that is no participle commits to nothing", () => {
    assert.equal(readDecisionSentence("We will need to be patient.").chosen, undefined);
  });
});

const OPTION_CLAIMS_ITSELF = `# Release process for the mobile apps

## Context

Releases slip because half-finished work blocks the release branch.

## Considered Options

### Long-lived release branches

Each release gets a branch that is stabilised for two weeks before it ships.

### Feature flags

Unfinished work ships dark behind a switch that is turned on when it is ready.

We use FFs for every app from the next release on, despite the extra clean-up work.

## Consequences

Old switches must be removed after each launch.
`;

const OPTION_DESCRIBES_TODAY = OPTION_CLAIMS_ITSELF.replace("We use FFs for every app from the next release on, despite the extra clean-up work.", "We currently use FFs for a few experiments in one app.");

describe("an option whose own section commits to it", () => {
  test("a first-person commitment naming the option by its initials chooses it", () => {
    const m = model("docs/adr/0007-release-process.md", OPTION_CLAIMS_ITSELF);
    assert.equal(m.chosen?.name, "Feature flags");
  });

  test("a commitment that only mentions the option on the way chooses nothing", () => {
    const text = OPTION_CLAIMS_ITSELF.replace("We use FFs for every app from the next release on, despite the extra clean-up work.", "We will look for cheaper ways to clean up feature flags in the next year.");
    assert.notEqual(model("docs/adr/0007-release-process.md", text).chosen?.name, "Feature flags");
  });

  test("a sentence about how things are today chooses nothing", () => {
    const m = model("docs/adr/0007-release-process.md", OPTION_DESCRIBES_TODAY);
    assert.notEqual(m.chosen?.name, "Feature flags");
  });
});
