// The deterministic rules synthesizer: a pure function of (evidence, config version, class). It finds candidate
// options (from the question, from ADRs' considered and chosen options), reads every evidence item's stance toward
// each option, weighs supports against dissent, and recommends the best-supported option — or says the evidence
// is symmetrical. Same inputs, byte-identical payload.
import { contentWords } from "../terms";
import { stem } from "../internal/sectionIndex";
import {
  UNDECIDABLE,
  type Citation,
  type DraftPicker,
  type FusedEvidence,
  type Level,
  type Option,
} from "../schemas";
import type { SynthesisInput, SynthesisOutput, Synthesizer } from "../types";
import { adrChoice, mentions, stanceOf, type OptionKey, type Stance } from "./stance";

const MAX_OPTIONS = 5;
/** Net-weight margin the leader needs over the runner-up before we recommend it. */
const DECISION_MARGIN = 1.0;

type Origin = "question" | "adr" | "incumbent" | "keep" | "defer";

interface Candidate {
  title: string;
  key: OptionKey;
  origin: Origin;
  /** Where the option came from, for its summary. */
  note: string;
}

interface Scored extends Candidate {
  id: string;
  supports: { e: FusedEvidence; s: Stance }[];
  dissent: { e: FusedEvidence; s: Stance }[];
  net: number;
}

/** Words that name no option on their own ("use", "the", "for cart state"). */
const FILLER = /^(?:should|we|us|our|the|a|an|use|using|adopt|choose|pick|go|with|keep|to|for|in|on|of|it|be|is|are|or|and|between|vs|versus|better|prefer|stick|stay|switch|migrate|move)$/i;
const PHRASE_END = /^(?:for|in|on|to|as|with|when|where|because|so|since|given|at|by|from|into|per|than|that|which|if|\?|,|\.)$/i;

/** Aliases that name the same technology; an option's key includes its group. */
const ALIASES: string[][] = [
  ["postgresql", "postgres", "pg"],
  ["mongodb", "mongo"],
  ["javascript", "js"],
  ["typescript", "ts"],
  ["kubernetes", "k8s"],
  ["redux", "redux toolkit", "rtk"],
  ["console.log", "console"],
];

