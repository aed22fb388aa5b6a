// Supersession links as first-contact logs write them: a renumbered log whose link keeps the old number, a dated
// log linked by site path ("/adr/12"), an aside inside "Superseded … by", an RFC that says in its purpose sentence
// that another replaced it, and a folder link that spells the folder's separators differently.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { resolveConfig } from "../../src/core/config";
import { sha256 } from "../../src/core/hash";
import { parseAdr } from "../../src/core/internal/adr";
import { createDocsExpert } from "../../src/core/internal/docsExpert";
import type { ExpertContext, ExpertResult, ArtifactFile, ArtifactSet } from "../../src/core/types";

const config = resolveConfig();

function file(path: string, text: string): ArtifactFile {
  return { path, abs: `/nonexistent/${path}`, bytes: text.length, hash: sha256(text), source_type: "adr", text };
}

async function run(terms: string[], files: ArtifactFile[]): Promise<ExpertResult> {
  const artifacts: ArtifactSet = { files, skipped: [], hash: "x" };
  const ctx: ExpertContext = { repo: "/nonexistent", question: "q", plan: { mode: "rules", terms, expansions: [] }, config, artifacts, signal: new AbortController().signal, log: () => {} };
  return createDocsExpert().run(ctx);
}

const metaOf = (r: ExpertResult, path: string) => r.items.find((i) => i.path_or_url === path)?.adr;

describe("parseAdr: supersession and numbers in first-contact shapes", () => {
  it("reads 'Superseded (as never built) by [ADR 9](/adr/9)' as superseded by that link", () => {
    const a = parseAdr("docs/adr/0004-carrier-pigeons.md", "# 4. Carrier pigeons\n\n## Status\n\nSuperseded (as never built) by [ADR 9](/adr/9)\n\n## Decision\n\nMessages travel by pigeon.\n");
    assert.equal(a.status, "superseded");
    assert.deepEqual(a.superseded_by, ["/adr/9"]);
  });

  it("numbers a dated file by the serial after its date, not by the year", () => {
    assert.equal(parseAdr("docs/adr/2024-05-06_017-queue-depth.md", "# Queue depth\n\nWe cap it.\n").number, 17);
    // A dated name without a serial has no number from its name (the title may still give one).
    assert.equal(parseAdr("docs/adr/2024-05-06-queue-depth.md", "# Queue depth\n\nWe cap it.\n").number, undefined);
    assert.equal(parseAdr("docs/adr/2024-05-06-queue-depth.md", "# 3. Queue depth\n\nWe cap it.\n").number, 3);
  });

  it("reads 'This RFC proposes …, which has been superseded by [link]' as superseded by the link", () => {
    const text =
      "# RFC 007: Lending desk\n\n## Purpose\n\nThis RFC proposes an older design for a lending desk service, which has since been superseded by the [012-loans](../012-loans/README.md) RFC.\n\n## Proposal\n\nA desk service.\n";
    const a = parseAdr("rfcs/007-lending_desk/README.md", text);
    assert.equal(a.status, "superseded");
    assert.deepEqual(a.superseded_by, ["rfcs/012-loans/README.md"]);
  });

  it("does not read a sentence about some other thing being replaced as this record's successor", () => {
    const text = "# RFC 007: Lending desk\n\n## Purpose\n\nThe paper forms, which have been replaced by [the kiosk](../012-loans/README.md), are out of scope.\n";
    const a = parseAdr("rfcs/007-lending_desk/README.md", text);
    assert.deepEqual(a.superseded_by, []);
    assert.notEqual(a.status, "superseded");
  });
});

describe("docs expert: resolving supersession links", () => {
  it("follows a link's file name over its number when the log was renumbered since", async () => {
    const old = file(
      "decisions/0010-audit-trail.md",
      "# 10. Audit trail\n\n## Status\n\nSuperseded by [ADR 12](decisions/0012-audit-trail.md)\n\n## Decision\n\nWe will write the audit trail to flat files.\n",
    );
    const unrelated = file("decisions/0012-file-scanning.md", "# 12. File scanning\n\n## Status\n\nAccepted\n\n## Decision\n\nWe will scan uploaded files.\n");
    const successor = file("decisions/0031-audit-trail.md", "# 31. Audit trail\n\n## Status\n\nAccepted\n\n## Decision\n\nWe will write the audit trail to the database.\n");
    const r = await run(["audit", "trail"], [old, unrelated, successor]);
    assert.deepEqual(metaOf(r, old.path)?.superseded_by, [successor.path]);
    assert.equal(metaOf(r, unrelated.path), undefined, "the record that now holds number 12 is not pulled in as a successor");
  });

  it("keeps the number when the file name agrees with the numbered record", async () => {
    const old = file("decisions/0002-queues.md", "# 2. Queues\n\n## Status\n\nSuperseded by [ADR 5](0005-queues-again.md)\n\n## Decision\n\nWe use one queue.\n");
    const next = file("decisions/0005-queues-again.md", "# 5. Queues again\n\n## Status\n\nAccepted\n\n## Decision\n\nWe use two queues.\n");
    const r = await run(["queues"], [old, next]);
    assert.deepEqual(metaOf(r, old.path)?.superseded_by, [next.path]);
  });

  it("resolves a site link '/adr/9' to the dated record whose serial is 9", async () => {
    const old = file("docs/adr/2021-02-03_004-pigeons.md", "# 4. Pigeons\n\n## Status\n\nSuperseded by [ADR 9](/adr/9)\n\n## Decision\n\nMessages travel by pigeon.\n");
    const next = file("docs/adr/2023-07-08_009-radio.md", "# 9. Radio\n\n## Status\n\nAccepted\n\n## Decision\n\nMessages travel by radio.\n");
    const r = await run(["messages", "travel"], [old, next]);
    assert.deepEqual(metaOf(r, old.path)?.superseded_by, [next.path]);
    const pos = (p: string) => r.items.findIndex((i) => i.path_or_url === p);
    assert.ok(pos(next.path) < pos(old.path), "the successor ranks above the record it replaced");
  });

  it("resolves a folder link whose separators differ from the folder's ('012-loan-desk' for '012-loan_desk')", async () => {
    const old = file("rfcs/007-lending_desk/README.md", "# RFC 007: Lending desk\n\nThis RFC proposes a lending desk, which has been superseded by the [012](../012-loan-desk/README.md) RFC.\n");
    const next = file("rfcs/012-loan_desk/README.md", "# RFC 012: Loan desk\n\nWe propose a loan desk built into the catalogue.\n");
    const r = await run(["lending", "desk", "loan"], [old, next]);
    assert.deepEqual(metaOf(r, old.path)?.superseded_by, [next.path]);
  });
});
