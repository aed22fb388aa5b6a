// The guard on the dev12 batch's kinds (issue 22): a rule that names what to use and, in parentheses, what not to; a
// rule that keeps hands off vendored code; instruction files that belong to a vendored dependency. Each has an
// innocent look-alike. Real git repositories, rules written for these tests.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { createGitRepo } from "../helpers/gitRepo";
import { checkFilesOverHead, findingSummary } from "../helpers/guardRepo";

const GO_MOD = "module example.org/meter\n\ngo 1.22\n\nrequire (\n\tgithub.com/corelog/log v0.2.1\n)\n";

const AGENTS = `# AGENTS.md

## Dependencies

Modules are copied into the \`vendor/\` folder; read upstream code there (e.g. \`vendor/github.com/corelog/log/\`). Do not modify vendored code directly.

## Conventions

- **Logging**: Use \`github.com/corelog/log\` (not \`github.com/corelog/kit/log\`)
- **Names**: YAML uses \`snake_case\`, CLI flags use \`kebab-case\`
- **No global variables** - pass dependencies in
`;

// A dependency's own instruction file, copied in with its code: its rules are the dependency's.
const VENDORED_AGENTS = `# Notes for agents

- Never use \`fmt.Println\` in this library.
`;

const MAIN = 'package main\n\nimport "github.com/corelog/log"\n\nfunc main() { log.NewNopLogger() }\n';

function repo(): string {
  return createGitRepo([
    {
      message: "init",
      files: {
        "AGENTS.md": AGENTS,
        "go.mod": GO_MOD,
        "main.go": MAIN,
        "vendor/github.com/corelog/log/log.go": "package log\n\nfunc NewNopLogger() {}\n",
        "vendor/github.com/corelog/log/AGENTS.md": VENDORED_AGENTS,
      },
    },
  ]);
}


// Records of a project whose own part, the "Switchyard", every record talks about; one lists it among its options.
const QUEUE_ADR = `# 1. Job queue for exports

Date: 2024-01-10

## Status

Accepted

## Context

Exports run for minutes and block the Switchyard while they do.

## Considered Options

* Switchyard inline workers
* Gearman
* Beanstalkd

## Decision Outcome

Chosen option: "Beanstalkd", because it is small.
`;

function vocabularyRecord(n: number): string {
  return `# ${n + 1}. Switchyard change ${n}\n\nDate: 2024-02-0${n}\n\n## Status\n\nAccepted\n\n## Context\n\nThe Switchyard routes requests between our services; part ${n} of it needs work.\n\n## Decision\n\nWe will add a retry to handler number ${n}.\n`;
}

function vocabularyRepo(): string {
  const files: Record<string, string> = { "docs/adr/0001-job-queue-for-exports.md": QUEUE_ADR, "package.json": '{\n  "name": "depot",\n  "dependencies": {}\n}\n' };
  for (let n = 1; n <= 8; n++) files[`docs/adr/000${n + 1}-switchyard-change-${n}.md`] = vocabularyRecord(n);
  return createGitRepo([{ message: "init", files }]);
}

// A proposal whose first list under "Potential Solutions" reports numbers about the problem; its options come later.
const NOTES_ADR = `---
title: "Store sampling notes"
---

- Author: @someone
- Date: March 2021
- Status: Accepted

## Problem Statement
Agents attach notes (\`TITLE\`, \`BODY\`, \`LABEL\`) to every batch they send, and nothing stores them yet.

## Potential Solutions
First, how the notes arrive. They come in the same request as the samples, as a set for the whole agent.

As a reference, these are some numbers from our busiest cluster:

- On average, a note (a mix of \`TITLE\`, \`BODY\` and \`LABEL\`) is about 60 bytes uncompressed.
- with that, we can assume a tenant holds ~70 kilobytes of notes at worst.
- by default, agents send their notes once a minute.

### Write Path

1. Store the notes from the gateways into an external cache (e.g. Memcrate)

Since the notes come all at once, we could write them straight to a cache keyed by tenant.

2. Keep the notes in memory within the collectors

As with samples, we can hold the notes in memory in the collectors, keyed by tenant.

### Read Path

The read path has one option: ask the collectors and merge.

## Conclusions

I conclude that solution #2 is ideal for the write path. It keeps the same semantics as samples.

Option #1 survives restarts, given it uses an external cache. Option #2 lacks this.
`;

