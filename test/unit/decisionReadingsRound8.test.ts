// Readings of the decision model added in round 8 (issue 21), found on a repository outside every eval set and
// labelled before the extractor changed: option headings labelled with a number word ("Option two:") and a decision
// that picks one by its label ("go with option 2") whatever verb leads it; a refusal that goes on to say what was
// taken instead; "decided not to X, and to keep Y"; "opted for X"; "configured as X" inside a choice; "we will have
// no X"; a catch-all ("or other similar tools") in a list of weighed options; a later "however, we will look at X"
// and a pronoun's "it would …" override nothing. Every record and sentence here is written for these tests.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { parseAdr } from "../../src/core/internal/adr";
import { DecisionRecordSchema, decisionModelOf, readDecisionSentence, type DecisionRecord } from "../../src/core/decisions";

function model(path: string, text: string): DecisionRecord {
  const m = decisionModelOf(parseAdr(path, text));
  DecisionRecordSchema.parse(m);
  return m;
}

const WORD_LABELS = `# ADR011: Keep the steps of a wizard as a linked list

## Status

Accepted

## Context

A wizard shows its steps one after another, and editors reorder them often.

### Option one: Keep the steps in an ordered array

Reordering rewrites every index.

### Option two: Give each step a sort key

Gaps run out after many moves.

### Option three: Give each step a pointer to the one after it

Moving a step touches two pointers.

## Decision

The team has chosen to go with option 3.
`;

const DIGIT_LABEL_OTHER_VERB = `# ADR012: Localise the labels of a survey

## Status

Accepted

## Context

### Option 1: Ask authors to publish one survey per language

### Option 2: Store every label with its translations in the survey document

## Decision

We have decided to go with option 2, storing translations next to each label.
`;

describe("decision model: options cited by their label (round 8)", () => {
  test("headings labelled with number words are the considered options, and 'option 3' picks the third", () => {
    const m = model("docs/adr/ADR011-steps.md", WORD_LABELS);
    assert.deepEqual(
      m.considered.map((o) => o.ref),
      ["1", "2", "3"],
    );
    assert.equal(m.chosen?.considered_index, 2);
    assert.match(m.chosen!.name, /pointer to the one after it/);
    assert.deepEqual(
      m.rejected.map((r) => r.name).sort(),
      ["Give each step a sort key", "Keep the steps in an ordered array"],
    );
  });

  test("'go with option 2' chooses option 2 even though 'go' is not the option's own verb", () => {
    const m = model("docs/adr/ADR012-labels.md", DIGIT_LABEL_OTHER_VERB);
    assert.equal(m.chosen?.considered_index, 1);
    assert.match(m.chosen!.name, /^Store every label with its translations/);
    assert.deepEqual(
      m.rejected.map((r) => r.name),
      ["Ask authors to publish one survey per language"],
    );
  });
});

describe("decision sentences read in round 8", () => {
  test("a refusal that goes on to say what was taken instead chooses that", () => {
    const r = readDecisionSentence("We will not write the importer in Go and have instead opted for Kotlin.");
    assert.equal(r.chosen, "Kotlin");
    assert.deepEqual(r.rejected, ["write the importer in Go"]);
  });

  test("'decided not to use X … and to keep Y' turns X down and keeps Y", () => {
    const r = readDecisionSentence("The team decided not to use the snapshot gem for previews and to keep the audit table strictly for history.");
    assert.equal(r.chosen, "keep the audit table strictly");
    assert.deepEqual(r.rejected, ["snapshot gem"]);
  });

  test("'decided not to adopt X' alone is a refusal that chooses nothing", () => {
    const r = readDecisionSentence("We decided not to adopt GraphQL.");
    assert.equal(r.chosen, undefined);
    assert.deepEqual(r.rejected, ["GraphQL"]);
    assert.equal(r.refusal, "not adopt GraphQL");
  });

  test("'opted for X' chooses X", () => {
    assert.equal(readDecisionSentence("The platform team opted for Valkey.").chosen, "Valkey");
  });

  test("'configured as' stays inside the chosen phrase", () => {
    assert.equal(readDecisionSentence("Use a cache cluster configured as a single shard with two replicas.").chosen, "cache cluster configured as a single shard with two replicas");
  });

  test("'we will have no X' commits to having none", () => {
    assert.equal(readDecisionSentence("We will have no fees for public bodies.").chosen, "no fees");
  });

  test("'it would …' after the choice describes it; it commits to nothing", () => {
    assert.equal(readDecisionSentence("It would then be used to track new states.").chosen, undefined);
    assert.equal(readDecisionSentence("We would adopt Temporal for the workflows.").chosen, "Temporal");
  });
});

