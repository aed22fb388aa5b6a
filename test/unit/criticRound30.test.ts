// Round 30 of the rules Critic (issue 23): the crowded field. When two or more other retrieved documents score at
// least 80% of what the deciding record scores, the record does not stand out of a pack of neighbours; the finding's
// kind says whether the draft was held at low confidence ("crowded") or not ("crowded/confident").
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { critique, findings } from "../../src/core/critic";
import { CROWD_MIN, CROWD_SHARE, crowdedField, nearEquals } from "../../src/core/critic/signals";
import type { AdrMeta, DraftPicker, FusedEvidence } from "../../src/core/schemas";
import { recordItem } from "../helpers/criticEvidence";

const record = recordItem;

const QUESTION = "How should the ingest jobs retry when the upstream API times out?";

function draftOn(evidence: FusedEvidence[], confidence: "low" | "med" | "high"): DraftPicker {
  return {
    question: QUESTION,
    class: "open-question",
    options: [
      { id: "opt-backoff", title: "Exponential backoff with jitter", summary: "s", supports: [evidence[0].id], dissent: [], tradeoffs: [], cost: "low", risk: "low" },
      { id: "opt-keep", title: "Keep the current approach", summary: "s", supports: [], dissent: [], tradeoffs: [], cost: "low", risk: "low" },
    ],
    recommendation: { option_id: "opt-backoff", rationale: "r", confidence },
    citations: [],
    coverage: { internal: 1, external: 0, top_score: 1 },
  };
}

const deciding = record("docs/adr/0007-retries.md", 100, 1, { title: "Retry policy for ingest", number: 7, chosen_option: "Exponential backoff with jitter" });
const near = (n: number, score: number, meta: Partial<AdrMeta> = {}) => record(`docs/adr/001${n}-other-${n}.md`, score, n + 1, { title: `Neighbour ${n}`, number: 10 + n, ...meta });

function focus(evidence: FusedEvidence[], confidence: "low" | "med" | "high" = "low") {
  const d = draftOn(evidence, confidence);
  return { question: QUESTION, draft: d, evidence, rec: d.options[0], record: { meta: deciding.adr!, cite: deciding, text: "Retry policy\nWe decided." }, terms: new Map<string, string[]>() };
}

const kindsOf = (evidence: FusedEvidence[], confidence: "low" | "med" | "high") => findings({ question: QUESTION, draft: draftOn(evidence, confidence), evidence }).map((f) => f.kind);

describe("critic round 30: a crowded field of near-equal documents", () => {
  test("near equals are the other documents scoring at least CROWD_SHARE of the record, best first", () => {
    assert.equal(CROWD_SHARE, 0.8);
    assert.equal(CROWD_MIN, 2);
    const ev = [deciding, near(1, 79), near(2, 80), near(3, 120)];
    assert.deepEqual(nearEquals(focus(ev))?.map((e) => e.adr?.title), ["Neighbour 3", "Neighbour 2"]);
  });

  test("one near equal is a close race, not a crowd; two are a crowd", () => {
    assert.equal(crowdedField(focus([deciding, near(1, 95), near(2, 40)])), undefined);
    const crowd = crowdedField(focus([deciding, near(1, 95), near(2, 85), near(3, 81)]));
    assert.ok(crowd);
    assert.match(crowd.text, /3 other documents \(ADR 11 "Neighbour 1", ADR 12 "Neighbour 2" and 1 more\) score at least 80% as high/);
    assert.deepEqual(crowd.citations, [deciding.id, "ev-docsadr0011other1md", "ev-docsadr0012other2md"]);
  });

  test("a record the deciding one replaced is no neighbour", () => {
    const old = near(1, 95, { superseded_by: [deciding.adr!.path], status: "superseded" });
    assert.equal(crowdedField(focus([deciding, old, near(2, 90)])), undefined);
  });

  test("the kind says whether the draft was held at low confidence", () => {
    const ev = [deciding, near(1, 95), near(2, 90)];
    assert.ok(kindsOf(ev, "low").includes("crowded"));
    assert.ok(!kindsOf(ev, "low").includes("crowded/confident"));
    assert.ok(kindsOf(ev, "med").includes("crowded/confident"));
    assert.ok(!kindsOf([deciding, near(1, 50), near(2, 40)], "low").some((k) => k.startsWith("crowded")));
  });

  test("it blocks only when policy says so, and then lowers the confidence", () => {
    const ev = [deciding, near(1, 95), near(2, 90)];
    const input = { question: QUESTION, draft: draftOn(ev, "low"), evidence: ev };
    // No blocking units and no odds of doubt (the stored odds block a crowded low draft on their own).
    const asConcern = critique(input, new Set(), null).find((o) => o.check === "crowded");
    assert.equal(asConcern?.severity, "concern");
    const blocking = critique(input, new Set(["crowded"])).find((o) => o.check === "crowded");
    assert.equal(blocking?.severity, "blocking");
    assert.equal(blocking?.effect, "lower");
  });
});
