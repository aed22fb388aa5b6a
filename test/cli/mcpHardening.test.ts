// `deliberate mcp` under abuse, over real stdio against the built server (node dist/cli.js mcp): a long deliberation
// does not freeze the other tools and stops when cancelled or when the client goes away (the process's CPU time is
// read from /proc); calls accepted before the end of stdin are answered and leave no lock file; an oversized line, a
// garbage line and a bad progress token get JSON-RPC errors and the server stays up; file:/// is not a root; and an
// error about an outside path reads the same whether that path exists or not.
import { test, describe, before } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ListRootsRequestSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { createSampleRepo } from "../fixtures/sampleRepo";
import { CLI, assertCliBuilt, newCliUser } from "../helpers/cli";
import { makeTempDir } from "../helpers/gitRepo";
import { RawServer, waitFor, type Reply } from "../helpers/rawMcpServer";
import { OptionPickerSchema, ReceiptSchema } from "../../src/core/schemas";

const USER = newCliUser();
const MONGO_Q = "Should we store orders in MongoDB or PostgreSQL?";
/** Long enough that only a stopped thread explains a quiet process (the hook: src/mcp/deliberateTool.ts). */
const BUSY = { DELIBERATIVE_MCP_TEST_BUSY_MS: "120000" };




const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** CPU seconds the process spends over `ms` of wall time. */
async function cpuOver(s: RawServer, ms: number): Promise<number> {
  const before = s.cpuSeconds();
  await sleep(ms);
  return s.cpuSeconds() - before;
}

/** Waits until a deliberation is visibly spinning: the process burns CPU. */
async function untilBusy(s: RawServer): Promise<void> {
  const start = s.cpuSeconds();
  await waitFor(() => s.cpuSeconds() - start > 0.6, 60_000, `the deliberation never got busy; stderr: ${s.stderr.slice(-500)}`);
}

/** The files (not folders) in the repository's .deliberations: receipts, and any lock or temp file left behind. */
function deliberationFiles(repo: string): string[] {
  const dir = join(repo, ".deliberations");
  return existsSync(dir) ? readdirSync(dir).filter((f) => statSync(join(dir, f)).isFile()) : [];
}

function textOf(r: Reply): string {
  return (r.result?.content ?? []).map((c) => (c.type === "text" ? c.text : "")).join("\n");
}

const hasProc = existsSync("/proc/self/stat");

describe("deliberate mcp: a long deliberation never freezes the server and stops when nobody waits for it", { skip: !hasProc && "reads CPU time from /proc" }, () => {
  let repo: string;
  before(() => {
    assertCliBuilt();
    repo = createSampleRepo();
  });

  test("list_receipts and get_receipt are answered while a deliberation spins; cancelling it stops its thread", async () => {
    const s = await RawServer.started(repo, { ...USER.env, ...BUSY });
    try {
      const slow = s.send("tools/call", { name: "deliberate", arguments: { question: MONGO_Q } });
      await untilBusy(s);
      const asked = Date.now();
      const list = await s.tool("list_receipts", {}, 10_000);
      assert.equal(list.result?.isError, undefined, JSON.stringify(list));
      const missing = await s.tool("get_receipt", { receipt_id: "20260101-000000Z-00000000" }, 10_000);
      assert.match(textOf(missing), /unknown receipt/);
      assert.ok(Date.now() - asked < 5000, `answered in ${Date.now() - asked} ms while the deliberation runs`);
      assert.ok(!s.replies.some((r) => r.id === slow), "the deliberation is still running");

      s.line(JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: slow, reason: "the user pressed Esc" } }));
      await waitFor(() => /its worker thread was terminated/.test(s.stderr), 10_000, `no termination logged; stderr: ${s.stderr.slice(-500)}`);
      await sleep(300);
      const spent = await cpuOver(s, 1500);
      assert.ok(spent < 0.4, `after the cancellation the process still burns ${spent.toFixed(2)} s of CPU in 1.5 s`);
      assert.ok(!s.replies.some((r) => r.id === slow), "a cancelled request is not answered (MCP)");
      assert.deepEqual(deliberationFiles(repo), [], "no receipt, no temp file");
      const again = await s.tool("list_receipts", {}, 10_000);
      assert.ok(again.result, "still serving");
    } finally {
      s.kill();
    }
  });

  test("closing stdin during a deliberation ends the process at once, not when the run would have ended", async () => {
    const s = await RawServer.started(repo, { ...USER.env, ...BUSY });
    try {
      const slow = s.send("tools/call", { name: "deliberate", arguments: { question: MONGO_Q } });
      await untilBusy(s);
      const closedAt = Date.now();
      s.child.stdin.end();
      const code = await Promise.race([s.exited, sleep(15_000).then(() => "still running")]);
      assert.equal(code, 0, `the server exits cleanly (${Date.now() - closedAt} ms after EOF); stderr: ${s.stderr.slice(-500)}`);
      const answer = s.replies.find((r) => r.id === slow);
      assert.match(answer ? textOf(answer) : "", /^deliberate: cancelled$/, "the accepted call was answered: rolled back");
      assert.deepEqual(deliberationFiles(repo), []);
    } finally {
      s.kill();
    }
  });
});

