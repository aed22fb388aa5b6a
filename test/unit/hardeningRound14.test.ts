// Defects an adversarial probe found in round 14, each reproduced on a real repository or file system: a filter
// driver run by the guard's work-tree diff, writes carried out of the repository by symlinked receipt folders, a
// lock file read without end, FIFOs that hang the receipt readers, a supersession chain that overflowed the stack,
// a gitfile naming another repository, and the file-system root taken as a repository.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync, chmodSync, rmSync } from "node:fs";
import { join } from "node:path";
import { readChange } from "../../src/core/guard/change";
import { checkRepository, filterOverrides } from "../../src/core/internal/gitSafety";
import { prepareReceiptsDir, storeEvidenceFile, evidenceFileOf } from "../../src/core/receipts/store";
import { NotARegularFileError, readRegularFile, withFileLock } from "../../src/core/receipts/fsutil";
import { loadLearning } from "../../src/core/learning/load";
import { generateSigningKey } from "../../src/core/receipts/signing";
import { folderWritableInside } from "../../src/core/contain";
import { parseAdr } from "../../src/core/internal/adr";
import { supersessionEdgesOf } from "../../src/core/internal/docsExpert";
import { repoOption } from "../../src/cli/common";
import { extractHtml, nestingDepth } from "../../src/core/external/extract";
import { createGitRepo, git, makeTempDir } from "../helpers/gitRepo";

const posixOnly = process.platform === "win32" ? { skip: "POSIX file types" } : {};

describe("the guard's work-tree diff runs no filter driver", () => {
  test("a clean filter the config names is never run, and the change is still read", async () => {
    const repo = createGitRepo([{ message: "init", files: { ".gitattributes": "*.txt filter=evil\n", "notes.txt": "hello\n" } }]);
    const marker = join(makeTempDir(), "ran");
    const script = join(repo, ".git", "evil.sh");
    writeFileSync(script, `#!/bin/sh\necho ran >> ${marker}\ncat\n`);
    chmodSync(script, 0o755);
    git(repo, ["config", "filter.evil.clean", `${script} %f`]);
    git(repo, ["config", "filter.evil.process", script]);
    git(repo, ["config", "filter.evil.required", "true"]);
    // A stat-dirty tracked file: git must hash it, which is where the clean filter would run.
    await new Promise((r) => setTimeout(r, 1100));
    writeFileSync(join(repo, "notes.txt"), "hello world\n");
    for (const source of [{ kind: "worktree" as const }, { kind: "ref" as const, ref: "HEAD" }, { kind: "files" as const, files: ["notes.txt"] }]) {
      const change = await readChange(repo, source);
      assert.deepEqual(change.files.find((f) => f.path === "notes.txt")?.added.map((l) => l.text), ["hello world"], source.kind);
    }
    assert.equal(existsSync(marker), false, "the filter script never ran");
    const overrides = await filterOverrides(repo);
    assert.ok(overrides.includes("filter.evil.clean=") && overrides.includes("filter.evil.process=") && overrides.includes("filter.evil.required=false"));
  });
});

describe("writes stay inside the repository", () => {
  const repoWithOutside = () => {
    const repo = createGitRepo([{ message: "init", files: { "README.md": "# r\n" } }]);
    const outside = makeTempDir("outside-");
    return { repo, outside };
  };

  test("a symlinked cache or evidence folder is refused before anything is written through it", async () => {
    const { repo, outside } = repoWithOutside();
    mkdirSync(join(repo, ".deliberations"));
    symlinkSync(outside, join(repo, ".deliberations", "cache"));
    await assert.rejects(prepareReceiptsDir(repo, ".deliberations", ["cache"]), /\.deliberations\/cache resolves outside the repository/);
    rmSync(join(repo, ".deliberations", "cache"));
    symlinkSync(outside, join(repo, ".deliberations", "evidence"));
    await assert.rejects(storeEvidenceFile(repo, evidenceFileOf([])), /\.deliberations\/evidence resolves outside the repository/);
    assert.deepEqual(readdirSync(outside), [], "nothing was written outside");
    assert.equal(await folderWritableInside(repo, ".deliberations/evidence"), false);
    assert.equal(await folderWritableInside(repo, ".deliberations/not-yet/deeper"), true, "a missing folder under an inside one may be created");
  });

  test("the learning cache is not written through a symlinked cache folder or receipts folder", async () => {
    const key = generateSigningKey();
    for (const link of [".deliberations/cache", ".deliberations"]) {
      const { repo, outside } = repoWithOutside();
      if (link === ".deliberations/cache") mkdirSync(join(repo, ".deliberations"));
      symlinkSync(outside, join(repo, link));
      await loadLearning(repo, key);
      assert.deepEqual(readdirSync(outside), [], `${link}: nothing written outside`);
    }
  });
});

