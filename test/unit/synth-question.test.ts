// The question-structure reader (src/core/synth/question.ts): every form of issue 9 §4, whole-phrase titles, and
// matching terms kept apart from the titles. Questions are written for these tests.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { readQuestion, readQuestionUncached, type QuestionStructure } from "../../src/core/synth/question";
import { decisionSentenceChoice } from "../../src/core/synth/stance";
import { thirdPerson } from "../../src/core/synth/question/verbForms";

const titles = (s: QuestionStructure) => s.alternatives.map((a) => a.title);
const alt = (s: QuestionStructure, title: string) => {
  const a = s.alternatives.find((x) => x.title === title);
  assert.ok(a, `no alternative titled ${JSON.stringify(title)} in ${JSON.stringify(titles(s))}`);
  return a;
};

describe("alternatives: A or B, A, B or C, A vs B, between A and B, A instead of B, A over B", () => {
  const cases: [string, string[]][] = [
    ["Should we use Redux or Zustand for the cart state?", ["Redux", "Zustand"]],
    ["Kafka, RabbitMQ or SQS for background jobs?", ["Kafka", "RabbitMQ", "SQS"]],
    ["MongoDB vs PostgreSQL for orders", ["MongoDB", "PostgreSQL"]],
    ["Ansible versus Terraform for provisioning the lab machines?", ["Ansible", "Terraform"]],
    ["tradeoff between polling and websockets for notifications", ["Polling", "Websockets"]],
    ["Choosing between Swagger and RAML: which should we use to document the API?", ["Swagger", "RAML"]],
    ["Should we sign receipts with HMAC instead of Ed25519?", ["HMAC", "Ed25519"]],
    ["prefer tabs over spaces for indentation?", ["Tabs", "Spaces"]],
    ["Which engine should render our export layouts: Velocity, FreeMarker or Thymeleaf?", ["Velocity", "FreeMarker", "Thymeleaf"]],
    ["Is Picocli a better fit than Apache Commons CLI for the command line?", ["Picocli", "Apache Commons CLI"]],
  ];
  for (const [q, expected] of cases) {
    test(q, () => {
      const s = readQuestion(q);
      assert.equal(s.form, "alternatives");
      assert.deepEqual(titles(s), expected);
    });
  }

  test("an 'or' inside a condition says when, not which: the question stays open", () => {
    const q = readQuestion("Backups failed twice last week. How should the ops team hear about it when a backup or restore job fails?");
    assert.equal(q.form, "open");
    assert.deepEqual(titles(q), []);
    // The alternatives themselves may be conditions, and a condition before the comma leaves the choice after it.
    assert.deepEqual(titles(readQuestion("Should we validate input when saving or when loading?")), ["Validate input when saving", "Validate input when loading"]);
    assert.deepEqual(titles(readQuestion("When a job fails, should we page the on-call engineer or open a ticket?")), ["Page the on-call engineer", "Open a ticket"]);
  });

  test("'X instead of Y': Y is what is in place today, X the proposal", () => {
    const s = readQuestion("Should we sign receipts with HMAC instead of Ed25519?");
    assert.equal(s.incumbent?.title, "Ed25519");
    assert.equal(s.target?.title, "HMAC");
  });

  test("'rather than us doing Y': a subject of its own before a gerund; Y is a whole action, not a fragment of the left side", () => {
    assert.deepEqual(titles(readQuestion("Should we use Redis rather than us running our own cache?")), ["Use Redis", "Run our own cache"]);
    const s = readQuestion("Should workers pull jobs from one shared queue that hands out leases, rather than us pushing every job to a fixed worker?");
    assert.equal(s.incumbent?.title, "Push every job to a fixed worker");
  });

  test("verb-phrase alternatives are whole phrases, not fragments", () => {
    const s = readQuestion("should we put a Varnish layer in front of the API or rely on the browser cache?");
    assert.deepEqual(titles(s), ["Put a Varnish layer in front of the API", "Rely on the browser cache"]);
  });

  test("an aside before 'or' that compares with today is no alternative", () => {
    assert.deepEqual(titles(readQuestion("The build agents need a cache. Should it keep living on each agent's disk, the way it does on the old farm today, or should we move it to a shared bucket?")), [
      "Keep living on each agent's disk",
      "Move the cache to a shared bucket",
    ]);
  });

  test("'over gRPC' names a channel, a result clause ('so nothing is lost') says why, and a cut-off ', and wait' is dropped", () => {
    const s = readQuestion("Should the relay forward every signed batch to the archive service over gRPC, and wait for the archive to confirm before moving on, so nothing is ever lost?");
    assert.deepEqual(titles(s), ["The relay forwards every signed batch to the archive service over gRPC"]);
    assert.equal(s.target?.title, "The relay forwards every signed batch to the archive service over gRPC");
    assert.deepEqual(titles(readQuestion("Should we prefer Valkey over Memcached?")), ["Valkey", "Memcached"]);
  });

  test("clause alternatives with their own subjects", () => {
    const s = readQuestion("Should the staging environment keep sharing the production database, or should staging get a database of its own?");
    assert.deepEqual(titles(s), ["Keep sharing the production database", "Get its own database"]);
  });

  test("prepositional alternatives share the clause's verb", () => {
    assert.deepEqual(titles(readQuestion("should retries be configured per call or in a shared policy?")), [
      "Configure retries per call",
      "Configure retries in a shared policy",
    ]);
    assert.deepEqual(titles(readQuestion("Should we store sessions in Redis or in Postgres?")), ["Store sessions in Redis", "Store sessions in Postgres"]);
  });

  test("a list of verb phrases after a colon, with an 'or' inside one of them", () => {
    const s = readQuestion("Which catalogue should analysts use: build our own, adopt an open-source tool like DataHub or Amundsen, or pay for Atlan?");
    assert.deepEqual(titles(s), ["Build our own", "Adopt an open-source tool like DataHub or Amundsen", "Pay for Atlan"]);
  });

  test("noun alternatives after a colon keep their phrases", () => {
    const s = readQuestion("How should support engineers get the logs: a download button in the UI, or written steps in the cloud console?");
    assert.deepEqual(titles(s), ["Download button in the UI", "Written steps in the cloud console"]);
  });

  test("an elliptical passive shares the subject: 'or be folded into …'", () => {
    const s = readQuestion("Should report rendering keep running as a separate worker, or be folded into the web process?");
    assert.deepEqual(titles(s), ["Keep running as a separate worker", "Fold report rendering into the web process"]);
  });

  test("a fronted 'what's better for …' and a later 'between … and …' are not alternatives", () => {
    assert.deepEqual(titles(readQuestion("What's better for our mobile app, React Native or Flutter?")), ["React Native", "Flutter"]);
    assert.deepEqual(titles(readQuestion("Do we go with a message queue or direct HTTP calls between the billing and invoicing services?")), [
      "Message queue",
      "Direct HTTP calls between the billing and invoicing services",
    ]);
  });

  test("a trailing purpose belongs to every alternative, and 'swap A for B' is no purpose", () => {
    assert.deepEqual(titles(readQuestion("Should we keep Moment.js or move to date-fns for date handling?")), ["Keep Moment.js", "Move to date-fns"]);
    const s = readQuestion("should we finish porting the routes to ZIO HTTP, or swap Akka for Apache Pekko?");
    assert.deepEqual(titles(s), ["Finish porting the routes to ZIO HTTP", "Swap Akka for Apache Pekko"]);
    assert.ok(alt(s, "Swap Akka for Apache Pekko").terms.includes("pekko"));
  });

  test("'Is X still good enough, or should we …' keeps X on the left", () => {
    const s = readQuestion("Is Java 8 still good enough, or should we migrate the server to Java 11?");
    assert.deepEqual(titles(s), ["Keep Java 8", "Migrate the server to Java 11"]);
  });

  test("'or not' and 'whether or not' name no second alternative", () => {
    const s = readQuestion("Should we add request tracing or not?");
    assert.notEqual(s.form, "alternatives");
    assert.deepEqual(titles(s), ["Add request tracing"]);
  });
});

