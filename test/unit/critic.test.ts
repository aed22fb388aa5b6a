// The rules Critic: a real-git deliberation where a record chose X while the code uses Y gets a blocking "code
// disagrees" objection citing the record and the code lines (signed into the receipt); when the code follows the
// record there is none. Then each check on its own, on hand-built evidence and drafts.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { adrContent } from "../../src/core/adrExport/content";
import { applyObjections, critique, type CriticInput } from "../../src/core/critic";
import { describeDiff, diffReceipts } from "../../src/core/receipts/diff";
import type { CodeUsageReport, OptionUsage } from "../../src/core/internal/codeUsage";
import { deliberate } from "../../src/core/pipeline";
import { generateSigningKey, verifyReceiptSignature } from "../../src/core/receipts/signing";
import { OptionPickerSchema, ReceiptSchema, UNDECIDABLE, type AdrMeta, type DraftPicker, type FusedEvidence, type Receipt } from "../../src/core/schemas";
import { createGitRepo } from "../helpers/gitRepo";

const key = generateSigningKey();
const QUESTION = "Should we use moment or date-fns for date handling?";
const RECORD =
  "# 1. Use date-fns for date handling\n\nStatus: accepted\n\n## Context\n\nWe format and parse dates in many places and need one library for it.\n\n" +
  "## Decision\n\nWe will use date-fns for all date handling.\n\n## Consequences\n\nSmall bundles through tree shaking.\n";

function repoUsing(library: string, files: number): string {
  const content: Record<string, string> = {
    "docs/adr/0001-date-library.md": RECORD,
    "package.json": `{\n  "name": "app",\n  "dependencies": {\n    "${library}": "^3.0.0"\n  }\n}\n`,
  };
  for (let i = 0; i < files; i++) content[`src/f${i}.ts`] = `import lib from "${library}";\nexport const d${i} = lib;\n`;
  return createGitRepo([{ message: "init", files: content }]);
}

const receipts: Receipt[] = [];

