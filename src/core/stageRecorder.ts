// One owner for what every stage does around its work: the progress start and done events, the timing, the
// stages record the receipt carries, and the abort check after each stage.
import { throwIfCancelled } from "./cancel";
import type { StageStatus } from "./schemas";
import type { StageName } from "./stages";
import type { ProgressListener } from "./types";

/** A stage's outcome without its timing, which the recorder measures. */
export type StageOutcome = Omit<StageStatus, "ms">;

export class StageRecorder {
  readonly stages: Partial<Record<StageName, StageStatus>> = {};

  constructor(
    private readonly progress: ProgressListener,
    private readonly signal: AbortSignal,
  ) {}

  /**
   * Runs one stage: reports its start, times it, records `describe(result)`, reports its end, then stops if the
   * deliberation was cancelled meanwhile.
   */
  async run<T>(name: StageName, work: () => T | Promise<T>, describe: (result: T) => StageOutcome, opts: { announce?: boolean } = {}): Promise<T> {
    if (opts.announce !== false) this.progress({ stage: name, state: "start" });
    const started = performance.now();
    const result = await work();
    this.record(name, describe(result), performance.now() - started);
    throwIfCancelled(this.signal);
    return result;
  }

  /** Records a stage measured elsewhere (an expert's own clock, an aggregate) and reports it done. */
  record(name: StageName, outcome: StageOutcome, ms: number, opts: { report?: boolean } = {}): StageStatus {
    const status: StageStatus = { ...outcome, ms: round1(ms) };
    this.stages[name] = status;
    if (opts.report !== false) {
      this.progress({ stage: name, state: "done", status: status.status, ms: status.ms, count: status.count, ...(status.reason ? { reason: status.reason } : {}) });
    }
    return status;
  }

  /** Reports a stage's end without recording it in the receipt (the cache hit, the receipt write itself). */
  announceDone(name: StageName, status: StageStatus["status"], ms?: number, count?: number): void {
    this.progress({ stage: name, state: "done", status, ...(ms !== undefined ? { ms: round1(ms) } : {}), ...(count !== undefined ? { count } : {}) });
  }

  /** The stages record as the receipt stores it. */
  snapshot(): Record<string, StageStatus> {
    return { ...this.stages } as Record<string, StageStatus>;
  }
}

export function round1(n: number): number {
  return Math.round(n * 10) / 10;
}
