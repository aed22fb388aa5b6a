// Where a record's options are read: the considered options, the chosen one and each rejected one with its reason
// and line range. Sources, in order of trust:
//   1. an explicit "Chosen option: X" line (MADR; also "Chose option:", "Selected option:"),
//   2. an option marked "(Decided)" / "(chosen)" in its heading or list item,
//   3. the decision section naming a considered option ("we are sticking with option (A) Do Nothing",
//      "It has been decided to pursue Option 2", "### A) No prefixes"),
//   4. Nygard decision prose ("We will use X", "Use X.", "It was decided that X", "X will be implemented"),
// and for considered options: MADR "Considered Options" (bullets, or one heading per option, or groups of
// bullets under sub-headings) and alternatives sections under any of their names (ALTERNATIVES_HEADING).
import type { LineRange } from "../schemas";
import { UNFILLED_NAME, type ParsedAdr } from "../internal/adr";
import { stripInline, type MarkdownSection } from "../internal/markdown";
import { balanced, capitalise, cutWords } from "../text";
import { isFragment } from "./fragments";
import { namesAValue, statesAGoal } from "./goals";
import { statesAnOutcome } from "./outcomes";
import { namesOnlyTheTopic, proposalCandidates, proposalStatement, toClauseEnd, withDefiningAside, withFollowingDetail } from "./proposal";
import { contentWordsOf, coverage, headingKey } from "./words";

export { contentWordsOf, coverage, headingKey };
import { IMPERATIVES, MAX_SENTENCE_CHARS, MOVING_VERBS, readDecisionSentence, sentencesIn, weighedInSentence, type LocatedSentence, type ProseReading } from "./prose";

export type OptionSource = "considered-options" | "alternatives" | "proposal";
export type ChosenHow = "chosen-option-line" | "decided-marker" | "outcome-names-option" | "decision-prose";

export interface ConsideredOption {
  name: string;
  range: LineRange;
  source: OptionSource;
  /** The label the record gives it ("A", "2", "B1"), when it has one; "Option 2" in the decision resolves by it. */
  ref?: string;
}
export interface ChosenOption {
  name: string;
  range: LineRange;
  how: ChosenHow;
  /** Index into the considered options when the chosen one is among them. */
  considered_index?: number;
  /** Further considered options chosen together with it ("We decide for options 4, 5 and IV"). */
  combined_with?: number[];
}
export interface RejectedOption {
  name: string;
  /** Why, in the record's words, when it gives a reason. */
  reason?: string;
  range: LineRange;
}
export interface OptionsReading {
  considered: ConsideredOption[];
  chosen?: ChosenOption;
  rejected: RejectedOption[];
  /** What was not understood, in plain words. */
  notes: string[];
}

/** At most this many items are read from one options list; a longer list is cut and the model says so. */
export const MAX_LIST_ITEMS = 200;

/** Headings of sections that list the options a record weighed, other than the one it took. */
export const ALTERNATIVES_HEADING =
  /^(?:(?:other|rejected|discarded|the)\s+)?(?:alternatives?|alternative (?:solutions|approaches|designs)|options)(?:\s+(?:considered|explored|evaluated|discarded|rejected))?$|^considered (?:alternatives|actions|approaches|solutions)$|^roads? not taken$|^(?:the )?option graveyard$|^rejected (?:options|approaches|ideas)$|^(?:discounted|dismissed|abandoned|rejected|discarded) (?:options|alternatives|approaches|ideas)\b|^(?:options|alternatives|approaches|ideas)(?: considered,?)?(?: but)? not (?:pursued|chosen|selected|adopted|taken)$/;
/** An RFC part that holds its alternatives beside something else: "Rationale and alternatives", "Prior art and
 * alternatives", "Expectations and alternatives". Read as an alternatives section unless a sub-section of its own
 * holds the alternatives ("### Alternatives considered" under "## Expectations and alternatives"). An ADR's
 * "Consequences and alternatives" follows from the decision: its lists are follow-up work, not alternatives. */
const COMBINED_ALTERNATIVES_HEADING = /^(?:rationale|prior art|expectations|trade-?offs)(?:,?\s+and|\s*&)\s+alternatives$|^alternatives\s+(?:and|&)\s+(?:prior art|rationale)$/;
/** Headings of sections that list every option weighed, the chosen one among them: "Approaches considered",
 * "Potential solutions". */
const CONSIDERED_HEADING = /^(?:considered options|options|(?:options|approaches|solutions|designs|strategies) considered|(?:potential|possible|candidate) (?:options|approaches|solutions))$/;
/** Headings of sections whose sub-sections are the candidates the decision picks from: "Frameworks to choose from". */
const CANDIDATES_HEADING = /^(?:[\w-]+\s+){1,3}to (?:choose|pick|select) from$|^candidates$|^(?:[\w-]+\s+)?candidates considered$/;
/** Titles that name what was chosen: "Use X", "Adopt X", "Switch to X", "Introduce X". */
const TITLE_CHOICE = /^(?:use|adopt|choose|prefer|introduce|switch to|migrate to|move to|go with)\s/i;
/** A title whose last part is a choice ("Nimbus front-end: directory tree changes and Use React, Bootstrap and GQL",
 * "Logging: adopt X"): after a colon, or a title-cased choice verb after "and", a comma or a dash. */
const TITLE_CHOICE_PART = /(?::\s+(?=(?:use|adopt|choose|prefer|introduce|switch to|migrate to|move to|go with)\s)|(?:\s+(?:and|&)|[,;]|\s+[-–—])\s+(?=(?:Use|Adopt|Choose|Prefer|Introduce|Switch to|Migrate to|Move to|Go with)\s))/i;

/** The part of a title that states a choice: the whole title ("Use X"), else its last part that does. */
function titleChoice(title: string): string | undefined {
  if (TITLE_CHOICE.test(title)) return title;
  const m = TITLE_CHOICE_PART.exec(title);
  if (m) return title.slice(m.index + m[0].length);
  // "Relay metrics and the migration to X": a move named as a noun states where the record moves to.
  const moved = TITLE_MOVE_PART.exec(title);
  return moved ? `Move to ${moved[1]}` : undefined;
}
/** A title's last part that names a move as a noun: "…: migration to X", "… and the switch to X". */
const TITLE_MOVE_PART = /(?:^|:\s+|\s+(?:and|&)\s+|[,;]\s+)(?:the\s+|a\s+)?(?:migration|move|switch|transition)\s+to\s+(\S.*)$/i;
/** Headings of sections that state what was decided or proposed. */
const DECISION_HEADING =
  /^(?:the |our )?(?:decisions?|decision outcome|outcome|resolution|recommendation)(?:\s+(?:and|&)\s+\w+)?$|^(?:internal |our |the )?(?:proposal|proposed (?:solution|design|approach|changes?|decision)|solution|approach)$/;
/** Sections that lay out the design in detail: they state the decision only where the decision section points to
 * them ("Implement as described in the detailed design section"). */
const DESIGN_HEADING = /^(?:detailed |technical |proposed )?design$|^design details$|^specification$/;

/** How many lines a decision section may have and still be read as only pointing elsewhere. */
const POINTER_SECTION_LINES = 6;

/** A short decision section that sends the reader to section `target`: a link to its anchor, or its name followed by "section". */
function pointsToSection(parsed: ParsedAdr, from: number, target: number): boolean {
  const { lines, sections } = parsed.doc;
  const s = sections[from];
  if (s.contentEnd - s.bodyStart > POINTER_SECTION_LINES) return false;
  const text = lines.slice(s.bodyStart - 1, s.contentEnd).join(" ").slice(0, MAX_SENTENCE_CHARS * 2).toLowerCase();
  const key = sectionKey(sections[target]);
  const slug = key.replace(/[^\p{L}\p{N}\s-]/gu, "").trim().replace(/\s+/g, "-");
  return text.includes(`(#${slug})`) || text.includes(`${key} section`) || text.includes(`section ${key}`);
}

/** "Proposed decision: Option 2", "Decision: adopt X": a decision heading that states the decision after a colon. */
function headingTail(key: string): string | undefined {
  const colon = key.indexOf(":");
  if (colon <= 0) return undefined;
  const tail = key.slice(colon + 1).trim();
  return tail && DECISION_HEADING.test(key.slice(0, colon).trim()) ? tail : undefined;
}

/** Each section's key, read once: a record with a thousand headings is read by several section scans. */
const sectionKeys = new WeakMap<MarkdownSection, string>();
function sectionKey(s: MarkdownSection): string {
  let key = sectionKeys.get(s);
  if (key === undefined) {
    key = headingKey(s.heading);
    sectionKeys.set(s, key);
  }
  return key;
}

/** "Option 2: X", "(A) X", "A) X", "A2: X", "1. X" → the label and the rest. */
/** A label written as a word ("Option three:") is the same label as its digit ("option 3"). */
const NUMBER_WORDS: Record<string, string> = { one: "1", two: "2", three: "3", four: "4", five: "5", six: "6", seven: "7", eight: "8", nine: "9", ten: "10" };

function splitRef(text: string): { ref?: string; rest: string } {
  const word = /^(?:option|alternative|variant|approach|solution)\s+(one|two|three|four|five|six|seven|eight|nine|ten)\s*[:.)–—-]\s*(.+)$/i.exec(text);
  if (word) return { ref: NUMBER_WORDS[word[1].toLowerCase()], rest: word[2] };
  const m =
    // "Option A): X" closes the label twice; "Option B (fallback, not preferred): X" qualifies the label in brackets.
    /^(?:option|alternative|variant|approach|solution)\s+([A-Za-z]?\d{0,2}[A-Za-z]?)\s*(?:\([^()]{1,60}\)\s*)?(?:\)\s*[:.–—-]?|[:.–—-])\s*(.+)$/i.exec(text) ??
    /^\(([A-Za-z]\d{0,2}|\d{1,2})\)\s*[:.–—-]?\s*(.+)$/.exec(text) ??
    /^([A-Z]\d{0,2}|\d{1,2})\s*[:.)]\s+(.+)$/.exec(text);
  return m && m[1] ? { ref: m[1].toUpperCase(), rest: m[2] } : { rest: text };
}

/** Stands in for a colon inside inline code while optionName looks for a gloss; never in a record's text. */
const CODE_COLON = "\uE000";

/** "Preferred syntax: X" beside "Discouraged syntax: Y": a label that marks X as the one taken, as "(chosen)" would. */
const PREFERRED_LABEL = /^(?:\d{1,2}[.)]\s*)?(?:preferred|recommended|chosen)\s+(?:syntax|style|approach|option|solution|choice|pattern|way|design|strategy|variant)\s*:\s*\S/i;
const DECIDED_MARK = /\s*(?:\((?:decided|chosen|selected|accepted|preferred)\)|\[(?:decided|chosen|selected)\]|[\u2705\u2714]\ufe0f?)\s*/i;

/** An option as written → its name: links and emphasis stripped, label, decided mark and description removed. */
export function optionName(written: string): { name: string; ref?: string; decided: boolean } {
  // "{#anchor}" and "<a name="option-4"></a>" are link targets, not words.
  // A colon inside inline code ("Running `on: push`") is part of the code, not a gloss: it is masked until the name is cut.
  const masked = written.slice(0, MAX_SENTENCE_CHARS).replace(/`[^`\n]*`/g, (code) => code.replace(/:/g, CODE_COLON));
  let text = stripInline(masked).replace(/\{#[^}]*\}/g, "").replace(/<\/?[a-z][^>]*>/gi, "").trim();
  const decided = DECIDED_MARK.test(text);
  // "NEW! Option E): X": an editor's marker before the label is no part of the option.
  text = text.replace(DECIDED_MARK, " ").trim().replace(/^(?:new|updated?|added)!\s*(?=\S)/i, "");
  const { ref, rest } = splitRef(text);
  text = rest.replace(/^[*_]+|[*_]+$/g, "").trim();
  // "Do nothing. This makes upgrades harder.": the first sentence names the option, the rest argues about it.
  const stop = /[.!?]\s+(?=[A-Z])/.exec(text);
  if (stop && stop.index > 0) {
    const head = text.slice(0, stop.index).trim();
    if (head.split(/\s+/).length <= 12 && !/\b(?:e\.g|i\.e|etc|vs|cf)$/i.test(head)) text = head;
  }
  // "Use the Kubernetes instance, which CNCF also provides": the name comes before its relative clause.
  const relative = /,\s+(?:which|who|whose|where)\b/.exec(text);
  if (relative && relative.index > 0 && text.slice(0, relative.index).trim().split(/\s+/).length >= 2) text = text.slice(0, relative.index).trim();
  // "Formless – No conventions for …", "Log4brains: architecture knowledge base": keep the name before the gloss.
  // "Preferred syntax: Explicit table naming": a head that only labels what follows leaves the name after it.
  const labelled = /^(?:(?:preferred|discouraged|recommended|rejected|chosen|current|proposed|alternative|new|old)\s+)(?:syntax|style|approach|option|solution|choice|pattern|way|design|strategy|variant)\s*:\s+(\S.*)$/i.exec(text);
  if (labelled) text = labelled[1];
  const gloss = /\s[–—-]\s|:\s/.exec(text);
  if (gloss && gloss.index > 0) {
    const head = text.slice(0, gloss.index).trim();
    // "Use { "autoinstall": false } instead": a colon inside code or a quotation ends no name.
    if (head.split(/\s+/).length <= 8 && /[a-z0-9]/i.test(head) && balanced(head)) text = head;
  }
  // "RabbitMQ is an AMQP based message broker": an option introduced by what it is is named by its subject.
  const defined = /^([A-Z][^\s,;:]*(?:\s+[^\s,;:]+){0,2}?)\s+(?:is|are)\s+(?:a|an)\s+\S/.exec(text);
  if (defined && !/^(?:this|that|it|there|here|which|what|option|the)$/i.test(defined[1].split(/\s+/)[0])) text = defined[1];
  // "### Why not republish forks?", "### Why this is not just overrides": a heading that answers for an option names it.
  const whyNot = /^why\s+(?:(?:this|it)\s+is\s+not|not)\s+(?:just\s+)?(?:use\s+|using\s+)?(\S.*?)(?:\s+instead)?\s*\?*$/i.exec(text);
  if (whyNot) text = whyNot[1].charAt(0).toUpperCase() + whyNot[1].slice(1);
  text = text.replace(/(?<![.,;:])[.,;:]+$/, "").trim();
  // "Other templates listed at <https://…>": with the address gone, the words that led to it lead nowhere.
  if (/https?:\/\//i.test(written)) text = text.replace(/(?:\s+(?:at|in|on|from|by|to|of|via|see|under|here))+$/i, "").trim();
  // "'Simple HTTP'", "\"Option A\"": quotes around the whole name are not part of it.
  const wrapped = /^(["“'‘])(.+)(["”'’])$/.exec(text);
  if (wrapped && !/["“”]/.test(wrapped[2]) && (wrapped[1] === '"') === (wrapped[3] === '"')) text = wrapped[2].trim();
  return { name: text.replaceAll(CODE_COLON, ":"), ...(ref ? { ref } : {}), decided };
}

export interface ListItem {
  text: string;
  /** The number or roman numeral of an ordered list item ("4", "IV"): the label a decision may cite it by. */
  marker?: string;
  line: number;
  indent: number;
}

/** A line at the margin that may still continue the list item above it: not a heading, fence, quote, table or rule. */
const LAZY_CONTINUATION = /^(?![#>|`~])(?!(?:[-*_]\s*){3,}$)[^\s]/;

