// Supersession signals a real log carries without saying "Superseded by" (issue 20, round 32): record numbers
// that keep counting across the status folders a log files its records under, a removal that a later removal on
// the same subject does not undo, and a withdrawn proposal that a later record in force on its subject outranks.
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { resolveConfig } from "../../src/core/config";
import { parseAdr } from "../../src/core/internal/adr";
import { discoverArtifacts } from "../../src/core/internal/discovery";
import { createDocsExpert, supersessionEdgesOf } from "../../src/core/internal/docsExpert";
import { buildRulesPlan } from "../../src/core/terms";
import type { ExpertContext } from "../../src/core/types";
import { createGitRepo } from "../helpers/gitRepo";

const rfc = (path: string, title: string, decision: string) => parseAdr(path, `# ${title}\n\n## Summary\n\n${decision}\n\n## Motivation\n\nBuilds are slow on a cold cache.\n`);

/** Records about other things, so the subject words of the records under test are rare in the log. */
const others = ["Pick a changelog format", "Sign release tarballs", "Lint commit messages", "Publish nightly docs"].map((title, i) =>
  rfc(`rfcs/implemented/00${20 + i}-${title.toLowerCase().replace(/\s+/g, "-")}.md`, title, `We will ${title.toLowerCase()}.`),
);

describe("record numbers across status folders", () => {
  test("a later-numbered removal in another status folder of the same log succeeds the earlier record", () => {
    const earlier = rfc("rfcs/accepted/0004-warm-the-build-cache.md", "Warm the build cache", "CI warms the build cache every night.");
    const later = rfc("rfcs/implemented/0011-remove-build-cache-warming.md", "Remove build cache warming", "Remove the nightly build cache warming job.");
    const edges = supersessionEdgesOf([earlier, later, ...others]);
    assert.deepEqual(edges, [["rfcs/accepted/0004-warm-the-build-cache.md", "rfcs/implemented/0011-remove-build-cache-warming.md", true]]);
  });

  test("a record moved into a status subfolder of the log counts in the log's numbering", () => {
    const earlier = rfc("rfcs/superseded/0004-warm-the-build-cache.md", "Warm the build cache", "CI warms the build cache every night.");
    const later = rfc("rfcs/0011-remove-build-cache-warming.md", "Remove build cache warming", "Remove the nightly build cache warming job.");
    const edges = supersessionEdgesOf([earlier, later, ...others]);
    assert.deepEqual(edges, [["rfcs/superseded/0004-warm-the-build-cache.md", "rfcs/0011-remove-build-cache-warming.md", true]]);
  });

  test("folders that are not status folders keep numbers of their own, so nothing is ordered across them", () => {
    const earlier = rfc("rfcs/frontend/0011-warm-the-build-cache.md", "Warm the build cache", "CI warms the build cache every night.");
    const later = rfc("rfcs/backend/0004-remove-build-cache-warming.md", "Remove build cache warming", "Remove the nightly build cache warming job.");
    assert.deepEqual(supersessionEdgesOf([earlier, later, ...others]), []);
  });
});

describe("a removal after a removal", () => {
  test("a later record removing the same flag elsewhere does not supersede the earlier removal", () => {
    const earlier = rfc("rfcs/0004-remove-the-depth-flag-from-sync.md", "Remove the depth flag from sync", "Sync always walks the whole tree; the depth flag is removed.");
    const later = rfc("rfcs/0011-remove-the-depth-flag-from-status.md", "Remove the depth flag from status", "Status always reports the whole tree; the depth flag is removed.");
    assert.deepEqual(supersessionEdgesOf([earlier, later, ...others]), []);
  });

  test("a later removal still supersedes the record that introduced what it removes", () => {
    const earlier = rfc("rfcs/0004-a-depth-flag-for-sync.md", "A depth flag for sync", "Sync takes a depth flag that limits how deep it walks.");
    const later = rfc("rfcs/0011-remove-the-depth-flag-from-sync.md", "Remove the depth flag from sync", "Sync always walks the whole tree; the depth flag is removed.");
    assert.deepEqual(supersessionEdgesOf([earlier, later, ...others]), [["rfcs/0004-a-depth-flag-for-sync.md", "rfcs/0011-remove-the-depth-flag-from-sync.md", true]]);
  });
});

