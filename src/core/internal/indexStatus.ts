// Statuses that a decision log's own index gives its records. Many logs keep a README (or index.md) beside the
// records with a table or list of them, and update the index, not the record, when a decision is replaced:
//   | [12](0012-use-x.md) | Use X | Superseded by [19](0019-use-y.md) |
//   - ~~[ADR-4: Use Z](0004-use-z.md)~~ (deprecated)
// The status a row gives is read from a short cell or a short trailing fragment, never from the title (a record
// titled "Deprecate the v1 API" is not deprecated), or from a struck-through link.
import { posix } from "node:path";
import type { AdrStatus } from "../schemas";
import { normaliseStatus } from "./adr";
import { stripInline } from "./markdown";
import { DOC_EXTENSION } from "./lightMarkup";

/** File names that are an index of the records in their folder. */
const INDEX_NAME = /^(?:readme|index|_index|summary|toc|log|decisions|adrs?)\.(?:md|markdown|rst|adoc|asciidoc)$/i;
const LINK = /(~~\s*)?\[([^\]]{0,300})\]\(\s*<?([^)\s>]{1,500})>?(?:\s+"[^"]{0,200}")?\s*\)(\s*~~)?/g;
/** A status fragment is short: "Accepted", "Superseded by 19", "✅ accepted (2021)". */
const MAX_STATUS_WORDS = 5;
/**
 * A status fragment starts with a status word in its participle or adjective form ("Deprecated", not the title
 * verb "Deprecate …") or with a status symbol.
 */
const STATUS_START =
  /^[\p{S}\p{P}\s]*(?:accepted|approved|adopted|superseded|superceded|deprecated|rejected|declined|withdrawn|abandoned|proposed|draft|pending|implemented|done|active|obsolete|replaced|overridden|retired|archived|in review|wip)\b|^[\s\p{P}]*[\u2705\u2714\u2611\u274c\u26d4\u{1f6ab}\u2716\u231b\u23f3\u{1f6a7}\u{1f4dd}]/iu;
/** Lines longer than this are prose, not index rows. */
const MAX_ROW_CHARS = 2000;

export interface IndexStatus {
  status: AdrStatus;
  /** The index file that says so. */
  from: string;
}

export function isIndexFile(path: string): boolean {
  return INDEX_NAME.test(posix.basename(path));
}

/**
 * The status each record gets from index files: `records` are the paths of the known records. A record named by
 * several rows (or several indexes) with different statuses gets none: an index that disagrees with itself says nothing.
 */
export function statusesFromIndexes(indexes: { path: string; text: string }[], records: Set<string>): Map<string, IndexStatus> {
  const found = new Map<string, IndexStatus | null>();
  for (const index of indexes) {
    if (records.has(index.path)) continue;
    const dir = posix.dirname(index.path);
    for (const line of index.text.split("\n")) {
      if (line.length > MAX_ROW_CHARS || !line.includes("](")) continue;
      const row = readRow(line, dir, records);
      if (!row) continue;
      const prior = found.get(row.record);
      if (prior === undefined) found.set(row.record, { status: row.status, from: index.path });
      else if (prior && prior.status !== row.status) found.set(row.record, null);
    }
  }
  const out = new Map<string, IndexStatus>();
  for (const [record, s] of found) if (s) out.set(record, s);
  return out;
}

/** The record a row is about (its first link to a record) and the status the row gives it, if any. */
function readRow(line: string, dir: string, records: Set<string>): { record: string; status: AdrStatus } | undefined {
  LINK.lastIndex = 0;
  let first: { record: string; struck: boolean; end: number; start: number } | undefined;
  for (let m = LINK.exec(line); m; m = LINK.exec(line)) {
    const target = resolveLink(m[3], dir);
    if (target && records.has(target)) {
      first = { record: target, struck: !!(m[1] && m[4]), start: m.index, end: m.index + m[0].length };
      break;
    }
  }
  if (!first) return undefined;
  if (first.struck) return { record: first.record, status: "deprecated" };
  const rest = line.slice(first.end);
  const fragments = line.trimStart().startsWith("|") ? line.split("|").filter((_, i, all) => i > 0 && i < all.length - 1) : rest.split(/\s[-–—:]\s|[()[\]]/);
  for (const fragment of fragments) {
    if (fragment.includes(line.slice(first.start, first.end))) continue;
    const text = stripInline(fragment).trim();
    if (!text || text.split(/\s+/).length > MAX_STATUS_WORDS || !STATUS_START.test(text)) continue;
    const status = normaliseStatus(text);
    if (status !== "unknown") return { record: first.record, status };
  }
  return undefined;
}

function resolveLink(target: string, dir: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("#")) return undefined;
  const path = decodeURIComponentSafe(target.split("#")[0]);
  if (!DOC_EXTENSION.test(path)) return undefined;
  const resolved = path.startsWith("/") ? posix.normalize(path.slice(1)) : posix.normalize(posix.join(dir, path));
  return resolved.startsWith("../") ? undefined : resolved;
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

const OUT_OF_FORCE = new Set<AdrStatus>(["superseded", "deprecated", "rejected"]);

/**
 * The record's status once its index has spoken: an index fills in a record that states none, and an index that
 * marks a record out of force wins over the record's own "Accepted" (logs update the index, not the old record).
 */
export function withIndexStatus<T extends { status: AdrStatus; warnings: string[] }>(adr: T, hint: IndexStatus | undefined): T {
  if (!hint || hint.status === adr.status || OUT_OF_FORCE.has(adr.status)) return adr;
  if (adr.status !== "unknown" && !OUT_OF_FORCE.has(hint.status)) return adr;
  adr.warnings.push(`status ${hint.status} from the index ${hint.from}${adr.status !== "unknown" ? ` (the record says ${adr.status})` : ""}`);
  adr.status = hint.status;
  return adr;
}
