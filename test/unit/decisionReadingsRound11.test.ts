// Readings of the decision model fixed in round 11 (issue 21), found on records of repositories in no eval set,
// labelled before the extractor ran on them: a list of chosen names, a change whose "from X to Y" follows a scope
// phrase, an adjective before a comma, "the only solution", an unfilled chosen-option line, a quoted option name,
// the RFC processes' status words and a note that a later record supersedes this one. Every record here is written
// for these tests.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { normaliseStatus, parseAdr } from "../../src/core/internal/adr";
import { DecisionRecordSchema, decisionModelOf, type DecisionRecord } from "../../src/core/decisions";
import { readDecisionSentence } from "../../src/core/decisions/prose";

function model(path: string, text: string): DecisionRecord {
  const m = decisionModelOf(parseAdr(path, text));
  DecisionRecordSchema.parse(m);
  return m;
}

describe("a decision that names a list", () => {
  test("every name of a comma list with a last 'and' / 'or' item is chosen", () => {
    assert.equal(readDecisionSentence("We have decided to use `go`, `rust`, and `typescript` as our service languages, as the team knows them.").chosen, "go, rust, and typescript");
    assert.equal(readDecisionSentence("We will use Redis, Memcached or Varnish for page caches.").chosen, "Redis, Memcached or Varnish");
    assert.equal(readDecisionSentence("Use ESLint, Prettier and Stylelint.").chosen, "ESLint, Prettier and Stylelint");
  });

  test("a comma before a second clause or a reason still ends the name", () => {
    assert.equal(readDecisionSentence("We will use a queue, and retry on failure.").chosen, "queue");
    assert.equal(readDecisionSentence("We chose Kafka, and we will revisit it next year.").chosen?.includes("revisit"), false);
    assert.equal(readDecisionSentence("Use Postgres, because it is fast and cheap.").chosen, "Postgres");
    assert.equal(readDecisionSentence("We will use a monorepo, which keeps releases in step.").chosen, "monorepo");
  });
});

describe("a change stated after a scope phrase", () => {
  test("'switch X for Y from A to B' keeps what it changes from and to", () => {
    assert.equal(readDecisionSentence("Switch the build system for the mobile apps from Maven to Gradle.").chosen, "Switch the build system from Maven to Gradle");
    assert.equal(readDecisionSentence("Move our nightly jobs on the old VM from cron to Kubernetes CronJobs.").chosen, "Move our nightly jobs from cron to Kubernetes CronJobs");
  });

  test("a purpose phrase with no change after it still ends the phrase", () => {
    assert.equal(readDecisionSentence("Switch the build system for speed.").chosen, "Switch the build system");
  });
});

describe("more phrasings of a choice", () => {
  test("an adjective before a comma goes on to its noun", () => {
    assert.match(readDecisionSentence("We decided that stale, unreferenced rows should be deleted every month.").chosen ?? "", /^stale unreferenced rows/);
  });

  test("'X is the only solution that works' chooses X; 'only' without a choice noun does not", () => {
    assert.equal(readDecisionSentence("A shared Redis cache is the only solution of the three that survives restarts.").chosen, "shared Redis cache");
    assert.equal(readDecisionSentence("It is the only option we have.").chosen, undefined);
  });
});

describe("chosen-option lines and option names", () => {
  const madr = (chosenLine: string) => `# Use a structured logger

* Status: accepted

## Considered Options

* [pino](https://example.org/pino)
* 'winston'
* bunyan

## Decision Outcome

${chosenLine}
We started with pino and found no reason to switch, so we stick with pino.
`;

  test("an unfilled chosen-option line chooses nothing; the prose after it decides", () => {
    const m = model("docs/adr/0003-logger.md", madr(`Chosen option: "", because it is fast.`));
    assert.notEqual(m.chosen?.how, "chosen-option-line");
    assert.equal(m.chosen?.name, "pino");
  });

  test("quotes around a whole option name are not part of it", () => {
    const m = model("docs/adr/0003-logger.md", madr(`Chosen option: "winston", because it has transports.`));
    assert.deepEqual(m.considered.map((o) => o.name), ["pino", "winston", "bunyan"]);
    assert.equal(m.chosen?.name, "winston");
    assert.equal(m.chosen?.considered_index, 1);
  });
});

describe("status words and supersession notes", () => {
  test("the RFC processes' status words are read", () => {
    assert.equal(normaliseStatus("implementable"), "accepted");
    assert.equal(normaliseStatus("Final"), "accepted");
    assert.equal(normaliseStatus("Informational"), "accepted");
    assert.equal(normaliseStatus("provisional"), "proposed");
  });

  test("a note that a later record supersedes this one marks it superseded and links the successor", () => {
    const text = `# Decision Record: Initial retention policy

> **Note**
> The policy was revisited in [ADR-9] which supersedes this decision.

[ADR-9]: ./adr-009-retention.md

## Introduction

We keep every row for now.
`;
    const p = parseAdr("docs/adr/adr-004-retention.md", text);
    assert.equal(p.status, "superseded");
    assert.deepEqual(p.superseded_by, ["ADR-9"]);
  });

  test("a condition or a note that names no record does not take this one out of force", () => {
    const cond = parseAdr("docs/adr/0006-x.md", "# 6. Use X\n\nStatus: accepted\n\nIf a later ADR-9 supersedes this decision, update the index.\n\n## Decision\n\nWe will use X.\n");
    assert.equal(cond.status, "accepted");
    const unnamed = parseAdr("docs/adr/0007-y.md", "# 7. Use Y\n\nStatus: accepted\n\nA newer record supersedes this decision.\n\n## Decision\n\nWe will use Y.\n");
    assert.equal(unnamed.status, "accepted");
  });

  test("'this decision supersedes ADR 3' is no note about this record", () => {
    const p = parseAdr("docs/adr/0005-x.md", "# 5. Use X\n\nStatus: accepted\n\nThis decision supersedes ADR-3.\n\n## Decision\n\nWe will use X.\n");
    assert.equal(p.status, "accepted");
    assert.deepEqual(p.superseded_by, []);
  });
});

