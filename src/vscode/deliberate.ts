// Running a deliberation from the editor: gather the question and its context, check trust, show a cancellable
// progress notification that reports each stage, log every stage's timing, and open the picker on the receipt.
// Cancel aborts the pipeline through its AbortSignal; the pipeline writes no receipt after an abort.
//
// With a model provider configured (settings `model.*`), the model plans the search and weighs the options; the
// first model deliberation in a workspace shows the egress preview and asks for consent (consent.ts). A provider
// that cannot be used, a refused consent or a failed model call all end on the rules path, and say so.
import { relative } from "node:path";
import * as vscode from "vscode";
import { stripCommentMarkers } from "../core/classify";
import type { DeliberateOutcome, DeliberateRequest, deliberate as deliberateFn } from "../core/pipeline";
import type { Classification, Receipt } from "../core/schemas";
import type { ProgressEvent, QueryPlanner, Synthesizer } from "../core/types";
import type { BackgroundBuild, BuildProgress, HistoryIndexOptions } from "../core/internal/history";
import { askConsent, describeConsent, ALLOW, KEEP_LOCAL, type EgressPreviewDocuments, type ModelConsent } from "./consent";
import { SECTION, readSettings, toDeliberationConfig, toExternalSources, toModelSettings, type ModelSettings, type Settings } from "./config";
import { loadCore } from "./lazyCore";
import { errorText, oneLine, type Log } from "./log";
import type { ModelResolution } from "./models";
import type { PickerPanels } from "./pickerPanel";
import type { ReceiptIndex } from "./receiptIndex";
import type { Secrets } from "./secrets";

export const UNTRUSTED_MESSAGE =
  "Deliberative Search is disabled in Restricted Mode: a deliberation reads your repository's files and runs git. Trust this workspace to use it.";

const CONTEXT_RADIUS = 10;

export interface DeliberationRequest {
  folder: vscode.WorkspaceFolder;
  question: string;
  /** The text as written (with comment markers and tags), so a decision tag still counts. */
  raw?: string;
  context?: { file?: string; line?: number; text?: string };
  force?: boolean;
}

type Deliberate = typeof deliberateFn;
type ModelStack = { planner?: QueryPlanner; synthesizer?: Synthesizer };
type Resolved = Extract<ModelResolution, { kind: "model" }>;

export class Deliberations {
  /** Notices already shown this session (one-line warnings are not repeated on every deliberation). */
  private readonly noticed = new Set<string>();
  /** History index builds with a notification on screen, by repository. */
  private readonly indexing = new Set<string>();
  /** Folders whose history indexing the user cancelled: not restarted this session. */
  private readonly indexingCancelled = new Set<string>();

  constructor(
    private readonly index: ReceiptIndex,
    private readonly pickers: PickerPanels,
    private readonly secrets: Secrets,
    private readonly log: Log,
    private readonly consent: ModelConsent,
    private readonly previews: EgressPreviewDocuments,
  ) {}

  /** True when allowed; otherwise explains why not and returns false. */
  checkTrust(): boolean {
    if (vscode.workspace.isTrusted) return true;
    void vscode.window.showWarningMessage(UNTRUSTED_MESSAGE, "Manage Workspace Trust").then((choice) => {
      if (choice) void vscode.commands.executeCommand("workbench.trust.manage");
    });
    return false;
  }

  /** "Deliberate on Selection": the selection, else the open-question comment on the cursor line. */
  async onSelection(editor: vscode.TextEditor | undefined = vscode.window.activeTextEditor): Promise<void> {
    if (!this.checkTrust()) return;
    if (!editor) {
      void vscode.window.showInformationMessage("Deliberative Search: open a file and select a question (or put the cursor on a TODO(decide) comment).");
      return;
    }
    const sel = editor.selection;
    const line = sel.active.line;
    const raw = sel.isEmpty ? editor.document.lineAt(line).text : editor.document.getText(sel);
    await this.fromEditorText(editor.document, raw, sel.isEmpty ? line : sel.start.line);
  }

  /** The CodeLens target: the comment on a given line. */
  async atLine(uri: vscode.Uri, line: number): Promise<void> {
    if (!this.checkTrust()) return;
    const doc = await vscode.workspace.openTextDocument(uri);
    if (line < 0 || line >= doc.lineCount) return;
    await this.fromEditorText(doc, doc.lineAt(line).text, line);
  }

