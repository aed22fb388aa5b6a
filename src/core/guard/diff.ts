// Reads a unified diff (git's, `diff -u`'s, or one pasted by an agent) into changed files with their added and removed
// lines. Never throws: a binary file, a rename with no content change, a deleted file, a malformed hunk or text that
// is no diff at all each come back with a one-line reason; past MAX_DIFF_LINES the rest is left out and said so.

/** Diff lines read at most; a longer diff is checked up to here and the report says so. */
export const MAX_DIFF_LINES = 20_000;
/** Characters of one changed line that are matched (a minified line is cut). */
export const MAX_LINE_CHARS = 2_000;

export interface ChangedLine {
  /** 1-based line in the new file (added) or the old file (removed). */
  line: number;
  text: string;
  /** For a removed line: the new file's line at that point, where a finding about it is shown. */
  at?: number;
}

export type ChangeStatus = "added" | "modified" | "deleted" | "renamed";

export interface ChangedFile {
  /** The new path (the old one for a deleted file). */
  path: string;
  old_path?: string;
  status: ChangeStatus;
  binary: boolean;
  added: ChangedLine[];
  removed: ChangedLine[];
  /** Why the file's lines were not read (the change's line budget ran out first, an untracked FIFO): it is skipped so. */
  unread?: string;
}

export interface ParsedDiff {
  files: ChangedFile[];
  /** One line each: what could not be read. */
  notes: string[];
  /** The diff had more than MAX_DIFF_LINES lines (or was cut earlier by its reader). */
  truncated: boolean;
  /** Diff lines read. */
  lines: number;
}

const HUNK = /^@@ -(\d{1,9})(?:,(\d{1,9}))? \+(\d{1,9})(?:,(\d{1,9}))? @@/;

/** Git's quoted path ("a/t\303\251st") → its text; an unquoted path is returned as is. */
export function unquotePath(raw: string): string {
  if (!raw.startsWith('"') || !raw.endsWith('"') || raw.length < 2) return raw;
  const bytes: number[] = [];
  const body = raw.slice(1, -1);
  const simple: Record<string, number> = { n: 10, t: 9, r: 13, b: 8, f: 12, a: 7, v: 11, "\\": 92, '"': 34 };
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c !== "\\") {
      bytes.push(...Buffer.from(c, "utf8"));
      continue;
    }
    const next = body[i + 1] ?? "";
    if (/[0-7]/.test(next)) {
      const oct = /^[0-7]{1,3}/.exec(body.slice(i + 1, i + 4))![0];
      bytes.push(parseInt(oct, 8) & 0xff);
      i += oct.length;
    } else {
      bytes.push(simple[next] ?? next.charCodeAt(0));
      i++;
    }
  }
  return Buffer.from(bytes).toString("utf8");
}

