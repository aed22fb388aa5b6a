// The rules Critic: it reads only the evidence and the drafted recommendation and argues against the
// recommendation before anyone picks. Offline, deterministic, a few milliseconds. Each check reports findings of a
// kind (the deciding record is no longer in force, a commit reverted it, the code mostly uses another option the
// record never weighed, grounding.ts's and signals.ts's doubts that the record decides this question, …). policy.ts
// says what blocks: a kind alone (the evidence itself withdraws the decision, or the kind tells wrong answers from
// right ones), or a pair of kinds of two checks raised together, which adds one blocking objection naming both. The
// rest are concerns. A model that went against the in-force record always blocks. Each kind's counts on right and
// wrong answers are printed by eval/critic.ts.
import { UNDECIDABLE, type AdrMeta, type DraftPicker, type FusedEvidence, type CriticEffect, type Level, type Objection } from "../schemas";
import type { CodeUsageReport, OptionUsage } from "../internal/codeUsage";
import { describeUsage } from "../internal/codeUsage";
import { optionTermsFor } from "../synth/codeUsage";
import { takenInsteadOf, toCitation } from "../synth/rules";
import { mentions, recordName, recordStatus } from "../synth/stance";
import { coveredElsewhere } from "./coverage";
import { groundingObjections } from "./grounding";
import { BLOCKING_KINDS, doubted, DOUBTS, type DoubtWeights, type FindingKind } from "./policy";
import { CROWD_MIN, crowdedField, FIRM_SUPPORT, groundingSignals, weakGrounding } from "./signals";

export type CriticCheck =
  | "record-status"
  | "reverted"
  | "later-record"
  | "code-disagrees"
  | "unweighed-constraint"
  | "single-source"
  | "against-record"
  | "stale-version"
  /** The recommendation may not rest on the record that decides this question (critic/grounding.ts). */
  | "outranked"
  | "unweighed-proposal"
  | "off-subject"
  | "decision-mismatch"
  /** The deciding record barely leads the other retrieved documents and shares few words with the question (critic/signals.ts). */
  | "weak-grounding"
  /** Two or more other documents score nearly as high as the deciding record (critic/signals.ts). */
  | "crowded"
  /** Another retrieved record's text has more of the question's words than the deciding record's (critic/coverage.ts). */
  | "covered-elsewhere"
  /** Two findings of other checks whose pair blocks (policy.ts) were both raised: together they block. */
  | "doubts"
  /** Raised by the model Critic (critic/model.ts). */
  | "model";

/** An objection with the check that raised it and what it does to the recommendation. */
export interface RaisedObjection extends Objection {
  check: CriticCheck;
  /** Which of the check's findings it is (policy.ts decides from it whether it blocks); none for the model's. */
  kind?: FindingKind;
  /**
   * Blocking only: "undecidable" when the deciding record no longer decides; "lower" drops the confidence a step;
   * "applied" when that step was already taken where the problem was found (a model's dissent is capped at med).
   */
  effect?: "lower" | "undecidable" | "applied";
}

export interface CriticInput {
  question: string;
  draft: DraftPicker;
  /** The fused evidence and the code-usage lines (ids are what objections cite). */
  evidence: FusedEvidence[];
  /** The code-usage count, and which evidence ids each option's usage lines are. */
  usage?: { report: CodeUsageReport; citedBy: Map<string, string[]> };
  /** The full text of a record by its workspace path, when discovery read it (the evidence holds sections only). */
  recordText?: (path: string) => string | undefined;
}

const MAX_TEXT = 400;
/** The least number of files another option must be used in before the code "mostly" uses it. */
const CODE_MIN_FILES = 3;
/** How many times more files the other option must be used in than the recommended one. */
const CODE_RATIO = 2;

/** What the Critic reads around the recommendation: the option, its deciding record, its evidence. */
interface Focus {
  input: CriticInput;
  byId: Map<string, FusedEvidence>;
  rec: DraftPicker["options"][number];
  /** The record the recommendation follows (an ADR among its supports), when there is one. */
  record?: { meta: AdrMeta; cite: FusedEvidence; text: string };
  terms: Map<string, string[]>;
}

