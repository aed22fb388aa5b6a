// The model settings as the model code reads them, with `offline` applied. Pure and zod-free: the activation path
// (deliberating) and the heavy bundle (models.ts) both use it.
import type { ModelProvider } from "./constants";
import type { Settings } from "./settingsSchema";

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
  /** The model Critic: one more adversarial call after synthesis (the rules Critic always runs). */
  critic: boolean;
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
    critic: s.modelCritic,
  };
}
