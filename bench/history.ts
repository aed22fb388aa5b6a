// The history-index part of `npm run bench` (issue 12): on every generated size and on a real repository of at
// least 15,000 commits (JabRef/jabref from the development corpus; skipped with a line when absent):
//   - full index build with the shipped CLI (`deliberate index --rebuild`), wall time and peak RSS;
//   - incremental update after 10 new commits (on a `git clone --shared` copy, so the cached repo is untouched);
//   - the shipped CLI end to end, Node start-up included: a cold question (index built, turn cache cleared) and
//     the same question again (turn-cache hit), with peak RSS;
//   - recall of history evidence against a naive full scan (`git log -S<term>` and `git log --grep=<term>` over the
//     whole history, per key term) and the speed-up of the index over it.
// Every child process gets XDG_CACHE_HOME under the bench cache, so the user's own index cache is never touched.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { keyTerms } from "./baseline";
import { ftsPhrase } from "../src/core/internal/history/search";
import { openDb, safeClose } from "../src/core/internal/history/db";
import { readRepoState } from "../src/core/internal/history";
import type { BenchQuestion } from "./generate";

const MB = 1024 * 1024;

export interface RealRepo {
  name: string;
  dir: string;
  commits: number;
  questions: BenchQuestion[];
}

/** The real repository: the eval's checkout when present, else a shared clone of the mirror at the pinned commit. */
export function realRepo(root: string, cacheRoot: string, log: (m: string) => void): RealRepo | { skip: string } {
  const corpus = JSON.parse(readFileSync(join(root, "eval", "corpus.json"), "utf8")) as { name: string; mirror: string; sha: string }[] | { repos: { name: string; mirror: string; sha: string }[] };
  const repos = Array.isArray(corpus) ? corpus : corpus.repos;
  const spec = repos.find((r) => r.name === "JabRef/jabref");
  if (!spec) return { skip: "JabRef/jabref is not in eval/corpus.json" };
  const evalDir = join(process.env.EVAL_WORKDIR ?? join(os.homedir(), ".cache", "deliberative-search-eval"), `${spec.mirror}@${spec.sha.slice(0, 12)}`);
  let dir: string | undefined;
  if (existsSync(join(evalDir, ".git"))) dir = evalDir;
  else {
    const mirrors = process.env.MIRRORS ?? "/work/.mirror";
    const mirror = [join(mirrors, spec.mirror, "repo"), join(mirrors, spec.mirror)].find((p) => existsSync(p));
    if (!mirror) return { skip: `no checkout at ${evalDir} and no mirror under ${join(mirrors, spec.mirror)} (fetch github:JabRef/jabref, or run the eval once)` };
    dir = join(cacheRoot, `real-jabref-${spec.sha.slice(0, 12)}`);
    if (!existsSync(join(dir, ".git"))) {
      log(`real repository: cloning ${mirror} (shared) at ${spec.sha.slice(0, 12)} → ${dir}`);
      try {
        execFileSync("git", ["clone", "-q", "--shared", "--no-checkout", mirror, dir], { stdio: "ignore" });
        execFileSync("git", ["checkout", "-q", spec.sha], { cwd: dir, stdio: "ignore" });
      } catch (err) {
        rmSync(dir, { recursive: true, force: true });
        return { skip: `could not check out ${spec.name} from ${mirror}: ${(err as Error).message.split("\n")[0]}` };
      }
    }
  }
  const commits = Number(execFileSync("git", ["rev-list", "--count", "HEAD"], { cwd: dir, encoding: "utf8" }).trim());
  const all = JSON.parse(readFileSync(join(root, "eval", "questions.json"), "utf8")) as
    | { id: string; repo: string; question: string; gold?: string[]; superseded?: string[]; gold_choice_keywords?: string[] }[]
    | { questions: { id: string; repo: string; question: string; gold?: string[]; superseded?: string[]; gold_choice_keywords?: string[] }[] };
  const list = Array.isArray(all) ? all : all.questions;
  const questions: BenchQuestion[] = list
    .filter((q) => q.repo === spec.name && q.gold?.length)
    .map((q) => ({
      id: q.id,
      question: q.question,
      expectedPath: q.gold![0],
      expectedTech: q.gold_choice_keywords?.[0] ?? "",
      supersededPaths: q.superseded ?? [],
      form: "choice",
      topic: q.id,
    }));
  return { name: spec.name, dir, commits, questions };
}

export interface IndexBuildResult {
  ms: number;
  wallMs: number;
  commits: number;
  bytes: number;
  peakRssMB: number;
  error?: string;
}

function cliIndex(root: string, repo: string, args: string[], rssFile: string): { json: Record<string, unknown>; wallMs: number; rssMB: number } {
  rmSync(rssFile, { force: true });
  const t = performance.now();
  const out = execFileSync(process.execPath, ["--require", join(root, "bench", "rss-probe.cjs"), join(root, "dist", "cli.js"), "index", "--repo", repo, "--json", ...args], {
    encoding: "utf8",
    env: { ...process.env, DELIB_BENCH_RSS_OUT: rssFile },
    maxBuffer: 16 * MB,
    timeout: 600_000,
  });
  const wallMs = performance.now() - t;
  const rss = existsSync(rssFile) ? (JSON.parse(readFileSync(rssFile, "utf8")) as { maxRssBytes: number }).maxRssBytes : 0;
  return { json: JSON.parse(out), wallMs, rssMB: Math.round((rss / MB) * 10) / 10 };
}

