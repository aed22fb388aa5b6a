// The bench's main process: generates (or reuses) the repositories, runs one worker per size for our pipeline and one
// for the baseline, measures the history index, the shipped CLI, activation and sizes, then writes
// bench/results.json and prints the report.
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import { dirname, join } from "node:path";
import { DEFAULT_BASELINE_QUESTIONS, type Args } from "./args";
import { CACHE_ROOT, ensureRepo, readManifest, repoDir, type BenchQuestion, type SizeName } from "./generate";
import { measureCliColdAndHit, measureIncremental, measureIndexBuild, measureRecall, realRepo } from "./history";
import { summariseCpuProfile } from "./profile";
import { ENTRY, RESULTS_FILE, ROOT } from "./paths";
import { printActivationProfile, printReport } from "./report";
import type { BaselineResult, HistoryReport, OursResult, Report } from "./results";
import { CLI_QUESTIONS, measureActivationAndSize, measureCli } from "./shipped";
import { measureMcp, mcpTarget, type McpBenchResult } from "./mcp";
import { guardTarget, measureGuard, type GuardBenchResult } from "./guard";
import { LARGE_QUESTION_REPO, measureQuestions, questionTarget, residentTarget, type QuestionBenchResult } from "./question";
import { dist, round } from "./stats";
import { evaluateTargets, historyTargets, summarise, summariseHistoryPipeline } from "./summary";

type Log = (m: string) => void;

const HISTORY_CLI_QUESTIONS = 5;
const RECALL_QUESTIONS: Record<string, number> = { small: 10, medium: 5, large: 3, real: 3 };

export function runWorker<T>(kind: "ours" | "baseline", size: SizeName, n: number, profileDir?: string): Promise<T> {
  const out = join(os.tmpdir(), `delib-bench-${kind}-${size}-${process.pid}.json`);
  rmSync(out, { force: true });
  const nodeArgs = [...process.execArgv, ...(profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : [])];
  const child = spawn(process.execPath, [...nodeArgs, ENTRY, "--worker", kind, "--size", size, "--questions", String(n), "--out", out], {
    stdio: ["ignore", "inherit", "inherit"],
    cwd: ROOT,
  });
  return new Promise((resolveP, reject) => {
    child.on("error", reject);
    child.on("close", (code) => {
      if (code !== 0) return reject(new Error(`${kind} worker for ${size} exited with ${code}`));
      try {
        const data = JSON.parse(readFileSync(out, "utf8")) as T;
        rmSync(out, { force: true });
        resolveP(data);
      } catch (err) {
        reject(err);
      }
    });
  });
}

