// Supersession signals a real log carries without saying "Superseded by" (issue 20, round 32): record numbers
// that keep counting across the status folders a log files its records under, and a removal that a later removal
// on the same subject does not undo.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { parseAdr } from "../../src/core/internal/adr";
import { supersessionEdgesOf } from "../../src/core/internal/docsExpert";

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
