// What one deliberation from the editor asks, and the one builder that turns it into the core pipeline's request:
// the same builder serves a real deliberation, the consent prompt's probe and "Preview Egress", so the preview
// always retrieves exactly as the deliberation would.
import type * as vscode from "vscode";
import type { CorpusCacheOptions } from "../core/internal/corpus/store";
import type { HistoryIndexOptions } from "../core/internal/history";
import type { DeliberateRequest } from "../core/pipeline";
import type { SigningKey } from "../core/receipts/signing";
import type { ProgressEvent } from "../core/types";
import { toDecisionSources, toDeliberationConfig, toExternalSources } from "./config";
import type { Settings } from "./settingsSchema";

export interface DeliberationRequest {
  folder: vscode.WorkspaceFolder;
  question: string;
  /** The text as written (with comment markers and tags), so a decision tag still counts. */
  raw?: string;
  context?: { file?: string; line?: number; text?: string };
  force?: boolean;
  /** Re-mine even when the turn cache holds an answer (re-deliberating a stale receipt). */
  fresh?: boolean;
}

export interface RunHooks {
  signingKey: SigningKey;
  signal: AbortSignal;
  onProgress: (e: ProgressEvent) => void;
  onLog?: (line: string) => void;
  history?: HistoryIndexOptions;
  /** Where discovery and docs-index snapshots are kept between sessions (the user's cache folder). */
  corpusCache?: CorpusCacheOptions;
  /** A rules-only run that writes nothing and reads no cache: the egress preview's retrieval. */
  preview?: boolean;
}

export function buildDeliberateRequest(req: DeliberationRequest, settings: Settings, hooks: RunHooks): DeliberateRequest {
  const sources = toDecisionSources(settings, req.folder.uri.fsPath);
  return {
    repo: req.folder.uri.fsPath,
    question: req.question,
    ...(req.context ? { context: req.context } : {}),
    config: toDeliberationConfig(settings),
    external: toExternalSources(settings),
    // The raw comment keeps its decision tag ("TODO(decide): …"), the author's explicit signal.
    ...(req.raw !== undefined ? { classifyText: req.raw } : {}),
    force: !!req.force,
    ...(hooks.preview ? { writeReceipt: false, useCache: false } : {}),
    ...(req.fresh ? { useCache: false } : {}),
    signingKey: hooks.signingKey,
    signal: hooks.signal,
    onProgress: hooks.onProgress,
    ...(hooks.onLog ? { onLog: hooks.onLog } : {}),
    ...(hooks.history ? { history: hooks.history } : {}),
    ...(hooks.corpusCache ? { corpusCache: hooks.corpusCache } : {}),
    ...(sources ? { sources } : {}),
  };
}

