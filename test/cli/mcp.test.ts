// `deliberate mcp`: the SDK's own Client spawns the built server (node dist/cli.js mcp) over stdio, against real git
// repositories in temp dirs, and checks what an agent gets: tool schemas, payloads that pass the zod contracts,
// receipts on disk that `deliberate verify` accepts, refusals outside the allowed roots, one-line errors,
// cancellation, concurrency, progress and abstention.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, readdirSync, realpathSync, symlinkSync } from "node:fs";
import { spawn } from "node:child_process";
import { join, resolve } from "node:path";
import matter from "gray-matter";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ListRootsRequestSchema, ResourceListChangedNotificationSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { createSampleRepo } from "../fixtures/sampleRepo";
import { BUNDLED_SERVER_ARGS, CLAUDE_CODE_COMMAND, CLINE_JSON, CONTINUE_YAML, CURSOR_MCP_JSON, VSCODE_MCP_JSON } from "../fixtures/agentConfigs";
import { CLI, assertCliBuilt, newCliUser, runCli } from "../helpers/cli";
import { startFakeOpenAI, type FakeOpenAI } from "../helpers/fakeOpenAI";
import { makeTempDir } from "../helpers/gitRepo";
import { OptionPickerSchema, ReceiptSchema } from "../../src/core/schemas";
import { verifyReceiptSignature } from "../../src/core/receipts/signing";

const USER = newCliUser();
const MONGO_Q = "Should we store orders in MongoDB or PostgreSQL?";

interface Session {
  client: Client;
  /** notifications/resources/list_changed received so far. */
  listChanged: () => number;
  /** Every message the server sent, in arrival order, before the client's dispatch. */
  wire: { method?: string; id?: unknown; params?: { progress?: number; message?: string } }[];
  stderr: () => string;
  close: () => Promise<void>;
}

/** Spawns `node dist/cli.js mcp --repo …` and connects the SDK's Client to it. */
async function connect(repos: string[], opts: { env?: NodeJS.ProcessEnv; roots?: () => string[] } = {}): Promise<Session> {
  const args = [CLI, "mcp", ...repos.flatMap((r) => ["--repo", r])];
  const transport = new StdioClientTransport({ command: process.execPath, args, env: (opts.env ?? USER.env) as Record<string, string>, stderr: "pipe" });
  let stderr = "";
  transport.stderr?.on("data", (d) => (stderr += d));
  const client = new Client({ name: "mcp-test", version: "1.0.0" }, opts.roots ? { capabilities: { roots: { listChanged: true } } } : {});
  if (opts.roots) {
    const list = opts.roots;
    client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: list().map((p) => ({ uri: `file://${p}`, name: p })) }));
  }
  let changed = 0;
  client.setNotificationHandler(ResourceListChangedNotificationSchema, async () => {
    changed++;
  });
  await client.connect(transport);
  // The SDK client dispatches notifications a microtask late but responses at once, so when the last progress
  // notification and the result arrive in one read, the client drops that notification: what the server sent, and
  // in which order, is read off the wire.
  const wire: Session["wire"] = [];
  const dispatch = transport.onmessage;
  transport.onmessage = (message) => {
    wire.push(message as Session["wire"][number]);
    dispatch?.(message);
  };
  return { client, listChanged: () => changed, wire, stderr: () => stderr, close: () => client.close() };
}

function call(s: Session, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return s.client.callTool({ name, arguments: args }) as Promise<CallToolResult>;
}

function textOf(r: CallToolResult): string {
  return r.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
}

function receiptFile(repo: string, id: string): string {
  return join(repo, ".deliberations", `${id}.json`);
}

function receiptIds(repo: string): string[] {
  const dir = join(repo, ".deliberations");
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".json")).map((f) => f.replace(/\.json$/, "")) : [];
}

/** A failed tool call: isError, and one line that matches. */
function assertToolError(r: CallToolResult, pattern: RegExp): void {
  assert.equal(r.isError, true, `expected isError, got ${JSON.stringify(r).slice(0, 300)}`);
  const text = textOf(r);
  assert.equal(text.split("\n").length, 1, `one line: ${text}`);
  assert.match(text, pattern);
  assert.doesNotMatch(text, /\n\s+at |MCP error/, "no stack trace, no protocol prefix");
}

