// Proposal-style records (RFCs, RFDs, OTEPs, TEPs): they propose one design under parts such as Summary, Motivation,
// Proposal, Design and Alternatives, and name no "Decision" or "Chosen option". What such a record chose is the design
// it proposes, named the way it names it; its Alternatives section holds the options it weighed and turned down.
// Every record here is made up for these tests.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { parseAdr } from "../../src/core/internal/adr";
import { DecisionRecordSchema, decisionModelOf, type DecisionRecord } from "../../src/core/decisions";

function model(path: string, text: string): DecisionRecord {
  const m = decisionModelOf(parseAdr(path, text));
  DecisionRecordSchema.parse(m);
  return m;
}

describe("proposal-style records", () => {
  test("a Proposal heading that names the design after a colon is the choice", () => {
    const m = model("rfd/0012/README.md", `# RFD 12 Tooling for release notes

## Overview

Release notes are written by hand and often miss changes.

## Our process today

Each engineer edits a wiki page before a release.

## Proposal: Changelog fragments collected by the release job

Every change adds a small fragment file; the release job concatenates them.

## Alternatives

### Generating notes from commit messages

Commit messages are written for reviewers, not for users.
`);
    assert.equal(m.chosen?.name, "Changelog fragments collected by the release job");
    assert.deepEqual(m.considered.map((o) => [o.name, o.source]), [
      ["Changelog fragments collected by the release job", "proposal"],
      ["Generating notes from commit messages", "alternatives"],
    ]);
    assert.deepEqual(m.rejected.map((r) => [r.name, r.reason]), [["Generating notes from commit messages", "Commit messages are written for reviewers, not for users."]]);
  });

  test("\"This RFC proposes …\" in the summary names the design", () => {
    const m = model("text/0042-lockfile-signing.md", `# Lockfile signing

## Summary

This RFC proposes signing the lockfile with the publisher's key on every install.

## Motivation

Tampered lockfiles go unnoticed today.

## Detailed design

The installer verifies the signature before it resolves anything.

## Alternatives

- Checksums only: they do not say who wrote the file.
- Doing nothing: tampering stays invisible.

## Drawbacks

Keys must be managed.
`);
    assert.match(m.chosen?.name ?? "", /signing the lockfile/);
    // The proposal is itself the first considered option; the alternatives are the others, each turned down.
    assert.deepEqual(m.considered.map((o) => o.source), ["proposal", "alternatives", "alternatives"]);
    assert.equal(m.chosen?.considered_index, 0);
    assert.deepEqual(m.rejected.map((r) => [r.name, r.reason]), [
      ["Checksums only", "they do not say who wrote the file."],
      ["Doing nothing", "tampering stays invisible."],
    ]);
  });

  test("a proposal with Overview / Background / Implementation parts and no summary sentence is named by its title", () => {
    const m = model("20250101-B-queue-dead-letters.md", `# Dead-letter Queues for Pub/Sub Components

## Overview

Messages that fail delivery are dropped.

## Background

Operators cannot see or replay them.

## Expectations and alternatives

Retrying forever was considered and turned down.

## Implementation Details

A component gains a deadLetterTopic field.
`);
    assert.equal(m.chosen?.name, "Dead-letter Queues for Pub/Sub Components");
    // "Retrying forever was considered …": a sentence, not an item; the model gives no reason it does not have.
    assert.deepEqual(m.rejected.map((r) => r.name), ["Retrying forever"]);
  });

  test("an RFD number before the title is not part of the proposal's name", () => {
    const m = model("rfd/0099/README.md", `# RFD 99 Structured logging for agents

## Overview

Agents log free text.

## Background

Searching the logs is slow.

## Proposed goals

Every agent logs JSON lines.
`);
    assert.equal(m.chosen?.name, "Structured logging for agents");
  });

  test("a record that proposes nothing decidable still reads no choice", () => {
    const m = model("notes/meeting.md", `# Notes from the planning meeting

## Attendees

Ana, Bo and Chen.

## Topics

We talked about the roadmap and the hiring plan.
`);
    assert.equal(m.chosen, undefined);
  });

  test("a Proposal heading without a name after it does not invent one", () => {
    const m = model("text/0007-question.md", `# What should the next milestone contain?

## Background

Several teams asked for features.

## Proposal

To be written.
`);
    assert.equal(m.chosen, undefined);
  });
});
