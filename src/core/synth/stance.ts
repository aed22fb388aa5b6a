// Reads a piece of evidence for its stance toward one option: does it favour it, argue against it, or only mention
// it? Rules over clauses, not a model: explicit pair patterns first ("replace X with Y", "migrate from X to Y",
// "X instead of Y"), then cue words before or after the option's term, then the ADR's own decision metadata.
import type { FusedEvidence, SourceType } from "../schemas";
import { readQuestion } from "./question";

export interface OptionKey {
  /** Lower-case terms that name the option in text ("postgresql", "postgres", "pg"). */
  terms: string[];
}

export interface Stance {
  polarity: 1 | -1;
  weight: number;
  /** Short reason, used in summaries and tradeoffs. */
  why: string;
}

const SOURCE_WEIGHT: Record<SourceType, number> = {
  adr: 3,
  "agent-instructions": 2.5,
  architecture: 1.5,
  contributing: 1.2,
  "canonical-file": 1,
  commit: 1.5,
  "dependency-doc": 1,
  web: 1.5,
  code: 1,
};

const NEGATIVE_BEFORE =
  /\b(never|don'?t|do not|does not|must not|should not|shouldn'?t|cannot|can'?t|avoid(?:s|ed|ing)?|no longer|stop(?:ped|s)? [a-z]+ing|not use|not add|rather than|instead of|away from|remov(?:e|ed|es|ing)|delet(?:e|ed|es|ing)|disabl(?:e|ed|es|ing)|turn(?:ed|s|ing)? off|switch(?:ed|es|ing)? off|drop(?:ped|s|ping)?|retir(?:e|ed|es|ing)|deprecat(?:e|ed|es|ing)|reject(?:ed|s)?|against|ban(?:ned|s)?|forbid(?:den)?|disallow(?:ed)?|phase out|phasing out|get rid of|rip out|supersed(?:es|ing)|replaces)\b/;
const NEGATIVE_AFTER =
  /^(?:[^.;]|\.(?=\w)){0,80}?\b(?:shall|should|must|may|will|can)\s+not\s+be\s+(?:used|added|relied on|called)|^(?:[^.;]|\.(?=\w)){0,80}?\b(?:shall|should|must|will)\s+be\s+(?:avoided|removed|dropped|phased out|banned)|^(?:[^.;]|\.(?=\w)){0,80}?\b(?:is|are)\s+(?:not\s+(?:allowed|permitted|to be used)|forbidden|discouraged)|^(?:\s*(?:module|modules|library|support|service|component|integration|extension))?\s*(?:deprecation|removal|retirement|sunset|decommissioning|deletion)\b|^[^.;]{0,40}?\b(is|are|was|were|has been|have been|gets|got|being)\s+(?:(?:now|considered|evaluated|tried|tested|and|but|then|later|eventually)\s+){0,3}(deprecated|retired|rejected|discouraged|obsolete|legacy|removed|dropped|banned|forbidden|not recommended|no longer (?:used|supported|maintained)|unmaintained|archived|superseded)/;
const POSITIVE_BEFORE =
  /\b(use[sd]?|using|prefer(?:s|red)?|adopt(?:s|ed)?|chose|chosen|choose|we will|we'll|switch(?:ed)? to|migrat\w* to|mov(?:e|ed|es) to|standardi[sz]e[ds]? on|go(?:es)? through|lives? in|stored in|store[sd]? [a-z ]{0,30}in|built (?:on|with)|based on|rel(?:y|ies) on|recommend(?:s|ed)?|requires?|must use|should use|add(?:ed|s)?|introduc(?:e|ed|es)|enabl(?:e|ed|es|ing)|keep)\b/;

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

const regexCache = new Map<string, RegExp>();

function termRegex(terms: string[]): RegExp {
  const cacheKey = terms.join("\u0000");
  const hit = regexCache.get(cacheKey);
  if (hit) {
    hit.lastIndex = 0;
    return hit;
  }
  if (regexCache.size > 5000) regexCache.clear();
  const re = buildTermRegex(terms);
  regexCache.set(cacheKey, re);
  return re;
}

function buildTermRegex(terms: string[]): RegExp {
  const alts = terms
    .filter((t) => t.length > 0)
    .sort((a, b) => b.length - a.length)
    // "adr-tools", "ADR Tools", "adr_tools" and "adrtools" name one thing: a separator inside a term matches any
    // separator or none.
    .map((t) => escapeRe(t).replace(/[-_\s]+/g, "[-_\\s]?"));
  return new RegExp(`(?<![a-z0-9])(?:${alts.join("|")})(?![a-z0-9])`, "i");
}

export function mentions(text: string, key: OptionKey): boolean {
  return key.terms.length > 0 && termRegex(key.terms).test(text);
}

/**
 * How much text a stance reads from one evidence item. A commit subject can be a megabyte of unpunctuated text;
 * what argues for or against an option is in its opening, and a bound keeps every deliberation's cost flat.
 */
export const MAX_STANCE_TEXT_CHARS = 16_000;
/** Clauses longer than this are cut (at a space when there is one) so no matcher sees a long unpunctuated run. */
export const MAX_CLAUSE_CHARS = 500;

export function clauses(text: string): string[] {
  return text
    .split(/\n+|(?<=[^\d\s][.!?;])\s+/)
    .map((s) => s.replace(/^\s*(?:[-*+]|\d+\.)\s+/, "").trim())
    .flatMap(cutLongClause)
    .filter(Boolean);
}

function cutLongClause(clause: string): string[] {
  if (clause.length <= MAX_CLAUSE_CHARS) return [clause];
  const out: string[] = [];
  let rest = clause;
  while (rest.length > MAX_CLAUSE_CHARS) {
    const space = rest.lastIndexOf(" ", MAX_CLAUSE_CHARS);
    const cut = space > MAX_CLAUSE_CHARS / 2 ? space : MAX_CLAUSE_CHARS;
    out.push(rest.slice(0, cut).trim());
    rest = rest.slice(cut).trimStart();
  }
  if (rest) out.push(rest);
  return out;
}

// Pair cues, found first and split around with indexOf-style scans: a pattern like /(.+?)X(.+)/ retries from
// every start position and is quadratic on a long clause without X.
const REPLACE_VERB = /\b(?:replac|swap|substitut)\w*\s+/g;
const REPLACE_SEPARATOR = /\s+(?:with|by|for)\s+/g;
const MOVE_FROM = /\b(?:migrat|mov|switch|port|convert|transition|chang|upgrad)\w*\b(?:\s+[a-z0-9-]+){0,4}?\s+from\s+/g;
const MOVE_SEPARATOR = /\s+(?:to|onto|into)\s+/g;
const INSTEAD_CUE = /\b(?:instead of|rather than|in favou?r of)\b/g;

/** The text after the first `lead` match, split at the first `separator` after it (each side non-empty). */
function splitPair(text: string, lead: RegExp, separator: RegExp): [string, string] | undefined {
  lead.lastIndex = 0;
  const m = lead.exec(text);
  if (!m) return undefined;
  const from = m.index + m[0].length;
  separator.lastIndex = from + 1;
  for (let s = separator.exec(text); s; s = separator.exec(text)) {
    const after = text.slice(s.index + s[0].length);
    if (after) return [text.slice(from, s.index), after];
    separator.lastIndex = s.index + 1;
  }
  return undefined;
}

/** The text before and after the first cue that has text on both sides. */
function splitAtCue(text: string, cue: RegExp): [string, string, string] | undefined {
  cue.lastIndex = 1;
  for (let c = cue.exec(text); c; c = cue.exec(text)) {
    const after = text.slice(c.index + c[0].length);
    if (after) return [text.slice(0, c.index), c[0], after];
    cue.lastIndex = c.index + 1;
  }
  return undefined;
}

/** Polarity of one clause toward the option's term, or 0 when it only mentions it (or not at all). */
export function clausePolarity(clause: string, key: OptionKey): { polarity: -1 | 0 | 1; explicit: boolean } {
  // One space for any whitespace run, and a bounded clause: every pattern below then runs in linear time.
  const lower = (clause.length > MAX_CLAUSE_CHARS ? clause.slice(0, MAX_CLAUSE_CHARS) : clause).toLowerCase().replace(/\s+/g, " ");
  const re = termRegex(key.terms);
  const m = re.exec(lower);
  if (!m) return { polarity: 0, explicit: false };

  // Pair patterns: the side the term sits on decides.
  const pair = splitPair(lower, REPLACE_VERB, REPLACE_SEPARATOR) ?? splitPair(lower, MOVE_FROM, MOVE_SEPARATOR);
  if (pair) {
    if (re.test(pair[0])) return { polarity: -1, explicit: true };
    if (re.test(pair[1])) return { polarity: 1, explicit: true };
  }
  // "Instead of using the exclusive queue, we will use the single active consumer": the fronted side is dropped.
  const fronted = /^\W*(?:instead of|rather than)\b([^,]+),(.+)/.exec(lower);
  if (fronted) {
    if (re.test(fronted[1])) return { polarity: -1, explicit: true };
    if (re.test(fronted[2])) return { polarity: 1, explicit: true };
  }
  const instead = splitAtCue(lower, INSTEAD_CUE);
  if (instead) {
    // "use A instead of B": A favoured, B not. "in favour of" flips the sides.
    const favouredFirst = !/in favou?r of/.test(lower);
    if (re.test(instead[2])) return { polarity: favouredFirst ? -1 : 1, explicit: true };
    if (re.test(instead[0])) return { polarity: favouredFirst ? 1 : -1, explicit: true };
  }

  const before = lower.slice(0, m.index);
  const after = lower.slice(m.index + m[0].length);
  // Only cues in the same sub-clause as the term count ("use pino; never winston" keeps them apart).
  const localBefore = before.split(/[,;:]|\bbut\b|\band\b(?= (?:\w+ )?(?:never|do not|don't|use|using|start|begin|adopt|prefer|switch|keep|stop|avoid|remove|drop|replace|move|migrate|rely|go)\b)/).pop() ?? before;
  if (NEGATIVE_AFTER.test(after)) return { polarity: -1, explicit: true };
  if (NEGATIVE_BEFORE.test(localBefore)) return { polarity: -1, explicit: true };
  if (POSITIVE_BEFORE.test(localBefore)) return { polarity: 1, explicit: true };
  return { polarity: 0, explicit: false };
}

/**
 * The option an ADR chose: its "Chosen option"; else the object of a "Use X for Y" style title; else what its
 * Decision section says it will do ("We will use X", "Switch to X", "Migrate IMAP to a reactive model"), read with
 * the same parser as questions.
 */
export function adrChoice(e: FusedEvidence, decisionText?: string): string | undefined {
  if (!e.adr) return undefined;
  if (e.adr.chosen_option) return e.adr.chosen_option;
  // The decision model's choice when the record lists it among its options ("We will style … with X").
  const decided = e.adr.decided_option?.name;
  if (decided && e.adr.considered_options.includes(decided)) return decided;
  // A title is one line; the bound keeps the lazy title patterns below from going quadratic on a runaway one.
  const title = e.adr.title.slice(0, MAX_CLAUSE_CHARS).trim().replace(/^(?:adr[-\s]*)?\d+[.:)]?\s+/i, "");
  const m = /^(?:use|using|adopt|adopting|choose|prefer|switch(?:ing)? to|migrat(?:e|ing) to|mov(?:e|ing) to|standardi[sz](?:e|ing) on|introduc(?:e|ing))\s+(.+?)(?:\s+(?:for|as|in|to|on|with|across)\s+.*)?$/i.exec(title);
  if (m) return m[1].trim();
  // "Sign receipts with Ed25519 from node:crypto", "Store orders in PostgreSQL": the object of the last preposition.
  const object = /^(?:store|keep|run|host|put|sign|build|write|implement|deploy|serve|cache|log|persist|publish|test|render|parse|validate|encrypt|package|ship|send|manage|track|document)\s+[a-z][\w\s-]{0,40}?\s+(?:with|using|via|in|on|to)\s+(.+?)(?:\s+(?:for|from|as|across|instead of|over)\s+.*)?$/i.exec(title);
  if (object && object[1].split(/\s+/).length <= 3) return object[1].trim();
  const text = decisionText ?? (/decision|outcome/.test(e.adr.section ?? "") ? e.excerpt : "");
  return text ? decisionSentenceChoice(text) : undefined;
}

/** What a Decision section commits to: the target of its first decision sentence. */
export function decisionSentenceChoice(text: string): string | undefined {
  const body = text
    .slice(0, MAX_STANCE_TEXT_CHARS)
    .split("\n")
    .filter((l) => !/^\s*#/.test(l) && !/^\s*(?:status|date|deciders?)\s*:/i.test(l))
    .join(" ")
    .replace(/\s+/g, " ")
    .trim();
  const sentences = body.split(/(?<=[.!?])\s+(?=[A-Z])/).slice(0, 3);
  for (const sentence of sentences) {
    const s = readQuestion(sentence.slice(0, MAX_CLAUSE_CHARS).replace(/^(?:we|the team)\s+(?:have\s+)?(?:decided|agreed|chose|choose|decide)\s+(?:to\s+)?/i, "We will "));
    // Only a sentence that adopts, moves to or replaces something states a choice ("We will use X", "Switch to X").
    if (!["adopt", "move-to", "migration"].includes(s.form)) continue;
    const label = s.target?.subject?.trim();
    if (label && label.split(/\s+/).length <= 5 && /[a-z]/i.test(label) && !/[[\]()<>|#]/.test(label)) return label;
  }
  return undefined;
}

/** Title and excerpt as a stance reads them: a subject is a line, not a document, and the whole is bounded. */
function boundedStanceText(e: FusedEvidence): string {
  const title = (e.title ?? "").slice(0, MAX_CLAUSE_CHARS * 2);
  return `${title}\n${e.excerpt}`.slice(0, MAX_STANCE_TEXT_CHARS);
}

const INACTIVE = new Set(["superseded", "deprecated", "rejected"]);

/** Stance of one evidence item toward one option, or undefined when it says nothing either way. */
export function stanceOf(e: FusedEvidence, key: OptionKey): Stance | undefined {
  const base = SOURCE_WEIGHT[e.source_type] ?? 1;
  const text = boundedStanceText(e);

  if (e.adr) {
    const status = e.adr.status;
    const chosen = adrChoice(e);
    const label = `${recordName(e.adr)} (${recordStatus(e.adr)})`;
    if (chosen && mentions(chosen, key)) {
      if (INACTIVE.has(status)) return { polarity: -1, weight: base * 0.8, why: `${label} chose it, but that decision is ${status}` };
      const factor = status === "accepted" ? 1 : 0.6;
      return { polarity: 1, weight: base * factor, why: `${label} chose it` };
    }
    if (!INACTIVE.has(status) && e.adr.considered_options.some((o) => mentions(o, key)) && chosen) {
      return { polarity: -1, weight: base * 0.8, why: `${label} considered it and chose "${chosen}"` };
    }
    if (INACTIVE.has(status)) {
      // A retired decision's prose is history: only an explicit argument against the option counts.
      const neg = clauses(text).some((c) => clausePolarity(c, key).polarity === -1);
      return neg ? { polarity: -1, weight: base * 0.4, why: `${label} argues against it` } : undefined;
    }
  }

  let pos = 0;
  let neg = 0;
  let plainMention = false;
  for (const clause of clauses(text)) {
    const { polarity } = clausePolarity(clause, key);
    if (polarity === 1) pos++;
    else if (polarity === -1) neg++;
    else if (mentions(clause, key)) plainMention = true;
  }
  const where = e.commit ? `commit ${e.commit.slice(0, 7)} "${e.title ?? ""}"` : e.title ? `"${e.title}"` : e.path_or_url;
  if (e.deprecated) return { polarity: -1, weight: base * 1.5, why: `${where} marks the package deprecated` };
  if (neg > pos) return { polarity: -1, weight: base, why: `${where} argues against it` };
  if (pos > 0) return { polarity: 1, weight: base, why: `${where} favours it` };
  // A bare mention in a rule file or an accepted decision describes what the codebase does today: weak support.
  if (plainMention && (e.source_type === "agent-instructions" || e.source_type === "architecture" || e.adr?.status === "accepted")) {
    return { polarity: 1, weight: base * 0.4, why: `${where} describes it as current practice` };
  }
  return undefined;
}

/** How a reader sees a record: by number and title ('ADR 12 "Use Shoelace"'), or by title when it has no number. */
export function recordName(meta: { title: string; number?: number | undefined }): string {
  return meta.number !== undefined ? `ADR ${meta.number} "${meta.title}"` : `ADR "${meta.title}"`;
}

/** A record's status as a reader sees it: "accepted", "no status line" (never "unknown"). */
export function recordStatus(meta: { status: string; status_display?: string | undefined }): string {
  return meta.status_display ?? (meta.status === "unknown" ? "no status line" : meta.status);
}
