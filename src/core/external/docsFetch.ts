// Web documentation: the networked half of the external stage. Candidate pages are the configured --docs-url
// pages plus, when a SearxNG instance is configured, its results for the plan keywords that fall on the
// allow-list. Each page goes through the guarded fetcher, is reduced to readable text and sections, ranked against
// the plan, and cited with its URL, fetched_at and (within the extracted text) a line range. Pages are cached in
// the user's cache directory (never in the working tree) with their fetched_at and content hash; a cache hit is
// served only when it is well-formed, sealed by this user's key (an HMAC: others may write that folder), not from
// the future, younger than the TTL, and its URL and final URL still pass the allow-list and address checks of this
// run. Every URL discovered is listed in `sources`, and hosts that search found but the allow-list refused are named
// in the reason, so the allow-list can grow deliberately.
import { join } from "node:path";
import { z } from "zod";
import { cacheFolderRefusal } from "../cacheDir";
import { cacheSealKey, sealTag, tagMatches } from "../cacheKey";
import { NotARegularFileError, readRegularFile, writeFileAtomic } from "../receipts/fsutil";
import { evidenceId, sha256 } from "../hash";
import { rankTextSections } from "../internal/sectionIndex";
import type { EvidenceItem } from "../schemas";
import type { Expert, ExpertContext, ExpertResult } from "../types";
import { extractText, type TextSection } from "./extract";
import {
  DEFAULT_MAX_BYTES,
  DEFAULT_PAGE_BUDGET,
  DEFAULT_TIMEOUT_MS,
  FetchError,
  GuardedFetcher,
  summariseFailures,
  type LookupFn,
} from "./fetch";
import { makeExcerpt, matchesAny, planTokens } from "./text";

export interface WebDocsOptions {
  /** Pages to consider besides search results (--docs-url). Their hosts are allowed for public addresses. */
  docsUrls: string[];
  /** A SearxNG instance (--searxng); explicitly configured, so it may live on a private address. */
  searxngUrl?: string;
  /** User additions to the allow-list (--allow-host HOST[:PORT]); explicit, private addresses permitted. */
  allowHosts: string[];
  /** Network page fetches per deliberation (cache hits are free). Default 8. */
  pageBudget?: number;
  /** Per-request timeout. Default 8000 ms. */
  timeoutMs?: number;
  /** Response size cap. Default 2 MB. */
  maxBytes?: number;
  /** Where fetched pages are cached (the user's cache directory, see defaultWebCacheDir). No cache when unset. */
  cacheDir?: string;
  /** Default true. False (--no-cache): cached pages are not read; fresh fetches still refresh the cache. */
  readCache?: boolean;
  /** A cached page younger than this is used without a request. Default 24 h; 0 disables reads. */
  cacheTtlMs?: number;
  now?: () => Date;
  /** DNS resolution (tests inject one). */
  lookup?: LookupFn;
  /** Default true: include the built-in primary-source domains in the allow-list. */
  includeDefaultHosts?: boolean;
  /** Wall-clock budget for the whole expert. Default 20 000 ms. */
  maxMs?: number;
  /** SearxNG results (allow-listed ones) to fetch at most. Default 6. */
  maxSearchResults?: number;
  /** Items returned. Default 10; at most 3 per page. */
  maxItems?: number;
}

export interface CachedPage {
  url: string;
  final_url: string;
  fetched_at: string;
  /** sha256 of the response body as received. */
  content_hash: string;
  content_type: string;
  bytes: number;
  title: string;
  text: string;
  sections: TextSection[];
}

interface PageOutcome {
  url: string;
  page?: CachedPage;
  fromCache?: boolean;
  error?: unknown;
}

export function createWebDocsExpert(options: WebDocsOptions): Expert {
  return {
    name: "web",
    kind: "external",
    offlineCapable: false,
    run: (ctx) => runWebDocs(ctx, options),
  };
}

/** True when a URL carries a user name or password (`http://user:pw@host/`). */
export function hasCredentials(raw: string): boolean {
  try {
    const u = new URL(raw.trim());
    return !!(u.username || u.password);
  } catch {
    return false;
  }
}

