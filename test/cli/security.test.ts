// Issue 10, one test (group) per finding of the adversarial pass, each against real git repositories in temp dirs
// and the built CLI (dist/cli.js) run as real processes. Every one of them failed on the code before the fix.
// DELIBERATE_TEST_CLI runs them against another build (see test/helpers/cli.ts). The extension's half of finding 7
// is test/unit/security-settings.test.ts.
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join, relative, resolve } from "node:path";
import { createSampleRepo } from "../fixtures/sampleRepo";
import { assertCliBuilt, assertOneLineError, newCliUser, runCli, runCliAsync, type CliOptions, type CliRun, type CliUser } from "../helpers/cli";
import { createGitRepo, makeTempDir } from "../helpers/gitRepo";
import { apiError, startFakeOpenAI } from "../helpers/fakeOpenAI";
import { cacheFileFor } from "../../src/core/external/docsFetch";
import { generateSigningKey, loadOrCreateKeyFile, signReceipt, verifyReceiptSignature, type SigningKey } from "../../src/core/receipts/signing";
import { publicKeyToLine } from "../../src/core/receipts/trust";
import { OptionPickerSchema, ReceiptSchema, type OptionPicker, type Receipt } from "../../src/core/schemas";

const ROOT = resolve(__dirname, "../..");
const MONGO_Q = "Should we store orders in MongoDB or PostgreSQL?";
const WINSTON_Q = "Should we adopt winston for logging?";

// Each test acts as one or more users (newCliUser): a key folder and a cache folder of their own.
const run = (user: CliUser, args: string[], opts: CliOptions = {}): CliRun => runCli(args, { env: user.env, ...opts });
/** Asynchronous, for tests whose HTTP server lives in this process and must keep answering. */
const runAsync = (user: CliUser, args: string[]): Promise<CliRun> => runCliAsync(args, { env: user.env });

function deliberateJson(user: CliUser, repo: string, question = MONGO_Q, extra: string[] = []): OptionPicker {
  const r = run(user, [question, "--repo", repo, "--json", ...extra]);
  assert.equal(r.code, 0, r.stderr);
  return OptionPickerSchema.parse(JSON.parse(r.stdout));
}

function receiptFile(repo: string, id: string): string {
  return join(repo, ".deliberations", `${id}.json`);
}

function readRaw(repo: string, id: string): Record<string, any> {
  return JSON.parse(readFileSync(receiptFile(repo, id), "utf8"));
}

/** Re-signs a (modified) receipt with `key`, as an attacker with their own key, or the owner, would. */
function resign(raw: Record<string, any>, key: SigningKey): Receipt {
  const { signature: _s, signing: _k, ...rest } = raw;
  return signReceipt(rest as Parameters<typeof signReceipt>[0], key);
}

function writeRaw(repo: string, id: string, value: unknown): void {
  writeFileSync(receiptFile(repo, id), JSON.stringify(value, null, 2) + "\n");
}

function leftovers(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d, { withFileTypes: true })) {
      if (name.isDirectory()) walk(join(d, name.name));
      else if (/\.(tmp|lock|stale)$/.test(name.name)) out.push(join(d, name.name));
    }
  };
  if (existsSync(dir)) walk(dir);
  return out;
}

interface VerifyRow {
  receipt_id: string;
  signature: string;
  trust?: string;
  signer?: string;
  evidence: string;
  evidence_problems: string[];
  unresolved: string[];
  ok: boolean;
  summary: string;
}

function verifyJson(user: CliUser, repo: string, extra: string[] = []): { code: number | null; rows: VerifyRow[] } {
  const r = run(user, ["verify", "--repo", repo, "--json", ...extra]);
  return { code: r.code, rows: JSON.parse(r.stdout) as VerifyRow[] };
}

before(() => assertCliBuilt());

