// The change as the guard checks it, from change.ts's two diffs, the untracked files and the name-only listing, within
// one budget of MAX_DIFF_LINES: manifests and attribute-marked files first, then untracked manifests, then the rest
// of the diff, then the other untracked files. What the budget leaves out is not silent: each changed file that was
// not read is named with the reason ("not read: the change is longer than …"), and the change is marked truncated.
import { lstat } from "node:fs/promises";
import { join } from "node:path";
import { MAX_DIFF_LINES, parseUnifiedDiff, type ChangedFile, type ParsedDiff } from "./diff";
import type { GitRun } from "./changeGit";
import { isBinaryByName } from "./changePaths";
import { untrackedAsAdded } from "./changeUntracked";
import { fileKind } from "./lines";

const MAX_UNTRACKED_FILES = 200;
/** Changed files the report names one by one when they were left out; the rest are counted in a note. */
const MAX_LEFT_OUT_LISTED = 500;
const CUT = `not read: the change is longer than ${MAX_DIFF_LINES} lines and the budget ran out before this file`;

export interface ChangeParts {
  /** Manifests and `-diff`/`binary`-marked files, read with --text. */
  priority: GitRun;
  rest: GitRun;
  /** Every changed path git lists (lock files included). */
  listing: string[];
  untracked: string[];
  inScope: (path: string) => boolean;
}

/** Collects the files read so far and the budget left. */
class Budget {
  files: ChangedFile[] = [];
  notes: string[] = [];
  left = MAX_DIFF_LINES;
  truncated = false;

  /** One diff's output, parsed with what is left of the budget; a file whose lines the cut fell before is unread. */
  addDiff(run: GitRun, keep: (f: ChangedFile) => boolean = () => true, textMode = false): void {
    const parsed = parseUnifiedDiff(run.stdout, { readerTruncated: run.cut, maxLines: Math.max(0, this.left) });
    this.left -= parsed.lines;
    const files = parsed.files.filter(keep);
    if (textMode) for (const f of files) markBinaryByBytes(f);
    const last = files.at(-1);
    if (parsed.truncated) {
      this.truncated = true;
      if (last && !last.binary && !last.added.length && !last.removed.length) last.unread = CUT;
    }
    this.files.push(...files);
    // The budget note is written once, for the whole change.
    this.notes.push(...parsed.notes.filter((n) => !n.startsWith("the diff is longer than ")));
  }

  async addUntracked(cwd: string, paths: string[]): Promise<void> {
    for (const path of paths) {
      if (fileKind(path) === "lock") {
        this.files.push({ path, status: "added", binary: false, added: [], removed: [] });
        continue;
      }
      if (this.left <= 0) {
        this.truncated = true;
        this.files.push({ path, status: "added", binary: false, added: [], removed: [], unread: CUT });
        continue;
      }
      const read = await untrackedAsAdded(cwd, path, this.left);
      this.left -= read.file.added.length;
      this.truncated ||= read.cut;
      this.files.push(read.file);
    }
  }
}

/** A file read with --text (an attribute called it binary) whose lines hold a NUL byte is a real binary after all. */
function markBinaryByBytes(f: ChangedFile): void {
  if (![...f.added, ...f.removed].some((l) => l.text.includes("\0"))) return;
  f.binary = true;
  f.added = [];
  f.removed = [];
}

/** Changed files git listed that neither diff showed: lock files, binaries by name, and those past the budget. */
function leftOut(listing: string[], seen: Set<string>, truncated: boolean): { files: ChangedFile[]; notes: string[] } {
  const files: ChangedFile[] = [];
  let more = 0;
  for (const path of listing) {
    if (seen.has(path)) continue;
    if (files.length >= MAX_LEFT_OUT_LISTED) {
      more++;
      continue;
    }
    const file: ChangedFile = { path, status: "modified", binary: false, added: [], removed: [] };
    if (fileKind(path) === "lock") files.push(file);
    else if (isBinaryByName(path)) files.push({ ...file, binary: true });
    else files.push({ ...file, unread: truncated ? CUT : "not read: git's diff did not show it" });
  }
  return { files, notes: more ? [`${more} more changed files were not read (lock files, binaries, or past the line budget)`] : [] };
}

/** The change within the budget, every changed file accounted for. */
export async function assembleChange(cwd: string, parts: ChangeParts): Promise<ParsedDiff> {
  const b = new Budget();
  const untracked = parts.untracked.slice(0, MAX_UNTRACKED_FILES);
  const manifest = (p: string) => fileKind(p) === "manifest";
  b.addDiff(parts.priority, (f) => parts.inScope(f.path), true);
  await b.addUntracked(cwd, untracked.filter(manifest));
  b.addDiff(parts.rest);
  await b.addUntracked(cwd, untracked.filter((p) => !manifest(p)));
  const seen = new Set(b.files.flatMap((f) => (f.old_path ? [f.path, f.old_path] : [f.path])));
  const out = leftOut(parts.listing, seen, b.truncated);
  const notes = [...b.notes, ...out.notes];
  if (parts.untracked.length > MAX_UNTRACKED_FILES) notes.push(`${parts.untracked.length} untracked files: only the first ${MAX_UNTRACKED_FILES} were checked`);
  const lines = MAX_DIFF_LINES - Math.max(0, b.left);
  if (b.truncated) {
    const unread = [...b.files, ...out.files].filter((f) => f.unread === CUT).length;
    notes.push(`the change is longer than ${MAX_DIFF_LINES} lines: only its first ${MAX_DIFF_LINES} lines were checked (manifests first)${unread ? `; ${unread} changed file${unread === 1 ? " was" : "s were"} not read` : ""}`);
  }
  return { files: [...b.files, ...out.files], notes, truncated: b.truncated, lines };
}

/** A --files path that names nothing: not changed, not untracked, and not on disk (a typo, or a path from elsewhere). */
export async function missingFileNotes(cwd: string, asGiven: Map<string, string>, files: ChangedFile[]): Promise<string[]> {
  const notes: string[] = [];
  for (const [path, given] of asGiven) {
    const named = files.some((f) => [f.path, f.old_path].some((p) => p === path || p?.startsWith(`${path}/`)));
    if (named) continue;
    const exists = await lstat(join(cwd, path)).then(
      () => true,
      () => false,
    );
    if (!exists) notes.push(`--files ${JSON.stringify(given.slice(0, 120))}: no such file or folder (${JSON.stringify(path.slice(0, 120))} in the repository)`);
  }
  return notes;
}
