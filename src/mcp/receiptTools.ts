// The receipt tools: record_pick (an agent's pick, signed like the operator's), get_receipt, list_receipts and
// verify_receipts (the same checks as `deliberate verify`). Receipts are read from disk on every call, so a pick a
// person made in the editor meanwhile is what the agent sees next. Every receipt read carries `verification`
// (core/receipts/readerTrust.ts): a receipt that does not verify, or whose signer is not trusted, is said to be
// unverified and its pick is only "claimed", never reported as what the operator chose.
import type { z } from "zod";
import { pickStatement, unverifiedTag } from "../core/receipts/readerTrust";
import { defaultKeyDir, loadKeyFileIfExists } from "../core/receipts/signing";
import { listReceipts, loadReceiptEntry, recordPick, verifyAll, type ReceiptVerification } from "../core/receipts/store";
import { trustViews, withoutPicks } from "./receiptTrust";
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
  const entry = await loadReceiptEntry(repo, args.receipt_id);
  if (entry.state === "corrupt") throw new Error(`receipt ${args.receipt_id} is corrupt: ${entry.error}`);
  const receipt = entry.receipt;
  const verification = (await trustViews(repo, [entry], ctx.env)).get(entry)!;
  const uri = (await ctx.resourceUri(repo))(receipt.receipt_id);
  const head = verification.trusted
    ? `${pickStatement(receipt, verification)}\nVerification: ${verification.summary}.`
    : `WARNING: this receipt is ${unverifiedTag(verification)}; nothing in it is proven.\n${pickStatement(receipt, verification)}`;
  return { text: `${head}\n\n${pickerMarkdown(verification.trusted ? receipt : withoutPicks(receipt), uri)}`, structured: { receipt, verification } };
}

export async function listReceiptsTool(args: z.infer<typeof ListReceiptsInput>, ctx: ToolContext): Promise<ToolResult> {
  const repo = await ctx.roots.resolveRepo(args.repo);
  const uriOf = await ctx.resourceUri(repo);
  const entries = await listReceipts(repo);
  const views = await trustViews(repo, entries, ctx.env);
  const rows = entries.map((e) => {
    const verification = views.get(e)!;
    if (e.state === "corrupt") return { receipt_id: e.receipt_id, state: "corrupt" as const, error: e.error, verification };
    const r = e.receipt;
    const pick = r.operator_pick;
    const by = r.picks?.at(-1)?.picked_by;
    const common = { receipt_id: r.receipt_id, created_at: r.created_at, question: r.question, recommendation: r.payload.recommendation.option_id, uri: uriOf(r.receipt_id), verification };
    // An unverified receipt's pick is what it claims, not a pick anyone can rely on.
    if (!verification.trusted) return { ...common, state: "unverified" as const, pick: null, claimed_pick: pick?.option_id ?? null };
    return {
      ...common,
      state: pick ? (pick.overrode_recommendation ? ("overridden" as const) : ("picked" as const)) : ("pending" as const),
      pick: pick?.option_id ?? null,
      ...(pick && by ? { picked_by: by } : {}),
    };
  });
  const lines = rows.map((r) =>
    r.state === "corrupt"
      ? `- \`${r.receipt_id}\` CORRUPT: ${r.error}`
      : r.state === "unverified"
        ? `- \`${r.receipt_id}\` UNVERIFIED (${r.verification.state}${r.verification.reason ? `: ${r.verification.reason}` : ""})${r.claimed_pick ? `; claims a pick of ${r.claimed_pick}` : ""}: ${r.question}`
        : `- \`${r.receipt_id}\` ${r.state}${r.pick ? ` (${r.pick}${r.picked_by === "agent" ? ", by an agent" : ""})` : ""}; ${r.verification.summary}: ${r.question}`,
  );
  return { text: rows.length ? [`${rows.length} receipt(s) in ${repo}:`, ...lines].join("\n") : `No receipts in ${repo}.`, structured: { repo, receipts: rows } };
}

function verifyLabel(r: ReceiptVerification): string {
  if (r.ignored) return "IGNORED";
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
  // A misnamed copy of a receipt is ignored (one receipt counts once): not valid, and not counted as a failure.
  const ignored = rows.filter((r) => r.label === "IGNORED").length;
  const failed = rows.filter((r) => !r.ok).length - ignored;
  const valid = rows.length - failed - ignored;
  const lines = rows.map((r) => `- ${r.label} \`${r.receipt_id}\`: ${r.summary}${r.unresolved.length ? `; ${r.unresolved.length} citation(s) no longer resolve` : ""}`);
  const text = rows.length ? [`${valid} valid, ${failed} failed${ignored ? `, ${ignored} ignored` : ""} (${repo}):`, ...lines].join("\n") : `No receipts in ${repo}.`;
  return { text, structured: { repo, valid, failed, ignored, results: rows } };
}
