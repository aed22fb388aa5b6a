// A rule that keeps a kind of module private to its own module ("Never depend on another module's `:internal`
// modules"): a build file that adds a dependency on another module's `:internal` breaks it. Innocent look-alikes: a
// dependency on another module's `:api`, a module's own `:internal`, a module the instruction file lets depend on
// them ("Only `app-main` may depend on `:internal` modules"), and a commented-out line. Real git, the working tree
// against HEAD; the instruction file is written for these tests.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { boundaryOf, crossesBoundary, projectDependencyOf } from "../../src/core/guard/moduleBoundaries";
import { createGitRepo } from "../helpers/gitRepo";
import { checkFilesOverHead } from "../helpers/guardRepo";

const AGENTS = `# Agent notes

## Modules

Each area has an \`:api\` module and an \`:internal\` module.

- Depend only on other modules' \`:api\` modules
- Never depend on another module's \`:internal\` or \`:internal-*\` modules
- Only \`app-main\` may depend on \`:internal\` modules (for wiring)
`;

const BUILD = (deps: string) => `plugins {\n    id("app.library")\n}\n\ndependencies {\n    implementation(projects.feature.inbox.api)\n${deps}}\n`;

function repoWith(): string {
  return createGitRepo([
    {
      message: "init",
      files: {
        "AGENTS.md": AGENTS,
        "feature/calendar/impl/build.gradle.kts": BUILD(""),
        "app-main/build.gradle.kts": BUILD(""),
        "README.md": "# app\n",
      },
    },
  ]);
}

async function findingsFor(repo: string, files: Record<string, string>): Promise<string[]> {
  const report = await checkFilesOverHead(repo, files);
  return report.findings.filter((f) => f.severity !== "low").map((f) => `${f.kind} ${f.severity} ${f.file}:${f.line} ← ${f.decision.path}`);
}

describe("guard: a dependency across a module boundary a rule keeps", () => {
  test("the rule's private kinds and the modules it exempts are read; crossings are another module's", () => {
    const rule = "Never depend on another module's `:internal` or `:internal-*` modules";
    const boundary = boundaryOf(rule, AGENTS);
    assert.deepEqual(boundary, { kinds: ["internal", "internal-"], exempt: ["app-main"] });
    assert.deepEqual(projectDependencyOf('    implementation(project(":feature:inbox:internal"))'), ["feature", "inbox", "internal"]);
    assert.ok(crossesBoundary("feature/calendar/impl/build.gradle.kts", ["feature", "inbox", "internalImap"], boundary!));
    assert.ok(!crossesBoundary("feature/calendar/impl/build.gradle.kts", ["feature", "calendar", "internal"], boundary!));
    assert.ok(!crossesBoundary("feature/calendar/impl/build.gradle.kts", ["feature", "inbox", "api"], boundary!));
    assert.equal(boundaryOf("Depend only on other modules' `:api` modules", AGENTS), undefined);
  });

  test("another module's :internal breaks the rule; its :api, the module's own :internal, the exempt app and a comment do not", async () => {
    const repo = repoWith();
    const calendar = "feature/calendar/impl/build.gradle.kts";
    assert.deepEqual(await findingsFor(repo, { [calendar]: BUILD("    implementation(projects.feature.inbox.internal)\n") }), [`breaks-rule high ${calendar}:7 ← AGENTS.md`]);
    assert.deepEqual(await findingsFor(repo, { [calendar]: BUILD("    implementation(projects.feature.settings.api)\n") }), []);
    assert.deepEqual(await findingsFor(repo, { [calendar]: BUILD("    implementation(projects.feature.calendar.internal)\n") }), []);
    assert.deepEqual(await findingsFor(repo, { "app-main/build.gradle.kts": BUILD("    implementation(projects.feature.inbox.internal)\n") }), []);
    assert.deepEqual(await findingsFor(repo, { [calendar]: BUILD("    // implementation(projects.feature.inbox.internal)\n") }), []);
  });
});
