// CLI model settings (flags, environment, --offline) and the egress preview.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { describeEgress } from "../../src/core/model/egress";
import { ModelConfigError, describeModelConfig, modelOptionsFromCli } from "../../src/core/model/fromEnv";
import { buildSynthesisPrompt } from "../../src/core/model/prompt";
import { ev, LOGGING_Q, loggingEvidence } from "../helpers/fakeOpenAI";

const KEY = "sk-test-CONFIG-0123456789abcdef";

describe("modelOptionsFromCli", () => {
  it("defaults to provider none: no flags, no env — and a key alone never turns a model on", () => {
    assert.deepEqual(modelOptionsFromCli({}, {}), { provider: "none" });
    assert.deepEqual(modelOptionsFromCli({}, { OPENAI_API_KEY: KEY, DELIBERATIVE_API_KEY: KEY }), { provider: "none" });
  });

  it("a base URL or model (flag or env) selects openai; flags win over env", () => {
    const c = modelOptionsFromCli({ baseUrl: "http://127.0.0.1:11434/v1", model: "llama3.1:8b" }, { DELIBERATIVE_MODEL: "other" });
    assert.equal(c.provider, "openai");
    if (c.provider !== "openai") return;
    assert.equal(c.options.baseURL, "http://127.0.0.1:11434/v1");
    assert.equal(c.options.model, "llama3.1:8b");
    assert.equal(c.options.temperature, 0);
    assert.equal(c.host, "127.0.0.1:11434");
    assert.equal(c.options.apiKey, undefined);
    const e = modelOptionsFromCli({}, { DELIBERATIVE_BASE_URL: "http://localhost:8080/v1", DELIBERATIVE_MODEL: "qwen", DELIBERATIVE_TIMEOUT_MS: "5000" });
    assert.equal(e.provider, "openai");
    if (e.provider === "openai") assert.equal(e.options.timeoutMs, 5000);
  });

  it("openai needs a model; the base URL defaults to api.openai.com, which needs a key", () => {
    assert.throws(() => modelOptionsFromCli({ provider: "openai" }, { OPENAI_API_KEY: KEY }), /needs --model NAME/);
    assert.throws(() => modelOptionsFromCli({ model: "gpt-4.1-mini" }, {}), (e: unknown) => e instanceof ModelConfigError && /api\.openai\.com needs an API key/.test(e.message));
    const c = modelOptionsFromCli({ model: "gpt-4.1-mini" }, { OPENAI_API_KEY: KEY });
    assert.equal(c.provider, "openai");
    if (c.provider !== "openai") return;
    assert.equal(c.options.baseURL, "https://api.openai.com/v1");
    assert.equal(c.options.apiKey, KEY);
    assert.equal(c.keySource, "OPENAI_API_KEY");
    assert.ok(!describeModelConfig(c).includes(KEY));
    assert.match(describeModelConfig(c), /gpt-4\.1-mini at api\.openai\.com \(key from OPENAI_API_KEY\)/);
  });

  it("DELIBERATIVE_API_KEY goes to any host; OPENAI_API_KEY is not sent to a third-party host", () => {
    const third = modelOptionsFromCli({ baseUrl: "https://llm.example.test/v1", model: "m" }, { OPENAI_API_KEY: KEY });
    assert.equal(third.provider, "openai");
    if (third.provider !== "openai") return;
    assert.equal(third.options.apiKey, undefined);
    assert.match(third.note!, /OPENAI_API_KEY is not sent to llm\.example\.test/);
    const own = modelOptionsFromCli({ baseUrl: "https://llm.example.test/v1", model: "m" }, { OPENAI_API_KEY: "x-other", DELIBERATIVE_API_KEY: KEY });
    assert.equal(own.provider === "openai" && own.options.apiKey, KEY);
    const local = modelOptionsFromCli({ baseUrl: "http://127.0.0.1:1234/v1", model: "m" }, { OPENAI_API_KEY: KEY });
    assert.equal(local.provider === "openai" && local.keySource, "OPENAI_API_KEY");
  });

  it("--offline forces provider none with a one-line note; --provider none is explicit", () => {
    const c = modelOptionsFromCli({ offline: true, baseUrl: "http://127.0.0.1:11434/v1", model: "m" }, {});
    assert.equal(c.provider, "none");
    assert.match(c.note!, /^--offline: .*no network/);
    assert.ok(!c.note!.includes("\n"));
    assert.deepEqual(modelOptionsFromCli({ offline: true }, {}), { provider: "none" });
    assert.deepEqual(modelOptionsFromCli({ provider: "none", model: "m" }, { DELIBERATIVE_BASE_URL: "http://x/v1" }), { provider: "none" });
  });

  it("rejects bad input with one-line messages that carry no secret", () => {
    assert.throws(() => modelOptionsFromCli({ provider: "anthropic" }, {}), /--provider must be "openai" or "none"/);
    assert.throws(() => modelOptionsFromCli({ baseUrl: "not a url", model: "m" }, {}), /not a valid URL/);
    assert.throws(() => modelOptionsFromCli({ baseUrl: "ftp://x/v1", model: "m" }, {}), /http or https/);
    assert.throws(
      () => modelOptionsFromCli({ baseUrl: `https://user:${KEY}@x.test/v1`, model: "m" }, {}),
      (e: unknown) => e instanceof ModelConfigError && !e.message.includes(KEY) && /must not contain credentials/.test(e.message),
    );
    assert.throws(() => modelOptionsFromCli({ baseUrl: "http://x/v1", model: "m", timeoutMs: -1 }, {}), /positive integer/);
  });
});

