// Untracked files as a diff would show them once added (change.ts): every line added. Read only as regular files
// inside the repository, opened without blocking (an untracked FIFO, or a symlink to one, would wait for a writer
// forever and hold one of libuv's four threads), under a byte cap.
import { constants as fsConstants } from "node:fs";
import { open } from "node:fs/promises";
import { resolveInside } from "../contain";
import { MAX_LINE_CHARS, type ChangedFile } from "./diff";
import { gitOk } from "./changeGit";

/** An untracked file is read as wholly added up to this size. */
const MAX_UNTRACKED_BYTES = 1024 * 1024;

/** Untracked files in scope (repository-relative paths; none: all), sorted. */
export async function untrackedFiles(cwd: string, paths: string[], signal?: AbortSignal): Promise<string[]> {
  const out = await gitOk(cwd, ["ls-files", "--others", "--exclude-standard", "-z", "--", ...paths.map((p) => `:(literal)${p}`)], signal);
  return (out ?? "").split("\0").filter(Boolean).sort();
}

/** O_NONBLOCK: a FIFO opens at once (and is then refused as no regular file); O_NOFOLLOW: the path was resolved. */
const OPEN_FLAGS = fsConstants.O_RDONLY | (fsConstants.O_NONBLOCK ?? 0) | (fsConstants.O_NOFOLLOW ?? 0);

/** An untracked file as a diff would show it once added: every line added (binary, oversized and odd files marked). */
export async function untrackedAsAdded(cwd: string, path: string, maxLines: number): Promise<{ file: ChangedFile; cut: boolean }> {
  const file: ChangedFile = { path, status: "added", binary: false, added: [], removed: [] };
  const abs = await resolveInside(cwd, path).catch(() => undefined);
  if (!abs) return { file: { ...file, unread: "not read: a symlink that leads outside the repository, or a path that cannot be resolved" }, cut: false };
  const fh = await open(abs, OPEN_FLAGS).catch(() => undefined);
  if (!fh) return { file: { ...file, unread: "not read: the file could not be opened" }, cut: false };
  try {
    const st = await fh.stat();
    if (!st.isFile()) return { file: { ...file, unread: "not read: not a regular file (a FIFO, a device or a folder)" }, cut: false };
    const buf = Buffer.alloc(Math.min(st.size, MAX_UNTRACKED_BYTES));
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    const bytes = buf.subarray(0, bytesRead);
    if (bytes.subarray(0, 8192).includes(0)) return { file: { ...file, binary: true }, cut: false };
    const lines = bytes.toString("utf8").split("\n");
    if (lines.at(-1) === "") lines.pop();
    file.added = lines.slice(0, maxLines).map((text, i) => ({ line: i + 1, text: text.replace(/\r$/, "").slice(0, MAX_LINE_CHARS) }));
    return { file, cut: lines.length > maxLines || st.size > MAX_UNTRACKED_BYTES };
  } finally {
    await fh.close();
  }
}
