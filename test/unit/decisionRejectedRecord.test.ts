// A rejected record chose nothing its own proposal or its refusal names (src/core/decisions/options.ts): its title
// "Use X" is what was turned down, and "we decided not to adopt X" restates that. Fixtures written for this test.
import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import { parseAdr } from "../../src/core/internal/adr";
import { decisionModelOf } from "../../src/core/decisions";

const record = (status: string, decision: string) => `# 7. Use Pigeon Relay for queue replication

Date: 2024-02-02

## Status

${status}

## Context

Queues in two regions drift apart after a network split, and operators repair them by hand.

## Decision

${decision}

## Consequences

- Operators keep repairing queues by hand for now.
`;

const describing = "Pigeon Relay is a daemon that copies queue segments between regions. Such a tool could let us replicate queues without manual repair.";
const refusing = "We have decided not to adopt Pigeon Relay for queue replication. The main reason is its licence terms.";

describe("a rejected record", () => {
  it("does not read its title's proposal as chosen", () => {
    const model = decisionModelOf(parseAdr("docs/adr/0007-use-pigeon-relay.md", record("Rejected", describing)));
    assert.equal(model.status, "rejected");
    assert.equal(model.chosen, undefined);
  });

  it("does not read its refusal as a choice", () => {
    const model = decisionModelOf(parseAdr("docs/adr/0007-use-pigeon-relay.md", record("Rejected", refusing)));
    assert.equal(model.chosen, undefined);
  });

  it("still reads a choice from the same text in an accepted record", () => {
    assert.match(decisionModelOf(parseAdr("docs/adr/0007-use-pigeon-relay.md", record("Accepted", describing))).chosen?.name ?? "", /Pigeon Relay/);
    assert.notEqual(decisionModelOf(parseAdr("docs/adr/0007-use-pigeon-relay.md", record("Accepted", refusing))).chosen, undefined);
  });
});
