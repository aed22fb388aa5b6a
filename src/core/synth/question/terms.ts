// Matching terms: the lower-case words that find an alternative in evidence text (never shown), for a noun phrase,
// a verb phrase, a prepositional phrase or a noun item; terms two alternatives share are dropped.

import { TECH_ALIASES } from "../words";
import type { Alternative } from "./types";
import { DETERMINERS, LINKING_VERBS, LOCATIVE, MOVE_VERBS, NEVER_NOUNISH, PLACEMENT_VERBS, PRONOUNS, PURPOSE, RELATIONAL, REPLACE_VERBS, SUBORDINATORS } from "./vocabulary";
import { isAdverb, isConj, isCopula, isKnownWord, isModal, isNameLike, isNounish, isPrep, isVerb, nlp, type Tok } from "./tokens";
import { type NounPhrase, nounPhrases, type Span, spanText } from "./phrases";
import { infinitive } from "./verbForms";

/** Acronyms every codebase uses: never enough to find an option by themselves. */
const GENERIC_ACRONYMS = new Set(["api", "apis", "ui", "cli", "http", "https", "rest", "json", "sql", "url", "urls", "id", "ids", "db", "io", "os", "ci", "cd", "sdk", "jvm", "vm", "app", "aws", "gcp"]);
/** Heads too generic to find an option by themselves. */
const GENERIC_HEADS = new Set(["approach", "way", "thing", "option", "solution", "setup", "one", "system", "mechanism", "strategy", "pattern", "method", "style", "model", "policy", "process", "it", "them", "that", "this", "ones", "own"]);
/** Nouns that stand for their complement: "support for X", "use of X", "dependency on X". */
export const GENERIC_OBJECTS = new Set(["support", "use", "usage", "dependency", "reliance", "integration", "adoption", "version", "copy", "instance", "fork"]);

function singularPlural(phrase: string): string[] {
  const words = phrase.split(" ");
  const last = words[words.length - 1];
  if (!/^[a-z][a-z-]*$/.test(last) || last.length < 3) return [];
  const sing = (nlp()(last).nouns().toSingular().text() as string).toLowerCase();
  const plur = (nlp()(last).nouns().toPlural().text() as string).toLowerCase();
  const out: string[] = [];
  for (const v of [sing, plur]) if (v && v !== last && /^[a-z-]+$/.test(v)) out.push([...words.slice(0, -1), v].join(" "));
  return out;
}

