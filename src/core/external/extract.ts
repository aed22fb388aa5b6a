// Fetched page -> readable text split into sections. HTML goes through @mozilla/readability over a linkedom DOM
// (no regex HTML parsing); the article DOM is then walked into markdown-like lines so headings survive and every
// section has a line range within the extracted text. Markdown and plain text responses are split as they are.
import { splitSections, toLines } from "../internal/markdown";

export interface TextSection {
  heading: string;
  /** 1–6 for headings, 0 for text before the first heading. */
  level: number;
  /** 1-based inclusive line range within `text`. */
  start: number;
  end: number;
  body: string;
}

export interface ExtractedText {
  title: string;
  /** The extracted text, headings rendered as "## Heading" lines. */
  text: string;
  sections: TextSection[];
  /** "readability" when the article extractor found the main content, "body" for the whole-page fallback. */
  method: "readability" | "body" | "markdown" | "plain";
}

/** Sections longer than this many lines are split into windows, so excerpts and ranks stay focused. */
export const MAX_SECTION_LINES = 60;
const WINDOW_LINES = 40;

// Minimal structural typing of the DOM nodes we walk (the project's lib settings carry no DOM types).
interface DomNode {
  nodeType: number;
  nodeName: string;
  textContent: string | null;
  childNodes: ArrayLike<DomNode>;
  getAttribute?: (name: string) => string | null;
}
interface DomDocument {
  title?: string;
  body?: DomNode | null;
  documentElement?: DomNode | null;
  querySelectorAll(selector: string): ArrayLike<DomNode & { remove(): void; removeAttribute?(name: string): void }>;
}

export function extractText(body: string, contentType: string): ExtractedText {
  const type = contentType.toLowerCase();
  if (type === "text/html" || type === "application/xhtml+xml") return extractHtml(body);
  const lines = toLines(body);
  const sections = splitSections(body).map((s) => ({
    heading: s.heading,
    level: s.level,
    start: s.start,
    end: s.contentEnd,
    body: s.body,
  }));
  const title = sections.find((s) => s.level > 0)?.heading ?? lines.find((l) => l.trim())?.trim().slice(0, 120) ?? "";
  return {
    title,
    text: lines.join("\n"),
    sections: windowSections(sections, lines),
    method: type === "text/markdown" ? "markdown" : "plain",
  };
}

/** The HTML libraries, loaded on the first page read (see ./htmlLibs.ts). */
function htmlLibs(): typeof import("./htmlLibs") {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- deferred on purpose (see ./htmlLibs.ts)
  return require("./htmlLibs") as typeof import("./htmlLibs");
}

export function extractHtml(html: string): ExtractedText {
  const { parseHTML, Readability } = htmlLibs();
  const { document } = parseHTML(html) as unknown as { document: DomDocument };
  const pageTitle = cleanText(document.title ?? "");
  let root: DomNode | null | undefined;
  let title = pageTitle;
  let method: ExtractedText["method"] = "readability";
  // Readability's cost grows with nesting depth times elements, and it runs synchronously where no timeout can stop
  // it (2,000 nested divs in 22 KB took 89 s): a page nested deeper than any real article is read from its body.
  if (nestingDepth(html) > MAX_READABILITY_DEPTH) method = "body";
  else try {
    // Readability mutates the document it reads, so give it its own copy.
    const { document: copy } = parseHTML(html) as unknown as { document: DomDocument };
    // Navigation is never the article; dropping it first keeps short pages from being read as menus.
    for (const el of Array.from(copy.querySelectorAll(CHROME))) el.remove();
    // Readability drops h1/h2 whose id or class looks negative ("related", "comment", …); that merges the section
    // into its neighbour. We rank sections ourselves, so keep every heading.
    for (const el of Array.from(copy.querySelectorAll("h1,h2,h3,h4,h5,h6"))) {
      el.removeAttribute?.("id");
      el.removeAttribute?.("class");
    }
    const article = new Readability(copy as never, { serializer: (n: unknown) => n, charThreshold: 200 }).parse();
    if (article?.content) {
      root = article.content as unknown as DomNode;
      title = cleanText(article.title ?? "") || pageTitle;
    }
  } catch {
    root = undefined;
  }
  if (!root || !cleanText(root.textContent ?? "")) {
    method = "body";
    for (const el of Array.from(document.querySelectorAll(`${CHROME},header,footer,aside,form,svg,iframe`))) el.remove();
    root = document.body ?? document.documentElement;
  }
  const out = new LineWriter();
  if (root) walk(root, out, "");
  out.flush();
  const lines = out.lines;
  while (lines.length && !lines[lines.length - 1].trim()) lines.pop();
  const sections = sectionsFromHeadings(lines, out.headings);
  return { title, text: lines.join("\n"), sections: windowSections(sections, lines), method };
}

