import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { gzipSync } from "node:zlib";
import { FetchError, GuardedFetcher, summariseFailures, type LookupFn } from "../../src/core/external/fetch";
import { htmlPage, spyOnConnect, startServer, type TestServer } from "../fixtures/external/http";

const PAGE = htmlPage("Caching guide", [["Time to live", "Set a TTL on every cache key."]]);

describe("guarded fetch against real servers on 127.0.0.1", { timeout: 20_000 }, () => {
  let docs: TestServer;
  let other: TestServer; // a port that is NOT allow-listed: must never see a connection
  let spy: ReturnType<typeof spyOnConnect>;
  let inFlight = 0;
  let maxInFlight = 0;
  const timers = new Set<NodeJS.Timeout>();

  before(async () => {
    other = await startServer((_req, res) => res.end("should never be reached"));
    docs = await startServer((req, res) => {
      const url = new URL(req.url ?? "/", "http://x");
      switch (url.pathname) {
        case "/page":
          res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
          return res.end(PAGE);
        case "/latin1":
          res.writeHead(200, { "content-type": "text/plain; charset=iso-8859-1" });
          return res.end(Buffer.from([0x63, 0x61, 0x66, 0xe9]));
        case "/gz":
          res.writeHead(200, { "content-type": "text/markdown", "content-encoding": "gzip" });
          return res.end(gzipSync("# Hello\n\nzipped"));
        case "/hop1":
          res.writeHead(302, { location: "/hop2" });
          return res.end();
        case "/hop2":
          res.writeHead(301, { location: `${docs.origin}/page` });
          return res.end();
        case "/loop":
          res.writeHead(302, { location: "/loop" });
          return res.end();
        case "/to-private":
          res.writeHead(302, { location: "http://10.0.0.1/admin" });
          return res.end();
        case "/to-metadata":
          res.writeHead(307, { location: "http://169.254.169.254/latest/meta-data/" });
          return res.end();
        case "/to-other-port":
          res.writeHead(302, { location: `${other.origin}/secret` });
          return res.end();
        case "/to-rebound-name":
          // An allow-listed public name whose DNS answer (injected) is private.
          res.writeHead(302, { location: "http://docs.python.org/3/" });
          return res.end();
        case "/to-ftp":
          res.writeHead(302, { location: "ftp://docs.python.org/x" });
          return res.end();
        case "/slow": {
          res.writeHead(200, { "content-type": "text/html" });
          res.write("<html><body><p>start");
          const t = setTimeout(() => res.end("</p></body></html>"), 5000);
          timers.add(t);
          return;
        }
        case "/slow-headers": {
          const t = setTimeout(() => res.end("late"), 5000);
          timers.add(t);
          return;
        }
        case "/huge": {
          res.writeHead(200, { "content-type": "text/plain" });
          const chunk = "x".repeat(64 * 1024);
          let sent = 0;
          const pump = () => {
            while (sent < 64 && res.write(chunk)) sent++;
            if (sent >= 64) return res.end();
            sent++;
            res.once("drain", pump);
          };
          return pump();
        }
        case "/huge-declared":
          res.writeHead(200, { "content-type": "text/plain", "content-length": String(10 * 1024 * 1024) });
          return res.end("x");
        case "/image":
          res.writeHead(200, { "content-type": "image/png" });
          return res.end(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
        case "/json":
          res.writeHead(200, { "content-type": "application/json" });
          return res.end("{}");
        case "/no-type":
          res.writeHead(200);
          return res.end("untyped");
        case "/queued": {
          inFlight++;
          maxInFlight = Math.max(maxInFlight, inFlight);
          const t = setTimeout(() => {
            inFlight--;
            res.writeHead(200, { "content-type": "text/plain" });
            res.end("ok");
          }, 60);
          timers.add(t);
          return;
        }
        default:
          res.writeHead(404, { "content-type": "text/html" });
          return res.end("<h1>Not found</h1>");
      }
    });
    spy = spyOnConnect();
  });

  after(async () => {
    spy.restore();
    for (const t of timers) clearTimeout(t);
    await docs.close();
    await other.close();
  });

  const lookup: LookupFn = async (h) => {
    if (h === "docs.python.org") return [{ address: "10.0.0.7", family: 4 }];
    if (h === "mirror.internal") return [{ address: "127.0.0.1", family: 4 }];
    throw Object.assign(new Error("ENOTFOUND"), { code: "ENOTFOUND" });
  };
  const make = (over: Partial<ConstructorParameters<typeof GuardedFetcher>[0]> = {}) =>
    new GuardedFetcher({ allowHosts: [docs.hostPort], timeoutMs: 1500, lookup, ...over });

  async function failure(p: Promise<unknown>): Promise<FetchError> {
    const err = await p.then(
      () => assert.fail("expected a failure"),
      (e: unknown) => e,
    );
    assert.ok(err instanceof FetchError, String(err));
    return err;
  }

  it("fetches an allow-listed HTML page", async () => {
    const res = await make().fetch(`${docs.origin}/page`);
    assert.equal(res.status, 200);
    assert.equal(res.contentType, "text/html");
    assert.match(res.body, /Time to live/);
    assert.ok(!Number.isNaN(Date.parse(res.fetchedAt)));
    assert.deepEqual(res.redirects, []);
  });

  it("decodes the declared charset and gzip bodies", async () => {
    assert.equal((await make().fetch(`${docs.origin}/latin1`)).body, "café");
    assert.equal((await make().fetch(`${docs.origin}/gz`)).body, "# Hello\n\nzipped");
  });

  it("follows redirects, re-checking each hop", async () => {
    const res = await make().fetch(`${docs.origin}/hop1`);
    assert.equal(res.finalUrl, `${docs.origin}/page`);
    assert.deepEqual(res.redirects, [`${docs.origin}/hop1`, `${docs.origin}/hop2`]);
  });

  it("stops after 5 redirects", async () => {
    const err = await failure(make().fetch(`${docs.origin}/loop`));
    assert.equal(err.kind, "redirect");
    assert.match(err.message, /more than 5 redirects/);
  });

  it("refuses a redirect to a private address, opening no socket to it", async () => {
    assert.equal((await failure(make().fetch(`${docs.origin}/to-private`))).kind, "not-allowed");
    assert.equal((await failure(make().fetch(`${docs.origin}/to-metadata`))).kind, "not-allowed");
    const rebound = await failure(make().fetch(`${docs.origin}/to-rebound-name`));
    assert.equal(rebound.kind, "private-address");
    assert.match(rebound.message, /10\.0\.0\.7/);
    const hosts = spy.calls.map((c) => c.host);
    for (const bad of ["10.0.0.1", "169.254.169.254", "10.0.0.7", "docs.python.org"]) assert.ok(!hosts.includes(bad), `connected to ${bad}`);
  });

  it("refuses a redirect to 127.0.0.1 on a port that is not allow-listed: that server sees no connection", async () => {
    const err = await failure(make().fetch(`${docs.origin}/to-other-port`));
    assert.equal(err.kind, "not-allowed");
    assert.equal(other.connections, 0);
    assert.ok(!spy.calls.some((c) => c.port === other.port));
  });

  it("refuses a redirect to another scheme", async () => {
    assert.equal((await failure(make().fetch(`${docs.origin}/to-ftp`))).kind, "scheme");
  });

  it("refuses 127.0.0.1 when it is not explicitly configured", async () => {
    const f = new GuardedFetcher({ timeoutMs: 1000, publicHosts: [docs.origin] });
    const err = await failure(f.fetch(`${docs.origin}/page`));
    assert.equal(err.kind, "private-address");
  });

  it("connects to the checked address with the configured name in the Host header", async () => {
    const f = make({ allowHosts: [`mirror.internal:${docs.port}`] });
    const before = docs.hosts.length;
    const res = await f.fetch(`http://mirror.internal:${docs.port}/page`);
    assert.equal(res.status, 200);
    assert.equal(docs.hosts[before], `mirror.internal:${docs.port}`);
    // The spy sees real connects (so its silence elsewhere means something).
    assert.ok(spy.calls.some((c) => c.port === docs.port));
  });

  it("times out a response that stalls mid-body and one that never sends headers", async () => {
    const t0 = Date.now();
    assert.equal((await failure(make({ timeoutMs: 300 }).fetch(`${docs.origin}/slow`))).kind, "timeout");
    assert.equal((await failure(make({ timeoutMs: 300 }).fetch(`${docs.origin}/slow-headers`))).kind, "timeout");
    assert.ok(Date.now() - t0 < 2500);
  });

  it("aborts a streamed response past the size cap, and refuses a declared oversize body up front", async () => {
    const err = await failure(make({ maxBytes: 256 * 1024 }).fetch(`${docs.origin}/huge`));
    assert.equal(err.kind, "too-large");
    assert.match(err.message, /262144/);
    const declared = await failure(make().fetch(`${docs.origin}/huge-declared`));
    assert.equal(declared.kind, "too-large");
  });

  it("classifies non-text content types", async () => {
    const png = await failure(make().fetch(`${docs.origin}/image`));
    assert.equal(png.kind, "content-type");
    assert.match(png.message, /image\/png/);
    assert.equal((await failure(make().fetch(`${docs.origin}/json`))).kind, "content-type");
    assert.equal((await failure(make().fetch(`${docs.origin}/no-type`))).kind, "content-type");
    // …unless the caller asks for that type (the SearxNG JSON call does).
    assert.equal((await make().fetch(`${docs.origin}/json`, { accept: ["application/json"] })).body, "{}");
  });

  it("classifies HTTP errors", async () => {
    const err = await failure(make().fetch(`${docs.origin}/missing`));
    assert.equal(err.kind, "http-status");
    assert.equal(err.status, 404);
  });

  it("a probe resolves at the headers, and fails on 404", async () => {
    const res = await make().fetch(`${docs.origin}/hop1`, { probe: true });
    assert.equal(res.status, 200);
    assert.equal((await failure(make().fetch(`${docs.origin}/missing`, { probe: true }))).kind, "http-status");
  });

  it("makes one request at a time per host", async () => {
    const f = make();
    maxInFlight = 0;
    const results = await Promise.all([1, 2, 3, 4].map((i) => f.fetch(`${docs.origin}/queued?i=${i}`)));
    assert.equal(results.length, 4);
    assert.equal(maxInFlight, 1);
  });

  it("enforces the page budget (unbudgeted requests do not count)", async () => {
    const f = make({ pageBudget: 2 });
    await f.fetch(`${docs.origin}/page`);
    await f.fetch(`${docs.origin}/json`, { accept: ["application/json"], budget: false });
    await f.fetch(`${docs.origin}/page`);
    assert.equal(f.pagesFetched, 2);
    assert.equal((await failure(f.fetch(`${docs.origin}/page`))).kind, "budget");
  });

  it("is cancellable: in flight and while queued behind another request to the same host", async () => {
    const f = make({ timeoutMs: 5000 });
    const ac = new AbortController();
    const first = f.fetch(`${docs.origin}/slow`, { signal: ac.signal });
    const queued = f.fetch(`${docs.origin}/page`, { signal: ac.signal });
    setTimeout(() => ac.abort(), 100);
    const t0 = Date.now();
    assert.equal((await failure(first)).kind, "aborted");
    assert.equal((await failure(queued)).kind, "aborted");
    assert.ok(Date.now() - t0 < 1500);
    assert.equal((await failure(f.fetch(`${docs.origin}/page`, { signal: ac.signal }))).kind, "aborted");
  });

  it("summarises failures by class", () => {
    const s = summariseFailures([
      new FetchError("timeout", "t", "u"),
      new FetchError("http-status", "HTTP 404", "u", 404),
      new FetchError("timeout", "t", "u"),
    ]);
    assert.equal(s, "timeout ×2, http 404 ×1");
  });
});
