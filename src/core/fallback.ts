// Why a model step fell back to the rules path, read from a receipt. Receipts carry a structured
// `fallback: {kind, detail}` (the synthesis info, the plan stage); receipts written before it carry only the text
// "kind: detail" (`synthesis.fallback_reason`, the plan stage's `reason`). This is the one place that text is read
// back into a kind, and only for such a legacy receipt. Zod-free (types only), so light modules may import it.
import { MODEL_ERROR_KINDS } from "./model/errors";
import type { Fallback } from "./schemas";

export type FallbackKind = Fallback["kind"];

const KINDS: ReadonlySet<string> = new Set<FallbackKind>([...MODEL_ERROR_KINDS, "synthesizer-error"]);

/** The synthesis fallback: `fallback`, else (a legacy receipt) derived once from `fallback_reason`. */
export function fallbackOf(info: { fallback?: Fallback; fallback_reason?: string } | undefined): Fallback | undefined {
  if (!info) return undefined;
  if (info.fallback) return info.fallback;
  return info.fallback_reason ? fromLegacyText(info.fallback_reason) : undefined;
}

/** The plan stage's fallback: `fallback`, else (a legacy receipt, which had no other plan reason) its `reason`. */
export function planFallbackOf(plan: { fallback?: Fallback; reason?: string } | undefined): Fallback | undefined {
  return plan && fallbackOf({ fallback: plan.fallback, fallback_reason: plan.reason });
}

/**
 * False when the model was not called because nothing could be sent (no evidence): the rules answer is the
 * expected one then, not a failure worth a warning.
 */
export function isModelFailure(f: Fallback): boolean {
  return f.kind !== "no-evidence";
}

/** One line for people: "kind: detail". */
export function describeFallback(f: Fallback): string {
  return `${f.kind}: ${f.detail}`;
}

/** "kind: detail" as legacy receipts wrote it; a synthesizer that threw wrote "<name> failed: …". */
function fromLegacyText(text: string): Fallback {
  const colon = text.indexOf(": ");
  const kind = colon > 0 ? text.slice(0, colon) : "";
  return KINDS.has(kind) ? { kind: kind as FallbackKind, detail: text.slice(colon + 2) } : { kind: "synthesizer-error", detail: text };
}
