// RFC processes that file a proposal by stage ("problem/" for the problem statement, "design/" once a design is
// proposed) number both folders the same way and write no status line. A numbered proposal laid out as an RFC
// (summary, prior art, unresolved questions) is a record of the log, and a small folder beside the log that
// continues its numbering holds a stage of it, not design notes that merely read like records. A spike write-up
// numbered another way, or a design series numbered from 1 again, beside the log stays an architecture doc. Every
// document here is written for these tests, on real git repositories in temp dirs.
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { resolveConfig } from "../../src/core/config";
import { discoverArtifacts } from "../../src/core/internal/discovery";
import { contentSignals, weakAdrContent } from "../../src/core/internal/adrDetect";
import { createGitRepo } from "../helpers/gitRepo";

const config = resolveConfig();
const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

// Headings carry the stage in brackets, as some templates do; no status line, no decision heading.
const designDoc = (title: string) =>
  `# ${title}\n\n- Authors: someone\n\n## Summary\n\nWhat ${title} changes.\n\n## Problem Statement (Step 1)\n\nWhy ${title} hurts today.\n\n## Design proposal (Step 2)\n\nHow ${title} would work.\n\n### Prior art\n\nOther projects.\n\n### Unresolved questions\n\nSome.\n\n### Future possibilities\n\nMore.\n`;
const problemDoc = (title: string) =>
  `# ${title}\n\n## Problem Statement\n\nThe ${title} problem.\n\n### Option 1: a flag\n\nText.\n\n### Option 2: an annotation\n\nText.\n\n## Context\n\nBackground on ${title}.\n`;
const adr = (title: string) => `# ${title}\n\n## Status\n\nAccepted\n\n## Context\n\nWhy.\n\n## Decision\n\nWe will do ${title}.\n`;
const spike = (title: string) => `# ${title}\n\n## Context\n\nWe tried ${title} for a week.\n\n## Decision\n\nKeep looking.\n`;

async function classified(files: Record<string, string>): Promise<Map<string, string>> {
  const repo = createGitRepo([{ message: "initial", files }]);
  dirs.push(repo);
  const set = await discoverArtifacts(repo, config);
  return new Map(set.files.map((f) => [f.path, f.source_type]));
}

describe("numbered RFC-style proposals", () => {
  it("count as records without a status line, and a heading's bracketed stage does not hide its part", () => {
    const s = contentSignals(designDoc("Release automation"));
    assert.ok(s.headings.has("context"), "Problem Statement (Step 1) reads as the context heading");
    assert.ok(weakAdrContent(s));
    assert.ok(!weakAdrContent(contentSignals("# Notes\n\nJust text, no headings at all.\n")));
  });

  it("are found in a design/ folder, and the problem/ folder numbered the same way stays records beside it", async () => {
    const found = await classified({
      "README.md": "# Proposals\n",
      "design/0001-release-automation.md": designDoc("Release automation"),
      "design/0002-flaky-test-report.md": designDoc("Flaky test report"),
      "design/0003-external-metrics-store.md": designDoc("External metrics store"),
      "design/0004-test-isolation.md": designDoc("Test isolation"),
      "design/0005-proxy-upgrades.md": designDoc("Proxy upgrades"),
      "problem/0006-port-detection.md": problemDoc("Port detection"),
    });
    for (const p of ["design/0001-release-automation.md", "design/0004-test-isolation.md", "problem/0006-port-detection.md"]) assert.equal(found.get(p), "adr", p);
  });

  it("still read a spike numbered another way beside a log as an architecture doc", async () => {
    const files: Record<string, string> = { "README.md": "# Service\n" };
    for (const [i, t] of ["queue choice", "cache layer", "auth tokens", "search index", "file storage"].entries()) files[`docs/adr/000${i + 1}-${t.replace(/ /g, "-")}.md`] = adr(t);
    files["docs/spikes/2023-05-graph-database.md"] = spike("graph database");
    // Beside the log and numbered the same way, but from 1 again: a series of its own, not a stage of the log.
    files["docs/designs/0001-bulk-export.md"] = spike("bulk export");
    files["docs/designs/0002-audit-trail.md"] = spike("audit trail");
    const found = await classified(files);
    assert.equal(found.get("docs/adr/0003-auth-tokens.md"), "adr");
    assert.equal(found.get("docs/spikes/2023-05-graph-database.md"), "architecture");
    assert.equal(found.get("docs/designs/0001-bulk-export.md"), "architecture");
  });
});
