// Readings of the decision model for record shapes beyond the MADR and Nygard basics (issue 21): a "Chosen option:"
// line that opens with a lead-in, options cited by letter, number or position, options listed only in prose or as
// labelled headings under any heading, a decision heading that states the option, a decision section that points to
// the detailed design, a status that takes feedback without accepting, and phrases that are only fragments of a
// sentence (read as no choice). Every record here is written for these tests.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { normaliseStatus, parseAdr } from "../../src/core/internal/adr";
import { DecisionRecordSchema, decisionModelOf, readDecisionSentence, type DecisionRecord } from "../../src/core/decisions";
import { isFragment } from "../../src/core/decisions/fragments";

function model(path: string, text: string): DecisionRecord {
  const m = decisionModelOf(parseAdr(path, text));
  DecisionRecordSchema.parse(m);
  return m;
}
const names = (m: DecisionRecord) => m.considered.map((o) => o.name);

describe("a 'Chosen option:' line that opens with a lead-in", () => {
  const record = (outcome: string) => `# Where build artefacts live

* Status: accepted

## Considered Options

* Keep artefacts on the build host
* Push artefacts to an object store
* Publish artefacts to a package registry

## Decision Outcome

Chosen option: ${outcome}
`;

  test("the option is the considered one the sentence after the lead-in names", () => {
    const m = model("docs/adr/0003-artefacts.md", record("After weighing all three, we agreed to push artefacts to an object store, since hosts get recycled."));
    assert.equal(m.chosen?.name, "Push artefacts to an object store");
    assert.equal(m.chosen?.considered_index, 1);
  });

  test("a lead-in followed by no commitment names no option (not the lead-in itself)", () => {
    const m = model("docs/adr/0003-artefacts.md", record("After a long discussion, nothing was settled."));
    assert.equal(m.chosen, undefined);
  });

  test("a plain 'Chosen option:' line is read as before", () => {
    const m = model("docs/adr/0003-artefacts.md", record('"Publish artefacts to a package registry", because consumers already pull from it.'));
    assert.equal(m.chosen?.name, "Publish artefacts to a package registry");
  });
});

describe("options referred to by label or position", () => {
  test("'## Option A: …' headings under any parent are the considered options; 'Option B' in the decision resolves to one", () => {
    const m = model(
      "docs/arch/rfc-007-wire-format.md",
      `# RFC 7: Wire format of event ids

## Status

Accepted

## Context

Event ids are written in two ways today.

## Option A: Keep variable-length ids

Pros

- Small

## Option B: Use fixed 8-byte ids

Pros

- Simple parsers

## Option C: Prefix each id with its length

Cons

- Two code paths remain

## Decision

Option B
`,
    );
    assert.deepEqual(names(m), ["Keep variable-length ids", "Use fixed 8-byte ids", "Prefix each id with its length"]);
    assert.deepEqual(m.considered.map((o) => o.ref), ["A", "B", "C"]);
    assert.equal(m.chosen?.name, "Use fixed 8-byte ids");
    assert.equal(m.chosen?.how, "outcome-names-option");
  });

  test("'Option 1B' resolves to the option labelled 1B", () => {
    const m = model(
      "docs/adrs/0030-tokens.md",
      `# Token lifetime

* Status: accepted

## Considered Options

* Option 1A: One-hour tokens, no refresh
* Option 1B: One-hour tokens with refresh tokens
* Option 2: Day-long tokens

## Decision Outcome

We go with Option 1B, since it keeps sessions short without logging people out.
`,
    );
    assert.equal(m.chosen?.name, "One-hour tokens with refresh tokens");
    assert.equal(m.chosen?.considered_index, 1);
  });

  test("'## Proposed Decision: Option 2' states the decision in its heading; 'accepting feedback' is still proposed", () => {
    const m = model(
      "docs/adrs/0021-report-versions.md",
      `# Versioning of shared reports

* Status: Proposed decision; accepting feedback
* Date: 2025-03-01

## Context

Reports are referenced by name from dashboards.

## Proposed Decision: Option 2

It keeps old dashboards working and matches how other definitions are versioned.

## Considered Options

1. Edit the report in place
2. Publish the new report under a new name
3. Rename the old report and reuse its name
`,
    );
    assert.equal(m.status, "proposed");
    assert.equal(m.chosen?.name, "Publish the new report under a new name");
    assert.equal(m.chosen?.considered_index, 1);
  });

  test("'The second approach … was chosen' after a numbered list that a sentence announced", () => {
    const m = model(
      "docs/decisions/0008-rollout.md",
      `# 8. Rollout of the new cluster

## Status

Accepted

## Context

Two approaches were weighed for moving the services. This record says what they were.

1) Move the services one group at a time - eg. read-only services first - while both clusters run.

2) Build the whole cluster, copy all data and cut over in one maintenance window.

## Decision

The second approach - one cutover - was chosen because:

a) Nothing runs in two places at once.
`,
    );
    assert.equal(m.considered.length, 2);
    assert.equal(m.chosen?.considered_index, 1);
    assert.match(m.chosen?.name ?? "", /^Build the whole cluster/);
  });

  test("a list of options inside the decision: the turned-down ones are rejected, 'the final option … we picked' is chosen", () => {
    const m = model(
      "docs/decisions/0011-search-index.md",
      `# 11. Search index hosting

## Status

Accepted

## Decision

We discussed three options:

 1. run one index per tenant
 2. embed the index in the application database
 3. share one managed index cluster between tenants

The first option isolates tenants best, but we decided against it because of its cost.

Option 2 was discounted as the database team does not want the extra load.

The final option, and the one we picked, is to run a single managed cluster with one index per tenant inside it.
`,
    );
    assert.deepEqual(names(m), ["run one index per tenant", "embed the index in the application database", "share one managed index cluster between tenants"]);
    assert.equal(m.chosen?.considered_index, 2);
    assert.deepEqual(m.rejected.map((r) => r.name).sort(), ["embed the index in the application database", "run one index per tenant"]);
  });

  test("sub-sections whose openings introduce options in turn ('One solution is …', 'The second suggestion is …')", () => {
    const m = model(
      "docs/architecture/adr-030-upload-limit.md",
      `# ADR 030: Limit on upload size

## Status

Implemented

## Context

Uploads are limited by two settings today.

### Lower the proxy limit

One solution is to lower the limit on the proxy in front of the service.

### Add an upload quota setting

The second suggestion is to add a quota setting that operators can change at run time.

### Derive the limit from the plan

The third suggested solution is to derive the limit from each customer's plan.

## Decision

Option 2: Add an upload quota setting. After it ships, the settings table will look like:
`,
    );
    assert.deepEqual(names(m), ["Lower the proxy limit", "Add an upload quota setting", "Derive the limit from the plan"]);
    assert.equal(m.chosen?.name, "Add an upload quota setting");
  });
});

