// CodeLens on open-question comments in any language. provideCodeLenses is a regex pass over the document plus a
// map lookup in the receipt index: no I/O per keystroke. Lenses refresh when receipts or settings change.
import * as vscode from "vscode";
import { PLAIN_TODO_LINE, mayBeOpenQuestionTodo, stripCommentMarkers } from "../core/classify";
import { SECTION } from "./constants";
import { readSettings } from "./config";
import { loadHeavyBundle } from "./loadHeavyBundle";
import { pickedTitle, staleLabel, type ReceiptIndex } from "./receiptIndex";

// Comment openers across languages: // /* * # -- ; <!-- % ' REM {- (*
const COMMENT_MARKER = String.raw`(?:\/\/+!?|\/\*+!?|\*+|#+|--+|;+|<!--|%+|'|\bREM\b|\{-|\(\*)`;

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

export interface QuestionMatcher {
  tagged: RegExp;
  plainTodo: RegExp | undefined;
}

export function buildMatcher(tags: string[], plainTodos: boolean): QuestionMatcher {
  const alternatives = tags.map((t) => escapeRegex(t.trim()).replace(/\\\(/g, "\\(\\s*").replace(/\\\)/g, "\\s*\\)").replace(/\s+/g, "\\s*"));
  const tagged = new RegExp(`(?:^|[\\s;{}(),])${COMMENT_MARKER}\\s*(?:${alternatives.join("|") || "(?!)"})`, "i");
  const plainTodo = plainTodos ? PLAIN_TODO_LINE : undefined;
  return { tagged, plainTodo };
}

export interface QuestionLine {
  line: number;
  /** The comment text from its marker on (tags kept: the classifier counts them). */
  raw: string;
  question: string;
}

/** Finds the open-question comments of a text. Pure, so it is unit-testable without VS Code. */
export function findQuestionLines(text: string, matcher: QuestionMatcher, maxLines = 20_000): QuestionLine[] {
  const out: QuestionLine[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length && i < maxLines; i++) {
    const line = lines[i]!;
    if (line.length > 2000) continue;
    let m = matcher.tagged.exec(line);
    let plain = false;
    if (!m && matcher.plainTodo) {
      m = matcher.plainTodo.exec(line);
      plain = !!m;
    }
    if (!m) continue;
    const raw = line.slice(m.index).trim();
    const question = stripCommentMarkers(raw);
    if (!question) continue;
    // isOpenQuestionTodo needs the tagger (core bundle); the cheap check keeps most TODOs from loading it.
    if (plain && !(mayBeOpenQuestionTodo(raw) && loadHeavyBundle().isOpenQuestionTodo(raw))) continue;
    out.push({ line: i, raw, question });
  }
  return out;
}

export class QuestionCodeLensProvider implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [this.changed];
  private matcher: QuestionMatcher | undefined;
  private enabled = true;

  constructor(private readonly index: ReceiptIndex) {
    this.disposables.push(
      index.onDidChange(() => this.changed.fire()),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(`${SECTION}.codeLens`)) {
          this.matcher = undefined;
          this.changed.fire();
        }
      }),
    );
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    if (!this.matcher) {
      const s = readSettings();
      this.enabled = s.codeLensEnabled;
      this.matcher = buildMatcher(s.codeLensTags, s.codeLensPlainTodos);
    }
    if (!this.enabled || document.uri.scheme === "output") return [];
    const found = findQuestionLines(document.getText(), this.matcher);
    if (found.length === 0) return [];
    // The first document with a question loads the receipt index once; the lenses update when it arrives.
    if (!this.index.isLoaded) void this.index.ensureLoaded();
    const folder = vscode.workspace.getWorkspaceFolder(document.uri);
    const lenses: vscode.CodeLens[] = [];
    for (const q of found) {
      const range = new vscode.Range(q.line, 0, q.line, 0);
      const entry = this.index.byQuestion(q.question);
      const sameFolder = entry && (!folder || entry.folder.uri.toString() === folder.uri.toString());
      if (entry?.receipt && sameFolder && entry.state !== "corrupt") {
        const picked = pickedTitle(entry.receipt);
        const target = { folderUri: entry.folder.uri.toString(), receiptId: entry.receiptId };
        // Freshness is computed in the background; the lenses update when it arrives.
        if (this.index.hasUncomputedStaleness()) void this.index.computeStaleness();
        const stale = staleLabel(entry);
        const suffix = stale ? ` (${stale})` : "";
        lenses.push(
          new vscode.CodeLens(range, {
            title: picked ? `$(${stale ? "history" : "pass"}) Decided: ${picked}${suffix}` : `$(circle-large-outline) Deliberated: pending pick${suffix}`,
            tooltip: stale
              ? `The evidence of this decision ${stale === "new evidence" ? "gained a new artifact" : "changed"} since it was made: ${entry.freshness?.summary ?? ""}`
              : picked
                ? `Open the signed receipt for "${q.question}"`
                : "Open the option picker to record a pick",
            command: "deliberativeSearch.openReceipt",
            arguments: [target],
          }),
        );
      } else {
        lenses.push(
          new vscode.CodeLens(range, {
            title: "$(comment-discussion) Deliberate",
            tooltip: `Deliberate on "${q.question}": mine ADRs, docs and git history, then pick an option`,
            command: "deliberativeSearch.deliberateAt",
            arguments: [document.uri, q.line],
          }),
        );
      }
    }
    return lenses;
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
