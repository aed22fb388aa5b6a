// Measuring the shipped artefacts, each in fresh processes: the CLI per question, the extension's activation, the
// bundle sizes and the .vsix (packaged in a throwaway copy of the working tree, never touching ./dist).
import { copyFileSync, cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from "node:fs";
import { execFileSync } from "node:child_process";
import os from "node:os";
import { join } from "node:path";
import { repoDir, type BenchQuestion, type SizeName } from "./generate";
import { summariseCpuProfile } from "./profile";
import { ROOT } from "./paths";
import type { ActivationResult, BundleResult, CliResult, Report } from "./results";
import { dist, MB, round } from "./stats";

export const ACTIVATION_RUNS = 7;
export const CLI_QUESTIONS = 3;

export function measureActivation(extensionFile: string, runs = ACTIVATION_RUNS, profileDir?: string): ActivationResult {
  if (!existsSync(extensionFile)) return { file: extensionFile, runs: 0, error: "n/a (no bundle)" };
  const samples: { loadMs: number; activateMs: number; totalMs: number; commands: number }[] = [];
  for (let i = 0; i < runs; i++) {
    const prof = profileDir && i === runs - 1 ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : [];
    const out = execFileSync(process.execPath, [...prof, join(ROOT, "bench", "activation.cjs"), extensionFile], { cwd: ROOT, encoding: "utf8", timeout: 60_000 });
    const line = JSON.parse(out.trim().split("\n").pop() ?? "{}");
    if (line.error) return { file: extensionFile, runs: i, error: line.error };
    samples.push(line);
  }
  return {
    file: extensionFile,
    runs,
    loadMs: dist(samples.map((s) => s.loadMs)),
    activateMs: dist(samples.map((s) => s.activateMs)),
    totalMs: dist(samples.map((s) => s.totalMs)),
    commands: samples[0]?.commands,
  };
}

/**
 * The shipped CLI, one fresh process per question (as a user or an agent runs it): dist/cli.js --offline --no-cache
 * --json, with a preload that reports the process's peak RSS. Wall time includes Node start-up and bundle load.
 */
export function measureCli(size: SizeName, questions: BenchQuestion[]): CliResult {
  const cli = join(ROOT, "dist", "cli.js");
  if (!existsSync(cli)) return { runs: [], error: "n/a (no dist/cli.js)" };
  const dir = repoDir(size);
  const keyDir = mkdtempSync(join(os.tmpdir(), "delib-bench-key-"));
  const rssFile = join(keyDir, "rss.json");
  const runs: CliResult["runs"] = [];
  try {
    rmSync(join(dir, ".deliberations"), { recursive: true, force: true });
    for (const q of questions) {
      rmSync(rssFile, { force: true });
      const t = performance.now();
      let exit = 0;
      try {
        execFileSync(process.execPath, ["--require", join(ROOT, "bench", "rss-probe.cjs"), cli, q.question, "--repo", dir, "--offline", "--no-cache", "--json", "--provider", "none"], {
          cwd: ROOT,
          env: { ...process.env, DELIBERATIVE_KEY_DIR: keyDir, DELIB_BENCH_RSS_OUT: rssFile },
          stdio: ["ignore", "ignore", "pipe"],
          timeout: 120_000,
        });
      } catch (err) {
        exit = (err as { status?: number }).status ?? 1;
      }
      const wallMs = performance.now() - t;
      const probe = existsSync(rssFile) ? (JSON.parse(readFileSync(rssFile, "utf8")) as { maxRssBytes: number }) : { maxRssBytes: 0 };
      runs.push({ question: q.id, wallMs: round(wallMs), maxRssBytes: probe.maxRssBytes, exit });
    }
  } finally {
    rmSync(join(dir, ".deliberations"), { recursive: true, force: true });
    rmSync(keyDir, { recursive: true, force: true });
  }
  const ok = runs.filter((r) => r.exit === 0);
  if (!ok.length) return { runs, error: `the CLI failed (exit ${runs[0]?.exit})` };
  return { runs, wallMs: dist(ok.map((r) => r.wallMs)), peakRssMB: round(Math.max(...ok.map((r) => r.maxRssBytes)) / MB) };
}

function fileSize(p: string): number {
  try {
    return statSync(p).size;
  } catch {
    return 0;
  }
}
function dirFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath ?? (e as unknown as { path: string }).path, e.name));
}

