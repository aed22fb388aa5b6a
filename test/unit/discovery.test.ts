import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { resolveConfig } from "../../src/core/config";
import { sha256 } from "../../src/core/hash";
import { parseAdr } from "../../src/core/internal/adr";
import { conventionType, discoverArtifacts, mentionedPaths, normaliseText } from "../../src/core/internal/discovery";
import { commit, createGitRepo, makeTempDir, writeFiles } from "../helpers/gitRepo";
import { ADR_0001, ADR_0005, createSampleRepo } from "../fixtures/sampleRepo";

const config = resolveConfig();
const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
function track(dir: string): string {
  dirs.push(dir);
  return dir;
}

describe("discoverArtifacts on the sample repo", () => {
  const repo = track(createSampleRepo());

  it("finds ADRs, conventions and the canonical files they name, sorted and typed", async () => {
    const set = await discoverArtifacts(repo, config);
    assert.deepEqual(
      set.files.map((f) => [f.path, f.source_type]),
      [
        ["AGENTS.md", "agent-instructions"],
        ["ARCHITECTURE.md", "architecture"],
        ["docs/adr/0001-record-architecture-decisions.md", "adr"], // matches an architecture glob too; ADR wins
        ["docs/adr/0002-use-mongodb-for-order-storage.md", "adr"],
        ["docs/adr/0003-use-rest-for-the-public-api.md", "adr"],
        ["docs/adr/0005-use-postgresql-for-order-storage.md", "adr"],
        ["docs/decisions/0004-use-zustand-for-cart-state.md", "adr"],
        ["docs/decisions/20240312-use-pino-for-logging.md", "adr"],
        ["src/db/client.ts", "canonical-file"], // named by AGENTS.md and ARCHITECTURE.md
      ],
    );
    assert.deepEqual(set.skipped, []);
    for (const f of set.files) {
      assert.equal(f.abs, join(repo, f.path));
      assert.equal(f.text, normaliseText(readFileSync(f.abs, "utf8")));
      assert.equal(f.hash, sha256(f.text));
    }
    const expectedHash = sha256(set.files.map((f) => `${f.path}\0${f.hash}\n`).join(""));
    assert.equal(set.hash, expectedHash);
  });

  it("is deterministic, and the hash changes when an ADR changes", async () => {
    const a = await discoverArtifacts(repo, config);
    const b = await discoverArtifacts(repo, config);
    assert.deepEqual(a, b);
    commit(repo, { message: "edit ADR 5", files: { "docs/adr/0005-use-postgresql-for-order-storage.md": ADR_0005 + "\nAddendum.\n" } });
    const c = await discoverArtifacts(repo, config);
    assert.notEqual(c.hash, a.hash);
    assert.deepEqual(c.files.map((f) => f.path), a.files.map((f) => f.path));
  });

  it("throws the abort reason when aborted", async () => {
    const ac = new AbortController();
    const reason = new Error("stop");
    ac.abort(reason);
    await assert.rejects(discoverArtifacts(repo, config, ac.signal), (err) => err === reason);
  });
});

