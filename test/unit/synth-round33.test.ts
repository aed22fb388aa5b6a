// Round 33 of the reader and the rules synthesizer: a record that decided against what the question proposes names
// what it did instead, and a second question after "or" / "and if not" is asked, not offered. Record texts here are
// written for these tests.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readQuestion } from "../../src/core/synth/question";
import { synthesizeWithRules } from "../../src/core/synth/rules";
import { DraftPickerSchema, type AdrMeta, type FusedEvidence, type StageStatus } from "../../src/core/schemas";
import { adrSectionMaker } from "../helpers/adrSection";

const OK: StageStatus = { status: "ok", count: 1, ms: 1 };
const EMPTY: StageStatus = { status: "empty", count: 0, ms: 1, reason: "offline" };
const classification = { class: "open-question" as const, confidence: 0.9, reasons: [] };

const adrSection = adrSectionMaker("ev-r33-");
function adr(path: string, title: string, section: string, excerpt: string, meta: Partial<AdrMeta> = {}): FusedEvidence {
  return adrSection(path, title, section, excerpt, meta);
}

function recommendedTitle(question: string, evidence: FusedEvidence[]): string | undefined {
  const draft = synthesizeWithRules({ question, classification, evidence, stages: { internal: OK, external: EMPTY }, configVersion: "test" }).draft;
  DraftPickerSchema.parse(draft);
  return draft.options.find((o) => o.id === draft.recommendation.option_id)?.title;
}

describe("a record that decided against the proposal names what it did instead", () => {
  test("a keep question's 'stop' side takes the title of the record that replaced it", () => {
    const path = "docs/adr/0007-use-elasticache-instead-of-cache-vms.md";
    const title = "Use ElastiCache instead of self-managed cache VMs";
    const evidence = [
      adr(path, title, "Decision", "## Decision\n\nWe will run every cache on ElastiCache instead of the Redis VMs that Ansible configures today, so the team stops patching cache hosts by hand.", { chosen_option: undefined }),
    ];
    const picked = recommendedTitle("Should we keep running Redis on our own VMs, configured by Ansible the way we do now?", evidence);
    assert.equal(picked, title);
  });
  test("an adopt question kept as is takes the title of the record that removed what it proposes", () => {
    const path = "docs/adr/0012-remove-the-retrybudget-object.md";
    const title = "Remove the RetryBudget object from the client API";
    const evidence = [
      adr(path, title, "Decision", "## Decision\n\nWe remove the current RetryBudget API and change every client call that accepted a RetryBudget to take the retry limits directly as plain numbers, because the object was built and thrown away on every call.", {
        // The decision model's reading: a whole sentence, too long to name an option.
        decided_option: { name: "remove the current RetryBudget API and change every client call that accepted a RetryBudget to take the retry limits directly", range: { start: 3, end: 3 } },
      }),
    ];
    const picked = recommendedTitle("Calls are slow on the hot path. Should the client API have callers build a RetryBudget object once and pass it to every request?", evidence);
    assert.equal(picked, title);
  });
});

describe("a record's choice is matched to an option by what the option is about", () => {
  test("a head noun the choice shares with the proposal ('docker') does not make it the proposal", () => {
    const path = "docs/adr/0004-docker-images.md";
    const evidence = [
      adr(path, "Docker images", "Decision", "## Decision\n\nWe will put all our effort into one docker image for every architecture, built from the Alpine Dockerfiles. The Ubuntu based image is deprecated and its last release is announced in the blog.", {
        decided_option: { name: "put all our effort into one docker image", range: { start: 3, end: 3 } },
      }),
    ];
    const picked = recommendedTitle("Some Python libraries fail to install on it. Should we ship the main Docker image on Ubuntu again?", evidence);
    assert.equal(picked, "Put all our effort into one docker image");
  });
});

describe("a second question after a comma and a coordinator is asked, not offered", () => {
  test("', or how should we …' leaves the question open", () => {
    const s = readQuestion("Is the scheduler going to run a whole workflow in one container, or how should we reuse small steps without a container each?");
    assert.equal(s.form, "open");
    assert.deepEqual(s.alternatives, []);
  });
  test("', and if not, what are …' leaves the question open", () => {
    const s = readQuestion("Will the compiler team treat this hang as a security bug with patch releases, and if not, what are embedders expected to do about it?");
    assert.equal(s.form, "open");
  });
  test("an alternative after ', or' that asks nothing stays an alternative", () => {
    const s = readQuestion("Should we run the whole workflow in one container, or give each step its own container?");
    assert.equal(s.form, "alternatives");
    assert.equal(s.alternatives.length, 2);
  });
});
