// How firmly the deciding record is tied to the question, measured from the evidence and the draft only (never from
// an answer key), as one number with one threshold:
//   support = margin + HEADLINE_WORD_WEIGHT × (words of what the question asks that the record's headline shares)
// where the margin is log2 of the record's retrieval score over the best other retrieved document's (1 = twice the
// score). A record that barely leads (or trails) the next document and whose title and options share few words with
// the question is as likely a neighbouring record as the deciding one: below WEAK_SUPPORT the Critic objects. The
// finding's kind says what the question names (questionNames): a thin tie means most when the question proposes one
// thing, less when it names the recommended alternative itself or names nothing (a symptom rarely shares a record's
// words); policy.ts decides which of them block. The weight and the threshold were fit on the eval's dev half
// (leave-one-repository-out), never on the test half.
import type { FusedEvidence } from "../schemas";
import { recordName } from "../synth/stance";
import { splitAsking } from "../terms";
import { readQuestion } from "../synth/question";
import { mentions } from "../synth/stance";
import { headline, replacedBy, stemSet, type GroundingFocus } from "./grounding";

export interface GroundingSignals {
  /**
   * log2 of the deciding record's retrieval score over the best other retrieved document's (not one it replaced): above 0 when it leads,
   * below when another leads; within ±MARGIN_CAP (a record with no other document beside it leads by the cap).
   */
  margin: number;
  /** The best other retrieved document (its highest-scored item), when there is one. */
  rival?: FusedEvidence;
  /** Words of what the question asks that the record's headline (title, file name, subject, options) shares. */
  shared: string[];
  /** margin + HEADLINE_WORD_WEIGHT × shared words (at most HEADLINE_CAP of them). */
  support: number;
}

/** Margins beyond 4× (or a quarter of) the next document's score say nothing more. */
export const MARGIN_CAP = 2;
/** What one headline word shared with the question is worth, in doublings of retrieval score. */
export const HEADLINE_WORD_WEIGHT = 0.25;
/** Shared headline words beyond this many say nothing more. */
export const HEADLINE_CAP = 4;
/** Below this support the deciding record may well be a neighbouring one (whether that blocks is policy.ts's call). */
export const WEAK_SUPPORT = 0.5;
/** Above this support (twice the weak bar), over a rival, the record is firmly tied: a second reading's dissent tells less. */
export const FIRM_SUPPORT = 2 * WEAK_SUPPORT;

/** Each retrieved document's best-scored item from the documents expert (commits, code and web pages have other scales). */
function bestItems(evidence: FusedEvidence[]): Map<string, FusedEvidence> {
  const out = new Map<string, FusedEvidence>();
  for (const e of evidence) {
    if (e.expert !== "docs" || e.kind !== "internal" || e.commit) continue;
    const path = e.adr?.path ?? e.path_or_url;
    const prev = out.get(path);
    if (!prev || e.score > prev.score || (e.score === prev.score && e.rank < prev.rank)) out.set(path, e);
  }
  return out;
}

/** The signals for a draft whose recommendation follows a record the documents expert scored; undefined else. */
export function groundingSignals(f: GroundingFocus): GroundingSignals | undefined {
  const r = f.record;
  if (!r) return undefined;
  const items = bestItems(f.evidence);
  const mine = items.get(r.meta.path)?.score;
  if (mine === undefined || !(mine > 0)) return undefined;
  // A record the deciding one replaced is no rival: retrieval may rank the old wording of the same decision higher.
  const rival = [...items].filter(([path, e]) => path !== r.meta.path && !(e.adr && replacedBy(e.adr, r.meta))).map(([, e]) => e).sort((a, b) => b.score - a.score || a.rank - b.rank)[0];
  const margin = rival && rival.score > 0 ? Math.max(-MARGIN_CAP, Math.min(MARGIN_CAP, Math.log2(mine / rival.score))) : MARGIN_CAP;
  const head = headline(r.meta);
  const shared = [...stemSet(splitAsking(f.question).asking)].filter((w) => head.has(w));
  return { margin, ...(rival ? { rival } : {}), shared, support: margin + HEADLINE_WORD_WEIGHT * Math.min(shared.length, HEADLINE_CAP) };
}

/**
 * What the question names, as the weak tie's finding kinds tell apart (a thin headline tie means something else in each):
 *   "choice":   two or more alternatives, the recommended one among them ("A or B?", "move from A to B?"): the question
 *               was matched to the option by name, so few shared headline words say less (off-subject stays quiet too);
 *   "proposal": one thing, or alternatives the recommendation is not ("adopt X?"): the record should name it;
 *   "open":     nothing at all (a goal or a symptom in the engineer's words): a record on it rarely shares its words.
 */
