import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { chosenOption, normaliseStatus, parseAdr, splitTitleNumber } from "../../src/core/internal/adr";
import { parseMarkdown, splitSections } from "../../src/core/internal/markdown";
import { ADR_0001, ADR_0002, ADR_0003, ADR_0005, LOG4BRAINS_PINO, MADR_0004 } from "../fixtures/sampleRepo";
import type { LineRange } from "../../src/core/schemas";

const lineAt = (text: string, n: number) => text.split("\n")[n - 1];
const linesOf = (text: string, r: LineRange) => text.split("\n").slice(r.start - 1, r.end);

describe("parseAdr: Nygard / adr-tools", () => {
  it("reads title, number, date, status and sections with real line ranges", () => {
    const a = parseAdr("docs/adr/0001-record-architecture-decisions.md", ADR_0001);
    assert.equal(a.format, "nygard");
    assert.equal(a.title, "Record architecture decisions");
    assert.equal(a.number, 1);
    assert.equal(a.date, "2023-01-10");
    assert.equal(a.status, "accepted");
    for (const [name, heading] of [
      ["status", "## Status"],
      ["context", "## Context"],
      ["decision", "## Decision"],
      ["consequences", "## Consequences"],
    ] as const) {
      const r = a.sections[name];
      assert.ok(r, name);
      assert.equal(lineAt(ADR_0001, r.start), heading);
      assert.notEqual(lineAt(ADR_0001, r.end).trim(), "", `${name} ends on a content line`);
    }
    assert.deepEqual(linesOf(ADR_0001, a.sections.decision!), [
      "## Decision",
      "",
      "We will use Architecture Decision Records, as described by Michael Nygard.",
    ]);
    assert.equal(lineAt(ADR_0001, a.sections.title!.start), "# 1. Record architecture decisions");
  });

  it("reads 'Superseded by [N. title](file.md)' as superseded, resolved against the ADR's folder", () => {
    const a = parseAdr("docs/adr/0002-use-mongodb-for-order-storage.md", ADR_0002);
    assert.equal(a.status, "superseded");
    assert.deepEqual(a.superseded_by, ["docs/adr/0005-use-postgresql-for-order-storage.md"]);
    assert.deepEqual(a.supersedes, []);
  });

  it("reads 'Supersedes [..](..)' as a note under an Accepted status", () => {
    const a = parseAdr("docs/adr/0005-use-postgresql-for-order-storage.md", ADR_0005);
    assert.equal(a.status, "accepted");
    assert.equal(a.raw_status, "Accepted");
    assert.deepEqual(a.supersedes, ["docs/adr/0002-use-mongodb-for-order-storage.md"]);
    assert.deepEqual(a.superseded_by, []);
    assert.deepEqual(linesOf(ADR_0005, a.sections.status!), [
      "## Status",
      "",
      "Accepted",
      "",
      "Supersedes [2. Use MongoDB for order storage](0002-use-mongodb-for-order-storage.md)",
    ]);
  });

  it("reads a bold inline status", () => {
    const a = parseAdr("docs/adr/0003-use-rest-for-the-public-api.md", ADR_0003);
    assert.equal(a.status, "accepted");
    assert.equal(a.sections.status, undefined);
    // "rejected" in the Decision body does not leak into the status.
    assert.equal(lineAt(ADR_0003, a.sections.decision!.start), "## Decision");
  });

  const variants: Array<[string, string, Partial<{ status: string; superseded_by: string[]; supersedes: string[] }>]> = [
    ["plain status line", "# 7. X\n\nStatus: Accepted\n\n## Context\n\nc\n", { status: "accepted" }],
    ["bullet status", "# 7. X\n\n* Status: proposed\n* Date: 2024-01-01\n\n## Context\n", { status: "proposed" }],
    ["bold with colon outside", "# 7. X\n\n**Status**: Rejected\n", { status: "rejected" }],
    ["dash bullet bold", "# 7. X\n\n- **Status:** deprecated\n", { status: "deprecated" }],
    ["status heading, word lower-case", "# 7. X\n\n## Status\n\ndraft\n", { status: "proposed" }],
    ["unknown word", "# 7. X\n\n## Status\n\nFrobnicated\n", { status: "unknown" }],
    ["no status", "# 7. X\n\n## Context\n\nnothing\n", { status: "unknown" }],
    [
      "Superceded (misspelt) by a bare reference",
      "# 7. X\n\n## Status\n\nSuperceded by ADR-0009\n",
      { status: "superseded", superseded_by: ["ADR-0009"] },
    ],
    [
      "superseded-by in a status line",
      "# 7. X\n\nStatus: superseded-by [9. Y](0009-y.md)\n",
      { status: "superseded", superseded_by: ["docs/adr/0009-y.md"] },
    ],
    [
      "bold Superseded by with a cross-folder link",
      "# 7. X\n\n## Status\n\nAccepted\n\n**Superseded by:** [Y](../decisions/0009-y.md)\n",
      { status: "superseded", superseded_by: ["docs/decisions/0009-y.md"] },
    ],
    [
      "bullet Supersedes with two links",
      "# 7. X\n\n* Status: accepted\n* Supersedes [1](0001-a.md) and [2](0002-b.md)\n",
      { status: "accepted", supersedes: ["docs/adr/0001-a.md", "docs/adr/0002-b.md"] },
    ],
    [
      "a link escaping the workspace stays raw",
      "# 7. X\n\n## Status\n\nSuperseded by [Y](../../../elsewhere/0009-y.md)\n",
      { status: "superseded", superseded_by: ["../../../elsewhere/0009-y.md"] },
    ],
    ["superseded by a bare number", "# 7. X\n\nStatus: Superseded by 9\n", { status: "superseded", superseded_by: ["9"] }],
  ];
  for (const [name, text, expected] of variants) {
    it(`status variant: ${name}`, () => {
      const a = parseAdr("docs/adr/0007-x.md", text);
      if (expected.status) assert.equal(a.status, expected.status);
      if (expected.superseded_by) assert.deepEqual(a.superseded_by, expected.superseded_by);
      if (expected.supersedes) assert.deepEqual(a.supersedes, expected.supersedes);
      assert.equal(a.number, 7);
    });
  }

  it("normalises status words", () => {
    assert.equal(normaliseStatus("Accepted on 2023-01-01"), "accepted");
    assert.equal(normaliseStatus("Superseded by [5](x.md)"), "superseded");
    assert.equal(normaliseStatus("Proposed"), "proposed");
    assert.equal(normaliseStatus("DEPRECATED"), "deprecated");
    assert.equal(normaliseStatus("rejected"), "rejected");
    assert.equal(normaliseStatus("Supersedes 2"), "unknown");
  });

  it("strips number prefixes from titles into the number field", () => {
    assert.deepEqual(splitTitleNumber("5. Use PostgreSQL"), { number: 5, title: "Use PostgreSQL" });
    assert.deepEqual(splitTitleNumber("ADR-0005: Use PostgreSQL"), { number: 5, title: "Use PostgreSQL" });
    assert.deepEqual(splitTitleNumber("ADR 12 - Use X"), { number: 12, title: "Use X" });
    assert.deepEqual(splitTitleNumber("2FA for admin logins"), { title: "2FA for admin logins" });
    // A process's label before a colon and a zero-padded number are the number too; a bare acronym or number is not.
    assert.deepEqual(splitTitleNumber("PEX-12: Retire the legacy upload endpoint"), { number: 12, title: "Retire the legacy upload endpoint" });
    assert.deepEqual(splitTitleNumber("0007 Keep invoices in the ledger"), { number: 7, title: "Keep invoices in the ledger" });
    assert.deepEqual(splitTitleNumber("HTTP 2 for internal calls"), { title: "HTTP 2 for internal calls" });
    assert.deepEqual(splitTitleNumber("3 replicas per zone"), { title: "3 replicas per zone" });
    const a = parseAdr("decisions/use-x.md", "# ADR-0042: Use X\n\nStatus: accepted\n");
    assert.equal(a.number, 42);
    assert.equal(a.title, "Use X");
  });
});

