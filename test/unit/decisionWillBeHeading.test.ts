// A proposal section that opens straight with a sub-heading stating what will be ("### The following new services
// will be created") reads that heading as its opening sentence, as it reads a commanding one
// (src/core/decisions/options.ts). Fixtures written for this test.
import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import { parseAdr } from "../../src/core/internal/adr";
import { decisionModelOf } from "../../src/core/decisions";

const record = (firstHeading: string) => `# RFD 77 Ledger change notifications

## Problem

Consumers poll the ledger every minute and still miss short-lived entries.

## Proposed solution

### ${firstHeading}

 * ledger-relay

### Relay module

 * Living in the ledger-relay repository, the relay module will hide the bookkeeping needed to publish each change.
`;

describe("a first sub-heading that states what will be", () => {
  it("is read as the proposal's opening sentence", () => {
    const model = decisionModelOf(parseAdr("rfd/0077/README.md", record("The following new services will be created")));
    assert.equal(model.chosen?.name, "New services: ledger-relay");
  });

  it("is not read when it is a question or states nothing firm", () => {
    for (const heading of ["Which new services will be created?", "New services"]) {
      const model = decisionModelOf(parseAdr("rfd/0077/README.md", record(heading)));
      assert.notEqual(model.chosen?.name, "New services: ledger-relay");
    }
  });
});
