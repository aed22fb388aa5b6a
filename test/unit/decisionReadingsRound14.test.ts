// Readings fixed in round 14 (issues 20 and 21), found on RFC repositories that were in no eval set, labelled and
// asked about before the pipeline ran on them: one numbered folder per record, a "state:" front-matter line and the
// RFD process's own words for it, a status line that names its document kind ("RFC Status: approved"), a record
// that opens with "# Summary" (no title heading), a body that opens with a note before the heading its front-matter
// title names, "the proposal is to X" in a summary, conclusions under their own names ("# Option Chosen"), and option
// headings written "Option A): X". Every record here is written for these tests.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { normaliseStatus, parseAdr, sectionKey } from "../../src/core/internal/adr";
import { adrFolderOf, adrNameSignal, contentSignals, weakAdrContent } from "../../src/core/internal/adrDetect";
import { classifyAdrs } from "../../src/core/internal/discovery";
import { DecisionRecordSchema, decisionModelOf, optionName, type DecisionRecord } from "../../src/core/decisions";

function model(path: string, text: string): DecisionRecord {
  const m = decisionModelOf(parseAdr(path, text));
  DecisionRecordSchema.parse(m);
  return m;
}

describe("one numbered folder per record", () => {
  const rfd = (n: string, state: string, title: string) => `---\nauthors: A <a@example.com>\nstate: ${state}\n---\n\n# RFD ${n} ${title}\n\nSome prose about ${title}.\n`;

  test("a README in a zero-padded or prefixed number folder is record-shaped; year and version folders are not", () => {
    assert.equal(adrNameSignal("rfd/0042/README.md"), "numbered-folder");
    assert.equal(adrNameSignal("rfcs/rfc-42/README.md"), "numbered-folder");
    assert.equal(adrNameSignal("rfcs/tep-0007-retries/index.md"), "numbered-folder");
    assert.equal(adrNameSignal("blog/2024/README.md"), undefined);
    assert.equal(adrNameSignal("api/v2/README.md"), undefined);
    assert.equal(adrNameSignal("rfd/0042/notes.md"), undefined);
    assert.equal(adrFolderOf("rfd/0042/README.md"), "rfd");
  });

  test("the records are found by their state line and RFD title, and the README of a plain folder is not", () => {
    const decided = classifyAdrs(
      [
        { path: "rfd/0001/README.md", text: rfd("1", "publish", "Container naming") },
        { path: "rfd/0002/README.md", text: rfd("2", "predraft", "Log shipping") },
        { path: "rfd/0003/README.md", text: "# Notes\n\n* [one](../0001/README.md)\n* [two](../0002/README.md)\n" },
        { path: "lab/ex-01/README.md", text: "# Exercise one\n\nRun the script.\n" },
      ],
      { hints: [], fromGlob: new Set() },
    );
    assert.deepEqual([...decided.adrs.keys()].sort(), ["rfd/0001/README.md", "rfd/0002/README.md"]);
    assert.equal(decided.adrs.get("rfd/0001/README.md")?.folder, "rfd");
    const signals = contentSignals(rfd("9", "draft", "X"));
    assert.ok(signals.frontMatterStatus && signals.adrTitle && weakAdrContent(signals));
  });

  test("the RFD process's states are statuses", () => {
    assert.equal(normaliseStatus("publish"), "accepted");
    assert.equal(normaliseStatus("published"), "accepted");
    assert.equal(normaliseStatus("predraft"), "proposed");
    assert.equal(normaliseStatus("abandoned"), "rejected");
    assert.equal(model("rfd/0001/README.md", rfd("1", "publish", "Container naming")).status, "accepted");
  });
});

