// Markdown structure with line numbers that stay true to the original file, so every citation built on a section
// points at real lines. Deliberately not a full CommonMark parser: ATX and setext headings, fenced code blocks and
// a leading YAML front-matter block are all that section splitting needs.
import matter from "gray-matter";

/**
 * One heading and the lines it governs. Line numbers are 1-based and inclusive, counted in the original text
 * (front matter included), with trailing blank lines trimmed from every range.
 *
 * Two ranges, because callers need both views:
 *  - `start..end` is the nested range: the heading line through the last line before the next heading of the
 *    same or a higher level (a smaller `#` count), or the end of the file. It includes subsections.
 *  - `start..contentEnd` is the own range: the heading through the last line before the next heading of any
 *    level. It never overlaps another section's own range, which is what an index wants.
 *
 * Text before the first heading (after front matter) becomes a level-0 section with an empty heading, when it
 * has any non-blank line.
 */
export interface MarkdownSection {
  heading: string;
  /** 1–6 for headings, 0 for the preamble before the first heading. */
  level: number;
  start: number;
  end: number;
  contentEnd: number;
  /** First line after the heading (a setext heading's underline is part of the heading). */
  bodyStart: number;
  /** The own content below the heading line (lines start+1..contentEnd; for the preamble start..contentEnd). */
  body: string;
  /** Index of the enclosing section in the returned list, if any. */
  parent?: number;
}

export interface FrontMatter {
  data: Record<string, unknown>;
  /** Line of the opening and closing delimiters (1-based). */
  startLine: number;
  endLine: number;
}

export interface MarkdownDoc {
  lines: string[];
  frontMatter?: FrontMatter;
  sections: MarkdownSection[];
  warnings: string[];
}

// The heading text is taken whole and trimmed afterwards: a lazy (.*?) before [ \t]*$ is quadratic on space runs.
const ATX = /^ {0,3}(#{1,6})(?:[ \t]+(.*))?$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;
// Lines that cannot be the text of a setext heading: blank, list items, quotes, tables, thematic breaks.
const NOT_SETEXT_TEXT = /^\s*$|^ {0,3}([-*+]|\d+[.)])\s|^ {0,3}>|^\s*\||^ {0,3}([-*_])(\s*\1){2,}\s*$/;

/** Splits text into lines; "\r\n" and lone "\r" count as line breaks like they do in editors. */
export function toLines(text: string): string[] {
  return text.replace(/\r\n?/g, "\n").split("\n");
}

/** The sections of a markdown (or plain text) document; see {@link MarkdownSection} for the range rule. */
export function splitSections(text: string): MarkdownSection[] {
  return parseMarkdown(text).sections;
}

/**
 * Headings read per document. A longer one (a generated reference, or 400,000 empty `#` lines) keeps its first
 * MAX_SECTIONS sections, the last of which ends before the next heading; the rest of the text is in no section, and
 * a warning says so. Every reader of a document works per section, so this bounds what one document costs.
 */
export const MAX_SECTIONS = 10_000;

interface Heading {
  line: number;
  level: number;
  text: string;
  setextUnderline?: boolean;
}

export function parseMarkdown(text: string): MarkdownDoc {
  const lines = toLines(text.replace(/^\uFEFF/, ""));
  const warnings: string[] = [];
  const frontMatter = readFrontMatter(lines, warnings);
  const first = frontMatter ? frontMatter.endLine + 1 : 1;
  const headings = findHeadings(lines, first);
  // The last line any section reaches: the whole text, or the line before the first heading past the cap.
  let last = lines.length;
  if (headings.length > MAX_SECTIONS) {
    last = headings[MAX_SECTIONS].line - 1;
    headings.length = MAX_SECTIONS;
    warnings.push(`more than ${MAX_SECTIONS} headings: lines ${last + 1}-${lines.length} are left out of the sections`);
  }

  const sections: MarkdownSection[] = [];
  const lastContent = (from: number, to: number): number => {
    let e = to;
    while (e > from && lines[e - 1].trim() === "") e--;
    return e;
  };

  // Preamble: non-blank text before the first heading.
  const firstHeading = headings.length ? headings[0].line : last + 1;
  if (first < firstHeading) {
    const end = lastContent(first - 1, firstHeading - 1);
    let start = first;
    while (start <= end && lines[start - 1].trim() === "") start++;
    if (start <= end) {
      sections.push({ heading: "", level: 0, start, end, contentEnd: end, bodyStart: start, body: lines.slice(start - 1, end).join("\n") });
    }
  }

  const stack: number[] = [];
  headings.forEach((h, i) => {
    const next = headings[i + 1];
    const bodyStart = h.setextUnderline ? h.line + 2 : h.line + 1;
    const ownLimit = next ? next.line - 1 : last;
    let nestedLimit = last;
    for (let j = i + 1; j < headings.length; j++) {
      if (headings[j].level <= h.level) {
        nestedLimit = headings[j].line - 1;
        break;
      }
    }
    const headingEnd = bodyStart - 1;
    const contentEnd = Math.max(headingEnd, lastContent(headingEnd, ownLimit));
    const end = Math.max(headingEnd, lastContent(headingEnd, nestedLimit));
    while (stack.length && sections[stack[stack.length - 1]].level >= h.level) stack.pop();
    const section: MarkdownSection = {
      heading: h.text,
      level: h.level,
      start: h.line,
      end,
      contentEnd,
      bodyStart,
      body: contentEnd >= bodyStart ? lines.slice(bodyStart - 1, contentEnd).join("\n") : "",
    };
    if (stack.length) section.parent = stack[stack.length - 1];
    sections.push(section);
    stack.push(sections.length - 1);
  });

  return { lines, frontMatter, sections, warnings };
}

