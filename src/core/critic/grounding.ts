// Does the recommendation rest on the record that decides this question? Four checks of the Critic (issue 23) that
// compare the deciding record with the question and with the other retrieved records, never with any answer key.
// Each finding has a kind; whether it blocks, alone or paired with another check's kind, is policy.ts's call (fit on
// the eval's dev half), noted here as of now:
//   - outranked:           a record ranked above it, in force, chose another of the options and it does not
//                          supersede that record ("chose-other", a concern); more than one other record ranks above
//                          it ("trails", a concern since the plain view below tells more); or the plain view of the
//                          question, read word for word over every record, puts another record first ("plain-view"
//                          on a low-confidence answer, blocking; "plain-view-confident" on a surer one, a concern;
//                          rules.ts names it "plain-view-firm", a concern, when signals.ts finds the record firmly tied);
//   - unweighed-proposal:  the question proposes one thing and the deciding record never names it: "product" when
//                          the thing is a named product ("adopt Sentry?"), which a record that weighed it would name,
//                          "description" when it is a description ("a lookup layer"), which a record may word
//                          otherwise; or the record decided for it, yet the recommendation is something else
//                          (concerns: on the current dev answers none tells wrong from right enough); or the named
//                          product appears nowhere in what was retrieved, no record's text included, and the
//                          recommendation is something else ("unknown-product": no record here weighed it; blocking,
//                          policy.ts);
//   - off-subject:         the record's headline shares fewer than two words with what the question asks (a concern:
//                          those words are one of signals.ts's measures);
//   - decision-mismatch:   the record's own chosen option (its decision model; of a choice that moves from one
//                          thing to another, what it keeps) reads as another of the options and not as the
//                          recommended one ("reads-as": the recommendation goes against its record, which blocks,
//                          policy.ts's CONTRADICTIONS); or, on a question that does not name the recommendation, the
//                          record chose something sharing no word with it ("not-chosen") or nothing the model could
//                          read ("no-choice"); or its chosen option and its decision section share no word (the model
//                          reads two ways) (concerns: "not-chosen" and "no-choice" tell on dev, but on the held-out
//                          answers they block right ones: policy.ts).
import type { AdrMeta, DraftPicker, FusedEvidence } from "../schemas";
import { contentWords, splitAsking } from "../terms";
import { readQuestion, type Alternative } from "../synth/question";
import { mentions, recordName, recordStatus } from "../synth/stance";
import { FRAME_WORDS, stemWord } from "../synth/words";
import type { FindingKind } from "./policy";

/** What these checks read: the question, the draft, the evidence and the record the recommendation follows. */
export interface GroundingFocus {
  question: string;
  draft: DraftPicker;
  evidence: FusedEvidence[];
  rec: DraftPicker["options"][number];
  record?: { meta: AdrMeta; cite: FusedEvidence; text: string };
  /** Each option's names in text (synth/codeUsage.ts's optionTermsFor, terms of 3+ letters). */
  terms: Map<string, string[]>;
  /** The full text of a retrieved record by its path, when discovery read it (else its sections in the evidence). */
  recordText?: (path: string) => string | undefined;
}

export interface GroundingObjection {
  check: "outranked" | "unweighed-proposal" | "off-subject" | "decision-mismatch";
  /** Which finding it is: whether it blocks is policy.ts's call. */
  kind: Extract<FindingKind, `${GroundingObjection["check"]}${string}`>;
  text: string;
  citations: string[];
}

