// The spans an "A or B" question splits into, before they are worded: verb phrases left of the connector, noun and
// prepositional lists ("A, B or C", "between A and B"), and the frame every noun alternative shares.

import { CHOICE_VERBS, DECISION_VERBS, DETERMINERS, JUDGEMENTS, PRONOUNS, PURPOSE, RELATIONAL, SUBORDINATORS, WH } from "./vocabulary";
import { endsClause, isAdverb, isCopula, isModal, isNounish, isPrep, isTrueModal, isVerb, lexicon, type Tok } from "./tokens";
import { clauseEnd, isNamePhrase, nounPhraseEnd, nounPhraseStart, phraseEnd, type Span, spanText, trimNoun } from "./phrases";
import { type Clause, frontedPhraseEnd, mainVerb, NO_CLAUSE } from "./clause";
import { capitalise, frameTitle } from "./titles";
import { baseOfIng } from "./verbForms";
import type { Connector, Mode, RightSide } from "./connectors";

/**
 * "Jest or Vitest in our frontend packages": a prepositional phrase on the asker's own things, after the last
 * alternative, scopes every alternative and belongs to none.
 */
function askersScopeAt(toks: Tok[], j: number): boolean {
  // A span may end past the last token ("1. or still"): there is no scope beyond the text.
  if (!toks[j]) return false;
  return isPrep(toks[j]) && !PURPOSE.has(toks[j].norm) && (toks[j + 1]?.norm === "our" || toks[j + 1]?.norm === "my");
}

/**
 * The right alternative without the asker's scope after it, unless a left alternative has a phrase with the same
 * preposition ("with mTLS from the mesh, or with JWTs from our IdP": each names its own source), or the scope opens
 * with the prepositional alternative's own preposition ("in a table in our own database" places the alternative).
 */
function withoutAskersScope(toks: Tok[], right: Span, lefts: Span[], rightPrep?: string): Span {
  for (let j = right.start + 1; j < right.end; j++) {
    if (!askersScopeAt(toks, j) || toks[j].norm === rightPrep) continue;
    if (lefts.some((s) => toks.slice(s.start, s.end).some((t) => t.norm === toks[j].norm))) return right;
    return { start: right.start, end: j };
  }
  return right;
}

/** End of a noun alternative on the right: the noun phrase and its prepositional phrases, short of a purpose or a verb. */
function nounWithPhrasesEnd(toks: Tok[], at: number): number {
  let end = Math.max(at + 1, nounPhraseEnd(toks, at, toks.length, { and: true }));
  while (end < toks.length - 1 && !endsClause(toks[end - 1]) && isPrep(toks[end]) && !PURPOSE.has(toks[end].norm) && toks[end].norm !== "to") {
    const np = nounPhraseEnd(toks, end + 1, toks.length, { and: true });
    if (np <= end + 1) break;
    end = np;
  }
  // "or a queue that we run ourselves": a relative clause with a subject of its own says which one.
  if (toks[end]?.norm === "that" && !endsClause(toks[end - 1]) && PRONOUNS.has(toks[end + 1]?.norm ?? "") && isVerb(toks[end + 2] ?? toks[end])) end = phraseEnd(toks, end, clauseEnd(toks, end));
  return end;
}

/** Start of the prepositional phrase that ends at `end`: back to its preposition ("next to it", "per call"). */
function prepPhraseStart(toks: Tok[], end: number, floor: number): number {
  let p = end - 1;
  while (p > floor && !((isPrep(toks[p]) || SUBORDINATORS.has(toks[p].norm)) && toks[p].norm !== "of" && toks[p].norm !== "like")) p--;
  if (!(isPrep(toks[p]) || SUBORDINATORS.has(toks[p].norm))) return -1;
  while (p - 1 > floor && (RELATIONAL.has(toks[p - 1].norm) || isAdverb(toks[p - 1]))) p--;
  return p;
}

export interface Item {
  span: Span;
  mode: Mode | "keep";
  clause?: Clause;
}

