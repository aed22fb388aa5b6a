// CodeLens on open-question comments in any language. provideCodeLenses is a regex pass over the document plus a
// map lookup in the receipt index: no I/O per keystroke. Lenses refresh when receipts or settings change.
import * as vscode from "vscode";
import { COMMENT_OPENER, PLAIN_TODO_LINE, mayBeOpenQuestionTodo, stripCommentMarkers } from "../core/classify";
import { SECTION } from "./constants";
import { readSettings } from "./config";
import { loadHeavyBundle } from "./loadHeavyBundle";
import type { Log } from "./log";
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

/** A pass reads at most this many lines, and this many characters (a line over 2,000 characters is skipped). */
export const MAX_SCANNED_LINES = 20_000;
const MAX_SCANNED_CHARS = 8 * 1024 * 1024;
/**
 * At most this many plain TODOs per pass, this many of their characters and this much time go to the classifier
 * (it runs the tagger, ~1–60 ms a comment); the rest get no lens in this pass. A cached verdict costs nothing and
 * is not counted, so a later pass (after an edit) classifies the next ones.
 */
export const MAX_CLASSIFIED_PER_PASS = 200;
export const MAX_CLASSIFIED_CHARS = 50_000;
const MAX_CLASSIFIER_MS = 250;
const MAX_VERDICTS = 4096;

/** Whether a plain TODO comment asks an open question (`isOpenQuestionTodo`; the tests count its calls). */
export type TodoClassifier = (raw: string) => boolean;
const classifyWithHeavyBundle: TodoClassifier = (raw) => loadHeavyBundle().isOpenQuestionTodo(raw);
/** Verdicts on plain TODO comments, by their text: typing elsewhere in a file re-runs the pass, not the tagger. */
const verdictCaches = new WeakMap<TodoClassifier, Map<string, boolean>>();
/** The first verdict of the session loads the tagger (~0.3 s); it is not charged to a pass's time. */
let taggerWarm = false;

/** One pass's spending on the classifier, and its cached verdicts. */
class ClassifierBudget {
  private calls = 0;
  private chars = 0;
  private ms = 0;
  /** A plain TODO that may be a question went without a verdict: the budget was spent. */
  denied = false;
  private readonly verdicts: Map<string, boolean>;

  constructor(private readonly classify: TodoClassifier) {
    let v = verdictCaches.get(classify);
    if (!v) verdictCaches.set(classify, (v = new Map()));
    this.verdicts = v;
  }

  isOpenQuestion(raw: string): boolean {
    let v = this.verdicts.get(raw);
    if (v !== undefined) return v;
    // Once the budget is spent, a plain TODO without a verdict is not even read (the cheap check strips it).
    if (this.spent()) {
      this.denied = true;
      return false;
    }
    // The cheap check is not counted; only what reaches the tagger is.
    if (!mayBeOpenQuestionTodo(raw)) v = false;
    else if (!this.spend(raw)) return false;
    else {
      const t = performance.now();
      v = this.classify(raw);
      const loading = this.classify === classifyWithHeavyBundle && !taggerWarm;
      if (!loading) this.ms += performance.now() - t;
      taggerWarm ||= this.classify === classifyWithHeavyBundle;
    }
    if (this.verdicts.size >= MAX_VERDICTS) this.verdicts.clear();
    this.verdicts.set(raw, v);
    return v;
  }

  private spent(): boolean {
    return this.calls >= MAX_CLASSIFIED_PER_PASS || this.chars >= MAX_CLASSIFIED_CHARS || this.ms >= MAX_CLASSIFIER_MS;
  }

  private spend(raw: string): boolean {
    if (this.spent() || this.chars + raw.length > MAX_CLASSIFIED_CHARS) {
      this.denied = true;
      return false;
    }
    this.calls++;
    this.chars += raw.length;
    return true;
  }
}

export interface QuestionLine {
  line: number;
  /** The comment text from its marker on (tags kept: the classifier counts them). */
  raw: string;
  question: string;
}

/** Why a pass left part of a document without lenses. */
export type ScanLimit = "lines" | "chars" | "classifier";

