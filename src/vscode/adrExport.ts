// "Export as ADR…": plans the export in core (trusted receipt, the repository's ADR format and folder, the next
// free name, the rendered record, the supersession edit), asks whether to supersede an accepted ADR the pick goes
// against, and shows every change as a refactoring preview (a WorkspaceEdit that needs confirmation). Only after
// the operator applies it are the files saved and the export recorded in the receipt (re-signed). A record that
// changed since the receipt is named and only "keep" is offered for it; a pick already exported opens the first
// ADR instead of writing a second; an agent's pick is exported as a proposed record.
import * as vscode from "vscode";
import type { AdrExportPlan, SupersedeCandidate } from "../core/adrExport";
import { changedLineRange } from "../core/adrExport/diff";
import { readSettings, toDeliberationConfig } from "./config";
import { loadHeavyBundle } from "./loadHeavyBundle";
import type { Log } from "./log";
import type { PickerPanels } from "./pickerPanel";
import { pickedTitle, type IndexedReceipt, type ReceiptIndex } from "./receiptIndex";
import type { Secrets } from "./secrets";

/** A tree row, a {folderUri, receiptId} reference (the picker), a bare receipt id, or nothing (a quick pick). */
type ExportArg = { kind: "receipt"; entry: IndexedReceipt } | { folderUri: string; receiptId: string } | string | undefined;

const FORMAT_LABEL: Record<AdrExportPlan["format"], string> = { madr: "MADR", nygard: "Nygard", log4brains: "log4brains" };

export class AdrExporter {
  constructor(
    private readonly index: ReceiptIndex,
    private readonly pickers: PickerPanels,
    private readonly secrets: Secrets,
    private readonly log: Log,
  ) {}

  private async resolve(arg: unknown): Promise<IndexedReceipt | undefined> {
    await this.index.ensureLoaded();
    const a = arg as ExportArg;
    if (a && typeof a === "object" && "kind" in a && a.kind === "receipt") return this.index.find(a.entry.folder, a.entry.receiptId) ?? a.entry;
    if (a && typeof a === "object" && "receiptId" in a) return this.index.find(String(a.folderUri), a.receiptId);
    if (typeof a === "string") return this.index.all().find((e) => e.receiptId === a);
    const picked = this.index.all().filter((e) => e.receipt?.operator_pick && e.state !== "invalid");
    if (picked.length === 0) {
      void vscode.window.showInformationMessage("Deliberative Search: no picked receipt to export yet. Pick an option in a deliberation first.");
      return undefined;
    }
    const choice = await vscode.window.showQuickPick(
      picked.map((e) => ({ label: e.receipt!.question, description: pickedTitle(e.receipt!), detail: `${e.folder.name} · ${e.receipt!.created_at}`, entry: e })),
      { placeHolder: "Export which decision as an ADR?" },
    );
    return choice?.entry;
  }

  async export(arg?: unknown): Promise<void> {
    const e = await this.resolve(arg);
    if (!e) return;
    const repo = e.folder.uri.fsPath;
    const { planAdrExport, checkAdrPlan } = loadHeavyBundle();
    const key = await this.secrets.signingKey();
    const opts = { ownPublicKeyPem: key.publicKeyPem, receiptsDir: e.receiptsDir, config: toDeliberationConfig(readSettings(e.folder)) };
    // Planned without superseding first: the candidates come back with what changed since the receipt, to ask.
    let plan: AdrExportPlan;
    try {
      plan = await planAdrExport(repo, e.receiptId, { ...opts, supersede: false });
    } catch (err) {
      const already = err as { name?: string; path?: string; message?: string };
      if (already.name !== "AdrAlreadyExportedError" || !already.path) throw err;
      const open = await vscode.window.showInformationMessage(`Deliberative Search: ${already.message}`, "Open ADR");
      if (open) await vscode.window.showTextDocument(uriOf(e.folder, already.path));
      return;
    }
    if (plan.candidates.length && plan.status === "accepted") {
      const supersede = await askSupersede(plan.candidates);
      if (supersede === undefined) return;
      if (supersede) plan = await planAdrExport(repo, e.receiptId, opts);
    }
    await checkAdrPlan(repo, plan);
    const edit = await workspaceEditOf(e.folder, plan);
    this.log.info(`export ${e.receiptId} as ${FORMAT_LABEL[plan.format]} ADR ${plan.path}${plan.supersedes.length ? `, superseding ${plan.supersedes.map((s) => s.path).join(", ")}` : ""}: preview`);
    const applied = await vscode.workspace.applyEdit(edit, { isRefactoring: true });
    const landed = applied ? await reconcile(e.folder, plan) : { created: false, superseded: [] };
    if (!landed.created) {
      void vscode.window.showInformationMessage("Deliberative Search: the new ADR was not applied, so nothing was exported or changed.");
      return;
    }
    const updated = await loadHeavyBundle().recordAdrExport(
      repo,
      e.receiptId,
      { path: plan.path, format: plan.format, ...(landed.superseded[0] ? { supersedes: landed.superseded[0] } : {}) },
      key,
      e.receiptsDir,
    );
    this.log.info(`exported ${updated.receipt_id} as ${plan.path}; receipt re-signed with the export recorded`);
    await this.index.refreshNow();
    await this.pickers.refresh(e.folder, e.receiptId);
    const proposed = plan.status === "proposed" ? " as a proposed record (an agent made the pick; a person's pick exports it as accepted)" : "";
    const open = await vscode.window.showInformationMessage(`Deliberative Search: exported as ${plan.path}${proposed}.`, "Open ADR");
    if (open) await vscode.window.showTextDocument(vscode.Uri.joinPath(e.folder.uri, ...plan.path.split("/")));
  }
}

