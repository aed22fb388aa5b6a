// The guard on a coding guide that the contribution guide points to (issue 22): its rule headings ("Avoid Panics",
// "Avoid Prints", "Avoid the `unsafe` Package") and a body sentence that fixes how messages may not open are rules;
// the rest of its prose (which shows bad and good code side by side) is not. Each has an innocent look-alike. Real
// git repositories, a guide written for these tests.
import { describe, test } from "node:test";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import assert from "node:assert/strict";
import { createGitRepo } from "../helpers/gitRepo";
import { checkFilesOverHead, checkWorktree, findingSummary } from "../helpers/guardRepo";
import { guideRuleText } from "../../src/core/guard/guides";

const GUIDE_PATH = "docs/dev/code-style.md";

const GUIDE = `# Weaver code style

Read this before sending a patch.

## Go

### Avoid Panics

A library that crashes its caller is rude. Return an error instead.

### Avoid the \`unsafe\` Package

It defeats the type system and makes reviews slow. In tests it is acceptable when nothing else works.

### Keep Returns Early

Prefer early exits; avoid naked \`return\` statements in long functions.

### Wrapping Errors

Add context with errors.Wrapf. Please never start error messages with \`could not …\` or \`unable to …\`: say what was being done.

### Avoid Prints

Write through the injected logger.
`;

const CONTRIBUTING = `# Contributing to Weaver

Fork the repository, make a branch and open a pull request.

Before you write code, skim our [code style](${GUIDE_PATH}).
`;

const GO_MOD = "module example.org/weaver\n\ngo 1.22\n";
const LOOM = 'package loom\n\nimport "errors"\n\n// Spin starts a loom.\nfunc Spin(n int) error {\n\tif n < 0 {\n\t\treturn errors.New("negative")\n\t}\n\treturn nil\n}\n';

function repo(linked = true): string {
  const files: Record<string, string> = { "go.mod": GO_MOD, "loom/loom.go": LOOM, [GUIDE_PATH]: GUIDE };
  files["CONTRIBUTING.md"] = linked ? CONTRIBUTING : "# Contributing to Weaver\n\nOpen a pull request.\n";
  return createGitRepo([{ message: "init", files }]);
}

const goFile = (body: string, imports: string[] = []) => `package loom\n\n${imports.length ? `import (\n${imports.map((i) => `\t"${i}"`).join("\n")}\n)\n\n` : ""}${body}\n`;

// A rule that names a package by its import path, inside a module that holds other packages too.
const AGENTS = `# Notes for agents

- **Tracing**: Use \`github.com/spanlab/trace\` (not \`github.com/spanlab/toolkit/trace\`)
`;

function moduleRepo(): string {
  const goMod = "module example.org/weaver\n\ngo 1.22\n\nrequire (\n\tgithub.com/spanlab/trace v0.3.0\n)\n";
  return createGitRepo([{ message: "init", files: { "AGENTS.md": AGENTS, "go.mod": goMod, "loom/loom.go": LOOM } }]);
}

describe("guard: a module that holds a package a rule turns down (round 33)", () => {
  test("requiring the module in go.mod breaks the rule (med); requiring the chosen package's module does not", async () => {
    const r = moduleRepo();
    const bad = await checkFilesOverHead(r, { "go.mod": "module example.org/weaver\n\ngo 1.22\n\nrequire (\n\tgithub.com/spanlab/trace v0.3.0\n\tgithub.com/spanlab/toolkit v1.2.0\n)\n" });
    assert.deepEqual(findingSummary(bad), ["breaks-rule AGENTS.md"]);
    assert.equal(bad.findings[0]?.severity, "med");
    const good = await checkFilesOverHead(r, { "go.mod": "module example.org/weaver\n\ngo 1.22\n\nrequire (\n\tgithub.com/spanlab/trace v0.4.0\n\tgithub.com/spanlab/other v1.2.0\n)\n" });
    assert.deepEqual(findingSummary(good), []);
  });
});

