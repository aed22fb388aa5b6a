// Answers led by the deciding record (src/core/synth/recordLed.ts): which retrieved record decides a question that
// names one thing or none, what it offers as options, and how sure the answer may be.
import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import type { AdrMeta } from "../../src/core/schemas";
import { answerNamed, chosenOf, decisionInBrief, optionLabel, recordLedAnswer, recordOptions, type LedRecord } from "../../src/core/synth/recordLed";

function record(path: string, meta: Partial<AdrMeta>, active = true): LedRecord {
  return {
    path,
    active,
    meta: { path, title: "Untitled", status: "accepted", supersedes: [], superseded_by: [], considered_options: [], ...meta },
  };
}

const noSuccessor = () => undefined;

describe("recordLedAnswer", () => {
  const styling = record("docs/decisions/0007-styling.md", {
    title: "Introduce a CSS utility framework for component styling",
    considered_options: ["Customise the component library", "Tailwind", "Pollen CSS"],
    decided_option: { name: "Pollen CSS", range: { start: 20, end: 21 } },
  });
  const logging = record("docs/decisions/0003-logging.md", { title: "Structured logging", chosen_option: "JSON lines" });

  it("answers an open question from the best-ranked record about it: its choice first, then what it weighed", () => {
    const led = recordLedAnswer("Our new widgets look different from the old ones. How should we style components from now on?", [styling, logging], noSuccessor, 5);
    assert.ok(led);
    assert.equal(led.doc.path, styling.path);
    assert.equal(led.choice, "Pollen CSS");
    assert.deepEqual(led.options, ["Pollen CSS", "Customise the component library", "Tailwind"]);
  });

  it("skips a record whose headline shares nothing with what the question asks", () => {
    const led = recordLedAnswer("Which message broker should the billing service publish invoices to?", [styling, logging], noSuccessor, 5);
    assert.equal(led, undefined);
  });

  it("an open question in other words than any headline: the best-ranked record answers, at low confidence", () => {
    const q = "Which message broker should the billing service publish invoices to?";
    const led = recordLedAnswer(q, [styling, logging], noSuccessor, 5, true);
    assert.equal(led?.doc.path, styling.path);
    assert.equal(led?.confidence, "low");
    // Only the best-ranked one: a deeper record still needs the question's words in its headline, so a first
    // record that states no choice answers with its design, by its title, and only at low confidence.
    const noChoice = record("docs/decisions/0001-notes.md", { title: "Meeting notes" });
    const byTitle = recordLedAnswer(q, [noChoice, logging], noSuccessor, 5, true);
    assert.equal(byTitle?.doc.path, noChoice.path);
    assert.equal(byTitle?.choice, "Meeting notes");
    assert.equal(byTitle?.confidence, "low");
  });

  it("a record that turned the proposed thing down is about it, though its title names neither", () => {
    const auth = record("adr/0001-authentication.md", {
      title: "Authentication",
      status: "unknown",
      decided_option: { name: "Keycloak", range: { start: 30, end: 30 } },
      rejected_options: [{ name: "Firebase Auth", range: { start: 12, end: 12 } }],
    });
    const led = recordLedAnswer("We need sign-up and password resets. Should we adopt Firebase Auth for this?", [auth, logging], noSuccessor, 5);
    assert.equal(led?.doc.path, auth.path);
    assert.equal(led?.choice, "Keycloak");
    assert.deepEqual(led?.options, ["Keycloak", "Firebase Auth"]);
    assert.equal(led?.confidence, "med");
  });

  it("follows a superseded record to its in-force successor", () => {
    const old = record("adr/0002-queue.md", { title: "Message queue for mail", status: "superseded", superseded_by: ["adr/0009-queue.md"], chosen_option: "RabbitMQ" }, false);
    const successor = record("adr/0009-queue.md", { title: "Move the mail queue to Pulsar", chosen_option: "Pulsar" });
    const led = recordLedAnswer("What should the mail queue run on?", [old, logging], (d) => (d === old ? successor : undefined), 5);
    assert.ok(led);
    assert.equal(led.doc.path, successor.path);
    assert.equal(led.via?.path, old.path);
    assert.equal(led.choice, "Pulsar");
  });

  it("never answers from a rejected record, nor from a retired one whose successor was not retrieved", () => {
    const rejected = record("adr/0004-mail-queue.md", { title: "Mail queue on Kafka", status: "rejected", chosen_option: "Kafka" }, false);
    const retired = record("adr/0005-mail-queue.md", { title: "Mail queue on ActiveMQ", status: "superseded", chosen_option: "ActiveMQ" }, false);
    assert.equal(recordLedAnswer("What should the mail queue run on?", [rejected, retired], noSuccessor, 5), undefined);
  });

  it("claims at most med: med for the best-ranked record sharing two asked words, low otherwise", () => {
    const top = recordLedAnswer("How should we style components?", [styling], noSuccessor, 5);
    assert.equal(top?.confidence, "med");
    const second = recordLedAnswer("How should we style components?", [logging, styling], noSuccessor, 5);
    assert.equal(second?.doc.path, styling.path);
    assert.equal(second?.confidence, "low");
    const proposed = recordLedAnswer("How should we style components?", [record(styling.path, { ...styling.meta, status: "proposed" })], noSuccessor, 5);
    assert.equal(proposed?.confidence, "low");
  });
});

