// The Critic's objections where people and agents read them: `deliberate` prints them after the options (no raw
// control sequence from the repository reaches the terminal), --json and the MCP tool return them in the payload,
// the MCP Markdown lists them, and the receipt on disk signs them.
import { test, describe, before } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { CLI, assertCliBuilt, newCliUser, runCli, runCliJson, type CliOptions } from "../helpers/cli";
import { createGitRepo } from "../helpers/gitRepo";
import { OptionPickerSchema, ReceiptSchema } from "../../src/core/schemas";
import { verifyReceiptSignature } from "../../src/core/receipts/signing";

const USER = newCliUser();
const AS_USER: CliOptions = { env: USER.env };
const QUESTION = "Should we use moment or date-fns for date handling?";
// The record's title carries a terminal escape (retitles the window): it must never reach stdout raw.
const RECORD =
  "# 1. Use date-fns for date handling \u001b]0;owned\u0007\n\nStatus: accepted\n\n## Context\n\nWe format and parse dates in many places.\n\n" +
  "## Decision\n\nWe will use date-fns for all date handling.\n";

function disagreeingRepo(): string {
  const files: Record<string, string> = {
    "docs/adr/0001-date-library.md": RECORD,
    "package.json": `{\n  "name": "app",\n  "dependencies": {\n    "moment": "^2.30.1"\n  }\n}\n`,
  };
  for (let i = 0; i < 5; i++) files[`src/f${i}.ts`] = `import moment from "moment";\nexport const d${i} = moment();\n`;
  return createGitRepo([{ message: "init", files }]);
}

describe("objections in the CLI and over MCP", () => {
  let repo: string;
  before(() => {
    assertCliBuilt();
    repo = disagreeingRepo();
  });

  test("the CLI prints the objections after the options, cited, with no raw escape", () => {
    const r = runCli([QUESTION, "--repo", repo, "--no-cache"], AS_USER);
    assert.equal(r.code, 0, r.stderr);
    const options = r.stdout.indexOf("Options:");
    const objections = r.stdout.indexOf("Objections (Critic):");
    const citations = r.stdout.indexOf("Citations:");
    assert.ok(options >= 0 && objections > options && citations > objections, r.stdout);
    assert.match(r.stdout, /✖ blocking Code disagrees: ADR 1 "Use date-fns for date handling ?" chose "date-fns", but the\n\s+code mostly uses moment \(moment: 6 files/);
    assert.match(r.stdout.slice(objections, citations), /\[\d+\] \[\d+\]/);
    assert.match(r.stdout, /· Used in 6 files \(package\.json:4, src\/f0\.ts:1, src\/f1\.ts:1, …\) today\./);
    assert.ok(!r.stdout.includes("\u001b") && !r.stdout.includes("\u0007"), "no control character reaches the terminal");
    // The receipt on disk signs them.
    const id = /Receipt: (\S+)/.exec(r.stdout)![1];
    const receipt = ReceiptSchema.parse(JSON.parse(readFileSync(join(repo, ".deliberations", `${id}.json`), "utf8")));
    assert.ok(receipt.payload.objections?.some((o) => o.severity === "blocking"));
    assert.deepEqual(verifyReceiptSignature(receipt), { ok: true });
  });

  test("--json carries them in the payload", () => {
    const p = OptionPickerSchema.parse(runCliJson([QUESTION, "--repo", repo, "--json", "--no-cache"], AS_USER));
    assert.equal(p.objections?.[0].severity, "blocking");
    assert.ok(p.objections![0].citations.length >= 2);
  });

  test("--critic shows the critic call in the dry-run egress preview, and says when there is no model", () => {
    const dry = runCli([QUESTION, "--repo", repo, "--provider", "openai", "--base-url", "http://127.0.0.1:9/v1", "--model", "m", "--critic", "--dry-run"], AS_USER);
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(dry.stdout, /^Call 3, critic \(the model Critic is on\)/m);
    const plain = runCli([QUESTION, "--repo", repo, "--provider", "openai", "--base-url", "http://127.0.0.1:9/v1", "--model", "m", "--dry-run"], AS_USER);
    assert.doesNotMatch(plain.stdout, /critic/i);
    const none = runCli([QUESTION, "--repo", repo, "--critic", "--no-receipt"], AS_USER);
    assert.equal(none.code, 0, none.stderr);
    assert.match(none.stderr, /--critic needs a model \(--provider openai\); only the rules Critic runs/);
  });

  test("the MCP deliberate tool returns them in structuredContent and its Markdown", async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, "mcp", "--repo", repo], env: USER.env as Record<string, string>, stderr: "pipe" });
    const client = new Client({ name: "critic-test", version: "1.0.0" });
    await client.connect(transport);
    try {
      const r = (await client.callTool({ name: "deliberate", arguments: { question: QUESTION } })) as CallToolResult;
      assert.ok(!r.isError, JSON.stringify(r).slice(0, 300));
      const p = OptionPickerSchema.parse(r.structuredContent);
      assert.ok(p.objections?.some((o) => o.severity === "blocking" && o.text.startsWith("Code disagrees")));
      const text = r.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
      assert.match(text, /## Objections\n\n- \*\*blocking:\*\* Code disagrees/);
    } finally {
      await client.close();
    }
  });
});
