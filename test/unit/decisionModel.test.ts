// The decision model of a record (issue 21): status, considered / chosen / rejected options with reasons and
// lines, drivers, consequences and supersession, read from MADR (with and without "Chosen option:"), Nygard prose,
// alternatives sections under their many names, status tables, folders and front matter; bad input is read as far
// as it goes and the model says what it did not understand. Fixtures are written for these tests.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { parseAdr } from "../../src/core/internal/adr";
import { DecisionRecordSchema, decisionModelOf, MAX_OPTIONS_IN_USE, readDecisionSentence, sentencesIn, type DecisionRecord } from "../../src/core/decisions";

function model(path: string, text: string): DecisionRecord {
  const m = decisionModelOf(parseAdr(path, text));
  // Every model is valid against its own schema.
  DecisionRecordSchema.parse(m);
  return m;
}
const lineOf = (text: string, needle: string) => text.split("\n").findIndex((l) => l.includes(needle)) + 1;

describe("MADR", () => {
  const madr = `# Pick a message broker

* Status: accepted
* Date: 2024-05-02

## Context and Problem Statement

Services talk over HTTP today. Which broker should carry our domain events?

## Decision Drivers

* Operable by a two-person team
* At-least-once delivery

## Considered Options

* [NATS JetStream](https://nats.io) – light and fast
* Apache Kafka
* RabbitMQ

## Decision Outcome

Chosen option: "NATS JetStream", because it is the only one we can run ourselves.

### Consequences

* Good, because one small binary.

## Pros and Cons of the Options

### NATS JetStream

* Good, because small

### Apache Kafka

* Good, because huge ecosystem
* Bad, because it needs a cluster we cannot staff

### RabbitMQ

* Bad, because its streams are young
`;

  test("with a Chosen option line: considered, chosen, rejected with the con as reason, drivers, subject", () => {
    const m = model("docs/decisions/0003-pick-a-message-broker.md", madr);
    assert.deepEqual(m.considered.map((o) => o.name), ["NATS JetStream", "Apache Kafka", "RabbitMQ"]);
    assert.equal(m.chosen?.name, "NATS JetStream");
    assert.equal(m.chosen?.how, "chosen-option-line");
    assert.equal(m.chosen?.considered_index, 0);
    assert.deepEqual(m.chosen?.range, { start: lineOf(madr, "Chosen option"), end: lineOf(madr, "Chosen option") });
    assert.deepEqual(m.rejected.map((r) => [r.name, r.reason]), [
      ["Apache Kafka", "Bad, because it needs a cluster we cannot staff"],
      ["RabbitMQ", "Bad, because its streams are young"],
    ]);
    assert.deepEqual(m.rejected[1].range, { start: lineOf(madr, "* RabbitMQ"), end: lineOf(madr, "* RabbitMQ") });
    assert.equal(m.status, "accepted");
    assert.equal(m.status_display, "accepted");
    assert.equal(m.date, "2024-05-02");
    assert.deepEqual(m.drivers.map((d) => d.text), ["Operable by a two-person team", "At-least-once delivery"]);
    assert.equal(m.subject, "Which broker should carry our domain events?");
    assert.ok(m.consequences.length >= 1);
    assert.deepEqual(m.options, ["NATS JetStream", "Apache Kafka", "RabbitMQ"]);
  });

  test("without a Chosen option line: the outcome refers to an option by its label; a rejected one keeps its reason", () => {
    const text = `# Nightly build host

## Considered Options

* **(A) Keep the office server**
* **(B) Hosted CI runners**

## Decision Outcome

We are going ahead with option **(B) Hosted CI runners** from next month.

The **(A) Keep the office server** option was rejected because nobody patches it.
`;
    const m = model("adr/0009-nightly-build-host.md", text);
    assert.deepEqual(m.considered.map((o) => [o.ref, o.name]), [["A", "Keep the office server"], ["B", "Hosted CI runners"]]);
    assert.equal(m.chosen?.name, "Hosted CI runners");
    assert.equal(m.chosen?.how, "outcome-names-option");
    assert.equal(m.rejected.length, 1);
    assert.equal(m.rejected[0].name, "Keep the office server");
    assert.match(m.rejected[0].reason ?? "", /nobody patches it/);
    assert.equal(m.rejected[0].range.start, lineOf(text, "was rejected"));
    // No status line at all: said so in words, never "unknown".
    assert.equal(m.status, "unknown");
    assert.equal(m.status_display, "no status line");
    assert.equal(m.status_source, "none");
  });

  test("options grouped under sub-headings and an option heading marked (Decided)", () => {
    const text = `# Search

## Considered Options

### Where the search runs

- In the browser with a local index
- On a search server

### What gets indexed

- Everything in the store
- Only what the user opens

## Decision Outcome

Details below.

## Pros and Cons of the Options

### On a search server (Decided)

* Good, because fast
`;
    const m = model("docs/decisions/0008-search.md", text);
    assert.deepEqual(m.considered.map((o) => o.name), ["In the browser with a local index", "On a search server", "Everything in the store", "Only what the user opens"]);
    assert.equal(m.chosen?.name, "On a search server");
    assert.equal(m.chosen?.how, "decided-marker");
  });
});