/** "…, adopt an open-source tool": a word that can be a verb, followed by its object. */
function canStartVerbPhrase(toks: Tok[], j: number): boolean {
  const t = toks[j];
  const next = toks[j + 1];
  if (isVerb(t)) return !t.tags.has("Gerund");
  const verbLike = DECISION_VERBS.has(t.norm) || /Verb/.test(t.amb ?? "") || lexicon()[t.norm] === "Infinitive";
  return verbLike && !!next && (DETERMINERS.has(next.norm) || isNounish(next) || isPrep(next) || next.tags.has("Possessive"));
}

/** Where the clause that ends at `limit` starts: just after the last ";" or ":" before it, else at 0. */
function clauseStartBefore(toks: Tok[], limit: number): number {
  for (let k = limit - 1; k >= 0; k--) if (/[;:]/.test(toks[k].post)) return k + 1;
  return 0;
}

/** Where the asking starts after a fronted phrase ("To list the servers an app may use, should we …"): its verbs are no alternative. */
function afterFrontedPhrase(toks: Tok[], start: number, limit: number): number {
  const at = frontedPhraseEnd(toks, start, limit);
  // Only a phrase with a modal of its own ("may use") misleads the reading of the verbs after it.
  const ownModal = at > 0 && toks.slice(start, at).some(isTrueModal);
  return ownModal ? at : start;
}

/** The pieces a question's connectors split it into, before they are worded as alternatives. */
export interface Reading {
  items: Item[];
  /** Words before noun or prepositional alternatives that every one of them shares ("Store sessions"). */
  frame?: string;
  /** The clause left of verb alternatives, whose subject an elliptical right side shares. */
  leftClause?: Clause;
}

/**
 * "Would a message queue like RabbitMQ be more appropriate than …", "Is SQLite via Room a better choice than …": what
 * stands between the leading "is" / "would" and the comparison, whole; undefined when the clause is not so built.
 */
function comparedSubject(toks: Tok[], from: number, limit: number): Span | undefined {
  let k = from;
  while (k < limit && isAdverb(toks[k])) k++;
  // "Would S be …" ends its subject at the copula; "Is S better …" at the comparison. "Does S scale better …" is
  // no such clause: its subject ends at a verb this cannot tell from a noun.
  const modalLed = isTrueModal(toks[k]);
  if (k >= limit || !(modalLed || isCopula(toks[k]))) return undefined;
  const start = k + 1;
  const comparing = (t: Tok | undefined) => !!t && (t.tags.has("Comparative") || t.norm === "more" || t.norm === "less");
  for (let j = start; j < limit; j++) {
    const t = toks[j];
    const ends = modalLed ? isCopula(t) : comparing(t) || (DETERMINERS.has(t.norm) && j > start && comparing(toks[j + 1]));
    if (!ends) {
      if (isModal(t) || isCopula(t) || WH.has(t.norm) || endsClause(t)) return undefined;
      continue;
    }
    return j === start || PRONOUNS.has(toks[start].norm) ? undefined : { start, end: j };
  }
  return undefined;
}

/** Words that point at the setting ("here", "today"), whatever the tagger made of them. */
const DEICTIC = new Set(["here", "there", "today", "now", "nowadays", "anymore", "instead"]);

