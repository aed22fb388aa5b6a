// Where a change comes from: the working tree against HEAD, the staged index, a base ref (the merge base with HEAD,
// so a branch's own changes are checked), a list of files against HEAD, or diff text an agent passes. Git runs only
// hardened (internal/gitSafety.ts); its output is read up to a byte limit and MAX_DIFF_LINES, then git is stopped,
// so a 50 MB diff costs what its first 20k lines cost.
import { spawn } from "node:child_process";
import { open } from "node:fs/promises";
import { checkRepository, filterOverrides, hardenedGitArgs, hardenedGitEnv, type RepositoryCheck } from "../internal/gitSafety";
import { relative, resolve, sep } from "node:path";
import { isInside, resolveInside } from "../contain";
import { MAX_DIFF_LINES, MAX_LINE_CHARS, parseUnifiedDiff, type ChangedFile, type ParsedDiff } from "./diff";

/** Bytes of `git diff` output read at most. */
export const MAX_DIFF_BYTES = 16 * 1024 * 1024;
/** An untracked file is read as wholly added up to this size. */
const MAX_UNTRACKED_BYTES = 1024 * 1024;
const MAX_UNTRACKED_FILES = 200;
const EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";
const GIT_TIMEOUT_MS = 30_000;

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

/** Diff options that never run a program or depend on the user's diff settings. */
const DIFF_ARGS = ["diff", "--no-ext-diff", "--no-textconv", "--no-color", "--src-prefix=a/", "--dst-prefix=b/", "--no-relative", "-M", "--unified=0"];

interface GitRun {
  stdout: string;
  code: number | null;
  stderr: string;
  cut: boolean;
}

/** Runs git with the hardened config; stops reading (and stops git) at maxBytes or maxLines of output. */
function runGit(cwd: string, args: string[], opts: { signal?: AbortSignal; maxBytes?: number; maxLines?: number; config?: string[] } = {}): Promise<GitRun> {
  const maxBytes = opts.maxBytes ?? MAX_DIFF_BYTES;
  const maxLines = opts.maxLines ?? Number.POSITIVE_INFINITY;
  return new Promise((resolve, reject) => {
    const child = spawn("git", [...hardenedGitArgs(), "-c", "core.quotePath=false", ...(opts.config ?? []), ...args], { cwd, env: hardenedGitEnv(), signal: opts.signal, windowsHide: true });
    const chunks: Buffer[] = [];
    let bytes = 0;
    let lines = 0;
    let cut = false;
    let stderr = "";
    const timer = setTimeout(() => child.kill("SIGKILL"), GIT_TIMEOUT_MS);
    child.stdout.on("data", (d: Buffer) => {
      if (cut) return;
      let take = d;
      if (bytes + d.length > maxBytes) take = d.subarray(0, maxBytes - bytes);
      for (let i = take.indexOf(10); i >= 0; i = take.indexOf(10, i + 1)) {
        if (++lines > maxLines) {
          take = take.subarray(0, i + 1);
          break;
        }
      }
      chunks.push(take);
      bytes += take.length;
      if (take.length < d.length || lines > maxLines) {
        cut = true;
        child.kill("SIGKILL");
      }
    });
    child.stderr.on("data", (d: Buffer) => {
      if (stderr.length < 4000) stderr += d.toString("utf8");
    });
    child.on("error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      if (opts.signal?.aborted) return reject(opts.signal.reason ?? new Error("aborted"));
      resolve({ stdout: Buffer.concat(chunks).toString("utf8"), code: cut ? 0 : code, stderr, cut });
    });
  });
}

function firstLine(s: string): string {
  return (s.split("\n").find((l) => l.trim()) ?? "").replace(/^fatal:\s*/, "").slice(0, 200);
}

async function gitOk(cwd: string, args: string[], signal?: AbortSignal): Promise<string | undefined> {
  const r = await runGit(cwd, args, { signal, maxBytes: 1024 * 1024 });
  return r.code === 0 ? r.stdout.trim() : undefined;
}

/** A ref as the user wrote it: refused when git could read it as an option or it holds odd characters. */
function checkRef(ref: string): void {
  if (!ref || ref.startsWith("-") || ref.length > 250 || !/^[\w./@{}^~:+-]+$/.test(ref)) throw new ChangeInputError(`--diff: not a git revision: ${JSON.stringify(ref.slice(0, 80))}`);
}

