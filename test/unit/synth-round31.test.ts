// Answers that follow the record retrieval ranks first, read on real repositories deliberated offline; the records are
// written for these tests.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { deliberate } from "../../src/core/pipeline";
import { generateSigningKey } from "../../src/core/receipts/signing";
import { readQuestion } from "../../src/core/synth/question";
import { stems } from "../../src/core/synth/words";
import { createGitRepo } from "../helpers/gitRepo";

const key = generateSigningKey();

async function ask(files: Record<string, string>, question: string) {
  const repo = createGitRepo([{ message: "Records", files: { ...files, "README.md": "# Project\n" } }]);
  const out = await deliberate({ repo, question, signingKey: key, force: true, useCache: false, writeReceipt: false, config: { offline: true } });
  assert.equal(out.kind, "deliberated");
  if (out.kind !== "deliberated") throw new Error("not deliberated");
  return out.payload;
}

const recommended = (p: Awaited<ReturnType<typeof ask>>) => p.options.find((o) => o.id === p.recommendation.option_id)?.title ?? p.recommendation.option_id;

/** A question's reading as "form: title | title". */
function read(q: string): string {
  const s = readQuestion(q);
  return `${s.form}: ${s.alternatives.map((a) => a.title).join(" | ")}`;
}

const GROUPING = `# Group the runbooks

- Status: accepted

## Context and Problem Statement

The runbook folder holds four hundred pages and nobody finds anything.

## Considered Options

- Put a keyword line under each heading
- Use subfolders, numbered within each subfolder
- Leave the folder flat

## Decision Outcome

Chosen option: "Use subfolders, numbered within each subfolder", because a file browser shows the grouping.
`;

describe("a subfolder is a nested folder", () => {
  test("the words of 'subfolders' are those of a nested directory", () => {
    const s = stems("use subfolders");
    assert.ok(s.has("nest") || s.has("nested"), [...s].join(","));
    assert.ok(s.has("directory"), [...s].join(","));
  });

  test("a record that chose subfolders answers 'keyword lines or nested folders?'", async () => {
    const p = await ask({ "docs/decisions/0004-group-the-runbooks.md": GROUPING }, "With hundreds of runbooks, should we group them with a keyword line in each page, or with nested folders?");
    assert.match(recommended(p), /nested folders/i);
    const cited = p.options.find((o) => o.id === p.recommendation.option_id)?.supports.map((id) => p.citations.find((c) => c.id === id)?.path_or_url);
    assert.ok(cited?.includes("docs/decisions/0004-group-the-runbooks.md"), JSON.stringify(cited));
  });
});

describe("a fronted phrase with a modal of its own", () => {
  test("'To pick the runners a job may use, should we A and B, or C?' keeps A whole", () => {
    const s = readQuestion("To pick the runners a job may use, should we add a label to the pool and document it in the wiki, or create a dedicated runner group?");
    assert.equal(s.form, "alternatives");
    assert.deepEqual(
      s.alternatives.map((a) => a.title),
      ["Add a label to the pool and document it in the wiki", "Create a dedicated runner group"],
    );
  });
});

const TENANCY = `# Tenant data in the reporting service

- Status: proposed

## Context

The reporting service stores report runs in PostgreSQL and now serves several tenants. How their runs are kept
apart is not settled yet.

## Decision

Report runs keep their current tables until the storage question is settled.
`;

const RUNS = `# Keep report runs in PostgreSQL

- Status: accepted

## Decision

We will keep report runs for the reporting service in PostgreSQL, with one row per run, so several tenants' runs
can be listed and purged by date.
`;

const PURGE = `# Purge report runs per tenant

- Status: accepted

## Decision

We will purge each tenant's report runs from PostgreSQL after ninety days, tenant by tenant, from a nightly job of the
reporting service.
`;

const SEARCH = `# Search index isolation

- Status: accepted

## Considered Options

- One shared index with a tenant column
- A separate index of its own per customer
- Filtered aliases in Elasticsearch

## Decision Outcome

Chosen option: "Filtered aliases in Elasticsearch", because the search engine drops an alias cheaply.
`;

describe("a record found below the first two does not put an option of its own forward", () => {
  test("the asked alternatives stay the options and nothing deeper is recommended", async () => {
    const p = await ask(
      { "docs/adr/0007-tenant-data-in-reporting.md": TENANCY, "docs/adr/0003-report-runs.md": RUNS, "docs/adr/0004-search-index-tenants.md": SEARCH, "docs/adr/0005-purge-report-runs.md": PURGE },
      "The reporting service keeps report runs in PostgreSQL and must now serve several tenants. Should we add a tenant column to the shared tables, or give each tenant a database of its own?",
    );
    const titles = p.options.map((o) => o.title);
    assert.ok(!/aliases/i.test(recommended(p)), `${recommended(p)} (${titles.join(" | ")})`);
  });
});

