// The language-model tool `deliberativeSearch_deliberate` (#deliberate in chat, and what agent mode calls on an open
// design question). prepareInvocation asks the person first, showing the question, the folder and whether anything
// would leave the machine; invoke runs the same pipeline as the editor's commands, opens the picker beside the
// editor, and returns the receipt as Markdown with its id. Failures an agent can act on come back as a result with
// one clear line; a cancellation stops the run and writes no receipt.
import * as vscode from "vscode";
import { isCancellation } from "../core/cancel";
import { oneLine } from "../core/text";
import { describeEgressForConfirmation } from "./agentContext";
import { AgentRunRefused, type AgentRuns } from "./agentRun";
import { escapeMarkdown } from "./chatRender";
import { loadHeavyBundle } from "./loadHeavyBundle";
import type { Log } from "./log";

export const TOOL_NAME = "deliberativeSearch_deliberate";

/** The input as declared in package.json; checked with zod (agentInput.ts) before it is used. */
export interface DeliberateToolInput {
  question?: unknown;
  context?: { path?: unknown; text?: unknown };
  offline?: unknown;
  force?: unknown;
}

function textResult(text: string): vscode.LanguageModelToolResult {
  return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
}

export class DeliberateTool implements vscode.LanguageModelTool<DeliberateToolInput> {
  constructor(
    private readonly runs: AgentRuns,
    private readonly log: Log,
  ) {}

  async prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<DeliberateToolInput>): Promise<vscode.PreparedToolInvocation> {
    const input = options.input ?? {};
    const question = typeof input.question === "string" ? input.question.trim() : "";
    const path = typeof input.context?.path === "string" ? input.context.path : undefined;
    const offline = input.offline === true;
    let folder: vscode.WorkspaceFolder;
    try {
      folder = this.runs.folderFor(path);
    } catch (err) {
      // Nothing will run (Restricted Mode, no folder): no confirmation, invoke says why.
      return { invocationMessage: `Deliberative Search cannot run: ${oneLine(err)}` };
    }
    let egress: string;
    try {
      egress = describeEgressForConfirmation(await this.runs.egressFacts(folder, { offline }));
    } catch (err) {
      egress = `Could not tell what would leave the machine (${oneLine(err)}); the model consent prompt still asks before anything is sent.`;
    }
    const message = new vscode.MarkdownString(
      [
        `**Question:** ${escapeMarkdown(question || "(none)")}`,
        `**Repository:** ${escapeMarkdown(folder.name)}${offline ? " (offline)" : ""}`,
        `**Egress:** ${egress}`,
        "A signed receipt is written to the repository's receipts folder, and the option picker opens beside the editor for you to pick.",
      ].join("\n\n"),
    );
    return {
      invocationMessage: `Deliberating: ${question.slice(0, 120)}`,
      confirmationMessages: { title: "Deliberate on this design question?", message },
    };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<DeliberateToolInput>, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
    const heavy = loadHeavyBundle();
    const parsed = heavy.parseAgentToolInput(options.input);
    if (!parsed.ok) return textResult(`Invalid input for ${TOOL_NAME}: ${parsed.error}`);
    try {
      const outcome = await this.runs.run(parsed.input, () => undefined, token, { openPicker: true });
      if (outcome.kind === "abstained") {
        const c = outcome.classification;
        return textResult(
          `Not deliberated: the classifier rates this as ${c.class === "lookup" ? "a lookup, not a design question" : "too thin to call a design question"} (${c.class}, confidence ${c.confidence.toFixed(2)}: ${c.reasons.join("; ")}). ` +
            `Deliberation is for open design questions with options to weigh. To deliberate anyway, call ${TOOL_NAME} again with "force": true.`,
        );
      }
      const r = outcome.receipt;
      const header = [
        `Receipt id: ${r.receipt_id} (file ${outcome.receiptsDir}/${r.receipt_id}.json in ${outcome.folder.name})${outcome.cached ? ", from the turn cache" : ""}.`,
        "The option picker is open beside the editor: the person picks there, and the pick is signed into this receipt. Do not pick for them; follow the recommendation only if they have not picked otherwise.",
        "",
      ].join("\n");
      return textResult(header + heavy.receiptToMarkdown(r));
    } catch (err) {
      if (isCancellation(err)) throw new vscode.CancellationError();
      if (err instanceof AgentRunRefused) return textResult(`Deliberative Search cannot run: ${err.message}`);
      this.log.error("agent: the deliberate tool failed", err);
      // Bad input (a question over the limit, an unusable repository) is a DeliberationError: one line, no stack.
      if (err instanceof Error && err.name === "DeliberationError") return textResult(`Deliberation failed: ${oneLine(err)}`);
      throw new Error(`Deliberation failed: ${oneLine(err)}`);
    }
  }
}
