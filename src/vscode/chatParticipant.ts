// The @deliberate chat participant. `/ask` (the default) deliberates: stage progress while it runs, then the
// recommendation callout, the options with their tradeoffs, and the citations as references and anchors to the
// cited files and lines (or URLs); a button opens the picker. `/receipts` lists the receipts, `/verify` checks them.
// The follow-ups (chatRender.ts's followupsFor) come back as `/pick`, `/adr` and `/model`.
//
// The handler's logic is `handleChatRequest`, which writes to a stream-like interface, so the extension-host suite
// drives it with a fake stream.
import * as vscode from "vscode";
import { isCancellation } from "../core/cancel";
import { oneLine } from "../core/text";
import { AgentRunRefused, type AgentRuns } from "./agentRun";
import { asDeliberatedTurn, escapeMarkdown, followupsFor, optionFromPrompt, receiptChatParts, turnOf, type ChatPart, type CitationTarget, type DeliberatedTurn } from "./chatRender";
import { SECTION } from "./constants";
import { runGuard } from "./guard/checkTool";
import { reportMarkdown } from "./guard/findings";
import type { ReceiptCommands } from "./receiptCommands";
import { pickedTitle, type ReceiptIndex } from "./receiptIndex";

export const PARTICIPANT_ID = `${SECTION}.deliberate`;
export const EXPORT_ADR_COMMAND = `${SECTION}.exportAsAdr`;

/** The part of vscode.ChatResponseStream the participant uses. */
export interface ChatStreamLike {
  markdown(value: string): void;
  progress(value: string): void;
  reference(value: vscode.Uri | vscode.Location): void;
  anchor(value: vscode.Uri | vscode.Location, title?: string): void;
  button(command: vscode.Command): void;
}

export interface ChatRequestLike {
  command?: string;
  prompt: string;
  /** The chat's selected model, for `/model`. */
  model?: Pick<vscode.LanguageModelChat, "vendor" | "id" | "name">;
}

export interface ChatDeps {
  runs: AgentRuns;
  index: ReceiptIndex;
  receipts: ReceiptCommands;
  /** Whether a command is registered (Export as ADR comes from another part of the extension, maybe not yet). */
  commandExists(id: string): Promise<boolean>;
}

/** What a turn returns: ChatResult's shape. */
export interface ChatResultLike {
  metadata?: (DeliberatedTurn & { modelOffered: boolean }) | { kind: string };
  errorDetails?: { message: string };
}

const HELP = [
  "Ask an open design question, e.g. `@deliberate should we use Redux or Zustand for the cart state?`",
  "It is answered from this repository's ADRs, conventions and git history, with citations, and recorded in a signed receipt.",
  "",
  "- `/ask <question>`: deliberate (the default)",
  "- `/receipts`: list the receipts",
  "- `/verify`: check every receipt's signature, signer, evidence and citations",
  "- `/check [base ref]`: check the working tree (since the base ref, else against HEAD) against the recorded decisions",
  "",
].join("\n");

export async function handleChatRequest(deps: ChatDeps, request: ChatRequestLike, previous: DeliberatedTurn | undefined, stream: ChatStreamLike, token: vscode.CancellationToken): Promise<ChatResultLike> {
  try {
    switch (request.command) {
      case "receipts":
        return await listReceipts(deps, stream);
      case "verify":
        return await verifyReceipts(deps, stream);
      case "check":
        return await checkChange(deps, request.prompt, stream, token);
      case "pick":
        return await pickOption(deps, request.prompt, previous, stream);
      case "adr":
        return await exportAdr(deps, request.prompt, previous, stream);
      case "model": {
        if (!request.model) return { errorDetails: { message: "This chat has no language model selected to deliberate with." } };
        return await ask(deps, request.prompt, stream, token, `${request.model.vendor}/${request.model.id}`, request.model);
      }
      default:
        return await ask(deps, request.prompt, stream, token, undefined, request.model);
    }
  } catch (err) {
    if (isCancellation(err)) {
      stream.markdown("Cancelled. No receipt was written.\n");
      return {};
    }
    if (err instanceof AgentRunRefused) return { errorDetails: { message: err.message } };
    return { errorDetails: { message: `Deliberation failed: ${oneLine(err)}` } };
  }
}

