// Extension-host tests of the agent entry points: the deliberate tool is registered, @deliberate is contributed, and
// the participant's handler (driven with a fake stream) streams progress, the recommendation, the options, references
// to the cited lines and a picker button, records a pick from the chat, lists and verifies receipts, and stops on
// cancellation. The tool's prepareInvocation/invoke run directly (vscode.lm.invokeTool outside a chat would show a
// modal confirmation; the end-to-end test clicks through that one).
import * as assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import { verifyReceiptSignature } from "../../../src/core/receipts/signing";
import { AgentRuns } from "../../../src/vscode/agentRun";
import { DeliberateTool, TOOL_NAME } from "../../../src/vscode/agentTool";
import { handleChatRequest, PARTICIPANT_ID, type ChatDeps, type ChatStreamLike } from "../../../src/vscode/chatParticipant";
import { asDeliberatedTurn, escapeMarkdown } from "../../../src/vscode/chatRender";
import { ModelConsent, EgressPreviewDocuments } from "../../../src/vscode/consent";
import { Deliberations } from "../../../src/vscode/deliberate";
import { HistoryIndexing } from "../../../src/vscode/historyIndexing";
import { Log } from "../../../src/vscode/log";
import { ModelChoice } from "../../../src/vscode/modelChoice";
import { PickerPanels } from "../../../src/vscode/pickerPanel";
import { ReceiptCommands } from "../../../src/vscode/receiptCommands";
import { ReceiptIndex } from "../../../src/vscode/receiptIndex";
import { Secrets } from "../../../src/vscode/secrets";

const EXTENSION_ID = "deliberative-search.deliberative-search";
const CHAT_Q = "Should we keep the cart state in Zustand or move it to Redux Toolkit?";

type Register = (name: string, fn: () => Promise<void>) => void;

/** Records every call the handler makes on the stream. */
class FakeStream implements ChatStreamLike {
  readonly markdowns: string[] = [];
  readonly progresses: string[] = [];
  readonly references: Array<vscode.Uri | vscode.Location> = [];
  readonly anchors: Array<{ value: vscode.Uri | vscode.Location; title?: string }> = [];
  readonly buttons: vscode.Command[] = [];
  markdown(value: string): void {
    this.markdowns.push(value);
  }
  progress(value: string): void {
    this.progresses.push(value);
  }
  reference(value: vscode.Uri | vscode.Location): void {
    this.references.push(value);
  }
  anchor(value: vscode.Uri | vscode.Location, title?: string): void {
    this.anchors.push({ value, title });
  }
  button(command: vscode.Command): void {
    this.buttons.push(command);
  }
  text(): string {
    return this.markdowns.join("");
  }
}

/** The same graph activate() builds, over an in-memory SecretStorage and Memento. */
function buildDeps(disposables: vscode.Disposable[]): ChatDeps & { tool: DeliberateTool } {
  const secretsMap = new Map<string, string>();
  const storage = {
    get: async (k: string) => secretsMap.get(k),
    store: async (k: string, v: string) => void secretsMap.set(k, v),
    delete: async (k: string) => void secretsMap.delete(k),
    onDidChange: new vscode.EventEmitter<vscode.SecretStorageChangeEvent>().event,
  } as vscode.SecretStorage;
  const state = new Map<string, unknown>();
  const memento = { get: <T>(k: string) => state.get(k) as T | undefined, update: async (k: string, v: unknown) => void state.set(k, v) };
  const log = new Log();
  const secrets = new Secrets(storage, log);
  const own = async () => (await secrets.signingKey()).publicKeyPem;
  const index = new ReceiptIndex(log, own);
  const extensionUri = vscode.extensions.getExtension(EXTENSION_ID)!.extensionUri;
  const pickers = new PickerPanels(extensionUri, index, secrets, log);
  const previews = new EgressPreviewDocuments();
  const consent = new ModelConsent(memento);
  const models = new ModelChoice(secrets, log, consent, previews);
  const deliberations = new Deliberations(index, pickers, secrets, log, models, new HistoryIndexing(log));
  const runs = new AgentRuns(deliberations, index, pickers, models, consent, secrets, log);
  disposables.push(log, index, pickers, previews);
  const commandExists = async (id: string) => (await vscode.commands.getCommands(true)).includes(id);
  return { runs, index, receipts: new ReceiptCommands(index, pickers, log, own), commandExists, tool: new DeliberateTool(runs, log) };
}

function receiptsOnDisk(): string[] {
  const dir = join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, ".deliberations");
  return existsSync(dir) ? readdirSync(dir).filter((n) => n.endsWith(".json")) : [];
}

const token = () => new vscode.CancellationTokenSource().token;

