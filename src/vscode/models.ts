// Model providers for the extension, loaded on first use (it pulls in the openai SDK and the core model stack):
//  - "openai": any OpenAI-compatible endpoint through createOpenAIChatModel; the API key only from SecretStorage.
//  - "vscode-lm": the editor's own language model (vscode.lm, e.g. Copilot) through createStreamingChatModel; no key.
// A provider that cannot be used resolves to "unavailable" with a one-line reason, so the caller warns and runs the
// rules path; nothing here fails silently. No function here logs or returns the API key.
//
// Bundled into the heavy bundle (heavyBundle.ts), never imported at run time by the activation path. `vscode` is
// required on first use rather than at import, like config.ts, so loading the heavy bundle under plain Node (the
// unit tests, through loadHeavyBundle()) does not need an editor.
import type * as vscode from "vscode";
import {
  ModelError,
  asModelError,
  createModelStack,
  createOpenAIChatModel,
  createStreamingChatModel,
  describeEgress,
  endpointHostOf,
  oneLineScrubbed,
  type ChatModel,
  type TextStreamSource,
} from "../core/model";
import type { DeliberateOutcome } from "../core/pipeline";
import { SECTION } from "./constants";
import type { ModelSettings } from "./modelSettings";
import type { Settings } from "./settingsSchema";

export type ModelResolution =
  | { kind: "none" }
  | {
      kind: "model";
      provider: "openai" | "vscode-lm";
      chat: ChatModel;
      /** Where requests go: "host:port" for openai, "vscode.lm (vendor)" for the editor's model. */
      host: string;
      /** One line for the log: model, host, key source (never the key). */
      describe: string;
    }
  | {
      kind: "unavailable";
      provider: "openai" | "vscode-lm";
      /** One line, no secret. */
      reason: string;
      /** What would fix it, for a notification button. */
      action?: "setApiKey" | "openSettings";
    };

export interface ResolveDeps {
  getApiKey(): Promise<string | undefined>;
  /** vscode.lm.selectChatModels by default (tests pass fakes). */
  selectChatModels?: () => Thenable<readonly vscode.LanguageModelChat[]> | Promise<readonly vscode.LanguageModelChat[]>;
}

function vscodeApi(): typeof vscode {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require("vscode") as typeof vscode;
}

/** Shown by VS Code in its language-model access prompt. */
export const LM_JUSTIFICATION =
  "Deliberative Search asks the model to plan the search and weigh the options for your design question, citing only the evidence it is given.";

function isOpenAIHost(host: string): boolean {
  const h = host.replace(/:\d+$/, "");
  return h === "openai.com" || h.endsWith(".openai.com");
}

/** The ChatModel for the configured provider, or why there is none. `s` already has `offline` applied. */
export async function resolveChatModel(s: ModelSettings, deps: ResolveDeps): Promise<ModelResolution> {
  if (s.provider === "none") return { kind: "none" };
  if (s.provider === "openai") return resolveOpenAI(s, deps);
  return resolveLanguageModel(s, deps);
}

let openaiCache: { signature: string; apiKey: string | undefined; chat: ChatModel } | undefined;

async function resolveOpenAI(s: ModelSettings, deps: ResolveDeps): Promise<ModelResolution> {
  const unavailable = (reason: string, action?: "setApiKey" | "openSettings"): ModelResolution => ({ kind: "unavailable", provider: "openai", reason, ...(action ? { action } : {}) });
  if (!s.name) {
    return unavailable(`model.provider is "openai" but ${SECTION}.model.name is empty: name the model to use (e.g. gpt-4.1-mini, llama3.1:8b)`, "openSettings");
  }
  let host: string;
  try {
    host = endpointHostOf(s.baseUrl);
  } catch (err) {
    return unavailable(oneLineScrubbed((err as Error).message), "openSettings");
  }
  let apiKey: string | undefined;
  try {
    apiKey = await deps.getApiKey();
  } catch (err) {
    return unavailable(`the API key could not be read from SecretStorage (${oneLineScrubbed(String(err))})`, "setApiKey");
  }
  if (!apiKey && isOpenAIHost(host)) {
    return unavailable(`${host} needs an API key: run “Deliberative Search: Set API Key”`, "setApiKey");
  }
  const options = {
    baseURL: s.baseUrl,
    model: s.name,
    timeoutMs: s.timeoutMs,
    ...(s.maxTokens ? { maxTokens: s.maxTokens } : {}),
    temperature: s.temperature,
  };
  // One ChatModel per configuration keeps what it learned about the endpoint (e.g. no json_schema support).
  const signature = JSON.stringify(options);
  if (!openaiCache || openaiCache.signature !== signature || openaiCache.apiKey !== apiKey) {
    let chat: ChatModel;
    try {
      chat = createOpenAIChatModel({ ...options, ...(apiKey ? { apiKey } : {}) });
    } catch (err) {
      return unavailable(oneLineScrubbed((err as Error).message, [apiKey]), "openSettings");
    }
    openaiCache = { signature, apiKey, chat };
  }
  return {
    kind: "model",
    provider: "openai",
    chat: openaiCache.chat,
    host,
    describe: `${s.name} at ${host} (OpenAI-compatible; ${apiKey ? "API key from SecretStorage" : "no API key stored"})`,
  };
}

