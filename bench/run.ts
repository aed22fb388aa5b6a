// `npm run bench`: latency, memory, recall and size benchmark of the offline pipeline (issue 6).
//
//   npm run bench                                   all sizes, 20 questions each
//   npm run bench -- --sizes small,medium           some sizes
//   npm run bench -- --questions 5                  fewer questions per size
//   npm run bench -- --baseline-questions 3         baseline subset size (default: 20 / 20 / 5)
//   npm run bench -- --no-baseline --no-vsix        skip the naive baseline / the .vsix packaging
//   npm run bench -- --profile                      CPU-profile the measured runs and print the hot functions
//
// Each size is measured in its own child process (so peak RSS is per size); the naive baseline runs in another
// child on the same questions. Results go to bench/results.json and a table on stdout.
import { execFileSync, spawn } from "node:child_process";
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import { dirname, join, resolve } from "node:path";
import fg from "fast-glob";
import MiniSearch from "minisearch";
import { resolveConfig } from "../src/core/config";
import { parseAdr } from "../src/core/internal/adr";
import { discoverArtifacts } from "../src/core/internal/discovery";
import { runDocsExpert } from "../src/core/internal/docsExpert";
import { createGitExpert } from "../src/core/internal/git";
import { parseMarkdown } from "../src/core/internal/markdown";
import { processTerm, rankTextSections, type TextSection } from "../src/core/internal/sectionIndex";
import { deliberate } from "../src/core/pipeline";
import { generateSigningKey } from "../src/core/receipts/signing";
import { buildRulesPlan } from "../src/core/terms";
import { runBaseline, type BaselineRun } from "./baseline";
import { CACHE_ROOT, ensureRepo, readManifest, repoDir, SIZES, type BenchQuestion, type Manifest, type SizeName } from "./generate";
import { summariseCpuProfile, type ProfileSummary } from "./profile";
import { measureCliColdAndHit, measureIncremental, measureIndexBuild, measureRecall, realRepo, type CliRun, type IncrementalResult, type IndexBuildResult, type RecallResult } from "./history";

const ROOT = resolve(dirname(process.argv[1]), "..");
const RESULTS_FILE = join(ROOT, "bench", "results.json");
const DEFAULT_QUESTIONS = 20;
const DEFAULT_BASELINE_QUESTIONS: Record<SizeName, number> = { small: 20, medium: 20, large: 5 };
const ACTIVATION_RUNS = 7;
const CLI_QUESTIONS = 3;
const MB = 1024 * 1024;

// ---------------------------------------------------------------------------------------------------------------
// Arguments

interface Args {
  sizes: SizeName[];
  questions: number;
  baselineQuestions?: number;
  baseline: boolean;
  vsix: boolean;
  profile: boolean;
  /** Include the real repository (JabRef/jabref) when its checkout or mirror is present. */
  real: boolean;
  worker?: "ours" | "baseline";
  size?: SizeName;
  out?: string;
}

function parseArgs(argv: string[]): Args {
  const args: Args = { sizes: ["small", "medium", "large"], questions: DEFAULT_QUESTIONS, baseline: true, vsix: true, profile: false, real: true };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split("=", 2) as [string, string | undefined];
    const value = () => inline ?? argv[++i];
    switch (flag) {
      case "--sizes": {
        const sizes = value().split(",").map((s) => s.trim()).filter(Boolean);
        for (const s of sizes) if (!(s in SIZES)) throw new Error(`unknown size "${s}" (small, medium, large)`);
        args.sizes = sizes as SizeName[];
        break;
      }
      case "--questions":
        args.questions = positiveInt(value(), flag);
        break;
      case "--baseline-questions":
        args.baselineQuestions = positiveInt(value(), flag);
        break;
      case "--no-baseline":
        args.baseline = false;
        break;
      case "--no-vsix":
        args.vsix = false;
        break;
      case "--profile":
        args.profile = true;
        break;
      case "--no-real":
        args.real = false;
        break;
      case "--worker":
        args.worker = value() as Args["worker"];
        break;
      case "--size":
        args.size = value() as SizeName;
        break;
      case "--out":
        args.out = value();
        break;
      case "--help":
      case "-h":
        console.log(readFileSync(process.argv[1], "utf8").split("\n").slice(0, 11).join("\n"));
        process.exit(0);
        break;
      default:
        throw new Error(`unknown argument ${argv[i]}`);
    }
  }
  return args;
}

