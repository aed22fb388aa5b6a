// Answers on records of repositories the rules had never seen (thirteenth session, issue 21): a record whose chosen
// option combines both alternatives the question names, and a rule record that turns one alternative down in the
// same sentence that states the other. Real git repositories, deliberated offline; every record here is written for
// these tests.
import { describe, test, before } from "node:test";
import assert from "node:assert/strict";
import type { OptionPicker } from "../../src/core/schemas";
import { readQuestion } from "../../src/core/synth/question";
import { createGitRepo } from "../helpers/gitRepo";
import { askOffline as ask, recommendedOption as recommended } from "../helpers/ask";

function titles(p: OptionPicker): string {
  return p.options.map((o) => o.title).join(" | ");
}

const NAMING = "adr/2024_10_03_service_ids.md";
const NAMING_ADR = `# Service ids

* Status: Accepted
* Date: 2024-10-03

## Context and Problem Statement

Services are named in different ways, and dotted ids are awkward to autowire.

## Considered Options

### Stay with dotted ids

* Good, because every bundle uses them today
* Bad, because autowiring needs an attribute

### Use the class name as the id

* Good, because autowiring just works
* Bad, because every existing id changes

### Combine dotted ids with class-name aliases

* Good, because nothing is renamed
* Bad, because there are more definitions

## Decision Outcome

Chosen option: "Combine dotted ids with class-name aliases", because it keeps old ids and supports autowiring.
`;

const TYPES = "docs/adr/domain-types.md";
const TYPES_ADR = `---
title: "Domain code must not depend on transport types"
---

## Background

Store interfaces sometimes take the generated OpenAPI request types.

## Decision

All domain code—including store interfaces—must operate on domain types, not transport types such as OpenAPI schemas.

## Consequences

Controllers map request bodies to domain objects.
`;

describe("a record that chose a combination of the alternatives", () => {
  let repo: string;
  before(() => {
    repo = createGitRepo([{ message: "Naming", files: { [NAMING]: NAMING_ADR, [TYPES]: TYPES_ADR, "README.md": "# Shop\n" } }]);
  });

  test("the combination joins the options and is recommended from the record", async () => {
    const p = await ask(repo, "When registering new services, should we keep the dotted ids or switch to using the class name as the service id?");
    const rec = recommended(p);
    assert.match(rec?.title ?? "", /Combine dotted ids with class-name aliases/, titles(p));
    assert.ok(p.options.some((o) => /dotted ids/i.test(o.title) && !/Combine/.test(o.title)), titles(p));
    assert.ok(p.options.some((o) => /class name/i.test(o.title) && !/Combine/.test(o.title)), titles(p));
    assert.ok(rec?.supports.some((id) => p.citations.find((c) => c.id === id)?.path_or_url === NAMING), titles(p));
  });

  test("a rule that states one side and turns the other down decides for the side it states", async () => {
    const p = await ask(repo, "In the store interface for creating users, should the method accept the OpenAPI CreateUserSchema type directly, or a separate domain type that the controller maps to?");
    assert.match(recommended(p)?.title ?? "", /domain type/, titles(p));
    assert.ok(recommended(p)?.supports.some((id) => p.citations.find((c) => c.id === id)?.path_or_url === TYPES), titles(p));
  });
});

const RENDER = "docs/arch/adr-004-rendering.md";
const RENDER_ADR = `## Decision Record: Rendering Markdown

## Context

Three options were considered for moving this responsibility:

* Option 1: rendering is done fully in the publishing API (or a shared
service);
* Option 2: hybrid rendering with placeholders resolved by frontend apps;
* Option 3: all rendering is done in frontend apps.

## Decision

The decision was made to choose Option 1.

## Status

Accepted.
`;

