// `deliberate list [--json] [--repo DIR]`: every receipt with its state, freshness and verification. Each receipt is
// verified the way `verify`, `diff` and the MCP server do it (store.ts's verifyEntry, read through readerTrust.ts):
// one that does not verify — invalid signature, a signer that is neither your key nor an allowed signer, changed
// evidence, a legacy receipt — is `unverified`, marked with why, and its pick is only what it claims.
import { trustViewOf, type ReceiptTrustView } from "../core/receipts/readerTrust";
import { loadKeyFileIfExists } from "../core/receipts/signing";
import { DEFAULT_RECEIPTS_DIR, listReceipts, verifyEntry, type ReceiptEntry } from "../core/receipts/store";
import { mapBounded } from "../core/receipts/fsutil";
import { readAllowedSigners } from "../core/receipts/trust";
import { terminalSafeJson, terminalSafeLine } from "../core/sanitize";
import { parseOptions, repoOption } from "./common";
import { freshnessJson, freshnessOf } from "./freshness";

export interface ListIo {
  out: (s: string) => void;
  err: (s: string) => void;
}

type FreshnessRow = ReturnType<typeof freshnessJson>;

export type ListRow =
  | { receipt_id: string; state: "corrupt"; error: string; verification: ReceiptTrustView }
  | {
      receipt_id: string;
      state: "pending" | "picked" | "overridden" | "unverified";
      created_at: string;
      question: string;
      recommendation: string;
      /** The pick, only when the receipt verifies; `claimed_pick` holds an unverified receipt's. */
      pick: string | null;
      claimed_pick?: string | null;
      freshness: FreshnessRow;
      verification: ReceiptTrustView;
    };

/** Each entry's trust view: signature, trusted signer (your key or allowed_signers) and evidence hashes. */
async function verificationsOf(repo: string, entries: ReceiptEntry[]): Promise<ReceiptTrustView[]> {
  const own = loadKeyFileIfExists(undefined);
  const signers = await readAllowedSigners(repo, DEFAULT_RECEIPTS_DIR);
  return mapBounded(entries, 8, async (e) => trustViewOf(await verifyEntry(repo, e, { ownPublicKeyPem: own?.publicKeyPem, signers, citations: false })));
}

export function listRow(e: ReceiptEntry, verification: ReceiptTrustView, freshness: FreshnessRow): ListRow {
  if (e.state === "corrupt") return { receipt_id: e.receipt_id, state: "corrupt", error: e.error, verification };
  const r = e.receipt;
  const pick = r.operator_pick;
  const common = { created_at: r.created_at, question: r.question, recommendation: r.payload.recommendation.option_id };
  // An unverified receipt's pick is what it claims, not a pick anyone can rely on (as the MCP server's list says).
  if (!verification.trusted) return { receipt_id: e.receipt_id, state: "unverified", ...common, pick: null, claimed_pick: pick?.option_id ?? null, freshness, verification };
  const state = pick ? (pick.overrode_recommendation ? "overridden" : "picked") : "pending";
  return { receipt_id: e.receipt_id, state, ...common, pick: pick?.option_id ?? null, freshness, verification };
}

/** One text line: `<id>  <state>  <question>`, an unverified one marked `[untrusted signer]` with its claimed pick. */
export function listLine(r: ListRow): string {
  if (r.state === "corrupt") return `${r.receipt_id}  CORRUPT  ${terminalSafeLine(r.error)}`;
  // "not checked: signature invalid" would repeat the verification mark.
  const stale = r.freshness && r.freshness.state !== "fresh" && r.freshness.state !== "unverified" ? `  [${String(r.freshness.label)}]` : "";
  if (r.state !== "unverified") return `${r.receipt_id}  ${r.state.padEnd(10)} ${terminalSafeLine(r.question)}${stale}`;
  const claim = r.claimed_pick ? `  (claims a pick of ${terminalSafeLine(r.claimed_pick)}; not proven)` : "";
  return `${r.receipt_id}  ${"unverified".padEnd(10)} [${r.verification.state}] ${terminalSafeLine(r.question)}${claim}${stale}`;
}

export async function listCommand(argv: string[], io: ListIo): Promise<number> {
  const { values } = parseOptions(argv, { repo: { type: "string" }, json: { type: "boolean" } });
  const repo = repoOption(values.repo as string | undefined);
  const entries = await listReceipts(repo);
  const [fresh, views] = await Promise.all([freshnessOf(repo, entries), verificationsOf(repo, entries)]);
  const rows = entries.map((e, i) => listRow(e, views[i], freshnessJson(fresh.get(e.receipt_id))));
  if (values.json) io.out(terminalSafeJson(JSON.stringify(rows, null, 2)));
  else if (!rows.length) io.out("no receipts found");
  else for (const r of rows) io.out(listLine(r));
  return 0;
}
