// The receipt tools: record_pick (an agent's pick, signed like the operator's), get_receipt, list_receipts and
// verify_receipts (the same checks as `deliberate verify`). Receipts are read from disk on every call, so a pick a
// person made in the editor meanwhile is what the agent sees next.
import type { z } from "zod";
import { defaultKeyDir, loadKeyFileIfExists } from "../core/receipts/signing";
import { listReceipts, readReceipt, recordPick, verifyAll, type ReceiptVerification } from "../core/receipts/store";
import { pickerMarkdown } from "./deliberateTool";
import type { ToolContext, ToolResult } from "./toolResult";
import type { GetReceiptInput, ListReceiptsInput, RecordPickInput, VerifyReceiptsInput } from "./toolSchemas";

export async function recordPickTool(args: z.infer<typeof RecordPickInput>, ctx: ToolContext): Promise<ToolResult> {
  const repo = await ctx.roots.resolveRepo(args.repo);
  const receipt = await recordPick(repo, args.receipt_id, { option_id: args.option_id, reason: args.reason }, ctx.signingKey(), undefined, {
    who: ctx.clientName,
    pickedBy: "agent",
  });
  await ctx.receiptsChanged();
  const last = receipt.picks![receipt.picks!.length - 1];
  const title = receipt.payload.options.find((o) => o.id === last.option_id)?.title ?? last.option_id;
  const overrode = last.overrode_recommendation ? " (overrides the recommendation)" : "";
  return {
    text: `Recorded the agent's pick \`${last.option_id}\` (${title})${overrode} on receipt \`${receipt.receipt_id}\`; pick ${receipt.picks!.length} in its history; receipt re-signed (${last.key_id}).`,
    structured: {
      receipt_id: receipt.receipt_id,
      option_id: last.option_id,
      option_title: title,
      picked_by: "agent",
      who: last.who,
      overrode_recommendation: last.overrode_recommendation,
      at: last.at,
      picks: receipt.picks!.length,
    },
  };
}

export async function getReceiptTool(args: z.infer<typeof GetReceiptInput>, ctx: ToolContext): Promise<ToolResult> {
  const repo = await ctx.roots.resolveRepo(args.repo);
  const receipt = await readReceipt(repo, args.receipt_id);
  const uri = (await ctx.resourceUri(repo))(receipt.receipt_id);
  const last = receipt.picks?.at(-1);
  const status = receipt.operator_pick
    ? `Picked \`${receipt.operator_pick.option_id}\` by ${last?.picked_by === "agent" ? "an agent" : "the operator"}${last?.who ? ` (${last.who})` : ""} at ${receipt.operator_pick.at}.`
    : "No pick recorded yet.";
  return { text: `${status}\n\n${pickerMarkdown(receipt, uri)}`, structured: { receipt } };
}

export async function listReceiptsTool(args: z.infer<typeof ListReceiptsInput>, ctx: ToolContext): Promise<ToolResult> {
  const repo = await ctx.roots.resolveRepo(args.repo);
  const uriOf = await ctx.resourceUri(repo);
  const rows = (await listReceipts(repo)).map((e) => {
    if (e.state === "corrupt") return { receipt_id: e.receipt_id, state: "corrupt" as const, error: e.error };
    const r = e.receipt;
    const pick = r.operator_pick;
    const by = r.picks?.at(-1)?.picked_by;
    return {
      receipt_id: r.receipt_id,
      state: pick ? (pick.overrode_recommendation ? ("overridden" as const) : ("picked" as const)) : ("pending" as const),
      created_at: r.created_at,
      question: r.question,
      recommendation: r.payload.recommendation.option_id,
      pick: pick?.option_id ?? null,
      ...(pick && by ? { picked_by: by } : {}),
      uri: uriOf(r.receipt_id),
    };
  });
  const lines = rows.map((r) =>
    r.state === "corrupt" ? `- \`${r.receipt_id}\` CORRUPT: ${r.error}` : `- \`${r.receipt_id}\` ${r.state}${r.pick ? ` (${r.pick}${r.picked_by === "agent" ? ", by an agent" : ""})` : ""}: ${r.question}`,
  );
  return { text: rows.length ? [`${rows.length} receipt(s) in ${repo}:`, ...lines].join("\n") : `No receipts in ${repo}.`, structured: { repo, receipts: rows } };
}

function verifyLabel(r: ReceiptVerification): string {
  if (r.signature !== "valid") return r.signature === "corrupt" ? "CORRUPT" : "INVALID";
  if (r.evidence === "changed" || r.evidence === "missing") return "TAMPERED";
  if (r.ok) return "ok";
  if (r.trust === "untrusted") return "UNTRUSTED";
  return r.legacy ? "LEGACY" : "FAILED";
}

export async function verifyReceiptsTool(args: z.infer<typeof VerifyReceiptsInput>, ctx: ToolContext): Promise<ToolResult> {
  const repo = await ctx.roots.resolveRepo(args.repo);
  const own = loadKeyFileIfExists(defaultKeyDir(ctx.env));
  const results = await verifyAll(repo, undefined, { ownPublicKeyPem: own?.publicKeyPem, allowUntrusted: !!args.allow_untrusted });
  const rows = results.map((r) => ({
    receipt_id: r.receipt_id,
    ok: r.ok,
    label: verifyLabel(r),
    signature: r.signature,
    ...(r.trust ? { trust: r.trust } : {}),
    ...(r.signer ? { signer: r.signer } : {}),
    evidence: r.evidence,
    unresolved: r.unresolved,
    summary: r.summary,
  }));
  const failed = rows.filter((r) => !r.ok).length;
  const lines = rows.map((r) => `- ${r.label} \`${r.receipt_id}\`: ${r.summary}${r.unresolved.length ? `; ${r.unresolved.length} citation(s) no longer resolve` : ""}`);
  const text = rows.length ? [`${rows.length - failed} valid, ${failed} failed (${repo}):`, ...lines].join("\n") : `No receipts in ${repo}.`;
  return { text, structured: { repo, valid: rows.length - failed, failed, results: rows } };
}
