// The decision guard (issue 22): reads a change, finds the in-force decisions it touches, and reports each likely
// conflict with the decision's citation. Where is a diff read? diff.ts (text) and change.ts (git). What a changed
// line is? lines.ts. How a decided name is recognised? names.ts. Which decisions are in force? decisions.ts. The
// matching? match.ts. The output shapes? schema.ts (JSON) and sarif.ts.
import type { CorpusCacheOptions } from "../internal/corpus/store";
import { defaultKeyDir, loadKeyFileIfExists } from "../receipts/signing";
import type { DeliberationConfig } from "../types";
import { posix } from "node:path";
import { checkRepository } from "../internal/gitSafety";
import { runGit } from "./changeGit";
import { readChange, type ChangeSource } from "./change";
import { loadDecisions } from "./decisions";
import { MAX_DIFF_LINES } from "./diff";
import { matchChange } from "./match";
import { folderFilesOf, type FolderFile } from "./formats";
import { CHECK_TIME_BUDGET_MS } from "./pace";
import { GuardReportSchema, type GuardReport, type Severity } from "./schema";

export { ChangeInputError, type ChangeSource } from "./change";
export { MAX_DIFF_LINES, parseUnifiedDiff } from "./diff";
export { reportToSarif } from "./sarif";
export { CHECK_TIME_BUDGET_MS } from "./pace";
export { GuardReportSchema, FindingSchema, type Finding, type GuardReport, type Severity, type FindingKind } from "./schema";

export interface CheckOptions {
  signal?: AbortSignal;
  /** Where discovery's snapshot may be kept between runs (the corpus cache). */
  cache?: CorpusCacheOptions;
  config?: Partial<DeliberationConfig>;
  /** Your own public key (PEM): picked receipts it signed count as decisions, as do those of allowed signers. */
  ownPublicKeyPem?: string;
  /**
   * The whole check's time budget (default CHECK_TIME_BUDGET_MS), from the call on: the matching stops when it runs
   * out, and the report says what was left out (`limits.timed_out`, a note, the unmatched files among the skipped).
   */
  timeBudgetMs?: number;
}

/** Checks a change of `repo` against its in-force decisions. Throws ChangeInputError for a change that cannot be read. */
export async function checkChange(repo: string, source: ChangeSource, opts: CheckOptions = {}): Promise<GuardReport> {
  const budgetMs = opts.timeBudgetMs ?? CHECK_TIME_BUDGET_MS;
  const deadline = performance.now() + budgetMs;
  // Git names paths from the work tree's top, so the decisions are read from there too (--repo may be a subfolder).
  const check = source.kind === "text" ? undefined : await checkRepository(repo, opts.signal);
  // Not a work tree: readChange says why, in the one-line reason the caller shows.
  if (check && check.kind !== "work-tree") await readChange(repo, source, opts.signal);
  const root = check?.kind === "work-tree" ? check.toplevel : repo;
  // Git reads the change while the decisions are read: the two do not depend on each other.
  const stop = new AbortController();
  const forward = () => stop.abort(opts.signal?.reason);
  opts.signal?.addEventListener("abort", forward, { once: true });
  try {
    const pending = loadDecisions(root, { ...opts, signal: stop.signal });
    pending.catch(() => undefined); // awaited below; a failed read of the change must not leave it unhandled
    const diff = await readChange(repo, source, opts.signal, check).catch((err: unknown) => {
      stop.abort();
      throw err;
    });
    const decisions = await pending;
    const tracked = check?.kind === "work-tree" ? await trackedBeside(root, diff.files, opts.signal) : [];
    const base = source.kind === "ref" ? source.ref : "HEAD";
    const existingDirs = check?.kind === "work-tree" && source.kind !== "text" ? await foldersAt(root, base, diff.files, opts.signal) : undefined;
    return await reportOf(diff, decisions, { deadline, budgetMs, signal: opts.signal, folderFiles: folderFilesOf(root, tracked), ...(existingDirs ? { existingDirs } : {}) });
  } finally {
    opts.signal?.removeEventListener("abort", forward);
  }
}

/** Tracked paths listed at most for the folders of added files. */
const MAX_TRACKED_BESIDE = 5000;

/**
 * The files HEAD holds in the folders where the change adds files, not their subfolders' (formats.ts compares a new
 * file with them). A work tree may hold only part of the repository (a sparse checkout); HEAD still lists the rest.
 */
