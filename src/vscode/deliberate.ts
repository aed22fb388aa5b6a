// Running a deliberation from the editor: gather the question and its context, check trust, show a cancellable
// progress notification that reports each stage, log every stage's timing, and open the picker on the receipt.
// Cancel aborts the pipeline through its AbortSignal; the pipeline writes no receipt after an abort.
import { relative } from "node:path";
import * as vscode from "vscode";
import type { DeliberateOutcome } from "../core/pipeline";
import type { Classification } from "../core/schemas";
import type { ProgressEvent } from "../core/types";
import { readSettings, toDeliberationConfig } from "./config";
import { errorText, oneLine, type Log } from "./log";
import type { PickerPanels } from "./pickerPanel";
import type { ReceiptIndex } from "./receiptIndex";
import type { Secrets } from "./secrets";

export const UNTRUSTED_MESSAGE =
  "Deliberative Search is disabled in Restricted Mode: a deliberation reads your repository's files and runs git. Trust this workspace to use it.";

const CONTEXT_RADIUS = 10;

export interface DeliberationRequest {
  folder: vscode.WorkspaceFolder;
  question: string;
  /** The text as written (with comment markers and tags), so a decision tag still counts. */
  raw?: string;
  context?: { file?: string; line?: number; text?: string };
  force?: boolean;
}

export class Deliberations {
  constructor(
    private readonly index: ReceiptIndex,
    private readonly pickers: PickerPanels,
    private readonly secrets: Secrets,
    private readonly log: Log,
  ) {}

  /** True when allowed; otherwise explains why not and returns false. */
  checkTrust(): boolean {
    if (vscode.workspace.isTrusted) return true;
    void vscode.window.showWarningMessage(UNTRUSTED_MESSAGE, "Manage Workspace Trust").then((choice) => {
      if (choice) void vscode.commands.executeCommand("workbench.trust.manage");
    });
    return false;
  }

  /** "Deliberate on Selection": the selection, else the open-question comment on the cursor line. */
  async onSelection(editor: vscode.TextEditor | undefined = vscode.window.activeTextEditor): Promise<void> {
    if (!this.checkTrust()) return;
    if (!editor) {
      void vscode.window.showInformationMessage("Deliberative Search: open a file and select a question (or put the cursor on a TODO(decide) comment).");
      return;
    }
    const sel = editor.selection;
    const line = sel.active.line;
    const raw = sel.isEmpty ? editor.document.lineAt(line).text : editor.document.getText(sel);
    await this.fromEditorText(editor.document, raw, sel.isEmpty ? line : sel.start.line);
  }

  /** The CodeLens target: the comment on a given line. */
  async atLine(uri: vscode.Uri, line: number): Promise<void> {
    if (!this.checkTrust()) return;
    const doc = await vscode.workspace.openTextDocument(uri);
    if (line < 0 || line >= doc.lineCount) return;
    await this.fromEditorText(doc, doc.lineAt(line).text, line);
  }

  private async fromEditorText(doc: vscode.TextDocument, raw: string, line: number): Promise<void> {
    const { stripCommentMarkers } = await import("../core/classify");
    let question = stripCommentMarkers(raw);
    if (!question) {
      const typed = await vscode.window.showInputBox({
        title: "Deliberate on a Question",
        prompt: "No question on this line. Type the design question to deliberate on.",
        placeHolder: "e.g. Should we use Redux or Zustand for the cart state?",
        ignoreFocusOut: true,
      });
      if (!typed?.trim()) return;
      question = typed.trim();
      raw = typed;
    }
    const folder = vscode.workspace.getWorkspaceFolder(doc.uri) ?? (await this.pickFolder());
    if (!folder) return;
    const from = Math.max(0, line - CONTEXT_RADIUS);
    const to = Math.min(doc.lineCount - 1, line + CONTEXT_RADIUS);
    const text = doc.getText(new vscode.Range(from, 0, to, doc.lineAt(to).range.end.character));
    const file = doc.uri.scheme === "file" ? relative(folder.uri.fsPath, doc.uri.fsPath).split("\\").join("/") : undefined;
    await this.run({ folder, question, raw, context: { ...(file ? { file } : {}), line: line + 1, text: `${file ?? doc.uri.path}\n${text}` } });
  }

  /** "Deliberate on a Question…": an input box. */
  async onQuestion(): Promise<void> {
    if (!this.checkTrust()) return;
    const folder = vscode.window.activeTextEditor
      ? vscode.workspace.getWorkspaceFolder(vscode.window.activeTextEditor.document.uri) ?? (await this.pickFolder())
      : await this.pickFolder();
    if (!folder) return;
    const question = await vscode.window.showInputBox({
      title: "Deliberate on a Question",
      prompt: "An open design question. It is answered from your ADRs, conventions and git history, with citations.",
      placeHolder: "e.g. Should we adopt winston for logging?",
      ignoreFocusOut: true,
      validateInput: (v) => (Buffer.byteLength(v, "utf8") > 4096 ? "The question is limited to 4 kB" : undefined),
    });
    if (!question?.trim()) return;
    await this.run({ folder, question: question.trim() });
  }

