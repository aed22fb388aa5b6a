// The Critic in the picker. The step commits a record that chose date-fns and five report modules that import
// moment, which the record never weighed, then asks "moment or date-fns?". The Critic's "code disagrees" check
// blocks whichever synthesizer answers (the earlier model steps leave a fake endpoint configured, whose answer also
// goes against the record, a second blocking objection): the picker shows its "Objections" section, a blocking
// objection in the danger colour that names and cites the record, and the recommendation says the Critic objects;
// clicking the citation opens the record. Screenshot: objections.png.
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { assert, log, runCommand, runCommandWithInput, screenshot, showExplorer, workbench, type E2EContext, type Step } from "../workbench";

const QUESTION = "Should we use moment or date-fns for date handling?";
const RECORD_FILE = "0006-use-date-fns-for-dates.md";
const RECORD_TITLE = "Use date-fns for dates";
const RECORD = `# 6. ${RECORD_TITLE}\n\nDate: 2026-11-02\n\n## Status\n\nAccepted\n\n## Context\n\nOrders, invoices and reports format and parse dates.\n\n## Decision\n\nWe will use date-fns for all date handling.\n\n## Consequences\n\nSmall imports and immutable dates.\n`;

/** The record and the code that disagrees with it, committed (code usage reads tracked files). */
function commitDisagreement(ws: string): void {
  writeFileSync(join(ws, "docs", "adr", RECORD_FILE), RECORD);
  mkdirSync(join(ws, "src", "reports"), { recursive: true });
  for (let i = 0; i < 5; i++) writeFileSync(join(ws, "src", "reports", `report${i}.ts`), `import moment from "moment";\nexport const stamp${i} = () => moment().format("YYYY-MM-DD");\n`);
  const git = (...args: string[]) => execFileSync("git", ["-c", "user.name=e2e", "-c", "user.email=e2e@example.invalid", "-c", "core.hooksPath=/dev/null", ...args], { cwd: ws, stdio: "ignore" });
  git("add", "--", join("docs", "adr", RECORD_FILE), join("src", "reports"));
  git("commit", "-q", "-m", "Add date-fns record and the report modules", "--", join("docs", "adr", RECORD_FILE), join("src", "reports"));
}

async function objectionsShown(ctx: E2EContext): Promise<void> {
  const { page, frame, ws } = workbench(ctx);
  commitDisagreement(ws);
  // Earlier steps leave pickers open; with two webviews on the page the picker frame is ambiguous.
  await showExplorer(page);
  await runCommand(page, "View: Close All Editors");
  await page.locator("iframe.webview.ready").first().waitFor({ state: "detached", timeout: 10_000 }).catch(() => undefined);
  await runCommandWithInput(page, "Deliberative Search: Deliberate on a Question…", QUESTION);
  await frame.locator("#question", { hasText: QUESTION }).waitFor({ state: "visible", timeout: 60_000 });
  const section = frame.locator("#objections");
  await section.waitFor({ state: "visible", timeout: 20_000 });
  const heading = (await section.locator("h2").textContent()) ?? "";
  assert(/^Objections \(\d+\)$/.test(heading.trim()), `heading: ${heading}`);
  const blocking = section.locator("li.objection.blocking").first();
  const text = (await blocking.locator(".objection-text").textContent()) ?? "";
  // Which check blocks first depends on the synthesizer; either way the blocking objection names the deciding record.
  assert(text.includes(RECORD_TITLE), `blocking objection: ${text}`);
  // The rules synthesizer offers moment and date-fns, and the Critic's "code disagrees" check blocks; the fake model
  // answers off the question, and the steering check blocks instead (its cap is the step it takes).
  const texts = await section.locator("li.objection.blocking .objection-text").allTextContents();
  const codeDisagrees = texts.some((t) => /^Code disagrees: .*chose "date-fns", but the code mostly uses moment \(moment: 5 files/.test(t));
  const steered = texts.some((t) => t.startsWith(`The recommendation goes against ${RECORD_TITLE}`));
  assert(codeDisagrees || steered, `blocking objections: ${texts.join(" | ")}`);
  // The danger colour: the blocking objection's text is not the body's foreground colour.
  const colours = await blocking.locator(".objection-text").evaluate((el) => {
    const view = el.ownerDocument.defaultView!;
    return { text: view.getComputedStyle(el).color, body: view.getComputedStyle(el.ownerDocument.body).color };
  });
  assert(colours.text !== colours.body, `objection text has the body colour ${colours.body}`);
  const cite = blocking.locator(".objection-cites .cite").first();
  const title = (await cite.getAttribute("title")) ?? "";
  assert(title.includes(RECORD_FILE), `objection citation: ${title}`);
  // The recommendation says the Critic lowered it, or (the model's answer) that it goes against the record.
  const rec = (await frame.locator("#recommendation").textContent()) ?? "";
  const said = codeDisagrees ? /The Critic objects: Code disagrees/ : /The model recommends .* but that record chose "date-fns"/;
  assert(said.test(rec), `recommendation: ${rec.slice(0, 400)}`);
  log(`     ${heading.trim()} (${codeDisagrees ? "rules" : "model"} synthesis): ${text.slice(0, 100)}…`);
  await section.scrollIntoViewIfNeeded();
  await page.waitForTimeout(300);
  await screenshot(page, "objections.png");
  await cite.click();
  await page.locator(".tabs-container .tab.active", { hasText: RECORD_FILE }).first().waitFor({ timeout: 15_000 });
}

export const objectionsSteps: Step[] = [{ name: "the picker shows the Critic's Objections section, blocking first, with its citation", run: objectionsShown }];
