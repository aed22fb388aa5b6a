// The extension's settings, read in one place and validated with zod. An invalid value falls back to its
// default and is reported once (log + warning), so a typo in settings.json never breaks a command.
import * as vscode from "vscode";
import { z } from "zod";
import { DEFAULT_CONFIG } from "../core/config";
import type { DeliberationConfig } from "../core/types";

export const SECTION = "deliberativeSearch";

export const DEFAULT_CODELENS_TAGS = ["TODO(decide)", "DECIDE:", "OPEN QUESTION:", "QUESTION:"];

const globList = z.array(z.string().min(1).max(500)).max(200);

/** One entry per setting: its key under `deliberativeSearch.`, schema and default. Mirrors package.json. */
const SETTINGS = {
  adrGlobs: { key: "adrGlobs", schema: globList, fallback: DEFAULT_CONFIG.adrGlobs },
  conventionGlobs: { key: "conventionGlobs", schema: globList, fallback: DEFAULT_CONFIG.conventionGlobs },
  codeLensEnabled: { key: "codeLens.enabled", schema: z.boolean(), fallback: true },
  codeLensTags: { key: "codeLens.tags", schema: z.array(z.string().trim().min(1).max(60)).max(50), fallback: DEFAULT_CODELENS_TAGS },
  codeLensPlainTodos: { key: "codeLens.plainTodos", schema: z.boolean(), fallback: true },
  gitMaxMs: { key: "git.maxMs", schema: z.number().int().min(0).max(120_000), fallback: DEFAULT_CONFIG.git.maxMs },
  gitPickaxeCommits: { key: "git.pickaxeCommits", schema: z.number().int().min(0).max(1_000_000), fallback: DEFAULT_CONFIG.git.pickaxeCommits },
  gitMaxResults: { key: "git.maxResults", schema: z.number().int().min(0).max(500), fallback: DEFAULT_CONFIG.git.maxResults },
  offline: { key: "offline", schema: z.boolean(), fallback: DEFAULT_CONFIG.offline },
  receiptsFolder: {
    key: "receiptsFolder",
    // A folder inside the workspace folder: relative, no "..", no drive letters.
    schema: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .refine((s) => !/^([\\/]|[A-Za-z]:)/.test(s) && !s.split(/[\\/]/).includes(".."), "must be a relative folder inside the workspace"),
    fallback: DEFAULT_CONFIG.receiptsDir,
  },
} as const;

type SettingsSpec = typeof SETTINGS;
export type Settings = { -readonly [K in keyof SettingsSpec]: z.infer<SettingsSpec[K]["schema"]> };

const warned = new Set<string>();
let warn: (message: string) => void = () => {};

/** Where validation warnings go (the output channel); set once at activation. */
export function setConfigWarningSink(sink: (message: string) => void): void {
  warn = sink;
}

/** Reads every setting for a scope (a workspace folder, or the window when omitted). */
export function readSettings(scope?: vscode.ConfigurationScope): Settings {
  const cfg = vscode.workspace.getConfiguration(SECTION, scope);
  const out: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(SETTINGS) as [keyof SettingsSpec, SettingsSpec[keyof SettingsSpec]][]) {
    const raw = cfg.get<unknown>(spec.key);
    if (raw === undefined || raw === null) {
      out[name] = spec.fallback;
      continue;
    }
    const parsed = (spec.schema as z.ZodType).safeParse(raw);
    if (parsed.success) {
      out[name] = parsed.data;
    } else {
      out[name] = spec.fallback;
      const id = `${spec.key}=${JSON.stringify(raw)}`;
      if (!warned.has(id)) {
        warned.add(id);
        const why = parsed.error.issues[0]?.message ?? "invalid value";
        const message = `Setting "${SECTION}.${spec.key}" is invalid (${why}); using the default ${JSON.stringify(spec.fallback)}.`;
        warn(message);
        void vscode.window.showWarningMessage(`Deliberative Search: ${message}`);
      }
    }
  }
  return out as Settings;
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

export function affectsSettings(e: vscode.ConfigurationChangeEvent): boolean {
  return e.affectsConfiguration(SECTION);
}