/** A fresh full build with the shipped CLI. */
export function measureIndexBuild(root: string, repo: string): IndexBuildResult {
  const tmp = mkdtempSync(join(os.tmpdir(), "delib-bench-idx-"));
  try {
    const r = cliIndex(root, repo, ["--rebuild"], join(tmp, "rss.json"));
    const file = String(r.json.file ?? "");
    return { ms: Number(r.json.ms), wallMs: Math.round(r.wallMs), commits: Number(r.json.commits ?? r.json.added), bytes: file && existsSync(file) ? readFileSize(file) : 0, peakRssMB: r.rssMB };
  } catch (err) {
    return { ms: NaN, wallMs: NaN, commits: 0, bytes: 0, peakRssMB: 0, error: (err as Error).message.split("\n")[0] };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

function readFileSize(p: string): number {
  try {
    return readFileSync(p).length;
  } catch {
    return 0;
  }
}

export interface IncrementalResult {
  /** updateIndex's own time (git calls included), and the CLI process's wall time. */
  ms: number;
  wallMs: number;
  added: number;
  action: string;
  error?: string;
}

/** 10 new commits on a shared clone (so the cached repository is untouched), then `deliberate index`. */
export function measureIncremental(root: string, repo: string): IncrementalResult {
  const tmp = mkdtempSync(join(os.tmpdir(), "delib-bench-inc-"));
  const clone = join(tmp, "clone");
  const env = { ...process.env, GIT_AUTHOR_NAME: "Bench", GIT_AUTHOR_EMAIL: "bench@example.test", GIT_COMMITTER_NAME: "Bench", GIT_COMMITTER_EMAIL: "bench@example.test" };
  const g = (args: string[], input?: string) => execFileSync("git", args, { cwd: clone, env, encoding: "utf8", input, stdio: [input === undefined ? "ignore" : "pipe", "pipe", "pipe"] }).trim();
  try {
    execFileSync("git", ["clone", "-q", "--shared", "--no-checkout", repo, clone], { stdio: "ignore" });
    cliIndex(root, clone, [], join(tmp, "rss0.json"));
    g(["read-tree", "HEAD"]);
    for (let i = 0; i < 10; i++) {
      const blob = g(["hash-object", "-w", "--stdin"], `# Bench note ${i}\n\nWe evaluated opentelemetry tracing, step ${i}.\n`);
      g(["update-index", "--add", "--cacheinfo", `100644,${blob},docs/bench-notes/note-${i}.md`]);
      const tree = g(["write-tree"]);
      const commit = g(["commit-tree", tree, "-p", "HEAD", "-m", `docs: bench note ${i} on tracing`]);
      g(["update-ref", "HEAD", commit]);
    }
    const r = cliIndex(root, clone, [], join(tmp, "rss1.json"));
    return { ms: Number(r.json.ms), wallMs: Math.round(r.wallMs), added: Number(r.json.added), action: String(r.json.action) };
  } catch (err) {
    return { ms: NaN, wallMs: NaN, added: 0, action: "error", error: (err as Error).message.split("\n")[0] };
  } finally {
    // The clone's index lives in the bench cache too; remove it with the clone.
    try {
      const st = execFileSync(process.execPath, [join(root, "dist", "cli.js"), "index", "--repo", clone, "--status", "--json"], { encoding: "utf8", env: process.env });
      const dir = JSON.parse(st).dir as string | undefined;
      if (dir) rmSync(dir, { recursive: true, force: true });
    } catch {
      /* nothing to remove */
    }
    rmSync(tmp, { recursive: true, force: true });
  }
}

export interface CliRun {
  id: string;
  coldMs: number;
  hitMs: number;
  coldRssMB: number;
  hitRssMB: number;
  hitCached: boolean;
  exit: number;
}

/** The shipped CLI, one fresh process per run: each question cold (turn cache cleared), then again (cache hit). */
export function measureCliColdAndHit(root: string, repo: string, questions: BenchQuestion[]): CliRun[] {
  const keyDir = mkdtempSync(join(os.tmpdir(), "delib-bench-key-"));
  const rssFile = join(keyDir, "rss.json");
  const runs: CliRun[] = [];
  const once = (q: string): { ms: number; rss: number; exit: number } => {
    rmSync(rssFile, { force: true });
    const t = performance.now();
    let exit = 0;
    try {
      execFileSync(process.execPath, ["--require", join(root, "bench", "rss-probe.cjs"), join(root, "dist", "cli.js"), q, "--repo", repo, "--offline", "--json", "--force", "--provider", "none"], {
        encoding: "utf8",
        env: { ...process.env, DELIBERATIVE_KEY_DIR: keyDir, DELIB_BENCH_RSS_OUT: rssFile, DELIBERATIVE_NO_BACKGROUND_INDEX: "1" },
        stdio: ["ignore", "pipe", "pipe"],
        maxBuffer: 64 * MB,
        timeout: 120_000,
      });
    } catch (err) {
      exit = (err as { status?: number }).status ?? 1;
    }
    const ms = performance.now() - t;
    const rss = existsSync(rssFile) ? (JSON.parse(readFileSync(rssFile, "utf8")) as { maxRssBytes: number }).maxRssBytes : 0;
    return { ms, rss, exit };
  };
  try {
    rmSync(join(repo, ".deliberations"), { recursive: true, force: true });
    for (const q of questions) {
      const cold = once(q.question);
      const hit = once(q.question);
      runs.push({
        id: q.id,
        coldMs: Math.round(cold.ms),
        hitMs: Math.round(hit.ms),
        coldRssMB: Math.round((cold.rss / MB) * 10) / 10,
        hitRssMB: Math.round((hit.rss / MB) * 10) / 10,
        hitCached: existsSync(join(repo, ".deliberations", "cache")),
        exit: cold.exit || hit.exit,
      });
    }
  } finally {
    rmSync(join(repo, ".deliberations"), { recursive: true, force: true });
    rmSync(keyDir, { recursive: true, force: true });
  }
  return runs;
}

export interface RecallResult {
  questions: number;
  terms: string[];
  naive: { commits: number; ms: number };
  index: { commits: number; ms: number };
  found: number;
  recall: number;
  speedup: number;
  missed: string[];
  /** Naive scans git could not complete (left out of the baseline). */
  failedScans?: string[];
}

/**
 * Recall of the index against a naive full scan, per key term: every commit `git log -S<term>` (diffs, full
 * history, case as written) or `git log -i --fixed-strings --grep=<term>` (messages) prints, versus the commits
 * the index matches for that term (FTS5, all columns).
 */
const RECALL_ROUNDS = 5;

export async function measureRecall(repo: string, questions: BenchQuestion[]): Promise<RecallResult> {
  const state = await readRepoState(repo);
  if ("error" in state) throw new Error(state.error);
  const terms = [...new Set(questions.flatMap((q) => keyTerms(q.question)))].filter((t) => t.length >= 3);
  const naive = new Set<string>();
  const t = performance.now();
  const failed: string[] = [];
  for (const term of terms) {
    for (const args of [["log", `-S${term}`, "--format=%H", "--no-color"], ["log", "-i", "--fixed-strings", `--grep=${term}`, "--format=%H", "--no-color"]]) {
      try {
        const out = execFileSync("git", args, { cwd: repo, encoding: "utf8", maxBuffer: 256 * MB, env: { ...process.env, GIT_PAGER: "cat" }, stdio: ["ignore", "pipe", "pipe"] });
        for (const l of out.split("\n")) if (l.trim()) naive.add(l.trim());
      } catch {
        // e.g. a blob missing from a partial mirror: that term's scan is left out (reported)
        failed.push(args[1]);
      }
    }
  }
  const naiveMs = performance.now() - t;
  const db = openDb(state.file);
  const found = new Set<string>();
  let indexMs = 0;
  try {
    // Warm SQLite up first (the git expert in a long-lived host is warm; the CLI's cold cost is measured above).
    db.all("SELECT rowid FROM fts WHERE fts MATCH ? LIMIT 1", [ftsPhrase("zzwarmupzz")]);
    // The median of five rounds (one GC pause in this busy process would otherwise be the whole measurement), one
    // prepared statement for every term, as the git expert's own search does (src/core/internal/history/search.ts).
    const rounds: number[] = [];
    for (let round = 0; round < RECALL_ROUNDS; round++) {
      const started = performance.now();
      db.exec("BEGIN");
      const st = db.prepare("SELECT c.sha AS sha FROM fts JOIN commits c ON c.id = fts.rowid WHERE fts MATCH ?");
      try {
        for (const term of terms) {
          const rows = st.all([ftsPhrase(term)]) as { sha: string }[];
          for (const r of rows) found.add(r.sha);
        }
      } finally {
        st.finalize();
      }
      db.exec("COMMIT");
      rounds.push(performance.now() - started);
    }
    indexMs = rounds.sort((a, b) => a - b)[Math.floor(rounds.length / 2)];
  } finally {
    safeClose(db);
  }

  const hit = [...naive].filter((s) => found.has(s));
  const missed = [...naive].filter((s) => !found.has(s)).slice(0, 10);
  return {
    questions: questions.length,
    terms,
    naive: { commits: naive.size, ms: Math.round(naiveMs) },
    index: { commits: found.size, ms: Math.round(indexMs * 10) / 10 },
    found: hit.length,
    recall: naive.size ? Math.round((hit.length / naive.size) * 1000) / 1000 : 1,
    speedup: Math.round(naiveMs / Math.max(indexMs, 0.1)),
    missed,
    ...(failed.length ? { failedScans: failed } : {}),
  };
}
