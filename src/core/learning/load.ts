// Gathers what the learned weights are computed from: every receipt in the receipts folder that verifies (valid
// signature, trusted signer, evidence intact — store.ts's verifyEntry decides), whose latest pick was made by the
// operator after the last trusted reset. Everything else is listed as ignored, with why. Each receipt's verdict is
// cached in `<receiptsDir>/cache/learning.cache`, signed with your own key, and reused while the receipt's file and
// its evidence files keep their size, mtime and inode, so a deliberation verifies only new or changed receipts.
import { createPrivateKey, createPublicKey, sign, verify } from "node:crypto";
import { promises as fs } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { canonicalJson, sha256 } from "../hash";
import type { SigningKey } from "../receipts/signing";
import { folderWritableInside, resolveInside } from "../contain";
import { mapBounded, readRegularFile } from "../receipts/fsutil";
import { DEFAULT_RECEIPTS_DIR, fileNameMismatch, loadReceiptFile, readEvidence, receiptsFolder, verifyEntry, writeFileAtomic, type ReceiptEntry, type ReceiptVerification } from "../receipts/store";
import { ALLOWED_SIGNERS_FILE, readAllowedSigners, type AllowedSigners } from "../receipts/trust";
import type { LearnedWeights, Receipt } from "../schemas";
import { LEARNING_DIR, readResetMarker, RESET_FILE, type ResetState } from "./reset";
import { LEARNED_SOURCES, LEARNED_SOURCE_LABELS, LEARNING_RATE, SYNTHESIS_PATHS, computeWeights, observationOf, outcomeOf, toLearnedWeights, type ComputedWeights, type PickObservation, type PickOutcome } from "./weights";

/** Why a receipt does not count towards the weights. */
export const IGNORE_REASONS = [
  "corrupt",
  "duplicate",
  "name-mismatch",
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
  /** The receipt's id; for a misnamed file (duplicate, name-mismatch), the file's name without `.json`. */
  receipt_id: string;
  reason: IgnoreReason;
  detail: string;
  /** duplicate, name-mismatch: the signed receipt_id the file holds. */
  holds?: string;
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
  if (reset.at && Date.parse(last.at) <= Date.parse(reset.at)) return { ignored: { reason: "picked-before-reset", detail: `picked ${last.at}, before the reset of ${reset.at}` } };
  return { pick: last };
}

type ReceiptResult = { observation: PickObservation; counted: CountedReceipt } | IgnoredReceipt;

/** One receipt file's verdict, with the stats of the files it was judged from (so it can be reused unchanged). */
interface JudgedReceipt {
  stamp: string;
  evidence: { name: string; stamp: string }[];
  result: ReceiptResult;
}

interface JudgeContext {
  repo: string;
  dirName: string;
  ownPublicKeyPem: string | undefined;
  signers: AllowedSigners;
  reset: ResetState;
}

/** Verifies one receipt (store.ts's verifyEntry) and, when it counts, turns it into an observation. Never throws. */
async function judge(ctx: JudgeContext, entry: ReceiptEntry): Promise<ReceiptResult> {
  const { repo, dirName } = ctx;
  // One receipt counts once: it is identified by the receipt_id signed inside it, and only `<receipt_id>.json` is
  // read as that receipt; a copy under another name is ignored (reportOf tells a duplicate from a lone rename).
  const mismatch = fileNameMismatch(entry);
  if (mismatch && entry.state === "ok") {
    return { receipt_id: entry.file.replace(/^.*[\\/]/, "").replace(/\.json$/, ""), reason: "name-mismatch", detail: `ignored: ${mismatch}`, holds: entry.receipt.receipt_id };
  }
  const v = await verifyEntry(repo, entry, { ownPublicKeyPem: ctx.ownPublicKeyPem, signers: ctx.signers, dirName, citations: false });
  const bad = ignoredFor(v);
  if (bad || entry.state !== "ok") return bad ?? { receipt_id: entry.receipt_id, reason: "corrupt", detail: "unreadable" };
  const receipt = entry.receipt;
  const { pick, ignored } = countingPick(receipt, ctx.reset);
  if (!pick) return { receipt_id: receipt.receipt_id, ...ignored! };
  const evidence = await readEvidence(repo, receipt.evidence_ref, dirName).catch((err: Error) => err);
  if (evidence instanceof Error) return { receipt_id: receipt.receipt_id, reason: "evidence-unreadable", detail: evidence.message.split("\n")[0] };
  const observation = observationOf(receipt.receipt_id, receipt.synthesis.mode, receipt.payload, evidence, pick.option_id);
  return { observation, counted: { receipt_id: receipt.receipt_id, outcome: outcomeOf(observation), synthesis: observation.synthesis, picked_at: pick.at } };
}

/** `name -> size:mtime:inode` of the files in a folder that pass `filter`. */
async function stampsOf(dir: string, filter: (name: string) => boolean): Promise<Map<string, string>> {
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  const rows = await Promise.all(
    names.filter(filter).map(async (n): Promise<[string, string]> => {
      const st = await fs.lstat(join(dir, n)).catch(() => undefined);
      return [n, st ? `${st.size}:${st.mtimeMs}:${st.ino}` : "gone"];
    }),
  );
  return new Map(rows.sort((a, b) => (a[0] < b[0] ? -1 : 1)));
}

