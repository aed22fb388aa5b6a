// Deriving the numbers the report shows from the raw measurements: per-size summaries, the history index's pipeline
// summary, and the targets (issue 6 and issue 12) with PASS / MISS.
import type { SizeName } from "./generate";
import { STAGE_COLUMNS, type ActivationResult, type BaselineResult, type BundleResult, type HistoryReport, type OursResult, type Report, type SizeReport, type SizeSummary, type Target } from "./results";
import { dist, MB, pct, percentile, rate, round, type Dist } from "./stats";

export function summarise(ours: OursResult, baseline?: BaselineResult): SizeSummary {
  const qs = ours.questions;
  const stages: Record<string, Dist> = {};
  for (const [name] of STAGE_COLUMNS) stages[name] = dist(qs.map((q) => q.cold.stages[name]));
  const summary: SizeSummary = {
    questions: qs.length,
    stages,
    coldE2e: dist(qs.map((q) => q.cold.e2eMs)),
    warmE2e: dist(qs.map((q) => q.warm.e2eMs)),
    warmAllCached: qs.every((q) => q.warm.cached),
    firstRunMs: ours.firstRunMs,
    gitBudgetHits: qs.filter((q) => q.cold.gitBudgetHit).length,
    gitTruncatedWithReason: qs.filter((q) => q.cold.gitTruncated).every((q) => !!q.cold.gitReason),
    peakRssMB: round(ours.peakRssBytes / MB),
    recallAt3: round(rate(qs.map((q) => q.cold.recallItems)), 3),
    recallAt3Docs: round(rate(qs.map((q) => q.cold.recallDocs)), 3),
    supersededAbove: qs.filter((q) => q.cold.supersededAbove).length,
    answerAccuracy: round(rate(qs.map((q) => q.cold.answerCorrect)), 3),
    supportsDeciding: round(rate(qs.map((q) => q.cold.supportsDeciding)), 3),
    abstained: qs.filter((q) => q.cold.abstained).length,
  };
  if (baseline && baseline.questions.length) {
    const ids = new Set(baseline.questions.map((q) => q.id));
    const same = qs.filter((q) => ids.has(q.id));
    const oursP50 = percentile(same.map((q) => q.cold.e2eMs), 50);
    const baseP50 = percentile(baseline.questions.map((q) => q.run.ms), 50);
    summary.baseline = {
      questions: baseline.questions.length,
      ids: [...ids],
      e2e: dist(baseline.questions.map((q) => q.run.ms)),
      gitMs: dist(baseline.questions.map((q) => q.run.gitMs)),
      rankMs: dist(baseline.questions.map((q) => q.run.rankMs)),
      recallAt3: round(rate(baseline.questions.map((q) => q.recall)), 3),
      oursColdP50SameQuestions: round(oursP50),
      oursRecallAt3SameQuestions: round(rate(same.map((q) => q.cold.recallItems)), 3),
      latencyRatio: round(oursP50 / baseP50, 4),
      speedup: round(baseP50 / oursP50, 1),
      peakRssMB: round(baseline.peakRssBytes / MB),
    };
  }
  return summary;
}

export function summariseHistoryPipeline(ours: OursResult): NonNullable<HistoryReport["pipeline"]> {
  const qs = ours.questions;
  return {
    git: dist(qs.map((q) => q.cold.stages.git)),
    cold: dist(qs.map((q) => q.cold.e2eMs)),
    warm: dist(qs.map((q) => q.warm.e2eMs)),
    peakRssMB: round(ours.peakRssBytes / MB),
    cutShort: qs.filter((q) => q.cold.gitBudgetHit || q.cold.gitTruncated).length,
    recallAt3: round(rate(qs.map((q) => q.cold.recallItems)), 3),
  };
}

