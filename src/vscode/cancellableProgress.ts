// A cancellable progress notification whose Cancel button aborts an AbortSignal with core's CancellationError, so
// the pipeline, the model client and the history index all stop the same way, and the caller recognises the stop
// with `isCancellation`.
import * as vscode from "vscode";
import { cancellationController, cancellationOf } from "../core/cancel";

export type Report = (message: string | undefined) => void;

export function withCancellableProgress<T>(title: string, work: (report: Report, signal: AbortSignal) => Promise<T>): Thenable<T> {
  return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, async (progress, token) => {
    const { signal, cancel } = cancellationController();
    const sub = token.onCancellationRequested(() => cancel(`${title} cancelled`));
    const report: Report = (message) => {
      if (message) progress.report({ message });
    };
    try {
      return await work(report, signal);
    } catch (err) {
      // Whatever a step threw while being stopped, the caller sees the cancellation.
      if (signal.aborted) throw cancellationOf(signal);
      throw err;
    } finally {
      sub.dispose();
    }
  });
}