/** What a check found, before policy.ts says whether it blocks. */
export interface Finding {
  check: Exclude<CriticCheck, "against-record" | "model" | "doubts">;
  kind: FindingKind;
  text: string;
  citations: string[];
  /** What it does when it blocks: "undecidable" when the deciding record no longer decides, else "lower". */
  effect?: "undecidable";
}

/** The checks that say, each from its own side, that the recommendation may not rest on the deciding record. */
const GROUNDING_CHECKS = new Set<CriticCheck>(["outranked", "unweighed-proposal", "off-subject", "decision-mismatch", "weak-grounding", "crowded", "covered-elsewhere"]);

/**
 * Every objection the rules Critic raises, blocking ones first, in a stable order. A finding blocks when its kind is
 * in `blocking` (policy.ts's BLOCKING_KINDS unless given); of the grounding checks only the first blocking finding
 * blocks and the rest are concerns, since each says the same thing from another side. When nothing blocks alone, two
 * kinds whose pair is in `blocking` add one blocking objection that names both; their findings stay concerns. When still
 * nothing blocks, the findings together may (policy.ts's odds of doubt, `doubts`; null replays `blocking` alone): then
 * the strongest of them blocks.
 */
export function critique(input: CriticInput, blocking: ReadonlySet<string> = BLOCKING_KINDS, doubts: DoubtWeights | null = DOUBTS): RaisedObjection[] {
  const byId = new Map(input.evidence.map((e) => [e.id, e] as const));
  const out: RaisedObjection[] = [];
  const modelAgainst = againstRecord(input, byId);
  if (modelAgainst) out.push(modelAgainst);
  let groundingBlocked = false;
  const found = findings(input);
  for (const f of found) {
    const grounding = GROUNDING_CHECKS.has(f.check);
    const blocks = blocking.has(f.kind) && !(grounding && groundingBlocked);
    if (blocks && grounding) groundingBlocked = true;
    out.push({ check: f.check, kind: f.kind, severity: blocks ? "blocking" : "concern", ...(blocks ? { effect: f.effect ?? "lower" } : {}), text: f.text, citations: f.citations });
  }
  const together = out.some((o) => o.severity === "blocking") ? undefined : pairObjection(found, blocking);
  if (together) out.push(together);
  // Nothing blocks alone or in a pair, yet the findings together reach the odds of doubt: the strongest one blocks.
  const strongest = out.some((o) => o.severity === "blocking") || !doubts ? undefined : strongestDoubt(found, input.draft.recommendation.confidence, doubts);
  if (strongest) {
    const at = out.findIndex((o) => o.kind === strongest.kind && o.check === strongest.check);
    if (at >= 0) out[at] = { ...out[at], severity: "blocking", effect: "lower" };
  }
  const order = (o: RaisedObjection) => (o.severity === "blocking" ? 0 : 1);
  return out
    .map((o) => ({ ...o, text: capText(o.text), citations: [...new Set(o.citations.filter((id) => byId.has(id)))] }))
    .sort((a, b) => order(a) - order(b));
}

/** What each check says, in a few words, for the objection that joins two of them. */
const CHECK_SAYS: Partial<Record<Finding["check"], string>> = {
  outranked: "another record ranks above the deciding one on this question",
  "weak-grounding": "the deciding record barely leads the other retrieved documents and shares few of the question's words",
  crowded: "several other retrieved documents score nearly as high as the deciding record",
  "covered-elsewhere": "another retrieved record mentions more of what the question describes",
  "off-subject": "the deciding record's title and options barely touch what the question asks",
  "unweighed-proposal": "the deciding record never mentions what the question proposes",
  "unweighed-constraint": "the deciding record never weighs the question's constraint",
  "decision-mismatch": "what the deciding record chose does not read as the recommendation",
  "record-status": "the deciding record is only proposed or a draft",
  "single-source": "nothing else in the evidence confirms it",
};

