// Which finding kinds block (src/core/critic/policy.ts): the rule that picks them from labelled answers, its
// leave-one-repository-out estimate, and the rules Critic obeying whatever set of kinds it is given.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { critique, findings } from "../../src/core/critic";
import { BLOCKING_KINDS, blockCounts, choosePolicy, CONTRADICTIONS, crossValidate, DEFAULT_RULE, kindStats, MAX_RIGHT_SHARE, MIN_RATIO, type LabelledAnswer, type PolicyRule } from "../../src/core/critic/policy";
import type { DraftPicker } from "../../src/core/schemas";
import { recordItem } from "../helpers/criticEvidence";

/** n answers of one repository, right or wrong, each carrying the given kinds. */
function answers(group: string, n: number, right: boolean, kinds: string[] = []): LabelledAnswer[] {
  return Array.from({ length: n }, () => ({ group, right, kinds: new Set(kinds) }));
}

const RULE: PolicyRule = { minRatio: 4, minWrong: 3 };
/** No kinds that block whatever the answers say. */
const NONE = new Set<string>();

describe("critic policy: the rule that picks the blocking kinds", () => {
  test("the rate ratio is smoothed by half an answer on each side", () => {
    const rows = [...answers("a", 4, false, ["x"]), ...answers("a", 6, false), ...answers("a", 1, true, ["x"]), ...answers("a", 19, true)];
    const [x] = kindStats(rows);
    assert.equal(x.kind, "x");
    assert.deepEqual([x.wrong, x.right], [4, 1]);
    // (4.5 / 11) / (1.5 / 21)
    assert.ok(Math.abs(x.ratio - (4.5 / 11) / (1.5 / 21)) < 1e-12);
  });

  test("a kind raised on wrong answers far more often than on right ones blocks; one raised alike on both does not", () => {
    const rows = [
      ...answers("a", 6, false, ["telling", "noise"]),
      ...answers("a", 4, false),
      ...answers("a", 5, true, ["noise"]),
      ...answers("a", 5, true),
    ];
    assert.deepEqual(choosePolicy(rows, RULE, NONE), ["telling"]);
  });

  test("too few wrong answers prove nothing, however clean the ratio", () => {
    const rows = [...answers("a", 2, false, ["rare"]), ...answers("a", 8, false), ...answers("a", 30, true)];
    assert.deepEqual(choosePolicy(rows, RULE, NONE), []);
    assert.deepEqual(choosePolicy(rows, { ...RULE, minWrong: 2 }, NONE), ["rare"]);
  });

  test("the ratio must reach the targets' own (0.60 wrong / 0.10 right): a kind at 5 does not block, one at 7 does", () => {
    assert.equal(MIN_RATIO, 6);
    // 20 wrong, 40 right answers. "five": 9 wrong, 3 right → (9.5/21)/(3.5/41) ≈ 5.3; "seven": 9 wrong, 2 right → 7.4.
    const rows = [
      ...answers("a", 9, false, ["five"]),
      ...answers("a", 9, false, ["seven"]),
      ...answers("a", 2, false),
      ...answers("a", 3, true, ["five"]),
      ...answers("a", 2, true, ["seven"]),
      ...answers("a", 35, true),
    ];
    assert.deepEqual(choosePolicy(rows, undefined, NONE), ["seven"]);
  });

  test("kinds are taken one at a time, each counted on what the kinds taken before leave unblocked", () => {
    // "echo" rides on the same wrong answers as "strong" and adds two right ones: alone it would pass (ratio 6.5),
    // after "strong" it blocks no wrong answer the set did not already block.
    const rows = [
      ...answers("a", 8, false, ["strong", "echo"]),
      ...answers("a", 4, false),
      ...answers("a", 2, true, ["echo"]),
      ...answers("a", 38, true),
    ];
    assert.ok(kindStats(rows).find((k) => k.kind === "echo")!.ratio >= MIN_RATIO);
    assert.deepEqual(choosePolicy(rows, RULE, NONE), ["strong"]);
  });

  test("the right answers the picked kinds block stay within MAX_RIGHT_SHARE (half the 0.10 cap)", () => {
    assert.equal(MAX_RIGHT_SHARE, 0.05);
    // 40 right answers: a budget of 2. "first" blocks 1 right, "second" 2 more: both tell (ratios 8.5 and 6.6).
    // "second" blocks more wrong answers, so it is taken first and uses the budget; with no budget both are taken.
    const rows = [
      ...answers("a", 6, false, ["first"]),
      ...answers("a", 8, false, ["second"]),
      ...answers("a", 6, false),
      ...answers("a", 1, true, ["first"]),
      ...answers("a", 2, true, ["second"]),
      ...answers("a", 37, true),
    ];
    assert.deepEqual(choosePolicy(rows, undefined, NONE), ["second"]);
    assert.deepEqual(choosePolicy(rows, { ...DEFAULT_RULE, maxRightShare: undefined }, NONE), ["first", "second"]);
  });

  test("the contradictions block whatever the answers say, and are in BLOCKING_KINDS", () => {
    const rows = [...answers("a", 5, false), ...answers("a", 5, true, ["reverted/revert"])];
    assert.deepEqual(choosePolicy(rows), [...CONTRADICTIONS].sort());
    for (const k of CONTRADICTIONS) assert.ok(BLOCKING_KINDS.has(k), k);
  });

  test("block counts: an answer is blocked when any of its kinds blocks", () => {
    const rows = [...answers("a", 3, false, ["x", "y"]), ...answers("a", 2, false, ["y"]), ...answers("a", 4, true, ["y"]), ...answers("a", 1, true, ["x"])];
    assert.deepEqual(blockCounts(rows, new Set(["x"])), { wrong: 5, wrongBlocked: 3, right: 5, rightBlocked: 1 });
    assert.deepEqual(blockCounts(rows, new Set()), { wrong: 5, wrongBlocked: 0, right: 5, rightBlocked: 0 });
  });
});

