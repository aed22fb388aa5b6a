// Crash- and race-safe file primitives for receipts and caches: atomic replace (temp file in the same folder, fsync,
// rename) and a cross-process lock file for read-modify-write. Neither leaves a .tmp or .lock file behind on any
// normal or error path.
import { randomBytes } from "node:crypto";
import { constants as fsConstants, promises as fs } from "node:fs";
import { hostname } from "node:os";
import { dirname } from "node:path";
import { processAlive as alive } from "../pid";

/** A path that is not a regular file of a sane size: a FIFO, a device, a folder, a symlink where none may be. */
export class NotARegularFileError extends Error {
  constructor(readonly file: string, why: string) {
    super(`${file.replace(/^.*[\\/]/, "")} ${why}`);
    this.name = "NotARegularFileError";
  }
}

/**
 * Reads a file only when it is a regular file of at most `maxBytes`: opened without blocking (a FIFO would wait
 * for a writer forever) and, unless `followSymlinks`, without following a symlink (a committed `x.lock -> /dev/zero`
 * would be read without end). What is read is bounded even if the file grows while it is read.
 */
export async function readRegularFile(file: string, opts: { maxBytes: number; followSymlinks?: boolean }): Promise<Buffer> {
  const flags = fsConstants.O_RDONLY | (fsConstants.O_NONBLOCK ?? 0) | (opts.followSymlinks ? 0 : (fsConstants.O_NOFOLLOW ?? 0));
  const handle = await fs.open(file, flags).catch((err: NodeJS.ErrnoException) => {
    throw err.code === "ELOOP" ? new NotARegularFileError(file, "is a symlink") : err;
  });
  try {
    const st = await handle.stat();
    if (!st.isFile()) throw new NotARegularFileError(file, "is not a regular file");
    if (st.size > opts.maxBytes) throw new NotARegularFileError(file, `is ${st.size} bytes, over the ${opts.maxBytes}-byte limit`);
    const buf = Buffer.alloc(Math.min(st.size, opts.maxBytes) + 1);
    let got = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buf, got, buf.length - got, got);
      if (bytesRead === 0) break;
      got += bytesRead;
      if (got === buf.length) throw new NotARegularFileError(file, `grew past the ${opts.maxBytes}-byte limit while it was read`);
    }
    return buf.subarray(0, got);
  } finally {
    await handle.close();
  }
}

/** Maps with at most `limit` calls in flight (receipt folders can hold thousands of files), keeping input order. */
export async function mapBounded<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/**
 * Writes a file atomically: a temp file in the same folder, fsync, then rename over the target. `content` may be
 * several buffers (written in one writev, never concatenated: a payload can be tens of MB); `sync: false` skips the
 * fsync for files that are only ever rebuilt when lost (caches that carry their own checksum).
 */
export async function writeFileAtomic(file: string, content: string | Buffer | readonly Buffer[], mode = 0o644, opts: { sync?: boolean } = {}): Promise<void> {
  await fs.mkdir(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
  const handle = await fs.open(tmp, "wx", mode);
  try {
    try {
      if (Array.isArray(content)) {
        const parts = content as readonly Buffer[];
        const want = parts.reduce((n, b) => n + b.length, 0);
        const { bytesWritten } = await handle.writev([...parts]);
        if (bytesWritten !== want) throw new Error(`short write (${bytesWritten} of ${want} bytes)`);
      } else await handle.writeFile(content as string | Buffer);
      if (opts.sync !== false) await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(tmp, file);
  } catch (err) {
    await fs.rm(tmp, { force: true });
    throw err;
  }
}

/** Thrown when the lock could not be taken in time; the operation did not run and nothing was written. */
export class LockTimeoutError extends Error {
  constructor(readonly lockFile: string, waitedMs: number) {
    super(`another writer holds ${lockFile.replace(/^.*[\\/]/, "")} (waited ${Math.round(waitedMs / 100) / 10} s); nothing was written, try again`);
    this.name = "LockTimeoutError";
  }
}

const HOST = hostname();
/** A lock older than this is considered abandoned even when its owner cannot be checked (another host). */
const STALE_MS = 60_000;

/** A lock holds "pid\nhost\n": anything longer is no lock of ours. */
const MAX_LOCK_BYTES = 4096;

/**
 * The lock file's identity (inode) when its owner is gone: a dead process on this host, or a lock untouched for
 * STALE_MS; undefined while it is held (or gone). The owner is read twice around the liveness check: a writer that
 * finished between the first read and the check has removed its lock, and the file there now is a live writer's.
 */
async function staleLock(lock: string): Promise<number | undefined> {
  const read = async () => {
    try {
      const [text, st] = await Promise.all([readRegularFile(lock, { maxBytes: MAX_LOCK_BYTES }).then((b) => b.toString("utf8")), fs.stat(lock)]);
      return { text, ino: st.ino, mtimeMs: st.mtimeMs };
    } catch {
      return undefined; // gone already (or unreadable): just retry
    }
  };
  // A lock no writer of ours made (a symlink, a FIFO, a folder: committed or planted) is broken at once.
  const lst = await fs.lstat(lock).catch(() => undefined);
  if (lst && !lst.isFile()) return lst.ino;
  const first = await read();
  if (!first) return undefined;
  const [pidText, host] = first.text.split("\n");
  const pid = Number(pidText);
  const dead = host === HOST && Number.isInteger(pid) && pid > 0 && !alive(pid);
  // A lock still being written (empty) is young by definition; only age decides for other hosts.
  if (!dead && Date.now() - first.mtimeMs <= STALE_MS) return undefined;
  const again = await read();
  return again && again.ino === first.ino && again.text === first.text ? first.ino : undefined;
}

/**
 * Serialises read-modify-write on one file across processes with an O_EXCL lock file (`<file>.lock`, holding the
 * owner's pid and host). Waiters poll with jitter; an abandoned lock (dead owner on this host, or older than 60 s)
 * is broken by renaming it away first, so two waiters never both delete a fresh lock, and only after the owner is
 * read again unchanged (staleLock).
 */
export async function withFileLock<T>(file: string, fn: () => Promise<T>, timeoutMs = 30_000): Promise<T> {
  const lock = `${file}.lock`;
  const started = Date.now();
  let delay = 5;
  for (;;) {
    try {
      const handle = await fs.open(lock, "wx", 0o644);
      try {
        await handle.writeFile(`${process.pid}\n${HOST}\n`);
      } finally {
        await handle.close();
      }
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const stale = await staleLock(lock);
      if (stale !== undefined) {
        const aside = `${lock}.${randomBytes(6).toString("hex")}.stale`;
        const moved = await fs.rename(lock, aside).then(
          () => true,
          () => false,
        );
        // Another waiter may have broken the same lock and a live writer taken a new one in between: a lock moved
        // aside that is not the one judged stale goes back (link fails only if yet another writer holds one).
        if (moved && (await fs.lstat(aside).then((st) => st.ino, () => stale)) !== stale) await fs.link(aside, lock).catch(() => undefined);
        // A planted folder is left aside rather than deleted with whatever it holds.
        if (moved) await fs.rm(aside, { force: true }).catch(() => undefined);
        continue;
      }
      if (Date.now() - started > timeoutMs) throw new LockTimeoutError(lock, Date.now() - started);
      await new Promise((r) => setTimeout(r, delay + Math.random() * delay));
      delay = Math.min(delay * 2, 100);
    }
  }
  try {
    return await fn();
  } finally {
    await fs.rm(lock, { force: true });
  }
}
