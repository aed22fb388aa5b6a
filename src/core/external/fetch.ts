// A guarded HTTP client for the external stage. Every hop (the first request and each redirect) is checked
// against the allow-list, its host name is resolved here, every resolved address is checked by the address guard,
// and the socket is then pinned to the checked address (a `lookup` override: no second DNS answer can slip in),
// while the Host header, SNI and certificate check keep the real host name.
//
// Bounds: a per-request timeout, a response size cap (2 MB by default, enforced while streaming), a page budget per
// fetcher (one fetcher per deliberation), one request at a time per host, and everything aborts with the signal.
import type * as http from "node:http";
import { isIP } from "node:net";
import * as zlib from "node:zlib";
import type { Readable } from "node:stream";
import { AllowList, classifyAddress, defaultPort, stripBrackets, type AllowRule } from "./guard";

export type FetchFailureKind =
  | "scheme"
  | "not-allowed"
  | "private-address"
  | "dns"
  | "timeout"
  | "too-large"
  | "content-type"
  | "http-status"
  | "redirect"
  | "network"
  | "budget"
  | "aborted";

/** A classified fetch failure. `kind` is stable and machine-readable; the message is one line for humans. */
export class FetchError extends Error {
  constructor(
    readonly kind: FetchFailureKind,
    message: string,
    readonly url: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = "FetchError";
  }
}

export interface ResolvedAddress {
  address: string;
  family: number;
}
/** DNS resolution, injectable for tests. Must return every address the name resolves to. */
export type LookupFn = (hostname: string) => Promise<ResolvedAddress[]>;

/**
 * Node's HTTP, HTTPS and DNS modules, loaded on the first request: an offline question never fetches, and loading
 * them costs every fresh CLI process ~15–20 ms of CPU.
 */
function net(): { http: typeof import("node:http"); https: typeof import("node:https"); dns: typeof import("node:dns/promises") } {
  /* eslint-disable @typescript-eslint/no-require-imports */
  netModules ??= { http: require("node:http"), https: require("node:https"), dns: require("node:dns/promises") };
  /* eslint-enable @typescript-eslint/no-require-imports */
  return netModules;
}
let netModules: ReturnType<typeof net> | undefined;

export const defaultLookup: LookupFn = async (hostname) => {
  const all = await net().dns.lookup(hostname, { all: true, verbatim: true });
  return all.map((a) => ({ address: a.address, family: a.family }));
};

export const TEXT_CONTENT_TYPES = ["text/html", "text/plain", "text/markdown", "application/xhtml+xml"];
export const DEFAULT_TIMEOUT_MS = 8000;
export const DEFAULT_MAX_BYTES = 2 * 1024 * 1024;
export const DEFAULT_MAX_REDIRECTS = 5;
export const DEFAULT_PAGE_BUDGET = 8;
const USER_AGENT = "deliberative-search/0.1 (+documentation fetch; respects allow-list)";

export interface GuardedFetcherOptions {
  /** User additions to the allow-list (`host[:port]`); these are explicit (private addresses permitted). */
  allowHosts?: string[];
  /** Hosts configured by the run itself (the SearxNG instance); explicit too. */
  explicitHosts?: string[];
  /** Hosts allowed for public addresses only (the hosts of --docs-url pages). */
  publicHosts?: string[];
  /** Default true: the built-in primary-source domains. */
  includeDefaultHosts?: boolean;
  timeoutMs?: number;
  maxBytes?: number;
  maxRedirects?: number;
  /** How many page fetches this fetcher may make; requests with `budget: false` do not count. */
  pageBudget?: number;
  lookup?: LookupFn;
  userAgent?: string;
}

export interface FetchOptions {
  signal?: AbortSignal;
  /** Accepted media types (lower case, no parameters). Default: TEXT_CONTENT_TYPES. */
  accept?: string[];
  /** Resolve as soon as a final (non-redirect) 2xx status arrives; no body, no content-type check. */
  probe?: boolean;
  /** Default true: counts against the page budget. */
  budget?: boolean;
  maxBytes?: number;
  timeoutMs?: number;
}

