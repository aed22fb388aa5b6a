// Reciprocal-rank fusion over every expert's ranked list: score(d) = sum over lists of 1 / (k + rank). It needs no
// score calibration between experts, which is exactly what BM25 sections, commits and web pages lack.
import type { EvidenceItem, FusedEvidence, RankedEvidenceRow } from "./schemas";

export function fuseRankedLists(lists: { expert: string; items: EvidenceItem[] }[], k = 60): FusedEvidence[] {
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
  const fused = [...byId.values()].sort(
    (a, b) => b.fused - a.fused || b.bestScore - a.bestScore || a.item.id.localeCompare(b.item.id),
  );
  return fused.map((f, i) => ({ ...f.item, rank: i + 1, fused_score: round(f.fused), experts: f.experts }));
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
