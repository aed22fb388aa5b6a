// The sealed V8 code-cache files (src/cli/codeCache.ts) on real files in temp dirs: what verifies, what is deleted, and
// which key files are refused. test/cli/codeCache.test.ts runs the built CLI against damaged caches.
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, existsSync, readFileSync, renameSync, statSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CODE_CACHE_KEY_FILE, loadOrCreateCodeCacheKey, readCodeCache, sealCodeCache, unsealCodeCache, writeCodeCache } from "../../src/cli/codeCache";
import { makeTempDir } from "../helpers/gitRepo";

const PAYLOAD = Buffer.from("V8 cached data stand-in ".repeat(200));

describe("code cache key", () => {
  test("created once, 32 random bytes, private; the same key is read back", () => {
    const dir = join(makeTempDir("delib-cc-key-"), "nested");
    const key = loadOrCreateCodeCacheKey(dir);
    assert.ok(key);
    assert.equal(key.length, 32);
    const st = statSync(join(dir, CODE_CACHE_KEY_FILE));
    if (process.platform !== "win32") {
      assert.equal(st.mode & 0o777, 0o600);
      assert.equal(statSync(dir).mode & 0o777, 0o700);
    }
    assert.ok(loadOrCreateCodeCacheKey(dir)!.equals(key));
    assert.ok(!loadOrCreateCodeCacheKey(makeTempDir("delib-cc-key-"))!.equals(key), "another user gets another key");
  });

  test("a key others can read, or of the wrong length, is not used (and not replaced)", { skip: process.platform === "win32" }, () => {
    const dir = makeTempDir("delib-cc-key-");
    const file = join(dir, CODE_CACHE_KEY_FILE);
    loadOrCreateCodeCacheKey(dir);
    chmodSync(file, 0o644);
    assert.equal(loadOrCreateCodeCacheKey(dir), undefined);
    chmodSync(file, 0o600);
    writeFileSync(file, Buffer.alloc(16, 1));
    assert.equal(loadOrCreateCodeCacheKey(dir), undefined);
    assert.equal(readFileSync(file).length, 16, "left for the user to look at");
  });
});

describe("sealed cache files", () => {
  const key = Buffer.alloc(32, 3);

  test("round trip; every single-byte change anywhere in the file fails", () => {
    const file = "/x/cliMain-1-2-v20-x64-ask.bin";
    const sealed = sealCodeCache(key, file, PAYLOAD);
    assert.ok(unsealCodeCache(key, file, sealed)!.equals(PAYLOAD));
    for (let i = 0; i < sealed.length; i += 97) {
      const bad = Buffer.from(sealed);
      bad[i] ^= 0x01;
      assert.equal(unsealCodeCache(key, file, bad), undefined, `byte ${i}`);
    }
    assert.equal(unsealCodeCache(key, file, sealed.subarray(0, sealed.length - 1)), undefined, "truncated");
    assert.equal(unsealCodeCache(key, file, Buffer.concat([sealed, Buffer.from([0])])), undefined, "extended");
    assert.equal(unsealCodeCache(Buffer.alloc(32, 4), file, sealed), undefined, "another key");
  });

  test("data is bound to its file name: one subcommand's or bundle's data does not pass as another's", () => {
    const sealed = sealCodeCache(key, "/x/cliMain-1-2-v20-x64-ask.bin", PAYLOAD);
    assert.equal(unsealCodeCache(key, "/x/cliMain-1-2-v20-x64-pick.bin", sealed), undefined);
    assert.equal(unsealCodeCache(key, "/x/cliMain-1-3-v20-x64-ask.bin", sealed), undefined);
  });

  test("readCodeCache deletes what fails and keeps what verifies", () => {
    const dir = makeTempDir("delib-cc-");
    const file = join(dir, "cliMain-1-2-v20-x64-ask.bin");
    writeCodeCache(key, file, PAYLOAD);
    if (process.platform !== "win32") assert.equal(statSync(file).mode & 0o077, 0);
    assert.ok(readCodeCache(key, file)!.equals(PAYLOAD));
    assert.ok(existsSync(file));

    truncateSync(file, 100);
    assert.equal(readCodeCache(key, file), undefined);
    assert.ok(!existsSync(file), "a damaged file is deleted");

    writeFileSync(file, PAYLOAD);
    assert.equal(readCodeCache(key, file), undefined);
    assert.ok(!existsSync(file), "unsealed data is deleted");

    const other = join(dir, "cliMain-1-2-v20-x64-pick.bin");
    writeCodeCache(key, other, PAYLOAD);
    renameSync(other, file);
    assert.equal(readCodeCache(key, file), undefined, "renamed from another subcommand");
    assert.ok(!existsSync(file));

    assert.equal(readCodeCache(key, file), undefined, "a missing file is simply no cache");
  });
});
