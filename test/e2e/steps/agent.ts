// What an agent sees in a real VS Code: a test-only helper extension (test/e2e/agentProbe, packaged here and
// installed next to the extension under test; never in the shipped .vsix) reads vscode.lm.tools and the contributed
// chat participant and MCP provider, then calls vscode.lm.invokeTool on the deliberate tool. Outside a chat the
// editor confirms a tool call with a modal dialog: it must show the question and that nothing leaves the machine
// (the call is offline). The call writes a signed receipt and opens the picker beside the editor.
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { verifyReceiptSignature } from "../../../src/core/receipts/signing";
import { CS_ENTRY, ROOT, VSIX, assert, log, need, pickerFrame, reloadWindow, runCommand, screenshot, waitUntil, type E2EContext, type Step } from "../workbench";

const TOOL = "deliberativeSearch_deliberate";
const PARTICIPANT = "deliberativeSearch.deliberate";
const AGENT_Q = "Should we keep the cart state in Zustand or move it to Redux Toolkit?";

interface ProbeReport {
  phase: "listed" | "invoked";
  vscodeVersion: string;
  apis: { lmTools: boolean; invokeTool: boolean; chatParticipants: boolean; mcpServerDefinitionProviders: boolean };
  tools: Array<{ name: string; tags: string[]; hasSchema: boolean }>;
  contributed: { languageModelTools: string[]; chatParticipants: Array<{ id: string; name: string; commands: string[]; disambiguation: boolean }>; mcpServerDefinitionProviders: string[] };
  result?: string;
  error?: string;
  ms?: number;
}

const probeFile = (ctx: E2EContext) => join(need(ctx.ws, "the sample workspace"), ".agent-probe.json");

function readProbe(ctx: E2EContext): ProbeReport | undefined {
  try {
    return JSON.parse(readFileSync(probeFile(ctx), "utf8")) as ProbeReport;
  } catch {
    return undefined;
  }
}

