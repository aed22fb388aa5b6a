// Readings of the chosen option (issue 21, item 1): a proposal whose summary commits to nothing is named by the
// statement its proposal part opens with when that statement says what the title says (the title only names it in
// short); a proposal whose title lives in its front matter (no title heading) is named by that title; an option a
// record labels as its preferred one ("Preferred style: X" beside "Discouraged style: Y") is the chosen one. Every
// record here is written for these tests.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { parseAdr } from "../../src/core/internal/adr";
import { DecisionRecordSchema, decisionModelOf, type DecisionRecord } from "../../src/core/decisions";

function model(path: string, text: string): DecisionRecord {
  const m = decisionModelOf(parseAdr(path, text));
  DecisionRecordSchema.parse(m);
  return m;
}

const RESTATED_IN_PROPOSAL = `# Drop pinned versions from bot configs

## Summary

Last year the team pinned the update bot to a short list of packages. A review of that change has now finished.

## Problem

The pinned list hides security fixes for every package not on it, and few teams merge the updates any faster.

## Proposal

Drop every pinned package list from the bot configuration files.

## Alternatives considered

### Keep the lists

Nothing changes, and security fixes stay hidden.
`;

const FRONT_MATTER_TITLE = `---
title: "Sharded Index Rebuilds by Day"
status: proposed
---

## Introduction

Index rebuilds run on one node and take most of a night for the largest tenants.

## Design

Each rebuild is cut into day-sized pieces that idle nodes pick up in turn.

## Alternatives

### Central scheduler

A scheduler hands pieces to nodes; it is one more service to run.
`;

const PREFERRED_LABEL = `# Column references in queries

## Status

Accepted

## Context

Joins over tables with the same column names have broken reports twice this year.

## Decision

To keep that from happening again we agree on one way of writing column references in every query we own.

**1. Preferred style: Qualified column names**

Every column carries its table alias.

**2. Discouraged style: Bare column names**

Columns are written without their table.
`;

describe("the chosen option, read more often", () => {
  test("a proposal part that restates the title in full names the proposal, not the title", () => {
    const m = model("rfcs/rfc-201-drop-pinned-versions.md", RESTATED_IN_PROPOSAL);
    assert.equal(m.chosen?.name, "Drop every pinned package list from the bot configuration files");
    assert.equal(m.chosen?.range.start, 13);
  });

  test("a proposal without a title heading is named by its front-matter title", () => {
    const m = model("docs/proposals/sharded-rebuilds.md", FRONT_MATTER_TITLE);
    assert.equal(m.chosen?.name, "Sharded Index Rebuilds by Day");
    assert.equal(m.chosen?.range.start, 2);
  });

  test("an option labelled as the preferred one is chosen over the decision's opening sentence", () => {
    const m = model("adr/column-references.md", PREFERRED_LABEL);
    assert.deepEqual(m.considered.map((o) => o.name), ["Qualified column names", "Bare column names"]);
    assert.equal(m.chosen?.name, "Qualified column names");
    assert.equal(m.chosen?.how, "decided-marker");
  });
});
