// Readings of the decision model added in round 32. A proposal part whose one sub-part is laid out as an option
// (its own pros and cons, like the alternatives after it) proposes that option. Every record here is written for
// these tests.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { parseAdr } from "../../src/core/internal/adr";
import { DecisionRecordSchema, decisionModelOf, type DecisionRecord } from "../../src/core/decisions";

function model(path: string, text: string): DecisionRecord {
  const m = decisionModelOf(parseAdr(path, text));
  DecisionRecordSchema.parse(m);
  return m;
}

const OPTION_SHAPED_PROPOSAL = `## 1 Why

Uploads from one customer can fill the shared bucket and stall everyone else.

## 2 Proposal

There are a few ways to cap what one customer stores. They are listed in order of preference.

### 2.1 Quota Checked by the Upload Gateway

The gateway reads each customer's stored total from the usage report and refuses uploads above the quota.

#### 2.1.1 Pros:

* Only one component changes

#### 2.1.2 Cons:

* The usage report lags by a few minutes

## 3 Alternatives

### 3.1 Quota Checked by Every Storage Node

Each node keeps a running total and the nodes exchange them.

#### 3.1.1 Pros:

* Exact totals

#### 3.1.2 Cons:

* Nodes have to talk to each other

### 3.2 No Quota at All

Leave storage unbounded and bill for it.
`;

const TWO_SHAPED_PARTS = OPTION_SHAPED_PROPOSAL.replace(
  "## 3 Alternatives",
  `### 2.2 Quota Kept in the Billing Service

Billing already knows what each customer stores.

#### 2.2.1 Pros:

* No new data

## 3 Alternatives`,
);

const PART_WITHOUT_ARGUMENTS = `## Why

Uploads from one customer can fill the shared bucket.

## Proposal

There are a few ways to cap what one customer stores.

### Example

A customer with a 10 GB quota uploads an 11 GB file and gets an error.

## Alternatives

### Quota Checked by Every Storage Node

Each node keeps a running total.
`;

describe("a proposal part whose one sub-part is written as an option", () => {
  test("that sub-part's heading, without its number, is the proposal, and it joins the considered options", () => {
    const m = model("docs/proposals/2024-upload-quota.md", OPTION_SHAPED_PROPOSAL);
    assert.equal(m.chosen?.name, "Quota Checked by the Upload Gateway");
    assert.equal(m.considered[0].name, "Quota Checked by the Upload Gateway");
    assert.equal(m.considered[0].source, "proposal");
    assert.ok(m.rejected.some((r) => /Every Storage Node/.test(r.name)));
  });

  test("two sub-parts written as options leave the choice to the rest of the record", () => {
    const m = model("docs/proposals/2024-upload-quota.md", TWO_SHAPED_PARTS);
    assert.notEqual(m.chosen?.name, "Quota Checked by the Upload Gateway");
    assert.notEqual(m.chosen?.name, "Quota Kept in the Billing Service");
  });

  test("a sub-part without pros and cons is a part of the design, not the proposal's name", () => {
    const m = model("docs/proposals/2024-upload-quota.md", PART_WITHOUT_ARGUMENTS);
    assert.notEqual(m.chosen?.name, "Example");
  });
});
