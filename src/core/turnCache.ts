// The turn cache: the same question, scope, config, synthesizer and artifact set return the stored receipt without
// re-mining. A hit must not cost a full discovery (reading and hashing every ADR), so each entry carries a
// fingerprint of stats — every artifact's size, mtime and inode, and the mtime of every folder discovery walks
// (a new file anywhere changes its folder's mtime). When every stat still matches, the artifact set cannot have
// changed; otherwise the caller runs discovery and compares the content hash.
import { promises as fs } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { writeFileAtomic } from "./receipts/store";

const StatSchema = z.tuple([z.number(), z.number(), z.number()]);

const EntrySchema = z.object({
  receipt_id: z.string(),
  artifact_set_hash: z.string(),
  fingerprint: z.object({
    taken_at: z.number(),
    files: z.record(z.string(), StatSchema),
    dirs: z.record(z.string(), z.number()),
  }),
});
export type TurnCacheEntry = z.infer<typeof EntrySchema>;

/**
 * A stat taken within the timestamp resolution of a change cannot prove that nothing changed after it ("racy"
 * entries, as git calls them). Linux stamps files at kernel-tick resolution (1–10 ms); a filesystem with whole
 * second timestamps shows up as mtimes with no fraction, and gets a two-second window.
 */
function racyWindowMs(mtimeMs: number): number {
  return mtimeMs % 1000 === 0 ? 2000 : 20;
}

export async function readTurnCacheEntry(file: string): Promise<TurnCacheEntry | undefined> {
  try {
    const parsed = EntrySchema.safeParse(JSON.parse(await fs.readFile(file, "utf8")));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export async function takeFingerprint(repo: string, files: string[], dirs: string[]): Promise<TurnCacheEntry["fingerprint"]> {
  const taken_at = Date.now();
  const fileStats: Record<string, [number, number, number]> = {};
  const dirStats: Record<string, number> = {};
  await Promise.all([
    ...files.map(async (p) => {
      const st = await fs.stat(join(repo, p)).catch(() => undefined);
      if (st) fileStats[p] = [st.size, st.mtimeMs, st.ino];
    }),
    ...dirs.map(async (d) => {
      const st = await fs.stat(join(repo, d)).catch(() => undefined);
      if (st) dirStats[d] = st.mtimeMs;
    }),
  ]);
  return { taken_at, files: fileStats, dirs: dirStats };
}

/** True when every recorded stat still matches and none is recent enough to be ambiguous. */
export async function fingerprintHolds(repo: string, fp: TurnCacheEntry["fingerprint"]): Promise<boolean> {
  const fresh = (mtime: number) => fp.taken_at - mtime > racyWindowMs(mtime);
  const checks = [
    ...Object.entries(fp.files).map(async ([p, [size, mtime, ino]]) => {
      const st = await fs.stat(join(repo, p)).catch(() => undefined);
      return !!st && st.size === size && st.mtimeMs === mtime && st.ino === ino && fresh(mtime);
    }),
    ...Object.entries(fp.dirs).map(async ([d, mtime]) => {
      const st = await fs.stat(join(repo, d)).catch(() => undefined);
      return !!st && st.mtimeMs === mtime && fresh(mtime);
    }),
  ];
  return (await Promise.all(checks)).every(Boolean);
}

export async function writeTurnCacheEntry(file: string, entry: TurnCacheEntry): Promise<void> {
  await writeFileAtomic(file, JSON.stringify(entry) + "\n");
}