const CHROME = "script,style,noscript,template,nav,[role=navigation],body > header,body > footer";

/** Deeper than this, a page is read from its body without Readability (real articles nest a few dozen levels). */
const MAX_READABILITY_DEPTH = 120;
/**
 * Elements not counted: those that never hold others (no closing tag), and those whose closing tag HTML lets a page
 * leave out (`<p>`, `<li>`, `<td>` …), which would otherwise count as ever deeper on an ordinary page.
 */
const UNCOUNTED_ELEMENTS = new Set([
  "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr",
  "p", "li", "dt", "dd", "tr", "td", "th", "option", "optgroup", "thead", "tbody", "tfoot", "colgroup", "caption", "rb", "rt", "rp", "html", "head", "body",
]);

/** The deepest element nesting of the markup, by a linear scan of its tags (approximate: enough to bound the cost). */
export function nestingDepth(html: string): number {
  let depth = 0;
  let max = 0;
  for (const m of html.matchAll(/<(\/?)([a-zA-Z][\w-]{0,30})[^>]{0,2000}?(\/?)>/g)) {
    if (UNCOUNTED_ELEMENTS.has(m[2].toLowerCase())) continue;
    if (m[1]) depth = Math.max(0, depth - 1);
    else if (!m[3]) max = Math.max(max, ++depth);
  }
  return max;
}
const SKIP = new Set(["script", "style", "noscript", "template", "svg", "iframe", "button", "select", "input", "textarea", "object", "canvas"]);
const BLOCK = new Set([
  "p", "div", "section", "article", "main", "header", "footer", "aside", "nav", "figure", "figcaption", "dl", "dt", "dd",
  "details", "summary", "address", "form", "fieldset", "hr", "body", "html", "center",
]);

class LineWriter {
  lines: string[] = [];
  headings: { line: number; level: number; text: string }[] = [];
  private current = "";

  text(s: string): void {
    this.current += s;
  }

  flush(prefix = ""): void {
    const t = this.current.replace(/[ \t\u00a0]+/g, " ").trim();
    this.current = "";
    if (t) this.lines.push(prefix + t);
  }

  blank(): void {
    if (this.lines.length && this.lines[this.lines.length - 1] !== "") this.lines.push("");
  }

  raw(line: string): void {
    this.lines.push(line);
  }

  heading(level: number, text: string): void {
    this.flush();
    this.blank();
    this.lines.push(`${"#".repeat(level)} ${text}`);
    this.headings.push({ line: this.lines.length, level, text });
    this.lines.push("");
  }
}

function tagOf(n: DomNode): string {
  return n.nodeName.toLowerCase();
}

function walk(node: DomNode, out: LineWriter, prefix: string): void {
  const children = Array.from(node.childNodes);
  for (const child of children) {
    if (child.nodeType === 3) {
      out.text((child.textContent ?? "").replace(/\s+/g, " "));
      continue;
    }
    if (child.nodeType !== 1) continue;
    const tag = tagOf(child);
    if (!SKIP.has(tag)) writeElement(child, tag, out, prefix);
  }
}

function writeElement(el: DomNode, tag: string, out: LineWriter, prefix: string): void {
  const h = /^h([1-6])$/.exec(tag);
  if (h) {
    writeHeading(el, Number(h[1]), out, prefix);
  } else if (tag === "br") {
    out.flush(prefix);
  } else if (tag === "pre") {
    writePre(el, out, prefix);
  } else if (tag === "ul" || tag === "ol") {
    writeList(el, tag === "ol", out, prefix);
  } else if (tag === "blockquote") {
    out.flush(prefix);
    walk(el, out, prefix + "> ");
    out.flush(prefix + "> ");
    out.blank();
  } else if (tag === "table") {
    out.flush(prefix);
    for (const row of rowsOf(el)) out.raw(prefix + row);
    out.blank();
  } else if (tag === "li") {
    // A list item not directly inside <ul>/<ol>.
    out.flush(prefix);
    walk(el, out, prefix);
    out.flush(prefix + "- ");
  } else if (BLOCK.has(tag)) {
    out.flush(prefix);
    walk(el, out, prefix);
    out.flush(prefix);
    if (tag === "p" || tag === "figure" || tag === "details") out.blank();
  } else {
    // Inline: code, a, em, strong, span, …
    walk(el, out, prefix);
  }
}

