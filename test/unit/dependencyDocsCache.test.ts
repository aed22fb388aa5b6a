// The installed dependency docs kept between questions (src/core/external/dependencyCache.ts): a kept result gives
// exactly what locating and reading afresh gives, and any change to what was read, listed or looked for is seen.
import { describe, it, beforeEach, afterEach } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, rmSync, statSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { createDependencyDocsExpert } from "../../src/core/external/dependencyDocs";
import { forgetKeptDependencyDocs, keptDependencyDocsHits } from "../../src/core/external/dependencyCache";
import type { ExpertResult } from "../../src/core/types";
import { expertContext } from "../fixtures/external/http";
import { makeWorkspace, writeFiles } from "../fixtures/external/workspace";

/** Every file and folder an hour old: a stat taken now can then vouch for them (fingerprint.ts's racy window). */
function age(root: string): void {
  const past = new Date(Date.now() - 3_600_000);
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const abs = join(dir, name);
      if (statSync(abs).isDirectory()) walk(abs);
      utimesSync(abs, past, past);
    }
  };
  walk(root);
  utimesSync(root, past, past);
}

const QUESTION = { terms: ["cache", "ttl", "eviction", "logging", "retries"], expansions: ["log"] };

async function ask(root: string, opts: Parameters<typeof createDependencyDocsExpert>[0] = {}): Promise<ExpertResult> {
  return createDependencyDocsExpert(opts).run(expertContext({ repo: root, ...QUESTION }));
}

/** The same question with nothing kept: what the kept result must equal. */
async function uncached(root: string, opts: Parameters<typeof createDependencyDocsExpert>[0] = {}): Promise<ExpertResult> {
  forgetKeptDependencyDocs();
  const r = await ask(root, opts);
  forgetKeptDependencyDocs();
  return r;
}

describe("installed dependency docs kept between questions", { timeout: 20_000 }, () => {
  let ws: ReturnType<typeof makeWorkspace>;
  beforeEach(() => {
    ws = makeWorkspace();
    age(ws.root);
    forgetKeptDependencyDocs();
  });
  afterEach(() => ws.cleanup());

  it("answers from the kept docs exactly as from a fresh read, for any question", async () => {
    const first = await ask(ws.root);
    const hits = keptDependencyDocsHits();
    const second = await ask(ws.root);
    assert.equal(keptDependencyDocsHits(), hits + 1, "the second question reused the kept docs");
    assert.deepEqual(second, first);
    assert.deepEqual(second, await uncached(ws.root));
    await ask(ws.root);
    const other = await createDependencyDocsExpert().run(expertContext({ repo: ws.root, terms: ["http", "retry", "backoff"] }));
    forgetKeptDependencyDocs();
    assert.deepEqual(other, await createDependencyDocsExpert().run(expertContext({ repo: ws.root, terms: ["http", "retry", "backoff"] })));
  });

  it("keeps results apart by options", async () => {
    await ask(ws.root);
    const capped = await ask(ws.root, { maxFilesPerPackage: 1 });
    assert.deepEqual(capped, await uncached(ws.root, { maxFilesPerPackage: 1 }));
  });

  it("reads again when a doc file changes, a package or docs folder gains a file, or a declared package is installed", async () => {
    await ask(ws.root);
    writeFiles(ws.root, { "node_modules/cache-lib/README.md": "# cache-lib\n\n## Eviction\n\nEntries are evicted by a background sweep every TTL.\n" });
    let r = await ask(ws.root);
    assert.ok(r.items.some((i) => i.excerpt.includes("background sweep")), "the changed README is read");
    assert.deepEqual(r, await uncached(ws.root));

    age(ws.root);
    await ask(ws.root);
    writeFiles(ws.root, { "node_modules/cache-lib/docs/guide/deep/eviction.md": "# Eviction tuning\n\nRaise the eviction batch for large caches.\n" });
    r = await ask(ws.root);
    assert.ok(r.items.some((i) => i.path_or_url === "npm:cache-lib@2.1.3/docs/guide/deep/eviction.md"), "a new file in a new docs sub-folder is found");
    assert.deepEqual(r, await uncached(ws.root));

    age(ws.root);
    await ask(ws.root);
    writeFiles(ws.root, { "node_modules/old-logger/CHANGELOG.md": "# Changelog\n\n## 1.4.1\n\n- Logging of cache eviction and TTL expiry, with retries.\n" });
    r = await ask(ws.root);
    assert.ok(r.items.some((i) => i.path_or_url === "npm:old-logger@1.4.0/CHANGELOG.md"), "a changelog added beside the README is read");
    assert.deepEqual(r, await uncached(ws.root));

    age(ws.root);
    await ask(ws.root);
    writeFiles(ws.root, {
      "node_modules/not-installed/package.json": JSON.stringify({ name: "not-installed", version: "1.0.2" }),
      "node_modules/not-installed/README.md": "# not-installed\n\n## Retries\n\nRetries back off with a logging hook.\n",
    });
    r = await ask(ws.root);
    assert.ok(r.items.some((i) => i.package === "not-installed"), "the newly installed package is read");
    assert.deepEqual(r, await uncached(ws.root));
  });

  it("sees a Go module vendored and a virtualenv made after the first question", async () => {
    const root = ws.root;
    writeFiles(root, {
      "requirements.txt": "retrylib==1.2.0\n",
      "go.mod": "module example.com/app\n\ngo 1.22\n\nrequire (\n\tgithub.com/example/backoff v1.0.0\n\tgithub.com/example/jitter v0.3.0\n)\n",
      "vendor/github.com/example/backoff/README.md": "# backoff\n\n## Retries\n\nExponential backoff for retries.\n",
    });
    age(root);
    const opts = { goModCache: join(root, "no-cache") };
    await ask(root, opts);
    writeFiles(root, { "vendor/github.com/example/jitter/README.md": "# jitter\n\n## Retries\n\nJitter spreads retries out.\n" });
    let r = await ask(root, opts);
    assert.ok(r.items.some((i) => i.package === "github.com/example/jitter"), JSON.stringify(r.items.map((i) => i.path_or_url)));
    assert.deepEqual(r, await uncached(root, opts));

    age(root);
    await ask(root, opts);
    writeFiles(root, {
      ".venv/lib/python3.12/site-packages/retrylib-1.2.0.dist-info/METADATA": "Metadata-Version: 2.1\nName: retrylib\nVersion: 1.2.0\n\n# retrylib\n\n## Retries\n\nRetries with logging.\n",
    });
    r = await ask(root, opts);
    assert.ok(r.items.some((i) => i.package === "retrylib"), "the new virtualenv's package is read");
    assert.deepEqual(r, await uncached(root, opts));

    rmSync(join(root, "vendor", "github.com", "example", "jitter"), { recursive: true });
    r = await ask(root, opts);
    assert.ok(!r.items.some((i) => i.package === "github.com/example/jitter"), "a removed module is gone");
  });
});
