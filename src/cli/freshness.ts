// Freshness in the CLI: `deliberate verify --evidence` adds each receipt's freshness line, and `deliberate list`
// shows it (with the stale citations in --json). Staleness never changes verify's exit code: a stale receipt is
// still an honest, signed record of what the evidence said when it was made; the exit code stays about signatures,
// signers and evidence files.
import { checkFreshnessAll, describeStale, type Freshness } from "../core/receipts/freshness";
import { DEFAULT_RECEIPTS_DIR, listReceipts, type ReceiptEntry } from "../core/receipts/store";

export type { Freshness } from "../core/receipts/freshness";

/** Every receipt's freshness, keyed by receipt id (one artifact scan and one git call for the whole folder). */
export async function freshnessOf(repo: string, entries?: ReceiptEntry[]): Promise<Map<string, Freshness>> {
  return checkFreshnessAll(repo, entries ?? (await listReceipts(repo, DEFAULT_RECEIPTS_DIR)), { dirName: DEFAULT_RECEIPTS_DIR });
}

/** The JSON form: the state, its label, and the citations that changed or moved. */
export function freshnessJson(f: Freshness | undefined): Record<string, unknown> | null {
  if (!f) return null;
  return {
    state: f.state,
    label: f.label,
    stale_citations: f.changed,
    ...(f.moved.length ? { moved_citations: f.moved } : {}),
    new_evidence: f.new_evidence,
    ...(f.new_artifacts.length ? { new_artifacts: f.new_artifacts } : {}),
    ...(f.removed_artifacts ? { removed_artifacts: f.removed_artifacts } : {}),
    checked: f.checked,
    summary: f.summary,
  };
}

const WHY: Partial<Record<Freshness["state"], (f: Freshness) => string>> = {
  fresh: (f) => ` (${f.checked} cited item(s) unchanged${f.moved.length ? `, ${f.moved.length} moved` : ""})`,
  unverified: () => " (its content hashes prove nothing)",
  unchecked: () => " (this receipt predates content hashes)",
};

/** The freshness label, then one indented line per stale citation, for the text output. */
export function freshnessDetail(f: Freshness | undefined): string[] {
  if (!f) return [];
  return [
    `          evidence: ${f.label}${WHY[f.state]?.(f) ?? ""}`,
    ...f.changed.map((s) => `            ${describeStale(s)}`),
    ...(f.new_artifacts.length ? [`            new since the receipt: ${f.new_artifacts.slice(0, 5).join(", ")}${f.new_artifacts.length > 5 ? ", …" : ""}`] : []),
  ];
}
