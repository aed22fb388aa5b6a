// Records are not always Markdown: Python and Open edX projects keep ADRs in reStructuredText, Java projects keep
// enhancement proposals in AsciiDoc. Rather than teach every reader two more syntaxes, such a file is rewritten into
// the Markdown the readers know, line for line: the rewrite never adds or removes a line, so every section range and
// citation still points at the same lines of the real file. Only the structure readers rely on is rewritten
// (headings, metadata fields and tables, links, code blocks, comments); prose is left as it is.

/** File names of documents the pipeline reads: Markdown, reStructuredText and AsciiDoc. */
export const DOC_EXTENSION = /\.(?:md|markdown|rst|adoc|asciidoc)$/i;

export type LightMarkup = "rst" | "asciidoc";

/** Inline markup is rewritten only on lines up to this long (a generated line of a megabyte is left as it is). */
const MAX_INLINE_CHARS = 20_000;

/** Which non-Markdown syntax a path is written in, by its extension; undefined for Markdown and anything else. */
export function lightMarkupOf(path: string): LightMarkup | undefined {
  if (/\.rst$/i.test(path)) return "rst";
  if (/\.(?:adoc|asciidoc)$/i.test(path)) return "asciidoc";
  return undefined;
}

/** A file name without its document extension: "0005-use-x.rst" → "0005-use-x". */
export function withoutDocExtension(name: string): string {
  return name.replace(DOC_EXTENSION, "");
}

/**
 * The text every reader sees for `path`: Markdown as it is, reStructuredText and AsciiDoc rewritten into Markdown
 * with the same number of lines. `text` is already normalised to "\n" line breaks.
 */
export function asMarkdown(path: string, text: string): string {
  const kind = lightMarkupOf(path);
  if (!kind) return text;
  const lines = text.split("\n");
  const out = kind === "rst" ? rstLines(lines) : asciidocLines(lines);
  return out.join("\n");
}

// ---- reStructuredText ----

