// The guard on readings dev14 showed it missed or misread on repositories it was never tuned on (issue 22): a title
// after the record's own number, a title that drops versions, "A Replacing B", an alternative list item that opens
// with its package, a step that deletes a file, "never force push", approaches named by the project's own parts, and
// a chosen option that deprecates a thing. Records and rules written for these tests.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { createGitRepo } from "../helpers/gitRepo";
import { checkFilesOverHead, findingSummary } from "../helpers/guardRepo";
import { droppedVersionsByTitle, isApproach, loadDecisions, markedOnItemLine, removedFiles } from "../../src/core/guard/decisions";
import { againstInstrument, instrumentsOf } from "../../src/core/guard/instruments";
import { keysOf, worksOnThing } from "../../src/core/guard/names";
import { proseOptionsOf } from "../../src/core/guard/proseOptions";
import { parseAdr } from "../../src/core/internal/adr";

const titleOptions = (title: string) => proseOptionsOf(parseAdr("docs/rfc.md", `# ${title}\n\n## Summary\n\nShort.\n`), undefined);

describe("guard: titles read past their number, versions and a trailing 'replacing'", () => {
  test("a numbered title still removes what it names", () => {
    const read = titleOptions("KEP-0042: Remove Widget v1beta2 API");
    assert.deepEqual(
      read.rejected.map((r) => r.name),
      ["Widget v1beta2 API"],
    );
  });

  test("a title that drops versions of a runtime turns nothing down; dropping the thing does", () => {
    assert.deepEqual(titleOptions("Drop support for Rubyish 2.x and 3.0").rejected, []);
    assert.deepEqual(
      titleOptions("Drop Gadgetron").rejected.map((r) => r.name),
      ["Gadgetron"],
    );
  });

  test("'A Replacing B' keeps A and turns B down", () => {
    const read = titleOptions("Runner Class Replacing OldEngine");
    assert.deepEqual(
      read.rejected.map((r) => r.name),
      ["OldEngine"],
    );
    assert.deepEqual(
      read.chosen.map((c) => c.name),
      ["Runner Class"],
    );
  });
});

describe("guard: options known by their list item's line", () => {
  test("the package right after the item's verb names the option; a span further on is only where it applies", () => {
    const keys = markedOnItemLine("Using fast-loader to read the settings files", "1. Using [`fast-loader`](https://example.test/fl) to read the settings files. It patched the module loader.", new Set());
    assert.deepEqual(keys?.exact, ["fast", "loader"]);
    assert.equal(markedOnItemLine("Using rsync in WidgetRef for copies", "3. Using rsync in `WidgetRef` for copies", new Set()), undefined);
    assert.equal(markedOnItemLine("Using fast-loader", "Using `fast-loader` in a paragraph", new Set()), undefined);
  });

  test("a step that deletes a file by its path turns that file's name down; an everyday name does not", () => {
    const lines = ["## Design", "", "- Remove the wizard (`tool/lib/setup/wizardgen.js`) and its tests.", "- Remove `lib/index.js`.", "- Keep `lib/keeper.js`.", "```", "- Remove `tool/lib/fenced/example.js`", "```"];
    const out = removedFiles(lines);
    assert.deepEqual(
      out.map((o) => [o.name, o.range.start, !!o.pathOnly]),
      [["wizardgen.js", 3, true]],
    );
  });
});

describe("guard: a rule against a way of running a command", () => {
  test("'Never force push' is broken by a push with --force or --force-with-lease, not by a plain push", () => {
    const [inst] = instrumentsOf("Keep separate commits. Never force push unless absolutely necessary.", { start: 4, end: 4 });
    assert.equal(inst?.shape, "flag");
    assert.equal(againstInstrument(inst, "scripts/sync.sh", "git push --force origin HEAD:main", ""), "push --force");
    assert.equal(againstInstrument(inst, "scripts/sync.sh", "git push --force-with-lease", ""), "push --force-with-lease");
    assert.equal(againstInstrument(inst, "scripts/sync.sh", "git push origin HEAD", ""), undefined);
    assert.equal(againstInstrument(inst, "scripts/sync.sh", "rm --force build.log && git push origin", ""), undefined);
  });

  test("'never use X' and 'do not edit Y' are not read as a flag and a command", () => {
    assert.deepEqual(
      instrumentsOf("Never use globals. Do not edit generated files.", { start: 1, end: 1 }).filter((i) => i.shape === "flag"),
      [],
    );
  });

  test("a script that force-pushes breaks the CLAUDE.md rule; one that pushes plainly does not", async () => {
    const r = createGitRepo([{ message: "init", files: { "CLAUDE.md": "# Notes\n\n## Git\n\n- Merge upstream, then push. Never force push unless absolutely necessary.\n", "README.md": "# Tool\n" } }]);
    const forced = await checkFilesOverHead(r, { "scripts/sync.sh": "#!/usr/bin/env bash\ngit fetch upstream\ngit rebase upstream/main\ngit push --force origin HEAD:main\n" });
    assert.ok(findingSummary(forced).includes("breaks-rule CLAUDE.md"), JSON.stringify(forced.findings));
    const plain = await checkFilesOverHead(r, { "scripts/sync.sh": "#!/usr/bin/env bash\ngit fetch upstream\ngit merge upstream/main\ngit push origin HEAD\n" });
    assert.deepEqual(findingSummary(plain), []);
  });
});

