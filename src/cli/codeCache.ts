// The CLI launcher's V8 code cache, sealed. Release builds of Node do not checksum code-cache data: V8 rejects data
// made for another source or another V8, but hands damaged bytes straight to its deserializer, which then aborts,
// segfaults or runs wrong code. And the cache folder is no place to trust (a restored CI cache, another process
// writing there), so the data is executable input from anyone who can write it.
// So every cache file carries an HMAC-SHA256 under a per-user random key that lives beside the signing key (mode
// 0600, outside the cache folder), over the file's name (bundle version, Node version, subcommand), its length and
// its bytes. Only data whose tag verifies reaches V8; anything else is deleted and the CLI compiles from source.
import { createHmac, timingSafeEqual } from "node:crypto";
import { readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename } from "node:path";

/** File layout: MAGIC (8 bytes) | tag (32) | payload length (uint32 BE) | payload. */
const MAGIC = Buffer.from("DSVCC1\n\0", "latin1");
const TAG_BYTES = 32;
const HEADER_BYTES = MAGIC.length + TAG_BYTES + 4;
// V8's data for the whole CLI is ~2 MB; a file far larger is not ours and is not read into memory.
const MAX_CACHE_BYTES = 64 * 1024 * 1024;
// The key (its file, creation and checks) is shared with the other sealed caches: ../core/cacheKey.ts.
export { CACHE_KEY_FILE as CODE_CACHE_KEY_FILE, loadOrCreateCacheKey as loadOrCreateCodeCacheKey } from "../core/cacheKey";

function tagOf(key: Buffer, file: string, length: Buffer, payload: Buffer): Buffer {
  return createHmac("sha256", key).update(MAGIC).update(basename(file)).update(length).update(payload).digest();
}

/** The file's bytes sealed: header with the tag, then the payload. */
export function sealCodeCache(key: Buffer, file: string, payload: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(payload.length);
  return Buffer.concat([MAGIC, tagOf(key, file, length, payload), length, payload]);
}

/** The payload of sealed bytes when magic, length and tag all check out, else undefined. */
export function unsealCodeCache(key: Buffer, file: string, sealed: Buffer): Buffer | undefined {
  if (sealed.length < HEADER_BYTES || !sealed.subarray(0, MAGIC.length).equals(MAGIC)) return undefined;
  const tag = sealed.subarray(MAGIC.length, MAGIC.length + TAG_BYTES);
  const length = sealed.subarray(MAGIC.length + TAG_BYTES, HEADER_BYTES);
  const payload = sealed.subarray(HEADER_BYTES);
  if (length.readUInt32BE(0) !== payload.length) return undefined;
  return timingSafeEqual(tag, tagOf(key, file, length, payload)) ? payload : undefined;
}

/**
 * The verified V8 data in `file`, or undefined when there is none. A file that fails the check (damaged, truncated,
 * written by someone without the key, or in an older format) is deleted, so the next run writes a good one.
 */
export function readCodeCache(key: Buffer, file: string): Buffer | undefined {
  let sealed: Buffer;
  try {
    if (statSync(file).size > MAX_CACHE_BYTES) {
      discardCodeCache(file);
      return undefined;
    }
    sealed = readFileSync(file);
  } catch {
    return undefined;
  }
  const payload = unsealCodeCache(key, file, sealed);
  if (!payload) discardCodeCache(file);
  return payload;
}

export function discardCodeCache(file: string): void {
  try {
    rmSync(file, { force: true });
  } catch {
    // an undeletable file fails the check again next run and is simply not used
  }
}

/** Writes sealed data atomically (a private temp file, then rename). Throws on failure; the caller decides. */
export function writeCodeCache(key: Buffer, file: string, payload: Buffer): void {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, sealCodeCache(key, file, payload), { mode: 0o600 });
    renameSync(tmp, file);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}
