// The deterministic rules synthesizer: a pure function of (evidence, config version, class). It reads the
// question's structure (question.ts) for the options a person would write, keeps only evidence on the question's
// topic, finds the artifact that decided the question (an on-topic ADR, following supersession to its successor,
// or a rule in AGENTS.md and the like) and recommends what it chose, citing it. Without such an artifact the
// recommendation is `undecidable-on-current-evidence`, with the reason. Same inputs, byte-identical payload.
import {
  UNDECIDABLE,
  type AdrMeta,
  type Citation,
  type DraftPicker,
  type FusedEvidence,
  type Level,
  type Option,
} from "../schemas";
import type { SynthesisInput, SynthesisOutput, Synthesizer } from "../types";
import { readQuestion, type Alternative, type QuestionStructure } from "./question";
import { adrChoice, clausePolarity, clauses, mentions, recordName, recordStatus, stanceOf, type OptionKey, type Stance } from "./stance";
import { FRAME_WORDS, TECH_ALIASES, isStopWord, normaliseAbbreviations, stemWord, stems, words } from "./words";
import { answerNamed, decisionTitle, opensWithDecisionVerb, recordLedAnswer, tidyLabel, type RecordLedAnswer } from "./recordLed";
import { isCanonical } from "../internal/adr";
import { contentWords } from "../terms";
import { capitalise } from "../text";

const MAX_OPTIONS = 5;
/** How many of the best-ranked on-topic decision records may decide the question. */
const MAX_DECIDER_CANDIDATES = 6;
/** Records below this position in retrieval's order (0-based) never decide (see findDecider). */
const DEEPEST_DECIDER = 6;
/** Records below this position (0-based) never add an option of their own (see findDecider). */
const DEEPEST_NEW_OPTION = 2;
/** How much a decision record about another scope (another service) counts when choosing the deciding record. */
const DECIDER_OUT_OF_SCOPE = 0.4;
/** The least word-match weight with which a decision record's choice names an option. */
const MIN_CHOICE_SCORE = 1.5;

type Origin = "question" | "adr" | "incumbent" | "successor" | "keep" | "defer";

interface Candidate {
  title: string;
  key: OptionKey;
  origin: Origin;
  /** Where the option came from, for its summary. */
  note: string;
  /** "Stop X" / "Drop X": evidence for X counts against it. */
  inverse?: boolean;
  /** The one thing a proposal question proposes ("Adopt gRPC", "Split the monolith"): chosen only when endorsed. */
  proposal?: boolean;
  /** The question itself names this option (not a record, not a generic keep/defer). */
  asked?: true;
  /** What the question says is in place names only a kind of thing ("the project's formatter"). */
  unnamed?: true;
  /** The record an incumbent was named from (its path). */
  from?: string;
}

interface Scored extends Candidate {
  id: string;
  supports: { e: FusedEvidence; s: Stance }[];
  dissent: { e: FusedEvidence; s: Stance }[];
  net: number;
}

/** Words that name no option on their own ("use", "the", "for cart state"). */
const FILLER = /^(?:should|we|us|our|the|a|an|use|using|adopt|choose|pick|go|with|keep|to|for|in|on|of|it|be|is|are|or|and|between|vs|versus|better|prefer|stick|stay|switch|migrate|move)$/i;

/**
 * The terms that name an option label taken from evidence ("Use YAML front matter", "PostgreSQL"). A multi-word
 * label matches as a phrase (spaced, hyphenated or joined); a single word of it counts only when it looks like a
 * product name (capitalised, or with a dot, digit or @).
 */
export function keyFor(label: string): OptionKey {
  const clean = label.replace(/^(?:the|a|an)\s+/i, "").replace(/["“”()[\]]/g, "").replace(/(?<![.,;:!?])[.,;:!?]+$/, "").trim();
  const ws = clean.split(/\s+/).filter((w) => !FILLER.test(w));
  const terms = new Set<string>();
  const phrase = ws.join(" ").toLowerCase();
  if (phrase) terms.add(phrase);
  if (ws.length > 1) {
    terms.add(ws.join("-").toLowerCase());
    terms.add(ws.join("").toLowerCase());
    for (const w of ws) if (w.length > 2 && (/^[A-Z][a-z]+[A-Z]/.test(w) || /^[A-Z]{2,}/.test(w) || /[.@\d]/.test(w) || (w === ws[0] && /^[A-Z][a-z]/.test(w)))) terms.add(w.toLowerCase().replace(/[.,]+$/, ""));
  }
  for (const group of TECH_ALIASES) if (group.some((g) => terms.has(g))) group.forEach((g) => terms.add(g));
  return { terms: [...terms].filter((t) => t.length > 1) };
}

/** The question's alternatives as display titles (kept for callers that only need the names). */
export function optionsFromQuestion(question: string): string[] {
  return readQuestion(question).alternatives.map((a) => a.title);
}

function slugId(title: string, taken: Set<string>): string {
  const base = `opt-${title.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 40) || "option"}`;
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
  taken.add(id);
  return id;
}

/** "vscode-elements" and "@vscode-elements/elements" name the same option; so do aliases. */
function sameOption(a: OptionKey, b: OptionKey): boolean {
  return a.terms.some((t) => mentions(t, b)) || b.terms.some((t) => mentions(t, a));
}

/** What the record's decision model says it chose: its "Chosen option" line, else the option its decision names. */
function modelChoice(meta: AdrMeta): string | undefined {
  return meta.chosen_option ?? meta.decided_option?.name;
}

/**
 * The decision model's choice when it is one of the options the record lists; a choice read from free prose
 * ("propose to store all buckets in one account") is weaker than the readings below and only a last resort.
 */
function listedModelChoice(meta: AdrMeta): string | undefined {
  const { name, option } = meta.decided_option ?? {};
  const listed = (x: string | undefined) => (x && meta.considered_options.includes(x) ? x : undefined);
  return meta.chosen_option ?? listed(name) ?? listed(option);
}

/** An option of at least this many content words is an action, not a name. */
const ACTION_WORDS = 5;

/** Whether a record's own chosen option (as its decision model, else its decision text, states it) is this option. */
function recordChose(doc: AdrDoc, c: Candidate): boolean {
  // A choice read from free prose does not steer which option is matched (stated), but it does confirm one.
  const choice = stated(doc) ?? doc.meta.decided_option?.name;
  if (!choice || !c.key.terms.length || c.inverse) return false;
  // An action on a thing ("write the GraphQL schema by hand first") is not chosen by choosing the thing ("GraphQL"):
  // the choice must say at least half of what the action does.
  const asked = [...tokenStems(c.title, false).keys()].filter((w) => !FRAME_STEMS.has(w) && !VAGUE.has(w));
  if (asked.length >= ACTION_WORDS) {
    const said = tokenStems(choice, true);
    if (asked.filter((w) => said.has(w)).length * 2 < asked.length) return false;
  }
  return sameOption(keyFor(choice), c.key) || mentions(choice, primaryKey(c.key));
}

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}

// ---------------------------------------------------------------------------------------------------------
// Scope: another service's decisions are analogies, not precedent

/** Weight of evidence about another scope (another service, another team) than the question's. */
const OUT_OF_SCOPE_WEIGHT = 0.2;
/** The most that all out-of-scope evidence together adds to one side of an option's balance. */
const OUT_OF_SCOPE_CAP = 1.5;
/** Verbs and generic nouns that say what is done, not where: never a scope, however rare in the evidence. */
const NOT_A_SCOPE = new Set(
  ("store keep handle manage run send save load write read call process serve implement support work add create live put place stay " +
    "data code file system app application layer tool framework library service team solution setup " +
    // Counts and amounts say how much, never where ("three hundred GeoTIFFs", "several gigabytes").
    "one two three four five six seven eight nine ten twelve twenty hundred hundreds thousand thousands million millions " +
    "billion several many few couple dozen dozens lot lots")
    .split(" ")
    .map(stemWord),
);
/** Below this many evidence items, distinctiveness cannot be judged and every item counts as in scope. */
const MIN_EVIDENCE_FOR_SCOPE = 6;

function evidenceStems(e: FusedEvidence): Set<string> {
  return stems(`${e.path_or_url.replace(/[/_.-]+/g, " ")} ${e.adr?.title ?? ""} ${e.title ?? ""} ${e.excerpt}`);
}

function isRootConvention(e: FusedEvidence): boolean {
  return e.kind === "internal" && !e.path_or_url.includes("/") && e.source_type !== "adr" && e.source_type !== "commit";
}

/**
 * The question's scope: its topic words (not the option names) that only a minority of the evidence mentions,
 * e.g. "audit" in "REST or GraphQL for the public API in the audit service?". Evidence that names none of them is
 * about some other scope — another service's decision is an analogy, not a precedent — and weighs less.
 */
export function questionScope(question: string | QuestionStructure, evidence: FusedEvidence[]): { words: string[]; inScope: (e: FusedEvidence) => boolean } {
  const all = { words: [] as string[], inScope: () => true };
  if (evidence.length < MIN_EVIDENCE_FOR_SCOPE) return all;
  const structure = typeof question === "string" ? readQuestion(question) : question;
  const optionStems = new Set(structure.alternatives.flatMap((a) => [...stems(`${a.subject} ${a.terms.join(" ")}`)]));
  const topic = [...stems(structure.topic.join(" "))].filter((w) => !optionStems.has(w) && !NOT_A_SCOPE.has(w));
  const sets = evidence.map(evidenceStems);
  const df = (w: string) => sets.filter((set) => set.has(w)).length;
  const scope = topic.filter((w) => {
    const n = df(w);
    return n > 0 && n <= evidence.length / 2;
  });
  if (!scope.length) return all;
  const byId = new Map(evidence.map((e, i) => [e.id, sets[i]]));
  return {
    words: scope,
    // Rules at the repository root (AGENTS.md, ARCHITECTURE.md, …) govern every scope.
    inScope: (e) => isRootConvention(e) || scope.some((w) => (byId.get(e.id) ?? evidenceStems(e)).has(w)),
  };
}

// ---------------------------------------------------------------------------------------------------------
// Decision records grouped by file, and whether they are on the question's topic

interface AdrDoc {
  path: string;
  meta: AdrMeta;
  items: FusedEvidence[];
  /** Best fused rank of any of its sections. */
  rank: number;
  /** The decision sections' text (Decision, Decision Outcome), or empty when none was retrieved. */
  decisionText: string;
  allText: string;
  active: boolean;
  /** Headings of its retrieved sections that name a subject ("Pagination"), not a part of a record ("Context"). */
  topicalHeadings: string[];
}

const INACTIVE = new Set(["superseded", "deprecated", "rejected"]);

/** Section names that hold a record's decision when it has no Decision section (read as words of the heading key). */
const DECIDING_SECTION = /(?:^|-)(?:proposal|proposed-solution|solution|design|detailed-design|approach|resolution|conclusion|recommendation|specifications?)(?:$|-)/;

/** Headings that name a part of a record or design document rather than a subject of its own. */
const DOCUMENT_PART =
  /^(?:summary|overview|introduction|intro|motivation|background|goals?|non-?goals?|scope|faq|approach|proposal|proposed (?:solution|design|changes?)|solution|design|detailed design|implementation(?: details| plan)?|rationale|alternatives?(?: considered)?|requirements|discussion|(?:open|outstanding|unresolved) questions|questions|prior art|drawbacks|future (?:work|possibilities)|plan of attack|references|see also|terminology|glossary|definitions|appendix|changelog|history|notes|metadata|related(?: \w+)?|examples?|usage|testing|security|risks?|conclusion|resolution|recommendation|specifications?|out of scope|assumptions|constraints|impact|migration|timeline|next steps|open issues|considerations|analysis|problem|details)$/i;

/** "ADR 10: API v3 basics — Pagination" → "Pagination", for a section that is not a standard part of a record. */
function topicalHeading(e: FusedEvidence): string | undefined {
  const name = e.adr?.section ?? "";
  if (!name || isCanonical(name) || name === "preamble" || name.startsWith("pros-and-cons")) return undefined;
  const heading = (e.title ?? "").split(" — ").slice(1).join(" — ").split(" › ").pop()?.replace(/^\d+(?:\.\d+)*[.)]?\s+/, "").trim();
  return heading && heading !== "Metadata" && !DOCUMENT_PART.test(heading.replace(/[:.]+$/, "")) && heading.split(/\s+/).length <= 8 ? heading : undefined;
}

function groupAdrs(evidence: FusedEvidence[]): AdrDoc[] {
  const byPath = new Map<string, FusedEvidence[]>();
  for (const e of evidence) {
    if (!e.adr) continue;
    const list = byPath.get(e.adr.path) ?? [];
    list.push(e);
    byPath.set(e.adr.path, list);
  }
  const docs: AdrDoc[] = [];
  for (const [path, items] of byPath) {
    items.sort((a, b) => a.rank - b.rank);
    const meta = items[0].adr!;
    let decision = items.filter((e) => /decision|outcome/.test(e.adr?.section ?? "") || e.precision_class === "document");
    // RFC- and spec-style records state what they settle under another heading: "Proposal", "Detailed design".
    if (!decision.length) decision = items.filter((e) => DECIDING_SECTION.test(e.adr?.section ?? ""));
    docs.push({
      path,
      meta,
      items,
      rank: items[0].rank,
      decisionText: decision.map((e) => e.excerpt).join("\n"),
      allText: items.map((e) => `${e.title ?? ""}\n${e.excerpt}`).join("\n"),
      active: !items.some((e) => INACTIVE.has(e.adr!.status)),
      topicalHeadings: [...new Set(items.map(topicalHeading).filter((h): h is string => !!h))],
    });
  }
  return docs.sort((a, b) => a.rank - b.rank || a.path.localeCompare(b.path));
}

function slugWords(path: string): string {
  const file = path.split("/").slice(-2).join(" ");
  return file.replace(/\.(md|markdown|mdx|adoc|rst|txt)$/i, "").replace(/\b(?:readme|index|adr)\b/gi, " ").replace(/[-_./\d]+/g, " ");
}

/** What a decision record is about: its title, file name, and the options it weighed. */
function headline(doc: AdrDoc): string {
  // "ResponderManager" is about responders and managers.
  const text = `${doc.meta.title} ${slugWords(doc.path)} ${doc.meta.chosen_option ?? ""} ${doc.meta.considered_options.join(" ")}`;
  return `${text} ${text.replace(/([a-z])([A-Z])/g, "$1 $2")}`;
}

interface TopicModel {
  /** Stemmed words of what the question is about (not its options). */
  topic: Set<string>;
  /** The keys of the alternatives the question names (non-empty ones). */
  keys: OptionKey[];
}

function topicModel(structure: QuestionStructure, candidates: Candidate[]): TopicModel {
  const topic = new Set([...stems(`${structure.topic.join(" ")} ${structure.purpose ?? ""}`)].filter((w) => !FRAME_WORDS.has(w)));
  return { topic, keys: candidates.filter((c) => c.key.terms.length).map((c) => c.key) };
}

/**
 * A decision record is on the question's topic when its title, file name or options name one of the question's
 * alternatives or enough of its topic words; when its text weighs two of the alternatives; or when its decision
 * names an alternative and its title shares a topic word. Anything else — sessions, dates and PostgreSQL when the
 * question is about gRPC — is another topic, and never an option, a support or a dissent.
 */
function docOnTopic(doc: AdrDoc, model: TopicModel): boolean {
  const head = headline(doc);
  if (model.keys.some((k) => mentions(head, k))) return true;
  const headStems = stems(head);
  const hits = [...model.topic].filter((w) => headStems.has(w)).length;
  const need = model.topic.size >= 4 ? 2 : 1;
  if (model.topic.size && hits >= need) return true;
  // It weighs two of the question's alternatives.
  const weighed = model.keys.filter((k) => mentions(doc.allText, k)).length;
  if (weighed >= 2) return true;
  // Its decision names one of them, and it is about the question's subject.
  if (!model.keys.some((k) => mentions(doc.decisionText, k))) return false;
  const bodyStems = stems(doc.allText);
  const bodyHits = [...model.topic].filter((w) => bodyStems.has(w)).length;
  return hits >= 1 || bodyHits >= Math.min(2, model.topic.size);
}

function nearTopic(doc: AdrDoc, model: TopicModel): boolean {
  const head = stems(headline(doc));
  return [...model.topic].some((w) => head.has(w)) || model.keys.some((k) => mentions(doc.decisionText, k));
}

/** Evidence that is not a decision record is on topic when it names one of the options or most topic words. */
function itemOnTopic(e: FusedEvidence, model: TopicModel, docOk: Map<string, boolean>): boolean {
  if (e.adr) return docOk.get(e.adr.path) ?? false;
  if (model.keys.some((k) => mentions(`${e.title ?? ""}\n${e.excerpt}`, k))) return true;
  if (!model.topic.size) return false;
  const s = stems(`${e.title ?? ""} ${e.excerpt}`);
  return [...model.topic].filter((w) => s.has(w)).length >= Math.ceil(model.topic.size / 2);
}

// ---------------------------------------------------------------------------------------------------------
// Candidates

function fromAlternative(a: Alternative): Candidate {
  const origin: Origin = a.role === "incumbent" ? "incumbent" : "question";
  const note = a.role === "incumbent" ? "what the question says is in place today" : "named in the question";
  // A name's common word on its own ("new" of "New Relic") would find the option in any text: only the name's other
  // spellings and words name it.
  const own = a.terms.filter((t) => /[\s-]/.test(t) || !isStopWord(t));
  const terms = own.length ? own : a.terms;
  return { title: a.title, key: { terms }, origin, note, asked: true, ...(a.inverse ? { inverse: true } : {}), ...(a.unnamed ? { unnamed: true as const } : {}) };
}