/** The diff of a change, parsed; the repository must be a normal git work tree (except for diff text). */
export async function readChange(repo: string, source: ChangeSource, signal?: AbortSignal, known?: RepositoryCheck): Promise<ParsedDiff & { root: string }> {
  if (source.kind === "text") return { ...parseUnifiedDiff(source.diff), root: repo };
  // The caller's own check of the same folder, when it made one: one git process less.
  const check = known ?? (await checkRepository(repo, signal));
  if (check.kind !== "work-tree") throw new ChangeInputError(`not a git repository: ${repo} (check reads a change from git; pass the diff text instead)`, "not-a-repository");
  const cwd = check.toplevel;
  const hasHead = (await gitOk(cwd, ["rev-parse", "--verify", "--quiet", "HEAD^{commit}"], signal)) !== undefined;
  const head = hasHead ? "HEAD" : EMPTY_TREE;
  let args: string[];
  // Untracked files are listed while git diffs (the two are independent).
  let untrackedPending: Promise<string[]> = Promise.resolve([]);
  if (source.kind === "staged") {
    args = [...DIFF_ARGS, "--cached", head];
  } else if (source.kind === "ref") {
    checkRef(source.ref);
    if (source.ref.includes("..")) {
      const [a, b] = source.ref.split(/\.{2,3}/);
      for (const r of [a, b]) if (r && (await gitOk(cwd, ["rev-parse", "--verify", "--quiet", `${r}^{commit}`], signal)) === undefined) throw new ChangeInputError(`--diff: unknown revision ${JSON.stringify(r.slice(0, 80))}`);
      args = [...DIFF_ARGS, source.ref];
    } else {
      if ((await gitOk(cwd, ["rev-parse", "--verify", "--quiet", `${source.ref}^{commit}`], signal)) === undefined) throw new ChangeInputError(`--diff: unknown revision ${JSON.stringify(source.ref.slice(0, 80))}`);
      // The branch's own changes: from where it left REF to the working tree (REF's later commits are not "removed").
      const base = hasHead ? await gitOk(cwd, ["merge-base", source.ref, "HEAD"], signal) : undefined;
      args = [...DIFF_ARGS, base || source.ref];
      untrackedPending = untrackedFiles(cwd, [], signal);
    }
  } else if (source.kind === "files") {
    const paths: string[] = [];
    for (const f of source.files) {
      // Lexical: a deleted file is no longer on disk, and git reads only inside the work tree anyway.
      const abs = resolve(cwd, f);
      if (!f || f.includes("\0") || !isInside(cwd, abs) || abs === cwd) throw new ChangeInputError(`--files: not a file inside the repository: ${JSON.stringify(f.slice(0, 120))}`);
      paths.push(relative(cwd, abs).split(sep).join("/"));
    }
    args = [...DIFF_ARGS, head, "--", ...paths.map((p) => `:(literal)${p}`)];
    untrackedPending = untrackedFiles(cwd, paths, signal);
  } else {
    args = [...DIFF_ARGS, head];
    untrackedPending = untrackedFiles(cwd, [], signal);
  }
  untrackedPending.catch(() => undefined); // awaited below, unless the diff fails first
  // A diff against the work tree hashes changed files through the repository's filter drivers: none may run.
  const config = source.kind === "staged" || (source.kind === "ref" && source.ref.includes("..")) ? [] : await filterOverrides(cwd, signal);
  const run = await runGit(cwd, args, { signal, maxLines: MAX_DIFF_LINES + 1, config });
  if (run.code !== 0) throw new ChangeInputError(`git diff failed: ${firstLine(run.stderr) || `exit ${run.code}`}`);
  const parsed = { ...parseUnifiedDiff(run.stdout, { readerTruncated: run.cut }), root: cwd };
  const untracked = await untrackedPending;
  if (parsed.truncated) return parsed;
  // Untracked files count as wholly added lines, within the same line limit as the diff.
  let budget = MAX_DIFF_LINES - parsed.lines;
  let truncated = false;
  const notes: string[] = [];
  for (const path of untracked.slice(0, MAX_UNTRACKED_FILES)) {
    if (budget <= 0) {
      truncated = true;
      break;
    }
    const file = await untrackedAsAdded(cwd, path, budget);
    budget -= file.file.added.length;
    truncated ||= file.cut;
    parsed.files.push(file.file);
  }
  if (untracked.length > MAX_UNTRACKED_FILES) notes.push(`${untracked.length} untracked files: only the first ${MAX_UNTRACKED_FILES} were checked`);
  if (truncated) notes.push(`the change is longer than ${MAX_DIFF_LINES} lines: only its first ${MAX_DIFF_LINES} lines were checked`);
  return { ...parsed, truncated, notes: [...parsed.notes, ...notes] };
}

async function untrackedFiles(cwd: string, paths: string[], signal?: AbortSignal): Promise<string[]> {
  const out = await gitOk(cwd, ["ls-files", "--others", "--exclude-standard", "-z", "--", ...paths.map((p) => `:(literal)${p}`)], signal);
  return (out ?? "").split("\0").filter(Boolean).sort();
}

/** An untracked file as a diff would show it once added: every line added (binary and oversized files marked). */
async function untrackedAsAdded(cwd: string, path: string, maxLines: number): Promise<{ file: ChangedFile; cut: boolean }> {
  const file: ChangedFile = { path, status: "added", binary: false, added: [], removed: [] };
  const abs = await resolveInside(cwd, path).catch(() => undefined);
  if (!abs) return { file: { ...file, binary: true }, cut: false };
  const fh = await open(abs, "r").catch(() => undefined);
  if (!fh) return { file, cut: false };
  try {
    const st = await fh.stat();
    if (!st.isFile()) return { file, cut: false };
    const buf = Buffer.alloc(Math.min(st.size, MAX_UNTRACKED_BYTES));
    await fh.read(buf, 0, buf.length, 0);
    if (buf.subarray(0, 8192).includes(0)) return { file: { ...file, binary: true }, cut: false };
    const lines = buf.toString("utf8").split("\n");
    if (lines.at(-1) === "") lines.pop();
    file.added = lines.slice(0, maxLines).map((text, i) => ({ line: i + 1, text: text.replace(/\r$/, "").slice(0, MAX_LINE_CHARS) }));
    return { file, cut: lines.length > maxLines || st.size > MAX_UNTRACKED_BYTES };
  } finally {
    await fh.close();
  }
}
