// A repository's own record outranks a source's record on the same subject: a service may deviate on purpose from
// its organisation's decision, and its own record is the one that says so. Applied after fusion, as a stable
// reordering, so everything else about the ranking stays as fusion made it.
import type { Citation, FusedEvidence, OptionPicker } from "../schemas";

const STOP = new Set(
  "a an and as at be by for from in into is it of on or our the to use using we with adopt choose decision record adr should how what which".split(" "),
);

function words(text: string): Set<string> {
  return new Set(text.toLowerCase().slice(0, 2000).split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 2 && !STOP.has(w)));
}

function subjectWords(e: FusedEvidence): Set<string> {
  return words(`${e.adr?.subject ?? ""} ${e.adr?.title ?? ""}`);
}

/** The words of what a record chose ("store orders in MongoDB" → mongodb, orders, store). */
function choiceWords(e: FusedEvidence): Set<string> {
  return words(e.adr?.chosen_option ?? e.adr?.decided_option?.name ?? "");
}

function shareOf(a: Set<string>, b: Set<string>): number {
  if (!a.size || !b.size) return 0;
  let shared = 0;
  for (const w of a) if (b.has(w)) shared++;
  return shared / Math.min(a.size, b.size);
}

/**
 * Two records are about the same subject when half of the smaller one's subject words are shared, or when each
 * names what the other chose (one weighed the other's choice: "we considered MongoDB and PostgreSQL").
 */
export function sameSubject(a: FusedEvidence, b: FusedEvidence, textOf: (e: FusedEvidence) => string = (e) => e.excerpt): boolean {
  if (shareOf(subjectWords(a), subjectWords(b)) >= 0.5) return true;
  const names = (chooser: FusedEvidence, other: FusedEvidence) => {
    const text = words(`${other.adr?.title ?? ""} ${other.adr?.considered_options.join(" ") ?? ""} ${textOf(other)}`);
    return [...choiceWords(chooser)].some((w) => text.has(w));
  };
  return choiceWords(a).size > 0 && choiceWords(b).size > 0 && names(a, b) && names(b, a);
}

/**
 * Moves every source record's items that rank above a repository record on the same subject to just below that
 * record's last item, then renumbers the ranks. Items that are not records, or have no local rival, keep their place.
 */
export function preferOwnRecords(evidence: FusedEvidence[]): FusedEvidence[] {
  if (!evidence.some((e) => e.decision_source && e.adr)) return evidence;
  const localRecords = evidence.filter((e) => e.adr && !e.decision_source);
  if (!localRecords.length) return evidence;
  const out = [...evidence];
  const texts = new Map<string, string>();
  for (const e of evidence) if (e.adr) texts.set(e.adr.path, `${texts.get(e.adr.path) ?? ""}\n${e.excerpt}`);
  const textOf = (e: FusedEvidence) => texts.get(e.adr!.path) ?? e.excerpt;
  const sourcePaths = [...new Set(evidence.filter((e) => e.decision_source && e.adr).map((e) => e.adr!.path))];
  for (const path of sourcePaths) {
    const first = out.findIndex((e) => e.adr?.path === path);
    const rival = localRecords.find((l) => sameSubject(l, out[first], textOf));
    if (!rival) continue;
    const rivalLast = out.reduce((last, e, i) => (e.adr?.path === rival.adr!.path ? i : last), -1);
    if (rivalLast < first) continue;
    const moved = out.filter((e) => e.adr?.path === path);
    const rest = out.filter((e) => e.adr?.path !== path);
    const at = rest.reduce((last, e, i) => (e.adr?.path === rival.adr!.path ? i : last), -1) + 1;
    rest.splice(at, 0, ...moved);
    out.splice(0, out.length, ...rest);
  }
  return out.map((e, i) => (e.rank === i + 1 ? e : { ...e, rank: i + 1 }));
}

/** Every citation of evidence from a source carries the source's name and commit. */
export function withSourceRefs(payload: OptionPicker, evidence: FusedEvidence[]): OptionPicker {
  const refs = new Map(evidence.filter((e) => e.decision_source).map((e) => [e.id, e.decision_source!] as const));
  if (!refs.size) return payload;
  const citations: Citation[] = payload.citations.map((c) => (refs.has(c.id) ? { ...c, decision_source: refs.get(c.id)! } : c));
  return { ...payload, citations };
}