describe("a record about another part of the codebase", () => {
  let repo: string;
  before(() => {
    // Records that mention the Sidekiq workers, none deciding how requests are traced: the question's scope.
    const workers = Object.fromEntries(
      ["retries", "queues", "priorities", "timeouts", "batching"].map((topic, k) => [
        `docs/arch/adr-01${k}-sidekiq-${topic}.md`,
        `## Decision Record: Sidekiq ${topic}\n\n## Context\n\nThe Sidekiq workers of the publishing API need a policy for ${topic}.\n\n## Decision\n\nWe will configure Sidekiq ${topic} per queue.\n\n## Status\n\nAccepted.\n`,
      ]),
    );
    repo = createGitRepo([{ message: "Rendering", files: { [RENDER]: RENDER_ADR, ...workers, "README.md": "# Publishing\n" } }]);
  });

  test("matched to an option only by a word it happens to share, it is never claimed above low", async () => {
    const p = await ask(repo, "When debugging, we struggle to follow one publish request across the API, its Sidekiq workers and the content store. Should we propagate request IDs or tracing context across these services?");
    assert.ok(recommended(p) === undefined || p.recommendation.confidence === "low", `${p.recommendation.option_id} ${p.recommendation.confidence} ${titles(p)}`);
  });
});

describe("reading the question", () => {
  test("a judgement in a later clause does not turn 'should X still be kept …' into a proposal to adopt X, and 'so we can' ends the proposal", () => {
    const s = readQuestion("A PutContent call from Whitehall came back with a 422 because a required field was missing. Should that rejected request still be kept in our audit trail so we can see what publishers attempted, and is it fine for anything in the database to be touched along the way?");
    assert.notEqual(s.form, "adopt");
    assert.ok(!s.alternatives.some((a) => /\bso we\b|is it fine/.test(a.title)), JSON.stringify(s.alternatives));
    assert.equal(readQuestion("Is Redis still the right choice for caching?").form, "keep");
    assert.equal(readQuestion("Would a GraphQL endpoint be worth adding for the mobile app?").form, "adopt");
  });
});

describe("alternatives written with code examples", () => {
  test("an example in parentheses goes, one inside a phrase keeps its words", () => {
    const s = readQuestion('When a details field carries both govspeak and HTML, should it be a hash keyed by MIME type (`{"text/html": ..., "text/govspeak": ...}`) or an array of `{content_type, content}` objects?');
    assert.equal(s.form, "alternatives");
    assert.equal(s.alternatives.length, 2);
    assert.ok(!s.alternatives.some((a) => /[{}"]/.test(a.title)), JSON.stringify(s.alternatives.map((a) => a.title)));
  });

  test("code spans that are names stay as they are, paired from the left", () => {
    const s = readQuestion("Should we add more operators (like `gt`, `lt`, `matches`) to the existing operator field?");
    assert.ok(s.alternatives.some((a) => /gt, lt, matches/.test(a.title)), JSON.stringify(s.alternatives.map((a) => a.title)));
  });
});

const REJECTED = "docs/proposals-rejected/201807-cluster-config.md";
const REJECTED_DOC = `---
type: proposal
title: Central Cluster Configuration
status: rejected
---

## Summary

A central component assigns scrape targets to each sidecar, so targets stay sticky when instances come and go.

## Motivation

Hashmod relabeling reshuffles targets whenever an instance is added.

## Proposal

Add a cluster configuration component that pushes targets to the sidecars.
`;

describe("a proposal the log rejected", () => {
  let repo: string;
  before(() => {
    repo = createGitRepo([{ message: "Proposals", files: { [REJECTED]: REJECTED_DOC, "README.md": "# Metrics\n" } }]);
  });

  test("'should we adopt X?' where X was proposed and rejected keeps what is in place, citing the rejection", async () => {
    const p = await ask(repo, "Hashmod relabeling reshuffles our scrape targets whenever we add an instance. Should we adopt a central cluster configuration component that assigns scrape targets to each sidecar?");
    const rec = recommended(p);
    assert.match(rec?.title ?? "", /^Keep/, titles(p));
    assert.ok(rec?.supports.some((id) => p.citations.find((c) => c.id === id)?.path_or_url === REJECTED), titles(p));
    assert.match(p.recommendation.rationale, /was rejected/);
  });
});