describe("deliberate mcp on the sample repository", () => {
  let repo: string;
  let s: Session;
  before(async () => {
    assertCliBuilt();
    repo = createSampleRepo();
    s = await connect([repo]);
  });
  after(() => s.close());

  test("tools/list lists the six tools with input and output schemas", async () => {
    const { tools } = await s.client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), ["check_change", "deliberate", "get_receipt", "list_receipts", "record_pick", "verify_receipts"]);
    for (const t of tools) {
      assert.equal(t.inputSchema.type, "object", t.name);
      assert.ok(t.outputSchema && t.outputSchema.type === "object", `${t.name} has an output schema`);
      assert.ok(t.description && t.description.length > 40, `${t.name} is described`);
    }
    const d = tools.find((t) => t.name === "deliberate")!;
    assert.deepEqual(d.inputSchema.required, ["question"]);
    assert.deepEqual(Object.keys(d.inputSchema.properties ?? {}).sort(), ["context", "critic", "force", "offline", "question", "repo", "shape"]);
    assert.ok(Array.isArray((d.outputSchema as { anyOf?: unknown[] }).anyOf), "picker, ranked evidence or abstention");
    const pick = tools.find((t) => t.name === "record_pick")!;
    assert.deepEqual([...(pick.inputSchema.required ?? [])].sort(), ["option_id", "receipt_id"]);
  });

  test("deliberate returns the OptionPicker payload, its Markdown, and a signed receipt on disk", async () => {
    const changedBefore = s.listChanged();
    const r = await call(s, "deliberate", { question: MONGO_Q });
    assert.notEqual(r.isError, true, textOf(r));
    const p = OptionPickerSchema.parse(r.structuredContent);
    assert.match(p.options.find((o) => o.id === p.recommendation.option_id)!.title, /postgres/i);
    const file = receiptFile(repo, p.receipt_ref);
    assert.ok(existsSync(file), `receipt ${file} exists`);
    const receipt = ReceiptSchema.parse(JSON.parse(readFileSync(file, "utf8")));
    assert.deepEqual(receipt.payload, p);
    assert.equal(verifyReceiptSignature(JSON.parse(readFileSync(file, "utf8"))).ok, true);
    const md = textOf(r);
    assert.match(md, /^# Should we store orders in MongoDB or PostgreSQL\?/);
    assert.ok(md.includes(p.receipt_ref), "the Markdown names the receipt id");
    for (const o of p.options) assert.ok(md.includes(`\`${o.id}\``), `the Markdown names option id ${o.id}`);
    assert.ok(md.includes("docs/adr/0005-use-postgresql-for-order-storage.md"), "cites ADR 0005");
    assert.ok(s.listChanged() > changedBefore, "the client heard that the receipt resources changed");
  });

  test("ranked-evidence shape returns {rows} in rank order", async () => {
    const r = await call(s, "deliberate", { question: MONGO_Q, shape: "ranked-evidence" });
    const rows = (r.structuredContent as { rows: { rank: number; path_or_url: string }[] }).rows;
    assert.ok(rows.length > 3);
    rows.forEach((row, i) => assert.equal(row.rank, i + 1));
    assert.ok(rows.some((row) => row.path_or_url === "docs/adr/0005-use-postgresql-for-order-storage.md"));
  });

  test("record_pick writes an agent pick that `deliberate verify` accepts; get_receipt shows a later operator pick", async () => {
    const d = OptionPickerSchema.parse((await call(s, "deliberate", { question: "Should we adopt winston for logging?" })).structuredContent);
    const option = d.options.find((o) => o.id !== d.recommendation.option_id) ?? d.options[0];
    const r = await call(s, "record_pick", { receipt_id: d.receipt_ref, option_id: option.id, reason: "the agent needs structured JSON logs" });
    assert.notEqual(r.isError, true, textOf(r));
    assert.equal((r.structuredContent as { picked_by: string }).picked_by, "agent");
    const onDisk = ReceiptSchema.parse(JSON.parse(readFileSync(receiptFile(repo, d.receipt_ref), "utf8")));
    assert.equal(onDisk.operator_pick?.option_id, option.id);
    assert.equal(onDisk.picks?.length, 1);
    assert.equal(onDisk.picks?.[0].picked_by, "agent");
    assert.match(onDisk.picks?.[0].who ?? "", /mcp-test via MCP/);
    const verify = runCli(["verify", "--repo", repo], { env: USER.env });
    assert.equal(verify.code, 0, verify.stdout + verify.stderr);
    assert.match(verify.stdout, new RegExp(`ok\\s+${d.receipt_ref}`));

    // An agent's pick teaches the learned weights nothing (`deliberate stats` says why).
    const stats = runCli(["stats", "--repo", repo, "--json"], { env: USER.env });
    assert.equal(stats.code, 0, stats.stderr);
    const ignored = (JSON.parse(stats.stdout) as { ignored: { receipts: { receipt_id: string; reason: string }[] } }).ignored.receipts;
    assert.equal(ignored.find((i) => i.receipt_id === d.receipt_ref)?.reason, "not-operator-pick");

    // A person picks from the CLI (or the editor) meanwhile: the agent's next get_receipt shows it.
    const person = runCli(["pick", d.receipt_ref, d.recommendation.option_id, "--repo", repo], { env: USER.env });
    assert.equal(person.code, 0, person.stderr);
    const g = await call(s, "get_receipt", { receipt_id: d.receipt_ref });
    const receipt = ReceiptSchema.parse((g.structuredContent as { receipt: unknown }).receipt);
    assert.equal(receipt.operator_pick?.option_id, d.recommendation.option_id);
    assert.deepEqual(receipt.picks?.map((k) => k.picked_by), ["agent", "operator"]);
    assert.match(textOf(g), /by the operator/);
    assert.match(textOf(g), /\(agent\)/, "the pick history marks the agent's pick");

    const bad = await call(s, "record_pick", { receipt_id: d.receipt_ref, option_id: "opt-nope" });
    assertToolError(bad, /unknown option "opt-nope"/);
  });

  test("list_receipts, verify_receipts and the receipt resources", async () => {
    const list = await call(s, "list_receipts", {});
    const rows = (list.structuredContent as { receipts: { receipt_id: string; uri: string }[] }).receipts;
    assert.deepEqual(rows.map((r) => r.receipt_id).sort(), receiptIds(repo).sort());
    const v = await call(s, "verify_receipts", {});
    const sc = v.structuredContent as { valid: number; failed: number };
    assert.deepEqual([sc.valid, sc.failed], [rows.length, 0]);
    const { resources } = await s.client.listResources();
    assert.deepEqual(resources.map((r) => r.uri).sort(), rows.map((r) => r.uri).sort());
    assert.match(rows[0].uri, /^deliberation:\/\/delib-sample-[^/]+\/[A-Za-z0-9_-]+$/);
    const read = await s.client.readResource({ uri: rows[0].uri });
    const json = read.contents.find((c) => c.mimeType === "application/json") as { text: string };
    const md = read.contents.find((c) => c.mimeType === "text/markdown") as { text: string };
    assert.equal(ReceiptSchema.parse(JSON.parse(json.text)).receipt_id, rows[0].receipt_id);
    assert.match(md.text, /^# /);
    const { resourceTemplates } = await s.client.listResourceTemplates();
    assert.equal(resourceTemplates[0].uriTemplate, "deliberation://{repo}/{receipt_id}");
    await assert.rejects(s.client.readResource({ uri: "deliberation://elsewhere/20260101-000000Z-00000000" }), /unknown repository/);
  });

  test("malformed arguments give isError with one clear line, and the server keeps serving", async () => {
    assertToolError(await call(s, "deliberate", { question: 42 }), /^invalid arguments for deliberate: question: .*expected string/);
    assertToolError(await call(s, "deliberate", {}), /^invalid arguments for deliberate: question is required/);
    assertToolError(await call(s, "deliberate", { question: MONGO_Q, shape: "table" }), /shape: /);
    assertToolError(await call(s, "deliberate", { questoin: MONGO_Q }), /Unrecognized key.*questoin/);
    assertToolError(await call(s, "get_receipt", { receipt_id: "../../etc/passwd" }), /receipt_id: expected a receipt id/);
    assertToolError(await call(s, "get_receipt", { receipt_id: "20260101-000000Z-00000000" }), /unknown receipt/);
    assertToolError(await call(s, "deliberate", { question: "\u001b]0;owned\u0007 Redis or Memcached?" }), /control characters/);
    assertToolError(await call(s, "nope", {}), /unknown tool "nope"/);
    const ok = await call(s, "list_receipts", {});
    assert.notEqual(ok.isError, true, "still serving");
  });

  test("a question the classifier does not take is a normal result that offers force: true", async () => {
    const r = await call(s, "deliberate", { question: "What time is it in Tokyo?" });
    assert.notEqual(r.isError, true);
    assert.equal((r.structuredContent as { abstained: boolean }).abstained, true);
    assert.match(textOf(r), /force: true/);
    const forced = await call(s, "deliberate", { question: "What time is it in Tokyo?", force: true });
    OptionPickerSchema.parse(forced.structuredContent);
  });

  test("progress notifications arrive, one per stage start and end, when the request carries a progress token", async () => {
    const seen: { progress: number; message?: string }[] = [];
    const before = s.wire.length;
    const r = await s.client.callTool({ name: "deliberate", arguments: { question: "Redux or Zustand for the cart state?", offline: true } }, undefined, {
      onprogress: (p) => seen.push(p),
    });
    assert.notEqual(r.isError, true);
    const arrived = s.wire.slice(before);
    const sent = arrived.filter((m) => m.method === "notifications/progress").map((m) => m.params ?? {});
    assert.ok(sent.length >= 6, `got ${sent.length} progress notifications`);
    sent.forEach((p, i) => assert.equal(p.progress, i + 1));
    const messages = sent.map((p) => p.message ?? "").join("\n");
    for (const stage of ["Discovery", "Fusion", "Synthesis", "Receipt"]) assert.match(messages, new RegExp(stage));
    const lastProgress = arrived.map((m) => m.method).lastIndexOf("notifications/progress");
    const result = arrived.findIndex((m) => m.id !== undefined && m.method === undefined);
    assert.ok(result > lastProgress, "every progress notification is sent before the result");
    // The client's own callback sees them in order (all but possibly the last, see connect()).
    assert.ok(seen.length >= sent.length - 1, `the client delivered ${seen.length} of ${sent.length}`);
    seen.forEach((p, i) => assert.equal(p.progress, i + 1));
  });

  test("10 concurrent deliberate calls all succeed with valid receipts", async () => {
    const topics = ["Kafka or RabbitMQ", "gRPC or REST", "Redis or Memcached", "Jest or Vitest", "npm or pnpm", "Docker or Podman", "MySQL or SQLite", "GraphQL or REST", "pino or bunyan", "Zod or Yup"];
    const results = await Promise.all(topics.map((t) => call(s, "deliberate", { question: `Should we use ${t} for the order service?` })));
    const ids = results.map((r) => {
      assert.notEqual(r.isError, true, textOf(r));
      return OptionPickerSchema.parse(r.structuredContent).receipt_ref;
    });
    assert.equal(new Set(ids).size, 10);
    for (const id of ids) assert.equal(verifyReceiptSignature(JSON.parse(readFileSync(receiptFile(repo, id), "utf8"))).ok, true, id);
    const verify = runCli(["verify", "--repo", repo, "--json"], { env: USER.env });
    assert.equal(verify.code, 0, verify.stderr);
    const ok = new Set((JSON.parse(verify.stdout) as { receipt_id: string; ok: boolean }[]).filter((v) => v.ok).map((v) => v.receipt_id));
    for (const id of ids) assert.ok(ok.has(id), `${id} verifies`);
  });

  test("nothing but JSON-RPC on stdout: the server's log lines are on stderr", () => {
    assert.match(s.stderr(), /deliberate mcp: serving /);
    assert.match(s.stderr(), /deliberate: done in \d+ ms/);
  });
});

