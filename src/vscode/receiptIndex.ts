// One cached view of the receipts of every workspace folder, shared by the sidebar, the CodeLens and the picker.
// Loaded on first need (never at activation), refreshed by FileSystemWatcher events (debounced), and keyed by the
// normalised question so provideCodeLenses is a map lookup. Staleness (the ADR / docs set changed since the
// receipt was made) needs a discovery scan, so it is computed lazily, only when the sidebar asks for it.
import * as vscode from "vscode";
import { UNDECIDABLE } from "../core/constants";
import type { Receipt } from "../core/schemas";
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
  /** undefined until computed. */
  stale?: boolean;
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
  private artifactHashes = new Map<string, Promise<string | undefined>>();
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
          this.artifactHashes.clear();
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
      // Artifact edits (ADRs, docs) make receipts stale: drop the cached artifact hash of that folder.
      const docs = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, "**/*.{md,mdc,mdx}"));
      const onDoc = () => {
        if (this.artifactHashes.delete(folder.uri.toString())) this.changed.fire();
      };
      this.watchers.push(docs, docs.onDidCreate(onDoc), docs.onDidChange(onDoc), docs.onDidDelete(onDoc));
    }
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
              ...(previous?.receipt?.artifact_set_hash === r.artifact_set_hash && previous.stale !== undefined ? { stale: previous.stale } : {}),
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
    // Newest first, so the first receipt for a question wins; a picked one beats a newer pending one.
    for (const e of entries) {
      if (!e.receipt) continue;
      const key = questionKey(e.receipt.question);
      const existing = byKey.get(key);
      if (!existing || (!existing.receipt?.operator_pick && e.receipt.operator_pick && e.state !== "invalid")) byKey.set(key, e);
    }
    this.entries = entries;
    this.byKey = byKey;
  }

  /** Computes staleness for every receipt (one discovery scan per folder, cached until docs change). */
  async computeStaleness(): Promise<void> {
    let changed = false;
    await Promise.all(
      this.entries.map(async (e) => {
        if (!e.receipt) return;
        const hash = await this.artifactHash(e.folder);
        if (hash === undefined) return;
        const stale = hash !== e.receipt.artifact_set_hash;
        if (e.stale !== stale) {
          e.stale = stale;
          changed = true;
        }
      }),
    );
    if (changed) this.changed.fire();
  }

  hasUncomputedStaleness(): boolean {
    return this.entries.some((e) => e.receipt && e.stale === undefined);
  }

  private artifactHash(folder: vscode.WorkspaceFolder): Promise<string | undefined> {
    const key = folder.uri.toString();
    let p = this.artifactHashes.get(key);
    if (!p) {
      p = (async () => {
        try {
          const { discoverArtifacts, resolveConfig } = loadHeavyBundle();
          const config = resolveConfig(toDeliberationConfig(readSettings(folder)));
          return (await discoverArtifacts(folder.uri.fsPath, config)).hash;
        } catch (err) {
          this.log.warn(`staleness check failed for ${folder.name}: ${String(err)}`);
          return undefined;
        }
      })();
      this.artifactHashes.set(key, p);
    }
    return p;
  }

  /** Accepted vs overridden picks: the operator-pick agreement signal. */
  summary(): { accepted: number; overridden: number; pending: number; total: number } {
    let accepted = 0;
    let overridden = 0;
    let pending = 0;
    for (const e of this.entries) {
      const r = e.receipt;
      if (!r) continue;
      if (!r.operator_pick) pending++;
      else if (r.operator_pick.overrode_recommendation) overridden++;
      else if (r.payload.recommendation.option_id !== UNDECIDABLE) accepted++;
    }
    return { accepted, overridden, pending, total: this.entries.length };
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    for (const w of this.watchers) w.dispose();
    for (const d of this.disposables) d.dispose();
  }
}