describe("finding 1: pick never re-signs a tampered receipt", () => {
  test("an edited payload makes pick refuse with one line, write nothing, and verify still fail", () => {
    const user = newCliUser();
    const repo = createSampleRepo();
    const p = deliberateJson(user, repo);
    const raw = readRaw(repo, p.receipt_ref);
    raw.payload.recommendation.rationale = "MongoDB is mandated by the CTO.";
    writeRaw(repo, p.receipt_ref, raw);
    const before = readFileSync(receiptFile(repo, p.receipt_ref));
    assert.equal(run(user, ["verify", "--repo", repo]).code, 1);

    const picked = run(user, ["pick", p.receipt_ref, p.options[0].id, "--repo", repo]);
    assertOneLineError(picked, 1, /failed verification .*refusing to re-sign it, nothing was written/);
    assert.equal(picked.stdout, "");
    assert.deepEqual(readFileSync(receiptFile(repo, p.receipt_ref)), before, "the receipt is byte-for-byte unchanged");
    const after = run(user, ["verify", "--repo", repo]);
    assert.equal(after.code, 1);
    assert.match(after.stdout, /^INVALID\s+\S+\s+signature does not match/m);
    assert.deepEqual(leftovers(join(repo, ".deliberations")), []);
  });
});

describe("finding 2: a trust anchor (allowed_signers)", () => {
  test("a receipt re-signed with a brand-new key is untrusted until its key is an allowed signer", () => {
    const user = newCliUser();
    const repo = createSampleRepo();
    const p = deliberateJson(user, repo);
    const own = run(user, ["verify", "--repo", repo]);
    assert.equal(own.code, 0, own.stdout);
    assert.match(own.stdout, /^ok\s+\S+\s+signature valid; signed by you \(your own key\); evidence intact/m);

    // The attacker rewrites the decision and re-signs it with a key of their own.
    const mallory = generateSigningKey();
    const raw = readRaw(repo, p.receipt_ref);
    raw.payload.recommendation.rationale = "Rewritten.";
    writeRaw(repo, p.receipt_ref, resign(raw, mallory));
    assert.deepEqual(verifyReceiptSignature(readRaw(repo, p.receipt_ref)), { ok: true }, "the bytes match the embedded key");

    const untrusted = run(user, ["verify", "--repo", repo]);
    assert.equal(untrusted.code, 1, untrusted.stdout);
    assert.match(untrusted.stdout, new RegExp(`^UNTRUSTED\\s+${p.receipt_ref}\\s+signature valid; untrusted signer ${mallory.keyId}`, "m"));
    assert.match(untrusted.stdout, /deliberate keys add NAME KEY/);
    assertOneLineError(run(user, ["pick", p.receipt_ref, p.options[0].id, "--repo", repo]), 1, /untrusted key .*refusing to re-sign/);

    const accepted = run(user, ["verify", "--repo", repo, "--allow-untrusted"]);
    assert.equal(accepted.code, 0, accepted.stdout);
    assert.match(accepted.stdout, /untrusted signer .*accepted with --allow-untrusted/);

    // Once reviewed and listed, the same key verifies under its name.
    const added = run(user, ["keys", "add", "mallory", "ed25519", publicKeyToLine(mallory.publicKeyPem), "--repo", repo]);
    assert.equal(added.code, 0, added.stderr);
    assert.match(added.stdout, /added mallory \(ed25519:[0-9a-f]{16}\) to \.deliberations\/allowed_signers/);
    assert.match(readFileSync(join(repo, ".deliberations", "allowed_signers"), "utf8"), /^mallory ed25519 [A-Za-z0-9+/=]+$/m);
    const trusted = run(user, ["verify", "--repo", repo]);
    assert.equal(trusted.code, 0, trusted.stdout);
    assert.match(trusted.stdout, /signed by mallory \(allowed signer\)/);
  });

  test("keys show prints a line a teammate can add; keys list names both; a malformed key is refused", () => {
    const alice = newCliUser();
    const bob = newCliUser();
    const repo = createSampleRepo();
    assert.equal(run(bob, ["keys", "show"]).code, 0, "bob's key exists");
    const line = run(alice, ["keys", "show", "--name", "alice@example.test"]);
    assert.equal(line.code, 0, line.stderr);
    assert.match(line.stdout.trim(), /^alice@example\.test ed25519 [A-Za-z0-9+/]+=*$/);
    const p = deliberateJson(alice, repo);

    // Bob does not trust Alice's receipt until her line is in the repository's allowed_signers.
    assert.equal(verifyJson(bob, repo).rows[0].trust, "untrusted");
    const added = run(bob, ["keys", "add", ...line.stdout.trim().split(" "), "--repo", repo]);
    assert.equal(added.code, 0, added.stderr);
    assert.match(run(bob, ["keys", "add", ...line.stdout.trim().split(" "), "--repo", repo]).stdout, /already listed/);
    const v = verifyJson(bob, repo);
    assert.equal(v.code, 0);
    assert.deepEqual([v.rows[0].trust, v.rows[0].signer], ["allowed-signer", "alice@example.test"]);
    const listed = run(bob, ["keys", "list", "--repo", repo]);
    assert.match(listed.stdout, /^you\s+ed25519:/m);
    assert.match(listed.stdout, /^alice@example\.test\s+ed25519:[0-9a-f]{16}\s+\(\.deliberations\/allowed_signers line \d+\)/m);

    // Bob may now pick on Alice's receipt; the pick history names him.
    const picked = run({ ...bob, env: { ...bob.env, DELIBERATIVE_SIGNER_NAME: "bob" } }, ["pick", p.receipt_ref, p.options[0].id, "--repo", repo]);
    assert.equal(picked.code, 0, picked.stderr);
    assert.equal(ReceiptSchema.parse(readRaw(repo, p.receipt_ref)).picks?.[0].who, "bob");

    assertOneLineError(run(bob, ["keys", "add", "eve", "ed25519", "bm90IGEga2V5", "--repo", repo]), 2, /not a base64 Ed25519 public key/);
    assertOneLineError(run(bob, ["keys", "add", "bad name!", "ed25519", publicKeyToLine(generateSigningKey().publicKeyPem), "--repo", repo]), 2, /signer name/);
  });
});

