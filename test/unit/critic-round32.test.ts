// Round 32 of the rules Critic (issue 23): a record whose own choice reads as another of the drafted options than the
// recommended one contradicts the recommendation, so that finding blocks by definition (policy.ts's CONTRADICTIONS),
// as a model's draft against its record does; a choice that moves from one thing to another ("rename X to Y",
// "Y instead of X") is read by what it keeps; and a record whose choice could not be read at all is a kind of its own
// ("decision-mismatch/no-choice"), apart from one whose stated choice shares no word with the recommendation.
// These tests read the checks under the units that blocked before the odds of doubt (policy.ts UNITS_BEFORE_DOUBTS);
// critic-doubts.test.ts tests the odds.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { applyObjections, critique, findings } from "../../src/core/critic";
import { UNITS_BEFORE_DOUBTS } from "../../src/core/critic/policy";
import { keptPart } from "../../src/core/critic/grounding";
import { CONTRADICTIONS, choosePolicy, DEFAULT_RULE, excluded } from "../../src/core/critic/policy";
import type { AdrMeta } from "../../src/core/schemas";
import { draft, option, recordItem } from "../helpers/criticEvidence";


const Q = "For a pre-configured counter kept for repeated writes, should we call it a grip handle (getGrip) or a pinned counter (pin)?";

/** A record deciding the counter's name, the draft recommending `recommended` among the two named options. */
function naming(meta: Partial<AdrMeta>, recommended: "opt-grip" | "opt-pinned", confidence: "low" | "med" | "high" = "med") {
  const rec = recordItem("docs/rfcs/0031-counter-naming.md", 100, 1, { title: "Counter naming", number: 31, ...meta });
  const d = draft(Q, [option("opt-grip", "Grip handle (getGrip)", recommended === "opt-grip" ? [rec.id] : []), option("opt-pinned", "Pinned counter (pin)", recommended === "opt-pinned" ? [rec.id] : [])], recommended, confidence);
  return { question: Q, draft: d, evidence: [rec] };
}

describe("critic round 32: what a choice that moves from one thing to another keeps", () => {
  test("rename / replace / switch … to / with Y keeps Y", () => {
    assert.equal(keptPart("Rename grip handles to pinned counters"), "pinned counters");
    assert.equal(keptPart("Replace the cron host with a managed scheduler"), "a managed scheduler");
    assert.equal(keptPart("switch from polling to webhooks"), "webhooks");
  });

  test("Y instead of / rather than X keeps Y; drop X in favour of Y keeps Y", () => {
    assert.equal(keptPart("Use plain files instead of a database"), "Use plain files");
    assert.equal(keptPart("Webhooks rather than polling"), "Webhooks");
    assert.equal(keptPart("Drop the sidecar in favour of a library"), "a library");
  });

  test("a choice that does not move anywhere keeps nothing of its own", () => {
    assert.equal(keptPart("Use webhooks"), undefined);
    assert.equal(keptPart("Stop publishing the nightly build"), undefined);
  });
});

describe("critic round 32: the record's own choice reads as another option", () => {
  test("a rename whose kept name is the other option: reads-as, though the old name shares words with the recommendation", () => {
    const input = naming({ chosen_option: "Rename grip handles to pinned counters" }, "opt-grip");
    const kinds = findings(input).filter((f) => f.check === "decision-mismatch").map((f) => f.kind);
    assert.deepEqual(kinds, ["decision-mismatch/reads-as"]);
    assert.match(findings(input).find((f) => f.kind === "decision-mismatch/reads-as")!.text, /chose "Rename grip handles to pinned counters", which reads as "Pinned counter \(pin\)", not as the recommended "Grip handle \(getGrip\)"/);
  });

  test("the same rename behind the option it keeps: no mismatch", () => {
    const input = naming({ chosen_option: "Rename grip handles to pinned counters" }, "opt-pinned");
    assert.deepEqual(findings(input).filter((f) => f.check === "decision-mismatch"), []);
  });

  test("a choice that only turns the other option down is still not read as choosing it", () => {
    const input = naming({ chosen_option: "Stop calling them pinned counters" }, "opt-grip");
    assert.deepEqual(findings(input).filter((f) => f.kind === "decision-mismatch/reads-as"), []);
  });

  test("reads-as blocks by definition, whatever the fit, and lowers the confidence a step", () => {
    assert.ok(CONTRADICTIONS.has("decision-mismatch/reads-as"));
    assert.ok(UNITS_BEFORE_DOUBTS.has("decision-mismatch/reads-as"));
    // A fixed unit stays in the pick even with no answer to fit on.
    assert.ok(choosePolicy([], DEFAULT_RULE).includes("decision-mismatch/reads-as"));
    const input = naming({ chosen_option: "Rename grip handles to pinned counters" }, "opt-grip");
    const raised = critique(input, UNITS_BEFORE_DOUBTS, null);
    const blocking = raised.filter((o) => o.severity === "blocking");
    assert.deepEqual(blocking.map((o) => [o.check, o.kind, o.effect]), [["decision-mismatch", "decision-mismatch/reads-as", "lower"]]);
    const applied = applyObjections(input.draft, raised, input.evidence);
    assert.equal(applied.recommendation.option_id, "opt-grip");
    assert.equal(applied.recommendation.confidence, "low");
    assert.equal(applied.critic_effect?.action, "lowered");
  });
});

