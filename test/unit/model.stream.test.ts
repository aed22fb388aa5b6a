// The streaming ChatModel adapter the VS Code extension uses for `vscode.lm`: system prompt folding, timeout,
// cancellation, provider error classification, token counts — and the synthesizer working through it.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { createStreamingChatModel, type StreamMessage, type TextStreamSource } from "../../src/core/model/streamAdapter";
import { ModelError } from "../../src/core/model/errors";
import { createModelSynthesizer } from "../../src/core/model/synthesizer";
import { OptionPickerSchema } from "../../src/core/schemas";
import { LOGGING_Q, goodPickerJson, loggingEvidence, okStages } from "../helpers/fakeOpenAI";

async function* fragments(parts: string[], delayMs = 0, signal?: AbortSignal): AsyncIterable<string> {
  for (const p of parts) {
    if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
    if (signal?.aborted) return;
    yield p;
  }
}

const req = (signal = new AbortController().signal) => ({ system: "SYS", user: "USER", maxTokens: 50, signal });

describe("createStreamingChatModel", () => {
  it("joins the fragments, folds the system prompt into the user turn, counts tokens", async () => {
    let seen: StreamMessage[] = [];
    const model = createStreamingChatModel({
      id: "copilot/gpt-4o",
      endpointHost: "vscode.lm (copilot)",
      send: async (messages) => {
        seen = messages;
        return fragments(['{"a":', '"b"}']);
      },
      countTokens: async (t) => Math.ceil(t.length / 4),
    });
    const res = await model.complete(req());
    assert.equal(res.text, '{"a":"b"}');
    assert.equal(res.finishReason, "stop");
    assert.deepEqual(seen.map((m) => m.role), ["user"]);
    assert.match(seen[0].content, /^SYS\n\n---\n\nUSER$/);
    assert.deepEqual(res.usage, { prompt_tokens: Math.ceil("SYS\n\n---\n\nUSER".length / 4), completion_tokens: 3 });
    assert.equal(model.endpointHost, "vscode.lm (copilot)");
  });

  it("keeps a system message when the provider has that role", async () => {
    let seen: StreamMessage[] = [];
    const model = createStreamingChatModel({ id: "m", supportsSystemRole: true, send: async (m) => ((seen = m), fragments(["x"])) });
    await model.complete(req());
    assert.deepEqual(seen.map((m) => m.role), ["system", "user"]);
  });

  it("times out a slow stream", async () => {
    const model = createStreamingChatModel({ id: "m", timeoutMs: 60, send: async (_m, o) => fragments(["a", "b", "c"], 50, o.signal) });
    await assert.rejects(model.complete(req()), (e: unknown) => e instanceof ModelError && e.kind === "timeout");
  });

  it("cancellation → aborted", async () => {
    const ac = new AbortController();
    const model = createStreamingChatModel({ id: "m", send: async (_m, o) => fragments(["a", "b", "c"], 40, o.signal) });
    setTimeout(() => ac.abort(), 50);
    await assert.rejects(model.complete(req(ac.signal)), (e: unknown) => e instanceof ModelError && e.kind === "aborted" && e.name === "AbortError");
  });

  it("provider errors go through classify", async () => {
    const source: TextStreamSource = {
      id: "m",
      send: async () => {
        throw Object.assign(new Error("no consent"), { code: "NoPermissions" });
      },
      classify: (err) => new ModelError((err as { code?: string }).code === "NoPermissions" ? "auth" : "http-error", "the user has not allowed this extension to use the model"),
    };
    await assert.rejects(createStreamingChatModel(source).complete(req()), (e: unknown) => e instanceof ModelError && e.kind === "auth");
  });

  it("drives the model synthesizer", async () => {
    const answer = goodPickerJson({ pro: ["ev-adr-pino"], con: ["ev-agents-logging"], ext: ["ev-web-winston"] });
    const model = createStreamingChatModel({ id: "copilot/gpt-4o", endpointHost: "vscode.lm", send: async () => fragments([answer.slice(0, 50), answer.slice(50)]) });
    const out = await createModelSynthesizer(model).synthesize({
      question: LOGGING_Q,
      classification: { class: "open-question", confidence: 1, reasons: [] },
      evidence: loggingEvidence(),
      stages: okStages(),
      configVersion: "x",
      signal: new AbortController().signal,
    });
    assert.equal(out.info.mode, "model");
    assert.equal(out.info.endpoint_host, "vscode.lm");
    OptionPickerSchema.parse({ ...out.draft, evidence_ref: "e", receipt_ref: "r" });
  });
});

describe("createStreamingChatModel with a provider that ignores cancellation", () => {
  it("still times out", async () => {
    const never: AsyncIterable<string> = { [Symbol.asyncIterator]: () => ({ next: () => new Promise<IteratorResult<string>>(() => {}) }) };
    const model = createStreamingChatModel({ id: "m", timeoutMs: 80, send: async () => never });
    const t = performance.now();
    await assert.rejects(model.complete(req()), (e: unknown) => e instanceof ModelError && e.kind === "timeout");
    assert.ok(performance.now() - t < 1000);
  });
});
