// What a check needs from the repository's documents — the records' decisions, the instruction files' rules, and
// which paths are decisions themselves — kept with the stat fingerprint discovery took of everything it looked at.
// While that fingerprint holds, nothing discovery read can have changed, so a warm check (a fresh CLI process, or
// the editor on every save) skips loading the corpus snapshot, which holds the text of every discovered file, and
// reads this much smaller file instead. Any mismatch asks discovery again (records that did not change still come
// from recordCache.ts). Kept in memory and beside the corpus snapshot on disk; a torn or foreign file is ignored.
import { join } from "node:path";
import { z } from "zod";
import { CORE_VERSION } from "../config";
import { fingerprintHolds, FingerprintSchema, type Fingerprint } from "../fingerprint";
import { canonicalJson, sha256 } from "../hash";
import { corpusDirFor, pruneSnapshots, readSnapshot, writeSnapshot, type CorpusCacheOptions } from "../internal/corpus/store";
import type { DeliberationConfig } from "../types";
import type { GuardDecision } from "./decisions";
import { GuardDecisionSchema, type RecordDecisions } from "./recordCache";

/** Bumped whenever what is cached, or the code deriving it, changes meaning. */
const BASIS_FORMAT = 8;
const PREFIX = "guard-basis-";
const MEMORY_ENTRIES = 4;
const DISK_ENTRIES = 2;

export interface DecisionBasis {
  /** In-force records' decisions (areas not yet checked against the working tree) and the records' notes. */
  records: RecordDecisions;
  /** Rules of the agent instructions and contribution guides. */
  rules: GuardDecision[];
  /** Paths that are decisions themselves (records, instruction files): a mention inside one is not a finding. */
  recordPaths: string[];
  /** Coding guides the instruction files point to: read on every check, since the fingerprint does not cover them. */
  guidePaths: string[];
}

const BasisSchema = z.object({
  records: z.object({ decisions: z.array(GuardDecisionSchema), notes: z.array(z.string()) }),
  rules: z.array(GuardDecisionSchema),
  recordPaths: z.array(z.string()),
  guidePaths: z.array(z.string()),
});
const StoredSchema = z.object({ format: z.literal(BASIS_FORMAT), key: z.string(), fingerprint: FingerprintSchema, basis: BasisSchema });

const memory = new Map<string, { fingerprint: Fingerprint; basis: DecisionBasis }>();

function remember(key: string, entry: { fingerprint: Fingerprint; basis: DecisionBasis }): void {
  memory.delete(key);
  memory.set(key, entry);
  while (memory.size > MEMORY_ENTRIES) memory.delete(memory.keys().next().value!);
}

/** What discovery's result depends on besides the files (as the corpus snapshot's own key), and the guard's code. */
function basisKey(root: string, config: DeliberationConfig, codeId: string): string {
  const { adrGlobs, conventionGlobs, ignoreGlobs, maxFileBytes, receiptsDir } = config;
  return sha256(canonicalJson({ root, adrGlobs, conventionGlobs, ignoreGlobs, maxFileBytes, receiptsDir, codeId, format: BASIS_FORMAT, kind: "guard-basis" }));
}

/**
 * The decision basis of `root`: kept (memory, then disk) while its fingerprint holds, else `derive`d from discovery
 * and kept. Always a fresh copy: callers adjust it to the working tree.
 */
export async function cachedDecisionBasis(
  root: string,
  config: DeliberationConfig,
  cache: CorpusCacheOptions | undefined,
  derive: () => Promise<{ basis: DecisionBasis; fingerprint: Fingerprint }>,
): Promise<DecisionBasis> {
  const key = basisKey(root, config, cache?.codeId ?? CORE_VERSION);
  const kept = memory.get(key);
  if (kept && (await fingerprintHolds(root, kept.fingerprint))) return structuredClone(kept.basis);
  const file = cache ? join(corpusDirFor(cache.dir, root), `${PREFIX}${key.slice(0, 16)}.bin`) : undefined;
  if (file && !kept) {
    const read = await readSnapshot(file);
    if ("value" in read) {
      const parsed = StoredSchema.safeParse(read.value);
      if (parsed.success && parsed.data.key === key && (await fingerprintHolds(root, parsed.data.fingerprint))) {
        const entry = { fingerprint: parsed.data.fingerprint, basis: parsed.data.basis as DecisionBasis };
        remember(key, entry);
        return structuredClone(entry.basis);
      }
    }
  }
  const { basis, fingerprint } = await derive();
  remember(key, { fingerprint, basis: structuredClone(basis) });
  if (file) {
    await writeSnapshot(file, { format: BASIS_FORMAT, key, fingerprint, basis }).catch((err: unknown) =>
      cache?.notice?.(`could not save the guard's decision cache: ${(err instanceof Error ? err.message : String(err)).split("\n")[0]}`),
    );
    pruneSnapshots(join(file, ".."), PREFIX, DISK_ENTRIES);
  }
  return basis;
}

/** Forgets the bases kept in memory (tests). */
export function forgetDecisionBases(): void {
  memory.clear();
}
