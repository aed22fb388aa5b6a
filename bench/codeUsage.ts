// The code-usage expert on a large synthetic repository: 100,000 tracked files (sources importing one of three
// libraries, manifests, prose), counted against the default budget. Prints the time, whether the budget cut it,
// and whether the counts match the known usage. Run: node --import tsx bench/codeUsage.ts [files]
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CODE_USAGE_BUDGET_MS, countCodeUsage } from "../src/core/internal/codeUsage";
import { makeTempDir } from "../test/helpers/gitRepo";

const total = Number(process.argv[2] ?? 100_000);
const repo = makeTempDir("delib-bench-code-");
const libs = ["moment", "date-fns", "luxon"];
const expected = [0, 0, 0];
for (let i = 0; i < total; i++) {
  const dir = join(repo, "src", `m${Math.floor(i / 1000)}`);
  if (i % 1000 === 0) mkdirSync(dir, { recursive: true });
  // Every 7th file imports a library; the rest are prose or plain code that only mention one in a comment.
  if (i % 7 === 0) {
    const lib = i % 3;
    expected[lib]++;
    writeFileSync(join(dir, `f${i}.ts`), `import x from "${libs[lib]}";\nexport const v${i} = x;\n`);
  } else if (i % 7 === 1) writeFileSync(join(dir, `n${i}.md`), `# note ${i}\n\nWe talked about moment and date-fns.\n`);
  else writeFileSync(join(dir, `f${i}.ts`), `// not moment\nexport const v${i} = ${i};\n`);
}
const env = { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" };
execFileSync("git", ["init", "-q", "-b", "main"], { cwd: repo, env });
execFileSync("git", ["add", "-A"], { cwd: repo, env });
execFileSync("git", ["-c", "user.name=b", "-c", "user.email=b@b", "commit", "-q", "-m", "bench"], { cwd: repo, env });

const options = libs.map((l) => ({ id: `opt-${l}`, title: l, terms: [l] }));

async function main(): Promise<void> {
  // Twice within the default budget, then once with room enough to finish (what an exact count costs here).
  for (const budgetMs of [CODE_USAGE_BUDGET_MS, CODE_USAGE_BUDGET_MS, 60_000]) {
    const r = await countCodeUsage(repo, options, { budgetMs });
    const exact = !r.truncated && r.options.every((u, i) => u.files === expected[i]);
    console.log(`${total} files: ${r.ms.toFixed(0)} ms (budget ${budgetMs} ms), truncated=${!!r.truncated}, counts ${r.options.map((u) => u.files).join("/")} expected ${expected.join("/")}, exact=${exact}`);
  }
}

void main();
