// Runs inside the VS Code extension host (see test/vscode/runTest.ts). A tiny harness instead of mocha: each test
// is an async function; the run rejects when any fails, which makes test-electron exit non-zero.
import * as assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import { recordPick } from "../../../src/core/receipts/store";
import { addAllowedSigner, publicKeyToLine } from "../../../src/core/receipts/trust";
import { generateSigningKey, verifyReceiptSignature } from "../../../src/core/receipts/signing";
import { PROTOCOL_VERSION } from "../../../src/shared/protocol";
import { parseWebviewMessage } from "../../../src/shared/protocolSchemas";
import { ModelError } from "../../../src/core/model";
import { readSettings } from "../../../src/vscode/config";
import { toModelSettings, type ModelSettings } from "../../../src/vscode/modelSettings";
import { CONSENT_STATE_KEY, ModelConsent } from "../../../src/vscode/consent";
import type { DeliberativeSearchApi } from "../../../src/vscode/extension";
import { registerAgentTests } from "./agent";
import { classifyLanguageModelError, pickLanguageModel, resolveChatModel } from "../../../src/vscode/models";

const EXTENSION_ID = "deliberative-search.deliberative-search";
const QUESTION = "should we use Redux or Zustand for the cart state?";

type Test = { name: string; fn: () => Promise<void> };
const tests: Test[] = [];
const test = (name: string, fn: () => Promise<void>) => tests.push({ name, fn });

function workspace(): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, "the test opens a workspace folder");
  return folder.uri.fsPath;
}

function receiptFiles(): string[] {
  const dir = join(workspace(), ".deliberations");
  return existsSync(dir) ? readdirSync(dir).filter((n) => n.endsWith(".json")).map((n) => join(dir, n)) : [];
}

async function waitFor<T>(what: string, fn: () => T | undefined | Promise<T | undefined>, ms = 20_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined && v !== false) return v as T;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function lensTitles(uri: vscode.Uri): Promise<string[]> {
  const lenses = (await vscode.commands.executeCommand<vscode.CodeLens[]>("vscode.executeCodeLensProvider", uri, 10)) ?? [];
  return lenses.map((l) => l.command?.title ?? "").filter(Boolean);
}

let api: DeliberativeSearchApi;
const orders = () => vscode.Uri.file(join(workspace(), "src", "orders.ts"));

test("the extension is installed, not active before use, and activates on its command", async () => {
  const ext = vscode.extensions.getExtension<DeliberativeSearchApi>(EXTENSION_ID);
  assert.ok(ext, `${EXTENSION_ID} is installed`);
  api = await ext.activate();
  const commands = await vscode.commands.getCommands(true);
  for (const id of ["deliberateOnSelection", "deliberateOnQuestion", "openReceipt", "verifyReceipts", "exportReceiptMarkdown", "setApiKey", "showLog", "previewEgress", "resetModelConsent"]) {
    assert.ok(commands.includes(`deliberativeSearch.${id}`), `command ${id} is registered`);
  }
});

test("the malformed-message guard rejects what the webview must never send", async () => {
  assert.equal(parseWebviewMessage({ type: "ready", protocol: PROTOCOL_VERSION }).ok, true);
  assert.equal(parseWebviewMessage({ type: "request", id: "r1", method: "pick", params: { optionId: "opt-a" } }).ok, true);
  assert.equal(parseWebviewMessage({ type: "request", method: "pick", params: { optionId: "opt-a" } }).ok, false, "a request without an id");
  assert.equal(parseWebviewMessage({ type: "request", id: "r1", method: "openCitation", params: { citationId: "c", extra: 1 } }).ok, false, "unknown keys");
  assert.equal(parseWebviewMessage({ type: "request", id: "r1", method: "runShell", params: {} }).ok, false, "unknown method");
  assert.equal(parseWebviewMessage("pick").ok, false);
});

test("an invalid setting falls back to its default", async () => {
  const cfg = vscode.workspace.getConfiguration("deliberativeSearch");
  await cfg.update("git.maxMs", "soon", vscode.ConfigurationTarget.Workspace);
  try {
    assert.equal(readSettings().gitMaxMs, 1200);
  } finally {
    await cfg.update("git.maxMs", undefined, vscode.ConfigurationTarget.Workspace);
  }
});

