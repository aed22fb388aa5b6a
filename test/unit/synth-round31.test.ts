// Answers that follow the record retrieval ranks first, read on real repositories deliberated offline; the records are
// written for these tests.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { deliberate } from "../../src/core/pipeline";
import { generateSigningKey } from "../../src/core/receipts/signing";
import { stems } from "../../src/core/synth/words";
import { createGitRepo } from "../helpers/gitRepo";

const key = generateSigningKey();

async function ask(files: Record<string, string>, question: string) {
  const repo = createGitRepo([{ message: "Records", files: { ...files, "README.md": "# Project\n" } }]);
  const out = await deliberate({ repo, question, signingKey: key, force: true, useCache: false, writeReceipt: false, config: { offline: true } });
  assert.equal(out.kind, "deliberated");
  if (out.kind !== "deliberated") throw new Error("not deliberated");
  return out.payload;
}

const recommended = (p: Awaited<ReturnType<typeof ask>>) => p.options.find((o) => o.id === p.recommendation.option_id)?.title ?? p.recommendation.option_id;

const GROUPING = `# Group the runbooks

- Status: accepted

## Context and Problem Statement

The runbook folder holds four hundred pages and nobody finds anything.

## Considered Options

- Put a keyword line under each heading
- Use subfolders, numbered within each subfolder
- Leave the folder flat

## Decision Outcome

Chosen option: "Use subfolders, numbered within each subfolder", because a file browser shows the grouping.
`;

describe("a subfolder is a nested folder", () => {
  test("the words of 'subfolders' are those of a nested directory", () => {
    const s = stems("use subfolders");
    assert.ok(s.has("nest") || s.has("nested"), [...s].join(","));
    assert.ok(s.has("directory"), [...s].join(","));
  });

  test("a record that chose subfolders answers 'keyword lines or nested folders?'", async () => {
    const p = await ask({ "docs/decisions/0004-group-the-runbooks.md": GROUPING }, "With hundreds of runbooks, should we group them with a keyword line in each page, or with nested folders?");
    assert.match(recommended(p), /nested folders/i);
    const cited = p.options.find((o) => o.id === p.recommendation.option_id)?.supports.map((id) => p.citations.find((c) => c.id === id)?.path_or_url);
    assert.ok(cited?.includes("docs/decisions/0004-group-the-runbooks.md"), JSON.stringify(cited));
  });
});