/** Packages the extension in a throwaway copy of the repo (production build + vsce), never touching ./dist. */
function packageInTempCopy(): { dir: string; vsix: string } | { error: string } {
  const tmp = mkdtempSync(join(os.tmpdir(), "delib-bench-vsix-"));
  try {
    for (const f of ["package.json", "README.md", "CHANGELOG.md", "LICENSE", "LICENSE.md", ".vscodeignore", "tsconfig.json"]) {
      if (existsSync(join(ROOT, f))) copyFileSync(join(ROOT, f), join(tmp, f));
    }
    for (const d of ["src", "webview", "scripts", "media"]) if (existsSync(join(ROOT, d))) cpSync(join(ROOT, d), join(tmp, d), { recursive: true });
    symlinkSync(join(ROOT, "node_modules"), join(tmp, "node_modules"));
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
    if (!pkg.scripts?.package) return { error: "no `npm run package` script" };
    execFileSync("npm", ["run", "package", "--silent"], { cwd: tmp, stdio: ["ignore", "pipe", "pipe"], timeout: 180_000 });
    const vsix = readdirSync(tmp).find((f) => f.endsWith(".vsix"));
    if (!vsix) return { error: "npm run package produced no .vsix" };
    return { dir: tmp, vsix: join(tmp, vsix) };
  } catch (err) {
    const e = err as { stderr?: Buffer; message: string };
    return { error: `npm run package failed: ${(e.stderr?.toString() || e.message).split("\n").filter(Boolean).slice(-3).join(" | ")}` };
  }
}

/**
 * The bundle the extension loads on first use: dist/heavyBundle.js (src/vscode/heavyBundle.ts), dist/core.js before
 * it was renamed. Reported as `core` in results.json.
 */
function heavyBundle(dist: string): string {
  const file = join(dist, "heavyBundle.js");
  return existsSync(file) ? file : join(dist, "core.js");
}

function webviewBytes(dist: string): number {
  return dirFiles(join(dist, "webview"))
    .filter((p) => !p.endsWith(".map"))
    .reduce((n, p) => n + fileSize(p), 0);
}

/** Activation of the dev bundle, bundle sizes, and (unless --no-vsix) the production bundle, its activation and the .vsix. */
export function measureActivationAndSize(report: Report, vsix: boolean, profileRoot: string | undefined): void {
  const distDir = join(ROOT, "dist");
  const devExt = join(distDir, "extension.js");
  report.activation = measureActivation(devExt, ACTIVATION_RUNS, profileRoot ? join(profileRoot, "activation") : undefined);
  report.bundle.dev = {
    extension: fileSize(devExt),
    core: fileSize(heavyBundle(distDir)),
    webview: webviewBytes(distDir),
    // dist/cli.js launches the CLI bundle dist/cliMain.js through V8's code cache (src/cliLauncher.ts).
    cli: fileSize(join(distDir, "cli.js")) + (existsSync(join(distDir, "cliMain.js")) ? fileSize(join(distDir, "cliMain.js")) : 0),
    extensionPlusWebview: 0,
    note: "npm run build output (unminified; source maps excluded)",
  };
  report.bundle.dev.extensionPlusWebview = report.bundle.dev.extension + report.bundle.dev.core + report.bundle.dev.webview;
  const existingVsix = readdirSync(ROOT).find((x) => x.endsWith(".vsix"));
  if (existingVsix) {
    const st = statSync(join(ROOT, existingVsix));
    report.bundle.existingVsix = { file: existingVsix, bytes: st.size, mtime: st.mtime.toISOString() };
  }
  if (vsix) measureProduction(report);
  else report.bundle.vsixError = "not packaged (--no-vsix)";
  if (!report.bundle.vsix && report.bundle.existingVsix) {
    report.bundle.vsix = { file: report.bundle.existingVsix.file, bytes: report.bundle.existingVsix.bytes, source: `existing file in the repo root, ${report.bundle.existingVsix.mtime}` };
  }
  if (profileRoot && existsSync(join(profileRoot, "activation"))) {
    const file = readdirSync(join(profileRoot, "activation")).find((x) => x.endsWith(".cpuprofile"));
    if (file) report.activationProfile = summariseCpuProfile(join(profileRoot, "activation", file), ROOT);
  }
}

function measureProduction(report: Report): void {
  const pkg = packageInTempCopy();
  if ("error" in pkg) {
    report.bundle.vsixError = pkg.error;
    return;
  }
  const prodDist = join(pkg.dir, "dist");
  const prodExt = join(prodDist, "extension.js");
  const production: NonNullable<BundleResult["production"]> = {
    extension: fileSize(prodExt),
    core: fileSize(heavyBundle(prodDist)),
    webview: webviewBytes(prodDist),
    extensionPlusWebview: 0,
    note: "npm run package (esbuild --production) in a temporary copy of the repo",
  };
  production.extensionPlusWebview = production.extension + production.core + production.webview;
  report.bundle.production = production;
  report.bundle.vsix = { file: "deliberative-search.vsix", bytes: fileSize(pkg.vsix), source: "fresh npm run package in a temporary copy of the working tree" };
  report.activationProduction = measureActivation(prodExt, ACTIVATION_RUNS);
  rmSync(pkg.dir, { recursive: true, force: true });
}
