// Does another retrieved record speak to more of the question than the deciding one? (issue 23)
//
// A reviewer who opens the deciding record and the next records retrieval found, and looks for the question's own
// words in each, doubts a recommendation whose record mentions clearly fewer of them than a neighbour does: the
// question is more likely about the neighbour's subject. Retrieval ranks on openings, titles and planned terms (the
// plain view reads a record's first 500 words); this reads each record's whole text and counts distinct content words
// only, so a long record gains nothing by repeating itself. A gap of one word is noise (a neighbour that tells a
// longer story picks up the engineer's incidental words), so the neighbour must lead by MIN_GAP words. Alone the
// finding is common on right answers; whether it blocks, alone or paired with another check's finding, is policy.ts's
// call.
import type { FusedEvidence } from "../schemas";
import { recordName } from "../synth/stance";
import { rankedRecords, replacedBy, stemSet, type GroundingFocus } from "./grounding";

/** How many other records, in retrieval order, are read against the deciding one. */
export const COVER_RIVALS = 3;
/** How many more of the question's distinct words a neighbour must mention before it is the better-covered record. */
export const MIN_GAP = 2;
/** The most of a record's text read: a giant file is not read to its end. */
const MAX_TEXT = 200_000;

export interface CoverageFinding {
  text: string;
  citations: string[];
  /** Distinct content words of the question in the deciding record's text, and in the neighbour's. */
  mine: number;
  theirs: number;
}

/** A record's text as the Critic can read it: its full text when discovery read it, else its retrieved sections. */
function textOf(f: GroundingFocus, path: string, title: string): string {
  const full = f.recordText?.(path);
  if (full !== undefined) return full.slice(0, MAX_TEXT);
  return [title, ...f.evidence.filter((e) => e.adr?.path === path).map((e) => `${e.title ?? ""}\n${e.excerpt}`)].join("\n");
}

/** How many of these words the text has. */
function covered(words: ReadonlySet<string>, text: string): number {
  const have = stemSet(text);
  return [...words].filter((w) => have.has(w)).length;
}

/**
 * The finding when one of the COVER_RIVALS best-ranked other records (not one the deciding record replaced) has at
 * least MIN_GAP more of the question's distinct content words in its text than the deciding record has in its own;
 * undefined else.
 */
export function coveredElsewhere(f: GroundingFocus): CoverageFinding | undefined {
  const r = f.record;
  if (!r) return undefined;
  const words = stemSet(f.question);
  if (!words.size) return undefined;
  const mine = covered(words, textOf(f, r.meta.path, r.meta.title));
  const best = rankedRecords(f.evidence)
    .filter((x) => x.meta.path !== r.meta.path && !replacedBy(x.meta, r.meta))
    .slice(0, COVER_RIVALS)
    .map((x) => ({ cite: x.cite as FusedEvidence, meta: x.meta, n: covered(words, textOf(f, x.meta.path, x.meta.title)) }))
    .sort((a, b) => b.n - a.n || a.cite.rank - b.cite.rank)[0];
  if (!best || best.n < mine + MIN_GAP) return undefined;
  return {
    text: `${recordName(best.meta)} mentions more of what the question describes (${best.n} of its ${words.size} distinct words) than ${recordName(r.meta)} does (${mine}): the question may be about its subject.`,
    citations: [r.cite.id, best.cite.id],
    mine,
    theirs: best.n,
  };
}