describe("parseAdr: MADR", () => {
  it("reads front matter, considered options, the chosen option and per-option pros and cons", () => {
    const a = parseAdr("docs/decisions/0004-use-zustand-for-cart-state.md", MADR_0004);
    assert.equal(a.format, "madr");
    assert.equal(a.title, "Use Zustand for client-side cart state");
    assert.equal(a.number, 4);
    assert.equal(a.status, "accepted");
    assert.equal(a.date, "2024-01-20");
    assert.deepEqual(a.considered_options, ["Redux Toolkit", "Zustand", "React Context"]);
    assert.equal(a.chosen_option, "Zustand");
    assert.equal(lineAt(MADR_0004, a.sections["considered-options"]!.start), "## Considered Options");
    assert.equal(lineAt(MADR_0004, a.sections["decision-outcome"]!.start), "## Decision Outcome");
    // The nested Decision Outcome range includes its "### Consequences" subsection.
    assert.equal(lineAt(MADR_0004, a.sections["decision-outcome"]!.end), "* Bad, because time-travel debugging from Redux DevTools is only partly available.");
    assert.equal(lineAt(MADR_0004, a.sections["pros-and-cons"]!.start), "## Pros and Cons of the Options");
    assert.equal(lineAt(MADR_0004, a.sections.context!.start), "## Context and Problem Statement");
    assert.deepEqual(Object.keys(a.option_sections), ["Redux Toolkit", "Zustand", "React Context"]);
    const z = a.option_sections.Zustand;
    assert.deepEqual(linesOf(MADR_0004, z.range), [
      "### Zustand",
      "",
      "* Good, because a store is a single hook with no providers.",
      "* Bad, because fewer conventions mean we must document our own patterns.",
    ]);
    assert.match(lineAt(MADR_0004, z.pros[0].start), /Good, because a store/);
    assert.match(lineAt(MADR_0004, z.cons[0].start), /Bad, because fewer conventions/);
  });

  it("reads MADR 2 bullet metadata without front matter", () => {
    const text = [
      "# Use Vitest for unit tests",
      "",
      "* Status: accepted",
      "* Deciders: core team",
      "* Date: 2022-05-04",
      "",
      "## Considered Options",
      "",
      "* [Jest](https://jestjs.io)",
      "* **Vitest**",
      "  * nested detail that is not an option",
      "",
      "## Decision Outcome",
      "",
      "Chosen option: Vitest, because it reuses the Vite config.",
      "",
    ].join("\n");
    const a = parseAdr("doc/adr/0009-use-vitest.md", text);
    assert.equal(a.format, "madr");
    assert.equal(a.status, "accepted");
    assert.equal(a.date, "2022-05-04");
    assert.equal(a.number, 9);
    assert.deepEqual(a.considered_options, ["Jest", "Vitest"]);
    assert.equal(a.chosen_option, "Vitest");
  });

  it("reads chosen-option spellings", () => {
    assert.equal(chosenOption(`Chosen option: "Zustand", because it is small.`), "Zustand");
    assert.equal(chosenOption(`Chosen option: Zustand, because it is small.`), "Zustand");
    assert.equal(chosenOption(`Chosen option: Zustand`), "Zustand");
    assert.equal(chosenOption(`**Chosen option:** "Redux Toolkit"`), "Redux Toolkit");
    assert.equal(chosenOption(`Chosen option: [Option 2](#option-2) because it is faster`), "Option 2");
    assert.equal(chosenOption(`We chose nothing`), undefined);
  });

  it("matches the chosen option to the considered option's spelling", () => {
    const text = "---\nstatus: proposed\n---\n# X\n\n## Considered Options\n\n* Redux Toolkit\n* Zustand\n\n## Decision Outcome\n\nChosen option: redux toolkit\n";
    const a = parseAdr("docs/decisions/0010-x.md", text);
    assert.equal(a.status, "proposed");
    assert.equal(a.chosen_option, "Redux Toolkit");
  });

  it("reads a superseded status and links from front matter", () => {
    const text = "---\nstatus: \"superseded by [ADR-0012](0012-new.md)\"\n---\n# Old\n\n## Context\n\nc\n";
    const a = parseAdr("docs/decisions/0011-old.md", text);
    assert.equal(a.status, "superseded");
    assert.deepEqual(a.superseded_by, ["docs/decisions/0012-new.md"]);
  });
});