describe("Nygard decision prose", () => {
  test("'We will use X rather than Y': X chosen, Y rejected with the sentence as reason and its line", () => {
    const text = `# 4. Store sessions

Date: 2023-02-01

## Status

Accepted

## Context

Sessions live in memory and vanish on deploy.

## Decision

We will use Redis for sessions rather than sticky load balancing.
We will not use the database for this, because it is already the bottleneck.

## Consequences

One more service to run.
`;
    const m = model("doc/adr/0004-store-sessions.md", text);
    assert.equal(m.chosen?.name, "Redis");
    assert.equal(m.chosen?.how, "decision-prose");
    assert.deepEqual(m.chosen?.range, { start: lineOf(text, "We will use Redis"), end: lineOf(text, "We will not use") });
    const names = m.rejected.map((r) => r.name);
    assert.ok(names.includes("sticky load balancing"), names.join(" | "));
    assert.ok(names.includes("database"), names.join(" | "));
    assert.match(m.rejected.find((r) => r.name === "database")?.reason ?? "", /already the bottleneck/);
    assert.equal(m.status, "accepted");
    assert.equal(m.number, 4);
  });

  test("each phrasing: imperative, it was decided, passive, decided against, instead of, this RFC proposes, we use", () => {
    const read = (s: string) => readDecisionSentence(s);
    assert.equal(read("Use [managed node groups](https://example.org/mng).").chosen, "managed node groups");
    assert.equal(read("Introduce Pollen CSS and style new components with it.").chosen, "Introduce Pollen CSS and style new components with it");
    assert.equal(read("As part of the rewrite, it was decided that the scheduler moves to Quartz.").chosen, "scheduler moves to Quartz");
    assert.equal(read("A shared `Clock` is used across all modules.").chosen, "shared Clock");
    assert.deepEqual(read("We decided against GraphQL for the public API.").rejected, ["GraphQL"]);
    const instead = read("Instead of polling the API, we will subscribe to its webhooks.");
    assert.equal(instead.chosen, "subscribe to its webhooks");
    assert.deepEqual(instead.rejected, ["polling the API"]);
    assert.equal(read("This RFC proposes a plugin API for transforms.").chosen, "plugin API");
    assert.equal(read("We use Prettier as is.").chosen, "Prettier");
    assert.equal(read("Our backend, for now, will use Scala, with Akka HTTP as the framework.").chosen, "Scala with Akka HTTP");
    // Not a commitment: context, a need, a question.
    assert.equal(read("Services talk over HTTP today.").chosen, undefined);
    assert.equal(read("We need a way to record decisions.").chosen, undefined);
  });

  test("a title that is a choice sums up a decision section that only elaborates", () => {
    const text = `# Use React hooks

## Decision

- Prefer components without state where possible
- Prefer the official hooks to custom ones
`;
    assert.equal(model("docs/architecture/018-react-hooks.md", text).chosen?.name, "React hooks");
  });
});

describe("alternatives sections under their many names", () => {
  for (const heading of ["Alternatives considered", "Road not taken", "Option graveyard", "Considered Actions", "Alternatives"]) {
    test(`"${heading}": listed options are considered and rejected; the proposal is one of the considered`, () => {
      const text = `# Emit many events from one

## Proposal

We will let the transform emit one event per array element.

## ${heading}

### An explode transform

A separate transform would duplicate the mapping language.

### An emit function

1. Hard to test.
2. Breaks idempotency.
`;
      const m = model("rfcs/2021-04-07-emit-many.md", text);
      assert.deepEqual(m.considered.map((o) => o.name), ["let the transform emit one event per array element", "An explode transform", "An emit function"]);
      assert.deepEqual(m.considered.map((o) => o.source), ["proposal", "alternatives", "alternatives"]);
      assert.equal(m.chosen?.considered_index, 0);
      assert.deepEqual(m.rejected.map((r) => r.name), ["An explode transform", "An emit function"]);
      assert.deepEqual(m.rejected[0].range, { start: lineOf(text, "### An explode"), end: lineOf(text, "### An emit") - 2 });
    });
  }

  test("numbered options with prose between them ('Considered Actions'), the decision naming one", () => {
    const text = `# 22) Create a shared ID interface {#adr_0022}

## Status

accepted

## Considered Actions

We identified the following options:

1. Make the remote ID extend the local ID.

That would be conceptually wrong.

2. Loosen every type hint to the common parent type.

3. Create a shared ID interface.

## Decision

Create a shared ID interface.
`;
    const m = model("docs/adr/0022-create-a-shared-id-interface.md", text);
    assert.deepEqual(m.considered.map((o) => o.name), ["Make the remote ID extend the local ID", "Loosen every type hint to the common parent type", "Create a shared ID interface"]);
    assert.equal(m.chosen?.name, "Create a shared ID interface");
    assert.equal(m.chosen?.considered_index, 2);
    assert.equal(m.rejected.length, 2);
  });
});

