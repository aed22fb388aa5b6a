// Measuring, in a worker process (bench/run.ts --worker): our pipeline cold and warm on one size's questions, the
// docs expert's phases alone, and the naive baseline on the same questions.
import { rmSync } from "node:fs";
import { join } from "node:path";
import fg from "fast-glob";
import MiniSearch from "minisearch";
import { resolveConfig } from "../src/core/config";
import { parseAdr } from "../src/core/internal/adr";
import { discoverArtifacts } from "../src/core/internal/discovery";
import { runDocsExpert } from "../src/core/internal/docsExpert";
import { createGitExpert } from "../src/core/internal/git";
import { parseMarkdown } from "../src/core/internal/markdown";
import { processTerm, rankTextSections, type TextSection } from "../src/core/internal/sectionIndex";
import { deliberate, type DeliberateRequest } from "../src/core/pipeline";
import { generateSigningKey } from "../src/core/receipts/signing";
import { parseExpertStage, type StageName } from "../src/core/stages";
import { buildRulesPlan } from "../src/core/terms";
import { runBaseline } from "./baseline";
import { CACHE_ROOT, readManifest, repoDir, type BenchQuestion, type Manifest, type SizeName } from "./generate";
import { realRepo } from "./history";
import { ROOT } from "./paths";
import { EXPERT_STAGES, type BaselineQuestion, type BaselineResult, type Breakdown, type ColdRun, type OursQuestion, type OursResult } from "./results";
import { dist, round } from "./stats";

type Outcome = Awaited<ReturnType<typeof deliberate>>;

function techRegex(tech: string): RegExp {
  return new RegExp(`(?<![a-z0-9])${tech.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![a-z0-9])`, "i");
}

/** The repository and questions of one size, or of the real repository (asked with --force, as the eval asks them). */
function sizeRepo(size: SizeName): { dir: string; manifest: Manifest } {
  if ((size as string) === "real") {
    const real = realRepo(ROOT, CACHE_ROOT, () => undefined);
    if ("skip" in real) throw new Error(real.skip);
    return { dir: real.dir, manifest: { questions: real.questions } as Manifest };
  }
  const dir = repoDir(size);
  const manifest = readManifest(dir);
  if (!manifest) throw new Error(`no generated repository at ${dir}`);
  return { dir, manifest };
}

export async function workerOurs(size: SizeName, n: number): Promise<OursResult> {
  const { dir, manifest } = sizeRepo(size);
  const questions = manifest.questions.slice(0, n);
  const rssAfterLoadBytes = process.memoryUsage().rss;
  const receiptsDir = join(dir, ".deliberations");
  rmSync(receiptsDir, { recursive: true, force: true });
  // The history index was built before this worker started (main); it is only read here. The real repository's
  // questions are asked with --force, as the eval asks them.
  const base = { repo: dir, signingKey: generateSigningKey(), config: { offline: true }, history: { build: "none" as const }, force: (size as string) === "real" };

  // One untimed-for-the-table run first: module initialisation, JIT and the OS file cache. Reported separately.
  const warmupQ = manifest.questions.length > n ? manifest.questions[manifest.questions.length - 1] : questions[0];
  const t = performance.now();
  await deliberate({ ...base, question: warmupQ.question, useCache: false, writeReceipt: false });
  const firstRunMs = performance.now() - t;

  const results: OursQuestion[] = [];
  for (const q of questions) {
    const r = await measureQuestion(base, q);
    results.push(r);
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

/** One question cold (turn cache off, receipt written), then warm (served by the turn cache the cold run wrote). */
async function measureQuestion(base: Omit<DeliberateRequest, "question">, q: BenchQuestion): Promise<OursQuestion> {
  const events: Partial<Record<StageName, number>> = {};
  const expertTimes: number[] = [];
  let t = performance.now();
  const cold = await deliberate({
    ...base,
    question: q.question,
    useCache: false,
    writeReceipt: true,
    onProgress: (e) => {
      if (e.state === "done" && e.ms !== undefined) events[e.stage] = e.ms;
      if (parseExpertStage(e.stage)) expertTimes.push(performance.now());
    },
  });
  const expertsWallMs = expertTimes.length ? Math.max(...expertTimes) - Math.min(...expertTimes) : undefined;
  const coldMs = performance.now() - t;
  t = performance.now();
  const warm = await deliberate({ ...base, question: q.question, useCache: true, writeReceipt: true });
  const warmMs = performance.now() - t;
  return {
    id: q.id,
    question: q.question,
    expectedPath: q.expectedPath,
    form: q.form,
    cold: evaluateCold(q, cold, coldMs, events, expertsWallMs),
    warm: { e2eMs: round(warmMs, 2), cached: warm.kind === "deliberated" && warm.cached },
  };
}

const ABSTAINED: ColdRun["stages"] = { discovery: 0, docs: 0, git: 0, deps: 0, experts: 0, fusion: 0, synthesis: 0, receipt: 0, classify: 0, plan: 0, other: 0 };

/** Stage times of a cold run: from its progress events when there are any, else from the receipt's stages record. */
function coldStages(outcome: Extract<Outcome, { kind: "deliberated" }>, ms: number, events: Partial<Record<StageName, number>>, expertsWallMs: number | undefined): ColdRun["stages"] {
  const s = outcome.receipt.stages;
  const receiptMs = (stage: StageName) => s[stage]?.ms ?? 0;
  const progressMs = (stage: StageName) => events[stage] ?? receiptMs(stage);
  const stages = {
    classify: receiptMs("classify"),
    discovery: progressMs("discovery"),
    plan: progressMs("plan"),
    docs: progressMs(EXPERT_STAGES.docs),
    git: progressMs(EXPERT_STAGES.git),
    deps: progressMs(EXPERT_STAGES.deps),
    experts: expertsWallMs ?? Math.max(receiptMs("internal"), receiptMs("external")),
    fusion: receiptMs("fusion"),
    synthesis: progressMs("synthesis"),
    receipt: events.receipt ?? 0,
    other: 0,
  };
  stages.other = Math.max(0, ms - (stages.classify + stages.discovery + stages.plan + stages.experts + stages.fusion + stages.synthesis + stages.receipt));
  return Object.fromEntries(Object.entries(stages).map(([k, v]) => [k, round(v, 2)])) as ColdRun["stages"];
}

function evaluateCold(q: BenchQuestion, outcome: Outcome, ms: number, events: Partial<Record<StageName, number>>, expertsWallMs: number | undefined): ColdRun {
  if (outcome.kind !== "deliberated") {
    return { e2eMs: ms, stages: ABSTAINED, gitTruncated: false, gitBudgetHit: false, top3: [], recallItems: false, recallDocs: false, supersededAbove: false, answerCorrect: false, supportsDeciding: false, abstained: true };
  }
  const { receipt, evidence, payload } = outcome;
  const git = receipt.stages[EXPERT_STAGES.git];
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
    stages: coldStages(outcome, ms, events, expertsWallMs),
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

export async function workerBaseline(size: SizeName, n: number): Promise<BaselineResult> {
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