describe("parseAdr: log4brains", () => {
  it("reads the date-prefixed name as a date, not a number", () => {
    const a = parseAdr("docs/decisions/20240312-use-pino-for-logging.md", LOG4BRAINS_PINO);
    assert.equal(a.format, "log4brains");
    assert.equal(a.number, undefined);
    assert.equal(a.title, "Use pino for structured logging");
    assert.equal(a.status, "accepted");
    assert.equal(a.date, "2024-03-12");
    assert.deepEqual(a.considered_options, ["winston", "pino", "console.log"]);
    assert.equal(a.chosen_option, "pino");
    assert.equal(lineAt(LOG4BRAINS_PINO, a.sections["decision-outcome"]!.start), "## Decision Outcome");
    assert.equal(lineAt(LOG4BRAINS_PINO, a.sections["decision-drivers"]!.start), "## Decision Drivers");
    assert.equal(lineAt(LOG4BRAINS_PINO, a.option_sections.winston.range.start), "### winston");
  });

  it("falls back to the file name's date when front matter has none", () => {
    const a = parseAdr("docs/decisions/20231105-use-x.md", "---\nstatus: accepted\n---\n# Use X\n");
    assert.equal(a.date, "2023-11-05");
  });
});

describe("parseAdr: robustness", () => {
  it("keeps true line numbers when front matter is malformed, and records a warning", () => {
    const text = "---\nstatus: [accepted\ndate: 2024-01-01\n---\n# 8. Broken front matter\n\n## Status\n\nAccepted\n\n## Decision\n\nDo it.\n";
    const a = parseAdr("docs/adr/0008-broken.md", text);
    assert.ok(a.warnings.some((w) => /front matter/.test(w)), a.warnings.join("; "));
    assert.equal(a.status, "accepted");
    assert.equal(a.title, "Broken front matter");
    assert.equal(lineAt(text, a.sections.decision!.start), "## Decision");
    assert.equal(lineAt(text, a.sections.decision!.end), "Do it.");
  });

  it("handles CRLF input with the same line numbers", () => {
    const crlf = ADR_0005.replace(/\n/g, "\r\n");
    const a = parseAdr("docs/adr/0005-use-postgresql-for-order-storage.md", crlf);
    const b = parseAdr("docs/adr/0005-use-postgresql-for-order-storage.md", ADR_0005);
    assert.deepEqual(a.sections, b.sections);
    assert.deepEqual(a.supersedes, b.supersedes);
  });

  it("does not throw on empty or heading-less text", () => {
    const a = parseAdr("adr/0001-x.md", "");
    assert.equal(a.status, "unknown");
    assert.equal(a.title, "X");
    const b = parseAdr("adr/notes.md", "just some text\n");
    assert.equal(b.number, undefined);
  });
});