/** "Is Picocli a better fit than Apache Commons CLI for …": the copula's subject against the object of "than". */
export function readThan(toks: Tok[], last: Connector): Reading | undefined {
  // "For the offline cache, is SQLite a better choice than …": a fronted phrase is where, not what.
  const fronted = isPrep(toks[0]) || SUBORDINATORS.has(toks[0]?.norm ?? "") ? toks.findIndex((t, k) => k < last.at && /,/.test(t.post)) : -1;
  // Read before mainVerb, which retags the words it takes for the verb ("queue" in "a message queue like X be …").
  const compared = comparedSubject(toks, fronted + 1, last.at);
  const clause = compared ? NO_CLAUSE : mainVerb(toks, fronted + 1, last.at);
  let subj = compared ?? (clause.subject ? trimNoun(toks, clause.subject.start, clause.subject.end) : undefined);
  // "is structlog (much) better than …": the comparison is no part of the subject's name.
  while (subj && subj.end - 1 > subj.start && (toks[subj.end - 1].tags.has("Comparative") || ["more", "much", "far", "less"].includes(toks[subj.end - 1].norm))) subj = { ...subj, end: subj.end - 1 };
  // "… than storing JSON blobs in DataStore": the right side keeps its own phrases, short of a purpose.
  const r = { start: last.at + 1, end: Math.min(toks.length, nounWithPhrasesEnd(toks, last.at + 1)) };
  // "… than MongoDB here?": a trailing adverb says where or when, not what.
  while (r.end - 1 > r.start && (isAdverb(toks[r.end - 1]) || DEICTIC.has(toks[r.end - 1].norm))) r.end--;
  if (!subj || r.end <= r.start) return undefined;
  return {
    items: [
      { span: subj, mode: "noun" },
      { span: r, mode: "noun" },
    ],
  };
}

/** Verb alternatives: the right side is a verb phrase; the left side is the main clause's (or a judged subject). */
export function readVerbAlternatives(toks: Tok[], right: RightSide, leftLimit: number): Reading {
  const items: Item[] = [];
  // A trailing purpose ("… for date handling?") belongs to every alternative, not to the last one.
  const rEnd = phraseEnd(toks, right.at, clauseEnd(toks, right.at));
  const judged = judgedRightSubject(toks, Math.min(right.lead, leftLimit + 1), rEnd);
  items.push(judged ? { span: judged, mode: "noun" } : { span: { start: right.lead <= right.at ? right.lead : right.at, end: rEnd }, mode: "verb", clause: right.clause });
  const asked = askedAgain(toks, afterFrontedPhrase(toks, clauseStartBefore(toks, leftLimit), leftLimit), leftLimit);
  const start = asked[0].start;
  if (asked.length > 1) {
    // "Should every database get its own instance, should we manage them with Terraform, or should …?": each question
    // after a comma is an alternative with its own subject.
    const clauses = asked.map((s) => ({ s, clause: mainVerb(toks, s.start, s.end) })).filter(({ clause }) => clause.verb >= 0);
    items.unshift(...clauses.map(({ s, clause }) => ({ span: { start: clause.copula >= 0 && !clause.linking ? clause.copula : clause.verb, end: s.end }, mode: "verb" as Mode, clause })));
    return { items, leftClause: clauses[0]?.clause ?? NO_CLAUSE };
  }
  const clause = mainVerb(toks, start, leftLimit);
  // "Is Java 8 still good enough, or should we migrate to Java 11?": the judged subject is kept on the left.
  let judgedSubject = isCopula(toks[start]) && toks.slice(start, leftLimit).some((t) => t.norm === "still" || JUDGEMENTS.has(t.norm)) ? trimNoun(toks, start + 1, leftLimit) : undefined;
  // "Is SQS enough …": the judgement is no part of what is kept.
  while (judgedSubject && judgedSubject.end - 1 > judgedSubject.start && (JUDGEMENTS.has(toks[judgedSubject.end - 1].norm) || toks[judgedSubject.end - 1].norm === "still")) judgedSubject = { ...judgedSubject, end: judgedSubject.end - 1 };
  const expletive = !!judgedSubject && (PRONOUNS.has(toks[judgedSubject.start].norm) || toks.slice(start, leftLimit).some((t, k, all) => t.norm === "to" && !!all[k + 1] && isVerb(all[k + 1])));
  if (judgedSubject && judgedSubject.end > judgedSubject.start && !expletive) {
    items.unshift({ span: judgedSubject, mode: "keep" });
  } else if (clause.verb >= 0) {
    items.unshift(...leftVerbPhrases(toks, clause, start, leftLimit).map((l) => ({ span: l, mode: "verb" as Mode, clause })));
  } else {
    const ns = nounPhraseStart(toks, leftLimit, start);
    if (ns < leftLimit) items.unshift({ span: { start: ns, end: leftLimit }, mode: "noun" });
  }
  return { items, leftClause: clause };
}

