// The guard on records and rules the third dev set brought (eval/guard dev3): rules in instruction files that
// AGENTS.md points to, list items read with their lead-in ("Agents MUST NOT:"), purposes named by a label or a "for"
// phrase ("**Fixtures:** seedkit for model factories"), categories turned down whole ("Avoid mocking frameworks"),
// "No `X`." and "X is not allowed", a "Switch … from X to Y" title, a record that picks its option in a sentence
// outside any decision section, Gradle version-catalog accessors, a module a record names in a code span, and peers
// that a sibling rule names, and a part of the code a record deleted. Each integration case writes records or instruction files into a real git repository,
// changes files, and checks the findings. All names are invented.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { ruleDecisions, type GuardDecision } from "../../src/core/guard/decisions";
import { readLine } from "../../src/core/guard/lines";
import { findName, keysOf, tokensOf } from "../../src/core/guard/names";
import { withoutPeersNamedElsewhere } from "../../src/core/guard/peers";
import { proseOptionsOf } from "../../src/core/guard/proseOptions";
import { categoryExclusions, labelledPurposes, purposeWordStem } from "../../src/core/guard/purposeRules";
import { parseAdr } from "../../src/core/internal/adr";
import { conventionType } from "../../src/core/internal/discovery";
import type { ArtifactFile } from "../../src/core/types";
import { createGitRepo, writeFiles } from "../helpers/gitRepo";
import { checkWorktree, findingSummary, strongFindings } from "../helpers/guardRepo";

const rulesOf = (text: string, path = "AGENTS.md") => ruleDecisions({ path, text, source_type: "agent-instructions" } as ArtifactFile);
const R = { start: 1, end: 1 };

const POINTER_AGENTS = `# Agent guide

Read the area guides before changing code:

- Backend: see [the backend guide](guides/agents.backend.md)
`;

const BACKEND_GUIDE = `# Backend guide

## Testing

**Runner:** quickcheck-runner with its plugin
**Fixtures:** seedkit for model factories
**Mocking:** replayer library for HTTP mocks

## Stack

- **Email**: a mail relay via mailkit
`;

const MUST_AGENTS = `# Rules

## Technology

Agents MUST use:

- Kotlin for new code
- Pinject for dependency injection (constructor injection)

Agents MUST NOT:

- Add telemetry, analytics, or tracking of any kind
- Add permissions without explicit request and justification
- Introduce dependencies with known vulnerabilities

Testing policy:

- Avoid mocking frameworks unless strongly justified

## UI

Raw Widget components are NOT allowed outside the design system module.

## Pages

All pages are exported statically. No \`loadOnServer\`.
`;

const LINTER_ADR = `# Use Code Linters

- Status: Accepted

## Context and Problem Statement

Python code has no linter that finds mistakes.

## Which Linter?

Three approaches that stand out:

- \`pyscan\` for finding the most issues. It is slow and has many false
  positives.
- \`flakemate\` with several plugins. It is fast enough.
- \`quicklint\` with additional checks enabled.

Due to its speed, \`quicklint\` is the recommended tool for the next linter.
`;

const SWITCH_ADR = `# Switch Test Assertions from Verity to checkit

## Status

- **Accepted**

## Context

Verity was written for Java; checkit reads better in Kotlin.

## Decision

We use [checkit](https://example.test/checkit) for assertions.
`;

const BUILD_ADR = `# Central build configuration

## Status

Accepted

## Decision

We keep shared Gradle logic in a \`build-logic\` module.
`;

