// Cold and warm answers, side by side (issue 20, "Deterministic answers"): for each chosen repository, every question
// runs cold (no corpus snapshot, no history index, an empty cache folder), then `deliberate index` builds both, then
// every question runs warm (and, with --warm-twice, warm again). Each answer key (eval/answerKey.ts: the payload
// without ids, times and durations, plus the ranked documents) is compared, and every difference is reported with
// the parts that differ and its first divergence. Stage statuses are compared too, but reported apart: they are
// not part of the answer key.
//
//   node --import tsx eval/determinism.ts --set dev [--repos N] [--only jabref,madr] [--id a,b] [--warm-twice] [--json FILE]
//   node --import tsx eval/determinism.ts --set dev --warm-only     index, then one warm pass: quality figures only
//
// Besides the comparison it prints the warm answers' recall@1 / recall@3 of the deciding record and how many are
// grounded in it (eval/metrics.ts), so a change to the history search can be weighed on dev (DETERMINISM_CLI runs
// another build, e.g. the one before the change). Per-question lines are printed for the dev set only.
//
// Needs `node scripts/build.mjs` (runs dist/cli.js) and the eval's checkouts (EVAL_WORKDIR, default /tmp/evalonce,
// made by `npm run eval`). It never writes there: each repository is cloned (sharing objects) under
// DETERMINISM_WORKDIR (default /tmp/determ-repos), and each repository gets an empty cache folder of its own under
// DETERMINISM_CACHE (default /tmp/determ-cache). One CLI process at a time.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync, copyFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { answerKey, firstDifference, stableJson } from "./answerKey";
import { firstRank, judgeGrounded, rankedDocs, type LooseEvidence, type LoosePayload } from "./metrics";
import { loadSets, SET_NAMES, type CorpusRepo, type SetName, type SetQuestion } from "./sets";

const EVAL_DIR = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(EVAL_DIR, "..");
const CLI = resolve(process.env.DETERMINISM_CLI || join(ROOT, "dist", "cli.js"));
const SOURCE_ROOT = resolve(process.env.EVAL_WORKDIR || "/tmp/evalonce");
const WORK_ROOT = resolve(process.env.DETERMINISM_WORKDIR || "/tmp/determ-repos");
const CACHE_ROOT = resolve(process.env.DETERMINISM_CACHE || "/tmp/determ-cache");
const GIT_BUDGET_MS = "60000";
const QUESTION_TIMEOUT_MS = 180_000;

interface Args {
  sets: SetName[];
  repos?: number;
  only?: string[];
  ids?: string[];
  warmTwice: boolean;
  warmOnly: boolean;
  json?: string;
}

function parseArgs(argv: string[]): Args {
  const args: Args = { sets: [], warmTwice: false, warmOnly: false };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split("=", 2) as [string, string | undefined];
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined) fail(`${flag} needs a value`);
      return v;
    };
    if (flag === "--set") {
      const v = value();
      if (!(SET_NAMES as readonly string[]).includes(v)) fail(`--set: one of ${SET_NAMES.join(", ")}`);
      args.sets.push(v as SetName);
    } else if (flag === "--repos") args.repos = Number(value());
    else if (flag === "--only") args.only = value().toLowerCase().split(",").filter(Boolean);
    else if (flag === "--id") args.ids = value().split(",").filter(Boolean);
    else if (flag === "--warm-twice") args.warmTwice = true;
    else if (flag === "--warm-only") args.warmOnly = true;
    else if (flag === "--json") args.json = value();
    else fail(`unknown argument ${argv[i]}`);
  }
  return args;
}

function fail(message: string): never {
  console.error(`determinism: ${message}`);
  console.error("usage: node --import tsx eval/determinism.ts [--set dev]... [--repos N] [--only SUB,...] [--id ID,...] [--warm-twice | --warm-only] [--json FILE]");
  process.exit(2);
}

