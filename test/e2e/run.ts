// End-to-end test in a real VS Code 1.100, offline: code-server 4.100.3 serves the workbench to Debian's Chromium,
// driven by playwright-core. It packages the extension (vsce), installs the .vsix, opens a generated sample repo,
// runs "Deliberate on Selection" on the TODO(decide) comment of src/orders.ts, checks the picker (recommendation,
// citations, evidence matrix), clicks a citation (the editor shows the cited lines), picks an option, and asserts
// the receipt on disk (operator_pick + valid signature), the sidebar and the CodeLens; then the model path with its
// egress consent, and at the end the decision guard (a diagnostic, its hover and quick fixes). Screenshots land in
// test-results/. Servers and the browser are stopped on success and on failure; the whole run is time-bounded.
//
// The run is a list of named steps (steps/*.ts) over one context (workbench.ts). Each step does its own setup
// from what earlier steps left in the context; the first failure stops the run, since later steps build on it.
//
// usage: npm run test:e2e        env: E2E_CACHE (code-server cache), E2E_SKIP_PACKAGE=1, E2E_KEEP=1 (keep temp dir),
//                                     E2E_TIMEOUT_MS (default 480000), CHROMIUM_PATH (default /usr/bin/chromium)
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { adrExportSteps } from "./steps/adrExport";
import { agentSteps } from "./steps/agent";
import { guardSteps } from "./steps/guard";
import { learningSteps } from "./steps/learning";
import { mcpSteps } from "./steps/mcp";
import { objectionsSteps } from "./steps/objections";
import { modelSteps } from "./steps/model";
import { multiRootSteps } from "./steps/multiRoot";
import { pickerSteps } from "./steps/picker";
import { protocolSteps } from "./steps/protocol";
import { setupSteps } from "./steps/setup";
import { staleSteps } from "./steps/stale";
import { RESULTS, createContext, elapsed, log, type E2EContext, type Step } from "./workbench";

// 54 steps: 48 took 380-445 s on this shared 2-core machine under load ~11-17; the multi-root steps add about a minute.
const TIMEOUT_MS = Number(process.env.E2E_TIMEOUT_MS || 600_000);
// The guard's steps run in the sample workspace the earlier steps opened; the multi-root steps open their own.
const STEPS: Step[] = [...setupSteps, ...pickerSteps, ...learningSteps, ...modelSteps, ...agentSteps, ...protocolSteps, ...adrExportSteps, ...staleSteps, ...mcpSteps, ...objectionsSteps, ...guardSteps, ...multiRootSteps];

const tally = { passed: 0, failed: 0, notRun: 0 };
const summary = () => `e2e: ${tally.passed} passed, ${tally.failed} failed${tally.notRun ? `, ${tally.notRun} not run` : ""}`;

async function stopCodeServer(ctx: E2EContext): Promise<void> {
  const server = ctx.server;
  if (!server?.pid || server.exitCode !== null) return;
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

async function cleanup(ctx: E2EContext): Promise<void> {
  try {
    await ctx.browser?.close();
  } catch {
    /* already gone */
  }
  try {
    await ctx.fakeModel?.close();
  } catch {
    /* already closed */
  }
  await stopCodeServer(ctx);
  if (!process.env.E2E_KEEP) rmSync(ctx.dirs.tmp, { recursive: true, force: true });
  else log(`kept ${ctx.dirs.tmp}`);
}

async function saveFailureScreenshot(ctx: E2EContext): Promise<void> {
  try {
    const pages = ctx.browser?.contexts().flatMap((c) => c.pages()) ?? [];
    if (pages[0]) await pages[0].screenshot({ path: join(RESULTS, "failure.png") });
    log("failure screenshot: test-results/failure.png; server log: test-results/e2e-code-server.log");
  } catch {
    /* best effort */
  }
}

/** Runs the steps in order and stops at the first failure: the steps after it build on what it should have done. */
async function runSteps(ctx: E2EContext, steps: Step[]): Promise<void> {
  for (const [i, step] of steps.entries()) {
    const t = Date.now();
    try {
      await step.run(ctx);
      log(`ok   ${step.name} (${Date.now() - t} ms)`);
      tally.passed++;
    } catch (err) {
      log(`FAIL ${step.name}: ${(err as Error).message.split("\n").slice(0, 6).join("\n")}`);
      tally.failed++;
      tally.notRun = steps.length - i - 1;
      if (tally.notRun) log(`not run: ${steps.slice(i + 1).map((s) => s.name).join("; ")}`);
      throw err;
    }
  }
}

function reportConsoleProblems(ctx: E2EContext): void {
  const csp = ctx.consoleProblems.filter((t) => /webview|vscode-cdn|vscode-resource|active-frame/i.test(t) || /Refused to/i.test(t));
  if (csp.length) log(`console CSP reports (${csp.length}):\n  ${csp.slice(0, 10).join("\n  ")}`);
}

async function main(): Promise<void> {
  mkdirSync(RESULTS, { recursive: true });
  rmSync(join(RESULTS, "failure.png"), { force: true });
  const ctx = createContext();
  const watchdog = setTimeout(() => {
    console.error(`e2e: timed out after ${TIMEOUT_MS} ms`);
    tally.failed++;
    void cleanup(ctx).finally(() => {
      console.log(summary());
      process.exit(1);
    });
  }, TIMEOUT_MS);
  try {
    await runSteps(ctx, STEPS);
    reportConsoleProblems(ctx);
  } catch (err) {
    console.error(err instanceof Error ? err.stack : err);
    await saveFailureScreenshot(ctx);
  } finally {
    clearTimeout(watchdog);
    await cleanup(ctx);
    log(`duration ${elapsed()}`);
    console.log(summary());
    process.exit(tally.failed ? 1 : 0);
  }
}

void main();
