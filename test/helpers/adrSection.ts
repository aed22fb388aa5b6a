// A retrieved section of a decision record as the rules synthesizer receives it, for synthesizer tests that write their
// own records. Each maker numbers its sections (ids and retrieval ranks) in the order they are made.
import type { AdrMeta, FusedEvidence } from "../../src/core/schemas";

/** A maker of record sections whose ids start with `prefix` (ids are 15 characters, like the pipeline's). */
export function adrSectionMaker(prefix: string): (path: string, title: string, name: string, excerpt: string, meta: Partial<AdrMeta>) => FusedEvidence {
  let counter = 0;
  return (path, title, name, excerpt, meta) => {
    counter++;
    return {
      id: `${prefix}${String(counter).padStart(15 - prefix.length, "0")}`,
      kind: "internal",
      expert: "docs",
      source_type: "adr",
      path_or_url: path,
      line_range: { start: 1, end: 8 },
      precision_class: "section",
      title: `${title} — ${name}`,
      excerpt,
      score: 1,
      rank: counter,
      fused_score: 0.01,
      experts: ["docs"],
      adr: { path, title, status: "accepted", supersedes: [], superseded_by: [], considered_options: [], section: name.toLowerCase(), ...meta },
    };
  };
}
