import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createHash } from "node:crypto";
import { cacheFileFor, createWebDocsExpert, parseSearxResults, searxSearchUrl, type CachedPage, type WebDocsOptions } from "../../src/core/external/docsFetch";
import { buildExternalExperts, recheckExternalCitations } from "../../src/core/external/index";
import { deliberate } from "../../src/core/pipeline";
import { generateSigningKey } from "../../src/core/receipts/signing";
import { EvidenceItemSchema, type Citation } from "../../src/core/schemas";
import { expertContext, htmlPage, spyOnConnect, startServer, type TestServer } from "../fixtures/external/http";
import { makeWorkspace } from "../fixtures/external/workspace";

const CACHING = htmlPage("Caching best practices", [
  ["Time to live", "Always set a TTL on cache entries so stale data expires. Short TTLs suit session data; long TTLs suit reference data."],
  ["Eviction", "Configure an eviction policy such as LRU so the cache never exceeds its memory limit."],
  ["Unrelated", "Colours of the office walls."],
]);
const QUEUES = htmlPage("Message queues", [["Delivery", "At-least-once delivery needs idempotent consumers."]]);
const FIXED_NOW = new Date("2026-03-01T12:00:00.000Z");

describe("web docs expert against real servers", { timeout: 30_000 }, () => {
  let docs: TestServer;
  let searx: TestServer;
  let cacheRoot: string;
  let gone = false;
  let searxStatus = 200;
  const timers = new Set<NodeJS.Timeout>();

  before(async () => {
    cacheRoot = mkdtempSync(join(tmpdir(), "ds-ext-cache-"));
    docs = await startServer((req, res) => {
      const path = new URL(req.url ?? "/", "http://x").pathname;
      if (path === "/guide/caching" && !gone) {
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        return res.end(CACHING);
      }
      if (path === "/guide/queues") {
        res.writeHead(200, { "content-type": "text/html" });
        return res.end(QUEUES);
      }
      if (path === "/notes.md") {
        res.writeHead(200, { "content-type": "text/markdown" });
        return res.end("# Notes\n\n## Cache keys\n\nNamespace cache keys by tenant.\n");
      }
      if (path === "/image.png") {
        res.writeHead(200, { "content-type": "image/png" });
        return res.end(Buffer.from([0x89, 0x50]));
      }
      if (path === "/slow") {
        timers.add(setTimeout(() => res.end("late"), 5000));
        return;
      }
      if (path === "/to-private") {
        res.writeHead(302, { location: "http://10.0.0.1/" });
        return res.end();
      }
      res.writeHead(404, { "content-type": "text/html" });
      res.end("<h1>Not found</h1>");
    });
    searx = await startServer((req, res) => {
      if (searxStatus !== 200) {
        res.writeHead(searxStatus);
        return res.end();
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          query: new URL(req.url ?? "/", "http://x").searchParams.get("q"),
          results: [
            { url: `${docs.origin}/guide/caching#ttl`, title: "Caching", engine: "duckduckgo" },
            { url: "https://blog.example.com/caching-tips", title: "Blog", engine: "bing" },
            { url: "http://10.0.0.1/internal", title: "Intranet" },
            { url: `${docs.origin}/notes.md`, title: "Notes" },
            { url: `${docs.origin}/missing`, title: "Gone" },
            { url: "ftp://files.example/x", title: "ftp" },
            { title: "no url" },
          ],
        }),
      );
    });
  });

  after(async () => {
    for (const t of timers) clearTimeout(t);
    await docs.close();
    await searx.close();
    rmSync(cacheRoot, { recursive: true, force: true });
  });

  const opts = (over: Partial<WebDocsOptions> = {}): WebDocsOptions => ({
    docsUrls: [],
    allowHosts: [docs.hostPort],
    timeoutMs: 1500,
    now: () => FIXED_NOW,
    includeDefaultHosts: false,
    ...over,
  });
  const ctx = (terms = ["cache", "ttl", "eviction"], over: Parameters<typeof expertContext>[0] extends infer T ? Partial<T> : never = {}) =>
    expertContext({ terms, question: "Should we set a TTL on every cache entry?", ...over });

  it("builds the SearxNG query URL and parses its results", () => {
    assert.equal(searxSearchUrl("http://searx.lan:8888/sx", "a b"), "http://searx.lan:8888/sx/search?q=a+b&format=json");
    assert.deepEqual(parseSearxResults('{"results":[{"url":"https://a/"},{"x":1}]}'), ["https://a/"]);
    assert.throws(() => parseSearxResults("<html>"), /not JSON/);
  });

  it("cites docs pages and allow-listed SearxNG results with URL, fetched_at and section line ranges", async () => {
    const cacheDir = join(cacheRoot, "a");
    const expert = createWebDocsExpert(opts({ docsUrls: [`${docs.origin}/guide/queues`], searxngUrl: searx.origin, cacheDir }));
    assert.equal(expert.name, "web");
    assert.equal(expert.kind, "external");
    assert.notEqual(expert.offlineCapable, true);
    const searxBefore = searx.requests.length;
    const r = await expert.run(ctx());
    assert.equal(r.status, "ok", r.reason);
    // SearxNG was asked once, with the plan keywords, for JSON.
    assert.equal(searx.requests.length, searxBefore + 1);
    const q = new URL(searx.requests[searxBefore], "http://x").searchParams;
    assert.equal(q.get("q"), "cache ttl eviction");
    assert.equal(q.get("format"), "json");
    for (const i of r.items) assert.ok(EvidenceItemSchema.safeParse(i).success);
    const ttl = r.items.find((i) => i.title?.includes("Time to live"));
    assert.ok(ttl, JSON.stringify(r.items, null, 1));
    assert.equal(ttl.path_or_url, `${docs.origin}/guide/caching`);
    assert.equal(ttl.kind, "external");
    assert.equal(ttl.source_type, "web");
    assert.equal(ttl.expert, "web");
    assert.equal(ttl.fetched_at, FIXED_NOW.toISOString());
    assert.equal(ttl.precision_class, "section");
    assert.ok(ttl.line_range && ttl.line_range.start >= 1);
    assert.match(ttl.excerpt, /Always set a TTL/);
    assert.equal(ttl.title, "Caching best practices — Time to live");
    assert.ok(r.items.some((i) => i.path_or_url === `${docs.origin}/notes.md`), "markdown result used");
    assert.ok(!r.items.some((i) => /Colours/.test(i.excerpt)), "unrelated section not cited");
    // Every URL discovered is listed, allow-listed or not, so the allow-list can grow deliberately.
    for (const u of [`${docs.origin}/guide/caching`, `${docs.origin}/guide/queues`, "https://blog.example.com/caching-tips", "http://10.0.0.1/internal", `${docs.origin}/missing`]) {
      assert.ok(r.sources?.includes(u), `sources lists ${u}`);
    }
    assert.match(r.reason!, /not on the allow-list: 10\.0\.0\.1, blog\.example\.com \(add with --allow-host\)/);
    assert.match(r.reason!, /1 of 4 pages failed: http 404 ×1/);
    // Never fetched: the refused hosts.
    assert.ok(!docs.requests.some((p) => p.includes("internal")));
    // The page is cached with fetched_at and a content hash of what was received.
    const cached = JSON.parse(readFileSync(cacheFileFor(cacheDir, `${docs.origin}/guide/caching`), "utf8")) as CachedPage;
    assert.equal(cached.fetched_at, FIXED_NOW.toISOString());
    assert.equal(cached.content_hash, createHash("sha256").update(CACHING).digest("hex"));
    assert.equal(cached.content_type, "text/html");
    assert.ok(cached.sections.length >= 3);
  });

  it("serves a fresh cached page without a request; an expired one is fetched again", async () => {
    const cacheDir = join(cacheRoot, "b");
    const url = `${docs.origin}/guide/caching`;
    await createWebDocsExpert(opts({ docsUrls: [url], cacheDir })).run(ctx());
    const count = () => docs.requests.filter((p) => p === "/guide/caching").length;
    const before = count();
    const later = new Date(FIXED_NOW.getTime() + 60 * 60 * 1000);
    const r = await createWebDocsExpert(opts({ docsUrls: [url], cacheDir, now: () => later })).run(ctx());
    assert.equal(r.status, "ok");
    assert.equal(count(), before, "no request for a cached page");
    assert.equal(r.items[0].fetched_at, FIXED_NOW.toISOString(), "fetched_at is when it was fetched, not now");
    const muchLater = new Date(FIXED_NOW.getTime() + 48 * 60 * 60 * 1000);
    const r2 = await createWebDocsExpert(opts({ docsUrls: [url], cacheDir, now: () => muchLater })).run(ctx());
    assert.equal(count(), before + 1);
    assert.equal(r2.items[0].fetched_at, muchLater.toISOString());
  });

  it("empty with classified reasons when every fetch failed", async () => {
    const r = await createWebDocsExpert(
      opts({ timeoutMs: 300, docsUrls: [`${docs.origin}/missing`, `${docs.origin}/image.png`, `${docs.origin}/slow`, `${docs.origin}/to-private`] }),
    ).run(ctx());
    assert.equal(r.status, "empty");
    assert.equal(r.items.length, 0);
    assert.match(r.reason!, /^every fetch failed: /);
    for (const k of ["content-type ×1", "http 404 ×1", "timeout ×1", "not-allowed ×1"]) assert.ok(r.reason!.includes(k), `${k} in ${r.reason}`);
  });

  it("empty with a reason when nothing matched", async () => {
    const r = await createWebDocsExpert(opts({ docsUrls: [`${docs.origin}/guide/queues`] })).run(ctx(["kubernetes", "helm"]));
    assert.equal(r.status, "empty");
    assert.match(r.reason!, /^nothing matched in 1 fetched page/);
  });

  it("a failing SearxNG is reported, the docs URLs still count", async () => {
    searxStatus = 500;
    try {
      const r = await createWebDocsExpert(opts({ docsUrls: [`${docs.origin}/guide/caching`], searxngUrl: searx.origin })).run(ctx());
      assert.equal(r.status, "ok");
      assert.match(r.reason!, /SearxNG query failed: http-status: HTTP 500/);
    } finally {
      searxStatus = 200;
    }
  });

  it("stops at the page budget and says it was truncated", async () => {
    const r = await createWebDocsExpert(
      opts({ pageBudget: 1, docsUrls: [`${docs.origin}/guide/caching`, `${docs.origin}/guide/queues`, `${docs.origin}/notes.md`] }),
    ).run(ctx());
    assert.equal(r.status, "ok");
    assert.equal(r.truncated, true);
    assert.match(r.reason!, /budget ×2/);
  });

  it("is cancelled by the pipeline's signal", async () => {
    const ac = new AbortController();
    const p = createWebDocsExpert(opts({ timeoutMs: 5000, docsUrls: [`${docs.origin}/slow`] })).run(ctx(undefined, { signal: ac.signal }));
    setTimeout(() => ac.abort(new Error("user cancelled")), 100);
    await assert.rejects(p, /user cancelled/);
  });

  it("re-checks cited URLs at return time: a page that now 404s fails; offline leaves them unchecked", async () => {
    const url = `${docs.origin}/guide/caching`;
    const r = await createWebDocsExpert(opts({ docsUrls: [url] })).run(ctx());
    const cits: Citation[] = r.items.map((i) => ({ id: i.id, kind: i.kind, path_or_url: i.path_or_url, fetched_at: i.fetched_at, precision_class: i.precision_class, excerpt: i.excerpt }));
    const base = { repo: cacheRoot, allowHosts: [docs.hostPort], timeoutMs: 1000 };
    let check = await recheckExternalCitations(cits, base);
    assert.deepEqual(check.failed, []);
    assert.equal(check.checked, cits.length);
    gone = true;
    try {
      check = await recheckExternalCitations(cits, base);
      assert.deepEqual(check.failed, cits.map((c) => c.id));
      assert.match(check.reasons[cits[0].id], /http-status: HTTP 404/);
      const requestsBefore = docs.requests.length;
      check = await recheckExternalCitations(cits, { ...base, offline: true });
      assert.deepEqual(check.failed, []);
      assert.deepEqual(check.unchecked, cits.map((c) => c.id));
      assert.equal(docs.requests.length, requestsBefore);
      // Not allow-listed any more: refused by the guard, reported as failed, never requested.
      gone = false;
      check = await recheckExternalCitations(cits, { repo: cacheRoot, timeoutMs: 1000 });
      assert.equal(check.failed.length, cits.length);
      assert.match(check.reasons[cits[0].id], /^(private-address|not-allowed)/);
      assert.equal(docs.requests.length, requestsBefore);
    } finally {
      gone = false;
    }
  });
});

