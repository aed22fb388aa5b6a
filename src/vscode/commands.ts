// Command registration in one place: every command reports its failure the same way (log + one-line error with
// "Show Log"), and a command that reads the workspace declares `requiresTrust` instead of checking by hand. In
// Restricted Mode such a command explains why it does nothing, and does nothing.
import * as vscode from "vscode";
import { oneLine } from "../core/text";
import { SECTION, UNTRUSTED_MESSAGE } from "./constants";
import type { Log } from "./log";

export interface CommandOptions {
  /** The command reads the repository or runs git: disabled, with an explanation, in an untrusted workspace. */
  requiresTrust?: boolean;
}

export type CommandHandler = (...args: unknown[]) => unknown;

/** True when the workspace is trusted; otherwise explains why not (with "Manage Workspace Trust") and returns false. */
export function workspaceTrusted(): boolean {
  if (vscode.workspace.isTrusted) return true;
  void vscode.window.showWarningMessage(UNTRUSTED_MESSAGE, "Manage Workspace Trust").then((choice) => {
    if (choice) void vscode.commands.executeCommand("workbench.trust.manage");
  });
  return false;
}

/** Registers `deliberativeSearch.<id>`. */
export function registerCommand(log: Log, id: string, handler: CommandHandler, opts: CommandOptions = {}): vscode.Disposable {
  return vscode.commands.registerCommand(`${SECTION}.${id}`, async (...args: unknown[]) => {
    if (opts.requiresTrust && !workspaceTrusted()) return;
    try {
      await handler(...args);
    } catch (err) {
      log.error(`command ${id} failed`, err);
      const choice = await vscode.window.showErrorMessage(`Deliberative Search: ${oneLine(err)}`, "Show Log");
      if (choice) log.show();
    }
  });
}
