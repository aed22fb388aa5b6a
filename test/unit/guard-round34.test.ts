// The guard on records that say what they took in ways earlier rounds did not read (issue 22): a decision that
// "settled upon" a library for a purpose (its well-known peers are turned down), a component workshop record, an
// example set aside with "rather than using … such as X" (known by the package it ships as), options weighed by their
// pros and cons whose only choice is what the consequences build on, and a deprecated thing's implementation linked by
// repository. Each has an innocent look-alike. Real git repositories; records written for these tests.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { createGitRepo } from "../helpers/gitRepo";
import { checkFilesOverHead, findingSummary } from "../helpers/guardRepo";

const PLOTS = `# 4. Plotting library

Date: 2021-05-02

## Status

Accepted

## Context

The dashboard needs bar charts, timelines and a few custom diagrams.

## Decision

Two routes were open: an existing library, or hand-written SVG.

We have therefore settled upon D3, because its modules let us draw what no chart kit offers.

## Consequences

The team learns D3's selection model.
`;

const WORKSHOP = `# 5. A workshop for components

Date: 2021-06-10

## Status

Accepted

## Context

Designers and developers want to see each UI component on its own, as a living design system.

## Proposal

Use [Storybook](https://storybook.js.org/) as the component development environment.

## Risks

It runs as an application of its own.
`;

const TOOLING = `# 2. Bundling

Date: 2021-01-15

## Status

Accepted

## Context

The client must be compiled and bundled.

## Decision

Webpack bundles the client with a configuration of our own.

## Consequences

The configuration is ours (rather than using a ready-made setup such as [\`create-react-app\`](https://example.org/cra)) so that nothing is hidden from us.
`;

const TRACKING = `# 7. Usage tracking

Date: 2021-03-01

## Status

Accepted

## Context

Product wants page views and clicks in their analytics tool.

## Decision

Two packages can send those events from the client:
- metric-pipe
- signal-hub

### Metric Pipe
**Pros**:
- Tiny
**Cons**:
- Few users

### Signal Hub
**Pros**:
- Maintained by the analytics vendor
**Cons**:
- Larger bundle

## Consequences

Components call the helpers SignalHub exports for every event worth counting.
`;

const pkg = (deps: Record<string, string>) => `${JSON.stringify({ name: "client", private: true, dependencies: deps }, null, 2)}\n`;

function frontEnd(): string {
  const files = {
    "doc/adr/0002-bundling.md": TOOLING,
    "doc/adr/0004-plotting-library.md": PLOTS,
    "doc/adr/0005-a-workshop-for-components.md": WORKSHOP,
    "doc/adr/0007-usage-tracking.md": TRACKING,
    "package.json": pkg({ react: "^18.2.0" }),
  };
  return createGitRepo([{ message: "init", files }]);
}

describe("guard: choices said in prose, and what they turn down (round 34)", () => {
  test("a record that settled upon D3 for plotting turns another charting library down; a D3 module is innocent", async () => {
    const r = frontEnd();
    const bad = await checkFilesOverHead(r, { "package.json": pkg({ react: "^18.2.0", recharts: "^2.1.9" }) });
    assert.deepEqual(findingSummary(bad), ["introduces-rejected-option doc/adr/0004-plotting-library.md"]);
    const good = await checkFilesOverHead(r, { "package.json": pkg({ react: "^18.2.0", "d3-scale": "^4.0.2" }) });
    assert.deepEqual(findingSummary(good), []);
  });

  test("a component workshop record that chose Storybook turns Styleguidist down; Storybook itself is innocent", async () => {
    const r = frontEnd();
    const bad = await checkFilesOverHead(r, { "package.json": pkg({ react: "^18.2.0", "react-styleguidist": "^11.2.0" }) });
    assert.deepEqual(findingSummary(bad), ["introduces-rejected-option doc/adr/0005-a-workshop-for-components.md"]);
    const good = await checkFilesOverHead(r, { "package.json": pkg({ react: "^18.2.0", "@storybook/react": "^7.0.0" }) });
    assert.deepEqual(findingSummary(good), []);
  });

  test("'rather than using a setup such as create-react-app' turns its package down; webpack is innocent", async () => {
    const r = frontEnd();
    const bad = await checkFilesOverHead(r, { "package.json": pkg({ react: "^18.2.0", "react-scripts": "5.0.1" }) });
    assert.deepEqual(findingSummary(bad), ["introduces-rejected-option doc/adr/0002-bundling.md"]);
    const good = await checkFilesOverHead(r, { "package.json": pkg({ react: "^18.2.0", webpack: "^5.88.0" }) });
    assert.deepEqual(findingSummary(good), []);
  });

  test("of two options weighed by pros and cons, the one the consequences build on is the choice", async () => {
    const r = frontEnd();
    const bad = await checkFilesOverHead(r, { "package.json": pkg({ react: "^18.2.0", "metric-pipe": "^1.0.0" }) });
    assert.deepEqual(findingSummary(bad), ["introduces-rejected-option doc/adr/0007-usage-tracking.md"]);
    const good = await checkFilesOverHead(r, { "package.json": pkg({ react: "^18.2.0", "signal-hub": "^2.0.0" }) });
    assert.deepEqual(findingSummary(good), []);
  });
});

const GOSSIP = `---
title: Deprecated mesh chatter in favor of file discovery
status: completed
---

## Summary

Peers should be listed in a file, not found by chatter.

## Motivation

Mesh chatter (with the [swarmlist](https://github.com/meshco/swarmlist) implementation) was there from the start.

## Goals

* Remove chatter flags once file discovery is stable.
`;

describe("guard: a deprecated thing's implementation, linked by repository (round 34)", () => {
  test("requiring the linked implementation again in go.mod goes against the record; another module is innocent", async () => {
    const goMod = (extra: string) => `module example.org/relay\n\ngo 1.22\n\nrequire (\n\tgithub.com/pkg/errors v0.9.1\n${extra})\n`;
    const r = createGitRepo([{ message: "init", files: { "docs/proposals/201809-mesh-removal.md": GOSSIP, "go.mod": goMod("") } }]);
    const bad = await checkFilesOverHead(r, { "go.mod": goMod("\tgithub.com/meshco/swarmlist v0.5.1\n") });
    assert.deepEqual(findingSummary(bad), ["introduces-rejected-option docs/proposals/201809-mesh-removal.md"]);
    const good = await checkFilesOverHead(r, { "go.mod": goMod("\tgithub.com/meshco/filesd v0.2.0\n") });
    assert.deepEqual(findingSummary(good), []);
  });
});