/** How many other records may rank above the deciding one before it is no longer among the best on the question. */
const MAX_RECORDS_ABOVE = 1;
/** The fewest words of what the question asks that the record's headline must share. */
const MIN_HEADLINE_HITS = 2;
const INACTIVE = new Set(["superseded", "deprecated", "rejected"]);
/** Words that say nothing about a subject, whatever the question. */
const GENERIC = new Set(
  "new way ways thing things team teams people project code work make need needs want good best right today now also going currently current approach option options decide decision decisions record records question adr adrs".split(
    " ",
  ),
);
/** A chosen option that turns something down ("stop publishing X") names X without choosing it. */
export const TURNS_DOWN = /\b(?:stop|stops|stopped|remove|removes|removed|drop|drops|dropped|deprecate[sd]?|avoid|avoids|against|no longer|not|never|instead of|away from|retire[sd]?|delete[sd]?)\b/i;

/** Every objection these checks raise, in a stable order. */
export function groundingObjections(f: GroundingFocus): GroundingObjection[] {
  if (!f.record) return [];
  return [...outranked(f), ...plainView(f), ...unweighedProposal(f), ...offSubject(f), ...decisionMismatch(f)];
}

/** The retrieved records in rank order, one entry per record, with the evidence item that ranked it. */
export function rankedRecords(evidence: FusedEvidence[]): { meta: AdrMeta; cite: FusedEvidence }[] {
  const out: { meta: AdrMeta; cite: FusedEvidence }[] = [];
  const seen = new Set<string>();
  for (const e of [...evidence].sort((a, b) => a.rank - b.rank || a.id.localeCompare(b.id))) {
    if (!e.adr || seen.has(e.adr.path)) continue;
    seen.add(e.adr.path);
    out.push({ meta: e.adr, cite: e });
  }
  return out;
}

/** A record the deciding one replaced (either side may say so): ranking it higher is no objection. */
export function replacedBy(older: AdrMeta, newer: AdrMeta): boolean {
  return newer.supersedes.includes(older.path) || (older.superseded_by ?? []).includes(newer.path);
}

/** The record's own chosen option, as its decision model reads it. */
export function choiceOf(meta: AdrMeta): string | undefined {
  return (meta.chosen_option ?? meta.decided_option?.name)?.trim() || undefined;
}

/** The option (other than the recommended one) a record's chosen option names, when it does not name the recommended one. */
function otherOptionChosen(f: GroundingFocus, choice: string): DraftPicker["options"][number] | undefined {
  const mine = f.terms.get(f.rec.id) ?? [];
  if (mine.length && mentions(choice, { terms: mine })) return undefined;
  if (TURNS_DOWN.test(choice)) return undefined;
  const named = f.draft.options.find((o) => o.id !== f.rec.id && (f.terms.get(o.id) ?? []).length > 0 && mentions(choice, { terms: f.terms.get(o.id)! }));
  return named ?? readsAs(f, choice);
}

/** The option other than the recommended one that a chosen option reads as: two or more shared words, none with the recommended one. */
export function readsAs(f: GroundingFocus, choice: string): DraftPicker["options"][number] | undefined {
  const c = stemSet(choice);
  const overlap = (title: string) => [...stemSet(title)].filter((w) => c.has(w)).length;
  if (overlap(f.rec.title) > 0) return undefined;
  const best = f.draft.options
    .filter((o) => o.id !== f.rec.id)
    .map((o) => ({ o, n: overlap(o.title) }))
    .sort((a, b) => b.n - a.n || a.o.id.localeCompare(b.o.id))[0];
  return best && best.n >= 2 ? best.o : undefined;
}

/**
 * The deciding record is not among the best-ranked records on the question: more than one other (not one it
 * replaced) ranks above it, or one that ranks above it, in force, chose another of the options.
 */
