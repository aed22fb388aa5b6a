// Readings of proposal-style records (RFCs, design proposals): a paragraph that mentions options in passing is no
// announcement of the headings after it; a proposal read to its clause's end keeps its destination past a comma;
// a record that says it records "our decision to X" chose X. Every record here is written for these tests.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { parseAdr } from "../../src/core/internal/adr";
import { DecisionRecordSchema, decisionModelOf, readDecisionSentence, sentencesIn, type DecisionRecord } from "../../src/core/decisions";
import { toClauseEnd, withDefiningAside } from "../../src/core/decisions/proposal";

function model(path: string, text: string): DecisionRecord {
  const m = decisionModelOf(parseAdr(path, text));
  DecisionRecordSchema.parse(m);
  return m;
}

describe("options announced in prose", () => {
  const rfc = (paragraph: string) =>
    [
      "# Summary",
      "",
      "This RFC proposes to make the streaming parser the default for every importer.",
      "",
      "# Motivation",
      "",
      "The buffered parser runs out of memory on large uploads.",
      "",
      "# Proposal",
      "",
      paragraph,
      "",
      "## Readiness checks",
      "",
      "The streaming parser must pass the full conformance suite.",
      "",
      "## Rollout steps",
      "",
      "Flip the default in one release and remove the old parser two releases later.",
      "",
      "# Rationale and alternatives",
      "",
      "Keeping the buffered parser as the default would leave the memory problem in place.",
      "",
    ].join("\n");

  test("options and a count far apart in a paragraph announce nothing: the headings after it are parts of the design", () => {
    const m = model("text/0007-streaming-parser.md", rfc("In short, we plan to roll this out in several stages, arranged so that we still have options if a stage goes badly."));
    assert.ok(!m.considered.some((o) => /readiness|rollout/i.test(o.name)), JSON.stringify(m.considered));
    assert.match(m.chosen?.name ?? "", /streaming parser the default/);
  });

  test('"we weighed two options" right before the headings still announces them', () => {
    const m = model("text/0007-streaming-parser.md", rfc("We weighed two options for the switch:"));
    assert.deepEqual(
      m.considered.filter((o) => o.source === "considered-options").map((o) => o.name),
      ["Readiness checks", "Rollout steps"],
    );
  });

  test('"other options" names them even without a count; "other ways to do X" does not', () => {
    const looked = model("text/0007-streaming-parser.md", rfc("The parser we have cannot stay, so we need to look at other options."));
    assert.equal(looked.considered.filter((o) => o.source === "considered-options").length, 2);
    const ways = model("text/0007-streaming-parser.md", rfc("Later we may well find other ways to make the parser faster, but that is possible only after the switch."));
    assert.equal(ways.considered.filter((o) => o.source === "considered-options").length, 0);
  });
});

describe("a proposal's destination after a comma", () => {
  test('"from A, to B": the comma before the destination does not end the clause', () => {
    assert.equal(
      toClauseEnd("The billing service should move its ledger from the shared file server, to an object store with versioning.", "move its ledger from the shared file server"),
      "move its ledger from the shared file server, to an object store with versioning",
    );
  });

  test('"merge two things, A and B, into one": an aside between commas is read through to the destination', () => {
    assert.equal(toClauseEnd("We propose to fold two small services, Quotes and Orders, into one sales service.", "fold two small services"), "fold two small services, Quotes and Orders, into one sales service");
  });

  test('a purpose after the comma ("…, to make it cheaper") or an aside leading nowhere still ends the clause', () => {
    assert.equal(toClauseEnd("We will move the cache off the old hosts, to make it cheaper.", "move the cache off the old hosts"), "move the cache off the old hosts");
    assert.equal(toClauseEnd("We will move the cache from the old hosts, to reduce cost.", "move the cache from the old hosts"), "move the cache from the old hosts");
    assert.equal(toClauseEnd("We will adopt the queue, to the relief of some, for every job.", "adopt the queue"), "adopt the queue");
  });

  test("an RFC's summary that ports a store from one database to another names where it goes", () => {
    const text = "# Move the ledger\n\n## Summary\n\nThe billing team should move the ledger from its hand-run database cluster, to a managed database service.\n\n## Problem\n\nThe cluster needs constant care.\n\n## Proposal\n\nMigrate table by table.\n";
    assert.match(model("rfcs/0042-move-the-ledger.md", text).chosen?.name ?? "", /to a managed database service/);
  });
});

