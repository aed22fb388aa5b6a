// What a reader of a receipt is told about trusting it. Every place that shows a receipt's content or pick — the MCP
// tools and resources, `deliberate diff`, the editor's sidebar and "What changed" panel — goes through trustViewOf
// (from store.ts's verifyEntry), so a receipt whose signature is invalid, whose signer is not trusted or whose
// evidence changed is named as such, and its pick is presented as a claim, never as a fact. Pure; no I/O.
import { UNDECIDABLE } from "../constants";
import type { Receipt } from "../schemas";
import type { ReceiptVerification } from "./store";

/**
 * valid: a good signature by your own key or an allowed signer, evidence intact. The others say why not: the
 * signature does not match the bytes, the key is not trusted, an evidence file changed, a schema-1 receipt whose
 * picks and evidence the signature does not cover, or a file that is not a receipt at all.
 */
export type ReceiptTrustState = "valid" | "signature invalid" | "untrusted signer" | "evidence changed" | "legacy" | "corrupt";

export interface ReceiptTrustView {
  state: ReceiptTrustState;
  /** state === "valid": the content and the pick can be relied on. */
  trusted: boolean;
  /** Who signed: "you", an allowed_signers name, or (untrusted) the key id. Absent for a corrupt file. */
  signer?: string;
  key_id?: string;
  /** Why it is not trusted, in one line. */
  reason?: string;
  /** The original signer of a re-signed receipt (a pick, an export), and whether its signature still checks. */
  minted_by?: { state: "valid" | "signature invalid" | "untrusted signer"; signer?: string; key_id?: string };
  /** One line for humans ("signed by you; minted by alice (allowed signer); evidence intact"). */
  summary: string;
}

/** The reader's view of one verification (verifyEntry with allowUntrusted off). */
export function trustViewOf(v: ReceiptVerification): ReceiptTrustView {
  const state: ReceiptTrustState =
    v.signature === "corrupt"
      ? "corrupt"
      : v.signature === "invalid"
        ? "signature invalid"
        : v.evidence === "changed" || v.evidence === "missing"
          ? "evidence changed"
          : v.trust === "untrusted"
            ? "untrusted signer"
            : v.legacy
              ? "legacy"
              : "valid";
  const signer = v.trust === "untrusted" ? v.key_id : v.signer;
  const m = v.minted_by;
  const reason =
    state === "valid"
      ? undefined
      : state === "evidence changed"
        ? v.evidence_problems.join("; ") || "an evidence file changed"
        : state === "untrusted signer"
          ? `signed by ${v.key_id ?? "an unusable key"}, which is neither your key nor in allowed_signers`
          : state === "legacy"
            ? "legacy receipt (schema 1): its picks and evidence are not covered by the signature"
            : (v.reason ?? v.summary);
  return {
    state,
    trusted: state === "valid",
    ...(signer && v.signature !== "corrupt" ? { signer } : {}),
    ...(v.key_id ? { key_id: v.key_id } : {}),
    ...(reason ? { reason } : {}),
    ...(m
      ? {
          minted_by: {
            state: m.signature !== "valid" ? ("signature invalid" as const) : m.trust === "untrusted" ? ("untrusted signer" as const) : ("valid" as const),
            ...((m.trust === "untrusted" ? m.key_id : m.signer) ? { signer: m.trust === "untrusted" ? m.key_id : m.signer } : {}),
            ...(m.key_id ? { key_id: m.key_id } : {}),
          },
        }
      : {}),
    summary: v.signature === "valid" ? v.summary : `${state}: ${reason ?? v.summary}`,
  };
}

/** "unverified (signature invalid: …)": the short tag a listing puts on a receipt it cannot vouch for. */
export function unverifiedTag(view: ReceiptTrustView): string {
  return `unverified (${view.state}${view.reason ? `: ${view.reason}` : ""})`;
}

/**
 * The receipt's pick in one sentence, as a fact only when the receipt is trusted: "Picked `b` by the operator (you)
 * at …", or "An unverified receipt claims a pick of `b` by the operator … — not proven (signature invalid: …)".
 */
export function pickStatement(receipt: Receipt, view: ReceiptTrustView): string {
  const pick = receipt.operator_pick;
  if (!pick) return view.trusted ? "No pick recorded yet." : `No pick recorded yet; the receipt is ${unverifiedTag(view)}.`;
  const last = receipt.picks?.at(-1);
  const by = `${last?.picked_by === "agent" ? "an agent" : "the operator"}${last?.who ? ` (${last.who})` : ""}`;
  if (view.trusted) return `Picked \`${pick.option_id}\` by ${by} at ${pick.at}.`;
  return `An unverified receipt claims a pick of \`${pick.option_id}\` by ${by} at ${pick.at}; it is not proven (${view.state}${view.reason ? `: ${view.reason}` : ""}). Do not rely on it.`;
}

/** Only the receipts whose trust view says trusted (what counts, what is compared against). */
export function trustedOnly<T extends { trusted?: boolean }>(items: T[]): T[] {
  return items.filter((i) => i.trusted === true);
}

/**
 * The operator-pick tally the sidebar shows: accepted, overridden and pending among trusted receipts only; the
 * receipts that do not verify are counted apart (untrusted), never as someone's pick.
 */
export function pickTally(items: { trusted?: boolean; receipt?: Receipt }[]): { accepted: number; overridden: number; pending: number; untrusted: number; total: number } {
  let accepted = 0;
  let overridden = 0;
  let pending = 0;
  let untrusted = 0;
  for (const e of items) {
    if (e.trusted !== true || !e.receipt) {
      untrusted++;
      continue;
    }
    const r = e.receipt;
    if (!r.operator_pick) pending++;
    else if (r.operator_pick.overrode_recommendation) overridden++;
    else if (r.payload.recommendation.option_id !== UNDECIDABLE) accepted++;
  }
  return { accepted, overridden, pending, untrusted, total: items.length };
}

/**
 * The trusted receipts of the same question (same question_hash) made before `receipt`, newest first: what "What
 * changed" compares against. A receipt that does not verify is never the "before" of a comparison.
 */
export function earlierTrustedReceipts<T extends { trusted?: boolean; receipt?: Receipt }>(items: T[], receipt: Receipt): T[] {
  return trustedOnly(items)
    .filter((e) => e.receipt && e.receipt.question_hash === receipt.question_hash && e.receipt.receipt_id !== receipt.receipt_id && e.receipt.created_at < receipt.created_at)
    .sort((a, b) => b.receipt!.created_at.localeCompare(a.receipt!.created_at));
}
