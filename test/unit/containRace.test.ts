// A cache folder that another process creates between the containment check's two looks (its real path, then lstat)
// is judged by its real path, not refused as a link leading out: two processes building one history index at once
// must not refuse each other's new folder. A link that leads out is still refused. The race is forced by failing the
// first real-path look at the folder as if it did not exist yet.
import assert from "node:assert/strict";
import fs, { mkdirSync, symlinkSync } from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import { join } from "node:path";
import { afterEach, describe, it } from "node:test";
import { folderWritableInside } from "../../src/core/contain";
import { makeTempDir } from "../helpers/gitRepo";

const original = fs.promises.realpath;
afterEach(() => {
  fs.promises.realpath = original;
  syncBuiltinESMExports();
});

/** The first real-path look at `target` fails with ENOENT, as if the folder were created right after it. */
function appearsAfterFirstLook(target: string): void {
  let first = true;
  fs.promises.realpath = (async (p: fs.PathLike, ...rest: unknown[]) => {
    if (first && String(p) === target) {
      first = false;
      throw Object.assign(new Error(`ENOENT: ${target}`), { code: "ENOENT" });
    }
    return (original as (p: fs.PathLike, ...r: unknown[]) => Promise<string>)(p, ...rest);
  }) as typeof fs.promises.realpath;
  syncBuiltinESMExports();
}

describe("cache containment under a concurrent build", () => {
  it("a folder created between the two looks is inside", async () => {
    const root = makeTempDir("delib-race-");
    mkdirSync(join(root, "history", "abc"), { recursive: true });
    appearsAfterFirstLook(join(root, "history", "abc"));
    assert.equal(await folderWritableInside(root, join("history", "abc")), true);
  });

  it("a link leading out is still refused, race or not", async () => {
    const root = makeTempDir("delib-race-");
    const outside = makeTempDir("delib-race-out-");
    mkdirSync(join(root, "history"), { recursive: true });
    symlinkSync(outside, join(root, "history", "abc"));
    appearsAfterFirstLook(join(root, "history", "abc"));
    assert.equal(await folderWritableInside(root, join("history", "abc")), false);
  });
});
