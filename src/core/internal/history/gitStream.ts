// Streaming `git log` for the history index. simple-git collects a command's whole output before it returns, which
// for 100,000 commits is hundreds of MB; these two passes read git's stdout as it arrives instead, with the same
// discipline (an argument array, never a shell; no external diff or textconv drivers, no signature checks).
//  - commits(): sha, author date, subject, body and the touched paths (--name-status), one record at a time;
//  - docDiffs(): the added and removed lines of documentation files (a pathspec), capped per commit.
import { spawn } from "node:child_process";
import { createReadStream, openSync, closeSync } from "node:fs";
import type { TouchedFile } from "../gitTerms";
import { hardenedGitArgs, hardenedGitEnv } from "../gitSafety";

const RS = "\x1e";
const FS = "\x1f";

export type { TouchedFile };

export interface CommitRecord {
  sha: string;
  /** Author date, seconds since the epoch. */
  ts: number;
  subject: string;
  body: string;
  files: TouchedFile[];
}

export interface DocHunk {
  /** First line of the hunk on the new side (or the old side for a pure removal). */
  line: number;
  /** Lines on that side (0 for a pure removal on the new side). */
  count: number;
  /** The changed lines, each prefixed with "+" or "-". */
  text: string;
}

export interface DocDiff {
  sha: string;
  files: { path: string; hunks: DocHunk[] }[];
  /** All kept lines, without their +/- prefix: what the FTS diff column indexes. */
  text: string;
}

/** Caps on what one commit contributes (a mass reformat of every doc must not bloat the index). */
export const DOC_CAPS = { lines: 400, chars: 16_000, lineChars: 300, files: 30 };

export interface GitStreamOptions {
  cwd: string;
  signal?: AbortSignal;
  /** Written to git's stdin (commit lists for --stdin). */
  stdin?: string;
}

export const LOG_SAFETY = ["--no-show-signature", "--no-ext-diff", "--no-textconv", "--no-renames", "--no-color"];

/** The hardened `-c` settings (gitSafety.ts: no repository-named program runs), then ours. */
function gitArgs(args: string[]): string[] {
  return [...hardenedGitArgs(), "-c", "core.quotepath=false", ...args];
}

/** No pager, no prompt, no optional locks, no ambient GIT_* variables; stable messages. */
function gitEnv(): NodeJS.ProcessEnv {
  return { ...hardenedGitEnv(), LC_ALL: "C" };
}

/** git with the config that keeps it quiet and local. */
function spawnGit(args: string[], opts: GitStreamOptions) {
  const child = spawn("git", gitArgs(args), {
    cwd: opts.cwd,
    env: gitEnv(),
    stdio: ["pipe", "pipe", "pipe"],
    shell: false,
    windowsHide: true,
  });
  return child;
}

/**
 * What a record splitter keeps of a record: its first `cap` characters (per field when `field` is set), cut back to
 * just after the last `cutAfter` character in them when there is one (whole lines, whole `-z` tokens); the rest, up
 * to the next field or record separator, is dropped as it streams by. The consumers keep far less (parseDocDiff:
 * 400 lines / 16,000 characters; a commit body: 8,000 characters), so only a pathological record (a 40 MB generated
 * doc in one commit, a 60 MB commit message) is ever cut, and it costs one pass and at most `cap` characters.
 */
export interface SplitOptions {
  cap: number;
  /** A field separator (the commit log's FS): each field gets its own cap, so a huge body never hides the files. */
  field?: string;
  cutAfter: string;
}

/** Characters kept per record (doc diffs) or per field (commit log): see {@link SplitOptions}. */
export const RECORD_CAP = 1024 * 1024;

/** Doc-diff records: the head, in whole lines. */
export const DOC_DIFF_SPLIT: SplitOptions = { cap: RECORD_CAP, cutAfter: "\n" };
/** Commit-log records: each field's head; a cut file list ends after a whole NUL-terminated token. */
export const COMMIT_SPLIT: SplitOptions = { cap: RECORD_CAP, field: FS, cutAfter: "\0" };

/**
 * Splits streamed text into records (each starts with `separator`; empty ones are skipped). A separator is looked
 * for only in the new chunk and a pending record is kept as pieces, so a record of any size costs linear time.
 */
