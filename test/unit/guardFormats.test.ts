// A record that chose how something is written (a language, a document format) is gone around by a new file
// written another way beside the files that follow the choice: a Python subcommand among a tool's shell scripts.
// Not by a new file of the chosen kind, not in a folder that already mixes languages, and not by a record that only
// names a language in passing ("Java Native Access"). Real git, the working tree against HEAD; every record is
// written for these tests.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { formatNamed, formatOfFile, goesAround } from "../../src/core/guard/formats";
import { createGitRepo, writeFiles } from "../helpers/gitRepo";
import { checkFilesOverHead, checkWorktree } from "../helpers/guardRepo";

const SHELL = `# 2. Implement as shell scripts

Date: 2020-01-10

## Status

Accepted

## Context

The tool edits plain text files.

## Decision

The tool is implemented as shell scripts that use standard Unix tools: grep, sed, awk.

## Consequences

It will not run on Windows.
`;

const script = (body: string) => `#!/bin/bash\nset -e\n${body}\n`;

function repoWith(): string {
  return createGitRepo([
    {
      message: "init",
      files: {
        "doc/adr/0002-implement-as-shell-scripts.md": SHELL,
        "src/tool-new": script('echo "new"'),
        "src/tool-list": script("ls doc/adr"),
        "src/tool-help": script('echo "help"'),
        "tools/lint.py": "import sys\nprint(sys.argv)\n",
        "tools/check.sh": script("true"),
        "README.md": "# tool\n",
      },
    },
  ]);
}

async function findingsFor(repo: string, files: Record<string, string>): Promise<string[]> {
  const report = await checkFilesOverHead(repo, files);
  return report.findings.map((f) => `${f.kind} ${f.severity} ${f.file}:${f.line} ← ${f.decision.path}`);
}

describe("guard: a new file that goes around a chosen language or format", () => {
  test("a decision names a medium only when it is the medium", () => {
    assert.equal(formatNamed("shell scripts that use standard Unix tools -- grep")?.name, "shell");
    assert.equal(formatNamed("Record architecture decisions in Markdown format")?.name, "Markdown");
    assert.equal(formatNamed("Kotlin")?.name, "kotlin");
    for (const passing of ["Java Native Access", "Deep Java Library (DJL)", "Use a Markdown parser", "Python and JS projects", "Ruby and Capybara", "Prettier Java"]) {
      assert.equal(formatNamed(passing), undefined, passing);
    }
  });

  test("a file's format comes from its extension, or its #! line when it has none", () => {
    assert.deepEqual(formatOfFile("src/adr-export", "#!/usr/bin/env python3"), { family: "code", name: "python" });
    assert.deepEqual(formatOfFile("src/adr-new", "#!/bin/bash"), { family: "code", name: "shell" });
    assert.deepEqual(formatOfFile("doc/template.rst"), { family: "document", name: "reStructuredText" });
    assert.equal(formatOfFile("Makefile", "all:"), undefined);
  });

  test("only beside files that follow the choice, and only where the new kind is not there yet", () => {
    const shell = { family: "code" as const, name: "shell" };
    const py = { family: "code" as const, name: "python" };
    const scripts = ["a", "b", "c"].map((n) => ({ path: `src/${n}`, firstLine: "#!/bin/sh" }));
    assert.deepEqual(goesAround(py, shell, scripts), { following: 3 });
    assert.equal(goesAround(py, shell, [...scripts, { path: "src/x.py", firstLine: "" }]), undefined, "already mixed");
    assert.equal(goesAround(py, shell, scripts.slice(0, 1)), undefined, "one script is no pattern");
    assert.equal(goesAround(shell, shell, scripts), undefined);
  });

  test("a Python subcommand among the shell scripts goes around the record; a shell one and a tool among Python tools do not", async () => {
    const repo = repoWith();
    const python = await findingsFor(repo, { "src/tool-export": "#!/usr/bin/env python3\nimport os\nprint(os.listdir('doc/adr'))\n" });
    assert.deepEqual(python, ["removes-chosen-option med src/tool-export:1 ← doc/adr/0002-implement-as-shell-scripts.md"]);
    assert.deepEqual(await findingsFor(repo, { "src/tool-count": script("ls doc/adr | wc -l") }), []);
    assert.deepEqual(await findingsFor(repo, { "tools/format.py": "print('ok')\n" }), [], "tools/ already has Python");
  });

  test("the message says what was added, beside what, and which record chose what", async () => {
    const repo = repoWith();
    writeFiles(repo, { "src/tool-export": "#!/usr/bin/env python3\nprint('x')\n" });
    const [finding] = (await checkWorktree(repo)).findings;
    assert.equal(finding.message, 'adds a new python file beside 3 shell files, which goes around the choice: "Implement as shell scripts" (doc/adr/0002-implement-as-shell-scripts.md, accepted) chose "shell scripts that use standard Unix tools".');
  });
});
