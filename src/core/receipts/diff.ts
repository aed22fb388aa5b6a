// Two deliberations of one question, compared: which citations came and went (the citation_set_hash says whether
// anything did; ids and then locations say what), which options were added, removed or renamed, the
// recommendation and its confidence before and after, and which stage's evidence moved it. Attribution reads each
// receipt's fused evidence (the expert that found each item); without it, the citation's own kind says enough to
// tell git history, docs and external sources apart. Pure: the caller reads the receipts and the evidence.
import { UNDECIDABLE } from "../constants";
import type { Citation, FusedEvidence, Option, Receipt } from "../schemas";
import { expertStage, stageTitle } from "../stages";
import { citationPlace } from "./citedContent";

export interface CitationRef {
  id: string;
  kind: Citation["kind"];
  location: string;
  title?: string;
  /** The stage whose expert found it ("internal:docs", "internal:git", "external:deps", …). */
  stage: string;
  source_type?: string;
}

export interface OptionRef {
  id: string;
  title: string;
}

export interface ReceiptSide {
  receipt_id: string;
  created_at: string;
  recommendation: { option_id: string; title: string; confidence: string };
  citation_set_hash: string;
  citations: number;
  options: OptionRef[];
  pick: string | null;
}

export interface Attribution {
  stage: string;
  /** The stage's title on screen ("ADRs and docs", "Git history", …). */
  title: string;
  /** Citations this stage added that support the new recommendation (or dissent from the old one). */
  for_after: CitationRef[];
  /** Citations this stage no longer returned that supported the old recommendation. */
  lost_before: CitationRef[];
}

export interface ObjectionRef {
  severity: "blocking" | "concern";
  text: string;
}

export interface ReceiptDiff {
  question: string;
  before: ReceiptSide;
  after: ReceiptSide;
  /** The arguments came newest first and were put in date order. */
  reordered: boolean;
  citations: { same_set: boolean; added: CitationRef[]; removed: CitationRef[]; kept: number };
  options: { added: OptionRef[]; removed: OptionRef[]; renamed: { before: OptionRef; after: OptionRef }[] };
  recommendation: { changed: boolean; confidence_changed: boolean };
  moved_by: Attribution[];
  /** The Critic's objections that appeared or were resolved (absent when neither receipt has any). */
  objections?: { appeared: ObjectionRef[]; resolved: ObjectionRef[] };
  /** When nothing in the evidence explains a changed recommendation (e.g. another synthesizer weighed it). */
  note?: string;
}

/** Receipts of one question (same question_hash). */
export function sameQuestion(a: Receipt, b: Receipt): boolean {
  return a.question_hash === b.question_hash;
}

function locationKey(c: Citation): string {
  return [c.kind, c.path_or_url, c.line_range ? `${c.line_range.start}-${c.line_range.end}` : "", c.commit ?? ""].join("\0");
}

function stageOf(c: Citation, evidence: Map<string, FusedEvidence>): { stage: string; source_type?: string } {
  const e = evidence.get(c.id);
  if (e) return { stage: expertStage(e.kind, e.expert), source_type: e.source_type };
  if (c.kind === "external") return { stage: "external" };
  return { stage: expertStage("internal", c.commit ? "git" : "docs"), ...(c.commit ? { source_type: "commit" } : {}) };
}

function refOf(c: Citation, evidence: Map<string, FusedEvidence>): CitationRef {
  const where = stageOf(c, evidence);
  return { id: c.id, kind: c.kind, location: citationPlace(c), ...(c.title ? { title: c.title } : {}), ...where };
}

const words = (title: string) => new Set(title.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w.length > 1));

/** Jaccard similarity of two titles' words. */
export function titleSimilarity(a: string, b: string): number {
  const x = words(a);
  const y = words(b);
  if (!x.size || !y.size) return 0;
  const shared = [...x].filter((w) => y.has(w)).length;
  return shared / (x.size + y.size - shared);
}

