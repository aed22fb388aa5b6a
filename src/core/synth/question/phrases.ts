// Spans of tokens and the noun phrases in them: where a phrase starts and ends, its text as written, and where a
// clause or a phrase running to the clause end stops.

import { DETERMINERS, RELATIONAL, REPLACE_VERBS } from "./vocabulary";
import { endsClause, isAdverb, isNameLike, isNounish, isPrep, isVerb, type Tok } from "./tokens";

export interface Span {
  start: number;
  /** Exclusive. */
  end: number;
}

export function spanText(toks: Tok[], span: Span, opts: { dropDeterminer?: boolean } = {}): string {
  const s = { start: Math.max(0, span.start), end: Math.min(span.end, toks.length) };
  if (s.start >= s.end) return "";
  let start = s.start;
  if (opts.dropDeterminer) while (start < s.end - 1 && DETERMINERS.has(toks[start].norm) && !toks[start].tags.has("Possessive")) start++;
  // Quotation marks around words are dropped from titles (an apostrophe inside a word stays: "RabbitMQ's").
  const unquote = (x: string) => x.replace(/["'‘’“”`]/g, "");
  let out = "";
  for (let i = start; i < s.end; i++) {
    const t = toks[i];
    // A leading sigil is part of the name ("!!x", "@scope/pkg", "$HOME"); other leading punctuation is not.
    const pre = i === start ? (unquote(t.pre).match(/[!@$#]+$/)?.[0] ?? "") : unquote(t.pre);
    const post = i === s.end - 1 ? "" : unquote(t.post) || (/^\S/.test(toks[i + 1]?.pre ?? "") ? "" : " ");
    out += `${pre}${t.text.replace(/^["'‘“`]+|["'’”`]+$/g, "")}${post}`;
  }
  return out.replace(/\s+/g, " ").trim().replace(/[,;:?!]+$/, "");
}

/** Pronouns that can only be the subject of a clause: after a noun they open a relative clause, never continue it. */
const RELATIVE_SUBJECTS = new Set(["we", "they", "you", "i", "he", "she"]);

/** End (exclusive) of the noun phrase starting at i: determiners, modifiers, nouns, "of" continuations, examples. */
export function nounPhraseEnd(toks: Tok[], i: number, limit = toks.length, opts: { examples?: boolean; and?: boolean } = {}): number {
  limit = Math.min(limit, toks.length);
  let j = i;
  let sawNoun = false;
  while (j < limit) {
    const t = toks[j];
    if (sawNoun && !endsClause(toks[j - 1]) && j + 1 < limit) {
      // "database of its own", "numbers like '1. Context'", "cookies and query parameters".
      const ofJoin = t.norm === "of" && isNounish(toks[j + 1]) && !RELATIONAL.has(toks[j - 1].norm);
      const example = opts.examples !== false && (t.norm === "like" || (t.norm === "such" && toks[j + 1].norm === "as") || t.norm === "including");
      const andJoin = opts.and && t.norm === "and" && isNounish(toks[j + 1]) && (!isVerb(toks[j + 1]) || toks[j + 1].tags.has("Gerund"));
      if (ofJoin || andJoin) {
        j++;
        continue;
      }
      if (example) {
        j += t.norm === "such" ? 2 : 1;
        // An example list runs to the clause end: "like breaking-change, bugfix and feature".
        // ", appending a patch number": a gerund after a comma opens a phrase of its own, no example.
        while (j < limit && !(endsClause(toks[j - 1]) && isVerb(toks[j]) && toks[j].tags.has("Gerund")) && (isNounish(toks[j]) || (toks[j].norm === "and" || toks[j].norm === "or") && j + 1 < limit && isNounish(toks[j + 1]) && /,/.test(toks[j - 1].post) === false)) {
          j++;
        }
        return j;
      }
    }
    if (!isNounish(t)) break;
    // "submissions they no longer need": a subject pronoun after a noun opens a relative clause without "that".
    if (sawNoun && RELATIVE_SUBJECTS.has(t.norm)) break;
    // "Picocli a better fit": a determiner after a noun starts another phrase.
    if (sawNoun && DETERMINERS.has(t.norm) && !t.tags.has("Possessive")) break;
    sawNoun = true;
    j++;
    if (endsClause(t)) break;
  }
  return j;
}

/** Start of the noun phrase that ends just before `end`: walks back over modifiers, stopping at a list comma. */
export function nounPhraseStart(toks: Tok[], end: number, floor = 0): number {
  let j = end;
  while (j - 1 >= floor) {
    const t = toks[j - 1];
    if (!isNounish(t)) {
      // "database of its own", "numbers like '1. Context'": a joining word between two noun parts.
      if ((t.norm === "of" || t.norm === "like") && j - 2 >= floor && isNounish(toks[j - 2]) && !RELATIONAL.has(toks[j - 2].norm) && !endsClause(toks[j - 2])) {
        j--;
        continue;
      }
      break;
    }
    if (j < end && endsClause(t)) break;
    j--;
    if (DETERMINERS.has(t.norm)) break;
  }
  return j;
}

/** "sharing the production database", "storing uploads": a gerund followed by its object acts as a verb. */
function gerundTakesObject(toks: Tok[], i: number, end: number): boolean {
  const next = toks[i + 1];
  return i + 1 < end && !endsClause(toks[i]) && (DETERMINERS.has(next.norm) || next.tags.has("Possessive") || isPrep(next) || (isNounish(next) && !next.tags.has("Adjective") && toks[i].root !== toks[i].norm));
}

export interface NounPhrase {
  span: Span;
  prep?: string;
  relational: boolean;
  afterVerb?: string;
}

/** The noun phrases inside a span, with the preposition (if any) that governs each. */
export function nounPhrases(toks: Tok[], span: Span): NounPhrase[] {
  const s = { start: Math.max(0, span.start), end: Math.min(span.end, toks.length) };
  const out: NounPhrase[] = [];
  let prep: string | undefined;
  let verb: string | undefined;
  let relational = false;
  for (let i = s.start; i < s.end; ) {
    const t = toks[i];
    if (isPrep(t) && t.norm !== "like") {
      prep = t.norm;
      if (RELATIONAL.has(toks[i - 1]?.norm ?? "") || ["alongside", "besides", "beside", "than"].includes(t.norm)) relational = true;
      i++;
      continue;
    }
    if (isVerb(t) && (!t.tags.has("Gerund") || gerundTakesObject(toks, i, s.end))) {
      verb = t.root;
      prep = undefined;
      relational = false;
      i++;
      continue;
    }
    if (isNounish(t) && !RELATIONAL.has(t.norm)) {
      const end = Math.max(i + 1, nounPhraseEnd(toks, i, s.end, { examples: false }));
      if (RELATIONAL.has(toks[end - 1]?.norm ?? "")) {
        relational = true;
        i = end;
        continue;
      }
      if (toks.slice(i, end).some((x) => x.tags.has("Noun") || x.tags.has("Acronym") || isNameLike(x) || x.tags.has("Gerund"))) out.push({ span: { start: i, end }, prep, afterVerb: verb, relational });
      i = end;
      prep = undefined;
      relational = false;
      continue;
    }
    i++;
  }
  return out;
}

/** A noun phrase from `start`, skipping leading adverbs, up to a purpose preposition or the clause end. */
export function trimNoun(toks: Tok[], start: number, limit: number, opts: { examples?: boolean; and?: boolean } = {}): Span {
  let i = start;
  while (i < limit && isAdverb(toks[i])) i++;
  return { start: i, end: Math.min(toks.length, Math.max(i + 1, Math.min(limit, nounPhraseEnd(toks, i, limit, opts)))) };
}

/** End of a phrase that runs to the clause end, stopping before a purpose ("for …", "so that …", "if …"). */
export function phraseEnd(toks: Tok[], start: number, limit: number): number {
  for (let j = start + 1; j < limit; j++) {
    if (/[;?!]/.test(toks[j - 1].post) || (/[.]/.test(toks[j - 1].post) && !/^\d+$/.test(toks[j - 1].norm))) return j;
    // "swap Akka for Pekko": after a replacing verb, "for" names the replacement, not a purpose.
    const swapping = toks[j].norm === "for" && toks.slice(start, j).some((t) => REPLACE_VERBS.has(t.root));
    if (["for", "because", "since", "given", "unless"].includes(toks[j].norm) && j > start + 1 && !swapping) return j;
    // "… now that the CDN caches most responses": a reason.
    if (toks[j].norm === "now" && toks[j + 1]?.norm === "that" && j > start + 1) return j;
  }
  return limit;
}

/** End of the clause that starts at i: the sentence end or a semicolon. */
export function clauseEnd(toks: Tok[], i: number): number {
  for (let j = i; j < toks.length; j++) if (/[;?!]/.test(toks[j].post) || (/[.]/.test(toks[j].post) && j < toks.length - 1 && !/^\d+$/.test(toks[j].norm))) return j + 1;
  return toks.length;
}

export function isNamePhrase(toks: Tok[], s: Span): boolean {
  return toks.slice(s.start, s.end).some((t) => isNameLike(t));
}
