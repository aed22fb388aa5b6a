// A later record that removes a thing ("Remove MySQL (for now)") takes out what an earlier record chose to go with
// it ("Use Sequelize with MySQL"): adding Sequelize back conflicts with the removing record, and the earlier record
// no longer keeps it. Innocent look-alikes: a library the earlier record did not pair with the removed thing, and an
// earlier "Use X with Y" whose partner is not what was removed. Real git, the working tree against HEAD; every
// record is written for these tests.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { createGitRepo } from "../helpers/gitRepo";
import { checkFilesOverHead } from "../helpers/guardRepo";

const record = (n: number, title: string, decision: string) => `# ${n}. ${title}

Date: 2022-0${n}-01

## Status

Accepted

## Context

We need to keep some state between requests.

## Decision

${decision}

## Consequences

Fewer moving parts.
`;

const PAIRED = "doc/adr/0002-use-sequelize-with-mysql.md";
const OTHER_PAIR = "doc/adr/0003-use-pino-with-express.md";
const REMOVING = "doc/adr/0005-remove-mysql-for-now.md";
const PKG = (deps: string) => `{\n  "name": "app",\n  "dependencies": {\n${deps}    "lodash": "^4.17.21"\n  }\n}\n`;

function repoWith(): string {
  return createGitRepo([
    {
      message: "init",
      files: {
        [PAIRED]: record(2, "Use sequelize with mysql", "Sequelize maps our entities to tables. It is good enough for now."),
        [OTHER_PAIR]: record(3, "Use pino with express", "Pino writes the request logs."),
        [REMOVING]: record(5, "Remove MySQL (for now)", "Remove all dependencies on mysql from the code for now."),
        "package.json": PKG(""),
      },
    },
  ]);
}

async function findingsFor(repo: string, files: Record<string, string>): Promise<string[]> {
  const report = await checkFilesOverHead(repo, files);
  return report.findings.filter((f) => f.severity !== "low").map((f) => `${f.kind} ${f.file} ← ${f.decision.path}`);
}

describe("guard: a removal takes out what an earlier record paired with the removed thing", () => {
  test("sequelize back in the manifest conflicts with the record that removed mysql", async () => {
    const repo = repoWith();
    assert.deepEqual(await findingsFor(repo, { "package.json": PKG('    "sequelize": "^6.35.0",\n') }), [`introduces-rejected-option package.json ← ${REMOVING}`]);
  });

  test("pino, paired with something not removed, and an unrelated library stay innocent", async () => {
    const repo = repoWith();
    assert.deepEqual(await findingsFor(repo, { "package.json": PKG('    "pino": "^9.0.0",\n') }), []);
    assert.deepEqual(await findingsFor(repo, { "package.json": PKG('    "zod": "^3.23.0",\n') }), []);
  });
});