describe("migration: move / migrate / switch from A to B, replace A with B", () => {
  test("move from A to B gives 'Keep A' and 'Move to B'", () => {
    const s = readQuestion("Is it time to move from cron jobs to a workflow engine for nightly reports?");
    assert.equal(s.form, "migration");
    assert.deepEqual(titles(s), ["Keep cron jobs", "Move to a workflow engine"]);
    assert.equal(s.incumbent?.title, "Keep cron jobs");
    assert.equal(s.target?.title, "Move to a workflow engine");
    assert.equal(s.purpose, "nightly reports");
  });

  test("migrate from A to B", () => {
    const s = readQuestion("Should we migrate the build from Maven to Gradle?");
    assert.deepEqual(titles(s), ["Keep the build on Maven", "Migrate to Gradle"]);
  });

  test("replace A with B, swap A for B", () => {
    assert.deepEqual(titles(readQuestion("Should we replace winston with pino?")), ["Keep winston", "Replace winston with pino"]);
    const swap = readQuestion("Should we swap the Jetty server for Netty?");
    assert.deepEqual(titles(swap), ["Keep the Jetty server", "Swap the Jetty server for Netty"]);
    assert.ok(alt(swap, "Swap the Jetty server for Netty").terms.includes("netty"));
  });

  test("move X onto B keeps X as the other option", () => {
    const s = readQuestion("considering moving our ETL scripts onto Airflow");
    assert.deepEqual(titles(s), ["Keep our ETL scripts", "Move our ETL scripts onto Airflow"]);
  });

  test("'thinking of moving X to B', 'wondering about switching to B'", () => {
    assert.deepEqual(titles(readQuestion("thinking of moving our CI to GitHub Actions")), ["Keep our CI", "Move our CI to GitHub Actions"]);
    assert.deepEqual(titles(readQuestion("wondering about switching to Vite")), ["Switch to Vite"]);
  });

  test("a comparative after a sentence about today names what is in place", () => {
    const s = readQuestion("We currently deploy with Ansible. Would Terraform be a better fit?");
    assert.deepEqual(titles(s), ["Keep Ansible", "Adopt Terraform"]);
    assert.equal(s.incumbent?.title, "Keep Ansible");
  });

  test("a trailing 'instead' replaces what the context names", () => {
    const s = readQuestion("Our nightly backup script is brittle and slow; is it time to adopt Restic instead?");
    assert.equal(s.form, "migration");
    assert.equal(s.target?.title, "Adopt Restic");
    assert.match(s.incumbent?.title ?? "", /^Keep (?:our|the) nightly backup script$/);
  });
});

