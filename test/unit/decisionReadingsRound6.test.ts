// Readings of the decision model added in round 6 (issue 21): an option's own "Advantages" / "Disadvantages"
// headings are arguments, not options; a phrase that says more of a wider option than of the short option inside it
// chose the wider one; two options named in full by one decision sentence go to the one it names first; "turned
// down" rejects; "we chose the second" picks by position. Every record and sentence here is written for these tests.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { parseAdr } from "../../src/core/internal/adr";
import { DecisionRecordSchema, decisionModelOf, type DecisionRecord } from "../../src/core/decisions";

function model(path: string, text: string): DecisionRecord {
  const m = decisionModelOf(parseAdr(path, text));
  DecisionRecordSchema.parse(m);
  return m;
}
const names = (m: DecisionRecord) => m.considered.map((o) => o.name);

const TILES = `# Seams between map tiles

## Problem

Tiles rendered at the date line show a thin seam.

## Possible solutions

### Overlap tiles

#### Advantages
- Simple to render

#### Disadvantages
- Doubles the bytes at every edge

### Blend the edges

#### Pros
- No extra bytes

#### Cons
- Blurs fine lines

### Overlap tiles and blend the edges

#### Advantages
- Hides the seam everywhere

#### Disadvantages
- Two code paths to keep

## Proposal
Go with the combined overlap tiles and blend edges approach for now, only at the date line.
`;

describe("options under headings that carry their own pros and cons", () => {
  test("each option heading is one option; its Advantages / Disadvantages headings and their items are not options", () => {
    const m = model("docs/adr/0031-tile-seams.md", TILES);
    assert.deepEqual(names(m), ["Overlap tiles", "Blend the edges", "Overlap tiles and blend the edges"]);
  });

  test("a decision that says more of the combined option than the short option inside it chose the combined one", () => {
    const m = model("docs/adr/0031-tile-seams.md", TILES);
    assert.equal(m.chosen?.name, "Overlap tiles and blend the edges", JSON.stringify(m.chosen));
  });
});

describe("which of several named options a decision sentence chose", () => {
  test("two options named in full: the one the sentence names first, the object of its verb, not one named in an 'until' clause", () => {
    const m = model(
      "docs/adr/0032-status-page.md",
      `# 32. Status page address

- Status: accepted

## Considered Options

- Use the vendor's status subdomain
- Use a status.example.org page
- Use our own status domain

## Decision Outcome

We will use our own status domain for now, until the status.example.org page is ready; then the status domain moves there.
`,
    );
    assert.equal(m.chosen?.name, "Use our own status domain");
  });

  test("'was turned down' rejects the option it names, and 'we chose the second' picks by position", () => {
    const m = model(
      "docs/adr/0033-queue.md",
      `# 33. Queue for thumbnails

## Status

Accepted

## Decision

We compared three options:

1. a queue table in the main database
2. a hosted message broker
3. an in-process worker pool

We chose the second: the hosted message broker takes bursts without touching the database.

The queue table was turned down: it would lock the hot tables during bursts.
`,
    );
    assert.equal(m.chosen?.considered_index, 1, JSON.stringify(m.chosen));
    assert.ok(m.rejected.some((r) => /queue table/.test(r.name)), JSON.stringify(m.rejected));
  });
});
