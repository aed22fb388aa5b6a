// Where a change comes from: the working tree against HEAD, the staged index, a base ref (the merge base with HEAD,
// so a branch's own changes are checked), a list of files against HEAD, or diff text an agent passes. Git runs only
// hardened (internal/gitSafety.ts, changeGit.ts). The change is read in two diffs sharing MAX_DIFF_LINES (changePaths.ts):
// manifests and attribute-marked files first, then the rest, with lock files left out of both; each is read up to a
// byte limit and the budget, then git is stopped. A name-only listing says which changed files went unread and why.
import { lstat, realpath } from "node:fs/promises";
import { relative, resolve, sep } from "node:path";
import { checkRepository, filterOverrides, type RepositoryCheck } from "../internal/gitSafety";
import { isInside } from "../contain";
import { MAX_DIFF_LINES, parseUnifiedDiff, type ParsedDiff } from "./diff";
import { MAX_DIFF_BYTES, gitOk, runGit } from "./changeGit";
import { diffPathspecs } from "./changePaths";
import { assembleChange, missingFileNotes, type ChangeParts } from "./changeBudget";
import { untrackedFiles } from "./changeUntracked";

export { MAX_DIFF_BYTES, GitTimeoutError } from "./changeGit";

const EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";
/** Bytes of the name-only listing read at most (some 100,000 names). */
const MAX_LISTING_BYTES = 4 * 1024 * 1024;

export type ChangeSource =
  | { kind: "worktree" }
  | { kind: "staged" }
  | { kind: "ref"; ref: string }
  | { kind: "files"; files: string[] }
  | { kind: "text"; diff: string };

/** The change cannot be read as asked (an unknown ref, a file outside the repository, not a git repository). */
export class ChangeInputError extends Error {
  override name = "ChangeInputError";
  constructor(
    message: string,
    /** "not-a-repository": there is no change to read at all (the editor's guard stays quiet on such a folder). */
    readonly reason: "input" | "not-a-repository" = "input",
  ) {
    super(message);
  }
}

/**
 * Diff options that never run a program or depend on the user's diff settings. `--ignore-submodules=dirty`: git
 * would otherwise ask each submodule whether its work tree is dirty (a `git status` there, through the submodule's
 * own filter drivers); a gitlink's commit change is still shown. `--submodule=short`: never a diff run inside one.
 */
const DIFF_OPTS = ["--no-ext-diff", "--no-textconv", "--no-color", "--no-relative", "--ignore-submodules=dirty", "--submodule=short"];
const DIFF_ARGS = ["diff", ...DIFF_OPTS, "--src-prefix=a/", "--dst-prefix=b/", "-M", "--unified=0"];
const LIST_ARGS = ["diff", ...DIFF_OPTS, "--name-only", "-z", "--no-renames"];

function firstLine(s: string): string {
  return (s.split("\n").find((l) => l.trim()) ?? "").replace(/^fatal:\s*/, "").slice(0, 200);
}

/** A ref as the user wrote it: refused when git could read it as an option or it holds odd characters. */
function checkRef(ref: string): void {
  const bad = !ref || ref.startsWith("-") || ref.length > 250 || !/^[\w./@{}^~:+-]+$/.test(ref) || /^\.{2,3}$/.test(ref);
  if (bad) throw new ChangeInputError(`--diff: not a git revision: ${JSON.stringify(ref.slice(0, 80))}`);
}

/** What to diff: git's revision arguments, the --files scope, whether the work tree is read, untracked files too. */
interface DiffPlan {
  revs: string[];
  scope?: string[];
  /** The user's --files values, by repository-relative path (for the note on a path that does not exist). */
  asGiven?: Map<string, string>;
  worktree: boolean;
  untracked: boolean;
}

async function refPlan(cwd: string, ref: string, hasHead: boolean, signal?: AbortSignal): Promise<DiffPlan> {
  checkRef(ref);
  const known = async (r: string) => (await gitOk(cwd, ["rev-parse", "--verify", "--quiet", `${r}^{commit}`], signal)) !== undefined;
  if (ref.includes("..")) {
    for (const r of ref.split(/\.{2,3}/)) if (r && !(await known(r))) throw new ChangeInputError(`--diff: unknown revision ${JSON.stringify(r.slice(0, 80))}`);
    return { revs: [ref], worktree: false, untracked: false };
  }
  if (!(await known(ref))) throw new ChangeInputError(`--diff: unknown revision ${JSON.stringify(ref.slice(0, 80))}`);
  // The branch's own changes: from where it left REF to the working tree (REF's later commits are not "removed").
  const base = hasHead ? await gitOk(cwd, ["merge-base", ref, "HEAD"], signal) : undefined;
  return { revs: [base || ref], worktree: true, untracked: true };
}

const exists = (p: string) =>
  lstat(p).then(
    () => true,
    () => false,
  );

/**
 * `--files` values, relative to the folder the check was asked about (--repo may be a subfolder of the work tree, as
 * git reads paths from where it runs); a value that names nothing there but names a file from the work tree's top is
 * read from there (the repository-relative paths the README documents).
 */
