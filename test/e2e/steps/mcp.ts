// The MCP server as the .vsix ships it: the installed extension's dist/mcpServer.js, run the way its MCP server
// definition provider runs it (the editor's Node with ELECTRON_RUN_AS_NODE=1 and `--repo <folder>`), answers the
// SDK's own Client: a deliberation with a signed receipt, an agent pick, and the picks a person made in the editor
// during the earlier steps.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { verifyReceiptSignature } from "../../../src/core/receipts/signing";
import { OptionPickerSchema } from "../../../src/core/schemas";
import { createSampleRepo } from "../../fixtures/sampleRepo";
import { makeTempDir } from "../../helpers/gitRepo";
import { assert, log, need, type E2EContext, type Step } from "../workbench";

function installedServer(ctx: E2EContext): string {
  const dir = readdirSync(ctx.dirs.extensions).find((d) => d.startsWith("deliberative-search."));
  assert(dir, `the extension is not installed in ${ctx.dirs.extensions}`);
  const file = join(ctx.dirs.extensions, dir, "dist", "mcpServer.js");
  assert(existsSync(file), `the installed extension has no dist/mcpServer.js (${file})`);
  return file;
}

async function withServer<T>(ctx: E2EContext, repos: string[], run: (client: Client) => Promise<T>): Promise<T> {
  const env = { ...ctx.env, ELECTRON_RUN_AS_NODE: "1", DELIBERATIVE_KEY_DIR: makeTempDir("delib-e2e-mcp-key-") } as Record<string, string>;
  const args = [installedServer(ctx), ...repos.flatMap((r) => ["--repo", r])];
  const client = new Client({ name: "e2e-agent", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command: process.execPath, args, env, stderr: "ignore" }));
  try {
    return await run(client);
  } finally {
    await client.close();
  }
}

async function deliberateAndPick(ctx: E2EContext): Promise<void> {
  const repo = createSampleRepo();
  await withServer(ctx, [repo], async (client) => {
    const { tools } = await client.listTools();
    assert(tools.length === 6 && tools.some((t) => t.name === "check_change") && tools.every((t) => t.outputSchema), `tools: ${tools.map((t) => t.name).join(", ")}`);
    const r = await client.callTool({ name: "deliberate", arguments: { question: "Should we store orders in MongoDB or PostgreSQL?", offline: true } });
    assert(!r.isError, `deliberate failed: ${JSON.stringify(r.content).slice(0, 300)}`);
    const payload = OptionPickerSchema.parse(r.structuredContent);
    const file = join(repo, ".deliberations", `${payload.receipt_ref}.json`);
    assert(existsSync(file) && verifyReceiptSignature(JSON.parse(readFileSync(file, "utf8"))).ok, `no validly signed receipt at ${file}`);
    const pick = await client.callTool({ name: "record_pick", arguments: { receipt_id: payload.receipt_ref, option_id: payload.options[0].id } });
    assert(!pick.isError && (pick.structuredContent as { picked_by?: string }).picked_by === "agent", `record_pick: ${JSON.stringify(pick).slice(0, 300)}`);
    log(`     the shipped MCP server deliberated (${payload.recommendation.option_id}) and recorded an agent pick`);
  });
}

async function seesEditorPicks(ctx: E2EContext): Promise<void> {
  const ws = need(ctx.ws, "the sample workspace");
  await withServer(ctx, [ws], async (client) => {
    const r = await client.callTool({ name: "list_receipts", arguments: {} });
    type Row = { state: string; picked_by?: string; claimed_pick?: string | null; verification?: { state: string; trusted: boolean } };
    const rows = (r.structuredContent as { receipts: Row[] }).receipts;
    // The editor signs with its own key (SecretStorage), which this server does not hold: unless that key is an
    // allowed signer, the editor's pick is visible as a claim with its verification, never as a fact.
    const seen = rows.find(
      (x) => (x.state !== "pending" && x.picked_by === "operator") || (x.state === "unverified" && !!x.claimed_pick && x.verification?.state === "untrusted signer"),
    );
    assert(seen, `no operator pick among ${JSON.stringify(rows).slice(0, 300)}`);
    log(`     list_receipts over the workspace: ${rows.length} receipt(s), the editor's pick among them (${seen.verification?.state ?? seen.state})`);
  });
}

export const mcpSteps: Step[] = [
  { name: "the installed extension's dist/mcpServer.js deliberates and records an agent pick over MCP", run: deliberateAndPick },
  { name: "the MCP server sees the picks a person made in the editor", run: seesEditorPicks },
];
