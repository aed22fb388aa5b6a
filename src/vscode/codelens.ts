// CodeLens on open-question comments in any language. provideCodeLenses is a regex pass over the document plus a
// map lookup in the receipt index: no I/O per keystroke. Lenses refresh when receipts or settings change.
import * as vscode from "vscode";
import { COMMENT_OPENER, PLAIN_TODO_LINE, mayBeOpenQuestionTodo, stripCommentMarkers } from "../core/classify";
import { SECTION } from "./constants";
import { readSettings } from "./config";
import { loadHeavyBundle } from "./loadHeavyBundle";
import { pickedTitle, staleLabel, type ReceiptIndex } from "./receiptIndex";


function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

export interface QuestionMatcher {
  tagged: RegExp;
  plainTodo: RegExp | undefined;
  /** Lower-cased words one of which a line must hold before any pattern runs on it (the tags' leading words). */
  needles: string[];
}

export function buildMatcher(tags: string[], plainTodos: boolean): QuestionMatcher {
  const alternatives = tags.map((t) => escapeRegex(t.trim()).replace(/\\\(/g, "\\(\\s*").replace(/\\\)/g, "\\s*\\)").replace(/\s+/g, "\\s*"));
  const tagged = new RegExp(`(?:^|[\\s;{}(),])${COMMENT_OPENER}\\s*(?:${alternatives.join("|") || "(?!)"})`, "i");
  const plainTodo = plainTodos ? PLAIN_TODO_LINE : undefined;
  const lead = (t: string) => /[\p{L}\p{N}]+/u.exec(t)?.[0]?.toLowerCase();
  const needles = [...new Set([...tags.map(lead), ...(plainTodos ? ["todo", "fixme"] : [])].filter((w): w is string => !!w))];
  return { tagged, plainTodo, needles };
}

/** Above this many characters a pass stops: a line over 2,000 characters is skipped, so real code never gets near. */
const MAX_SCANNED_CHARS = 8 * 1024 * 1024;
/**
 * At most this many plain TODOs per pass, and this many of their characters, go to the classifier (it runs the
 * tagger, ~1–5 ms a comment); the rest get no lens. A cached verdict costs nothing and is not counted.
 */
export const MAX_CLASSIFIED_PER_PASS = 200;
export const MAX_CLASSIFIED_CHARS = 50_000;
/** Verdicts on plain TODO comments, by their text: typing elsewhere in a file re-runs the pass, not the tagger. */
const verdicts = new Map<string, boolean>();
const MAX_VERDICTS = 4096;

/** The cached verdict on a plain TODO, else the classifier's while the pass may still spend on it (`spend`). */
function isOpenQuestion(raw: string, spend: () => boolean): boolean {
  let v = verdicts.get(raw);
  if (v === undefined) {
    // The cheap check is free; only what reaches the tagger is counted.
    if (!mayBeOpenQuestionTodo(raw)) v = false;
    else if (!spend()) return false;
    else v = loadHeavyBundle().isOpenQuestionTodo(raw);
    if (verdicts.size >= MAX_VERDICTS) verdicts.clear();
    verdicts.set(raw, v);
  }
  return v;
}

export interface QuestionLine {
  line: number;
  /** The comment text from its marker on (tags kept: the classifier counts them). */
  raw: string;
  question: string;
}

/**
 * Finds the open-question comments of a text. Pure (but for a verdict cache), so it is unit-testable without VS
 * Code. It runs on the extension host's thread on every edit, so each line costs a substring test unless it holds a
 * tag's word, patterns are linear, the tagger runs on at most MAX_CLASSIFIED_PER_PASS plain TODOs, and a pass reads
 * at most maxLines lines and MAX_SCANNED_CHARS characters. `plainTodos: false` skips plain TODOs (Restricted Mode).
 */
export function findQuestionLines(text: string, matcher: QuestionMatcher, maxLines = 20_000, opts: { plainTodos?: boolean } = {}): QuestionLine[] {
  const out: QuestionLine[] = [];
  let classified = 0;
  let classifiedChars = 0;
  const spend = (raw: string) => () => {
    if (classified >= MAX_CLASSIFIED_PER_PASS || classifiedChars + raw.length > MAX_CLASSIFIED_CHARS) return false;
    classified++;
    classifiedChars += raw.length;
    return true;
  };
  let scanned = 0;
  let start = 0;
  for (let i = 0; i < maxLines && start <= text.length && scanned <= MAX_SCANNED_CHARS; i++) {
    const nl = text.indexOf("\n", start);
    const end = nl === -1 ? text.length : nl;
    const line = text.slice(start, end > start && text.charCodeAt(end - 1) === 13 ? end - 1 : end);
    scanned += end - start + 1;
    start = end + 1;
    if (line.length > 2000) continue;
    const lower = line.toLowerCase();
    if (!matcher.needles.some((w) => lower.includes(w))) continue;
    let m = matcher.tagged.exec(line);
    let plain = false;
    // Once the classifier's budget is spent, plain TODOs are not even matched.
    if (!m && matcher.plainTodo && opts.plainTodos !== false && classified < MAX_CLASSIFIED_PER_PASS && classifiedChars < MAX_CLASSIFIED_CHARS) {
      m = matcher.plainTodo.exec(line);
      plain = !!m;
    }
    if (!m) continue;
    const raw = line.slice(m.index).trim();
    const question = stripCommentMarkers(raw);
    if (!question) continue;
    // isOpenQuestionTodo needs the tagger (core bundle); the cheap check keeps most TODOs from loading it.
    if (plain && !isOpenQuestion(raw, spend(raw))) continue;
    out.push({ line: i, raw, question });
    if (nl === -1) break;
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
      // Trusting the workspace turns plain TODO lenses on.
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.changed.fire()),
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
    // In Restricted Mode only tagged comments get a lens: the classifier is not loaded for a repository not trusted.
    const found = findQuestionLines(document.getText(), this.matcher, undefined, { plainTodos: vscode.workspace.isTrusted });
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