export class RecordSplitter {
  private pieces: string[] = [];
  /** Where the current field's pieces start in `pieces`. */
  private fieldStart = 0;
  private fieldChars = 0;
  /** The current field (or record) reached the cap: its text is dropped up to the next separator. */
  private dropping = false;

  constructor(
    private readonly separator: string,
    private readonly opts: SplitOptions,
  ) {}

  /** The records that `chunk` completes, without their separator. */
  push(chunk: string): string[] {
    const out: string[] = [];
    let from = 0;
    for (let at = chunk.indexOf(this.separator); at >= 0; at = chunk.indexOf(this.separator, from)) {
      this.add(chunk.slice(from, at));
      this.close(out);
      from = at + this.separator.length;
    }
    this.add(from ? chunk.slice(from) : chunk);
    return out;
  }

  /** The last record, at the end of the stream. */
  end(): string[] {
    const out: string[] = [];
    this.close(out);
    return out;
  }

  private close(out: string[]): void {
    const record = this.pieces.length === 1 ? this.pieces[0] : this.pieces.join("");
    if (record.length > 0) out.push(record);
    this.pieces = [];
    this.fieldStart = 0;
    this.fieldChars = 0;
    this.dropping = false;
  }

  private add(text: string): void {
    const field = this.opts.field;
    if (!text || !field) return this.keep(text);
    let from = 0;
    for (let at = text.indexOf(field); at >= 0; at = text.indexOf(field, from)) {
      this.keep(text.slice(from, at));
      this.pieces.push(field);
      this.fieldStart = this.pieces.length;
      this.fieldChars = 0;
      this.dropping = false;
      from = at + field.length;
    }
    this.keep(from ? text.slice(from) : text);
  }

  private keep(text: string): void {
    if (!text || this.dropping) return;
    const room = this.opts.cap - this.fieldChars;
    if (text.length <= room) {
      this.pieces.push(text);
      this.fieldChars += text.length;
      return;
    }
    const head = this.pieces.splice(this.fieldStart).join("") + text.slice(0, room);
    const cut = head.lastIndexOf(this.opts.cutAfter);
    this.pieces.push(cut >= 0 ? head.slice(0, cut + 1) : head);
    this.dropping = true;
  }
}

/**
 * Streams git's stdout split on `separator` (records start with it). `onRecord` may return a promise: reading
 * pauses until it settles (backpressure), so memory holds one chunk and a few records at a time; a record past
 * the cap of `split` keeps only its head.
 */
export function streamRecords(
  args: string[],
  separator: string,
  opts: GitStreamOptions,
  onRecord: (record: string) => void | Promise<void>,
  split: SplitOptions = DOC_DIFF_SPLIT,
): Promise<void> {
  return new Promise((resolve, reject) => {
    if (opts.signal?.aborted) return reject(opts.signal.reason ?? new Error("aborted"));
    const child = spawnGit(args, opts);
    const splitter = new RecordSplitter(separator, split);
    let stderr = "";
    let failed: unknown;
    let pending: Promise<void> = Promise.resolve();
    const onAbort = () => child.kill("SIGTERM");
    opts.signal?.addEventListener("abort", onAbort, { once: true });
    child.stdout.setEncoding("utf8");
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (c: string) => {
      if (stderr.length < 4000) stderr += c;
    });
    child.stdin.on("error", () => undefined);
    if (opts.stdin !== undefined) child.stdin.end(opts.stdin);
    else child.stdin.end();
    const feed = (records: string[]) => {
      pending = pending.then(async () => {
        for (const r of records) {
          if (failed) return;
          try {
            await onRecord(r);
          } catch (err) {
            failed = err;
            child.kill("SIGTERM");
          }
        }
      });
    };
    child.stdout.on("data", (chunk: string) => {
      const records = splitter.push(chunk);
      if (!records.length) return;
      child.stdout.pause();
      feed(records);
      void pending.then(() => child.stdout.resume());
    });
    child.on("error", (err) => {
      failed ??= err;
    });
    child.on("close", (code) => {
      opts.signal?.removeEventListener("abort", onAbort);
      feed(splitter.end());
      void pending.then(() => {
        if (opts.signal?.aborted) return reject(opts.signal.reason ?? new Error("aborted"));
        if (failed) return reject(failed);
        if (code !== 0) return reject(new Error(`git ${args[0]} failed (exit ${code}): ${stderr.split("\n").find((l) => l.trim()) ?? ""}`.trim()));
        resolve();
      });
    });
  });
}

