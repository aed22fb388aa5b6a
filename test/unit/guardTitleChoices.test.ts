// The guard on records that state their decision in the title alone, in lower case (issue 22, dev6): "Use A instead
// of B" turns B down wherever the record writes it, and "Remove X" turns X down; a decision that takes something out
// chooses nothing to keep, so its words never shield what it removed. Each has an innocent look-alike. Real git
// repositories.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { checkChange, GuardReportSchema, type GuardReport } from "../../src/core/guard";
import { proseOptionsOf } from "../../src/core/guard/proseOptions";
import { parseAdr } from "../../src/core/internal/adr";
import { createGitRepo, writeFiles } from "../helpers/gitRepo";

async function check(repo: string): Promise<GuardReport> {
  const report = await checkChange(repo, { kind: "worktree" }, { config: {} });
  GuardReportSchema.parse(report);
  return report;
}

const strong = (r: GuardReport) => r.findings.filter((f) => f.severity !== "low").map((f) => `${f.kind} ${f.severity} ${f.file} ← ${f.decision.path}`);

const MONOREPO_ADR = `# 3. Use pnpm workspaces instead of rushstack

Date: 2022-05-01

## Status

Accepted

## Context

Rushstack kept fighting our release scripts.

## Decision

Switch to pnpm workspaces for the monorepo.
`;

const CACHE_ADR = `# 6. Remove Memcached (for now)

Date: 2022-07-01

## Status

Accepted

## Context

We configure memcached in every environment but nothing reads from it.

## Decision

Remove all dependencies on memcached from the code for now.
`;

const STYLE_ADR = `# 2. Use short names instead of long prefixes

Date: 2022-01-01

## Status

Accepted

## Decision

Name modules briefly.
`;

const PKG = '{\n  "name": "shop",\n  "devDependencies": {\n    "typescript": "^5.0.0"\n  }\n}\n';

