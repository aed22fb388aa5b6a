// The language-model tool `deliberativeSearch_checkChange` (#checkChange in chat, and what agent mode calls on its own
// diff before proposing it) and `@deliberate /check`: the decision guard (core/guard/) on a unified diff, or on the
// working tree against a base ref or HEAD. Both answer with the same Markdown (findings.ts reportMarkdown); the tool
// adds the JSON report. Read-only: it runs git and reads the repository, so never in an untrusted workspace.
import * as vscode from "vscode";
import { isCancellation } from "../../core/cancel";
import type { GuardReport } from "../../core/guard/schema";
import { oneLine } from "../../core/text";
import { AgentRunRefused, type AgentRuns } from "../agentRun";
import { loadHeavyBundle } from "../loadHeavyBundle";
import type { Log } from "../log";
import { reportMarkdown } from "./findings";

export const CHECK_TOOL_NAME = "deliberativeSearch_checkChange";
const MAX_DIFF_CHARS = 10 * 1024 * 1024;

export interface CheckToolInput {
  diff?: unknown;
  base?: unknown;
  path?: unknown;
}

/** Runs the guard in the folder an agent or the chat works in; bad input comes back as an Error with one line. */
export async function runGuard(runs: AgentRuns, input: { diff?: string; base?: string; path?: string }, signal: AbortSignal): Promise<{ folder: vscode.WorkspaceFolder; report: GuardReport }> {
  const folder = runs.folderFor(input.path);
  if (input.diff !== undefined && input.base !== undefined) throw new AgentRunRefused("give diff or base, not both");
  const { checkChange, hostCorpusCache } = loadHeavyBundle();
  const source = input.diff !== undefined ? { kind: "text" as const, diff: input.diff } : input.base ? { kind: "ref" as const, ref: input.base } : { kind: "worktree" as const };
  try {
    const ownPublicKeyPem = await runs.ownPublicKeyPem();
    return { folder, report: await checkChange(folder.uri.fsPath, source, { signal, cache: hostCorpusCache(process.env), ownPublicKeyPem }) };
  } catch (err) {
    if (err instanceof Error && (err.name === "UnsafeRepositoryError" || err.name === "ChangeInputError")) throw new AgentRunRefused(oneLine(err));
    throw err;
  }
}

function textResult(text: string): vscode.LanguageModelToolResult {
  return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
}

export class CheckChangeTool implements vscode.LanguageModelTool<CheckToolInput> {
  constructor(
    private readonly runs: AgentRuns,
    private readonly log: Log,
  ) {}

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<CheckToolInput>): vscode.PreparedToolInvocation {
    const base = typeof options.input?.base === "string" ? options.input.base : undefined;
    return { invocationMessage: typeof options.input?.diff === "string" ? "Checking the diff against recorded decisions" : `Checking the working tree${base ? ` since ${base}` : ""} against recorded decisions` };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<CheckToolInput>, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
    const i = options.input ?? {};
    const bad = (what: string) => textResult(`Invalid input for ${CHECK_TOOL_NAME}: ${what}`);
    if (i.diff !== undefined && (typeof i.diff !== "string" || i.diff.length > MAX_DIFF_CHARS)) return bad(`diff must be unified diff text of at most ${MAX_DIFF_CHARS} characters`);
    if (i.base !== undefined && (typeof i.base !== "string" || !i.base || i.base.length > 250)) return bad("base must be a git ref such as origin/main");
    if (i.path !== undefined && typeof i.path !== "string") return bad("path must be a file path");
    const controller = new AbortController();
    const sub = token.onCancellationRequested(() => controller.abort());
    try {
      const { report } = await runGuard(this.runs, { diff: i.diff as string | undefined, base: i.base as string | undefined, path: i.path as string | undefined }, controller.signal);
      return textResult(`${reportMarkdown(report)}\nJSON report:\n${JSON.stringify(report)}`);
    } catch (err) {
      if (isCancellation(err) || controller.signal.aborted) throw new vscode.CancellationError();
      if (err instanceof AgentRunRefused) return textResult(`Deliberative Search cannot check: ${err.message}`);
      this.log.error("agent: the check_change tool failed", err);
      throw new Error(`Check failed: ${oneLine(err)}`);
    } finally {
      sub.dispose();
    }
  }
}
