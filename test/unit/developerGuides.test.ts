// A team writes many of its conventions as guides in the documentation folder that also holds its decision log
// ("docs/Adding a column.md" beside "docs/architecture/decisions/"). Discovery reads those pages as architecture docs,
// so a question a guide answers can find it; it leaves alone the folder's README and index, a template another doc
// names, deeper folders, docs folders that hold no log, and a docs site with more pages than a team's guides. Every
// document here is written for these tests, on real git repositories in temp dirs.
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { resolveConfig } from "../../src/core/config";
import { discoverArtifacts } from "../../src/core/internal/discovery";
import { createGitRepo } from "../helpers/gitRepo";

const config = resolveConfig();
const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const adr = (title: string) => `# ${title}\n\n## Status\n\nAccepted\n\n## Context\n\nWhy.\n\n## Decision\n\nWe will do ${title}.\n`;
const guide = (title: string) => `# ${title}\n\nSteps the team follows for ${title}.\n`;

async function types(files: Record<string, string>): Promise<Map<string, string>> {
  const repo = createGitRepo([{ message: "initial", files }]);
  dirs.push(repo);
  const set = await discoverArtifacts(repo, config);
  return new Map(set.files.map((f) => [f.path, f.source_type]));
}

describe("guides beside the decision log", () => {
  it("reads the docs folder's own pages as architecture docs, but not its README, index or deeper folders", async () => {
    const found = await types({
      "README.md": "# Service\n",
      "docs/architecture/decisions/0001-queue-library.md": adr("Queue library"),
      "docs/architecture/decisions/0002-search-engine.md": adr("Search engine"),
      "docs/Adding a required column.md": guide("adding a required column"),
      "docs/Dependency pinning.md": guide("dependency pinning"),
      "docs/README.md": guide("the docs"),
      "docs/index.md": "# Docs\n\n- [Adding a required column](Adding%20a%20required%20column.md)\n",
      "docs/runbooks/restart.md": guide("restarts"),
    });
    assert.equal(found.get("docs/Adding a required column.md"), "architecture");
    assert.equal(found.get("docs/Dependency pinning.md"), "architecture");
    assert.equal(found.get("docs/architecture/decisions/0002-search-engine.md"), "adr");
    for (const p of ["docs/README.md", "docs/index.md", "docs/runbooks/restart.md"]) assert.notEqual(found.get(p), "architecture", p);
  });

  it("adds nothing when the docs folder holds no decision log, or is a docs site", async () => {
    const plain = await types({ "README.md": "# Tool\n", "adr/0001-cli-parser.md": adr("CLI parser"), "docs/Usage.md": guide("usage") });
    assert.equal(plain.get("docs/Usage.md"), undefined);

    const site: Record<string, string> = { "README.md": "# Tool\n", "docs/adr/0001-cli-parser.md": adr("CLI parser") };
    for (let i = 0; i < 45; i++) site[`docs/page-${i}.md`] = guide(`page ${i}`);
    const big = await types(site);
    assert.equal(big.get("docs/page-3.md"), undefined);
    assert.equal(big.get("docs/adr/0001-cli-parser.md"), "adr");
  });

  it("never turns a template that a guide names into a record", async () => {
    const found = await types({
      "README.md": "# Service\n",
      "docs/decisions/0001-first.md": adr("First"),
      "docs/decisions/0002-second.md": adr("Second"),
      "docs/decisions/adr-template.md": "# {short title of solved problem}\n\n## Context\n\n{describe the context}\n",
      "docs/Writing records.md": "# Writing records\n\nCopy docs/decisions/adr-template.md to start a new one.\n",
    });
    assert.equal(found.get("docs/Writing records.md"), "architecture");
    assert.notEqual(found.get("docs/decisions/adr-template.md"), "adr");
  });
});
