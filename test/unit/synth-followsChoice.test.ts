// The recommendation follows what the deciding record chose even when the question words it differently (issue 21):
// alternatives aligned with the record's own considered options, a chosen option that names one alternative far more
// than the other, a refusal ("Avoid X", "X should be avoided") answering "should we use X?", a name that every option
// carries deciding nothing, and a spec-style record whose decision sits under "Proposal". Real git repositories,
// deliberated offline; the records are written for these tests.
import { describe, test, before } from "node:test";
import assert from "node:assert/strict";
import { deliberate } from "../../src/core/pipeline";
import { generateSigningKey } from "../../src/core/receipts/signing";
import { optionLabel } from "../../src/core/synth/recordLed";
import { bestMatchings } from "../../src/core/synth/rules";
import { readQuestion } from "../../src/core/synth/question";
import { UNDECIDABLE, type OptionPicker } from "../../src/core/schemas";
import { createGitRepo } from "../helpers/gitRepo";
import { parseAdr } from "../../src/core/internal/adr";
import { decisionModelOf } from "../../src/core/decisions";

const key = generateSigningKey();

async function ask(repo: string, question: string): Promise<OptionPicker> {
  const out = await deliberate({ repo, question, signingKey: key, force: true, useCache: false, writeReceipt: false, config: { offline: true } });
  if (out.kind !== "deliberated") throw new Error(`not deliberated: ${out.kind}`);
  return out.payload;
}

function recommended(p: OptionPicker) {
  return p.options.find((o) => o.id === p.recommendation.option_id);
}

function citedPaths(p: OptionPicker): Set<string | undefined> {
  return new Set(recommended(p)?.supports.map((id) => p.citations.find((c) => c.id === id)?.path_or_url));
}

const MANUAL = "docs/adr/0004-manual-hosting.md";
const MANUAL_ADR = `# 4. Where the user manual is served from

- Status: accepted
- Date: 2024-02-01

## Context and Problem Statement

The user manual needs a permanent address that people can remember.

## Considered Options

- Use the pages.example.net address
- Use a help.example.org address
- Use a custom domain (manual.example)

## Decision Outcome

We will use a custom domain (manual.example) for now, until the structure of help.example.org is settled.
`;

const SESSIONS = "docs/adr/0005-session-store.md";
const SESSIONS_ADR = `# 5. Session store in front of Postgres

## Status

Accepted

## Context

Reading sessions straight from Postgres is slow at peak, and sharding Postgres by tenant was proposed.

## Decision

Put a write-through cache in front of Postgres for session reads.

## Consequences

Session reads stay fast at peak without sharding.
`;

const EXPORTS = "docs/adr/0006-avoid-wildcard-imports.md";
const EXPORTS_ADR = `# 6. Avoid wildcard imports

## Status

Accepted

## Context

Wildcard imports hide where a name comes from and defeat tree shaking.

## Decision

Wildcard imports should be avoided in all our packages; import each name explicitly.
`;

const HOOKS_ADR = `# 7. Use React hooks for component state

## Status

Accepted

## Context

Class components make state hard to share.

## Decision

We will use React hooks for component state.
`;

const SPEC = "docs/adr/0008-peer-address-order.md";
const SPEC_ADR = `# 8. Peer address order

## Status

Accepted

## Context

A client given one host name that resolves to several addresses always dials the first, so one server takes most
of the connections.

## Proposal

Clients shuffle the resolved addresses at random before dialling them, and try the next one on failure.
`;

const FONTS = "docs/adr/0010-font-delivery.md";
const FONTS_ADR = `# 10. Font delivery

- Status: accepted

## Considered Options

- Load fonts from the vendor CDN
- Serve fonts from our static host

## Decision Outcome

We will serve fonts from our static host for now, until the vendor CDN offers a contract; then fonts load from the vendor CDN.
`;

describe("answers follow the record's choice, whatever the question's wording", () => {
  let repo: string;
  before(() => {
    repo = createGitRepo([
      { message: "Manual hosting", files: { [MANUAL]: MANUAL_ADR, "README.md": "# Help\n" } },
      { message: "Session store", files: { [SESSIONS]: SESSIONS_ADR } },
      { message: "Imports", files: { [EXPORTS]: EXPORTS_ADR, "docs/adr/0007-use-react-hooks.md": HOOKS_ADR } },
      { message: "Peer addresses", files: { [SPEC]: SPEC_ADR } },
    ]);
  });

  test("alternatives named in other words are aligned with the record's considered options; the chosen one is recommended", async () => {
    const p = await ask(repo, "Should the user manual be served from the default pages.example.net address, from a help.example.org URL, or from its own domain?");
    const rec = recommended(p);
    assert.match(rec?.title ?? "", /own domain/, p.options.map((o) => o.title).join(" | "));
    assert.ok(citedPaths(p).has(MANUAL));
  });

  test("a chosen option that names one alternative's own words decides between two, whatever the title also names", async () => {
    const p = await ask(repo, "Session reads are slow at peak. Should we shard Postgres by tenant, or put a write-through cache in front of it?");
    assert.match(recommended(p)?.title ?? "", /cache/i, p.options.map((o) => o.title).join(" | "));
    assert.ok(citedPaths(p).has(SESSIONS));
  });

  test("'should we use X?' answered by a record that says X should be avoided: its refusal is the other option, and it is recommended", async () => {
    const p = await ask(repo, "Should we use wildcard imports for our React components and shared modules?");
    const titles = p.options.map((o) => o.title);
    assert.ok(titles.some((t) => /^Adopt wildcard imports$/.test(t)), `the proposal keeps its noun: ${titles.join(" | ")}`);
    assert.ok(!titles.some((t) => /hooks/i.test(t)), `another record's choice is no alternative here: ${titles.join(" | ")}`);
    assert.match(recommended(p)?.title ?? "", /avoided|avoid/i);
    assert.ok(citedPaths(p).has(EXPORTS));
  });

  test("a spec-style record answers an open question from its Proposal section", async () => {
    const p = await ask(repo, "Our clients get one host name for five servers and nearly all of them connect to the first one. What should the clients do with the addresses?");
    assert.notEqual(p.recommendation.option_id, UNDECIDABLE, p.recommendation.rationale);
    assert.match(recommended(p)?.title ?? "", /shuffle/i, p.options.map((o) => o.title).join(" | "));
    assert.ok(citedPaths(p).has(SPEC));
    assert.notEqual(p.recommendation.confidence, "high");
  });
});

