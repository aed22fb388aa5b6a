// The guard on rules that say what to do rather than what not to (issue 22, dev6): a rule names its instrument (a
// format verb, a call in tests, a setting kept on) and the guard reads what it replaces from the instrument's shape.
// Each has an innocent look-alike. Real git repositories; the rules are invented for these tests.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { checkChange, GuardReportSchema, type GuardReport } from "../../src/core/guard";
import { instrumentsOf, againstInstrument } from "../../src/core/guard/instruments";
import { createGitRepo, writeFiles } from "../helpers/gitRepo";

async function check(repo: string): Promise<GuardReport> {
  const report = await checkChange(repo, { kind: "worktree" }, { config: {} });
  GuardReportSchema.parse(report);
  return report;
}

const strong = (r: GuardReport) => r.findings.filter((f) => f.severity !== "low").map((f) => `${f.kind} ${f.severity} ${f.file}:${f.line} ← ${f.decision.path}`);

const AGENTS = `# Working on the parser

## Habits

- **Failures.** Return failures up the stack. Build every returned error with \`%w\` so callers can unwrap it.
- **Scratch space.** Clean up what a run leaves behind. In tests, reach for \`t.TempDir()\` for scratch folders.
- **Transport.** Certificate checking must stay enabled in every client we ship.
- Keep functions short.
`;

const range = { start: 1, end: 1 };

