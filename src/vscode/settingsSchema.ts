// The settings' zod schemas and the pure validator behind `readSettings` (config.ts): the one `parseSettings`.
// zod is heavy, so this module is bundled into the heavy bundle (heavyBundle.ts) and reached from the activation
// path only through `loadHeavyBundle()`; config.ts keeps the vscode-facing functions zod-free.
import { z } from "zod";
import { DEFAULT_CONFIG } from "../core/config";
import { parseAllowHost } from "../core/external/guard";
import { DEFAULT_CODELENS_TAGS, DEFAULT_MODEL_BASE_URL, MODEL_PROVIDERS, SECTION, type ModelProvider } from "./constants";

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
  guardEnabled: spec({ key: "guard.enabled", schema: z.boolean(), fallback: true }),
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
  modelCritic: spec({ key: "model.critic", schema: z.boolean(), fallback: false }),

  // External best practice (machine-scoped in package.json: a cloned repository cannot aim requests anywhere).
  externalDocsUrls: spec({ key: "external.docsUrls", schema: z.array(httpUrl).max(50), fallback: [] as string[] }),
  externalSearxngUrl: spec({ key: "external.searxngUrl", schema: optionalHttpUrl, fallback: "" }),
  externalAllowHosts: spec({ key: "external.allowHosts", schema: z.array(allowHost).max(200), fallback: [] as string[] }),

  // Decision sources (src/core/sources/): records kept in another folder or repository.
  decisionSources: spec({ key: "decisionSources", schema: z.array(z.string().trim().min(1).max(2000)).max(20), fallback: [] as string[] }),
  decisionSourcesRefreshMinutes: spec({ key: "decisionSources.refreshMinutes", schema: z.number().int().min(0).max(10_080), fallback: 60 }),
  shareDecisionsAcrossFolders: spec({ key: "shareDecisionsAcrossFolders", schema: z.boolean(), fallback: true }),
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