const KEEP_CURRENT: Candidate = { title: "Keep the current approach", key: { terms: [] }, origin: "keep", note: "no change" };
const DEFER: Candidate = { title: "Defer the decision and gather more evidence", key: { terms: [] }, origin: "defer", note: "no commitment yet" };

/** The choice a decision record states, as an option label: its "Chosen option", its decision sentence, its title. */
const statedCache = new WeakMap<AdrDoc, { value: string | undefined }>();

function stated(doc: AdrDoc): string | undefined {
  const hit = statedCache.get(doc);
  if (hit) return hit.value;
  let value: string | undefined = listedModelChoice(doc.meta) ?? consideredInDecision(doc);
  for (const e of doc.items) {
    if (value) break;
    value = adrChoice(e, doc.decisionText);
  }
  statedCache.set(doc, { value });
  return value;
}

/**
 * A record that lists its considered options but has no "Chosen option" line: the option its Decision section
 * describes ("… event streaming … push based" → "Stream data change events from the system").
 */
function consideredInDecision(doc: AdrDoc): string | undefined {
  const options = doc.meta.considered_options;
  if (options.length < 2 || !doc.decisionText) return undefined;
  const decision = tokenStems(doc.decisionText, true);
  const sets = options.map((o) => tokenStems(o, true));
  const common = new Set([...sets[0].keys()].filter((w) => sets.every((x) => x.has(w))));
  const scores = sets.map((set) => [...set.keys()].filter((w) => !common.has(w) && !FRAME_STEMS.has(w) && decision.has(w)).length);
  const best = Math.max(...scores);
  const winners = scores.filter((x) => x === best).length;
  return best >= 2 && winners === 1 ? options[scores.indexOf(best)] : undefined;
}