describe("discoverArtifacts on awkward files", () => {
  const big = "# 9. Big\n\n## Status\n\nAccepted\n\n" + "x".repeat(1024 * 1024 + 10) + "\n";
  const binary = Buffer.concat([Buffer.from("# 6. Binary\n"), Buffer.from([0, 1, 2, 3, 0]), Buffer.from("rest")]);
  const invalidUtf8 = Buffer.concat([Buffer.from("# 7. Latin-1\n\nCaf"), Buffer.from([0xe9]), Buffer.from(" au lait\n")]);
  const malformedFrontMatter = "---\nstatus: [accepted\n---\n# 8. Broken front matter\n\n## Decision\n\nKeep going.\n";
  const crlf = "# 10. CRLF\r\n\r\n## Status\r\n\r\nAccepted\r\n\r\n## Decision\r\n\r\nWindows line endings.\r\n";
  const bom = "\uFEFF# 11. BOM\n\n## Status\n\nProposed\n";
  const repo = track(
    createGitRepo([
      {
        message: "awkward artifacts",
        files: {
          ".gitignore": "docs/adr/private/\n*.generated.md\nbuild/\n",
          "docs/adr/0001-record-architecture-decisions.md": ADR_0001,
          "docs/adr/0006-binary.md": binary,
          "docs/adr/0007-latin1.md": invalidUtf8,
          "docs/adr/0008-broken-front-matter.md": malformedFrontMatter,
          "docs/adr/0009-big.md": big,
          "docs/adr/0010-crlf.md": crlf,
          "docs/adr/0011-bom.md": bom,
          "docs/adr/vendor/.gitignore": "ignored-here.md\n",
          "docs/adr/vendor/ignored-here.md": "# nested ignore\n",
          "docs/adr/vendor/kept.md": "# kept\n",
          "Docs/Decisions/0012-upper-case-folder.md": "# 12. Upper case\n",
          ".github/copilot-instructions.md": "- Prefer small functions.\n",
          ".cursor/rules/style.mdc": "- Use tabs.\n",
          ".cursorrules": "Always write tests.\n",
          "docs/CONTRIBUTING.md": "# Contributing\n\n- Run the tests.\n",
          "docs/DESIGN-notes.md": "# Design\n\nNotes naming `src/app.ts`, [the config](../config/app.json) and src/missing.ts.\n",
          "src/app.ts": "export const app = 1;\n",
          "config/app.json": "{}\n",
          "node_modules/pkg/AGENTS.md": "# vendored\n",
        },
      },
    ]),
  );
  // Ignored by .gitignore: written after the commit (git would refuse to track them anyway).
  writeFiles(repo, {
    "docs/adr/private/0099-secret.md": "# 99. Secret\n",
    "docs/adr/0098-x.generated.md": "# 98. Generated\n",
    "build/AGENTS.md": "# generated copy\n",
  });

  it("skips binary, oversized and invalid UTF-8 files with reasons, and never throws", async () => {
    const set = await discoverArtifacts(repo, config);
    const skipped = Object.fromEntries(set.skipped.map((s) => [s.path, s.reason]));
    assert.match(skipped["docs/adr/0006-binary.md"], /binary/);
    assert.match(skipped["docs/adr/0007-latin1.md"], /invalid UTF-8/);
    assert.match(skipped["docs/adr/0009-big.md"], /over 1 MB/);
    const paths = set.files.map((f) => f.path);
    for (const p of Object.keys(skipped)) assert.ok(!paths.includes(p), p);
  });

  it("honours root and nested .gitignore files, ignoreGlobs, and matches case-insensitively including dot files", async () => {
    const set = await discoverArtifacts(repo, config);
    const types = Object.fromEntries(set.files.map((f) => [f.path, f.source_type]));
    assert.equal(types["docs/adr/private/0099-secret.md"], undefined);
    assert.equal(types["docs/adr/0098-x.generated.md"], undefined);
    assert.equal(types["docs/adr/vendor/ignored-here.md"], undefined);
    assert.equal(types["docs/adr/vendor/kept.md"], "adr");
    assert.equal(types["node_modules/pkg/AGENTS.md"], undefined);
    assert.equal(types["build/AGENTS.md"], undefined);
    assert.equal(types["Docs/Decisions/0012-upper-case-folder.md"], "adr");
    assert.equal(types[".github/copilot-instructions.md"], "agent-instructions");
    assert.equal(types[".cursor/rules/style.mdc"], "agent-instructions");
    assert.equal(types[".cursorrules"], "agent-instructions");
    assert.equal(types["docs/CONTRIBUTING.md"], "contributing");
    assert.equal(types["docs/DESIGN-notes.md"], "architecture");
    // Named by the design doc in backticks and as a relative link; a named but missing file is not added.
    assert.equal(types["src/app.ts"], "canonical-file");
    assert.equal(types["config/app.json"], "canonical-file");
    assert.equal(types["src/missing.ts"], undefined);

    const custom = await discoverArtifacts(repo, resolveConfig({ ignoreGlobs: [...config.ignoreGlobs, "**/vendor/**", "src/**"] }));
    const customPaths = custom.files.map((f) => f.path);
    assert.ok(!customPaths.includes("docs/adr/vendor/kept.md"));
    assert.ok(!customPaths.includes("src/app.ts"), "ignoreGlobs also apply to files docs name");
  });

  it("parses malformed front matter without throwing, and keeps CRLF and BOM files' line numbers right", async () => {
    const set = await discoverArtifacts(repo, config);
    const byPath = new Map(set.files.map((f) => [f.path, f]));

    const broken = byPath.get("docs/adr/0008-broken-front-matter.md");
    assert.ok(broken);
    const a = parseAdr(broken.path, broken.text);
    assert.ok(a.warnings.some((w) => w.includes("front matter")));
    assert.equal(broken.text.split("\n")[a.sections.decision!.start - 1], "## Decision");

    const win = byPath.get("docs/adr/0010-crlf.md");
    assert.ok(win);
    assert.ok(!win.text.includes("\r"));
    const rawLines = readFileSync(join(repo, win.path), "utf8").split("\r\n");
    const w = parseAdr(win.path, win.text);
    assert.equal(w.status, "accepted");
    assert.equal(rawLines[w.sections.decision!.start - 1], "## Decision");
    assert.equal(rawLines[w.sections.decision!.end - 1], "Windows line endings.");

    const b = byPath.get("docs/adr/0011-bom.md");
    assert.ok(b);
    assert.ok(b.text.startsWith("# 11. BOM"));
    assert.equal(parseAdr(b.path, b.text).status, "proposed");
  });

  it("skips unreadable files with a reason", { skip: process.getuid?.() === 0 ? "root can read mode-000 files" : false }, async () => {
    const dir = track(makeTempDir());
    writeFiles(dir, { "docs/adr/0001-a.md": "# 1. A\n", "docs/adr/0002-b.md": "# 2. B\n" });
    chmodSync(join(dir, "docs/adr/0002-b.md"), 0o000);
    try {
      const set = await discoverArtifacts(dir, config);
      assert.deepEqual(set.files.map((f) => f.path), ["docs/adr/0001-a.md"]);
      assert.match(set.skipped[0].reason, /unreadable/);
    } finally {
      chmodSync(join(dir, "docs/adr/0002-b.md"), 0o644);
    }
  });

  it("returns an empty set (not an error) for a folder with no artifacts", async () => {
    const dir = track(makeTempDir());
    writeFileSync(join(dir, "README.md"), "# nothing here\n");
    const set = await discoverArtifacts(dir, config);
    assert.deepEqual(set.files, []);
    assert.equal(set.hash, sha256(""));
  });
});

