// A decision that calls one considered option unfit ("is not appropriate here") and names the other turns the first
// down and chooses the second (src/core/decisions/options.ts). Fixture written for this test.
import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import { parseAdr } from "../../src/core/internal/adr";
import { decisionModelOf } from "../../src/core/decisions";

const record = (verdict: string) => `# 12. Shared DNS filtering will not be run centrally

Date: 2025-03-01

## Status

Accepted

## Options

### 1. Run the national filtering resolver

- Free of charge

### 2. Run the cloud provider's DNS firewall

- Managed as code

## Decision

${verdict}
Running the cloud provider's DNS firewall gives comparable protection and can be managed as code.
`;

describe("an option the decision calls unfit", () => {
  for (const verdict of [
    "Running the national filtering resolver is not appropriate for this platform; it assumes one organisation-wide network.",
    "Running the national filtering resolver is unsuitable for this platform, which spans many agencies.",
    "Running the national filtering resolver is not a good fit for a platform of many accounts.",
  ]) {
    it(`reads "${verdict.slice(0, 60)}…" as turning it down`, () => {
      const model = decisionModelOf(parseAdr("docs/adr/0012-dns-filtering.md", record(verdict)));
      assert.equal(model.chosen?.name, "Run the cloud provider's DNS firewall");
      assert.ok(model.rejected.some((r) => r.name === "Run the national filtering resolver"));
    });
  }
});