  private async pickFolder(): Promise<vscode.WorkspaceFolder | undefined> {
    const folders = vscode.workspace.workspaceFolders ?? [];
    if (folders.length === 0) {
      void vscode.window.showInformationMessage("Deliberative Search needs an open folder: deliberations read its ADRs, docs and git history.");
      return undefined;
    }
    if (folders.length === 1) return folders[0];
    return vscode.window.showWorkspaceFolderPick({ placeHolder: "Which repository should the deliberation read?" });
  }

  async run(req: DeliberationRequest): Promise<void> {
    if (!this.checkTrust()) return;
    const settings = readSettings(req.folder);
    const started = Date.now();
    this.log.info(`deliberating in ${req.folder.name}: "${req.question}"${req.force ? " (forced)" : ""}`);
    let outcome: DeliberateOutcome;
    try {
      outcome = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: "Deliberating", cancellable: true },
        async (progress, token) => {
          const controller = new AbortController();
          const sub = token.onCancellationRequested(() => controller.abort(new CancelledError()));
          try {
            progress.report({ message: "loading…" });
            const [{ deliberate }, signingKey] = await Promise.all([import("../core/pipeline"), this.secrets.signingKey()]);
            return await deliberate({
              repo: req.folder.uri.fsPath,
              question: req.question,
              ...(req.context ? { context: req.context } : {}),
              config: toDeliberationConfig(settings),
              // The raw comment keeps its decision tag ("TODO(decide): …"), the author's explicit signal.
              ...(req.raw !== undefined ? { classifyText: req.raw } : {}),
              force: !!req.force,
              signingKey,
              signal: controller.signal,
              onProgress: (e) => {
                const msg = describeProgress(e);
                if (msg) progress.report({ message: msg });
                this.logProgress(e);
              },
            });
          } finally {
            sub.dispose();
          }
        },
      );
    } catch (err) {
      if (err instanceof CancelledError || (err as Error)?.name === "AbortError" || /cancel|abort/i.test(oneLine(err))) {
        this.log.info(`cancelled after ${Date.now() - started} ms; no receipt written`);
        void vscode.window.showInformationMessage("Deliberation cancelled. No receipt was written.");
        return;
      }
      this.log.error("deliberation failed", errorText(err));
      const choice = await vscode.window.showErrorMessage(`Deliberation failed: ${oneLine(err)}`, "Show Log");
      if (choice) this.log.show();
      return;
    }

    if (outcome.kind === "abstained") {
      await this.onAbstained(req, outcome.classification);
      return;
    }
    const r = outcome.receipt;
    this.log.info(
      `${outcome.cached ? "cache hit" : "done"} in ${Date.now() - started} ms: receipt ${r.receipt_id}, ${r.payload.options.length} options, recommendation ${r.payload.recommendation.option_id} (${r.payload.recommendation.confidence})`,
    );
    for (const [name, s] of Object.entries(r.stages)) {
      this.log.info(`  stage ${name}: ${s.status} · ${s.count} · ${s.ms} ms${s.truncated ? " · truncated" : ""}${s.reason ? ` — ${s.reason}` : ""}`);
    }
    await this.index.refreshNow();
    await this.pickers.show(req.folder, settings.receiptsFolder, r.receipt_id, { cached: outcome.cached });
  }

  private async onAbstained(req: DeliberationRequest, c: Classification): Promise<void> {
    const what = c.class === "lookup" ? "a lookup, not a design question" : "too thin to call a design question";
    this.log.info(`classifier: ${c.class} (${c.confidence.toFixed(2)}): ${c.reasons.join("; ")}`);
    const choice = await vscode.window.showInformationMessage(
      `This looks like ${what} (${c.class}, confidence ${c.confidence.toFixed(2)}). Deliberation is for open design questions.`,
      "Deliberate anyway",
      "Show Log",
    );
    if (choice === "Deliberate anyway") await this.run({ ...req, force: true });
    else if (choice === "Show Log") this.log.show();
  }

  private logProgress(e: ProgressEvent): void {
    if (e.state !== "done") return;
    const parts = [`stage ${e.stage}: ${e.status ?? "done"}`];
    if (e.count !== undefined) parts.push(`${e.count} item(s)`);
    if (e.ms !== undefined) parts.push(`${e.ms.toFixed(1)} ms`);
    this.log.info(parts.join(" · ") + (e.reason ? ` — ${e.reason}` : ""));
  }
}

class CancelledError extends Error {
  constructor() {
    super("deliberation cancelled");
    this.name = "CancelledError";
  }
}

const STAGE_LABELS: Record<string, string> = {
  discovery: "finding ADRs and docs",
  plan: "planning the search",
  synthesis: "weighing the options",
  receipt: "signing the receipt",
  cache: "found a cached deliberation",
};

function describeProgress(e: ProgressEvent): string | undefined {
  if (e.state === "start") {
    if (STAGE_LABELS[e.stage]) return `${STAGE_LABELS[e.stage]}…`;
    const [kind, name] = e.stage.split(":");
    if (name) return `${kind === "external" ? "consulting" : "mining"} ${name}…`;
    return `${e.stage}…`;
  }
  if (e.stage === "cache") return STAGE_LABELS.cache;
  return undefined;
}