describe("trust beyond the findings: the turn cache and legacy receipts", () => {
  test("the turn cache never serves a receipt that no longer verifies", () => {
    const user = newCliUser();
    const repo = createSampleRepo();
    const first = deliberateJson(user, repo, WINSTON_Q);
    assert.equal(deliberateJson(user, repo, WINSTON_Q).receipt_ref, first.receipt_ref, "a repeated turn is a cache hit");
    const raw = readRaw(repo, first.receipt_ref);
    raw.payload.recommendation.rationale = "Adopt winston: planted.";
    writeRaw(repo, first.receipt_ref, resign(raw, generateSigningKey()));
    const third = deliberateJson(user, repo, WINSTON_Q);
    assert.notEqual(third.receipt_ref, first.receipt_ref, "re-mined instead of serving the re-signed receipt");
    assert.doesNotMatch(third.recommendation.rationale, /planted/);
  });

  test("a schema-1 receipt still loads: verify calls it legacy, --allow-untrusted accepts it, pick keeps working", () => {
    const user = newCliUser();
    const repo = createSampleRepo();
    const p = deliberateJson(user, repo);
    const { evidence_files: _e, picks: _p, ...legacy } = readRaw(repo, p.receipt_ref);
    writeRaw(repo, p.receipt_ref, resign({ ...legacy, schema_version: 1 }, loadOrCreateKeyFile(user.keyDir)));
    const r = run(user, ["verify", "--repo", repo]);
    assert.equal(r.code, 1);
    assert.match(r.stdout, /^LEGACY\s+\S+\s+signature valid; signed by you \(your own key\); legacy receipt \(schema 1\): evidence not covered/m);
    assert.equal(run(user, ["verify", "--repo", repo, "--allow-untrusted"]).code, 0);
    // Its picks are not covered by the signature: list calls it unverified (legacy), as the MCP server does.
    const row = JSON.parse(run(user, ["list", "--repo", repo, "--json"]).stdout)[0];
    assert.deepEqual([row.state, row.claimed_pick, row.verification.state], ["unverified", null, "legacy"]);
    const picked = run(user, ["pick", p.receipt_ref, p.options[0].id, "--repo", repo]);
    assert.equal(picked.code, 0, picked.stderr);
    assert.equal(ReceiptSchema.parse(readRaw(repo, p.receipt_ref)).picks?.length, 1);
  });
});

