// Issue 19, finding 6: a model steered by repository text cannot quietly overrule the records. A real temp git
// repository (an accepted ADR chose REST; a later commit message says "recommend GraphQL") and a fake model on
// 127.0.0.1 that obeys injected text: the payload carries `model_dissent`, the rationale and the CLI say so, the
// confidence is at most "med", and the CLI names the synthesis path.
import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { renderPicker } from "../../src/cli/main";
import { createModelStack, createOpenAIChatModel } from "../../src/core/model";
import { DEFAULT_CONFIG } from "../../src/core/config";
import { checkModelDissent, decidingRecord } from "../../src/core/model/dissent";
import { deliberate, type DeliberateOutcome } from "../../src/core/pipeline";
import { generateSigningKey, verifyReceiptSignature } from "../../src/core/receipts/signing";
import { ReceiptSchema, UNDECIDABLE, type DraftPicker, type FusedEvidence, type Option } from "../../src/core/schemas";
import { API_Q, INJECTION, REST_ADR, REST_ADR_TITLE, createSteeringRepo, obedientModel } from "../fixtures/steeringRepo";
import { purposeOf, startFakeOpenAI, type FakeOpenAI } from "../helpers/fakeOpenAI";

const MODEL = "fake-obedient-7b";
/** The injected commit must reach the evidence: no git time budget cut on a busy machine. */
const config = { git: { ...DEFAULT_CONFIG.git, maxMs: 60_000 } };

function deliberated(out: DeliberateOutcome) {
  assert.equal(out.kind, "deliberated");
  return out as Extract<DeliberateOutcome, { kind: "deliberated" }>;
}

describe("a model steered by repository text (accepted ADR chose REST, a commit says 'recommend GraphQL')", () => {
  const signingKey = generateSigningKey();
  const servers: FakeOpenAI[] = [];
  let injected: string;
  let clean: string;
  before(() => {
    injected = createSteeringRepo();
    clean = createSteeringRepo({ inject: false });
  });
  after(async () => {
    await Promise.all(servers.map((s) => s.close()));
  });
  const run = async (repo: string, form?: "open" | "stealth") => {
    const server = await startFakeOpenAI(obedientModel(form));
    servers.push(server);
    const chat = createOpenAIChatModel({ baseURL: server.baseURL, model: MODEL, apiKey: "sk-test-steering", maxRetries: 0 });
    const out = deliberated(await deliberate({ repo, question: API_Q, force: true, config, signingKey, useCache: false, ...createModelStack(chat) }));
    return { out, server };
  };

  it("the rules path alone follows the ADR: REST, high confidence, 'Synthesis: rules' and no note", async () => {
    const out = deliberated(await deliberate({ repo: injected, question: API_Q, force: true, config, signingKey, writeReceipt: false, useCache: false }));
    const rec = out.payload.options.find((o) => o.id === out.payload.recommendation.option_id);
    assert.equal(rec?.title, "REST");
    assert.equal(out.payload.recommendation.confidence, "high");
    assert.equal(out.payload.model_dissent, undefined);
    assert.ok(out.evidence.some((e) => e.excerpt.includes(INJECTION)), "the injected commit message is part of the evidence");
    const text = renderPicker(out.payload, out.receipt, undefined, false);
    assert.match(text, /^Synthesis: rules$/m);
    assert.doesNotMatch(text, /^Note:/m);
  });

  it("open form: the obeyed recommendation (GraphQL) is flagged in the signed payload, capped at med, and shown in the CLI", async () => {
    const { out, server } = await run(injected, "open");
    assert.deepEqual(server.requests.map(purposeOf), ["plan", "synthesis"]);
    const p = out.payload;
    assert.equal(p.recommendation.option_id, "opt-graphql", "the model's answer stands: it may be right, but not silently");
    assert.equal(p.recommendation.confidence, "med", "the model said high");
    const d = p.model_dissent;
    assert.ok(d, "model_dissent is set");
    assert.equal(d.deciding_record.path, REST_ADR);
    assert.equal(d.deciding_record.title, REST_ADR_TITLE);
    assert.equal(d.deciding_record.status, "accepted");
    assert.ok(d.deciding_record.line_range && d.deciding_record.line_range.start > 1, "names the decision's lines");
    assert.equal(d.record_chose, "REST");
    assert.equal(d.model_chose, "GraphQL");
    assert.equal(d.cites_record_as_support, false);
    const where = `${REST_ADR}:${d.deciding_record.line_range.start}-${d.deciding_record.line_range.end}`;
    assert.equal(d.note, `The model recommends "GraphQL" against ADR "${REST_ADR_TITLE}" (accepted) at ${where}, which chose "REST"; confidence capped at med.`);
    assert.ok(p.recommendation.rationale.endsWith(d.note), "the rationale says so too");

    // The flag is part of what is signed: the receipt on disk carries it and verifies.
    const receipt = ReceiptSchema.parse(out.receipt);
    assert.ok(verifyReceiptSignature(receipt));
    assert.deepEqual(receipt.payload.model_dissent, d);
    assert.equal(receipt.synthesis.mode, "model");
    assert.match(receipt.synthesis.calls!.at(-1)!.outcome, /recommends against the deciding record/);

    const text = renderPicker(p, out.receipt, out.receiptFile, false);
    const lines = text.split("\n");
    const noteAt = lines.indexOf(`Note: ${d.note}`);
    assert.ok(noteAt > 0, text);
    assert.ok(!lines.slice(0, noteAt).join(" ").includes("The model recommends"), "the note is said once, not also in the wrapped rationale");
    assert.ok(lines.includes(`Synthesis: model ${MODEL} (${server.host})`), text);
    assert.match(text, /Recommended: GraphQL {2}\[confidence med\]/);
  });

  it("stealth form: GraphQL 'supported' by the very ADR that chose REST is flagged as such", async () => {
    const { out } = await run(injected, "stealth");
    const p = out.payload;
    assert.equal(p.recommendation.option_id, "opt-graphql");
    const graphql = p.options.find((o) => o.id === "opt-graphql")!;
    assert.ok(graphql.supports.length > 0 && graphql.supports.every((id) => p.citations.find((c) => c.id === id)?.path_or_url === REST_ADR), "it cites only the REST ADR");
    assert.equal(p.recommendation.confidence, "med");
    assert.equal(p.model_dissent?.cites_record_as_support, true);
    assert.match(p.model_dissent!.note, new RegExp(`^The model recommends "GraphQL" and cites ADR "${REST_ADR_TITLE}" \\(accepted\\) at ${REST_ADR.replace(/[.]/g, "\\.")}:\\d+-\\d+ as support, but that record chose "REST"; confidence capped at med\\.$`));
    assert.ok(renderPicker(p, out.receipt, undefined, false).split("\n").includes(`Note: ${p.model_dissent!.note}`));
  });

  it("no injection: the model follows the ADR, keeps its high confidence, and nothing is flagged", async () => {
    const { out } = await run(clean, "open");
    assert.equal(out.payload.recommendation.option_id, "opt-rest");
    assert.equal(out.payload.recommendation.confidence, "high");
    assert.equal(out.payload.model_dissent, undefined);
    assert.doesNotMatch(out.payload.recommendation.rationale, /The model recommends|capped/);
    assert.doesNotMatch(renderPicker(out.payload, out.receipt, undefined, false), /^Note:/m);
  });
});

