// Defects the third adversarial probe found in the decision guard's change reader, each reproduced on a real git
// repository: a submodule's own clean filter run by the work-tree diff (#1), an untracked symlink to a FIFO that hung
// the check (#4), a lock file that used up the line budget before the manifest was read (#5), a committed
// .gitattributes that hid files as binary (#6), a git that outlived the timeout reported as bad input (#9), and
// `--files` paths read from the wrong folder, `--diff ..` taken as a path.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { constants as fsConstants, chmodSync, closeSync, existsSync, mkdirSync, openSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { readChange } from "../../src/core/guard/change";
import { checkChange } from "../../src/core/guard";
import { checkCommand } from "../../src/cli/check";
import { commit, createGitRepo, git, makeTempDir } from "../helpers/gitRepo";
import { createGuardRepo, packageJsonWith } from "../helpers/guardRepo";

const posixOnly = process.platform === "win32" ? { skip: "POSIX file types and process groups" } : {};
const MYSQL_MANIFEST = packageJsonWith({ mysql: "^2.18.1" });

/** `deliberate check ARGS` in this process: exit code and what it printed. */
async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const env = { ...process.env, DELIBERATIVE_KEY_DIR: makeTempDir("keys-"), XDG_CACHE_HOME: makeTempDir("cache-") };
  const code = await checkCommand(args, { out: (s) => out.push(s), err: (s) => err.push(s), env });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

/** A lock file of `n` entries (`v` varies every line), as `npm install` rewrites it. */
function lockFile(n: number, v: number): string {
  const rows = Array.from({ length: n }, (_, i) => `    "node_modules/p${i}": { "version": "1.${i % 97}.${v}" },`);
  return `{\n  "lockfileVersion": 3,\n  "packages": {\n${rows.join("\n")}\n  }\n}\n`;
}

const strong = (r: { findings: { severity: string; file: string }[] }) => r.findings.filter((f) => f.severity === "high").map((f) => f.file).sort();

describe("a submodule's own filter driver never runs (#1)", () => {
  test("work-tree, --diff HEAD and --files reads run no clean filter the submodule's config names; a gitlink move is still read", posixOnly, async () => {
    const sub = createGitRepo([{ message: "sub", files: { ".gitattributes": "*.txt filter=subevil\n", "data.txt": "v1\n" } }]);
    const repo = createGuardRepo();
    git(repo, ["-c", "protocol.file.allow=always", "submodule", "add", "-q", sub, "vendor/lib"]);
    commit(repo, { message: "add submodule" });
    const marker = join(makeTempDir(), "ran");
    const script = join(makeTempDir(), "clean.sh");
    writeFileSync(script, `#!/bin/sh\necho ran >> ${marker}\ncat\n`);
    chmodSync(script, 0o755);
    git(join(repo, "vendor/lib"), ["config", "filter.subevil.clean", script]);
    git(join(repo, "vendor/lib"), ["config", "filter.subevil.process", script]);
    // Same size, older mtime: git must hash the file (through the filter) to know whether the submodule is dirty.
    writeFileSync(join(repo, "vendor/lib/data.txt"), "v9\n");
    utimesSync(join(repo, "vendor/lib/data.txt"), new Date("2001-01-01"), new Date("2001-01-01"));
    writeFileSync(join(repo, "src/b.js"), 'const mysql = require("mysql");\n');
    for (const source of [{ kind: "worktree" as const }, { kind: "ref" as const, ref: "HEAD" }, { kind: "files" as const, files: ["vendor/lib", "src/b.js"] }]) {
      const change = await readChange(repo, source);
      assert.ok(change.files.some((f) => f.path === "src/b.js"), source.kind);
      assert.equal(existsSync(marker), false, `${source.kind}: the submodule's clean filter never ran`);
    }
    // A new commit checked out in the submodule is still a change of the superproject (the gitlink).
    // (commit-tree and update-ref convert no work-tree file, so this step runs no filter either.)
    const next = git(join(repo, "vendor/lib"), ["commit-tree", "HEAD^{tree}", "-p", "HEAD", "-m", "next"]).trim();
    git(join(repo, "vendor/lib"), ["update-ref", "HEAD", next]);
    const moved = await readChange(repo, { kind: "worktree" });
    const gitlink = moved.files.find((f) => f.path === "vendor/lib");
    assert.ok(gitlink?.added.some((l) => l.text.startsWith("Subproject commit ")), "the gitlink's new commit is read");
    assert.equal(existsSync(marker), false);
  });
});

