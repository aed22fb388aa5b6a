// Does a citation of a decision source still say what it said? The receipt names the source and the commit it was
// read at. A git source is re-read at that commit from its cached copy (a rewritten history or a tampered receipt
// shows as changed), and then at the copy's current commit, refreshed when due: a source that moved on and changed
// the cited lines makes the receipt stale. A folder source is read as it is now. Nothing from the source is trusted
// beyond its text: not its receipts, not its allowed signers.
import { sha256 } from "../hash";
import { citedPart, normaliseCitedText, readCitedFile } from "../receipts/citedContent";
import type { Citation, DecisionSourceRecord, Receipt } from "../schemas";
import { cachedCopyOf, openSource, readAtCommit, type SourceCheckout } from "./checkout";
import { isBadSource, parseSourceSpec } from "./spec";

export interface SourceFreshnessOptions {
  cacheRoot?: string;
  refreshMinutes?: number;
  offline?: boolean;
  signal?: AbortSignal;
}

export type SourceCheck = { ok: true } | { ok: false; reason: "changed" | "missing" | "lines-gone" | "unreadable" | "commit-missing" };

/** Shared by the receipts of one check: each source is opened (and refreshed) once. */
export class SourceReader {
  private readonly opened = new Map<string, Promise<SourceCheckout | undefined>>();

  constructor(private readonly opts: SourceFreshnessOptions = {}) {}

  async check(receipt: Receipt, c: Citation): Promise<SourceCheck> {
    const ref = c.decision_source;
    const record = receipt.decision_sources?.find((s) => s.name === ref?.name);
    if (!ref || !record || !c.content_sha256 || !c.path_or_url.startsWith(`${ref.name}:`)) return { ok: false, reason: "missing" };
    const rel = c.path_or_url.slice(ref.name.length + 1);
    const spec = parseSourceSpec(record.spec);
    if (isBadSource(spec)) return { ok: false, reason: "unreadable" };
    if (spec.kind === "folder") {
      const file = await readCitedFile(spec.folder, rel);
      if ("problem" in file) return { ok: false, reason: file.problem === "outside" ? "missing" : file.problem };
      return compare(file.text, c);
    }
    const commit = ref.commit ?? record.commit;
    if (!commit) return { ok: false, reason: "commit-missing" };
    const current = await this.open(record);
    const dir = cachedCopyOf(spec, this.opts.cacheRoot);
    const then = await readAtCommit(dir, commit, rel, this.opts.signal);
    if (then === undefined) return { ok: false, reason: "commit-missing" };
    const atCommit = compare(normaliseCitedText(then), c);
    if (!atCommit.ok || !current?.commit || current.commit === commit) return atCommit;
    const now = await readAtCommit(dir, current.commit, rel, this.opts.signal);
    return now === undefined ? { ok: false, reason: "missing" } : compare(normaliseCitedText(now), c);
  }

  private open(record: DecisionSourceRecord): Promise<SourceCheckout | undefined> {
    let p = this.opened.get(record.spec);
    if (!p) {
      const spec = parseSourceSpec(record.spec);
      p = isBadSource(spec) ? Promise.resolve(undefined) : openSource(spec, this.opts).catch(() => undefined);
      this.opened.set(record.spec, p);
    }
    return p;
  }
}

function compare(text: string, c: Citation): SourceCheck {
  const part = citedPart(text, c.line_range);
  if (part === undefined) return { ok: false, reason: "lines-gone" };
  return sha256(part) === c.content_sha256 ? { ok: true } : { ok: false, reason: "changed" };
}

/** Where a source's citation can be read: a folder's file, or a git source's cached copy at the cited commit. */
export type SourceCitationTarget = { kind: "file"; root: string; rel: string } | { kind: "git"; gitDir: string; commit: string; rel: string };

export function sourceCitationTarget(records: DecisionSourceRecord[] | undefined, c: Citation, cacheRoot?: string): SourceCitationTarget | undefined {
  const ref = c.decision_source;
  const record = records?.find((s) => s.name === ref?.name);
  if (!ref || !record || !c.path_or_url.startsWith(`${ref.name}:`)) return undefined;
  const rel = c.path_or_url.slice(ref.name.length + 1);
  const spec = parseSourceSpec(record.spec);
  if (isBadSource(spec)) return undefined;
  if (spec.kind === "folder") return { kind: "file", root: spec.folder, rel };
  const commit = ref.commit ?? record.commit;
  return commit ? { kind: "git", gitDir: cachedCopyOf(spec, cacheRoot), commit, rel } : undefined;
}
