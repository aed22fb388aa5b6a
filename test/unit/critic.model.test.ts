// The model Critic against the fake OpenAI-compatible server on 127.0.0.1, inside the real pipeline on real git
// repositories: off by default (no critic call), on it makes one adversarial call citing only the ids it was given,
// a blocking objection gets one revision round when a call is left (at most 3 model calls in all), and a malformed
// answer, an unknown id or an empty list is a fallback {kind, detail} on the critic stage, never a crash.
import { describe, it, after } from "node:test";
import assert from "node:assert/strict";
import { createModelStack, createOpenAIChatModel, describeEgress } from "../../src/core/model";
import { deliberate, type DeliberateOutcome } from "../../src/core/pipeline";
import { generateSigningKey, verifyReceiptSignature } from "../../src/core/receipts/signing";
import { ReceiptSchema } from "../../src/core/schemas";
import { completion, sentEvidenceIds, startFakeOpenAI, type FakeOpenAI, type RecordedRequest } from "../helpers/fakeOpenAI";
import { createGitRepo } from "../helpers/gitRepo";

const signingKey = generateSigningKey();
const QUESTION = "Should we use moment or date-fns for date handling?";
const RECORD =
  "# 1. Use date-fns for date handling\n\nStatus: accepted\n\n## Context\n\nWe format and parse dates in many places.\n\n## Decision\n\nWe will use date-fns for all date handling.\n";

function repoUsing(library: string): string {
  const files: Record<string, string> = {
    "docs/adr/0001-date-library.md": RECORD,
    "package.json": `{\n  "name": "app",\n  "dependencies": {\n    "${library}": "^3.0.0"\n  }\n}\n`,
  };
  for (let i = 0; i < 5; i++) files[`src/f${i}.ts`] = `import lib from "${library}";\nexport const d${i} = lib;\n`;
  return createGitRepo([{ message: "init", files }]);
}

type Purpose = "plan" | "synthesis" | "critic" | "revision" | "unknown";

function purpose(req: RecordedRequest): Purpose {
  const system: string = req.body?.messages?.[0]?.content ?? "";
  const user: string = req.body?.messages?.[1]?.content ?? "";
  if (/You plan a search/.test(system)) return "plan";
  if (/Critic of Deliberative Search/.test(system)) return "critic";
  if (/synthesis step of Deliberative Search/.test(system)) return /A reviewer raised these objections/.test(user) ? "revision" : "synthesis";
  return "unknown";
}

const PLAN = { draft: "Use date-fns.", entities: ["date-fns", "moment"], relations: [], keywords: ["date-fns", "moment", "dates"] };

function answer(ids: string[], confidence = "high") {
  return completion(
    JSON.stringify({
      options: [
        { id: "opt-date-fns", title: "date-fns", summary: "Use date-fns, as the record decided.", supports: ids.slice(0, 1), dissent: [], tradeoffs: ["+ Tree-shakable."], cost: "low", risk: "low" },
        { id: "opt-moment", title: "moment", summary: "Keep moment.", supports: [], dissent: [], tradeoffs: ["- Large bundle."], cost: "low", risk: "med" },
      ],
      recommendation: { option_id: "opt-date-fns", rationale: "ADR 1 chose date-fns.", confidence },
    }),
  );
}

/** A model whose critic answer is `critic(givenIds)`. */
function modelWith(critic: (given: string[]) => unknown) {
  return (req: RecordedRequest) => {
    const p = purpose(req);
    if (p === "plan") return completion(JSON.stringify(PLAN));
    if (p === "critic") {
      const reply = critic(sentEvidenceIds(req));
      return completion(typeof reply === "string" ? reply : JSON.stringify(reply));
    }
    return answer(sentEvidenceIds(req), p === "revision" ? "med" : "high");
  };
}

const concernCitingFirst = (given: string[]) => ({ objections: [{ severity: "concern", text: "The record never weighs bundle size.", citations: given.slice(0, 1) }] });