/**
 * A URL without its fragment, or undefined when it is not an http(s) URL or carries credentials (a user name or
 * password in a URL would be stored in receipts, evidence and caches, so such URLs are never used).
 */
export function canonicalUrl(raw: string): string | undefined {
  try {
    const u = new URL(raw.trim());
    if (u.protocol !== "http:" && u.protocol !== "https:") return undefined;
    if (u.username || u.password) return undefined;
    u.hash = "";
    return u.href;
  } catch {
    return undefined;
  }
}

export function searxSearchUrl(base: string, query: string): string {
  const u = new URL(base);
  if (!u.pathname.endsWith("/")) u.pathname += "/";
  const s = new URL("search", u);
  s.searchParams.set("q", query);
  s.searchParams.set("format", "json");
  return s.href;
}

async function runWebDocs(ctx: ExpertContext, opts: WebDocsOptions): Promise<ExpertResult> {
  // Defence in depth: the pipeline never runs a non-offline-capable expert when offline, and neither do we.
  if (ctx.config.offline) return { status: "empty", reason: "offline: no network requests made", items: [] };
  const docsUrls = [...new Set(opts.docsUrls.map(canonicalUrl).filter((u): u is string => !!u))];
  const badDocs = opts.docsUrls.filter((u) => !canonicalUrl(u));
  if (!docsUrls.length && !opts.searxngUrl) {
    return { status: "empty", reason: badDocs.length ? `no usable documentation URL (${badDocs.length} invalid)` : "no documentation URLs or SearxNG instance configured", items: [] };
  }
  const clock = wallClockSignal(ctx.signal, opts.maxMs ?? 20_000);
  try {
    return await gatherWebDocs(ctx, opts, docsUrls, clock);
  } finally {
    clock.dispose();
  }
}

interface WallClock {
  signal: AbortSignal;
  timedOut(): boolean;
  dispose(): void;
}

/** A signal that follows the caller's and also fires when the expert's wall-clock budget is used up. */
function wallClockSignal(outer: AbortSignal, maxMs: number): WallClock {
  const controller = new AbortController();
  const onAbort = () => controller.abort(outer.reason);
  outer.addEventListener("abort", onAbort, { once: true });
  if (outer.aborted) controller.abort(outer.reason);
  let timedOut = false;
  const wall = setTimeout(() => {
    timedOut = true;
    controller.abort(new Error("web docs time budget used up"));
  }, maxMs);
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    dispose: () => {
      clearTimeout(wall);
      outer.removeEventListener("abort", onAbort);
    },
  };
}

/** The pages to fetch and what was learnt while finding them. */
interface Candidates {
  urls: string[];
  /** Every URL seen (configured, found by search, or redirected to), for the result's `sources`. */
  discovered: Set<string>;
  notAllowedHosts: Set<string>;
  notes: string[];
}

function createFetcher(opts: WebDocsOptions, docsUrls: string[]): GuardedFetcher {
  return new GuardedFetcher({
    allowHosts: opts.allowHosts,
    explicitHosts: opts.searxngUrl ? [opts.searxngUrl] : [],
    publicHosts: docsUrls,
    includeDefaultHosts: opts.includeDefaultHosts,
    timeoutMs: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxBytes: opts.maxBytes ?? DEFAULT_MAX_BYTES,
    pageBudget: opts.pageBudget ?? DEFAULT_PAGE_BUDGET,
    lookup: opts.lookup,
  });
}

async function gatherWebDocs(ctx: ExpertContext, opts: WebDocsOptions, docsUrls: string[], clock: WallClock): Promise<ExpertResult> {
  const fetcher = createFetcher(opts, docsUrls);
  const found: Candidates = { urls: [...docsUrls], discovered: new Set<string>(docsUrls), notAllowedHosts: new Set<string>(), notes: [] };
  if (opts.searxngUrl) await addSearchResults(found, opts.searxngUrl, ctx, opts, fetcher, clock.signal);

  // Fetch (or read from cache) every candidate; the fetcher serialises requests per host.
  const now = opts.now ?? (() => new Date());
  const rejected: string[] = [];
  const outcomes = await Promise.all(found.urls.map((url) => loadPage(url, fetcher, opts, now, clock.signal, ctx, rejected)));
  if (rejected.length) found.notes.push(`${rejected.length} cached page${rejected.length === 1 ? "" : "s"} failed the cache's integrity check and ${rejected.length === 1 ? "was" : "were"} fetched again`);
  if (ctx.signal.aborted) throw ctx.signal.reason instanceof Error ? ctx.signal.reason : new Error("cancelled");
  return webDocsResult(found, outcomes, clock.timedOut(), ctx, opts);
}

