// A turned-down name inside a longer name: the chosen tool's plugin or setting (the compound names the chosen tool
// too), a snake-case key of the project's own, and a package holding the name a rule chose for a purpose. Each beside
// a change that does bring the turned-down thing in, so the guard stays able to fail. Real git, the working tree
// against HEAD.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { heldByChosenName, onlyInDefinedKey } from "../../src/core/guard/compoundNames";
import { keysOf } from "../../src/core/guard/names";
import type { DecidedThing } from "../../src/core/guard/decisions";
import { createGitRepo } from "../helpers/gitRepo";
import { checkFilesOverHead } from "../helpers/guardRepo";

const LINTERS = `# 3. Lint Python with quicklint

## Status

Accepted

## Considered Options

- quicklint
- oldlint

## Decision Outcome

Chosen option: quicklint, because oldlint with its plugins is slow.
`;

const QUEUES = `# 5. Use bolt for background jobs

## Status

Accepted

## Considered Options

- bolt
- ember

## Decision Outcome

Chosen option: bolt, because ember needs a broker we do not run.
`;

const AGENTS = `# Agent notes

## Code style

- Use structured logging (\`spanlog\`) for every crate.
`;

function thing(name: string): DecidedThing {
  return { name, keys: keysOf(name)!, range: { start: 1, end: 1 } };
}

function repoWith(files: Record<string, string>): string {
  return createGitRepo([{ message: "init", files: { "docs/adr/0003-lint.md": LINTERS, "docs/adr/0005-jobs.md": QUEUES, "AGENTS.md": AGENTS, "README.md": "# svc\n", ...files } }]);
}

async function strongFindings(repo: string, files: Record<string, string>): Promise<string[]> {
  const report = await checkFilesOverHead(repo, files);
  return report.findings.filter((f) => f.severity !== "low").map((f) => `${f.severity} ${f.kind} ${f.file}:${f.line} ← ${f.decision.path}`);
}

describe("guard: a turned-down name inside a longer name", () => {
  test("heldByChosenName: a compound naming the chosen tool by a word the rejected name lacks", () => {
    const chosen = [thing("quicklint")];
    assert.ok(heldByChosenName("[tool.quicklint.oldlint-naming]", "oldlint", thing("oldlint"), chosen));
    assert.ok(!heldByChosenName("[tool.oldlint.naming]", "oldlint", thing("oldlint"), chosen), "no chosen word");
    assert.ok(!heldByChosenName("quicklint = 1; oldlint = 2", "oldlint", thing("oldlint"), chosen), "each run read on its own");
    // The rejected option's own name holds the chosen word: the compound is the rejected option.
    const strictStyle: DecidedThing = { name: "quicklint with strict rules", keys: { display: "strict", tokens: ["strict"] }, range: { start: 1, end: 1 } };
    assert.ok(!heldByChosenName("quicklint-config-strict", "strict", strictStyle, chosen));
  });

  test("onlyInDefinedKey: one part of a snake-case key the line defines, its value silent", () => {
    assert.ok(onlyInDefinedKey("ember_timeout: 30", "ember"));
    assert.ok(onlyInDefinedKey('    const val LAST_EMBER_GLOW = "warm"', "ember"));
    assert.ok(!onlyInDefinedKey("queue_backend: ember", "ember"), "the value names it");
    assert.ok(!onlyInDefinedKey("ember: true", "ember"), "a one-word key is the thing");
    assert.ok(!onlyInDefinedKey("client = ember_client()", "ember"), "not the defined key");
    assert.ok(!onlyInDefinedKey("  ember_configs:", "ember"), "a block opened for the thing");
  });

  test("the chosen tool's settings section that names the rejected one is no finding; a hook running it is", async () => {
    const repo = repoWith({ "pyproject.toml": '[project]\nname = "svc"\n' });
    assert.deepEqual(await strongFindings(repo, { "pyproject.toml": '[project]\nname = "svc"\n\n[tool.quicklint.oldlint-naming]\nstrict = true\n' }), []);
    const hook = await strongFindings(repo, { ".pre-commit-config.yaml": "repos:\n  - repo: https://github.com/example/oldlint\n    rev: 1.0.0\n    hooks:\n      - id: oldlint\n" });
    assert.ok(hook.some((f) => f.startsWith("high introduces-rejected-option .pre-commit-config.yaml:2 ← docs/adr/0003-lint.md")), hook.join("\n"));
  });

  test("a snake-case setting sharing a word is no finding; a setting whose value names the rejected one is", async () => {
    const repo = repoWith({ "config/app.yml": "listen: 8080\n" });
    assert.deepEqual(await strongFindings(repo, { "config/app.yml": "listen: 8080\nember_glow_colour: orange\n" }), []);
    const named = await strongFindings(repo, { "config/app.yml": "listen: 8080\njob_backend: ember\n" });
    assert.ok(named.some((f) => f.includes("config/app.yml:2 ← docs/adr/0005-jobs.md")), named.join("\n"));
  });

  test("a package holding the library a rule chose for a purpose is its bridge; another logging crate breaks the rule", async () => {
    const repo = repoWith({ "Cargo.toml": '[package]\nname = "svc"\n\n[dependencies]\nspanlog = "1.0"\n' });
    assert.deepEqual(await strongFindings(repo, { "Cargo.toml": '[package]\nname = "svc"\n\n[dependencies]\nspanlog = "1.0"\nspanlog-logbridge = "0.2"\n' }), []);
    const other = await strongFindings(repo, { "Cargo.toml": '[package]\nname = "svc"\n\n[dependencies]\nspanlog = "1.0"\nlogkit = "0.4"\n' });
    assert.ok(other.some((f) => f.startsWith("high breaks-rule Cargo.toml:6 ← AGENTS.md")), other.join("\n"));
  });
});