describe("model critic (fake OpenAI server)", () => {
  const servers: FakeOpenAI[] = [];
  after(async () => {
    await Promise.all(servers.map((s) => s.close()));
  });
  async function run(repo: string, script: (req: RecordedRequest) => ReturnType<typeof completion>, opts: { critic: boolean; plan: boolean }) {
    const server = await startFakeOpenAI(script);
    servers.push(server);
    const stack = createModelStack(createOpenAIChatModel({ baseURL: server.baseURL, model: "fake-critic-7b", apiKey: "sk-test-critic", maxRetries: 0 }), { plan: opts.plan, critic: opts.critic });
    const out: DeliberateOutcome = await deliberate({ repo, question: QUESTION, signingKey, useCache: false, writeReceipt: false, ...stack });
    assert.equal(out.kind, "deliberated");
    if (out.kind !== "deliberated") throw new Error("abstained");
    return { out, server, purposes: server.requests.map(purpose) };
  }

  it("off by default: no critic call", async () => {
    const { out, purposes } = await run(repoUsing("date-fns"), modelWith(concernCitingFirst), { critic: false, plan: false });
    assert.deepEqual(purposes, ["synthesis"]);
    assert.ok(!(out.payload.objections ?? []).some((o) => o.text.startsWith("Model critic:")));
  });

  it("on, no blocking objection: two calls (synthesis, critic); the objection cites only given ids", async () => {
    const { out, server, purposes } = await run(repoUsing("date-fns"), modelWith(concernCitingFirst), { critic: true, plan: false });
    assert.deepEqual(purposes, ["synthesis", "critic"]);
    const criticReq = server.requests[1];
    const given = new Set(sentEvidenceIds(criticReq));
    const model = out.payload.objections!.filter((o) => o.text.startsWith("Model critic:"));
    assert.equal(model.length, 1);
    assert.equal(model[0].severity, "concern");
    assert.ok(model[0].citations.length > 0 && model[0].citations.every((id) => given.has(id)));
    assert.deepEqual(out.receipt.synthesis.calls?.map((c) => c.purpose), ["synthesis", "critic"]);
    assert.deepEqual(verifyReceiptSignature(out.receipt), { ok: true });
  });

  it("on, with a blocking objection and a call left: three calls (synthesis, critic, revision)", async () => {
    // The rules Critic objects (the code uses moment); the model critic adds its own blocking objection.
    const blocking = (given: string[]) => ({ objections: [{ severity: "blocking", text: "The code imports moment everywhere.", citations: given.slice(0, 2) }] });
    const { out, server, purposes } = await run(repoUsing("moment"), modelWith(blocking), { critic: true, plan: false });
    assert.deepEqual(purposes, ["synthesis", "critic", "revision"]);
    const revisionUser: string = server.requests[2].body.messages[1].content;
    assert.match(revisionUser, /Code disagrees/);
    assert.match(revisionUser, /The code imports moment everywhere/);
    assert.deepEqual(out.receipt.synthesis.calls?.map((c) => c.purpose), ["synthesis", "critic", "revision"]);
    // The revised draft is criticised again by the rules; the model's first-draft objection stays as a concern.
    const objections = out.payload.objections!;
    assert.ok(objections.some((o) => o.severity === "blocking" && o.text.startsWith("Code disagrees")));
    assert.ok(objections.some((o) => o.severity === "concern" && /raised on the first draft/.test(o.text)));
    assert.ok(ReceiptSchema.safeParse(out.receipt).success);
  });

  it("with planning on, plan + synthesis + critic use the three calls: no revision", async () => {
    const blocking = (given: string[]) => ({ objections: [{ severity: "blocking", text: "The code imports moment.", citations: given.slice(0, 1) }] });
    const { purposes } = await run(repoUsing("moment"), modelWith(blocking), { critic: true, plan: true });
    assert.deepEqual(purposes, ["plan", "synthesis", "critic"]);
  });

  for (const [label, reply, kind] of [
    ["an unknown evidence id", () => ({ objections: [{ severity: "blocking", text: "Made up.", citations: ["ev-notgiven000"] }] }), "unknown-citations"],
    ["malformed JSON", () => "objections: none, really", "invalid-json"],
    ["an empty list", () => ({ objections: [] }), "uncited"],
  ] as const) {
    it(`${label} is a fallback on the critic stage, not an objection`, async () => {
      const { out, purposes } = await run(repoUsing("date-fns"), modelWith(reply), { critic: true, plan: false });
      assert.deepEqual(purposes, ["synthesis", "critic"]);
      assert.equal(out.receipt.stages.critic.fallback?.kind, kind);
      assert.match(out.receipt.stages.critic.reason ?? "", /model critic not used/);
      assert.ok(!(out.payload.objections ?? []).some((o) => o.text.startsWith("Model critic:")));
      assert.equal(out.payload.recommendation.option_id, "opt-date-fns");
    });
  }
});

describe("model critic in the egress preview", () => {
  const evidence = [
    { id: "ev-000000000001", kind: "internal" as const, expert: "docs", source_type: "adr" as const, path_or_url: "docs/adr/0001-dates.md", line_range: { start: 1, end: 5 }, precision_class: "section" as const, excerpt: "We will use date-fns.", score: 1, rank: 1, fused_score: 1, experts: ["docs"] },
  ];
  const model = { id: "m", endpointHost: "127.0.0.1:9" };
  it("shows the critic call (and the revision it may bring) only when the critic is on", () => {
    const off = describeEgress({ question: QUESTION, evidence, model, plan: false });
    assert.doesNotMatch(off.text, /critic/i);
    const on = describeEgress({ question: QUESTION, evidence, model, plan: false, critic: true });
    assert.match(on.text, /Call 2, critic \(the model Critic is on\)/);
    assert.match(on.text, /one revision call/);
    assert.ok(on.critic && on.approxTokens === on.synthesis.approxTokens + on.critic.approxTokens);
    const local = describeEgress({ question: QUESTION, evidence, model, plan: false, critic: true, keepInternalLocal: true });
    assert.match(local.text, /The model Critic is on but would not be called/);
    assert.equal(local.critic, undefined);
  });
});
