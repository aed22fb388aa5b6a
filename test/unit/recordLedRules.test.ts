// An open question answered by one rule of a decision that lays down several, and record titles that carry a bare
// "ADR:" label (src/core/synth/recordLed.ts).
import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import type { AdrMeta } from "../../src/core/schemas";
import { answerNamed, recordLedAnswer, type LedRecord } from "../../src/core/synth/recordLed";

function record(path: string, meta: Partial<AdrMeta>, decisionText?: string): LedRecord {
  return {
    path,
    active: true,
    meta: { path, title: "Untitled", status: "accepted", supersedes: [], superseded_by: [], considered_options: [], ...meta },
    ...(decisionText ? { decisionText } : {}),
  };
}

const noSuccessor = () => undefined;

describe("a decision made of several rules", () => {
  const decisionText = [
    "To keep plugins predictable we adopt these rules on how plugins are set up:",
    "",
    "- Plugins that talk to hardware sensors are only set up through the settings screen. Exceptions are rare.",
    "- Every other plugin may be set up in the config file or through the settings screen.",
  ].join("\n");
  const rules = record(
    "docs/adr/0004-plugin-setup.md",
    {
      title: "Plugin setup",
      decided_option: {
        name: "Rules on how plugins are set up: Plugins that talk to hardware sensors are only set…, Every other plugin may be set up in the config file",
        range: { start: 10, end: 13 },
        from_prose: true,
      },
    },
    decisionText,
  );

  it("answers with the rule about what the question asks, whole", () => {
    const led = recordLedAnswer("A customer wants to edit a file for their new thermostat. How should plugins that talk to hardware sensors be set up?", [rules], noSuccessor, 5, true);
    assert.ok(led);
    assert.equal(led.choice, "Plugins that talk to hardware sensors are only set up through the settings screen");
  });

  it("keeps the record's own name for its choice when no single rule is about the question", () => {
    const led = recordLedAnswer("How should plugins be set up?", [rules], noSuccessor, 5, true);
    assert.ok(led);
    assert.notEqual(led.choice, "Plugins that talk to hardware sensors are only set up through the settings screen");
    assert.match(led.choice, /^Plugin setup|^Rules on how plugins are set up/);
  });

  it("does not pick a list item when the choice was a listed option, not a lead-in and its rules", () => {
    const listed = record("docs/adr/0005-plugin-store.md", { title: "Plugin store", chosen_option: "SQLite", considered_options: ["SQLite", "Flat files"] }, decisionText);
    const led = recordLedAnswer("How should plugins that talk to hardware sensors store their state?", [listed], noSuccessor, 5, true);
    assert.equal(led?.choice, "SQLite");
  });
});

describe("record titles with a bare label", () => {
  for (const [title, name] of [
    ["ADR: Read models for reporting", "Read models for reporting"],
    ["Decision Record: Typing for the query layer", "Typing for the query layer"],
    ["DR012: Who may publish forms", "Who may publish forms"],
    ["Architecture Decision Record: Errors as data", "Errors as data"],
    ["TEP-0042: Step retries", "Step retries"],
    ["DRY helpers: one per module", "DRY helpers: one per module"],
  ]) {
    it(`names "${title}" as "${name}"`, () => {
      assert.equal(answerNamed(record("docs/adr/x.md", { title }), undefined), name);
    });
  }
});