/** Parses records from a readable text stream (a spooled git output file), with the same backpressure and cap. */
export function streamFileRecords(
  file: string,
  separator: string,
  onRecord: (record: string) => void | Promise<void>,
  signal?: AbortSignal,
  split: SplitOptions = DOC_DIFF_SPLIT,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const input = createReadStream(file, { encoding: "utf8", highWaterMark: 256 * 1024 });
    const splitter = new RecordSplitter(separator, split);
    let failed: unknown;
    let pending: Promise<void> = Promise.resolve();
    const feed = (records: string[]) => {
      pending = pending.then(async () => {
        for (const r of records) {
          if (failed) return;
          if (signal?.aborted) {
            failed = signal.reason ?? new Error("aborted");
            input.destroy();
            return;
          }
          try {
            await onRecord(r);
          } catch (err) {
            failed = err;
            input.destroy();
          }
        }
      });
    };
    input.on("data", (chunk) => {
      const records = splitter.push(chunk as string);
      if (!records.length) return;
      input.pause();
      feed(records);
      void pending.then(() => input.resume());
    });
    const finish = (err?: unknown) => {
      if (err) failed ??= err;
      feed(splitter.end());
      void pending.then(() => (failed ? reject(failed) : resolve()));
    };
    input.on("error", (err) => finish(err));
    input.on("close", () => finish());
  });
}

/** Runs git with its stdout written straight to `file` (no memory), e.g. while another pass is being consumed. */
export function spoolGit(args: string[], opts: GitStreamOptions, file: string): Promise<void> {
  return new Promise((resolve, reject) => {
    if (opts.signal?.aborted) return reject(opts.signal.reason ?? new Error("aborted"));
    const fd = openSync(file, "w", 0o600);
    let child;
    try {
      child = spawn("git", gitArgs(args), {
        cwd: opts.cwd,
        env: gitEnv(),
        stdio: ["pipe", fd, "pipe"],
        shell: false,
        windowsHide: true,
      });
    } finally {
      closeSync(fd);
    }
    let stderr = "";
    const onAbort = () => child.kill("SIGTERM");
    opts.signal?.addEventListener("abort", onAbort, { once: true });
    child.stderr!.on("data", (c: Buffer) => {
      if (stderr.length < 4000) stderr += c.toString("utf8");
    });
    child.stdin!.on("error", () => undefined);
    child.stdin!.end(opts.stdin ?? "");
    child.on("error", (err) => reject(err));
    child.on("close", (code) => {
      opts.signal?.removeEventListener("abort", onAbort);
      if (opts.signal?.aborted) return reject(opts.signal.reason ?? new Error("aborted"));
      if (code !== 0) return reject(new Error(`git ${args[0]} failed (exit ${code}): ${stderr.split("\n").find((l) => l.trim()) ?? ""}`.trim()));
      resolve();
    });
  });
}

/** Runs git and returns its stdout (small outputs only: rev-parse, rev-list --count). */
export function gitOutput(args: string[], opts: GitStreamOptions): Promise<string> {
  return new Promise((resolve, reject) => {
    if (opts.signal?.aborted) return reject(opts.signal.reason ?? new Error("aborted"));
    const child = spawnGit(args, opts);
    const out: Buffer[] = [];
    let stderr = "";
    const onAbort = () => child.kill("SIGTERM");
    opts.signal?.addEventListener("abort", onAbort, { once: true });
    child.stdout.on("data", (c: Buffer) => out.push(c));
    child.stderr.on("data", (c: Buffer) => {
      if (stderr.length < 4000) stderr += c.toString("utf8");
    });
    child.stdin.on("error", () => undefined);
    child.stdin.end(opts.stdin ?? "");
    child.on("error", (err) => reject(err));
    child.on("close", (code) => {
      opts.signal?.removeEventListener("abort", onAbort);
      if (opts.signal?.aborted) return reject(opts.signal.reason ?? new Error("aborted"));
      if (code !== 0) return reject(new Error(`git ${args[0]} failed (exit ${code}): ${stderr.split("\n").find((l) => l.trim()) ?? ""}`.trim()));
      resolve(Buffer.concat(out).toString("utf8"));
    });
  });
}

