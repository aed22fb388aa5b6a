// Learning from operator picks: per-repository weights for each evidence source and each synthesis path, as a pure
// function of the picks in signed, trusted receipts. No I/O here (load.ts gathers the observations).
//
// The update rule. For a counted receipt with recommended option R and picked option P, the stance of a source s
// on an option o is
//     stance_o(s) = (supports of o cited from s − dissent on o cited from s) / (all supports and dissent of o)
// which lies in [−1, 1]. The receipt credits each source with
//     credit(s) = stance_P(s)                  when the operator accepted the recommendation (P = R),
//     credit(s) = stance_P(s) − stance_R(s)    when the operator overrode it (P ≠ R),
//     credit(s) = stance_P(s)                  when there was no recommendation (undecidable).
// A synthesis path (rules / model) gets +1 for an accepted recommendation and −1 for an override.
// The weight is   w = exp(clamp(LEARNING_RATE · Σ credit, −ln 2, ln 2)),   so it always lies in [0.5, 2], no pick
// ever moves it by more than a factor of e^(2·LEARNING_RATE), and, since the sum is taken in receipt-id order and
// clamped once at the end, the same receipts always give the same weights whatever order they were read in.
import { canonicalJson, sha256 } from "../hash";
import type { FusedEvidence, LearnedWeights, OptionPicker, SourceType } from "../schemas";
import { UNDECIDABLE } from "../constants";

/** The evidence sources operators can learn to trust more or less. */
export const LEARNED_SOURCES = ["adr", "convention", "architecture", "git-history", "dependency-docs", "web"] as const;
export type LearnedSource = (typeof LEARNED_SOURCES)[number];

/** How a learned source is named to people (CLI, sidebar). */
export const LEARNED_SOURCE_LABELS: Record<LearnedSource, string> = {
  adr: "ADRs",
  convention: "convention rules",
  architecture: "architecture docs",
  "git-history": "git history",
  "dependency-docs": "dependency docs",
  web: "web",
};

export const SYNTHESIS_PATHS = ["rules", "model"] as const;
export type SynthesisPath = (typeof SYNTHESIS_PATHS)[number];

/** How far one fully one-sided pick moves a log-weight. */
export const LEARNING_RATE = 0.05;
export const MIN_WEIGHT = 0.5;
export const MAX_WEIGHT = 2;

/** Which learned source an evidence item belongs to, by the kind of artifact it came from. */
export function sourceOf(sourceType: SourceType): LearnedSource {
  switch (sourceType) {
    case "adr":
      return "adr";
    case "agent-instructions":
    case "contributing":
    case "canonical-file":
    case "code":
      return "convention";
    case "architecture":
      return "architecture";
    case "commit":
      return "git-history";
    case "dependency-doc":
      return "dependency-docs";
    case "web":
      return "web";
  }
}

/** What one counted receipt says: the options' cited sources, the recommendation and the pick. */
export interface PickObservation {
  receipt_id: string;
  synthesis: SynthesisPath;
  recommended: string;
  picked: string;
  /** Per option id: the learned source of each supporting and each dissenting citation. */
  options: Record<string, { supports: LearnedSource[]; dissent: LearnedSource[] }>;
}

/**
 * The observation a receipt's payload and evidence file give: each option's supports and dissent mapped to their
 * sources through the evidence items they cite (a citation with no evidence item, such as a model's unresolved
 * reference, is left out).
 */
export function observationOf(
  receiptId: string,
  synthesis: string,
  payload: Pick<OptionPicker, "options" | "recommendation">,
  evidence: Pick<FusedEvidence, "id" | "source_type">[],
  pickedOptionId: string,
): PickObservation {
  const byId = new Map(evidence.map((e) => [e.id, sourceOf(e.source_type)]));
  const mapIds = (ids: string[]) => ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
  const options: PickObservation["options"] = {};
  for (const o of payload.options) options[o.id] = { supports: mapIds(o.supports), dissent: mapIds(o.dissent) };
  return {
    receipt_id: receiptId,
    synthesis: synthesis === "model" ? "model" : "rules",
    recommended: payload.recommendation.option_id,
    picked: pickedOptionId,
    options,
  };
}

export type PickOutcome = "agreed" | "overridden" | "undecided";

export function outcomeOf(o: Pick<PickObservation, "recommended" | "picked">): PickOutcome {
  if (o.recommended === UNDECIDABLE) return "undecided";
  return o.recommended === o.picked ? "agreed" : "overridden";
}