describe("status", () => {
  test("a superseded record shows its successor; a folder and front matter carry status", () => {
    const superseded = model(
      "docs/adr/0003-queue.md",
      "# 3. Queue\n\n## Status\n\nSuperseded by [7. New queue](0007-new-queue.md)\n\n## Decision\n\nWe will use a table as a queue.\n",
    );
    assert.equal(superseded.status, "superseded");
    assert.equal(superseded.status_display, "superseded by 0007-new-queue.md");
    assert.deepEqual(superseded.superseded_by, ["docs/adr/0007-new-queue.md"]);

    const byFolder = model("docs/adr/_superseded/0002-cron.md", "# 2. Cron\n\n## Decision\n\nWe will use cron.\n");
    assert.equal(byFolder.status, "superseded");
    assert.equal(byFolder.status_source, "folder");

    const fm = model("docs/decisions/0010-x.md", "---\nstatus: proposed\n---\n# Ten\n\n## Decision\n\nWe will use X.\n");
    assert.equal(fm.status, "proposed");
    assert.equal(fm.status_source, "front-matter");
  });

  test("a metadata table carries the status when no status line does", () => {
    const text = "# Object stores\n\n|Metadata|Value|\n|--------|-----|\n|Date    |2021-11-03|\n|Status  |Implemented|\n\n## Context\n\nText.\n";
    const m = model("adr/ADR-20.md", text);
    assert.equal(m.status, "accepted");
    assert.equal(m.status_source, "table");
    const header = "# Conventions\n\n| Date | People | Status |\n|------|--------|--------|\n| 18.09.2025 | workshop | decided |\n\nText.\n";
    assert.equal(model("doc/Conventions.md", header).status, "accepted");
  });

  test("contradictory status lines: one is read, and the model says they disagree", () => {
    const text = "# 5. Flags\n\nStatus: Accepted\n\n## Status\n\nRejected\n\n## Decision\n\nWe will use feature flags.\n";
    const m = model("adr/0005-flags.md", text);
    assert.notEqual(m.status, "unknown");
    const note = m.not_understood.find((n) => n.startsWith("status lines disagree"));
    assert.ok(note, m.not_understood.join(" | "));
    assert.match(note!, /line 3 says "Accepted"/);
    assert.match(note!, /line 7 says "Rejected"/);
  });
});

describe("bad input is read as far as it goes", () => {
  test("no headings at all", () => {
    const m = model("notes/decision.md", "We talked about it for a while.\nWe will use SQLite for the cache.\n");
    assert.ok(m.not_understood.includes("no headings: the record was read as plain text"));
    assert.equal(m.status_display, "no status line");
    assert.equal(m.title, "Decision");
  });

  test("a decision section that names no option", () => {
    const m = model("adr/0006-later.md", "# 6. Later\n\n## Status\n\nProposed\n\n## Decision\n\nTo be discussed at the next meeting.\n");
    assert.equal(m.chosen, undefined);
    assert.ok(m.not_understood.includes("the decision section names no option"), m.not_understood.join(" | "));
  });

  test("an options list of 50 items: all kept in the model, marked, and at most 5 offered as options", () => {
    const items = Array.from({ length: 50 }, (_, i) => `* Library number ${i + 1}`).join("\n");
    const text = `# Choose a date library\n\n## Considered Options\n\n${items}\n\n## Decision Outcome\n\nChosen option: "Library number 37", because it is small.\n`;
    const m = model("docs/decisions/0011-dates.md", text);
    assert.equal(m.considered.length, 50);
    assert.equal(m.considered_over_limit, true);
    assert.equal(m.options.length, MAX_OPTIONS_IN_USE);
    assert.equal(m.options[0], "Library number 37");
    assert.equal(m.chosen?.considered_index, 36);
    assert.ok(m.not_understood.some((n) => n.startsWith("50 considered options")), m.not_understood.join(" | "));
    assert.equal(m.rejected.length, 49);
  });

  test("empty, binary-ish and huge inputs never throw", () => {
    for (const text of ["", "\u0000\u0001\u0002", "#", "## Decision\n", "## Considered Options\n\n*\n-\n", "x".repeat(200_000)]) {
      assert.doesNotThrow(() => model("adr/0001-x.md", text));
    }
  });
});

describe("linear time", () => {
  const BUDGET_MS = 50;
  // CPU time, not wall time: the bound is on the work done, which a loaded machine does not change.
  const cpuMs = (since: NodeJS.CpuUsage) => {
    const used = process.cpuUsage(since);
    return (used.user + used.system) / 1000;
  };
  const cue = fc.constantFrom("we will use ", "instead of ", "rather than ", "it was decided that ", "(", ", ", "option (A) ", "decided against ", " ", "a", "Use ", ".");
  const longText = fc.array(cue, { minLength: 1, maxLength: 200 }).chain((parts) => fc.integer({ min: 1, max: 5000 }).map((n) => parts.join("").repeat(n)));

  test(`readDecisionSentence stays within ${BUDGET_MS} ms on long unpunctuated runs`, () => {
    fc.assert(
      fc.property(longText, (text) => {
        const t0 = process.cpuUsage();
        readDecisionSentence(text);
        return cpuMs(t0) < BUDGET_MS;
      }),
      // No shrinking: a failure here is a timing, and shrinking megabyte inputs on a loaded machine takes minutes.
      { numRuns: 40, endOnFailure: true },
    );
  });

  test("sentencesIn and decisionModelOf grow linearly (50 ms per 64 KB)", () => {
    fc.assert(
      fc.property(longText, (text) => {
        const doc = `# T\n\n## Decision\n\n${text}\n\n## Alternatives\n\n- ${text}\n`;
        const t0 = process.cpuUsage();
        sentencesIn(doc.split("\n"), 1, 8);
        decisionModelOf(parseAdr("adr/0001-t.md", doc));
        return cpuMs(t0) < BUDGET_MS * Math.max(1, doc.length / (64 * 1024)) * 4;
      }),
      { numRuns: 20, endOnFailure: true },
    );
  });
});

