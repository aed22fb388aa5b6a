// The turn cache and the code-usage figures (issue 23): a cached turn is served only while the code the usage count
// read is unchanged. An edit that no artifact sees (a new import in src/) must give fresh figures, not the stored
// receipt's; with nothing changed the cache still answers; an entry written before the code state existed is not
// served.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PIPELINE_REVISION } from "../../src/core/constants";
import { deliberate, type DeliberateOutcome } from "../../src/core/pipeline";
import { generateSigningKey } from "../../src/core/receipts/signing";
import { commit, createGitRepo, makeTempDir, writeFiles } from "../helpers/gitRepo";

const key = generateSigningKey();
const QUESTION = "Should we use moment or date-fns for date handling?";
const RECORD =
  "# 1. Use date-fns for date handling\n\nStatus: accepted\n\n## Context\n\nWe format and parse dates in many places and need one library for it.\n\n" +
  "## Decision\n\nWe will use date-fns for all date handling.\n\n## Consequences\n\nSmall bundles through tree shaking.\n";

function files(library: string, n: number, from = 0): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = from; i < from + n; i++) out[`src/f${i}.ts`] = `import lib from "${library}";\nexport const d${i} = lib;\n`;
  return out;
}

function usageLine(out: DeliberateOutcome, optionId: string): string {
  assert.equal(out.kind, "deliberated");
  if (out.kind !== "deliberated") return "";
  return out.payload.options.find((o) => o.id === optionId)!.tradeoffs[0];
}

function cached(out: DeliberateOutcome): boolean {
  return out.kind === "deliberated" && out.cached;
}

async function ask(repo: string): Promise<DeliberateOutcome> {
  return deliberate({ repo, question: QUESTION, signingKey: key });
}

describe("turn cache: keyed by the state of the code the usage count read", () => {
  test("in git: a new import outside every artifact invalidates the cached turn; unchanged code is served", async () => {
    const repo = createGitRepo([{ message: "init", files: { "docs/adr/0001-date-library.md": RECORD, "package.json": `{"dependencies":{"moment":"1"}}\n`, ...files("moment", 3) } }]);
    const first = await ask(repo);
    assert.equal(cached(first), false);
    assert.match(usageLine(first, "opt-moment"), /^· Used in 4 files/);
    const second = await ask(repo);
    assert.equal(cached(second), true, "nothing changed: the cache answers");

    // Untracked files no artifact looks at: discovery's fingerprint holds, the code state does not.
    writeFiles(repo, files("moment", 2, 10));
    const third = await ask(repo);
    assert.equal(cached(third), false, "the code changed: the stored figures are stale");
    assert.match(usageLine(third, "opt-moment"), /^· Used in 6 files/);
    assert.equal(cached(await ask(repo)), true, "and the new turn is cached in its turn");

    // A commit that rewrites imports (HEAD moves, the work tree is clean again).
    commit(repo, { message: "switch", files: { ...files("date-fns", 5), "src/f10.ts": "export const x = 1;\n", "src/f11.ts": "export const y = 2;\n" } });
    const fourth = await ask(repo);
    assert.equal(cached(fourth), false);
    assert.match(usageLine(fourth, "opt-date-fns"), /^· Used in 5 files/);
  });

  test("outside git: an edited source file invalidates the cached turn", async () => {
    const dir = makeTempDir();
    writeFiles(dir, { "docs/adr/0001-date-library.md": RECORD, "package.json": `{"dependencies":{"moment":"1"}}\n`, ...files("moment", 3) });
    const first = await ask(dir);
    assert.match(usageLine(first, "opt-moment"), /^· Used in 4 files/);
    assert.equal(cached(await ask(dir)), true);
    writeFiles(dir, { "src/f0.ts": `import lib from "date-fns";\nexport const d0 = lib;\n` });
    const again = await ask(dir);
    assert.equal(cached(again), false);
    assert.match(usageLine(again, "opt-moment"), /^· Used in 3 files/);
  });

  test("an entry written before the code state existed is not served", async () => {
    const repo = createGitRepo([{ message: "init", files: { "docs/adr/0001-date-library.md": RECORD, "package.json": `{"dependencies":{"moment":"1"}}\n`, ...files("moment", 2) } }]);
    await ask(repo);
    const cacheDir = join(repo, ".deliberations", "cache");
    for (const name of readdirSync(cacheDir).filter((n) => n.endsWith(".json"))) {
      const entry = JSON.parse(readFileSync(join(cacheDir, name), "utf8")) as Record<string, unknown>;
      assert.equal(typeof entry.code_state, "string");
      delete entry.code_state;
      writeFileSync(join(cacheDir, name), JSON.stringify(entry) + "\n");
    }
    assert.equal(cached(await ask(repo)), false);
    assert.equal(cached(await ask(repo)), true, "the rewritten entry carries the state again");
  });

  test("an entry another pipeline revision wrote (an upgrade), or one without a revision, is not served", async () => {
    const repo = createGitRepo([{ message: "init", files: { "docs/adr/0001-date-library.md": RECORD, "package.json": `{"dependencies":{"moment":"1"}}\n`, ...files("moment", 2) } }]);
    await ask(repo);
    const cacheDir = join(repo, ".deliberations", "cache");
    const rewrite = (change: (entry: Record<string, unknown>) => void) => {
      for (const name of readdirSync(cacheDir).filter((n) => n.endsWith(".json"))) {
        const entry = JSON.parse(readFileSync(join(cacheDir, name), "utf8")) as Record<string, unknown>;
        assert.equal(entry.pipeline_revision, PIPELINE_REVISION);
        change(entry);
        writeFileSync(join(cacheDir, name), JSON.stringify(entry) + "\n");
      }
    };
    rewrite((entry) => (entry.pipeline_revision = PIPELINE_REVISION - 1));
    assert.equal(cached(await ask(repo)), false, "an older revision's turn is computed again");
    assert.equal(cached(await ask(repo)), true);
    rewrite((entry) => delete entry.pipeline_revision);
    assert.equal(cached(await ask(repo)), false, "an entry from before revisions is computed again");
  });
});
