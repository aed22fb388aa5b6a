// Discovery once, then proof by stats: the artifact set a discovery found is kept (in memory, and on disk when the
// host gives a cache folder) with a stat fingerprint of everything that discovery looked at — each file it read or
// looked for, each folder it could have found a new file in, git's index and exclude file. While every stat still
// matches, the set cannot have changed, and the next question (in this process or a fresh one) skips the walk,
// the reads and the hashing. Any mismatch runs discovery again.
import { join, resolve } from "node:path";
import { z } from "zod";
import { CORE_VERSION } from "../../config";
import { fingerprintHolds, FingerprintSchema, listFolder, takeFingerprint, type Fingerprint } from "../../fingerprint";
import { canonicalJson, sha256 } from "../../hash";
import { AdrStatusSchema, SourceTypeSchema } from "../../schemas";
import type { ArtifactSet, DeliberationConfig } from "../../types";
import { discoverArtifacts, discoveryDirectories, newDiscoveryTrace } from "../discovery";
import { CORPUS_FORMAT, corpusDirFor, pruneSnapshots, readSnapshot, writeSnapshot, type CorpusCacheOptions } from "./store";

export interface DiscoveryOutcome {
  set: ArtifactSet;
  /** Vouches for `set`: the turn cache stores it with the receipt. */
  fingerprint: Fingerprint;
  /** Where the set came from: this process's memory, the snapshot on disk, or a fresh discovery. */
  from: "memory" | "disk" | "discovery";
}

const ArtifactSetSchema = z.object({
  files: z.array(z.object({ path: z.string(), abs: z.string(), bytes: z.number(), hash: z.string(), source_type: SourceTypeSchema, text: z.string(), index_status: z.object({ status: AdrStatusSchema, from: z.string() }).optional() })),
  skipped: z.array(z.object({ path: z.string(), reason: z.string() })),
  hash: z.string(),
  adrFolders: z.array(z.object({ dir: z.string(), via: z.enum([".adr-dir", ".log4brains.yml", "content", "setting", "folder name"]), count: z.number() })).optional(),
  notes: z.array(z.string()).optional(),
  template_lines: z.array(z.string()).optional(),
});

const SnapshotSchema = z.object({ format: z.literal(CORPUS_FORMAT), key: z.string(), fingerprint: FingerprintSchema, set: ArtifactSetSchema });

/** Sets kept in memory: enough for a workspace with a few folders. */
const MEMORY_SETS = 4;
/** Discovery snapshots kept per work tree on disk: settings rarely change, and each holds every artifact's text. */
const DISK_SETS = 2;
const memory = new Map<string, { fingerprint: Fingerprint; set: ArtifactSet }>();

/** What discovery's result depends on besides the files: the folder, the settings that steer it, the code. */
function snapshotKey(root: string, config: DeliberationConfig, codeId: string): string {
  const { adrGlobs, conventionGlobs, ignoreGlobs, maxFileBytes, receiptsDir } = config;
  return sha256(canonicalJson({ root, adrGlobs, conventionGlobs, ignoreGlobs, maxFileBytes, receiptsDir, codeId, format: CORPUS_FORMAT }));
}

/**
 * The repository's artifact set: from memory or the disk snapshot when their fingerprint still holds, else from a
 * fresh discovery (which then replaces both).
 */
export async function discoverWithSnapshot(repo: string, config: DeliberationConfig, opts: { signal?: AbortSignal; cache?: CorpusCacheOptions } = {}): Promise<DiscoveryOutcome> {
  const root = resolve(repo);
  const key = snapshotKey(root, config, opts.cache?.codeId ?? CORE_VERSION);
  const kept = memory.get(key);
  if (kept && (await fingerprintHolds(root, kept.fingerprint))) return { ...kept, from: "memory" };
  const file = opts.cache ? join(corpusDirFor(opts.cache.dir, root), `discovery-${key.slice(0, 16)}.bin`) : undefined;
  if (file && !kept) {
    const stored = await readStored(file, key, opts.cache);
    if (stored && (await fingerprintHolds(root, stored.fingerprint))) {
      remember(key, stored);
      return { ...stored, from: "disk" };
    }
  }
  opts.signal?.throwIfAborted();
  // Taken before anything is read: a change made while discovery runs is then either seen by it or too recent for
  // the fingerprint to vouch for (racy), never silently missed. The root is vouched for by its names (all but the
  // receipts folder, whose first creation would otherwise spoil the fingerprint), the other folders by mtime.
  const takenAt = Date.now();
  const rootListing = listFolder(root, ".", [receiptsTop(config)]);
  const trace = newDiscoveryTrace();
  const set = await discoverArtifacts(root, config, opts.signal, trace);
  const dirs = (await discoveryDirectories(root, config)).filter((d) => !(rootListing && d === "."));
  const fingerprint = await takeFingerprint(
    root,
    { files: [...trace.files].sort(), dirs, outside: [...trace.outside], sizes: [...trace.sizes], ...(rootListing ? { listings: { ".": rootListing } } : {}) },
    takenAt,
  );
  remember(key, { fingerprint, set });
  if (file) {
    await writeSnapshot(file, { format: CORPUS_FORMAT, key, fingerprint, set }).catch((err) => opts.cache?.notice?.(`could not save the discovery snapshot: ${oneLine(err)}`));
    pruneSnapshots(join(file, ".."), "discovery-", DISK_SETS);
  }
  return { set, fingerprint, from: "discovery" };
}

/** The receipts folder's name in the root ("" when it is nested deeper, where its parent's mtime covers it). */
function receiptsTop(config: DeliberationConfig): string {
  const parts = (config.receiptsDir || ".deliberations").replace(/^\.\/+|\/+$/g, "").split("/");
  return parts.length === 1 ? parts[0] : "";
}

function remember(key: string, entry: { fingerprint: Fingerprint; set: ArtifactSet }): void {
  memory.delete(key);
  memory.set(key, entry);
  while (memory.size > MEMORY_SETS) memory.delete(memory.keys().next().value!);
}

async function readStored(file: string, key: string, cache: CorpusCacheOptions | undefined): Promise<{ fingerprint: Fingerprint; set: ArtifactSet } | undefined> {
  const read = await readSnapshot(file);
  if ("missing" in read) return undefined;
  if ("corrupt" in read) {
    cache?.notice?.(`discovery snapshot ${read.corrupt}; discovering again`);
    return undefined;
  }
  const parsed = SnapshotSchema.safeParse(read.value);
  if (!parsed.success || parsed.data.key !== key) {
    cache?.notice?.("discovery snapshot has an unexpected shape; discovering again");
    return undefined;
  }
  return { fingerprint: parsed.data.fingerprint, set: parsed.data.set };
}

function oneLine(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split("\n")[0];
}

/** Forgets the sets kept in memory (tests). */
export function forgetDiscoverySnapshots(): void {
  memory.clear();
}