/** Renamed options: same id with another title, or, among the unmatched, titles at least half alike (best first). */
function matchOptions(before: Option[], after: Option[]): { pairs: Map<string, string>; diff: ReceiptDiff["options"] } {
  const pairs = new Map<string, string>();
  const renamed: ReceiptDiff["options"]["renamed"] = [];
  const afterById = new Map(after.map((o) => [o.id, o]));
  for (const o of before) {
    const same = afterById.get(o.id);
    if (!same) continue;
    pairs.set(o.id, same.id);
    if (same.title !== o.title) renamed.push({ before: { id: o.id, title: o.title }, after: { id: same.id, title: same.title } });
  }
  const taken = new Set(pairs.values());
  const candidates = before
    .filter((o) => !pairs.has(o.id))
    .flatMap((o) => after.filter((n) => !taken.has(n.id)).map((n) => ({ o, n, sim: titleSimilarity(o.title, n.title) })))
    .filter((c) => c.sim >= 0.5)
    .sort((x, y) => y.sim - x.sim);
  for (const { o, n } of candidates) {
    if (pairs.has(o.id) || taken.has(n.id)) continue;
    pairs.set(o.id, n.id);
    taken.add(n.id);
    renamed.push({ before: { id: o.id, title: o.title }, after: { id: n.id, title: n.title } });
  }
  return {
    pairs,
    diff: {
      added: after.filter((n) => !taken.has(n.id)).map((n) => ({ id: n.id, title: n.title })),
      removed: before.filter((o) => !pairs.has(o.id)).map((o) => ({ id: o.id, title: o.title })),
      renamed,
    },
  };
}

function side(r: Receipt): ReceiptSide {
  const p = r.payload;
  const rec = p.options.find((o) => o.id === p.recommendation.option_id);
  return {
    receipt_id: r.receipt_id,
    created_at: r.created_at,
    recommendation: { option_id: p.recommendation.option_id, title: rec?.title ?? (p.recommendation.option_id === UNDECIDABLE ? "undecidable on current evidence" : p.recommendation.option_id), confidence: p.recommendation.confidence },
    citation_set_hash: r.citation_set_hash,
    citations: p.citations.length,
    options: p.options.map((o) => ({ id: o.id, title: o.title })),
    pick: r.operator_pick?.option_id ?? null,
  };
}

/** Groups the differing citations that bear on the recommendation by the stage whose expert found them. */
function attribute(a: Receipt, b: Receipt, added: CitationRef[], removed: CitationRef[]): Attribution[] {
  const recA = a.payload.options.find((o) => o.id === a.payload.recommendation.option_id);
  const recB = b.payload.options.find((o) => o.id === b.payload.recommendation.option_id);
  const forAfter = new Set([...(recB?.supports ?? []), ...b.payload.options.filter((o) => o !== recB && recA && titleSimilarity(o.title, recA.title) >= 0.5).flatMap((o) => o.dissent)]);
  const forBefore = new Set(recA?.supports ?? []);
  const byStage = new Map<string, Attribution>();
  const slot = (stage: string) => {
    let s = byStage.get(stage);
    if (!s) byStage.set(stage, (s = { stage, title: stageTitle(stage), for_after: [], lost_before: [] }));
    return s;
  };
  for (const c of added) if (forAfter.has(c.id)) slot(c.stage).for_after.push(c);
  for (const c of removed) if (forBefore.has(c.id)) slot(c.stage).lost_before.push(c);
  return [...byStage.values()].sort((x, y) => y.for_after.length + y.lost_before.length - (x.for_after.length + x.lost_before.length) || x.stage.localeCompare(y.stage));
}

/**
 * Compares two receipts of one question, in date order (the older is "before"). `evidence` holds each receipt's
 * fused evidence when it could be read, for attributing citations to the stage that found them.
 */
export function diffReceipts(first: Receipt, second: Receipt, evidence: { first?: FusedEvidence[]; second?: FusedEvidence[] } = {}): ReceiptDiff {
  const reordered = first.created_at > second.created_at;
  const [a, b] = reordered ? [second, first] : [first, second];
  const [evA, evB] = reordered ? [evidence.second, evidence.first] : [evidence.first, evidence.second];
  const mapA = new Map((evA ?? []).map((e) => [e.id, e]));
  const mapB = new Map((evB ?? []).map((e) => [e.id, e]));
  const idsA = new Set(a.payload.citations.map((c) => c.id));
  const idsB = new Set(b.payload.citations.map((c) => c.id));
  const locA = new Set(a.payload.citations.map(locationKey));
  const locB = new Set(b.payload.citations.map(locationKey));
  // Same id, or (after a config change renumbered the ids) the same location, is the same citation.
  const added = b.payload.citations.filter((c) => !idsA.has(c.id) && !locA.has(locationKey(c))).map((c) => refOf(c, mapB));
  const removed = a.payload.citations.filter((c) => !idsB.has(c.id) && !locB.has(locationKey(c))).map((c) => refOf(c, mapA));
  const options = matchOptions(a.payload.options, b.payload.options);
  const recA = a.payload.recommendation;
  const recB = b.payload.recommendation;
  const changed = recA.option_id === UNDECIDABLE || recB.option_id === UNDECIDABLE ? recA.option_id !== recB.option_id : options.pairs.get(recA.option_id) !== recB.option_id;
  const confidenceChanged = recA.confidence !== recB.confidence;
  const movedBy = changed || confidenceChanged ? attribute(a, b, added, removed) : [];
  const note =
    (changed || confidenceChanged) && movedBy.length === 0
      ? a.synthesis.mode !== b.synthesis.mode
        ? `no cited evidence changed sides; the synthesis changed (${a.synthesis.mode} → ${b.synthesis.mode})`
        : "no added or removed citation bears on the recommendation; the same evidence was weighed differently"
      : undefined;
  const objections = diffObjections(a, b);
  return {
    question: b.question,
    before: side(a),
    after: side(b),
    reordered,
    citations: { same_set: a.citation_set_hash === b.citation_set_hash, added, removed, kept: b.payload.citations.length - added.length },
    options: options.diff,
    recommendation: { changed, confidence_changed: confidenceChanged },
    moved_by: movedBy,
    ...(objections ? { objections } : {}),
    ...(note ? { note } : {}),
  };
}

