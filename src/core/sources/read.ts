// Reading a decision source: its copy is opened (fetched when due) and discovery reads its records exactly as it
// reads the repository's own. The records then join the repository's artifact set under the source's name
// (`architecture:decisions/0007-x.md`), so one docs expert ranks them together: the same parser, decision model,
// supersession and term statistics, whichever repository a record lives in. Each source runs under one budget: a
// source that hangs, is unreachable or holds thousands of pages ends its stage with one line, and the deliberation
// answers from what it has.
import { configVersion } from "../config";
import { canonicalJson, sha256 } from "../hash";
import { adrFolderOf } from "../internal/adrDetect";
import { discoverArtifacts, MAIN_LOG_RECORDS, strayRecordFolders } from "../internal/discovery";
import { readSnapshot, writeSnapshot } from "../internal/corpus/store";
import { discoverWithSnapshot } from "../internal/corpus/discovery";
import type { DecisionSourceRecord, DecisionSourceRef, EvidenceItem } from "../schemas";
import type { StageOutcome } from "../stageRecorder";
import type { ArtifactFile, ArtifactSet, DeliberationConfig } from "../types";
import { openSource, type CheckoutOptions, type SourceCheckout } from "./checkout";
import { isBadSource, type BadSource, type SourceSpec } from "./spec";

/** Wall-clock budget for one source's whole stage: fetch and discovery. */
export const DEFAULT_SOURCE_BUDGET_MS = 8000;

/** Only records and architecture docs speak for a source; its agent instructions are about building that repository. */
const SOURCE_TYPES = new Set(["adr", "architecture"]);

export interface SourceReadOptions extends Omit<CheckoutOptions, "signal"> {
  budgetMs?: number;
}

/** What one source contributed: its stage, its records (paths prefixed with its name) and its receipt record. */
export interface SourceRead {
  /** The stage name's tail: `source:<name>`. */
  stage: string;
  outcome: StageOutcome;
  ms: number;
  files: ArtifactFile[];
  ref?: DecisionSourceRef;
  record?: DecisionSourceRecord;
  /** The source holds a decision log (a folder of MAIN_LOG_RECORDS records or more) under its path. */
  mainLog?: boolean;
}

export function sourceStageName(source: SourceSpec | BadSource): string {
  return isBadSource(source) ? `source:${source.display.replace(/^[a-z]+:\/\//i, "").replace(/[^A-Za-z0-9._/-]+/g, "-").slice(0, 60) || "invalid"}` : `source:${source.name}`;
}

export async function readSource(source: SourceSpec | BadSource, config: DeliberationConfig, signal: AbortSignal, opts: SourceReadOptions = {}): Promise<SourceRead> {
  const started = performance.now();
  const stage = sourceStageName(source);
  const done = (outcome: StageOutcome, extra: Partial<SourceRead> = {}): SourceRead => ({ stage, outcome, ms: performance.now() - started, files: [], ...extra });
  if (isBadSource(source)) return done({ status: "failed", count: 0, reason: `${source.display}: ${source.reason}` });
  const budgetMs = opts.budgetMs ?? DEFAULT_SOURCE_BUDGET_MS;
  const budget = new AbortController();
  const onAbort = () => budget.abort(signal.reason);
  signal.addEventListener("abort", onAbort, { once: true });
  let phase = "opening";
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<"expired">((res) => {
    timer = setTimeout(() => {
      budget.abort(new Error(`budget of ${budgetMs} ms`));
      res("expired");
    }, budgetMs);
    timer.unref?.();
  });
  const work = (async (): Promise<SourceRead> => {
    const checkout = await openSource(source, { ...opts, offline: opts.offline ?? config.offline, signal: budget.signal });
    const record = recordOf(source, checkout);
    phase = "reading";
    const set = await discoverSource(source, checkout, config, budget.signal);
    const own = set.files.filter((f) => SOURCE_TYPES.has(f.source_type) && f.path.startsWith(checkout.prefix));
    const note = checkout.note ? ` (${checkout.note})` : "";
    if (!own.some((f) => f.source_type === "adr")) return done({ status: "empty", count: 0, reason: `${source.display}: ${noRecordsReason(set)}${note}` }, { record });
    const ref: DecisionSourceRef = { name: source.name, ...(checkout.commit ? { commit: checkout.commit } : {}) };
    const files = own.map((f) => ({ ...f, path: `${source.name}:${f.path}` }));
    const where = `${source.display}${checkout.commit ? ` at ${checkout.commit.slice(0, 10)}` : ""}`;
    const mainLog = (set.adrFolders ?? []).some((f) => f.count >= MAIN_LOG_RECORDS && `${f.dir}/`.startsWith(checkout.prefix));
    return done({ status: "ok", count: files.length, reason: `${where}: ${files.filter((f) => f.source_type === "adr").length} records${note}` }, { files, ref, record, mainLog });
  })();
  work.catch(() => undefined);
  try {
    const outcome = await Promise.race([work, expired]);
    if (outcome !== "expired") return outcome;
    if (signal.aborted) throw signal.reason;
    return done({ status: "failed", count: 0, reason: `${source.display}: cut short at the ${budgetMs} ms budget while ${phase} the source`, truncated: true });
  } catch (err) {
    if (signal.aborted) throw err;
    return done({ status: "failed", count: 0, reason: `${source.display}: ${oneLine(err)}` });
  } finally {
    clearTimeout(timer);
    signal.removeEventListener("abort", onAbort);
  }
}