const REFUSAL_THEN_FOLLOW_UP = `# ADR020: Try Zig for the parser

## Status

Rejected

## Context

Prototypes were written in three languages.

## Decision

We will not write the parser in Zig and have instead opted for Rust. However, given what the prototype showed, we will look at Zig again for small command-line tools.
`;

const WEIGHED_WITH_CATCH_ALL = `# ADR003: Send notifications through a hosted service

## Status

Accepted

## Context

Users need a confirmation message after each submission.

The approaches possible consist of using a hosted notification service, a cloud mail API, or other similar platforms.

## Decision

We have decided to use a hosted notification service for every message.
`;

const PRONOUN_WOULD = `# ADR025: Use a state machine library for order states

## Status

Accepted

## Context

Order states are tracked by hand in an enum column.

## Decision

Statewise is a well known state machine which seemed to fit our needs better than tracking the column by hand.
It would first be used to replicate the current states and can then add new ones.
`;

describe("decision model: what a later sentence does not override (round 8)", () => {
  test("'however, we will look at X again' after the choice leaves the choice standing", () => {
    const m = model("docs/adr/ADR020-zig.md", REFUSAL_THEN_FOLLOW_UP);
    assert.equal(m.chosen?.name, "Rust");
    assert.equal(m.status, "rejected");
  });

  test("a weighing sentence with a catch-all lists only the named options", () => {
    const m = model("docs/adr/ADR003-notify.md", WEIGHED_WITH_CATCH_ALL);
    assert.deepEqual(
      m.considered.map((o) => o.name),
      ["hosted notification service", "cloud mail API"],
    );
    assert.equal(m.chosen?.considered_index, 0);
  });

  test("a pronoun's 'it would …' is no decision: the title that chooses speaks instead", () => {
    const m = model("docs/adr/ADR025-statewise.md", PRONOUN_WOULD);
    assert.match(m.chosen?.name ?? "", /state machine library/);
  });
});

const ALTERNATIVES_WITH_CONSEQUENCES = `# Console front end: keep React, add a component catalogue

## Status

Accepted

## Proposed Changes

Build the new console pages with React and a shared component catalogue.

## Considered Alternatives

- Rewrite the console in Svelte
- Render every page on the server

### Positive Consequences

Teams keep the skills they have.

### Negative Consequences

The catalogue needs an owner.
`;

test("consequence headings under the alternatives list argue; they are not alternatives", () => {
  const m = model("docs/adrs/0004-console.md", ALTERNATIVES_WITH_CONSEQUENCES);
  const names = m.considered.map((o) => o.name);
  assert.ok(names.includes("Rewrite the console in Svelte") && names.includes("Render every page on the server"), names.join(" | "));
  assert.ok(!names.some((n) => /consequences/i.test(n)), names.join(" | "));
});

const PROPOSAL_WITH_SUBHEADINGS = `# Console front end: new directory layout and a component catalogue

## Status

Accepted

## Proposed Changes

### Directory Layout

Move the old pages under legacy/ and start the new console in console/.

### Component Catalogue

Publish the shared components in a catalogue.

## Considered Alternatives

- Split the directory layout into client/ and server/ folders
- Rewrite the console in Svelte
`;

test("a sub-heading of the proposal that shares words with an alternative does not choose it", () => {
  const m = model("docs/adrs/0005-console-layout.md", PROPOSAL_WITH_SUBHEADINGS);
  assert.notEqual(m.chosen?.name, "Split the directory layout into client/ and server/ folders");
  assert.ok(m.rejected.some((r) => r.name === "Split the directory layout into client/ and server/ folders"));
});
