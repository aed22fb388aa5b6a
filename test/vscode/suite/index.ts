// Runs inside the VS Code extension host (see test/vscode/runTest.ts). A tiny harness instead of mocha: each test
// is an async function; the run rejects when any fails, which makes test-electron exit non-zero.
import * as assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import { recordPick } from "../../../src/core/receipts/store";
import { generateSigningKey, verifyReceiptSignature } from "../../../src/core/receipts/signing";
import { parseWebviewMessage } from "../../../src/shared/protocol";
import { readSettings } from "../../../src/vscode/config";
import type { DeliberativeSearchApi } from "../../../src/vscode/extension";

const EXTENSION_ID = "deliberative-search.deliberative-search";
const QUESTION = "should we use Redux or Zustand for the cart state?";

type Test = { name: string; fn: () => Promise<void> };
const tests: Test[] = [];
const test = (name: string, fn: () => Promise<void>) => tests.push({ name, fn });

function workspace(): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, "the test opens a workspace folder");
  return folder.uri.fsPath;
}

function receiptFiles(): string[] {
  const dir = join(workspace(), ".deliberations");
  return existsSync(dir) ? readdirSync(dir).filter((n) => n.endsWith(".json")).map((n) => join(dir, n)) : [];
}

async function waitFor<T>(what: string, fn: () => T | undefined | Promise<T | undefined>, ms = 20_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined && v !== false) return v as T;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function lensTitles(uri: vscode.Uri): Promise<string[]> {
  const lenses = (await vscode.commands.executeCommand<vscode.CodeLens[]>("vscode.executeCodeLensProvider", uri, 10)) ?? [];
  return lenses.map((l) => l.command?.title ?? "").filter(Boolean);
}

let api: DeliberativeSearchApi;
const orders = () => vscode.Uri.file(join(workspace(), "src", "orders.ts"));

test("the extension is installed, not active before use, and activates on its command", async () => {
  const ext = vscode.extensions.getExtension<DeliberativeSearchApi>(EXTENSION_ID);
  assert.ok(ext, `${EXTENSION_ID} is installed`);
  api = await ext.activate();
  const commands = await vscode.commands.getCommands(true);
  for (const id of ["deliberateOnSelection", "deliberateOnQuestion", "openReceipt", "verifyReceipts", "exportReceiptMarkdown", "setApiKey", "showLog"]) {
    assert.ok(commands.includes(`deliberativeSearch.${id}`), `command ${id} is registered`);
  }
});

test("the malformed-message guard rejects what the webview must never send", async () => {
  assert.equal(parseWebviewMessage({ type: "ready", protocol: 1 }).ok, true);
  assert.equal(parseWebviewMessage({ type: "pick", requestId: "r1", optionId: "opt-a" }).ok, true);
  assert.equal(parseWebviewMessage({ type: "pick", optionId: "opt-a" }).ok, false, "a request without an id");
  assert.equal(parseWebviewMessage({ type: "openCitation", requestId: "r1", citationId: "c", extra: 1 }).ok, false, "unknown keys");
  assert.equal(parseWebviewMessage({ type: "runShell", requestId: "r1" }).ok, false, "unknown type");
  assert.equal(parseWebviewMessage("pick").ok, false);
});

test("an invalid setting falls back to its default", async () => {
  const cfg = vscode.workspace.getConfiguration("deliberativeSearch");
  await cfg.update("git.maxMs", "soon", vscode.ConfigurationTarget.Workspace);
  try {
    assert.equal(readSettings().gitMaxMs, 1200);
  } finally {
    await cfg.update("git.maxMs", undefined, vscode.ConfigurationTarget.Workspace);
  }
});

test('the CodeLens offers "Deliberate" on the TODO(decide) comment', async () => {
  await vscode.window.showTextDocument(orders());
  const titles = await waitFor("a Deliberate lens", async () => ((await lensTitles(orders())).some((t) => t.includes("Deliberate")) ? true : undefined));
  assert.ok(titles);
});

test("Deliberate on Selection writes a signed receipt for the comment's question", async () => {
  const editor = await vscode.window.showTextDocument(orders());
  const line = editor.document.getText().split("\n").findIndex((l) => l.includes("TODO(decide)"));
  editor.selection = new vscode.Selection(line, 0, line, 0);
  await vscode.commands.executeCommand("deliberativeSearch.deliberateOnSelection");
  const file = await waitFor("a receipt", () => receiptFiles()[0]);
  const raw = JSON.parse(readFileSync(file, "utf8"));
  assert.equal(raw.question, QUESTION);
  assert.equal(raw.operator_pick, null);
  assert.equal(verifyReceiptSignature(raw).ok, true);
  assert.equal(raw.context?.file, "src/orders.ts");
  await api.refreshReceipts();
  assert.equal(api.receipts()[0]?.state, "pending");
  assert.ok((await lensTitles(orders())).some((t) => t.includes("Deliberated: pending pick")));
});

test('after a pick, the sidebar model and the CodeLens say "Decided"', async () => {
  const file = receiptFiles()[0]!;
  const raw = JSON.parse(readFileSync(file, "utf8"));
  const zustand = raw.payload.options.find((o: { title: string }) => /zustand/i.test(o.title));
  await recordPick(workspace(), raw.receipt_id, { option_id: zustand.id }, generateSigningKey());
  await waitFor("the index to see the pick", async () => {
    await api.refreshReceipts();
    return api.receipts()[0]?.state === "picked" ? true : undefined;
  });
  assert.equal(api.receipts()[0]?.picked, zustand.title);
  await waitFor("the Decided lens", async () => ((await lensTitles(orders())).some((t) => t.includes(`Decided: ${zustand.title}`)) ? true : undefined));
});

test("a corrupt receipt is listed as corrupt and never breaks the index", async () => {
  const dir = join(workspace(), ".deliberations");
  await vscode.workspace.fs.writeFile(vscode.Uri.file(join(dir, "corrupt-receipt.json")), Buffer.from("{ not json"));
  await api.refreshReceipts();
  const states = api.receipts().map((r) => r.state);
  assert.ok(states.includes("corrupt"));
  assert.ok(states.includes("picked"));
  await vscode.workspace.fs.delete(vscode.Uri.file(join(dir, "corrupt-receipt.json")));
});

export async function run(): Promise<void> {
  let failed = 0;
  for (const t of tests) {
    const started = Date.now();
    try {
      await t.fn();
      console.log(`  ✓ ${t.name} (${Date.now() - started} ms)`);
    } catch (err) {
      failed++;
      console.error(`  ✗ ${t.name}\n    ${err instanceof Error ? err.stack : String(err)}`);
    }
  }
  console.log(`test:vscode: ${tests.length - failed} passed, ${failed} failed`);
  if (failed) throw new Error(`${failed} extension-host test(s) failed`);
}