/** A clone of the eval's checkout (objects shared, same sparse patterns), so receipts written here disturb no eval. */
function ownCheckout(repo: CorpusRepo): string {
  const name = `${repo.mirror}@${repo.sha.slice(0, 12)}`;
  const source = join(SOURCE_ROOT, name);
  if (!existsSync(join(source, ".git"))) throw new Error(`no eval checkout at ${source}: run the eval once (npm run eval -- --once --set ${repo.set})`);
  const dir = join(WORK_ROOT, name);
  const ready = join(dir, ".git", "determinism-ready");
  if (existsSync(ready)) return dir;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(WORK_ROOT, { recursive: true });
  execFileSync("git", ["clone", "--quiet", "--shared", "--no-checkout", source, dir]);
  const sparse = join(source, ".git", "info", "sparse-checkout");
  if (existsSync(sparse)) {
    execFileSync("git", ["-C", dir, "config", "core.sparseCheckout", "true"]);
    mkdirSync(join(dir, ".git", "info"), { recursive: true });
    copyFileSync(sparse, join(dir, ".git", "info", "sparse-checkout"));
  }
  execFileSync("git", ["-C", dir, "-c", "advice.detachedHead=false", "checkout", "--quiet", repo.sha]);
  writeFileSync(ready, "");
  return dir;
}

function cliEnv(cacheDir: string, cold: boolean): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NO_COLOR: "1",
    XDG_CACHE_HOME: cacheDir,
    DELIBERATIVE_NO_BACKGROUND_INDEX: "1",
    ...(cold ? { DELIBERATIVE_HISTORY_INDEX: "off", DELIBERATIVE_CORPUS_CACHE: "off" } : {}),
  };
}

interface Answer {
  key?: string;
  payload?: LoosePayload & Record<string, unknown>;
  docs: string[];
  evidenceIds: string[];
  stages: Record<string, { status?: string; reason?: string; truncated?: boolean }>;
  error?: string;
  ms: number;
}

function ask(q: SetQuestion, dir: string, cacheDir: string, cold: boolean): Answer {
  const started = Date.now();
  const argv = [CLI, q.question, "--repo", dir, "--offline", "--json", "--no-cache", "--force", "--git-budget-ms", GIT_BUDGET_MS];
  const run = spawnSync(process.execPath, argv, { cwd: dir, env: cliEnv(cacheDir, cold), encoding: "utf8", timeout: QUESTION_TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024 });
  const ms = Date.now() - started;
  const none = { docs: [], evidenceIds: [], stages: {}, ms };
  if (run.status !== 0) return { ...none, error: `exit ${run.status ?? run.signal}: ${(run.stderr || run.stdout).trim().split("\n").pop()}` };
  try {
    const out = JSON.parse(run.stdout) as LoosePayload & { receipt_ref?: string };
    const receiptDir = join(dir, ".deliberations");
    const receipt = JSON.parse(readFileSync(join(receiptDir, `${out.receipt_ref}.json`), "utf8")) as { payload: Answer["payload"]; evidence_ref?: string; stages?: Answer["stages"] };
    const raw = JSON.parse(readFileSync(join(receiptDir, "evidence", `${receipt.evidence_ref}.json`), "utf8")) as unknown;
    const evidence = (Array.isArray(raw) ? raw : ((raw as { items?: unknown[] }).items ?? [])) as (LooseEvidence & { id?: string })[];
    const docs = rankedDocs(evidence);
    const payload = receipt.payload ?? out;
    return { key: answerKey(payload, docs), payload, docs, evidenceIds: evidence.map((e) => e.id ?? "?"), stages: receipt.stages ?? {}, ms };
  } catch (err) {
    return { ...none, error: `unreadable answer: ${(err as Error).message}` };
  }
}

function indexRepo(dir: string, cacheDir: string): number {
  const started = Date.now();
  execFileSync(process.execPath, [CLI, "index", "--repo", dir], { env: cliEnv(cacheDir, false), stdio: ["ignore", "ignore", "pipe"], timeout: 30 * 60_000 });
  return Date.now() - started;
}

