// One cached view of the receipts of every workspace folder, shared by the sidebar, the CodeLens and the picker.
// Loaded on first need (never at activation), refreshed by FileSystemWatcher events (debounced), and keyed by the
// normalised question so provideCodeLenses is a map lookup. Freshness (cited lines changed, an artifact appeared;
// core/receipts/freshness.ts) re-reads cited files and may scan the artifacts, so it is computed lazily, when the
// sidebar or a CodeLens asks, once per folder, and again only after a document in that folder changed.
import * as vscode from "vscode";
import { earlierTrustedReceipts, pickTally, trustViewOf, type ReceiptTrustView } from "../core/receipts/readerTrust";
import type { Receipt } from "../core/schemas";
import type { Freshness } from "../core/receipts/freshness";
import type { ReceiptEntry } from "../core/receipts/store";
import type { TrustLevel } from "../core/receipts/trust";
import { SECTION } from "./constants";
import { readSettings, toDeliberationConfig } from "./config";
import { loadHeavyBundle } from "./loadHeavyBundle";
import type { Log } from "./log";

export type ReceiptState = "pending" | "picked" | "overridden" | "invalid" | "corrupt";

export interface IndexedReceipt {
  folder: vscode.WorkspaceFolder;
  receiptsDir: string;
  receiptId: string;
  file: string;
  state: ReceiptState;
  /** Present unless corrupt. */
  receipt?: Receipt;
  /** The raw JSON as read (what the signature covers). */
  raw?: Record<string, unknown>;
  error?: string;
  signatureReason?: string;
  /** Whether the signer is trusted: your own key (SecretStorage), an allowed signer, or neither. */
  trust?: TrustLevel;
  /** The signer's name ("you", an allowed_signers name), when trusted. */
  signer?: string;
  /** Key id of the signing key. */
  keyId?: string;
  /** Valid signature by a trusted key, evidence intact: only then is its pick counted or compared against. */
  trusted?: boolean;
  /** What a reader is told about trusting it (core/receipts/readerTrust.ts), including who minted it. */
  trustView?: ReceiptTrustView;
  /** undefined until computed: true when the freshness check calls it stale (evidence changed or new evidence). */
  stale?: boolean;
  /** The evidence freshness, undefined until computed; `freshnessGen` is the folder's generation it was computed at. */
  freshness?: Freshness;
  freshnessGen?: number;
}

/** "evidence changed" / "new evidence" for a stale receipt, undefined otherwise. */
export function staleLabel(e: Pick<IndexedReceipt, "freshness">): string | undefined {
  const state = e.freshness?.state;
  return state === "evidence-changed" ? "evidence changed" : state === "new-evidence" ? "new evidence" : undefined;
}

export function questionKey(question: string): string {
  return question.replace(/\s+/g, " ").trim().toLowerCase();
}

export function pickedTitle(r: Receipt): string | undefined {
  if (!r.operator_pick) return undefined;
  return r.payload.options.find((o) => o.id === r.operator_pick!.option_id)?.title ?? r.operator_pick.option_id;
}

