// Model-mediated planning and synthesis: the public surface for the CLI and the VS Code extension.
import type { QueryPlanner, Synthesizer } from "../types";
import { withCircuitBreaker } from "./breaker";
import type { ChatModel } from "./client";
import { createModelPlanner } from "./planner";
import { createModelSynthesizer } from "./synthesizer";
import { createModelCritic, type ModelCritic } from "../critic/model";

export * from "./client";
export { withCircuitBreaker, DEFAULT_MAX_ATTEMPTS_PER_DELIBERATION, type BrokenChatModel, type CircuitBreakerState } from "./breaker";
export * from "./errors";
export { describeEgress, type EgressRequest, type EgressSummary } from "./egress";
export { modelOptionsFromCli, describeModelConfig, ModelConfigError, DEFAULT_OPENAI_BASE_URL, type CliModelConfig, type CliModelFlags } from "./fromEnv";
export { createModelPlanner, deriveKeywords, mergePlan, type ModelPlannerOptions } from "./planner";
export { createModelSynthesizer, buildModelDraft, type ModelSynthesizerOptions } from "./synthesizer";
export { DEFAULT_EVIDENCE_TOKEN_BUDGET, selectEvidence, approxTokens } from "./prompt";
export { createStreamingChatModel, type TextStreamSource, type StreamMessage } from "./streamAdapter";

export interface ModelStackOptions {
  /** Plan-first retrieval (one extra call). Default true. */
  plan?: boolean;
  keepInternalLocal?: boolean;
  evidenceTokenBudget?: number;
  /** HTTP attempts the whole deliberation may make (plan + synthesis, retries included). Default 3. */
  maxAttempts?: number;
  /** The model Critic (critic/model.ts): one adversarial call after synthesis. Default false. */
  critic?: boolean;
}

/**
 * The planner + synthesizer pair for ONE `deliberate({ planner, synthesizer })`: at most two model calls (one
 * plan, one synthesis) sharing one circuit breaker — at most 3 HTTP attempts in all, and no call after one has
 * failed at the endpoint. With `critic`, the model Critic shares the same breaker: plan, synthesis and critic
 * are 3 calls, and the revision round happens only when an attempt is left (planning off). Make a new stack per deliberation. With `plan: false` the planner is left undefined (the
 * rules planner runs).
 */
export function createModelStack(chat: ChatModel, opts: ModelStackOptions = {}): { planner?: QueryPlanner; synthesizer: Synthesizer; critic?: ModelCritic } {
  const model = withCircuitBreaker(chat, opts.maxAttempts);
  return {
    ...(opts.plan === false ? {} : { planner: createModelPlanner(model, { keepInternalLocal: opts.keepInternalLocal }) }),
    ...(opts.critic ? { critic: createModelCritic(model, { keepInternalLocal: opts.keepInternalLocal }) } : {}),
    synthesizer: createModelSynthesizer(model, { keepInternalLocal: opts.keepInternalLocal, evidenceTokenBudget: opts.evidenceTokenBudget }),
  };
}