describe("guard: approaches and the words that lead them", () => {
  test("an approach opens with a verb or a qualifier; a name alone is none", () => {
    assert.equal(isApproach("Add Labels under WidgetRef in Flow"), true);
    assert.equal(isApproach("receive access to the Volume"), true);
    assert.equal(isApproach("Special afterStep"), true);
    assert.equal(isApproach("Gadgetron"), false);
    assert.equal(isApproach("Gadget Hub"), false);
  });

  test("a choice that works on a thing is told from one that takes it", () => {
    assert.equal(worksOnThing("Make the OldEngine cwd option available to rules"), true);
    assert.equal(worksOnThing("Use Gadgetron for queues"), false);
    assert.equal(worksOnThing("OldEngine"), false);
  });

  test("a verb that opens an approach is no key of it", () => {
    assert.deepEqual(keysOf("Leverage ZOP Dependencies")?.tokens.includes("leverage"), false);
    assert.deepEqual(keysOf("Expand Gizmo Registry to more kinds")?.tokens.includes("expand"), false);
  });
});

const FLOW_PROPOSALS: Record<string, string> = {};
// Ten proposals of a workflow engine, each speaking of its own WidgetRef and afterStep fields, as such a project does.
for (let n = 1; n <= 10; n++) {
  FLOW_PROPOSALS[`proposals/00${String(n).padStart(2, "0")}-topic-${n}.md`] = `---
status: implemented
title: Topic ${n}
---

# FEP-00${String(n).padStart(2, "0")}: Topic ${n}

## Summary

Proposal ${n} changes how a WidgetRef resolves, and when afterStep runs.

## Proposal

Resolve each \`WidgetRef\` once per run.
`;
}
FLOW_PROPOSALS["proposals/0011-step-labels.md"] = `---
status: implemented
title: Step Labels
---

# FEP-0011: Step Labels

## Summary

Let users set labels on each step at run time.

## Proposal

Labels are set on the run, keyed by step name.

## Alternatives

### Add Labels under WidgetRef in Flow

Every WidgetRef would carry its own labels; rejected, the run owns them.

### Special afterStep

A special afterStep that copies labels; rejected as confusing.

### Use the Gadgetron store

Keep labels in Gadgetron; rejected, one more service.
`;
FLOW_PROPOSALS["proposals/0012-conditions.md"] = `---
status: implemented
title: Gates Beta
---

# FEP-0012: Gates Beta

## Summary

We propose:

- For _clarity_, we propose **deprecating the separate \`Checkpoints\` CRD** and using \`Steps\` to produce the results that decide whether a later step runs.
- For _speed_, we propose plain expressions that read those results without a new pod.

## Proposal

Steps report a result that the next step reads.
`;

describe("guard: the project's own parts in approaches, and a deprecating choice", () => {
  test("approaches named by the project's own fields go; a named store they turned down stays", async () => {
    const r = createGitRepo([{ message: "init", files: { ...FLOW_PROPOSALS, "README.md": "# Flow\n" } }]);
    const set = await loadDecisions(r);
    const labels = set.decisions.find((d) => d.citation.path === "proposals/0011-step-labels.md");
    const names = (labels?.forbidden ?? []).map((f) => f.name);
    assert.ok(!names.some((n) => /WidgetRef|afterStep/.test(n)), JSON.stringify(names));
    assert.ok(names.some((n) => /Gadgetron/.test(n)), JSON.stringify(names));
  });

  test("a chosen option that deprecates a thing turns it down; a step using results is innocent", async () => {
    const r = createGitRepo([{ message: "init", files: { ...FLOW_PROPOSALS, "README.md": "# Flow\n" } }]);
    const gated = await checkFilesOverHead(r, { "examples/deploy.yaml": "apiVersion: flow.example/v1\nkind: Checkpoint\nmetadata:\n  name: on-main\n" });
    assert.ok(findingSummary(gated).includes("introduces-rejected-option proposals/0012-conditions.md"), JSON.stringify(gated.findings));
    const plain = await checkFilesOverHead(r, { "examples/deploy.yaml": "apiVersion: flow.example/v1\nkind: Step\nmetadata:\n  name: on-main\n" });
    assert.deepEqual(findingSummary(plain), []);
  });
});

describe("guard: versions a title drops support for", () => {
  test("the runtime's word and the dropped majors are read from the title", () => {
    assert.deepEqual(droppedVersionsByTitle("Drop support for Node.js 14.x and 15.x"), { name: "Node.js 14.x and 15.x", runtime: "node", majors: [14, 15] });
    assert.equal(droppedVersionsByTitle("Drop Gadgetron"), undefined);
    assert.equal(droppedVersionsByTitle("Use Node.js 20"), undefined);
  });

  test("engines that still admit a dropped major go against the record; a range above it does not", async () => {
    const record = "# 12. Drop support for Node.js 14.x and 15.x\n\n## Status\n\nAccepted\n\n## Context\n\nBoth lines are past their end of life.\n\n## Decision\n\nThe `engines` field moves up to the supported lines.\n";
    const r = createGitRepo([{ message: "init", files: { "docs/adr/0012-drop-old-node.md": record, "README.md": "# Kit\n" } }]);
    const low = await checkFilesOverHead(r, { "package.json": '{\n  "name": "kit",\n  "engines": {\n    "node": ">=14.17.0"\n  }\n}\n' });
    assert.ok(findingSummary(low).includes("introduces-rejected-option docs/adr/0012-drop-old-node.md"), JSON.stringify(low.findings));
    const high = await checkFilesOverHead(r, { "package.json": '{\n  "name": "kit",\n  "engines": {\n    "node": "^18.18.0 || >=20.0.0"\n  }\n}\n' });
    assert.deepEqual(findingSummary(high), []);
  });
});
