// Readings of the decision model fixed in round 12 (issue 21), found on records of repositories that were in no eval
// set, labelled before the extractor ran on them: options as sub-headings whose lists only argue for and against
// them, list items wrapped at the margin, a connective between "We" and its verb, and a decision sentence that goes on
// in a list after its colon. Every record here is written for these tests.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { normaliseStatus, parseAdr } from "../../src/core/internal/adr";
import { DecisionRecordSchema, decisionModelOf, type DecisionRecord } from "../../src/core/decisions";
import { readDecisionSentence } from "../../src/core/decisions/prose";

function model(path: string, text: string): DecisionRecord {
  const m = decisionModelOf(parseAdr(path, text));
  DecisionRecordSchema.parse(m);
  return m;
}

describe("options as sub-headings with pro and con lists", () => {
  const record = [
    "# Where listeners live",
    "",
    "* Status: accepted",
    "",
    "## Considered Options",
    "",
    "### Keep one folder",
    "",
    "* **Good, because:**",
    "    * nothing moves",
    "    * easy to grep",
    "* **Bad, because:**",
    "    * everything is mixed together",
    "",
    "### One folder per bounded context",
    "",
    "* **Good, because:**",
    "    * related listeners sit together",
    "    * owners are obvious",
    "* **Bad, because:**",
    "    * a large move",
    "",
    "## Decision Outcome",
    "",
    "Chosen option: `One folder per bounded context`, because ownership matters more than the move.",
  ].join("\n");

  test("each sub-heading is an option; the points under 'Good, because:' are none", () => {
    const m = model("adr/2024_01_01_listeners.md", record);
    assert.deepEqual(m.considered.map((o) => o.name), ["Keep one folder", "One folder per bounded context"]);
    assert.equal(m.chosen?.name, "One folder per bounded context");
    assert.deepEqual(m.rejected.map((r) => r.name), ["Keep one folder"]);
  });

  test("a plain list of options under a sub-heading is still a group of options", () => {
    const grouped = ["# Caches", "", "## Considered Options", "", "### In process", "", "* Caffeine", "* Guava cache", "", "### Shared", "", "* Redis", "* Memcached", "", "## Decision", "", "We will use Redis."].join("\n");
    assert.deepEqual(model("adr/0003-caches.md", grouped).considered.map((o) => o.name), ["Caffeine", "Guava cache", "Redis", "Memcached"]);
  });
});

describe("list items wrapped at the margin", () => {
  test("an options list whose items go on unindented on the next line is read whole", () => {
    const record = [
      "# Rendering Markdown",
      "",
      "## Context",
      "",
      "Three options were considered for moving this work:",
      "",
      "* Option 1: rendering is done fully in the",
      "central API;",
      "* Option 2: hybrid rendering - the API renders text but leaves",
      "placeholders for the frontends;",
      "* Option 3: all rendering is done in frontend apps.",
      "",
      "## Decision",
      "",
      "The decision was made to choose Option 1.",
    ].join("\n");
    const m = model("docs/arch/adr-004-rendering.md", record);
    assert.equal(m.considered.length, 3);
    assert.match(m.considered[0].name, /central API/);
    assert.match(m.considered[2].name, /frontend apps/);
    assert.equal(m.chosen?.considered_index, 0);
    assert.match(m.chosen?.name ?? "", /rendering is done fully in the central API/);
  });

  test("a paragraph after a blank line is no part of the list", () => {
    const record = ["# Queues", "", "## Context", "", "We considered two options:", "", "* RabbitMQ", "* SQS", "", "Both are run by the platform team.", "", "## Decision", "", "We will use SQS."].join("\n");
    assert.deepEqual(model("adr/0002-queues.md", record).considered.map((o) => o.name), ["RabbitMQ", "SQS"]);
  });
});