describe("offline mode makes no network request at all", { timeout: 30_000 }, () => {
  let counting: TestServer;
  let ws: ReturnType<typeof makeWorkspace>;
  let spy: ReturnType<typeof spyOnConnect>;
  before(async () => {
    counting = await startServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/html" });
      res.end(CACHING);
    });
    ws = makeWorkspace();
    spy = spyOnConnect();
  });
  after(async () => {
    spy.restore();
    await counting.close();
    ws.cleanup();
  });

  it("buildExternalExperts: deps always, web only online with a URL or SearxNG", () => {
    const names = (o: Partial<Parameters<typeof buildExternalExperts>[0]>) => buildExternalExperts({ offline: false, repo: ws.root, ...o }).map((e) => e.name);
    assert.deepEqual(names({}), ["deps"]);
    assert.deepEqual(names({ docsUrls: [counting.origin] }), ["deps", "web"]);
    assert.deepEqual(names({ searxngUrl: counting.origin }), ["deps", "web"]);
    assert.deepEqual(names({ offline: true, docsUrls: [counting.origin], searxngUrl: counting.origin, allowHosts: [counting.hostPort] }), ["deps"]);
  });

  it("the web expert itself refuses to run offline", async () => {
    const web = createWebDocsExpert({ docsUrls: [`${counting.origin}/x`], searxngUrl: counting.origin, allowHosts: [counting.hostPort] });
    const r = await web.run(expertContext({ terms: ["cache"], offline: true }));
    assert.equal(r.status, "empty");
    assert.match(r.reason!, /^offline/);
  });

  it("a whole offline deliberation cites dependency docs and opens no socket", async () => {
    const external = [
      ...buildExternalExperts({ offline: true, repo: ws.root, docsUrls: [`${counting.origin}/x`], searxngUrl: counting.origin, allowHosts: [counting.hostPort] }),
      // Even a networked expert handed to the pipeline directly is skipped offline.
      createWebDocsExpert({ docsUrls: [`${counting.origin}/y`], allowHosts: [counting.hostPort] }),
    ];
    const out = await deliberate({
      repo: ws.root,
      question: "Should we use cache-lib with a TTL and LRU eviction for caching?",
      signingKey: generateSigningKey(),
      config: { offline: true },
      externalExperts: external,
      writeReceipt: false,
      useCache: false,
      force: true,
    });
    assert.equal(out.kind, "deliberated");
    if (out.kind !== "deliberated") return;
    assert.equal(out.receipt.stages["external:deps"]?.status, "ok", JSON.stringify(out.receipt.stages));
    assert.equal(out.receipt.stages["external:web"], undefined);
    const deps = out.evidence.filter((e) => e.expert === "deps");
    assert.ok(deps.length > 0);
    for (const e of deps) {
      assert.match(e.path_or_url, /^npm:[^@]+@\d+\.\d+\.\d+\//);
      assert.ok(e.line_range);
      assert.ok(e.fetched_at);
    }
    assert.equal(counting.connections, 0);
    assert.deepEqual(spy.calls, []);
    assert.ok(!existsSync(join(ws.root, ".deliberations", "cache", "web")) || readdirSync(join(ws.root, ".deliberations", "cache", "web")).length === 0);
  });
});
