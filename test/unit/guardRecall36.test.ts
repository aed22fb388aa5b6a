// The guard on readings the seeded dev sets missed (issue 22, thirty-sixth session): options numbered as list items and
// taken "as per point 2", known by the signature their example code writes; a name of a dimension and a word shared
// with a sibling option ("3D Chart" beside "Sketch Chart"); each with an innocent look-alike.
// Real git repositories; records written for these tests.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { createGitRepo } from "../helpers/gitRepo";
import { checkFilesOverHead, findingSummary } from "../helpers/guardRepo";

const LOOKUPS = `# 4. One lookup per customer kind

Date: 2023-03-02

## Status

Accepted

## Context

Orders are looked up differently for retail, trade and staff customers. We can shape the lookups in two ways.

1. One lookup that is told the customer kind. For instance,

\`\`\`
    FindOrders(customerKind: string)
\`\`\`
2. A lookup for each kind. For instance,

\`\`\`
    FindRetailOrders()
    FindTradeOrders()
\`\`\`
Each lookup then says what it is for, and a wrong kind cannot be passed.

## Decision

We will write a lookup for each customer kind, as per point 2 above.

## Consequences

More lookups to maintain.
`;

function shop(): string {
  return createGitRepo([{ message: "init", files: { "docs/decisions/0004-one-lookup-per-kind.md": LOOKUPS, "src/Orders.cs": "namespace Shop;\n" } }]);
}

const controller = (method: string) => `namespace Shop;\n\npublic class OrdersController\n{\n    ${method}\n    {\n        return null;\n    }\n}\n`;

describe("guard: numbered list options taken by number, known by their example signatures", () => {
  test("the rejected item's signature (its name with its parameter) is turned down; a per-kind lookup is innocent", async () => {
    const r = shop();
    const bad = await checkFilesOverHead(r, { "src/OrdersController.cs": controller("public object FindOrders(string postcode, string customerKind)") });
    assert.deepEqual([...new Set(findingSummary(bad))], ["introduces-rejected-option docs/decisions/0004-one-lookup-per-kind.md"]);
    const good = await checkFilesOverHead(r, { "src/OrdersController.cs": controller("public object FindRetailOrders(string postcode)") });
    assert.deepEqual(findingSummary(good), []);
    // The same name without the rejected parameter is another call.
    const other = await checkFilesOverHead(r, { "src/OrdersController.cs": controller("public object FindOrders(string postcode)") });
    assert.deepEqual(findingSummary(other), []);
  });
});

const PLOTS = `# 2. Draw the charts with vector graphics

Date: 2022-06-01

## Status

Accepted

## Context

We had three technology options for drawing the dashboard charts.

* 3D Chart
* Sketch Chart
* VectorKit

VectorKit scales without blurring.

## Decision

Use VectorKit.
`;

describe("guard: a dimension tells an option apart from a sibling that shares its other word", () => {
  test("'3D Chart' beside 'Sketch Chart' keys by both words together; a vector chart is innocent", async () => {
    const r = createGitRepo([{ message: "init", files: { "doc/adr/0002-vector-charts.md": PLOTS, "src/index.ts": "export {};\n" } }]);
    const bad = await checkFilesOverHead(r, { "src/chart.ts": "export function draw(chart: Chart) {\n  return chart.render('3d');\n}\n" });
    assert.deepEqual([...new Set(findingSummary(bad))], ["introduces-rejected-option doc/adr/0002-vector-charts.md"]);
    const good = await checkFilesOverHead(r, { "src/chart.ts": "export function draw(chart: Chart) {\n  return chart.render('vectorkit');\n}\n" });
    assert.deepEqual(findingSummary(good), []);
    // "3d" without the chart is some other thing.
    const other = await checkFilesOverHead(r, { "src/model.ts": "export const model = load('3d');\n" });
    assert.deepEqual(findingSummary(other), []);
  });
});

