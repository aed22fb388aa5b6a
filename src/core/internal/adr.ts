// Architecture Decision Record parsing for the three formats found in the wild: Nygard / adr-tools, MADR 2–4 and
// log4brains (MADR with front matter and date-prefixed file names). Pure: no file system access, so supersession
// targets are resolved lexically against the ADR's folder; the caller matches them against the files it knows.
import { posix } from "node:path";
import type { AdrStatus, LineRange } from "../schemas";
import { frontMatterString, parseMarkdown, stripInline, type MarkdownDoc, type MarkdownSection } from "./markdown";
import { STATUS_HEADING, STATUS_KEY } from "./adrDetect";
import { splitSentences } from "../text";
import { DOC_EXTENSION, withoutDocExtension } from "./lightMarkup";

/** Canonical names of the ADR sections we recognise; other headings are keyed by their slug. */
export type AdrSectionName =
  | "title"
  | "status"
  | "context"
  | "decision-drivers"
  | "considered-options"
  | "decision"
  | "decision-outcome"
  | "consequences"
  | "positive-consequences"
  | "negative-consequences"
  | "pros-and-cons"
  | "links"
  | "more-information";

export interface AdrOptionSection {
  /** The option's heading text as written (the key in `option_sections`). */
  name: string;
  range: LineRange;
  /** Lines starting "Good, because" / "Pro" and "Bad, because" / "Con". */
  pros: LineRange[];
  cons: LineRange[];
}

export interface ParsedAdr {
  path: string;
  format: "nygard" | "madr" | "log4brains";
  /** Title without any "N. " / "ADR-0005:" prefix. */
  title: string;
  number?: number;
  status: AdrStatus;
  /** The status text as written, e.g. "Superseded by [5. …](…)". */
  raw_status?: string;
  date?: string;
  /** Workspace-relative paths when a link target resolves inside the workspace, else the raw reference. */
  supersedes: string[];
  superseded_by: string[];
  considered_options: string[];
  chosen_option?: string;
  /** Nested line range (heading through subsections) of each recognised section. */
  sections: Partial<Record<AdrSectionName, LineRange>>;
  /** Per-option subsections of "Pros and Cons of the Options", keyed by option name. */
  option_sections: Record<string, AdrOptionSection>;
  /** The ADR section name of each markdown section, index-aligned with `doc.sections`. */
  section_names: string[];
  doc: MarkdownDoc;
  warnings: string[];
}

const SECTION_PATTERNS: [AdrSectionName, RegExp][] = [
  ["status", STATUS_HEADING],
  ["context", /^(context( and problem statement)?|problem statement|background|context and problem)$/],
  ["decision-drivers", /^decision drivers$/],
  ["considered-options", /^(considered options|options considered|options)$/],
  ["decision-outcome", /^decision outcome$/],
  // RFCs conclude under their own names: "Conclusion", "Resolution", "Outcome", "Option Chosen".
  ["decision", /^(?:decision|the decision|conclusions?|resolution|outcome|(?:option|solution|approach) chosen|chosen (?:option|solution|approach))$/],
  ["positive-consequences", /^positive consequences$/],
  ["negative-consequences", /^negative consequences$/],
  ["consequences", /^consequences$/],
  ["pros-and-cons", /^pros and cons( of the options)?$/],
  ["links", /^links$/],
  ["more-information", /^more information$/],
];

export function sectionKey(heading: string): string | undefined {
  const h = heading
    .toLowerCase()
    .replace(/^\d+(\.\d+)*[.)]?\s+/, "")
    .replace(/(?<![:.])[:.]+$/, "")
    .trim();
  for (const [name, re] of SECTION_PATTERNS) if (re.test(h)) return name;
  return undefined;
}

export function slug(s: string): string {
  return s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|(?<!-)-+$/g, "");
}

const STATUS_WORD = "(?:proposed|accepted|rejected|deprecated|superseded|draft|approved|withdrawn|declined|in review)";
/** Only status words, two or more, joined by "or", "|" or "/": a menu to pick from, not a status ("Proposed, Accepted" may be a history). */
const STATUS_MENU = new RegExp(`^[\\s>*_\\[(]*${STATUS_WORD}(?:\\s*(?:\\||/|\\bor\\b)\\s*${STATUS_WORD})+[\\s.*_\\])]*$`);

/**
 * A status in brackets at either end of a title, and nothing else in them: "X (not implemented)", "[Deprecated] X".
 * "X (deprecation of Y)" says what the record does, not its status.
 */
const TITLE_STATUS_WORDS = String.raw`(?:status:?\s*)?(?:not implemented|not accepted|rejected|declined|withdrawn|abandoned|superseded|replaced|deprecated|obsolete|archived|retired)(?:\s+(?:by|with)\s+[^\])]{1,40})?`;
const TITLE_STATUS = new RegExp(String.raw`^\s*[[(](${TITLE_STATUS_WORDS})[\])]|[[(](${TITLE_STATUS_WORDS})[\])]\s*$`, "i");