describe("a connective between 'We' and its verb", () => {
  test("'We therefore suggest X' reads as 'We suggest X'", () => {
    assert.equal(readDecisionSentence("We therefore suggest a nightly export job.").chosen, "nightly export job");
    assert.equal(readDecisionSentence("We now use Redis for sessions.").chosen, "Redis");
    assert.equal(readDecisionSentence("We thus adopt Gradle.").chosen, "Gradle");
  });

  test("the reading is the one without the connective", () => {
    assert.equal(readDecisionSentence("We therefore suggest a nightly export job.").cue, readDecisionSentence("We suggest a nightly export job.").cue);
  });
});

describe("a decision sentence that goes on in a list", () => {
  test("'We suggest changing the code to:' is completed by the first item", () => {
    const record = [
      "# Update events for shared blocks",
      "",
      "## Context",
      "",
      "Faking a major event was looked at, but it is messy.",
      "",
      "## Decisions",
      "",
      "We therefore suggest updating the API code to:",
      "",
      "1. receive a new `block_changed` update type",
      "2. when this update type is used, queue a job for each host document",
    ].join("\n");
    assert.equal(model("docs/arch/adr-006-events.md", record).chosen?.name, "updating the API code to receive a new block_changed update type");
  });

  test("a complete phrase before a colon is left as it is", () => {
    const record = ["# Linting", "", "## Decision", "", "We will use ESLint with these rules:", "", "- no-var", "- eqeqeq"].join("\n");
    assert.equal(model("adr/0007-linting.md", record).chosen?.name, "ESLint with these rules");
  });
});

describe("asides, contrasts and purposes inside a decision sentence", () => {
  test("an aside between dashes is skipped", () => {
    assert.equal(readDecisionSentence("All domain code—including store interfaces and business logic—must operate on domain types.").chosen, "operate on domain types");
    assert.equal(readDecisionSentence("We use Kafka – the managed one – for events.").chosen, "Kafka");
  });

  test("', not Y' turns Y down; 'not because' turns nothing down", () => {
    assert.deepEqual(readDecisionSentence("All domain code must operate on domain types, not infrastructure types such as OpenAPI schemas.").rejected, ["infrastructure types such as OpenAPI schemas"]);
    assert.deepEqual(readDecisionSentence("We will use Postgres, not MySQL.").rejected, ["MySQL"]);
    assert.deepEqual(readDecisionSentence("We use X, not because it is fast but because it is known.").rejected, []);
  });

  test("a leading purpose clause chooses nothing; the main clause after its comma does", () => {
    assert.equal(readDecisionSentence("To keep builds fast, we will use a remote cache.").chosen, "remote cache");
    assert.equal(readDecisionSentence("In order to keep builds fast, we propose a remote cache.").chosen, "remote cache");
    assert.equal(readDecisionSentence("To use Kafka, Zookeeper and Redis.").chosen, "Kafka, Zookeeper and Redis");
  });

  test("an underscore inside a name stays; emphasis underscores go", () => {
    assert.equal(readDecisionSentence("We will add `document_id` and `user_facing_version` columns to the `change_notes` table.").chosen, "add document_id and user_facing_version columns to the change_notes table");
    assert.equal(readDecisionSentence("We will use _Redis_ for caching.").chosen, "Redis");
  });
});

describe("where a record without a decision section says which option it takes", () => {
  test("'This is what we will use from now onwards' inside one option's section chooses that option", () => {
    const record = [
      "---",
      'title: "Conditionals in JSX"',
      "---",
      "",
      "## Background",
      "",
      "The `&&` operator can render `0`.",
      "",
      "## Options considered",
      "",
      "### Convert to boolean",
      "",
      "We could convert the condition to a boolean first. No lint rule enforces it.",
      "",
      "### Ternary operator",
      "",
      "The ternary operator is explicit and safe.",
      "",
      "This is what we will use from now onwards.",
      "",
      "## Consequences",
      "",
      "Many files change.",
    ].join("\n");
    const m = model("contributing/ADRs/jsx-conditionals.md", record);
    assert.equal(m.chosen?.name, "Ternary operator");
    assert.deepEqual(m.rejected.map((r) => r.name), ["Convert to boolean"]);
  });

  test("template guidance in an HTML comment is no text of the record", () => {
    const record = [
      "# TEP-0100: Skipping",
      "",
      "## Proposal",
      "",
      "<!--",
      "This is where we get down to the specifics. The \"Design Details\" section below is",
      "for the real nitty-gritty.",
      "-->",
      "",
      "We propose guarding the task only.",
    ].join("\n");
    assert.equal(model("teps/0100-skipping.md", record).chosen?.name, "guarding the task only");
  });
});

