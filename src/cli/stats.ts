// `deliberate stats [--json] [--repo DIR]`: how often the operator accepted the recommendation, which receipts
// count towards the learned weights (and why the others do not), and the weights fusion currently ranks with.
// `deliberate stats --reset`: writes a signed reset marker; picks made before it no longer count.
import { configVersion, resolveConfig } from "../core/config";
import { computeLearning, IGNORE_REASONS, type IgnoreReason, type LearningReport } from "../core/learning/load";
import { resetMarkerPath, writeResetMarker } from "../core/learning/reset";
import { LEARNED_SOURCES, LEARNED_SOURCE_LABELS, LEARNING_RATE, MAX_WEIGHT, MIN_WEIGHT, SYNTHESIS_PATHS, versionWithWeights } from "../core/learning/weights";
import { loadKeyFileIfExists, loadOrCreateKeyFile } from "../core/receipts/signing";
import { DEFAULT_RECEIPTS_DIR, receiptsFolder } from "../core/receipts/store";
import { UsageError, parseOptions, repoOption } from "./common";
import { existsSync } from "node:fs";

export const STATS_USAGE = "deliberate stats [--repo DIR] [--json] [--reset]";

export interface StatsIo {
  out: (s: string) => void;
  err: (s: string) => void;
}

export const UPDATE_RULE = `w = exp(clamp(${LEARNING_RATE} × Σ credit, −ln 2, ln 2)) per source, bounded ${MIN_WEIGHT}×–${MAX_WEIGHT}×; credit = stance on the picked option − (on an override) stance on the recommended one`;

const REASON_TEXT: Record<IgnoreReason, string> = {
  corrupt: "corrupt file",
  duplicate: "duplicate copy",
  "name-mismatch": "file name not its receipt_id",
  "signature-invalid": "signature invalid",
  "untrusted-signer": "untrusted signer",
  legacy: "legacy receipt",
  "evidence-changed": "evidence changed",
  "evidence-unreadable": "evidence unreadable",
  "no-pick": "no pick yet",
  "not-operator-pick": "latest pick not by the operator",
  "picked-before-reset": "picked before the reset",
};


export async function statsCommand(argv: string[], io: StatsIo): Promise<number> {
  const { values } = parseOptions(argv, { repo: { type: "string" }, json: { type: "boolean" }, reset: { type: "boolean" } }, { positionals: false, usage: STATS_USAGE });
  const repo = repoOption(values.repo as string | undefined);
  const dirName = DEFAULT_RECEIPTS_DIR;
  if (values.reset) return resetCommand(repo, dirName, !!values.json, io);
  const own = loadKeyFileIfExists(undefined);
  const report = await computeLearning(repo, dirName, own?.publicKeyPem);
  const json = statsJson(repo, dirName, report);
  if (values.json) io.out(JSON.stringify(json, null, 2));
  else printStats(json, report, io);
  return 0;
}

function statsJson(repo: string, dirName: string, r: LearningReport) {
  const byReason: Partial<Record<IgnoreReason, number>> = {};
  for (const i of r.ignored) byReason[i.reason] = (byReason[i.reason] ?? 0) + 1;
  return {
    receipts_dir: receiptsFolder(repo, dirName),
    counted: r.counted.length,
    agreed: r.weights.agreed,
    overridden: r.weights.overridden,
    undecided: r.weights.undecided,
    agreement_rate: r.weights.agreement_rate,
    ignored: { total: r.ignored.length, by_reason: byReason, receipts: r.ignored },
    weights: { sources: r.weights.sources, synthesis: r.weights.synthesis, hash: r.learned.hash },
    config_version: versionWithWeights(configVersion(resolveConfig()), r.learned),
    reset: r.reset.at ? { at: r.reset.at, by: r.reset.by } : null,
    ...(r.reset.ignored ? { reset_ignored: r.reset.ignored } : {}),
    rule: UPDATE_RULE,
    counted_receipts: r.counted,
  };
}

function printStats(j: ReturnType<typeof statsJson>, r: LearningReport, io: StatsIo): void {
  io.out(`learning from operator picks in ${j.receipts_dir}`);
  const rate = j.agreement_rate === null ? "n/a (no decided pick yet)" : `${Math.round(j.agreement_rate * 100)}%`;
  io.out(`picks counted: ${j.counted} (${j.agreed} accepted, ${j.overridden} overridden, ${j.undecided} with no recommendation); agreement: ${rate}`);
  const reasons = IGNORE_REASONS.filter((k) => j.ignored.by_reason[k]).map((k) => `${j.ignored.by_reason[k]} ${REASON_TEXT[k]}`);
  io.out(`ignored: ${j.ignored.total}${reasons.length ? ` (${reasons.join(", ")})` : ""}`);
  for (const i of r.ignored.slice(0, 20)) io.out(`  ${i.receipt_id}: ${i.detail}`);
  if (r.ignored.length > 20) io.out(`  … and ${r.ignored.length - 20} more (--json lists them all)`);
  if (j.reset) io.out(`reset: picks up to ${j.reset.at} (reset by ${j.reset.by}) no longer count`);
  if (r.reset.ignored) io.out(`reset marker ignored: ${r.reset.ignored}`);
  io.out(`source weights (fusion prior; 1× = unchanged):`);
  for (const s of LEARNED_SOURCES) io.out(`  ${LEARNED_SOURCE_LABELS[s].padEnd(18)} ${r.weights.sources[s].toFixed(3)}×`);
  io.out(`synthesis paths: ${SYNTHESIS_PATHS.map((p) => `${p} ${r.weights.synthesis[p].toFixed(3)}×`).join(", ")}`);
  io.out(`weights ${j.weights.hash}; config version ${j.config_version}`);
  io.out(`rule: ${UPDATE_RULE}`);
}

async function resetCommand(repo: string, dirName: string, json: boolean, io: StatsIo): Promise<number> {
  if (!existsSync(receiptsFolder(repo, dirName))) throw new UsageError(`no ${dirName} folder in ${repo}: there are no picks to reset`);
  const key = loadOrCreateKeyFile(undefined);
  const before = await computeLearning(repo, dirName, key.publicKeyPem);
  let at: string;
  try {
    at = await writeResetMarker(repo, dirName, key, new Date());
  } catch (err) {
    throw new UsageError((err as Error).message.split("\n")[0]);
  }
  const file = resetMarkerPath(repo, dirName);
  if (json) io.out(JSON.stringify({ reset_at: at, file, picks_no_longer_counted: before.counted.length }, null, 2));
  else {
    io.out(`learning reset at ${at}: ${before.counted.length} earlier pick(s) no longer count; every weight is back to 1×`);
    io.out(`signed reset marker: ${file} (commit it so the reset holds for everyone; delete it to undo)`);
  }
  return 0;
}
