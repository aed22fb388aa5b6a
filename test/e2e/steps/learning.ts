// Learning from picks in the sidebar: after the picker steps' override, the summary row shows the agreement rate
// of the counted operator picks and the learned weights that moved (ADRs down: the override went against the ADR).
import { assert, log, screenshot, showDeliberations, workbench, type E2EContext, type Step } from "../workbench";

async function summaryShowsLearning(ctx: E2EContext): Promise<void> {
  const { page } = workbench(ctx);
  await showDeliberations(page);
  const row = page.locator(".monaco-list-row", { hasText: "agreement 0%" }).first();
  await row.waitFor({ state: "visible", timeout: 20_000 });
  const text = (await row.textContent()) ?? "";
  // The override went against the ADR-backed recommendation, so ADRs lost weight.
  assert(/1 overridden/.test(text) && /ADRs 0\.\d\d×/.test(text), `summary row: ${text}`);
  log(`     summary: ${text.trim()}`);
  await row.hover();
  await page.waitForTimeout(1500); // the tooltip (every weight, per folder) for the screenshot
  await screenshot(page, "sidebar-learning.png");
}

export const learningSteps: Step[] = [
  { name: "the sidebar summary shows the agreement rate and the learned weights after the override", run: summaryShowsLearning },
];
