// The "docs" expert: BM25 over the sections of the discovered artifacts (ADRs, agent instructions, architecture
// docs, contribution guides, canonical files), with priors that encode how much each kind of text should weigh in
// a decision, and a hard supersession rule so an outdated ADR can never outrank the ADR that replaced it.
import { resolve } from "node:path";
import { evidenceId, sha256 } from "../hash";
import { INACTIVE_ADR_STATUSES } from "../constants";
import { cmp } from "../text";
import type { AdrMeta, AdrStatus, EvidenceItem, LineRange, PrecisionClass, SourceType } from "../schemas";
import { decisionModelOf, type DecisionRecord } from "../decisions";
import { headingKey } from "../decisions/words";
import type { ArtifactFile, Expert, ExpertContext, ExpertResult } from "../types";
import { RECORD_PREFIX, TITLE_REF, datedFileName, parseAdr, slug, statusFromFolder, type ParsedAdr } from "./adr";
import { withIndexStatus } from "./indexStatus";
import { parseMarkdown, stripInline } from "./markdown";
import { combineRankings, ensureSectionIndex, rankTextSections, type RankedSection, type RankOptions, type TextSection } from "./sectionIndex";
import { loadDocsCorpus, saveDocsCorpus } from "./corpus/docs";
import type { CorpusCacheOptions } from "./corpus/store";
import { RecordBm25 } from "./recordBm25";
import { corpusStats, docStats, feedbackTerms, phraseScores, questionBigrams, tokenize, type CorpusStats } from "./docStats";
import { readQuestion, type Alternative } from "../synth/question";
import { DOC_EXTENSION, withoutDocExtension } from "./lightMarkup";

export const DOCS_MAX_ITEMS = 36;
/** Sections cited per document: its best section, its decision, one more. */
export const DOCS_MAX_ITEMS_PER_FILE = 3;
/** Distinct documents returned. */
export const DOCS_MAX_DOCS = 16;
/** How much a document's best matching sections add to its whole-document score. */
const SECTION_SUM_WEIGHT = 0.5;
const SECTIONS_SUMMED = 3;
/** Characters of one document that are indexed (the head of a long file says what it is about). */
const INDEXED_CHARS = 50_000;
const DOC_TITLE_BOOST = 3;
/** Weight of a matched two-word phrase's IDF, added to the document's BM25. */
const PHRASE_WEIGHT = 15;
/** Pseudo-relevance feedback: terms taken from the top documents, and their weight relative to the question's. */
const FEEDBACK_DOCS = 3;
const FEEDBACK_TERMS = 8;
const FEEDBACK_WEIGHT = 0.4;
/**
 * Coordination: the score is multiplied by (floor + share of the question's IDF mass the document covers)^power, so
 * a document naming most of the question's rare words beats a longer one that repeats a few of them.
 */
const COVERAGE_FLOOR = 0.2;
const COVERAGE_POWER = 2;
const EXCERPT_CHARS = 600;

const SOURCE_PRIOR: Record<SourceType, number> = {
  adr: 1.6,
  "agent-instructions": 1.5,
  architecture: 1.2,
  contributing: 1.0,
  "canonical-file": 0.8,
  commit: 1,
  "dependency-doc": 1,
  web: 1,
  code: 0.8,
};

// What a section says about the decision: the decision itself beats the background that led to it.
const ADR_SECTION_PRIOR: Record<string, number> = {
  decision: 1.3,
  "decision-outcome": 1.3,
  consequences: 1.0,
  "positive-consequences": 0.95,
  "negative-consequences": 0.95,
  "considered-options": 0.9,
  "decision-drivers": 0.85,
  context: 0.8,
  status: 0.5,
};
const ADR_OPTION_SECTION_PRIOR = 1.0;
const ADR_OTHER_SECTION_PRIOR = 0.9;

/**
 * A section's prior by its name. The name is the record's own heading, lower-cased, so it is looked up as an own key
 * only: a design section headed "Constructor" must not read the object's prototype (that made the section's score
 * NaN, and the NaN dropped the whole record from the ranking).
 */
function sectionPrior(name: string): number {
  if (Object.hasOwn(ADR_SECTION_PRIOR, name)) return ADR_SECTION_PRIOR[name];
  return name.startsWith("pros-and-cons: ") ? ADR_OPTION_SECTION_PRIOR : ADR_OTHER_SECTION_PRIOR;
}

/**
 * How much a record's status weighs in ranking. Superseded and deprecated records were replaced: their successors
 * decide. A rejected record still decides its own question (the answer to "should we adopt X?" is often the record
 * that turned X down), so it weighs like a proposal, not like a replaced record.
 */
const STATUS_PRIOR: Record<AdrStatus, number> = {
  accepted: 1,
  unknown: 0.9,
  proposed: 0.8,
  superseded: 0.4,
  deprecated: 0.4,
  rejected: 0.8,
};

/**
 * What ranking and evidence need of a parsed ADR once its units and the supersession graph are built: everything
 * but the parsed markdown, which would otherwise keep a second copy of every ADR's lines alive.
 */
type AdrFacts = Omit<ParsedAdr, "doc" | "sections" | "option_sections" | "section_names" | "warnings"> & { decision?: DecisionFacts };

/** What synthesis needs of a record's decision model (src/core/decisions/); plain data, so the corpus snapshot keeps it. */
interface DecisionFacts {
  subject: string;
  status: AdrStatus;
  status_display: string;
  /** `option`: the considered option the decision names, when its own words are not that option's. */
  chosen?: { name: string; range: LineRange; option?: string; from_prose?: true };
  rejected: { name: string; reason?: string; range: LineRange }[];
}

/** A record's rejected options carried into evidence: enough for every option a question can offer. */
const MAX_REJECTED_IN_META = 10;

/** The considered option a decision names in words of its own ("either be X or Y" naming option X), if any. */
function namedOption(model: DecisionRecord): { option?: string } {
  const chosen = model.chosen;
  const at = chosen?.considered_index;
  // Options chosen together name none of them alone, unless the chosen-option line lists them in order of precedence
  // ("Chosen option: a prioritised set of engines." then "1. X (primary)", "2. Y (fallback)"): then the first leads.
  const single = !chosen?.combined_with?.length || chosen.how === "chosen-option-line";
  const option = at !== undefined && single ? model.considered[at]?.name : undefined;
  return option && option !== chosen?.name ? { option } : {};
}

/** The choice is a clause of the proposal's prose that the model itself listed as an option: the record lists none by that name. */
function readFromProse(model: DecisionRecord): boolean {
  const at = model.chosen?.considered_index;
  return at !== undefined && model.considered[at]?.source === "proposal";
}

function adrFacts(adr: ParsedAdr): AdrFacts {
  const { doc: _doc, sections: _sections, option_sections: _options, section_names: _names, warnings: _warnings, ...facts } = adr;
  // The decision model reads the full parse (its lines and sections), so it is built here, before they are dropped.
  const model = decisionModelOf(adr);
  const decision: DecisionFacts = {
    subject: model.subject,
    status: model.status,
    status_display: model.status_display,
    ...(model.chosen ? { chosen: { name: model.chosen.name, range: model.chosen.range, ...namedOption(model), ...(readFromProse(model) ? { from_prose: true as const } : {}) } } : {}),
    rejected: model.rejected.slice(0, MAX_REJECTED_IN_META).map((r) => ({ name: r.name, ...(r.reason ? { reason: r.reason } : {}), range: r.range })),
  };
  // The decision model is the one reading of what a record weighed and chose: its considered options, and a choice
  // stated on a "Chosen option" line as the model names it (the line's text up to its first comma is often only
  // the start of a sentence: "After careful consideration of both options, we …").
  // A line whose choice is made of the options listed under it ("Chosen option: a prioritised set …" then "1. X",
  // "2. Y") chose its leading option by name.
  const leading = model.chosen?.combined_with?.length ? namedOption(model).option : undefined;
  const listed = model.chosen?.how === "chosen-option-line" ? (leading ?? model.chosen.name) : undefined;
  const { chosen_option: _legacy, ...rest } = facts;
  return {
    ...rest,
    considered_options: model.considered.length ? model.considered.map((o) => o.name) : facts.considered_options,
    ...(listed ? { chosen_option: listed } : {}),
    decision,
  };
}

/** One citable passage: a real, 1-based inclusive line range of one artifact. */
interface Unit extends TextSection {
  file: ArtifactFile;
  start: number;
  end: number;
  precision: PrecisionClass;
  label: string;
  prior: number;
  adr?: AdrFacts;
  /** ADR section name ("decision", "pros-and-cons: Zustand", …). */
  adrSection?: string;
}

interface Scored {
  unit: Unit;
  score: number;
}

/** `cache`: where the prepared corpus may be kept between processes (internal/corpus/); memory only without it. */
export function createDocsExpert(opts: { cache?: CorpusCacheOptions } = {}): Expert {
  return {
    name: "docs",
    kind: "internal",
    run: async (ctx) => runDocsExpert({ ...ctx, cache: opts.cache }),
  };
}

type DocsContext = Pick<ExpertContext, "plan" | "config" | "artifacts" | "signal"> & Partial<Pick<ExpertContext, "log" | "question" | "repo">> & { cache?: CorpusCacheOptions };

