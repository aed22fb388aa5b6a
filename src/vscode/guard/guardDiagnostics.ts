// The decision guard in the editor: diagnostics in the Problems panel on the changed lines that go against an
// in-force decision (the working tree against HEAD, per workspace folder), refreshed on save; a hover that cites
// the decision with a link; quick fixes "Open Decision" and "Deliberate on This". Off with
// `deliberativeSearch.guard.enabled: false`, and nothing at all in an untrusted workspace (it runs git and reads the
// repository). The check runs in the heavy bundle (core/guard/), loaded on first use.
import * as vscode from "vscode";
import { isCancellation } from "../../core/cancel";
import type { GuardReport } from "../../core/guard/schema";
import { oneLine } from "../../core/text";
import { readSettings } from "../config";
import { SECTION } from "../constants";
import { loadHeavyBundle } from "../loadHeavyBundle";
import type { Log } from "../log";
import type { DeliberationRequest } from "../request";
import { GUARD_SOURCE, deliberationQuestion, hoverMarkdown, marksByFile, type GuardMark } from "./findings";

export const OPEN_DECISION_COMMAND = `${SECTION}.guard.openDecision`;
export const DELIBERATE_FINDING_COMMAND = `${SECTION}.guard.deliberateOnFinding`;
const REFRESH_DELAY_MS = 400;
/** The first check waits until activation is over: activation never loads the heavy bundle or runs git. */
const FIRST_CHECK_DELAY_MS = 2000;

const SEVERITY: Record<GuardMark["severity"], vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  information: vscode.DiagnosticSeverity.Information,
};

interface Marked {
  folder: vscode.WorkspaceFolder;
  mark: GuardMark;
}

export class GuardDiagnostics implements vscode.Disposable, vscode.HoverProvider, vscode.CodeActionProvider {
  private readonly collection = vscode.languages.createDiagnosticCollection("deliberativeSearch.guard");
  private readonly marks = new Map<string, Marked[]>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly running = new Map<string, AbortController>();
  private readonly disposables: vscode.Disposable[] = [];
  /** Shown only while a check failed for a reason other than "not a git repository": a failure is never silent. */
  private readonly status = vscode.window.createStatusBarItem(`${SECTION}.guard`, vscode.StatusBarAlignment.Left, 0);
  private readonly failed = new Map<string, string>();

