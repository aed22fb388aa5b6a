// A topic subfolder of a log ("text/profiles/") holds records of that log, never stray design notes.
// A folder that is mostly records is a decision log: its proposals written without a status line or record sections
// are records too, so a question can find them (issue 20: "records rank as records", RFC-style layouts). A docs
// folder with a few record-like pages among many guides stays a docs folder. Every document here is written for
// these tests, on real git repositories in temp dirs.
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { resolveConfig } from "../../src/core/config";
import { classifyAdrs, discoverArtifacts, strayRecordFolders } from "../../src/core/internal/discovery";
import { createGitRepo } from "../helpers/gitRepo";

const config = resolveConfig();
const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const record = (title: string) =>
  `# ${title}\n\nDate: 2024-02-01\n\n## Status\n\nAccepted\n\n## Context\n\nWhy ${title} came up.\n\n## Decision\n\nWe will do ${title}.\n\n## Consequences\n\nFollow-up work.\n`;
// How some RFC logs write a proposal: a problem and a design, no status line, no decision heading.
const proposal = (title: string) => `# ${title}\n\n## Problem\n\nThe ${title} problem.\n\n## Design\n\nA design for ${title}.\n`;
const guide = (title: string) => `# ${title}\n\nRun the tool with the flag described below.\n`;

async function records(files: Record<string, string>): Promise<string[]> {
  const repo = createGitRepo([{ message: "initial", files }]);
  dirs.push(repo);
  const set = await discoverArtifacts(repo, config);
  return set.files.filter((f) => f.source_type === "adr").map((f) => f.path);
}

const topics = ["ring hashing", "query sharding", "tenant limits", "block compaction", "rule federation", "store gateway"];

describe("a folder that is mostly records", () => {
  it("reads its plain proposals as records too, but not its README or changelog", async () => {
    const files: Record<string, string> = { "README.md": "# Project\n" };
    for (const t of topics) files[`docs/proposals/${t.replace(/ /g, "-")}.md`] = record(t);
    files["docs/proposals/native-histograms.md"] = proposal("Native histogram support");
    files["docs/proposals/bucket-index.md"] = proposal("Bucket index");
    files["docs/proposals/README.md"] = guide("About proposals");
    files["docs/proposals/CHANGELOG.md"] = guide("Changes");
    const found = await records(files);
    assert.ok(found.includes("docs/proposals/native-histograms.md"), found.join(", "));
    assert.ok(found.includes("docs/proposals/bucket-index.md"));
    assert.equal(found.filter((p) => p.startsWith("docs/proposals/")).length, 8);
    assert.ok(!found.includes("docs/proposals/README.md") && !found.includes("docs/proposals/CHANGELOG.md"));
  });

  it("leaves a docs folder whose records are fewer than its other pages as it is", () => {
    const docs = [
      ...topics.map((t) => ({ path: `docs/${t.replace(/ /g, "-")}.md`, text: record(t) })),
      ...["install", "configure", "upgrade", "backup", "restore", "monitor", "debug"].map((t) => ({ path: `docs/${t}.md`, text: proposal(t) })),
    ];
    const decided = classifyAdrs(docs, { hints: [], fromGlob: new Set() });
    assert.equal([...decided.adrs.keys()].filter((p) => p.startsWith("docs/")).length, topics.length);
    assert.ok(!decided.adrs.has("docs/install.md"));
  });

  it("needs a real log: four records and one plain page are not enough", () => {
    const docs = [...topics.slice(0, 4).map((t) => ({ path: `notes/${t.replace(/ /g, "-")}.md`, text: record(t) })), { path: "notes/other.md", text: proposal("Other") }];
    const decided = classifyAdrs(docs, { hints: [], fromGlob: new Set() });
    assert.ok(!decided.adrs.has("notes/other.md"));
    assert.equal(decided.adrs.size, 4);
  });

  it("never takes pages at the repository root by majority", () => {
    const docs = [...topics.map((t) => ({ path: `${t.replace(/ /g, "-")}.md`, text: record(t) })), { path: "notes.md", text: proposal("Notes") }];
    const decided = classifyAdrs(docs, { hints: [], fromGlob: new Set() });
    assert.ok(!decided.adrs.has("notes.md"));
  });
});

describe("a topic subfolder of a log", () => {
  it("keeps its two records as records, while two record-like notes elsewhere stay notes", async () => {
    const files: Record<string, string> = {};
    topics.forEach((t, i) => (files[`text/00${10 + i}-${t.replace(/ /g, "-")}.md`] = record(t)));
    files["text/profiles/0212-profiling-vision.md"] = record("profiling vision");
    files["text/profiles/0239-profiles-data-model.md"] = record("profiles data model");
    files["spikes/cache-notes.md"] = record("cache notes");
    const found = await records(files);
    assert.ok(found.includes("text/profiles/0212-profiling-vision.md") && found.includes("text/profiles/0239-profiles-data-model.md"), found.join(", "));
    assert.ok(!found.includes("spikes/cache-notes.md"));
    const stray = strayRecordFolders([
      { dir: "text", via: "content", count: 6 },
      { dir: "text/profiles", via: "content", count: 2 },
      { dir: "spikes", via: "content", count: 1 },
    ]);
    assert.deepEqual([...stray], ["spikes"]);
  });
});