/** SearxNG: one query with the plan keywords; only allow-listed results become candidates. */
async function addSearchResults(
  found: Candidates,
  searxngUrl: string,
  ctx: ExpertContext,
  opts: WebDocsOptions,
  fetcher: GuardedFetcher,
  signal: AbortSignal,
): Promise<void> {
  const keywords = (ctx.plan.keywords?.length ? ctx.plan.keywords : ctx.plan.terms).slice(0, 8);
  const query = keywords.join(" ").trim() || ctx.question.slice(0, 200);
  try {
    const res = await fetcher.fetch(searxSearchUrl(searxngUrl, query), { signal, accept: ["application/json"], budget: false });
    const results = parseSearxResults(res.body);
    let kept = 0;
    for (const r of results) {
      const url = canonicalUrl(r);
      if (!url) continue;
      found.discovered.add(url);
      if (!fetcher.allowList.allows(url)) {
        found.notAllowedHosts.add(new URL(url).host);
        continue;
      }
      if (found.urls.includes(url) || kept >= (opts.maxSearchResults ?? 6)) continue;
      found.urls.push(url);
      kept++;
    }
    ctx.log(`searxng: ${results.length} results, ${kept} allow-listed kept`);
    if (!results.length) found.notes.push("SearxNG returned no results");
  } catch (err) {
    if (ctx.signal.aborted) throw err;
    found.notes.push(`SearxNG query failed: ${describe(err)}`);
  }
}

function webDocsResult(found: Candidates, outcomes: PageOutcome[], timedOut: boolean, ctx: ExpertContext, opts: WebDocsOptions): ExpertResult {
  const { discovered, notes } = found;
  const pages = outcomes.filter((o): o is PageOutcome & { page: CachedPage } => !!o.page);
  const failures = outcomes.filter((o) => o.error !== undefined);
  for (const p of pages) discovered.add(p.page.final_url);
  const budgetSkipped = failures.filter((f) => f.error instanceof FetchError && f.error.kind === "budget").length;
  const truncated = budgetSkipped > 0 || timedOut;
  for (const f of failures) ctx.log(`fetch ${f.url}: ${describe(f.error)}`);

  const sources = [...discovered].sort();
  if (found.notAllowedHosts.size) {
    notes.push(`search results on hosts not on the allow-list: ${[...found.notAllowedHosts].sort().slice(0, 8).join(", ")} (add with --allow-host)`);
  }
  if (!found.urls.length) {
    return { status: "empty", reason: ["no candidate pages", ...notes].join("; "), items: [], sources };
  }
  if (!pages.length) {
    return { status: "empty", reason: [`every fetch failed: ${summariseFailures(failures.map((f) => f.error))}`, ...notes].join("; "), items: [], sources, ...(truncated ? { truncated } : {}) };
  }

  const items = rankPages(pages.map((p) => p.page), ctx, opts.maxItems ?? 10);
  if (failures.length) notes.unshift(`${failures.length} of ${outcomes.length} pages failed: ${summariseFailures(failures.map((f) => f.error))}`);
  if (!items.length) {
    return { status: "empty", reason: [`nothing matched in ${pages.length} fetched page${pages.length === 1 ? "" : "s"}`, ...notes].join("; "), items: [], sources, ...(truncated ? { truncated } : {}) };
  }
  return { status: "ok", items, sources, ...(notes.length ? { reason: notes.join("; ") } : {}), ...(truncated ? { truncated } : {}) };
}

function describe(err: unknown): string {
  if (err instanceof FetchError) return `${err.kind}: ${err.message}`;
  return err instanceof Error ? err.message.split("\n")[0] : String(err);
}