/**
 * The questions of a left side, one span each: "should A, should we B" asks twice. A fronted phrase before the first
 * ("When a client blocks the UI thread, should …") asks nothing and is left out; a left side that asks once is one span.
 */
function askedAgain(toks: Tok[], start: number, limit: number): Span[] {
  const starts = [start];
  for (let k = start + 1; k < limit; k++) if (/,/.test(toks[k - 1].post) && isTrueModal(toks[k])) starts.push(k);
  if (starts.length > 1 && !isModal(toks[start])) starts.shift();
  return starts.map((s, i) => ({ start: s, end: i + 1 < starts.length ? starts[i + 1] : limit }));
}

/**
 * "…, or is Luxon the better fit?", "…, or would Loki be more appropriate?": a right side that judges its subject
 * proposes that subject; the judgement is no part of the alternative's name.
 */
function judgedRightSubject(toks: Tok[], lead: number, end: number): Span | undefined {
  let k = lead;
  const copulaLed = isCopula(toks[k]);
  if (!copulaLed && !isModal(toks[k])) return undefined;
  k++;
  const np = trimNoun(toks, k, end);
  if (np.end <= np.start || np.end >= end || PRONOUNS.has(toks[np.start].norm)) return undefined;
  let j = np.end;
  // "would Loki be …": the copula after the subject.
  if (!copulaLed) {
    if (!isCopula(toks[j])) return undefined;
    j++;
  }
  const rest = toks.slice(j, end);
  const judgement = rest.findIndex((t) => JUDGEMENTS.has(t.norm));
  if (judgement < 0 || rest.slice(0, judgement).some((t) => isVerb(t) || isPrep(t))) return undefined;
  return np;
}

/** The verb phrases left of the connector; "A, B, or C" with verbs splits at commas that start a new verb phrase. */
function leftVerbPhrases(toks: Tok[], clause: Clause, start: number, leftLimit: number): Span[] {
  const vstart = clause.copula >= 0 && !clause.linking ? clause.copula : clause.verb;
  let vs = vstart;
  while (vs - 1 >= start && isAdverb(toks[vs - 1]) && toks[vs - 1].norm !== "still") vs--;
  const lefts: Span[] = [];
  let s = vs;
  for (let j = vs + 1; j < leftLimit; j++) {
    if (/,/.test(toks[j - 1].post) && canStartVerbPhrase(toks, j)) {
      lefts.push({ start: s, end: j });
      s = j;
    }
  }
  lefts.push({ start: s, end: leftLimit });
  return lefts;
}

/** Noun or prepositional alternatives. The right one runs to the clause end, short of a purpose. */
export function readNounAlternatives(toks: Tok[], connectors: Connector[], last: Connector, right: RightSide): Reading | undefined {
  const rStart = right.lead;
  let rSpan: Span =
    right.mode === "prep"
      ? { start: rStart, end: phraseEnd(toks, right.at, toks.length) }
      : { start: rStart, end: nounWithPhrasesEnd(toks, right.at) };
  if (rSpan.end <= rSpan.start) return undefined;
  const leftItems = leftNounItems(toks, connectors, last, right.mode, toks[right.at]?.norm);
  if (!leftItems?.length) return undefined;
  rSpan = withoutAskersScope(toks, rSpan, leftItems, right.mode === "prep" ? toks[right.at]?.norm : undefined);
  const frame = frameBefore(toks, last, right.mode, leftItems[0].start, [...leftItems, rSpan]);
  const items: Item[] = leftItems.map((s) => ({ span: s, mode: right.mode }));
  items.push({ span: rSpan, mode: right.mode });
  return { items, frame };
}

