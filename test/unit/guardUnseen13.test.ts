// The guard on readings dev13 showed it missed or misread on repositories it was never tuned on (issue 22): a CI step
// rewritten to pin the chosen tool, CodeBuild's buildspec, an RFC's "Proposal" that retires a gem, a move "from" one
// store "to" another, a compound term in running prose, and a place one record chose that another weighed.
// Real git repositories; records written for these tests.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { createGitRepo } from "../helpers/gitRepo";
import { checkFilesOverHead, findingSummary } from "../helpers/guardRepo";
import { loadDecisions, withoutOthersChoices, type GuardDecision } from "../../src/core/guard/decisions";
import { keysOf } from "../../src/core/guard/names";

const SITE_RECORD = `# Use Sitegen to publish the handbook

- Status: accepted
- Date: 2024-02-01

## Context

The handbook needs a website. We looked at Sitegen, doc-viewer and page-log.

## Decision

We will use Sitegen to build and publish the handbook. doc-viewer and page-log were discarded: neither keeps history.

## Consequences

The publish workflow installs Sitegen.
`;

const PIPELINES_RECORD = `# Use GitHub Actions for pipelines

- Status: accepted
- Date: 2024-02-02

## Context

Pull requests need checks.

## Decision

Pipelines will be built on GitHub Actions because it is simple and free for open source. A solution like AWS CodeBuild has been discarded for now.

## Consequences

Checks run on every pull request.
`;

const workflow = (install: string) =>
  ["name: Publish", "on:", "  push:", "jobs:", "  publish:", "    runs-on: ubuntu-latest", "    steps:", "      - uses: actions/checkout@v4", "      - name: Build the handbook", "        run: |", `          ${install}`, "          sitegen build --out site", ""].join("\n");

function handbook(): string {
  return createGitRepo([
    {
      message: "init",
      files: {
        "decisions/20240201-use-sitegen.md": SITE_RECORD,
        "decisions/20240202-use-github-actions.md": PIPELINES_RECORD,
        ".github/workflows/publish.yml": workflow("npm install -g sitegen"),
        "README.md": "# Handbook\n",
      },
    },
  ]);
}

describe("guard: CI steps and files on a repository it was not tuned on", () => {
  test("a step rewritten to pin the chosen tool keeps it; a step that swaps it out drops it", async () => {
    const r = handbook();
    const pinned = await checkFilesOverHead(r, { ".github/workflows/publish.yml": workflow("npm install -g sitegen@2.1.0") });
    assert.deepEqual(findingSummary(pinned), []);
    const swapped = await checkFilesOverHead(r, { ".github/workflows/publish.yml": workflow("npm install -g mkdocs-lite").replace("sitegen build --out site", "mkdocs-lite build") });
    assert.ok(findingSummary(swapped).includes("removes-chosen-option decisions/20240201-use-sitegen.md"), JSON.stringify(swapped.findings));
  });

  test("a CodeBuild buildspec brings back the CI system the record discarded; a new workflow is innocent", async () => {
    const r = handbook();
    const spec = await checkFilesOverHead(r, { "buildspec.yml": "version: 0.2\nphases:\n  build:\n    commands:\n      - npm test\n" });
    assert.ok(findingSummary(spec).includes("introduces-rejected-option decisions/20240202-use-github-actions.md"), JSON.stringify(spec.findings));
    const gha = await checkFilesOverHead(r, { ".github/workflows/lint.yml": "name: Lint\non: [pull_request]\njobs:\n  lint:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: npm run lint\n" });
    assert.deepEqual(findingSummary(gha), []);
  });
});

const LINT_RFC = `# RFC 12: Simpler linting

## Summary

Lint with the community tools directly instead of our wrapper gem.

## Background

Our wrapper gem pins old rules and slows every build.

## Proposal

1. Retire the \`acme-lint\` gem
2. Share the rules through \`inherit_gem\` in \`.rubocop.yml\`
3. Adopt \`rubocop\` directly

## Consequences

Every Ruby app swaps its dependency.
`;

