// Seals on the history index. The index lives in the user's cache folder, which others may be able to write (a
// restored CI cache): a forged subject, body, file list or documentation hunk would be cited as the commit's and
// signed into a receipt, and a forged `head` would pass a stale index as current. So every commit row, and the
// metadata, carries an HMAC under the per-user key (../../cacheKey.ts), written by the build and checked before a
// row is cited (search.ts) or the metadata trusted. One that fails means the index was altered (or written with
// another key): CorruptIndexError, and the caller discards and rebuilds it.
// Per row, not over the file: the ten rows a question cites cost microseconds, where a MAC over the whole file would
// read tens of MB per question. What is not sealed (the FTS5 table, hub counts) only ranks genuine rows.
import { cacheSealKey, sealTag, tagMatches } from "../../cacheKey";
import { CorruptIndexError, readMeta, writeMeta, type Db, type Meta } from "./db";

/** A commit row's sealed columns. */
export interface SealedRow {
  sha: string;
  ts: number;
  subject: string;
  body: string;
  nfiles: number;
  files: string;
  docs: string | null;
}

const META_SEAL = "seal";

/** The key rows and metadata are sealed with; undefined when there is no usable per-user key (no index is kept). */
export function historySealKey(): Buffer | undefined {
  return cacheSealKey("history-index");
}

export function rowSeal(key: Buffer, r: SealedRow): Buffer {
  return sealTag(key, ["history-row/1", r.sha, String(r.ts), r.subject, r.body, String(r.nfiles), r.files, r.docs === null ? "-" : `+${r.docs}`]);
}

/** Throws CorruptIndexError unless the row's seal verifies (nothing to check without a key: a private index). */
export function checkRowSeal(key: Buffer | undefined, r: SealedRow & { mac: Uint8Array | null }): void {
  if (!key) return;
  // Columns of another type (a forged row) fail like a wrong seal.
  const typed = [r.sha, r.subject, r.body, r.files].every((v) => typeof v === "string") && (r.docs === null || typeof r.docs === "string");
  if (!typed || !(r.mac instanceof Uint8Array) || !tagMatches(Buffer.from(r.mac), rowSeal(key, r))) {
    throw new CorruptIndexError(`the row of commit ${String(r.sha).slice(0, 12)} fails its seal (altered, or written with another key)`);
  }
}

function metaSeal(key: Buffer, meta: Meta): Buffer {
  const entries = Object.entries(meta)
    .filter(([k]) => k !== META_SEAL)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return sealTag(key, ["history-meta/1", ...entries.flat()]);
}

/** Throws CorruptIndexError unless the metadata's seal verifies. */
export function checkMetaSeal(key: Buffer | undefined, meta: Meta): void {
  if (!key) return;
  const stored = meta[META_SEAL];
  if (!stored || !tagMatches(Buffer.from(stored, "hex"), metaSeal(key, meta))) {
    throw new CorruptIndexError("its metadata fails its seal (altered, or written with another key)");
  }
}

/** writeMeta, then the seal over all of the metadata as it now stands. */
export function writeSealedMeta(db: Db, values: Meta): void {
  writeMeta(db, values);
  const key = historySealKey();
  if (key) writeMeta(db, { [META_SEAL]: metaSeal(key, readMeta(db)).toString("hex") });
}