export function evaluateTargets(sizes: Partial<Record<SizeName, SizeReport>>, activation: ActivationResult, activationProd: ActivationResult | undefined, bundle: BundleResult): Target[] {
  const t: Target[] = [];
  const ms = (n: number) => `${n.toFixed(n < 10 ? 1 : 0)} ms`;
  const status = (ok: boolean | undefined): Target["status"] => (ok === undefined ? "n/a" : ok ? "PASS" : "MISS");
  const s = (k: SizeName) => sizes[k]?.summary;
  const cold = (k: SizeName, limit: number) => {
    const x = s(k);
    t.push({ name: `e2e cold p95, ${k}`, target: `≤ ${limit / 1000} s`, measured: x ? ms(x.coldE2e.p95) : "not run", status: status(x ? x.coldE2e.p95 <= limit : undefined) });
  };
  cold("medium", 1000);
  cold("large", 3000);
  for (const k of ["small", "medium", "large"] as SizeName[]) {
    const x = s(k);
    if (!x) continue;
    t.push({
      name: `e2e warm p95 (turn-cache hit), ${k}`,
      target: "≤ 50 ms",
      measured: `${ms(x.warmE2e.p95)}${x.warmAllCached ? "" : " (some runs not cached!)"}`,
      status: status(x.warmE2e.p95 <= 50 && x.warmAllCached),
    });
  }
  for (const k of ["small", "medium", "large"] as SizeName[]) {
    const x = s(k);
    if (!x) continue;
    t.push({
      name: `git stage max, ${k}`,
      target: "≤ 1.5 s; cut-offs stated",
      measured: `${ms(x.stages.git.max)} (p95 ${ms(x.stages.git.p95)}; budget hit ${x.gitBudgetHits}/${x.questions})`,
      status: status(x.stages.git.max <= 1500 && x.gitTruncatedWithReason),
    });
  }
  const lb = s("large")?.baseline;
  const lr = s("large");
  t.push({
    name: "speed-up vs naive baseline, large",
    target: "≥ 10×",
    measured: lb ? `${lb.speedup}× (p50 ${ms(lb.oursColdP50SameQuestions)} vs ${(lb.e2e.p50 / 1000).toFixed(1)} s, ${lb.questions} questions)` : "not run",
    status: status(lb ? lb.speedup >= 10 : undefined),
  });
  t.push({
    name: "recall@3 vs baseline, large",
    target: "≥ baseline",
    measured: lb ? `${pct(lb.oursRecallAt3SameQuestions)} vs ${pct(lb.recallAt3)} (same ${lb.questions}); all ${lr!.questions}: ${pct(lr!.recallAt3)}` : "not run",
    status: status(lb ? lb.oursRecallAt3SameQuestions >= lb.recallAt3 : undefined),
  });
  const lcli = sizes.large?.cli;
  t.push({
    name: "peak RSS, large",
    target: "≤ 300 MB",
    measured: lr ? `${lr.peakRssMB} MB bench worker, ${lr.questions} q${lcli?.peakRssMB ? `; shipped CLI ${lcli.peakRssMB} MB per question` : ""}` : "not run",
    status: status(lr ? lr.peakRssMB <= 300 : undefined),
  });
  const act = activationProd?.totalMs ? activationProd : activation;
  t.push({
    name: "activation (load + activate, p50)",
    target: "≤ 50 ms",
    measured: act.totalMs ? `${ms(act.totalMs.p50)} ${act === activationProd ? "production bundle" : "dev bundle"}${activationProd?.totalMs && activation.totalMs ? ` (dev ${ms(activation.totalMs.p50)})` : ""}` : act.error ?? "n/a",
    status: status(act.totalMs ? act.totalMs.p50 <= 50 : undefined),
  });
  const bundleBytes = bundle.production?.extensionPlusWebview ?? bundle.dev.extensionPlusWebview;
  t.push({
    name: "extension bundle (extension.js + core.js + webview)",
    target: "≤ 2 MB",
    measured: bundleBytes ? `${(bundleBytes / MB).toFixed(2)} MB ${bundle.production ? "production" : "dev"}${bundle.vsix ? `; .vsix ${(bundle.vsix.bytes / 1024).toFixed(0)} KB` : ""}` : "n/a",
    status: status(bundleBytes ? bundleBytes <= 2 * MB : undefined),
  });
  return t;
}

