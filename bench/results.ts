// The shape of bench/results.json: what the workers measure, what the summary derives, and the stage columns of
// the per-stage table. Stage names are core's (src/core/stages.ts); the columns group them as the table shows them.
import { expertStage, type StageName } from "../src/core/stages";
import type { BaselineRun } from "./baseline";
import type { Manifest, SizeName } from "./generate";
import type { CliRun, IncrementalResult, IndexBuildResult, RecallResult } from "./history";
import type { ProfileSummary } from "./profile";
import type { Dist } from "./stats";

/** The experts the bench times on their own, by their core stage names. */
export const EXPERT_STAGES = {
  docs: expertStage("internal", "docs"),
  git: expertStage("internal", "git"),
  deps: expertStage("external", "deps"),
} as const;

const progress = (stage: StageName) => `progress '${stage}'`;
const fromReceipt = (stage: StageName) => `receipt.stages.${stage}.ms`;

/** Stage columns in the table, and where each number comes from. */
export const STAGE_COLUMNS = [
  ["discovery", `discovery + read + hash (${progress("discovery")})`],
  ["docs", `docs expert: parse ADRs/markdown, BM25 index + query, supersession (${progress(EXPERT_STAGES.docs)})`],
  ["git", `git history expert, own clock (${progress(EXPERT_STAGES.git)}); it cannot start before docs yields`],
  ["deps", `installed-dependency docs expert, offline-capable (${progress(EXPERT_STAGES.deps)})`],
  ["experts", "all experts, wall clock: first expert start to last expert done (progress timestamps)"],
  ["fusion", `reciprocal-rank fusion (${fromReceipt("fusion")})`],
  ["synthesis", `rules synthesis + citation binding + resolution check (${progress("synthesis")})`],
  ["receipt", `sign + schema check + write evidence, receipt, cache entry (${progress("receipt")})`],
  ["other", "e2e minus the stages above: validation, classify, cache key, plan, hand-offs"],
] as const;
export type StageColumn = (typeof STAGE_COLUMNS)[number][0];

export interface ColdRun {
  e2eMs: number;
  stages: Record<StageColumn, number> & { classify: number; plan: number };
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
export interface WarmRun {
  e2eMs: number;
  cached: boolean;
}
export interface OursQuestion {
  id: string;
  question: string;
  expectedPath: string;
  form: string;
  cold: ColdRun;
  warm: WarmRun;
}
export interface Breakdown {
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
export interface OursResult {
  size: SizeName;
  questions: OursQuestion[];
  firstRunMs: number;
  peakRssBytes: number;
  /** RSS after the modules loaded, before the first deliberation: harness overhead (Node, tsx, sources). */
  rssAfterLoadBytes?: number;
  heapUsedBytes: number;
  breakdown?: Breakdown;
}
export interface BaselineQuestion {
  id: string;
  question: string;
  expectedPath: string;
  run: BaselineRun;
  recall: boolean;
}
export interface BaselineResult {
  size: SizeName;
  questions: BaselineQuestion[];
  peakRssBytes: number;
}
export interface ActivationResult {
  file: string;
  runs: number;
  loadMs?: Dist;
  activateMs?: Dist;
  totalMs?: Dist;
  commands?: number;
  error?: string;
}
export interface CliResult {
  runs: { question: string; wallMs: number; maxRssBytes: number; exit: number }[];
  wallMs?: Dist;
  peakRssMB?: number;
  error?: string;
}
export interface BundleResult {
  /** extension: dist/extension.js (loaded at activation); core: dist/core.js (loaded on first use); both ship. */
  dev: { extension: number; core: number; webview: number; cli: number; extensionPlusWebview: number; note: string };
  production?: { extension: number; core: number; webview: number; extensionPlusWebview: number; note: string };
  vsix?: { file: string; bytes: number; source: string };
  /** A .vsix already in the repo root (may be stale; informational). */
  existingVsix?: { file: string; bytes: number; mtime: string };
  vsixError?: string;
}
export interface SizeReport {
  repo: { dir: string; generated: boolean; generatedMs: number; counts: Manifest["counts"]; packBytes?: number };
  ours?: OursResult;
  baseline?: BaselineResult;
  summary?: SizeSummary;
  profile?: ProfileSummary;
  cli?: CliResult;
}

export interface SizeSummary {
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
export interface Target {
  name: string;
  target: string;
  measured: string;
  status: "PASS" | "MISS" | "n/a";
}
import type { McpBenchResult } from "./mcp";
import type { GuardBenchResult } from "./guard";
import type { QuestionBenchResult } from "./question";

export interface Report {
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
  activationProfile?: ProfileSummary;
  /** The MCP server's deliberate tool call vs the CLI on the sample repository (bench/mcp.ts). */
  mcp?: McpBenchResult;
  /** The decision guard: deliberate check on a 500-line diff with a warm corpus snapshot (bench/guard.ts). */
  guard?: GuardBenchResult;
  /** One question per fresh CLI process on the real repository, as the eval runs it (bench/question.ts). */
  question?: QuestionBenchResult;
  /** The same on a large repository (bench/question.ts LARGE_QUESTION_REPO). */
  questionLarge?: QuestionBenchResult;
}

export interface HistoryReport {
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
