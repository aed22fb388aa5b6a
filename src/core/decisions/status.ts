// A record's status as the decision model shows it: the normalised status parseAdr read (front matter, a status
// line or section, a callout, a status folder), plus what parseAdr does not read: a metadata table
// ("| Status | Implemented |"), status lines that disagree with each other, and a display text that says
// "no status line" when the record has none (never "unknown").
import { posix } from "node:path";
import type { AdrStatus } from "../schemas";
import { normaliseStatus, statusFromFolder, type ParsedAdr } from "../internal/adr";
import { STATUS_KEY } from "../internal/adrDetect";
import { stripInline } from "../internal/markdown";

export type StatusSource = "front-matter" | "status-line" | "table" | "folder" | "callout" | "none";

export interface DecisionStatus {
  status: AdrStatus;
  /** "accepted", "superseded by 0005-use-nats.md", "no status line", "unrecognised status: …". */
  display: string;
  source: StatusSource;
  /** The status text as written, when there is one. */
  raw?: string;
  /** What could not be settled: disagreeing status lines, a status text that names no status. */
  notes: string[];
}

/** Only the top of a record carries metadata; tables and status lines further down are content. */
const METADATA_LINES = 40;
const MAX_LINE_CHARS = 300;

/** "| Status | Implemented |" (key/value row) or a header row with a Status column and the row below it. */
export function statusFromTable(lines: string[]): string | undefined {
  const end = Math.min(lines.length, METADATA_LINES);
  for (let i = 0; i < end; i++) {
    const line = lines[i].slice(0, MAX_LINE_CHARS);
    if (!line.trim().startsWith("|")) continue;
    const cells = tableCells(line);
    if (cells.length >= 2 && /^status$/i.test(cells[0]) && cells[1] && !/^-+$/.test(cells[1])) return cells[1];
    const col = cells.findIndex((c) => /^status$/i.test(c));
    if (col >= 0 && cells.length > 2) {
      // Header row: skip the --- separator and read the first data row.
      for (let j = i + 1; j < Math.min(end, i + 3); j++) {
        const row = tableCells(lines[j].slice(0, MAX_LINE_CHARS));
        if (row.every((c) => /^:?-+:?$/.test(c) || !c)) continue;
        if (row[col]) return row[col];
        break;
      }
    }
  }
  return undefined;
}

function tableCells(line: string): string[] {
  return line
    .trim()
    .replace(/^\|/, "")
    .replace(/\|$/, "")
    .split("|")
    .map((c) => stripInline(c).trim());
}

const STATUS_STATEMENT = new RegExp(String.raw`${STATUS_KEY}\s*(.{1,200})`, "i");

/** Every "Status: …" line in the metadata block and the first line of every Status section, normalised. */
function statusStatements(parsed: ParsedAdr): { raw: string; status: AdrStatus; line: number }[] {
  const { lines, sections } = parsed.doc;
  const out: { raw: string; status: AdrStatus; line: number }[] = [];
  const firstBody = parsed.doc.frontMatter ? parsed.doc.frontMatter.endLine + 1 : 1;
  const firstH2 = sections.find((s) => s.level >= 2);
  const metaEnd = Math.min(lines.length, firstH2 ? firstH2.start - 1 : METADATA_LINES, firstBody + METADATA_LINES);
  for (let n = firstBody; n <= metaEnd; n++) {
    const m = STATUS_STATEMENT.exec(lines[n - 1].slice(0, MAX_LINE_CHARS));
    if (m) out.push({ raw: m[1].trim(), status: normaliseStatus(m[1]), line: n });
  }
  sections.forEach((s, i) => {
    if (parsed.section_names[i] !== "status") return;
    for (let n = s.bodyStart; n <= s.contentEnd; n++) {
      const text = lines[n - 1].trim();
      if (!text) continue;
      if (/^(?:supe(?:r|rs)?[sc]edes|overrides|replaces)\b/i.test(stripInline(text))) continue;
      out.push({ raw: text.slice(0, 200), status: normaliseStatus(text), line: n });
      break;
    }
  });
  return out;
}

/** The record's status for the model: parseAdr's reading, completed by a metadata table, with a display text. */
export function readStatus(parsed: ParsedAdr): DecisionStatus {
  const notes: string[] = [];
  let status = parsed.status;
  let raw = parsed.raw_status;
  const fm = parsed.doc.frontMatter?.data ?? {};
  let source: StatusSource = "none";
  if (raw !== undefined) source = typeof fm.status === "string" || typeof fm.state === "string" ? "front-matter" : "status-line";
  // parseAdr also reads a "| Status | … |" row under the title: that reading came from the table.
  if (source === "status-line" && statusFromTable(parsed.doc.lines)?.trim() === raw?.trim()) source = "table";
  const byFolder = statusFromFolder(parsed.path);
  const fromCallout = parsed.warnings.find((w) => /^status \w+ from a callout/.test(w));
  if (fromCallout) source = "callout";
  else if (byFolder && byFolder.status === status && parsed.warnings.some((w) => w.startsWith(`status ${status} from its folder`))) source = "folder";

  if (raw === undefined && (status === "unknown" || source === "folder")) {
    const tabled = statusFromTable(parsed.doc.lines);
    if (tabled) {
      raw = tabled;
      const fromTable = normaliseStatus(tabled);
      if (status === "unknown" || (fromTable !== "unknown" && source !== "folder")) {
        status = fromTable;
        source = "table";
      }
    }
  }

  // Status lines that disagree ("Status: Accepted" above, "## Status\n\nRejected" below): parseAdr keeps one by its
  // precedence; the model keeps that reading and says the record contradicts itself.
  const statements = statusStatements(parsed).filter((s) => s.status !== "unknown");
  const distinct = [...new Set(statements.map((s) => s.status))];
  if (distinct.length > 1) {
    notes.push(`status lines disagree: ${statements.map((s) => `line ${s.line} says "${s.raw}"`).join(", ")}; read as ${status}`);
  }
  if (raw !== undefined && status === "unknown") notes.push(`status "${raw.slice(0, 80)}" names no known status`);

  return { status, display: displayStatus(status, raw, parsed.superseded_by), source, ...(raw !== undefined ? { raw } : {}), notes };
}

/** "accepted", "superseded by 0005-use-nats.md", "no status line", "unrecognised status: …". */
export function displayStatus(status: AdrStatus, raw: string | undefined, supersededBy: string[]): string {
  if (status === "superseded" && supersededBy.length > 0) return `superseded by ${supersededBy.map(shortRef).join(", ")}`;
  if (status !== "unknown") return status;
  // A placeholder ("-", "…") is a status line left empty.
  return raw === undefined || !/[\p{L}\p{N}]/u.test(stripInline(raw)) ? "no status line" : `unrecognised status: ${stripInline(raw).slice(0, 60)}`;
}

/** A record kept as its folder's index ("059-logging/README.md") is known by its folder's name. */
const FOLDER_INDEX = /^(?:readme|index|_index)\.(?:md|markdown|mdx|rst|adoc|asciidoc|txt)$/i;

function shortRef(ref: string): string {
  if (ref.startsWith("title:")) return `"${ref.slice("title:".length)}"`;
  const base = posix.basename(ref);
  const folder = posix.basename(posix.dirname(ref));
  return FOLDER_INDEX.test(base) && folder && folder !== "." ? folder : base;
}
