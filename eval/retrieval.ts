// Retrieval only, in process (a development aid for issue 20): runs the pipeline with the docs expert alone (no git
// history, no code usage, no receipts, no learning) over the checkouts the eval already made, and reports where the
// deciding record ranks next to the plain BM25 baseline. Seconds instead of the full eval's minutes, so ranking
// changes can be tried on the development half; test and independent columns print aggregates only.
// `--answers` also judges the rules synthesizer's answers (grounded in the gold record; no-answer questions flagged),
// by question style: answers from records alone, without the history and code evidence the full eval adds.
// With EVAL_SAVE_PAYLOADS=DIR each answer is drafted without the rules Critic and saved for eval/critic.ts to replay.
//   EVAL_WORKDIR=/tmp/evalonce node --import tsx eval/retrieval.ts [--set dev] [--verbose] [--answers]
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { deliberate } from "../src/core/pipeline";
import { createDocsExpert } from "../src/core/internal/docsExpert";
import { generateSigningKey } from "../src/core/receipts/signing";
import { baselineFor } from "./baseline";
import { consideredAmongOptions } from "./considered";
import { firstRank, judgeGrounded, judgeOptions, noAnswerFlagged, rankedDocs, type LooseEvidence, type LoosePayload } from "./metrics";
import { loadSets, type SetQuestion } from "./sets";

const EVAL_DIR = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(EVAL_DIR, "..");

