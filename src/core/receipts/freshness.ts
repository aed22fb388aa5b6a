// Does a receipt's evidence still say what it said? Each internal citation's cited lines are hashed again and
// compared with the hash signed into the receipt (citedContent.ts), commit citations are looked up in git, and the
// repository's artifact set is compared with the one the receipt was made from. The states, in precedence order:
//   unverified        the signature does not verify: its hashes prove nothing, so it is never called fresh
//   evidence-changed  cited lines changed, or their file (or commit) vanished: each such citation is named
//   new-evidence      an artifact (ADR, doc, convention file) appeared since the receipt (added, or renamed)
//   unchecked         a receipt from before content hashes: nothing to compare, so it is neither fresh nor stale
//   fresh             everything cited still reads the same and no artifact came or went
// A cited block that moved but is byte-identical elsewhere in the same file counts as moved, not changed: the
// evidence says the same, only its line numbers are out of date (reported in `moved`). Edits to parts of an
// artifact nobody cited, and removing an artifact nobody cited, do not make a receipt stale.
import { promises as fs } from "node:fs";
import { join } from "node:path";
import { simpleGit } from "simple-git";
import { hardenedSimpleGitOptions } from "../internal/gitSafety";
import { resolveConfig } from "../config";
import { sha256 } from "../hash";
import { discoverArtifacts } from "../internal/discovery";
import { fingerprintHolds, readTurnCacheEntry } from "../turnCache";
import type { Citation, LineRange, Receipt } from "../schemas";
import type { DeliberationConfig } from "../types";
import { artifactPathKey, citationPlace, citedPart, isHashable, linesOf, readCitedFile } from "./citedContent";
export { citationPlace } from "./citedContent";
import { verifyReceiptSignature } from "./signing";
import { DEFAULT_RECEIPTS_DIR, type ReceiptEntry } from "./store";
import { SourceReader, type SourceFreshnessOptions } from "../sources/freshness";

export type FreshnessState = "fresh" | "evidence-changed" | "new-evidence" | "unchecked" | "unverified";

export const FRESHNESS_LABELS: Record<FreshnessState, string> = {
  fresh: "fresh",
  "evidence-changed": "stale: evidence changed",
  "new-evidence": "stale: new evidence",
  unchecked: "evidence unchecked",
  unverified: "not checked: signature invalid",
};

export type StaleReason = "changed" | "missing" | "outside" | "lines-gone" | "unreadable" | "commit-missing";

const REASON_TEXT: Record<StaleReason, string> = {
  changed: "cited lines changed",
  missing: "file deleted",
  outside: "file now resolves outside the repository",
  "lines-gone": "cited lines no longer exist",
  unreadable: "file unreadable",
  "commit-missing": "commit no longer in the repository",
};

export interface StaleCitation {
  id: string;
  /** path:start-end, the path of a whole-document citation, or "<sha> path" for a commit. */
  location: string;
  reason: StaleReason;
  title?: string;
}

export interface MovedCitation {
  id: string;
  location: string;
  /** Where the identical block is now. */
  now: LineRange;
}

export interface Freshness {
  state: FreshnessState;
  label: string;
  /** Citations whose evidence changed or vanished (state evidence-changed). */
  changed: StaleCitation[];
  /** Cited blocks found unchanged at other lines of the same file. */
  moved: MovedCitation[];
  /** An artifact (ADR, doc, convention file) appeared since the receipt. */
  new_evidence: boolean;
  /** The artifacts the receipt's artifact set did not have (new or renamed). */
  new_artifacts: string[];
  /** How many artifacts of the receipt's set are gone (uncited ones do not make it stale; cited ones are in `changed`). */
  removed_artifacts: number;
  /** Internal citations compared (content hash or commit lookup). */
  checked: number;
  /** External citations: not re-fetched; their fetched_at says how old they are. */
  external: number;
  /** One line for humans. */
  summary: string;
}


