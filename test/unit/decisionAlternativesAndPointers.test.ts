// Readings of the decision model: headings labelled "Alternative 1", "Alternative 2" name alternatives to the record's
// own design (not options weighed alike), so a later sentence that only shares their words does not choose one; and a
// sentence that links to an alternative's section to say why it was not picked points at it for contrast, leaving the
// proposal the record states. Every record here is written for these tests.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { parseAdr } from "../../src/core/internal/adr";
import { DecisionRecordSchema, decisionModelOf, type DecisionRecord } from "../../src/core/decisions";

function model(path: string, text: string): DecisionRecord {
  const m = decisionModelOf(parseAdr(path, text));
  DecisionRecordSchema.parse(m);
  return m;
}

const ALTERNATIVE_HEADINGS = `# Note 12: Cache eviction for shared tenants

## Summary

Tenants on one host fight over the block cache, and eviction today walks each tenant's files from the top down.

## Outline

1. We will tag every cached block with the tenant that reads it.
2. We will let the host's own eviction sweep run per tenant once a tenant passes its share.

### Alternative 1

Keep a sorted list of the blocks each tenant holds and evict from it. Every insert then pays for the list.

### Alternative 2

Run one eviction thread per tenant. The threads contend for the same locks.
`;

const LINKED_FOR_CONTRAST = `# Plan 7: Shareable build units

## Summary

We want small build units that run inside one worker instead of one worker each.

## Proposal

We propose introducing a \`UnitAction\` kind made of the runnable parts of a build unit. See the [Unit kind](#unitkind) section for why we did not pick this name instead.

The \`UnitAction\` is referenced from a build unit and never runs alone.

## Alternatives

### UnitKind

Call the new kind \`UnitKind\`. The name reads as if every unit were one.

### Nested plans

Let a plan hold other plans. Each nested plan still needs its own worker.
`;

describe("alternatives to a record's own design", () => {
  test("'Alternative N' headings are alternatives: words shared with a commitment choose none of them", () => {
    const m = model("notes/0012/README.md", ALTERNATIVE_HEADINGS);
    assert.ok(m.considered.length >= 2);
    assert.ok(m.considered.every((o) => o.source === "alternatives"));
    assert.ok(!/sorted list/i.test(m.chosen?.name ?? ""), `chose ${m.chosen?.name}`);
  });

  test("a sentence linking to an alternative to say why it was not picked does not choose it", () => {
    const m = model("plans/0007.md", LINKED_FOR_CONTRAST);
    assert.match(m.chosen?.name ?? "", /UnitAction/);
    assert.notEqual(m.chosen?.name, "UnitKind");
  });
});

const CASE_BY_CASE = `# Partial updates to saved reports

## Context

Older scripts send report settings without the fields added since; the server must not guess what they meant.

## Decision

A saved report setting can arrive in one of three shapes:

1. It carries a value
2. It is left out
3. It is sent as null

- If the setting carries a value, we will store that value.
- If the setting is left out, we will keep what is stored.
- If the setting is sent as null, we will clear the stored value.
`;

const CONDITION_THEN_CHOICE = `# Routing to busy hosts

## Context

Hosts run several services behind one balancer.

## Decision

When a host runs more than one service, we will give each service its own health probe path.

## Consequences

More probes to watch.
`;

describe("a rule laid out case by case", () => {
  test("one conditional case among sibling cases is not the choice", () => {
    const m = model("docs/decisions/partial-updates.md", CASE_BY_CASE);
    assert.ok(!/store that value/i.test(m.chosen?.name ?? ""), `chose ${m.chosen?.name}`);
  });

  test("a decision sentence that opens with a condition still chooses", () => {
    const m = model("docs/decisions/0009-routing.md", CONDITION_THEN_CHOICE);
    assert.match(m.chosen?.name ?? "", /health probe path/);
  });
});

const NAMED_TITLE_RFC = `# Lantern: A Shared Tracing Resource for Long Running Batch Job Pipelines

## Overview

Batch jobs lose their traces when a worker restarts, and each team wires its own exporter.

## Background

Exporters are configured per job today.

## Alternatives considered

Keep per-job exporters and document them better.
`;

const SHORT_TITLE_RFC = `# Lantern: shared tracing

## Overview

Batch jobs lose their traces when a worker restarts.

## Background

Exporters are configured per job today.

## Alternatives considered

Keep per-job exporters.
`;

describe("a proposal named by its title", () => {
  test("a long 'Name: what it is for …' title is cut to the name and what it is", () => {
    const m = model("proposals/lantern.md", NAMED_TITLE_RFC);
    assert.equal(m.chosen?.name, "Lantern: A Shared Tracing Resource");
  });

  test("a short title is kept whole", () => {
    const m = model("proposals/lantern-short.md", SHORT_TITLE_RFC);
    assert.equal(m.chosen?.name, "Lantern: shared tracing");
  });
});
