// Pathological git history records (a commit message or a documentation diff of several MB) are split in linear
// time and cut to their head (gitStream.ts RecordSplitter), while normal records come through unchanged.
import { describe, test, after } from "node:test";
import assert from "node:assert/strict";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  COMMIT_SPLIT,
  DOC_CAPS,
  DOC_DIFF_SPLIT,
  RECORD_CAP,
  RecordSplitter,
  readSpooledCommits,
  spoolCommits,
  streamCommits,
  streamDocDiffs,
  type CommitRecord,
  type DocDiff,
} from "../../src/core/internal/history/gitStream";
import { createGitRepo, git, makeTempDir, writeFiles } from "../helpers/gitRepo";

const RS = "\x1e";
const FS = "\x1f";

/** The splitter's records for `text` fed in chunks of `size` characters. */
function splitAll(text: string, size: number, split = DOC_DIFF_SPLIT): string[] {
  const s = new RecordSplitter(RS, split);
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(...s.push(text.slice(i, i + size)));
  return [...out, ...s.end()];
}

describe("RecordSplitter", () => {
  test("normal records come out exactly as a whole-text split, whatever the chunking", () => {
    const records = ["", "abc\nM\0a.md\0", `${"x".repeat(70_000)}${FS}body${FS}\0\nA\0b\0`, "", "tail\n"];
    const text = records.map((r) => RS + r).join("") + RS + RS;
    const expected = text.split(RS).filter((r) => r.length > 0);
    for (const size of [1, 2, 7, 1000, 65_536, text.length]) {
      assert.deepEqual(splitAll(text, size), expected, `chunks of ${size}`);
      assert.deepEqual(splitAll(text, size, COMMIT_SPLIT), expected, `chunks of ${size}, per field`);
    }
  });

  test("a record past the cap keeps its head in whole lines, and the next record is intact", () => {
    const line = "+generated line of text\n";
    const big = "sha\n" + line.repeat(Math.ceil((3 * RECORD_CAP) / line.length));
    const [first, second] = splitAll(RS + big + RS + "next\n", 64 * 1024);
    assert.ok(first.length <= RECORD_CAP && first.length > RECORD_CAP - line.length, String(first.length));
    assert.ok(first.startsWith("sha\n+generated") && first.endsWith("text\n"));
    assert.equal(second, "next\n");
  });

  test("in the commit log each field is capped on its own, so the file list after a huge body survives", () => {
    const body = "b".repeat(2 * RECORD_CAP + 5);
    const files = Array.from({ length: 3 }, (_, i) => `M\0file${i}.md\0`).join("");
    const [rec] = splitAll(`${RS}sha${FS}1${FS}subject${FS}${body}${FS}\0\n${files}`, 256 * 1024, COMMIT_SPLIT);
    const fields = rec.split(FS);
    assert.equal(fields.length, 5);
    assert.equal(fields[3], "b".repeat(RECORD_CAP));
    assert.equal(fields[4], `\0\n${files}`);
  });

  test("a cut file list ends after a whole NUL-terminated token", () => {
    const files = Array.from({ length: 200_000 }, (_, i) => `M\0dir/file-${i}.md\0`).join("");
    const [rec] = splitAll(`${RS}sha${FS}1${FS}s${FS}${FS}\0\n${files}`, 256 * 1024, COMMIT_SPLIT);
    const list = rec.split(FS)[4];
    assert.ok(list.length <= RECORD_CAP && list.endsWith("\0"));
    assert.ok(`\0\n${files}`.startsWith(list));
  });
});

describe("git history records of several MB", () => {
  const dirs: string[] = [];
  after(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  /** A repo whose second commit has a ~6 MB message and a ~6 MB generated doc, then a normal third commit. */
  function bigRepo(): string {
    const repo = createGitRepo([{ message: "init", files: { "docs/adr/0001-use-postgres.md": "# 1. Use PostgreSQL\n\n## Status\nAccepted\n" } }]);
    dirs.push(repo);
    const line = "Some generated API reference text line that is fairly ordinary and contains words.\n";
    writeFiles(repo, {
      "docs/adr/0002-switch.md": "# 2. Switch storage\n\nWe moved from MySQL to PostgreSQL.\n",
      "vendor/API.md": line.repeat(Math.ceil((6 * 1024 * 1024) / line.length)),
      "x.txt": "x\n",
    });
    const msgFile = join(makeTempDir(), "msg.txt");
    dirs.push(join(msgFile, ".."));
    const reason = "We moved from MySQL to PostgreSQL for storage because of reasons listed here.\n";
    writeFileSync(msgFile, "Switch storage\n\n" + reason.repeat(Math.ceil((6 * 1024 * 1024) / reason.length)));
    git(repo, ["add", "-A"]);
    git(repo, ["commit", "-q", "-F", msgFile]);
    writeFiles(repo, { "docs/adr/0003-later.md": "# 3. Later\n\nWe will use Redis for caching.\n" });
    git(repo, ["add", "-A"]);
    git(repo, ["commit", "-q", "-m", "Add caching ADR", "-m", "Body of a normal commit."]);
    return repo;
  }

  function checkCommits(commits: CommitRecord[]): void {
    assert.deepEqual(
      commits.map((c) => c.subject),
      ["Add caching ADR", "Switch storage", "init"],
    );
    const [later, big] = commits;
    assert.equal(later.body, "Body of a normal commit.");
    assert.deepEqual(later.files, [{ status: "A", path: "docs/adr/0003-later.md" }]);
    assert.ok(big.body.startsWith("We moved from MySQL to PostgreSQL") && big.body.length <= RECORD_CAP);
    assert.deepEqual(
      big.files.map((f) => `${f.status} ${f.path}`),
      ["A docs/adr/0002-switch.md", "A vendor/API.md", "A x.txt"],
    );
  }

  test("a commit with a 6 MB message is parsed, streamed or spooled, with its subject and files", async () => {
    const repo = bigRepo();
    const streamed: CommitRecord[] = [];
    await streamCommits({ range: ["HEAD"] }, { cwd: repo, firstParentMerges: true }, (c) => {
      streamed.push(c);
    });
    checkCommits(streamed);
    const spool = join(makeTempDir(), "commits.spool");
    dirs.push(join(spool, ".."));
    await spoolCommits({ range: ["HEAD"] }, { cwd: repo, firstParentMerges: true }, spool);
    const spooled: CommitRecord[] = [];
    await readSpooledCommits(spool, (c) => {
      spooled.push(c);
    });
    checkCommits(spooled);
    assert.deepEqual(spooled, streamed);
  });

  test("a commit adding a 6 MB doc yields its capped doc diff, the small doc before it included", async () => {
    const repo = bigRepo();
    const diffs: DocDiff[] = [];
    await streamDocDiffs({ range: ["HEAD"] }, ["*.md"], { cwd: repo }, (d) => {
      diffs.push(d);
    });
    assert.equal(diffs.length, 3);
    const big = diffs[1];
    assert.deepEqual(
      big.files.map((f) => f.path),
      ["docs/adr/0002-switch.md", "vendor/API.md"],
    );
    assert.match(big.files[0].hunks[0].text, /^\+# 2\. Switch storage/);
    assert.ok(big.text.length <= DOC_CAPS.chars + DOC_CAPS.lineChars && big.text.split("\n").length <= DOC_CAPS.lines);
    assert.match(diffs[0].text, /We will use Redis for caching/);
  });
});
