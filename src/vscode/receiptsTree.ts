// The "Deliberations" sidebar: a summary row (accepted vs overridden), then every receipt, newest first, grouped
// by workspace folder when there are several. A corrupt file is a row of its own and never breaks the tree.
import * as vscode from "vscode";
import { pickedTitle, staleLabel, type IndexedReceipt, type ReceiptIndex } from "./receiptIndex";
import { learningDescription, learningMarkdown, type LearningSummaries } from "./learningSummary";

export type TreeNode =
  | { kind: "summary" }
  | { kind: "folder"; folder: vscode.WorkspaceFolder }
  | { kind: "receipt"; entry: IndexedReceipt };

const STATE_LABEL: Record<IndexedReceipt["state"], string> = {
  pending: "pending pick",
  picked: "picked (recommendation accepted)",
  overridden: "overridden (operator chose another option)",
  invalid: "signature invalid",
  corrupt: "corrupt file",
};

export class ReceiptsTreeProvider implements vscode.TreeDataProvider<TreeNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<TreeNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [this.changed];

  constructor(
    private readonly index: ReceiptIndex,
    /** Agreement and learned weights for the summary row (learning from picks). */
    private readonly learning?: LearningSummaries,
  ) {
    this.disposables.push(index.onDidChange(() => this.changed.fire(undefined)));
    if (learning) this.disposables.push(learning.onDidChange(() => this.changed.fire(undefined)));
  }

  async getChildren(node?: TreeNode): Promise<TreeNode[]> {
    await this.index.ensureLoaded();
    const entries = this.index.all();
    if (!node) {
      if (entries.length === 0) return []; // the welcome view shows
      this.scheduleStaleness();
      const folders = new Map<string, vscode.WorkspaceFolder>();
      for (const e of entries) folders.set(e.folder.uri.toString(), e.folder);
      const rows: TreeNode[] = [{ kind: "summary" }];
      if (folders.size > 1) return [...rows, ...[...folders.values()].map((folder) => ({ kind: "folder" as const, folder }))];
      return [...rows, ...entries.map((entry) => ({ kind: "receipt" as const, entry }))];
    }
    if (node.kind === "folder") {
      return entries.filter((e) => e.folder.uri.toString() === node.folder.uri.toString()).map((entry) => ({ kind: "receipt" as const, entry }));
    }
    return [];
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    if (node.kind === "summary") {
      const s = this.index.summary();
      const item = new vscode.TreeItem(`${s.accepted} accepted · ${s.overridden} overridden`, vscode.TreeItemCollapsibleState.None);
      item.id = "summary";
      const learned = this.learning ? learningDescription(this.learning.get()) : undefined;
      item.description = [s.pending ? `${s.pending} pending` : "", s.untrusted ? `${s.untrusted} unverified` : "", learned ?? ""].filter(Boolean).join(" · ") || undefined;
      item.iconPath = new vscode.ThemeIcon("graph");
      const decided = s.accepted + s.overridden;
      const rate = decided ? Math.round((s.accepted / decided) * 100) : undefined;
      item.tooltip = new vscode.MarkdownString(
        `**Operator-pick agreement**\n\n${s.accepted} recommendation(s) accepted, ${s.overridden} overridden, ${s.pending} pending` +
          (s.untrusted ? `\n\n${s.untrusted} receipt(s) not counted: they do not verify or their signer is not trusted` : "") +
          (rate !== undefined ? `\n\nAgreement: **${rate}%** of decided receipts` : "") +
          (this.learning ? learningMarkdown(this.learning.get()) : ""),
      );
      item.contextValue = "summary";
      return item;
    }
    if (node.kind === "folder") {
      const item = new vscode.TreeItem(node.folder.name, vscode.TreeItemCollapsibleState.Expanded);
      item.id = `folder:${node.folder.uri.toString()}`;
      item.iconPath = vscode.ThemeIcon.Folder;
      item.resourceUri = node.folder.uri;
      return item;
    }
    return receiptItem(node.entry);
  }

  /** Freshness re-reads cited files (and may scan the artifacts): run it in the background once the tree is showing. */
  private scheduleStaleness(): void {
    if (!this.index.hasUncomputedStaleness()) return;
    void this.index.computeStaleness();
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}

