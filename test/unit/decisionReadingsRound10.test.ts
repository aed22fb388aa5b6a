// Readings of the decision model fixed in round 10 (issue 21), found by a question set written for a repository in no
// other set before the pipeline ran on it: a quoted chosen option keeps an apostrophe inside its name. Every record
// here is written for these tests.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { parseAdr } from "../../src/core/internal/adr";
import { DecisionRecordSchema, decisionModelOf, type DecisionRecord } from "../../src/core/decisions";

function model(path: string, text: string): DecisionRecord {
  const m = decisionModelOf(parseAdr(path, text));
  DecisionRecordSchema.parse(m);
  return m;
}

const record = (chosenLine: string) => `# Manage repository settings as code

* Status: accepted

## Considered Options

1. Terraform's GitHub provider
2. A settings bot

## Decision Outcome

${chosenLine}
`;

describe("a quoted chosen option", () => {
  test("an apostrophe inside the name does not close the quote", () => {
    const m = model("adr/0007-settings-as-code.md", record(`Chosen option: _"1. Terraform's GitHub provider"_, because plans are reviewable.`));
    assert.equal(m.chosen?.how, "chosen-option-line");
    assert.equal(m.chosen?.considered_index, 0);
    assert.equal(m.chosen?.name, "Terraform's GitHub provider");
  });

  test("curly and single quotes still close their own kind", () => {
    assert.equal(model("adr/0007-settings-as-code.md", record("Chosen option: “A settings bot”, because it needs no state.")).chosen?.considered_index, 1);
    assert.equal(model("adr/0007-settings-as-code.md", record("Chosen option: 'A settings bot', because it needs no state.")).chosen?.considered_index, 1);
  });
});
