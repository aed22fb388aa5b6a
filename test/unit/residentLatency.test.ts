// The eval's resident-mode latency summary (eval/resident.ts): each server's first question pays for loading the
// corpus, so the figures come with it and without it; and the questions are grouped one server per repository.
import { test } from "node:test";
import assert from "node:assert/strict";
import { byRepository, summariseLatency } from "../../eval/resident";

test("the summary gives p50/p95 over every question, over all but each server's first, and the first ones alone", () => {
  const timings = [
    { ms: 4000, first: true },
    ...Array.from({ length: 19 }, (_, i) => ({ ms: 100 + i * 10, first: false })),
    { ms: 3000, first: true },
  ];
  const s = summariseLatency(timings);
  assert.equal(s.questions, 21);
  assert.equal(s.p95_ms, 3000, "with the first questions, the slow corpus loads are the tail");
  assert.equal(s.after_first.questions, 19);
  assert.equal(s.after_first.p50_ms, 190);
  assert.equal(s.after_first.p95_ms, 280);
  assert.deepEqual(s.first, { questions: 2, p50_ms: 3000, max_ms: 4000 });
});

test("an empty summary has no percentiles rather than zeros", () => {
  const s = summariseLatency([]);
  assert.equal(s.questions, 0);
  assert.equal(s.p50_ms, undefined);
  assert.equal(s.after_first.p95_ms, undefined);
  assert.equal(s.first.max_ms, undefined);
});

test("questions are grouped one server per repository, in question order, repositories by first appearance", () => {
  const groups = byRepository([{ repo: "b" }, { repo: "a" }, { repo: "b" }, { repo: "c" }, { repo: "a" }]);
  assert.deepEqual(groups, [
    { repo: "b", indexes: [0, 2] },
    { repo: "a", indexes: [1, 4] },
    { repo: "c", indexes: [3] },
  ]);
});
