// "The operator may decide to X" leaves a choice to someone later; it is not the record's decision
// (src/core/decisions/prose.ts). Sentences written for this test.
import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import { readDecisionSentence } from "../../src/core/decisions";

describe("a choice left to someone later", () => {
  for (const sentence of [
    "An administrator may decide to switch the nightly export off.",
    "Teams might choose to run their own relay instead.",
    "Each tenant can opt to keep the legacy dashboard.",
  ]) {
    it(`reads no choice in "${sentence}"`, () => {
      assert.equal(readDecisionSentence(sentence).chosen, undefined);
    });
  }

  it("still reads a decision that was made", () => {
    assert.equal(readDecisionSentence("The team decided to switch the nightly export off.").chosen, "switch the nightly export off");
    assert.equal(readDecisionSentence("The team chose to run its own relay.").chosen, "run its own relay");
  });
});
