// The MCP tools' contracts: zod input schemas (strict: a misspelt argument is refused, not ignored) and output
// schemas built from core's own (OptionPicker, Receipt, ranked rows), so `structuredContent` is exactly what the
// CLI's --json prints and what receipts store.
import { z } from "zod";
import { MAX_PICK_REASON } from "../core/receipts/store";
import { ClassificationSchema, OptionPickerSchema, RankedEvidenceRowSchema, ReceiptSchema } from "../core/schemas";
import { GuardReportSchema } from "../core/guard/schema";

const RECEIPT_ID = /^[A-Za-z0-9_-]{6,80}$/;

const repoArg = z
  .string()
  .min(1)
  .max(4096)
  .optional()
  .describe("Repository folder (absolute, or relative to the first allowed root). Default: the folder holding context.path, else the first allowed root.");
const receiptIdArg = z.string().regex(RECEIPT_ID, "expected a receipt id such as 20260101-120000Z-1a2b3c4d").describe("The receipt id (the deliberate result names it).");

export const DeliberateInput = z.strictObject({
  question: z.string().min(1, "the question is empty").max(4096).describe("The open design question, e.g. \"Should we store orders in MongoDB or PostgreSQL?\""),
  repo: repoArg,
  shape: z
    .enum(["option-picker", "ranked-evidence"])
    .optional()
    .describe("option-picker (default): options, recommendation and citations, with a signed receipt. ranked-evidence: the fused evidence rows only."),
  offline: z.boolean().optional().describe("Only local evidence; no model and no web, even when configured."),
  force: z.boolean().optional().describe("Deliberate even when the classifier says this is not an open design question."),
  critic: z.boolean().optional().describe("Also run the model Critic (one more model call, when a model is configured); the rules Critic always runs."),
  context: z
    .strictObject({
      path: z.string().min(1).max(4096).describe("The file the question is about (inside the repository)."),
      text: z.string().max(20_000).optional().describe("The code or text around the question (about 20 lines)."),
      line: z.number().int().min(1).optional().describe("The 1-based line of the question in that file."),
    })
    .optional()
    .describe("Where the question came from."),
});

export const RecordPickInput = z.strictObject({
  receipt_id: receiptIdArg,
  option_id: z.string().min(1).max(200).describe("The id of the option picked (one of the receipt's options)."),
  reason: z.string().max(MAX_PICK_REASON).optional().describe("Why this option, in a sentence."),
  repo: repoArg,
});

export const GetReceiptInput = z.strictObject({ receipt_id: receiptIdArg, repo: repoArg });
export const ListReceiptsInput = z.strictObject({ repo: repoArg });
export const VerifyReceiptsInput = z.strictObject({
  repo: repoArg,
  allow_untrusted: z.boolean().optional().describe("Count receipts by untrusted signers and legacy receipts as passing (still reported)."),
});

export const CheckChangeInput = z.strictObject({
  repo: repoArg,
  diff: z
    .string()
    .max(10 * 1024 * 1024)
    .optional()
    .describe("The change as unified diff text (`git diff` output). Checked up to 20,000 lines; the result says when it was cut."),
  base: z.string().min(1).max(250).optional().describe("A git ref: check what the working tree changed since it left this ref (e.g. origin/main). Without diff and base: the working tree against HEAD."),
});
/** check_change's structuredContent: exactly `deliberate check --json`. */
export const CheckChangeOutput = GuardReportSchema;

/** The classifier did not call the question an open design question: a normal result that offers `force`. */
export const AbstainedSchema = z.object({
  abstained: z.literal(true),
  question: z.string(),
  classification: ClassificationSchema,
  hint: z.string(),
});

export const RankedEvidenceSchema = z.object({ rows: z.array(RankedEvidenceRowSchema) });

/** `deliberate`'s structuredContent: the OptionPicker payload, the ranked evidence, or an abstention. */
export const DeliberateOutput = z.union([OptionPickerSchema, RankedEvidenceSchema, AbstainedSchema]);

export const RecordPickOutput = z.object({
  receipt_id: z.string(),
  option_id: z.string(),
  option_title: z.string(),
  picked_by: z.literal("agent"),
  who: z.string(),
  overrode_recommendation: z.boolean(),
  at: z.string(),
  picks: z.number().int().min(1).describe("How many picks the receipt's history holds now."),
});

/** Whether a receipt can be relied on (core/receipts/readerTrust.ts): anything but "valid" makes its pick a claim. */
export const ReceiptVerificationSchema = z.object({
  state: z.enum(["valid", "signature invalid", "untrusted signer", "evidence changed", "legacy", "corrupt"]),
  trusted: z.boolean(),
  signer: z.string().optional(),
  key_id: z.string().optional(),
  reason: z.string().optional(),
  minted_by: z.object({ state: z.enum(["valid", "signature invalid", "untrusted signer"]), signer: z.string().optional(), key_id: z.string().optional() }).optional(),
  summary: z.string(),
});

export const GetReceiptOutput = z.object({ receipt: ReceiptSchema, verification: ReceiptVerificationSchema });

export const ReceiptRowSchema = z.object({
  receipt_id: z.string(),
  /** "unverified": the receipt does not verify (see verification); its pick is only claimed (claimed_pick). */
  state: z.enum(["pending", "picked", "overridden", "unverified", "corrupt"]),
  created_at: z.string().optional(),
  question: z.string().optional(),
  recommendation: z.string().optional(),
  pick: z.string().nullable().optional(),
  picked_by: z.enum(["operator", "agent"]).optional(),
  /** An unverified receipt's pick, as it claims it. */
  claimed_pick: z.string().nullable().optional(),
  uri: z.string().optional(),
  error: z.string().optional(),
  verification: ReceiptVerificationSchema,
});
export const ListReceiptsOutput = z.object({ repo: z.string(), receipts: z.array(ReceiptRowSchema) });

export const VerificationRowSchema = z.object({
  receipt_id: z.string(),
  ok: z.boolean(),
  label: z.string(),
  signature: z.enum(["valid", "invalid", "corrupt"]),
  trust: z.string().optional(),
  signer: z.string().optional(),
  evidence: z.string(),
  unresolved: z.array(z.string()),
  summary: z.string(),
});
export const VerifyReceiptsOutput = z.object({
  repo: z.string(),
  valid: z.number().int(),
  failed: z.number().int(),
  /** Misnamed copies of receipts (not `<receipt_id>.json`): never used; one receipt counts once. */
  ignored: z.number().int(),
  results: z.array(VerificationRowSchema),
});

/**
 * The JSON Schema a tool publishes. MCP wants an object schema at the root (`type: "object"`); a union (the
 * deliberate result) becomes an object schema whose `anyOf` lists the alternatives.
 */
export function toolJsonSchema(schema: z.ZodType, io: "input" | "output"): { type: "object"; [k: string]: unknown } {
  const { $schema: _drop, ...json } = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as Record<string, unknown>;
  return json.type === "object" ? (json as { type: "object" }) : { type: "object", ...json };
}
