// The first deliberation, from the TODO(decide) comment to a signed pick: the sidebar's welcome view, the CodeLens,
// the picker (recommendation, citations, evidence matrix), citations that open files and diffs, the pick on disk
// and in the sidebar and CodeLens, a 300 px panel, an override with a reason, and a lookup question refused.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { verifyReceiptSignature } from "../../../src/core/receipts/signing";
import {
  QUESTION,
  assert,
  goToLine,
  log,
  need,
  openFile,
  openReceipt,
  pickerFrame,
  receiptFiles,
  runCommand,
  runCommandWithInput,
  screenshot,
  showDeliberations,
  showExplorer,
  waitForWorkbench,
  waitUntil,
  workbench,
  type E2EContext,
  type Step,
} from "../workbench";

type PickedReceipt = Record<string, unknown> & { question: string; operator_pick?: { option_id: string; reason?: string; overrode_recommendation: boolean } | null };

function readReceipt(file: string): PickedReceipt {
  return JSON.parse(readFileSync(file, "utf8")) as PickedReceipt;
}

/** The picker shows the question, a Zustand recommendation with a supporting citation, the matrix and the stages. */
async function checkPicker(ctx: E2EContext): Promise<void> {
  const { frame } = workbench(ctx);
  const question = (await frame.locator("#question").textContent())?.trim();
  assert(question === QUESTION, `question was ${JSON.stringify(question)}`);
  const rec = (await frame.locator("#recommendation").textContent()) ?? "";
  assert(/Recommended/i.test(rec) && /Zustand/.test(rec), `recommendation was ${JSON.stringify(rec.slice(0, 200))}`);
  const cards = await frame.locator("article.card").count();
  assert(cards >= 2, `expected >= 2 option cards, got ${cards}`);
  const recCard = frame.locator("article.card.recommended");
  const id = await recCard.getAttribute("data-option-id");
  assert(id, "no recommended card");
  const cites = await recCard.locator(".supports .cite").count();
  assert(cites >= 1, "the recommended option has no supporting citation");
  const matrix = await frame.locator("#matrix tbody tr").count();
  assert(matrix >= 1, "the evidence matrix is empty");
  const stages = (await frame.locator("#stage-line").textContent()) ?? "";
  assert(/internal/i.test(stages) && /synthesis/i.test(stages), `stage line: ${stages}`);
  ctx.recommended = id;
}

async function openCitedLines(ctx: E2EContext): Promise<void> {
  const { page, frame, ws } = workbench(ctx);
  // A citation with a line range in a file (not a commit): its location reads "path:start–end".
  const cite = frame.locator("article.card.recommended .supports .cite").filter({ has: frame.locator(".cite-loc", { hasText: /:\d+/ }) }).first();
  const loc = ((await cite.locator(".cite-loc").textContent()) ?? "").trim();
  const m = /^(.*):(\d+)(?:–(\d+))?$/.exec(loc);
  assert(m, `unexpected citation location ${loc}`);
  const [, path, startStr, endStr] = m;
  const start = Number(startStr);
  const end = Number(endStr ?? startStr);
  const fileName = path!.split("/").pop()!;
  const firstCitedLine = readFileSync(join(ws, path!), "utf8").split("\n")[start - 1]!.trim();
  await cite.click();
  await page.locator(".tabs-container .tab.active", { hasText: fileName }).first().waitFor({ timeout: 15_000 });
  // The cursor sits at the end of the selection, which spans the cited range.
  await page.locator(".statusbar-item", { hasText: new RegExp(`Ln ${end},.*selected`) }).first().waitFor({ timeout: 10_000 });
  const visible = (await page.locator(".editor-group-container.active .monaco-editor .view-lines").first().textContent()) ?? "";
  const probe = firstCitedLine.replace(/\s+/g, " ").slice(0, 30);
  assert(visible.replace(/\s+/g, " ").includes(probe), `cited line "${probe}" is not visible in the editor`);
  log(`     opened ${path}:${start}-${end}`);
  await screenshot(page, "citation.png");
}

async function openCommitDiff(ctx: E2EContext): Promise<void> {
  const { page, frame } = workbench(ctx);
  const commitCite = frame.locator(".cite", { has: frame.locator(".cite-kind", { hasText: "⎇" }) }).first();
  if ((await commitCite.count()) === 0) {
    log("     (no commit citation in this payload; skipped)");
    return;
  }
  await commitCite.click();
  // The diff opens beside the picker; which editor group holds focus afterwards varies from run to run, so look
  // for the diff editor and its tab (titled with the short sha) in any group.
  await page.locator(".monaco-diff-editor").first().waitFor({ state: "visible", timeout: 15_000 });
  const diffTab = page.locator(".editor-group-container .tab", { hasText: /\b[0-9a-f]{7}\b/ }).first();
  await diffTab.waitFor({ state: "visible", timeout: 15_000 });
  const tab = (await diffTab.textContent()) ?? "";
  assert(/\b[0-9a-f]{7}\b/.test(tab), `diff tab title: ${tab}`);
  log(`     diff: ${tab.trim()}`);
}

