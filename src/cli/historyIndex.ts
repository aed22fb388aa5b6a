// `deliberate index [--repo DIR] [--rebuild] [--status] [--json]`: builds the git history index ahead of time, or
// reports its size, its last indexed commit and when it was built. Also how a question run from the CLI gets its
// index built: on a terminal, in the foreground with progress on stderr; otherwise (scripts, agents) by a
// detached `deliberate index --background` while the question indexes the history for itself, as `git gc --auto` does.
import { execFile, spawn } from "node:child_process";
import { promisify } from "node:util";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { setPriority } from "node:os";
import { buildIndex, indexStatus, type BuildProgress, type HistoryIndexOptions } from "../core/internal/history";
import { buildCorpusSnapshot, corpusDirFor, hostCorpusCache, type CorpusBuild } from "../core/internal/corpus";
import { UsageError, cancelOnSigint, parseOptions, repoOption, type OptionValues } from "./common";
import { assertNormalRepo, UnsafeRepositoryError } from "../core/internal/gitSafety";
import { describeBuildProgress } from "../shared/indexProgress";

export interface IndexIo {
  out: (s: string) => void;
  err: (s: string) => void;
  stderrIsTTY: boolean;
}

const execFileAsync = promisify(execFile);

export const INDEX_USAGE = "deliberate index [--repo DIR] [--rebuild] [--status] [--json]";

function fmt(n: number): string {
  return n.toLocaleString("en");
}

