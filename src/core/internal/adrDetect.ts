// Recognises Architecture Decision Records by what they are, not where a default glob expects them: the folder an
// adr-tools `.adr-dir` or a log4brains `.log4brains.yml` names, numbered or dated file names, ADR headings and a
// front-matter status. Pure functions over paths and text; discovery does the I/O.
import { posix } from "node:path";
import matter from "gray-matter";
import { withoutDocExtension } from "./lightMarkup";

/** How an ADR folder was found; shown in the discovery stage's status. */
export type AdrFolderSource = ".adr-dir" | ".log4brains.yml" | "content" | "setting" | "folder name";

export interface AdrFolderHint {
  /** Workspace-relative folder, forward slashes, no trailing slash ("" for the root). */
  dir: string;
  via: AdrFolderSource;
}

/** `.adr-dir` holds one relative folder path (adr-tools). */
export function parseAdrDirFile(body: string): string | undefined {
  const line = body.split(/\r?\n/).map((l) => l.trim()).find((l) => l && !l.startsWith("#"));
  return line ? normaliseDir(line) : undefined;
}

/** `.log4brains.yml`: `project.adrFolder`. Parsed as YAML (through gray-matter's parser); junk gives undefined. */
export function parseLog4brainsFile(body: string): string | undefined {
  try {
    const data = matter(`---\n${body}\n---\n`).data as { project?: { adrFolder?: unknown } };
    const folder = data?.project?.adrFolder;
    return typeof folder === "string" ? normaliseDir(folder) : undefined;
  } catch {
    return undefined;
  }
}

/** "./docs/adr/" → "docs/adr"; anything escaping the root or absolute → undefined. */
export function normaliseDir(raw: string): string | undefined {
  const trimmed = raw.trim().replace(/\\/g, "/");
  if (!trimmed || trimmed.startsWith("/") || /^[a-z]:/i.test(trimmed)) return undefined;
  const n = posix.normalize(trimmed).replace(/\/+$/, "");
  if (n === "." ) return "";
  if (n === ".." || n.startsWith("../")) return undefined;
  return n;
}

// ---------------------------------------------------------------------------------------------------------
// Names

// "0005-x.md", "adr-0005-x.md", and an RFC process's own prefix: "rfc-045-x.md", "tep-0100-x.md" (a short prefix, so
// "v2-notes.md" is no record).
const NUMBERED = /^(?:[a-z]{2,5}[-_ ]?)?\d{1,5}[-_. ][^/]*\.(?:md|markdown|rst|adoc|asciidoc)$/i;
// "202012-receive-split.md": a year and month are a date too.
const DATED = /^(?:\d{4}-\d{2}-\d{2}|\d{8}|(?:19|20)\d{2}(?:0[1-9]|1[0-2]))[-_][^/]*\.(?:md|markdown|rst|adoc|asciidoc)$/i;
// "2024-03-01-use-x/", and a year alone before a name: "designs/2019-config-simplification/".
const DATED_FOLDER = /^(?:\d{4}-\d{2}-\d{2}|\d{8}|(?:19|20)\d{2}(?=[-_][a-z]))[-_].+$/i;
// "rfd/0042/README.md", "rfcs/rfc-42/README.md", "jep/228/README.adoc": one numbered folder per record (a short prefix
// and a number, a zero-padded number, or a bare number that is not a year; a version folder such as "v2" or "1.4" is
// no record).
const NUMBERED_FOLDER = /^(?:(?:[a-z]{2,5}[-_]?\d{1,5}|0\d{2,4})(?:[-_][^/]+)?|(?!(?:19|20)\d{2}$)[1-9]\d{0,4})$/i;
const FOLDER_DOC = /^(?:readme|index)\.(?:md|markdown|rst|adoc|asciidoc)$/i;

/**
 * The ADR-shaped part of a path: `0005-x.md`, `adr-0005-x.md`, `ADR-0005-x.md`, `2024-03-01-x.md`, `20240301-x.md`,
 * `2024-03-01-x/README.md`, `rfd/0042/README.md`.
 */
