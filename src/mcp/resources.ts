// Receipts as MCP resources: `deliberation://<repo>/<receipt_id>`, where <repo> names an allowed root. Reading one
// returns two renderings of the receipt as it is on disk now: the signed JSON (unchanged, so its signature still
// checks) and its Markdown. Both, and every listed resource, carry `_meta.verification` (core/receipts/readerTrust.ts);
// the Markdown of a receipt that does not verify opens with a warning and gives its pick only as a claim. A receipt is
// a file in the repository: its question, titles and reasons may hold escape sequences or bidi controls, so the
// Markdown, titles and descriptions pass the terminal sanitiser (the signed JSON stays byte for byte as it is; the
// transport writes its C1 and bidi characters as \u escapes).
import { pickStatement, unverifiedTag, type ReceiptTrustView } from "../core/receipts/readerTrust";
import { listReceipts, loadReceiptEntry } from "../core/receipts/store";
import { receiptToMarkdown } from "../core/render";
import { terminalSafe, terminalSafeLine } from "../core/sanitize";
import { trustViews, withoutPicks } from "./receiptTrust";
import type { AllowedRoots } from "./roots";
import { ToolInputError } from "./toolResult";

export const RESOURCE_SCHEME = "deliberation";
export const RESOURCE_TEMPLATE = `${RESOURCE_SCHEME}://{repo}/{receipt_id}`;

const URI = /^deliberation:\/\/([A-Za-z0-9._-]+)\/([A-Za-z0-9_-]{6,80})$/;

export function receiptUri(repoName: string, receiptId: string): string {
  return `${RESOURCE_SCHEME}://${repoName}/${receiptId}`;
}

export interface ResourceEntry {
  uri: string;
  name: string;
  title: string;
  description: string;
  mimeType: string;
  _meta: { verification: ReceiptTrustView };
}

/** Every readable receipt of every allowed root, newest first per root. */
export async function listReceiptResources(roots: AllowedRoots, env: NodeJS.ProcessEnv = process.env): Promise<ResourceEntry[]> {
  const out: ResourceEntry[] = [];
  for (const root of await roots.list()) {
    const entries = await listReceipts(root.path);
    const views = await trustViews(root.path, entries, env);
    for (const e of entries) {
      if (e.state !== "ok") continue;
      const r = e.receipt;
      const verification = views.get(e)!;
      const pick = verification.trusted
        ? r.operator_pick
          ? `picked ${r.operator_pick.option_id}`
          : "no pick yet"
        : `${unverifiedTag(verification)}${r.operator_pick ? `; claims a pick of ${r.operator_pick.option_id}` : ""}`;
      out.push({
        uri: receiptUri(root.name, r.receipt_id),
        name: `${root.name}/${r.receipt_id}`,
        title: terminalSafeLine(r.question).slice(0, 200),
        description: terminalSafeLine(`Deliberation receipt in ${root.path}: ${pick}; recommendation ${r.payload.recommendation.option_id}`),
        mimeType: "application/json",
        _meta: { verification },
      });
    }
  }
  return out;
}

/** The JSON and Markdown renderings of the receipt a URI names. */
export async function readReceiptResource(roots: AllowedRoots, uri: string, env: NodeJS.ProcessEnv = process.env): Promise<{ uri: string; mimeType: string; text: string; _meta: { verification: ReceiptTrustView } }[]> {
  const m = URI.exec(uri);
  if (!m) throw new ToolInputError(`not a receipt URI: ${uri.slice(0, 200)} (expected ${RESOURCE_TEMPLATE})`);
  const root = await roots.byName(m[1]);
  if (!root) throw new ToolInputError(`unknown repository "${m[1]}" in ${uri} (allowed: ${(await roots.list()).map((r) => r.name).join(", ") || "none"})`);
  const entry = await loadReceiptEntry(root.path, m[2]);
  if (entry.state === "corrupt") throw new Error(`receipt ${m[2]} is corrupt: ${entry.error}`);
  const receipt = entry.receipt;
  const verification = (await trustViews(root.path, [entry], env)).get(entry)!;
  const markdown = verification.trusted
    ? `${receiptToMarkdown(receipt).trimEnd()}\n\nVerification: ${verification.summary}.\n`
    : `> **Unverified receipt** (${verification.state}${verification.reason ? `: ${verification.reason}` : ""}); nothing in it is proven.\n> ${pickStatement(receipt, verification)}\n\n${receiptToMarkdown(withoutPicks(receipt))}`;
  const _meta = { verification };
  return [
    { uri, mimeType: "application/json", text: JSON.stringify(entry.raw, null, 2), _meta },
    { uri, mimeType: "text/markdown", text: terminalSafe(markdown), _meta },
  ];
}
