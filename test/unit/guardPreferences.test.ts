// The guard on the shapes the dev5 batch brought (issue 22): a record that states its preferences as imperative
// proposal items ("Use A over B", "Continue using C") or lists what it will use in one decision sentence; options
// numbered in headings with a decision that takes one by its number, known by the identifiers only the others write;
// files an instruction says are generated; a setting moved off the chosen value; and a rule that keeps code
// deterministic. Each mechanism has an innocent look-alike it must not fire on. Real git repositories.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { checkChange, GuardReportSchema, type GuardReport } from "../../src/core/guard";
import { generatedFiles } from "../../src/core/guard/decisions";
import { isTestPath, nondeterminismExclusions } from "../../src/core/guard/determinism";
import { practiceExclusions } from "../../src/core/guard/practices";
import { settingOf } from "../../src/core/guard/match";
import { changeTokensOf, findName, keysOf } from "../../src/core/guard/names";
import { numberedOptions, preferredKeys, recordPreferences } from "../../src/core/guard/recordPreferences";
import { parseAdr } from "../../src/core/internal/adr";
import { createGitRepo, writeFiles } from "../helpers/gitRepo";

async function check(repo: string): Promise<GuardReport> {
  const report = await checkChange(repo, { kind: "worktree" }, { config: {} });
  GuardReportSchema.parse(report);
  return report;
}

const strong = (r: GuardReport) => r.findings.filter((f) => f.severity !== "low");
const summary = (r: GuardReport) => strong(r).map((f) => `${f.kind} ${f.severity} ${f.file} ← ${f.decision.path}`);

const STACK_ADR = `# Dashboard front end: use Preact, Bulma and GQL

- Status: accepted
- Date: 2021-03-02

## Context and Problem Statement

The dashboard needs a front-end stack.

## Proposed Changes

### Front-End Stack

- Continue using Preact, but:
  - Use Typescript over Flowtypes for stricter typing
  - Use \`wouter-lite\` instead of \`page-router\`
  - Use folders for widgets instead of filenames
- Continue using Bulma (Bulma core and \`preact-bulma\`), but:
  - Keep overrides minimal

## Considered Alternatives

- Use Tachyons instead of Bulma
- Keep the REST calls

### Positive Consequences

- Use Tachyons over Bulma later, if the team wants
`;

const MAILING_ADR = `# 4. Sending notifications

[postbox]: https://example.test/postbox
[mail-kit]: https://example.test/mail-kit
[queuey]: https://example.test/queuey
[carrier]: https://example.test/carrier

Date: 2020-01-01

## Context

We need to send emails about document changes.

## Decision

We will use [ACME.GOV Postbox][postbox] in combination with [Mail Kit][mail-kit] and [Queuey][queuey] instead of [Carrier][carrier].

Postbox handles retries.

## Status

Accepted
`;

const FLICKER_ADR = `# 5. Avoiding a flash of hidden content

Date: 2019-01-01

## Context

There were 3 options considered:

### 1. Do nothing

Accept the flash as part of progressive enhancement.

### 2. Hide content with a \`js-ready\` class

A class on the body says JavaScript runs, so styles can hide elements early.

### 3. Add a fallback class when scripts fail

Besides \`js-ready\`, a timer adds \`js-broken\` to the body when scripts did not start, and \`fallbackShown\` is set.

## Decision

We take option 2 and use the \`js-ready\` class only; option 3 needs more investigation.
`;