/** Which parts of two answers differ, from the coarsest (what a user acts on) to the finest. */
function differingParts(a: Answer, b: Answer): string[] {
  const parts: string[] = [];
  const pa = a.payload ?? {};
  const pb = b.payload ?? {};
  const same = (x: unknown, y: unknown) => stableJson(x) === stableJson(y);
  const rec = (p: typeof pa) => p.recommendation as { option_id?: string; confidence?: string } | undefined;
  if (rec(pa)?.option_id !== rec(pb)?.option_id) parts.push("recommendation");
  else if (rec(pa)?.confidence !== rec(pb)?.confidence) parts.push("confidence");
  else if (!same(pa.recommendation, pb.recommendation)) parts.push("rationale");
  const titles = (p: typeof pa) => (p.options ?? []).map((o) => o.title);
  if (!same(titles(pa), titles(pb))) parts.push("options");
  else if (!same(pa.options, pb.options)) parts.push("option summaries/supports");
  if (!same(a.docs, b.docs)) parts.push(same([...a.docs].sort(), [...b.docs].sort()) ? "ranking (order)" : "ranked documents (set)");
  if (!same(a.evidenceIds, b.evidenceIds)) parts.push(same([...a.evidenceIds].sort(), [...b.evidenceIds].sort()) ? "evidence (order)" : "evidence (set)");
  if (!same(pa.citations, pb.citations)) parts.push("citations");
  if (!same(pa.coverage, pb.coverage)) parts.push("coverage");
  if (!same(pa.objections, pb.objections)) parts.push("objections");
  const rest = (p: typeof pa) => Object.fromEntries(Object.entries(p).filter(([k]) => !["recommendation", "options", "citations", "coverage", "objections"].includes(k)));
  if (!same(rest(pa), rest(pb))) parts.push("other payload");
  return parts;
}

function stageDifferences(a: Answer, b: Answer): string[] {
  const out: string[] = [];
  for (const name of [...new Set([...Object.keys(a.stages), ...Object.keys(b.stages)])].sort()) {
    const x = a.stages[name];
    const y = b.stages[name];
    if (x?.status !== y?.status) out.push(`${name}: ${x?.status ?? "-"} → ${y?.status ?? "-"}`);
    else if ((x?.reason ?? "") !== (y?.reason ?? "")) out.push(`${name}: reason "${(x?.reason ?? "").slice(0, 90)}" → "${(y?.reason ?? "").slice(0, 90)}"`);
  }
  return out;
}

interface Quality {
  gold_rank?: number;
  grounded?: boolean;
}

function quality(q: SetQuestion, a: Answer): Quality {
  if (!q.gold.length || !a.payload) return {};
  return { gold_rank: firstRank(a.docs, q.gold), grounded: judgeGrounded(q, a.payload).grounded };
}

interface Row {
  id: string;
  repo: string;
  set: SetName;
  warm: Quality;
  identical: boolean;
  parts: string[];
  stages: string[];
  first?: string;
  warmTwice?: { identical: boolean; parts: string[]; first?: string };
  truncated: string[];
  ms: { cold: number; warm: number };
}