// A record that replaced a JSON cache file with a binary header.
const HEADER_ADR = `# 4. Binary block header

Date: 2024-03-01

## Status

Accepted

## Context

Loading a block reads a JSON cache file next to it, which is slow to parse.

## Considered Options

* Keep writing \`state-cache.json\` beside every block
* A binary header file built from the index

## Decision Outcome

Chosen option: "A binary header file built from the index", because it loads in a fraction of the time.
`;

// A record about one part of the project (its relay, which has a page of its own in the docs).
const RELAY_ADR = `# Relay message storage

- Status: accepted
- Date: 2024-04-02

## Context and Problem Statement

The relay keeps messages until their recipients pick them up. Where should it store them?

## Considered Options

- PostgreSQL
- MongoDB

## Decision Outcome

Chosen option: "MongoDB", because the messages are JSON documents.
`;

describe("guard: the dev12 batch's kinds (round 32)", () => {
  test("a code span after '(not …)' in a rule that says what to use is turned down; the one to use is not", async () => {
    const r = repo();
    const bad = await checkFilesOverHead(r, { "drop.go": 'package main\n\nimport kitlog "github.com/corelog/kit/log"\n\nvar _ kitlog.Logger\n' });
    assert.deepEqual(findingSummary(bad), ["breaks-rule AGENTS.md"]);
    const good = await checkFilesOverHead(r, { "drop.go": 'package main\n\nimport "github.com/corelog/log"\n\nvar _ = log.NewNopLogger\n' });
    assert.deepEqual(findingSummary(good), []);
  });

  test("an edit under the folder a rule calls vendored code breaks it; an edit of the project's own code does not", async () => {
    const r = repo();
    const bad = await checkFilesOverHead(r, { "vendor/github.com/corelog/log/log.go": "package log\n\n// patched locally\nfunc NewNopLogger() {}\n" });
    assert.deepEqual(findingSummary(bad), ["breaks-rule AGENTS.md"]);
    const good = await checkFilesOverHead(r, { "main.go": `${MAIN}\n// main wires the logger.\n` });
    assert.deepEqual(findingSummary(good), []);
  });

  test("an instruction file inside a vendored dependency sets no rule for the project", async () => {
    const r = repo();
    const printed = await checkFilesOverHead(r, { "cmd/tool/main.go": 'package main\n\nimport "fmt"\n\nfunc main() { fmt.Println("ready") }\n' });
    assert.deepEqual(findingSummary(printed), []);
  });

  test("a word most records use is the project's own part, not an option one record turned down; a rare one still is", async () => {
    const r = vocabularyRepo();
    const own = await checkFilesOverHead(r, { "src/routes.ts": "import { Switchyard } from './switchyard';\n\nexport const yard = new Switchyard();\n" });
    assert.deepEqual(findingSummary(own), []);
    const rival = await checkFilesOverHead(r, { "package.json": '{\n  "name": "depot",\n  "dependencies": {\n    "gearman": "^1.0.0"\n  }\n}\n' });
    assert.deepEqual(findingSummary(rival), ["introduces-rejected-option docs/adr/0001-job-queue-for-exports.md"]);
  });

  test("a narrated fact in an options section (a number about the problem) turns nothing down", async () => {
    const r = createGitRepo([{ message: "init", files: { "docs/proposals/notes.md": NOTES_ADR, "go.mod": "module example.org/notes\n\ngo 1.22\n" } }]);
    const fields = await checkFilesOverHead(r, { "note.go": 'package notes\n\nvar sample = Note{Title: "cpu", Body: "hot", Label: "node-1"}\n' });
    assert.deepEqual(findingSummary(fields), []);
  });

  test("a string that is a whole file name a record turned down is the file in use; a comment naming it is a mention", async () => {
    const r = createGitRepo([{ message: "init", files: { "docs/adr/0004-binary-block-header.md": HEADER_ADR, "go.mod": "module example.org/blocks\n\ngo 1.22\n" } }]);
    const used = await checkFilesOverHead(r, { "cache.go": 'package blocks\n\nconst cacheFile = "state-cache.json"\n' });
    assert.deepEqual(findingSummary(used), ["introduces-rejected-option docs/adr/0004-binary-block-header.md"]);
    const noted = await checkFilesOverHead(r, { "cache.go": "package blocks\n\n// Blocks no longer carry a state-cache.json file.\nconst headerFile = \"header.bin\"\n" });
    assert.deepEqual(findingSummary(noted), []);
  });

  test("a variable declared at a file's top level breaks a 'no global variables' rule; a local, a constant and a test's do not", async () => {
    const r = repo();
    const global = await checkFilesOverHead(r, { "client.go": 'package main\n\nimport "net/http"\n\nvar sharedClient = &http.Client{}\n' });
    assert.deepEqual(findingSummary(global), ["breaks-rule AGENTS.md"]);
    const local = await checkFilesOverHead(r, { "client.go": 'package main\n\nimport "net/http"\n\nconst userAgent = "meter"\n\nvar _ http.RoundTripper = (*http.Transport)(nil)\n\nfunc newClient() *http.Client {\n\tvar c = &http.Client{}\n\treturn c\n}\n' });
    assert.deepEqual(findingSummary(local), []);
    const inTest = await checkFilesOverHead(r, { "client_test.go": 'package main\n\nimport "net/http"\n\nvar fakeClient = &http.Client{}\n' });
    assert.deepEqual(findingSummary(inTest), []);
  });

  test("a record whose title opens with one of the project's parts holds that part's files to it, not the others'", async () => {
    const r = createGitRepo([
      {
        message: "init",
        files: { "docs/decisions/relay-message-storage.md": RELAY_ADR, "docs/home/relay.md": "# The relay\n\nIt holds messages.\n", "README.md": "# Courier\n" },
      },
    ]);
    const relay = await checkFilesOverHead(r, { "relay/package.json": '{\n  "name": "relay",\n  "dependencies": {\n    "pg": "^8.11.0"\n  }\n}\n' });
    assert.deepEqual(findingSummary(relay), ["introduces-rejected-option docs/decisions/relay-message-storage.md"]);
    const agent = await checkFilesOverHead(r, { "services/agent/package.json": '{\n  "name": "agent",\n  "dependencies": {\n    "pg": "^8.11.0"\n  }\n}\n' });
    assert.deepEqual(findingSummary(agent), []);
  });

  test("a naming rule is broken by a flag or a YAML key written in another style; names in the rule's style are not", async () => {
    const r = repo();
    const cfg = (tag: string, flag: string) =>
      `package main\n\nimport "flag"\n\ntype Config struct {\n\tMaxHops int \`yaml:"${tag}"\`\n}\n\nfunc (c *Config) Register(f *flag.FlagSet) {\n\tf.IntVar(&c.MaxHops, "${flag}", 3, "Hops before a message is dropped.")\n}\n`;
    const camel = await checkFilesOverHead(r, { "config.go": cfg("maxHops", "relay.maxHops") });
    assert.deepEqual(findingSummary(camel), ["breaks-rule AGENTS.md", "breaks-rule AGENTS.md"]);
    const styled = await checkFilesOverHead(r, { "config.go": cfg("max_hops", "relay.max-hops") });
    assert.deepEqual(findingSummary(styled), []);
  });
});
