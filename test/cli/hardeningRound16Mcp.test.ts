// The third probe's #8 and #10 over real stdio against the built server (node dist/cli.js mcp):
// - check_change runs in the server's worker pool, so list_receipts is answered while a heavy check runs, and
//   cancelling the check stops it;
// - no tool result, resource or error puts a raw ESC, C1 or bidi byte on stdout, whatever the repository's texts
//   hold (an ADR title with OSC 8, CSI, C1 CSI and U+202E, a rule with OSC 52 and U+2066, a receipt edited on disk):
//   the text results pass the terminal sanitiser, and the structured content keeps the data, written as \u escapes
//   the way `deliberate check --json` writes it.
import { describe, test, before } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { GuardReportSchema } from "../../src/core/guard";
import { OptionPickerSchema } from "../../src/core/schemas";
import { assertCliBuilt, newCliUser, runCli } from "../helpers/cli";
import { createGitRepo, writeFiles } from "../helpers/gitRepo";
import { RawServer, waitFor, type Reply } from "../helpers/rawMcpServer";

const USER = newCliUser();




const textOf = (r: Reply) => (r.result?.content ?? []).map((c) => (c.type === "text" ? c.text : "")).join("\n");

/** 400 rules of five things each, all starting with "libz"; and lines of 250 tokens that start like each of them. */
const MANY_RULES = `# Agents\n\n${Array.from({ length: 400 }, (_, i) => `- Do not use libz${i}aq, libz${i}bq, libz${i}cq or libz${i}dq.`).join("\n")}\n`;
const heavyLine = (i: number) => `${Array.from({ length: 250 }, (_, j) => `libzz${j}zzq`).join(" ")} ${i}`;

describe("round 16 (#8): check_change runs in the worker pool", () => {
  before(() => assertCliBuilt());

  test("list_receipts is answered at once while a heavy check_change runs; cancelling the check stops it", async () => {
    const repo = createGitRepo([{ message: "rules", files: { "AGENTS.md": MANY_RULES, "src/app.js": "module.exports = 1;\n" } }]);
    // Some 10 ms a line against these rules: about 30 s of matching, in one synchronous stretch before this round.
    const n = 3000;
    const diff = `diff --git a/src/heavy.js b/src/heavy.js\n--- a/src/heavy.js\n+++ b/src/heavy.js\n@@ -0,0 +1,${n} @@\n${Array.from({ length: n }, (_, i) => `+${heavyLine(i)}\n`).join("")}`;
    const s = await RawServer.started(repo, USER.env);
    try {
      assert.ok((await s.tool("list_receipts", {})).result, "serving");
      const heavy = s.send("tools/call", { name: "check_change", arguments: { diff } });
      await new Promise((done) => setTimeout(done, 1500));
      const asked = Date.now();
      const list = await s.tool("list_receipts", {}, 120_000);
      const waited = Date.now() - asked;
      assert.match(textOf(list), /No receipts/);
      assert.ok(waited < 3000, `list_receipts waited ${waited} ms behind the check`);
      assert.ok(!s.answered(heavy), "the check is still running");
      s.line(JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: heavy, reason: "enough" } }));
      await waitFor(() => /check_change: cancelled|check_change: the run did not stop/.test(s.stderr), 10_000, `the check did not stop; stderr: ${s.stderr.slice(-500)}`);
      const small = await s.tool("check_change", { diff: 'diff --git a/src/a.js b/src/a.js\n--- a/src/a.js\n+++ b/src/a.js\n@@ -0,0 +1 @@\n+const z = require("libz3aq");\n' }, 30_000);
      assert.match(textOf(small), /1 likely conflict/, textOf(small));
    } finally {
      s.kill();
    }
  });
});

const ESC = "\u001b";
const HOSTILE_TITLE = `Use Postgre${ESC}]8;;http://evil\u0007SQL${ESC}]8;;\u0007 \u202efor\u009b2J storage${ESC}[2J`;
const ADR = `# 1. ${HOSTILE_TITLE}

## Status

Accepted

## Considered Options

* PostgreSQL
* MySQL

## Decision Outcome

Chosen option: "PostgreSQL", because ${ESC}[31mred${ESC}[0m \u202eevil\u202c JSONB fits the data.
`;
const RULES = `# Agents\n\n- Do not use moment${ESC}]52;c;aGVsbG8=\u0007 (it \u2066leaks\u2069 data).\n`;
const MYSQL_DIFF = 'diff --git a/src/b\u202eidi.js b/src/b\u202eidi.js\n--- a/src/b\u202eidi.js\n+++ b/src/b\u202eidi.js\n@@ -0,0 +1,2 @@\n+const mysql = require("mysql");\n+const moment = require("moment");\n';

