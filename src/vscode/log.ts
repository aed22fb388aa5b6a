// The "Deliberative Search" output channel: each stage's status and timing, and anything worth a look later.
import * as vscode from "vscode";

export class Log implements vscode.Disposable {
  private readonly channel: vscode.LogOutputChannel;

  constructor() {
    this.channel = vscode.window.createOutputChannel("Deliberative Search", { log: true });
  }

  info(message: string): void {
    this.channel.info(message);
  }

  warn(message: string): void {
    this.channel.warn(message);
  }

  error(message: string, err?: unknown): void {
    this.channel.error(err === undefined ? message : `${message}: ${errorText(err)}`);
  }

  show(): void {
    this.channel.show(true);
  }

  dispose(): void {
    this.channel.dispose();
  }
}

export function errorText(err: unknown): string {
  if (err instanceof Error) return err.stack && !(err.name === "DeliberationError") ? err.stack : err.message;
  return String(err);
}