describe("deliberate mcp: what the server accepted it finishes", () => {
  let repo: string;
  before(() => {
    assertCliBuilt();
    repo = createSampleRepo();
  });

  test("10 record_pick calls, then stdin closes: all 10 answered and on disk, no lock file", async () => {
    const s = await RawServer.started(repo, USER.env);
    const d = await s.tool("deliberate", { question: MONGO_Q, offline: true }, 120_000);
    const picker = OptionPickerSchema.parse(d.result?.structuredContent);
    const ids = Array.from({ length: 10 }, (_, i) =>
      s.send("tools/call", { name: "record_pick", arguments: { receipt_id: picker.receipt_ref, option_id: picker.options[i % picker.options.length].id, reason: `pick ${i}` } }),
    );
    s.child.stdin.end();
    const code = await s.exited;
    assert.equal(code, 0, s.stderr.slice(-500));
    for (const id of ids) {
      const r = s.replies.find((x) => x.id === id);
      assert.ok(r, `record_pick ${id} was answered; stderr: ${s.stderr.slice(-500)}`);
      assert.notEqual(r.result?.isError, true, textOf(r));
    }
    const dir = join(repo, ".deliberations");
    assert.deepEqual(deliberationFiles(repo), [`${picker.receipt_ref}.json`], "no .lock or temp file left");
    const receipt = ReceiptSchema.parse(JSON.parse(readFileSync(join(dir, `${picker.receipt_ref}.json`), "utf8")));
    assert.equal(receipt.picks?.length, 10, "every answered pick is in the history");
  });
});

describe("deliberate mcp: bad lines get JSON-RPC errors and the server stays up", () => {
  let repo: string;
  before(() => {
    assertCliBuilt();
    repo = createSampleRepo();
  });

  test("an 11 MB line, a garbage line and a bad progress token", async () => {
    const s = await RawServer.started(repo, USER.env);
    try {
      const huge = JSON.stringify({ jsonrpc: "2.0", id: 77, method: "tools/call", params: { name: "deliberate", arguments: { question: "x".repeat(11 * 1024 * 1024) } } });
      s.line(huge);
      const tooBig = await s.reply(77);
      assert.equal(tooBig.error?.code, -32600);
      assert.match(tooBig.error?.message ?? "", /too large/);
      const after = await s.tool("list_receipts", {}, 20_000);
      assert.ok(after.result, "a request after the oversized line is answered");

      s.line("this is {not json");
      const parse = await s.reply(null);
      assert.equal(parse.error?.code, -32700);

      const bad = await s.reply(s.send("tools/call", { name: "list_receipts", arguments: {}, _meta: { progressToken: { nested: true } } }));
      assert.equal(bad.error?.code, -32602);
      assert.match(bad.error?.message ?? "", /progressToken/);
      const ok = await s.tool("list_receipts", {});
      assert.ok(ok.result, "still serving");
      assert.equal(s.child.exitCode, null, "the server is still running");
    } finally {
      s.kill();
    }
  });
});

describe("deliberate mcp: roots", () => {
  let repo: string;
  before(() => {
    assertCliBuilt();
    repo = createSampleRepo();
  });

  async function connect(roots: string[]): Promise<{ client: Client; stderr: () => string }> {
    const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, "mcp", "--repo", repo], env: USER.env as Record<string, string>, stderr: "pipe" });
    let stderr = "";
    transport.stderr?.on("data", (d) => (stderr += d));
    const client = new Client({ name: "roots-test", version: "1" }, { capabilities: { roots: { listChanged: true } } });
    client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: roots.map((uri) => ({ uri })) }));
    await client.connect(transport);
    return { client, stderr: () => stderr };
  }

  const call = (c: Client, name: string, args: Record<string, unknown>) => c.callTool({ name, arguments: args }) as Promise<CallToolResult>;
  const text = (r: CallToolResult) => r.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");

  test("a client root of file:/// is refused like --repo /", async () => {
    const { client, stderr } = await connect(["file:///"]);
    try {
      const r = await call(client, "list_receipts", { repo: "/etc" });
      assert.equal(r.isError, true);
      assert.match(text(r), /outside the allowed roots/);
      // The server writes that line to stderr as it reads the roots; the pipe may deliver it after the tool's answer.
      const said = /client root ignored \(the file-system root is never served\): file:\/\/\//;
      for (let waited = 0; !said.test(stderr()) && waited < 5000; waited += 50) await new Promise((r) => setTimeout(r, 50));
      assert.match(stderr(), said);
    } finally {
      await client.close();
    }
  });

  test("the error for an outside path reads the same whether the path exists or not", async () => {
    const outside = makeTempDir("delib-outside-");
    const { client } = await connect([]);
    try {
      const said = async (name: string, args: Record<string, unknown>, given: string) => {
        const r = await call(client, name, args);
        assert.equal(r.isError, true, text(r));
        return text(r).replaceAll(given, "<path>");
      };
      const there = outside;
      const missing = join(outside, "no-such-folder");
      assert.equal(await said("list_receipts", { repo: missing }, missing), await said("list_receipts", { repo: there }, there));
      assert.equal(await said("list_receipts", { repo: "/nonexistent/x" }, "/nonexistent/x"), await said("list_receipts", { repo: "/etc" }, "/etc"));
      const file = "/etc/hostname";
      const nofile = "/etc/no-such-file";
      assert.equal(
        await said("deliberate", { question: MONGO_Q, context: { path: nofile, text: "x" } }, nofile),
        await said("deliberate", { question: MONGO_Q, context: { path: file, text: "x" } }, file),
      );
    } finally {
      await client.close();
    }
  });
});