test("invalid model settings fall back to their defaults; valid ones are read", async () => {
  const cfg = vscode.workspace.getConfiguration("deliberativeSearch");
  const W = vscode.ConfigurationTarget.Workspace;
  try {
    await cfg.update("model.provider", "gpt", W);
    await cfg.update("model.temperature", 5, W);
    await cfg.update("model.planFirst", "yes", W);
    let s = readSettings();
    assert.equal(s.modelProvider, "none");
    assert.equal(s.modelTemperature, 0);
    assert.equal(s.modelPlanFirst, true);
    await cfg.update("model.provider", "vscode-lm", W);
    await cfg.update("model.name", "copilot/gpt-4o", W);
    await cfg.update("model.evidenceTokenBudget", 3000, W);
    s = readSettings();
    assert.equal(s.modelProvider, "vscode-lm");
    assert.equal(s.modelName, "copilot/gpt-4o");
    assert.equal(s.modelEvidenceTokenBudget, 3000);
  } finally {
    for (const key of ["model.provider", "model.temperature", "model.planFirst", "model.name", "model.evidenceTokenBudget"]) await cfg.update(key, undefined, W);
  }
});

test("offline treats any configured provider as none", async () => {
  const cfg = vscode.workspace.getConfiguration("deliberativeSearch");
  const W = vscode.ConfigurationTarget.Workspace;
  try {
    await cfg.update("offline", true, W);
    await cfg.update("model.provider", "openai", W);
    const m = toModelSettings(readSettings());
    assert.equal(m.provider, "none");
    assert.equal(m.offlineOverride, "openai");
  } finally {
    await cfg.update("offline", undefined, W);
    await cfg.update("model.provider", undefined, W);
  }
});

test("the external sources and the model endpoint are user settings only (machine scope)", async () => {
  const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
  const props = ext.packageJSON.contributes.configuration.properties as Record<string, { scope?: string }>;
  for (const key of ["external.docsUrls", "external.searxngUrl", "external.allowHosts", "model.baseUrl"]) {
    assert.equal(props[`deliberativeSearch.${key}`]?.scope, "machine", key);
  }
  const cfg = vscode.workspace.getConfiguration("deliberativeSearch");
  // A workspace (a cloned repository) cannot aim requests anywhere.
  await assert.rejects(Promise.resolve(cfg.update("external.searxngUrl", "http://10.0.0.1:8888", vscode.ConfigurationTarget.Workspace)));
  assert.equal(readSettings().externalSearxngUrl, "");
  const G = vscode.ConfigurationTarget.Global;
  try {
    await cfg.update("external.allowHosts", ["docs.internal.example:8443", "bad host/with spaces"], G);
    assert.deepEqual(readSettings().externalAllowHosts, [], "one invalid entry: the default, with a warning");
    await cfg.update("external.allowHosts", ["docs.internal.example:8443"], G);
    await cfg.update("external.docsUrls", ["https://nodejs.org/api/http.html"], G);
    const s = readSettings();
    assert.deepEqual(s.externalAllowHosts, ["docs.internal.example:8443"]);
    assert.deepEqual(s.externalDocsUrls, ["https://nodejs.org/api/http.html"]);
  } finally {
    await cfg.update("external.allowHosts", undefined, G);
    await cfg.update("external.docsUrls", undefined, G);
  }
});

test("keepInternalLocal: true at any level wins over a workspace false", async () => {
  const cfg = vscode.workspace.getConfiguration("deliberativeSearch");
  try {
    await cfg.update("model.keepInternalLocal", true, vscode.ConfigurationTarget.Global);
    await cfg.update("model.keepInternalLocal", false, vscode.ConfigurationTarget.Workspace);
    assert.equal(readSettings().modelKeepInternalLocal, true);
  } finally {
    await cfg.update("model.keepInternalLocal", undefined, vscode.ConfigurationTarget.Workspace);
    await cfg.update("model.keepInternalLocal", undefined, vscode.ConfigurationTarget.Global);
  }
  assert.equal(readSettings().modelKeepInternalLocal, false);
});

const MODEL_DEFAULTS: ModelSettings = {
  provider: "none",
  baseUrl: "https://api.openai.com/v1",
  name: "",
  timeoutMs: 5000,
  temperature: 0,
  planFirst: true,
  evidenceTokenBudget: 6000,
  keepInternalLocal: false,
  critic: false,
};

function fakeLm(partial: Partial<vscode.LanguageModelChat> & { reply?: string[]; fail?: unknown }): vscode.LanguageModelChat {
  const { reply = [], fail, ...rest } = partial;
  return {
    name: "Fake",
    id: "fake-id",
    vendor: "fakevendor",
    family: "fake-family",
    version: "1",
    maxInputTokens: 100_000,
    async sendRequest() {
      if (fail) throw fail;
      return {
        stream: (async function* () {})(),
        text: (async function* () {
          yield* reply;
        })(),
      };
    },
    async countTokens(text: string | vscode.LanguageModelChatMessage) {
      return Math.ceil(String(typeof text === "string" ? text : "").length / 4);
    },
    ...rest,
  } as vscode.LanguageModelChat;
}

