// The alternatives form: an "or" / "vs" / "between" / "instead of" / "over" / "better than" question read into
// Alternatives, each item worded with the frame and subject it shares with the others.

import type { Alternative, QuestionStructure } from "./types";
import { DETERMINERS, PRONOUNS, SUBORDINATORS } from "./vocabulary";
import { isCopula, isNounish, isPrep, isVerb, type Tok } from "./tokens";
import { type Span, spanText, trimNoun } from "./phrases";
import { infinitive } from "./verbForms";
import { dedupeTerms, prepTerms, termsForNounItem, termsForPhrase, termsForVerbPhrase } from "./terms";
import { type Clause, mainVerbOf } from "./clause";
import { alt, bareTitle, capitalise, clauseTitle, isPersonal, isPronounSubject, keepTitle } from "./titles";
import { findConnectors, rightMode } from "./connectors";
import { type Item, type Reading, readNounAlternatives, readThan, readVerbAlternatives } from "./alternativeItems";

/** How every item of one question is worded, beyond the item itself. */
interface Wording {
  frame?: string;
  leftClause?: Clause;
  /** The alternatives' own subjects overlap, or there are fewer than two. */
  sharedSubject: boolean;
  /** One alternative is a linking clause ("stay as plain Markdown lines"). */
  anyLinking: boolean;
}

/** The items worded as alternatives; an item whose title repeats an earlier one (any case) is dropped. */
function wordAlternatives(toks: Tok[], reading: Reading): Alternative[] {
  const { frame, leftClause } = reading;
  const items = withoutSharedTimeClause(toks, reading.items);
  // Alternatives with a subject of their own share it when the subjects overlap ("the staging environment" / "staging").
  const subjects = items.map((it) => it.clause?.subject).filter((s): s is Span => !!s);
  const subjectWords = subjects.map((s) => new Set(toks.slice(s.start, s.end).map((t) => t.norm).filter((w) => !DETERMINERS.has(w))));
  const sharedSubject = subjects.length < 2 || subjectWords.every((w) => [...w].some((x) => subjectWords[0].has(x)));
  // "should ADR metadata go into YAML front matter, or stay as plain Markdown lines?": one linking alternative makes
  // every alternative a statement about the shared subject, so they read alike.
  const anyLinking = items.some((it) => it.mode === "verb" && (it.clause ?? mainVerbOf(toks, it.span)).linking) && !!leftClause?.subject && !isPersonal(toks, leftClause.subject) && !isPronounSubject(toks, leftClause.subject) && !leftClause.expletive;
  const wording: Wording = { frame, leftClause, sharedSubject, anyLinking };
  const alternatives: Alternative[] = [];
  for (const it of items) {
    const a = wordItem(toks, it, wording);
    if (a.title && !alternatives.some((x) => x.title.toLowerCase() === a.title.toLowerCase())) alternatives.push(a);
  }
  return alternatives;
}

/**
 * "Should we squash or rebase before merging?": a time clause on a gerund after the last alternative says when every
 * alternative applies, unless an earlier alternative has one of its own.
 */
function withoutSharedTimeClause(toks: Tok[], items: Item[]): Item[] {
  const timeClauseAt = (s: Span) => {
    for (let j = s.start + 1; j < s.end - 1; j++) if ((toks[j].norm === "before" || toks[j].norm === "after") && toks[j + 1].tags.has("Gerund")) return j;
    return -1;
  };
  const last = items[items.length - 1];
  if (items.length < 2 || !last) return items;
  const at = timeClauseAt(last.span);
  if (at < 0 || items.slice(0, -1).some((it) => timeClauseAt({ start: it.span.start, end: it.span.end + 1 }) >= 0)) return items;
  return [...items.slice(0, -1), { ...last, span: { start: last.span.start, end: at } }];
}

function wordItem(toks: Tok[], it: Item, wording: Wording): Alternative {
  if (it.mode === "keep") return alt(keepTitle(toks, it.span), spanText(toks, it.span, { dropDeterminer: true }), termsForPhrase(toks, it.span), "incumbent");
  if (it.mode === "verb") return verbAlternative(toks, it, wording);
  if (it.mode === "prep") {
    let p = it.span.start;
    while (p < it.span.end && !(isPrep(toks[p]) || SUBORDINATORS.has(toks[p].norm))) p++;
    const inner = { start: Math.min(p + 1, it.span.end), end: it.span.end };
    const text = spanText(toks, it.span);
    const terms = prepTerms(toks, it.span, p);
    return alt(wording.frame ? `${wording.frame} ${text}` : capitalise(text), spanText(toks, inner, { dropDeterminer: true }), terms, "alternative");
  }
  const subject = spanText(toks, it.span, { dropDeterminer: true });
  return alt(wording.frame ? `${wording.frame} ${spanText(toks, it.span)}` : bareTitle(toks, it.span), subject, termsForNounItem(toks, it.span), "alternative");
}

