// The Critic in the picker: a question that proposes gRPC for the public API, which the deciding record (ADR 3,
// "Use REST for the public API") never mentions. The picker shows its "Objections" section with a blocking
// objection in the danger colour that names and cites the record; clicking the citation opens it.
// Screenshot: objections.png.
import { assert, log, runCommand, runCommandWithInput, screenshot, showExplorer, workbench, type E2EContext, type Step } from "../workbench";

const PROPOSAL_QUESTION = "Should we adopt gRPC for the public API?";

async function objectionsShown(ctx: E2EContext): Promise<void> {
  const { page, frame } = workbench(ctx);
  // Earlier steps leave pickers open; with two webviews on the page the picker frame is ambiguous.
  await showExplorer(page);
  await runCommand(page, "View: Close All Editors");
  await page.locator("iframe.webview.ready").first().waitFor({ state: "detached", timeout: 10_000 }).catch(() => undefined);
  await runCommandWithInput(page, "Deliberative Search: Deliberate on a Question…", PROPOSAL_QUESTION);
  await frame.locator("#question", { hasText: PROPOSAL_QUESTION }).waitFor({ state: "visible", timeout: 60_000 });
  const section = frame.locator("#objections");
  await section.waitFor({ state: "visible", timeout: 20_000 });
  const heading = (await section.locator("h2").textContent()) ?? "";
  assert(/^Objections \(\d+\)$/.test(heading.trim()), `heading: ${heading}`);
  const blocking = section.locator("li.objection.blocking").first();
  const text = (await blocking.locator(".objection-text").textContent()) ?? "";
  // Which check blocks first depends on the synthesizer (the earlier model steps leave a fake endpoint configured,
  // whose answer goes against the record); either way the blocking objection names the deciding record.
  assert(/Use REST for the public API/.test(text), `blocking objection: ${text}`);
  // The danger colour: the blocking objection's text is not the body's foreground colour.
  const colours = await blocking.locator(".objection-text").evaluate((el) => {
    const view = el.ownerDocument.defaultView!;
    return { text: view.getComputedStyle(el).color, body: view.getComputedStyle(el.ownerDocument.body).color };
  });
  assert(colours.text !== colours.body, `objection text has the body colour ${colours.body}`);
  const cite = blocking.locator(".objection-cites .cite").first();
  const title = (await cite.getAttribute("title")) ?? "";
  assert(/0003-use-rest-for-the-public-api\.md/.test(title), `objection citation: ${title}`);
  // The recommendation says the Critic lowered it.
  const rec = (await frame.locator("#recommendation").textContent()) ?? "";
  assert(/The Critic objects/.test(rec), `recommendation: ${rec.slice(0, 300)}`);
  log(`     ${heading.trim()}: ${text.slice(0, 100)}…`);
  await section.scrollIntoViewIfNeeded();
  await page.waitForTimeout(300);
  await screenshot(page, "objections.png");
  await cite.click();
  await page.locator(".tabs-container .tab.active", { hasText: "0003-use-rest-for-the-public-api.md" }).first().waitFor({ timeout: 15_000 });
}

export const objectionsSteps: Step[] = [{ name: "the picker shows the Critic's Objections section, blocking first, with its citation", run: objectionsShown }];