/** The blocking objection for the first pair in `blocking` (in its order) whose two kinds were both raised. */
function pairObjection(found: Finding[], blocking: ReadonlySet<string>): RaisedObjection | undefined {
  const raised = new Set<string>(found.map((f) => f.kind));
  const pair = [...blocking].map((u) => u.split("+")).find((p) => p.length === 2 && p.every((k) => raised.has(k)));
  if (!pair) return undefined;
  const [fa, fb] = pair.map((k) => found.find((f) => f.kind === k)!);
  return {
    check: "doubts",
    severity: "blocking",
    effect: "lower",
    text: `Two checks doubt this recommendation together: ${CHECK_SAYS[fa.check] ?? fa.check}, and ${CHECK_SAYS[fb.check] ?? fb.check} (see the concerns).`,
    citations: [...fa.citations, ...fb.citations],
  };
}

/**
 * The finding that speaks for the others when together they make the answer likely wrong (policy.ts's odds of doubt
 * reach its bar): the one wrong answers carry most often against right ones. Its text says what to check first.
 */
function strongestDoubt(found: Finding[], confidence: string, doubts: DoubtWeights): Finding | undefined {
  if (!doubted(found.map((f) => f.kind), confidence, doubts)) return undefined;
  return [...found].filter((f) => (doubts.ratio[f.kind] ?? 1) > 1).sort((a, b) => (doubts.ratio[b.kind] ?? 1) - (doubts.ratio[a.kind] ?? 1) || a.kind.localeCompare(b.kind))[0];
}

/** Every finding of the rules checks on a draft that recommends an option, whatever its severity will be. */
export function findings(input: CriticInput): Finding[] {
  const { draft } = input;
  const rec = draft.options.find((o) => o.id === draft.recommendation.option_id);
  if (!rec || draft.recommendation.option_id === UNDECIDABLE) return [];
  const byId = new Map(input.evidence.map((e) => [e.id, e] as const));
  const terms = new Map(optionTermsFor(draft.options).map((t) => [t.id, t.terms.filter((x) => x.length >= 3)] as const));
  const focus: Focus = { input, byId, rec, record: decidingRecord(input, rec, byId), terms };
  return [recordStatusCheck, revertedCheck, codeCheck, groundingCheck, laterRecordCheck, constraintCheck, staleVersionCheck, singleSourceCheck].flatMap((check) => check(focus));
}

function capText(text: string): string {
  const one = text.replace(/\s+/g, " ").trim();
  return one.length > MAX_TEXT ? `${one.slice(0, MAX_TEXT - 1).trimEnd()}…` : one;
}

/** The ADR among the recommended option's supports that the rationale names, else its first ADR support. */
export function decidingRecord(input: CriticInput, rec: Focus["rec"], byId: Map<string, FusedEvidence>): Focus["record"] {
  const adrs = rec.supports.map((id) => byId.get(id)).filter((e): e is FusedEvidence => !!e?.adr);
  const named = adrs.find((e) => input.draft.recommendation.rationale.includes(e.adr!.title)) ?? adrs[0];
  if (!named?.adr) return undefined;
  const meta = named.adr;
  const sections = input.evidence.filter((e) => e.adr?.path === meta.path).map((e) => `${e.title ?? ""}\n${e.excerpt}`);
  const text = input.recordText?.(meta.path) ?? `${meta.title}\n${sections.join("\n")}`;
  return { meta, cite: named, text };
}

// ---------------------------------------------------------------------------------------------------------
// The checks

