// Readings of the decision model added in round 9 (issue 21), found on three small repositories outside every eval
// set and labelled before the extractor changed: a bold label that a paragraph runs on from ("**Offline use**" above
// the sentences that explain it) is a reason, not the decision, while a bold sentence still states it; a numbered
// list of ways, announced with a digit ("There are 2 ways"), whose items carry fenced examples at the margin; an
// item's "For example," is no part of its name; "as per point 2 above" picks the second item. Every record and
// sentence here is written for these tests.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { parseAdr } from "../../src/core/internal/adr";
import { DecisionRecordSchema, decisionModelOf, type DecisionRecord } from "../../src/core/decisions";

function model(path: string, text: string): DecisionRecord {
  const m = decisionModelOf(parseAdr(path, text));
  DecisionRecordSchema.parse(m);
  return m;
}

const BOLD_REASONS = `# ADR004: Sync protocol

## Status

accepted

## Context

Clients need to pull changes from the server. We looked at polling and at a push channel.

## Decision

We have decided to use CRDT documents for this service instead of operational transforms. The reasons follow:

**Offline use**  
CRDT documents merge edits made while a device was offline.

**Simpler server**  
The server only relays and stores the documents.

## Consequences

Documents grow with their history.
`;

const BOLD_STATEMENT = `# 7. Release lines

## Status

Accepted

## Decision

Until someone needs two lines at once:

**Only one release line is maintained at a time**.
Fixes land on that line and nowhere else.

## Consequences

Users on older lines must upgrade.
`;

const NUMBERED_WAYS = `# 5. Endpoints per invoice kind

Date: 2023-02-01

## Status

Accepted

## Context

Invoices come in three kinds, and each call's result depends on the kind.

There are 2 ways of shaping these endpoints.

1. Have one endpoint that takes the invoice kind as a parameter. For example,

\`\`\`
    ListInvoices(kind: string)
\`\`\`
2. Have one endpoint per invoice kind. For example,

\`\`\`
    ListSalesInvoices()
    ListCreditNotes()
\`\`\`
The second makes a wrong kind impossible to pass.

## Decision

We will have an endpoint per invoice kind, as per point 2 above.

## Consequences

- More endpoints to maintain.
`;

describe("decision model, round 9 readings", () => {
  test("bold labels a paragraph runs on from are reasons; the prose before them states the choice", () => {
    const m = model("docs/adr/adr004-sync.md", BOLD_REASONS);
    assert.match(m.chosen?.name ?? "", /CRDT documents/);
    assert.ok(!m.considered.some((o) => /offline use|simpler server/i.test(o.name)), JSON.stringify(m.considered));
  });

  test("a bold sentence in the decision still states it, even with the paragraph running on", () => {
    const m = model("docs/adr/0007-release-lines.md", BOLD_STATEMENT);
    assert.equal(m.chosen?.name, "Only one release line is maintained at a time");
  });

  test("a numbered list of ways with fenced examples is read whole, and 'point 2' picks its second item", () => {
    const m = model("docs/decisions/0005-endpoints.md", NUMBERED_WAYS);
    assert.deepEqual(
      m.considered.map((o) => o.name),
      ["Have one endpoint that takes the invoice kind as a parameter", "Have one endpoint per invoice kind"],
    );
    assert.equal(m.chosen?.name, "Have one endpoint per invoice kind");
    assert.equal(m.chosen?.considered_index, 1);
    assert.deepEqual(m.rejected.map((r) => r.name), ["Have one endpoint that takes the invoice kind as a parameter"]);
  });

  test("a fenced block that is not followed by another item ends the list", () => {
    const text = NUMBERED_WAYS.replace(/2\. Have one endpoint per invoice kind\. For example,\n\n```\n[\s\S]*?```\n/, "");
    const m = model("docs/decisions/0005-endpoints.md", text);
    assert.ok(m.considered.length < 2, JSON.stringify(m.considered));
  });
});
