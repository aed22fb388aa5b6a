// The guard on records and rules the first dev set did not have (eval/guard dev2): names written as links or code
// spans on an option's line, URLs that name no option, an outcome that names nothing (the title chooses) or names
// two options, variants of the chosen option, a later record overruling an earlier one, a dependency a record lets
// go, a new configuration file named for a rejected option, rule objects in code spans (`std::thread::sleep`), and
// a rule that names its library for a purpose ("Use structured logging (`tracing`)"). Each integration case writes
// records or instruction files into a real git repository, changes files, and checks the findings.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { ruleDecisions } from "../../src/core/guard/decisions";
import { findName, keysOf, tokensOf } from "../../src/core/guard/names";
import type { DecisionRecord } from "../../src/core/decisions";
import { linkedNames, refineOptions, withoutUrls } from "../../src/core/guard/optionLines";
import { purposeExclusions, purposeStem } from "../../src/core/guard/purposeRules";
import type { ArtifactFile } from "../../src/core/types";
import { createGitRepo, writeFiles } from "../helpers/gitRepo";
import { checkWorktree, findingSummary, strongFindings } from "../helpers/guardRepo";


const EMPTY_OUTCOME_ADR = `# Use [Zapper](https://example.test/zapper) as the structured logger

* Status: accepted

## Considered Options

* [quicklog](https://example.test/quicklog)
* [zapper](https://example.test/zapper)
* [slowlog](https://example.test/slowlog)

## Decision Outcome

Chosen option: "", because it is fast and we started with it.
`;

const VARIANT_ADR = `# Use sqlgen with build tags for both databases

* Status: accepted

## Context and Problem Statement

The service must run on Postgres and on MySQL.

## Considered Options

1. [sqlgen](https://example.test/sqlgen) with one package for Postgres and one for MySQL
1. [sqlgen](https://example.test/sqlgen) in one package with a build tag for each database
1. [Ormix](https://example.test/ormix)

## Decision Outcome

Chosen option: 2 ([sqlgen](https://example.test/sqlgen) in one package with a build tag for each database), because the compiler checks both.
`;

const ROUTER_ADR = `# Route the migrated endpoints through a proxy

* Status: accepted

## Considered Options

1. Run the new service next to the old one in the same instance group, with \`nginx\` doing the routing for every request
1. Put a dedicated path-based proxy in front of both services

## Decision Outcome

Chosen option: 2 (a dedicated path-based proxy in front of both services), because each side scales on its own.
`;

const FORMAT_ADR = `# Use Markdown records

* Status: accepted

## Considered Options

* MADR
* Other templates listed at <https://github.com/example/templates>

## Decision Outcome

Chosen option: "MADR", because it is lean.
`;

const EARLIER_ADR = `# 16. Tools for unit tests

* Status: accepted

## Considered Options

* Mockzilla
* FakeBuilder

## Decision Outcome

Chosen option: "Mockzilla", because the team knows it.
`;

const LATER_ADR = `# 33. Test data

* Status: accepted

## Considered Options

* Cases written by the team
* [FakeBuilder](https://example.test/fakebuilder)

## Decision Outcome

After a spike, the decision was made to leverage both hand-made cases and the FakeBuilder library.
`;

const STORE_ADR = `# 7. Use store-typed-modules in the editor app

## Status

accepted

## Context

Calls into the store are not type safe. With store-typed-modules we can drop the \`store-decorators\` dependency, as the components reach the store through it.

## Decision

We rewrite the store with store-typed-modules.
`;

const RUST_AGENTS = `# Agent rules

- Never block the runtime: avoid \`std::thread::sleep\`, blocking IO and heavy work on async tasks.
- Use structured logging (\`tracing\`) and avoid leaking secrets.
`;