/**
 * Which of `shas` are not commits in the repository (missing, or another kind of object): one
 * `git cat-file --batch-check` process for the whole list.
 */
export async function notCommits(shas: string[], opts: Omit<GitStreamOptions, "stdin"> & { keep?: boolean }): Promise<string[]> {
  const wanted = [...new Set(shas)];
  if (!wanted.length) return [];
  // A value that is not a full hex object name is never passed to git (a line like "HEAD" would resolve).
  const bad = wanted.filter((s) => !/^[0-9a-f]{40,64}$/.test(s));
  const asked = wanted.filter((s) => /^[0-9a-f]{40,64}$/.test(s));
  if (!asked.length) return bad;
  const kept = opts.keep && opts.cwd ? await keptBatchCheck(opts.cwd, asked, opts.signal) : undefined;
  if (opts.signal?.aborted) throw opts.signal.reason ?? new Error("aborted");
  const out = kept ? kept.join("\n") : await gitOutput(["cat-file", "--batch-check=%(objectname) %(objecttype)"], { cwd: opts.cwd, signal: opts.signal, stdin: asked.join("\n") + "\n" });
  const commits = new Set(
    out
      .split("\n")
      .map((l) => l.trim().split(" "))
      .filter(([, type]) => type === "commit")
      .map(([name]) => name),
  );
  return [...bad, ...asked.filter((s) => !commits.has(s))];
}

export const COMMIT_FORMAT = "--format=%x1e%H%x1f%at%x1f%s%x1f%b%x1f";

/** Parses one record of `git log -z --name-status --format=%x1e%H%x1f%at%x1f%s%x1f%b%x1f` (without the RS). */
export function parseCommitRecord(part: string): CommitRecord | undefined {
  const fields = part.split(FS);
  if (fields.length < 5) return undefined;
  const [sha, ts, subject, body] = fields;
  const id = sha.replace(/^[\s\0]+/, "");
  if (!/^[0-9a-f]{40,64}$/.test(id)) return undefined;
  const tokens = fields
    .slice(4)
    .join(FS)
    .split("\0")
    .map((t) => t.replace(/^\n+/, ""))
    .filter((t) => t.length > 0);
  const files: TouchedFile[] = [];
  for (let i = 0; i + 1 < tokens.length; ) {
    if (/^[A-Z][0-9]*$/.test(tokens[i])) {
      files.push({ status: tokens[i][0], path: tokens[i + 1] });
      i += 2;
    } else i += 1;
  }
  return { sha: id, ts: Number(ts) || 0, subject: subject.trim(), body: body.trim(), files };
}

function commitArgs(revs: { range: string[] } | { stdin: string[] }, firstParentMerges: boolean): string[] {
  return [
    "log",
    ...LOG_SAFETY,
    "-z",
    "--name-status",
    ...(firstParentMerges ? ["--diff-merges=first-parent"] : []),
    COMMIT_FORMAT,
    ...("range" in revs ? revs.range : ["--no-walk=unsorted", "--stdin"]),
    "--",
  ];
}

/** Writes the commit log of a range (or a sha list) to `file`, to be read back with readSpooledCommits. */
export function spoolCommits(revs: { range: string[] } | { stdin: string[] }, opts: GitStreamOptions & { firstParentMerges: boolean }, file: string): Promise<void> {
  return spoolGit(commitArgs(revs, opts.firstParentMerges), { ...opts, ...("stdin" in revs ? { stdin: revs.stdin.join("\n") + "\n" } : {}) }, file);
}

export function readSpooledCommits(file: string, onCommit: (c: CommitRecord) => void | Promise<void>, signal?: AbortSignal): Promise<void> {
  return streamFileRecords(
    file,
    RS,
    (r) => {
      const c = parseCommitRecord(r);
      return c ? onCommit(c) : undefined;
    },
    signal,
    COMMIT_SPLIT,
  );
}