export function registerAgentTests(test: Register): void {
  const disposables: vscode.Disposable[] = [];
  let deps: ReturnType<typeof buildDeps>;
  let receiptId = "";
  let turn: ReturnType<typeof asDeliberatedTurn>;

  test("the deliberate tool is in vscode.lm.tools and @deliberate is contributed", async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
    await ext.activate();
    assert.ok(vscode.lm.tools.some((t) => t.name === TOOL_NAME), `vscode.lm.tools lists ${TOOL_NAME}`);
    const participants = ext.packageJSON.contributes.chatParticipants as Array<{ id: string; commands: Array<{ name: string }> }>;
    const p = participants.find((x) => x.id === PARTICIPANT_ID);
    assert.ok(p, "@deliberate is contributed");
    assert.deepEqual(p.commands.map((c) => c.name).slice(0, 3), ["ask", "receipts", "verify"]);
    deps = buildDeps(disposables);
  });

  test("@deliberate /ask streams stage progress, the callout, the options, references to cited lines and a picker button", async () => {
    const before = receiptsOnDisk().length;
    const stream = new FakeStream();
    const result = await handleChatRequest(deps, { command: "ask", prompt: CHAT_Q }, undefined, stream, token());
    assert.equal(result.errorDetails, undefined, result.errorDetails?.message);
    assert.ok(stream.progresses.length >= 3, `stage progress: ${stream.progresses.join(" | ")}`);
    assert.match(stream.text(), /^> \*\*Recommended: /);
    assert.match(stream.text(), /### Citations/);
    const located = stream.references.find((r): r is vscode.Location => r instanceof vscode.Location);
    assert.ok(located, "a reference to a cited line range");
    assert.ok(located.uri.fsPath.startsWith(vscode.workspace.workspaceFolders![0]!.uri.fsPath), located.uri.fsPath);
    assert.ok(stream.anchors.length >= stream.references.length);
    turn = asDeliberatedTurn(result.metadata);
    assert.ok(turn, "the result carries the turn for its follow-ups");
    receiptId = turn.receiptId;
    assert.deepEqual(stream.buttons[0]?.arguments, [{ folderUri: turn.folderUri, receiptId }]);
    assert.equal(stream.buttons[0]?.command, "deliberativeSearch.openReceipt");
    assert.equal(receiptsOnDisk().length, before + 1);
    const raw = JSON.parse(readFileSync(join(vscode.Uri.parse(turn.folderUri).fsPath, ".deliberations", `${receiptId}.json`), "utf8"));
    assert.equal(raw.question, CHAT_Q);
    assert.equal(verifyReceiptSignature(raw).ok, true);
  });

  test("@deliberate /pick records the person's pick in the conversation's receipt, re-signed", async () => {
    assert.ok(turn);
    const other = turn.options.find((o) => o.id !== turn!.recommended)!;
    const stream = new FakeStream();
    const result = await handleChatRequest(deps, { command: "pick", prompt: other.title }, turn, stream, token());
    assert.equal(result.errorDetails, undefined, result.errorDetails?.message);
    assert.match(stream.text(), /overriding the recommendation/);
    const raw = JSON.parse(readFileSync(join(vscode.Uri.parse(turn.folderUri).fsPath, ".deliberations", `${receiptId}.json`), "utf8"));
    assert.equal(raw.operator_pick.option_id, other.id);
    assert.equal(verifyReceiptSignature(raw).ok, true);
    const none = await handleChatRequest(deps, { command: "pick", prompt: "something else entirely" }, turn, new FakeStream(), token());
    assert.match(none.errorDetails?.message ?? "", /names none of the options/);
  });

  test("@deliberate /receipts lists the receipt and /verify checks it", async () => {
    const list = new FakeStream();
    await handleChatRequest(deps, { command: "receipts", prompt: "" }, undefined, list, token());
    assert.ok(list.anchors.some((a) => a.title?.includes(receiptId)), "the receipt file is anchored");
    const verify = new FakeStream();
    await handleChatRequest(deps, { command: "verify", prompt: "" }, undefined, verify, token());
    assert.ok(verify.text().includes(`${escapeMarkdown(receiptId)}\\.json: signature valid`), verify.text());
  });

  test("a cancelled /ask writes no receipt", async () => {
    const before = receiptsOnDisk().length;
    const source = new vscode.CancellationTokenSource();
    source.cancel();
    const stream = new FakeStream();
    await handleChatRequest(deps, { prompt: "Should the order service retry in the client or through a queue?" }, undefined, stream, source.token);
    assert.match(stream.text(), /Cancelled\. No receipt was written\./);
    assert.equal(receiptsOnDisk().length, before);
  });

  test("the tool confirms with the question and no egress, and its result carries the receipt id and the Markdown", async () => {
    const input = { question: CHAT_Q, offline: true };
    const prepared = await deps.tool.prepareInvocation({ input } as vscode.LanguageModelToolInvocationPrepareOptions<typeof input>);
    const message = prepared.confirmationMessages?.message;
    const text = typeof message === "string" ? message : (message?.value ?? "");
    assert.ok(text.includes("Nothing leaves the machine"), text);
    assert.ok(text.includes("Zustand"), text);
    const result = await deps.tool.invoke({ input, toolInvocationToken: undefined } as vscode.LanguageModelToolInvocationOptions<typeof input>, token());
    const out = result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : "")).join("");
    assert.match(out, /^Receipt id: \S+/);
    assert.ok(out.includes(`# ${CHAT_Q}`));
    const bad = await deps.tool.invoke({ input: { question: "" }, toolInvocationToken: undefined } as vscode.LanguageModelToolInvocationOptions<{ question: string }>, token());
    assert.match(bad.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : "")).join(""), /^Invalid input/);
    for (const d of disposables) d.dispose();
  });
}
