// Reporting: the tables `npm run bench` prints on stdout (bench/README.md and the README's numbers are read off them).
import type { SizeName } from "./generate";
import { RESULTS_FILE } from "./paths";
import { mcpLines } from "./mcp";
import { guardLines } from "./guard";
import { questionLines } from "./question";
import { STAGE_COLUMNS, type ActivationResult, type Report } from "./results";
import { MB, pct, round } from "./stats";

/** A number in ms for the tables: one decimal below 10, none above; "-" when absent. */
const f = (n: number | undefined) => (n === undefined || Number.isNaN(n) ? "-" : n < 10 ? n.toFixed(1) : n.toFixed(0));


export function table(rows: string[][], header: string[]): string {
  const all = [header, ...rows];
  const widths = header.map((_, i) => Math.max(...all.map((r) => (r[i] ?? "").length)));
  const line = (r: string[]) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}

/** Machine, date, load and the repositories measured. */
function headerLines(report: Report, sizes: SizeName[]): string[] {
  const out: string[] = [];
  out.push("", `Deliberative Search benchmark — ${report.machine.cpus} × ${report.machine.cpuModel}, ${report.machine.memGB} GB, ${report.machine.os}, Node ${report.machine.node}, ${report.machine.git}`);
  out.push(`${report.date}; total ${(report.totalMs / 1000).toFixed(0)} s; offline mode; rules planner + rules synthesizer; ${report.args.questions} questions per size`);
  out.push(`load average at start ${report.machine.loadavgStart.join(" ")}, at end ${report.machine.loadavgEnd?.join(" ") ?? "?"} (other processes on the machine add noise)`, "");
  for (const k of sizes) {
    const r = report.sizes[k]!;
    const c = r.repo.counts;
    out.push(
      `${k}: ${c.adrs} ADRs, ${c.docs} docs (+${c.archDocs} ARCHITECTURE.md), ${c.commits.toLocaleString("en")} commits, ${c.files} files — ${r.repo.generated ? `generated in ${(r.repo.generatedMs / 1000).toFixed(1)} s` : "cached"} (${r.repo.dir})`,
    );
  }
  return out;
}

/** Per-stage latency, cold, and the end-to-end rows. */
function stageLines(report: Report, sizes: SizeName[]): string[] {
  const out: string[] = [];
  out.push("", "Per-stage latency, cold (turn cache off), ms: p50 / p95");
  const rows: string[][] = [];
  for (const [name, what] of STAGE_COLUMNS) {
    rows.push([`${name}`, ...sizes.map((k) => (report.sizes[k]?.summary ? `${f(report.sizes[k]!.summary!.stages[name].p50)} / ${f(report.sizes[k]!.summary!.stages[name].p95)}` : "-")), what]);
  }
  const sm = (k: SizeName) => report.sizes[k]?.summary;
  rows.push(["e2e cold", ...sizes.map((k) => (sm(k) ? `${f(sm(k)!.coldE2e.p50)} / ${f(sm(k)!.coldE2e.p95)}` : "-")), "deliberate() wall clock"]);
  rows.push(["e2e warm", ...sizes.map((k) => (sm(k) ? `${f(sm(k)!.warmE2e.p50)} / ${f(sm(k)!.warmE2e.p95)}` : "-")), "second call, turn-cache hit (stat fingerprint; discovery only if a stat changed)"]);
  rows.push(["first run", ...sizes.map((k) => (sm(k) ? f(sm(k)!.firstRunMs) : "-")), "first deliberation in a fresh process (not in the percentiles)"]);
  out.push(table(rows, ["stage", ...sizes, "what"]));
  return out;
}

