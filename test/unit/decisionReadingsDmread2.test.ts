// Readings of the decision model for option labels, catch-all headings, list-form decisions and summed-up approaches:
// an option label qualified in brackets ("Option B (fallback, not preferred): X") still gives way to the option's
// name; an "Other options" sub-heading is no option; a decision written as a list is stated by its top-level items,
// not by the nested items that detail them; "We notice that X is Y" states a fact, not a choice; "Plain words are
// …" is no command; a list among the consequences is not what the record weighed; a record with no decision
// section may sum up its approach ("Our approach is based on X"). Every record and sentence here is written for
// these tests.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { parseAdr } from "../../src/core/internal/adr";
import { DecisionRecordSchema, decisionModelOf, optionName, type DecisionRecord } from "../../src/core/decisions";
import { readDecisionSentence } from "../../src/core/decisions/prose";

function model(path: string, text: string): DecisionRecord {
  const m = decisionModelOf(parseAdr(path, text));
  DecisionRecordSchema.parse(m);
  return m;
}

const LABELLED_OPTIONS = `# Shared recipe catalogue

- Status: approved

## Summary

The kitchens need one place to look up recipes.

## Options Considered

### **Option A (preferred): Ship a recipe package**

Every kitchen installs the package.

### **Option B (fallback, not preferred): Run a recipe server**

Kitchens ask a server over the network.

### Other Options

Perhaps a shared spreadsheet would do. Nobody has looked at that closely.
`;

const LIST_DECISION = `# 7. Message relay between the depots

## Status

Accepted

## Context

Parcels go missing between the depots when a relay is down.

## Decision

- We notice that the way the depots hand over parcels, the relay behaves like a shared ledger. Hence every relay needs these properties:

  1. **Ordering**: If depot a sends parcel p before q, then every depot receives p before q.
  2. **Completeness**: If one depot receives a parcel, then every depot eventually receives it.

  See also the handbook chapter on ledgers.

- Use a replicated log service as the relay between the depots
  - Each depot runs one node of the log service
  - The log service keeps its own history

## Consequences

- Depots need one more process.
- \`lognode\` has a few settings we could tune later.
- Operators can keep their current dashboards.
`;

const SUMMED_UP = `# RFD 9 Bakery oven scheduling

## Summary

The ovens are shared by three shifts and nobody knows who booked them.

## Current Behaviour

Shifts write their bookings on a whiteboard.

## High Level Summary

Our approach is based on a booking calendar per oven and tries to stay out of the bakers' way.

1. We will show the calendar on a screen beside each oven.

## Design Outline

Each oven gets its own calendar.

### Alternative 1

A single calendar for all ovens. Bakers found it too crowded.

### Alternative 2

Paper booking slips hung on each oven door. They get lost.
`;

describe("option labels and catch-all headings", () => {
  test("a label qualified in brackets gives way to the option's name, as an unqualified one does", () => {
    assert.equal(optionName("Option B (fallback, not preferred): Run a recipe server").name, "Run a recipe server");
    assert.equal(optionName("Option 2 (cheaper): Rent the hall").name, "Rent the hall");
    const m = model("rfcs/0009-recipes.md", LABELLED_OPTIONS);
    assert.deepEqual(
      m.considered.map((o) => o.name),
      ["Ship a recipe package", "Run a recipe server"],
    );
    assert.equal(m.chosen?.name, "Ship a recipe package");
  });

  test("an 'Other Options' sub-heading is not itself an option", () => {
    const m = model("rfcs/0009-recipes.md", LABELLED_OPTIONS);
    assert.ok(!m.considered.some((o) => /other options/i.test(o.name)));
    assert.ok(!m.rejected.some((o) => /other options/i.test(o.name)));
  });
});

describe("a decision written as a list", () => {
  test("the top-level item that commits is the choice, not a nested item detailing the one above", () => {
    const m = model("docs/adr/007-relay.md", LIST_DECISION);
    assert.match(m.chosen?.name ?? "", /replicated log service/);
  });

  test("a list among the consequences is not read as the options weighed", () => {
    const m = model("docs/adr/007-relay.md", LIST_DECISION);
    assert.deepEqual(m.considered, []);
    assert.deepEqual(m.rejected, []);
  });

  test("'We notice that X is Y' states a fact; only a commitment inside the statement chooses", () => {
    assert.equal(readDecisionSentence("We notice that the relay behaves like a shared ledger.").chosen, undefined);
    assert.equal(readDecisionSentence("We note that the ledger will be used for every depot.").chosen, "ledger");
  });

  test("a sentence whose first words are followed by 'are' is no command", () => {
    assert.equal(readDecisionSentence("Plain labels are identical to the printed ones, so both share one vocabulary.").chosen, undefined);
    assert.equal(readDecisionSentence("Cap the queue at ten parcels.").chosen, "Cap the queue at ten parcels");
  });
});

describe("an approach summed up without a decision section", () => {
  test("'Our approach is based on X' names X, without the approach's second predicate", () => {
    const r = readDecisionSentence("Our approach is based on a booking calendar per oven and tries to stay out of the way.");
    assert.equal(r.chosen, "booking calendar per oven");
    assert.equal(readDecisionSentence("Our approach is based on queues and workers.").chosen, "queues and workers");
  });

  test("a summary part's opening statement of the record's own approach is its choice", () => {
    const m = model("rfd/0009/README.md", SUMMED_UP);
    assert.match(m.chosen?.name ?? "", /booking calendar per oven/);
    assert.ok(m.rejected.some((o) => /single calendar/i.test(o.name)));
  });
});
