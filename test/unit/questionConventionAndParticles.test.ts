// "Is there a house X?" asks which one the team goes by (an open question), and a moving verb's particle ("over to")
// is not part of what is moved (src/core/synth/question/asking.ts, migration.ts).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readQuestion } from "../../src/core/synth/question";

describe("asking for the convention the team goes by", () => {
  for (const q of [
    "Before I write the cleanup job: is there a house language the platform team expects scripts to be written in?",
    "Is there a standard logging library we should use in new services?",
    "Is there a preferred format for migration files here?",
  ]) {
    test(`"${q.slice(0, 50)}…" is open and names no option`, () => {
      const s = readQuestion(q);
      assert.equal(s.form, "open");
      assert.deepEqual(s.alternatives, []);
    });
  }

  test("an existential question about something else still reads as before", () => {
    assert.notEqual(readQuestion("Is there any reason to keep the nightly batch job now that events stream in?").form, "open");
  });
});

describe("a moving verb's particle", () => {
  test("'move X over to Y' keeps X, not 'X over'", () => {
    const s = readQuestion("Should we move the billing service's scheduling over to Temporal?");
    assert.equal(s.incumbent?.title, "Keep the billing service's scheduling");
    assert.match(s.target?.title ?? "", /to Temporal$/);
  });
});
