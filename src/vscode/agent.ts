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

/**
 * Registers what this editor supports; every returned disposable belongs to context.subscriptions. Each entry point
 * is optional: one the editor refuses (an API that changed shape between versions) is logged and skipped, and never
 * stops activation, since everything registered after it (the decision guard among them) would be lost.
 */
export function registerAgentFeatures(context: vscode.ExtensionContext, p: AgentParts): vscode.Disposable[] {
  const runs = new AgentRuns(p.deliberations, p.index, p.pickers, p.models, p.consent, p.secrets, p.log);
  const out: vscode.Disposable[] = [];
  const optional = (what: string, register: () => vscode.Disposable[]) => {
    try {
      out.push(...register());
    } catch (err) {
      p.log.error(`${what} could not be registered in VS Code ${vscode.version}; the rest of the extension works without it`, err);
    }
  };
  optional("the language-model tools", () => {
    if (typeof vscode.lm?.registerTool === "function") return [vscode.lm.registerTool(TOOL_NAME, new DeliberateTool(runs, p.log)), vscode.lm.registerTool(CHECK_TOOL_NAME, new CheckChangeTool(runs, p.log))];
    p.log.info("this editor has no language-model tool API; the deliberate tool is not available to agent mode");
    return [];
  });
  const commandExists = async (id: string) => (await vscode.commands.getCommands(true)).includes(id);
  optional("the @deliberate chat participant", () => {
    const participant = registerChatParticipant({ runs, index: p.index, receipts: p.receipts, commandExists }, context.extensionUri, p.log);
    return participant ? [participant] : [];
  });
  const version = String((context.extension?.packageJSON as { version?: unknown } | undefined)?.version ?? "");
  optional("the MCP server definition provider", () => registerMcpProvider(context.extensionUri.fsPath, version, p.log));
  return out;
}
