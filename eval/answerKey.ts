// What "the same answer" means for the eval's determinism checks (eval/run.ts's two passes and eval/determinism.ts):
// the payload with ids of files written, times and durations left out, plus the ranked documents.

/** Keys that differ between two runs of the same question by design: ids of files written, times, durations. */
export const VOLATILE_KEY = /^(?:receipt_ref|evidence_ref|receipt_id|created_at|fetched_at|at|ms|elapsed_ms|duration_ms|timings?)$|_ms$/;

/** JSON with volatile keys dropped and object keys sorted, so two answers compare as strings. */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, (key, v: unknown) => {
    if (key && VOLATILE_KEY.test(key)) return undefined;
    if (v && typeof v === "object" && !Array.isArray(v)) {
      return Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    }
    return v;
  });
}

/** What must be identical on every run: the payload (minus volatile keys) and the ranked documents. */
export function answerKey(payload: unknown, docs: string[]): string {
  return stableJson({ payload, ranked_documents: docs });
}

/** The first place two answer keys differ, as a short excerpt of each. */
export function firstDifference(a: string, b: string, labels: [string, string] = ["cold", "warm"]): string {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const from = Math.max(0, i - 60);
  return `${labels[0]} …${a.slice(from, i + 60)}… / ${labels[1]} …${b.slice(from, i + 60)}…`;
}
