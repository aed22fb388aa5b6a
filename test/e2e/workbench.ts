// What every end-to-end step shares: where things live, the context the steps pass along, and the few ways of
// driving the VS Code workbench (palette, quick open, side bar, the picker's webview) that the steps repeat.
import type { ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Browser, FrameLocator, Page } from "playwright-core";
import type { FakeOpenAI } from "../helpers/fakeOpenAI";

export const ROOT = resolve(import.meta.dirname, "../..");
export const RESULTS = join(ROOT, "test-results");
export const CACHE = process.env.E2E_CACHE || join(homedir(), ".cache", "deliberative-search-e2e");
export const CS_ENTRY = join(CACHE, "code-server", "node_modules", "code-server", "out", "node", "entry.js");
export const CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
export const VSIX = join(ROOT, "deliberative-search.vsix");
/** The question of the TODO(decide) comment in the sample repository's src/orders.ts. */
export const QUESTION = "should we use Redux or Zustand for the cart state?";

const started = Date.now();
export const elapsed = () => `${((Date.now() - started) / 1000).toFixed(1)}s`;
export const log = (m: string) => console.log(`[e2e ${elapsed()}] ${m}`);

export function assert(cond: unknown, message: string): asserts cond {
  if (!cond) throw new Error(message);
}

/** Folders of one run, all under one temp dir, so nothing of the user's own VS Code or caches is touched. */
export interface RunDirs {
  tmp: string;
  userData: string;
  extensions: string;
  /** code-server's config.yaml. */
  config: string;
  xdg: string;
}

/**
 * What the steps pass along. Each step sets what later steps read; a step that runs without what it needs fails
 * with the name of the missing piece (see `need`).
 */
export interface E2EContext {
  dirs: RunDirs;
  /** code-server's and Chromium's environment: XDG folders inside the run's temp dir. */
  env: NodeJS.ProcessEnv;
  /** The folder arguments every code-server invocation takes. */
  codeServerDirs: string[];
  /** Content-Security-Policy complaints seen on the console, reported at the end. */
  consoleProblems: string[];
  ws?: string;
  /** 1-based line of the TODO(decide) comment in src/orders.ts. */
  ordersLine?: number;
  port?: number;
  server?: ChildProcess;
  browser?: Browser;
  page?: Page;
  /** The option the picker recommended on the first deliberation. */
  recommended?: string;
  fakeModel?: FakeOpenAI;
}

export interface Step {
  name: string;
  run(ctx: E2EContext): Promise<void>;
}

export function createContext(): E2EContext {
  const tmp = mkdtempSync(join(tmpdir(), "delib-e2e-"));
  const dirs: RunDirs = { tmp, userData: join(tmp, "user-data"), extensions: join(tmp, "extensions"), config: join(tmp, "config.yaml"), xdg: join(tmp, "xdg") };
  for (const d of [dirs.userData, dirs.extensions, join(dirs.xdg, "config"), join(dirs.xdg, "data"), join(dirs.xdg, "cache")]) mkdirSync(d, { recursive: true });
  mkdirSync(join(dirs.userData, "User"), { recursive: true });
  return {
    dirs,
    env: { ...process.env, XDG_CONFIG_HOME: join(dirs.xdg, "config"), XDG_DATA_HOME: join(dirs.xdg, "data"), XDG_CACHE_HOME: join(dirs.xdg, "cache") },
    codeServerDirs: ["--user-data-dir", dirs.userData, "--extensions-dir", dirs.extensions, "--config", dirs.config],
    consoleProblems: [],
  };
}

export function need<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`${what} is missing: the step that provides it did not run`);
  return value;
}

/** The open workbench: its page, the picker's webview frame and the workspace folder. */
export function workbench(ctx: E2EContext): { page: Page; frame: FrameLocator; ws: string } {
  const page = need(ctx.page, "the workbench page");
  return { page, frame: pickerFrame(page), ws: need(ctx.ws, "the sample workspace") };
}

export function fakeModelOf(ctx: E2EContext): FakeOpenAI {
  return need(ctx.fakeModel, "the fake model endpoint");
}

export function userSettingsFile(ctx: E2EContext): string {
  return join(ctx.dirs.userData, "User", "settings.json");
}

export function screenshot(page: Page, name: string): Promise<Buffer> {
  return page.screenshot({ path: join(RESULTS, name) });
}