export function questionNames(question: string, rec: { title: string }): "choice" | "proposal" | "open" {
  const named = readQuestion(question).alternatives.filter((a) => a.terms.length);
  if (!named.length) return "open";
  return named.length >= 2 && named.some((a) => mentions(rec.title, { terms: a.terms })) ? "choice" : "proposal";
}

/** The recommendation is one of two or more alternatives the question names itself. */
export function answersNamedChoice(question: string, rec: { title: string }): boolean {
  return questionNames(question, rec) === "choice";
}

/**
 * The objection when the deciding record's support is below WEAK_SUPPORT, citing it and the best other document;
 * with what the question names (each a finding kind of its own).
 */
export function weakGrounding(f: GroundingFocus): { text: string; citations: string[]; names: ReturnType<typeof questionNames> } | undefined {
  const s = groundingSignals(f);
  if (!s || s.support >= WEAK_SUPPORT) return undefined;
  const r = f.record!;
  const ratio = 2 ** Math.abs(s.margin);
  const times = `${ratio >= 10 ? Math.round(ratio) : ratio.toFixed(1)}×`;
  const rivalName = s.rival ? (s.rival.adr ? recordName(s.rival.adr) : s.rival.path_or_url) : "";
  const standing = !s.rival ? "" : s.margin >= 0 ? `it leads ${rivalName} by only ${times} in retrieval score` : `${rivalName} scores ${times} higher in retrieval`;
  const words = s.shared.length === 0 ? "no word" : s.shared.length === 1 ? "only one word" : `only ${s.shared.length} words`;
  return {
    text: `${recordName(r.meta)} is weakly tied to this question: ${standing ? `${standing}, and ` : ""}its title and options share ${words} of what the question asks; the recommendation may rest on a neighbouring record.`,
    citations: [r.cite.id, ...(s.rival ? [s.rival.id] : [])],
    names: questionNames(f.question, f.rec),
  };
}

// ---------------------------------------------------------------------------------------------------------
// A crowded field: the deciding record does not stand out of the documents retrieved beside it.
//
// The weak tie above compares the record with the single best other document. A record that two or more other
// documents score nearly as well as (or better than) is one of a pack: retrieval found the subject, not the record
// that decides the question, and the draft took one of several neighbours. Counted over the documents expert's items
// (the same scale as the record's), leaving out the records the deciding one replaced. On the eval's dev half, on
// low-confidence answers, this held 40 wrong answers to 8 right ones (at CROWD_SHARE 0.8 and CROWD_MIN 2); on surer
// answers it tells little (4 to 5), so the two are kinds of their own and policy.ts decides which block. A surer
// answer in a denser pack (more than CROWD_MIN near equals) is a third kind: the bar for doubt rises with the
// confidence the draft already has (round 32: dev 4 wrong to 0 right).

/** Another document scoring at least this share of the deciding record's retrieval score is its near equal. */
export const CROWD_SHARE = 0.8;
/** The field is crowded when at least this many other documents are near equals of the deciding record. */
export const CROWD_MIN = 2;

/** The other documents whose best item scores at least CROWD_SHARE of the deciding record's, best first; undefined when there is no scored record. */
export function nearEquals(f: GroundingFocus): FusedEvidence[] | undefined {
  const r = f.record;
  if (!r) return undefined;
  const items = bestItems(f.evidence);
  const mine = items.get(r.meta.path)?.score;
  if (mine === undefined || !(mine > 0)) return undefined;
  return [...items]
    .filter(([path, e]) => path !== r.meta.path && !(e.adr && replacedBy(e.adr, r.meta)) && e.score >= CROWD_SHARE * mine)
    .map(([, e]) => e)
    .sort((a, b) => b.score - a.score || a.rank - b.rank);
}

/**
 * The objection when CROWD_MIN or more other documents score within CROWD_SHARE of the deciding record, citing it and
 * the two best of them; `unsure` when the draft is held at low confidence (the kind policy.ts may block); `near`, how
 * many near equals there are.
 */
export function crowdedField(f: GroundingFocus): { text: string; citations: string[]; unsure: boolean; near: number } | undefined {
  const near = nearEquals(f);
  if (!near || near.length < CROWD_MIN) return undefined;
  const r = f.record!;
  const name = (e: FusedEvidence) => (e.adr ? recordName(e.adr) : e.path_or_url);
  const shown = near.slice(0, 2).map(name);
  const more = near.length > 2 ? ` and ${near.length - 2} more` : "";
  return {
    text: `${recordName(r.meta)} does not stand out of what retrieval found: ${near.length} other documents (${shown.join(", ")}${more}) score at least ${Math.round(CROWD_SHARE * 100)}% as high on this question, so the recommendation may rest on a neighbouring record.`,
    citations: [r.cite.id, ...near.slice(0, 2).map((e) => e.id)],
    unsure: f.draft.recommendation.confidence === "low",
    near: near.length,
  };
}
