// Evidence, questions and reasons come from the repository, a model or the web. In an ADR they must stay text:
// no raw HTML (a `<script>` renders as the characters, not a tag), no link or image syntax the author did not
// write, no line that turns into a heading, quote, list or front-matter fence, and no phrase that the ADR parser
// would read as this record's own status or decision.
import { terminalSafe } from "../sanitize";

// Characters that change how text reads without showing themselves: bidi embeddings, overrides and isolates (a
// title can display reversed, "Trojan Source"), zero-width spaces and joiners, word joiners, the BOM, the soft
// hyphen and Unicode tag characters. Removed from everything an ADR quotes.
const INVISIBLE = /[\u00AD\u061C\u180E\u200B\u200E\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFEFF]|\uDB40[\uDC00-\uDC7F]/g;
// Also the zero-width (non-)joiners: legitimate inside some scripts and emoji, but in a link to another record they
// only serve to make two different titles look the same.
const INVISIBLE_OR_JOINER = /[\u00AD\u061C\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFEFF]|\uDB40[\uDC00-\uDC7F]/g;

/** One line of inert Markdown text. */
export function plainInline(text: string, max = 400): string {
  let s = terminalSafe(text).replace(INVISIBLE, "").replace(/\s+/g, " ").trim();
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

/**
 * The text of a Markdown link to another record, from its raw title (which came from that file, so from anyone):
 * inert like plainInline (no HTML, no code spans, no nested link), invisible and bidi characters removed, and brackets written as character references rather than backslash escapes, so the link
 * text holds no bracket at all and every ADR tool's link pattern (`[^\]]*`) still finds the target.
 */
export function linkLabel(title: string, max = 200): string {
  return plainInline(title.replace(INVISIBLE_OR_JOINER, ""), max).replace(/\\\[/g, "&#91;").replace(/\\\]/g, "&#93;");
}