export function describeStale(s: StaleCitation): string {
  return `${s.id} ${s.location} (${REASON_TEXT[s.reason]})`;
}

/** The artifact set as it is now: discovery's content hash and every artifact's path. */
export interface ArtifactSnapshot {
  hash: string;
  paths: string[];
}

/** Shared across the receipts of one repository: file reads, commit lookups and the artifact scan happen once. */
export class FreshnessContext {
  private readonly reads = new Map<string, ReturnType<typeof readCitedFile>>();
  private readonly commits = new Map<string, Promise<boolean>>();
  private snapshot: Promise<ArtifactSnapshot> | undefined;
  private cachedHash: Promise<string | undefined> | undefined;

  constructor(
    readonly repo: string,
    private readonly opts: { config?: Partial<DeliberationConfig>; dirName?: string; signal?: AbortSignal; commitShas?: string[]; sources?: SourceFreshnessOptions } = {},
  ) {}

  private sourceReader: SourceReader | undefined;

  /** Citations of a decision source are re-read from the source (sources/freshness.ts). */
  get sources(): SourceReader {
    this.sourceReader ??= new SourceReader({ signal: this.opts.signal, ...this.opts.sources });
    return this.sourceReader;
  }

  read(path: string): ReturnType<typeof readCitedFile> {
    let p = this.reads.get(path);
    if (!p) {
      p = readCitedFile(this.repo, path);
      this.reads.set(path, p);
    }
    return p;
  }

  /**
   * Which of `shas` the repository still has. The first call also looks up every sha given up front (all the
   * receipts checked together: one git call); a sha not seen before costs one more call.
   */
  async existingCommits(shas: string[]): Promise<Set<string>> {
    const unknown = [...new Set([...(this.commits.size ? [] : (this.opts.commitShas ?? [])), ...shas])].filter((s) => !this.commits.has(s));
    if (unknown.length) {
      const found = lookUpCommits(this.repo, unknown, this.opts.signal);
      for (const s of unknown) this.commits.set(s, found.then((set) => set.has(s)));
    }
    const present = await Promise.all(shas.map(async (s) => [s, await this.commits.get(s)!] as const));
    return new Set(present.filter(([, ok]) => ok).map(([s]) => s));
  }

  /**
   * The current artifact set hash without a scan, when a turn-cache entry's stat fingerprint still holds (no
   * artifact changed since that turn); undefined when none does.
   */
  knownArtifactHash(): Promise<string | undefined> {
    this.cachedHash ??= artifactHashFromTurnCache(this.repo, this.opts.dirName ?? DEFAULT_RECEIPTS_DIR);
    return this.cachedHash;
  }

  artifacts(): Promise<ArtifactSnapshot> {
    this.snapshot ??= scanArtifacts(this.repo, resolveConfig(this.opts.config), this.opts.signal);
    return this.snapshot;
  }
}

async function scanArtifacts(repo: string, config: DeliberationConfig, signal?: AbortSignal): Promise<ArtifactSnapshot> {
  const set = await discoverArtifacts(repo, config, signal);
  return { hash: set.hash, paths: set.files.map((f) => f.path) };
}

async function artifactHashFromTurnCache(repo: string, dirName: string): Promise<string | undefined> {
  const dir = join(repo, dirName, "cache");
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  // The newest few entries are enough: one holding fingerprint proves the current hash.
  const stats = await Promise.all(
    names.filter((n) => n.endsWith(".json")).map(async (n) => ({ n, m: (await fs.stat(join(dir, n)).catch(() => undefined))?.mtimeMs ?? 0 })),
  );
  for (const { n } of stats.sort((a, b) => b.m - a.m).slice(0, 3)) {
    const entry = await readTurnCacheEntry(join(dir, n), { anyRevision: true });
    if (entry && (await fingerprintHolds(repo, entry.fingerprint))) return entry.artifact_set_hash;
  }
  return undefined;
}