describe("finding 3: verify covers the evidence files", () => {
  test("a changed byte, a replaced file, a deleted file and a symlink out of the repository all fail verify", () => {
    const user = newCliUser();
    const repo = createSampleRepo();
    const p = deliberateJson(user, repo);
    const file = join(repo, ".deliberations", "evidence", `${p.evidence_ref}.json`);
    const original = readFileSync(file);
    const receipt = ReceiptSchema.parse(readRaw(repo, p.receipt_ref));
    assert.equal(receipt.schema_version, 2);
    assert.deepEqual(receipt.evidence_files?.map((f) => f.path), [`evidence/${p.evidence_ref}.json`]);
    assert.equal(verifyJson(user, repo).rows[0].evidence, "intact");

    const text = original.toString("utf8");
    const at = text.indexOf("PostgreSQL");
    writeFileSync(file, text.slice(0, at) + "Q" + text.slice(at + 1));
    let r = run(user, ["verify", "--repo", repo]);
    assert.equal(r.code, 1);
    assert.match(r.stdout, new RegExp(`^TAMPERED\\s+${p.receipt_ref}\\s+.*evidence file evidence/${p.evidence_ref}\\.json changed`, "m"));

    writeFileSync(file, "[]\n");
    assert.equal(verifyJson(user, repo).rows[0].evidence, "changed");

    rmSync(file);
    r = run(user, ["verify", "--repo", repo]);
    assert.equal(r.code, 1);
    assert.match(r.stdout, /evidence file evidence\/sha256-[0-9a-f]{32}\.json is missing/);

    const outside = makeTempDir("delib-sec-outside-");
    writeFileSync(join(outside, "copy.json"), original);
    symlinkSync(join(outside, "copy.json"), file);
    r = run(user, ["verify", "--repo", repo]);
    assert.equal(r.code, 1, "an identical file outside the repository does not count");
    assert.match(r.stdout, /resolves outside the repository/);

    rmSync(file);
    writeFileSync(file, original);
    assert.equal(run(user, ["verify", "--repo", repo]).code, 0);
    // A pick on a receipt whose evidence changed is refused too.
    writeFileSync(file, "[]\n");
    assertOneLineError(run(user, ["pick", p.receipt_ref, p.options[0].id, "--repo", repo]), 1, /evidence file .* changed.*nothing was written/);
  });
});

describe("finding 4: reads by a path stored in a receipt stay inside the repository", () => {
  test("a citation through a symlinked folder, `..` or an absolute path never resolves in verify", () => {
    const user = newCliUser();
    const repo = createSampleRepo();
    const outside = makeTempDir("delib-sec-outside-");
    writeFileSync(join(outside, "secret.txt"), Array.from({ length: 30 }, (_, i) => `secret line ${i + 1}`).join("\n") + "\n");
    symlinkSync(outside, join(repo, "docs", "linked"));
    const p = deliberateJson(user, repo);
    const key = loadOrCreateKeyFile(user.keyDir);
    const paths = ["docs/linked/secret.txt", relative(repo, join(outside, "secret.txt")), join(outside, "secret.txt")];
    const raw = readRaw(repo, p.receipt_ref);
    const targets = raw.payload.citations.filter((c: { kind: string; commit?: string }) => c.kind === "internal" && !c.commit).slice(0, 3);
    assert.equal(targets.length, 3, "three internal file citations to redirect");
    targets.forEach((c: Record<string, unknown>, i: number) => {
      c.path_or_url = paths[i];
      c.line_range = { start: 1, end: 24 };
    });
    // Signed by the user's own key: only the paths are hostile.
    writeRaw(repo, p.receipt_ref, resign(raw, key));
    const v = verifyJson(user, repo);
    assert.equal(v.rows[0].signature, "valid");
    assert.equal(v.rows[0].trust, "own-key");
    assert.deepEqual(new Set(v.rows[0].unresolved), new Set(targets.map((c: { id: string }) => c.id)), "every outside path is reported as not resolving");
    const text = run(user, ["verify", "--repo", repo]).stdout;
    assert.match(text, /3 citation\(s\) no longer resolve/);
    assert.doesNotMatch(text, /secret line/);
  });

  test("a receipt file or the allowed_signers file that is a symlink out of the repository is not read", () => {
    const user = newCliUser();
    const repo = createSampleRepo();
    const p = deliberateJson(user, repo);
    const outside = makeTempDir("delib-sec-outside-");
    // A receipt planted outside and linked in: listed as corrupt, never trusted.
    writeFileSync(join(outside, "planted.json"), readFileSync(receiptFile(repo, p.receipt_ref)));
    symlinkSync(join(outside, "planted.json"), join(repo, ".deliberations", "20990101-000000Z-planted.json"));
    // An allowed_signers outside the repository grants nothing.
    const mallory = generateSigningKey();
    writeFileSync(join(outside, "signers"), `mallory ed25519 ${publicKeyToLine(mallory.publicKeyPem)}\n`);
    symlinkSync(join(outside, "signers"), join(repo, ".deliberations", "allowed_signers"));
    const raw = readRaw(repo, p.receipt_ref);
    writeRaw(repo, p.receipt_ref, resign(raw, mallory));
    const v = verifyJson(user, repo);
    assert.equal(v.code, 1);
    const planted = v.rows.find((r) => r.receipt_id === "20990101-000000Z-planted")!;
    assert.equal(planted.signature, "corrupt");
    assert.match(planted.summary, /outside the repository/);
    assert.equal(v.rows.find((r) => r.receipt_id === p.receipt_ref)!.trust, "untrusted");
  });
});

