// The guard beyond a "Considered Options" list (issue 22, held-out recall): options a Nygard record turns down in
// prose, options that are headings or a short list, a replacing title, a chosen option dropped from a manifest or
// a Java module, and rules not phrased "do not use X" (no use of X, "(instead of X)", "will be migrated to Y", and
// a rule naming what to use for a purpose, which turns down that purpose's other libraries). Each case writes a
// record or an instruction file into a real git repository, changes a file, and checks the finding.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { checkChange, GuardReportSchema, type GuardReport } from "../../src/core/guard";
import { findName, keysOf, tokensOf } from "../../src/core/guard/names";
import { peerExclusions } from "../../src/core/guard/peers";
import { namesIn, proseOptionsOf } from "../../src/core/guard/proseOptions";
import { readLine } from "../../src/core/guard/lines";
import { parseAdr } from "../../src/core/internal/adr";
import { createGitRepo, writeFiles } from "../helpers/gitRepo";

async function check(repo: string): Promise<GuardReport> {
  const report = await checkChange(repo, { kind: "worktree" }, { config: {} });
  GuardReportSchema.parse(report);
  return report;
}

const strong = (r: GuardReport) => r.findings.filter((f) => f.severity !== "low");

const PROSE_ADR = `# 4. Job scheduler

## Status

Accepted

## Context

Reports are built overnight. Several candidates to choose from were tried, including Quartz (mature), JobRunr and db-scheduler.

Kronos was considered as an alternative, but its releases stopped in 2019.

## Decision

We will use JobRunr for every scheduled job.

## Consequences

Jobs need a storage table. The usual options for migrations are Flyway and Liquibase.
`;

const HEADINGS_ADR = `# Metrics library

## Context

We need request metrics in the API.

## The contenders

### \`statsfox\`

It needs an agent on every host.

### \`metricly-core\`

Small, and it exports to Prometheus.

### \`gaugekit\`

Its API changes with every release.

## Decision

We should use \`metricly-core\`: it was the quickest to set up.
`;

const REPLACING_ADR = `# 12. Replace FooCloud-based blob backend with the Barstore SDK

## Status

Accepted

## Context

The old backend is slow to build.

## Decision

Move every blob to Barstore.
`;

const LINK_ADR = `# Use H2 as the internal database

## Considered Options

* [H2 Database Engine](https://example.test/h2)
* [SQLite](https://example.test/sqlite)

## Decision Outcome

Chosen option: "H2 Database Engine", because it embeds without a native library.
`;

const ACRONYM_ADR = `# Use Java Native Access for the home folder

## Considered Options

* Read \`user.home\`
* Java Native Access

## Decision Outcome

Chosen option: "Java Native Access", because it finds the documents folder on every platform.
`;

const MODULE_INFO = `module org.example.app {
    requires com.h2database.mvstore;
    requires com.sun.jna.platform;
    requires org.slf4j;
}
`;

