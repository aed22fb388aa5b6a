// The turn cache: the same question, scope, config, synthesizer and artifact set return the stored receipt without
// re-mining. A hit must not cost a full discovery (reading and hashing every ADR), so each entry carries a stat
// fingerprint (../fingerprint.ts) of what discovery looked at. When every stat still matches, the artifact set
// cannot have changed; otherwise the caller runs discovery and compares the content hash.
import { promises as fs } from "node:fs";
import { z } from "zod";
import { FingerprintSchema } from "./fingerprint";
import { writeFileAtomic } from "./receipts/store";

export { fingerprintHolds } from "./fingerprint";

const EntrySchema = z.object({
  receipt_id: z.string(),
  artifact_set_hash: z.string(),
  fingerprint: FingerprintSchema,
});
export type TurnCacheEntry = z.infer<typeof EntrySchema>;

export async function readTurnCacheEntry(file: string): Promise<TurnCacheEntry | undefined> {
  try {
    const parsed = EntrySchema.safeParse(JSON.parse(await fs.readFile(file, "utf8")));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export async function writeTurnCacheEntry(file: string, entry: TurnCacheEntry): Promise<void> {
  await writeFileAtomic(file, JSON.stringify(entry) + "\n");
}
