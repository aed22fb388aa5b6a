// The Critic's numbers without rerunning the CLI: reads the payloads an eval run saved with the rules Critic off
// (`DELIBERATIVE_CRITIC=off EVAL_SAVE_PAYLOADS=DIR npm run eval -- --once --set dev`), runs the rules Critic on each
// exactly as the pipeline does (critique, then applyObjections), and reports over the answers decided BEFORE the
// Critic's effect:
//   - wrong / right answers carrying a blocking objection (targets ≥ 0.60 / ≤ 0.10);
//   - the calibration (high / med answers right) without the Critic and with its effect applied.
//
//   node --import tsx eval/critic.ts DIR [--set dev] [--verbose] [--cv [--exclude unit,…]]
//
// `--verbose` prints one line per dev question only: held-out answers stay unread while tuning.
// `--blocking unit,unit,…` replays with another set of blocking units (kinds, or pairs of kinds as "a+b") than
// policy.ts's BLOCKING_KINDS, and without the odds of doubt (policy.ts's DOUBTS), to compare.
// `--cv` picks which units block (critic/policy.ts's rule) on the dev answers only: it prints each kind's counts on
// dev and those of the pairs of kinds the rule may take, the leave-one-repository-out estimate of the rule (pick on
// all repositories but one, count on that one), the units it picks on all of dev against BLOCKING_KINDS, and, for
// every column, the totals of the current set and of the pick (totals only for the held-out columns).
// `--cv` then fits the odds of doubt (policy.ts's DOUBTS, what blocks beyond the contradictions) on dev, prints the
// fit to paste into policy.ts, its leave-one-repository-out estimate (and that of the rule without its strength cut
// and shrinkage, to compare) and every column's totals under DOUBTS.
// `--exclude unit,unit,…` (with --cv): units the rule never takes (ones the held-out columns turned down), to read
// what it picks without them.
// `--traits` prints, for candidate signals the Critic does not use (candidateTraits), how many wrong and right dev
// answers carry each, over all decided answers and over those nothing blocks yet (dev only: a new signal is picked on
// dev, never on a held-out column).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { applyObjections, critique, findings, type CriticInput, type RaisedObjection } from "../src/core/critic";
import { choiceOf, rankedRecords, stemSet } from "../src/core/critic/grounding";
import { decidingRecord } from "../src/core/critic/rules";
import { groundingSignals } from "../src/core/critic/signals";
import { readQuestion } from "../src/core/synth/question";
import { mentions } from "../src/core/synth/stance";
import { splitAsking } from "../src/core/terms";
import { BLOCKING_KINDS, blockCounts, choosePolicy, crossValidate, crossValidateDoubts, DEFAULT_DOUBT_RULE, DEFAULT_RULE, DOUBTS, doubtCounts, fitDoubts, kindStats, MIN_WRONG, unitsOf, type DoubtWeights, type LabelledAnswer, type PolicyRule } from "../src/core/critic/policy";
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
  /** The repository the question is about (the cross-validation leaves one out at a time). */
  repo: string;
  decided: boolean;
  right: boolean;
  confidence: string;
  /** A question no record decides (its answer key names no record). */
  noAnswer: boolean;
  /** A wrong decided answer's cause, before the Critic's effect (see wrongCause); none for a right or undecided one. */
  cause?: WrongCause;
  title?: string;
  raised: RaisedObjection[];
  /** Every finding kind the checks raised, whatever its severity. */
  kinds: string[];
  /** Candidate signals the Critic does not use yet (candidateTraits), to measure with --traits. */
  traits: string[];
  after: { decided: boolean; right: boolean; confidence: string };
  /** The rules Critic again with another set of blocking kinds: its objections and the answer after their effect. */
  rerun: (blocking: ReadonlySet<string>, doubts: DoubtWeights | null) => { raised: RaisedObjection[]; after: { decided: boolean; right: boolean; confidence: string } };
}

/**
 * Why a decided answer is wrong: it answers a question no record decides ("no-answer": the answer key names no
 * record), its option does not cite the record that decides ("wrong-record"), or it cites that record but its option
 * is not the record's choice as the answer key words it ("wrong-option"). The Critic's checks read the deciding record
 * against the question and the other retrieved records, so they can tell the first two; the third rests on the right
 * record, and only a reading of the option against the record's decision could tell it.
 */