describe("adopt / introduce / action", () => {
  test("adopt A gives 'Adopt A' (the current approach is added by the synthesizer)", () => {
    const s = readQuestion("Should we adopt gRPC for service-to-service calls?");
    assert.equal(s.form, "adopt");
    assert.deepEqual(titles(s), ["Adopt gRPC"]);
    assert.equal(s.purpose, "service-to-service calls");
    assert.deepEqual(alt(s, "Adopt gRPC").terms, ["grpc"]);
  });

  test("introduce A", () => {
    assert.deepEqual(titles(readQuestion("Should we introduce a feature-flag service?")), ["Adopt feature-flag service"]);
  });

  test("a verb phrase is the proposal", () => {
    assert.deepEqual(titles(readQuestion("Should we split the monolith into services?")), ["Split the monolith into services"]);
    assert.deepEqual(titles(readQuestion("Should new endpoints be written in Kotlin?")), ["Write new endpoints in Kotlin"]);
  });

  test("'is X worth adding', 'alongside Y' names what exists today", () => {
    const s = readQuestion("Would a GraphQL endpoint next to the REST API be worth adding for the mobile app?");
    assert.deepEqual(titles(s), ["Add a GraphQL endpoint next to the REST API", "Keep REST API only"]);
    assert.ok(!alt(s, "Add a GraphQL endpoint next to the REST API").terms.includes("rest api"));
  });

  test("a statement proposes nothing: a request that ends in one is open; a bare verb phrase (a TODO) still proposes", () => {
    const s = readQuestion("One container will serve the website and both mobile apps. The analytics team wants to know how many telemetry app IDs to register; retention rules differ from one product to another.");
    assert.equal(s.form, "open");
    assert.deepEqual(titles(s), []);
    assert.deepEqual(titles(readQuestion("TODO(decide): split the monolith into services")), ["Split the monolith into services"]);
  });

  test("a wh-question with no named option is open", () => {
    assert.equal(readQuestion("What should we use for caching HTTP responses?").form, "open");
    assert.equal(readQuestion("How should we version the public API?").form, "open");
    assert.equal(readQuestion("which pattern does our codebase favour for errors?").form, "open");
  });
});

