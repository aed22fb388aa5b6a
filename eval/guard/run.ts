// The decision guard's seeded-change eval (issue 22): real patches applied to the corpus's repositories at their
// pinned commits, each checked with the built CLI (`deliberate check --json` on the working tree), scored against
// what the change was seeded to do. `npm run eval` runs it after the question eval (eval/run.ts imports runGuardEval);
// it also runs on its own:
//
//   MIRRORS=/work/.mirror node --import tsx eval/guard/run.ts [--set dev|dev2|…|dev18|held-out] [--verbose]
//
// A change is flagged when the guard reports a finding of severity high or med (low findings are hints). A true
// positive is a flagged change whose findings include the expected kind against the expected decision file.
// Precision = TP / flagged changes; recall = TP / changes seeded to conflict. `--verbose` prints the dev sets' changes only;
// held-out changes print their totals, never their per-change results.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { corpusRepos, git, sparseCheckout } from "./checkout";

interface Edit {
  file: string;
  /** Lines to add after the first line containing `after` (else at the end; a missing file is created). */
  add?: string[];
  after?: string;
  /** A line (substring) to remove. */
  remove?: string;
  /** Consecutive lines to remove: the first run where line k contains remove_block[k] (a whole manifest entry). */
  remove_block?: string[];
}

interface SeededChange {
  id: string;
  repo: string;
  set: "dev" | "dev2" | "dev3" | "dev4" | "dev5" | "dev6" | "dev7" | "dev8" | "dev9" | "dev10" | "dev11" | "dev12" | "dev13" | "dev14" | "dev15" | "dev16" | "dev17" | "dev18" | "held-out";
  what: string;
  edits: Edit[];
  /** The conflict the change was seeded with, or null for an innocent change. */
  expect: { kind: string; decision: string } | null;
}

interface Finding {
  kind: string;
  severity: string;
  file: string;
  line: number;
  decision: { path: string };
  matched: { text: string };
}

const ROOT = join(__dirname, "../..");
const CLI = join(ROOT, "dist/cli.js");

function applyEdits(dir: string, edits: Edit[]): void {
  for (const e of edits) {
    const abs = join(dir, e.file);
    mkdirSync(dirname(abs), { recursive: true });
    const lines = existsSync(abs) ? readFileSync(abs, "utf8").split("\n") : [];
    if (e.remove !== undefined) {
      const i = lines.findIndex((l) => l.includes(e.remove!));
      if (i < 0) throw new Error(`${e.file}: no line contains ${JSON.stringify(e.remove)}`);
      lines.splice(i, 1);
    }
    if (e.remove_block) {
      const block = e.remove_block;
      const i = lines.findIndex((_, at) => block.every((part, k) => lines[at + k]?.includes(part)));
      if (i < 0) throw new Error(`${e.file}: no run of lines contains ${JSON.stringify(block)}`);
      lines.splice(i, block.length);
    }
    if (e.add) {
      const at = e.after !== undefined ? lines.findIndex((l) => l.includes(e.after!)) : -1;
      if (e.after !== undefined && at < 0) throw new Error(`${e.file}: no line contains ${JSON.stringify(e.after)}`);
      if (at >= 0) lines.splice(at + 1, 0, ...e.add);
      else {
        if (lines.length && lines[lines.length - 1] === "") lines.pop();
        lines.push(...e.add, "");
      }
    }
    writeFileSync(abs, lines.join("\n"));
  }
}

function check(cli: string, dir: string, env: NodeJS.ProcessEnv): { findings: Finding[]; ms: number } {
  const started = performance.now();
  const out = execFileSync(process.execPath, [cli, "check", "--repo", dir, "--json", "--fail-on", "never"], { encoding: "utf8", env, maxBuffer: 64 * 1024 * 1024 });
  return { findings: (JSON.parse(out) as { findings: Finding[] }).findings, ms: performance.now() - started };
}

export interface GuardSetSummary {
  changes: number;
  seeded_conflicts: number;
  flagged: number;
  tp: number;
  fp: number;
  fn: number;
  precision: number;
  recall: number;
  check_ms_p95: number;
  /** Seeded conflicts and those found, per seeded kind (counts only, so held-out may show it too). */
  by_expected_kind: Record<string, { seeded: number; found: number }>;
  /** Changes flagged (high/med) per finding kind, split by whether the change was seeded to conflict. */
  flagged_by_finding_kind: Record<string, { conflicts: number; innocent: number }>;
}

export interface GuardEvalOptions {
  sets?: string[];
  /** Per-change lines for the dev sets (held-out changes never print theirs). */
  verbose?: boolean;
  /** The built CLI to run (default dist/cli.js; `npm run eval` passes its private copy). */
  cli?: string;
  /** Where each result line goes (default console.log). */
  log?: (line: string) => void;
}

