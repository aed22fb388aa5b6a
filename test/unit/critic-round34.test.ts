// Round 34 of the rules Critic (issue 23): a question that proposes a named product ("adopt Prisma?") which nothing
// retrieval found ever names, no retrieved record's full text included, cannot be settled by the record the draft
// follows: that record is about something else, and no record here weighed the proposal. That finding is a kind of its
// own ("unweighed-proposal/unknown-product") and blocks; when another retrieved record does name the product, the
// deciding record merely never weighed it, which stays the concern it was ("unweighed-proposal/product").
// These tests read the checks under the units that blocked before the odds of doubt (policy.ts UNITS_BEFORE_DOUBTS);
// critic-doubts.test.ts tests the odds.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { applyObjections, critique, findings } from "../../src/core/critic";
import { UNITS_BEFORE_DOUBTS } from "../../src/core/critic/policy";
import { draft, option, recordItem } from "../helpers/criticEvidence";

const Q = "Our hand-written SQL keeps repeating the same joins. Should we adopt Prisma as the ORM for the back end?";
const DECIDING = "docs/adr/0007-command-and-query-models.md";
const NEIGHBOUR = "docs/adr/0011-migrations.md";

/**
 * A draft that answers the Prisma question with the deciding record's own choice ("Keep separate query models"),
 * beside a neighbouring record; `texts` are the records' full texts as discovery read them.
 */
function prismaCase(texts: Record<string, string>, recommended: "opt-keep" | "opt-prisma" = "opt-keep") {
  const rec = recordItem(DECIDING, 9, 1, { title: "Separate command and query models", chosen_option: "Keep separate query models" });
  const other = recordItem(NEIGHBOUR, 4, 2, { title: "Database migrations" });
  const d = draft(Q, [option("opt-prisma", "Adopt Prisma", recommended === "opt-prisma" ? [rec.id] : []), option("opt-keep", "Keep separate query models", recommended === "opt-keep" ? [rec.id] : [])], recommended, "low");
  return { question: Q, draft: d, evidence: [rec, other], recordText: (path: string) => texts[path] };
}

const DECIDING_TEXT = "# Separate command and query models\n\nWe keep separate query models for the read side.";

describe("critic round 34: a proposed product nothing retrieved names", () => {
  test("no retrieved record mentions Prisma: a blocking objection naming the product and citing the deciding record", () => {
    const input = prismaCase({ [DECIDING]: DECIDING_TEXT, [NEIGHBOUR]: "# Database migrations\n\nMigrations run with Flyway." });
    const kinds = findings(input).filter((f) => f.check === "unweighed-proposal").map((f) => f.kind);
    assert.deepEqual(kinds, ["unweighed-proposal/unknown-product"]);
    assert.ok(UNITS_BEFORE_DOUBTS.has("unweighed-proposal/unknown-product"));
    const raised = critique(input, UNITS_BEFORE_DOUBTS, null);
    const blocking = raised.filter((o) => o.severity === "blocking");
    assert.equal(blocking.length, 1);
    assert.equal(blocking[0].kind, "unweighed-proposal/unknown-product");
    assert.match(blocking[0].text, /proposes Prisma, which no retrieved record mentions/);
    assert.match(blocking[0].text, /"Keep separate query models" answers another question/);
    assert.deepEqual(blocking[0].citations, [`ev-${DECIDING.replace(/\W/g, "")}`]);
  });

  test("another retrieved record names Prisma in its full text: only the deciding record's gap, a concern", () => {
    const input = prismaCase({ [DECIDING]: DECIDING_TEXT, [NEIGHBOUR]: "# Database migrations\n\nWe looked at Prisma Migrate and kept Flyway." });
    const kinds = findings(input).filter((f) => f.check === "unweighed-proposal").map((f) => f.kind);
    assert.deepEqual(kinds, ["unweighed-proposal/product"]);
    assert.equal(critique(input, UNITS_BEFORE_DOUBTS, null).some((o) => o.severity === "blocking"), false);
  });

  test("an evidence excerpt that names the product is enough, whatever the record texts say", () => {
    const input = prismaCase({ [DECIDING]: DECIDING_TEXT, [NEIGHBOUR]: "# Database migrations" });
    input.evidence[1] = { ...input.evidence[1], excerpt: "A spike compared Prisma with Knex." };
    assert.equal(findings(input).some((f) => f.kind === "unweighed-proposal/unknown-product"), false);
  });

  test("a recommendation that adopts the product itself is not this finding", () => {
    const input = prismaCase({ [DECIDING]: DECIDING_TEXT, [NEIGHBOUR]: "# Database migrations" }, "opt-prisma");
    assert.equal(findings(input).some((f) => f.kind === "unweighed-proposal/unknown-product"), false);
  });

  test("a proposal described in plain words (no product name) is never this finding", () => {
    const q = "Our hand-written SQL keeps repeating the same joins. Should we adopt an object mapper for the back end?";
    const input = { ...prismaCase({ [DECIDING]: DECIDING_TEXT, [NEIGHBOUR]: "# Database migrations" }), question: q };
    input.draft = { ...input.draft, question: q };
    assert.equal(findings(input).some((f) => f.kind === "unweighed-proposal/unknown-product"), false);
  });

  test("applied, the blocking objection keeps a low answer at low and says why in the rationale", () => {
    const input = prismaCase({ [DECIDING]: DECIDING_TEXT, [NEIGHBOUR]: "# Database migrations" });
    const after = applyObjections(input.draft, critique(input, UNITS_BEFORE_DOUBTS, null), input.evidence);
    assert.equal(after.recommendation.option_id, "opt-keep");
    assert.equal(after.recommendation.confidence, "low");
    assert.match(after.recommendation.rationale, /The Critic objects: The question proposes Prisma/);
    assert.equal(after.critic_effect, undefined);
  });

  test("on a med answer the same objection lowers the confidence a step and records the draft", () => {
    const input = prismaCase({ [DECIDING]: DECIDING_TEXT, [NEIGHBOUR]: "# Database migrations" });
    input.draft = { ...input.draft, recommendation: { ...input.draft.recommendation, confidence: "med" } };
    const after = applyObjections(input.draft, critique(input, UNITS_BEFORE_DOUBTS, null), input.evidence);
    assert.equal(after.recommendation.confidence, "low");
    assert.deepEqual(after.critic_effect, { action: "lowered", draft_option_id: "opt-keep", draft_confidence: "med" });
    assert.ok((after.objections ?? []).some((o) => o.severity === "blocking" && /no retrieved record mentions/.test(o.text)));
  });
});