function outranked(f: GroundingFocus): GroundingObjection[] {
  const r = f.record!;
  const ranked = rankedRecords(f.evidence);
  const at = ranked.findIndex((x) => x.meta.path === r.meta.path);
  if (at <= 0) return [];
  // Strictly above: a record tied with it in rank is not better ranked.
  const above = ranked.slice(0, at).filter((x) => x.cite.rank < ranked[at].cite.rank && !replacedBy(x.meta, r.meta));
  for (const x of above) {
    if (INACTIVE.has(x.meta.status) || x.meta.status === "proposed") continue;
    const choice = choiceOf(x.meta);
    const other = choice ? otherOptionChosen(f, choice) : undefined;
    if (other) {
      return [{
        check: "outranked",
        kind: "outranked/chose-other",
        text: `${recordName(x.meta)} (${recordStatus(x.meta)}) ranks above ${recordName(r.meta)} on this question and chose "${choice}", which is "${other.title}"; ${recordName(r.meta)} does not replace it.`,
        citations: [x.cite.id, r.cite.id],
      }];
    }
  }
  if (above.length <= MAX_RECORDS_ABOVE) return [];
  const names = above.slice(0, 3).map((x) => recordName(x.meta));
  return [{
    check: "outranked",
    kind: "outranked/trails",
    text: `${recordName(r.meta)} is only the ${ordinal(at + 1)} record retrieval ranked on this question (${names.join(", ")} rank above it): the recommendation may rest on a record about a neighbouring subject.`,
    citations: [r.cite.id, ...above.slice(0, 2).map((x) => x.cite.id)],
  }];
}

/**
 * A second, simpler reading of the question disagrees: the plain view (BM25 over every record, the question read word
 * for word: internal/recordBm25.ts) puts another record, one the deciding record did not replace, above it (a retired
 * record the plain view leads to still says the question is about something else). Two kinds, so
 * policy.ts can tell them apart: on an answer already held at low confidence ("plain-view") and on a surer one
 * ("plain-view-confident"), where the fuller search has more reason to be right.
 */
function plainView(f: GroundingFocus): GroundingObjection[] {
  const r = f.record!;
  const place = new Map<string, { meta: AdrMeta; cite: FusedEvidence; at: number }>();
  for (const e of f.evidence) {
    if (!e.adr || e.plain_rank === undefined) continue;
    const known = place.get(e.adr.path);
    if (!known || e.plain_rank < known.at) place.set(e.adr.path, { meta: e.adr, cite: e, at: e.plain_rank });
  }
  if (!place.size) return [];
  const mine = place.get(r.meta.path)?.at ?? Number.POSITIVE_INFINITY;
  if (mine === 1) return [];
  const seenAbove = [...place.values()].filter((x) => x.at < mine).sort((a, b) => a.at - b.at || a.meta.path.localeCompare(b.meta.path));
  const rivals = seenAbove.filter((x) => !replacedBy(x.meta, r.meta));
  // Everything the plain view puts above it is in sight, and each is a record it replaced: no rival.
  if (!rivals.length && seenAbove.length === mine - 1) return [];
  const sure = f.draft.recommendation.confidence !== "low";
  const first = rivals[0];
  return [{
    check: "outranked",
    kind: sure ? "outranked/plain-view-confident" : "outranked/plain-view",
    text: first
      ? `Read word for word over every record, the question matches ${recordName(first.meta)} better than ${recordName(r.meta)}: check which of the two decides it.`
      : `Read word for word over every record, the question matches other documents better than ${recordName(r.meta)}: check that it is the record that decides it.`,
    citations: [...(first ? [first.cite.id] : []), r.cite.id],
  }];
}

function ordinal(n: number): string {
  return n === 2 ? "2nd" : n === 3 ? "3rd" : `${n}th`;
}

/** What the question proposes when it proposes one thing ("adopt X?", "move to X?"), else undefined. */
export function proposal(question: string): Alternative | undefined {
  const s = readQuestion(question);
  if (s.target?.terms.length && !s.target.inverse) return s.target;
  const named = s.alternatives.filter((a) => a.role !== "incumbent" && a.terms.length);
  return s.form !== "alternatives" && named.length === 1 && !named[0].inverse ? named[0] : undefined;
}

/** Acronyms that name a kind of thing, not a product: "an API", "the CLI". */
const GENERIC_ACRONYMS = new Set("API ID URL URLS URI UI UX CLI HTTP HTTPS JSON XML YAML CSV SQL DB CI CD PR PRS OS VM VMS SDK REST RPC TLS SSL DNS CPU GPU RAM IO".split(" "));

