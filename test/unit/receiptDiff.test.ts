// Comparing two deliberations of one question, built for real: deliberate, add an ADR that decides the question,
// deliberate again, diff.
import { test, describe, before } from "node:test";
import assert from "node:assert/strict";
import { deliberate } from "../../src/core/pipeline";
import { describeDiff, diffReceipts, sameQuestion, titleSimilarity } from "../../src/core/receipts/diff";
import { generateSigningKey } from "../../src/core/receipts/signing";
import { readEvidence } from "../../src/core/receipts/store";
import type { Receipt } from "../../src/core/schemas";
import { writeFiles } from "../helpers/gitRepo";
import { changesModel } from "../../src/vscode/changesPanel";
import { parseHostMessage } from "../../src/shared/protocolSchemas";
import { ADR_GRAPHQL, API_Q, DB_Q, decisionRepo } from "../fixtures/decisionRepo";

const key = generateSigningKey();
const NEW_ADR = "docs/adr/0004-use-graphql-for-the-public-api.md";

async function run(repo: string, question: string): Promise<Receipt> {
  const out = await deliberate({ repo, question, signingKey: key, config: { offline: true }, useCache: false });
  if (out.kind !== "deliberated") throw new Error("abstained");
  return out.receipt;
}

describe("receipt diff", () => {
  let repo: string;
  let before1: Receipt;
  let after1: Receipt;
  before(async () => {
    repo = decisionRepo();
    before1 = await run(repo, API_Q);
    writeFiles(repo, { [NEW_ADR]: ADR_GRAPHQL });
    after1 = await run(repo, API_Q);
  });

  test("reports the added ADR and the changed recommendation, attributed to the docs stage", async () => {
    const [evA, evB] = await Promise.all([readEvidence(repo, before1.evidence_ref), readEvidence(repo, after1.evidence_ref)]);
    const d = diffReceipts(before1, after1, { first: evA, second: evB });
    assert.match(d.before.recommendation.title, /REST/);
    assert.match(d.after.recommendation.title, /GraphQL/);
    assert.equal(d.recommendation.changed, true);
    assert.equal(d.citations.same_set, false);
    const added = d.citations.added.filter((c) => c.location.startsWith(NEW_ADR));
    assert.ok(added.length >= 1, `the new ADR is an added citation: ${JSON.stringify(d.citations.added)}`);
    assert.ok(added.every((c) => c.stage === "internal:docs" && c.source_type === "adr"));
    // Nothing of the new ADR was in the first receipt, so nothing of it can be "removed".
    assert.ok(!d.citations.removed.some((c) => c.location.startsWith(NEW_ADR)));
    const docs = d.moved_by.find((m) => m.stage === "internal:docs");
    assert.ok(docs, `the docs stage moved it: ${JSON.stringify(d.moved_by)}`);
    assert.ok(docs.for_after.some((c) => c.location.startsWith(NEW_ADR)), "the new ADR supports the new recommendation");
    const text = describeDiff(d).join("\n");
    assert.match(text, /Recommendation changed: "REST" → "GraphQL"/);
    assert.ok(text.includes(`+ ${NEW_ADR}`), text);
  });

  test("the picker's 'What changed since' model names the added ADR and passes the webview's guard", async () => {
    const [evA, evB] = await Promise.all([readEvidence(repo, before1.evidence_ref), readEvidence(repo, after1.evidence_ref)]);
    const m = changesModel(diffReceipts(before1, after1, { first: evA, second: evB }), after1.receipt_id);
    assert.equal(m.since, before1.created_at);
    assert.equal(m.earlierReceiptId, before1.receipt_id);
    assert.deepEqual([m.recommendation.before, m.recommendation.after, m.recommendation.changed], ["REST", "GraphQL", true]);
    assert.ok(m.citationsAdded.some((c) => c.location.startsWith(NEW_ADR) && c.source === "ADRs and docs · adr"));
    assert.ok(m.movedBy.some((l) => l.startsWith("ADRs and docs:") && l.includes(NEW_ADR)));
    assert.equal(parseHostMessage({ type: "changes", changes: m })?.type, "changes");
    assert.equal(parseHostMessage({ type: "changes", changes: { ...m, movedBy: "<img src=x>" } }), undefined);
  });

  test("is put in date order whichever receipt comes first", () => {
    const d = diffReceipts(after1, before1);
    assert.equal(d.reordered, true);
    assert.equal(d.before.receipt_id, before1.receipt_id);
    assert.equal(d.after.receipt_id, after1.receipt_id);
    // Without the evidence files, the citation's own kind still names the stage.
    assert.ok(d.citations.added.filter((c) => c.location.startsWith(NEW_ADR)).every((c) => c.stage === "internal:docs"));
  });

  test("two identical deliberations show no change", async () => {
    const again = await run(repo, API_Q);
    const d = diffReceipts(after1, again);
    assert.equal(d.citations.same_set, true);
    assert.deepEqual(d.citations.added, []);
    assert.deepEqual(d.citations.removed, []);
    assert.equal(d.recommendation.changed, false);
    assert.deepEqual(d.moved_by, []);
    assert.deepEqual(d.options, { added: [], removed: [], renamed: [] });
  });

  test("options renamed, added and removed are told apart", () => {
    const base = after1;
    const [o1, o2] = base.payload.options;
    const renamedTitle = `${o1!.title} API`;
    const changed: Receipt = {
      ...base,
      created_at: new Date(Date.parse(base.created_at) + 1000).toISOString(),
      payload: {
        ...base.payload,
        options: [
          { ...o1!, id: "opt-renamed", title: renamedTitle },
          { ...o2!, id: "opt-brand-new", title: "Server-sent events feed" },
        ],
        recommendation: { ...base.payload.recommendation, option_id: base.payload.recommendation.option_id === o1!.id ? "opt-renamed" : "opt-brand-new" },
      },
    };
    const d = diffReceipts(base, changed);
    assert.deepEqual(d.options.renamed.map((r) => [r.before.title, r.after.title]), [[o1!.title, renamedTitle]]);
    assert.deepEqual(d.options.added.map((o) => o.title), ["Server-sent events feed"]);
    assert.deepEqual(d.options.removed.map((o) => o.title), [o2!.title]);
    assert.ok(titleSimilarity("Use PostgreSQL", "PostgreSQL") >= 0.5);
    assert.equal(titleSimilarity("REST", "GraphQL"), 0);
  });

  test("receipts of different questions are not the same question", async () => {
    const db = await run(repo, DB_Q);
    assert.equal(sameQuestion(db, after1), false);
    assert.equal(sameQuestion(before1, after1), true);
  });
});
