// The guard on the shapes of conflict it could not see before the dev4 batch (issue 22): the rejected thing named
// differently in the record and in the change (a compound package name, a product of common words, a vendor's
// product, a language), a record that says what it moved off ("the switch from X to Y", "we were using X, but"),
// a decision sentence that finds an option unfit or forbids examples, and a chosen option bypassed or dropped in a
// CI or infrastructure file. Each mechanism has an innocent look-alike it must not fire on. Real git repositories.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { checkChange, GuardReportSchema, type GuardReport } from "../../src/core/guard";
import { pinnedVersionBypasses, schemesChosenIn } from "../../src/core/guard/centralVersions";
import { fileKind } from "../../src/core/guard/lines";
import { changeTokensOf, findName, keysOf, vendorProductKeys } from "../../src/core/guard/names";
import { ciSystemNamed, ciSystemsOfFile, languageOfFile } from "../../src/core/guard/newFiles";
import { proseOptionsOf } from "../../src/core/guard/proseOptions";
import { ruleDecisions } from "../../src/core/guard/decisions";
import { forbiddenExamples, inConsequences, ownedThing, withVerdicts } from "../../src/core/guard/recordReading";
import { decisionModelOf } from "../../src/core/decisions";
import { parseAdr } from "../../src/core/internal/adr";
import { createGitRepo, writeFiles } from "../helpers/gitRepo";

async function check(repo: string): Promise<GuardReport> {
  const report = await checkChange(repo, { kind: "worktree" }, { config: {} });
  GuardReportSchema.parse(report);
  return report;
}

const strong = (r: GuardReport) => r.findings.filter((f) => f.severity !== "low");
const summary = (r: GuardReport) => strong(r).map((f) => `${f.kind} ${f.file} ← ${f.decision.path}`);

const SWITCH_ADR = `# 7. Error handling

## Status

Accepted

## Context

This record explains the switch from using \`faultline\` for error handling to the [\`errkit\`](https://example.test/errkit) crate.

## Decision

Every crate defines its errors with errkit's macro. Tracers are features: we can switch from the \`tracea\` tracer to the \`traceb\` tracer by a flag.
`;

const LANGUAGES_ADR = `# 19. Use \`bash\` and \`go\` as core languages

## Status

Accepted

## Context

We were using \`python\` and \`node.js\`, but few of us knew them well.

## Decision

We have decided to use \`bash\` and \`go\` as our core languages. New scripts are written in \`go\`.
`;

const CONSEQUENCES_ADR = `# 18. Use Gatekeep Advanced

## Status

Accepted

## Context

Public endpoints need protection.

## Decision

We will use Gatekeep Advanced for the platform.

## Consequences

### Advantages

* Attack specific metrics
* We can use Terraform to write the firewall policies
`;

const VERDICT_ADR = `# 30. Resolver filtering

## Status

Accepted

## Options

### 1. Implement Blockwall

Free to use.

### 2. Implement Nimbus Resolver Firewall

Managed through code.

## Decision

Implementing Blockwall is not appropriate at a platform level; it expects on-premise servers.
Implementing Nimbus Resolver Firewall offers comparable protection.
`;

const QUEUE_ADR = `# ADR001 - Use HTTP between services

- **Status**: Adopted

## Decision

HTTP will be used for inter-service communication. No message queue (Hopperq or otherwise) shall be used.

## Options considered

1. (SELECTED) 'Simple HTTP'
2. A message queue
`;

const CACHE_ADR = `# ADR010 - Use SQL Server caching for session storage

- **Status**: Adopted

## Decision

Use SQL Server caching for session storage.

## Options considered

1. (SELECTED) Use SQL Server caching
2. Stick with Redis
`;

const HOSTING_ADR = `# ADR007 - Use App Hosting

- **Status**: Adopted

## Decision

Applications are deployed to App Hosting.

## Options considered

1. (SELECTED) App Hosting
2. Container Apps
`;

const DOCS_ADR = `# ADR029 - Technical documentation site

- **Status**: Adopted

## Decision

Implement option 3.

## Options considered

1. Continue using GitHub's repository explorer
2. Use Quillsite's [docs-theme](https://example.test/docs-theme)
3. (SELECTED) Static pages with Pagesmith
`;

const SCHEDULER_ADR = `# 21. Use our own function for instance scheduling

## Status

Accepted

## Context

We want to stop instances at night. An instance is stopped when its tag says so.

## Options

### Option 1 - Use AWS Instance Scheduler

It is in CloudFormation.

### Option 2 - Create a custom function

Flexible.

## Decision

Option 2, we will create a custom function.
`;

