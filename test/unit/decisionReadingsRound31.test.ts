// Readings of the decision model added in round 31: a proposal that says what it retires or restructures ("This RFC
// deprecates the X", "This proposal merges A and B") states its proposal, verb and all; a later decision sentence
// that commits "instead" ("The service will instead use X") outweighs the removal the decision opened with; a
// proposal's summary that names only a capability ("Provide a mechanism for users to X") gives way to the statement
// that names the design; a record with neither a decision section nor a stated proposal that ranks one way in its
// prose ("the simplest option seems to be X") chose X; a decision that leaves the choice open ("It is not yet clear
// whether to X or to Y") chooses nothing. Every record and sentence here is written for these tests.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { parseAdr } from "../../src/core/internal/adr";
import { DecisionRecordSchema, decisionModelOf, type DecisionRecord } from "../../src/core/decisions";
import { readDecisionSentence } from "../../src/core/decisions/prose";

function model(path: string, text: string): DecisionRecord {
  const m = decisionModelOf(parseAdr(path, text));
  DecisionRecordSchema.parse(m);
  return m;
}

const RETIRING_RFC = `# Sunsetting Global Presets: Phase One, Phase Two, Cleanup

## Summary

This RFC deprecates the global preset folder that every install reads from the user's home.

## Motivation

Presets in the home folder surprise people: the same project lints differently on two machines.

## Detailed design

Phase one prints a warning. Phase two stops reading the folder. Cleanup deletes the code.

## Alternatives

Keep the folder and document it better.
`;

const INSTEAD_DECISION = `# 0012. Maintenance windows

## Status

Accepted

## Context

During migrations we swap traffic to a separate holding site, which has to be deployed and branded on its own.

## Decision

The separate holding site will be retired.

The portal will instead use a maintenance switch inside the main application, turned on through configuration.

## Consequences

One fewer thing to deploy.
`;

const CAPABILITY_RFC = `# Per-team retention windows

## Summary

Provide a mechanism for users to choose how long the build logs of their team are stored.

## Motivation

Some teams must keep logs for audits; others want them gone after a week.

## Detailed design

We will add a retention block to the team manifest, with the number of days as its value.

The log cleaner reads the block before it deletes anything.

## Drawbacks

One more field to document.
`;

const RANKED_IN_PROSE = `# Moving the cache nodes to the new disks

## Background

The cache nodes keep their data on local disks, and the old disks are being retired this quarter.

## Cache nodes

How do we move a node without losing its warm data? There are a few possibilities, but the simplest option seems to be
copying the data directory to the new disk before the node restarts. The copy takes minutes.

- The node is the only safe place to run the copy.

## Rollout

One zone at a time.
`;

const LEFT_OPEN = `# 9. Search backend

## Status

Accepted

## Context

The catalogue search is slow. We looked at the options below.

## Options

- Run our own search cluster
- Use a hosted search service

## Decision

- Faster search is worth the work this year.
- It is not yet clear whether to run our own search cluster or to use a hosted search service.
- A spike on each will show which one fits the catalogue.
- The spike should measure the following:
  - indexing time for the whole catalogue
  - query latency at peak

## Consequences

Two spikes before the work starts.
`;

describe("decision readings, round 31", () => {
  test("a record that deprecates something proposes the deprecation", () => {
    const r = readDecisionSentence("This RFC deprecates the global preset folder.");
    assert.equal(r.chosen, "deprecate the global preset folder");
    assert.equal(r.cue, "this record proposes");
    const m = model("rfcs/0042-sunset-presets.md", RETIRING_RFC);
    assert.match(m.chosen?.name ?? "", /^deprecate the global preset folder/);
  });

  test("a record that merges or removes keeps the verb in its plain form", () => {
    assert.equal(readDecisionSentence("This proposal merges the billing and invoicing services.").chosen, "merge the billing and invoicing services");
    assert.equal(readDecisionSentence("This ADR removes the nightly export job.").chosen, "remove the nightly export job");
    assert.equal(readDecisionSentence("This RFC switches to the hosted runners.").chosen?.startsWith("switch to"), true);
    assert.equal(readDecisionSentence("This RFC unifies the two retry settings.").chosen, "unify the two retry settings");
  });

  test("a later commitment made 'instead' outweighs the removal the decision opens with", () => {
    const m = model("docs/adr/0012-maintenance-windows.md", INSTEAD_DECISION);
    assert.match(m.chosen?.name ?? "", /maintenance switch inside the main application/);
  });

  test("a summary that names only a capability gives way to the design's statement", () => {
    const m = model("rfcs/0107-retention-windows.md", CAPABILITY_RFC);
    assert.match(m.chosen?.name ?? "", /retention block to the team manifest/);
  });

  test("a record without a decision section that ranks one way in its prose chose it", () => {
    const m = model("docs/proposals/cache-disk-move.md", RANKED_IN_PROSE);
    assert.match(m.chosen?.name ?? "", /^copying the data directory to the new disk/);
  });

  test("a decision that leaves the choice open chooses none of the options it names", () => {
    const m = model("docs/adr/0009-search-backend.md", LEFT_OPEN);
    assert.equal(m.chosen, undefined);
    assert.equal(m.considered.length, 2);
  });
});