export type WrongCause = "no-answer" | "wrong-record" | "wrong-option";

export function wrongCause(q: SetQuestion, p: LoosePayload): WrongCause | undefined {
  const decided = !!p.recommendation?.option_id && p.recommendation.option_id !== UNDECIDABLE_ID;
  if (!decided) return undefined;
  if (!q.gold.length) return "no-answer";
  const v = judgeGrounded(q, p);
  if (v.grounded) return undefined;
  return /is not the gold choice/.test(v.reason) ? "wrong-option" : "wrong-record";
}

/** The rules Critic over one saved answer, with the same inputs the pipeline gives it. */
export async function replay(saved: Saved, blocking: ReadonlySet<string> = BLOCKING_KINDS, doubts: DoubtWeights | null = DOUBTS): Promise<Replayed> {
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
  const input: CriticInput = { question: q.question, draft, evidence, usage: { report, citedBy }, recordText };
  const judge = (p: LoosePayload) => {
    const decided = !!p.recommendation?.option_id && p.recommendation.option_id !== UNDECIDABLE_ID;
    return { decided, right: decided && q.gold.length > 0 && judgeGrounded(q, p).grounded, confidence: p.recommendation?.confidence ?? "" };
  };
  const rerun = (blocking: ReadonlySet<string>, odds: DoubtWeights | null) => {
    const raised = critique(input, blocking, odds);
    return { raised, after: judge(applyObjections(draft, raised, evidence) as DraftPicker & LoosePayload) };
  };
  const before = judge(payload);
  const cause = wrongCause(q, payload);
  return {
    id: q.id,
    set: q.set,
    repo: q.repo,
    noAnswer: !q.gold.length,
    ...before,
    ...(cause ? { cause } : {}),
    title: payload.options.find((o) => o.id === payload.recommendation.option_id)?.title,
    ...rerun(blocking, doubts),
    kinds: [...new Set(findings(input).map((f) => f.kind))],
    traits: candidateTraits(input),
    rerun,
  };
}

/** Every trait candidateTraits reads, so --traits prints the ones no answer carries too. */
export const CANDIDATE_TRAITS = ["thin-lead", "trails", "record-not-first", "record-chose-nothing", "named-alternatives-absent", "top-two-records-split", "option-off-question", "recommends-keeping"] as const;

/** log2 of 1.07: a lead of under 7% of the next document's retrieval score. */
const THIN_LEAD = Math.log2(1.07);

/**
 * Evidence-level traits any repository's answers have, measured as candidate Critic signals and not used by it: the
 * deciding record leads the best other retrieved document by under 7% of its score ("thin-lead") or trails it
 * ("trails"); another record ranks above it ("record-not-first"); its decision model read no choice
 * ("record-chose-nothing"); the question names alternatives and the record's text mentions none of them
 * ("named-alternatives-absent"); the two best-ranked records each chose one of the drafted options, and not the same
 * one ("top-two-records-split"); the recommended option shares no word with what the question asks
 * ("option-off-question"); it keeps what is in place ("recommends-keeping").
 */