async function ask(deps: ChatDeps, prompt: string, stream: ChatStreamLike, token: vscode.CancellationToken, languageModel: string | undefined, chatModel: ChatRequestLike["model"]): Promise<ChatResultLike> {
  const question = prompt.trim();
  if (!question) {
    stream.markdown(HELP);
    return { metadata: { kind: "help" } };
  }
  const outcome = await deps.runs.run({ question, ...(languageModel ? { languageModel } : {}) }, (m) => m && stream.progress(m), token, { openPicker: false });
  if (outcome.kind === "abstained") {
    const c = outcome.classification;
    stream.markdown(
      `This looks like ${c.class === "lookup" ? "a lookup, not a design question" : "too thin to call a design question"} (${c.class}, confidence ${c.confidence.toFixed(2)}). ` +
        "Deliberation is for open design questions with options to weigh: rephrase it as a choice, e.g. “should we use X or Y for …?”\n",
    );
    return { metadata: { kind: "abstained" } };
  }
  const folder = outcome.folder;
  writeParts(stream, folder.uri, receiptChatParts(outcome.receipt, { cached: outcome.cached }));
  const ref = { folderUri: folder.uri.toString(), receiptId: outcome.receipt.receipt_id };
  stream.button({ command: `${SECTION}.openReceipt`, title: "Open the Picker", arguments: [ref] });
  if (await deps.commandExists(EXPORT_ADR_COMMAND)) stream.button({ command: EXPORT_ADR_COMMAND, title: "Export as ADR", arguments: [outcome.receipt.receipt_id] });
  const offline = deps.runs.settingsFor(folder, {}).offline;
  const modelOffered = !!chatModel && !languageModel && outcome.receipt.synthesis.mode !== "model" && !offline;
  return { metadata: { ...turnOf(outcome.receipt, folder.uri.toString()), modelOffered } };
}

/** Writes the parts to the stream; file targets resolve inside the folder, with their cited lines. */
export function writeParts(stream: ChatStreamLike, folder: vscode.Uri, parts: ChatPart[]): void {
  for (const part of parts) {
    if (part.kind === "markdown") stream.markdown(part.text);
    else if (part.kind === "anchor") stream.anchor(toLocation(folder, part.target), part.title);
    else stream.reference(toLocation(folder, part.target));
  }
}

export function toLocation(folder: vscode.Uri, t: CitationTarget): vscode.Uri | vscode.Location {
  if (t.kind === "url") return vscode.Uri.parse(t.url, true);
  const uri = vscode.Uri.joinPath(folder, ...t.path.split("/"));
  if (!t.range) return uri;
  return new vscode.Location(uri, new vscode.Range(t.range.start - 1, 0, t.range.end - 1, Number.MAX_SAFE_INTEGER));
}

/** `/check [base]`: the decision guard on the working tree, with anchors to each finding's line and decision. */
async function checkChange(deps: ChatDeps, prompt: string, stream: ChatStreamLike, token: vscode.CancellationToken): Promise<ChatResultLike> {
  stream.progress("Checking the change against the recorded decisions…");
  const controller = new AbortController();
  const sub = token.onCancellationRequested(() => controller.abort());
  try {
    const base = prompt.trim().split(/\s+/)[0] || undefined;
    const { folder, report } = await runGuard(deps.runs, base ? { base } : {}, controller.signal);
    stream.markdown(reportMarkdown(report));
    for (const f of report.findings.slice(0, 30)) {
      stream.anchor(toLocation(folder.uri, { kind: "file", path: f.file, range: { start: f.line, end: f.line } }), `${f.file}:${f.line}`);
      stream.markdown(" → ");
      stream.anchor(toLocation(folder.uri, { kind: "file", path: f.decision.path, range: f.decision.line_range }), `${f.decision.path}:${f.decision.line_range.start}`);
      stream.markdown("\n\n");
    }
    return { metadata: { kind: "check" } };
  } finally {
    sub.dispose();
  }
}

async function listReceipts(deps: ChatDeps, stream: ChatStreamLike): Promise<ChatResultLike> {
  await deps.index.refreshNow();
  const all = deps.index.all();
  if (all.length === 0) {
    stream.markdown("There are no receipts yet. Ask a design question: `@deliberate should we …?`\n");
    return { metadata: { kind: "receipts" } };
  }
  stream.markdown(`${all.length} receipt(s), newest first:\n\n`);
  for (const e of all.slice(0, 30)) {
    const question = e.receipt ? escapeMarkdown(e.receipt.question) : `\`${e.receiptId}\``;
    const picked = e.receipt ? pickedTitle(e.receipt) : undefined;
    stream.markdown(`- **${question}** — ${e.state}${picked ? `: ${escapeMarkdown(picked)}` : ""} · `);
    stream.anchor(vscode.Uri.file(e.file), `${e.folder.name}/${e.receiptsDir}/${e.receiptId}.json`);
    stream.markdown("\n");
  }
  if (all.length > 30) stream.markdown(`\n… and ${all.length - 30} more (the Deliberations side bar lists them all).\n`);
  return { metadata: { kind: "receipts" } };
}