describe("guard: where rules are and how they are phrased", () => {
  test("an instruction file split by area is an instruction file", () => {
    assert.equal(conventionType(".agents/agents.backend.md"), "agent-instructions");
    assert.equal(conventionType("CLAUDE.local.md"), "agent-instructions");
    assert.equal(conventionType("docs/backend.md"), "architecture");
  });

  test("list items are read with their lead-in; categories turned down whole; 'No `X`' and 'X is not allowed'", () => {
    const rules = rulesOf(MUST_AGENTS);
    const forbidden = rules.flatMap((d) => d.forbidden.map((f) => f.name));
    // "Pinject for dependency injection" under "Agents MUST use:" keys the injection purpose.
    assert.ok(forbidden.includes("another injection library than Pinject"), JSON.stringify(forbidden));
    for (const name of ["a telemetry library", "a analytics library", "a tracking library", "a mocking library", "loadOnServer", "Widget components"]) {
      assert.ok(forbidden.includes(name), `${name} in ${JSON.stringify(forbidden)}`);
    }
    // A qualified object ("permissions without …", "dependencies with known vulnerabilities") is a kind, not a category.
    assert.ok(!forbidden.some((n) => /permission|dependenc/.test(n)), JSON.stringify(forbidden));
    // The lead-in makes "Kotlin" a thing to keep, and the item's plain words never a forbidden name.
    assert.ok(rules.some((d) => d.required.some((r) => r.name === "Kotlin")));
    const telemetry = rules.flatMap((d) => d.forbidden).find((f) => f.name === "a telemetry library")!;
    assert.ok(telemetry.dependencyOnly);
  });

  test("a label or a 'for' phrase names a purpose; a domain label or an instruction does not", () => {
    const things = labelledPurposes(BACKEND_GUIDE.replace(/\n/g, " "), R);
    assert.deepEqual(things.map((t) => t.keys.stems?.[0]), ["fixture", "factory", "mock"]);
    assert.deepEqual(labelledPurposes("**Keep working code:** Don't delete fallbacks unless asked", R), []);
    assert.deepEqual(labelledPurposes("- **Phone**: Twilight", R), []);
    // A "for" phrase with an adjective is a manner, a long one a description, an imperative value no library.
    assert.deepEqual(labelledPurposes("- **Framework**: Zeffect 2.x for functional programming", R), []);
    assert.deepEqual(labelledPurposes("Integration tests use Boxes for real database/service instances", R), []);
    assert.deepEqual(labelledPurposes("- **Ownership and cloning**: prefer explicit lifetimes/ownership", R), []);
    assert.equal(purposeWordStem("factories"), "factory");
    assert.equal(purposeWordStem("injection"), "inject");
    assert.equal(purposeWordStem("testing"), undefined, "too common a purpose to key libraries by");
    // The chosen library's own line is that library, not another one for the purpose.
    const [injection] = labelledPurposes("Agents MUST use Pinject for dependency injection", R);
    assert.ok(findName(tokensOf("dev.example:inject-extras"), injection.keys));
    assert.equal(findName(tokensOf("org.pinject.core.inject"), injection.keys), undefined);
    assert.deepEqual(categoryExclusions("mocking frameworks", R).map((t) => t.keys.stems), [["mock"]]);
  });

  test("a backend guide pointed to from AGENTS.md: another fixtures or mocking library breaks it, the chosen ones do not", async () => {
    const reqs = "webframe==5.2\nseedkit==1.24.0\nreplayer==0.26.2\n";
    const repo = createGitRepo([{ message: "rules", files: { "AGENTS.md": POINTER_AGENTS, "guides/agents.backend.md": BACKEND_GUIDE, "requirements.txt": reqs } }]);
    writeFiles(repo, { "requirements.txt": `${reqs}factory-maker==3.3.3\nhttp-mock-kit==1.12.1\nmailcheck==2.0\n` });
    const found = strongFindings(await checkWorktree(repo));
    assert.deepEqual(
      found.map((f) => `${f.kind} ${f.decision.path} ${f.matched.text}`),
      ["breaks-rule guides/agents.backend.md factory-maker", "breaks-rule guides/agents.backend.md http-mock-kit"],
      "a domain label (Email) keys nothing: mailcheck is no conflict",
    );
    writeFiles(repo, { "requirements.txt": `${reqs.replace("seedkit==1.24.0", "seedkit==1.25.0")}`, "app/tests/test_reply.py": "import replayer\nfrom seedkit import baker\n\n# factories come from seedkit; replayer mocks HTTP\n" });
    assert.deepEqual(findingSummary(await checkWorktree(repo)), []);
  });

  test("a telemetry dependency breaks the lead-in rule; the word in code does not", async () => {
    const pkg = '{\n  "name": "mail",\n  "dependencies": {\n    "left-pad": "^1.0.0"\n  }\n}\n';
    const repo = createGitRepo([{ message: "rules", files: { "AGENTS.md": MUST_AGENTS, "package.json": pkg } }]);
    writeFiles(repo, { "package.json": pkg.replace('"left-pad": "^1.0.0"', '"left-pad": "^1.0.0",\n    "cloud-analytics": "^2.1.0"') });
    assert.deepEqual(findingSummary(await checkWorktree(repo)), ["breaks-rule AGENTS.md"]);
    writeFiles(repo, { "package.json": pkg, "src/report.ts": "export const analytics = { tracking: false };\n" });
    assert.deepEqual(findingSummary(await checkWorktree(repo)), []);
  });
});

