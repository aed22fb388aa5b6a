// The code-usage count outside git: a walk of the folder that stands in for `git grep --untracked`. It honours the
// rules discovery applies outside git (config.ignoreGlobs, and every .gitignore applied relative to its own folder,
// deeper files re-including what shallower ones ignored), never follows a symlink, skips binary files as git's -I
// does, and hands each line that holds a term as a whole word (git's -w) to the same classifier the grep feeds.
// It is bounded by counts, so a cut by them is the same on every run: at most `maxFiles` files are visited and
// `maxBytes` read, in a fixed (sorted) order. The count's walk also stops at a wall-clock deadline (the budget git's
// search has), reported the same way: "cut at the N ms budget: counts are lower bounds". The fingerprint's walk
// (walkState) has no deadline, so it stays the same on every run. The file system calls are synchronous (an await per call cost ~70 s
// on 100k files, against a few seconds), and the walk yields to the event loop every YIELD_EVERY files.
import { createHash } from "node:crypto";
import { lstatSync, readdirSync, readFileSync, type Dirent } from "node:fs";
import { join } from "node:path";
import ignore, { type Ignore } from "ignore";
import { DEFAULT_CONFIG } from "../config";

export interface WalkBudget {
  /** Files visited (in scope or not) before the walk stops. */
  maxFiles: number;
  /** Bytes read from files in scope before the walk stops reading. */
  maxBytes: number;
  /** A file in scope larger than this (a lock file: the count's own limit) is skipped with a reason, unread. */
  maxFileBytes: number;
}

export const DEFAULT_WALK_BUDGET: WalkBudget = { maxFiles: 200_000, maxBytes: 256 * 1024 * 1024, maxFileBytes: 8 * 1024 * 1024 };

const YIELD_EVERY = 256;

/** git's -I: a NUL in the first 8000 bytes makes a file binary. */
const BINARY_PROBE_BYTES = 8000;

export interface ScopeWalk {
  excludeDirs: string[];
  /** Discovery's ignore globs (default: DEFAULT_CONFIG.ignoreGlobs). */
  ignoreGlobs?: string[];
  inScope: (path: string) => boolean;
  budget?: Partial<WalkBudget>;
  signal?: AbortSignal;
}

export interface UsageWalk extends ScopeWalk {
  /** performance.now() past which the walk stops (the count's wall-clock budget); none: no time limit. */
  deadline?: number;
  /** The budget the deadline stands for, as the cut's reason names it. */
  budgetMs?: number;
  terms: string[];
  maxLockBytes: number;
  isLock: (path: string) => boolean;
  lockReason: (bytes: number) => string;
  onLine: (path: string, line: number, text: string) => void;
}

interface VisitedFile {
  path: string;
  abs: string;
  size: number;
  mtimeMs: number;
}

/** One .gitignore's rules, applied below its folder. */
interface IgnoreLayer {
  dir: string;
  ig: Ignore;
}

function ignoredBy(layers: IgnoreLayer[], globs: Ignore, path: string): boolean {
  if (!ignore.isPathValid(path) || globs.ignores(path)) return true;
  let ignored = false;
  for (const { dir, ig } of layers) {
    if (dir && !path.startsWith(dir + "/")) continue;
    const r = ig.test(dir ? path.slice(dir.length + 1) : path);
    if (r.ignored) ignored = true;
    else if (r.unignored) ignored = false;
  }
  return ignored;
}

const byName = (a: Dirent, b: Dirent) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/**
 * Visits the files in scope, depth first in name order; `visit` is awaited before the walk goes on. Returns the
 * number of files visited and whether the file budget stopped it.
 */