describe("critic policy: leave one repository out", () => {
  test("a kind that tells wrong from right in one repository only is never picked for that repository", () => {
    // "local" separates wrong from right answers in repository a only; "shared" does so in a, b and c alike.
    const repo = (g: string, local: boolean) => [
      ...answers(g, 4, false, ["shared"]),
      ...answers(g, 4, false, local ? ["local"] : []),
      ...answers(g, 10, true),
    ];
    const rows = [...repo("a", true), ...repo("b", false), ...repo("c", false)];
    const v = crossValidate(rows, RULE, NONE);
    assert.deepEqual(v.folds.map((f) => f.group), ["a", "b", "c"]);
    // Without a, "local" is seen nowhere; with a left in, it is seen 4 times and picked.
    assert.deepEqual(v.folds.find((f) => f.group === "a")!.chosen, ["shared"]);
    assert.deepEqual(v.folds.find((f) => f.group === "b")!.chosen, ["local", "shared"]);
    assert.equal(v.picked.get("shared"), 3);
    assert.equal(v.picked.get("local"), 2);
    // Each repository's wrong answers carrying "shared" are blocked by the pick made without it.
    assert.deepEqual([v.wrongBlocked, v.wrong, v.rightBlocked, v.right], [12, 24, 0, 30]);
  });

  test("a kind that looks telling only because one repository has it everywhere does not transfer", () => {
    // In repository a, "habit" rides on every answer, wrong ones in greater number; elsewhere it never appears.
    const rows = [
      ...answers("a", 8, false, ["habit"]),
      ...answers("a", 1, true, ["habit"]),
      ...answers("b", 3, false),
      ...answers("b", 10, true),
      ...answers("c", 3, false),
      ...answers("c", 10, true),
    ];
    assert.deepEqual(choosePolicy(rows, RULE, NONE), ["habit"]);
    const v = crossValidate(rows, RULE, NONE);
    // Left out, repository a gets no pick at all: its 8 wrong answers count as unblocked.
    assert.equal(v.folds.find((f) => f.group === "a")!.wrongBlocked, 0);
    assert.equal(v.wrongBlocked, 0);
  });
});

// ---------------------------------------------------------------------------------------------------------
// The rules Critic obeys the set it is given.

const doc = recordItem;

function draftFor(question: string, recordId: string): DraftPicker {
  return {
    question,
    class: "open-question",
    options: [
      { id: "opt-kafka", title: "Kafka topics", summary: "s", supports: [recordId], dissent: [], tradeoffs: [], cost: "low", risk: "low" },
      { id: "opt-keep", title: "Keep the current approach", summary: "s", supports: [], dissent: [], tradeoffs: [], cost: "low", risk: "low" },
    ],
    recommendation: { option_id: "opt-kafka", rationale: "r", confidence: "high" },
    citations: [],
    coverage: { internal: 1, external: 0, top_score: 1 },
  };
}

describe("critic policy: the rules Critic blocks only the kinds it is given", () => {
  // A deprecated record that barely leads another document and shares no word with the question.
  const Q = "How should the nightly export reach the finance team?";
  const record = doc("docs/adr/0004-event-pipeline.md", 100, 1, { title: "Event pipeline", number: 4, status: "deprecated", chosen_option: "Kafka topics" });
  const rival = doc("docs/adr/0009-sftp.md", 95, 2, { title: "SFTP uploads", number: 9 });
  const input = { question: Q, draft: draftFor(Q, record.id), evidence: [record, rival] };

  test("findings list every kind, whatever its severity", () => {
    const kinds = findings(input).map((f) => f.kind);
    assert.ok(kinds.includes("record-status/inactive"), kinds.join());
    assert.ok(kinds.includes("weak-grounding/open"), kinds.join());
  });

  test("with no blocking kinds everything is a concern; with one, only that one blocks", () => {
    assert.deepEqual(critique(input, new Set()).filter((o) => o.severity === "blocking"), []);
    const only = critique(input, new Set(["weak-grounding/open"])).filter((o) => o.severity === "blocking");
    assert.deepEqual(only.map((o) => [o.check, o.kind, o.effect]), [["weak-grounding", "weak-grounding/open", "lower"]]);
    const status = critique(input, new Set(["record-status/inactive"])).filter((o) => o.severity === "blocking");
    assert.deepEqual(status.map((o) => [o.kind, o.effect]), [["record-status/inactive", "undecidable"]]);
  });

  test("the default is BLOCKING_KINDS, and each blocking objection names a kind in it", () => {
    for (const o of critique(input).filter((x) => x.severity === "blocking")) assert.ok(BLOCKING_KINDS.has(o.kind!), o.kind);
    assert.deepEqual(critique(input), critique(input, BLOCKING_KINDS));
  });
});
