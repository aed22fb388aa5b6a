// Round 16 of the rules Critic (issue 23): what blocks is a set of units (a kind alone, or a pair of kinds of two
// different checks raised on the same answer), picked most-wrong-first and kept only when the pick does not depend on
// one repository; and decision-mismatch's "not-chosen" finding (the recommendation is not what the record chose).
// These tests read the checks under the units that blocked before the odds of doubt (policy.ts UNITS_BEFORE_DOUBTS);
// critic-doubts.test.ts tests the odds.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { applyObjections, critique, findings } from "../../src/core/critic";
import { UNITS_BEFORE_DOUBTS } from "../../src/core/critic/policy";
import { blockCounts, blockedBy, choosePolicy, crossValidate, DEFAULT_RULE, kindStats, STABLE_SHARE, unitsOf, type LabelledAnswer } from "../../src/core/critic/policy";
import type { AdrMeta } from "../../src/core/schemas";
import { draft, option, recordItem } from "../helpers/criticEvidence";

/** n answers of one repository, right or wrong, each carrying the given kinds. */
function answers(group: string, n: number, right: boolean, kinds: string[] = []): LabelledAnswer[] {
  return Array.from({ length: n }, () => ({ group, right, kinds: new Set(kinds) }));
}

const NONE = new Set<string>();
/** The rule without the stability check, so one repository's answers suffice. */
const ONE_REPO = { ...DEFAULT_RULE, stableShare: undefined };

describe("critic round 16: pairs of kinds as blocking units", () => {
  test("an answer's units are its kinds and each pair of kinds from two different checks", () => {
    const units = unitsOf(["outranked/plain-view", "weak-grounding/open", "weak-grounding"]);
    assert.deepEqual([...units].sort(), ["outranked/plain-view", "outranked/plain-view+weak-grounding", "outranked/plain-view+weak-grounding/open", "weak-grounding", "weak-grounding/open"]);
    assert.ok(blockedBy(["weak-grounding/open", "outranked/plain-view"], new Set(["outranked/plain-view+weak-grounding/open"])));
    assert.ok(!blockedBy(["weak-grounding/open"], new Set(["outranked/plain-view+weak-grounding/open"])));
  });

  test("two kinds each too common on right answers to block alone, telling together: the pair is picked, neither alone", () => {
    // "a" and "b" each ride on 6 right answers (ratio about 2); together only on wrong ones.
    const rows = [
      ...answers("r", 8, false, ["x/a", "y/b"]),
      ...answers("r", 4, false),
      ...answers("r", 6, true, ["x/a"]),
      ...answers("r", 6, true, ["y/b"]),
      ...answers("r", 68, true),
    ];
    assert.deepEqual(choosePolicy(rows, ONE_REPO, NONE), ["x/a+y/b"]);
    assert.deepEqual(blockCounts(rows, new Set(["x/a+y/b"])), { wrong: 12, wrongBlocked: 8, right: 80, rightBlocked: 0 });
  });

  test("two kinds that come together on right answers as well are no stronger as a pair", () => {
    const rows = [...answers("r", 8, false, ["x/a", "y/b"]), ...answers("r", 4, false), ...answers("r", 6, true, ["x/a", "y/b"]), ...answers("r", 74, true)];
    // The pair is a candidate, as telling as either kind and no more (ratio ≈ 4.5), so nothing is picked.
    const pair = kindStats(rows.map((r) => ({ ...r, kinds: unitsOf(r.kinds) }))).find((s) => s.kind === "x/a+y/b");
    assert.deepEqual([pair?.wrong, pair?.right], [8, 6]);
    assert.deepEqual(choosePolicy(rows, ONE_REPO, NONE), []);
  });

  test("most wrong answers first: a small pure pair does not leave a larger telling kind short of the ratio", () => {
    // "big" blocks 20 wrong and 3 right (ratio ≈ 8.6); the pair blocks 8 of the same wrong answers and no right one.
    // Taken first, the pair would leave "big" at 12 wrong to 3 right (ratio ≈ 5.2), below MIN_RATIO.
    const rows = [
      ...answers("r", 8, false, ["x/big", "y/p", "z/q"]),
      ...answers("r", 12, false, ["x/big"]),
      ...answers("r", 20, false),
      ...answers("r", 3, true, ["x/big"]),
      ...answers("r", 117, true),
    ];
    assert.deepEqual(choosePolicy(rows, ONE_REPO, NONE), ["x/big"]);
  });

  test("a unit the pick loses when one of a few repositories is left out is dropped: it rests on their answers", () => {
    assert.equal(STABLE_SHARE, 0.9);
    // "shared" tells in all ten repositories; "local" only on two wrong answers in each of r0 and r1: with either left
    // out it is seen on two wrong answers, fewer than MIN_WRONG, so 8 of the 10 picks lack it.
    const rows = Array.from({ length: 10 }, (_, i) => [
      ...answers(`r${i}`, 3, false, ["x/shared"]),
      ...answers(`r${i}`, 2, false, i < 2 ? ["y/local"] : []),
      ...answers(`r${i}`, 10, true),
    ]).flat();
    assert.deepEqual(choosePolicy(rows, ONE_REPO, NONE), ["x/shared", "y/local"]);
    assert.deepEqual(choosePolicy(rows, undefined, NONE), ["x/shared"]);
    // The estimate runs the same rule inside each fold.
    const v = crossValidate(rows, undefined, NONE);
    assert.deepEqual(new Set(v.folds.flatMap((f) => f.chosen)), new Set(["x/shared"]));
  });
});

// ---------------------------------------------------------------------------------------------------------
// The rules Critic with a pair among its blocking units

const doc = recordItem;


