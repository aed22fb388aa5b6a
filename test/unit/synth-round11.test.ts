// Answers on records the rules had never seen (eleventh session, issue 21): a question that proposes to switch
// something it does not name ("the project's linter") over a record that chose what is in place; and the stem that lets
// "linter" meet "linting" and "logger" meet "logging". Real git repositories, deliberated offline; every record here
// is written for these tests.
import { describe, test, before } from "node:test";
import assert from "node:assert/strict";
import { stemWord } from "../../src/core/synth/words";
import { readQuestion } from "../../src/core/synth/question";
import type { OptionPicker } from "../../src/core/schemas";
import { createGitRepo } from "../helpers/gitRepo";
import { askOffline as ask, recommendedOption as recommended } from "../helpers/ask";

function titles(p: OptionPicker): string {
  return p.options.map((o) => o.title).join(" | ");
}

const LINT = "docs/adr/0004-javascript-linting.md";
const LINT_ADR = `# 4. JavaScript linting

## Status

Accepted

## Context

Every package carried its own style rules, and pull requests argued about semicolons.

## Decision

We lint every package with Biome, using the shared configuration at the repository root.

## Consequences

Editors need the Biome extension.
`;

const QUEUE = "docs/adr/0005-background-jobs.md";
const QUEUE_ADR = `# 5. Background jobs

## Status

Accepted

## Context

Sending invoices blocks web requests.

## Decision

We will run background jobs on Sidekiq, with Redis as its store.

## Consequences

Redis becomes a production dependency.
`;

describe("a switch of something the question does not name", () => {
  let repo: string;
  before(() => {
    repo = createGitRepo([
      { message: "Linting", files: { [LINT]: LINT_ADR, "README.md": "# Shop\n" } },
      { message: "Jobs", files: { [QUEUE]: QUEUE_ADR } },
    ]);
  });

  test("what is in place is what the record chose: it replaces the unnamed option and is recommended", async () => {
    const p = await ask(repo, "Pull requests keep arguing about import order in the JavaScript packages. Should we switch the project's linter to ESLint with a custom rule set?");
    assert.match(recommended(p)?.title ?? "", /Biome/, titles(p));
    assert.ok(!p.options.some((o) => /project's linter/.test(o.title) && !/ESLint/.test(o.title)), titles(p));
    assert.ok(recommended(p)?.supports.some((id) => p.citations.find((c) => c.id === id)?.path_or_url === LINT), titles(p));
    assert.ok(p.options.some((o) => /ESLint/.test(o.title)), titles(p));
    assert.notEqual(p.recommendation.confidence, "high");
  });

  test("a named incumbent keeps its own name", async () => {
    const p = await ask(repo, "Should we move our background jobs from Sidekiq to GoodJob?");
    assert.ok(p.options.some((o) => /Sidekiq/.test(o.title)), titles(p));
    assert.ok(p.options.some((o) => /GoodJob/.test(o.title)), titles(p));
  });
});

describe("readings behind it", () => {
  test("a wh-question that only says what it turns away from stays open; 'what about X instead of Y' still proposes X", () => {
    const open = readQuestion("Temp files pile up on every node. What should the server do so these are cleaned up systematically, instead of relying on every plugin author getting disposal right?");
    assert.equal(open.form, "open");
    assert.deepEqual(open.alternatives, []);
    const proposal = readQuestion("What about Kafka instead of RabbitMQ for the order events?");
    assert.notEqual(proposal.form, "open");
  });

  test("an unnamed incumbent is marked, a named one is not", () => {
    assert.equal(readQuestion("Should we switch the project's formatter to YAPF?").incumbent?.unnamed, true);
    assert.equal(readQuestion("Should we move our Glue ETL jobs to dbt?").incumbent?.unnamed, undefined);
  });

  test("the doer meets the doing where both double the last consonant, and only there", () => {
    assert.equal(stemWord("formatter"), stemWord("formatting"));
    assert.equal(stemWord("logger"), stemWord("logging"));
    assert.notEqual(stemWord("cluster"), "clust");
    assert.equal(stemWord("number"), "number");
  });
});