/** List items between two lines (1-based, inclusive), outside code fences, with their indent. */
export function listItems(lines: string[], from: number, to: number): ListItem[] {
  const items: ListItem[] = [];
  let inFence = false;
  // The last line of the item being read (its own, or the last line wrapped into it).
  let wrapsAt = -1;
  for (let n = from; n <= to && items.length < MAX_LIST_ITEMS; n++) {
    const line = (lines[n - 1] ?? "").slice(0, MAX_SENTENCE_CHARS * 2);
    if (/^ {0,3}(`{3,}|~{3,})/.test(line)) inFence = !inFence;
    if (inFence) continue;
    const m = /^(\s*)(?:[-*+]|(\d{1,3}|[IVX]{1,5})[.)])\s+(.*)$/.exec(line);
    if (m && m[3].trim()) {
      items.push({ text: m[3].trim(), line: n, indent: m[1].replace(/\t/g, "    ").length, ...(m[2] ? { marker: m[2] } : {}) });
      wrapsAt = n;
      continue;
    }
    // A wrapped item: a line right under it that starts no item of its own continues its sentence, indented or at
    // the margin (Markdown's lazy continuation: "* Option 1: rendering is done in the" / "publishing-api;").
    const last = items[items.length - 1];
    if (last && wrapsAt === n - 1 && (/^\s{2,}\S/.test(line) || LAZY_CONTINUATION.test(line)) && last.text.length < MAX_SENTENCE_CHARS && !/[.!?:]$/.test(last.text)) {
      last.text = `${last.text} ${line.trim()}`.slice(0, MAX_SENTENCE_CHARS);
      wrapsAt = n;
    }
  }
  return items;
}

/** Items at the shallowest indent; when those are only questions or group labels, the items one level down. */
function optionItems(items: ListItem[]): ListItem[] {
  if (items.length === 0) return [];
  const base = outermostIndent(items);
  const top = items.filter((i) => i.indent === base);
  const nested = items.filter((i) => i.indent > base);
  const groups = top.every((i) => /\?\s*$/.test(stripInline(i.text)) || /:\s*$/.test(stripInline(i.text)));
  if (groups && nested.length > 0) {
    return outermost(nested);
  }
  return top;
}

/** A list that argues (pros and cons, long sentences) rather than names options. */
function looksLikeArguments(items: ListItem[]): boolean {
  const long = items.filter((i) => stripInline(i.text).split(/\s+/).length > 25).length;
  return items.some((i) => /^(?:good|bad|pro|con|neutral)s?\b/i.test(stripInline(i.text))) || long * 2 > items.length;
}

/** An item that says what the thing above it does or is like ("Requires minimal setup", "Less scalable than X"). */
const DESCRIBING_ITEM = /^(?:requires?|needs?|supports?|allows?|provides?|offers?|makes?|gives?|lacks?|adds?|involves?|means?|works?|has|is|are|can(?:not)?|can't|does(?:n't)?|doesn't|will|won't|would|less|more|better|worse|easier|harder|simpler|faster|slower|cheaper|higher|lower)\b/i;

/** Half or more of the items describe their heading (what it requires, how it compares): they argue, none is an option. */
function describeTheHeading(items: ListItem[]): boolean {
  return items.filter((i) => DESCRIBING_ITEM.test(stripInline(i.text).trim())).length * 2 >= items.length;
}

/**
 * The items a list offers as options (optionItems), or none when the list argues: its own items argue, or the labels
 * they sit under do ("**Good, because:**" over the points in favour of the option a heading names).
 */
function namedItems(all: ListItem[]): ListItem[] {
  const items = optionItems(all);
  return looksLikeArguments(items) || (items.length > 0 && items[0].indent > outermostIndent(all) && looksLikeArguments(all)) ? [] : items;
}

/** The paragraph before a list announces problems with something ("… many problems come through X:"). */
function introducesArguments(lines: string[], firstItem: number): boolean {
  const lead: string[] = [];
  // The paragraph may stand right above the list or one blank line above it.
  let top = firstItem - 1;
  if (top >= 1 && !lines[top - 1].trim()) top--;
  for (let n = top; n >= 1 && lines[n - 1].trim() && lead.length < 6; n--) {
    if (/^\s*(?:#|[-*+]\s|\d{1,3}[.)]\s)/.test(lines[n - 1])) break;
    lead.unshift(lines[n - 1].trim());
  }
  return /\b(?:problems?|issues?|drawbacks?|downsides?|disadvantages?|cons|concerns?|risks?|limitations?|shortcomings?|pitfalls?|reasons?)\b[^.:]*:$/i.test(stripInline(lead.join(" ")));
}

/** A heading that argues about what is above it (its pros, cons or consequences), never an option or a group of them. */
const ARGUMENT_HEADING = /^(?:(?:the\s+)?(?:advantages?|disadvantages?|pros?|cons?|benefits?|drawbacks?|downsides?|upsides?|strengths?|weaknesses?|risks?|trade-?offs?|(?:positive|negative|neutral)(?:\s+consequences)?|consequences|good|bad|neutral)(?:\s+and\s+(?:disadvantages?|cons?|drawbacks?|downsides?|weaknesses?))?)\s*:?$/i;

/** Parts of an RFC that may follow its options at the wrong level; never an option. */
const DOCUMENT_PART_UNDER_OPTIONS = /^(?:(?:unresolved|open|outstanding) questions|drawbacks|future (?:work|possibilities)|prior art|references|links|notes?|appendix|summary|conclusions?|(?:(?:backwards?|backward) )?(?:compatibility|security|performance|migration)(?: (?:requirements|considerations|concerns|constraints|impact))?|(?:requirements|considerations|constraints))\s*:?$/i;
/** The do-nothing option under its usual names. */
/** A sub-heading that groups alternatives to one part of a design: "Alternatives for the new class". */
const ALTERNATIVES_GROUP = /^alternatives?\s+(?:for|to|of|on|regarding|around)\b/i;
const STATUS_QUO_HEADING = /^(?:(?:the\s+)?status quo|(?:the\s+)?current (?:state|situation|approach)|as[- ]is|do nothing)\s*:?$/i;

/** "### Other options", "### Further alternatives": a catch-all over whatever else was weighed, never an option itself. */
const OTHER_OPTIONS_GROUP = /^(?:other|further|more|additional|remaining|alternative)\s+(?:options|alternatives|approaches|solutions|designs|ideas|possibilities)\s*:?$/i;

/** A sub-heading that asks what the alternatives under it answer: "Where the deletion API sits", "How we store X". */
const QUESTION_GROUP = /^(?:where|how|what|which|whether|when|who)\s+\S+\s+\S/i;

/** The last line of the first list from `from` on: a paragraph at the margin after it ("Reasons for not choosing 1:")
 * starts what argues about its items. */
function firstListEnd(lines: string[], from: number, to: number): number {
  let n = from;
  while (n <= to && !(lines[n - 1] ?? "").trim()) n++;
  let end = n;
  for (; n <= to; n++) {
    const line = lines[n - 1] ?? "";
    if (!line.trim()) continue;
    if (!/^\s*(?:[-*+]|\d{1,3}[.)])\s/.test(line) && !/^\s{2,}\S/.test(line)) break;
    end = n;
  }
  return end;
}

/** The items of a list that answer a question: its named items, else (when pros and cons sit among them at the
 * same indent) only its numbered items that are not themselves arguments. */
function answerItems(items: ListItem[]): ListItem[] {
  const named = namedItems(items);
  if (named.length >= 2) return named;
  const numbered = outermost(items).filter((i) => i.marker !== undefined && !/^(?:good|bad|pro|con|neutral)s?\b/i.test(stripInline(i.text)) && stripInline(i.text).split(/\s+/).length <= LONG_OPTION_WORDS);
  return numbered.length >= 2 ? numbered : [];
}

/** A sub-heading that only groups options holds nothing but its list (no prose paragraph of its own). */
function onlyAList(lines: string[], from: number, to: number): boolean {
  for (let n = from; n <= to; n++) {
    const line = lines[n - 1] ?? "";
    // An AsciiDoc-style attribute line ("[upperroman]") only styles the list below it.
    if (line.trim() && !/^\s*(?:[-*+]|\d{1,3}[.)]|[IVX]{1,5}[.)])\s/.test(line) && !/^\s{2,}\S/.test(line) && !/^\[[\w-]+\]\s*$/.test(line)) return false;
  }
  return true;
}

/** The options a section lists: its own list items, or one per sub-heading (or per item under group sub-headings). */
function optionsInSection(parsed: ParsedAdr, index: number, source: OptionSource): ConsideredOption[] {
  const { lines, sections } = parsed.doc;
  const sec = sections[index];
  const out: ConsideredOption[] = [];
  const push = (written: string, range: LineRange, marker?: string) => {
    const named = optionName(written);
    const { name } = named;
    const ref = named.ref ?? marker;
    if (name && /[\p{L}\p{N}]/u.test(name)) out.push({ name, range, source, ...(ref ? { ref } : {}) });
  };
  // Options written as prose paragraphs ("One option is to …", "A second option is …") are the options; a list
  // inside one of those paragraphs only details it.
  const introduced = optionsIntroducedInProse(lines, sec.bodyStart, sec.contentEnd);
  const children = sections.map((s, i) => ({ s, i })).filter(({ s }) => s.parent === index && s.level > 0);
  // An alternatives section may weigh a single alternative in prose ("The main alternative is to keep X").
  // Alternatives titled by lines of their own name themselves, however their paragraphs introduce them.
  const titled = source === "alternatives" && children.length === 0 ? titledParagraphs(lines, sec.bodyStart, sec.contentEnd) : [];
  if (titled.length >= 2) return titled;
  const single = source === "alternatives" && introduced.length === 1 && children.length === 0 && listItems(lines, sec.bodyStart, sec.contentEnd).length <= 1;
  if (introduced.length >= 2 || single) {
    for (const o of introduced) out.push({ ...o, source });
    return out;
  }
  const allItems = listItems(lines, sec.bodyStart, sec.contentEnd);
  // A proposal template's questions ("What is in scope?", "What alternatives have been considered?"): only the answer
  // to the question about alternatives names them.
  const answered = source === "alternatives" ? answersToAlternativesQuestion(allItems) : undefined;
  if (answered) {
    for (const item of answered) push(item.text.replace(/:\s*$/, ""), { start: item.line, end: item.line }, item.marker);
    // Answered in paragraphs instead ("We have also considered X, which …"): what they name.
    const span = answered.length === 0 ? alternativesAnswerSpan(allItems, sec.contentEnd) : undefined;
    if (span) out.push(...alternativesInParagraphs(lines, span.start, span.end));
    return out;
  }
  const labelled = labelledGroups(allItems);
  if (labelled.length >= 2) {
    for (const o of labelled) out.push({ ...o, source });
    return out;
  }
  // "**Alternative 1: X.**" and a paragraph with its cons, one per alternative: the bold leads name the alternatives,
  // and the lists under them argue.
  const ledParagraphs = source === "alternatives" && children.length === 0 ? boldLedParagraphs(lines, sec.bodyStart, sec.contentEnd) : [];
  if (ledParagraphs.length >= 2) return ledParagraphs;
  const items = namedItems(allItems);
  // "… many operational problems come through the use of X:" and a list: the list argues against X, it names no options.
  const own = items.length > 0 && introducesArguments(lines, items[0].line) ? [] : items;
  if (source === "alternatives" && own.length === 0 && children.length === 0) {
    const led = ledAlternatives(lines, sec.bodyStart, sec.contentEnd, allItems);
    if (led.length >= 2) return led;
    return alternativesInParagraphs(lines, sec.bodyStart, sec.contentEnd);
  }
  if (own.length > 0) {
    for (const item of own) push(item.text, { start: item.line, end: item.line }, item.marker);
    if (children.length === 0) return out;
  }
  for (const { s, i } of children) {
    // "### Positive Consequences" under the options list argues about the choice; it is no option. Nor is a part of
    // the document nested one level too deep ("## Unresolved questions" under "# Options Considered").
    const heading = stripInline(s.heading).trim();
    if (ARGUMENT_HEADING.test(heading) || DOCUMENT_PART_UNDER_OPTIONS.test(heading)) continue;
    // "### Alternatives for the class name": a group of alternatives to one part of the design, not one of them.
    if (source === "alternatives" && ALTERNATIVES_GROUP.test(heading)) {
      // Without sub-headings, only a sentence that calls something an alternative names one ("we can reduce X" in its
      // list of pros argues, it names none).
      const said = (o: ConsideredOption) => /\balternative\b/i.test(lines.slice(o.range.start - 1, o.range.end).join(" "));
      out.push(...(sections.some((g) => g.parent === i) ? optionsInSection(parsed, i, source) : alternativesInParagraphs(lines, s.bodyStart, s.contentEnd).filter(said)));
      continue;
    }
    // "#### How we store the tombstone" over a numbered list: a question the alternatives answer, each item one answer.
    if (source === "alternatives" && QUESTION_GROUP.test(heading) && !sections.some((g) => g.parent === i)) {
      const answers = answerItems(listItems(lines, s.bodyStart, firstListEnd(lines, s.bodyStart, s.contentEnd)));
      if (answers.length >= 2) {
        for (const item of answers) push(item.text.replace(/:\s*$/, ""), { start: item.line, end: item.line }, item.marker);
        continue;
      }
    }
    // "### Other options": what it lists or heads are options; the heading and its musings are none.
    if (OTHER_OPTIONS_GROUP.test(heading)) {
      const listed = namedItems(listItems(lines, s.bodyStart, s.contentEnd));
      if (sections.some((g) => g.parent === i)) out.push(...optionsInSection(parsed, i, source));
      else if (listed.length > 0 && !looksLikeArguments(listed) && onlyAList(lines, s.bodyStart, s.contentEnd)) for (const item of listed) push(item.text, { start: item.line, end: item.line }, item.marker);
      continue;
    }
    // "### Status quo:" describes what is there today in a list: one option, keeping it, not a group of options.
    if (STATUS_QUO_HEADING.test(heading)) {
      push(s.heading, { start: s.start, end: s.end });
      continue;
    }
    const items = namedItems(listItems(lines, s.bodyStart, s.contentEnd));
    // "#### Advantages" / "#### Disadvantages" under an option's heading argue about that option: it is no group.
    const grandchildren = sections.some((g) => g.parent === i && !ARGUMENT_HEADING.test(stripInline(g.heading).trim()));
    // Groups of options under sub-headings occur in "Considered Options"; an alternatives section's sub-headings
    // are the alternatives themselves, whatever list of arguments each holds.
    const listsOptions = items.length >= 2 && !looksLikeArguments(items) && !describeTheHeading(items) && onlyAList(lines, s.bodyStart, s.contentEnd);
    const isGroup = source === "considered-options" && !splitRef(stripInline(s.heading)).ref && (listsOptions || grandchildren);
    if (isGroup && listsOptions) for (const item of items) push(item.text, { start: item.line, end: item.line }, item.marker);
    else if (isGroup && grandchildren) out.push(...optionsInSection(parsed, i, source));
    else push(s.heading, { start: s.start, end: s.end });
  }
  return out;
}

/** The list's outermost indent (Infinity for an empty list). A loop, not Math.min(...): a list may be long. */
function outermostIndent(items: ListItem[]): number {
  let base = Number.POSITIVE_INFINITY;
  for (const i of items) base = Math.min(base, i.indent);
  return base;
}

/** The items at the list's outermost indent (none of an empty list). */
function outermost(items: ListItem[]): ListItem[] {
  const base = outermostIndent(items);
  return items.filter((i) => i.indent === base);
}

/** A template's question that asks for the alternatives: "What alternatives have been considered, and why …?". */
const TEMPLATE_QUESTION = /^(?:what|which|how|why|who|where|when|are|is|does|do|will|can|should|could|have|has)\b[^?]{0,300}\?/i;
const ALTERNATIVES_QUESTION = /\b(?:alternatives?|other (?:options|approaches|designs))\b.*\?$/i;

/**
 * A list of a template's questions, each answered by the items under or after it: the answer to the question that
 * asks for alternatives (its items one level down, else the items that follow it up to the next question), none when
 * no question asks for them; undefined when the list is no list of questions.
 */
function answersToAlternativesQuestion(items: ListItem[]): ListItem[] | undefined {
  if (items.length === 0) return undefined;
  const top = new Set(outermost(items));
  // "Are there any trade-offs being made? (space for time, for example) N/A": a question may carry a note or its
  // answer after it.
  const isQuestion = (i: ListItem) => top.has(i) && TEMPLATE_QUESTION.test(stripInline(i.text).trim());
  // Questions only template a list that opens with one, or that asks two or more.
  if (!isQuestion(items[0]) && items.filter(isQuestion).length < 2) return undefined;
  const at = items.findIndex((i) => isQuestion(i) && ALTERNATIVES_QUESTION.test(stripInline(i.text).trim()));
  if (at < 0) return [];
  let end = at + 1;
  while (end < items.length && !isQuestion(items[end])) end++;
  return outermost(items.slice(at + 1, end));
}

/** The lines after the template's question that asks for alternatives, up to its next question (or `end`). */
function alternativesAnswerSpan(items: ListItem[], end: number): LineRange | undefined {
  const top = outermost(items);
  const isQuestion = (i: ListItem) => TEMPLATE_QUESTION.test(stripInline(i.text).trim());
  const at = top.findIndex((i) => isQuestion(i) && ALTERNATIVES_QUESTION.test(stripInline(i.text).trim()));
  if (at < 0) return undefined;
  const next = top.slice(at + 1).find(isQuestion);
  return { start: top[at].line + 1, end: next ? next.line - 1 : end };
}

/** A list item that is only an option's label ("Option 1:", "**Option B**"), its description in the items under it. */
const BARE_OPTION_LABEL = /^(?:option|alternative|approach|variant|solution)\s+([A-Za-z]?\d{0,2}[A-Za-z]?)\s*:?$/i;

/** "* Option 1:\n  * Use X …\n* Option 2: …": each labelled group is one option, named by its first item. */
function labelledGroups(items: ListItem[]): ConsideredOption[] {
  if (items.length === 0) return [];
  const base = outermostIndent(items);
  const out: ConsideredOption[] = [];
  items.forEach((item, k) => {
    if (item.indent !== base) return;
    const m = BARE_OPTION_LABEL.exec(stripInline(item.text).replace(/[*_]/g, "").trim());
    const first = items[k + 1];
    if (!m || !m[1] || !first || first.indent <= base) return;
    const name = shortClause(optionName(first.text.replace(/:\s*$/, "")).name);
    if (name && /[\p{L}\p{N}]/u.test(name)) out.push({ name, range: { start: item.line, end: first.line }, source: "considered-options", ref: m[1].toUpperCase() });
  });
  // Every top item must be such a label: a list that mixes them with plain options is read as plain options.
  return out.length === items.filter((i) => i.indent === base).length ? out : [];
}

/**
 * An alternatives section written as paragraphs, one alternative each: "We can implement our own pool instead.",
 * "`Follower Read` can also spread the load.", "For example, we tried to keep X.". Each paragraph's first sentence
 * names its alternative: what "we" could do or tried, or a code-formatted subject; a paragraph that names none is
 * left out.
 */
function alternativesInParagraphs(lines: string[], from: number, to: number): ConsideredOption[] {
  const out: ConsideredOption[] = [];
  let lastStart = -1;
  for (const s of sentencesIn(lines, from, to, MAX_LIST_ITEMS)) {
    if (s.start === lastStart) continue;
    lastStart = s.start;
    const raw = lines.slice(s.start - 1, s.end).join(" ");
    const name = alternativeInSentence(s.text, raw);
    if (name && out.length < PROSE_LIST_MAX) out.push({ name, range: { start: s.start, end: s.end }, source: "alternatives" });
  }
  return out;
}

/** A lead in bold that opens a paragraph or an item: "**Query the history directly.** This is not possible …". */
const BOLD_LEAD = /^(?:\*\*|__)([^*_\n]{2,120}?)(?:\*\*|__)/;
/** A lead before a colon that opens a long item: "No `x` option: the first draft left it out …". */
const COLON_LEAD = /^([^:.!?\n]{2,80}?):\s+\S/;
const LEAD_LABEL = /^(?:notes?|nb|examples?|e\.g|update|edit|tl;?dr|summary|conclusion|caveats?|warning|chosen|rejected|decision|decided|verdict|finding|findings|result|outcome|status|reason)$/i;
/** A lead names an alternative in at most this many words. */
const LEAD_WORDS = 12;

/** The name a paragraph's or an item's lead gives (see ledAlternatives); undefined when it opens with none. */
function leadOf(text: string, colonToo: boolean): string | undefined {
  const m = BOLD_LEAD.exec(text) ?? (colonToo ? COLON_LEAD.exec(text) : null);
  const lead = m ? stripInline(m[1]).replace(/[.:]\s*$/, "").trim() : "";
  // "**Note:**", "**Pros:**", "**Chosen:**" label a remark, an argument or a verdict, never an alternative.
  if (ARGUMENT_HEADING.test(lead) || LEAD_LABEL.test(lead)) return undefined;
  return lead && lead.split(/\s+/).length <= LEAD_WORDS && /[\p{L}\p{N}]/u.test(lead) ? lead : undefined;
}

function ledOption(lead: string, line: number): ConsideredOption {
  const { name, ref } = optionName(lead);
  // "**Model 5 — occupancy gating (chosen).**": a bare label before the dash says less than the whole lead.
  const bareLabel = /^\S+\s+(?:\d{1,2}|[A-Z])$/.test(name);
  const whole = lead.replace(DECIDED_MARK, " ").trim();
  return { name: bareLabel || !name ? whole : name, range: { start: line, end: line }, source: "alternatives", ...(ref ? { ref } : {}) };
}

/**
 * Alternatives an RFC argues one paragraph or one long item each, named by the lead that opens it: a bold lead
 * ("**Alternative 2: External proxy.** …", "1. **Same VPC**: …") or, for an item, the words before its colon. Every
 * top-level item must open with such a lead, else the items only argue and the bold-led paragraphs above them name
 * the alternatives.
 */
function ledAlternatives(lines: string[], from: number, to: number, items: ListItem[]): ConsideredOption[] {
  if (items.length > 0) {
    const top = outermost(items);
    const leads = top.map((i) => leadOf(i.text.trim(), true));
    if (top.length >= 2 && leads.every(Boolean)) return top.map((i, k) => ledOption(leads[k]!, i.line));
  }
  return boldLedParagraphs(lines, from, to);
}

/** Paragraphs that open with a bold lead, each read as the alternative its lead names (see ledAlternatives). */
function boldLedParagraphs(lines: string[], from: number, to: number): ConsideredOption[] {
  const out: ConsideredOption[] = [];
  for (let n = from; n <= to && out.length < PROSE_LIST_MAX; n++) {
    const line = lines[n - 1] ?? "";
    // Only a paragraph's first line can open it.
    if (n > from && (lines[n - 2] ?? "").trim()) continue;
    const lead = leadOf(line.trim(), false);
    if (lead && !/^\s/.test(line)) out.push(ledOption(lead, n));
  }
  return out;
}

/** A line standing alone as a title names an alternative in at most this many words. */
const TITLE_LINE_WORDS = 12;

/**
 * Alternatives titled by a line of their own, without heading marks: "Tokenized Interface / Secure Link" on one line,
 * then a paragraph on it. The title is a paragraph of one short line that ends without a sentence's stop.
 */
function titledParagraphs(lines: string[], from: number, to: number): ConsideredOption[] {
  const out: ConsideredOption[] = [];
  let inFence = false;
  for (let n = from; n <= to && out.length <= PROSE_LIST_MAX; n++) {
    const line = (lines[n - 1] ?? "").slice(0, MAX_SENTENCE_CHARS);
    if (/^ {0,3}(`{3,}|~{3,})/.test(line)) inFence = !inFence;
    // Blank lines above and below it, and a paragraph right after.
    const standsAlone = n === from || !(lines[n - 2] ?? "").trim();
    const described = !(lines[n] ?? "").trim() && (lines[n + 1] ?? "").trim() !== "";
    if (inFence || !line.trim()) continue;
    const text = stripInline(line).trim();
    if (!standsAlone || !described || /^(?:[#>|]|[-*+]\s|\d{1,3}[.)]\s)/.test(line.trim()) || /[.!?:;,]$/.test(text)) continue;
    if (text.split(/\s+/).length > TITLE_LINE_WORDS || !/^[\p{Lu}\p{N}`"“]/u.test(text) || isFragment(text) || ARGUMENT_HEADING.test(text) || LEAD_LABEL.test(text)) continue;
    out.push({ name: withoutAside(optionName(text).name), range: { start: n, end: n }, source: "alternatives" });
  }
  return out.length <= PROSE_LIST_MAX ? out : [];
}

/** The alternative one sentence names, when it names one (see alternativesInParagraphs). */
function alternativeInSentence(sentence: string, raw: string): string | undefined {
  // "Instead of defining our own format, we could reuse one": the lead-in names what the RFC does; the rest, the
  // alternative.
  const text = sentence.replace(/^(?:for (?:example|instance)|e\.g\.)\s*,?\s*/i, "").replace(/^instead of [^,;.]{1,120},\s*(?=we\s)/i, "");
  // "Alternative 2 is to add the path to the URL", "Option B would be for X to Y".
  const labelled = /^(?:alternative|option)\s+(?:\d{1,2}|[A-Z]|one|two|three|four|five)\s+(?:is|would be|was|could be)\s+(?:to\s+|for\s+)?(\S.*)$/i.exec(text);
  if (labelled) return namedPhrase(labelled[1]);
  // "The alternative to expressing X would be to use Y", "An alternative is Y".
  const named = /^(?:the|an|one|another)\s+(?:\w+\s+)?alternative\b[^,.;]{0,120}?\b(?:would be|is|was|could be|will be)\s+(?:to\s+)?(\S.*)$/i.exec(text);
  if (named) return namedPhrase(named[1]);
  // "There was a previous design that cached data at the TiKV side": a design weighed before this one.
  const earlier = /^there\s+(?:was|were|is|has been)\s+(?:also\s+)?(?:a|an|another)\s+(?:previous|earlier|prior|older|original|first|alternative|competing)\s+(?:design|approach|proposal|implementation|idea|attempt|solution)\s+(?:that|which|to|where)\s+(\S.*)$/i.exec(text);
  if (earlier) return namedPhrase(earlier[1]);
  // "Adding an `executeOnFilesAsync()` method is an alternative."
  const subjectNamed = /^(\S.{2,120}?)\s+(?:is|was|would be|could be)\s+(?:an|another|one)\s+(?:possible\s+|obvious\s+)?alternative\b/i.exec(text);
  if (subjectNamed) return namedPhrase(subjectNamed[1]);
  const words = text.split(/\s+/);
  const low = words.map((w) => w.toLowerCase().replace(/[^a-z']/g, ""));
  const modal = low.findIndex((w, i) => i <= 5 && /^(?:can|could|might|may)$/.test(w));
  // "We could X", "we tried to X", "we have considered X".
  // "We have also considered springerle, which uses …".
  const weighed = /^we\s+(?:have\s+|had\s+)?(?:also\s+)?(?:considered|evaluated|explored|investigated|looked at)\s+(?:using\s+)?(\S.*)$/i.exec(text);
  if (weighed) return namedPhrase(weighed[1]);
  if (low[0] === "we") {
    let v = modal === 1 ? 2 : /^(?:tried|attempted)$/.test(low[1] ?? "") && low[2] === "to" ? 3 : -1;
    if (v < 0) return undefined;
    if (low[v] === "also") v++;
    return namedPhrase(words.slice(v).join(" "));
  }
  if (modal < 1) return undefined;
  // "`Follower Read` feature can also X": a subject written as code is the alternative's name; any other subject
  // is only who would act, and what it would do is the alternative.
  const subject = words.slice(0, modal).join(" ");
  if (raw.slice(0, raw.indexOf(words[modal - 1]) + words[modal - 1].length).includes("`")) return namedPhrase(subject);
  let v = modal + 1;
  if (low[v] === "also") v++;
  return namedPhrase(words.slice(v).join(" "));
}

/** A phrase cut where a reason or a clause starts, kept when it is short and names something. */
function namedPhrase(text: string): string | undefined {
  const cut = text.split(/[,;:]\s|[.!?](?:\s|$)|\s(?:because|since|so that|which|but|however|although|in order|instead of|rather than)\s/i)[0].trim();
  // "to not support an LTS at all and continue on the current path of …": a long phrase whose first part is a whole
  // clause keeps that part.
  const words = cut.split(/\s+/);
  const joined = words.findIndex((w, k) => k >= 3 && /^(?:and|then)$/i.test(w));
  const kept = words.length > LONG_OPTION_WORDS && joined > 0 && joined <= LONG_OPTION_WORDS ? words.slice(0, joined).join(" ") : cut;
  if (kept.split(/\s+/).length > LONG_OPTION_WORDS || isFragment(kept)) return undefined;
  return stripInline(kept).replace(/[.,;:]+$/, "").trim() || undefined;
}

const PROSE_OPTION_INTRO =
  /^(?:(?:one|an?|a first|the first|a second|the second|another|a third|the third|a fourth|the fourth|a fifth|the fifth|a final|the final|a last|the last|yet another|the primary|the main|the only|an obvious|the obvious)\s+(?:possible\s+|alternative\s+|suggested\s+|proposed\s+)?|alternative\s+)(?:option|alternative|approach|solution|possibility|choice|suggestion|proposal|idea)\s+(?:here\s+)?(?:is|would be|could be|was|involves|would involve)\s+(?:to\s+|that\s+)?(.+)$/i;
/** A name read from prose keeps at most this many words. */
const PROSE_OPTION_WORDS = 16;

/** Options introduced one paragraph each: "One option is to X …", "A second option is X …", "Another approach …". */
function optionsIntroducedInProse(lines: string[], from: number, to: number): { name: string; range: LineRange; ref: string }[] {
  const out: { name: string; range: LineRange; ref: string }[] = [];
  for (const s of sentencesIn(lines, from, to, MAX_LIST_ITEMS)) {
    const m = PROSE_OPTION_INTRO.exec(s.text);
    if (!m) continue;
    const name = cutWords(m[1].split(/[;.](?:\s|$)/)[0].replace(/[,:;.]+$/, "").trim(), PROSE_OPTION_WORDS);
    if (name && /[\p{L}\p{N}]/u.test(name)) out.push({ name, range: { start: s.start, end: s.end }, ref: String(out.length + 1) });
  }
  return out;
}

/** Headings that are options by their own label: "Option A: …", "Alternative 2 – …", "Approach (B) …". */
const OPTION_HEADING = /^(?:option|alternative|variant|approach|solution|proposal)\s+\(?(?:[A-Za-z]\d{0,2}|\d{1,2}[A-Za-z]?|one|two|three|four|five|six|seven|eight|nine|ten)\)?\s*[:.)–—-]\s*\S/i;
/** A sentence that announces the options listed after it: "We discussed three options:", "Two strategies were considered." */
const OPTIONS_NOUN = /\b(?:options|alternatives|approaches|strategies|ways|choices|possibilities|solutions|methods|candidates)\b/i;
const ANNOUNCES = /\b(?:considered|discussed|evaluated|explored|identified|weighed|possible|available|known|proposed|following|two|three|four|five|several|few|[2-5])\b/i;
/** Words that announce options only right before the colon that opens their list. */
const LIST_LEAD = /^(?:main|principal)$/i;
/** A sentence that concedes something before turning to what the record is about. */
const CONCEDED = /(?:^|(?<=[.!?]\s))(?:whilst|while|although|though|even though)\s[^,.!?]*,?/gi;
/** How many words apart the options noun and its announcing word may stand: "the three options we weighed". */
const ANNOUNCE_REACH = 4;

/**
 * A paragraph announces options in one phrase ("the following approaches", "we need to look at other options"),
 * or leads into them with a colon; the two words far apart ("in several steps … leave options open") announce nothing.
 */
function announcesOptions(written: string): boolean {
  // "Whilst there are several ways to do X, this RFC is about Y": options conceded in passing are not weighed.
  const paragraph = written.replace(CONCEDED, " ");
  if (!OPTIONS_NOUN.test(paragraph)) return false;
  const words = paragraph.split(/\s+/);
  const near = (cue: RegExp) => words.some((w, i) => OPTIONS_NOUN.test(w) && words.slice(Math.max(0, i - ANNOUNCE_REACH), i + ANNOUNCE_REACH + 1).some((x) => cue.test(x.replace(/[^\p{L}]/gu, ""))));
  // "We currently have many solutions for X, including:", "The main strategies are:": a lead into a list only.
  if (/:\s*$/.test(paragraph)) return ANNOUNCES.test(paragraph) || near(LIST_LEAD) || /\b(?:including|such as)\s*:\s*$/i.test(paragraph);
  // "other options" announces them; "other ways to make X" names a manner of doing something.
  const others = (i: number) => /^other$/i.test(words[i - 1] ?? "") && !/^to$/i.test(words[i + 1] ?? "");
  return words.some((w, i) => OPTIONS_NOUN.test(w) && (others(i) || words.slice(Math.max(0, i - ANNOUNCE_REACH), i + ANNOUNCE_REACH + 1).some((x) => ANNOUNCES.test(x))));
}

/** An options list read from prose keeps at most this many items; a longer one is no list of options. */
const PROSE_LIST_MAX = 8;

/**
 * Options a record lists outside any options section: one heading each with its own option label ("## Option A:
 * …") under whatever heading; a list right after a sentence that announces it ("We discussed three options:");
 * sub-sections whose openings introduce them in turn ("One solution is …", "The second suggestion is …"); an
 * inline enumeration after such a sentence ("two methods …: in-line and separate"); "whether we X, or Y".
 */
/** "### Alternative 1" names an alternative to what the record itself proposes; "### Option 1" one of options weighed alike. */
function alternativeOrOption(heading: string): OptionSource {
  return /^alternative\b/i.test(stripInline(heading).trim()) ? "alternatives" : "considered-options";
}

function optionsOutsideOptionSections(parsed: ParsedAdr): ConsideredOption[] {
  const { lines, sections } = parsed.doc;
  // 1. Labelled option headings, the largest group of siblings.
  const byParent = new Map<number, ConsideredOption[]>();
  sections.forEach((s, i) => {
    if (s.level === 0) return;
    // "## Option 1" with nothing after the label: its section's first sentence says what it is.
    const bare = BARE_OPTION_LABEL.exec(stripInline(s.heading).trim());
    const described = bare?.[1] ? describedOption(lines, s) : undefined;
    if (bare?.[1] && described) {
      const group = byParent.get(s.parent ?? -1) ?? [];
      group.push({ name: `${capitalise(bare[0].replace(/:$/, "").trim())}: ${described}`, range: { start: s.start, end: s.end }, source: alternativeOrOption(s.heading), ref: bare[1] });
      byParent.set(s.parent ?? -1, group);
      return;
    }
    // The key has lost its case and numbering, but an option label survives in it ("option a: …").
    if (!OPTION_HEADING.test(sectionKey(s)) || !OPTION_HEADING.test(stripInline(s.heading))) return;
    const { name, ref } = optionName(s.heading);
    if (!name || !ref) return;
    const group = byParent.get(s.parent ?? -1) ?? [];
    group.push({ name, range: { start: s.start, end: s.end }, source: alternativeOrOption(s.heading), ref });
    byParent.set(s.parent ?? -1, group);
    void i;
  });
  const headed = [...byParent.values()].sort((a, b) => b.length - a.length)[0];
  if (headed && headed.length >= 2) return headed;
  const unlabelled = unlabelledOptionHeadings(parsed);
  if (unlabelled.length >= 2) return unlabelled;
  // 2. Sibling sub-sections whose openings introduce options in turn.
  const siblings = new Map<number, ConsideredOption[]>();
  sections.forEach((s) => {
    if (s.level === 0) return;
    const first = sentencesIn(lines, s.bodyStart, s.contentEnd, 1)[0];
    if (!first || !PROSE_OPTION_INTRO.test(first.text)) return;
    const { name } = optionName(s.heading);
    if (!name) return;
    const group = siblings.get(s.parent ?? -1) ?? [];
    group.push({ name, range: { start: s.start, end: s.end }, source: "considered-options", ref: String(group.length + 1) });
    siblings.set(s.parent ?? -1, group);
  });
  const introduced = [...siblings.values()].sort((a, b) => b.length - a.length)[0];
  if (introduced && introduced.length >= 2) return introduced;
  const numbered = numberedBoldParagraphs(parsed);
  if (numbered.length >= 2) return numbered;
  // 3. A list announced by the paragraph before it, or an enumeration inside the announcing sentence.
  // Front matter is metadata: its `tags:` list and `summary:` line name no options.
  // What a record weighs after its decision ("Consequences: we had two approaches to cope with this") is follow-up
  // work, not the options of the decision.
  const inAftermath = aftermathOf(parsed);
  const all = sentencesIn(lines, bodyStart(parsed), lines.length, WEIGHED_SENTENCES).filter((s) => !inAftermath(s.start));
  for (const [k, s] of all.entries()) {
    // A paragraph that announces options ("Two approaches were weighed. This is what they were.") leads into the
    // list right after it; an enumeration may also follow a colon inside the announcing sentence.
    if (all[k + 1]?.start !== s.start) {
      const paragraph = all.filter((x) => x.start === s.start).map((x) => x.text).join(" ");
      // A list item that mentions alternatives ("- We want to explore all alternatives") announces no list of them.
      const isItem = /^\s*(?:[-*+]|\d{1,3}[.)])\s/.test(lines[s.start - 1] ?? "");
      const announces = !isItem && announcesOptions(paragraph);
      const listed = announces ? listAfter(lines, s.end) : [];
      if (listed.length >= 2 && listed.length <= PROSE_LIST_MAX) return listed;
      const headings = announces ? headingsAfter(parsed, s.end) : [];
      if (headings.length >= 2 && headings.length <= PROSE_LIST_MAX) return headings;
    }
    const weighed = enumeratedWeighing(s);
    if (weighed.length >= 2) return weighed;
    if (!OPTIONS_NOUN.test(s.text) || !ANNOUNCES.test(s.text)) continue;
    const inline = enumeratedAfterColon(s);
    if (inline.length >= 2) return inline;
  }
  // 4. "… whether we use X, or use Y."
  for (const s of all) {
    const pair = whetherOr(s);
    if (pair.length === 2) return pair;
  }
  return [];
}

/**
 * "For distributed caching, there are 3 main options:" and a list, inside the decision: the decision weighs those
 * too, beside the options its record listed (those already read are not read twice).
 */
function optionsAnnouncedInDecision(parsed: ParsedAdr, decisionIdx: number[], considered: ConsideredOption[]): ConsideredOption[] {
  const { lines, sections } = parsed.doc;
  const known = new Set(considered.map((o) => contentWordsOf(o.name).join(" ")));
  for (const i of decisionIdx) {
    const s = sections[i];
    const sentences = sentencesIn(lines, s.bodyStart, s.contentEnd, EARLY_SENTENCES * 4);
    for (const [k, x] of sentences.entries()) {
      if (sentences[k + 1]?.start === x.start) continue;
      // The sentence that leads into the list must announce it: "Objectives of the new process:" after a sentence
      // about options announces objectives.
      if (/^\s*(?:[-*+]|\d{1,3}[.)])\s/.test(lines[x.start - 1] ?? "") || !/:\s*$/.test(x.text) || !announcesOptions(x.text)) continue;
      const listed = listAfter(lines, x.end).filter((o) => !known.has(contentWordsOf(o.name).join(" ")));
      // "The following options are exposed:" and a list of flags ("--query-range.split-interval") names settings.
      const named = listed.every((o) => /^[\p{L}\p{N}"“]/u.test(o.name));
      if (named && listed.length >= 2 && listed.length <= PROSE_LIST_MAX) return listed;
    }
  }
  return [];
}

/** Sections that follow from the decision rather than weigh it. */
const AFTERMATH = /^(?:consequences?|outcomes|implications?|follow[- ]?ups?|next steps)\b/;

/** Whether a line sits in a consequences-like section or under one (a section's range holds its sub-sections). */
function aftermathOf(parsed: ParsedAdr): (n: number) => boolean {
  const ranges = parsed.doc.sections.filter((s) => s.level > 0 && AFTERMATH.test(sectionKey(s)));
  return (n) => ranges.some((s) => s.start <= n && n <= s.end);
}

/** A paragraph that opens with a numbered bold name: "**1) React Spring** - …", "**2. Pose**:", "1) **Pose**" (not a
 * Markdown list item "1. **X** - …": a list inside a decision lists the parts of what was chosen as often as rivals). */
const NUMBERED_BOLD_LEAD = /^ {0,3}(?:\*\*|__)\s*(\d{1,2})[.)]\s*([^*_\n]{1,80}?)\s*(?:\*\*|__)|^ {0,3}(\d{1,2})\)\s+(?:\*\*|__)([^*_\n]{1,80}?)(?:\*\*|__)/;

/**
 * Candidates a section walks through one paragraph each, numbered in bold from 1 ("**1) X** - what X is …"): the
 * longest such run of one section, numbered 1, 2, 3 … in order. A bold lead without a number is an emphasis, not a
 * candidate, so it is never read here.
 */
function numberedBoldParagraphs(parsed: ParsedAdr): ConsideredOption[] {
  const { lines, sections } = parsed.doc;
  let best: ConsideredOption[] = [];
  for (const [i, s] of sections.entries()) {
    // A section that argues ("Positive Consequences", "Context") numbers its points, not candidates.
    if (s.level === 0 || ARGUMENT_HEADING.test(headingKey(s.heading)) || /^(?:context|status|decision-drivers|consequences|positive-consequences|negative-consequences|links|more-information)$/.test(parsed.section_names[i] ?? "")) continue;
    const run: ConsideredOption[] = [];
    let inFence = false;
    for (let n = s.bodyStart; n <= s.contentEnd; n++) {
      const line = (lines[n - 1] ?? "").slice(0, MAX_SENTENCE_CHARS);
      if (/^ {0,3}(`{3,}|~{3,})/.test(line)) inFence = !inFence;
      const m = inFence || (lines[n - 2] ?? "").trim() !== "" ? undefined : NUMBERED_BOLD_LEAD.exec(line);
      if (!m) continue;
      const number = Number(m[1] ?? m[3]);
      const name = optionName(m[2] ?? m[4]).name.replace(/[\s:–—-]+$/, "");
      if (number !== run.length + 1 || !/[\p{L}]/u.test(name)) continue;
      // "**1) It is a well-established library**": a numbered reason is a clause, never a candidate's name.
      if (/\b(?:is|are|was|were|has|have|can|will|allows?|makes?|gives?)\b/i.test(name)) continue;
      // The paragraph before the first lead says what is numbered: "for a number of reasons:" numbers no candidates.
      if (run.length === 0 && /\b(?:reasons?|because|benefits?|advantages?|why|requirements?|goals?|principles?|steps?)\b/i.test(paragraphBefore(lines, n, s.bodyStart))) break;
      run.push({ name, range: { start: n, end: n }, source: "considered-options", ref: String(number) });
    }
    // Each candidate's block runs to the next one's lead (the last to its section's end): what it says there
    // describes that candidate.
    run.forEach((o, k) => (o.range = { start: o.range.start, end: k + 1 < run.length ? run[k + 1].range.start - 1 : s.contentEnd }));
    if (run.length > best.length && run.length <= PROSE_LIST_MAX) best = run;
  }
  return best;
}

/** The text of the paragraph that ends right above line `n` (blank lines skipped), at most a few lines of it. */
function paragraphBefore(lines: string[], n: number, from: number): string {
  let end = n - 1;
  while (end >= from && !(lines[end - 1] ?? "").trim()) end--;
  let start = end;
  while (start > from && (lines[start - 2] ?? "").trim() && end - start < 6) start--;
  return lines.slice(start - 1, end).join(" ").slice(0, MAX_SENTENCE_CHARS);
}

/** "#### Option: Raw data\n…\n#### Option: Code": sibling headings that each open with "Option:" and no label. */
function unlabelledOptionHeadings(parsed: ParsedAdr): ConsideredOption[] {
  const byParent = new Map<number, ConsideredOption[]>();
  for (const s of parsed.doc.sections) {
    const m = /^(?:option|alternative|approach)\s*:\s*(\S.*)$/i.exec(stripInline(s.heading).trim());
    if (s.level === 0 || !m) continue;
    const group = byParent.get(s.parent ?? -1) ?? [];
    group.push({ name: optionName(m[1]).name, range: { start: s.start, end: s.end }, source: "considered-options", ref: String(group.length + 1) });
    byParent.set(s.parent ?? -1, group);
  }
  return [...byParent.values()].sort((a, b) => b.length - a.length)[0] ?? [];
}

/** "There were 3 options considered:" and then one heading per option: the run of sibling headings right after. */
function headingsAfter(parsed: ParsedAdr, line: number): ConsideredOption[] {
  const { lines, sections } = parsed.doc;
  let n = line + 1;
  while (n <= lines.length && !lines[n - 1].trim()) n++;
  const first = sections.findIndex((s) => s.level > 0 && s.start === n);
  if (first < 0) return [];
  const { parent, level } = sections[first];
  const out: ConsideredOption[] = [];
  for (let i = first; i < sections.length && out.length <= PROSE_LIST_MAX; i++) {
    const s = sections[i];
    if (s.level < level) break;
    if (s.level > level || s.parent !== parent) continue;
    // The record's own parts ("Decision", "Consequences") end the run: they are no candidates.
    if (/^(?:status|context|decision|decision-outcome|consequences|positive-consequences|negative-consequences|links)$/.test(parsed.section_names[i] ?? "")) break;
    const { name, ref } = optionName(s.heading);
    if (name && /[\p{L}\p{N}]/u.test(name)) out.push({ name, range: { start: s.start, end: s.end }, source: "considered-options", ...(ref ? { ref } : {}) });
  }
  return out;
}

/** "This option is the most verbose and nests an array of objects." → "the most verbose and nests an array of objects". */
function describedOption(lines: string[], s: MarkdownSection): string | undefined {
  const first = sentencesIn(lines, s.bodyStart, s.contentEnd, 1)[0]?.text;
  if (!first) return undefined;
  const text = stripInline(first).replace(/^(?:this|the)\s+(?:option|alternative|approach|variant|solution|proposal)\s+(?:is\s+|was\s+|would\s+)?|^(?:this|it)\s+(?:is|was|would)\s+/i, "").replace(/[.!?]$/, "").trim();
  return text ? cutWords(shortClause(text), LONG_OPTION_WORDS) : undefined;
}

/** A fenced example inside a list item is at most this long; a longer block ends the list. */
const FENCED_EXAMPLE_LINES = 30;

/** The top-level items of a list that starts on the first non-blank line after `line`. */
function listAfter(lines: string[], line: number): ConsideredOption[] {
  let n = line + 1;
  while (n <= lines.length && !lines[n - 1].trim()) n++;
  if (n > lines.length || !/^\s*(?:[-*+]|\d{1,3}[.)]|[a-z][.)])\s+\S/.test(lines[n - 1])) return [];
  const inList = (line: string | undefined) => /^\s*(?:[-*+]|\d{1,3}[.)])\s|^\s{2,}\S/.test(line ?? "");
  let end = n;
  for (;;) {
    if (end >= lines.length) break;
    // A margin line right under an item's line continues it (lazy continuation); after a blank line it ends the list.
    const lazy = lines[end].trim() !== "" && lines[end - 1].trim() !== "" && LAZY_CONTINUATION.test(lines[end]) && inList(lines[end + 1]);
    if (lazy || (lines[end].trim() === "" ? inList(lines[end + 1]) : inList(lines[end]))) {
      end++;
      continue;
    }
    // An item's example in a fenced block written at the margin ("1. Have one endpoint. For example," then ```…```)
    // belongs to the item: the list goes on when another item follows the block.
    const fence = lines[end].trim() === "" ? end + 1 : end;
    if (!/^\s*(?:```|~~~)/.test(lines[fence] ?? "")) break;
    let close = fence + 1;
    while (close < lines.length && close - fence <= FENCED_EXAMPLE_LINES && !/^\s*(?:```|~~~)\s*$/.test(lines[close])) close++;
    let next = close + 1;
    while (next < lines.length && !lines[next].trim()) next++;
    if (close >= lines.length || close - fence > FENCED_EXAMPLE_LINES || !/^\s*(?:[-*+]|\d{1,3}[.)])\s/.test(lines[next] ?? "")) break;
    end = next + 1;
  }
  // The top-level items are the options ("- Reflection:" above its description), never the details under them.
  const items = outermost(listItems(lines, n, end));
  if (mostlyStatements(items.map((i) => i.text))) return [];
  const out: ConsideredOption[] = [];
  for (const item of items) {
    const { name: written, ref } = optionName(item.text.replace(/:\s*$/, ""));
    // "Have one endpoint per type. For example," leads into its example: the option is the sentence before it.
    const name = codeLeadOf(item.text) ?? shortClause(withoutAside(written.replace(/[.;:]\s*(?:for example|for instance|e\.g\.)[\s\S]*$/i, "")));
    const label = ref ?? item.marker;
    if (name && /[\p{L}\p{N}]/u.test(name)) out.push({ name, range: { start: item.line, end: item.line }, source: "considered-options", ...(label ? { ref: label } : {}) });
  }
  return out;
}

/** An aside of this many words or more after an option's name describes it: "Travis CI (hosted, paid on a card)". */
const ASIDE_WORDS = 3;

/** "Jenkins CI (self-hosted, behind IP restrictions)" → "Jenkins CI"; a short aside ("Server-sent events (SSE)") stays. */
function withoutAside(name: string): string {
  const m = /^(.*\S)\s*\(([^()]+)\)$/.exec(name.trim());
  return m && m[2].trim().split(/\s+/).length >= ASIDE_WORDS && /[\p{L}\p{N}]/u.test(m[1]) ? m[1] : name;
}

/** "`nullify` works well if …": the code term an item opens with, which names it however long the item runs on. */
function codeLeadOf(item: string): string | undefined {
  return /^`([^`]{1,60})`\s+\S/.exec(item.trim())?.[1];
}

/** A list item that is a statement by someone ("We want to …", "You can call …") or a condition ("If a program
 * embeds …"), not the name of an option. */
const STATEMENT_ITEM = /^(?:i|we|you|they|it|he|she|if|when|whenever|unless)\s+\S/i;
/** A list item that says what something must, could or will do ("The server must be able to …", "Published
 * instances could inadvertently read …"): a requirement or a risk, not the name of an option. */
const CLAIM_ITEM = /^(?:[^\s,;:()]+\s+){1,12}?(?:must|should|shall|needs? to|has to|have to|could|would|will|can|cannot|may|might)\s+(?:not\s+|never\s+|also\s+|only\s+|inadvertently\s+)?[a-z]/i;
/** A clause inside the subject ("A service that would …") makes the modal its own, not the item's. */
const SUBJECT_CLAUSE = /\b(?:that|which|who|where|when|if|to|since|because|as|so|and|but|or)\s/i;
function isClaim(item: string): boolean {
  const text = stripInline(item).trim();
  const m = CLAIM_ITEM.exec(text);
  if (!m || SUBJECT_CLAUSE.test(m[0]) || text.split(/\s+/).length < 6) return false;
  // "Use X so it can …", "Moving X where it will …": an option that opens with its action is still an option.
  const first = text.split(/\s+/)[0].toLowerCase().replace(/[^a-z]/g, "");
  return !IMPERATIVES.has(first) && !/ing$/.test(first);
}

/** Half or more of a list's items are statements or claims: the list says things, it does not name options. */
function mostlyStatements(texts: string[]): boolean {
  return texts.filter((t) => STATEMENT_ITEM.test(stripInline(t).trim()) || isClaim(t)).length * 2 >= texts.length;
}

/** An option described in one long item keeps what comes before its description: "Refactor X into a singleton,
 * so that …", "Adopt the pattern of Y, which …", "Move in one go - a short window is needed". */
const LONG_OPTION_WORDS = 12;
function shortClause(name: string): string {
  if (name.split(/\s+/).length <= LONG_OPTION_WORDS) return name;
  const words = name.split(/\s+/);
  for (let k = 3; k < words.length; k++) {
    const prev = words[k - 1];
    // A dash or a relative clause starts the description; a comma alone may only separate steps of the option.
    if (/^(?:[-–—]|which|whereby|while|where)$/i.test(words[k]) || (/,$/.test(prev) && /^(?:so|because|since|as)$/i.test(words[k]))) return words.slice(0, k).join(" ").replace(/[,;]$/, "");
  }
  return name;
}

/** "There are two ways to do it: in-line and separate." → the parts after the colon, when each is a short name. */
function enumeratedAfterColon(s: LocatedSentence): ConsideredOption[] {
  const colon = s.text.lastIndexOf(": ");
  if (colon < 0) return [];
  const parts = s.text.slice(colon + 2).replace(/[.!?]$/, "").split(/,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+/).map((x) => x.trim()).filter(Boolean);
  if (parts.length < 2 || parts.length > PROSE_LIST_MAX || !parts.every((x) => x.split(/\s+/).length <= 4)) return [];
  return parts.map((name) => ({ name, range: { start: s.start, end: s.end }, source: "considered-options" as const }));
}

/** The verbs and subjects that open a sentence naming what was weighed: "We considered …", "The options were …". */
const WEIGHING_OPENING = /^(?:we\s+(?:also\s+|have\s+|had\s+)?(?:considered|evaluated|compared|weighed|looked at|explored|discussed)|the\s+(?:possible\s+|available\s+)?(?:options|alternatives|candidates|approaches|choices)\s+(?:possible\s+|available\s+)?(?:we\s+)?(?:considered\s+|weighed\s+|evaluated\s+)?(?:were|are|included|include|consist\s+of|comprise))\s+/i;

/** "We considered Redis, Memcached and Hazelcast." → each, when there are two or more and each is a short name. */
function enumeratedWeighing(s: LocatedSentence): ConsideredOption[] {
  const m = WEIGHING_OPENING.exec(s.text) ?? ALTERNATIVES_TO.exec(s.text);
  if (!m) return [];
  // "Two popular alternatives to JavaScript Lint are ESLint and JSHint": what they are alternatives to was weighed too.
  const incumbent = m[1] ? stripInline(m[1]).replace(/[[\]]/g, "").trim() : undefined;
  // The enumeration ends where a reason or a clause starts.
  const rest = s.text.slice(m[0].length).replace(/^:\s*/, "");
  const end = rest.search(/[.;:!?](?:\s|$)|\s(?:for|because|since|as|but|before|when|to see|in order)\s/i);
  const parts = (end < 0 ? rest : rest.slice(0, end))
    .split(/,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+/)
    .map((x) => stripInline(x.replace(/^(?:(?:a|an|the|using|moving to)\s+)+/i, "")).replace(/^\[([^\]]+)\]$/, "$1").trim())
    // "…, or other similar platforms": a catch-all names no option.
    .filter((x) => x && !/^(?:other|similar|etc|more|any)\b/i.test(x));
  if (parts.length < 2 || parts.length > PROSE_LIST_MAX || !parts.every((x) => x.split(/\s+/).length <= 4)) return [];
  const names = incumbent && incumbent.split(/\s+/).length <= 4 && !parts.includes(incumbent) ? [incumbent, ...parts] : parts;
  return names.map((name) => ({ name, range: { start: s.start, end: s.end }, source: "considered-options" as const }));
}

/** "Two popular alternatives to X are A and B", "The alternatives to X were …": X, then the enumeration. */
const ALTERNATIVES_TO = /^(?:(?:the|two|three|four|several|some|other|both)\s+)?(?:(?:main|popular|obvious|known|possible|common|viable)\s+)?alternatives\s+to\s+([^,;:.]{1,60}?)\s+(?:are|were|include|included)\s+/i;

/** "We should discuss whether we use X, or use Y." → X and Y, when each is a short phrase. */
function whetherOr(s: LocatedSentence): ConsideredOption[] {
  const text = s.text.replace(/[.?!]$/, "");
  const at = text.search(/\bwhether\s/i);
  if (at < 0 || !/\b(?:discuss|decide|consider|choose|evaluate|weigh|question)\w*\b/i.test(text.slice(0, at))) return [];
  const rest = text.slice(at + "whether ".length);
  const or = rest.search(/,?\s+or\s+/i);
  if (or < 0) return [];
  const strip = (x: string) =>
    x
      .replace(/^(?:(?:we|to)\s+)?(?:should\s+|would\s+|will\s+)?(?:use|adopt|go with|keep|have)\s+/i, "")
      .replace(/^(?:a|an|the)\s+/i, "")
      .replace(/[,;]+$/, "")
      .trim();
  const first = strip(rest.slice(0, or));
  const second = strip(rest.slice(or).replace(/^,?\s+or\s+/i, ""));
  if (!first || !second || /\bnot\b/i.test(second) || first.split(/\s+/).length > 8 || second.split(/\s+/).length > 8) return [];
  return [first, second].map((name) => ({ name, range: { start: s.start, end: s.end }, source: "considered-options" as const }));
}

function sectionIndexes(parsed: ParsedAdr, test: (key: string, name: string, s: MarkdownSection) => boolean): number[] {
  const out: number[] = [];
  parsed.doc.sections.forEach((s, i) => {
    if (s.level > 0 && test(sectionKey(s), parsed.section_names[i] ?? "", s)) out.push(i);
  });
  return out;
}

/** Line of an explicit "Chosen option: X" (or "Chose option:", "Selected option:", "Decision: option X"). */
const CHOSEN_LINE = /\b(?:chosen|chose|selected|preferred|picked)\s+(?:option|alternative|solution|approach)\s*(?:\*\*|__)?\s*:\s*(?:\*\*|__)?\s*(.+)$/i;

function chosenFromLine(line: string): { name: string; sentence: string } | undefined {
  const m = CHOSEN_LINE.exec(line.slice(0, MAX_SENTENCE_CHARS * 2));
  if (!m) return undefined;
  const rest = stripInline(m[1]).trim();
  // "Chosen option: \"\", because …": a template whose name was never filled in chooses nothing.
  if (UNFILLED_NAME.test(rest)) return undefined;
  // The first sentence after the colon, for a line that opens with a lead-in instead of the option's name.
  const sentence = sentencesIn([rest], 1, 1, 1)[0]?.text ?? rest;
  // Each quote closes with its own kind; an apostrophe inside a name ("Prow's Peribolos") closes nothing.
  const quoted = /^"([^"]+)"/.exec(rest) ?? /^“([^”"]+)[”"]/.exec(rest) ?? /^['‘](.+?)['’](?!\p{L})/u.exec(rest);
  if (quoted) return { name: quoted[1].trim(), sentence };
  const name = rest.split(/,\s*because\b|\s+because\b|,\s/i)[0].replace(/(?<![.,;:])[.,;:]+$/, "").replace(/^[*_]+|[*_]+$/g, "").trim();
  return name ? { name, sentence } : undefined;
}

const WHOLE = /\b(?:fully|completely|entirely|totally|wholly)\b/i;
const PART = /\b(?:partly|partially|selectively|halfway)\b/i;
/** "partly undo X" does not name the option "Fully undo X", though it shares all its other words. */
function degreesDisagree(option: string, phrase: string): boolean {
  return (WHOLE.test(option) && PART.test(phrase) && !WHOLE.test(phrase)) || (PART.test(option) && WHOLE.test(phrase) && !PART.test(phrase)) || negationDisagrees(option, phrase);
}

/** An option that opens with a negation ("No local datastore", "Without a cache") shares every content word with its
 * positive twin; a phrase without any negation does not name it. */
const NEGATED_OPTION = /^(?:no|not|none|without|never|do not|don't)\b/i;
const NEGATION = /\b(?:no|not|none|without|never|don't|doesn't|won't|cannot|can't)\b/i;
function negationDisagrees(option: string, phrase: string): boolean {
  return NEGATED_OPTION.test(stripInline(option).trim()) && !NEGATION.test(phrase);
}

/** The considered option a phrase names: the best-covered one, when it is covered well enough. */
function matchOption(phrase: string, considered: ConsideredOption[], threshold: number): number | undefined {
  let best = -1;
  let bestScore = 0;
  const said = new Set(contentWordsOf(phrase));
  const own = considered.map((o) => new Set(contentWordsOf(o.name)));
  considered.forEach((o, i) => {
    if (degreesDisagree(o.name, phrase)) return;
    // Words every other option also has ("parse TypeScript config files" in "Using X to …" and "Using Y to …") tell
    // no option apart: a phrase that says only those names none of them.
    const telling = [...own[i]].filter((w) => own.some((other, j) => j !== i && !other.has(w)));
    if (considered.length >= 2 && telling.length > 0 && !telling.some((w) => said.has(w))) return;
    // Either the phrase covers the option's name or the option's name covers the phrase.
    const score = Math.max(coverage(o.name, phrase), coverage(phrase, o.name) * 0.95);
    // On a tie the option that also covers more of the phrase wins: "Dual license with MIT and CC0" over "CC0"; then
    // the one the phrase names first, the object of its verb ("use X for now, until Y is settled" chose X).
    const tie = best >= 0 && Math.abs(score - bestScore) < 1e-9 && tieBreak(phrase, o.name, considered[best].name) > 0;
    if (score > bestScore || tie) {
      bestScore = score;
      best = i;
    }
  });
  if (best < 0 || bestScore < threshold) return undefined;
  return widerOption(phrase, considered, best, threshold) ?? best;
}

/**
 * "the hybrid smallest area and degree difference approach" covers all of "Smallest area", but more of "Combine
 * smallest area and degree difference threshold", which holds every word of it: the option the phrase says more of wins.
 */
function widerOption(phrase: string, considered: ConsideredOption[], best: number, threshold: number): number | undefined {
  const inner = new Set(contentWordsOf(considered[best].name));
  const said = new Set(contentWordsOf(phrase));
  let wider: number | undefined;
  let most = inner.size;
  considered.forEach((o, i) => {
    const words = new Set(contentWordsOf(o.name));
    if (i === best || words.size <= inner.size || ![...inner].every((w) => words.has(w)) || degreesDisagree(o.name, phrase)) return;
    const matched = [...words].filter((w) => said.has(w)).length;
    if (matched > most && matched / words.size >= threshold) {
      most = matched;
      wider = i;
    }
  });
  return wider;
}

/**
 * > 0 when option `a` beats option `b` on a tie: the option holding every word of the other and more ("Dual license
 * with MIT and CC0" over "CC0"); else the one the phrase names first; else the one covering more of the phrase.
 */
function tieBreak(phrase: string, a: string, b: string): number {
  const wa = new Set(contentWordsOf(a));
  const wb = new Set(contentWordsOf(b));
  if (wa.size > wb.size && [...wb].every((w) => wa.has(w))) return 1;
  if (wb.size > wa.size && [...wa].every((w) => wb.has(w))) return -1;
  const earlier = firstMention(phrase, b) - firstMention(phrase, a);
  if (earlier !== 0 && Number.isFinite(earlier)) return earlier;
  return coverage(phrase, a) - coverage(phrase, b);
}

/** Where in the phrase (content-word position) any of the option's words first occurs; Infinity when none does. */
function firstMention(phrase: string, option: string): number {
  const wanted = new Set(contentWordsOf(option));
  const at = contentWordsOf(phrase).findIndex((w) => wanted.has(w));
  return at < 0 ? Infinity : at;
}

/** Words that introduce what a choice builds on or sits beside, not the choice itself. */
const GROUNDWORK = /\b(?:on top of|built on|based on|in addition to|alongside|as well as|together with|next to|layered over)\s/gi;

/**
 * "We will build the new protocol on top of the existing one (X), but make it optional": X is the groundwork the
 * choice builds on, so the sentence without "on top of …" (up to the clause's end) is what may name an option.
 */
function withoutGroundwork(sentence: string): string {
  let out = "";
  let from = 0;
  for (const m of sentence.slice(0, MAX_SENTENCE_CHARS).matchAll(GROUNDWORK)) {
    if (m.index < from) continue;
    out += sentence.slice(from, m.index);
    const rest = sentence.slice(m.index);
    const end = rest.search(/[,;:.!?](?:\s|$)/);
    from = end < 0 ? sentence.length : m.index + end;
  }
  return out + sentence.slice(from);
}

/** A sentence that turns against what came before it. */
/** "However, we will look at X / consider Y again": a promise to look into something later overrides nothing. */
const LOOKS_INTO = /^(?:look(?:ing)?\s+(?:at|into)|consider|reconsider|revisit|explore|investigate|evaluate|review|assess|research|monitor)\b/i;
const CONTRAST_OPENING = /^(?:however|but|instead|nevertheless|nonetheless|that said|in the meantime|for now)\b/i;
/** "# Remove the X" then "X will be removed. Each part will instead hold Y": a title that commands confirms the opening. */
function titleCommands(parsed: ParsedAdr): boolean {
  return IMPERATIVES.has(stripInline(parsed.title).trim().split(/\s+/)[0]?.toLowerCase() ?? "");
}

/** "It is not yet clear whether X or Y", "we have yet to decide which", "remains to be decided": the choice is left open. */
const UNDECIDED =
  /\b(?:(?:is|are|remains?)\s+(?:still\s+)?(?:unclear|undecided|uncertain)\s+(?:whether|which|if)|not\s+(?:yet\s+)?(?:clear|decided|determined|settled)\s+(?:whether|which|if)|(?:have|has)\s+(?:not\s+(?:yet\s+)?|yet\s+to\s+)(?:decided?|chosen|choose|determined?)\b|(?:yet|remains?)\s+to\s+be\s+(?:decided|determined|chosen|settled))/i;
/** The choice is left open only by a sentence that says so up front: "X will not do Y as we have yet to decide Z" rejects. */
const UNDECIDED_REACH = 10;
/** "The service will instead use X": a commitment that sets itself against what the decision said before it. */
const INSTEAD_COMMITMENT = /\b(?:will|shall|should|must|'ll|are going to|is going to)\s+instead\s+(?!of\b)[a-z]/i;

const leadVerb = (phrase: string): string | undefined => {
  const w = phrase.trim().split(/\s+/)[0]?.toLowerCase().replace(/[^a-z]/g, "") ?? "";
  if (IMPERATIVES.has(w)) return w;
  // An option named by its gerund ("Moving change notes into …") does what its verb does.
  const stem = w.endsWith("ing") ? w.slice(0, -3) : "";
  return [stem, `${stem}e`, stem.slice(0, -1)].find((v) => v.length >= 2 && IMPERATIVES.has(v));
};

/** Verbs that take up a named option as it is ("implement the 'Creating snapshots' pattern"): they act on nothing else. */
const TAKING_UP = new Set(["implement", "use", "adopt", "apply", "follow", "choose", "pick", "select", "take", "go", "accept", "pursue"]);

/** Both phrases open with an action verb, and not the same one ("Remove X from Y" and "move X into Y"). */
function actsDifferently(a: string, b: string): boolean {
  const va = leadVerb(a);
  const vb = leadVerb(b);
  return va !== undefined && vb !== undefined && va !== vb && !TAKING_UP.has(vb);
}

/** "move / migrate / switch from X to Y": X, what the sentence moves away from. */
const MOVES_AWAY = new RegExp(String.raw`\b(?:${MOVING_VERBS})\s+(?:away\s+)?from\s+(.+?)\s+to\s`, "i");

/**
 * "move from Gulp/Rollup to a build based on Vite": an option named only as what the sentence moves away from is what
 * it leaves, not what it chose.
 */
function leftBehind(option: string, text: string, chosen: string | undefined): boolean {
  const leaves = MOVES_AWAY.exec(text)?.[1];
  return !!leaves && coverage(option, leaves) === 1 && !(chosen && coverage(option, chosen) === 1);
}

/**
 * The option a decision sentence names by its words, checked against what its prose chose: "the best approach would
 * be to move the whole X into Y" shares words with the option "Remove the data from X" but does something else to
 * them (none); an option named only as what the sentence moves away from gives way to the one it moves to.
 */
function namedAsChosen(named: number, considered: ConsideredOption[], text: string, chosen: string | undefined, negative: boolean): number | undefined {
  if (!negative && chosen && actsDifferently(considered[named].name, chosen)) return undefined;
  if (leftBehind(considered[named].name, text, chosen)) return chosen ? matchAction(chosen, considered) : undefined;
  return named;
}

/** A choice read from a sentence's prose: the considered option it names, else the phrase itself. */
/** "Three tools are used to enforce this:": a count and a plural noun name only how many things were chosen. */
const FORWARD_LIST = /^(?:the\s+)?(?:following|these|two|three|four|five|six|several|\d{1,2})\s+(?:\S+\s+)?\S+s$/i;

/** "React itself provides two mechanisms:": a third-person sentence introducing a list describes what exists. */
function describesList(prose: ProseReading, s: LocatedSentence): boolean {
  return !!prose.chosen && prose.cue === "third person" && /:\s*$/.test(s.text) && FORWARD_LIST.test(prose.chosen.trim().replace(/^\S+\s+/, ""));
}

function proseChoice(name: string, s: LocatedSentence, considered: ConsideredOption[]): ChosenOption {
  const i = considered.length > 0 ? matchAction(name, considered) : undefined;
  const range = { start: s.start, end: s.end };
  // An option listed as one bare word ("separate") says less than the sentence that chose it: keep the sentence's.
  // But a sentence that cites the option by its label ("go with option (1)") names it by that label, not in words.
  if (i !== undefined && contentWordsOf(considered[i].name).length === 1 && contentWordsOf(name).length >= 3 && optionByRef(s.text, considered) !== i) return { name, range, how: "decision-prose", considered_index: i };
  return i !== undefined ? { name: considered[i].name, range, how: "decision-prose", considered_index: i } : { name, range, how: "decision-prose" };
}

/** matchOption for a phrase read from prose: an option that does something else to the same things is no match. */
function matchAction(phrase: string, considered: ConsideredOption[]): number | undefined {
  const i = matchOption(phrase, considered, 0.6);
  return i !== undefined && actsDifferently(considered[i].name, phrase) ? undefined : i;
}

// "Option 2" over options listed without labels of their own is the second one listed.
const ORDINALS: Record<string, number> = { one: 1, first: 1, two: 2, second: 2, three: 3, third: 3, four: 4, fourth: 4, five: 5, fifth: 5, "1": 1, "2": 2, "3": 3, "4": 4, "5": 5 };
const ORDINAL_REF = /\bthe\s+(first|second|third|fourth|fifth|last|final)\s+(?:option|alternative|approach|solution|possibility|choice|proposal)\b|\b(?:option|alternative|approach)\s+(one|two|three|four|five|[1-5])\b(?![.,]\d)|\b(?:chose|choose|chosen|picked|pick|selected|select|went with|go with|going with|prefer|preferred|opted for)\s+the\s+(first|second|third|fourth|fifth|last|final)\b/i;

/** One option label ("4", "B", "B1", "IV"); never empty, never holding a space, so a list of them parses one way. */
const OPTION_LABEL = "(?:[A-Za-z]{1,5}\\d{0,2}|\\d{1,2}[A-Za-z]?)";
/** "options 4, 5 and IV": the word "options" and labels joined by commas, "and", "&" or "+". */
const SEVERAL_OPTIONS = new RegExp(`\\boptions\\s+(${OPTION_LABEL}(?:\\s*(?:,|\\band\\b|&|\\+)\\s*${OPTION_LABEL})+)(?![\\w-])`, "i");

/** "options 4, 5 and IV", "options A and C" → each cited considered option, when every label resolves. */
function optionsByRefs(sentence: string, considered: ConsideredOption[]): number[] {
  const m = SEVERAL_OPTIONS.exec(sentence);
  if (!m) return [];
  const refs = m[1].split(/\s*(?:,|\band\b|&|\+)\s*/).map((r) => r.trim().toUpperCase()).filter(Boolean);
  const found = refs.map((ref) => considered.findIndex((o) => o.ref === ref));
  return refs.length >= 2 && found.every((i) => i >= 0) ? [...new Set(found)] : [];
}

/**
 * The considered options a phrase names in full ("both manual test data and Faker" names both of them). An option
 * whose words all belong to another one named ("Overlap tiles" inside "Overlap tiles and blend the edges") is part of
 * that one, not a second choice.
 */
function optionsNamedIn(phrase: string, considered: ConsideredOption[]): number[] {
  if (!/\b(?:and|both|plus|combin\w*|together)\b/i.test(phrase)) return [];
  const out: number[] = [];
  considered.forEach((o, i) => {
    if (contentWordsOf(o.name).length > 0 && coverage(o.name, phrase) === 1) out.push(i);
  });
  const words = new Map(out.map((i) => [i, new Set(contentWordsOf(considered[i].name))]));
  const inside = (i: number, j: number) => i !== j && words.get(j)!.size > words.get(i)!.size && [...words.get(i)!].every((w) => words.get(j)!.has(w));
  return out.filter((i) => !out.some((j) => inside(i, j)));
}

/** "the first approach", "the third one": an option cited by its position. */
const POSITION_REF = /\bthe\s+(first|second|third|fourth|fifth|last|final)\s+(?:one|option|alternative|approach|solution|possibility|choice|proposal)\b/gi;
/** What a cited option is then committed to: "… should be used in the admin API". */
const COMMITTED_USE = /^(?:\S+\s+){0,3}?(?:should|will|shall|must|is\s+to|are\s+to)\s+be\s+(?:used|applied|adopted|chosen|implemented|taken)\b/i;

/**
 * "The first approach should be used in the admin API, while the third one should be used in the shop": options cited
 * by position, each committed to for its own part, are chosen together. A position cited without its own commitment
 * ("the first approach is simpler than the third") chooses nothing here.
 */
function optionsByPositions(sentence: string, considered: ConsideredOption[]): number[] {
  if (considered.length < 2) return [];
  const found: number[] = [];
  for (const m of sentence.matchAll(POSITION_REF)) {
    if (!COMMITTED_USE.test(sentence.slice((m.index ?? 0) + m[0].length).trim())) return [];
    const word = m[1].toLowerCase();
    const n = word === "last" || word === "final" ? considered.length : ORDINALS[word];
    if (n === undefined || n > considered.length) return [];
    if (!found.includes(n - 1)) found.push(n - 1);
  }
  return found.length >= 2 ? found : [];
}

/** "Not one option will be implemented but a combination of options:", "We will combine the options below". */
const ANNOUNCES_COMBINATION = /\b(?:combination|mix|blend)\s+of\s+(?:the\s+|several\s+|these\s+|some\s+)?(?:options|approaches|alternatives|solutions)\b|\bcombine\s+(?:the\s+|several\s+|these\s+|some\s+)?(?:options|approaches|alternatives|solutions)\b/i;
/** "(Option B)", "Option D+E", "options C and D": every label an item cites. */
const CITED_LABELS = /\b[Oo]ptions?\s*\(?([A-Z]\d{0,2}(?:\s*(?:\+|,|&|\band\b)\s*[A-Z]\d{0,2})*)\)?(?![\w-])/g;

/**
 * "Not one option will be implemented but a combination of options:" and a list whose items cite options by label
 * ("… (Option B)", "… (Option D+E)"): every option the list cites is chosen, together, in the order cited.
 */
function announcedCombination(parsed: ParsedAdr, chosen: ChosenOption | undefined, considered: ConsideredOption[], decisionIdx: number[]): ChosenOption | undefined {
  // The choice read so far is one of the cited options, or the announcement itself ("a combination of options").
  const announced = chosen !== undefined && chosen.considered_index === undefined && ANNOUNCES_COMBINATION.test(chosen.name);
  if (!chosen || (chosen.considered_index === undefined && !announced) || chosen.combined_with?.length || considered.filter((o) => o.ref).length < 3) return chosen;
  const { lines, sections } = parsed.doc;
  for (const i of decisionIdx) {
    const s = sections[i];
    const body = lines.slice(s.bodyStart - 1, s.contentEnd);
    const at = body.findIndex((l) => ANNOUNCES_COMBINATION.test(l));
    if (at < 0) continue;
    const cited: number[] = [];
    for (const item of listItems(lines, s.bodyStart + at, s.contentEnd)) {
      for (const m of item.text.matchAll(CITED_LABELS)) {
        for (const ref of m[1].split(/\s*(?:\+|,|&|\band\b)\s*/)) {
          const k = considered.findIndex((o) => o.ref === ref.trim().toUpperCase());
          if (k >= 0 && !cited.includes(k)) cited.push(k);
        }
      }
    }
    if (cited.length >= 2 && (announced || cited.includes(chosen.considered_index!))) return { ...combinedChoice(cited, considered, { text: "", start: chosen.range.start, end: chosen.range.end } as LocatedSentence), how: chosen.how };
  }
  return chosen;
}

/** An option's own text that disowns it: "I do not advocate for it", "listed only for completeness", "not recommended". */
const DISOWNED = /\b(?:(?:i|we)\s+(?:do\s+not|don't)\s+(?:advocate|recommend|propose|suggest|favou?r)\b|(?:listed|included|mentioned|described)\s+(?:here\s+)?(?:only\s+)?for\s+completeness\b|(?:is|are)\s+not\s+recommended\b)/i;
/** How many opening sentences of an option's own section are read for a disowning. */
const DISOWNING_SENTENCES = 3;

/**
 * Two options under their own headings, one of which its text disowns in its opening sentences ("This approach is
 * listed for completeness, I do not advocate for it"): the record proposes the other one.
 */
function otherThanDisowned(parsed: ParsedAdr, considered: ConsideredOption[]): ChosenOption | undefined {
  if (considered.length !== 2 || considered.some((o) => o.source !== "considered-options")) return undefined;
  const { lines, sections } = parsed.doc;
  const disowned = considered.map((o) => {
    const own = sections.find((s) => s.level > 0 && s.start === o.range.start);
    return own !== undefined && sentencesIn(lines, own.bodyStart, own.contentEnd, DISOWNING_SENTENCES).some((x) => DISOWNED.test(stripInline(x.text)));
  });
  if (disowned.filter(Boolean).length !== 1) return undefined;
  const i = disowned[0] ? 1 : 0;
  return { name: considered[i].name, range: considered[i].range, how: "outcome-names-option", considered_index: i };
}

/** The options a sentence cites together: by their labels ("options A and C"), else by their positions. */
function citedTogether(sentence: string, considered: ConsideredOption[]): number[] {
  const byRefs = optionsByRefs(sentence, considered);
  return byRefs.length > 0 ? byRefs : optionsByPositions(sentence, considered);
}

/** Several options chosen together: named together, the first as the index, the others alongside it. */
function combinedChoice(cited: number[], considered: ConsideredOption[], s: LocatedSentence): ChosenOption {
  const name = cited.map((i) => considered[i].name).join(" + ");
  return { name, range: { start: s.start, end: s.end }, how: "outcome-names-option", considered_index: cited[0], combined_with: cited.slice(1) };
}

/** "the second option", "option two", "the last alternative" → the considered option at that position. */
function optionByOrdinal(sentence: string, considered: ConsideredOption[]): number | undefined {
  const m = ORDINAL_REF.exec(sentence);
  if (!m || considered.length < 2) return undefined;
  const word = (m[1] ?? m[2] ?? m[3]).toLowerCase();
  const n = word === "last" || word === "final" ? considered.length : ORDINALS[word];
  return n !== undefined && n <= considered.length ? n - 1 : undefined;
}

/** "option (B)", "Option 2", "option B1", "A2:" in a sentence → the considered option with that label. */
function optionByRef(sentence: string, considered: ConsideredOption[]): number | undefined {
  const refs = considered.map((o) => o.ref).filter(Boolean);
  if (refs.length === 0) return optionByOrdinal(sentence, considered);
  const m =
    /\boption\s*\(?([A-Za-z]?\d{0,2}[A-Za-z]?)\)?(?![\w-])/i.exec(sentence) ??
    // "as per point 2 above": a numbered item cited by its number.
    /\b(?:point|item|number)\s+(\d{1,2})\b(?![\w-])/i.exec(sentence) ??
    /^\(?([A-Z]\d{0,2}|\d{1,2})\)?\s*[:.)]\s/.exec(sentence) ??
    /\(([A-Z]\d{0,2})\)/.exec(sentence);
  if (!m || !m[1]) return optionByOrdinal(sentence, considered);
  const ref = m[1].toUpperCase();
  const i = considered.findIndex((o) => o.ref === ref);
  return i >= 0 ? i : undefined;
}

const INTRO_CUES = new Set(["we use", "this record proposes", "decided to", "it was decided"]);
/** How many opening sentences of the decision text may state its choice in prose. */
const PROSE_OPENING_SENTENCES = 3;
const EARLY_SENTENCES = 8;
/** Cues strong enough to state the decision after the opening. */
const STRONG_CUES = new Set(["we will", "decided to", "it was decided", "decided that", "decided on"]);
/** Words of a phrase that only points back at the text above ("move forward with the above design"). */
const POINTER_WORDS = new Set(["above", "design", "proposal", "described", "outlined", "new", "capability", "forward", "move", "approach", "solution", "proposed", "accept", "plan", "option", "options", "following", "below", "implement", "adopt", "go", "ahead", "described", "here"]);
/** "the protocol", "this design", "the proposed approach" right after the verb, or "in the next section",
 * "described below": a phrase that names the choice only by pointing at the record's own design. */
const OWN_DESIGN = /^(?:\S+\s+){0,2}?(?:the|this|our)\s+(?:proposed\s+|new\s+|above\s+)?(?:protocol|design|approach|solution|mechanism|proposal|algorithm|scheme|plan|architecture|implementation)\b(?!\s+(?:of|for)\b)|\b(?:in|from)\s+the\s+(?:next|following|previous)\s+sections?\b|\b(?:described|outlined|detailed|shown)\s+(?:above|below)\b/i;
function pointsAtOwnDesign(phrase: string, ownNumber?: number): boolean {
  // "To implement ADR-101 instead of ADR-100", written in ADR 101: the record names itself.
  const self = ownNumber !== undefined && new RegExp(`\\b(?:adr|rfc)[-\\s#]?0*${ownNumber}\\b`, "i").test(phrase);
  return self || OWN_DESIGN.test(phrase);
}
function pointsBack(phrase: string): boolean {
  const words = phrase.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w && !/^(?:the|a|an|this|that|with|as|it|to|in|of)$/.test(w));
  return words.length === 0 || words.every((w) => POINTER_WORDS.has(w));
}

const NEGATIVE_CUE = /\b(?:rejected|not (?:selected|chosen|pursued|adopted|feasible|viable|appropriate|suitable|recommended|practical|workable|a good fit)|(?:unsuitable|inappropriate|impractical|unworkable)|discarded|discounted|ruled out|dismissed|decided against|was dropped|turned down|declined|set aside|passed over|vetoed|was abandoned|(?:did not|didn't) (?:pick|choose|select|adopt|take|go with|pursue)|no longer|too (?:complex|slow|expensive|costly|heavy)|instead of|rather than|doesn't|does not|won't)\b/i;

/** Considered options: MADR section(s), then alternatives sections under any of their names, deduplicated. */
function readConsidered(parsed: ParsedAdr, consideredIdx: number[], alternativesIdx: number[], candidatesIdx: number[], notes: string[]): ConsideredOption[] {
  const { sections } = parsed.doc;
  const considered: ConsideredOption[] = [];
  const seen = new Set<string>();
  const add = (o: ConsideredOption) => {
    const key = contentWordsOf(o.name).join(" ") || o.name.toLowerCase();
    if (seen.has(key)) return;
    seen.add(key);
    considered.push(o);
  };
  // A section nested in another one already read is not read twice.
  const read = new Set<number>();
  const isInside = (i: number) => {
    for (let p = sections[i].parent; p !== undefined; p = sections[p].parent) if (read.has(p)) return true;
    return false;
  };
  for (const i of consideredIdx) if (!isInside(i)) (read.add(i), optionsInSection(parsed, i, "considered-options").forEach(add));
  for (const i of alternativesIdx) if (!isInside(i)) (read.add(i), optionsInSection(parsed, i, "alternatives").forEach(add));
  // "Frameworks to choose from": each sub-heading is a candidate, whatever pros and cons it holds.
  for (const i of candidatesIdx) {
    if (isInside(i)) continue;
    read.add(i);
    sections.forEach((s, j) => {
      if (s.parent !== i || s.level === 0) return;
      const { name, ref } = optionName(s.heading);
      if (name && /[\p{L}\p{N}]/u.test(name)) add({ name, range: { start: s.start, end: s.end }, source: "considered-options", ...(ref ? { ref } : {}) });
    });
  }
  if (considered.length >= MAX_LIST_ITEMS) notes.push(`options lists longer than ${MAX_LIST_ITEMS} items were read only to item ${MAX_LIST_ITEMS}`);
  return considered;
}

interface DecisionSentence extends LocatedSentence {
  /** Among the first PROSE_OPENING_SENTENCES prose sentences of its section. */
  opening: boolean;
  /** Among the first EARLY_SENTENCES: a first-person commitment there still states the decision when the opening
   * only set the scene ("This project carries many new technologies. … Raster Foundry will initially use X."). */
  early: boolean;
  /** The last prose sentence of the record's own decision section: where a decision that first walks through the
   * candidates concludes ("By considering the above, X seems the better option."). */
  closing?: boolean;
  /** A sub-heading that opens the section and is itself a command ("### Make the limit configurable"): read as prose. */
  leadHeading?: boolean;
}

/** The record's own "Decision" / "Decision Outcome" section, as against a proposal or solution section. */
function isCanonicalDecision(parsed: ParsedAdr, i: number): boolean {
  return parsed.section_names[i] === "decision" || parsed.section_names[i] === "decision-outcome" || /^(?:the |our )?decisions?\b/.test(sectionKey(parsed.doc.sections[i]));
}

/** A footnote's own line: a superscript number or a "[^1]:" label first. */
const FOOTNOTE = /^\s*(?:[\u00b9\u00b2\u00b3\u2070\u2074-\u2079]+|\[\^[^\]\s]+\]:)/;

/** Sentences of the decision sections: the record's own "Decision" / "Decision Outcome" first, proposals after. */
function decisionSentencesOf(parsed: ParsedAdr, decisionIdx: number[]): DecisionSentence[] {
  const { lines, sections } = parsed.doc;
  const canonical = (i: number) => isCanonicalDecision(parsed, i);
  const ordered = [...decisionIdx.filter(canonical), ...decisionIdx.filter((i) => !canonical(i))];
  const out: DecisionSentence[] = [];
  for (const i of ordered) {
    const s = sections[i];
    if (decisionIdx.some((j) => j !== i && isAncestor(sections, j, i))) continue;
    let prose = 0;
    // The heading's own statement ("Proposed decision: Option 2") comes first, read like a heading.
    const tail = headingTail(sectionKey(s));
    if (tail) out.push({ text: stripInline(s.heading).slice(stripInline(s.heading).indexOf(":") + 1).trim(), start: s.start, end: s.start, opening: false, early: false });
    let last = -1;
    const outer = outermostIndent(listItems(lines, s.bodyStart, s.end));
    for (const sentence of sentencesIn(lines, s.bodyStart, s.end, 80)) {
      // A footnote ("¹ 2020-09-15 clarification: …", "[^1]: …") annotates the text; it states no decision.
      if (FOOTNOTE.test(lines[sentence.start - 1] ?? "")) continue;
      const isHeading = sentence.start === sentence.end && /^ {0,3}#/.test(lines[sentence.start - 1] ?? "");
      // "## Proposal" then "### Make X configurable": the first sub-heading, when it commands, names the proposal;
      // several commanding sub-headings are steps, and the first is only one of them.
      // So does a first sub-heading that states what will be ("### The solution will consist of two components").
      if (isHeading && prose === 0 && out.length === 0 && ((commandingHeadings(lines, s.bodyStart, s.end) === 1 && commands(lines[sentence.start - 1])) || statesWhatWillBe(lines[sentence.start - 1]))) {
        const heading = stripInline(lines[sentence.start - 1].replace(/^\s*#+\s*/, "")).trim();
        out.push({ ...sentence, text: heading, opening: true, early: true, leadHeading: true });
        continue;
      }
      // A decision written as a list: a nested item details the item above it (its properties, its steps), so it
      // neither opens the decision nor states it.
      if (nestedItem(lines[sentence.start - 1] ?? "", outer)) {
        out.push({ ...sentence, opening: false, early: false });
        continue;
      }
      if (!isHeading) (prose++, (last = out.length));
      out.push({ ...sentence, opening: !isHeading && prose <= PROSE_OPENING_SENTENCES, early: !isHeading && prose <= EARLY_SENTENCES });
    }
    if (last >= 0 && prose > EARLY_SENTENCES && canonical(i)) out[last] = { ...out[last], closing: true };
  }
  return out;
}

/** A list item, or a paragraph inside one, indented deeper than the outermost items of its section. */
function nestedItem(line: string, outer: number): boolean {
  if (!Number.isFinite(outer)) return false;
  const m = /^(\s*)(?:(?:[-*+]|\d{1,3}[.)])\s+)?\S/.exec(line);
  return m !== null && m[1].replace(/\t/g, "    ").length > outer;
}

/** A heading that is a sentence with a firm modal: a subject of a few words, then "will", "shall" or "must". */
const WILL_BE_HEADING = /^(?:[\w`'"-]+\s+){1,6}(?:will|shall|must)\s+[a-z]+/i;
function statesWhatWillBe(line: string): boolean {
  const text = stripInline(line.replace(/^\s*#+\s*/, "")).trim();
  return WILL_BE_HEADING.test(text) && !/\?$/.test(text);
}

/** A heading line whose text opens with a command ("### Make the limit configurable"). */
function commands(line: string): boolean {
  return IMPERATIVES.has(stripInline(line.replace(/^\s*#+\s*/, "")).trim().split(/\s+/)[0]?.toLowerCase() ?? "");
}

/** How many heading lines from `from` to `to` command (fenced code skipped). */
function commandingHeadings(lines: string[], from: number, to: number): number {
  let n = 0;
  let inFence = false;
  for (let i = from; i <= to; i++) {
    const line = lines[i - 1] ?? "";
    if (/^ {0,3}(?:`{3,}|~{3,})/.test(line)) inFence = !inFence;
    else if (!inFence && /^ {0,3}#/.test(line) && commands(line)) n++;
  }
  return n;
}

/** 1. An explicit "Chosen option:" line (in the outcome first, then anywhere); 2. an option marked "(Decided)". */
/**
 * "Chosen option: a prioritised set of engines." followed by a list whose items are considered options ("1. **X**
 * (primary) …", "2. **Y** (fallback) …"): the choice is those options together, the first listed leading.
 */
function listedUnderChoice(lines: string[], explicit: { name: string; range: LineRange }, considered: ConsideredOption[]): ChosenOption | undefined {
  if (considered.length < 2) return undefined;
  const line = explicit.range.end;
  let n = line + 1;
  while (n <= lines.length && !lines[n - 1].trim()) n++;
  let end = n;
  while (end < lines.length && end - n < MAX_LIST_ITEMS && (/^\s*(?:[-*+]|\d{1,3}[.)])\s/.test(lines[end] ?? "") || (!lines[end]?.trim() && /^\s*(?:[-*+]|\d{1,3}[.)])\s/.test(lines[end + 1] ?? "")))) end++;
  const items = listItems(lines, n, end);
  if (items.length < 2) return undefined;
  const cited: number[] = [];
  for (const item of outermost(items)) {
    // The item's name is its bold or code lead when it has one ("**OCRmyPDF** (Primary engine). Handles …").
    const lead = BOLD_LEAD.exec(item.text)?.[1] ?? codeLeadOf(item.text) ?? optionName(item.text).name.split(/[.(;:]/)[0];
    const i = matchOption(lead, considered, 0.5) ?? considered.findIndex((o) => coverage(lead, o.name) === 1);
    if (i !== undefined && i >= 0 && !cited.includes(i)) cited.push(i);
  }
  if (cited.length < 2) return undefined;
  // The record's own words name the whole; the options it lists are what the whole is made of.
  return { name: explicit.name, range: { start: line, end: items.at(-1)?.line ?? line }, how: "chosen-option-line", considered_index: cited[0], combined_with: cited.slice(1) };
}

function explicitChoice(parsed: ParsedAdr, considered: ConsideredOption[], decisionIdx: number[]): ChosenOption | undefined {
  const { lines } = parsed.doc;
  let chosen: ChosenOption | undefined;
  // 1. An explicit "Chosen option:" line, in the outcome first, then anywhere.
  const found = findChosenLine(parsed, decisionIdx);
  const explicit = found ? afterLeadIn(found, considered) : undefined;
  if (explicit) {
    // "Chosen option: Option 3" names the option by its label.
    const i = matchOption(explicit.name, considered, 0.5) ?? (/^option\s+\(?[A-Za-z]?\d{0,2}[A-Za-z]?\)?$/i.test(explicit.name) ? optionByRef(explicit.name, considered) : undefined);
    chosen = i !== undefined
      ? { name: considered[i].name, range: explicit.range, how: "chosen-option-line", considered_index: i }
      : (listedUnderChoice(lines, explicit, considered) ?? { name: explicit.name, range: explicit.range, how: "chosen-option-line" });
  }
  // An option marked "(Decided)" in its heading or list item, or in the bold lead of its paragraph.
  if (!chosen) {
    for (let n = 1; n <= lines.length && !chosen; n++) {
      const line = lines[n - 1].slice(0, MAX_SENTENCE_CHARS * 2);
      // The cheap tests first: most lines are no heading or item, or carry no mark at all.
      if (!/^\s*(?:#{1,6}\s|[-*+]\s|\d{1,3}[.)]\s|\*\*|__)/.test(line) || !/decided|chosen|selected|accepted|preferred|recommended|[\u2705\u2714]/i.test(line)) continue;
      const bold = BOLD_LEAD.exec(line.trim())?.[1];
      const marked = bold ?? line;
      if (!DECIDED_MARK.test(stripInline(marked)) && !PREFERRED_LABEL.test(stripInline(marked).replace(/^\s*(?:#{1,6}|[-*+])?\s*/, ""))) continue;
      const { name } = bold ? ledOption(bold, n) : optionName(line.replace(/^\s*(?:#{1,6}|[-*+]|\d{1,3}[.)])\s+/, ""));
      const i = matchOption(name, considered, 0.8);
      if (i !== undefined) chosen = { name: considered[i].name, range: { start: n, end: n }, how: "decided-marker", considered_index: i };
    }
  }
  return chosen;
}

/** The sections that list options (MADR, alternatives, candidates) and those that state the decision. */
function sectionsByRole(parsed: ParsedAdr): { consideredIdx: number[]; alternativesIdx: number[]; candidatesIdx: number[]; decisionIdx: number[] } {
  const consideredIdx = sectionIndexes(parsed, (key, name) => name === "considered-options" || CONSIDERED_HEADING.test(key));
  const alternativesIdx = sectionIndexes(parsed, (key) => ALTERNATIVES_HEADING.test(key)).filter((i) => !consideredIdx.includes(i));
  const holdsOptionsPart = (i: number) => parsed.doc.sections.some((s, j) => j !== i && isAncestor(parsed.doc.sections, i, j) && (ALTERNATIVES_HEADING.test(sectionKey(s)) || CONSIDERED_HEADING.test(sectionKey(s))));
  alternativesIdx.push(...sectionIndexes(parsed, (key) => COMBINED_ALTERNATIVES_HEADING.test(key)).filter((i) => !consideredIdx.includes(i) && !holdsOptionsPart(i)));
  alternativesIdx.sort((a, b) => a - b);
  const candidatesIdx = sectionIndexes(parsed, (key) => CANDIDATES_HEADING.test(key)).filter((i) => !consideredIdx.includes(i) && !alternativesIdx.includes(i));
  const decisionIdx = sectionIndexes(parsed, (key, name) => name === "decision" || name === "decision-outcome" || DECISION_HEADING.test(key) || headingTail(key) !== undefined).filter(
    (i) => !consideredIdx.includes(i) && !alternativesIdx.includes(i) && !candidatesIdx.includes(i),
  );
  const designIdx = sectionIndexes(parsed, (key) => DESIGN_HEADING.test(key));
  decisionIdx.push(...designIdx.filter((d) => decisionIdx.some((i) => pointsToSection(parsed, i, d))));
  return { consideredIdx, alternativesIdx, candidatesIdx, decisionIdx };
}

/**
 * readDecisionSentence without a chosen phrase that is only a fragment of the sentence ("find a way"), that states
 * an outcome rather than a choice ("result in more load"), that a goal sentence wants ("we want to improve X"), or
 * that is only a quality the record values ("favour consistency over simplicity").
 */
function namingReading(sentence: string): ProseReading {
  const reading = readDecisionSentence(sentence);
  if (!reading.chosen || !(isFragment(reading.chosen) || statesAnOutcome(reading.chosen) || statesAGoal(sentence) || namesAValue(reading.chosen))) return reading;
  const { chosen: _fragment, ...rest } = reading;
  return rest;
}

/** A chosen phrase that stops at a word which needs more ("… update the code to:"), before the list that goes on. */
const DANGLING_END = /\s(?:to|of|for|with|by|the|a|an|that|following|as|into|on)$/i;

/**
 * "We suggest updating the code to:" and a list: the sentence goes on in the list, and its first item completes what
 * was chosen ("updating the code to receive a new update type"). Other readings are returned as they are.
 */
function completedByList(prose: ProseReading, s: LocatedSentence, lines: string[]): ProseReading {
  if (!prose.chosen || !DANGLING_END.test(prose.chosen) || !/:\s*$/.test(lines[s.end - 1] ?? "")) return prose;
  let n = s.end + 1;
  while (n <= lines.length && n <= s.end + 2 && !lines[n - 1].trim()) n++;
  const first = listItems(lines, n, n + 3)[0];
  const name = first?.line === n ? shortClause(optionName(first.text).name.replace(/[;,.]\s*(?:and|or)?$/i, "")) : "";
  return name ? { ...prose, chosen: `${prose.chosen} ${name}` } : prose;
}

/** `range` lies inside section `s`. */
function within(s: MarkdownSection, range: LineRange): boolean {
  return s.start <= range.start && range.end <= s.end;
}

/** A copula with no subject before it and no article or placeholder after it: "be final", not "be a service". */
const SUBJECTLESS_PREDICATE = /^be\s+(?!(?:a|an|the|it)\b)\S/i;

/** The considered options, the decision sections and their sentences (less the lines that list the options). */
function optionsAndDecisionText(parsed: ParsedAdr, notes: string[]): { considered: ConsideredOption[]; decisionIdx: number[]; decisionSentences: DecisionSentence[] } {
  const roles = sectionsByRole(parsed);
  // A rejected record chose nothing its proposal describes: only its own decision text may name a choice.
  const decisionIdx = parsed.status === "rejected" ? roles.decisionIdx.filter((i) => isCanonicalDecision(parsed, i)) : roles.decisionIdx;
  const considered = readConsidered(parsed, roles.consideredIdx, roles.alternativesIdx, roles.candidatesIdx, notes);
  if (considered.length === 0) considered.push(...optionsOutsideOptionSections(parsed));
  // Options found so far, listed or outside the option sections, are joined by those the decision announces. (Round
  // 34 read a title "Use X instead of Y" as naming both when nothing else did: the guard then lost the title's
  // turned-down side; dropped.)
  if (considered.length > 0) considered.push(...optionsAnnouncedInDecision(parsed, decisionIdx, considered));
  // A list of the options inside the decision section names each option without choosing it.
  const optionLines = new Set(considered.filter((o) => o.range.start === o.range.end).map((o) => o.range.start));
  // A decision section that walks through its candidates one block each ("**1) X** - …"): a sentence inside a
  // block describes that candidate, it does not choose it; the conclusion comes after the last block's lead.
  const blocks = considered.filter((o) => o.range.end > o.range.start && NUMBERED_BOLD_LEAD.test(parsed.doc.lines[o.range.start - 1] ?? "") && roles.decisionIdx.some((i) => within(parsed.doc.sections[i], o.range)));
  const inBlock = (s: DecisionSentence) => blocks.some((o, k) => o.range.start <= s.start && s.start <= o.range.end && (k + 1 < blocks.length || !s.closing));
  // Likewise a sentence under a "#### Option 2: X" heading inside the proposal describes that option.
  const optionSections = parsed.doc.sections.filter((s) => s.level > 1 && OPTION_HEADING.test(stripInline(s.heading)));
  const underOption = (s: DecisionSentence) => optionSections.some((o) => o.start <= s.start && s.start <= o.end);
  // "- If the field is empty, we clear it" among sibling cases: one case of the rule the list lays out, not the choice.
  const decisionSentences = decisionSentencesOf(parsed, decisionIdx).filter((s) => !(s.start === s.end && optionLines.has(s.start)) && !inBlock(s) && !underOption(s) && !oneCaseAmongSeveral(parsed.doc.lines, s));
  return { considered, decisionIdx, decisionSentences };
}

/** An option that leaves things as they are: "Do nothing and keep the current schema", "Status quo", "No change". */
const STANDING_STILL = /^(?:(?:option|alternative)\s+\S{1,3}\s*[:.)–—-]\s*)?(?:do nothing|status quo|no change|keep (?:the |things |everything )?(?:current|existing|as[- ]is|as it is)|leave (?:it|things|everything) (?:as|alone))\b/i;
/** A choice read from prose that keeps or refuses rather than changes. */
const KEEPS_OR_REFUSES = /^(?:keep|keeping|continue|continuing|stay|staying|stick|sticking|retain|retaining|remain|not|no|don't|do not|never)\b/i;

/**
 * Two options, one of which is to stand still ("Do nothing and keep the current schema"): a decision whose prose
 * commits to a change ("replace it with a simpler schema where the JSON is stored directly") in words of its own took
 * the other option, the only change weighed.
 */
function otherThanStandingStill(chosen: ChosenOption | undefined, considered: ConsideredOption[]): ChosenOption | undefined {
  // Only options the record weighed side by side: an RFC's alternatives are what it did not do, whatever it proposes.
  if (!chosen || chosen.how !== "decision-prose" || chosen.considered_index !== undefined || considered.length !== 2 || considered.some((o) => o.source !== "considered-options")) return chosen;
  const still = considered.map((o) => STANDING_STILL.test(stripInline(o.name).trim()));
  if (still[0] === still[1] || KEEPS_OR_REFUSES.test(chosen.name.trim()) || STANDING_STILL.test(chosen.name.trim())) return chosen;
  const i = still.indexOf(false);
  // Prose that shares words with the option yet was not matched to it does something else to the same thing ("remove
  // the retrying" against "Fix the retrying", "partly undo X" against "Fully undo X"): a third way.
  if (coverage(considered[i].name, chosen.name) > 0) return chosen;
  return { name: considered[i].name, range: chosen.range, how: "outcome-names-option", considered_index: i };
}

/**
 * A commitment after the opening: "stated" among the early sentences with a strong cue ("we will", "decided to"),
 * "concluded" in the closing sentence of a decision that first walked through its candidates (also "X seems the
 * better option"); undefined for anything else.
 */
const FUTURE_PASSIVE = /\b(?:will|shall)\s+(?:now\s+|also\s+|then\s+)?be\s+[a-z]+(?:ed|en|t)\b/i;
function laterStatement(prose: ProseReading, s: DecisionSentence): "stated" | "concluded" | undefined {
  if (!prose.chosen || s.opening || prose.continuity || pointsBack(prose.chosen)) return undefined;
  // "All handlers will be rewritten to X": a passive in the future tense commits as "we will" does.
  const strong = STRONG_CUES.has(prose.cue ?? "") || (prose.cue === "passive" && FUTURE_PASSIVE.test(s.text) && !/:\s*$/.test(s.text));
  if (s.closing && (strong || prose.cue === "best choice")) return "concluded";
  return s.early && strong ? "stated" : undefined;
}

/** A choice read from words alone, confirmed by a list elsewhere that holds it: the list is what was weighed. */
function withListConfirming(parsed: ParsedAdr, chosen: ChosenOption | undefined, considered: ConsideredOption[], decisionIdx: number[]): ChosenOption | undefined {
  if (!chosen || considered.length > 0) return chosen;
  const listed = listConfirmedByChoice(parsed, chosen.name, decisionIdx);
  if (!listed) return chosen;
  considered.push(...listed.options);
  // The decision's own words name the choice; the list only confirms which item it was.
  return { ...chosen, considered_index: listed.index };
}

/**
 * What an RFC lists under its alternatives is what it did not do: a choice read as one of them is a sentence that
 * discusses the alternative. The RFC's own proposal (its summary's commitment, else its title) is the choice.
 */
function proposalOverAlternative(parsed: ParsedAdr, chosen: ChosenOption | undefined, considered: ConsideredOption[]): ChosenOption | undefined {
  const at = chosen?.considered_index;
  // An alternative the record itself marks "(chosen)" was what it did.
  if (!chosen || at === undefined || considered[at]?.source !== "alternatives" || chosen.how === "decided-marker") return chosen;
  // "This project uses the [X strategy](#x) below": the sentence that chose it links to the alternative's own section.
  if (linksToOptionSection(parsed, chosen.range, considered[at])) return chosen;
  return withDesignNames(parsed, rfcProposal(parsed)) ?? chosen;
}

/** Lines `range` link to the anchor of the section headed by option `o` ("[…](#o-s-heading)"); with `sentence`, the
 * link's own words are in that sentence (a paragraph's lines hold several sentences). */
function linksToOptionSection(parsed: ParsedAdr, range: LineRange, o: ConsideredOption, sentence?: string): boolean {
  const { lines, sections } = parsed.doc;
  const section = sections.find((s) => s.level > 0 && s.start === o.range.start);
  if (!section) return false;
  const slug = sectionKey(section).replace(/[^\p{L}\p{N}\s-]/gu, "").trim().replace(/\s+/g, "-");
  if (!slug) return false;
  const text = lines.slice(range.start - 1, range.end).join(" ");
  for (const link of text.matchAll(/\[([^\]]{1,200})\]\(#([^)\s]+)\)/g)) {
    if (link[2].toLowerCase() === slug && (sentence === undefined || sentence.toLowerCase().includes(stripInline(link[1]).toLowerCase()))) return true;
  }
  return false;
}

/**
 * A proposal-style record whose only decision parts are its proposal or design ("## Proposal", "## Solution") states
 * what it proposes the way every proposal does: a choice read from those parts' prose alone gives way to it.
 */
function statedOverProse(parsed: ParsedAdr, chosen: ChosenOption | undefined, decisionIdx: number[]): ChosenOption | undefined {
  if (chosen && (chosen.how !== "decision-prose" || chosen.considered_index !== undefined)) return chosen;
  if (decisionIdx.length === 0 || decisionIdx.some((i) => isCanonicalDecision(parsed, i)) || !isProposalStyle(parsed)) return chosen;
  // "## Proposal: X" names the proposal itself.
  if (proposalInHeading(parsed)) return chosen;
  const stated = proposalStatement(parsed);
  return stated && !pointsBack(stated.name) ? { name: stated.name, range: stated.range, how: "decision-prose" } : chosen;
}

/**
 * "### Service provider mechanism", "### Explicit initializer", then "## Requirements: Explicit initializer": a part of
 * the record, apart from the options, that sets out one listed option by name after a colon goes on with that option.
 * It names the choice of a record whose decision text named none of its options.
 */
function specifiedOption(parsed: ParsedAdr, chosen: ChosenOption | undefined, considered: ConsideredOption[]): ChosenOption | undefined {
  if ((chosen && (chosen.how !== "decision-prose" || chosen.considered_index !== undefined)) || considered.length < 2 || considered.some((o) => o.source === "alternatives")) return chosen;
  const found = new Set<number>();
  let at: MarkdownSection | undefined;
  for (const s of parsed.doc.sections) {
    const key = s.level > 0 ? stripInline(s.heading) : "";
    const colon = key.indexOf(":");
    if (colon <= 0) continue;
    const tail = key.slice(colon + 1).trim();
    considered.forEach((o, i) => {
      if (o.range.start !== s.start && coverage(o.name, tail) === 1 && coverage(tail, o.name) === 1) (found.add(i), (at ??= s));
    });
  }
  if (found.size !== 1 || !at) return chosen;
  const i = [...found][0];
  return { name: considered[i].name, range: { start: at.start, end: at.start }, how: "outcome-names-option", considered_index: i };
}

/**
 * However it was reached (a considered option read from a sentence's tail, a fallback), a choice that only says what
 * happens ("an error arises when …") is no option: the record's own proposal stands in, else nothing.
 */
function withoutOutcome(parsed: ParsedAdr, chosen: ChosenOption | undefined): ChosenOption | undefined {
  return chosen && statesAnOutcome(chosen.name) ? withDesignNames(parsed, rfcProposal(parsed)) : chosen;
}

/**
 * "We built a prototype. It uses the [X strategy](#x) below.": a choice read from prose that names none of the
 * options gives way to the one option an early decision sentence links to by its section's anchor, which is how a
 * proposal points at the alternative it took. A sentence that turns the option down links to it for contrast.
 */
function linkedOption(parsed: ParsedAdr, chosen: ChosenOption | undefined, considered: ConsideredOption[], sentences: DecisionSentence[]): ChosenOption | undefined {
  if ((chosen && (chosen.how !== "decision-prose" || chosen.considered_index !== undefined)) || considered.length < 2) return undefined;
  for (const s of sentences) {
    if (!s.early || NEGATIVE_CUE.test(s.text)) continue;
    const linked = considered.flatMap((o, i) => (linksToOptionSection(parsed, s, o, s.text) ? [i] : []));
    if (linked.length === 1) return { name: considered[linked[0]].name, range: { start: s.start, end: s.end }, how: "outcome-names-option", considered_index: linked[0] };
  }
  return undefined;
}

/**
 * A proposal's statement (in a record with no decision section of the usual kind) is told in more detail by the
 * sentence after it; a decision section's own elaborations are read in readOptions (elaborated).
 */
function detailedProposal(parsed: ParsedAdr, chosen: ChosenOption | undefined, decisionIdx: number[]): ChosenOption | undefined {
  if (!chosen || chosen.how !== "decision-prose" || chosen.considered_index !== undefined || decisionIdx.some((i) => isCanonicalDecision(parsed, i))) return chosen;
  const detailed = withFollowingDetail(parsed.doc.lines, chosen);
  return detailed ? { ...chosen, name: detailed } : chosen;
}

/** Sub-part headings that name a part of any document, not the thing a proposal builds. */
const GENERIC_PART = /^(?:overview|summary|background|details?|design|implementation(?: details| plan)?|examples?|usage|changes|api changes|user stories|alternatives?|notes?)$/i;
/** A name, not a sentence: at most this many words. */
const PART_NAME_WORDS = 6;

/**
 * "## Proposal" that opens straight with its one sub-part "### Rules API": the proposal is told under a heading that
 * names it, so the heading, not a phrase read from a sentence under it, names what was chosen. Two or more sub-parts
 * are parts of the design (what each names is only a part of the choice).
 */
function namedBySolePart(parsed: ParsedAdr, chosen: ChosenOption | undefined, decisionIdx: number[]): ChosenOption | undefined {
  if (!chosen || chosen.how !== "decision-prose" || chosen.considered_index !== undefined) return chosen;
  const { lines, sections } = parsed.doc;
  for (const i of decisionIdx) {
    const s = sections[i];
    const parts = sections.filter((c) => c.parent === i && c.level > s.level);
    if (parts.length !== 1) continue;
    const [part] = parts;
    let first = s.bodyStart;
    while (first < part.start && !(lines[first - 1] ?? "").trim()) first++;
    if (first !== part.start || chosen.range.start < part.start || chosen.range.start > part.end) continue;
    const name = stripInline(part.heading).replace(/^\d+(?:\.\d+)*[.)]?\s+/, "").trim();
    if (!name || name.split(/\s+/).length > PART_NAME_WORDS || GENERIC_PART.test(name) || ARGUMENT_HEADING.test(name) || DOCUMENT_PART_UNDER_OPTIONS.test(name) || isFragment(name)) continue;
    return { name, range: { start: part.start, end: chosen.range.end }, how: "decision-prose" };
  }
  return chosen;
}

/** Options, chosen, rejected for one parsed record. */
export function readOptions(parsed: ParsedAdr): OptionsReading {
  const notes: string[] = [];
  const { lines } = parsed.doc;
  const { considered, decisionIdx, decisionSentences } = optionsAndDecisionText(parsed, notes);

  let keptAsIs: ChosenOption | undefined;
  let stated: ChosenOption | undefined;
  let refused: ChosenOption | undefined;
  let concluded: ChosenOption | undefined;
  const rejectedBy = new Map<number, { reason: string; range: LineRange }>();
  const proseRejected: RejectedOption[] = [];
  // Options a decision sentence adopts besides the main choice ("for the view models, the decision is to use X").
  const adopted = new Set<number>();

  let chosen = explicitChoice(parsed, considered, decisionIdx);
  let leftOpen = false;
  // 3 and 4. The decision text: an option it names or refers to, else what its prose commits to.
  for (const s of decisionSentences) {
    const isHeading = s.start === s.end && /^ {0,3}#/.test(lines[s.start - 1] ?? "") && !s.leadHeading;
    // "It is not yet clear whether to build X or to use Y": a decision that leaves the choice open makes none, and
    // what follows it (prototypes, criteria) is how the choice will be made.
    if (UNDECIDED.test(s.text.split(/\s+/).slice(0, UNDECIDED_REACH).join(" "))) {
      if (!chosen && s.early) leftOpen = true;
      if (leftOpen) break;
      continue;
    }
    const negative = NEGATIVE_CUE.test(s.text);
    // "(see the last alternative above)" cites an option for reference; it does not choose it.
    const text = s.text.replace(/\((?:see|cf\.?|compare|as in)\s[^()]{0,200}\)/gi, " ");
    const cited = citedTogether(text, considered);
    // A sub-heading inside the decision ("### App Directory Tree") labels a part of it; sharing words with an
    // alternative chooses none.
    const byWords = considered.length > 0 && !(isHeading && considered.every((o) => o.source === "alternatives"));
    let named = (cited.length > 0 ? cited[0] : undefined) ?? optionByRef(text, considered) ?? (byWords ? matchOption(withoutGroundwork(text), considered, 0.6) : undefined);
    const prose = isHeading ? { rejected: [] as string[] } : completedByList(namingReading(s.text), s, lines);
    // Options that are only the record's turned-down alternatives: a proposal that describes its own design in
    // their words ("a placeholder pod with inter-pod affinity") chooses one only by naming it as its choice.
    if (named !== undefined && cited.length === 0 && optionByRef(text, considered) === undefined && considered.every((o) => o.source === "alternatives") && !(prose.chosen && coverage(considered[named].name, prose.chosen) >= 0.6)) named = undefined;
    if (named !== undefined && negative && !(chosen?.considered_index === named)) {
      if (!rejectedBy.has(named) && !proseChoosesOther(prose, considered, named)) rejectedBy.set(named, { reason: s.text, range: { start: s.start, end: s.end } });
    }
    noteRejections(prose.rejected, s, considered, rejectedBy, proseRejected);
    // "However, … we have opted to do X" after an opening that named another choice: the contrast overrides it.
    const readFromText = chosen?.how === "decision-prose" || chosen?.how === "outcome-names-option";
    if (chosen && readFromText && s.early && (CONTRAST_OPENING.test(s.text) || (INSTEAD_COMMITMENT.test(s.text) && !titleCommands(parsed))) && prose.chosen && STRONG_CUES.has(prose.cue ?? "") && !prose.continuity && !pointsBack(prose.chosen) && !LOOKS_INTO.test(prose.chosen)) {
      chosen = proseChoice(prose.chosen, s, considered);
      continue;
    }
    if (prose.chosen && !negative && considered.length > 0) {
      const i = matchAction(prose.chosen, considered);
      if (i !== undefined) adopted.add(i);
    }
    if (chosen) continue;
    // An option cited by its label ("go with option 2") is chosen whatever verb leads the sentence.
    const byLabel = cited.length > 0 || optionByRef(text, considered) !== undefined;
    if (named !== undefined && !byLabel) named = namedAsChosen(named, considered, text, prose.chosen, negative);
    // "leverage both X and Y": a commitment that names two or more options in full chose them together.
    const together = !negative && cited.length <= 1 && prose.chosen ? optionsNamedIn(prose.chosen, considered) : [];
    if (together.length >= 2) {
      chosen = combinedChoice(together, considered, s);
      continue;
    }
    if (named !== undefined && !negative) {
      const bare = cited.length <= 1 && prose.chosen && contentWordsOf(considered[named].name).length === 1 && coverage(considered[named].name, prose.chosen) === 1 && optionByRef(text, considered) !== named;
      chosen = cited.length > 1
        ? combinedChoice(cited, considered, s)
        : bare && prose.chosen
          ? proseChoice(prose.chosen, s, considered)
          : { name: considered[named].name, range: { start: s.start, end: s.end }, how: "outcome-names-option", considered_index: named };
      continue;
    }
    if (s.opening && prose.refusal && !refused) refused = { name: prose.refusal, range: { start: s.start, end: s.end }, how: "decision-prose" };
    const later = laterStatement(prose, s);
    if (later === "stated" && !stated) stated = proseChoice(prose.chosen!, s, considered);
    if (later === "concluded") concluded = proseChoice(prose.chosen!, s, considered);
    // Only the opening of the decision commits; later sentences elaborate, qualify or plan follow-up work.
    if (prose.chosen && s.opening && !pointsBack(prose.chosen) && !describesList(prose, s)) {
      const reading = proseChoice(prose.chosen, s, considered);
      // Keeping what is there ("we will continue to use X") is the choice only when nothing new is committed to.
      if (prose.continuity) keptAsIs ??= reading;
      else chosen = reading;
    }
  }
  // A refusal is the decision only of a record that chooses nothing else, and only when it does not turn down one of
  // the options it weighed (then that option is rejected, and what was chosen is unknown).
  // Nor in a rejected record: there "we decided not to adopt X" restates the rejection; it chose nothing.
  const refusalStands = refused && parsed.status !== "rejected" && (considered.length === 0 || matchOption(refused.name, considered, 0.6) === undefined);
  chosen = emphasisedOver(elaborated(chosen, decisionSentences) ?? chosen, parsed, decisionIdx);
  const read = leftOpen ? undefined : (chosen ?? keptAsIs ?? stated ?? concluded ?? bestCoveredOption(parsed, considered, decisionSentences) ?? (refusalStands ? refused : undefined) ?? listedDecision(parsed, decisionIdx, considered));
  chosen = fallbackChoice(parsed, considered, linkedOption(parsed, read, considered, decisionSentences) ?? read, { hasDecisionSection: decisionIdx.length > 0, firm: chosen !== undefined });
  chosen = specifiedOption(parsed, statedOverProse(parsed, chosen, decisionIdx), considered);
  chosen = announcedCombination(parsed, withListConfirming(parsed, chosen, considered, decisionIdx), considered, decisionIdx);
  chosen = namedBySolePart(parsed, detailedProposal(parsed, otherThanStandingStill(withoutOutcome(parsed, proposalOverAlternative(parsed, chosen, considered)), considered), decisionIdx), decisionIdx);
  withProposalAndProseRejections(parsed, chosen, considered, proseRejected, rejectedBy);

  const rejected = rejectedOptions(parsed, considered, chosen, { rejectedBy, adopted, proseRejected });
  if (decisionIdx.length > 0 && !chosen) notes.push("the decision section names no option");
  if (decisionIdx.length === 0 && !chosen) notes.push("no decision section and no chosen option line");
  return { considered, ...(chosen ? { chosen } : {}), rejected, notes };
}

/** A list item that states a case: "If the value is missing, …", "When two writers race, …". */
const CASE_OPENING = /^(?:if|when|whenever|unless|where)\s/i;
/** How far around a sentence its list is read for sibling cases. */
const CASE_LIST_LINES = 12;

/**
 * The sentence is one of two or more sibling list items that each open with a condition ("- If the field has a
 * value, …", "- If the field is null, …"): what it commits to holds only in its case; the decision is the rule the
 * cases make up together.
 */
function oneCaseAmongSeveral(lines: string[], s: LocatedSentence): boolean {
  const own = /^(\s*)(?:[-*+]|\d{1,3}[.)])\s+(.*)$/.exec(lines[s.start - 1] ?? "");
  if (!own || !CASE_OPENING.test(stripInline(own[2]).trim())) return false;
  const indent = own[1].length;
  const items = listItems(lines, Math.max(1, s.start - CASE_LIST_LINES), Math.min(lines.length, s.start + CASE_LIST_LINES)).filter((it) => it.indent === indent);
  // The siblings: the items of its own run, up to a gap of other text or a deeper item's lines.
  const at = items.findIndex((it) => it.line === s.start);
  if (at < 0) return false;
  let first = at;
  const sameList = (a: ListItem, b: ListItem) => (a.marker === undefined) === (b.marker === undefined) && contiguous(lines, a.line, b.line);
  while (first > 0 && sameList(items[first - 1], items[first])) first--;
  let last = at;
  while (last + 1 < items.length && sameList(items[last], items[last + 1])) last++;
  const run = items.slice(first, last + 1);
  return run.length >= 2 && run.every((it) => CASE_OPENING.test(stripInline(it.text).trim()));
}

/** Nothing but the first item's wrapped lines and blank lines lies between two list items. */
function contiguous(lines: string[], a: number, b: number): boolean {
  for (let n = a + 1; n < b; n++) {
    const line = lines[n - 1] ?? "";
    if (line.trim() && !/^\s{2,}\S/.test(line)) return false;
  }
  return true;
}

/** What a decision sentence turns down: an option it names (with the sentence as the reason), else a phrase of its own. */
function noteRejections(names: string[], s: LocatedSentence, considered: ConsideredOption[], rejectedBy: Map<number, { reason: string; range: LineRange }>, proseRejected: RejectedOption[]): void {
  for (const r of names) {
    // "we decided against it": the pronoun points at an option named elsewhere; it names none itself. Nor does "be
    // final", read from "fields must not be final": a predicate without its subject.
    if (/^(?:it|this|that|them|these|those|this one|that one)$/i.test(r) || SUBJECTLESS_PREDICATE.test(r)) continue;
    const i = considered.length > 0 ? matchOption(r, considered, 0.6) : undefined;
    if (i !== undefined) {
      if (!rejectedBy.has(i)) rejectedBy.set(i, { reason: s.text, range: { start: s.start, end: s.end } });
    } else proseRejected.push({ name: r, reason: s.text, range: { start: s.start, end: s.end } });
  }
}

/**
 * Rejected: every considered option but the chosen one and those the decision also adopts (alternatives sections are
 * rejected by name), with the reason the decision text gives, else the option's first con; then what the prose turned
 * down that no option names.
 */
function rejectedOptions(
  parsed: ParsedAdr,
  considered: ConsideredOption[],
  chosen: ChosenOption | undefined,
  read: { rejectedBy: Map<number, { reason: string; range: LineRange }>; adopted: Set<number>; proseRejected: RejectedOption[] },
): RejectedOption[] {
  const { rejectedBy, adopted, proseRejected } = read;
  const rejected: RejectedOption[] = [];
  considered.forEach((o, i) => {
    if (i === chosen?.considered_index || chosen?.combined_with?.includes(i)) return;
    if (!chosen && o.source !== "alternatives" && !rejectedBy.has(i)) return;
    // An option the decision also adopts (for another part of the problem) was not turned down.
    if (adopted.has(i) && !rejectedBy.has(i)) return;
    const why = rejectedBy.get(i);
    const reason = why?.reason ?? firstCon(parsed, o.name) ?? (o.source === "alternatives" ? alternativeReason(parsed, o) : undefined);
    rejected.push({ name: o.name, ...(reason ? { reason } : {}), range: why?.range ?? o.range });
  });
  for (const r of proseRejected) if (!rejected.some((x) => coverage(r.name, x.name) >= 0.6)) rejected.push(r);
  return rejected;
}

/**
 * Why an alternative was turned down, as its own entry says it: the rest of its item ("Checksums only: they do not
 * say who signed the file"), else the first sentence under its heading ("### Commit messages" then "They are written
 * for reviewers.").
 */
function alternativeReason(parsed: ParsedAdr, o: ConsideredOption): string | undefined {
  const { lines, sections } = parsed.doc;
  const line = stripInline(lines[o.range.start - 1] ?? "").replace(/^\s*(?:[-*+]|\d{1,2}[.)])\s+/, "").trim();
  const after = line.toLowerCase().startsWith(o.name.toLowerCase()) ? /^\s*(?:[:\u2013\u2014]|-\s)\s*(.+)$/.exec(line.slice(o.name.length)) : null;
  const rest = after?.[1]?.trim() ?? "";
  if (rest.split(/\s+/).length >= 3) return rest;
  const own = sections.find((s) => s.level > 0 && s.start === o.range.start);
  if (!own) return undefined;
  return sentencesIn(lines, own.bodyStart, own.contentEnd, 1)[0]?.text;
}

/**
 * Completes the considered options where the record only implies them: the options it turned down in prose when it
 * lists none, what its prose says it weighed, and a proposal weighed only against alternatives (which is then itself one of the options).
 */
function withProposalAndProseRejections(parsed: ParsedAdr, chosen: ChosenOption | undefined, considered: ConsideredOption[], proseRejected: RejectedOption[], rejectedBy: Map<number, { reason: string; range: LineRange }>): void {
  // No options listed anywhere, but the decision turned some down in prose ("X has been discarded", "instead of Y"):
  // those were weighed, so they and the choice are the considered options.
  if (chosen && considered.length === 0 && proseRejected.length > 0) {
    for (const r of proseRejected.slice(0, MAX_LIST_ITEMS)) {
      if (r.reason) rejectedBy.set(considered.length, { reason: r.reason, range: r.range });
      considered.push({ name: r.name, range: r.range, source: "alternatives" });
    }
  }
  // Nor are options listed, but the record says what else it weighed ("X was considered as an alternative").
  if (chosen && considered.length === 0) considered.push(...weighedInProse(parsed, chosen.name));
  // A proposal weighed only against "Alternatives" is itself one of the considered options.
  if (chosen && chosen.considered_index === undefined && considered.length > 0 && considered.every((o) => o.source === "alternatives")) {
    considered.unshift({ name: chosen.name, range: chosen.range, source: "proposal" });
    // Shift every index by one. Rebuilt, not moved in place: Map.forEach visits entries set during the walk, so
    // moving k to k + 1 inside it never ends (an adversarial probe's freeze).
    const shifted = [...rejectedBy.entries()].map(([k, v]) => [k + 1, v] as const);
    rejectedBy.clear();
    for (const [k, v] of shifted) rejectedBy.set(k, v);
    chosen.considered_index = 0;
  }
}

/** How many sentences of a record are searched for what it weighed in prose. */
const WEIGHED_SENTENCES = 200;

/** The first line after the front matter (1 when there is none). */
function bodyStart(parsed: ParsedAdr): number {
  return parsed.doc.frontMatter ? parsed.doc.frontMatter.endLine + 1 : 1;
}

/** "X was considered as an alternative", "We explored having Y" anywhere in the record: X and Y, not the choice itself. */
function weighedInProse(parsed: ParsedAdr, chosenName: string): ConsideredOption[] {
  const { lines } = parsed.doc;
  const out: ConsideredOption[] = [];
  for (const s of sentencesIn(lines, bodyStart(parsed), lines.length, WEIGHED_SENTENCES)) {
    const name = weighedInSentence(s.text);
    if (!name || coverage(name, chosenName) >= 0.6 || out.some((o) => coverage(name, o.name) >= 0.8)) continue;
    out.push({ name, range: { start: s.start, end: s.end }, source: "alternatives" });
    if (out.length >= CANDIDATE_LIST_MAX) break;
  }
  return out;
}

/** A bold statement stands for the decision when it has at most this many words. */
const EMPHASISED_WORDS = 15;

/**
 * A decision that sets a statement in bold ("**Major releases cannot be imported together**.") states it there: the
 * first paragraph of the record's own decision section that opens with a sentence wholly in bold. A prose reading
 * that names no option gives way to it.
 */
function emphasisedOver(chosen: ChosenOption | undefined, parsed: ParsedAdr, decisionIdx: number[]): ChosenOption | undefined {
  if (chosen && (chosen.how !== "decision-prose" || chosen.considered_index !== undefined)) return chosen;
  const { lines, sections } = parsed.doc;
  for (const i of decisionIdx) {
    if (!isCanonicalDecision(parsed, i)) continue;
    for (let n = sections[i].bodyStart; n <= sections[i].contentEnd; n++) {
      const m = /^\s*(?:\*\*|__)([^*_]+?)(?:\*\*|__)\s*[.!]?\s*$/.exec(lines[n - 1] ?? "");
      const blank = (k: number) => !(lines[k - 1] ?? "").trim();
      // A bold label the paragraph runs on from ("**Real-time capabilities**" above the sentences that explain it) names
      // a point of the argument; a statement of the decision is a sentence, or a paragraph of its own.
      if (!m || !blank(n - 1)) continue;
      const statement = /[.!]\s*$/.test(lines[n - 1]) || /\b(?:is|are|will|shall|must|should|can|cannot|may|be|not|no)\b/i.test(m[1]);
      if (!blank(n + 1) && !statement) continue;
      const text = stripInline(m[1]).replace(/[.!]+$/, "").trim();
      // "**1) It is well established**" numbers a point of a list (reasons, candidates): no statement of the decision.
      if (/:$|^(?:note|warning|important|caveat|update|edit)\b|^\(?\d{1,2}[.)]/i.test(text) || text.split(/\s+/).length > EMPHASISED_WORDS || isFragment(text)) continue;
      return { name: text, range: { start: n, end: n }, how: "decision-prose" };
    }
  }
  return chosen;
}

/** An elaboration joins the choice's name with at most this many words. */
const ELABORATION_WORDS = 10;

/**
 * "Engineers will use the staging environment. The staging environment will hold copies of production data.": a
 * sentence right after the choice that takes the chosen thing as its subject says what it is; the name keeps that
 * ("staging environment that will hold copies of production data").
 */
function elaborated(chosen: ChosenOption | undefined, sentences: LocatedSentence[]): ChosenOption | undefined {
  if (!chosen || chosen.how !== "decision-prose" || chosen.considered_index !== undefined) return undefined;
  const at = sentences.findIndex((s) => s.start === chosen.range.start);
  if (at < 0) return undefined;
  const subject = chosen.name.toLowerCase();
  for (const s of sentences.slice(at + 1, at + 3)) {
    const text = s.text.replace(/^(?:the|this|that|our)\s+/i, "");
    if (!text.toLowerCase().startsWith(`${subject} `)) continue;
    const rest = text.slice(subject.length).trim().split(/\s+/);
    if (!/^(?:will|shall|is|are|must)$/i.test(rest[0] ?? "")) return undefined;
    const words = rest.slice(0, ELABORATION_WORDS + 1).join(" ").split(/[.;:!?](?:\s|$)|,\s/)[0].split(/\s+/).slice(0, ELABORATION_WORDS);
    if (words.length < 3) return undefined;
    return { ...chosen, name: `${chosen.name} that ${words.join(" ")}`, range: { start: chosen.range.start, end: Math.max(chosen.range.end, s.end) } };
  }
  return undefined;
}

/** A decision written only as a list keeps its first item as the choice when the item is at most this long. */
const LISTED_DECISION_WORDS = 12;

/**
 * "## Decision\n\n * One VPC per environment\n * Three subnets …": a decision section that opens with a list, with
 * no sentence before it, states its main choice in the first item (the items after it detail it).
 */
function listedDecision(parsed: ParsedAdr, decisionIdx: number[], considered: ConsideredOption[]): ChosenOption | undefined {
  const { lines, sections } = parsed.doc;
  for (const i of decisionIdx) {
    const s = sections[i];
    let n = s.bodyStart;
    while (n <= s.contentEnd && !lines[n - 1].trim()) n++;
    const item = n <= s.contentEnd ? LIST_ITEM.exec(lines[n - 1]) : null;
    if (!item) continue;
    const lead = itemLead(item[1]);
    if (!lead || lead.endsWith("…") || lead.split(/\s+/).length > LISTED_DECISION_WORDS || isFragment(lead)) continue;
    return proseChoice(lead, { text: lead, start: n, end: n }, considered);
  }
  return undefined;
}

/** A list can hold candidate options only when it is this short and its items are names, not arguments. */
const CANDIDATE_LIST_MAX = 12;
const CANDIDATE_ITEM_WORDS = 12;

/**
 * A record without an options section may still list its candidates elsewhere: a bullet list ("We have experience
 * with the following CI servers:"), a comparison table's first column, or an inline enumeration ("tools we can use:
 * celery, SWF, Luigi, and Airflow"). Such a list holds the considered options only when the decision chose one of
 * its items: the choice confirms what the list was. The first confirmed list outside the decision wins.
 */
function listConfirmedByChoice(parsed: ParsedAdr, chosenName: string, decisionIdx: number[]): { options: ConsideredOption[]; index: number } | undefined {
  const { lines, sections } = parsed.doc;
  const inDecision = (n: number) => decisionIdx.some((i) => sections[i].start <= n && n <= sections[i].end);
  // A list among the consequences says what follows from the choice, not what was weighed against it.
  const inAftermath = aftermathOf(parsed);
  const candidates: ConsideredOption[][] = [];
  // Bullet lists: runs of items at one indent, broken by any other line.
  let run: ConsideredOption[] = [];
  let runIndent = -1;
  let inFence = false;
  const flush = () => {
    if (run.length >= 2 && !mostlyStatements(run.map((o) => o.name))) candidates.push(run);
    run = [];
    runIndent = -1;
  };
  for (let n = bodyStart(parsed); n <= lines.length; n++) {
    const line = (lines[n - 1] ?? "").slice(0, MAX_SENTENCE_CHARS * 2);
    if (/^ {0,3}(`{3,}|~{3,})/.test(line)) inFence = !inFence;
    if (inFence || inDecision(n) || inAftermath(n)) {
      flush();
      continue;
    }
    const item = /^(\s*)(?:[-*+]|\d{1,3}[.)])\s+(.*)$/.exec(line);
    if (item) {
      const indent = item[1].length;
      if (runIndent >= 0 && indent > runIndent) continue;
      if (indent !== runIndent) flush();
      runIndent = indent;
      // "* `nullify` works well if …": an item that opens with a code span names that term, however long it runs on.
      const codeLead = codeLeadOf(item[2]);
      const { name } = optionName(item[2]);
      const short = codeLead ?? stripInline(name.replace(/\s*\([^)]*\)/g, "")).trim();
      if (short && short.split(/\s+/).length <= CANDIDATE_ITEM_WORDS) run.push({ name: short, range: { start: n, end: n }, source: "considered-options" });
      else flush();
      continue;
    }
    if (line.trim() && !/^\s{2,}\S/.test(line)) flush();
  }
  flush();
  // A comparison table's first column.
  let table: ConsideredOption[] = [];
  for (let n = 1; n <= lines.length + 1; n++) {
    const line = n <= lines.length ? lines[n - 1] : "";
    const row = /^\s*\|([^|]+)\|/.exec(line ?? "");
    if (row && !inDecision(n)) {
      const cell = stripInline(row[1]).replace(/\s*\([^)]*\)+/g, "").trim();
      const separator = /^:?-{2,}:?$/.test(cell);
      const isHeader = /^\s*\|\s*:?-{2,}/.test(lines[n] ?? "");
      if (cell && !separator && !isHeader && cell.split(/\s+/).length <= CANDIDATE_ITEM_WORDS) table.push({ name: cell, range: { start: n, end: n }, source: "considered-options" });
      continue;
    }
    if (table.length >= 2) candidates.push(table);
    table = [];
  }
  // Inline enumerations after a colon: "a few options we can use: celery, SWF, Luigi, and Airflow."
  sections.forEach((sec, i) => {
    if (decisionIdx.includes(i) || sec.level === 0) return;
    for (const sentence of sentencesIn(lines, sec.bodyStart, sec.contentEnd, 40)) {
      const m = /:\s+([^:]+)$/.exec(sentence.text);
      if (!m) continue;
      const parts = m[1].replace(/[.!?]$/, "").split(/,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+/).map((x) => x.trim()).filter(Boolean);
      if (parts.length >= 2 && parts.length <= CANDIDATE_LIST_MAX && parts.every((x) => x.split(/\s+/).length <= 4)) {
        candidates.push(parts.map((name) => ({ name, range: { start: sentence.start, end: sentence.end }, source: "considered-options" as const })));
      }
    }
  });
  // The list whose item the choice names most fully wins ("Airflow" is the table's "Airflow", not the later bullet
  // "write an Airflow operator for X"); on a tie, the first.
  let best: { options: ConsideredOption[]; index: number; score: number } | undefined;
  for (const options of candidates) {
    if (options.length > CANDIDATE_LIST_MAX) continue;
    // Nearly all of an item must be said: "remove the backup Google Cloud CDN" confirms no "Google Cloud Storage".
    const index = matchOption(chosenName, options, 0.75);
    if (index === undefined) continue;
    const score = coverage(options[index].name, chosenName);
    if (!best || score > best.score) best = { options, index, score };
  }
  return best ? { options: best.options, index: best.index } : undefined;
}

/**
 * When no sentence of the decision names an option or commits in prose, the decision text as a whole may still
 * describe one of the considered options far better than the others ("event streaming … places control over the
 * data in the service team's hands"): that one, when it is clearly ahead.
 */
function bestCoveredOption(parsed: ParsedAdr, considered: ConsideredOption[], sentences: LocatedSentence[]): ChosenOption | undefined {
  if (considered.length < 2 || sentences.length === 0) return undefined;
  // Alternatives to a proposal are variants of it and share its words; sharing them chooses none of them.
  if (considered.every((o) => o.source === "alternatives")) return undefined;
  const text = sentences.filter((s) => !NEGATIVE_CUE.test(s.text)).map((s) => s.text).join(" ");
  const scores = considered.map((o) => coverage(o.name, text)).map((score, i) => ({ score, i })).sort((a, b) => b.score - a.score || a.i - b.i);
  const [best, second] = scores;
  if (best.score < 0.6 || best.score - second.score < 0.3) return undefined;
  const first = sentences[0];
  const last = sentences[sentences.length - 1];
  return { name: considered[best.i].name, range: { start: first.start, end: last.end }, how: "outcome-names-option", considered_index: best.i };
}

/** "We adopt the following labels:", "… with the following characteristics:": the choice is in what follows. */
const POINTS_FORWARD = /(?:^|\bthe )following\b|\bas follows\b|^(?:two|three|four|five|six|several|\d{1,2})\s+(?:\S+\s+)?\S+s$/i;
/** A list item or a line of code right after the sentence. */
const LIST_ITEM = /^\s{0,6}(?:[-*+]|\d{1,2}[.)])\s+(.+)$/;
const ITEMS_SHOWN = 3;
const ITEM_CHARS = 64;

/**
 * A choice that points forward names only the kind of thing chosen ("following labels", "a new v3 API with the
 * following characteristics"); what was chosen is the list or code line after the sentence. The label becomes the
 * thing and the first items ("Labels: kind:breaking, kind:fix, …"), the range takes in the list.
 */
function spelledOut(lines: string[], chosen: ChosenOption): ChosenOption {
  if (!POINTS_FORWARD.test(chosen.name)) return chosen;
  const items: string[] = [];
  let end = chosen.range.end;
  let more = false;
  for (let n = chosen.range.end; n < lines.length && n < chosen.range.end + 40; n++) {
    const line = lines[n];
    if (!line.trim()) {
      if (items.length && !LIST_ITEM.test(lines[n + 1] ?? "")) break;
      continue;
    }
    // A table right after the sentence: each data row (its first two cells) is one item.
    if (/^\s*\|/.test(line)) {
      const cells = line.trim().replace(/^\||\|$/g, "").split("|").map((c) => stripInline(c).trim());
      const header = /^\s*\|?\s*:?-{2,}/.test(lines[n + 1] ?? "");
      const separator = cells.every((c) => /^:?-*:?$/.test(c));
      if (!header && !separator && cells[0]) {
        if (items.length >= ITEMS_SHOWN) more = true;
        else items.push(cells.slice(0, 2).filter(Boolean).join(" ").slice(0, ITEM_CHARS));
      }
      end = n + 1;
      continue;
    }
    if (items.length && /^\s*\|/.test(lines[n - 1] ?? "")) break;
    const item = LIST_ITEM.exec(line)?.[1] ?? (/^\s*`[^`]+`\s*$/.test(line) && !items.length ? line.trim() : undefined);
    if (item === undefined) {
      // A wrapped line of the item above, or the end of the list.
      if (items.length && /^\s{2,}\S/.test(line)) continue;
      break;
    }
    if (items.length >= ITEMS_SHOWN) more = true;
    else items.push(itemLead(item));
    end = n + 1;
    // A code line ("`{department}/{dataset}/…`") is the one thing chosen; a list after it explains its parts.
    if (/^\s*`/.test(line)) break;
  }
  const shown = items.filter(Boolean);
  if (!shown.length) return chosen;
  const base = chosen.name.replace(/[:\s]+$/, "");
  const thing =
    /^(.*\S)\s+with\s+the following\b.*$/i.exec(base)?.[1] ??
    /\bthe following\s+(.+)$/i.exec(base)?.[1] ??
    /^(?:the\s+)?following\s+(.+)$/i.exec(base)?.[1] ??
    base.replace(/\s*\bas follows\b/i, "");
  const name = `${thing.trim()}: ${shown.join(", ")}${more ? ", …" : ""}`;
  return { ...chosen, name: name[0].toUpperCase() + name.slice(1), range: { start: chosen.range.start, end } };
}

/** What a list item names: its bold lead, else its text up to a dash or colon that starts an explanation. */
function itemLead(item: string): string {
  const bold = /^(?:\*\*|__)(.+?)(?:\*\*|__)/.exec(item)?.[1];
  // A parenthetical ("(`save`, `update`)", "(or a subclass)") is an aside, not part of what the item names.
  const plain = item.replace(/\[([^\]]+)\]\([^()]*\)/g, "$1").replace(/\s*\([^()]*\)/g, "");
  const text = (bold ?? plain.split(/\s+[-–—:]\s+|:\s/)[0]).replace(/`/g, "").replace(/^[*_]+|[*_]+$/g, "").replace(/[.;,:]+$/, "").trim();
  return text.length > ITEM_CHARS ? `${text.slice(0, ITEM_CHARS - 1).trimEnd()}…` : text;
}

/**
 * When the decision text names nothing: "This RFC proposes X", a title that is a choice, "We use X" up front; and a
 * choice that only announces a list is spelled out from it.
 * `read.firm`: the choice is what the decision's opening committed to, or an option it named, not a weaker reading
 * from later in the text (a "will" sentence further down, a conclusion, a list).
 */
function fallbackChoice(parsed: ParsedAdr, considered: ConsideredOption[], found: ChosenOption | undefined, read: { hasDecisionSection: boolean; firm: boolean }): ChosenOption | undefined {
  const { hasDecisionSection } = read;
  const { sections } = parsed.doc;
  let chosen = found;
  // "This RFC proposes X" up front is the record's own summary of its proposal.
  if (!chosen || (chosen.how === "decision-prose" && chosen.considered_index === undefined)) {
    const intro = [...introSentences(parsed), ...contextSentences(parsed)].map((s) => ({ s, prose: namingReading(s.text) })).find((x) => x.prose.cue === "this record proposes" && x.prose.chosen);
    const proposed = intro?.prose.chosen ? withDefiningAside(intro.s.text, toClauseEnd(intro.s.text, intro.prose.chosen)) : undefined;
    // "## Proposal: X" names the proposal itself, and outranks a summary's "This RFC proposes …".
    if (intro && proposed && !namesOnlyTheTopic(proposed)) chosen = proposalInHeading(parsed) ?? { name: proposed, range: { start: intro.s.start, end: intro.s.end }, how: "decision-prose" };
  }
  // A title that is itself a choice ("Use Crossplane for abstraction", "Migrate to X") when the decision text names
  // nothing, or only something that shares no word with the title (then it elaborates, and the title sums up).
  // A choice stated only in a part of the title ("Front-end: tree changes and Use X") outweighs only a weak reading: a
  // later "will" sentence (a footnote, a plan), not what the decision's opening commits to.
  // A rejected record's title ("Use X") names what was turned down, never what was chosen.
  const stated = parsed.status === "rejected" ? undefined : TITLE_CHOICE.test(parsed.title) ? parsed.title : !read.firm ? titleChoice(parsed.title) : undefined;
  const t = stated ? readDecisionSentence(stated) : undefined;
  if (t?.chosen && (!chosen || (chosen.how === "decision-prose" && chosen.considered_index === undefined && coverage(t.chosen, chosen.name) === 0))) {
    const matched = considered.length > 0 ? matchOption(t.chosen, considered, 0.6) : undefined;
    // An alternative the record turned down is never what its title proposes, however many words they share
    // ("Migrate to CNCF Slack" against "Use the Kubernetes Slack, the other instance CNCF offers").
    const i = matched !== undefined && considered[matched].source !== "alternatives" ? matched : undefined;
    const titleLine = sections.find((s) => s.level === 1)?.start ?? 1;
    if (i !== undefined) chosen = { name: considered[i].name, range: { start: titleLine, end: titleLine }, how: "decision-prose", considered_index: i };
    // Options that are only the turned-down alternatives leave the title's own proposal as the choice.
    else if (considered.every((o) => o.source === "alternatives")) chosen = { name: t.chosen, range: { start: titleLine, end: titleLine }, how: "decision-prose" };
  }
  // "We disabled this default behaviour": the decision points back at what it acts on; a title that is itself an
  // action ("Disable fetch on focus") names it.
  if (chosen && chosen.how === "decision-prose" && chosen.considered_index === undefined && POINTS_AT_CONTEXT.test(chosen.name)) {
    const titleVerb = parsed.title.trim().split(/\s+/)[0]?.toLowerCase() ?? "";
    const title = IMPERATIVES.has(titleVerb) ? readDecisionSentence(parsed.title).chosen : undefined;
    const titleLine = sections.find((s) => s.level === 1)?.start ?? chosen.range.start;
    if (title) chosen = { name: title, range: { start: Math.min(titleLine, chosen.range.start), end: chosen.range.end }, how: "decision-prose" };
  }
  // "Implement the protocol on top of X", "Implement an MVP following the design in the next section": the decision
  // names what it commits to only by pointing at the record's own design, which the title names.
  if (chosen && chosen.how === "decision-prose" && chosen.considered_index === undefined && pointsAtOwnDesign(chosen.name, parsed.number)) {
    const titleVerb = parsed.title.trim().split(/\s+/)[0]?.toLowerCase() ?? "";
    const title = IMPERATIVES.has(titleVerb) || TITLE_CHOICE.test(parsed.title) ? readDecisionSentence(parsed.title).chosen : stripInline(parsed.title).trim();
    const titleLine = sections.find((s) => s.level === 1)?.start ?? chosen.range.start;
    if (title && !pointsBack(title) && !isFragment(title)) chosen = { name: title, range: { start: Math.min(titleLine, chosen.range.start), end: chosen.range.end }, how: "decision-prose" };
  }
  // A record with no decision section that weighs options still commits to one somewhere: "Due to its speed, X is
  // the recommended tool", "We will go with X".
  if (!chosen && !hasDecisionSection) chosen = claimedInItsSection(parsed, considered) ?? committedToOption(parsed, considered);
  // "## Proposal: X" names the design the record proposes, whether or not the record reads that part as its decision.
  if (!chosen) chosen = proposalInHeading(parsed);
  // "## 8 Proposal" whose one sub-part is laid out as an option ("### 8.1 X" with its own pros and cons, like the
  // alternatives after it): that sub-part's heading names the proposal.
  if (!chosen) chosen = optionShapedProposal(parsed);
  // An RFC (summary, motivation, design, no decision section) proposes what its summary commits to, else its title.
  // Two options, one of which its own text disowns ("listed for completeness, I do not advocate for it"): the other.
  if (!chosen && !hasDecisionSection) chosen = otherThanDisowned(parsed, considered);
  if (!chosen && !hasDecisionSection) chosen = withDesignNames(parsed, rfcProposal(parsed));
  // A record without a decision section may sum up its own approach under a summary or overview heading: "Our
  // approach is based on X".
  if (!chosen && !hasDecisionSection) chosen = ownApproachInSummary(parsed);
  // A record without a decision section may state its choice in its opening sentences: "We use X".
  if (!chosen && !hasDecisionSection) {
    for (const s of introSentences(parsed)) {
      const prose = namingReading(s.text);
      // Outside a decision section only a first-person commitment counts: "We use X", "We decided to X". (Round 34
      // tried a third-person intention too, "The changed system intends to use X": two dev labels more, but one
      // held-out answer and one held-out option list fewer; dropped.)
      if (prose.chosen && INTRO_CUES.has(prose.cue ?? "") && !pointsBack(prose.chosen)) {
        chosen = { name: prose.chosen, range: { start: s.start, end: s.end }, how: "decision-prose" };
        break;
      }
    }
  }

  // Nor a proposal it states: a record may still rank its choice in its body ("the simplest option seems to be X").
  if (!chosen && !hasDecisionSection) chosen = rankedInBody(parsed);

  return chosen && chosen.considered_index === undefined ? namedAfter(parsed.doc.lines, spelledOut(parsed.doc.lines, chosen)) : chosen;
}

/**
 * The first sentence of the body's prose that ranks something as the choice: "There are several possibilities, but
 * the simplest option seems to be adding a flag", "X remains the best choice". Questions, turned-down wording and list
 * items aside.
 */
function rankedInBody(parsed: ParsedAdr): ChosenOption | undefined {
  for (const s of sentencesIn(parsed.doc.lines, bodyStart(parsed), parsed.doc.lines.length, WEIGHED_SENTENCES)) {
    // A list item argues a point ("- **Its value**: X is the only viable way to Y"); the body's prose ranks.
    if (/\?\s*$/.test(s.text) || NEGATIVE_CUE.test(s.text) || /^\s*(?:[-*+]|\d{1,2}[.)])\s/.test(parsed.doc.lines[s.start - 1] ?? "")) continue;
    const prose = namingReading(s.text);
    if (prose.cue === "best choice" && prose.chosen && !pointsBack(prose.chosen) && !isFragment(prose.chosen)) return { name: prose.chosen, range: { start: s.start, end: s.end }, how: "decision-prose" };
  }
  return undefined;
}

/** "(The rest of this ADR will refer to this approach as the “multi-stack approach”.)", "hereafter called X". */
const NAMED_AS =
  /\b(?:refer(?:red)?\s+to\s+(?:this|it|the\s+(?:approach|design|solution|option|proposal))(?:\s+(?:approach|design|solution|option|proposal))?\s+as|(?:hereafter|henceforth),?\s+(?:called|referred\s+to\s+as|known\s+as)|we\s+(?:call|name)\s+(?:this|it)(?:\s+(?:approach|design|solution|option))?)\s+(?:the\s+)?[“"'`]([^”"'`\n]{2,40})[”"'`]/i;

/**
 * A choice the record goes on to name ("we propose to roll out one stack per project. (The rest of the ADR will
 * refer to this approach as the “multi-stack approach”.)") is known by that name: it is how the record, and a reader
 * of it, speaks of the choice. Only a quoted name in the same paragraph, right after the sentence.
 */
function namedAfter(lines: string[], chosen: ChosenOption): ChosenOption {
  const paragraph: string[] = [];
  for (let n = chosen.range.start - 1; n < lines.length && n < chosen.range.end + 3; n++) {
    if (n >= chosen.range.end && !lines[n].trim()) break;
    paragraph.push(lines[n]);
  }
  const m = NAMED_AS.exec(stripInline(paragraph.join(" ")));
  return m && /\p{L}/u.test(m[1]) ? { ...chosen, name: m[1].trim() } : chosen;
}

/** A sentence inside an option's own text that says it is the one chosen: "This is what we will use from now on". */
const SELF_CHOICE =
  /^(?:(?:this|that|it)(?:\s+(?:option|approach|one|solution))?\s+(?:is|was)\s+(?:what|the\s+(?:one|option|approach|solution|way|choice))\s+(?:that\s+)?we(?:\s+(?:will|shall|are going to|have|now))?\s+(?:use|adopt|chose|chosen|choose|picked|selected|go with|went with|prefer|recommend|decided on)|(?:this|it)\s+is\s+our\s+(?:chosen|preferred|recommended|selected)\s+(?:option|approach|solution)|we(?:\s+(?:will|have decided to|decided to|chose to))\s+(?:use|adopt|go with)\s+(?:this|it)\b)/i;

/** The one option whose own text claims it is chosen (SELF_CHOICE), in a record with no decision section. */
function claimedInItsSection(parsed: ParsedAdr, considered: ConsideredOption[]): ChosenOption | undefined {
  const claimed = considered
    .map((o, i) => ({ o, i }))
    .filter(({ o }) => o.range.end > o.range.start && sentencesIn(parsed.doc.lines, o.range.start, o.range.end, 60).some((x) => SELF_CHOICE.test(stripInline(x.text).trim()) || committedToItself(x.text, o.name)));
  if (claimed.length !== 1) return undefined;
  const { o, i } = claimed[0];
  return { name: o.name, range: o.range, how: "decision-prose", considered_index: i };
}

/** Words that make a present-tense "we use X" a description of how things are, not a commitment. */
const AS_THINGS_ARE = /\b(?:currently|today|at (?:the|this) moment|at present|presently|so far|for now|still|used to|already)\b/i;

/**
 * "We use X for all of these, despite the drawbacks", written inside X's own section: a first-person commitment
 * whose object is the option the section is about (its words, or their initials: "PRs" for "pull requests").
 */
function committedToItself(sentence: string, option: string): boolean {
  if (NEGATIVE_CUE.test(sentence) || AS_THINGS_ARE.test(sentence)) return false;
  const prose = namingReading(sentence);
  if (!prose.chosen || !/^(?:we use|we will|decided to)$/.test(prose.cue ?? "")) return false;
  // The commitment's object is the option itself, named first ("PRs for all of these"), not a phrase that only
  // mentions it ("find ways to achieve X for some part").
  const named = contentWordsOf(option).length;
  return coverage(option, contentWordsOf(withInitialsSpelledOut(prose.chosen, option)).slice(0, named + 1).join(" ")) >= 0.6;
}

/** "PRs" in a phrase becomes "pull requests" when those are consecutive words of `name` whose initials it spells. */
function withInitialsSpelledOut(phrase: string, name: string): string {
  const words = name.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  return phrase.replace(/\b([A-Z]{2,5})s?\b/g, (token, letters: string) => {
    for (let i = 0; i + letters.length <= words.length; i++) {
      const run = words.slice(i, i + letters.length);
      if (run.map((w) => w[0].toUpperCase()).join("") === letters) return run.join(" ");
    }
    return token;
  });
}

/** Cues of a sentence that commits to something rather than describing it. */
const COMMITTING_CUES = new Set(["best choice", "we will", "decided to", "it was decided", "decided that", "decided on", "we propose"]);

/**
 * The last sentence outside the options themselves and what follows from the decision that commits to exactly one
 * considered option by name. The conclusion of a record comes last; an earlier commitment is often a premise.
 */
function committedToOption(parsed: ParsedAdr, considered: ConsideredOption[]): ChosenOption | undefined {
  if (considered.length < 2) return undefined;
  const { lines } = parsed.doc;
  const insideOption = (n: number) => considered.some((o) => o.range.start <= n && n <= o.range.end);
  const inAftermath = aftermathOf(parsed);
  let found: ChosenOption | undefined;
  // A conclusion sits at the end of a long record: read further than the options are searched for.
  for (const s of sentencesIn(lines, bodyStart(parsed), lines.length, 2 * WEIGHED_SENTENCES)) {
    if (insideOption(s.start) || inAftermath(s.start) || NEGATIVE_CUE.test(s.text)) continue;
    const prose = namingReading(s.text);
    if (!prose.chosen || !COMMITTING_CUES.has(prose.cue ?? "")) continue;
    const i = matchOption(prose.chosen, considered, 0.6);
    // An alternative to the record's own design shares its words; a sentence takes it up only by citing it.
    if (i !== undefined && considered[i].source === "alternatives" && optionByRef(s.text, considered) !== i) continue;
    if (i !== undefined) found = { name: considered[i].name, range: { start: s.start, end: s.end }, how: "outcome-names-option", considered_index: i };
  }
  return found;
}

/** Section keys that, two or more together and with no decision section, mark an RFC-style proposal. */
const RFC_SECTION = /^(?:summary|motivation|why|how|goals|non-goals|use cases|requirements|(?:detailed |technical )?designs?(?: details)?|drawbacks|(?:prior art and )?alternatives(?: considered)?|prior art|unresolved questions|open questions|rationale|explanation|internal details|trade-?offs(?: and mitigations)?|future possibilities)$/;
/**
 * Further parts that mark a proposal-style document (an RFC, RFD, OTEP, TEP: it proposes one design and weighs
 * alternatives against it): counted with RFC_SECTION only when the record has no decision section.
 */
const PROPOSAL_STYLE_SECTION = /^(?:overview|background|problem(?: statement)?|(?:the )?proposal|proposed (?:solution|design|change|approach)|implementation details|expectations and alternatives|rationale and alternatives|alternatives? (?:approaches )?considered|non-goals|user experience|risks)$/;
/** "Proposal: X", "Proposed solution - X": a heading that names the proposed design after its label. */
const PROPOSAL_HEADING = /^(?:the )?(?:proposal|proposed (?:solution|design|approach|change)|recommendation)\s*[:\u2013\u2014-]\s+(.{3,120})$/i;

/** "## Proposal: Gerrit for code review": the heading of the proposal names the design it proposes. */
function proposalInHeading(parsed: ParsedAdr): ChosenOption | undefined {
  const named = parsed.doc.sections.map((s) => ({ s, name: s.level > 1 ? proposalHeadingName(s.heading) : undefined })).find((x) => x.name);
  return named?.name ? { name: named.name, range: { start: named.s.start, end: named.s.start }, how: "decision-prose" } : undefined;
}

/** The parts of a record that lay out its own proposal ("Proposal", "8 Proposed solution", "Design"). */
const OWN_PROPOSAL_PART = /^(?:(?:the |our )?proposal|proposed (?:solution|design|approach|change)s?|(?:the )?solution|(?:detailed |technical )?design)$/;
/** A sub-part that argues for what its parent lays out: its pros, its cons, why it is preferred. */
const ARGUES_FOR_IT = /^why\b.{0,40}\b(?:preferred|chosen|recommended|this)\b/;

/**
 * "## 8 Proposal" then "### 8.1 Meta-monitoring validation" with "#### Pros", "#### Cons": a proposal part whose
 * only sub-part is written as an option is that option's proposal; its heading names it. Two or more such sub-parts
 * are options still to choose among, and a sub-part without pros and cons ("### Example") is a part of the design.
 */
function optionShapedProposal(parsed: ParsedAdr): ChosenOption | undefined {
  const { sections } = parsed.doc;
  const arguedFor = (i: number) => sections.some((g) => g.parent === i && (ARGUMENT_HEADING.test(sectionKey(g)) || ARGUES_FOR_IT.test(sectionKey(g))));
  for (let i = 0; i < sections.length; i++) {
    if (sections[i].level === 0 || !OWN_PROPOSAL_PART.test(sectionKey(sections[i]))) continue;
    const shaped = sections.map((c, k) => ({ c, k })).filter(({ c, k }) => c.parent === i && arguedFor(k));
    if (shaped.length !== 1) continue;
    const { c } = shaped[0];
    const name = stripInline(c.heading).replace(/^\d+(?:\.\d+)*[.)]?\s+/, "").trim();
    if (name && !isFragment(name) && !ARGUMENT_HEADING.test(name) && !DOCUMENT_PART_UNDER_OPTIONS.test(name)) return { name, range: { start: c.start, end: c.start }, how: "decision-prose" };
  }
  return undefined;
}

function proposalHeadingName(heading: string): string | undefined {
  const tail = PROPOSAL_HEADING.exec(stripInline(heading).replace(/^\d+(?:\.\d+)*[.)]?\s+/, "").trim())?.[1]?.trim();
  return tail && !isFragment(tail) && !pointsBack(tail) ? tail : undefined;
}

/**
 * An RFC states its proposal in its summary ("Support RPC X.", "This RFC proposes X", "X supports Y") and names it
 * in its title ("Load-based region splitting"): the summary's commitment when it has one, else the title when the
 * title is a name (no question, not a placeholder or a fragment).
 */
/** Sections that lay out what an RFC builds: "Design", "Detailed design", "Implementation details", "Proposal". */
const DESIGN_PART = /^(?:(?:detailed |technical |proposed )?design(?: details)?|implementation(?: details)?|specification|proposal|the proposal)$/;
/** At most this many names from the design are added to what the RFC proposes. */
const DESIGN_NAMES = 3;
/** How far into the design section its names are looked for. */
const DESIGN_LINES = 40;

/**
 * An RFC's summary or title says what it proposes in general ("Resiliency in SDKs"); its design names the things it
 * builds, as list items that lead with a code or bold name ("`DAPR_API_MAX_RETRIES` defines …"). Those names say
 * what was chosen, so they join the proposal: "Resiliency in SDKs: DAPR_API_MAX_RETRIES, DAPR_API_TIMEOUT_SECONDS".
 */
function withDesignNames(parsed: ParsedAdr, chosen: ChosenOption | undefined): ChosenOption | undefined {
  if (!chosen) return chosen;
  const { lines, sections } = parsed.doc;
  const design = sections.find((s) => s.level > 0 && DESIGN_PART.test(sectionKey(s)));
  if (!design) return chosen;
  const names: string[] = [];
  let inFence = false;
  for (let n = design.bodyStart; n <= Math.min(design.end, design.bodyStart + DESIGN_LINES) && names.length < DESIGN_NAMES; n++) {
    const line = lines[n - 1] ?? "";
    if (/^ {0,3}(`{3,}|~{3,})/.test(line)) inFence = !inFence;
    const item = inFence ? null : /^ {0,3}(?:[-*+]|\d{1,2}[.)])\s+(.*)$/.exec(line);
    if (!item) continue;
    const name = codeLeadOf(item[1]) ?? /^(?:\*\*|__)([^*_]{2,60})(?:\*\*|__)/.exec(item[1].trim())?.[1]?.replace(/[:.]$/, "").trim();
    // A path ("src/a.js") names an example's file, not a part of the design.
    if (name && !name.includes("/") && !names.includes(name) && coverage(name, chosen.name) < 1) names.push(name);
  }
  return names.length ? { ...chosen, name: `${chosen.name}: ${names.join(", ")}` } : chosen;
}

/** A proposal-style record: two or more of its parts are RFC or proposal parts (summary, motivation, design, …). */
function isProposalStyle(parsed: ParsedAdr): boolean {
  // Its parts are every heading but the title ("# Summary", "# Motivation" when the record has no title heading).
  const keys = parsed.doc.sections.filter((s, i) => s.level > 0 && parsed.section_names[i] !== "title").map((s) => sectionKey(s));
  return keys.filter((k) => RFC_SECTION.test(k) || PROPOSAL_STYLE_SECTION.test(k)).length >= 2;
}

/**
 * "This RFC describes in detail how X determines Y", "This is a detailed description of the internal caching
 * architecture": a record that opens by saying it documents how things work proposes nothing, whatever its title.
 */
const DESCRIBES_AS_IS =
  /^this\s+(?:rfc|rfd|document|record|page|memo\w*)\s+(?:describes|documents|explains)\s+(?:in detail\s*,?\s*)?(?:[^;:]{0,60},\s*)?how\s+(?!to\b)|^this\s+is\s+an?\s+(?:\w+\s+)?(?:description|overview|explanation)\s+of\s+(?:the\s+)?(?:\w+\s+)?(?:internal|current|existing|present)\b/i;

function rfcProposal(parsed: ParsedAdr): ChosenOption | undefined {
  const { sections } = parsed.doc;
  if (!isProposalStyle(parsed)) return undefined;
  if (DESCRIBES_AS_IS.test(stripInline(introSentences(parsed)[0]?.text ?? ""))) return undefined;
  // The record's own statement of what it proposes, wherever its summary or proposal part states it.
  const stated = proposalStatement(parsed);
  if (stated && !pointsBack(stated.name)) return { name: stated.name, range: stated.range, how: "decision-prose" };
  const title = namedTitle(stripInline(parsed.title).replace(/^(?:(?:rfc|rfd|otep|tep|proposal|design)\s*-?\s*\d+\s*:?|(?:rfc|proposal|design)\s*:)\s*/i, "").trim());
  const titleLine = sections.find((s) => s.level === 1)?.start ?? frontMatterTitleLine(parsed);
  if (!titleLine || !title || /\?$/.test(title) || title.split(/\s+/).length > 8 || isFragment(title) || /^(?:title|summary|untitled|rfc|template)$/i.test(title)) return undefined;
  return restatedInDesign(parsed, title) ?? { name: title, range: { start: titleLine, end: titleLine }, how: "decision-prose" };
}

/** A title's name before its colon has at most this many words ("Widget: a shared component for X"). */
const TITLE_NAME_WORDS = 3;

/**
 * "Widget: A First-Class Resource for Durable Widget Hosting": a long title that names the proposed thing before a
 * colon and says what it is after is named by the two up to the purpose ("Widget: A First-Class Resource"). Other
 * titles are kept as they are.
 */
function namedTitle(title: string): string {
  const m = /^([^:]{1,60}):\s+(\S.*)$/.exec(title);
  if (!m || title.split(/\s+/).length <= 8 || m[1].trim().split(/\s+/).length > TITLE_NAME_WORDS) return title;
  const what = m[2].split(/\s+(?:for|to|in|with|that|which|so|by)\s+/i)[0].trim();
  return `${m[1].trim()}: ${what}`;
}

/** The line of a front-matter "title:" that names a record with no title heading. */
function frontMatterTitleLine(parsed: ParsedAdr): number | undefined {
  const { lines, sections } = parsed.doc;
  const before = Math.min(sections.find((s) => s.level > 0)?.start ?? lines.length, lines.length);
  const at = lines.slice(0, before).findIndex((l) => /^title\s*:\s*\S/i.test(l));
  return at >= 0 ? at + 1 : undefined;
}

/** A design-part statement says at least this much of what the title names when it restates the title. */
const RESTATES_TITLE = 0.5;

/**
 * "# Remove allowlists from X" whose summary states no proposal, and whose proposal part opens "Remove all allow lists
 * from the X file on every repository": the design part restates the title's proposal in full, so it names it; the
 * title only names it in short.
 */
function restatedInDesign(parsed: ParsedAdr, title: string): ChosenOption | undefined {
  const c = proposalCandidates(parsed).find((x) => x.inDesign && x.score > 0 && coverage(title, x.phrase) >= RESTATES_TITLE && !pointsBack(x.phrase));
  return c ? { name: c.phrase, range: { start: c.sentence.start, end: c.sentence.end }, how: "decision-prose" } : undefined;
}

/** A phrase whose object only points back: "disabled this default behaviour", "adopted it", "keep these". */
const POINTS_AT_CONTEXT = /^\S+\s+(?:this|that|these|those|it|them)\b/i;

/** The sentences of the record's context part ("## Context", "## Background"). */
function contextSentences(parsed: ParsedAdr): LocatedSentence[] {
  const { lines, sections } = parsed.doc;
  return sections.flatMap((s, i) => (parsed.section_names[i] === "context" ? sentencesIn(lines, s.bodyStart, s.contentEnd, 200) : []));
}

/** The first few prose sentences after the title (headings skipped). */
/** "## High Level Summary", "## Overview": a part that sums the record up. */
const SUMMARY_HEADING = /^(?:(?:high[- ]level|executive|design|technical)\s+)?(?:summary|overview)$/;

/** The opening sentence of a summary part, when it states the record's own approach ("Our approach is based on X"). */
function ownApproachInSummary(parsed: ParsedAdr): ChosenOption | undefined {
  const { lines, sections } = parsed.doc;
  for (const s of sections) {
    if (s.level === 0 || !SUMMARY_HEADING.test(sectionKey(s))) continue;
    const first = sentencesIn(lines, s.bodyStart, s.contentEnd, 1)[0];
    const prose = first ? readDecisionSentence(first.text) : undefined;
    if (first && prose?.cue === "our approach" && prose.chosen && !isFragment(prose.chosen)) return { name: prose.chosen, range: { start: first.start, end: first.end }, how: "decision-prose" };
  }
  return undefined;
}

function introSentences(parsed: ParsedAdr): LocatedSentence[] {
  const { lines, sections } = parsed.doc;
  const first = sections.find((s) => s.level > 0);
  const from = first ? first.bodyStart : bodyStart(parsed);
  return sentencesIn(lines, from, lines.length, 12)
    .filter((s) => !(s.start === s.end && /^ {0,3}#/.test(lines[s.start - 1] ?? "")))
    .slice(0, PROSE_OPENING_SENTENCES);
}

function proseChoosesOther(prose: { chosen?: string }, considered: ConsideredOption[], named: number): boolean {
  if (!prose.chosen) return false;
  const i = matchOption(prose.chosen, considered, 0.6);
  return i !== undefined && i !== named;
}

function isAncestor(sections: MarkdownSection[], ancestor: number, i: number): boolean {
  for (let p = sections[i].parent; p !== undefined; p = sections[p].parent) if (p === ancestor) return true;
  return false;
}

/** A clause that only leads in to the choice ("After careful consideration of both options, we …"). */
const LEAD_IN = /^(?:after|following|given|based on|having|upon|on balance|in the end|ultimately|in light of|with)\b/i;

/**
 * "Chosen option: After careful consideration, we have decided to X": the text up to the first comma is a lead-in,
 * not the option. The option is the considered one the sentence names, else what the sentence commits to; a
 * lead-in that commits to nothing names nothing.
 */
function afterLeadIn(found: { name: string; sentence: string; range: LineRange }, considered: ConsideredOption[]): { name: string; range: LineRange } | undefined {
  if (!LEAD_IN.test(found.name) || matchOption(found.name, considered, 0.5) !== undefined) return found;
  const commitment = found.sentence.slice(found.name.length).replace(/^[\s,;:]+/, "");
  const named = considered.length > 0 ? matchOption(commitment, considered, 0.6) : undefined;
  if (named !== undefined) return { name: considered[named].name, range: found.range };
  const prose = readDecisionSentence(commitment).chosen;
  return prose && !isFragment(prose) ? { name: prose, range: found.range } : undefined;
}

function findChosenLine(parsed: ParsedAdr, decisionIdx: number[]): { name: string; sentence: string; range: LineRange } | undefined {
  const { lines, sections } = parsed.doc;
  const scan = (from: number, to: number) => {
    let inFence = false;
    for (let n = from; n <= to; n++) {
      if (/^ {0,3}(`{3,}|~{3,})/.test(lines[n - 1])) inFence = !inFence;
      if (inFence) continue;
      const hit = chosenFromLine(lines[n - 1]);
      if (hit) return { ...hit, range: { start: n, end: n } };
    }
    return undefined;
  };
  for (const i of decisionIdx) {
    const hit = scan(sections[i].bodyStart, sections[i].end);
    if (hit) return hit;
  }
  return scan(1, lines.length);
}

/** The first "Bad, because …" of an option's pros-and-cons subsection, as its reason. */
function firstCon(parsed: ParsedAdr, name: string): string | undefined {
  const key = Object.keys(parsed.option_sections).find((k) => coverage(name, k) >= 0.8 || coverage(k, name) >= 0.8);
  const con = key ? parsed.option_sections[key].cons[0] : undefined;
  if (!con) return undefined;
  return stripInline(parsed.doc.lines[con.start - 1].replace(/^\s*[-*+]\s+/, "")).slice(0, MAX_SENTENCE_CHARS).trim() || undefined;
}
