// The guard's matching runs on its caller's thread: the CLI's, the MCP server's worker, the extension host's (on
// every save). So it gives the event loop a turn every few milliseconds (the host answers meanwhile, and a
// cancellation is seen), and it stops at the check's deadline: what was not matched by then is reported as cut,
// like the line budget's cut (`limits.truncated`, `limits.timed_out`, a note, and each unmatched file as skipped).
import { throwIfCancelled } from "../cancel";

/** The whole check's time budget by default: reading the change and the decisions, then matching. */
export const CHECK_TIME_BUDGET_MS = 30_000;

/** How long the matching runs before it gives the event loop a turn. */
const SLICE_MS = 20;

export class Pacer {
  private last = performance.now();
  private spent = false;

  constructor(
    /** performance.now() at which the check's time is up. */
    readonly deadline: number,
    private readonly signal?: AbortSignal,
  ) {}

  /** True when a slice has passed: time for `turn`. Cheap enough to ask on every line. */
  due(): boolean {
    return performance.now() - this.last >= SLICE_MS;
  }

  /** True once the deadline has passed. */
  out(): boolean {
    this.spent ||= performance.now() >= this.deadline;
    return this.spent;
  }

  /** Gives the event loop a turn; throws the cancellation when the signal was aborted meanwhile. True when the time is up. */
  async turn(): Promise<boolean> {
    await new Promise<void>((resume) => setImmediate(resume));
    throwIfCancelled(this.signal);
    this.last = performance.now();
    return this.out();
  }
}