/** A section adornment: one punctuation character repeated (at least 3), nothing else on the line. */
const RST_ADORNMENT = /^([=\-`:'"~^_*+#<>.])\1{2,}\s*$/;
/** ":Status: Accepted" — a field list item, which records use for their metadata. */
const RST_FIELD = /^:([A-Za-z][\w .-]{0,40}):(?:\s+(.*))?$/;
/** ".. _name: https://…" — a hyperlink target, which Markdown writes as a reference definition. */
const RST_TARGET = /^\.\.\s+_`?([^`:]{1,200})`?:\s*(\S.*)?$/;
/** ".. note::", ".. code-block:: python": a directive line. */
const RST_DIRECTIVE = /^\.\.\s+([\w-]+)::\s*(.*)$/;
const RST_ADMONITIONS = new Set(["note", "warning", "important", "tip", "caution", "danger", "attention", "hint", "seealso"]);

function rstLines(lines: string[]): string[] {
  const out = [...lines];
  // Heading levels follow the order in which adornment styles first appear (an overlined style differs from an
  // underlined one with the same character), as reStructuredText itself assigns them.
  const levels = new Map<string, number>();
  const levelOf = (style: string) => {
    if (!levels.has(style)) levels.set(style, Math.min(6, levels.size + 1));
    return levels.get(style)!;
  };
  let inLiteral = false;
  let literalIndent = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    // An indented literal block (after "::" or a code directive) is code: left alone, like Markdown's indented code.
    if (inLiteral) {
      if (line.trim() === "" || indentOf(line) > literalIndent) continue;
      inLiteral = false;
    }
    const over = RST_ADORNMENT.exec(line);
    if (over && i + 2 < lines.length && isRstTitleText(lines[i + 1]) && lines[i + 2].trim() === line.trim()) {
      // Overline, title, underline.
      out[i] = "";
      out[i + 1] = `${"#".repeat(levelOf(`${over[1]}o`))} ${inlineRst(lines[i + 1].trim())}`;
      out[i + 2] = "";
      i += 2;
      continue;
    }
    const under = i + 1 < lines.length ? RST_ADORNMENT.exec(lines[i + 1]) : null;
    if (under && isRstTitleText(line) && !line.startsWith(" ") && lines[i + 1].trim().length >= Math.min(3, line.trim().length)) {
      out[i] = `${"#".repeat(levelOf(under[1]))} ${inlineRst(line.trim())}`;
      out[i + 1] = "";
      i += 1;
      continue;
    }
    if (over) {
      // A transition ("----" between paragraphs): a Markdown rule would read as a heading underline, so drop it.
      out[i] = "";
      continue;
    }
    const target = RST_TARGET.exec(line);
    if (target) {
      out[i] = target[2] ? `[${target[1].trim()}]: ${target[2].trim()}` : "";
      continue;
    }
    const directive = RST_DIRECTIVE.exec(line);
    if (directive) {
      const name = directive[1].toLowerCase();
      if (RST_ADMONITIONS.has(name)) out[i] = `${name[0].toUpperCase()}${name.slice(1)}: ${inlineRst(directive[2])}`.trimEnd();
      else {
        out[i] = "";
        if (/^(?:code|code-block|sourcecode|literalinclude|highlight)$/.test(name)) {
          inLiteral = true;
          literalIndent = indentOf(line);
        }
      }
      continue;
    }
    // ".. a comment" (and the bare ".." that opens an indented comment block).
    if (/^\.\.(?:\s|$)/.test(line)) {
      out[i] = "";
      continue;
    }
    const field = RST_FIELD.exec(line);
    if (field) {
      out[i] = `${field[1]}: ${inlineRst(field[2] ?? "")}`.trimEnd();
      continue;
    }
    // A definition list: a term line directly followed by its indented definition. Markdown has no such list, so
    // the term becomes a bold list item and the definition stays indented under it as the item's text.
    if (isRstDefinitionTerm(lines, i)) {
      out[i] = `${" ".repeat(indentOf(line))}- **${inlineRst(line.trim())}**`;
      continue;
    }
    let text = line.replace(/^(\s*)#\.(\s)/, "$11.$2");
    if (/::\s*$/.test(text) && text.trim() !== "::") {
      inLiteral = true;
      literalIndent = indentOf(line);
      text = text.replace(/::\s*$/, ":");
    } else if (text.trim() === "::") {
      inLiteral = true;
      literalIndent = indentOf(line);
      text = "";
    }
    out[i] = inlineRst(text);
  }
  return out;
}

/** A definition list's term: after a blank line (or another definition), one line of text, then its indented definition. */
function isRstDefinitionTerm(lines: string[], i: number): boolean {
  const line = lines[i];
  const next = lines[i + 1];
  if (next === undefined || next.trim() === "" || line.trim() === "") return false;
  if (indentOf(next) <= indentOf(line) || (i > 0 && lines[i - 1].trim() !== "" && indentOf(lines[i - 1]) <= indentOf(line))) return false;
  // Short, and not a list item, field, directive, table row or a paragraph that opens a literal block.
  return line.trim().length <= 120 && !/^\s*(?:[-*+•]|\d+[.)]|#\.|[a-z][.)])\s|^\s*[:|+]|^\s*\.\.\s|::\s*$/i.test(line);
}

/** A line that can be a section title: text, not a list item, table border or another adornment. */
function isRstTitleText(line: string): boolean {
  const t = line.trim();
  return t.length > 0 && t.length <= 200 && !RST_ADORNMENT.test(t) && !/^[+|]/.test(t) && !/^\.\.\s/.test(t);
}

function inlineRst(text: string): string {
  // Every pattern is bounded, so a long line costs linear time; past this length a line is not markup anyway.
  if (text.length > MAX_INLINE_CHARS) return text;
  return (
    text
      // `text <https://…>`_ and anonymous `text <…>`__ → [text](url)
      .replace(/`([^`<]{1,300}?)\s*<([^`<>]{1,500})>`__?/g, "[$1]($2)")
      // :role:`text` (":ref:", ":doc:", ":pep:") → `text`
      .replace(/:[\w-]{1,40}:`([^`]{1,500})`/g, "`$1`")
      // "Program\ s": an escaped space joins inline markup to a word and reads as nothing
      .replace(/\\ /g, "")
      // ``literal`` → `literal`
      .replace(/``([^`]{1,500})``/g, "`$1`")
      // `reference`_ → reference
      .replace(/`([^`]{1,500})`__?/g, "$1")
  );
}

// ---- AsciiDoc ----

const ADOC_HEADING = /^(={1,6})\s+(\S.*)$/;
/** ":toc: preamble", ":status: accepted" — a document attribute. */
const ADOC_ATTRIBUTE = /^:([A-Za-z][\w-]{0,40}):(?:\s+(.*))?$/;
/** Attribute names that carry a record's metadata rather than rendering options. */
const ADOC_METADATA = /^(?:status|state|date|revdate|authors?|deciders|supersedes|superseded[-_]by|replaces|replaced[-_]by)$/i;
/** "ifdef::env-github[]", "endif::[]", "include::x.adoc[]": preprocessor lines. */
const ADOC_PREPROCESSOR = /^(?:ifdef|ifndef|ifeval|endif|include)::/;
/** "[cols="1h,1"]", "[source,java]", "[NOTE]": a block attribute list. */
const ADOC_BLOCK_ATTRIBUTES = /^\[[^\]]*\]\s*$/;
/** A delimited block's fence: listing "----", literal "....", example "====", sidebar "****", quote "____", pass "++++". */
const ADOC_DELIMITER = /^(-{4,}|\.{4,}|={4,}|\*{4,}|_{4,}|\+{4,})\s*$/;

function asciidocLines(lines: string[]): string[] {
  const out = [...lines];
  let inComment = false;
  let code: string | undefined; // the fence of the listing or literal block we are in
  let table: { columns: number; cells: { text: string; line: number }[] } | undefined;
  let pendingColumns: number | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (inComment) {
      if (/^\/{4,}\s*$/.test(line)) inComment = false;
      out[i] = "";
      continue;
    }
    if (code !== undefined) {
      if (line.trim() === code) {
        out[i] = "```";
        code = undefined;
      }
      continue;
    }
    if (/^\/{4,}\s*$/.test(line)) {
      inComment = true;
      out[i] = "";
      continue;
    }
    if (/^\/\/(?!\/)/.test(line) || ADOC_PREPROCESSOR.test(line)) {
      out[i] = "";
      continue;
    }
    if (/^\|===\s*$/.test(line)) {
      if (table) {
        flushAsciidocRow(table, out, true);
        table = undefined;
      } else table = { columns: pendingColumns ?? 0, cells: [] };
      pendingColumns = undefined;
      out[i] = "";
      continue;
    }
    if (table) {
      readAsciidocTableLine(table, line, i, out);
      continue;
    }
    if (ADOC_BLOCK_ATTRIBUTES.test(line)) {
      const cols = /\bcols\s*=\s*"([^"]*)"/.exec(line);
      pendingColumns = cols ? columnCount(cols[1]) : undefined;
      const admonition = /^\[(NOTE|TIP|IMPORTANT|WARNING|CAUTION)\]/.exec(line);
      out[i] = admonition ? `${admonition[1][0]}${admonition[1].slice(1).toLowerCase()}:` : "";
      continue;
    }
    const delimiter = ADOC_DELIMITER.exec(line);
    if (delimiter) {
      if (/^[-.]/.test(delimiter[1])) {
        code = line.trim();
        out[i] = "```";
      } else out[i] = "";
      continue;
    }
    const heading = ADOC_HEADING.exec(line);
    if (heading) {
      out[i] = `${"#".repeat(heading[1].length)} ${inlineAsciidoc(heading[2].trim())}`;
      continue;
    }
    const attribute = ADOC_ATTRIBUTE.exec(line);
    if (attribute) {
      // Most attributes configure the renderer (":toc:", ":tip-caption:"); only a record's metadata is kept.
      out[i] = ADOC_METADATA.test(attribute[1]) ? `${attribute[1]}: ${inlineAsciidoc(attribute[2] ?? "")}`.trimEnd() : "";
      continue;
    }
    // ".Metadata": a block title; ". item": an ordered list item.
    if (/^\.[^.\s]/.test(line)) out[i] = inlineAsciidoc(line.slice(1));
    else if (/^\.{1,5}\s/.test(line)) out[i] = inlineAsciidoc(line.replace(/^\.{1,5}\s/, "1. "));
    else out[i] = inlineAsciidoc(line);
  }
  return out;
}