export async function runDocsExpert(ctx: DocsContext): Promise<ExpertResult> {
  const { artifacts, plan, config } = ctx;
  if (artifacts.files.length === 0) {
    const globs = [...config.adrGlobs, ...config.conventionGlobs];
    const shown = globs.slice(0, 6).join(", ") + (globs.length > 6 ? `, … (${globs.length} globs)` : "");
    return { status: "empty", reason: `no ADRs, architecture docs or agent instructions found (globs: ${shown})`, items: [] };
  }
  const terms = plan.terms.filter((t) => t.trim());
  const expansions = plan.expansions.filter((t) => t.trim());
  if (terms.length === 0 && expansions.length === 0) return { status: "empty", reason: "the query plan has no terms", items: [] };

  const p = await prepare(artifacts, ctx);
  const { graph } = p;
  const ranked = rankDocuments(p, terms, expansions, ctx.question);
  // Stored once both of its indexes exist (ranking builds them), so the next process loads them too.
  await persist(p, ctx);
  if (ranked.length === 0) {
    return { status: "empty", reason: `no artifact matched the terms: ${[...terms, ...expansions].join(", ")}`, items: [] };
  }

  // The list is document-first: each document's best section carries the document's score, then (for ADRs) its
  // decision and its next matched section right behind it, so the top k lists k distinct documents while the
  // synthesizer still sees what each ADR decided.
  const kept: Scored[] = [];
  for (const doc of ranked.slice(0, DOCS_MAX_DOCS)) {
    const extras: Unit[] = [];
    if (doc.decision && doc.decision !== doc.best) extras.push(doc.decision);
    const next = doc.sections.find((u) => u !== doc.best && u !== doc.decision);
    if (next) extras.push(next);
    kept.push({ unit: doc.best, score: doc.score });
    for (const u of extras.slice(0, DOCS_MAX_ITEMS_PER_FILE - 1)) kept.push({ unit: u, score: doc.score });
    if (kept.length >= DOCS_MAX_ITEMS) break;
  }
  // Non-increasing scores in list order (ties keep this order through fusion's stable sort).
  for (const s of kept) s.score = Math.round(s.score * 1e6) / 1e6;
  for (let i = 1; i < kept.length; i++) kept[i].score = Math.min(kept[i].score, kept[i - 1].score);

  const items = kept.map((s) => toEvidence(s, graph)).filter((i): i is EvidenceItem => i !== undefined);
  if (!items.length) return { status: "empty", reason: "no matched section had a citable line range", items: [] };
  if (ctx.question) {
    const places = plainRanks(p, ctx.question, new Set(items.filter((i) => i.adr).map((i) => i.path_or_url)));
    for (const item of items) {
      const place = item.adr ? places.get(item.path_or_url) : undefined;
      if (place) item.plain_rank = place;
    }
  }
  return { status: "ok", items, ...(graph.cycles?.length ? { reason: graph.cycles.slice(0, 2).join("; ") } : {}) };
}

interface Prepared {
  /** The artifact set's content key. */
  key: string;
  /** Where it came from: prepared here (and not yet stored), or loaded / already stored. */
  unsaved: boolean;
  units: Unit[];
  graph: SupersessionGraph;
  unitsByPath: Map<string, Unit[]>;
  /** One searchable unit per document: its title, its path's words and its whole text. */
  docs: DocUnit[];
  /** Term and phrase statistics of `docs`, index-aligned. */
  stats: CorpusStats;
}

interface DocUnit extends TextSection {
  file: ArtifactFile;
  adr?: AdrFacts;
}

interface RankedDoc {
  file: ArtifactFile;
  score: number;
  best: Unit;
  decision?: Unit;
  /** Matched sections, best first. */
  sections: Unit[];
}

/**
 * Parsed units and the supersession graph depend only on the artifact set, so they (and the search index built
 * over `units`) are kept per artifact_set_hash: the second question against the same docs skips parsing and
 * indexing. Two sets are kept, enough for a workspace switching between folders.
 */
const prepared = new Map<string, Prepared>();
const PREPARED_SETS = 2;

async function prepare(artifacts: ExpertContext["artifacts"], ctx: Pick<DocsContext, "signal" | "log" | "repo" | "cache">): Promise<Prepared> {
  // Keyed on the files' own paths and content hashes, so a caller-supplied set hash is never trusted blindly.
  const key = sha256(artifacts.files.map((f) => `${f.path}\0${f.source_type}\0${f.hash}`).join("\n") + (artifacts.template_lines ?? []).join("\n"));
  const hit = prepared.get(key);
  if (hit) return hit;
  const loaded = ctx.cache && ctx.repo ? await loadDocsCorpus<Unit, DocUnit, SupersessionGraph>(ctx.cache, resolve(ctx.repo), key, artifacts.files) : undefined;
  if (loaded) return keep({ ...loaded, key, unsaved: false, unitsByPath: unitsByPathOf(loaded.units) });
  return keep(await prepareAfresh(artifacts, key, ctx));
}

/** Forgets the corpora prepared in this process, as a fresh process would start (tests). */
export function forgetPreparedCorpora(): void {
  prepared.clear();
}

function keep(p: Prepared): Prepared {
  prepared.set(p.key, p);
  while (prepared.size > PREPARED_SETS) prepared.delete(prepared.keys().next().value!);
  return p;
}

async function persist(p: Prepared, ctx: Pick<DocsContext, "repo" | "cache" | "artifacts">): Promise<void> {
  if (!p.unsaved || !ctx.cache || !ctx.repo) return;
  p.unsaved = false;
  await saveDocsCorpus(ctx.cache, resolve(ctx.repo), p.key, ctx.artifacts.files, p);
}

function unitsByPathOf(units: Unit[]): Map<string, Unit[]> {
  const byPath = new Map<string, Unit[]>();
  for (const u of units) {
    const list = byPath.get(u.file.path);
    if (list) list.push(u);
    else byPath.set(u.file.path, [u]);
  }
  return byPath;
}

/** Parses every artifact into citable units and builds the supersession graph and the term statistics. */
async function prepareAfresh(artifacts: ExpertContext["artifacts"], key: string, ctx: Pick<DocsContext, "signal" | "log">): Promise<Prepared> {
  // Build the citable units, file by file (sorted by path already, which keeps the index deterministic).
  const units: Unit[] = [];
  const adrs = new Map<string, ParsedAdr>();
  const facts = new Map<string, AdrFacts>();
  const template = new Set(artifacts.template_lines ?? []);
  for (const [i, file] of artifacts.files.entries()) {
    ctx.signal?.throwIfAborted();
    // Let concurrent experts (git's child processes) make progress while this CPU-bound loop runs.
    if (i % 200 === 199) await new Promise((r) => setImmediate(r));
    if (file.source_type === "adr") {
      const adr = withIndexStatus(parseAdr(file.path, file.text, template), file.index_status);
      adrs.set(file.path, adr);
      facts.set(file.path, adrFacts(adr));
      for (const w of adr.warnings) ctx.log?.(`docs: ${file.path}: ${w}`);
      units.push(...adrUnits(file, adr, facts.get(file.path)!));
    } else {
      units.push(...docUnits(file));
    }
  }
  const docs: DocUnit[] = artifacts.files.map((file) => {
    const adr = facts.get(file.path);
    const title = adr?.title ?? parseMarkdown(file.text).sections.find((x) => x.level === 1)?.heading ?? "";
    return { file, adr, heading: title, title: pathWords(file.path), body: file.text.slice(0, INDEXED_CHARS) };
  });
  const stats = corpusStats(docs.map(statsText));
  // The graph is built from the full parses (back links are read from the text), then holds only their facts.
  const graph = { ...supersessionGraph(adrs), adrs: facts };
  // Breaking a supersession loop can put a record back in force.
  for (const [path, adr] of adrs) facts.get(path)!.status = adr.status;
  return { key, unsaved: true, units, graph, unitsByPath: unitsByPathOf(units), docs, stats };
}

/** The text a document's term statistics are taken over: its title and its indexed body. */
function statsText(d: DocUnit): string {
  return `${d.heading}\n${d.body.slice(0, INDEXED_CHARS)}`;
}

/** The whole-document index's options (titles weigh most). */
const DOC_INDEX: RankOptions = { boost: { heading: DOC_TITLE_BOOST, title: 1.5, body: 1 } };

/**
 * Prepares an artifact set's corpus and both of its indexes ahead of any question, and stores it when the cache
 * allows (`deliberate index`). Returns how many units were indexed.
 */
export async function prepareDocsCorpus(artifacts: ExpertContext["artifacts"], ctx: Pick<DocsContext, "signal" | "log" | "repo" | "cache">): Promise<{ units: number; documents: number }> {
  if (!artifacts.files.length) return { units: 0, documents: 0 };
  const p = await prepare(artifacts, ctx);
  ensureSectionIndex(p.units);
  ensureSectionIndex(p.docs, DOC_INDEX);
  await persist(p, { ...ctx, artifacts });
  return { units: p.units.length, documents: p.docs.length };
}

/** "docs/decisions/0012-use-kafka-for-events.md" → "docs decisions use kafka for events". */
function pathWords(path: string): string {
  return path.replace(/\.(md|markdown|mdc|rst|adoc|asciidoc|txt)$/i, "").replace(/(^|[/_-])\d+(?=[/_-]|$)/g, " ").replace(/[/_.-]+/g, " ").trim();
}

/**
 * Ranks documents, not passages: whole-document BM25 (title boosted) plus the best few matching sections, times
 * the source and status priors. A superseded ADR never ranks above the ADR that replaced it; when the replacement
 * matched less well (or not at all) it is pulled in just above the one it replaced.
 */
