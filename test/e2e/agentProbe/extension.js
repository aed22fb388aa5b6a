// Test-only helper extension for test/e2e/steps/agent.ts (never in the .vsix: .vscodeignore ships dist/* only).
// "Deliberative Search E2E: Probe Agent" reports, into <workspace>/.agent-probe.json, what an agent sees of
// Deliberative Search through the editor's own APIs: vscode.lm.tools, the contributed chat participant and MCP
// provider, which APIs this editor has, and then the result of vscode.lm.invokeTool on the deliberate tool.
"use strict";
const vscode = require("vscode");
const fs = require("node:fs");
const path = require("node:path");

const EXTENSION_ID = "deliberative-search.deliberative-search";
const TOOL = "deliberativeSearch_deliberate";

function write(file, report) {
  fs.writeFileSync(`${file}.tmp`, JSON.stringify(report, null, 2));
  fs.renameSync(`${file}.tmp`, file);
}

async function probe() {
  const folder = vscode.workspace.workspaceFolders && vscode.workspace.workspaceFolders[0];
  if (!folder) throw new Error("the probe needs a workspace folder");
  const file = path.join(folder.uri.fsPath, ".agent-probe.json");
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  const contributes = (ext && ext.packageJSON.contributes) || {};
  const lm = vscode.lm || {};
  const report = {
    phase: "listed",
    vscodeVersion: vscode.version,
    apis: {
      lmTools: Array.isArray(lm.tools),
      invokeTool: typeof lm.invokeTool === "function",
      chatParticipants: typeof (vscode.chat && vscode.chat.createChatParticipant) === "function",
      mcpServerDefinitionProviders: typeof lm.registerMcpServerDefinitionProvider === "function",
    },
    tools: (lm.tools || []).map((t) => ({ name: t.name, tags: t.tags, hasSchema: !!t.inputSchema })),
    contributed: {
      languageModelTools: (contributes.languageModelTools || []).map((t) => t.name),
      chatParticipants: (contributes.chatParticipants || []).map((p) => ({ id: p.id, name: p.name, commands: (p.commands || []).map((c) => c.name), disambiguation: !!p.disambiguation })),
      mcpServerDefinitionProviders: (contributes.mcpServerDefinitionProviders || []).map((p) => p.id),
    },
    extensionActive: !!(ext && ext.isActive),
  };
  write(file, report);
  const input = JSON.parse(fs.readFileSync(path.join(folder.uri.fsPath, ".agent-probe-input.json"), "utf8"));
  const started = Date.now();
  try {
    const result = await vscode.lm.invokeTool(TOOL, { input, toolInvocationToken: undefined }, new vscode.CancellationTokenSource().token);
    report.result = result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : `[${p.constructor && p.constructor.name}]`)).join("");
  } catch (err) {
    report.error = String((err && err.message) || err);
  }
  report.ms = Date.now() - started;
  report.phase = "invoked";
  write(file, report);
}

/** Sends "@deliberate /receipts" through the chat view; records whether the editor could open it. */
async function askChat() {
  const folder = vscode.workspace.workspaceFolders[0];
  const file = path.join(folder.uri.fsPath, ".agent-chat.json");
  const commands = await vscode.commands.getCommands(true);
  const report = { openCommand: commands.includes("workbench.action.chat.open") };
  try {
    await vscode.commands.executeCommand("workbench.action.chat.open", { query: "@deliberate /receipts" });
    report.opened = true;
  } catch (err) {
    report.error = String((err && err.message) || err);
  }
  write(file, report);
}

exports.activate = (context) => {
  context.subscriptions.push(
    vscode.commands.registerCommand("deliberativeSearchE2E.probeAgent", () =>
      probe().catch((err) => vscode.window.showErrorMessage(`agent probe failed: ${err && err.message}`)),
    ),
    vscode.commands.registerCommand("deliberativeSearchE2E.askChat", () =>
      askChat().catch((err) => vscode.window.showErrorMessage(`chat probe failed: ${err && err.message}`)),
    ),
  );
};
exports.deactivate = () => {};
