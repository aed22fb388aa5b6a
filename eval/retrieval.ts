// Retrieval only, in process (a development aid for issue 20): runs the pipeline with the docs expert alone (no git
// history, no code usage, no receipts, no learning) over the checkouts the eval already made, and reports where the
// deciding record ranks next to the plain BM25 baseline. Seconds instead of the full eval's minutes, so ranking
// changes can be tried on the development half; test and independent columns print aggregates only.
//   EVAL_WORKDIR=/tmp/evalonce node --import tsx eval/retrieval.ts [--set dev] [--verbose]
import { existsSync } from "node:fs";
import os from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { deliberate } from "../src/core/pipeline";
import { createDocsExpert } from "../src/core/internal/docsExpert";
import { generateSigningKey } from "../src/core/receipts/signing";
import { baselineFor } from "./baseline";
import { firstRank, rankedDocs, type LooseEvidence } from "./metrics";
import { loadSets, type SetQuestion } from "./sets";

const EVAL_DIR = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(EVAL_DIR, "..");

interface Row {
  q: SetQuestion;
  ours?: number;
  bm25?: number;
  top: string[];
  bm25Top: string[];
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const sets = argv.flatMap((a, i) => (a === "--set" ? [argv[i + 1]] : []));
  const verbose = argv.includes("--verbose");
  const workRoot = resolve(process.env.EVAL_WORKDIR || join(os.homedir(), ".cache", "deliberative-search-eval"));
  const loaded = loadSets(EVAL_DIR, ROOT);
  const questions = loaded.questions.filter((q) => q.gold.length > 0 && (!sets.length || sets.includes(q.set)));
  const key = generateSigningKey();
  const rows: Row[] = [];
  for (const repo of loaded.repos) {
    const qs = questions.filter((q) => q.repo === repo.name);
    if (!qs.length) continue;
    const dir = join(workRoot, `${repo.mirror}@${repo.sha.slice(0, 12)}`);
    if (!existsSync(dir)) {
      console.log(`retrieval: ${dir} missing (run the eval once to check it out); ${qs.length} questions skipped`);
      continue;
    }
    const baseline = baselineFor(dir);
    const docs = createDocsExpert();
    for (const q of qs) {
      const outcome = await deliberate({ repo: dir, question: q.question, signingKey: key, force: true, writeReceipt: false, useCache: false, learning: false, codeUsage: false, internalExperts: [docs], externalExperts: [] });
      const evidence = outcome.kind === "deliberated" ? (outcome.evidence as unknown as LooseEvidence[]) : [];
      const ranked = rankedDocs(evidence);
      const plain = baseline.rank(q.question);
      rows.push({ q, ours: firstRank(ranked, q.gold), bm25: firstRank(plain, q.gold), top: ranked.slice(0, 3), bm25Top: plain.slice(0, 3) });
    }
  }
  const within = (rs: Row[], k: number, which: "ours" | "bm25") => rs.filter((r) => r[which] !== undefined && r[which]! <= k).length;
  for (const set of ["dev", "test", "independent"]) {
    const rs = rows.filter((r) => r.q.set === set);
    if (!rs.length) continue;
    const open = rs.filter((r) => r.q.style === "open");
    const line = (label: string, xs: Row[]) =>
      `  ${label.padEnd(6)} n=${String(xs.length).padStart(3)}  R@1 ${within(xs, 1, "ours")} vs BM25 ${within(xs, 1, "bm25")}   R@3 ${within(xs, 3, "ours")} vs BM25 ${within(xs, 3, "bm25")}`;
    console.log(`${set}:\n${line("all", rs)}\n${line("open", open)}`);
    if (verbose && set === "dev") {
      for (const r of rs) {
        if (r.ours === r.bm25) continue;
        console.log(`    ${r.q.id.padEnd(24)} ours ${r.ours ?? "-"} bm25 ${r.bm25 ?? "-"}  ${r.q.question.slice(0, 90)}`);
        if ((r.ours ?? 99) > (r.bm25 ?? 99)) console.log(`      gold ${r.q.gold[0]}\n      ours ${r.top.join(" | ")}\n      bm25 ${r.bm25Top.join(" | ")}`);
      }
    }
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
});