const CI_ADR = `# 5. Use GitHub Actions as our CI/CD runner

## Status

Accepted

## Context

We need a CI/CD runner.

## Decision

We have decided to use GitHub Actions as our CI/CD runner.
`;

const SCAN_ADR = `# ADR025 - Use Scanly in monitoring mode

- **Status**: Adopted

## Decision

Scanly scanning tools will be used to detect issues in code quality on every push.

## Options considered

1. (SELECTED) Use Scanly in monitoring mode
`;

const WORKFLOW = `name: Scan
on: push
jobs:
  scan:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - name: Install Scanly scanner
        run: dotnet tool install --global scanly-cli
      - name: Build
        run: dotnet build
`;

describe("guard: how a record says what it moved off", () => {
  test("a switch sentence turns its source down and chooses its target; a switch one could make is not read", () => {
    const prose = proseOptionsOf(parseAdr("docs/adr/adr-007-error.md", SWITCH_ADR), undefined);
    assert.deepEqual(prose.rejected.map((r) => r.name), ["faultline"]);
    assert.deepEqual(prose.chosen.map((c) => c.name), ["errkit"]);
  });

  test('"we were using X and Y, but …" turns X and Y down', () => {
    const prose = proseOptionsOf(parseAdr("adr/0019-languages.md", LANGUAGES_ADR), undefined);
    assert.deepEqual(prose.rejected.map((r) => r.name).sort(), ["node.js", "python"]);
  });

  test("a Cargo dependency on the switched-from crate and dropping the switched-to one are found; a feature change is not", async () => {
    const cargo = '[package]\nname = "relay"\nversion = "0.1.0"\n\n[dependencies]\nerrkit = { version = "0.4", features = ["std", "tracea"] }\nserde = "1"\n';
    const repo = createGitRepo([{ message: "init", files: { "docs/architecture/adr-007-error.md": SWITCH_ADR, "Cargo.toml": cargo } }]);
    writeFiles(repo, { "Cargo.toml": cargo.replace('serde = "1"', 'serde = "1"\nfaultline = "0.2"') });
    assert.deepEqual(summary(await check(repo)), ["introduces-rejected-option Cargo.toml ← docs/architecture/adr-007-error.md"]);
    writeFiles(repo, { "Cargo.toml": cargo.replace('errkit = { version = "0.4", features = ["std", "tracea"] }\n', 'thiserror = "1"\n') });
    assert.deepEqual(summary(await check(repo)), ["removes-chosen-option Cargo.toml ← docs/architecture/adr-007-error.md"]);
    writeFiles(repo, { "Cargo.toml": cargo.replace('"tracea"', '"traceb"') });
    assert.deepEqual(summary(await check(repo)), [], "the same crate with another tracer feature is innocent");
  });
});