function positiveInt(v: string | undefined, flag: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${flag} needs a positive integer`);
  return n;
}

// ---------------------------------------------------------------------------------------------------------------
// Statistics

export function percentile(xs: number[], p: number): number {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}
interface Dist {
  p50: number;
  p95: number;
  max: number;
  n: number;
}
function dist(xs: number[]): Dist {
  return { p50: round(percentile(xs, 50)), p95: round(percentile(xs, 95)), max: round(Math.max(...xs)), n: xs.length };
}
function round(n: number, d = 1): number {
  const f = 10 ** d;
  return Math.round(n * f) / f;
}
const rate = (xs: boolean[]) => (xs.length ? xs.filter(Boolean).length / xs.length : NaN);

// ---------------------------------------------------------------------------------------------------------------
// Worker: our pipeline

/** Stage names in the table, and where each number comes from. */
const STAGES = [
  ["discovery", "discovery + read + hash (progress 'discovery')"],
  ["docs", "docs expert: parse ADRs/markdown, BM25 index + query, supersession (progress 'internal:docs')"],
  ["git", "git history expert, own clock (progress 'internal:git'); it cannot start before docs yields"],
  ["deps", "installed-dependency docs expert, offline-capable (progress 'external:deps')"],
  ["experts", "all experts, wall clock: first expert start to last expert done (progress timestamps)"],
  ["fusion", "reciprocal-rank fusion (receipt.stages.fusion.ms)"],
  ["synthesis", "rules synthesis + citation binding + resolution check (progress 'synthesis')"],
  ["receipt", "sign + schema check + write evidence, receipt, cache entry (progress 'receipt')"],
  ["other", "e2e minus the stages above: validation, classify, cache key, plan, hand-offs"],
] as const;
type StageName = (typeof STAGES)[number][0];

interface ColdRun {
  e2eMs: number;
  stages: Record<StageName, number> & { classify: number; plan: number };
  gitTruncated: boolean;
  gitReason?: string;
  gitBudgetHit: boolean;
  top3: { path: string; expert: string; source: string }[];
  recallItems: boolean;
  recallDocs: boolean;
  supersededAbove: boolean;
  recommended?: string;
  answerCorrect: boolean;
  supportsDeciding: boolean;
  abstained?: boolean;
}
interface WarmRun {
  e2eMs: number;
  cached: boolean;
}
interface OursQuestion {
  id: string;
  question: string;
  expectedPath: string;
  form: string;
  cold: ColdRun;
  warm: WarmRun;
}
interface Breakdown {
  discoverMs: number;
  globOnlyMs: number;
  parseMs: number;
  sections: number;
  indexOnlyMs: number;
  rankOnlyMs: Dist;
  docsAloneMs: Dist;
  gitAloneMs: Dist;
  artifacts: number;
  artifactBytes: number;
}
interface OursResult {
  size: SizeName;
  questions: OursQuestion[];
  firstRunMs: number;
  peakRssBytes: number;
  /** RSS after the modules loaded, before the first deliberation: harness overhead (Node, tsx, sources). */
  rssAfterLoadBytes?: number;
  heapUsedBytes: number;
  breakdown?: Breakdown;
}

function techRegex(tech: string): RegExp {
  return new RegExp(`(?<![a-z0-9])${tech.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![a-z0-9])`, "i");
}

async function workerOurs(size: SizeName, n: number): Promise<OursResult> {
  let dir = repoDir(size);
  let manifest = readManifest(dir);
  if ((size as string) === "real") {
    const real = realRepo(ROOT, CACHE_ROOT, () => undefined);
    if ("skip" in real) throw new Error(real.skip);
    dir = real.dir;
    manifest = { questions: real.questions } as Manifest;
  }
  if (!manifest) throw new Error(`no generated repository at ${dir}`);
  const questions = manifest.questions.slice(0, n);
  const rssAfterLoadBytes = process.memoryUsage().rss;
  const receiptsDir = join(dir, ".deliberations");
  rmSync(receiptsDir, { recursive: true, force: true });
  const signingKey = generateSigningKey();
  const config = { offline: true };
  // The history index was built before this worker started (main); it is only read here. The real repository's
  // questions are asked with --force, as the eval asks them.
  const history = { build: "none" as const };
  const force = (size as string) === "real";

  // One untimed-for-the-table run first: module initialisation, JIT and the OS file cache. Reported separately.
  const warmupQ = manifest.questions.length > n ? manifest.questions[manifest.questions.length - 1] : questions[0];
  let t = performance.now();
  await deliberate({ repo: dir, question: warmupQ.question, signingKey, config, useCache: false, writeReceipt: false, history, force });
  const firstRunMs = performance.now() - t;

  const results: OursQuestion[] = [];
  for (const q of questions) {
    const events: Record<string, number> = {};
    const expertTimes: number[] = [];
    t = performance.now();
    const cold = await deliberate({
      repo: dir,
      question: q.question,
      signingKey,
      config,
      useCache: false,
      writeReceipt: true,
      history,
      force,
      onProgress: (e) => {
        if (e.state === "done" && e.ms !== undefined) events[e.stage] = e.ms;
        if (/^(internal|external):/.test(e.stage)) expertTimes.push(performance.now());
      },
    });
    if (expertTimes.length) events["experts-wall"] = Math.max(...expertTimes) - Math.min(...expertTimes);
    const coldMs = performance.now() - t;
    t = performance.now();
    const warm = await deliberate({ repo: dir, question: q.question, signingKey, config, useCache: true, writeReceipt: true, history, force });
    const warmMs = performance.now() - t;
    results.push({
      id: q.id,
      question: q.question,
      expectedPath: q.expectedPath,
      form: q.form,
      cold: evaluateCold(q, cold, coldMs, events),
      warm: { e2eMs: round(warmMs, 2), cached: warm.kind === "deliberated" && warm.cached },
    });
    const r = results[results.length - 1];
    process.stderr.write(
      `  [${size}] ${q.id} cold ${r.cold.e2eMs.toFixed(0)} ms (docs ${r.cold.stages.docs.toFixed(0)}, git ${r.cold.stages.git.toFixed(0)}) ` +
        `warm ${r.warm.e2eMs.toFixed(1)} ms${r.warm.cached ? "" : " (NOT cached)"} recall@3 ${r.cold.recallItems ? "hit" : "miss"}\n`,
    );
  }
  const usage = process.resourceUsage();
  const peakRssBytes = usage.maxRSS * 1024;
  const heapUsedBytes = process.memoryUsage().heapUsed;
  rmSync(receiptsDir, { recursive: true, force: true });

  const breakdown = (size as string) === "real" ? undefined : await docsBreakdown(dir, questions.slice(0, 5));
  return { size, questions: results, firstRunMs: round(firstRunMs), peakRssBytes, rssAfterLoadBytes, heapUsedBytes, breakdown };
}

function evaluateCold(q: BenchQuestion, outcome: Awaited<ReturnType<typeof deliberate>>, ms: number, events: Record<string, number>): ColdRun {
  if (outcome.kind !== "deliberated") {
    const zero = { discovery: 0, docs: 0, git: 0, deps: 0, experts: 0, fusion: 0, synthesis: 0, receipt: 0, classify: 0, plan: 0, other: 0 };
    return { e2eMs: ms, stages: zero, gitTruncated: false, gitBudgetHit: false, top3: [], recallItems: false, recallDocs: false, supersededAbove: false, answerCorrect: false, supportsDeciding: false, abstained: true };
  }
  const { receipt, evidence, payload } = outcome;
  const s = receipt.stages;
  const stages = {
    classify: s.classify?.ms ?? 0,
    discovery: events.discovery ?? s.discovery?.ms ?? 0,
    plan: events.plan ?? s.plan?.ms ?? 0,
    docs: events["internal:docs"] ?? s["internal:docs"]?.ms ?? 0,
    git: events["internal:git"] ?? s["internal:git"]?.ms ?? 0,
    deps: events["external:deps"] ?? s["external:deps"]?.ms ?? 0,
    experts: events["experts-wall"] ?? Math.max(s.internal?.ms ?? 0, s.external?.ms ?? 0),
    fusion: s.fusion?.ms ?? 0,
    synthesis: events.synthesis ?? s.synthesis?.ms ?? 0,
    receipt: events.receipt ?? 0,
    other: 0,
  };
  stages.other = Math.max(0, ms - (stages.classify + stages.discovery + stages.plan + stages.experts + stages.fusion + stages.synthesis + stages.receipt));
  const git = s["internal:git"];
  const top3 = evidence.slice(0, 3).map((e) => ({ path: e.path_or_url, expert: e.experts.join("+"), source: e.source_type }));
  const docPaths: string[] = [];
  for (const e of evidence) if (e.source_type !== "commit" && !docPaths.includes(e.path_or_url)) docPaths.push(e.path_or_url);
  const at = docPaths.indexOf(q.expectedPath);
  const supersededAbove = q.supersededPaths.some((p) => {
    const i = docPaths.indexOf(p);
    return i >= 0 && (at < 0 || i < at);
  });
  const rec = payload.options.find((o) => o.id === payload.recommendation.option_id);
  const citationPath = new Map(payload.citations.map((c) => [c.id, c.path_or_url]));
  return {
    e2eMs: round(ms, 2),
    stages: Object.fromEntries(Object.entries(stages).map(([k, v]) => [k, round(v, 2)])) as ColdRun["stages"],
    gitTruncated: !!git?.truncated,
    gitReason: git?.reason,
    gitBudgetHit: /cut short/.test(git?.reason ?? ""),
    top3,
    recallItems: top3.some((e) => e.path === q.expectedPath),
    recallDocs: docPaths.slice(0, 3).includes(q.expectedPath),
    supersededAbove,
    recommended: rec?.title ?? payload.recommendation.option_id,
    answerCorrect: !!rec && techRegex(q.expectedTech).test(rec.title),
    supportsDeciding: !!rec && rec.supports.some((id) => citationPath.get(id) === q.expectedPath),
  };
}

/**
 * Where the docs expert's time goes, measured outside the pipeline with the same building blocks it uses
 * (discoverArtifacts, parseAdr / parseMarkdown, rankTextSections over the same sections, runDocsExpert and the git
 * expert each alone, i.e. without the other competing for the event loop). Approximate by construction.
 */
async function docsBreakdown(dir: string, questions: BenchQuestion[]): Promise<Breakdown> {
  const config = resolveConfig({ offline: true });
  const signal = new AbortController().signal;
  let t = performance.now();
  const artifacts = await discoverArtifacts(dir, config, signal);
  const discoverMs = performance.now() - t;
  t = performance.now();
  await fg([...config.adrGlobs, ...config.conventionGlobs], { cwd: dir, dot: true, onlyFiles: true, caseSensitiveMatch: false, suppressErrors: true, ignore: config.ignoreGlobs });
  const globOnlyMs = performance.now() - t;

  t = performance.now();
  const sections: TextSection[] = [];
  for (const f of artifacts.files) {
    if (f.source_type === "adr") {
      const adr = parseAdr(f.path, f.text);
      for (const s of adr.doc.sections) sections.push({ heading: s.heading, title: adr.title, body: s.body });
    } else {
      for (const s of parseMarkdown(f.text).sections) sections.push({ heading: s.heading, title: "", body: s.body });
    }
  }
  const parseMs = performance.now() - t;

  t = performance.now();
  const index = new MiniSearch<{ id: number; heading: string; title: string; body: string }>({ fields: ["heading", "title", "body"], processTerm: (x) => processTerm(x) });
  index.addAll(sections.map((s, id) => ({ id, heading: s.heading, title: s.title ?? "", body: s.body })));
  const indexOnlyMs = performance.now() - t;

  const rank: number[] = [];
  const docs: number[] = [];
  const gitMs: number[] = [];
  const git = createGitExpert();
  for (const q of questions) {
    const plan = buildRulesPlan(q.question);
    t = performance.now();
    rankTextSections(sections, plan.terms, plan.expansions);
    rank.push(performance.now() - t);
    t = performance.now();
    await runDocsExpert({ plan, config, artifacts, signal });
    docs.push(performance.now() - t);
    t = performance.now();
    await git.run({ repo: dir, question: q.question, plan, config, artifacts, signal, log: () => {} });
    gitMs.push(performance.now() - t);
  }
  return {
    discoverMs: round(discoverMs),
    globOnlyMs: round(globOnlyMs),
    parseMs: round(parseMs),
    sections: sections.length,
    indexOnlyMs: round(indexOnlyMs),
    rankOnlyMs: dist(rank),
    docsAloneMs: dist(docs),
    gitAloneMs: dist(gitMs),
    artifacts: artifacts.files.length,
    artifactBytes: artifacts.files.reduce((n, f) => n + f.bytes, 0),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Worker: naive baseline

interface BaselineQuestion {
  id: string;
  question: string;
  expectedPath: string;
  run: BaselineRun;
  recall: boolean;
}
interface BaselineResult {
  size: SizeName;
  questions: BaselineQuestion[];
  peakRssBytes: number;
}

async function workerBaseline(size: SizeName, n: number): Promise<BaselineResult> {
  const dir = repoDir(size);
  const manifest = readManifest(dir);
  if (!manifest) throw new Error(`no generated repository at ${dir}`);
  const out: BaselineQuestion[] = [];
  for (const q of manifest.questions.slice(0, n)) {
    const run = await runBaseline(dir, q.question);
    const recall = run.top3.some((f) => f.path === q.expectedPath);
    out.push({ id: q.id, question: q.question, expectedPath: q.expectedPath, run: { ...run, ms: round(run.ms), gitMs: round(run.gitMs), rankMs: round(run.rankMs) }, recall });
    process.stderr.write(`  [${size} baseline] ${q.id} ${(run.ms / 1000).toFixed(1)} s (git log -S ×${run.terms.length}: ${(run.gitMs / 1000).toFixed(1)} s) recall@3 ${recall ? "hit" : "miss"}\n`);
  }
  return { size, questions: out, peakRssBytes: process.resourceUsage().maxRSS * 1024 };
}

// ---------------------------------------------------------------------------------------------------------------
// Orchestration

function runWorker<T>(kind: "ours" | "baseline", size: SizeName, n: number, profileDir?: string): Promise<T> {
  const out = join(os.tmpdir(), `delib-bench-${kind}-${size}-${process.pid}.json`);
  rmSync(out, { force: true });
  const nodeArgs = [...process.execArgv, ...(profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : [])];
  const child = spawn(process.execPath, [...nodeArgs, process.argv[1], "--worker", kind, "--size", size, "--questions", String(n), "--out", out], {
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

interface ActivationResult {
  file: string;
  runs: number;
  loadMs?: Dist;
  activateMs?: Dist;
  totalMs?: Dist;
  commands?: number;
  error?: string;
}

function measureActivation(extensionFile: string, runs = ACTIVATION_RUNS, profileDir?: string): ActivationResult {
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

interface CliResult {
  runs: { question: string; wallMs: number; maxRssBytes: number; exit: number }[];
  wallMs?: Dist;
  peakRssMB?: number;
  error?: string;
}

/**
 * The shipped CLI, one fresh process per question (as a user or an agent runs it): dist/cli.js --offline --no-cache
 * --json, with a preload that reports the process's peak RSS. Wall time includes Node start-up and bundle load.
 */
function measureCli(size: SizeName, questions: BenchQuestion[]): CliResult {
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

interface BundleResult {
  /** extension: dist/extension.js (loaded at activation); core: dist/core.js (loaded on first use); both ship. */
  dev: { extension: number; core: number; webview: number; cli: number; extensionPlusWebview: number; note: string };
  production?: { extension: number; core: number; webview: number; extensionPlusWebview: number; note: string };
  vsix?: { file: string; bytes: number; source: string };
  /** A .vsix already in the repo root (may be stale; informational). */
  existingVsix?: { file: string; bytes: number; mtime: string };
  vsixError?: string;
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

interface SizeReport {
  repo: { dir: string; generated: boolean; generatedMs: number; counts: Manifest["counts"]; packBytes?: number };
  ours?: OursResult;
  baseline?: BaselineResult;
  summary?: SizeSummary;
  profile?: ProfileSummary;
  cli?: CliResult;
}

interface SizeSummary {
  questions: number;
  stages: Record<string, Dist>;
  coldE2e: Dist;
  warmE2e: Dist;
  warmAllCached: boolean;
  firstRunMs: number;
  gitBudgetHits: number;
  gitTruncatedWithReason: boolean;
  peakRssMB: number;
  recallAt3: number;
  recallAt3Docs: number;
  supersededAbove: number;
  answerAccuracy: number;
  supportsDeciding: number;
  abstained: number;
  baseline?: {
    questions: number;
    ids: string[];
    e2e: Dist;
    gitMs: Dist;
    rankMs: Dist;
    recallAt3: number;
    oursColdP50SameQuestions: number;
    oursRecallAt3SameQuestions: number;
    /** ours / baseline, p50 over the same questions. */
    latencyRatio: number;
    speedup: number;
    peakRssMB: number;
  };
}

function summarise(ours: OursResult, baseline?: BaselineResult): SizeSummary {
  const qs = ours.questions;
  const stages: Record<string, Dist> = {};
  for (const [name] of STAGES) stages[name] = dist(qs.map((q) => q.cold.stages[name]));
  const summary: SizeSummary = {
    questions: qs.length,
    stages,
    coldE2e: dist(qs.map((q) => q.cold.e2eMs)),
    warmE2e: dist(qs.map((q) => q.warm.e2eMs)),
    warmAllCached: qs.every((q) => q.warm.cached),
    firstRunMs: ours.firstRunMs,
    gitBudgetHits: qs.filter((q) => q.cold.gitBudgetHit).length,
    gitTruncatedWithReason: qs.filter((q) => q.cold.gitTruncated).every((q) => !!q.cold.gitReason),
    peakRssMB: round(ours.peakRssBytes / MB),
    recallAt3: round(rate(qs.map((q) => q.cold.recallItems)), 3),
    recallAt3Docs: round(rate(qs.map((q) => q.cold.recallDocs)), 3),
    supersededAbove: qs.filter((q) => q.cold.supersededAbove).length,
    answerAccuracy: round(rate(qs.map((q) => q.cold.answerCorrect)), 3),
    supportsDeciding: round(rate(qs.map((q) => q.cold.supportsDeciding)), 3),
    abstained: qs.filter((q) => q.cold.abstained).length,
  };
  if (baseline && baseline.questions.length) {
    const ids = new Set(baseline.questions.map((q) => q.id));
    const same = qs.filter((q) => ids.has(q.id));
    const oursP50 = percentile(same.map((q) => q.cold.e2eMs), 50);
    const baseP50 = percentile(baseline.questions.map((q) => q.run.ms), 50);
    summary.baseline = {
      questions: baseline.questions.length,
      ids: [...ids],
      e2e: dist(baseline.questions.map((q) => q.run.ms)),
      gitMs: dist(baseline.questions.map((q) => q.run.gitMs)),
      rankMs: dist(baseline.questions.map((q) => q.run.rankMs)),
      recallAt3: round(rate(baseline.questions.map((q) => q.recall)), 3),
      oursColdP50SameQuestions: round(oursP50),
      oursRecallAt3SameQuestions: round(rate(same.map((q) => q.cold.recallItems)), 3),
      latencyRatio: round(oursP50 / baseP50, 4),
      speedup: round(baseP50 / oursP50, 1),
      peakRssMB: round(baseline.peakRssBytes / MB),
    };
  }
  return summary;
}

interface Target {
  name: string;
  target: string;
  measured: string;
  status: "PASS" | "MISS" | "n/a";
}

function evaluateTargets(sizes: Partial<Record<SizeName, SizeReport>>, activation: ActivationResult, activationProd: ActivationResult | undefined, bundle: BundleResult): Target[] {
  const t: Target[] = [];
  const ms = (n: number) => `${n.toFixed(n < 10 ? 1 : 0)} ms`;
  const status = (ok: boolean | undefined): Target["status"] => (ok === undefined ? "n/a" : ok ? "PASS" : "MISS");
  const s = (k: SizeName) => sizes[k]?.summary;
  const cold = (k: SizeName, limit: number) => {
    const x = s(k);
    t.push({ name: `e2e cold p95, ${k}`, target: `≤ ${limit / 1000} s`, measured: x ? ms(x.coldE2e.p95) : "not run", status: status(x ? x.coldE2e.p95 <= limit : undefined) });
  };
  cold("medium", 1000);
  cold("large", 3000);
  for (const k of ["small", "medium", "large"] as SizeName[]) {
    const x = s(k);
    if (!x) continue;
    t.push({
      name: `e2e warm p95 (turn-cache hit), ${k}`,
      target: "≤ 50 ms",
      measured: `${ms(x.warmE2e.p95)}${x.warmAllCached ? "" : " (some runs not cached!)"}`,
      status: status(x.warmE2e.p95 <= 50 && x.warmAllCached),
    });
  }
  for (const k of ["small", "medium", "large"] as SizeName[]) {
    const x = s(k);
    if (!x) continue;
    t.push({
      name: `git stage max, ${k}`,
      target: "≤ 1.5 s; cut-offs stated",
      measured: `${ms(x.stages.git.max)} (p95 ${ms(x.stages.git.p95)}; budget hit ${x.gitBudgetHits}/${x.questions})`,
      status: status(x.stages.git.max <= 1500 && x.gitTruncatedWithReason),
    });
  }
  const lb = s("large")?.baseline;
  const lr = s("large");
  t.push({
    name: "speed-up vs naive baseline, large",
    target: "≥ 10×",
    measured: lb ? `${lb.speedup}× (p50 ${ms(lb.oursColdP50SameQuestions)} vs ${(lb.e2e.p50 / 1000).toFixed(1)} s, ${lb.questions} questions)` : "not run",
    status: status(lb ? lb.speedup >= 10 : undefined),
  });
  t.push({
    name: "recall@3 vs baseline, large",
    target: "≥ baseline",
    measured: lb ? `${pct(lb.oursRecallAt3SameQuestions)} vs ${pct(lb.recallAt3)} (same ${lb.questions}); all ${lr!.questions}: ${pct(lr!.recallAt3)}` : "not run",
    status: status(lb ? lb.oursRecallAt3SameQuestions >= lb.recallAt3 : undefined),
  });
  const lcli = sizes.large?.cli;
  t.push({
    name: "peak RSS, large",
    target: "≤ 300 MB",
    measured: lr ? `${lr.peakRssMB} MB bench worker, ${lr.questions} q${lcli?.peakRssMB ? `; shipped CLI ${lcli.peakRssMB} MB per question` : ""}` : "not run",
    status: status(lr ? lr.peakRssMB <= 300 : undefined),
  });
  const act = activationProd?.totalMs ? activationProd : activation;
  t.push({
    name: "activation (load + activate, p50)",
    target: "≤ 50 ms",
    measured: act.totalMs ? `${ms(act.totalMs.p50)} ${act === activationProd ? "production bundle" : "dev bundle"}${activationProd?.totalMs && activation.totalMs ? ` (dev ${ms(activation.totalMs.p50)})` : ""}` : act.error ?? "n/a",
    status: status(act.totalMs ? act.totalMs.p50 <= 50 : undefined),
  });
  const bundleBytes = bundle.production?.extensionPlusWebview ?? bundle.dev.extensionPlusWebview;
  t.push({
    name: "extension bundle (extension.js + core.js + webview)",
    target: "≤ 2 MB",
    measured: bundleBytes ? `${(bundleBytes / MB).toFixed(2)} MB ${bundle.production ? "production" : "dev"}${bundle.vsix ? `; .vsix ${(bundle.vsix.bytes / 1024).toFixed(0)} KB` : ""}` : "n/a",
    status: status(bundleBytes ? bundleBytes <= 2 * MB : undefined),
  });
  return t;
}

function pct(x: number): string {
  return Number.isNaN(x) ? "n/a" : `${Math.round(x * 100)}%`;
}

// ---------------------------------------------------------------------------------------------------------------
// Printing

function table(rows: string[][], header: string[]): string {
  const all = [header, ...rows];
  const widths = header.map((_, i) => Math.max(...all.map((r) => (r[i] ?? "").length)));
  const line = (r: string[]) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}

function printReport(report: Report): void {
  const out: string[] = [];
  const f = (n: number | undefined) => (n === undefined || Number.isNaN(n) ? "-" : n < 10 ? n.toFixed(1) : n.toFixed(0));
  out.push("", `Deliberative Search benchmark — ${report.machine.cpus} × ${report.machine.cpuModel}, ${report.machine.memGB} GB, ${report.machine.os}, Node ${report.machine.node}, ${report.machine.git}`);
  out.push(`${report.date}; total ${(report.totalMs / 1000).toFixed(0)} s; offline mode; rules planner + rules synthesizer; ${report.args.questions} questions per size`);
  out.push(`load average at start ${report.machine.loadavgStart.join(" ")}, at end ${report.machine.loadavgEnd?.join(" ") ?? "?"} (other processes on the machine add noise)`, "");
  const sizes = Object.keys(report.sizes) as SizeName[];
  for (const k of sizes) {
    const r = report.sizes[k]!;
    const c = r.repo.counts;
    out.push(
      `${k}: ${c.adrs} ADRs, ${c.docs} docs (+${c.archDocs} ARCHITECTURE.md), ${c.commits.toLocaleString("en")} commits, ${c.files} files — ${r.repo.generated ? `generated in ${(r.repo.generatedMs / 1000).toFixed(1)} s` : "cached"} (${r.repo.dir})`,
    );
  }
  out.push("", "Per-stage latency, cold (turn cache off), ms: p50 / p95");
  const rows: string[][] = [];
  for (const [name, what] of STAGES) {
    rows.push([`${name}`, ...sizes.map((k) => (report.sizes[k]?.summary ? `${f(report.sizes[k]!.summary!.stages[name].p50)} / ${f(report.sizes[k]!.summary!.stages[name].p95)}` : "-")), what]);
  }
  const sm = (k: SizeName) => report.sizes[k]?.summary;
  rows.push(["e2e cold", ...sizes.map((k) => (sm(k) ? `${f(sm(k)!.coldE2e.p50)} / ${f(sm(k)!.coldE2e.p95)}` : "-")), "deliberate() wall clock"]);
  rows.push(["e2e warm", ...sizes.map((k) => (sm(k) ? `${f(sm(k)!.warmE2e.p50)} / ${f(sm(k)!.warmE2e.p95)}` : "-")), "second call, turn-cache hit (stat fingerprint; discovery only if a stat changed)"]);
  rows.push(["first run", ...sizes.map((k) => (sm(k) ? f(sm(k)!.firstRunMs) : "-")), "first deliberation in a fresh process (not in the percentiles)"]);
  out.push(table(rows, ["stage", ...sizes, "what"]));

  out.push("", "Quality and memory");
  const q: string[][] = [];
  q.push(["recall@3 (top-3 fused items)", ...sizes.map((k) => (sm(k) ? pct(sm(k)!.recallAt3) : "-"))]);
  q.push(["recall@3 (top-3 distinct documents)", ...sizes.map((k) => (sm(k) ? pct(sm(k)!.recallAt3Docs) : "-"))]);
  q.push(["recommended the deciding ADR's choice", ...sizes.map((k) => (sm(k) ? pct(sm(k)!.answerAccuracy) : "-"))]);
  q.push(["recommendation cites the deciding ADR", ...sizes.map((k) => (sm(k) ? pct(sm(k)!.supportsDeciding) : "-"))]);
  q.push(["superseded ADR ranked above deciding one", ...sizes.map((k) => (sm(k) ? `${sm(k)!.supersededAbove}/${sm(k)!.questions}` : "-"))]);
  q.push(["git budget hit (truncated, stated)", ...sizes.map((k) => (sm(k) ? `${sm(k)!.gitBudgetHits}/${sm(k)!.questions}` : "-"))]);
  q.push(["peak RSS, bench worker (all runs in one process)", ...sizes.map((k) => (sm(k) ? `${sm(k)!.peakRssMB} MB` : "-"))]);
  q.push(["  of which before the first run (node+tsx+modules)", ...sizes.map((k) => (report.sizes[k]?.ours?.rssAfterLoadBytes ? `${round(report.sizes[k]!.ours!.rssAfterLoadBytes! / MB)} MB` : "-"))]);
  const cl = (k: SizeName) => report.sizes[k]?.cli;
  q.push(["peak RSS, shipped CLI (one question per process)", ...sizes.map((k) => (cl(k)?.peakRssMB ? `${cl(k)!.peakRssMB} MB` : cl(k)?.error ?? "-"))]);
  q.push(["shipped CLI wall time p50 (incl. node start)", ...sizes.map((k) => (cl(k)?.wallMs ? `${f(cl(k)!.wallMs!.p50)} ms` : "-"))]);
  out.push(table(q, ["", ...sizes]));

  if (sizes.some((k) => sm(k)?.baseline)) {
    out.push("", "Naive baseline (git log -S per key term over full history + word-count ranking of every .md), same questions");
    const b: string[][] = [];
    const bl = (k: SizeName) => sm(k)?.baseline;
    b.push(["questions", ...sizes.map((k) => (bl(k) ? `${bl(k)!.questions}${bl(k)!.questions < sm(k)!.questions ? ` of ${sm(k)!.questions} (subset)` : ""}` : "-"))]);
    b.push(["baseline p50 / p95", ...sizes.map((k) => (bl(k) ? `${f(bl(k)!.e2e.p50)} / ${f(bl(k)!.e2e.p95)} ms` : "-"))]);
    b.push(["  of which git log -S p50", ...sizes.map((k) => (bl(k) ? `${f(bl(k)!.gitMs.p50)} ms` : "-"))]);
    b.push(["ours cold p50, same questions", ...sizes.map((k) => (bl(k) ? `${f(bl(k)!.oursColdP50SameQuestions)} ms` : "-"))]);
    b.push(["ratio ours / baseline", ...sizes.map((k) => (bl(k) ? `${bl(k)!.latencyRatio.toFixed(3)} (${bl(k)!.speedup}× faster)` : "-"))]);
    b.push(["recall@3 ours / baseline", ...sizes.map((k) => (bl(k) ? `${pct(bl(k)!.oursRecallAt3SameQuestions)} / ${pct(bl(k)!.recallAt3)}` : "-"))]);
    out.push(table(b, ["", ...sizes]));
  }

  const bd = sizes.filter((k) => report.sizes[k]?.ours?.breakdown);
  if (bd.length) {
    out.push("", "Docs-expert breakdown (each phase alone, outside the pipeline; ms)");
    const rowsB: string[][] = [];
    const g = (k: SizeName) => report.sizes[k]!.ours!.breakdown!;
    rowsB.push(["artifacts read (files / MB)", ...bd.map((k) => `${g(k).artifacts} / ${(g(k).artifactBytes / MB).toFixed(1)}`)]);
    rowsB.push(["discoverArtifacts()", ...bd.map((k) => f(g(k).discoverMs))]);
    rowsB.push(["  of which one glob walk (fast-glob)", ...bd.map((k) => f(g(k).globOnlyMs))]);
    rowsB.push(["parse all (parseAdr / parseMarkdown)", ...bd.map((k) => f(g(k).parseMs))]);
    rowsB.push(["sections indexed", ...bd.map((k) => String(g(k).sections))]);
    rowsB.push(["MiniSearch index build only", ...bd.map((k) => f(g(k).indexOnlyMs))]);
    rowsB.push(["rankTextSections (index + query) p50", ...bd.map((k) => f(g(k).rankOnlyMs.p50))]);
    rowsB.push(["runDocsExpert alone p50", ...bd.map((k) => f(g(k).docsAloneMs.p50))]);
    rowsB.push(["git expert alone p50", ...bd.map((k) => f(g(k).gitAloneMs.p50))]);
    out.push(table(rowsB, ["", ...bd]));
  }

  out.push(...printHistory(report));

  out.push("", "Activation and size");
  const a = report.activation;
  const ap = report.activationProduction;
  const actLine = (x: ActivationResult | undefined, label: string) =>
    x ? (x.totalMs ? `${label}: load ${f(x.loadMs!.p50)} ms + activate ${f(x.activateMs!.p50)} ms = ${f(x.totalMs.p50)} ms p50 (max ${f(x.totalMs.max)}, ${x.runs} fresh processes, ${x.commands} commands registered)` : `${label}: ${x.error}`) : `${label}: not measured`;
  out.push(actLine(a, "dev bundle dist/extension.js"));
  out.push(actLine(ap, "production bundle (npm run package)"));
  const bu = report.bundle;
  out.push(`dist (dev build, no .map): extension.js ${(bu.dev.extension / MB).toFixed(2)} MB, core.js ${(bu.dev.core / MB).toFixed(2)} MB, webview ${(bu.dev.webview / 1024).toFixed(0)} KB, cli.js ${(bu.dev.cli / MB).toFixed(2)} MB`);
  if (bu.production) out.push(`production (minified): extension.js ${(bu.production.extension / MB).toFixed(2)} MB, core.js ${(bu.production.core / MB).toFixed(2)} MB, webview ${(bu.production.webview / 1024).toFixed(0)} KB`);
  out.push(bu.vsix ? `.vsix: ${(bu.vsix.bytes / 1024).toFixed(0)} KB (${bu.vsix.source})` : `.vsix: ${bu.vsixError ?? "n/a"}`);
  if (bu.existingVsix && bu.vsix?.source.startsWith("fresh")) out.push(`(also in the repo root: ${bu.existingVsix.file}, ${(bu.existingVsix.bytes / 1024).toFixed(0)} KB, ${bu.existingVsix.mtime})`);

  out.push("", "Targets");
  out.push(table(report.targets.map((x) => [x.name, x.target, x.measured, x.status]), ["target", "goal", "measured", ""]));

  for (const k of sizes) {
    const p = report.sizes[k]?.profile;
    if (!p) continue;
    out.push("", `CPU profile, ${k} (ours worker, ${(p.totalMs / 1000).toFixed(1)} s sampled): self time by file`);
    out.push(table(p.byFile.slice(0, 12).map((x) => [x.key, `${x.ms.toFixed(0)} ms`, `${(x.share * 100).toFixed(1)}%`]), ["file", "self", "share"]));
    out.push("top functions (self time)");
    out.push(table(p.byFunction.slice(0, 15).map((x) => [x.key, `${x.ms.toFixed(0)} ms`, `${(x.share * 100).toFixed(1)}%`]), ["function", "self", "share"]));
  }
  out.push("", `Results written to ${RESULTS_FILE}`);
  console.log(out.join("\n"));
}

interface Report {
  date: string;
  totalMs: number;
  machine: { os: string; cpus: number; cpuModel: string; memGB: number; node: string; git: string; loadavgStart: number[]; loadavgEnd?: number[] };
  args: { sizes: SizeName[]; questions: number; baselineQuestions: Partial<Record<SizeName, number>>; profile: boolean };
  definitions: Record<string, string>;
  sizes: Partial<Record<SizeName, SizeReport>>;
  /** The history index per size and on the real repository (issue 12). */
  history: Record<string, HistoryReport>;
  activation: ActivationResult;
  activationProduction?: ActivationResult;
  bundle: BundleResult;
  targets: Target[];
}

interface HistoryReport {
  repo?: string;
  dir?: string;
  commits?: number;
  skipped?: string;
  build?: IndexBuildResult;
  incremental?: IncrementalResult;
  cli?: { runs: CliRun[]; cold: Dist; hit: Dist; peakRssMB: number };
  recall?: RecallResult;
  /** The pipeline in one long-lived process with the index (git stage, e2e cold and warm, peak RSS). */
  pipeline?: { git: Dist; cold: Dist; warm: Dist; peakRssMB: number; cutShort: number; recallAt3: number };
}

const HISTORY_CLI_QUESTIONS = 5;
const RECALL_QUESTIONS: Record<string, number> = { small: 10, medium: 5, large: 3, real: 3 };

function summariseHistoryPipeline(ours: OursResult): NonNullable<HistoryReport["pipeline"]> {
  const qs = ours.questions;
  return {
    git: dist(qs.map((q) => q.cold.stages.git)),
    cold: dist(qs.map((q) => q.cold.e2eMs)),
    warm: dist(qs.map((q) => q.warm.e2eMs)),
    peakRssMB: round(ours.peakRssBytes / MB),
    cutShort: qs.filter((q) => q.cold.gitBudgetHit || q.cold.gitTruncated).length,
    recallAt3: round(rate(qs.map((q) => q.cold.recallItems)), 3),
  };
}

async function historyMeasurements(hist: HistoryReport, dir: string, questions: BenchQuestion[], label: string, ours: OursResult | undefined, log: (m: string) => void): Promise<void> {
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

function printHistory(report: Report): string[] {
  const out: string[] = [];
  const keys = Object.keys(report.history);
  if (!keys.length) return out;
  const f = (n: number | undefined, unit = " ms") => (n === undefined || Number.isNaN(n) ? "-" : `${n < 10 ? n.toFixed(1) : n.toFixed(0)}${unit}`);
  const h = (k: string) => report.history[k];
  out.push("", "History index (issue 12): built with `deliberate index`, read by the git expert");
  const rows: string[][] = [];
  rows.push(["commits", ...keys.map((k) => (h(k).commits ? h(k).commits!.toLocaleString("en") : h(k).skipped ? "skipped" : "-"))]);
  rows.push(["full build (updateIndex) / CLI wall", ...keys.map((k) => (h(k).build ? (h(k).build!.error ? h(k).build!.error! : `${f(h(k).build!.ms / 1000, " s")} / ${f(h(k).build!.wallMs / 1000, " s")}`) : "-"))]);
  rows.push(["index size", ...keys.map((k) => (h(k).build?.bytes ? `${(h(k).build!.bytes / MB).toFixed(1)} MB` : "-"))]);
  rows.push(["peak RSS of the build (CLI)", ...keys.map((k) => (h(k).build?.peakRssMB ? `${h(k).build!.peakRssMB} MB` : "-"))]);
  rows.push(["incremental, 10 new commits", ...keys.map((k) => (h(k).incremental ? (h(k).incremental!.error ?? `${f(h(k).incremental!.ms)} (+${h(k).incremental!.added}, CLI ${f(h(k).incremental!.wallMs)})`) : "-"))]);
  rows.push(["git stage p50 / p95 (pipeline)", ...keys.map((k) => (h(k).pipeline ? `${f(h(k).pipeline!.git.p50)} / ${f(h(k).pipeline!.git.p95)}` : "-"))]);
  rows.push(["git cut short", ...keys.map((k) => (h(k).pipeline ? `${h(k).pipeline!.cutShort}/${h(k).pipeline!.git.n}` : "-"))]);
  rows.push(["in-process cold / warm p95", ...keys.map((k) => (h(k).pipeline ? `${f(h(k).pipeline!.cold.p95)} / ${f(h(k).pipeline!.warm.p95)}` : "-"))]);
  rows.push(["recall@3 (fused items)", ...keys.map((k) => (h(k).pipeline ? pct(h(k).pipeline!.recallAt3) : "-"))]);
  rows.push(["CLI cold p50 / p95 (node start incl.)", ...keys.map((k) => (h(k).cli?.cold.n ? `${f(h(k).cli!.cold.p50)} / ${f(h(k).cli!.cold.p95)}` : "-"))]);
  rows.push(["CLI turn-cache hit p50 / p95", ...keys.map((k) => (h(k).cli?.hit.n ? `${f(h(k).cli!.hit.p50)} / ${f(h(k).cli!.hit.p95)}` : "-"))]);
  rows.push(["CLI peak RSS", ...keys.map((k) => (h(k).cli?.peakRssMB ? `${h(k).cli!.peakRssMB} MB` : "-"))]);
  rows.push(["recall vs naive -S/--grep scan", ...keys.map((k) => (h(k).recall ? `${pct(h(k).recall!.recall)} (${h(k).recall!.found}/${h(k).recall!.naive.commits})` : "-"))]);
  rows.push(["naive scan / index lookup", ...keys.map((k) => (h(k).recall ? `${f(h(k).recall!.naive.ms / 1000, " s")} / ${f(h(k).recall!.index.ms)} (${h(k).recall!.speedup}×)` : "-"))]);
  out.push(table(rows, ["", ...keys]));
  return out;
}

function historyTargets(report: Report): Target[] {
  const t: Target[] = [];
  const h = report.history;
  const status = (ok: boolean | undefined): Target["status"] => (ok === undefined ? "n/a" : ok ? "PASS" : "MISS");
  const ms = (n: number) => `${n.toFixed(n < 10 ? 1 : 0)} ms`;
  const present = Object.entries(h).filter(([, v]) => !v.skipped);
  const large = h.large;
  t.push({ name: "index build, 100,000 commits (large)", target: "≤ 30 s", measured: large?.build ? `${(large.build.ms / 1000).toFixed(1)} s (CLI wall ${(large.build.wallMs / 1000).toFixed(1)} s)` : "not run", status: status(large?.build ? large.build.ms <= 30_000 : undefined) });
  const inc = present.filter(([, v]) => v.incremental && !v.incremental.error);
  t.push({ name: "incremental update, 10 new commits", target: "≤ 300 ms", measured: inc.length ? inc.map(([k, v]) => `${k} ${ms(v.incremental!.ms)}`).join(", ") : "not run", status: status(inc.length ? inc.every(([, v]) => v.incremental!.ms <= 300 && v.incremental!.added === 10) : undefined) });
  const pipe = present.filter(([, v]) => v.pipeline);
  t.push({ name: "git stage p95 with the index, every size + real", target: "≤ 100 ms, never cut short", measured: pipe.length ? pipe.map(([k, v]) => `${k} ${ms(v.pipeline!.git.p95)}${v.pipeline!.cutShort ? ` (${v.pipeline!.cutShort} cut short)` : ""}`).join(", ") : "not run", status: status(pipe.length ? pipe.every(([, v]) => v.pipeline!.git.p95 <= 100 && v.pipeline!.cutShort === 0) : undefined) });
  for (const k of ["large", "real"]) {
    const c = h[k]?.cli;
    t.push({ name: `CLI cold p95 (index built, cache cleared), ${k}`, target: "≤ 1.0 s", measured: c?.cold.n ? ms(c.cold.p95) : h[k]?.skipped ? "skipped" : "not run", status: status(c?.cold.n ? c.cold.p95 <= 1000 : undefined) });
  }
  const hits = present.filter(([, v]) => v.cli?.hit.n);
  t.push({ name: "CLI turn-cache hit p95", target: "≤ 250 ms", measured: hits.length ? hits.map(([k, v]) => `${k} ${ms(v.cli!.hit.p95)}`).join(", ") : "not run", status: status(hits.length ? hits.every(([, v]) => v.cli!.hit.p95 <= 250) : undefined) });
  const rss: [string, number][] = [];
  for (const [k, v] of present) {
    if (v.build?.peakRssMB) rss.push([`${k} build`, v.build.peakRssMB]);
    if (v.cli?.peakRssMB) rss.push([`${k} CLI`, v.cli.peakRssMB]);
    if (v.pipeline?.peakRssMB) rss.push([`${k} worker`, v.pipeline.peakRssMB]);
  }
  const worst = rss.sort((a, b) => b[1] - a[1])[0];
  t.push({ name: "peak RSS everywhere (index build included)", target: "≤ 300 MB", measured: worst ? `max ${worst[1]} MB (${worst[0]})` : "not run", status: status(worst ? worst[1] <= 300 : undefined) });
  const rec = present.filter(([k, v]) => v.recall && k !== "real");
  t.push({ name: "history recall vs naive full scan (bench questions)", target: "≥ 0.95, ≥ 20× faster", measured: rec.length ? rec.map(([k, v]) => `${k} ${v.recall!.recall} at ${v.recall!.speedup}×`).join(", ") : "not run", status: status(rec.length ? rec.every(([, v]) => v.recall!.recall >= 0.95 && v.recall!.speedup >= 20) : undefined) });
  return t;
}

async function main(args: Args): Promise<void> {
  const started = performance.now();
  // Every history index the bench builds lives under its own cache, never in the user's.
  process.env.XDG_CACHE_HOME = join(CACHE_ROOT, "xdg-cache");
  const log = (m: string) => process.stderr.write(`${m}\n`);
  let gitVersion = "git ?";
  try {
    gitVersion = execFileSync("git", ["--version"], { encoding: "utf8" }).trim();
  } catch {
    /* reported as unknown */
  }
  const cpus = os.cpus();
  const report: Report = {
    date: new Date().toISOString(),
    totalMs: 0,
    machine: {
      os: `${os.type()} ${os.release()} ${os.arch()}`,
      cpus: cpus.length,
      cpuModel: cpus[0]?.model?.trim() ?? "unknown",
      memGB: Math.round(os.totalmem() / 1024 ** 3),
      node: process.version,
      git: gitVersion,
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

  // 1. Repositories.
  for (const size of args.sizes) {
    const { dir, manifest, generated } = await ensureRepo(size, log);
    if (manifest.questions.length < args.questions) log(`note: ${size} has ${manifest.questions.length} questions; using all of them`);
    report.sizes[size] = { repo: { dir, generated, generatedMs: generated ? manifest.generatedMs : 0, counts: manifest.counts, packBytes: manifest.packBytes } };
  }

  // 2 + 3. Ours and the baseline, one child process each per size.
  const profileRoot = args.profile ? mkdtempSync(join(os.tmpdir(), "delib-bench-prof-")) : undefined;
  for (const size of args.sizes) {
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

  // The real repository (JabRef/jabref, ≥ 15,000 commits), when its checkout or mirror is here.
  if (args.real) {
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

  // 4. Activation, bundle and package size.
  log("activation, bundle and package size");
  const devExt = join(ROOT, "dist", "extension.js");
  report.activation = measureActivation(devExt, ACTIVATION_RUNS, profileRoot ? join(profileRoot, "activation") : undefined);
  const webviewDev = dirFiles(join(ROOT, "dist", "webview")).filter((p) => !p.endsWith(".map"));
  report.bundle.dev = {
    extension: fileSize(devExt),
    core: fileSize(join(ROOT, "dist", "core.js")),
    webview: webviewDev.reduce((n, p) => n + fileSize(p), 0),
    cli: fileSize(join(ROOT, "dist", "cli.js")),
    extensionPlusWebview: 0,
    note: "npm run build output (unminified; source maps excluded)",
  };
  report.bundle.dev.extensionPlusWebview = report.bundle.dev.extension + report.bundle.dev.core + report.bundle.dev.webview;
  const existingVsix = readdirSync(ROOT).find((x) => x.endsWith(".vsix"));
  if (existingVsix) {
    const st = statSync(join(ROOT, existingVsix));
    report.bundle.existingVsix = { file: existingVsix, bytes: st.size, mtime: st.mtime.toISOString() };
  }
  if (args.vsix) {
    const pkg = packageInTempCopy();
    if ("error" in pkg) report.bundle.vsixError = pkg.error;
    else {
      const prodExt = join(pkg.dir, "dist", "extension.js");
      const prodWebview = dirFiles(join(pkg.dir, "dist", "webview")).filter((p) => !p.endsWith(".map"));
      report.bundle.production = {
        extension: fileSize(prodExt),
        core: fileSize(join(pkg.dir, "dist", "core.js")),
        webview: prodWebview.reduce((n, p) => n + fileSize(p), 0),
        extensionPlusWebview: 0,
        note: "npm run package (esbuild --production) in a temporary copy of the repo",
      };
      report.bundle.production.extensionPlusWebview = report.bundle.production.extension + report.bundle.production.core + report.bundle.production.webview;
      report.bundle.vsix = { file: "deliberative-search.vsix", bytes: fileSize(pkg.vsix), source: "fresh npm run package in a temporary copy of the working tree" };
      report.activationProduction = measureActivation(prodExt, ACTIVATION_RUNS);
      rmSync(pkg.dir, { recursive: true, force: true });
    }
  } else report.bundle.vsixError = "not packaged (--no-vsix)";
  if (!report.bundle.vsix && report.bundle.existingVsix) {
    report.bundle.vsix = { file: report.bundle.existingVsix.file, bytes: report.bundle.existingVsix.bytes, source: `existing file in the repo root, ${report.bundle.existingVsix.mtime}` };
  }
  if (profileRoot && existsSync(join(profileRoot, "activation"))) {
    const file = readdirSync(join(profileRoot, "activation")).find((x) => x.endsWith(".cpuprofile"));
    if (file) (report as Report & { activationProfile?: ProfileSummary }).activationProfile = summariseCpuProfile(join(profileRoot, "activation", file), ROOT);
  }

  // 5. Targets, results.json, table.
  report.targets = [...evaluateTargets(report.sizes, report.activation, report.activationProduction, report.bundle), ...historyTargets(report)];
  report.totalMs = Math.round(performance.now() - started);
  report.machine.loadavgEnd = os.loadavg().map((x) => round(x, 2));
  mkdirSync(dirname(RESULTS_FILE), { recursive: true });
  writeFileSync(RESULTS_FILE, JSON.stringify(report, null, 2) + "\n");
  printReport(report);
  const ap = (report as Report & { activationProfile?: ProfileSummary }).activationProfile;
  if (ap) {
    console.log(`\nCPU profile, activation (dev bundle): self time by file`);
    console.log(table(ap.byFile.slice(0, 12).map((x) => [x.key, `${x.ms.toFixed(1)} ms`, `${(x.share * 100).toFixed(1)}%`]), ["file", "self", "share"]));
  }
  if (profileRoot) rmSync(profileRoot, { recursive: true, force: true });
  log(`cache: ${CACHE_ROOT}`);
}

async function workerMain(args: Args): Promise<void> {
  if (!args.size || !args.out) throw new Error("--worker needs --size and --out");
  const result = args.worker === "ours" ? await workerOurs(args.size, args.questions) : await workerBaseline(args.size, args.questions);
  writeFileSync(args.out, JSON.stringify(result));
}

const args = parseArgs(process.argv.slice(2));
(args.worker ? workerMain(args) : main(args)).catch((err) => {
  console.error(err instanceof Error ? err.stack ?? err.message : err);
  process.exit(1);
});