export class ReceiptIndex implements vscode.Disposable {
  private entries: IndexedReceipt[] = [];
  private byKey = new Map<string, IndexedReceipt>();
  private loading: Promise<void> | undefined;
  private loaded = false;
  private dirty = true;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private watchers: vscode.Disposable[] = [];
  /** Per folder: bumped whenever a document there changes, so freshness computed before is out of date. */
  private freshnessGen = new Map<string, number>();
  private freshnessRun: Promise<void> | undefined;
  private readonly changed = new vscode.EventEmitter<void>();
  private readonly disposables: vscode.Disposable[] = [this.changed];
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly log: Log,
    /** Your own public key (PEM): receipts it signed are trusted. */
    private readonly ownPublicKey?: () => Promise<string | undefined>,
  ) {
    this.disposables.push(
      vscode.workspace.onDidChangeWorkspaceFolders(() => {
        this.rewatch();
        this.invalidate();
      }),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(SECTION)) {
          for (const f of vscode.workspace.workspaceFolders ?? []) this.bumpFreshness(f);
          if (this.loaded) this.rewatch();
          this.invalidate();
        }
      }),
    );
  }

  get isLoaded(): boolean {
    return this.loaded;
  }

  all(): IndexedReceipt[] {
    return this.entries;
  }

  byQuestion(question: string): IndexedReceipt | undefined {
    return this.byKey.get(questionKey(question));
  }

  find(folder: vscode.WorkspaceFolder | string, receiptId: string): IndexedReceipt | undefined {
    const uri = typeof folder === "string" ? folder : folder.uri.toString();
    return this.entries.find((e) => e.receiptId === receiptId && e.folder.uri.toString() === uri);
  }

  /** Loads once (and again after invalidation). Safe to call from anywhere; concurrent calls share one load. */
  ensureLoaded(): Promise<void> {
    if (!this.dirty && this.loaded) return Promise.resolve();
    if (!this.loading) {
      if (this.watchers.length === 0) this.rewatch();
      this.dirty = false;
      this.loading = this.load()
        .catch((err) => this.log.error("loading receipts failed", err))
        .finally(() => {
          this.loading = undefined;
          this.loaded = true;
          this.changed.fire();
          if (this.dirty) this.schedule();
        });
    }
    return this.loading;
  }

  /** Marks the index out of date and reloads soon (debounced) if anyone has loaded it. */
  invalidate(): void {
    this.dirty = true;
    if (this.loaded || this.loading) this.schedule();
  }

  /** Reloads now and waits for it (after a pick or a new receipt, so the UI is current when we return). */
  async refreshNow(): Promise<void> {
    this.dirty = true;
    if (this.loading) await this.loading;
    await this.ensureLoaded();
  }

  private schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.ensureLoaded();
    }, 150);
  }

  private rewatch(): void {
    for (const w of this.watchers) w.dispose();
    this.watchers = [];
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      const dir = readSettings(folder).receiptsFolder;
      const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, `${dir}/*.json`));
      const onEvent = () => this.invalidate();
      this.watchers.push(watcher, watcher.onDidCreate(onEvent), watcher.onDidChange(onEvent), watcher.onDidDelete(onEvent));
      // Artifact edits (ADRs, docs) may make receipts stale: their freshness is computed again.
      const docs = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, "**/*.{md,mdc,mdx}"));
      const onDoc = () => this.bumpFreshness(folder);
      this.watchers.push(docs, docs.onDidCreate(onDoc), docs.onDidChange(onDoc), docs.onDidDelete(onDoc));
    }
    // Any other cited file (a canonical file a doc names) changes through a save, a delete or a rename here.
    const onFile = (uri: vscode.Uri) => {
      const folder = vscode.workspace.getWorkspaceFolder(uri);
      if (folder && this.cites(folder, uri)) this.bumpFreshness(folder);
    };
    this.watchers.push(
      vscode.workspace.onDidSaveTextDocument((d) => onFile(d.uri)),
      vscode.workspace.onDidDeleteFiles((e) => e.files.forEach(onFile)),
      vscode.workspace.onDidRenameFiles((e) => e.files.forEach((f) => onFile(f.oldUri))),
    );
  }

  /** Whether a receipt of the folder cites this file (workspace-relative path). */
  private cites(folder: vscode.WorkspaceFolder, uri: vscode.Uri): boolean {
    const rel = vscode.workspace.asRelativePath(uri, false);
    return this.entries.some((e) => e.folder.uri.toString() === folder.uri.toString() && e.receipt?.payload.citations.some((c) => c.path_or_url === rel));
  }

  private bumpFreshness(folder: vscode.WorkspaceFolder): void {
    const key = folder.uri.toString();
    this.freshnessGen.set(key, (this.freshnessGen.get(key) ?? 0) + 1);
    this.changed.fire();
  }

  private async load(): Promise<void> {
    const { listReceipts, readAllowedSigners, verifyEntry } = loadHeavyBundle();
    const folders = vscode.workspace.workspaceFolders ?? [];
    let ownPem: string | undefined;
    try {
      ownPem = await this.ownPublicKey?.();
    } catch (err) {
      this.log.warn(`the signing key could not be read; no receipt counts as your own: ${String(err)}`);
    }
    const lists = await Promise.all(
      folders.map(async (folder) => {
        if (folder.uri.scheme !== "file") return [];
        const receiptsDir = readSettings(folder).receiptsFolder;
        const repo = folder.uri.fsPath;
        const [list, signers] = await Promise.all([listReceipts(repo, receiptsDir) as Promise<ReceiptEntry[]>, readAllowedSigners(repo, receiptsDir)]);
        if (signers.unreadable) this.log.warn(`${folder.name}: ${signers.unreadable}`);
        for (const e of signers.errors) this.log.warn(`${folder.name}/${receiptsDir}/allowed_signers line ${e.line} ignored: ${e.reason}`);
        return Promise.all(
          list.map(async (entry): Promise<IndexedReceipt> => {
            if (entry.state === "corrupt") {
              return { folder, receiptsDir, receiptId: entry.receipt_id, file: entry.file, state: "corrupt", error: entry.error };
            }
            // Signature, signer and evidence hashes (citations are re-checked by Verify Receipts, not on every load).
            const v = await verifyEntry(repo, entry, { ownPublicKeyPem: ownPem, signers, dirName: receiptsDir, citations: false });
            const tampered = v.signature !== "valid" || v.evidence === "changed" || v.evidence === "missing";
            const view = trustViewOf(v);
            const r = entry.receipt;
            const previous = this.find(folder, r.receipt_id);
            const state: ReceiptState = tampered
              ? "invalid"
              : !r.operator_pick
                ? "pending"
                : r.operator_pick.overrode_recommendation
                  ? "overridden"
                  : "picked";
            const reason = v.signature !== "valid" ? v.reason : tampered ? v.evidence_problems.join("; ") : undefined;
            return {
              folder,
              receiptsDir,
              receiptId: r.receipt_id,
              file: entry.file,
              state,
              receipt: r,
              raw: entry.raw,
              ...(reason ? { signatureReason: reason } : {}),
              ...(v.trust ? { trust: v.trust } : {}),
              ...(v.signer ? { signer: v.signer } : {}),
              ...(v.key_id ? { keyId: v.key_id } : {}),
              trusted: view.trusted,
              trustView: view,
              ...(previous?.freshness && previous.receipt?.signature === r.signature
                ? { stale: previous.stale, freshness: previous.freshness, freshnessGen: previous.freshnessGen }
                : {}),
            };
          }),
        );
      }),
    );
    const entries = lists.flat().sort((a, b) => {
      const ta = a.receipt?.created_at ?? "";
      const tb = b.receipt?.created_at ?? "";
      return tb.localeCompare(ta) || b.receiptId.localeCompare(a.receiptId);
    });
    const byKey = new Map<string, IndexedReceipt>();
    // Newest first, so the first receipt for a question wins; a picked one beats a newer pending one, but only when
    // it is trusted (an unverified receipt's pick is a claim).
    for (const e of entries) {
      if (!e.receipt) continue;
      const key = questionKey(e.receipt.question);
      const existing = byKey.get(key);
      if (!existing || (!existing.receipt?.operator_pick && e.receipt.operator_pick && e.trusted)) byKey.set(key, e);
    }
    this.entries = entries;
    this.byKey = byKey;
  }

  /**
   * Computes the freshness of every receipt whose freshness is missing or out of date: one check per folder (its
   * reads, commit lookup and artifact scan shared). Concurrent callers share one run.
   */
  computeStaleness(): Promise<void> {
    this.freshnessRun ??= this.runFreshness().finally(() => {
      this.freshnessRun = undefined;
    });
    return this.freshnessRun;
  }

  private async runFreshness(): Promise<void> {
    const byFolder = new Map<string, IndexedReceipt[]>();
    for (const e of this.entries) {
      if (!e.receipt || !e.raw) continue;
      const key = e.folder.uri.toString();
      byFolder.set(key, [...(byFolder.get(key) ?? []), e]);
    }
    let changed = false;
    await Promise.all(
      [...byFolder.entries()].map(async ([key, list]) => {
        const gen = this.freshnessGen.get(key) ?? 0;
        if (list.every((e) => e.freshnessGen === gen)) return;
        const folder = list[0]!.folder;
        try {
          const { checkFreshnessAll } = loadHeavyBundle();
          const entries = list.map((e) => ({ state: "ok" as const, receipt_id: e.receiptId, file: e.file, receipt: e.receipt!, raw: e.raw! }));
          const results = await checkFreshnessAll(folder.uri.fsPath, entries, { config: toDeliberationConfig(readSettings(folder)), dirName: list[0]!.receiptsDir });
          for (const e of list) {
            const f = results.get(e.receiptId);
            if (!f) continue;
            const stale = f.state === "evidence-changed" || f.state === "new-evidence";
            if (e.freshness?.summary !== f.summary || e.stale !== stale) changed = true;
            Object.assign(e, { freshness: f, freshnessGen: gen, stale });
          }
        } catch (err) {
          // Not retried until something in the folder changes again.
          for (const e of list) e.freshnessGen = gen;
          this.log.warn(`freshness check failed for ${folder.name}: ${String(err)}`);
        }
      }),
    );
    // A document changed while this ran: whoever shows freshness asks again.
    if (changed || this.hasUncomputedStaleness()) this.changed.fire();
  }

  hasUncomputedStaleness(): boolean {
    return this.entries.some((e) => e.receipt && e.freshnessGen !== (this.freshnessGen.get(e.folder.uri.toString()) ?? 0));
  }

  /**
   * The trusted receipts of the same question (same question_hash) in the same folder made before this one, newest
   * first. Untrusted, invalid and tampered receipts are never compared against.
   */
  earlierReceipts(folder: vscode.WorkspaceFolder, receipt: Receipt): IndexedReceipt[] {
    return earlierTrustedReceipts(
      this.entries.filter((e) => e.folder.uri.toString() === folder.uri.toString()),
      receipt,
    );
  }

  /** Accepted vs overridden picks among trusted receipts (the agreement signal); the others are counted apart. */
  summary(): { accepted: number; overridden: number; pending: number; untrusted: number; total: number } {
    return pickTally(this.entries);
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    for (const w of this.watchers) w.dispose();
    for (const d of this.disposables) d.dispose();
  }
}
