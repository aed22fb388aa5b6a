// A decision record as the rules Critic sees it among the retrieved evidence: one scored, ranked item with its record
// metadata. Shared by the Critic's tests.
import type { AdrMeta, DraftPicker, FusedEvidence } from "../../src/core/schemas";

export function recordItem(path: string, score: number, rank: number, meta: Partial<AdrMeta> & { title: string }): FusedEvidence {
  return {
    id: `ev-${path.replace(/\W/g, "")}`,
    kind: "internal",
    expert: "docs",
    source_type: "adr",
    path_or_url: path,
    line_range: { start: 1, end: 10 },
    precision_class: "section",
    title: meta.title,
    excerpt: "We decided.",
    score,
    rank,
    fused_score: 1 / rank,
    experts: ["docs"],
    adr: { path, status: "accepted", supersedes: [], superseded_by: [], considered_options: [], section: "decision", ...meta },
  };
}

export type Option = DraftPicker["options"][number];

/** An option with the given supports, low cost and risk. */
export function option(id: string, title: string, supports: string[] = []): Option {
  return { id, title, summary: "s", supports, dissent: [], tradeoffs: [], cost: "low", risk: "low" };
}

/** A draft recommending `recommended` among `options`, with no citations. */
export function draft(question: string, options: Option[], recommended: string, confidence: "low" | "med" | "high" = "med"): DraftPicker {
  return {
    question,
    class: "open-question",
    options,
    recommendation: { option_id: recommended, rationale: "r", confidence },
    citations: [],
    coverage: { internal: 1, external: 0, top_score: 1 },
  };
}