function stance(option: PickObservation["options"][string] | undefined, source: LearnedSource): number {
  if (!option) return 0;
  const total = option.supports.length + option.dissent.length;
  if (total === 0) return 0;
  const count = (list: LearnedSource[]) => list.filter((s) => s === source).length;
  return (count(option.supports) - count(option.dissent)) / total;
}

/** What one receipt credits each source with (see the rule at the top of this file). */
export function sourceCredits(o: PickObservation): Record<LearnedSource, number> {
  const outcome = outcomeOf(o);
  const credits = {} as Record<LearnedSource, number>;
  for (const s of LEARNED_SOURCES) {
    const toPicked = stance(o.options[o.picked], s);
    credits[s] = outcome === "overridden" ? toPicked - stance(o.options[o.recommended], s) : toPicked;
  }
  return credits;
}

function weightOf(total: number): number {
  const bound = Math.log(MAX_WEIGHT);
  const logWeight = Math.min(bound, Math.max(-Math.log(1 / MIN_WEIGHT), LEARNING_RATE * total));
  return Math.round(Math.exp(logWeight) * 1e4) / 1e4;
}

export interface ComputedWeights {
  sources: Record<LearnedSource, number>;
  synthesis: Record<SynthesisPath, number>;
  agreed: number;
  overridden: number;
  undecided: number;
  /** agreed / (agreed + overridden), or null before any decided pick. */
  agreement_rate: number | null;
}

/** The weights a set of observations gives. Pure and independent of the order of `observations`. */
export function computeWeights(observations: PickObservation[]): ComputedWeights {
  const ordered = [...observations].sort((a, b) => (a.receipt_id < b.receipt_id ? -1 : a.receipt_id > b.receipt_id ? 1 : 0));
  const sourceTotals = Object.fromEntries(LEARNED_SOURCES.map((s) => [s, 0])) as Record<LearnedSource, number>;
  const pathTotals = Object.fromEntries(SYNTHESIS_PATHS.map((p) => [p, 0])) as Record<SynthesisPath, number>;
  const counts = { agreed: 0, overridden: 0, undecided: 0 };
  for (const o of ordered) {
    const outcome = outcomeOf(o);
    counts[outcome]++;
    const credits = sourceCredits(o);
    for (const s of LEARNED_SOURCES) sourceTotals[s] += credits[s];
    if (outcome !== "undecided") pathTotals[o.synthesis] += outcome === "agreed" ? 1 : -1;
  }
  const decided = counts.agreed + counts.overridden;
  return {
    sources: Object.fromEntries(LEARNED_SOURCES.map((s) => [s, weightOf(sourceTotals[s])])) as Record<LearnedSource, number>,
    synthesis: Object.fromEntries(SYNTHESIS_PATHS.map((p) => [p, weightOf(pathTotals[p])])) as Record<SynthesisPath, number>,
    ...counts,
    agreement_rate: decided ? Math.round((counts.agreed / decided) * 1e4) / 1e4 : null,
  };
}

type WeightTables = { sources: Record<string, number>; synthesis: Record<string, number> };

export function weightsHash(w: WeightTables): string {
  return sha256(canonicalJson({ sources: w.sources, synthesis: w.synthesis })).slice(0, 16);
}

/** True when every weight is 1: ranking is exactly what it was before learning existed. */
export function isNeutral(w: WeightTables): boolean {
  return [...Object.values(w.sources), ...Object.values(w.synthesis)].every((x) => x === 1);
}

/** The record a receipt keeps of the weights it ranked with. */
export function toLearnedWeights(w: ComputedWeights): LearnedWeights {
  return { hash: weightsHash(w), sources: { ...w.sources }, synthesis: { ...w.synthesis }, picks_counted: w.agreed + w.overridden + w.undecided };
}

/**
 * The config version a deliberation runs under: unchanged while the weights are neutral (so nothing learned means
 * nothing changes), otherwise suffixed with the weights' hash so the turn cache never serves a result ranked with
 * other weights.
 */
export function versionWithWeights(version: string, w: LearnedWeights | undefined): string {
  if (!w || isNeutral(w)) return version;
  return `${version}+w${w.hash.slice(0, 10)}`;
}

/** The fusion prior for one evidence item: the weight of its source (1 when nothing was learned). */
export function priorFor(w: LearnedWeights | undefined): ((item: Pick<FusedEvidence, "source_type">) => number) | undefined {
  if (!w || isNeutral(w)) return undefined;
  return (item) => w.sources[sourceOf(item.source_type)] ?? 1;
}
