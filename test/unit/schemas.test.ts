import { test } from "node:test";
import assert from "node:assert/strict";
import { OptionPickerSchema, ReceiptSchema } from "../../src/core/schemas";

const citation = { id: "ev-1", kind: "internal", path_or_url: "docs/adr/1.md", line_range: { start: 3, end: 5 }, precision_class: "section", excerpt: "Use X" };
const option = (id: string, supports: string[] = []) => ({ id, title: id, summary: "An option. It has a summary.", supports, dissent: [], tradeoffs: [], cost: "low", risk: "low" });
const valid = {
  question: "X or Y?",
  class: "open-question",
  options: [option("opt-x", ["ev-1"]), option("opt-y")],
  recommendation: { option_id: "opt-x", rationale: "Because.", confidence: "med" },
  citations: [citation],
  coverage: { internal: 1, external: 0, top_score: 1.5 },
  evidence_ref: "sha256-0",
  receipt_ref: "20260101-000000Z-abcd",
};

test("a well-formed payload parses", () => {
  OptionPickerSchema.parse(valid);
  OptionPickerSchema.parse({ ...valid, recommendation: { ...valid.recommendation, option_id: "undecidable-on-current-evidence" } });
});

test("the payload contract refuses what it must", () => {
  const refuse = (payload: unknown, why: RegExp) => {
    const r = OptionPickerSchema.safeParse(payload);
    assert.equal(r.success, false);
    assert.match(JSON.stringify(r.error?.issues), why);
  };
  const { receipt_ref: _drop, ...noReceipt } = valid;
  refuse(noReceipt, /receipt_ref/);
  refuse({ ...valid, receipt_ref: "" }, /receipt_ref/);
  refuse({ ...valid, recommendation: null }, /recommendation/);
  refuse({ ...valid, recommendation: { ...valid.recommendation, option_id: "" } }, /option_id/);
  refuse({ ...valid, recommendation: { ...valid.recommendation, option_id: "opt-z" } }, /unknown option opt-z/);
  refuse({ ...valid, options: [option("opt-x", ["ev-404"]), option("opt-y")] }, /unknown citation ev-404/);
  refuse({ ...valid, options: [option("opt-x")] }, /options/);
  refuse({ ...valid, options: Array.from({ length: 6 }, (_, i) => option(`opt-${i}`)) }, /options/);
  refuse({ ...valid, class: "lookup" }, /class/);
  refuse({ ...valid, citations: [citation, citation] }, /duplicate citation/);
  refuse({ ...valid, citations: [{ ...citation, line_range: { start: 5, end: 3 } }] }, /line_range/);
});

test("a receipt without a signature or with an unknown field type is refused", () => {
  assert.equal(ReceiptSchema.safeParse({ receipt_id: "x" }).success, false);
});
