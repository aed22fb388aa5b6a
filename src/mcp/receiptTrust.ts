// The trust view of receipts the MCP server reads (core/receipts/readerTrust.ts), judged the way `deliberate verify`
// judges them, and the receipt without its pick for rendering an unverified one. Shared by the receipt tools and
// the receipt resources.
import { trustViewOf, type ReceiptTrustView } from "../core/receipts/readerTrust";
import { defaultKeyDir, loadKeyFileIfExists } from "../core/receipts/signing";
import { DEFAULT_RECEIPTS_DIR, verifyEntry, type ReceiptEntry } from "../core/receipts/store";
import { readAllowedSigners } from "../core/receipts/trust";
import type { Receipt } from "../core/schemas";

/**
 * Each receipt's trust view, judged the way `deliberate verify` judges it (signature, trusted signer — the CLI's key
 * or the repository's allowed_signers — and evidence hashes; no citation re-check).
 */
export async function trustViews(repo: string, entries: ReceiptEntry[], env: NodeJS.ProcessEnv): Promise<Map<ReceiptEntry, ReceiptTrustView>> {
  const own = loadKeyFileIfExists(defaultKeyDir(env));
  const signers = await readAllowedSigners(repo, DEFAULT_RECEIPTS_DIR);
  const views = await Promise.all(entries.map(async (e) => [e, trustViewOf(await verifyEntry(repo, e, { ownPublicKeyPem: own?.publicKeyPem, signers, citations: false }))] as const));
  return new Map(views);
}

/** The receipt without its pick fields, for rendering an unverified receipt's content without its claimed pick. */
export function withoutPicks(receipt: Receipt): Receipt {
  const { picks: _p, ...rest } = receipt;
  return { ...rest, operator_pick: null };
}
