// Receipts notice when their evidence changes: after the deliberations of the earlier steps, one cited line of the
// receipt the CodeLens shows is edited on disk (outside VS Code); the sidebar marks that receipt "stale: evidence
// changed" and names the citation in its tooltip, the CodeLens says "(evidence changed)", and "Re-deliberate and
// Compare" runs the question again and opens the picker with its "What changed since <date>" panel.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  QUESTION,
  assert,
  log,
  openFile,
  receiptFiles,
  runCommand,
  screenshot,
  showDeliberations,
  waitUntil,
  workbench,
  type E2EContext,
  type Step,
} from "../workbench";

interface ReceiptOnDisk {
  receipt_id: string;
  question: string;
  created_at: string;
  operator_pick: unknown;
  payload: { citations: { id: string; kind: string; path_or_url: string; line_range?: { start: number; end: number }; commit?: string; content_sha256?: string }[] };
}

/** The receipt the CodeLens and the sidebar show for the question: the newest picked one, else the newest. */
function shownReceipt(ws: string): ReceiptOnDisk {
  const all = receiptFiles(ws)
    .map((f) => JSON.parse(readFileSync(f, "utf8")) as ReceiptOnDisk)
    .filter((r) => r.question.toLowerCase() === QUESTION.toLowerCase())
    .sort((a, b) => b.created_at.localeCompare(a.created_at));
  const shown = all.find((r) => r.operator_pick) ?? all[0];
  assert(shown, "no receipt for the question");
  return shown;
}

let edited: { id: string; path: string; line: number } | undefined;

async function editCitedLine(ctx: E2EContext): Promise<void> {
  const { ws } = workbench(ctx);
  const receipt = shownReceipt(ws);
  const cite = receipt.payload.citations.find((c) => c.kind === "internal" && c.line_range && !c.commit && c.content_sha256);
  assert(cite, `receipt ${receipt.receipt_id} has no hashed line citation`);
  const abs = join(ws, cite.path_or_url);
  const lines = readFileSync(abs, "utf8").split("\n");
  const line = cite.line_range!.start;
  lines[line - 1] = `${lines[line - 1]} (revised after review)`;
  writeFileSync(abs, lines.join("\n"));
  edited = { id: cite.id, path: cite.path_or_url, line };
  log(`     edited ${cite.path_or_url}:${line} (cited as ${cite.id} by ${receipt.receipt_id})`);
}

/** The sidebar row of the question's receipt marked stale (other questions citing the same ADR may be stale too). */
function staleRow(ctx: E2EContext) {
  const question = new RegExp(QUESTION.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "i");
  return workbench(ctx).page.locator(".monaco-list-row").filter({ hasText: question }).filter({ hasText: "stale: evidence changed" }).first();
}

async function sidebarShowsStale(ctx: E2EContext): Promise<void> {
  const { page } = workbench(ctx);
  assert(edited, "no cited line was edited");
  await showDeliberations(page);
  const row = staleRow(ctx);
  await row.waitFor({ state: "visible", timeout: 30_000 });
  const text = (await row.textContent()) ?? "";
  // Widen the side bar so the row's description ("… · stale: evidence changed") shows in the screenshot.
  const box = await page.locator(".part.sidebar").boundingBox();
  if (box && box.width < 560) {
    await page.mouse.move(box.x + box.width + 1, box.y + 300);
    await page.mouse.down();
    await page.mouse.move(box.x + 560, box.y + 300, { steps: 8 });
    await page.mouse.up();
  }
  await row.hover();
  const tooltip = page.locator(".monaco-hover, .workbench-hover", { hasText: "Stale: evidence changed" }).first();
  await tooltip.waitFor({ state: "visible", timeout: 10_000 });
  const tip = (await tooltip.textContent()) ?? "";
  assert(tip.includes(edited.id) && tip.includes(edited.path), `the tooltip names the citation: ${tip.slice(0, 300)}`);
  await page.waitForTimeout(400);
  await screenshot(page, "sidebar-stale.png");
  log(`     sidebar: ${text.trim().slice(0, 160)}`);
}

async function codeLensShowsStale(ctx: E2EContext): Promise<void> {
  const { page } = workbench(ctx);
  await page.mouse.move(900, 10);
  await openFile(page, "orders.ts");
  const lens = page.locator(".monaco-editor .codelens-decoration a", { hasText: "(evidence changed)" }).first();
  await lens.waitFor({ state: "visible", timeout: 30_000 });
  const title = (await lens.textContent()) ?? "";
  assert(/Decided: .*\(evidence changed\)/.test(title), `CodeLens: ${title}`);
  await screenshot(page, "codelens-stale.png");
}

async function redeliberateAndCompare(ctx: E2EContext): Promise<void> {
  const { page, frame, ws } = workbench(ctx);
  const before = receiptFiles(ws).length;
  // One picker on screen afterwards: the new receipt's.
  await runCommand(page, "View: Close All Editors");
  await showDeliberations(page);
  const row = staleRow(ctx);
  await row.waitFor({ state: "visible", timeout: 15_000 });
  // The row's inline action (the same command is in its context menu).
  await row.hover();
  const action = row.locator('.action-label[aria-label^="Re-deliberate and Compare"]').first();
  await action.waitFor({ state: "visible", timeout: 10_000 });
  await action.click();
  await waitUntil("a new receipt", () => receiptFiles(ws).length > before, 90_000);
  const panel = frame.locator("#changes");
  await panel.waitFor({ state: "visible", timeout: 30_000 });
  const heading = (await panel.getAttribute("heading")) ?? "";
  assert(/^What changed since /.test(heading), `panel heading: ${heading}`);
  const rec = (await frame.locator("#changes-recommendation").textContent()) ?? "";
  assert(/Recommendation/.test(rec), `panel: ${rec}`);
  await page.waitForTimeout(300);
  await screenshot(page, "picker-what-changed.png");
  log(`     ${heading}: ${rec.trim()}`);
}

export const staleSteps: Step[] = [
  { name: "edit one cited line of the shown receipt's evidence on disk", run: editCitedLine },
  { name: 'the sidebar marks the receipt "stale: evidence changed" and its tooltip names the citation', run: sidebarShowsStale },
  { name: 'the CodeLens says "Decided: … (evidence changed)"', run: codeLensShowsStale },
  { name: '"Re-deliberate and Compare" runs the question again and the picker shows "What changed since …"', run: redeliberateAndCompare },
];
