// The two gates every outbound request passes, on the first hop and on every redirect:
//  1. the allow-list: only http/https, only hosts (and ports) that are listed;
//  2. the address guard: after DNS resolution, every address the name resolves to must be a public unicast
//     address; loopback, private, link-local, CGNAT, metadata, multicast and reserved ranges are refused unless
//     the host was configured explicitly (the SearxNG instance, a user-added `host[:port]`).
// Pure functions: no sockets, no DNS. fetch.ts does the resolving and connects to the address checked here.
import { isIP } from "node:net";

/** Primary-source documentation hosts allowed by default. Exact host names; a leading "*." also allows subdomains. */
export const DEFAULT_ALLOW_HOSTS: readonly string[] = [
  "developer.mozilla.org",
  "nodejs.org",
  "docs.python.org",
  "peps.python.org",
  "arxiv.org",
  "export.arxiv.org",
  "github.com",
  "docs.github.com",
  "raw.githubusercontent.com",
  "gist.githubusercontent.com",
  "learn.microsoft.com",
  "code.visualstudio.com",
  "www.typescriptlang.org",
  "go.dev",
  "pkg.go.dev",
  "doc.rust-lang.org",
  "docs.rs",
  "react.dev",
  "docs.npmjs.com",
  "www.postgresql.org",
  "redis.io",
  "www.rfc-editor.org",
  "datatracker.ietf.org",
  "www.w3.org",
  "html.spec.whatwg.org",
  "tc39.es",
  "web.dev",
  "kubernetes.io",
  "docs.docker.com",
  "docs.oracle.com",
  "dev.mysql.com",
  "www.sqlite.org",
  "sqlite.org",
  "vuejs.org",
  "svelte.dev",
  "angular.dev",
  "nextjs.org",
  "vite.dev",
  "vitejs.dev",
  "esbuild.github.io",
  "webpack.js.org",
  "jestjs.io",
  "vitest.dev",
  "eslint.org",
  "prettier.io",
  "www.prisma.io",
  "zod.dev",
  "expressjs.com",
  "fastify.dev",
  "graphql.org",
  "grpc.io",
  "kafka.apache.org",
  "www.rabbitmq.com",
  "opentelemetry.io",
  "prometheus.io",
  "docs.aws.amazon.com",
  "cloud.google.com",
  "developers.cloudflare.com",
  "owasp.org",
  "cheatsheetseries.owasp.org",
];

export interface AllowRule {
  /** Lower-case host name or IP literal (IPv6 without brackets). */
  host: string;
  /** When set, only this port; otherwise only the scheme's default port (80 / 443). */
  port?: number;
  /** "*.example.com": subdomains and the bare domain. */
  wildcard: boolean;
  /** Configured by the user or the run (SearxNG, --allow-host): private addresses are permitted for it. */
  explicit: boolean;
  /** The entry as written, for messages. */
  source: string;
}

/**
 * Parses one allow-list entry: `host`, `host:port`, `[v6]:port`, `*.example.com`, or a URL (its host and port are
 * used). Returns undefined for an entry that names no host.
 */
