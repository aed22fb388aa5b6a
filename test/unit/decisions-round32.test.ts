// Readings of the decision model added in round 32. A proposal part whose one sub-part is laid out as an option
// (its own pros and cons, like the alternatives after it) proposes that option. A sentence that opens with a wish
// ("We want to offer X") states what the record is for unless the wish picks a means ("We want to use X"). An RFC that opens by saying it documents how things work ("This RFC describes in detail how X
// decides Y") proposes nothing, whatever its title. Options cited by position and each committed to for its own part ("the first
// approach should be used in X, while the third one should be used in Y") are chosen together, and so are the options a list cites by label after "a combination of options:". An editor's
// "NEW!" before an option's label is no part of its name. A sentence that opens with a command ("Install X along with the plugins that need it") has no
// subject: it is read as the command, not as "the plugins" doing something. Of two options weighed under their own headings, one that its own text
// disowns ("listed only for completeness; we do not recommend it") leaves the other as the proposal. A naming decision ("we will refer to X as Y and to Z as W") settles the names. Every
// record and sentence here is written for these tests.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { parseAdr } from "../../src/core/internal/adr";
import { DecisionRecordSchema, decisionModelOf, type DecisionRecord } from "../../src/core/decisions";
import { statesAGoal } from "../../src/core/decisions/goals";
import { optionName } from "../../src/core/decisions/options";
import { readDecisionSentence } from "../../src/core/decisions/prose";

function model(path: string, text: string): DecisionRecord {
  const m = decisionModelOf(parseAdr(path, text));
  DecisionRecordSchema.parse(m);
  return m;
}

const OPTION_SHAPED_PROPOSAL = `## 1 Why

Uploads from one customer can fill the shared bucket and stall everyone else.

## 2 Proposal

There are a few ways to cap what one customer stores. They are listed in order of preference.

### 2.1 Quota Checked by the Upload Gateway

The gateway reads each customer's stored total from the usage report and refuses uploads above the quota.

#### 2.1.1 Pros:

* Only one component changes

#### 2.1.2 Cons:

* The usage report lags by a few minutes

## 3 Alternatives

### 3.1 Quota Checked by Every Storage Node

Each node keeps a running total and the nodes exchange them.

#### 3.1.1 Pros:

* Exact totals

#### 3.1.2 Cons:

* Nodes have to talk to each other

### 3.2 No Quota at All

Leave storage unbounded and bill for it.
`;

const TWO_SHAPED_PARTS = OPTION_SHAPED_PROPOSAL.replace(
  "## 3 Alternatives",
  `### 2.2 Quota Kept in the Billing Service

Billing already knows what each customer stores.

#### 2.2.1 Pros:

* No new data

## 3 Alternatives`,
);

const PART_WITHOUT_ARGUMENTS = `## Why

Uploads from one customer can fill the shared bucket.

## Proposal

There are a few ways to cap what one customer stores.

### Example

A customer with a 10 GB quota uploads an 11 GB file and gets an error.

## Alternatives

### Quota Checked by Every Storage Node

Each node keeps a running total.
`;

describe("a proposal part whose one sub-part is written as an option", () => {
  test("that sub-part's heading, without its number, is the proposal, and it joins the considered options", () => {
    const m = model("docs/proposals/2024-upload-quota.md", OPTION_SHAPED_PROPOSAL);
    assert.equal(m.chosen?.name, "Quota Checked by the Upload Gateway");
    assert.equal(m.considered[0].name, "Quota Checked by the Upload Gateway");
    assert.equal(m.considered[0].source, "proposal");
    assert.ok(m.rejected.some((r) => /Every Storage Node/.test(r.name)));
  });

  test("two sub-parts written as options leave the choice to the rest of the record", () => {
    const m = model("docs/proposals/2024-upload-quota.md", TWO_SHAPED_PARTS);
    assert.notEqual(m.chosen?.name, "Quota Checked by the Upload Gateway");
    assert.notEqual(m.chosen?.name, "Quota Kept in the Billing Service");
  });

  test("a sub-part without pros and cons is a part of the design, not the proposal's name", () => {
    const m = model("docs/proposals/2024-upload-quota.md", PART_WITHOUT_ARGUMENTS);
    assert.notEqual(m.chosen?.name, "Example");
  });
});

