// The extension's settings, read in one place and validated with zod. An invalid value falls back to its
// default and is reported once (log + warning), so a typo in settings.json never breaks a command.
//
// This module is on the activation path, so it stays zod-free: the schemas and the one `parseSettings` live in
// settingsSchema.ts, in the heavy bundle, loaded on first use through `loadHeavyBundle()`. `vscode` is loaded on
// first use rather than at import, so the unit tests run this under plain Node.
import type * as vscodeTypes from "vscode";
import type { ExternalSources } from "../core/pipeline";
import type { DecisionSourcesRequest } from "../core/sources";
import type { DeliberationConfig } from "../core/types";
import { SECTION } from "./constants";
import { loadHeavyBundle } from "./loadHeavyBundle";
import type { Settings } from "./settingsSchema";

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
  return loadHeavyBundle().parseSettings(
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

/**
 * The decision sources for a deliberation asked in `folder`: the configured ones (a relative folder is the asking
 * folder's), plus every other workspace folder when `shareDecisionsAcrossFolders` is on. Receipts stay in `folder`.
 */
export function toDecisionSources(s: Settings, folder: string, workspaceFolders: readonly { name: string; path: string }[] = workspaceFolderPaths()): DecisionSourcesRequest | undefined {
  const shared = s.shareDecisionsAcrossFolders ? workspaceFolders.filter((f) => f.path !== folder).map((f) => `${folderSourceName(f.name)}=${f.path}`) : [];
  const specs = [...s.decisionSources, ...shared];
  return specs.length ? { specs, cwd: folder, refreshMinutes: s.decisionSourcesRefreshMinutes } : undefined;
}

function folderSourceName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^[^A-Za-z0-9]+/, "").slice(0, 64) || "folder";
}

function workspaceFolderPaths(): { name: string; path: string }[] {
  try {
    return (vscodeApi().workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === "file").map((f) => ({ name: f.name, path: f.uri.fsPath }));
  } catch {
    return [];
  }
}

/** Where external best practice may come from (the pipeline builds its external experts from this). */
export function toExternalSources(s: Settings): ExternalSources {
  return {
    ...(s.externalDocsUrls.length ? { docsUrls: [...s.externalDocsUrls] } : {}),
    ...(s.externalSearxngUrl ? { searxngUrl: s.externalSearxngUrl } : {}),
    ...(s.externalAllowHosts.length ? { allowHosts: [...s.externalAllowHosts] } : {}),
  };
}
