// A decision source as an expert: its copy is opened (fetched when due), discovery reads its records, and the docs
// expert ranks them exactly as it ranks the repository's own (same parser, decision model and supersession), over
// the source's own tree. Its evidence then carries the source's name in the path (`architecture:decisions/0007-x.md`)
// and the commit it was read at, and joins fusion beside the repository's. Everything runs under one budget: a
// source that hangs, is unreachable or holds thousands of pages ends its stage with one line; the deliberation still
// answers from what it has.
import { evidenceId } from "../hash";
import { discoverArtifacts } from "../internal/discovery";
import { runDocsExpert } from "../internal/docsExpert";
import type { AdrMeta, DecisionSourceRecord, DecisionSourceRef, EvidenceItem } from "../schemas";
import type { ArtifactSet, Expert, ExpertContext, ExpertResult } from "../types";
import { openSource, type CheckoutOptions, type SourceCheckout } from "./checkout";
import { isBadSource, type BadSource, type SourceSpec } from "./spec";

/** Wall-clock budget for one source's whole stage: fetch, discovery and ranking. */
export const DEFAULT_SOURCE_BUDGET_MS = 8000;

/** Only records and architecture docs speak for a source; its agent instructions are about building that repository. */
const SOURCE_TYPES = new Set(["adr", "architecture"]);

export interface SourceExpertOptions extends Omit<CheckoutOptions, "signal"> {
  budgetMs?: number;
}

/** What one source contributed to a turn: its receipt record and the texts of its artifacts (for content hashes). */
export interface SourceReading {
  record?: DecisionSourceRecord;
  /** Prefixed path (`architecture:decisions/x.md`) → text as discovery read it. */
  texts: Map<string, string>;
}

export interface SourceExpert extends Expert {
  readonly source: SourceSpec | BadSource;
  /** Filled in by `run`. */
  readonly reading: SourceReading;
}

export function sourceStageName(name: string): string {
  return `source:${name}`;
}

export function createSourceExpert(source: SourceSpec | BadSource, opts: SourceExpertOptions = {}): SourceExpert {
  const reading: SourceReading = { texts: new Map() };
  const name = isBadSource(source) ? `source:${stageSafe(source.display)}` : sourceStageName(source.name);
  return {
    name,
    kind: "internal",
    offlineCapable: true,
    source,
    reading,
    run: (ctx) => runSource(source, ctx, opts, reading),
  };
}

function stageSafe(display: string): string {
  return display.replace(/^[a-z]+:\/\//i, "").replace(/[^A-Za-z0-9._/-]+/g, "-").slice(0, 60) || "invalid";
}

async function runSource(source: SourceSpec | BadSource, ctx: ExpertContext, opts: SourceExpertOptions, reading: SourceReading): Promise<ExpertResult> {
  if (isBadSource(source)) return { status: "failed", reason: `${source.display}: ${source.reason}`, items: [] };
  const budgetMs = opts.budgetMs ?? DEFAULT_SOURCE_BUDGET_MS;
  const budget = new AbortController();
  const onAbort = () => budget.abort(ctx.signal.reason);
  ctx.signal.addEventListener("abort", onAbort, { once: true });
  let phase = "opening";
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<"expired">((res) => {
    timer = setTimeout(() => {
      budget.abort(new Error(`budget of ${budgetMs} ms`));
      res("expired");
    }, budgetMs);
    timer.unref?.();
  });
  const work = (async (): Promise<ExpertResult> => {
    const checkout = await openSource(source, { ...opts, offline: opts.offline ?? ctx.config.offline, signal: budget.signal });
    reading.record = recordOf(source, checkout);
    phase = "reading";
    const set = await discoverArtifacts(checkout.root, ctx.config, budget.signal);
    const records = ownRecords(set, checkout.prefix);
    if (!records.files.length) return { status: "empty", reason: `${source.display}: ${noRecordsReason(set)}${noteOf(checkout)}`, items: [] };
    phase = "ranking";
    const ref: DecisionSourceRef = { name: source.name, ...(checkout.commit ? { commit: checkout.commit } : {}) };
    const result = await runDocsExpert({ ...ctx, artifacts: records, signal: budget.signal });
    for (const f of records.files) reading.texts.set(`${source.name}:${f.path}`, f.text);
    const items = result.items.map((i) => labelled(i, ref, records));
    const where = `${source.display}${checkout.commit ? ` at ${checkout.commit.slice(0, 10)}` : ""}`;
    return { ...result, items, reason: [where + noteOf(checkout), result.reason].filter(Boolean).join("; ") };
  })();
  work.catch(() => undefined);
  try {
    const outcome = await Promise.race([work, expired]);
    if (outcome === "expired") {
      if (ctx.signal.aborted) throw ctx.signal.reason;
      return { status: "failed", reason: `${source.display}: cut short at the ${budgetMs} ms budget while ${phase} the source`, items: [], truncated: true };
    }
    return outcome;
  } catch (err) {
    if (ctx.signal.aborted) throw err;
    return { status: "failed", reason: `${source.display}: ${oneLine(err)}`, items: [] };
  } finally {
    clearTimeout(timer);
    ctx.signal.removeEventListener("abort", onAbort);
  }
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

function noteOf(checkout: SourceCheckout): string {
  if (checkout.note) return ` (${checkout.note})`;
  return "";
}

/** The source's records and architecture docs under its path. */
function ownRecords(set: ArtifactSet, prefix: string): ArtifactSet {
  const files = set.files.filter((f) => SOURCE_TYPES.has(f.source_type) && f.path.startsWith(prefix));
  return { ...set, files };
}

function noRecordsReason(set: ArtifactSet): string {
  const note = set.notes?.find((n) => /markdown files/.test(n));
  return `no decision records found${note ? ` (${note})` : set.files.length ? ` (${set.files.length} other docs)` : ""}`;
}

/** The item as the repository sees it: the path from the source's top, prefixed with the source's name. */
function labelled(item: EvidenceItem, ref: DecisionSourceRef, set: ArtifactSet): EvidenceItem {
  const known = new Set(set.files.map((f) => f.path));
  const name = (p: string) => `${ref.name}:${p}`;
  const path_or_url = name(item.path_or_url);
  const adr: AdrMeta | undefined = item.adr
    ? {
        ...item.adr,
        path: name(item.adr.path),
        supersedes: item.adr.supersedes.map((p) => (known.has(p) ? name(p) : p)),
        superseded_by: item.adr.superseded_by.map((p) => (known.has(p) ? name(p) : p)),
      }
    : undefined;
  return {
    ...item,
    id: evidenceId({ kind: "internal", path_or_url, line_range: item.line_range }),
    path_or_url,
    ...(adr ? { adr } : {}),
    decision_source: ref,
  };
}

function oneLine(err: unknown): string {
  const msg = err instanceof Error ? err.message : String(err);
  return (msg.split("\n").find((l) => l.trim())?.trim() ?? "unknown error").slice(0, 300);
}


