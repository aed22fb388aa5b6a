// Scores the question classifier on the labelled fixture (test/fixtures/classifier-labelled.json) and, when it
// exists, on eval/classifier.json: accuracy per split (open-question vs everything else), a reliability table
// (confidence bucket -> share correct) and the per-call latency after warm-up.
//   node --import tsx scripts/classifier-accuracy.ts [--failures] [--heldout-failures] [--json]
// --failures lists the misclassified rows of the tune split only; the held-out split is scored, not shown,
// unless --heldout-failures is given (for the final report, never while changing the rules).
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { CLASSIFY_THRESHOLD, classifyQuestion } from "../src/core/classify";

interface Row {
  text: string;
  open: boolean;
  split: string;
  batch?: string;
}

const root = join(import.meta.dirname, "..");
const args = new Set(process.argv.slice(2));

function loadFixture(): Row[] {
  const data = JSON.parse(readFileSync(join(root, "test/fixtures/classifier-labelled.json"), "utf8")) as {
    items: Array<{ text: string; label: string; split: string; batch?: string }>;
  };
  return data.items.map((it) => ({ text: it.text, open: it.label === "open", split: it.split, ...(it.batch ? { batch: it.batch } : {}) }));
}

// eval/classifier.json belongs to the eval harness; its shape is read leniently: an array (or { items | questions
// | rows: [...] }) of objects with the text under text/question/query and the label under label/class/expected
// (or a boolean open / is_open / openQuestion).
function loadEval(): Row[] | undefined {
  const file = join(root, "eval/classifier.json");
  if (!existsSync(file)) return undefined;
  const raw = JSON.parse(readFileSync(file, "utf8")) as unknown;
  const list = Array.isArray(raw)
    ? raw
    : ((raw as Record<string, unknown>).items ?? (raw as Record<string, unknown>).questions ?? (raw as Record<string, unknown>).rows ?? (raw as Record<string, unknown>).labelled);
  if (!Array.isArray(list)) throw new Error("eval/classifier.json: no list of rows found");
  return list.map((r: Record<string, unknown>) => {
    const text = String(r.text ?? r.question ?? r.query ?? "");
    const flag = r.open ?? r.is_open ?? r.openQuestion;
    const label = String(r.label ?? r.class ?? r.expected ?? r.kind ?? "");
    const open = typeof flag === "boolean" ? flag : /^open/i.test(label);
    return { text, open, split: "eval" };
  });
}

interface Scored extends Row {
  cls: string;
  confidence: number;
  /** (classifier says open-question) == (labelled open). Abstain and lookup both mean "do not deliberate". */
  correct: boolean;
  reasons: string[];
}

function score(rows: Row[]): Scored[] {
  return rows.map((r) => {
    const c = classifyQuestion(r.text);
    return { ...r, cls: c.class, confidence: c.confidence, correct: (c.class === "open-question") === r.open, reasons: c.reasons };
  });
}

function pct(n: number, d: number): string {
  return d === 0 ? "-" : `${((100 * n) / d).toFixed(1)}%`;
}

function accuracy(label: string, rows: Scored[]): void {
  const ok = rows.filter((r) => r.correct).length;
  const tp = rows.filter((r) => r.open && r.cls === "open-question").length;
  const fp = rows.filter((r) => !r.open && r.cls === "open-question").length;
  const fn = rows.filter((r) => r.open && r.cls !== "open-question").length;
  console.log(
    `${label.padEnd(11)} n=${String(rows.length).padStart(3)}  accuracy ${pct(ok, rows.length).padStart(6)}  ` +
      `open precision ${pct(tp, tp + fp)}  open recall ${pct(tp, tp + fn)}`,
  );
}

const BUCKETS: Array<[number, number]> = [
  [0, 0.4],
  [0.4, 0.6],
  [0.6, 0.7],
  [0.7, 0.8],
  [0.8, 0.9],
  [0.9, 1.0001],
];

function reliability(rows: Scored[]): void {
  console.log(`\nreliability (committed class: open-question or lookup, correct = agrees with the label; below ${CLASSIFY_THRESHOLD} the classifier abstains)`);
  console.log("| confidence | n | share correct | mean confidence |");
  console.log("| --- | --- | --- | --- |");
  for (const [lo, hi] of BUCKETS) {
    const inB = rows.filter((r) => r.confidence >= lo && r.confidence < hi);
    const committed = inB.filter((r) => r.cls !== "abstain");
    // An abstention counts as "not open" (what the pipeline does with it).
    const ok = inB.filter((r) => r.correct).length;
    const mean = inB.length ? inB.reduce((s, r) => s + r.confidence, 0) / inB.length : 0;
    const name = `${lo.toFixed(1)}–${Math.min(hi, 1).toFixed(1)}`;
    console.log(`| ${name} | ${inB.length}${committed.length !== inB.length ? ` (${inB.length - committed.length} abstain)` : ""} | ${pct(ok, inB.length)} | ${inB.length ? mean.toFixed(2) : "-"} |`);
  }
}

// Wall time per call is noisy on a shared machine, so the mean CPU time per call (process.cpuUsage over all
// timed calls) is reported next to the wall-clock percentiles.
function latency(texts: string[]): void {
  for (let i = 0; i < 2000; i++) classifyQuestion(texts[i % texts.length]!);
  const times: number[] = [];
  const cpu0 = process.cpuUsage();
  for (let round = 0; round < 5; round++) {
    for (const t of texts) {
      const t0 = performance.now();
      classifyQuestion(t);
      times.push(performance.now() - t0);
    }
  }
  const cpu = process.cpuUsage(cpu0);
  times.sort((a, b) => a - b);
  const q = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))]!;
  console.log(
    `\nlatency after warm-up over ${times.length} calls: wall p50 ${q(0.5).toFixed(3)} ms, p90 ${q(0.9).toFixed(3)} ms, p95 ${q(0.95).toFixed(3)} ms, ` +
      `max ${q(1).toFixed(1)} ms; mean CPU ${((cpu.user + cpu.system) / 1000 / times.length).toFixed(3)} ms per call`,
  );
}

const fixture = score(loadFixture());
const evalRows = loadEval();
const evalScored = evalRows ? score(evalRows) : undefined;

accuracy("tune", fixture.filter((r) => r.split === "tune"));
accuracy("heldout", fixture.filter((r) => r.split === "heldout"));
for (const batch of [...new Set(fixture.filter((r) => r.split === "heldout").map((r) => r.batch ?? "first"))]) {
  accuracy(`  ${batch}`, fixture.filter((r) => r.split === "heldout" && (r.batch ?? "first") === batch));
}
accuracy("all", fixture);
if (evalScored) accuracy("eval", evalScored);
else console.log("eval       eval/classifier.json not present");
reliability(fixture);
if (evalScored) {
  console.log("\neval/classifier.json:");
  reliability(evalScored);
}

const show = (rows: Scored[], title: string) => {
  const bad = rows.filter((r) => !r.correct);
  if (bad.length === 0) return;
  console.log(`\n${title}:`);
  for (const r of bad) console.log(`  [${r.open ? "open" : "not "}] ${r.cls} ${r.confidence.toFixed(2)}  ${JSON.stringify(r.text)}\n      ${r.reasons.join("; ")}`);
};
if (args.has("--failures")) show(fixture.filter((r) => r.split === "tune"), "tune-split failures");
if (args.has("--heldout-failures")) show(fixture.filter((r) => r.split === "heldout"), "held-out failures");
if (args.has("--eval-failures") && evalScored) show(evalScored, "eval/classifier.json failures");

latency(fixture.map((r) => r.text));
