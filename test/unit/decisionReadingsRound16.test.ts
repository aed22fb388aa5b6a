// Readings fixed in round 16 (issues 20 and 21), found on repositories that were in no eval set, labelled and asked
// about before the pipeline ran on them: RFC-style proposals filed in a folder that names their status, status kept
// as a "State:" line or a "Review" table cell, a design sentence that shares only the words every alternative has,
// a list confirmed by a choice that names part of one item, an option that is a bare action on "it", and a hyphenated
// option the record writes as two words. Every record here is written for these tests.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { normaliseStatus, parseAdr } from "../../src/core/internal/adr";
import { contentSignals, rfcShaped } from "../../src/core/internal/adrDetect";
import { classifyAdrs } from "../../src/core/internal/discovery";
import { DecisionRecordSchema, decisionModelOf, type DecisionRecord } from "../../src/core/decisions";
import { createGitRepo } from "../helpers/gitRepo";
import { askOffline as ask, recommendedOption as recommended } from "../helpers/ask";
import type { OptionPicker } from "../../src/core/schemas";

function titles(p: OptionPicker): string {
  return p.options.map((o) => o.title).join(" | ");
}

/** A record on another subject, so a question's record is not the only one there is. */
const UNRELATED_RECORD = "---\nstatus: accepted\n---\n\n# Keep request logs for 30 days\n\n## Proposal\n\nWe will keep request logs for 30 days.\n";

/** A git repository with these records in one commit. */
function recordsRepo(files: Record<string, string>): string {
  return createGitRepo([{ message: "records", files }]);
}

function model(path: string, text: string): DecisionRecord {
  const m = decisionModelOf(parseAdr(path, text));
  DecisionRecordSchema.parse(m);
  return m;
}

const rfc = (summary: string) =>
  `# Summary\n\n${summary}\n\n# Motivation\n\nReleases come too often for some embedders.\n\n# Proposal\n\nCut a long-lived release every year.\n\n# Rationale and alternatives\n\nWe could keep the current cadence.\n\n# Open questions\n\nNone yet.\n`;

describe("RFC-style proposals filed under a status folder", () => {
  test("three or more RFC parts make a page RFC-shaped, a part named before a colon included", () => {
    assert.equal(rfcShaped(contentSignals(rfc("Add a long-term support channel."))), true);
    assert.equal(rfcShaped(contentSignals("# Baseline compiler\n\n## Summary\n\nx\n\n## Motivation\n\ny\n\n## Proposal: a single-pass compiler\n\nz\n")), true);
    assert.equal(rfcShaped(contentSignals("# Guide\n\n## Summary\n\nx\n\n## Installing\n\ny\n")), false);
  });

  test("are records with their folder's status; other pages in that folder and RFC pages elsewhere are not", () => {
    const decided = classifyAdrs(
      [
        { path: "accepted/long-term-support.md", text: rfc("Add a long-term support channel.") },
        { path: "accepted/diagram-notes.md", text: "# Notes on the diagram\n\nThe boxes are services.\n" },
        { path: "notes/long-term-support.md", text: rfc("Add a long-term support channel.") },
      ],
      { hints: [], fromGlob: new Set() },
    );
    assert.deepEqual([...decided.adrs.keys()], ["accepted/long-term-support.md"]);
    const parsed = parseAdr("accepted/long-term-support.md", rfc("Add a long-term support channel."));
    assert.equal(parsed.status, "accepted");
  });
});

describe("status lines under other names", () => {
  test('"* State: Ready for Implementation" among the metadata lines is the status; a State line in the body is not', () => {
    assert.equal(parseAdr("0001-x.md", "# Resiliency in SDKs\n\n* Author(s): A\n* State: Ready for Implementation\n\n## Overview\n\nText.\n").status, "accepted");
    assert.equal(parseAdr("0002-x.md", "# Placement\n\n* State: Proposed\n\n## Overview\n\nText.\n").status, "proposed");
    assert.equal(parseAdr("0003-x.md", "# Workflows\n\n## Overview\n\nState: the engine keeps it in memory.\n").status, "unknown");
  });

  test('a "Review" status cell is a proposal under review', () => {
    assert.equal(normaliseStatus("Review"), "proposed");
    assert.equal(parseAdr("x.md", "# Deployment strategy\n\n| | |\n| --- | --- |\n| **Status** | Review |\n\n## What\n\nText.\n").status, "proposed");
  });
});