function tokens(text: string): string[] {
  return text
    .replace(/[“”"'`]/g, " ")
    .split(/\s+/)
    .map((t) => t.replace(/^[([{]+|[)\]}.,;:!?]+$/g, ""))
    .filter(Boolean);
}

/**
 * The terms that name an option in text. A one-word label is its own term (plus aliases). A multi-word label
 * ("webview UI toolkit", "Redux Toolkit") matches as a phrase (spaced, hyphenated or joined); a single word of it
 * counts only when it looks like a product name (capitalised, or with a dot, digit or @) — otherwise "webview"
 * alone would match every document that mentions a webview.
 */
export function keyFor(label: string): OptionKey {
  const clean = label.replace(/^(?:the|a|an)\s+/i, "").trim();
  const words = clean.split(/\s+/).filter((w) => !FILLER.test(w));
  const terms = new Set<string>();
  const phrase = words.join(" ").toLowerCase();
  if (phrase) terms.add(phrase);
  if (words.length > 1) {
    terms.add(words.join("-").toLowerCase());
    terms.add(words.join("").toLowerCase());
    const head = words[0];
    if (head.length > 2 && (/^[A-Z][a-z]/.test(head) || /[.@\d]/.test(head))) terms.add(head.toLowerCase());
  }
  for (const group of ALIASES) if (group.some((g) => terms.has(g))) group.forEach((g) => terms.add(g));
  return { terms: [...terms] };
}

function capitalise(s: string): string {
  return s.length ? s[0].toUpperCase() + s.slice(1) : s;
}

/** "Redux or Zustand", "MongoDB vs PostgreSQL", "between polling and websockets", "A, B or C", "adopt X". */
export function optionsFromQuestion(question: string): string[] {
  const q = question
    .replace(/^\s*(?:todo\(decide\)|decide|open question|question)\s*:\s*/i, "")
    // "X instead of Y", "X rather than Y", "prefer X over Y" name two options just like "X or Y".
    .replace(/\s+(?:instead of|rather than)\s+/gi, " or ")
    .replace(/\b(prefer\b.*?)\s+over\s+/i, "$1 or ");
  const raw = q.split(/\s+/).filter(Boolean);
  const words = tokens(q);
  const lower = words.map((w) => w.toLowerCase());
  const endsList = (j: number) => j >= 0 && /,$/.test(raw[j] ?? "");
  // The phrase that ends just before index i: up to 3 words, stopping at fillers, prepositions and list commas.
  const phraseBefore = (i: number): { text: string; start: number } => {
    let start = i;
    for (let j = i - 1; j >= 0 && i - j <= 3; j--) {
      if (PHRASE_END.test(lower[j]) || FILLER.test(lower[j])) break;
      if (j < i - 1 && endsList(j)) break;
      start = j;
    }
    return { text: words.slice(start, i).join(" "), start };
  };
  const phraseAfter = (i: number): string => {
    const out: string[] = [];
    for (let j = i + 1; j < words.length && out.length < 3; j++) {
      // Leading prepositions and fillers ("or in the user config dir") are skipped, later ones end the phrase.
      if (out.length === 0 && (PHRASE_END.test(lower[j]) || FILLER.test(lower[j])) && !/[,?.!]$/.test(raw[j])) continue;
      if (PHRASE_END.test(lower[j]) || FILLER.test(lower[j])) break;
      out.push(words[j]);
      if (/[,?.!]$/.test(raw[j])) break;
    }
    return out.join(" ");
  };
  const between = lower.indexOf("between");
  const connector = lower.findIndex((w, i) => i > 0 && (w === "or" || w === "vs" || w === "versus" || (w === "and" && between >= 0 && i > between)));
  const found: string[] = [];
  const add = (item: string) => {
    const clean = item.replace(/^(?:the|a|an)\s+/i, "").trim();
    if (clean && /[a-z0-9]/i.test(clean) && !FILLER.test(clean) && !found.some((f) => f.toLowerCase() === clean.toLowerCase())) found.push(clean);
  };
  if (connector > 0) {
    let left: { text: string; start: number };
    if (between >= 0 && between < connector) left = { text: words.slice(between + 1, connector).join(" "), start: between + 1 };
    else left = phraseBefore(connector);
    // "A, B or C": walk back over comma-separated items.
    const items = [left.text];
    while (endsList(left.start - 1)) {
      left = phraseBefore(left.start);
      if (!left.text) break;
      items.unshift(left.text);
    }
    items.forEach(add);
    add(phraseAfter(connector));
    return found;
  }
  const adopt = /\b(?:adopt|use|introduce|add|switch to|move to|migrate to|try|replace \S+ with)\s+(.+?)(?:\s+(?:for|in|on|as|to|instead|across|with)\b.*)?[?.!]?$/i.exec(q);
  if (adopt) {
    const target = adopt[1].replace(/^(?:the|a|an)\s+/i, "").trim();
    if (target && contentWords(target).length > 0 && target.split(/\s+/).length <= 4) return [target];
  }
  return [];
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

/** The question's topic words (minus the option names) decide which ADRs are about this question. */
function topicOverlap(e: FusedEvidence, topic: string[]): number {
  const words = new Set(contentWords(`${e.adr?.title ?? ""} ${e.title ?? ""} ${e.excerpt}`));
  return topic.filter((t) => words.has(t)).length;
}

/** An ADR is on topic when it shares at least half of the question's topic words. */
function onTopic(e: FusedEvidence, topic: string[]): boolean {
  return topic.length > 0 && topicOverlap(e, topic) >= Math.ceil(topic.length / 2);
}

/** Weight of evidence about another scope (another service, another team) than the question's. */
const OUT_OF_SCOPE_WEIGHT = 0.2;
/** The most that all out-of-scope evidence together adds to one side of an option's balance. */
const OUT_OF_SCOPE_CAP = 1.5;
/** Verbs and generic nouns that say what is done, not where: never a scope, however rare in the evidence. */
const NOT_A_SCOPE = new Set(
  ("store stor keep handle manage run send save load write read call process serve implement support work add create live put place stay " +
    "data code file system app application layer tool framework library service servic solution setup team").split(" "),
);
/** Below this many evidence items, distinctiveness cannot be judged and every item counts as in scope. */
const MIN_EVIDENCE_FOR_SCOPE = 6;

function stemmedWords(text: string): Set<string> {
  return new Set(contentWords(text).map(stem));
}

function evidenceWords(e: FusedEvidence): Set<string> {
  return stemmedWords(`${e.path_or_url.replace(/[/_.-]+/g, " ")} ${e.adr?.title ?? ""} ${e.title ?? ""} ${e.excerpt}`);
}

/**
 * The question's scope: its topic words (not the option names) that only a minority of the evidence mentions,
 * e.g. "audit" in "REST or GraphQL for the public API in the audit service?". Evidence that names none of them is
 * about some other scope — another service's decision is an analogy, not a precedent — and weighs less.
 */
export function questionScope(question: string, evidence: FusedEvidence[]): { words: string[]; inScope: (e: FusedEvidence) => boolean } {
  const all = { words: [] as string[], inScope: () => true };
  if (evidence.length < MIN_EVIDENCE_FOR_SCOPE) return all;
  const optionTerms = new Set(optionsFromQuestion(question).flatMap((n) => keyFor(n).terms.flatMap((t) => t.split(/\s+/))).map(stem));
  const topic = [...stemmedWords(question)].filter((w) => !optionTerms.has(w) && !NOT_A_SCOPE.has(w));
  const words = evidence.map(evidenceWords);
  const df = (w: string) => words.filter((set) => set.has(w)).length;
  const scope = topic.filter((w) => {
    const n = df(w);
    return n > 0 && n <= evidence.length / 2;
  });
  if (!scope.length) return all;
  const byId = new Map(evidence.map((e, i) => [e.id, words[i]]));
  return {
    words: scope,
    // Rules at the repository root (AGENTS.md, ARCHITECTURE.md, …) govern every scope.
    inScope: (e) => isRootConvention(e) || scope.some((w) => (byId.get(e.id) ?? evidenceWords(e)).has(w)),
  };
}

function isRootConvention(e: FusedEvidence): boolean {
  return e.kind === "internal" && !e.path_or_url.includes("/") && e.source_type !== "adr" && e.source_type !== "commit";
}

function collectCandidates(question: string, evidence: FusedEvidence[], inScope: (e: FusedEvidence) => boolean): Candidate[] {
  const candidates: Candidate[] = [];
  const add = (c: Candidate) => {
    if (!candidates.some((x) => sameOption(x.key, c.key))) candidates.push(c);
  };
  const named = optionsFromQuestion(question);
  const adoptOnly = named.length === 1;
  for (const label of named) {
    add({ title: adoptOnly ? `Adopt ${label}` : label, key: keyFor(label), origin: "question", note: "named in the question" });
  }
  const namedTerms = new Set(named.flatMap((n) => keyFor(n).terms));
  const topic = contentWords(question).filter((w) => !namedTerms.has(w));

  // ADRs on the question's topic contribute what they chose (the incumbent) and what they considered.
  // With two or more named options only ADRs about those options count (same decision, not the same topic words).
  const aboutNamed = (e: FusedEvidence) =>
    named.some((n) => mentions(`${e.adr!.title} ${e.adr!.considered_options.join(" ")} ${e.adr!.chosen_option ?? ""} ${e.excerpt}`, keyFor(n)));
  const adrs = evidence.filter((e) => e.adr && inScope(e) && (named.length >= 2 ? aboutNamed(e) : onTopic(e, topic) || aboutNamed(e)));
  const seenAdr = new Set<string>();
  for (const e of adrs) {
    if (seenAdr.has(e.adr!.path)) continue;
    seenAdr.add(e.adr!.path);
    const choice = adrChoice(e);
    const active = !["superseded", "deprecated", "rejected"].includes(e.adr!.status);
    if (choice && active) {
      const isNamed = named.some((n) => sameOption(keyFor(n), keyFor(choice)));
      if (!isNamed) {
        add({
          title: named.length ? `Keep ${choice}` : choice,
          key: keyFor(choice),
          origin: named.length ? "incumbent" : "adr",
          note: `what ADR "${e.adr!.title}" chose`,
        });
      }
    }
    if (!named.length || !adoptOnly) continue;
    for (const o of e.adr!.considered_options) add({ title: o, key: keyFor(o), origin: "adr", note: `considered in ADR "${e.adr!.title}"` });
  }
  if (!named.length) {
    for (const e of adrs) for (const o of e.adr!.considered_options) add({ title: o, key: keyFor(o), origin: "adr", note: `considered in ADR "${e.adr!.title}"` });
  }
  if (adoptOnly && !candidates.some((c) => c.origin === "incumbent")) {
    add({ title: "Keep the current approach", key: { terms: [] }, origin: "keep", note: "no change" });
  }
  if (candidates.length < 2) add({ title: "Defer the decision and gather more evidence", key: { terms: [] }, origin: "defer", note: "no commitment yet" });
  if (candidates.length < 2) add({ title: "Keep the current approach", key: { terms: [] }, origin: "keep", note: "no change" });
  return candidates.slice(0, MAX_OPTIONS);
}

/** Per option and per source (ADR file, rule line, commit), only the strongest stance counts and is cited. */
function scoreCandidate(c: Candidate, evidence: FusedEvidence[], inScope: (e: FusedEvidence) => boolean): Omit<Scored, "id"> {
  const best = new Map<string, { e: FusedEvidence; s: Stance }>();
  if (c.key.terms.length) {
    for (const e of evidence) {
      const read = stanceOf(e, c.key);
      if (!read) continue;
      const s = inScope(e) ? read : { ...read, weight: round2(read.weight * OUT_OF_SCOPE_WEIGHT), why: `${read.why} (elsewhere in the codebase)` };
      const source = `${e.adr?.path ?? e.commit ?? `${e.path_or_url}:${e.line_range?.start ?? ""}`}|${s.polarity}`;
      const prev = best.get(source);
      if (!prev || s.weight > prev.s.weight || (s.weight === prev.s.weight && e.rank < prev.e.rank)) best.set(source, { e, s });
    }
  }
  const all = [...best.values()].sort((a, b) => b.s.weight - a.s.weight || a.e.rank - b.e.rank);
  const supports = all.filter((x) => x.s.polarity === 1);
  const dissent = all.filter((x) => x.s.polarity === -1);
  // Analogies from elsewhere in the codebase add, together, at most a bounded nudge on each side: ten other
  // services choosing X must not outvote this scope's own decision.
  const weigh = (list: typeof all) =>
    list.filter((x) => inScope(x.e)).reduce((n, x) => n + x.s.weight, 0) +
    Math.min(OUT_OF_SCOPE_CAP, list.filter((x) => !inScope(x.e)).reduce((n, x) => n + x.s.weight, 0));
  const net = round2(weigh(supports) - weigh(dissent));
  return { ...c, supports, dissent, net };
}

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}

/** Good/Bad lines of an ADR's "Pros and Cons" for this option, plus consequences that name it. */
function tradeoffsFor(o: Scored, evidence: FusedEvidence[], incumbent: Scored | undefined, all: Scored[]): string[] {
  const out: string[] = [];
  const push = (t: string) => {
    const clean = t.replace(/\s+/g, " ").trim();
    if (clean && !out.includes(clean) && out.length < 5) out.push(clean);
  };
  if (o.key.terms.length) {
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
  const current = incumbent ?? all.find((x) => x !== o && isCurrent(x) && x.origin !== "keep");
  if (o.origin === "question" && current && current !== o && !isCurrent(o)) {
    push(`− Means migrating away from ${current.title.replace(/^Keep /, "")}, which the codebase uses today.`);
  }
  if (o.origin === "incumbent" || o.origin === "keep") push("+ No migration: the codebase already works this way.");
  if (o.origin === "defer") push("− Leaves the question open; work that depends on it stays blocked.");
  for (const d of o.dissent.slice(0, 2)) push(`− ${capitalise(d.s.why)}.`);
  for (const s of o.supports.slice(0, 1)) push(`+ ${capitalise(s.s.why)}.`);
  return out;
}

/** What the codebase does today: the incumbent, or an option an active ADR chose. */
function isCurrent(o: Scored): boolean {
  return o.origin === "incumbent" || o.origin === "keep" || o.supports.some((x) => x.e.adr && x.s.why.endsWith("chose it"));
}

function levelCost(o: Scored, all: Scored[]): Level {
  if (o.origin === "defer" || isCurrent(o)) return "low";
  // Moving off something the codebase is built on is expensive; a green-field choice is not.
  const current = all.find((x) => x !== o && isCurrent(x) && x.origin !== "keep");
  if (current && current.supports.length >= 2) return "high";
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

function raise(level: Level): Level {
  return level === "low" ? "med" : "high";
}

export function synthesizeWithRules(input: Omit<SynthesisInput, "signal">): SynthesisOutput {
  const { question, evidence, stages } = input;
  const scope = questionScope(question, evidence);
  const candidates = collectCandidates(question, evidence, scope.inScope);
  const taken = new Set<string>();
  const scored: Scored[] = candidates.map((c) => ({ ...scoreCandidate(c, evidence, scope.inScope), id: slugId(c.title, taken) }));
  const incumbent = scored.find((o) => o.origin === "incumbent");

  const ranked = [...scored].sort((a, b) => b.net - a.net || b.supports.length - a.supports.length || a.title.localeCompare(b.title));
  const [top, second] = ranked;
  const margin = round2(top.net - (second?.net ?? 0));
  const decidable = top.net > 0 && top.supports.length > 0 && margin >= DECISION_MARGIN;

  const citedIds = new Set(scored.flatMap((o) => [...o.supports, ...o.dissent].map((x) => x.e.id)));
  const citations: Citation[] = evidence.filter((e) => citedIds.has(e.id)).map(toCitation);

  const internalEmpty = stages.internal.status !== "ok";
  const externalEmpty = stages.external.status !== "ok";
  const sentences: string[] = [];
  let confidence: Level;
  let optionId: string;
  if (decidable) {
    optionId = top.id;
    const kinds = new Set(top.supports.map((x) => x.e.kind));
    const distinctSources = top.supports.length;
    confidence = margin >= 4 && distinctSources >= 2 ? "high" : "med";
    if (kinds.size === 2) confidence = raise(confidence);
    sentences.push(
      `${top.title} is the best-supported option (net weight ${top.net} against ${second ? `${second.net} for ${second.title}` : "no alternative"}): ${top.supports
        .slice(0, 2)
        .map((x) => x.s.why)
        .join("; ")}.`,
    );
    if (second?.dissent.length) sentences.push(`Against ${second.title}: ${second.dissent[0].s.why}.`);
    if (kinds.size === 2) sentences.push("Internal conventions and external sources agree.");
  } else {
    optionId = UNDECIDABLE;
    confidence = "low";
    sentences.push(
      top.supports.length === 0 && top.dissent.length === 0
        ? "The evidence found does not take a side between these options, so they are offered with equal weight."
        : `The evidence is too even to separate the options (margin ${margin} between ${top.title} and ${second?.title ?? "the rest"}); they are offered with equal weight.`,
    );
  }
  if (scope.words.length) {
    sentences.push(
      `Evidence that does not mention ${scope.words.map((w) => `"${w}"`).join(" or ")} is about another part of the codebase and counts at ${OUT_OF_SCOPE_WEIGHT}× weight (at most ${OUT_OF_SCOPE_CAP} per side).`,
    );
  }
  if (internalEmpty) {
    confidence = "low";
    sentences.push(`No internal convention was found (${stages.internal.reason ?? "internal stage empty"}), so confidence is capped at low.`);
  }
  if (externalEmpty) sentences.push("No external best practice was found; this is stack-native reasoning from the repository's own evidence.");

  const options: Option[] = scored.map((o) => ({
    id: o.id,
    title: o.title,
    summary: summaryOf(o),
    supports: o.supports.map((x) => x.e.id),
    dissent: o.dissent.map((x) => x.e.id),
    tradeoffs: tradeoffsFor(o, evidence, incumbent, scored),
    cost: levelCost(o, scored),
    risk: levelRisk(o),
  }));

  const draft: DraftPicker = {
    question,
    class: "open-question",
    options,
    recommendation: { option_id: optionId, rationale: sentences.join(" "), confidence },
    citations,
    coverage: {
      internal: evidence.filter((e) => e.kind === "internal").length,
      external: evidence.filter((e) => e.kind === "external").length,
      top_score: round2(Math.max(0, ...evidence.map((e) => e.score))),
    },
  };
  return { draft, info: { mode: "rules", ...(decidable ? {} : { symmetric: true }) } };
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