/** The result URLs of a SearxNG `format=json` response, in rank order. */
export function parseSearxResults(body: string): string[] {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new Error("SearxNG response is not JSON");
  }
  const results = (json as { results?: unknown })?.results;
  if (!Array.isArray(results)) return [];
  return results.map((r) => (r && typeof r === "object" ? (r as { url?: unknown }).url : undefined)).filter((u): u is string => typeof u === "string");
}

async function loadPage(
  url: string,
  fetcher: GuardedFetcher,
  opts: WebDocsOptions,
  now: () => Date,
  signal: AbortSignal,
  ctx: ExpertContext,
  rejected: string[] = [],
): Promise<PageOutcome> {
  const ttl = opts.cacheTtlMs ?? 24 * 60 * 60 * 1000;
  if (opts.cacheDir && ttl > 0 && opts.readCache !== false) {
    const read = await readCache(opts.cacheDir, url);
    if (read && "rejected" in read) {
      rejected.push(url);
      ctx.log(`cache entry for ${url} ignored: ${read.rejected}; fetching it again`);
    }
    const cached = read && "page" in read ? read.page : undefined;
    if (cached) {
      const age = now().getTime() - Date.parse(cached.fetched_at);
      if (age < 0) ctx.log(`cache entry for ${url} ignored: fetched_at ${cached.fetched_at} is in the future`);
      else if (age < ttl) {
        // The same gates a fetch passes, today: the allow-list of this run and the address rules after DNS.
        const refused = await recheckCachedPage(cached, fetcher, signal);
        if (!refused) {
          ctx.log(`cache hit ${url} (fetched ${cached.fetched_at})`);
          return { url, page: cached, fromCache: true };
        }
        ctx.log(`cache entry for ${url} not used: ${refused}`);
      }
    }
  }
  try {
    const res = await fetcher.fetch(url, { signal });
    // Never the raw URL: one with credentials would be stored in evidence, receipts and the cache.
    const finalUrl = canonicalUrl(res.finalUrl);
    if (!finalUrl) return { url, error: new FetchError("redirect", "the page ended at a URL that cannot be stored (credentials or not http/https)", url) };
    const extracted = extractText(res.body, res.contentType);
    const page: CachedPage = {
      url,
      final_url: finalUrl,
      fetched_at: opts.now ? now().toISOString() : res.fetchedAt,
      content_hash: sha256(res.body),
      content_type: res.contentType,
      bytes: res.bytes,
      title: extracted.title,
      text: extracted.text,
      sections: extracted.sections,
    };
    if (opts.cacheDir) await writeCache(opts.cacheDir, page).catch((err) => ctx.log(`cache write failed: ${describe(err)}`));
    return { url, page };
  } catch (err) {
    return { url, error: err };
  }
}

export function cacheFileFor(cacheDir: string, url: string): string {
  return join(cacheDir, `${sha256(url).slice(0, 32)}.json`);
}

const TextSectionSchema = z.object({
  heading: z.string(),
  level: z.number().int().min(0).max(6),
  start: z.number().int().min(1),
  end: z.number().int().min(1),
  body: z.string(),
});

export const CachedPageSchema = z.object({
  url: z.string(),
  final_url: z.string(),
  fetched_at: z.string().datetime({ offset: true }),
  content_hash: z.string().regex(/^[0-9a-f]{64}$/),
  content_type: z.string(),
  bytes: z.number().int().min(0),
  title: z.string(),
  text: z.string(),
  sections: z.array(TextSectionSchema),
});

/** A cache entry file past this is no entry of ours (a page is at most `maxBytes`, 2 MB, before extraction). */
const MAX_CACHE_ENTRY_BYTES = 32 * 1024 * 1024;

/** What readCache found: a page whose seal verified, an entry refused (and why), or nothing usable. */
export type CacheRead = { page: CachedPage } | { rejected: string } | undefined;

/**
 * An entry's seal: an HMAC under the per-user key (../cacheKey.ts) over every field in a fixed order. Others may be
 * able to write the cache folder (a restored CI cache), so an entry is served only when its seal verifies.
 */
function pageSeal(key: Buffer, page: CachedPage): Buffer {
  const sections = JSON.stringify(page.sections.map((s) => [s.heading, s.level, s.start, s.end, s.body]));
  return sealTag(key, ["web-cache/1", page.url, page.final_url, page.fetched_at, page.content_hash, page.content_type, String(page.bytes), page.title, page.text, sections]);
}

