// "Re-deliberate and Compare": runs a receipt's question again, bypassing the turn cache (its evidence changed, so
// the stored answer is exactly what is in question), and opens the picker on the new receipt, whose "What changed
// since <date>" panel compares it with the earlier one. Offered on stale receipts in the sidebar.
import * as vscode from "vscode";
import type { Deliberations } from "./deliberate";
import { contextAround } from "./prompts";
import type { IndexedReceipt, ReceiptIndex } from "./receiptIndex";
import type { DeliberationRequest } from "./request";

type ReceiptArg = { kind: "receipt"; entry: IndexedReceipt } | { folderUri: string; receiptId: string } | undefined;

export class Redeliberation {
  constructor(
    private readonly index: ReceiptIndex,
    private readonly deliberations: Deliberations,
  ) {}

  private async target(arg: unknown): Promise<IndexedReceipt | undefined> {
    await this.index.ensureLoaded();
    const a = arg as ReceiptArg;
    if (a && "kind" in a && a.kind === "receipt") return this.index.find(a.entry.folder, a.entry.receiptId) ?? a.entry;
    if (a && "receiptId" in a && typeof a.receiptId === "string") return this.index.find(String(a.folderUri), a.receiptId);
    await this.index.computeStaleness();
    const stale = this.index.all().filter((e) => e.receipt && e.stale);
    const candidates = stale.length ? stale : this.index.all().filter((e) => e.receipt && e.state !== "invalid");
    if (!candidates.length) {
      void vscode.window.showInformationMessage("Deliberative Search: there are no receipts to re-deliberate.");
      return undefined;
    }
    const picked = await vscode.window.showQuickPick(
      candidates.map((e) => ({ label: e.receipt!.question, description: e.freshness?.label ?? "", detail: `${e.folder.name} · ${e.receipt!.created_at}`, entry: e })),
      { placeHolder: stale.length ? "Re-deliberate which stale receipt?" : "Re-deliberate which receipt?" },
    );
    return picked?.entry;
  }

  async run(arg?: unknown): Promise<void> {
    const e = await this.target(arg);
    if (!e?.receipt) return;
    const r = e.receipt;
    const req: DeliberationRequest = { folder: e.folder, question: r.question, force: true, fresh: true };
    // The same editor context as the first time, when the file is still there.
    if (r.context?.file) {
      try {
        const doc = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(e.folder.uri, r.context.file));
        const line = Math.min(Math.max(0, (r.context.line ?? 1) - 1), doc.lineCount - 1);
        req.context = contextAround(e.folder, doc, line);
      } catch {
        req.context = { file: r.context.file, ...(r.context.line ? { line: r.context.line } : {}) };
      }
    }
    await this.deliberations.run(req);
  }
}
