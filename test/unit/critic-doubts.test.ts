// The odds of doubt (src/core/critic/policy.ts): every finding kind weighs in by how much more often wrong answers
// carry it than right ones, from the prior odds of the draft's confidence, and one bar decides what blocks. Fixtures
// are invented: a symptom about nightly report jobs answered from a record about container images, beside a record
// about batch scheduling.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { critique, findings } from "../../src/core/critic";
import { BLOCKING_KINDS, CONTRADICTIONS, crossValidateDoubts, DEFAULT_DOUBT_RULE, DOUBT_SHRINK, DOUBTS, doubtCounts, doubted, doubtOdds, fitDoubts, kindStats, MIN_DOUBT_RATIO, MIN_WRONG, shrunkRatio, type DoubtWeights, type LabelledAnswer } from "../../src/core/critic/policy";
import type { FusedEvidence } from "../../src/core/schemas";
import { draft, option, recordItem } from "../helpers/criticEvidence";

/** n answers of one repository at one confidence, right or wrong, each carrying the given kinds. */
function answers(group: string, n: number, right: boolean, confidence: string, kinds: string[] = []): LabelledAnswer[] {
  return Array.from({ length: n }, () => ({ group, right, confidence, kinds: new Set(kinds) }));
}

describe("critic doubts: the odds", () => {
  const w: DoubtWeights = { prior: { low: 0.5, med: 0.2 }, ratio: { alpha: 4, beta: 3 }, bar: 5 };

  test("the prior odds of the confidence times each raised kind's ratio, each kind once; an unweighted kind counts 1", () => {
    assert.equal(doubtOdds([], "low", w), 0.5);
    assert.equal(doubtOdds(["alpha", "alpha", "gamma"], "low", w), 2);
    assert.equal(doubtOdds(["alpha", "beta"], "low", w), 6);
    assert.equal(doubtOdds(["alpha", "beta"], "high", w), 0);
  });

  test("the bar: two doubts on a low draft reach it, the same two on a med draft do not", () => {
    assert.equal(doubted(["alpha", "beta"], "low", w), true);
    assert.equal(doubted(["alpha", "beta"], "med", w), false);
    assert.equal(doubted(["alpha"], "low", w), false);
  });
});

describe("critic doubts: the fit", () => {
  // 20 wrong and 40 right low answers in two repositories. "loud" is on 10 wrong and 2 right; "hum" on 4 wrong and
  // 8 right (wrong answers carry it about as often as right ones); "rare" on 2 wrong only.
  const rows = [
    ...answers("a", 5, false, "low", ["loud", "hum"]),
    ...answers("b", 5, false, "low", ["loud"]),
    ...answers("a", 2, false, "low", ["rare"]),
    ...answers("a", 8, false, "low"),
    ...answers("a", 2, true, "low", ["loud"]),
    ...answers("b", 8, true, "low", ["hum"]),
    ...answers("b", 30, true, "low"),
  ];

  test("the prior odds per confidence and the ratio of each telling kind, smoothed by half an answer", () => {
    const fit = fitDoubts(rows, { minWrong: MIN_WRONG, maxRightShare: 0.1 });
    assert.ok(Math.abs(fit.prior.low - 20.5 / 40.5) < 1e-12);
    assert.ok(Math.abs(fit.ratio.loud - 10.5 / 21 / (2.5 / 41)) < 1e-12);
    // "hum": (5.5/21)/(8.5/41) ≈ 1.26 is above 1, so it weighs a little; "rare" is on too few wrong answers.
    assert.ok(fit.ratio.hum > 1 && fit.ratio.hum < 1.5);
    assert.equal(fit.ratio.rare, undefined);
  });

  test("the bar is the lowest that keeps the right answers blocked within the share, ties spared together", () => {
    const within = fitDoubts(rows, { minWrong: MIN_WRONG, maxRightShare: 0.1 });
    const c = doubtCounts(rows, within);
    assert.deepEqual([c.wrongBlocked, c.rightBlocked], [10, 2]);
    // A share below two right answers spares both "loud" right answers, and the wrong ones at the same odds with them.
    const tight = fitDoubts(rows, { minWrong: MIN_WRONG, maxRightShare: 0.04 });
    const t = doubtCounts(rows, tight);
    assert.deepEqual([t.wrongBlocked, t.rightBlocked], [5, 0]);
  });

  test("a contradiction blocks anyway and never weighs in the odds", () => {
    const withRevert = [...rows, ...answers("a", 3, false, "low", ["reverted/revert"])];
    const fit = fitDoubts(withRevert, { minWrong: MIN_WRONG, maxRightShare: 0.1 });
    assert.equal(fit.ratio["reverted/revert"], undefined);
    assert.equal(doubtCounts(answers("c", 1, true, "high", ["reverted/revert"]), fit).rightBlocked, 1);
  });

  test("leave one repository out: fit on the others, count on it, the folds summing to the totals", () => {
    const v = crossValidateDoubts(rows, { minWrong: MIN_WRONG, maxRightShare: 0.1 });
    assert.equal(v.folds.length, 2);
    assert.equal(v.wrong, 20);
    assert.equal(v.right, 40);
    assert.equal(v.folds.reduce((n, f) => n + f.wrongBlocked, 0), v.wrongBlocked);
  });
});