/** Which of `shas` name a commit the repository still has: one `git log --no-walk --ignore-missing`. */
async function lookUpCommits(repo: string, shas: string[], signal?: AbortSignal): Promise<Set<string>> {
  const valid = shas.filter((s) => /^[0-9a-f]{7,64}$/.test(s));
  if (!valid.length) return new Set();
  try {
    const out = await simpleGit({ baseDir: repo, ...hardenedSimpleGitOptions(), abort: signal, timeout: { block: 15_000 } }).raw(["log", "--no-walk", "--ignore-missing", "--format=%H", ...valid, "--"]);
    const found = out.split("\n").filter(Boolean);
    return new Set(valid.filter((s) => found.some((f) => f.startsWith(s))));
  } catch {
    // Not a git repository (or git is missing): a commit cannot be confirmed, so none is.
    return new Set();
  }
}

type CitationCheck = { ok: true } | { ok: false; reason: StaleReason } | { moved: LineRange };

async function checkFileCitation(ctx: FreshnessContext, c: Citation, expected: string): Promise<CitationCheck> {
  const file = await ctx.read(c.path_or_url);
  if ("problem" in file) return { ok: false, reason: file.problem };
  const part = citedPart(file.text, c.line_range);
  if (part !== undefined && sha256(part) === expected) return { ok: true };
  // Not where it was: an identical block elsewhere in the file is the same evidence at new lines. The old text is
  // not stored, so the match is by hash: every window of the same length is hashed (first line compared first).
  if (c.line_range) {
    const length = c.line_range.end - c.line_range.start + 1;
    const moved = findMovedByHash(file.text, expected, length, c.line_range.start);
    if (moved) return { moved };
  }
  return { ok: false, reason: part === undefined ? "lines-gone" : "changed" };
}

function findMovedByHash(text: string, expected: string, length: number, near: number): LineRange | undefined {
  const lines = linesOf(text);
  let best: number | undefined;
  for (let start = 1; start + length - 1 <= lines.length; start++) {
    if (sha256(lines.slice(start - 1, start - 1 + length).join("\n")) !== expected) continue;
    if (best === undefined || Math.abs(start - near) < Math.abs(best - near)) best = start;
  }
  return best === undefined ? undefined : { start: best, end: best + length - 1 };
}

/** Compares every internal citation of a receipt with the repository as it is now. */
async function checkCitations(ctx: FreshnessContext, receipt: Receipt): Promise<{ changed: StaleCitation[]; moved: MovedCitation[]; checked: number }> {
  const changed: StaleCitation[] = [];
  const moved: MovedCitation[] = [];
  let checked = 0;
  const citations = receipt.payload.citations.filter((c) => c.kind === "internal" && !c.resolution_failed);
  const commitShas = citations.filter((c) => c.commit).map((c) => c.commit!);
  const commits = commitShas.length ? await ctx.existingCommits(commitShas) : new Set<string>();
  for (const c of citations) {
    const named = { id: c.id, location: citationPlace(c), ...(c.title ? { title: c.title } : {}) };
    if (c.decision_source) {
      if (!c.content_sha256) continue;
      checked++;
      const r = await ctx.sources.check(receipt, c);
      if (!r.ok) changed.push({ ...named, reason: r.reason });
      continue;
    }
    if (c.commit && !isHashable(c)) {
      checked++;
      if (!commits.has(c.commit)) changed.push({ ...named, reason: "commit-missing" });
      continue;
    }
    if (!c.content_sha256) continue;
    checked++;
    const result = await checkFileCitation(ctx, c, c.content_sha256);
    if ("moved" in result) moved.push({ id: c.id, location: named.location, now: result.moved });
    else if (!result.ok) changed.push({ ...named, reason: result.reason });
  }
  return { changed, moved, checked };
}