describe("guard: a record's shape qualifies its options", () => {
  test("items under Consequences/Advantages are no options; a possessive names the owned thing", async () => {
    const adr = parseAdr("adr/0018-gatekeep.md", CONSEQUENCES_ADR);
    const line = CONSEQUENCES_ADR.split("\n").findIndex((l) => l.includes("Terraform")) + 1;
    assert.equal(inConsequences(adr, line), true);
    assert.equal(inConsequences(adr, CONSEQUENCES_ADR.split("\n").findIndex((l) => l.startsWith("We will use")) + 1), false);
    assert.equal(ownedThing("Continue using GitHub's repository explorer"), "repository explorer");
    assert.equal(ownedThing("Use Quillsite's [docs-theme](https://example.test/docs-theme)"), "[docs-theme](https://example.test/docs-theme)");
    assert.equal(ownedThing("Plain HTTP"), "Plain HTTP");
    const repo = createGitRepo([{ message: "init", files: { "adr/0018-gatekeep.md": CONSEQUENCES_ADR, "docs/arch/ADR029-docs.md": DOCS_ADR, "README.md": "# x\n" } }]);
    writeFiles(repo, {
      "infra/waf.tf": 'resource "aws_wafv2_web_acl" "main" {\n  name = "terraform-managed"\n}\n',
      ".github/workflows/deploy.yml": "name: Deploy\non: push\njobs:\n  deploy:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: azure/login@v2\n",
    });
    assert.deepEqual(summary(await check(repo)), [], "Terraform (an advantage) and GitHub/login (owners of options) are innocent");
    writeFiles(repo, { "docs/Gemfile": 'source "https://rubygems.org"\ngem "quillsite_docs_theme"\n' });
    writeFiles(repo, { "docs/package.json": '{\n  "dependencies": {\n    "docs-theme": "^1.0.0"\n  }\n}\n' });
    assert.deepEqual(summary(await check(repo)), ["introduces-rejected-option docs/Gemfile ← docs/arch/ADR029-docs.md", "introduces-rejected-option docs/package.json ← docs/arch/ADR029-docs.md"]);
  });

  test("a decision sentence that finds the read outcome unfit turns it down and chooses the option it names plainly", () => {
    const adr = parseAdr("adr/0032-resolver.md", VERDICT_ADR);
    const model = withVerdicts(adr, decisionModelOf(adr));
    assert.equal(model.chosen?.name, "Implement Nimbus Resolver Firewall");
    assert.deepEqual(model.rejected.map((r) => r.name), ["Implement Blockwall"]);
  });

  test('"No X (Y or otherwise) shall be used" forbids Y; a NuGet reference to it is found, HTTP clients are not', async () => {
    assert.deepEqual(forbiddenExamples(parseAdr("docs/arch/ADR001-http.md", QUEUE_ADR)).map((e) => e.name), ["Hopperq"]);
    const csproj = '<Project Sdk="Microsoft.NET.Sdk">\n  <ItemGroup>\n    <PackageReference Include="MediatR" />\n  </ItemGroup>\n</Project>\n';
    const repo = createGitRepo([{ message: "init", files: { "docs/arch/ADR001-http.md": QUEUE_ADR, "src/Api/Api.csproj": csproj } }]);
    writeFiles(repo, { "src/Api/Api.csproj": csproj.replace('<PackageReference Include="MediatR" />', '<PackageReference Include="MediatR" />\n    <PackageReference Include="Microsoft.Extensions.Http" />') });
    assert.deepEqual(summary(await check(repo)), []);
    writeFiles(repo, { "src/Api/Api.csproj": csproj.replace('<PackageReference Include="MediatR" />', '<PackageReference Include="MediatR" />\n    <PackageReference Include="Hopperq.Client" />') });
    assert.deepEqual(summary(await check(repo)), ["introduces-rejected-option src/Api/Api.csproj ← docs/arch/ADR001-http.md"]);
  });
});

describe("guard: a thing named differently in the record and the change", () => {
  test("compound package words split into parts; a product of common capitalised words keys by those words in a row", () => {
    assert.deepEqual(changeTokensOf("Microsoft.Extensions.Caching.StackExchangeRedis"), ["microsoft", "extensions", "caching", "stackexchangeredis", "stack", "exchange", "redis"]);
    assert.deepEqual(keysOf("Container Apps")?.exact, ["container", "apps"]);
    assert.deepEqual(keysOf("Use SQL Server caching")?.exact, ["sql", "server"]);
    assert.equal(keysOf("Do Nothing"), undefined);
    assert.equal(keysOf("Plain CSS"), undefined);
    assert.deepEqual(keysOf("GitHub Actions as our CI/CD runner")?.tokens, ["actions", "github"], "CI/CD is an abbreviation, not a package");
    const vendor = vendorProductKeys("Use AWS Instance Scheduler");
    assert.deepEqual(vendor?.keys.tokens, ["aws", "instance", "scheduler"]);
    assert.ok(vendor && findName(changeTokensOf('name = "aws-instance-scheduler"'), vendor.keys));
    assert.ok(vendor && !findName(changeTokensOf("name: Instance scheduler image"), vendor.keys));
    assert.equal(fileKind("source/user-guide/scheduling.html.md.erb"), "doc");
  });

  test("Redis inside a compound package, Container Apps inside an action name and SQL Server dropped are found; the chosen cache is not", async () => {
    const csproj = '<Project Sdk="Microsoft.NET.Sdk">\n  <ItemGroup>\n    <PackageReference Include="Microsoft.Extensions.Caching.SqlServer" />\n  </ItemGroup>\n</Project>\n';
    const repo = createGitRepo([{ message: "init", files: { "docs/arch/ADR010-cache.md": CACHE_ADR, "docs/arch/ADR007-hosting.md": HOSTING_ADR, "src/Web/Web.csproj": csproj } }]);
    writeFiles(repo, { "src/Web/Web.csproj": csproj.replace("</ItemGroup>", '  <PackageReference Include="Microsoft.Extensions.Caching.StackExchangeRedis" />\n  </ItemGroup>') });
    assert.deepEqual(summary(await check(repo)), ["introduces-rejected-option src/Web/Web.csproj ← docs/arch/ADR010-cache.md"]);
    writeFiles(repo, { "src/Web/Web.csproj": csproj.replace('Caching.SqlServer" />', 'Caching.SqlServer" />\n    <PackageReference Include="Microsoft.Extensions.Caching.Memory" />').replace('    <PackageReference Include="Microsoft.Extensions.Caching.SqlServer" />\n', "") });
    assert.deepEqual(summary(await check(repo)), ["removes-chosen-option src/Web/Web.csproj ← docs/arch/ADR010-cache.md"]);
    writeFiles(repo, { "src/Web/Web.csproj": csproj, ".github/workflows/apps.yml": "name: Deploy\non: workflow_dispatch\njobs:\n  deploy:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: example/container-apps-deploy-action@v1\n" });
    assert.deepEqual(summary(await check(repo)), ["introduces-rejected-option .github/workflows/apps.yml ← docs/arch/ADR007-hosting.md"]);
  });

  test("a vendor's product of common words needs the vendor: the project's own scheduler is innocent", async () => {
    const repo = createGitRepo([{ message: "init", files: { "adr/0021-scheduling.md": SCHEDULER_ADR, "README.md": "# x\n" } }]);
    writeFiles(repo, { ".github/workflows/scheduler.yml": "name: Instance scheduler image\non: push\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n      - run: go test ./...\n" });
    assert.deepEqual(summary(await check(repo)), []);
    writeFiles(repo, { "infra/scheduler.tf": 'resource "aws_cloudformation_stack" "scheduler" {\n  name = "aws-instance-scheduler"\n}\n' });
    assert.deepEqual(summary(await check(repo)), ["introduces-rejected-option infra/scheduler.tf ← adr/0021-scheduling.md"]);
  });
});