describe("critic doubts: fewer, stronger signals", () => {
  // 40 wrong and 80 right low answers over four repositories. "sharp" is on 16 wrong and 4 right (ratio about 8);
  // "faint" on 12 wrong and 12 right (about 2: right answers carry it half as often); "lucky" on 3 wrong, no right.
  const rows = [
    ...answers("north", 8, false, "low", ["sharp"]),
    ...answers("south", 8, false, "low", ["sharp", "faint"]),
    ...answers("east", 4, false, "low", ["faint"]),
    ...answers("west", 3, false, "low", ["lucky"]),
    ...answers("west", 17, false, "low"),
    ...answers("north", 4, true, "low", ["sharp"]),
    ...answers("east", 12, true, "low", ["faint"]),
    ...answers("south", 64, true, "low"),
  ];

  test("a kind below the strength cut weighs nothing; one above it weighs in", () => {
    assert.ok(Math.abs(MIN_DOUBT_RATIO - Math.sqrt(6)) < 1e-12);
    const fit = fitDoubts(rows);
    assert.equal(fit.ratio.faint, undefined);
    assert.ok(fit.ratio.sharp > 1);
    // Without the cut (the rule before), the faint kind weighs in too.
    const before = fitDoubts(rows, { minWrong: MIN_WRONG, maxRightShare: DEFAULT_DOUBT_RULE.maxRightShare });
    assert.ok(before.ratio.faint > 1);
  });

  test("a kind weighs its ratio shrunk by its standard error: few answers shrink it far more than many", () => {
    const stats = new Map(kindStats(rows).map((s) => [s.kind, s] as const));
    const totals = { wrong: 40, right: 80 };
    const sharp = stats.get("sharp")!;
    const lucky = stats.get("lucky")!;
    // Unshrunk, the three lucky answers out-tell the sixteen sharp ones; shrunk, they no longer do.
    assert.ok(lucky.ratio > sharp.ratio);
    assert.ok(shrunkRatio(lucky, totals, DOUBT_SHRINK) < shrunkRatio(sharp, totals, DOUBT_SHRINK));
    assert.ok(shrunkRatio(lucky, totals, DOUBT_SHRINK) / lucky.ratio < shrunkRatio(sharp, totals, DOUBT_SHRINK) / sharp.ratio);
    assert.equal(shrunkRatio(sharp, totals, 0), sharp.ratio);
    // The fit stores the shrunk weight.
    assert.ok(Math.abs(fitDoubts(rows).ratio.sharp - shrunkRatio(sharp, totals, DOUBT_SHRINK)) < 1e-12);
  });
});

describe("critic doubts: in the rules Critic", () => {
  const Q = "Our nightly report jobs keep timing out whenever the warehouse is busy. How should we run them?";
  const DECIDING = "docs/adr/0004-container-images.md";
  const NEIGHBOUR = "docs/adr/0009-batch-scheduling.md";
  const texts: Record<string, string> = {
    [DECIDING]: "# Container images\n\nEvery service ships as one image built in CI.",
    [NEIGHBOUR]: "# Batch scheduling\n\nNightly report jobs ran against the warehouse while it was busy, so we queue them.",
  };
  function input(confidence: "low" | "med") {
    const rec = recordItem(DECIDING, 10, 1, { title: "Container images" });
    const other = recordItem(NEIGHBOUR, 9, 2, { title: "Batch scheduling" });
    const d = draft(Q, [option("opt-images", "One image per service", [rec.id]), option("opt-keep", "Keep the current approach")], "opt-images", confidence);
    return { question: Q, draft: d, evidence: [rec, other] as FusedEvidence[], recordText: (path: string) => texts[path] };
  }
  /** Weights that make these findings telling, whatever the dev fit says. */
  function weightsFor(kinds: string[], bar: number): DoubtWeights {
    return { prior: { low: 1, med: 0.01 }, ratio: Object.fromEntries(kinds.map((k, i) => [k, 3 + i])), bar };
  }

  test("the findings reach the bar: the one with the highest ratio blocks, the others stay concerns", () => {
    const i = input("low");
    const kinds = [...new Set(findings(i).map((f) => f.kind))].filter((k) => k !== "single-source");
    assert.ok(kinds.length >= 2, JSON.stringify(kinds));
    const w = weightsFor(kinds, 3 * 4);
    const raised = critique(i, BLOCKING_KINDS, w);
    const blocking = raised.filter((o) => o.severity === "blocking");
    assert.equal(blocking.length, 1);
    // The last kind has the highest ratio (3 + its index).
    assert.equal(blocking[0].kind, kinds[kinds.length - 1]);
    assert.equal(blocking[0].effect, "lower");
    assert.ok(raised.filter((o) => o.severity === "concern").length >= kinds.length - 1);
  });

  test("below the bar (a surer draft starts from lower odds), or with no odds given, nothing blocks", () => {
    const kinds = [...new Set(findings(input("low")).map((f) => f.kind))].filter((k) => k !== "single-source");
    const w = weightsFor(kinds, 3 * 4);
    assert.deepEqual(critique(input("med"), BLOCKING_KINDS, w).filter((o) => o.severity === "blocking"), []);
    assert.deepEqual(critique(input("low"), BLOCKING_KINDS, null).filter((o) => o.severity === "blocking"), []);
  });

  test("the stored odds: only the contradictions block alone, and a high-confidence draft needs far more doubt than a low one", () => {
    assert.deepEqual([...BLOCKING_KINDS].sort(), [...CONTRADICTIONS].sort());
    assert.ok(DOUBTS.prior.high < DOUBTS.prior.med && DOUBTS.prior.med < DOUBTS.prior.low);
    for (const k of CONTRADICTIONS) assert.equal(DOUBTS.ratio[k], undefined);
    assert.ok(Object.values(DOUBTS.ratio).every((r) => r > 1));
    // The kinds that right answers carry nearly as often as wrong ones weigh nothing.
    for (const k of ["single-source", "record-status/draft", "off-subject"]) assert.equal(DOUBTS.ratio[k], undefined);
  });
});