describe("decision prose beyond 'We will use X'", () => {
  test("a decision that opens with a gerund phrase chooses it; a gerund that argues does not", () => {
    assert.equal(readDecisionSentence("Using calendar versioning (YYYY.MM) for the desktop app, where the month is the release month").chosen, "calendar versioning");
    assert.equal(readDecisionSentence("Adopting Terraform modules for every environment.").chosen, "Terraform modules");
    assert.equal(readDecisionSentence("Using Terraform would make the pipeline slower.").chosen, undefined);
  });

  test("a commitment that keeps what is there gives way to one that commits to something new", () => {
    const text = `# 3. Notes format

## Status

Accepted

## Context

Notes have been written in both AsciiDoc and Markdown.

## Decision

We will continue to keep short notes next to the code. We will use AsciiDoc for every long-form note.

## Consequences

Converters are needed for old notes.
`;
    const m = model("docs/adr/0003-notes-format.md", text);
    assert.equal(m.chosen?.name, "AsciiDoc");
    assert.equal(m.chosen?.range.start, lineOf(text, "We will continue"));
    assert.equal(readDecisionSentence("For the time being we will keep the nightly batch.").continuity, true);
    assert.equal(readDecisionSentence("We will use the nightly batch.").continuity, undefined);
  });

  test("keeping the status quo is still the choice when nothing new is committed to", () => {
    const text = `# 4. Keep the monolith

## Status

Accepted

## Decision

For now we will keep the single deployable monolith.
`;
    assert.equal(model("docs/adr/0004-keep.md", text).chosen?.name, "keep the single deployable monolith");
  });

  test("a passive of action makes the clause the choice; a passive of choice makes its subject the choice", () => {
    assert.equal(
      readDecisionSentence("Exported reports (pdf, csv, xlsx) will be uploaded to the shared archive bucket directly.").chosen,
      "Exported reports (pdf, csv, xlsx) will be uploaded to the shared archive bucket directly",
    );
    assert.equal(readDecisionSentence("Postgres will be used for the audit log.").chosen, "Postgres");
    assert.equal(readDecisionSentence("Data exchange should be enabled from and to the partner bucket using signed URLs.").chosen, "Data exchange should be enabled from and to the partner bucket using signed URLs");
  });

  test("options written as paragraphs ('One option is …', 'A second option is …') and a decision naming 'the second option'", () => {
    const text = `# 0009 - Usage reports

## Context

Partners ask for monthly usage numbers.

## Options

One option is to export the request logs to a warehouse and query them there. It costs a new service.

A second option is to count requests in a small table inside the main database. Counting could be done:
- per request, with one row each
- per day, with one counter row per user

Another option is to buy a hosted analytics product. It sends user data to a third party.

## Decision

We should start with the second option, and revisit once partners ask for more than counts.
`;
    const m = model("docs/architecture/adr-0009-usage.md", text);
    assert.deepEqual(m.considered.map((o) => o.name), [
      "export the request logs to a warehouse and query them there",
      "count requests in a small table inside the main database",
      "buy a hosted analytics product",
    ]);
    assert.equal(m.chosen?.name, "count requests in a small table inside the main database");
    assert.equal(m.chosen?.considered_index, 1);
    assert.equal(m.chosen?.range.start, lineOf(text, "We should start with the second option"));
    assert.deepEqual(m.rejected.map((r) => r.name).sort(), ["buy a hosted analytics product", "export the request logs to a warehouse and query them there"]);
  });

  test("a decision that argues for one considered option without naming it verbatim chooses the one it clearly describes", () => {
    const text = `# 12. Ingest ledger data

## Considered Options

- Poll the ledger API every hour
- Copy nightly database dumps
- Subscribe to the ledger's change events

## Decision

The ledger service already publishes change events for every entry. Subscribing keeps the ledger team in control
of what leaves their system and needs no access to their database.
`;
    const m = model("docs/adr/0012-ingest.md", text);
    assert.equal(m.chosen?.name, "Subscribe to the ledger's change events");
    assert.equal(m.chosen?.how, "outcome-names-option");
    // Two options described about as well: no choice is made up.
    const even = text.replace("The ledger service already publishes change events for every entry.", "Polling and copying both work for the ledger.").replace("Subscribing keeps", "Either keeps");
    assert.equal(model("docs/adr/0012-ingest.md", even).chosen, undefined);
  });
});