describe("deliberate mcp: allowed roots", () => {
  let repo: string;
  let other: string;
  before(() => {
    assertCliBuilt();
    repo = createSampleRepo();
    other = createSampleRepo();
  });

  test("a repo or context.path outside the allowed roots is refused, also through a symlink", async () => {
    const s = await connect([repo]);
    try {
      assertToolError(await call(s, "deliberate", { question: MONGO_Q, repo: other }), /repo .* is outside the allowed roots/);
      assertToolError(await call(s, "list_receipts", { repo: "/" }), /outside the allowed roots/);
      const outsideFile = join(other, "AGENTS.md");
      assertToolError(await call(s, "deliberate", { question: MONGO_Q, context: { path: outsideFile, text: "x" } }), /context\.path .* is outside/);
      symlinkSync(other, join(repo, "escape"));
      assertToolError(await call(s, "deliberate", { question: MONGO_Q, repo: join(repo, "escape") }), /outside the allowed roots/);
      assertToolError(await call(s, "deliberate", { question: MONGO_Q, context: { path: "escape/AGENTS.md" } }), /context\.path .* is outside/);
      assert.deepEqual(receiptIds(other), [], "nothing was written outside");
      const inside = await call(s, "deliberate", { question: MONGO_Q, context: { path: "src/orders.ts", line: 2, text: "export async function loadOrder(id: string) {" } });
      const p = OptionPickerSchema.parse(inside.structuredContent);
      const receipt = ReceiptSchema.parse(JSON.parse(readFileSync(receiptFile(repo, p.receipt_ref), "utf8")));
      assert.deepEqual(receipt.context, { file: "src/orders.ts", line: 2 });
    } finally {
      await s.close();
    }
  });

  test("the client's MCP roots are allowed too, and refreshed when they change", async () => {
    let roots = [other];
    const s = await connect([repo], { roots: () => roots });
    try {
      const r = await call(s, "deliberate", { question: MONGO_Q, repo: other });
      assert.notEqual(r.isError, true, textOf(r));
      assert.ok(existsSync(receiptFile(other, OptionPickerSchema.parse(r.structuredContent).receipt_ref)));
      roots = [];
      await s.client.sendRootsListChanged();
      await new Promise((done) => setTimeout(done, 300));
      assertToolError(await call(s, "list_receipts", { repo: other }), /outside the allowed roots/);
    } finally {
      await s.close();
    }
  });

  test("a line that is not JSON-RPC is logged and skipped; stdout carries only JSON-RPC", async () => {
    const child = spawn(process.execPath, [CLI, "mcp", "--repo", repo], { env: USER.env });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    const send = (line: string) => child.stdin.write(line + "\n");
    send("this is not json {");
    send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } }));
    send(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
    send(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "deliberate", arguments: { question: MONGO_Q, shape: "ranked-evidence" } } }));
    const until = Date.now() + 20_000;
    while (!out.includes('"id":2') && Date.now() < until) await new Promise((done) => setTimeout(done, 50));
    child.stdin.end();
    const code = await new Promise((done) => child.on("close", done));
    assert.equal(code, 0, "the server exits cleanly when stdin closes");
    const messages = out.trim().split("\n").map((l) => JSON.parse(l) as { id?: number; result?: { structuredContent?: { rows?: unknown[] } } });
    assert.ok(messages.every((m) => (m as { jsonrpc?: string }).jsonrpc === "2.0"), "every stdout line is a JSON-RPC message");
    assert.ok(messages.find((m) => m.id === 2)?.result?.structuredContent?.rows?.length, "the call after the bad line was answered");
    assert.match(err, /deliberate mcp: protocol: .*not valid JSON/);
  });

  test("bad command lines fail before serving, with one line and exit 2", () => {
    const r = runCli(["mcp", "--repo", join(makeTempDir(), "missing")], { env: USER.env });
    assert.equal(r.code, 2);
    assert.match(r.stderr.trim(), /^deliberate: repository path does not exist/);
    const r2 = runCli(["mcp", "--bogus"], { env: USER.env });
    assert.equal(r2.code, 2);
    assert.match(r2.stderr, /Unknown option '--bogus'/);
    const r3 = runCli(["mcp", "--repo", "/"], { env: USER.env });
    assert.equal(r3.code, 2);
    assert.match(r3.stderr, /refusing to serve the file-system root/);
    const help = runCli(["mcp", "--help"], { env: USER.env });
    assert.equal(help.code, 0);
    assert.match(help.stdout, /^usage: deliberate mcp \[--repo DIR\]/);
  });
});

