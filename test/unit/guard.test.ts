// The decision guard's core (issue 22) on real git repositories: a change that adds what an ADR turned down, drops
// what it chose, or breaks an AGENTS.md rule is found with the decision's citation; a comment is low; an innocent
// change and a record's own text are not findings; a superseded record is out of force. Bad input (binary, renamed,
// deleted, malformed, oversized) is reported with a one-line reason and never throws.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { checkChange, parseUnifiedDiff, MAX_DIFF_LINES, GuardReportSchema, type GuardReport } from "../../src/core/guard";
import { keysOf, findName, tokensOf } from "../../src/core/guard/names";
import { dependencyOf, importOf } from "../../src/core/guard/lines";
import { ruleDecisions } from "../../src/core/guard/decisions";
import { git, writeFiles } from "../helpers/gitRepo";
import { CSS_ADR_PATH, createGuardRepo, packageJsonWith } from "../helpers/guardRepo";

const NO_CACHE = { config: {} };

async function check(repo: string, source: Parameters<typeof checkChange>[1] = { kind: "worktree" }): Promise<GuardReport> {
  const report = await checkChange(repo, source, NO_CACHE);
  GuardReportSchema.parse(report);
  return report;
}

describe("guard: names", () => {
  test("a rejected option's name matches its package, not look-alike words", () => {
    const tailwind = keysOf("Tailwind CSS", new Set(["pollen"]))!;
    assert.ok(findName(tokensOf("tailwindcss"), tailwind));
    assert.ok(findName(tokensOf("// tailwind css would be shorter"), tailwind));
    assert.equal(findName(tokensOf("const tail = wind"), tailwind), undefined);
    const react = keysOf("React")!;
    assert.ok(findName(tokensOf("reactjs"), react));
    assert.equal(findName(tokensOf("const reactive = true"), react), undefined);
    assert.equal(keysOf("Do nothing"), undefined);
    assert.equal(keysOf("Plain CSS modules"), undefined);
    const pkg = keysOf("@vscode/webview-ui-toolkit")!;
    assert.ok(findName(tokensOf("@vscode/webview-ui-toolkit"), pkg));
    assert.equal(findName(tokensOf('import * as vscode from "vscode"'), pkg), undefined);
    assert.ok(findName(tokensOf("pg"), keysOf("PostgreSQL")!), "a client package known to stand for its database");
  });

  test("dependencies and imports are read per ecosystem", () => {
    assert.equal(dependencyOf("package.json", '    "tailwindcss": "^3.4.0",'), "tailwindcss");
    assert.equal(dependencyOf("package.json", '  "version": "1.0.0",'), undefined);
    assert.equal(dependencyOf("package.json", '    "build": "node scripts/build.mjs",'), undefined);
    assert.equal(dependencyOf("go.mod", "\tgithub.com/go-sql-driver/mysql v1.7.1"), "github.com/go-sql-driver/mysql");
    assert.equal(dependencyOf("Cargo.toml", 'diesel = { version = "2", features = ["postgres"] }'), "diesel");
    assert.equal(dependencyOf("requirements.txt", "SQLAlchemy[asyncio]>=2.0"), "SQLAlchemy");
    assert.equal(dependencyOf("pyproject.toml", '  "django>=5",'), "django");
    assert.equal(dependencyOf("composer.json", '    "laravel/framework": "^11.0",'), "laravel/framework");
    assert.equal(dependencyOf("Gemfile", "gem 'sidekiq', '~> 7.0'"), "sidekiq");
    assert.equal(dependencyOf("app/App.csproj", '<PackageReference Include="Dapper" Version="2.1.0" />'), "Dapper");
    assert.equal(dependencyOf("pom.xml", "    <artifactId>hibernate-core</artifactId>"), "hibernate-core");
    assert.equal(dependencyOf("build.gradle.kts", '    implementation("org.jooq:jooq:3.19.0")'), "org.jooq:jooq");
    assert.equal(importOf("src/a.ts", 'import styled from "styled-components";'), "styled-components");
    assert.equal(importOf("app/x.py", "from sqlalchemy.orm import Session"), "sqlalchemy.orm");
    assert.equal(importOf("main.go", '\t"github.com/jmoiron/sqlx"'), "github.com/jmoiron/sqlx");
  });
});