test("provider selection: none, openai (needs a model name; an OpenAI host needs a key) and a usable endpoint", async () => {
  const noKey = { getApiKey: async () => undefined };
  assert.equal((await resolveChatModel(MODEL_DEFAULTS, noKey)).kind, "none");

  const unnamed = await resolveChatModel({ ...MODEL_DEFAULTS, provider: "openai" }, noKey);
  assert.equal(unnamed.kind, "unavailable");
  assert.equal(unnamed.kind === "unavailable" && unnamed.action, "openSettings");

  const keyless = await resolveChatModel({ ...MODEL_DEFAULTS, provider: "openai", name: "gpt-4.1-mini" }, noKey);
  assert.equal(keyless.kind, "unavailable");
  assert.equal(keyless.kind === "unavailable" && keyless.action, "setApiKey");

  const key = "sk-test-EXTENSION-0123456789";
  const local = await resolveChatModel({ ...MODEL_DEFAULTS, provider: "openai", baseUrl: "http://127.0.0.1:9/v1", name: "llama3.1:8b" }, { getApiKey: async () => key });
  assert.equal(local.kind, "model");
  if (local.kind !== "model") return;
  assert.equal(local.provider, "openai");
  assert.equal(local.chat.id, "llama3.1:8b");
  assert.equal(local.host, "127.0.0.1:9");
  assert.ok(!local.describe.includes(key), "the key is never in the description");
  assert.match(local.describe, /API key from SecretStorage/);
});

test("provider selection: vscode-lm picks the first model, or the one model.name names; none available is a reason, not a failure", async () => {
  const a = fakeLm({ id: "a-id", family: "gpt-4o", vendor: "copilot" });
  const b = fakeLm({ id: "b-id", family: "claude-sonnet", vendor: "copilot" });
  assert.equal(pickLanguageModel([a, b], ""), a);
  assert.equal(pickLanguageModel([a, b], "claude-sonnet"), b);
  assert.equal(pickLanguageModel([a, b], "copilot/B-ID"), b);
  assert.equal(pickLanguageModel([a, b], "llama"), undefined);

  const s = { ...MODEL_DEFAULTS, provider: "vscode-lm" as const };
  const none = await resolveChatModel(s, { getApiKey: async () => undefined, selectChatModels: async () => [] });
  assert.equal(none.kind, "unavailable");
  const missing = await resolveChatModel({ ...s, name: "llama" }, { getApiKey: async () => undefined, selectChatModels: async () => [a, b] });
  assert.equal(missing.kind, "unavailable");
  assert.match(missing.kind === "unavailable" ? missing.reason : "", /gpt-4o/);

  const picked = await resolveChatModel({ ...s, name: "gpt-4o" }, { getApiKey: async () => undefined, selectChatModels: async () => [fakeLm({ id: "a-id", family: "gpt-4o", vendor: "copilot", reply: ['{"ok":', " true}"] })] });
  assert.equal(picked.kind, "model");
  if (picked.kind !== "model") return;
  assert.equal(picked.host, "vscode.lm (copilot)");
  const res = await picked.chat.complete({ system: "sys", user: "usr", maxTokens: 100, signal: new AbortController().signal });
  assert.equal(res.text, '{"ok": true}');
  assert.ok(res.usage && res.usage.prompt_tokens > 0, "token usage from countTokens");

  // With no model provider in the test instance, the real vscode.lm also yields a reason.
  const real = await resolveChatModel(s, { getApiKey: async () => undefined });
  assert.ok(real.kind === "unavailable" || real.kind === "model");
});

test("vscode.lm errors map to the closed set: NoPermissions → auth, Blocked → rate-limited, NotFound → http-error, cancellation → aborted", async () => {
  assert.equal(classifyLanguageModelError(vscode.LanguageModelError.NoPermissions("no")).kind, "auth");
  assert.equal(classifyLanguageModelError(vscode.LanguageModelError.Blocked("quota")).kind, "rate-limited");
  assert.equal(classifyLanguageModelError(vscode.LanguageModelError.NotFound("gone")).kind, "http-error");
  assert.equal(classifyLanguageModelError(new vscode.CancellationError()).kind, "aborted");
  assert.equal(classifyLanguageModelError(new Error("socket hang up")).kind, "network-error");

  const resolved = await resolveChatModel(
    { ...MODEL_DEFAULTS, provider: "vscode-lm" },
    { getApiKey: async () => undefined, selectChatModels: async () => [fakeLm({ fail: vscode.LanguageModelError.NoPermissions("denied") })] },
  );
  assert.equal(resolved.kind, "model");
  if (resolved.kind !== "model") return;
  await assert.rejects(resolved.chat.complete({ system: "s", user: "u", maxTokens: 10, signal: new AbortController().signal }), (err: unknown) => {
    assert.ok(err instanceof ModelError);
    assert.equal(err.kind, "auth");
    return true;
  });
});