  constructor(
    private readonly log: Log,
    private readonly deliberate: (req: DeliberationRequest) => Promise<void>,
    /** The extension's own signing key: picked receipts it signed count as decisions (as do allowed signers'). */
    private readonly ownPublicKey?: () => Promise<string | undefined>,
  ) {
    this.status.name = "Decision Guard";
    this.status.command = `${SECTION}.showLog`;
    this.disposables.push(
      this.collection,
      this.status,
      vscode.workspace.onDidSaveTextDocument((doc) => {
        const folder = vscode.workspace.getWorkspaceFolder(doc.uri);
        if (folder) this.schedule(folder);
      }),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.refreshAll()),
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.refreshAll()),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(`${SECTION}.guard`)) this.refreshAll();
      }),
      vscode.languages.registerHoverProvider({ scheme: "file" }, this),
      vscode.languages.registerCodeActionsProvider({ scheme: "file" }, this, { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] }),
      vscode.commands.registerCommand(OPEN_DECISION_COMMAND, (folder: unknown, path: unknown, line: unknown) => this.openDecision(folder, path, line)),
      vscode.commands.registerCommand(DELIBERATE_FINDING_COMMAND, (req: unknown) => this.deliberateOn(req)),
    );
    this.first = setTimeout(() => this.refreshAll(), FIRST_CHECK_DELAY_MS);
  }

  private readonly first: NodeJS.Timeout;

  private enabledFor(folder: vscode.WorkspaceFolder): boolean {
    if (!vscode.workspace.isTrusted) return false;
    try {
      return readSettings(folder).guardEnabled;
    } catch (err) {
      this.log.error(`guard: ${folder.name}: the settings could not be read, so the guard is off for this folder`, err);
      return false;
    }
  }

  refreshAll(): void {
    for (const folder of vscode.workspace.workspaceFolders ?? []) this.schedule(folder, 0);
    // Folders that left the workspace keep no diagnostics.
    const open = new Set((vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.toString()));
    for (const key of [...this.marks.keys(), ...this.failed.keys()]) {
      if (open.has(key)) continue;
      this.clear(key);
      this.setFailure(key);
    }
  }

  private schedule(folder: vscode.WorkspaceFolder, delay = REFRESH_DELAY_MS): void {
    const key = folder.uri.toString();
    clearTimeout(this.timers.get(key));
    this.timers.set(key, setTimeout(() => void this.refresh(folder), delay));
  }

  private clear(key: string): void {
    for (const m of this.marks.get(key) ?? []) this.collection.delete(vscode.Uri.joinPath(m.folder.uri, m.mark.file));
    this.marks.delete(key);
  }

  /** Re-checks one folder's working tree against HEAD and replaces its diagnostics. */
  async refresh(folder: vscode.WorkspaceFolder): Promise<void> {
    const key = folder.uri.toString();
    this.running.get(key)?.abort();
    if (!this.enabledFor(folder) || folder.uri.scheme !== "file") {
      this.clear(key);
      this.setFailure(key);
      return;
    }
    const controller = new AbortController();
    this.running.set(key, controller);
    let report: GuardReport;
    try {
      const { checkChange, hostCorpusCache } = loadHeavyBundle();
      const ownPublicKeyPem = await this.ownPublicKey?.().catch(() => undefined);
      report = await checkChange(folder.uri.fsPath, { kind: "worktree" }, { signal: controller.signal, cache: hostCorpusCache(process.env), ownPublicKeyPem });
    } catch (err) {
      if (isCancellation(err, controller.signal) || controller.signal.aborted) return;
      this.clear(key);
      if (isNothingToCheck(err)) {
        // Not a git repository: the guard has nothing to say about this folder.
        this.log.info(`guard: ${folder.name}: ${oneLine(err)}`);
        this.setFailure(key);
      } else {
        this.log.error(`guard: ${folder.name}: the check failed`, err);
        this.setFailure(key, `${folder.name}: ${oneLine(err)}`);
      }
      return;
    } finally {
      if (this.running.get(key) === controller) this.running.delete(key);
    }
    this.clear(key);
    this.setFailure(key);
    const byFile = marksByFile(report);
    const kept: Marked[] = [];
    for (const [file, marks] of byFile) {
      const uri = vscode.Uri.joinPath(folder.uri, file);
      this.collection.set(
        uri,
        marks.map((m) => {
          const d = new vscode.Diagnostic(new vscode.Range(m.line, 0, m.line, Number.MAX_SAFE_INTEGER), m.message, SEVERITY[m.severity]);
          d.source = GUARD_SOURCE;
          d.code = m.code;
          d.relatedInformation = [
            new vscode.DiagnosticRelatedInformation(
              new vscode.Location(vscode.Uri.joinPath(folder.uri, m.finding.decision.path), new vscode.Range(m.finding.decision.line_range.start - 1, 0, m.finding.decision.line_range.end - 1, 0)),
              `${m.finding.decision.title} (${m.finding.decision.status})`,
            ),
          ];
          return d;
        }),
      );
      for (const mark of marks) kept.push({ folder, mark });
    }
    this.marks.set(key, kept);
    this.log.info(`guard: ${folder.name}: ${report.findings.length} finding(s) in ${report.checked.files} changed file(s) against ${report.checked.decisions} decision(s)`);
  }

  /** Records (or, without a reason, clears) a folder's failed check, and shows the status item while any failed. */
  private setFailure(key: string, reason?: string): void {
    if (reason) this.failed.set(key, reason);
    else this.failed.delete(key);
    if (!this.failed.size) {
      this.status.hide();
      return;
    }
    this.status.text = "$(warning) Decision guard failed";
    this.status.tooltip = `The decision guard could not check ${[...this.failed.values()].join("; ").slice(0, 500)}. Click for the log.`;
    this.status.show();
  }

  /** The guard's marks on a document's line. */
  private marksAt(doc: vscode.TextDocument, line: number): Marked[] {
    const folder = vscode.workspace.getWorkspaceFolder(doc.uri);
    if (!folder) return [];
    const rel = vscode.workspace.asRelativePath(doc.uri, false);
    return (this.marks.get(folder.uri.toString()) ?? []).filter((m) => m.mark.line === line && (m.mark.file === rel || vscode.Uri.joinPath(folder.uri, m.mark.file).toString() === doc.uri.toString()));
  }

  provideHover(doc: vscode.TextDocument, position: vscode.Position): vscode.Hover | undefined {
    const here = this.marksAt(doc, position.line);
    if (!here.length) return undefined;
    const md = new vscode.MarkdownString(
      here
        .map(({ folder, mark }) => {
          const args = encodeURIComponent(JSON.stringify([folder.uri.toString(), mark.finding.decision.path, mark.finding.decision.line_range.start]));
          return hoverMarkdown(mark.finding, `command:${OPEN_DECISION_COMMAND}?${args}`);
        })
        .join("\n\n---\n\n"),
    );
    md.isTrusted = { enabledCommands: [OPEN_DECISION_COMMAND] };
    return new vscode.Hover(md);
  }

  provideCodeActions(doc: vscode.TextDocument, range: vscode.Range | vscode.Selection, context: vscode.CodeActionContext): vscode.CodeAction[] {
    if (!context.diagnostics.some((d) => d.source === GUARD_SOURCE)) return [];
    const actions: vscode.CodeAction[] = [];
    for (const { folder, mark } of this.marksAt(doc, range.start.line)) {
      const f = mark.finding;
      const open = new vscode.CodeAction(`Open Decision: ${f.decision.title}`, vscode.CodeActionKind.QuickFix);
      open.command = { command: OPEN_DECISION_COMMAND, title: "Open Decision", arguments: [folder.uri.toString(), f.decision.path, f.decision.line_range.start] };
      open.diagnostics = context.diagnostics.filter((d) => d.source === GUARD_SOURCE);
      const ask = new vscode.CodeAction("Deliberate on This", vscode.CodeActionKind.QuickFix);
      ask.command = { command: DELIBERATE_FINDING_COMMAND, title: "Deliberate on This", arguments: [{ folder: folder.uri.toString(), question: deliberationQuestion(f), file: f.file, line: f.line }] };
      ask.diagnostics = open.diagnostics;
      actions.push(open, ask);
    }
    return actions;
  }

  /** Opens a decision at its lines: only a file inside the workspace folder the finding came from. */
  private async openDecision(folderArg: unknown, pathArg: unknown, lineArg: unknown): Promise<void> {
    const folder = typeof folderArg === "string" ? vscode.workspace.getWorkspaceFolder(vscode.Uri.parse(folderArg)) : undefined;
    if (!folder || typeof pathArg !== "string" || pathArg.startsWith("/") || pathArg.split(/[\\/]/).includes("..")) return;
    const line = typeof lineArg === "number" && Number.isInteger(lineArg) && lineArg >= 1 ? lineArg - 1 : 0;
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(folder.uri, pathArg));
    await vscode.window.showTextDocument(doc, { selection: new vscode.Range(line, 0, line, 0), preview: true });
  }

  private async deliberateOn(arg: unknown): Promise<void> {
    if (!vscode.workspace.isTrusted || !arg || typeof arg !== "object") return;
    const a = arg as { folder?: unknown; question?: unknown; file?: unknown; line?: unknown };
    const folder = typeof a.folder === "string" ? vscode.workspace.getWorkspaceFolder(vscode.Uri.parse(a.folder)) : undefined;
    if (!folder || typeof a.question !== "string") return;
    await this.deliberate({
      folder,
      question: a.question.slice(0, 1000),
      force: true,
      ...(typeof a.file === "string" ? { context: { file: a.file, ...(typeof a.line === "number" ? { line: a.line } : {}) } } : {}),
    });
  }

  dispose(): void {
    clearTimeout(this.first);
    for (const t of this.timers.values()) clearTimeout(t);
    for (const c of this.running.values()) c.abort();
    for (const d of this.disposables) d.dispose();
  }
}

/** A folder with no change to read (not inside a git work tree): the guard has nothing to say, which is no failure. */
function isNothingToCheck(err: unknown): boolean {
  return err instanceof Error && err.name === "ChangeInputError" && (err as { reason?: unknown }).reason === "not-a-repository";
}