export function historyTargets(report: Report): Target[] {
  const t: Target[] = [];
  const h = report.history;
  const status = (ok: boolean | undefined): Target["status"] => (ok === undefined ? "n/a" : ok ? "PASS" : "MISS");
  const ms = (n: number) => `${n.toFixed(n < 10 ? 1 : 0)} ms`;
  const present = Object.entries(h).filter(([, v]) => !v.skipped);
  const large = h.large;
  t.push({ name: "index build, 100,000 commits (large)", target: "≤ 30 s", measured: large?.build ? `${(large.build.ms / 1000).toFixed(1)} s (CLI wall ${(large.build.wallMs / 1000).toFixed(1)} s)` : "not run", status: status(large?.build ? large.build.ms <= 30_000 : undefined) });
  const inc = present.filter(([, v]) => v.incremental && !v.incremental.error);
  t.push({ name: "incremental update, 10 new commits", target: "≤ 300 ms", measured: inc.length ? inc.map(([k, v]) => `${k} ${ms(v.incremental!.ms)}`).join(", ") : "not run", status: status(inc.length ? inc.every(([, v]) => v.incremental!.ms <= 300 && v.incremental!.added === 10) : undefined) });
  const pipe = present.filter(([, v]) => v.pipeline);
  t.push({ name: "git stage p95 with the index, every size + real", target: "≤ 100 ms, never cut short", measured: pipe.length ? pipe.map(([k, v]) => `${k} ${ms(v.pipeline!.git.p95)}${v.pipeline!.cutShort ? ` (${v.pipeline!.cutShort} cut short)` : ""}`).join(", ") : "not run", status: status(pipe.length ? pipe.every(([, v]) => v.pipeline!.git.p95 <= 100 && v.pipeline!.cutShort === 0) : undefined) });
  for (const k of ["large", "real"]) {
    const c = h[k]?.cli;
    t.push({ name: `CLI cold p95 (index built, cache cleared), ${k}`, target: "≤ 1.0 s", measured: c?.cold.n ? ms(c.cold.p95) : h[k]?.skipped ? "skipped" : "not run", status: status(c?.cold.n ? c.cold.p95 <= 1000 : undefined) });
  }
  const hits = present.filter(([, v]) => v.cli?.hit.n);
  t.push({ name: "CLI turn-cache hit p95", target: "≤ 250 ms", measured: hits.length ? hits.map(([k, v]) => `${k} ${ms(v.cli!.hit.p95)}`).join(", ") : "not run", status: status(hits.length ? hits.every(([, v]) => v.cli!.hit.p95 <= 250) : undefined) });
  const rss: [string, number][] = [];
  for (const [k, v] of present) {
    if (v.build?.peakRssMB) rss.push([`${k} build`, v.build.peakRssMB]);
    if (v.cli?.peakRssMB) rss.push([`${k} CLI`, v.cli.peakRssMB]);
    if (v.pipeline?.peakRssMB) rss.push([`${k} worker`, v.pipeline.peakRssMB]);
  }
  const worst = rss.sort((a, b) => b[1] - a[1])[0];
  t.push({ name: "peak RSS everywhere (index build included)", target: "≤ 300 MB", measured: worst ? `max ${worst[1]} MB (${worst[0]})` : "not run", status: status(worst ? worst[1] <= 300 : undefined) });
  const rec = present.filter(([k, v]) => v.recall && k !== "real");
  t.push({ name: "history recall vs naive full scan (bench questions)", target: "≥ 0.95, ≥ 20× faster", measured: rec.length ? rec.map(([k, v]) => `${k} ${v.recall!.recall} at ${v.recall!.speedup}×`).join(", ") : "not run", status: status(rec.length ? rec.every(([, v]) => v.recall!.recall >= 0.95 && v.recall!.speedup >= 20) : undefined) });
  return t;
}
