// A record that keeps packaging out of the tree is gone against by a packaging manifest at its conventional path,
// whatever the path's words (`debian/control`); a record written in one document format is gone against by a record
// template in another, also when the folder's other files are not in the work tree (a sparse checkout), since HEAD
// still lists them. Innocent look-alikes: a README note about packaging, a control file outside `debian/`, a new
// Markdown template. Real git, the working tree against HEAD; every record is written for these tests.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { isPackagingFile } from "../../src/core/guard/newFiles";
import { createGitRepo, git } from "../helpers/gitRepo";
import { checkFilesOverHead } from "../helpers/guardRepo";

const record = (n: number, title: string, decision: string) => `# ${n}. ${title}

Date: 2021-03-04

## Status

Accepted

## Context

Users install the tool in many ways, and read its notes in many viewers.

## Decision

${decision}

## Consequences

The repository stays small.
`;

const PACKAGING_PATH = "docs/decisions/0003-packages-live-elsewhere.md";
const FORMAT_PATH = "docs/decisions/0004-notes-format.md";

function repoWith(): string {
  return createGitRepo([
    {
      message: "init",
      files: {
        [PACKAGING_PATH]: record(3, "Packages live elsewhere", "This project will not contain any packaging or distribution scripts and config."),
        [FORMAT_PATH]: record(4, "Notes format", "Write release notes in Markdown format."),
        "notes/template.md": "# VERSION\n\n## Changes\n",
        "notes/intro.md": "# Notes\n",
        "bin/tool": "#!/bin/sh\necho tool\n",
        "README.md": "# tool\n",
      },
    },
  ]);
}

async function findingsFor(repo: string, files: Record<string, string>): Promise<string[]> {
  const report = await checkFilesOverHead(repo, files);
  return report.findings.filter((f) => f.severity !== "low").map((f) => `${f.kind} ${f.file} ← ${f.decision.path}`);
}

describe("guard: packaging manifests and the folder a new document joins", () => {
  test("packaging manifests are known by their conventional paths", () => {
    for (const path of ["debian/control", "pkg/debian/rules", "tool.spec", "PKGBUILD", "Formula/tool.rb", "snap/snapcraft.yaml", "tool.nuspec", ".goreleaser.yaml"]) {
      assert.ok(isPackagingFile(path), path);
    }
    for (const path of ["src/control", "debian.md", "spec/tool_spec.rb", "src/app.spec.ts", "lib/formula.rb"]) {
      assert.ok(!isPackagingFile(path), path);
    }
  });

  test("a Debian control file goes against 'will not contain any packaging'; a README note and a stray control file do not", async () => {
    const repo = repoWith();
    assert.deepEqual(await findingsFor(repo, { "debian/control": "Source: tool\nSection: utils\n\nPackage: tool\nArchitecture: all\n" }), [
      `introduces-rejected-option debian/control ← ${PACKAGING_PATH}`,
    ]);
    assert.deepEqual(await findingsFor(repo, { "README.md": "# tool\n\nDebian and Homebrew packages are kept in their own repositories.\n" }), []);
    assert.deepEqual(await findingsFor(repo, { "src/control": "#!/bin/sh\necho control\n" }), []);
  });

  test("a reStructuredText template beside Markdown ones is the format the record set aside, a Markdown one is not", async () => {
    const repo = repoWith();
    const rst = { "notes/template.rst": "VERSION\n=======\n\nChanges\n-------\n" };
    assert.deepEqual(await findingsFor(repo, rst), [`introduces-rejected-option notes/template.rst ← ${FORMAT_PATH}`]);
    assert.deepEqual(await findingsFor(repo, { "notes/patch.md": "# PATCH\n" }), []);
  });

  test("the folder's files that the work tree leaves out (a sparse checkout) still count, as HEAD lists them", async () => {
    const repo = repoWith();
    git(repo, ["sparse-checkout", "init", "--no-cone"]);
    git(repo, ["sparse-checkout", "set", "/*", "!/notes/"]);
    assert.deepEqual(await findingsFor(repo, { "notes/template.rst": "VERSION\n=======\n" }), [`introduces-rejected-option notes/template.rst ← ${FORMAT_PATH}`]);
  });
});