/** Recall, answer accuracy, budget hits and memory. */
function qualityLines(report: Report, sizes: SizeName[]): string[] {
  const out: string[] = [];
  const sm = (k: SizeName) => report.sizes[k]?.summary;
  out.push("", "Quality and memory");
  const q: string[][] = [];
  q.push(["recall@3 (top-3 fused items)", ...sizes.map((k) => (sm(k) ? pct(sm(k)!.recallAt3) : "-"))]);
  q.push(["recall@3 (top-3 distinct documents)", ...sizes.map((k) => (sm(k) ? pct(sm(k)!.recallAt3Docs) : "-"))]);
  q.push(["recommended the deciding ADR's choice", ...sizes.map((k) => (sm(k) ? pct(sm(k)!.answerAccuracy) : "-"))]);
  q.push(["recommendation cites the deciding ADR", ...sizes.map((k) => (sm(k) ? pct(sm(k)!.supportsDeciding) : "-"))]);
  q.push(["superseded ADR ranked above deciding one", ...sizes.map((k) => (sm(k) ? `${sm(k)!.supersededAbove}/${sm(k)!.questions}` : "-"))]);
  q.push(["git budget hit (truncated, stated)", ...sizes.map((k) => (sm(k) ? `${sm(k)!.gitBudgetHits}/${sm(k)!.questions}` : "-"))]);
  q.push(["peak RSS, bench worker (all runs in one process)", ...sizes.map((k) => (sm(k) ? `${sm(k)!.peakRssMB} MB` : "-"))]);
  q.push(["  of which before the first run (node+tsx+modules)", ...sizes.map((k) => (report.sizes[k]?.ours?.rssAfterLoadBytes ? `${round(report.sizes[k]!.ours!.rssAfterLoadBytes! / MB)} MB` : "-"))]);
  const cl = (k: SizeName) => report.sizes[k]?.cli;
  q.push(["peak RSS, shipped CLI (one question per process)", ...sizes.map((k) => (cl(k)?.peakRssMB ? `${cl(k)!.peakRssMB} MB` : cl(k)?.error ?? "-"))]);
  q.push(["shipped CLI wall time p50 (incl. node start)", ...sizes.map((k) => (cl(k)?.wallMs ? `${f(cl(k)!.wallMs!.p50)} ms` : "-"))]);
  out.push(table(q, ["", ...sizes]));
  return out;
}

/** The naive baseline against ours on the same questions. */
function baselineLines(report: Report, sizes: SizeName[]): string[] {
  const out: string[] = [];
  const sm = (k: SizeName) => report.sizes[k]?.summary;
  if (sizes.some((k) => sm(k)?.baseline)) {
    out.push("", "Naive baseline (git log -S per key term over full history + word-count ranking of every .md), same questions");
    const b: string[][] = [];
    const bl = (k: SizeName) => sm(k)?.baseline;
    b.push(["questions", ...sizes.map((k) => (bl(k) ? `${bl(k)!.questions}${bl(k)!.questions < sm(k)!.questions ? ` of ${sm(k)!.questions} (subset)` : ""}` : "-"))]);
    b.push(["baseline p50 / p95", ...sizes.map((k) => (bl(k) ? `${f(bl(k)!.e2e.p50)} / ${f(bl(k)!.e2e.p95)} ms` : "-"))]);
    b.push(["  of which git log -S p50", ...sizes.map((k) => (bl(k) ? `${f(bl(k)!.gitMs.p50)} ms` : "-"))]);
    b.push(["ours cold p50, same questions", ...sizes.map((k) => (bl(k) ? `${f(bl(k)!.oursColdP50SameQuestions)} ms` : "-"))]);
    b.push(["ratio ours / baseline", ...sizes.map((k) => (bl(k) ? `${bl(k)!.latencyRatio.toFixed(3)} (${bl(k)!.speedup}× faster)` : "-"))]);
    b.push(["recall@3 ours / baseline", ...sizes.map((k) => (bl(k) ? `${pct(bl(k)!.oursRecallAt3SameQuestions)} / ${pct(bl(k)!.recallAt3)}` : "-"))]);
    out.push(table(b, ["", ...sizes]));
  }
  return out;
}

/** The docs expert's phases, each alone. */
function breakdownLines(report: Report, sizes: SizeName[]): string[] {
  const out: string[] = [];
  const bd = sizes.filter((k) => report.sizes[k]?.ours?.breakdown);
  if (bd.length) {
    out.push("", "Docs-expert breakdown (each phase alone, outside the pipeline; ms)");
    const rowsB: string[][] = [];
    const g = (k: SizeName) => report.sizes[k]!.ours!.breakdown!;
    rowsB.push(["artifacts read (files / MB)", ...bd.map((k) => `${g(k).artifacts} / ${(g(k).artifactBytes / MB).toFixed(1)}`)]);
    rowsB.push(["discoverArtifacts()", ...bd.map((k) => f(g(k).discoverMs))]);
    rowsB.push(["  of which one glob walk (fast-glob)", ...bd.map((k) => f(g(k).globOnlyMs))]);
    rowsB.push(["parse all (parseAdr / parseMarkdown)", ...bd.map((k) => f(g(k).parseMs))]);
    rowsB.push(["sections indexed", ...bd.map((k) => String(g(k).sections))]);
    rowsB.push(["MiniSearch index build only", ...bd.map((k) => f(g(k).indexOnlyMs))]);
    rowsB.push(["rankTextSections (index + query) p50", ...bd.map((k) => f(g(k).rankOnlyMs.p50))]);
    rowsB.push(["runDocsExpert alone p50", ...bd.map((k) => f(g(k).docsAloneMs.p50))]);
    rowsB.push(["git expert alone p50", ...bd.map((k) => f(g(k).gitAloneMs.p50))]);
    out.push(table(rowsB, ["", ...bd]));
  }
  return out;
}

