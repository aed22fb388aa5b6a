// How a question that names two alternatives is split when the second one is elliptical or judged: a second
// prepositional phrase stands against the first phrase with the same preposition ("in S3 …, or in the database"),
// a right side that judges its subject ("or is Luxon the better fit?") proposes that subject, and a comparison
// ("Would X be more appropriate than Y?") names both sides whole. The questions are written for these tests.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readQuestion } from "../../src/core/synth/question";

const titles = (q: string) => readQuestion(q).alternatives.map((a) => a.title);

describe("elliptical second alternatives", () => {
  test("a second phrase replaces the first phrase with the same preposition, not the last one", () => {
    assert.deepEqual(titles("Should we store uploaded avatars in S3 behind CloudFront, or in the database as bytea columns?"), [
      "Store uploaded avatars in S3 behind CloudFront",
      "Store uploaded avatars in the database as bytea columns",
    ]);
    assert.deepEqual(titles("Should internal services authenticate each other with mTLS certificates from the mesh, or with short-lived JWTs from our IdP?"), [
      "Internal services authenticate each other with mTLS certificates from the mesh",
      "Internal services authenticate each other with short-lived JWTs from our IdP",
    ]);
  });

  test("a different preposition still replaces the phrase right before the connector", () => {
    assert.deepEqual(titles("Do we version the public REST API in the URL path or with an Accept header?"), [
      "Version the public REST API in the URL path",
      "Version the public REST API with an Accept header",
    ]);
  });
});

describe("a right side that judges its subject", () => {
  test("'or is X the better fit' proposes X", () => {
    assert.deepEqual(titles("Is it time to replace Moment.js with date-fns, or is Luxon the better fit given our timezone-heavy code?"), ["Replace Moment.js with date-fns", "Adopt Luxon"]);
    assert.deepEqual(titles("Should we keep Jenkins, or would GitHub Actions be a better choice for the monorepo?"), ["Keep Jenkins", "Adopt GitHub Actions"]);
  });

  test("a right side that proposes an action keeps its verb", () => {
    assert.deepEqual(titles("Should we retry in the client, or is it better to retry in the gateway?"), ["Retry in the client", "Retry in the gateway"]);
  });
});

describe("comparisons with 'than'", () => {
  test("both sides are named whole, without the comparison or the setting", () => {
    assert.deepEqual(titles("For the mobile app's offline cache, is SQLite via Room a better choice than storing JSON blobs in DataStore?"), ["SQLite via Room", "Storing JSON blobs in DataStore"]);
    assert.deepEqual(titles("Would a message queue like RabbitMQ be more appropriate than Kafka for the order events?"), ["Message queue like RabbitMQ", "Kafka"]);
    assert.deepEqual(titles("For logging in the workers, is structlog better than the standard logging module?"), ["Structlog", "Standard logging module"]);
    assert.deepEqual(titles("Is Postgres more suitable than MongoDB here?"), ["Postgres", "MongoDB"]);
  });

  test("'is it better to A than B' weighs two ways of doing it", () => {
    assert.deepEqual(titles("Is it better to retry in the client than in the gateway?"), ["Retry in the client", "Retry in the gateway"]);
  });
});

describe("a right side that points back at the left one", () => {
  test("its object pronoun is the left verb's object", () => {
    assert.deepEqual(titles("Should we generate the client instead of writing it by hand?"), ["Generate the client", "Write the client by hand"]);
    assert.deepEqual(titles("Should we keep the cron jobs on the VM or move them to Kubernetes?"), ["Keep the cron jobs on the VM", "Move the cron jobs to Kubernetes"]);
    assert.deepEqual(titles("Should we keep using Moment.js, or drop it and write small helpers?"), ["Keep using Moment.js", "Drop Moment.js and write small helpers"]);
  });

  test("a hyphenated gerund reads as a verb", () => {
    assert.deepEqual(titles("Should we generate the API client from the OpenAPI spec instead of hand-writing it?"), ["Generate the API client from the OpenAPI spec", "Hand-write the API client"]);
  });
});

describe("a reason after 'now that'", () => {
  test("is no part of what is kept, and names no successor unless it states one", () => {
    assert.deepEqual(titles("Do we still need the Varnish layer in front of the API now that the CDN caches most responses?"), [
      "Keep the Varnish layer in front of the API",
      "Drop the Varnish layer in front of the API",
    ]);
    assert.deepEqual(titles("Do we still need to publish the legacy client module now that signed tokens are the way forward?"), ["Keep publishing the legacy client module", "Move to signed tokens"]);
  });
});

describe("noun alternatives set against each other whole", () => {
  test("a left noun inside a prepositional phrase belongs to the noun phrase before it", () => {
    assert.deepEqual(titles("Should tests hit a real Postgres in Docker rather than an in-memory H2 database?"), ["Real Postgres in Docker", "in-memory H2 database"]);
    assert.deepEqual(titles("Should we run the worker on a VM in Azure or a container in AWS?"), ["VM in Azure", "Container in AWS"]);
  });

  test("a judged subject is kept without its judgement", () => {
    assert.equal(titles("Is SQS enough for the order pipeline, or do we need Kafka's replay?")[0], "Keep SQS");
  });
});