/** Maps free-form status text to the schema's enum. "Superseded by …" wins over any other word on the line. */
export function normaliseStatus(raw: string): AdrStatus {
  // "Proposed; accepting feedback", "open for comments": taking comments is no acceptance of the decision.
  // "Approved <!-- Acceptable values: Draft, Approved, Superseded -->": a template's comment is no status.
  const s = stripInline(raw.replace(/<!--[\s\S]*?(?:-->|$)/g, " "))
    .toLowerCase()
    .replace(/\baccepting (?:feedback|comments|input|suggestions|reviews?|contributions|questions)\b/g, " ");
  // A template's menu of statuses ("{proposed | accepted | … | superseded by ADR-0123}") is no status at all.
  if (/\{[^}]*\|[^}]*\}?/.test(s) && /\|/.test(s)) return "unknown";
  // So is a template's prompt left in place: "> Accepted or Rejected", "Proposed / Accepted / Deprecated".
  if (STATUS_MENU.test(s)) return "unknown";
  if (/\bsupe(r|rs)?[cs]eded\b|\breplaced (?:by|with)\b|\boverridden by\b|\bobsolete/.test(s)) return "superseded";
  // "Reverted" and "rolled back": in force once, taken back since.
  if (/\bdeprecat|\bdepreciated\b|\barchived\b|\bretired\b|\breverted\b|\brolled back\b|\bto[ _-]be[ _-](?:deleted|removed)\b/.test(s)) return "deprecated";
  // "Not implemented" (never built, as opposed to "not yet implemented") is no acceptance.
  if (/\breject|\bdeclined\b|\bwithdrawn\b|\babandoned\b|\bnot (?:been )?(?:implemented|accepted|adopted|approved)\b/.test(s)) return "rejected";
  // The RFC processes' own words: KEP "implementable" (approved to build) and "provisional", PEP "final" and
  // "informational" (describes what is in force; proposes nothing), an RFD's "publish" (discussion concluded, the
  // document stands) and "predraft".
  if (/\baccept|\bapproved\b|\badopted\b|\bdecided\b|\bdone\b|\bcompleted?\b|\bimplemented\b|\bimplementable\b|\bactive\b|\bfinal\b|\binformational\b|\bagreed\b|\bratified\b|\bpublish(?:ed)?\b|\bready for implementation\b/.test(s)) return "accepted";
  if (/\bpropos|\bprovisional\b|\bprototyp|\b(?:pre-?)?draft\b|\bopen\b|\bpending\b|\b(?:in |under )?review\b|\bwip\b|\bdiscussion\b|\bon hold\b|\bpostponed\b|\bdeferred\b|\btbd\b|\bundecided\b/.test(s)) return "proposed";
  // Being built ("Implementing", "Implementation", "In progress"): decided, after any word that says it is not yet.
  if (/\bimplementing\b|\bimplementation\b|\bin[ -]progress\b|\bin dev(?:elopment)?\b/.test(s)) return "accepted";
  return statusFromSymbol(s);
}

/**
 * A status written only as a symbol, as some logs do in a status column or line: ✅ accepted, ❌ / ⛔ / 🚫
 * rejected, ⌛ / ⏳ superseded (the hourglass marks a record whose time has passed), 🚧 / 📝 proposed.
 */
function statusFromSymbol(s: string): AdrStatus {
  if (/[\u2705\u2714\u2611]/u.test(s)) return "accepted";
  if (/[\u274c\u26d4\u{1f6ab}\u2716]/u.test(s)) return "rejected";
  if (/[\u231b\u23f3]/u.test(s)) return "superseded";
  if (/[\u{1f6a7}\u{1f4dd}]/u.test(s)) return "proposed";
  return "unknown";
}

/**
 * Folders that say a record is no longer in force: `adr/_superseded/0003-x.md`, `decisions/archive/…`,
 * `docs/adr/rejected/…`. Leading `_` / `.` / digits are ignored ("_archive", "99-deprecated").
 */
const FOLDER_STATUS: [RegExp, AdrStatus][] = [
  [/^(?:superseded|replaced|overridden)$/, "superseded"],
  [/^(?:rejected|declined|abandoned|withdrawn)$/, "rejected"],
  [/^(?:deprecated|archived?|obsolete|retired|historic(?:al)?|outdated|old)$/, "deprecated"],
  [/^(?:proposed|proposals?|drafts?|pending)$/, "proposed"],
  [/^(?:accepted|approved|adopted|done|implemented|completed?)$/, "accepted"],
];
/** Words a status folder may carry besides its status word: "historic-adrs", "superseded_decisions". */
const RECORD_WORD = /^(?:adrs?|decisions?|records?|rfcs?|docs?|design|architecture)$/;

/**
 * The status a record's folder gives it, from the innermost folder that names one; undefined when none does.
 * A folder names a status when its name is a status word, alone or beside words that only say "records".
 */
export function statusFromFolder(path: string): { status: AdrStatus; folder: string } | undefined {
  const dirs = path.split("/").slice(0, -1);
  // For one folder per record ("2024-01-01-use-x/README.md") the record's own folder names the record, not a status.
  if (/^(readme|index)\.(md|markdown|rst|adoc|asciidoc)$/i.test(path.split("/").pop() ?? "")) dirs.pop();
  for (let i = dirs.length - 1; i >= 0; i--) {
    const words = dirs[i].toLowerCase().split(/[._\s-]+/).filter((w) => w && !/^\d+$/.test(w));
    // "proposals-accepted", "rfcs-rejected": beside a status word, "proposals" only says what the folder holds.
    const named = words.filter((w) => !RECORD_WORD.test(w));
    const statusWords = named.length === 2 && named.some((w) => /^proposals?$/.test(w)) ? named.filter((w) => !/^proposals?$/.test(w)) : named;
    if (statusWords.length !== 1) continue;
    for (const [re, status] of FOLDER_STATUS) if (re.test(statusWords[0])) return { status, folder: dirs.slice(0, i + 1).join("/") };
  }
  return undefined;
}

/**
 * A callout near the top that takes the record out of force: "> **Archived:** …", "**Deprecated.** …",
 * "> [!WARNING] Superseded: …". Read like a status line, but it wins over an older "Status: Accepted".
 */
const OUT_OF_FORCE_CALLOUT = /^\s*(?:>\s*)?(?:\[!\w+\]\s*)?(?:\*\*|__)?(archived|deprecated|superseded|superceded|obsolete|rejected|withdrawn|retired)(?:\*\*|__)?\s*[:.!]/i;