describe("a verb the tagger took for a noun, before its object", () => {
  const titles = (q: string) => readQuestion(q).alternatives.map((a) => a.title);
  test("'…, or page every engineer at once?' is a verb phrase, not a noun swapped into the left side", () => {
    assert.deepEqual(titles("Should we set up a weekly rotation with one designated person, or page every engineer at once?"), ["Set up a weekly rotation with one designated person", "Page every engineer at once"]);
  });
  test("'…, or query the database every time?' and '…, or script the release notes?'", () => {
    assert.deepEqual(titles("Should we cache the results in Redis, or query the database every time?"), ["Cache the results in Redis", "Query the database every time"]);
    assert.deepEqual(titles("Should we keep a changelog by hand, or script the release notes from commits?"), ["Keep a changelog by hand", "Script the release notes from commits"]);
  });
  test("a noun before a relative 'that' stays a noun", () => {
    assert.deepEqual(titles("Should we use Kafka, or a queue that we run ourselves?"), ["Kafka", "A queue that we run ourselves"]);
  });
});

describe("roundabout proposals read for what they propose", () => {
  test("a fronted phrase before 'should we' leaves the proposal", () => {
    assert.equal(read("Before the next release, should we freeze the public API surface?"), "action: Freeze the public API surface");
  });
  test("'would it make sense to X' proposes X", () => {
    assert.equal(read("Would it make sense to standardise on date-fns across the board?"), "action: Standardise on date-fns across the board");
  });
  test("'is it better to A than B' weighs A and B", () => {
    assert.equal(read("Is it better to retry in the client than in the gateway?"), "alternatives: Retry in the client | Retry in the gateway");
  });
  test("'should the scheduler own retries' has 'own' for its verb; 'our own parser' keeps it an adjective", () => {
    assert.equal(read("Should the scheduler own retries, or should each job handle its own failures?"), "alternatives: The scheduler owns retries | Each job handles its own failures");
    assert.equal(read("Should we write our own parser, or use a library?"), "alternatives: Write our own parser | Use a library");
  });
  test("'too much' judges its subject; what the asker already has ('our …') is kept", () => {
    assert.equal(read("Is Kubernetes too much for a team of three, or should we just use ECS?"), "alternatives: Adopt Kubernetes | Adopt ECS");
    assert.equal(read("Is our Jenkins setup too slow?"), "keep: Keep our Jenkins setup | Drop our Jenkins setup");
  });
  test("'do we need both A and B?' weighs both against either one", () => {
    assert.equal(read("Do we really need both Sentry and Datadog APM?"), "alternatives: Use both Sentry and Datadog APM | Use only Sentry | Use only Datadog APM");
    assert.equal(readQuestion("Do we really need both Sentry and Datadog APM?").incumbent?.title, "Use both Sentry and Datadog APM");
    assert.equal(readQuestion("Do we need both a CDN and an in-app cache?").incumbent, undefined);
  });
  test("'worth moving X to Y' moves X, though the tagger took 'moving' for an adjective", () => {
    assert.equal(read("Is it worth moving our cron jobs to Kubernetes CronJobs?"), "migration: Keep our cron jobs | Move our cron jobs to Kubernetes CronJobs");
    assert.equal(read("Would moving our cron jobs to Kubernetes CronJobs simplify operations?"), "migration: Keep our cron jobs | Move our cron jobs to Kubernetes CronJobs");
  });
  test("'would X make sense', a fronted reason, and a tag that judges the proposal itself", () => {
    assert.equal(read("Would a CQRS split make sense for the catalog service?"), "adopt: Adopt CQRS split");
    assert.equal(read("Given that most of our traffic is read-heavy, would a CQRS split make sense for the catalog service, or is it premature?"), "adopt: Adopt CQRS split");
    assert.equal(read("Should we add a cache, or would that be overkill?"), "adopt: Add a cache");
    assert.equal(read("Is Redis enough, or is it time to move to Kafka?"), "alternatives: Keep Redis | Move to Kafka");
  });
  test("a list after a dash starts after the dash", () => {
    assert.equal(read("Is there a recommended pattern for background jobs in this codebase — Celery, RQ, or cron?"), "alternatives: Celery | RQ | Cron");
  });
  test("'is X overkill, or should we keep Y' judges X", () => {
    assert.equal(read("Is GraphQL federation overkill for us, or should we keep one schema in the gateway?"), "alternatives: Adopt GraphQL federation | Keep one schema in the gateway");
  });
});

const PREPROD = `# 12. Move staging to pre-production

Date: 2023-05-02

## Status

Accepted

## Context

The staging account holds copies of live council records, and the security review said it must not.

## Decision

The whole staging account becomes the pre-production environment, connected to production and held to its controls.

## Consequences

Analysts lose their playground; a sandbox account is set up for experiments.
`;

const SHEETS = `# 2. Ingest spreadsheet data

## Status

Accepted

## Decision

We will ingest spreadsheets with a Glue job written in Python, and analysts develop the job against sample data.
`;

describe("a proposal the best-ranked record answered another way", () => {
  test("the record's decision, as its title states it, is offered and recommended", async () => {
    const p = await ask(
      { "docs/architecture-decisions/records/012-move-staging-to-pre-production.md": PREPROD, "docs/architecture-decisions/records/002-ingest-spreadsheets.md": SHEETS },
      "After the security review flagged our staging account for holding live records, should we strip production data out of staging and have analysts develop their Glue jobs against mocked datasets?",
    );
    assert.match(recommended(p), /pre-production/i, p.options.map((o) => o.title).join(" | "));
  });
});

describe("a 'which' question after sentences that name things", () => {
  test("'which <kind of thing>' asks for a kind, not among the names", () => {
    assert.equal(read("We run Kafka on AWS with Terraform. Which partition strategy should we use?"), "open: ");
  });
});
