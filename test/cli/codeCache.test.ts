// The launcher's V8 code cache (src/cli/launcher.ts, src/cli/codeCache.ts) against damaged and forged cache files: each
// one is run by the built CLI, which must still answer correctly (exit 0, same recommendation) and leave a good,
// sealed file in its place. Before the cache was sealed, flipping bytes in it made V8 abort or segfault on every run.
import { test, describe, before } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, existsSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { createSampleRepo } from "../fixtures/sampleRepo";
import { CLI, assertCliBuilt, newCliUser, type CliOptions, type CliRun, type CliUser } from "../helpers/cli";
import { makeTempDir } from "../helpers/gitRepo";
import { OptionPickerSchema } from "../../src/core/schemas";
import { CODE_CACHE_KEY_FILE, sealCodeCache, unsealCodeCache } from "../../src/cli/codeCache";

const MONGO_Q = "Should we store orders in MongoDB or PostgreSQL?";
// A busy machine must not cut the git search short, or two runs could disagree for reasons other than the cache.
const ASK = (repo: string) => [MONGO_Q, "--repo", repo, "--json", "--no-receipt", "--offline", "--git-budget-ms", "60000"];

// The cache is keyed by the bundle's mtime, so a rebuild of dist/ while this runs would start a new cache file: the
// tests run a private copy of the built CLI.
let privateCli = "";
function copyCli(): string {
  const dir = makeTempDir("delib-cc-dist-");
  for (const name of ["cli.js", "cliMain.js", "node-sqlite3-wasm.wasm.br"]) copyFileSync(join(dirname(CLI), name), join(dir, name));
  return join(dir, "cli.js");
}

