// The per-user secret that seals what this tool keeps in the user's cache folder: the CLI's V8 code cache, fetched web
// pages, the corpus snapshots, the history index's rows. Anyone who can write the cache folder (a restored CI cache, another local process)
// must not be able to make us trust what they wrote there, so the key lives outside it, beside the signing key:
// 32 random bytes in `code-cache.key` (the name it had when only the code cache used it), mode 0600 in a 0700
// folder, read only as a regular file of this user and never through a symlink. Each use gets its own subkey, so a
// tag made for one kind of file never verifies as another's.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { chmodSync, closeSync, constants as fsConstants, fstatSync, linkSync, mkdirSync, openSync, readSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { defaultKeyDir } from "./receipts/signing";

export const CACHE_KEY_FILE = "code-cache.key";
const KEY_BYTES = 32;

/**
 * The per-user key in `dir/code-cache.key`, created (0600, in a 0700 folder) on first use. Undefined — the caller
 * keeps no cache — when it cannot be read or created, or when it is not a private regular file of this user: a key
 * others can read or replace would let them forge cache contents.
 */
export function loadOrCreateCacheKey(dir: string): Buffer | undefined {
  const file = join(dir, CACHE_KEY_FILE);
  const existing = readPrivateKey(file);
  if (existing !== "missing") return existing;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const tmp = `${file}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
    // "wx": never through something already standing at the temp name.
    writeFileSync(tmp, randomBytes(KEY_BYTES), { mode: 0o600, flag: "wx" });
    chmodSync(tmp, 0o600);
    // link(2) publishes the whole key atomically and fails when another run got there first: its key wins.
    try {
      linkSync(tmp, file);
    } catch {
      // EEXIST: read back the winner's key below
    } finally {
      rmSync(tmp, { force: true });
    }
  } catch {
    return undefined;
  }
  const created = readPrivateKey(file);
  return created === "missing" ? undefined : created;
}

function readPrivateKey(file: string): Buffer | undefined | "missing" {
  let fd: number;
  try {
    // O_NOFOLLOW: a symlink planted at the key's name is refused, not read; O_NONBLOCK: a FIFO there cannot hang us.
    fd = openSync(file, fsConstants.O_RDONLY | (fsConstants.O_NOFOLLOW ?? 0) | (fsConstants.O_NONBLOCK ?? 0));
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "ENOENT" ? "missing" : undefined;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.size !== KEY_BYTES) return undefined;
    if (process.platform !== "win32" && ((st.mode & 0o077) !== 0 || st.uid !== process.getuid?.())) return undefined;
    const key = Buffer.alloc(KEY_BYTES);
    return readSync(fd, key, 0, KEY_BYTES, 0) === KEY_BYTES ? key : undefined;
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** Kinds of sealed cache, each with its own subkey. */
export type CachePurpose = "web-cache" | "corpus-snapshot" | "history-index";

const subkeys = new Map<string, Buffer | undefined>();

/**
 * The subkey for one kind of cache, derived from the per-user key in `dir` (default: the CLI's key folder); read
 * once per process and folder. Undefined when there is no usable key: then that cache is neither read nor written.
 */
export function cacheSealKey(purpose: CachePurpose, dir: string = defaultKeyDir()): Buffer | undefined {
  const memo = `${purpose}\0${dir}`;
  if (subkeys.has(memo)) return subkeys.get(memo);
  const key = loadOrCreateCacheKey(dir);
  const sub = key ? createHmac("sha256", key).update(`deliberative-search cache seal: ${purpose}`).digest() : undefined;
  subkeys.set(memo, sub);
  return sub;
}

/** HMAC-SHA256 of the parts under `key`; each part is length-prefixed, so no two lists of parts collide. */
export function sealTag(key: Buffer, parts: readonly (string | Buffer)[]): Buffer {
  const h = createHmac("sha256", key);
  const len = Buffer.alloc(8);
  for (const p of parts) {
    const b = typeof p === "string" ? Buffer.from(p, "utf8") : p;
    len.writeBigUInt64BE(BigInt(b.length));
    h.update(len).update(b);
  }
  return h.digest();
}

/** Constant-time comparison of a stored tag with the expected one (false for a tag of the wrong length). */
export function tagMatches(stored: Buffer, expected: Buffer): boolean {
  return stored.length === expected.length && timingSafeEqual(stored, expected);
}

/** Forgets the subkeys read (tests that swap key folders). */
export function forgetCacheSealKeys(): void {
  subkeys.clear();
}
