// Dev aid: prints what the guard reads as in force in a repository of the corpus (records' rejected and chosen
// options with their keys, rules), so seeded changes can aim at real decisions. Usage:
//   MIRRORS=/work/.mirror node --import tsx eval/guard/dump.ts <repo substring>...
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadDecisions } from "../../src/core/guard/decisions";
import { corpusRepos, sparseCheckout } from "./checkout";

async function main(): Promise<void> {
  const mirrors = process.env.MIRRORS ?? "/work/.mirror";
  const workRoot = process.env.GUARD_EVAL_WORKDIR ?? join(tmpdir(), "guard-eval");
  for (const want of process.argv.slice(2)) {
    const repo = corpusRepos().find((r) => r.name.toLowerCase().includes(want.toLowerCase()));
    if (!repo) continue;
    const dir = sparseCheckout(mirrors, workRoot, repo, [], "dump");
    const set = await loadDecisions(dir);
    console.log(`## ${repo.name} (${set.decisions.length} decisions)`);
    for (const d of set.decisions) {
      const f = d.forbidden.map((t) => `${t.name} [${[...(t.keys.exact ?? []), ...t.keys.tokens].join(",")}] @${t.range.start}`).join("; ");
      const r = d.required.map((t) => `${t.name} [${[...(t.keys.exact ?? []), ...t.keys.tokens].join(",")}]`).join("; ");
      console.log(`- ${d.citation.path} (${d.citation.status}) ${d.citation.title.slice(0, 70)}\n    rejects: ${f || "-"}\n    keeps: ${r || "-"}${d.area.length ? `\n    area: ${d.area.slice(0, 5).join(", ")}` : ""}`);
    }
  }
}

void main();