export interface ScanOptions {
  /** False in Restricted Mode: plain TODOs get no lens, and the classifier never runs on an untrusted repository. */
  plainTodos?: boolean;
  /** The plain-TODO classifier; `isOpenQuestionTodo` of the heavy bundle by default. */
  classify?: TodoClassifier;
  /** Told, after the pass, of each limit that left part of the document without lenses. */
  onLimit?: (limit: ScanLimit) => void;
}

/** The question comment of one line, if it has one. */
function matchLine(line: string, tagged: RegExp, plainTodo: RegExp | undefined, budget: ClassifierBudget): Omit<QuestionLine, "line"> | undefined {
  let m = tagged.exec(line);
  const plain = !m && !!plainTodo;
  if (plain) m = plainTodo.exec(line);
  if (!m) return undefined;
  const raw = line.slice(m.index).trim();
  // isOpenQuestionTodo needs the tagger (core bundle); the cheap check keeps most TODOs from loading it.
  if (plain && !budget.isOpenQuestion(raw)) return undefined;
  const question = stripCommentMarkers(raw);
  return question ? { raw, question } : undefined;
}

/**
 * Finds the open-question comments of a text. Pure (but for a verdict cache), so it is unit-testable without VS
 * Code. It runs on the extension host's thread on every edit, so each line costs a substring test unless it holds a
 * tag's word, patterns are linear, the tagger runs on at most MAX_CLASSIFIED_PER_PASS plain TODOs, and a pass reads
 * at most maxLines lines and MAX_SCANNED_CHARS characters.
 */
export function findQuestionLines(text: string, matcher: QuestionMatcher, maxLines = MAX_SCANNED_LINES, opts: ScanOptions = {}): QuestionLine[] {
  const out: QuestionLine[] = [];
  const budget = new ClassifierBudget(opts.classify ?? classifyWithHeavyBundle);
  const plainTodo = opts.plainTodos === false ? undefined : matcher.plainTodo;
  let scanned = 0;
  let start = 0;
  let i = 0;
  for (; i < maxLines && start <= text.length && scanned <= MAX_SCANNED_CHARS; i++) {
    const nl = text.indexOf("\n", start);
    const end = nl === -1 ? text.length : nl;
    const line = text.slice(start, end > start && text.charCodeAt(end - 1) === 13 ? end - 1 : end);
    scanned += end - start + 1;
    start = end + 1;
    if (line.length > 2000) continue;
    const lower = line.toLowerCase();
    if (!matcher.needles.some((w) => lower.includes(w))) continue;
    const found = matchLine(line, matcher.tagged, plainTodo, budget);
    if (found) out.push({ line: i, ...found });
  }
  if (start < text.length) opts.onLimit?.(i >= maxLines ? "lines" : "chars");
  if (budget.denied) opts.onLimit?.("classifier");
  return out;
}

const LIMIT_TEXT: Record<ScanLimit, string> = {
  lines: `has more than ${MAX_SCANNED_LINES.toLocaleString("en-US")} lines: comments below that line get no CodeLens`,
  chars: `is over ${MAX_SCANNED_CHARS / 1024 / 1024} MB: comments past that point get no CodeLens`,
  classifier: `has more plain TODO comments that may be questions than one pass classifies (${MAX_CLASSIFIED_PER_PASS}): some get their CodeLens only after later edits; tag a question TODO(decide) to be sure`,
};

export class QuestionCodeLensProvider implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [this.changed];
  private matcher: QuestionMatcher | undefined;
  private enabled = true;
  /** Documents (and limits) already named in the log: a pass runs on every edit. */
  private readonly reported = new Set<string>();

  constructor(
    private readonly index: ReceiptIndex,
    private readonly log?: Log,
  ) {
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
    const found = findQuestionLines(document.getText(), this.matcher, undefined, {
      plainTodos: vscode.workspace.isTrusted,
      onLimit: (limit) => this.reportLimit(document.uri, limit),
    });
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

  /** Says once per document and limit, in the log, that part of it gets no lens (it would be silent otherwise). */
  private reportLimit(uri: vscode.Uri, limit: ScanLimit): void {
    const key = `${limit} ${uri.toString()}`;
    if (!this.log || this.reported.has(key)) return;
    if (this.reported.size >= 1000) this.reported.clear();
    this.reported.add(key);
    this.log.info(`CodeLens: ${vscode.workspace.asRelativePath(uri)} ${LIMIT_TEXT[limit]}`);
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
