// Decision sources: records that live outside the repository (an organisation's architecture repository, a sibling
// service, another folder of a multi-root workspace). The pipeline reads every source while it discovers the
// repository's own artifacts, ranks both together, puts the repository's own record above a source's on the same
// subject, and names the sources and their commits in the receipt. See spec.ts (what a source is), checkout.ts
// (where it is read from), read.ts (how its records join the artifact set), rank.ts (local records first) and
// freshness.ts (whether a receipt still holds).
import { resolve } from "node:path";
import { canonicalJson, sha256 } from "../hash";
import type { DecisionSourceRecord } from "../schemas";
import type { DeliberationConfig } from "../types";
import { readSource, type SourceRead } from "./read";
import { distinctNames, isBadSource, parseSourceSpec, type BadSource, type SourceSpec } from "./spec";

export { readSource, tagSourceItems, withSourceFiles, type SourceRead } from "./read";
export { parseSourceSpec, redactText, type SourceSpec, type BadSource } from "./spec";
export { preferOwnRecords, withSourceRefs } from "./rank";
export { DEFAULT_REFRESH_MINUTES, openSource, sourcesCacheRoot } from "./checkout";

/** The most sources one deliberation consults. */
export const MAX_SOURCES = 20;

export interface DecisionSourcesRequest {
  /** Sources as written: folders or git URLs (`https://host/org/architecture.git#main:decisions`). */
  specs: string[];
  /** Where a relative folder is resolved from (default: the process's working folder). */
  cwd?: string;
  /** A git source is fetched at most this often (default 60); offline uses the last fetched copy. */
  refreshMinutes?: number;
  /** Where git sources' copies are kept (default: `<user cache>/sources`). */
  cacheRoot?: string;
  /** Wall-clock budget of each source's stage (ms). */
  budgetMs?: number;
}

/** Parses the sources (bad ones become experts that report why), drops the repository itself and repeats, and names them apart. */
export function parseSources(req: DecisionSourcesRequest | undefined, repo: string): (SourceSpec | BadSource)[] {
  if (!req?.specs?.length) return [];
  const self = resolve(repo);
  const parsed = req.specs.slice(0, MAX_SOURCES).map((s) => parseSourceSpec(s, req.cwd));
  // A source named twice (a folder in the settings that is also a shared workspace folder) is read once: twice, its
  // records would count double in the ranking.
  const seen = new Set<string>();
  const kept = parsed.filter((s) => {
    if (isBadSource(s)) return true;
    const id = s.kind === "folder" ? `folder:${resolve(s.folder)}` : `git:${s.display}`;
    if ((s.kind === "folder" && resolve(s.folder) === self) || seen.has(id)) return false;
    seen.add(id);
    return true;
  });
  const good = distinctNames(kept.filter((s): s is SourceSpec => !isBadSource(s)));
  let i = 0;
  return kept.map((s) => (isBadSource(s) ? s : good[i++]));
}

/** Starts reading every source (concurrently); each settles with its stage outcome, never rejects but on abort. */
export function readSources(req: DecisionSourcesRequest | undefined, repo: string, config: DeliberationConfig, signal: AbortSignal): Promise<SourceRead[]> {
  const opts = { ...(req?.refreshMinutes !== undefined ? { refreshMinutes: req.refreshMinutes } : {}), ...(req?.cacheRoot ? { cacheRoot: req.cacheRoot } : {}), ...(req?.budgetMs ? { budgetMs: req.budgetMs } : {}) };
  return Promise.all(parseSources(req, repo).map((s) => readSource(s, config, signal, opts)));
}

/** What a turn's sources held, as one key part: each source's stage, status, commit and records. */
export function sourcesKey(reads: SourceRead[]): string {
  return sha256(canonicalJson(reads.map((r) => ({ stage: r.stage, status: r.outcome.status, commit: r.ref?.commit ?? "", files: r.files.map((f) => `${f.path}\0${f.hash}`) }))));
}

/** What the sources contributed: the receipt's records and the texts read (for the cited lines' hashes). */
export function sourceReadings(reads: SourceRead[]): { records: DecisionSourceRecord[]; texts: Map<string, string> } {
  const records = reads.flatMap((r) => (r.record ? [r.record] : []));
  const texts = new Map<string, string>();
  for (const r of reads) for (const f of r.files) texts.set(f.path, f.text);
  return { records, texts };
}
