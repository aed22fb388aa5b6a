// The guard on a rule about text people read (issue 22, dev17): "do not use "Oldco" in human-readable text" is
// broken by a dashboard or config whose title or description says it, and not by an identifier such as a metric
// name that still carries the old word. Real git repositories.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { checkChange, GuardReportSchema, type GuardReport } from "../../src/core/guard";
import { createGitRepo, writeFiles } from "../helpers/gitRepo";

async function check(repo: string): Promise<GuardReport> {
  const report = await checkChange(repo, { kind: "worktree" }, { config: {} });
  GuardReportSchema.parse(report);
  return report;
}

const strong = (r: GuardReport) => r.findings.filter((f) => f.severity !== "low").map((f) => `${f.kind} ${f.file}:${f.line} ← ${f.decision.path}`);

const AGENTS = `# Notes for agents

## Conventions

- Do not use "Oldco" in human-readable text (titles/descriptions); the product is called Brightly now.
`;

const panel = (title: string, expr: string) => `{
  "kind": "Dashboard",
  "spec": {
    "title": "${title}",
    "description": "Queue depth per worker",
    "query": "${expr}"
  }
}
`;

describe("rules about human-readable text in settings (dev17)", () => {
  test("a title that says the old name breaks the rule; an identifier that still holds it does not", async () => {
    const repo = createGitRepo([{ message: "init", files: { "AGENTS.md": AGENTS, "dashboards/README.md": "Dashboards.\n" } }]);
    writeFiles(repo, { "dashboards/queues.json": panel("Oldco queue depth", "sum(queue_depth)") });
    assert.deepEqual(strong(await check(repo)), ["breaks-rule dashboards/queues.json:4 ← AGENTS.md"]);
    writeFiles(repo, { "dashboards/queues.json": panel("Brightly queue depth", "sum(oldco_queue_depth)") });
    assert.deepEqual(strong(await check(repo)), []);
  });
});
