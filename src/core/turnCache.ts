// The turn cache: the same question, scope, config, synthesizer and artifact set return the stored receipt without
// re-mining. A hit must not cost a full discovery (reading and hashing every ADR), so each entry carries a stat
// fingerprint (../fingerprint.ts) of what discovery looked at. When every stat still matches, the artifact set
// cannot have changed; otherwise the caller runs discovery and compares the content hash.
// The code-usage figures in a receipt come from the code, not from the artifacts: an entry also carries the state of
// the code the count read (internal/codeUsage.ts codeUsageState), and is served only while that state holds.
import { z } from "zod";
import { PIPELINE_REVISION } from "./constants";
import { FingerprintSchema } from "./fingerprint";
import { readRegularFile } from "./receipts/fsutil";
import { writeFileAtomic } from "./receipts/store";

/** An entry holds one turn's payload; a file past this is no entry of ours (and a FIFO or device is none either). */
const MAX_ENTRY_BYTES = 64 * 1024 * 1024;

export { fingerprintHolds } from "./fingerprint";

const EntrySchema = z.object({
  receipt_id: z.string(),
  artifact_set_hash: z.string(),
  fingerprint: FingerprintSchema,
  /**
   * codeUsageState() when the turn counted code usage; "" when the count read no code (no option names a package).
   * Absent on entries written before the field, or when the state could not be taken: such an entry is not served
   * while code usage is on.
   */
  code_state: z.string().optional(),
  /** The pipeline revision that computed the turn (constants.ts); an entry of another revision, or none, is not served. */
  pipeline_revision: z.number().int().optional(),
});
export type TurnCacheEntry = z.infer<typeof EntrySchema>;

/**
 * The entry, when it is one this pipeline revision may serve. `anyRevision`: any valid entry, for a reader that only
 * uses what it says about the artifact set (which no revision changes), not the turn it stored.
 */
export async function readTurnCacheEntry(file: string, opts: { anyRevision?: boolean } = {}): Promise<TurnCacheEntry | undefined> {
  try {
    const parsed = EntrySchema.safeParse(JSON.parse((await readRegularFile(file, { maxBytes: MAX_ENTRY_BYTES })).toString("utf8")));
    return parsed.success && (opts.anyRevision || parsed.data.pipeline_revision === PIPELINE_REVISION) ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export async function writeTurnCacheEntry(file: string, entry: TurnCacheEntry): Promise<void> {
  await writeFileAtomic(file, JSON.stringify({ ...entry, pipeline_revision: PIPELINE_REVISION }) + "\n");
}

/** Whether the entry's code-usage figures still hold: the code it counted is in the same state now. */
export async function codeStateHolds(entry: TurnCacheEntry, current: () => Promise<string | undefined>): Promise<boolean> {
  if (entry.code_state === undefined) return false;
  if (entry.code_state === "") return true;
  return (await current()) === entry.code_state;
}
