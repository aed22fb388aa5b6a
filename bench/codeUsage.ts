// The code-usage expert on a large synthetic repository: 100,000 files (sources importing one of three libraries,
// sources that only mention one in a comment, prose, a vendored folder and a .gitignore'd folder that must not
// count, a manifest), counted against the default budgets, in a git work tree (git grep) and, with .git moved away,
// as a plain folder (the walk). Prints the time of each run, whether a budget cut it and whether the counts are
// exact; exits 1 when a run was cut or a count is off.
// Run: node --import tsx bench/codeUsage.ts [files]
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CODE_USAGE_BUDGET_MS, countCodeUsage, type CodeUsageReport } from "../src/core/internal/codeUsage";
import { DEFAULT_WALK_BUDGET } from "../src/core/internal/codeUsageWalk";

const total = Number(process.argv[2] ?? 100_000);
// Generated once per size and reused (bump the version when the content changes); a half-written one is redone.
const root = join(tmpdir(), "deliberative-bench-cache", `code-usage-${total}-v2`);
const repo = join(root, "repo");
const ready = join(root, "ready");
const libs = ["moment", "date-fns", "luxon"];
const expected = [0, 0, 0];
const generate = !existsSync(ready);
if (generate) {
  rmSync(root, { recursive: true, force: true });
  mkdirSync(repo, { recursive: true });
}
const write = (file: string, text: string) => generate && writeFileSync(file, text);
// The manifest names two of the three: it counts as one file for each.
write(join(repo, "package.json"), `{\n  "dependencies": {\n    "moment": "^2.30.1",\n    "date-fns": "^3.6.0"\n  }\n}\n`);
expected[0]++;
expected[1]++;
write(join(repo, ".gitignore"), "build/\n");
for (let i = 0; i < total; i++) {
  const dir = join(repo, i % 50 === 49 ? "vendor" : i % 50 === 48 ? "build" : "src", `m${Math.floor(i / 1000)}`);
  if (generate && (i % 1000 === 0 || i % 50 >= 48)) mkdirSync(dir, { recursive: true });
  // Every 7th file imports a library; the rest are prose or plain code that only mention one in a comment. Files in
  // vendor/ (skipped with a reason) and build/ (ignored) import too, and never count.
  if (i % 7 === 0) {
    const lib = i % 3;
    if (i % 50 < 48) expected[lib]++;
    write(join(dir, `f${i}.ts`), `import x from "${libs[lib]}";\nexport const v${i} = x;\n`);
  } else if (i % 7 === 1) write(join(dir, `n${i}.md`), `# note ${i}\n\nWe talked about moment and date-fns.\n`);
  else write(join(dir, `f${i}.ts`), `// not moment\nexport const v${i} = ${i};\n`);
}
if (generate) {
  const env = { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" };
  execFileSync("git", ["init", "-q", "-b", "main"], { cwd: repo, env });
  execFileSync("git", ["add", "-A"], { cwd: repo, env });
  execFileSync("git", ["-c", "gc.auto=0", "-c", "user.name=b", "-c", "user.email=b@b", "commit", "-q", "-m", "bench"], { cwd: repo, env });
  // Packed, as a cloned repository is (loose objects would only slow git's other commands).
  execFileSync("git", ["-c", "gc.auto=0", "repack", "-adq"], { cwd: repo, env });
  writeFileSync(ready, "");
}

const options = libs.map((l) => ({ id: `opt-${l}`, title: l, terms: [l] }));
let failed = false;

function line(mode: string, budget: string, r: CodeUsageReport): void {
  const exact = !r.truncated && r.options.every((u, i) => u.files === expected[i]);
  if (!exact) failed = true;
  console.log(
    `${mode} ${total} files: ${r.ms.toFixed(0)} ms (budget ${budget}), truncated=${!!r.truncated}, counts ${r.options.map((u) => u.files).join("/")} ` +
      `expected ${expected.join("/")}, exact=${exact}, skipped ${r.skippedTotal}`,
  );
}

async function main(): Promise<void> {
  for (let run = 0; run < 3; run++) line("git grep", `${CODE_USAGE_BUDGET_MS} ms`, await countCodeUsage(repo, options));
  // With room enough to finish: what an exact count costs here.
  line("git grep", "60000 ms", await countCodeUsage(repo, options, { budgetMs: 60_000 }));
  // The same files as a plain folder: the walk, under its count budgets (never the clock).
  renameSync(join(repo, ".git"), join(root, "git-away"));
  try {
    const budget = `${DEFAULT_WALK_BUDGET.maxFiles} files / ${DEFAULT_WALK_BUDGET.maxBytes / 1048576} MB`;
    for (let run = 0; run < 2; run++) line("walk", budget, await countCodeUsage(repo, options));
  } finally {
    renameSync(join(root, "git-away"), join(repo, ".git"));
  }
  if (failed) process.exitCode = 1;
}

void main();