function rankDocuments(p: Prepared, terms: string[], expansions: string[], question?: string): RankedDoc[] {
  const sectionHits = rankTextSections(p.units, terms, expansions, Number.POSITIVE_INFINITY, { matched: false, queryMatched: false });
  const sectionsByPath = new Map<string, { unit: Unit; score: number }[]>();
  for (const r of sectionHits) {
    const list = sectionsByPath.get(r.section.file.path) ?? [];
    // Section priors say which part of a document to cite; the document's own prior is applied once, below.
    list.push({ unit: r.section, score: r.score * (r.section.prior / (SOURCE_PRIOR[r.section.file.source_type] ?? 1)) });
    sectionsByPath.set(r.section.file.path, list);
  }
  const phraseMass = phraseScores(question ? questionBigrams(question) : [], p.stats);
  // IDF of each of the question's own terms over the documents (terms no document has carry no weight).
  const nDocs = p.stats.n || 1;
  const queryIdf = new Map<string, number>();
  for (const t of tokenize(terms.join(" "))) {
    const df = p.stats.df.get(t);
    if (df) queryIdf.set(t, Math.log(1 + nDocs / df));
  }
  const queryIdfTotal = [...queryIdf.values()].reduce((a, b) => a + b, 0);
  const indexOf = new Map(p.docs.map((d, i) => [d.file.path, i]));
  const score = (docHits: RankedSection<DocUnit>[]) => {
    const whole = new Map<string, number>();
    const covered = new Map<string, number>();
    for (const r of docHits) {
      whole.set(r.section.file.path, r.score);
      covered.set(r.section.file.path, r.queryMatched.filter((t) => queryIdf.has(t)).reduce((n, t) => n + queryIdf.get(t)!, 0));
    }
    for (const path of sectionsByPath.keys()) if (!whole.has(path)) whole.set(path, 0);
    const scores = new Map<string, number>();
    for (const [path, w] of whole) {
      const i = indexOf.get(path)!;
      const doc = p.docs[i];
      const sections = (sectionsByPath.get(path) ?? []).sort((a, b) => b.score - a.score);
      const sum = sections.slice(0, SECTIONS_SUMMED).reduce((n, x) => n + x.score, 0);
      const phrases = PHRASE_WEIGHT * phraseMass[i];
      const prior = (SOURCE_PRIOR[doc.file.source_type] ?? 1) * (doc.adr ? STATUS_PRIOR[effectiveStatus(doc.adr, p.graph)] : 1);
      // Coordination: a document that covers more of the question's rare words beats one that repeats a few.
      const coverage = queryIdfTotal > 0 ? (covered.get(path) ?? 0) / queryIdfTotal : 1;
      scores.set(path, (w + SECTION_SUM_WEIGHT * sum + phrases) * prior * Math.pow(COVERAGE_FLOOR + coverage, COVERAGE_POWER));
    }
    return scores;
  };
  const docHits = rankTextSections(p.docs, terms, expansions, Number.POSITIVE_INFINITY, { ...DOC_INDEX, matched: false });
  let scores = score(docHits);
  // Widen the vocabulary from the repository's own text: what the best documents say that the question did not.
  if (FEEDBACK_DOCS > 0 && scores.size > 0) {
    const top = [...scores.entries()].sort((a, b) => b[1] - a[1]).slice(0, FEEDBACK_DOCS);
    const best = top[0][1] || 1;
    const exclude = new Set(tokenize([...terms, ...expansions].join(" ")));
    const feedback = feedbackTerms(top.map(([path, s]) => ({ doc: docStats(statsText(p.docs[indexOf.get(path)!])), weight: s / best })), p.stats, exclude, FEEDBACK_TERMS);
    // Only the feedback terms are searched again; their scores join the first pass's as one search would add them.
    if (feedback.length) {
      const extra = rankTextSections(p.docs, [], [], Number.POSITIVE_INFINITY, { ...DOC_INDEX, feedback, feedbackWeight: FEEDBACK_WEIGHT, matched: false });
      scores = score(combineRankings(docHits, extra));
    }
  }
  if (question) scores = withRecordView(p, scores, question);
  enforceDocSupersession(scores, p.graph, true);
  sinkRetiredWithoutSuccessor(scores, p, question ? namedAlternatives(question) === 0 : false);
  keepFilesBelowRecords(scores, p);
  if (question) preferLaterDecision(scores, p, question);
  preferLaterOnSameSubject(scores, p);
  if (question) preferLaterRetirement(scores, p, question);
  keepPartlyReplacedBelow(scores, p);
  // The caps above can lower a successor below the record it replaced; the supersession rule has the last word.
  enforceDocSupersession(scores, p.graph);

  const out: RankedDoc[] = [];
  for (const [path, score] of scores) {
    if (!(score > 0)) continue;
    const own = p.unitsByPath.get(path) ?? [];
    const matched = (sectionsByPath.get(path) ?? []).map((x) => x.unit);
    const decision = own.find((u) => u.adrSection === "decision") ?? own.find((u) => u.adrSection === "decision-outcome");
    const best = matched[0] ?? decision ?? own[0];
    if (!best) continue;
    out.push({ file: best.file, score, best, decision, sections: matched });
  }
  return out.sort((a, b) => b.score - a.score || cmp(a.file.path, b.file.path));
}

/**
 * How much the plain view of the question over the records (recordBm25.ts) counts next to this ranking, each
 * scaled to its best document. Twice as much: on long questions the plain view is the more reliable one, and
 * where this ranking is right the two mostly agree (development half: recall@1 0.80 -> 0.86 with it).
 */
const RECORD_VIEW_WEIGHT = 2;
/**
 * Its weight for a question that does not name two alternatives (an open, symptom or "should we adopt X?" question):
 * this ranking's alternative-aware parts (planned terms, the later-decision rule) have nothing to hold on to there,
 * and its feedback terms drift on the story such questions tell, so the plain view counts twice as much again.
 */
const RECORD_VIEW_WEIGHT_UNNAMED = 4;

/** How much the plain view counts for this question: more when the question names fewer than two alternatives. */
export function recordViewWeight(question: string): number {
  return namedAlternatives(question) >= 2 ? RECORD_VIEW_WEIGHT : RECORD_VIEW_WEIGHT_UNNAMED;
}

function namedAlternatives(question: string): number {
  return readQuestion(question).alternatives.filter((a) => a.terms.length).length;
}
/** Fused scores are shares of the best document's; this keeps them in the range the other experts' scores use. */
const FUSED_SCALE = 1000;
const recordViews = new WeakMap<Prepared, RecordBm25>();

/** The plain view over the decision records and architecture pages of a prepared corpus, built once per corpus. */
function recordView(p: Prepared): RecordBm25 {
  let view = recordViews.get(p);
  if (!view) {
    const records = p.docs.filter((d) => d.adr || d.file.source_type === "architecture");
    view = new RecordBm25(records.map((d) => ({ path: d.file.path, title: d.adr?.title ?? d.heading, text: d.body })));
    recordViews.set(p, view);
  }
  return view;
}

/**
 * Where the plain view places each of these records on the question (1 = first; ties by path). The Critic compares
 * the record an answer rests on with this second, simpler reading (critic/grounding.ts).
 */
function plainRanks(p: Prepared, question: string, paths: Set<string>): Map<string, number> {
  const order = [...recordView(p).scores(question)].sort((a, b) => b[1] - a[1] || cmp(a[0], b[0]));
  const out = new Map<string, number>();
  order.forEach(([path], i) => {
    if (paths.has(path)) out.set(path, i + 1);
  });
  return out;
}

/** This ranking fused with the plain view: each scaled to its best document, summed with recordViewWeight. */
function withRecordView(p: Prepared, ours: Map<string, number>, question: string): Map<string, number> {
  const plain = recordView(p).scores(question);
  if (plain.size === 0) return ours;
  // A loop, not Math.max(...values): a corpus of many thousand documents would overflow the argument list.
  const best = (m: Map<string, number>) => {
    let top = Number.MIN_VALUE;
    for (const v of m.values()) if (v > top) top = v;
    return top;
  };
  const bestOurs = best(ours);
  const bestPlain = best(plain);
  const fused = new Map<string, number>();
  const w = recordViewWeight(question);
  for (const path of new Set([...ours.keys(), ...plain.keys()])) {
    fused.set(path, ((ours.get(path) ?? 0) / bestOurs + (w * (plain.get(path) ?? 0)) / bestPlain) * FUSED_SCALE);
  }
  return fused;
}

/**
 * Caps every superseded document below its successor, pulling a successor that did not match in above it.
 * `lift` (the first pass, right after matching): a successor that matched the question less well than the record it
 * replaced also takes that record's place, just above it, as a successor that did not match at all does. A question
 * that matches a replaced record is about what that record decided, and the successor is the word in force on it;
 * capping only the replaced record would leave the successor at its own weaker place, below records on other
 * subjects that merely share the question's words (development half: recall@1 322 -> 326 of 380, no rank lost).
 * The later pass (after the caps that follow) only caps, so those caps keep their effect.
 */
function enforceDocSupersession(scores: Map<string, number>, graph: SupersessionGraph, lift = false): void {
  const edges = [...graph.supersededBy.entries()].flatMap(([old, repl]) => [...repl].sort().map((r) => [old, r] as const)).sort();
  for (let round = 0; round < 10; round++) {
    let changed = false;
    for (const [old, repl] of edges) {
      const o = scores.get(old);
      if (o === undefined || o <= 0) continue;
      const r = scores.get(repl);
      if (r === undefined || r <= 0 || (lift && o >= r)) {
        scores.set(repl, o * SUCCESSOR_ABOVE);
        changed = true;
      } else if (o >= r) {
        scores.set(old, r * 0.98);
        changed = true;
      }
    }
    if (!changed) break;
  }
}

/** Where a successor that takes its replaced record's place goes: just above it. */
const SUCCESSOR_ABOVE = 1.05;

/** How many of the best-matching records files named by the docs (code, changelogs) never rank above. */
const RECORDS_ABOVE_FILES = 5;

/**
 * Records rank as records: a file that agent instructions or architecture docs merely name (source code, a
 * changelog) supports a decision but is not one, so it never ranks above the best few records that matched.
 */
function keepFilesBelowRecords(scores: Map<string, number>, p: Prepared): void {
  const records = [...scores.entries()].filter(([path, s]) => s > 0 && p.graph.adrs.has(path)).map(([, s]) => s).sort((a, b) => b - a);
  if (!records.length) return;
  const floor = records[Math.min(RECORDS_ABOVE_FILES, records.length) - 1] * 0.98;
  for (const doc of p.docs) {
    if (doc.file.source_type !== "canonical-file") continue;
    const s = scores.get(doc.file.path);
    if (s !== undefined && s > floor) scores.set(doc.file.path, floor);
  }
}

/** "This ADR supersedes some aspects of [ADR-15]": the record itself is the one that replaces, in part or whole. */
const REPLACES_IN_PART = /\bthis\s+(?:adr|decision record|decision|record|document|rfc|proposal)\s+(?:\w+ly\s+)?(?:supe(?:r|rs)?[sc]edes|replaces|overrides)\b/i;
const partlyReplaced = new WeakMap<Prepared, [string, string][]>();

/**
 * Pairs [earlier, later] where the later record says in a line of its own that it replaces part of the earlier one
 * ("this ADR supersedes some aspects of [ADR-15]"). Such a record is no successor in the graph: the earlier one stays
 * in force for the rest, so it is neither retired nor linked as superseded. Built once per corpus.
 */