function main(): void {
  const args = parseArgs(process.argv.slice(2));
  if (!existsSync(CLI)) fail(`${CLI} is missing: run node scripts/build.mjs`);
  const sets = loadSets(EVAL_DIR, ROOT);
  const chosenSets = args.sets.length ? args.sets : (["dev"] as SetName[]);
  let repos = sets.repos.filter((r) => chosenSets.includes(r.set) && (!args.only || args.only.some((o) => r.name.toLowerCase().includes(o))));
  if (args.ids) repos = repos.filter((r) => sets.questions.some((q) => q.repo === r.name && args.ids!.includes(q.id)));
  if (args.repos) repos = repos.slice(0, args.repos);
  const rows: Row[] = [];
  for (const repo of repos) {
    const questions = sets.questions.filter((q) => q.repo === repo.name && (!args.ids || args.ids.includes(q.id)));
    if (!questions.length) continue;
    const dir = ownCheckout(repo);
    const cacheDir = join(CACHE_ROOT, `${repo.mirror}@${repo.sha.slice(0, 12)}`);
    rmSync(cacheDir, { recursive: true, force: true });
    mkdirSync(cacheDir, { recursive: true });
    rmSync(join(dir, ".deliberations"), { recursive: true, force: true });
    const cold = args.warmOnly ? undefined : questions.map((q) => ask(q, dir, cacheDir, true));
    const indexMs = indexRepo(dir, cacheDir);
    const warm = questions.map((q) => ask(q, dir, cacheDir, false));
    if (!cold) {
      questions.forEach((q, i) => rows.push({ id: q.id, repo: repo.name, set: q.set, warm: quality(q, warm[i]), identical: false, parts: [], stages: [], truncated: [], ms: { cold: 0, warm: warm[i].ms } }));
      console.log(`== ${repo.name}: warm pass only (index built in ${indexMs} ms)`);
      continue;
    }
    const again = args.warmTwice ? questions.map((q) => ask(q, dir, cacheDir, false)) : undefined;
    let same = 0;
    questions.forEach((q, i) => {
      const a = cold[i];
      const b = warm[i];
      const truncated = [a, b].flatMap((x) => Object.entries(x.stages).filter(([, s]) => s?.truncated).map(([n]) => n));
      const row: Row = {
        id: q.id,
        repo: repo.name,
        set: q.set,
        warm: quality(q, b),
        identical: a.key !== undefined && a.key === b.key,
        parts: a.key === undefined || b.key === undefined ? [`error: ${a.error ?? b.error}`] : a.key === b.key ? [] : differingParts(a, b),
        stages: stageDifferences(a, b),
        truncated: [...new Set(truncated)],
        ms: { cold: a.ms, warm: b.ms },
      };
      if (!row.identical && a.key && b.key) row.first = firstDifference(a.key, b.key);
      if (again) {
        const c = again[i];
        const ok = b.key !== undefined && b.key === c.key;
        row.warmTwice = { identical: ok, parts: ok || !b.key || !c.key ? [] : differingParts(b, c), ...(!ok && b.key && c.key ? { first: firstDifference(b.key, c.key, ["warm", "warm again"]) } : {}) };
      }
      if (row.identical) same++;
      rows.push(row);
      if (q.set !== "dev") return; // held-out answers stay unread: totals only
      const mark = row.identical ? "same" : "DIFF";
      console.log(`${mark} ${q.id}${row.parts.length ? `: ${row.parts.join(", ")}` : ""}${row.warmTwice && !row.warmTwice.identical ? ` | warm twice: ${row.warmTwice.parts.join(", ")}` : ""}`);
      if (row.first) console.log(`     ${row.first.replace(/\n/g, " ")}`);
      for (const s of row.stages) console.log(`     stage ${s}`);
      if (row.truncated.length) console.log(`     truncated: ${row.truncated.join(", ")}`);
    });
    console.log(`== ${repo.name}: ${same}/${questions.length} identical cold vs warm (index built in ${indexMs} ms)`);
  }
  const scored = rows.filter((r) => r.warm.grounded !== undefined);
  const within = (k: number) => scored.filter((r) => r.warm.gold_rank !== undefined && r.warm.gold_rank <= k).length;
  console.log(`\nwarm answers, ${scored.length} questions with a deciding record: recall@1 ${within(1)}, recall@3 ${within(3)}, grounded ${scored.filter((r) => r.warm.grounded).length}`);
  if (args.warmOnly) {
    if (args.json) writeFileSync(args.json, JSON.stringify({ rows }, null, 2) + "\n");
    return;
  }
  const identical = rows.filter((r) => r.identical).length;
  const counts: Record<string, number> = {};
  for (const r of rows) for (const p of r.parts) counts[p.startsWith("error") ? "error" : p] = (counts[p.startsWith("error") ? "error" : p] ?? 0) + 1;
  console.log(`\nidentical cold vs warm: ${identical}/${rows.length}`);
  if (args.warmTwice) console.log(`identical warm vs warm: ${rows.filter((r) => r.warmTwice?.identical).length}/${rows.length}`);
  console.log(`questions with a stage status that differs: ${rows.filter((r) => r.stages.length).length}; with a truncated stage: ${rows.filter((r) => r.truncated.length).length}`);
  for (const [part, n] of Object.entries(counts).sort((a, b) => b[1] - a[1])) console.log(`  differs in ${part}: ${n}`);
  if (args.json) writeFileSync(args.json, JSON.stringify({ identical, total: rows.length, counts, rows }, null, 2) + "\n");
}

main();
