// The per-deliberation circuit breaker against a real OpenAI-compatible fake on 127.0.0.1: one budget of 3 HTTP
// attempts shared by every call, no call after one failed at the endpoint, and no circuit opened by an answer that
// arrived but was unusable.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { withCircuitBreaker } from "../../src/core/model/breaker";
import { createOpenAIChatModel, type ChatRequest } from "../../src/core/model/client";
import { ModelError } from "../../src/core/model/errors";
import { apiError, completion, startFakeOpenAI, type FakeReply } from "../helpers/fakeOpenAI";

const req = (): ChatRequest => ({ system: "s", user: "u", maxTokens: 50, signal: new AbortController().signal });
const retryNow = { "retry-after": "0" };

async function withFake<T>(script: FakeReply[], fn: (baseURL: string, calls: () => number) => Promise<T>): Promise<T> {
  const fake = await startFakeOpenAI(script);
  try {
    return await fn(fake.baseURL, () => fake.chatCalls());
  } finally {
    await fake.close();
  }
}

describe("withCircuitBreaker", () => {
  it("after a call failed through its retries, the next call fails at once with the same kind and no request", async () => {
    await withFake([apiError(429, "slow down", retryNow)], async (baseURL, calls) => {
      const model = withCircuitBreaker(createOpenAIChatModel({ baseURL, model: "m", maxRetries: 5, retryBaseMs: 1 }));
      const first = await model.complete(req()).catch((e: unknown) => e as ModelError);
      assert.ok(first instanceof ModelError);
      assert.equal(first.kind, "rate-limited");
      assert.equal(calls(), 3, "the per-call retries are capped by the deliberation's budget of 3");
      const second = await model.complete(req()).catch((e: unknown) => e as ModelError);
      assert.ok(second instanceof ModelError);
      assert.equal(second.kind, "rate-limited");
      assert.equal(second.extra.notCalled, true);
      assert.match(second.message, /circuit open/);
      assert.equal(calls(), 3, "no further request");
    });
  });

  it("the attempts of earlier successful calls count: a plan that needed 2 retries leaves synthesis 1 attempt", async () => {
    await withFake([apiError(503, "busy", retryNow), apiError(503, "busy", retryNow), completion("{}"), apiError(503, "busy", retryNow)], async (baseURL, calls) => {
      const model = withCircuitBreaker(createOpenAIChatModel({ baseURL, model: "m", maxRetries: 2, retryBaseMs: 1 }));
      const plan = await model.complete(req());
      assert.equal(plan.attempts, 3);
      const synth = await model.complete(req()).catch((e: unknown) => e as ModelError);
      assert.ok(synth instanceof ModelError);
      assert.equal(synth.kind, "attempt-budget");
      assert.equal(synth.extra.notCalled, true);
      assert.equal(calls(), 3);
    });
  });

  it("an unusable answer does not open the circuit; a failure on the second call uses what is left of the budget", async () => {
    await withFake([completion("not json", { finishReason: "length" }), apiError(500, "boom", retryNow)], async (baseURL, calls) => {
      const model = withCircuitBreaker(createOpenAIChatModel({ baseURL, model: "m", maxRetries: 5, retryBaseMs: 1 }));
      const plan = await model.complete(req());
      assert.equal(plan.finishReason, "length", "an answer arrived (truncated): the endpoint works");
      const synth = await model.complete(req()).catch((e: unknown) => e as ModelError);
      assert.ok(synth instanceof ModelError);
      assert.equal(synth.kind, "server-error");
      assert.match(synth.message, /after 2 attempts/);
      assert.equal(calls(), 3, "1 + 2 attempts in all");
      assert.equal(model.breaker.attemptsUsed, 3);
    });
  });
});
