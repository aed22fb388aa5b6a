// Answers led by the deciding record's decision model (issue 21): for a question that names one thing or none
// ("should we adopt X?", "how should we …?"), the best-ranked in-force record that is about the question decides,
// its chosen option is the recommendation and its considered options are the options. Retrieval already ranked the
// records against the whole question; this only checks that the record's own headline (title, file name, subject,
// options) shares words with what the question asks, and sets how sure the answer may be from that overlap and the
// record's rank. It never claims "high": a record found this way was not matched to an option the question named.
// An open question may be answered by the best-ranked record even without that overlap, at low confidence.
import type { AdrMeta, Level } from "../schemas";
import { contentWords, splitAsking } from "../terms";
import { balanced, cutWords } from "../text";
import { FRAME_WORDS, stemWord } from "./words";
import { listItems } from "../decisions/options";
import { stripInline } from "../internal/markdown";

/** What this module needs of a retrieved record. */
export interface LedRecord {
  path: string;
  meta: AdrMeta;
  active: boolean;
  /** The record's decision section, as retrieved (when it was). */
  decisionText?: string;
  /** Headings of its retrieved sections that name a subject of their own ("Pagination"), best-ranked first. */
  topicalHeadings?: string[];
  /** The text of its retrieved sections (titles and excerpts), when known. */
  allText?: string;
}

export interface RecordLedAnswer<T extends LedRecord> {
  /** The in-force record that decides. */
  doc: T;
  /** The superseded record retrieval ranked, when `doc` is its successor. */
  via?: T;
  /** The record's chosen option, as it names it. */
  choice: string;
  /** The record's options to offer: its chosen one first, then the others it weighed (at most `max`). */
  options: string[];
  /** How many of the asking part's words its headline shares. */
  focusHits: number;
  /** 0 for the best-ranked record. */
  position: number;
  /** The weighted share of the whole question's words the record's retrieved text holds (see questionCover). */
  cover?: number;
  confidence: Level;
  /** The record states no choice: the answer is its design, named by its title (and heading). */
  byDesign?: true;
}

/** Only the best-ranked few records may decide: deeper ones are rarely what the question is about. */
const MAX_POSITION = 3;
/** A chosen option longer than this is a sentence, not an option a picker can show. */
const MAX_CHOICE_WORDS = 12;
/** A rule picked from a decision's list (see ruleAnswering) is shown whole up to this many words. */
const MAX_RULE_WORDS = 16;
/**
 * Below this share of the question's weight in its retrieved text, a record that heads the ranking is only the
 * nearest of records about other things: the answer it leads stays "low". On the dev questions, record-led answers
 * to questions no record decides reached at most 0.14; all but 4 of 28 right ones were 0.16 or more.
 */
const MIN_QUESTION_COVER = 0.15;
/** Words that say nothing about a subject, whatever the question. */
const GENERIC = new Set(
  "new way ways thing things team teams people project code work make need needs want good best right today now also going currently current approach option options decide decision record records question".split(" "),
);

function stemSet(text: string): Set<string> {
  const out = new Set<string>();
  for (const w of contentWords(text)) {
    const s = stemWord(w.toLowerCase());
    if (s.length > 1 && !FRAME_WORDS.has(s) && !GENERIC.has(s) && !FRAME_WORDS.has(w.toLowerCase())) out.add(s);
  }
  return out;
}

/** A record's retrieved text and file path, for weighing how much of a question it holds. */
function recordText(d: LedRecord): string {
  return `${d.allText ?? d.decisionText ?? ""} ${d.path}`;
}

/** What a record is about, in its own words: title, file name, subject and options (a record that turned X down is about X). */
function headlineStems(meta: AdrMeta, path: string): Set<string> {
  const file = path.split("/").slice(-2).join(" ").replace(/\.(md|markdown|mdx|adoc|rst|txt)$/i, "");
  const weighed = [...meta.considered_options, ...(meta.rejected_options ?? []).map((r) => r.name)];
  const text = [meta.title, file, meta.subject ?? "", meta.chosen_option ?? "", meta.decided_option?.name ?? "", ...weighed].join(" ");
  return stemSet(`${text} ${text.replace(/([a-z])([A-Z])/g, "$1 $2").replace(/[-_./]+/g, " ")}`);
}

