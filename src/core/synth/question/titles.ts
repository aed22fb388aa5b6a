// Titles of alternatives, whole readable phrases: imperatives ("Move X onto B"), statements ("The CLI talks to …"),
// "Keep X", bare names and shared frames; and the Alternative record made from a title, subject and terms.

import type { Alternative } from "./types";
import { DETERMINERS, PERSONAL, PRONOUNS } from "./vocabulary";
import { isAdverb, isCopula, isNameLike, isNounish, isPrep, isVerb, type Tok } from "./tokens";
import { type Span, spanText } from "./phrases";
import { infinitive, thirdPerson } from "./verbForms";
import { termsForPhrase } from "./terms";
import type { Clause } from "./clause";

import { capitalise } from "../../text";

export { capitalise };

function isPlural(toks: Tok[], s: Span): boolean {
  const words = toks.slice(s.start, s.end);
  // The head is the last noun before any preposition or example: "headings in the template" is plural, "ADR
  // metadata such as status and date" is not; "the processor and the metamodel" is.
  let head: Tok | undefined;
  for (const t of words) {
    if (isPrep(t) || t.norm === "such" || t.norm === "like") break;
    if (t.norm === "and") return true;
    if (isNounish(t)) head = t;
  }
  return !!head && (head.tags.has("Plural") || ["we", "they", "those", "these"].includes(head.norm));
}

export function isPersonal(toks: Tok[], s?: Span): boolean {
  return !s || toks.slice(s.start, s.end).every((t) => PERSONAL.has(t.norm) || DETERMINERS.has(t.norm) || isAdverb(t));
}
export function isPronounSubject(toks: Tok[], s?: Span): boolean {
  return !!s && toks.slice(s.start, s.end).every((t) => PRONOUNS.has(t.norm) || (DETERMINERS.has(t.norm) && s.end - s.start > 1 && ["those", "these", "this", "that"].includes(toks[s.start].norm)));
}

/** Imperative form of a verb phrase: "moving our ETL scripts onto Airflow" → "Move our ETL scripts onto Airflow". */
export function imperative(toks: Tok[], s: Span): string {
  let i = s.start;
  const lead: string[] = [];
  while (i < s.end - 1 && isAdverb(toks[i])) lead.push(toks[i++].text.toLowerCase());
  const first = toks[i];
  const rest = spanText(toks, { start: i + 1, end: s.end });
  const verb = isVerb(first) || isCopula(first) ? infinitive(first) : first.text;
  return capitalise([...lead, verb, rest].filter(Boolean).join(" "));
}

/**
 * Title of a verb-phrase alternative starting at s.start. Personal subjects ("should we …") give an imperative;
 * a passive gives an imperative on its subject ("Write rules in a declarative language"); another subject gives a
 * statement when it is the alternative's own or the verb takes no object ("The CLI talks to the webadmin REST API").
 */
export function clauseTitle(toks: Tok[], s: Span, clause: Clause | undefined, sharedSubject: boolean): string {
  const subj = clause?.subject;
  const v = toks[s.start];
  // "should those suites target a real Postgres": a subject that points back at the context names nothing of its
  // own, and "Those suites target …" would read as a piece of the question.
  const pointsBack = ["those", "these", "this", "that"].includes(toks[subj?.start ?? -1]?.norm ?? "") && !!subj && subj.end - subj.start >= 2 && subj.end - subj.start <= 3 && toks.slice(subj.start + 1, subj.end).every((t) => t.tags.has("Noun") && !t.tags.has("Adjective") && !isVerb(t));
  if (!clause || !subj || clause.expletive || isPersonal(toks, subj) || isPronounSubject(toks, subj) || (pointsBack && !clause.passive && !clause.linking && isVerb(v) && !isCopula(v))) {
    return imperative(toks, s);
  }
  if (clause.passive && clause.verb >= s.start) return passiveImperative(toks, s, clause, subj);
  // "should the reference base be 10 …, or base 2?": the subject's head noun said again opens the other complement;
  // it is no verb ("The reference base is 2", not "The reference base bases 2").
  const head = toks[subj.end - 1];
  const copula = toks[subj.end];
  if (s.start > subj.end && s.end - s.start >= 2 && v.norm === head.norm && copula && isCopula(copula)) {
    return capitalise([spanText(toks, subj), thirdPerson(infinitive(copula), isPlural(toks, subj)), spanText(toks, { start: s.start + 1, end: s.end })].join(" "));
  }
  // A subject the alternatives share reads best as an instruction ("Keep sharing the production database"), except
  // with a linking verb ("The patch number stays optional"); alternatives with subjects of their own are statements
  // ("A scheduled Lambda copies it into S3").
  if (sharedSubject && !clause.linking && !isCopula(v)) return imperative(toks, s);
  return statement(toks, s, subj);
}