describe("what a proposal's own design sentences choose", () => {
  test("a sentence with only the words every alternative shares names none of them", () => {
    const m = model(
      "designs/ts-config/README.md",
      [
        "# Add support for TypeScript config files",
        "",
        "## Summary",
        "",
        "Add support for TypeScript config files.",
        "",
        "## Motivation",
        "",
        "People want type-checked configuration.",
        "",
        "## Detailed Design",
        "",
        "The linter will need to recognize and parse TypeScript configuration files in the same way it does for JavaScript ones.",
        "The tool that seems the most suitable is a loader without side effects.",
        "",
        "## Alternatives",
        "",
        "While developing this feature, we considered the following alternatives:",
        "",
        "1. Using ts-node to parse TypeScript configuration files. This hooks into module resolution.",
        "2. Using tsx to parse TypeScript configuration files. This also hooks into module resolution.",
        "",
        "## Open Questions",
        "",
        "1. Should we allow interoperability between JavaScript and TypeScript configuration files? We will see.",
        "",
      ].join("\n"),
    );
    assert.ok(!/ts-node|tsx/i.test(m.chosen?.name ?? ""), `chosen: ${m.chosen?.name}`);
  });

  test("a list is confirmed by a choice only when the choice says nearly all of one item", () => {
    const m = model(
      "rfc-136-remove-backup-cdn.md",
      [
        "---",
        "status: accepted",
        "---",
        "",
        "# Remove the backup CDN in the second cloud",
        "",
        "## Problem",
        "",
        "Failed requests are retried against three static mirrors:",
        "",
        "* origin",
        "* AWS S3",
        "* Google Cloud Storage",
        "",
        "The certificate on the Google Cloud CDN expired and fixing it would take several weeks.",
        "",
        "## Proposal",
        "",
        "We will remove the backup Google Cloud CDN.",
        "",
      ].join("\n"),
    );
    assert.match(m.chosen?.name ?? "", /remove the backup Google Cloud CDN/i);
    assert.ok(!m.considered.some((o) => o.name === "Google Cloud Storage"), JSON.stringify(m.considered.map((o) => o.name)));
  });
});