const MESSAGING = `---
status: accepted
---

## Expose the events over one HTTP endpoint

Every event stream is served by the HTTP server we already run.

## Alternatives

## Serve events on a second protocol beside HTTP

1. Pros:
   1. Clients that speak the binary protocol need no translation.
2. Cons:
   1. Two listeners to configure.
   2. The port sharing library is abandoned. (portmux)

## Action Plan

Move the first stream next.
`;

const RETIRED = `# 5. Deprecated chatter membership in favor of static peers

## Summary

We take the peer chatter protocol out: peers are listed in a file from now on.

## Decision

Remove the chatter code and its flags once the peer file is documented.
`;

const CLEANUP = `# 6. Drop the unused audit store

Date: 2022-02-02

## Status

Accepted

## Context

A document collection was set up to keep the signup audit trail, but nothing ever read it.

## Decision

The document collection for signup audits will be dropped.

## Consequences

One collection fewer to back up.
`;

function platform(): string {
  const files = {
    "docs/decisions/0004-events-over-http.md": MESSAGING,
    "docs/decisions/0005-peer-chatter.md": RETIRED,
    "docs/decisions/0006-drop-audit-store.md": CLEANUP,
    "go.mod": "module example.com/platform\n\ngo 1.22\n\nrequire (\n\tgithub.com/pkg/errors v0.9.1\n)\n",
    "cmd/server/main.go": "package main\n\nfunc main() {\n}\n",
  };
  return createGitRepo([{ message: "init", files }]);
}

const goMod = (extra: string[]) => `module example.com/platform\n\ngo 1.22\n\nrequire (\n\tgithub.com/pkg/errors v0.9.1\n${extra.map((e) => `\t${e}\n`).join("")})\n`;
const mainWith = (body: string) => `package main\n\nfunc main() {\n${body}\n}\n`;

describe("guard: a library named in brackets, a flag for a removed feature, a dropped part of the data", () => {
  test("a library a rejected alternative names in brackets after 'library' is turned down as a dependency only", async () => {
    const r = platform();
    const bad = await checkFilesOverHead(r, { "go.mod": goMod(["github.com/example/portmux v0.1.5"]) });
    assert.deepEqual([...new Set(findingSummary(bad))], ["introduces-rejected-option docs/decisions/0004-events-over-http.md"]);
    // The plain word in a comment or a message is no use of the library.
    const good = await checkFilesOverHead(r, { "cmd/server/main.go": mainWith('\tlog("no portmux here")') });
    assert.deepEqual(findingSummary(good), []);
  });

  test("a flag whose help names a feature a title took out brings it back; other flags and messages do not", async () => {
    const r = platform();
    const bad = await checkFilesOverHead(r, { "cmd/server/main.go": mainWith('\tjoin := cmd.Flag("peer.join-address", "Address to announce to the chatter peers.").String()\n\t_ = join') });
    assert.deepEqual([...new Set(findingSummary(bad))], ["introduces-rejected-option docs/decisions/0005-peer-chatter.md"]);
    const other = await checkFilesOverHead(r, { "cmd/server/main.go": mainWith('\tfile := cmd.Flag("peer.file", "File that lists the static peers.").String()\n\t_ = file\n\tlog("chatter was removed")') });
    assert.deepEqual(findingSummary(other), []);
    // Running a program is no flag definition.
    const run = await checkFilesOverHead(r, { "cmd/server/main.go": mainWith('\t_ = exec.Command("chatter", "--version").Run()') });
    assert.deepEqual(findingSummary(run), []);
  });

  test("'the collection for signup audits will be dropped': code that creates it again is turned down", async () => {
    const r = platform();
    const bad = await checkFilesOverHead(r, { "scripts/restore.js": "async function main(db) {\n  await db.createCollection('signup_audits');\n}\n" });
    assert.deepEqual([...new Set(findingSummary(bad))], ["introduces-rejected-option docs/decisions/0006-drop-audit-store.md"]);
    const good = await checkFilesOverHead(r, { "scripts/restore.js": "async function main(db) {\n  await db.createCollection('signup_events');\n}\n" });
    assert.deepEqual(findingSummary(good), []);
  });
});