test("model consent is remembered per workspace and endpoint, and reset forgets it", async () => {
  const store = new Map<string, unknown>();
  const memento = {
    get: <T>(key: string) => store.get(key) as T | undefined,
    update: async (key: string, value: unknown) => {
      if (value === undefined) store.delete(key);
      else store.set(key, value);
    },
  } as Pick<vscode.Memento, "get" | "update">;
  const consent = new ModelConsent(memento);
  assert.equal(consent.get("openai", "127.0.0.1:11434"), undefined);
  await consent.set("openai", "127.0.0.1:11434", "llama3.1:8b", "keep-local");
  assert.equal(consent.get("openai", "127.0.0.1:11434")?.choice, "keep-local");
  assert.equal(consent.get("openai", "api.openai.com"), undefined, "another host asks again");
  await consent.set("vscode-lm", "vscode.lm (copilot)", "copilot/gpt-4o", "allow");
  assert.equal(consent.list().length, 2);
  assert.ok(store.has(CONSENT_STATE_KEY));
  assert.equal(await consent.reset(), 2);
  assert.equal(consent.get("vscode-lm", "vscode.lm (copilot)"), undefined);
  await vscode.commands.executeCommand("deliberativeSearch.resetModelConsent");
});

test('the CodeLens offers "Deliberate" on the TODO(decide) comment', async () => {
  await vscode.window.showTextDocument(orders());
  const titles = await waitFor("a Deliberate lens", async () => ((await lensTitles(orders())).some((t) => t.includes("Deliberate")) ? true : undefined));
  assert.ok(titles);
});

test("Deliberate on Selection writes a signed receipt for the comment's question", async () => {
  const editor = await vscode.window.showTextDocument(orders());
  const line = editor.document.getText().split("\n").findIndex((l) => l.includes("TODO(decide)"));
  editor.selection = new vscode.Selection(line, 0, line, 0);
  await vscode.commands.executeCommand("deliberativeSearch.deliberateOnSelection");
  const file = await waitFor("a receipt", () => receiptFiles()[0]);
  const raw = JSON.parse(readFileSync(file, "utf8"));
  assert.equal(raw.question, QUESTION);
  assert.equal(raw.operator_pick, null);
  assert.equal(verifyReceiptSignature(raw).ok, true);
  assert.equal(raw.context?.file, "src/orders.ts");
  await api.refreshReceipts();
  assert.equal(api.receipts()[0]?.state, "pending");
  assert.ok((await lensTitles(orders())).some((t) => t.includes("Deliberated: pending pick")));
});

test('after a pick, the sidebar model and the CodeLens say "Decided"', async () => {
  const file = receiptFiles()[0]!;
  const raw = JSON.parse(readFileSync(file, "utf8"));
  const zustand = raw.payload.options.find((o: { title: string }) => /zustand/i.test(o.title));
  // A teammate's key picks: the receipt's signer (the extension's key) must be trusted first, as an allowed signer.
  await addAllowedSigner(workspace(), ".deliberations", "extension", publicKeyToLine(raw.signing.public_key));
  await recordPick(workspace(), raw.receipt_id, { option_id: zustand.id }, generateSigningKey());
  await waitFor("the index to see the pick", async () => {
    await api.refreshReceipts();
    return api.receipts()[0]?.state === "picked" ? true : undefined;
  });
  assert.equal(api.receipts()[0]?.picked, zustand.title);
  await waitFor("the Decided lens", async () => ((await lensTitles(orders())).some((t) => t.includes(`Decided: ${zustand.title}`)) ? true : undefined));
});

test("a corrupt receipt is listed as corrupt and never breaks the index", async () => {
  const dir = join(workspace(), ".deliberations");
  await vscode.workspace.fs.writeFile(vscode.Uri.file(join(dir, "corrupt-receipt.json")), Buffer.from("{ not json"));
  await api.refreshReceipts();
  const states = api.receipts().map((r) => r.state);
  assert.ok(states.includes("corrupt"));
  assert.ok(states.includes("picked"));
  await vscode.workspace.fs.delete(vscode.Uri.file(join(dir, "corrupt-receipt.json")));
});

registerAgentTests(test);

export async function run(): Promise<void> {
  let failed = 0;
  for (const t of tests) {
    const started = Date.now();
    try {
      await t.fn();
      console.log(`  ✓ ${t.name} (${Date.now() - started} ms)`);
    } catch (err) {
      failed++;
      console.error(`  ✗ ${t.name}\n    ${err instanceof Error ? err.stack : String(err)}`);
    }
  }
  console.log(`test:vscode: ${tests.length - failed} passed, ${failed} failed`);
  if (failed) throw new Error(`${failed} extension-host test(s) failed`);
}