describe("guard: options a record weighs outside its option list", () => {
  test("prose candidates, a turning-down sentence, headings and a replacing title are read as rejected or chosen", () => {
    const prose = proseOptionsOf(parseAdr("docs/adr/0004-job-scheduler.md", PROSE_ADR), undefined);
    assert.deepEqual(prose.rejected.map((r) => r.name).sort(), ["Kronos", "Quartz", "db-scheduler"].sort());
    assert.deepEqual(prose.chosen.map((c) => c.name), ["JobRunr"]);
    assert.ok(!prose.rejected.some((r) => /Flyway|Liquibase/.test(r.name)), "candidates of a later choice (in Consequences) are not turned down");
    const headings = proseOptionsOf(parseAdr("docs/adr/0005-metrics.md", HEADINGS_ADR), undefined);
    assert.deepEqual(headings.rejected.map((r) => r.name), ["statsfox", "gaugekit"]);
    assert.deepEqual(headings.chosen.map((c) => c.name), ["metricly-core"]);
    const replacing = proseOptionsOf(parseAdr("docs/adr/0012-barstore.md", REPLACING_ADR), undefined);
    assert.deepEqual(replacing.rejected.map((r) => r.name), ["FooCloud"]);
    assert.deepEqual(namesIn("including Django (written in Python), Play and Akka HTTP"), ["Django", "Play", "Akka HTTP"]);
  });

  test("a change bringing in a prose-rejected or heading-rejected library is found; the chosen ones are not", async () => {
    const repo = createGitRepo([
      {
        message: "records",
        files: {
          "docs/adr/0004-job-scheduler.md": PROSE_ADR,
          "docs/adr/0005-metrics.md": HEADINGS_ADR,
          "docs/adr/0012-barstore.md": REPLACING_ADR,
          "build.gradle.kts": 'dependencies {\n    implementation("org.jobrunr:jobrunr:7.0.0")\n}\n',
        },
      },
    ]);
    writeFiles(repo, { "build.gradle.kts": 'dependencies {\n    implementation("org.jobrunr:jobrunr:7.0.0")\n    implementation("org.quartz-scheduler:quartz:2.3.2")\n}\n' });
    let found = strong(await check(repo));
    assert.equal(found.length, 1, JSON.stringify(found));
    assert.equal(found[0].kind, "introduces-rejected-option");
    assert.equal(found[0].decision.path, "docs/adr/0004-job-scheduler.md");
    assert.equal(found[0].severity, "high");

    writeFiles(repo, { "build.gradle.kts": 'dependencies {\n    implementation("org.jobrunr:jobrunr:7.0.0")\n    implementation("io.example:kronos:1.0")\n    implementation("io.example:gaugekit:0.3")\n    implementation("io.example:foocloud-blob:2.0")\n}\n' });
    found = strong(await check(repo));
    assert.deepEqual(found.map((f) => f.decision.path).sort(), ["docs/adr/0004-job-scheduler.md", "docs/adr/0005-metrics.md", "docs/adr/0012-barstore.md"]);

    writeFiles(repo, { "build.gradle.kts": 'dependencies {\n    implementation("org.jobrunr:jobrunr:7.0.0")\n    implementation("io.example:metricly-core:1.2")\n    implementation("org.flywaydb:flyway-core:10.0.0")\n}\n' });
    assert.deepEqual(strong(await check(repo)), [], "the chosen library and a later choice's candidate are innocent");
  });
});

const NUMBERED_ADR = `# 9. Admission policies

## Context

Workloads need admission checks. We considered Kyvex, Gatewarden and PolicyPilot.

## Option 1: Kyvex

Policies are YAML.

## Option 2: Gatewarden

Policies are Rego.

## Options compared

| Option | Pros | Cons |
| --- | --- | --- |
| Kyvex | YAML policies | young |
| Gatewarden | mature | Rego to learn |

## Decision

We will use Gatewarden, because the team knows Rego.
`;

const LED_ADR = `# 3. Component styling

## Context

Components need scoped styles.

## Alternatives considered

- **Stylora**: fast, but it does not support nesting.
- **Emberglass**: what the design system already uses.

## Decision

We will use Emberglass for every component.
`;

describe("guard: numbered option headings, option tables, lead-named items and 'we considered' lists", () => {
  test("each is a group the decision picks from; the others are rejected", () => {
    const numbered = proseOptionsOf(parseAdr("docs/adr/0009-admission.md", NUMBERED_ADR), undefined);
    assert.deepEqual([...new Set(numbered.rejected.map((r) => r.name))], ["Kyvex", "PolicyPilot"]);
    assert.ok(numbered.chosen.some((c) => c.name === "Gatewarden"));
    const led = proseOptionsOf(parseAdr("docs/adr/0003-styling.md", LED_ADR), undefined);
    assert.deepEqual(led.rejected.map((r) => r.name), ["Stylora"]);
  });

  test("a Helm chart a Terraform release installs is what runs; a name read from prose needs all its words", async () => {
    assert.deepEqual(readLine("terraform/policy.tf", "infra", '  chart      = "kyvex"'), { kind: "infra", name: "kyvex" });
    const repo = createGitRepo([{ message: "records", files: { "docs/adr/0009-admission.md": NUMBERED_ADR, "README.md": "# Infra\n" } }]);
    writeFiles(repo, { "terraform/policy.tf": 'resource "helm_release" "policies" {\n  chart      = "kyvex"\n}\n' });
    const found = strong(await check(repo));
    assert.ok(found.some((f) => f.kind === "introduces-rejected-option" && f.decision.path === "docs/adr/0009-admission.md" && f.severity === "high"), JSON.stringify(found));
    const keys = { display: "Cluster Auto Scaler", tokens: ["auto", "scaler"], compact: "clusterautoscaler", all: true };
    assert.equal(findName(tokensOf("auto_approve = true"), keys), undefined);
    assert.ok(findName(tokensOf('chart = "cluster-autoscaler"'), keys));
  });
});

