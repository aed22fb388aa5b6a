// Folders inside the user's cache folder (`web`, `corpus/<key>`, `v8`) that are symlinks leading out of it are not
// written through: whoever can write the cache folder could otherwise point every cache write (and the V8 cache's
// pruning) at a folder of their choosing. The history folder had this check; the web, corpus and V8 folders now share
// one (`cacheFolderRefusal`). Reads stay as they were: what is read back is sealed.
import assert from "node:assert/strict";
import { mkdirSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { cacheFolderRefusal } from "../../src/core/cacheDir";
import { forgetCacheSealKeys } from "../../src/core/cacheKey";
import { createWebDocsExpert } from "../../src/core/external/docsFetch";
import { writeSnapshot } from "../../src/core/internal/corpus/store";
import { expertContext, htmlPage, startServer, type TestServer } from "../fixtures/external/http";
import { makeTempDir } from "../helpers/gitRepo";

const saved = { XDG_CACHE_HOME: process.env.XDG_CACHE_HOME, DELIBERATIVE_KEY_DIR: process.env.DELIBERATIVE_KEY_DIR };
const dirs: string[] = [];
const temp = (prefix: string) => {
  const d = makeTempDir(prefix);
  dirs.push(d);
  return d;
};
const CACHE = temp("delib-cachelinks-");
const ROOT = join(CACHE, "deliberative-search");
process.env.XDG_CACHE_HOME = CACHE;
process.env.DELIBERATIVE_KEY_DIR = temp("delib-cachelinks-keys-");
after(() => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  forgetCacheSealKeys();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A fresh cache folder whose `name` is a symlink to a new folder outside it; returns that outside folder. */
function linkOut(name: string): string {
  rmSync(ROOT, { recursive: true, force: true });
  mkdirSync(ROOT, { recursive: true });
  const outside = temp("delib-cachelinks-outside-");
  mkdirSync(join(ROOT, name, ".."), { recursive: true });
  symlinkSync(outside, join(ROOT, name));
  return outside;
}

describe("cacheFolderRefusal", () => {
  it("refuses a folder reached through a link out of the cache folder, a dangling link too, and allows the rest", () => {
    linkOut("web");
    assert.match(cacheFolderRefusal(join(ROOT, "web")) ?? "", /is a symlink leading outside .*not writing through it/);
    assert.match(cacheFolderRefusal(join(ROOT, "web", "deeper")) ?? "", /symlink leading outside/);
    rmSync(join(ROOT, "web"));
    symlinkSync(join(CACHE, "..", "no-such-folder-anywhere"), join(ROOT, "web"));
    assert.match(cacheFolderRefusal(join(ROOT, "web")) ?? "", /symlink leading outside/);
    rmSync(join(ROOT, "web"));
    assert.equal(cacheFolderRefusal(join(ROOT, "web")), undefined, "a folder not there yet is created inside");
    mkdirSync(join(ROOT, "web"));
    assert.equal(cacheFolderRefusal(join(ROOT, "web")), undefined);
    // A link that stays inside the cache folder is only a detour.
    mkdirSync(join(ROOT, "elsewhere"));
    symlinkSync(join(ROOT, "elsewhere"), join(ROOT, "v8"));
    assert.equal(cacheFolderRefusal(join(ROOT, "v8")), undefined);
    // A folder the user named outside the cache folder is theirs to choose.
    assert.equal(cacheFolderRefusal(temp("delib-cachelinks-own-")), undefined);
  });
});

describe("cache writes through a folder that leads out", { timeout: 30_000 }, () => {
  let docs: TestServer;
  before(async () => {
    docs = await startServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(htmlPage("Job queues", [["Choosing a job queue", "RabbitMQ offers durable delivery for the job queue; Redis queues can lose jobs on failover."]]));
    });
  });
  after(() => docs.close());

  it("a corpus snapshot is not written, and says why", async () => {
    const outside = linkOut("corpus");
    await assert.rejects(writeSnapshot(join(ROOT, "corpus", "abc", "discovery-1.bin"), { set: [] }), /symlink leading outside/);
    assert.deepEqual(readdirSync(outside), []);
  });

  it("a fetched page is still used, but not cached through the link; the log says so", async () => {
    const outside = linkOut("web");
    const logs: string[] = [];
    const expert = createWebDocsExpert({ docsUrls: [`${docs.origin}/queues`], allowHosts: [docs.hostPort], includeDefaultHosts: false, cacheDir: join(ROOT, "web"), timeoutMs: 2000 });
    const r = await expert.run({ ...expertContext({ terms: ["rabbitmq", "redis", "queue"], question: "Redis or RabbitMQ for the job queue?" }), log: (l: string) => logs.push(l) });
    assert.equal(r.status, "ok", r.reason);
    assert.ok(r.items.some((i) => /durable delivery/.test(i.excerpt)));
    assert.deepEqual(readdirSync(outside), []);
    assert.ok(logs.some((l) => /cache write failed: cache folder .* is a symlink leading outside/.test(l)), logs.join("\n"));
  });
});