/** The recommendation may rest on a record that does not decide this question (critic/grounding.ts and signals.ts). */
function groundingCheck(f: Focus): Finding[] {
  const focus = { question: f.input.question, draft: f.input.draft, evidence: f.input.evidence, rec: f.rec, record: f.record, terms: f.terms, ...(f.input.recordText ? { recordText: f.input.recordText } : {}) };
  const weak = weakGrounding(focus);
  const tie: Finding[] = weak ? [{ check: "weak-grounding", kind: weak.names === "choice" ? "weak-grounding/named-choice" : weak.names === "open" ? "weak-grounding/open" : "weak-grounding", text: weak.text, citations: weak.citations }] : [];
  const crowd = crowdedField(focus);
  // Three kinds: a low-confidence draft in a crowd; a surer one in a denser crowd (more than CROWD_MIN near equals);
  // a surer one beside just CROWD_MIN, which tells little.
  const kind: FindingKind | undefined = !crowd ? undefined : crowd.unsure ? "crowded" : crowd.near > CROWD_MIN ? "crowded/confident-packed" : "crowded/confident";
  const pack: Finding[] = crowd && kind ? [{ check: "crowded", kind, text: crowd.text, citations: crowd.citations }] : [];
  const wider = coveredElsewhere(focus);
  const elsewhere: Finding[] = wider ? [{ check: "covered-elsewhere", kind: "covered-elsewhere", text: wider.text, citations: wider.citations }] : [];
  // The plain view's dissent on a record the fused view ties firmly to the question is a second opinion outweighed;
  // a lead over no other retrieved document is a default, not a measure, so that needs a rival.
  const tied = groundingSignals(focus);
  const firm = !!tied?.rival && tied.support > FIRM_SUPPORT;
  const plain = groundingObjections(focus).map((g) => (firm && g.kind === "outranked/plain-view" ? { ...g, kind: "outranked/plain-view-firm" as const } : g));
  return [...plain, ...tie, ...pack, ...elsewhere];
}

/** The deciding record is only proposed or a draft (a concern), or no longer in force (blocking). */
function recordStatusCheck(f: Focus): Finding[] {
  const r = f.record;
  if (!r) return [];
  const name = recordName(r.meta);
  const shown = recordStatus(r.meta);
  // A rejected record that names what was taken instead still decides by that: its refusal is in force.
  const instead = takenInsteadOf(r.meta);
  if (instead && mentions(f.rec.title, { terms: [instead.toLowerCase()] })) return [];
  // Keeping what is in place because the record's own proposal was rejected: the rejection is what decides.
  if (r.meta.status === "rejected" && /^keep\b/i.test(f.rec.title)) return [];
  if (r.meta.status === "deprecated" || r.meta.status === "superseded" || r.meta.status === "rejected") {
    return [{ check: "record-status", kind: "record-status/inactive", effect: "undecidable", text: `${name} is ${shown}: it no longer decides this question.`, citations: [r.cite.id] }];
  }
  if (r.meta.status === "proposed" || /\b(?:draft|proposed|wip|work in progress|under review|in review|pending)\b/i.test(shown)) {
    return [{ check: "record-status", kind: "record-status/draft", text: `${name} is ${shown}, not accepted: the decision may still change.`, citations: [r.cite.id] }];
  }
  return [];
}