/** A header path ("a/src/x.ts", "b/x", "/dev/null", "x.ts\t2024-01-01 …") → the repository path, or undefined for none. */
function headerPath(raw: string, prefix: "a/" | "b/"): string | undefined {
  let p = raw.replace(/\t.*$/, "").trim();
  p = unquotePath(p);
  if (p === "/dev/null") return undefined;
  if (p.startsWith(prefix)) p = p.slice(prefix.length);
  return p.replace(/^\.\//, "");
}

/** Paths a pasted diff may not name: absolute, or climbing out of the repository. */
function unsafePath(p: string): boolean {
  return !p || p.startsWith("/") || /^[A-Za-z]:[\\/]/.test(p) || p.split(/[\\/]/).includes("..") || p.includes("\0");
}

/** `diff --git a/X b/Y` → [X, Y] when the two halves can be told apart. */
function gitHeaderPaths(rest: string): [string, string] | undefined {
  if (rest.startsWith('"')) {
    const m = /^("(?:[^"\\]|\\.)*")\s+("(?:[^"\\]|\\.)*"|\S.*)$/.exec(rest);
    if (m) return [headerPath(m[1], "a/") ?? "", headerPath(m[2], "b/") ?? ""];
    return undefined;
  }
  // Unquoted: "a/<p> b/<p>" with the same path is the common case; otherwise split at the first " b/".
  const half = (rest.length - 1) / 2;
  if (Number.isInteger(half) && rest.slice(2, half) === rest.slice(half + 3) && rest.startsWith("a/") && rest.slice(half + 1, half + 3) === "b/") {
    return [rest.slice(2, half), rest.slice(half + 3)];
  }
  const at = rest.indexOf(" b/");
  return at > 0 && rest.startsWith("a/") ? [rest.slice(2, at), rest.slice(at + 3)] : undefined;
}

/** The parser's state: the file being read and where its current hunk stands. */
class DiffReader {
  files: ChangedFile[] = [];
  notes: string[] = [];
  cur: { file: ChangedFile; sawHeaders: boolean } | undefined;
  oldLeft = 0;
  newLeft = 0;
  oldNo = 0;
  newNo = 0;
  badHunkIn: string | undefined;
  orphanHunks = 0;

  finish(): void {
    if (!this.cur) return;
    const f = this.cur.file;
    if (f.path && !unsafePath(f.path) && !(f.old_path && unsafePath(f.old_path))) this.files.push(f);
    else if (f.path || f.old_path) this.notes.push(`a file path outside the repository was ignored: ${JSON.stringify((f.path || f.old_path || "").slice(0, 120))}`);
    this.cur = undefined;
  }

  start(path = "", old?: string): void {
    this.finish();
    this.cur = { file: { path, ...(old !== undefined ? { old_path: old } : {}), status: "modified", binary: false, added: [], removed: [] }, sawHeaders: false };
    this.oldLeft = this.newLeft = 0;
    this.badHunkIn = undefined;
  }

  /** A line inside a hunk (the counts say which lines are content, so a removed "-- x" is no header): true when used. */
  content(line: string): boolean {
    const cur = this.cur;
    if (!cur || (this.oldLeft <= 0 && this.newLeft <= 0)) return false;
    const c = line[0];
    if (c === "+" && this.newLeft > 0) {
      cur.file.added.push({ line: this.newNo++, text: line.slice(1, MAX_LINE_CHARS + 1) });
      this.newLeft--;
    } else if (c === "-" && this.oldLeft > 0) {
      cur.file.removed.push({ line: this.oldNo++, text: line.slice(1, MAX_LINE_CHARS + 1), at: Math.max(1, this.newNo) });
      this.oldLeft--;
    } else if ((c === " " || line === "") && this.oldLeft > 0 && this.newLeft > 0) {
      this.oldNo++;
      this.newNo++;
      this.oldLeft--;
      this.newLeft--;
    } else if (c !== "\\") {
      this.notes.push(`${cur.file.path || "a file"}: a hunk is shorter than its header says; read what was there`);
      this.oldLeft = this.newLeft = 0;
      return false;
    }
    return true;
  }

  /** The "---" and "+++" lines (a plain `diff -u` has no "diff --git" line: "---" starts the file). */
  fileHeader(line: string): boolean {
    if (line.startsWith("--- ")) {
      const cur = this.cur;
      if (!cur || cur.sawHeaders || cur.file.added.length || cur.file.removed.length) this.start();
      const old = headerPath(line.slice(4), "a/");
      if (old === undefined) this.cur!.file.status = "added";
      else this.cur!.file.old_path = old;
      return true;
    }
    if (!line.startsWith("+++ ") || !this.cur) return false;
    const f = this.cur.file;
    const now = headerPath(line.slice(4), "b/");
    this.cur.sawHeaders = true;
    if (now === undefined) {
      f.status = "deleted";
      f.path = f.old_path ?? f.path;
    } else f.path = now;
    if (f.old_path === f.path) delete f.old_path;
    else if (f.old_path && f.status === "modified") f.status = "renamed";
    return true;
  }

  /** Git's extended header lines and hunk headers. */
  gitHeader(line: string): void {
    const f = this.cur!.file;
    if (line.startsWith("new file mode")) f.status = "added";
    else if (line.startsWith("deleted file mode")) {
      f.status = "deleted";
      f.path = f.path || f.old_path || "";
    } else if (line.startsWith("rename from ")) {
      f.old_path = unquotePath(line.slice("rename from ".length));
      f.status = "renamed";
    } else if (line.startsWith("rename to ")) {
      f.path = unquotePath(line.slice("rename to ".length));
      f.status = "renamed";
    } else if (line.startsWith("Binary files ") || line === "GIT binary patch") f.binary = true;
    else if (line.startsWith("@@")) this.hunk(line);
  }

  hunk(line: string): void {
    const f = this.cur!.file;
    const m = HUNK.exec(line);
    if (!m) {
      if (this.badHunkIn !== f.path) this.notes.push(`${f.path || "a file"}: malformed hunk header ${JSON.stringify(line.slice(0, 60))}; the rest of that file was skipped`);
      this.badHunkIn = f.path;
      return;
    }
    // A side with no lines names the line before the change ("+0,0": before the first line).
    this.oldNo = Math.max(1, Number(m[1]));
    this.oldLeft = m[2] === undefined ? 1 : Number(m[2]);
    this.newNo = Math.max(1, Number(m[3]));
    this.newLeft = m[4] === undefined ? 1 : Number(m[4]);
  }

  line(line: string): void {
    if (this.content(line) || line.startsWith("\\")) return;
    if (line.startsWith("diff --git ")) {
      const paths = gitHeaderPaths(line.slice("diff --git ".length));
      this.start(paths?.[1] ?? "", paths && paths[0] !== paths[1] ? paths[0] : undefined);
      return;
    }
    if (this.fileHeader(line)) return;
    if (!this.cur) {
      if (HUNK.test(line)) this.orphanHunks++;
      return;
    }
    this.gitHeader(line);
  }
}

/**
 * Parses unified diff text. `readerTruncated`: the reader already stopped early (its byte limit), which the result
 * carries on. Lines past MAX_DIFF_LINES are not read.
 */
export function parseUnifiedDiff(text: string, opts: { readerTruncated?: boolean; maxLines?: number } = {}): ParsedDiff {
  const maxLines = opts.maxLines ?? MAX_DIFF_LINES;
  const reader = new DiffReader();
  let truncated = !!opts.readerTruncated;
  let pos = 0;
  let count = 0;
  while (pos < text.length) {
    if (count >= maxLines) {
      truncated = true;
      break;
    }
    const nl = text.indexOf("\n", pos);
    const end = nl < 0 ? text.length : nl;
    let line = text.slice(pos, Math.min(end, pos + MAX_LINE_CHARS * 2));
    if (line.endsWith("\r")) line = line.slice(0, -1);
    pos = end + 1;
    count++;
    reader.line(line);
  }
  reader.finish();
  const notes = reader.notes;
  if (reader.orphanHunks > 0) notes.push(`${reader.orphanHunks} hunk(s) came before any file header and were skipped`);
  if (reader.files.length === 0 && text.trim() && !notes.length) notes.push("not a unified diff: no file headers (---/+++ or diff --git) were found");
  if (truncated) notes.push(`the diff is longer than ${maxLines} lines: only its first ${maxLines} lines were checked`);
  return { files: reader.files, notes, truncated, lines: count };
}
