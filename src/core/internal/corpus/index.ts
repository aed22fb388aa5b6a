// The corpus snapshots built ahead of time (`deliberate index`): discovery and the docs expert's prepared corpus
// with both of its search indexes, so the first question in a fresh process already finds them.
import { resolve } from "node:path";
import { resolveConfig } from "../../config";
import type { DeliberationConfig } from "../../types";
import { prepareDocsCorpus } from "../docsExpert";
import { discoverWithSnapshot } from "./discovery";
import { corpusDirFor, type CorpusCacheOptions } from "./store";

export { corpusCacheRoot, corpusDirFor, hostCorpusCache, type CorpusCacheOptions } from "./store";

export interface CorpusBuild {
  /** Artifacts discovered (documents) and citable sections indexed. */
  documents: number;
  sections: number;
  /** Whether discovery was served by a snapshot that still held. */
  discovery: "memory" | "disk" | "discovery";
  dir: string;
  ms: number;
}

export async function buildCorpusSnapshot(repo: string, cache: CorpusCacheOptions, opts: { config?: Partial<DeliberationConfig>; signal?: AbortSignal } = {}): Promise<CorpusBuild> {
  const started = performance.now();
  const config = resolveConfig(opts.config);
  const found = await discoverWithSnapshot(repo, config, { signal: opts.signal, cache });
  const prepared = await prepareDocsCorpus(found.set, { repo, cache, signal: opts.signal ?? new AbortController().signal });
  return {
    documents: prepared.documents,
    sections: prepared.units,
    discovery: found.from,
    dir: corpusDirFor(cache.dir, resolve(repo)),
    ms: Math.round(performance.now() - started),
  };
}
