// What the code-usage count's `git grep --untracked` would search beyond a plain `git grep` of the tracked files,
// listed ahead of time so the count can usually run the plain one.
//
// `--untracked` makes git walk the whole work tree for files it does not track, at the moment of the count: on a
// 10k-file repository that walk is ~0.3 s of the count's ~0.5 s, and it sits on the answer's critical path (the
// count needs the options' package names, so it runs after synthesis). The listing below needs no names: the
// pipeline starts it with the turn's gather step, where it overlaps discovery and the experts' in-process work.
//
// In `--untracked` mode git searches every file its directory walk finds that the standard excludes do not ignore
// (.gitignore, info/exclude, core.excludesFile), tracked or not; a plain `git grep` searches every tracked file,
// ignored or not (a force-added one). So the two read the same files exactly when no untracked, not-ignored file is
// in the count's scope, once the tracked files those excludes ignore are left out of the plain search. Anything else
// (an untracked file in scope, too many ignored tracked ones, a listing that failed or ran out of time) means the
// count runs `--untracked` as before.
import { relative, resolve, sep } from "node:path";
import type { RepositoryCheck } from "./gitSafety";
import { excludePathspecs, inUsageScope, listTrackedLocks, repositoryCheckOrNothing, runGit } from "./codeUsage";
import { cachedWorktreeListing, keepWorktreeListing, worktreeProofBefore } from "./gitStateCache";

export interface UsageScope {
  /** Untracked files the standard excludes do not ignore, in the count's scope (full paths, sorted). */
  untracked: string[];
  /** Tracked files in the count's scope that the standard excludes ignore (full paths, sorted). */
  ignoredTracked: string[];
  /** The tracked lock files (codeUsage.ts listTrackedLocks): the count measures them instead of listing them again. */
  locks: string[];
}

export interface UsageScopeOptions {
  /** Folders (workspace-relative) the count never searches; the same as its `excludeDirs`. */
  excludeDirs?: string[];
  repoCheck?: RepositoryCheck;
  /** Wall-clock budget for both listings; past it there is no scope (the count then runs as before). */
  budgetMs?: number;
  signal?: AbortSignal;
}

const DEFAULT_BUDGET_MS = 3000;

/**
 * Lists the untracked and the ignored tracked files in the count's scope, and the tracked lock files (three
 * `git ls-files`, run together, each spawned while the process is still small).
 * Undefined outside a git work tree, on any git failure, or past the budget; a cancellation rejects.
 */
export async function listUsageScope(repo: string, opts: UsageScopeOptions = {}): Promise<UsageScope | undefined> {
  const check = await repositoryCheckOrNothing(repo, opts.repoCheck, opts.signal);
  if (check?.kind !== "work-tree") return undefined;
  const budget = opts.budgetMs ?? DEFAULT_BUDGET_MS;
  const excludes = excludePathspecs((opts.excludeDirs ?? []).filter(Boolean));
  // No pathspec but the exclusions (as codeUsageState lists): git matches each pathspec against every file it sees.
  const list = async (mode: string[]): Promise<string[] | undefined> => {
    const out: string[] = [];
    const run = await runGit(repo, ["ls-files", "-z", "--full-name", ...mode, "--exclude-standard", "--", ".", ...excludes], budget, (chunk) => out.push(chunk), opts.signal);
    if (run.error || run.truncated) return undefined;
    return [...new Set(out.join("").split("\0").filter((p) => p && inUsageScope(p)))].sort();
  };
  // In a long-lived process the three listings are kept while the work tree, its ignore rules and the index are
  // provably unchanged (gitStateCache.ts): the untracked listing walks the whole work tree in git, ~1 s of git's
  // time per question on a 10k-file repository under load.
  const key = JSON.stringify([repo, check.toplevel, excludes]);
  const kept = cachedWorktreeListing<UsageScope>(key, check.toplevel, check.gitDir);
  if (kept) {
    if (opts.signal?.aborted) throw opts.signal.reason ?? new Error("aborted");
    return copyScope(kept);
  }
  const below = relative(check.toplevel, resolve(repo)).split(sep).join("/");
  const before = worktreeProofBefore(check.toplevel, check.gitDir, (opts.excludeDirs ?? []).filter(Boolean).map((d) => (below ? `${below}/${d}` : d)));
  const [untracked, ignoredTracked, locks] = await Promise.all([list(["--others"]), list(["--cached", "--ignored"]), listTrackedLocks(repo, budget, opts.signal)]);
  if (!untracked || !ignoredTracked || !locks) return undefined;
  const scope = { untracked, ignoredTracked, locks };
  keepWorktreeListing(key, before, copyScope(scope));
  return scope;
}

function copyScope(s: UsageScope): UsageScope {
  return { untracked: [...s.untracked], ignoredTracked: [...s.ignoredTracked], locks: [...s.locks] };
}