async function walkScope(
  root: string,
  opts: ScopeWalk,
  visit: (file: VisitedFile) => Promise<void> | void,
  stop: () => boolean = () => false,
): Promise<{ visited: number; cut: boolean }> {
  const maxFiles = opts.budget?.maxFiles ?? DEFAULT_WALK_BUDGET.maxFiles;
  const globs = ignore({ ignorecase: true }).add(opts.ignoreGlobs ?? DEFAULT_CONFIG.ignoreGlobs);
  const excluded = new Set(opts.excludeDirs.map((d) => d.replace(/\/+$/, "")));
  let visited = 0;
  let cut = false;
  const walkDir = async (rel: string, layers: IgnoreLayer[]): Promise<void> => {
    if (opts.signal?.aborted) throw opts.signal.reason ?? new Error("aborted");
    let entries: Dirent[];
    try {
      entries = readdirSync(rel ? join(root, rel) : root, { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort(byName);
    let here = layers;
    if (entries.some((e) => e.name === ".gitignore" && e.isFile())) {
      try {
        here = [...layers, { dir: rel, ig: ignore().add(readFileSync(join(root, rel, ".gitignore"), "utf8")) }];
      } catch {
        // unreadable: its rules do not apply, as for discovery
      }
    }
    for (const e of entries) {
      if (cut || stop()) return;
      const path = rel ? `${rel}/${e.name}` : e.name;
      // Symlinks are never followed: a link could lead out of the repository.
      if (e.isDirectory()) {
        if (e.name === ".git" || excluded.has(path) || ignoredBy(here, globs, `${path}/`)) continue;
        await walkDir(path, here);
      } else if (e.isFile()) {
        if (visited >= maxFiles) {
          cut = true;
          return;
        }
        visited++;
        if (visited % YIELD_EVERY === 0) {
          await new Promise((r) => setImmediate(r));
          if (opts.signal?.aborted) throw opts.signal.reason ?? new Error("aborted");
        }
        if (!opts.inScope(path) || ignoredBy(here, globs, path)) continue;
        const abs = join(root, path);
        let st;
        try {
          st = lstatSync(abs);
        } catch {
          continue;
        }
        if (st.isFile()) await visit({ path, abs, size: st.size, mtimeMs: st.mtimeMs });
      }
    }
  };
  await walkDir("", []);
  return { visited, cut };
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function fingerprintOf(files: VisitedFile[], cut: boolean): string {
  const h = createHash("sha256").update(`walk\0${cut ? "cut" : "whole"}\0`);
  for (const f of files) h.update(`${f.path}\0${f.size}\0${Math.floor(f.mtimeMs)}\n`);
  return `walk:${h.digest("hex").slice(0, 40)}`;
}

/** The fingerprint of the files in scope (path, size, mtime), by the same walk the count makes; nothing is read. */
export async function walkState(root: string, opts: ScopeWalk): Promise<string> {
  const files: VisitedFile[] = [];
  const { cut } = await walkScope(root, opts, (f) => void files.push(f));
  return fingerprintOf(files, cut);
}

/** Walks, reads and reports the matching lines of every file in scope, within the budgets. */
export async function walkUsageFiles(root: string, opts: UsageWalk): Promise<{ skipped: { path: string; reason: string }[]; truncated?: string }> {
  const maxBytes = opts.budget?.maxBytes ?? DEFAULT_WALK_BUDGET.maxBytes;
  // git grep -i -F -w: a term, case-insensitively, not inside a longer word ([A-Za-z0-9_]).
  const anyTerm = new RegExp(`(?<![A-Za-z0-9_])(?:${opts.terms.map(escapeRegExp).join("|")})(?![A-Za-z0-9_])`, "i");
  const skipped: { path: string; reason: string }[] = [];
  let read = 0;
  let bytesCut = false;
  const maxFileBytes = opts.budget?.maxFileBytes ?? DEFAULT_WALK_BUDGET.maxFileBytes;
  let timeCut = false;
  const outOfTime = () => (timeCut ||= opts.deadline !== undefined && performance.now() > opts.deadline);
  const { visited, cut } = await walkScope(root, opts, (f) => {
    if (bytesCut || outOfTime()) return;
    if (opts.isLock(f.path) && f.size > opts.maxLockBytes) {
      skipped.push({ path: f.path, reason: opts.lockReason(f.size) });
      return;
    }
    if (f.size > maxFileBytes) {
      skipped.push({ path: f.path, reason: `file is ${(f.size / 1048576).toFixed(1)} MB (limit ${(maxFileBytes / 1048576).toFixed(0)} MB)` });
      return;
    }
    if (read + f.size > maxBytes) {
      bytesCut = true;
      return;
    }
    let buf: Buffer;
    try {
      buf = readFileSync(f.abs);
    } catch {
      return;
    }
    read += buf.length;
    if (buf.subarray(0, BINARY_PROBE_BYTES).includes(0)) return;
    const lines = buf.toString("utf8").split("\n");
    // A final newline ends the last line; it does not start another.
    if (lines.length && lines[lines.length - 1] === "") lines.pop();
    lines.forEach((line, i) => {
      if (anyTerm.test(line)) opts.onLine(f.path, i + 1, line);
    });
  }, outOfTime);
  const maxFiles = opts.budget?.maxFiles ?? DEFAULT_WALK_BUDGET.maxFiles;
  const truncated = timeCut
    ? `cut at the ${opts.budgetMs ?? 0} ms budget: counts are lower bounds`
    : cut
      ? `walk stopped at its ${maxFiles}-file budget (${visited} files visited): counts are lower bounds`
      : bytesCut
        ? `walk stopped reading at its ${(maxBytes / 1048576).toFixed(0)} MB budget: counts are lower bounds`
        : undefined;
  return { skipped, ...(truncated ? { truncated } : {}) };
}
