// Gathers what the learned weights are computed from: every receipt in the receipts folder that verifies (valid
// signature, trusted signer, evidence intact — store.ts's verifyEntry decides), whose latest pick was made by the
// operator after the last trusted reset. Everything else is listed as ignored, with why. The result is cached in
// `<receiptsDir>/cache/learning.json`, signed with your own key and keyed by the stats of every file it depends on,
// so a deliberation does not re-verify every receipt each time.
import { createPrivateKey, createPublicKey, sign, verify } from "node:crypto";
import { promises as fs } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { canonicalJson, sha256 } from "../hash";
import type { SigningKey } from "../receipts/signing";
import { DEFAULT_RECEIPTS_DIR, listReceipts, readEvidence, receiptsFolder, verifyEntry, writeFileAtomic, type ReceiptVerification } from "../receipts/store";
import { ALLOWED_SIGNERS_FILE, readAllowedSigners } from "../receipts/trust";
import type { LearnedWeights, Receipt } from "../schemas";
import { readResetMarker, RESET_FILE, type ResetState } from "./reset";
import { LEARNING_RATE, computeWeights, observationOf, outcomeOf, toLearnedWeights, type ComputedWeights, type PickObservation, type PickOutcome } from "./weights";

/** Why a receipt does not count towards the weights. */
export const IGNORE_REASONS = [
  "corrupt",
  "signature-invalid",
  "untrusted-signer",
  "legacy",
  "evidence-changed",
  "evidence-unreadable",
  "no-pick",
  "not-operator-pick",
  "picked-before-reset",
] as const;
export type IgnoreReason = (typeof IGNORE_REASONS)[number];

export interface CountedReceipt {
  receipt_id: string;
  outcome: PickOutcome;
  synthesis: PickObservation["synthesis"];
  picked_at: string;
}

export interface IgnoredReceipt {
  receipt_id: string;
  reason: IgnoreReason;
  detail: string;
}

export interface LearningReport {
  weights: ComputedWeights;
  learned: LearnedWeights;
  counted: CountedReceipt[];
  ignored: IgnoredReceipt[];
  reset: ResetState;
}

function ignoredFor(v: ReceiptVerification): IgnoredReceipt | undefined {
  const id = v.receipt_id;
  if (v.signature === "corrupt") return { receipt_id: id, reason: "corrupt", detail: v.summary };
  if (v.signature !== "valid") return { receipt_id: id, reason: "signature-invalid", detail: v.reason ?? "signature invalid" };
  if (v.trust === "untrusted") return { receipt_id: id, reason: "untrusted-signer", detail: v.summary };
  if (v.legacy) return { receipt_id: id, reason: "legacy", detail: "legacy receipt: its pick is not covered by the signature" };
  if (v.evidence !== "intact") return { receipt_id: id, reason: "evidence-changed", detail: v.evidence_problems.join("; ") || v.evidence };
  return v.ok ? undefined : { receipt_id: id, reason: "signature-invalid", detail: v.summary };
}

/** The pick that decides what a receipt teaches: its latest one, and only when the operator made it after the reset. */
function countingPick(receipt: Receipt, reset: ResetState): { pick?: NonNullable<Receipt["picks"]>[number]; ignored?: Omit<IgnoredReceipt, "receipt_id"> } {
  const last = receipt.picks?.at(-1);
  if (!last) return { ignored: { reason: "no-pick", detail: "no pick yet" } };
  // Anything but an operator's pick (an agent's, once agents can pick) teaches nothing.
  const by = (last as { picked_by: string }).picked_by;
  if (by !== "operator") return { ignored: { reason: "not-operator-pick", detail: `latest pick was made by ${by}, not the operator` } };
  if (reset.at && last.at <= reset.at) return { ignored: { reason: "picked-before-reset", detail: `picked ${last.at}, before the reset of ${reset.at}` } };
  return { pick: last };
}

/** Verifies every receipt and turns the ones that count into observations; never throws for a bad receipt. */
export async function collectObservations(
  repo: string,
  dirName: string,
  ownPublicKeyPem: string | undefined,
): Promise<{ observations: PickObservation[]; counted: CountedReceipt[]; ignored: IgnoredReceipt[]; reset: ResetState }> {
  const [entries, signers] = await Promise.all([listReceipts(repo, dirName), readAllowedSigners(repo, dirName)]);
  const reset = await readResetMarker(repo, dirName, ownPublicKeyPem, signers);
  const results = await Promise.all(
    entries.map(async (entry): Promise<{ observation: PickObservation; counted: CountedReceipt } | IgnoredReceipt> => {
      const v = await verifyEntry(repo, entry, { ownPublicKeyPem, signers, dirName, citations: false });
      const bad = ignoredFor(v);
      if (bad || entry.state !== "ok") return bad ?? { receipt_id: entry.receipt_id, reason: "corrupt", detail: "unreadable" };
      const receipt = entry.receipt;
      const { pick, ignored } = countingPick(receipt, reset);
      if (!pick) return { receipt_id: receipt.receipt_id, ...ignored! };
      const evidence = await readEvidence(repo, receipt.evidence_ref, dirName).catch((err: Error) => err);
      if (evidence instanceof Error) return { receipt_id: receipt.receipt_id, reason: "evidence-unreadable", detail: evidence.message.split("\n")[0] };
      const observation = observationOf(receipt.receipt_id, receipt.synthesis.mode, receipt.payload, evidence, pick.option_id);
      return { observation, counted: { receipt_id: receipt.receipt_id, outcome: outcomeOf(observation), synthesis: observation.synthesis, picked_at: pick.at } };
    }),
  );
  const byId = (a: { receipt_id: string }, b: { receipt_id: string }) => (a.receipt_id < b.receipt_id ? -1 : a.receipt_id > b.receipt_id ? 1 : 0);
  const good = results.filter((r): r is { observation: PickObservation; counted: CountedReceipt } => "observation" in r);
  return {
    observations: good.map((r) => r.observation).sort(byId),
    counted: good.map((r) => r.counted).sort(byId),
    ignored: results.filter((r): r is IgnoredReceipt => !("observation" in r)).sort(byId),
    reset,
  };
}

