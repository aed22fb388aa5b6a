// The single-proposal forms: "adopt / introduce / use / add A?" and "should we <verb phrase>?".

import type { QuestionStructure } from "./types";
import { ADOPT_VERBS, DETERMINERS, PRONOUNS, QUANTIFIERS } from "./vocabulary";
import { endsClause, isNounish, isPrep, isVerb, type Tok } from "./tokens";
import { clauseEnd, phraseEnd, spanText, trimNoun } from "./phrases";
import { GENERIC_OBJECTS, termsForPhrase, termsForVerbPhrase } from "./terms";
import type { Clause } from "./clause";
import { alt, clauseTitle, imperative } from "./titles";

/** "adopt / introduce / use / add A (for …)?" */
export function readAdopt(toks: Tok[], clause: Clause): Partial<QuestionStructure> | undefined {
  // "Do we need a service mesh (to get mTLS)?" proposes the mesh.
  const needs = clause.verb >= 0 && toks[clause.verb].root === "need" && !!clause.subject && PRONOUNS.has(toks[clause.subject.start].norm);
  // "Should every developer use their own token?": who adopts is part of the proposal; the action form keeps it.
  const ownSubject = !!clause.subject && QUANTIFIERS.has(toks[clause.subject.start].norm);
  const v = clause.verb >= 0 && (ADOPT_VERBS.has(toks[clause.verb].root) || needs) && !clause.passive && !ownSubject ? clause.verb : -1;
  if (v < 0 || !isVerb(toks[v])) return undefined;
  const o = v + 1;
  // "what should we use for caching?": no object, an open question.
  if (!toks[o] || isPrep(toks[o]) || (isVerb(toks[o]) && !toks[o].tags.has("Gerund"))) return undefined;
  if (needs && toks[o].norm === "both") return bothOrOne(toks, o);
  const s = trimNoun(toks, o, toks.length);
  // "lifecycle support for an .exec file": a noun that stands for its complement keeps it.
  if (GENERIC_OBJECTS.has(toks[s.end - 1]?.root ?? "") && ["for", "of", "with", "on"].includes(toks[s.end]?.norm ?? "")) {
    s.end = trimNoun(toks, s.end + 1, toks.length).end;
    // "… file implementing the interface": a participle taking an object describes the thing; it is not its name.
    if (s.end - 1 > o && toks[s.end - 1].tags.has("Gerund") && DETERMINERS.has(toks[s.end]?.norm ?? "")) s.end--;
  }
  if (s.end <= s.start || toks.slice(s.start, s.end).every((t) => DETERMINERS.has(t.norm) || PRONOUNS.has(t.norm))) return undefined;
  const subject = spanText(toks, s, { dropDeterminer: true });
  const plainAdopt = needs || ["adopt", "introduce", "use", "try", "embrace", "employ", "utilize", "utilise", "leverage"].includes(toks[v].root);
  // "adopt calendar versions, appending a patch number only for fixes": how it is adopted is part of the proposal.
  const how = endsClause(toks[s.end - 1]) && /,/.test(toks[s.end - 1].post) && isVerb(toks[s.end] ?? toks[0]) && toks[s.end].tags.has("Gerund") ? `, ${spanText(toks, { start: s.end, end: phraseEnd(toks, s.end, clauseEnd(toks, s.end)) })}` : "";
  const title = plainAdopt ? `Adopt ${subject}${how}` : imperative(toks, { start: v, end: phraseEnd(toks, v + 1, clauseEnd(toks, v)) });
  const target = alt(title, subject, termsForPhrase(toks, s), "target");
  return { form: "adopt", alternatives: [target], target };
}

/**
 * "Do we need both a CDN and an in-app cache?": using both, or only one of them; "do we still / really need both"
 * says both are in place today.
 */
function bothOrOne(toks: Tok[], at: number): Partial<QuestionStructure> | undefined {
  const and = toks.findIndex((t, k) => k > at + 1 && t.norm === "and");
  if (and < 0) return undefined;
  const [a, b] = [trimNoun(toks, at + 1, and), trimNoun(toks, and + 1, toks.length)];
  if (a.end <= a.start || b.end <= b.start) return undefined;
  const [an, bn] = [spanText(toks, a, { dropDeterminer: true }), spanText(toks, b, { dropDeterminer: true })];
  const [aTerms, bTerms] = [termsForPhrase(toks, a), termsForPhrase(toks, b)];
  const inPlace = toks.slice(0, at).some((t) => ["still", "really", "actually"].includes(t.norm));
  const both = alt(`Use both ${an} and ${bn}`, `${an} and ${bn}`, [...aTerms, ...bTerms], inPlace ? "incumbent" : "alternative");
  const alternatives = [both, alt(`Use only ${an}`, an, aTerms, "alternative"), alt(`Use only ${bn}`, bn, bTerms, "alternative")];
  return { form: "alternatives", alternatives, ...(inPlace ? { incumbent: both } : {}) };
}

const DEMONSTRATIVES = new Set(["that", "this", "these", "those"]);

/** "should we put a Varnish layer in front of the API?": the verb phrase is the proposal. */
export function readAction(toks: Tok[], clause: Clause): Partial<QuestionStructure> | undefined {
  if (clause.verb < 0) return undefined;
  const start = clause.copula >= 0 && !clause.passive ? clause.copula : clause.verb;
  const end = phraseEnd(toks, start, clauseEnd(toks, start));
  const span = { start, end };
  const read = termsForVerbPhrase(toks, { start: clause.verb, end });
  const { subject } = read;
  // "move the apps off the EC2 machines and onto EKS": what the action leaves is no term of it.
  const left = leftBehind(toks, clause.verb, end);
  const terms = left.length ? read.terms.filter((t) => !left.includes(t)) : read.terms;
  if (!terms.length && !subject) return undefined;
  // "Should we wire that in?": a demonstrative object points at an act named elsewhere, and with nothing else to look
  // for but the verb and its particle, the question names no act of its own.
  const demonstrative = DEMONSTRATIVES.has(toks[clause.verb + 1]?.norm ?? "") && !isNounish(toks[clause.verb + 2] ?? toks[clause.verb]);
  const verbAndParticle = toks.slice(clause.verb, clause.verb + 3);
  if (demonstrative && terms.every((t) => verbAndParticle.some((x) => x.norm === t || x.root === t))) return undefined;
  const target = alt(clauseTitle(toks, span, clause, false), subject, terms, "target");
  return { form: "action", alternatives: [target], target };
}

/** The terms of what an action moves away from: the place between "off" / "from" and a later "onto" / "into" / "to". */
function leftBehind(toks: Tok[], start: number, end: number): string[] {
  const from = toks.findIndex((t, k) => k > start && k < end && (t.norm === "off" || t.norm === "from"));
  if (from < 0) return [];
  const to = toks.findIndex((t, k) => k > from + 1 && k < end && ["onto", "into", "to"].includes(t.norm));
  if (to < 0) return [];
  let stop = to;
  while (stop > from + 1 && ["and", "or"].includes(toks[stop - 1].norm)) stop--;
  const place = trimNoun(toks, from + 1, stop);
  return place.end > place.start ? termsForPhrase(toks, place) : [];
}