describe("guard: rules in instruction files", () => {
  const rulesOf = (text: string) =>
    ruleDecisions({ path: "AGENTS.md", abs: "/r/AGENTS.md", bytes: text.length, hash: "", source_type: "agent-instructions", text }).map((d) => ({
      line: d.citation.line_range.start,
      forbidden: d.forbidden.map((t) => t.keys.exact?.join("-") ?? (t.keys.stems ? `${t.keys.stems.join(",")}*` : t.keys.tokens.join(","))),
      required: d.required.map((t) => t.keys.exact?.join("-") ?? t.keys.tokens.join(",")),
      scope: d.scope,
      only: d.forbidden.map((t) => (t.importsOnly ? "imports" : t.dependencyOnly ? "dependencies" : t.textOnly ? "text" : "any")),
    }));

  test("do not / never / avoid / instead of / prefer over / always, with their scope", () => {
    const rules = rulesOf(
      [
        "# Rules",
        "",
        "- Use Vitest instead of Jest.",
        "- Prefer `pnpm` over npm for installs.",
        "- Avoid Lodash; write the helper.",
        "- Always use `zod` for validation.",
        "- `src/core/` never imports `vscode`.",
        "- Do not use \"Acme\" in human-readable text.",
        "- Never build a shell string.",
        "- Run the tests before you push.",
        "",
        "```",
        "do not use this-is-code",
        "```",
      ].join("\n"),
    );
    // "for validation": another library named for that purpose ("class-validator") is a newly added dependency that
    // breaks it, and so is a well-known validation library ("yup", "joi") in a dependency or an import.
    const validation = rules.find((r) => r.line === 6)!;
    assert.equal(validation.forbidden[0], "validat*");
    assert.ok(["yup", "joi", "ajv"].every((n) => validation.forbidden.includes(n)) && !validation.forbidden.includes("zod"), validation.forbidden.join(", "));
    assert.deepEqual([...new Set(validation.only)].sort(), ["dependencies", "imports"]);
    assert.deepEqual(validation.required, ["zod"]);
    assert.deepEqual(rules.filter((r) => r.line !== 6), [
      { line: 3, forbidden: ["jest"], required: ["vitest"], scope: undefined, only: ["any"] },
      { line: 4, forbidden: ["npm"], required: ["pnpm"], scope: undefined, only: ["any"] },
      { line: 5, forbidden: ["lodash"], required: [], scope: undefined, only: ["any"] },
      { line: 7, forbidden: ["vscode"], required: [], scope: ["src/core"], only: ["imports"] },
      { line: 8, forbidden: ["acme"], required: [], scope: undefined, only: ["text"] },
    ]);
  });
});

describe("guard: diff reading", () => {
  test("binary, rename-only, deleted and malformed input each get a reason; nothing throws", () => {
    const text = [
      "diff --git a/logo.png b/logo.png",
      "index 1..2 100644",
      "Binary files a/logo.png and b/logo.png differ",
      "diff --git a/old.ts b/new.ts",
      "similarity index 100%",
      "rename from old.ts",
      "rename to new.ts",
      "diff --git a/gone.ts b/gone.ts",
      "deleted file mode 100644",
      "--- a/gone.ts",
      "+++ /dev/null",
      "@@ -1 +0,0 @@",
      "-export const gone = 1;",
      "diff --git a/src/x.ts b/src/x.ts",
      "--- a/src/x.ts",
      "+++ b/src/x.ts",
      "@@ this is not a hunk header @@",
      "+ignored",
      "--- a/src/y.ts",
      "+++ b/src/y.ts",
      "@@ -1,0 +1,2 @@",
      "+-- not a header, an added SQL comment",
      "+const y = 2;",
    ].join("\n");
    const parsed = parseUnifiedDiff(text);
    const by = new Map(parsed.files.map((f) => [f.path, f]));
    assert.equal(by.get("logo.png")?.binary, true);
    assert.equal(by.get("new.ts")?.status, "renamed");
    assert.equal(by.get("new.ts")?.old_path, "old.ts");
    assert.equal(by.get("gone.ts")?.status, "deleted");
    assert.deepEqual(by.get("src/y.ts")?.added.map((l) => [l.line, l.text]), [[1, "-- not a header, an added SQL comment"], [2, "const y = 2;"]]);
    assert.ok(parsed.notes.some((n) => /malformed hunk header/.test(n)), parsed.notes.join("; "));
    assert.match(parseUnifiedDiff("hello\nworld\n").notes[0], /not a unified diff/);
    assert.ok(parseUnifiedDiff("--- a/../../etc/passwd\n+++ b/../../etc/passwd\n@@ -0,0 +1 @@\n+x\n").notes.some((n) => /outside the repository/.test(n)));
  });

  test("a diff over the line limit is read up to it and says so", () => {
    const lines = ["--- a/big.ts", "+++ b/big.ts", `@@ -0,0 +1,${MAX_DIFF_LINES + 500} @@`];
    for (let i = 0; i < MAX_DIFF_LINES + 500; i++) lines.push(`+const v${i} = ${i};`);
    const started = performance.now();
    const parsed = parseUnifiedDiff(lines.join("\n"));
    assert.ok(performance.now() - started < 2000);
    assert.equal(parsed.truncated, true);
    assert.equal(parsed.files[0].added.length, MAX_DIFF_LINES - 3);
    assert.match(parsed.notes.at(-1)!, /only its first 20000 lines/);
  });
});

