// Records in reStructuredText and AsciiDoc: read as the Markdown they say, line for line, so discovery, status,
// ranking and citations work on them as on Markdown records.
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { resolveConfig } from "../../src/core/config";
import { parseAdr } from "../../src/core/internal/adr";
import { discoverArtifacts } from "../../src/core/internal/discovery";
import { runDocsExpert } from "../../src/core/internal/docsExpert";
import { asMarkdown, lightMarkupOf } from "../../src/core/internal/lightMarkup";
import { parseMarkdown } from "../../src/core/internal/markdown";
import { readCitedFile } from "../../src/core/receipts/citedContent";
import { buildRulesPlan } from "../../src/core/terms";
import { createGitRepo } from "../helpers/gitRepo";

const config = resolveConfig();
const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const RST_RECORD = [
  "Keep invoices in the ledger service",
  "===================================",
  "",
  "Status",
  "------",
  "",
  "Accepted",
  "",
  "Context",
  "-------",
  "",
  "Billing writes ``invoice`` rows to two places; see `the billing guide <https://example.test/billing>`_.",
  "",
  "Decision",
  "--------",
  "",
  "We will keep invoices only in the ledger service.",
  "",
  "Rejected Alternatives",
  "---------------------",
  "",
  "A second copy in the reporting database",
  "~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~",
  "",
  "It drifts. For example::",
  "",
  "    ~~~~ not a heading, just code ~~~~",
  "",
  ".. _billing guide: https://example.test/billing",
  ".. a comment nobody should read",
  "",
].join("\n");

const ADOC_RECORD = [
  "= PEX-12: Retire the legacy upload endpoint",
  ":toc: preamble",
  "",
  ".Metadata",
  '[cols="1h,1"]',
  "|===",
  "| PEX",
  "| 12",
  "",
  "| Status",
  "| Final :lock:",
  "",
  "| Created",
  "| 2023-04-05",
  "|===",
  "",
  "// a comment for the authors",
  "== Abstract",
  "",
  "Uploads go through the resumable endpoint; the legacy one is removed. See link:../7/README.adoc[PEX-7].",
  "",
  "== Reasoning",
  "",
  "=== Keeping both endpoints",
  "",
  "Two code paths double the security review.",
  "",
  "[source,java]",
  "----",
  "== not a heading inside code",
  "----",
  "",
].join("\n");

describe("reStructuredText and AsciiDoc read as Markdown", () => {
  it("knows the syntax by the file's extension", () => {
    assert.equal(lightMarkupOf("docs/decisions/0001-x.rst"), "rst");
    assert.equal(lightMarkupOf("pex/12/README.adoc"), "asciidoc");
    assert.equal(lightMarkupOf("docs/guide.asciidoc"), "asciidoc");
    assert.equal(lightMarkupOf("docs/adr/0001-x.md"), undefined);
    assert.equal(asMarkdown("a.md", "Title\n~~~~~\n"), "Title\n~~~~~\n");
  });

  it("rewrites reStructuredText headings by the order their adornments appear, and keeps every line where it was", () => {
    const md = asMarkdown("docs/decisions/0001-keep-invoices.rst", RST_RECORD);
    const lines = md.split("\n");
    assert.equal(lines.length, RST_RECORD.split("\n").length);
    assert.equal(lines[0], "# Keep invoices in the ledger service");
    assert.equal(lines[1], "");
    assert.equal(lines[3], "## Status");
    assert.equal(lines[13], "## Decision");
    assert.equal(lines[21], "### A second copy in the reporting database");
    assert.match(lines[11], /`invoice`/);
    assert.match(lines[11], /\[the billing guide\]\(https:\/\/example\.test\/billing\)/);
    // "::" ends the paragraph with a colon, and the literal block under it stays code, not a heading.
    assert.equal(lines[24], "It drifts. For example:");
    assert.equal(lines[26], "    ~~~~ not a heading, just code ~~~~");
    assert.equal(lines[28], "[billing guide]: https://example.test/billing");
    assert.equal(lines[29], "");
    const headings = parseMarkdown(md).sections.filter((s) => s.level > 0).map((s) => `${s.level} ${s.heading} @${s.start}`);
    assert.deepEqual(headings, ["1 Keep invoices in the ledger service @1", "2 Status @4", "2 Context @9", "2 Decision @14", "2 Rejected Alternatives @19", "3 A second copy in the reporting database @22"]);
  });

  it("reads a definition list as bold list items with their definitions under them", () => {
    const text = "Decision\n--------\n\nEvery table gets three identifiers:\n\nRow id\n  A number for joins inside one database.\n\nPublic id\n  A random id for other services.\n\nA paragraph\nthat wraps stays a paragraph.\n";
    const lines = asMarkdown("adr/0002-ids.rst", text).split("\n");
    assert.deepEqual(lines.slice(5, 10), ["- **Row id**", "  A number for joins inside one database.", "", "- **Public id**", "  A random id for other services."]);
    assert.deepEqual(lines.slice(11, 13), ["A paragraph", "that wraps stays a paragraph."]);
  });

  it("reads an overlined title and a field-list status", () => {
    const text = "==========\nUse queues\n==========\n\n:Status: Superseded\n:Date: 2022-02-02\n\nContext\n=======\n\nWhy.\n";
    const md = asMarkdown("adr/0003-use-queues.rst", text);
    assert.deepEqual(md.split("\n").slice(0, 9), ["", "# Use queues", "", "", "Status: Superseded", "Date: 2022-02-02", "", "## Context", ""]);
    const adr = parseAdr("adr/0003-use-queues.rst", md);
    assert.equal(adr.title, "Use queues");
    assert.equal(adr.status, "superseded");
  });

  it("rewrites AsciiDoc headings, a metadata table with one cell per line, links and code blocks", () => {
    const md = asMarkdown("pex/12/README.adoc", ADOC_RECORD);
    const lines = md.split("\n");
    assert.equal(lines.length, ADOC_RECORD.split("\n").length);
    assert.equal(lines[0], "# PEX-12: Retire the legacy upload endpoint");
    assert.equal(lines[1], "", "a rendering attribute is no content");
    assert.equal(lines[7], "| PEX | 12 |");
    assert.equal(lines[10], "| Status | Final :lock: |");
    assert.equal(lines[8], "");
    assert.equal(lines[16], "", "a comment is no content");
    assert.equal(lines[17], "## Abstract");
    assert.match(lines[19], /\[PEX-7\]\(\.\.\/7\/README\.adoc\)/);
    assert.equal(lines[23], "### Keeping both endpoints");
    assert.deepEqual(lines.slice(28, 31), ["```", "== not a heading inside code", "```"]);
    assert.equal(parseAdr("pex/12/README.adoc", md).status, "accepted");
    // A bare column count says the same as a list of widths.
    const counted = asMarkdown("pex/12/README.adoc", ADOC_RECORD.replace('[cols="1h,1"]', '[cols="2"]'));
    assert.equal(counted.split("\n")[10], "| Status | Final :lock: |");
  });
});

