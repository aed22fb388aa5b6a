// How a record's own shape qualifies what the decision model read from it, for the guard:
//   - a list under "Consequences", "Advantages", "Pros", "Drawbacks" … says what follows from the choice; its items
//     are no options ("DDoS specific metrics", "We can use Terraform to write … policies");
//   - an option named as someone's ("GitHub's repository explorer", "GovUK One Login's [tech-docs]") is the thing
//     after the possessive: the owner's name alone would match every line about that owner;
//   - a decision sentence that says an option is not fit ("Implementing PDNS is not appropriate …") turns it down,
//     even when the model read it as the outcome because the sentence names it first;
//   - "No message queue (RabbitMQ or otherwise) shall be used": the examples in the parentheses are turned down.
// Pure and linear: bounded patterns over single sentences or lines.
import type { ParsedAdr } from "../internal/adr";
import { sentencesIn, type DecisionRecord } from "../decisions";
import type { LineRange } from "../schemas";
import { keysOf, tokensOf } from "./names";
import { namesIn } from "./proseOptions";

/** Headings of what follows from a choice, not of the options weighed. */
const CONSEQUENCE_HEADING = /\b(?:consequences?|advantages?|disadvantages?|benefits?|drawbacks?|pros|cons|positives?|negatives?|trade-?offs?|risks?|implications?|outcomes? for)\b/i;
const OPTIONS_HEADING = /\b(?:options?|alternatives?|contenders?|candidates?|considered|choices)\b/i;

/** The sections a line lies in, innermost first, up to (not including) the document's top level. */
export function sectionsAround(parsed: ParsedAdr, line: number): number[] {
  const { sections } = parsed.doc;
  let at = -1;
  sections.forEach((s, i) => {
    if (s.level > 0 && s.start <= line && line <= s.contentEnd && (at < 0 || s.start >= sections[at].start)) at = i;
  });
  const out: number[] = [];
  for (let i: number | undefined = at; i !== undefined && i >= 0 && sections[i].level > 0; i = sections[i].parent) out.push(i);
  return out;
}

/** Whether a line lies in a section (or a subsection of one) about consequences, and in none about options. */
export function inConsequences(parsed: ParsedAdr, line: number): boolean {
  for (const i of sectionsAround(parsed, line)) {
    const heading = parsed.doc.sections[i].heading.slice(0, 200);
    // MADR's "Pros and Cons of the Options" holds the options as its subsections' headings.
    if (OPTIONS_HEADING.test(heading)) return false;
    if (CONSEQUENCE_HEADING.test(heading) || parsed.section_names[i] === "consequences") return true;
  }
  return false;
}

