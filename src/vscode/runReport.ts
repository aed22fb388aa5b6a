// What a deliberation tells the user while it runs and after: the progress notification's line per stage, each
// stage's status and timing in the log, the model calls, and a fallback to the rules path (a warning when the model
// failed, with "Set API Key" when the endpoint refused the key). Stage wording comes from core's stages.ts and
// fallbacks are read by kind (core's fallback.ts), never from message text.
import * as vscode from "vscode";
import { fallbackOf, describeFallback, isModelFailure, planFallbackOf } from "../core/fallback";
import type { Receipt } from "../core/schemas";
import { stageRunningLabel } from "../core/stages";
import type { ProgressEvent } from "../core/types";
import { SECTION } from "./constants";
import type { Log } from "./log";

/** The notification's line for a progress event: what the stage is doing while it runs, and a cache hit. */
export function describeProgress(e: ProgressEvent): string | undefined {
  if (e.state === "start") return `${stageRunningLabel(e.stage)}…`;
  if (e.stage === "cache") return stageRunningLabel(e.stage);
  return undefined;
}

/** One log line per finished stage. */
export function logProgress(log: Log, e: ProgressEvent): void {
  if (e.state !== "done") return;
  const parts = [`stage ${e.stage}: ${e.status ?? "done"}`];
  if (e.count !== undefined) parts.push(`${e.count} item(s)`);
  if (e.ms !== undefined) parts.push(`${e.ms.toFixed(1)} ms`);
  log.info(parts.join(" · ") + (e.reason ? ` — ${e.reason}` : ""));
}

/** The receipt's summary and every stage it records, in the log. */
export function logReceipt(log: Log, r: Receipt, cached: boolean, ms: number): void {
  const rec = r.payload.recommendation;
  log.info(`${cached ? "cache hit" : "done"} in ${ms} ms: receipt ${r.receipt_id}, ${r.payload.options.length} options, recommendation ${rec.option_id} (${rec.confidence})`);
  for (const [name, s] of Object.entries(r.stages)) {
    log.info(`  stage ${name}: ${s.status} · ${s.count} · ${s.ms} ms${s.truncated ? " · truncated" : ""}${s.reason ? ` — ${s.reason}` : ""}`);
  }
}

/**
 * Each model call's purpose, latency, tokens and outcome (never the key), and any fallback, in the log. `provider`
 * is the model this run used (undefined: rules only, or a cached turn).
 */
export function reportModel(log: Log, r: Receipt, cached: boolean, provider: "openai" | "vscode-lm" | undefined): void {
  const from = cached ? " (from the cached turn)" : "";
  for (const c of r.synthesis.calls ?? []) {
    const tokens = c.prompt_tokens !== undefined || c.completion_tokens !== undefined ? `${c.prompt_tokens ?? "?"} prompt + ${c.completion_tokens ?? "?"} completion tokens` : "tokens not reported";
    log.info(`  model call ${c.purpose}${from}: ${c.ms} ms · ${tokens} · ${c.outcome}`);
  }
  if (r.synthesis.mode === "model") {
    log.info(`  synthesis: model ${r.synthesis.model ?? "?"}${r.synthesis.endpoint_host ? ` at ${r.synthesis.endpoint_host}` : ""}${from}`);
  }
  if (cached || !provider) return;
  const plan = r.plan?.mode !== "model" ? planFallbackOf(r.stages.plan) : undefined;
  if (plan) log.warn(`  plan: the model's plan was not used — ${describeFallback(plan)}`);
  const fallback = fallbackOf(r.synthesis);
  if (!fallback) return;
  const text = describeFallback(fallback);
  if (!isModelFailure(fallback)) {
    log.info(`  synthesis: rules — ${text}`);
    return;
  }
  log.warn(`  synthesis fell back to the rules synthesizer — ${text}`);
  const offerKey = fallback.kind === "auth" && provider === "openai";
  void vscode.window
    .showWarningMessage(`Deliberative Search: the model call failed (${text.slice(0, 240)}). The rules synthesizer answered; the receipt records why.`, ...(offerKey ? ["Set API Key"] : []), "Show Log")
    .then((choice) => {
      if (choice === "Set API Key") void vscode.commands.executeCommand(`${SECTION}.setApiKey`);
      else if (choice === "Show Log") log.show();
    });
}
