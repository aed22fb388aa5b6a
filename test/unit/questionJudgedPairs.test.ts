// Two yes/no questions joined by "or", at least one of which judges something ("is X enough", "do we still need X",
// "is X worth adopting"), are read one at a time, and each gives what a "yes" to it chooses. The judging frames are
// read on their own too: a subject ends where the judgement starts, "enough" and "fine" keep what is in place, a
// comparison judges its subject, "worth VP-ing" proposes the act, and "do we need X (to do Y)" proposes X. The
// questions are written for these tests.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readQuestion } from "../../src/core/synth/question";

const read = (q: string) => {
  const s = readQuestion(q);
  return { form: s.form, titles: s.alternatives.map((a) => a.title), incumbent: s.incumbent?.title, target: s.target?.title };
};

describe("two judged questions joined by or", () => {
  test("worth adopting, or enough: adopt one, keep the other", () => {
    const r = read("We want to stop hand-rolling retries in every HTTP client. Is resilience4j worth adopting, or is Spring Retry enough?");
    assert.deepEqual(r.titles, ["Adopt resilience4j", "Keep Spring Retry"]);
    assert.equal(r.incumbent, "Keep Spring Retry");
    assert.equal(r.target, "Adopt resilience4j");
  });

  test("still the way to go, or move: keep one, move to the other", () => {
    assert.deepEqual(read("Are feature branches still the way to go, or should we move to trunk-based development with flags?").titles, [
      "Keep feature branches",
      "Move to trunk-based development with flags",
    ]);
  });

  test("do we still need X, or would Y be enough: keep X, or Y", () => {
    assert.deepEqual(read("Do we still need Kafka's replay, or would a plain Postgres outbox table be enough for the three consumers we have?").titles, [
      "Keep Kafka's replay",
      "Adopt plain Postgres outbox table",
    ]);
  });

  test("need X to get something, or is Y enough: the need proposes X, not the purpose", () => {
    assert.deepEqual(read("Do we need a service mesh to get mTLS between services, or is cert-manager with per-service certificates enough?").titles, [
      "Adopt service mesh",
      "Keep cert-manager with per-service certificates",
    ]);
  });

  test("when both sides keep something, the second is the alternative to what is in place", () => {
    const r = read("Do we still need the Varnish layer, or is the CDN's cache good enough?");
    assert.deepEqual(r.titles, ["Keep the Varnish layer", "CDN's cache"]);
    assert.equal(r.incumbent, "Keep the Varnish layer");
  });

  test("still worth running, or pay: keep running it, or pay", () => {
    assert.deepEqual(read("Is it still worth running our own Sentry, or should we pay for the hosted plan?").titles, ["Keep running our own Sentry", "Pay for the hosted plan"]);
  });

  test("two plain proposals stay one question read by the alternatives form", () => {
    // No side judges: the shared subject and the pronoun are read across the "or" as before.
    const r = read("Should the importer keep polling the SFTP drop, or should it subscribe to S3 event notifications?");
    assert.equal(r.form, "alternatives");
    assert.equal(r.titles.length, 2);
  });
});