describe("guard: names as an option line writes them", () => {
  test("link texts and code spans are names; URLs are not", () => {
    assert.deepEqual(linkedNames("1. Run it next to the old one, with `nginx` routing via [HAProxy](https://example.test/h)"), ["nginx", "HAProxy"]);
    assert.equal(withoutUrls("Other templates listed at <https://github.com/example/templates>"), "Other templates listed at");
    assert.equal(withoutUrls("See (https://example.test/x) and https://example.test/y too"), "See and too");
  });

  test("a chosen option whose words name another listed option chose it too, unless it sets it aside", () => {
    const model = (chosen: string) =>
      ({ title: "Test data", chosen: { name: chosen, range: { start: 9, end: 9 }, how: "decision-prose" }, rejected: [{ name: "Bogus", range: { start: 6, end: 6 } }] }) as unknown as DecisionRecord;
    const both = refineOptions(model("leverage both manual test case creation and the Bogus library"), [], 12);
    assert.deepEqual([both.rejected.map((r) => r.name), both.chosen.map((c) => c.name)], [[], ["Bogus"]]);
    const instead = refineOptions(model("manual test case creation instead of the Bogus library"), [], 12);
    assert.deepEqual([instead.rejected.map((r) => r.name), instead.chosen.map((c) => c.name)], [["Bogus"], []]);
  });

  test("a path in a language's separators is one name; a plural last part still matches", () => {
    const sleep = keysOf("`std::thread::sleep`");
    assert.deepEqual(sleep?.exact, ["std", "thread", "sleep"]);
    assert.ok(findName(tokensOf("    std::thread::sleep(Duration::from_millis(250));"), sleep!));
    assert.equal(findName(tokensOf("    tokio::time::sleep(Duration::from_millis(250)).await;"), sleep!), undefined);
    const store = keysOf("vuex-smart-modules");
    assert.ok(findName(tokensOf('    "vuex-smart-module": "^1.0.0"'), store!));
    assert.equal(findName(tokensOf('    "vuex-smart-thing": "^1.0.0"'), store!), undefined);
  });
});

describe("guard: rules in code spans and purpose rules", () => {
  test("avoid `X` reads the code span whole; a purpose rule turns down libraries named for the purpose", () => {
    const file = { path: "AGENTS.md", text: RUST_AGENTS, source_type: "agent-instructions" } as ArtifactFile;
    const rules = ruleDecisions(file);
    assert.deepEqual(rules.flatMap((d) => d.forbidden.map((f) => f.name)), ["std::thread::sleep", "another logging library than tracing"]);
    assert.equal(purposeStem("logging"), "log");
    assert.equal(purposeStem("errors"), "error");
    const [other] = purposeExclusions("Use structured logging (`tracing`) and avoid leaking secrets.", { start: 1, end: 1 });
    assert.ok(other.importsOnly);
    assert.ok(findName(tokensOf("env_logger"), other.keys));
    assert.ok(findName(tokensOf("log"), other.keys));
    assert.equal(findName(tokensOf("tracing-subscriber"), other.keys), undefined);
    // A capitalised library name before the parenthesis is not a purpose word.
    assert.deepEqual(purposeExclusions("Use JSpecify annotations (`@Nullable`, `@NonNull`) instead of others.", { start: 1, end: 1 }), []);
  });

  test("a Rust crate breaks both rules; tokio's sleep and tracing break none", async () => {
    const cargo = '[package]\nname = "client"\nversion = "0.1.0"\n\n[dependencies]\ntracing = "0.1"\n';
    const repo = createGitRepo([{ message: "rules", files: { "AGENTS.md": RUST_AGENTS, "Cargo.toml": cargo, "src/lib.rs": "pub mod backoff;\n" } }]);
    writeFiles(repo, {
      "Cargo.toml": `${cargo}log = "0.4"\n`,
      "src/backoff.rs": "use std::time::Duration;\n\npub async fn wait(n: u64) {\n    std::thread::sleep(Duration::from_millis(n));\n}\n",
    });
    const found = findingSummary(await checkWorktree(repo));
    assert.equal(found.filter((f) => f === "breaks-rule AGENTS.md").length, 2, JSON.stringify(found));
    writeFiles(repo, {
      "Cargo.toml": `${cargo}`,
      "src/backoff.rs": "use std::time::Duration;\n\npub async fn wait(n: u64) {\n    tokio::time::sleep(Duration::from_millis(n)).await;\n    tracing::debug!(n, \"waited\");\n}\n",
    });
    assert.deepEqual(findingSummary(await checkWorktree(repo)), []);
  });
});