/**
 * The subject names a product or technology as written in the question: a word with a capital inside it
 * ("OpenTelemetry", "gRPC"), an acronym that is not a generic one ("EVM"), or a capitalised word that does not start
 * a sentence ("adopt Sentry"). A record that weighed such a thing names it; a description may be worded otherwise.
 */
export function namesProduct(question: string, subject: string): boolean {
  const at = question.indexOf(subject);
  const before = question.slice(0, Math.max(0, at)).trimEnd();
  const startsSentence = at < 0 || !before || /[.?!:;]$/.test(before);
  return subject.split(/[\s/]+/).some((w, i) => {
    const word = w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, "");
    if (/^[A-Z]{2,}[0-9]*s?$/.test(word)) return !GENERIC_ACRONYMS.has(word.replace(/s$/, ""));
    if (/^\p{L}[\p{Ll}\p{N}]*\p{Lu}/u.test(word)) return true;
    return /^\p{Lu}\p{Ll}/u.test(word) && !(i === 0 && startsSentence);
  });
}

/**
 * The question proposes X, yet the deciding record never names X (it did not weigh it; kind "product" when X is a
 * named product, "description" when X is a description the record may word otherwise), or the recommendation is not X while
 * the record names X in its title or chosen option without turning it down (it decided for X: a concern).
 */
function unweighedProposal(f: GroundingFocus): GroundingObjection[] {
  const r = f.record!;
  const x = proposal(f.question);
  if (!x) return [];
  const recommendsIt = mentions(f.rec.title, { terms: x.terms });
  if (!mentions(r.text.slice(0, 200_000), { terms: x.terms })) {
    const named = namesProduct(f.question, x.subject);
    if (recommendsIt && !named) return [];
    if (named && !recommendsIt && !namedAnywhere(f, x.terms)) return [unknownProduct(f, x.subject)];
    return [{
      check: "unweighed-proposal",
      kind: named ? "unweighed-proposal/product" : "unweighed-proposal/description",
      text: recommendsIt
        ? `The question proposes ${x.subject}, which ${recordName(r.meta)} never mentions: the recommendation adopts it on a record that did not weigh it.`
        : `The question proposes ${x.subject}, which ${recordName(r.meta)} never mentions: "${f.rec.title}" follows a record that did not weigh it.`,
      citations: [r.cite.id],
    }];
  }
  if (recommendsIt) return [];
  const choice = choiceOf(r.meta) ?? "";
  const decidedFor = [r.meta.title, choice].find((t) => t && mentions(t, { terms: x.terms }) && !TURNS_DOWN.test(t));
  if (!decidedFor) return [];
  return [{
    check: "unweighed-proposal",
    kind: "unweighed-proposal/decided-for",
    text: `The question proposes ${x.subject}, and ${recordName(r.meta)} ${decidedFor === choice ? `chose "${choice}"` : "is about it"}, yet the recommendation is "${f.rec.title}", not ${x.subject}.`,
    citations: [r.cite.id],
  }];
}

/**
 * Whether any retrieved record (its whole text when discovery read it) or any other retrieved item names these
 * terms: a product the question proposes that nothing retrieved names is one no record here decided on.
 */
function namedAnywhere(f: GroundingFocus, terms: string[]): boolean {
  if (f.evidence.some((e) => mentions(`${e.title ?? ""}\n${e.excerpt}`, { terms }))) return true;
  return rankedRecords(f.evidence).some((x) => {
    const text = f.recordText?.(x.meta.path);
    return text !== undefined && mentions(text.slice(0, 200_000), { terms });
  });
}

/**
 * The question proposes a named product that no retrieved record or document names, and the recommendation is not
 * it: the answer follows a record about something else, and no record here weighed the proposal at all.
 */