/** A well-formed, sealed cache entry for exactly this URL; `rejected` when its seal does not verify. */
export async function readCache(cacheDir: string, url: string, key: Buffer | undefined = cacheSealKey("web-cache")): Promise<CacheRead> {
  if (!key) return undefined;
  let json: unknown;
  try {
    // A regular file of bounded size, never through a symlink: a FIFO or /dev/zero planted there cannot hang or fill us.
    json = JSON.parse((await readRegularFile(cacheFileFor(cacheDir, url), { maxBytes: MAX_CACHE_ENTRY_BYTES })).toString("utf8"));
  } catch (err) {
    return err instanceof NotARegularFileError ? { rejected: err.message } : undefined;
  }
  const parsed = CachedPageSchema.safeParse(json);
  if (!parsed.success || parsed.data.url !== url) return undefined;
  // Both URLs must be usable URLs as a fetch would produce them (http/https, no credentials).
  if (canonicalUrl(parsed.data.url) === undefined || canonicalUrl(parsed.data.final_url) === undefined) return undefined;
  const mac = (json as { mac?: unknown }).mac;
  // An entry written before entries were sealed: fetched again, nothing to report.
  if (mac === undefined) return undefined;
  if (typeof mac !== "string" || !tagMatches(Buffer.from(mac, "hex"), pageSeal(key, parsed.data))) return { rejected: "its seal does not match its contents" };
  return { page: parsed.data };
}

/** Why a cached page may not be served under this run's allow-list and address rules, or undefined when it may. */
async function recheckCachedPage(page: CachedPage, fetcher: GuardedFetcher, signal: AbortSignal): Promise<string | undefined> {
  for (const u of new Set([page.url, page.final_url])) {
    try {
      await fetcher.check(new URL(u), signal);
    } catch (err) {
      return describe(err);
    }
  }
  return undefined;
}

async function writeCache(cacheDir: string, page: CachedPage, key: Buffer | undefined = cacheSealKey("web-cache")): Promise<void> {
  // No usable key: nothing is cached, as nothing unsealed is ever read back.
  if (!key) return;
  const refused = cacheFolderRefusal(cacheDir);
  if (refused) throw new Error(refused);
  await writeFileAtomic(cacheFileFor(cacheDir, page.url), JSON.stringify({ ...page, mac: pageSeal(key, page).toString("hex") }) + "\n");
}

function rankPages(pages: CachedPage[], ctx: ExpertContext, maxItems: number): EvidenceItem[] {
  const units = pages.flatMap((page) =>
    page.sections
      .filter((s) => s.body.trim() || s.heading)
      .map((s) => ({ heading: s.heading, title: page.title, body: s.body, page, section: s })),
  );
  const { terms, expansions } = planTokens(ctx.plan);
  const ranked = rankTextSections(units, ctx.plan.terms, ctx.plan.expansions)
    .filter((r) => matchesAny(r.matched, terms) > 0 || matchesAny(r.matched, expansions) >= 2);
  const top = ranked[0]?.score ?? 0;
  const perPage = new Map<CachedPage, number>();
  const tokens = new Set([...terms, ...expansions]);
  const items: EvidenceItem[] = [];
  for (const r of ranked) {
    if (items.length >= maxItems || r.score < top * 0.15) break;
    const n = perPage.get(r.section.page) ?? 0;
    if (n >= 3) continue;
    perPage.set(r.section.page, n + 1);
    const { page, section } = r.section;
    const wholePage = page.sections.length === 1;
    const line_range = { start: section.start, end: section.end };
    items.push({
      id: evidenceId({ kind: "external", path_or_url: page.final_url, line_range }),
      kind: "external",
      expert: "web",
      source_type: "web",
      path_or_url: page.final_url,
      line_range,
      fetched_at: page.fetched_at,
      precision_class: wholePage ? "document" : "section",
      title: [page.title, section.heading && section.heading !== page.title ? section.heading : ""].filter(Boolean).join(" — ") || page.final_url,
      excerpt: makeExcerpt(section.heading, section.body, tokens),
      score: Math.round(r.score * 1e4) / 1e4,
    });
  }
  return items;
}