describe("chosenOf and recordOptions", () => {
  it("reads the chosen option, else a title that states the decision, else nothing", () => {
    assert.equal(chosenOf(record("a.md", { title: "x", chosen_option: "CUID2." }).meta), "CUID2");
    assert.equal(chosenOf(record("a.md", { title: "ADR 12: Use pytest for verifying transformations" }).meta), "Use pytest for verifying transformations");
    assert.equal(chosenOf(record("a.md", { title: "Temporary file leaks" }).meta), undefined);
    const sentence = "keep the sequential execution property of the task manager while letting every node of the cluster pick up work";
    // A choice stated at length is still the record's choice, shown cut to its first words.
    assert.equal(chosenOf(record("a.md", { title: "Work queue", decided_option: { name: sentence, range: { start: 1, end: 1 } } }).meta), "Keep the sequential execution property of the task manager while letting every…");
  });

  it("keeps a long prose choice (cut) rather than dropping the record, unless the title states the decision", () => {
    const long = "a shared cache tier as the single store for every rendered fragment across all of the regional web nodes";
    assert.equal(chosenOf(record("a.md", { title: "Fragment caching", decided_option: { name: long, range: { start: 3, end: 3 } } }).meta), "A shared cache tier as the single store for every rendered fragment…");
    assert.equal(chosenOf(record("a.md", { title: "Use a shared cache tier", decided_option: { name: long, range: { start: 3, end: 3 } } }).meta), "Use a shared cache tier");
  });

  it("lets the best-ranked record answer with its long choice instead of passing to a lower one", () => {
    const long = "a shared cache tier as the single store for every rendered fragment across all of the regional web nodes";
    const docs = [
      record("docs/adr/0007-fragment-cache.md", { title: "Fragment cache", decided_option: { name: long, range: { start: 3, end: 3 } } }),
      record("docs/adr/0002-cache-keys.md", { title: "Cache keys", chosen_option: "Hash the URL" }),
    ];
    const led = recordLedAnswer("Should we give each web node its own fragment cache?", docs, noSuccessor, 5);
    assert.equal(led?.doc.path, "docs/adr/0007-fragment-cache.md");
  });

  it("offers at most the limit, the choice first, without repeats", () => {
    const meta = record("a.md", {
      title: "x",
      considered_options: ["A", "pollen css", "B", "C", "D", "E"],
      rejected_options: [{ name: "F", range: { start: 1, end: 1 } }],
    }).meta;
    assert.deepEqual(recordOptions(meta, "Pollen CSS", 5), ["Pollen CSS", "A", "B", "C", "D"]);
  });

  it("shows an option written out at length cut with an ellipsis, and the chosen one spelled out only once", () => {
    const meta = record("a.md", {
      title: "x",
      considered_options: [
        "Count page views only when we know which campaign showed the banner",
        "Count page views, not by campaign name, but by a placement id such as the slot key of the banner",
        "Tag each banner with its campaign name, so the name travels with every view event",
      ],
    }).meta;
    assert.deepEqual(recordOptions(meta, "Tag each banner with its campaign name", 5), [
      "Tag each banner with its campaign name",
      "Count page views only when we know which campaign showed the banner",
      "Count page views, not by campaign name, but by a placement id…",
    ]);
  });
});