/** A title from another file, for a quick pick: one line, no invisible or bidi characters. */
const shown = (title: string) => title.replace(/[\u00AD\u061C\u180E\u200B-\u200F\u2028-\u202E\u2060-\u206F\uFEFF]|\s+/g, " ").trim().slice(0, 120);

/** true: supersede; false: keep; undefined: cancelled. A record that changed since the receipt can only be kept. */
async function askSupersede(candidates: SupersedeCandidate[]): Promise<boolean | undefined> {
  const names = candidates.map((c) => `“${shown(c.title)}”`).join(", ");
  const changed = candidates.filter((c) => c.changed);
  const items = changed.length
    ? [
        {
          label: "Keep",
          description: `export without changing ${names}`,
          detail: `Not offered: supersede. ${changed.map((c) => `${c.path} changed since the receipt (${c.changed})`).join("; ")}; deliberate again to supersede it.`,
          value: false,
        },
      ]
    : [
        { label: "Supersede", description: `mark ${names} as superseded by the new ADR`, value: true },
        { label: "Keep", description: `export without changing ${names}`, value: false },
      ];
  const choice = await vscode.window.showQuickPick(
    items,
    { title: "The pick goes against an accepted ADR the deliberation cited", placeHolder: `Supersede ${names}?`, ignoreFocusOut: true },
  );
  return choice?.value;
}

/** The plan as a WorkspaceEdit whose every change needs confirmation, so VS Code shows the refactoring preview. */
async function workspaceEditOf(folder: vscode.WorkspaceFolder, plan: AdrExportPlan): Promise<vscode.WorkspaceEdit> {
  const edit = new vscode.WorkspaceEdit();
  for (const f of plan.files) {
    const uri = uriOf(folder, f.path);
    if (f.kind === "create") {
      const meta = { label: `Create ${FORMAT_LABEL[plan.format]} ADR`, description: f.path, needsConfirmation: true };
      edit.createFile(uri, { overwrite: false, ignoreIfExists: false, contents: Buffer.from(f.after, "utf8") }, meta);
      continue;
    }
    const doc = await vscode.workspace.openTextDocument(uri);
    const eol = doc.eol === vscode.EndOfLine.CRLF ? "\r\n" : "\n";
    const before = (f.before ?? "").replace(/\r?\n/g, eol);
    if (doc.isDirty || doc.getText() !== before) throw new Error(`${f.path} has unsaved or newer changes; save it and export again (nothing was written)`);
    const change = changedLineRange(before, f.after.replace(/\r?\n/g, eol), eol);
    edit.replace(uri, new vscode.Range(doc.positionAt(change.from), doc.positionAt(change.to)), change.text, {
      label: "Mark the ADR superseded",
      description: f.path,
      needsConfirmation: true,
    });
  }
  return edit;
}

function uriOf(folder: vscode.WorkspaceFolder, path: string): vscode.Uri {
  return vscode.Uri.joinPath(folder.uri, ...path.split("/"));
}

async function readText(uri: vscode.Uri): Promise<string | undefined> {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open) return open.getText();
  return vscode.workspace.fs.readFile(uri).then((b) => Buffer.from(b).toString("utf8"), () => undefined);
}

const sameText = (a: string | undefined, b: string) => a !== undefined && a.replace(/\r\n/g, "\n") === b.replace(/\r\n/g, "\n");

/**
 * What the operator applied: in the preview each change is ticked on its own. The supersession edits that landed
 * are saved; without the new ADR nothing counts (a supersession edit that landed alone is undone); a supersession
 * left unticked takes its "Supersedes" line out of the new ADR, so the two files never disagree.
 */
async function reconcile(folder: vscode.WorkspaceFolder, plan: AdrExportPlan): Promise<{ created: boolean; superseded: string[] }> {
  const created = sameText(await readText(uriOf(folder, plan.path)), plan.files[0].after);
  const superseded: string[] = [];
  const undo = new vscode.WorkspaceEdit();
  for (const f of plan.files.filter((x) => x.kind === "modify")) {
    const uri = uriOf(folder, f.path);
    if (!sameText(await readText(uri), f.after)) continue;
    if (created) superseded.push(f.path);
    else {
      const doc = await vscode.workspace.openTextDocument(uri);
      undo.replace(uri, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), f.before ?? "");
    }
  }
  if (undo.size) await vscode.workspace.applyEdit(undo);
  await saveAll(folder, plan);
  const dropped = plan.supersedes.filter((s) => !superseded.includes(s.path));
  if (created && dropped.length) {
    const uri = uriOf(folder, plan.path);
    const targets = dropped.map((d) => `${d.path.split("/").pop()})`);
    const kept = plan.files[0].after.split("\n").filter((l) => !(/^\s*(?:[-*]\s+)?Supersedes \[/.test(l) && targets.some((t) => l.includes(t))));
    await vscode.workspace.fs.writeFile(uri, Buffer.from(kept.join("\n"), "utf8"));
  }
  return { created, superseded };
}

/** The supersession edits change open documents; write them to disk like the created file. */
async function saveAll(folder: vscode.WorkspaceFolder, plan: AdrExportPlan): Promise<void> {
  for (const f of plan.files.filter((x) => x.kind === "modify")) {
    const uri = uriOf(folder, f.path);
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    if (doc?.isDirty && !(await doc.save())) throw new Error(`${f.path} could not be saved`);
  }
}