async function sidebarShowsDecided(ctx: E2EContext): Promise<void> {
  const { page } = workbench(ctx);
  await showDeliberations(page);
  const row = page.locator(".monaco-list-row", { hasText: QUESTION }).first();
  await row.waitFor({ state: "visible", timeout: 15_000 });
  // Widen the side bar so the row's description (the picked option) is visible in the screenshot.
  const box = await page.locator(".part.sidebar").boundingBox();
  if (box) {
    await page.mouse.move(box.x + box.width + 1, box.y + 300);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width + 180, box.y + 300, { steps: 8 });
    await page.mouse.up();
  }
  await page.locator(".monaco-list-row", { hasText: "1 accepted" }).first().waitFor({ state: "visible", timeout: 15_000 });
  const text = (await row.textContent()) ?? "";
  assert(/Zustand/.test(text), `sidebar row: ${text}`);
  await row.hover();
  await page.waitForTimeout(1200); // let the tooltip render for the screenshot
  await screenshot(page, "sidebar.png");
}

/** A second, 348 px wide browser window on the same workspace: the picker alone must not overflow. */
async function narrowPanel(ctx: E2EContext): Promise<void> {
  const browser = need(ctx.browser, "the browser");
  const narrow = await browser.newContext({ viewport: { width: 348, height: 800 }, deviceScaleFactor: 1 });
  try {
    const p = await narrow.newPage();
    await p.goto(`http://127.0.0.1:${need(ctx.port, "code-server's port")}/?folder=${encodeURIComponent(need(ctx.ws, "the sample workspace"))}`);
    await waitForWorkbench(p, { explorer: false });
    // Close the side bar and the other editors so the picker is ~300 px wide.
    await runCommand(p, "View: Close Primary Side Bar");
    await runCommand(p, "View: Close All Editors");
    await openReceipt(p, QUESTION);
    const f = pickerFrame(p);
    await f.locator("#decided").waitFor({ state: "visible", timeout: 30_000 });
    await p.waitForTimeout(300);
    await screenshot(p, "picker-300px.png");
    const { overflow, width, culprit } = await f.locator("body").evaluate((b) => {
      const w = b.clientWidth;
      const wide = [...b.querySelectorAll("*")].find((el) => el.getBoundingClientRect().right > w + 2 && !el.closest(".matrix-wrap"));
      return { overflow: b.scrollWidth - w, width: w, culprit: wide ? `${wide.tagName.toLowerCase()}.${(wide as unknown as { className: string }).className}` : "" };
    });
    log(`     picker body width ${width}px`);
    assert(overflow <= 2, `the picker overflows horizontally by ${overflow}px at ${width}px (${culprit})`);
  } finally {
    await narrow.close();
  }
}

async function overrideWithReason(ctx: E2EContext): Promise<void> {
  const { page, frame, ws } = workbench(ctx);
  const recommended = need(ctx.recommended, "the recommended option");
  await page.mouse.move(900, 10);
  await openReceipt(page, QUESTION);
  await frame.locator("#override-toggle").waitFor({ state: "visible", timeout: 20_000 });
  await frame.locator("#override-toggle").click();
  await frame.locator("#override").waitFor({ state: "visible" });
  const reason = "The checkout team already ships Redux DevTools tooling.";
  await frame.locator("#override-reason textarea").fill(reason);
  await screenshot(page, "override.png");
  await frame.locator("#override-submit").click();
  await frame.locator("#decided.overrode").waitFor({ state: "visible", timeout: 15_000 });
  const raw = readReceipt(receiptFiles(ws)[0]!);
  assert(raw.operator_pick?.overrode_recommendation === true && raw.operator_pick.option_id !== recommended, `operator_pick: ${JSON.stringify(raw.operator_pick)}`);
  assert(raw.operator_pick.reason === reason, `reason: ${raw.operator_pick.reason}`);
  assert(verifyReceiptSignature(raw).ok, "signature after override");
  await showDeliberations(page);
  await page.locator(".monaco-list-row", { hasText: "0 accepted · 1 overridden" }).first().waitFor({ state: "visible", timeout: 15_000 });
}

