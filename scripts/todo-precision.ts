// Measures which plain TODO/FIXME comments of real codebases would get the "Deliberate" CodeLens.
//   node --import tsx scripts/todo-precision.ts <git dir or work tree>... [--ext ts,rs] [--json]
// Each argument is a repository (a bare mirror such as /work/.mirror/owner+name/repo, or a work tree). The script
// lists every TODO/FIXME line of HEAD with `git grep` (files *.ts and *.rs by default), keeps the lines the
// CodeLens reads as a plain TODO comment (PLAIN_TODO_LINE: an uppercase TODO/FIXME after a comment opener), and
// runs the CodeLens's own predicate, isOpenQuestionTodo, on each. It prints the counts per repository and every
// comment that gets a lens, for checking by hand (precision = true open questions / lensed).
import { execFileSync } from "node:child_process";
import { basename, dirname } from "node:path";
import { isOpenQuestionTodo, mayBeOpenQuestionTodo, plainTodoComment } from "../src/core/classify";

interface Lensed {
  file: string;
  line: number;
  comment: string;
}

interface RepoCount {
  repo: string;
  commit: string;
  todoLines: number;
  plainTodoComments: number;
  candidates: number;
  lensed: Lensed[];
  ms: number;
}

const LINE_LIMIT = 2000; // the CodeLens skips longer lines

function repoName(path: string): string {
  const base = basename(path.replace(/\/+$/, ""));
  return base === "repo" || base === ".git" ? basename(dirname(path.replace(/\/+$/, ""))) : base;
}

function git(dir: string, args: string[]): string {
  return execFileSync("git", [`--git-dir=${dir}`, ...args], { encoding: "utf8", maxBuffer: 512 * 1024 * 1024 });
}

function gitDir(path: string): string {
  try {
    return execFileSync("git", ["-C", path, "rev-parse", "--absolute-git-dir"], { encoding: "utf8" }).trim();
  } catch {
    return path;
  }
}

function measure(path: string, exts: string[]): RepoCount {
  const dir = gitDir(path);
  const commit = git(dir, ["rev-parse", "HEAD"]).trim();
  let out = "";
  try {
    out = git(dir, ["grep", "-n", "-I", "-E", "TODO|FIXME", "HEAD", "--", ...exts.map((e) => `*.${e}`)]);
  } catch (err) {
    // git grep exits 1 when nothing matches.
    if ((err as { status?: number }).status !== 1) throw err;
  }
  const count: RepoCount = { repo: repoName(path), commit, todoLines: 0, plainTodoComments: 0, candidates: 0, lensed: [], ms: 0 };
  const t0 = performance.now();
  for (const row of out.split("\n")) {
    if (!row) continue;
    // HEAD:path:line:text
    const m = /^[^:]+:(.+?):(\d+):(.*)$/.exec(row);
    if (!m) continue;
    count.todoLines++;
    const text = m[3]!;
    if (text.length > LINE_LIMIT) continue;
    const comment = plainTodoComment(text);
    if (!comment) continue;
    count.plainTodoComments++;
    if (mayBeOpenQuestionTodo(comment)) count.candidates++;
    if (isOpenQuestionTodo(comment)) count.lensed.push({ file: m[1]!, line: Number(m[2]), comment });
  }
  count.ms = performance.now() - t0;
  return count;
}

function main(): void {
  const argv = process.argv.slice(2);
  const json = argv.includes("--json");
  const extArg = argv.indexOf("--ext");
  const exts = extArg >= 0 ? argv[extArg + 1]!.split(",").map((e) => e.trim().replace(/^\*?\./, "")) : ["ts", "rs"];
  const repos = argv.filter((a, i) => !a.startsWith("--") && !(extArg >= 0 && i === extArg + 1));
  if (repos.length === 0) {
    process.stderr.write("usage: node --import tsx scripts/todo-precision.ts <git dir>... [--ext ts,rs] [--json]\n");
    process.exit(2);
  }
  const counts = repos.map((r) => measure(r, exts));
  if (json) {
    process.stdout.write(`${JSON.stringify(counts, null, 2)}\n`);
    return;
  }
  for (const c of counts) {
    console.log(`\n## ${c.repo} @ ${c.commit.slice(0, 12)}`);
    console.log(
      `TODO/FIXME lines: ${c.todoLines}; plain TODO comments: ${c.plainTodoComments}; ` +
        `pass the cheap check: ${c.candidates}; get the lens: ${c.lensed.length} (${c.ms.toFixed(0)} ms)`,
    );
    for (const l of c.lensed) console.log(`  ${l.file}:${l.line}  ${l.comment.slice(0, 200)}`);
  }
  const total = (k: "todoLines" | "plainTodoComments" | "candidates") => counts.reduce((s, c) => s + c[k], 0);
  const lensed = counts.reduce((s, c) => s + c.lensed.length, 0);
  console.log(`\nall: TODO/FIXME lines ${total("todoLines")}; plain TODO comments ${total("plainTodoComments")}; pass the cheap check ${total("candidates")}; lensed ${lensed}`);
}

main();