describe("more decision phrasings and candidate lists outside an options section", () => {
  test("replacing X with Y chooses Y and turns X down; contractions are read", () => {
    const a = readDecisionSentence("We are replacing the cron hosts with Kubernetes CronJobs.");
    assert.equal(a.chosen, "Kubernetes CronJobs");
    assert.deepEqual(a.rejected, ["cron hosts"]);
    const b = readDecisionSentence("We're removing the XML schema validator and replace it with a hand-written one.");
    assert.equal(b.chosen, "hand-written one");
    assert.deepEqual(b.rejected, ["XML schema validator"]);
  });

  test("'X remains the best choice' and 'the best approach would be to X'", () => {
    assert.equal(readDecisionSentence("Grafana remains the best choice as the dashboard tool for operators.").chosen, "Grafana");
    assert.equal(readDecisionSentence("After talking to security we agreed that the best approach would be to rotate keys every night.").chosen, "rotate keys every night");
    assert.equal(readDecisionSentence("It is the best option we have.").chosen, undefined);
  });

  test("a kind of thing and its name in apposition choose the name; a reference-style link reads as its text", () => {
    assert.equal(readDecisionSentence("Use a Python testing framework, [pytest][pytest]").chosen, "pytest");
    assert.equal(readDecisionSentence("We will use a message broker, RabbitMQ, for domain events.").chosen, "RabbitMQ");
    // A relative clause or a second action after the comma is no name.
    assert.equal(readDecisionSentence("We will use a monorepo, which keeps releases in step.").chosen, "monorepo");
    assert.equal(readDecisionSentence("We will use a queue, and retry on failure.").chosen, "queue");
  });

  test("a verb whose particle is stranded ('the modules it should rely on during start-up') chooses nothing", () => {
    const text = `# 36. Against conditional statements in modules

## Status

Accepted

## Decision

We should no longer rely on conditional statements in Guice module.

Products will, given the configuration, generate the modules it should rely on during the injection stage.
`;
    assert.equal(model("docs/adr/0036-no-conditionals.md", text).chosen?.name, "no longer rely on conditional statements in Guice module");
    assert.equal(readDecisionSentence("We will go with Vault.").chosen, "go with Vault");
    assert.equal(readDecisionSentence("We will deploy at night.").chosen, "deploy at night");
  });

  test("a record that only refuses something decided the refusal; a deferral decides nothing", () => {
    const text = `# 7. No shared database

## Status

Accepted

## Decision

Services must not read each other's tables directly.
How data is shared should be decided service by service.
`;
    assert.equal(model("docs/adr/0007-no-shared-db.md", text).chosen?.name, "not read each other's tables directly");
    assert.equal(readDecisionSentence("The schema should be decided before the first release.").chosen, undefined);
  });

  test("a list in the context is the considered options when the decision chose one of its items", () => {
    const text = `# 9. Build server

## Context

We have run these build servers before:

- GitLab CI
- Drone
- Jenkins

Drone is small but has few plugins.

## Decision

We will use Jenkins to build every pull request.
`;
    const m = model("docs/adr/0009-build.md", text);
    assert.deepEqual(m.considered.map((o) => o.name), ["GitLab CI", "Drone", "Jenkins"]);
    // The decision's own words stay the chosen option's name; the list confirms which item it is.
    assert.equal(m.chosen?.name, "Jenkins to build every pull request");
    assert.equal(m.chosen?.considered_index, 2);
    assert.deepEqual(m.options, ["Jenkins to build every pull request", "GitLab CI", "Drone"]);
    assert.deepEqual(m.rejected.map((r) => r.name), ["GitLab CI", "Drone"]);
    // A list the decision does not choose from stays a list.
    const other = model("docs/adr/0009-build.md", text.replace("We will use Jenkins", "We will use Buildkite"));
    assert.deepEqual(other.considered, []);
  });

  test("a comparison table's first column, and an inline enumeration, confirmed by the choice", () => {
    const table = `# 6. Queue

## Context

| Queue | Pros | Cons |
|-------|------|------|
| Beanstalkd | tiny | unmaintained |
| RabbitMQ | mature | heavy |

## Decision

We will use RabbitMQ for background jobs.
`;
    const t = model("docs/adr/0006-queue.md", table);
    assert.deepEqual(t.considered.map((o) => o.name), ["Beanstalkd", "RabbitMQ"]);
    assert.equal(t.chosen?.considered_index, 1);
    const inline = `# 6. Queue

## Context

There are a few queues we could run: Beanstalkd, RabbitMQ, and NATS.

## Decision

We will use NATS for background jobs.
`;
    const i = model("docs/adr/0006-queue.md", inline);
    assert.deepEqual(i.considered.map((o) => o.name), ["Beanstalkd", "RabbitMQ", "NATS"]);
    assert.equal(i.chosen?.considered_index, 2);
  });

  test("an explicit choice that names a longer option is that option, not a shorter one it contains", () => {
    const text = `# Licence

## Considered Options

* MIT
* Apache-2.0
* Dual licence with MIT and Apache-2.0

## Decision Outcome

Chosen option: "Dual licence with MIT and Apache-2.0", because users can pick.
`;
    assert.equal(model("docs/decisions/0001-licence.md", text).chosen?.name, "Dual licence with MIT and Apache-2.0");
  });

  test("'on hold' is read as proposed", () => {
    const text = `---\nstatus: on hold\n---\n# Own tools\n\n## Decision\n\nWe will write our own linter.\n`;
    assert.equal(model("docs/decisions/0003-tools.md", text).status, "proposed");
  });
});

test("a number compared in an aside is not a rejected option: '(~24 chars instead of 36)'", () => {
  assert.deepEqual(readDecisionSentence("Good, because the id is shorter (~24 chars instead of 36) and lowercase.").rejected, []);
  assert.deepEqual(readDecisionSentence("We will use CUID2 instead of v4 UUIDs.").rejected, ["v4 UUIDs"]);
});