describe("markup rewriting cannot be made to freeze", () => {
  // A record is repository content: a megabyte of near-links must not cost quadratic time. The timeout turns a
  // freeze into a failure; the bound itself is in the patterns (and the benchmark keeps the speed).
  it("rewrites a megabyte of unterminated links and cross-references", { timeout: 20_000 }, () => {
    const lines = (unit: string) => Array.from({ length: 50 }, () => unit.repeat(Math.floor(19_000 / unit.length))).join("\n");
    for (const [path, unit] of [["x/1/README.adoc", "https://"], ["x/1/README.adoc", "<"], ["x/1/README.adoc", "link:"], ["d/0001-x.rst", "`a <"]] as const) {
      const text = lines(unit);
      assert.equal(asMarkdown(path, text).split("\n").length, 50);
    }
  });
});

describe("records that are not Markdown are discovered, ranked and cited", () => {
  it("finds reStructuredText records in every decisions folder and AsciiDoc proposals in bare-numbered folders, not their template", async () => {
    const repo = createGitRepo([
      {
        message: "records",
        files: {
          "docs/decisions/0001-keep-invoices.rst": RST_RECORD,
          "billing/apps/export/docs/decisions/0001-export-nightly.rst": "Export nightly\n==============\n\nStatus\n------\nAccepted\n\nDecision\n--------\nThe export runs once a night.\n",
          "pex/12/README.adoc": ADOC_RECORD,
          "pex/13/README.adoc": ADOC_RECORD.replace(/PEX-12: Retire the legacy upload endpoint/, "PEX-13: Sign every release").replace("| 12", "| 13"),
          "pex/14/README.adoc": ADOC_RECORD.replace(/PEX-12: Retire the legacy upload endpoint/, "PEX-14: Publish a changelog").replace("| 12", "| 14"),
          "pex-template/0000/README.adoc": ADOC_RECORD.replace(/PEX-12: Retire the legacy upload endpoint/, "PEX-0000: Title of the proposal"),
          "docs/2019/README.adoc": "= Notes from 2019\n\nMeeting notes.\n",
          "src/app.py": "print('hello')\n",
        },
      },
    ]);
    dirs.push(repo);
    const set = await discoverArtifacts(repo, config);
    assert.deepEqual(
      set.files.filter((f) => f.source_type === "adr").map((f) => f.path),
      ["billing/apps/export/docs/decisions/0001-export-nightly.rst", "docs/decisions/0001-keep-invoices.rst", "pex/12/README.adoc", "pex/13/README.adoc", "pex/14/README.adoc"],
    );
    const question = "Should we keep a second copy of invoices in the reporting database?";
    const r = await runDocsExpert({ question, plan: buildRulesPlan(question), config, artifacts: set, signal: new AbortController().signal });
    const top = r.items.find((i) => i.adr);
    assert.equal(top?.path_or_url, "docs/decisions/0001-keep-invoices.rst");
    assert.equal(top?.adr?.status, "accepted");
    // A citation's lines are the real file's lines, and the receipt's freshness check reads the same text.
    const cited = await readCitedFile(repo, "docs/decisions/0001-keep-invoices.rst");
    assert.ok("text" in cited);
    const artifact = set.files.find((f) => f.path === "docs/decisions/0001-keep-invoices.rst")!;
    assert.equal(cited.text, artifact.text);
    assert.equal(cited.text.split("\n")[16], "We will keep invoices only in the ledger service.");
  });
});
