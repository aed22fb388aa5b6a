// Plan-first retrieval: one model call, keywords merged into the rules plan's terms, the draft and entities kept
// for the receipt; every failure gives the rules plan with a classified reason; only cancellation throws.
import { describe, it, after } from "node:test";
import assert from "node:assert/strict";
import { createOpenAIChatModel } from "../../src/core/model/client";
import { createModelPlanner, deriveKeywords } from "../../src/core/model/planner";
import { QueryPlanSchema } from "../../src/core/schemas";
import { buildRulesPlan } from "../../src/core/terms";
import { apiError, closedPortURL, completion, startFakeOpenAI, type FakeOpenAI, type FakeReply } from "../helpers/fakeOpenAI";

const KEY = "sk-test-PLAN-0123456789abcdef";
const Q = "Which approach should hold the basket contents between page views?";
const PLAN = {
  draft: "Keep cart state in a small client-side store such as Zustand, or Redux Toolkit if devtools matter; React Context re-renders every consumer.",
  entities: ["Zustand", "Redux Toolkit", "React Context", "cart state", "client-side store"],
  relations: [{ subject: "Zustand", relation: "alternative to", object: "Redux Toolkit" }],
  keywords: ["zustand", "redux", "cart", "state management"],
};

describe("createModelPlanner", () => {
  const servers: FakeOpenAI[] = [];
  const serve = async (script: FakeReply[] | Parameters<typeof startFakeOpenAI>[0]) => {
    const s = await startFakeOpenAI(script);
    servers.push(s);
    return s;
  };
  after(async () => {
    await Promise.all(servers.map((s) => s.close()));
  });
  const signal = () => new AbortController().signal;

  it("one call; the draft's vocabulary is merged into the terms after the question's own; draft, entities, keywords kept", async () => {
    const server = await serve([completion(JSON.stringify(PLAN), { usage: { prompt_tokens: 80, completion_tokens: 60 } })]);
    const planner = createModelPlanner(createOpenAIChatModel({ baseURL: server.baseURL, model: "fake-plan-1", apiKey: KEY }));
    const res = await planner.plan({ question: Q, signal: signal() });
    const rules = buildRulesPlan(Q);
    QueryPlanSchema.parse(res.plan);
    assert.equal(res.plan.mode, "model");
    assert.deepEqual(res.plan.terms.slice(0, rules.terms.length), rules.terms, "the question's own terms come first");
    for (const k of ["zustand", "redux", "cart", "state", "management", "toolkit", "react", "context"]) assert.ok(res.plan.terms.includes(k), `term ${k}`);
    assert.ok(!rules.terms.includes("zustand"), "the question itself does not name it");
    assert.ok(res.plan.expansions.includes("mobx"), "expansions recomputed over the merged terms (state group)");
    for (const x of res.plan.expansions) assert.ok(!res.plan.terms.includes(x));
    assert.equal(res.plan.draft, PLAN.draft);
    assert.deepEqual(res.plan.entities, PLAN.entities);
    assert.ok(res.plan.keywords?.includes("zustand"));
    assert.equal(res.fallback, undefined);
    assert.equal(res.calls?.length, 1);
    assert.equal(res.calls![0].purpose, "plan");
    assert.equal(res.calls![0].prompt_tokens, 80);
    assert.match(res.calls![0].outcome, /^ok · \d+ keyword\(s\) added to the terms$/);
    assert.equal(server.chatCalls(), 1);
    assert.equal(server.requests[0].body.response_format.json_schema.name, "search_plan");
  });

  it("sends the editor context, but not with keepInternalLocal", async () => {
    const server = await serve([completion(JSON.stringify(PLAN))]);
    const model = createOpenAIChatModel({ baseURL: server.baseURL, model: "m", apiKey: KEY });
    const context = "export function cartTotal() { /* SECRET_INTERNAL_CODE */ }";
    await createModelPlanner(model).plan({ question: Q, context, signal: signal() });
    await createModelPlanner(model, { keepInternalLocal: true }).plan({ question: Q, context, signal: signal() });
    assert.ok(server.requests[0].body.messages[1].content.includes("SECRET_INTERNAL_CODE"));
    assert.ok(!server.requests[1].body.messages[1].content.includes("SECRET_INTERNAL_CODE"));
    assert.ok(server.requests[1].body.messages[1].content.includes(Q));
  });

  const failures: [string, () => Promise<string>, string][] = [
    ["connection refused", closedPortURL, "connection-refused"],
    ["HTTP 401", async () => (await serve([apiError(401, "nope")])).baseURL, "auth"],
    ["HTTP 500", async () => (await serve([apiError(500, "boom")])).baseURL, "server-error"],
    ["truncated", async () => (await serve([completion('{"draft":"Keep', { finishReason: "length" })])).baseURL, "truncated"],
    ["invalid JSON", async () => (await serve([completion("I think Zustand.")])).baseURL, "invalid-json"],
    ["schema-invalid", async () => (await serve([completion('{"entities":"zustand"}')])).baseURL, "schema-invalid"],
  ];
  for (const [name, baseURL, kind] of failures) {
    it(`${name} → the rules plan with a "${kind}" fallback, never a throw`, async () => {
      const planner = createModelPlanner(createOpenAIChatModel({ baseURL: await baseURL(), model: "m", apiKey: KEY, maxRetries: 0 }));
      const res = await planner.plan({ question: Q, context: "const cart = useCartStore();", signal: signal() });
      assert.deepEqual(res.plan, buildRulesPlan(Q, "const cart = useCartStore();"));
      assert.equal(res.fallback?.kind, kind, res.fallback?.detail);
      assert.ok(!res.fallback!.detail.includes(KEY));
      assert.equal(res.calls?.length, 1);
      assert.ok(res.calls![0].outcome.startsWith(`${kind}: `));
    });
  }

  it("cancellation throws", async () => {
    const server = await serve([{ ...completion(JSON.stringify(PLAN)), delayMs: 1000 }]);
    const planner = createModelPlanner(createOpenAIChatModel({ baseURL: server.baseURL, model: "m", apiKey: KEY }));
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 50);
    await assert.rejects(planner.plan({ question: Q, signal: ac.signal }), /aborted/);
  });

  it("deriveKeywords: model keywords, then entities, then relation ends; content words only, deduplicated, bounded", () => {
    const kw = deriveKeywords({ draft: "x", entities: ["The Zustand store", "zustand"], relations: [{ subject: "pino", relation: "is faster than", object: "winston" }], keywords: ["Redux Toolkit"] }, ["redux"], 5);
    assert.deepEqual(kw, ["toolkit", "zustand", "store", "pino", "winston"]);
    const many = deriveKeywords({ draft: "x", entities: Array.from({ length: 50 }, (_, i) => `entity${i}x`), relations: [], keywords: [] });
    assert.equal(many.length, 24);
  });
});
