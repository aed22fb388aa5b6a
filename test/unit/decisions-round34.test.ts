// Readings of the decision model added in round 34. A record with no decision section whose opening only says what
// someone will be doing chose nothing. A title whose last part names a move as a noun ("Billing metrics and the
// migration to Honeycomb") states where the record moves to. Of two options weighed side by side, one of which is to
// stand still ("Do nothing and keep the current tables"), a decision that commits in words of its own to a change took
// the other one; not when the two are an RFC's turned-down alternatives, nor when the prose keeps things or changes
// them only in part where the option changes them fully.
// Every record here is written for these tests.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { parseAdr } from "../../src/core/internal/adr";
import { DecisionRecordSchema, decisionModelOf, type DecisionRecord } from "../../src/core/decisions";

function model(path: string, text: string): DecisionRecord {
  const m = decisionModelOf(parseAdr(path, text));
  DecisionRecordSchema.parse(m);
  return m;
}

describe("an opening that only says what someone will be doing", () => {
  test("a subject that will only be doing something else chooses nothing", () => {
    const m = model(
      "docs/adr/adr-003-on-call.md",
      "# Decision record: on-call hand-over\n\n## Introduction\n\nThere will always be incidents that fall outside office hours. The rota will be shared in the team calendar.\n\n## Details\n\nEach week starts on Monday.\n",
    );
    assert.equal(m.chosen, undefined);
  });
});

describe("a title that names a move as a noun", () => {
  test("the migration to X after 'and the' is where the record moves to", () => {
    const m = model(
      "docs/adr/0009-billing-metrics.md",
      "# Billing metrics and the migration to Honeycomb\n\n- Status: Informational\n- Date: 2025-03-01\n\n## Context\n\nThrough 2024 billing sent its counters to a self-hosted Graphite.\n\n## Outcomes\n\nThe dashboards were rebuilt by hand.\n",
    );
    assert.equal(m.chosen?.name, "Move to Honeycomb");
  });
  test("a title that only mentions a migration as its topic states no move", () => {
    const m = model(
      "docs/adr/0010-migration-notes.md",
      "# Notes on the schema migration tooling\n\n- Status: Informational\n\n## Context\n\nSchema changes ship with each release.\n\n## Outcomes\n\nThe notes live in the wiki.\n",
    );
    assert.equal(m.chosen, undefined);
  });
});

const STILL_RECORD = (decision: string, heading = "Options considered") =>
  `# ADR031 - Store audit events as documents\n\n- **Status**: Accepted\n- **Date**: 2025-01-10\n\n## Decision\n\n${decision}\n\n## Context\n\nThe audit tables grew to forty columns.\n\n## ${heading}\n\n1. Store each audit event as one JSON document with a few indexed columns.\n2. Do nothing and keep the current audit tables.\n\n## Consequences\n\nReads decode the document.\n`;


describe("two options, one of which is to stand still", () => {
  test("a decision that commits to a change in its own words took the other option", () => {
    const m = model("docs/arch/ADR031-audit-documents.md", STILL_RECORD("Replace the audit tables with a leaner layout."));
    assert.equal(m.chosen?.name, "Store each audit event as one JSON document with a few indexed columns");
    assert.equal(m.chosen?.considered_index, 0);
  });
  test("a decision that keeps what is there is not read as the change", () => {
    const m = model("docs/arch/ADR031-audit-documents.md", STILL_RECORD("Keep the audit tables for another year while the volume is measured."));
    assert.equal(m.chosen?.name, "Do nothing and keep the current audit tables");
  });
  test("an RFC's turned-down alternatives leave its own proposal as the choice", () => {
    const m = model("docs/arch/ADR031-audit-documents.md", STILL_RECORD("Replace the audit tables with a leaner layout.", "Alternatives"));
    assert.equal(m.chosen?.name, "leaner layout");
  });
});

describe("prose that shares words with the change it was not matched to", () => {
  test("removing what the option would fix is a third way, not that option", () => {
    const m = model("docs/arch/ADR031-audit-documents.md", STILL_RECORD("Drop the audit documents idea and trim the tables to ten columns instead."));
    assert.equal(m.chosen?.considered_index, undefined);
    assert.equal(m.chosen?.how, "decision-prose");
  });
});