describe("keep / drop", () => {
  test("keep X gives 'Keep X' and, until the evidence names a successor, stopping it", () => {
    const s = readQuestion("Should we keep storing uploads on the local disk?");
    assert.equal(s.form, "keep");
    assert.deepEqual(titles(s), ["Keep storing uploads on the local disk", "Stop storing uploads on the local disk"]);
    assert.equal(alt(s, "Stop storing uploads on the local disk").inverse, true);
    // The place is what the option is about, not the uploads.
    assert.ok(alt(s, "Keep storing uploads on the local disk").terms.includes("local disk"));
    assert.ok(!alt(s, "Keep storing uploads on the local disk").terms.includes("uploads"));
  });

  test("is X still the right choice / worth keeping / do we still need to …", () => {
    assert.deepEqual(titles(readQuestion("Is Elasticsearch still the right choice for full-text search?")), ["Keep Elasticsearch", "Drop Elasticsearch"]);
    assert.deepEqual(titles(readQuestion("Is the legacy audit table worth keeping?")), ["Keep the legacy audit table", "Drop the legacy audit table"]);
    const still = readQuestion("Do we still need to publish the SOAP client now that the REST client is the way forward?");
    assert.deepEqual(titles(still), ["Keep publishing the SOAP client", "Move to REST client"]);
  });

  test("stop using X", () => {
    assert.deepEqual(titles(readQuestion("Should we stop using Moment.js?")), ["Keep Moment.js", "Stop using Moment.js"]);
  });
});

describe("matching terms are kept apart from titles", () => {
  test("a relational phrase ('in front of the API') is context, not the option", () => {
    const s = readQuestion("should we put a Varnish layer in front of the API or rely on the browser cache?");
    const varnish = alt(s, "Put a Varnish layer in front of the API");
    assert.ok(varnish.terms.includes("varnish layer") && varnish.terms.includes("varnish"));
    assert.ok(!varnish.terms.some((t) => /\bapi\b/.test(t)));
    assert.ok(alt(s, "Rely on the browser cache").terms.includes("browser cache"));
  });

  test("topic words are what the question is about, not its options", () => {
    const s = readQuestion("Should we adopt gRPC for service-to-service calls?");
    assert.ok(s.topic.includes("service") && s.topic.includes("calls"));
    assert.ok(!s.topic.includes("grpc"));
  });

  test("editor tags are not part of the question", () => {
    const s = readQuestion("TODO(decide): should receipts live in the repo or in the user config dir?");
    assert.deepEqual(titles(s), ["Receipts live in the repo", "Receipts live in the user config dir"]);
  });
});