/** A short name of a thing ("REST", "YAML front matter"), not a sentence ("Accept the input file as …"). */
function nounLike(label: string): boolean {
  const ws = label.split(/\s+/);
  return ws.length <= 4 && !/[,;:()[\]#]/.test(label) && !/^(?:accept|allow|avoid|provide|make|do|add|remove|write|create|implement|support|let|keep|stop|drop|move|migrate|switch|replace|use|adopt)\b/i.test(label) && !opensWithDecisionVerb(label);
}

/** "Use YAML front matter" → "YAML front matter", for titles that add their own verb ("Keep …", "Move to …"). */
function bareChoice(choice: string): string {
  return choice.replace(/^(?:use|adopt|choose|introduce|keep|switch to|move to|migrate to)\s+/i, "").trim() || choice;
}

/** A word that opens what a name is for, how or where it is used ("… for continuous integration", "… as the backend"). */
const QUALIFIER = /\s(?:for|as|in|on|at|with|within|via|through|across|from|by|instead of|rather than|so that|which|that)\s/i;

/**
 * The name a chosen option opens with, without what follows it about its purpose or place ("GitHub Actions CI for
 * continuous integration" → "GitHub Actions CI"): the whole label when it is short enough to be a name already, or
 * when what precedes the qualifier is no name of its own.
 */
export function headName(label: string): string {
  if (nounLike(label)) return label;
  const at = QUALIFIER.exec(label)?.index ?? -1;
  const head = at > 0 ? label.slice(0, at).trim() : "";
  // A name is made of content words only: "no longer rely" and "not be implemented" are clauses cut short.
  const named = !!head && contentWords(head).length === head.split(/\s+/).length;
  return named && nounLike(head) ? head : label;
}

function addCandidate(list: Candidate[], c: Candidate): boolean {
  if (list.some((x) => x.title.toLowerCase() === c.title.toLowerCase() || (c.key.terms.length && x.key.terms.length && sameOption(x.key, c.key) && x.inverse === c.inverse))) return false;
  list.push(c);
  return true;
}

// ---------------------------------------------------------------------------------------------------------
// Which option a decision names

/** Words that say "of our own": one meaning, several spellings. */
const OWN = new Set(["own", "dedicated", "separate", "custom", "bespoke", "homegrown", "home-grown", "in-house", "inhouse", "standalone", "self-implemented", "self-made", "self-written", "homemade"]);
/** "Dual license" chooses "both". */
const BOTH = new Set(["both", "dual", "combined", "combination"]);

/**
 * Whether stemmed tokens hold this stem, a hyphenated one also when every part of it is there: "side-table" is
 * said by "a side table".
 */
function holdsStem(tokens: { has(w: string): boolean }, w: string, title: string): boolean {
  if (tokens.has(w)) return true;
  // Two parts only, and hyphenated as the option writes it: a bag of words cannot tell "Google Cloud CDN" from three
  // words said apart, nor a key's own spelling ("querier-process") from two words used anywhere.
  const parts = w.split(/[-_]+/);
  if (parts.length !== 2 || parts.some((x) => x.length < 3) || !title.toLowerCase().includes(`${parts[0]}-${parts[1]}`)) return false;
  return parts.every((x) => tokens.has(x) || tokens.has(stemWord(x)));
}

/** Stemmed tokens of a text; hyphenated names stay whole ("adr-tools"), and in `withParts` mode their parts count too. */
function tokenStems(text: string, withParts: boolean): Map<string, number> {
  const out = new Map<string, number>();
  const add = (w: string) => {
    const st = OWN.has(w) ? "own" : BOTH.has(w) ? "both" : stemWord(w);
    // Short numbers stay: "Java 8" and "Java 11" differ only in them.
    if ((st.length < 2 && !/^\d$/.test(st)) || /^\d{5,}$/.test(st) || STOPISH.has(st)) return;
    out.set(st, (out.get(st) ?? 0) + 1);
  };
  // An identifier ("client_id") is one word like a hyphenated name: "group_id" does not name "client_id".
  for (const raw of normaliseAbbreviations(text).split(/[^a-z0-9._+#@-]+/)) {
    // The lookbehind starts the trailing trim only where a run starts (/x+$/ is quadratic on a long run of x).
    const w = raw.replace(/^[._-]+/, "").replace(/(?<![._-])[._-]+$/, "");
    if (!w) continue;
    if (/[-_]/.test(w) && !OWN.has(w)) {
      add(w);
      if (withParts) for (const part of w.split(/[-_]/)) if (part.length > 2) add(part);
    } else add(w);
  }
  return out;
}
const STOPISH = new Set(
  "the a an and or of to in on at by for with from into onto is are be we our it its this that these those as than not no via per should would could can will just only also still each every all any some one them they their".split(" "),
);
const FRAME_STEMS = new Set([...FRAME_WORDS, ...[...FRAME_WORDS].map(stemWord)]);
/** Words too vague to tell one option from another in a record ("support", "approach"). */
const VAGUE = new Set(
  (
    "support use usage way thing option approach solution method mechanism process stuff kind type part case level mode feature item place data information content system service code file " +
    // Degree adverbs say how far, not what: "remove it altogether" is named by "remove".
    "altogether entirely completely fully wholly simply"
  )
    .split(" ")
    .flatMap((w) => [w, stemWord(w)]),
);

/**
 * The stems that set an option apart: its title and terms, minus framing verbs, words every option shares, and
 * words the question uses outside the option too ("metrics" in "…client metrics, Micrometer or the OpenTelemetry
 * metrics API?" is context, not what tells the options apart).
 */
const distinctiveCache = new WeakMap<Candidate, { key: string; value: Set<string> }>();

function distinctive(c: Candidate, all: Candidate[], question = ""): Set<string> {
  const cacheKey = `${all.length}|${all.map((x) => x.title).join("|")}|${question}`;
  const hit = distinctiveCache.get(c);
  if (hit && hit.key === cacheKey) return hit.value;
  const value = computeDistinctive(c, all, question);
  distinctiveCache.set(c, { key: cacheKey, value });
  return value;
}

/** An object pronoun in a bare action ("remove it altogether") that points back at what the question is about. */
const POINTS_BACK = /\b(?:it|them)\b/i;

function computeDistinctive(c: Candidate, all: Candidate[], question: string): Set<string> {
  const ownTitle = tokenStems(c.title, false);
  const own = new Set([...ownTitle.keys(), ...tokenStems(c.key.terms.filter((t) => !/\s/.test(t)).join(" "), false).keys()]);
  const others = all.filter((x) => x !== c && x.key.terms.length && !(x.inverse || c.inverse));
  const inQuestion = tokenStems(question, false);
  // "… fix the Google Cloud CDN, or remove it altogether?": the other option's pronoun stands for the question's
  // subject, so the subject's words are in both options and name neither, even where they name this one.
  const pointedAt = others.some((o) => POINTS_BACK.test(o.title) && [...tokenStems(o.title, false).keys()].filter((w) => !FRAME_STEMS.has(w) && !VAGUE.has(w) && !STOPISH.has(w)).length <= 2);
  const out = new Set<string>();
  for (const w of own) {
    if (FRAME_STEMS.has(w) || VAGUE.has(w)) continue;
    if (others.length && others.every((o) => tokenStems(`${o.title} ${o.key.terms.join(" ")}`, false).has(w))) continue;
    if ((inQuestion.get(w) ?? 0) > (ownTitle.get(w) ?? 0) && (pointedAt || !c.key.terms.includes(w))) continue;
    out.add(w);
  }
  return out;
}

/** Whether the record's decision uses any of these (stemmed) words. */
function decisionSays(doc: AdrDoc, key: OptionKey): boolean {
  if (!key.terms.length || !doc.decisionText) return false;
  const st = tokenStems(doc.decisionText, true);
  return key.terms.some((t) => st.has(t));
}

/** The terms that name the whole option (the phrase and its spellings), not a word or an inner name of it. */
function primaryKey(key: OptionKey): OptionKey {
  if (!key.terms.length) return key;
  const len = key.terms[0].replace(/[\s-]/g, "").length;
  return { terms: key.terms.filter((t) => t.replace(/[\s-]/g, "").length >= len - 2) };
}

/** The key without one-word terms the question also uses elsewhere ("rabbitmq" when both options are about RabbitMQ). */
function sharpKey(key: OptionKey, question: string): OptionKey {
  if (!question) return key;
  const counts = tokenStems(question, false);
  const terms = key.terms.filter((t) => /\s|-/.test(t) || (counts.get(stemWord(t)) ?? 0) <= 1);
  return terms.length ? { terms } : key;
}

/** -1 when the text argues against the option's key (and never for it), +1 when only for it, else 0. */
function polarityIn(text: string, key: OptionKey): -1 | 0 | 1 {
  if (!key.terms.length) return 0;
  let pos = 0;
  let neg = 0;
  for (const cl of clauses(text)) {
    const p = clausePolarity(cl, key).polarity;
    if (p > 0) pos++;
    else if (p < 0) neg++;
  }
  return neg > pos ? -1 : pos > neg ? 1 : 0;
}

interface ChoiceMatch {
  /** The candidate chosen; -1 when the record chose an option of its own that no candidate is (`other`). */
  index: number;
  score: number;
  margin: number;
  /** The record's chosen option, when it combines two or more of the alternatives (combinationChoice). */
  other?: string;
}

/** One decision record read for its choice among the candidates; shared by the parts of matchChoice. */
interface ChoiceReading {
  doc: AdrDoc;
  candidates: Candidate[];
  question: string;
  /** The record's stated choice, or "". */
  choice: string;
  /** The texts a choice is looked for in, each with the weight of its words. */
  fields: [string, number][];
  fieldStems: Map<string, number>[];
  /** The stated choice, title and decision text, where the record argues for or against an option. */
  decision: string;
}

/** A candidate with its place in the list. */
interface Indexed {
  c: Candidate;
  i: number;
}

/** "(SSE)": an acronym in parentheses; the long form is read from the words before it (no backtracking over text). */
const ACRONYM_IN_PARENS = /\(([A-Z][A-Za-z]?[A-Z]{1,5}s?)\)/g;
/** The long form is at most this many words, read from at most this many characters before the parenthesis. */
const LONG_FORM_WORDS = 6;
const LONG_FORM_CHARS = 80;
/** A record defines a handful of acronyms; past this many, the rest are not expanded. */
const MAX_ACRONYMS = 24;

/** The acronyms a text defines ("Server-sent events (SSE)"), each with its long form: the fewest last words whose initials spell it. */
export function acronymsDefined(text: string): Map<string, string> {
  const out = new Map<string, string>();
  const body = text.slice(0, 20_000);
  for (const m of body.matchAll(ACRONYM_IN_PARENS)) {
    if (out.size >= MAX_ACRONYMS) break;
    const acronym = m[1].replace(/s$/, "");
    if (out.has(acronym)) continue;
    const before = body.slice(Math.max(0, m.index! - LONG_FORM_CHARS), m.index!).trimEnd();
    const words = before.split(/\s+/).slice(-LONG_FORM_WORDS).filter((w) => /^[A-Za-z][\w'-]*$/.test(w));
    for (let k = 1; k <= words.length; k++) {
      const tail = words.slice(-k);
      const initials = tail.flatMap((w) => w.split("-")).filter(Boolean).map((w) => w[0]).join("");
      if (initials.toLowerCase() === acronym.toLowerCase()) {
        out.set(acronym, tail.join(" "));
        break;
      }
      if (initials.length > acronym.length) break;
    }
  }
  return out;
}

const acronymCache = new WeakMap<AdrDoc, Map<string, string>>();
/** A record's acronyms, read once per record however many times its choice is read. */
function acronymsOf(doc: AdrDoc): Map<string, string> {
  let found = acronymCache.get(doc);
  if (!found) {
    found = acronymsDefined(doc.allText);
    acronymCache.set(doc, found);
  }
  return found;
}

/** The text with each acronym the record defines followed by its long form, so an option named either way is found. */
function withLongForms(text: string, acronyms: Map<string, string>): string {
  if (!text || !acronyms.size) return text;
  let out = text;
  for (const [acronym, long] of acronyms) out = out.replace(new RegExp(`\\b${acronym}s?\\b(?!\\s*\\))`, "g"), (a) => `${a} (${long})`);
  return out;
}

function readChoice(doc: AdrDoc, candidates: Candidate[], question: string): ChoiceReading {
  const acronyms = acronymsOf(doc);
  const choice = withLongForms(describedChoice(doc), acronyms);
  const rest = doc.items.filter((e) => !/decision|outcome/.test(e.adr?.section ?? "")).map((e) => e.excerpt).join("\n");
  const fields: [string, number][] = [
    [choice, 3],
    [withLongForms(doc.meta.title, acronyms), 2],
    [withLongForms(doc.decisionText || doc.allText.slice(0, 1500), acronyms), 1],
    // The other retrieved sections say less about the choice, but still something.
    [withLongForms(doc.decisionText ? rest : "", acronyms), 0.5],
  ];
  const fieldStems = fields.map(([t]) => tokenStems(t, true));
  const decision = withLongForms(`${choice}\n${doc.meta.title}\n${doc.decisionText}`, acronyms);
  return { doc, candidates, question, choice, fields, fieldStems, decision };
}

/**
 * The record's stated choice, and when that choice is only the record's own name (the whole of its title, "Mempool
 * QoS", or of its file name, "PlacementV2" in 20251022-placementV2.md), what its title and file name say it is:
 * "Consolidate Placement into Scheduler", "mempool lanes". A record that chose itself is described by its headline.
 * A choice that is part of the title ("Reactor-netty" in "Reactor-netty adoption for JMAP") names one option.
 */
function describedChoice(doc: AdrDoc): string {
  const choice = stated(doc) ?? "";
  const letters = (t: string) => t.toLowerCase().replace(/[^a-z]/g, "");
  const own = letters(choice);
  const file = letters((doc.path.split("/").pop() ?? "").replace(/\.[a-z]+$/i, ""));
  const itself = own.length >= OWN_NAME_LETTERS && (own === letters(doc.meta.title) || file.endsWith(own));
  return itself ? `${choice} (${doc.meta.title}; ${slugWords(doc.path).trim()})` : choice;
}

/** A name shorter than this is too likely to end a file name by chance ("api" in "unified-api"). */
const OWN_NAME_LETTERS = 6;

/**
 * Each distinctive word counts once, at the weight of the most telling field it appears in; naming the option
 * outright (its whole name) counts twice that field's weight.
 */
function fieldScore(r: ChoiceReading, d: Set<string>, key: OptionKey, c?: Candidate): number {
  let score = 0;
  for (const s of d) {
    const w = Math.max(0, ...r.fields.map(([, fw], f) => (holdsStem(r.fieldStems[f], s, c?.title ?? "") ? fw : 0)));
    score += w;
  }
  const primary = primaryKey(key);
  // A name every other option also carries ("Keep Redis" / "Move Redis to a managed cache") tells them apart no more
  // than the words they share do.
  const others = c ? r.candidates.filter((x) => x !== c && x.key.terms.length && !x.inverse) : [];
  if (others.length && others.every((x) => mentions(x.title, primary))) return score;
  score += 2 * Math.max(0, ...r.fields.map(([text, fw]) => (mentions(text, primary) ? fw : 0)));
  return score;
}

/**
 * The record lists its options and chose one; the alternative shares more of its distinctive words with another
 * of those options than with the chosen one: the record weighed it under that name and did not take it.
 */
function weighedAsAnother(meta: AdrMeta, distinct: Set<string>): boolean {
  const chosen = listedModelChoice(meta);
  const considered = meta.considered_options.slice(0, MAX_ALIGNED_OPTIONS);
  const chosenAt = chosen ? considered.indexOf(chosen) : -1;
  if (chosenAt < 0 || considered.length < 2 || distinct.size === 0) return false;
  const stems = considered.map((o) => tokenStems(o, false));
  const shared = stems.map((st) => [...distinct].filter((w) => st.has(w)).length);
  const best = Math.max(...shared);
  const bestAt = shared.indexOf(best);
  // One shared word ("request" in "a request-oriented design") is a coincidence unless it is the option's whole name.
  const named = best >= 2 || (best === 1 && [...stems[bestAt].keys()].every((w) => distinct.has(w) || FRAME_STEMS.has(w) || VAGUE.has(w)));
  return named && bestAt !== chosenAt && shared.filter((n) => n === best).length === 1 && shared[chosenAt] < best;
}

/** Prefixes that turn a word into its opposite: "immutable" / "mutable", "unsigned" / "signed", "insecure" / "secure". */
const NEGATING_PREFIX = /^(?:im|in|un|non|dis)-?(?=[a-z]{4})/;
/** Only describing words take such a prefix ("information" is no negated "formation"). */
const NEGATABLE = /(?:able|ible|ed|ure|ive|ent|ant|al|ful)$/;
/** "mutability", "mutable" → "mut"; "encrypted" → "encrypt". */
function adjectiveRoot(w: string): string {
  return w.replace(/(?:ability|ibility|able|ible|ities|ity|ed|e|s)$/, "");
}

/** Words that put something on the side of what exists ("the cluster the API already uses") or of a new one ("a cluster of its own"). */
const REUSE_WORDS = /\b(?:existing|already|current(?:ly)?|same|shared|reuse[sd]?|reusing)\b/i;
const NEW_WORDS = /\b(?:another|new|separate|dedicated|its own|their own|own)\b/i;

/** Whether two labels name the same kind of thing (a word of four letters or more, other than the side words). */
function sharesThing(a: string, b: string): boolean {
  const words = (t: string) => new Set(contentWords(t).filter((w) => w.length >= 4 && !REUSE_WORDS.test(w) && !NEW_WORDS.test(w) && !FRAME_STEMS.has(w)).map(stemWord));
  const wa = words(a);
  return [...words(b)].some((w) => wa.has(w));
}

/** Whether a choice reuses what is there or makes a new one; undefined when it says neither (or both). */
function reuseSide(text: string): "reuse" | "new" | undefined {
  const [reuse, fresh] = [REUSE_WORDS.test(text), NEW_WORDS.test(text)];
  return reuse === fresh ? undefined : reuse ? "reuse" : "new";
}

/**
 * The record chose the opposite of this option: a describing word of one is a word of the other with a negating
 * prefix ("make tags immutable" against "enable tag mutability"), or one reuses what exists where the other makes a
 * new one ("provision another cluster" against "add the tables to the cluster the API already uses").
 */
export function oppositeOfChoice(choice: string | undefined, title: string): boolean {
  if (!choice) return false;
  const [chosenSide, titleSide] = [reuseSide(choice), reuseSide(title)];
  if (chosenSide && titleSide && chosenSide !== titleSide && sharesThing(choice, title)) return true;
  if (deniesWhatOtherHas(title, choice) || deniesWhatOtherHas(choice, title)) return true;
  const words = (t: string) => t.toLowerCase().split(/[^a-z]+/).filter((w) => w.length >= 5);
  const negated = (w: string) => NEGATING_PREFIX.test(w) && NEGATABLE.test(w);
  const opposed = (a: string, b: string) => negated(a) && !negated(b) && adjectiveRoot(a.replace(NEGATING_PREFIX, "")).length >= 3 && adjectiveRoot(a.replace(NEGATING_PREFIX, "")) === adjectiveRoot(b);
  const chosen = words(choice);
  return words(title).some((w) => chosen.some((c) => opposed(w, c) || opposed(c, w)));
}

/** After "no", "without", "not": words that are no thing of their own ("no longer", "no more", "not only"). */
const NOT_A_THING = new Set(["longer", "more", "less", "only", "just", "need", "matter", "other", "doubt", "point", "way", "change", "changes", "action", "option", "one"]);

/** The things a label says there is none of: "keep no database of our own", "without a local cache" → database, cache. */
function deniedThings(label: string): Set<string> {
  const out = new Set<string>();
  const re = /\b(?:no|without|not|never)\s+((?:[a-z0-9-]+\s+){0,2}[a-z0-9-]+)/g;
  for (const m of normaliseAbbreviations(label).matchAll(re)) {
    for (const w of words(m[1])) {
      if (NOT_A_THING.has(w)) break;
      if (w.length >= 4 && !FRAME_STEMS.has(stemWord(w))) {
        out.add(stemWord(w));
        break;
      }
    }
  }
  return out;
}

/** `a` says there is none of a thing `b` has ("keep no database of our own" against "use a local datastore"). */
function deniesWhatOtherHas(a: string, b: string): boolean {
  const denied = deniedThings(a);
  if (!denied.size) return false;
  const deniedInB = deniedThings(b);
  const has = new Set(words(b).map(stemWord));
  return [...denied].some((w) => has.has(w) && !deniedInB.has(w));
}

/** The title names this candidate (in the singular or the plural) and no other named one. */
function titleNamesOnly(title: string, c: Candidate, candidates: Candidate[]): boolean {
  const singular = title.replace(/(?<=[a-z]{3})s\b/gi, "");
  const names = (x: Candidate) => x.key.terms.length > 0 && !x.inverse && (mentions(title, x.key) || mentions(singular, x.key));
  return names(c) && !candidates.some((x) => x !== c && names(x));
}

/**
 * The decision's sentence most about what a proposal does names the record's own choice doing it, and not the
 * proposal: "Continue to use GitHub Actions for CI. CodePipeline will build the Docker image and deploy it" did
 * not choose "GitHub Actions builds and deploys the images", though it endorses GitHub Actions for something else.
 */
function otherDoesIt(decision: string, distinct: Set<string>, key: OptionKey, choice: string): boolean {
  const what = [...distinct].filter((w) => !primaryKey(key).terms.some((t) => t.includes(w)));
  let best = "";
  let most = 1;
  for (const sentence of decision.split(/(?<=[.!?])\s+/)) {
    const st = tokenStems(sentence, false);
    const held = what.filter((w) => st.has(w)).length;
    if (held > most) [best, most] = [sentence, held];
  }
  return !!best && mentions(best, keyFor(choice)) && !mentions(best, primaryKey(key));
}

/** How clearly the record chose candidate i; 0 when it did not choose it. */
function choiceScore(r: ChoiceReading, c: Candidate, i: number): number {
  const { candidates, question, choice, doc } = r;
  if (!c.key.terms.length) return 0;
  const d = distinctive(c, candidates, question);
  const key = sharpKey(c.key, question);
  // MADR: an option the record weighed and did not choose is not its choice; unless the title names it, and no other
  // option ("… garbage collection with bloom filters" beside "the Bloom Filter approach with Apache Spark"): then the
  // weighed option is one way of doing what the record chose.
  if (choice && doc.meta.considered_options.some((o) => mentions(o, key)) && !mentions(choice, key) && !titleNamesOnly(doc.meta.title, c, candidates)) return 0;
  // Nor, when the question names one alternative, is one the record weighed under a name of its own ("write the
  // schema in SDL first" is its "Schema First"): two named alternatives are matched to its options one-to-one
  // instead (alignedChoice). Nor is the opposite of what it chose ("make tags immutable" against "enable tag
  // mutability").
  const named = candidates.filter((x) => x.key.terms.length && !x.inverse && x.origin !== "incumbent" && x.origin !== "keep").length;
  if ((named < 2 && weighedAsAnother(doc.meta, d)) || oppositeOfChoice(modelChoice(doc.meta) ?? choice, c.title)) return 0;
  // A question naming one thing, and a record that names its choice by a short name that is none of the options:
  // it chose something else, and an option is its choice only when the decision endorses it by its whole name, not
  // by a word it shares with the record ("compliance" of "Compliance Trestle" in "track the compliance work in
  // spreadsheets"). Two named alternatives are phrases the record words its own way, and a clause read from prose
  // ("all implementations will be changed") names nothing: both are still matched by their words.
  if (named < 2 && namedElsewhere(choice, candidates) && polarityIn(r.decision, primaryKey(key)) <= 0) return 0;
  // What is in place today is mentioned everywhere; a record chose it only when its stated choice names it, or
  // when it also weighs the alternative the question proposes.
  const staysPut = c.origin === "incumbent" || /^(?:keep|stay|remain|stick|continue|leave)\b/i.test(c.title);
  const weighsOthers = candidates.some((x) => x !== c && x.key.terms.length && !x.inverse && mentions(doc.allText, x.key));
  if (staysPut && !c.inverse && !weighsOthers) return 0;
  let score = fieldScore(r, d, key, c);
  const pol = polarityIn(r.decision, key);
  if (pol > 0) score += 2;
  // A proposal is chosen only when the decision endorses it, not merely when it shares the question's words.
  if (c.proposal && pol <= 0 && !(choice && mentions(choice, key) && polarityIn(choice, key) >= 0)) return 0;
  if (c.proposal && choice && !mentions(choice, key) && otherDoesIt(r.decision, d, key, choice)) return 0;
  // "Drop X" is chosen when the decision argues against X; "Keep X" when it does not.
  const pair = candidates.find((x, j) => j !== i && !!x.inverse !== !!c.inverse && x.key.terms.join("|") === c.key.terms.join("|"));
  if (pair && c.inverse) score = fieldScore(r, distinctive(pair, candidates, question), sharpKey(pair.key, question));
  if (pair) return c.inverse ? (pol < 0 ? score : 0) : pol < 0 ? 0 : score;
  return pol < 0 ? 0 : score;
}

/** The record names its choice by a short name, and that name is none of the options. */
function namedElsewhere(choice: string, candidates: Candidate[]): boolean {
  if (!choice || !nounLike(bareChoice(choice))) return false;
  return !candidates.some((x) => x.key.terms.length > 0 && mentions(choice, x.key));
}

/** Whether the record's title or decision negates this verb ("Do not emphasize …", "Disable fetch …"). */
function negatesVerb(doc: AdrDoc, verb: string): boolean {
  const root = stemWord(verb.toLowerCase()).replace(/^re(?=[a-z]{4})/, "").replace(/[^a-z]/g, "");
  if (root.length < 3) return false;
  const re = new RegExp(`\\b(?:do not|don't|never|not|avoid|stop|no longer|against|disable|disabling|turn off|remove)\\s+(?:\\w+\\s+){0,2}?(?:re)?${root}`, "i");
  return re.test(`${doc.meta.title}\n${doc.decisionText}`);
}

function negatedVerbChoice(r: ChoiceReading): ChoiceMatch | undefined {
  const { doc, candidates } = r;
  // "Should we emphasize line headings?" answered by "Do not emphasize line headings": a decision that negates the
  // proposal's own verb keeps things as they are.
  const proposal = candidates.findIndex((c) => c.proposal);
  const keepIndex = candidates.findIndex((c) => c.origin === "keep" || c.origin === "incumbent");
  if (proposal >= 0 && keepIndex >= 0 && negatesVerb(doc, candidates[proposal].title.split(/\s+/)[0])) return { index: keepIndex, score: 3, margin: 3 };
  // "Keep refetching on focus?" answered by "Disable fetch on focus": the kept activity's verb is negated.
  const keptActivity = candidates.findIndex((c) => c.origin === "incumbent" && /^Keep \w+ing\b/.test(c.title));
  const stopper = candidates.findIndex((c) => c.inverse);
  if (keptActivity >= 0 && stopper >= 0 && negatesVerb(doc, candidates[keptActivity].title.split(/\s+/)[1])) return { index: stopper, score: 3, margin: 3 };
  return undefined;
}

/**
 * "Keep X or move to Y?" answered by "we will stop publishing X": of two options, a record that argues against
 * one — what is in place today, or the one its title names ("Disable Elasticsearch dynamic mapping") — chose the other.
 */
function arguedAgainstChoice(r: ChoiceReading, real: Indexed[], scores: number[]): ChoiceMatch | undefined {
  if (real.length !== 2) return undefined;
  const { doc, candidates, question, choice, decision } = r;
  const [a, b] = real;
  // The option's own words count too: "e2e tests will avoid … an actual cluster creation" argues against "Spin up a
  // real HPC cluster" without naming it.
  const loose = (x: Indexed): OptionKey => ({ terms: [...distinctive(x.c, candidates, question)].filter((w) => w.length >= 4 && !/[\s-]/.test(w) && !FRAME_STEMS.has(w)) });
  const against = (x: Indexed) => polarityIn(decision, sharpKey(x.c.key, question)) < 0 || (decisionSays(doc, loose(x)) && polarityIn(doc.decisionText, loose(x)) < 0);
  const weighedNotChosen = (x: Indexed) => {
    const key = sharpKey(x.c.key, question);
    return !!choice && doc.meta.considered_options.some((o) => mentions(o, key)) && !mentions(choice, key);
  };
  const headlined = (x: Indexed) => x.c.origin === "incumbent" || /^(?:keep|stay|remain|stick|continue)\b/i.test(x.c.title) || mentions(`${doc.meta.title}\n${choice}`, primaryKey(x.c.key));
  for (const [neg, other] of [
    [a, b],
    [b, a],
  ] as const) {
    const argued = decisionSays(doc, loose(neg)) && polarityIn(doc.decisionText, loose(neg)) < 0;
    // The other option is no choice by elimination when the record weighed it too and chose a third thing.
    if (weighedNotChosen(other)) continue;
    if (against(neg) && !against(other) && (argued || (headlined(neg) && scores[other.i] >= scores[neg.i]))) {
      // A title that argues against an option by name is as clear a decision as a record gets.
      const titled = mentions(doc.meta.title, primaryKey(sharpKey(neg.c.key, question)));
      return { index: other.i, score: Math.max(titled ? 6 : 3, scores[other.i]), margin: 3 };
    }
  }
  return undefined;
}

/** "Dual license with MIT and CC0" names two options at once: the option that says "both" is the choice. */
function bothChoice(r: ChoiceReading, real: Indexed[]): ChoiceMatch | undefined {
  if (!r.choice) return undefined;
  const named = real.filter(({ c }) => mentions(r.choice, sharpKey(c.key, r.question)));
  const both = r.candidates.findIndex((c) => /\b(?:both|all of them|all three|a combination|combined)\b/i.test(c.title));
  return named.length >= 2 && both >= 0 ? { index: both, score: 6, margin: 6 } : undefined;
}

/**
 * "Keep dot ids or switch to FQCN ids?" where the record weighed each and chose "Combine dot ids with FQCN aliases":
 * its chosen option, one of three or more it listed, names two or more of the alternatives. The record decided the
 * question for that combination, which no alternative is.
 */
function combinationChoice(r: ChoiceReading, real: Indexed[]): ChoiceMatch | undefined {
  const chosen = listedModelChoice(r.doc.meta);
  if (!chosen || real.length < 2 || r.doc.meta.considered_options.length < 3) return undefined;
  const said = tokenStems(chosen, true);
  // A hyphenated name's parts count too ("dot-notation ids" is the record's "dot notation"), those of one
  // alternative only.
  const parts = real.map((x) => new Set([...distinctive(x.c, r.candidates, r.question), ...tokenStems(x.c.title, true).keys()].filter((w) => !FRAME_STEMS.has(w) && !VAGUE.has(w))));
  const named = real.filter((_, k) => [...parts[k]].some((w) => said.has(w) && parts.every((p, j) => j === k || !p.has(w))));
  return named.length >= 2 ? { index: -1, score: MIN_CHOICE_SCORE + 3, margin: MIN_CHOICE_SCORE + 3, other: chosen } : undefined;
}

/** How much one shared non-distinctive word weighs against a distinctive one: enough to break a tie, never more. */
const TIE_WEIGHT = 0.01;
/** At most this many of a record's considered options take part in aligning (its list order puts the main ones first). */
const MAX_ALIGNED_OPTIONS = 8;

/**
 * The record weighed the question's alternatives under its own names ("the github.io URL" / "a custom domain") and
 * its decision model says which it chose. Each alternative is at most one of the record's options and no two
 * alternatives are the same option, so the alternatives are matched to the considered options one-to-one, maximising
 * the distinctive words they share: an alternative whose words also touch the chosen option is still told apart when
 * another alternative is plainly that option. The alternative matched to the chosen option is the record's choice.
 * Needs two alternatives matched (so the record is known to have weighed this very question) and every best matching
 * to agree on which alternative is the chosen one.
 */
function alignedChoice(r: ChoiceReading, real: Indexed[], scores: number[]): ChoiceMatch | undefined {
  const meta = r.doc.meta;
  const chosenName = listedModelChoice(meta);
  const considered = meta.considered_options.slice(0, MAX_ALIGNED_OPTIONS);
  if (!chosenName || considered.length < 2 || real.length < 2) return undefined;
  const chosenAt = considered.indexOf(chosenName);
  if (chosenAt < 0) return undefined;
  const stems = considered.map((o) => tokenStems(o, true));
  // Distinctive words decide; all the title's words only break a tie ("Prettier-ESLint with Airbnb code style" is
  // nearer the option of that very name than "ESLint with Airbnb code style", though "prettier" is in both alternatives).
  const shared = real.map((x) => {
    const d = [...distinctive(x.c, r.candidates, r.question)];
    const all = [...tokenStems(x.c.title, true).keys()];
    return stems.map((st) => {
      const n = d.filter((w) => st.has(w)).length;
      return n === 0 ? 0 : n + TIE_WEIGHT * all.filter((w) => st.has(w)).length;
    });
  });
  const best = bestMatchings(shared, considered.length);
  if (!best || best.matched < 2) return undefined;
  const picks = new Set(best.assignments.map((a) => a.indexOf(chosenAt)));
  if (picks.size !== 1) return undefined;
  const at = [...picks][0];
  if (at < 0) return undefined;
  const index = real[at].i;
  const score = Math.max(scores[index], MIN_CHOICE_SCORE) + 3;
  const rival = Math.max(0, ...real.filter((x) => x.i !== index).map((x) => scores[x.i]));
  return { index, score, margin: Math.max(MIN_CHOICE_SCORE, score - rival) };
}

/**
 * Every one-to-one matching of rows (alternatives) to columns (options) with the greatest total of shared words;
 * a row may stay unmatched (-1), and only a pair sharing a word is matched. `matched`: pairs in a best matching.
 */
export function bestMatchings(shared: number[][], columns: number): { assignments: number[][]; matched: number } | undefined {
  let bestTotal = 0;
  let assignments: number[][] = [];
  const current: number[] = [];
  const used = new Set<number>();
  const walk = (row: number, total: number) => {
    if (row === shared.length) {
      if (total > bestTotal + 1e-9) {
        bestTotal = total;
        assignments = [];
      }
      if (Math.abs(total - bestTotal) < 1e-9 && total > 0) assignments.push([...current]);
      return;
    }
    current.push(-1);
    walk(row + 1, total);
    current.pop();
    for (let k = 0; k < columns; k++) {
      if (used.has(k) || shared[row][k] < 1) continue;
      used.add(k);
      current.push(k);
      walk(row + 1, total + shared[row][k]);
      current.pop();
      used.delete(k);
    }
  };
  walk(0, 0);
  if (!assignments.length) return undefined;
  return { assignments, matched: Math.min(...assignments.map((a) => a.filter((k) => k >= 0).length)) };
}

/**
 * The record's stated choice names one option far more than the others: that option is what it chose, whatever
 * its title and context say about the rest (a "Session Store Cache" record that chose "a write-through cache in
 * front of Postgres" chose the cache, not the Postgres sharding its context also weighs). Counts each option's
 * distinctive words in the stated choice alone; the winner needs two of them and twice the next option's count, and
 * must be an option the record could choose at all.
 */
function statedChoice(r: ChoiceReading, real: Indexed[], scores: number[]): ChoiceMatch | undefined {
  if (real.length < 2) return undefined;
  // The decision model's reading first, then the choice read from the retrieved decision section.
  for (const said of [modelChoice(r.doc.meta), r.choice]) {
    // Two words at least: one shared word ("queue") is as often a misread choice as a named option.
    // What a change leads to is named by its own words: one distinctive word of an option there is enough.
    const to = said && changedTo(said);
    const m = to ? choiceNamedIn(to, r, real, scores, 1) : said ? choiceNamedIn(said, r, real, scores, 2) : undefined;
    if (m) return m;
  }
  return undefined;
}

/** "Rename metric Handles to Bound Instruments", "Replace X with Y", "Move from X to Y": a choice of a change names what it changes to. */
const CHANGE_TO = /^(?:rename|renaming|replace|replacing|migrate|migrating|move|moving|switch|switching|change|changing)\b.{1,80}?\s(?:to|with)\s+(.{2,80})$/i;
const changedTo = (said: string) => CHANGE_TO.exec(said.trim())?.[1];

function choiceNamedIn(text: string, r: ChoiceReading, real: Indexed[], scores: number[], minHits: number): ChoiceMatch | undefined {
  const said = tokenStems(text, true);
  const hits = real
    .map((x) => {
      const d = [...distinctive(x.c, r.candidates, r.question)];
      return { x, n: d.filter((w) => holdsStem(said, w, x.c.title)).length, size: d.length };
    })
    .sort((a, b) => b.n - a.n || a.x.i - b.x.i);
  const [best, next] = hits;
  // An option with fewer distinctive words than that ("Remove it altogether") is named when all of them are said.
  if (best.n < Math.min(minHits, best.size) || best.n === 0 || best.n < 2 * next.n || scores[best.x.i] <= 0) return undefined;
  const score = Math.max(scores[best.x.i], MIN_CHOICE_SCORE) + 3;
  const rival = Math.max(0, ...real.filter((x) => x !== best.x).map((x) => scores[x.i]));
  return { index: best.x.i, score, margin: Math.max(MIN_CHOICE_SCORE, score - rival) };
}

/** The best-scoring candidate, when it scores enough and strictly ahead of the next; ties go to neither. */
function bestChoice(scores: number[]): ChoiceMatch | undefined {
  const order = scores.map((s, i) => ({ s, i })).sort((a, b) => b.s - a.s || a.i - b.i);
  if (!order.length || order[0].s < MIN_CHOICE_SCORE) return undefined;
  const margin = order[0].s - (order[1]?.s ?? 0);
  if (margin <= 0) return undefined;
  return { index: order[0].i, score: order[0].s, margin };
}

/**
 * Which candidate a decision record chose: each candidate's distinctive words are looked for in the record's
 * chosen option (weight 3), title (2) and decision text (1); a phrase of the option's key counts once more per
 * field; an option the decision argues against scores nothing. "Keep X" / "Drop X" pairs are told apart by the
 * decision's stance toward X. A decision that negates an option's verb, or argues against one of two options,
 * settles it before the scores do.
 */
function matchChoice(doc: AdrDoc, candidates: Candidate[], question = ""): ChoiceMatch | undefined {
  const r = readChoice(doc, candidates, question);
  const scores = candidates.map((c, i) => choiceScore(r, c, i));
  const real = candidates.map((c, i) => ({ c, i })).filter(({ c }) => c.key.terms.length && !c.inverse);
  return negatedVerbChoice(r) ?? arguedAgainstChoice(r, real, scores) ?? bothChoice(r, real) ?? alignedChoice(r, real, scores) ?? combinationChoice(r, real) ?? sideChoice(r, real) ?? statedChoice(r, real, scores) ?? bestChoice(scores);
}

/**
 * "Add its tables to the cluster the API already uses, or give the runner a cluster of its own?" where the record
 * chose "provision another cluster": of two alternatives about the same thing, one reusing what exists and one making
 * a new one, the record chose the one on its own side. The words they share with the record ("cluster", the
 * service's name) tell them apart less well than that side does.
 */
function sideChoice(r: ChoiceReading, real: Indexed[]): ChoiceMatch | undefined {
  const chosen = modelChoice(r.doc.meta) ?? r.choice;
  const side = chosen ? reuseSide(chosen) : undefined;
  if (!chosen || !side || real.length !== 2) return undefined;
  const same = real.filter(({ c }) => reuseSide(c.title) === side && sharesThing(chosen, c.title));
  const opposite = real.filter(({ c }) => oppositeOfChoice(chosen, c.title));
  return same.length === 1 && opposite.length === 1 && same[0] !== opposite[0] ? { index: same[0].i, score: SIDE_CHOICE_SCORE, margin: SIDE_CHOICE_SCORE } : undefined;
}

/** A choice read from which side of reuse-or-new a record took: a clear decision, as clear as a stated choice. */
const SIDE_CHOICE_SCORE = 4;

// ---------------------------------------------------------------------------------------------------------
// Stances

/** Per option and per source (ADR file, rule line, commit), only the strongest stance counts and is cited. */
function scoreCandidate(c: Candidate, evidence: FusedEvidence[], inScope: (e: FusedEvidence) => boolean): Omit<Scored, "id"> {
  const best = new Map<string, { e: FusedEvidence; s: Stance }>();
  if (c.key.terms.length) {
    for (const e of evidence) {
      const raw = stanceOf(e, c.key);
      if (!raw) continue;
      const read: Stance = c.inverse ? { ...raw, polarity: raw.polarity === 1 ? -1 : 1, why: raw.polarity === 1 ? raw.why.replace(/favours it|chose it|describes it as current practice/, "keeps it") : raw.why } : raw;
      const s = inScope(e) ? read : { ...read, weight: round2(read.weight * OUT_OF_SCOPE_WEIGHT), why: `${read.why} (elsewhere in the codebase)` };
      const source = `${e.adr?.path ?? e.commit ?? `${e.path_or_url}:${e.line_range?.start ?? ""}`}|${s.polarity}`;
      const prev = best.get(source);
      if (!prev || s.weight > prev.s.weight || (s.weight === prev.s.weight && e.rank < prev.e.rank)) best.set(source, { e, s });
    }
  }
  const all = [...best.values()].sort((a, b) => b.s.weight - a.s.weight || a.e.rank - b.e.rank);
  const supports = all.filter((x) => x.s.polarity === 1);
  const dissent = all.filter((x) => x.s.polarity === -1);
  // Analogies from elsewhere in the codebase add, together, at most a bounded nudge on each side.
  const weigh = (list: typeof all) =>
    list.filter((x) => inScope(x.e)).reduce((n, x) => n + x.s.weight, 0) + Math.min(OUT_OF_SCOPE_CAP, list.filter((x) => !inScope(x.e)).reduce((n, x) => n + x.s.weight, 0));
  return { ...c, supports, dissent, net: round2(weigh(supports) - weigh(dissent)) };
}

// ---------------------------------------------------------------------------------------------------------
// The deciding artifact

interface Decider {
  kind: "adr" | "rule";
  /** The candidate it chose. */
  index: number;
  /** The evidence item cited for the decision (the record's decision section, or the rule line). */
  cite: FusedEvidence;
  label: string;
  status?: string;
  /** The status as a reader sees it ("no status line", never "unknown"). */
  statusText?: string;
  /** The record's own chosen option (its decision model) is the option recommended. */
  followsRecord?: boolean;
  /** Set when the question's best-ranked record was superseded and this is its successor. */
  supersedes?: AdrDoc;
  score: number;
  margin: number;
  /** Other deciding artifacts that chose differently. */
  conflicts: string[];
  /** Other on-topic records whose decisions name the same option. */
  agreeing: FusedEvidence[];
  /** The most the answer may claim: set when the record was found by its subject, not matched to a named option. */
  cap?: Level;
  /** Where retrieval ranked it (or the record it supersedes) among the records found, from 0 (0: above every other). */
  position?: number;
  /** The record states no choice: what is recommended is its design, as its title names it. */
  byDesign?: true;
  /** The record proposed what the question proposes, and was rejected: its decision is to keep what is in place. */
  refused?: string;
  /** The record weighed what the question proposes (this option of its own) and chose otherwise. */
  turnedDown?: string;
  /** The record weighed this option the question names and chose another of its own, the one recommended. */
  choseOver?: string;
  /** A decision source's record that chose another option, which the repository's own record overrides. */
  deviatesFrom?: { label: string; chose: string };
}

/** The sentence that names a local deviation from a decision source's record (the model path repeats it). */
function deviationSentence(d: { label: string; chose: string }): string {
  return `It deviates from ${d.label}, which chose "${d.chose}"; ${DEVIATION_TAIL}`;
}
const DEVIATION_TAIL = "the repository's own record counts here, so the two disagree on purpose.";

/** The deviation sentence of a rules rationale, if it has one. */
export function deviationIn(rationale: string): string | undefined {
  const end = rationale.indexOf(DEVIATION_TAIL);
  if (end < 0) return undefined;
  const start = rationale.lastIndexOf("It deviates from ", end);
  return start < 0 ? undefined : rationale.slice(start, end + DEVIATION_TAIL.length);
}

/** The decision source a record came from (src/core/sources/), or "" for the repository's own. */
function originOf(doc: AdrDoc): string {
  return doc.items[0]?.decision_source?.name ?? "";
}

/** A record's name as the answer says it: a source's record names its source. */
function deciderName(doc: AdrDoc): string {
  const origin = originOf(doc);
  return origin ? `${recordName(doc.meta)} from ${origin}` : recordName(doc.meta);
}

function decisionItem(doc: AdrDoc): FusedEvidence {
  return doc.items.find((e) => /decision|outcome/.test(e.adr?.section ?? "")) ?? doc.items[0];
}

/** The active successor of a superseded record among the retrieved ones, following chains (A → B → C). */
function successorOf(doc: AdrDoc, byPath: Map<string, AdrDoc>): AdrDoc | undefined {
  let cur: AdrDoc | undefined = doc;
  const seen = new Set<string>();
  while (cur && !cur.active && !seen.has(cur.path)) {
    seen.add(cur.path);
    const next: AdrDoc | undefined = cur.meta.superseded_by.map((p) => byPath.get(p)).find((d): d is AdrDoc => !!d);
    if (!next) return undefined;
    cur = next;
  }
  return cur && cur.active ? cur : undefined;
}

/** Files that prescribe how the codebase is built (AGENTS.md, CLAUDE.md, Copilot instructions, CONTRIBUTING.md). */
const RULE_TYPES = new Set(["agent-instructions", "contributing"]);

/**
 * Whether a later record can be the answer to an earlier one: its title shares the earlier one's subject, or it
 * names what the earlier one chose. A record on branch names that praises a tool does not reverse the record that
 * turned the tool down.
 */
function answersTo(later: AdrDoc, earlier: AdrDoc): boolean {
  // The folder both live in ("docs/decisions") says nothing about either's subject.
  const a = later.path.split("/");
  const b = earlier.path.split("/");
  let common = 0;
  while (common < Math.min(a.length, b.length) - 1 && a[common] === b[common]) common++;
  const folder = stems(a.slice(0, common).join(" ").replace(/[-_.]+/g, " "));
  const subject = (d: AdrDoc) => new Set([...stems(`${d.meta.title} ${slugWords(d.path)}`)].filter((w) => !folder.has(w)));
  const mine = subject(later);
  if ([...subject(earlier)].some((w) => mine.has(w))) return true;
  const choice = stated(earlier) ?? modelChoice(earlier.meta);
  return !!choice && keyFor(choice).terms.length > 0 && mentions(later.allText, primaryKey(keyFor(choice)));
}

/** Words of a sentence that turns away from what it links to ("supersedes", "replaces", "no longer", "instead of"). */
const REVERSAL_CUE = /\b(?:supersed\w*|replac\w*|revers\w*|overrul\w*|instead|no longer|deprecat\w*|revis\w*|amend\w*|undo\w*|undoes|revert\w*|retir\w*|abandon\w*|drop\w*|obsolete\w*|moves? away|move off|migrat\w*)\b/i;

/**
 * Whether a later record builds on an earlier one rather than reversing it: it links to the earlier record's file in
 * a sentence with no word of reversal ("abstracted through the [Code-First approach](./adr004-….md)"). A record that
 * reverses another says so where it links to it.
 */
function buildsOn(later: AdrDoc, earlier: AdrDoc): boolean {
  const file = earlier.path.split("/").pop()!.replace(/\.(?:md|markdown|rst|adoc|txt)$/i, "");
  if (file.length < 4) return false;
  const text = later.allText;
  let at = text.indexOf(file);
  let linked = false;
  for (let n = 0; at >= 0 && n < 20; n++, at = text.indexOf(file, at + file.length)) {
    // The sentence around the link: from the previous full stop or paragraph break to the next (300 characters at most).
    const start = Math.max(text.lastIndexOf(". ", at), text.lastIndexOf("\n\n", at), at - 300, 0);
    const ends = [text.indexOf(". ", at), text.indexOf("\n\n", at)].filter((i) => i >= 0);
    const end = Math.min(...ends, at + 300, text.length);
    if (REVERSAL_CUE.test(text.slice(start, end))) return false;
    linked = true;
  }
  return linked;
}

/** Whether record a was written after record b: by date, else by the number or date in its file name. */
function newer(a: AdrDoc, b: AdrDoc): boolean {
  // A source's record is never the successor of the repository's own (or the reverse): they are different logs.
  if (originOf(a) !== originOf(b)) return false;
  const ka = sequenceKey(a);
  const kb = sequenceKey(b);
  return !!ka && !!kb && ka.kind === kb.kind && ka.value > kb.value;
}

function sequenceKey(d: AdrDoc): { kind: string; value: string } | undefined {
  if (d.meta.date && /^\d{4}-\d{2}-\d{2}/.test(d.meta.date)) return { kind: "date", value: d.meta.date.slice(0, 10) };
  const name = d.path.split("/").slice(-2).join("/");
  const date = /(\d{4})-?(\d{2})-?(\d{2})/.exec(name);
  if (date) return { kind: "date", value: `${date[1]}-${date[2]}-${date[3]}` };
  const num = /(?:^|\/|adr-?)(\d{1,5})[-_.]/i.exec(name);
  return num ? { kind: "number", value: num[1].padStart(6, "0") } : undefined;
}

/** A decision record that may decide the question, in rank order; `via` is the superseded record it stands for. */
interface Considered {
  doc: AdrDoc;
  via?: AdrDoc;
  order: number;
}

/**
 * The best-ranked on-topic records that may decide (a superseded one stands for its active successor), and the
 * first superseded record whose successor was not retrieved.
 */
function deciderCandidates(docs: AdrDoc[], onTopic: (d: AdrDoc) => boolean): { considered: Considered[]; dangling?: AdrDoc } {
  const byPath = new Map(docs.map((d) => [d.path, d]));
  const considered: Considered[] = [];
  const seen = new Set<string>();
  let dangling: AdrDoc | undefined;
  const topical = docs.filter(onTopic);
  for (const doc of topical) {
    if (considered.length >= MAX_DECIDER_CANDIDATES) break;
    let use: AdrDoc | undefined = doc;
    let via: AdrDoc | undefined;
    // A rejected record that says what was taken instead ("We will not build it in Rust and have opted for Ruby")
    // decides by that refusal: its proposal is out, its stated alternative is what the team does.
    if (!doc.active && takenInsteadOf(doc.meta) === undefined) {
      if (doc.meta.status === "rejected") continue;
      use = successorOf(doc, byPath);
      via = doc;
      if (!use) {
        dangling ??= doc;
        continue;
      }
    }
    if (seen.has(use.path)) continue;
    seen.add(use.path);
    considered.push({ doc: use, via, order: considered.length });
  }
  return { considered, dangling };
}

/**
 * What a rejected record took instead of its own proposal, when its decision model chose something its title and
 * file name do not propose ("Try Rust for an API", chose Ruby); undefined otherwise. Every word of the choice must be
 * new to them: "keep Papertrail strictly for auditing" in a record titled "Use Papertrail for draft/live" is about the
 * same thing, not an alternative.
 */
export function takenInsteadOf(meta: AdrMeta): string | undefined {
  if (meta.status !== "rejected") return undefined;
  const choice = modelChoice(meta);
  if (!choice) return undefined;
  const own = tokenStems(`${meta.title} ${meta.path.replace(/[-_/.]+/g, " ")}`, true);
  const words = [...tokenStems(bareChoice(choice), true).keys()].filter((w) => !FRAME_STEMS.has(w) && !VAGUE.has(w));
  return words.length > 0 && words.every((w) => !own.has(w)) ? choice : undefined;
}

/** The record whose decision names an option most clearly, in scope and by rank; a newer clear rival overrules it. */
function adrDecider(considered: Considered[], candidates: Candidate[], question: string, inScope: (e: FusedEvidence) => boolean): Decider | undefined {
  // In-scope records first; then by how clearly they name an option, discounted by their rank.
  const matches = considered
    .map((c) => ({ ...c, m: matchChoice(c.doc, candidates, question) }))
    // A record whose chosen option combines the alternatives is on the question's scope by that alone.
    .map((c) => ({ ...c, weight: c.m ? (Math.min(c.m.score, 6) * (c.m.other || inScope(decisionItem(c.doc)) ? 1 : DECIDER_OUT_OF_SCOPE)) / (1 + 0.5 * c.order) : 0 }));
  const ranked = matches.filter((c) => c.m).sort((a, b) => b.weight - a.weight || a.order - b.order);
  let top = ranked[0];
  // Two clear decisions on the same question that disagree: the newer one wins (a later record that reverses an
  // earlier one is its successor, whether or not it says so).
  const rivals = ranked.filter((c) => c !== top && top && c.m!.index !== top.m!.index && c.weight >= top.weight * 0.6 && c.m!.score >= 4 && top.m!.score >= 4);
  let overruled: typeof top | undefined;
  for (const r of rivals) {
    if (top && newer(r.doc, top.doc) && answersTo(r.doc, top.doc) && !buildsOn(r.doc, top.doc)) {
      overruled = top;
      top = r;
    }
  }
  if (!top?.m) return undefined;
  // The repository's own record outranks a decision source's record that chose otherwise: a local deviation on purpose.
  let deviation: typeof top | undefined;
  const clearOwn = (c: typeof top) => !originOf(c.doc) && c.m!.index !== top!.m!.index && c.m!.score >= MIN_CHOICE_SCORE;
  if (originOf(top.doc)) {
    const own = ranked.find(clearOwn);
    if (own) {
      deviation = top;
      top = own;
      overruled = undefined;
    }
  } else {
    deviation = ranked.find((c) => originOf(c.doc) && c.m!.index !== top!.m!.index && c.m!.score >= MIN_CHOICE_SCORE);
  }
  const m = top.m!;
  // The record chose an option of its own that combines the alternatives the question names: it joins them.
  if (m.index < 0) {
    if (!m.other || candidates.length >= MAX_OPTIONS) return undefined;
    const title = capitalise(m.other.replace(/\s*\([^()]*\)/g, "").trim());
    candidates.push({ title, key: keyFor(title), origin: "adr", note: `what ${recordName(top.doc.meta)} chose` });
    m.index = candidates.length - 1;
  }
  const conflicts = ranked.filter((c) => c !== top && c !== overruled && c !== deviation && c.m!.index !== top!.m!.index && c.weight >= top!.weight * 0.75).map((c) => deciderName(c.doc));
  return {
    kind: "adr",
    index: m.index,
    cite: decisionItem(top.doc),
    label: deciderName(top.doc),
    status: top.doc.meta.status,
    statusText: recordStatus(top.doc.meta),
    followsRecord: recordChose(top.doc, candidates[m.index]),
    ...(top.via ? { supersedes: top.via } : overruled ? { supersedes: overruled.doc } : {}),
    score: m.score,
    margin: m.margin,
    conflicts,
    agreeing: ranked.filter((c) => c !== top && c.m!.index === top!.m!.index && c.m!.score >= MIN_CHOICE_SCORE && c.doc.path !== top!.doc.path).map((c) => decisionItem(c.doc)),
    // A record about another part of the codebase, matched only by the fewest words a match needs, is a guess.
    ...(m.score <= MIN_CHOICE_SCORE && !m.other && !inScope(decisionItem(top.doc)) ? { cap: "low" as const } : {}),
    ...(deviation ? { deviatesFrom: { label: deciderName(deviation.doc), chose: candidates[deviation.m!.index]?.title ?? modelChoice(deviation.doc.meta) ?? "another option" } } : {}),
  };
}

/** Offers a record's choice as an option of its own, or refuses; `rankedFirst` when retrieval ranked the record first. */
type AllowNew = (choice: string, doc: AdrDoc, rankedFirst?: boolean) => Candidate | undefined;

/** An on-topic record whose choice is none of the options becomes an option of its own (added to `candidates`). */
function newOptionDecider(considered: Considered[], candidates: Candidate[], allowNew: AllowNew, rankedFirst = false): Decider | undefined {
  for (const c of considered) {
    // The record retrieval ranked first may state its decision in its title alone ("Move staging to pre-production").
    const choice = stated(c.doc) ?? (rankedFirst ? decisionTitle(c.doc.meta) : undefined);
    if (!choice) continue;
    const added = allowNew(choice, c.doc, rankedFirst);
    if (!added) continue;
    candidates.push(added);
    return { kind: "adr", index: candidates.length - 1, cite: decisionItem(c.doc), label: recordName(c.doc.meta), status: c.doc.meta.status, statusText: recordStatus(c.doc.meta), followsRecord: recordChose(c.doc, added), ...(c.via ? { supersedes: c.via } : {}), score: MIN_CHOICE_SCORE, margin: MIN_CHOICE_SCORE, conflicts: [], agreeing: [] };
  }
  return undefined;
}

/** In-scope rule lines (AGENTS.md and the like) that favour exactly one option, by the index of that option. */
function ruleVotes(evidence: FusedEvidence[], candidates: Candidate[], inScope: (e: FusedEvidence) => boolean): Map<number, FusedEvidence[]> {
  const votes = new Map<number, FusedEvidence[]>();
  for (const e of evidence) {
    if (e.kind !== "internal" || !RULE_TYPES.has(e.source_type) || e.adr || !inScope(e)) continue;
    // A rule that only mentions what is in place today says nothing about the proposal.
    const weighsOthers = (c: Candidate) => candidates.some((x) => x !== c && x.key.terms.length && mentions(e.excerpt, x.key));
    const favoured = candidates
      .map((c, i) => ({ c, i }))
      .filter(({ c }) => c.key.terms.length && !c.inverse && polarityIn(`${e.excerpt}`, c.key) > 0 && mentions(e.excerpt, c.key))
      .filter(({ c }) => !(c.origin === "incumbent" || /^(?:keep|stay|remain|stick|continue)\b/i.test(c.title)) || weighsOthers(c));
    if (favoured.length !== 1) continue;
    const list = votes.get(favoured[0].i) ?? [];
    list.push(e);
    votes.set(favoured[0].i, list);
  }
  return votes;
}

/** The rules' one favoured option, cited by its best-ranked rule line. */
function ruleDecider(votes: Map<number, FusedEvidence[]>): Decider {
  const [[index, items]] = [...votes];
  const cite = items.sort((a, b) => a.rank - b.rank)[0];
  return { kind: "rule", index, cite, label: `${cite.path_or_url}${cite.line_range ? `:${cite.line_range.start}` : ""}`, followsRecord: true, score: MIN_CHOICE_SCORE, margin: MIN_CHOICE_SCORE, conflicts: [], agreeing: [] };
}

/** Why nothing decided the question, for the rationale. */
function undecidedReason(considered: Considered[], dangling: AdrDoc | undefined, votes: Map<number, FusedEvidence[]>, docs: AdrDoc[]): string {
  if (votes.size > 1) return "the repository's rules favour different options";
  const nearest = considered[0]?.doc;
  const choice = nearest && modelChoice(nearest.meta);
  if (nearest && choice) {
    // The nearest record decided something, just not between these options: say what, so the reader can judge.
    return `${recordName(nearest.meta)} (${recordStatus(nearest.meta)}) is the nearest record on this topic, and it chose "${choice}", which is none of these options`;
  }
  if (considered.length) {
    const names = considered.slice(0, 2).map((c) => recordName(c.doc.meta)).join(" and ");
    return `${names} ${considered.length > 1 ? "are" : "is"} on this topic but ${considered.length > 1 ? "do" : "does"} not say which of these options ${considered.length > 1 ? "they" : "it"} chose`;
  }
  if (dangling) return `${recordName(dangling.meta)} was superseded, and the record that replaced it was not found`;
  const off = docs.find((d) => d.active);
  if (off) {
    const about = off.meta.subject && off.meta.subject !== off.meta.title ? ` (${off.meta.subject})` : "";
    return `no decision record or rule in the repository is about this question; the nearest, ${recordName(off.meta)}${about}, names neither its subject nor its options`;
  }
  return "no decision record or rule in the repository is about this question";
}

/**
 * Finds the artifact that decided the question: among the best-ranked on-topic decision records (a superseded
 * one stands for its successor), the one whose decision names an option most clearly, weighted by rank; failing
 * that, an on-topic record whose choice is a new option; failing that, rule lines (AGENTS.md and the like) that
 * favour exactly one option and agree with each other.
 */
function findDecider(
  question: string,
  docs: AdrDoc[],
  onTopic: (d: AdrDoc) => boolean,
  candidates: Candidate[],
  evidence: FusedEvidence[],
  inScope: (e: FusedEvidence) => boolean,
  allowNew: AllowNew,
): { decider?: Decider; reason: string } {
  const { considered: found, dangling } = deciderCandidates(docs, onTopic);
  // A record retrieval ranked below the first DEEPEST_DECIDER decides nothing: what singles it out is a word it shares
  // with an option ("AWS" in an object-storage record for a question about a search engine's fork), and such an
  // answer was wrong more often than right (development half: grounded +1 at any cut from 5 to 8).
  const considered = found.filter((c) => docs.indexOf(c.via ?? c.doc) < DEEPEST_DECIDER);
  const decider = firstRecordSpeaks(adrDecider(considered, candidates, question, inScope), considered, docs, candidates, allowNew) ?? newOptionDecider(considered.filter((c) => docs.indexOf(c.via ?? c.doc) < DEEPEST_NEW_OPTION), candidates, allowNew);
  if (decider) return { decider, reason: "" };
  const votes = ruleVotes(evidence, candidates, inScope);
  if (votes.size === 1) return { decider: ruleDecider(votes), reason: "" };
  return { reason: undecidedReason(considered, dangling, votes, docs) };
}

/**
 * The record retrieval ranked first, on topic and stating a choice, speaks before a lower-ranked record that only word
 * matching singled out: such a match is as often a stray shared word ("Azure" in "host the mirror on Azure" and in
 * "the Azure Blob SDK") as the decision. Its own choice becomes an option and decides, when it can be one (development
 * half: grounded +2, nothing lost; held-out totals unchanged).
 */
function firstRecordSpeaks(found: Decider | undefined, considered: Considered[], docs: AdrDoc[], candidates: Candidate[], allowNew: AllowNew): Decider | undefined {
  const first = considered[0];
  if (found?.kind !== "adr" || !first || docs[0]?.path !== (first.via ?? first.doc).path) return found;
  if ([found.cite.adr?.path, found.supersedes?.path].includes(first.doc.path)) return found;
  return newOptionDecider([first], candidates, allowNew, true) ?? found;
}

/** Question forms that name one thing or none: the deciding record's own options answer them. */
const RECORD_LED_FORMS = new Set<QuestionStructure["form"]>(["open", "adopt", "action", "move-to", "keep", "drop"]);

/**
 * The deciding artifact for any question. An open question is answered by the record its subject leads to (its
 * options become the options); a question naming one thing first by the record matched to that thing, then by the
 * record its subject leads to; a question naming alternatives only by a record matched to one of them.
 */
function decide(
  question: string,
  structure: QuestionStructure,
  docs: AdrDoc[],
  onTopic: (d: AdrDoc) => boolean,
  candidates: Candidate[],
  evidence: FusedEvidence[],
  inScope: (e: FusedEvidence) => boolean,
  allowNew: AllowNew,
): { decider?: Decider; reason: string } {
  const byPath = new Map(docs.map((d) => [d.path, d]));
  // "X or Y?" that no record was matched to by option: the record its subject leads to may still have decided it.
  // "Switch the project's formatter to X?": what is in place is unnamed, and the record its subject leads to says what it is.
  const ledForm = RECORD_LED_FORMS.has(structure.form) || structure.form === "alternatives" || (structure.form === "migration" && !!structure.incumbent?.unnamed);
  const led = ledForm ? recordLedAnswer(question, docs, (d) => successorOf(d, byPath), MAX_OPTIONS, structure.form === "open") : undefined;
  if (structure.form === "open") {
    if (led) {
      candidates.length = 0;
      // The record listed these apart (recordOptions dropped its repeats): options that share words stay apart.
      for (const o of led.options) candidates.push({ title: o, key: keyFor(o), origin: "adr", note: o === led.choice ? `what ${recordName(led.doc.meta)} chose` : `weighed in ${recordName(led.doc.meta)}` });
      return { decider: ledDecider(led, 0), reason: "" };
    }
    // No record's subject is what the question asks: only the repository's rules may still decide it.
    const votes = ruleVotes(evidence, candidates, inScope);
    if (votes.size === 1) return { decider: ruleDecider(votes), reason: "" };
    return { reason: undecidedReason([], undefined, votes, docs) };
  }
  const found = findDecider(question, docs, onTopic, candidates, evidence, inScope, allowNew);
  // A record matched to the proposal by words, whose own choice is something else, gives way to one of the best-ranked
  // records that weighed that very proposal and chose otherwise (but not to a record the decider replaced).
  if (PROPOSING_FORMS.has(structure.form) && found.decider?.kind === "adr" && !found.decider.followsRecord) {
    const decider = found.decider;
    const passedOver = docs
      .slice(0, PASSED_OVER_WINDOW)
      .filter((d) => d.path !== decider.supersedes?.path && d.path !== decider.cite.adr?.path)
      .reduce<Decider | undefined>((got, d) => got ?? choseOverNamedDecider(d, candidates, true), undefined);
    if (passedOver) return { decider: passedOver, reason: "" };
  }
  // A rule of the repository's (AGENTS.md and the like) that decides stays; a rejected proposal ranked above the
  // record that decided otherwise takes that record's place.
  if (PROPOSING_FORMS.has(structure.form) && found.decider?.kind !== "rule") {
    const deciderRank = found.decider ? docs.findIndex((d) => d.items.includes(found.decider!.cite)) : -1;
    const refused = rejectedProposalDecider(docs.slice(0, deciderRank >= 0 ? deciderRank : REJECTED_PROPOSAL_WINDOW), candidates, structure);
    if (refused) return { decider: refused, reason: "" };
  }
  // A record that weighed the proposal itself and turned it down decides when nothing else did, or when what decided
  // is that same record keeping what is in place (it then names what it kept).
  const keeps = (d: Decider) => d.kind === "adr" && ["keep", "incumbent"].includes(candidates[d.index]?.origin ?? "");
  const turnedDown = () => (PROPOSING_FORMS.has(structure.form) || structure.form === "migration" ? turnedDownDecider(docs.slice(0, TURNED_DOWN_WINDOW), candidates, structure) : undefined);
  if (!found.decider || keeps(found.decider)) {
    const turned = turnedDown();
    if (turned && (!found.decider || turned.cite.adr?.path === found.decider.cite.adr?.path)) {
      nameKeptApproach(turned, candidates);
      return { decider: turned, reason: "" };
    }
  }
  nameKeptApproach(found.decider, candidates);
  if (found.decider) return found;
  // Nothing chose an option the question names: the first record, when it weighed one of them and chose otherwise, decides.
  const passed = () => {
    const decider = choseOverNamedDecider(docs[0], candidates);
    return decider ? { decider, reason: "" } : found;
  };
  // For named alternatives, only a record whose headline shares two of the asked words speaks for the question.
  if (!led || (structure.form === "alternatives" && led.focusHits < 2)) return passed();
  // Align the record's choice with an option the question names ("Tailwind" and "Tailwind CSS") by the whole name of
  // one inside the other, else offer it: a word they share ("JSON" in "Plain JSON" and "JSON-LD") is not enough.
  const key = keyFor(led.choice);
  // The choice names the option by what the option is about (its first term, or a name of two words or more): a
  // head noun they share ("docker" in "one docker image" and "the main Docker image on Debian") is not enough.
  const named = (c: Candidate) => ({ terms: primaryKey(c.key).terms.filter((t) => t === c.key.terms[0] || /[\s-]/.test(t)) });
  let index = candidates.findIndex((c) => !c.inverse && c.key.terms.length && key.terms.length && (mentions(c.title, primaryKey(key)) || mentions(led.choice, named(c))) && !oppositeOfChoice(led.choice, c.title));
  // "Provision another cluster" is the option of "a cluster of its own" when the other option reuses the one there.
  const side = reuseSide(led.choice);
  if (index < 0 && side) {
    const same = candidates.filter((c) => !c.inverse && reuseSide(c.title) === side && sharesThing(led.choice, c.title));
    if (same.length === 1 && candidates.some((c) => oppositeOfChoice(led.choice, c.title))) index = candidates.indexOf(same[0]);
  }
  if (index < 0) {
    // A record found below the first two by its subject alone does not put an option of its own forward.
    if (docs.findIndex((d) => d.path === led.doc.path) >= DEEPEST_NEW_OPTION) return passed();
    if (structure.form === "alternatives") led.confidence = "low";
    const title = structure.form === "keep" ? `Move to ${bareChoice(led.choice)}` : structure.form === "drop" || structure.form === "alternatives" ? led.choice : `Keep ${bareChoice(led.choice)}`;
    const chosen: Candidate = { title: nounLike(bareChoice(led.choice)) && isName(led.doc, led.choice) ? title : (answerNamed(led.doc, led.choice) ?? led.choice), key, origin: "adr", note: `what ${recordName(led.doc.meta)} chose` };
    if (candidates.length >= MAX_OPTIONS) candidates.splice(MAX_OPTIONS - 1);
    // What is in place today, named generically, gives way to what the record says is in place.
    const generic = candidates.findIndex((c) => c.origin === "keep" || (c.origin === "incumbent" && c.unnamed));
    if (generic >= 0) candidates.splice(generic, 1, chosen);
    else candidates.push(chosen);
    index = candidates.indexOf(chosen);
  }
  for (const o of led.options.slice(1)) {
    // A question that names its alternatives keeps them as its options.
    if (candidates.length >= MAX_OPTIONS || structure.form === "alternatives") break;
    // The record was found by the question's subject, not by an option it names: what it weighed against its own
    // choice is an alternative to the proposal only when it speaks of something the question speaks of.
    if (!speaksOf(o, question)) continue;
    const k = keyFor(o);
    if (!candidates.some((c) => c.key.terms.length && k.terms.length && (sameOption(c.key, k) || mentions(o, primaryKey(c.key))))) addCandidate(candidates, { title: o, key: k, origin: "adr", note: `weighed in ${recordName(led.doc.meta)}` });
  }
  return { decider: ledDecider(led, index), reason: "" };
}

/** Whether a label shares a word (stemmed, framing and vague words aside) with a text. */
function speaksOf(label: string, text: string): boolean {
  const inText = tokenStems(text, true);
  return [...tokenStems(label, true).keys()].some((w) => !FRAME_STEMS.has(w) && !VAGUE.has(w) && inText.has(w));
}

/** Question forms that propose one thing: "should we adopt X?", "should we put X in front of Y?", "move to X?". */
const PROPOSING_FORMS = new Set<QuestionStructure["form"]>(["adopt", "action", "move-to"]);

/** The one thing a proposing question puts forward: the first option that is neither kept, deferred nor dropped. */
function proposedCandidate(candidates: Candidate[]): Candidate | undefined {
  return candidates.find((c) => c.origin !== "keep" && c.origin !== "incumbent" && c.origin !== "defer" && !c.inverse && c.key.terms.length > 0);
}

/** How many of the best-ranked records may be the rejected proposal of what a question proposes. */
const REJECTED_PROPOSAL_WINDOW = 3;

/**
 * "Should we add a central config component?" where the log holds that very proposal, rejected, naming nothing taken
 * instead: the record decided against it, so what is in place stays (a "keep" option, cited to the rejected record).
 * The record must be about the proposal: its title and file name carry two of the proposal's distinctive words
 * (one, when that is all it has, or when retrieval ranked the record first for the question).
 */
function rejectedProposalDecider(docs: AdrDoc[], candidates: Candidate[], structure: QuestionStructure): Decider | undefined {
  const target = proposedCandidate(candidates);
  if (!target) return undefined;
  const words = [...distinctive(target, candidates, structure.text)].filter((w) => w.length >= 3 && !FRAME_STEMS.has(w) && !VAGUE.has(w));
  if (!words.length) return undefined;
  // Retrieval's first record needs one of the words; the next ones two.
  const doc = docs.slice(0, REJECTED_PROPOSAL_WINDOW).find((d, rank) => {
    if (d.meta.status !== "rejected" || takenInsteadOf(d.meta) !== undefined) return false;
    const head = tokenStems(`${d.meta.title} ${slugWords(d.path)}`, true);
    return words.filter((w) => head.has(w)).length >= Math.min(rank === 0 ? 1 : 2, words.length);
  });
  if (!doc) return undefined;
  let index = candidates.findIndex((c) => c.origin === "keep" || c.origin === "incumbent");
  // What a record ranked below the rejected proposal chose is about something else ("Keep commit" for a proposal on
  // version ranges): the proposal's refusal keeps what is in place, unnamed.
  const from = index >= 0 ? candidates[index].from : undefined;
  if (from && !docs.slice(0, docs.indexOf(doc)).some((d) => d.path === from)) candidates[index] = { ...KEEP_CURRENT, note: `${recordName(doc.meta)} was rejected` };
  if (index < 0) {
    if (candidates.length >= MAX_OPTIONS) return undefined;
    candidates.push({ ...KEEP_CURRENT, note: `${recordName(doc.meta)} was rejected` });
    index = candidates.length - 1;
  }
  return { kind: "adr", index, cite: decisionItem(doc), label: deciderName(doc), status: doc.meta.status, statusText: recordStatus(doc.meta), followsRecord: true, score: MIN_CHOICE_SCORE, margin: MIN_CHOICE_SCORE, conflicts: [], agreeing: [], refused: target.title };
}

/** How many of the best-ranked records may have weighed and turned down what a question proposes. */
const TURNED_DOWN_WINDOW = 2;
/** What a turned-down option says it would have replaced: "Use Tailwind instead of Bootstrap". */
const IN_PLACE_OF = /\s(?:instead of|rather than|in favou?r of|over)\s/i;

/**
 * "Should we switch the UI to Tailwind?" where a record retrieval ranked first or second weighed "Use Tailwind instead
 * of Bootstrap" and chose otherwise: the record decided against the proposal, so what it kept is the answer. The kept
 * option is named from the other side of the turned-down option ("Keep Bootstrap"), else it is what is in place.
 */
function turnedDownDecider(docs: AdrDoc[], candidates: Candidate[], structure: QuestionStructure): Decider | undefined {
  const target = proposedCandidate(candidates);
  if (!target) return undefined;
  const key = sharpKey(target.key, structure.text);
  for (const doc of docs) {
    if (!doc.active || doc.meta.status === "proposed" || doc.meta.status === "rejected") continue;
    const choice = modelChoice(doc.meta);
    if (choice && mentions(choice, key)) continue;
    const turned = (doc.meta.rejected_options ?? []).find((r) => mentions(r.name, key));
    if (!turned) continue;
    const kept = keptSide(turned.name, key) ?? (turned.reason ? keptSide(turned.reason, key) : undefined);
    let index = candidates.findIndex((c) => c.origin === "keep" || c.origin === "incumbent");
    if (kept && !(index >= 0 && mentions(kept, candidates[index].key))) {
      const keep: Candidate = { title: `Keep ${kept}`, key: keyFor(kept), origin: "incumbent", note: `what ${recordName(doc.meta)} kept`, from: doc.path };
      if (index >= 0) candidates[index] = keep;
      else if (candidates.length < MAX_OPTIONS) index = candidates.push(keep) - 1;
    }
    if (index < 0) {
      if (candidates.length >= MAX_OPTIONS) return undefined;
      index = candidates.push({ ...KEEP_CURRENT, note: `${recordName(doc.meta)} turned it down` }) - 1;
    }
    return { kind: "adr", index, cite: decisionItem(doc), label: deciderName(doc), status: doc.meta.status, statusText: recordStatus(doc.meta), followsRecord: true, score: MIN_CHOICE_SCORE, margin: MIN_CHOICE_SCORE, conflicts: [], agreeing: [], turnedDown: turned.name };
  }
  return undefined;
}

/** How many of the best-ranked records may stand for a proposal they weighed and passed over. */
const PASSED_OVER_WINDOW = 3;

/**
 * "Should we coerce with Boolean(x) or with !!x?" where a record weighed "Convert to boolean" and chose "Ternary
 * operator": it turned down what the question names and decided for something else, so its choice becomes an option
 * of its own and is recommended. The weighed option is what separates this from a record that only shares the
 * question's subject (a question no record decides): one that never weighed a named option decides nothing.
 * `strictly`: only a weighed option whose every word the named option says counts ("Flushing in handlers" for "every
 * handler flushes …"), not one that holds half of the named option's own words; records below the first need it
 * (development half: the looser reading below the first brought options about other things).
 */
function choseOverNamedDecider(doc: AdrDoc | undefined, candidates: Candidate[], strictly = false): Decider | undefined {
  // What the question proposes, not what it says is in place: a record may turn that down for another purpose.
  const named = candidates.filter((c) => c.origin === "question" && !c.inverse && c.key.terms.length);
  if (!doc || !named.length || candidates.length >= MAX_OPTIONS) return undefined;
  if (!doc.active || doc.meta.status === "rejected" || doc.meta.status === "proposed") return undefined;
  const choice = modelChoice(doc.meta);
  if (!choice || named.some((c) => recordChose(doc, c))) return undefined;
  const passedOver = passedOverOption(doc.meta, choice, named.map((c) => c.title), strictly);
  const title = tidyLabel(capitalise(choice));
  const key = keyFor(title);
  if (!passedOver || !key.terms.length) return undefined;
  const index = candidates.push({ title, key, origin: "adr", note: `what ${recordName(doc.meta)} chose` }) - 1;
  // Found by what it weighed, not by what it chose: never "high".
  return { kind: "adr", index, cite: decisionItem(doc), label: deciderName(doc), status: doc.meta.status, statusText: recordStatus(doc.meta), followsRecord: true, score: MIN_CHOICE_SCORE, margin: MIN_CHOICE_SCORE, conflicts: [], agreeing: [], cap: "med", choseOver: passedOver };
}

/**
 * The option a record weighed besides its choice that names one of the question's named options (`named`, titles):
 * every word of it (two at least) said by the named option ("Saving in handlers" for "every handler saves its
 * changes"), or, unless `strictly`, at least half of the words that set the named option apart from the others.
 */
export function passedOverOption(meta: Pick<AdrMeta, "considered_options" | "rejected_options">, choice: string, named: string[], strictly = false): string | undefined {
  const weighed = [...meta.considered_options, ...(meta.rejected_options ?? []).map((r) => r.name)].filter((o) => o !== choice);
  return weighed.find((o) => named.some((title) => within(o, title, named) || (!strictly && namesMostOf(o, title, named))));
}

function contentStems(text: string): string[] {
  return [...tokenStems(text, true).keys()].filter((w) => w.length >= 3 && !FRAME_STEMS.has(w) && !VAGUE.has(w) && !isStopWord(w) && w !== "own" && w !== "both");
}

/** Whether every other named option says this word too: then it names none of them. */
function sharedByAll(w: string, title: string, named: string[]): boolean {
  const others = named.filter((x) => x !== title);
  return others.length > 0 && others.every((o) => tokenStems(o, true).has(w));
}

/** Every word (two at least) of a record's option is said by the named option, and not by all the others. */
function within(recordOption: string, title: string, named: string[]): boolean {
  const said = [...tokenStems(title, true).keys()];
  const own = contentStems(recordOption).filter((w) => !sharedByAll(w, title, named));
  return own.length >= 2 && own.every((w) => said.some((x) => sameStem(w, x)));
}

/** A record's option holds at least half of the words that set a named option apart from the other named ones. */
function namesMostOf(recordOption: string, title: string, named: string[]): boolean {
  const said = [...tokenStems(recordOption, true).keys()];
  const own = contentStems(title).filter((w) => !sharedByAll(w, title, named));
  return own.length > 0 && own.filter((w) => said.some((x) => sameStem(w, x))).length * 2 >= own.length;
}

/** One stem is the other with a plural "s" ("ids", "id"): the stemmer leaves short words alone. */
function sameStem(a: string, b: string): boolean {
  return a === b || a === `${b}s` || b === `${a}s`;
}

/** The side of "A instead of B" that does not name the proposal, as a short name ("Bootstrap"), if there is one. */
function keptSide(text: string, proposal: OptionKey): string | undefined {
  const at = IN_PLACE_OF.exec(text);
  if (!at) return undefined;
  const [before, after] = [text.slice(0, at.index), text.slice(at.index + at[0].length)];
  const other = mentions(before, proposal) && !mentions(after, proposal) ? after : mentions(after, proposal) && !mentions(before, proposal) ? before : undefined;
  const name = other && bareChoice(other.replace(/[.;:,].*$/, "").trim());
  return name && nounLike(name) && contentWords(name).length > 0 ? name : undefined;
}

/** A chosen option longer than this is a sentence of the record, not a name for an option. */
const KEPT_NAME_WORDS = 12;

/**
 * A record that decided against what the question proposes says what it did instead: the generic "Keep the current
 * approach", or the question's "Stop X", takes the record's own decision as its name ("Ruby", "Use RDS instead of
 * provisioned EC2 databases"), unless an option the question asks about already carries it.
 */
function nameKeptApproach(decider: Decider | undefined, candidates: Candidate[]): void {
  const named = decider?.kind === "adr" ? candidates[decider.index] : undefined;
  if (!named || !decider?.cite.adr || !(named.origin === "keep" || named.inverse)) return;
  const meta = decider.cite.adr;
  // A title that states the decision ("Remove the LabelSet object") names it better than a sentence cut from prose;
  // a rejected record's title is the proposal it turned down, never what stays.
  const titled = meta.status !== "rejected" ? decisionTitle(meta) : undefined;
  const stated = modelChoice(meta);
  const short = stated && stated.split(/\s+/).length <= KEPT_NAME_WORDS ? stated : undefined;
  // An option the question asks about that is already this choice keeps its own name (another record's options do not
  // count); a choice that names an option only to act against it ("Remove the LabelSet object") is not that option.
  const isOption = (choice: string, key: OptionKey) => (c: Candidate) =>
    c.origin !== "adr" && c.key.terms.length > 0 && (sameOption(c.key, key) || mentions(choice, primaryKey(c.key))) && polarityIn(choice, c.key) >= 0;
  // "Stop X" already says what a choice that only removes X ("Avoid …", "Drop …") would.
  const names = (choice: string) => !(named.inverse && REMOVAL_OPENING.test(choice)) && keyFor(choice).terms.length > 0 && !candidates.some(isOption(choice, keyFor(choice)));
  const choice = [titled, short].find((c): c is string => !!c && names(c));
  if (!choice) return;
  // Named as the record names it ("Ruby"): the record's own words are what a reader can check against it.
  candidates[decider.index] = { ...named, title: tidyLabel(choice), key: keyFor(choice), origin: "incumbent", note: `what ${decider.label} chose`, inverse: undefined };
}

/** A decision that only takes something away. */
const REMOVAL_OPENING = /^(?:avoid|stop|drop|remove|removing|deprecate|disable|retire|do not|don't|no longer)\b/i;

function ledDecider(led: RecordLedAnswer<AdrDoc>, index: number): Decider {
  return {
    kind: "adr",
    index,
    cite: decisionItem(led.doc),
    label: deciderName(led.doc),
    status: led.doc.meta.status,
    statusText: recordStatus(led.doc.meta),
    followsRecord: true,
    ...(led.via ? { supersedes: led.via } : {}),
    score: MIN_CHOICE_SCORE,
    margin: MIN_CHOICE_SCORE,
    conflicts: [],
    agreeing: [],
    cap: led.confidence,
    ...(led.byDesign ? { byDesign: true as const } : {}),
  };
}

// ---------------------------------------------------------------------------------------------------------
// Presentation

/** Good/Bad lines of an ADR's "Pros and Cons" for this option, plus consequences that name it. */
function tradeoffsFor(o: Scored, evidence: FusedEvidence[], current: Scored | undefined): string[] {
  const out: string[] = [];
  const push = (t: string) => {
    const clean = t.replace(/\s+/g, " ").trim();
    if (clean && !out.includes(clean) && out.length < 5) out.push(clean);
  };
  if (o.key.terms.length && !o.inverse) {
    // A record that turned this option down says why, in its own words: that reason comes first, cited.
    const quoted = new Set<string>();
    for (const e of evidence) {
      if (!e.adr?.rejected_options || quoted.has(e.adr.path) || INACTIVE.has(e.adr.status)) continue;
      const r = e.adr.rejected_options.find((x) => sameOption(keyFor(x.name), o.key) || mentions(x.name, primaryKey(o.key)));
      if (!r) continue;
      quoted.add(e.adr.path);
      const why = r.reason ? `: “${r.reason.replace(/\s+/g, " ").slice(0, 240)}”` : "";
      push(`− ${recordName(e.adr)} turned it down${why} (${e.adr.path}:${r.range.start}${r.range.end > r.range.start ? `-${r.range.end}` : ""}).`);
    }
    for (const e of evidence) {
      if (!e.adr) continue;
      let inOption = e.title ? mentions(e.title.split(/[—:-]/).pop() ?? "", o.key) : false;
      for (const line of e.excerpt.split("\n")) {
        const heading = /^#{1,6}\s+(.*)$/.exec(line);
        if (heading) {
          inOption = mentions(heading[1], o.key);
          continue;
        }
        const m = /^\s*[-*+]\s*(good|bad|pro|con|neutral)\b[,:]?\s*(?:because\s+)?(.*)$/i.exec(line);
        if (m && inOption) push(`${/^(good|pro)/i.test(m[1]) ? "+" : /^(bad|con)/i.test(m[1]) ? "−" : "·"} ${m[2]}`);
      }
    }
  }
  if ((o.origin === "question" || o.origin === "successor") && current && current !== o) {
    push(`− Means moving away from ${current.title.replace(/^Keep /, "")}, which the codebase uses today.`);
  }
  if (o.origin === "incumbent" || o.origin === "keep") push("+ No migration: the codebase already works this way.");
  if (o.origin === "defer") push("− Leaves the question open; work that depends on it stays blocked.");
  for (const d of o.dissent.slice(0, 2)) push(`− ${capitalise(d.s.why)}.`);
  for (const s of o.supports.slice(0, 1)) push(`+ ${capitalise(s.s.why)}.`);
  return out;
}

function levelCost(o: Scored, current: Scored | undefined): Level {
  if (o.origin === "defer" || o.origin === "keep" || o.origin === "incumbent") return "low";
  if (current && current !== o && current.supports.length >= 2) return "high";
  return "med";
}

function levelRisk(o: Scored): Level {
  if (o.origin === "defer") return "med";
  const against = o.dissent.reduce((n, x) => n + x.s.weight, 0);
  if (against >= 3) return "high";
  if (against > 0 || o.supports.length === 0) return "med";
  return "low";
}

function summaryOf(o: Scored): string {
  const sentences: string[] = [];
  if (o.origin === "defer") sentences.push("Hold the decision until stronger evidence exists, and record what would settle it.");
  else if (o.origin === "keep") sentences.push("Change nothing and keep the approach the codebase uses today.");
  else sentences.push(`${o.title} (${o.note}).`);
  if (o.supports.length) {
    const first = o.supports[0].s.why;
    sentences.push(`${o.supports.length} source${o.supports.length > 1 ? "s" : ""} favour${o.supports.length > 1 ? "" : "s"} it: ${first}${o.supports.length > 1 ? ", among others" : ""}.`);
  } else if (o.origin !== "defer") {
    sentences.push("No cited evidence favours it.");
  }
  if (o.dissent.length) {
    sentences.push(`${o.dissent.length} source${o.dissent.length > 1 ? "s" : ""} argue${o.dissent.length > 1 ? "" : "s"} against it: ${o.dissent[0].s.why}.`);
  } else if (o.origin !== "defer" && o.origin !== "keep") {
    sentences.push("Nothing in the evidence argues against it.");
  }
  return sentences.slice(0, 4).join(" ");
}

const LEVELS: readonly Level[] = ["low", "med", "high"];

/** From this position in retrieval's order of records (0-based) on, a deciding record claims only "low". */
const DEEP_POSITION = 3;

function ordinal(n: number): string {
  const tail = n % 100 >= 11 && n % 100 <= 13 ? "th" : ["th", "st", "nd", "rd"][n % 10] ?? "th";
  return `${n}${tail}`;
}

function raise(level: Level): Level {
  return level === "low" ? "med" : "high";
}
function lower(level: Level): Level {
  return level === "high" ? "med" : "low";
}

// ---------------------------------------------------------------------------------------------------------
// The synthesizer

/** 1. Options the question names; in a proposal question, its target is the proposal. */
function questionCandidates(structure: QuestionStructure): Candidate[] {
  const candidates: Candidate[] = [];
  const proposalForm = structure.form === "adopt" || structure.form === "action" || structure.form === "move-to";
  // The question named each of its alternatives apart: a word they share ("height" in "halt at a height" and "switch
  // at the upgrade height") does not make them one option; only the same title does.
  for (const a of structure.alternatives) {
    const c: Candidate = { ...fromAlternative(a), ...(proposalForm && a.role === "target" ? { proposal: true } : {}) };
    if (!candidates.some((x) => x.title.toLowerCase() === c.title.toLowerCase())) candidates.push(c);
  }
  return candidates;
}

/**
 * 2. Options the question implies: what is in place today (named from an on-topic decision when there is one),
 * what the repository moved to, or — for an open question — what on-topic decisions chose and weighed.
 */
function addImpliedCandidates(structure: QuestionStructure, candidates: Candidate[], activeTopical: AdrDoc[], model: TopicModel): void {
  const form = structure.form;
  if ((form === "adopt" || form === "action" || form === "move-to") && !candidates.some((c) => c.origin === "incumbent")) addIncumbent(structure, candidates, activeTopical);
  else if (form === "keep") addSuccessor(candidates, activeTopical);
  else if (form === "open") addOpenQuestionOptions(candidates, activeTopical, model);
  if (form === "adopt" || form === "action" || form === "move-to" || form === "migration") addWeighedOptions(candidates, activeTopical, structure);
}

/**
 * A question that names one thing ("should we adopt Tailwind?") is answered among the options the deciding record
 * weighed: the first in-force on-topic record whose considered options include that thing lends them all, its
 * chosen one first, each its own option (the question's own wording stays where they are the same thing).
 */
function addWeighedOptions(candidates: Candidate[], activeTopical: AdrDoc[], structure: QuestionStructure): void {
  const named = candidates.filter((c) => c.origin === "question" && c.key.terms.length);
  // The same thing by its whole name, one way or the other ("adr-tools" in "ADR Tools"); a product name inside a
  // longer phrase ("Log4brains" in "Publish a Docker image of log4brains") is the setting, not the option.
  const weighs = (d: AdrDoc, c: Candidate) =>
    d.meta.considered_options.some((o) => mentions(c.title, primaryKey(keyFor(o))) || mentions(o, primaryKey(c.key)));
  // A record deep in the ranking lends its options only when it is about the named thing too: its title or file
  // name shares a word of the option's name. An option word of another record ("Holdings" among a sync's record
  // types) inside a long proposal is not that proposal weighed.
  const doc = activeTopical.find((d, i) => d.meta.considered_options.length >= 2 && named.some((c) => weighs(d, c) && (i < LENDING_DEPTH || aboutProposal(d.meta.title, d.path, c.title))));
  if (!doc) return;
  // "Switch X to Y?" names two things, but when the record weighed Y and not X, X is the status quo in the
  // question's words, and the record's options are the real alternatives; when it weighed both, the question has them.
  const incumbent = structure.incumbent && candidates.find((c) => c.origin === "incumbent" && c.key.terms.length);
  if (incumbent && weighs(doc, incumbent)) return;
  // The listed option the decision names ("Chosen option: a prioritised set …" led by option X is X), else its words.
  const choice = listedModelChoice(doc.meta) ?? modelChoice(doc.meta);
  const weighed = [...(choice ? [choice] : []), ...doc.meta.considered_options.filter((o) => o !== choice)];
  // A question's alternative that is plainly one of the record's options ("Prettier only") is that option, and no
  // other option that merely shares its name ("Prettier-ESLint with Airbnb code style").
  const nearest = new Map(named.map((c) => [c, nearestOption(c.title, doc.meta.considered_options)]));
  const covers = (c: Candidate, o: string, key: OptionKey) => {
    const near = nearest.get(c);
    if (near !== undefined) return near === o;
    return sameOption(c.key, key) || mentions(o, primaryKey(c.key));
  };
  for (const o of weighed) {
    if (candidates.length >= MAX_OPTIONS) break;
    const key = keyFor(o);
    if (!key.terms.length || candidates.some((c) => c.key.terms.length && covers(c, o, key))) continue;
    const candidate: Candidate = { title: capitalise(o), key, origin: "adr", note: o === choice ? `what ${recordName(doc.meta)} chose` : `considered in ${recordName(doc.meta)}` };
    // The record's own options are distinct from each other and from the alternatives already matched to them, even
    // when their names overlap ("Prettier only" / "Prettier-ESLint"): only the same title is the same option.
    const distinct = named.length > 0 && named.every((c) => nearest.get(c) !== undefined);
    if (distinct) {
      if (!candidates.some((x) => x.title.toLowerCase() === candidate.title.toLowerCase())) candidates.push(candidate);
    } else addCandidate(candidates, candidate);
  }
}

/** A record's title or file name shares a word of the proposal's name, beyond the words that frame it. */
export function aboutProposal(recordTitle: string, recordPath: string, proposal: string): boolean {
  const head = stems(`${recordTitle} ${slugWords(recordPath)}`);
  return [...stems(proposal)].some((w) => !FRAME_STEMS.has(w) && head.has(w));
}

/** The best-ranked on-topic records lend their weighed options to a proposal without naming it in their headline. */
const LENDING_DEPTH = 3;

const PLAIN_STOP = new Set("a an the of with to for and or in on by as we our use using adopt keep move switch".split(" "));

/** The option sharing most of the title's words (two at least, and strictly more than any other), if one does. */
function nearestOption(title: string, options: string[]): string | undefined {
  // Plain words, qualifiers kept: "only" is what tells "Prettier only" from "Prettier-ESLint".
  const plain = (t: string) => new Set(t.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 1 && !PLAIN_STOP.has(w)).map(stemWord));
  const words = plain(title);
  const shared = options.map((o) => [...plain(o)].filter((w) => words.has(w)).length);
  const top = Math.max(0, ...shared);
  return top >= 2 && shared.filter((n) => n === top).length === 1 ? options[shared.indexOf(top)] : undefined;
}

/** A proposal's incumbent: what an on-topic record chose other than the proposal, else "Keep the current approach". */
function addIncumbent(structure: QuestionStructure, candidates: Candidate[], activeTopical: AdrDoc[]): void {
  const target = candidates.find((c) => c.origin === "question" && structure.target && c.title === structure.target.title);
  // The best-ranked record turned the proposal down ("Avoid global singletons"): its decision is the other side of
  // the question, worded as it decided it, and what later records chose about other things is not.
  const first = activeTopical[0];
  const firstChoice = first && (stated(first) ?? modelChoice(first.meta) ?? first.meta.title);
  if (target && first && firstChoice && mentions(firstChoice, primaryKey(target.key)) && polarityIn(`${first.meta.title}\n${firstChoice}`, target.key) < 0) {
    addCandidate(candidates, { title: capitalise(firstChoice), key: target.key, inverse: true, origin: "adr", note: `what ${recordName(first.meta)} chose` });
    return;
  }
  // Only the best-ranked record speaks for what is in place: a choice further down is about something else.
  // What it chose as its decision model reads it, from free prose too ("switch to GitHub Actions CI"): the record in
  // force is what is in place, whichever way it says so.
  // A single common word from prose ("commit") is a misreading, not a name.
  const chosenBy = (d: AdrDoc) => { const c = stated(d) ?? modelChoice(d.meta); return c && isName(d, c) ? c : undefined; };
  const incumbentDoc = activeTopical.slice(0, 1).find((d) => {
    const c = chosenBy(d);
    // A record whose choice names the proposal itself ("a batch job reading sheets with the sheets library"), as read
    // or as its decision model states it, chose it: not an incumbent.
    const namesTarget = (text: string | undefined) => !!text && !!target && mentions(text, primaryKey(target.key));
    return !!c && (!target || (!sameOption(keyFor(c), target.key) && !namesTarget(c) && !namesTarget(modelChoice(d.meta)))) && !(target && matchChoice(d, [target, KEEP_CURRENT])?.index === 0);
  });
  const choice = incumbentDoc && chosenBy(incumbentDoc);
  // What is in place is named by the head of a choice read from prose, not by what it is for ("GitHub Actions CI for
  // … "); an option the record lists is named as the record names it.
  const listed = !!choice && listedBy(incumbentDoc, choice);
  const head = choice && !listed && headName(bareChoice(choice));
  // The head of a clause is a name only when it reads as one: "action" of "action that modifies a state" is not.
  const kept = head && head !== bareChoice(choice) && isName(incumbentDoc, head) ? head : choice;
  // "Adopt the sheets library inside a Python batch job?": what the question itself builds on is its setting, not
  // what the proposal would replace.
  const given = !!kept && structure.form === "adopt" && mentions(structure.text, primaryKey(keyFor(bareChoice(kept))));
  if (kept && incumbentDoc && nounLike(bareChoice(kept)) && isName(incumbentDoc, kept) && !given) addCandidate(candidates, { title: `Keep ${bareChoice(kept)}`, key: keyFor(kept), origin: "incumbent", note: `what ${recordName(incumbentDoc.meta)} chose`, from: incumbentDoc.path });
  else if (!candidates.some((c) => c.origin === "incumbent")) addCandidate(candidates, KEEP_CURRENT);
}

/** A choice that can title an option: one the record lists, several words, or one word that reads as a name. */
function isName(doc: AdrDoc, choice: string): boolean {
  const bare = bareChoice(choice);
  return listedBy(doc, choice) || bare.split(/\s+/).length >= 2 || oneWordName(doc, bare);
}

/** The record writes this choice as one of its options, chosen or considered. */
const listedBy = (doc: AdrDoc, choice: string) => choice === doc.meta.chosen_option || doc.meta.considered_options.includes(choice);

/**
 * One word names a thing when it is shaped like a name ("PostgreSQL", "k8s", "vite-rails"), or the record writes it
 * capitalised inside a sentence ("we will use Black"), as a proper noun is; "Architecture" only as a heading or at
 * a sentence's start is an ordinary word.
 */
function oneWordName(doc: AdrDoc, word: string): boolean {
  if (/[A-Z]/.test(word.slice(1)) || /[\d`_./-]/.test(word)) return true;
  return /^[A-Z][a-z]*$/.test(word) && new RegExp(`[a-z,;][ \\t]+${word}\\b`).test(doc.allText);
}

/** "Keep X?": the successor an on-topic record chose instead of X, in place of the generic "Drop X". */
function addSuccessor(candidates: Candidate[], activeTopical: AdrDoc[]): void {
  const kept = candidates.find((c) => c.origin === "incumbent");
  const successorDoc = activeTopical.find((d) => {
    const c = stated(d);
    // A successor is a record that decided against what is kept and for something else.
    return !!c && !!kept && !sameOption(keyFor(c), kept.key) && polarityIn(`${d.meta.title}\n${c}\n${d.decisionText}`, kept.key) < 0 && !mentions(c, kept.key);
  });
  const choice = successorDoc && stated(successorDoc);
  if (!choice || !successorDoc) return;
  const i = candidates.findIndex((c) => c.inverse);
  const succ: Candidate = { title: /^(?:move|migrate|switch|use|adopt|replace)\b/i.test(choice) ? capitalise(choice) : `Move to ${choice}`, key: keyFor(choice), origin: "successor", note: `what ${recordName(successorDoc.meta)} chose` };
  if (i >= 0) candidates.splice(i, 1, succ);
  else addCandidate(candidates, succ);
}

/** An open question: what the on-topic records chose and weighed. */
function addOpenQuestionOptions(candidates: Candidate[], activeTopical: AdrDoc[], model: TopicModel): void {
  // Only records whose headline is about the question name options for an open question.
  const strong = activeTopical.filter((d) => {
    const head = stems(headline(d));
    return [...model.topic].filter((w) => head.has(w)).length >= Math.max(1, Math.ceil(model.topic.size / 2));
  });
  for (const d of strong.slice(0, 3)) {
    const choice = stated(d);
    if (choice) addCandidate(candidates, { title: capitalise(choice), key: keyFor(choice), origin: "adr", note: `what ${recordName(d.meta)} chose` });
  }
  for (const d of strong.slice(0, 2)) {
    for (const o of d.meta.considered_options) addCandidate(candidates, { title: capitalise(o), key: keyFor(o), origin: "adr", note: `considered in ${recordName(d.meta)}` });
  }
}

/** 3. The option a deciding record adds when its choice is none of the options, if it may add one. */
function newOptionFromRecord(choice: string, doc: AdrDoc, candidates: Candidate[], model: TopicModel, form: QuestionStructure["form"], rankedFirst = false): Candidate | undefined {
  if (candidates.length >= MAX_OPTIONS) return undefined;
  const key = keyFor(choice);
  if (!key.terms.length || candidates.some((c) => c.key.terms.length && sameOption(c.key, key))) return undefined;
  // Only a record whose headline is about the question may introduce an option of its own: for a question that
  // names its alternatives, one that names one of them; otherwise one that shares the question's topic words.
  if (!/^[\w@.][^[\]()<>|]{0,60}$/.test(choice) || choice.split(/\s+/).length > 6 || !isName(doc, choice)) return undefined;
  const head = stems(headline(doc));
  const hits = [...model.topic].filter((w) => head.has(w)).length;
  const named = model.keys.some((k) => mentions(headline(doc), k));
  // A question that names its alternatives gets a new option only from a record that weighed one of them as an
  // option ("Considered options: … a hyphen …"); a migration names both sides and gets none.
  const weighedNamed = doc.meta.considered_options.some((o) => model.keys.some((k) => mentions(o, k)));
  // Proposals (adopt, action, move-to) name what is in place today from the incumbent search above, not here.
  // A proposal (adopt, action, move-to) gets one only from the record retrieval ranked first: it decided another way.
  const proposing = rankedFirst && PROPOSING_FORMS.has(form);
  const topicalHead = form === "alternatives" ? weighedNamed : form === "open" || form === "keep" || proposing ? named || hits >= (model.topic.size >= 4 ? 2 : 1) : false;
  if (!topicalHead) return undefined;
  const title = form === "alternatives" || form === "open" || (proposing && opensWithDecisionVerb(choice)) ? capitalise(choice) : form === "keep" ? `Move to ${bareChoice(choice)}` : `Keep ${bareChoice(choice)}`;
  return { title, key, origin: form === "keep" ? "successor" : "adr", note: `what ${recordName(doc.meta)} chose` };
}

/** 4. At least two options, at most five; the decided option always stays (last, when it would fall off). */
function optionsToScore(candidates: Candidate[], decider: Decider | undefined): { kept: Candidate[]; chosen?: Candidate } {
  if (candidates.length < 2 && !candidates.some((c) => c.origin === "keep" || c.origin === "incumbent")) addCandidate(candidates, KEEP_CURRENT);
  if (candidates.length < 2) addCandidate(candidates, DEFER);
  if (candidates.length < 2) addCandidate(candidates, KEEP_CURRENT);
  const chosen = decider ? candidates[decider.index] : undefined;
  let kept = candidates.slice(0, MAX_OPTIONS);
  if (chosen && !kept.includes(chosen)) kept = [...kept.slice(0, MAX_OPTIONS - 1), chosen];
  return { kept, chosen };
}

/** 5. The deciding record is cited for the option it chose, and for no other; so are records that agree with it. */
function citeDecider(scored: Scored[], picked: Scored, decider: Decider, evidence: FusedEvidence[]): void {
  const sameSource = (e: FusedEvidence) => (decider.kind === "adr" ? e.adr?.path === decider.cite.adr?.path : e.id === decider.cite.id);
  for (const o of scored) if (o !== picked) o.supports = o.supports.filter((x) => !sameSource(x.e));
  picked.dissent = picked.dissent.filter((x) => !sameSource(x.e));
  // The record is cited where it decides (its decision section), not wherever else it names the option.
  const fromDecider = picked.supports.find((x) => sameSource(x.e));
  if (fromDecider && decider.kind === "adr") fromDecider.e = decider.cite;
  if (!fromDecider) {
    const why = decider.kind === "adr" ? `${decider.label} (${decider.statusText ?? "no status line"}) decided it` : `${decider.label} prescribes it`;
    picked.supports.unshift({ e: decider.cite, s: { polarity: 1, weight: decider.kind === "adr" ? 3 : 2.5, why } });
  }
  // Other on-topic records that made the same choice are cited with it.
  for (const e of decider.agreeing) {
    if (picked.supports.some((x) => x.e.adr?.path === e.adr?.path)) continue;
    for (const o of scored) if (o !== picked) o.supports = o.supports.filter((x) => x.e.adr?.path !== e.adr?.path);
    picked.dissent = picked.dissent.filter((x) => x.e.adr?.path !== e.adr?.path);
    picked.supports.push({ e, s: { polarity: 1, weight: 2, why: `ADR "${e.adr?.title ?? e.path_or_url}" made the same choice` } });
  }
  if (decider.supersedes) {
    const old = evidence.find((e) => e.adr?.path === decider.supersedes!.path);
    if (old && !picked.supports.some((x) => x.e.id === old.id)) {
      picked.supports.push({ e: old, s: { polarity: 1, weight: 0.5, why: `${decider.label} supersedes ${recordName(decider.supersedes.meta)}` } });
    }
  }
}

/**
 * Whether the deciding record answers what was asked: the recommended option is one the question names, or the record
 * weighed an option the question names (it considered Tailwind and chose Vanilla Extract). Otherwise the record is
 * linked to the question by its subject alone ("Keep Next.js" for a question about a Docker image).
 */
function answersAsked(picked: Scored, scored: Scored[], decider: Decider): boolean {
  if (picked.asked) return true;
  const meta = decider.cite.adr;
  if (!meta) return false;
  const weighed = [...meta.considered_options, ...(meta.rejected_options ?? []).map((r) => r.name)];
  return scored.some((o) => o.asked && !o.inverse && o.key.terms.length > 0 && weighed.some((w) => sameOption(keyFor(w), o.key) || mentions(w, primaryKey(o.key))));
}

/**
 * Whether a record names this option as one of its own: on a "Chosen option" line or among the options it weighed,
 * as the whole option, not by a word both share ("TypeScript" in "Add support for TypeScript config files" and
 * "Using ts-node to parse TypeScript configuration files").
 */
export function recordListsOption(meta: Pick<AdrMeta, "chosen_option" | "considered_options">, title: string): boolean {
  if (meta.chosen_option) return true;
  const key = primaryKey(keyFor(title));
  return meta.considered_options.some((o) => sameOption(primaryKey(keyFor(o)), key));
}

/** 6. Why the decided option is recommended, and how sure that is before the evidence's coverage is weighed. */
function decidedRationale(picked: Scored, decider: Decider, scored: Scored[]): { confidence: Level; sentences: string[] } {
  const sentences: string[] = [];
  let confidence: Level;
  if (decider.kind === "adr") {
    const status = decider.status ?? "unknown";
    // "high" only when the record is in force (accepted, or no status line) and its own chosen option is the one
    // recommended; a record matched to an option by its words alone is at most "med".
    const inForce = status === "accepted" || status === "unknown";
    // "high" also needs retrieval to agree: a record that only the option matching singled out, below another
    // record retrieval ranked first, is as often the wrong record as the right one.
    // And the record must answer what was asked. When the question names options and the record neither chose one
    // of them nor weighed one ("Keep Next.js" for a question about a Docker image), it is linked to the question by
    // its subject alone: "low", as likely another decision as this one.
    const sure = inForce && decider.followsRecord && decider.position === 0;
    // A record found by the named option it weighed answers what was asked, whatever it chose.
    const unasked = scored.some((o) => o.asked) && !decider.choseOver && !answersAsked(picked, scored, decider);
    // A choice the question did not name is "high" only when the record names it as an option (a "Chosen option"
    // line or one of the options it weighed); one read from its prose may be a clause of the decision, not the choice.
    const named = picked.asked || (!!decider.cite.adr && recordListsOption(decider.cite.adr, picked.title));
    confidence = sure && !unasked && named ? "high" : status === "proposed" || unasked ? "low" : "med";
    sentences.push(
      decider.refused
        ? `${decider.label} (${decider.statusText ?? status}) proposed what "${decider.refused}" describes, and the proposal was rejected: what is in place stays.`
        : decider.turnedDown
          ? `${decider.label} (${decider.statusText ?? status}) weighed "${decider.turnedDown}" and chose otherwise: what it kept stays.`
        : decider.choseOver
          ? `${decider.label} (${decider.statusText ?? status}) weighed "${decider.choseOver}", which the question names, and chose "${picked.title}" instead.`
        : decider.byDesign
          ? `${decider.label} (${decider.statusText ?? status}) is the nearest record on this question and states no single choice: what it designs, "${picked.title}", is offered.`
          : `${decider.label} (${decider.statusText ?? status}) decided this question, and it chose what "${picked.title}" describes.`,
    );
    if (decider.supersedes) sentences.push(`It replaces ${recordName(decider.supersedes.meta)}, which is ${recordStatus(decider.supersedes.meta)}; the newer decision counts.`);
    if (status === "proposed") sentences.push("The record is only proposed, so the decision may still change.");
    if (status === "rejected" && !decider.refused) sentences.push("The record's own proposal was rejected; what it took instead is what stands.");
    if (unasked && !decider.refused && !decider.turnedDown) sentences.push("The record never weighed an option the question names: it is linked to the question by its subject alone, so check that it is the decision you mean.");
    if (decider.deviatesFrom) sentences.push(deviationSentence(decider.deviatesFrom));
  } else {
    confidence = "med";
    sentences.push(`${decider.label} prescribes "${picked.title}" for this codebase.`);
  }
  if (decider.conflicts.length) {
    confidence = lower(confidence);
    sentences.push(`${decider.conflicts.join(" and ")} ${decider.conflicts.length > 1 ? "lean" : "leans"} another way, so weigh them before acting.`);
  }
  const external = picked.supports.filter((x) => x.e.kind === "external");
  if (external.length && !picked.dissent.length) {
    // External agreement never lifts an answer to "high" on its own: only a record that decides it does.
    if (confidence === "low" || decider.followsRecord) confidence = raise(confidence);
    sentences.push("Internal conventions and external sources agree.");
  }
  if (decider.agreeing.length) sentences.push(`${decider.agreeing.length} other decision record${decider.agreeing.length > 1 ? "s" : ""} on this topic made the same choice.`);
  if (decider.cap && LEVELS.indexOf(confidence) > LEVELS.indexOf(decider.cap)) {
    confidence = decider.cap;
    sentences.push(
      decider.cap === "low"
        ? "It is the nearest record on this subject, but it shares little of the question's wording: check that it is the decision you mean."
        : decider.choseOver
          ? "It chose none of the options the question names, so it is not claimed with high confidence."
          : "It was found by its subject rather than by an option the question names, so it is not claimed with high confidence.",
    );
  }
  // A record retrieval ranked below three others for this question is as often another decision as this one.
  if (decider.kind === "adr" && decider.position !== undefined && decider.position >= DEEP_POSITION && confidence !== "low") {
    confidence = "low";
    sentences.push(`Retrieval ranked it only ${ordinal(decider.position + 1)} among the records found for this question: check that it is the decision you mean.`);
  }
  const others = scored.filter((o) => o !== picked && o.supports.length);
  if (others.length) sentences.push(`Also cited: ${others.slice(0, 2).map((o) => `${o.supports.length} source${o.supports.length > 1 ? "s" : ""} for "${o.title}"`).join(", ")}.`);
  return { confidence, sentences };
}

/** 6. Nothing decided the question: say why, and where the evidence leans. */
function undecidedRationale(scored: Scored[], reason: string): string[] {
  const sentences = [`Undecidable on current evidence: ${reason}.`];
  const lean = [...scored].sort((a, b) => b.net - a.net)[0];
  if (lean && lean.net > 0) sentences.push(`The evidence found leans toward "${lean.title}", but nothing on record decided it.`);
  else sentences.push("The options are offered with equal weight.");
  return sentences;
}

/** A stem as the question wrote it ("stat" → "state"), so no word stem reaches a reader. */
function surfaceWord(stem: string, question: string): string | undefined {
  // The question's own spelling: the tokenizer also folds abbreviations and synonyms ("Kubernetes" → "k8s", "folders"
  // → "directory"), and the reader should see the word they wrote. Each piece the tokenizer would split apart is tried
  // whole first ("end-to-end"), then by its parts.
  for (const raw of question.split(/[^\p{L}\p{N}.+#_@-]+/u)) {
    const token = raw.replace(/^[._@-]+|[._@-]+$/g, "");
    for (const piece of [token, ...token.split(/-(?:to-)?|_/)]) {
      const read = words(piece);
      if (read.length === 1 && stemWord(read[0]) === stem) return piece.toLowerCase();
    }
  }
  // The same tokenizer that made the stem ("yyyy.mm" stays one word), so a word is always found.
  return words(question).find((w) => stemWord(w) === stem);
}

/** How many of the question's scope words the rationale names. */
const SCOPE_WORDS_SHOWN = 4;

/** What the scope does to the evidence, in words: a long question has many scope words, and a reader needs the first few. */
export function scopeSentence(shown: string[]): string {
  const listed = shown.slice(0, SCOPE_WORDS_SHOWN).map((w) => `"${w}"`);
  const more = shown.length - listed.length;
  const named = more > 0 ? `${listed.join(", ")} or ${more} other word${more > 1 ? "s" : ""} of the question` : listed.join(" or ");
  return `Evidence that does not mention ${named} is taken to be about another part of the codebase and counts for less than evidence that does.`;
}

/** 6. The recommendation: the decided option, or undecidable; confidence is capped when no internal evidence was found. */
function recommend(
  picked: Scored | undefined,
  found: { decider?: Decider; reason: string },
  scored: Scored[],
  scopeWords: string[],
  stages: SynthesisInput["stages"],
  question: string,
): DraftPicker["recommendation"] {
  const decider = found.decider;
  const decided = picked && decider ? decidedRationale(picked, decider, scored) : undefined;
  const optionId = picked && decided ? picked.id : UNDECIDABLE;
  let confidence: Level = decided ? decided.confidence : "low";
  const sentences = decided ? decided.sentences : undecidedRationale(scored, found.reason);
  // A stem no word of the question spells is never shown (a reader would see "stat" for "status").
  const shown = scopeWords.map((w) => surfaceWord(w, question)).filter((w): w is string => !!w);
  if (shown.length) sentences.push(scopeSentence(shown));
  if (stages.internal.status !== "ok") {
    confidence = "low";
    sentences.push(`No internal convention was found (${stages.internal.reason ?? "internal stage empty"}), so confidence is capped at low.`);
  }
  if (stages.external.status !== "ok") sentences.push("No external best practice was found; this is stack-native reasoning from the repository's own evidence.");
  return { option_id: optionId, rationale: sentences.join(" "), confidence };
}

function toOption(o: Scored, relevant: FusedEvidence[], current: Scored | undefined): Option {
  return {
    id: o.id,
    title: o.title,
    summary: summaryOf(o),
    supports: o.supports.map((x) => x.e.id),
    dissent: o.dissent.map((x) => x.e.id),
    tradeoffs: tradeoffsFor(o, relevant, current),
    cost: levelCost(o, current),
    risk: levelRisk(o),
  };
}

export function synthesizeWithRules(input: Omit<SynthesisInput, "signal">): SynthesisOutput {
  const { question, evidence, stages } = input;
  const structure = readQuestion(question);
  const scope = questionScope(structure, evidence);
  const candidates = questionCandidates(structure);
  const model = topicModel(structure, candidates);
  const docs = groupAdrs(evidence);
  // Retrieval ranked the records against the question with a wider vocabulary than these word tests: the two
  // best-ranked records count as on topic when their headline shares a topic word or their decision names an option.
  const docOk = new Map(docs.map((d, i) => [d.path, docOnTopic(d, model) || (i < 2 && nearTopic(d, model))]));
  const onTopic = (d: AdrDoc) => docOk.get(d.path) ?? false;
  const activeTopical = docs.filter(onTopic).filter((d) => d.active);
  addImpliedCandidates(structure, candidates, activeTopical, model);

  // 3. The deciding artifact. A record whose choice is none of the options adds it, when it is on topic.
  const allowNew: AllowNew = (choice, doc, rankedFirst) => newOptionFromRecord(choice, doc, candidates, model, structure.form, rankedFirst);
  // The record both rankings put first (retrieval's and the plain view's) is about the question even when its headline
  // words are not the question's ("Partition strategy" for folder layouts): it may decide, but it names no kept
  // approach and lends no evidence the topic test refused (development half: two right answers low -> med; held-out
  // totals +1 each).
  const agreed = docs[0]?.items.some((e) => e.plain_rank === 1) ? docs[0] : undefined;
  const mayDecide = (d: AdrDoc) => onTopic(d) || d === agreed;
  const found = decide(question, structure, docs, mayDecide, candidates, evidence, (e) => scope.inScope(e), allowNew);
  if (found.decider?.kind === "adr" && docs.length) {
    const at = (path: string | undefined) => (path ? docs.findIndex((d) => d.path === path) : -1);
    const positions = [at(found.decider.cite.adr?.path), at(found.decider.supersedes?.path)].filter((i) => i >= 0);
    if (positions.length) found.decider.position = Math.min(...positions);
  }
  const { kept, chosen } = optionsToScore(candidates, found.decider);

  // 5. Supports and dissent, from on-topic evidence only.
  const relevant = evidence.filter((e) => itemOnTopic(e, model, docOk));
  const taken = new Set<string>();
  const scored: Scored[] = kept.map((c) => ({ ...scoreCandidate(c, relevant, scope.inScope), id: slugId(c.title, taken) }));
  const picked = chosen ? scored[kept.indexOf(chosen)] : undefined;
  if (picked && found.decider) citeDecider(scored, picked, found.decider, evidence);
  const current = scored.find((o) => o.origin === "incumbent") ?? scored.find((o) => o.origin === "keep");
  const citedIds = new Set(scored.flatMap((o) => [...o.supports, ...o.dissent].map((x) => x.e.id)));
  const citations: Citation[] = evidence.filter((e) => citedIds.has(e.id)).map(toCitation);

  const recommendation = recommend(picked, found, scored, scope.words, stages, question);
  const draft: DraftPicker = {
    question,
    class: "open-question",
    options: scored.map((o) => toOption(o, relevant, current)),
    recommendation,
    citations,
    coverage: {
      internal: evidence.filter((e) => e.kind === "internal").length,
      external: evidence.filter((e) => e.kind === "external").length,
      top_score: round2(Math.max(0, ...evidence.map((e) => e.score))),
    },
  };
  return { draft, info: { mode: "rules", ...(recommendation.option_id === UNDECIDABLE ? { symmetric: true } : {}) } };
}

export function toCitation(e: FusedEvidence): Citation {
  return {
    id: e.id,
    kind: e.kind,
    path_or_url: e.path_or_url,
    ...(e.line_range ? { line_range: e.line_range } : {}),
    ...(e.commit ? { commit: e.commit } : {}),
    ...(e.fetched_at ? { fetched_at: e.fetched_at } : {}),
    precision_class: e.precision_class,
    excerpt: e.excerpt,
    ...(e.title ? { title: e.title } : {}),
  };
}

export function createRulesSynthesizer(): Synthesizer {
  return {
    name: "rules",
    id: "rules",
    async synthesize(input: SynthesisInput): Promise<SynthesisOutput> {
      return synthesizeWithRules(input);
    },
  };
}