/** `cols="1h,1"` → 2, `cols="3*"` → 3, `cols="2*,1"` → 3, and a bare count: `cols="2"` → 2. */
function columnCount(spec: string): number {
  if (/^\s*\d+\s*$/.test(spec)) return Number(spec);
  let n = 0;
  for (const part of spec.split(/[,;]/)) {
    const m = /^\s*(\d+)\*/.exec(part);
    n += m ? Number(m[1]) : part.trim() ? 1 : 0;
  }
  return n;
}

/**
 * Table cells start with "|" and may sit one per line ("| Status" then "| Accepted"); Markdown readers expect a row
 * per line ("| Status | Accepted |"). Cells are gathered until a row is full and the row is written on the line of
 * its last cell, the lines it came from left blank.
 */
function readAsciidocTableLine(table: { columns: number; cells: { text: string; line: number }[] }, line: string, i: number, out: string[]): void {
  out[i] = "";
  if (line.trim() === "") {
    // Without a column count, a blank line ends a row.
    if (!table.columns) flushAsciidocRow(table, out, true);
    return;
  }
  if (!line.trimStart().startsWith("|")) {
    // A cell's text continued on the next line.
    const last = table.cells.at(-1);
    if (last) last.text = `${last.text} ${line.trim()}`;
    return;
  }
  const cells = line
    .trim()
    .slice(1)
    .split(/(?<!\\)\|/)
    .map((c) => inlineAsciidoc(c.trim()));
  // The first line of a table without a cols attribute sets the column count when it holds several cells.
  if (!table.columns && table.cells.length === 0 && cells.length > 1) table.columns = cells.length;
  for (const c of cells) {
    table.cells.push({ text: c, line: i });
    if (table.columns && table.cells.length >= table.columns) flushAsciidocRow(table, out, false);
  }
}

