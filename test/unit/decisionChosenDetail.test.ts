// Readings of the decision model that read a record's choice more fully (issue 21, item 1). "We decided that X will
// Y" keeps its subject X, as "It was decided that X will Y" does. After a verb of wanting or needing, "to" and a verb
// complete it ("what we want to test") and are no purpose that ends the phrase. A record's context part that says
// "This ADR proposes to X" states the proposal the decision text only details. A proposal's statement is told in more
// detail by the next sentence of its paragraph when that sentence's subject is made of the statement's own words.
// "The solution is to X" and "our approach is to X" state the record's own proposal, as "the proposal is to X" does.
// Every record here is written for these tests.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { parseAdr } from "../../src/core/internal/adr";
import { DecisionRecordSchema, decisionModelOf, readDecisionSentence, type DecisionRecord } from "../../src/core/decisions";
import { withFollowingDetail } from "../../src/core/decisions/proposal";

function model(path: string, text: string): DecisionRecord {
  const m = decisionModelOf(parseAdr(path, text));
  DecisionRecordSchema.parse(m);
  return m;
}

describe("a decision stated as a that-clause", () => {
  test("a named subject after 'we decided that' is part of what was decided", () => {
    const r = readDecisionSentence("We decided that the billing service should send a reminder after three failed payments.");
    assert.equal(r.chosen, "billing service should send a reminder after three failed payments");
  });
  test("a first-person subject after 'decided that' is left out, as before", () => {
    assert.equal(readDecisionSentence("We decided that we will use Kafka.").chosen, "Kafka");
  });
  test("a passive after 'decided that' reads as it did", () => {
    assert.equal(readDecisionSentence("We have decided that Redis will be used for caching.").chosen, "Redis");
  });
  test("in a record, the subject the decision gives the task to is kept", () => {
    const m = model(
      "docs/adr/0004-invoice-rendering.md",
      "# 4. Rendering invoices\n\n## Status\n\nAccepted\n\n## Context\n\nInvoices are drawn in two places today.\n\n## Decision\n\nWe decided that the shared template library will render every invoice.\n\n## Consequences\n\nOne place to fix layout bugs.\n",
    );
    assert.equal(m.chosen?.name, "shared template library will render every invoice");
  });
});

describe("a verb of wanting keeps its complement", () => {
  test("'what we want to test' is not cut before 'to test'", () => {
    const r = readDecisionSentence("The split should be driven by what we want to test and what we need to stub.");
    assert.match(r.chosen ?? "", /want to test/);
  });
  test("a purpose after a named thing still ends the phrase", () => {
    const r = readDecisionSentence("We will use the staging cluster to test release candidates.");
    assert.equal(r.chosen, "staging cluster");
  });
});

describe("a proposal stated in the context part", () => {
  const record = (context: string) =>
    `# ADR 012: Splitting the parser crate\n\n## Status\n\nProposed\n\n## Context\n\nThe parser and the checker depend on each other. Each change to one rebuilds the other. Release notes list both crates. Contributors find the cycle confusing.\n\n${context}\n\n## Decision\n\n* \`Checker\` implements \`Visitor\`.\n* \`Printer\` implements \`Visitor\`.\n\n## Consequences\n\nTwo crates to publish.\n`;
  test("'This ADR proposes to X' in the context is the choice the decision's list details", () => {
    const m = model("docs/architecture/adr-012-parser-split.md", record("This ADR proposes to break the cycle by moving the shared types into a new core crate."));
    assert.match(m.chosen?.name ?? "", /^break the cycle by moving the shared types into a new core crate/);
  });
  test("a context without such a statement leaves the decision's own reading", () => {
    const m = model("docs/architecture/adr-012-parser-split.md", record("Builds take twice as long as they should."));
    assert.doesNotMatch(m.chosen?.name ?? "", /core crate/);
  });
});

describe("a proposal told in more detail by the next sentence", () => {
  const rfc = (summary: string) =>
    `# Nightly channel\n\n## Summary\n\n${summary}\n\n## Motivation\n\nUsers ask for fixes before the monthly release.\n\n## Alternatives\n\nKeep monthly releases only.\n`;
  test("a next sentence whose subject repeats the statement's words joins the name", () => {
    const m = model("accepted/nightly.md", rfc("Add a nightly channel of builds for the compiler. Nightly builds for the compiler will be published every day at midnight UTC."));
    assert.equal(m.chosen?.name, "Add a nightly channel of builds for the compiler that will be published every day at midnight UTC");
  });
  test("a next sentence about something else does not", () => {
    const m = model("accepted/nightly.md", rfc("Add a nightly channel of builds for the compiler. Release managers will review the channel monthly."));
    assert.equal(m.chosen?.name, "Add a nightly channel of builds for the compiler");
  });
  test("a next sentence that points back or ranks the thing does not", () => {
    const lines = ["Run the jobs on a shared runner pool. This will cut costs by half. The runner pool is a natural fit for bursty jobs."];
    assert.equal(withFollowingDetail(lines, { name: "Run the jobs on a shared runner pool", range: { start: 1, end: 1 } }), undefined);
  });
});

describe("the record's own solution stated as 'the solution is to X'", () => {
  test("'the heart of the solution is to X' names what is proposed", () => {
    assert.equal(readDecisionSentence("The heart of the solution is to store thumbnails beside the originals.").chosen, "store thumbnails beside the originals");
  });
  test("'our approach is to X' does too", () => {
    assert.equal(readDecisionSentence("Our approach is to shard the queue by tenant.").chosen, "shard the queue by tenant");
  });
  test("'one solution is to X' only weighs a possibility", () => {
    assert.equal(readDecisionSentence("One solution is to shard the queue by tenant.").chosen, undefined);
  });
});