describe("guard: a record's imperative preferences and listed uses", () => {
  test('"Use A over B" and "Continue using C" in a proposal choose and turn down; the same phrasing among the alternatives or consequences does not', () => {
    const p = recordPreferences(parseAdr("docs/adrs/0002-stack.md", STACK_ADR));
    assert.deepEqual(p.rejected.map((r) => r.name), ["Flowtypes", "page-router"]);
    assert.deepEqual(p.chosen.map((c) => c.name), ["Preact", "wouter-lite", "Bulma"]);
  });

  test("a decision sentence listing what it will use chooses each linked name, up to a clause that sets one aside", () => {
    const p = recordPreferences(parseAdr("docs/adr/0004-notify.md", MAILING_ADR));
    assert.deepEqual(p.chosen.map((c) => c.name), ["ACME.GOV Postbox", "Mail Kit", "Queuey"]);
    assert.deepEqual(p.rejected, []);
  });

  test("a domain in capitals qualifies a name; several words key as a run; one long word is its own compact form", () => {
    assert.deepEqual(preferredKeys("ACME.GOV Postbox")?.tokens, ["postbox"]);
    assert.deepEqual(preferredKeys("Mail Kit")?.exact, ["mail", "kit"]);
    assert.equal(findName(changeTokensOf("MailKit::Base"), preferredKeys("Mail Kit")!), "mail-kit");
    assert.equal(findName(changeTokensOf("mail_delivery kit"), preferredKeys("Mail Kit")!), undefined);
    const flow = keysOf("Flowtypes")!;
    assert.equal(findName(changeTokensOf('"flow-types": "^1.0.0"'), flow), "flow types");
    assert.equal(findName(changeTokensOf('"flow": "^1.0.0"'), flow), undefined);
  });

  test("a package the proposal turns down is found, a chosen one removed is found, a comment naming them is a hint", async () => {
    const pkg = '{\n  "dependencies": {\n    "bulma": "^0.9.4",\n    "preact": "^10.0.0"\n  }\n}\n';
    const repo = createGitRepo([{ message: "init", files: { "docs/adrs/0002-stack.md": STACK_ADR, "web/package.json": pkg, "web/src/index.js": "import { h } from 'preact';\n" } }]);
    writeFiles(repo, { "web/package.json": pkg.replace('"preact": "^10.0.0"', '"preact": "^10.0.0",\n    "flow-types": "^2.1.0"') });
    assert.deepEqual(summary(await check(repo)), ["introduces-rejected-option high web/package.json ← docs/adrs/0002-stack.md"]);
    writeFiles(repo, { "web/package.json": pkg.replace('    "bulma": "^0.9.4",\n', "") });
    assert.deepEqual(summary(await check(repo)), ["removes-chosen-option high web/package.json ← docs/adrs/0002-stack.md"]);
    writeFiles(repo, { "web/package.json": pkg, "web/src/index.js": "import { h } from 'preact';\n// typed with Typescript, not Flowtypes; no Tachyons\n" });
    assert.deepEqual(summary(await check(repo)), [], "a comment is a mention");
    writeFiles(repo, { "web/src/index.js": "import { h } from 'preact';\n", "web/package.json": pkg.replace('"preact": "^10.0.0"', '"preact": "^10.0.0",\n    "tachyons": "^4.12.0"') });
    assert.deepEqual(summary(await check(repo)), ["introduces-rejected-option high web/package.json ← docs/adrs/0002-stack.md"], "the considered alternative is still turned down by its option line");
  });
});

describe("guard: options numbered in headings, taken by number", () => {
  test("the options the decision did not take are known by the identifiers only they write", () => {
    const out = numberedOptions(parseAdr("docs/adr/0005-flash.md", FLICKER_ADR));
    assert.deepEqual(out.map((o) => o.name).sort(), ["fallbackShown", "js-broken"]);
    assert.ok(out.every((o) => o.identifier));
    const undecided = FLICKER_ADR.replace("We take option 2 and use", "We use");
    assert.deepEqual(numberedOptions(parseAdr("docs/adr/0005-flash.md", undecided)), [], "no option taken by number: nothing is concluded");
  });

  test("a rejected option's class in a script's string is a use; the chosen class is innocent", async () => {
    const js = "document.body.className += ' js-ready'\n";
    const repo = createGitRepo([{ message: "init", files: { "docs/adr/0005-flash.md": FLICKER_ADR, "app/assets/main.js": js } }]);
    writeFiles(repo, { "app/assets/main.js": `${js}setTimeout(function () { document.body.className += ' js-broken' }, 2000)\n` });
    assert.deepEqual(summary(await check(repo)), ["introduces-rejected-option med app/assets/main.js ← docs/adr/0005-flash.md"]);
    writeFiles(repo, { "app/assets/main.js": `${js}document.querySelector('.menu').classList.add('js-ready')\n` });
    assert.deepEqual(summary(await check(repo)), []);
  });
});

describe("guard: generated files an instruction says not to edit", () => {
  test("the globs of a no-edit rule; a rule without the cue names none", () => {
    assert.deepEqual(generatedFiles("Do not hand-edit generated files such as `*.gen.go` or `*.gen.gw.go`; change their source."), ["*.gen.go", "*.gen.gw.go"]);
    assert.deepEqual(generatedFiles("Files under `api/client/types.ts` are generated and must not be edited manually."), ["api/client/types.ts"]);
    assert.deepEqual(generatedFiles("Run `go test ./...` and edit `*.go` files freely."), []);
    // A folder whose files are kept from hand edits: every file in it; a folder named for another reason is none.
    assert.deepEqual(generatedFiles("Never hand-edit files under `deploy/rendered/`; run the bundler instead."), ["deploy/rendered/**"]);
    assert.deepEqual(generatedFiles("Do not edit `docs/` by hand when a release is cut."), []);
  });

  test("a hand edit is found; a regeneration that changes the source too, and an edit of another file, are not", async () => {
    const agents = "# Agents\n\n- Do not hand-edit generated files such as `*.gen.go`; change the `.schema` source and regenerate.\n";
    const repo = createGitRepo([{ message: "init", files: { "AGENTS.md": agents, "api/ledger.schema": "message Ledger {}\n", "api/ledger.gen.go": "package api\n\ntype Ledger struct{}\n", "api/ledger.go": "package api\n" } }]);
    writeFiles(repo, { "api/ledger.gen.go": "package api\n\ntype Ledger struct{}\n\nfunc (l Ledger) Empty() bool { return true }\n" });
    assert.deepEqual(summary(await check(repo)), ["breaks-rule med api/ledger.gen.go ← AGENTS.md"]);
    writeFiles(repo, { "api/ledger.schema": "message Ledger { int64 balance = 1; }\n", "api/ledger.gen.go": "package api\n\ntype Ledger struct{ Balance int64 }\n" });
    assert.deepEqual(summary(await check(repo)), [], "source and output changed together: regenerated");
    writeFiles(repo, { "api/ledger.schema": "message Ledger {}\n", "api/ledger.gen.go": "package api\n\ntype Ledger struct{}\n", "api/ledger.go": "package api\n\nfunc Open() {}\n" });
    assert.deepEqual(summary(await check(repo)), []);
  });
});