describe("critic: the code disagrees with the record (real git)", () => {
  test("a record that chose date-fns while most files use moment gets a blocking objection citing both, signed", async () => {
    const repo = repoUsing("moment", 6);
    const out = await deliberate({ repo, question: QUESTION, signingKey: key, useCache: false, writeReceipt: false });
    assert.equal(out.kind, "deliberated");
    if (out.kind !== "deliberated") return;
    const p = out.payload;
    assert.equal(p.recommendation.option_id, "opt-date-fns");
    const code = (p.objections ?? []).find((o) => o.text.startsWith("Code disagrees"));
    assert.ok(code, JSON.stringify(p.objections));
    assert.equal(code.severity, "blocking");
    assert.match(code.text, /moment: 7 files \(package\.json:4, src\/f0\.ts:1, src\/f1\.ts:1, …\); date-fns: no files/);
    const cited = code.citations.map((id) => p.citations.find((c) => c.id === id)!);
    assert.ok(cited.every(Boolean), "every objection citation is a payload citation");
    assert.ok(cited.some((c) => c.path_or_url === "docs/adr/0001-date-library.md"), "cites the record");
    assert.ok(cited.some((c) => c.path_or_url === "src/f0.ts" && c.line_range?.start === 1), "cites a code line");
    assert.ok(cited.some((c) => c.path_or_url === "package.json" && c.line_range?.start === 4), "cites the manifest line");
    // A blocking objection lowers the confidence a step and says why.
    assert.equal(p.recommendation.confidence, "med");
    assert.match(p.recommendation.rationale, /The Critic objects: Code disagrees/);
    // The option tradeoffs carry the figures.
    assert.ok(p.options.find((o) => o.id === "opt-moment")!.tradeoffs[0].startsWith("· Used in 7 files (package.json:4"));
    assert.match(p.options.find((o) => o.id === "opt-moment")!.summary, /Only its use in the code \(7 files\) favours it\./);
    assert.equal(out.receipt.stages["internal:code"].status, "ok");
    assert.equal(out.receipt.stages.critic.count, p.objections!.length);
    // The receipt signs the objections: the signature holds, and fails once one is altered.
    assert.ok(ReceiptSchema.safeParse(out.receipt).success);
    assert.deepEqual(verifyReceiptSignature(out.receipt), { ok: true });
    receipts[0] = out.receipt;
    const tampered = structuredClone(out.receipt);
    tampered.payload.objections![0].text = "nothing to see";
    assert.equal(verifyReceiptSignature(tampered).ok, false);
  });

  test("when the code follows the record there is no code objection, and confidence stays", async () => {
    const repo = repoUsing("date-fns", 6);
    const out = await deliberate({ repo, question: QUESTION, signingKey: key, useCache: false, writeReceipt: false });
    assert.equal(out.kind, "deliberated");
    if (out.kind !== "deliberated") return;
    assert.equal(out.payload.recommendation.option_id, "opt-date-fns");
    assert.equal(out.payload.recommendation.confidence, "high");
    assert.ok(!(out.payload.objections ?? []).some((o) => o.severity === "blocking"), JSON.stringify(out.payload.objections));
    assert.ok(out.payload.options.find((o) => o.id === "opt-date-fns")!.tradeoffs[0].startsWith("· Used in 7 files"));
    receipts[1] = out.receipt;
  });

  test("deliberate diff reports the objection as resolved (and as appeared the other way round)", () => {
    const [disagreeing, following] = receipts;
    assert.ok(disagreeing && following, "the tests above ran");
    const later = { ...following, created_at: new Date(Date.parse(disagreeing.created_at) + 1000).toISOString() };
    const d = diffReceipts(disagreeing, later);
    assert.ok(d.objections!.resolved.some((o) => o.severity === "blocking" && o.text.startsWith("Code disagrees")));
    assert.ok(!d.objections!.appeared.some((o) => o.text.startsWith("Code disagrees")));
    assert.ok(describeDiff(d).some((l) => /^ {2}− blocking: Code disagrees/.test(l)));
    const back = diffReceipts(later, { ...disagreeing, created_at: new Date(Date.parse(later.created_at) + 1000).toISOString() });
    assert.ok(back.objections!.appeared.some((o) => o.text.startsWith("Code disagrees")));
  });

  test("the ADR export lists the objections with the bad consequences, cited", () => {
    const receipt = { ...receipts[0], operator_pick: { option_id: "opt-date-fns", at: receipts[0].created_at, overrode_recommendation: false } };
    const content = adrContent(receipt, { date: "2026-12-01", receiptsDir: ".deliberations" });
    // Cited by the numbers of its four citations (the record and three code lines), whichever they are in the receipt.
    assert.ok(content.consequences.bad.some((b) => /^the Critic objected \(blocking\): Code disagrees: .* \((?:\[\d+\] ){3}\[\d+\]\)$/.test(b)), JSON.stringify(content.consequences));
  });
});

// ---------------------------------------------------------------------------------------------------------
// Each check on hand-built evidence

function adr(meta: Partial<AdrMeta> & { path: string; title: string }, extra: Partial<FusedEvidence> = {}): FusedEvidence {
  return {
    id: `ev-${meta.path.replace(/\W/g, "")}`,
    kind: "internal",
    expert: "docs",
    source_type: "adr",
    path_or_url: meta.path,
    line_range: { start: 1, end: 10 },
    precision_class: "section",
    title: meta.title,
    excerpt: `We will use ${meta.chosen_option ?? "date-fns"}.`,
    score: 1,
    rank: 1,
    fused_score: 1,
    experts: ["docs"],
    adr: { status: "accepted", supersedes: [], superseded_by: [], considered_options: [], section: "decision", ...meta },
    ...extra,
  };
}

