// The extension's settings module, without VS Code: every setting validated by its zod schema, invalid values
// replaced by their defaults and reported, offline turning the model off, and package.json declaring the same
// settings (with the external sources and the model endpoint in machine scope).
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { toExternalSources } from "../../src/vscode/config";
import { DEFAULT_MODEL_BASE_URL, SECTION } from "../../src/vscode/constants";
import { toModelSettings } from "../../src/vscode/modelSettings";
import { SETTINGS, parseSettings, type SettingProblem } from "../../src/vscode/settingsSchema";

const ROOT = join(import.meta.dirname, "..", "..");

function parse(values: Record<string, unknown>): { settings: ReturnType<typeof parseSettings>; problems: SettingProblem[] } {
  const problems: SettingProblem[] = [];
  const settings = parseSettings((key) => values[key], (p) => problems.push(p));
  return { settings, problems };
}

/** The model and external-source settings a fresh or invalid configuration falls back to. */
function assertModelAndExternalDefaults(settings: ReturnType<typeof parse>["settings"]): void {
    assert.equal(settings.modelProvider, "none");
    assert.equal(settings.modelBaseUrl, DEFAULT_MODEL_BASE_URL);
    assert.equal(settings.modelTimeoutMs, 60_000);
    assert.equal(settings.modelMaxTokens, 0);
    assert.equal(settings.modelTemperature, 0);
    assert.equal(settings.modelPlanFirst, true);
    assert.equal(settings.modelEvidenceTokenBudget, 6000);
    assert.equal(settings.modelKeepInternalLocal, false);
    assert.deepEqual(settings.externalDocsUrls, []);
    assert.equal(settings.externalSearxngUrl, "");
    assert.deepEqual(settings.externalAllowHosts, []);
}

describe("vscode config (pure)", () => {
  it("defaults: no model, no external sources, the documented model defaults", () => {
    const { settings, problems } = parse({});
    assert.deepEqual(problems, []);
    assertModelAndExternalDefaults(settings);
    assert.equal(settings.modelName, "");
    assert.deepEqual(toExternalSources(settings), {});
    const m = toModelSettings(settings);
    assert.equal(m.provider, "none");
    assert.equal(m.maxTokens, undefined, "0 means each call's own limit");
  });

  it("valid model and external settings pass through", () => {
    const { settings, problems } = parse({
      "model.provider": "openai",
      "model.baseUrl": "http://127.0.0.1:11434/v1",
      "model.name": " llama3.1:8b ",
      "model.timeoutMs": 30_000,
      "model.maxTokens": 1200,
      "model.temperature": 0.2,
      "model.planFirst": false,
      "model.evidenceTokenBudget": 3000,
      "model.keepInternalLocal": true,
      "model.critic": true,
      "external.docsUrls": ["https://nodejs.org/api/http.html"],
      "external.searxngUrl": "http://127.0.0.1:8888",
      "external.allowHosts": ["docs.internal.example:8443", "*.example.com"],
    });
    assert.deepEqual(problems, []);
    assert.equal(settings.modelName, "llama3.1:8b", "trimmed");
    const m = toModelSettings(settings);
    assert.deepEqual(m, {
      provider: "openai",
      baseUrl: "http://127.0.0.1:11434/v1",
      name: "llama3.1:8b",
      timeoutMs: 30_000,
      maxTokens: 1200,
      temperature: 0.2,
      planFirst: false,
      evidenceTokenBudget: 3000,
      keepInternalLocal: true,
      critic: true,
    });
    assert.deepEqual(toExternalSources(settings), {
      docsUrls: ["https://nodejs.org/api/http.html"],
      searxngUrl: "http://127.0.0.1:8888",
      allowHosts: ["docs.internal.example:8443", "*.example.com"],
    });
    assert.equal(toModelSettings(parse({ "model.provider": "vscode-lm" }).settings).provider, "vscode-lm");
  });

  it("each invalid value falls back to its default and is reported once, with the key and the reason", () => {
    const { settings, problems } = parse({
      "model.provider": "gpt",
      "model.baseUrl": "ftp://models.example",
      "model.timeoutMs": 5,
      "model.maxTokens": -1,
      "model.temperature": 3,
      "model.planFirst": "yes",
      "model.evidenceTokenBudget": 10.5,
      "model.keepInternalLocal": "true",
      "external.docsUrls": ["https://ok.example/a", "file:///etc/passwd"],
      "external.searxngUrl": "not a url",
      "external.allowHosts": ["good.example", "bad host/with spaces"],
      "git.maxMs": "soon",
    });
    assertModelAndExternalDefaults(settings);
    assert.equal(settings.gitMaxMs, 1200);
    const keys = problems.map((p) => p.key).sort();
    assert.deepEqual(keys, [
      "external.allowHosts",
      "external.docsUrls",
      "external.searxngUrl",
      "git.maxMs",
      "model.baseUrl",
      "model.evidenceTokenBudget",
      "model.keepInternalLocal",
      "model.maxTokens",
      "model.planFirst",
      "model.provider",
      "model.temperature",
      "model.timeoutMs",
    ]);
    const docs = problems.find((p) => p.key === "external.docsUrls")!;
    assert.match(docs.message, /^Setting "deliberativeSearch\.external\.docsUrls" is invalid \(must be an http:\/\/ or https:\/\/ URL at \[1\]\); using the default \[\]\.$/);
  });

  it("a base URL with credentials in it is refused (the key belongs in SecretStorage)", () => {
    const { settings, problems } = parse({ "model.baseUrl": "https://user:sk-secret@api.example/v1" });
    assert.equal(settings.modelBaseUrl, DEFAULT_MODEL_BASE_URL);
    assert.equal(problems.length, 1);
    assert.match(problems[0].why, /credentials/);
  });

  it("offline turns the model off and says which provider it overrode", () => {
    const m = toModelSettings(parse({ offline: true, "model.provider": "vscode-lm" }).settings);
    assert.equal(m.provider, "none");
    assert.equal(m.offlineOverride, "vscode-lm");
    assert.equal(toModelSettings(parse({ offline: true }).settings).offlineOverride, undefined);
  });

  it("keepInternalLocal is read as the strictest value across levels", () => {
    const asked: Array<[string, boolean]> = [];
    parseSettings((key, strictest) => {
      asked.push([key, strictest]);
      return undefined;
    });
    assert.deepEqual(asked.filter(([, strict]) => strict).map(([k]) => k), ["model.keepInternalLocal"]);
  });

  it("package.json declares every setting with a default equal to the module's, and the machine-scoped ones", () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
    const props: Record<string, { default?: unknown; scope?: string; description?: string; markdownDescription?: string }> = pkg.contributes.configuration.properties;
    for (const spec of Object.values(SETTINGS)) {
      const p = props[`${SECTION}.${spec.key}`];
      assert.ok(p, `package.json declares ${spec.key}`);
      assert.deepEqual(p.default, spec.fallback, `default of ${spec.key}`);
      assert.ok(p.description || p.markdownDescription, `${spec.key} has a description`);
    }
    for (const key of ["external.docsUrls", "external.searxngUrl", "external.allowHosts", "model.baseUrl"]) {
      assert.equal(props[`${SECTION}.${key}`].scope, "machine", `${key} is machine-scoped`);
    }
    assert.deepEqual((props[`${SECTION}.model.provider`] as { enum?: string[] }).enum, ["none", "openai", "vscode-lm"]);
    const commands = pkg.contributes.commands.map((c: { command: string }) => c.command);
    for (const id of ["previewEgress", "resetModelConsent", "setApiKey"]) assert.ok(commands.includes(`${SECTION}.${id}`), id);
  });
});
