// The per-deliberation circuit breaker in front of a ChatModel. A deliberation makes at most two model calls (plan,
// synthesis); the client retries 429/5xx a bounded number of times per call. Without a breaker a failing endpoint
// got the full retry budget twice. With it:
//  - all calls of one deliberation share one budget of HTTP attempts (default 3, retries and downgrades included);
//  - once a call has failed at the endpoint (transport or HTTP failure, after its retries), the circuit opens and
//    every later call fails at once with the same classified kind, without a request (`extra.notCalled`), so the
//    receipt records the failure once — on the call that made it.
// Answers that arrive but are unusable (truncated, invalid or schema-invalid JSON) do not open the circuit: the
// endpoint works, and the next call may well succeed.
import type { ChatModel, ChatRequest, ChatResult } from "./client";
import { ModelError, asModelError, type ModelErrorKind } from "./errors";

export const DEFAULT_MAX_ATTEMPTS_PER_DELIBERATION = 3;

/** Failures that mean the endpoint itself is unusable for now. */
const ENDPOINT_FAILURES: ReadonlySet<ModelErrorKind> = new Set([
  "connection-refused",
  "network-error",
  "timeout",
  // A body past the cap is an endpoint streaming or looping, not one bad answer: the next call would do the same.
  "too-large",
  "auth",
  "rate-limited",
  "server-error",
  "http-error",
]);

export interface CircuitBreakerState {
  attemptsUsed: number;
  maxAttempts: number;
  /** The failure that opened the circuit. */
  openedBy?: ModelError;
}

export interface BrokenChatModel extends ChatModel {
  readonly breaker: Readonly<CircuitBreakerState>;
}

export function withCircuitBreaker(model: ChatModel, maxAttempts = DEFAULT_MAX_ATTEMPTS_PER_DELIBERATION): BrokenChatModel {
  const state: CircuitBreakerState = { attemptsUsed: 0, maxAttempts: Math.max(1, Math.floor(maxAttempts)) };
  const refuse = (kind: ModelErrorKind, detail: string) => new ModelError(kind, detail, { notCalled: true, attempts: 0 });
  return {
    id: model.id,
    ...(model.endpointHost ? { endpointHost: model.endpointHost } : {}),
    breaker: state,
    async complete(req: ChatRequest): Promise<ChatResult> {
      if (state.openedBy) {
        throw refuse(state.openedBy.kind, `${state.openedBy.detail} (circuit open: an earlier call of this deliberation failed this way; the model was not called again)`);
      }
      const left = state.maxAttempts - state.attemptsUsed;
      if (left <= 0) throw refuse("attempt-budget", `the ${state.maxAttempts} HTTP attempts this deliberation may make were used by earlier calls; the model was not called again`);
      try {
        const res = await model.complete({ ...req, maxAttempts: Math.min(left, req.maxAttempts ?? Infinity) });
        state.attemptsUsed += Math.max(1, res.attempts ?? 1);
        return res;
      } catch (err) {
        const e = asModelError(err);
        state.attemptsUsed += Math.max(1, e.extra.attempts ?? 1);
        if (ENDPOINT_FAILURES.has(e.kind)) state.openedBy = e;
        throw err;
      }
    },
  };
}