function commitItem(sha: string, subject: string, touched: string[] = []): FusedEvidence {
  return {
    id: `ev-c${sha}`, kind: "internal", expert: "git", source_type: "commit", path_or_url: touched[0] ?? "src/a.ts", commit: sha.padEnd(40, "0"), precision_class: "commit",
    title: subject, excerpt: subject, score: 1, rank: 2, fused_score: 1, experts: ["git"], touched_paths: touched,
  };
}

function draftFor(evidence: FusedEvidence[], supports: string[], confidence: "high" | "med" | "low" = "high", rationale = 'ADR 1 "Use date-fns" (accepted) decided this question.'): DraftPicker {
  return {
    question: QUESTION,
    class: "open-question",
    options: [
      { id: "opt-moment", title: "moment", summary: "s", supports: [], dissent: [], tradeoffs: [], cost: "low", risk: "low" },
      { id: "opt-date-fns", title: "date-fns", summary: "s", supports, dissent: [], tradeoffs: [], cost: "med", risk: "low" },
    ],
    recommendation: { option_id: "opt-date-fns", rationale, confidence },
    citations: evidence.filter((e) => supports.includes(e.id)).map((e) => ({ id: e.id, kind: e.kind, path_or_url: e.path_or_url, precision_class: e.precision_class, excerpt: e.excerpt })),
    coverage: { internal: evidence.length, external: 0, top_score: 1 },
  };
}

function usageOf(files: Record<string, number>, cites: Record<string, string[]> = {}): NonNullable<CriticInput["usage"]> {
  const options: OptionUsage[] = Object.entries(files).map(([id, n]) => ({
    id, title: id, terms: [id.replace(/^opt-/, "")], files: n, byKind: { manifest: 0, lock: 0, import: n, infra: 0 },
    examples: n ? [{ path: `src/${id}.ts`, line: 1, text: `import x from "${id.replace(/^opt-/, "")}";`, kind: "import" as const }] : [],
  }));
  const report: CodeUsageReport = { status: "ok", options, skipped: [], skippedTotal: 0, ms: 1 };
  return { report, citedBy: new Map(Object.entries(cites)) };
}

const RECORD_ITEM = adr({ path: "docs/adr/0001-dates.md", title: "Use date-fns", number: 1, chosen_option: "date-fns" });
const SECOND = commitItem("abc1234", "Format dates with date-fns in the invoice view", ["src/invoice.ts"]);

function run(evidence: FusedEvidence[], extra: Partial<CriticInput> = {}, supports = [RECORD_ITEM.id, SECOND.id], draft?: DraftPicker) {
  return critique({ question: QUESTION, draft: draft ?? draftFor(evidence, supports), evidence, ...extra });
}