async function resolveLanguageModel(s: ModelSettings, deps: ResolveDeps): Promise<ModelResolution> {
  const unavailable = (reason: string, action?: "openSettings"): ModelResolution => ({ kind: "unavailable", provider: "vscode-lm", reason, ...(action ? { action } : {}) });
  let models: readonly vscode.LanguageModelChat[];
  try {
    const select = deps.selectChatModels ?? (() => vscodeApi().lm.selectChatModels());
    models = await select();
  } catch (err) {
    return unavailable(`the editor's language models could not be listed (${classifyLanguageModelError(err).message})`);
  }
  if (!models.length) {
    return unavailable("no language model is available in this editor (vscode.lm offers none: install and sign in to GitHub Copilot Chat or another model provider, or choose another model.provider)");
  }
  const model = pickLanguageModel(models, s.name);
  if (!model) {
    const names = models.slice(0, 8).map((m) => `${m.family || m.id} (${m.vendor})`).join(", ");
    return unavailable(`no editor language model matches ${SECTION}.model.name "${s.name}"; available: ${names}`, "openSettings");
  }
  const chat = createStreamingChatModel(languageModelSource(model, s.timeoutMs));
  return {
    kind: "model",
    provider: "vscode-lm",
    chat,
    host: chat.endpointHost ?? `vscode.lm (${model.vendor})`,
    describe: `${model.name || model.id} via vscode.lm (${model.vendor}, family ${model.family}, id ${chat.id})`,
  };
}

/**
 * The first model, or the one `name` names: its id, family, name, "vendor/id" or "vendor/family" (case-insensitive).
 * Undefined when a name is given and nothing matches (a pinned model is never silently swapped for another).
 */
export function pickLanguageModel<M extends Pick<vscode.LanguageModelChat, "id" | "family" | "vendor" | "name">>(models: readonly M[], name: string): M | undefined {
  const want = name.trim().toLowerCase();
  if (!want) return models[0];
  const keys = (m: M) => [m.id, m.family, m.name, `${m.vendor}/${m.id}`, `${m.vendor}/${m.family}`].filter(Boolean).map((k) => k.toLowerCase());
  return models.find((m) => keys(m).includes(want));
}

/**
 * vscode.lm failures into the closed set: NoPermissions → auth, Blocked → rate-limited, NotFound → http-error,
 * a CancellationError → aborted; anything else → network-error with its (scrubbed) message.
 */
export function classifyLanguageModelError(err: unknown): ModelError {
  if (err instanceof ModelError) return err;
  if (err instanceof vscodeApi().CancellationError) return new ModelError("aborted", "cancelled");
  const code = lmErrorCode(err);
  const said = err instanceof Error && err.message ? oneLineScrubbed(err.message, [], 160) : "";
  const suffix = said && said !== code ? ` (${said})` : "";
  if (code === "NoPermissions") {
    return new ModelError("auth", `the editor's language model refused access (NoPermissions): allow Deliberative Search when VS Code asks, or check “Manage Language Model Access”${suffix}`);
  }
  if (code === "Blocked") return new ModelError("rate-limited", `the editor's language model blocked the request (Blocked: quota or rate limit)${suffix}`);
  if (code === "NotFound") return new ModelError("http-error", `the selected editor language model no longer exists (NotFound)${suffix}`);
  if (code) return new ModelError("network-error", `the editor's language model failed (${code})${suffix}`);
  return asModelError(err);
}

function lmErrorCode(err: unknown): string | undefined {
  if (!(err instanceof Error)) return undefined;
  const { LanguageModelError } = vscodeApi();
  const isLmError = err instanceof LanguageModelError || err.name === "LanguageModelError" || /LanguageModelError/.test(err.constructor?.name ?? "");
  if (!isLmError) return undefined;
  const code = (err as { code?: unknown }).code;
  if (typeof code !== "string" || !code) return "Unknown";
  // Documented comparison: `err.code === vscode.LanguageModelError.NotFound.name`.
  for (const known of [LanguageModelError.NoPermissions, LanguageModelError.Blocked, LanguageModelError.NotFound]) {
    if (code === known.name) return known.name;
  }
  return code;
}