describe("guard: a dropped chosen option", () => {
  test("a removed Java module requirement drops a link-named chosen option and an acronym-named one; a moved line drops nothing", async () => {
    const repo = createGitRepo([{ message: "records", files: { "docs/adr/0010-use-h2.md": LINK_ADR, "docs/adr/0026-use-jna.md": ACRONYM_ADR, "src/main/java/module-info.java": MODULE_INFO } }]);
    writeFiles(repo, { "src/main/java/module-info.java": MODULE_INFO.replace("    requires com.h2database.mvstore;\n", "").replace("    requires com.sun.jna.platform;\n", "") });
    const found = strong(await check(repo));
    assert.deepEqual(found.map((f) => `${f.kind} ${f.decision.path}`).sort(), ["removes-chosen-option docs/adr/0010-use-h2.md", "removes-chosen-option docs/adr/0026-use-jna.md"]);
    writeFiles(repo, { "src/main/java/module-info.java": "module org.example.app {\n    requires org.slf4j;\n    requires com.h2database.mvstore;\n    requires com.sun.jna.platform;\n}\n" });
    assert.deepEqual(strong(await check(repo)), [], "the same requirements in another order");
  });

  test("an sbt dependency line is a dependency, added or removed", () => {
    assert.deepEqual(readLine("project/Dependencies.scala", "code", '  val tracing = "com.example" %% "scala-tracing-core" % Version.tracing'), { kind: "dependency", name: "com.example:scala-tracing-core" });
    assert.deepEqual(readLine("src/main/java/module-info.java", "code", "    requires transitive com.h2database.mvstore;"), { kind: "import", name: "com.h2database.mvstore" });
  });

  test("names: a vendor word alone names no product, a capitalised short name with a digit does", () => {
    const cognito = keysOf("Amazon Cognito")!;
    assert.deepEqual(cognito.tokens, ["cognito"]);
    assert.equal(findName(tokensOf("software.amazon.awssdk.services.s3"), cognito), undefined);
    // A chosen option's short name counts (its drop is a removed dependency); a rejected "S3" would match every bucket.
    assert.ok(findName(tokensOf("com.h2database.mvstore"), keysOf("H2 Database Engine", new Set(), { shortNames: true })!));
    assert.equal(keysOf("H2 Database Engine"), undefined);
    assert.equal(keysOf("Just read it from s3", new Set(), { shortNames: true }), undefined, "a lower-case s3 in a phrase is no name");
    const command = keysOf("hand-type `seedctl launch`")!;
    assert.ok(findName(tokensOf("seedctl launch --config x.toml"), command));
    assert.equal(findName(tokensOf("launch the rocket"), command), undefined, "one word of a command is not the command");
  });
});

const AGENTS = `# Agent rules

- No use of Java Swing, only JavaFX is allowed as UI technology
- Open files through the dialog service (instead of the native FileChooser)
- Instead of \`Files.createTempDirectory\` the \`@TempDir\` annotation should be used.
- Use JSpecify annotations (\`@Nullable\`, \`@NonNull\`) instead of \`null\` checks

## Stack

- **JSON**: ZIO JSON for serialization
- **Testing**: ZIO Test, some ScalaTest suites remain but will be migrated to ZIO Test
`;

