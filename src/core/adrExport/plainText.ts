// Evidence, questions and reasons come from the repository, a model or the web. In an ADR they must stay text:
// no raw HTML (a `<script>` renders as the characters, not a tag), no link or image syntax the author did not
// write, no line that turns into a heading, quote, list or front-matter fence, and no phrase that the ADR parser
// would read as this record's own status or decision.
import { terminalSafe } from "../sanitize";

/** One line of inert Markdown text. */
export function plainInline(text: string, max = 400): string {
  let s = terminalSafe(text).replace(/\s+/g, " ").trim();
  if (s.length > max) s = `${s.slice(0, max - 1).trimEnd()}…`;
  s = s
    .replace(/\\/g, "\\\\")
    .replace(/&(?=[#A-Za-z0-9]+;)/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/([[\]`])/g, "\\$1")
    .replace(/!(?=\\\[)/g, "\\!");
  // Quoted evidence must not read as this record's own decision or status.
  s = s.replace(/\b(chosen option)(\s*):/gi, "$1$2 —").replace(/^(status|date|supersedes|superseded by)(\s*):/i, "$1$2 —");
  return s;
}

/** plainInline for a paragraph of its own: a leading character that would open a block is escaped too. */
export function plainParagraph(text: string, max = 2000): string {
  const s = plainInline(text, max);
  if (/^(#|>|[-*+=|~_](\s|$)|[-=*_]{3,}|\d+[.)](\s|$))/.test(s)) return `\\${s}`;
  return s;
}

/** A file path or commit id in a code span, or escaped text when it holds a backtick. */
export function codeSpan(text: string): string {
  const s = terminalSafe(text).replace(/\s+/g, " ").trim();
  return /`/.test(s) || !s ? plainInline(s) : `\`${s}\``;
}

/** The first line of an excerpt that reads as prose (headings and fences skipped). */
export function excerptLine(excerpt: string): string {
  for (const raw of excerpt.split("\n")) {
    if (/^\s{0,3}#/.test(raw)) continue;
    const line = raw.replace(/^\s*(?:[-*+]|\d+[.)])\s+/, "").trim();
    if (line.length >= 8 && !/^(`{3,}|~{3,}|---)/.test(line)) return line;
  }
  return excerpt.replace(/\s+/g, " ").trim();
}
