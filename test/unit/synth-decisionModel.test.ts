// The rules synthesizer follows each record's decision model (src/core/decisions/, issue 21): on a real git
// repository, deliberated offline, the recommendation is what the in-force record chose, a one-thing question is
// answered among the options the record weighed, a turned-down option quotes the record's reason with its lines,
// and a question no record is about is undecidable, never "high", naming the nearest record. The records are
// written for these tests.
import { describe, test, before } from "node:test";
import assert from "node:assert/strict";
import { deliberate } from "../../src/core/pipeline";
import { generateSigningKey } from "../../src/core/receipts/signing";
import { receiptToMarkdown } from "../../src/core/render";
import { UNDECIDABLE, type FusedEvidence, type OptionPicker, type Receipt } from "../../src/core/schemas";
import { createGitRepo } from "../helpers/gitRepo";

const key = generateSigningKey();

const STYLING = "docs/adr/0002-styling-of-new-components.md";
const STYLING_ADR = `# 2. Styling of new components

Date: 2025-03-04

## Context and Problem Statement

Each new component brings its own stylesheet, and the styles drift apart. How should new components be styled?

## Considered Options

* Hand-written CSS modules
* Tailwind utility classes
* Vanilla Extract

## Decision Outcome

We will style new components with Vanilla Extract, because its styles are typed and live next to the component.
We decided against Tailwind utility classes because they add an extra build step to every package.

### Consequences

* Designers review the theme contract in one file.
`;

const ORDERS_ADR = `# 3. Keep orders in PostgreSQL

## Status

Accepted

## Context

Orders need transactions across the order and payment tables, and finance reports join them.

## Decision

We will keep orders in PostgreSQL and reach it through the repository layer.

## Consequences

Schema changes go through reviewed migrations.
`;

const RECORDS_ADR = `# 1. Record architecture decisions

## Status

Accepted

## Context

We need to remember why the system looks the way it does.

## Decision

We will write a short record for every decision that shapes the architecture.
`;

async function ask(repo: string, question: string): Promise<{ payload: OptionPicker; receipt: Receipt; evidence: FusedEvidence[] }> {
  const out = await deliberate({ repo, question, signingKey: key, useCache: false, writeReceipt: false, config: { offline: true } });
  assert.equal(out.kind, "deliberated");
  if (out.kind !== "deliberated") throw new Error("not deliberated");
  return { payload: out.payload, receipt: out.receipt, evidence: out.evidence };
}

function recommended(p: OptionPicker) {
  return p.options.find((o) => o.id === p.recommendation.option_id);
}

describe("answers that follow the decision model", () => {
  let repo: string;
  before(() => {
    repo = createGitRepo([
      { message: "Record architecture decisions", files: { "docs/adr/0001-record-architecture-decisions.md": RECORDS_ADR, "README.md": "# Shop\n\nA small web shop.\n" } },
      { message: "Decide how new components are styled", files: { [STYLING]: STYLING_ADR } },
      { message: "Decide where orders live", files: { "docs/adr/0003-keep-orders-in-postgresql.md": ORDERS_ADR } },
    ]);
  });

  test("a question that names one thing is answered among the options the record weighed, following what it chose in prose", async () => {
    const { payload: p, receipt } = await ask(repo, "Should we switch component styling to Tailwind utility classes?");
    const titles = p.options.map((o) => o.title);
    assert.ok(titles.length <= 5, "at most five options");
    for (const name of ["Tailwind", "Vanilla Extract", "CSS modules"]) assert.ok(titles.some((t) => t.includes(name)), `"${name}" is an option of its own: ${titles.join(" | ")}`);
    const rec = recommended(p);
    assert.match(rec?.title ?? "", /Vanilla Extract/, "the record's chosen option is recommended (it has no 'Chosen option:' line)");
    const cited = new Set(rec!.supports.map((id) => p.citations.find((c) => c.id === id)?.path_or_url));
    assert.ok(cited.has(STYLING), "the recommendation cites the deciding record");
    // In force (no status line), about the question, and its own choice is recommended: high.
    assert.equal(p.recommendation.confidence, "high");
    assert.match(p.recommendation.rationale, /ADR 2 "Styling of new components" \(no status line\) decided this question/);
    assert.doesNotMatch(p.recommendation.rationale, /unknown/);
    // The turned-down option quotes the record's reason, with the lines that say so.
    const tailwind = p.options.find((o) => /Tailwind/.test(o.title))!;
    const quoted = tailwind.tradeoffs.find((t) => t.includes("extra build step"));
    assert.ok(quoted, `Tailwind's tradeoffs quote the reason: ${JSON.stringify(tailwind.tradeoffs)}`);
    assert.match(quoted!, new RegExp(`ADR 2 "Styling of new components" turned it down: .*\\(${STYLING.replace(/[.]/g, "\\.")}:17-18\\)`));
    // No raw retrieval score in what a reader sees.
    assert.doesNotMatch(receiptToMarkdown(receipt), /top score/);
  });

  test("'adopt X?' gets the other options the record weighed, and the record's choice is what stays", async () => {
    const { payload: p } = await ask(repo, "Should we adopt Tailwind for styling new components?");
    const titles = p.options.map((o) => o.title);
    assert.ok(titles.some((t) => /CSS modules/.test(t)), `the third weighed option is offered: ${titles.join(" | ")}`);
    assert.match(recommended(p)?.title ?? "", /Vanilla Extract/);
    assert.equal(p.recommendation.confidence, "high");
    // A dissent names the record's choice as the record wrote it, quoted.
    const tailwind = p.options.find((o) => /Tailwind/.test(o.title))!;
    assert.ok(tailwind.tradeoffs.some((t) => /chose "Vanilla Extract"/.test(t)), JSON.stringify(tailwind.tradeoffs));
  });

  test("the evidence carries the record's decision model: chosen option, rejected options with reasons and lines, status as shown", async () => {
    const { payload: p, evidence } = await ask(repo, "How should we style new components?");
    assert.ok(p.citations.some((c) => c.path_or_url === STYLING));
    const meta = evidence.find((e) => e.adr?.path === STYLING)?.adr;
    assert.ok(meta, "the styling record is evidence");
    assert.equal(meta!.number, 2);
    assert.equal(meta!.status_display, "no status line");
    assert.deepEqual(meta!.decided_option, { name: "Vanilla Extract", range: { start: 17, end: 18 } });
    assert.deepEqual(
      meta!.rejected_options?.find((r) => r.name === "Tailwind utility classes"),
      { name: "Tailwind utility classes", reason: "We decided against Tailwind utility classes because they add an extra build step to every package.", range: { start: 17, end: 18 } },
    );
    assert.match(recommended(p)?.title ?? "", /Vanilla Extract/);
  });

  test("a question no record is about is undecidable, never high, and the reason names the nearest record", async () => {
    const { payload: p } = await ask(repo, "Should we encrypt application secrets with git-crypt or keep them in a vault?");
    assert.equal(p.recommendation.option_id, UNDECIDABLE);
    assert.notEqual(p.recommendation.confidence, "high");
    assert.match(p.recommendation.rationale, /^Undecidable on current evidence: /);
    assert.doesNotMatch(p.recommendation.rationale, /net weight|unknown|top score/);
  });
});

