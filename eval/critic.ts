// The Critic's numbers without rerunning the CLI: reads the payloads an eval run saved with the rules Critic off
// (`DELIBERATIVE_CRITIC=off EVAL_SAVE_PAYLOADS=DIR npm run eval -- --once --set dev`), runs the rules Critic on each
// exactly as the pipeline does (critique, then applyObjections), and reports over the answers decided BEFORE the
// Critic's effect:
//   - wrong / right answers carrying a blocking objection (targets ≥ 0.60 / ≤ 0.10);
//   - the calibration (high / med answers right) without the Critic and with its effect applied.
//
//   node --import tsx eval/critic.ts DIR [--set dev] [--verbose]
//
// `--verbose` prints one line per dev question only: held-out answers stay unread while tuning.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { applyObjections, critique, type RaisedObjection } from "../src/core/critic";
import { countCodeUsage } from "../src/core/internal/codeUsage";
import { optionTermsFor, usageEvidence } from "../src/core/synth/codeUsage";
import type { DraftPicker, FusedEvidence } from "../src/core/schemas";
import { judgeGrounded, ratio, UNDECIDABLE_ID, type LoosePayload } from "./metrics";
import type { SetQuestion } from "./sets";

interface Saved {
  question: SetQuestion;
  repo_dir: string;
  critic: string;
  payload: DraftPicker & LoosePayload;
  evidence: FusedEvidence[];
}

/** The receipts folder the CLI writes into the checkout; the pipeline never counts code usage inside it. */
const RECEIPTS_DIR = ".deliberations";

export interface Replayed {
  id: string;
  set: string;
  decided: boolean;
  right: boolean;
  confidence: string;
  title?: string;
  raised: RaisedObjection[];
  after: { decided: boolean; right: boolean; confidence: string };
}

/** The rules Critic over one saved answer, with the same inputs the pipeline gives it. */
export async function replay(saved: Saved): Promise<Replayed> {
  const { question: q, payload, evidence } = saved;
  const draft = payload;
  const report = await countCodeUsage(saved.repo_dir, optionTermsFor(draft.options), { excludeDirs: [RECEIPTS_DIR], budgetMs: 30_000 });
  const citedBy = new Map(report.options.map((u) => [u.id, u.examples.map((line) => usageEvidence(line, 1).id)] as const));
  const recordText = (path: string): string | undefined => {
    const file = join(saved.repo_dir, path);
    try {
      return existsSync(file) ? readFileSync(file, "utf8") : undefined;
    } catch {
      return undefined;
    }
  };
  const raised = critique({ question: q.question, draft, evidence, usage: { report, citedBy }, recordText });
  const after = applyObjections(draft, raised, evidence) as DraftPicker & LoosePayload;
  const judge = (p: LoosePayload) => {
    const decided = !!p.recommendation?.option_id && p.recommendation.option_id !== UNDECIDABLE_ID;
    return { decided, right: decided && q.gold.length > 0 && judgeGrounded(q, p).grounded, confidence: p.recommendation?.confidence ?? "" };
  };
  const before = judge(payload);
  return {
    id: q.id,
    set: q.set,
    ...before,
    title: payload.options.find((o) => o.id === payload.recommendation.option_id)?.title,
    raised,
    after: judge(after),
  };
}

export interface CriticNumbers {
  decided: number;
  wrong: number;
  wrong_blocked: number;
  right: number;
  right_blocked: number;
  without: Calibration;
  with: Calibration;
}

interface Calibration {
  high: number;
  high_right: number;
  med: number;
  med_right: number;
  decided: number;
}

function calibrationOf(rows: { decided: boolean; right: boolean; confidence: string }[]): Calibration {
  const decided = rows.filter((r) => r.decided);
  const at = (level: string) => decided.filter((r) => r.confidence === level);
  return { high: at("high").length, high_right: at("high").filter((r) => r.right).length, med: at("med").length, med_right: at("med").filter((r) => r.right).length, decided: decided.length };
}

export function summarize(rows: Replayed[]): CriticNumbers {
  const decided = rows.filter((r) => r.decided);
  const blocked = (r: Replayed) => r.raised.some((o) => o.severity === "blocking");
  const wrong = decided.filter((r) => !r.right);
  const right = decided.filter((r) => r.right);
  return {
    decided: decided.length,
    wrong: wrong.length,
    wrong_blocked: wrong.filter(blocked).length,
    right: right.length,
    right_blocked: right.filter(blocked).length,
    without: calibrationOf(rows),
    with: calibrationOf(rows.map((r) => r.after)),
  };
}