test("a proposal weighed against alternatives the decision turned down finishes (no endless re-indexing of rejections)", () => {
  const text = "We will use Kafka rather than RabbitMQ.";
  const doc = `# Events\n\n## Decision\n\n${text}\n\n## Alternatives\n\n- RabbitMQ\n- NATS\n`;
  const m = model("docs/adr/0002-events.md", doc);
  assert.equal(m.chosen?.name, "Kafka");
  assert.equal(m.chosen?.considered_index, 0);
  assert.deepEqual(m.rejected.map((r) => r.name), ["RabbitMQ", "NATS"]);
  assert.equal(m.rejected[0].reason, text);
  // The input a property run found: it used to spin forever.
  const found = "we will use a(option (A) Use rather than .";
  assert.doesNotThrow(() => model("adr/0001-t.md", `# T\n\n## Decision\n\n${found}\n\n## Alternatives\n\n- ${found}\n`));
});

describe("a choice spelled out after the sentence that announces it", () => {
  test("'the following labels:' takes the list's items, and the range covers the list", () => {
    const doc = "# Label pull requests\n\n## Decision\n\nWe are adopting the following labels for pull requests:\n\n- kind:breaking - a change users must act on\n- kind:fix\n- kind:feature\n- kind:chore\n\n## Consequences\n\nRelease notes are generated.\n";
    const m = model("adr/0004-labels.md", doc);
    assert.equal(m.chosen?.name, "Labels: kind:breaking, kind:fix, kind:feature, …");
    assert.deepEqual(m.chosen?.range, { start: lineOf(doc, "We are adopting"), end: lineOf(doc, "kind:chore") });
  });
  test("'build X with the following characteristics:' keeps what is built and names the bold leads of the items", () => {
    const doc = "# Internal API\n\n## Decision\n\nWe will build a private gateway with the following characteristics:\n\n- **Versioned routes** under /v1\n- **Plain JSON** bodies\n\nIt ships next quarter.\n";
    assert.equal(model("adr/0005-api.md", doc).chosen?.name, "Build a private gateway: Versioned routes, Plain JSON");
  });
  test("a code line after 'in the following layout:' is the one thing chosen; the list explaining it is not", () => {
    const doc = "# Storage layout\n\n## Decision\n\nFiles will be stored in the following layout:\n\n`{team}/{dataset}/year={yyyy}/`\n\n- team - the owner\n- dataset - its name\n";
    assert.equal(model("adr/0006-layout.md", doc).chosen?.name, "Layout: {team}/{dataset}/year={yyyy}/");
  });
  test("a sentence that announces nothing keeps its own words, even when a list follows", () => {
    const doc = "# Queue\n\n## Decision\n\nWe will use Redis Streams:\n\n- it is already deployed\n- the team knows it\n";
    assert.equal(model("adr/0007-queue.md", doc).chosen?.name, "Redis Streams");
  });
});

describe("prose readings of this round", () => {
  test("'will consist of X' chooses X, after a long subject and an aside with 'still'", () => {
    const r = readDecisionSentence("To keep costs low, but still avoid the start-up wait, the first version of our always-on compute pool will consist of a shared (staging and production) Nomad cluster.");
    assert.equal(r.chosen, "shared Nomad cluster");
    assert.equal(r.continuity, undefined);
    assert.equal(readDecisionSentence("The platform will comprise three services.").chosen, "three services");
  });
  test("a modal inside a relative clause commits nothing: '… the final design, which will drop this property'", () => {
    assert.equal(readDecisionSentence("This is an intermediate step toward the final design which will drop this property.").chosen, undefined);
  });
  test("'keep' in the committing clause is still continuity", () => {
    assert.equal(readDecisionSentence("We will keep using Postgres.").continuity, true);
  });
});

