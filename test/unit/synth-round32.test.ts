// Question readings added in the thirty-second session; the questions are written for these tests.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readQuestion } from "../../src/core/synth/question";

/** A question's reading as "form: title | title". */
function read(q: string): string {
  const s = readQuestion(q);
  return `${s.form}: ${s.alternatives.map((a) => a.title).join(" | ")}`;
}

describe("the asker's own scope after the last alternative", () => {
  test("a phrase on our things after a noun list scopes both alternatives", () => {
    assert.equal(read("Should we use Mocha or Jasmine in our browser packages?"), "alternatives: Mocha | Jasmine");
  });

  test("after prepositional alternatives with another preposition it is dropped as well", () => {
    assert.equal(read("Should we trace with Zipkin or with Jaeger across our services?"), "alternatives: Trace with Zipkin | Trace with Jaeger");
  });

  test("with the alternatives' own preposition it places the alternative and stays", () => {
    assert.equal(read("Should audit events live in Splunk or in a bucket in our own account?"), "alternatives: Audit events live in Splunk | Audit events live in a bucket in our own account");
  });
});

describe("code spans keep their sigils", () => {
  test("a leading '!!' or '@' is part of the name", () => {
    assert.equal(read("Should we coerce with `Boolean(v) &&` or `!!v &&`?"), "alternatives: Coerce with Boolean(v) && | Coerce with !!v &&");
    assert.match(read("Should we depend on `@acme/logger` or `pino`?"), /@acme\/logger/);
  });
});

describe("a time clause after the last alternative", () => {
  test("'before/after' with a gerund says when every alternative applies", () => {
    assert.equal(read("Should we squash or rebase before merging?"), "alternatives: Squash | Rebase");
    assert.equal(read("Should we run the smoke tests or the load tests after deploying?"), "alternatives: Run the smoke tests | Run the load tests");
  });

  test("when an earlier alternative has its own, each keeps it", () => {
    assert.match(read("Should we lint before committing or test after pushing?"), /after pushing/);
  });
});