describe("guard: rules that name their instrument", () => {
  test("a rule's verb, call and kept setting are read with their shape and scope", () => {
    assert.deepEqual(instrumentsOf("Build every returned error with `%w` so callers can unwrap it.", range).map((i) => [i.shape, i.name, i.noun]), [["verb", "%w", "err"]]);
    const call = instrumentsOf("In tests, reach for `t.TempDir()` for scratch folders.", range);
    assert.deepEqual(call.map((i) => [i.shape, i.name, i.testsOnly]), [["call", "t.TempDir()", true]]);
    // Without a stated scope a call is not read as a family: too wide a net for a whole code base.
    assert.deepEqual(instrumentsOf("Use `store.Open()` to reach the database.", range), []);
    // A forbidding clause is read by the rule reader, not here.
    assert.deepEqual(instrumentsOf("Do not use `t.TempDir()` in tests.", range), []);
    const kept = instrumentsOf("**Transport.** Certificate checking must stay enabled in every client.", range);
    assert.deepEqual(kept.map((i) => [i.shape, i.words]), [["setting", ["certificate", "checking"]]]);
  });

  test("what a line does against an instrument", () => {
    const [verb] = instrumentsOf("Wrap errors with `%w`.", range);
    assert.equal(againstInstrument(verb, "a.go", "return fmt.Errorf(   , name, err)", "open %s: %v"), "fmt.Errorf(… %v …)");
    assert.equal(againstInstrument(verb, "a.go", "return fmt.Errorf(   , name, err)", "open %s: %w"), undefined);
    // Logging an error is not building one; an error built from no error wraps nothing.
    assert.equal(againstInstrument(verb, "a.go", "log.Printf(   , err)", "failed: %v"), undefined);
    assert.equal(againstInstrument(verb, "a.go", "return fmt.Errorf(   , name)", "bad name %s"), undefined);
    const [call] = instrumentsOf("Use `t.Context()` as a test's starting context.", range);
    assert.equal(againstInstrument(call, "x_test.go", "ctx := context.Background()", ""), "context.Background()");
    assert.equal(againstInstrument(call, "x_test.go", "ctx, cancel := context.WithCancel(parent)", ""), undefined);
    assert.equal(againstInstrument(call, "x.go", "ctx := context.Background()", ""), undefined);
    const [setting] = instrumentsOf("Certificate verification must remain enabled.", range);
    assert.equal(againstInstrument(setting, "a.ts", "const agent = new Agent({ verifyCertificate: false })", ""), "verifyCertificate: false");
    assert.equal(againstInstrument(setting, "a.ts", "cfg := Config{SkipCertificateVerify: true}", ""), "SkipCertificateVerify: true");
    assert.equal(againstInstrument(setting, "a.ts", "const agent = new Agent({ verifyCertificate: true })", ""), undefined);
    // A flag that lets the setting be on is not one that turns it off.
    assert.equal(againstInstrument(setting, "a.ts", "const agent = new Agent({ allowCertificateVerification: true })", ""), undefined);
  });

  test("a change that does the job another way breaks the rule; doing it with the instrument does not", async () => {
    const repo = createGitRepo([{ message: "init", files: { "AGENTS.md": AGENTS, "go.mod": "module example.org/parser\n\ngo 1.22\n" } }]);
    writeFiles(repo, {
      "parse.go": 'package parser\n\nimport "fmt"\n\nfunc wrap(name string, err error) error {\n\treturn fmt.Errorf("parse %s: %v", name, err)\n}\n',
      "scratch_test.go": 'package parser\n\nimport (\n\t"os"\n\t"testing"\n)\n\nfunc TestScratch(t *testing.T) {\n\tdir, _ := os.MkdirTemp("", "scratch")\n\t_ = dir\n}\n',
      "client.go": 'package parser\n\nvar loose = DialOptions{SkipCertificateCheck: true}\n',
    });
    const found = strong(await check(repo));
    assert.deepEqual(found, [
      "breaks-rule med client.go:3 ← AGENTS.md",
      "breaks-rule med parse.go:6 ← AGENTS.md",
      "breaks-rule med scratch_test.go:9 ← AGENTS.md",
    ]);
    const innocent = createGitRepo([{ message: "init", files: { "AGENTS.md": AGENTS, "go.mod": "module example.org/parser\n\ngo 1.22\n" } }]);
    writeFiles(innocent, {
      "parse.go": 'package parser\n\nimport "fmt"\n\nfunc wrap(name string, err error) error {\n\treturn fmt.Errorf("parse %s: %w", name, err)\n}\n',
      "scratch_test.go": 'package parser\n\nimport "testing"\n\nfunc TestScratch(t *testing.T) {\n\tdir := t.TempDir()\n\t_ = dir\n}\n',
      "scratch.go": 'package parser\n\nimport "os"\n\n// MkdirTemp outside tests is the program\'s own business.\nfunc scratch() (string, error) { return os.MkdirTemp("", "run") }\n',
      "client.go": 'package parser\n\nvar strict = DialOptions{SkipCertificateCheck: false}\n',
    });
    assert.deepEqual(strong(await check(innocent)), []);
  });

  test("a record's decision that names how to run a program is broken by running it another way, in the scope it names", async () => {
    const RECORD = `# 5. Run hg through its wrapper in tests

Date: 2021-02-01

## Status

Accepted

## Context

Builds broke when machines had different Mercurial versions.

## Decision

Call \`HgProcess.run\` even in tests that need the hg binary.
`;
    const [call] = instrumentsOf("Call `HgProcess.run` even in tests that need the hg binary.", range);
    assert.deepEqual([call.shape, call.call?.tool], ["call", "hg"]);
    assert.equal(againstInstrument(call, "test/repo.ts", "spawnSync(  , [  ])", "hg  init"), "spawnSync(hg …)");
    assert.equal(againstInstrument(call, "test/repo.ts", "spawnSync(  , [  ])", "ls  -la"), undefined);
    assert.equal(againstInstrument(call, "test/repo.ts", "await HgProcess.run([  ], dir)", "init"), undefined);
    const repo = createGitRepo([{ message: "init", files: { "doc/adr/0005-run-hg-through-its-wrapper.md": RECORD, "src/a.ts": "export const a = 1;\n" } }]);
    writeFiles(repo, { "test/helpers/repo.ts": "import { execSync } from 'child_process'\n\nexport const init = (dir: string) => execSync(`hg init ${dir}`)\n" });
    const report = await check(repo);
    assert.deepEqual(strong(report), ["breaks-rule med test/helpers/repo.ts:3 ← doc/adr/0005-run-hg-through-its-wrapper.md"]);
    assert.deepEqual(report.findings[0].decision.line_range, { start: 15, end: 15 });
    // Outside tests the record says nothing about it.
    const app = createGitRepo([{ message: "init", files: { "doc/adr/0005-run-hg-through-its-wrapper.md": RECORD, "src/a.ts": "export const a = 1;\n" } }]);
    writeFiles(app, { "src/release.ts": "import { execSync } from 'child_process'\n\nexport const tag = () => execSync('hg tag release')\n" });
    assert.deepEqual(strong(await check(app)), []);
  });

  test("a record that fixes a date format is broken by a date written in another order or with another separator", async () => {
    const [date] = instrumentsOf("Every report will use the day-first format for dates: `dd.mm.yyyy`", range);
    assert.deepEqual([date.shape, date.date], ["date", "dmy."]);
    assert.equal(againstInstrument(date, "bin/report", "stamp=$(date +%Y-%m-%d)", ""), "%Y-%m-%d");
    assert.equal(againstInstrument(date, "bin/report", "stamp=$(date +%d.%m.%Y)", ""), undefined);
    assert.equal(againstInstrument(date, "src/a.ts", "format(now,  )", "MM/dd/yyyy"), "MM/dd/yyyy");
    assert.equal(againstInstrument(date, "src/a.ts", "format(now,  )", "dd.MM.yyyy"), undefined);
  });

  test("a new file named as a file a record replaced brings it back; another new file of that kind does not", async () => {
    const RECORD = `# 3. Read settings from a settings command

Date: 2020-01-01

## Status

Accepted

## Context

Tools read their settings by sourcing \`settings.env\` beside the binary.

## Decision

Replace \`settings.env\` with an executable, \`tool-settings\`, that prints them.
`;
    const repo = createGitRepo([{ message: "init", files: { "doc/adr/0003-settings-command.md": RECORD, "bin/tool": "#!/bin/sh\necho hi\n" } }]);
    writeFiles(repo, { "bin/settings.env": "tool_home=/opt/tool\n" });
    assert.deepEqual(strong(await check(repo)), ["introduces-rejected-option med bin/settings.env:1 ← doc/adr/0003-settings-command.md"]);
    const other = createGitRepo([{ message: "init", files: { "doc/adr/0003-settings-command.md": RECORD, "bin/tool": "#!/bin/sh\necho hi\n" } }]);
    writeFiles(other, { "bin/paths.sh": "tool_home=/opt/tool\n" });
    assert.deepEqual(strong(await check(other)), []);
  });
});
