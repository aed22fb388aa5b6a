// Receipt commands: open (the picker), verify (signature + citations still resolve), export / copy as Markdown,
// reveal the file, delete (with confirmation). Each accepts a tree node, a {folderUri, receiptId} reference (the
// CodeLens), or nothing (a quick pick over all receipts).
import { promises as fs } from "node:fs";
import * as vscode from "vscode";
import { oneLine } from "../core/text";
import { loadHeavyBundle } from "./loadHeavyBundle";
import { errorText, type Log } from "./log";
import type { PickerPanels } from "./pickerPanel";
import { pickedTitle, type IndexedReceipt, type ReceiptIndex } from "./receiptIndex";

type ReceiptArg = { kind: "receipt"; entry: IndexedReceipt } | { folderUri: string; receiptId: string } | undefined;

export class ReceiptCommands {
  constructor(
    private readonly index: ReceiptIndex,
    private readonly pickers: PickerPanels,
    private readonly log: Log,
    /** Your own public key (PEM): receipts it signed are trusted. */
    private readonly ownPublicKey?: () => Promise<string | undefined>,
  ) {}

  private async resolve(arg: unknown, placeHolder: string, filter: (e: IndexedReceipt) => boolean = () => true): Promise<IndexedReceipt | undefined> {
    await this.index.ensureLoaded();
    const a = arg as ReceiptArg;
    if (a && "kind" in a && a.kind === "receipt") return this.index.find(a.entry.folder, a.entry.receiptId) ?? a.entry;
    if (a && "receiptId" in a && typeof a.receiptId === "string") {
      const found = this.index.find(String(a.folderUri), a.receiptId);
      if (!found) void vscode.window.showWarningMessage(`Deliberative Search: receipt ${a.receiptId} was not found.`);
      return found;
    }
    const candidates = this.index.all().filter(filter);
    if (candidates.length === 0) {
      void vscode.window.showInformationMessage("Deliberative Search: there are no receipts yet. Run “Deliberate on a Question…” first.");
      return undefined;
    }
    const picked = await vscode.window.showQuickPick(
      candidates.map((e) => ({
        label: e.receipt?.question ?? `${e.receiptId}.json`,
        description: e.state === "corrupt" ? "corrupt" : e.receipt ? pickedTitle(e.receipt) ?? "pending" : "",
        detail: `${e.folder.name} · ${e.receipt?.created_at ?? e.receiptId}`,
        entry: e,
      })),
      { placeHolder, matchOnDetail: true },
    );
    return picked?.entry;
  }

  async open(arg?: unknown): Promise<void> {
    const e = await this.resolve(arg, "Open which receipt?");
    if (!e) return;
    if (e.state === "corrupt") {
      const choice = await vscode.window.showWarningMessage(`Receipt ${e.receiptId} is corrupt: ${e.error}`, "Open File");
      if (choice) await vscode.window.showTextDocument(vscode.Uri.file(e.file));
      return;
    }
    try {
      await this.pickers.show(e.folder, e.receiptsDir, e.receiptId);
    } catch (err) {
      this.log.error(`opening receipt ${e.receiptId} failed`, err);
      void vscode.window.showErrorMessage(`Could not open the receipt: ${oneLine(err)}`);
    }
  }

  /**
   * Verifies one receipt (from the tree) or all of them (from the palette): signature, signer (your key or an allowed
   * signer), evidence hashes, and whether citations still resolve. The details go to the log.
   */
  async verify(arg?: unknown): Promise<void> {
    await this.index.refreshNow();
    const targets = arg ? [await this.resolve(arg, "Verify which receipt?")].filter((x): x is IndexedReceipt => !!x) : this.index.all();
    if (targets.length === 0) {
      void vscode.window.showInformationMessage("Deliberative Search: there are no receipts to verify.");
      return;
    }
    const { valid, problems } = await this.check(targets);
    if (problems.length === 0) {
      void vscode.window.showInformationMessage(`Deliberative Search: ${valid} receipt(s) verified: signatures valid and trusted, evidence intact, all citations resolve.`);
    } else {
      const choice = await vscode.window.showWarningMessage(
        `Deliberative Search: ${problems.length} of ${targets.length} receipt(s) failed verification. ${problems[0]}`,
        "Show Log",
      );
      if (choice) this.log.show();
    }
  }