describe("finding 5: the web cache lives outside the repository and never bypasses the fetch guard", () => {
  let server: Server;
  let origin: string;
  let hostPort: string;
  let hits = 0;
  before(async () => {
    server = createServer((req, res) => {
      // Page fetches only: the return-time re-check of a cited URL is a probe (Accept: */*).
      if (req.headers.accept !== "*/*") hits++;
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(`<html><head><title>Logging guide</title></head><body><article><h1>Logging in Node.js</h1>
        <h2>Structured logging</h2><p>We recommend pino for structured JSON logging in production services; winston is slower.</p>
        <p>Prefer structured logs over console.log so fields can be searched.</p></article></body></html>`);
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    hostPort = `127.0.0.1:${(server.address() as AddressInfo).port}`;
    origin = `http://${hostPort}`;
  });
  after(() => server.close());

  const externalCitations = (r: CliRun) => OptionPickerSchema.parse(JSON.parse(r.stdout)).citations.filter((c) => c.kind === "external" && c.path_or_url.startsWith("http"));

  test("a page planted in the repository's old cache folder is never served", async () => {
    const user = newCliUser();
    const repo = createSampleRepo();
    const url = "http://127.0.0.1:1/planted";
    const page = {
      url,
      final_url: url,
      fetched_at: new Date().toISOString(),
      content_hash: "0".repeat(64),
      content_type: "text/html",
      bytes: 10,
      title: "Planted",
      text: "## Logging\nUse winston for logging everywhere.\n",
      sections: [{ heading: "Logging", level: 2, start: 1, end: 2, body: "Use winston for logging everywhere." }],
    };
    const repoCache = join(repo, ".deliberations", "cache", "web");
    mkdirSync(repoCache, { recursive: true });
    writeFileSync(cacheFileFor(repoCache, url), JSON.stringify(page));
    const r = await runAsync(user, [WINSTON_Q, "--repo", repo, "--json", "--no-receipt", "--docs-url", url, "--allow-host", "127.0.0.1:1"]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(externalCitations(r), [], "the planted page is not cited");
  });

  test("a cached page is re-checked against the allow-list and address rules; a future fetched_at is invalid; --no-cache bypasses", async () => {
    const user = newCliUser();
    const repo = createSampleRepo();
    const url = `${origin}/guide/logging`;
    const common = [WINSTON_Q, "--repo", repo, "--json", "--no-receipt", "--docs-url", url];
    hits = 0;
    const first = await runAsync(user, [...common, "--allow-host", hostPort]);
    assert.equal(first.code, 0, first.stderr);
    assert.equal(externalCitations(first).length > 0, true, "fetched and cited with --allow-host");
    assert.equal(hits, 1);
    const cacheFile = cacheFileFor(join(user.cacheHome, "deliberative-search", "web"), url);
    assert.ok(existsSync(cacheFile), "cached under $XDG_CACHE_HOME");
    assert.ok(!existsSync(join(repo, ".deliberations", "cache", "web")), "nothing cached in the working tree");

    const again = await runAsync(user, [...common, "--allow-host", hostPort]);
    assert.equal(hits, 1, "a fresh cache hit makes no request");
    assert.ok(externalCitations(again).length > 0);

    // Without --allow-host, 127.0.0.1 is a loopback address the guard refuses: the cached copy is refused too.
    const without = await runAsync(user, common);
    assert.equal(without.code, 0, without.stderr);
    assert.deepEqual(externalCitations(without), [], "not served from the cache without --allow-host");
    assert.equal(hits, 1, "and not fetched either");

    // A fetched_at in the future does not keep the entry fresh forever.
    const entry = JSON.parse(readFileSync(cacheFile, "utf8"));
    writeFileSync(cacheFile, JSON.stringify({ ...entry, fetched_at: "2999-01-01T00:00:00.000Z" }));
    await runAsync(user, [...common, "--allow-host", hostPort]);
    assert.equal(hits, 2, "a future fetched_at is treated as no cache entry");
    assert.notEqual(JSON.parse(readFileSync(cacheFile, "utf8")).fetched_at, "2999-01-01T00:00:00.000Z", "and is replaced");

    await runAsync(user, [...common, "--allow-host", hostPort, "--no-cache"]);
    assert.equal(hits, 3, "--no-cache fetches although a fresh entry exists");
  });
});

describe("finding 6: nothing from the repository, a model or the web reaches the terminal raw", () => {
  const ESC = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;

  test("ESC/OSC sequences in an ADR title are stripped from the normal output, list and errors", () => {
    const user = newCliUser();
    const repo = createGitRepo([
      {
        message: "an ADR with escape sequences",
        files: {
          "docs/adr/0001-use-redis-for-caching.md":
            "# 1. Use Redis\x1b]0;pwned\x07\x1b[2J for caching\n\n## Status\n\nAccepted\n\n## Decision\n\nWe will use Redis\x1b[31m for caching sessions\x9b2J.\n",
        },
      },
    ]);
    const r = run(user, ["Should we use Redis or Memcached for caching?", "--repo", repo]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /Redis/);
    assert.doesNotMatch(r.stdout, ESC, "no control character in the rendering");
    assert.doesNotMatch(r.stdout, /\]0;pwned/);

    // A receipt planted with escapes in its question, and a file name with escapes: list and verify print them inertly.
    const id = readdirSync(join(repo, ".deliberations")).find((f) => f.endsWith(".json"))!.replace(/\.json$/, "");
    const raw = readRaw(repo, id);
    raw.question = "Evil\x1b]0;owned\x07\x1b[2J question?";
    writeFileSync(join(repo, ".deliberations", "20990101-000000Z-evil0001.json"), JSON.stringify({ ...raw, receipt_id: "20990101-000000Z-evil0001" }));
    writeFileSync(join(repo, ".deliberations", "\x1b[2Jx.json"), "{ not json \x1b]0;t\x07");
    for (const args of [["list", "--repo", repo], ["verify", "--repo", repo], ["list", "--repo", repo, "--json"], ["verify", "--repo", repo, "--json"]]) {
      const out = run(user, args);
      assert.doesNotMatch(out.stdout + out.stderr, /\x1b|\x07|\x9b/, `${args[0]} ${args.slice(3).join(" ")} prints no escape`);
    }
    assert.match(run(user, ["list", "--repo", repo]).stdout, /Evil\s*question\?/);
    const listed = JSON.parse(run(user, ["list", "--repo", repo, "--json"]).stdout) as { question?: string }[];
    assert.ok(listed.some((row) => row.question === "Evil\x1b]0;owned\x07\x1b[2J question?"), "JSON keeps the data, escaped");

    const bad = run(user, ["pick", id, "opt-\x1b]0;x\x07nope", "--repo", repo]);
    assert.equal(bad.code, 2);
    assert.doesNotMatch(bad.stderr, /\x1b|\x07/, "an error echoing input is sanitised");
  });

  test("a question with control characters is refused with rc 2 and nothing is written", () => {
    const user = newCliUser();
    const repo = createSampleRepo();
    assertOneLineError(run(user, ["Should we use Redis\x1b[2J or Memcached?", "--repo", repo]), 2, /control characters/);
    assertOneLineError(run(user, ["Should we use Redis\x07 or Memcached?", "--repo", repo]), 2, /control characters/);
    assert.ok(!existsSync(join(repo, ".deliberations")), "nothing written");
  });
});

describe("finding 7: URLs with credentials are refused", () => {
  test("--docs-url, --searxng and --allow-host with user:password@ exit 2 without echoing the password", () => {
    const user = newCliUser();
    const repo = createSampleRepo();
    const cases: [string[], RegExp][] = [
      [["--docs-url", "http://user:secretpw@docs.example.test/guide"], /--docs-url: URLs with credentials/],
      [["--docs-url", "https://token@docs.example.test/guide"], /--docs-url: URLs with credentials/],
      [["--searxng", "http://admin:secretpw@127.0.0.1:8888"], /--searxng: URLs with credentials/],
      [["--allow-host", "user:secretpw@docs.example.test"], /--allow-host: credentials/],
      [["--base-url", "http://user:secretpw@127.0.0.1:1/v1", "--model", "m"], /must not contain credentials/],
    ];
    for (const [flags, pattern] of cases) {
      const r = run(user, [WINSTON_Q, "--repo", repo, ...flags]);
      assertOneLineError(r, 2, pattern);
      assert.doesNotMatch(r.stderr + r.stdout, /secretpw|token@/, "the secret is not echoed");
    }
    assert.ok(!existsSync(join(repo, ".deliberations")), "nothing written");
  });
});

describe("finding 8: concurrent picks are serialised and none is lost", () => {
  test("twelve concurrent pick processes: every one exits 0 and is in the signed history", async () => {
    const user = newCliUser();
    const repo = createSampleRepo();
    const p = deliberateJson(user, repo);
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => runAsync(user, ["pick", p.receipt_ref, p.options[i % p.options.length].id, "--reason", `reason ${i}`, "--repo", repo])),
    );
    results.forEach((r, i) => assert.equal(r.code, 0, `pick ${i}: ${r.stderr}`));
    const receipt = ReceiptSchema.parse(readRaw(repo, p.receipt_ref));
    assert.equal(receipt.picks?.length, 12, "twelve picks recorded");
    assert.deepEqual(new Set(receipt.picks!.map((k) => k.reason)), new Set(Array.from({ length: 12 }, (_, i) => `reason ${i}`)));
    for (const k of receipt.picks!) assert.equal(k.picked_by, "operator");
    assert.deepEqual(receipt.operator_pick, (({ picked_by: _a, who: _b, key_id: _c, ...rest }) => rest)(receipt.picks!.at(-1)!));
    assert.equal(run(user, ["verify", "--repo", repo]).code, 0);
    assert.deepEqual(leftovers(join(repo, ".deliberations")), []);
  });
});

