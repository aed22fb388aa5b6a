// Export as ADR, end to end: from the picker of the overridden receipt (Redux over the recommended Zustand), the
// supersede question for the accepted MADR 0004 the pick goes against, the refactoring preview, Apply; then the
// files on disk (a Nygard ADR 0006 in docs/adr next to the repository's other Nygard records, MADR 0004 superseded),
// the receipt re-signed with the export, and the sidebar's "exported → …" state. Screenshots in test-results/.
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { parseAdr } from "../../../src/core/internal/adr";
import { verifyReceiptSignature } from "../../../src/core/receipts/signing";
import { QUESTION, assert, log, receiptFiles, runCommand, screenshot, showDeliberations, showExplorer, waitUntil, workbench, type E2EContext, type Step } from "../workbench";

const OLD_ADR = "docs/decisions/0004-use-zustand-for-cart-state.md";

async function waitUntilAsync(what: string, cond: () => Promise<boolean>, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

function exportedAdr(ws: string): string | undefined {
  const dir = join(ws, "docs", "adr");
  const name = existsSync(dir) ? readdirSync(dir).find((n) => /^0006-/.test(n)) : undefined;
  return name ? `docs/adr/${name}` : undefined;
}

function questionReceipt(ws: string): Record<string, any> {
  const all = receiptFiles(ws).map((f) => JSON.parse(readFileSync(f, "utf8")) as Record<string, any>);
  const r = all.find((x) => x.question === QUESTION);
  assert(r, "the receipt of the cart-state question");
  return r;
}

async function exportFromPicker(ctx: E2EContext): Promise<void> {
  const { page, frame, ws } = workbench(ctx);
  await showExplorer(page);
  await runCommand(page, "View: Close All Editors");
  // Later deliberations about the cart state match the quick pick's filter too: click this question's own row.
  await runCommand(page, "Deliberative Search: Open Receipt");
  await page.locator(".quick-input-widget .monaco-list-row", { hasText: QUESTION }).first().click({ timeout: 10_000 });
  const button = frame.locator("#export-adr");
  await button.waitFor({ state: "visible", timeout: 30_000 });
  await button.click();
  // The pick (Redux) goes against the accepted MADR 0004 (Zustand) that the deliberation cited: supersede it?
  const supersede = page.locator(".quick-input-widget .monaco-list-row", { hasText: "Supersede" }).first();
  await supersede.waitFor({ state: "visible", timeout: 30_000 });
  const title = (await page.locator(".quick-input-widget").textContent()) ?? "";
  assert(/goes against an accepted ADR/.test(title) && /Use Zustand for client-side cart state/.test(title), `supersede question: ${title.slice(0, 300)}`);
  await screenshot(page, "adr-export-supersede.png");
  await supersede.click();
  // The refactoring preview lists the new ADR and the edit of the superseded one; nothing is on disk yet.
  const apply = page.locator(".part.panel .monaco-button", { hasText: /^Apply$/ }).first();
  await apply.waitFor({ state: "visible", timeout: 30_000 });
  await page.locator(".part.panel .monaco-list-row", { hasText: "0006-redux" }).first().waitFor({ state: "visible", timeout: 15_000 });
  assert(exportedAdr(ws) === undefined, "nothing is written before Apply");
  // Changes that need confirmation start unticked: the operator confirms each one.
  // (In the panel: the Explorer lists the same file names.)
  for (const name of ["0006-redux", "0004-use-zustand-for-cart-state.md"]) {
    const box = page.locator(".part.panel .monaco-list-row", { hasText: name }).first().locator('input[type="checkbox"], [role="checkbox"]').first();
    if (!(await box.isChecked())) await box.click();
    await waitUntilAsync(`the ${name} change ticked`, () => box.isChecked(), 5_000);
  }
  await page.waitForTimeout(500);
  await screenshot(page, "adr-export-preview.png");
  await apply.click();
  await waitUntil("the exported ADR on disk", () => exportedAdr(ws) !== undefined, 30_000);
  await waitUntil("the export recorded in the receipt", () => (questionReceipt(ws).adr_exports ?? []).length === 1, 30_000);
}

async function checkFiles(ctx: E2EContext): Promise<void> {
  const { ws } = workbench(ctx);
  const path = exportedAdr(ws)!;
  const adr = parseAdr(path, readFileSync(join(ws, path), "utf8"));
  assert(adr.format === "nygard" && adr.number === 6 && adr.status === "accepted", `new ADR: ${adr.format} ${adr.number} ${adr.status}`);
  assert(adr.chosen_option === "Redux", `chosen option ${adr.chosen_option}`);
  assert(adr.supersedes.includes(OLD_ADR), `supersedes: ${adr.supersedes.join(", ")}`);
  const old = parseAdr(OLD_ADR, readFileSync(join(ws, OLD_ADR), "utf8"));
  assert(old.status === "superseded" && old.superseded_by.includes(path), `old ADR: ${old.status} → ${old.superseded_by.join(", ")}`);
  const receipt = questionReceipt(ws);
  assert(receipt.adr_exports[0].path === path && receipt.adr_exports[0].format === "nygard", `adr_exports: ${JSON.stringify(receipt.adr_exports)}`);
  assert(verifyReceiptSignature(receipt).ok, "the receipt re-signed after the export verifies");
  log(`     exported ${path}; ${OLD_ADR} superseded`);
}

async function sidebarShowsExported(ctx: E2EContext): Promise<void> {
  const { page, ws } = workbench(ctx);
  const path = exportedAdr(ws)!;
  await page.mouse.move(900, 10);
  await showDeliberations(page);
  const row = page.locator(".monaco-list-row", { hasText: QUESTION }).first();
  await row.filter({ hasText: `exported → ${path}` }).waitFor({ state: "visible", timeout: 20_000 });
  // Widen the side bar so the row's description ("… · exported → docs/adr/0006-….md") shows in the screenshot.
  const box = await page.locator(".part.sidebar").boundingBox();
  if (box) {
    await page.mouse.move(box.x + box.width + 1, box.y + 300);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width + 420, box.y + 300, { steps: 8 });
    await page.mouse.up();
  }
  await page.locator(".notifications-toasts .codicon-notifications-clear, .notifications-toasts .codicon-close").first().click({ timeout: 2_000 }).catch(() => undefined);
  await row.locator(".label-name, .monaco-icon-label").first().hover();
  await page.waitForTimeout(1200); // the tooltip names the ADR, its format and when
  await screenshot(page, "sidebar-exported.png");
  // Leave the side bar as wide as it was and no tooltip open: the next steps hover these rows again.
  await page.mouse.move(900, 10);
  await page.keyboard.press("Escape");
  const wide = await page.locator(".part.sidebar").boundingBox();
  if (box && wide && wide.width > box.width + 50) {
    await page.mouse.move(wide.x + wide.width + 1, wide.y + 600);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width, wide.y + 600, { steps: 8 });
    await page.mouse.up();
  }
  await page.mouse.move(box ? box.x + box.width + 400 : 900, 600);
}

export const adrExportSteps: Step[] = [
  { name: "Export as ADR from the picker: supersede question, refactoring preview, Apply", run: exportFromPicker },
  { name: "the exported Nygard ADR parses, MADR 0004 is superseded, the receipt records the export and verifies", run: checkFiles },
  { name: 'the sidebar shows the receipt as "exported → docs/adr/0006-…"', run: sidebarShowsExported },
];