describe("a proposal weighed against its alternatives", () => {
  test("a proposal that describes its design in an alternative's words does not choose that alternative", () => {
    const record = [
      "# TEP-0200: Coscheduling pods",
      "",
      "## Proposal",
      "",
      "Pipeline pods can be scheduled to the same node by creating a placeholder pod and setting inter-pod affinity for task pods to the placeholder pod.",
      "",
      "## Alternatives",
      "",
      "### Inter-pod affinity between task pods",
      "",
      "Each pod is attracted to the first one. Fails when the first pod is gone.",
      "",
      "### Kubernetes scheduler plugin",
      "",
      "Operators would have to install a plugin.",
    ].join("\n");
    const m = model("teps/0200-coscheduling.md", record);
    assert.notEqual(m.chosen?.name, "Inter-pod affinity between task pods");
    assert.ok(m.rejected.some((r) => r.name === "Inter-pod affinity between task pods"));
  });

  test("an option named by its gerund is not what a sentence doing something else chose", () => {
    const record = [
      "# Change history",
      "",
      "## Decision",
      "",
      "We will add `document_id` columns to the `change_notes` table.",
      "",
      "## Alternatives considered",
      "",
      "### Moving change notes into the editions table",
      "",
      "This would make the editions table wider.",
    ].join("\n");
    assert.equal(model("docs/arch/adr-012-change-history.md", record).chosen?.name, "add document_id columns to the change_notes table");
  });

  test("a sentence that implements an option by its name chooses it", () => {
    const record = ["# Snapshots", "", "## Options", "", "### 1. Fetch at request time", "", "Slow.", "", "### 2. Creating separate snapshots when publishing", "", "Fast.", "", "## Decision", "", "We will implement the 'Creating separate snapshots when publishing' pattern."].join("\n");
    assert.equal(model("ADR/ADR044-snapshots.md", record).chosen?.name, "Creating separate snapshots when publishing");
  });
});

describe("more ways a decision names its choice", () => {
  test("'The preferred path forward is to use X' chooses X", () => {
    assert.equal(readDecisionSentence("The preferred path forward is to use styled components which the UI kit supports natively.").chosen, "styled components");
    assert.equal(readDecisionSentence("The best way forward is Redis.").chosen, "Redis");
  });

  test("'move away from X' turns X down, and chooses only where it moves to", () => {
    const away = readDecisionSentence("We have decided to move away from using makeStyles as it is deprecated.");
    assert.equal(away.chosen, undefined);
    assert.deepEqual(away.rejected, ["makeStyles"]);
    const to = readDecisionSentence("We will move away from Jenkins to GitHub Actions.");
    assert.equal(to.chosen, "GitHub Actions");
    assert.deepEqual(to.rejected, ["Jenkins"]);
  });

  test("a phrase that runs on to 'a library called X' chooses X", () => {
    assert.equal(readDecisionSentence("We have decided to remove redux and fetch all of our data from the APIs via a third party library called `useSWR` (a cache strategy).").chosen, "useSWR");
    assert.equal(readDecisionSentence("We will use the library named after its author.").chosen, "library named after its author");
  });

  test("'would' after anything but 'we' is a hypothetical, no plan", () => {
    assert.equal(readDecisionSentence("An attempt to replay an event history containing rejected events would encounter errors.").chosen, undefined);
    assert.equal(readDecisionSentence("We would then migrate the jobs to Nomad.").chosen !== undefined, true);
  });

  test("'we are going to X' and 'we are proposing X'", () => {
    assert.equal(readDecisionSentence("We are going to use Redis.").chosen, "Redis");
    assert.equal(readDecisionSentence("The team is going to adopt Kotlin.").chosen, "Kotlin");
    assert.equal(readDecisionSentence("We are proposing a new rendering gem.").chosen, "new rendering gem");
  });
});