/** A git source's discovered set at one commit, kept beside its copy and in memory: a cached source costs a read. */
const remembered = new Map<string, ArtifactSet>();
const REMEMBERED_SETS = 8;

async function discoverSource(source: SourceSpec, checkout: SourceCheckout, config: DeliberationConfig, signal: AbortSignal): Promise<ArtifactSet> {
  // A folder source can change at any time: its set is kept only while its stat fingerprint vouches for it.
  if (source.kind !== "git" || !checkout.commit) return (await discoverWithSnapshot(checkout.root, config, { signal })).set;
  const key = sha256(canonicalJson({ root: checkout.root, commit: checkout.commit, config: configVersion(config), receipts: config.receiptsDir }));
  const hit = remembered.get(key);
  if (hit) return hit;
  const file = `${checkout.root}.artifacts`;
  const stored = await readSnapshot(file);
  const value = "value" in stored ? (stored.value as { key?: unknown; set?: ArtifactSet }) : undefined;
  let set = value?.key === key && Array.isArray(value.set?.files) ? value.set : undefined;
  if (!set) {
    set = await discoverArtifacts(checkout.root, config, signal);
    await writeSnapshot(file, { key, set }).catch(() => undefined);
  }
  remembered.set(key, set);
  while (remembered.size > REMEMBERED_SETS) remembered.delete(remembered.keys().next().value!);
  return set;
}

function recordOf(source: SourceSpec, checkout: SourceCheckout): DecisionSourceRecord {
  return {
    name: source.name,
    kind: source.kind,
    spec: source.display,
    ...(checkout.commit ? { commit: checkout.commit } : {}),
    ...(checkout.fetched_at ? { fetched_at: checkout.fetched_at } : {}),
  };
}

function noRecordsReason(set: ArtifactSet): string {
  const note = set.notes?.find((n) => /markdown files/.test(n));
  return `no decision records found${note ? ` (${note})` : set.files.length ? ` (${set.files.length} other docs)` : ""}`;
}

/**
 * The repository's artifacts plus every source's records: one set, one hash, ranked together. A source's decision
 * log counts as the repository's own would in discovery: the repository's few design notes that were taken for
 * records by their content alone (no log of its own to compare with) are read as architecture docs, as they are when
 * the log sits in the repository. Otherwise moving a log out of a repository would make its notes outrank the log.
 */
export function withSourceFiles(set: ArtifactSet, reads: SourceRead[]): ArtifactSet {
  const extra = reads.flatMap((r) => r.files);
  if (!extra.length) return set;
  const own = reads.some((r) => r.mainLog && r.files.length) ? withoutStrayRecords(set) : set.files;
  const files = [...own, ...extra].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const hash = sha256(files.map((f) => `${f.path}\0${f.hash}${f.index_status ? `\0${f.index_status.status}` : ""}\n`).join(""));
  return { ...set, files, hash };
}

function withoutStrayRecords(set: ArtifactSet): ArtifactFile[] {
  const folders = set.adrFolders ?? [];
  // Only folders whose every record was recognised by content: a folder also named by a setting or config keeps them.
  const stray = [...strayRecordFolders(folders, true)].filter((dir) => folders.every((f) => f.dir !== dir || f.via === "content"));
  if (!stray.length) return set.files;
  return set.files.map((f) => {
    if (f.source_type !== "adr" || !stray.includes(adrFolderOf(f.path))) return f;
    const { index_status: _indexStatus, ...rest } = f;
    return { ...rest, source_type: "architecture" };
  });
}

/** Marks the items read from a source with the source's name and commit (their paths carry `<name>:`). */
export function tagSourceItems(items: EvidenceItem[], reads: SourceRead[]): EvidenceItem[] {
  const refs = reads.filter((r) => r.ref && r.files.length).map((r) => r.ref!);
  if (!refs.length) return items;
  return items.map((i) => {
    if (i.kind !== "internal" || i.commit) return i;
    const ref = refs.find((r) => i.path_or_url.startsWith(`${r.name}:`));
    return ref ? { ...i, decision_source: ref } : i;
  });
}

function oneLine(err: unknown): string {
  const msg = err instanceof Error ? err.message : String(err);
  return (msg.split("\n").find((l) => l.trim())?.trim() ?? "unknown error").slice(0, 300);
}