/** Streams commits (newest first) for a revision range, or for the commits listed on stdin (`--no-walk`). */
export function streamCommits(
  revs: { range: string[] } | { stdin: string[] },
  opts: GitStreamOptions & { firstParentMerges: boolean },
  onCommit: (c: CommitRecord) => void | Promise<void>,
): Promise<void> {
  const stdin = "stdin" in revs ? { stdin: revs.stdin.join("\n") + "\n" } : {};
  return streamRecords(
    commitArgs(revs, opts.firstParentMerges),
    RS,
    { ...opts, ...stdin },
    (r) => {
      const c = parseCommitRecord(r);
      return c ? onCommit(c) : undefined;
    },
    COMMIT_SPLIT,
  );
}

/** Streams the capped documentation diffs of the commits in a range (or listed on stdin) that touch `pathspecs`. */
export function streamDocDiffs(
  revs: { range: string[] } | { stdin: string[] },
  pathspecs: string[],
  opts: GitStreamOptions,
  onDiff: (d: DocDiff) => void | Promise<void>,
): Promise<void> {
  const args = [
    "log",
    ...LOG_SAFETY,
    "--full-history",
    "-p",
    "--unified=0",
    "--format=%x1e%H",
    ...("range" in revs ? revs.range : ["--no-walk=unsorted", "--stdin"]),
    "--",
    ...pathspecs,
  ];
  const stdin = "stdin" in revs ? { stdin: revs.stdin.join("\n") + "\n" } : {};
  return streamRecords(
    args,
    RS,
    { ...opts, ...stdin },
    (r) => {
      const d = parseDocDiff(r);
      return d && d.files.length ? onDiff(d) : undefined;
    },
    DOC_DIFF_SPLIT,
  );
}

function unquote(path: string): string {
  if (!path.startsWith('"')) return path;
  try {
    return JSON.parse(path.replace(/\\([0-7]{3})/g, (_m, o: string) => `\\u00${parseInt(o, 8).toString(16).padStart(2, "0")}`));
  } catch {
    return path.slice(1, -1);
  }
}

/** Lines that carry no words ("---", "|---|", "```", blank) are not worth indexing or citing. */
const TWO_WORD_CHARS = /[\p{L}\p{N}][^]*[\p{L}\p{N}]/u;
function meaningful(line: string): boolean {
  return TWO_WORD_CHARS.test(line);
}

