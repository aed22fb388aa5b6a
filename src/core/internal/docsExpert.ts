// The "docs" expert: BM25 over the sections of the discovered artifacts (ADRs, agent instructions, architecture
// docs, contribution guides, canonical files), with priors that encode how much each kind of text should weigh in
// a decision, and a hard supersession rule so an outdated ADR can never outrank the ADR that replaced it.
import { evidenceId, sha256 } from "../hash";
import type { AdrMeta, AdrStatus, EvidenceItem, PrecisionClass, SourceType } from "../schemas";
import type { ArtifactFile, Expert, ExpertContext, ExpertResult } from "../types";
import { parseAdr, type ParsedAdr } from "./adr";
import { parseMarkdown, stripInline } from "./markdown";
import { rankTextSections, type TextSection } from "./sectionIndex";

export const DOCS_MAX_ITEMS = 30;
/** Keeps one long file (a big AGENTS.md) from filling every slot. */
export const DOCS_MAX_ITEMS_PER_FILE = 8;
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

const STATUS_PRIOR: Record<AdrStatus, number> = {
  accepted: 1,
  unknown: 0.9,
  proposed: 0.8,
  superseded: 0.4,
  deprecated: 0.4,
  rejected: 0.4,
};

/** One citable passage: a real, 1-based inclusive line range of one artifact. */
interface Unit extends TextSection {
  file: ArtifactFile;
  start: number;
  end: number;
  precision: PrecisionClass;
  label: string;
  prior: number;
  adr?: ParsedAdr;
  /** ADR section name ("decision", "pros-and-cons: Zustand", …). */
  adrSection?: string;
}

interface Scored {
  unit: Unit;
  score: number;
}

export function createDocsExpert(): Expert {
  return {
    name: "docs",
    kind: "internal",
    run: async (ctx) => runDocsExpert(ctx),
  };
}

export async function runDocsExpert(ctx: Pick<ExpertContext, "plan" | "config" | "artifacts" | "signal"> & Partial<Pick<ExpertContext, "log">>): Promise<ExpertResult> {
  const { artifacts, plan, config } = ctx;
  if (artifacts.files.length === 0) {
    const globs = [...config.adrGlobs, ...config.conventionGlobs];
    const shown = globs.slice(0, 6).join(", ") + (globs.length > 6 ? `, … (${globs.length} globs)` : "");
    return { status: "empty", reason: `no ADRs, architecture docs or agent instructions found (globs: ${shown})`, items: [] };
  }
  const terms = plan.terms.filter((t) => t.trim());
  const expansions = plan.expansions.filter((t) => t.trim());
  if (terms.length === 0 && expansions.length === 0) return { status: "empty", reason: "the query plan has no terms", items: [] };

  const { units, graph, unitsByPath } = await prepare(artifacts, ctx);
  const ranked = rankTextSections(units, terms, expansions);
  if (ranked.length === 0) {
    return { status: "empty", reason: `no artifact section matched the terms: ${[...terms, ...expansions].join(", ")}`, items: [] };
  }

  let scored: Scored[] = ranked.map((r) => ({
    unit: r.section,
    score: r.score * r.section.prior * statusPrior(r.section, graph),
  }));
  scored = enforceSupersession(scored, unitsByPath, graph);
  // Round before sorting so the reported scores and the order agree exactly (ties fall to path, then line).
  for (const s of scored) s.score = Math.round(s.score * 1e6) / 1e6;

  // Sort, cap per file, cap overall. Capping only drops the tail, so the supersession order survives it.
  scored.sort(compareScored);
  const perFile = new Map<string, number>();
  const kept: Scored[] = [];
  for (const s of scored) {
    const n = perFile.get(s.unit.file.path) ?? 0;
    if (n >= DOCS_MAX_ITEMS_PER_FILE) continue;
    perFile.set(s.unit.file.path, n + 1);
    kept.push(s);
    if (kept.length >= DOCS_MAX_ITEMS) break;
  }

  const items = kept.map((s) => toEvidence(s, graph)).filter((i): i is EvidenceItem => i !== undefined);
  if (!items.length) return { status: "empty", reason: "no matched section had a citable line range", items: [] };
  return { status: "ok", items };
}

interface Prepared {
  units: Unit[];
  graph: SupersessionGraph;
  unitsByPath: Map<string, Unit[]>;
}

/**
 * Parsed units and the supersession graph depend only on the artifact set, so they (and the search index built
 * over `units`) are kept per artifact_set_hash: the second question against the same docs skips parsing and
 * indexing. Two sets are kept, enough for a workspace switching between folders.
 */
const prepared = new Map<string, Prepared>();
const PREPARED_SETS = 2;

