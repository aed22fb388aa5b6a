// One deliberation for an agent entry point (the language-model tool, @deliberate): the same run as the editor's
// commands (Deliberations.deliberate: model choice and consent, history index, signing), driven by a
// CancellationToken instead of a progress notification, then the receipt indexed and the picker opened beside the
// editor so the person can pick. Also what their confirmations need: the folder, trust, and the egress facts.
import * as vscode from "vscode";
import { cancellationController, cancellationOf } from "../core/cancel";
import type { Classification, Receipt } from "../core/schemas";
import { chooseFolder, contextFileIn, type EgressFacts } from "./agentContext";
import type { Report } from "./cancellableProgress";
import { readSettings } from "./config";
import type { ModelConsent } from "./consent";
import { UNTRUSTED_MESSAGE } from "./constants";
import type { Deliberations } from "./deliberate";
import { loadHeavyBundle } from "./loadHeavyBundle";
import type { Log } from "./log";
import type { ModelChoice } from "./modelChoice";
import { toModelSettings } from "./modelSettings";
import type { PickerPanels } from "./pickerPanel";
import type { ReceiptIndex } from "./receiptIndex";
import { logReceipt, reportModel } from "./runReport";
import type { Secrets } from "./secrets";
import type { Settings } from "./settingsSchema";

export interface AgentQuestion {
  question: string;
  context?: { path?: string; text?: string };
  offline?: boolean;
  force?: boolean;
  /** Deliberate with this editor model (vscode.lm, "vendor/id") instead of the configured provider. */
  languageModel?: string;
}

export type AgentOutcome =
  | { kind: "deliberated"; receipt: Receipt; cached: boolean; folder: vscode.WorkspaceFolder; receiptsDir: string }
  | { kind: "abstained"; question: string; classification: Classification };

/** A run that cannot start: Restricted Mode or no folder. One line, for the agent and the person. */
export class AgentRunRefused extends Error {}

export class AgentRuns {
  constructor(
    private readonly deliberations: Deliberations,
    private readonly index: ReceiptIndex,
    private readonly pickers: PickerPanels,
    private readonly models: ModelChoice,
    private readonly consent: ModelConsent,
    private readonly secrets: Secrets,
    private readonly log: Log,
  ) {}

  /** The extension's own signing key's public half: the guard trusts picked receipts it signed. */
  async ownPublicKeyPem(): Promise<string | undefined> {
    return (await this.secrets.signingKey().catch(() => undefined))?.publicKeyPem;
  }

