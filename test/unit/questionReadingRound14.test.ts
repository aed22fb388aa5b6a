// Question readings fixed in round 14 (issue 21), found on questions written for repositories no rule had seen: a
// phrase that only points back ("we cannot fix them all") is no incumbent, and "Is X going to change …?" is about
// doing something, not a judgement of X.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readQuestion } from "../../src/core/synth/question";

describe("question readings, round 14", () => {
  test("a pronoun phrase in the setting is not what is in place today", () => {
    const q = readQuestion(
      "We want to enable a strict rule in a large app that already has 2,000 hits, and we cannot fix them all before new ones creep in. Should we adopt inline eslint-disable comments on every current occurrence as our standard approach?",
    );
    assert.equal(q.form, "adopt");
    assert.deepEqual(
      q.alternatives.map((a) => a.title),
      ["Adopt inline eslint-disable comments"],
    );
  });

  test("'Is X going to V …?' proposes the action, not X", () => {
    const q = readQuestion("Is ESLint going to change how it finds the right setup for each source path?");
    assert.equal(q.form, "action");
    assert.ok(!q.alternatives.some((a) => /going/.test(a.title)), q.alternatives.map((a) => a.title).join(" | "));
    // A real judgement of X still reads as one.
    assert.equal(readQuestion("Is Redis still the right choice for sessions?").form, "keep");
  });
});
