// The guard's record decisions kept between runs (src/core/guard/recordCache.ts): a warm check reads them from
// memory or disk instead of parsing every record again, gives the same report, and notices a changed record, a
// changed working tree (a named folder appearing) and a damaged cache file; and while discovery's fingerprint holds,
// a warm check does not even load the corpus snapshot (src/core/guard/basisCache.ts).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { checkChange } from "../../src/core/guard";
import { forgetDecisionBases } from "../../src/core/guard/basisCache";
import { cachedRecordDecisions, forgetRecordDecisions, type RecordDecisions } from "../../src/core/guard/recordCache";
import { forgetDiscoverySnapshots } from "../../src/core/internal/corpus/discovery";
import { corpusDirFor } from "../../src/core/internal/corpus/store";
import type { GuardDecision } from "../../src/core/guard/decisions";
import type { NameKeys } from "../../src/core/guard/names";
import type { ArtifactSet } from "../../src/core/types";
import { makeTempDir, writeFiles } from "../helpers/gitRepo";
import { CSS_ADR, CSS_ADR_PATH, createGuardRepo, packageJsonWith } from "../helpers/guardRepo";

const set = (hash: string): ArtifactSet => ({ files: [], skipped: [], hash });
// `later` and `flag` stand for fields the deciding code may add to these types: the disk round trip keeps them.
const one: RecordDecisions = {
  decisions: [
    {
      source: "record",
      citation: { path: "docs/adr/1.md", line_range: { start: 1, end: 9 }, title: "Use A", status: "accepted" },
      forbidden: [{ name: "B", keys: { display: "B", tokens: ["bee"], flag: true } as NameKeys, range: { start: 3, end: 3 } }],
      required: [],
      area: ["src/db/"],
      later: 1,
    } as GuardDecision,
  ],
  notes: ["docs/adr/2.md: could not be read as a record (x)"],
};

describe("the guard's record cache", () => {
  test("derived once per record set and code: memory, then disk in a fresh process; a copy each time", async () => {
    const dir = makeTempDir("delib-guard-cache-");
    forgetRecordDecisions();
    try {
      let derived = 0;
      const derive = async () => {
        derived++;
        return structuredClone(one);
      };
      const cache = { dir, codeId: "code-1" };
      const first = await cachedRecordDecisions("/repo", set("h1"), cache, derive);
      first.decisions[0]!.area.length = 0; // the caller's copy: changing it changes nothing kept
      const second = await cachedRecordDecisions("/repo", set("h1"), cache, derive);
      assert.equal(derived, 1);
      assert.deepEqual(second, one);
      forgetRecordDecisions(); // a fresh process: from disk
      assert.deepEqual(await cachedRecordDecisions("/repo", set("h1"), cache, derive), one);
      assert.equal(derived, 1);
      await cachedRecordDecisions("/repo", set("h2"), cache, derive);
      await cachedRecordDecisions("/repo", set("h1"), { dir, codeId: "code-2" }, derive);
      assert.equal(derived, 3, "other records, or other code, derive again");
      // A damaged file is ignored (derived again, then rewritten).
      forgetRecordDecisions();
      const folder = corpusDirFor(dir, "/repo");
      for (const f of readdirSync(folder).filter((n) => n.startsWith("guard-records-"))) writeFileSync(join(folder, f), "DSCORPUS1\n\0\0\0\0garbage");
      assert.deepEqual(await cachedRecordDecisions("/repo", set("h1"), cache, derive), one);
      assert.equal(derived, 4);
      assert.ok(readdirSync(folder).filter((n) => n.startsWith("guard-records-")).length <= 2, "older entries are pruned");
    } finally {
      forgetRecordDecisions();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("a warm check gives the cold check's report, and follows a changed record and a folder that appears", async () => {
    const repo = createGuardRepo();
    const dir = makeTempDir("delib-guard-cache-");
    const cache = { dir };
    const fresh = () => {
      forgetRecordDecisions();
      forgetDecisionBases();
      forgetDiscoverySnapshots();
    };
    const snapshots = (prefix: string) => readdirSync(corpusDirFor(dir, repo)).filter((n) => n.startsWith(prefix));
    try {
      fresh();
      writeFiles(repo, { "package.json": packageJsonWith({ tailwindcss: "^3.4.0" }) });
      // Past the fingerprint's racy window (a file written in the last moments is never vouched for by its stats).
      await new Promise((r) => setTimeout(r, 100));
      const cold = await checkChange(repo, { kind: "worktree" }, { cache });
      assert.equal(cold.findings.length, 1);
      // A warm check in a fresh process reads the guard's own small file, not the corpus snapshot: without the
      // snapshot on disk, it still gives the same report and discovery does not run (no snapshot is written).
      assert.equal(snapshots("guard-basis-").length, 1);
      for (const f of snapshots("discovery-")) rmSync(join(corpusDirFor(dir, repo), f));
      fresh();
      assert.deepEqual(await checkChange(repo, { kind: "worktree" }, { cache }), cold, "from the disk cache");
      assert.deepEqual(snapshots("discovery-"), [], "discovery was not asked");
      assert.deepEqual(await checkChange(repo, { kind: "worktree" }, { cache }), cold, "from memory");

      // The record now chose Tailwind: adding it is no longer a conflict.
      writeFileSync(join(repo, CSS_ADR_PATH), CSS_ADR.replace('Chosen option: "Pollen CSS"', 'Chosen option: "Tailwind CSS"'));
      const changed = await checkChange(repo, { kind: "worktree" }, { cache });
      assert.ok(!changed.findings.some((f) => f.kind === "introduces-rejected-option" && f.file === "package.json"), JSON.stringify(changed.findings));

      // A folder the record names appears in the working tree: a file there now touches its decided area.
      writeFileSync(join(repo, CSS_ADR_PATH), `${CSS_ADR}\nThe styles live in \`web/styles/\`.\n`);
      writeFiles(repo, { "package.json": readFileSync(join(repo, "package.json"), "utf8") });
      const before = await checkChange(repo, { kind: "worktree" }, { cache });
      assert.ok(!before.findings.some((f) => f.file.startsWith("web/styles/")));
      mkdirSync(join(repo, "web", "styles"), { recursive: true });
      writeFileSync(join(repo, "web", "styles", "main.css"), ":root { --x: 1; }\n");
      const after = await checkChange(repo, { kind: "worktree" }, { cache });
      assert.ok(
        after.findings.some((f) => f.kind === "touches-decided-area" && f.file === "web/styles/main.css" && f.decision.path === CSS_ADR_PATH),
        JSON.stringify(after.findings),
      );
    } finally {
      fresh();
      rmSync(repo, { recursive: true, force: true });
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