/** Activation time and bundle sizes. */
function activationLines(report: Report): string[] {
  const out: string[] = [];
  out.push("", "Activation and size");
  const a = report.activation;
  const ap = report.activationProduction;
  const actLine = (x: ActivationResult | undefined, label: string) =>
    x ? (x.totalMs ? `${label}: load ${f(x.loadMs!.p50)} ms + activate ${f(x.activateMs!.p50)} ms = ${f(x.totalMs.p50)} ms p50 (max ${f(x.totalMs.max)}, ${x.runs} fresh processes, ${x.commands} commands registered)` : `${label}: ${x.error}`) : `${label}: not measured`;
  out.push(actLine(a, "dev bundle dist/extension.js"));
  out.push(actLine(ap, "production bundle (npm run package)"));
  const bu = report.bundle;
  out.push(`dist (dev build, no .map): extension.js ${(bu.dev.extension / MB).toFixed(2)} MB, core.js ${(bu.dev.core / MB).toFixed(2)} MB, webview ${(bu.dev.webview / 1024).toFixed(0)} KB, cli.js ${(bu.dev.cli / MB).toFixed(2)} MB`);
  if (bu.production) out.push(`production (minified): extension.js ${(bu.production.extension / MB).toFixed(2)} MB, core.js ${(bu.production.core / MB).toFixed(2)} MB, webview ${(bu.production.webview / 1024).toFixed(0)} KB`);
  out.push(bu.vsix ? `.vsix: ${(bu.vsix.bytes / 1024).toFixed(0)} KB (${bu.vsix.source})` : `.vsix: ${bu.vsixError ?? "n/a"}`);
  if (bu.existingVsix && bu.vsix?.source.startsWith("fresh")) out.push(`(also in the repo root: ${bu.existingVsix.file}, ${(bu.existingVsix.bytes / 1024).toFixed(0)} KB, ${bu.existingVsix.mtime})`);
  return out;
}

/** CPU profiles of the measured runs (--profile). */
function profileLines(report: Report, sizes: SizeName[]): string[] {
  const out: string[] = [];
  for (const k of sizes) {
    const p = report.sizes[k]?.profile;
    if (!p) continue;
    out.push("", `CPU profile, ${k} (ours worker, ${(p.totalMs / 1000).toFixed(1)} s sampled): self time by file`);
    out.push(table(p.byFile.slice(0, 12).map((x) => [x.key, `${x.ms.toFixed(0)} ms`, `${(x.share * 100).toFixed(1)}%`]), ["file", "self", "share"]));
    out.push("top functions (self time)");
    out.push(table(p.byFunction.slice(0, 15).map((x) => [x.key, `${x.ms.toFixed(0)} ms`, `${(x.share * 100).toFixed(1)}%`]), ["function", "self", "share"]));
  }
  return out;
}

export function printReport(report: Report): void {
  const sizes = Object.keys(report.sizes) as SizeName[];
  const out = [
    ...headerLines(report, sizes),
    ...stageLines(report, sizes),
    ...qualityLines(report, sizes),
    ...baselineLines(report, sizes),
    ...breakdownLines(report, sizes),
    ...printHistory(report),
    ...activationLines(report),
    ...mcpLines(report.mcp),
    ...guardLines(report.guard),
    ...questionLines(report.question),
    ...questionLines(report.questionLarge),
    "",
    "Targets",
    table(report.targets.map((x) => [x.name, x.target, x.measured, x.status]), ["target", "goal", "measured", ""]),
    ...profileLines(report, sizes),
    "",
    `Results written to ${RESULTS_FILE}`,
  ];
  console.log(out.join("\n"));
}

