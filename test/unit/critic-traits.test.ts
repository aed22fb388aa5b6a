// eval/critic.ts's candidate traits: evidence-level signals measured for the Critic (--traits) and not used by it.
// Each trait is read from the evidence and the draft only, as documented on candidateTraits.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { CANDIDATE_TRAITS, candidateTraits } from "../../eval/critic";
import type { FusedEvidence } from "../../src/core/schemas";
import { draft as draftWith, option, recordItem as doc } from "../helpers/criticEvidence";

const draft = (question: string, options: Parameters<typeof draftWith>[1], recommended: string) => draftWith(question, options, recommended, "low");

const Q = "Should the billing worker read its jobs from Beanstalk or from Redis streams?";
const queue = (score: number, rank: number, chosen?: string) => doc("docs/adr/0007-billing-worker-jobs.md", score, rank, { title: "Billing worker jobs", number: 7, ...(chosen ? { chosen_option: chosen } : {}) });
const other = (score: number, rank: number, chosen?: string) => doc("docs/adr/0002-report-storage.md", score, rank, { title: "Report storage", number: 2, ...(chosen ? { chosen_option: chosen } : {}) });

function traits(evidence: FusedEvidence[], recommended = "opt-redis", question = Q): string[] {
  const record = evidence.find((e) => e.path_or_url.includes("0007"))!;
  const options = [option("opt-beanstalk", "Beanstalk", [record.id]), option("opt-redis", "Redis streams", [record.id]), option("opt-keep", "Keep the current approach")];
  return candidateTraits({ question, draft: draft(question, options, recommended), evidence });
}

describe("critic candidate traits (eval/critic.ts --traits)", () => {
  test("a record that leads the next document clearly, ranks first and chose an option carries none of the record traits", () => {
    const got = traits([queue(100, 1, "Redis streams"), other(40, 2)]);
    for (const t of ["thin-lead", "trails", "record-not-first", "record-chose-nothing"]) assert.ok(!got.includes(t), t);
  });

  test("a lead of under 7% is thin; a lower score than the next document's also trails", () => {
    assert.ok(traits([queue(100, 1, "Redis streams"), other(95, 2)]).includes("thin-lead"));
    assert.ok(!traits([queue(100, 1, "Redis streams"), other(95, 2)]).includes("trails"));
    const behind = traits([other(100, 1), queue(80, 2, "Redis streams")]);
    assert.ok(behind.includes("thin-lead") && behind.includes("trails") && behind.includes("record-not-first"));
  });

  test("a record whose decision model read no choice", () => {
    assert.ok(traits([queue(100, 1), other(40, 2)]).includes("record-chose-nothing"));
  });

  test("the question's named alternatives absent from the record's text", () => {
    // The record's text is its title and the excerpt "We decided.": neither Beanstalk nor Redis is in it.
    assert.ok(traits([queue(100, 1, "Redis streams"), other(40, 2)]).includes("named-alternatives-absent"));
    const named = doc("docs/adr/0007-billing-worker-jobs.md", 100, 1, { title: "Billing worker jobs on Redis streams", number: 7, chosen_option: "Redis streams" });
    assert.ok(!traits([named, other(40, 2)]).includes("named-alternatives-absent"));
  });

  test("the two best-ranked records chose different drafted options", () => {
    assert.ok(traits([queue(100, 1, "Redis streams"), other(90, 2, "Beanstalk")]).includes("top-two-records-split"));
    assert.ok(!traits([queue(100, 1, "Redis streams"), other(90, 2, "Redis streams")]).includes("top-two-records-split"));
  });

  test("an option that shares no word with the question, and one that keeps what is in place", () => {
    const got = traits([queue(100, 1, "Redis streams"), other(40, 2)], "opt-keep");
    assert.ok(got.includes("recommends-keeping") && got.includes("option-off-question"));
    assert.ok(!traits([queue(100, 1, "Redis streams"), other(40, 2)]).includes("option-off-question"));
  });

  test("every trait read is listed for the table", () => {
    const seen = new Set([...traits([other(100, 1, "Beanstalk"), queue(80, 2)], "opt-keep"), ...traits([queue(100, 1, "Redis streams"), other(90, 2, "Beanstalk")])]);
    for (const t of seen) assert.ok((CANDIDATE_TRAITS as readonly string[]).includes(t), t);
  });
});
