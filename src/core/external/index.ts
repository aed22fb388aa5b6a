// The external stage's public face: which experts to run for a configuration, and the return-time re-check of
// external citations (a cited page that no longer resolves is flagged `resolution_failed`, never dropped).
import { promises as fs } from "node:fs";
import { homedir } from "node:os";
import { isAbsolute, join, relative } from "node:path";
import fg from "fast-glob";
import { resolveInside } from "../contain";
import type { Citation } from "../schemas";
import type { Expert } from "../types";
import { createDependencyDocsExpert, escapeGoModulePath, type DependencyDocsOptions } from "./dependencyDocs";
import { canonicalUrl, createWebDocsExpert } from "./docsFetch";
import { FetchError, GuardedFetcher, type LookupFn } from "./fetch";

export { createDependencyDocsExpert } from "./dependencyDocs";
export { canonicalUrl, createWebDocsExpert, hasCredentials } from "./docsFetch";
export { GuardedFetcher, FetchError, type FetchFailureKind, type LookupFn } from "./fetch";
export { AllowList, DEFAULT_ALLOW_HOSTS, classifyAddress, parseAllowHost } from "./guard";

export interface ExternalOptions {
  offline: boolean;
  /** --docs-url (repeatable). */
  docsUrls?: string[];
  /** --searxng URL. */
  searxngUrl?: string;
  /** --allow-host HOST[:PORT] (repeatable). */
  allowHosts?: string[];
  repo: string;
  pageBudget?: number;
  timeoutMs?: number;
  maxBytes?: number;
  /** Default: the user's cache directory (defaultWebCacheDir), never the working tree. */
  cacheDir?: string;
  /** Default true. False (--no-cache): cached pages are not read. */
  useCache?: boolean;
  deps?: DependencyDocsOptions;
  lookup?: LookupFn;
}

/**
 * Where fetched web pages are cached: `$XDG_CACHE_HOME/deliberative-search/web`, else (Windows) `%LOCALAPPDATA%`,
 * else `~/.cache/deliberative-search/web`. Outside every working tree, so a repository cannot plant pages in it.
 */
export function defaultWebCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_CACHE_HOME;
  const base = xdg && isAbsolute(xdg) ? xdg : process.platform === "win32" && env.LOCALAPPDATA ? env.LOCALAPPDATA : join(homedir(), ".cache");
  return join(base, "deliberative-search", "web");
}

/**
 * The external experts for a run: installed dependency docs always (offline-capable), web docs only when online
 * and there is a --docs-url or a SearxNG instance to ask.
 */
export function buildExternalExperts(opts: ExternalOptions): Expert[] {
  const experts: Expert[] = [createDependencyDocsExpert(opts.deps)];
  const docsUrls = opts.docsUrls ?? [];
  if (!opts.offline && (docsUrls.length > 0 || opts.searxngUrl)) {
    experts.push(
      createWebDocsExpert({
        docsUrls,
        searxngUrl: opts.searxngUrl,
        allowHosts: opts.allowHosts ?? [],
        pageBudget: opts.pageBudget,
        timeoutMs: opts.timeoutMs,
        maxBytes: opts.maxBytes,
        cacheDir: opts.cacheDir ?? defaultWebCacheDir(),
        readCache: opts.useCache !== false,
        lookup: opts.lookup,
      }),
    );
  }
  return experts;
}

export interface RecheckOptions {
  repo: string;
  /** When true no URL is requested: web citations are reported as unchecked. */
  offline?: boolean;
  docsUrls?: string[];
  searxngUrl?: string;
  allowHosts?: string[];
  /** Per-request timeout. Default 5000 ms. */
  timeoutMs?: number;
  /** Wall-clock limit for all web re-checks together. Default RECHECK_DEADLINE_MS. */
  deadlineMs?: number;
  signal?: AbortSignal;
  lookup?: LookupFn;
  /** Go module cache / Cargo home for non-npm local citations (defaults as in the deps expert). */
  goModCache?: string;
  cargoHome?: string;
}