describe("a proposal's setting is not its incumbent", () => {
  const SHEETS = "docs/adr/0002-import-spreadsheets.md";
  let repo: string;
  before(() => {
    repo = createGitRepo([
      {
        message: "Data jobs in Python",
        files: {
          "docs/adr/0001-python-for-data-jobs.md": "# 1. Python for data jobs\n\n## Status\n\nAccepted\n\n## Context\n\nJobs were written in three languages.\n\n## Decision\n\nWe will use Python for every data job.\n",
        },
      },
      {
        message: "Import spreadsheets",
        files: {
          [SHEETS]: "# 2. Import spreadsheets\n\n## Status\n\nAccepted\n\n## Context\n\nTeams keep reference tables in online spreadsheets.\n\n## Decision\n\nWe will import each sheet with a Python batch job that reads it through the gspread library.\n",
        },
      },
    ]);
  });

  test("'adopt gspread inside a Python job?' offers no 'Keep Python', and follows the record that chose the job with gspread", async () => {
    const { payload: p } = await ask(repo, "Finance keeps its rates in spreadsheets. Should we adopt the gspread library inside a Python batch job to import those sheets?");
    const titles = p.options.map((o) => o.title);
    assert.ok(!titles.some((t) => /^Keep python$/i.test(t)), `Python is the question's setting, not an alternative: ${titles.join(" | ")}`);
    const rec = recommended(p);
    assert.match(rec?.title ?? "", /gspread/i, titles.join(" | "));
    const cited = new Set(rec!.supports.map((id) => p.citations.find((c) => c.id === id)?.path_or_url));
    assert.ok(cited.has(SHEETS), "the recommendation cites the record that chose it");
  });
});

describe("the evidence carries the decision model's reading of what a record weighed and chose", () => {
  const CONSOLE = "docs/adr/0001-console.md";
  const CONSOLE_ADR = `# 1. Where the experiment console is built

## Status

Accepted

## Considered Options

- Build on top of the existing service
- Start a new application in TypeScript

## Decision Outcome

Chosen option: After weighing both options for a month, we decided to build on top of the existing service and
improve its development workflow, because a second application would need years to reach parity.
`;
  let repo: string;
  before(() => {
    repo = createGitRepo([{ message: "Decide where the console is built", files: { [CONSOLE]: CONSOLE_ADR } }]);
  });
  test("a 'Chosen option:' line that opens with a lead-in names the option, in evidence and in the answer", async () => {
    const { payload: p, evidence } = await ask(repo, "Should we start the experiment console as a new application in TypeScript instead?");
    const meta = evidence.find((e) => e.adr?.path === CONSOLE)?.adr;
    assert.equal(meta?.chosen_option, "Build on top of the existing service");
    assert.deepEqual(meta?.considered_options, ["Build on top of the existing service", "Start a new application in TypeScript"]);
    const titles = p.options.map((o) => o.title);
    assert.ok(!titles.some((t) => /After weighing/i.test(t)), `no option is the line's lead-in: ${titles.join(" | ")}`);
    assert.match(recommended(p)?.title ?? "", /on top of the existing service/);
  });
});