/** The noun or prepositional alternatives left of the last connector; undefined or empty when there are none. */
function leftNounItems(toks: Tok[], connectors: Connector[], last: Connector, rightMode: Mode, rightPrep?: string): Span[] | undefined {
  const leftLimit = last.at;
  // Alternatives without a verb before them ("…: a one-click download button in the UI, or documented steps in the
  // console?", "Kafka, RabbitMQ or SQS for …"): each comma-separated piece is one alternative, whole.
  const segStart = clauseStartBefore(toks, leftLimit);
  const segment = toks.slice(segStart, leftLimit);
  const verbless = last.kind !== "and" && !segment.some((t) => (isVerb(t) && !t.tags.has("Gerund") && !t.tags.has("Participle") && !(t.tags.has("PastTense") && !t.tags.has("Infinitive"))) || isModal(t) || isCopula(t) || WH.has(t.norm));
  if (verbless && segment.length) return verblessPieces(toks, connectors, last, segStart, rightMode);
  if (rightMode === "prep") return prepList(toks, connectors, last, rightPrep);
  return nounList(toks, connectors, last);
}

/** A verbless list split at its commas and earlier connectors, without a fronted purpose. */
function verblessPieces(toks: Tok[], connectors: Connector[], last: Connector, segStart: number, rightMode: Mode): Span[] {
  const leftLimit = last.at;
  let s0 = segStart;
  const pieces: Span[] = [];
  for (let j = segStart; j < leftLimit; j++) {
    const earlier = connectors.find((c) => c !== last && c.at === j);
    if (earlier) {
      pieces.push({ start: s0, end: j });
      s0 = j + earlier.width;
      j += earlier.width - 1;
    } else if (/,/.test(toks[j].post) && j + 1 < leftLimit) {
      pieces.push({ start: s0, end: j + 1 });
      s0 = j + 1;
    }
  }
  pieces.push({ start: s0, end: leftLimit });
  // A fronted purpose ("For collecting JVM metrics, Micrometer or …") is not an alternative.
  while (pieces.length > 1 && (isPrep(toks[pieces[0].start]) || SUBORDINATORS.has(toks[pieces[0].start].norm) || WH.has(toks[pieces[0].start].norm) || toks[pieces[0].start].tags.has("QuestionWord")) && rightMode !== "prep") pieces.shift();
  return pieces.filter((p) => p.end > p.start && toks.slice(p.start, p.end).some((t) => isNounish(t) || isPrep(t)));
}

/** Prepositional alternatives, back over a list: "inside the .bib file, next to it, or in the app-data directory". */
function prepList(toks: Tok[], connectors: Connector[], last: Connector, rightPrep?: string): Span[] {
  const items: Span[] = [];
  let end = last.at;
  for (;;) {
    let p = prepPhraseStart(toks, end, 0);
    if (p < 0) break;
    // "in S3 behind CloudFront, or in the database": the alternative the right side stands against opens with the
    // same preposition; the phrases after it qualify that alternative, not the frame they all share.
    if (items.length === 0 && rightPrep) p = samePrepBefore(toks, p, rightPrep) ?? p;
    items.unshift({ start: p, end });
    const earlier = connectors.find((c) => c !== last && c.at + c.width === p);
    if (earlier) end = earlier.at;
    else if (p > 0 && /,/.test(toks[p - 1].post) && (isNounish(toks[p - 1]) || PRONOUNS.has(toks[p - 1].norm))) {
      // Only another prepositional phrase continues the list.
      const q = prepPhraseStart(toks, p, 0);
      if (q < 0 || toks.slice(q, p).some((t) => isVerb(t) && !t.tags.has("Gerund"))) break;
      end = p;
    } else break;
  }
  return items;
}

/**
 * The start of an earlier phrase with the preposition `prep` that runs on, through nouns and further prepositional
 * phrases only, up to the phrase at `p`; undefined when the clause has none.
 */
function samePrepBefore(toks: Tok[], p: number, prep: string): number | undefined {
  for (let q = p - 1; q >= 0; q--) {
    const t = toks[q];
    if (endsClause(t) || /[,;:]/.test(t.post) || isModal(t) || isCopula(t) || (isVerb(t) && !t.tags.has("Gerund") && !t.tags.has("Participle"))) return undefined;
    if (t.norm === prep && isPrep(t)) return q;
  }
  return undefined;
}