function verbAlternative(toks: Tok[], it: Item, wording: Wording): Alternative {
  const { leftClause, sharedSubject, anyLinking } = wording;
  const { terms, subject } = termsForVerbPhrase(toks, it.span);
  // "…, or is there only one hook per event now?": an existential clause has a subject of its own and says what is so.
  const [cop, there] = [toks[it.span.start], toks[it.span.start + 1]];
  if (cop && isCopula(cop) && there?.norm === "there") {
    return alt(`There ${cop.norm === "are" || cop.norm === "were" ? "are" : "is"} ${spanText(toks, { start: it.span.start + 2, end: it.span.end })}`, subject, terms, "alternative");
  }
  // An elliptical right side ("or be folded into the control plane", "or left to the package managers") shares
  // the left clause's subject.
  let clause = it.clause;
  if (!clause && leftClause?.subject) {
    clause = { ...mainVerbOf(toks, it.span), subject: leftClause.subject };
    const first = toks[clause.verb];
    if (leftClause.passive && !clause.passive && first && isVerb(first) && (first.tags.has("PastTense") || first.tags.has("Participle"))) clause = { ...clause, passive: true };
  }
  // Alternatives with subjects of their own are found by their subjects too ("a scheduled Lambda").
  if (!sharedSubject && it.clause?.subject && !it.clause.expletive && !isPersonal(toks, it.clause.subject) && !isPronounSubject(toks, it.clause.subject)) {
    terms.push(...termsForPhrase(toks, it.clause.subject).filter((t) => !terms.includes(t)));
  }
  return alt(clauseTitle(toks, it.span, clause, (sharedSubject || !it.clause) && !anyLinking), subject, terms, "alternative");
}

/**
 * "Generate the API client from the spec instead of writing it by hand": the right side's "it" is the left verb's
 * object, and an option must name what it is about on its own ("Write the API client by hand"). A hyphenated gerund
 * the tagger took for a noun reads as a verb too ("hand-writing it" → "Hand-write the API client").
 */
function resolveObjectPronoun(toks: Tok[], reading: Reading, alternatives: Alternative[]): void {
  const [left, right] = reading.items;
  if (reading.items.length !== 2 || alternatives.length !== 2 || left.mode !== "verb" || right.mode !== "verb") return;
  const verb = left.clause && left.clause.verb >= left.span.start && left.clause.verb < left.span.end ? left.clause.verb : left.span.start;
  if (!isVerb(toks[verb])) return;
  // "Keep using react-table": what is kept is the gerund's object.
  const objectStart = toks[verb + 1]?.tags.has("Gerund") ? verb + 2 : verb + 1;
  const object = trimNoun(toks, objectStart, left.span.end);
  const first = toks[object.start];
  if (object.end <= object.start || !first || PRONOUNS.has(first.norm) || isPrep(first) || !toks.slice(object.start, object.end).some((t) => isNounish(t))) return;
  const named = spanText(toks, object);
  const plural = toks[object.end - 1]?.tags.has("Plural");
  // Only the pronoun right after the right side's verb is its object ("Move it to ZIO"; not "is it time to …").
  const pronoun = plural ? /^(\S+\s)them\b/ : /^(\S+\s)it\b/;
  const a = alternatives[1];
  // "Be it time to switch …": an expletive "it", no object.
  if (!pronoun.test(a.title) || /^(?:be|is|are|was|were)\s/i.test(a.title)) return;
  let title = a.title.replace(pronoun, `$1${named}`);
  const hyphenGerund = /^(\w+-)(\w+ing)\b/i.exec(title);
  if (hyphenGerund) {
    const ing = hyphenGerund[2].toLowerCase();
    const base = infinitive({ ...toks[0], norm: ing, root: ing, tags: new Set(["Verb", "Gerund"]) });
    if (base && base !== ing) title = `${hyphenGerund[1]}${base}${title.slice(hyphenGerund[0].length)}`;
  }
  alternatives[1] = { ...a, title: capitalise(title), terms: [...new Set([...a.terms, ...termsForPhrase(toks, object)])] };
}

/** The alternatives of an "or" / "vs" / "between" / "instead of" / "over" / "better than" question. */
export function readAlternatives(toks: Tok[]): Partial<QuestionStructure> | undefined {
  const connectors = findConnectors(toks);
  if (!connectors.length) return undefined;
  const last = connectors[connectors.length - 1];
  const right = rightMode(toks, last.at + last.width);
  const reading =
    last.kind === "than" ? readThan(toks, last) : right.mode === "verb" ? readVerbAlternatives(toks, right, last.at) : readNounAlternatives(toks, connectors, last, right);
  if (!reading) return undefined;
  const alternatives = wordAlternatives(toks, reading);
  resolveObjectPronoun(toks, reading, alternatives);
  dedupeTerms(alternatives);
  if (alternatives.length < 2) return undefined;
  const out: Partial<QuestionStructure> = { form: "alternatives", alternatives };
  // "X instead of Y", "X rather than Y": Y is what is done today.
  if (last.kind === "instead" && alternatives.length === 2) {
    alternatives[1].role = "incumbent";
    alternatives[0].role = "target";
    out.incumbent = alternatives[1];
    out.target = alternatives[0];
  }
  return out;
}
