// A proposal ("should we adopt X?") answered by a record found through the question's subject, not through X: the
// record weighed its options against its own choice, so only the ones that speak of what the question speaks of
// are alternatives to X. The records here are written for these tests.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { synthesizeWithRules } from "../../src/core/synth/rules";
import { DraftPickerSchema, type AdrMeta, type FusedEvidence, type StageStatus } from "../../src/core/schemas";
import { adrSectionMaker } from "../helpers/adrSection";

const OK: StageStatus = { status: "ok", count: 1, ms: 1 };
const EMPTY: StageStatus = { status: "empty", count: 0, ms: 1, reason: "offline" };

const section = adrSectionMaker("ev-led");

function titlesFor(question: string, evidence: FusedEvidence[]): string[] {
  const out = synthesizeWithRules({ question, classification: { class: "open-question", confidence: 0.9, reasons: [] }, evidence, stages: { internal: OK, external: EMPTY }, configVersion: "test" });
  DraftPickerSchema.parse(out.draft);
  return out.draft.options.map((o) => o.title);
}

describe("a subject-led record's weighed options on a proposal", () => {
  const PATH = "docs/adr/0004-web-client-framework.md";
  const meta: Partial<AdrMeta> = {
    considered_options: ["Keep the web client on Vue 2", "Rewrite it in Svelte", "Rewrite it in Solid"],
    chosen_option: "Keep the web client on Vue 2",
  };
  const evidence = [
    section(PATH, "Web client framework", "Decision", "## Decision\n\nWe keep the web client on Vue 2 and revisit next year.", meta),
    section(PATH, "Web client framework", "Considered Options", "## Considered Options\n\n- Keep the web client on Vue 2\n- Rewrite it in Svelte\n- Rewrite it in Solid", meta),
  ];

  test("options that share nothing with the question are not offered as alternatives to the proposal", () => {
    const titles = titlesFor("Should we adopt Bugsnag to collect the exceptions thrown in the Vue web client?", evidence);
    assert.ok(titles.some((t) => /Bugsnag/.test(t)), titles.join(" | "));
    assert.ok(!titles.some((t) => /Svelte|Solid/.test(t)), `the framework record's other options are about another decision: ${titles.join(" | ")}`);
  });

  test("options that speak of what the question asks about are still offered", () => {
    const titles = titlesFor("Should we adopt Bugsnag in the web client before any rewrite of it?", evidence);
    assert.ok(titles.some((t) => /Rewrite it in/.test(t)), titles.join(" | "));
  });
});