/**
 * Judges every receipt file in the folder. A receipt whose file and evidence files have the same stats as in
 * `previous` keeps its earlier verdict (the caller only passes `previous` when the signers, the reset marker and
 * your key are unchanged too); every other one is read and verified.
 */
async function judgeAll(repo: string, dirName: string, ownPublicKeyPem: string | undefined, previous?: Record<string, JudgedReceipt>): Promise<{ judged: Record<string, JudgedReceipt>; reset: ResetState }> {
  const folder = receiptsFolder(repo, dirName);
  if (!(await resolveInside(repo, dirName))) return { judged: {}, reset: {} };
  const [stamps, evidenceStamps, signers] = await Promise.all([
    stampsOf(folder, (n) => n.endsWith(".json")),
    stampsOf(join(folder, "evidence"), (n) => n.endsWith(".json")),
    readAllowedSigners(repo, dirName),
  ]);
  const reset = await readResetMarker(repo, dirName, ownPublicKeyPem, signers);
  const ctx: JudgeContext = { repo, dirName, ownPublicKeyPem, signers, reset };
  const judged: Record<string, JudgedReceipt> = {};
  // A few receipts at a time: each may be up to MAX_RECEIPT_BYTES, and a folder can hold thousands.
  await mapBounded(
    [...stamps],
    8,
    async ([name, stamp]) => {
      const prev = previous?.[name];
      if (prev && prev.stamp === stamp && prev.evidence.every((e) => evidenceStamps.get(e.name) === e.stamp)) {
        judged[name] = prev;
        return;
      }
      const id = name.replace(/\.json$/, "");
      if (!(await resolveInside(repo, join(dirName, name)))) {
        judged[name] = { stamp, evidence: [], result: { receipt_id: id, reason: "corrupt", detail: "unreadable: resolves outside the repository (symlink)" } };
        return;
      }
      const entry = await loadReceiptFile(join(folder, name));
      const evidence = entry.state === "ok" ? (entry.receipt.evidence_files ?? []).map((f) => f.path.replace(/^evidence\//, "")) : [];
      const result = await judge(ctx, entry);
      judged[name] = { stamp, evidence: evidence.map((e) => ({ name: e, stamp: evidenceStamps.get(e) ?? "missing" })), result };
    },
  );
  return { judged, reset };
}

/** A misnamed file whose receipt another file holds too is a duplicate (the verdict itself is per file, cached). */
function markDuplicates(results: ReceiptResult[]): ReceiptResult[] {
  const held = new Map<string, number>();
  const idOf = (r: ReceiptResult) => ("observation" in r ? r.counted.receipt_id : (r.holds ?? r.receipt_id));
  for (const r of results) held.set(idOf(r), (held.get(idOf(r)) ?? 0) + 1);
  return results.map((r) =>
    !("observation" in r) && r.reason === "name-mismatch" && (held.get(idOf(r)) ?? 0) > 1
      ? { ...r, reason: "duplicate" as const, detail: `${r.detail}; another file holds the same receipt, which counts once` }
      : r,
  );
}

function reportOf(judged: Record<string, JudgedReceipt>, reset: ResetState): LearningReport {
  const byId = (a: { receipt_id: string }, b: { receipt_id: string }) => (a.receipt_id < b.receipt_id ? -1 : a.receipt_id > b.receipt_id ? 1 : 0);
  const results = markDuplicates(Object.values(judged).map((j) => j.result));
  const good = results.filter((r): r is { observation: PickObservation; counted: CountedReceipt } => "observation" in r);
  const weights = computeWeights(good.map((r) => r.observation));
  return {
    weights,
    learned: toLearnedWeights(weights),
    counted: good.map((r) => r.counted).sort(byId),
    ignored: results.filter((r): r is IgnoredReceipt => !("observation" in r)).sort(byId),
    reset,
  };
}

/** Every receipt verified and turned into an observation when it counts; never throws for a bad receipt. */
export async function collectObservations(repo: string, dirName: string, ownPublicKeyPem: string | undefined): Promise<{ observations: PickObservation[]; counted: CountedReceipt[]; ignored: IgnoredReceipt[]; reset: ResetState }> {
  const { judged, reset } = await judgeAll(repo, dirName, ownPublicKeyPem);
  const report = reportOf(judged, reset);
  const observations = Object.values(judged).flatMap((j) => ("observation" in j.result ? [j.result.observation] : []));
  return { observations: observations.sort((a, b) => (a.receipt_id < b.receipt_id ? -1 : 1)), counted: report.counted, ignored: report.ignored, reset };
}

/** Computes the report from the receipts on disk, without the cache. */
export async function computeLearning(repo: string, dirName: string, ownPublicKeyPem: string | undefined): Promise<LearningReport> {
  const { judged, reset } = await judgeAll(repo, dirName, ownPublicKeyPem);
  return reportOf(judged, reset);
}

// ---------------------------------------------------------------------------------------------------------
// The cache: every receipt's verdict, reused while its file and evidence files keep their stats.

/** Bump when the rule or what it reads changes, so no cached verdict outlives its rule. */
const LEARNING_RULE_VERSION = `3:${LEARNING_RATE}`;
/** Not `.json`: the `*.json` files of the cache folder are the turn cache's entries. */
export const LEARNING_CACHE_FILE = "learning.cache";

/** The cache holds one small verdict per receipt; a file past this is no cache of ours. */
const MAX_CACHE_BYTES = 64 * 1024 * 1024;

const CachedSchema = z.object({ rule: z.string(), key: z.string(), judged: z.record(z.string(), z.unknown()), signature: z.string() });

/** What every verdict depends on besides its own files: the allowed signers, the reset marker, your key. */
async function globalKey(repo: string, dirName: string, ownPublicKeyPem: string): Promise<string> {
  const folder = receiptsFolder(repo, dirName);
  const [signers, reset] = await Promise.all([
    stampsOf(folder, (n) => n === ALLOWED_SIGNERS_FILE),
    stampsOf(join(folder, LEARNING_DIR), (n) => n === RESET_FILE),
  ]);
  return sha256(canonicalJson({ rule: LEARNING_RULE_VERSION, repo, dirName, key: sha256(ownPublicKeyPem.trim()), signers: [...signers], reset: [...reset] }));
}

async function readCache(file: string, key: string, signingKey: SigningKey): Promise<Record<string, JudgedReceipt> | undefined> {
  try {
    const parsed = CachedSchema.safeParse(JSON.parse((await readRegularFile(file, { maxBytes: MAX_CACHE_BYTES })).toString("utf8")));
    if (!parsed.success || parsed.data.rule !== LEARNING_RULE_VERSION || parsed.data.key !== key) return undefined;
    const { signature, ...body } = parsed.data;
    // Only verdicts your own key signed are reused: anyone who can write the folder could plant weights otherwise.
    const ok = verify(null, Buffer.from(canonicalJson(body)), createPublicKey(signingKey.publicKeyPem), Buffer.from(signature, "base64"));
    return ok ? (body.judged as Record<string, JudgedReceipt>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The learned weights for a repository. Receipts whose files did not change since the last run keep their signed,
 * cached verdict; only new or changed ones are verified. `writeCache: false` never writes (a run that must not
 * touch the repository). `cached` says whether every verdict came from the cache.
 */
export async function loadLearning(
  repo: string,
  signingKey: SigningKey,
  opts: { dirName?: string; writeCache?: boolean } = {},
): Promise<LearningReport & { cached: boolean; verified: number }> {
  const dirName = opts.dirName ?? DEFAULT_RECEIPTS_DIR;
  const file = join(receiptsFolder(repo, dirName), "cache", LEARNING_CACHE_FILE);
  const key = await globalKey(repo, dirName, signingKey.publicKeyPem);
  const previous = await readCache(file, key, signingKey);
  const { judged, reset } = await judgeAll(repo, dirName, signingKey.publicKeyPem, previous);
  const verified = Object.entries(judged).filter(([name, j]) => previous?.[name] !== j).length;
  const unchanged = !!previous && verified === 0 && Object.keys(previous).length === Object.keys(judged).length;
  // Only into a receipts folder that exists and a cache folder that stays inside the repository (a symlinked one
  // would carry the write elsewhere).
  const writable = async () => (await resolveInside(repo, dirName)) !== undefined && (await folderWritableInside(repo, join(dirName, "cache")));
  if (!unchanged && opts.writeCache !== false && (await fs.stat(receiptsFolder(repo, dirName)).then((s) => s.isDirectory(), () => false)) && (await writable())) {
    const body = { rule: LEARNING_RULE_VERSION, key, judged };
    const signature = sign(null, Buffer.from(canonicalJson(body)), createPrivateKey(signingKey.privateKeyPem)).toString("base64");
    await writeFileAtomic(file, JSON.stringify({ ...body, signature }) + "\n").catch(() => undefined);
  }
  return { ...reportOf(judged, reset), cached: unchanged, verified };
}

/** What the sidebar shows for one folder: agreement, counts and every weight with its label. */
export interface LearningSummary {
  agreement_rate: number | null;
  counted: number;
  ignored: number;
  reset_at?: string;
  sources: { source: string; label: string; weight: number }[];
  synthesis: { path: string; weight: number }[];
}

export async function learningSummary(repo: string, dirName: string, ownPublicKeyPem: string | undefined): Promise<LearningSummary> {
  const r = await computeLearning(repo, dirName, ownPublicKeyPem);
  return {
    agreement_rate: r.weights.agreement_rate,
    counted: r.counted.length,
    ignored: r.ignored.length,
    ...(r.reset.at ? { reset_at: r.reset.at } : {}),
    sources: LEARNED_SOURCES.map((s) => ({ source: s, label: LEARNED_SOURCE_LABELS[s], weight: r.weights.sources[s] })),
    synthesis: SYNTHESIS_PATHS.map((p) => ({ path: p, weight: r.weights.synthesis[p] })),
  };
}