describe("critic round 32: no stated choice is its own kind", () => {
  const OPEN = "How should the nightly export reach the finance team?";
  const one = (meta: Partial<AdrMeta>, title: string) => {
    const rec = recordItem("docs/adr/0004-export.md", 100, 1, { title: "Nightly export to finance", number: 4, ...meta });
    const d = draft(OPEN, [option("opt-rec", title, [rec.id]), option("opt-other", "Keep the current approach")], "opt-rec");
    return findings({ question: OPEN, draft: d, evidence: [rec] }).filter((f) => f.check === "decision-mismatch").map((f) => f.kind);
  };

  test("no choice read: no-choice; a stated choice sharing no word: not-chosen; neither blocks", () => {
    assert.deepEqual(one({}, "Nightly export to finance: write files to a bucket"), ["decision-mismatch/no-choice"]);
    assert.deepEqual(one({ chosen_option: "Stream rows over Kafka" }, "Write files to a bucket"), ["decision-mismatch/not-chosen"]);
    assert.ok(!UNITS_BEFORE_DOUBTS.has("decision-mismatch/no-choice"));
    assert.ok(!UNITS_BEFORE_DOUBTS.has("decision-mismatch/not-chosen"));
  });
});

describe("critic round 32: a surer draft in a denser crowd", () => {
  const QUESTION = "How should the ingest jobs retry when the upstream API times out?";
  const deciding = recordItem("docs/adr/0007-retries.md", 100, 1, { title: "Retry policy for ingest", number: 7, chosen_option: "Exponential backoff with jitter" });
  const near = (n: number, score: number) => recordItem(`docs/adr/002${n}-neighbour-${n}.md`, score, n + 1, { title: `Neighbour ${n}`, number: 20 + n });
  const input = (evidence: typeof deciding[], confidence: "low" | "med" | "high") => ({
    question: QUESTION,
    draft: draft(QUESTION, [option("opt-backoff", "Exponential backoff with jitter", [evidence[0].id]), option("opt-keep", "Keep the current approach")], "opt-backoff", confidence),
    evidence,
  });
  const crowdKinds = (evidence: typeof deciding[], confidence: "low" | "med" | "high") => findings(input(evidence, confidence)).filter((f) => f.check === "crowded").map((f) => f.kind);
  const three = [deciding, near(1, 95), near(2, 90), near(3, 85)];
  const two = [deciding, near(1, 95), near(2, 90)];

  test("more than two near equals on a med or high draft: crowded/confident-packed; two: crowded/confident; a low draft: crowded either way", () => {
    assert.deepEqual(crowdKinds(three, "med"), ["crowded/confident-packed"]);
    assert.deepEqual(crowdKinds(three, "high"), ["crowded/confident-packed"]);
    assert.deepEqual(crowdKinds(two, "med"), ["crowded/confident"]);
    assert.deepEqual(crowdKinds(three, "low"), ["crowded"]);
  });

  test("the packed kind blocks and lowers a med draft to low; beside two near equals a med draft keeps its confidence", () => {
    assert.ok(UNITS_BEFORE_DOUBTS.has("crowded/confident-packed"));
    assert.ok(!UNITS_BEFORE_DOUBTS.has("crowded/confident"));
    const packed = input(three, "med");
    const raised = critique(packed, UNITS_BEFORE_DOUBTS, null);
    assert.deepEqual(raised.filter((o) => o.severity === "blocking").map((o) => o.kind), ["crowded/confident-packed"]);
    assert.equal(applyObjections(packed.draft, raised, packed.evidence).recommendation.confidence, "low");
    const pair = input(two, "med");
    const quiet = critique(pair, UNITS_BEFORE_DOUBTS, null);
    assert.deepEqual(quiet.filter((o) => o.severity === "blocking"), []);
    assert.equal(applyObjections(pair.draft, quiet, pair.evidence).recommendation.confidence, "med");
  });
});

describe("critic round 32: units the rule never takes", () => {
  const answers = (group: string, n: number, right: boolean, kinds: string[] = []) => Array.from({ length: n }, () => ({ group, right, kinds: new Set(kinds) }));
  const ONE_REPO = { ...DEFAULT_RULE, stableShare: undefined };
  const NONE = new Set<string>();

  test("an excluded kind is never taken, nor any pair it is in; other units are", () => {
    assert.ok(excluded("x/a", new Set(["x/a"])));
    assert.ok(excluded("x/a+y/b", new Set(["x/a"])));
    assert.ok(!excluded("y/b", new Set(["x/a"])));
    assert.ok(!excluded("x/a", undefined));
    // "x/a" alone tells (8 wrong, 0 right), "y/b" alone does not (8 right as well); with "x/a" out of reach, the pair
    // it forms with "y/b" (as telling as it) is not taken either, and the next telling kind "z/c" is.
    const rows = [...answers("r", 8, false, ["x/a", "y/b"]), ...answers("r", 5, false, ["z/c"]), ...answers("r", 5, false), ...answers("r", 8, true, ["y/b"]), ...answers("r", 82, true)];
    assert.deepEqual(choosePolicy(rows, ONE_REPO, NONE), ["x/a", "z/c"]);
    assert.deepEqual(choosePolicy(rows, { ...ONE_REPO, exclude: new Set(["x/a"]) }, NONE), ["z/c"]);
  });
});
