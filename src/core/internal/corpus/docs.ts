// The docs expert's prepared corpus on disk: the citable units, the whole-document units, the supersession graph,
// the term statistics and both search indexes of one artifact set, stored under that set's content hash. A fresh
// process with the same documents loads it instead of parsing every ADR and indexing every section again.
//
// Units and documents point at their artifact by index, so the stored copy never duplicates the texts the
// discovery snapshot already holds, and a loaded corpus shares the live set's file objects.
import { join } from "node:path";
import { sha256 } from "../../hash";
import type { ArtifactFile } from "../../types";
import { packCorpusStats, unpackCorpusStats, type CorpusStats } from "../docStats";
import { exportSectionIndexes, restoreSectionIndexes, type SectionIndexSnapshot, type TextSection } from "../sectionIndex";
import { CORPUS_FORMAT, corpusDirFor, pruneSnapshots, readSnapshot, writeSnapshot, type CorpusCacheOptions } from "./store";

/** What the docs expert prepares; only the parts this module touches are spelt out. */
export interface PreparedShape<U extends TextSection & { file: ArtifactFile }, D extends TextSection & { file: ArtifactFile }, G> {
  units: U[];
  docs: D[];
  graph: G;
  stats: CorpusStats;
}

interface Stored {
  format: number;
  key: string;
  paths: string[];
  units: unknown[];
  docs: unknown[];
  graph: unknown;
  stats: unknown;
  unitIndexes: SectionIndexSnapshot[];
  docIndexes: SectionIndexSnapshot[];
}

/** Docs corpora kept per work tree on disk: the current one and the one before (a branch switch and back). */
const KEEP = 2;

/** The content key plus the code that prepared it: other code may parse the same files differently. */
function fileFor(cache: CorpusCacheOptions, root: string, key: string): string {
  return join(corpusDirFor(cache.dir, root), `docs-${sha256(`${key}|${cache.codeId ?? ""}|${CORPUS_FORMAT}`).slice(0, 24)}.bin`);
}

/** Stores a prepared corpus (with whatever indexes have been built over it). */
export async function saveDocsCorpus<U extends TextSection & { file: ArtifactFile }, D extends TextSection & { file: ArtifactFile }, G>(
  cache: CorpusCacheOptions,
  root: string,
  key: string,
  files: readonly ArtifactFile[],
  p: PreparedShape<U, D, G>,
): Promise<void> {
  const at = new Map(files.map((f, i) => [f, i]));
  const stored: Stored = {
    format: CORPUS_FORMAT,
    key,
    paths: files.map((f) => f.path),
    units: p.units.map((u) => ({ ...u, file: at.get(u.file) })),
    // A document's body is its file's text (cut), rebuilt on load.
    docs: p.docs.map((d) => ({ ...d, file: at.get(d.file), body: undefined, bodyLength: d.body.length })),
    graph: p.graph,
    stats: packCorpusStats(p.stats),
    unitIndexes: exportSectionIndexes(p.units),
    docIndexes: exportSectionIndexes(p.docs),
  };
  if ([...stored.units, ...stored.docs].some((x) => (x as { file?: number }).file === undefined)) return; // a unit outside the set: do not store
  const file = fileFor(cache, root, key);
  try {
    await writeSnapshot(file, stored);
    pruneSnapshots(join(file, ".."), "docs-", KEEP);
  } catch (err) {
    cache.notice?.(`could not save the docs index: ${err instanceof Error ? err.message.split("\n")[0] : String(err)}`);
  }
}

/**
 * The stored corpus for this content key, bound to the live set's files, with its indexes restored; undefined
 * when there is none or it does not fit (then the caller prepares afresh, after a notice for a damaged file).
 */
export async function loadDocsCorpus<U extends TextSection & { file: ArtifactFile }, D extends TextSection & { file: ArtifactFile }, G>(
  cache: CorpusCacheOptions,
  root: string,
  key: string,
  files: readonly ArtifactFile[],
): Promise<PreparedShape<U, D, G> | undefined> {
  const read = await readSnapshot(fileFor(cache, root, key));
  if ("missing" in read) return undefined;
  if ("corrupt" in read) {
    cache.notice?.(`docs index ${read.corrupt}; rebuilding it`);
    return undefined;
  }
  const s = read.value as Partial<Stored>;
  const fits =
    s && s.format === CORPUS_FORMAT && s.key === key && Array.isArray(s.paths) && s.paths.length === files.length && s.paths.every((p, i) => p === files[i].path);
  const stats = fits ? unpackCorpusStats(s.stats) : undefined;
  if (!fits || !stats || !Array.isArray(s.units) || !Array.isArray(s.docs) || !Array.isArray(s.unitIndexes) || !Array.isArray(s.docIndexes)) {
    cache.notice?.("docs index has an unexpected shape; rebuilding it");
    return undefined;
  }
  const fileAt = (i: unknown) => (typeof i === "number" ? files[i] : undefined);
  const units = s.units.map((u) => ({ ...(u as U), file: fileAt((u as { file: unknown }).file)! }));
  const docs = s.docs.map((d) => {
    const { bodyLength, ...rest } = d as D & { bodyLength: number };
    const file = fileAt(rest.file)!;
    return { ...rest, file, body: file?.text.slice(0, bodyLength) } as unknown as D;
  });
  if (units.some((u) => !u.file) || docs.some((d) => !d.file)) return undefined;
  restoreSectionIndexes(units, s.unitIndexes);
  restoreSectionIndexes(docs, s.docIndexes);
  return { units, docs, graph: s.graph as G, stats };
}