describe("splitSections", () => {
  const text = [
    "---", // 1
    "title: t", // 2
    "---", // 3
    "intro line", // 4
    "", // 5
    "# Top", // 6
    "top body", // 7
    "", // 8
    "## A", // 9
    "a body", // 10
    "```sh", // 11
    "# not a heading", // 12
    "```", // 13
    "", // 14
    "### A.1", // 15
    "a1 body", // 16
    "", // 17
    "Setext two", // 18
    "----------", // 19
    "s body", // 20
    "", // 21
  ].join("\n");

  it("reads a heading without the inline HTML it carries for an anchor or looks, keeping angle brackets that are text", () => {
    const headings = parseMarkdown(
      ["## Option 2: Pull model <a id=\"pull\"></a>", "", "## Keep<br/>the queue", "", "## Cache as Map<String, Entry>", "", "## A <sup>beta</sup> flag"].join("\n"),
    ).sections.filter((x) => x.level > 0).map((x) => x.heading);
    assert.deepEqual(headings, ["Option 2: Pull model", "Keep the queue", "Cache as Map<String, Entry>", "A beta flag"]);
  });

  it("documents its range rule: nested end vs own contentEnd, true line numbers after front matter", () => {
    const doc = parseMarkdown(text);
    assert.deepEqual(doc.frontMatter?.data, { title: "t" });
    const s = doc.sections;
    assert.deepEqual(
      s.map((x) => [x.heading, x.level, x.start, x.contentEnd, x.end]),
      [
        ["", 0, 4, 4, 4],
        ["Top", 1, 6, 7, 20],
        ["A", 2, 9, 13, 16],
        ["A.1", 3, 15, 16, 16],
        ["Setext two", 2, 18, 20, 20],
      ],
    );
    assert.equal(s[2].body, "a body\n```sh\n# not a heading\n```");
    assert.equal(s[2].parent, 1);
    assert.equal(s[3].parent, 2);
    assert.equal(s[4].body, "s body");
  });

  it("treats an unclosed front matter block as content", () => {
    const s = splitSections("---\nnot: closed\n# H\nbody\n");
    assert.equal(s.find((x) => x.heading === "H")?.start, 3);
  });

  it("does not read a paragraph followed by a thematic break as a heading", () => {
    const s = splitSections("# T\n\nline one\nline two\n---\nmore\n");
    assert.deepEqual(s.map((x) => x.heading), ["T"]);
  });
});