describe("decision readings: past tense, contrast, long subjects, candidates, actions", () => {
  test("'We switched off X' in the past tense is a choice; pointing back at 'this' takes the title's action", () => {
    assert.equal(readDecisionSentence("We enabled strict null checks across the monorepo.").chosen, "enabled strict null checks across the monorepo");
    // "We tried" and "we used" report history, not a decision.
    assert.equal(readDecisionSentence("We tried three linters.").chosen, undefined);
    const text = `# Disable automatic retries on timeouts

## Status

Accepted

## Context

The HTTP client retries every request three times when it times out, which doubles load during an outage.

## Decision

We disabled this default behaviour, and will opt in per call site where a retry is safe.
`;
    const m = model("docs/adr/0007-disable-retries.md", text);
    assert.equal(m.chosen?.name, "Disable automatic retries on timeouts");
    assert.equal(m.chosen?.range.end, lineOf(text, "We disabled this"));
  });

  test("a sentence opening with 'However' that opts for something else overrides the choice before it", () => {
    const text = `# Backfill the billing history

## Considered Options

- Replay every billing event through the event bus so consumers rebuild their state
- Ask the billing team for a CSV export
- Read straight from the billing database

## Decision

In the long run the right answer is to replay every billing event through the event bus so consumers rebuild their state.

However, since the replay tooling will take months, we have opted to load a single snapshot of the billing tables into the warehouse.
`;
    const m = model("docs/adr/0003-backfill.md", text);
    assert.equal(m.chosen?.name, "load a single snapshot of the billing tables into the warehouse");
    assert.equal(m.chosen?.range.start, lineOf(text, "However, since"));
    // Without the contrast the first statement stands.
    const plain = model("docs/adr/0003-backfill.md", text.replace(/\nHowever, since[^\n]*\n/, "\n"));
    assert.equal(plain.chosen?.name, "Replay every billing event through the event bus so consumers rebuild their state");
  });

  test("an option that does something else to the same things is not the one chosen ('Remove X from Y' vs 'move X into Z')", () => {
    const text = `# Where test data lives

## Considered Options

- Remove the customer records from the test account

## Decision

After talking to security, the best approach would be to move the whole test account into the secured production organisation.
`;
    const m = model("docs/adr/0012-test-data.md", text);
    assert.equal(m.chosen?.name.startsWith("move the whole test account into the secured production organisation"), true);
    assert.equal(m.chosen?.considered_index, undefined);
    // The same verb still names the listed option.
    const same = model("docs/adr/0012-test-data.md", text.replace("move the whole test account into the secured production organisation", "remove the customer records from the test account"));
    assert.equal(same.chosen?.considered_index, 0);
  });

  test("'it was decided that <long subject> is <done> …': the action is the choice, a short subject stays the choice", () => {
    assert.equal(
      readDecisionSentence("Since we are leaving the old framework, it was decided that the SessionStore and the whole of its file-backed and memory-backed layers is rewritten using Tokio.").chosen,
      "rewritten using Tokio",
    );
    assert.equal(readDecisionSentence("It was decided that Postgres is used for the ledger.").chosen, "Postgres is used");
  });

  test("'needs to be changed, to follow X' chooses X; other 'needs to be' sentences commit to nothing", () => {
    assert.equal(readDecisionSentence("The module layout needs to be changed, to follow a feature-folder layout.").chosen, "follow a feature-folder layout");
    assert.equal(readDecisionSentence("Each plugin needs to be described by a manifest.").chosen, undefined);
  });

  test("a bare name keeps its role ('Use Fargate as the execution environment'); a longer phrase drops it", () => {
    assert.equal(readDecisionSentence("Use Fargate as the execution environment.").chosen, "Fargate as the execution environment");
    assert.equal(readDecisionSentence("Use Fargate as it is cheaper.").chosen, "Fargate");
    assert.equal(readDecisionSentence("We will use Rust with the Axum web stack as the framework.").chosen, "Rust with the Axum web stack");
  });

  test("'Frameworks to choose from': each sub-heading is a candidate, pros and cons under it are not", () => {
    const text = `# Documentation site

## Context

### Generators to choose from

#### Docusaurus

##### Pros
* React based

##### Cons
* Heavy

#### MkDocs

##### Pros
* Simple

## Proposed Solution

We will build the site as a static bundle using MkDocs with the Material theme.
`;
    const m = model("docs/adr/0014-docs-site.md", text);
    assert.deepEqual(m.considered.map((o) => o.name), ["Docusaurus", "MkDocs"]);
    assert.equal(m.chosen?.name, "MkDocs");
  });

  test("'Discounted options' is an alternatives section", () => {
    const text = `# Nightly import

## Decision

We will run the import as a scheduled container task.

### Discounted options during the trial

- A serverless function, which hit its time limit
- A managed ETL service
`;
    const m = model("docs/adr/0006-import.md", text);
    // The option is named before its relative clause ("which hit its time limit" says why it was discounted).
    assert.deepEqual(m.rejected.map((r) => r.name).sort(), ["A managed ETL service", "A serverless function"].sort());
  });

  test("a choice spelled out as a list drops each item's parenthetical asides", () => {
    const text = `# Repository interfaces

## Decision

The repositories will be reworked in the following ways:

- every write method (\`insert\`, \`patch\`, \`remove\`) returns an Outcome value (or a subtype)
- bulk writes are dropped
`;
    const m = model("docs/adr/0020-repos.md", text);
    assert.match(m.chosen?.name ?? "", /every write method returns an Outcome value/);
    assert.doesNotMatch(m.chosen?.name ?? "", /insert|subtype/);
  });
});

describe("options cited by number or roman numeral, several at once", () => {
  const text = `# Second JVM language

## Considered Options

### Approaches

1. Leave it to each team
2. Write one sample service in the new language
3. Port a whole subsystem to it

### Languages:

[upperroman]
I. Kotlin
II. Clojure
III. Scala

## Decision

We decide for options 2 and III.

That means we write one sample service in Scala first.
`;
  test("numbered and roman-numbered items are options, under a group heading with a list-style attribute line", () => {
    const m = model("docs/adr/0030-jvm-language.md", text);
    assert.deepEqual(m.considered.map((o) => o.name), ["Leave it to each team", "Write one sample service in the new language", "Port a whole subsystem to it", "Kotlin", "Clojure", "Scala"]);
    assert.deepEqual(m.considered.map((o) => o.ref), ["1", "2", "3", "I", "II", "III"]);
  });
  test("'options 2 and III' chooses both: neither is rejected nor offered as an alternative", () => {
    const m = model("docs/adr/0030-jvm-language.md", text);
    assert.equal(m.chosen?.name, "Write one sample service in the new language + Scala");
    assert.equal(m.chosen?.considered_index, 1);
    assert.deepEqual(m.chosen?.combined_with, [5]);
    assert.equal(m.chosen?.range.start, lineOf(text, "We decide for options"));
    assert.deepEqual(m.rejected.map((r) => r.name), ["Leave it to each team", "Port a whole subsystem to it", "Kotlin", "Clojure"]);
    assert.deepEqual(m.options.slice(1), ["Leave it to each team", "Port a whole subsystem to it", "Kotlin", "Clojure"]);
  });
  test("a citation with a label no option has is not read as several options", () => {
    const m = model("docs/adr/0030-jvm-language.md", text.replace("options 2 and III", "options 2 and VII"));
    assert.equal(m.chosen?.combined_with, undefined);
  });
});

