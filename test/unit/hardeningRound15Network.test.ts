// Hardening, round 15 (second adversarial probe, network findings 2, 4, 6 and 9), against real servers on 127.0.0.1:
//  - a model response is bounded in time to the end of its body and in size (drip, endless, declared-huge bodies),
//    and a deliberation falls back to the rules with the classified reason;
//  - the return-time re-check of web citations has one wall-clock deadline and follows at most 2 redirects;
//  - OPENAI_API_KEY goes to loopback address literals and "localhost" only, never to a name that starts with "127.";
//  - a redirect to a URL with credentials is refused, and nothing with the password reaches results, evidence,
//    receipts or the web cache.
import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createModelStack, createOpenAIChatModel } from "../../src/core/model";
import { cappedFetch, MAX_RESPONSE_BYTES } from "../../src/core/model/client";
import { ModelError } from "../../src/core/model/errors";
import { isLoopback, modelOptionsFromCli } from "../../src/core/model/fromEnv";
import { deliberate, type DeliberateOutcome } from "../../src/core/pipeline";
import { generateSigningKey } from "../../src/core/receipts/signing";
import { createWebDocsExpert } from "../../src/core/external/docsFetch";
import { FetchError, GuardedFetcher } from "../../src/core/external/fetch";
import { RECHECK_DEADLINE_MS, RECHECK_MAX_REDIRECTS, recheckExternalCitations } from "../../src/core/external/index";
import type { Citation } from "../../src/core/schemas";
import { createSampleRepo } from "../fixtures/sampleRepo";
import { expertContext, htmlPage, startServer, type TestServer } from "../fixtures/external/http";
import { makeWorkspace } from "../fixtures/external/workspace";

// ---------------------------------------------------------------------------------------------------------------
// 2. Model responses: a deadline to the end of the body, and a size cap.

interface HostileModel {
  baseURL: string;
  posts: number;
  /** Body bytes the server managed to write so far. */
  sent: number;
  /** Responses whose connection has closed. */
  closed: number;
  close(): Promise<void>;
}

/** Without a client-side cap an "endless" body would fill memory; the server stops here so an unfixed run fails, not the machine. */
const SERVER_SAFETY_STOP = 64 * 1024 * 1024;

