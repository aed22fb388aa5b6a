// What a citation's content hash covers, in one place, so the seal step and the freshness check agree byte for byte:
// - a citation with a line range: the cited lines (1-based, inclusive) of the file's text, BOM stripped and CRLF
//   normalised to LF (as discovery reads it, so a CRLF checkout of the same commit is not "changed"), joined by "\n";
// - a whole-document citation (no line range, no commit): the whole normalised text;
// - a commit citation: no hash; a commit is content-addressed by its sha, so freshness only asks git whether the
//   commit still exists (a rewritten or pruned history makes it vanish).
// Every file is read by a path from the receipt, so it resolves through realpath and must stay inside the repository.
import { promises as fs } from "node:fs";
import { join } from "node:path";
import { resolveInside } from "../contain";
import { sha256 } from "../hash";
import { asMarkdown } from "../internal/lightMarkup";
import type { Citation, LineRange } from "../schemas";

/** Above this size a cited file is not hashed (a citation into a huge generated file stays unchecked). */
export const MAX_HASHED_FILE_BYTES = 4 * 1024 * 1024;

export function normaliseCitedText(text: string): string {
  return text.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
}

/** The lines of a normalised text (a trailing newline does not make an extra line). */
export function linesOf(text: string): string[] {
  if (text.length === 0) return [];
  return text.replace(/\n$/, "").split("\n");
}

/** The cited part of a normalised text, or undefined when the range runs past the end. */
export function citedPart(text: string, range: LineRange | undefined): string | undefined {
  if (!range) return text;
  const lines = linesOf(text);
  if (range.end > lines.length) return undefined;
  return lines.slice(range.start - 1, range.end).join("\n");
}

/** Whether a citation is hashed at all: internal, resolved, and a file (not a commit). */
export function isHashable(c: Citation): boolean {
  return c.kind === "internal" && !c.resolution_failed && !c.commit && c.precision_class !== "commit";
}

/**
 * The normalised text of a repository file read through realpath containment: `missing` when it is gone,
 * `outside` when it resolves outside the repository, `unreadable` when it is too large or not text.
 */
export async function readCitedFile(repo: string, rel: string): Promise<{ text: string } | { problem: "missing" | "outside" | "unreadable" }> {
  const real = await resolveInside(repo, rel);
  if (!real) {
    const exists = await fs.lstat(join(repo, rel)).then(() => true, () => false);
    return { problem: exists ? "outside" : "missing" };
  }
  try {
    const st = await fs.stat(real);
    if (!st.isFile() || st.size > MAX_HASHED_FILE_BYTES) return { problem: "unreadable" };
    // Hashed as discovery read it: a reStructuredText or AsciiDoc record is cited in its Markdown reading.
    return { text: asMarkdown(rel, normaliseCitedText(await fs.readFile(real, "utf8"))) };
  } catch (err) {
    return { problem: (err as NodeJS.ErrnoException).code === "ENOENT" ? "missing" : "unreadable" };
  }
}

/**
 * Adds `content_sha256` to every hashable citation. `known` holds texts the pipeline already read (discovery's
 * artifacts), so the hash covers exactly what was cited; anything else is read through containment. A citation
 * whose file or lines cannot be read is left without a hash (it is already flagged `resolution_failed` upstream).
 */
export async function withContentHashes(repo: string, citations: Citation[], known: Map<string, string> = new Map()): Promise<Citation[]> {
  const reads = new Map<string, Promise<string | undefined>>();
  const textOf = (path: string): Promise<string | undefined> => {
    let p = reads.get(path);
    if (!p) {
      const have = known.get(path);
      p = have !== undefined ? Promise.resolve(have) : readCitedFile(repo, path).then((r) => ("text" in r ? r.text : undefined));
      reads.set(path, p);
    }
    return p;
  };
  return Promise.all(
    citations.map(async (c) => {
      if (!isHashable(c)) return c;
      const text = await textOf(c.path_or_url);
      const part = text === undefined ? undefined : citedPart(text, c.line_range);
      return part === undefined ? c : { ...c, content_sha256: sha256(part) };
    }),
  );
}

/**
 * The artifact set's membership, compactly: a short hash (10 hex digits) of each artifact path, sorted. Stored in
 * the receipt, it tells which artifacts are new since the receipt (added or renamed) without storing the paths;
 * edits to an artifact do not change it (edits to cited lines are caught by the citations' own hashes).
 */
export function artifactPathKey(path: string): string {
  return sha256(path).slice(0, 10);
}

export function artifactPathKeys(paths: string[]): string[] {
  return [...new Set(paths.map(artifactPathKey))].sort();
}

/** Where a citation points, as one short string: path:start-end, a whole file's path, or "<sha> path" for a commit. */
export function citationPlace(c: Pick<Citation, "path_or_url" | "line_range" | "commit" | "decision_source">): string {
  if (c.commit) return `${c.commit.slice(0, 10)} ${c.path_or_url}`;
  // A decision source's record carries the source's commit: `architecture:decisions/0007-x.md:12-20 @ 1a2b3c4d5e`.
  const at = c.decision_source?.commit ? ` @ ${c.decision_source.commit.slice(0, 10)}` : "";
  return `${c.line_range ? `${c.path_or_url}:${c.line_range.start}-${c.line_range.end}` : c.path_or_url}${at}`;
}