describe("options whose headings are only labels", () => {
  test("'## Option 1' is named by the first sentence under it, and the decision cites it by its label", () => {
    const record = [
      "## Decision Record: Several content types in one field",
      "",
      "This document captures the options that were considered.",
      "",
      "## Option 1",
      "",
      "This option is the most verbose and nests an array of typed objects.",
      "",
      "## Option 2",
      "",
      "This option is the least verbose and keys one object by content type.",
      "",
      "## Decision",
      "",
      "The decision was made to choose Option 1. Option 2 was rejected because it is ambiguous.",
    ].join("\n");
    const m = model("docs/arch/adr-003-content-types.md", record);
    assert.deepEqual(m.considered.map((o) => o.name), ["Option 1: the most verbose and nests an array of typed objects", "Option 2: the least verbose and keys one object by content type"]);
    assert.equal(m.chosen?.considered_index, 0);
    assert.match(m.chosen?.name ?? "", /array of typed objects/);
  });
});

describe("design proposals (round 13: proposal folders, OTEP and Thanos layouts)", () => {
  test("a folder 'proposals-accepted' / 'proposals-done' / 'proposals-rejected' gives the status a record does not state", () => {
    const body = "# Ring keys\n\n## Why\n\nLookups are slow.\n\n## How\n\nWe will hash by tenant.\n";
    assert.equal(model("docs/proposals-done/202001-ring.md", body).status, "accepted");
    assert.equal(model("docs/proposals-accepted/202001-ring.md", body).status, "accepted");
    assert.equal(model("docs/proposals-rejected/202001-ring.md", body).status, "rejected");
    assert.equal(model("docs/proposals/202001-ring.md", body).status, "proposed");
  });

  test("'complete', 'completed' and 'for prototyping' are statuses", () => {
    assert.equal(normaliseStatus("complete"), "accepted");
    assert.equal(normaliseStatus("Completed"), "accepted");
    assert.equal(normaliseStatus("for prototyping, not for merging"), "proposed");
  });

  test("'This is a proposal to add X' states the proposal", () => {
    assert.equal(readDecisionSentence("This is a proposal to add an HTTP transport for the protocol.").chosen, "add an HTTP transport");
    assert.equal(readDecisionSentence("This OTEP proposes a gauge observer.").chosen, "gauge observer");
  });

  test("a proposal titled by its first heading ('## Introduce X' over '## Why', '## How') chooses X over the alternative it turns down", () => {
    const record = [
      "## Introduce a Query gRPC API",
      "",
      "## Why",
      "",
      "Queriers cannot be told apart.",
      "",
      "## How",
      "",
      "Add a gRPC service next to the HTTP one.",
      "",
      "## Alternatives",
      "",
      "The alternative to a gRPC API would be to use the HTTP APIs with flags set on startup. This is worse for the following reasons:",
      "",
      "* no typed definition",
      "* slower",
    ].join("\n");
    const m = model("docs/proposals-done/202203-grpc-query-api.md", record);
    assert.equal(m.title, "Introduce a Query gRPC API");
    assert.match(m.chosen?.name ?? "", /Query gRPC API/);
    assert.deepEqual(m.rejected.map((r) => r.name), ["use the HTTP APIs with flags set on startup"]);
  });

  test("an H1 after other headings is no title: the front matter's title is", () => {
    const record = ["---", "title: Finer query metrics", "---", "", "## Why", "", "Latency varies.", "", "## How", "", "Partition the histogram.", "", "# Alternatives", "", "* Add stats to each response"].join("\n");
    assert.equal(model("docs/proposals-accepted/202108-metrics.md", record).title, "Finer query metrics");
  });
});