/** Runs the seeded changes of the chosen sets and returns the per-set summary (what results.json holds). */
export function runGuardEval(mirrors: string, opts: GuardEvalOptions = {}): Record<string, GuardSetSummary> {
  const sets = opts.sets ?? ["dev", "dev2", "dev3", "dev4", "dev5", "dev6", "dev7", "dev8", "dev9", "dev10", "dev11", "dev12", "dev13", "dev14", "dev15", "dev16", "dev17", "dev18", "held-out"];
  const log = opts.log ?? ((line: string) => console.log(line));
  const cli = opts.cli ?? CLI;
  const workRoot = process.env.GUARD_EVAL_WORKDIR ?? join(tmpdir(), "guard-eval");
  const env = { ...process.env, XDG_CACHE_HOME: join(workRoot, "cache"), DELIBERATIVE_KEY_DIR: join(workRoot, "keys") };
  const changes = (JSON.parse(readFileSync(join(__dirname, "changes.json"), "utf8")) as { changes: SeededChange[] }).changes.filter((c) => sets.includes(c.set));
  const repos = corpusRepos();
  const results: Record<string, { tp: number; fp: number; fn: number; flagged: number; expected: number; changes: number; ms: number[]; byExpected: Record<string, { seeded: number; found: number }>; byFinding: Record<string, { conflicts: number; innocent: number }> }> = {};
  const byRepo = new Map<string, SeededChange[]>();
  for (const c of changes) byRepo.set(c.repo, [...(byRepo.get(c.repo) ?? []), c]);
  for (const [name, list] of byRepo) {
    const repo = repos.find((r) => r.name === name);
    if (!repo) throw new Error(`${name} is not in the eval corpus`);
    const files = [...new Set(list.flatMap((c) => c.edits.map((e) => e.file)))];
    const dir = sparseCheckout(mirrors, workRoot, repo, files, "seeded");
    for (const c of list) {
      git(["-C", dir, "checkout", "--quiet", "--", "."]);
      git(["-C", dir, "clean", "-fdq"]);
      applyEdits(dir, c.edits);
      const { findings, ms } = check(cli, dir, env);
      const strong = findings.filter((f) => f.severity === "high" || f.severity === "med");
      // A touches-decided-area hint is low by design: it counts when reported at all.
      const counted = c.expect?.kind === "touches-decided-area" ? findings : strong;
      const hit = !!c.expect && counted.some((f) => f.kind === c.expect!.kind && f.decision.path === c.expect!.decision);
      const r = (results[c.set] ??= { tp: 0, fp: 0, fn: 0, flagged: 0, expected: 0, changes: 0, ms: [], byExpected: {}, byFinding: {} });
      if (c.expect) {
        const k = (r.byExpected[c.expect.kind] ??= { seeded: 0, found: 0 });
        k.seeded++;
        if (hit) k.found++;
      }
      for (const kind of new Set(strong.map((f) => f.kind))) {
        const k = (r.byFinding[kind] ??= { conflicts: 0, innocent: 0 });
        if (c.expect) k.conflicts++;
        else k.innocent++;
      }
      r.changes++;
      r.ms.push(ms);
      if (c.expect) r.expected++;
      if (strong.length) r.flagged++;
      if (hit) r.tp++;
      else {
        if (strong.length) r.fp++;
        if (c.expect) r.fn++;
      }
      if (opts.verbose && c.set !== "held-out") {
        const mark = hit ? "TP" : c.expect ? (strong.length ? "FP+FN" : "FN") : strong.length ? "FP" : "TN";
        log(`${mark.padEnd(6)} ${c.id.padEnd(14)} ${c.what}`);
        for (const f of findings) log(`         ${f.severity} ${f.kind} ${f.file}:${f.line} "${f.matched.text}" ← ${f.decision.path}`);
      }
    }
  }
  const summary: Record<string, GuardSetSummary> = {};
  for (const [set, r] of Object.entries(results)) {
    const precision = r.flagged ? r.tp / (r.tp + r.fp) : 1;
    const recall = r.expected ? r.tp / r.expected : 1;
    const sorted = [...r.ms].sort((a, b) => a - b);
    const p95 = sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)];
    summary[set] = { changes: r.changes, seeded_conflicts: r.expected, flagged: r.flagged, tp: r.tp, fp: r.fp, fn: r.fn, precision: Number(precision.toFixed(3)), recall: Number(recall.toFixed(3)), check_ms_p95: Math.round(p95), by_expected_kind: sortedRecord(r.byExpected), flagged_by_finding_kind: sortedRecord(r.byFinding) };
    const expectedLine = Object.entries(sortedRecord(r.byExpected)).map(([k, v]) => `${k} ${v.found}/${v.seeded}`).join(", ");
    const findingLine = Object.entries(sortedRecord(r.byFinding)).map(([k, v]) => `${k} ${v.conflicts} conflicts + ${v.innocent} innocent`).join(", ");
    log(`${set.padEnd(9)} ${r.changes} changes (${r.expected} seeded conflicts): precision ${precision.toFixed(2)}, recall ${recall.toFixed(2)} (tp ${r.tp}, fp ${r.fp}, fn ${r.fn}); check p95 ${Math.round(p95)} ms`);
    log(`          found by seeded kind: ${expectedLine || "none"}`);
    log(`          flagged by finding kind: ${findingLine || "none"}`);
  }
  return summary;
}

function sortedRecord<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
}

/** Writes the summary to eval/guard/results.json. */
export function writeGuardResults(summary: Record<string, GuardSetSummary>): void {
  writeFileSync(join(__dirname, "results.json"), `${JSON.stringify(summary, null, 2)}\n`);
}

function main(): void {
  const mirrors = process.env.MIRRORS;
  if (!mirrors) {
    console.log("guard eval: MIRRORS not set; skipping (e.g. MIRRORS=/work/.mirror)");
    return;
  }
  const args = process.argv.slice(2);
  const sets = args.includes("--set") ? [args[args.indexOf("--set") + 1]] : ["dev", "dev2", "dev3", "dev4", "dev5", "dev6", "dev7", "dev8", "dev9", "dev10", "dev11", "dev12", "dev13", "dev14", "dev15", "dev16", "dev17", "dev18", "held-out"];
  const summary = runGuardEval(mirrors, { sets, verbose: args.includes("--verbose") });
  if (!args.includes("--no-write")) writeGuardResults(summary);
}

// Run directly (`node --import tsx eval/guard/run.ts`), not when eval/run.ts imports it.
if (require.main === module) main();