export async function runBench(args: Args): Promise<void> {
  const started = performance.now();
  // Every history index the bench builds lives under its own cache, never in the user's.
  process.env.XDG_CACHE_HOME = join(CACHE_ROOT, "xdg-cache");
  const log: Log = (m) => process.stderr.write(`${m}\n`);
  const report = newReport(args);

  // 1. Repositories.
  for (const size of args.sizes) {
    const { dir, manifest, generated } = await ensureRepo(size, log);
    if (manifest.questions.length < args.questions) log(`note: ${size} has ${manifest.questions.length} questions; using all of them`);
    report.sizes[size] = { repo: { dir, generated, generatedMs: generated ? manifest.generatedMs : 0, counts: manifest.counts, packBytes: manifest.packBytes } };
  }

  // 2 + 3. Ours and the baseline, one child process each per size.
  const profileRoot = args.profile ? mkdtempSync(join(os.tmpdir(), "delib-bench-prof-")) : undefined;
  for (const size of args.sizes) await measureSize(report, args, size, profileRoot, log);

  // The real repository (JabRef/jabref, ≥ 15,000 commits), when its checkout or mirror is here.
  if (args.real) await measureReal(report, args, log);

  // 4. Activation, bundle and package size.
  log("activation, bundle and package size");
  measureActivationAndSize(report, args.vsix, profileRoot);
  log("MCP round trip on the sample repository");
  report.mcp = await measureMcp(ROOT, log).catch((err: Error) => ({ error: err.message.split("\n")[0] }) as McpBenchResult);
  log("decision guard: deliberate check on a 500-line diff");
  report.guard = await measureGuard(ROOT, log).catch((err: Error) => ({ error: err.message.split("\n")[0] }) as GuardBenchResult);
  log("one question per fresh CLI process on the real repository");
  report.question = await measureQuestions(ROOT, log).catch((err: Error) => ({ error: err.message.split("\n")[0] }) as QuestionBenchResult);
  log(`one question per fresh CLI process on a large repository (${LARGE_QUESTION_REPO})`);
  report.questionLarge = await measureQuestions(ROOT, log, 1, undefined, LARGE_QUESTION_REPO).catch((err: Error) => ({ error: err.message.split("\n")[0] }) as QuestionBenchResult);

  // 5. Targets, results.json, table.
  report.targets = [...evaluateTargets(report.sizes, report.activation, report.activationProduction, report.bundle), ...historyTargets(report), mcpTarget(report.mcp), guardTarget(report.guard), questionTarget(report.question), questionTarget(report.questionLarge), residentTarget(report.question), residentTarget(report.questionLarge)];
  report.totalMs = Math.round(performance.now() - started);
  report.machine.loadavgEnd = os.loadavg().map((x) => round(x, 2));
  mkdirSync(dirname(RESULTS_FILE), { recursive: true });
  writeFileSync(RESULTS_FILE, JSON.stringify(report, null, 2) + "\n");
  printReport(report);
  printActivationProfile(report);
  if (profileRoot) rmSync(profileRoot, { recursive: true, force: true });
  log(`cache: ${CACHE_ROOT}`);
}

function gitVersion(): string {
  try {
    return execFileSync("git", ["--version"], { encoding: "utf8" }).trim();
  } catch {
    return "git ?"; // reported as unknown
  }
}

function newReport(args: Args): Report {
  const cpus = os.cpus();
  return {
    date: new Date().toISOString(),
    totalMs: 0,
    machine: {
      os: `${os.type()} ${os.release()} ${os.arch()}`,
      cpus: cpus.length,
      cpuModel: cpus[0]?.model?.trim() ?? "unknown",
      memGB: Math.round(os.totalmem() / 1024 ** 3),
      node: process.version,
      git: gitVersion(),
      loadavgStart: os.loadavg().map((x) => round(x, 2)),
    },
    args: { sizes: args.sizes, questions: args.questions, baselineQuestions: {}, profile: args.profile },
    definitions: {
      cold: "deliberate() with useCache:false, writeReceipt:true into <repo>/.deliberations (removed before and after); the OS file cache is warm",
      warm: "the same question again with useCache:true: the turn cache written by the cold run answers it",
      "recall@3": "the deciding ADR (last of its topic's supersession chain, known by construction) is the path_or_url of one of the first 3 items of the fused evidence list (all experts; a commit item counts only if it cites that ADR file)",
      "recall@3 docs": "the deciding ADR is among the first 3 distinct document paths of the fused list (commit items skipped); comparable to the baseline's file ranking",
      "baseline recall@3": "the deciding ADR is among the 3 markdown files with the most whole-word, case-insensitive occurrences of the question's key terms",
      "peak RSS": "process.resourceUsage().maxRSS of the child process that ran one size's measured deliberations (git child processes excluded)",
      cli: "node dist/cli.js <question> --offline --no-cache --json --provider none, one fresh process per question; peak RSS from a --require preload",
      activation: "require(dist/extension.js) + activate() with a stubbed vscode module, in a fresh Node process; VS Code's own extension-host overhead excluded",
    },
    sizes: {},
    history: {},
    activation: { file: "", runs: 0 },
    bundle: { dev: { extension: 0, core: 0, webview: 0, cli: 0, extensionPlusWebview: 0, note: "" } },
    targets: [],
  };
}