describe("finding 9: the smaller cases", () => {
  test("a signature with non-canonical padding bits fails verify", () => {
    const user = newCliUser();
    const repo = createSampleRepo();
    const p = deliberateJson(user, repo);
    const raw = readRaw(repo, p.receipt_ref);
    const sig: string = raw.signature;
    assert.ok(sig.endsWith("=="));
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    const last = sig[sig.length - 3];
    // The last data character carries 2 bits of the signature and 4 unused bits: flip an unused one.
    const flipped = alphabet[alphabet.indexOf(last) ^ 1];
    raw.signature = sig.slice(0, -3) + flipped + "==";
    assert.deepEqual(Buffer.from(raw.signature, "base64"), Buffer.from(sig, "base64"), "same bytes once decoded");
    writeRaw(repo, p.receipt_ref, raw);
    const r = run(user, ["verify", "--repo", repo]);
    assert.equal(r.code, 1);
    assert.match(r.stdout, /^INVALID\s+\S+\s+the signature is not canonical/m);
  });

  test(".deliberations being a file, or unwritable, is one line with rc 2", () => {
    const user = newCliUser();
    const repo = createSampleRepo();
    writeFileSync(join(repo, ".deliberations"), "not a folder\n");
    assertOneLineError(run(user, [MONGO_Q, "--repo", repo]), 2, /\.deliberations is a file, not a folder/);
    assertOneLineError(run(user, ["pick", "20990101-000000Z-00000000", "opt-x", "--repo", repo]), 2, /unknown receipt/);

    rmSync(join(repo, ".deliberations"));
    mkdirSync(join(repo, ".deliberations"));
    chmodSync(join(repo, ".deliberations"), 0o555);
    // Root writes anywhere, so the unwritable case runs as an unprivileged user when the tests run as root.
    const asRoot = process.getuid?.() === 0;
    const other = newCliUser();
    if (asRoot) {
      for (const d of [repo, other.keyDir, other.cacheHome]) chmodSync(d, 0o777);
      spawnSync("chmod", ["-R", "a+rX", repo]);
    }
    const r = run(other, [MONGO_Q, "--repo", repo], asRoot ? { uid: 65534, gid: 65534 } : {});
    chmodSync(join(repo, ".deliberations"), 0o755);
    assertOneLineError(r, 2, /\.deliberations is not writable/);
  });

  test("an empty question is one line on stderr with rc 2 and nothing on stdout", () => {
    const user = newCliUser();
    const repo = createSampleRepo();
    for (const args of [[""], ["", "--repo", repo], ["   ", "--repo", repo], []]) {
      const r = run(user, args);
      assertOneLineError(r, 2, /question is empty|no question given/);
      assert.equal(r.stdout, "", "no usage text on stdout");
    }
    const help = run(user, ["--help"]);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /^usage:/);
  });

  test("a pick reason over 2,000 characters is refused with one line and nothing written", () => {
    const user = newCliUser();
    const repo = createSampleRepo();
    const p = deliberateJson(user, repo);
    const before = readFileSync(receiptFile(repo, p.receipt_ref));
    assertOneLineError(run(user, ["pick", p.receipt_ref, p.options[0].id, "--reason", "x".repeat(100_000), "--repo", repo]), 2, /reason is 100000 characters; the limit is 2000/);
    assert.deepEqual(readFileSync(receiptFile(repo, p.receipt_ref)), before);
    const ok = run(user, ["pick", p.receipt_ref, p.options[0].id, "--reason", "y".repeat(2000), "--repo", repo]);
    assert.equal(ok.code, 0, ok.stderr);
  });

  test("same inputs give a byte-identical payload apart from receipt_ref, and the README says exactly that", () => {
    const user = newCliUser();
    const repo = createSampleRepo();
    // A lifted git budget: on a busy machine the default 1.2 s can cut one run's history search short.
    const a = deliberateJson(user, repo, MONGO_Q, ["--no-cache", "--git-budget-ms", "60000"]);
    const b = deliberateJson(user, repo, MONGO_Q, ["--no-cache", "--git-budget-ms", "60000"]);
    assert.notEqual(a.receipt_ref, b.receipt_ref, "receipt_ref names the receipt: a timestamp and a random suffix");
    assert.equal(JSON.stringify({ ...a, receipt_ref: "" }), JSON.stringify({ ...b, receipt_ref: "" }));
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    assert.doesNotMatch(readme, /Same\s+inputs\s+give\s+a\s+byte-identical\s+payload\./);
    // The README is wrapped at 120 columns, so the phrase may break across lines.
    assert.match(readme, /byte-identical\s+payload\s+apart\s+from\s+`receipt_ref`/);
  });
});

