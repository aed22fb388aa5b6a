// A reading of the chosen option (issue 21, item 1): a proposal that coins a name for its design ("introduces Quill, a
// scheduler that …") keeps the appositive that says what the name stands for, as it keeps an aside between dashes.
// Every record here is written for these tests.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { parseAdr } from "../../src/core/internal/adr";
import { DecisionRecordSchema, decisionModelOf, type DecisionRecord } from "../../src/core/decisions";
import { withDefiningAside } from "../../src/core/decisions/proposal";

function model(path: string, text: string): DecisionRecord {
  const m = decisionModelOf(parseAdr(path, text));
  DecisionRecordSchema.parse(m);
  return m;
}

describe("a coined name keeps the appositive that defines it", () => {
  test("a bare name followed by ', a …' to the end of the sentence", () => {
    const sentence = 'This proposal introduces "Quill", a scheduler that moves retry timers out of the worker pool.';
    assert.equal(withDefiningAside(sentence, "Quill"), "Quill (a scheduler that moves retry timers out of the worker pool)");
  });

  test("a longer phrase or an appositive the sentence goes on past is left alone", () => {
    assert.equal(withDefiningAside('We add "Quill", a scheduler, and keep the pool.', "Quill"), "Quill");
    assert.equal(withDefiningAside("We move the retry timers into a scheduler, a small service of its own.", "the retry timers into a scheduler"), "the retry timers into a scheduler");
  });

  test("a proposal that coins its design's name is read with the definition", () => {
    const m = model(
      "proposals/0009-quill.md",
      `# Merge retry timers into the scheduler

## Overview

This proposal introduces "Quill", a redesign that moves retry timers out of the worker pool and into the scheduler.

## Background

Retry timers live in every worker today and are lost when a worker restarts.

## Expectations and alternatives

Keeping the timers in the workers and persisting them there was weighed; it keeps the pool busy with clocks.

## Implementation details

The scheduler stores each timer with the job it belongs to.
`,
    );
    assert.match(m.chosen?.name ?? "", /^Quill \(a redesign that moves retry timers/);
  });
});
