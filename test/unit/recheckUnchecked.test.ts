// A cited web page the return-time re-check could not reach in time is neither confirmed nor failed; until now it
// was dropped from every report. The external stage's reason now says how many and why, in the payload's receipt and
// so in every reader (CLI "Stages" line, picker, MCP).
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { deliberate } from "../../src/core/pipeline";
import { createWebDocsExpert } from "../../src/core/external/docsFetch";
import { recheckExternalCitations } from "../../src/core/external/index";
import type { Citation } from "../../src/core/schemas";
import { generateSigningKey } from "../../src/core/receipts/signing";
import { htmlPage, startServer, type TestServer } from "../fixtures/external/http";
import { makeWorkspace } from "../fixtures/external/workspace";

const PAGE = htmlPage("Caching", [["Choosing a cache", "Redis keeps cache entries with a TTL and survives restarts with persistence; Memcached is simpler but loses every cache entry on restart. Prefer Redis for a shared cache."]]);

describe("web citations the return-time re-check leaves unchecked", { timeout: 60_000 }, () => {
  let docs: TestServer;
  let served = 0;
  before(async () => {
    // The first request gets the page. Later ones (the re-check probe) each wait 2 s and then redirect, within the
    // 2 redirects a probe follows and each within the per-request timeout, so only the shared deadline cuts them.
    docs = await startServer((req, res) => {
      if (served++ === 0) {
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        res.end(PAGE);
        return;
      }
      setTimeout(() => {
        res.writeHead(302, { location: `/caching?hop=${served}` });
        res.end();
      }, 2000);
    });
  });
  after(() => docs.close());

  it("are reported in the external stage's reason, not silently passed", async () => {
    const ws = makeWorkspace();
    try {
      const external = { docsUrls: [`${docs.origin}/caching`], allowHosts: [docs.hostPort], timeoutMs: 20_000 };
      const expert = createWebDocsExpert({ ...external, includeDefaultHosts: false });
      const out = await deliberate({ repo: ws.root, question: "Should we use Redis or Memcached for the shared cache?", signingKey: generateSigningKey(), writeReceipt: false, useCache: false, force: true, external, externalExperts: [expert] });
      assert.equal(out.kind, "deliberated");
      if (out.kind !== "deliberated") return;
      const cited = out.payload.citations.filter((c) => c.path_or_url.startsWith(docs.origin));
      assert.ok(cited.length >= 1, "the page is cited");
      assert.ok(cited.every((c) => !c.resolution_failed), "an unanswered probe does not fail the citation");
      assert.ok(served >= 2, "a re-check probe was sent");
      assert.match(out.receipt.stages.external?.reason ?? "", /\d+ cited web page\(s\) neither confirmed nor failed at return time \(not re-checked: the \d+ ms re-check deadline ran out\)/);
    } finally {
      ws.cleanup();
    }
  });
});

describe("the return-time re-check of installed-package citations stays inside the repository", () => {
  it("a committed node_modules/<dep> link out of the repository is not installed, and a file linked out of a package is not read", async () => {
    const ws = makeWorkspace();
    const outside = mkdtempSync(join(tmpdir(), "ds-recheck-outside-"));
    try {
      writeFileSync(join(outside, "package.json"), JSON.stringify({ name: "linked", version: "1.0.0" }));
      writeFileSync(join(outside, "README.md"), "# linked\nsecret line\n");
      symlinkSync(outside, join(ws.root, "node_modules", "linked"));
      // A real package whose README is a link out of it.
      mkdirSync(join(ws.root, "node_modules", "real"), { recursive: true });
      writeFileSync(join(ws.root, "node_modules", "real", "package.json"), JSON.stringify({ name: "real", version: "2.0.0" }));
      symlinkSync(join(outside, "README.md"), join(ws.root, "node_modules", "real", "README.md"));
      const cite = (id: string, path: string): Citation => ({ id, kind: "external", path_or_url: path, line_range: { start: 1, end: 2 }, title: path, excerpt: "x" }) as Citation;
      const r = await recheckExternalCitations([cite("ev-a", "npm:linked@1.0.0/README.md"), cite("ev-b", "npm:real@2.0.0/README.md")], { repo: ws.root, offline: true });
      assert.deepEqual(r.failed, ["ev-a", "ev-b"]);
      assert.match(r.reasons["ev-a"], /linked is no longer installed/);
    } finally {
      ws.cleanup();
      rmSync(outside, { recursive: true, force: true });
    }
  });
});