/** Computes the report from the receipts on disk, without the cache. */
export async function computeLearning(repo: string, dirName: string, ownPublicKeyPem: string | undefined): Promise<LearningReport> {
  const { observations, counted, ignored, reset } = await collectObservations(repo, dirName, ownPublicKeyPem);
  const weights = computeWeights(observations);
  return { weights, learned: toLearnedWeights(weights), counted, ignored, reset };
}

// ---------------------------------------------------------------------------------------------------------
// The cache.

/** Bump when the rule or what it reads changes, so no cached report outlives its rule. */
const LEARNING_RULE_VERSION = `1:${LEARNING_RATE}`;
export const LEARNING_CACHE_FILE = "learning.json";

const CachedSchema = z.object({ rule: z.string(), key: z.string(), report: z.unknown(), signature: z.string() });

async function statsOf(dir: string, filter: (name: string) => boolean): Promise<string[]> {
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  const rows = await Promise.all(
    names.filter(filter).map(async (n) => {
      const st = await fs.lstat(join(dir, n)).catch(() => undefined);
      return st ? `${n}:${st.size}:${st.mtimeMs}:${st.ino}` : `${n}:gone`;
    }),
  );
  return rows.sort();
}

/** What the report depends on: every receipt, evidence file, the allowed signers, the reset marker, your key. */
async function cacheKey(repo: string, dirName: string, ownPublicKeyPem: string): Promise<string> {
  const folder = receiptsFolder(repo, dirName);
  const [receipts, evidence, meta, learning] = await Promise.all([
    statsOf(folder, (n) => n.endsWith(".json")),
    statsOf(join(folder, "evidence"), (n) => n.endsWith(".json")),
    statsOf(folder, (n) => n === ALLOWED_SIGNERS_FILE),
    statsOf(join(folder, "learning"), (n) => n === RESET_FILE),
  ]);
  return sha256(canonicalJson({ rule: LEARNING_RULE_VERSION, repo, dirName, key: sha256(ownPublicKeyPem.trim()), receipts, evidence, meta, learning }));
}

function signCache(body: object, key: SigningKey): string {
  return sign(null, Buffer.from(canonicalJson(body)), createPrivateKey(key.privateKeyPem)).toString("base64");
}

async function readCache(file: string, key: string, signingKey: SigningKey): Promise<LearningReport | undefined> {
  try {
    const parsed = CachedSchema.safeParse(JSON.parse(await fs.readFile(file, "utf8")));
    if (!parsed.success || parsed.data.rule !== LEARNING_RULE_VERSION || parsed.data.key !== key) return undefined;
    const { signature, ...body } = parsed.data;
    // Only a report your own key signed is used: anyone who can write the folder could plant weights otherwise.
    const ok = verify(null, Buffer.from(canonicalJson(body)), createPublicKey(signingKey.publicKeyPem), Buffer.from(signature, "base64"));
    return ok ? (body.report as LearningReport) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The learned weights for a repository, from the signed cache when nothing they depend on changed, else computed
 * (and the cache rewritten). `writeCache: false` never writes (a run that must not touch the repository).
 */
export async function loadLearning(
  repo: string,
  signingKey: SigningKey,
  opts: { dirName?: string; writeCache?: boolean } = {},
): Promise<LearningReport & { cached: boolean }> {
  const dirName = opts.dirName ?? DEFAULT_RECEIPTS_DIR;
  const file = join(receiptsFolder(repo, dirName), "cache", LEARNING_CACHE_FILE);
  const key = await cacheKey(repo, dirName, signingKey.publicKeyPem);
  const hit = await readCache(file, key, signingKey);
  if (hit) return { ...hit, cached: true };
  const report = await computeLearning(repo, dirName, signingKey.publicKeyPem);
  if (opts.writeCache !== false && (await fs.stat(receiptsFolder(repo, dirName)).then((s) => s.isDirectory(), () => false))) {
    const body = { rule: LEARNING_RULE_VERSION, key, report };
    await writeFileAtomic(file, JSON.stringify({ ...body, signature: signCache(body, signingKey) }) + "\n").catch(() => undefined);
  }
  return { ...report, cached: false };
}