describe("RFC metadata and titles", () => {
  const sentry = [
    "- Start Date: 2022-09-20",
    "- RFC Type: informational",
    "- RFC Status: approved",
    "",
    "# Summary",
    "",
    "The webhook service retries failed builds on the main branch. It was disabled last month.",
    "The proposal is to remove the retrying entirely.",
    "",
    "# Motivation",
    "",
    "Retries hide flaky jobs.",
    "",
    "# Options Considered",
    "",
    "### Status Quo:",
    "",
    "- builds are retried once",
    "- failures page nobody",
    "",
    "### Option A): Fix the retrying",
    "",
    "More work.",
    "",
    "## Unresolved questions",
    "",
    "None.",
    "",
  ].join("\n");

  test("a status line may name its document kind; 'Status quo' is no status section", () => {
    const parsed = parseAdr("text/0012-keep-job-retrying-off.md", sentry);
    assert.equal(parsed.status, "accepted");
    assert.equal(parsed.raw_status, "approved");
    assert.equal(sectionKey("Status Quo"), undefined);
    assert.equal(sectionKey("Status"), "status");
  });

  test("a record that opens with '# Summary' is titled by its file name, and its summary's proposal is the choice", () => {
    const m = model("text/0012-keep-job-retrying-off.md", sentry);
    assert.equal(parseAdr("text/0012-keep-job-retrying-off.md", sentry).title, "Keep job retrying off");
    assert.equal(m.chosen?.name, "remove the retrying entirely");
    assert.deepEqual(
      m.considered.map((c) => c.name),
      ["Status Quo", "Fix the retrying"],
      "the status quo is one option, not its bullets; 'Option A):' is a label; a misplaced part is no option",
    );
  });

  test("joined document parts are no title either", () => {
    const parsed = parseAdr("text/0081-source-ids.md", "# Summary / Motivation\n\nWe need ids.\n\n# Background\n\nb\n");
    assert.equal(parsed.title, "Source ids");
  });

  test("a note before the heading the front-matter title names does not title the record", () => {
    const text = "---\ntitle: Implement a package override option\nstatus: withdrawn\n---\n# Withdrawal Amendment\n\nReplaced by 0036.\n\n# Implement a package override option\n\n## Summary\n\nAdd overrides.\n";
    assert.equal(parseAdr("withdrawn/0009-package-overrides.md", text).title, "Implement a package override option");
    // A front-matter title that differs from the H1 without naming a later heading leaves the H1 the title (its
    // process label is the record's number).
    const tep = "---\ntitle: Custom Tasks\nstatus: implemented\n---\n\n# TEP-0002: Enable Custom Tasks\n\n## Summary\n\ns\n";
    assert.equal(parseAdr("teps/0002-custom-tasks.md", tep).title, "Enable Custom Tasks");
  });

  test("'# Option Chosen' is the decision and names the option", () => {
    const text = [
      "- RFC Status: Decided",
      "",
      "# Summary",
      "",
      "Where file I/O on the main thread is detected.",
      "",
      "# Option Chosen",
      "",
      "The best option is __Option 2: Ingest detects it from spans.__",
      "",
      "# Options Considered",
      "",
      '## Option 1: SDKs report errors <a name="option-1"></a>',
      "",
      "Simple.",
      "",
      '## Option 2: Ingest detects it from spans <a name="option-2"></a>',
      "",
      "Central.",
      "",
    ].join("\n");
    const m = model("text/0039-file-io.md", text);
    assert.deepEqual(
      m.considered.map((c) => c.name),
      ["SDKs report errors", "Ingest detects it from spans"],
    );
    assert.equal(m.chosen?.name, "Ingest detects it from spans");
    for (const heading of ["Conclusion", "Resolution", "Outcome", "Option chosen", "Chosen option"]) assert.equal(sectionKey(heading), "decision", heading);
  });
});

describe("option names", () => {
  test("an option introduced by what it is is named by its subject", () => {
    assert.equal(optionName("RabbitMQ is an AMQP based message broker").name, "RabbitMQ");
    assert.equal(optionName("Kafka Streams are a library for stream processing").name, "Kafka Streams");
    assert.equal(optionName("This is a good option").name, "This is a good option");
    assert.equal(optionName("Option A): Remove the data").name, "Remove the data");
    assert.equal(optionName('Use Amplitude <a name="option-4"></a>').name, "Use Amplitude");
  });

  test("a colon inside code or a quotation does not end the name; one after it still glosses", () => {
    assert.equal(optionName('Use `{ "lazy": true }` in the manifest').name, 'Use { "lazy": true } in the manifest');
    assert.equal(optionName("Queue (Redis): a list per worker").name, "Queue (Redis)");
  });
});

describe("records with a metadata list and no title heading", () => {
  const buildpack = [
    "# Meta",
    "[meta]: #meta",
    "- Name: Migrate to the Shared Chat",
    "- Start Date: 2021-12-07",
    "- Status: Implemented <!-- Acceptable values: Draft, Approved, On Hold, Superseded -->",
    "- Supersedes: N/A",
    "",
    "# Summary",
    "",
    "Move our chat to the foundation's shared instance.",
    "",
    "# Motivation",
    "",
    "Spam control.",
    "",
    "# Alternatives",
    "",
    "- Keep using our own chat",
    "- Use the other shared chat instance, which the foundation also provides. It has more users.",
    "",
  ].join("\n");

  test("the metadata names the record; a template's comment on the status line is no status", () => {
    const parsed = parseAdr("text/0099-chat.md", buildpack);
    assert.equal(parsed.title, "Migrate to the Shared Chat");
    assert.equal(parsed.status, "accepted");
    assert.equal(normaliseStatus("Approved <!-- Acceptable values: Draft, Approved, Superseded -->"), "accepted");
  });

  test("the title's proposal is chosen, never a turned-down alternative that shares its words", () => {
    const m = model("text/0099-chat.md", buildpack);
    assert.equal(m.chosen?.name, "Migrate to the Shared Chat");
    assert.ok(m.considered.some((c) => c.name === "Use the other shared chat instance"), "an option is named before its relative clause");
  });

  test("a file name with an RFC prefix is humanised without it", () => {
    assert.equal(parseAdr("rfc-045-consolidate-sidekiq-usage.md", "## Problem\n\nMany apps.\n\n## Proposal\n\nA gem.\n").title, "Consolidate sidekiq usage");
  });
});