describe("reads of receipts, caches and locks are bounded", () => {
  test("a FIFO is refused at once, a symlink is refused unless followed, a device never read", posixOnly, async () => {
    const dir = makeTempDir();
    const fifo = join(dir, "x.json");
    execFileSync("mkfifo", [fifo]);
    await assert.rejects(readRegularFile(fifo, { maxBytes: 1024 }), NotARegularFileError);
    symlinkSync("/dev/zero", join(dir, "zero.lock"));
    await assert.rejects(readRegularFile(join(dir, "zero.lock"), { maxBytes: 1024 }), /is a symlink/);
    await assert.rejects(readRegularFile(join(dir, "zero.lock"), { maxBytes: 1024, followSymlinks: true }), /not a regular file/);
    writeFileSync(join(dir, "big"), Buffer.alloc(2048));
    await assert.rejects(readRegularFile(join(dir, "big"), { maxBytes: 1024 }), /over the 1024-byte limit/);
    assert.equal((await readRegularFile(join(dir, "big"), { maxBytes: 4096 })).length, 2048);
  });

  test("a lock that is a symlink (committed or planted) is broken at once, not read", posixOnly, async () => {
    const dir = makeTempDir();
    const file = join(dir, "r.json");
    symlinkSync("/dev/zero", `${file}.lock`);
    const started = Date.now();
    const value = await withFileLock(file, async () => "done", 5_000);
    assert.equal(value, "done");
    assert.ok(Date.now() - started < 4_000, "not left to time out");
    assert.equal(existsSync(`${file}.lock`), false);
  });
});

describe("long supersession chains", () => {
  test("ten thousand records each superseding the one before are linked without overflowing the stack", () => {
    const n = 10_000;
    const adrs = Array.from({ length: n }, (_, k) => {
      const i = k + 1;
      const id = String(i).padStart(5, "0");
      const supersedes = i > 1 ? `\n## Consequences\n\nSupersedes ADR-${String(i - 1).padStart(5, "0")}.\n` : "";
      return parseAdr(`docs/adr/${id}-storage.md`, `# ${i}. Storage, revision ${i}\n\n## Status\n\nAccepted\n\n## Decision\n\nWe will use PostgreSQL.\n${supersedes}`);
    });
    const edges = supersessionEdgesOf(adrs);
    assert.equal(edges.filter(([, , inferred]) => !inferred).length, n - 1);
  });
});

describe("what counts as a repository", () => {
  test("a .git file naming another repository's git directory is refused; a linked worktree is not", async () => {
    const other = createGitRepo([{ message: "other", files: { "a.md": "a\n" } }]);
    const dir = makeTempDir();
    writeFileSync(join(dir, ".git"), `gitdir: ${join(other, ".git")}\n`);
    await assert.rejects(checkRepository(dir), /its git directory is/);
    const worktree = join(makeTempDir(), "wt");
    git(other, ["worktree", "add", "-q", worktree]);
    assert.equal((await checkRepository(worktree)).kind, "work-tree");
  });

  test("the file-system root is no repository for the CLI", () => {
    assert.throws(() => repoOption("/"), /refusing the file-system root/);
  });
});

describe("fetched pages", () => {
  test("a page nested thousands deep is read from its body, not through Readability (whose cost would freeze the process)", () => {
    const n = 2000;
    const html = `<html><head><title>Deep</title></head><body>${"<div>".repeat(n)}<p>the only text</p>${"</div>".repeat(n)}</body></html>`;
    assert.equal(nestingDepth(html), n);
    const page = extractHtml(html);
    assert.equal(page.method, "body");
    assert.equal(page.text, "the only text");
    // Ordinary pages stay shallow, even with the closing tags HTML lets them leave out.
    assert.equal(nestingDepth("<html><body><article><p>a<br>b</p><img src=x></article></body></html>"), 1);
    assert.equal(nestingDepth(`<html><body><main><ul>${"<li>item".repeat(500)}</ul>${"<p>para".repeat(500)}</main></body></html>`), 2);
  });
});

