// Snapshot files of what the pipeline derives from a repository's documents (its discovered artifacts, their
// parsed sections and search indexes), so a fresh process — the CLI, an agent's MCP call, a reloaded editor — does
// not walk the tree, read every ADR and rebuild the indexes for each question.
//
// They live in the user's cache folder, never in the working tree:
//   $XDG_CACHE_HOME/deliberative-search/corpus/<key>/{discovery,docs}-<hash>.bin   (else ~/.cache, %LOCALAPPDATA%)
// <key> hashes the work tree's path. A file is a magic line, a seal and the payload (v8.serialize). The seal is an
// HMAC under the per-user key (../../cacheKey.ts), not a checksum: the snapshots hold the documents' text that gets
// cited, and others may be able to write the cache folder (a restored CI cache). A torn, truncated, foreign or
// forged file fails the check before it is deserialised, and is rebuilt. Deleting the folder is always safe: the
// next deliberation rebuilds what it needs.
import { promises as fs, readdirSync, rmSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { deserialize, serialize } from "node:v8";
import { sha256 } from "../../hash";
import { cacheFolderRefusal, userCacheDir } from "../../cacheDir";
import { cacheSealKey, sealTag, tagMatches } from "../../cacheKey";
import { NotARegularFileError, readRegularFile, writeFileAtomic } from "../../receipts/fsutil";
import { CORE_VERSION } from "../../config";

const MAGIC = Buffer.from("DSCORPUS2\n");
/** Files of the version before snapshots were sealed: treated as absent and replaced. */
const LEGACY_MAGIC = Buffer.from("DSCORPUS1\n");
const TAG_BYTES = 32;
/** Far beyond any real snapshot (a large repository's is a few MB); bounds what a planted file makes us read. */
const MAX_SNAPSHOT_BYTES = 1024 * 1024 * 1024;
/** Bumped whenever a snapshot's shape or the code that derives it changes meaning. */
export const CORPUS_FORMAT = 15;

export interface CorpusCacheOptions {
  /** The cache root (corpusCacheRoot()); snapshots go to a folder per work tree below it. */
  dir: string;
  /** Identifies the code that wrote a snapshot: a snapshot from other code is never read. */
  codeId?: string;
  /** One-line notices for the user (an unreadable snapshot that will be rebuilt). */
  notice?: (line: string) => void;
}

export function corpusCacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  return join(userCacheDir(env), "corpus");
}

export function corpusDirFor(cacheRoot: string, root: string): string {
  return join(cacheRoot, sha256(root).slice(0, 20));
}

/**
 * The running code's identity: size and mtime of the bundle this module was loaded from (or of its brotli-packed
 * form, as the packaged extension ships it), with the core version and V8's; run from sources, the core version.
 */
export function bundleIdentity(file: string | undefined): string {
  for (const candidate of file ? [file, `${file}.br`] : []) {
    try {
      const st = statSync(candidate);
      return `${CORE_VERSION}|${st.size}|${Math.floor(st.mtimeMs)}|${process.versions.v8}`;
    } catch {
      // try the packed form
    }
  }
  return CORE_VERSION;
}

/**
 * The cache a host (CLI, MCP server, editor) gives the pipeline: the user's cache folder, unless
 * DELIBERATIVE_CORPUS_CACHE=off keeps everything in memory.
 */
export function hostCorpusCache(env: NodeJS.ProcessEnv, notice?: (line: string) => void): CorpusCacheOptions | undefined {
  if (env.DELIBERATIVE_CORPUS_CACHE === "off") return undefined;
  return { dir: corpusCacheRoot(env), codeId: bundleIdentity(typeof __filename === "string" ? __filename : undefined), ...(notice ? { notice } : {}) };
}

export type SnapshotRead = { value: unknown } | { missing: true } | { corrupt: string };

/** The seal binds the payload to the file's name and its work tree's folder: a snapshot cannot pass as another's. */
function sealOf(key: Buffer, file: string, payload: Buffer): Buffer {
  return sealTag(key, ["corpus-snapshot/1", `${basename(dirname(file))}/${basename(file)}`, payload]);
}

/** Reads one snapshot file: its value, or that there is none (or no key to check it with), or why it is unusable. */
export async function readSnapshot(file: string): Promise<SnapshotRead> {
  const key = cacheSealKey("corpus-snapshot");
  if (!key) return { missing: true };
  let buf: Buffer;
  try {
    // A regular file only, never through a symlink: a FIFO or /dev/zero planted there cannot hang or fill us.
    buf = await readRegularFile(file, { maxBytes: MAX_SNAPSHOT_BYTES });
  } catch (err) {
    if (err instanceof NotARegularFileError) return { corrupt: err.message };
    const code = (err as NodeJS.ErrnoException).code;
    // No such file, or no such folder (a file stands where it should be: saving says so, once).
    return code === "ENOENT" || code === "ENOTDIR" ? { missing: true } : { corrupt: `unreadable (${code ?? "error"})` };
  }
  if (buf.subarray(0, LEGACY_MAGIC.length).equals(LEGACY_MAGIC)) return { missing: true };
  if (buf.length < MAGIC.length + TAG_BYTES || !buf.subarray(0, MAGIC.length).equals(MAGIC)) return { corrupt: "not a snapshot file" };
  const payload = buf.subarray(MAGIC.length + TAG_BYTES);
  if (!tagMatches(buf.subarray(MAGIC.length, MAGIC.length + TAG_BYTES), sealOf(key, file, payload))) {
    return { corrupt: "seal mismatch (damaged, or not written by this user)" };
  }
  try {
    return { value: deserialize(payload) };
  } catch (err) {
    return { corrupt: `undecodable (${err instanceof Error ? err.message : String(err)})` };
  }
}

/**
 * Writes a snapshot atomically (temporary file, then rename), so a reader sees the old file or the new one. No
 * fsync: a snapshot lost in a crash is only rebuilt, and a torn one fails its seal. Without a usable key nothing is
 * written (nothing unsealed would be read back); through a folder that leads out of the cache folder, nothing either.
 */
export async function writeSnapshot(file: string, value: unknown): Promise<void> {
  const key = cacheSealKey("corpus-snapshot");
  if (!key) return;
  const refused = cacheFolderRefusal(dirname(file));
  if (refused) throw new Error(refused);
  const payload = serialize(value);
  await fs.mkdir(dirname(file), { recursive: true, mode: 0o700 });
  await writeFileAtomic(file, [MAGIC, sealOf(key, file, payload), payload], 0o600, { sync: false });
}

/** Keeps the newest `keep` files of a kind (`docs-`, `discovery-`) in a work tree's folder; the rest are removed. */
export function pruneSnapshots(dir: string, prefix: string, keep: number): void {
  try {
    const files = readdirSync(dir)
      .filter((f) => f.startsWith(prefix) && f.endsWith(".bin"))
      .map((f) => ({ f, t: statSync(join(dir, f)).mtimeMs }))
      .sort((a, b) => b.t - a.t);
    for (const { f } of files.slice(keep)) rmSync(join(dir, f), { force: true });
  } catch {
    // another process pruned first, or the folder is gone: nothing to keep tidy
  }
}