export interface FetchedResponse {
  /** The URL asked for. */
  url: string;
  /** The URL after redirects. */
  finalUrl: string;
  status: number;
  /** Media type without parameters, lower case ("" for a probe). */
  contentType: string;
  body: string;
  bytes: number;
  /** When the final response arrived, ISO 8601. */
  fetchedAt: string;
  /** Every URL hopped through, in order, before finalUrl. */
  redirects: string[];
}

interface HopResult {
  status: number;
  location?: string;
  contentType: string;
  body: string;
  bytes: number;
}

export class GuardedFetcher {
  readonly allowList: AllowList;
  readonly timeoutMs: number;
  readonly maxBytes: number;
  readonly maxRedirects: number;
  readonly pageBudget: number;
  private readonly lookup: LookupFn;
  private readonly userAgent: string;
  private pagesUsed = 0;
  private readonly hostTails = new Map<string, Promise<void>>();

  constructor(opts: GuardedFetcherOptions = {}) {
    this.allowList = AllowList.create({
      allowHosts: opts.allowHosts,
      explicitHosts: opts.explicitHosts,
      publicHosts: opts.publicHosts,
      includeDefaults: opts.includeDefaultHosts,
    });
    this.timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
    this.maxRedirects = opts.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
    this.pageBudget = opts.pageBudget ?? DEFAULT_PAGE_BUDGET;
    this.lookup = opts.lookup ?? defaultLookup;
    this.userAgent = opts.userAgent ?? USER_AGENT;
  }

  /** Page fetches made so far (budgeted ones). */
  get pagesFetched(): number {
    return this.pagesUsed;
  }

  get budgetLeft(): number {
    return Math.max(0, this.pageBudget - this.pagesUsed);
  }