/**
 * The headings of `lines` from line `first` on (1-based line numbers), skipping fenced code; it stops at the first
 * heading past MAX_SECTIONS (the caller drops that one and says where the sections end).
 */
function findHeadings(lines: string[], first: number): Heading[] {
  const headings: Heading[] = [];
  let fence: string | undefined;
  for (let n = first; n <= lines.length && headings.length <= MAX_SECTIONS; n++) {
    const line = lines[n - 1];
    const f = FENCE.exec(line);
    if (fence) {
      if (f && f[1][0] === fence[0] && f[1].length >= fence.length && line.trim() === f[1]) fence = undefined;
      continue;
    }
    if (f) {
      fence = f[1];
      continue;
    }
    const atx = ATX.exec(line);
    if (atx) {
      headings.push({ line: n, level: atx[1].length, text: cleanHeading((atx[2] ?? "").replace(/(?<![ \t])[ \t]+$/, "")) });
      continue;
    }
    // Setext: a one-line paragraph underlined with === or ---. A longer paragraph followed by "---" is far more
    // often prose plus a thematic break, so only a line preceded by a blank line, a heading or the start counts.
    const setext = SETEXT.exec(line);
    if (setext && n - 1 >= first) {
      const prev = lines[n - 2];
      const last = headings[headings.length - 1];
      const before = n - 2 >= first ? lines[n - 3] : "";
      const beforeOk = before.trim() === "" || ATX.test(before) || last?.line === n - 2;
      if (!NOT_SETEXT_TEXT.test(prev) && !FENCE.test(prev) && !ATX.test(prev) && last?.line !== n - 1 && beforeOk) {
        headings.push({ line: n - 1, level: setext[1][0] === "=" ? 1 : 2, text: cleanHeading(prev), setextUnderline: true });
      }
    }
  }
  return headings;
}

/** Strips inline markup that only gets in the way of matching headings: emphasis, code ticks, link syntax. */
/** Inline HTML a heading may carry for its anchor or looks ("<a name=\"option-1\"></a>", "<sup>", "<br/>"), never a generic ("Map<K, V>"). */
const INLINE_HTML_TAG = /<\/?(?:a|span|sup|sub|br|img|em|strong|b|i|small|kbd|abbr|del|ins|u|mark|code)(?:\s[^<>]{0,300})?\/?>/gi;

function cleanHeading(raw: string): string {
  // The lookbehind starts the match only where a space run starts, which keeps it linear on long runs.
  return stripInline(raw.replace(/(?<![ \t])[ \t]+#+[ \t]*$/, "").replace(INLINE_HTML_TAG, " "))
    .replace(/\s{2,}/g, " ")
    .trim();
}

export function stripInline(s: string): string {
  return s
    // Link text stops at "[" too, so a run of unclosed brackets is scanned once, not once per bracket.
    .replace(/!?\[([^[\]]*)\]\([^()]*\)/g, "$1")
    // A reference-style link, "[pytest][pytest]" or "[pytest][]", reads as its text too.
    .replace(/!?\[([^[\]]*)\]\[[^[\]]*\]/g, "$1")
    .replace(/(\*\*|__)(.+?)\1/g, "$2")
    .replace(/(^|[^\w*])[*_]([^*_\s][^*_]*?)[*_](?=[^\w*]|$)/g, "$1$2")
    .replace(/`([^`]*)`/g, "$1");
}

/**
 * A front-matter block is `---` on line 1 up to the next `---` or `...` line. When the YAML inside is malformed
 * the block is still kept out of the sections (so its `---` lines do not turn into setext headings), its data is
 * empty, and a warning says why. Without a closing delimiter there is no front matter.
 */
function readFrontMatter(lines: string[], warnings: string[]): FrontMatter | undefined {
  if (!/^---[ \t]*$/.test(lines[0] ?? "")) return undefined;
  let close = -1;
  for (let i = 1; i < lines.length; i++) {
    if (/^(---|\.\.\.)[ \t]*$/.test(lines[i])) {
      close = i;
      break;
    }
  }
  if (close < 0) {
    warnings.push("front matter: no closing --- delimiter; treated as content");
    return undefined;
  }
  const block = ["---", ...lines.slice(1, close), "---", ""].join("\n");
  let data: Record<string, unknown> = {};
  try {
    // Passing options (even empty) keeps gray-matter from caching every parsed file in a global map.
    const parsed = matter(block, {}).data as unknown;
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) data = parsed as Record<string, unknown>;
    else if (parsed != null) warnings.push("front matter: not a mapping; ignored");
  } catch (err) {
    const msg = err instanceof Error ? err.message.split("\n")[0] : String(err);
    warnings.push(`front matter: malformed YAML (${msg}); ignored`);
  }
  return { data, startLine: 1, endLine: close + 1 };
}

/** A front-matter value as a display string: YAML dates become YYYY-MM-DD, scalars their string form. */
export function frontMatterString(value: unknown): string | undefined {
  if (value == null) return undefined;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value.toISOString().slice(0, 10);
  if (typeof value === "string") return value.trim() || undefined;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return undefined;
}
