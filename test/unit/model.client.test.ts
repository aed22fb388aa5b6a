// The OpenAI-compatible ChatModel against a real HTTP server on 127.0.0.1: success, every transport and HTTP
// failure class, bounded retries honouring Retry-After, the json_schema → JSON-in-text downgrade, and the API key
// never appearing in an error.
import { describe, it, after } from "node:test";
import assert from "node:assert/strict";
import { createOpenAIChatModel, retryAfterMs, type ChatRequest } from "../../src/core/model/client";
import { ModelError, scrubSecrets } from "../../src/core/model/errors";
import { apiError, closedPortURL, completion, startFakeOpenAI, type FakeOpenAI } from "../helpers/fakeOpenAI";

const KEY = "sk-test-SECRET-0123456789abcdefXYZ";
const SCHEMA = { name: "thing", schema: { type: "object", additionalProperties: false, required: ["a"], properties: { a: { type: "string" } } } };

function request(extra: Partial<ChatRequest> = {}): ChatRequest {
  return { system: "sys", user: "user", maxTokens: 100, signal: new AbortController().signal, jsonSchema: SCHEMA, ...extra };
}

async function failure(p: Promise<unknown>): Promise<ModelError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof ModelError, `expected a ModelError, got ${String(err)}`);
    assert.ok(!err.message.includes(KEY), `key leaked in: ${err.message}`);
    assert.ok(!String(err.stack).includes(KEY), "key leaked in the stack");
    return err;
  }
  assert.fail("expected the call to fail");
}