export interface RecheckResult {
  /** Citation ids that no longer resolve: mark them `resolution_failed` and lower their options' confidence. */
  failed: string[];
  /** Why each failed id failed (and why a web citation went unchecked when the deadline ran out), for logs. */
  reasons: Record<string, string>;
  /** Ids not checked (offline web citations, unknown schemes, web citations the deadline left unchecked). */
  unchecked: string[];
  checked: number;
}

/**
 * The whole return-time re-check of web citations ends within this: it runs after the answer is ready, one request
 * at a time per host, and per-hop timeouts alone let a slow-redirecting host add ~17 s per cited URL.
 */
export const RECHECK_DEADLINE_MS = 5000;
/** Redirects a re-check probe follows (a page fetch, 5): a cited URL is already a final URL, so it needs few. */
export const RECHECK_MAX_REDIRECTS = 2;

type UrlCheck = { state: "ok" } | { state: "failed" | "unchecked"; why: string };

/** Probes URLs once each under one deadline; a probe the deadline cut short is "unchecked", never "failed". */
function urlChecker(opts: RecheckOptions): { check(url: string): Promise<UrlCheck>; dispose(): void } {
  const fetcher = new GuardedFetcher({
    allowHosts: opts.allowHosts,
    explicitHosts: opts.searxngUrl ? [opts.searxngUrl] : [],
    publicHosts: (opts.docsUrls ?? []).map((u) => canonicalUrl(u)).filter((u): u is string => !!u),
    timeoutMs: opts.timeoutMs ?? 5000,
    maxRedirects: RECHECK_MAX_REDIRECTS,
    lookup: opts.lookup,
  });
  const deadlineMs = opts.deadlineMs ?? RECHECK_DEADLINE_MS;
  const controller = new AbortController();
  const onAbort = () => controller.abort(opts.signal?.reason);
  opts.signal?.addEventListener("abort", onAbort, { once: true });
  if (opts.signal?.aborted) onAbort();
  let expired = false;
  const timer = setTimeout(() => {
    expired = true;
    controller.abort();
  }, deadlineMs);
  const checks = new Map<string, Promise<UrlCheck>>();
  const probe = (url: string): Promise<UrlCheck> =>
    fetcher.fetch(url, { signal: controller.signal, probe: true, budget: false }).then(
      () => ({ state: "ok" as const }),
      (err: unknown) => {
        if (expired && !opts.signal?.aborted && err instanceof FetchError && err.kind === "aborted") {
          return { state: "unchecked" as const, why: `not re-checked: the ${deadlineMs} ms re-check deadline ran out` };
        }
        return { state: "failed" as const, why: err instanceof FetchError ? `${err.kind}: ${err.message}` : String(err) };
      },
    );
  return {
    check: (url) => {
      let p = checks.get(url);
      if (!p) checks.set(url, (p = probe(url)));
      return p;
    },
    dispose: () => {
      clearTimeout(timer);
      opts.signal?.removeEventListener("abort", onAbort);
    },
  };
}

const LOCAL = /^(npm|pypi|go|crates):(.+?)@([^/@]+)\/(.+)$/;

/**
 * Re-resolves every external citation at return time: a web citation's URL through the guarded fetcher (GET,
 * resolved at the response headers; redirects re-checked, 2xx required), a local dependency-doc citation against
 * the installed package (same version, file present, line range inside the file). Internal citations are ignored.
 * Web re-checks share one deadline (`deadlineMs`); what it cuts short is reported unchecked, not failed.
 */
