// The extension's settings, read in one place and validated with zod. An invalid value falls back to its
// default and is reported once (log + warning), so a typo in settings.json never breaks a command.
//
// `vscode` is loaded on first use rather than at import: the schemas and `parseSettings` below are pure, so the
// unit tests (test/unit/vscode-config.test.ts) run them under plain Node.
import type * as vscodeTypes from "vscode";
import { z } from "zod";
import { DEFAULT_CONFIG } from "../core/config";
import { parseAllowHost } from "../core/external/guard";
import type { ExternalSources } from "../core/pipeline";
import type { DeliberationConfig } from "../core/types";

export const SECTION = "deliberativeSearch";

export const DEFAULT_CODELENS_TAGS = ["TODO(decide)", "DECIDE:", "OPEN QUESTION:", "QUESTION:"];

export const MODEL_PROVIDERS = ["none", "openai", "vscode-lm"] as const;
export type ModelProvider = (typeof MODEL_PROVIDERS)[number];

export const DEFAULT_MODEL_BASE_URL = "https://api.openai.com/v1";

const globList = z.array(z.string().min(1).max(500)).max(200);

/** An http(s) URL without credentials in it (a key belongs in SecretStorage, not in a URL in settings.json). */
const httpUrl = z
  .string()
  .trim()
  .max(2000)
  .refine((s) => {
    try {
      const u = new URL(s);
      return u.protocol === "http:" || u.protocol === "https:";
    } catch {
      return false;
    }
  }, "must be an http:// or https:// URL")
  .refine((s) => {
    try {
      const u = new URL(s);
      return !u.username && !u.password;
    } catch {
      return true;
    }
  }, "must not contain credentials (use the “Set API Key” command)");

/** An http(s) URL, or "" for "not configured". */
const optionalHttpUrl = z.union([z.literal(""), httpUrl]);

const allowHost = z
  .string()
  .trim()
  .min(1)
  .max(300)
  .refine((s) => !!parseAllowHost(s), "must be HOST or HOST:PORT (e.g. docs.internal.example:8443 or *.example.com)");

interface Spec<T> {
  /** Key under `deliberativeSearch.`. */
  key: string;
  schema: z.ZodType<T>;
  fallback: T;
  /**
   * A privacy switch: true at any level (user, workspace, folder) wins, so a repository's workspace settings
   * cannot turn off what the user turned on.
   */
  strictest?: boolean;
}

const spec = <T>(s: Spec<T>): Spec<T> => s;