/**
 * How much of the whole question (setting included) a record's retrieved text speaks to: each of the question's
 * words weighs by how few of the retrieved records hold it (BM25's inverse document frequency over `texts`), so a
 * word no record holds weighs most and one every record holds weighs least; the share of that weight `texts[index]`
 * (together with `extra`, a successor's text) holds. A question about something the repository never decided is
 * worded in terms no record uses, and the best-ranked record then holds little of it.
 */
export function questionCover(question: string, texts: string[], index: number, extra = ""): number {
  const sets = texts.map((t) => stemSet(t));
  const mine = new Set([...(sets[index] ?? []), ...stemSet(extra)]);
  let total = 0;
  let held = 0;
  for (const w of stemSet(question)) {
    const df = sets.filter((s) => s.has(w)).length;
    const weight = Math.log(1 + (sets.length - df + 0.5) / (df + 0.5));
    total += weight;
    if (mine.has(w)) held += weight;
  }
  return total ? held / total : 0;
}

/**
 * A title that states a decision: Nygard-style records name what they decided ("Use Pandoc for BST conversion",
 * "Using pytest for verifying transformations", "Move staging to pre-production").
 */
const DECISION_TITLE =
  /^(?:use|using|adopt|adopting|introduce|introducing|move|moving|migrate|migrating|switch|switching|replace|replacing|remove|removing|drop|dropping|deprecate|deprecating|keep|store|storing|build|building|write|run|support|supporting|add|adding|prefer|allow|allowing|disable|enable|make|implement|implementing|publish|release|generate|split|merge|centralise|centralize|standardise|standardize|apply|require|expose|provide|host|deploy|stop|avoid)\b/i;

/** Whether a label opens with the verb of a decision ("Enable key rotation", "Use X"): it is an action, not a name. */
export function opensWithDecisionVerb(label: string): boolean {
  return DECISION_TITLE.test(label.trim());
}

/** A record's chosen option, from its decision model, else its title when the title states the decision. */
export function chosenOf(meta: AdrMeta): string | undefined {
  const choice = optionLabel((meta.chosen_option ?? meta.decided_option?.name)?.trim() ?? "") || undefined;
  if (choice && choice.split(/\s+/).length <= MAX_CHOICE_WORDS) return tidyLabel(choice);
  const title = withoutLeadingNumber(meta.title);
  if (DECISION_TITLE.test(title) && title.split(/\s+/).length <= MAX_CHOICE_WORDS) return tidyLabel(title);
  // A choice stated at length is still the record's choice: shown cut to its first words, not dropped (dropping it
  // hands the question to a lower-ranked record that decided something else).
  return choice ? cutLabel(choice) : undefined;
}

/** The record's title when it states the decision ("Move staging to pre-production"), without its number. */
export function decisionTitle(meta: AdrMeta): string | undefined {
  const title = bareTitle(meta.title);
  return DECISION_TITLE.test(title) && title.split(/\s+/).length <= MAX_CHOICE_WORDS ? tidyLabel(title) : undefined;
}

/** A label of more than MAX_CHOICE_WORDS words, cut to at most that many with an ellipsis, still reading as a phrase. */
function cutLabel(label: string): string {
  return tidyLabel(cutWords(label, MAX_CHOICE_WORDS));
}

/**
 * What the nearest record decided, for an open question, when it names no short option: its chosen option cut to
 * its first clause, else the first sentence of its decision section, at most MAX_CHOICE_WORDS words. The record
 * still says what it decided, in its own words; a picker can show that.
 */
export function decisionInBrief(meta: AdrMeta, decisionText = ""): string | undefined {
  const plain = (t: string) => t.replace(/[*_`]+/g, "").replace(/\[([^\]]*)\]\([^)]*\)/g, "$1").trim();
  const choice = (meta.chosen_option ?? meta.decided_option?.name)?.trim();
  let text = choice ? plain(choice) : "";
  let listed = false;
  if (!text) {
    const lines = decisionText.split("\n").map((l) => l.trim());
    const prose = lines.findIndex((l) => l && !/^(?:#|\||```|<|[-*+]\s|\d+[.)]\s)/.test(l) && !/^(?:status|date|deciders?)\s*:/i.test(l));
    if (prose < 0) return undefined;
    let sentence = plain(lines.slice(prose).join(" ").split(/(?<=[.!?:])\s+(?=[A-Z-*])/)[0]);
    // "Since our logger takes an extra parameter, we will:": the main clause follows the comma.
    if (/^(?:since|as|because|given|while|although|though|when|if|to|in order to)\b/i.test(sentence) && sentence.includes(",")) sentence = sentence.slice(sentence.indexOf(",") + 1).trim();
    // "… we will:" and a list: the list is what was decided.
    if (sentence.endsWith(":")) {
      const items = lines.slice(prose + 1).filter((l) => /^(?:[-*+]|\d+[.)])\s+/.test(l)).slice(0, 2).map((l) => plain(l.replace(/^(?:[-*+]|\d+[.)])\s+/, "")));
      if (items.length) {
        sentence = items.join("; ");
        listed = true;
      }
    }
    text = sentence;
  }
  if (!/\p{L}/u.test(text)) return undefined;
  const clause = listed ? text : text.split(/\s*(?:;|,\s+(?:because|so|which|as|since|but)\b|\s-\s|\s(?:because|so that|in order to)\s)/)[0];
  const words = (clause.split(/\s+/).length >= 2 ? clause : text).split(/\s+/);
  return cutLabel(words.join(" "));
}

