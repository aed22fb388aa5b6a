// A chosen option read from a record's prose often goes on past its name to say what the thing is for ("GitHub
// Actions CI for continuous integration"). What is in place is named by that head, and a name that is only the
// first words of a clause is not cut. Every text here is written for these tests.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { headName, synthesizeWithRules } from "../../src/core/synth/rules";
import type { AdrMeta, FusedEvidence, StageStatus } from "../../src/core/schemas";

describe("headName", () => {
  test("cuts what a name is for, where or how from the name", () => {
    assert.equal(headName("GitLab Runners for every merge request"), "GitLab Runners");
    assert.equal(headName("Kafka Connect as the only ingestion path"), "Kafka Connect");
    assert.equal(headName("Grafana"), "Grafana");
  });

  test("leaves a clause whole: what precedes the qualifier must be a name of content words", () => {
    assert.equal(headName("no longer rely on the nightly export"), "no longer rely on the nightly export");
    assert.equal(headName("move builds to hosted runners for speed"), "move builds to hosted runners for speed");
    assert.equal(headName("a single long lived deployment branch that everyone merges into"), "a single long lived deployment branch that everyone merges into");
  });
});

const OK: StageStatus = { status: "ok", count: 1, ms: 1 };

function adr(path: string, title: string, excerpt: string, meta: Partial<AdrMeta>): FusedEvidence {
  return {
    id: "ev-000000000001",
    kind: "internal",
    expert: "docs",
    source_type: "adr",
    path_or_url: path,
    line_range: { start: 1, end: 9 },
    precision_class: "section",
    title: `${title} — Decision`,
    excerpt,
    score: 1,
    rank: 1,
    fused_score: 0.01,
    experts: ["docs"],
    adr: { path, title, status: "accepted", supersedes: [], superseded_by: [], considered_options: [], section: "decision", ...meta },
  };
}

describe("what is in place, named by the head of a prose choice", () => {
  test("a proposal is answered with 'Keep <head>' cited to the record, not left undecidable", () => {
    const evidence = [
      adr("docs/rfc/rfc-031-gitlab-runners.md", "RFC-031: Use GitLab Runners for builds", "We propose to switch to GitLab Runners for every merge request build.", {
        decided_option: { name: "switch to GitLab Runners for every merge request build", range: { start: 5, end: 5 } },
      }),
    ];
    const out = synthesizeWithRules({ question: "Should we standardise on Drone for running the merge request builds of every repository?", classification: { class: "open-question", confidence: 0.9, reasons: [] }, evidence, stages: { internal: OK, external: OK }, configVersion: "t" } as never);
    const rec = out.draft.options.find((o) => o.id === out.draft.recommendation.option_id);
    assert.equal(rec?.title, "Keep GitLab Runners");
  });
});
