import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { readDecisionSentence } from "../../src/core/decisions/prose";

describe("a connective opening the sentence before the team", () => {
  test("'Therefore we propose X' reads as 'We propose X'", () => {
    assert.equal(readDecisionSentence("Therefore we propose a shared lookup table.").chosen, "shared lookup table");
  });

  test("'Thus we recommend X' and 'So we suggest X' read the recommended thing", () => {
    assert.equal(readDecisionSentence("Thus we recommend a weekly snapshot of the ledger.").chosen, "weekly snapshot of the ledger");
    assert.equal(readDecisionSentence("So we suggest a weekly snapshot of the ledger.").chosen, "weekly snapshot of the ledger");
  });

  test("the reading matches the sentence without the connective", () => {
    const plain = readDecisionSentence("We propose to adopt the pebble queue.");
    const opened = readDecisionSentence("Consequently we propose to adopt the pebble queue.");
    assert.deepEqual(opened, plain);
  });

  test("a connective before anything but the team is left alone", () => {
    assert.equal(readDecisionSentence("So far nobody has measured it.").chosen, undefined);
  });
});