const DRAWING = `# 3. Use Canvas2 for the track view

## Status

Accepted

## Context

We had three technology options for the drawing layer.

* 2D Canvas
* Vector shapes
* Canvas Surface

## Decision

Use Canvas2.
`;

describe("guard: an option that names the chosen thing without a version is the chosen technology", () => {
  test("'Canvas Surface' beside a chosen 'Canvas2' is not turned down; '2D Canvas' still is", async () => {
    const r = createGitRepo([{ message: "init", files: { "doc/adr/0003-canvas2.md": DRAWING, "src/index.ts": "export {};\n" } }]);
    const good = await checkFilesOverHead(r, { "src/view.ts": "export const surface = makeSurface('canvas');\n" });
    assert.deepEqual(findingSummary(good), []);
    const bad = await checkFilesOverHead(r, { "src/view.ts": "export const ctx = canvas.getContext('2d');\n" });
    assert.deepEqual([...new Set(findingSummary(bad))], ["introduces-rejected-option doc/adr/0003-canvas2.md"]);
  });
});

const CLAIMS = `# Read the operator role from the token

- Status: accepted
- Date: 2024-02-02

## Considered Options

1. Use \`AppRole\` for operator roles

    The role is set on the application, and the token carries it at \`app_access.grants\`.

2. Use \`SiteRole\` for operator roles

    The role is set for the whole site, and the token carries it at \`site_acess.grants\`.

## Decision Outcome

Option 1: Use \`AppRole\` for operator roles.
`;

const TENANCY = `# Keeping tenants apart

- Status: accepted

## Considered Options

- Row Guards - one schema, rows filtered by the tenant column
- Schema per Tenant - one instance, a schema for each tenant

## Decision Outcome

Chosen option: "Row Guards", because it needs no change to how the service connects.
`;

describe("guard: a key path a numbered option writes (misspelt), and an 'X per Tenant' pattern", () => {
  test("the rejected option's key path is found even where the record misspells a doubled letter; the chosen path is innocent", async () => {
    const r = createGitRepo([{ message: "init", files: { "docs/adr/0007-operator-role.md": CLAIMS, "src/index.ts": "export {};\n" } }]);
    const bad = await checkFilesOverHead(r, { "src/roles.ts": "export const isOperator = (t: Claims) => t.get('site_access')?.get('grants')?.includes('operator');\n" });
    assert.deepEqual([...new Set(findingSummary(bad))], ["introduces-rejected-option docs/adr/0007-operator-role.md"]);
    const good = await checkFilesOverHead(r, { "src/roles.ts": "export const isOperator = (t: Claims) => t.get('app_access')?.get('grants')?.includes('operator');\n" });
    assert.deepEqual(findingSummary(good), []);
  });

  test("code that creates a schema under a computed name goes against a rejected 'Schema per Tenant'; a fixed schema does not", async () => {
    const r = createGitRepo([{ message: "init", files: { "docs/adr/0008-tenancy.md": TENANCY, "src/index.ts": "export {};\n" } }]);
    const bad = await checkFilesOverHead(r, { "src/provision.ts": "export const provision = (db: Db, id: string) => db.run(`CREATE SCHEMA IF NOT EXISTS tenant_${id}`);\n" });
    assert.deepEqual([...new Set(findingSummary(bad))], ["introduces-rejected-option docs/adr/0008-tenancy.md"]);
    const good = await checkFilesOverHead(r, { "src/provision.ts": "export const provision = (db: Db) => db.run('CREATE SCHEMA IF NOT EXISTS shared');\n" });
    assert.deepEqual(findingSummary(good), []);
  });
});