function passiveImperative(toks: Tok[], s: Span, clause: Clause, subj: Span): string {
  const lead = toks.slice(s.start, clause.verb).filter((t) => isAdverb(t)).map((t) => t.text.toLowerCase());
  const rest = spanText(toks, { start: clause.verb + 1, end: s.end });
  const object = isPronounSubject(toks, subj) ? "" : spanText(toks, subj);
  return capitalise([...lead, infinitive(toks[clause.verb]), object, rest].filter(Boolean).join(" "));
}

function statement(toks: Tok[], s: Span, subj: Span): string {
  let i = s.start;
  const lead: string[] = [];
  while (i < s.end - 1 && isAdverb(toks[i])) lead.push(toks[i++].text.toLowerCase());
  const v = toks[i];
  const plural = isPlural(toks, subj);
  const verb = isVerb(v) || isCopula(v) ? thirdPerson(infinitive(v), plural) : v.text;
  let rest = spanText(toks, { start: i + 1, end: s.end });
  // "flags that and reports it": a verb coordinated with the first agrees with the subject too; after another bare
  // verb ("has callers build X and pass it") it is that verb's.
  const bare = (w: Tok) => isVerb(w) && w.tags.has("Infinitive") && !w.tags.has("Gerund");
  for (let k = i + 2; k < s.end; k++) {
    const w = toks[k];
    if (toks[k - 1].norm === "and" && bare(w) && !/,/.test(toks[k - 2].post) && !toks.slice(i + 1, k - 1).some(bare)) rest = rest.replace(new RegExp(`\\band ${w.text}\\b`), `and ${thirdPerson(infinitive(w), plural)}`);
  }
  return capitalise([spanText(toks, subj), ...lead, verb, rest].filter(Boolean).join(" "));
}

/** A noun alternative on its own: "Polling", "Tabs", but "pnpm" and "gRPC" as written. */
export function bareTitle(toks: Tok[], s: Span): string {
  // "A queue that we run ourselves": a phrase with a clause of its own reads as a sentence part, article and all.
  const clause = toks.slice(s.start + 1, s.end - 1).some((t, k) => t.norm === "that" && PRONOUNS.has(toks[s.start + k + 2].norm));
  if (clause && ["a", "an"].includes(toks[s.start]?.norm ?? "")) return capitalise(spanText(toks, s));
  const text = spanText(toks, s, { dropDeterminer: true });
  let i = s.start;
  while (i < s.end - 1 && DETERMINERS.has(toks[i].norm)) i++;
  const first = toks[i];
  // "pnpm", "gRPC" and "vscode-elements" stay as written.
  return first && /^[a-z]+$/.test(first.text) && /[aeiouy]/.test(first.text) && !isNameLike(first) ? capitalise(text) : text;
}

/** A phrase referred back to inside a title: "a"/"an" reads as "the", and a determiner that opened a sentence is lower case. */
export function referredTo(toks: Tok[], s: Span): string {
  const first = toks[s.start];
  const text = ["a", "an"].includes(first?.norm ?? "") ? `the ${spanText(toks, { start: s.start + 1, end: s.end })}` : spanText(toks, s);
  return first && DETERMINERS.has(first.norm) ? text[0].toLowerCase() + text.slice(1) : text;
}

/** "Keep the embedded in-memory engine". */
export function keepTitle(toks: Tok[], s: Span, verb = "Keep"): string {
  return `${verb} ${referredTo(toks, s)}`;
}

export function alt(title: string, subject: string, terms: string[], role: Alternative["role"], inverse = false): Alternative {
  const clean = title.replace(/[\s,]+(?:instead|anymore|then|or not)$/i, "").replace(/\s+for (?:that|this|it|them)$/i, "").trim();
  return { title: clean, subject, terms, role, ...(inverse ? { inverse: true } : {}) };
}

export function nounAlternative(toks: Tok[], s: Span, role: Alternative["role"], title?: string): Alternative {
  const subject = spanText(toks, s, { dropDeterminer: true });
  return alt(title ?? subject, subject, termsForPhrase(toks, s), role);
}

/** The shared start of prepositional or noun alternatives: "Configure retries", "Store sessions", "Receipts live". */
export function frameTitle(toks: Tok[], clause: Clause, end: number): string | undefined {
  const subj = clause.subject;
  if (clause.passive && subj) return passiveImperative(toks, { start: clause.copula >= 0 ? clause.copula : clause.verb, end }, clause, subj);
  const s = { start: clause.copula >= 0 && clause.linking ? clause.copula : clause.verb, end };
  if (!subj || clause.expletive || isPersonal(toks, subj) || isPronounSubject(toks, subj)) return imperative(toks, s);
  return statement(toks, s, subj);
}
