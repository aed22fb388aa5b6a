// Round 34 of the rules synthesizer: how an open question's answer is named when the decision model read the choice
// from the proposal's prose and listed it as an option itself.
import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import type { AdrMeta, FusedEvidence } from "../../src/core/schemas";
import { readQuestion, readQuestionUncached } from "../../src/core/synth/question";
import { adrChoice } from "../../src/core/synth/stance";
import { answerNamed, recordLedAnswer, type LedRecord } from "../../src/core/synth/recordLed";

function record(path: string, meta: Partial<AdrMeta>): LedRecord {
  return { path, active: true, meta: { path, title: "Untitled", status: "accepted", supersedes: [], superseded_by: [], considered_options: [], ...meta } };
}

const none = () => undefined;
const question = "Every restart of the cache node spends an hour rebuilding its lookup file and sometimes runs out of memory. What is the intended way to make startup cheap?";

describe("a choice the model read from the proposal's prose", () => {
  const proposal = (title: string, name: string) =>
    record("docs/proposals/0042-lookup-files.md", {
      title,
      // The model lists its own prose reading as the first option, beside the record's "Alternatives".
      considered_options: [name, "Parse the JSON lookup file faster", "Build the lookup file on the writer"],
      decided_option: { name, range: { start: 30, end: 30 }, from_prose: true },
    });

  it("a short clause carries the record's title, and is offered once, not again under its bare name", () => {
    const led = recordLedAnswer(question, [proposal("Binary lookup file for cache nodes", "reuse the index layout")], none, 5, true);
    assert.ok(led);
    assert.equal(led.choice, "Binary lookup file for cache nodes: reuse the index layout");
    assert.deepEqual(led.options, ["Binary lookup file for cache nodes: reuse the index layout", "Parse the JSON lookup file faster", "Build the lookup file on the writer"]);
  });

  it("a long clause says enough by itself; under a title that states the decision the clause stands as before", () => {
    const long = "write a compact binary lookup file next to every block when it is uploaded";
    assert.equal(answerNamed(proposal("Binary lookup file for cache nodes", long), long), long);
    assert.equal(answerNamed(proposal("Use a binary lookup file", "reuse the index layout"), "reuse the index layout"), "reuse the index layout");
  });

  it("the same clause on a record that lists it as an option names itself", () => {
    const listed = record("docs/adr/0043-lookup.md", {
      title: "Binary lookup file for cache nodes",
      considered_options: ["reuse the index layout", "Parse the JSON lookup file faster"],
      decided_option: { name: "reuse the index layout", range: { start: 30, end: 30 } },
    });
    assert.equal(answerNamed(listed, "reuse the index layout"), "reuse the index layout");
  });
});

describe("moving something off one place and onto another", () => {
  it("the place left behind is kept whole, without the conjunction that leads to the destination", () => {
    const read = readQuestion("Should we move the reports off the cron box and onto Airflow?");
    assert.equal(read.form, "migration");
    assert.equal(read.incumbent?.subject, "cron box");
    assert.ok(read.target?.terms.includes("airflow"));
  });

  it("an action that moves off a place onto another is not found by the place it leaves", () => {
    const read = readQuestion("Should we move the web and API servers off the old Puppet-built VMs and onto Nomad with Consul?");
    const proposal = read.target;
    assert.ok(proposal);
    assert.ok(proposal.terms.includes("nomad"), proposal.terms.join(","));
    assert.ok(!proposal.terms.some((t) => /puppet|vms?\b/.test(t)), proposal.terms.join(","));
  });
});

describe("a title in the gerund states the choice", () => {
  const section = (title: string): FusedEvidence => ({
    id: "ev-000000000001", kind: "internal", expert: "docs", source_type: "adr", path_or_url: "docs/adr/0011-deploys.md", precision_class: "section",
    title, excerpt: "We keep our tests where they are.", score: 1, rank: 1, fused_score: 1, experts: ["docs"],
    adr: { path: "docs/adr/0011-deploys.md", title, status: "accepted", supersedes: [], superseded_by: [], considered_options: [], section: "decision" },
  });
  it("'Using X for Y' chose X, as 'Use X for Y' does", () => {
    assert.equal(adrChoice(section("ADR011: Using CodePipeline and CodeBuild for deployments")), "CodePipeline and CodeBuild");
    assert.equal(adrChoice(section("Use CodePipeline for deployments")), "CodePipeline");
    assert.equal(adrChoice(section("Migrating to Postgres")), "Postgres");
  });
});

describe("text that is hardly a question", () => {
  it("a numbered fragment with a bare 'or' is read without throwing", () => {
    const read = readQuestionUncached("1. or still");
    for (const a of read.alternatives) assert.ok(a.title.trim().length > 0);
  });
});
