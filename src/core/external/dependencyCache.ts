// The installed dependency docs a long-lived host keeps between questions. Locating the installed packages and
// reading their docs does not depend on the question, and its sections array is what the BM25 index is cached
// under (internal/sectionIndex.ts): kept, the index is built once per repository instead of once per question
// (a vendored Go monorepo: ~6,000 sections, most of the question's time). A kept result is used only while a stat
// fingerprint (fingerprint.ts) of every path the locating and reading looked at — files read, folders listed,
// paths looked for and not found — still holds; any difference locates and reads again.
import { createHash } from "node:crypto";
import { fingerprintHolds, takeFingerprint, type Fingerprint } from "../fingerprint";

/** What locating and reading looked at: every path whose stats vouch for the result. */
export class LookedAt {
  readonly paths = new Set<string>();
  /** An error other than "not there" (permissions, too many open files): such a result is not kept. */
  unsure = false;

  add(path: string): void {
    this.paths.add(path);
  }

  failed(err: unknown): void {
    const code = (err as NodeJS.ErrnoException | undefined)?.code;
    if (code !== "ENOENT" && code !== "ENOTDIR") this.unsure = true;
  }
}

interface Kept<T> {
  fingerprint: Fingerprint;
  value: T;
}

/** Results kept per process: a few repositories (each holds its docs' text and, through it, their index). */
const KEPT = 4;
const kept = new Map<string, Kept<unknown>>();
let hits = 0;

/** The key of everything besides the files that the result depends on (repository, declared packages, options). */
export function keptKey(parts: unknown): string {
  return createHash("sha256").update(JSON.stringify(parts)).digest("hex");
}

/**
 * The kept result under `key` while its fingerprint holds, else `build`'s (kept unless it was unsure). Stats are
 * vouched for from the moment before `build` started, so a file changed while it ran is not trusted.
 */
export async function keptOrBuilt<T>(repo: string, key: string, build: (looked: LookedAt) => Promise<T>): Promise<T> {
  const found = kept.get(key);
  if (found && (await fingerprintHolds(repo, found.fingerprint))) {
    hits++;
    kept.delete(key);
    kept.set(key, found); // most recently used last
    return found.value as T;
  }
  kept.delete(key);
  const takenAt = Date.now();
  const looked = new LookedAt();
  const value = await build(looked);
  if (looked.unsure) return value;
  const fingerprint = await takeFingerprint(repo, { files: [], dirs: [], outside: [...looked.paths].sort() }, takenAt);
  kept.set(key, { fingerprint, value });
  while (kept.size > KEPT) kept.delete(kept.keys().next().value as string);
  return value;
}

/** How many results were reused (tests), and a way to forget them all. */
export function keptDependencyDocsHits(): number {
  return hits;
}

export function forgetKeptDependencyDocs(): void {
  kept.clear();
}