const REVERT_SUBJECT = /^\s*revert\b|\brevert(?:s|ed)?\s+["“]/i;
const REMOVE_VERBS = /\b(?:remove[sd]?|removing|drop(?:s|ped)?|rip(?:ped)? out|get rid of|back(?:ed)? out|roll(?:ed)? back|migrate[sd]? away from|move[sd]? away from|replace[sd]?)\s+(?:the\s+|our\s+|all\s+)?(?:use of\s+|usages? of\s+)?/i;

/** A commit reverts what the record decided (blocking), or removes the recommended option (a concern). */
function revertedCheck(f: Focus): Finding[] {
  const terms = f.terms.get(f.rec.id) ?? [];
  const out: Finding[] = [];
  for (const e of f.input.evidence) {
    if (e.source_type !== "commit" || !e.commit) continue;
    const subject = (e.title ?? e.excerpt.split("\n")[0]).slice(0, 300);
    const short = e.commit.slice(0, 7);
    const touchesRecord = !!f.record && (e.touched_paths ?? []).includes(f.record.meta.path);
    const namesChoice = terms.length > 0 && mentions(subject, { terms });
    const namesRecord = !!f.record && subject.toLowerCase().includes(f.record.meta.title.toLowerCase().slice(0, 60));
    if (REVERT_SUBJECT.test(subject) && (namesChoice || namesRecord || touchesRecord)) {
      out.push({ check: "reverted", kind: "reverted/revert", text: `Commit ${short} ("${subject}") reverts what the recommendation rests on.`, citations: [e.id, ...(f.record ? [f.record.cite.id] : [])] });
      continue;
    }
    const removal = REMOVE_VERBS.exec(subject);
    if (removal && terms.length && mentions(subject.slice(removal.index + removal[0].length, removal.index + removal[0].length + 60).split(/\s+(?:with|by|for|in favou?r of)\s+/i)[0], { terms })) {
      out.push({ check: "reverted", kind: "reverted/removal", text: `Commit ${short} ("${subject}") removes or replaces "${f.rec.title}"; check that the decision still stands.`, citations: [e.id] });
    }
  }
  return out.slice(0, 2);
}

/** Whether record a was written after record b: by date, else by number. */
function newerRecord(a: AdrMeta, b: AdrMeta): boolean {
  const da = a.date && /^\d{4}-\d{2}-\d{2}/.test(a.date) ? a.date.slice(0, 10) : undefined;
  const db = b.date && /^\d{4}-\d{2}-\d{2}/.test(b.date) ? b.date.slice(0, 10) : undefined;
  if (da && db) return da > db;
  return a.number !== undefined && b.number !== undefined && a.number > b.number;
}

/** A newer in-force record chose another of the options (a concern: the synthesizer already weighed it). */
function laterRecordCheck(f: Focus): Finding[] {
  const r = f.record;
  if (!r) return [];
  const seen = new Set<string>([r.meta.path]);
  for (const e of f.input.evidence) {
    const meta = e.adr;
    if (!meta || seen.has(meta.path)) continue;
    seen.add(meta.path);
    if (meta.status !== "accepted" && meta.status !== "unknown") continue;
    if (meta.supersedes.includes(r.meta.path) || !newerRecord(meta, r.meta)) continue;
    const choice = meta.chosen_option ?? meta.decided_option?.name;
    if (!choice) continue;
    const other = f.input.draft.options.find((o) => o.id !== f.rec.id && (f.terms.get(o.id) ?? []).length && mentions(choice, { terms: f.terms.get(o.id)! }));
    const recTerms = f.terms.get(f.rec.id) ?? [];
    if (!other || (recTerms.length && mentions(choice, { terms: recTerms }))) continue;
    return [{ check: "later-record", kind: "later-record", text: `${recordName(meta)} (${recordStatus(meta)}) is newer than ${recordName(r.meta)} and chose "${choice}", which is "${other.title}".`, citations: [e.id, r.cite.id] }];
  }
  return [];
}

/**
 * The code mostly uses another option than the one the record chose: blocking, unless the record itself names
 * that option (it decided to move away from it, and the move is not finished: a concern).
 */
function codeCheck(f: Focus): Finding[] {
  const usage = f.input.usage;
  if (!usage || (!f.record && !f.rec.supports.length)) return [];
  const byOption = new Map(usage.report.options.map((u) => [u.id, u] as const));
  const mine = byOption.get(f.rec.id);
  // An option with no name code could carry ("Write it out as JSON") cannot be out-counted by one that has one.
  if (!mine || !mine.terms.length || !codeName(mine.terms[0])) return [];
  const rivals = usage.report.options.filter((u) => u.id !== f.rec.id && u.terms.length && u.files >= CODE_MIN_FILES && u.files > CODE_RATIO * mine.files);
  const rival = rivals.sort((a, b) => b.files - a.files || a.id.localeCompare(b.id))[0];
  if (!rival) return [];
  const decider = f.record ? recordName(f.record.meta) : "The deciding rule";
  const figures = `${usageLine(rival)}; ${usageLine(mine)}`;
  const cites = [...(f.record ? [f.record.cite.id] : f.rec.supports.slice(0, 1)), ...(usage.citedBy.get(rival.id) ?? []), ...(usage.citedBy.get(mine.id) ?? [])];
  const knowsRival = f.record ? mentions(f.record.text, { terms: rival.terms }) : false;
  if (knowsRival) {
    return [{ check: "code-disagrees", kind: "code-disagrees/unfinished-move", text: `${decider} chose "${f.rec.title}" over ${rival.terms[0]}, but the code still mostly uses ${rival.terms[0]} (${figures}): the move is not finished.`, citations: cites }];
  }
  return [{ check: "code-disagrees", kind: "code-disagrees/unweighed-rival", text: `Code disagrees: ${decider} chose "${f.rec.title}", but the code mostly uses ${rival.terms[0]} (${figures}).`, citations: cites }];
}

/** A name code can carry: a package or technology of one or two words ("moment", "date-fns", "react query"). */
function codeName(term: string): boolean {
  return term.split(/[\s-]+/).filter(Boolean).length <= 2;
}

function usageLine(u: OptionUsage): string {
  return describeUsage(u);
}

/** Constraints a question can name, as what to look for in the question and in the record. */
const CONSTRAINTS: { name: string; re: RegExp }[] = [
  { name: "cost", re: /\b(?:cost|costs|costly|cheap|cheaper|expensive|price|pricing|budget|spend|billing)\b/i },
  { name: "scale", re: /\b(?:scale|scaling|scalab\w{0,6}|throughput|traffic|millions?|billions?)\b/i },
  { name: "latency", re: /\b(?:latency|latencies|p9\d|response times?|real-?time)\b/i },
  { name: "compliance", re: /\b(?:gdpr|hipaa|pci(?:-dss)?|sox|soc ?2|fedramp|compliance|compliant|regulat\w{0,8}|data residency)\b/i },
  { name: "privacy", re: /\b(?:privacy|pii|personal data)\b/i },
  { name: "security", re: /\b(?:security|secure|vulnerab\w{0,8}|encrypt\w{0,6}|threat\w{0,2})\b/i },
  { name: "offline use", re: /\b(?:offline|air-?gapped)\b/i },
  { name: "licensing", re: /\b(?:licen[cs]\w{0,4}|copyleft|gpl|agpl)\b/i },
  { name: "availability", re: /\b(?:availability|uptime|failover|disaster recovery|multi-?region|high-?availability)\b/i },
  { name: "memory", re: /\b(?:memory|ram|footprint)\b/i },
  { name: "accessibility", re: /\b(?:accessib\w{0,6}|a11y|wcag)\b/i },
];

/** The question names a constraint the deciding record never mentions (a concern: the record may not have weighed it). */
function constraintCheck(f: Focus): Finding[] {
  const r = f.record;
  if (!r) return [];
  const question = f.input.question.slice(0, 4096);
  const text = r.text.slice(0, 200_000);
  const missing = CONSTRAINTS.filter((c) => c.re.test(question) && !c.re.test(text)).map((c) => c.name);
  if (!missing.length) return [];
  return [{ check: "unweighed-constraint", kind: "unweighed-constraint", text: `The question weighs ${missing.join(" and ")}, which ${recordName(r.meta)} never mentions: it may not have weighed ${missing.length > 1 ? "them" : "it"}.`, citations: [r.cite.id] }];
}

/** Where a piece of evidence comes from, so two sections of one record count as one source. */
function sourceKey(e: FusedEvidence): string {
  return e.adr?.path ?? e.commit ?? (e.source_type === "code" ? "code" : e.path_or_url);
}

/** The recommendation rests on one source only (a concern). */
function singleSourceCheck(f: Focus): Finding[] {
  const items = f.rec.supports.map((id) => f.byId.get(id)).filter((e): e is FusedEvidence => !!e);
  const sources = new Set(items.map(sourceKey));
  if (sources.size !== 1) return [];
  const only = items[0];
  const label = only.adr ? recordName(only.adr) : only.commit ? `commit ${only.commit.slice(0, 7)}` : only.path_or_url;
  return [{ check: "single-source", kind: "single-source", text: `The recommendation rests on a single source (${label}); nothing else in the evidence confirms it.`, citations: [only.id] }];
}

/** A model recommended against the in-force record the rules path follows (blocking: it may have been steered). */
function againstRecord(input: CriticInput, byId: Map<string, FusedEvidence>): RaisedObjection | undefined {
  const d = input.draft.model_dissent;
  if (!d) return undefined;
  const cite = input.evidence.find((e) => e.adr?.path === d.deciding_record.path && /decision|outcome/.test(e.adr.section ?? "")) ?? input.evidence.find((e) => e.adr?.path === d.deciding_record.path);
  const status = d.deciding_record.status ? ` (${d.deciding_record.status})` : "";
  return {
    check: "against-record",
    severity: "blocking",
    effect: "applied",
    text: `The recommendation goes against ${d.deciding_record.title}${status}, which chose "${d.record_chose}"; text in the repository or the model may have steered it.`,
    citations: cite && byId.has(cite.id) ? [cite.id] : [],
  };
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * The deciding record was written about an older major version of a dependency than the one the manifests use
 * today ("React 16" in the record, "react": "^18.2.0" in package.json): a concern.
 */
function staleVersionCheck(f: Focus): Finding[] {
  const r = f.record;
  const usage = f.input.usage;
  if (!r || !usage) return [];
  const text = r.text.slice(0, 200_000);
  for (const u of usage.report.options) {
    for (const line of u.examples.filter((x) => x.kind === "manifest")) {
      for (const term of u.terms) {
        const now = new RegExp(`${escapeRegExp(term)}["']?\\s{0,3}[:=@,]?\\s{0,3}["']?[~^>=<v ]{0,4}(\\d{1,4})\\b`, "i").exec(line.text);
        if (!now) continue;
        const said = [...text.matchAll(new RegExp(`(?<![\\w-])${escapeRegExp(term)}\\s{0,2}v?(\\d{1,4})(?:\\.\\d+){0,2}\\b`, "gi"))].map((m) => Number(m[1]));
        if (!said.length) continue;
        const then = Math.max(...said);
        const current = Number(now[1]);
        if (then < current) {
          const cite = [r.cite.id, ...(usage.citedBy.get(u.id) ?? []).filter((id) => f.byId.get(id)?.path_or_url === line.path)];
          return [{ check: "stale-version", kind: "stale-version", text: `${recordName(r.meta)} was written about ${term} ${then}; ${line.path}:${line.line} uses ${term} ${current} today, so its reasons may be out of date.`, citations: cite }];
        }
      }
    }
  }
  return [];
}

// ---------------------------------------------------------------------------------------------------------
// What objections do to the draft

function lower(level: Level): Level {
  return level === "high" ? "med" : "low";
}

/**
 * The draft with its objections, the evidence they cite among its citations, and the recommendation adjusted: a
 * blocking objection whose record no longer decides turns it undecidable with the objection as the reason; any
 * other blocking objection lowers the confidence a step and says why (unless that step was already taken).
 */
export function applyObjections(draft: DraftPicker, raised: RaisedObjection[], evidence: FusedEvidence[]): DraftPicker {
  const objections: Objection[] = raised.map((o) => ({ severity: o.severity, text: o.text, citations: o.citations }));
  const citations = [...draft.citations];
  const cited = new Set(citations.map((c) => c.id));
  const byId = new Map(evidence.map((e) => [e.id, e] as const));
  for (const id of objections.flatMap((o) => o.citations)) {
    const e = byId.get(id);
    if (e && !cited.has(id)) {
      cited.add(id);
      citations.push(toCitation(e));
    }
  }
  const blocking = raised.filter((o) => o.severity === "blocking" && o.effect !== "applied");
  let recommendation = draft.recommendation;
  let effect: CriticEffect | undefined;
  const drafted = { draft_option_id: draft.recommendation.option_id, draft_confidence: draft.recommendation.confidence };
  const undecide = blocking.find((o) => o.effect === "undecidable");
  if (undecide && recommendation.option_id !== UNDECIDABLE) {
    recommendation = { option_id: UNDECIDABLE, confidence: "low", rationale: `Undecidable on current evidence: ${undecide.text} (The draft recommended "${draft.options.find((o) => o.id === draft.recommendation.option_id)?.title ?? draft.recommendation.option_id}".)` };
    effect = { action: "withdrawn", ...drafted };
  } else if (blocking.length && recommendation.option_id !== UNDECIDABLE) {
    const before = recommendation.confidence;
    recommendation = {
      ...recommendation,
      confidence: lower(before),
      rationale: `${recommendation.rationale} The Critic objects: ${blocking[0].text}${before !== "low" ? ` Confidence lowered from ${before}.` : ""}`,
    };
    if (before !== "low") effect = { action: "lowered", ...drafted };
  }
  return { ...draft, citations, recommendation, objections, ...(effect ? { critic_effect: effect } : {}) };
}