describe("untracked special files never block the check (#4)", () => {
  test("an untracked symlink to a FIFO is skipped as no regular file; a symlink out is skipped as leading outside", posixOnly, async () => {
    const repo = createGuardRepo();
    const fifo = join(repo, "src/pipe.js");
    execFileSync("mkfifo", [fifo]);
    symlinkSync("pipe.js", join(repo, "src/to-pipe.js"));
    symlinkSync("/dev/zero", join(repo, "src/zero.js"));
    writeFileSync(join(repo, "src/real.js"), 'const mysql = require("mysql");\n');
    try {
      const timedOut = Symbol("timed out");
      const report = await Promise.race([checkChange(repo, { kind: "worktree" }, { config: {} }), new Promise<typeof timedOut>((r) => setTimeout(() => r(timedOut), 8000).unref())]);
      assert.notEqual(report, timedOut, "the check finished (it hung in open() on the FIFO)");
      if (report === timedOut) return;
      assert.deepEqual(strong(report), ["src/real.js"]);
      const reasons = Object.fromEntries(report.skipped.map((s) => [s.file, s.reason]));
      assert.match(reasons["src/to-pipe.js"] ?? "", /not read: not a regular file/);
      assert.match(reasons["src/zero.js"] ?? "", /not read: a symlink that leads outside the repository/);
    } finally {
      // A reader the old code left blocked in open() is released by a writer, so the test process can exit.
      try {
        closeSync(openSync(fifo, fsConstants.O_WRONLY | fsConstants.O_NONBLOCK));
      } catch {
        // no reader waiting
      }
    }
  });
});

describe("the line budget reads manifests first and says what it left out (#5)", () => {
  test("a 25k-line package-lock.json change no longer hides the manifest line, in every mode", async () => {
    const repo = createGuardRepo();
    commit(repo, { message: "lock", files: { "package-lock.json": lockFile(25_000, 0) } });
    writeFileSync(join(repo, "package-lock.json"), lockFile(25_000, 1));
    writeFileSync(join(repo, "package.json"), MYSQL_MANIFEST);
    const worktree = await checkChange(repo, { kind: "worktree" }, { config: {} });
    assert.deepEqual(strong(worktree), ["package.json"]);
    assert.equal(worktree.limits.truncated, false, "the lock file is not part of the budget");
    assert.deepEqual(worktree.skipped, [{ file: "package-lock.json", reason: "lock file: its manifest is checked instead" }]);
    git(repo, ["add", "-A"]);
    assert.deepEqual(strong(await checkChange(repo, { kind: "staged" }, { config: {} })), ["package.json"]);
    commit(repo, { message: "npm install mysql" });
    assert.deepEqual(strong(await checkChange(repo, { kind: "ref", ref: "HEAD~1" }, { config: {} })), ["package.json"]);
    const r = await cli(["--repo", repo, "--diff", "HEAD~1"]);
    assert.equal(r.code, 1, r.err);
  });

  test("a 25k-line source change sorted first: the manifest is read, a file past the budget is named, and the check exits 4", async () => {
    const repo = createGuardRepo();
    commit(repo, { message: "generated", files: { "aaa-generated.js": "export const x = 0;\n" } });
    writeFileSync(join(repo, "aaa-generated.js"), Array.from({ length: 25_000 }, (_, i) => `export const v${i} = ${i};`).join("\n") + "\n");
    writeFileSync(join(repo, "package.json"), MYSQL_MANIFEST);
    writeFileSync(join(repo, "src/app.ts"), 'import mysql from "mysql";\n');
    const report = await checkChange(repo, { kind: "worktree" }, { config: {} });
    assert.deepEqual(strong(report), ["package.json"], "the manifest line is read although the diff is cut");
    assert.equal(report.limits.truncated, true);
    assert.match(report.skipped.find((s) => s.file === "src/app.ts")?.reason ?? "", /^not read: the change is longer than 20000 lines/);
    // Exit 1 stays "a finding"; without one, a check that read only part of the change does not pass.
    assert.equal((await cli(["--repo", repo])).code, 1);
    git(repo, ["checkout", "-q", "--", "package.json"]);
    const partial = await cli(["--repo", repo]);
    assert.equal(partial.code, 4, partial.out);
    assert.match(partial.err, /checked only in part/);
    assert.equal((await cli(["--repo", repo, "--fail-on", "never"])).code, 0);
  });
});