async function filesPlan(cwd: string, repo: string, files: string[], head: string): Promise<DiffPlan> {
  const from = await realpath(resolve(repo)).catch(() => resolve(repo));
  const asGiven = new Map<string, string>();
  for (const f of files) {
    // Lexical: a deleted file is no longer on disk, and git reads only inside the work tree anyway.
    let abs = resolve(from, f);
    if (from !== cwd && !(await exists(abs)) && (await exists(resolve(cwd, f)))) abs = resolve(cwd, f);
    if (!f || f.includes("\0") || !isInside(cwd, abs) || abs === cwd) throw new ChangeInputError(`--files: not a file inside the repository: ${JSON.stringify(f.slice(0, 120))}`);
    asGiven.set(relative(cwd, abs).split(sep).join("/"), f);
  }
  return { revs: [head], scope: [...asGiven.keys()], asGiven, worktree: true, untracked: true };
}

async function planOf(cwd: string, repo: string, source: Exclude<ChangeSource, { kind: "text" }>, signal?: AbortSignal): Promise<DiffPlan> {
  const hasHead = (await gitOk(cwd, ["rev-parse", "--verify", "--quiet", "HEAD^{commit}"], signal)) !== undefined;
  const head = hasHead ? "HEAD" : EMPTY_TREE;
  if (source.kind === "staged") return { revs: ["--cached", head], worktree: false, untracked: false };
  if (source.kind === "ref") return refPlan(cwd, source.ref, hasHead, signal);
  if (source.kind === "files") return filesPlan(cwd, repo, source.files, head);
  return { revs: [head], worktree: true, untracked: true };
}

/**
 * The name-only listing of the change, then the two diffs its names shape (changePaths.ts), side by side. A git that
 * fails or does not finish stops the other; a non-zero exit is bad input (an unknown path, say), a timeout is not.
 */
async function readDiffs(cwd: string, plan: DiffPlan, config: string[], signal?: AbortSignal): Promise<Omit<ChangeParts, "untracked">> {
  const stop = new AbortController();
  const forward = () => stop.abort(signal?.reason);
  if (signal?.aborted) forward();
  else signal?.addEventListener("abort", forward, { once: true });
  const run = async (args: string[], pathspecs: string[], maxLines: number, maxBytes = MAX_DIFF_BYTES) => {
    try {
      const r = await runGit(cwd, [...args, ...plan.revs, "--", ...pathspecs], { signal: stop.signal, maxLines, maxBytes, config });
      if (r.code !== 0) throw new ChangeInputError(`git diff failed: ${firstLine(r.stderr) || `exit ${r.code}`}`);
      return r;
    } catch (err) {
      stop.abort(err);
      throw err;
    }
  };
  try {
    const list = await run(LIST_ARGS, (plan.scope ?? []).map((p) => `:(literal)${p}`), Number.POSITIVE_INFINITY, MAX_LISTING_BYTES);
    const listing = list.stdout.split("\0");
    // The last name of a listing cut at its byte limit may be cut too; the empty string after the last NUL is none.
    listing.pop();
    const paths = diffPathspecs(plan.scope, listing);
    const [priority, rest] = await Promise.all([run([...DIFF_ARGS, "--text"], paths.priority, MAX_DIFF_LINES + 1), run(DIFF_ARGS, paths.rest, MAX_DIFF_LINES + 1)]);
    return { priority, rest, listing, inScope: paths.inScope };
  } finally {
    signal?.removeEventListener("abort", forward);
  }
}

/** The diff of a change, parsed; the repository must be a normal git work tree (except for diff text). */
export async function readChange(repo: string, source: ChangeSource, signal?: AbortSignal, known?: RepositoryCheck): Promise<ParsedDiff & { root: string }> {
  if (source.kind === "text") return { ...parseUnifiedDiff(source.diff), root: repo };
  // The caller's own check of the same folder, when it made one: one git process less.
  const check = known ?? (await checkRepository(repo, signal));
  if (check.kind !== "work-tree") throw new ChangeInputError(`not a git repository: ${repo} (check reads a change from git; pass the diff text instead)`, "not-a-repository");
  const cwd = check.toplevel;
  // A diff against the work tree hashes changed files through the repository's filter drivers: none may run. (Listed
  // while the change is planned; a diff that reads no work tree does not wait for it.)
  const overrides = source.kind === "staged" || (source.kind === "ref" && source.ref.includes("..")) ? Promise.resolve([]) : filterOverrides(cwd, signal);
  overrides.catch(() => undefined); // awaited below, unless planning fails first
  const plan = await planOf(cwd, repo, source, signal);
  // Untracked files are listed while git diffs (the two are independent).
  const untrackedPending = plan.untracked ? untrackedFiles(cwd, plan.scope ?? [], signal) : Promise.resolve([]);
  untrackedPending.catch(() => undefined); // awaited below, unless the diff fails first
  const config = plan.worktree ? await overrides : [];
  const diffs = await readDiffs(cwd, plan, config, signal);
  const untracked = await untrackedPending;
  const change = await assembleChange(cwd, { ...diffs, untracked });
  if (plan.asGiven) change.notes.push(...(await missingFileNotes(cwd, plan.asGiven, change.files)));
  return { ...change, root: cwd };
}
