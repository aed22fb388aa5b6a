// The extension's settings, read in one place and validated with zod. An invalid value falls back to its
// default and is reported once (log + warning), so a typo in settings.json never breaks a command.
//
// This module is on the activation path, so it stays zod-free: the schemas and the pure `parseSettings` live in
// settingsSchema.ts, bundled into dist/core.js and loaded on first use through `loadCore()`. `vscode` is loaded on
// first use rather than at import, so the unit tests (test/unit/vscode-config.test.ts) run this under plain Node.
import type * as vscodeTypes from "vscode";
import type { ExternalSources } from "../core/pipeline";
import type { DeliberationConfig } from "../core/types";
import { loadCore } from "./lazyCore";
import type { SettingProblem, Settings } from "./settingsSchema";

export type { SettingProblem, Settings } from "./settingsSchema";

export const SECTION = "deliberativeSearch";

export const DEFAULT_CODELENS_TAGS = ["TODO(decide)", "DECIDE:", "OPEN QUESTION:", "QUESTION:"];

export const MODEL_PROVIDERS = ["none", "openai", "vscode-lm"] as const;
export type ModelProvider = (typeof MODEL_PROVIDERS)[number];

export const DEFAULT_MODEL_BASE_URL = "https://api.openai.com/v1";

/**
 * Pure: validates every setting read through `read(key, strictest)` (undefined/null = not set). Invalid values fall
 * back to their defaults and are reported through `onInvalid`. (Loads dist/core.js on first call.)
 */
export function parseSettings(read: (key: string, strictest: boolean) => unknown, onInvalid: (p: SettingProblem) => void = () => {}): Settings {
  return loadCore().parseSettings(read, onInvalid);
}

const warned = new Set<string>();
let warn: (message: string) => void = () => {};

/** Where validation warnings go (the output channel); set once at activation. */
export function setConfigWarningSink(sink: (message: string) => void): void {
  warn = sink;
}

function vscodeApi(): typeof vscodeTypes {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require("vscode") as typeof vscodeTypes;
}

/** Reads every setting for a scope (a workspace folder, or the window when omitted). */
export function readSettings(scope?: vscodeTypes.ConfigurationScope): Settings {
  const vscode = vscodeApi();
  const cfg = vscode.workspace.getConfiguration(SECTION, scope);
  return parseSettings(
    (key, strictest) => {
      if (strictest) {
        const i = cfg.inspect<unknown>(key);
        if ([i?.globalValue, i?.workspaceValue, i?.workspaceFolderValue].some((v) => v === true)) return true;
      }
      return cfg.get<unknown>(key);
    },
    (p) => {
      const id = `${p.key}=${JSON.stringify(p.raw)}`;
      if (warned.has(id)) return;
      warned.add(id);
      warn(p.message);
      void vscode.window.showWarningMessage(`Deliberative Search: ${p.message}`);
    },
  );
}

/** The core pipeline's view of the settings. */
export function toDeliberationConfig(s: Settings): Partial<DeliberationConfig> {
  return {
    adrGlobs: s.adrGlobs,
    conventionGlobs: s.conventionGlobs,
    git: { maxMs: s.gitMaxMs, pickaxeCommits: s.gitPickaxeCommits, maxResults: s.gitMaxResults },
    offline: s.offline,
    receiptsDir: s.receiptsFolder,
  };
}

/** Where external best practice may come from (the pipeline builds its external experts from this). */
export function toExternalSources(s: Settings): ExternalSources {
  return {
    ...(s.externalDocsUrls.length ? { docsUrls: [...s.externalDocsUrls] } : {}),
    ...(s.externalSearxngUrl ? { searxngUrl: s.externalSearxngUrl } : {}),
    ...(s.externalAllowHosts.length ? { allowHosts: [...s.externalAllowHosts] } : {}),
  };
}

/** The model settings, with `offline` applied: offline forbids any network, the model included. */
export interface ModelSettings {
  provider: ModelProvider;
  /** Set when a provider was configured but offline mode turned it off. */
  offlineOverride?: ModelProvider;
  baseUrl: string;
  name: string;
  timeoutMs: number;
  /** Undefined: each call's own limit. */
  maxTokens?: number;
  temperature: number;
  planFirst: boolean;
  evidenceTokenBudget: number;
  keepInternalLocal: boolean;
}

export function toModelSettings(s: Settings): ModelSettings {
  const offlineOverride = s.offline && s.modelProvider !== "none" ? s.modelProvider : undefined;
  return {
    provider: offlineOverride ? "none" : s.modelProvider,
    ...(offlineOverride ? { offlineOverride } : {}),
    baseUrl: s.modelBaseUrl,
    name: s.modelName,
    timeoutMs: s.modelTimeoutMs,
    ...(s.modelMaxTokens > 0 ? { maxTokens: s.modelMaxTokens } : {}),
    temperature: s.modelTemperature,
    planFirst: s.modelPlanFirst,
    evidenceTokenBudget: s.modelEvidenceTokenBudget,
    keepInternalLocal: s.modelKeepInternalLocal,
  };
}

export function affectsSettings(e: vscodeTypes.ConfigurationChangeEvent): boolean {
  return e.affectsConfiguration(SECTION);
}
