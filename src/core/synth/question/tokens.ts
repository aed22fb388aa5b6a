// One token of a tagged question (Tok), the compromise instance and lexicon behind it, and the predicates that say
// what a token is (verb, modal, noun-ish, a name) or re-tag it as a verb or a noun.

import type nlpLib from "compromise";
import { compromise } from "../../nlp";
import { DECISION_VERBS, DETERMINERS, LIGHT_VERBS, NEVER_NOUNISH, PREPS, PRONOUNS, SUBORDINATORS, WH } from "./vocabulary";

/**
 * compromise, with the part-of-speech tagger the classifier also uses ("compromise/two" is the same instance and
 * lexicon: importing the full build here adds only its phrase methods, ~20 ms, not a second lexicon).
 */
export function nlp(): typeof nlpLib {
  return compromise();
}

export interface Tok {
  text: string;
  /** Lower-case, punctuation-free form. */
  norm: string;
  /** Infinitive of a verb, singular of a noun (compromise's root), else norm. */
  root: string;
  tags: Set<string>;
  pre: string;
  post: string;
  /** The tagger's note that the word can also be another part of speech ("Noun|Verb"). */
  amb?: string;
}

export function isModal(t: Tok): boolean {
  return t.tags.has("Modal") || t.tags.has("Auxiliary") || ["should", "would", "could", "can", "shall", "will", "must", "may", "might", "do", "does", "did"].includes(t.norm);
}
/** A modal of its own ("should", "would"), not the "do" that only carries a question. */
export function isTrueModal(t: Tok): boolean {
  return isModal(t) && !["do", "does", "did"].includes(t.norm);
}
export function isCopula(t: Tok): boolean {
  return t.tags.has("Copula") || ["be", "is", "are", "was", "were", "been", "being"].includes(t.norm);
}
export function isVerb(t: Tok): boolean {
  return t.tags.has("Verb") && !isModal(t) && !isCopula(t) && !PREPS.has(t.norm) && !t.tags.has("Particle") && !NEVER_NOUNISH.has(t.norm);
}
export function isPrep(t: Tok): boolean {
  return PREPS.has(t.norm);
}
export function isConj(t: Tok): boolean {
  return ["and", "or", "nor", "but", "vs", "versus"].includes(t.norm) || (t.tags.has("Conjunction") && !PREPS.has(t.norm) && t.norm !== "that");
}
export function isAdverb(t: Tok): boolean {
  return NEVER_NOUNISH.has(t.norm) || (t.tags.has("Adverb") && !t.tags.has("Adjective") && !t.tags.has("Noun"));
}
export function endsClause(t: Tok): boolean {
  const post = t.post.replace(/\.\.\./g, "").replace(/['"’”)\]]/g, "");
  // "1. Context": a list number's period ends nothing.
  // A dash between words ("in this codebase — Celery, RQ or cron") sets a phrase apart as a comma does.
  return /[,;:?!—–]/.test(post) || /\s-\s/.test(post) || (/\./.test(post) && !/^\d+$/.test(t.norm));
}
const PARTICLES = new Set(["up", "out", "off", "down", "away", "back"]);

export function isNounish(t: Tok): boolean {
  if (NEVER_NOUNISH.has(t.norm) || PARTICLES.has(t.norm) || t.tags.has("Particle")) return false;
  if (PREPS.has(t.norm) || isConj(t) || isModal(t) || isCopula(t) || WH.has(t.norm) || SUBORDINATORS.has(t.norm)) return false;
  if (isAdverb(t)) return false;
  if (isVerb(t)) return t.tags.has("Gerund") || t.tags.has("Noun");
  return true;
}
/** Capitalised in the middle of a sentence, an acronym, or carrying a digit, dot, @ or slash: the name of a thing. */
export function isNameLike(t: Tok): boolean {
  return t.tags.has("ProperNoun") || t.tags.has("Acronym") || /[A-Z]/.test(t.text.slice(1)) || /[\d.@/:]/.test(t.text.replace(/[.?!,;:'"]+$/, "")) || isHyphenatedName(t);
}

/** "adr-tools", "scala-opentracing": a hyphenated word whose first part is no English word is a name. */
function isHyphenatedName(t: Tok): boolean {
  const m = /^([a-z][a-z0-9]{2,})-[a-z0-9]/.exec(t.norm);
  if (!m || COMMON_PREFIXES.has(m[1])) return false;
  const lex = lexicon();
  return !(m[1] in lex) && !(`${m[1]}s` in lex) && !(m[1].replace(/s$/, "") in lex);
}
const COMMON_PREFIXES = new Set(["pre", "post", "non", "multi", "sub", "self", "cross", "inter", "intra", "over", "under", "anti", "semi", "auto", "co", "re", "de", "un", "mid", "end"]);
export function lexicon(): Record<string, unknown> {
  return (nlp() as unknown as { world(): { model: { one: { lexicon: Record<string, unknown> } } } }).world().model.one.lexicon;
}
/** The word is ordinary English (in the tagger's lexicon, or a regular form of such a word). */
export function isKnownWord(t: Tok): boolean {
  const lex = lexicon();
  return t.norm in lex || t.root in lex || t.tags.has("Gerund") || (t.tags.has("Adjective") && !t.tags.has("ProperNoun"));
}

export function asVerb(t: Tok): void {
  for (const tag of ["Noun", "Singular", "Plural", "Adjective", "ProperNoun"]) t.tags.delete(tag);
  t.tags.add("Verb");
  t.tags.add("Infinitive");
}
export function asNoun(t: Tok): void {
  const wasThirdPerson = t.tags.has("PresentTense") && !t.tags.has("Infinitive") && /s$/.test(t.norm);
  for (const tag of ["Verb", "Infinitive", "PresentTense", "PastTense"]) t.tags.delete(tag);
  t.tags.add("Noun");
  if (wasThirdPerson || (/[^s]s$/.test(t.norm) && t.root !== t.norm)) t.tags.add("Plural");
}

/** The word can be a verb: tagged so, noted as ambiguous, a decision verb, or a verb in the lexicon. */
/** A verb with a hyphenated prefix the lexicon does not know: "self-host", "re-run", "hand-write", "auto-scale". */
const PREFIXED_VERB = /^(?:self|re|pre|auto|co|hand|over|under|de|un|cross|hot|dry)-[a-z]{3,}$/;

export function verbCapable(t: Tok | undefined): boolean {
  if (!t || PREPS.has(t.norm) || DETERMINERS.has(t.norm) || PRONOUNS.has(t.norm) || isConj(t) || isModal(t) || NEVER_NOUNISH.has(t.norm)) return false;
  if (isVerb(t) || /Verb/.test(t.amb ?? "") || DECISION_VERBS.has(t.norm) || LIGHT_VERBS.has(t.norm) || PREFIXED_VERB.test(t.norm)) return true;
  const lex = lexicon()[t.norm];
  return typeof lex === "string" && /Infinitive|PresentTense|PastTense|Gerund|Verb/.test(lex);
}