describe("createOpenAIChatModel against a fake OpenAI server", () => {
  const servers: FakeOpenAI[] = [];
  const start = async (...args: Parameters<typeof startFakeOpenAI>) => {
    const s = await startFakeOpenAI(...args);
    servers.push(s);
    return s;
  };
  after(async () => {
    await Promise.all(servers.map((s) => s.close()));
  });

  it("sends model, messages, temperature 0, seed, max_tokens, json_schema response_format and the bearer key; returns text, usage and timing", async () => {
    const server = await start([completion('{"a":"b"}', { usage: { prompt_tokens: 12, completion_tokens: 5 } })]);
    const model = createOpenAIChatModel({ baseURL: server.baseURL, model: "pinned-model-1", apiKey: KEY, seed: 7 });
    assert.equal(model.id, "pinned-model-1");
    assert.equal(model.endpointHost, server.host);
    const res = await model.complete(request());
    assert.equal(res.text, '{"a":"b"}');
    assert.equal(res.finishReason, "stop");
    assert.deepEqual(res.usage, { prompt_tokens: 12, completion_tokens: 5 });
    assert.ok(res.ms >= 0);
    const body = server.requests[0].body;
    assert.equal(body.model, "pinned-model-1");
    assert.equal(body.temperature, 0);
    assert.equal(body.seed, 7);
    assert.equal(body.max_tokens, 100);
    assert.deepEqual(body.messages.map((m: { role: string }) => m.role), ["system", "user"]);
    assert.equal(body.response_format.type, "json_schema");
    assert.equal(body.response_format.json_schema.name, "thing");
    assert.equal(server.requests[0].headers.authorization, `Bearer ${KEY}`);
  });

  it("connection refused (closed port) → connection-refused, no retries", async () => {
    const model = createOpenAIChatModel({ baseURL: await closedPortURL(), model: "m", apiKey: KEY });
    const err = await failure(model.complete(request()));
    assert.equal(err.kind, "connection-refused");
    assert.match(err.message, /^connection-refused: nothing is listening at 127\.0\.0\.1:\d+/);
  });

  it("a server slower than timeoutMs → timeout", async () => {
    const server = await start([{ ...completion("{}"), delayMs: 1500 }]);
    const model = createOpenAIChatModel({ baseURL: server.baseURL, model: "m", apiKey: KEY, timeoutMs: 150 });
    const t = performance.now();
    const err = await failure(model.complete(request()));
    assert.equal(err.kind, "timeout");
    assert.match(err.message, /within 150 ms/);
    assert.ok(performance.now() - t < 1200, "gave up at the timeout, did not wait for the server");
    assert.equal(server.chatCalls(), 1, "timeouts are not retried");
  });

  for (const status of [401, 403]) {
    it(`HTTP ${status} → auth with "check your API key / base URL", the key scrubbed from the server's message`, async () => {
      // The server echoes the bearer token, as some proxies do.
      const server = await start((req) => apiError(status, `Incorrect API key provided: ${req.headers.authorization} (${KEY})`));
      const model = createOpenAIChatModel({ baseURL: server.baseURL, model: "m", apiKey: KEY, maxRetries: 3 });
      const err = await failure(model.complete(request()));
      assert.equal(err.kind, "auth");
      assert.match(err.message, new RegExp(`^auth: HTTP ${status} from 127\\.0\\.0\\.1:\\d+: check your API key / base URL`));
      assert.match(err.message, /\[redacted\]/);
      assert.equal(server.chatCalls(), 1, "auth failures are not retried");
    });
  }

  it("429 with Retry-After: 1 then success → one retry, and it waited about a second", async () => {
    const server = await start([apiError(429, "slow down", { "retry-after": "1" }), completion('{"a":"ok"}')]);
    const model = createOpenAIChatModel({ baseURL: server.baseURL, model: "m", apiKey: KEY, maxRetries: 2, retryBaseMs: 5 });
    const res = await model.complete(request());
    assert.equal(res.text, '{"a":"ok"}');
    assert.equal(server.chatCalls(), 2);
    assert.equal(res.attempts, 2);
    const gap = server.requests[1].at - server.requests[0].at;
    assert.ok(gap >= 900, `honoured Retry-After (waited ${Math.round(gap)} ms)`);
    assert.ok(gap < 3000, `but not much longer (waited ${Math.round(gap)} ms)`);
    assert.ok(res.notes?.some((n) => /HTTP 429 · waited 1000 ms \(Retry-After\) · retry 1\/2/.test(n)), String(res.notes));
  });

  it("429 forever → rate-limited after exactly 1 + maxRetries attempts", async () => {
    const server = await start([apiError(429, "quota", { "retry-after": "0" })]);
    const model = createOpenAIChatModel({ baseURL: server.baseURL, model: "m", apiKey: KEY, maxRetries: 2 });
    const err = await failure(model.complete(request()));
    assert.equal(err.kind, "rate-limited");
    assert.equal(server.chatCalls(), 3);
    assert.match(err.message, /after 3 attempts/);
  });

  it("429 asking for longer than maxRetryDelayMs → rate-limited at once, without waiting", async () => {
    const server = await start([apiError(429, "come back in an hour", { "retry-after": "3600" })]);
    const model = createOpenAIChatModel({ baseURL: server.baseURL, model: "m", apiKey: KEY, maxRetries: 2, maxRetryDelayMs: 2000 });
    const t = performance.now();
    const err = await failure(model.complete(request()));
    assert.equal(err.kind, "rate-limited");
    assert.match(err.message, /asked to wait 3600 s, more than the 2 s cap/);
    assert.equal(server.chatCalls(), 1);
    assert.ok(performance.now() - t < 1000);
  });

  it("maxRetries is capped at 5 whatever the caller asks", async () => {
    const server = await start([apiError(503, "busy", { "retry-after-ms": "1" })]);
    const model = createOpenAIChatModel({ baseURL: server.baseURL, model: "m", apiKey: KEY, maxRetries: 50 });
    const err = await failure(model.complete(request()));
    assert.equal(err.kind, "server-error");
    assert.equal(server.chatCalls(), 6);
  });

  it("HTTP 500 → server-error after bounded retries with backoff", async () => {
    const server = await start([apiError(500, "boom")]);
    const model = createOpenAIChatModel({ baseURL: server.baseURL, model: "m", apiKey: KEY, maxRetries: 1, retryBaseMs: 20 });
    const err = await failure(model.complete(request()));
    assert.equal(err.kind, "server-error");
    assert.match(err.message, /HTTP 500 .*boom/);
    assert.equal(server.chatCalls(), 2);
    assert.ok(server.requests[1].at - server.requests[0].at >= 10, "backed off before retrying");
  });

  it("HTTP 404 → http-error with a model/base-URL hint", async () => {
    const server = await start([apiError(404, "model 'nope' not found")]);
    const model = createOpenAIChatModel({ baseURL: server.baseURL, model: "nope", apiKey: KEY });
    const err = await failure(model.complete(request()));
    assert.equal(err.kind, "http-error");
    assert.match(err.message, /HTTP 404 .*check the model name and base URL/);
  });

  it("an endpoint that rejects response_format (400) gets JSON-in-text, once, and the model remembers", async () => {
    const server = await start((req) =>
      req.body.response_format ? apiError(400, "response_format json_schema is not supported") : completion('{"a":"plain"}'),
    );
    const model = createOpenAIChatModel({ baseURL: server.baseURL, model: "m", apiKey: KEY });
    const first = await model.complete(request());
    assert.equal(first.text, '{"a":"plain"}');
    assert.ok(first.notes?.some((n) => /json_schema rejected/.test(n)));
    assert.equal(server.chatCalls(), 2);
    const second = await model.complete(request());
    assert.equal(second.text, '{"a":"plain"}');
    assert.equal(server.chatCalls(), 3, "the second call went straight to JSON-in-text");
    assert.equal(server.requests[2].body.response_format, undefined);
  });

  it("structuredOutput: off never sends response_format; a 400 without it is an http-error", async () => {
    const server = await start([apiError(400, "bad request")]);
    const model = createOpenAIChatModel({ baseURL: server.baseURL, model: "m", apiKey: KEY, structuredOutput: "off" });
    const err = await failure(model.complete(request()));
    assert.equal(err.kind, "http-error");
    assert.equal(server.requests[0].body.response_format, undefined);
    assert.equal(server.chatCalls(), 1);
  });

  it("a cancelled call → aborted, promptly, also while waiting to retry", async () => {
    const server = await start([apiError(429, "wait", { "retry-after": "5" })]);
    const model = createOpenAIChatModel({ baseURL: server.baseURL, model: "m", apiKey: KEY, maxRetries: 2 });
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 200);
    const t = performance.now();
    const err = await failure(model.complete(request({ signal: ac.signal })));
    assert.equal(err.kind, "aborted");
    assert.ok(performance.now() - t < 2000);
  });

  it("works without a key (local servers) and never sends OPENAI_ORG_ID/PROJECT from the environment", async () => {
    const saved = { org: process.env.OPENAI_ORG_ID, project: process.env.OPENAI_PROJECT_ID };
    process.env.OPENAI_ORG_ID = "org-should-not-leak";
    process.env.OPENAI_PROJECT_ID = "proj-should-not-leak";
    try {
      const server = await start([completion("{}")]);
      const model = createOpenAIChatModel({ baseURL: server.baseURL, model: "m" });
      await model.complete(request());
      const h = server.requests[0].headers;
      assert.equal(h["openai-organization"], undefined);
      assert.equal(h["openai-project"], undefined);
    } finally {
      if (saved.org === undefined) delete process.env.OPENAI_ORG_ID;
      else process.env.OPENAI_ORG_ID = saved.org;
      if (saved.project === undefined) delete process.env.OPENAI_PROJECT_ID;
      else process.env.OPENAI_PROJECT_ID = saved.project;
    }
  });
});

describe("retry-after parsing and scrubbing", () => {
  it("reads retry-after-ms, seconds and HTTP dates", () => {
    assert.equal(retryAfterMs(new Headers({ "retry-after-ms": "250" })), 250);
    assert.equal(retryAfterMs(new Headers({ "retry-after": "2" })), 2000);
    const date = new Date(Date.now() + 3000).toUTCString();
    const ms = retryAfterMs(new Headers({ "retry-after": date }))!;
    assert.ok(ms > 1000 && ms <= 3000, String(ms));
    assert.equal(retryAfterMs(new Headers({})), undefined);
  });

  it("scrubs the key, bearer tokens and sk- keys", () => {
    const s = scrubSecrets(`key=${KEY} Authorization: Bearer abc.def sk-proj-abcdefghijk`, [KEY]);
    assert.ok(!s.includes(KEY));
    assert.ok(!s.includes("abc.def"));
    assert.ok(!s.includes("sk-proj-abcdefghijk"));
  });
});