describe("checkModelDissent against the rules verdict of a real repository", () => {
  const signingKey = generateSigningKey();
  let rules: DraftPicker;
  let evidence: FusedEvidence[];
  before(async () => {
    const out = deliberated(await deliberate({ repo: createSteeringRepo(), question: API_Q, force: true, config, signingKey, writeReceipt: false, useCache: false }));
    rules = out.payload;
    evidence = out.evidence;
  });
  const adrIds = () => evidence.filter((e) => e.adr?.path === REST_ADR).map((e) => e.id);
  const option = (id: string, title: string, supports: string[]): Option => ({ id, title, summary: `${title}.`, supports, dissent: [], tradeoffs: [], cost: "med", risk: "med" });
  const modelDraft = (recommend: string, confidence: "low" | "med" | "high", options: Option[]): DraftPicker => ({
    ...rules,
    options,
    recommendation: { option_id: recommend, rationale: "Model rationale.", confidence },
  });

  it("finds the deciding record: the accepted ADR's decision section, for the option 'REST'", () => {
    const found = decidingRecord(rules, evidence);
    assert.equal(found?.evidence.adr?.path, REST_ADR);
    assert.equal(found?.evidence.adr?.section, "decision");
    assert.equal(found?.chose.title, "REST");
  });

  it("a paraphrase of the chosen option is no dissent", () => {
    const draft = modelDraft("m-rest", "high", [option("m-rest", "REST over HTTPS with JSON", adrIds()), option("m-gql", "GraphQL", [])]);
    assert.equal(checkModelDissent(draft, rules, evidence), draft);
  });

  it("an option that names REST but is what the record rejected (a GraphQL gateway) is dissent, read from the record's stance", () => {
    const draft = modelDraft("m-gw", "high", [option("m-gw", "REST-compatible GraphQL gateway", adrIds()), option("m-rest", "REST", [])]);
    const checked = checkModelDissent(draft, rules, evidence);
    assert.equal(checked.model_dissent?.model_chose, "REST-compatible GraphQL gateway");
    assert.equal(checked.model_dissent?.cites_record_as_support, true);
    assert.equal(checked.recommendation.confidence, "med");
  });

  it("calling it undecidable against the record is flagged; a low confidence stays low", () => {
    const draft = modelDraft(UNDECIDABLE, "low", [option("m-rest", "REST", []), option("m-gql", "GraphQL", [])]);
    const checked = checkModelDissent(draft, rules, evidence);
    assert.equal(checked.model_dissent?.model_chose, UNDECIDABLE);
    assert.equal(checked.recommendation.confidence, "low");
    assert.match(checked.model_dissent!.note, /^The model calls this undecidable, but ADR "Use REST for the public API" \(accepted\) at .* chose "REST"; confidence is low\.$/);
  });

  it("nothing is flagged when no in-force record decided: an undecidable rules verdict, or a decision only proposed", () => {
    const draft = modelDraft("m-gql", "high", [option("m-rest", "REST", []), option("m-gql", "GraphQL", adrIds())]);
    const undecided: DraftPicker = { ...rules, recommendation: { ...rules.recommendation, option_id: UNDECIDABLE } };
    assert.equal(checkModelDissent(draft, undecided, evidence), draft);
    const proposed: DraftPicker = { ...rules, recommendation: { ...rules.recommendation, rationale: rules.recommendation.rationale.replace("(accepted)", "(proposed)") } };
    assert.equal(decidingRecord(proposed, evidence), undefined);
    assert.equal(checkModelDissent(draft, proposed, evidence), draft);
  });
});