/** The same objection across two receipts: its severity and its text with the figures blanked ("41 files" ~ "42 files"). */
function objectionKey(o: ObjectionRef): string {
  return `${o.severity}\0${o.text.replace(/\d+/g, "#")}`;
}

function diffObjections(a: Receipt, b: Receipt): ReceiptDiff["objections"] {
  const before = (a.payload.objections ?? []).map((o) => ({ severity: o.severity, text: o.text }));
  const after = (b.payload.objections ?? []).map((o) => ({ severity: o.severity, text: o.text }));
  if (!before.length && !after.length) return undefined;
  const keysA = new Set(before.map(objectionKey));
  const keysB = new Set(after.map(objectionKey));
  return { appeared: after.filter((o) => !keysA.has(objectionKey(o))), resolved: before.filter((o) => !keysB.has(objectionKey(o))) };
}

function citeLine(sign: string, c: CitationRef): string {
  return `  ${sign} ${c.location}${c.title ? ` — ${c.title}` : ""}  [${stageTitle(c.stage)}${c.source_type ? `, ${c.source_type}` : ""}]`;
}

/** The comparison as text lines (the CLI and the picker's "What changed" panel render the same lines). */
export function describeDiff(d: ReceiptDiff): string[] {
  const lines: string[] = [];
  const rec = (s: ReceiptSide) => `"${s.recommendation.title}" (${s.recommendation.confidence} confidence)`;
  lines.push(`Before: ${d.before.created_at}  ${d.before.receipt_id}  recommended ${rec(d.before)}`);
  lines.push(`After:  ${d.after.created_at}  ${d.after.receipt_id}  recommended ${rec(d.after)}`);
  if (d.recommendation.changed) lines.push(`Recommendation changed: "${d.before.recommendation.title}" → "${d.after.recommendation.title}"`);
  else lines.push(`Recommendation unchanged: "${d.after.recommendation.title}"`);
  if (d.recommendation.confidence_changed) lines.push(`Confidence: ${d.before.recommendation.confidence} → ${d.after.recommendation.confidence}`);
  if (d.citations.same_set) lines.push(`Citations: the same set (${d.after.citations}; citation_set_hash ${d.after.citation_set_hash.slice(0, 12)}…)`);
  else {
    lines.push(`Citations: ${d.citations.added.length} added, ${d.citations.removed.length} removed, ${d.citations.kept} kept`);
    for (const c of d.citations.added) lines.push(citeLine("+", c));
    for (const c of d.citations.removed) lines.push(citeLine("−", c));
  }
  const o = d.options;
  if (!o.added.length && !o.removed.length && !o.renamed.length) lines.push("Options: the same");
  else {
    lines.push("Options:");
    for (const x of o.added) lines.push(`  + "${x.title}"`);
    for (const x of o.removed) lines.push(`  − "${x.title}"`);
    for (const x of o.renamed) lines.push(`  ~ "${x.before.title}" → "${x.after.title}"`);
  }
  for (const m of d.moved_by) {
    const parts = [
      ...m.for_after.map((c) => `+${c.location} supports "${d.after.recommendation.title}"`),
      ...m.lost_before.map((c) => `−${c.location} had supported "${d.before.recommendation.title}"`),
    ];
    lines.push(`Moved by ${m.title} (${m.stage}): ${parts.join("; ")}`);
  }
  if (d.note) lines.push(`Moved by: ${d.note}`);
  if (d.objections) {
    const { appeared, resolved } = d.objections;
    if (!appeared.length && !resolved.length) lines.push("Objections: the same");
    else {
      lines.push(`Objections: ${appeared.length} appeared, ${resolved.length} resolved`);
      for (const o of appeared) lines.push(`  + ${o.severity}: ${o.text}`);
      for (const o of resolved) lines.push(`  − ${o.severity}: ${o.text}`);
    }
  }
  return lines;
}
