// Clauses: splitting a sentence at semicolons and colons, whether a clause asks or proposes, and reading its main
// verb, subject, voice (passive, linking) and placeholder subjects ("is it time to X").

import { DECISION_VERBS, DETERMINERS, LIGHT_VERBS, LINKING_VERBS, PERSONAL, PRONOUNS, SUBORDINATORS, WH } from "./vocabulary";
import { asNoun, asVerb, endsClause, isAdverb, isConj, isCopula, isModal, isNameLike, isNounish, isPrep, isVerb, type Tok, verbCapable } from "./tokens";
import type { Span } from "./phrases";
import { baseOfIng } from "./verbForms";

export interface Clause {
  /** Index of the first token of the main verb phrase (after modal, subject, "to"), or -1. */
  verb: number;
  /** The subject span, when there is one before the verb. */
  subject?: Span;
  /** "should retries be configured": the subject is the verb's object; `verb` is the participle. */
  passive: boolean;
  /** "should the patch number stay optional", "be a service": a linking verb with a complement. */
  linking: boolean;
  /** Index of the copula of a passive or linking clause ("be" in "be appended"), else -1. */
  copula: number;
  /** "is it time to X", "would it be better to X": the subject is a placeholder, not the actor. */
  expletive?: boolean;
}

export const NO_CLAUSE: Clause = { verb: -1, passive: false, linking: false, copula: -1 };

/**
 * The main verb of the clause tokens [from, to): after a fronted phrase ("For release notes, should …"), the
 * modal and the subject; "is it time to X", "do we need to X" read X.
 */
export function mainVerb(toks: Tok[], from: number, to: number): Clause {
  // A fronted adverbial ending in a comma before the modal: "For wiring services into views, should we …".
  // A clause that already opens with its modal has no fronted part ("Should we keep X, configured the way we do now?").
  let lead = from;
  while (lead < to && (WH.has(toks[lead].norm) || isAdverb(toks[lead]) || isConj(toks[lead]))) lead++;
  const firstModal = lead < to && isModal(toks[lead]) ? -1 : toks.findIndex((t, k) => k >= from && k < to && isModal(t) && k > from);
  if (firstModal > from) for (let k = firstModal - 1; k >= from; k--) if (/,/.test(toks[k].post)) {
    from = k + 1;
    break;
  }
  let i = from;
  while (i < to && (WH.has(toks[i].norm) || isAdverb(toks[i]) || isConj(toks[i]))) i++;
  let sawAux = false;
  let copulaLed = false;
  while (i < to && (isModal(toks[i]) || (isCopula(toks[i]) && !sawAux))) {
    if (isCopula(toks[i])) copulaLed = true;
    sawAux = true;
    i++;
  }
  const subjStart = i;
  const resolved = sawAux && !copulaLed ? verbAfterSubject(toks, subjStart, to) : -1;
  if (resolved >= 0) {
    for (let k = subjStart; k < resolved; k++) if (isVerb(toks[k]) && !toks[k].tags.has("Gerund") && !PRONOUNS.has(toks[k].norm)) asNoun(toks[k]);
    if (!isVerb(toks[resolved]) && !isCopula(toks[resolved])) asVerb(toks[resolved]);
    // After a modal and its subject comes the base form: "should we embed X" ("embed", not a past "emb-ed").
    const v = toks[resolved];
    if (v.tags.has("PastTense") && !v.tags.has("Participle") && v.root !== v.norm && v.norm.startsWith(v.root) && /^e?d$/.test(v.norm.slice(v.root.length))) {
      v.root = v.norm;
      v.tags.delete("PastTense");
      v.tags.add("Infinitive");
    }
    i = resolved;
  } else {
    while (i < to && !isVerb(toks[i]) && !isCopula(toks[i])) {
      if ((isPrep(toks[i]) && toks[i].norm === "to") || (toks[i].norm === "that" && i > subjStart)) break;
      i++;
    }
  }
  const subject = i > subjStart ? { start: subjStart, end: i } : undefined;
  // "is it worth splitting X to stop Y": the gerund after "worth" is the proposal, and "to stop Y" its purpose.
  if (copulaLed) {
    const worth = toks.findIndex((t, k) => k >= subjStart && k < to - 1 && t.norm === "worth" && (toks[k + 1].tags.has("Gerund") || /^[a-z]{2,}ing$/.test(toks[k + 1].norm)));
    if (worth >= 0 && !toks.slice(subjStart, worth).some((t) => t.norm === "to")) {
      if (!isVerb(toks[worth + 1])) asVerb(toks[worth + 1]);
      // "worth moving our jobs": the verb's base form, not the tagger's adjective "moving".
      if (toks[worth + 1].root === toks[worth + 1].norm) toks[worth + 1].root = baseOfIng(toks[worth + 1].norm);
      toks[worth + 1].tags.add("Gerund");
      return { ...NO_CLAUSE, verb: worth + 1, subject: { start: subjStart, end: worth }, expletive: true };
    }
  }
  if (i >= to) return { ...NO_CLAUSE, subject };
  // "is it time to X", "would it be better to X", "do we need to X": the infinitive carries the proposal.
  if (copulaLed || (isVerb(toks[i]) && LIGHT_VERBS.has(toks[i].root))) {
    // After a light verb the infinitive follows it ("need to move"); "need a service mesh to get mTLS" needs the mesh.
    const reach = copulaLed ? to - 1 : Math.min(to - 1, i + 2);
    for (let k = i; k < reach; k++) {
      if (toks[k].norm === "to" && (isVerb(toks[k + 1]) || DECISION_VERBS.has(toks[k + 1].norm))) {
        return { ...NO_CLAUSE, verb: k + 1, subject, ...(copulaLed ? { expletive: true } : {}) };
      }
    }
  }
  const withCopula = copulaClause(toks, i, to);
  if (withCopula) return { ...withCopula, subject };
  if (!isVerb(toks[i])) return { ...NO_CLAUSE, subject };
  const c = { ...NO_CLAUSE, verb: i, subject };
  if (LINKING_VERBS.has(toks[c.verb].root) && c.verb + 1 < to && !isVerb(toks[c.verb + 1]) && !isPrep(toks[c.verb + 1]) && !(toks[c.verb].root === "get" && c.verb + 1 < to && isNounish(toks[c.verb + 1]))) {
    return { ...c, linking: true };
  }
  return c;
}