describe("guard: what a new file is, and a chosen tool dropped from infrastructure", () => {
  test("the language of a new source file and the CI system of a new config file", () => {
    assert.deepEqual(languageOfFile("scripts/report/main.py"), ["python"]);
    assert.equal(languageOfFile("infra/main.tf"), undefined);
    assert.deepEqual(ciSystemsOfFile("Jenkinsfile"), [["jenkins"]]);
    assert.deepEqual(ciSystemsOfFile(".circleci/config.yml"), [["circleci"]]);
    assert.deepEqual(ciSystemNamed(keysOf("GitHub Actions as our CI/CD runner")!), ["github", "actions"]);
    assert.equal(ciSystemNamed(keysOf("GitHub Issues")!), undefined);
  });

  test("a new Python or Node.js script goes against a record that moved off them; a new Go script and an edited Python one do not", async () => {
    const repo = createGitRepo([{ message: "init", files: { "adr/0019-languages.md": LANGUAGES_ADR, "scripts/old.py": "print('x')\n" } }]);
    writeFiles(repo, { "scripts/list/main.go": 'package main\n\nimport "fmt"\n\nfunc main() { fmt.Println("x") }\n', "scripts/old.py": "print('y')\n" });
    assert.deepEqual(summary(await check(repo)), []);
    writeFiles(repo, { "scripts/report/main.py": "import json\n\nprint(json.dumps({}))\n" });
    assert.deepEqual(summary(await check(repo)), ["introduces-rejected-option scripts/report/main.py ← adr/0019-languages.md"]);
  });

  test("a new CI config of another system bypasses the chosen one; a new workflow does not", async () => {
    const repo = createGitRepo([{ message: "init", files: { "adr/0005-ci.md": CI_ADR, "README.md": "# x\n" } }]);
    writeFiles(repo, { ".github/workflows/test.yml": "name: Test\non: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - run: make test\n" });
    assert.deepEqual(summary(await check(repo)), []);
    writeFiles(repo, { Jenkinsfile: "pipeline {\n  agent any\n  stages {\n    stage('Test') { steps { sh 'make test' } }\n  }\n}\n" });
    assert.deepEqual(summary(await check(repo)), ["removes-chosen-option Jenkinsfile ← adr/0005-ci.md"]);
  });

  test("removing the workflow step that runs the chosen scanner is found; changing another step is not", async () => {
    const repo = createGitRepo([{ message: "init", files: { "docs/arch/ADR025-scan.md": SCAN_ADR, ".github/workflows/scan.yml": WORKFLOW } }]);
    writeFiles(repo, { ".github/workflows/scan.yml": WORKFLOW.replace("run: dotnet build", "run: dotnet build --no-restore") });
    assert.deepEqual(summary(await check(repo)), []);
    writeFiles(repo, { ".github/workflows/scan.yml": WORKFLOW.replace("      - name: Install Scanly scanner\n        run: dotnet tool install --global scanly-cli\n", "") });
    assert.deepEqual(summary(await check(repo)), ["removes-chosen-option .github/workflows/scan.yml ← docs/arch/ADR025-scan.md"]);
  });
});

