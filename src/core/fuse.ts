// Reciprocal-rank fusion over every expert's ranked list: score(d) = sum over lists of 1 / (k + rank). It needs no
// score calibration between experts, which is exactly what BM25 sections, commits and web pages lack.
import type { EvidenceItem, FusedEvidence, RankedEvidenceRow } from "./schemas";

export function fuseRankedLists(
  lists: { expert: string; items: EvidenceItem[] }[],
  k = 60,
  /** A multiplicative prior per item (the learned weight of its source, learning/weights.ts); 1 when absent. */
  prior?: (item: EvidenceItem) => number,
): FusedEvidence[] {
  const byId = new Map<string, { item: EvidenceItem; fused: number; experts: string[]; bestScore: number }>();
  for (const list of lists) {
    const ranked = [...list.items].sort((a, b) => b.score - a.score);
    ranked.forEach((item, index) => {
      const contribution = 1 / (k + index + 1);
      const existing = byId.get(item.id);
      if (existing) {
        existing.fused += contribution;
        if (!existing.experts.includes(list.expert)) existing.experts.push(list.expert);
        if (item.score > existing.bestScore) {
          existing.item = item;
          existing.bestScore = item.score;
        }
      } else {
        byId.set(item.id, { item, fused: contribution, experts: [list.expert], bestScore: item.score });
      }
    });
  }
  if (prior) for (const entry of byId.values()) entry.fused *= prior(entry.item);
  reinforceDocuments([...byId.values()]);
  keepOthersBelowRecords([...byId.values()]);
  const fused = [...byId.values()].sort(
    (a, b) => b.fused - a.fused || b.bestScore - a.bestScore || a.item.id.localeCompare(b.item.id),
  );
  return fused.map((f, i) => ({ ...f.item, rank: i + 1, fused_score: round(f.fused), experts: f.experts }));
}

/** Share of a commit's fused score credited to the ranked document it touched. */
const REINFORCEMENT = 0.01;

/**
 * Commits that touched a ranked document reinforce that document instead of taking ranks of their own ahead of
 * it: part of the commit's score goes to the document's best item, and the commit sits right below it. Commits
 * that touched no ranked document keep their own place.
 */
function reinforceDocuments(entries: { item: EvidenceItem; fused: number }[]): void {
  const docBest = new Map<string, { item: EvidenceItem; fused: number }>();
  for (const e of entries) {
    if (e.item.commit || e.item.kind !== "internal") continue;
    const prev = docBest.get(e.item.path_or_url);
    if (!prev || e.fused > prev.fused) docBest.set(e.item.path_or_url, e);
  }
  const commits = entries.filter((e) => e.item.commit && e.item.touched_paths?.some((p) => docBest.has(p)));
  const credit = new Map<{ item: EvidenceItem; fused: number }, number>();
  const targetOf = new Map<{ item: EvidenceItem; fused: number }, { item: EvidenceItem; fused: number }>();
  for (const c of commits) {
    const targets = c.item.touched_paths!.flatMap((p) => (docBest.has(p) ? [docBest.get(p)!] : []));
    // A commit touching many documents (a mass rename) says little about each.
    const share = (REINFORCEMENT * c.fused) / targets.length;
    for (const t of targets) credit.set(t, (credit.get(t) ?? 0) + share);
    targetOf.set(c, targets.sort((a, b) => b.fused - a.fused)[0]);
  }
  for (const [t, add] of credit) t.fused += add;
  for (const [c, t] of targetOf) if (c.fused >= t.fused) c.fused = t.fused * (1 - 1e-6);
}

/** How many of the best records no other repository evidence ranks above. */
const RECORDS_ABOVE_OTHERS = 3;

/**
 * Records rank as records: a commit is history about a decision, and a convention file, an architecture page or a
 * code file describes or follows decisions; none is the decision. So none takes a place above the best few records
 * (ADRs) of the list: they support a record from below it. Rules in AGENTS.md and the like still decide a question
 * no record decides; only their place in the list changes.
 */
function keepOthersBelowRecords(entries: { item: EvidenceItem; fused: number }[]): void {
  const best = new Map<string, number>();
  for (const e of entries) {
    if (e.item.commit || e.item.kind !== "internal" || e.item.source_type !== "adr") continue;
    best.set(e.item.path_or_url, Math.max(best.get(e.item.path_or_url) ?? 0, e.fused));
  }
  const records = [...best.values()].sort((a, b) => b - a);
  if (!records.length) return;
  const floor = records[Math.min(RECORDS_ABOVE_OTHERS, records.length) - 1] * (1 - 1e-6);
  for (const e of entries) {
    const other = e.item.commit || (e.item.kind === "internal" && e.item.source_type !== "adr");
    if (other && e.fused > floor) e.fused = floor;
  }
}

function round(n: number): number {
  return Math.round(n * 1e6) / 1e6;
}

export function toRankedRows(evidence: FusedEvidence[]): RankedEvidenceRow[] {
  return evidence.map((e) => ({
    rank: e.rank,
    id: e.id,
    kind: e.kind,
    path_or_url: e.path_or_url,
    ...(e.line_range ? { line_range: e.line_range } : {}),
    ...(e.commit ? { commit: e.commit } : {}),
    score: e.fused_score,
    expert: e.experts.join("+"),
  }));
}
