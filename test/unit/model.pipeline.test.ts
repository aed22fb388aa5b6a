// The model stack inside the real pipeline, on the sample repository, against a fake OpenAI server on 127.0.0.1:
// at most two calls per deliberation, the plan's vocabulary reaching retrieval, the endpoint-down run equal to the
// offline run with the classified reason in the receipt, and the API key absent from everything written.
import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { createModelStack, createOpenAIChatModel } from "../../src/core/model";
import { deliberate, type DeliberateOutcome } from "../../src/core/pipeline";
import { generateSigningKey, verifyReceiptSignature } from "../../src/core/receipts/signing";
import { ReceiptSchema } from "../../src/core/schemas";
import { createSampleRepo } from "../fixtures/sampleRepo";
import { apiError, closedPortURL, completion, purposeOf, sentEvidenceIds, startFakeOpenAI, type FakeOpenAI, type RecordedRequest } from "../helpers/fakeOpenAI";

const KEY = "sk-test-PIPELINE-5f3a9c0d1e2b4a68";
const MADR = "docs/decisions/0004-use-zustand-for-cart-state.md";
/** None of the MADR's words: "cart", "state", "Zustand", "Redux", "store" are all absent. */
const BASKET_Q = "Where should a shopper's basket live in the browser?";
const PLAN = {
  draft: "Keep the cart state in a small client-side store such as Zustand; Redux Toolkit adds boilerplate, React Context re-renders every consumer.",
  entities: ["Zustand", "Redux Toolkit", "React Context", "cart state"],
  relations: [{ subject: "Zustand", relation: "alternative to", object: "Redux Toolkit" }],
  keywords: ["zustand", "redux", "cart", "state management"],
};

/** A well-behaved model: a plan for plan calls, and for synthesis an answer citing the first records it was shown. */
function behavedModel(req: RecordedRequest) {
  if (purposeOf(req) === "plan") return completion(JSON.stringify(PLAN));
  const ids = sentEvidenceIds(req);
  return completion(
    JSON.stringify({
      options: [
        { id: "opt-zustand", title: "Zustand store", summary: "Keep the basket in a Zustand store, as the MADR decided.", supports: ids.slice(0, 2), dissent: [], tradeoffs: ["+ Least boilerplate."], cost: "low", risk: "low" },
        { id: "opt-redux", title: "Redux Toolkit", summary: "Use Redux Toolkit for its devtools.", supports: [], dissent: ids.slice(0, 1), tradeoffs: ["- Boilerplate."], cost: "med", risk: "med" },
      ],
      recommendation: { option_id: "opt-zustand", rationale: "The accepted MADR chose Zustand for cart state.", confidence: "med" },
    }),
  );
}

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

function deliberated(out: DeliberateOutcome) {
  assert.equal(out.kind, "deliberated");
  return out as Extract<DeliberateOutcome, { kind: "deliberated" }>;
}