/** Parses one `git log -p --unified=0 --format=%x1e%H` record (without the RS) into capped hunks. */
export function parseDocDiff(record: string): DocDiff | undefined {
  const lines = record.split("\n");
  const sha = lines[0].trim();
  if (!/^[0-9a-f]{40,64}$/.test(sha)) return undefined;
  const files: DocDiff["files"] = [];
  const kept: string[] = [];
  let chars = 0;
  let file: DocDiff["files"][number] | undefined;
  let hunk: (DocHunk & { lines: string[] }) | undefined;
  let oldPath = "";
  let full = false;
  const closeHunk = () => {
    if (hunk && file && hunk.lines.length) file.hunks.push({ line: hunk.line, count: hunk.count, text: hunk.lines.join("\n") });
    hunk = undefined;
  };
  for (let i = 1; i < lines.length; i++) {
    const l = lines[i];
    if (l.startsWith("diff --git ")) {
      closeHunk();
      file = undefined;
      oldPath = "";
      continue;
    }
    if (l.startsWith("--- ")) {
      oldPath = l === "--- /dev/null" ? "" : unquote(l.slice(4)).replace(/^a\//, "");
      continue;
    }
    if (l.startsWith("+++ ")) {
      const newPath = l === "+++ /dev/null" ? oldPath : unquote(l.slice(4)).replace(/^b\//, "");
      if (files.length < DOC_CAPS.files && newPath) {
        file = { path: newPath, hunks: [] };
        files.push(file);
      } else file = undefined;
      continue;
    }
    if (l.startsWith("@@")) {
      closeHunk();
      const m = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(l);
      if (!m || !file) continue;
      const newCount = m[4] === undefined ? 1 : Number(m[4]);
      const line = newCount === 0 ? Math.max(1, Number(m[3])) : Number(m[3]);
      hunk = { line, count: newCount, text: "", lines: [] };
      continue;
    }
    if (!hunk || full) continue;
    if ((l.startsWith("+") || l.startsWith("-")) && meaningful(l.slice(1))) {
      const text = l.length > DOC_CAPS.lineChars + 1 ? l.slice(0, DOC_CAPS.lineChars + 1) : l;
      hunk.lines.push(text);
      kept.push(text.slice(1));
      chars += text.length;
      if (kept.length >= DOC_CAPS.lines || chars >= DOC_CAPS.chars) full = true;
    }
  }
  closeHunk();
  const withHunks = files.filter((f) => f.hunks.length > 0);
  return { sha, files: withHunks, text: kept.join("\n") };
}

/** How long a kept `cat-file --batch-check` waits for its next question before it is closed. */
const BATCH_IDLE_MS = 30_000;

interface BatchCheck {
  child: ReturnType<typeof spawnGit>;
  /** Output not yet consumed. */
  buffer: string;
  /** The lines the current request still waits for. */
  waiting?: { lines: number; got: string[]; done: (lines: string[] | undefined) => void };
  /** Requests run one after another. */
  queue: Promise<unknown>;
  idle?: ReturnType<typeof setTimeout>;
  dead: boolean;
}

const batches = new Map<string, BatchCheck>();

function startBatch(cwd: string): BatchCheck {
  const child = spawnGit(["cat-file", "--batch-check=%(objectname) %(objecttype)"], { cwd });
  const b: BatchCheck = { child, buffer: "", queue: Promise.resolve(), dead: false };
  const die = () => {
    b.dead = true;
    if (batches.get(cwd) === b) batches.delete(cwd);
    clearTimeout(b.idle);
    b.waiting?.done(undefined);
    b.waiting = undefined;
  };
  child.on("error", die);
  child.on("close", die);
  child.stdin.on("error", die);
  child.stderr.on("data", () => undefined);
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk: string) => {
    b.buffer += chunk;
    const w = b.waiting;
    if (!w) return;
    let nl: number;
    while (w.got.length < w.lines && (nl = b.buffer.indexOf("\n")) >= 0) {
      w.got.push(b.buffer.slice(0, nl));
      b.buffer = b.buffer.slice(nl + 1);
    }
    if (w.got.length === w.lines) {
      b.waiting = undefined;
      w.done(w.got);
    }
  });
  // An idle kept process never keeps the host alive, and ends with it (its stdin closes).
  holdHost(b, false);
  return b;
}

/** While a request waits for its answer the process (and its pipes) keep the host's event loop alive; idle, not. */
function holdHost(b: BatchCheck, hold: boolean): void {
  const handles = [b.child, b.child.stdin, b.child.stdout, b.child.stderr] as unknown as { ref?: () => void; unref?: () => void }[];
  for (const h of handles) (hold ? h.ref : h.unref)?.call(h);
}

/**
 * `cat-file --batch-check` lines for `names` from a process kept per repository for the next question (a
 * long-lived host: it saves a git process per question), or undefined when that process failed (the caller then
 * runs one for this request). git looks for packs added since it started before it calls an object missing.
 */
function keptBatchCheck(cwd: string, names: string[], signal?: AbortSignal): Promise<string[] | undefined> {
  let b = batches.get(cwd);
  if (!b || b.dead) {
    b = startBatch(cwd);
    batches.set(cwd, b);
  }
  const batch = b;
  const run = batch.queue.then(
    () =>
      new Promise<string[] | undefined>((resolve) => {
        if (batch.dead || signal?.aborted) return resolve(undefined);
        clearTimeout(batch.idle);
        holdHost(batch, true);
        const onAbort = () => batch.child.kill("SIGTERM");
        signal?.addEventListener("abort", onAbort, { once: true });
        batch.waiting = {
          lines: names.length,
          got: [],
          done: (lines) => {
            signal?.removeEventListener("abort", onAbort);
            holdHost(batch, false);
            if (!batch.dead) {
              batch.idle = setTimeout(() => batch.child.kill("SIGTERM"), BATCH_IDLE_MS);
              batch.idle.unref?.();
            }
            resolve(lines);
          },
        };
        batch.child.stdin.write(names.join("\n") + "\n");
      }),
  );
  batch.queue = run.catch(() => undefined);
  return run;
}

/** Closes every kept `cat-file` process (tests). */
export function closeKeptBatchChecks(): void {
  for (const b of batches.values()) b.child.kill("SIGTERM");
  batches.clear();
}