export const pickerSteps: Step[] = [
  {
    name: 'with no receipts, the sidebar shows its welcome view with "Deliberate on a Question…"',
    run: async (ctx) => {
      const { page } = workbench(ctx);
      await showDeliberations(page);
      await page.locator(".welcome-view-content", { hasText: "No deliberations yet" }).waitFor({ state: "visible", timeout: 20_000 });
      await page.locator(".welcome-view-content .monaco-button", { hasText: "Deliberate on a Question" }).waitFor({ state: "visible" });
      await screenshot(page, "sidebar-welcome.png");
      await showExplorer(page);
    },
  },
  {
    name: "open src/orders.ts and put the cursor on the TODO(decide) line",
    run: async (ctx) => {
      const { page } = workbench(ctx);
      const line = need(ctx.ordersLine, "the TODO(decide) line");
      await openFile(page, "orders.ts");
      await page.locator(".monaco-editor .view-lines", { hasText: "TODO(decide)" }).first().waitFor({ timeout: 15_000 });
      await goToLine(page, line);
    },
  },
  {
    name: 'CodeLens "Deliberate" shows above the open-question comment',
    run: async (ctx) => {
      await workbench(ctx).page.locator(".monaco-editor .codelens-decoration a", { hasText: "Deliberate" }).first().waitFor({ timeout: 30_000 });
    },
  },
  {
    name: 'run "Deliberate on Selection" from the command palette; the picker opens',
    run: async (ctx) => {
      const { page, frame } = workbench(ctx);
      await runCommand(page, "Deliberative Search: Deliberate on Selection");
      await frame.locator("#recommendation").waitFor({ state: "visible", timeout: 60_000 });
    },
  },
  { name: "the picker shows the question, the recommendation (Zustand) and citations", run: checkPicker },
  {
    name: "screenshot: picker (top, and the evidence matrix)",
    run: async (ctx) => {
      const { page, frame } = workbench(ctx);
      await page.waitForTimeout(400);
      await screenshot(page, "picker.png");
      await frame.locator("#matrix").scrollIntoViewIfNeeded();
      await page.waitForTimeout(200);
      await screenshot(page, "picker-matrix.png");
      await frame.locator("body").evaluate((b) => b.ownerDocument.defaultView?.scrollTo(0, 0));
    },
  },
  { name: "clicking a citation opens the file with the cited lines selected", run: openCitedLines },
  { name: "clicking a commit citation opens its diff", run: openCommitDiff },
  {
    name: "pick the recommended option; the panel shows the pick",
    run: async (ctx) => {
      const { page, frame } = workbench(ctx);
      await frame.locator(`article.card[data-option-id="${need(ctx.recommended, "the recommended option")}"] vscode-button.pick`).click();
      await frame.locator("#decided").waitFor({ state: "visible", timeout: 15_000 });
      const decided = (await frame.locator("#decided").textContent()) ?? "";
      assert(/Decided:/.test(decided) && /Zustand/.test(decided), `decided banner: ${decided}`);
      await frame.locator("body").evaluate((b) => b.ownerDocument.defaultView?.scrollTo(0, 0));
      await page.waitForTimeout(300);
      await screenshot(page, "picker-picked.png");
    },
  },
  {
    name: "the receipt on disk carries operator_pick with a valid signature",
    run: async (ctx) => {
      const files = receiptFiles(workbench(ctx).ws);
      assert(files.length === 1, `expected one receipt, found ${files.length}`);
      const raw = readReceipt(files[0]!);
      assert(raw.question === QUESTION, `receipt question ${raw.question}`);
      assert(raw.operator_pick && raw.operator_pick.option_id === ctx.recommended, `operator_pick: ${JSON.stringify(raw.operator_pick)}`);
      assert(raw.operator_pick.overrode_recommendation === false, "a pick of the recommendation must not count as an override");
      const sig = verifyReceiptSignature(raw);
      assert(sig.ok, `signature: ${sig.reason}`);
      log(`     ${files[0]} signature valid`);
    },
  },
  { name: "the sidebar lists the receipt as decided", run: sidebarShowsDecided },
  {
    name: 'the CodeLens changes to "Decided: Zustand"',
    run: async (ctx) => {
      const { page } = workbench(ctx);
      await page.mouse.move(900, 10);
      await openFile(page, "orders.ts");
      const lens = page.locator(".monaco-editor .codelens-decoration a", { hasText: "Decided: Zustand" }).first();
      await lens.waitFor({ state: "visible", timeout: 20_000 });
      await screenshot(page, "codelens.png");
    },
  },
  { name: "narrow panel (300 px) stays readable", run: narrowPanel },
  { name: "Override with reason records the other option, the reason and a valid signature", run: overrideWithReason },
  {
    name: 'a lookup question is refused with its confidence, and "Deliberate anyway" still deliberates',
    run: async (ctx) => {
      const { page, ws } = workbench(ctx);
      await runCommandWithInput(page, "Deliberative Search: Deliberate on a Question…", "where is cartTotal defined?");
      const toast = page.locator(".notifications-toasts .notification-toast", { hasText: "looks like a lookup" }).first();
      await toast.waitFor({ state: "visible", timeout: 20_000 });
      const text = (await toast.textContent()) ?? "";
      assert(/confidence \d\.\d\d/.test(text), `no confidence in: ${text}`);
      await page.waitForTimeout(600);
      await screenshot(page, "abstain.png");
      await toast.locator(".monaco-button", { hasText: "Deliberate anyway" }).click();
      await waitUntil("a second receipt", () => receiptFiles(ws).length === 2, 30_000);
    },
  },
];