/**
 * After a modal, the subject comes first and then the verb; the tagger often gets noun-verb pairs wrong in
 * technical text ("should mail search stay on …", "should the static asset build use webpack", "should Glue jobs
 * connect …"). The verb is the word that can be one, follows at least one subject word, and is followed by what a
 * verb takes (a determiner, preposition, adverb, adjective, pronoun, a name for a decision verb, or the end),
 * with no later verb candidate before the phrase boundary.
 */
function verbAfterSubject(toks: Tok[], from: number, to: number): number {
  if (from >= to) return -1;
  if (PRONOUNS.has(toks[from].norm) || PERSONAL.has(toks[from].norm)) {
    // "should we squash-merge pull requests": right after the subject, a hyphenated word ending in a verb is one.
    const next = toks[from + 1];
    if (next && /^[a-z]+-[a-z]+$/.test(next.norm) && verbCapable({ ...next, norm: next.norm.split("-")[1], tags: new Set() })) return from + 1;
    for (let p = from + 1; p < to; p++) if (verbCapable(toks[p]) || isCopula(toks[p])) return p;
    return -1;
  }
  for (let p = from + 1; p < to; p++) {
    const t = toks[p];
    const prev = toks[p - 1];
    if (isCopula(t)) return p;
    // After a modal comes an infinitive: "sourcing" in "the event sourcing modules" is a modifier.
    if (!verbCapable(t) || t.tags.has("Gerund") || (t.tags.has("PresentTense") && !t.tags.has("Infinitive") && /s$/.test(t.norm) && !DECISION_VERBS.has(t.norm))) continue;
    if (DETERMINERS.has(prev.norm) || (isPrep(prev) && prev.norm !== "to") || (prev.tags.has("Adjective") && !prev.tags.has("Noun") && !isVerb(prev))) continue;
    const next = toks[p + 1];
    const objectLike =
      !next || endsClause(t) || isConj(next) || DETERMINERS.has(next.norm) || (isPrep(next) && next.norm !== "of") || isAdverb(next) || (next.tags.has("Adjective") && !next.tags.has("Noun")) || PRONOUNS.has(next.norm) || next.tags.has("Possessive") || next.tags.has("Gerund") || next.norm === "to";
    if (objectLike) return p;
    // A noun follows: the verb's object ("carry numbers", "use webpack"), unless the next word is the verb ("mail search stay").
    if (!verbCapable(next) || isNameLike(next) || (next.tags.has("Plural") && !verbCapable(toks[p + 2]))) return p;
  }
  return -1;
}