const LEDGER_RECORD = `# 9. Move the ledger to PostgreSQL

## Status

Accepted

## Context

The ledger runs on a self-hosted database that nobody on the team knows well.

## Decision

We will migrate the ledger from its self-hosted MongoDB to PostgreSQL on a managed service.

## Consequences

Reports read the ledger through ActiveRecord.
`;

function platform(): string {
  return createGitRepo([{ message: "init", files: { "rfc-012-simpler-linting.md": LINT_RFC, "docs/adr/0009-move-the-ledger.md": LEDGER_RECORD, "README.md": "# Platform\n" } }]);
}

const gemfile = (gems: string[]) => ['source "https://rubygems.org"', "", ...gems.map((g) => `gem "${g}"`), ""].join("\n");

describe("guard: what an RFC's proposal retires and what a move leaves behind", () => {
  test("a gem the proposal retires is turned down; the tool it adopts is innocent", async () => {
    const r = platform();
    const back = await checkFilesOverHead(r, { Gemfile: gemfile(["rails", "acme-lint"]) });
    assert.ok(findingSummary(back).includes("introduces-rejected-option rfc-012-simpler-linting.md"), JSON.stringify(back.findings));
    const adopted = await checkFilesOverHead(r, { Gemfile: gemfile(["rails", "rubocop"]) });
    assert.deepEqual(findingSummary(adopted), []);
  });

  test("migrating from one store to another turns the old one down, and does not choose it", async () => {
    const r = platform();
    const set = await loadDecisions(r);
    const ledger = set.decisions.find((d) => d.citation.path === "docs/adr/0009-move-the-ledger.md");
    assert.ok(ledger, "the ledger record is read");
    assert.ok(ledger.forbidden.some((f) => f.keys.tokens.includes("mongodb")), JSON.stringify(ledger.forbidden));
    assert.ok(!ledger.required.some((f) => f.keys.tokens.includes("mongodb")), JSON.stringify(ledger.required));
    const odm = await checkFilesOverHead(r, { Gemfile: gemfile(["rails", "mongoid"]) });
    assert.ok(findingSummary(odm).includes("introduces-rejected-option docs/adr/0009-move-the-ledger.md"), JSON.stringify(odm.findings));
    const pg = await checkFilesOverHead(r, { Gemfile: gemfile(["rails", "pg"]) });
    assert.deepEqual(findingSummary(pg), []);
  });
});

describe("guard: names in running prose and places other records chose", () => {
  test("a capitalised word run into a generic noun in a prose fragment keys by both words; a listed name does not change", () => {
    assert.deepEqual(keysOf("deploying a private Mirror service")?.whole, ["mirror", "service"]);
    assert.equal(keysOf("Mirror service")?.whole, undefined);
    assert.equal(keysOf("Kronicle")?.whole, undefined);
  });

  test("a joined name one record chose is no rival in another record; a name no record chose stays turned down", () => {
    const thing = (name: string, exact: string[]) => ({ name, keys: { display: name, exact, tokens: [] }, range: { start: 5, end: 5 } });
    const decision = (path: string, chosen: string, forbidden: ReturnType<typeof thing>[], required: ReturnType<typeof thing>[]) =>
      ({ source: "record", citation: { path, title: path, status: "accepted", line_range: { start: 1, end: 9 } }, forbidden, required, chosen, area: [] }) as unknown as GuardDecision;
    const layout = decision("adr/0001-layout.md", "A `shared-space` application deployed via Flux", [], [thing("A shared-space application deployed via Flux", ["flux"])]);
    const operators = decision("adr/0002-operators.md", "Find a balance between 1. and 2", [thing("`shared-space`", ["shared", "space"]), thing("`side-car`", ["side", "car"])], [thing("Find a balance", ["find"])]);
    withoutOthersChoices([layout, operators]);
    assert.deepEqual(operators.forbidden.map((f) => f.keys.display), ["`side-car`"]);
  });
});

