// What every tool handler gets (the allowed roots, the settings, the request's signal and progress) and returns
// (Markdown text plus structured content), and the errors that become a one-line `isError` result.
import { DeliberationError } from "../core/pipeline";
import type { SigningKey } from "../core/receipts/signing";
import { LockTimeoutError, PickRefusedError, ReceiptInputError, ReceiptsDirError } from "../core/receipts/store";
import type { CheckRunner } from "./checkTool";
import type { DeliberationRunner } from "./deliberateTool";
import { RootError, type AllowedRoots } from "./roots";
import type { McpLog } from "./log";

/** The server-wide settings, from `deliberate mcp`'s command line (the same flags the CLI takes). */
export interface McpSettings {
  offline: boolean;
  keepInternalLocal: boolean;
  model: { provider?: string; baseUrl?: string; model?: string };
  /** Decision sources configured on the server (`--source`, repeatable): absolute folders or git URLs. */
  sources?: string[];
  /** `--no-cache`: never answer from the turn cache (every call deliberates), as the CLI's --no-cache. */
  noTurnCache?: boolean;
  /** `--git-budget-ms`: the history search's time budget, as the CLI's flag of that name. */
  gitBudgetMs?: number;
}

export interface ToolContext {
  roots: AllowedRoots;
  settings: McpSettings;
  env: NodeJS.ProcessEnv;
  log: McpLog;
  /** The CLI's signing key (created on first use). */
  signingKey: () => SigningKey;
  /** The agent's name, from its `initialize` (for the pick history). */
  clientName: string;
  /** Aborted when the client cancels the request (or it times out on the client's side). */
  signal: AbortSignal;
  /** Set when the request carried a progress token. */
  reportProgress?: (message: string) => void;
  /** The receipts changed (a new receipt, a pick): tells the client its resource list changed. */
  receiptsChanged: () => Promise<void>;
  /** The `deliberation://<repo>/<receipt_id>` URI maker for a repository. */
  resourceUri: (repo: string) => Promise<(receiptId: string) => string>;
  /** Where `deliberate` runs the pipeline (a worker thread); in this thread when absent. */
  deliberations?: DeliberationRunner;
  /** Where `check_change` runs the guard (a worker thread); in this thread when absent. */
  checks?: CheckRunner;
}

export interface ToolResult {
  /** Markdown for the agent to read. */
  text: string;
  /** The structured content; it must pass the tool's output schema. */
  structured: Record<string, unknown>;
}

/** Bad input that the handler detected itself (beyond the input schema): one line, `isError`. */
export class ToolInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ToolInputError";
  }
}

/** Errors that mean "the input was wrong" and are shown to the agent as they are. */
export function isInputError(err: unknown): err is Error {
  return (
    err instanceof ToolInputError ||
    err instanceof RootError ||
    err instanceof ReceiptInputError ||
    err instanceof PickRefusedError ||
    err instanceof LockTimeoutError ||
    err instanceof ReceiptsDirError ||
    err instanceof DeliberationError
  );
}