function writeHeading(el: DomNode, level: number, out: LineWriter, prefix: string): void {
  const text = cleanText(el.textContent ?? "");
  if (!text) return;
  out.flush(prefix);
  out.heading(level, text);
}

/** Preformatted text keeps its lines, fenced. */
function writePre(el: DomNode, out: LineWriter, prefix: string): void {
  out.flush(prefix);
  out.blank();
  out.raw(prefix + "```");
  for (const l of (el.textContent ?? "").replace(/\r\n?/g, "\n").replace(/(?<!\n)\n+$/, "").split("\n")) out.raw(prefix + l.trimEnd());
  out.raw(prefix + "```");
  out.blank();
}

function writeList(list: DomNode, ordered: boolean, out: LineWriter, prefix: string): void {
  out.flush(prefix);
  let i = 1;
  for (const li of Array.from(list.childNodes)) {
    if (li.nodeType !== 1) continue;
    if (tagOf(li) !== "li") {
      walk(li, out, prefix);
      continue;
    }
    const marker = ordered ? `${i++}. ` : "- ";
    const before = out.lines.length;
    walk(li, out, prefix + "  ");
    out.flush(prefix + "  ");
    // The first line of the item carries the marker in place of the indentation.
    let first = before;
    while (first < out.lines.length && !out.lines[first].trim()) first++;
    if (first < out.lines.length) out.lines[first] = prefix + marker + out.lines[first].slice(prefix.length + 2);
  }
  out.blank();
}

function rowsOf(table: DomNode): string[] {
  const rows: string[] = [];
  const visit = (n: DomNode) => {
    for (const c of Array.from(n.childNodes)) {
      if (c.nodeType !== 1) continue;
      const tag = tagOf(c);
      if (tag === "tr") {
        const cells = Array.from(c.childNodes)
          .filter((x) => x.nodeType === 1 && /^t[dh]$/.test(tagOf(x)))
          .map((x) => cleanText(x.textContent ?? ""));
        if (cells.some(Boolean)) rows.push(`| ${cells.join(" | ")} |`);
      } else if (tag !== "table") visit(c);
    }
  };
  visit(table);
  return rows;
}

function cleanText(s: string): string {
  return s.replace(/\s+/g, " ").trim();
}

/** Own-range sections (heading line through the line before the next heading) from recorded heading lines. */
function sectionsFromHeadings(lines: string[], headings: { line: number; level: number; text: string }[]): TextSection[] {
  const sections: TextSection[] = [];
  const trimEnd = (from: number, to: number) => {
    let e = to;
    while (e > from && !lines[e - 1]?.trim()) e--;
    return e;
  };
  const firstHeading = headings.length ? headings[0].line : lines.length + 1;
  let s = 1;
  while (s < firstHeading && !lines[s - 1]?.trim()) s++;
  if (s < firstHeading) {
    const e = trimEnd(s, firstHeading - 1);
    sections.push({ heading: "", level: 0, start: s, end: e, body: lines.slice(s - 1, e).join("\n") });
  }
  headings.forEach((h, i) => {
    const limit = i + 1 < headings.length ? headings[i + 1].line - 1 : lines.length;
    const e = Math.max(h.line, trimEnd(h.line, limit));
    sections.push({ heading: h.text, level: h.level, start: h.line, end: e, body: lines.slice(h.line, e).join("\n") });
  });
  return sections;
}

/** Splits over-long sections into windows of WINDOW_LINES lines (the heading is kept on each window). */
export function windowSections(sections: TextSection[], lines: string[]): TextSection[] {
  const out: TextSection[] = [];
  for (const s of sections) {
    if (s.end - s.start + 1 <= MAX_SECTION_LINES) {
      out.push(s);
      continue;
    }
    for (let from = s.start; from <= s.end; from += WINDOW_LINES) {
      const to = Math.min(s.end, from + WINDOW_LINES - 1);
      const bodyFrom = from === s.start && s.level > 0 ? from + 1 : from;
      const body = lines.slice(bodyFrom - 1, to).join("\n");
      if (!body.trim()) continue;
      out.push({ heading: s.heading, level: s.level, start: from, end: to, body });
    }
  }
  return out;
}