describe("guard: a coding guide the contribution guide points to (round 33)", () => {
  test("a heading that says to avoid a construct is broken by it in code; returning an error is not", async () => {
    const r = repo();
    const bad = await checkFilesOverHead(r, { "loom/check.go": goFile('func mustPositive(n int) {\n\tif n < 0 {\n\t\tpanic("negative")\n\t}\n}') });
    assert.deepEqual(findingSummary(bad), [`breaks-rule ${GUIDE_PATH}`]);
    assert.equal(bad.findings.find((f) => f.severity !== "low")?.severity, "med");
    const good = await checkFilesOverHead(r, { "loom/check.go": goFile('func checkPositive(n int) error {\n\tif n < 0 {\n\t\treturn errors.New("negative")\n\t}\n\treturn nil\n}', ["errors"]) });
    assert.deepEqual(findingSummary(good), []);
  });

  test("a package the guide says to avoid, but allows in tests, is flagged outside tests only", async () => {
    const r = repo();
    const bad = await checkFilesOverHead(r, { "loom/size.go": goFile("func width(p *int) uintptr { return unsafe.Sizeof(*p) }", ["unsafe"]) });
    assert.deepEqual([...new Set(findingSummary(bad))], [`breaks-rule ${GUIDE_PATH}`]);
    const inTest = await checkFilesOverHead(r, { "loom/size_test.go": goFile("func TestWidth(t *testing.T) { _ = unsafe.Sizeof(t) }", ["testing", "unsafe"]) });
    assert.deepEqual(findingSummary(inTest), []);
  });

  test("'Avoid Prints' is broken by the print family; a logger call is not", async () => {
    const r = repo();
    const bad = await checkFilesOverHead(r, { "loom/debug.go": goFile('func dump(n int) {\n\tfmt.Printf("threads %d\\n", n)\n}', ["fmt"]) });
    assert.deepEqual([...new Set(findingSummary(bad))], [`breaks-rule ${GUIDE_PATH}`]);
    const good = await checkFilesOverHead(r, { "loom/debug.go": goFile('func dump(l Logger, n int) {\n\tl.Log("msg", "threads", "n", n)\n}') });
    assert.deepEqual(findingSummary(good), []);
  });

  test("a message opening with words the guide says never to start with breaks it; a message saying what was done does not", async () => {
    const r = repo();
    const bad = await checkFilesOverHead(r, { "loom/open.go": goFile('func open(dir string) error {\n\treturn errors.Wrap(os.ErrNotExist, "Could not open loom dir")\n}', ["os", "github.com/pkg/errors"]) });
    assert.deepEqual(findingSummary(bad), [`breaks-rule ${GUIDE_PATH}`]);
    const good = await checkFilesOverHead(r, { "loom/open.go": goFile('func open(dir string) error {\n\treturn errors.Wrapf(os.ErrNotExist, "open loom dir %s", dir)\n}', ["os", "github.com/pkg/errors"]) });
    assert.deepEqual(findingSummary(good), []);
  });

  test("the guide's prose is no rule: a plain return is innocent", async () => {
    const r = repo();
    const plain = await checkFilesOverHead(r, { "loom/early.go": goFile("func early(n int) (m int) {\n\tif n > 0 {\n\t\tm = n\n\t\treturn\n\t}\n\treturn\n}") });
    assert.deepEqual(findingSummary(plain), []);
  });

  test("a guide no instruction file or contribution guide points to sets no rule", async () => {
    const r = repo(false);
    const panicked = await checkFilesOverHead(r, { "loom/check.go": goFile('func mustPositive(n int) {\n\tif n < 0 {\n\t\tpanic("negative")\n\t}\n}') });
    assert.deepEqual(findingSummary(panicked), []);
  });

  test("an edit of the guide alone is seen by the next check (the guide is never taken from a cache)", async () => {
    const r = repo();
    const panics = { "loom/check.go": goFile('func mustPositive(n int) {\n\tif n < 0 {\n\t\tpanic("negative")\n\t}\n}') };
    assert.deepEqual(findingSummary(await checkFilesOverHead(r, panics)), [`breaks-rule ${GUIDE_PATH}`]);
    // The same change, now with the guide relaxed in the working tree.
    writeFileSync(join(r, GUIDE_PATH), GUIDE.replace("### Avoid Panics", "### Panics Are Fine At Start-up"));
    assert.deepEqual(findingSummary(await checkWorktree(r)), []);
  });

  test("a guide that is a symlink to a file outside the repository is not read", async () => {
    const outside = mkdtempSync(join(tmpdir(), "guide-outside-"));
    writeFileSync(join(outside, "code-style.md"), GUIDE);
    const r = repo();
    rmSync(join(r, GUIDE_PATH));
    symlinkSync(join(outside, "code-style.md"), join(r, GUIDE_PATH));
    execFileSync("git", ["-C", r, "add", "-A"]);
    execFileSync("git", ["-C", r, "commit", "-qm", "guide elsewhere"]);
    const report = await checkFilesOverHead(r, { "loom/check.go": goFile('func mustPositive(n int) {\n\tif n < 0 {\n\t\tpanic("negative")\n\t}\n}') });
    assert.deepEqual(findingSummary(report), []);
  });

  test("the guide's rule text keeps its line numbers and reads a plural heading as the construct", () => {
    const { text, testsAllowed } = guideRuleText(GUIDE);
    const lines = text.split("\n");
    assert.equal(lines.length, GUIDE.split("\n").length);
    assert.equal(lines[6], "Avoid `panic`.");
    assert.equal(lines[8], "");
    assert.equal(lines.find((l) => l.includes("naked")), undefined);
    assert.ok(lines.some((l) => l.includes("never start error messages with")));
    assert.deepEqual([...testsAllowed], [11]);
  });
});