async function measureSize(report: Report, args: Args, size: SizeName, profileRoot: string | undefined, log: Log): Promise<void> {
  const entry = report.sizes[size]!;
  const n = Math.min(args.questions, readManifest(repoDir(size))!.questions.length);
  log(`[${size}] history index: full build with the shipped CLI`);
  const hist: HistoryReport = { commits: entry.repo.counts.commits, build: measureIndexBuild(ROOT, repoDir(size)) };
  report.history[size] = hist;
  log(`[${size}] our pipeline: ${n} questions, cold then warm`);
  const profDir = profileRoot ? join(profileRoot, size) : undefined;
  entry.ours = await runWorker<OursResult>("ours", size, n, profDir);
  if (profDir) {
    const file = readdirSync(profDir).find((x) => x.endsWith(".cpuprofile"));
    if (file) entry.profile = summariseCpuProfile(join(profDir, file), ROOT);
  }
  if (args.baseline) {
    const bn = Math.min(n, args.baselineQuestions ?? DEFAULT_BASELINE_QUESTIONS[size]);
    report.args.baselineQuestions[size] = bn;
    log(`[${size}] naive baseline: ${bn} questions${bn < n ? " (subset: full-history git log -S is slow)" : ""}`);
    entry.baseline = await runWorker<BaselineResult>("baseline", size, bn);
  }
  entry.summary = summarise(entry.ours, entry.baseline);
  log(`[${size}] shipped CLI: ${CLI_QUESTIONS} questions, one process each`);
  entry.cli = measureCli(size, readManifest(repoDir(size))!.questions.slice(0, CLI_QUESTIONS));
  await historyMeasurements(hist, repoDir(size), readManifest(repoDir(size))!.questions, size, entry.ours, log);
}

async function measureReal(report: Report, args: Args, log: Log): Promise<void> {
  const real = realRepo(ROOT, CACHE_ROOT, log);
  if ("skip" in real) {
    log(`[real] skipped: ${real.skip}`);
    report.history.real = { skipped: real.skip };
  } else {
    log(`[real] ${real.name}: ${real.commits.toLocaleString("en")} commits, ${real.questions.length} questions (${real.dir})`);
    const hist: HistoryReport = { repo: real.name, dir: real.dir, commits: real.commits, build: measureIndexBuild(ROOT, real.dir) };
    report.history.real = hist;
    const n = Math.min(args.questions, real.questions.length);
    log(`[real] our pipeline: ${n} questions, cold then warm`);
    const ours = await runWorker<OursResult>("ours", "real" as SizeName, n);
    hist.pipeline = summariseHistoryPipeline(ours);
    await historyMeasurements(hist, real.dir, real.questions, "real", ours, log);
  }
}

async function historyMeasurements(hist: HistoryReport, dir: string, questions: BenchQuestion[], label: string, ours: OursResult | undefined, log: Log): Promise<void> {
  if (ours && !hist.pipeline) hist.pipeline = summariseHistoryPipeline(ours);
  log(`[${label}] history index: incremental update after 10 new commits (shared clone)`);
  hist.incremental = measureIncremental(ROOT, dir);
  log(`[${label}] shipped CLI with the index: ${HISTORY_CLI_QUESTIONS} questions, cold then turn-cache hit`);
  const runs = measureCliColdAndHit(ROOT, dir, questions.slice(0, HISTORY_CLI_QUESTIONS));
  const ok = runs.filter((r) => r.exit === 0);
  hist.cli = { runs, cold: dist(ok.map((r) => r.coldMs)), hit: dist(ok.map((r) => r.hitMs)), peakRssMB: Math.max(0, ...ok.map((r) => Math.max(r.coldRssMB, r.hitRssMB))) };
  const rq = questions.slice(0, RECALL_QUESTIONS[label] ?? 3);
  log(`[${label}] recall vs a naive full git log -S / --grep scan: ${rq.length} questions`);
  try {
    hist.recall = await measureRecall(dir, rq);
  } catch (err) {
    log(`[${label}] recall not measured: ${(err as Error).message}`);
  }
}
