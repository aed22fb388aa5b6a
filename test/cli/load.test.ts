// Load: 20 concurrent CLI deliberations (some asking the same question, some fetching the same web page) plus 20
// concurrent picks on one receipt, all against one repository. Afterwards every receipt verifies, every pick that
// reported success is in the signed history, every cache file (turn cache and web cache) is well-formed, and no
// .tmp / .lock file is left anywhere.
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { CachedPageSchema } from "../../src/core/external/docsFetch";
import { ReceiptSchema } from "../../src/core/schemas";
import { readTurnCacheEntry } from "../../src/core/turnCache";
import { createSampleRepo } from "../fixtures/sampleRepo";
import { assertCliBuilt, runCliAsync } from "../helpers/cli";
import { makeTempDir } from "../helpers/gitRepo";

const QUESTIONS = [
  "Should we store orders in MongoDB or PostgreSQL?",
  "Should we adopt winston for logging?",
  "Redux or Zustand for the cart state?",
  "Should we use REST or GraphQL for the public API?",
  "Should we use pino or winston for logging?",
];

function runAsync(env: NodeJS.ProcessEnv, args: string[]) {
  return runCliAsync(args, { env });
}

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.push(p);
    }
  };
  if (existsSync(dir)) walk(dir);
  return out;
}

function pct(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
}

describe("load: 20 concurrent deliberations and 20 concurrent picks on one repository", { timeout: 300_000 }, () => {
  let server: Server;
  let hostPort: string;
  before(async () => {
    server = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(`<html><head><title>Logging guide</title></head><body><article><h1>Logging in Node.js</h1>
        <h2>Structured logging</h2><p>We recommend pino for structured JSON logging in production services; winston is slower.</p></article></body></html>`);
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    hostPort = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => server.close());

  test("every receipt valid, every reported pick recorded, no corrupt cache, no leftover .tmp/.lock", async (t) => {
    assertCliBuilt();
    const repo = createSampleRepo();
    const cacheHome = makeTempDir("delib-load-cache-");
    const env = { ...process.env, DELIBERATIVE_KEY_DIR: makeTempDir("delib-load-keys-"), XDG_CACHE_HOME: cacheHome };

    const seed = await runAsync(env, [QUESTIONS[0], "--repo", repo, "--json"]);
    assert.equal(seed.code, 0, seed.stderr);
    const target = JSON.parse(seed.stdout) as { receipt_ref: string; options: { id: string }[] };

    const t0 = performance.now();
    const deliberations = Array.from({ length: 20 }, (_, i) => {
      const args = [QUESTIONS[i % QUESTIONS.length], "--repo", repo, "--json"];
      // A quarter fetch the same page (concurrent web-cache writes); a quarter skip the turn cache.
      if (i % 4 === 1) args.push("--docs-url", `http://${hostPort}/guide/logging`, "--allow-host", hostPort);
      if (i % 4 === 2) args.push("--no-cache");
      return runAsync(env, args);
    });
    const picks = Array.from({ length: 20 }, (_, i) =>
      runAsync(env, ["pick", target.receipt_ref, target.options[i % target.options.length].id, "--reason", `load pick ${i}`, "--repo", repo]),
    );
    const [dRuns, pRuns] = await Promise.all([Promise.all(deliberations), Promise.all(picks)]);
    const wall = performance.now() - t0;

    dRuns.forEach((r, i) => assert.equal(r.code, 0, `deliberation ${i}: ${r.stderr}`));
    const reported = pRuns.map((r, i) => ({ r, i })).filter(({ r }) => r.code === 0);
    for (const { r, i } of pRuns.map((r, i) => ({ r, i })).filter(({ r }) => r.code !== 0)) {
      // A pick may only fail loudly (the lock wait ran out), never silently.
      assert.match(r.stderr, /another writer holds .*nothing was written/, `pick ${i}: ${r.stderr}`);
    }
    assert.ok(reported.length >= 18, `most picks succeed (${reported.length}/20)`);

    // Every receipt verifies (signature, own key, evidence hashes).
    const verify = await runAsync(env, ["verify", "--repo", repo, "--json"]);
    assert.equal(verify.code, 0, verify.stdout.slice(0, 2000));
    const rows = JSON.parse(verify.stdout) as { ok: boolean; signature: string; evidence: string }[];
    assert.ok(rows.length >= 2, `receipts: ${rows.length}`);
    for (const row of rows) assert.deepEqual([row.ok, row.signature, row.evidence], [true, "valid", "intact"]);

    // Every pick that said it was recorded is in the signed history, in the order the lock granted.
    const receipt = ReceiptSchema.parse(JSON.parse(readFileSync(join(repo, ".deliberations", `${target.receipt_ref}.json`), "utf8")));
    const reasons = new Set(receipt.picks?.map((p) => p.reason));
    for (const { i } of reported) assert.ok(reasons.has(`load pick ${i}`), `pick ${i} recorded`);
    assert.equal(receipt.picks?.length, reported.length);

    // No corrupt cache: every turn-cache entry and web-cache page parses with its schema.
    const turn = filesUnder(join(repo, ".deliberations", "cache")).filter((f) => f.endsWith(".json"));
    assert.ok(turn.length > 0, "turn cache entries were written");
    for (const f of turn) assert.ok(await readTurnCacheEntry(f), `turn cache entry ${f} is well-formed`);
    const web = filesUnder(join(cacheHome, "deliberative-search", "web")).filter((f) => f.endsWith(".json"));
    assert.ok(web.length <= 1, `at most one cached page (one URL), got ${web.length}`);
    for (const f of web) CachedPageSchema.parse(JSON.parse(readFileSync(f, "utf8")));

    const leftovers = [...filesUnder(join(repo, ".deliberations")), ...filesUnder(cacheHome)].filter((f) => /\.(tmp|lock|stale)$/.test(f));
    assert.deepEqual(leftovers, []);

    const dMs = dRuns.map((r) => r.ms);
    const pMs = pRuns.map((r) => r.ms);
    t.diagnostic(
      `load: wall ${Math.round(wall)} ms for 40 processes; deliberation p50 ${Math.round(pct(dMs, 50))} / p95 ${Math.round(pct(dMs, 95))} ms; ` +
        `pick p50 ${Math.round(pct(pMs, 50))} / p95 ${Math.round(pct(pMs, 95))} ms; ${reported.length}/20 picks recorded; ${rows.length} receipts verified`,
    );
  });
});
