// The Critic reads the question's words in the records' whole texts (critic/coverage.ts), and the plain view's dissent
// weighs less on a record firmly tied to the question (issue 23, branch criticwb). Fixtures are invented: an
// engineer's symptom answered from a record about container images while a neighbouring record on batch scheduling
// describes that very symptom.
// These tests read the checks under the units that blocked before the odds of doubt (policy.ts UNITS_BEFORE_DOUBTS);
// critic-doubts.test.ts tests the odds.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { applyObjections, critique, findings } from "../../src/core/critic";
import { UNITS_BEFORE_DOUBTS } from "../../src/core/critic/policy";
import { coveredElsewhere, MIN_GAP } from "../../src/core/critic/coverage";
import type { FusedEvidence } from "../../src/core/schemas";
import { draft, option, recordItem } from "../helpers/criticEvidence";

const Q = "Our nightly report jobs keep timing out whenever the warehouse is busy, and the finance team misses its morning figures. How should we run them?";
const DECIDING = "docs/adr/0004-container-images.md";
const NEIGHBOUR = "docs/adr/0009-batch-scheduling.md";
const DECIDING_TEXT = "# Container images\n\nEvery service ships as one image built in CI.";
/** Names the symptom: nightly, report, jobs, warehouse, busy, finance, figures (seven of the question's words). */
const SYMPTOM = "# Batch scheduling\n\nNightly report jobs used to run against the warehouse while it was busy; finance needed its figures early, so we queue them.";
/** Names only one of the question's words the deciding record lacks: jobs. */
const VAGUE = "# Batch scheduling\n\nJobs go through a queue.";

/** A low-confidence draft following the container-images record, beside the scheduling record retrieval ranked second. */
function imagesCase(neighbourText: string, scores: { mine: number; theirs: number } = { mine: 10, theirs: 9 }, neighbourMeta: object = {}) {
  const rec = recordItem(DECIDING, scores.mine, 1, { title: "Container images" });
  const other = recordItem(NEIGHBOUR, scores.theirs, 2, { title: "Batch scheduling", ...neighbourMeta });
  const d = draft(Q, [option("opt-images", "One image per service", [rec.id]), option("opt-keep", "Keep the current approach")], "opt-images", "low");
  const texts: Record<string, string> = { [DECIDING]: DECIDING_TEXT, [NEIGHBOUR]: neighbourText };
  return { question: Q, draft: d, evidence: [rec, other] as FusedEvidence[], recordText: (path: string) => texts[path] };
}

function focusOf(input: ReturnType<typeof imagesCase>) {
  const rec = input.draft.options[0];
  const cite = input.evidence[0];
  return { question: Q, draft: input.draft, evidence: input.evidence, rec, record: { meta: cite.adr!, cite, text: DECIDING_TEXT }, terms: new Map<string, string[]>(), recordText: input.recordText };
}

describe("critic: another record covers more of the question", () => {
  test("the neighbour names the symptom the deciding record never mentions: the finding cites both records", () => {
    const found = coveredElsewhere(focusOf(imagesCase(SYMPTOM)));
    assert.ok(found);
    assert.ok(found.theirs - found.mine >= MIN_GAP, `gap ${found.theirs - found.mine}`);
    assert.deepEqual(found.citations, [`ev-${DECIDING.replace(/\W/g, "")}`, `ev-${NEIGHBOUR.replace(/\W/g, "")}`]);
    assert.deepEqual([found.mine, found.theirs], [0, 7]);
    assert.match(found.text, /^ADR "Batch scheduling" mentions more of what the question describes \(7 of its 12 distinct words\) than ADR "Container images" does \(0\)/);
  });

  test("a neighbour only one word ahead is not enough", () => {
    assert.equal(coveredElsewhere(focusOf(imagesCase(VAGUE))), undefined);
  });

  test("a record the deciding one replaced is never the better-covered neighbour", () => {
    const input = imagesCase(SYMPTOM, undefined, { superseded_by: [DECIDING], status: "superseded" });
    assert.equal(coveredElsewhere(focusOf(input)), undefined);
  });

  test("weakly tied on an open question and covered elsewhere: one blocking objection naming both doubts", () => {
    const input = imagesCase(SYMPTOM);
    const kinds = findings(input).map((f) => f.kind);
    assert.ok(kinds.includes("covered-elsewhere"));
    assert.ok(kinds.includes("weak-grounding/open"));
    assert.ok(UNITS_BEFORE_DOUBTS.has("covered-elsewhere+weak-grounding/open"));
    const blocking = critique(input, UNITS_BEFORE_DOUBTS, null).filter((o) => o.severity === "blocking");
    assert.equal(blocking.length, 1);
    assert.equal(blocking[0].check, "doubts");
    assert.match(blocking[0].text, /another retrieved record mentions more of what the question describes/);
    const after = applyObjections({ ...input.draft, recommendation: { ...input.draft.recommendation, confidence: "med" } }, critique(input, UNITS_BEFORE_DOUBTS, null), input.evidence);
    assert.equal(after.recommendation.confidence, "low");
  });

  test("the same neighbour beside a record that leads retrieval clearly: a concern only", () => {
    const input = imagesCase(SYMPTOM, { mine: 10, theirs: 2 });
    const raised = critique(input, UNITS_BEFORE_DOUBTS, null);
    assert.ok(raised.some((o) => o.kind === "covered-elsewhere" && o.severity === "concern"));
    assert.equal(raised.some((o) => o.severity === "blocking"), false);
  });
});

describe("critic: the plain view against a firmly tied record", () => {
  /** The deciding record second in the plain view, behind the neighbour; `theirs` sets how far it leads retrieval. */
  function plainCase(theirs: number) {
    const input = imagesCase(VAGUE, { mine: 10, theirs });
    input.evidence = [{ ...input.evidence[0], plain_rank: 2 }, { ...input.evidence[1], plain_rank: 1 }];
    return input;
  }

  test("a record barely ahead in retrieval: the plain view's dissent blocks", () => {
    const raised = critique(plainCase(9), UNITS_BEFORE_DOUBTS, null);
    assert.ok(raised.some((o) => o.kind === "outranked/plain-view" && o.severity === "blocking"));
  });

  test("a record four times the next document's score: the same dissent is a concern of its own kind", () => {
    const input = plainCase(2.5);
    assert.ok(findings(input).some((f) => f.kind === "outranked/plain-view-firm"));
    const raised = critique(input, UNITS_BEFORE_DOUBTS, null);
    assert.equal(raised.some((o) => o.kind === "outranked/plain-view"), false);
    assert.equal(raised.some((o) => o.severity === "blocking"), false);
  });
});
