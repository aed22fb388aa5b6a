// Receipts as MCP resources: `deliberation://<repo>/<receipt_id>`, where <repo> names an allowed root. Reading one
// returns two renderings of the receipt as it is on disk now: the signed JSON and its Markdown.
import { listReceipts, readReceipt } from "../core/receipts/store";
import { receiptToMarkdown } from "../core/render";
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
}

/** Every readable receipt of every allowed root, newest first per root. */
export async function listReceiptResources(roots: AllowedRoots): Promise<ResourceEntry[]> {
  const out: ResourceEntry[] = [];
  for (const root of await roots.list()) {
    for (const e of await listReceipts(root.path)) {
      if (e.state !== "ok") continue;
      const r = e.receipt;
      out.push({
        uri: receiptUri(root.name, r.receipt_id),
        name: `${root.name}/${r.receipt_id}`,
        title: r.question.slice(0, 200),
        description: `Deliberation receipt in ${root.path}: ${r.operator_pick ? `picked ${r.operator_pick.option_id}` : "no pick yet"}; recommendation ${r.payload.recommendation.option_id}`,
        mimeType: "application/json",
      });
    }
  }
  return out;
}

/** The JSON and Markdown renderings of the receipt a URI names. */
export async function readReceiptResource(roots: AllowedRoots, uri: string): Promise<{ uri: string; mimeType: string; text: string }[]> {
  const m = URI.exec(uri);
  if (!m) throw new ToolInputError(`not a receipt URI: ${uri.slice(0, 200)} (expected ${RESOURCE_TEMPLATE})`);
  const root = await roots.byName(m[1]);
  if (!root) throw new ToolInputError(`unknown repository "${m[1]}" in ${uri} (allowed: ${(await roots.list()).map((r) => r.name).join(", ") || "none"})`);
  const receipt = await readReceipt(root.path, m[2]);
  return [
    { uri, mimeType: "application/json", text: JSON.stringify(receipt, null, 2) },
    { uri, mimeType: "text/markdown", text: receiptToMarkdown(receipt) },
  ];
}