function partlyReplacedPairs(p: Prepared): [string, string][] {
  let pairs = partlyReplaced.get(p);
  if (pairs) return pairs;
  pairs = [];
  const linkRe = /\]\(\s*<?([^)\s>]+)>?[^)]*\)/g;
  for (const doc of p.docs) {
    // Most records say no such thing; one test of the whole text spares splitting them into lines.
    if (!doc.adr || !REPLACES_IN_PART.test(doc.file.text)) continue;
    for (const line of doc.file.text.split("\n")) {
      if (!REPLACES_IN_PART.test(line)) continue;
      for (const m of line.matchAll(linkRe)) {
        const to = resolveAdrRef(m[1], doc.adr, p.graph.adrs);
        if (to && to !== doc.file.path) pairs.push([to, doc.file.path]);
      }
    }
  }
  pairs.sort((a, b) => cmp(a[0], b[0]) || cmp(a[1], b[1]));
  partlyReplaced.set(p, pairs);
  return pairs;
}

/**
 * A record that says it replaces part of another ranks above it whenever both matched: on what the question shares
 * with both, the later record is the word in force. Only a cap, never a lift: the earlier record still answers on the
 * parts the later one left alone, where the later one matched less or not at all.
 */
function keepPartlyReplacedBelow(scores: Map<string, number>, p: Prepared): void {
  for (const [earlier, later] of partlyReplacedPairs(p)) {
    const se = scores.get(earlier);
    const sl = scores.get(later);
    if (se === undefined || sl === undefined || !(sl > 0) || se < sl) continue;
    scores.set(earlier, sl * 0.98);
  }
}

/** An in-force record counts as on the same subject as a retired one when it matched at least this share as well. */
const SAME_SUBJECT_SHARE = 0.5;

/**
 * A record that is superseded or deprecated but names no successor (a folder, an index or a bare "Superseded" said
 * so) ranks below the in-force records that matched the question nearly as well and are not known to be older: on
 * the question's subject, a record still in force is the better answer than one its log has retired.
 * `openQuestion`: the question names nothing to choose ("how should we …?"), so it asks what is in force, and a
 * rejected proposal sinks the same way. A question that names a thing may be asking about exactly that rejection.
 */
function sinkRetiredWithoutSuccessor(scores: Map<string, number>, p: Prepared, openQuestion: boolean): void {
  const adrs = p.graph.adrs;
  const entries = [...scores.entries()].filter(([path, s]) => s > 0 && adrs.has(path)).sort((a, b) => b[1] - a[1] || cmp(a[0], b[0]));
  const inForce = entries.filter(([path]) => IN_FORCE.has(effectiveStatus(adrs.get(path)!, p.graph)));
  for (const [path, score] of entries) {
    const adr = adrs.get(path)!;
    if ((p.graph.supersededBy.get(path)?.size ?? 0) > 0) continue;
    const status = effectiveStatus(adr, p.graph);
    if (status !== "superseded" && status !== "deprecated" && !(openQuestion && status === "rejected")) continue;
    let cap = Number.POSITIVE_INFINITY;
    for (const [other, otherScore] of inForce) {
      if (otherScore < SAME_SUBJECT_SHARE * score || isLater(adrs.get(other)!, adr) === false) continue;
      cap = Math.min(cap, otherScore);
    }
    if (cap < Number.POSITIVE_INFINITY && score >= cap) scores.set(path, cap * 0.98);
  }
}

/** How many of the best documents are compared for a later decision that chose another of the question's alternatives. */
const LATER_DECISION_WINDOW = 3;

/**
 * An ADR log only grows: when two accepted ADRs near the top each chose a different alternative that the question
 * names ("MVStore" and "Use JSON format" for "keep it in MVStore or write it out as JSON?"), the later one is the
 * decision in force even when it never says it replaces the earlier one, so it ranks above it. Only ADRs whose
 * chosen option (or title) names exactly one of the question's alternatives take part, and only when the later
 * one's title covers every word of the question's subject that the earlier one's title covers.
 */
function preferLaterDecision(scores: Map<string, number>, p: Prepared, question: string): void {
  const read = readQuestion(question);
  const alternatives = read.alternatives.filter((a) => a.terms.length && !a.inverse);
  if (alternatives.length < 2) return;
  // The question's subject: its words that name no alternative ("chat", "history" beside "MVStore" and "JSON").
  const named = new Set(tokenize(alternatives.flatMap((a) => [a.subject, ...a.terms]).join(" ")));
  const subject = new Set(tokenize(read.text).filter((w) => !named.has(w) && !GENERIC_TITLE_WORDS.has(w)));
  const covers = (adr: AdrFacts) => new Set(tokenize(adr.title).filter((w) => subject.has(w)));
  const top = [...scores.entries()].filter(([, s]) => s > 0).sort((a, b) => b[1] - a[1] || cmp(a[0], b[0])).slice(0, LATER_DECISION_WINDOW);
  const deciding = top.flatMap(([path]) => {
    const adr = p.docs.find((d) => d.file.path === path)?.adr;
    // Accepted, or a log that records no status at all (many MADR logs omit it): both are decisions in force.
    if (!adr || !IN_FORCE.has(effectiveStatus(adr, p.graph))) return [];
    const choice = chosenAlternative(adr, alternatives, p);
    return choice === undefined ? [] : [{ path, adr, choice, covers: covers(adr) }];
  });
  for (const a of deciding) {
    for (const b of deciding) {
      if (a.choice === b.choice || isLater(b.adr, a.adr) !== true) continue;
      // Only a later record at least as much about the question's subject: "Use Kafka for audit events" does not
      // overrule "Use RabbitMQ for billing events" on a question about billing events.
      if (![...a.covers].every((w) => b.covers.has(w))) continue;
      const sa = scores.get(a.path)!;
      const sb = scores.get(b.path)!;
      if (sa >= sb) scores.set(a.path, sb * 0.98);
    }
  }
}

const IN_FORCE = new Set<AdrStatus>(["accepted", "unknown"]);

/** How many of the best records are compared for a later record in force on the same subject. */
const SAME_SUBJECT_WINDOW = 3;
/** How alike two records' texts must be (cosine of their TF-IDF vectors) to count as on the same subject. */
const SAME_SUBJECT_SIMILARITY = 0.15;
/** A later record must have matched the question at least this share as well as the earlier one. */
const SAME_SUBJECT_SCORE_SHARE = 0.5;

/**
 * A log only grows: of two records near the top on the same subject, the later one in force is the current word on
 * it, even when the earlier one never says it was replaced. Two cases, each with evidence that the later record
 * settled what the earlier one left open or reversed it:
 * - the earlier record is a proposal that was withdrawn, rejected or never accepted, and the later accepted record's
 *   text is about the same thing (TF-IDF cosine): the matter was settled by the later record ("Use Papertrail for
 *   draft/live", rejected, then "Use AASM to manage form state");
 * - the earlier record is in force, and the later one's title retires something ("Remove forms-api") while it links
 *   to the earlier record ("API v2 for Forms", which built on forms-api).
 * The earlier record then ranks just below the later one. Records a status or link already retired are left to the
 * rules above. A withdrawn proposal needs no share of the match (see `withdrawn`).
 */
function preferLaterOnSameSubject(scores: Map<string, number>, p: Prepared): void {
  const adrs = p.graph.adrs;
  const top = [...scores.entries()]
    .filter(([path, s]) => s > 0 && adrs.has(path))
    .sort((a, b) => b[1] - a[1] || cmp(a[0], b[0]))
    .slice(0, SAME_SUBJECT_WINDOW)
    .map(([path]) => ({ path, adr: adrs.get(path)!, status: effectiveStatus(adrs.get(path)!, p.graph) }));
  for (const old of top) {
    if (old.status === "superseded" || old.status === "deprecated") continue;
    for (const later of top) {
      if (later === old || !IN_FORCE.has(later.status) || isLater(later.adr, old.adr) !== true) continue;
      const so = scores.get(old.path)!;
      const sl = scores.get(later.path)!;
      if (sl > so || (sl < SAME_SUBJECT_SCORE_SHARE * so && !withdrawn(old.adr))) continue;
      const settled = !IN_FORCE.has(old.status) && textSimilarity(p, old.path, later.path) >= SAME_SUBJECT_SIMILARITY;
      const reversed = IN_FORCE.has(old.status) && REVERSAL.test(later.adr.title) && docLinksTo(p, later.adr, old.path);
      if (settled || reversed) scores.set(old.path, sl * 0.98);
    }
  }
}

/** How many of the best records are compared for a later record that retires what an earlier one put in place. */
const RETIREMENT_WINDOW = 5;
/** The share of the question's weight met in the earlier record that the later one must meet as well. */
const RETIREMENT_COVERAGE = 0.6;
/** A question word counts as rare in the corpus when at most this many documents use it, or this share of them. */
const RETIREMENT_RARE_DF = 3;
const RETIREMENT_RARE_SHARE = 0.02;

/**
 * A later record in force that retires something (its title or the opening of its decision removes, drops or
 * discontinues it) ranks above an earlier record in force that the question reaches through the same words: the
 * question asks about what the earlier record put in place, and the later one took it away ("Dataplane Selection
 * Improvements" added a heartbeat; "Data Plane Selector Manager Dismission" discontinued it). The two must share a
 * rare word of the question, and the later record must hold most of the question's weight that the earlier one
 * holds, so a removal of something else that merely shares the log's common words changes nothing. Only for a
 * question that asks whether something goes on or stops ("keep", "still", "drop"): "Should we move Redis to
 * ElastiCache?" is answered by "Use ElastiCache for Redis", not by a later record that removes one of its clusters
 * (development half: without this condition recall@1 lost one question and gained none).
 */
