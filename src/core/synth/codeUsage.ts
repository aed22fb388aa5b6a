// The code-usage figures (internal/codeUsage.ts) joined to a drafted picker: which names each option goes by in
// code, and, once counted, a cited tradeoff line per option ("+ Used in 41 files today (package.json:12, …)") with
// the example lines as evidence the option's supports cite.
import { evidenceId } from "../hash";
import type { CodeUsageOptions, CodeUsageReport, OptionTerms, OptionUsage, UsageLine } from "../internal/codeUsage";
import { countCodeUsage, describeUsage } from "../internal/codeUsage";
import type { DraftPicker, FusedEvidence } from "../schemas";
import { keyFor, toCitation } from "./rules";

/**
 * The names an option goes by in code: the whole option's name and its spellings and aliases ("react-query",
 * "reactquery" for "Use React Query"), never one inner word of it ("react" would count every React file).
 */
export function optionTermsFor(options: DraftPicker["options"]): OptionTerms[] {
  return options.map((o) => {
    const key = keyFor(o.title);
    const primary = key.terms[0]?.replace(/[\s-]/g, "").length ?? 0;
    return { id: o.id, title: o.title, terms: key.terms.filter((t) => t.replace(/[\s-]/g, "").length >= primary - 2) };
  });
}

/** One usage line as fused evidence (after the fused ranks: it was never ranked against the question). */
export function usageEvidence(line: UsageLine, rank: number): FusedEvidence {
  const range = { start: line.line, end: line.line };
  return {
    id: evidenceId({ kind: "internal", path_or_url: line.path, line_range: range }),
    kind: "internal",
    expert: "code",
    source_type: "code",
    path_or_url: line.path,
    line_range: range,
    precision_class: "exact-lines",
    title: `${line.path}:${line.line} (${line.kind === "import" ? "import" : line.kind === "lock" ? "lock file" : line.kind === "infra" ? "infrastructure" : "manifest"})`,
    excerpt: line.text,
    score: 0,
    rank,
    fused_score: 0,
    experts: ["code"],
  };
}

export interface UsageJoin {
  draft: DraftPicker;
  /** The usage lines added as evidence (not already among the fused evidence). */
  added: FusedEvidence[];
  /** Option id -> the evidence ids of its usage lines. */
  citedBy: Map<string, string[]>;
}

/** The draft with each counted option's tradeoff line and usage citations; evidence ids stay unique. */
export function joinCodeUsage(draft: DraftPicker, report: CodeUsageReport, evidence: FusedEvidence[]): UsageJoin {
  const known = new Map(evidence.map((e) => [e.id, e] as const));
  const added: FusedEvidence[] = [];
  const citedBy = new Map<string, string[]>();
  const byId = new Map(report.options.map((u) => [u.id, u] as const));
  const anyUse = report.options.some((u) => u.files > 0);
  const citations = [...draft.citations];
  const cited = new Set(citations.map((c) => c.id));
  const options = draft.options.map((o) => {
    const u = byId.get(o.id);
    if (!u || !u.terms.length || (!u.files && !anyUse)) return o;
    const ids: string[] = [];
    for (const line of u.examples) {
      let e = known.get(usageEvidence(line, 1).id);
      if (!e) {
        e = usageEvidence(line, evidence.length + added.length + 1);
        known.set(e.id, e);
        added.push(e);
      }
      ids.push(e.id);
      if (!cited.has(e.id)) {
        cited.add(e.id);
        citations.push(toCitation(e));
      }
    }
    citedBy.set(o.id, ids);
    const line = usageTradeoff(u, report.truncated === true);
    // The rules summary said nothing favoured it before the code lines joined its supports.
    const summary = ids.length ? o.summary.replace("No cited evidence favours it.", `Only its use in the code (${u.files} file${u.files === 1 ? "" : "s"}) favours it.`) : o.summary;
    return { ...o, summary, supports: [...o.supports, ...ids.filter((id) => !o.supports.includes(id))], tradeoffs: [line, ...o.tradeoffs] };
  });
  return { draft: { ...draft, options, citations }, added, citedBy };
}

function usageTradeoff(u: OptionUsage, truncated: boolean): string {
  const atLeast = truncated ? "at least " : "";
  if (!u.files) return `· Not used in the code today (no manifest, import or infrastructure file names ${u.terms[0]}${truncated ? " in the part searched" : ""}).`;
  return `· Used in ${atLeast}${describeUsage(u).replace(/^[^:]*: /, "")} today.`;
}

/** Counts the draft's options in the repository's code and joins the figures to the draft. */
export async function measureCodeUsage(repo: string, draft: DraftPicker, evidence: FusedEvidence[], opts: CodeUsageOptions): Promise<UsageJoin & { report: CodeUsageReport }> {
  const report = await countCodeUsage(repo, optionTermsFor(draft.options), opts);
  return { ...joinCodeUsage(draft, report, evidence), report };
}
