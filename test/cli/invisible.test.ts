// Issue 19, finding 11: Unicode bidi controls (U+202E) and invisible characters never reach the terminal raw, and a
// question, a pick reason or an ADR title with a bidi control is refused with one line that does not echo it.
import { test, describe, before } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { createSampleRepo } from "../fixtures/sampleRepo";
import { assertCliBuilt, assertOneLineError, newCliUser, runCli, type CliUser } from "../helpers/cli";
import { createGitRepo } from "../helpers/gitRepo";

// Bidi controls, zero-width and BOM characters, tag characters (U+E0000 block, as surrogate pairs in UTF-16).
const HIDDEN = /[\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufeff]|\udb40[\udc00-\udc7f]/;

const run = (user: CliUser, args: string[]) => runCli(args, { env: user.env });

describe("bidi controls and invisible characters", () => {
  before(() => assertCliBuilt());

  test("an ADR title with U+202E, zero-width and tag characters prints without them; JSON keeps them escaped", () => {
    const user = newCliUser();
    const title = "Use Redis\u202e gnihcac rof\u202c\u200b\u{e0069}\u{e0067}\u{e006e} for caching";
    const repo = createGitRepo([
      {
        message: "an ADR with hidden characters",
        files: { "docs/adr/0001-use-redis-for-caching.md": `# 1. ${title}\n\n## Status\n\nAccepted\n\n## Decision\n\nWe will use Redis\u2066 for caching sessions\u2069.\n` },
      },
    ]);
    const r = run(user, ["Should we use Redis or Memcached for caching?", "--repo", repo]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /Redis gnihcac rof for caching/, "the title, with the controls taken out");
    assert.doesNotMatch(r.stdout + r.stderr, HIDDEN);

    const json = run(user, ["Should we use Redis or Memcached for caching?", "--repo", repo, "--json", "--no-receipt"]);
    assert.equal(json.code, 0, json.stderr);
    assert.doesNotMatch(json.stdout, HIDDEN, "JSON output escapes them");
    assert.match(json.stdout, /\\u202e/);
    assert.ok(JSON.stringify(JSON.parse(json.stdout)).includes("\u202e"), "and parses back to the same data");

    for (const args of [["list", "--repo", repo], ["verify", "--repo", repo]]) {
      const out = run(user, args);
      assert.doesNotMatch(out.stdout + out.stderr, HIDDEN, args[0]);
    }
  });

  test("a question with U+202E is refused with rc 2, one line that does not echo it, and nothing written", () => {
    const user = newCliUser();
    const repo = createSampleRepo();
    for (const q of ["Should we use \u202eLQSergtsoP\u202c or MongoDB for orders?", "Redis \u2067or\u2069 Memcached?", "MongoDB\u200f or PostgreSQL?"]) {
      const r = run(user, [q, "--repo", repo]);
      assertOneLineError(r, 2, /the question contains control characters/);
      assert.equal(r.stdout, "");
      assert.doesNotMatch(r.stderr, HIDDEN);
      assert.doesNotMatch(r.stderr, /LQSergtsoP|Memcached|MongoDB/, "the question is not echoed");
    }
    assert.ok(!existsSync(join(repo, ".deliberations")), "nothing written");
  });

  test("a pick reason and an ADR --title with a bidi control are refused and change nothing", () => {
    const user = newCliUser();
    const repo = createSampleRepo();
    const asked = run(user, ["Should we store orders in MongoDB or PostgreSQL?", "--repo", repo, "--json"]);
    assert.equal(asked.code, 0, asked.stderr);
    const { receipt_ref: ref, options } = JSON.parse(asked.stdout) as { receipt_ref: string; options: { id: string }[] };
    const id = ref.replace(/^.*\//, "").replace(/\.json$/, "");
    const receipts = () => readdirSync(join(repo, ".deliberations")).filter((f) => f.endsWith(".json")).sort().map((f) => `${f}\n${readFileSync(join(repo, ".deliberations", f), "utf8")}`);
    const before = receipts();

    const pick = run(user, ["pick", id, options[0].id, "--reason", "cheaper \u202enoitcudorp ni\u202c", "--repo", repo]);
    assert.equal(pick.code, 2, pick.stderr);
    assert.match(pick.stderr, /control characters/);
    assert.doesNotMatch(pick.stderr, HIDDEN);
    assert.doesNotMatch(pick.stderr, /noitcudorp/);
    assert.match(run(user, ["list", "--repo", repo]).stdout, new RegExp(`${id}\\s+pending`), "no pick recorded");

    assertOneLineError(run(user, ["adr", id, "--title", "Use \u202eLQSergtsoP", "--repo", repo]), 2, /--title: .*no control characters/);
    assert.deepEqual(receipts(), before, "the receipt is byte for byte as it was");
  });
});
