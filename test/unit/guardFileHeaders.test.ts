// The guard on a rule that new files of a kind begin with a licence header (issue 22): a new file of that kind
// without one breaks it; one with the project's header, a file of another kind, an edit of an existing file and a
// rule about another kind of header do not. Real git repositories.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { hasHeader, headerRuleOf } from "../../src/core/guard/fileHeaders";
import { createGitRepo, writeFiles } from "../helpers/gitRepo";
import { checkWorktree, strongFindings } from "../helpers/guardRepo";

async function check(repo: string): Promise<string[]> {
  return strongFindings(await checkWorktree(repo)).map((f) => `${f.kind} ${f.severity} ${f.file}:${f.line} ← ${f.decision.path}`);
}

const HEADER = "/*\nCopyright 2024 The Ledger authors\n\nLicensed under the Apache License, Version 2.0.\n*/\n\n";

describe("guard: new files must begin with the licence header", () => {
  test("reads the kind of file from an extension or a language, and only for a licence header", () => {
    assert.deepEqual(headerRuleOf("**Copyright:** All new `.go` files must begin with the header from `cmd/main.go` (Apache 2.0)."), { extensions: ["go"] });
    assert.deepEqual(headerRuleOf("Every Kotlin source file should start with the license header."), { extensions: ["kt", "kts"] });
    assert.equal(headerRuleOf("Every Python module must start with a header comment that says what it is for."), undefined, "not a licence header");
    assert.equal(headerRuleOf("Files must begin with the licence header."), undefined, "no kind of file named");
    assert.equal(hasHeader(["// SPDX-License-Identifier: MIT", "package x"]), true);
    assert.equal(hasHeader(["package x", "", "func f() {}"]), false);
  });

  test("a new Go file without the header breaks the rule; with it, another kind of file, or an edit, does not", async () => {
    const agents = "# Agents\n\n- **Copyright:** All new `.go` files must begin with the header from `cmd/main.go` (Apache 2.0).\n";
    const repo = createGitRepo([{ message: "init", files: { "AGENTS.md": agents, "cmd/main.go": `${HEADER}package main\n\nfunc main() {}\n` } }]);
    writeFiles(repo, { "cmd/version.go": "package main\n\nfunc version() string { return \"1\" }\n" });
    assert.deepEqual(await check(repo), ["breaks-rule med cmd/version.go:1 ← AGENTS.md"]);
    writeFiles(repo, { "cmd/version.go": `${HEADER}package main\n\nfunc version() string { return "1" }\n` });
    assert.deepEqual(await check(repo), [], "the header is there");
  });

  test("a new file of another kind and an edit of an existing file are not checked for it", async () => {
    const agents = "# Agents\n\n- **Copyright:** All new `.go` files must begin with the header from `cmd/main.go` (Apache 2.0).\n";
    const repo = createGitRepo([{ message: "init", files: { "AGENTS.md": agents, "cmd/old.go": "package main\n" } }]);
    writeFiles(repo, { "scripts/release.sh": "#!/bin/sh\necho release\n", "cmd/old.go": "package main\n\nfunc old() {}\n" });
    assert.deepEqual(await check(repo), []);
  });
});