interface Row {
  q: SetQuestion;
  ours?: number;
  bm25?: number;
  /** A superseded record of the question ranks above the deciding record (or is found while it is not). */
  supAbove?: boolean;
  /** Why a superseded record ranked above: what the ranking knew of it (counted per set, never listed for held-out sets). */
  supWhy?: string;
  top: string[];
  bm25Top: string[];
  /** With --answers: grounded (gold questions) or flagged (no-answer questions), and why not. */
  answer?: { ok: boolean; reason: string; rec: string; optionsRight: boolean; offered?: { wanted: number; found: number } };
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const sets = argv.flatMap((a, i) => (a === "--set" ? [argv[i + 1]] : []));
  const verbose = argv.includes("--verbose");
  const answers = argv.includes("--answers");
  const workRoot = resolve(process.env.EVAL_WORKDIR || join(os.homedir(), ".cache", "deliberative-search-eval"));
  const loaded = loadSets(EVAL_DIR, ROOT);
  // --only id,id: a few questions (dev ones while tuning), for a quick look before a whole run.
  const only = new Set(argv.flatMap((a, i) => (a === "--only" ? argv[i + 1].split(",") : [])));
  const questions = loaded.questions.filter((q) => (answers || q.gold.length > 0) && (!sets.length || sets.includes(q.set)) && (!only.size || only.has(q.id)));
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
      const saveTo = process.env.EVAL_SAVE_PAYLOADS;
      const outcome = await deliberate({ repo: dir, question: q.question, signingKey: key, force: true, writeReceipt: false, useCache: false, learning: false, codeUsage: false, internalExperts: [docs], externalExperts: [], ...(saveTo ? { rulesCritic: false } : {}) });
      if (saveTo && outcome.kind === "deliberated") {
        mkdirSync(saveTo, { recursive: true });
        writeFileSync(join(saveTo, `${q.id}.json`), JSON.stringify({ question: q, repo_dir: dir, critic: "off", payload: outcome.payload, evidence: outcome.evidence }) + "\n");
      }
      const evidence = outcome.kind === "deliberated" ? (outcome.evidence as unknown as LooseEvidence[]) : [];
      const ranked = rankedDocs(evidence);
      const plain = baseline.rank(q.question);
      const ours = firstRank(ranked, q.gold);
      const supAbove = (q.superseded ?? []).some((p) => {
        const r = firstRank(ranked, [p]);
        return r !== undefined && (ours === undefined || r < ours);
      });
      let supWhy: string | undefined;
      if (supAbove) {
        const meta = (p: string) => (evidence as unknown as { adr?: { path?: string; status?: string; superseded_by?: string[] } }[]).find((e) => e.adr?.path === p)?.adr;
        const above = (q.superseded ?? []).filter((p) => {
          const r = firstRank(ranked, [p]);
          return r !== undefined && (ours === undefined || r < ours);
        });
        const old = above.map(meta).find((m) => m);
        supWhy = !old ? "not a record" : old.status === "accepted" || old.status === "unknown" || old.status === "proposed" ? `in force (${old.status})` : old.superseded_by?.some((x) => q.gold.includes(x)) ? "linked to the gold" : old.superseded_by?.length ? "linked elsewhere" : `${old.status}, no successor`;
      }
      const row: Row = { q, ours, bm25: firstRank(plain, q.gold), supAbove, supWhy, top: ranked.slice(0, 3), bm25Top: plain.slice(0, 3) };
      if (answers && outcome.kind === "deliberated") {
        const payload = outcome.payload as unknown as LoosePayload;
        const recId = payload.recommendation?.option_id;
        const rec = `${payload.options?.find((o) => o.id === recId)?.title ?? recId} (${payload.recommendation?.confidence})`;
        const titles = (payload.options ?? []).map((o) => o.title ?? "");
        const goldTexts = q.gold.map((p) => {
          try {
            return readFileSync(join(dir, p), "utf8");
          } catch {
            return "";
          }
        });
        const optionsRight = judgeOptions(q, titles, goldTexts).ok;
        const offered = q.style === "open" && q.gold.length ? consideredAmongOptions(q.gold[0], goldTexts[0], titles, dir) : undefined;
        const judged = q.gold.length ? (({ grounded, reason }) => ({ ok: grounded, reason }))(judgeGrounded(q, payload)) : { ok: noAnswerFlagged(payload), reason: "claimed an answer" };
        row.answer = { ...judged, rec, optionsRight, ...(offered ? { offered } : {}) };
      }
      rows.push(row);
    }
  }
  const within = (rs: Row[], k: number, which: "ours" | "bm25") => rs.filter((r) => r[which] !== undefined && r[which]! <= k).length;
  for (const set of ["dev", "test", "independent"]) {
    const all = rows.filter((r) => r.q.set === set);
    if (answers && all.length) {
      const styles = [...new Set(all.map((r) => r.q.style))].sort();
      const share = (xs: Row[]) => `${xs.filter((r) => r.answer?.ok).length}/${xs.length}`;
      const gold = all.filter((r) => r.q.gold.length);
      const offered = all.filter((r) => r.answer?.offered);
      console.log(
        `${set} answers: grounded ${share(gold)} (${styles.map((st) => `${st} ${share(gold.filter((r) => r.q.style === st))}`).join(", ")}); no-answer flagged ${share(all.filter((r) => !r.q.gold.length))}; ` +
          `options right ${all.filter((r) => r.answer?.optionsRight).length}/${all.length}; open: record's options offered ${offered.filter((r) => r.answer!.offered!.found === r.answer!.offered!.wanted).length}/${offered.length}`,
      );
      // Why answers missed, as counts only (safe to read for the held-out columns): reason kind by the gold's rank.
      const misses = new Map<string, number>();
      for (const r of all.filter((x) => x.answer && !x.answer.ok)) {
        const kind = /undecidable/.test(r.answer!.reason) ? "undecidable" : /does not cite/.test(r.answer!.reason) ? "other record" : /not the gold choice/.test(r.answer!.reason) ? "wrong choice" : r.answer!.reason;
        const key = `${r.q.style} ${kind} (gold ${r.q.gold.length ? (r.ours === 1 ? "@1" : r.ours !== undefined && r.ours <= 3 ? "@2-3" : "below 3") : "none"})`;
        misses.set(key, (misses.get(key) ?? 0) + 1);
      }
      console.log(`  misses: ${[...misses].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([k, n]) => `${k} ${n}`).join("; ")}`);
      if (verbose && set === "dev") for (const r of all.filter((x) => !x.answer?.ok)) console.log(`    ${r.q.id.padEnd(12)} ${r.q.style.padEnd(10)} gold@${r.ours ?? "-"} ${r.answer?.rec}: ${r.answer?.reason}\n      ${r.q.question.slice(0, 150)}`);
    }
    const rs = all.filter((r) => r.q.gold.length);
    if (!rs.length) continue;
    const open = rs.filter((r) => r.q.style === "open");
    const line = (label: string, xs: Row[]) =>
      `  ${label.padEnd(6)} n=${String(xs.length).padStart(3)}  R@1 ${within(xs, 1, "ours")} vs BM25 ${within(xs, 1, "bm25")}   R@3 ${within(xs, 3, "ours")} vs BM25 ${within(xs, 3, "bm25")}`;
    const sup = rs.filter((r) => r.q.superseded?.length);
    const why = (xs: Row[]) => {
      const counts = new Map<string, number>();
      for (const r of xs) if (r.supWhy) counts.set(r.supWhy, (counts.get(r.supWhy) ?? 0) + 1);
      return counts.size ? ` (${[...counts].map(([k, n]) => `${k}: ${n}`).join(", ")})` : "";
    };
    console.log(`${set}:\n${line("all", rs)}\n${line("open", open)}\n  superseded above its successor ${sup.filter((r) => r.supAbove).length}/${sup.length}${why(sup)}`);
    if (verbose && set === "dev") for (const r of sup.filter((x) => x.supAbove)) console.log(`    superseded above: ${r.q.id} gold ${r.q.gold[0]} @${r.ours ?? "-"}; top ${r.top.join(" | ")}`);
    if (verbose && !answers && set === "dev") {
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