export function adrNameSignal(path: string): "numbered" | "dated" | "dated-folder" | "numbered-folder" | undefined {
  const base = posix.basename(path);
  if (DATED.test(base)) return "dated";
  if (NUMBERED.test(base) && !/^\d+\.\d+/.test(base)) return "numbered";
  if (FOLDER_DOC.test(base)) {
    const parent = posix.basename(posix.dirname(path));
    if (DATED_FOLDER.test(parent)) return "dated-folder";
    if (NUMBERED_FOLDER.test(parent)) return "numbered-folder";
  }
  return undefined;
}

/**
 * A folder whose very name says it holds decision records ("decisionrecords", "decision-records",
 * "architecture_decisions", "adrs", "proposals-accepted"): every page in it is a record, whatever shape each one has. Folders that only say
 * "design" or "architecture" hold other documents too, so they do not count.
 */
const RECORD_FOLDER = /^(?:adrs?|decisions|(?:architecture|architectural|design|technical|tech)?[-_ ]?decision[-_ ]?(?:records?|logs?)|(?:architecture|architectural|design)[-_ ]?decisions|(?:design[-_ ]?)?proposals[-_ ](?:accepted|approved|done|implemented|completed?|rejected|declined|withdrawn|deferred|archived|superseded|deprecated))$/i;

/** A single page that is a log of decisions by its name: `DECISIONS.md`, `DEVELOPMENT_DECISION_RECORDS.md`, `decision-log.md`. */
const RECORD_FILE = /^(?:[a-z]+[-_ ])?(?:decisions|decision[-_ ]?(?:records?|logs?))$/i;

export function inRecordFolder(path: string): boolean {
  const parts = path.split("/");
  if (RECORD_FILE.test(withoutDocExtension(parts[parts.length - 1]))) return true;
  return parts.slice(0, -1).some((dir) => RECORD_FOLDER.test(dir));
}

/**
 * The folder that holds a set of ADRs: the file's own folder, or for one-folder-per-ADR layouts
 * (`records/2024-03-01-x/README.md`) the folder above.
 */
export function adrFolderOf(path: string): string {
  const dir = posix.dirname(path);
  const signal = adrNameSignal(path);
  const folder = signal === "dated-folder" || signal === "numbered-folder" ? posix.dirname(dir) : dir;
  return folder === "." ? "" : folder;
}

/**
 * Templates and examples are never decisions: by folder, or by a template name on a file that is not numbered or
 * dated, or is numbered zero ("0000-rfc-template.md": the log's first entry is its template).
 */
export function isTemplatePath(path: string): boolean {
  const lower = path.toLowerCase();
  // "templates/", "_template/", "jep-template/0000/README.adoc": a folder named for templates or examples.
  if (lower.split("/").slice(0, -1).some((dir) => /^(?:[._]|[\w.]*[-_.])?(?:templates?|examples?)$/.test(dir))) return true;
  const base = posix.basename(lower);
  return /(^|[-_.])template([-_.]|$)/.test(base) && (!adrNameSignal(path) || /^0+[-_]/.test(base));
}

