// What is in place today when the question only proposes: named in the context before a trailing "instead" or a
// comparative, or beside the proposal ("alongside Markdown").

import type { Alternative } from "./types";
import { DETERMINERS, LOCATIVE, PERSONAL, PRONOUNS, QUANTIFIERS } from "./vocabulary";
import { isNounish, type Tok } from "./tokens";
import { clauseEnd, isNamePhrase, type NounPhrase, nounPhrases, type Span, spanText, trimNoun } from "./phrases";
import { infinitive } from "./verbForms";
import { termsForPhrase } from "./terms";
import { type Clause, mainVerb } from "./clause";
import { alt, isPersonal, isPronounSubject, keepTitle } from "./titles";

/**
 * "…X is painful; is it time to integrate Y instead?", "Our stores are verified against an in-memory engine;
 * should those suites target a real Postgres instead?": a trailing "instead" replaces something the context named.
 * The incumbent is the context's noun phrase in the same role: the object of the same verb, else the complement
 * when the question's subject continues the context's ("it", "those suites"), else the context's subject.
 */
export function insteadIncumbent(context: Tok[][], toks: Tok[], clause: Clause): Alternative | undefined {
  const ctx = context[context.length - 1];
  if (!ctx?.length) return undefined;
  const c = mainVerb(ctx, 0, ctx.length);
  const qVerb = clause.verb >= 0 ? toks[clause.verb] : undefined;
  const nps = nounPhrases(ctx, { start: c.verb >= 0 ? c.verb : 0, end: clauseEnd(ctx, 0) }).filter((np) => !onlyPoints(ctx, np.span) && !np.relational);
  // Stop before a relative clause ("an engine that lacks JSON operators").
  const cut = (np: NounPhrase) => {
    const s = np.span;
    for (let k = s.start; k < s.end; k++) if (["that", "which", "who"].includes(ctx[k].norm)) return { start: s.start, end: k };
    return s;
  };
  let pick: Span | undefined;
  if (qVerb && c.verb >= 0 && infinitive(ctx[c.verb]) === infinitive(qVerb)) {
    pick = nps.find((np) => !np.prep || LOCATIVE.includes(np.prep))?.span;
  }
  const continues = (!clause.expletive && isPronounSubject(toks, clause.subject)) || (clause.subject && ["those", "these", "this", "that"].includes(toks[clause.subject.start].norm));
  if (!pick && continues && c.subject) {
    const afterSubject = nps.filter((np) => np.span.start >= (c.subject?.end ?? 0) && (!np.prep || ["against", "with", "on", "in", "by", "via", "through"].includes(np.prep)));
    pick = afterSubject[0]?.span;
  }
  if (!pick && c.subject && !isPersonal(ctx, c.subject) && !isPronounSubject(ctx, c.subject)) pick = c.subject;
  // "We deploy with Ansible": with a personal subject, what it works with.
  if (!pick && (!c.subject || isPersonal(ctx, c.subject))) pick = nps.find((np) => !np.prep || LOCATIVE.includes(np.prep))?.span;
  if (!pick) return undefined;
  const span = cut({ span: pick, relational: false });
  // "we cannot fix them all": a phrase that only points back names nothing in place.
  if (span.end <= span.start || onlyPoints(ctx, span)) return undefined;
  return alt(keepTitle(ctx, span), spanText(ctx, span, { dropDeterminer: true }), termsForPhrase(ctx, span), "incumbent");
}

/** A phrase with no noun but pronouns, determiners and quantifiers ("them all", "we cannot"): it names nothing. */
function onlyPoints(toks: Tok[], s: Span): boolean {
  return !toks.slice(s.start, s.end).some((t) => !PRONOUNS.has(t.norm) && !DETERMINERS.has(t.norm) && !QUANTIFIERS.has(t.norm) && !PERSONAL.has(t.norm) && isNounish(t));
}

/** "publish the templates in AsciiDoc alongside Markdown": Markdown is what exists today. */
export function alongsideIncumbent(toks: Tok[], s: Span): Alternative | undefined {
  for (let i = s.start; i < s.end - 1; i++) {
    const rel = ["alongside", "besides"].includes(toks[i].norm) || (toks[i].norm === "next" && toks[i + 1].norm === "to") || (toks[i].norm === "addition" && toks[i + 1]?.norm === "to");
    if (!rel) continue;
    const at = toks[i + 1].norm === "to" ? i + 2 : i + 1;
    const np = trimNoun(toks, at, s.end);
    if (np.end <= np.start || !isNamePhrase(toks, np)) continue;
    return alt(`Keep ${spanText(toks, np, { dropDeterminer: true })} only`, spanText(toks, np, { dropDeterminer: true }), termsForPhrase(toks, np), "incumbent");
  }
  return undefined;
}