describe('"our decision to X"', () => {
  test("a record that says it captures our decision to X, or that we made the decision to X, chose X", () => {
    assert.equal(readDecisionSentence("This record captures our decision to publish the client libraries under the MIT licence.").chosen, "publish the client libraries under the MIT licence");
    assert.equal(readDecisionSentence("We made the decision to adopt Kafka for order events.").chosen, "Kafka");
  });

  test("the decision to X as the subject of a judgement chooses nothing", () => {
    assert.equal(readDecisionSentence("The decision to adopt Kafka was a mistake.").chosen, undefined);
    assert.equal(readDecisionSentence("Nobody remembers the decision to adopt Kafka.").chosen, undefined);
  });

  test("a What/Why/How record whose opening records the decision names it, not its title", () => {
    const text = [
      "# Team Portal - Licence for new code",
      "",
      "## What",
      "",
      "This ADR captures our decision to publish new portal code under the MIT licence from now on.",
      "",
      "## Why",
      "",
      "Nobody remembers why the old licence was picked, and our peers use permissive licences.",
      "",
      "## How",
      "",
      "Each new repository gets a LICENSE file at creation.",
      "",
      "## Alternatives",
      "",
      "Keeping the old licence was weighed and turned down.",
      "",
    ].join("\n");
    assert.match(model("docs/adr/0009-licence.md", text).chosen?.name ?? "", /MIT licence/);
  });
});

describe("what a What/Why/How record proposes", () => {
  const record = (what: string, how: string) =>
    [
      "# Team Portal - Search backend",
      "",
      "## What",
      "",
      what,
      "",
      "## Why",
      "",
      "Search over the catalogue times out on large tenants.",
      "",
      "## Goals",
      "",
      "* Answers within a second for every tenant",
      "",
      "## How",
      "",
      how,
      "",
      "## Alternatives",
      "",
      "Tuning the current database indexes was weighed and turned down.",
      "",
    ].join("\n");

  test('a numbered step in the authors\' own voice ("1. We will …") states the proposal; the title does not', () => {
    const m = model("docs/adr/0011-search.md", record("Our catalogue search is slow on large tenants and needs a new backend.", "1. We will run a dedicated OpenSearch cluster for catalogue search\n   1. It is kept in sync by the indexing job.\n2. The old search endpoint stays for one release."));
    assert.match(m.chosen?.name ?? "", /dedicated OpenSearch cluster/);
  });

  test('"This ADR defines the strategy for X" names the topic: the title that is itself a choice is read instead', () => {
    const text = record("This ADR defines the strategy for serving catalogue search across all tenants.", "Each tenant's index lives in one shared cluster.").replace("# Team Portal - Search backend", "# Move catalogue search to a shared OpenSearch cluster");
    const m = model("docs/adr/0011-search.md", text);
    assert.doesNotMatch(m.chosen?.name ?? "", /^(?:the )?strategy for/);
    assert.match(m.chosen?.name ?? "", /OpenSearch/);
  });
});

describe('"my suggestion is that we X" and a code name after a comma', () => {
  test("the authors' suggestion in the present is their proposal; one that was made may have been turned down", () => {
    assert.equal(readDecisionSentence("My suggestion is that we add a retry budget to the gateway.").chosen, "add a retry budget to the gateway");
    assert.equal(readDecisionSentence("The suggestion was to add a retry budget to the gateway.").chosen, undefined);
  });

  test("a code name right after a comma names what was just introduced, underscores kept", () => {
    assert.equal(toClauseEnd("We will add a new counter, gateway_retry_total that counts every retried call.", "add a new counter"), "add a new counter, gateway_retry_total that counts every retried call");
    assert.equal(toClauseEnd("We will add a flag, --dry-run, to the release script.", "add a flag"), "add a flag, --dry-run");
    assert.equal(toClauseEnd("We will cache the responses, e.g. the catalogue pages.", "cache the responses"), "cache the responses");
  });
});

describe("dashes written as HTML entities, and an aside that defines the proposal", () => {
  test("&mdash; and friends read as the characters they stand for", () => {
    assert.equal(sentencesIn(["Adopt Quill &mdash; a rich-text editor &mdash; for comments."], 1, 1)[0]?.text, "Adopt Quill — a rich-text editor — for comments.");
    assert.equal(sentencesIn(["Keep A &amp; B, not &foo; as written."], 1, 1)[0]?.text, "Keep A & B, not &foo; as written.");
  });

  test("an aside between dashes that says what the proposed name is goes back after that name", () => {
    assert.equal(withDefiningAside("Introduce Quill — a rich-text editor — to the comment form.", "Introduce Quill to the comment form"), "Introduce Quill (a rich-text editor) to the comment form");
    // An aside that is no definition ("— if all goes well —") stays out.
    assert.equal(withDefiningAside("Ship Quill — if all goes well — in May.", "Ship Quill in May"), "Ship Quill in May");
  });

  test("an RFC summary with an entity-dashed aside names the proposal with its definition", () => {
    const text = "# Summary\n\nIntroduce Quill &mdash; a rich-text editor &mdash; to the comment form.\n\n# Motivation\n\nPlain text comments lose formatting.\n\n# Proposal\n\nLoad the editor lazily.\n\n# Rationale and alternatives\n\nA markdown box was weighed.\n";
    assert.equal(model("accepted/rich-comments.md", text).chosen?.name, "Introduce Quill (a rich-text editor) to the comment form");
  });
});