  /** Checks receipts (each verified line goes to the log): how many passed, and one line per problem. */
  async check(targets: IndexedReceipt[]): Promise<{ valid: number; problems: string[]; lines: string[] }> {
    const { verifyEntry, loadReceiptFile, readAllowedSigners } = loadHeavyBundle();
    let ownPem: string | undefined;
    try {
      ownPem = await this.ownPublicKey?.();
    } catch (err) {
      this.log.warn(`the signing key could not be read: ${oneLine(err)}`);
    }
    let valid = 0;
    const problems: string[] = [];
    const lines: string[] = [];
    for (const t of targets) {
      const repo = t.folder.uri.fsPath;
      const signers = await readAllowedSigners(repo, t.receiptsDir);
      const v = await verifyEntry(repo, await loadReceiptFile(t.file), { ownPublicKeyPem: ownPem, signers, dirName: t.receiptsDir });
      const line = `${t.folder.name}/${t.receiptsDir}/${t.receiptId}.json: ${v.signature === "valid" ? `signature valid; ${v.summary}` : `signature ${v.signature} (${v.reason ?? "?"})`}${v.unresolved.length ? `; ${v.unresolved.length} citation(s) no longer resolve: ${v.unresolved.join(", ")}` : ""}`;
      this.log.info(`verify ${line}`);
      lines.push(line);
      if (v.ok && v.unresolved.length === 0) valid++;
      else problems.push(line);
    }
    return { valid, problems, lines };
  }

  private async markdown(e: IndexedReceipt): Promise<string | undefined> {
    if (!e.receipt) {
      void vscode.window.showWarningMessage(`Receipt ${e.receiptId} is corrupt and cannot be rendered: ${e.error}`);
      return undefined;
    }
    const { receiptToMarkdown } = loadHeavyBundle();
    return receiptToMarkdown(e.receipt);
  }

  async exportMarkdown(arg?: unknown): Promise<void> {
    const e = await this.resolve(arg, "Export which receipt as Markdown?", (x) => x.state !== "corrupt");
    if (!e) return;
    const md = await this.markdown(e);
    if (md === undefined) return;
    const target = await vscode.window.showSaveDialog({
      defaultUri: vscode.Uri.joinPath(e.folder.uri, `${e.receiptId}.md`),
      filters: { Markdown: ["md"] },
      title: "Export Receipt as Markdown",
    });
    if (!target) return;
    await vscode.workspace.fs.writeFile(target, Buffer.from(md, "utf8"));
    await vscode.window.showTextDocument(target, { preview: true });
  }

  async copyMarkdown(arg?: unknown): Promise<void> {
    const e = await this.resolve(arg, "Copy which receipt as Markdown?", (x) => x.state !== "corrupt");
    if (!e) return;
    const md = await this.markdown(e);
    if (md === undefined) return;
    await vscode.env.clipboard.writeText(md);
    void vscode.window.setStatusBarMessage("$(check) Deliberation copied as Markdown", 3000);
  }

  async reveal(arg?: unknown): Promise<void> {
    const e = await this.resolve(arg, "Reveal which receipt file?");
    if (!e) return;
    const uri = vscode.Uri.file(e.file);
    await vscode.window.showTextDocument(uri, { preview: true });
    await vscode.commands.executeCommand("revealInExplorer", uri);
  }

  async delete(arg?: unknown): Promise<void> {
    const e = await this.resolve(arg, "Delete which receipt?");
    if (!e) return;
    const label = e.receipt?.question ?? `${e.receiptId}.json`;
    const choice = await vscode.window.showWarningMessage(
      `Delete the receipt for “${label}”?`,
      { modal: true, detail: `${e.file}\n\nThe signed record of this decision is removed from disk. This cannot be undone from here.` },
      "Delete",
    );
    if (choice !== "Delete") return;
    try {
      await fs.rm(e.file);
      this.log.info(`deleted receipt ${e.receiptId}`);
    } catch (err) {
      this.log.error(`deleting ${e.file} failed`, errorText(err));
      void vscode.window.showErrorMessage(`Could not delete the receipt: ${oneLine(err)}`);
    }
    await this.index.refreshNow();
  }
}