describe("options listed only in prose", () => {
  test("an enumeration after an announcing colon; a one-word option keeps the sentence's fuller name", () => {
    const m = model(
      "docs/architecture/decisions/0009-flags.md",
      `# 9. Feature flag declarations

## Status

Accepted

## Context

There are two ways to declare feature flags: embedded and standalone. Embedded flags sit next to the code they guard.

## Decision

Feature flags will be declared standalone in their own module.
`,
    );
    assert.deepEqual(names(m), ["embedded", "standalone"]);
    assert.equal(m.chosen?.considered_index, 1);
    assert.equal(m.chosen?.name, "Feature flags will be declared standalone in their own module");
  });

  test("'… whether we use X, or use Y' gives both options", () => {
    const m = model(
      "docs/architecture/decisions/0004-runners.md",
      `# 4. CI runners

## Status

Pending

## Context

We need to decide whether we use a hosted runner service, or use self-managed runners.

## Decision

Use self-managed runners to keep builds inside our network.
`,
    );
    assert.deepEqual(names(m), ["hosted runner service", "self-managed runners"]);
    assert.equal(m.chosen?.name, "self-managed runners");
  });

  test("'We considered A, B and C' names the options; the decision picks one of them", () => {
    const m = model(
      "docs/architecture/decisions/0016-session-store.md",
      `# 16. Session store

## Status

Accepted

## Context

Sessions live in process memory and are lost on deploy. We considered Valkey, Hazelcast and a sessions table in Postgres before settling.

## Decision

We will keep sessions in Valkey.
`,
    );
    assert.deepEqual(names(m), ["Valkey", "Hazelcast", "sessions table in Postgres"]);
    assert.equal(m.chosen?.considered_index, 0);
  });

  test("a list after an announcing sentence elsewhere in the record", () => {
    const m = model(
      "docs/architecture/decisions/0015-cert-rotation.md",
      `# 15. Certificate rotation

## Status

Accepted

## Context

Several ways to rotate certificates on long-lived hosts were considered:

* Rotating by hand on each host
* Running a sidecar that renews and reloads
* Rebuilding hosts from a fresh image

## Decision

To rotate certificates we will run a sidecar that renews and reloads them.
`,
    );
    assert.equal(m.considered.length, 3);
    assert.equal(m.chosen?.considered_index, 1);
  });
});