function runCli(args: string[], opts: CliOptions): CliRun {
  const started = performance.now();
  const r = spawnSync(process.execPath, [privateCli, ...args], { env: opts.env, encoding: "utf8", timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: `${r.stderr}${r.signal ? ` (signal ${r.signal})` : ""}`, ms: performance.now() - started };
}

function cacheFiles(user: CliUser, kind: string): string[] {
  const dir = join(user.cacheHome, "deliberative-search", "v8");
  return existsSync(dir) ? readdirSync(dir).filter((n) => n.endsWith(`-${kind}.bin`)).map((n) => join(dir, n)) : [];
}

function userKey(user: CliUser): Buffer {
  return readFileSync(join(user.keyDir, CODE_CACHE_KEY_FILE));
}

/** The one cache file of this kind, which must verify under the user's key; returns its V8 payload. */
function assertSealed(user: CliUser, kind: string): { file: string; payload: Buffer } {
  const files = cacheFiles(user, kind);
  assert.equal(files.length, 1, `one ${kind} cache file, got ${files.join(", ")}`);
  const payload = unsealCodeCache(userKey(user), files[0], readFileSync(files[0]));
  assert.ok(payload && payload.length > 1000, `${files[0]} verifies under the user's key`);
  return { file: files[0], payload };
}

function flipped(bytes: Buffer, offset: number, count = 64): Buffer {
  const out = Buffer.from(bytes);
  for (let i = offset; i < Math.min(offset + count, out.length); i++) out[i] ^= 0xff;
  return out;
}

describe("the V8 code cache is verified before V8 sees it", () => {
  let repo: string;
  let expected: string;
  before(() => {
    assertCliBuilt();
    privateCli = copyCli();
    repo = createSampleRepo();
    // The answer without any cache is the reference.
    const plain = runCli(ASK(repo), { env: { ...newCliUser().env, DELIBERATIVE_CODE_CACHE: "off" } });
    assert.equal(plain.code, 0, plain.stderr);
    expected = recommended(plain.stdout);
    assert.match(expected, /postgres/i);
  });

  function recommended(stdout: string): string {
    const p = OptionPickerSchema.parse(JSON.parse(stdout));
    return p.options.find((o) => o.id === p.recommendation.option_id)?.title ?? "(none)";
  }

  test("damaged, truncated, unsealed and forged cache files are replaced and the CLI answers as without a cache", () => {
    const user = newCliUser();
    const first = runCli(ASK(repo), { env: user.env });
    assert.equal(first.code, 0, first.stderr);
    assert.equal(recommended(first.stdout), expected);
    const key = statSync(join(user.keyDir, CODE_CACHE_KEY_FILE));
    assert.equal(key.size, 32);
    assert.equal(key.mode & 0o777, 0o600, "the key is private to the user");
    const { file, payload } = assertSealed(user, "ask");
    assert.equal(statSync(file).mode & 0o077, 0, "the cache file is private too");
    const good = readFileSync(file);
    const middle = Math.floor(good.length / 2);

    const damages: [string, Buffer][] = [
      ["magic flipped", flipped(good, 0, 8)],
      ["tag flipped", flipped(good, 12, 8)],
      ["length and the first payload bytes flipped", flipped(good, 40)],
      ["64 bytes flipped in the header of V8's data", flipped(good, 44 + 100)],
      ["64 bytes flipped in the middle", flipped(good, middle)],
      ["64 bytes flipped at the end", flipped(good, good.length - 64)],
      ["one byte flipped", flipped(good, middle + 7, 1)],
      ["truncated to half", good.subarray(0, middle)],
      ["truncated inside the header", good.subarray(0, 20)],
      ["empty", Buffer.alloc(0)],
      // V8's own data without a seal: what an older launcher wrote, or anyone who can write the cache folder.
      ["unsealed V8 data", payload],
      ["unsealed V8 data with bytes flipped", flipped(payload, 100)],
      // Well-formed but sealed with somebody else's key: a planted cache does not run.
      ["sealed with another key", sealCodeCache(Buffer.alloc(32, 7), file, flipped(payload, middle))],
    ];
    for (const [what, bytes] of damages) {
      writeFileSync(file, bytes);
      const r = runCli(ASK(repo), { env: user.env });
      assert.equal(r.code, 0, `${what}: exit ${r.code} (signal?) ${r.stderr.slice(0, 400)}`);
      assert.equal(recommended(r.stdout), expected, `${what}: same answer`);
      assert.ok(!readFileSync(file).equals(bytes), `${what}: the bad file was replaced`);
      assertSealed(user, "ask");
    }

    // A good file is used as it is: the next run leaves it alone.
    const sealed = readFileSync(file);
    assert.equal(runCli(ASK(repo), { env: user.env }).code, 0);
    assert.ok(readFileSync(file).equals(sealed), "a verified cache is not rewritten");
  });

  test("the MCP server starts with a damaged cache file", () => {
    const user = newCliUser();
    const initialize = `${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "code-cache-test", version: "1" } } })}\n`;
    const serve = () => spawnSync(process.execPath, [privateCli, "mcp", "--repo", repo], { input: initialize, env: user.env, encoding: "utf8", timeout: 60_000 });
    assert.equal(serve().status, 0);
    const { file, payload } = assertSealed(user, "mcp");
    for (const bytes of [flipped(readFileSync(file), 44 + 100), flipped(readFileSync(file), 44 + Math.floor(payload.length / 2)), payload]) {
      writeFileSync(file, bytes);
      const r = serve();
      assert.equal(r.status, 0, `exit ${r.status} (signal ${r.signal}): ${r.stderr.slice(0, 400)}`);
      const reply = JSON.parse(r.stdout.split("\n")[0]) as { id: number; result?: { serverInfo?: { name?: string } } };
      assert.equal(reply.result?.serverInfo?.name, "deliberative-search");
      assertSealed(user, "mcp");
    }
  });

  test("a key file others can read is not used: no cache is read or written, and the CLI still answers", { skip: process.platform === "win32" }, () => {
    const user = newCliUser();
    assert.equal(runCli(["--help"], { env: user.env }).code, 0);
    const [file] = cacheFiles(user, "ask");
    assert.ok(file, "the first run wrote a cache");
    rmSync(file);
    chmodSync(join(user.keyDir, CODE_CACHE_KEY_FILE), 0o644);
    const r = runCli(ASK(repo), { env: user.env });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(recommended(r.stdout), expected);
    assert.deepEqual(cacheFiles(user, "ask"), [], "nothing cached under a key others can read");
  });
});