describe("model stack in the pipeline (sample repository)", () => {
  let repo: string;
  const signingKey = generateSigningKey();
  const servers: FakeOpenAI[] = [];
  before(() => {
    repo = createSampleRepo();
  });
  after(async () => {
    await Promise.all(servers.map((s) => s.close()));
  });
  const serve = async (script: Parameters<typeof startFakeOpenAI>[0]) => {
    const s = await startFakeOpenAI(script);
    servers.push(s);
    return s;
  };
  const stackFor = (baseURL: string) => createModelStack(createOpenAIChatModel({ baseURL, model: "fake-pinned-7b", apiKey: KEY, maxRetries: 0 }));

  it("a deliberation makes exactly two calls (plan + synthesis); the payload validates and every citation resolves; the receipt records both calls", async () => {
    const server = await serve(behavedModel);
    const out = deliberated(await deliberate({ repo, question: BASKET_Q, force: true, signingKey, writeReceipt: false, useCache: false, ...stackFor(server.baseURL) }));
    assert.equal(server.chatCalls(), 2);
    assert.deepEqual(server.requests.map(purposeOf), ["plan", "synthesis"]);
    const r = ReceiptSchema.parse(out.receipt);
    assert.ok(verifyReceiptSignature(r));
    assert.equal(r.synthesis.mode, "model");
    assert.equal(r.synthesis.model, "fake-pinned-7b");
    assert.equal(r.synthesis.endpoint_host, server.host);
    assert.equal(r.synthesis.fallback_reason, undefined);
    assert.deepEqual(r.synthesis.calls?.map((c) => c.purpose), ["plan", "synthesis"]);
    for (const c of r.synthesis.calls!) assert.match(c.outcome, /^ok/);
    assert.equal(r.plan?.mode, "model");
    assert.equal(r.plan?.draft, PLAN.draft);
    assert.deepEqual(r.plan?.entities, PLAN.entities);
    assert.ok(r.plan?.keywords?.includes("zustand"));
    assert.ok(out.payload.citations.length > 0);
    assert.ok(out.payload.citations.every((c) => !c.resolution_failed), "every citation resolves");
    const evidenceIds = new Set(out.evidence.map((e) => e.id));
    for (const c of out.payload.citations) assert.ok(evidenceIds.has(c.id));
  });

  it("the plan's keywords reach stage 1: a question with none of the ADR's words finds it through the draft's vocabulary", async () => {
    const offline = deliberated(await deliberate({ repo, question: BASKET_Q, force: true, signingKey, writeReceipt: false, useCache: false }));
    // Distinct documents in rank order; the rules plan reaches the MADR only through feedback terms, far down.
    const docRank = (evidence: { path_or_url: string; commit?: string }[]) => {
      const docs: string[] = [];
      for (const e of evidence) if (!e.commit && !docs.includes(e.path_or_url)) docs.push(e.path_or_url);
      return docs.indexOf(MADR) + 1 || Number.POSITIVE_INFINITY;
    };
    assert.ok(docRank(offline.evidence) > 2, "the rules plan alone does not rank the MADR near the top");
    const server = await serve(behavedModel);
    const planned = deliberated(await deliberate({ repo, question: BASKET_Q, force: true, signingKey, writeReceipt: false, useCache: false, ...stackFor(server.baseURL) }));
    assert.ok(planned.evidence.some((e) => e.path_or_url === MADR), "the model plan finds it");
    assert.ok(docRank(planned.evidence) < docRank(offline.evidence), "and ranks it higher than the rules plan does");
    assert.equal(planned.evidence.find((e) => e.path_or_url === MADR)?.kind, "internal");
    assert.ok(planned.payload.citations.some((c) => c.path_or_url === MADR), "and the payload cites it");
    assert.equal(planned.receipt.question, BASKET_Q, "the receipt stays anchored to the original question");
  });

  it("endpoint down: the payload equals the offline run's; the receipt carries the classified reason and the one failed call", async () => {
    const question = "Should we store orders in MongoDB or PostgreSQL?";
    const offline = deliberated(await deliberate({ repo, question, signingKey, writeReceipt: false, useCache: false }));
    const down = deliberated(await deliberate({ repo, question, signingKey, writeReceipt: false, useCache: false, ...stackFor(await closedPortURL()) }));
    const strip = (p: typeof offline.payload) => ({ ...p, receipt_ref: "" });
    assert.deepEqual(strip(down.payload), strip(offline.payload));
    assert.equal(down.payload.evidence_ref, offline.payload.evidence_ref, "same evidence too");
    const r = down.receipt;
    assert.equal(r.synthesis.mode, "rules");
    assert.equal(r.synthesis.fallback?.kind, "connection-refused");
    assert.match(r.synthesis.fallback_reason!, /^connection-refused: nothing is listening at 127\.0\.0\.1:\d+/);
    assert.equal(r.synthesis.model, "fake-pinned-7b");
    assert.match(r.stages.plan.reason!, /^connection-refused: .*\(rules plan used\)$/);
    assert.equal(r.plan?.mode, "rules");
    // The circuit breaker: after the plan call failed at the endpoint, synthesis does not call it again.
    assert.match(r.synthesis.fallback_reason!, /circuit open/);
    assert.deepEqual(r.synthesis.calls?.map((c) => [c.purpose, c.outcome.split(":")[0]]), [["plan", "connection-refused"]]);
  });

  it("the API key never appears in the receipt, the stored files or any reason — even when the server echoes it back", async () => {
    const server = await serve((req) => apiError(401, `Incorrect API key provided: ${String(req.headers.authorization)}`));
    const before = new Set(filesUnder(join(repo, ".deliberations")));
    const out = deliberated(await deliberate({ repo, question: "Should we adopt winston for logging?", signingKey, useCache: false, ...stackFor(server.baseURL) }));
    assert.equal(server.requests[0].headers.authorization, `Bearer ${KEY}`, "the key was used");
    assert.equal(out.receipt.synthesis.fallback?.kind, "auth");
    assert.match(out.receipt.synthesis.fallback_reason!, /^auth: HTTP 401 .*check your API key \/ base URL/);
    assert.ok(!JSON.stringify(out).includes(KEY));
    const written = filesUnder(join(repo, ".deliberations")).filter((f) => !before.has(f));
    assert.ok(written.length >= 2, "receipt and evidence were written");
    for (const f of written) assert.ok(!readFileSync(f, "utf8").includes(KEY), `${f} contains the key`);
  });

  it("a cached turn makes no model call at all", async () => {
    const server = await serve(behavedModel);
    const stack = stackFor(server.baseURL);
    const question = "Should we use Redux or Zustand for the cart state?";
    const first = deliberated(await deliberate({ repo, question, signingKey, ...stack }));
    assert.equal(first.cached, false);
    assert.equal(server.chatCalls(), 2);
    const second = deliberated(await deliberate({ repo, question, signingKey, ...stack }));
    assert.equal(second.cached, true);
    assert.equal(server.chatCalls(), 2);
  });
});