const WISH_ONLY_PROPOSAL = `# TEP-0999: Shared build farm

## Summary

We want to offer a shared build farm to every team in the organisation, which they have asked for.

## Motivation

Teams run their own build machines and most of them sit idle at night.

## Proposal

Teams keep their machines for now. The details are left to a later proposal.

## Alternatives

Buy more machines for each team.
`;

describe("a sentence that opens with a wish", () => {
  test("wanting an action that is not a means states a goal", () => {
    assert.equal(statesAGoal("We want to offer a shared build farm to every team."), true);
    assert.equal(statesAGoal("We would like to add support for the new API in a backward-compatible way."), true);
  });

  test("wanting to use, adopt or switch to something names the means", () => {
    assert.equal(statesAGoal("We want to use the hosted queue for these jobs."), false);
    assert.equal(statesAGoal("We want to switch to the hosted queue."), false);
  });

  test("a wish inside a clause is not the record's own wish", () => {
    assert.equal(statesAGoal("The split should follow what we want to test in isolation."), false);
  });

  test("a proposal that only states a wish proposes nothing", () => {
    const m = model("teps/0999-shared-build-farm.md", WISH_ONLY_PROPOSAL);
    assert.equal(m.chosen, undefined);
  });
});

const AS_IS_RFC = `# RFC-0042 Notes on Cache Eviction

## Summary

This RFC describes in detail, for release 2.3 (May 2024), how the cache decides which entries to evict.

## Motivation

People keep asking why entries vanish; nothing written explains it.

## Eviction today

Entries older than a day are dropped first, then the largest ones.
`;

const DESCRIPTION_RFC = `# Summary

This is a detailed description of the internal storage layout of the indexer.

# Motivation

New contributors need a map of the code before they change it.

# Background

The layout grew over five years.
`;

describe("an RFC that documents how things work", () => {
  test("'This RFC describes in detail how X decides Y' proposes nothing, not its title", () => {
    const m = model("rfcs/0042-cache-eviction/README.md", AS_IS_RFC);
    assert.equal(m.chosen, undefined);
  });

  test("'This is a detailed description of the internal X' proposes nothing", () => {
    const m = model("text/0077-indexer-storage-layout.md", DESCRIPTION_RFC);
    assert.equal(m.chosen, undefined);
  });

  test("an RFC that describes how to build something still proposes it", () => {
    const m = model("rfcs/0043-cache-sharding/README.md", AS_IS_RFC.replace("Notes on Cache Eviction", "Cache Sharding").replace("describes in detail, for release 2.3 (May 2024), how the cache decides which entries to evict", "describes how to shard the cache by tenant"));
    assert.notEqual(m.chosen, undefined);
  });
});

const TWO_POSITIONS = `# Localised labels in the API

## Context and Problem Statement

Labels are stored in several languages; clients need the right one.

## Considered Options

### Sending every language to the client

The client picks the language it needs.

### Content negotiation by header

The server picks one language from the request.

### Copying the label into the main object

The label in the request's language sits next to the other fields.

## Decision Outcome

The first approach should be used in the back-office API, while the third one should be used in the storefront API. Each side gets what it needs.
`;

describe("options cited by position", () => {
  test("two positions, each committed to for its own part, are chosen together", () => {
    const m = model("adr/2024_01_10_localised_labels.md", TWO_POSITIONS);
    assert.equal(m.chosen?.name, "Sending every language to the client + Copying the label into the main object");
    assert.equal(m.chosen?.considered_index, 0);
    assert.deepEqual(m.chosen?.combined_with, [2]);
    assert.deepEqual(m.rejected.map((r) => r.name), ["Content negotiation by header"]);
  });

  test("positions compared, not committed to, choose nothing together", () => {
    const m = model("adr/2024_01_10_localised_labels.md", TWO_POSITIONS.replace("The first approach should be used in the back-office API, while the third one should be used in the storefront API.", "The first approach is simpler than the third one."));
    assert.equal(m.chosen?.combined_with, undefined);
  });
});

