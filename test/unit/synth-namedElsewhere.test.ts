// A proposal question ("should we adopt X?") answered by a record that names its choice by a short name that is
// none of the options: the record chose that, not the proposal, even when a common word of the proposal's product
// name ("Ledger" of "Ledger Forge") turns up in the record's decision. Real git repositories, deliberated offline;
// the records are written for these tests.
import { describe, test, before } from "node:test";
import assert from "node:assert/strict";
import { UNDECIDABLE } from "../../src/core/schemas";
import { askOffline as ask, recommendedOption as recommended } from "../helpers/ask";
import { createGitRepo } from "../helpers/gitRepo";

const AUDIT = "docs/adr/0007-audit-evidence.md";
const AUDIT_ADR = `# 7. How to keep audit evidence

Date: 2024-03-11

## Status

Accepted

## Context

Auditors ask every quarter for evidence that access reviews took place. An earlier plan to encode the evidence as
machine-readable manifests turned out to need skills nobody on the team has.

## Decision

We will use spreadsheets to track the ledger evidence for each review.

## Consequences

Evidence is gathered by hand each quarter.
`;

const CACHE = "docs/adr/0008-page-cache.md";
const CACHE_ADR = `# 8. Use Varnish for the page cache

Date: 2024-04-02

## Status

Accepted

## Decision

We will use Varnish in front of the web servers to cache rendered pages.
`;

describe("a record whose short-named choice is none of the options chose that, not the proposal", () => {
  let repo: string;
  before(() => {
    repo = createGitRepo([{ message: "Audit evidence", files: { [AUDIT]: AUDIT_ADR, [CACHE]: CACHE_ADR, "README.md": "# Portal\n" } }]);
  });

  test("the proposal sharing one common word with the decision is not recommended", async () => {
    const p = await ask(repo, "Auditors want access review evidence every quarter. Should we encode the evidence as manifests and render it with the Ledger Forge tooling?");
    const titles = p.options.map((o) => o.title).join(" | ");
    assert.doesNotMatch(recommended(p)?.title ?? "", /ledger forge/i, `${titles} :: ${p.recommendation.rationale}`);
    if (p.recommendation.option_id !== UNDECIDABLE) assert.match(recommended(p)?.title ?? "", /spreadsheets/i, titles);
  });

  test("a proposal the decision endorses by its whole name is still chosen", async () => {
    const p = await ask(repo, "Rendered pages are slow under load. Should we put Varnish in front of the web servers?");
    assert.match(recommended(p)?.title ?? "", /varnish/i, `${p.options.map((o) => o.title).join(" | ")} :: ${p.recommendation.rationale}`);
  });
});