function size(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/** Progress lines on a terminal, at most one a second (and the first one at once). */
function progressPrinter(io: IndexIo): (p: BuildProgress) => void {
  let last = 0;
  let lastPhase = "";
  return (p) => {
    const now = Date.now();
    if (now - last < 1000 && p.phase === lastPhase) return;
    last = now;
    lastPhase = p.phase;
    io.err(`  ${describeBuildProgress(p)}`);
  };
}

export async function indexCommand(argv: string[], io: IndexIo): Promise<number> {
  const options = { repo: { type: "string" }, rebuild: { type: "boolean" }, status: { type: "boolean" }, json: { type: "boolean" }, background: { type: "boolean" }, "docs-only": { type: "boolean" } } as const;
  const { values } = parseOptions(argv, options, { positionals: false, usage: INDEX_USAGE });
  const repo = repoOption(values.repo as string | undefined);
  // Indexing runs git there: a bare-shaped folder or a git directory is refused first (gitSafety.ts).
  await assertNormalRepo(repo).catch((err: unknown) => {
    throw err instanceof UnsafeRepositoryError ? new UsageError(err.message) : err;
  });
  if (values.status && values.rebuild) throw new UsageError("--status and --rebuild do not go together");
  if (values.status) return statusCommand(repo, !!values.json, io);
  if (values["docs-only"]) return docsOnlyCommand(repo, io);
  if (values.background) {
    // A detached build started by a question: low priority, no output.
    try {
      setPriority(10);
    } catch {
      // not permitted: run at normal priority
    }
  }
  return buildCommand(repo, values, io);
}

/** `index --status`: size, last indexed commit, when it was built, a build in progress. */
async function statusCommand(repo: string, json: boolean, io: IndexIo): Promise<number> {
  const s = await indexStatus(repo);
  if (json) {
    io.out(JSON.stringify(s, null, 2));
    return s.error && !s.toplevel ? 2 : 0;
  }
  if (!s.toplevel) throw new UsageError(s.error ?? `not a git repository: ${repo}`);
  io.out(`repository: ${s.toplevel}`);
  io.out(`index:      ${s.dir}`);
  if (s.summary) {
    const sm = s.summary;
    io.out(`size:       ${size(sm.bytes)}, ${fmt(sm.commits)} commits`);
    io.out(`last commit: ${sm.head ?? "?"}${s.behind ? ` (HEAD is now ${s.head?.slice(0, 12) ?? "?"}: updated on the next question)` : " (HEAD)"}`);
    io.out(`built:      ${sm.builtAt ?? "?"}${sm.buildMs ? ` in ${(sm.buildMs / 1000).toFixed(1)} s` : ""}; updated ${sm.updatedAt ?? "?"}`);
  } else if (s.exists) {
    io.out(`state:      unreadable (${s.error ?? "?"}); the next build replaces it`);
  } else if (s.error) {
    io.out(`state:      ${s.error}`);
  } else {
    io.out(`state:      not built yet${s.head ? "" : " (no commits)"}`);
  }
  if (s.building) {
    const p = s.building.progress;
    io.out(`building:   process ${s.building.pid}${p ? `, ${describeBuildProgress(p, "")}` : ""}`);
  }
  io.out("delete it with: rm -rf " + (s.dir ?? "<dir>") + " (the next build recreates it)");
  const docs = docsIndexFolder(repo);
  if (docs) io.out(`docs index: ${docs.dir} (${docs.bytes ? size(docs.bytes) : "not built yet"}; deleting it is always safe)`);
  return 0;
}

/** Where the docs index of `repo` lives and how much it holds; undefined with DELIBERATIVE_CORPUS_CACHE=off. */
function docsIndexFolder(repo: string): { dir: string; bytes: number } | undefined {
  const cache = hostCorpusCache(process.env);
  if (!cache) return undefined;
  const dir = corpusDirFor(cache.dir, resolve(repo));
  let bytes = 0;
  try {
    for (const f of readdirSync(dir)) bytes += statSync(join(dir, f)).size;
  } catch {
    // not built yet
  }
  return { dir, bytes };
}

/** `index [--rebuild]`: builds or updates the history index and the docs index now; Ctrl-C cancels. */
async function buildCommand(repo: string, values: OptionValues, io: IndexIo): Promise<number> {
  const quiet = !!values.background || !!values.json;
  const log = (l: string) => io.err(`deliberate: ${l}`);
  const { r, docs } = await cancelOnSigint(async (signal) => {
    const r = await buildIndex(repo, { rebuild: !!values.rebuild, signal, onProgress: io.stderrIsTTY && !quiet ? progressPrinter(io) : undefined, log });
    return { r, docs: r.error ? undefined : await docsIndex(repo, signal, log) };
  });
  if (values.json) {
    const { state, ...rest } = r;
    io.out(JSON.stringify({ ...rest, ...(state ? { toplevel: state.toplevel, file: state.file } : {}), ...(docs ? { docs } : {}) }, null, 2));
    return r.error ? 2 : r.action === "busy" ? 1 : 0;
  }
  if (values.background) return 0;
  if (r.error) throw new UsageError(r.error);
  const code = reportBuild(r, io);
  if (docs) io.out(`docs index: ${fmt(docs.documents)} documents, ${fmt(docs.sections)} sections in ${(docs.ms / 1000).toFixed(1)} s (${docs.dir})`);
  return code;
}

/**
 * The discovery snapshot and the docs index (internal/corpus/), so the next question in a fresh process neither
 * walks the tree nor re-indexes every ADR. Off with DELIBERATIVE_CORPUS_CACHE=off; a failure is one line, not fatal.
 */
async function docsIndex(repo: string, signal: AbortSignal, log: (l: string) => void): Promise<CorpusBuild | undefined> {
  const cache = hostCorpusCache(process.env, log);
  if (!cache) return undefined;
  try {
    const script = require.main?.filename;
    // In a process of its own when this is the real CLI: the history build's heap is still large here, and the
    // two peaks must not stack (large synthetic repository: ~300 MB together, ~250 MB apart).
    if (script && /cli\.[cm]?js$/.test(script)) return await docsIndexInChild(script, repo, signal);
    return await buildCorpusSnapshot(repo, cache, { signal });
  } catch (err) {
    if (signal.aborted) throw err;
    log(`docs index not built: ${err instanceof Error ? err.message.split("\n")[0] : String(err)}`);
    return undefined;
  }
}

async function docsIndexInChild(script: string, repo: string, signal: AbortSignal): Promise<CorpusBuild> {
  const { stdout } = await execFileAsync(process.execPath, [script, "index", "--docs-only", "--repo", repo], { signal, maxBuffer: 1024 * 1024, encoding: "utf8" });
  return JSON.parse(stdout) as CorpusBuild;
}

/** `index --docs-only` (the child above): the docs index alone, its summary as JSON on stdout. */
async function docsOnlyCommand(repo: string, io: IndexIo): Promise<number> {
  const log = (l: string) => io.err(`deliberate: ${l}`);
  const cache = hostCorpusCache(process.env, log);
  if (!cache) throw new UsageError("DELIBERATIVE_CORPUS_CACHE=off: no docs index is kept");
  io.out(JSON.stringify(await cancelOnSigint((signal) => buildCorpusSnapshot(repo, cache, { signal }))));
  return 0;
}

type BuildResult = Awaited<ReturnType<typeof buildIndex>>;

function reportBuild(r: BuildResult, io: IndexIo): number {
  const where = r.state?.file ?? "";
  const bytes = where && existsSync(where) ? statSync(where).size : 0;
  switch (r.action) {
    case "empty":
      io.out("no commits yet: nothing to index");
      return 0;
    case "busy":
      io.err(`deliberate: another process (pid ${r.holder ?? "?"}) is building this index; \`deliberate index --status\` shows its progress`);
      return 1;
    case "current":
      io.out(`history index is up to date: ${fmt(r.commits ?? 0)} commits, ${size(bytes)} (${where})`);
      return 0;
    case "built":
      io.out(`indexed ${fmt(r.added)} commits in ${(r.ms / 1000).toFixed(1)} s: ${size(bytes)}${r.reason ? ` (rebuilt: ${r.reason})` : ""} (${where})`);
      return 0;
    default:
      io.out(`history index ${r.action === "resynced" ? `re-synced (${r.reason ?? "history rewritten"})` : "updated"}: +${fmt(r.added)}${r.removed ? ` −${fmt(r.removed)}` : ""} commits in ${r.ms} ms, ${fmt(r.commits ?? 0)} in all (${where})`);
      return 0;
  }
}

/**
 * How a question asked on the command line uses the history index: on a terminal a missing index is built first
 * (progress on stderr); otherwise a detached `deliberate index --background` builds it and the question indexes the
 * history for itself this time (the same answer; core/internal/git.ts). Only the real CLI process (dist/cli.js run as a program) can start the detached build.
 */
export function historyOptionsForCli(io: IndexIo, showProgress: boolean): HistoryIndexOptions | undefined {
  // DELIBERATIVE_HISTORY_INDEX=off: no index kept; each question indexes the history in a temporary folder.
  if (process.env.DELIBERATIVE_HISTORY_INDEX === "off") return undefined;
  const script = require.main?.filename;
  const canSpawn = !!script && /cli\.[cm]?js$/.test(script) && process.env.DELIBERATIVE_NO_BACKGROUND_INDEX !== "1";
  if (io.stderrIsTTY) {
    let announced = false;
    const print = progressPrinter(io);
    return {
      build: "foreground",
      shortLived: true,
      onProgress: (p) => {
        if (!showProgress) return;
        if (!announced) {
          announced = true;
          io.err("  first run in this repository: indexing its git history once (`deliberate index` does it ahead of time)");
        }
        print(p);
      },
      log: (l) => io.err(`deliberate: ${l}`),
    };
  }
  return {
    build: canSpawn ? "detached" : "none",
    shortLived: true,
    ...(canSpawn
      ? {
          spawnDetached: (toplevel: string) => {
            const child = spawn(process.execPath, [script!, "index", "--repo", toplevel, "--background"], { detached: true, stdio: "ignore", windowsHide: true });
            child.on("error", () => undefined);
            child.unref();
          },
        }
      : {}),
    log: (l) => io.err(`deliberate: ${l}`),
  };
}