describe("judging frames on their own", () => {
  test("'is X enough' keeps X; 'would X be enough' proposes X", () => {
    assert.deepEqual(read("Is Spring Retry enough?").titles, ["Keep Spring Retry", "Drop Spring Retry"]);
    assert.equal(read("Would a plain Postgres outbox table be enough?").target, "Adopt plain Postgres outbox table");
  });

  test("a comparison judges its subject", () => {
    assert.equal(read("Would an S3 event notification be simpler?").target, "Adopt S3 event notification");
  });

  test("the subject ends where the judgement starts", () => {
    assert.deepEqual(read("Are the hand-run SQL scripts fine?").titles, ["Keep the hand-run SQL scripts", "Drop the hand-run SQL scripts"]);
  });

  test("'worth VP-ing X to do Y' proposes the act, with its purpose", () => {
    const r = read("Is it worth splitting the orders service's read side into its own database to stop reports slowing checkout?");
    assert.equal(r.form, "action");
    assert.match(r.target ?? "", /^Split the orders service's read side into its own database/);
  });

  test("a stranded preposition stays with its verb", () => {
    assert.equal(read("Is Terraform Cloud worth paying for?").target, "Pay for Terraform Cloud");
  });

  test("a judged act is done, not adopted", () => {
    assert.equal(read("Is configuring the sensors under the platform sections fine for new integrations?").form !== "open", true);
  });

  test("a name ending in -ing is no gerund: dropping it is 'Drop', not 'Stop'", () => {
    assert.deepEqual(read("Do we still need Spring Boot Actuator?").titles, ["Keep Spring Boot Actuator", "Drop Spring Boot Actuator"]);
  });

  test("move off X onto Y leaves X", () => {
    const r = read("Should our background jobs move off Sidekiq onto Temporal workflows?");
    assert.equal(r.incumbent, "Keep Sidekiq");
    assert.equal(r.target, "Move onto Temporal workflows");
    const s = read("Should we move the nightly exports off the cron box onto Airflow?");
    assert.equal(s.incumbent, "Keep the cron box");
    assert.equal(s.target, "Move the nightly exports onto Airflow");
  });
});

describe("a pronoun that points into the sentence before", () => {
  test("'it' is the first singular thing the sentence before names", () => {
    assert.equal(read("We keep our Terraform state in an S3 bucket with a DynamoDB lock table. Should we move it to Terraform Cloud?").target, "Move our Terraform state to Terraform Cloud");
    assert.deepEqual(read("Our nightly reports are built by a homegrown flags table that nobody understands. Should we replace it with LaunchDarkly?").titles, [
      "Keep the homegrown flags table",
      "Replace the homegrown flags table with LaunchDarkly",
    ]);
  });

  test("'them' is the first plural thing; people and 'nobody' are never it", () => {
    assert.equal(read("Our deploy scripts are bash files copied between repositories. Should we replace them with a shared GitHub Action?").target, "Replace our deploy scripts with a shared GitHub Action");
    assert.equal(read("The team built a custom ORM on top of JDBC. Should we keep it?").incumbent, "Keep the custom ORM");
    assert.equal(read("Nobody owns the old admin UI any more. Can we delete it?").target, "Delete the old admin UI");
  });

  test("a phrase that swallowed its sentence's verb is no antecedent", () => {
    const r = read("Our Python services pin dependencies with pip-tools. Should we move them to Poetry?");
    assert.ok(!/services pin/.test(r.target ?? ""), r.target);
  });

  test("a pronoun after a thing the asking sentence names stays for the within-sentence reading", () => {
    const r = read("The CDN keeps failing over. Should we spend several weeks fixing the Google Cloud CDN, or remove it altogether?");
    assert.ok(!r.titles.some((t) => /CDN keeps/.test(t)), JSON.stringify(r.titles));
  });
});

describe("more ways of asking, read as what they propose", () => {
  test("'would it be better to A, or B' weighs the two acts", () => {
    assert.deepEqual(read("Would it be better to vendor our Go dependencies or rely on the module proxy?").titles, ["Vendor our Go dependencies", "Rely on the module proxy"]);
  });

  test("after a modal and its subject comes the base form, hyphenated prefixes included", () => {
    assert.deepEqual(read("Is SQLite good enough for the desktop app's local cache, or should we embed RocksDB?").titles, ["Keep SQLite", "Embed RocksDB"]);
    assert.deepEqual(read("We're about to add search to the docs site. Should we self-host Meilisearch or use Algolia's free tier?").titles, ["Self-host Meilisearch", "Use Algolia's free tier"]);
  });

  test("'is X mature enough' weighs taking X up; 'is X good enough' keeps it", () => {
    const r = read("Is Kotlin Multiplatform mature enough, or should we keep two native codebases?");
    assert.deepEqual(r.titles, ["Adopt Kotlin Multiplatform", "Keep two native codebases"]);
    assert.equal(r.target, "Adopt Kotlin Multiplatform");
  });

  test("what stays somewhere is the subject, and the other side moves it off", () => {
    const r = read("Should error tracking stay in Sentry now that Datadog offers the same thing in the plan we already pay for?");
    assert.deepEqual(r.titles, ["Keep error tracking in Sentry", "Move error tracking off Sentry"]);
    assert.deepEqual(read("Should we stay on Java 11?").titles, ["Keep Java 11", "Drop Java 11"]);
  });
});

describe("what a judgement asks of its subject", () => {
  test("a sufficiency judgement keeps what is there; a readiness one weighs taking it up", () => {
    assert.deepEqual(read("Do we need a CDN in front of the marketing site, or is the origin fast enough?").titles, ["Adopt CDN", "Keep the origin"]);
    assert.equal(read("Is OpenTelemetry mature enough for our Go services, or should we stay on the Datadog tracer?").target, "Adopt OpenTelemetry");
  });

  test("a comparison before a later 'between A and B' is the choice", () => {
    assert.deepEqual(read("Would gRPC be a better fit than REST for the calls between the pricing and the catalogue services?").titles, ["gRPC", "REST"]);
  });
});

describe("sides read without what only sets the scene", () => {
  test("a fronted phrase is read with neither side; a quantified subject stays with its act", () => {
    assert.deepEqual(read("For secrets in local development, is a shared 1Password vault enough, or should every developer use their own Vault token?").titles, [
      "Keep the shared 1Password vault",
      "Every developer uses their own Vault token",
    ]);
  });

  test("a judged act ends before its judgement's article and adjectives", () => {
    assert.deepEqual(read("Is running Postgres in Kubernetes with an operator a reasonable choice, or should we stay on RDS?").titles, [
      "Run Postgres in Kubernetes with an operator",
      "Keep RDS",
    ]);
  });

  test("a hyphenated verb right after the subject is the verb", () => {
    assert.deepEqual(read("Should we squash-merge pull requests or keep merge commits?").titles, ["Squash-merge pull requests", "Keep merge commits"]);
  });
});

describe("an act named as the subject and judged by its effect", () => {
  test("is what is proposed", () => {
    assert.equal(read("Would adding a GraphQL layer over the REST services help the mobile team ship faster?").target, "Add a GraphQL layer over the REST services");
    assert.equal(read("Is adopting Bazel for the Java and TypeScript builds going to pay off for a team of our size?").target, "Adopt Bazel");
    assert.equal(
      read("Would moving the image resizing out of the web app into a Lambda behind CloudFront reduce our memory spikes?").target,
      "Move the image resizing out of the web app into a Lambda behind CloudFront",
    );
  });
});