function receiptItem(e: IndexedReceipt): vscode.TreeItem {
  const r = e.receipt;
  const label = r ? r.question : `${e.receiptId}.json`;
  const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.None);
  item.id = `receipt:${e.folder.uri.toString()}:${e.receiptId}`;
  const stale = e.stale === true;
  const picked = r ? pickedTitle(r) : undefined;
  const signer = signerLabel(e);
  if (e.state === "corrupt") item.description = "corrupt";
  else if (e.state === "invalid") item.description = `${picked ? `claims ${picked}` : "pending"} · ${e.trustView?.state ?? "signature invalid"}`;
  else item.description = `${picked ? `${e.trusted === false ? "claims " : ""}${picked}` : "pending"}${e.state === "overridden" ? " (override)" : ""}${stale ? ` · stale: ${staleLabel(e) ?? "evidence changed"}` : ""}${exportedLabel(e)}${signer ? ` · ${signer}` : ""}`;

  // A receipt that does not verify (untrusted signer, legacy) gets no "picked" check mark: its pick is a claim.
  const unverified = e.trusted === false && e.state !== "invalid" && e.state !== "corrupt";
  item.iconPath = unverified ? new vscode.ThemeIcon("shield", new vscode.ThemeColor("problemsWarningIcon.foreground")) : stateIcon(e.state, stale);
  item.contextValue = `receipt.${e.state}${stale ? ".stale" : ""}`;
  const md = new vscode.MarkdownString(undefined, true);
  md.supportThemeIcons = true;
  if (r) {
    md.appendMarkdown(`**${escapeMd(r.question)}**\n\n`);
    md.appendMarkdown(`State: ${unverified ? `unverified (${e.trustView?.state ?? "not trusted"}); any pick below is only claimed` : STATE_LABEL[e.state]}\n\n`);
    appendFreshness(md, e);
    const rec = r.payload.options.find((o) => o.id === r.payload.recommendation.option_id);
    md.appendMarkdown(`Recommended: ${escapeMd(rec?.title ?? "undecidable on current evidence")} (${r.payload.recommendation.confidence})\n\n`);
    if (r.operator_pick) {
      // An unverified receipt's pick is only what it claims.
      const verb = e.trusted === false ? `Claims a pick (unverified: ${e.trustView?.state ?? "not trusted"})` : "Picked";
      md.appendMarkdown(`${verb}${r.picks?.at(-1)?.picked_by === "agent" ? " by an agent" : ""}: ${escapeMd(picked ?? "")} at ${r.operator_pick.at}`);
      if (r.operator_pick.reason) md.appendMarkdown(` — ${escapeMd(r.operator_pick.reason)}`);
      md.appendMarkdown("\n\n");
    }
    const exported = r.adr_exports?.at(-1);
    if (exported) md.appendMarkdown(`Exported as ADR: ${escapeMd(exported.path)} (${exported.format}, ${exported.at})\n\n`);
    if (e.signatureReason) md.appendMarkdown(`Signature: ${escapeMd(e.signatureReason)}\n\n`);
    else if (signer) {
      const why = e.trust === "untrusted" ? " (not your key and not in allowed_signers; add it with `deliberate keys add` after review)" : "";
      md.appendMarkdown(`Signature valid, ${escapeMd(signer)}${escapeMd(why)} · key ${escapeMd(e.keyId ?? r.signing.key_id)}\n\n`);
    }
    const minted = e.trustView?.minted_by;
    if (minted) md.appendMarkdown(`${escapeMd(mintedLabel(minted))}\n\n`);
    md.appendMarkdown(`Created ${r.created_at} · \`${r.receipt_id}\``);
  } else {
    md.appendMarkdown(`**Corrupt receipt** \`${escapeMd(e.receiptId)}.json\`\n\n${escapeMd(e.error ?? "")}`);
  }
  item.tooltip = md;
  item.command = { command: "deliberativeSearch.openReceipt", title: "Open Receipt", arguments: [{ kind: "receipt", entry: e }] };
  return item;
}

