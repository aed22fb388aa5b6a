// What the editor shows of a guard report (src/vscode/guard/findings.ts), on a real repository's report: one mark
// per finding on its 0-based line, severities as Problems levels, a hover that cites the decision with a link and
// escapes repository text, and a "Deliberate on This" question that states the conflict.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { checkChange } from "../../src/core/guard";
import type { Finding } from "../../src/core/guard/schema";
import { deliberationQuestion, hoverMarkdown, marksByFile } from "../../src/vscode/guard/findings";
import { writeFiles } from "../helpers/gitRepo";
import { CSS_ADR_PATH, createGuardRepo, packageJsonWith } from "../helpers/guardRepo";

describe("guard in the editor: marks, hover, question", () => {
  test("a real report becomes marks on the changed lines, with a hover and a question", async () => {
    const repo = createGuardRepo();
    try {
      writeFiles(repo, {
        "package.json": packageJsonWith({ tailwindcss: "^3.4.0" }),
        "src/app.ts": "import { format } from \"date-fns\";\n\n// maybe Tailwind later\nexport const today = () => format(new Date(), \"yyyy-MM-dd\");\n",
      });
      const report = await checkChange(repo, { kind: "worktree" });
      const marks = marksByFile(report);
      assert.deepEqual([...marks.keys()].sort(), ["package.json", "src/app.ts"]);
      const dep = marks.get("package.json")![0];
      assert.equal(dep.line, 7, "0-based: the finding's line 8");
      assert.equal(dep.severity, "error");
      assert.equal(dep.code, "introduces-rejected-option");
      assert.equal(marks.get("src/app.ts")![0].severity, "information");
      const hover = hoverMarkdown(dep.finding, "command:deliberativeSearch.guard.openDecision?x");
      assert.match(hover, /\[Use Pollen CSS for styling\]\(command:deliberativeSearch\.guard\.openDecision\?x\)/);
      assert.ok(hover.includes(`\`${CSS_ADR_PATH}\`, line 15 (accepted)`), hover);
      assert.match(deliberationQuestion(dep.finding), /^Should we use Tailwind CSS in package\.json even though docs\/adr\/0007-use-pollen-css\.md turned it down/);
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  });

  test("repository text in a hover cannot inject links or markup; paths that leave the repository get no mark", () => {
    const finding: Finding = {
      kind: "breaks-rule",
      severity: "med",
      decision: { path: "AGENTS.md", line_range: { start: 3, end: 4 }, title: "[click](command:workbench.action.terminal.new)", status: "rule" },
      file: "src/x.ts",
      line: 1,
      message: "uses <img src=x> **bold**",
      matched: { text: "x", subject: "x", via: "code" },
    };
    const hover = hoverMarkdown(finding, "command:ok");
    assert.ok(!hover.includes("[click](command:workbench"), hover);
    assert.ok(hover.includes("\\<img src=x\\>"), hover);
    assert.match(hover, /lines 3-4/);
    const marks = marksByFile({ findings: [finding, { ...finding, file: "../outside.ts" }], checked: { files: 1, decisions: 1 }, skipped: [], limits: { max_diff_lines: 20000, truncated: false }, notes: [] });
    assert.deepEqual([...marks.keys()], ["src/x.ts"]);
  });
});

describe("guard for agents: the Markdown @deliberate /check and the language-model tool answer with", () => {
  test("findings with places and citations; repository text escaped; notes and skipped files listed", async () => {
    const { reportMarkdown } = await import("../../src/vscode/guard/findings");
    const repo = createGuardRepo();
    try {
      writeFiles(repo, { "package.json": packageJsonWith({ tailwindcss: "^3.4.0" }), "logo.png": Buffer.from([0, 1, 2, 0]) });
      const report = await checkChange(repo, { kind: "worktree" });
      const text = reportMarkdown(report);
      assert.match(text, /^\*\*1 likely conflict with recorded decisions\*\* \(checked 1 changed file against \d+ decisions\):/);
      assert.ok(text.includes("- **high** introduces-rejected-option at `package.json:8`"), text);
      assert.ok(text.includes(`Decision: \`${CSS_ADR_PATH}:15\` (accepted)`), text);
      assert.match(text, /Skipped: logo\\\.png \(binary file/);
      const clean = reportMarkdown({ ...report, findings: [], skipped: [], notes: ["a [link](http://x) note"] });
      assert.match(clean, /^\*\*No conflict with a recorded decision\*\*/);
      assert.ok(clean.includes("a \\[link\\]\\(http://x\\) note"), clean);
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  });
});
