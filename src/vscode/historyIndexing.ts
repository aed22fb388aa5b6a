// The git history index from the editor: built in the background on first need, with a cancellable notification
// ("Indexing history: 12,000 / 47,000 commits"); until it is ready each question indexes the history for itself
// under the git budget (core/internal/git.ts). A build the
// user cancelled is not restarted this session.
import * as vscode from "vscode";
import type { BackgroundBuild, BuildProgress, HistoryIndexOptions } from "../core/internal/history";
import { oneLine } from "../core/text";
import { describeBuildProgress } from "../shared/indexProgress";
import type { Log } from "./log";

export class HistoryIndexing {
  /** History index builds with a notification on screen, by repository. */
  private readonly indexing = new Set<string>();
  /** Folders whose history indexing the user cancelled: not restarted this session. */
  private readonly cancelled = new Set<string>();

  constructor(private readonly log: Log) {}

  /** The history options of a deliberation in `folder`. */
  options(folder: vscode.WorkspaceFolder): HistoryIndexOptions {
    const key = folder.uri.fsPath;
    return {
      build: this.cancelled.has(key) ? "none" : "background",
      onBackgroundBuild: (build) => this.show(key, build),
      log: (line) => this.log.info(line),
    };
  }

  private show(key: string, build: BackgroundBuild): void {
    if (this.indexing.has(build.toplevel)) return;
    this.indexing.add(build.toplevel);
    this.log.info(`indexing the git history of ${build.toplevel} in the background`);
    void vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: "Deliberative Search", cancellable: true }, async (progress, token) => {
      const sub = token.onCancellationRequested(() => {
        this.cancelled.add(key);
        build.cancel();
      });
      progress.report({ message: "Indexing history…" });
      const off = build.onProgress(percentReporter(progress));
      try {
        const r = await build.done;
        if (r.action === "built") this.log.info(`history index built: ${r.added} commits in ${(r.ms / 1000).toFixed(1)} s`);
        else if (r.action === "busy") this.log.info("history index: another process is building it");
      } catch (err) {
        if (token.isCancellationRequested) this.log.info("history indexing cancelled; each deliberation indexes the history for itself under the git budget");
        else this.log.warn(`history indexing failed: ${oneLine(err)}`);
      } finally {
        off();
        sub.dispose();
        this.indexing.delete(build.toplevel);
      }
    });
  }
}

/** Progress lines, with the bar advanced by the share of commits indexed. */
function percentReporter(progress: vscode.Progress<{ message?: string; increment?: number }>): (p: BuildProgress) => void {
  let last = 0;
  return (p) => {
    const pct = p.phase === "commits" && p.total ? Math.floor((100 * p.done) / p.total) : undefined;
    const increment = pct !== undefined && pct > last ? pct - last : undefined;
    if (pct !== undefined) last = Math.max(last, pct);
    progress.report({ message: describeBuildProgress(p), ...(increment ? { increment } : {}) });
  };
}