async function installProbe(ctx: E2EContext): Promise<void> {
  const shipped = readFileSync(VSIX);
  assert(!shipped.includes("agentProbe") && !shipped.includes("agent-probe"), "the shipped .vsix contains the test-only probe");
  const dir = join(ctx.dirs.tmp, "agent-probe");
  cpSync(join(ROOT, "test", "e2e", "agentProbe"), dir, { recursive: true });
  const vsix = join(dir, "agent-probe.vsix");
  execFileSync(join(ROOT, "node_modules", ".bin", "vsce"), ["package", "--no-dependencies", "--skip-license", "--allow-missing-repository", "--out", vsix], { cwd: dir, stdio: ["ignore", "ignore", "inherit"] });
  const out = execFileSync("node", [CS_ENTRY, ...ctx.codeServerDirs, "--install-extension", vsix], { env: ctx.env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  assert(/successfully installed|already installed/i.test(out), `probe install said: ${out}`);
  // A fresh window loads the newly installed extension.
  const page = need(ctx.page, "the workbench page");
  await reloadWindow(page);
}

async function listTools(ctx: E2EContext): Promise<void> {
  const page = need(ctx.page, "the workbench page");
  const ws = need(ctx.ws, "the sample workspace");
  writeFileSync(join(ws, ".agent-probe-input.json"), JSON.stringify({ question: AGENT_Q, context: { path: join(ws, "src", "orders.ts") }, offline: true }));
  await runCommand(page, "Deliberative Search E2E: Probe Agent");
  await waitUntil("the probe's report", () => !!readProbe(ctx), 30_000);
  const r = readProbe(ctx)!;
  log(`     VS Code ${r.vscodeVersion}; APIs: lm.tools ${r.apis.lmTools}, invokeTool ${r.apis.invokeTool}, chat participants ${r.apis.chatParticipants}, MCP providers ${r.apis.mcpServerDefinitionProviders}`);
  assert(r.apis.lmTools && r.apis.invokeTool, `this editor has no vscode.lm tools API: ${JSON.stringify(r.apis)}`);
  const tool = r.tools.find((t) => t.name === TOOL);
  assert(tool, `vscode.lm.tools has no ${TOOL}; it lists ${r.tools.map((t) => t.name).join(", ") || "nothing"}`);
  assert(tool.hasSchema, "the tool has no input schema");
  assert(r.contributed.languageModelTools.includes(TOOL), "the tool is not contributed");
  const participant = r.contributed.chatParticipants.find((p) => p.id === PARTICIPANT);
  assert(participant && participant.name === "deliberate", `@deliberate is not contributed: ${JSON.stringify(r.contributed.chatParticipants)}`);
  for (const c of ["ask", "receipts", "verify"]) assert(participant.commands.includes(c), `@deliberate has no /${c}`);
  assert(participant.disambiguation, "@deliberate has no disambiguation metadata");
  assert(r.contributed.mcpServerDefinitionProviders.includes("deliberativeSearch.mcpServers"), "the MCP provider is not contributed");
  log(`     ${r.tools.length} tool(s) in vscode.lm.tools; @deliberate contributed with /${participant.commands.join(", /")}`);
}

async function confirmInvocation(ctx: E2EContext): Promise<void> {
  const page = need(ctx.page, "the workbench page");
  const dialog = page.locator(".monaco-dialog-box");
  await dialog.waitFor({ state: "visible", timeout: 30_000 });
  const text = ((await dialog.textContent()) ?? "").replace(/\s+/g, " ");
  assert(text.includes("Deliberate on this design question?"), `dialog: ${text.slice(0, 300)}`);
  assert(text.includes(AGENT_Q), `the confirmation does not show the question: ${text.slice(0, 400)}`);
  assert(/Nothing leaves the machine/.test(text), `the confirmation does not say nothing leaves the machine: ${text.slice(0, 600)}`);
  await screenshot(page, "agent-confirmation.png");
  // The editor's confirm dialog: "Yes" runs the tool, "Cancel" refuses it.
  await dialog.locator(".dialog-buttons .monaco-button", { hasText: /^\s*Yes\s*$/ }).first().click();
}

async function receiptAndPicker(ctx: E2EContext): Promise<void> {
  const page = need(ctx.page, "the workbench page");
  const ws = need(ctx.ws, "the sample workspace");
  await waitUntil("the tool's result", () => readProbe(ctx)?.phase === "invoked", 60_000);
  const r = readProbe(ctx)!;
  assert(!r.error, `invokeTool failed: ${r.error}`);
  const id = /Receipt id: (\S+)/.exec(r.result ?? "")?.[1];
  assert(id, `no receipt id in the result: ${(r.result ?? "").slice(0, 300)}`);
  assert((r.result ?? "").includes(`# ${AGENT_Q}`), "the result carries the Markdown rendering");
  const file = join(ws, ".deliberations", `${id}.json`);
  assert(existsSync(file), `no receipt at ${file}`);
  const raw = JSON.parse(readFileSync(file, "utf8")) as { question: string; context?: { file?: string }; synthesis: { mode: string } };
  assert(raw.question === AGENT_Q, `receipt question: ${raw.question}`);
  assert(verifyReceiptSignature(raw).ok, "the receipt's signature does not verify");
  assert(raw.context?.file === "src/orders.ts", `the receipt's context file: ${raw.context?.file}`);
  assert(raw.synthesis.mode === "rules", `offline: the rules synthesizer answers, not ${raw.synthesis.mode}`);
  const frame = pickerFrame(page);
  await frame.locator("#question", { hasText: AGENT_Q }).waitFor({ state: "visible", timeout: 20_000 });
  log(`     receipt ${id} in ${r.ms} ms; the picker shows it`);
  await screenshot(page, "agent-picker.png");
}

/**
 * The chat view, where the workbench offers one: "@deliberate /receipts" sent through workbench.action.chat.open must
 * answer with the receipt just written. Without a chat UI (or when the chat asks to be set up first and sends
 * nothing), the step says exactly what it saw; the extension-host suite covers the handler with a fake stream.
 */
async function chatView(ctx: E2EContext): Promise<void> {
  const page = need(ctx.page, "the workbench page");
  const file = join(need(ctx.ws, "the sample workspace"), ".agent-chat.json");
  await runCommand(page, "Deliberative Search E2E: Ask @deliberate in Chat");
  await waitUntil("the chat probe's report", () => existsSync(file), 30_000);
  const r = JSON.parse(readFileSync(file, "utf8")) as { openCommand: boolean; opened?: boolean; error?: string };
  const session = page.locator(".interactive-session").first();
  const shown = r.opened ? await session.waitFor({ state: "visible", timeout: 10_000 }).then(() => true, () => false) : false;
  if (!shown) {
    log(`     no chat UI in this workbench: workbench.action.chat.open ${r.openCommand ? "exists" : "is missing"}, ${r.opened ? "ran without error" : `failed (${r.error})`}, no chat view rendered`);
    return;
  }
  const request = page.locator(".interactive-session .interactive-request").first();
  const sent = await request.waitFor({ state: "visible", timeout: 10_000 }).then(() => true, () => false);
  if (!sent) {
    const text = ((await session.textContent()) ?? "").replace(/\s+/g, " ").slice(0, 300);
    await screenshot(page, "agent-chat.png");
    log(`     the chat view opened but sent no request (no chat model or setup in this workbench); it shows: ${text}`);
    return;
  }
  const response = page.locator(".interactive-session .interactive-response", { hasText: AGENT_Q }).first();
  await response.waitFor({ state: "visible", timeout: 30_000 });
  await screenshot(page, "agent-chat.png");
  log("     @deliberate /receipts answered in the chat view with the receipt's question");
}

export const agentSteps: Step[] = [
  { name: "install the test-only agent probe extension (not in the shipped .vsix)", run: installProbe },
  { name: "vscode.lm.tools lists the deliberate tool; @deliberate and the MCP provider are contributed", run: listTools },
  { name: "vscode.lm.invokeTool asks first: the question, and nothing leaves the machine", run: confirmInvocation },
  { name: "the tool writes a signed receipt, returns its Markdown with the id, and opens the picker", run: receiptAndPicker },
  { name: "the chat view: @deliberate /receipts answers, where the workbench offers chat", run: chatView },
];
