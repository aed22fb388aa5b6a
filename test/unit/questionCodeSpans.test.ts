// Punctuation inside an inline code span is part of a name, not of the sentence: a colon or pipe in `key: value`
// must not split the clause that asks, so the option keeps the name the span gives it.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readQuestion } from "../../src/core/synth/question";
import { withoutCodeExamples } from "../../src/core/synth/question/questionText";

describe("code spans in a question", () => {
  test("a colon, semicolon or pipe inside a code span is dropped, its words kept", () => {
    assert.equal(withoutCodeExamples("add a `retry: never` setting"), "add a `retry never` setting");
    assert.equal(withoutCodeExamples("a `mode: fast | safe` field"), "a `mode fast safe` field");
    assert.equal(withoutCodeExamples("call `render()` here"), "call `render()` here");
  });

  test("an option written as `key: value` keeps its key", () => {
    const q = readQuestion("Should the manifest get a new `prefetch: false` flag, or should we reuse the existing lazy marker?");
    assert.equal(q.form, "alternatives");
    assert.ok(q.alternatives.some((a) => /prefetch/i.test(a.title)), q.alternatives.map((a) => a.title).join(" | "));
  });
});