const SCRAPING_RECORD = `# 4. Screen reading

## Status

Accepted

## Context

Some integrations log in to a vendor's site and read the pages, because the vendor has no API. Some rely on an HTML
parser, others on a headless browser. They break whenever the site changes.

## Proposal

- We no longer accept any new integration that relies on webscraping
- Integrations that parse HTML generically are not affected

## Consequences

Such integrations live outside the core.
`;

const PINS_RECORD = `# 19. Board pins

## Status

Accepted

## Decision

- We no longer accept integrations that talk to sensors over GPIO.
- Sensors exposed as serial devices are not affected.
`;

const FORMAT_RECORD = `# 5. Code formatting

## Status

Accepted

## Proposal

- We use [Black](https://github.com/psf/black) as code formatter for the back end.
- CI checks that pull requests are formatted.
`;

const FOCUS_RECORD = `# Disable refresh on focus

- Status: accepted

## Context

The data library refreshes every query when the window gets the focus back, which flashes the loading state.

## Decision

We turned that default off in the query client, and turn it on per query when a screen needs it.
`;

function hub(): string {
  return createGitRepo([
    {
      message: "init",
      files: {
        "adr/0004-screen-reading.md": SCRAPING_RECORD,
        "adr/0019-board-pins.md": PINS_RECORD,
        "adr/0005-code-formatting.md": FORMAT_RECORD,
        "adr/0006-disable-refresh-on-focus.md": FOCUS_RECORD,
        "web/src/client.ts": "export const client = new QueryClient({\n  defaultOptions: {\n    queries: {\n      refreshOnWindowFocus: false,\n    },\n  },\n})\n",
        "README.md": "# Hub\n",
      },
    },
  ]);
}

describe("guard: kinds of work a project no longer accepts, formatters, and a behaviour kept off", () => {
  test("an import of a scraping or pin-driving library is turned down; a serial-port library is innocent", async () => {
    const r = hub();
    const soup = await checkFilesOverHead(r, { "components/parcels/sensor.py": "from bs4 import BeautifulSoup\n\n\ndef status(html):\n    return BeautifulSoup(html, 'html.parser').title\n" });
    assert.ok(findingSummary(soup).includes("introduces-rejected-option adr/0004-screen-reading.md"), JSON.stringify(soup.findings));
    const bus = await checkFilesOverHead(r, { "components/board/sensor.py": "import smbus2\n\nBUS = smbus2.SMBus(1)\n" });
    assert.ok(findingSummary(bus).includes("introduces-rejected-option adr/0019-board-pins.md"), JSON.stringify(bus.findings));
    const serial = await checkFilesOverHead(r, { "components/relay/switch.py": "import serial\n\nPORT = serial.Serial('/dev/ttyUSB0')\n" });
    assert.deepEqual(findingSummary(serial), []);
  });

  test("a pre-commit hook of another formatter is a dependency that goes against the chosen one", async () => {
    const r = hub();
    const yapf = await checkFilesOverHead(r, { ".pre-commit-config.yaml": "repos:\n  - repo: https://github.com/google/yapf\n    rev: v0.40.2\n    hooks:\n      - id: yapf\n" });
    assert.ok(findingSummary(yapf).includes("introduces-rejected-option adr/0005-code-formatting.md"), JSON.stringify(yapf.findings));
    const black = await checkFilesOverHead(r, { ".pre-commit-config.yaml": "repos:\n  - repo: https://github.com/psf/black\n    rev: 24.4.2\n    hooks:\n      - id: black\n" });
    assert.deepEqual(findingSummary(black), []);
  });

  test("dropping the line that kept a behaviour off turns it back on; turning it on for one query does not", async () => {
    const r = hub();
    const back = await checkFilesOverHead(r, { "web/src/client.ts": "export const client = new QueryClient({\n  defaultOptions: {\n    queries: {\n    },\n  },\n})\n" });
    assert.ok(findingSummary(back).includes("removes-chosen-option adr/0006-disable-refresh-on-focus.md"), JSON.stringify(back.findings));
    const one = await checkFilesOverHead(r, { "web/src/status.ts": "export const status = () => useQuery(['status'], load, { refreshOnWindowFocus: true })\n" });
    assert.deepEqual(findingSummary(one), []);
  });
});