describe("guard: rules not phrased 'do not use X'", () => {
  test("a rule naming what to use for a purpose turns down that purpose's other libraries, not the named ones", () => {
    const json = peerExclusions("**JSON**: ZIO JSON for serialization", { start: 1, end: 1 }).map((t) => t.name);
    assert.ok(json.includes("circe") && json.includes("Jackson"));
    assert.ok(!json.includes("ZIO JSON"));
    const di = peerExclusions("Use dependency injection (manual DI or Dagger)", { start: 1, end: 1 }).map((t) => t.name);
    assert.ok(di.includes("Guice") && !di.includes("Dagger"));
    assert.deepEqual(peerExclusions("Let JUnit handle exceptions in tests", { start: 1, end: 1 }), [], "not phrased as a choice");
    assert.deepEqual(peerExclusions("Use Dagger for the build cache", { start: 1, end: 1 }), [], "not about injection");
  });

  test("a rule naming the project's own type for a purpose, in code, turns the purpose's libraries down", () => {
    const names = peerExclusions("- Use `net.example.core.logging.Logger` via dependency injection", { start: 1, end: 1 }).map((t) => t.name);
    assert.ok(names.includes("Timber") && names.includes("SLF4J"), names.join(", "));
    assert.ok(!names.includes("Dagger") && !names.includes("Koin"), "the type says logging, not injection");
    assert.deepEqual(peerExclusions("- Do not use `net.example.core.logging.Logger` in tests", { start: 1, end: 1 }), [], "turned down, not chosen");
    assert.deepEqual(peerExclusions("- Use `net.example.core.mail.Sender` to send mail", { start: 1, end: 1 }), [], "a type that names no purpose");
    assert.deepEqual(peerExclusions("- Use `net.example.testing.Fixtures` in tests", { start: 1, end: 1 }), [], "a helper in a testing package is no test framework");
  });

  test("the other purposes: data fetching, styling, i18n, dates, state, browser tests, mocks, data access, messaging, errors", () => {
    const peers = (rule: string) => peerExclusions(rule, { start: 1, end: 1 }).map((t) => t.name);
    const cases: [string, string, string][] = [
      ["**Data Fetching**: SWR (stale-while-revalidate)", "TanStack Query", "SWR"],
      ["**Styling**: SCSS with CSS modules, tokens from the design system", "Tailwind CSS", "Sass"],
      ["Use Fluent via @fluent/react for all translated strings", "i18next", "Fluent"],
      ["Use date-fns for dates; it tree-shakes", "Moment", "date-fns"],
      ["Prefer Zustand for client state", "Redux", "Zustand"],
      ["End-to-end tests use Playwright", "Cypress", "Playwright"],
      ["Use MockK for mocking in Kotlin tests", "Mockito", "MockK"],
      ["Database access: jOOQ only", "Hibernate", "jOOQ"],
      ["Messaging: use RabbitMQ queues between services", "Kafka", "RabbitMQ"],
      ["Logging: Timber (timber.log.Timber) in the app module", "SLF4J", "Timber"],
      ["- Use structured errors (`thiserror`/custom enums) with actionable context", "anyhow", "thiserror"],
    ];
    for (const [rule, out, kept] of cases) {
      const names = peers(rule);
      assert.ok(names.includes(out), `${rule}: ${names.join(", ")}`);
      assert.ok(!names.includes(kept), `${rule}: ${names.join(", ")}`);
    }
    // The purpose must be said: a choice of SWR in a line about something else turns nothing down.
    assert.deepEqual(peers("Use the SWR cache key helpers from hooks/"), []);
    // A member the rule turns down is not the one it names to use.
    assert.ok(peers("Use date-fns instead of moment for dates").includes("Moment"));
  });

  test("no use of X, (instead of X), Instead of X … should be used, will be migrated to Y, and peers are broken rules; the allowed ones are not", async () => {
    const repo = createGitRepo([{ message: "rules", files: { "AGENTS.md": AGENTS, "README.md": "# App\n" } }]);
    const cases: [string, string, boolean][] = [
      ["src/main/java/app/Dialog.java", "package app;\n\nimport javax.swing.JOptionPane;\n", true],
      ["src/main/java/app/Open.java", "package app;\n\nimport javafx.stage.FileChooser;\n", true],
      ["src/test/java/app/TempTest.java", "package app;\n\nclass TempTest {\n    void t() throws Exception {\n        var dir = java.nio.file.Files.createTempDirectory(\"x\");\n    }\n}\n", true],
      ["src/main/java/app/Names.java", "package app;\n\nimport org.jetbrains.annotations.Nullable;\n", true],
      ["src/main/scala/app/Codec.scala", "package app\n\nimport io.circe.Codec\n", true],
      ["src/test/scala/app/Spec.scala", "package app\n\nimport org.scalatest.wordspec.AnyWordSpec\n", true],
      ["src/main/scala/app/ZCodec.scala", "package app\n\nimport zio.json.JsonCodec\n", false],
      ["src/test/scala/app/ZSpec.scala", "package app\n\nimport zio.test.ZIOSpecDefault\n", false],
      ["src/main/java/app/Safe.java", "package app;\n\nimport org.jspecify.annotations.NullMarked;\nimport javafx.scene.control.Label;\n", false],
    ];
    for (const [path, text, conflicts] of cases) {
      writeFiles(repo, { [path]: text });
      const found = strong(await check(repo));
      if (conflicts) assert.ok(found.some((f) => f.kind === "breaks-rule" && f.decision.path === "AGENTS.md"), `${path}: ${JSON.stringify(found)}`);
      else assert.deepEqual(found, [], path);
      writeFiles(repo, { [path]: "" });
    }
  });
});