function unknownProduct(f: GroundingFocus, subject: string): GroundingObjection {
  const r = f.record!;
  return {
    check: "unweighed-proposal",
    kind: "unweighed-proposal/unknown-product",
    text: `The question proposes ${subject}, which no retrieved record mentions, ${recordName(r.meta)} included: no record here weighed it, so "${f.rec.title}" answers another question.`,
    citations: [r.cite.id],
  };
}

export function stemSet(text: string): Set<string> {
  const out = new Set<string>();
  for (const w of contentWords(text)) {
    const s = stemWord(w);
    if (s.length > 1 && !FRAME_WORDS.has(s) && !FRAME_WORDS.has(w) && !GENERIC.has(s) && !GENERIC.has(w)) out.add(s);
  }
  return out;
}

/** A record's headline in its own words: title, file name, subject and options (those it turned down included). */
export function headline(meta: AdrMeta): Set<string> {
  const file = meta.path.split("/").slice(-2).join(" ").replace(/\.(md|markdown|mdx|adoc|rst|txt)$/i, "");
  const weighed = [...meta.considered_options, ...(meta.rejected_options ?? []).map((r) => r.name)];
  const text = [meta.title, file, meta.subject ?? "", choiceOf(meta) ?? "", ...weighed].join(" ");
  return stemSet(`${text} ${text.replace(/([a-z])([A-Z])/g, "$1 $2").replace(/[-_./]+/g, " ")}`);
}

/** The recommendation is the record's own option, and the record's headline barely touches what the question asks. */
function offSubject(f: GroundingFocus): GroundingObjection[] {
  const r = f.record!;
  const structure = readQuestion(f.question);
  // A question that names its alternatives was matched to them, a stronger link than the record's headline words.
  if (structure.form === "alternatives") return [];
  if (structure.alternatives.some((a) => a.terms.length && mentions(f.rec.title, { terms: a.terms }))) return [];
  const asking = stemSet(splitAsking(f.question).asking);
  const head = headline(r.meta);
  const shared = [...asking].filter((w) => head.has(w));
  if (shared.length >= MIN_HEADLINE_HITS) return [];
  // One shared word pins the record only when no other retrieved record's headline has it too ("mail" in a mail
  // server's records says nothing; "hyphen" does).
  const others = rankedRecords(f.evidence).filter((x) => x.meta.path !== r.meta.path).map((x) => headline(x.meta));
  if (shared.length === 1 && !others.some((h) => h.has(shared[0]))) return [];
  const said = shared.length ? `only "${shared[0]}"` : "no word";
  return [{
    check: "off-subject",
    kind: "off-subject",
    text: `${recordName(r.meta)} shares ${said} of what the question asks with its title and options: "${f.rec.title}" may answer a neighbouring question.`,
    citations: [r.cite.id],
  }];
}

/** The question names two or more alternatives and the recommended option is one of them (matched by name). */
function namesRecommendation(question: string, rec: { title: string }): boolean {
  const named = readQuestion(question).alternatives.filter((a) => a.terms.length);
  return named.length >= 2 && named.some((a) => mentions(rec.title, { terms: a.terms }));
}

/** Content stems, a hyphenated or slashed word read as its parts ("JSON-schema" is "JSON schema"). */
function partStems(text: string): Set<string> {
  return stemSet(text.replace(/[-_/]+/g, " "));
}

/**
 * The record's chosen option reads as another of the options, not as the recommended one; or, on a question that
 * does not name the recommendation itself, the record chose nothing or something that shares no word with it.
 */