/** An OpenAI-compatible endpoint that answers every POST with headers at once and then a hostile body. */
async function startHostileModel(kind: "drip" | "endless" | "declared-huge"): Promise<HostileModel> {
  const state = { posts: 0, sent: 0, closed: 0 };
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      state.posts++;
      res.on("close", () => state.closed++);
      if (kind === "declared-huge") {
        res.writeHead(200, { "content-type": "application/json", "content-length": String(200 * 1024 * 1024) });
        res.write('{"id":"x"');
        return;
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"id":"x","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"');
      if (kind === "drip") return drip(res, state);
      pump(res, state);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    get posts() {
      return state.posts;
    },
    get sent() {
      return state.sent;
    },
    get closed() {
      return state.closed;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** One byte every 100 ms, forever (until the client goes away). */
function drip(res: ServerResponse, state: { sent: number }): void {
  const timer = setInterval(() => {
    if (res.destroyed) return clearInterval(timer);
    res.write(" ");
    state.sent++;
  }, 100);
  res.on("close", () => clearInterval(timer));
}

/** 64 KB chunks as fast as the client reads them. */
function pump(res: ServerResponse, state: { sent: number }): void {
  const blob = Buffer.alloc(64 * 1024, 65);
  const more = () => {
    while (!res.destroyed && state.sent < SERVER_SAFETY_STOP) {
      state.sent += blob.length;
      if (!res.write(blob)) return void res.once("drain", more);
    }
    if (!res.destroyed) res.end('"},"finish_reason":"stop"}]}');
  };
  more();
}

const ask = (signal = new AbortController().signal) => ({ system: "s", user: "u", maxTokens: 64, signal });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function deliberated(out: DeliberateOutcome) {
  assert.equal(out.kind, "deliberated");
  return out as Extract<DeliberateOutcome, { kind: "deliberated" }>;
}

describe("model client: the per-attempt deadline runs to the end of the body, and the body is capped", { timeout: 60_000 }, () => {
  const servers: HostileModel[] = [];
  const serve = async (kind: Parameters<typeof startHostileModel>[0]) => {
    const s = await startHostileModel(kind);
    servers.push(s);
    return s;
  };
  after(async () => {
    await Promise.all(servers.map((s) => s.close()));
  });

  it("headers at once, then a byte every 100 ms: the call fails as a timeout within about timeoutMs and the connection is dropped", { timeout: 15_000 }, async () => {
    const server = await serve("drip");
    const model = createOpenAIChatModel({ baseURL: server.baseURL, model: "m", timeoutMs: 800, maxRetries: 0 });
    const t0 = performance.now();
    const err = await model.complete(ask()).then(
      () => assert.fail("a dripping body must not produce an answer"),
      (e: unknown) => e,
    );
    const ms = performance.now() - t0;
    assert.ok(err instanceof ModelError, String(err));
    assert.equal(err.kind, "timeout");
    assert.match(err.detail, /no complete response from 127\.0\.0\.1:\d+ within 800 ms/);
    assert.ok(ms >= 700 && ms < 2500, `ended after ${Math.round(ms)} ms`);
    assert.ok(server.sent > 0, "the body had started: the deadline covers the body, not only the headers");
    await sleep(300);
    assert.equal(server.closed, 1, "the client closed the dripping connection");
  });

  it("an endless body fails as too-large at the cap, long before the timeout, with bounded memory; the download stops", { timeout: 30_000 }, async () => {
    const server = await serve("endless");
    const model = createOpenAIChatModel({ baseURL: server.baseURL, model: "m", timeoutMs: 20_000, maxRetries: 0 });
    const rss0 = process.memoryUsage().rss;
    const t0 = performance.now();
    const err = await model.complete(ask()).then(
      () => assert.fail("an endless body must not produce an answer"),
      (e: unknown) => e,
    );
    const ms = performance.now() - t0;
    assert.ok(err instanceof ModelError, String(err));
    assert.equal(err.kind, "too-large", err.message);
    assert.match(err.detail, new RegExp(`larger than ${MAX_RESPONSE_BYTES} bytes`));
    assert.ok(ms < 5000, `ended after ${Math.round(ms)} ms`);
    assert.ok(process.memoryUsage().rss - rss0 < 200 * 1024 * 1024, "memory stays bounded");
    await sleep(300);
    const sent = server.sent;
    assert.equal(server.closed, 1, "the client closed the connection");
    assert.ok(sent < 4 * MAX_RESPONSE_BYTES, `the server sent ${sent} bytes`);
    await sleep(300);
    assert.equal(server.sent, sent, "nothing more was sent");
  });

  it("a declared Content-Length above the cap fails at once, without reading the body", { timeout: 15_000 }, async () => {
    const server = await serve("declared-huge");
    const model = createOpenAIChatModel({ baseURL: server.baseURL, model: "m", timeoutMs: 10_000, maxRetries: 0 });
    const t0 = performance.now();
    await assert.rejects(model.complete(ask()), (e: unknown) => e instanceof ModelError && e.kind === "too-large");
    assert.ok(performance.now() - t0 < 3000);
  });

  it("cappedFetch passes small bodies through unchanged, and errors a body that outgrows the cap", async () => {
    const reply = (body: string, headers: Record<string, string> = {}) => async () => new Response(body, { status: 200, headers: { "content-type": "application/json", ...headers } });
    const ok = await cappedFetch(16, "h", reply('{"a":1}'))("http://h/");
    assert.equal(await ok.text(), '{"a":1}');
    const big = await cappedFetch(16, "h", reply("x".repeat(17)))("http://h/");
    await assert.rejects(big.text(), (e: unknown) => e instanceof ModelError && e.kind === "too-large" && /larger than 16 bytes/.test(e.detail));
    const noBody = await cappedFetch(16, "h", async () => new Response(null, { status: 204 }))("http://h/");
    assert.equal(noBody.status, 204);
  });

  it("in a deliberation: a dripping or endless endpoint makes one POST, the circuit opens and the rules answer carries the reason", { timeout: 45_000 }, async () => {
    const repo = createSampleRepo();
    const signingKey = generateSigningKey();
    const question = "Should we store orders in MongoDB or PostgreSQL?";
    for (const [kind, reason] of [
      ["drip", /^timeout: no complete response from 127\.0\.0\.1:\d+ within 1000 ms/],
      ["endless", /^too-large: the response from 127\.0\.0\.1:\d+ is larger than \d+ bytes/],
    ] as const) {
      const server = await serve(kind);
      const stack = createModelStack(createOpenAIChatModel({ baseURL: server.baseURL, model: "fake", timeoutMs: 1000, maxRetries: 0 }));
      const t0 = performance.now();
      const out = deliberated(await deliberate({ repo, question, signingKey, writeReceipt: false, useCache: false, force: true, ...stack }));
      const ms = performance.now() - t0;
      const r = out.receipt;
      assert.equal(r.synthesis.mode, "rules", kind);
      assert.equal(r.synthesis.fallback?.kind, kind === "drip" ? "timeout" : "too-large");
      assert.match(r.synthesis.fallback_reason!, reason);
      assert.match(r.synthesis.fallback_reason!, /circuit open/);
      assert.deepEqual(r.synthesis.calls?.map((c) => [c.purpose, c.outcome.split(":")[0]]), [["plan", r.synthesis.fallback?.kind]]);
      assert.equal(server.posts, 1, `${kind}: one POST, then the circuit is open`);
      assert.ok(ms < 15_000, `${kind}: the deliberation took ${Math.round(ms)} ms`);
    }
  });
});

// ---------------------------------------------------------------------------------------------------------------
// 4. The return-time re-check of web citations: one deadline, few redirects.

const webCitation = (id: string, url: string): Citation => ({ id, kind: "external", path_or_url: url, fetched_at: "2026-03-01T12:00:00.000Z", precision_class: "document", excerpt: "x" });

describe("return-time re-check of web citations: one deadline for all, at most 2 redirects per probe", { timeout: 60_000 }, () => {
  let slow: TestServer;
  let fast: TestServer;
  const timers = new Set<NodeJS.Timeout>();
  before(async () => {
    // Every GET redirects again after 600 ms (each hop well inside the per-request timeout), forever.
    slow = await startServer((req, res) => {
      const u = new URL(req.url ?? "/", "http://x");
      const hop = Number(u.searchParams.get("hop") ?? 0);
      const t = setTimeout(() => {
        res.writeHead(302, { location: `${u.pathname}?hop=${hop + 1}`, "content-length": "0" });
        res.end();
      }, 600);
      timers.add(t);
    });
    fast = await startServer((req, res) => {
      const u = new URL(req.url ?? "/", "http://x");
      const hop = Number(u.searchParams.get("hop") ?? 0);
      const m = /^\/hops(\d+)$/.exec(u.pathname);
      if (m && hop < Number(m[1])) {
        res.writeHead(302, { location: `${u.pathname}?hop=${hop + 1}`, "content-length": "0" });
        return res.end();
      }
      if (u.pathname === "/gone") {
        res.writeHead(404, { "content-type": "text/plain" });
        return res.end("gone");
      }
      res.writeHead(200, { "content-type": "text/html" });
      res.end("<p>ok</p>");
    });
  });
  after(async () => {
    for (const t of timers) clearTimeout(t);
    await slow.close();
    await fast.close();
  });

  it("the default deadline is a few seconds and probes follow 2 redirects", () => {
    assert.equal(RECHECK_DEADLINE_MS, 5000);
    assert.equal(RECHECK_MAX_REDIRECTS, 2);
  });

  it("slow-redirecting URLs are reported unchecked when the deadline runs out, not failed; answers that came in time still count", async () => {
    const cits = [1, 2, 3, 4].map((i) => webCitation(`ev-slow${i}`, `${slow.origin}/page${i}`));
    cits.push(webCitation("ev-gone", `${fast.origin}/gone`), webCitation("ev-ok", `${fast.origin}/fine`));
    const t0 = performance.now();
    const check = await recheckExternalCitations(cits, { repo: tmpdir(), allowHosts: [slow.hostPort, fast.hostPort], timeoutMs: 3000, deadlineMs: 1500 });
    const ms = performance.now() - t0;
    assert.ok(ms < 2500, `the re-check took ${Math.round(ms)} ms`);
    assert.deepEqual(check.failed, ["ev-gone"]);
    assert.match(check.reasons["ev-gone"], /http-status: HTTP 404/);
    assert.deepEqual(check.unchecked, ["ev-slow1", "ev-slow2", "ev-slow3", "ev-slow4"]);
    for (const id of check.unchecked) assert.match(check.reasons[id], /not re-checked: the 1500 ms re-check deadline ran out/);
    assert.equal(check.checked, 2);
  });

  it("the caller's cancellation is still a cancellation, not an unchecked deadline", async () => {
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 200);
    const check = await recheckExternalCitations([webCitation("ev-slow", `${slow.origin}/cancelled`)], { repo: tmpdir(), allowHosts: [slow.hostPort], deadlineMs: 5000, signal: ac.signal });
    assert.deepEqual(check.unchecked, []);
    assert.deepEqual(check.failed, ["ev-slow"]);
    assert.match(check.reasons["ev-slow"], /^aborted/);
  });

  it("a probe follows 2 redirects; a third fails the citation as a redirect failure", async () => {
    const check = await recheckExternalCitations([webCitation("ev-two", `${fast.origin}/hops2`), webCitation("ev-three", `${fast.origin}/hops3`)], {
      repo: tmpdir(),
      allowHosts: [fast.hostPort],
    });
    assert.deepEqual(check.failed, ["ev-three"]);
    assert.match(check.reasons["ev-three"], /^redirect: more than 2 redirects/);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// 6. OPENAI_API_KEY goes to loopback address literals and "localhost" only.

describe("OPENAI_API_KEY and loopback hosts", () => {
  const KEY = "sk-test-round15-loopback-0123456789";
  const keyFor = (baseUrl: string) => {
    const c = modelOptionsFromCli({ baseUrl, model: "m" }, { OPENAI_API_KEY: KEY });
    assert.equal(c.provider, "openai");
    return c.provider === "openai" ? c : assert.fail();
  };

  it("is not attached for host names that merely look like loopback", () => {
    for (const url of [
      "http://127.0.0.1.attacker.example/v1",
      "http://127.evil.example/v1",
      "http://127.0.0.1.nip.io:11434/v1",
      "http://localhost.attacker.example/v1",
      "http://localhost.localdomain/v1",
      "http://[::ffff:10.0.0.1]/v1",
      "http://[::2]/v1",
      "http://128.0.0.1/v1",
    ]) {
      const c = keyFor(url);
      assert.equal(c.options.apiKey, undefined, url);
      assert.equal(c.keySource, undefined, url);
      assert.match(c.note!, /OPENAI_API_KEY is not sent to /, url);
    }
  });

  it("is still attached for real loopback addresses, localhost and *.openai.com", () => {
    for (const url of [
      "http://127.0.0.1:11434/v1",
      "http://127.1.2.3:8080/v1",
      "http://127.1/v1",
      "http://[::1]:8080/v1",
      "http://[0:0:0:0:0:0:0:1]/v1",
      "http://[::ffff:127.0.0.1]:1234/v1",
      "http://localhost:1234/v1",
      "http://LOCALHOST/v1",
      "https://api.openai.com/v1",
    ]) {
      const c = keyFor(url);
      assert.equal(c.options.apiKey, KEY, url);
      assert.equal(c.keySource, "OPENAI_API_KEY", url);
    }
  });

  it("isLoopback reads address literals, with or without brackets and port", () => {
    for (const h of ["127.0.0.1", "127.0.0.1:80", "127.255.255.254", "::1", "[::1]", "[::1]:8080", "::ffff:127.0.0.1", "[::ffff:7f00:1]", "localhost", "localhost:1"]) {
      assert.equal(isLoopback(h), true, h);
    }
    for (const h of ["127.0.0.1.attacker.example", "127.evil", "127.", "localhost.", "localhost.attacker.example", "::ffff:127.0.0.1.evil", "::1%lo", "10.0.0.1", "", "[127.0.0.1]"]) {
      assert.equal(isLoopback(h), false, h);
    }
  });
});

// ---------------------------------------------------------------------------------------------------------------
// 9. A redirect to a URL with credentials.

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

const CACHE_PAGE = htmlPage("Caching best practices", [
  ["Time to live", "Always set a TTL on cache entries so stale data expires. Short TTLs suit session data."],
  ["Eviction", "Configure an LRU eviction policy so the cache never exceeds its memory limit."],
]);

describe("a redirect to a URL with credentials", { timeout: 30_000 }, () => {
  let docs: TestServer;
  let cacheRoot: string;
  before(async () => {
    cacheRoot = mkdtempSync(join(tmpdir(), "ds-r15-cache-"));
    docs = await startServer((req, res, self) => {
      const path = new URL(req.url ?? "/", "http://x").pathname;
      if (path === "/go") {
        res.writeHead(302, { location: `http://user:secret@${self.hostPort}/page`, "content-length": "0" });
        return res.end();
      }
      if (path === "/go-relative") {
        res.writeHead(301, { location: `//user:secret@${self.hostPort}/page`, "content-length": "0" });
        return res.end();
      }
      res.writeHead(200, { "content-type": "text/html" });
      res.end(CACHE_PAGE);
    });
  });
  after(async () => {
    await docs.close();
    rmSync(cacheRoot, { recursive: true, force: true });
  });

  it("the guarded fetcher refuses it as a redirect failure whose message names the host, not the password", async () => {
    const fetcher = new GuardedFetcher({ allowHosts: [docs.hostPort], includeDefaultHosts: false });
    for (const path of ["/go", "/go-relative"]) {
      const before = docs.requests.length;
      const err = await fetcher.fetch(`${docs.origin}${path}`).then(
        () => assert.fail("followed a redirect to a URL with credentials"),
        (e: unknown) => e,
      );
      assert.ok(err instanceof FetchError);
      assert.equal(err.kind, "redirect");
      assert.match(err.message, /redirect to a URL with credentials .* on 127\.0\.0\.1:\d+ refused/);
      assert.ok(!`${err.message} ${err.url}`.includes("secret"), err.message);
      assert.deepEqual(docs.requests.slice(before), [path], "the credentialed URL is never requested");
    }
  });

  it("nothing with the password reaches the expert's items, sources or reason, the web cache, or a written receipt and its evidence", async () => {
    const ws = makeWorkspace();
    const cacheDir = join(cacheRoot, "web");
    try {
      const expert = () => createWebDocsExpert({ docsUrls: [`${docs.origin}/go`, `${docs.origin}/page`], allowHosts: [docs.hostPort], includeDefaultHosts: false, cacheDir });
      const question = "Should we set a TTL on every cache entry?";
      const r = await expert().run(expertContext({ terms: ["cache", "ttl", "eviction"], question }));
      assert.equal(r.status, "ok", r.reason);
      assert.ok(r.items.length > 0);
      assert.ok(!JSON.stringify(r).includes("secret"), JSON.stringify(r));
      assert.match(r.reason!, /1 of 2 pages failed: redirect ×1/);
      const out = deliberated(
        await deliberate({ repo: ws.root, question, signingKey: generateSigningKey(), externalExperts: [expert()], useCache: false, force: true }),
      );
      assert.ok(out.receiptFile);
      assert.ok(out.evidence.some((e) => e.path_or_url === `${docs.origin}/page`), "the clean page is still in the evidence");
      const written = [...filesUnder(join(ws.root, ".deliberations")), ...filesUnder(cacheDir)];
      assert.ok(written.length >= 3);
      for (const f of written) assert.ok(!readFileSync(f, "utf8").includes("secret"), `${f} carries the password`);
    } finally {
      ws.cleanup();
    }
  });

  it("loadPage never stores a raw final URL that carries credentials, even if a fetch handed one back", async () => {
    const original = GuardedFetcher.prototype.fetch;
    GuardedFetcher.prototype.fetch = async function (this: GuardedFetcher, url: string, opts) {
      const res = await original.call(this, url, opts);
      return { ...res, finalUrl: `http://user:secret@${docs.hostPort}/page` };
    };
    const cacheDir = join(cacheRoot, "stubbed");
    try {
      const r = await createWebDocsExpert({ docsUrls: [`${docs.origin}/page`], allowHosts: [docs.hostPort], includeDefaultHosts: false, cacheDir }).run(
        expertContext({ terms: ["cache", "ttl"] }),
      );
      assert.equal(r.status, "empty");
      assert.match(r.reason!, /every fetch failed: redirect ×1/);
      assert.ok(!JSON.stringify(r).includes("secret"));
      assert.deepEqual(filesUnder(cacheDir), [], "nothing cached");
    } finally {
      GuardedFetcher.prototype.fetch = original;
    }
  });
});