/** Terms for one noun phrase: the phrase, its spaced/hyphenated/joined and singular/plural forms, a name head, names in it. */
export function termsForPhrase(toks: Tok[], s: Span): string[] {
  const all = toks.slice(s.start, s.end).filter((t) => !DETERMINERS.has(t.norm) && !t.tags.has("Possessive") && !PRONOUNS.has(t.norm));
  // "a container like Guice": the head phrase and each example are found separately.
  const cut = all.findIndex((t) => ["like", "including", "such", "as", "and", "or"].includes(t.norm));
  let words = (cut >= 0 ? all.slice(0, cut) : all).filter((t) => !isAdverb(t));
  const ofPhrase = words.some((t) => t.norm === "of") ? words.map((t) => t.norm).join(" ") : undefined;
  words = words.filter((t) => t.norm !== "of");
  const examples = cut >= 0 ? all.slice(cut).filter((t) => isNounish(t) && isNameLike(t)) : [];
  const core = words;
  const out = new Set<string>();
  if (core.length && !(core.length === 1 && (GENERIC_HEADS.has(core[0].root) || GENERIC_OBJECTS.has(core[0].root)))) {
    const lower = core.map((t) => t.norm);
    const phrase = lower.join(" ");
    out.add(phrase);
    if (core.length > 1) {
      out.add(lower.join("-"));
      out.add(lower.join(""));
      // "Varnish layer" is found by "Varnish"; "browser cache" is not found by "browser".
      if (isNameLike(core[0]) && !GENERIC_ACRONYMS.has(core[0].norm)) out.add(core[0].norm);
    }
    const last = core[core.length - 1];
    const variants = isNameLike(last) || !isKnownWord(last) ? [] : singularPlural(phrase);
    for (const v of variants) out.add(v);
    if (ofPhrase) out.add(ofPhrase);
    // A name inside a longer phrase finds it too: "the DAPS identity module" → "daps".
    for (const t of core.slice(1)) if (isNameLike(t) && t.norm.length > 2 && !GENERIC_ACRONYMS.has(t.norm)) out.add(t.norm);
    // A name of two words is also written as one: "Active Record" / "ActiveRecord", "Cap'n Proto" / "CapnProto".
    for (let i = 0; i + 1 < core.length; i++) {
      if (!isNameLike(core[i]) || !isNameLike(core[i + 1]) || (i > 0 && isNameLike(core[i - 1])) || (i + 2 < core.length && isNameLike(core[i + 2]))) continue;
      const joined = `${core[i].norm}${core[i + 1].norm}`.replace(/['’]/g, "");
      if (joined.length > 4) out.add(joined);
    }
  }
  for (const t of examples) out.add(t.norm);
  for (const group of TECH_ALIASES) if (group.some((g) => out.has(g))) group.forEach((g) => out.add(g));
  return [...out].filter((t) => t.length > 1);
}

/**
 * The terms of a verb-phrase alternative: its main noun phrase (where or with what something is done, else the
 * object), plus any other name in it. Objects of relational prepositions ("in front of the API") and purposes
 * ("for nightly reports") are context, not the alternative.
 */
export function termsForVerbPhrase(toks: Tok[], s: Span): { terms: string[]; subject: string } {
  const replacing = toks.slice(s.start, s.end).some((t) => isVerb(t) && REPLACE_VERBS.has(t.root));
  const nps = nounPhrases(toks, s).filter(
    (np) => !np.relational && !(np.prep && PURPOSE.has(np.prep) && !(replacing && np.prep === "for")) && !toks.slice(np.span.start, np.span.end).every((t) => PRONOUNS.has(t.norm) || DETERMINERS.has(t.norm)),
  );
  if (!nps.length) {
    // "stay optional", "publish only when we cut a release": the words themselves.
    const words = toks.slice(s.start, s.end).filter((t) => !isVerb(t) && !isModal(t) && !isCopula(t) && !DETERMINERS.has(t.norm) && !PRONOUNS.has(t.norm) && !isPrep(t) && !isConj(t) && !SUBORDINATORS.has(t.norm));
    const main = toks.slice(s.start, s.end).find((t) => isVerb(t));
    const terms = words.filter((t) => t.norm.length > 2 && !NEVER_NOUNISH.has(t.norm)).map((t) => t.norm);
    return { terms: terms.length ? terms : main ? [main.root] : [], subject: words.map((t) => t.text).join(" ") };
  }
  const verbTok = toks.slice(s.start, s.end).find((t) => isVerb(t) || isCopula(t));
  const verb = verbTok ? infinitive(verbTok) : "";
  const placement = PLACEMENT_VERBS.has(verb) || MOVE_VERBS.has(verb) || nps.some((np) => np.afterVerb && (PLACEMENT_VERBS.has(np.afterVerb) || MOVE_VERBS.has(np.afterVerb)));
  const places = placement ? [...LOCATIVE, "into", "onto", "to"] : LOCATIVE;
  const named = (np: NounPhrase) => toks.slice(np.span.start, np.span.end).some(isNameLike);
  let primary: NounPhrase;
  let pool = nps;
  if (REPLACE_VERBS.has(verb)) {
    // "swap Akka for Apache Pekko": the newcomer is the alternative, the replaced thing is context.
    const newcomer = nps.find((np) => np.prep && ["with", "by", "for"].includes(np.prep));
    pool = newcomer ? nps.filter((np) => np === newcomer || np.prep) : nps;
    primary = newcomer ?? nps[0];
  } else if (LINKING_VERBS.has(verb) || verb === "be") {
    // "become an ordinary object", "stay an Akka actor": the complement.
    primary = nps[0];
  } else {
    const locative = (np: NounPhrase) => !!np.prep && places.includes(np.prep) && !isGerundOnly(toks, np.span);
    primary =
      nps.find((np) => named(np) && locative(np)) ??
      nps.find((np) => named(np) && !np.prep) ??
      nps.find((np) => named(np)) ??
      nps.find(locative) ??
      nps.find((np) => !isGerundOnly(toks, np.span) && !isVagueOnly(toks, np.span)) ??
      nps[0];
  }
  const chosen = [primary, ...pool.filter((np) => np !== primary && named(np))];
  const terms = new Set<string>();
  for (const np of chosen) for (const t of termsForPhrase(toks, np.span)) terms.add(t);
  for (const t of toks.slice(s.start, s.end)) {
    // "locally with a Java library", "always appended": a manner adverb sets the alternative apart; so does a
    // predicate adjective ("be given bare", "keep infrastructure external", "stay optional").
    if (isAdverb(t) && /ly$/.test(t.norm) && t.norm.length > 4) terms.add(t.norm);
  }
  for (let k = s.start; k < s.end; k++) {
    const t = toks[k];
    const next = toks[k + 1];
    if (t.tags.has("Adjective") && !t.tags.has("Noun") && (k + 1 >= s.end || !isNounish(next)) && t.norm.length > 2 && !NEVER_NOUNISH.has(t.norm) && !RELATIONAL.has(t.norm) && !isPrep(next ?? t)) terms.add(t.norm);
  }
  return { terms: [...terms], subject: spanText(toks, primary.span, { dropDeterminer: true }) };
}

function isVagueOnly(toks: Tok[], s: Span): boolean {
  return toks.slice(s.start, s.end).every((t) => DETERMINERS.has(t.norm) || GENERIC_HEADS.has(t.root) || GENERIC_OBJECTS.has(t.root));
}

function isGerundOnly(toks: Tok[], s: Span): boolean {
  return toks.slice(s.start, s.end).every((t) => t.tags.has("Gerund") || DETERMINERS.has(t.norm));
}

/**
 * Terms of a prepositional alternative ("per call", "in a shared policy", "only when we cut a release"): the
 * object's terms, but a lone common noun is looked for with its preposition ("per call"), since "call" alone is in
 * every text.
 */
export function prepTerms(toks: Tok[], s: Span, p: number): string[] {
  const inner = { start: Math.min(p + 1, s.end), end: s.end };
  if (SUBORDINATORS.has(toks[p]?.norm ?? "")) return termsForVerbPhrase(toks, inner).terms;
  const words = toks.slice(inner.start, inner.end).filter((t) => !DETERMINERS.has(t.norm) && !t.tags.has("Possessive"));
  if (words.length === 1 && !isNameLike(words[0]) && isKnownWord(words[0])) {
    const prep = toks[p].norm;
    const forms = [words[0].norm, ...singularPlural(words[0].norm)];
    return forms.flatMap((w) => [`${prep} ${w}`, `${prep}-${w}`]);
  }
  return termsForNounItem(toks, inner);
}

/** Terms of a noun alternative that may carry phrases ("GeoPandas with Shapely", "tags in each file"): its head phrase and the names in it. */
export function termsForNounItem(toks: Tok[], s: Span): string[] {
  const nps = nounPhrases(toks, s).filter((np) => !np.relational && !(np.prep && PURPOSE.has(np.prep)));
  if (nps.length <= 1) return termsForPhrase(toks, s);
  const out = new Set<string>(termsForPhrase(toks, nps[0].span));
  for (const np of nps.slice(1)) if (toks.slice(np.span.start, np.span.end).some(isNameLike)) for (const t of termsForPhrase(toks, np.span)) out.add(t);
  return [...out];
}

/** Terms two alternatives share name neither of them ("production database" vs "own database" share "database"). */
export function dedupeTerms(alts: Alternative[]): void {
  const count = new Map<string, number>();
  for (const a of alts) for (const t of new Set(a.terms)) count.set(t, (count.get(t) ?? 0) + 1);
  for (const a of alts) a.terms = a.terms.filter((t) => count.get(t) === 1);
}