describe("what an RFC lists as alternatives is what it did not do", () => {
  const rfc153 = [
    "# Remove allowlists from Dependabot configs",
    "",
    "## Summary",
    "",
    "Our Dependabot configs list the gems it may update; security fixes for anything else are missed.",
    "",
    "## Proposal",
    "",
    "Remove all `allow` lists from the `dependabot.yml` file on every repository.",
    "",
    "## Alternatives considered",
    "",
    "### Do nothing",
    "",
    "Keep missing security fixes.",
    "",
    "### Removing dependabot.yml files altogether",
    "",
    "We would lose version updates for frameworks.",
    "",
    "## Consequences",
    "",
    "Teams will review more pull requests, though removing dependabot.yml files altogether is not what we do.",
    "",
  ].join("\n");

  test("a choice read as one of the alternatives gives way to the proposal", () => {
    const m = model("rfc-153-remove-allowlists.md", rfc153);
    assert.equal(m.chosen?.name, "Remove all allow lists from the dependabot.yml file on every repository");
    assert.ok(m.rejected.some((r) => r.name === "Removing dependabot.yml files altogether"));
  });

  test('"### Alternatives for the new class" groups alternatives: the one its text calls an alternative is read, not the heading', () => {
    const m = model(
      "designs/async-api/README.md",
      [
        "# `ESLint` class replacing `CLIEngine`",
        "",
        "## Summary",
        "",
        "Add a class with an asynchronous API.",
        "",
        "## Detailed Design",
        "",
        "The new class has only asynchronous methods.",
        "",
        "## Alternatives",
        "",
        "### Alternatives for the new class",
        "",
        "Adding a `CLIEngine#executeOnFilesAsync()` method is an alternative.",
        "",
        "- We can deprecate the synchronous version.",
        "",
      ].join("\n"),
    );
    const names = m.considered.map((o) => o.name);
    assert.ok(names.some((n) => /^Adding a CLIEngine#executeOnFilesAsync\(\) method$/.test(n)), JSON.stringify(names));
    assert.ok(!names.some((n) => /^Alternatives for/.test(n) || /deprecate the synchronous/.test(n)), JSON.stringify(names));
  });
});

describe("an RFC's proposal with the names its design builds", () => {
  const proposal = (design: string) =>
    `# Resiliency in SDKs\n\n* State: Ready for Implementation\n\n## Overview\n\nThis is a design proposal to support resiliency when SDKs call remote APIs.\n\n## Background\n\n### Motivation\n\nCalls hang when the sidecar is slow.\n\n## Expectations and alternatives\n\n1. Leave every SDK as-is.\n2. Add retry only.\n\n## Implementation Details\n\n### Design\n\n${design}\n`;

  test("code or bold names that lead the design's list items join the proposal; an example's file path does not", () => {
    const m = model("20230714-S-sdk-resiliency.md", proposal("* `API_MAX_RETRIES` defines the maximum number of retries.\n* `API_TIMEOUT_SECONDS` defines the maximum waiting time.\n* `src/example.js` shows a client.\n* SDKs retry on connection errors."));
    assert.equal(m.chosen?.name, "Resiliency in SDKs: API_MAX_RETRIES, API_TIMEOUT_SECONDS");
  });

  test("a design without named items leaves the proposal as it is", () => {
    const m = model("20230714-S-sdk-resiliency.md", proposal("SDKs retry on connection errors and give up after a timeout."));
    assert.equal(m.chosen?.name, "Resiliency in SDKs");
  });
});

describe("answers that name the option the record chose", () => {
  test('"… fix the CDN, or remove it altogether?" follows a record that removes it', async () => {
    const record = [
      "---",
      "status: accepted",
      "---",
      "",
      "# Remove the backup CDN in Google Cloud Platform (GCP)",
      "",
      "## Summary",
      "",
      "We have two backup CDNs in case the primary has an outage: AWS CloudFront and Google Cloud CDN.",
      "The cost of maintaining the Google Cloud CDN backup is significant: it is broken right now, and it would take several weeks of engineering time to fix it.",
      "",
      "## Problem",
      "",
      "Failed requests are retried against three static mirrors:",
      "",
      "* origin",
      "* AWS S3",
      "* Google Cloud Storage",
      "",
      "The certificate on the Google Cloud CDN expired, and fixing it would take several weeks.",
      "",
      "## Proposal",
      "",
      "We should remove the backup Google Cloud CDN.",
      "",
      "## Alternative option - fix the Google Cloud CDN",
      "",
      "We could spend several weeks fixing the certificate and the bucket permissions.",
      "",
    ].join("\n");
    const repo = recordsRepo({
      "rfc-136-remove-our-backup-cdn-in-gcp.md": record,
      "rfc-140-log-retention.md": UNRELATED_RECORD,
    });
    const p = await ask(repo, "Our fallback CDN on Google Cloud has an expired certificate, so failing over to it would serve errors. Should we spend the several weeks needed to fix the Google Cloud CDN, or remove it altogether?");
    assert.equal(recommended(p)?.title, "Remove it altogether", p.recommendation.rationale);
  });

  test('a record that chose a "side table" chose "our own compact side-table format"', async () => {
    const repo = recordsRepo({
      "accepted/exception-handling.md": [
        "# Summary",
        "",
        "Support the exception-handling proposal in the compiler and the runtime.",
        "",
        "# Motivation",
        "",
        "Guest languages need exceptions.",
        "",
        "# Proposal",
        "",
        "## Implementation strategies",
        "",
        "There are two feasible implementation strategies for unwinding.",
        "",
        "1. **Side table**: we store which parts of the code have handlers in a table the runtime reads when it unwinds.",
        "",
        "2. **Calling convention**: every call returns a flag that says whether an exception is in flight.",
        "",
        "A branch after every call is too costly for code that never throws.",
        "Therefore, **we will implement the side-table approach** from the beginning.",
        "",
      ].join("\n"),
    });
    const p = await ask(repo, "To support the exception-handling proposal the compiler must record where each landing pad is. Should we emit a subset of DWARF unwind information, or design our own compact side-table format?");
    assert.equal(recommended(p)?.title, "Design our own compact side-table format", p.recommendation.rationale);
  });

  test("an adopt question whose record chose something else, said only in prose, is answered with that choice", async () => {
    const repo = recordsRepo({
      "rfc-123-github-actions-ci.md": [
        "---",
        "status: accepted",
        "---",
        "",
        "# Continuous integration for every repository",
        "",
        "## Summary",
        "",
        "Some repositories run their branch builds on Travis, paid for on a card; most run them on a Jenkins box. Neither is cheap to keep.",
        "",
        "## Proposal",
        "",
        "We will switch to GitHub Actions CI for every repository's tests and linting.",
        "",
      ].join("\n"),
      "rfc-130-log-retention.md": UNRELATED_RECORD,
    });
    const p = await ask(repo, "A few newer repos run their branch builds on Travis while most build on an old Jenkins box. Should we standardise on Travis for the continuous integration of every branch across all our repos?");
    assert.match(recommended(p)?.title ?? "", /GitHub Actions/, `${titles(p)} / ${p.recommendation.rationale}`);
  });
});
