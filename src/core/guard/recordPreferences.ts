// What a record prefers in its own imperative lines and decision sentences, beside its option list (dev5):
//   - a proposal item "Use X over Y" / "Use X instead of Y" / "Prefer X rather than Y" chooses X and turns Y down
//     ("Use Typescript over Proptypes"); "Continue using X", "Keep using X", "Stick with X" chooses X ("Continue using
//     Bootstrap (…), but:"). Only lines that start with the verb, outside consequences and outside the options the
//     record weighed (a considered alternative "Use Tailwind instead of Bootstrap" chooses nothing);
//   - a decision sentence "We will use [A] in combination with [B], [C] and [D]" chooses every linked or coded name it
//     lists (reference links too), up to a clause that sets something aside ("instead of", "rather than", "over").
// A name of several words keys by all of them in a row ("Action Mailer" is `ActionMailer`/`action_mailer`, not any
// line saying "action"); an all-capitals domain before a name ("GOV.UK Notify") qualifies it and is no key.
// Pure and linear: bounded patterns over single lines and sentences.
import type { ParsedAdr } from "../internal/adr";
import { sentencesIn } from "../decisions";
import type { LineRange } from "../schemas";
import { keysOf, tokensOf, type NameKeys } from "./names";
import { inConsequences, sectionsAround } from "./recordReading";
import { namesIn } from "./proseOptions";

export interface PreferredThing {
  name: string;
  keys: NameKeys;
  range: LineRange;
  reason?: string;
  /** A name the record writes as code (`js-failed`): in a changed line's string it is still used, not mentioned. */
  identifier?: boolean;
}

/** Headings of the options a record weighed: an imperative there is an option's name, not the decision. */
const WEIGHED_HEADING = /\b(?:options?|alternatives?|contenders?|candidates?|considered|choices|pros and cons)\b/i;
/** "Use X over Y", "Prefer X instead of Y", "Choose X rather than Y" at the start of an item or a sentence. */
const PREFER_LINE = /^(?:use|prefer|choose|adopt)\s+(.{1,80}?)\s+(?:over|instead of|rather than|in place of)\s+(.{1,80})$/i;
/** "Continue using X", "Keep using X", "Stick with X", "Carry on using X". */
const CONTINUE_LINE = /^(?:continue|keep|carry on)\s+(?:using|with)\s+(.{1,120})$|^stick\s+with\s+(.{1,120})$/i;
/** A step that opens by using a thing the line writes as code or a link ("Use [`etcd`](…) as …"). */
const USE_STEP = /^(?:use|adopt)\s+(?=`|\[)/i;

/** Whether a line lies in a decision section (or a subsection of one). */
function inDecisionSection(parsed: ParsedAdr, line: number): boolean {
  return sectionsAround(parsed, line).some((i) => parsed.section_names[i] === "decision" || parsed.section_names[i] === "decision-outcome");
}

/** A decision sentence that says what the project will use. */
const WILL_USE = /\bwe\s+(?:will|shall|are going to|have decided to|decided to|chose to|choose to)\s+(?:use|adopt)\s+/i;
/** Where a list of chosen things ends: the clause sets something aside. */
const SET_ASIDE = /\s(?:instead of|rather than|over|not|except|without|unless|but)\s/i;
/** An all-capitals domain ("GOV.UK", "NHS.UK") that qualifies the name after it. */
const DOMAIN_QUALIFIER = /^[A-Z]{2,6}(?:\.[A-Z]{2,6})+$/;

/** The keys of a preferred name: its words in a row when it has several, a domain qualifier aside. */
export function preferredKeys(name: string): NameKeys | undefined {
  const bare = name.replace(/[`*_"“”]/g, "").replace(/\s+/g, " ").trim();
  const words = bare.split(" ").filter(Boolean);
  const kept = words.length > 1 ? words.filter((w) => !DOMAIN_QUALIFIER.test(w)) : words;
  if (!kept.length || kept.length > 4) return undefined;
  const keys = keysOf(kept.join(" "));
  if (!keys) return undefined;
  if (kept.length === 1 || keys.exact) return { ...keys, display: bare };
  const run = kept.flatMap((w) => tokensOf(w));
  return run.length >= 2 && run.length <= 4 ? { display: bare, exact: run, tokens: [] } : undefined;
}