/** One entry per setting: its key under `deliberativeSearch.`, schema and default. Mirrors package.json. */
export const SETTINGS = {
  adrGlobs: spec({ key: "adrGlobs", schema: globList, fallback: DEFAULT_CONFIG.adrGlobs }),
  conventionGlobs: spec({ key: "conventionGlobs", schema: globList, fallback: DEFAULT_CONFIG.conventionGlobs }),
  codeLensEnabled: spec({ key: "codeLens.enabled", schema: z.boolean(), fallback: true }),
  codeLensTags: spec({ key: "codeLens.tags", schema: z.array(z.string().trim().min(1).max(60)).max(50), fallback: DEFAULT_CODELENS_TAGS }),
  codeLensPlainTodos: spec({ key: "codeLens.plainTodos", schema: z.boolean(), fallback: true }),
  gitMaxMs: spec({ key: "git.maxMs", schema: z.number().int().min(0).max(120_000), fallback: DEFAULT_CONFIG.git.maxMs }),
  gitPickaxeCommits: spec({ key: "git.pickaxeCommits", schema: z.number().int().min(0).max(1_000_000), fallback: DEFAULT_CONFIG.git.pickaxeCommits }),
  gitMaxResults: spec({ key: "git.maxResults", schema: z.number().int().min(0).max(500), fallback: DEFAULT_CONFIG.git.maxResults }),
  offline: spec({ key: "offline", schema: z.boolean(), fallback: DEFAULT_CONFIG.offline }),
  receiptsFolder: spec({
    key: "receiptsFolder",
    // A folder inside the workspace folder: relative, no "..", no drive letters.
    schema: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .refine((s) => !/^([\\/]|[A-Za-z]:)/.test(s) && !s.split(/[\\/]/).includes(".."), "must be a relative folder inside the workspace"),
    fallback: DEFAULT_CONFIG.receiptsDir,
  }),

  // Model-mediated planning and synthesis.
  modelProvider: spec<ModelProvider>({ key: "model.provider", schema: z.enum(MODEL_PROVIDERS), fallback: "none" }),
  modelBaseUrl: spec({ key: "model.baseUrl", schema: httpUrl, fallback: DEFAULT_MODEL_BASE_URL }),
  modelName: spec({ key: "model.name", schema: z.string().trim().max(200), fallback: "" }),
  modelTimeoutMs: spec({ key: "model.timeoutMs", schema: z.number().int().min(1000).max(600_000), fallback: 60_000 }),
  /** 0: each call's own limit (plan 700, synthesis 2500). */
  modelMaxTokens: spec({ key: "model.maxTokens", schema: z.number().int().min(0).max(200_000), fallback: 0 }),
  modelTemperature: spec({ key: "model.temperature", schema: z.number().min(0).max(2), fallback: 0 }),
  modelPlanFirst: spec({ key: "model.planFirst", schema: z.boolean(), fallback: true }),
  modelEvidenceTokenBudget: spec({ key: "model.evidenceTokenBudget", schema: z.number().int().min(500).max(200_000), fallback: 6000 }),
  modelKeepInternalLocal: spec({ key: "model.keepInternalLocal", schema: z.boolean(), fallback: false, strictest: true }),

  // External best practice (machine-scoped in package.json: a cloned repository cannot aim requests anywhere).
  externalDocsUrls: spec({ key: "external.docsUrls", schema: z.array(httpUrl).max(50), fallback: [] as string[] }),
  externalSearxngUrl: spec({ key: "external.searxngUrl", schema: optionalHttpUrl, fallback: "" }),
  externalAllowHosts: spec({ key: "external.allowHosts", schema: z.array(allowHost).max(200), fallback: [] as string[] }),
} as const;

type SettingsSpec = typeof SETTINGS;
type ValueOf<S> = S extends Spec<infer T> ? T : never;
export type Settings = { -readonly [K in keyof SettingsSpec]: ValueOf<SettingsSpec[K]> };

/** One invalid setting: which key, what was wrong, and the default used instead. */
export interface SettingProblem {
  key: string;
  raw: unknown;
  why: string;
  fallback: unknown;
  /** One line for the log and the warning notification. */
  message: string;
}

/**
 * Pure: validates every setting read through `read(key, strictest)` (undefined/null = not set). Invalid values fall
 * back to their defaults and are reported through `onInvalid`.
 */
export function parseSettings(read: (key: string, strictest: boolean) => unknown, onInvalid: (p: SettingProblem) => void = () => {}): Settings {
  const out: Record<string, unknown> = {};
  for (const [name, s] of Object.entries(SETTINGS) as [keyof SettingsSpec, Spec<unknown>][]) {
    const raw = read(s.key, !!s.strictest);
    if (raw === undefined || raw === null) {
      out[name] = s.fallback;
      continue;
    }
    const parsed = s.schema.safeParse(raw);
    if (parsed.success) {
      out[name] = parsed.data;
      continue;
    }
    out[name] = s.fallback;
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length ? ` at [${issue.path.join(".")}]` : "";
    const why = `${issue?.message ?? "invalid value"}${where}`;
    onInvalid({
      key: s.key,
      raw,
      why,
      fallback: s.fallback,
      message: `Setting "${SECTION}.${s.key}" is invalid (${why}); using the default ${JSON.stringify(s.fallback)}.`,
    });
  }
  return out as Settings;
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
