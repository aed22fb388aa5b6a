// The deliberation worker: one worker thread of the MCP server's pool (src/mcp/workerPool.ts) runs one `deliberate`
// call (the core pipeline) or `check_change` call (the decision guard) at a time, so a long run (a slow model, a
// large repository, a slow match) never holds the server's message loop, and cancelling it can stop the thread outright. Only plain data crosses the
// thread boundary: the job in, progress, log lines and the rendered result (or a one-line error) out.
import { isMainThread, parentPort } from "node:worker_threads";
import { CancellationError, isCancellation } from "../core/cancel";
import { classifyQuestion } from "../core/classify";
import { defaultKeyDir, loadOrCreateKeyFile, type SigningKey } from "../core/receipts/signing";
import { oneLine } from "../core/text";
import { runCheck, type CheckJob } from "./checkTool";
import { runDeliberation, type DeliberationDone, type DeliberationJob } from "./deliberateTool";
import { keepStdoutForProtocol, type McpLog } from "./log";
import { isInputError } from "./toolResult";
import { warmUp, type WarmJob, type WarmReport } from "./warm";

export type ToWorker =
  | { type: "run"; id: number; job: DeliberationJob }
  | { type: "check"; id: number; job: CheckJob }
  | { type: "cancel"; id: number }
  | { type: "warm"; job: WarmJob };

/** How a run failed: bad input (shown as it is), cancelled, or anything else. */
export type FailureKind = "input" | "cancelled" | "failed";

export type FromWorker =
  | { type: "log"; line: string }
  | { type: "progress"; id: number; message: string }
  | { type: "warmed"; report: WarmReport }
  | { type: "done"; id: number; done: DeliberationDone }
  | { type: "failed"; id: number; kind: FailureKind; message: string };

/** The worker thread's whole program; the pool starts it with `require(entry).mcpWorkerMain()`. */
export function mcpWorkerMain(): void {
  const port = parentPort;
  if (isMainThread || !port) throw new Error("mcpWorkerMain runs in a worker thread of the MCP server");
  const post = (message: FromWorker) => port.postMessage(message);
  const log: McpLog = (line) => post({ type: "log", line });
  keepStdoutForProtocol(log);
  let key: SigningKey | undefined;
  const signingKey = () => (key ??= loadOrCreateKeyFile(defaultKeyDir(process.env)));
  const running = new Map<number, AbortController>();
  // A call that arrives while the worker warms up stops the warm-up's remaining steps and runs at once: it loads what
  // is still missing itself. Nothing the warm-up does writes anything or changes what a call computes (warm.ts), so
  // the step still in flight may finish beside it.
  const warming = new AbortController();

  const run = async (id: number, message: Extract<ToWorker, { type: "run" | "check" }>) => {
    const controller = new AbortController();
    running.set(id, controller);
    // A check needs no corpus or history index: the warm-up goes on beside it, for the deliberations to come.
    if (message.type === "run") warming.abort();
    try {
      const done: DeliberationDone =
        message.type === "check"
          ? { result: await runCheck(message.job, { env: process.env, signal: controller.signal }), wroteReceipt: false }
          : await runDeliberation(message.job, {
              env: process.env,
              log,
              signingKey,
              signal: controller.signal,
              reportProgress: (line) => post({ type: "progress", id, message: line }),
            });
      post({ type: "done", id, done });
    } catch (err) {
      const kind: FailureKind = isCancellation(err, controller.signal) ? "cancelled" : isInputError(err) ? "input" : "failed";
      post({ type: "failed", id, kind, message: oneLine(err) });
    } finally {
      running.delete(id);
    }
  };

  port.on("message", (message: ToWorker) => {
    if (message.type === "cancel") running.get(message.id)?.abort(new CancellationError());
    else if (message.type === "warm") {
      void warmUp(message.job, process.env, warming.signal).then(
        (report) => post({ type: "warmed", report }),
        (err: unknown) => post({ type: "warmed", report: { ms: 0, repos: [], error: oneLine(err) } }),
      );
    } else void run(message.id, message);
  });
  // The English parser loads on first use (~100 ms or more): load it while the worker is still idle, so the agent's
  // first question is not the slow one (a warm-up, when the server asks for one, loads it too).
  setTimeout(() => classifyQuestion("Should we use PostgreSQL or MongoDB for orders?"), 20).unref();
}