describe("what a Decision section commits to", () => {
  test("decision sentences that adopt, move to or replace something", () => {
    assert.equal(decisionSentenceChoice("## Decision\n\nWe will use Temporal for scheduled workflows."), "Temporal");
    assert.equal(decisionSentenceChoice("Switch to the OpenSearch client and drop the old driver."), "OpenSearch client");
    assert.equal(decisionSentenceChoice("We decided to migrate the session store to Redis."), "Redis");
  });

  test("a sentence that only describes work states no choice", () => {
    assert.equal(decisionSentenceChoice("Provide a distributed queue for outgoing mail, packaged as its own module."), undefined);
  });
});

describe("any text", () => {
  const vocabulary = ["should", "we", "use", "keep", "move", "from", "to", "or", "and", "between", "instead", "of", "over", "the", "a", "Redis", "cron", "jobs", "database", "?", ",", ";", ":", "is", "it", "time", "still", "not", "adopt", "drop", "than", "better", "be", "stored", "in", "for", "X", "Y", "'", "1.", "-", "(", ")"];
  test("never throws, and every alternative has a title and lower-case terms", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 120 }), fc.array(fc.constantFrom(...vocabulary), { maxLength: 24 }).map((w) => w.join(" "))), (text) => {
        const s = readQuestionUncached(text);
        for (const a of s.alternatives) {
          assert.ok(a.title.trim().length > 0);
          for (const t of a.terms) assert.equal(t, t.toLowerCase());
        }
      }),
      { numRuns: 400 },
    );
  });

  test("is deterministic", () => {
    const q = "Should the staging environment keep sharing the production database, or should staging get a database of its own?";
    assert.deepEqual(readQuestion(q), readQuestion(q));
  });
});

describe("the thing 'should we adopt X?' names is read whole", () => {
  test("a name of several capitalised words is read whole", () => {
    assert.deepEqual(titles(readQuestion("Should we adopt Google Cloud Build for the nightly jobs?")), ["Adopt Google Cloud Build"]);
  });

  test("a possessive owns the name after it", () => {
    assert.deepEqual(titles(readQuestion("Should we adopt Jane Doe's release-notes tool to write the changelog?")), ["Adopt Jane Doe's release-notes tool"]);
  });
});

describe("identifiers and emphasis", () => {
  test("an underscore inside a name is part of it; emphasis and code marks around words are dropped", () => {
    assert.deepEqual(titles(readQuestion("Should we bucket users on account_id or on device_id?")), ["Bucket users on account_id", "Bucket users on device_id"]);
    assert.deepEqual(titles(readQuestion("Should we use **Valkey** or `Memcached`?")), ["Valkey", "Memcached"]);
    assert.deepEqual(titles(readQuestion("Should we use _Valkey_ or Memcached?")), ["Valkey", "Memcached"]);
  });
});

describe("longer questions that still name their alternatives", () => {
  test("a phrase between the object and 'from A to B' still makes a migration", () => {
    const s = readQuestion("Should we switch the default queue for new tenants from Beanstalkd to NATS?");
    assert.equal(s.form, "migration");
    assert.deepEqual(titles(s), ["Keep the default queue for new tenants on Beanstalkd", "Switch to NATS"]);
  });

  test("a fronted phrase before the asking clause is no alternative", () => {
    const s = readQuestion("With tenants moving to the new region, should we keep the queue on Beanstalkd, or switch to NATS?");
    assert.deepEqual(titles(s), ["Keep the queue on Beanstalkd", "Switch to NATS"]);
  });
});

describe("verb forms in titles", () => {
  test("a word the tagger does not know as a verb still takes the regular third person", () => {
    assert.deepEqual(["batch", "proxy", "push", "carry", "cache", "shard"].map((v) => thirdPerson(v, false)), ["batches", "proxies", "pushes", "carries", "caches", "shards"]);
    assert.equal(thirdPerson("batch", true), "batch");
  });
});