describe("guard: what a record chose, beyond its outcome line", () => {
  test("an empty outcome leaves the choice to the title: dropping it conflicts, the others are rejected", async () => {
    const gomod = "module example.test/api\n\ngo 1.21\n\nrequire (\n\texample.test/zapper v1.17.0\n)\n";
    const repo = createGitRepo([{ message: "records", files: { "docs/adr/0002-logging.md": EMPTY_OUTCOME_ADR, "go.mod": gomod } }]);
    writeFiles(repo, { "go.mod": gomod.replace("\texample.test/zapper v1.17.0\n", "") });
    assert.deepEqual(findingSummary(await checkWorktree(repo)), ["removes-chosen-option docs/adr/0002-logging.md"]);
    writeFiles(repo, { "go.mod": gomod.replace("\texample.test/zapper v1.17.0\n", "\texample.test/zapper v1.17.0\n\texample.test/slowlog v1.8.1\n") });
    assert.deepEqual(findingSummary(await checkWorktree(repo)), ["introduces-rejected-option docs/adr/0002-logging.md"]);
  });

  test("variants of the chosen option reject nothing they qualify; the other option and a dropped chosen one conflict", async () => {
    const gomod = "module example.test/api\n\ngo 1.21\n\nrequire (\n\texample.test/sqlgen v4.6.0\n)\n";
    const repo = createGitRepo([{ message: "records", files: { "docs/adr/0001-sql.md": VARIANT_ADR, "go.mod": gomod } }]);
    writeFiles(repo, { "go.mod": gomod.replace(")\n", "\texample.test/jackc/pgx/v4 v4.11.0\n\texample.test/go-sql-driver/mysql v1.6.0\n)\n") });
    assert.deepEqual(findingSummary(await checkWorktree(repo)), [], "the databases the variants name are not turned down");
    writeFiles(repo, { "go.mod": gomod.replace(")\n", "\texample.test/ormix v1.22.4\n)\n") });
    assert.deepEqual(findingSummary(await checkWorktree(repo)), ["introduces-rejected-option docs/adr/0001-sql.md"]);
    writeFiles(repo, { "go.mod": gomod.replace("\texample.test/sqlgen v4.6.0\n", "") });
    assert.deepEqual(findingSummary(await checkWorktree(repo)), ["removes-chosen-option docs/adr/0001-sql.md"]);
  });

  test("a long option's code span is its name: a new config file in a folder named for it conflicts", async () => {
    const repo = createGitRepo([{ message: "records", files: { "docs/adr/0004-routing.md": ROUTER_ADR, "README.md": "# API\n" } }]);
    writeFiles(repo, { "deploy/nginx/router.conf": "upstream old_api { server 127.0.0.1:9022; }\nserver {\n    location / { proxy_pass http://old_api; }\n}\n" });
    const found = strongFindings(await checkWorktree(repo));
    assert.deepEqual(found.map((f) => `${f.kind} ${f.severity} ${f.matched.via}`), ["introduces-rejected-option med config"], JSON.stringify(found));
  });

  test("a URL in an option names nothing: a GitHub-hosted dependency is not that option", async () => {
    const gomod = "module example.test/api\n\ngo 1.21\n\nrequire (\n)\n";
    const repo = createGitRepo([{ message: "records", files: { "docs/adr/0000-records.md": FORMAT_ADR, "go.mod": gomod } }]);
    writeFiles(repo, { "go.mod": gomod.replace(")\n", "\tgithub.com/acme/widgets v1.0.0\n)\n") });
    assert.deepEqual(findingSummary(await checkWorktree(repo)), []);
  });

  test("a later record that chooses what an earlier one turned down overrules it; the earlier one still rejects the rest", async () => {
    const csproj = '<Project Sdk="Microsoft.NET.Sdk">\n  <ItemGroup>\n    <PackageReference Include="Mockzilla" Version="4.0.0" />\n  </ItemGroup>\n</Project>\n';
    const repo = createGitRepo([
      { message: "records", files: { "docs/adr/0016-unit-test-tools.md": EARLIER_ADR, "docs/adr/0033-test-data.md": LATER_ADR, "tests/App.Tests.csproj": csproj } },
    ]);
    writeFiles(repo, { "tests/App.Tests.csproj": csproj.replace("  </ItemGroup>", '    <PackageReference Include="FakeBuilder" Version="35.0.0" />\n  </ItemGroup>') });
    assert.deepEqual(findingSummary(await checkWorktree(repo)), []);
  });

  test("a dependency the record lets go is turned down; the chosen one is kept", async () => {
    const pkg = '{\n  "name": "editor",\n  "dependencies": {\n    "store-typed-modules": "^1.0.0"\n  }\n}\n';
    const repo = createGitRepo([{ message: "records", files: { "docs/adr/0007-store.md": STORE_ADR, "app/package.json": pkg } }]);
    writeFiles(repo, { "app/package.json": pkg.replace('"store-typed-modules": "^1.0.0"', '"store-decorators": "^0.3.2",\n    "store-typed-modules": "^1.0.0"') });
    assert.deepEqual(findingSummary(await checkWorktree(repo)), ["introduces-rejected-option docs/adr/0007-store.md"]);
    writeFiles(repo, { "app/package.json": pkg.replace('    "store-typed-modules": "^1.0.0"\n', "") });
    assert.deepEqual(findingSummary(await checkWorktree(repo)), ["removes-chosen-option docs/adr/0007-store.md"]);
  });
});