// "Superseded by", "superseded-by", "Superceded by", "Supersedes", optionally after a bullet and/or in bold.
// Also the phrasings real logs use for the same link: "Overridden by", "Replaced by", "Obsoleted by",
// "An alternative is proposed in".
// "Superseded [12](0012-x.md)", "Superseded: ADR-12" and "Superseded → [12](…)" name the successor without "by".
// "Superseded (as never implemented) by [32](…)": a short aside between the word and "by" leaves the link as it is.
const SUPERSEDED_BY =
  /(?:\bsupe(?:r|rs)?[sc]eded|\boverridden|\breplaced|\bobsoleted|\ban alternative (?:is|was|has been) (?:proposed|adopted|chosen))(?:(?:\s*\([^()]{1,60}\))?[\s_-]+(?:by|in)\b|\s*(?:[:\u2192]|->|=>)?\s*(?=\[|\(?ADR[\s_#-]*\d|#?\d{1,6}\b))\s*:?\s*(?:\*\*|__)?\s*:?\s*(.*)$/i;
/** "Rejected in favour of ADR 111", "Withdrawn in favor of [12](…)": the record named took its place. */
const SET_ASIDE_FOR = /\b(?:rejected|withdrawn|abandoned|dropped|deprecated|retired|closed)\s+in\s+favou?r\s+of\b\s*:?\s*(.*)$/i;
const SUPERSEDES = /(?:\bsupe(?:r|rs)?[sc]edes|\boverrides|\breplaces)\b\s*:?\s*(?:\*\*|__)?\s*:?\s*(.*)$/i;
const LINE_PREFIX = /^\s*(?:>\s*)?(?:\[!\w+\]\s*)?(?:[-*+]\s+)?(?:\*\*|__)?(?:[\p{Extended_Pictographic}\u231b\u23f3\ufe0f\u200d]+\s*)?/u;
const SELF_SUBJECT = /^(?:this|the present) (?:adr|decision|record|decision record|document)\s+(?:has been\s+|is\s+(?:now\s+)?|was\s+|got\s+)?/i;
// "Status: Accepted", and with the kind of document named first: "RFC Status: approved", "ADR status: …".
const STATUS_LINE = new RegExp(String.raw`${STATUS_KEY}\s*(?:\*\*|__)?\s*:?\s*(.+?)\s*$`, "i");
/** A metadata table under the title: "| Status | Implemented |". */
const STATUS_TABLE_ROW = /^\s*\|\s*(?:\*\*|__)?status(?:\*\*|__)?\s*\|\s*([^|]{1,200}?)\s*\|/i;
/** "* State: Ready for Implementation": some processes name the status a state. Read only among the metadata lines. */
const STATE_LINE = /^\s*(?:[-*+]\s+)?(?:\*\*|__)?state(?:\*\*|__)?\s*:\s*(?:\*\*|__)?\s*(.+?)\s*$/i;
const DATE_LINE = /^\s*(?:[-*+]\s+)?(?:\*\*|__)?date(?:\*\*|__)?\s*:\s*(?:\*\*|__)?\s*:?\s*(.+?)\s*$/i;

const DOCUMENT_PART = "(?:summary|abstract|overview|introduction|background|motivation|context|why|how|goals|non-goals|problem(?: statement)?|table of contents|toc|status|meta(?:data)?)";
/**
 * Headings that name a part of a document, never the document: "## Summary", "## Why", "## Introduction", and parts
 * joined ("Summary / Motivation", "Background and motivation").
 */
const DOCUMENT_PART_HEADING = new RegExp(`^${DOCUMENT_PART}(?:\\s*(?:/|&|,|\\band\\b)\\s*${DOCUMENT_PART})*\\s*:?$`, "i");

/**
 * The heading level of a record's title: 1, or, in a record with no H1 that opens with a heading before any prose,
 * that heading's level when no heading is shallower ("## Introduce a Query gRPC API" over "## Why", "## How");
 * 0 (no heading is the title) when the first H1 comes after other headings.
 */
function titleHeadingLevel(doc: MarkdownDoc): number {
  const headed = doc.sections.filter((s) => s.level > 0);
  if (headed.length === 0) return 1;
  const first = headed[0];
  // An H1 after other headings ("## Why" … "# Alternatives") is a section written one level too high, no title.
  if (headed.some((s) => s.level === 1)) return first.level === 1 ? 1 : 0;
  // Without an H1, a front-matter title names the record; so does the file name when the first heading is a part.
  if (frontMatterString(doc.frontMatter?.data.title) || DOCUMENT_PART_HEADING.test(stripInline(first.heading).trim())) return 1;
  const before = doc.lines.slice(doc.frontMatter ? doc.frontMatter.endLine : 0, first.start - 1);
  const prose = before.some((l) => l.trim() && !/^\s*(?:>|<!--|-->|\[!|\s*$)/.test(l));
  return !prose && !sectionKey(first.heading) && headed.every((s) => s.level >= first.level) ? first.level : 1;
}

/** A sentence as compared with a template's: its words, lower-case, cut to five letters (so "obsoleted" is "obsolete"). */
function sentenceKey(sentence: string): string {
  const words = sentence.toLowerCase().match(/\p{L}[\p{L}\p{N}'’-]*/gu) ?? [];
  return [...new Set(words.map((w) => w.slice(0, 5)))].sort().join(" ");
}

/** The sentences of a paragraph of prose (markup aside). */
function sentencesOf(paragraph: string): string[] {
  return splitSentences(paragraph.replace(/<!--|-->|[*_`>]+/g, " ").replace(/\s+/g, " ").trim()).filter((t) => (t.match(/\p{L}+/gu) ?? []).length >= 4);
}

/** Paragraphs of prose: runs of lines that are not blank or structure. */
function proseParagraphs(lines: string[]): { from: number; to: number }[] {
  const out: { from: number; to: number }[] = [];
  let from = -1;
  // Front matter is metadata, never prose.
  const frontMatterEnd = /^---\s*$/.test(lines[0] ?? "") ? lines.findIndex((l, i) => i > 0 && /^(?:---|\.\.\.)\s*$/.test(l)) : -1;
  lines.forEach((line, i) => {
    // Not prose: front matter, rules ("---"), headings, metadata ("Status: …"), list items, table rows, link
    // definitions ("[motivation]: #motivation").
    const prose = i > frontMatterEnd && /[\p{L}\p{N}]/u.test(line) && !/^\s{0,3}#/.test(line) && !/^\W*[\w ]{1,30}:/.test(line) && !/^\s*(?:[-*+]|\d+[.)])\s/.test(line) && !/^\s*\|/.test(line) && !/^\s{0,3}\[[^\]]+\]:/.test(line);
    if (prose && from < 0) from = i;
    if (!prose && from >= 0) {
      out.push({ from, to: i - 1 });
      from = -1;
    }
  });
  if (from >= 0) out.push({ from, to: lines.length - 1 });
  return out;
}

/**
 * The sentences of a log's templates (`0000-template.md`, `templates/adr.md`) that instruct the author ("Summarize
 * the final decision and link follow-up work."), as keys for parseAdr. Headings, list items and metadata lines
 * ("Status: proposed") are left out: records keep those on purpose.
 */
export function templateProse(templates: string[]): string[] {
  const out = new Set<string>();
  for (const text of templates) {
    const lines = text.split("\n");
    for (const p of proseParagraphs(lines)) for (const t of sentencesOf(lines.slice(p.from, p.to + 1).join(" "))) out.add(sentenceKey(t));
  }
  return [...out].sort();
}

/** Two sentence keys nearly the same: at least 80% of their words shared ("To be filled in when …" and "Filled in when …"). */
function nearSentence(key: string, template: ReadonlySet<string>): boolean {
  if (template.has(key)) return true;
  const a = new Set(key.split(" "));
  for (const t of template) {
    const b = t.split(" ");
    const shared = b.filter((w) => a.has(w)).length;
    if (shared / (a.size + b.length - shared) >= 0.8) return true;
  }
  return false;
}

/**
 * The text with every paragraph that only repeats its template's instructions blanked (line count kept). A section
 * left holding nothing else loses its heading too: it is not written yet, as if absent (an RFC whose "Outcome" is
 * still the template's instruction is read by its proposal).
 */
function withoutTemplateProse(text: string, template: ReadonlySet<string>): string {
  const lines = text.split("\n");
  const blanked = new Set<number>();
  for (const p of proseParagraphs(lines)) {
    const sentences = sentencesOf(lines.slice(p.from, p.to + 1).join(" "));
    if (!sentences.length || !sentences.every((t) => nearSentence(sentenceKey(t), template))) continue;
    for (let i = p.from; i <= p.to; i++) {
      lines[i] = "";
      blanked.add(i);
    }
  }
  if (!blanked.size) return text;
  const heading = (l: string) => /^\s{0,3}#{1,6}\s/.test(l);
  for (let h = 0; h < lines.length; h++) {
    if (!heading(lines[h])) continue;
    let end = h + 1;
    while (end < lines.length && !heading(lines[end])) end++;
    const body = Array.from({ length: end - h - 1 }, (_, k) => h + 1 + k);
    if (body.some((i) => blanked.has(i)) && body.every((i) => lines[i].trim() === "")) lines[h] = "";
  }
  return lines.join("\n");
}

/**
 * Parses a record. `template` (from templateProse): a paragraph the record still carries from its log's template,
 * word for word or nearly, is blanked before reading (the line count is kept, so citations hold): an "Outcome"
 * section left as the template's instruction decided nothing.
 */
export function parseAdr(path: string, rawText: string, template?: ReadonlySet<string>): ParsedAdr {
  const text = template?.size ? withoutTemplateProse(rawText, template) : rawText;
  const doc = parseMarkdown(text);
  const warnings = [...doc.warnings];
  const dir = posix.dirname(path);
  const base = withoutDocExtension(posix.basename(path));
  const named = nameSections(doc);

  // Title and number: H1, then front matter title, then the file name. One folder per ADR
  // ("2024-03-01-use-x/README.md"): the folder names it. A body that opens with a note ("# Withdrawal Amendment")
  // before the H1 its front-matter title names has that title.
  const nameBase = /^(readme|index)$/i.test(base) && dir !== "." ? posix.basename(dir) : base;
  const fmTitle = frontMatterString(doc.frontMatter?.data.title);
  const h1 = named.firstH1 >= 0 && !laterHeadingIs(doc, named.firstH1, fmTitle) ? doc.sections[named.firstH1].heading : fmTitle ?? metadataTitle(doc.lines) ?? humanise(nameBase);
  const { number: titleNumber, title } = splitTitleNumber(h1);
  const number = numberFromFileName(base) ?? titleNumber;

  const meta = readStatusAndLinks(doc, named.byName, dir);
  const date = meta.date ?? dateFromFileName(base);
  let status: AdrStatus = meta.rawStatus ? normaliseStatus(meta.rawStatus) : "unknown";
  if (meta.supersededBy.size > 0 && status !== "rejected" && status !== "deprecated") status = "superseded";
  const outOfForce = (s: AdrStatus) => s === "superseded" || s === "rejected" || s === "deprecated";
  if (meta.callout && !outOfForce(status)) {
    warnings.push(`status ${meta.callout} from a callout${meta.rawStatus ? ` (its status line says "${meta.rawStatus}")` : ""}`);
    status = meta.callout;
  }
  // "# Tagging to organisations (not implemented)", "# [Superseded] Use X": a title that marks the record out of force.
  const byTitle = TITLE_STATUS.exec(h1);
  const titleStatus = byTitle ? normaliseStatus(byTitle[1] ?? byTitle[2]) : "unknown";
  if (outOfForce(titleStatus) && !outOfForce(status)) {
    warnings.push(`status ${titleStatus} from its title${meta.rawStatus ? ` (its status line says "${meta.rawStatus}")` : ""}`);
    status = titleStatus;
  }
  // A record moved into a "superseded" or "archive" folder is out of force whatever its own status line still says;
  // a "proposed" folder only fills in a status the record does not state.
  const byFolder = statusFromFolder(path);
  if (byFolder && !outOfForce(status) && (outOfForce(byFolder.status) || status === "unknown")) {
    warnings.push(`status ${byFolder.status} from its folder ${byFolder.folder}${meta.rawStatus ? ` (its own status says "${meta.rawStatus}")` : ""}`);
    status = byFolder.status;
  } else if (!meta.rawStatus && !meta.callout) warnings.push("no status found");

  const options = readOptions(doc, named.byName, named.sectionNames);
  const madrish = named.byName.has("considered-options") || named.byName.has("decision-outcome") || doc.frontMatter !== undefined;
  const format: ParsedAdr["format"] = /^\d{8}[-_]/.test(base) ? "log4brains" : madrish ? "madr" : "nygard";

  return {
    path,
    format,
    title,
    number,
    status,
    raw_status: meta.rawStatus,
    date,
    supersedes: [...meta.supersedes],
    superseded_by: [...meta.supersededBy],
    considered_options: options.considered,
    chosen_option: options.chosen,
    sections: named.ranges,
    option_sections: options.optionSections,
    section_names: named.sectionNames,
    doc,
    warnings,
  };
}

/** Whether a heading after the title heading, at its level, reads exactly as this title. */
function laterHeadingIs(doc: MarkdownDoc, titleAt: number, title: string | undefined): boolean {
  if (!title) return false;
  const norm = (t: string) => stripInline(t).toLowerCase().replace(/\s+/g, " ").trim();
  const level = doc.sections[titleAt].level;
  return norm(doc.sections[titleAt].heading) !== norm(title) && doc.sections.slice(titleAt + 1).some((s) => s.level === level && norm(s.heading) === norm(title));
}

/** Canonical section names (the first heading matching a name owns it) and the title heading. */
function nameSections(doc: MarkdownDoc): {
  sectionNames: string[];
  ranges: Partial<Record<AdrSectionName, LineRange>>;
  byName: Map<string, MarkdownSection>;
  firstH1: number;
} {
  const sectionNames: string[] = [];
  const ranges: Partial<Record<AdrSectionName, LineRange>> = {};
  const byName = new Map<string, MarkdownSection>();
  let firstH1 = -1;
  const titleLevel = titleHeadingLevel(doc);
  // A record that opens with "# Summary" has no title heading: every heading of that level names a part.
  let partsOnly = false;
  doc.sections.forEach((s, i) => {
    let name: string;
    if (s.level === 0) name = "preamble";
    else if (s.level === titleLevel && firstH1 < 0 && !partsOnly && DOCUMENT_PART_HEADING.test(stripInline(s.heading).trim())) {
      partsOnly = true;
      name = sectionKey(s.heading) ?? (slug(s.heading) || "section");
    }
    // An H1 that is really a section ("# Context", "# Status: Accepted") is not the title.
    else if (s.level === titleLevel && firstH1 < 0 && !partsOnly && !sectionKey(s.heading) && !/^status\s*:/i.test(stripInline(s.heading))) {
      firstH1 = i;
      name = "title";
    } else name = sectionKey(s.heading) ?? (slug(s.heading) || "section");
    sectionNames.push(name);
    if (!byName.has(name)) {
      byName.set(name, s);
      // The H1's nested range is the whole file; its own range (title plus metadata lines) is the useful one.
      if (isCanonical(name)) ranges[name] = { start: s.start, end: name === "title" ? s.contentEnd : s.end };
    }
  });
  return { sectionNames, ranges, byName, firstH1 };
}

/**
 * Status, date and supersession links, from front matter, a "## Status: …" heading, the Status section, metadata
 * lines before the first H2, and anchored "Superseded by …" lines anywhere outside code fences.
 */
function readStatusAndLinks(
  doc: MarkdownDoc,
  byName: Map<string, MarkdownSection>,
  dir: string,
): { rawStatus?: string; date?: string; supersedes: Set<string>; supersededBy: Set<string>; callout?: AdrStatus } {
  const { lines, sections } = doc;
  const fm = doc.frontMatter?.data ?? {};
  const supersedes = new Set<string>();
  const supersededBy = new Set<string>();
  let date = frontMatterString(fm.date);
  let rawStatus = frontMatterString(fm.status) ?? frontMatterString(fm.state) ?? frontMatterString(fm["adr-status"]) ?? frontMatterString(fm.adr_status);
  if (rawStatus) collectLinks(rawStatus, dir, supersedes, supersededBy);
  // Some templates keep the links as front-matter keys.
  // "replaces:" / "replaced-by:" are the same links under the words some proposal logs use in their front matter.
  for (const key of ["supersedes", "replaces"]) for (const v of listValue(fm[key])) addRef(supersedes, v, dir);
  for (const key of ["superseded_by", "superseded-by", "supersededBy", "replaced_by", "replaced-by", "replacedBy"]) for (const v of listValue(fm[key])) addRef(supersededBy, v, dir);

  // "## Status: Accepted" carries the status in the heading itself.
  for (const sec of sections) {
    const inline = /^status\s*:\s*(.+)$/i.exec(stripInline(sec.heading));
    if (inline && sec.level >= 1) {
      // Links are read from the heading as written: stripping inline markup would leave only the link text.
      const written = /status\s*(?:\*\*|__)?\s*:\s*(.+)$/i.exec(lines[sec.start - 1])?.[1] ?? inline[1];
      collectLinks(written, dir, supersedes, supersededBy);
      rawStatus ??= inline[1];
      break;
    }
  }
  // In a Status section, "Supersedes …" lines are notes; the first other line is the status ("Accepted",
  // "Superseded by …"). Front matter wins when it has a status.
  const statusSection = byName.get("status");
  let unreadSectionStatus: string | undefined;
  if (statusSection) {
    let sectionStatus: string | undefined;
    for (let n = statusSection.start + 1; n <= statusSection.contentEnd; n++) {
      const line = lines[n - 1].trim();
      if (!line || collectLinks(line, dir, supersedes, supersededBy) === "supersedes") continue;
      sectionStatus ??= line;
    }
    // A Status section that says no status word ("### Status" documenting a status API) gives way to a metadata line.
    if (sectionStatus && normaliseStatus(sectionStatus) !== "unknown") rawStatus ??= sectionStatus;
    else unreadSectionStatus = sectionStatus;
  }
  // Metadata lines: "Status: Accepted", "* Status: accepted", "**Status:** Accepted", "Date: 2023-01-10".
  const firstH2 = sections.find((s) => s.level >= 2);
  const metaEnd = firstH2 ? firstH2.start - 1 : lines.length;
  let callout: AdrStatus | undefined;
  for (let n = doc.frontMatter ? doc.frontMatter.endLine + 1 : 1; n <= metaEnd; n++) {
    const outOfForce = OUT_OF_FORCE_CALLOUT.exec(lines[n - 1]);
    if (outOfForce && !callout) {
      const status = normaliseStatus(outOfForce[1]);
      if (status !== "unknown") callout = status;
    }
    const st = STATUS_LINE.exec(lines[n - 1]) ?? STATUS_TABLE_ROW.exec(lines[n - 1]) ?? STATE_LINE.exec(lines[n - 1]);
    if (st) {
      collectLinks(st[1], dir, supersedes, supersededBy);
      rawStatus ??= st[1];
      continue;
    }
    const dt = DATE_LINE.exec(lines[n - 1]);
    if (dt && !date) date = dt[1].replace(/[*_`]/g, "").trim();
  }
  rawStatus ??= unreadSectionStatus;
  scanAnchoredSupersession(lines, doc, dir, supersedes, supersededBy);
  return { rawStatus, date, supersedes, supersededBy, ...(callout ? { callout } : {}) };
}

/** MADR: considered options, the chosen option, and each option's pros and cons. */
function readOptions(
  doc: MarkdownDoc,
  byName: Map<string, MarkdownSection>,
  sectionNames: string[],
): { considered: string[]; chosen?: string; optionSections: Record<string, AdrOptionSection> } {
  const { lines, sections } = doc;
  const considered: string[] = [];
  const co = byName.get("considered-options");
  if (co) for (const item of topLevelBullets(lines, co.start + 1, co.end)) considered.push(item);

  let chosen: string | undefined;
  const outcome = byName.get("decision-outcome") ?? byName.get("decision");
  if (outcome) for (let n = outcome.start + 1; n <= outcome.end && !chosen; n++) chosen = chosenOption(lines[n - 1]);
  // Some MADR variants put "Chosen option:" elsewhere; accept it anywhere.
  for (let n = 1; n <= lines.length && !chosen; n++) chosen = chosenOption(lines[n - 1]);
  if (chosen) chosen = considered.find((o) => sameOption(o, chosen!)) ?? chosen;

  const optionSections: Record<string, AdrOptionSection> = {};
  const pc = byName.get("pros-and-cons");
  if (pc) {
    const pcIndex = sections.indexOf(pc);
    sections.forEach((s, i) => {
      if (s.parent !== pcIndex || !s.heading) return;
      const pros: LineRange[] = [];
      const cons: LineRange[] = [];
      for (let n = s.start + 1; n <= s.end; n++) {
        const l = stripInline(lines[n - 1]).replace(/^\s*[-*+]\s+/, "");
        if (/^(good|pro)\b/i.test(l)) pros.push({ start: n, end: n });
        else if (/^(bad|con)\b/i.test(l)) cons.push({ start: n, end: n });
      }
      optionSections[s.heading] = { name: s.heading, range: { start: s.start, end: s.end }, pros, cons };
      sectionNames[i] = `pros-and-cons: ${s.heading}`;
    });
  }
  return { considered, chosen, optionSections };
}

export function isCanonical(name: string): name is AdrSectionName {
  return name === "title" || SECTION_PATTERNS.some(([n]) => n === name);
}

/** "5. Use X", "ADR-0005: Use X", "ADR 5 - Use X", "0005 Use X", "JEP-228: Use X" (an ADR prefix, punctuation, zero padding or a label and a colon). */
export function splitTitleNumber(h1: string): { number?: number; title: string } {
  const adr = /^ADR[\s_#-]*0*(\d+)\s*[.:)\-–—]?\s+(.+)$/i.exec(h1);
  if (adr) return { number: Number(adr[1]), title: adr[2].trim() };
  const num = /^#?0*(\d{1,6})\s*[.:)\-–—]\s*(.+)$/.exec(h1) ?? /^0+(\d{1,5})\s+(\S.+)$/.exec(h1);
  if (num) return { number: Number(num[1]), title: num[2].trim() };
  // A process's own label before a colon: "JEP-228: Unforking XStream", "TEP-0100: Embedded TaskRuns".
  const labelled = /^[A-Z]{2,5}[-_ ]?0*(\d{1,5}):\s+(\S.+)$/.exec(h1);
  if (labelled) return { number: Number(labelled[1]), title: labelled[2].trim() };
  return { title: h1.trim() };
}

/**
 * A record whose file (or, for `README.md` / `index.md`, folder) name opens with a date ("201912-sharding.md",
 * "2021-07-30-use-zap.md", "20240917-retries.md") is dated by it, not numbered: "201912" is no record number a
 * reader would use.
 */
export function datedFileName(path: string): boolean {
  const parts = path.split("/");
  const base = parts[parts.length - 1].replace(/\.(md|markdown|mdx|adoc|rst|txt)$/i, "");
  const name = /^(readme|index)$/i.test(base) && parts.length > 1 ? parts[parts.length - 2] : base;
  return /^(?:19|20)\d{2}-?(?:0[1-9]|1[0-2])(?:-?\d{2})?[-_]/.test(name);
}

/**
 * "0005-use-x" or "adr-0005-use-x" → 5; date prefixes (log4brains "20240312-…") are not numbers. A dated name that
 * carries a serial after its date ("2025-02-12_032-use-x") is numbered by the serial, not by the year.
 */
function numberFromFileName(base: string): number | undefined {
  const dated = /^(?:19|20)\d{2}-(?:0[1-9]|1[0-2])-\d{2}[-_](?:0*(\d{1,4})(?=[-_.]|$))?/.exec(base);
  if (dated) return dated[1] !== undefined ? Number(dated[1]) : undefined;
  if (/^\d{8}[-_]/.test(base)) return undefined;
  const m = /^(?:adr[-_]?)?0*(\d{1,6})(?=[-_.]|$)/i.exec(base);
  return m ? Number(m[1]) : undefined;
}

function dateFromFileName(base: string): string | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})[-_]/.exec(base) ?? /^(\d{4})-(\d{2})-(\d{2})[-_]/.exec(base);
  if (!m) return undefined;
  const [, y, mo, d] = m;
  return Number(mo) >= 1 && Number(mo) <= 12 && Number(d) >= 1 && Number(d) <= 31 ? `${y}-${mo}-${d}` : undefined;
}

/**
 * A record without a title heading may name itself in its metadata list: "- Name: Remove Windows support",
 * "* **Title:** X" (only in its first lines, where metadata is).
 */
function metadataTitle(lines: string[]): string | undefined {
  for (const line of lines.slice(0, METADATA_TITLE_LINES)) {
    const m = /^\s*(?:[-*+]\s+)?(?:\*\*|__)?(?:title|name)(?:\*\*|__)?\s*:\s*(?:\*\*|__)?\s*(.{3,200}?)\s*$/i.exec(line);
    if (m && /\p{L}/u.test(m[1])) return stripInline(m[1]).replace(/^["']|["']$/g, "").trim() || undefined;
  }
  return undefined;
}
const METADATA_TITLE_LINES = 20;

function humanise(base: string): string {
  // "0005-use-x", "adr-0005-use-x", "rfc-045-use-x", "2024-03-01-use-x" → "Use x".
  const s = base.replace(/^(?:[a-z]{2,5}[-_]?)?(?:\d{4}-\d{2}-\d{2}|\d+)[-_]/i, "").replace(/[-_]+/g, " ").trim();
  return s ? s[0].toUpperCase() + s.slice(1) : base;
}

function listValue(v: unknown): string[] {
  if (Array.isArray(v)) return v.map((x) => frontMatterString(x)).filter((x): x is string => !!x);
  const s = frontMatterString(v);
  return s ? [s] : [];
}

/**
 * Records the targets of a "Superseded by …" or "Supersedes …" phrase in `text`. Returns which phrase it found.
 * Markdown links resolve against the ADR's folder; bare references ("ADR-0002", "0005") stay raw.
 */
function collectLinks(text: string, dir: string, supersedes: Set<string>, supersededBy: Set<string>): "superseded-by" | "supersedes" | undefined {
  if (listsStatuses(text)) return undefined;
  const by = SUPERSEDED_BY.exec(text) ?? SET_ASIDE_FOR.exec(text);
  if (by) {
    for (const ref of references(by[1])) addRef(supersededBy, ref, dir);
    return "superseded-by";
  }
  const s = SUPERSEDES.exec(text);
  if (s) {
    for (const ref of references(s[1])) addRef(supersedes, ref, dir);
    return "supersedes";
  }
  return undefined;
}

/** How many different status words a line must name to be a template's list of the statuses a record may take. */
const STATUSES_LISTED = 4;

/**
 * A line naming several statuses ('Valid statuses are: "Proposed", "Accepted", "Rejected", "Deprecated", "Superseded by
 * ADRzzz"') is a template's guidance left in place: its "Superseded by" is one of the choices, not a link, and read as
 * one it retired every record written from that template.
 */
function listsStatuses(text: string): boolean {
  const words = new Set(text.toLowerCase().match(new RegExp(String.raw`\b${STATUS_WORD}\b`, "g")) ?? []);
  return words.size >= STATUSES_LISTED;
}

/** "This RFC proposes …, which has (since) been superseded by …": one sentence, the record its subject. */
const SELF_RELATIVE_SUPERSEDED =
  /^(?:this|the present) (?:adr|rfc|rfd|decision|record|decision record|document|proposal)\b[^.!?]*?,?\s+(?:which|that)\s+(?:has\s+(?:since\s+|now\s+)?been|was|is\s+now)\s+(?:supe(?:r|rs)?[sc]eded|replaced|overridden|obsoleted)\s+by\b\s*(.*)$/i;

/** "… which supersedes this decision", "[12] replaces this ADR": this record is the object, the named one its successor. */
const SUPERSESSION_WORD = /supe|overrid|replace|obsolete|alternative/i;
const SUPERSEDES_THIS = /\b(?:supe(?:r|rs)?[sc]edes|replaces|overrides)\s+this\s+(?:adr|decision record|decision|record|document|rfc)\b/i;

/**
 * What a log calls its records before their number: "ADR-7", and the proposal logs' "RFC 12", "TEP-0107", "KEP-2",
 * "OTEP 152", "RFD 168", "PEP 8". A regular-expression source, matched case-insensitively.
 */
export const RECORD_PREFIX = "(?:adr|rfc|rfd|tep|kep|otep|pep)";

/** Anchored supersession lines anywhere in the body (outside code fences and front matter). */
function scanAnchoredSupersession(lines: string[], doc: MarkdownDoc, dir: string, supersedes: Set<string>, supersededBy: Set<string>): void {
  let inFence = false;
  const from = doc.frontMatter ? doc.frontMatter.endLine + 1 : 1;
  for (let n = from; n <= lines.length; n++) {
    const line = lines[n - 1];
    if (/^ {0,3}(`{3,}|~{3,})/.test(line)) inFence = !inFence;
    // Neither reading below can match a line without one of these words: most lines are passed over unread.
    if (inFence || !SUPERSESSION_WORD.test(line)) continue;
    // "… revisited in [ADR-7] which supersedes this decision": the record named before the phrase replaced this one.
    // Only a record named by link or number, and never in a condition ("if a new ADR supersedes this record, …").
    const selfObject = SUPERSEDES_THIS.exec(line);
    if (selfObject) {
      const before = line.slice(0, selfObject.index);
      const refs = /\b(?:if|when|whenever|once|unless|until|should|may|might|could|would)\b/i.test(before) ? [] : references(before).filter((r) => !r.startsWith(TITLE_REF));
      for (const ref of refs) addRef(supersededBy, ref, dir);
      continue;
    }
    // "This RFC proposes an approach …, which has been superseded by [20](…)": the record, as the sentence's subject,
    // is replaced by the record the relative clause links to (a link or a number only, never a bare title).
    const relative = SELF_RELATIVE_SUPERSEDED.exec(line.replace(LINE_PREFIX, ""));
    if (relative) {
      for (const ref of references(relative[1]).filter((r) => !r.startsWith(TITLE_REF))) addRef(supersededBy, ref, dir);
      continue;
    }
    // The ADR must be the sentence's subject ("Superseded by …", "This ADR has been superseded by …"): prose that
    // merely mentions superseding (examples, templates, "placeholders are replaced by values") is not a link.
    const rest = line.replace(LINE_PREFIX, "").replace(SELF_SUBJECT, "");
    if (/^(status\s*:\s*(\*\*|__)?\s*)?(supe(r|rs)?[sc]ede|overridden by|overrides\b|replaced by|obsoleted by|an alternative (is|was|has been) (proposed|adopted|chosen) in)/i.test(rest)) {
      collectLinks(rest, dir, supersedes, supersededBy);
    }
  }
}

/** Link targets, or failing that bare ADR references, in the text after "superseded by" / "supersedes". */
function references(rest: string): string[] {
  const out: string[] = [];
  const linkRe = /\[([^\]]*)\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g;
  for (let m = linkRe.exec(rest); m; m = linkRe.exec(rest)) out.push(m[2]);
  // Reference-style or wiki links: [[0005-foo]] / [ADR-0005]
  if (out.length === 0) {
    const wiki = /\[\[([^\]]+)\]\]/g;
    for (let m = wiki.exec(rest); m; m = wiki.exec(rest)) out.push(m[1]);
  }
  if (out.length === 0) {
    // Bare references: "ADR-0005", "0005-foo.md", or a number right after the phrase ("Superseded by 5").
    const plain = stripInline(rest);
    const bare = new RegExp(String.raw`\b${RECORD_PREFIX}[\s_#-]*\d+\b|[\w./-]+\.(?:md|markdown|rst|adoc|asciidoc)\b`, "gi");
    for (let m = bare.exec(plain); m; m = bare.exec(plain)) out.push(m[0].trim());
    const lead = /^\s*(?:#|no\.?\s*)?(\d{1,6})\b/i.exec(plain);
    if (out.length === 0 && lead) out.push(lead[1]);
    // "Superseded by Use NATS for events": a title, resolved later only if an ADR has exactly that title.
    const title = plain.replace(/^[\s"“'‘`]+|(?<![\s"”'’`.,;:])[\s"”'’`.,;:]+$/g, "");
    if (out.length === 0 && title && title.length <= 120 && /[a-z]/i.test(title)) out.push(`${TITLE_REF}${title}`);
  }
  return out;
}

/** Marks a reference that is an ADR's title rather than a path or a number. */
export const TITLE_REF = "title:";

function addRef(set: Set<string>, ref: string, dir: string): void {
  const r = ref.trim();
  if (!r) return;
  if (/^[a-z][a-z0-9+.-]*:/i.test(r) || r.startsWith("#")) {
    set.add(r);
    return;
  }
  const target = r.split("#")[0];
  if (DOC_EXTENSION.test(target)) {
    const resolved = target.startsWith("/") ? posix.normalize(target.slice(1)) : posix.normalize(posix.join(dir, target));
    if (!resolved.startsWith("../") && resolved !== "..") {
      set.add(resolved);
      return;
    }
  }
  set.add(r);
}

/** `Chosen option: "", because …`: a template's quotes left empty name no option. */
export const UNFILLED_NAME = /^(?:""|“”|''|‘’)/;

/** `Chosen option: "X", because …`, `Chosen option: X`, `**Chosen option:** [X](#x)`. */
export function chosenOption(line: string): string | undefined {
  const m = /chosen option\s*(?:\*\*|__)?\s*:\s*(?:\*\*|__)?\s*(.+)$/i.exec(line);
  if (!m) return undefined;
  let rest = stripInline(m[1]).trim();
  if (UNFILLED_NAME.test(rest)) return undefined;
  const quoted = /^["“'‘]([^"”'’]+)["”'’]/.exec(rest);
  if (quoted) return quoted[1].trim();
  rest = rest.split(/,\s*because\b|\s+because\b|,\s/i)[0];
  rest = rest.replace(/(?<![.,;:])[.,;:]+$/, "").trim();
  return rest || undefined;
}

function sameOption(a: string, b: string): boolean {
  const norm = (s: string) => stripInline(s).toLowerCase().replace(/[^a-z0-9]+/g, " ").trim();
  const na = norm(a);
  const nb = norm(b);
  return na === nb || na.startsWith(nb + " ") || nb.startsWith(na + " ");
}

/** Top-level bullet items between two lines, as plain text (links and emphasis stripped). */
export function topLevelBullets(lines: string[], from: number, to: number): string[] {
  const items: string[] = [];
  let baseIndent = -1;
  for (let n = from; n <= to; n++) {
    const m = /^(\s*)(?:[-*+]|\d+[.)])\s+(.*)$/.exec(lines[n - 1]);
    if (!m) {
      if (/^ {0,3}#/.test(lines[n - 1])) break;
      continue;
    }
    const indent = m[1].replace(/\t/g, "    ").length;
    if (baseIndent < 0) baseIndent = indent;
    if (indent > baseIndent) continue;
    const text = stripInline(m[2]).trim();
    if (text) items.push(text);
  }
  return items;
}