test("of several lists outside the options section, the one whose item the choice names fully holds the candidates", () => {
  const text = `# Job scheduler

## Context

We need something to run nightly and ad hoc jobs.

| Tool     | Pros     | Cons      |
|----------|----------|-----------|
| Cron     | simple   | no retries |
| Nomad    | familiar | heavy     |
| Temporal | durable  | new to us |

## Decision

We will use Temporal.

## Consequences

We will need to do one of these:

- write a Temporal worker for each legacy script
- wrap the scripts in one generic worker
`;
  const m = model("docs/adr/0009-scheduler.md", text);
  assert.deepEqual(m.considered.map((o) => o.name), ["Cron", "Nomad", "Temporal"]);
  assert.equal(m.chosen?.considered_index, 2);
});

test("an option discarded in prose ('A tool like X has been discarded …') was considered and is rejected with that sentence", () => {
  const text = `# Continuous integration

## Context

Nothing runs our tests on pull requests today.

## Decision

We will use Buildkite because our agents already run there.
A hosted service like CircleCI has been discarded for now for its price, but may come back later.
`;
  const m = model("docs/adr/0004-ci.md", text);
  assert.deepEqual(m.considered.map((o) => o.name), ["Buildkite", "CircleCI"]);
  assert.equal(m.chosen?.name, "Buildkite");
  assert.deepEqual(m.rejected.map((r) => [r.name, r.range.end]), [["CircleCI", lineOf(text, "has been discarded")]]);
  assert.match(m.rejected[0].reason ?? "", /for its price/);
  // A pronoun names nothing.
  assert.deepEqual(readDecisionSentence("That was rejected by the board.").rejected, []);
});

test("what a record says it weighed in prose ('X was considered as an alternative', 'We explored having Y') is considered", () => {
  const text = `# Load testing

## Decision

We use k6 for load tests in CI.

## Rationale

[Locust](https://locust.io) was considered as an alternative given its Python scripting.
We also explored having a fleet of spot instances run our own harness.
This was considered too costly.
`;
  const m = model("docs/adr/0011-load-tests.md", text);
  assert.deepEqual(m.considered.map((o) => o.name), ["k6", "Locust", "fleet of spot instances run our own harness"]);
  assert.equal(m.chosen?.considered_index, 0);
  assert.deepEqual(m.rejected.map((r) => r.name), ["Locust", "fleet of spot instances run our own harness"]);
  // A record that lists its options keeps exactly those.
  const listed = model("docs/adr/0011-load-tests.md", text.replace("## Rationale", "## Considered Options\n\n- k6\n- Gatling\n\n## Rationale"));
  assert.deepEqual(listed.considered.map((o) => o.name), ["k6", "Gatling"]);
});

describe("what a chosen thing is for, and what it is", () => {
  test("'to <verb>' after a named thing is its purpose; after a verb of change it is the new state", () => {
    assert.equal(readDecisionSentence("Developers will use the shared sandbox cluster to build and test their jobs.").chosen, "shared sandbox cluster");
    assert.equal(readDecisionSentence("Change the nightly job's schedule to run only on weekdays.").chosen, "Change the nightly job's schedule to run only on weekdays");
    assert.equal(readDecisionSentence("We will move the service to Kubernetes.").chosen, "move the service to Kubernetes");
  });
  test("a next sentence with the chosen thing as its subject says what it is, and joins the name", () => {
    const text = `# Sandbox data

## Decision

Developers will use the sandbox cluster to build and test their jobs.

The sandbox cluster will hold a masked copy of the customer tables. Access is logged.
`;
    const m = model("docs/adr/0015-sandbox.md", text);
    assert.equal(m.chosen?.name, "sandbox cluster that will hold a masked copy of the customer tables");
    assert.deepEqual(m.chosen?.range, { start: lineOf(text, "Developers will use"), end: lineOf(text, "masked copy") });
    // Another subject elaborates nothing.
    const other = model("docs/adr/0015-sandbox.md", text.replace("The sandbox cluster will hold", "The data team will hold"));
    assert.equal(other.chosen?.name, "sandbox cluster");
  });
});

test("a sentence of many option labels and separators is read in linear time", () => {
  const considered = "## Considered Options\n\n1. Alpha\n2. Beta\n\n## Decision\n\n";
  for (const body of ["We decide for options " + "1 ,  ".repeat(150) + "9-.", "We decide for options " + "IV,".repeat(120) + "IVI-.", "We take options " + "2 and ".repeat(70) + "zz-."]) {
    const started = performance.now();
    model("docs/adr/0031-many-labels.md", `# Many labels\n\n${considered}${body}\n`);
    assert.ok(performance.now() - started < 500, "read in well under a second");
  }
});