export function parseAllowHost(entry: string, explicit = true): AllowRule | undefined {
  let raw = entry.trim();
  if (!raw) return undefined;
  let wildcard = false;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(raw)) {
    try {
      const u = new URL(raw);
      // Credentials never belong in an allow-list entry (they would be logged and stored).
      if (!u.hostname || u.username || u.password) return undefined;
      return { host: stripBrackets(u.hostname), ...(u.port ? { port: Number(u.port) } : {}), wildcard: false, explicit, source: entry };
    } catch {
      return undefined;
    }
  }
  if (raw.startsWith("*.")) {
    wildcard = true;
    raw = raw.slice(2);
  } else if (raw.startsWith(".")) {
    wildcard = true;
    raw = raw.slice(1);
  }
  raw = raw.replace(/\/.*$/, "");
  let host = raw;
  let port: number | undefined;
  const v6 = /^\[([^\]]+)\](?::(\d+))?$/.exec(raw);
  if (v6) {
    host = v6[1];
    if (v6[2]) port = Number(v6[2]);
  } else if (isIP(raw) === 6) {
    host = raw;
  } else {
    const m = /^([^:]+):(\d+)$/.exec(raw);
    if (m) {
      host = m[1];
      port = Number(m[2]);
    }
  }
  host = host.toLowerCase().replace(/\.$/, "");
  if (!host || /[\s/?#@]/.test(host)) return undefined;
  if (port !== undefined && (!Number.isInteger(port) || port < 1 || port > 65535)) return undefined;
  return { host, ...(port !== undefined ? { port } : {}), wildcard, explicit, source: entry };
}

export function stripBrackets(host: string): string {
  return host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
}

export function defaultPort(protocol: string): number {
  return protocol === "https:" ? 443 : 80;
}

export class AllowList {
  readonly rules: AllowRule[];

  constructor(rules: AllowRule[]) {
    this.rules = rules;
  }

  /**
   * The defaults and `publicHosts` (not explicit: public addresses only) plus user additions and run-configured hosts (explicit: private addresses allowed
   * for exactly those hosts).
   */
  static create(
    opts: { allowHosts?: string[]; explicitHosts?: string[]; publicHosts?: string[]; includeDefaults?: boolean } = {},
  ): AllowList {
    const rules: AllowRule[] = [];
    const publicEntries = [...(opts.includeDefaults !== false ? DEFAULT_ALLOW_HOSTS : []), ...(opts.publicHosts ?? [])];
    for (const h of publicEntries) {
      const r = parseAllowHost(h, false);
      if (r) rules.push(r);
    }
    for (const h of [...(opts.allowHosts ?? []), ...(opts.explicitHosts ?? [])]) {
      const r = parseAllowHost(h, true);
      if (r) rules.push(r);
    }
    return new AllowList(rules);
  }

  /** The rule a URL falls under, preferring an explicit one; undefined when the URL is not allowed. */
  match(url: URL): AllowRule | undefined {
    if (url.protocol !== "http:" && url.protocol !== "https:") return undefined;
    const host = stripBrackets(url.hostname.toLowerCase()).replace(/\.$/, "");
    const port = url.port ? Number(url.port) : defaultPort(url.protocol);
    let found: AllowRule | undefined;
    for (const r of this.rules) {
      const hostOk = r.host === host || (r.wildcard && host.endsWith(`.${r.host}`));
      if (!hostOk) continue;
      const portOk = r.port !== undefined ? r.port === port : port === defaultPort(url.protocol);
      if (!portOk) continue;
      if (r.explicit) return r;
      found ??= r;
    }
    return found;
  }

  allows(url: string | URL): boolean {
    try {
      return this.match(typeof url === "string" ? new URL(url) : url) !== undefined;
    } catch {
      return false;
    }
  }
}

// ---------------------------------------------------------------------------------------------------------
// Address guard.

export interface AddressVerdict {
  blocked: boolean;
  /** Why it is blocked: "loopback", "private", "link-local", "cloud metadata", … */
  range?: string;
}

const V4_RANGES: [string, number, string][] = [
  ["169.254.169.254", 32, "cloud metadata"],
  ["0.0.0.0", 8, "this-network"],
  ["10.0.0.0", 8, "private"],
  ["100.64.0.0", 10, "carrier-grade NAT"],
  ["127.0.0.0", 8, "loopback"],
  ["169.254.0.0", 16, "link-local"],
  ["172.16.0.0", 12, "private"],
  ["192.0.0.0", 24, "IETF protocol assignments"],
  ["192.0.2.0", 24, "documentation"],
  ["192.88.99.0", 24, "6to4 relay"],
  ["192.168.0.0", 16, "private"],
  ["198.18.0.0", 15, "benchmarking"],
  ["198.51.100.0", 24, "documentation"],
  ["203.0.113.0", 24, "documentation"],
  ["224.0.0.0", 4, "multicast"],
  ["240.0.0.0", 4, "reserved"],
];

function v4ToInt(ip: string): number | undefined {
  const parts = ip.split(".");
  if (parts.length !== 4) return undefined;
  let n = 0;
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p)) return undefined;
    const v = Number(p);
    if (v > 255) return undefined;
    n = n * 256 + v;
  }
  return n;
}