async function prepare(artifacts: ExpertContext["artifacts"], ctx: Pick<ExpertContext, "signal"> & Partial<Pick<ExpertContext, "log">>): Promise<Prepared> {
  // Keyed on the files' own paths and content hashes, so a caller-supplied set hash is never trusted blindly.
  const key = sha256(artifacts.files.map((f) => `${f.path}\0${f.source_type}\0${f.hash}`).join("\n"));
  const hit = prepared.get(key);
  if (hit) return hit;
  // Build the citable units, file by file (sorted by path already, which keeps the index deterministic).
  const units: Unit[] = [];
  const adrs = new Map<string, ParsedAdr>();
  for (const [i, file] of artifacts.files.entries()) {
    ctx.signal?.throwIfAborted();
    // Let concurrent experts (git's child processes) make progress while this CPU-bound loop runs.
    if (i % 200 === 199) await new Promise((r) => setImmediate(r));
    if (file.source_type === "adr") {
      const adr = parseAdr(file.path, file.text);
      adrs.set(file.path, adr);
      for (const w of adr.warnings) ctx.log?.(`docs: ${file.path}: ${w}`);
      units.push(...adrUnits(file, adr));
    } else {
      units.push(...docUnits(file));
    }
  }
  const unitsByPath = new Map<string, Unit[]>();
  for (const u of units) {
    const list = unitsByPath.get(u.file.path);
    if (list) list.push(u);
    else unitsByPath.set(u.file.path, [u]);
  }
  const result = { units, graph: supersessionGraph(adrs), unitsByPath };
  prepared.set(key, result);
  while (prepared.size > PREPARED_SETS) prepared.delete(prepared.keys().next().value!);
  return result;
}

function compareScored(a: Scored, b: Scored): number {
  return b.score - a.score || cmp(a.unit.file.path, b.unit.file.path) || a.unit.start - b.unit.start;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

// ---------------------------------------------------------------------------------------------------------
// Units

function adrUnits(file: ArtifactFile, adr: ParsedAdr): Unit[] {
  const out: Unit[] = [];
  const { sections } = adr.doc;
  sections.forEach((s, i) => {
    const name = adr.section_names[i];
    if (!s.body.trim()) return; // a heading whose content lives in its subsections
    // The title block holds only metadata lines (date, status) that the AdrMeta already carries.
    if (name === "title" || name === "preamble") return;
    const prior =
      SOURCE_PRIOR.adr *
      (ADR_SECTION_PRIOR[name] ?? (name.startsWith("pros-and-cons: ") ? ADR_OPTION_SECTION_PRIOR : ADR_OTHER_SECTION_PRIOR));
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
      adr,
      adrSection: name,
    });
  });
  if (out.length === 0) out.push(wholeFileUnit(file, adrLabel(adr), SOURCE_PRIOR.adr, adr));
  return out;
}

function adrLabel(adr: ParsedAdr): string {
  return `ADR${adr.number !== undefined ? ` ${adr.number}` : ""}: ${adr.title}`;
}