describe("guard: a setting moved off the chosen value", () => {
  test("settingOf reads key and value, not comparisons, arrows or scopes", () => {
    assert.deepEqual(settingOf("    config.jobs.adapter = :queuey"), { key: "config.jobs.adapter", value: ":queuey" });
    assert.deepEqual(settingOf("adapter: queuey"), { key: "adapter", value: "queuey" });
    assert.equal(settingOf("if a == b"), undefined);
    assert.equal(settingOf("  Foo::Bar.call"), undefined);
    assert.equal(settingOf("  x => 1"), undefined);
  });

  test("a chosen queue swapped for another in its setting is found; a version of it and another key are not", async () => {
    const app = "module Mailer\n  class Application\n    config.jobs.adapter = :queuey\n    config.time_zone = \"London\"\n  end\nend\n";
    const repo = createGitRepo([{ message: "init", files: { "docs/adr/0004-notify.md": MAILING_ADR, "config/application.rb": app } }]);
    writeFiles(repo, { "config/application.rb": app.replace(":queuey", ":inline") });
    assert.deepEqual(summary(await check(repo)), ["removes-chosen-option med config/application.rb ← docs/adr/0004-notify.md"]);
    writeFiles(repo, { "config/application.rb": app.replace(":queuey", ":queuey_pro") });
    assert.deepEqual(summary(await check(repo)), [], "still the chosen queue");
    writeFiles(repo, { "config/application.rb": app.replace('"London"', '"Paris"') });
    assert.deepEqual(summary(await check(repo)), []);
  });
});

describe("guard: rules that keep code deterministic", () => {
  test("a negated rule naming the clock or randomness turns their calls down; a rule without a negation does not", () => {
    const range = { start: 1, end: 1 };
    const things = nondeterminismExclusions("Do not let map iteration order, wall-clock time, or randomness affect state changes.", range);
    assert.ok(things.some((t) => t.keys.exact?.join(".") === "time.now"));
    assert.ok(things.some((t) => t.keys.exact?.join(".") === "math.rand"));
    assert.deepEqual(nondeterminismExclusions("Log the wall-clock time of each run.", range), []);
    assert.equal(isTestPath("x/keeper/relay_test.go"), true);
    assert.equal(isTestPath("x/keeper/relay.go"), false);
  });

  test("the host clock in state code is found; in a test, or the block's time, it is not", async () => {
    const agents = "# Agents\n\n- State-machine code must be deterministic. Do not let wall-clock time or randomness affect state changes.\n";
    const repo = createGitRepo([{ message: "init", files: { "AGENTS.md": agents, "x/keeper/keeper.go": "package keeper\n" } }]);
    const stamp = (expr: string) => `package keeper\n\nimport "time"\n\nfunc stamp(ctx Context) time.Time {\n\treturn ${expr}\n}\n`;
    writeFiles(repo, { "x/keeper/stamp.go": stamp("time.Now()") });
    assert.deepEqual(summary(await check(repo)), ["breaks-rule med x/keeper/stamp.go ← AGENTS.md"]);
    writeFiles(repo, { "x/keeper/stamp.go": stamp("ctx.BlockTime()") });
    assert.deepEqual(summary(await check(repo)), []);
    writeFiles(repo, { "x/keeper/stamp.go": stamp("ctx.BlockTime()"), "x/keeper/stamp_test.go": stamp("time.Now()") });
    assert.deepEqual(summary(await check(repo)), [], "a test may read the clock");
  });
});