export function candidateTraits(input: CriticInput): string[] {
  const { draft, evidence, question } = input;
  const rec = draft.options.find((o) => o.id === draft.recommendation.option_id);
  if (!rec) return [];
  const byId = new Map(evidence.map((e) => [e.id, e] as const));
  const record = decidingRecord(input, rec, byId);
  const terms = new Map(optionTermsFor(draft.options).map((t) => [t.id, t.terms.filter((x) => x.length >= 3)] as const));
  const out: string[] = [];
  if (/^(?:keep|stay)\b/i.test(rec.title)) out.push("recommends-keeping");
  const asked = stemSet(splitAsking(question).asking);
  if (![...stemSet(rec.title)].some((w) => asked.has(w))) out.push("option-off-question");
  if (!record) return out;
  const signals = groundingSignals({ question, draft, evidence, rec, record, terms });
  if (signals && signals.margin < THIN_LEAD) out.push("thin-lead");
  if (signals && signals.margin < 0) out.push("trails");
  const ranked = rankedRecords(evidence);
  if (ranked[0] && ranked[0].meta.path !== record.meta.path) out.push("record-not-first");
  if (!choiceOf(record.meta)) out.push("record-chose-nothing");
  const named = readQuestion(question).alternatives.filter((a) => a.terms.length);
  if (named.length && !named.some((a) => mentions(record.text, { terms: a.terms }))) out.push("named-alternatives-absent");
  const optionChosen = (choice: string | undefined) => (choice ? draft.options.find((o) => (terms.get(o.id) ?? []).length && mentions(choice, { terms: terms.get(o.id)! }))?.id : undefined);
  const [first, second] = ranked.slice(0, 2).map((r) => optionChosen(choiceOf(r.meta)));
  if (first && second && first !== second) out.push("top-two-records-split");
  return out;
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
  const dir = argv.find((a, i) => !a.startsWith("--") && argv[i - 1] !== "--set" && argv[i - 1] !== "--blocking" && argv[i - 1] !== "--exclude");
  if (!dir) throw new Error("usage: node --import tsx eval/critic.ts DIR [--set dev|test|independent] [--verbose] [--cv [--exclude unit,unit,…]] [--blocking kind,kind,…]");
  const setAt = argv.indexOf("--set");
  const set = setAt >= 0 ? argv[setAt + 1] : undefined;
  const verbose = argv.includes("--verbose");
  const cv = argv.includes("--cv");
  const blockingAt = argv.indexOf("--blocking");
  const blocking: ReadonlySet<string> = blockingAt >= 0 ? new Set((argv[blockingAt + 1] ?? "").split(",").filter(Boolean)) : BLOCKING_KINDS;
  const excludeAt = argv.indexOf("--exclude");
  const rule: PolicyRule = excludeAt >= 0 ? { ...DEFAULT_RULE, exclude: new Set((argv[excludeAt + 1] ?? "").split(",").filter(Boolean)) } : DEFAULT_RULE;
  const files = readdirSync(dir).filter((f) => f.endsWith(".json")).sort();
  const rows: Replayed[] = [];
  for (const f of files) {
    const saved = JSON.parse(readFileSync(join(dir, f), "utf8")) as Saved;
    if (set && saved.question.set !== set) continue;
    if (saved.critic !== "off") console.log(`critic: warning: ${f} was answered with the Critic on; its recommendation is after the Critic's effect`);
    const r = await replay(saved, blocking, blockingAt >= 0 ? null : DOUBTS);
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
  // Per set, totals only (a held-out column is never read item by item).
  for (const s of ["dev", "test", "independent"]) {
    const of = rows.filter((r) => r.set === s);
    if (!of.length) continue;
    const m = summarize(of);
    const causes = (["wrong-record", "no-answer", "wrong-option"] as const).map((c) => {
      const wrong = of.filter((r) => r.decided && !r.right && r.cause === c);
      return `${c} ${wrong.filter((r) => r.raised.some((o) => o.severity === "blocking")).length}/${wrong.length}`;
    });
    console.log(`    ${s.padEnd(11)} wrong blocked ${fmt(m.wrong_blocked, m.wrong)}, right blocked ${fmt(m.right_blocked, m.right)}; wrong blocked by cause: ${causes.join(", ")}`);
  }
  for (const [label, c] of [["without the Critic", n.without], ["with the Critic   ", n.with]] as const) {
    console.log(`  ${label}: ${c.decided} decided; high right ${fmt(c.high_right, c.high)}, med right ${fmt(c.med_right, c.med)}`);
  }
  // Per set, totals only: the calibration with the Critic's effect, and the no-answer questions flagged (undecidable
  // or low) before and after it, as eval/retrieval.ts counts them.
  for (const s of ["dev", "test", "independent"]) {
    const of = rows.filter((r) => r.set === s);
    if (!of.length) continue;
    const c = calibrationOf(of.map((r) => r.after));
    const none = of.filter((r) => r.noAnswer);
    const flagged = (x: { decided: boolean; confidence: string }) => !x.decided || x.confidence === "low";
    console.log(`    ${s.padEnd(11)} with the Critic: high right ${fmt(c.high_right, c.high)}, med right ${fmt(c.med_right, c.med)}; no-answer flagged ${none.filter(flagged).length}/${none.length} before, ${none.filter((r) => flagged(r.after)).length}/${none.length} after`);
  }
  // Which checks raise what, over right and over wrong answers: counts only, so a held-out column stays unread. A
  // check that blocks about as often on right answers as on wrong ones carries no information.
  console.log(`  per check (answers decided before the Critic's effect; ${n.right} right, ${n.wrong} wrong):`);
  console.log(`    ${"check".padEnd(20)} ${"blocking right".padStart(15)} ${"blocking wrong".padStart(15)} ${"concern right".padStart(14)} ${"concern wrong".padStart(14)}`);
  for (const row of perCheck(rows)) {
    const cell = (k: number, d: number, w: number) => `${k} (${(ratio(k, d) ?? 0).toFixed(2)})`.padStart(w);
    console.log(`    ${row.check.padEnd(20)} ${cell(row.blockingRight, n.right, 15)} ${cell(row.blockingWrong, n.wrong, 15)} ${cell(row.concernRight, n.right, 14)} ${cell(row.concernWrong, n.wrong, 14)}`);
  }
  if (argv.includes("--traits")) traitTable(rows.filter((r) => r.set === "dev"));
  if (cv) {
    crossValidation(rows, rule);
    doubtValidation(rows);
  }
}

/** --traits: each candidate trait's wrong and right dev answers, over all decided ones and over those nothing blocks yet. */
function traitTable(dev: Replayed[]): void {
  const decided = dev.filter((r) => r.decided);
  const open = decided.filter((r) => !r.raised.some((o) => o.severity === "blocking"));
  const cell = (rows: Replayed[], trait: string) => {
    const W = rows.filter((r) => !r.right).length;
    const R = rows.length - W;
    const w = rows.filter((r) => !r.right && r.traits.includes(trait)).length;
    const rr = rows.filter((r) => r.right && r.traits.includes(trait)).length;
    return `wrong ${String(w).padStart(3)} right ${String(rr).padStart(3)} ratio ${((w + 0.5) / (W + 1) / ((rr + 0.5) / (R + 1))).toFixed(2).padStart(5)}`;
  };
  console.log(`critic --traits: candidate signals on dev (${decided.length} decided answers; ${open.length} that nothing blocks yet)`);
  for (const t of CANDIDATE_TRAITS) console.log(`    ${t.padEnd(28)} all: ${cell(decided, t)}   unblocked: ${cell(open, t)}`);
}

/** The decided answers as policy.ts reads them: repository, right or wrong, and the finding kinds raised. */
export function labelled(rows: Replayed[]): LabelledAnswer[] {
  return rows.filter((r) => r.decided).map((r) => ({ group: r.repo, right: r.right, kinds: new Set(r.kinds), confidence: r.confidence }));
}

/** --cv: the rule fit on dev only; held-out columns are read as totals. */
function crossValidation(rows: Replayed[], rule: PolicyRule = DEFAULT_RULE): void {
  const dev = labelled(rows.filter((r) => r.set === "dev"));
  if (!dev.length) {
    console.log("critic --cv: no dev answers to fit on");
    return;
  }
  console.log(`critic --cv: finding kinds on dev (${dev.filter((r) => !r.right).length} wrong, ${dev.filter((r) => r.right).length} right decided answers; ratio = wrong rate / right rate, each smoothed by half an answer)`);
  const line = (s: { kind: string; wrong: number; right: number; ratio: number }) =>
    console.log(`    ${s.kind.padEnd(40)} wrong ${String(s.wrong).padStart(3)}  right ${String(s.right).padStart(3)}  ratio ${s.ratio.toFixed(2).padStart(6)}${BLOCKING_KINDS.has(s.kind) ? "  (blocks now)" : ""}`);
  for (const s of kindStats(dev)) line(s);
  console.log(`  pairs of kinds of two checks raised together, on at least ${MIN_WRONG} wrong answers:`);
  const totals = { wrong: dev.filter((r) => !r.right).length, right: dev.filter((r) => r.right).length };
  for (const s of kindStats(dev.map((r) => ({ ...r, kinds: unitsOf(r.kinds) })), totals).filter((x) => x.kind.includes("+") && x.wrong >= MIN_WRONG)) line(s);
  if (rule.exclude?.size) console.log(`  units the rule never takes (--exclude): ${[...rule.exclude].join(", ")}`);
  const v = crossValidate(dev, rule);
  console.log(`  leave one repository out (pick on the others, count on it), dev: wrong blocked ${fmt(v.wrongBlocked, v.wrong)}, right blocked ${fmt(v.rightBlocked, v.right)}`);
  for (const f of v.folds) console.log(`    without ${f.group.padEnd(40)} wrong ${f.wrongBlocked}/${f.wrong}, right ${f.rightBlocked}/${f.right}; picked ${f.chosen.join(", ") || "nothing"}`);
  console.log(`  picked in how many of ${v.folds.length} folds: ${[...v.picked].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([k, n]) => `${k} ${n}`).join(", ") || "nothing"}`);
  const pick = new Set(choosePolicy(dev, rule));
  const now = new Set<string>(BLOCKING_KINDS);
  const same = pick.size === now.size && [...pick].every((k) => now.has(k));
  console.log(`  picked on all of dev: ${[...pick].join(", ") || "nothing"}${same ? " (= BLOCKING_KINDS)" : `; BLOCKING_KINDS: ${[...now].join(", ")}`}`);
  for (const set of ["dev", "test", "independent"]) {
    const of = rows.filter((r) => r.set === set);
    if (!of.length) continue;
    for (const [label, blocking] of [["BLOCKING_KINDS", now], ["dev pick", pick]] as const) {
      if (label === "dev pick" && same) continue;
      const c = blockCounts(labelled(of), blocking);
      const cal = calibrationOf(of.map((r) => r.rerun(blocking, null).after));
      console.log(`  ${set.padEnd(11)} ${label.padEnd(14)} wrong blocked ${fmt(c.wrongBlocked, c.wrong)}, right blocked ${fmt(c.rightBlocked, c.right)}; with its effect high right ${fmt(cal.high_right, cal.high)}, med right ${fmt(cal.med_right, cal.med)}`);
    }
  }
}

/** --cv, the odds of doubt (policy.ts's DOUBTS): the fit on dev, its leave-one-repository-out estimate, and every column's totals. */
function doubtValidation(rows: Replayed[]): void {
  const dev = labelled(rows.filter((r) => r.set === "dev"));
  if (!dev.length) return;
  const fit = fitDoubts(dev);
  const round = (x: number) => Number(x.toPrecision(3));
  const table: DoubtWeights = { prior: Object.fromEntries(Object.entries(fit.prior).map(([k, v]) => [k, round(v)])), ratio: Object.fromEntries(Object.entries(fit.ratio).map(([k, v]) => [k, round(v)])), bar: fit.bar };
  console.log(`critic --cv: the odds of doubt fit on dev (paste into policy.ts's DOUBTS):`);
  console.log(`  ${JSON.stringify(table)}`);
  const canon = (w: DoubtWeights) => JSON.stringify([Object.entries(w.prior).sort(), Object.entries(w.ratio).sort(), w.bar]);
  const same = canon(table) === canon(DOUBTS);
  console.log(`  ${same ? "= DOUBTS" : "differs from DOUBTS"}`);
  const v = crossValidateDoubts(dev);
  console.log(`  leave one repository out (fit on the others, count on it), dev: wrong blocked ${fmt(v.wrongBlocked, v.wrong)}, right blocked ${fmt(v.rightBlocked, v.right)}; bars ${[...new Set(v.folds.map((f) => f.bar))].sort((a, b) => a - b).join(", ")}`);
  // The same rule with every kind above 1 weighing its raw ratio (before the strength cut and the shrinkage), to compare.
  const raw = crossValidateDoubts(dev, { minWrong: DEFAULT_DOUBT_RULE.minWrong, maxRightShare: DEFAULT_DOUBT_RULE.maxRightShare });
  console.log(`  the same without the strength cut and shrinkage: wrong blocked ${fmt(raw.wrongBlocked, raw.wrong)}, right blocked ${fmt(raw.rightBlocked, raw.right)}`);
  for (const set of ["dev", "test", "independent"]) {
    const of = labelled(rows.filter((r) => r.set === set));
    if (!of.length) continue;
    for (const [label, w] of [["DOUBTS", DOUBTS], ["dev fit", table]] as const) {
      if (label === "dev fit" && same) continue;
      const c = doubtCounts(of, w);
      console.log(`  ${set.padEnd(11)} ${label.padEnd(8)} wrong blocked ${fmt(c.wrongBlocked, c.wrong)}, right blocked ${fmt(c.rightBlocked, c.right)}`);
    }
  }
}

if (process.argv[1] && /critic\.ts$/.test(process.argv[1])) {
  main().catch((err) => {
    console.error(`critic: ${(err as Error).stack ?? err}`);
    process.exitCode = 1;
  });
}