describe("deliberate mcp: cancellation", () => {
  let repo: string;
  let model: FakeOpenAI;
  let s: Session;
  let release: () => void = () => undefined;
  const released = new Promise<void>((done) => (release = done));
  before(async () => {
    assertCliBuilt();
    repo = createSampleRepo();
    // A model endpoint that does not answer until the suite ends: the run is in flight until the client cancels it.
    model = await startFakeOpenAI(async () => {
      await released;
      return { status: 503, body: { error: { message: "closing" } } };
    });
    s = await connect([repo], { env: { ...USER.env, DELIBERATIVE_BASE_URL: model.baseURL, DELIBERATIVE_MODEL: "slow-model" } });
  });
  after(async () => {
    release();
    await s.close();
    await model.close();
  });

  async function waitFor(check: () => boolean, ms = 10_000): Promise<void> {
    const until = Date.now() + ms;
    while (!check()) {
      if (Date.now() > until) throw new Error("timed out waiting");
      await new Promise((done) => setTimeout(done, 50));
    }
  }

  test("the client's AbortSignal cancels the run: no receipt, and the server keeps serving", async () => {
    const controller = new AbortController();
    const pending = s.client.callTool({ name: "deliberate", arguments: { question: MONGO_Q } }, undefined, { signal: controller.signal });
    await waitFor(() => model.chatCalls() > 0);
    const started = Date.now();
    controller.abort();
    await assert.rejects(pending, /abort/i);
    await waitFor(() => /deliberate: cancelled after \d+ ms/.test(s.stderr()));
    assert.ok(Date.now() - started < 5000, "the pipeline stopped long before the model would have answered");
    assert.deepEqual(receiptIds(repo), [], "no receipt was written");
    const ok = await call(s, "list_receipts", {});
    assert.notEqual(ok.isError, true);
  });

  test("a request timeout on the client's side cancels the run as well", async () => {
    const before = model.chatCalls();
    const cancelledBefore = (s.stderr().match(/cancelled after/g) ?? []).length;
    await assert.rejects(s.client.callTool({ name: "deliberate", arguments: { question: "Should we use Kafka or RabbitMQ for order events?" } }, undefined, { timeout: 1500 }), /timed out/i);
    assert.ok(model.chatCalls() > before, "the run reached the model");
    await waitFor(() => (s.stderr().match(/cancelled after/g) ?? []).length > cancelledBefore);
    assert.deepEqual(receiptIds(repo), []);
  });

  test("offline: true never calls the configured model", async () => {
    const before = model.chatCalls();
    const r = await call(s, "deliberate", { question: MONGO_Q, offline: true });
    assert.notEqual(r.isError, true, textOf(r));
    assert.equal(model.chatCalls(), before);
  });
});