/** Which artifacts are new since the receipt (added, or renamed: a path it did not know), and how many it knew are gone. */
async function checkArtifacts(ctx: FreshnessContext, receipt: Receipt): Promise<{ newArtifacts: string[]; removed: number }> {
  const known = await ctx.knownArtifactHash();
  if (known !== undefined && known === receipt.artifact_set_hash) return { newArtifacts: [], removed: 0 };
  const now = await ctx.artifacts();
  if (now.hash === receipt.artifact_set_hash) return { newArtifacts: [], removed: 0 };
  const before = new Set(receipt.artifact_path_keys ?? []);
  // The ADRs this receipt was exported as record its own decision: they are not new evidence against it.
  for (const e of receipt.adr_exports ?? []) before.add(artifactPathKey(e.path));
  const current = new Set(now.paths.map(artifactPathKey));
  return { newArtifacts: now.paths.filter((p) => !before.has(artifactPathKey(p))).sort(), removed: [...before].filter((k) => !current.has(k)).length };
}

function summarise(f: Omit<Freshness, "summary" | "label">): string {
  switch (f.state) {
    case "unverified":
      return "not checked: the signature does not verify, so its content hashes prove nothing";
    case "unchecked":
      return "evidence unchecked: this receipt predates content hashes";
    case "evidence-changed":
      return `stale: evidence changed — ${f.changed.map(describeStale).join("; ")}${f.new_evidence ? "; the artifact set also changed" : ""}`;
    case "new-evidence":
      return `stale: new evidence — ${f.new_artifacts.length} artifact(s) appeared since this receipt: ${f.new_artifacts.slice(0, 5).join(", ")}${f.new_artifacts.length > 5 ? ", …" : ""}`;
    case "fresh":
      return `fresh: ${f.checked} cited item(s) unchanged${f.moved.length ? `, ${f.moved.length} moved` : ""}`;
  }
}

function result(parts: Omit<Freshness, "summary" | "label">): Freshness {
  return { ...parts, label: FRESHNESS_LABELS[parts.state], summary: summarise(parts) };
}

/**
 * The freshness of one receipt entry. A corrupt entry or an invalid signature is `unverified`; a receipt without
 * `artifact_path_keys` predates content hashes and is `unchecked`.
 */
export async function checkFreshness(ctx: FreshnessContext, entry: Extract<ReceiptEntry, { state: "ok" }>): Promise<Freshness> {
  const receipt = entry.receipt;
  const external = receipt.payload.citations.filter((c) => c.kind === "external").length;
  const empty = { changed: [], moved: [], new_evidence: false, new_artifacts: [], removed_artifacts: 0, checked: 0, external };
  if (!verifyReceiptSignature(entry.raw).ok) return result({ ...empty, state: "unverified" });
  if (!receipt.artifact_path_keys) return result({ ...empty, state: "unchecked" });
  const [cites, artifacts] = await Promise.all([checkCitations(ctx, receipt), checkArtifacts(ctx, receipt)]);
  const newEvidence = artifacts.newArtifacts.length > 0;
  const state: FreshnessState = cites.changed.length ? "evidence-changed" : newEvidence ? "new-evidence" : "fresh";
  return result({ state, changed: cites.changed, moved: cites.moved, new_evidence: newEvidence, new_artifacts: artifacts.newArtifacts, removed_artifacts: artifacts.removed, checked: cites.checked, external });
}

/** Freshness of many receipts of one repository, sharing reads, one commit lookup and at most one artifact scan. */
export async function checkFreshnessAll(
  repo: string,
  entries: ReceiptEntry[],
  opts: { config?: Partial<DeliberationConfig>; dirName?: string; signal?: AbortSignal; sources?: SourceFreshnessOptions } = {},
): Promise<Map<string, Freshness>> {
  const ok = entries.filter((e): e is Extract<ReceiptEntry, { state: "ok" }> => e.state === "ok");
  const commitShas = ok.flatMap((e) => e.receipt.payload.citations.filter((c) => c.kind === "internal" && c.commit).map((c) => c.commit!));
  const ctx = new FreshnessContext(repo, { ...opts, commitShas });
  const out = new Map<string, Freshness>();
  for (const e of ok) out.set(e.receipt_id, await checkFreshness(ctx, e));
  return out;
}