const COMBINATION = `- RFC Type: feature

# Summary

Make log redaction smarter, in the agents and on the server.

# Motivation

Secrets still reach storage now and then.

# Conclusion

A combination of options will be built:

1. The agents will send fields in a structured form where they can (Option B)
2. The server parses the structured fields and redacts them (Option C)
3. Where there is no structure the server falls back to better patterns (Option D+E)

# Options Considered

### Option A): Redact everything in the agents

- Agents cannot know every secret.

### Option B): Structured fields from the agents

- Agents know what each field holds.

### Option C): Server-side parsing

- One place to fix.

### Option D): Token replacement on the server

- Cheap.

### NEW! Option E): Better patterns

- Fewer misses.
`;

describe("a combination of options announced in the conclusion", () => {
  test("an editor's 'NEW!' before the label is dropped from the option's name", () => {
    assert.deepEqual(optionName("NEW! Option E): Better patterns"), { name: "Better patterns", ref: "E", decided: false });
  });

  test("every option the list cites by label is chosen, together, in the order cited", () => {
    const m = model("text/0099-smarter-redaction.md", COMBINATION);
    assert.equal(m.chosen?.name, "Structured fields from the agents + Server-side parsing + Token replacement on the server + Better patterns");
    assert.deepEqual(m.chosen?.combined_with, [2, 3, 4]);
    assert.deepEqual(m.rejected.map((r) => r.name), ["Redact everything in the agents"]);
  });

  test("without the announcement the first cited option alone is chosen", () => {
    const m = model("text/0099-smarter-redaction.md", COMBINATION.replace("A combination of options will be built:", "We will do the following:"));
    assert.equal(m.chosen?.combined_with, undefined);
  });
});

describe("a sentence that opens with a command", () => {
  test("'Install X along with the plugins that need it' is the command, verb and all", () => {
    const r = readDecisionSentence("Install `sharedDeps` along with the plugins that need them.");
    assert.equal(r.cue, "imperative");
    assert.equal(r.chosen, "Install sharedDeps along with the plugins that need them");
  });

  test("'Install X' alone is a command too", () => {
    assert.equal(readDecisionSentence("Install the agent on every host.").chosen, "Install the agent on every host");
  });
});

const ONE_DISOWNED = `- RFC Type: decision

# Summary

Make it cheaper to call the image library from the web app.

# Motivation

Every call goes through a slow wrapper today.

# Options Considered

## Ship one bundled extension module

One module exposes only what the web app calls.

- **pro**: One build to maintain.

## Keep a wrapper per library

This approach is listed for completeness; we do not recommend it.

- **con**: Many builds to maintain.
`;

describe("two options, one disowned by its own text", () => {
  test("the other option is the proposal", () => {
    const m = model("text/0120-image-calls.md", ONE_DISOWNED);
    assert.equal(m.chosen?.name, "Ship one bundled extension module");
    assert.equal(m.chosen?.considered_index, 0);
    assert.deepEqual(m.rejected.map((r) => r.name), ["Keep a wrapper per library"]);
  });

  test("with neither disowned, the options choose nothing by elimination", () => {
    const m = model("text/0120-image-calls.md", ONE_DISOWNED.replace("This approach is listed for completeness; we do not recommend it.", "Each library keeps its own wrapper."));
    assert.notEqual(m.chosen?.name, "Ship one bundled extension module");
  });
});

const NAMING = `# ADR007: Names of the two apps

## Status

Accepted

## Context

The browser app and the server app go by several names in our tools.

## Decision

For clarity, we will refer to our browser-based, customer-facing app as _Portal_ (the web front end) and to our server-side app as _Gateway_ (the HTTP layer).

## Consequences

Every tool uses the two names.
`;

describe("a naming decision", () => {
  test("'refer to X as Y and to Z as W' settles the names", () => {
    assert.equal(readDecisionSentence("We will refer to the nightly build as Canary.").chosen, "Canary");
    const m = model("docs/adr/adr007-app-names.md", NAMING);
    assert.equal(m.chosen?.name, "Portal and Gateway");
  });

  test("a sentence that names nothing with 'as' keeps its reading", () => {
    assert.equal(readDecisionSentence("We will refer to the style guide for every new screen.").chosen, "refer to the style guide");
  });
});
