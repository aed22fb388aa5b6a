// End-to-end test in a real VS Code 1.100, offline: code-server 4.100.3 serves the workbench to Debian's Chromium,
// driven by playwright-core. It packages the extension (vsce), installs the .vsix, opens a generated sample repo,
// runs "Deliberate on Selection" on the TODO(decide) comment of src/orders.ts, checks the picker (recommendation,
// citations, evidence matrix), clicks a citation (the editor shows the cited lines), picks an option, and asserts
// the receipt on disk (operator_pick + valid signature), the sidebar and the CodeLens. Screenshots land in
// test-results/. Servers and the browser are stopped on success and on failure; the whole run is time-bounded.
//
// usage: npm run test:e2e        env: E2E_CACHE (code-server cache), E2E_SKIP_PACKAGE=1, E2E_KEEP=1 (keep temp dir),
//                                     E2E_TIMEOUT_MS (default 300000), CHROMIUM_PATH (default /usr/bin/chromium)
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { homedir, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { chromium, type Browser, type FrameLocator, type Page } from "playwright-core";
import { verifyReceiptSignature } from "../../src/core/receipts/signing";
import { createSampleRepo } from "../fixtures/sampleRepo";
import { completion, purposeOf, sentEvidenceIds, startFakeOpenAI, type FakeOpenAI, type RecordedRequest } from "../helpers/fakeOpenAI";

const ROOT = resolve(import.meta.dirname, "../..");
const RESULTS = join(ROOT, "test-results");
const CACHE = process.env.E2E_CACHE || join(homedir(), ".cache", "deliberative-search-e2e");
const CS_ENTRY = join(CACHE, "code-server", "node_modules", "code-server", "out", "node", "entry.js");
const CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
const TIMEOUT_MS = Number(process.env.E2E_TIMEOUT_MS || 300_000);
const VSIX = join(ROOT, "deliberative-search.vsix");
const QUESTION = "should we use Redux or Zustand for the cart state?";

const started = Date.now();
const elapsed = () => `${((Date.now() - started) / 1000).toFixed(1)}s`;
const log = (m: string) => console.log(`[e2e ${elapsed()}] ${m}`);

let server: ChildProcess | undefined;
let browser: Browser | undefined;
let fakeModel: FakeOpenAI | undefined;
let tmp: string | undefined;
let passed = 0;
let failed = 0;
const consoleProblems: string[] = [];

async function cleanup(): Promise<void> {
  try {
    await browser?.close();
  } catch {
    /* already gone */
  }
  try {
    await fakeModel?.close();
  } catch {
    /* already closed */
  }
  if (server?.pid && server.exitCode === null) {
    try {
      process.kill(-server.pid, "SIGTERM"); // its own process group: code-server and its extension host
    } catch {
      /* gone */
    }
    await new Promise((r) => setTimeout(r, 500));
    try {
      process.kill(-server.pid, "SIGKILL");
    } catch {
      /* gone */
    }
  }
  if (tmp && !process.env.E2E_KEEP) rmSync(tmp, { recursive: true, force: true });
  else if (tmp) log(`kept ${tmp}`);
}

const watchdog = setTimeout(() => {
  console.error(`e2e: timed out after ${TIMEOUT_MS} ms`);
  failed++;
  void cleanup().finally(() => {
    console.log(`e2e: ${passed} passed, ${failed} failed`);
    process.exit(1);
  });
}, TIMEOUT_MS);

function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.once("error", rej);
    srv.listen(0, "127.0.0.1", () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => res(port));
    });
  });
}