describe("finding 10: a failing model endpoint is called at most 3 times per deliberation", () => {
  for (const [label, reply] of [
    ["HTTP 429", apiError(429, "slow down", { "retry-after": "0" })],
    ["HTTP 503", apiError(503, "overloaded", { "retry-after": "0" })],
  ] as const) {
    test(`${label} on every call: 3 attempts in all, the failure recorded once, the rules payload`, async () => {
      const fake = await startFakeOpenAI([reply]);
      try {
        const user = newCliUser();
        const repo = createSampleRepo();
        const r = await runAsync(user, [MONGO_Q, "--repo", repo, "--json", "--base-url", fake.baseURL, "--model", "test-model"]);
        assert.equal(r.code, 0, r.stderr);
        assert.equal(fake.chatCalls(), 3, "plan: 3 attempts; synthesis: none");
        const p = OptionPickerSchema.parse(JSON.parse(r.stdout));
        const receipt = ReceiptSchema.parse(readRaw(repo, p.receipt_ref));
        const kind = label === "HTTP 429" ? "rate-limited" : "server-error";
        assert.equal(receipt.synthesis.mode, "rules");
        assert.deepEqual(receipt.synthesis.calls?.map((c) => [c.purpose, c.outcome.split(":")[0]]), [["plan", kind]], "one failed call recorded");
        assert.match(receipt.synthesis.calls![0].outcome, /after 3 attempts/);
        assert.match(receipt.synthesis.fallback_reason ?? "", new RegExp(`^${kind}: .*circuit open`));
      } finally {
        await fake.close();
      }
    });
  }
});
