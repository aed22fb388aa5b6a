// One cancellation error for the whole product. The pipeline, the model client, the history index, the CLI and
// the extension all throw and recognise this one, by type, never by message text.

export class CancellationError extends Error {
  readonly cancelled = true;
  constructor(message = "cancelled") {
    super(message);
    // The conventional name keeps libraries that check `name === "AbortError"` treating it as an abort.
    this.name = "AbortError";
  }
}

/** True for our cancellation, an AbortSignal's own abort error, or an error thrown while the given signal was aborted. */
export function isCancellation(err: unknown, signal?: AbortSignal): boolean {
  if (signal?.aborted) return true;
  if (err instanceof CancellationError) return true;
  return err instanceof Error && (err.name === "AbortError" || (err as { cancelled?: unknown }).cancelled === true);
}

/** What to throw when `signal` was aborted: its reason when that is a cancellation, else a CancellationError. */
export function cancellationOf(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error && isCancellation(reason) ? reason : new CancellationError();
}

/** Throws the cancellation when `signal` is aborted. */
export function throwIfCancelled(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw cancellationOf(signal);
}

/** An AbortController whose abort() reason is a CancellationError. */
export function cancellationController(): { signal: AbortSignal; cancel: (message?: string) => void } {
  const controller = new AbortController();
  return { signal: controller.signal, cancel: (message) => controller.abort(new CancellationError(message)) };
}