async function verifyReceipts(deps: ChatDeps, stream: ChatStreamLike): Promise<ChatResultLike> {
  stream.progress("Verifying signatures, signers, evidence and citations…");
  await deps.index.refreshNow();
  const targets = deps.index.all();
  if (targets.length === 0) {
    stream.markdown("There are no receipts to verify.\n");
    return { metadata: { kind: "verify" } };
  }
  const { valid, problems, lines } = await deps.receipts.check(targets);
  stream.markdown(problems.length === 0 ? `**All ${valid} receipt(s) verified:** signatures valid and trusted, evidence intact, all citations resolve.\n\n` : `**${problems.length} of ${targets.length} receipt(s) failed verification.**\n\n`);
  for (const line of lines) stream.markdown(`- ${escapeMarkdown(line)}\n`);
  return { metadata: { kind: "verify" } };
}

function folderOf(turn: DeliberatedTurn): vscode.WorkspaceFolder | undefined {
  return vscode.workspace.workspaceFolders?.find((f) => f.uri.toString() === turn.folderUri);
}

async function pickOption(deps: ChatDeps, prompt: string, previous: DeliberatedTurn | undefined, stream: ChatStreamLike): Promise<ChatResultLike> {
  if (!previous) return { errorDetails: { message: "There is no deliberation in this conversation to pick for. Ask one first." } };
  const option = optionFromPrompt(previous, prompt);
  if (!option) return { errorDetails: { message: `“${prompt.trim()}” names none of the options: ${previous.options.map((o) => o.title).join(", ")}.` } };
  const folder = folderOf(previous);
  if (!folder) return { errorDetails: { message: "The deliberation's workspace folder is no longer open." } };
  deps.runs.folderFor(folder.uri.fsPath); // Restricted Mode refuses here too.
  const updated = await deps.runs.recordPick(folder, previous.receiptId, option.id);
  const how = updated.operator_pick?.overrode_recommendation ? "overriding the recommendation" : "the recommendation";
  stream.markdown(`Picked **${escapeMarkdown(option.title)}** (${how}). Receipt \`${updated.receipt_id}\` is re-signed and saved.\n`);
  return { metadata: { ...previous, modelOffered: false } };
}

async function exportAdr(deps: ChatDeps, prompt: string, previous: DeliberatedTurn | undefined, stream: ChatStreamLike): Promise<ChatResultLike> {
  const receiptId = prompt.trim() || previous?.receiptId;
  if (!receiptId) return { errorDetails: { message: "Which receipt? Ask a question first, or give its id: `/adr <receipt id>`." } };
  if (!(await deps.commandExists(EXPORT_ADR_COMMAND))) return { errorDetails: { message: "Export as ADR is not available in this version of Deliberative Search." } };
  await vscode.commands.executeCommand(EXPORT_ADR_COMMAND, receiptId);
  stream.markdown(`Exported receipt \`${receiptId.replace(/`/g, "")}\` as an ADR.\n`);
  return { metadata: { kind: "adr" } };
}

/** The latest turn of ours in the history that deliberated (for `/pick` and `/adr`). */
export function previousTurn(history: vscode.ChatContext["history"]): DeliberatedTurn | undefined {
  for (let i = history.length - 1; i >= 0; i--) {
    const turn = history[i];
    if (!(turn instanceof vscode.ChatResponseTurn) || turn.participant !== PARTICIPANT_ID) continue;
    const found = asDeliberatedTurn(turn.result.metadata);
    if (found) return found;
  }
  return undefined;
}

/** Registers @deliberate where the editor has the chat API; elsewhere logs one line and does nothing. */
export function registerChatParticipant(deps: ChatDeps, extensionUri: vscode.Uri, log: { info(m: string): void }): vscode.Disposable | undefined {
  const chat = (vscode as { chat?: Partial<typeof vscode.chat> }).chat;
  if (typeof chat?.createChatParticipant !== "function") {
    log.info("this editor has no chat participant API; @deliberate is not available");
    return undefined;
  }
  const participant = chat.createChatParticipant(PARTICIPANT_ID, (request, context, stream, token) =>
    handleChatRequest(deps, request, previousTurn(context.history), stream, token) as Promise<vscode.ChatResult>,
  );
  participant.iconPath = vscode.Uri.joinPath(extensionUri, "media", "icon.png");
  participant.followupProvider = {
    provideFollowups: async (result) => {
      const turn = asDeliberatedTurn(result.metadata);
      if (!turn) return [];
      const modelOffered = (result.metadata as { modelOffered?: unknown }).modelOffered === true;
      return followupsFor(turn, { exportAvailable: await deps.commandExists(EXPORT_ADR_COMMAND), modelOffered });
    },
  };
  return participant;
}