describe("guard: what a record decides beyond its decision section", () => {
  test("a 'Switch … from X to Y' title rejects X and chooses Y", () => {
    const read = proseOptionsOf(parseAdr("docs/adr/0003-switch.md", SWITCH_ADR), undefined);
    assert.deepEqual([read.rejected.map((r) => r.name), read.chosen.map((c) => c.name)], [["Verity"], ["checkit"]]);
  });

  test("a part of the code the record deleted (the AuditTrail model) is turned down; a lower-case phrase is not read", async () => {
    const record = "# 6. Delivery is the mail service's job\n\n## Status\n\nAccepted\n\n## Decision\n\nWe send; the mail service delivers.\n\n## Consequences\n\nWe no longer retry, which allowed us to delete the AuditTrail model. We also delete the old retry queue.\n";
    const read = proseOptionsOf(parseAdr("docs/adr/0006-delivery.md", record), undefined);
    assert.deepEqual(read.rejected.map((r) => r.name), ["AuditTrail"]);
    const repo = createGitRepo([{ message: "records", files: { "docs/adr/0006-delivery.md": record, "app/jobs/send_job.rb": "class SendJob\nend\n" } }]);
    writeFiles(repo, { "app/jobs/retry_job.rb": "class RetryJob\n  def perform(id)\n    AuditTrail.create!(email_id: id)\n  end\nend\n" });
    assert.deepEqual(findingSummary(await checkWorktree(repo)), ["introduces-rejected-option docs/adr/0006-delivery.md"]);
  });

  test("a listed option keys by its words that name a thing, not by a word the record writes in lower case", async () => {
    const record = "# Hand credentials to the pods\n\n* Status: accepted\n\n## Context and Problem Statement\n\nPods need secrets; the secrets live in a vault.\n\n## Considered Options\n\n* Secrets Mount CSI driver\n* Sealbox\n\n## Decision Outcome\n\nChosen option: \"Sealbox\", because it needs no driver on the nodes.\n";
    const pkg = '{\n  "name": "ops",\n  "dependencies": {\n    "sealbox": "^1.0.0"\n  }\n}\n';
    const repo = createGitRepo([{ message: "records", files: { "docs/adr/0002-secrets.md": record, "package.json": pkg } }]);
    writeFiles(repo, { "package.json": pkg.replace('"sealbox": "^1.0.0"', '"sealbox": "^1.0.0",\n    "external-secrets-client": "^2.0.0"') });
    assert.deepEqual(findingSummary(await checkWorktree(repo)), [], "another package about secrets is not the CSI driver");
    writeFiles(repo, { "package.json": pkg.replace('"sealbox": "^1.0.0"', '"sealbox": "^1.0.0",\n    "secrets-mount-csi": "^2.0.0"') });
    assert.deepEqual(findingSummary(await checkWorktree(repo)), ["introduces-rejected-option docs/adr/0002-secrets.md"]);
  });

  test("a recommending sentence outside a decision section picks from a name-led list", async () => {
    const reqs = "webframe==5.2\nquicklint==0.16.2\n";
    const repo = createGitRepo([{ message: "records", files: { "docs/adr/0004-linters.md": LINTER_ADR, "requirements.txt": reqs } }]);
    writeFiles(repo, { "requirements.txt": `${reqs}flakemate==7.3.0\n` });
    assert.deepEqual(findingSummary(await checkWorktree(repo)), ["introduces-rejected-option docs/adr/0004-linters.md"]);
    writeFiles(repo, { "requirements.txt": "webframe==5.2\n" });
    assert.deepEqual(findingSummary(await checkWorktree(repo)), ["removes-chosen-option docs/adr/0004-linters.md"]);
    writeFiles(repo, { "requirements.txt": reqs.replace("0.16.2", "0.16.3"), "docs/linting.md": "We compared pyscan and flakemate before choosing quicklint.\n" });
    assert.deepEqual(findingSummary(await checkWorktree(repo)), []);
  });

  test("a version-catalog accessor is a dependency; a module named in a code span is the record's area", async () => {
    assert.deepEqual(readLine("app/build.gradle.kts", "manifest", "    testImplementation(libs.verity)"), { kind: "dependency", name: "verity" });
    assert.deepEqual(readLine("app/build.gradle.kts", "manifest", "    implementation(platform(libs.pinject.bom))"), { kind: "dependency", name: "pinject.bom" });
    const build = "plugins {\n    id(\"lib\")\n}\n\ndependencies {\n}\n";
    const repo = createGitRepo([
      { message: "records", files: { "docs/adr/0003-switch.md": SWITCH_ADR, "docs/adr/0005-build.md": BUILD_ADR, "app/build.gradle.kts": build, "build-logic/Lint.kt": "object Lint\n" } },
    ]);
    writeFiles(repo, { "app/build.gradle.kts": build.replace("dependencies {\n", "dependencies {\n    testImplementation(libs.verity)\n") });
    assert.deepEqual(findingSummary(await checkWorktree(repo)), ["introduces-rejected-option docs/adr/0003-switch.md"]);
    writeFiles(repo, { "app/build.gradle.kts": build, "build-logic/Lint.kt": "object Lint {\n    const val ABORT = true\n}\n" });
    const report = await checkWorktree(repo);
    assert.deepEqual(findingSummary(report), []);
    assert.ok(report.findings.some((f) => f.kind === "touches-decided-area" && f.decision.path === "docs/adr/0005-build.md"), JSON.stringify(report.findings));
  });
});