/** " · exported → docs/decisions/0007-….md" once the receipt was exported as an ADR (the latest export). */
export function exportedLabel(e: Pick<IndexedReceipt, "state" | "receipt">): string {
  const last = e.state === "invalid" || e.state === "corrupt" ? undefined : e.receipt?.adr_exports?.at(-1);
  return last ? ` · exported → ${last.path}` : "";
}

/** The freshness in the tooltip: which citations changed (id, path:lines, why), or which artifacts are new. */
function appendFreshness(md: vscode.MarkdownString, e: IndexedReceipt): void {
  const f = e.freshness;
  if (!f) return;
  if (f.state === "evidence-changed") {
    md.appendMarkdown(`$(history) **Stale: evidence changed** since this receipt was made:\n\n`);
    for (const c of f.changed.slice(0, 10)) md.appendMarkdown(`- \`${c.id.replace(/`/g, "")}\` ${escapeMd(c.location)} (${escapeMd(REASONS[c.reason] ?? c.reason)})\n`);
    if (f.changed.length > 10) md.appendMarkdown(`- … and ${f.changed.length - 10} more\n`);
    md.appendMarkdown("\nRe-deliberate to see what changed.\n\n");
  } else if (f.state === "new-evidence") {
    md.appendMarkdown(`$(history) **Stale: new evidence**: ${f.new_artifacts.length} artifact(s) appeared since this receipt: ${escapeMd(f.new_artifacts.slice(0, 5).join(", "))}\n\n`);
  } else if (f.state === "unchecked") {
    md.appendMarkdown("Evidence unchecked: this receipt predates content hashes.\n\n");
  } else if (f.state === "fresh") {
    md.appendMarkdown(`Evidence fresh: ${f.checked} cited item(s) unchanged${f.moved.length ? ` (${f.moved.length} moved)` : ""}.\n\n`);
  }
}

const REASONS: Record<string, string> = {
  changed: "cited lines changed",
  missing: "file deleted",
  outside: "resolves outside the repository",
  "lines-gone": "cited lines no longer exist",
  unreadable: "file unreadable",
  "commit-missing": "commit no longer in the repository",
};

/** "signed by <name>" for a trusted signer, "untrusted signer" otherwise; undefined for a corrupt or invalid receipt. */
export function signerLabel(e: Pick<IndexedReceipt, "state" | "trust" | "signer">): string | undefined {
  if (e.state === "corrupt" || e.state === "invalid" || !e.trust) return undefined;
  if (e.trust === "untrusted") return "untrusted signer";
  return `signed by ${e.signer ?? "you"}`;
}

/** "Minted by alice (key …)" for a re-signed receipt, or why its minting signature does not check. */
export function mintedLabel(m: NonNullable<NonNullable<IndexedReceipt["trustView"]>["minted_by"]>): string {
  if (m.state === "signature invalid") return `Minted by ${m.signer ?? "an unknown key"}, but the minting signature does not verify`;
  return `Minted by ${m.state === "untrusted signer" ? `an untrusted key ${m.key_id ?? ""}` : m.signer ?? "you"}${m.key_id && m.state !== "untrusted signer" ? ` · key ${m.key_id}` : ""}`;
}

function stateIcon(state: IndexedReceipt["state"], stale: boolean): vscode.ThemeIcon {
  switch (state) {
    case "corrupt":
      return new vscode.ThemeIcon("warning", new vscode.ThemeColor("problemsWarningIcon.foreground"));
    case "invalid":
      return new vscode.ThemeIcon("shield", new vscode.ThemeColor("errorForeground"));
    default:
      break;
  }
  if (stale) return new vscode.ThemeIcon("history", new vscode.ThemeColor("problemsWarningIcon.foreground"));
  switch (state) {
    case "pending":
      return new vscode.ThemeIcon("circle-large-outline");
    case "picked":
      return new vscode.ThemeIcon("pass-filled", new vscode.ThemeColor("testing.iconPassed"));
    case "overridden":
      return new vscode.ThemeIcon("arrow-swap", new vscode.ThemeColor("charts.orange"));
  }
}

function escapeMd(s: string): string {
  return s.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, "\\$&");
}