  /** The folder a question reads (context path, else the active editor's, else the first); throws when none can. */
  folderFor(contextPath?: string): vscode.WorkspaceFolder {
    if (!vscode.workspace.isTrusted) throw new AgentRunRefused(UNTRUSTED_MESSAGE);
    const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => ({ name: f.name, fsPath: f.uri.fsPath, folder: f }));
    const active = vscode.window.activeTextEditor?.document.uri;
    const chosen = chooseFolder(folders, contextPath, active?.scheme === "file" ? active.fsPath : undefined);
    if (!chosen) throw new AgentRunRefused("Deliberative Search needs an open folder: a deliberation reads its ADRs, docs and git history. Open the repository's folder and ask again.");
    return chosen.folder;
  }

  /** The folder's settings with the question's own switches applied. */
  settingsFor(folder: vscode.WorkspaceFolder, q: Pick<AgentQuestion, "offline" | "languageModel">): Settings {
    const base = readSettings(folder);
    return {
      ...base,
      ...(q.offline ? { offline: true } : {}),
      ...(q.languageModel ? { modelProvider: "vscode-lm" as const, modelName: q.languageModel } : {}),
    };
  }

  /** Runs the pipeline; `openPicker` shows the receipt beside the editor. Cancelling the token aborts the run. */
  async run(q: AgentQuestion, report: Report, token: vscode.CancellationToken, opts: { openPicker: boolean }): Promise<AgentOutcome> {
    const folder = this.folderFor(q.context?.path);
    const settings = this.settingsFor(folder, q);
    const file = contextFileIn({ name: folder.name, fsPath: folder.uri.fsPath }, q.context?.path, vscode.workspace.workspaceFolders?.length ?? 1);
    const context = file || q.context?.text ? { ...(file ? { file } : {}), ...(q.context?.text ? { text: q.context.text } : {}) } : undefined;
    const req = { folder, question: q.question, ...(context ? { context } : {}), ...(q.force ? { force: true } : {}) };
    const { signal, cancel } = cancellationController();
    const sub = token.onCancellationRequested(() => cancel("deliberation cancelled"));
    const started = Date.now();
    this.log.info(`agent: deliberating in ${folder.name}: "${q.question}"${q.force ? " (forced)" : ""}${q.languageModel ? ` with ${q.languageModel}` : ""}`);
    try {
      if (token.isCancellationRequested) cancel("deliberation cancelled");
      const { outcome, used } = await this.deliberations.deliberate(req, settings, report, signal);
      if (outcome.kind === "abstained") return { kind: "abstained", question: outcome.question, classification: outcome.classification };
      logReceipt(this.log, outcome.receipt, outcome.cached, Date.now() - started);
      reportModel(this.log, outcome.receipt, outcome.cached, used?.provider);
      await this.index.refreshNow();
      if (opts.openPicker) await this.openPicker(folder, settings.receiptsFolder, outcome.receipt.receipt_id, outcome.cached);
      return { kind: "deliberated", receipt: outcome.receipt, cached: outcome.cached, folder, receiptsDir: settings.receiptsFolder };
    } catch (err) {
      if (signal.aborted) {
        this.log.info(`agent: cancelled after ${Date.now() - started} ms; no receipt written`);
        throw cancellationOf(signal);
      }
      throw err;
    } finally {
      sub.dispose();
    }
  }

  /** Opens the picker beside the editor; a failure to show it never fails the run (the receipt is on disk). */
  async openPicker(folder: vscode.WorkspaceFolder, receiptsDir: string, receiptId: string, cached = false): Promise<void> {
    try {
      await this.pickers.show(folder, receiptsDir, receiptId, { cached, column: vscode.ViewColumn.Beside });
    } catch (err) {
      this.log.warn(`agent: the picker for ${receiptId} could not be opened: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  /** What would leave the machine for a question in this folder: the model's host (if any) and the web sources. */
  async egressFacts(folder: vscode.WorkspaceFolder, q: Pick<AgentQuestion, "offline" | "languageModel">): Promise<EgressFacts> {
    const settings = this.settingsFor(folder, q);
    const s = toModelSettings(settings);
    const heavy = loadHeavyBundle();
    const base = { provider: s.provider, keepInternalLocal: s.keepInternalLocal, externalLines: heavy.externalEgressLines(settings), ...(s.offlineOverride ? { offlineOverride: s.offlineOverride } : {}) };
    if (s.provider === "none") return base;
    const resolved = await this.models.resolve(s);
    if (resolved.kind === "none") return { ...base, provider: "none" };
    if (resolved.kind === "unavailable") return { ...base, unavailable: resolved.reason };
    const consent = this.consent.get(resolved.provider, resolved.host);
    return { ...base, host: resolved.host, ...(consent ? { consent: consent.choice } : {}) };
  }

  /** Records the person's pick (made in the chat) in the receipt, re-signed, and refreshes what shows it. */
  async recordPick(folder: vscode.WorkspaceFolder, receiptId: string, optionId: string): Promise<Receipt> {
    const receiptsDir = readSettings(folder).receiptsFolder;
    const updated = await loadHeavyBundle().recordPick(folder.uri.fsPath, receiptId, { option_id: optionId }, await this.secrets.signingKey(), receiptsDir);
    this.log.info(`agent: recorded pick "${optionId}" on ${receiptId} from the chat`);
    await this.pickers.refresh(folder, receiptId);
    await this.index.refreshNow();
    return updated;
  }
}
