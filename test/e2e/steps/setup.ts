// Setting the stage: code-server and Chromium, the packaged extension, isolated user settings, the sample
// repository, a running code-server with the .vsix installed, and a browser showing the workspace.
import { execFileSync, spawn } from "node:child_process";
import { createWriteStream, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { createSampleRepo } from "../../fixtures/sampleRepo";
import { CHROMIUM, CS_ENTRY, CACHE, RESULTS, ROOT, VSIX, assert, log, need, userSettingsFile, waitForWorkbench, type E2EContext, type Step } from "../workbench";

const USER_SETTINGS = {
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
};

const CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"];

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

async function waitForHealth(ctx: E2EContext, port: number, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (ctx.server?.exitCode != null) throw new Error(`code-server exited with ${ctx.server.exitCode} (see test-results/e2e-code-server.log)`);
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

async function startCodeServer(ctx: E2EContext): Promise<void> {
  const ws = need(ctx.ws, "the sample workspace");
  const port = await freePort();
  const logFile = createWriteStream(join(RESULTS, "e2e-code-server.log"));
  const args = ["--bind-addr", `127.0.0.1:${port}`, "--auth", "none", "--disable-telemetry", "--disable-update-check", "--disable-workspace-trust", "--disable-getting-started-override"];
  // Its own process group (detached), so cleanup can stop code-server and its extension host together.
  ctx.server = spawn("node", [CS_ENTRY, ...args, ...ctx.codeServerDirs, ws], { env: ctx.env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  ctx.server.stdout!.pipe(logFile);
  ctx.server.stderr!.pipe(logFile);
  ctx.port = port;
  await waitForHealth(ctx, port, 30_000);
}

async function launchBrowser(ctx: E2EContext): Promise<void> {
  const port = need(ctx.port, "code-server's port");
  ctx.browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, env: { ...ctx.env }, args: CHROMIUM_ARGS });
  const context = await ctx.browser.newContext({ viewport: { width: 1440, height: 900 }, deviceScaleFactor: 1 });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: `http://127.0.0.1:${port}` });
  const page = await context.newPage();
  page.on("console", (m) => {
    const text = m.text();
    if (/Content Security Policy|Refused to/i.test(text)) ctx.consoleProblems.push(text.slice(0, 300));
  });
  ctx.page = page;
}

export const setupSteps: Step[] = [
  {
    name: "install code-server 4.100.3 + chromium (cached)",
    run: async () => {
      if (!existsSync(CS_ENTRY) || !existsSync(CHROMIUM)) {
        execFileSync("sh", [join(ROOT, "scripts", "e2e-install.sh")], { stdio: "inherit", env: { ...process.env, E2E_CACHE: CACHE } });
      }
      assert(existsSync(CS_ENTRY), `code-server is missing at ${CS_ENTRY}`);
      assert(existsSync(CHROMIUM), `chromium is missing at ${CHROMIUM}`);
    },
  },
  {
    name: "package the extension with vsce",
    run: async () => {
      if (!process.env.E2E_SKIP_PACKAGE || !existsSync(VSIX)) {
        execFileSync("npm", ["run", "--silent", "package"], { cwd: ROOT, stdio: ["ignore", "ignore", "inherit"] });
      }
      assert(existsSync(VSIX), "no .vsix was produced");
      log(`     ${VSIX} (${(readFileSync(VSIX).length / 1024).toFixed(1)} KB)`);
    },
  },
  {
    name: "write the user settings (dark theme, no telemetry, no trust prompt, no updates)",
    run: async (ctx) => writeFileSync(userSettingsFile(ctx), JSON.stringify(USER_SETTINGS, null, 2)),
  },
  {
    name: "generate the sample repository",
    run: async (ctx) => {
      const dir = join(ctx.dirs.tmp, "acme-shop");
      mkdirSync(dir, { recursive: true });
      ctx.ws = createSampleRepo(dir);
      ctx.ordersLine = readFileSync(join(ctx.ws, "src", "orders.ts"), "utf8").split("\n").findIndex((l) => l.includes("TODO(decide)")) + 1;
      assert(ctx.ordersLine > 0, "sample repo has no TODO(decide) line");
    },
  },
  {
    name: "install the .vsix into code-server",
    run: async (ctx) => {
      const out = execFileSync("node", [CS_ENTRY, ...ctx.codeServerDirs, "--install-extension", VSIX], { env: ctx.env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
      assert(/successfully installed|already installed/i.test(out), `install said: ${out}`);
    },
  },
  { name: "start code-server", run: startCodeServer },
  { name: "launch Chromium", run: launchBrowser },
  {
    name: "open the workspace in VS Code",
    run: async (ctx) => {
      const page = need(ctx.page, "the browser page");
      await page.goto(`http://127.0.0.1:${need(ctx.port, "code-server's port")}/?folder=${encodeURIComponent(need(ctx.ws, "the sample workspace"))}`);
      await waitForWorkbench(page, { explorer: true });
    },
  },
];
