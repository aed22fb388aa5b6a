// Offers the bundled MCP server (dist/mcpServer.js) to agent mode through an MCP server definition provider: one stdio
// server run by the editor's own Node (process.execPath with ELECTRON_RUN_AS_NODE=1), deliberating in every
// workspace folder (`--repo` each). The API arrived in VS Code 1.101 while `engines.vscode` stays ^1.100.0, so it is
// declared here and feature-detected: where it is missing, one log line and nothing else.
import { existsSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import { mcpServerSpec } from "./agentContext";

export const MCP_PROVIDER_ID = "deliberativeSearch.mcpServers";

/** The slice of VS Code ≥ 1.101's MCP API this uses (not in @types/vscode 1.100). */
interface McpStdioServerDefinitionCtor {
  new (label: string, command: string, args?: string[], env?: Record<string, string | number | null>, version?: string): { cwd?: vscode.Uri };
}
interface McpServerDefinitionProvider {
  readonly onDidChangeMcpServerDefinitions?: vscode.Event<void>;
  provideMcpServerDefinitions(token: vscode.CancellationToken): vscode.ProviderResult<unknown[]>;
}
interface McpApi {
  registerMcpServerDefinitionProvider?: (id: string, provider: McpServerDefinitionProvider) => vscode.Disposable;
}

/** Registers the provider where the editor has the API; returns what to dispose, or nothing. */
export function registerMcpProvider(extensionPath: string, version: string, log: { info(m: string): void; warn(m: string): void }): vscode.Disposable[] {
  const lm = (vscode as unknown as { lm?: McpApi }).lm;
  const Definition = (vscode as unknown as { McpStdioServerDefinition?: McpStdioServerDefinitionCtor }).McpStdioServerDefinition;
  if (typeof lm?.registerMcpServerDefinitionProvider !== "function" || typeof Definition !== "function") {
    log.info(`VS Code ${vscode.version} has no MCP server definition API; the bundled MCP server is not offered to agent mode (add it to .vscode/mcp.json instead)`);
    return [];
  }
  const changed = new vscode.EventEmitter<void>();
  const serverFile = join(extensionPath, "dist", "mcpServer.js");
  let warned = false;
  const provider: McpServerDefinitionProvider = {
    onDidChangeMcpServerDefinitions: changed.event,
    provideMcpServerDefinitions: () => {
      const spec = mcpServerSpec({
        extensionPath,
        execPath: process.execPath,
        folders: (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === "file").map((f) => f.uri.fsPath),
        trusted: vscode.workspace.isTrusted,
        serverExists: existsSync(serverFile),
      });
      if (!existsSync(serverFile) && !warned) {
        warned = true;
        log.warn(`the MCP server bundle ${serverFile} is missing; no MCP server is offered`);
      }
      if (!spec) return [];
      const def = new Definition(spec.label, spec.command, spec.args, spec.env, version);
      if (spec.cwd) def.cwd = vscode.Uri.file(spec.cwd);
      return [def];
    },
  };
  let registration: vscode.Disposable;
  try {
    registration = lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, provider);
  } catch (err) {
    // VS Code 1.100 has the API but looks the provider up under its older contribution point
    // (modelContextServerCollections); any editor that refuses the registration must not stop activation.
    changed.dispose();
    log.warn(`VS Code ${vscode.version} refused the MCP server definition provider, so the bundled MCP server is not offered to agent mode (add it to .vscode/mcp.json instead): ${err instanceof Error ? err.message : String(err)}`);
    return [];
  }
  return [
    changed,
    registration,
    vscode.workspace.onDidChangeWorkspaceFolders(() => changed.fire()),
    vscode.workspace.onDidGrantWorkspaceTrust(() => changed.fire()),
  ];
}