/** Raw bytes a terminal acts on or that reorder what a person reads: ESC, BEL, C1 (as UTF-8), bidi and zero-width. */
const RAW_UNSAFE = /\x1b|\x07|\xc2[\x80-\x9f]|\xe2\x80[\x8b-\x8f\xaa-\xae]|\xe2\x81[\xa6-\xa9]/;
/** The same, decoded: what a tool's text must not hold. */
const TEXT_UNSAFE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/;

describe("round 16 (#10): no escape sequence, C1 or bidi character reaches the MCP client raw", () => {
  before(() => assertCliBuilt());

  test("every tool, resource and error: stdout carries no raw ESC/C1/bidi byte, texts are sanitised, structured content keeps the data", async () => {
    const repo = createGitRepo([{ message: "decisions", files: { "docs/adr/0001-use-postgres.md": ADR, "AGENTS.md": RULES, "src/app.js": "module.exports = 1;\n" } }]);
    const s = await RawServer.started(repo, USER.env);
    try {
      const texts: [string, string][] = [];
      const call = async (name: string, args: Record<string, unknown>) => {
        const r = await s.tool(name, args, 120_000);
        assert.ok(r.result, `${name}: ${JSON.stringify(r.error)}`);
        texts.push([name, textOf(r)]);
        return r;
      };
      const checked = await call("check_change", { diff: MYSQL_DIFF });
      const report = GuardReportSchema.parse(checked.result?.structuredContent);
      assert.equal(report.findings.length, 2, textOf(checked));
      // The data is kept: the decision's title as the record wrote it, the file name with its bidi control.
      assert.ok(report.findings.some((f) => f.decision.title.includes("\u202e") && f.decision.title.includes(`${ESC}]8;;`)), JSON.stringify(report.findings));
      assert.ok(report.findings.every((f) => f.file === "src/b\u202eidi.js"));
      // ... and is what `deliberate check --json` says about the same change.
      writeFiles(repo, { "src/b\u202eidi.js": 'const mysql = require("mysql");\nconst moment = require("moment");\n' });
      const cli = runCli(["check", "--repo", repo, "--json", "--fail-on", "never"], { env: USER.env });
      assert.deepEqual(GuardReportSchema.parse(JSON.parse(cli.stdout)).findings, report.findings);

      const deliberated = await call("deliberate", { question: "Should we use MySQL or PostgreSQL for storage?", offline: true });
      const picker = OptionPickerSchema.parse(deliberated.result?.structuredContent);
      await call("record_pick", { receipt_id: picker.receipt_ref, option_id: picker.options[0].id, reason: "fits" });
      // A receipt edited on disk (it no longer verifies) whose question holds what no question may.
      const dir = join(repo, ".deliberations");
      const file = join(dir, readdirSync(dir).find((f) => f.endsWith(".json"))!);
      const receipt = JSON.parse(readFileSync(file, "utf8")) as { question: string };
      receipt.question = `Should we use ${ESC}]8;;http://evil\u0007MySQL${ESC}]8;;\u0007 or \u202ePostgreSQL\u009b2J?`;
      writeFileSync(file, JSON.stringify(receipt, null, 2));
      await call("list_receipts", {});
      await call("get_receipt", { receipt_id: picker.receipt_ref });
      await call("verify_receipts", {});
      const listed = await s.request("resources/list", {});
      const uri = (listed.result as unknown as { resources: { uri: string; title: string }[] }).resources[0].uri;
      assert.doesNotMatch((listed.result as unknown as { resources: { title: string }[] }).resources[0].title, TEXT_UNSAFE);
      const read = await s.request("resources/read", { uri });
      const contents = (read.result as unknown as { contents: { mimeType: string; text: string }[] }).contents;
      const markdown = contents.find((c) => c.mimeType === "text/markdown")!.text;
      assert.doesNotMatch(markdown, TEXT_UNSAFE, "the receipt's Markdown");
      assert.match(contents.find((c) => c.mimeType === "application/json")!.text, /\\u001b\]8;;/, "the signed JSON as it is on disk");
      // A tool error that quotes what the client sent.
      const bad = await s.tool("check_change", { base: `HEAD${ESC}[2J\u202e` });
      assert.equal(bad.result?.isError, true);
      texts.push(["check_change error", textOf(bad)]);

      for (const [name, text] of texts) {
        assert.ok(text.length > 0, name);
        assert.doesNotMatch(text, TEXT_UNSAFE, `${name}: ${JSON.stringify(text.slice(0, 400))}`);
      }
      assert.match(texts[0][1], /Use PostgreSQL/, "the title, without its escapes");
      const raw = Buffer.concat(s.stdout).toString("latin1");
      const at = raw.search(RAW_UNSAFE);
      assert.equal(at, -1, `raw byte on stdout: ${JSON.stringify(raw.slice(Math.max(0, at - 80), at + 40))}`);
    } finally {
      s.kill();
    }
  });
});