describe("critic: each rules check", () => {
  test("a well-supported, in-force recommendation draws no objection", () => {
    assert.deepEqual(run([RECORD_ITEM, SECOND]), []);
  });

  test("record status: proposed or draft is a concern; deprecated is blocking and makes the answer undecidable", () => {
    const proposed = adr({ path: "docs/adr/0001-dates.md", title: "Use date-fns", number: 1, status: "proposed" });
    assert.deepEqual(run([proposed, SECOND]).map((o) => [o.check, o.severity]), [["record-status", "concern"]]);
    const draftStatus = adr({ path: "docs/adr/0001-dates.md", title: "Use date-fns", number: 1, status: "unknown", status_display: "Draft" });
    assert.deepEqual(run([draftStatus, SECOND]).map((o) => [o.check, o.severity]), [["record-status", "concern"]]);
    const deprecated = adr({ path: "docs/adr/0001-dates.md", title: "Use date-fns", number: 1, status: "deprecated" });
    const raised = run([deprecated, SECOND]);
    assert.deepEqual(raised.map((o) => [o.check, o.severity, o.effect]), [["record-status", "blocking", "undecidable"]]);
    const applied = applyObjections(draftFor([deprecated, SECOND], [deprecated.id, SECOND.id]), raised, [deprecated, SECOND]);
    assert.equal(applied.recommendation.option_id, UNDECIDABLE);
    assert.match(applied.recommendation.rationale, /^Undecidable on current evidence: ADR 1 "Use date-fns" is deprecated/);
    // The payload says what the draft was, so a reader (and the eval) can judge the Critic on what it withdrew.
    assert.deepEqual(applied.critic_effect, { action: "withdrawn", draft_option_id: "opt-date-fns", draft_confidence: "high" });
  });

  test("a revert commit of the decision is blocking; a commit removing the chosen option is a concern", () => {
    const revert = commitItem("def5678", 'Revert "Switch dates to date-fns"', ["src/dates.ts"]);
    const raised = run([RECORD_ITEM, SECOND, revert]);
    assert.deepEqual(raised.map((o) => [o.check, o.severity]), [["reverted", "blocking"]]);
    assert.deepEqual(raised[0].citations, [revert.id, RECORD_ITEM.id]);
    const removal = commitItem("0badc0d", "Remove date-fns from the invoice view", ["src/invoice.ts"]);
    assert.deepEqual(run([RECORD_ITEM, SECOND, removal]).map((o) => [o.check, o.severity]), [["reverted", "concern"]]);
    // Replacing the other option *with* the chosen one is the decision carried out, not undone.
    const carried = commitItem("1234abc", "Replace moment with date-fns", ["src/invoice.ts"]);
    assert.deepEqual(run([RECORD_ITEM, SECOND, carried]), []);
  });

  test("a newer in-force record that chose another option is a concern", () => {
    const later = adr({ path: "docs/adr/0007-moment-again.md", title: "Go back to moment", number: 7, chosen_option: "moment" });
    const raised = run([RECORD_ITEM, SECOND, later]);
    assert.deepEqual(raised.map((o) => [o.check, o.severity]), [["later-record", "concern"]]);
    const older = adr({ path: "docs/adr/0000-moment.md", title: "Use moment", number: 0, chosen_option: "moment" });
    assert.deepEqual(run([RECORD_ITEM, SECOND, older]), []);
  });

  test("code: mostly another option is blocking; within the ratio, or a move the record names, is not", () => {
    const ev = [RECORD_ITEM, SECOND];
    const blocking = run(ev, { usage: usageOf({ "opt-moment": 12, "opt-date-fns": 2 }) });
    assert.deepEqual(blocking.map((o) => [o.check, o.severity]), [["code-disagrees", "blocking"]]);
    assert.match(blocking[0].text, /moment: 12 files \(src\/opt-moment\.ts:1, …\); date-fns: 2 files/);
    assert.deepEqual(run(ev, { usage: usageOf({ "opt-moment": 4, "opt-date-fns": 2 }) }), []);
    assert.deepEqual(run(ev, { usage: usageOf({ "opt-moment": 2, "opt-date-fns": 0 }) }), []);
    const knows = run(ev, { usage: usageOf({ "opt-moment": 12, "opt-date-fns": 0 }), recordText: () => "We will move from moment to date-fns." });
    assert.deepEqual(knows.map((o) => [o.check, o.severity]), [["code-disagrees", "concern"]]);
  });

  test("a constraint the question names and the record never mentions is a concern", () => {
    const q = "Should we use moment or date-fns for date handling, given GDPR and our cloud budget?";
    const raised = critique({ question: q, draft: draftFor([RECORD_ITEM, SECOND], [RECORD_ITEM.id, SECOND.id]), evidence: [RECORD_ITEM, SECOND] });
    assert.deepEqual(raised.map((o) => [o.check, o.severity]), [["unweighed-constraint", "concern"]]);
    assert.match(raised[0].text, /weighs cost and compliance/);
    const weighed = critique({ question: q, draft: draftFor([RECORD_ITEM, SECOND], [RECORD_ITEM.id, SECOND.id]), evidence: [RECORD_ITEM, SECOND], recordText: () => "Cost: free. GDPR compliance reviewed." });
    assert.deepEqual(weighed, []);
  });

  test("a recommendation with one source is a concern", () => {
    const raised = run([RECORD_ITEM], {}, [RECORD_ITEM.id]);
    assert.deepEqual(raised.map((o) => [o.check, o.severity]), [["single-source", "concern"]]);
  });

  test("a model recommendation against the in-force record is blocking; its confidence stays capped at med", () => {
    const ev = [RECORD_ITEM, SECOND];
    const draft: DraftPicker = {
      ...draftFor(ev, [RECORD_ITEM.id, SECOND.id], "high"),
      recommendation: { option_id: "opt-moment", rationale: "The model prefers moment.", confidence: "high" },
      model_dissent: { deciding_record: { path: RECORD_ITEM.path_or_url, title: "Use date-fns", status: "accepted" }, record_chose: "date-fns", model_chose: "moment", cites_record_as_support: false, note: "n" },
    };
    draft.options[0].supports = [SECOND.id];
    const raised = critique({ question: QUESTION, draft, evidence: ev });
    assert.equal(raised[0].check, "against-record");
    assert.equal(raised[0].severity, "blocking");
    assert.deepEqual(raised[0].citations, [RECORD_ITEM.id]);
    // The dissent check already capped the confidence at med (model/dissent.ts): that is the step, not another.
    assert.equal(raised[0].effect, "applied");
    const applied = applyObjections({ ...draft, recommendation: { ...draft.recommendation, confidence: "med" } }, raised, ev);
    assert.equal(applied.recommendation.confidence, "med");
    assert.equal(applied.recommendation.option_id, "opt-moment");
    assert.equal(applied.objections?.[0].severity, "blocking");
    assert.equal(applied.critic_effect, undefined, "an objection already applied changes nothing more");
  });

  test("a record written about an older major version than the manifest's is a concern", () => {
    const record = adr({ path: "docs/adr/0001-dates.md", title: "Use date-fns", number: 1, chosen_option: "date-fns" });
    const usage = usageOf({ "opt-moment": 0, "opt-date-fns": 1 }, { "opt-date-fns": ["ev-pkg"] });
    usage.report.options[1].examples = [{ path: "package.json", line: 4, text: '"date-fns": "^3.6.0",', kind: "manifest" }];
    const pkg: FusedEvidence = { ...SECOND, id: "ev-pkg", source_type: "code", path_or_url: "package.json", commit: undefined, line_range: { start: 4, end: 4 }, precision_class: "exact-lines" };
    const raised = run([record, SECOND, pkg], { usage, recordText: () => "We evaluated date-fns 2.29 against moment." });
    assert.deepEqual(raised.map((o) => [o.check, o.severity]), [["stale-version", "concern"]]);
    assert.match(raised[0].text, /written about date-fns 2; package\.json:4 uses date-fns 3 today/);
    assert.deepEqual(raised[0].citations, [record.id, "ev-pkg"]);
    assert.deepEqual(run([record, SECOND, pkg], { usage, recordText: () => "We evaluated date-fns 3.0." }), []);
  });

  test("objections bind into a valid payload; one naming an unknown citation does not", () => {
    const ev = [RECORD_ITEM, SECOND];
    const draft = applyObjections(draftFor(ev, [RECORD_ITEM.id, SECOND.id]), [{ check: "single-source", severity: "concern", text: "t", citations: [SECOND.id] }], ev);
    assert.ok(OptionPickerSchema.safeParse({ ...draft, evidence_ref: "e", receipt_ref: "r" }).success);
    const bad = { ...draft, objections: [{ severity: "concern", text: "t", citations: ["ev-nowhere"] }], evidence_ref: "e", receipt_ref: "r" };
    assert.match(JSON.stringify(OptionPickerSchema.safeParse(bad).error?.issues), /unknown citation ev-nowhere/);
    // A payload without the field (an old receipt) still parses.
    const { objections: _ignored, ...old } = draft;
    assert.ok(OptionPickerSchema.safeParse({ ...old, evidence_ref: "e", receipt_ref: "r" }).success);
  });
});