// "{short title of solved problem}", "{proposed | accepted | …}", "[describe the context]", "<status>": prose
// placeholders, not code (no quotes, colons or nested braces inside).
const PLACEHOLDER = /\{[A-Za-z][A-Za-z0-9,/….'’()-]*[ |][A-Za-z0-9 ,|/….'’()-]{1,120}\}|\[(?:short title|title of|describe|insert|add)[^\]\n]{0,80}\](?!\()|<(?:short title|title|status|date|name)>/g;

/** A template filled with placeholders rather than a decision (code blocks are not read). */
export function looksLikeTemplate(text: string): boolean {
  let inFence = false;
  let hits = 0;
  for (const line of text.slice(0, 8000).split("\n")) {
    if (/^ {0,3}(`{3,}|~{3,})/.test(line)) inFence = !inFence;
    if (inFence) continue;
    hits += line.replace(/`[^`]*`/g, "").match(PLACEHOLDER)?.length ?? 0;
    if (hits >= 3) return true;
  }
  return false;
}

// ---------------------------------------------------------------------------------------------------------
// Content

export interface AdrContentSignals {
  /** Level ≥ 1 headings normalised: "status", "context", "decision", "consequences", "considered-options", "decision-outcome", … */
  headings: Set<string>;
  frontMatterStatus: boolean;
  statusLine: boolean;
  /** "# ADR 0004 - Static asset pipeline", "# 5. Use X" */
  adrTitle: boolean;
  /** Share of non-blank lines that are links or list items of links (an index page). */
  linkListShare: number;
  /** How many distinct parts of an RFC-style proposal it has as headings: summary, motivation, proposal, alternatives, … */
  rfcParts: number;
}

const HEADING = /^ {0,3}#{1,6}\s+(.+?)\s*#*\s*$/;
/**
 * A status line's key, up to its colon: "Status:", "- **Status**:", and with the kind of document named first ("RFC
 * Status:", "ADR status:"). One pattern for discovery, parseAdr and the decision model's status reading.
 */
/**
 * A heading that names the record's status: "Status", "Status: Accepted", "Status (draft)", "Status and date",
 * "Status of this document". Not "Status quo" (the option of changing nothing) nor a section about some other
 * status ("Status updates", "Status codes"): its first line is prose, not the record's status.
 */
export const STATUS_HEADING = /^status(?:$|\s*[:(|\u2013\u2014-]|\s+(?:and|of|&)\b)/;
export const STATUS_KEY = String.raw`^\s*(?:[-*+]\s+)?(?:\*\*|__)?(?:(?:rfc|rfd|adr|decision|proposal|record|document)\s+)?status(?:\*\*|__)?\s*:`;
const STATUS_LINE = new RegExp(STATUS_KEY, "i");
/** A metadata table's status row: "| Status | Accepted |". */
const STATUS_TABLE_ROW = /^\s*\|\s*(?:\*\*|__)?status(?:\*\*|__)?\s*\|\s*\S/i;

/** The parts of an RFC-style proposal (Rust, Python, Bytecode Alliance templates), by the heading's own words. */
const RFC_PART = /^(?:summary|motivation|(?:the\s+)?proposal|(?:detailed|technical|proposed)\s+design|design|guide-level explanation|reference-level explanation|(?:rationale(?:\s+and\s+|\s*,\s*)?)?alternatives(?:\s+considered)?|rationale|drawbacks|prior art|(?:unresolved|open) questions|future possibilities)$/;

function rfcPartOf(raw: string): string | undefined {
  // "Proposal: Winch, a baseline compiler", "Motivation: awkward extractors": the part is named before the colon.
  const h = raw.replace(/[*_`]/g, "").toLowerCase().replace(/^\d+(\.\d+)*[.)]?\s+/, "").replace(/\s*:.*$/, "").replace(/\s*\([^()]*\)\s*$/, "").replace(/[.]+$/, "").trim();
  if (!RFC_PART.test(h)) return undefined;
  return /alternatives/.test(h) ? "alternatives" : /design|explanation|proposal/.test(h) ? "design" : /questions/.test(h) ? "questions" : h;
}

function headingKey(raw: string): string | undefined {
  // "Problem Statement (Step 1)": a stage or note in brackets after the heading's words does not change the part.
  const h = raw
    .replace(/[*_`]/g, "")
    .toLowerCase()
    .replace(/^\d+(\.\d+)*[.)]?\s+/, "")
    .replace(/\s*\([^()]*\)\s*$/, "")
    .replace(/[:.]+$/, "")
    .trim();
  if (STATUS_HEADING.test(h)) return "status";
  if (/^(context( and problem statement)?|problem statement|background|problem|motivation)$/.test(h)) return "context";
  if (/^(considered options|options considered|options|alternatives( considered)?)$/.test(h)) return "considered-options";
  if (/^decision outcome$/.test(h)) return "decision-outcome";
  if (/^(decision|the decision|proposed decision)$/.test(h)) return "decision";
  if (/^(consequences|positive consequences|negative consequences|implications)$/.test(h)) return "consequences";
  if (/^(decision drivers)$/.test(h)) return "decision-drivers";
  if (/^(rationale|justification)$/.test(h)) return "rationale";
  return undefined;
}

export function contentSignals(text: string): AdrContentSignals {
  const lines = text.slice(0, 64 * 1024).split("\n");
  const headings = new Set<string>();
  let inFence = false;
  let adrTitle = false;
  let statusLine = false;
  let nonBlank = 0;
  let linkLines = 0;
  let frontMatterStatus = false;
  const rfcParts = new Set<string>();
  let start = 0;
  if (lines[0]?.trim() === "---") {
    const close = lines.findIndex((l, i) => i > 0 && (l.trim() === "---" || l.trim() === "..."));
    if (close > 0) {
      frontMatterStatus = lines.slice(1, close).some((l) => /^(?:status|state)\s*:/i.test(l.trim()));
      start = close + 1;
    }
  }
  for (let i = start; i < lines.length; i++) {
    const line = lines[i];
    if (/^ {0,3}(`{3,}|~{3,})/.test(line)) inFence = !inFence;
    if (inFence) continue;
    if (!line.trim()) continue;
    nonBlank++;
    if (/^\s*(?:[-*+]|\d+[.)])?\s*\[[^\]]+\]\([^)]+\)\s*[.,;]?\s*$/.test(line) || /^\s*\|.*\]\(.*\|\s*$/.test(line)) linkLines++;
    const h = HEADING.exec(line);
    if (h) {
      const key = headingKey(h[1]);
      if (key) headings.add(key);
      const part = rfcPartOf(h[1]);
      if (part) rfcParts.add(part);
      // "# ADR 0004 - …", "# 5. Use X", the RFC processes' own "# RFD 2 …", "# TEP-0100: …", and any process's
      // acronym and number before a colon ("# JEP-228: …").
      if (/^ {0,3}#\s+(?:ADR[\s_#-]*\d+|\d{1,5}\s*[.:)\-–—])/i.test(line) || /^ {0,3}#\s+(?:(?:RFD|RFC|TEP|KEP|OTEP|PEP|AIP)[\s_#-]*\d+\b|[A-Z]{2,5}-\d{1,5}:)/.test(line)) adrTitle = true;
      continue;
    }
    if (STATUS_LINE.test(line) || STATUS_TABLE_ROW.test(line)) statusLine = true;
  }
  return { headings, frontMatterStatus, statusLine, adrTitle, linkListShare: nonBlank ? linkLines / nonBlank : 0, rfcParts: rfcParts.size };
}

/** At least this many RFC parts (summary, motivation, proposal, alternatives) make a page an RFC-style proposal. */
const RFC_PARTS_MIN = 3;

/** Whether the text is laid out as an RFC-style proposal: a summary, a motivation and a design or alternatives. */
export function rfcShaped(s: AdrContentSignals): boolean {
  return s.rfcParts >= RFC_PARTS_MIN;
}

/**
 * Whether the text reads as a decision record on its own: a decision heading plus another ADR heading, the MADR
 * trio, or a status (front matter or line) next to a decision or context heading.
 */
export function strongAdrContent(s: AdrContentSignals): boolean {
  const h = s.headings;
  const decision = h.has("decision") || h.has("decision-outcome");
  const companions = ["status", "context", "consequences", "considered-options", "decision-drivers"].filter((k) => h.has(k)).length;
  if (decision && companions >= 1) return true;
  if ((s.frontMatterStatus || s.statusLine || h.has("status")) && (decision || h.has("context"))) return true;
  return false;
}

/**
 * Weaker evidence that a numbered or dated file is an ADR: any ADR heading, a status, an "ADR N" title, or the
 * layout of an RFC-style proposal (a numbered proposal is an entry of its log, status line or not).
 */
export function weakAdrContent(s: AdrContentSignals): boolean {
  return s.adrTitle || s.frontMatterStatus || s.statusLine || s.headings.size > 0 || rfcShaped(s);
}

/** An index or README that mostly lists links (to ADRs): never a decision itself. */
export function isIndexPage(path: string, s: AdrContentSignals): boolean {
  const base = posix.basename(path).toLowerCase();
  const named = /^(readme|index|toc|summary|_sidebar|adr-index|decisions?)\.(md|markdown|rst|adoc|asciidoc)$/.test(base);
  if (s.headings.has("decision") || s.headings.has("decision-outcome")) return false;
  return named || s.linkListShare >= 0.5;
}