/** The first name of a fragment: a code span or a link text when it leads, else its first name-like run. */
function leadName(fragment: string): string | undefined {
  const text = fragment.trim();
  const marked = /^(?:`([^`]{1,80})`|\[([^\]]{1,80})\](?:\([^)\s]{0,300}\)|\[[^\]]{0,60}\])?)/.exec(text);
  if (marked) return (marked[1] ?? marked[2]).replace(/[`*_]/g, "").trim();
  // The name must start the fragment ("Typescript for typing"), not come later in a phrase ("directories for components").
  const first = namesIn(text.replace(/\s+\(.*$/, ""), 1)[0];
  return first && text.startsWith(first.split(" ")[0]) ? first : undefined;
}

/** Whether a line lies in a section about the options weighed (or a subsection of one). */
function inWeighed(parsed: ParsedAdr, line: number): boolean {
  for (const i of sectionsAround(parsed, line)) {
    const name = parsed.section_names[i];
    if (name === "considered-options" || name === "alternatives" || WEIGHED_HEADING.test(parsed.doc.sections[i].heading.slice(0, 200))) return true;
  }
  return false;
}

/** What a record's imperative lines and decision sentences choose and turn down (see the file comment). */
export function recordPreferences(parsed: ParsedAdr): { chosen: PreferredThing[]; rejected: PreferredThing[] } {
  const chosen: PreferredThing[] = [];
  const rejected: PreferredThing[] = [];
  const push = (list: PreferredThing[], name: string | undefined, range: LineRange, reason?: string) => {
    const keys = name ? preferredKeys(name) : undefined;
    if (!name || !keys || list.some((t) => t.keys.display === keys.display)) return;
    list.push({ name, keys, range, ...(reason ? { reason } : {}) });
  };
  const { lines, sections } = parsed.doc;
  for (let n = 1; n <= lines.length && n <= 5000; n++) {
    const raw = (lines[n - 1] ?? "").slice(0, 400);
    const item = raw.replace(/^\s*(?:[-*+]|\d{1,3}[.)])\s+/, "").trim();
    if (!item || /^#/.test(item) || !/^(?:use|prefer|choose|adopt|continue|keep|carry|stick)\b/i.test(item)) continue;
    if (inConsequences(parsed, n) || inWeighed(parsed, n)) continue;
    const range = { start: n, end: n };
    const prefer = PREFER_LINE.exec(item.replace(/[.:]\s*$/, ""));
    if (prefer) {
      const x = leadName(prefer[1]);
      const y = leadName(prefer[2]);
      // Both sides must be names: "Use directories for components instead of filenames" compares no things.
      if (x && y && x.toLowerCase() !== y.toLowerCase()) {
        push(chosen, x, range);
        push(rejected, y, range, item);
      }
      continue;
    }
    const kept = CONTINUE_LINE.exec(item.replace(/,?\s*but:?\s*$/i, "").replace(/[.:]\s*$/, ""));
    if (kept) push(chosen, leadName(kept[1] ?? kept[2]), range);
    // "- Use [`etcd`](…) as a proxy to achieve …": a decision step that opens with a name it writes as code or a link.
    const used = USE_STEP.exec(item);
    if (used && inDecisionSection(parsed, n)) push(chosen, leadName(item.slice(used[0].length)), range);
  }
  // "We will use [GOV.UK Notify][notify] in combination with [Action Mailer][…], [Active Job][…] and [Sidekiq][…].":
  // the first such sentence of the decision section.
  sections.forEach((s, i) => {
    const name = parsed.section_names[i];
    if (name !== "decision" && name !== "decision-outcome") return;
    for (const sentence of sentencesIn(lines, s.bodyStart, s.contentEnd, 10)) {
      if (!WILL_USE.test(sentence.text)) continue;
      const raw = lines.slice(sentence.start - 1, Math.min(sentence.end, sentence.start + 3)).join(" ").slice(0, 2000);
      const verb = WILL_USE.exec(raw);
      if (!verb) continue;
      let rest = raw.slice(verb.index + verb[0].length);
      const aside = SET_ASIDE.exec(rest);
      if (aside) rest = rest.slice(0, aside.index);
      rest = rest.split(/(?<=[a-z\])`])\.(?:\s|$)/)[0];
      const linked = [...rest.matchAll(/\[([^\]]{1,80})\](?:\([^)\s]{0,500}\)|\[[^\]]{0,60}\])|`([^`]{1,80})`/g)].map((m) => (m[1] ?? m[2]).replace(/[`*_]/g, "").trim());
      // Two or more: a list of things used together. One is the model's own chosen option, already read.
      if (linked.length >= 2 && linked.length <= 8) for (const l of linked) push(chosen, l, { start: sentence.start, end: sentence.end });
      return;
    }
  });
  return { chosen, rejected };
}

/**
 * "take option 2", "we chose option 3", "option 1 was selected", "as per point 2 above": the number of the option a
 * decision took.
 */
const TOOK_OPTION = /\b(?:take|took|taking|choose|chose|chosen|choosing|go\s+with|went\s+with|pick|picked|adopt|adopted|select|selected|opted\s+for|implement|recommend)\s+(?:the\s+)?option\s+(\d{1,2})\b|\boption\s+(\d{1,2})\s+(?:was|is|has\s+been)\s+(?:chosen|selected|picked|adopted|taken)\b|\b(?:as\s+per|per|following|according\s+to)\s+(?:point|option|approach|alternative)\s+(\d{1,2})\b/i;
/** An outcome that opens by naming the option it took ("Option 1: Use `ClientRole` …", "Chosen option: option 2"). */
const OUTCOME_NAMES_OPTION = /^\W{0,4}(?:chosen\s+option\s*:\s*)?["“]?option\s+(\d{1,2})\b/i;
/** A numbered heading ("### 3. Implement an initial hiding approach"). */
const NUMBERED_HEADING = /^(\d{1,2})[.)]\s+(.{2,160})$/;
/** A numbered list item at the margin ("1. Have a single endpoint that takes a parameter …"). */
const NUMBERED_ITEM = /^(\d{1,2})[.)]\s+(\S.{0,300})$/;
/**
 * A code span that names something in code: kebab, snake or camel case ("js-failed", "retry_count", "jsFailed"), or
 * a key path that starts with such a name ("realm_access.roles").
 */
const IDENTIFIER = /^(?:[a-z][a-z0-9]*(?:[-_][a-z0-9]+)+|[a-z]+(?:[A-Z][a-z0-9]+)+|[a-z][a-z0-9]*(?:[-_][a-z0-9]+)+(?:\.[a-z][a-z0-9_]*){1,3})$/;
const MAX_IDENTIFIERS = 3;

/** One numbered option: its number, its text, and the lines its body spans (1-based, inclusive). */
interface NumberedOption {
  n: number;
  text: string;
  start: number;
  end: number;
  /** A list item rather than a heading: its sentence is prose, so only its code names it. */
  item?: boolean;
}

/** A call or declaration an example code block writes (`GetAddresses(repairType: string)`): its name and parameters. */
interface Signature {
  name: string;
  params: string[];
}

/** Signatures in fenced code blocks of the given lines: camel- or Pascal-case names only (`GetAddresses`, not `get`). */
function signaturesIn(lines: readonly string[]): Signature[] {
  const out: Signature[] = [];
  let fenced = false;
  for (const line of lines) {
    if (/^\s*(?:```|~~~)/.test(line)) {
      fenced = !fenced;
      continue;
    }
    if (!fenced) continue;
    for (const m of line.slice(0, 300).matchAll(/\b([A-Za-z_][A-Za-z0-9_]{5,60})\s*\(([^()]{0,120})\)/g)) {
      if (!/[a-z][A-Z]/.test(m[1])) continue;
      // "repairType: string", "string repairType", "repairType": the parameter's own name.
      const params = m[2].split(",").map((p) => /^\s*([A-Za-z_]\w{2,40})\s*:/.exec(p)?.[1] ?? /([A-Za-z_]\w{2,40})\s*$/.exec(p)?.[1]).filter((p): p is string => !!p);
      out.push({ name: m[1], params });
    }
  }
  return out.slice(0, 10);
}

/** Sibling sections whose headings number them, one group per parent. */
function headingGroups(parsed: ParsedAdr): NumberedOption[][] {
  const { sections } = parsed.doc;
  const groups = new Map<number, NumberedOption[]>();
  sections.forEach((s) => {
    if (s.level === 0 || s.parent === undefined) return;
    const m = NUMBERED_HEADING.exec(s.heading.replace(/\s+/g, " ").trim().slice(0, 200));
    if (m) groups.set(s.parent, [...(groups.get(s.parent) ?? []), { n: Number(m[1]), text: m[2], start: s.start, end: Math.min(s.contentEnd, s.start + 200) }]);
  });
  return [...groups.values()];
}

/**
 * Numbered list items at a section's margin, numbered 1, 2, … in a row, each with the lines up to the next one: the
 * options a Nygard context often lists ("There are 2 ways …: 1. Have a single endpoint … 2. Have 3 endpoints …").
 */
function itemGroups(parsed: ParsedAdr): NumberedOption[][] {
  const { lines, sections } = parsed.doc;
  const out: NumberedOption[][] = [];
  for (const s of sections) {
    const group: NumberedOption[] = [];
    const last = Math.min(s.contentEnd, s.bodyStart + 300);
    for (let ln = s.bodyStart; ln <= last; ln++) {
      const m = NUMBERED_ITEM.exec((lines[ln - 1] ?? "").trimEnd());
      if (!m) continue;
      if (Number(m[1]) !== group.length + 1) break;
      if (group.length) group[group.length - 1].end = ln - 1;
      group.push({ n: Number(m[1]), text: m[2], start: ln, end: last, item: true });
    }
    if (group.length >= 2) out.push(group);
  }
  return out;
}

/**
 * Options a record numbers in its headings ("### 1. Do nothing", "### 3. Implement an initial hiding approach …") or
 * as list items at the margin, when its decision takes one by number ("we should take option 2", "as per point 2
 * above"): the others are turned down, known by their heading's names (not a list item's prose) and by the
 * identifiers only their own text writes as code (`js-failed`, where the chosen option writes `js-enabled` and the
 * rejected one both), and by the signatures of their example code (`GetAddresses(repairType: string)`, known by the
 * name with its parameters). Each identifier must also be absent from the decision section.
 */
export function numberedOptions(parsed: ParsedAdr): PreferredThing[] {
  const { lines, sections } = parsed.doc;
  const decision: string[] = [];
  sections.forEach((s, i) => {
    const name = parsed.section_names[i];
    if (name === "decision" || name === "decision-outcome") decision.push(lines.slice(s.bodyStart - 1, Math.min(s.contentEnd, s.bodyStart + 60)).join(" ").slice(0, 6000));
  });
  const decisionText = decision.join(" ");
  const took = TOOK_OPTION.exec(decisionText) ?? OUTCOME_NAMES_OPTION.exec(decisionText);
  if (!took) return [];
  const chosenNumber = Number(took[1] ?? took[2] ?? took[3]);
  const out: PreferredThing[] = [];
  for (const group of [...headingGroups(parsed), ...itemGroups(parsed)]) {
    if (group.length < 2 || group.length > 8) continue;
    const chosen = group.find((g) => g.n === chosenNumber);
    if (!chosen) continue;
    const bodyOf = (g: NumberedOption) => lines.slice(g.start - 1, g.end);
    const spansOf = (g: NumberedOption) => new Set([...bodyOf(g).join("\n").slice(0, 20_000).matchAll(/`([^`\n]{1,60})`/g)].map((m) => m[1].trim()));
    const chosenBody = bodyOf(chosen).join("\n");
    const chosenSpans = spansOf(chosen);
    for (const g of group) {
      if (g === chosen) continue;
      const range = { start: g.start, end: g.start };
      const reason = `option ${g.n} ("${g.text.replace(/[`*_]/g, "").slice(0, 120)}"), not the option ${chosenNumber} the decision took`;
      const headingKeys = g.item ? undefined : keysOf(g.text.replace(/`[^`]*`/g, " "));
      if (headingKeys) out.push({ name: g.text.replace(/[`*_]/g, ""), keys: { ...headingKeys, all: true }, range, reason });
      let n = 0;
      for (const span of spansOf(g)) {
        if (n >= MAX_IDENTIFIERS) break;
        if (!IDENTIFIER.test(span) || chosenSpans.has(span) || decisionText.includes(span)) continue;
        const tokens = tokensOf(span);
        // A camel-case name is one token (`fallbackShown`); a kebab or snake one is its parts in a row.
        if (tokens.length > 5 || (tokens.length < 2 && !(/[a-z][A-Z]/.test(span) && span.length >= 6))) continue;
        out.push({ name: span, keys: { display: span, exact: tokens, tokens: [] }, range, reason, identifier: true });
        n++;
      }
      for (const sig of signaturesIn(bodyOf(g))) {
        if (n >= MAX_IDENTIFIERS) break;
        if (chosenBody.includes(sig.name) || decisionText.includes(sig.name)) continue;
        // The name with its parameters: another call of that name with other arguments is not this option's.
        const whole = [sig.name, ...sig.params].map((w) => w.toLowerCase());
        out.push({ name: `${sig.name}(${sig.params.join(", ")})`, keys: { display: sig.name, exact: [sig.name.toLowerCase()], tokens: [], ...(sig.params.length ? { whole } : {}) }, range, reason, identifier: true });
        n++;
      }
    }
  }
  return out;
}