async function trackedBeside(root: string, files: readonly { path: string; status: string }[], signal?: AbortSignal): Promise<string[]> {
  // The top folder is always checked out whole by a sparse checkout: only subfolders are listed.
  const dirs = [...new Set(files.filter((f) => f.status === "added").map((f) => posix.dirname(f.path)))].filter((d) => d !== ".").sort().slice(0, 50);
  if (!dirs.length) return [];
  const run = await runGit(root, ["ls-tree", "--name-only", "-z", "HEAD", "--", ...dirs.map((d) => `${d}/`)], { signal, maxBytes: 1024 * 1024, maxLines: MAX_TRACKED_BESIDE }).catch(() => undefined);
  return run?.code === 0 ? run.stdout.split("\0").filter(Boolean).slice(0, MAX_TRACKED_BESIDE) : [];
}

/** Folders looked up at most, for the added files' folders and their parents. */
const MAX_FOLDERS_ASKED = 200;

/**
 * Which folders of the added files (and their parents) the base revision already holds: a folder the change creates
 * is no part of the project yet. Undefined when git cannot say (then every folder counts as existing).
 */
async function foldersAt(root: string, base: string, files: readonly { path: string; status: string }[], signal?: AbortSignal): Promise<Set<string> | undefined> {
  const wanted = new Set<string>();
  for (const f of files) {
    if (f.status !== "added") continue;
    const parts = f.path.split("/");
    for (let i = 1; i < parts.length; i++) wanted.add(parts.slice(0, i).join("/"));
  }
  if (!wanted.size) return new Set();
  // A folder exists when its parent's listing names it: list each parent once (the top folder without a path).
  const parents = [...new Set([...wanted].map((d) => posix.dirname(d)))].slice(0, MAX_FOLDERS_ASKED);
  const top = parents.includes(".");
  const below = parents.filter((p) => p !== ".").map((p) => `${p}/`);
  const out = new Set<string>();
  for (const args of [top ? [] : undefined, below.length ? ["--", ...below] : undefined]) {
    if (!args) continue;
    const run = await runGit(root, ["ls-tree", "-d", "--name-only", "-z", base, ...args], { signal, maxBytes: 1024 * 1024, maxLines: MAX_TRACKED_BESIDE }).catch(() => undefined);
    if (!run || run.code !== 0) return undefined;
    for (const d of run.stdout.split("\0")) if (d) out.add(d);
  }
  return out;
}

async function reportOf(
  diff: Awaited<ReturnType<typeof readChange>>,
  decisions: Awaited<ReturnType<typeof loadDecisions>>,
  budget: { deadline: number; budgetMs: number; signal?: AbortSignal; folderFiles?: (dir: string) => FolderFile[]; existingDirs?: Set<string> },
): Promise<GuardReport> {
  const outcome = await matchChange(diff, decisions, budget);
  const cut = outcome.cut;
  const notes = [...diff.notes, ...decisions.notes];
  if (cut) {
    const partial = cut.partial ? `; ${cut.partial.file} was matched only up to line ${cut.partial.line}` : "";
    const unmatched = cut.unmatched ? `; ${cut.unmatched} changed file${cut.unmatched === 1 ? " was" : "s were"} not matched (see the skipped files)` : "";
    notes.push(`the check ran out of its ${formatSeconds(cut.budgetMs)} time budget: only part of the change was matched${partial}${unmatched}`);
  }
  return GuardReportSchema.parse({
    findings: outcome.findings,
    checked: { files: outcome.checkedFiles, decisions: decisions.decisions.length },
    skipped: outcome.skipped,
    // A check cut by the clock was checked only in part, as one cut by the line budget: it is truncated too.
    limits: { max_diff_lines: MAX_DIFF_LINES, truncated: diff.truncated || !!cut, time_budget_ms: budget.budgetMs, timed_out: !!cut },
    notes,
  });
}

function formatSeconds(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 100) / 10}-second` : `${ms} ms`;
}

/** The public half of the signing key `deliberate` uses in this environment, if there is one (never created here). */
export function ownPublicKeyFrom(env: NodeJS.ProcessEnv): string | undefined {
  try {
    return loadKeyFileIfExists(defaultKeyDir(env))?.publicKeyPem;
  } catch {
    // An unreadable key trusts nothing of its own; allowed_signers still counts.
    return undefined;
  }
}

export type FailOn = "high" | "med" | "never";

/** Whether a report fails at a threshold: a finding at or above it. */
export function reportFails(report: GuardReport, failOn: FailOn): boolean {
  if (failOn === "never") return false;
  const at: Severity[] = failOn === "high" ? ["high"] : ["high", "med"];
  return report.findings.some((f) => at.includes(f.severity));
}