describe("guard: choices stated in a record's title", () => {
  test("the title's two sides are options by their place, however they are cased; a removal title turns its object down", () => {
    const prefer = proseOptionsOf(parseAdr("doc/adr/0003-pnpm.md", MONOREPO_ADR), undefined);
    assert.deepEqual(prefer.rejected.map((r) => r.name), ["rushstack"]);
    assert.deepEqual(prefer.chosen.map((c) => c.name), ["pnpm workspaces"]);
    const removal = proseOptionsOf(parseAdr("doc/adr/0006-memcached.md", CACHE_ADR), undefined);
    assert.deepEqual(removal.rejected.map((r) => r.name), ["Memcached"]);
    assert.deepEqual(removal.chosen, []);
  });

  test("a dependency the title set aside is a conflict; a note in the README naming it is not", async () => {
    const repo = createGitRepo([{ message: "init", files: { "doc/adr/0003-use-pnpm-workspaces.md": MONOREPO_ADR, "package.json": PKG } }]);
    writeFiles(repo, { "package.json": PKG.replace('"typescript": "^5.0.0"', '"typescript": "^5.0.0",\n    "rushstack": "^1.2.0"') });
    assert.deepEqual(strong(await check(repo)), ["introduces-rejected-option high package.json ← doc/adr/0003-use-pnpm-workspaces.md"]);
    writeFiles(repo, { "package.json": PKG, "README.md": "We moved off rushstack in 2022.\n" });
    assert.deepEqual(strong(await check(repo)), []);
  });

  test("bringing back what a removal decision took out is a conflict, and dropping it again is no removal of a choice", async () => {
    const withCache = PKG.replace('"typescript": "^5.0.0"', '"typescript": "^5.0.0",\n    "memcached": "^2.2.0"');
    const repo = createGitRepo([
      { message: "init", files: { "package.json": withCache } },
      { message: "record", files: { "doc/adr/0006-remove-memcached.md": CACHE_ADR } },
    ]);
    // Dropping the dependency follows the decision: nothing it chose is removed.
    writeFiles(repo, { "package.json": PKG });
    assert.deepEqual(strong(await check(repo)), []);
    const clean = createGitRepo([{ message: "init", files: { "doc/adr/0006-remove-memcached.md": CACHE_ADR, "package.json": PKG } }]);
    writeFiles(clean, { "package.json": withCache });
    assert.deepEqual(strong(await check(clean)), ["introduces-rejected-option high package.json ← doc/adr/0006-remove-memcached.md"]);
  });

  test("a title that compares ways of writing code, not things, turns nothing down", async () => {
    const repo = createGitRepo([{ message: "init", files: { "doc/adr/0002-short-names.md": STYLE_ADR, "src/a.ts": "export const a = 1;\n" } }]);
    writeFiles(repo, { "src/a.ts": "// long prefixes are gone\nexport const longPrefixes = 1;\n" });
    assert.deepEqual(strong(await check(repo)), []);
  });

  test("a choosing title names what it chose when the decision names it too; a package of its family dropped drops it", async () => {
    const JOBS_ADR = `# 4. Use Nats and Rivet for deferred work

Date: 2021-03-01

## Status

Accepted

## Context

Long imports cannot run inside a web request.

## Decision

Deferred work goes through the [rivet](https://example.org/rivet) runner, which talks to Nats.
`;
    const MANNER_ADR = `# 8. Use command/query-based API for stores

Date: 2021-05-01

## Status

Accepted

## Decision

Stores take commands and answer queries.
`;
    const chosen = proseOptionsOf(parseAdr("doc/adr/0004-jobs.md", JOBS_ADR), undefined).chosen.map((c) => c.name);
    assert.deepEqual(chosen, ["Nats", "Rivet"]);
    assert.deepEqual(proseOptionsOf(parseAdr("doc/adr/0008-api.md", MANNER_ADR), undefined).chosen, []);
    const withQueue = PKG.replace('"typescript": "^5.0.0"', '"typescript": "^5.0.0",\n    "rivetmq": "^3.0.0"');
    const repo = createGitRepo([{ message: "init", files: { "doc/adr/0004-use-nats-and-rivet.md": JOBS_ADR, "package.json": withQueue } }]);
    writeFiles(repo, { "package.json": PKG });
    assert.deepEqual(strong(await check(repo)), ["removes-chosen-option high package.json ← doc/adr/0004-use-nats-and-rivet.md"]);
    // Swapping one package of the family for another keeps the choice.
    writeFiles(repo, { "package.json": PKG.replace('"typescript": "^5.0.0"', '"typescript": "^5.0.0",\n    "rivet": "^2.0.0"') });
    assert.deepEqual(strong(await check(repo)), []);
  });

  test("what a record says the project will not contain is brought in by a new file whose path names it, not by a line", async () => {
    const KEEP_OUT = `# 6. Installers live elsewhere

Date: 2019-01-01

## Status

Accepted

## Context

People want installers for every platform; we cannot maintain them all.

## Decision

This repository will not contain any installer recipes or vendoring scripts.
`;
    const repo = createGitRepo([{ message: "init", files: { "doc/adr/0006-installers-live-elsewhere.md": KEEP_OUT, "src/main.py": "print('hi')\n" } }]);
    writeFiles(repo, { "installer/windows/setup.py": "from setuptools import setup\nsetup(name='x')\n" });
    assert.deepEqual(strong(await check(repo)), ["introduces-rejected-option med installer/windows/setup.py ← doc/adr/0006-installers-live-elsewhere.md"]);
    const lines = createGitRepo([{ message: "init", files: { "doc/adr/0006-installers-live-elsewhere.md": KEEP_OUT, "src/main.py": "print('hi')\n" } }]);
    writeFiles(lines, { "src/main.py": "# the installer recipes live in another repository\nprint('hi')\n" });
    assert.deepEqual(strong(await check(lines)), []);
  });
});