describe("deliberate mcp: the README's client configurations", () => {
  const checkout = resolve(__dirname, "../..");
  let repo: string;
  before(() => {
    assertCliBuilt();
    repo = createSampleRepo();
  });

  test("the README shows each of these configurations verbatim", () => {
    const readme = readFileSync(join(checkout, "README.md"), "utf8");
    for (const [name, snippet] of Object.entries({ VSCODE_MCP_JSON, CLAUDE_CODE_COMMAND, CURSOR_MCP_JSON, CONTINUE_YAML, CLINE_JSON })) {
      assert.ok(readme.includes(snippet), `README.md lacks the tested ${name} snippet`);
    }
  });

  /** The placeholders filled in as the client would: this checkout, and the repository as the workspace folder. */
  const fill = (arg: string) =>
    arg.replace("/path/to/deliberative-search", checkout).replace("${workspaceFolder}", repo).replace("/path/to/your/repo", repo).replace(/^"?\$\(pwd\)"?$/, repo);

  const configs: Record<string, () => { command: string; args: string[]; env?: Record<string, string> }> = {
    ".vscode/mcp.json": () => JSON.parse(VSCODE_MCP_JSON).servers.deliberate,
    "claude mcp add": () => {
      const [command, ...args] = CLAUDE_CODE_COMMAND.split(" -- ")[1].split(" ");
      return { command, args };
    },
    ".cursor/mcp.json": () => JSON.parse(CURSOR_MCP_JSON).mcpServers.deliberate,
    "Continue (.continue/mcpServers/deliberate.yaml)": () => matter(`---\n${CONTINUE_YAML}---\n`).data.mcpServers[0],
    "Cline (cline_mcp_settings.json)": () => JSON.parse(CLINE_JSON).mcpServers.deliberate,
    "the extension's dist/mcpServer.js under VS Code's Node": () => ({ command: process.execPath, args: BUNDLED_SERVER_ARGS, env: { ELECTRON_RUN_AS_NODE: "1" } }),
  };

  for (const [name, config] of Object.entries(configs)) {
    test(`${name} starts the server: initialize + tools/list + a deliberation`, async () => {
      const { command, args, env } = config();
      const transport = new StdioClientTransport({ command, args: args.map(fill), env: { ...(USER.env as Record<string, string>), ...env }, stderr: "pipe" });
      const client = new Client({ name: "config-check", version: "1.0.0" });
      try {
        await client.connect(transport);
        assert.equal(client.getServerVersion()?.name, "deliberative-search");
        const { tools } = await client.listTools();
        assert.equal(tools.length, 6);
        const r = (await client.callTool({ name: "list_receipts", arguments: {} })) as CallToolResult;
        assert.equal((r.structuredContent as { repo: string }).repo, realpathSync(repo));
      } finally {
        await client.close();
      }
    });
  }
});