export interface CheckCounts {
  check: string;
  blockingRight: number;
  blockingWrong: number;
  concernRight: number;
  concernWrong: number;
}

/** How many right and wrong decided answers each check raised a blocking objection or a concern on (once per answer). */
export function perCheck(rows: Replayed[]): CheckCounts[] {
  const counts = new Map<string, CheckCounts>();
  for (const r of rows.filter((x) => x.decided)) {
    for (const severity of ["blocking", "concern"] as const) {
      for (const check of new Set(r.raised.filter((o) => o.severity === severity).map((o) => o.check))) {
        const c = counts.get(check) ?? { check, blockingRight: 0, blockingWrong: 0, concernRight: 0, concernWrong: 0 };
        if (severity === "blocking") c[r.right ? "blockingRight" : "blockingWrong"]++;
        else c[r.right ? "concernRight" : "concernWrong"]++;
        counts.set(check, c);
      }
    }
  }
  return [...counts.values()].sort((a, b) => b.blockingWrong + b.blockingRight - (a.blockingWrong + a.blockingRight) || a.check.localeCompare(b.check));
}

function fmt(n: number, d: number): string {
  const r = ratio(n, d);
  return `${n}/${d}${r === undefined ? "" : ` = ${r.toFixed(2)}`}`;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const dir = argv.find((a) => !a.startsWith("--"));
  if (!dir) throw new Error("usage: node --import tsx eval/critic.ts DIR [--set dev|test|independent] [--verbose]");
  const setAt = argv.indexOf("--set");
  const set = setAt >= 0 ? argv[setAt + 1] : undefined;
  const verbose = argv.includes("--verbose");
  const files = readdirSync(dir).filter((f) => f.endsWith(".json")).sort();
  const rows: Replayed[] = [];
  for (const f of files) {
    const saved = JSON.parse(readFileSync(join(dir, f), "utf8")) as Saved;
    if (set && saved.question.set !== set) continue;
    if (saved.critic !== "off") console.log(`critic: warning: ${f} was answered with the Critic on; its recommendation is after the Critic's effect`);
    const r = await replay(saved);
    rows.push(r);
    if (verbose && r.set === "dev") {
      const verdict = !r.decided ? "undecided" : r.right ? "RIGHT" : "WRONG";
      const objections = r.raised.map((o) => `${o.severity === "blocking" ? "B" : "c"}:${o.check}`).join(",");
      console.log(`${r.id.padEnd(28)} ${verdict.padEnd(9)} ${r.confidence.padEnd(4)} ${(r.title ?? "").slice(0, 50).padEnd(50)} ${objections}`);
      for (const o of r.raised.filter((x) => x.severity === "blocking")) console.log(`    ${o.check}: ${o.text}`);
    }
  }
  const n = summarize(rows);
  console.log(`critic: ${rows.length} answers, ${n.decided} decided before the Critic's effect`);
  console.log(`  wrong answers blocked: ${fmt(n.wrong_blocked, n.wrong)} (target >= 0.60)`);
  console.log(`  right answers blocked: ${fmt(n.right_blocked, n.right)} (target <= 0.10)`);
  for (const [label, c] of [["without the Critic", n.without], ["with the Critic   ", n.with]] as const) {
    console.log(`  ${label}: ${c.decided} decided; high right ${fmt(c.high_right, c.high)}, med right ${fmt(c.med_right, c.med)}`);
  }
  // Which checks raise what, over right and over wrong answers: counts only, so a held-out column stays unread. A
  // check that blocks about as often on right answers as on wrong ones carries no information.
  console.log(`  per check (answers decided before the Critic's effect; ${n.right} right, ${n.wrong} wrong):`);
  console.log(`    ${"check".padEnd(20)} ${"blocking right".padStart(15)} ${"blocking wrong".padStart(15)} ${"concern right".padStart(14)} ${"concern wrong".padStart(14)}`);
  for (const row of perCheck(rows)) {
    const cell = (k: number, d: number, w: number) => `${k} (${(ratio(k, d) ?? 0).toFixed(2)})`.padStart(w);
    console.log(`    ${row.check.padEnd(20)} ${cell(row.blockingRight, n.right, 15)} ${cell(row.blockingWrong, n.wrong, 15)} ${cell(row.concernRight, n.right, 14)} ${cell(row.concernWrong, n.wrong, 14)}`);
  }
}

if (process.argv[1] && /critic\.ts$/.test(process.argv[1])) {
  main().catch((err) => {
    console.error(`critic: ${(err as Error).stack ?? err}`);
    process.exitCode = 1;
  });
}