function preferLaterRetirement(scores: Map<string, number>, p: Prepared, question: string): void {
  if (!ASKS_TO_CONTINUE.test(question)) return;
  const adrs = p.graph.adrs;
  const top = [...scores.entries()]
    .filter(([path, s]) => s > 0 && adrs.has(path))
    .sort((a, b) => b[1] - a[1] || cmp(a[0], b[0]))
    .slice(0, RETIREMENT_WINDOW)
    .map(([path]) => ({ path, adr: adrs.get(path)!, status: effectiveStatus(adrs.get(path)!, p.graph) }))
    .filter((r) => IN_FORCE.has(r.status));
  const pairs = top.flatMap((later) =>
    retiresSomething(p, later.adr)
      ? top.filter((old) => old !== later && isLater(later.adr, old.adr) === true && !REMOVAL.test(old.adr.title)).map((old) => ({ old, later }))
      : [],
  );
  if (!pairs.length) return;
  const words = questionWordForms(p, question);
  const rareDf = Math.max(RETIREMENT_RARE_DF, Math.floor(p.stats.n * RETIREMENT_RARE_SHARE));
  const held = (path: string) => {
    const doc = p.docs.find((d) => d.file.path === path);
    const tf = doc ? docStats(statsText(doc)).tf : new Map<string, number>();
    return words.filter((w) => w.forms.some((v) => tf.has(v)));
  };
  const mass = (ws: QuestionWord[]) => ws.reduce((n, w) => n + w.idf, 0);
  for (const { old, later } of pairs) {
    const so = scores.get(old.path)!;
    const sl = scores.get(later.path)!;
    if (sl > so || sl < SAME_SUBJECT_SCORE_SHARE * so) continue;
    const laterWords = new Set(held(later.path));
    const oldWords = held(old.path);
    const shared = oldWords.filter((w) => laterWords.has(w));
    if (shared.some((w) => w.df <= rareDf) && mass(shared) >= RETIREMENT_COVERAGE * mass(oldWords)) scores.set(old.path, sl * 0.98);
  }
}

interface QuestionWord {
  /** The forms the corpus writes the word in. */
  forms: string[];
  /** Documents that use its most widely used form, and the IDF of that. */
  df: number;
  idf: number;
}

/** The question's words with the forms the corpus writes each in ("heartbeating": "heartbeat"); unused words are left out. */
function questionWordForms(p: Prepared, question: string): QuestionWord[] {
  const words = [...new Set(tokenize(question))].filter((w) => w.length > 1);
  const forms = new Map<string, string[]>(words.map((w) => [w, []]));
  const byStart = new Map<string, string[]>();
  for (const w of words) byStart.set(w.slice(0, WORD_FORM_PREFIX), [...(byStart.get(w.slice(0, WORD_FORM_PREFIX)) ?? []), w]);
  for (const v of p.stats.df.keys()) {
    forms.get(v)?.push(v);
    if (v.length < WORD_FORM_PREFIX) continue;
    for (const w of byStart.get(v.slice(0, WORD_FORM_PREFIX)) ?? []) if (w !== v && sameWordForm(w, v)) forms.get(w)!.push(v);
  }
  const out: QuestionWord[] = [];
  for (const w of words) {
    const df = forms.get(w)!.reduce((n, v) => Math.max(n, p.stats.df.get(v) ?? 0), 0);
    if (df) out.push({ forms: forms.get(w)!, df, idf: Math.log(1 + p.stats.n / df) });
  }
  return out;
}

/** Letters two forms of one word must share from the start (see sameWordForm). */
const WORD_FORM_PREFIX = 6;

/**
 * Two stemmed words read as forms of one word: equal, or one a prefix of the other ("heartbeat", "heartbeating";
 * "unavailable", "unavailability" share "unavailab"), sharing at least six letters and most of the shorter word.
 */
function sameWordForm(a: string, b: string): boolean {
  if (a === b) return true;
  const short = Math.min(a.length, b.length);
  if (short < WORD_FORM_PREFIX) return false;
  let i = 0;
  while (i < short && a[i] === b[i]) i++;
  return i >= WORD_FORM_PREFIX && i >= 0.8 * short;
}

/** A question that asks whether something goes on or stops ("should we keep heartbeating them?", "drop it?"). */
const ASKS_TO_CONTINUE = /\b(keep|keeping|still|continue|continuing|any ?more|any longer|no longer|stop|stopping|drop|dropping|remove|removing|retire|retiring|deprecate|get rid of)\b/i;

/** A title noun that retires something ("HTTP proxy data plane deprecation", "Selector manager dismission"). */
const RETIRING_NOUN = /\b(removal|deprecation|dismissal|dismission|discontinuation|decommission(?:ing)?|retirement|sunsetting|deletion)\b/i;

/** Whether a record's title, or the first sentence of its decision or summary, retires something. */
function retiresSomething(p: Prepared, adr: AdrFacts): boolean {
  if (REMOVAL.test(adr.title) || RETIRING_NOUN.test(adr.title)) return true;
  const own = p.unitsByPath.get(adr.path) ?? [];
  const lead = own.find((u) => u.adrSection === "decision" || u.adrSection === "decision-outcome" || LEAD_HEADING.test(headingKey(u.heading)));
  if (!lead) return false;
  const sentence = stripInline(lead.body.replace(/\n+/g, " ")).split(/(?<=[.!?])\s+(?=[A-Z])/)[0] ?? "";
  return REMOVAL.test(sentence.split(/\s+/).slice(0, LEAD_WORDS).join(" "));
}

/**
 * A proposal its authors took back (its status line, or the status folder it was filed under, says withdrawn or
 * abandoned). Unlike a rejection it decided nothing, so a later record in force on its subject is the word on it
 * whenever both are near the top, however much better the withdrawn text matched the question.
 */
function withdrawn(adr: AdrFacts): boolean {
  const folder = statusFromFolder(adr.path)?.folder.split("/").pop() ?? "";
  return /\b(withdrawn|abandoned)\b/i.test(`${adr.raw_status ?? ""} ${folder}`);
}

/** Whether a record's text links to another record (by path, number, file name or slug). */
function docLinksTo(p: Prepared, from: AdrFacts, to: string): boolean {
  const text = p.docs.find((d) => d.file.path === from.path)?.file.text ?? "";
  const linkRe = /\]\(\s*<?([^)\s>]+)>?[^)]*\)|^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm;
  for (let m = linkRe.exec(text); m; m = linkRe.exec(text)) {
    if (resolveAdrRef(m[1] ?? m[2], from, p.graph.adrs) === to) return true;
  }
  return false;
}

const termVectors = new WeakMap<Prepared, Map<string, Map<string, number>>>();

/** Cosine similarity of two documents' TF-IDF vectors over the prepared corpus (0 when either is unknown). */
function textSimilarity(p: Prepared, a: string, b: string): number {
  let cache = termVectors.get(p);
  if (!cache) termVectors.set(p, (cache = new Map()));
  const vector = (path: string): Map<string, number> | undefined => {
    const hit = cache!.get(path);
    if (hit) return hit;
    const doc = p.docs.find((d) => d.file.path === path);
    if (!doc) return undefined;
    const out = new Map<string, number>();
    let norm = 0;
    for (const [t, f] of docStats(statsText(doc)).tf) {
      const df = p.stats.df.get(t) ?? 1;
      const w = (1 + Math.log(f)) * Math.log(1 + p.stats.n / df);
      out.set(t, w);
      norm += w * w;
    }
    norm = Math.sqrt(norm) || 1;
    for (const [t, w] of out) out.set(t, w / norm);
    cache!.set(path, out);
    return out;
  };
  const va = vector(a);
  const vb = vector(b);
  if (!va || !vb) return 0;
  let dot = 0;
  for (const [t, w] of va) dot += w * (vb.get(t) ?? 0);
  return dot;
}

/**
 * The index of the one alternative an ADR's chosen option (else its title) names — by the alternative's search
 * terms or a rare word of its subject ("OpenAI" of "calling OpenAI's API") — or undefined.
 */
function chosenAlternative(adr: AdrFacts, alternatives: Alternative[], p: Prepared): number | undefined {
  const text = adr.chosen_option ?? adr.title;
  const named = alternatives.flatMap((alt, i) => (alternativeWords(alt, p).some((t) => containsWord(text, t)) ? [i] : []));
  return named.length === 1 ? named[0] : undefined;
}

