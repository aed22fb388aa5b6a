// The tool table: name, description, zod input and output schemas, annotations and handler. The server publishes
// the schemas as JSON Schema and validates both directions with zod itself, so a bad argument is a one-line
// `isError` result written for the agent (the SDK's high-level McpServer would answer with its own multi-line
// message) and a result that breaks its own contract never leaves the server.
import type { z } from "zod";
import { checkChangeTool } from "./checkTool";
import { deliberateTool } from "./deliberateTool";
import { getReceiptTool, listReceiptsTool, recordPickTool, verifyReceiptsTool } from "./receiptTools";
import type { ToolContext, ToolResult } from "./toolResult";
import {
  CheckChangeInput,
  CheckChangeOutput,
  DeliberateInput,
  DeliberateOutput,
  GetReceiptInput,
  GetReceiptOutput,
  ListReceiptsInput,
  ListReceiptsOutput,
  RecordPickInput,
  RecordPickOutput,
  VerifyReceiptsInput,
  VerifyReceiptsOutput,
} from "./toolSchemas";

export interface ToolSpec {
  name: string;
  title: string;
  description: string;
  input: z.ZodType;
  output: z.ZodType;
  annotations: { readOnlyHint?: boolean; destructiveHint?: boolean; idempotentHint?: boolean; openWorldHint?: boolean };
  run: (args: never, ctx: ToolContext) => Promise<ToolResult>;
}

function tool<I extends z.ZodType>(spec: Omit<ToolSpec, "run" | "input"> & { input: I; run: (args: z.infer<I>, ctx: ToolContext) => Promise<ToolResult> }): ToolSpec {
  return spec as ToolSpec;
}

export const TOOLS: ToolSpec[] = [
  tool({
    name: "deliberate",
    title: "Deliberate on a design question",
    description:
      "Weighs an open design question (\"should we use X or Y here?\") against the repository's ADRs, conventions (AGENTS.md, architecture docs) and git history, " +
      "and returns options with tradeoffs, a recommendation and citations to files and lines, recorded in a signed receipt. Call it before writing code that " +
      "makes or could contradict a design decision; then record the choice with record_pick. If the question is not an open design question the result says so; " +
      "pass force: true to deliberate anyway.",
    input: DeliberateInput,
    output: DeliberateOutput,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    run: deliberateTool,
  }),
  tool({
    name: "record_pick",
    title: "Record the chosen option",
    description:
      "Records which option of a deliberation was chosen (picked_by \"agent\"), with an optional reason, and re-signs the receipt. Every pick is kept in the receipt's history.",
    input: RecordPickInput,
    output: RecordPickOutput,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    run: recordPickTool,
  }),
  tool({
    name: "get_receipt",
    title: "Read a deliberation receipt",
    description: "Returns a receipt (JSON) and its Markdown rendering as it is on disk now, including the latest pick (a person may have picked in the editor meanwhile).",
    input: GetReceiptInput,
    output: GetReceiptOutput,
    annotations: { readOnlyHint: true, openWorldHint: false },
    run: getReceiptTool,
  }),
  tool({
    name: "list_receipts",
    title: "List deliberation receipts",
    description: "Lists the repository's deliberation receipts, newest first: question, recommendation, pick state and resource URI.",
    input: ListReceiptsInput,
    output: ListReceiptsOutput,
    annotations: { readOnlyHint: true, openWorldHint: false },
    run: listReceiptsTool,
  }),
  tool({
    name: "verify_receipts",
    title: "Verify deliberation receipts",
    description:
      "Checks every receipt like `deliberate verify`: the Ed25519 signature, whether the signer is trusted (your key or the repository's allowed_signers), that the evidence files are intact, and which citations no longer resolve.",
    input: VerifyReceiptsInput,
    output: VerifyReceiptsOutput,
    annotations: { readOnlyHint: true, openWorldHint: false },
    run: verifyReceiptsTool,
  }),
  tool({
    name: "check_change",
    title: "Check a change against recorded decisions",
    description:
      "Checks a change (unified diff text, or the working tree against a base ref or HEAD) against the repository's in-force decisions: ADRs' rejected and chosen options, " +
      "AGENTS.md/CLAUDE.md rules (\"do not use X\") and picked deliberations. Returns each likely conflict (introduces-rejected-option, removes-chosen-option, breaks-rule, " +
      "touches-decided-area) with severity and the decision's path, lines and status. Call it on your own diff before proposing it; on a conflict, change course or call deliberate.",
    input: CheckChangeInput,
    output: CheckChangeOutput,
    annotations: { readOnlyHint: true, openWorldHint: false },
    run: checkChangeTool,
  }),
];