/** "ADR-0012: Use X", "12. Use X" → "Use X". */
function withoutLeadingNumber(title: string): string {
  return title.replace(/^(?:adr|rfc|decision)?[\s#-]*\d+\s*[:.)-]?\s*/i, "").trim();
}

/** A label before a colon that only says the text is a record ("ADR: X", "Architecture Decision Record: X", "DR009: X", "TEP-0100: X"). */
const RECORD_LABEL = /^(?:adr|rfc|tep|dr|(?:architect(?:ure|ural)\s+)?decision(?:\s+record)?)[\s#-]*\d*\s*:\s+(?=\S)/i;

/** A record's title without its number ("ADR-0012: Use X" → "Use X"). */
function bareTitle(title: string): string {
  // "ADR-0012: Use X", "12. Use X", "Use X - ADR 012", "Use X (RFC 7)".
  const bare = withoutLeadingNumber(title)
    .replace(/\s*(?:[-–—:]\s*|\(\s*)(?:adr|rfc|decision)[\s#-]*\d+\s*\)?$/i, "")
    .trim();
  return bare || title;
}

/** Whether the record's choice is one of the options it lists (or stated on a "Chosen option" line), not read from prose. */
function listedChoice(meta: AdrMeta, choice: string): boolean {
  if (meta.chosen_option) return true;
  const flat = (t: string) => t.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ").trim();
  const c = flat(choice.replace(/…$/, ""));
  return meta.considered_options.some((o) => {
    const f = flat(optionLabel(o));
    return !!f && !!c && (f === c || f.startsWith(c) || c.startsWith(f));
  });
}

/**
 * How an open question's answer is named. A choice the record lists under a short name ("Pollen CSS"), or a title
 * that states the decision ("Use Pandoc for …"), names itself. A listed choice that is an action ("add two small
 * services before the embedder") says what was done but not to what end: the record's title goes before it, as for
 * a clause of prose, unless the action already names most of the title or had to be cut to fit. A choice read from prose is only a clause ("form of an extension
 * jar"): the record's title says what it is about, so the answer carries both ("Email rate limiting: form of an
 * extension jar"). A record that states no choice at all is answered by its design as named by its title, and by
 * the heading under which retrieval found the question's subject when the title does not name it.
 */
/** A clause this short ("reuse similar format") does not say what it is about without its record's title. */
const SHORT_CLAUSE_WORDS = 6;
/** A listed option of this many words or more is an action, not a short name. */
const LISTED_ACTION_WORDS = 5;

export function answerNamed(doc: LedRecord, choice: string | undefined): string | undefined {
  // "ADR: X" names the record X: the label says only that it is a record.
  const title = tidyLabel(bareTitle(doc.meta.title.replace(RECORD_LABEL, "")));
  const statesDecision = DECISION_TITLE.test(title) && title.split(/\s+/).length <= MAX_CHOICE_WORDS;
  // A clause of the proposal's prose is an option only in the model's reading: under a title that does not state
  // the decision ("Binary format for index-cache: reuse similar format") it needs the title to be understood.
  const listed = choice && listedChoice(doc.meta, choice) && !(doc.meta.decided_option?.from_prose && !statesDecision && choice.split(/\s+/).length <= SHORT_CLAUSE_WORDS);
  // An action already cut to fit ("…") takes the whole label: a title before it would push out its own words.
  const action = !!choice && choice.split(/\s+/).length >= LISTED_ACTION_WORDS && !choice.endsWith("…");
  if (choice && ((listed && !action) || sameLabel(choice, title))) return choice;
  if (!title || !/\p{L}/u.test(title)) return choice;
  // A title that states the decision ("Avoid React.FC type") says it better than a clause of its prose; a listed
  // action is the record's own option, and stays.
  if (statesDecision && !listed) return title;
  if (choice) {
    const c = /^\p{Lu}\p{Ll}+(?:\s|$)/u.test(choice) ? choice[0].toLowerCase() + choice.slice(1) : choice;
    // A clause that already names most of what the title does needs no title before it.
    const named = [...stemSet(title)].filter((w) => stemSet(choice).has(w)).length;
    return named * 2 >= stemSet(title).size ? choice : `${title}: ${c}`;
  }
  const heading = doc.topicalHeadings?.find((h) => /\p{L}/u.test(h) && !title.toLowerCase().includes(h.toLowerCase()));
  return heading ? `${title}: ${tidyLabel(heading)}` : title;
}

/**
 * "Preview channel: a separate channel that only testers subscribe to" is named by what precedes the colon: an
 * option listed with its description reads as its short name.
 */
export function optionLabel(option: string): string {
  const m = /^([^:]{2,80}?):\s+(\S.*)$/.exec(option);
  // A colon inside code or a quotation ("Use { "autoinstall": false }") ends no name.
  if (!m || !balanced(m[1])) return option;
  const [name, rest] = [m[1].trim(), m[2]];
  // "Option 2: copy the tables" is named by its description; "Labels: a, b, c" lists what was chosen.
  if (/^(?:option|alternative|choice|variant|approach)\s*[\w.()]{0,4}$/i.test(name) && rest.split(/\s+/).length >= 2) return rest.trim();
  const named = name.split(/\s+/).length >= 2 && name.split(/\s+/).length <= 8 && !/^(?:option|alternative|choice|proposal|approach|variant)\b/i.test(name);
  return named && rest.split(/\s+/).length >= 3 && !/,/.test(rest.split(/\s+/).slice(0, 3).join(" ")) ? name : option;
}

/** An option label as a reader sees it: capitalised, without trailing punctuation. */
export function tidyLabel(label: string): string {
  const t = label.replace(/\s+/g, " ").replace(/[\s.,;:!]+$/, "").trim();
  return t ? t[0].toUpperCase() + t.slice(1) : t;
}

/** One label is the other with more words after it (an ellipsis aside). */
function spelledOut(a: string, b: string): boolean {
  const flat = (t: string) => t.replace(/…$/, "").toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ").trim();
  const [x, y] = [flat(a), flat(b)];
  return !!x && !!y && (x.startsWith(`${y} `) || y.startsWith(`${x} `));
}

function sameLabel(a: string, b: string): boolean {
  return a.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "") === b.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "");
}

/** The record's options to offer: the chosen one first, then the ones it weighed, then the ones it turned down. */
export function recordOptions(meta: AdrMeta, choice: string, max: number, shortChoice?: string): string[] {
  const out = [choice];
  // The choice named with its record's title ("Title: clause") is still the clause the record lists as an option.
  const same = (label: string) => out.some((x) => sameLabel(x, label) || spelledOut(x, label)) || (!!shortChoice && (sameLabel(shortChoice, label) || spelledOut(shortChoice, label)));
  for (const o of [...meta.considered_options, ...(meta.rejected_options ?? []).map((r) => r.name)]) {
    if (out.length >= max) break;
    const named = optionLabel(o);
    // An option the record spells out at length is still one it weighed: shown cut, with an ellipsis, not dropped.
    const label = cutLabel(named);
    // "Add X to Y, so that Z" is the chosen "Add X to Y" spelled out: one option, not two.
    if (label && !same(label)) out.push(label);
  }
  return out;
}

/** The first sentence of each item of the lists in a record's decision section, as plain text. */
function firstSentencesOfItems(decisionText: string): string[] {
  const lines = decisionText.split("\n");
  return listItems(lines, 1, lines.length).map((i) => stripInline(i.text).split(/(?<=[.!?])\s+/)[0].trim());
}

/**
 * A decision section that lays down several rules ("the following rules apply: - devices are set up in the UI;
 * - everything else in YAML or the UI") answers an open question with the one rule about what it asks: the item
 * that shares the most of the asking words, at least two and more than any other item. Undefined otherwise.
 */
function ruleAnswering(decisionText: string | undefined, focus: Set<string>, decided: string): string | undefined {
  // Only a choice the model read as a lead-in and its rules ("the following rules: A, B") is a list of rules.
  const lead = /^([^:]{3,120}):\s+\S/.exec(decided)?.[1];
  const items = decisionText && lead ? firstSentencesOfItems(decisionText).filter((t) => decided.includes(t.split(/\s+/).slice(0, 3).join(" "))) : [];
  if (items.length < 2) return undefined;
  const hits = items.map((t) => [...stemSet(t)].filter((w) => focus.has(w)).length);
  const best = Math.max(...hits);
  if (best < 2 || hits.filter((h) => h === best).length > 1) return undefined;
  const item = items[hits.indexOf(best)];
  // A rule is a sentence: it may run a few words past an option's length before it is cut.
  return item.split(/\s+/).length >= 3 ? tidyLabel(cutWords(item, MAX_RULE_WORDS)) : undefined;
}

/**
 * The record that decides a question naming one thing or none, or undefined when none of the best-ranked records
 * is both in force (directly or through its successor) and about what the question asks.
 * `docs` are in retrieval order; `successor` follows supersession among the retrieved records.
 */
export function recordLedAnswer<T extends LedRecord>(
  question: string,
  docs: T[],
  successor: (d: T) => T | undefined,
  maxOptions: number,
  /**
   * An open question names no option to match, and often describes its problem in other words than the record's
   * headline: then the best-ranked record with a decision answers it, at low confidence, rather than nothing.
   */
  nearestAnswers = false,
): RecordLedAnswer<T> | undefined {
  const { asking, setting } = splitAsking(question);
  const focus = stemSet(asking);
  const context = stemSet(setting);
  // An open question is answered by the best-ranked record first: by the decision it states, else by its design as
  // its title names it. Only a record that cannot answer at all (turned down, replaced by a record not retrieved)
  // hands the question to a deeper record with a decision of its own: retrieval weighed the whole question, and a
  // deeper record's stated choice answers a question of its own (development half: every open answer taken from a
  // deeper record over a best-ranked record that had none was wrong).
  const passes: { from: number; to: number; byTitle: boolean }[] = nearestAnswers
    ? [
        { from: 0, to: 1, byTitle: false },
        { from: 0, to: 1, byTitle: true },
        { from: 1, to: MAX_POSITION, byTitle: false },
      ]
    : [{ from: 0, to: MAX_POSITION, byTitle: false }];
  for (const { from, to, byTitle } of passes) {
    for (const [offset, doc] of docs.slice(from, to).entries()) {
      const position = from + offset;
      if (doc.meta.status === "rejected") continue;
      const use = doc.active ? doc : successor(doc);
      if (!use) continue;
      const brief = chosenOf(use.meta) ?? (nearestAnswers && position === 0 ? decisionInBrief(use.meta, use.decisionText) : undefined);
      if (!brief && !byTitle) continue;
      const rule = nearestAnswers && !use.meta.chosen_option && use.meta.decided_option?.from_prose ? ruleAnswering(use.decisionText, focus, use.meta.decided_option.name) : undefined;
      const choice = rule ?? (nearestAnswers ? answerNamed(use, brief) : brief);
      if (!choice) continue;
      const head = new Set([...headlineStems(doc.meta, doc.path), ...headlineStems(use.meta, use.path)]);
      const focusHits = [...focus].filter((w) => head.has(w)).length;
      const contextHits = [...context].filter((w) => head.has(w) && !focus.has(w)).length;
      // About the question: its headline names something the question asks about, or (the best-ranked record only)
      // something of the setting the question describes; the latter is only ever a low-confidence answer.
      if (focusHits === 0 && !(position === 0 && (contextHits >= 1 || nearestAnswers))) continue;
      const status = use.meta.status;
      const inForce = status === "accepted" || status === "unknown";
      let confidence: Level = inForce && position === 0 && focusHits >= 2 && !byTitle ? "med" : "low";
      // Its headline shares the asked words, but its text holds too little of the whole question: the question may
      // be about something no record decided, and this record only the nearest one. (Weighed only when retrieval
      // gave the record's text.)
      const cover = confidence === "med" && doc.allText !== undefined ? questionCover(question, docs.map(recordText), position, use !== doc ? recordText(use) : "") : undefined;
      if (cover !== undefined && cover < MIN_QUESTION_COVER) confidence = "low";
      return { doc: use, ...(use !== doc ? { via: doc } : {}), choice, options: recordOptions(use.meta, choice, maxOptions, brief), focusHits, position, confidence, ...(cover !== undefined ? { cover } : {}), ...(!brief ? { byDesign: true as const } : {}) };
    }
  }
  return undefined;
}
