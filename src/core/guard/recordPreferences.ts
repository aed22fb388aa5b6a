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

/** "take option 2", "we chose option 3", "option 1 was selected": the number of the option a decision took. */
const TOOK_OPTION = /\b(?:take|took|taking|choose|chose|chosen|choosing|go\s+with|went\s+with|pick|picked|adopt|adopted|select|selected|opted\s+for|implement|recommend)\s+(?:the\s+)?option\s+(\d{1,2})\b|\boption\s+(\d{1,2})\s+(?:was|is|has\s+been)\s+(?:chosen|selected|picked|adopted|taken)\b/i;
/** A numbered heading ("### 3. Implement an initial hiding approach"). */
const NUMBERED_HEADING = /^(\d{1,2})[.)]\s+(.{2,160})$/;
/** A code span that names something in code: kebab, snake or camel case ("js-failed", "retry_count", "jsFailed"). */
const IDENTIFIER = /^(?:[a-z][a-z0-9]*(?:[-_][a-z0-9]+)+|[a-z]+(?:[A-Z][a-z0-9]+)+)$/;
const MAX_IDENTIFIERS = 3;

/**
 * Options a record numbers in its headings ("### 1. Do nothing", "### 3. Implement an initial hiding approach …")
 * when its decision takes one by number ("we should take option 2"): the others are turned down, known by their
 * heading's names and by the identifiers only their own text writes as code (`js-failed`, where the chosen option
 * writes `js-enabled` and the rejected one both). Each identifier must also be absent from the decision section.
 */
export function numberedOptions(parsed: ParsedAdr): PreferredThing[] {
  const { lines, sections } = parsed.doc;
  const decision: string[] = [];
  sections.forEach((s, i) => {
    const name = parsed.section_names[i];
    if (name === "decision" || name === "decision-outcome") decision.push(lines.slice(s.bodyStart - 1, Math.min(s.contentEnd, s.bodyStart + 60)).join(" ").slice(0, 6000));
  });
  const decisionText = decision.join(" ");
  const took = TOOK_OPTION.exec(decisionText);
  if (!took) return [];
  const chosenNumber = Number(took[1] ?? took[2]);
  // Sibling sections whose headings number them: one group per parent.
  const groups = new Map<number, { n: number; index: number; text: string }[]>();
  sections.forEach((s, i) => {
    if (s.level === 0 || s.parent === undefined) return;
    const m = NUMBERED_HEADING.exec(s.heading.replace(/\s+/g, " ").trim().slice(0, 200));
    if (m) groups.set(s.parent, [...(groups.get(s.parent) ?? []), { n: Number(m[1]), index: i, text: m[2] }]);
  });
  const out: PreferredThing[] = [];
  for (const group of groups.values()) {
    if (group.length < 2 || group.length > 8) continue;
    const chosen = group.find((g) => g.n === chosenNumber);
    if (!chosen) continue;
    const spansOf = (index: number) => {
      const s = sections[index];
      const body = lines.slice(s.start - 1, Math.min(s.contentEnd, s.start + 200)).join("\n").slice(0, 20_000);
      return new Set([...body.matchAll(/`([^`\n]{1,60})`/g)].map((m) => m[1].trim()));
    };
    const chosenSpans = spansOf(chosen.index);
    for (const g of group) {
      if (g === chosen) continue;
      const s = sections[g.index];
      const range = { start: s.start, end: s.start };
      const reason = `option ${g.n} ("${g.text.replace(/[`*_]/g, "")}"), not the option ${chosenNumber} the decision took`;
      const headingKeys = keysOf(g.text.replace(/`[^`]*`/g, " "));
      if (headingKeys) out.push({ name: g.text.replace(/[`*_]/g, ""), keys: { ...headingKeys, all: true }, range, reason });
      let n = 0;
      for (const span of spansOf(g.index)) {
        if (n >= MAX_IDENTIFIERS) break;
        if (!IDENTIFIER.test(span) || chosenSpans.has(span) || decisionText.includes(span)) continue;
        const tokens = tokensOf(span);
        // A camel-case name is one token (`fallbackShown`); a kebab or snake one is its parts in a row.
        if (tokens.length > 5 || (tokens.length < 2 && !(/[a-z][A-Z]/.test(span) && span.length >= 6))) continue;
        out.push({ name: span, keys: { display: span, exact: tokens, tokens: [] }, range, reason, identifier: true });
        n++;
      }
    }
  }
  return out;
}