const DB_ADMIN = "docs/adr/0012-db-admin.md";
const DB_ADMIN_ADR = `# 12. One admin host for the app databases

## Status

Accepted

## Decision

We looked at three ways to do it:

 1. run an admin instance for each database and keep the databases apart
 2. manage the logins and schemas from Terraform with its database provider
 3. merge the databases into one server and have one admin host manage them all

The first is the most isolated but the most expensive, and we decided against it on cost.

Option 2 was turned down: Terraform providers for database logins would split this work away from the configuration
management code that already owns it.

We chose the third: one admin host that manages schemas and logins for every app.
`;

describe("alternatives matched one-to-one with a record's options", () => {
  test("each alternative takes at most one option and no option two alternatives; the best total wins", () => {
    // A shares 3 words with option 0 and 1 with option 2; C shares 2 with each of options 0 and 2.
    const best = bestMatchings([[3, 0, 1], [0, 2, 0], [2, 0, 2]], 3);
    assert.deepEqual(best?.assignments, [[0, 1, 2]]);
    assert.equal(best?.matched, 3);
  });

  test("equally good matchings are all returned, so a caller can see they disagree", () => {
    const best = bestMatchings([[1, 1], [0, 0]], 2);
    assert.deepEqual(best?.assignments, [[0, -1], [1, -1]]);
    assert.equal(best?.matched, 1);
    assert.equal(bestMatchings([[0, 0], [0, 0]], 2), undefined);
  });

  test("a fractional share (words every alternative has) breaks a tie between two options without outweighing a distinctive word", () => {
    assert.deepEqual(bestMatchings([[0, 0], [1.04, 1.05]], 2)?.assignments, [[-1, 1]]);
    assert.deepEqual(bestMatchings([[2, 0], [1.05, 1.04]], 2)?.assignments, [[0, 1]]);
  });

  test("an option 'turned down' is rejected, and 'we chose the third' picks the third listed option", async () => {
    const m = decisionModelOf(parseAdr(DB_ADMIN, DB_ADMIN_ADR));
    assert.equal(m.chosen?.considered_index, 2, JSON.stringify(m.chosen));
    const repo = createGitRepo([{ message: "Databases", files: { [DB_ADMIN]: DB_ADMIN_ADR, "README.md": "# Apps\n" } }]);
    const p = await ask(repo, "Several small apps are moving to a managed database service. Should we run an admin instance per database, manage logins and schemas with the Terraform provider, or have one admin host look after a single shared server for all of them?");
    assert.match(recommended(p)?.title ?? "", /one admin host/i, p.options.map((o) => o.title).join(" | "));
    assert.ok(citedPaths(p).has(DB_ADMIN));
  });
});

const SESSION_READS = "docs/adr/0014-session-reads.md";
const SESSION_READS_ADR = `# 14. Session reads at peak

## Status

Accepted

## Considered Options

- Caching
- Sharding

## Decision

We will add caching in front of the session table, with a five minute expiry.
`;

describe("a decision that names a listed option in words of its own", () => {
  test("the evidence carries both the decision's words and the listed option they name, and the answer follows that option", async () => {
    const repo = createGitRepo([{ message: "Sessions", files: { [SESSION_READS]: SESSION_READS_ADR, "README.md": "# Sessions\n" } }]);
    const out = await deliberate({ repo, question: "Session reads are slow at peak. Should we go with caching or with sharding?", signingKey: key, force: true, useCache: false, writeReceipt: false, config: { offline: true } });
    assert.equal(out.kind, "deliberated");
    if (out.kind !== "deliberated") return;
    const meta = out.evidence.find((e) => e.adr?.path === SESSION_READS)?.adr;
    assert.match(meta?.decided_option?.name ?? "", /^add caching in front of the session table/);
    assert.equal(meta?.decided_option?.option, "Caching");
    assert.match(recommended(out.payload)?.title ?? "", /caching/i);
  });
});

describe("small readings", () => {
  test("a decision sentence that names two options in full chose the one it names first, the object of its verb", () => {
    const m = decisionModelOf(parseAdr(FONTS, FONTS_ADR));
    assert.equal(m.chosen?.name, "Serve fonts from our static host");
  });

  test('an option listed with its description is named by what precedes the colon; "Option 2:" gives way to its description, and a list is not a name', () => {
    assert.equal(optionLabel("Nightly snapshot job: a scheduled task copies the tables every night"), "Nightly snapshot job");
    assert.equal(optionLabel("Option 2: copy the tables every night"), "copy the tables every night");
    assert.equal(optionLabel("Labels: bug, feature, chore"), "Labels: bug, feature, chore");
  });

  test("the object of a decision verb keeps its plural noun ('use wildcard imports for')", () => {
    assert.equal(readQuestion("Should we use wildcard imports for our modules?").target?.title, "Adopt wildcard imports");
  });
});
