// The data of the picker's "What changed since <date>" panel: the receipt on screen compared (core/receipts/diff.ts)
// with the latest earlier receipt of the same question (same question_hash) in the same folder. Undefined when
// there is none. Evidence files are read when they can be, for naming the stage behind each citation.
import type * as vscode from "vscode";
import type { ReceiptDiff } from "../core/receipts/diff";
import type { Receipt } from "../core/schemas";
import { stageTitle } from "../core/stages";
import type { ChangesModel, ChangedCitation } from "../shared/protocol";
import { loadHeavyBundle } from "./loadHeavyBundle";
import type { ReceiptIndex } from "./receiptIndex";

function changed(c: ReceiptDiff["citations"]["added"][number]): ChangedCitation {
  return { location: c.location, ...(c.title ? { title: c.title } : {}), source: `${stageTitle(c.stage)}${c.source_type ? ` · ${c.source_type}` : ""}` };
}

/** The panel's lines for what moved the recommendation. */
function movedLines(d: ReceiptDiff): string[] {
  const lines = d.moved_by.map((m) => {
    const parts = [
      ...m.for_after.map((c) => `${c.location} now supports “${d.after.recommendation.title}”`),
      ...m.lost_before.map((c) => `${c.location} no longer supports “${d.before.recommendation.title}”`),
    ];
    return `${m.title}: ${parts.join("; ")}`;
  });
  if (d.note) lines.push(d.note);
  return lines;
}

export function changesModel(d: ReceiptDiff, receiptId: string): ChangesModel {
  return {
    receiptId,
    earlierReceiptId: d.before.receipt_id,
    since: d.before.created_at,
    recommendation: {
      before: d.before.recommendation.title,
      after: d.after.recommendation.title,
      changed: d.recommendation.changed,
      confidenceBefore: d.before.recommendation.confidence,
      confidenceAfter: d.after.recommendation.confidence,
    },
    citationsAdded: d.citations.added.map(changed),
    citationsRemoved: d.citations.removed.map(changed),
    optionsAdded: d.options.added.map((o) => o.title),
    optionsRemoved: d.options.removed.map((o) => o.title),
    optionsRenamed: d.options.renamed.map((r) => ({ before: r.before.title, after: r.after.title })),
    movedBy: movedLines(d),
  };
}

export async function changesFor(index: ReceiptIndex, folder: vscode.WorkspaceFolder, receiptsDir: string, receipt: Receipt): Promise<ChangesModel | undefined> {
  await index.ensureLoaded();
  const earlier = index.earlierReceipts(folder, receipt)[0]?.receipt;
  if (!earlier) return undefined;
  const { diffReceipts, readEvidence } = loadHeavyBundle();
  const repo = folder.uri.fsPath;
  const [first, second] = await Promise.all([earlier, receipt].map((r) => readEvidence(repo, r.evidence_ref, receiptsDir).catch(() => undefined)));
  return changesModel(diffReceipts(earlier, receipt, { first, second }), receipt.receipt_id);
}