export async function recheckExternalCitations(citations: readonly Citation[], opts: RecheckOptions): Promise<RecheckResult> {
  const result: RecheckResult = { failed: [], reasons: {}, unchecked: [], checked: 0 };
  const fail = (id: string, why: string) => {
    result.failed.push(id);
    result.reasons[id] = why;
  };
  const urls = urlChecker(opts);
  const checkUrl = async (id: string, url: string) => {
    const r = await urls.check(url);
    if (r.state === "unchecked") {
      result.unchecked.push(id);
      result.reasons[id] = r.why;
      return;
    }
    result.checked++;
    if (r.state === "failed") fail(id, r.why);
  };

  const recheckOne = async (c: Citation) => {
    if (c.kind !== "external" || c.resolution_failed) return;
    const url = canonicalUrl(c.path_or_url);
    if (url) {
      if (opts.offline) result.unchecked.push(c.id);
      else await checkUrl(c.id, url);
      return;
    }
    const local = LOCAL.exec(c.path_or_url);
    if (!local) {
      result.unchecked.push(c.id);
      return;
    }
    result.checked++;
    const why = await checkLocal(local[1] as LocalEcosystem, local[2], local[3], local[4], c.line_range, opts);
    if (why) fail(c.id, why);
  };
  try {
    await Promise.all(citations.map(recheckOne));
  } finally {
    urls.dispose();
  }
  // Deterministic order for receipts and logs.
  const order = new Map(citations.map((c, i) => [c.id, i]));
  result.failed.sort((a, b) => order.get(a)! - order.get(b)!);
  result.unchecked.sort((a, b) => order.get(a)! - order.get(b)!);
  return result;
}

type LocalEcosystem = "npm" | "pypi" | "go" | "crates";

async function checkLocal(
  eco: LocalEcosystem,
  name: string,
  version: string,
  rel: string,
  range: { start: number; end: number } | undefined,
  opts: RecheckOptions,
): Promise<string | undefined> {
  if (rel.split("/").includes("..")) return "path escapes the package";
  const roots: string[] = [];
  if (eco === "npm") {
    const root = join(opts.repo, "node_modules", ...name.split("/"));
    try {
      // Through the repository's real path only: a committed `node_modules/<dep>` link out of it is not installed.
      const file = await resolveInside(opts.repo, relative(opts.repo, join(root, "package.json")));
      if (!file) throw new Error("outside the repository");
      const manifest = JSON.parse(await fs.readFile(file, "utf8")) as { version?: string };
      if (manifest.version !== version) return `installed version is ${manifest.version ?? "unknown"}, cited ${version}`;
    } catch {
      return `${name} is no longer installed`;
    }
    roots.push(root);
  } else if (eco === "pypi") {
    roots.push(
      ...(await fg(["{.venv,venv,env,.env}/lib/python*/site-packages", "{.venv,venv,env,.env}/Lib/site-packages"], {
        cwd: opts.repo,
        onlyDirectories: true,
        deep: 4,
        absolute: true,
        dot: true,
      })),
    );
  } else if (eco === "go") {
    const cache = opts.goModCache ?? process.env.GOMODCACHE ?? join(process.env.GOPATH ?? join(homedir(), "go"), "pkg", "mod");
    roots.push(join(opts.repo, "vendor", ...name.split("/")), join(cache, ...`${escapeGoModulePath(name)}@${version}`.split("/")));
  } else {
    const cargoHome = opts.cargoHome ?? process.env.CARGO_HOME ?? join(homedir(), ".cargo");
    roots.push(join(opts.repo, "vendor", name));
    roots.push(...(await fg([`registry/src/*/${name}-${version}`], { cwd: cargoHome, onlyDirectories: true, deep: 3, absolute: true }).catch(() => [])));
  }
  for (const root of roots) {
    let text: string;
    try {
      // The cited file must resolve inside its package's real folder, and a package folder in the repository inside it.
      const inRepo = !relative(opts.repo, root).startsWith("..");
      if (inRepo && !(await resolveInside(opts.repo, relative(opts.repo, root)))) continue;
      const file = await resolveInside(root, rel);
      if (!file) continue;
      text = await fs.readFile(file, "utf8");
    } catch {
      continue;
    }
    const lines = text.length === 0 ? 0 : text.replace(/\n$/, "").split("\n").length;
    if (range && range.end > lines) return `${rel} has ${lines} lines; cited ${range.start}-${range.end}`;
    return undefined;
  }
  return `${rel} not found in the installed ${name}@${version}`;
}