describe("describeEgress", () => {
  const model = { id: "gpt-4.1-mini", endpointHost: "api.openai.com" };

  it("lists the host, model, internal snippets by path:lines, external URLs and approximate tokens", () => {
    const s = describeEgress({ question: LOGGING_Q, evidence: loggingEvidence(), model, context: "a\nb\nc", contextLabel: "src/log.ts:3" });
    assert.equal(s.host, "api.openai.com");
    assert.deepEqual(s.synthesis.internal.map((i) => i.where), ["docs/decisions/20240312-use-pino-for-logging.md:1-24", "AGENTS.md:5-8"]);
    assert.deepEqual(s.synthesis.external.map((e) => e.url), ["https://github.com/winstonjs/winston#readme"]);
    assert.equal(s.plan?.contextSent, true);
    assert.ok(s.approxTokens > 100 && s.approxTokens < 3000, String(s.approxTokens));
    assert.match(s.text, /endpoint api\.openai\.com, model gpt-4\.1-mini/);
    assert.match(s.text, /Call 1, plan: the question and the editor context around src\/log\.ts:3 \(3 lines\)/);
    assert.match(s.text, /docs\/decisions\/20240312-use-pino-for-logging\.md:1-24/);
    assert.match(s.text, /https:\/\/github\.com\/winstonjs\/winston#readme/);
    assert.match(s.text, /Total ≈\d+ tokens to api\.openai\.com/);
  });

  it("matches exactly what the synthesis prompt would send", () => {
    const evidence = loggingEvidence();
    const s = describeEgress({ question: LOGGING_Q, evidence, model, plan: false });
    const prompt = buildSynthesisPrompt({ question: LOGGING_Q, evidence, candidates: [] });
    assert.deepEqual([...s.synthesis.internal.map((i) => i.id), ...s.synthesis.external.map((e) => e.id)].sort(), prompt.selection.sent.map((e) => e.id).sort());
    for (const e of prompt.selection.sent) assert.ok(prompt.user.includes(JSON.stringify(e.excerpt).slice(1, 40)));
  });

  it("keepInternalLocal: no internal snippet or context listed, and it says what stays local", () => {
    const s = describeEgress({ question: LOGGING_Q, evidence: loggingEvidence(), model, keepInternalLocal: true, context: "secret code" });
    assert.deepEqual(s.synthesis.internal, []);
    assert.equal(s.synthesis.withheldInternal, 2);
    assert.equal(s.plan?.contextSent, false);
    assert.ok(!s.text.includes("docs/decisions"));
    assert.match(s.text, /editor context is kept local/);
    assert.match(s.text, /Kept local \(keepInternalLocal\): 2 internal record\(s\)/);
  });

  it("keepInternalLocal without external evidence: says the synthesis call is not made", () => {
    const s = describeEgress({ question: LOGGING_Q, evidence: loggingEvidence().filter((e) => e.kind === "internal"), model, keepInternalLocal: true });
    assert.equal(s.synthesis.approxTokens, 0);
    assert.match(s.text, /synthesis: not made/);
  });

  it("reports what the token budget leaves out", () => {
    const many = Array.from({ length: 20 }, (_, i) => ev({ id: `ev-${i}`, path_or_url: `docs/${i}.md`, excerpt: "x".repeat(1000) }, i + 1));
    const s = describeEgress({ question: LOGGING_Q, evidence: many, model, evidenceTokenBudget: 1000 });
    assert.ok(s.synthesis.omittedForBudget > 0);
    assert.match(s.text, /over the 1000-token evidence budget/);
  });
});
