// A document with more headings than MAX_SECTIONS (400,000 empty `#` lines in an 800 KB ADR) keeps its first
// MAX_SECTIONS sections and says where they stop; documents under the cap are read as before.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { MAX_SECTIONS, parseMarkdown } from "../../src/core/internal/markdown";
import { parseAdr } from "../../src/core/internal/adr";

const HEAD = "# 1. Use PostgreSQL for storage\n\n## Status\nAccepted\n\n## Decision\nWe will use PostgreSQL.\n\n";

describe("parseMarkdown past MAX_SECTIONS headings", () => {
  test("400,000 empty headings: a bounded number of sections and a warning", () => {
    const text = HEAD + "#\n".repeat(400_000);
    const doc = parseMarkdown(text);
    assert.equal(doc.lines.length, 400_009);
    assert.equal(doc.sections.length, MAX_SECTIONS);
    const firstLeftOut = 9 + (MAX_SECTIONS - 3); // the "#" lines start at line 9, after three headings
    assert.deepEqual(doc.warnings, [`more than ${MAX_SECTIONS} headings: lines ${firstLeftOut}-400009 are left out of the sections`]);
    // The head reads as before; no section reaches past the cap, and the title's nested range stops there too.
    assert.deepEqual(
      doc.sections.slice(0, 3).map((s) => [s.heading, s.level, s.start, s.body]),
      [
        ["1. Use PostgreSQL for storage", 1, 1, ""],
        ["Status", 2, 3, "Accepted"],
        ["Decision", 2, 6, "We will use PostgreSQL."],
      ],
    );
    assert.equal(doc.sections[0].end, 7); // up to the first "#" (a level-1 heading too), blank line trimmed
    const last = doc.sections[doc.sections.length - 1];
    assert.deepEqual([last.start, last.contentEnd, last.end], [firstLeftOut - 1, firstLeftOut - 1, firstLeftOut - 1]);
    assert.ok(doc.sections.every((s) => s.end < firstLeftOut));
  });

  test("the ADR built on it keeps its status, title and the warning", () => {
    const adr = parseAdr("docs/adr/0002-h.md", HEAD + "#\n".repeat(400_000));
    assert.equal(adr.status, "accepted");
    assert.equal(adr.title, "Use PostgreSQL for storage");
    assert.ok(adr.warnings.some((w) => w.startsWith(`more than ${MAX_SECTIONS} headings`)));
  });

  test("a title over more subsections than the cap ends where the sections end", () => {
    const text = "# Reference\n\nIntro.\n\n" + Array.from({ length: MAX_SECTIONS + 5 }, (_, i) => `## Item ${i}\n\nText ${i}.\n`).join("\n");
    const doc = parseMarkdown(text);
    assert.equal(doc.sections.length, MAX_SECTIONS);
    assert.equal(doc.sections[doc.sections.length - 1].heading, `Item ${MAX_SECTIONS - 2}`);
    const cut = doc.lines.indexOf(`## Item ${MAX_SECTIONS - 1}`) + 1;
    assert.equal(doc.sections[0].end, cut - 2); // trailing blank line trimmed
    assert.match(doc.warnings[0], new RegExp(`lines ${cut}-${doc.lines.length} are left out`));
  });

  test("exactly MAX_SECTIONS headings (setext ones included) are all read, with no warning", () => {
    const text = "Title\n=====\n\n" + Array.from({ length: MAX_SECTIONS - 1 }, (_, i) => `## H${i}\nbody ${i}\n`).join("");
    const doc = parseMarkdown(text);
    assert.equal(doc.sections.length, MAX_SECTIONS);
    assert.deepEqual(doc.warnings, []);
    const last = doc.sections[doc.sections.length - 1];
    assert.equal(last.heading, `H${MAX_SECTIONS - 2}`);
    assert.equal(last.body, `body ${MAX_SECTIONS - 2}`);
    assert.equal(doc.sections[0].end, doc.lines.length - 1);
  });
});