  private async fromEditorText(doc: vscode.TextDocument, raw: string, line: number): Promise<void> {
    let question = stripCommentMarkers(raw);
    if (!question) {
      const typed = await vscode.window.showInputBox({
        title: "Deliberate on a Question",
        prompt: "No question on this line. Type the design question to deliberate on.",
        placeHolder: "e.g. Should we use Redux or Zustand for the cart state?",
        ignoreFocusOut: true,
      });
      if (!typed?.trim()) return;
      question = typed.trim();
      raw = typed;
    }
    const folder = vscode.workspace.getWorkspaceFolder(doc.uri) ?? (await this.pickFolder());
    if (!folder) return;
    await this.run({ folder, question, raw, context: this.contextAround(folder, doc, line) });
  }

  /** "Deliberate on a Question…": an input box. */
  async onQuestion(): Promise<void> {
    if (!this.checkTrust()) return;
    const folder = vscode.window.activeTextEditor
      ? vscode.workspace.getWorkspaceFolder(vscode.window.activeTextEditor.document.uri) ?? (await this.pickFolder())
      : await this.pickFolder();
    if (!folder) return;
    const question = await vscode.window.showInputBox({
      title: "Deliberate on a Question",
      prompt: "An open design question. It is answered from your ADRs, conventions and git history, with citations.",
      placeHolder: "e.g. Should we adopt winston for logging?",
      ignoreFocusOut: true,
      validateInput: (v) => (Buffer.byteLength(v, "utf8") > 4096 ? "The question is limited to 4 kB" : undefined),
    });
    if (!question?.trim()) return;
    await this.run({ folder, question: question.trim() });
  }

  private async pickFolder(): Promise<vscode.WorkspaceFolder | undefined> {
    const folders = vscode.workspace.workspaceFolders ?? [];
    if (folders.length === 0) {
      void vscode.window.showInformationMessage("Deliberative Search needs an open folder: deliberations read its ADRs, docs and git history.");
      return undefined;
    }
    if (folders.length === 1) return folders[0];
    return vscode.window.showWorkspaceFolderPick({ placeHolder: "Which repository should the deliberation read?" });
  }

