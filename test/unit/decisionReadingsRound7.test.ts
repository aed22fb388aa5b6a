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

  test("a Markdown list of bold parts under the decision ('1. **Alerts** - …') lists what was chosen, not rivals", () => {
    const m = model("docs/adr/0040-keep-auto-accept.md", "# 40. Keep auto-accept\n\n## Status\n\nAccepted\n\n## Decision\n\nWe will keep auto-accept on and add compensating controls:\n\n1. **Alerts in the member accounts** - watch for new attachments\n2. **Alerts in the network account** - watch for accepted attachments\n\n## Consequences\n\nMore alarms to triage.\n");
    assert.deepEqual(names(m), []);
    assert.deepEqual(m.rejected, []);
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
    // "the preferred way to X" says what "it" (named before) is; it is no extraposed "it is better to X".
    assert.equal(readDecisionSentence("Using Mockhub is henceforth allowed, and it is the preferred way to test against outside services.").chosen, undefined);
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

const POINTER = `# ADR 31: Quorum gossip

## Status

Accepted

## Context

Every vote reaches each node many times over.

## Decision

Implement the protocol on top of the existing vote broadcast.

## Consequences

Fewer duplicate votes on the wire.
`;

describe("decision model, round 7: a decision that points at the record's own design", () => {
  test('"implement the protocol" names the choice by the title', () => {
    const m = model("docs/adr/adr-031-quorum-gossip.md", POINTER);
    assert.equal(m.chosen?.name, "Quorum gossip");
  });

  test('"in the next section" points at the design the title names', () => {
    const m = model("docs/adr/adr-031-quorum-gossip.md", POINTER.replace("Implement the protocol on top of the existing vote broadcast.", "Implement a first version following the design in the next section."));
    assert.equal(m.chosen?.name, "Quorum gossip");
  });

  test("a decision that names its own choice keeps it", () => {
    const m = model("docs/adr/adr-031-quorum-gossip.md", POINTER.replace("Implement the protocol on top of the existing vote broadcast.", "Implement the relay cache on top of the existing vote broadcast."));
    assert.equal(m.chosen?.name, "Implement the relay cache on top of the existing vote broadcast");
  });
});

const COMPOSITE = `# Spell checking engine

## Considered Options

* Hunspell bindings, LGPL
* LanguageTool server, LGPL
* Aspell subprocess, LGPL

## Decision Outcome

Chosen option: A layered set of checkers, by availability.

1. **Hunspell bindings** (primary). In-process and fast.
2. **LanguageTool server** (optional). Grammar as well as spelling, when a server is configured.

Aspell is not selected because it needs a subprocess on every platform.
`;

describe("decision model, round 7: a chosen option made of listed options", () => {
  test("the choice keeps the record's words and is made of the options listed under it, the first leading", () => {
    const m = model("docs/decisions/0042-spell-checking.md", COMPOSITE);
    assert.equal(m.chosen?.name, "A layered set of checkers");
    assert.equal(m.chosen?.considered_index, 0);
    assert.deepEqual(m.chosen?.combined_with, [1]);
    assert.deepEqual(m.rejected.map((r) => r.name), ["Aspell subprocess, LGPL"]);
  });

  test("a list that names no considered option leaves the composite choice alone", () => {
    const m = model("docs/decisions/0042-spell-checking.md", COMPOSITE.replace("**Hunspell bindings**", "**Dictionaries**").replace("**LanguageTool server**", "**Grammar rules**"));
    assert.equal(m.chosen?.name, "A layered set of checkers");
    assert.equal(m.chosen?.considered_index, undefined);
  });
});

describe("decision model, round 7: lists a decision points at", () => {
  const record = (decision: string) => `# 10. Code style\n\n## Status\n\nAccepted\n\n## Context\n\nReviews argue about formatting.\n\n## Decision\n\n${decision}\n\n## Consequences\n\nReviews are shorter.\n`;

  test('"Three tools are used to enforce this:" chooses the tools listed after it', () => {
    const m = model("doc/adr/0010-code-style.md", record("Three tools are used to enforce this:\n\n1. [Lintwise](https://example.test/lintwise): for script rules\n2. [Sheetcheck](https://example.test/sheetcheck): for stylesheet rules\n3. [Tidyfmt](https://example.test/tidyfmt): formats on save"));
    assert.equal(m.chosen?.name, "Three tools: Lintwise, Sheetcheck, Tidyfmt");
  });

  test("a third-person sentence introducing a list describes what exists and chooses nothing", () => {
    const m = model("doc/adr/0010-code-style.md", record("The framework itself provides two mechanisms:\n\n- local state\n- shared context"));
    assert.equal(m.chosen, undefined);
  });

  test("numbered bold reasons after 'for a number of reasons' are no candidates", () => {
    const m = model("doc/adr/0010-code-style.md", record("We have therefore settled upon Chartkit, for a number of reasons:\n\n**1) It is a well-established library**\n\nIt has been around for years.\n\n**2) Modular structure**\n\nOnly the parts we use are loaded."));
    assert.deepEqual(names(m), []);
    assert.equal(m.chosen?.name, "Chartkit");
  });
});

describe("prose readings, round 7", () => {
  test('"Prefer X over Y" turns Y down; a preference that only may be made turns nothing down', () => {
    assert.deepEqual(readDecisionSentence("Prefer Lintwise over hand-written shell checks in tests").rejected, ["hand-written shell checks in tests"]);
    assert.deepEqual(readDecisionSentence("The cloud offers slimmer images that we may choose to use over the stock images.").rejected, []);
  });

  test('"it\'s simpler for the time being to remove X" commits to a change, not to keeping things as they are', () => {
    const r = readDecisionSentence("Its simpler for the time being to remove the job scheduler, so writes are visible at once.");
    assert.equal(r.chosen, "remove the job scheduler");
    assert.equal(r.continuity, undefined);
    assert.equal(readDecisionSentence("We will keep the job scheduler for now.").continuity, true);
  });

  test("a comma between two adjectives of one noun phrase, and a dangling 'that will:', end nothing", () => {
    assert.equal(readDecisionSentence("We will build a lean, repeatable load-test harness in the nightly workflow.").chosen, "build a lean repeatable load-test harness in the nightly workflow");
    assert.equal(readDecisionSentence("We will add a `Coordinator` class to the library that will:").chosen, "add a Coordinator class to the library");
    assert.equal(readDecisionSentence("We will use a queue, and the workers poll it.").chosen, "queue");
  });

  test('"the decision I\'ve made is to X" and "we have implemented X" state the choice', () => {
    assert.equal(readDecisionSentence("The decision I've made is to bake the test suite into the image.").chosen, "bake the test suite into the image");
    assert.equal(readDecisionSentence("We've implemented a message-bus package which routes each command to its handler.").chosen, "message-bus package");
    assert.equal(readDecisionSentence("We have been using the old runner for years.").chosen, undefined);
  });
});

describe("decision model, round 7: a record that names itself", () => {
  test('"To implement ADR-31 instead of ADR-30", in ADR 31, chooses what its title names and turns ADR-30 down', () => {
    const m = model("docs/adr/adr-031-quorum-gossip.md", POINTER.replace("Implement the protocol on top of the existing vote broadcast.", "To implement ADR-31 instead of ADR-30."));
    assert.equal(m.chosen?.name, "Quorum gossip");
    assert.ok(m.rejected.some((r) => r.name === "ADR-30"), m.rejected.map((r) => r.name).join(", "));
  });

  test("a bare infinitive that is no decision stays unread", () => {
    assert.equal(readDecisionSentence("To be clear, nothing changes for existing users.").chosen, undefined);
  });
});
