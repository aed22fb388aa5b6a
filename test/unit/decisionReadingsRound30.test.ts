// Readings of the decision model added in round 30 (issue 21): a title whose last part states the choice ("Shop
// front-end: layout changes and Use Svelte, Tailwind and tRPC") outweighs a later "will" sentence, and a footnote
// states no decision at all; commas between the adjectives of one noun ("a dedicated, isolated, queue") end no
// phrase; a part of the record that sets out one listed option by name after a colon ("## Requirements: Per-tenant
// cache") names the choice a decision text left open. Every record and sentence here is written for these tests.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { parseAdr } from "../../src/core/internal/adr";
import { DecisionRecordSchema, decisionModelOf, readDecisionSentence, type DecisionRecord } from "../../src/core/decisions";

function model(path: string, text: string): DecisionRecord {
  const m = decisionModelOf(parseAdr(path, text));
  DecisionRecordSchema.parse(m);
  return m;
}

const TITLE_PART = `# Shop front-end: Layout Changes and Use Svelte, Tailwind, and tRPC

- Status: accepted
- Date: 2024-03-02

## Context and Problem Statement

The shop pages are served by two older applications that share a stylesheet and little else.

## Proposed Changes

### Folder layout

Today the pages live in one folder next to the server templates. To keep the layers apart:

- \`old-web/\` for the pages that stay as they are¹
- \`shop-ui/\` for the new application

¹ 2024-03-09 note: \`old-web\` will hold the archived catalogue pages until they are retired.

### Stack

- Components in Svelte with a small router
- Styling through Tailwind utility classes

## Alternatives Considered

- Keep the current jQuery pages and restyle them
- Use plain CSS modules instead of Tailwind
`;

const FOOTNOTE_ONLY = `# 7. Shop front-end layout

## Status

accepted

## Decision

Today the pages live in one folder next to the server templates, and it gets hard to find things.

[^1]: The \`old-web\` folder will keep the archived catalogue pages until they are retired.
`;

const SPECIFIED = `# Tenant cache at start-up

## Summary

This document looks at how a service warms its cache for each tenant when it starts.

## Considered Options

### Shared cache

One cache for every tenant, keyed by tenant and entry.

### Per-tenant cache

One cache per tenant, created when the tenant's first request arrives.

## Requirements: Per-tenant cache

Each cache holds at most ten thousand entries and is dropped an hour after its last request.

## Open questions

How large the first batch of warmed entries should be.
`;

describe("decision model round 30: a title part that states the choice, footnotes", () => {
  test("a title whose last part is a choice outweighs a footnote's 'will' sentence", () => {
    const m = model("docs/adrs/0003-shop-front-end.md", TITLE_PART);
    assert.ok(m.chosen, "a choice is read");
    assert.match(m.chosen.name, /Svelte/);
    assert.doesNotMatch(m.chosen.name, /archived/);
  });

  test("a footnote in the decision section states no decision", () => {
    const m = model("doc/adr/0007-shop-front-end-layout.md", FOOTNOTE_ONLY);
    assert.doesNotMatch(m.chosen?.name ?? "", /archived|keep/i);
  });
});

describe("decision model round 30: commas between adjectives", () => {
  test("'a dedicated, isolated, queue' is one noun phrase", () => {
    assert.match(readDecisionSentence("Every worker will get a dedicated, isolated, queue for its jobs.").chosen ?? "", /dedicated isolated queue$/);
  });

  test("'our fast, cheap, local store' keeps every adjective", () => {
    assert.match(readDecisionSentence("We will use our fast, cheap, local store for sessions.").chosen ?? "", /fast cheap local store/);
  });
});

describe("decision model round 30: a part that sets out one option", () => {
  test("'## Requirements: Per-tenant cache' names the chosen option", () => {
    const m = model("text/0042-tenant-cache.md", SPECIFIED);
    assert.equal(m.chosen?.name, "Per-tenant cache");
  });
});