/** A CancellationToken that follows an AbortSignal. */
function tokenFor(signal: AbortSignal): { token: vscode.CancellationToken; dispose(): void } {
  const source = new (vscodeApi().CancellationTokenSource)();
  const cancel = () => source.cancel();
  if (signal.aborted) source.cancel();
  else signal.addEventListener("abort", cancel, { once: true });
  return {
    token: source.token,
    dispose: () => {
      signal.removeEventListener("abort", cancel);
      source.dispose();
    },
  };
}

/** vscode.lm's LanguageModelChat as the stream source createStreamingChatModel wraps. */
export function languageModelSource(model: vscode.LanguageModelChat, timeoutMs: number): TextStreamSource {
  return {
    id: `${model.vendor}/${model.id}${model.version ? `@${model.version}` : ""}`,
    endpointHost: `vscode.lm (${model.vendor})`,
    // LanguageModelChatMessage has User and Assistant roles only: the system prompt is folded into the user turn.
    supportsSystemRole: false,
    timeoutMs,
    async send(messages, { signal }) {
      const cancel = tokenFor(signal);
      try {
        const { LanguageModelChatMessage } = vscodeApi();
        const response = await model.sendRequest(
          messages.map((m) => LanguageModelChatMessage.User(m.content)),
          { justification: LM_JUSTIFICATION },
          cancel.token,
        );
        return (async function* () {
          try {
            yield* response.text;
          } finally {
            cancel.dispose();
          }
        })();
      } catch (err) {
        cancel.dispose();
        throw err;
      }
    },
    classify: classifyLanguageModelError,
    async countTokens(text, signal) {
      const cancel = tokenFor(signal);
      try {
        return await model.countTokens(text, cancel.token);
      } finally {
        cancel.dispose();
      }
    },
  };
}

/** The planner + synthesizer pair for `deliberate(...)`. */
export function modelStack(chat: ChatModel, s: ModelSettings, keepInternalLocal: boolean): ReturnType<typeof createModelStack> {
  return createModelStack(chat, { plan: s.planFirst, keepInternalLocal, evidenceTokenBudget: s.evidenceTokenBudget, critic: s.critic });
}

/** host of a URL, or the URL itself when it does not parse (it was validated by config.ts). */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** What leaves the machine besides the model call: SearxNG queries and documentation fetches (none offline). */
export function externalEgressLines(settings: Pick<Settings, "offline" | "externalDocsUrls" | "externalSearxngUrl">): string[] {
  if (settings.offline) return ["External sources: offline, so no web request is made (installed dependency docs are read locally)."];
  const lines: string[] = [];
  if (settings.externalSearxngUrl) lines.push(`External sources: the SearxNG instance at ${hostOf(settings.externalSearxngUrl)} receives search queries built from the question's terms (and the plan's keywords).`);
  if (settings.externalDocsUrls.length) {
    const hosts = [...new Set(settings.externalDocsUrls.map(hostOf))];
    lines.push(`External sources: documentation pages are fetched from ${hosts.join(", ")} (plain GET requests; nothing from the repository is sent).`);
  }
  return lines;
}

/**
 * The egress preview for a rules-only probe run (writeReceipt: false, useCache: false): core's summary of the model
 * calls, worded for how the provider authorises requests, then what the external sources send.
 */
export function egressPreviewText(
  probe: Extract<DeliberateOutcome, { kind: "deliberated" }>,
  model: Pick<Extract<ModelResolution, { kind: "model" }>, "chat" | "provider">,
  s: ModelSettings,
  keepInternalLocal: boolean,
  settings: Pick<Settings, "offline" | "externalDocsUrls" | "externalSearxngUrl">,
  context?: { file?: string; line?: number; text?: string },
): string {
  const summary = describeEgress({
    question: probe.receipt.question,
    // The synthesis call reads the fused evidence; the code-usage lines are counted after it.
    evidence: probe.evidence.filter((e) => e.expert !== "code"),
    model: model.chat,
    keepInternalLocal,
    ...(context?.text ? { context: context.text, contextLabel: context.file ? `${context.file}${context.line ? `:${context.line}` : ""}` : undefined } : {}),
    plan: s.planFirst,
    evidenceTokenBudget: s.evidenceTokenBudget,
    candidates: probe.payload.options,
    auth: model.provider === "vscode-lm" ? "editor" : "api-key",
    critic: s.critic,
  });
  return [summary.text, ...externalEgressLines(settings)].join("\n");
}