describe("discovery helpers", () => {
  it("classifies convention files", () => {
    assert.equal(conventionType("AGENTS.md"), "agent-instructions");
    assert.equal(conventionType("packages/web/CLAUDE.md"), "agent-instructions");
    assert.equal(conventionType(".cursor/rules/a.mdc"), "agent-instructions");
    assert.equal(conventionType("docs/ARCHITECTURE.md"), "architecture");
    assert.equal(conventionType("DESIGN.md"), "architecture");
    assert.equal(conventionType(".github/CONTRIBUTING.md"), "contributing");
  });

  it("a folder named in agent instructions ('go test ./...', 'src/') is no file: discovery neither reads nor throws on it", async () => {
    assert.deepEqual(mentionedPaths("Run `go test ./...` and `make ./cmd/app/.uptodate`; sources live in src/.", "AGENTS.md"), ["cmd/app/.uptodate"]);
    const repo = track(createGitRepo([{ message: "agents", files: { "AGENTS.md": "# Agents\n\nRun `go test ./...` before pushing; see [the tree](./) and [docs](docs/).\n", "docs/adr/0001-use-go.md": "# 1. Use Go\n\n## Decision\n\nWe will use Go.\n" } }]));
    const set = await discoverArtifacts(repo, config);
    assert.deepEqual(set.files.map((f) => f.path), ["AGENTS.md", "docs/adr/0001-use-go.md"]);
  });

  it("finds paths in backticks, links and plain text", () => {
    const text = "Use `src/db/client.ts`. See [REST](../adr/0003-rest.md#decision) and src/log.ts:12, e.g. Node.js; not https://x.test/a.ts";
    const found = mentionedPaths(text, "docs/guide/README.md");
    for (const p of ["src/db/client.ts", "docs/adr/0003-rest.md", "src/log.ts"]) assert.ok(found.includes(p), p);
    assert.ok(!found.some((p) => p.includes("x.test")));
  });
});