describe("decisionInBrief: what the nearest record decided, when it names no short option", () => {
  it("cuts a long chosen sentence to its first clause, or to twelve words", () => {
    const meta = record("adr/0003-x.md", { decided_option: { name: "a shared staging cluster in its own network, because the bootstrap wait dominated every run", range: { start: 9, end: 9 } } }).meta;
    assert.equal(decisionInBrief(meta), "A shared staging cluster in its own network");
    const long = record("adr/0004-x.md", { decided_option: { name: "one two three four five six seven eight nine ten eleven twelve thirteen fourteen", range: { start: 9, end: 9 } } }).meta;
    assert.equal(decisionInBrief(long), "One two three four five six seven eight nine ten eleven twelve…");
  });
  it("reads the decision section's main clause, and a list it announces", () => {
    const meta = record("adr/0005-logs.md", { title: "Frontend logs" }).meta;
    assert.equal(decisionInBrief(meta, "## Decision\n\nSince the logger takes an extra field, we will:\n\n- attach the screen name to every entry\n- keep messages short\n"), "Attach the screen name to every entry; keep messages short");
    assert.equal(decisionInBrief(meta, "## Decision\n\nAll services emit JSON lines to stdout. A sidecar ships them.\n"), "All services emit JSON lines to stdout");
    assert.equal(decisionInBrief(meta, "## Decision\n\n| a | b |\n"), undefined);
  });
  it("an open question's nearest record with only prose in its decision section still answers, at low confidence", () => {
    const logs = { ...record("adr/0005-logs.md", { title: "Frontend logs" }), decisionText: "## Decision\n\nAll services emit JSON lines to stdout.\n" };
    const led = recordLedAnswer("Support can't read our error reports. How should we change that?", [logs], noSuccessor, 5, true);
    assert.equal(led?.choice, "Frontend logs: all services emit JSON lines to stdout");
    assert.equal(led?.confidence, "low");
    // Not for a question that names a proposal: there the record must name an option.
    assert.equal(recordLedAnswer("Should we adopt Sentry for error reports?", [logs], noSuccessor, 5, false), undefined);
  });
});

