// A record whose file name opens with a date is dated by it, not numbered (issue 21: "rationales name records by
// number and title"): "201912-binary-index.md" is no record 201912. The end-to-end case runs on a real git
// repository, deliberated offline; the records are written for these tests.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { datedFileName } from "../../src/core/internal/adr";
import { deliberate } from "../../src/core/pipeline";
import { generateSigningKey } from "../../src/core/receipts/signing";
import { createGitRepo } from "../helpers/gitRepo";

describe("dated record file names", () => {
  test("a year and month, a full date or a compact date opening the name dates the record", () => {
    assert.equal(datedFileName("docs/proposals/201912-binary-index.md"), true);
    assert.equal(datedFileName("docs/adrs/2021-07-30-use-zap.md"), true);
    assert.equal(datedFileName("20240917-retry-status-codes.md"), true);
    assert.equal(datedFileName("designs/2023-06-exports/README.md"), true);
  });

  test("a record number, or a year that is only part of a name, is not a date", () => {
    assert.equal(datedFileName("docs/adr/0012-use-postgres.md"), false);
    assert.equal(datedFileName("rfd/0005/README.md"), false);
    assert.equal(datedFileName("designs/2024-support-ts-config/README.md"), false);
    assert.equal(datedFileName("adr/2019-notes.md"), false);
  });

  test("a rationale names a dated record by its title, never by its date as a number", async () => {
    const record = `# Query frontend as its own component

## Status

Accepted

## Context

Range queries over long periods are slow and the same dashboards ask for them again and again.

## Decision

We will run a separate query-frontend component that splits range queries and caches their results.
`;
    const repo = createGitRepo([{ message: "Proposals", files: { "docs/proposals/202004-query-frontend.md": record, "README.md": "# Metrics\n" } }]);
    const out = await deliberate({ repo, question: "Should range query results be cached by a separate query-frontend component?", signingKey: generateSigningKey(), force: true, useCache: false, writeReceipt: false, config: { offline: true } });
    assert.equal(out.kind, "deliberated");
    if (out.kind !== "deliberated") return;
    const text = [out.payload.recommendation.rationale, ...out.payload.citations.map((c) => c.title ?? "")].join("\n");
    assert.match(text, /Query frontend as its own component/);
    assert.doesNotMatch(text, /ADR 202004/);
  });
});
