// Readings of the decision model added in round 33. The future progressive ("We'll be using X", "we will be adopting
// X") commits to X as "we will use X" does, also with a typographic apostrophe ("We’ll"). A proposal whose prose names
// none of its alternatives but links to one alternative's section ("uses the [X approach](#x) below") took that one.
// A passive in the future tense after the opening ("All handlers will be rewritten to X") states the decision as a
// "we will" sentence does, unless it only introduces a list or table with a colon.
// Every record and sentence here is written for these tests.
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

describe("the future progressive commits", () => {
  test("we'll be using X chooses X", () => {
    assert.equal(readDecisionSentence("We'll be using SQLite for the local cache.").chosen, "SQLite");
  });
  test("a typographic apostrophe reads the same", () => {
    assert.equal(readDecisionSentence("We’ll be adopting Buildkite for the release pipeline.").chosen, "Buildkite");
  });
  test("a verb other than a choosing one is kept with its object", () => {
    assert.equal(readDecisionSentence("We will be migrating the billing jobs to Nomad.").chosen, "migrating the billing jobs to Nomad");
  });
  test("someone else being busy is no commitment", () => {
    assert.equal(readDecisionSentence("The vendor will be using its own scheduler.").chosen, undefined);
  });
  test("a record whose decision opens in the future progressive names its choice", () => {
    const m = model(
      "docs/adr/0007-cache-store.md",
      "# 7. Cache store\n\n## Status\n\nAccepted\n\n## Context\n\nThe desktop client refetches every board on start.\n\n## Decision\n\nWe'll be using SQLite for the local cache. Boards are written on every sync.\n\n## Consequences\n\nStart-up reads from disk.\n",
    );
    assert.equal(m.chosen?.name, "SQLite");
  });
});

const LINKED_ALTERNATIVE = `---
status: proposed
---

# Throttling Nightly Exports

## Summary

Let operators bound how many nightly exports run at once.

## Proposal

We have built a small prototype service for throttling exports.
The prototype follows the [Standalone limiter service](#standalone-limiter-service) design below.
We will run it on the staging cluster first.

## Alternatives

### Standalone limiter service

A separate service watches export jobs and pauses the surplus ones.

### Limits inside the export worker

Each worker counts its peers through a shared lock table.

### Limits in the cron schedule

Exports are spread over the night by hand.
`;

describe("a proposal that links to one alternative's section", () => {
  test("chooses that alternative", () => {
    const m = model("teps/0042-throttling.md", LINKED_ALTERNATIVE);
    assert.equal(m.chosen?.name, "Standalone limiter service");
  });
  test("a link that turns the alternative down chooses nothing by it", () => {
    const text = LINKED_ALTERNATIVE.replace("The prototype follows the", "The prototype rejected the");
    const m = model("teps/0042-throttling.md", text);
    assert.notEqual(m.chosen?.name, "Standalone limiter service");
  });
});

const FUTURE_PASSIVE_RECORD = (later: string) => `# 12. Retry handling

## Status

Accepted

## Context

Retries are coded by hand in each client.

## Decision

Some clients retry on every error. Others give up at once. A few sleep for a fixed second.

${later}

## Consequences

Clients behave alike.
`;

describe("a future passive after the opening", () => {
  test("states the decision", () => {
    const m = model("docs/adr/0012-retries.md", FUTURE_PASSIVE_RECORD("Every client will be changed to retry with exponential backoff."));
    assert.equal(m.chosen?.name, "retry with exponential backoff");
  });
  test("one that introduces a list states nothing by itself", () => {
    const m = model("docs/adr/0012-retries.md", FUTURE_PASSIVE_RECORD("Every client will be given the following limits:\n\n- three attempts\n- a ten second cap"));
    assert.notEqual(m.chosen?.name, "the following limits");
    assert.ok(!/following limits/.test(m.chosen?.name ?? ""));
  });
});