describe("what the decision names and what it only mentions", () => {
  test("'partly X' is not the option 'Fully X'; an option's name stops at its first sentence", () => {
    const m = model(
      "docs/architecture/adr-120-exports.md",
      `# ADR 120: Revisit the hidden packages

## Status

Accepted

## Alternative Approaches

1. Do nothing. Users keep forking to reach the hidden packages.
2. Fully revert the hiding. This brings back every old package
    and the upkeep that comes with it.

## Decision

We will partly revert the hiding, by exposing again the packages that users import most.
`,
    );
    // The proposal itself joins the alternatives it was weighed against, first.
    assert.deepEqual(names(m).slice(1), ["Do nothing", "Fully revert the hiding"]);
    assert.notEqual(m.chosen?.name, "Fully revert the hiding");
    assert.match(m.chosen?.name ?? "", /^partly revert the hiding/);
    assert.equal(m.chosen?.considered_index, 0);
  });

  test("what a choice is built on top of is not the choice", () => {
    const m = model(
      "docs/architecture/adr-121-push.md",
      `# ADR 121: Push channel

## Status

Accepted

## Alternative Approaches

### Polling

Clients ask every minute.

### Long-lived sockets

Clients hold a socket open.

## Decision

The team has decided to build the push channel on top of the existing polling loop (\`poll\`), but make it optional.
`,
    );
    assert.notEqual(m.chosen?.name, "Polling");
    assert.match(m.chosen?.name ?? "", /push channel/);
  });

  test("a decision that points to the detailed design is read there; '(see the last alternative)' chooses nothing", () => {
    const m = model(
      "docs/architecture/adr-122-lanes.md",
      `# ADR 122: Queue lanes

## Status

Accepted

## Alternative Approaches

1. Keep one shared queue. Simple, but slow jobs block fast ones.
2. Give every tenant its own worker pool.

## Decision

Implement as described in the [detailed design](#detailed-design) section.

## Detailed Design

Part of this was already possible (see the last alternative in Alternative Approaches). The aim is a simpler setup.
We propose a new scheduler, called \`lanes\`, that runs each queue apart.
`,
    );
    assert.equal(m.chosen?.name, "lanes");
  });

  test("'I propose that we switch to X' under a 'Proposed Changes' heading", () => {
    const m = model(
      "docs/adrs/rfc-checks.md",
      `# RFC: Fewer checks per pull request

# Overview

Every pull request runs the whole suite.

# Proposed Changes

I propose that we switch to a [change-triggered test plan](https://example.invalid/plan). It runs the slow suites only when their inputs change.
`,
    );
    assert.match(m.chosen?.name ?? "", /change-triggered test plan/);
  });

  test("a rejected record's proposal section is not what it chose", () => {
    const m = model(
      "docs/architecture/adr-040-second-index.md",
      `# ADR 040: A second index on orders

## Context

Lookups by customer are slow.

## Proposed solution

We will add a second index on the orders table keyed by customer.

## Status

Rejected

## Decision

The write cost is considered too high.
`,
    );
    assert.equal(m.status, "rejected");
    assert.equal(m.chosen, undefined);
  });
});

describe("options chosen together or for another part of the problem", () => {
  const record = (outcome: string) => `# 0040 - Seed data for tests

- **Status**: accepted

## Considered Options

- Hand-written fixtures:
  - Fixtures written by hand for each case, which gives full control over the data but is slow to keep up to date as the models grow and change over time.
- Faker:
  - A package that generates random but realistic records with many settings, widely used, open source and easy to seed for repeatable runs in CI.
- Snapshot of production:
  - A scrubbed copy of production data loaded before the suite runs, which is realistic but large, slow to load and hard to keep free of personal data.

## Decision Outcome

${outcome}
`;

  test("the top-level items of a list whose items only label their descriptions are the options", () => {
    const m = model("docs/adr/0040-seed-data.md", record("We will use Faker."));
    assert.deepEqual(names(m), ["Hand-written fixtures", "Faker", "Snapshot of production"]);
    assert.equal(m.chosen?.name, "Faker");
  });

  test("'leverage both X and Y' chooses both; neither is rejected", () => {
    const m = model("docs/adr/0040-seed-data.md", record("After some thought, the decision was made to leverage both hand-written fixtures and Faker. Each fits different tests."));
    assert.equal(m.chosen?.considered_index, 0);
    assert.deepEqual(m.chosen?.combined_with, [1]);
    assert.deepEqual(m.rejected.map((r) => r.name), ["Snapshot of production"]);
  });

  test("an option the decision adopts for another part of the problem is not rejected; 'the decision is to use X'", () => {
    const m = model(
      "docs/adr/0040-seed-data.md",
      record("The decision was made to write a custom loader for the integration suites. For the unit tests, the decision is to use Faker."),
    );
    assert.match(m.chosen?.name ?? "", /custom loader/);
    assert.ok(!m.rejected.some((r) => r.name === "Faker"), JSON.stringify(m.rejected));
    assert.ok(m.rejected.some((r) => r.name === "Hand-written fixtures"));
  });

  test("a long listed option keeps what comes before its description", () => {
    const m = model(
      "docs/adr/0041-hooks.md",
      `# 41) Testable hooks

## Status

accepted

## Context

Two initial solutions were considered:

- Turn the hook class into a singleton of its own, so that a mock of the service container can be injected in tests instead of the real one.
- Copy the override pattern used in the client extension which lets tests swap the store for a fake one.

## Decision

It was decided to give each hook handler its own small class with a factory method.
`,
    );
    assert.deepEqual(names(m), ["Turn the hook class into a singleton of its own", "Copy the override pattern used in the client extension"]);
  });
});

