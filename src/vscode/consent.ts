// Model consent, once per workspace and endpoint: before the first model call the user sees exactly what would
// leave the machine (the egress preview) and answers Allow / Keep internal snippets local / Cancel. The answer is
// kept in the workspace's Memento under the provider and endpoint host, so pointing the settings at another host
// asks again. Cancel is not remembered: that deliberation runs on the rules path and the next one asks again.
import * as vscode from "vscode";

export type ConsentChoice = "allow" | "keep-local";

export interface StoredConsent {
  provider: string;
  host: string;
  model: string;
  choice: ConsentChoice;
  at: string;
}

export const CONSENT_STATE_KEY = "deliberativeSearch.modelConsent.v1";

export const ALLOW = "Allow";
export const KEEP_LOCAL = "Keep Internal Snippets Local";
const SHOW_ALL = "Show Full Preview";

/** Lines of the preview shown inside the modal; the rest is one click away in a read-only document. */
const MODAL_LINES = 24;

export class ModelConsent {
  constructor(private readonly state: Pick<vscode.Memento, "get" | "update">) {}

  private all(): Record<string, StoredConsent> {
    const raw = this.state.get<unknown>(CONSENT_STATE_KEY);
    if (!raw || typeof raw !== "object" || Array.isArray(raw)) return {};
    const out: Record<string, StoredConsent> = {};
    for (const [k, v] of Object.entries(raw as Record<string, unknown>)) {
      const c = v as Partial<StoredConsent> | null;
      if (c && (c.choice === "allow" || c.choice === "keep-local") && typeof c.host === "string" && typeof c.provider === "string") {
        out[k] = { provider: c.provider, host: c.host, model: String(c.model ?? ""), choice: c.choice, at: String(c.at ?? "") };
      }
    }
    return out;
  }

  private static key(provider: string, host: string): string {
    return `${provider}|${host}`;
  }

  get(provider: string, host: string): StoredConsent | undefined {
    return this.all()[ModelConsent.key(provider, host)];
  }

  list(): StoredConsent[] {
    return Object.values(this.all());
  }

  async set(provider: string, host: string, model: string, choice: ConsentChoice): Promise<StoredConsent> {
    const entry: StoredConsent = { provider, host, model, choice, at: new Date().toISOString() };
    await this.state.update(CONSENT_STATE_KEY, { ...this.all(), [ModelConsent.key(provider, host)]: entry });
    return entry;
  }

  /** Forgets every answer in this workspace; returns how many there were. */
  async reset(): Promise<number> {
    const n = Object.keys(this.all()).length;
    await this.state.update(CONSENT_STATE_KEY, undefined);
    return n;
  }
}

export function describeConsent(c: StoredConsent | undefined): string {
  if (!c) return "not given yet in this workspace (the first model deliberation asks)";
  const when = c.at ? ` on ${c.at.slice(0, 10)}` : "";
  return c.choice === "keep-local" ? `given${when}, keeping internal snippets local` : `given${when}`;
}

/** Read-only documents for the full egress preview (a content provider, so nothing asks to be saved). */
export class EgressPreviewDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  static readonly scheme = "deliberative-search-egress";
  private readonly texts = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private n = 0;

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? "This egress preview is no longer available. Run “Deliberative Search: Preview Egress” again.";
  }

  async open(text: string): Promise<void> {
    const uri = vscode.Uri.from({ scheme: EgressPreviewDocuments.scheme, path: "/Egress Preview.txt", query: String(++this.n) });
    this.texts.set(uri.toString(), text);
    // Keep only the last few previews in memory.
    for (const key of [...this.texts.keys()].slice(0, -5)) this.texts.delete(key);
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc, { preview: true, preserveFocus: false });
  }

  dispose(): void {
    this.changed.dispose();
    this.texts.clear();
  }
}

/**
 * The modal: the preview as its detail, and Allow / Keep Internal Snippets Local (VS Code adds Cancel). A preview
 * longer than the modal shows opens in full beside it on request, and the question is asked again.
 */
export async function askConsent(
  text: string,
  opts: { host: string; model: string; keepInternalLocalAlready: boolean; documents: EgressPreviewDocuments },
): Promise<ConsentChoice | undefined> {
  const lines = text.split("\n");
  const cut = lines.length > MODAL_LINES;
  const shown = cut ? [...lines.slice(0, MODAL_LINES), `… (${lines.length - MODAL_LINES} more lines: choose “${SHOW_ALL}”)`] : lines;
  const detail = [
    ...shown,
    "",
    "Your answer is remembered for this workspace and this endpoint (“Deliberative Search: Reset Model Consent” forgets it). Cancel uses the offline rules synthesizer for this deliberation.",
  ].join("\n");
  const items = [ALLOW, ...(opts.keepInternalLocalAlready ? [] : [KEEP_LOCAL]), ...(cut ? [SHOW_ALL] : [])];
  for (let round = 0; round < 5; round++) {
    const choice = await vscode.window.showWarningMessage(`Send this deliberation to ${opts.model} at ${opts.host}?`, { modal: true, detail }, ...items);
    if (choice === ALLOW) return opts.keepInternalLocalAlready ? "keep-local" : "allow";
    if (choice === KEEP_LOCAL) return "keep-local";
    if (choice !== SHOW_ALL) return undefined;
    await opts.documents.open(text);
  }
  return undefined;
}
