// Extension entry point. Activation only wires things up: commands, the sidebar tree, the CodeLens provider,
// the git content provider and the picker's serializer. Nothing here reads the workspace; the receipt index loads
// on first need, and the heavy bundle (the core pipeline, discovery, experts, synthesis, signing) on first use.
import * as vscode from "vscode";
import { AdrExporter } from "./adrExport";
import { registerAgentFeatures } from "./agent";
import { GIT_SCHEME, GitContentProvider } from "./citations";
import { QuestionCodeLensProvider } from "./codelens";
import { registerCommand, type CommandHandler, type CommandOptions } from "./commands";
import { setConfigWarningSink } from "./config";
import { EgressPreviewDocuments, ModelConsent } from "./consent";
import { PICKER_VIEW_TYPE, VIEW_ID } from "./constants";
import { Deliberations } from "./deliberate";
import { GuardDiagnostics } from "./guard/guardDiagnostics";
import { ConsentCommands } from "./egressPreview";
import { HistoryIndexing } from "./historyIndexing";
import { LearningSummaries } from "./learningSummary";
import { Log } from "./log";
import { ModelChoice } from "./modelChoice";
import { PickerPanels } from "./pickerPanel";
import { ReceiptCommands } from "./receiptCommands";
import { ReceiptIndex, pickedTitle } from "./receiptIndex";
import { ReceiptsTreeProvider, type TreeNode } from "./receiptsTree";
import { Redeliberation } from "./redeliberate";
import { Secrets } from "./secrets";

export { VIEW_ID } from "./constants";

/** What other extensions (and the extension-host tests) can use. */
export interface DeliberativeSearchApi {
  /** The API key stored with "Set API Key", for a model provider. */
  getApiKey(): Promise<string | undefined>;
  /** Waits for the receipt index to be current (tests). */
  refreshReceipts(): Promise<void>;
  /** Receipts known to the sidebar: id, question, state, picked option title. */
  receipts(): Array<{ receiptId: string; question?: string; state: string; picked?: string; file: string }>;
}

type CommandTable = [id: string, handler: CommandHandler, opts?: CommandOptions][];

export function activate(context: vscode.ExtensionContext): DeliberativeSearchApi {
  const log = new Log();
  try {
    return wire(context, log);
  } catch (err) {
    // The editor logs a failed activation only in its own extension-host log: say it where the user looks.
    log.error("activation failed; some features are missing until the window is reloaded", err);
    throw err;
  }
}

