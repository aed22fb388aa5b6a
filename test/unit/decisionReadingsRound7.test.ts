// Readings of the decision model added in round 7 (issue 21), found on repositories outside every eval set: front
// matter (`tags:` lists) names no options; a decision section that walks through numbered candidates in bold
// paragraphs lists them, and its closing sentence ("X seems to be a better option") chooses; an extraposed
// comparison ("it is a safer bet to switch to X") commits; "Depreciated" is a status. Every record and sentence here
// is written for these tests.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { parseAdr } from "../../src/core/internal/adr";
import { DecisionRecordSchema, decisionModelOf, readDecisionSentence, type DecisionRecord } from "../../src/core/decisions";

function model(path: string, text: string): DecisionRecord {
  const m = decisionModelOf(parseAdr(path, text));
  DecisionRecordSchema.parse(m);
  return m;
}
const names = (m: DecisionRecord) => m.considered.map((o) => o.name);

const TAGGED = `---
title: "Process each queue on one thread"
status: Accepted
summary: "One thread per queue keeps ordering; several queues give throughput, and the available strategies were weighed."
tags:
  - "queues"
  - "threads"
  - "ordering"
---

# 4. Process each queue on one thread

## Status

Accepted

## Context

Handlers must see the messages of a queue in the order they arrived.

## Decision

We will run one consumer thread per queue.
`;

const WALKTHROUGH = `# 9. Charting library

## Status

Accepted

## Context

The dashboards need line and bar charts.

## Decision

These are the libraries we looked at:

**1) Plotline** - (https://example.test/plotline)
Draws with SVG. Small and simple.

- Size: 20 KB
- Fewer chart types than Barrow

**2) Barrow** - (https://example.test/barrow)
Draws on a canvas, so it is fast with many points.

- Size: 45 KB
- Its axis code is harder to style than Plotline

**3) Gridmark** - (https://example.test/gridmark)
A port of an older desktop library.

- Size: 90 KB
- Documentation is thin

Reading a few reviews, Gridmark came up short when compared with Barrow in every one of them.

By weighing the above, Barrow seems to be a better option to go for.

## Consequences

Charts render on a canvas element.
`;

describe("decision model, round 7", () => {
  test("front matter tags are metadata, never considered options", () => {
    const m = model("docs/adr/0004-one-thread-per-queue.md", TAGGED);
    assert.deepEqual(names(m), []);
    assert.equal(m.chosen?.name, "run one consumer thread per queue");
    assert.equal(m.status, "accepted");
  });

  test("numbered bold candidates in the decision section are the considered options", () => {
    const m = model("docs/adr/0009-charting-library.md", WALKTHROUGH);
    assert.deepEqual(names(m), ["Plotline", "Barrow", "Gridmark"]);
  });

  test("the closing sentence of a walkthrough chooses; the candidates' own descriptions do not", () => {
    const m = model("docs/adr/0009-charting-library.md", WALKTHROUGH);
    assert.equal(m.chosen?.name, "Barrow");
    assert.equal(m.chosen?.considered_index, 1);
    const rejected = m.rejected.map((r) => r.name);
    assert.ok(rejected.includes("Plotline") && rejected.includes("Gridmark"), rejected.join(", "));
  });

  test("without the numbers, bold leads are emphasis and list nothing", () => {
    const m = model("docs/adr/0009-charting-library.md", WALKTHROUGH.replace(/\*\*\d\) /g, "**"));
    assert.ok(!names(m).includes("Gridmark"), names(m).join(", "));
  });

  test("comparatives that choose, and those that only compare", () => {
    assert.equal(readDecisionSentence("By weighing the above, Barrow seems to be a better option to go for.").chosen, "Barrow");
    assert.equal(readDecisionSentence("It is a safer bet to switch to `fastq` now, and to accept its smaller API.").chosen, "switch to fastq now");
    assert.equal(readDecisionSentence("It is better to use Valkey for the session cache.").chosen, "Valkey");
    assert.equal(readDecisionSentence("Valkey is a better fit than Memcached for sessions.").chosen, undefined);
    assert.equal(readDecisionSentence("This is a better approach overall.").chosen, undefined);
  });

  test("a concessive opening does not hide the clause that commits", () => {
    const r = readDecisionSentence("While a future release of the old runner may fix this, it is a safer bet to switch to the new runner now.");
    assert.equal(r.chosen, "switch to the new runner now");
  });

  test('"Depreciated" (a common misspelling) is read as deprecated', () => {
    const m = model("docs/adr/0014-breakpoints.md", "# 14. Breakpoints\n\n## Status\n\nDepreciated.\n\n## Decision\n\nUse three breakpoints.\n");
    assert.equal(m.status, "deprecated");
  });
});
