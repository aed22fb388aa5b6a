// Running a deliberation from the editor: take the question (prompts.ts), show a cancellable progress notification
// that reports each stage, pick the model (modelChoice.ts), log every stage's timing (runReport.ts), and open the
// picker on the receipt. Cancel aborts the pipeline through its AbortSignal with core's CancellationError; the
// pipeline writes no receipt after a cancellation. Trust is checked by the commands (`requiresTrust`).
import * as vscode from "vscode";
import { isCancellation, throwIfCancelled } from "../core/cancel";
import type { DeliberateOutcome } from "../core/pipeline";
import type { Classification } from "../core/schemas";
import { oneLine } from "../core/text";
import { withCancellableProgress, type Report } from "./cancellableProgress";
import { readSettings } from "./config";
import type { HistoryIndexing } from "./historyIndexing";
import { loadHeavyBundle } from "./loadHeavyBundle";
import { errorText, type Log } from "./log";
import type { ModelChoice, UsedModel } from "./modelChoice";
import type { PickerPanels } from "./pickerPanel";
import { requestFromInputBox, requestFromText, selectedText } from "./prompts";
import type { ReceiptIndex } from "./receiptIndex";
import { buildDeliberateRequest, type DeliberationRequest, type RunHooks } from "./request";
import { describeProgress, logProgress, logReceipt, reportModel } from "./runReport";
import type { Secrets } from "./secrets";
import type { Settings } from "./settingsSchema";

export type { DeliberationRequest } from "./request";

export type Ran = { outcome: DeliberateOutcome; used?: UsedModel };

export class Deliberations {
  constructor(
    private readonly index: ReceiptIndex,
    private readonly pickers: PickerPanels,
    private readonly secrets: Secrets,
    private readonly log: Log,
    private readonly models: ModelChoice,
    private readonly history: HistoryIndexing,
  ) {}

  /** "Deliberate on Selection": the selection, else the open-question comment on the cursor line. */
  async onSelection(editor: vscode.TextEditor | undefined = vscode.window.activeTextEditor): Promise<void> {
    if (!editor) {
      void vscode.window.showInformationMessage("Deliberative Search: open a file and select a question (or put the cursor on a TODO(decide) comment).");
      return;
    }
    const { raw, line } = selectedText(editor);
    const req = await requestFromText(editor.document, raw, line);
    if (req) await this.run(req);
  }

  /** The CodeLens target: the comment on a given line. */
  async atLine(uri: vscode.Uri, line: number): Promise<void> {
    const doc = await vscode.workspace.openTextDocument(uri);
    if (line < 0 || line >= doc.lineCount) return;
    const req = await requestFromText(doc, doc.lineAt(line).text, line);
    if (req) await this.run(req);
  }

  /** "Deliberate on a Question…": an input box. */
  async onQuestion(): Promise<void> {
    const req = await requestFromInputBox();
    if (req) await this.run(req);
  }

  async run(req: DeliberationRequest): Promise<void> {
    const settings = readSettings(req.folder);
    const started = Date.now();
    this.log.info(`deliberating in ${req.folder.name}: "${req.question}"${req.force ? " (forced)" : ""}`);
    let ran: Ran;
    try {
      ran = await withCancellableProgress("Deliberating", (report, signal) => this.deliberate(req, settings, report, signal));
    } catch (err) {
      await this.failed(err, started);
      return;
    }
    const { outcome, used } = ran;
    if (outcome.kind === "abstained") {
      await this.onAbstained(req, outcome.classification);
      return;
    }
    logReceipt(this.log, outcome.receipt, outcome.cached, Date.now() - started);
    reportModel(this.log, outcome.receipt, outcome.cached, used?.provider);
    await this.index.refreshNow();
    await this.pickers.show(req.folder, settings.receiptsFolder, outcome.receipt.receipt_id, { cached: outcome.cached });
  }

  /** One run without the progress notification: the commands wrap it in one, the agent entry points report elsewhere. */
  async deliberate(req: DeliberationRequest, settings: Settings, report: Report, signal: AbortSignal): Promise<Ran> {
    report("loading…");
    const { deliberate, hostCorpusCache } = loadHeavyBundle();
    const hooks: RunHooks = {
      signingKey: await this.secrets.signingKey(),
      signal,
      onProgress: (e) => {
        report(describeProgress(e));
        logProgress(this.log, e);
      },
      onLog: (line: string) => this.log.info(line),
      history: this.history.options(req.folder),
      corpusCache: hostCorpusCache(process.env, (line) => this.log.info(line)),
    };
    const model = await this.models.choose(req, settings, hooks, report);
    if ("outcome" in model) return { outcome: model.outcome };
    throwIfCancelled(signal);
    const outcome = await deliberate({ ...buildDeliberateRequest(req, settings, hooks), ...model.stack });
    return { outcome, ...(model.used ? { used: model.used } : {}) };
  }

  private async failed(err: unknown, started: number): Promise<void> {
    if (isCancellation(err)) {
      this.log.info(`cancelled after ${Date.now() - started} ms; no receipt written`);
      void vscode.window.showInformationMessage("Deliberation cancelled. No receipt was written.");
      return;
    }
    this.log.error("deliberation failed", errorText(err));
    const choice = await vscode.window.showErrorMessage(`Deliberation failed: ${oneLine(err)}`, "Show Log");
    if (choice) this.log.show();
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
}
