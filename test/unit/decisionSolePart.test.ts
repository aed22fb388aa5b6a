// A proposal section that opens straight with its one sub-part ("## Proposal" then "### Ledger API") names what it
// chose by that heading, not by a phrase read from the sentence under it (src/core/decisions/options.ts). Fixtures
// written for this test.
import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import { parseAdr } from "../../src/core/internal/adr";
import { decisionModelOf } from "../../src/core/decisions";

const record = (proposal: string) => `# Federated ledger reads

* **Owners:** the storage team

## Why

Each gateway keeps its own copy of the ledger, and readers cannot see entries written through another gateway.

## Proposal

${proposal}

## Alternatives

* Copy every entry to every gateway.
`;

describe("a proposal told under one sub-part", () => {
  it("is named by that sub-part's heading", () => {
    const model = decisionModelOf(parseAdr("docs/proposals/ledger.md", record("### Ledger API\n\nWe propose to add the following service and expose it from every gateway that holds entries, so:\n* Gateway\n* Archiver\n")));
    assert.equal(model.chosen?.name, "Ledger API");
  });

  it("is not named by a generic heading or by one of several sub-parts", () => {
    const generic = decisionModelOf(parseAdr("docs/proposals/ledger.md", record("### Overview\n\nWe propose to add the following service and expose it from every gateway that holds entries, so:\n* Gateway\n")));
    assert.notEqual(generic.chosen?.name, "Overview");
    const several = decisionModelOf(parseAdr("docs/proposals/ledger.md", record("### Ledger API\n\nWe propose to add the following service and expose it from every gateway that holds entries, so:\n* Gateway\n\n### Ledger cache\n\nEach gateway caches recent reads.\n")));
    assert.notEqual(several.chosen?.name, "Ledger API");
  });
});