function inV4(n: number, base: string, bits: number): boolean {
  const b = v4ToInt(base)!;
  const size = 2 ** (32 - bits);
  return Math.floor(n / size) === Math.floor(b / size);
}

/** Parses an IPv6 address (zone ids stripped, embedded IPv4 tail allowed) to a 128-bit bigint. */
export function v6ToBigInt(ip: string): bigint | undefined {
  let s = ip.replace(/%.*$/, "").toLowerCase();
  if (isIP(s) !== 6) return undefined;
  // An embedded IPv4 tail becomes two hextets.
  const v4tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (v4tail) {
    const n = v4ToInt(v4tail[1]);
    if (n === undefined) return undefined;
    s = s.slice(0, -v4tail[1].length) + `${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const [head, tail] = s.includes("::") ? s.split("::") : [s, undefined];
  const h = head ? head.split(":") : [];
  const t = tail !== undefined && tail !== "" ? tail.split(":") : [];
  const missing = 8 - h.length - t.length;
  if (tail === undefined && h.length !== 8) return undefined;
  if (missing < 0) return undefined;
  const groups = [...h, ...Array(tail === undefined ? 0 : missing).fill("0"), ...t];
  let n = 0n;
  for (const g of groups) n = (n << 16n) | BigInt(parseInt(g || "0", 16));
  return n;
}

function prefix(ip: string): bigint {
  return v6ToBigInt(ip)!;
}

const V6_RANGES: [bigint, number, string | "embedded-v4-low32" | "embedded-6to4"][] = [
  [prefix("::ffff:0:0"), 96, "embedded-v4-low32"],
  [prefix("64:ff9b::"), 96, "embedded-v4-low32"],
  [prefix("::"), 128, "unspecified"],
  [prefix("::1"), 128, "loopback"],
  [prefix("::"), 96, "IPv4-compatible (deprecated)"],
  [prefix("64:ff9b:1::"), 48, "local-use NAT64"],
  [prefix("100::"), 64, "discard-only"],
  [prefix("2001::"), 32, "Teredo"],
  [prefix("2001:db8::"), 32, "documentation"],
  [prefix("2002::"), 16, "embedded-6to4"],
  [prefix("fc00::"), 7, "unique-local (private)"],
  [prefix("fe80::"), 10, "link-local"],
  [prefix("fec0::"), 10, "site-local (deprecated)"],
  [prefix("ff00::"), 8, "multicast"],
];

function inV6(n: bigint, base: bigint, bits: number): boolean {
  const shift = BigInt(128 - bits);
  return n >> shift === base >> shift;
}

function intToV4(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join(".");
}

/** Whether an IP address literal may be connected to when its host is not explicitly configured. */
export function classifyAddress(address: string): AddressVerdict {
  const ip = stripBrackets(address.trim());
  const family = isIP(ip.replace(/%.*$/, ""));
  if (family === 4) {
    const n = v4ToInt(ip)!;
    if (n === 0xffffffff) return { blocked: true, range: "broadcast" };
    for (const [base, bits, label] of V4_RANGES) if (inV4(n, base, bits)) return { blocked: true, range: label };
    return { blocked: false };
  }
  if (family === 6) {
    const n = v6ToBigInt(ip);
    if (n === undefined) return { blocked: true, range: "unparseable address" };
    for (const [base, bits, label] of V6_RANGES) {
      if (!inV6(n, base, bits)) continue;
      if (label === "embedded-v4-low32") {
        const v = classifyAddress(intToV4(Number(n & 0xffffffffn)));
        return v.blocked ? { blocked: true, range: `${v.range} (IPv4 embedded in IPv6)` } : v;
      }
      if (label === "embedded-6to4") {
        const v = classifyAddress(intToV4(Number((n >> 80n) & 0xffffffffn)));
        return v.blocked ? { blocked: true, range: `${v.range} (6to4)` } : v;
      }
      return { blocked: true, range: label };
    }
    return { blocked: false };
  }
  return { blocked: true, range: "not an IP address" };
}