/** An alternative's terms plus the words of its subject that few documents use (not "library", "api", "calling"). */
function alternativeWords(alt: Alternative, p: Prepared): string[] {
  const rare = tokenize(alt.subject.replace(/['’]s\b/g, "")).filter((w) => w.length > 2 && (p.stats.df.get(w) ?? 0) <= p.stats.n * RARE_SUBJECT_DF);
  return [...alt.terms, ...rare];
}

/** A subject word counts as naming the alternative when at most this share of the documents use it. */
const RARE_SUBJECT_DF = 0.1;

function containsWord(text: string, term: string): boolean {
  const escaped = term.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(?<![a-z0-9])${escaped}(?![a-z0-9])`, "i").test(text);
}

// ---------------------------------------------------------------------------------------------------------
// Units

function adrUnits(file: ArtifactFile, adr: ParsedAdr, facts: AdrFacts): Unit[] {
  const out: Unit[] = [];
  const { sections } = adr.doc;
  sections.forEach((s, i) => {
    const name = adr.section_names[i];
    if (!s.body.trim()) return; // a heading whose content lives in its subsections
    // The title block holds only metadata lines (date, status) that the AdrMeta already carries.
    if (name === "title" || name === "preamble") return;
    const prior = SOURCE_PRIOR.adr * sectionPrior(name);
    const parent = s.parent !== undefined ? sections[s.parent] : undefined;
    const heading = name.startsWith("pros-and-cons: ") && parent ? `${parent.heading} › ${s.heading}` : s.heading || "Metadata";
    out.push({
      file,
      start: s.start,
      end: s.contentEnd,
      precision: "section",
      heading: s.heading,
      title: adr.title,
      body: s.body,
      label: `${adrLabel(adr)} — ${heading}`,
      prior,
      adr: facts,
      adrSection: name,
    });
  });
  if (out.length === 0) out.push(wholeFileUnit(file, adrLabel(adr), SOURCE_PRIOR.adr, facts));
  return out;
}

/** The number a reader knows a record by: none for a record its file name dates ("201912-…"). */
function shownNumber(adr: AdrFacts): number | undefined {
  return adr.number !== undefined && !datedFileName(adr.path) ? adr.number : undefined;
}

function adrLabel(adr: AdrFacts): string {
  const n = shownNumber(adr);
  return `ADR${n !== undefined ? ` ${n}` : ""}: ${adr.title}`;
}

/** Agent instructions and contribution guides cite rule by rule; other docs section by section; code whole. */
function docUnits(file: ArtifactFile): Unit[] {
  const prior = SOURCE_PRIOR[file.source_type] ?? 1;
  const name = file.path.split("/").pop() ?? file.path;
  const isMarkdown = /\.(md|markdown|mdc|rst|adoc|asciidoc|txt)$/i.test(file.path) || file.source_type !== "canonical-file";
  // A big file a doc merely names (a changelog, a message catalogue) is one unit, not hundreds of sections.
  if (!isMarkdown || (file.source_type === "canonical-file" && file.text.length > INDEXED_CHARS)) return [wholeFileUnit(file, file.path, prior)];

  const doc = parseMarkdown(file.text);
  const docTitle = doc.sections.find((s) => s.level === 1)?.heading ?? name;
  const ruleWise = file.source_type === "agent-instructions" || file.source_type === "contributing";
  const out: Unit[] = [];
  for (const s of doc.sections) {
    const bodyStart = s.bodyStart;
    if (bodyStart > s.contentEnd) continue;
    const where = s.heading ? `${name} › ${s.heading}` : name;
    if (ruleWise) {
      for (const block of splitRules(doc.lines, bodyStart, s.contentEnd)) {
        const text = doc.lines.slice(block.start - 1, block.end).join("\n");
        out.push({
          file,
          start: block.start,
          end: block.end,
          precision: "exact-lines",
          heading: s.heading,
          title: docTitle,
          body: text,
          label: `${where} — ${shorten(stripInline(text.replace(/^\s*(?:[-*+]|\d+[.)])\s+/, "")).replace(/\s+/g, " "), 90)}`,
          prior,
        });
      }
    } else {
      if (!s.body.trim()) continue;
      const whole = s.level === 0 && doc.sections.length === 1;
      out.push({
        file,
        start: s.start,
        end: s.contentEnd,
        precision: whole ? "document" : "section",
        heading: s.heading,
        title: docTitle,
        body: s.body,
        label: where,
        prior,
      });
    }
  }
  if (out.length === 0 && file.text.trim()) out.push(wholeFileUnit(file, name, prior));
  return out;
}

function wholeFileUnit(file: ArtifactFile, label: string, prior: number, adr?: AdrFacts): Unit {
  const lines = file.text.split("\n");
  let end = lines.length;
  while (end > 1 && lines[end - 1].trim() === "") end--;
  return { file, start: 1, end, precision: "document", heading: "", title: label, body: file.text.slice(0, INDEXED_CHARS), label, prior, adr, adrSection: adr ? "document" : undefined };
}

/**
 * Splits a run of lines into rules: each top-level list item (with its continuation lines and nested items) is
 * one rule; a paragraph, table or fenced block outside a list is one rule. Blank lines end a rule, except before
 * an indented continuation of a list item.
 */
export function splitRules(lines: string[], from: number, to: number): { start: number; end: number }[] {
  const blocks: { start: number; end: number; indent: number; bullet: boolean }[] = [];
  let cur: (typeof blocks)[number] | undefined;
  let fence: string | undefined;
  let sawBlank = false;
  const bulletRe = /^(\s*)(?:[-*+]|\d+[.)])\s+\S/;
  for (let n = from; n <= to; n++) {
    const line = lines[n - 1];
    const f = /^\s*(`{3,}|~{3,})/.exec(line);
    if (fence) {
      if (f && f[1][0] === fence[0] && f[1].length >= fence.length) fence = undefined;
      if (cur) cur.end = n;
      continue;
    }
    if (!line.trim()) {
      sawBlank = true;
      continue;
    }
    const indent = (/^\s*/.exec(line)?.[0] ?? "").replace(/\t/g, "    ").length;
    const bullet = bulletRe.exec(line);
    const continues =
      cur &&
      (sawBlank
        ? cur.bullet && indent > cur.indent && !(bullet && indent <= cur.indent)
        : !bullet || (cur.bullet && indent > cur.indent));
    if (f) fence = f[1];
    if (continues && cur) {
      cur.end = n;
    } else {
      cur = { start: n, end: n, indent, bullet: !!bullet };
      blocks.push(cur);
    }
    sawBlank = false;
  }
  return blocks.map(({ start, end }) => ({ start, end }));
}

function shorten(s: string, max: number): string {
  if (s.length <= max) return s;
  const cut = s.slice(0, max);
  const sp = cut.lastIndexOf(" ");
  return (sp > max * 0.6 ? cut.slice(0, sp) : cut).replace(/[\s,;:.]+$/, "") + "…";
}

// ---------------------------------------------------------------------------------------------------------
// Supersession

interface SupersessionGraph {
  /** superseded path → the paths that supersede it. */
  supersededBy: Map<string, Set<string>>;
  /** superseding path → the paths it supersedes. */
  supersedes: Map<string, Set<string>>;
  /** "old\0new" for every link that was inferred rather than written down. */
  inferred: Set<string>;
  adrs: Map<string, AdrFacts>;
  /** What the log's shape made ambiguous, one line each (reported in the stage status): broken supersession loops, shared titles. */
  cycles?: string[];
}

/**
 * Resolves both directions of every supersession link to known ADR paths (by path, number, file name or slug),
 * then adds the links real logs leave implicit: an ADR whose status just says "Superseded" is superseded by the
 * later ADR that links back to it, and a later ADR on the same narrow subject that removes or replaces what an
 * earlier one decided ("Delete the Helm chart" after "Helm chart") succeeds it. Inferred links are marked.
 */
function supersessionGraph(adrs: Map<string, ParsedAdr>): SupersessionGraph {
  const supersededBy = new Map<string, Set<string>>();
  const supersedes = new Map<string, Set<string>>();
  const inferred = new Set<string>();
  const add = (old: string, replacement: string, guessed = false) => {
    if (old === replacement) return;
    if (!supersededBy.has(old)) supersededBy.set(old, new Set());
    if (!supersedes.has(replacement)) supersedes.set(replacement, new Set());
    supersededBy.get(old)!.add(replacement);
    supersedes.get(replacement)!.add(old);
    if (guessed) inferred.add(`${old}\0${replacement}`);
  };
  for (const adr of adrs.values()) {
    for (const ref of adr.superseded_by) {
      const target = resolveAdrRef(ref, adr, adrs);
      if (target) add(adr.path, target);
    }
    for (const ref of adr.supersedes) {
      const target = resolveAdrRef(ref, adr, adrs);
      if (target) add(target, adr.path);
    }
  }
  // A two-way link (A supersedes B and B supersedes A) is a typo somewhere; drop it rather than loop.
  for (const [old, repl] of supersededBy) {
    for (const r of [...repl]) {
      if (supersededBy.get(r)?.has(old)) {
        repl.delete(r);
        supersedes.get(r)?.delete(old);
      }
    }
  }
  const cycles = [...breakSupersessionCycles(supersededBy, supersedes, adrs), ...duplicateTitles(adrs)];
  for (const [old, repl] of inferImplicitSupersession(adrs, supersededBy)) add(old, repl, true);
  return { supersededBy, supersedes, inferred, adrs, ...(cycles.length ? { cycles } : {}) };
}

/**
 * Records that share a title are kept apart (each is cited by its path), but a link by title cannot tell them apart:
 * say so once, for the first few.
 */
function duplicateTitles(adrs: Map<string, ParsedAdr>): string[] {
  const byTitle = new Map<string, string[]>();
  for (const adr of adrs.values()) {
    const key = slug(adr.title);
    if (!key) continue;
    byTitle.set(key, [...(byTitle.get(key) ?? []), adr.path]);
  }
  const dups = [...byTitle.values()].filter((paths) => paths.length > 1).sort((a, b) => cmp(a[0], b[0]));
  if (!dups.length) return [];
  const shown = dups.slice(0, 2).map((paths) => `"${adrs.get(paths[0])!.title}" (${paths.slice(0, 3).join(", ")})`);
  return [`${dups.length} title${dups.length === 1 ? " is" : "s are"} shared by several records, cited by path: ${shown.join("; ")}${dups.length > 2 ? "; …" : ""}`];
}

/**
 * Longer loops (A → B → C → A) cannot all be true: in each, the links that say an earlier record replaced a later
 * one are dropped (and if that leaves a loop, every link in it), so something in the loop stays in force.
 */
function breakSupersessionCycles(supersededBy: Map<string, Set<string>>, supersedes: Map<string, Set<string>>, adrs: Map<string, ParsedAdr>): string[] {
  const notes: string[] = [];
  const drop = (old: string, repl: string) => {
    supersededBy.get(old)?.delete(repl);
    supersedes.get(repl)?.delete(old);
  };
  for (let round = 0; round < 3; round++) {
    const loops = stronglyConnected(supersededBy).filter((c) => c.length > 1);
    if (!loops.length) break;
    for (const loop of loops) {
      const members = new Set(loop);
      const edges = loop.flatMap((old) => [...(supersededBy.get(old) ?? [])].filter((r) => members.has(r)).map((r) => [old, r] as const));
      const backwards = edges.filter(([old, repl]) => isLater(adrs.get(repl)!, adrs.get(old)!) !== true);
      for (const [old, repl] of round < 2 && backwards.length < edges.length ? backwards : edges) {
        drop(old, repl);
        // A record "superseded" only by the link just dropped is back in force.
        const adr = adrs.get(old)!;
        if (adr.status === "superseded" && !supersededBy.get(old)?.size) adr.status = "unknown";
      }
      if (round === 0) notes.push(`circular supersession among ${loop.join(", ")}: links to an earlier record were ignored`);
    }
  }
  return notes;
}

/**
 * Tarjan's strongly connected components of the "superseded by" graph, each sorted, in a stable order. Iterative: a
 * chain of thousands of records, each superseding the one before, would overflow the call stack of a recursive walk.
 */