describe("a committed .gitattributes cannot hide files as binary (#6)", () => {
  test("package.json marked -diff and *.js marked binary are still read; a real binary is still skipped", async () => {
    const repo = createGuardRepo();
    git(repo, ["checkout", "-q", "-b", "feature"]);
    commit(repo, {
      message: "use mysql",
      files: {
        ".gitattributes": "package.json -diff\n*.js binary\n*.dat binary\n",
        "package.json": MYSQL_MANIFEST,
        "src/db.js": 'const mysql = require("mysql");\n',
        "blob.dat": Buffer.from([0x00, 0x01, 0x0a, 0x6d, 0x79, 0x73, 0x71, 0x6c, 0x00, 0x0a]),
      },
    });
    for (const source of [{ kind: "ref" as const, ref: "main" }, { kind: "ref" as const, ref: "main..feature" }]) {
      const report = await checkChange(repo, source, { config: {} });
      assert.deepEqual(strong(report), ["package.json", "src/db.js"], source.ref);
      assert.deepEqual(report.skipped.filter((s) => s.file === "blob.dat"), [{ file: "blob.dat", reason: "binary file: no lines to read" }]);
    }
    assert.equal((await cli(["--repo", repo, "--diff", "main"])).code, 1);
  });
});

describe("a git that does not finish is a check that could not run (#9)", () => {
  test("exit 4 with 'did not finish', and a grandchild holding git's pipes does not hold the check", posixOnly, async () => {
    const repo = createGuardRepo();
    writeFileSync(join(repo, "src/b.js"), 'const mysql = require("mysql");\n');
    const bin = makeTempDir("slowgit-");
    const realGit = execFileSync("sh", ["-c", "command -v git"], { encoding: "utf8" }).trim();
    writeFileSync(join(bin, "git"), `#!/bin/sh\nfor a in "$@"; do [ "$a" = diff ] && { sleep 40; break; }; done\nexec ${realGit} "$@"\n`);
    chmodSync(join(bin, "git"), 0o755);
    // The knob exists since this fix; before it the timeout was a fixed 30 s.
    const knob = (await import("../../src/core/guard/changeGit").catch(() => undefined)) as { gitTimeout?: { ms: number } } | undefined;
    const before = knob?.gitTimeout?.ms;
    if (knob?.gitTimeout) knob.gitTimeout.ms = 1500;
    const path = process.env.PATH;
    process.env.PATH = `${bin}:${path}`;
    const started = Date.now();
    try {
      const r = await cli(["--repo", repo]).catch((err: Error) => ({ code: 2, out: "", err: err.message }));
      assert.equal(r.code, 4, r.err);
      assert.match(r.err, /git diff did not finish within 1\.5 s/);
      assert.ok(Date.now() - started < 15_000, `the check settled when git was killed (${Date.now() - started} ms)`);
    } finally {
      process.env.PATH = path;
      if (knob?.gitTimeout && before !== undefined) knob.gitTimeout.ms = before;
    }
  });
});

describe("--files and --diff read as the user meant (minor)", () => {
  test("--repo SUBFOLDER --files NAME reads NAME in that folder; a path that names nothing gets a note; --diff .. is refused", async () => {
    const repo = createGuardRepo();
    mkdirSync(join(repo, "src"), { recursive: true });
    writeFileSync(join(repo, "src/app.ts"), 'import mysql from "mysql";\n');
    const report = await checkChange(join(repo, "src"), { kind: "files", files: ["app.ts"] }, { config: {} });
    assert.deepEqual(strong(report), ["src/app.ts"]);
    const missing = await checkChange(join(repo, "src"), { kind: "files", files: ["nope.ts"] }, { config: {} });
    assert.ok(missing.notes.some((n) => /--files "nope\.ts": no such file or folder/.test(n)), missing.notes.join("; "));
    for (const ref of ["..", "..."]) await assert.rejects(readChange(repo, { kind: "ref", ref }), /--diff: not a git revision/);
  });
});

describe("the guard's pathspecs and its file kinds agree", () => {
  test("every lock name is a lock file and every manifest glob a manifest, in any folder and case", async () => {
    const { PATHSPEC_NAMES } = await import("../../src/core/guard/changePaths");
    const { fileKind } = await import("../../src/core/guard/lines");
    for (const name of PATHSPEC_NAMES.LOCK_NAMES) for (const p of [name, `a/b/${name}`, name.toUpperCase()]) assert.equal(fileKind(p), "lock", p);
    for (const glob of PATHSPEC_NAMES.MANIFEST_GLOBS) {
      const name = glob.replace("*", "dev");
      for (const p of [name, `a/${name}`]) assert.equal(fileKind(p), "manifest", p);
    }
  });
});
