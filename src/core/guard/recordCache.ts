// The decisions read from a repository's records, kept between runs. Reading them (every record parsed, its decision
// model built, supersession worked out) is the largest part of a warm `deliberate check`, and it depends only on the
// discovered records' texts and the code: so it is keyed by the artifact set's hash (which hashes every discovered
// file) and the code's identity, kept in memory (the editor checks on every save) and beside the corpus snapshot on
// disk (each CLI run is a fresh process). What depends on the working tree (which named folders exist, the project's
// own names) is applied after, on a copy. A torn, foreign or stale file is ignored and rewritten.
import { join } from "node:path";
import { z } from "zod";
import { CORE_VERSION } from "../config";
import { canonicalJson, sha256 } from "../hash";
import { corpusDirFor, pruneSnapshots, readSnapshot, writeSnapshot, type CorpusCacheOptions } from "../internal/corpus/store";
import { LineRangeSchema } from "../schemas";
import type { ArtifactSet } from "../types";
import type { GuardDecision } from "./decisions";
import { DecisionCitationSchema } from "./schema";

/** Bumped whenever what is cached, or the code deriving it, changes meaning. */
const RECORDS_FORMAT = 17;
const PREFIX = "guard-records-";
const MEMORY_ENTRIES = 4;
const DISK_ENTRIES = 2;

export interface RecordDecisions {
  /** In-force records' decisions; `area` holds every candidate path, not yet checked against the working tree. */
  decisions: GuardDecision[];
  /** Records that could not be read. */
  notes: string[];
}

// Loose objects: a field the deciding code adds to these types survives the round trip (the file is only ever read by
// the code that wrote it, see the key), instead of being dropped and making a warm check differ from a cold one.
const NameKeysSchema = z.looseObject({ display: z.string(), exact: z.array(z.string()).optional(), tokens: z.array(z.string()), compact: z.string().optional() });
const DecidedThingSchema = z.looseObject({
  name: z.string(),
  keys: NameKeysSchema,
  range: LineRangeSchema,
  reason: z.string().optional(),
  importsOnly: z.boolean().optional(),
  textOnly: z.boolean().optional(),
});
export const GuardDecisionSchema = z.looseObject({
  source: z.enum(["record", "rule", "receipt"]),
  citation: DecisionCitationSchema,
  forbidden: z.array(DecidedThingSchema),
  required: z.array(DecidedThingSchema),
  chosen: z.string().optional(),
  area: z.array(z.string()),
  scope: z.array(z.string()).optional(),
});
const StoredSchema = z.object({ format: z.literal(RECORDS_FORMAT), key: z.string(), decisions: z.array(GuardDecisionSchema), notes: z.array(z.string()) });

const memory = new Map<string, RecordDecisions>();

function remember(key: string, value: RecordDecisions): void {
  memory.delete(key);
  memory.set(key, value);
  while (memory.size > MEMORY_ENTRIES) memory.delete(memory.keys().next().value!);
}

/**
 * The record decisions of `set`: from memory or the disk cache when both the records and the code are the same,
 * else from `derive` (then kept). Always a fresh copy: callers adjust it to the working tree.
 */
export async function cachedRecordDecisions(root: string, set: ArtifactSet, cache: CorpusCacheOptions | undefined, derive: () => Promise<RecordDecisions>): Promise<RecordDecisions> {
  const key = sha256(canonicalJson({ root, set: set.hash, code: cache?.codeId ?? CORE_VERSION, format: RECORDS_FORMAT }));
  const kept = memory.get(key);
  if (kept) return structuredClone(kept);
  const file = cache ? join(corpusDirFor(cache.dir, root), `${PREFIX}${key.slice(0, 16)}.bin`) : undefined;
  if (file) {
    const read = await readSnapshot(file);
    if ("value" in read) {
      const parsed = StoredSchema.safeParse(read.value);
      if (parsed.success && parsed.data.key === key) {
        const value: RecordDecisions = { decisions: parsed.data.decisions as GuardDecision[], notes: parsed.data.notes };
        remember(key, value);
        return structuredClone(value);
      }
    }
  }
  const value = await derive();
  remember(key, structuredClone(value));
  if (file) {
    await writeSnapshot(file, { format: RECORDS_FORMAT, key, decisions: value.decisions, notes: value.notes }).catch((err: unknown) =>
      cache?.notice?.(`could not save the guard's record cache: ${(err instanceof Error ? err.message : String(err)).split("\n")[0]}`),
    );
    pruneSnapshots(join(file, ".."), PREFIX, DISK_ENTRIES);
  }
  return value;
}

/** Forgets the decisions kept in memory (tests). */
export function forgetRecordDecisions(): void {
  memory.clear();
}