describe("guard: checking a change in a real repository", () => {
  test("adding tailwindcss where an ADR chose Pollen CSS is a high finding citing the record", async () => {
    const repo = createGuardRepo();
    try {
      writeFiles(repo, { "package.json": packageJsonWith({ tailwindcss: "^3.4.0" }) });
      const report = await check(repo);
      const f = report.findings.find((x) => x.kind === "introduces-rejected-option");
      assert.ok(f, JSON.stringify(report, null, 2));
      assert.equal(f.severity, "high");
      assert.equal(f.file, "package.json");
      assert.equal(f.line, 8);
      assert.equal(f.decision.path, CSS_ADR_PATH);
      assert.equal(f.decision.status, "accepted");
      assert.equal(f.decision.title, "Use Pollen CSS for styling");
      assert.deepEqual(f.decision.line_range, { start: 15, end: 15 }, "the line where the record lists Tailwind CSS");
      assert.match(f.message, /tailwindcss.*Tailwind CSS.*Pollen CSS.*clutter/);
      assert.equal(f.matched.via, "dependency");
      assert.ok(report.checked.decisions >= 3);
      // Deterministic: the same change gives the same report.
      assert.deepEqual(await check(repo), report);
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  });

  test("the same name only in a comment is low; in documentation low; in a record itself no finding", async () => {
    const repo = createGuardRepo();
    try {
      writeFiles(repo, {
        "src/app.ts": "import { format } from \"date-fns\";\n\n// Tailwind CSS was considered and turned down (ADR 7).\nexport const today = () => format(new Date(), \"yyyy-MM-dd\");\n",
        "docs/styling.md": "# Styling\n\nWe do not use Tailwind; see ADR 7.\n",
        [CSS_ADR_PATH]: "# 7. Use Pollen CSS for styling\n\n## Status\n\nAccepted\n\n## Considered Options\n\n* Tailwind CSS\n* Pollen CSS\n\n## Decision Outcome\n\nChosen option: \"Pollen CSS\". Tailwind CSS stays rejected.\n",
      });
      const report = await check(repo);
      const tailwind = report.findings.filter((f) => f.matched.subject === "Tailwind CSS");
      assert.ok(tailwind.length >= 1, JSON.stringify(report.findings));
      for (const f of tailwind) assert.equal(f.severity, "low", JSON.stringify(f));
      assert.ok(!report.findings.some((f) => f.file === CSS_ADR_PATH), "a record's own text is not a finding");
      assert.ok(report.skipped.some((s) => s.file === CSS_ADR_PATH && /decision itself/.test(s.reason)));
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  });

  test("an innocent change gives no finding", async () => {
    const repo = createGuardRepo();
    try {
      writeFiles(repo, {
        "src/app.ts": "import { format } from \"date-fns\";\n\nexport const today = () => format(new Date(), \"dd.MM.yyyy\");\nexport const tomorrow = () => new Date(Date.now() + 864e5);\n",
        "package.json": packageJsonWith({ zod: "^3.23.0" }),
        "README.md": "# Shop\n\nA small shop.\n",
      });
      const report = await check(repo);
      assert.deepEqual(report.findings, []);
      assert.equal(report.checked.files, 3);
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  });

  test("AGENTS.md rules: a forbidden import and innerHTML break them; dropping the required package too", async () => {
    const repo = createGuardRepo();
    try {
      writeFiles(repo, {
        "src/app.ts": "import moment from \"moment\";\n\nexport const today = () => moment().format(\"YYYY-MM-DD\");\nexport function show(el: HTMLElement, name: string) { el.innerHTML = name; }\n",
        "package.json": packageJsonWith({ moment: "^2.30.0" }, ["date-fns"]),
      });
      const report = await check(repo);
      const rules = report.findings.filter((f) => f.kind === "breaks-rule");
      const at = (file: string, line: number) => rules.find((f) => f.file === file && f.line === line);
      assert.equal(at("src/app.ts", 1)?.severity, "high", JSON.stringify(rules, null, 1));
      assert.equal(at("src/app.ts", 1)?.decision.path, "AGENTS.md");
      assert.deepEqual(at("src/app.ts", 1)?.decision.line_range, { start: 3, end: 3 });
      assert.match(at("src/app.ts", 1)!.message, /moment.*deprecated/);
      assert.equal(at("src/app.ts", 4)?.severity, "med");
      assert.equal(at("src/app.ts", 4)?.matched.text, "innerHTML");
      assert.ok(rules.some((f) => f.file === "package.json" && f.matched.text === "moment" && f.severity === "high"));
      assert.ok(rules.some((f) => f.file === "package.json" && f.matched.text === "date-fns" && /always use/.test(f.message)));
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  });

  test("a rule about a folder's imports applies to imports in that folder only; a name in a string is low", async () => {
    const repo = createGuardRepo();
    try {
      writeFiles(repo, {
        "src/core/engine.ts": "import * as vscode from \"vscode\";\n\nexport const name = \"vscode\";\n",
        "src/host/extension.ts": "import * as vscode from \"vscode\";\n\nexport const activate = (c: vscode.ExtensionContext) => c;\n",
        "src/app.ts": "import { format } from \"date-fns\";\n\nexport const hint = \"styles come from Pollen, not Tailwind\";\n",
      });
      const report = await check(repo);
      const rows = report.findings.map((f) => [f.kind, f.severity, `${f.file}:${f.line}`, `${f.decision.path}:${f.decision.line_range.start}`, f.matched.via]);
      assert.deepEqual(rows, [
        ["breaks-rule", "high", "src/core/engine.ts:1", "AGENTS.md:6", "import"],
        ["introduces-rejected-option", "low", "src/app.ts:3", `${CSS_ADR_PATH}:15`, "string"],
      ]);
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  });

  test("a superseded record is out of force; its successor's choice and rejections count", async () => {
    const repo = createGuardRepo();
    try {
      writeFiles(repo, {
        "package.json": packageJsonWith({ mysql2: "^3.9.0" }, ["pg"]),
        "src/db/pool.ts": "import mysql from \"mysql2\";\n\nexport const pool = mysql.createPool({});\n",
      });
      const report = await check(repo);
      const kinds = report.findings.map((f) => `${f.kind} ${f.file}:${f.line} ${f.decision.path}`);
      assert.ok(kinds.includes("introduces-rejected-option package.json:7 docs/adr/0008-use-postgresql.md"), kinds.join("\n"));
      assert.ok(kinds.some((k) => k.startsWith("removes-chosen-option package.json") && k.endsWith("0008-use-postgresql.md")), kinds.join("\n"));
      assert.ok(kinds.some((k) => k.startsWith("removes-chosen-option src/db/pool.ts:1")), kinds.join("\n"));
      assert.ok(!report.findings.some((f) => f.decision.path.endsWith("0003-use-mysql.md")), "the superseded record decides nothing");
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  });

  test("a change in a folder a record names, with no conflict, is a low hint", async () => {
    const repo = createGuardRepo();
    try {
      writeFiles(repo, { "src/db/pool.ts": "import { Pool } from \"pg\";\n\nexport const pool = new Pool({ max: 20 });\n" });
      const report = await check(repo);
      assert.deepEqual(report.findings.map((f) => [f.kind, f.severity, f.file, f.decision.path]), [["touches-decided-area", "low", "src/db/pool.ts", "docs/adr/0008-use-postgresql.md"]]);
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  });

  test("staged, files and ref sources; binary, renamed and deleted files are skipped with a reason", async () => {
    const repo = createGuardRepo();
    try {
      writeFiles(repo, { "package.json": packageJsonWith({ tailwindcss: "^3.4.0" }), "logo.png": Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 1]) });
      git(repo, ["mv", "README.md", "ABOUT.md"]);
      git(repo, ["rm", "-q", "src/app.ts"]);
      git(repo, ["add", "logo.png"]);
      const staged = await check(repo, { kind: "staged" });
      assert.deepEqual(staged.findings, [], "package.json is not staged");
      const reasons = new Map(staged.skipped.map((s) => [s.file, s.reason]));
      assert.match(reasons.get("logo.png") ?? "", /binary/);
      assert.match(reasons.get("ABOUT.md") ?? "", /renamed from README\.md/);
      assert.match(reasons.get("src/app.ts") ?? "", /deleted/);
      const files = await check(repo, { kind: "files", files: ["package.json"] });
      const fromSubfolder = await check(join(repo, "src"), { kind: "files", files: ["package.json"] });
      assert.deepEqual(fromSubfolder.findings, files.findings, "a subfolder of the repository checks the repository");
      assert.equal(files.findings[0]?.kind, "introduces-rejected-option");
      await assert.rejects(check(repo, { kind: "files", files: ["../outside.json"] }), /not a file inside the repository/);
      git(repo, ["add", "-A"]);
      git(repo, ["commit", "-qm", "tailwind"]);
      const ref = await check(repo, { kind: "ref", ref: "HEAD~1" });
      assert.equal(ref.findings[0]?.file, "package.json");
      await assert.rejects(check(repo, { kind: "ref", ref: "--output=/tmp/x" }), /not a git revision/);
      await assert.rejects(check(repo, { kind: "ref", ref: "no-such-branch" }), /unknown revision/);
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  });

  test("a huge diff is checked up to the limit, quickly, and the report says so", async () => {
    const repo = createGuardRepo();
    try {
      const big = Array.from({ length: 60_000 }, (_, i) => `export const value${i} = "${"x".repeat(60)}";`).join("\n");
      writeFileSync(join(repo, "src/big.ts"), `${big}\nimport "tailwindcss";\n`);
      const started = performance.now();
      const report = await check(repo);
      assert.ok(performance.now() - started < 10_000);
      assert.equal(report.limits.truncated, true);
      assert.ok(report.notes.some((n) => /only its first 20000 lines/.test(n)), report.notes.join("; "));
      assert.ok(!report.findings.some((f) => f.file === "src/big.ts" && f.line > MAX_DIFF_LINES));
      // The same file staged: git's output is cut at the limit and git is stopped.
      git(repo, ["add", "src/big.ts"]);
      const staged = await check(repo, { kind: "staged" });
      assert.equal(staged.limits.truncated, true);
      assert.ok(staged.notes.some((n) => /only its first 20000 lines/.test(n)), staged.notes.join("; "));
      assert.deepEqual(staged.findings, []);
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  });

  test("diff text from an agent is read without git; a malformed one gives notes, not an error", async () => {
    const repo = createGuardRepo();
    try {
      const diff = ["--- a/package.json", "+++ b/package.json", "@@ -5,0 +6 @@", '+    "tailwindcss": "^3.4.0",', ""].join("\n");
      const report = await check(repo, { kind: "text", diff });
      assert.equal(report.findings[0]?.decision.path, CSS_ADR_PATH);
      const bad = await check(repo, { kind: "text", diff: "@@ nonsense\n+++\n" });
      assert.deepEqual(bad.findings, []);
      assert.ok(bad.notes.length >= 1);
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  });
});
