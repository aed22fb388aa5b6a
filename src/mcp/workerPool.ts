// Where the MCP server runs `deliberate` and `check_change`: a small pool of worker threads (src/mcp/worker.ts). A
// deliberation can take long, and parts of it are synchronous, as is the guard's matching of a large change against
// many decisions; in a worker neither holds the server's message loop, so list_receipts, get_receipt and record_pick
// are answered meanwhile. Cancelling a call (notifications/cancelled, a client-side
// timeout), the end of stdin and shutdown first ask the run to stop through its AbortSignal and, when it does not
// within a short grace period (it is busy in synchronous code), terminate its thread: no core keeps spinning for a
// client that is gone. Idle workers are kept for the next call (their caches stay warm, a background history build
// goes on); a terminated one is replaced on demand.
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { CancellationError, cancellationOf } from "../core/cancel";
import { oneLine } from "../core/text";
import type { CheckJob, CheckRunner } from "./checkTool";
import type { DeliberationDone, DeliberationJob, DeliberationRunner } from "./deliberateTool";
import type { McpLog } from "./log";
import { ToolInputError, type ToolResult } from "./toolResult";
import type { WarmJob, WarmReport } from "./warm";
import type { FromWorker, ToWorker } from "./worker";

/** How long a cancelled run may take to notice its AbortSignal before its thread is terminated. */
export const CANCEL_GRACE_MS = 500;

export interface WorkerPoolOptions {
  /** A CommonJS module exporting `mcpWorkerMain` (the CLI bundle, or the extension's dist/mcpWorker.js). */
  entry: string;
  env: NodeJS.ProcessEnv;
  log: McpLog;
  /** At most this many calls run at once (each in its own thread; a check_change may use one more); more wait their turn. */
  maxWorkers?: number;
}

/** A job as the worker takes it, without its id. */
type Job = { type: "run"; job: DeliberationJob } | { type: "check"; job: CheckJob };

export class DeliberationWorkers implements DeliberationRunner, CheckRunner {
  private readonly idle: Worker[] = [];
  private readonly busy = new Set<Worker>();
  private readonly waiting: { take: (w: Worker) => void; fail: (err: Error) => void }[] = [];
  private readonly runs = new Set<Promise<unknown>>();
  private readonly terminating = new Set<Promise<unknown>>();
  private readonly shutdown = new AbortController();
  private readonly max: number;
  private nextId = 1;

  constructor(private readonly options: WorkerPoolOptions) {
    this.max = options.maxWorkers ?? Math.max(2, Math.min(4, availableParallelism()));
  }