function stronglyConnected(graph: Map<string, Set<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  let next = 0;
  const open = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    return { v, edges: [...(graph.get(v) ?? [])].sort(), at: 0 };
  };
  for (const root of [...graph.keys()].sort()) {
    if (index.has(root)) continue;
    const frames = [open(root)];
    while (frames.length) {
      const f = frames[frames.length - 1];
      if (f.at < f.edges.length) {
        const w = f.edges[f.at++];
        if (!index.has(w)) frames.push(open(w));
        else if (onStack.has(w)) low.set(f.v, Math.min(low.get(f.v)!, index.get(w)!));
        continue;
      }
      frames.pop();
      if (low.get(f.v) === index.get(f.v)) {
        const component: string[] = [];
        for (let w = stack.pop()!; ; w = stack.pop()!) {
          onStack.delete(w);
          component.push(w);
          if (w === f.v) break;
        }
        out.push(component.sort());
      }
      const parent = frames[frames.length - 1];
      if (parent) low.set(parent.v, Math.min(low.get(parent.v)!, low.get(f.v)!));
    }
  }
  return out;
}

/** A reversal in a title: the later decision removes, stops or replaces the earlier one's subject. */
const REVERSAL = /\b(delete|deleting|remove|removing|drop|dropping|deprecate|deprecating|stop|stopping|retire|retiring|sunset|discontinue|abandon|revert|replace|replacing|get rid of|no longer|do not|don't|move away from|instead of)\b/i;
/** A removal in a title: the record takes something away (a replacement or a revert also puts something in its place). */
const REMOVAL = /\b(delete|deleting|remove|removing|drop|dropping|deprecate|deprecating|stop|stopping|retire|retiring|sunset|discontinue|abandon|get rid of|no longer|do not|don't)\b/i;
const GENERIC_TITLE_WORDS = new Set(
  ("use using adopt introduce add make change changes support supporting new handle handling keep move moving switch migrate migration " +
    "decision decisions adr record records architecture approach way strategy implement implementation").split(" "),
);

function subjectWords(title: string): Set<string> {
  return new Set(tokenize(title).filter((w) => w.length > 2 && !GENERIC_TITLE_WORDS.has(w) && !/^\d+$/.test(w)));
}

/** Parts whose first sentence states what a record does: its summary, or its decision. */
const LEAD_HEADING = /^(?:summary|abstract|tl;?\s?dr|synopsis|decision|decision outcome)$/;
/** Words of a lead statement read: about one sentence. */
const LEAD_WORDS = 40;

/** The opening words of a record's summary or decision, "" when it has neither. */
function leadStatement(adr: ParsedAdr): string {
  const part = adr.doc.sections.find((s) => s.level > 0 && LEAD_HEADING.test(headingKey(s.heading)));
  if (!part) return "";
  const body = stripInline(part.body.split("\n").filter((l) => !/^\s*\[[^\]]*\]:/.test(l)).join(" "));
  const sentence = body.split(/(?<=[.!?])\s+(?=[A-Z])/)[0] ?? "";
  return sentence.split(/\s+/).slice(0, LEAD_WORDS).join(" ");
}

/** Date first, then number within one folder: how "later" is decided. Undefined when the two cannot be ordered. */
function isLater(b: AdrFacts, a: AdrFacts): boolean | undefined {
  const day = (x: AdrFacts) => (x.date && /^\d{4}-\d{2}-\d{2}/.test(x.date) ? x.date.slice(0, 10) : undefined);
  const da = day(a) ?? dateFromPath(a.path);
  const db = day(b) ?? dateFromPath(b.path);
  if (da && db && da !== db) return db > da;
  if (a.number !== undefined && b.number !== undefined && a.number !== b.number && logOf(a.path) === logOf(b.path)) return b.number > a.number;
  return undefined;
}

/**
 * The log a record's number counts in: its folder, or for a record filed under a status folder ("withdrawn/",
 * "implemented/", "superseded/") the folder that holds the status folders. A log that sorts its records by status
 * keeps numbering them in one sequence, so record 12 in "accepted/" is later than record 4 in "rejected/".
 */
function logOf(path: string): string {
  const byStatus = statusFromFolder(path);
  if (!byStatus || folderOf(path) !== byStatus.folder) return folderOf(path);
  return folderOf(byStatus.folder);
}

function dateFromPath(path: string): string | undefined {
  const m = /(?:^|\/)(\d{4})-?(\d{2})-?(\d{2})[-_]/.exec(path);
  return m ? `${m[1]}-${m[2]}-${m[3]}` : undefined;
}

function folderOf(path: string): string {
  return path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "";
}

function inferImplicitSupersession(adrs: Map<string, ParsedAdr>, known: Map<string, Set<string>>): [string, string][] {
  const out: [string, string][] = [];
  const list = [...adrs.values()].sort((x, y) => cmp(x.path, y.path));
  const hasSuccessor = (p: string) => (known.get(p)?.size ?? 0) > 0;
  // 1. "Status: Superseded" with no target: the later ADR that links back to it (the latest one if several do).
  for (const old of list) {
    if (old.status !== "superseded" || hasSuccessor(old.path)) continue;
    const backLinks = list.filter((b) => b !== old && isLater(b, old) !== false && linksTo(b, old, adrs));
    const latest = backLinks.sort((x, y) => (isLater(x, y) ? -1 : isLater(y, x) ? 1 : cmp(y.path, x.path)))[0];
    if (latest) out.push([old.path, latest.path]);
  }
  // 2. A later ADR whose title reverses the subject of an earlier one, with the subject rare across the log.
  const subjects = new Map(list.map((a) => [a.path, subjectWords(a.title)]));
  const df = new Map<string, number>();
  for (const words of subjects.values()) for (const w of words) df.set(w, (df.get(w) ?? 0) + 1);
  const rare = (w: string) => (df.get(w) ?? 0) <= 3;
  // Title subject words two records share that few other titles in the log use.
  const sharedRare = (a: ParsedAdr, b: ParsedAdr) => [...subjects.get(a.path)!].filter((w) => subjects.get(b.path)!.has(w) && rare(w));
  for (const later of list) {
    if (!REVERSAL.test(later.title)) continue;
    // What the later record says it removes: its title, and the opening of its summary or decision, which names
    // where from ("Remove Windows support" → "remove Windows support from the lifecycle and the CLI").
    const lead = leadStatement(later);
    const removes = new Set([...subjects.get(later.path)!, ...(REVERSAL.test(lead) ? subjectWords(lead) : [])]);
    for (const old of list) {
      if (old === later || hasSuccessor(old.path) || out.some(([o]) => o === old.path)) continue;
      // A record that itself removes something is not undone by a later removal on its subject: the two agree
      // ("Remove the depth flag from sync", then "Remove the depth flag from status").
      if (old.status === "rejected" || isLater(later, old) !== true || REMOVAL.test(old.title)) continue;
      const shared = sharedRare(later, old);
      const oldSubject = subjects.get(old.path)!;
      // The earlier ADR's subject must be (nearly) all of its title: "Helm chart" → "Delete Helm chart". Words of
      // the lead statement count toward that only beside a rare word the two titles share.
      const covered = shared.length ? [...oldSubject].filter((w) => removes.has(w)) : [];
      if (shared.length >= 1 && Math.max(shared.length, covered.length) >= Math.ceil(oldSubject.size * 0.6)) out.push([old.path, later.path]);
    }
  }
  // 3. Two accepted records with the same title and the same file name past its number: the later one (by date,
  //    else the higher number, as a log that moved its older records to a subfolder keeps counting up) is the current
  //    word on that subject. A title copied onto a record about something else keeps its own file name.
  const byTitle = new Map<string, ParsedAdr[]>();
  for (const a of list) {
    const title = slug(a.title.replace(/^(?:adr|rfc|decision)?[\s#-]*\d+\s*[:.)-]\s*/i, ""));
    const file = adrSlugs(a.path).at(-1) ?? "";
    if (title && (a.status === "accepted" || a.status === "unknown")) byTitle.set(`${title}\0${file}`, [...(byTitle.get(`${title}\0${file}`) ?? []), a]);
  }
  for (const same of byTitle.values()) {
    if (same.length !== 2) continue;
    const [a, b] = same;
    const order = isLater(b, a) ?? (a.number !== undefined && b.number !== undefined && a.number !== b.number ? b.number > a.number : undefined);
    if (order === undefined) continue;
    const [old, later] = order ? [a, b] : [b, a];
    if (!hasSuccessor(old.path) && !out.some(([o]) => o === old.path)) out.push([old.path, later.path]);
  }
  // 4. A later record whose title undoes or replaces an earlier one by number ("Partly undo ADR 109").
  for (const later of list) {
    const m = UNDOES_RECORD.exec(later.title);
    if (!m) continue;
    const target = resolveAdrRef(`ADR-${Number(m[1])}`, later, adrs);
    const old = target ? adrs.get(target) : undefined;
    if (!old || old === later || hasSuccessor(old.path) || out.some(([o]) => o === old.path) || isLater(old, later) === true) continue;
    out.push([old.path, later.path]);
  }
  // 5. A rejected proposal and the later record in force that links to it on the same subject ("Push API", rejected;
  //    "Pull API", accepted, "instead of ADR 100"): the later record holds the decision the rejected one asked for.
  for (const old of list) {
    if (old.status !== "rejected" || hasSuccessor(old.path) || out.some(([o]) => o === old.path)) continue;
    const successors = list.filter((later) => {
      if (later === old || (later.status !== "accepted" && later.status !== "unknown") || isLater(later, old) === false) return false;
      const shared = sharedRare(later, old);
      const smaller = Math.min(subjects.get(later.path)!.size, subjects.get(old.path)!.size);
      return shared.length >= 1 && shared.length >= Math.ceil(smaller * 0.5) && linksTo(later, old, adrs);
    });
    // Only an unambiguous successor: two later records that both answer the proposal leave it as it was.
    if (successors.length === 1) out.push([old.path, successors[0].path]);
  }
  return out;
}

/** A title that undoes, reverts, replaces or supersedes another record named by its number. */
const UNDOES_RECORD = /\b(?:undo(?:es|ing)?|revert(?:s|ing)?|replac(?:e|es|ing)|supersed(?:e|es|ing)|roll(?:s|ing)? back)\s+(?:adr|rfc|decision)[\s_#-]*0*(\d{1,5})\b/i;

/** Whether `from` links to `to`: by path, number ("ADR 008"), file name or slug. */
function linksTo(from: ParsedAdr, to: ParsedAdr, adrs: Map<string, ParsedAdr>): boolean {
  const text = from.doc.lines.join("\n");
  const linkRe = /\]\(\s*<?([^)\s>]+)>?[^)]*\)/g;
  for (let m = linkRe.exec(text); m; m = linkRe.exec(text)) {
    if (resolveAdrRef(m[1], from, adrs) === to.path) return true;
  }
  if (to.number !== undefined && new RegExp(`\\bADR[\\s_#-]*0*${to.number}\\b`, "i").test(text)) {
    return resolveAdrRef(`ADR-${to.number}`, from, adrs) === to.path;
  }
  return false;
}

/** Names an ADR answers to in a link: its file name, that name without a number or date prefix, and for `slug/README.md` the folder. */
function adrSlugs(path: string): string[] {
  const parts = path.toLowerCase().split("/");
  let base = withoutDocExtension(parts.pop()!);
  if ((base === "readme" || base === "index") && parts.length) base = parts.pop()!;
  // "020-locations_requesting" and "020-locations-requesting" are one name: links retype the separators.
  base = base.replace(/_/g, "-");
  const bare = base.replace(/^(?:adr-?)?(?:\d{4}-\d{2}-\d{2}-(?:\d+-)?|\d{8}-|\d+-)/, "");
  return [...new Set([base, bare])];
}

/** The part of a linked file or folder name after its number or date: "0016-compliance-documentation.md" → "compliance-documentation". */
function linkedName(ref: string): string | undefined {
  const [, bare] = adrSlugs(ref.split("#")[0].replace(/\/+$/, ""));
  return bare && /[a-z]{3}/.test(bare) ? bare : undefined;
}

export function resolveAdrRef(ref: string, from: AdrFacts, adrs: Map<string, AdrFacts>): string | undefined {
  if (adrs.has(ref)) return ref;
  if (ref.startsWith(TITLE_REF)) {
    const wanted = slug(ref.slice(TITLE_REF.length));
    const hits = [...adrs.values()].filter((a) => a.path !== from.path && slug(a.title) === wanted);
    return hits.length === 1 ? hits[0].path : undefined;
  }
  const dir = from.path.includes("/") ? from.path.slice(0, from.path.lastIndexOf("/")) : "";
  const all = [...adrs.values()].filter((a) => a.path !== from.path);
  // The number a link carries: "ADR-7", "0007-x.md", a site link "/adr/7", or the folder of "…/007-x/README.md".
  const segments = ref.split("#")[0].replace(/\/+$/, "").split("/");
  const lastName = segments.length > 1 && /^(readme|index)\.(md|markdown|rst|adoc|asciidoc)$/i.test(segments[segments.length - 1]) ? segments[segments.length - 2] : (segments.pop() ?? "");
  const num = new RegExp(String.raw`^(?:${RECORD_PREFIX}[\s_#-]*)?0*(\d{1,6})$`, "i").exec(ref.trim()) ?? /^(?:adr[-_]?)?0*(\d{1,6})(?:[-_]|$)/i.exec(lastName);
  if (num) {
    const n = Number(num[1]);
    const hits = all.filter((a) => a.number === n);
    // A link whose number and name disagree ("[ADR 16](0016-compliance-documentation.md)" where 16 is now another
    // subject, after the log was renumbered) follows the name when exactly one other record bears it.
    const name = linkedName(ref);
    if (name && hits.length && !hits.some((a) => adrSlugs(a.path).includes(name))) {
      const byName = all.filter((a) => adrSlugs(a.path).includes(name));
      if (byName.length === 1) return byName[0].path;
    }
    const sameDir = hits.filter((a) => a.path.startsWith(dir + "/") && !a.path.slice(dir.length + 1).includes("/"));
    // Duplicate numbers (two ADR 0009s) only resolve when the file name says which one.
    const named = (xs: AdrFacts[]) => {
      const name = ref.split("#")[0].split("/").pop();
      const slug = name === undefined ? undefined : withoutDocExtension(name.toLowerCase()).replace(/_/g, "-");
      return slug ? xs.filter((a) => adrSlugs(a.path).includes(slug)) : [];
    };
    if (sameDir.length === 1) return sameDir[0].path;
    if (hits.length === 1) return hits[0].path;
    const byName = named(hits);
    if (byName.length === 1) return byName[0].path;
  }
  const target = ref.split("#")[0].replace(/\/+$/, "");
  const base = target.split("/").pop()?.toLowerCase();
  if (base && DOC_EXTENSION.test(base) && !/^(readme|index)\./.test(base)) {
    const hits = all.filter((a) => a.path.split("/").pop()?.toLowerCase() === base);
    if (hits.length === 1) return hits[0].path;
  }
  // Site links ("/architecture-decisions/records/production-data-in-staging", "../2022-02-14-helm-chart/") by slug.
  const slugs = adrSlugs(target.replace(/\/(readme|index)\.(md|markdown|rst|adoc|asciidoc)$/i, ""));
  if (slugs[0]) {
    const hits = all.filter((a) => adrSlugs(a.path).some((s) => slugs.includes(s)));
    if (hits.length === 1) return hits[0].path;
  }
  return undefined;
}

/** The status the ADR effectively has: an ADR another one supersedes counts as superseded even if it says otherwise. */
function effectiveStatus(adr: AdrFacts, graph: SupersessionGraph): AdrStatus {
  if (INACTIVE_ADR_STATUSES.has(adr.status)) return adr.status;
  return graph.supersededBy.get(adr.path)?.size ? "superseded" : adr.status;
}

// ---------------------------------------------------------------------------------------------------------
// Evidence

function toEvidence(s: Scored, graph: SupersessionGraph): EvidenceItem | undefined {
  const { unit } = s;
  const lines = unit.file.text.split("\n");
  // Never cite a line that is not in the file.
  if (unit.start < 1 || unit.end < unit.start || unit.end > lines.length) return undefined;
  const line_range = { start: unit.start, end: unit.end };
  const excerpt = shorten(lines.slice(unit.start - 1, unit.end).join("\n").trim(), EXCERPT_CHARS);
  const item: EvidenceItem = {
    id: evidenceId({ kind: "internal", path_or_url: unit.file.path, line_range }),
    kind: "internal",
    expert: "docs",
    source_type: unit.file.source_type,
    path_or_url: unit.file.path,
    line_range,
    precision_class: unit.precision,
    title: unit.label,
    excerpt,
    score: s.score,
  };
  if (unit.adr) {
    const adr = unit.adr;
    const status = effectiveStatus(adr, graph);
    item.adr = adrMeta(adr, graph, unit.adrSection);
    if (INACTIVE_ADR_STATUSES.has(status)) {
      item.title = `${unit.label} (${status}${item.adr.supersession_inferred ? ", inferred" : ""})`;
    }
  }
  return item;
}

function adrMeta(adr: AdrFacts, graph: SupersessionGraph, section?: string): AdrMeta {
  const resolve = (refs: string[]) => refs.map((r) => resolveAdrRef(r, adr, graph.adrs) ?? (r.startsWith(TITLE_REF) ? r.slice(TITLE_REF.length) : r));
  const uniq = (xs: string[]) => [...new Set(xs)].sort();
  const number = shownNumber(adr);
  return {
    path: adr.path,
    title: adr.title,
    status: effectiveStatus(adr, graph),
    ...(adr.date ? { date: adr.date } : {}),
    supersedes: uniq([...resolve(adr.supersedes), ...(graph.supersedes.get(adr.path) ?? [])]),
    superseded_by: uniq([...resolve(adr.superseded_by), ...(graph.supersededBy.get(adr.path) ?? [])]),
    considered_options: adr.considered_options,
    ...(adr.chosen_option ? { chosen_option: adr.chosen_option } : {}),
    ...(section ? { section } : {}),
    ...([...graph.inferred].some((k) => k.split("\0").includes(adr.path)) ? { supersession_inferred: true as const } : {}),
    ...(number !== undefined ? { number } : {}),
    ...decisionMeta(adr, effectiveStatus(adr, graph)),
  };
}

/** The decision model's part of the ADR meta; the status shown is the effective one ("no status line" for none). */
function decisionMeta(adr: AdrFacts, status: AdrStatus): Partial<AdrMeta> {
  const d = adr.decision;
  if (!d) return status === "unknown" ? { status_display: "no status line" } : { status_display: status };
  return {
    status_display: status === "unknown" || status === d.status ? d.status_display : status,
    subject: d.subject,
    ...(d.chosen ? { decided_option: d.chosen } : {}),
    ...(d.rejected.length ? { rejected_options: d.rejected } : {}),
  };
}

/**
 * The supersession edges (old, new, inferred) among parsed records alone, without building the docs index: for the
 * decision guard (core/guard/), which needs only which records are out of force. Breaking a loop may put a record
 * back in force; that is written to the parsed records' status, as the docs expert does.
 */
export function supersessionEdgesOf(adrs: ParsedAdr[]): [string, string, boolean][] {
  const graph = supersessionGraph(new Map(adrs.map((a) => [a.path, a])));
  const edges: [string, string, boolean][] = [];
  for (const [old, repl] of graph.supersededBy) for (const r of repl) edges.push([old, r, graph.inferred.has(`${old}\0${r}`)]);
  return edges.sort();
}

/** The supersession graph of an artifact set (diagnostics and tests). */
export async function supersessionOf(artifacts: ExpertContext["artifacts"]): Promise<{ edges: [string, string, boolean][] }> {
  const { graph } = await prepare(artifacts, { signal: new AbortController().signal });
  const edges: [string, string, boolean][] = [];
  for (const [old, repl] of graph.supersededBy) for (const r of repl) edges.push([old, r, graph.inferred.has(`${old}\0${r}`)]);
  return { edges: edges.sort() };
}