describe("a withdrawn proposal and a later record in force on its subject", () => {
  const config = resolveConfig();
  const dirs: string[] = [];
  after(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });
  const rec = (title: string, status: string, body: string) => `# ${title}\n\n## Status\n\n${status}\n\n## Summary\n\n${body}\n`;
  const LATER = "rfcs/accepted/0009-sync-refreshes-the-whole-tree.md";
  const QUESTION = "Can sync touch only the named package and leave its dependencies alone?";

  /** Records in `folder` ("withdrawn" or "rejected"): the proposal under test and a few about other things. */
  async function ranked(folder: string, status: string): Promise<string[]> {
    const files: Record<string, string> = {
      [`rfcs/${folder}/0004-shallow-sync-of-a-named-package.md`]: rec(
        "Shallow sync of a named package",
        status,
        "When a user syncs one named package, sync only that package and leave its dependencies alone. Dependencies of the named package keep the versions the lockfile pins. " +
          "A named package sync that touches dependencies surprises users: they asked for one package.",
      ),
      [LATER]: rec(
        "Sync refreshes the whole tree",
        "Accepted",
        "Sync refreshes every package in the tree at every level. Syncing a named package also syncs the dependencies of that package, whatever versions the lockfile pins, so the lockfile always matches a fresh install.",
      ),
    };
    for (let i = 1; i <= 3; i++) files[`rfcs/${folder}/000${i}-mirror-step-${i}.md`] = rec(`Mirror step ${i}`, status, `Mirror tarballs to host ${i}.`);
    for (let i = 0; i < 10; i++) files[`rfcs/accepted/00${20 + i}-release-step-${i}.md`] = rec(`Release step ${i}`, "Accepted", `The release job runs step ${i} before publishing tarballs.`);
    const dir = createGitRepo([{ message: "records", files }]);
    dirs.push(dir);
    const artifacts = await discoverArtifacts(dir, config);
    const ctx: ExpertContext = { repo: dir, question: QUESTION, plan: buildRulesPlan(QUESTION), config, artifacts, signal: new AbortController().signal, log: () => {} };
    return [...new Set((await createDocsExpert().run(ctx)).items.map((i) => i.path_or_url))];
  }

  test("the later accepted record ranks first, though the withdrawn text matches the question far better", async () => {
    const docs = await ranked("withdrawn", "Withdrawn");
    assert.deepEqual(docs.slice(0, 2), [LATER, "rfcs/withdrawn/0004-shallow-sync-of-a-named-package.md"]);
  });

  test("a rejected proposal decided its question, and keeps first place with the same texts", async () => {
    const docs = await ranked("rejected", "Rejected");
    assert.deepEqual(docs.slice(0, 2), ["rfcs/rejected/0004-shallow-sync-of-a-named-package.md", LATER]);
  });
});

describe("links a proposal log writes in its own words", () => {
  const proposal = (path: string, front: string, title: string) => parseAdr(path, `---\n${front}\n---\n# ${title}\n\n## Summary\n\nHow pipelines pass values to their steps.\n`);

  test("front matter 'replaces' and 'replaced-by' name the records, by a prefixed number the log uses", () => {
    const old = proposal("proposals/0012-pass-values-by-name.md", "status: implemented\nreplaced-by:\n- PRP-0031", "Pass values by name");
    const older = proposal("proposals/0009-pass-values-by-position.md", "status: implemented", "Pass values by position");
    const later = proposal("proposals/0031-pass-values-implicitly.md", "status: implemented\nreplaces:\n- TEP-0009", "Pass values implicitly");
    assert.deepEqual(later.supersedes, ["TEP-0009"]);
    assert.deepEqual(old.superseded_by, ["PRP-0031"]);
    // "TEP-0009" resolves to record 9; "PRP" is no prefix a record log uses, so that link stays unresolved.
    assert.deepEqual(supersessionEdgesOf([old, older, later, ...others]), [["proposals/0009-pass-values-by-position.md", "proposals/0031-pass-values-implicitly.md", false]]);
  });

  test("a 'Superseded by RFC 31' line names record 31", () => {
    const old = parseAdr("rfcs/0012-pass-values-by-name.md", "# Pass values by name\n\nSuperseded by RFC 31.\n\n## Summary\n\nSteps read values by name.\n");
    const later = rfc("rfcs/0031-pass-values-implicitly.md", "Pass values implicitly", "Steps see every value of their pipeline.");
    assert.deepEqual(supersessionEdgesOf([old, later, ...others]), [["rfcs/0012-pass-values-by-name.md", "rfcs/0031-pass-values-implicitly.md", false]]);
  });
});
