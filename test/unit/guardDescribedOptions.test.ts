// The guard on records that set an option apart only by how they describe it (issue 22): a rejected option whose head
// is shared with the chosen one ("use the schema compiler (… for Ktor …)") is known by the names its description
// gives; "the alternative for X is Y" followed by a preference that does not name Y turns Y down; a rejected
// proposal's own diff that adds a type brings that type's return under the refusal; alternatives written as flat
// headings after an empty "Alternatives" turn down the packages they name. Each has an innocent look-alike.
// Real git repositories; records written for these tests.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { createGitRepo } from "../helpers/gitRepo";
import { checkFilesOverHead, findingSummary } from "../helpers/guardRepo";
import { proposedDeclarations } from "../../src/core/guard/proposedCode";
import { describedNames } from "../../src/core/guard/optionGroups";

const ROUTING = `# Routing layer for the HTTP API

- Status: accepted
- Date: 2023-02-01

## Context and Problem Statement

Our endpoints are described in a schema file today, and the stubs come from a schema compiler.

## Considered Options

- use the schema compiler (write the schema by hand, compile server stubs for Ktor and clients for the rest)
- use the schema compiler, but compile for another server framework (Javalin, Micronaut, Helidon)
- use Routy DSL (endpoints written as Kotlin values, the schema compiler producing client stubs from the schema they yield)

## Decision Outcome

Chosen option: "use Routy DSL", reviewed again next year.

Clients are still produced by the schema compiler.
`;

const CLOCKS = `# Ordering writes

- Status: accepted

## Summary

Writes carry a version taken from the central sequencer.

## Design

Each node asks the sequencer for a batch of versions and hands them out locally.

The alternative for version generation is \`VectorStamp\`, which needs no sequencer but grows with the cluster. Weighing both, we prefer to keep the Sequencer as the source of versions.
`;

const LEASES = `---
status: rejected
---

# Leases for shard owners

## Proposal

Shard owners would hold a lease and announce it in their status reply:

\`\`\`diff
 message StatusReply {
   string shard = 1;
+  LeaseKind lease_kind = 2;
+  enum LeaseKind {
+    SOLE = 0;
+    SHARED = 1;
+  }
 }
\`\`\`

## Outcome

Rejected: owners are found through the registry instead.
`;

const TRANSPORT = `---
status: accepted
---

## Serve the query API as JSON

We describe every endpoint once, in the schema files, and generate the JSON handlers from them.

## Alternatives

## Describe the API only in a spec file

1. Pros:
   1. One file to read.
2. Cons:
   1. It drifts from the handlers.

## Keep the binary RPC and translate it with rpc - bridge

1. Pros:
   1. Both protocols at once.
2. Cons:
   1. Another process to run beside each server.

## Action Plan

Write the schema files first.
`;

const gradle = (deps: string[]) => `plugins { kotlin("jvm") version "1.9.22" }\n\ndependencies {\n${deps.map((d) => `    implementation("${d}")`).join("\n")}\n}\n`;

function service(): string {
  const files = {
    "docs/decisions/0003-routing-layer.md": ROUTING,
    "docs/decisions/0004-ordering-writes.md": CLOCKS,
    "docs/decisions/0005-leases.md": LEASES,
    "docs/decisions/0006-json-api.md": TRANSPORT,
    "build.gradle.kts": gradle(["org.example:routy-core:1.2.0"]),
    "proto/status.proto": 'syntax = "proto3";\n\nmessage StatusReply {\n  string shard = 1;\n}\n',
  };
  return createGitRepo([{ message: "init", files }]);
}

describe("guard: options told apart by their description, alternatives not preferred, a rejected proposal's types", () => {
  test("describedNames reads the names inside an option's parentheses, not its head", () => {
    assert.deepEqual(describedNames("use the compiler, but for another framework (Javalin, Micronaut, Helidon)"), ["Javalin", "Micronaut", "Helidon"]);
    assert.deepEqual(describedNames("use the compiler (write it by hand, compile stubs for Ktor and clients for the rest)"), ["Ktor"]);
    assert.deepEqual(describedNames("use the compiler for everything"), []);
  });

  test("a server framework the rejected option's description names is turned down; the chosen DSL is innocent", async () => {
    const r = service();
    const bad = await checkFilesOverHead(r, { "build.gradle.kts": gradle(["org.example:routy-core:1.2.0", "io.javalin:javalin:6.1.3"]) });
    assert.deepEqual(findingSummary(bad), ["introduces-rejected-option docs/decisions/0003-routing-layer.md"]);
    const ktor = await checkFilesOverHead(r, { "build.gradle.kts": gradle(["org.example:routy-core:1.2.0", "io.ktor:ktor-server-core:2.3.8"]) });
    assert.deepEqual(findingSummary(ktor), ["introduces-rejected-option docs/decisions/0003-routing-layer.md"]);
    const good = await checkFilesOverHead(r, { "build.gradle.kts": gradle(["org.example:routy-core:1.2.0", "org.example:routy-json:1.2.0"]) });
    assert.deepEqual(findingSummary(good), []);
  });

  test("'the alternative … is X' with a preference for something else turns X down; the preferred one is innocent", async () => {
    const r = service();
    const bad = await checkFilesOverHead(r, { "src/main/kotlin/Versions.kt": "import org.example.vectorstamp.VectorStamp\n\nfun next(v: VectorStamp) = v.tick()\n" });
    assert.deepEqual([...new Set(findingSummary(bad))], ["introduces-rejected-option docs/decisions/0004-ordering-writes.md"]);
    const good = await checkFilesOverHead(r, { "src/main/kotlin/Versions.kt": "import org.example.sequencer.Sequencer\n\nfun next(s: Sequencer) = s.take()\n" });
    assert.deepEqual(findingSummary(good), []);
  });

  test("a rejected proposal's diff declares the types it would add; declaring one again goes against the refusal", async () => {
    const r = service();
    const bad = await checkFilesOverHead(r, { "proto/status.proto": 'syntax = "proto3";\n\nmessage StatusReply {\n  string shard = 1;\n}\n\nenum LeaseKind {\n  SOLE = 0;\n}\n' });
    assert.deepEqual(findingSummary(bad), ["introduces-rejected-option docs/decisions/0005-leases.md"]);
    const good = await checkFilesOverHead(r, { "proto/status.proto": 'syntax = "proto3";\n\nmessage StatusReply {\n  string shard = 1;\n  string owner = 2;\n}\n' });
    assert.deepEqual(findingSummary(good), []);
  });

  test("alternatives written as flat headings after an empty 'Alternatives' turn down the packages they name", async () => {
    const r = service();
    const bad = await checkFilesOverHead(r, { "build.gradle.kts": gradle(["org.example:routy-core:1.2.0", "org.example:rpc-bridge:0.4.0"]) });
    assert.deepEqual(findingSummary(bad), ["introduces-rejected-option docs/decisions/0006-json-api.md"]);
    const good = await checkFilesOverHead(r, { "build.gradle.kts": gradle(["org.example:routy-core:1.2.0", "org.example:schema-files:0.4.0"]) });
    assert.deepEqual(findingSummary(good), []);
  });

  test("only a diff's added declarations with a name of two parts count, not its context lines", () => {
    assert.deepEqual(proposedDeclarations(LEASES).map((d) => d.name), ["LeaseKind"]);
    assert.deepEqual(proposedDeclarations("```diff\n message StatusReply {\n+  enum Kind {\n```\n").map((d) => d.name), []);
    assert.deepEqual(proposedDeclarations("```proto\n+enum LeaseKind {\n```\n").map((d) => d.name), []);
  });
});