describe("guard: a record that turns down a whole kind by example", () => {
  const adr = (parenthesis: string) => `# ADR001 - Use HTTP between services\n\n- **Status**: Adopted\n\n## Decision\n\nHTTP will be used between services. No message queue (${parenthesis}) shall be used.\n`;
  const props = `<Project>\n  <ItemGroup>\n    <PackageVersion Include="Serilog" Version="3.1.1" />\n  </ItemGroup>\n</Project>\n`;
  const withBus = props.replace("  </ItemGroup>", `    <PackageVersion Include="Azure.Messaging.ServiceBus" Version="7.18.1" />\n  </ItemGroup>`);

  test("'RabbitMQ or otherwise' turns down every well-known queue; 'RabbitMQ' alone only RabbitMQ", async () => {
    const repo = createGitRepo([{ message: "init", files: { "docs/arch/ADR001-http.md": adr("RabbitMQ or otherwise"), "src/Directory.Packages.props": props } }]);
    writeFiles(repo, { "src/Directory.Packages.props": withBus });
    const found = (await check(repo)).findings.map((f) => `${f.kind} ${f.file}:${f.line}`);
    assert.deepEqual(found, ["introduces-rejected-option src/Directory.Packages.props:4"]);
    const named = createGitRepo([{ message: "init", files: { "docs/arch/ADR001-http.md": adr("RabbitMQ"), "src/Directory.Packages.props": props } }]);
    writeFiles(named, { "src/Directory.Packages.props": withBus });
    assert.deepEqual((await check(named)).findings, []);
  });
});

describe("guard: the tools a record's title builds its choice with", () => {
  const adr = `# Multi-package architecture in a monorepo with Yarn and Lerna\n\n- Status: accepted\n\n## Considered Options\n\n- Monolith\n- Multi-package, monorepo\n\n## Decision Outcome\n\nChosen option: "Multi-package, monorepo", because the packages share a release cycle.\n`;
  const pkg = (lerna: string | undefined) => `{\n  "name": "root",\n  "private": true,\n  "devDependencies": {\n${lerna ? `    "lerna": "${lerna}",\n` : ""}    "typescript": "^5.4.0"\n  }\n}\n`;

  test("dropping a tool the title names drops the choice; updating it does not", async () => {
    const repo = createGitRepo([{ message: "init", files: { "docs/adr/20200925-monorepo.md": adr, "package.json": pkg("^3.22.1") } }]);
    writeFiles(repo, { "package.json": pkg(undefined) });
    assert.deepEqual(strong(await check(repo)).map((f) => `${f.kind} ${f.file}`), ["removes-chosen-option package.json"]);
    writeFiles(repo, { "package.json": pkg("^3.22.2") });
    assert.deepEqual(strong(await check(repo)), []);
  });
});

describe("guard: what a relative clause says about a weighed option is no option", () => {
  test("'we considered upgrading to Sidekiq Pro, which persists jobs in Redis' weighs Sidekiq Pro, not Redis", () => {
    const adr = `# 9. Recover lost jobs\n\nDate: 2020-12-02\n\n## Context\n\nWorkers lose jobs when they restart. Previously we considered upgrading to Sidekiq Pro, which persists jobs in Redis while they run.\n\n## Decision\n\nWe decided to write a recovery worker instead of acquiring Sidekiq Pro.\n\n## Status\n\nAccepted\n`;
    const prose = proseOptionsOf(parseAdr("docs/adr/adr-009-recovery.md", adr), undefined);
    assert.ok(!prose.rejected.some((r) => r.name === "Redis"), JSON.stringify(prose.rejected));
  });
});
