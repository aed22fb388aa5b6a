// A question proposes what the record it finds first listed among the options it weighed and did not choose: the
// record turned the proposal down, so what it kept is the answer, named from the other side of the turned-down option
// ("Use Less instead of Sass" keeps Sass). The repository is real, deliberated offline; the record is written for this
// test.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { deliberate } from "../../src/core/pipeline";
import { generateSigningKey } from "../../src/core/receipts/signing";
import { createGitRepo } from "../helpers/gitRepo";

const key = generateSigningKey();

const STACK = `# Admin console: folder layout, Vue and Sass

- Status: accepted
- Date: 2024-03-02

## Context and Problem Statement

The admin console mixes server templates and jQuery widgets. We want one front-end toolchain for the new screens.

## Proposed Changes

- Create the new console under \`console/\` with Vite
- Keep writing styles in Sass, with one partial per screen
- Render charts with the existing charting helper

## Considered Alternatives

- Keep the server templates and add widgets one by one
- Use Less instead of Sass
- Use a separate repository for the console

## Consequences

The console's styles live next to its screens.
`;

const OTHER = `# 2. Release notes

## Status

Accepted

## Decision

We will write release notes by hand in CHANGELOG.md for every tagged release of the console.
`;

async function ask(question: string) {
  const repo = createGitRepo([{ message: "Records", files: { "docs/adr/0001-admin-console-stack.md": STACK, "docs/adr/0002-release-notes.md": OTHER, "README.md": "# Admin\n" } }]);
  const out = await deliberate({ repo, question, signingKey: key, force: true, useCache: false, writeReceipt: false, config: { offline: true } });
  assert.equal(out.kind, "deliberated");
  if (out.kind !== "deliberated") throw new Error("not deliberated");
  return out.payload;
}

describe("a proposal the record weighed and turned down", () => {
  test("recommends what the record kept, named from the turned-down option, citing the record", async () => {
    const p = await ask("The console's styles keep fighting each other. Should we switch the console to Less?");
    const rec = p.options.find((o) => o.id === p.recommendation.option_id);
    assert.ok(rec, `a recommendation, got ${p.recommendation.option_id}: ${p.recommendation.rationale}`);
    assert.equal(rec.title, "Keep Sass", JSON.stringify(p.options.map((o) => o.title)) + p.recommendation.rationale);
    assert.match(p.recommendation.rationale, /weighed "Use Less instead of Sass" and chose otherwise/);
    const cited = new Set(rec.supports.map((id) => p.citations.find((c) => c.id === id)?.path_or_url));
    assert.ok(cited.has("docs/adr/0001-admin-console-stack.md"), [...cited].join(", "));
    assert.ok(p.options.some((o) => /less/i.test(o.title)), "the proposal stays an option");
  });
});
