// The MCP tool check_change (issue 22) through the real server (node dist/cli.js mcp) and the SDK's Client: an
// agent's diff that adds what an ADR turned down comes back as the same findings `deliberate check --json` prints;
// a base ref checks the branch; malformed and oversized input gives notes or a one-line error, never a crash.
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { GuardReportSchema } from "../../src/core/guard";
import { CLI, assertCliBuilt, newCliUser, runCli } from "../helpers/cli";
import { git, writeFiles } from "../helpers/gitRepo";
import { CSS_ADR_PATH, createGuardRepo, packageJsonWith } from "../helpers/guardRepo";

const USER = newCliUser();
const TAILWIND_DIFF = ["diff --git a/package.json b/package.json", "--- a/package.json", "+++ b/package.json", "@@ -7,0 +8 @@", '+    "tailwindcss": "^3.4.0",', ""].join("\n");

describe("check_change over MCP", () => {
  let repo: string;
  let client: Client;
  before(async () => {
    assertCliBuilt();
    repo = createGuardRepo();
    const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, "mcp", "--repo", repo], env: USER.env as Record<string, string>, stderr: "pipe" });
    client = new Client({ name: "guard-test", version: "1.0.0" });
    await client.connect(transport);
  });
  after(async () => {
    await client.close();
    rmSync(repo, { recursive: true, force: true });
  });
  const call = (args: Record<string, unknown>) => client.callTool({ name: "check_change", arguments: args }) as Promise<CallToolResult>;
  const text = (r: CallToolResult) => r.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");

  test("the tool is listed, read-only, and says an agent should check its own diff", async () => {
    const { tools } = await client.listTools();
    const t = tools.find((x) => x.name === "check_change");
    assert.ok(t);
    assert.equal(t.annotations?.readOnlyHint, true);
    assert.match(t.description ?? "", /your own diff before proposing it/);
    assert.ok(t.outputSchema);
  });

  test("an agent's diff adding a rejected option: the same findings as deliberate check --json", async () => {
    const r = await call({ diff: TAILWIND_DIFF });
    assert.notEqual(r.isError, true, text(r));
    const report = GuardReportSchema.parse(r.structuredContent);
    assert.equal(report.findings.length, 1);
    assert.equal(report.findings[0].kind, "introduces-rejected-option");
    assert.equal(report.findings[0].severity, "high");
    assert.equal(report.findings[0].decision.path, CSS_ADR_PATH);
    assert.match(text(r), /1 likely conflict/);
    // The same change in the working tree, through the CLI: identical findings.
    writeFiles(repo, { "package.json": packageJsonWith({ tailwindcss: "^3.4.0" }) });
    const cli = runCli(["check", "--repo", repo, "--json", "--fail-on", "never"], { env: USER.env });
    assert.deepEqual(JSON.parse(cli.stdout).findings, report.findings);
    const worktree = GuardReportSchema.parse((await call({})).structuredContent);
    assert.deepEqual(worktree.findings, report.findings);
    git(repo, ["checkout", "--", "package.json"]);
  });

  test("base: the branch's change since it left the ref", async () => {
    git(repo, ["checkout", "-q", "-b", "feature"]);
    writeFiles(repo, { "src/app.ts": "import moment from \"moment\";\n\nexport const today = () => moment().format(\"YYYY-MM-DD\");\n" });
    git(repo, ["commit", "-qam", "moment"]);
    const r = await call({ base: "main" });
    const report = GuardReportSchema.parse(r.structuredContent);
    assert.ok(report.findings.some((f) => f.kind === "breaks-rule" && f.file === "src/app.ts" && f.line === 1 && f.decision.path === "AGENTS.md"), text(r));
    git(repo, ["checkout", "-q", "main"]);
  });

  test("malformed, hostile and oversized input: notes or one-line errors, never a crash", async () => {
    const bad = await call({ diff: "this is not a diff\n@@ -1 +1 @@\n+x\n" });
    assert.notEqual(bad.isError, true);
    const report = GuardReportSchema.parse(bad.structuredContent);
    assert.deepEqual(report.findings, []);
    assert.ok(report.notes.length >= 1);
    const outside = GuardReportSchema.parse((await call({ diff: "--- a/../../etc/passwd\n+++ b/../../etc/passwd\n@@ -0,0 +1 @@\n+tailwindcss\n" })).structuredContent);
    assert.deepEqual(outside.findings, []);
    assert.ok(outside.notes.some((n) => /outside the repository/.test(n)));
    const both = await call({ diff: TAILWIND_DIFF, base: "main" });
    assert.equal(both.isError, true);
    assert.match(text(both), /diff or base, not both/);
    const ref = await call({ base: "--output=/tmp/x" });
    assert.equal(ref.isError, true);
    assert.match(text(ref), /not a git revision/);
    const big = ["--- a/src/big.ts", "+++ b/src/big.ts", "@@ -0,0 +1,30000 @@", ...Array.from({ length: 30_000 }, (_, i) => `+export const v${i} = ${i};`)].join("\n");
    const cut = GuardReportSchema.parse((await call({ diff: big })).structuredContent);
    assert.equal(cut.limits.truncated, true);
  });
});