function flushAsciidocRow(table: { cells: { text: string; line: number }[] }, out: string[], partial: boolean): void {
  if (table.cells.length === 0 || (partial && table.cells.every((c) => c.text === ""))) {
    table.cells = [];
    return;
  }
  const line = table.cells.at(-1)!.line;
  out[line] = `| ${table.cells.map((c) => c.text.replace(/\|/g, "\\|")).join(" | ")} |`;
  table.cells = [];
}

function inlineAsciidoc(text: string): string {
  if (text.length > MAX_INLINE_CHARS) return text;
  return (
    text
      // link:target[text] and https://…[text] → [text](target)
      .replace(/\blink:([^\s[\]]{1,500})\[([^\]]{0,500})\]/g, (_m, url: string, label: string) => `[${label || url}](${url})`)
      .replace(/\b(https?:\/\/[^\s[\]]{1,500})\[([^\]]{0,500})\]/g, (_m, url: string, label: string) => `[${label || url}](${url})`)
      // xref:target[text] and <<id,text>> → text
      .replace(/\bxref:([^\s[\]]{1,500})\[([^\]]{0,500})\]/g, (_m, target: string, label: string) => label || target)
      .replace(/<<([^,<>]{1,200})(?:,\s*([^<>]{1,200}))?>>/g, (_m, id: string, label?: string) => label ?? id)
      // `+literal+` → `literal`
      .replace(/`\+([^`]{1,500})\+`/g, "`$1`")
  );
}

function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}