/** Agent instructions and contribution guides cite rule by rule; other docs section by section; code whole. */
function docUnits(file: ArtifactFile): Unit[] {
  const prior = SOURCE_PRIOR[file.source_type] ?? 1;
  const name = file.path.split("/").pop() ?? file.path;
  const isMarkdown = /\.(md|markdown|mdc|txt)$/i.test(file.path) || file.source_type !== "canonical-file";
  if (!isMarkdown) return [wholeFileUnit(file, file.path, prior)];

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

function wholeFileUnit(file: ArtifactFile, label: string, prior: number, adr?: ParsedAdr): Unit {
  const lines = file.text.split("\n");
  let end = lines.length;
  while (end > 1 && lines[end - 1].trim() === "") end--;
  return { file, start: 1, end, precision: "document", heading: "", title: label, body: file.text, label, prior, adr, adrSection: adr ? "document" : undefined };
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
  adrs: Map<string, ParsedAdr>;
}

/** Resolves both directions of every supersession link to known ADR paths (by path, number or file name). */
function supersessionGraph(adrs: Map<string, ParsedAdr>): SupersessionGraph {
  const supersededBy = new Map<string, Set<string>>();
  const supersedes = new Map<string, Set<string>>();
  const add = (old: string, replacement: string) => {
    if (old === replacement) return;
    if (!supersededBy.has(old)) supersededBy.set(old, new Set());
    if (!supersedes.has(replacement)) supersedes.set(replacement, new Set());
    supersededBy.get(old)!.add(replacement);
    supersedes.get(replacement)!.add(old);
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
  return { supersededBy, supersedes, adrs };
}

export function resolveAdrRef(ref: string, from: ParsedAdr, adrs: Map<string, ParsedAdr>): string | undefined {
  if (adrs.has(ref)) return ref;
  const dir = from.path.includes("/") ? from.path.slice(0, from.path.lastIndexOf("/")) : "";
  const all = [...adrs.values()].filter((a) => a.path !== from.path);
  const num = /^(?:ADR[\s_#-]*)?0*(\d+)$/i.exec(ref.trim()) ?? /^0*(\d+)[-_]/.exec(ref.split("/").pop() ?? "");
  if (num) {
    const n = Number(num[1]);
    const hits = all.filter((a) => a.number === n);
    const sameDir = hits.filter((a) => a.path.startsWith(dir + "/") && !a.path.slice(dir.length + 1).includes("/"));
    if (sameDir.length === 1) return sameDir[0].path;
    if (hits.length === 1) return hits[0].path;
  }
  const base = ref.split("#")[0].split("/").pop()?.toLowerCase();
  if (base && /\.(md|markdown)$/.test(base)) {
    const hits = all.filter((a) => a.path.split("/").pop()?.toLowerCase() === base);
    if (hits.length === 1) return hits[0].path;
  }
  return undefined;
}

/** The status the ADR effectively has: an ADR another one supersedes counts as superseded even if it says otherwise. */
function effectiveStatus(adr: ParsedAdr, graph: SupersessionGraph): AdrStatus {
  if (adr.status === "superseded" || adr.status === "deprecated" || adr.status === "rejected") return adr.status;
  return graph.supersededBy.get(adr.path)?.size ? "superseded" : adr.status;
}

function statusPrior(unit: Unit, graph: SupersessionGraph): number {
  return unit.adr ? STATUS_PRIOR[effectiveStatus(unit.adr, graph)] : 1;
}

/**
 * The hard rule: every section of a superseded ADR ranks below every ranked section of the ADR that supersedes it.
 * When the superseding ADR's Decision (or Decision Outcome) did not match, it is pulled in just above the
 * superseded ADR's best section, so the replacement decision is always cited next to the outdated one. Superseded
 * sections are then capped below the replacement's lowest section. Repeats until stable, for chains (A → B → C).
 */
function enforceSupersession(scored: Scored[], unitsByPath: Map<string, Unit[]>, graph: SupersessionGraph): Scored[] {
  const out = [...scored];
  const edges = [...graph.supersededBy.entries()].flatMap(([old, repl]) => [...repl].sort().map((r) => [old, r] as const)).sort();
  // Scored sections grouped by file, kept in step with `out` (one pass instead of a filter per edge and round).
  const scoredByPath = new Map<string, Scored[]>();
  for (const s of out) {
    const list = scoredByPath.get(s.unit.file.path);
    if (list) list.push(s);
    else scoredByPath.set(s.unit.file.path, [s]);
  }
  const byPath = (p: string) => scoredByPath.get(p) ?? [];
  for (let round = 0; round < 10; round++) {
    let changed = false;
    for (const [old, repl] of edges) {
      const olds = byPath(old);
      if (!olds.length) continue;
      const maxOld = Math.max(...olds.map((s) => s.score));
      let news = byPath(repl);
      if (!news.some((s) => isDecisionSection(s.unit))) {
        const decision = pickDecisionUnit(unitsByPath.get(repl) ?? []);
        if (decision && !news.some((s) => s.unit === decision)) {
          const pulled = { unit: decision, score: maxOld * 1.05 };
          out.push(pulled);
          scoredByPath.set(repl, [...news, pulled]);
          news = byPath(repl);
          changed = true;
        }
      }
      if (!news.length) continue;
      const floor = Math.min(...news.map((s) => s.score));
      for (const s of olds) {
        if (s.score >= floor) {
          s.score = floor * 0.98;
          changed = true;
        }
      }
    }
    if (!changed) break;
  }
  return out;
}

function isDecisionSection(u: Unit): boolean {
  return u.adrSection === "decision" || u.adrSection === "decision-outcome";
}

function pickDecisionUnit(own: Unit[]): Unit | undefined {
  return own.find((u) => u.adrSection === "decision") ?? own.find((u) => u.adrSection === "decision-outcome") ?? own.find((u) => u.precision === "document");
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
    if (status === "superseded" || status === "deprecated" || status === "rejected") item.title = `${unit.label} (${status})`;
  }
  return item;
}

function adrMeta(adr: ParsedAdr, graph: SupersessionGraph, section?: string): AdrMeta {
  const resolve = (refs: string[]) => refs.map((r) => resolveAdrRef(r, adr, graph.adrs) ?? r);
  const uniq = (xs: string[]) => [...new Set(xs)].sort();
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
  };
}