  /**
   * Starts one idle worker ahead of the first call, so that call does not also pay for loading the pipeline; with a
   * job, that worker also loads each repository's corpus and history index (warm.ts). Resolves with the warm-up's
   * report when it is done (undefined without a job, or when no worker was started or it stopped first).
   */
  prewarm(job?: WarmJob): Promise<WarmReport | undefined> {
    if (this.shutdown.signal.aborted || this.idle.length + this.busy.size > 0) return Promise.resolve(undefined);
    const worker = this.spawn();
    this.idle.push(worker);
    if (!job) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const onMessage = (m: FromWorker) => {
        if (m.type !== "warmed") return;
        worker.off("exit", onExit);
        worker.off("message", onMessage);
        resolve(m.report);
      };
      const onExit = () => {
        worker.off("message", onMessage);
        resolve(undefined);
      };
      worker.on("message", onMessage);
      worker.once("exit", onExit);
      worker.postMessage({ type: "warm", job } satisfies ToWorker);
    });
  }

  /** Threads alive now (idle or busy): what tests and the log look at. */
  get threads(): number {
    return this.idle.length + this.busy.size;
  }

  run(job: DeliberationJob, signal: AbortSignal, reportProgress?: (message: string) => void): Promise<DeliberationDone> {
    return this.submit({ type: "run", job }, signal, reportProgress);
  }

  /** A check_change call: the same threads, queue, cancellation and shutdown as a deliberation. */
  async check(job: CheckJob, signal: AbortSignal): Promise<ToolResult> {
    return (await this.submit({ type: "check", job }, signal)).result;
  }

  private submit(job: Job, signal: AbortSignal, reportProgress?: (message: string) => void): Promise<DeliberationDone> {
    const stop = AbortSignal.any([signal, this.shutdown.signal]);
    // A check may start one thread beyond the limit: it is short, and must not wait behind deliberations that take minutes.
    const run = this.acquire(stop, job.type === "check" ? 1 : 0).then((worker) => this.runOn(worker, job, stop, reportProgress));
    this.runs.add(run);
    const forget = () => this.runs.delete(run);
    run.then(forget, forget);
    return run;
  }

  /**
   * Cancels every run (each gets its grace period, then its thread is terminated), terminates the idle workers and
   * refuses new runs. Resolves when every thread is gone.
   */
  async stop(): Promise<void> {
    this.shutdown.abort(new CancellationError("the MCP server is shutting down"));
    for (const w of this.waiting.splice(0)) w.fail(cancellationOf(this.shutdown.signal));
    await Promise.allSettled([...this.runs]);
    for (const w of this.idle.splice(0)) this.terminate(w);
    await Promise.allSettled([...this.terminating]);
  }

  private terminate(worker: Worker): void {
    const ended = worker.terminate().finally(() => this.terminating.delete(ended));
    this.terminating.add(ended);
  }

  private spawn(): Worker {
    const worker = new Worker(`require(${JSON.stringify(this.options.entry)}).mcpWorkerMain();`, {
      eval: true,
      env: this.options.env,
      // stdout carries JSON-RPC only: whatever the worker writes there goes to the log.
      stdout: true,
    });
    worker.stdout.on("data", (d: Buffer) => this.options.log(`worker: ${d.toString("utf8")}`));
    worker.on("message", (m: FromWorker) => {
      if (m.type === "log") this.options.log(m.line);
    });
    worker.on("error", (err) => this.options.log(`deliberation worker failed: ${oneLine(err)}`));
    worker.once("exit", () => {
      const i = this.idle.indexOf(worker);
      if (i >= 0) this.idle.splice(i, 1);
    });
    // The server's lifetime is its connection's: an idle worker never keeps the process alive by itself.
    worker.unref();
    return worker;
  }

  private acquire(signal: AbortSignal, beyondMax = 0): Promise<Worker> {
    if (signal.aborted) return Promise.reject(cancellationOf(signal));
    const ready = this.idle.pop() ?? (this.threads < this.max + beyondMax ? this.spawn() : undefined);
    if (ready) {
      this.busy.add(ready);
      return Promise.resolve(ready);
    }
    return new Promise<Worker>((resolve, reject) => {
      const entry = {
        take: (w: Worker) => {
          signal.removeEventListener("abort", onAbort);
          this.busy.add(w);
          resolve(w);
        },
        fail: (err: Error) => {
          signal.removeEventListener("abort", onAbort);
          reject(err);
        },
      };
      const onAbort = () => {
        const i = this.waiting.indexOf(entry);
        if (i >= 0) this.waiting.splice(i, 1);
        reject(cancellationOf(signal));
      };
      signal.addEventListener("abort", onAbort, { once: true });
      this.waiting.push(entry);
    });
  }

  /** A worker is free again (kept) or gone (terminated): the next waiting call gets it, or a new thread. */
  private release(worker: Worker, keep: boolean): void {
    this.busy.delete(worker);
    if (!keep) this.terminate(worker);
    const next = this.waiting.shift();
    if (!next) {
      if (keep && !this.shutdown.signal.aborted) this.idle.push(worker);
      else if (keep) this.terminate(worker);
      return;
    }
    next.take(keep ? worker : this.spawn());
  }

  private runOn(worker: Worker, job: Job, stop: AbortSignal, reportProgress?: (message: string) => void): Promise<DeliberationDone> {
    const id = this.nextId++;
    return new Promise<DeliberationDone>((resolve, reject) => {
      let grace: NodeJS.Timeout | undefined;
      let settled = false;
      const finish = (keep: boolean) => {
        settled = true;
        clearTimeout(grace);
        worker.off("message", onMessage);
        worker.off("exit", onExit);
        stop.removeEventListener("abort", onAbort);
        this.release(worker, keep);
      };
      const onMessage = (m: FromWorker) => {
        if (settled || m.type === "log" || m.type === "warmed" || m.id !== id) return;
        if (m.type === "progress") {
          reportProgress?.(m.message);
        } else if (m.type === "done") {
          finish(true);
          resolve(m.done);
        } else {
          finish(true);
          reject(m.kind === "cancelled" ? new CancellationError() : m.kind === "input" ? new ToolInputError(m.message) : new Error(m.message));
        }
      };
      const onExit = (code: number) => {
        if (settled) return;
        finish(false);
        reject(stop.aborted ? cancellationOf(stop) : new Error(`the deliberation worker stopped (exit code ${code})`));
      };
      const onAbort = () => {
        worker.postMessage({ type: "cancel", id } satisfies ToWorker);
        // A run busy in synchronous code never sees its signal: past the grace period its thread is stopped.
        grace = setTimeout(() => {
          if (settled) return;
          this.options.log(`${job.type === "check" ? "check_change" : "deliberate"}: the run did not stop within ${CANCEL_GRACE_MS} ms of its cancellation; its worker thread was terminated`);
          finish(false);
          reject(cancellationOf(stop));
        }, CANCEL_GRACE_MS);
      };
      worker.on("message", onMessage);
      worker.once("exit", onExit);
      if (stop.aborted) onAbort();
      else stop.addEventListener("abort", onAbort, { once: true });
      worker.postMessage({ ...job, id } satisfies ToWorker);
    });
  }
}
