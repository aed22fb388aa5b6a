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

describe("where the asking clause starts and which word is its verb", () => {
  test("a statement joined on with ', so' before the modal is context, not the proposal", () => {
    assert.equal(read("Thrift has no schema registry, so should we move the event encoding to Avro?"), "migration: Keep the event encoding | Move the event encoding to Avro");
  });

  test("a pronoun after ', so' points into the statement it joins", () => {
    assert.equal(read("We already run Kafka, so should we use it for audit events?"), "action: Use Kafka");
  });

  test("a result clause after the joined asking clause still goes", () => {
    assert.equal(read("Most reads hit one region, so should the gateway pin each user to a home region, so that writes stay local?"), "action: The gateway pins each user to a home region");
  });

  test("the word after a modal and its pronoun subject is the verb, even one the tagger calls a noun", () => {
    assert.equal(read("Should we shard sessions across cache nodes using consistent hashing?"), "action: Shard sessions across cache nodes using consistent hashing");
  });

  test("a clause that opens with its modal has no fronted part, even with a later auxiliary after a comma", () => {
    assert.match(read("Should we keep hosting Redis on our own VMs, patched by hand the way we do today?"), /^keep: Keep hosting Redis on our own VMs/);
  });
});

describe("a two-word name is found written as one word", () => {
  test("the alternative's terms carry the joined spelling", () => {
    const terms = (q: string) => readQuestion(q).alternatives.flatMap((a) => a.terms);
    assert.ok(terms("Should we sign the tokens with Key Vault?").includes("keyvault"));
    assert.ok(terms("Should we move the wire encoding to Cap'n Proto?").includes("capnproto"));
  });

  test("three names in a row are not joined pairwise", () => {
    const terms = readQuestion("Should we adopt Google Cloud Run?").alternatives.flatMap((a) => a.terms);
    assert.ok(!terms.includes("googlecloud") && !terms.includes("cloudrun"));
  });
});