describe("critic round 16: the rules Critic blocks on a pair of kinds", () => {
  // A proposed record that barely leads another document and shares no word with an open question.
  const Q = "How should the nightly export reach the finance team?";
  const record = doc("docs/adr/0004-event-pipeline.md", 100, 1, { title: "Event pipeline", number: 4, status: "proposed", chosen_option: "Kafka topics" });
  const rival = doc("docs/adr/0009-sftp.md", 95, 2, { title: "SFTP uploads", number: 9 });
  const input = { question: Q, draft: draft(Q, [option("opt-kafka", "Kafka topics", [record.id]), option("opt-keep", "Keep the current approach")], "opt-kafka"), evidence: [record, rival] };

  test("both kinds raised: one blocking objection naming both checks and citing what each cites; the findings stay concerns", () => {
    const kinds = findings(input).map((f) => f.kind);
    assert.ok(kinds.includes("record-status/draft") && kinds.includes("weak-grounding/open"), kinds.join());
    assert.ok(UNITS_BEFORE_DOUBTS.has("record-status/draft+weak-grounding/open"));
    const raised = critique(input, UNITS_BEFORE_DOUBTS, null);
    const blocking = raised.filter((o) => o.severity === "blocking");
    assert.equal(blocking.length, 1, JSON.stringify(raised));
    assert.equal(blocking[0].check, "doubts");
    assert.equal(blocking[0].effect, "lower");
    assert.match(blocking[0].text, /^Two checks doubt this recommendation together: the deciding record is only proposed or a draft, and the deciding record barely leads/);
    assert.deepEqual(blocking[0].citations, [record.id, rival.id]);
    assert.deepEqual(raised.filter((o) => o.check === "record-status" || o.check === "weak-grounding").map((o) => o.severity), ["concern", "concern"]);
    const applied = applyObjections(input.draft, raised, input.evidence);
    assert.equal(applied.recommendation.confidence, "low");
    assert.equal(applied.critic_effect?.action, "lowered");
  });

  test("one of the two alone: no blocking objection; a kind that blocks alone makes the pair's objection redundant", () => {
    const accepted = { ...record, adr: { ...record.adr!, status: "accepted" as const } };
    assert.deepEqual(critique({ ...input, evidence: [accepted, rival] }, UNITS_BEFORE_DOUBTS, null).filter((o) => o.severity === "blocking"), []);
    assert.deepEqual(critique(input, UNITS_BEFORE_DOUBTS, null).filter((o) => o.severity === "blocking").map((o) => o.check), ["doubts"]);
    const alone = critique(input, new Set(["record-status/draft", "record-status/draft+weak-grounding/open"]), null).filter((o) => o.severity === "blocking");
    assert.deepEqual(alone.map((o) => o.kind), ["record-status/draft"]);
  });
});

describe("critic round 16: the recommendation is not what the deciding record chose", () => {
  const Q = "How should the nightly export reach the finance team?";
  const notChosen = (meta: Partial<AdrMeta>, title: string, question = Q) => {
    const rec = doc("docs/adr/0004-export.md", 100, 1, { title: "Nightly export to finance", number: 4, ...meta });
    const d = draft(question, [option("opt-rec", title, [rec.id]), option("opt-other", "Keep the current approach")], "opt-rec");
    return findings({ question, draft: d, evidence: [rec] }).filter((f) => f.kind === "decision-mismatch/not-chosen" || f.kind === "decision-mismatch/no-choice");
  };

  test("the record states no choice of its own: found (kind no-choice since round 32), citing the record", () => {
    const [f] = notChosen({}, "Nightly export to finance: write files to a bucket");
    assert.equal(f?.kind, "decision-mismatch/no-choice");
    assert.match(f.text, /^ADR 4 "Nightly export to finance" states no choice of its own: "Nightly export to finance: write files to a bucket" is read from its text/);
    assert.deepEqual(f.citations, ["ev-docsadr0004exportmd"]);
  });

  test("its choice shares no word with the recommendation: found; a shared word, even inside a hyphenated one, is enough to stay quiet", () => {
    assert.match(notChosen({ chosen_option: "Stream rows over Kafka" }, "Write files to a bucket")[0]?.text ?? "", /chose "Stream rows over Kafka", which shares no word with the recommended "Write files to a bucket"/);
    assert.deepEqual(notChosen({ chosen_option: "Write files to a bucket" }, "Files in a bucket"), []);
    assert.deepEqual(notChosen({ chosen_option: "JSON-schema" }, "Adopt JSON Schema"), []);
  });

  test("a question that names the recommendation among its alternatives matched it by name: not raised", () => {
    const q = "Should the nightly export write files to a bucket or stream rows over Kafka?";
    assert.deepEqual(notChosen({ chosen_option: "Something else entirely" }, "Write files to a bucket", q), []);
    assert.equal(notChosen({ chosen_option: "Something else entirely" }, "Write files to a bucket").length, 1);
  });

  test("a concern by default: the dev rule does not keep it among the blocking units", () => {
    assert.ok(!UNITS_BEFORE_DOUBTS.has("decision-mismatch/not-chosen"));
    const rec = doc("docs/adr/0004-export.md", 100, 1, { title: "Nightly export to finance", number: 4, chosen_option: "Stream rows over Kafka" });
    const d = draft(Q, [option("opt-rec", "Write files to a bucket", [rec.id]), option("opt-other", "Keep the current approach")], "opt-rec");
    const raised = critique({ question: Q, draft: d, evidence: [rec] }, UNITS_BEFORE_DOUBTS, null).filter((o) => o.kind === "decision-mismatch/not-chosen");
    assert.deepEqual(raised.map((o) => o.severity), ["concern"]);
  });
});