/** "GitHub's repository explorer" → "repository explorer"; a name without a possessive is returned as it is. */
export function ownedThing(name: string): string {
  const m = /^(.{0,120}?)\b[\w.-]+['’]s\s+(.{2,160})$/.exec(name.trim());
  return m ? m[2].trim() : name;
}

/** "… is not appropriate", "… will not be implemented", "decided not to adopt …": a negative verdict in a sentence. */
const NOT_FIT = /\b(?:is|are|was|were)\s+not\s+(?:appropriate|suitable|viable|feasible|recommended|a\s+good\s+fit|fit|right|an?\s+option|worth)\b|\b(?:will|shall|should)\s+not\s+(?:be\s+)?(?:implement|implemented|adopt|adopted|apply|applied|use|used|pursue|pursued)\b|\bdecided\s+(?:not\s+to|against)\b|\bnot\s+to\s+(?:adopt|use|implement|pursue)\b/i;

/** An RFC's "Proposal" heading: where a record with no decision section says what it will do. */
const PROPOSAL_HEADING = /^(?:the\s+)?(?:proposals?|proposed\s+(?:solution|change|design|approach))$/i;

function decisionSentences(parsed: ParsedAdr): { text: string; start: number; end: number }[] {
  const { lines, sections } = parsed.doc;
  const out: { text: string; start: number; end: number }[] = [];
  const decides = (i: number) => parsed.section_names[i] === "decision" || parsed.section_names[i] === "decision-outcome";
  const proposal = !sections.some((_, i) => decides(i));
  sections.forEach((s, i) => {
    const heading = s.heading.replace(/^[#\s]+|[:\s]+$/g, "").trim();
    if ((decides(i) || (proposal && s.level > 0 && PROPOSAL_HEADING.test(heading))) && out.length < 40) out.push(...sentencesIn(lines, s.bodyStart, s.contentEnd, 40 - out.length));
  });
  return out;
}

function names(text: string, name: string): boolean {
  const keys = keysOf(name);
  if (!keys) return false;
  const words = new Set(tokensOf(text));
  if (keys.exact) return keys.exact.every((t) => words.has(t));
  return keys.tokens.length > 0 && keys.tokens.every((t) => words.has(t));
}

/**
 * The options the decision section turns down with a negative verdict, and of the others the ones a decision
 * sentence names without one (the winners): "Implementing PDNS is not appropriate …; Implementing AWS Route53
 * Resolver DNS Firewall offers a comparable level of protection".
 */
export function verdicts(parsed: ParsedAdr, options: string[]): { notFit: string[]; fit: string[] } {
  const notFit = new Set<string>();
  const fit = new Set<string>();
  for (const s of decisionSentences(parsed)) {
    const named = options.filter((o) => names(s.text, o));
    if (!named.length) continue;
    const verdict = NOT_FIT.exec(s.text);
    const lower = s.text.toLowerCase();
    // "X is not appropriate": the verdict is about what comes before it; "decided not to adopt X": after it.
    const objectAfter = !!verdict && /^(?:decided|not)/i.test(verdict[0]);
    for (const o of named) {
      const k = keysOf(o);
      const first = k?.exact?.[0] ?? k?.tokens[0];
      const at = first ? lower.indexOf(first) : -1;
      if (verdict && at >= 0 && (objectAfter ? at > verdict.index : at < verdict.index)) notFit.add(o);
      else fit.add(o);
    }
  }
  for (const o of notFit) fit.delete(o);
  return { notFit: [...notFit], fit: [...fit] };
}

/**
 * The model with the decision section's verdicts applied: a chosen option the decision calls unfit is turned down,
 * and the one listed option a decision sentence names without such a verdict is the choice instead.
 */
export function withVerdicts(parsed: ParsedAdr, model: DecisionRecord): DecisionRecord {
  if (!model.chosen) return model;
  const chosenName = model.chosen.name;
  const others = [...model.rejected, ...model.considered.filter((c) => c.name !== chosenName && !model.rejected.some((r) => r.name === c.name))];
  const { notFit, fit } = verdicts(parsed, [chosenName, ...others.map((o) => o.name)]);
  if (!notFit.includes(chosenName)) return model;
  const winners = others.filter((o) => fit.includes(o.name));
  const winner = winners.length === 1 ? winners[0] : undefined;
  const rejected = [
    ...model.rejected.filter((r) => r.name !== winner?.name),
    ...(model.rejected.length ? [] : others.filter((o) => o.name !== winner?.name && notFit.includes(o.name)).map((o) => ({ name: o.name, range: o.range }))),
    { name: chosenName, range: model.chosen.range, reason: "the decision finds it unfit" },
  ];
  return { ...model, chosen: winner ? { name: winner.name, range: winner.range, how: "decision-prose" } : undefined, rejected };
}

/** "No message queue (RabbitMQ or otherwise) shall be used": the named examples a decision sentence forbids. */
const NO_SUCH = /\bno\s+[a-z][\w\s-]{0,60}?\(([^()]{1,120})\)\s*(?:shall|should|will|must|may|can|is|are)\s+(?:be\s+)?(?:used|adopted|introduced|added|allowed)\b/i;

/** "Retire the `govuk-lint` gem", "We will stop using `x`": a decision step that takes a named thing out. */
const TAKES_OUT = /^(?:[-*+]\s+|\d+[.)]\s+)?(?:we\s+(?:will|shall|should)\s+)?(?:retire|remove|drop|deprecate|stop\s+using|get\s+rid\s+of|phase\s+out)\s+(?:the\s+|our\s+|all\s+)?`([^`\s]{2,60})`/i;

/**
 * "We no longer accept integrations that integrate with devices over GPIO", "… any new integration that relies on
 * webscraping": what the kind of contribution no longer accepted works through, the sentence's last word.
 */
const NO_LONGER = /\bno\s+longer\s+(?:accept|allow|support|take|merge)\s+(?:any\s+)?(?:new\s+)?[a-z][\w-]*(?:\s+[a-z][\w-]*){0,3}?\s+(?:that|which)\s+(?:[\w-]+\s+){0,6}?(?:on|over|via|with|using|through|upon|use|uses)\s+([A-Za-z][\w.+-]{1,40}?)\s*[.;]?\s*$/i;

/** What a decision sentence says the project no longer accepts work through (NO_LONGER), with its sentence. */
function noLongerAccepted(parsed: ParsedAdr): { name: string; range: LineRange; reason: string }[] {
  const out: { name: string; range: LineRange; reason: string }[] = [];
  for (const s of decisionSentences(parsed)) {
    const m = NO_LONGER.exec(s.text);
    if (m && !/^(?:it|them|this|that|these|those|devices?|hardware)$/i.test(m[1])) out.push({ name: m[1], range: { start: s.start, end: s.end }, reason: s.text.slice(0, 200) });
  }
  return out;
}

export function forbiddenExamples(parsed: ParsedAdr): { name: string; range: LineRange; reason: string }[] {
  const out: { name: string; range: LineRange; reason: string }[] = [...noLongerAccepted(parsed)];
  for (const s of decisionSentences(parsed)) {
    // The line as written: the sentence reader drops the code spans that say exactly what goes.
    const gone = s.start === s.end ? TAKES_OUT.exec((parsed.doc.lines[s.start - 1] ?? "").trim()) : null;
    if (gone) out.push({ name: gone[1], range: { start: s.start, end: s.end }, reason: s.text.slice(0, 200) });
    const m = NO_SUCH.exec(s.text);
    if (!m) continue;
    for (const name of namesIn(m[1].replace(/\b(?:or|and)\s+(?:otherwise|similar|the like|others?)\b/gi, ","))) out.push({ name, range: { start: s.start, end: s.end }, reason: s.text.slice(0, 200) });
  }
  return out;
}

/**
 * "No message queue (RabbitMQ or otherwise)": the examples stand for the whole kind, so the kind's words ("no message
 * queue") are returned, with the sentence, for the well-known members of that kind to be turned down (peers.ts).
 */
export function forbiddenKinds(parsed: ParsedAdr): { kind: string; range: LineRange; reason: string }[] {
  // What no new work may go through stands for its kind: its well-known libraries are turned down with it.
  const out: { kind: string; range: LineRange; reason: string }[] = noLongerAccepted(parsed).map((x) => ({ kind: x.name, range: x.range, reason: x.reason }));
  for (const s of decisionSentences(parsed)) {
    const m = NO_SUCH.exec(s.text);
    if (!m || !/\bor\s+(?:otherwise|similar|the like|any other|others?)\b/i.test(m[1])) continue;
    out.push({ kind: s.text.slice(m.index, m.index + m[0].indexOf("(")), range: { start: s.start, end: s.end }, reason: s.text.slice(0, 200) });
  }
  return out;
}
