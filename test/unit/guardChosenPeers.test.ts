// A record that chose a library for a purpose ("Use Redis and Bull for background tasks") turns down that purpose's
// other well-known libraries, as a rule naming it would: a new dependency on one of them goes against the record even
// when the record never named it. Only an in-force record does, only where its title or chosen option says what the
// choice is for, and a later record that chose a rival for the same purpose keeps that rival allowed. Real git.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { recordPeerExclusions } from "../../src/core/guard/peers";
import { createGitRepo, writeFiles } from "../helpers/gitRepo";
import { checkWorktree, strongFindings } from "../helpers/guardRepo";

async function check(repo: string): Promise<string[]> {
  return strongFindings(await checkWorktree(repo)).map((f) => `${f.kind} ${f.severity} ${f.file}:${f.line} ← ${f.decision.path}`);
}

const jobsRecord = (status: string) => `# 5. Use Redis and Bull for background tasks

Date: 2020-04-22

## Status

${status}

## Context

Cloning a repository takes too long for the request cycle, so the work has to happen in the background.

## Decision

We're using the bull library, which keeps its queues in Redis.
`;

const GIT_RECORD = `# 9. Prefer dugite over raw git commands in tests

## Status

Accepted

## Decision

Use dugite even in tests that need the git process, so every machine runs the same git.
`;

const PACKAGE = `{
  "name": "clones",
  "dependencies": {
    "bull": "^3.22.0",
    "dugite": "^1.100.0"
  }
}
`;

const withDependency = (name: string) => PACKAGE.replace('"dugite": "^1.100.0"', `"dugite": "^1.100.0",\n    "${name}": "^1.0.0"`);

describe("guard: a record's chosen library turns down its well-known peers", () => {
  test("the peers of the named library for the purpose the text states, the named one kept", () => {
    const names = recordPeerExclusions("Use Redis and Bull for background tasks", "Use Redis and Bull for background tasks", { start: 1, end: 1 }).map((x) => x.name);
    assert.ok(names.includes("Agenda") && names.includes("Kue") && names.includes("Celery"), names.join(", "));
    assert.ok(!names.includes("Bull"), "the chosen library stays allowed, with its successor BullMQ");
    assert.deepEqual(recordPeerExclusions("Use Bull", "Use Bull", { start: 1, end: 1 }), [], "no purpose said, no peers");
    // The same name twice, the second time after "over": the first still names it to use.
    const git = recordPeerExclusions("Prefer dugite over  . dugite", "Prefer dugite over raw git commands in tests. dugite", { start: 1, end: 1 }).map((x) => x.name);
    assert.ok(git.includes("simple-git") && !git.includes("dugite"), git.join(", "));
  });

  test("adding a rival job queue or git library is flagged against the record; the chosen library's successor is not", async () => {
    const repo = createGitRepo([{ message: "init", files: { "doc/adr/0005-use-redis-and-bull.md": jobsRecord("Accepted"), "doc/adr/0009-prefer-dugite.md": GIT_RECORD, "package.json": PACKAGE } }]);
    writeFiles(repo, { "package.json": withDependency("agenda") });
    assert.deepEqual(await check(repo), ["introduces-rejected-option high package.json:6 ← doc/adr/0005-use-redis-and-bull.md"]);
    writeFiles(repo, { "package.json": withDependency("simple-git") });
    assert.deepEqual(await check(repo), ["introduces-rejected-option high package.json:6 ← doc/adr/0009-prefer-dugite.md"]);
    writeFiles(repo, { "package.json": withDependency("bullmq") });
    assert.deepEqual(await check(repo), []);
  });

  test("a rejected record turns down its proposal, not the proposal's rivals", async () => {
    const repo = createGitRepo([{ message: "init", files: { "doc/adr/0005-use-redis-and-bull.md": jobsRecord("Rejected"), "package.json": PACKAGE } }]);
    writeFiles(repo, { "package.json": withDependency("agenda") });
    assert.deepEqual(await check(repo), []);
  });

  test("a record that chose a rival for the same purpose keeps the rival allowed", async () => {
    const agenda = jobsRecord("Accepted").replace(/Redis and Bull/, "Agenda").replace("the bull library, which keeps its queues in Redis", "the agenda library for reporting jobs");
    const repo = createGitRepo([{ message: "init", files: { "doc/adr/0005-use-redis-and-bull.md": jobsRecord("Accepted"), "doc/adr/0011-use-agenda.md": agenda.replace("# 5.", "# 11."), "package.json": PACKAGE } }]);
    writeFiles(repo, { "package.json": withDependency("agenda") });
    assert.deepEqual(await check(repo), []);
    writeFiles(repo, { "package.json": withDependency("kue") });
    const found = await check(repo);
    assert.equal(found.length, 2, found.join("\n"));
  });
});