describe("decisions written as lists and tables", () => {
  test("a choice that points forward to a table is spelled out from its rows", () => {
    const m = model(
      "docs/architecture/decisions/0020-ports.md",
      `# 20. Service ports

## Status

Accepted

## Decision

The services will be given the following ports:

|Service|Port|
|-------|----|
|gateway|8443|
|billing|9100|
|search|9200|
|audit|9300|

## Consequences

Firewall rules change.
`,
    );
    assert.equal(m.chosen?.name, "Ports: gateway 8443, billing 9100, search 9200, …");
  });

  test("a decision section that opens with a list states its main choice in the first item", () => {
    const m = model(
      "docs/architecture/decisions/0021-network.md",
      `# 21. Network layout

## Status

Accepted

## Decision

 * One private network per region (today two regions)
 * Two public subnets per network

Each subnet is a /24.
`,
    );
    assert.equal(m.chosen?.name, "One private network per region");
  });

  test("an alternatives section that weighs one alternative in prose; a list item wrapped onto a second line stays one option", () => {
    const prose = model(
      "docs/architecture/adr-130-api.md",
      `# ADR 130: Binary API

## Status

Accepted

## Alternative Approaches

The main alternative approach is to keep only the text API and extend it over time. It is hard to write clients for.

## Decision

Implement a binary API next to the text API.
`,
    );
    assert.ok(prose.considered.some((o) => /keep only the text API/.test(o.name)), JSON.stringify(prose.considered));

    const wrapped = model(
      "docs/architecture/adr-131-queues.md",
      `# ADR 131: Queue ownership

## Status

Accepted

## Alternative Approaches

1. Keep the shared queue for every service
2. Let each service run its own queue and talk to the
   broker through a thin client library

## Decision

We will keep the shared queue for every service.
`,
    );
    assert.equal(wrapped.considered[1]?.name, "Let each service run its own queue and talk to the broker through a thin client library");
  });
});

describe("fragments read as no choice", () => {
  test("isFragment: generic verbs and nouns, dangling words and pointers name nothing", () => {
    for (const piece of ["find a way", "look like", "this position change", "be done", "implement that method", "the above"]) assert.equal(isFragment(piece), true, piece);
    for (const name of ["Redis", "a lambda function to achieve this", "nop mempool", "switch to a change-triggered test plan", "one index per tenant"]) assert.equal(isFragment(name), false, name);
  });

  test("a decision that only says it will find a way has no chosen option", () => {
    const m = model(
      "docs/decisions/0012-cache.md",
      `# 12. Result cache

## Status

Proposed

## Decision

We should find a way to cache results before the next release.
`,
    );
    assert.equal(m.chosen, undefined);
    assert.ok(m.not_understood.includes("the decision section names no option"));
  });
});

describe("sentence readings", () => {
  test("'will be defined' commits when a complement follows and defers when none or a deferral does", () => {
    assert.equal(readDecisionSentence("Routes will be defined alongside their handlers.").chosen, "Routes will be defined alongside their handlers");
    assert.equal(readDecisionSentence("The schema will be defined later.").chosen, undefined);
    assert.equal(readDecisionSentence("The schema will be defined in a follow-up record.").chosen, undefined);
  });

  test("first-person proposals and names given with 'called'", () => {
    assert.equal(readDecisionSentence("We propose to adopt Valkey for sessions.").chosen, "Valkey");
    assert.equal(readDecisionSentence("We propose a new store, called `ledger`, that keeps every change.").chosen, "ledger");
    assert.equal(readDecisionSentence("I propose that we move to weekly releases.").chosen, "move to weekly releases");
  });

  test("a status that takes feedback is not accepted", () => {
    assert.equal(normaliseStatus("Decision proposed; accepting feedback"), "proposed");
    assert.equal(normaliseStatus("Draft, accepting comments until May"), "proposed");
    assert.equal(normaliseStatus("Accepted"), "accepted");
  });
});
