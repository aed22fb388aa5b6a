// A record that still carries its log's template instructions (an "Outcome" never filled in) is read without them,
// on real git repositories in temp dirs. Every fixture is written for these tests.
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { resolveConfig } from "../../src/core/config";
import { discoverArtifacts } from "../../src/core/internal/discovery";
import { isTemplatePath } from "../../src/core/internal/adrDetect";
import { parseAdr, templateProse } from "../../src/core/internal/adr";
import { decisionModelOf } from "../../src/core/decisions";
import { createGitRepo } from "../helpers/gitRepo";

const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const TEMPLATE = [
  "# RFC 0000: Title",
  "",
  "- Status: Proposed",
  "",
  "## Summary",
  "",
  "Briefly describe the proposed change and why it matters.",
  "",
  "## Proposal",
  "",
  "Explain the design in enough detail for a reviewer to follow it.",
  "",
  "## Outcome",
  "",
  "Written once the RFC is accepted, rejected, or withdrawn.",
  "",
  "Summarise the final decision and link the follow-up issues.",
  "",
].join("\n");

const unfilled = [
  "---",
  "owner: mobile team",
  "---",
  "# RFC 0007: Bundle a local catalog of feature toggles",
  "",
  "- Status: **Accepted**",
  "",
  "## Summary",
  "",
  "Ship one bundled catalog of feature toggles with each app build.",
  "",
  "## Proposal",
  "",
  "Ship one bundled catalog of feature toggles with each app build, read at start-up.",
  "",
  "## Outcome",
  "",
  "_To be written once the RFC is accepted, rejected, or withdrawn. Summarise the final decision and link the",
  "follow-up issues._",
  "",
].join("\n");

describe("template instructions left in a record", () => {
  it("counts a zero-numbered file named as a template as a template, not a record", () => {
    assert.equal(isTemplatePath("docs/rfcs/0000-rfc-template.md"), true);
    assert.equal(isTemplatePath("docs/adr/0000-adr-template.md"), true);
    assert.equal(isTemplatePath("docs/adr/0007-email-template-engine.md"), false);
    assert.equal(isTemplatePath("docs/adr/0012-use-templates-for-mail.md"), false);
  });

  it("blanks the unfilled Outcome (heading too) but keeps the line count, the front matter and the record's own prose", () => {
    const template = new Set(templateProse([TEMPLATE]));
    const raw = parseAdr("docs/rfcs/0007-toggles.md", unfilled);
    const read = parseAdr("docs/rfcs/0007-toggles.md", unfilled, template);
    assert.equal(read.doc.lines.length, raw.doc.lines.length);
    assert.ok(!read.doc.lines.some((l) => /Outcome|Summarise the final decision/.test(l)));
    assert.ok(read.doc.lines.includes("Ship one bundled catalog of feature toggles with each app build."));
    assert.deepEqual(read.doc.lines.slice(0, 3), ["---", "owner: mobile team", "---"]);
    assert.equal(read.status, "accepted");
  });

  it("reads an accepted RFC with an unfilled Outcome by its proposal", () => {
    const model = decisionModelOf(parseAdr("docs/rfcs/0007-toggles.md", unfilled, new Set(templateProse([TEMPLATE]))));
    assert.ok(model.chosen, "a chosen option");
    assert.doesNotMatch(model.chosen.name, /summari[sz]e|written once/i);
    assert.match(model.chosen.name, /bundled catalog/i);
    // Read as written, the Outcome's instruction is taken for the decision.
    const asWritten = decisionModelOf(parseAdr("docs/rfcs/0007-toggles.md", unfilled));
    assert.doesNotMatch(asWritten.chosen?.name ?? "", /bundled catalog/i);
  });

  it("discovery passes the template's prose on with the artifacts, and leaves a filled record alone", async () => {
    const filled = unfilled.replace(/_To be written[\s\S]*issues\._/, "Accepted: the bundled catalog ships in 7.2; remote toggles are deferred.");
    const repo = createGitRepo([{ message: "rfcs", files: { "docs/rfcs/0000-rfc-template.md": TEMPLATE, "docs/rfcs/0007-toggles.md": unfilled, "docs/rfcs/0008-more.md": filled.replace("0007", "0008") } }]);
    dirs.push(repo);
    const set = await discoverArtifacts(repo, resolveConfig());
    assert.deepEqual(set.files.filter((f) => f.source_type === "adr").map((f) => f.path), ["docs/rfcs/0007-toggles.md", "docs/rfcs/0008-more.md"]);
    assert.ok(set.template_lines?.length);
    const template = new Set(set.template_lines);
    const eight = parseAdr("docs/rfcs/0008-more.md", set.files[1].text, template);
    assert.ok(eight.doc.lines.includes("## Outcome"));
    assert.ok(eight.doc.lines.some((l) => l.startsWith("Accepted: the bundled catalog ships")));
  });
});