describe("answerNamed: how an open question's answer names what the record decided", () => {
  const q = "Outgoing mail from one tenant swamped our relays last week. What should we do about it?";
  it("a clause read from the record's prose carries the record's title; a listed option names itself", () => {
    const prose = record("adr/0053-email-rate-limiting.md", { title: "53. Email rate limiting", decided_option: { name: "form of an extension jar", range: { start: 30, end: 30 } } });
    assert.equal(recordLedAnswer(q, [prose], noSuccessor, 5, true)?.choice, "Email rate limiting: form of an extension jar");
    const suffixed = record("adr/0004-partitions.md", { title: "Partition strategy - ADR 004", decided_option: { name: "one folder per department and year", range: { start: 9, end: 9 } } });
    assert.equal(answerNamed(suffixed, "One folder per department and year"), "Partition strategy: one folder per department and year");
    const listed = record("adr/0054-relay.md", {
      title: "Relay limits",
      considered_options: ["Per-tenant quotas", "A global cap"],
      decided_option: { name: "Per-tenant quotas", range: { start: 20, end: 20 } },
    });
    assert.equal(answerNamed(listed, "Per-tenant quotas"), "Per-tenant quotas");
  });
  it("a listed option that is an action carries the record's title, unless it already names most of the title", () => {
    const caching = record("rfc/0031-thumbnail-cache.md", {
      title: "RFC 031: Thumbnail cache",
      considered_options: ["Put a small queue in front of the resizer service", "Resize on every request"],
      chosen_option: "Put a small queue in front of the resizer service",
    });
    assert.equal(answerNamed(caching, "Put a small queue in front of the resizer service"), "Thumbnail cache: put a small queue in front of the resizer service");
    // A title that states a decision no longer replaces the record's own listed action.
    const titled = record("adr/0040-move-thumbnails.md", { title: "Move thumbnails to object storage", considered_options: ["Serve every image from the bucket behind a CDN"], chosen_option: "Serve every image from the bucket behind a CDN" });
    assert.equal(answerNamed(titled, "Serve every image from the bucket behind a CDN"), "Move thumbnails to object storage: serve every image from the bucket behind a CDN");
    // An action that already says most of what the title does stands alone.
    const said = record("adr/0041-thumbnail-resizing.md", { title: "Thumbnail resizing", considered_options: ["Resize thumbnails in a background worker"], chosen_option: "Resize thumbnails in a background worker" });
    assert.equal(answerNamed(said, "Resize thumbnails in a background worker"), "Resize thumbnails in a background worker");
    // An action already cut to fit keeps the whole label to itself.
    assert.equal(answerNamed(caching, "Put a small queue in front of the resizer service and…"), "Put a small queue in front of the resizer service and…");
  });
  it("a title that states the decision says it better than a clause of its prose; a clause naming most of the title stands alone", () => {
    const titled = record("adr/0009-singletons.md", { title: "Avoid global singletons" });
    assert.equal(answerNamed(titled, "Services receive their collaborators through constructors"), "Avoid global singletons");
    const api = record("adr/0010-api.md", { title: "API v3 for client endpoints" });
    assert.equal(answerNamed(api, "Implement a new v3 API with plain JSON bodies"), "Implement a new v3 API with plain JSON bodies");
    // Only a capitalised ordinary first word is lowered after the colon: a product name keeps its case.
    assert.equal(answerNamed(record("adr/0011-x.md", { title: "Component typing" }), "React.FC should be avoided"), "Component typing: React.FC should be avoided");
  });
  it("a record that states no choice is named by its title and the heading retrieval found, after any record that does state one", () => {
    const basics = { ...record("adr/0010-api-basics.md", { title: "API basics" }), topicalHeadings: ["Pagination", "Error responses"] };
    const paging = "Clients want to page through long result lists. How should the new routes do it?";
    const led = recordLedAnswer(paging, [basics], noSuccessor, 5, true);
    assert.equal(led?.choice, "API basics: Pagination");
    assert.equal(led?.confidence, "low");
    assert.equal(led?.byDesign, true, "the answer says the record states no choice");
    // The best-ranked record answers by its design before a deeper record answers by the choice it states.
    const cursors = record("adr/0012-paging.md", { title: "Paging of result lists", chosen_option: "Cursor-based paging" });
    const first = recordLedAnswer(paging, [basics, cursors], noSuccessor, 5, true);
    assert.equal(first?.doc.path, basics.path);
    assert.equal(first?.choice, "API basics: Pagination");
    // A deeper record still answers when the best-ranked one cannot: it was turned down.
    const turnedDown = record("adr/0009-offsets.md", { title: "Offset paging", status: "rejected" }, false);
    const stated = recordLedAnswer(paging, [turnedDown, cursors], noSuccessor, 5, true);
    assert.equal(stated?.choice, "Cursor-based paging");
    assert.equal(stated?.byDesign, undefined);
    // A question that names a proposal is never answered by a title alone.
    assert.equal(recordLedAnswer("Should we adopt offset paging for the new routes?", [basics], noSuccessor, 5), undefined);
  });
});

describe("optionLabel: an option listed with its description reads as its short name", () => {
  it("names it by what precedes a colon, unless that colon is inside code or a quotation", () => {
    assert.equal(optionLabel("Preview channel: a separate channel that only testers subscribe to"), "Preview channel");
    assert.equal(optionLabel('Set { "lazy": true } on every route we lazy-load'), 'Set { "lazy": true } on every route we lazy-load');
  });
});
