// The option-picker webview: one panel per receipt, reused when already open. The host owns every effect
// (opening citations, recording the pick, the clipboard); the webview only renders and asks, over the typed
// protocol in src/shared/protocol.ts. Every incoming message is validated; a malformed one is logged and ignored.
import { randomBytes } from "node:crypto";
import * as vscode from "vscode";
import { oneLine } from "../core/text";
import type { Receipt } from "../core/schemas";
import { fallbackOf, planFallbackOf } from "../core/fallback";
import { answer, type HostToWebview, type PickerModel, type RequestHandlers, type RequestParams, type RequestResult } from "../shared/protocol";
import { changesFor } from "./changesPanel";
import { openCitation } from "./citations";
import { readSettings } from "./config";
import { PICKER_VIEW_TYPE } from "./constants";
import { loadHeavyBundle } from "./loadHeavyBundle";
import { errorText, type Log } from "./log";
import type { ReceiptIndex } from "./receiptIndex";
import type { Secrets } from "./secrets";


interface PanelState {
  panel: vscode.WebviewPanel;
  folder: vscode.WorkspaceFolder;
  receiptsDir: string;
  receipt: Receipt;
  raw: Record<string, unknown>;
  cached: boolean;
  disposables: vscode.Disposable[];
}

export class PickerPanels implements vscode.Disposable {
  private readonly panels = new Map<string, PanelState>();

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly index: ReceiptIndex,
    private readonly secrets: Secrets,
    private readonly log: Log,
  ) {}

  private key(folder: vscode.WorkspaceFolder, receiptId: string): string {
    return `${folder.uri.toString()}|${receiptId}`;
  }

  /** Opens (or reveals and updates) the picker for a receipt. */
  async show(
    folder: vscode.WorkspaceFolder,
    receiptsDir: string,
    receiptId: string,
    opts: { cached?: boolean; column?: vscode.ViewColumn; panel?: vscode.WebviewPanel } = {},
  ): Promise<void> {
    const { loadReceiptFile, receiptPath } = loadHeavyBundle();
    const entry = await loadReceiptFile(receiptPath(folder.uri.fsPath, receiptId, receiptsDir));
    if (entry.state === "corrupt") throw new Error(`receipt ${receiptId} is corrupt: ${entry.error}`);
    const key = this.key(folder, receiptId);
    const existing = this.panels.get(key);
    if (existing) {
      Object.assign(existing, { receipt: entry.receipt, raw: entry.raw, cached: opts.cached ?? existing.cached });
      if (!opts.panel) existing.panel.reveal(existing.panel.viewColumn ?? opts.column, false);
      await this.render(existing);
      return;
    }
    const webviewRoot = vscode.Uri.joinPath(this.extensionUri, "dist", "webview");
    const panel =
      opts.panel ??
      vscode.window.createWebviewPanel(
        PICKER_VIEW_TYPE,
        panelTitle(entry.receipt),
        { viewColumn: opts.column ?? vscode.ViewColumn.Beside, preserveFocus: false },
        { enableScripts: true, localResourceRoots: [webviewRoot], enableFindWidget: true },
      );
    panel.webview.options = { enableScripts: true, localResourceRoots: [webviewRoot] };
    panel.title = panelTitle(entry.receipt);
    panel.iconPath = vscode.Uri.joinPath(this.extensionUri, "media", "icon.png");
    const state: PanelState = {
      panel,
      folder,
      receiptsDir,
      receipt: entry.receipt,
      raw: entry.raw,
      cached: opts.cached ?? false,
      disposables: [],
    };
    this.panels.set(key, state);
    state.disposables.push(
      panel.webview.onDidReceiveMessage((raw: unknown) => void this.onMessage(state, raw)),
      panel.onDidDispose(() => {
        this.panels.delete(key);
        for (const d of state.disposables) d.dispose();
      }),
    );
    panel.webview.html = this.html(panel.webview, webviewRoot, entry.receipt);
  }

  /** Re-renders an open panel from disk (after a pick elsewhere, or a file change). */
  async refresh(folder: vscode.WorkspaceFolder, receiptId: string): Promise<void> {
    const state = this.panels.get(this.key(folder, receiptId));
    if (!state) return;
    const { loadReceiptFile, receiptPath } = loadHeavyBundle();
    const entry = await loadReceiptFile(receiptPath(folder.uri.fsPath, receiptId, state.receiptsDir));
    if (entry.state === "corrupt") return;
    state.receipt = entry.receipt;
    state.raw = entry.raw;
    await this.render(state);
  }

  /** Restores a panel VS Code kept across a reload (its webview state holds the receipt id). */
  async restore(panel: vscode.WebviewPanel, saved: unknown): Promise<void> {
    const s = saved as { folderUri?: unknown; receiptId?: unknown } | undefined;
    const folder = typeof s?.folderUri === "string" ? vscode.workspace.getWorkspaceFolder(vscode.Uri.parse(s.folderUri)) : undefined;
    if (!folder || typeof s?.receiptId !== "string") {
      panel.dispose();
      return;
    }
    try {
      await this.show(folder, readSettings(folder).receiptsFolder, s.receiptId, { panel });
    } catch (err) {
      this.log.warn(`could not restore the picker for ${s.receiptId}: ${oneLine(err)}`);
      panel.dispose();
    }
  }

  private async render(state: PanelState): Promise<void> {
    const { verifyReceiptSignature } = loadHeavyBundle();
    const model = pickerModel(state.folder, state.receiptsDir, state.receipt, verifyReceiptSignature(state.raw), state.cached);
    this.post(state, { type: "render", model });
    // An earlier deliberation of the same question: the "What changed since <date>" panel follows the render.
    const changes = await changesFor(this.index, state.folder, state.receiptsDir, state.receipt).catch((err) => void this.log.warn(`comparing with the earlier receipt failed: ${oneLine(err)}`));
    if (changes) this.post(state, { type: "changes", changes });
  }

  private post(state: PanelState, message: HostToWebview): void {
    void state.panel.webview.postMessage(message);
  }

  private async onMessage(state: PanelState, raw: unknown): Promise<void> {
    const parsed = loadHeavyBundle().parseWebviewMessage(raw);
    if (!parsed.ok) {
      this.log.warn(`ignored a malformed webview message (${parsed.error}): ${safePreview(raw)}`);
      return;
    }
    const message = parsed.message;
    if (message.type === "ready") {
      await this.render(state);
      return;
    }
    const reply = await answer(this.handlers(state), message, (err) => this.log.error(`${message.method} failed`, err));
    this.post(state, reply);
  }

  /** What the host does for each request of the picker (protocol.ts's PickerRequests). */
  private handlers(state: PanelState): RequestHandlers {
    const repo = state.folder.uri.fsPath;
    return {
      openCitation: async ({ citationId }) => {
        const c = state.receipt.payload.citations.find((x) => x.id === citationId);
        if (!c) throw new Error(`unknown citation ${citationId}`);
        const column = state.panel.viewColumn === vscode.ViewColumn.One ? vscode.ViewColumn.Beside : vscode.ViewColumn.One;
        await openCitation(repo, c, column, state.receipt.decision_sources);
        this.log.info(`opened citation ${c.id} (${c.path_or_url}${c.line_range ? `:${c.line_range.start}-${c.line_range.end}` : ""})`);
        return null;
      },
      pick: (params) => this.pick(state, params),
      copyMarkdown: async () => {
        await vscode.env.clipboard.writeText(loadHeavyBundle().receiptToMarkdown(state.receipt));
        return { message: "Copied the decision as Markdown." };
      },
      // The export asks questions and shows a preview, longer than a webview request may wait: started, not awaited.
      exportAdr: async () => {
        void vscode.commands.executeCommand("deliberativeSearch.exportAsAdr", { folderUri: state.folder.uri.toString(), receiptId: state.receipt.receipt_id });
        return { message: "Review the ADR in the refactoring preview, then Apply." };
      },
      openReceiptFile: async () => {
        const file = loadHeavyBundle().receiptPath(repo, state.receipt.receipt_id, state.receiptsDir);
        const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
        await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.One, preview: true });
        return null;
      },
    };
  }

  /** Records the pick in the receipt's history, re-signed, and re-renders before answering. */
  private async pick(state: PanelState, { optionId, reason }: RequestParams<"pick">): Promise<RequestResult<"pick">> {
    const key = await this.secrets.signingKey();
    const pick = { option_id: optionId, ...(reason?.trim() ? { reason: reason.trim() } : {}) };
    const updated = await loadHeavyBundle().recordPick(state.folder.uri.fsPath, state.receipt.receipt_id, pick, key, state.receiptsDir);
    const title = updated.payload.options.find((o) => o.id === optionId)?.title ?? optionId;
    this.log.info(`recorded pick "${title}" on ${updated.receipt_id}${updated.operator_pick?.overrode_recommendation ? " (override)" : ""}; signed ${key.keyId}`);
    await this.refresh(state.folder, updated.receipt_id);
    await this.index.refreshNow();
    return { message: `Picked “${title}”. The receipt is signed and saved.` };
  }

  private html(webview: vscode.Webview, root: vscode.Uri, receipt: Receipt): string {
    const nonce = randomBytes(18).toString("base64");
    const script = webview.asWebviewUri(vscode.Uri.joinPath(root, "main.js"));
    const styles = webview.asWebviewUri(vscode.Uri.joinPath(root, "styles.css"));
    const csp = [
      "default-src 'none'",
      `script-src 'nonce-${nonce}'`,
      `style-src ${webview.cspSource}`,
      `font-src ${webview.cspSource}`,
      `img-src ${webview.cspSource} data:`,
      "connect-src 'none'",
      "form-action 'none'",
      "base-uri 'none'",
    ].join("; ");
    return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${styles.toString()}">
<title>${escapeHtml(panelTitle(receipt))}</title>
</head>
<body>
<main id="app" aria-busy="true"><p class="loading">Loading the decision…</p></main>
<script type="module" nonce="${nonce}" src="${script.toString()}"></script>
</body>
</html>`;
  }

  dispose(): void {
    for (const s of [...this.panels.values()]) s.panel.dispose();
    this.panels.clear();
  }
}

export function pickerModel(
  folder: vscode.WorkspaceFolder,
  receiptsDir: string,
  r: Receipt,
  signature: { ok: boolean; reason?: string },
  cached: boolean,
): PickerModel {
  return {
    receiptId: r.receipt_id,
    receiptPath: `${receiptsDir}/${r.receipt_id}.json`,
    folderName: folder.name,
    folderUri: folder.uri.toString(),
    createdAt: r.created_at,
    payload: r.payload,
    stages: r.stages,
    operatorPick: r.operator_pick,
    signature: { state: signature.ok ? "valid" : "invalid", keyId: r.signing.key_id, ...(signature.reason ? { reason: signature.reason } : {}) },
    synthesis: { mode: r.synthesis.mode, ...(r.synthesis.model ? { model: r.synthesis.model } : {}) },
    fallbacks: { plan: planFallbackOf(r.stages.plan), synthesis: fallbackOf(r.synthesis) },
    ...(r.context ? { context: r.context } : {}),
    ...(cached ? { cached } : {}),
    ...(r.class_mismatch ? { classMismatch: true } : {}),
  };
}

function panelTitle(r: Receipt): string {
  const q = r.question.length > 48 ? `${r.question.slice(0, 45)}…` : r.question;
  return `Decide: ${q}`;
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

function safePreview(raw: unknown): string {
  try {
    return JSON.stringify(raw)?.slice(0, 200) ?? String(raw);
  } catch {
    return errorText(raw).slice(0, 200);
  }
}