  async fetch(rawUrl: string, opts: FetchOptions = {}): Promise<FetchedResponse> {
    const signal = opts.signal;
    if (signal?.aborted) throw new FetchError("aborted", "cancelled", rawUrl);
    let url: URL;
    try {
      url = new URL(rawUrl);
    } catch {
      throw new FetchError("scheme", `not a URL: ${rawUrl.slice(0, 200)}`, rawUrl);
    }
    if (opts.budget !== false) {
      if (this.pagesUsed >= this.pageBudget) throw new FetchError("budget", `page budget of ${this.pageBudget} used up`, rawUrl);
      this.pagesUsed++;
    }
    const redirects: string[] = [];
    for (let hop = 0; ; hop++) {
      const result = await this.hop(url, opts);
      if (result.location !== undefined) {
        if (hop >= this.maxRedirects) {
          throw new FetchError("redirect", `more than ${this.maxRedirects} redirects`, rawUrl, result.status);
        }
        let next: URL;
        try {
          next = new URL(result.location, url);
        } catch {
          const shown = result.location.slice(0, 200).replace(/\/\/[^/?#]*@/, "//…@");
          throw new FetchError("redirect", `redirect to an invalid location: ${shown}`, url.href, result.status);
        }
        // Not followed: the URL (with its password) would be stored as the page's URL in evidence, receipts and the
        // cache. The message names the host only.
        if (next.username || next.password) {
          throw new FetchError("redirect", `redirect to a URL with credentials (user name or password) on ${next.host} refused`, url.href, result.status);
        }
        redirects.push(url.href);
        url = next;
        continue;
      }
      return {
        url: rawUrl,
        finalUrl: url.href,
        status: result.status,
        contentType: result.contentType,
        body: result.body,
        bytes: result.bytes,
        fetchedAt: new Date().toISOString(),
        redirects,
      };
    }
  }

  /** The allow-list and address checks for one hop; returns the addresses to connect to. */
  async check(url: URL, signal?: AbortSignal): Promise<{ rule: AllowRule; addresses: ResolvedAddress[] }> {
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      throw new FetchError("scheme", `scheme ${url.protocol.replace(/:$/, "")} is not allowed (http and https only)`, url.href);
    }
    const rule = this.allowList.match(url);
    if (!rule) throw new FetchError("not-allowed", `${url.host} is not on the allow-list (add it with --allow-host ${url.host})`, url.href);
    const host = stripBrackets(url.hostname);
    let addresses: ResolvedAddress[];
    if (isIP(host)) {
      addresses = [{ address: host, family: isIP(host) }];
    } else {
      try {
        addresses = await raceAbort(this.lookup(host), signal, url.href);
      } catch (err) {
        if (err instanceof FetchError) throw err;
        const code = (err as NodeJS.ErrnoException)?.code;
        throw new FetchError("dns", `cannot resolve ${host}${code ? ` (${code})` : ""}`, url.href);
      }
      if (!addresses.length) throw new FetchError("dns", `${host} resolved to no address`, url.href);
    }
    if (!rule.explicit) {
      for (const a of addresses) {
        const verdict = classifyAddress(a.address);
        if (verdict.blocked) {
          throw new FetchError(
            "private-address",
            `${host} resolves to ${a.address} (${verdict.range}); refused unless the host is configured explicitly`,
            url.href,
          );
        }
      }
    }
    return { rule, addresses };
  }

  private async hop(url: URL, opts: FetchOptions): Promise<HopResult> {
    const signal = opts.signal;
    const { addresses } = await this.check(url, signal);
    const key = `${url.protocol}//${url.host}`;
    return this.withHostSlot(key, signal, url.href, () => this.request(url, addresses[0], opts));
  }

  /** One request at a time per host: each caller waits for the previous one's slot (abortable while waiting). */
  private async withHostSlot<T>(key: string, signal: AbortSignal | undefined, href: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.hostTails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((r) => (release = r));
    const tail = previous.then(() => mine);
    this.hostTails.set(key, tail);
    try {
      await raceAbort(previous, signal, href);
      return await fn();
    } finally {
      release();
      if (this.hostTails.get(key) === tail) this.hostTails.delete(key);
    }
  }

  private request(url: URL, pinned: ResolvedAddress, opts: FetchOptions): Promise<HopResult> {
    const limits: HopLimits = {
      maxBytes: opts.maxBytes ?? this.maxBytes,
      timeoutMs: opts.timeoutMs ?? this.timeoutMs,
      accept: (opts.accept ?? TEXT_CONTENT_TYPES).map((t) => t.toLowerCase()),
      probe: !!opts.probe,
    };
    const headers = {
      host: url.host,
      "user-agent": this.userAgent,
      accept: limits.probe ? "*/*" : [...limits.accept, "*/*;q=0.1"].join(", "),
      "accept-encoding": "gzip, deflate, br",
    };
    return new Promise<HopResult>((resolve, reject) => {
      const hop = new HopSettlement(url.href, limits.timeoutMs, opts.signal, resolve, reject);
      if (hop.settled) return;
      try {
        hop.req = openPinnedRequest(url, pinned, headers);
      } catch (err) {
        return hop.fail(new FetchError("network", `cannot start request: ${errMessage(err)}`, url.href));
      }
      hop.req.on("error", (err) => hop.fail(classifyNetworkError(err, url.href)));
      hop.req.on("response", (res) => onResponse(res, hop, limits));
      hop.req.end();
    });
  }
}

interface HopLimits {
  maxBytes: number;
  timeoutMs: number;
  /** Accepted media types, lower case. */
  accept: string[];
  probe: boolean;
}

/**
 * One hop's promise, settled once: the first of success, failure, timeout or abort wins and later ones are
 * ignored. A failure also tears down the socket and the body stream, so nothing keeps reading after it.
 */
class HopSettlement {
  settled = false;
  req?: http.ClientRequest;
  stream?: Readable;
  readonly href: string;
  private readonly signal?: AbortSignal;
  private readonly timer: ReturnType<typeof setTimeout>;
  private readonly resolve: (r: HopResult) => void;
  private readonly reject: (err: FetchError) => void;
  private readonly onAbort = () => this.fail(new FetchError("aborted", "cancelled", this.href));

