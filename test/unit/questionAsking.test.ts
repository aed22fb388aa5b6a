// How a question asks decides what it may name (issue 21): a "how" question or "is there a plan for …" asks for a
// way and proposes nothing; a wh-question picks only from what it lists; a fronted "When X happens," does not make
// a proposal a wh-question.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readQuestion } from "../../src/core/synth/question";

const titles = (q: string) => readQuestion(q).alternatives.map((a) => a.title);

describe("how a question asks", () => {
  test("'how should we <verb> X?' asks for a way: the verb phrase is the goal, not an option", () => {
    for (const q of [
      "The vendor drops a nightly database export into a bucket. How should we load that export into the warehouse every morning?",
      "How are we supposed to stop copying the same fixes into both apps?",
      "How should we set up the proxy so requests only reach healthy backends?",
    ]) {
      assert.equal(readQuestion(q).form, "open", q);
      assert.deepEqual(titles(q), [], q);
    }
  });

  test("an 'or' inside the goal of a how-question is not a choice", () => {
    const q = "How should we pass correlation IDs or trace headers between the workers?";
    assert.equal(readQuestion(q).form, "open");
  });

  test("a how-question that lists answers after a comma or colon still names them", () => {
    assert.deepEqual(titles("How should we store user sessions, in Redis or in Postgres?").length, 2);
    const colon = readQuestion("How should the gateway authenticate callers: mutual TLS, or signed tokens?");
    assert.equal(colon.form, "alternatives");
    assert.equal(colon.alternatives.length, 2);
  });

  test("'is there a plan / way for X?' asks whether a decision exists", () => {
    for (const q of [
      "Is there a plan for sharding the queue without downtime?",
      "Is there an agreed way to rotate the signing keys?",
      "Is there a plan to do the sorting in the storage nodes instead of doing it centrally?",
    ]) {
      assert.equal(readQuestion(q).form, "open", q);
    }
  });

  test("a wh-question does not propose its own verb phrase", () => {
    const q = readQuestion("What is meant to replace the old VM image for running the apps locally?");
    assert.equal(q.form, "open");
    assert.equal(readQuestion("What is our process for getting config changes onto servers that are already running?").form, "open");
  });

  test("a wh-question still picks between the alternatives it lists", () => {
    // The list after the comma is the answer set: the asking clause before it is no alternative.
    assert.deepEqual(titles("Which templating engine should render the reports, Mustache or Handlebars?"), ["Mustache", "Handlebars"]);
    assert.deepEqual(titles("Which build tool should we use, Ant, Maven, or Gradle?"), ["Ant", "Maven", "Gradle"]);
    assert.deepEqual(titles("Which of Kafka or NATS should carry the events?").length, 2);
  });

  test("a fronted 'When …,' clause is not a wh-question: the proposal after it is read", () => {
    const q = readQuestion("When a shared snippet changes, should we send a synthetic update event for each page that embeds it?");
    assert.notEqual(q.form, "open");
    assert.match(q.alternatives[0]?.title ?? "", /^Send a synthetic update event/);
  });

  test("'When should we …?' stays a wh-question", () => {
    assert.equal(readQuestion("When should we cut the next release branch?").form, "open");
  });

  test("yes-no proposals are unchanged", () => {
    assert.equal(readQuestion("Should we adopt Renovate for dependency updates?").form, "adopt");
    assert.equal(readQuestion("Is there any reason to keep the legacy XML exporter?").form !== "open", true);
  });
});