/**
 * A clause whose verb phrase at `from` (after adverbs) opens with a copula: passive with a participle after it ("retries
 * be configured", "always be appended"), else linking ("be a separate service"); undefined without a copula.
 */
function copulaClause(toks: Tok[], from: number, to: number): Clause | undefined {
  let j = from;
  while (j < to && isAdverb(toks[j])) j++;
  if (j >= to || !isCopula(toks[j])) return undefined;
  let k = j + 1;
  while (k < to && isAdverb(toks[k])) k++;
  if (k < to && isVerb(toks[k]) && (toks[k].tags.has("PastTense") || toks[k].tags.has("Participle"))) return { verb: k, passive: true, linking: false, copula: j };
  return { verb: j, passive: false, linking: true, copula: j };
}

/** The clause shape of an elliptical verb phrase: "be folded into the control plane" is passive. */
export function mainVerbOf(toks: Tok[], s: Span): Clause {
  let j = s.start;
  while (j < s.end && isAdverb(toks[j])) j++;
  return copulaClause(toks, j, s.end) ?? { ...NO_CLAUSE, verb: j, linking: j < s.end && LINKING_VERBS.has(toks[j].root) };
}

/** Splits a sentence into clauses at semicolons and colons. */
export function clausesOf(toks: Tok[]): Tok[][] {
  const out: Tok[][] = [[]];
  toks.forEach((t, k) => {
    out[out.length - 1].push(t);
    if ((/[;:]/.test(t.post) && !/^\d/.test(t.post) && !inlineSetting(toks, k)) || asksAnewAfter(toks, k)) out.push([]);
  });
  return out.filter((c) => c.length);
}

/** "with restartPolicy: Always, so …": a colon after a code-shaped key with a one- or two-word value sets a field. */
function inlineSetting(toks: Tok[], k: number): boolean {
  if (!/^:\s*$/.test(toks[k].post) || !/[a-z][A-Z_.]|^[a-z]+_[a-z]/.test(toks[k].text)) return false;
  const valueEnd = [k + 1, k + 2].find((j) => !!toks[j] && endsClause(toks[j]));
  return valueEnd !== undefined && !/[:;]/.test(toks[valueEnd].post);
}

/**
 * "Is Tekton going to run it in one pod, or how should we …?", "will they treat it as a bug, and if not, what are we
 * expected to do?": after a comma, a coordinator and a wh-word with its verb open a second question, not an
 * alternative of the first; the asking clause is that second one.
 */
function asksAnewAfter(toks: Tok[], k: number): boolean {
  if (!/,/.test(toks[k].post) || !["or", "and"].includes(toks[k + 1]?.norm ?? "")) return false;
  let j = k + 2;
  if (toks[j]?.norm === "if" && toks[j + 1]?.norm === "not" && /,/.test(toks[j + 1].post)) j += 2;
  const [wh, verb] = [toks[j], toks[j + 1]];
  return !!wh && !!verb && WH.has(wh.norm) && (isModal(verb) || isCopula(verb) || ["do", "does", "did"].includes(verb.norm));
}

/**
 * Where the asking starts after a fronted phrase that opens at `start` with a preposition or a subordinator ("Before
 * the next release, should we …"): the modal or copula right after its comma, before `limit`; -1 when there is none.
 */
export function frontedPhraseEnd(toks: Tok[], start = 0, limit = toks.length): number {
  if (!toks[start] || !(isPrep(toks[start]) || SUBORDINATORS.has(toks[start].norm))) return -1;
  return toks.findIndex((t, k) => k > start && k < limit && (isModal(t) || isCopula(t)) && /,/.test(toks[k - 1].post));
}

export function asksSomething(toks: Tok[]): boolean {
  const first = toks.slice(Math.max(0, frontedPhraseEnd(toks))).find((t) => !isConj(t) && !isAdverb(t));
  return !!first && (isModal(first) || isCopula(first) || WH.has(first.norm));
}

/**
 * A clause that can carry a proposal: it asks ("should we …", "is it …") or opens with a verb ("split the monolith
 * into services"). A statement ("retention rules differ from one product to another") proposes nothing: it is open.
 */
export function proposes(toks: Tok[]): boolean {
  if (asksSomething(toks)) return true;
  const first = toks.find((t) => !isConj(t) && !isAdverb(t));
  return !!first && (first.tags.has("Imperative") || first.tags.has("Infinitive"));
}