async function waitForHealth(port: number, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (server?.exitCode != null) throw new Error(`code-server exited with ${server.exitCode} (see test-results/e2e-code-server.log)`);
    try {
      const r = await fetch(`http://127.0.0.1:${port}/healthz`);
      if (r.ok) return;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error("code-server did not become healthy");
}

async function step<T>(name: string, fn: () => Promise<T>): Promise<T> {
  const t = Date.now();
  try {
    const out = await fn();
    log(`ok   ${name} (${Date.now() - t} ms)`);
    return out;
  } catch (err) {
    log(`FAIL ${name}: ${(err as Error).message.split("\n").slice(0, 6).join("\n")}`);
    throw err;
  }
}

function assert(cond: unknown, message: string): asserts cond {
  if (!cond) throw new Error(message);
}

/** Runs a command from the palette, retrying while the extension's contributions are still loading. */
async function runCommand(page: Page, title: string): Promise<void> {
  for (let attempt = 0; attempt < 6; attempt++) {
    await page.keyboard.press("F1");
    const input = page.locator(".quick-input-widget .quick-input-box input");
    await input.waitFor({ state: "visible", timeout: 10_000 });
    await input.fill(`>${title}`);
    const row = page.locator(".quick-input-widget .monaco-list-row", { hasText: title }).first();
    try {
      await row.waitFor({ state: "visible", timeout: 4_000 });
      await page.keyboard.press("Enter");
      return;
    } catch {
      await page.keyboard.press("Escape");
      await page.waitForTimeout(1000);
    }
  }
  throw new Error(`command "${title}" not found in the palette`);
}

async function openFile(page: Page, name: string): Promise<void> {
  await page.keyboard.press("Control+P");
  const input = page.locator(".quick-input-widget .quick-input-box input");
  await input.waitFor({ state: "visible", timeout: 10_000 });
  await input.fill(name);
  const row = page.locator(".quick-input-widget .monaco-list-row", { has: page.locator(".label-name", { hasText: new RegExp(`^${name.replace(/\./g, "\\.")}$`) }) }).first();
  await row.waitFor({ state: "visible", timeout: 10_000 });
  await row.click();
  await page.locator(`.tabs-container .tab.active`, { hasText: name }).waitFor({ state: "visible", timeout: 10_000 });
}

/** Shows the Deliberations side bar (clicking its icon while it is showing would hide it). */
async function showDeliberations(page: Page): Promise<void> {
  if ((await page.locator('.activitybar .action-item.checked a[aria-label^="Deliberations"]').count()) === 0) {
    await page.locator('.activitybar .action-item a[aria-label^="Deliberations"]').click();
  }
}

function pickerFrame(page: Page): FrameLocator {
  return page.frameLocator("iframe.webview.ready").frameLocator("iframe#active-frame");
}

async function waitUntil(what: string, cond: () => boolean, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

function receiptFiles(ws: string): string[] {
  const dir = join(ws, ".deliberations");
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((n) => n.endsWith(".json"))
    .map((n) => join(dir, n));
}

async function main(): Promise<void> {
  mkdirSync(RESULTS, { recursive: true });
  rmSync(join(RESULTS, "failure.png"), { force: true });

  await step("install code-server 4.100.3 + chromium (cached)", async () => {
    if (!existsSync(CS_ENTRY) || !existsSync(CHROMIUM)) {
      execFileSync("sh", [join(ROOT, "scripts", "e2e-install.sh")], { stdio: "inherit", env: { ...process.env, E2E_CACHE: CACHE } });
    }
    assert(existsSync(CS_ENTRY), `code-server is missing at ${CS_ENTRY}`);
    assert(existsSync(CHROMIUM), `chromium is missing at ${CHROMIUM}`);
  });

  await step("package the extension with vsce", async () => {
    if (!process.env.E2E_SKIP_PACKAGE || !existsSync(VSIX)) {
      execFileSync("npm", ["run", "--silent", "package"], { cwd: ROOT, stdio: ["ignore", "ignore", "inherit"] });
    }
    assert(existsSync(VSIX), "no .vsix was produced");
    log(`     ${VSIX} (${(readFileSync(VSIX).length / 1024).toFixed(1)} KB)`);
  });

  tmp = mkdtempSync(join(tmpdir(), "delib-e2e-"));
  const dirs = {
    userData: join(tmp, "user-data"),
    extensions: join(tmp, "extensions"),
    config: join(tmp, "config.yaml"),
    xdg: join(tmp, "xdg"),
  };
  for (const d of [dirs.userData, dirs.extensions, join(dirs.xdg, "config"), join(dirs.xdg, "data"), join(dirs.xdg, "cache")]) mkdirSync(d, { recursive: true });
  mkdirSync(join(dirs.userData, "User"), { recursive: true });
  writeFileSync(
    join(dirs.userData, "User", "settings.json"),
    JSON.stringify(
      {
        "workbench.startupEditor": "none",
        "workbench.colorTheme": "Default Dark Modern",
        "workbench.tips.enabled": false,
        "workbench.enableExperiments": false,
        "telemetry.telemetryLevel": "off",
        "extensions.autoUpdate": false,
        "extensions.autoCheckUpdates": false,
        "editor.codeLens": true,
        "editor.minimap.enabled": false,
        "security.workspace.trust.enabled": false,
        "git.openRepositoryInParentFolders": "never",
        "chat.commandCenter.enabled": false,
        "window.commandCenter": false,
        "update.mode": "none",
      },
      null,
      2,
    ),
  );
  const env = {
    ...process.env,
    XDG_CONFIG_HOME: join(dirs.xdg, "config"),
    XDG_DATA_HOME: join(dirs.xdg, "data"),
    XDG_CACHE_HOME: join(dirs.xdg, "cache"),
  };
  const csDirs = ["--user-data-dir", dirs.userData, "--extensions-dir", dirs.extensions, "--config", dirs.config];

  const ws = await step("generate the sample repository", async () => {
    const dir = join(tmp!, "acme-shop");
    mkdirSync(dir, { recursive: true });
    return createSampleRepo(dir);
  });
  const ordersLine = readFileSync(join(ws, "src", "orders.ts"), "utf8").split("\n").findIndex((l) => l.includes("TODO(decide)")) + 1;
  assert(ordersLine > 0, "sample repo has no TODO(decide) line");

  await step("install the .vsix into code-server", async () => {
    const out = execFileSync("node", [CS_ENTRY, ...csDirs, "--install-extension", VSIX], { env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
    assert(/successfully installed|already installed/i.test(out), `install said: ${out}`);
  });

  const port = await freePort();
  await step("start code-server", async () => {
    const logFile = createWriteStream(join(RESULTS, "e2e-code-server.log"));
    server = spawn(
      "node",
      [
        CS_ENTRY,
        "--bind-addr",
        `127.0.0.1:${port}`,
        "--auth",
        "none",
        "--disable-telemetry",
        "--disable-update-check",
        "--disable-workspace-trust",
        "--disable-getting-started-override",
        ...csDirs,
        ws,
      ],
      { env, detached: true, stdio: ["ignore", "pipe", "pipe"] },
    );
    server.stdout!.pipe(logFile);
    server.stderr!.pipe(logFile);
    await waitForHealth(port, 30_000);
  });

  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    env: { ...env },
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"],
  });
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, deviceScaleFactor: 1 });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: `http://127.0.0.1:${port}` });
  const page = await context.newPage();
  page.on("console", (m) => {
    const text = m.text();
    if (/Content Security Policy|Refused to/i.test(text)) consoleProblems.push(text.slice(0, 300));
  });

  await step("open the workspace in VS Code", async () => {
    await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(ws)}`);
    await page.locator(".monaco-workbench").waitFor({ state: "visible", timeout: 60_000 });
    await page.locator(".explorer-folders-view .monaco-list-row").first().waitFor({ state: "visible", timeout: 60_000 });
    // The extension's activity-bar entry means its contributions are registered.
    await page.locator('.activitybar .action-item a[aria-label^="Deliberations"]').waitFor({ state: "visible", timeout: 60_000 });
  });

  await step('with no receipts, the sidebar shows its welcome view with "Deliberate on a Question…"', async () => {
    await showDeliberations(page);
    await page.locator(".welcome-view-content", { hasText: "No deliberations yet" }).waitFor({ state: "visible", timeout: 20_000 });
    await page.locator(".welcome-view-content .monaco-button", { hasText: "Deliberate on a Question" }).waitFor({ state: "visible" });
    await page.screenshot({ path: join(RESULTS, "sidebar-welcome.png") });
    await page.locator('.activitybar .action-item a[aria-label^="Explorer"]').click();
  });

  await step("open src/orders.ts and put the cursor on the TODO(decide) line", async () => {
    await openFile(page, "orders.ts");
    await page.locator(".monaco-editor .view-lines", { hasText: "TODO(decide)" }).first().waitFor({ timeout: 15_000 });
    await page.keyboard.press("Control+G");
    const input = page.locator(".quick-input-widget .quick-input-box input");
    await input.waitFor({ state: "visible" });
    await input.fill(`:${ordersLine}`);
    await page.keyboard.press("Enter");
    await page.locator(".statusbar-item", { hasText: `Ln ${ordersLine},` }).first().waitFor({ timeout: 10_000 });
  });

  await step('CodeLens "Deliberate" shows above the open-question comment', async () => {
    await page.locator(".monaco-editor .codelens-decoration a", { hasText: "Deliberate" }).first().waitFor({ timeout: 30_000 });
  });

  const frame = pickerFrame(page);
  await step('run "Deliberate on Selection" from the command palette; the picker opens', async () => {
    await runCommand(page, "Deliberative Search: Deliberate on Selection");
    await frame.locator("#recommendation").waitFor({ state: "visible", timeout: 60_000 });
  });

  const recommended = await step("the picker shows the question, the recommendation (Zustand) and citations", async () => {
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
    return id;
  });

  await step("screenshot: picker (top, and the evidence matrix)", async () => {
    await page.waitForTimeout(400);
    await page.screenshot({ path: join(RESULTS, "picker.png") });
    await frame.locator("#matrix").scrollIntoViewIfNeeded();
    await page.waitForTimeout(200);
    await page.screenshot({ path: join(RESULTS, "picker-matrix.png") });
    await frame.locator("body").evaluate((b) => b.ownerDocument.defaultView?.scrollTo(0, 0));
  });

  await step("clicking a citation opens the file with the cited lines selected", async () => {
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
    await page.screenshot({ path: join(RESULTS, "citation.png") });
  });

  await step("clicking a commit citation opens its diff", async () => {
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
  });

  await step("pick the recommended option; the panel shows the pick", async () => {
    await frame.locator(`article.card[data-option-id="${recommended}"] vscode-button.pick`).click();
    await frame.locator("#decided").waitFor({ state: "visible", timeout: 15_000 });
    const decided = (await frame.locator("#decided").textContent()) ?? "";
    assert(/Decided:/.test(decided) && /Zustand/.test(decided), `decided banner: ${decided}`);
    await frame.locator("body").evaluate((b) => b.ownerDocument.defaultView?.scrollTo(0, 0));
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(RESULTS, "picker-picked.png") });
  });

  await step("the receipt on disk carries operator_pick with a valid signature", async () => {
    const files = receiptFiles(ws);
    assert(files.length === 1, `expected one receipt, found ${files.length}`);
    const raw = JSON.parse(readFileSync(files[0]!, "utf8")) as Record<string, unknown> & { operator_pick?: { option_id: string; overrode_recommendation: boolean } | null; question: string };
    assert(raw.question === QUESTION, `receipt question ${raw.question}`);
    assert(raw.operator_pick && raw.operator_pick.option_id === recommended, `operator_pick: ${JSON.stringify(raw.operator_pick)}`);
    assert(raw.operator_pick.overrode_recommendation === false, "a pick of the recommendation must not count as an override");
    const sig = verifyReceiptSignature(raw);
    assert(sig.ok, `signature: ${sig.reason}`);
    log(`     ${files[0]} signature valid`);
  });

  await step("the sidebar lists the receipt as decided", async () => {
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
    await page.screenshot({ path: join(RESULTS, "sidebar.png") });
  });

  await step('the CodeLens changes to "Decided: Zustand"', async () => {
    await page.mouse.move(900, 10);
    await openFile(page, "orders.ts");
    const lens = page.locator(".monaco-editor .codelens-decoration a", { hasText: "Decided: Zustand" }).first();
    await lens.waitFor({ state: "visible", timeout: 20_000 });
    await page.screenshot({ path: join(RESULTS, "codelens.png") });
  });

  await step("narrow panel (300 px) stays readable", async () => {
    // Close the editors beside the picker and shrink the window so the picker is ~300 px wide.
    const narrow = await browser!.newContext({ viewport: { width: 348, height: 800 }, deviceScaleFactor: 1 });
    try {
      const p = await narrow.newPage();
      await p.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(ws)}`);
      await p.locator(".monaco-workbench").waitFor({ state: "visible", timeout: 60_000 });
      await p.locator('.activitybar .action-item a[aria-label^="Deliberations"]').waitFor({ state: "visible", timeout: 60_000 });
      await runCommand(p, "View: Close Primary Side Bar");
      await runCommand(p, "View: Close All Editors");
      await runCommand(p, "Deliberative Search: Open Receipt");
      await p.locator(".quick-input-widget .monaco-list-row", { hasText: QUESTION }).first().waitFor({ timeout: 10_000 });
      await p.keyboard.press("Enter");
      const f = pickerFrame(p);
      await f.locator("#decided").waitFor({ state: "visible", timeout: 30_000 });
      await p.waitForTimeout(300);
      await p.screenshot({ path: join(RESULTS, "picker-300px.png") });
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
  });

  await step("Override with reason records the other option, the reason and a valid signature", async () => {
    await page.mouse.move(900, 10);
    await runCommand(page, "Deliberative Search: Open Receipt");
    await page.locator(".quick-input-widget .monaco-list-row", { hasText: QUESTION }).first().waitFor({ timeout: 10_000 });
    await page.keyboard.press("Enter");
    await frame.locator("#override-toggle").waitFor({ state: "visible", timeout: 20_000 });
    await frame.locator("#override-toggle").click();
    await frame.locator("#override").waitFor({ state: "visible" });
    const reason = "The checkout team already ships Redux DevTools tooling.";
    await frame.locator("#override-reason textarea").fill(reason);
    await page.screenshot({ path: join(RESULTS, "override.png") });
    await frame.locator("#override-submit").click();
    await frame.locator("#decided.overrode").waitFor({ state: "visible", timeout: 15_000 });
    const raw = JSON.parse(readFileSync(receiptFiles(ws)[0]!, "utf8")) as Record<string, unknown> & { operator_pick: { option_id: string; reason?: string; overrode_recommendation: boolean } };
    assert(raw.operator_pick.overrode_recommendation === true && raw.operator_pick.option_id !== recommended, `operator_pick: ${JSON.stringify(raw.operator_pick)}`);
    assert(raw.operator_pick.reason === reason, `reason: ${raw.operator_pick.reason}`);
    assert(verifyReceiptSignature(raw).ok, "signature after override");
    await showDeliberations(page);
    await page.locator(".monaco-list-row", { hasText: "0 accepted · 1 overridden" }).first().waitFor({ state: "visible", timeout: 15_000 });
  });

  await step('a lookup question is refused with its confidence, and "Deliberate anyway" still deliberates', async () => {
    await runCommand(page, "Deliberative Search: Deliberate on a Question…");
    const input = page.locator(".quick-input-widget .quick-input-box input");
    await input.waitFor({ state: "visible" });
    await input.fill("where is cartTotal defined?");
    await page.keyboard.press("Enter");
    const toast = page.locator(".notifications-toasts .notification-toast", { hasText: "looks like a lookup" }).first();
    await toast.waitFor({ state: "visible", timeout: 20_000 });
    const text = (await toast.textContent()) ?? "";
    assert(/confidence \d\.\d\d/.test(text), `no confidence in: ${text}`);
    await page.waitForTimeout(600);
    await page.screenshot({ path: join(RESULTS, "abstain.png") });
    await toast.locator(".monaco-button", { hasText: "Deliberate anyway" }).click();
    await waitUntil("a second receipt", () => receiptFiles(ws).length === 2, 30_000);
  });

  // The model path: an OpenAI-compatible server on 127.0.0.1 whose plan answer is not JSON (so the plan falls back
  // to the rules plan, visibly) and whose synthesis cites the first records it was shown.
  const MODEL_Q = "Should we store the cart state in Redux or in Zustand?";
  const MODEL_NAME = "e2e-fake-model";
  const modelReply = (req: RecordedRequest) => {
    if (purposeOf(req) === "plan") return completion("Probably Zustand, but it depends.");
    const ids = sentEvidenceIds(req);
    return completion(
      JSON.stringify({
        options: [
          { id: "opt-zustand", title: "Zustand store", summary: "Keep the cart in a Zustand store, as the ADR decided.", supports: ids.slice(0, 2), dissent: [], tradeoffs: ["+ Least boilerplate."], cost: "low", risk: "low" },
          { id: "opt-redux", title: "Redux Toolkit", summary: "Use Redux Toolkit for its devtools.", supports: [], dissent: ids.slice(0, 1), tradeoffs: ["- Boilerplate."], cost: "med", risk: "med" },
        ],
        recommendation: { option_id: "opt-zustand", rationale: "The accepted ADR chose Zustand for cart state.", confidence: "med" },
      }),
    );
  };

  await step("with a model configured, the first model deliberation shows the egress preview; Allow sends it and the picker says so", async () => {
    fakeModel = await startFakeOpenAI(modelReply);
    const settingsFile = join(dirs.userData, "User", "settings.json");
    const userSettings = JSON.parse(readFileSync(settingsFile, "utf8")) as Record<string, unknown>;
    writeFileSync(
      settingsFile,
      JSON.stringify({ ...userSettings, "deliberativeSearch.model.provider": "openai", "deliberativeSearch.model.baseUrl": fakeModel.baseURL, "deliberativeSearch.model.name": MODEL_NAME }, null, 2),
    );
    // The settings file was edited behind the workbench's back: reload the window so it reads it. (Focus the
    // workbench first: the picker webview from the previous step has it.)
    await page.locator('.activitybar .action-item a[aria-label^="Explorer"]').click();
    await runCommand(page, "View: Close All Editors");
    const reloaded = page.waitForEvent("load", { timeout: 60_000 });
    await runCommand(page, "Developer: Reload Window");
    await reloaded;
    await page.locator(".monaco-workbench").waitFor({ state: "visible", timeout: 60_000 });
    await page.locator(".explorer-folders-view .monaco-list-row").first().waitFor({ state: "visible", timeout: 60_000 });
    await page.locator('.activitybar .action-item a[aria-label^="Deliberations"]').waitFor({ state: "visible", timeout: 60_000 });
    const before = receiptFiles(ws).length;
    await runCommand(page, "Deliberative Search: Deliberate on a Question…");
    const input = page.locator(".quick-input-widget .quick-input-box input");
    await input.waitFor({ state: "visible" });
    await input.fill(MODEL_Q);
    await page.keyboard.press("Enter");
    const dialog = page.locator(".monaco-dialog-box", { hasText: "Model egress preview" });
    await dialog.waitFor({ state: "visible", timeout: 30_000 });
    const text = (await dialog.textContent()) ?? "";
    assert(text.includes(fakeModel.host) && text.includes(MODEL_NAME), `the preview names the endpoint and model: ${text.slice(0, 300)}`);
    assert(/Call 1, plan/.test(text) && /Internal snippets/.test(text), `the preview lists the calls and snippets: ${text.slice(0, 400)}`);
    assert(fakeModel.chatCalls() === 0, "nothing is sent before consent");
    await page.screenshot({ path: join(RESULTS, "egress-preview.png") });
    await dialog.locator(".monaco-button", { hasText: /^Allow$/ }).click();
    await frame.locator("#synthesis-mode", { hasText: `model synthesis · ${MODEL_NAME}` }).waitFor({ state: "visible", timeout: 60_000 });
    const planReason = (await frame.locator("#plan-reason").textContent()) ?? "";
    assert(/invalid-json/.test(planReason), `the plan's fallback reason is shown: ${planReason}`);
    assert(fakeModel.chatCalls() === 2, `expected 2 model calls, got ${fakeModel.chatCalls()}`);
    assert(fakeModel.requests.map(purposeOf).join(",") === "plan,synthesis", "one plan call, one synthesis call");
    const files = receiptFiles(ws);
    assert(files.length === before + 1, `expected one new receipt, found ${files.length - before}`);
    const fresh = files.map((f) => JSON.parse(readFileSync(f, "utf8")) as Record<string, any>).find((r) => r.question === MODEL_Q);
    assert(fresh, "the model receipt is on disk");
    assert(fresh.synthesis.mode === "model" && fresh.synthesis.model === MODEL_NAME && fresh.synthesis.endpoint_host === fakeModel.host, `synthesis: ${JSON.stringify(fresh.synthesis)}`);
    assert(fresh.synthesis.calls?.length === 2 && /^invalid-json/.test(fresh.synthesis.calls[0].outcome), `calls: ${JSON.stringify(fresh.synthesis.calls)}`);
    assert(verifyReceiptSignature(fresh).ok, "the model receipt's signature");
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(RESULTS, "picker-model.png") });
  });

  await step("consent is remembered for the workspace: the next model deliberation asks nothing", async () => {
    const before = receiptFiles(ws).length;
    await page.mouse.move(900, 10);
    await runCommand(page, "Deliberative Search: Deliberate on a Question…");
    const input = page.locator(".quick-input-widget .quick-input-box input");
    await input.waitFor({ state: "visible" });
    await input.fill("Should we keep the cart state in Zustand or move it to React Context?");
    await page.keyboard.press("Enter");
    await waitUntil("a receipt from the second model deliberation", () => receiptFiles(ws).length === before + 1, 60_000);
    assert((await page.locator(".monaco-dialog-box").count()) === 0, "no consent dialog the second time");
    assert(fakeModel!.chatCalls() === 4, `expected 4 model calls in all, got ${fakeModel!.chatCalls()}`);
  });

  await step('"Preview Egress" opens a read-only preview that names the endpoint and the stored consent, sending nothing', async () => {
    const calls = fakeModel!.chatCalls();
    await page.locator('.activitybar .action-item a[aria-label^="Explorer"]').click();
    await runCommand(page, "Deliberative Search: Preview Egress");
    const input = page.locator(".quick-input-widget .quick-input-box input");
    await input.waitFor({ state: "visible" });
    await input.fill(MODEL_Q);
    await page.keyboard.press("Enter");
    await page.locator(".tabs-container .tab.active", { hasText: "Egress Preview" }).waitFor({ state: "visible", timeout: 30_000 });
    const lines = page.locator(".editor-group-container.active .monaco-editor .view-lines").first();
    await lines.filter({ hasText: "Consent: given" }).waitFor({ state: "visible", timeout: 10_000 });
    const text = ((await lines.textContent()) ?? "").replace(/\u00a0/g, " "); // the editor renders spaces as NBSP
    assert(text.includes(fakeModel!.host) && /nothing has been sent/.test(text), `preview: ${text.slice(0, 300)}`);
    assert(fakeModel!.chatCalls() === calls, "the preview made no model call");
  });

  await step("the host's message guard rejects malformed webview messages", async () => {
    const { parseWebviewMessage } = await import("../../src/shared/protocolSchemas");
    assert(parseWebviewMessage({ type: "request", id: "r1", method: "pick", params: { optionId: "x" } }).ok, "a valid pick is accepted");
    for (const bad of [
      { type: "request", method: "pick", params: { optionId: "x" } },
      { type: "request", id: "r1", method: "exec", params: {} },
      { type: "request", id: "r1", method: "openCitation", params: { citationId: "c", html: "<img>" } },
      "ready",
      null,
    ]) {
      assert(!parseWebviewMessage(bad).ok, `accepted a malformed message ${JSON.stringify(bad)}`);
    }
  });

  const csp = consoleProblems.filter((t) => /webview|vscode-cdn|vscode-resource|active-frame/i.test(t) || /Refused to/i.test(t));
  if (csp.length) log(`console CSP reports (${csp.length}):\n  ${csp.slice(0, 10).join("\n  ")}`);
}

main()
  .then(() => {
    passed++;
  })
  .catch(async (err) => {
    failed++;
    console.error(err instanceof Error ? err.stack : err);
    try {
      const pages = browser?.contexts().flatMap((c) => c.pages()) ?? [];
      if (pages[0]) await pages[0].screenshot({ path: join(RESULTS, "failure.png") });
      log("failure screenshot: test-results/failure.png; server log: test-results/e2e-code-server.log");
    } catch {
      /* best effort */
    }
  })
  .finally(async () => {
    clearTimeout(watchdog);
    await cleanup();
    log(`duration ${elapsed()}`);
    console.log(`e2e: ${passed} passed, ${failed} failed`);
    process.exit(failed ? 1 : 0);
  });