function decisionMismatch(f: GroundingFocus): GroundingObjection[] {
  const r = f.record!;
  const choice = choiceOf(r.meta);
  // A choice that moves from one thing to another ("rename X to Y", "Y instead of X") names both: only what it
  // keeps is read against the options; any other choice that turns something down names it without choosing it.
  const kept = choice ? keptPart(choice) : undefined;
  const reading = kept ?? (choice && !TURNS_DOWN.test(choice) ? choice : undefined);
  const other = reading ? readsAs(f, reading) : undefined;
  if (other) {
    return [{
      check: "decision-mismatch",
      kind: "decision-mismatch/reads-as",
      text: `${recordName(r.meta)} chose "${choice}", which reads as "${other.title}", not as the recommended "${f.rec.title}".`,
      citations: [r.cite.id],
    }];
  }
  const unchosen = notChosen(f, choice);
  if (unchosen) return [unchosen];
  return twoReadings(f);
}

/** "rename|replace|move|switch … X to|with|for … Y": Y. */
const MOVE_TO = /^(?:rename[sd]?|renaming|replace[sd]?|replacing|swap(?:s|ped)?|substitute[sd]?|migrate[sd]?|migrating|move[sd]?|moving|switch(?:es|ed)?|switching|change[sd]?|changing|convert(?:s|ed)?|converting)\s+(?:from\s+)?(.+?)\s+(?:to|with|for|by|into|in favou?r of)\s+(.+)$/i;
/** "Y instead of|rather than|in place of X": Y. */
const KEEP_BEFORE = /^(.+?)\s+(?:instead of|rather than|in place of)\s+(.+)$/i;
/** "… X in favour of Y": Y. */
const FAVOUR = /^.+?\s+in favou?r of\s+(.+)$/i;

/**
 * What a choice that moves from one thing to another keeps ("Rename handles to bound instruments": "bound
 * instruments"; "Use Y instead of X": "Use Y"); undefined when the choice does not read that way.
 */
export function keptPart(choice: string): string | undefined {
  const text = choice.trim();
  const moved = MOVE_TO.exec(text);
  if (moved) return moved[2].trim();
  const favour = FAVOUR.exec(text);
  if (favour) return favour[1].trim();
  const before = KEEP_BEFORE.exec(text);
  if (before) return before[1].trim();
  return undefined;
}

/**
 * The recommendation is not what the record decided: the record states no choice, or its choice shares no word with
 * the recommended option. A question that names the recommendation matched it by name, a link of its own: not then.
 */
function notChosen(f: GroundingFocus, choice: string | undefined): GroundingObjection | undefined {
  if (namesRecommendation(f.question, f.rec)) return undefined;
  const mine = partStems(f.rec.title);
  if (choice && (!mine.size || [...partStems(choice)].some((w) => mine.has(w)))) return undefined;
  const name = recordName(f.record!.meta);
  return {
    check: "decision-mismatch",
    // Two kinds: a record whose decision the model could not read says less than one whose choice is elsewhere.
    kind: choice ? "decision-mismatch/not-chosen" : "decision-mismatch/no-choice",
    text: choice
      ? `${name} chose "${choice}", which shares no word with the recommended "${f.rec.title}": the recommendation may not be what it decided.`
      : `${name} states no choice of its own: "${f.rec.title}" is read from its text, not from a decision it made.`,
    citations: [f.record!.cite.id],
  };
}

/**
 * The record's decision model reads two ways: its chosen option and its decision section name different things (no
 * word in common), so which one it decided, and whether the recommendation is it, is in doubt.
 */
function twoReadings(f: GroundingFocus): GroundingObjection[] {
  const r = f.record!;
  const section = r.meta.decided_option?.name?.trim();
  const chosen = r.meta.chosen_option?.trim();
  if (!section || !chosen) return [];
  const a = stemSet(chosen);
  const b = stemSet(section);
  if (!a.size || !b.size || [...a].some((w) => b.has(w))) return [];
  return [{
    check: "decision-mismatch",
    kind: "decision-mismatch/two-readings",
    text: `${recordName(r.meta)} reads two ways: its chosen option is "${chosen}", its decision says "${section}"; which it decided is in doubt.`,
    citations: [r.cite.id],
  }];
}
