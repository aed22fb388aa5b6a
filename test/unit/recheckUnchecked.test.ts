// A cited web page the return-time re-check could not reach in time is neither confirmed nor failed; until now it
// was dropped from every report. The external stage's reason now says how many and why, in the payload's receipt and
// so in every reader (CLI "Stages" line, picker, MCP).
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { deliberate } from "../../src/core/pipeline";
import { createWebDocsExpert } from "../../src/core/external/docsFetch";
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