describe("guard: rules that turn down a practice rather than a library", () => {
  test("a rule preferring something over raw SQL turns the query calls down; a rule using raw SQL does not", () => {
    const range = { start: 1, end: 1 };
    const things = practiceExclusions("Use Django ORM over raw SQL", range);
    assert.ok(things.some((t) => t.keys.exact?.join(".") === "cursor.execute") && things.every((t) => t.notInTests));
    assert.ok(practiceExclusions("Never write raw SQL queries in handlers.", range).length > 0);
    assert.deepEqual(practiceExclusions("Migrations are written in raw SQL.", range), []);
  });

  test("a query run through a cursor in app code breaks the rule; in a test it does not", async () => {
    const agents = "# Backend\n\n- Use Django ORM over raw SQL\n";
    const repo = createGitRepo([{ message: "init", files: { "AGENTS.md": agents, "emails/utils.py": "def noop():\n    return None\n" } }]);
    const raw = "def bump(address_id):\n    from django.db import connection\n\n    with connection.cursor() as cursor:\n        cursor.execute(\"UPDATE emails_relayaddress SET n = n + 1 WHERE id = %s\", [address_id])\n";
    writeFiles(repo, { "emails/utils.py": raw });
    const lines = strong(await check(repo)).map((f) => `${f.kind} ${f.file}:${f.line}`);
    assert.deepEqual(lines, ["breaks-rule emails/utils.py:4", "breaks-rule emails/utils.py:5"], "the cursor opened and the query run");
    writeFiles(repo, { "emails/utils.py": "def noop():\n    return None\n", "emails/tests/test_utils.py": raw });
    assert.deepEqual(summary(await check(repo)), [], "a test may set up data with a query");
  });

  test("a record that sets default exports aside is a rule: a new default export breaks it, a named one does not", async () => {
    const record = "# Avoid default exports\n\n- Status: accepted\n\n## Decision\n\nWe will avoid default exports in all our codebase, and use named exports instead.\n";
    const repo = createGitRepo([{ message: "init", files: { "docs/adr/20200927-avoid-default-exports.md": record, "src/index.ts": "export const version = 1;\n" } }]);
    writeFiles(repo, { "src/slug.ts": "export default function slug(t: string): string {\n  return t.toLowerCase();\n}\n" });
    assert.deepEqual(summary(await check(repo)), ["breaks-rule med src/slug.ts ← docs/adr/20200927-avoid-default-exports.md"]);
    writeFiles(repo, { "src/slug.ts": "export function slug(t: string): string {\n  return t.toLowerCase();\n}\n" });
    assert.deepEqual(summary(await check(repo)), []);
    assert.deepEqual(practiceExclusions("We prefer default exports for pages.", { start: 1, end: 1 }), [], "a record that prefers them sets nothing aside");
  });
});

const PLATFORM_ADR = `# Use Kubelane for running containers

Date: 10/04/18

## Status

Accepted

## Context

Our services already standardise on Docker containers. Products that run containers:

- Kubelane
- Docker Swarm
- Nomadic

## Decision

Use Kubelane as the container platform.
`;

const CLUSTER_ADR = `# 22. Managed clusters

Date: 2024-11-11

## Status

Accepted

## What's proposed

Use Cloudy KS for the main cluster. This replaces usage of kBuild.

## Reasoning

The managed control plane reduces operational work.
`;

describe("guard: a family word before an option's name, and what a record says it replaces", () => {
  test("the first word of a listed option is a family when the record writes it before other words too", async () => {
    const { familyWords } = await import("../../src/core/guard/proseOptions");
    assert.deepEqual(familyWords("Docker Swarm", PLATFORM_ADR), ["docker"]);
    assert.deepEqual(familyWords("Docker Swarm", "- Docker Swarm\n- Kubelane\n"), []);
    const repo = createGitRepo([{ message: "init", files: { "adr/004-platform.md": PLATFORM_ADR, "README.md": "# x\n" } }]);
    writeFiles(repo, { "scripts/push.sh": "#!/bin/bash\ndocker push registry.example.test/app:1\n" });
    assert.deepEqual(summary(await check(repo)), [], "docker itself is not the Swarm");
    writeFiles(repo, { "scripts/push.sh": "#!/bin/bash\ndocker swarm init --advertise-addr 10.0.0.1\n" });
    assert.deepEqual(summary(await check(repo)), ["introduces-rejected-option med scripts/push.sh ← adr/004-platform.md"]);
  });

  test('"This replaces usage of X" turns X down; the chosen tool is innocent', async () => {
    const repo = createGitRepo([{ message: "init", files: { "adr/022-clusters.md": CLUSTER_ADR, "README.md": "# x\n" } }]);
    writeFiles(repo, { "scripts/roll.sh": "#!/bin/bash\nkbuild rolling-update cluster --yes\n" });
    assert.deepEqual(summary(await check(repo)), ["introduces-rejected-option med scripts/roll.sh ← adr/022-clusters.md"]);
    writeFiles(repo, { "scripts/roll.sh": "#!/bin/bash\ncloudy ks update-kubeconfig --name live\n" });
    assert.deepEqual(summary(await check(repo)), []);
  });
});
