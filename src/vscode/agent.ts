// The agent entry points, wired at activation: the language-model tool for agent mode, the @deliberate chat
// participant and the MCP server definition provider. Registration only: each is feature-detected (an editor
// without the API gets one log line) and nothing heavy loads until one of them is used.
import * as vscode from "vscode";
import { AgentRuns } from "./agentRun";
import { DeliberateTool, TOOL_NAME } from "./agentTool";
import { registerChatParticipant } from "./chatParticipant";
import { CHECK_TOOL_NAME, CheckChangeTool } from "./guard/checkTool";
import type { ModelConsent } from "./consent";
import type { Deliberations } from "./deliberate";
import type { Log } from "./log";
import { registerMcpProvider } from "./mcpProvider";
import type { ModelChoice } from "./modelChoice";
import type { PickerPanels } from "./pickerPanel";
import type { ReceiptCommands } from "./receiptCommands";
import type { ReceiptIndex } from "./receiptIndex";
import type { Secrets } from "./secrets";

export interface AgentParts {
  deliberations: Deliberations;
  index: ReceiptIndex;
  pickers: PickerPanels;
  models: ModelChoice;
  consent: ModelConsent;
  secrets: Secrets;
  receipts: ReceiptCommands;
  log: Log;
}

/** Registers what this editor supports; every returned disposable belongs to context.subscriptions. */
export function registerAgentFeatures(context: vscode.ExtensionContext, p: AgentParts): vscode.Disposable[] {
  const runs = new AgentRuns(p.deliberations, p.index, p.pickers, p.models, p.consent, p.secrets, p.log);
  const out: vscode.Disposable[] = [];
  if (typeof vscode.lm?.registerTool === "function") out.push(vscode.lm.registerTool(TOOL_NAME, new DeliberateTool(runs, p.log)), vscode.lm.registerTool(CHECK_TOOL_NAME, new CheckChangeTool(runs, p.log)));
  else p.log.info("this editor has no language-model tool API; the deliberate tool is not available to agent mode");
  const commandExists = async (id: string) => (await vscode.commands.getCommands(true)).includes(id);
  const participant = registerChatParticipant({ runs, index: p.index, receipts: p.receipts, commandExists }, context.extensionUri, p.log);
  if (participant) out.push(participant);
  const version = String((context.extension?.packageJSON as { version?: unknown } | undefined)?.version ?? "");
  out.push(...registerMcpProvider(context.extensionUri.fsPath, version, p.log));
  return out;
}