describe("where a record weighs and commits", () => {
  test("a list of approaches under Consequences is follow-up work, not the record's options", () => {
    const m = model("docs/adr/0009-lost-jobs.md", `# 9. Recover lost jobs

## Context

Jobs are lost when a worker is killed. We previously considered buying Sidekiq Pro.

## Decision

We decided to run a recovery worker instead of buying Sidekiq Pro.

## Consequences

Recovered work may run twice. We had two approaches to cope with this:

- For slow jobs, an advisory lock.
- For fast jobs, a row-level lock.
`);
    assert.deepEqual(m.considered.map((o) => o.name).sort(), ["buying Sidekiq Pro", "run a recovery worker"]);
    assert.equal(m.chosen?.name, "run a recovery worker");
    assert.deepEqual(m.rejected.map((r) => r.name), ["buying Sidekiq Pro"]);
  });

  test("a record with no decision section commits to the option its conclusion names", () => {
    const m = model("docs/adr/0004-python-linter.md", `# Add a Python linter

## Context

Python code has no linter that finds mistakes.

## Candidates

Three approaches stand out:

- \`pylint\`: the most thorough and the slowest.
- \`flake8\`: with plugins.
- \`ruff\`: written in Rust.

We will keep \`black\` for layout. Because of its speed, \`ruff\` is the recommended tool for the next linter.
`);
    assert.deepEqual(m.considered.map((o) => o.name), ["pylint", "flake8", "ruff"]);
    assert.equal(m.chosen?.name, "ruff");
    assert.equal(m.chosen?.how, "outcome-names-option");
  });
});

describe("clauses that say what a choice brings", () => {
  test("'Switching to X means we can Y' chooses the switch, not what it enables", () => {
    assert.equal(readDecisionSentence("Switching to a shared Memcached tier means we can drop per-pod caches, which in turn will let us scale out.").chosen, "Switching to a shared Memcached tier");
    assert.equal(readDecisionSentence("Moving the jobs to Kubernetes lets us retire the VM.").chosen, "Moving the jobs to Kubernetes");
  });

  test("a gerund that argues with a modal still chooses nothing", () => {
    assert.equal(readDecisionSentence("Using Kafka would make local testing harder.").chosen, undefined);
  });

  test("a relative clause after a comma or 'that' before a modal is no commitment", () => {
    assert.equal(readDecisionSentence("Some handlers take a request object, and others take loose arguments that will be used to build one.").chosen, undefined);
    assert.equal(readDecisionSentence("We pick Postgres, which will scale with us.").chosen, "Postgres");
  });
});

describe("a list of conditions names no options", () => {
  test("'these are not considered breaking changes:' and a list of 'If …' items weighs nothing", () => {
    const m = model("docs/adr/0060-api-stability.md", `# 60. API stability

## Status

Proposed

## Decision

All internal code will be placed in a root-level internal directory.

#### Accepted breakage

The above can still break programs in a few ways - these are not considered breaking changes:

- If a program uses unkeyed struct literals and we add fields, it no longer compiles.
- If a program embeds two structs and we add a method, calls become ambiguous.
- When a program compares two structs and we add a slice field, it no longer compiles.
`);
    assert.deepEqual(m.considered, []);
    assert.match(m.chosen?.name ?? "", /internal directory/);
  });
});

describe("an alternative and the problems listed with it", () => {
  test("a list announced as the problems of an alternative argues against it; the alternative is the prose before it", () => {
    const m = model("docs/adr/0063-temp-files.md", `# 63. Prevent temporary file leaks

## Status

Accepted

## Decision

Implement a leak detector using phantom references.

## Alternatives

The same can be done in a simpler way by relying on the finalize method.

Yet this should not be done, as many operational problems come with finalize:
 - Longer GC pauses as finalizers run
 - Slower collection when a finalize method exists
`);
    assert.ok(!m.considered.some((o) => /GC pauses|Slower collection/.test(o.name)), JSON.stringify(m.considered));
    assert.ok(m.considered.some((o) => /finalize method/.test(o.name)), JSON.stringify(m.considered));
    assert.match(m.chosen?.name ?? "", /leak detector/);
  });
});

describe("an option cited by its place, a participle after a comma, a replacement said twice", () => {
  test("'Option 2.' over options listed under headings without labels is the second one", () => {
    const m = model("docs/adr/0038-query-cache.md", `# 0038 - Query cache

- **Status**: proposed

## Considered Options

### Keep the second-level cache library

- Pros: nothing to build

### Write our own cache layer

- Pros: we control invalidation

## Decision Outcome

Option 2. A spike showed it works, and the complexity is low.
`);
    assert.equal(m.chosen?.considered_index, 1);
    assert.equal(m.chosen?.name, "Write our own cache layer");
  });

  test("a participle phrase after a comma says how the choice is done; it is not the choice's name", () => {
    assert.equal(readDecisionSentence("The service will use a maintenance mode inside the main application, implemented via configuration.").chosen, "maintenance mode inside the main application");
    assert.equal(readDecisionSentence("Use a Python testing framework, pytest.").chosen, "pytest");
  });

  test("'Replace X (…), and replace it with Y' chooses Y however long X runs", () => {
    assert.equal(readDecisionSentence("Replace the existing normalised listing schema (taken from the partner's v3 specification), and replace it with a single JSON document column.").chosen, "single JSON document column");
  });
});