describe("guard: peers a sibling rule names", () => {
  test("a backend guide's test runner and a frontend guide's are both allowed; a third is still turned down", () => {
    const backend = rulesOf("- **Testing**: pytest with its plugins\n", ".agents/agents.backend.md");
    const frontend = rulesOf("- **Testing**: Jest and a DOM library\n", ".agents/agents.frontend.md");
    const rules: GuardDecision[] = [...backend, ...frontend];
    const before = rules.flatMap((d) => d.forbidden.map((f) => f.name));
    assert.ok(before.includes("Jest") && before.includes("pytest"), JSON.stringify(before));
    withoutPeersNamedElsewhere(rules);
    const after = rules.flatMap((d) => d.forbidden.map((f) => f.name));
    assert.ok(!after.includes("Jest") && !after.includes("pytest"), JSON.stringify(after));
    assert.ok(after.includes("Mocha"), JSON.stringify(after));
    assert.ok(keysOf("Mocha"));
  });

  test("a member a rule turns down is not the one it names to use", () => {
    const names = (text: string) => rulesOf(text).flatMap((d) => d.forbidden.filter((f) => f.peer).map((f) => f.name));
    // "do not add winston" names no logger to use: pino and the rest are not turned down by it.
    assert.deepEqual(names("- Never use console.log in src/; do not add winston.\n"), []);
    // "Use Vitest instead of Jest": Vitest is the one; Jest is forbidden by the rule itself, the other runners as peers.
    const peers = names("- Use Vitest instead of Jest for tests.\n");
    assert.ok(peers.includes("Mocha") && !peers.includes("Vitest"), JSON.stringify(peers));
  });
});