  constructor(href: string, timeoutMs: number, signal: AbortSignal | undefined, resolve: (r: HopResult) => void, reject: (err: FetchError) => void) {
    this.href = href;
    this.signal = signal;
    this.resolve = resolve;
    this.reject = reject;
    this.timer = setTimeout(() => this.fail(new FetchError("timeout", `no complete response within ${timeoutMs} ms`, href)), timeoutMs);
    if (signal?.aborted) this.onAbort();
    else signal?.addEventListener("abort", this.onAbort, { once: true });
  }

  fail(err: FetchError): void {
    if (this.settled) return;
    this.settled = true;
    this.cleanup();
    this.stream?.destroy();
    this.req?.destroy();
    this.reject(err);
  }

  succeed(r: HopResult): void {
    if (this.settled) return;
    this.settled = true;
    this.cleanup();
    this.resolve(r);
  }

  private cleanup(): void {
    clearTimeout(this.timer);
    this.signal?.removeEventListener("abort", this.onAbort);
  }
}

/** A GET that connects to the checked address only: the lookup override hands back the address the guard approved. */
function openPinnedRequest(url: URL, pinned: ResolvedAddress, headers: http.OutgoingHttpHeaders): http.ClientRequest {
  const transport = url.protocol === "https:" ? net().https : net().http;
  const pinnedLookup = (
    _hostname: string,
    options: { all?: boolean } | number | undefined,
    callback: (...args: unknown[]) => void,
  ) => {
    if (typeof options === "object" && options?.all) callback(null, [{ address: pinned.address, family: pinned.family }]);
    else callback(null, pinned.address, pinned.family);
  };
  return transport.request({
    protocol: url.protocol,
    hostname: stripBrackets(url.hostname),
    port: url.port ? Number(url.port) : defaultPort(url.protocol),
    path: `${url.pathname}${url.search}`,
    method: "GET",
    agent: false,
    lookup: pinnedLookup as unknown as http.RequestOptions["lookup"],
    family: pinned.family,
    headers,
  });
}

/** A redirect, a probe's answer, or a page: status, media type, declared size and encoding are checked before reading. */
function onResponse(res: http.IncomingMessage, hop: HopSettlement, limits: HopLimits): void {
  const href = hop.href;
  const status = res.statusCode ?? 0;
  const location = res.headers.location;
  if (status >= 300 && status < 400 && status !== 304 && location) {
    res.resume();
    hop.req?.destroy();
    return hop.succeed({ status, location, contentType: "", body: "", bytes: 0 });
  }
  if (status < 200 || status >= 300) {
    res.resume();
    return hop.fail(new FetchError("http-status", `HTTP ${status}`, href, status));
  }
  if (limits.probe) {
    hop.req?.destroy();
    return hop.succeed({ status, contentType: "", body: "", bytes: 0 });
  }
  const contentType = String(res.headers["content-type"] ?? "");
  const mediaType = contentType.split(";")[0].trim().toLowerCase();
  if (!mediaType || !limits.accept.includes(mediaType)) {
    return hop.fail(new FetchError("content-type", `content type ${mediaType || "(none)"} is not accepted`, href, status));
  }
  const declared = Number(res.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limits.maxBytes && !res.headers["content-encoding"]) {
    return hop.fail(new FetchError("too-large", `response is ${declared} bytes; the cap is ${limits.maxBytes}`, href, status));
  }
  const encoding = String(res.headers["content-encoding"] ?? "identity").toLowerCase().trim();
  const body = decompressed(res, encoding);
  if (!body) return hop.fail(new FetchError("content-type", `content encoding ${encoding} is not supported`, href, status));
  readBody(res, body, hop, limits.maxBytes, { status, mediaType, contentType });
}

/** The body decoded per its content-encoding; undefined for an encoding we do not decode. */
function decompressed(res: http.IncomingMessage, encoding: string): Readable | undefined {
  if (encoding === "gzip" || encoding === "x-gzip") return res.pipe(zlib.createGunzip());
  if (encoding === "deflate") return res.pipe(zlib.createInflate());
  if (encoding === "br") return res.pipe(zlib.createBrotliDecompress());
  if (encoding === "identity" || encoding === "") return res;
  return undefined;
}

/** Reads the body under the size cap, counted both on the wire and decompressed (a small gzip can inflate a lot). */
function readBody(
  res: http.IncomingMessage,
  body: Readable,
  hop: HopSettlement,
  maxBytes: number,
  meta: { status: number; mediaType: string; contentType: string },
): void {
  const { href } = hop;
  const { status } = meta;
  hop.stream = body;
  const chunks: Buffer[] = [];
  let bytes = 0;
  let wire = 0;
  if (body !== res) {
    res.on("data", (c: Buffer) => {
      wire += c.length;
      if (wire > maxBytes) hop.fail(new FetchError("too-large", `response exceeded ${maxBytes} bytes`, href, status));
    });
  }
  body.on("data", (c: Buffer) => {
    bytes += c.length;
    if (bytes > maxBytes) return hop.fail(new FetchError("too-large", `response exceeded ${maxBytes} bytes`, href, status));
    chunks.push(c);
  });
  body.on("error", (err) => hop.fail(new FetchError("network", `bad response body: ${errMessage(err)}`, href, status)));
  res.on("aborted", () => hop.fail(new FetchError("network", "connection closed mid-response", href, status)));
  body.on("end", () => {
    const buf = Buffer.concat(chunks);
    hop.succeed({ status, contentType: meta.mediaType, body: decode(buf, meta.contentType), bytes: buf.length });
  });
}

function decode(buf: Buffer, contentType: string): string {
  const charset = /charset\s*=\s*"?([\w.:-]+)"?/i.exec(contentType)?.[1];
  try {
    return new TextDecoder(charset ?? "utf-8").decode(buf);
  } catch {
    return new TextDecoder("utf-8").decode(buf);
  }
}

function errMessage(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split("\n")[0].slice(0, 200);
}

function classifyNetworkError(err: unknown, href: string): FetchError {
  if (err instanceof FetchError) return err;
  const code = (err as NodeJS.ErrnoException)?.code;
  if (code === "ETIMEDOUT") return new FetchError("timeout", `connection timed out`, href);
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return new FetchError("dns", `cannot resolve (${code})`, href);
  return new FetchError("network", `${code ? `${code}: ` : ""}${errMessage(err)}`, href);
}

/** Rejects with an "aborted" FetchError when the signal fires before the promise settles. */
function raceAbort<T>(p: Promise<T>, signal: AbortSignal | undefined, href: string): Promise<T> {
  if (!signal) return p;
  if (signal.aborted) return Promise.reject(new FetchError("aborted", "cancelled", href));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new FetchError("aborted", "cancelled", href));
    signal.addEventListener("abort", onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener("abort", onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener("abort", onAbort);
        reject(e);
      },
    );
  });
}

/** "timeout ×2, http-status 404 ×1" — the classified reasons of a batch of failures, most frequent first. */
export function summariseFailures(errors: unknown[]): string {
  const counts = new Map<string, number>();
  for (const e of errors) {
    const label = e instanceof FetchError ? (e.kind === "http-status" && e.status ? `http ${e.status}` : e.kind) : "error";
    counts.set(label, (counts.get(label) ?? 0) + 1);
  }
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([k, n]) => `${k} ×${n}`)
    .join(", ");
}