describe("guard: rules that forbid in the passive", () => {
  test('"X must not be used" and "X is forbidden" forbid their subject; a long subject only by its name-like words', () => {
    const text = ["# Rules", "", "- `moment` must not be used in new code.", "- Lodash is forbidden in the client.", "- Direct access from the views must not be used.", ""].join("\n");
    const rules = ruleDecisions({ path: "AGENTS.md", text, source_type: "agent-instructions" } as Parameters<typeof ruleDecisions>[0]);
    const names = rules.flatMap((r) => r.forbidden.map((f) => f.name));
    assert.ok(names.some((n) => /moment/.test(n)), JSON.stringify(names));
    assert.ok(names.includes("Lodash"), JSON.stringify(names));
    assert.ok(!names.some((n) => /views|access/i.test(n)), JSON.stringify(names));
  });
});

const CATALOG_ADR = `# 5. Central project configuration

## Status

Accepted

## Decision

- **Dependency Management:** Utilizing the Gradle Version Catalog to centrally manage all dependencies and plugins.
`;

const WORKSPACE_AGENTS = `# Agent rules

## Dependencies

- Prefer adding dependencies at the workspace root \`Cargo.toml\` under \`[workspace.dependencies]\`.
`;

describe("guard: versions kept in one place, bypassed by a module that pins its own", () => {
  test("which schemes a text chooses, and which manifest lines pin a version themselves", () => {
    assert.deepEqual(schemesChosenIn(CATALOG_ADR), ["gradle-catalog"]);
    assert.deepEqual(schemesChosenIn(WORKSPACE_AGENTS), ["cargo-workspace"]);
    assert.deepEqual(schemesChosenIn("# Notes\\n\\nThe build has a settings file."), []);
    assert.equal(pinnedVersionBypasses("feature/a/build.gradle.kts", '    implementation("com.example:netlib:4.1.0")'), "gradle-catalog");
    assert.equal(pinnedVersionBypasses("feature/a/build.gradle.kts", "    implementation(libs.netlib)"), undefined);
    assert.equal(pinnedVersionBypasses("crates/client/Cargo.toml", 'serde_json = "1.0"'), "cargo-workspace");
    assert.equal(pinnedVersionBypasses("crates/client/Cargo.toml", "serde_json = { workspace = true }"), undefined);
    assert.equal(pinnedVersionBypasses("Cargo.toml", 'serde_json = "1.0"'), undefined, "the workspace root declares versions");
    assert.equal(pinnedVersionBypasses("src/Api/Api.csproj", '<PackageReference Include="Netlib" Version="1.0.0" />'), "nuget-central");
  });

  test("a module pinning a version goes against the record or rule; a catalog accessor and a workspace reference do not", async () => {
    const gradle = "dependencies {\n    implementation(libs.core)\n}\n";
    const cargo = '[package]\nname = "client"\nversion = "0.1.0"\n\n[dependencies]\ntokio = { workspace = true }\n';
    const repo = createGitRepo([{ message: "init", files: { "docs/adr/0005-config.md": CATALOG_ADR, "AGENTS.md": WORKSPACE_AGENTS, "feature/a/build.gradle.kts": gradle, "crates/client/Cargo.toml": cargo } }]);
    writeFiles(repo, { "feature/a/build.gradle.kts": gradle.replace("libs.core)", "libs.core)\n    implementation(libs.netlib)"), "crates/client/Cargo.toml": `${cargo}serde_json = { workspace = true }\n` });
    assert.deepEqual(summary(await check(repo)), []);
    writeFiles(repo, { "feature/a/build.gradle.kts": gradle.replace("libs.core)", 'libs.core)\n    implementation("com.example:netlib:4.1.0")'), "crates/client/Cargo.toml": `${cargo}serde_json = "1.0"\n` });
    assert.deepEqual(summary(await check(repo)).sort(), ["breaks-rule crates/client/Cargo.toml ← AGENTS.md", "removes-chosen-option feature/a/build.gradle.kts ← docs/adr/0005-config.md"]);
    writeFiles(repo, { "feature/a/build.gradle.kts": gradle, "crates/client/Cargo.toml": cargo.replace("tokio = { workspace = true }", 'tokio = "1.40"') });
    assert.deepEqual(summary(await check(repo)), ["breaks-rule crates/client/Cargo.toml ← AGENTS.md"], "a workspace reference turned into a pinned version");
  });
});