/** Runs a command from the palette, retrying while the extension's contributions are still loading. */
export async function runCommand(page: Page, title: string): Promise<void> {
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

/** The command input boxes' prompts, so a wait can tell the command's own box from the palette that opened it. */
const INPUT_PROMPTS: Record<string, string> = {
  "Deliberative Search: Deliberate on a Question…": "An open design question.",
  "Deliberative Search: Preview Egress": "The question to preview.",
};

/** Runs a command that asks for text in the quick input, and answers it. */
export async function runCommandWithInput(page: Page, title: string, text: string): Promise<void> {
  await runCommand(page, title);
  const prompt = INPUT_PROMPTS[title];
  if (!prompt) throw new Error(`no known input prompt for "${title}"`);
  // The palette's input stays on screen (with ">title", then cleared) until the command's input box replaces it; on a
  // slow activation (after a window reload) an answer typed too early landed in the closing palette and the command's
  // box then waited for ever. Wait for the box that shows the command's own prompt.
  const widget = page.locator(".quick-input-widget", { hasText: prompt });
  await widget.waitFor({ state: "visible", timeout: 30_000 });
  const input = widget.locator(".quick-input-box input");
  const until = Date.now() + 30_000;
  while ((await input.inputValue().catch(() => ">")).startsWith(">")) {
    if (Date.now() > until) throw new Error(`the input box of "${title}" never replaced the command palette`);
    await page.waitForTimeout(150);
  }
  await input.fill(text);
  await page.keyboard.press("Enter");
  await widget.waitFor({ state: "hidden", timeout: 10_000 }).catch(() => {
    throw new Error(`the input box of "${title}" did not take the answer`);
  });
}

export async function openFile(page: Page, name: string): Promise<void> {
  await page.keyboard.press("Control+P");
  const input = page.locator(".quick-input-widget .quick-input-box input");
  await input.waitFor({ state: "visible", timeout: 10_000 });
  await input.fill(name);
  const row = page.locator(".quick-input-widget .monaco-list-row", { has: page.locator(".label-name", { hasText: new RegExp(`^${name.replace(/\./g, "\\.")}$`) }) }).first();
  await row.waitFor({ state: "visible", timeout: 10_000 });
  await row.click();
  await page.locator(`.tabs-container .tab.active`, { hasText: name }).waitFor({ state: "visible", timeout: 10_000 });
}

/** Puts the cursor on `line` of the open editor (Ctrl+G) and waits until the status bar shows it there. */
export async function goToLine(page: Page, line: number): Promise<void> {
  await page.keyboard.press("Control+G");
  const input = page.locator(".quick-input-widget .quick-input-box input");
  await input.waitFor({ state: "visible" });
  await input.fill(`:${line}`);
  await page.keyboard.press("Enter");
  await page.locator(".statusbar-item", { hasText: `Ln ${line},` }).first().waitFor({ timeout: 10_000 });
}

/** Opens the receipt of `question` in the picker through "Open Receipt". */
export async function openReceipt(page: Page, question: string): Promise<void> {
  await runCommand(page, "Deliberative Search: Open Receipt");
  await page.locator(".quick-input-widget .monaco-list-row", { hasText: question }).first().waitFor({ timeout: 10_000 });
  await page.keyboard.press("Enter");
}

/** Waits until the workbench of a freshly loaded page shows the workspace and the extension's contributions. */
export async function waitForWorkbench(page: Page, opts: { explorer: boolean }): Promise<void> {
  await page.locator(".monaco-workbench").waitFor({ state: "visible", timeout: 60_000 });
  if (opts.explorer) {
    // A reloaded window restores its side bar as it was left; twice in a row (load ~6) it came back from the agent
    // step's reload with the Explorer closed, likely showExplorer's two clicks racing the toggle. Open it, not wait.
    const link = page.locator('.activitybar .action-item a[aria-label^="Explorer"]');
    await link.waitFor({ state: "visible", timeout: 60_000 });
    await page.waitForTimeout(500);
    if (!(await link.evaluate((a) => a.closest(".action-item")?.classList.contains("checked") ?? false))) await link.click();
    await page.locator(".explorer-folders-view .monaco-list-row").first().waitFor({ state: "visible", timeout: 60_000 });
  }
  // The extension's activity-bar entry means its contributions are registered.
  await page.locator('.activitybar .action-item a[aria-label^="Deliberations"]').waitFor({ state: "visible", timeout: 60_000 });
}

/** Shows the Deliberations side bar (clicking its icon while it is showing would hide it). */
export async function showDeliberations(page: Page): Promise<void> {
  if ((await page.locator('.activitybar .action-item.checked a[aria-label^="Deliberations"]').count()) === 0) {
    await page.locator('.activitybar .action-item a[aria-label^="Deliberations"]').click();
  }
}

export async function showExplorer(page: Page): Promise<void> {
  const link = page.locator('.activitybar .action-item a[aria-label^="Explorer"]');
  // The activity bar toggles: a click on an Explorer that is already open closes it and leaves the focus where it
  // was (in a picker webview, where the palette's F1 does not reach the workbench). Close it first, then open it.
  const open = await link.evaluate((a) => a.closest(".action-item")?.classList.contains("checked") ?? false);
  if (open) await link.click();
  await link.click();
}

/** Reloads the window (it then reads edited settings and newly installed extensions) and waits for the workbench. */
export async function reloadWindow(page: Page): Promise<void> {
  // Focus the workbench first: a picker webview may have it.
  await showExplorer(page);
  await runCommand(page, "View: Close All Editors");
  const reloaded = page.waitForEvent("load", { timeout: 60_000 });
  await runCommand(page, "Developer: Reload Window");
  await reloaded;
  await waitForWorkbench(page, { explorer: true });
}

export function pickerFrame(page: Page): FrameLocator {
  return page.frameLocator("iframe.webview.ready").frameLocator("iframe#active-frame");
}

export async function waitUntil(what: string, cond: () => boolean, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export function receiptFiles(ws: string): string[] {
  const dir = join(ws, ".deliberations");
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((n) => n.endsWith(".json"))
    .map((n) => join(dir, n));
}
