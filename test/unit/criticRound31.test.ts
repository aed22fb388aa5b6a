// Round 31 of the rules Critic (issue 23): eval/critic.ts tells why a wrong answer is wrong, so the Critic's share of
// blocked wrong answers can be read against what its checks can see. A wrong answer either answers a question no
// record decides ("no-answer"), rests on another record than the deciding one ("wrong-record"), or cites the deciding
// record with an option the answer key does not read as its choice ("wrong-option"): the Critic's checks compare the
// deciding record with the question and the other records, so only the first two are theirs to tell.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { wrongCause } from "../../eval/critic";
import type { LoosePayload } from "../../eval/metrics";
import type { SetQuestion } from "../../eval/sets";

const GOLD = "docs/adr/0007-use-postgres.md";

function question(gold: string[], keywords?: string[]): SetQuestion {
  return {
    id: "q-1",
    repo: "acme/app",
    question: "Which database should the billing service use?",
    gold,
    expected_options: [],
    ...(keywords ? { gold_choice_keywords: keywords } : {}),
    tags: [],
    set: "dev",
    style: "open",
  };
}

function payload(optionTitle: string, citedPath: string, optionId = "opt-a"): LoosePayload {
  return {
    options: [{ id: "opt-a", title: optionTitle, supports: ["ev-1"] }],
    recommendation: { option_id: optionId, confidence: "low", rationale: "r" },
    citations: [{ id: "ev-1", path_or_url: citedPath }],
  };
}

describe("wrongCause: why a decided answer is wrong", () => {
  test("a right answer has no cause", () => {
    assert.equal(wrongCause(question([GOLD], ["postgres"]), payload("Use Postgres", GOLD)), undefined);
  });

  test("an answer to a question no record decides is a no-answer, whatever it cites", () => {
    assert.equal(wrongCause(question([]), payload("Use Postgres", GOLD)), "no-answer");
  });

  test("an option that does not cite the deciding record rests on the wrong record", () => {
    assert.equal(wrongCause(question([GOLD], ["postgres"]), payload("Use Postgres", "docs/adr/0003-use-redis.md")), "wrong-record");
  });

  test("an option that cites the deciding record but is not its choice is a wrong option", () => {
    assert.equal(wrongCause(question([GOLD], ["postgres"]), payload("Use MySQL", GOLD)), "wrong-option");
  });

  test("an undecided answer has no cause", () => {
    assert.equal(wrongCause(question([GOLD], ["postgres"]), payload("Use MySQL", GOLD, "undecidable-on-current-evidence")), undefined);
  });
});
