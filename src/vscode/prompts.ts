// Asking for the question: the selection or the open-question comment on a line (with ~20 surrounding lines as
// context), an input box, and which workspace folder to read. Nothing here runs a deliberation.
import { relative } from "node:path";
import * as vscode from "vscode";
import { stripCommentMarkers } from "../core/classify";
import { loadHeavyBundle } from "./loadHeavyBundle";
import type { DeliberationRequest } from "./request";

const CONTEXT_RADIUS = 10;

const QUESTION_PLACEHOLDER = "e.g. Should we use Redux or Zustand for the cart state?";

/** The input box's check: the question must fit core's limit (MAX_QUESTION_BYTES). */
export function questionTooLong(value: string): string | undefined {
  const limit = loadHeavyBundle().maxQuestionBytes();
  return Buffer.byteLength(value, "utf8") > limit ? `The question is limited to ${limit} bytes (${Math.round(limit / 1024)} kB)` : undefined;
}

export async function pickFolder(): Promise<vscode.WorkspaceFolder | undefined> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.length === 0) {
    void vscode.window.showInformationMessage("Deliberative Search needs an open folder: deliberations read its ADRs, docs and git history.");
    return undefined;
  }
  if (folders.length === 1) return folders[0];
  return vscode.window.showWorkspaceFolderPick({ placeHolder: "Which repository should the deliberation read?" });
}

/** The active editor's folder, else the one the user picks. */
export async function activeFolder(): Promise<vscode.WorkspaceFolder | undefined> {
  const editor = vscode.window.activeTextEditor;
  return (editor && vscode.workspace.getWorkspaceFolder(editor.document.uri)) ?? (await pickFolder());
}

export function contextAround(folder: vscode.WorkspaceFolder, doc: vscode.TextDocument, line: number): NonNullable<DeliberationRequest["context"]> {
  const from = Math.max(0, line - CONTEXT_RADIUS);
  const to = Math.min(doc.lineCount - 1, line + CONTEXT_RADIUS);
  const text = doc.getText(new vscode.Range(from, 0, to, doc.lineAt(to).range.end.character));
  const file = doc.uri.scheme === "file" ? relative(folder.uri.fsPath, doc.uri.fsPath).split("\\").join("/") : undefined;
  return { ...(file ? { file } : {}), line: line + 1, text: `${file ?? doc.uri.path}\n${text}` };
}

/** The selection, else the line under the cursor, and the line it starts on. */
export function selectedText(editor: vscode.TextEditor): { raw: string; line: number } {
  const sel = editor.selection;
  const line = sel.isEmpty ? sel.active.line : sel.start.line;
  return { raw: sel.isEmpty ? editor.document.lineAt(line).text : editor.document.getText(sel), line };
}

/** A request from a comment or selection in a document; asks for the question when the line has none. */
export async function requestFromText(doc: vscode.TextDocument, raw: string, line: number): Promise<DeliberationRequest | undefined> {
  let question = stripCommentMarkers(raw);
  if (!question) {
    const typed = await vscode.window.showInputBox({
      title: "Deliberate on a Question",
      prompt: "No question on this line. Type the design question to deliberate on.",
      placeHolder: QUESTION_PLACEHOLDER,
      ignoreFocusOut: true,
      validateInput: questionTooLong,
    });
    if (!typed?.trim()) return undefined;
    question = typed.trim();
    raw = typed;
  }
  const folder = vscode.workspace.getWorkspaceFolder(doc.uri) ?? (await pickFolder());
  if (!folder) return undefined;
  return { folder, question, raw, context: contextAround(folder, doc, line) };
}

/** "Deliberate on a Question…": an input box. */
export async function requestFromInputBox(): Promise<DeliberationRequest | undefined> {
  const folder = await activeFolder();
  if (!folder) return undefined;
  const question = await vscode.window.showInputBox({
    title: "Deliberate on a Question",
    prompt: "An open design question. It is answered from your ADRs, conventions and git history, with citations.",
    placeHolder: "e.g. Should we adopt winston for logging?",
    ignoreFocusOut: true,
    validateInput: questionTooLong,
  });
  if (!question?.trim()) return undefined;
  return { folder, question: question.trim() };
}

/** "Preview Egress": the question to preview, suggested from the editor; its context only when kept as suggested. */
export async function requestForPreview(): Promise<DeliberationRequest | undefined> {
  const editor = vscode.window.activeTextEditor;
  const folder = await activeFolder();
  if (!folder) return undefined;
  let suggested = "";
  let context: DeliberationRequest["context"];
  if (editor && vscode.workspace.getWorkspaceFolder(editor.document.uri)?.uri.toString() === folder.uri.toString()) {
    const { raw, line } = selectedText(editor);
    suggested = stripCommentMarkers(raw);
    if (suggested) context = contextAround(folder, editor.document, line);
  }
  const question = await vscode.window.showInputBox({
    title: "Deliberative Search: Preview Egress",
    prompt: "The question to preview. Retrieval runs locally; nothing is sent to the model.",
    value: suggested,
    placeHolder: QUESTION_PLACEHOLDER,
    ignoreFocusOut: true,
    validateInput: questionTooLong,
  });
  if (!question?.trim()) return undefined;
  const kept = question.trim() === suggested;
  return { folder, question: question.trim(), force: true, ...(kept && context ? { context } : {}) };
}
