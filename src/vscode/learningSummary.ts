// The sidebar's view of learning from picks: per workspace folder, the agreement rate of counted operator picks and
// the weights fusion currently ranks with. Recomputed (in the heavy bundle) after the receipt index reloads, so a
// pick shows up in the summary row without a refresh.
import * as vscode from "vscode";
import type { LearningSummary } from "../core/learning/load";
import { readSettings } from "./config";
import { loadHeavyBundle } from "./loadHeavyBundle";
import type { Log } from "./log";
import type { ReceiptIndex } from "./receiptIndex";

export interface FolderLearning extends LearningSummary {
  folder: string;
}

export class LearningSummaries implements vscode.Disposable {
  private current: FolderLearning[] | undefined;
  private running: Promise<void> | undefined;
  private dirty = true;
  private readonly changed = new vscode.EventEmitter<void>();
  private readonly disposables: vscode.Disposable[] = [this.changed];
  readonly onDidChange = this.changed.event;

  constructor(
    index: ReceiptIndex,
    private readonly log: Log,
    private readonly ownPublicKey?: () => Promise<string | undefined>,
  ) {
    this.disposables.push(
      index.onDidChange(() => {
        this.dirty = true;
        this.schedule();
      }),
    );
  }

  /** The last computed summaries (undefined until the first is ready); starts a recompute when out of date. */
  get(): FolderLearning[] | undefined {
    this.schedule();
    return this.current;
  }

  private schedule(): void {
    if (!this.dirty || this.running) return;
    this.dirty = false;
    this.running = this.compute()
      .catch((err) => this.log.warn(`learned weights could not be computed: ${String(err)}`))
      .finally(() => {
        this.running = undefined;
        this.changed.fire();
        if (this.dirty) this.schedule();
      });
  }

  private async compute(): Promise<void> {
    const own = await this.ownPublicKey?.().catch(() => undefined);
    const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === "file");
    this.current = await Promise.all(
      folders.map(async (f) => ({ folder: f.name, ...(await loadHeavyBundle().learningSummary(f.uri.fsPath, readSettings(f).receiptsFolder, own)) })),
    );
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}

function times(w: number): string {
  return `${w.toFixed(2)}×`;
}

/** The summary row's short text: agreement and the learned weights that moved most (e.g. "ADRs 1.28×"). */
export function learningDescription(all: FolderLearning[] | undefined): string | undefined {
  const counted = all?.filter((f) => f.counted > 0) ?? [];
  if (counted.length === 0) return undefined;
  const first = counted[0];
  const rate = first.agreement_rate === null ? "" : `agreement ${Math.round(first.agreement_rate * 100)}%`;
  const moved = first.sources.filter((s) => s.weight !== 1).sort((a, b) => Math.abs(Math.log(b.weight)) - Math.abs(Math.log(a.weight)) || a.source.localeCompare(b.source));
  const weights = moved.slice(0, 2).map((s) => `${s.label} ${times(s.weight)}`);
  return [rate, ...weights].filter(Boolean).join(" · ") + (counted.length > 1 ? ` (${first.folder})` : "");
}

/** The tooltip section: per folder, the counted picks, agreement and every weight. */
export function learningMarkdown(all: FolderLearning[] | undefined): string {
  if (!all) return "\n\n**Learned weights**: computing…";
  return all
    .map((f) => {
      const rate = f.agreement_rate === null ? "n/a" : `${Math.round(f.agreement_rate * 100)}%`;
      const head = `\n\n**Learned from picks${all.length > 1 ? ` — ${f.folder}` : ""}**: ${f.counted} pick(s) counted, ${f.ignored} receipt(s) ignored, agreement ${rate}${f.reset_at ? ` (since reset ${f.reset_at})` : ""}`;
      const rows = f.sources.map((s) => `${s.label} ${times(s.weight)}`).join(" · ");
      const paths = f.synthesis.map((p) => `${p.path} ${times(p.weight)}`).join(" · ");
      return `${head}\n\nSources: ${rows}\n\nSynthesis: ${paths}`;
    })
    .join("");
}