function wire(context: vscode.ExtensionContext, log: Log): DeliberativeSearchApi {
  setConfigWarningSink((m) => log.warn(m));
  const secrets = new Secrets(context.secrets, log);
  // The extension's own signing key (SecretStorage) is trusted; the sidebar names every receipt's signer.
  const ownPublicKey = async () => (await secrets.signingKey()).publicKeyPem;
  const index = new ReceiptIndex(log, ownPublicKey);
  const pickers = new PickerPanels(context.extensionUri, index, secrets, log);
  const previews = new EgressPreviewDocuments();
  const consent = new ModelConsent(context.workspaceState);
  const models = new ModelChoice(secrets, log, consent, previews);
  const deliberations = new Deliberations(index, pickers, secrets, log, models, new HistoryIndexing(log));
  const consentCommands = new ConsentCommands(secrets, log, models, consent, previews);
  const receipts = new ReceiptCommands(index, pickers, log, ownPublicKey);
  const adrExporter = new AdrExporter(index, pickers, secrets, log);
  const learning = new LearningSummaries(index, log, ownPublicKey);
  const tree = new ReceiptsTreeProvider(index, learning);
  const codeLens = new QuestionCodeLensProvider(index, log);
  const treeView = vscode.window.createTreeView<TreeNode>(VIEW_ID, { treeDataProvider: tree, showCollapseAll: false });

  const trusted = { requiresTrust: true };
  const commands: CommandTable = [
    ["deliberateOnSelection", () => deliberations.onSelection(), trusted],
    ["deliberateOnQuestion", () => deliberations.onQuestion(), trusted],
    ["deliberateAt", (uri, line) => (uri instanceof vscode.Uri && typeof line === "number" ? deliberations.atLine(uri, line) : deliberations.onSelection()), trusted],
    ["previewEgress", () => consentCommands.previewEgress(), trusted],
    ["resetModelConsent", () => consentCommands.resetConsent()],
    ["openReceipt", (arg) => receipts.open(arg)],
    ["verifyReceipts", (arg) => receipts.verify(arg)],
    ["exportReceiptMarkdown", (arg) => receipts.exportMarkdown(arg)],
    ["copyReceiptMarkdown", (arg) => receipts.copyMarkdown(arg)],
    ["revealReceiptFile", (arg) => receipts.reveal(arg)],
    ["deleteReceipt", (arg) => receipts.delete(arg)],
    ["redeliberate", (arg) => new Redeliberation(index, deliberations).run(arg), trusted],
    ["exportAsAdr", (arg) => adrExporter.export(arg), trusted],
    ["refreshReceipts", () => index.refreshNow()],
    ["setApiKey", () => setApiKey(secrets)],
    ["showLog", () => log.show()],
  ];

  context.subscriptions.push(
    log,
    index,
    pickers,
    learning,
    tree,
    codeLens,
    treeView,
    previews,
    vscode.workspace.registerTextDocumentContentProvider(EgressPreviewDocuments.scheme, previews),
    vscode.languages.registerCodeLensProvider([{ scheme: "file" }, { scheme: "untitled" }, { scheme: "vscode-remote" }], codeLens),
    vscode.workspace.registerTextDocumentContentProvider(GIT_SCHEME, new GitContentProvider()),
    vscode.window.registerWebviewPanelSerializer(PICKER_VIEW_TYPE, {
      deserializeWebviewPanel: (panel, state) => pickers.restore(panel, state),
    }),
    ...commands.map(([id, handler, opts]) => registerCommand(log, id, handler, opts)),
    ...registerAgentFeatures(context, { deliberations, index, pickers, models, consent, secrets, receipts, log }),
    new GuardDiagnostics(log, (req) => deliberations.run(req), ownPublicKey),
  );
  log.info(`activated (VS Code ${vscode.version}, ${vscode.workspace.isTrusted ? "trusted" : "restricted"} workspace)`);

  return {
    getApiKey: () => secrets.getApiKey(),
    refreshReceipts: () => index.refreshNow(),
    receipts: () =>
      index.all().map((e) => ({
        receiptId: e.receiptId,
        question: e.receipt?.question,
        state: e.state,
        picked: e.receipt ? pickedTitle(e.receipt) : undefined,
        file: e.file,
      })),
  };
}

async function setApiKey(secrets: Secrets): Promise<void> {
  const existing = await secrets.getApiKey();
  const value = await vscode.window.showInputBox({
    title: "Deliberative Search: Set API Key",
    prompt: existing
      ? "A key is stored. Enter a new key to replace it, or leave empty and press Enter to remove it."
      : "The API key for the OpenAI-compatible endpoint in deliberativeSearch.model.baseUrl. It is kept in VS Code's SecretStorage, never in settings.json, receipts or logs.",
    password: true,
    ignoreFocusOut: true,
    placeHolder: existing ? "•••••••• (stored)" : "sk-…",
  });
  if (value === undefined) return;
  if (!value.trim()) {
    if (!existing) return;
    await secrets.clearApiKey();
    void vscode.window.showInformationMessage("Deliberative Search: the API key was removed.");
    return;
  }
  await secrets.setApiKey(value.trim());
  void vscode.window.showInformationMessage("Deliberative Search: the API key is stored in SecretStorage.");
}

export function deactivate(): void {
  // Everything is owned by context.subscriptions.
}