/** Noun alternatives, back from the last connector over "A or B or C" and "A, B": undefined when there is none. */
function nounList(toks: Tok[], connectors: Connector[], last: Connector): Span[] | undefined {
  const leftLimit = last.at;
  let end = leftLimit;
  // "JWT bearer header only, or …": a trailing adverb belongs to the alternative.
  while (end - 1 > 0 && isAdverb(toks[end - 1])) end--;
  let ns = nounPhraseStart(toks, end, 0);
  if (ns >= end) return undefined;
  // "adopt Java virtual threads for the workers instead of fixed thread pools": the object, not the purpose.
  if ((last.kind === "instead" || last.kind === "over") && ns > 1 && PURPOSE.has(toks[ns - 1].norm)) {
    const ps = nounPhraseStart(toks, ns - 1, 0);
    if (ps < ns - 1) {
      end = ns - 1;
      ns = ps;
    }
  }
  // "a real Postgres in Docker rather than an in-memory H2 database": against a right side that opens with a
  // determiner, a left noun inside a prepositional phrase is part of the noun phrase before it.
  // "one package, separate packages in separate repositories, or several packages in one monorepo": a quantity opens
  // a whole phrase as an article does, and a list comma before the outer phrase opens it too.
  const right = toks[leftLimit + (last.kind === "instead" ? 2 : 1)];
  const opensPhrase = (t: Tok | undefined) => !!t && (DETERMINERS.has(t.norm) || t.tags.has("Determiner") || t.tags.has("Value"));
  if (opensPhrase(right) && last.kind !== "and" && ns > 1 && isPrep(toks[ns - 1]) && !PURPOSE.has(toks[ns - 1].norm) && !["of", "to", "than"].includes(toks[ns - 1].norm)) {
    const outer = nounPhraseStart(toks, ns - 1, 0);
    if (outer < ns - 1 && (opensPhrase(toks[outer]) || (outer > 0 && /,/.test(toks[outer - 1].post)))) ns = outer;
  }
  const items: Span[] = [{ start: ns, end: end === leftLimit || isAdverb(toks[end]) ? leftLimit : end }];
  end = ns;
  // "A or B or C".
  for (;;) {
    const earlier = connectors.find((c) => c !== last && c.at + c.width === ns);
    if (earlier) end = earlier.at;
    else if (ns > 0 && /,/.test(toks[ns - 1].post) && isNounish(toks[ns - 1])) end = ns;
    else break;
    ns = nounPhraseStart(toks, end, 0);
    // "…better for our mobile app, React Native or Flutter": the object of a preposition is no list item.
    if (ns >= end || (ns > 0 && PURPOSE.has(toks[ns - 1].norm))) break;
    items.unshift({ start: ns, end });
  }
  return items;
}

/** A frame before the alternatives: "should receipts live …", "should we store sessions …", "Configure retries …". */
function frameBefore(toks: Tok[], last: Connector, rightMode: Mode, first: number, spans: Span[]): string | undefined {
  const cstart = clauseStartBefore(toks, first);
  const clause = last.kind === "and" ? NO_CLAUSE : mainVerb(toks, cstart, first);
  const names = spans.every((s) => isNamePhrase(toks, s));
  const verbRoot = clause.verb >= 0 ? toks[clause.verb].root : "";
  // "standardise on coercing the left side with A or B": the act chosen is what every alternative shares.
  const act = clause.verb + (isPrep(toks[clause.verb + 1] ?? toks[0]) ? 2 : 1);
  const base = act < first - 1 ? baseOfIng(toks[act].norm) : "";
  if (clause.verb >= 0 && CHOICE_VERBS.has(verbRoot) && base && (toks[act].tags.has("Gerund") || base !== toks[act].norm)) return capitalise(`${base} ${spanText(toks, { start: act + 1, end: first })}`);
  if (clause.verb >= 0 && clause.verb < first && (rightMode === "prep" || (!names && !CHOICE_VERBS.has(verbRoot)))) return frameTitle(toks, clause, first);
  return undefined;
}