  async run(req: DeliberationRequest): Promise<void> {
    if (!this.checkTrust()) return;
    const settings = readSettings(req.folder);
    const modelSettings = toModelSettings(settings);
    const started = Date.now();
    this.log.info(`deliberating in ${req.folder.name}: "${req.question}"${req.force ? " (forced)" : ""}`);
    let outcome: DeliberateOutcome;
    let used: Resolved | undefined;
    try {
      outcome = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: "Deliberating", cancellable: true },
        async (progress, token) => {
          const controller = new AbortController();
          const sub = token.onCancellationRequested(() => controller.abort(new CancelledError()));
          try {
            progress.report({ message: "loading…" });
            const { deliberate } = loadCore();
            const signingKey = await this.secrets.signingKey();
            const request: DeliberateRequest = {
              repo: req.folder.uri.fsPath,
              question: req.question,
              ...(req.context ? { context: req.context } : {}),
              config: toDeliberationConfig(settings),
              external: toExternalSources(settings),
              // The raw comment keeps its decision tag ("TODO(decide): …"), the author's explicit signal.
              ...(req.raw !== undefined ? { classifyText: req.raw } : {}),
              force: !!req.force,
              signingKey,
              signal: controller.signal,
              onProgress: (e) => {
                const msg = describeProgress(e);
                if (msg) progress.report({ message: msg });
                this.logProgress(e);
              },
              onLog: (line) => this.log.info(line),
              history: this.historyOptions(req.folder),
            };
            const model = await this.modelFor(req, settings, modelSettings, request, deliberate, progress);
            if ("outcome" in model) return model.outcome;
            used = model.resolved;
            if (controller.signal.aborted) throw new CancelledError();
            return await deliberate({ ...request, ...model.stack });
          } finally {
            sub.dispose();
          }
        },
      );
    } catch (err) {
      if (err instanceof CancelledError || (err as Error)?.name === "AbortError" || /cancel|abort/i.test(oneLine(err))) {
        this.log.info(`cancelled after ${Date.now() - started} ms; no receipt written`);
        void vscode.window.showInformationMessage("Deliberation cancelled. No receipt was written.");
        return;
      }
      this.log.error("deliberation failed", errorText(err));
      const choice = await vscode.window.showErrorMessage(`Deliberation failed: ${oneLine(err)}`, "Show Log");
      if (choice) this.log.show();
      return;
    }

    if (outcome.kind === "abstained") {
      await this.onAbstained(req, outcome.classification);
      return;
    }
    const r = outcome.receipt;
    this.log.info(
      `${outcome.cached ? "cache hit" : "done"} in ${Date.now() - started} ms: receipt ${r.receipt_id}, ${r.payload.options.length} options, recommendation ${r.payload.recommendation.option_id} (${r.payload.recommendation.confidence})`,
    );
    for (const [name, s] of Object.entries(r.stages)) {
      this.log.info(`  stage ${name}: ${s.status} · ${s.count} · ${s.ms} ms${s.truncated ? " · truncated" : ""}${s.reason ? ` — ${s.reason}` : ""}`);
    }
    this.reportModel(r, outcome.cached, used);
    await this.index.refreshNow();
    await this.pickers.show(req.folder, settings.receiptsFolder, r.receipt_id, { cached: outcome.cached });
  }

  /**
   * The git history index: built in the background on first need, with a cancellable notification
   * ("Indexing history: 12,000 / 47,000 commits"); until it is ready the bounded live search answers.
   */
  private historyOptions(folder: vscode.WorkspaceFolder): HistoryIndexOptions {
    const key = folder.uri.fsPath;
    return {
      build: this.indexingCancelled.has(key) ? "none" : "background",
      onBackgroundBuild: (build) => this.showIndexing(key, build),
      log: (line) => this.log.info(line),
    };
  }

  private showIndexing(key: string, build: BackgroundBuild): void {
    if (this.indexing.has(build.toplevel)) return;
    this.indexing.add(build.toplevel);
    this.log.info(`indexing the git history of ${build.toplevel} in the background`);
    void vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: "Deliberative Search", cancellable: true },
      async (progress, token) => {
        const sub = token.onCancellationRequested(() => {
          this.indexingCancelled.add(key);
          build.cancel();
        });
        let last = 0;
        const report = (p: BuildProgress) => {
          const pct = p.phase === "commits" && p.total ? Math.floor((100 * p.done) / p.total) : undefined;
          const increment = pct !== undefined && pct > last ? pct - last : undefined;
          if (pct !== undefined) last = Math.max(last, pct);
          progress.report({ message: describeIndexing(p), ...(increment ? { increment } : {}) });
        };
        progress.report({ message: "Indexing history…" });
        const off = build.onProgress(report);
        try {
          const r = await build.done;
          if (r.action === "built") this.log.info(`history index built: ${r.added} commits in ${(r.ms / 1000).toFixed(1)} s`);
          else if (r.action === "busy") this.log.info("history index: another process is building it");
        } catch (err) {
          if (token.isCancellationRequested) this.log.info("history indexing cancelled; deliberations use the bounded live search of recent history");
          else this.log.warn(`history indexing failed: ${oneLine(err)}`);
        } finally {
          off();
          sub.dispose();
          this.indexing.delete(build.toplevel);
        }
      },
    );
  }

  /**
   * The planner/synthesizer for this run: none (rules) unless a provider is configured, usable and consented to.
   * Before the first model call in a workspace, a rules-only probe run computes the egress preview; a probe that
   * abstains is returned as the outcome (the real run would abstain the same way: the classifier uses no model).
   */
  private async modelFor(
    req: DeliberationRequest,
    settings: Settings,
    s: ModelSettings,
    request: DeliberateRequest,
    deliberate: Deliberate,
    progress: vscode.Progress<{ message?: string }>,
  ): Promise<{ stack: ModelStack; resolved?: Resolved } | { outcome: DeliberateOutcome }> {
    if (s.offlineOverride) {
      this.noticeOnce(
        `offline:${s.offlineOverride}`,
        `offline mode: the configured model provider "${s.offlineOverride}" is not used (no network at all); rules planner and synthesizer.`,
        false,
      );
      return { stack: {} };
    }
    if (s.provider === "none") return { stack: {} };
    const models = loadCore();
    const resolved = await models.resolveChatModel(s, { getApiKey: () => this.secrets.getApiKey() });
    if (resolved.kind === "none") return { stack: {} };
    if (resolved.kind === "unavailable") {
      this.modelUnavailable(resolved);
      return { stack: {} };
    }
    this.log.info(`model: ${resolved.describe}`);
    let consent = this.consent.get(resolved.provider, resolved.host);
    if (!consent) {
      progress.report({ message: "preparing the egress preview (nothing is sent)…" });
      const probe = await deliberate({
        ...request,
        writeReceipt: false,
        useCache: false,
        onProgress: (e) => {
          const msg = describeProgress(e);
          if (msg) progress.report({ message: `preview: ${msg}` });
        },
      });
      if (probe.kind === "abstained") return { outcome: probe };
      const text = this.previewText(models.egressPreviewText(probe, resolved.chat, s, s.keepInternalLocal, req.context), resolved, models.externalEgressLines(settings));
      progress.report({ message: "waiting for your consent…" });
      const choice = await askConsent(text, { host: resolved.host, model: resolved.chat.id, keepInternalLocalAlready: s.keepInternalLocal, documents: this.previews });
      if (request.signal?.aborted) throw new CancelledError();
      if (!choice) {
        this.log.info(`model consent for ${resolved.host} not given; this deliberation uses the rules planner and synthesizer (nothing is sent)`);
        void vscode.window.showInformationMessage(
          `Deliberative Search: nothing was sent to ${resolved.host}. This deliberation uses the offline rules synthesizer; the next one asks again (set ${SECTION}.model.provider to "none" to stop using a model).`,
        );
        return { stack: {} };
      }
      consent = await this.consent.set(resolved.provider, resolved.host, resolved.chat.id, choice);
      this.log.info(`model consent for ${resolved.host} in this workspace: ${choice === "keep-local" ? "allowed, internal snippets kept local" : "allowed"}`);
    }
    const keepInternalLocal = s.keepInternalLocal || consent.choice === "keep-local";
    if (keepInternalLocal) this.log.info(`model: internal snippets stay local (${s.keepInternalLocal ? "setting" : "workspace consent"}); only the question and external evidence are sent`);
    return { stack: models.modelStack(resolved.chat, s, keepInternalLocal), resolved };
  }

  /** The core's egress summary, worded for the provider, plus what the external sources send (SearxNG, docs). */
  private previewText(egress: string, resolved: Resolved, external: string[]): string {
    let text = egress;
    if (resolved.provider === "vscode-lm") {
      text = text.replace(
        "The API key travels only in the Authorization header; it is never written to receipts or logs.",
        "No API key is involved: VS Code's language model provider makes the request (it may ask you to allow access).",
      );
    }
    return external.length ? `${text}\n${external.join("\n")}` : text;
  }

  /** A provider is configured but cannot be used: one line in the log every time, one notification per reason. */
  private modelUnavailable(r: Extract<ModelResolution, { kind: "unavailable" }>): void {
    const message = `model provider "${r.provider}" is not available: ${r.reason}. This deliberation uses the rules planner and synthesizer.`;
    this.log.warn(message);
    if (this.noticed.has(`unavailable:${r.reason}`)) return;
    this.noticed.add(`unavailable:${r.reason}`);
    const action = r.action === "setApiKey" ? "Set API Key" : r.action === "openSettings" ? "Open Settings" : undefined;
    void vscode.window.showWarningMessage(`Deliberative Search: ${message}`, ...(action ? [action] : []), "Show Log").then((choice) => {
      if (choice === "Set API Key") void vscode.commands.executeCommand("deliberativeSearch.setApiKey");
      else if (choice === "Open Settings") void vscode.commands.executeCommand("workbench.action.openSettings", `${SECTION}.model`);
      else if (choice === "Show Log") this.log.show();
    });
  }

  private noticeOnce(id: string, message: string, notify: boolean): void {
    if (this.noticed.has(id)) return;
    this.noticed.add(id);
    this.log.info(message);
    if (notify) void vscode.window.showInformationMessage(`Deliberative Search: ${message}`);
  }

  /** Each model call's purpose, latency, tokens and outcome (never the key), and any fallback, in the log. */
  private reportModel(r: Receipt, cached: boolean, used: Resolved | undefined): void {
    const calls = r.synthesis.calls ?? [];
    const from = cached ? " (from the cached turn)" : "";
    for (const c of calls) {
      const tokens = c.prompt_tokens !== undefined || c.completion_tokens !== undefined ? `${c.prompt_tokens ?? "?"} prompt + ${c.completion_tokens ?? "?"} completion tokens` : "tokens not reported";
      this.log.info(`  model call ${c.purpose}${from}: ${c.ms} ms · ${tokens} · ${c.outcome}`);
    }
    if (r.synthesis.mode === "model") {
      this.log.info(`  synthesis: model ${r.synthesis.model ?? "?"}${r.synthesis.endpoint_host ? ` at ${r.synthesis.endpoint_host}` : ""}${from}`);
    }
    if (cached || !used) return;
    const planReason = r.plan?.mode !== "model" ? r.stages.plan?.reason : undefined;
    if (planReason) this.log.warn(`  plan: the model's plan was not used — ${planReason}`);
    const fallback = r.synthesis.fallback_reason;
    if (!fallback) return;
    if (fallback.startsWith("no-evidence")) {
      this.log.info(`  synthesis: rules — ${fallback}`);
      return;
    }
    this.log.warn(`  synthesis fell back to the rules synthesizer — ${fallback}`);
    const auth = fallback.startsWith("auth") && used.provider === "openai";
    void vscode.window
      .showWarningMessage(`Deliberative Search: the model call failed (${fallback.slice(0, 240)}). The rules synthesizer answered; the receipt records why.`, ...(auth ? ["Set API Key"] : []), "Show Log")
      .then((choice) => {
        if (choice === "Set API Key") void vscode.commands.executeCommand("deliberativeSearch.setApiKey");
        else if (choice === "Show Log") this.log.show();
      });
  }

  /** "Preview Egress": what a model deliberation on a question would send, computed locally; nothing is sent. */
  async previewEgress(): Promise<void> {
    if (!this.checkTrust()) return;
    const editor = vscode.window.activeTextEditor;
    const folder = editor ? vscode.workspace.getWorkspaceFolder(editor.document.uri) ?? (await this.pickFolder()) : await this.pickFolder();
    if (!folder) return;
    let suggested = "";
    let context: DeliberationRequest["context"];
    if (editor && vscode.workspace.getWorkspaceFolder(editor.document.uri)?.uri.toString() === folder.uri.toString()) {
      const sel = editor.selection;
      const line = sel.isEmpty ? sel.active.line : sel.start.line;
      suggested = stripCommentMarkers(sel.isEmpty ? editor.document.lineAt(line).text : editor.document.getText(sel));
      if (suggested) context = this.contextAround(folder, editor.document, line);
    }
    const question = await vscode.window.showInputBox({
      title: "Deliberative Search: Preview Egress",
      prompt: "The question to preview. Retrieval runs locally; nothing is sent to the model.",
      value: suggested,
      placeHolder: "e.g. Should we use Redux or Zustand for the cart state?",
      ignoreFocusOut: true,
      validateInput: (v) => (Buffer.byteLength(v, "utf8") > 4096 ? "The question is limited to 4 kB" : undefined),
    });
    if (!question?.trim()) return;
    if (question.trim() !== suggested) context = undefined;
    const settings = readSettings(folder);
    const s = toModelSettings(settings);
    const models = loadCore();
    const header = [`Deliberative Search — egress preview for ${folder.name}`, `Question: ${question.trim()}`, ""];
    const external = models.externalEgressLines(settings);
    if (s.provider === "none") {
      const why = s.offlineOverride
        ? `offline mode is on, so the configured model provider "${s.offlineOverride}" is not used`
        : `no model provider is configured (${SECTION}.model.provider is "none")`;
      await this.previews.open([...header, `No model call: ${why}. Nothing from the repository leaves the machine for a model.`, ...external].join("\n"));
      return;
    }
    const resolved = await models.resolveChatModel(s, { getApiKey: () => this.secrets.getApiKey() });
    if (resolved.kind !== "model") {
      const why = resolved.kind === "unavailable" ? resolved.reason : "no model";
      await this.previews.open([...header, `No model call: provider "${s.provider}" is not available (${why}). Deliberations use the rules synthesizer.`, ...external].join("\n"));
      return;
    }
    const consent = this.consent.get(resolved.provider, resolved.host);
    const keepInternalLocal = s.keepInternalLocal || consent?.choice === "keep-local";
    const probe = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: "Preparing the egress preview (nothing is sent)", cancellable: true },
      async (progress, token) => {
        const controller = new AbortController();
        const sub = token.onCancellationRequested(() => controller.abort(new CancelledError()));
        try {
          const { deliberate } = loadCore();
          const signingKey = await this.secrets.signingKey();
          return await deliberate({
            repo: folder.uri.fsPath,
            question: question.trim(),
            ...(context ? { context } : {}),
            config: toDeliberationConfig(settings),
            external: toExternalSources(settings),
            force: true,
            writeReceipt: false,
            useCache: false,
            signingKey,
            signal: controller.signal,
            onProgress: (e) => {
              const msg = describeProgress(e);
              if (msg) progress.report({ message: msg });
            },
          });
        } finally {
          sub.dispose();
        }
      },
    );
    if (probe.kind !== "deliberated") return;
    const egress = this.previewText(models.egressPreviewText(probe, resolved.chat, s, keepInternalLocal, context), resolved, external);
    await this.previews.open([...header, `Model: ${resolved.describe}`, `Consent: ${describeConsent(consent)}`, "", egress].join("\n"));
    if (consent) return;
    const choice = await vscode.window.showInformationMessage(
      `Deliberative Search: allow model deliberations to send this kind of content to ${resolved.host} in this workspace?`,
      ALLOW,
      ...(s.keepInternalLocal ? [] : [KEEP_LOCAL]),
    );
    if (!choice) return;
    const stored = await this.consent.set(resolved.provider, resolved.host, resolved.chat.id, choice === KEEP_LOCAL || s.keepInternalLocal ? "keep-local" : "allow");
    this.log.info(`model consent for ${resolved.host} in this workspace: ${stored.choice === "keep-local" ? "allowed, internal snippets kept local" : "allowed"} (from Preview Egress)`);
  }

  /** "Reset Model Consent": the next model deliberation in this workspace shows the egress preview again. */
  async resetConsent(): Promise<void> {
    const n = await this.consent.reset();
    this.log.info(`model consent reset for this workspace (${n} endpoint(s) forgotten)`);
    void vscode.window.showInformationMessage(
      n
        ? "Deliberative Search: model consent for this workspace was reset. The next model deliberation shows the egress preview again."
        : "Deliberative Search: no model consent was stored for this workspace.",
    );
  }

  private contextAround(folder: vscode.WorkspaceFolder, doc: vscode.TextDocument, line: number): NonNullable<DeliberationRequest["context"]> {
    const from = Math.max(0, line - CONTEXT_RADIUS);
    const to = Math.min(doc.lineCount - 1, line + CONTEXT_RADIUS);
    const text = doc.getText(new vscode.Range(from, 0, to, doc.lineAt(to).range.end.character));
    const file = doc.uri.scheme === "file" ? relative(folder.uri.fsPath, doc.uri.fsPath).split("\\").join("/") : undefined;
    return { ...(file ? { file } : {}), line: line + 1, text: `${file ?? doc.uri.path}\n${text}` };
  }

  private async onAbstained(req: DeliberationRequest, c: Classification): Promise<void> {
    const what = c.class === "lookup" ? "a lookup, not a design question" : "too thin to call a design question";
    this.log.info(`classifier: ${c.class} (${c.confidence.toFixed(2)}): ${c.reasons.join("; ")}`);
    const choice = await vscode.window.showInformationMessage(
      `This looks like ${what} (${c.class}, confidence ${c.confidence.toFixed(2)}). Deliberation is for open design questions.`,
      "Deliberate anyway",
      "Show Log",
    );
    if (choice === "Deliberate anyway") await this.run({ ...req, force: true });
    else if (choice === "Show Log") this.log.show();
  }

  private logProgress(e: ProgressEvent): void {
    if (e.state !== "done") return;
    const parts = [`stage ${e.stage}: ${e.status ?? "done"}`];
    if (e.count !== undefined) parts.push(`${e.count} item(s)`);
    if (e.ms !== undefined) parts.push(`${e.ms.toFixed(1)} ms`);
    this.log.info(parts.join(" · ") + (e.reason ? ` — ${e.reason}` : ""));
  }
}

class CancelledError extends Error {
  constructor() {
    super("deliberation cancelled");
    this.name = "CancelledError";
  }
}

const STAGE_LABELS: Record<string, string> = {
  discovery: "finding ADRs and docs",
  plan: "planning the search",
  synthesis: "weighing the options",
  receipt: "signing the receipt",
  cache: "found a cached deliberation",
};

function describeIndexing(p: BuildProgress): string {
  const n = (x: number) => x.toLocaleString("en");
  if (p.phase === "docs") return `Indexing history: reading documentation changes (${n(p.done)} commits)`;
  if (p.phase === "finishing") return "Indexing history: finishing";
  return `Indexing history: ${n(p.done)}${p.total ? ` / ${n(p.total)}` : ""} commits`;
}

function describeProgress(e: ProgressEvent): string | undefined {
  if (e.state === "start") {
    if (STAGE_LABELS[e.stage]) return `${STAGE_LABELS[e.stage]}…`;
    const [kind, name] = e.stage.split(":");
    if (name) return `${kind === "external" ? "consulting" : "mining"} ${name}…`;
    return `${e.stage}…`;
  }
  if (e.stage === "cache") return STAGE_LABELS.cache;
  return undefined;
}