/** With --profile: where activation spends its time (printed after the report, as before). */
export function printActivationProfile(report: Report): void {
  const ap = report.activationProfile;
  if (ap) {
    console.log(`\nCPU profile, activation (dev bundle): self time by file`);
    console.log(table(ap.byFile.slice(0, 12).map((x) => [x.key, `${x.ms.toFixed(1)} ms`, `${(x.share * 100).toFixed(1)}%`]), ["file", "self", "share"]));
  }
}


/** The history index (issue 12) per size and on the real repository. */
function printHistory(report: Report): string[] {
  const out: string[] = [];
  const keys = Object.keys(report.history);
  if (!keys.length) return out;
  const f = (n: number | undefined, unit = " ms") => (n === undefined || Number.isNaN(n) ? "-" : `${n < 10 ? n.toFixed(1) : n.toFixed(0)}${unit}`);
  const h = (k: string) => report.history[k];
  out.push("", "History index (issue 12): built with `deliberate index`, read by the git expert");
  const rows: string[][] = [];
  rows.push(["commits", ...keys.map((k) => (h(k).commits ? h(k).commits!.toLocaleString("en") : h(k).skipped ? "skipped" : "-"))]);
  rows.push(["full build (updateIndex) / CLI wall", ...keys.map((k) => (h(k).build ? (h(k).build!.error ? h(k).build!.error! : `${f(h(k).build!.ms / 1000, " s")} / ${f(h(k).build!.wallMs / 1000, " s")}`) : "-"))]);
  rows.push(["index size", ...keys.map((k) => (h(k).build?.bytes ? `${(h(k).build!.bytes / MB).toFixed(1)} MB` : "-"))]);
  rows.push(["peak RSS of the build (CLI)", ...keys.map((k) => (h(k).build?.peakRssMB ? `${h(k).build!.peakRssMB} MB` : "-"))]);
  rows.push(["incremental, 10 new commits", ...keys.map((k) => (h(k).incremental ? (h(k).incremental!.error ?? `${f(h(k).incremental!.ms)} (+${h(k).incremental!.added}, CLI ${f(h(k).incremental!.wallMs)})`) : "-"))]);
  rows.push(["git stage p50 / p95 (pipeline)", ...keys.map((k) => (h(k).pipeline ? `${f(h(k).pipeline!.git.p50)} / ${f(h(k).pipeline!.git.p95)}` : "-"))]);
  rows.push(["git cut short", ...keys.map((k) => (h(k).pipeline ? `${h(k).pipeline!.cutShort}/${h(k).pipeline!.git.n}` : "-"))]);
  rows.push(["in-process cold / warm p95", ...keys.map((k) => (h(k).pipeline ? `${f(h(k).pipeline!.cold.p95)} / ${f(h(k).pipeline!.warm.p95)}` : "-"))]);
  rows.push(["recall@3 (fused items)", ...keys.map((k) => (h(k).pipeline ? pct(h(k).pipeline!.recallAt3) : "-"))]);
  rows.push(["CLI cold p50 / p95 (node start incl.)", ...keys.map((k) => (h(k).cli?.cold.n ? `${f(h(k).cli!.cold.p50)} / ${f(h(k).cli!.cold.p95)}` : "-"))]);
  rows.push(["CLI turn-cache hit p50 / p95", ...keys.map((k) => (h(k).cli?.hit.n ? `${f(h(k).cli!.hit.p50)} / ${f(h(k).cli!.hit.p95)}` : "-"))]);
  rows.push(["CLI peak RSS", ...keys.map((k) => (h(k).cli?.peakRssMB ? `${h(k).cli!.peakRssMB} MB` : "-"))]);
  rows.push(["recall vs naive -S/--grep scan", ...keys.map((k) => (h(k).recall ? `${pct(h(k).recall!.recall)} (${h(k).recall!.found}/${h(k).recall!.naive.commits})` : "-"))]);
  rows.push(["naive scan / index lookup", ...keys.map((k) => (h(k).recall ? `${f(h(k).recall!.naive.ms / 1000, " s")} / ${f(h(k).recall!.index.ms)} (${h(k).recall!.speedup}×)` : "-"))]);
  out.push(table(rows, ["", ...keys]));
  return out;
}
