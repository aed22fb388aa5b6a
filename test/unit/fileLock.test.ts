// The lock file behind every receipt change (receipts/fsutil.ts): a lock whose owner died is broken, a live owner's
// lock never is, and concurrent writers never lose an update.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { LockTimeoutError, withFileLock } from "../../src/core/receipts/fsutil";
import { makeTempDir } from "../helpers/gitRepo";

describe("withFileLock", () => {
  test("a lock left by a process that died is broken, and the work runs", async () => {
    const dir = makeTempDir("delib-lock-");
    const file = join(dir, "receipt.json");
    const dead = spawnSync(process.execPath, ["-e", ""]).pid;
    writeFileSync(`${file}.lock`, `${dead}\n${hostname()}\n`);
    const out = await withFileLock(file, async () => "ran", 2_000);
    assert.equal(out, "ran");
    assert.equal(existsSync(`${file}.lock`), false);
  });

  test("a live owner's lock is never broken: the waiter gives up with a one-line error", async () => {
    const dir = makeTempDir("delib-lock-");
    const file = join(dir, "receipt.json");
    writeFileSync(`${file}.lock`, `${process.pid}\n${hostname()}\n`);
    await assert.rejects(withFileLock(file, async () => "ran", 300), LockTimeoutError);
    assert.equal(readFileSync(`${file}.lock`, "utf8"), `${process.pid}\n${hostname()}\n`);
  });

  test("forty concurrent read-modify-writes lose nothing", async () => {
    const dir = makeTempDir("delib-lock-");
    const file = join(dir, "counter.json");
    writeFileSync(file, "[]");
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        withFileLock(file, async () => {
          const list = JSON.parse(readFileSync(file, "utf8")) as number[];
          await new Promise((r) => setTimeout(r, 1));
          writeFileSync(file, JSON.stringify([...list, i]));
        }),
      ),
    );
    assert.equal((JSON.parse(readFileSync(file, "utf8")) as number[]).length, 40);
  });
});
