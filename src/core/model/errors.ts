// Model failures, classified into a closed set so every receipt names exactly what went wrong, plus the secret
// scrubber every message passes through before it can reach a receipt, a log line or the user.

/**
 * The closed set of model-call failure classes. A receipt's `fallback_reason` and a ModelCall's `outcome` always
 * start with one of these, followed by ": " and a one-line detail.
 *
 * Transport:  connection-refused (nothing listening / connect failed), network-error (DNS, reset, TLS),
 *             timeout (no complete response, body included, within the per-attempt limit), too-large (the
 *             response body passed the size cap), aborted (the user cancelled).
 * HTTP:       auth (401/403), rate-limited (429 after bounded retries), server-error (5xx after bounded retries),
 *             http-error (any other 4xx, e.g. 404 for a wrong model name or base URL).
 * Output:     truncated (finish_reason "length"), invalid-json, schema-invalid,
 *             unknown-citations (every citation named an id the model was not given), uncited (no option cites
 *             any evidence).
 * Not called: no-evidence (nothing the model could cite was available to send, so no call was made). A call the
 *             circuit breaker stops (an earlier call of the same deliberation already failed at the endpoint) is
 *             reported with that earlier failure's kind and `extra.notCalled`, and leaves no ModelCall record;
 *             attempt-budget (the deliberation's HTTP attempts were used up by earlier calls that succeeded).
 */
export const MODEL_ERROR_KINDS = [
  "connection-refused",
  "network-error",
  "timeout",
  "too-large",
  "aborted",
  "auth",
  "rate-limited",
  "server-error",
  "http-error",
  "truncated",
  "invalid-json",
  "schema-invalid",
  "unknown-citations",
  "uncited",
  "no-evidence",
  "attempt-budget",
] as const;
export type ModelErrorKind = (typeof MODEL_ERROR_KINDS)[number];

export const AUTH_HINT = "check your API key / base URL";

export class ModelError extends Error {
  constructor(
    readonly kind: ModelErrorKind,
    /** One line, already scrubbed of secrets. */
    readonly detail: string,
    readonly extra: { status?: number; attempts?: number; notCalled?: boolean } = {},
  ) {
    super(`${kind}: ${detail}`);
    // Cancellation keeps the conventional name, so callers that check `name === "AbortError"` (the CLI's exit 130)
    // treat it like any other cancellation.
    this.name = kind === "aborted" ? "AbortError" : "ModelError";
  }
}

/** What to throw when the caller cancelled: the signal's own reason when it is an Error, else an aborted ModelError. */
export function abortError(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new ModelError("aborted", "cancelled");
}

const REDACTED = "[redacted]";

/**
 * Removes secrets from a message: the given secret strings (the API key), anything after "Bearer ", and
 * provider-style keys (sk-…, sk-proj-…). Applied to every error message and detail this module produces.
 */
export function scrubSecrets(text: string, secrets: readonly (string | undefined)[] = []): string {
  let out = text;
  for (const s of secrets) {
    if (!s || s.length < 4) continue;
    out = out.split(s).join(REDACTED);
  }
  out = out.replace(/(Bearer\s+)[^\s"',;]+/gi, `$1${REDACTED}`);
  out = out.replace(/\bsk-[A-Za-z0-9_-]{6,}/g, REDACTED);
  return out;
}

/** First line, bounded, scrubbed. */
export function oneLineScrubbed(text: string, secrets: readonly (string | undefined)[] = [], max = 240): string {
  const first = scrubSecrets(String(text), secrets).replace(/\s+/g, " ").trim();
  return first.length > max ? `${first.slice(0, max - 1)}…` : first;
}

export function isModelError(err: unknown): err is ModelError {
  return err instanceof ModelError;
}

/** Any thrown value as a classified ModelError (unknown errors become network-error with their message). */
export function asModelError(err: unknown, secrets: readonly (string | undefined)[] = []): ModelError {
  if (err instanceof ModelError) return err;
  if (err instanceof Error && err.name === "AbortError") return new ModelError("aborted", "cancelled");
  const message = err instanceof Error ? err.message : String(err);
  return new ModelError("network-error", oneLineScrubbed(message, secrets));
}
