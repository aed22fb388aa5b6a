// One question per fresh CLI process on a real repository (issue 20: p95 ≤ 1.0 s per question offline, one process
// at a time). The shipped CLI is run exactly as `npm run eval` runs it — `node dist/cli.js "<q>" --repo DIR --offline
// --json --no-cache --force`, no background indexing — over the eval's questions for JabRef/jabref at its pinned
// commit, with the history index and the corpus snapshot built beforehand (`deliberate index`), so each run is a
// warm question: start Node, load the bundle, read the question, load the snapshot, query the index, answer.
//
//   node --import tsx bench/question.ts [rounds]                      a fresh checkout and cache (builds the index)
//   node --import tsx bench/question.ts [rounds] --repo DIR --cache X  an existing checkout and XDG cache (the eval's)
//   … --root DIR                                                      another build's tree (its dist/ and eval/)
//   … --name apache/james-project                                     another eval repository's questions (and checkout)
// `npm run bench` runs JabRef/jabref and, for the large-repository case, apache/james-project (~10k tracked files,
// 20k in the work tree): the eval's slowest questions were there.
// With --repo the runs add --no-receipt: a checkout that is not the bench's own is never written to.
//
// Besides wall time it reports each process's own CPU time (user + system, all of its threads; git's child
// processes not included) from bench/rss-probe.cjs: on a shared machine wall time mostly measures the neighbours.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import { join, resolve } from "node:path";
import { ResidentServer } from "../eval/resident";
import { jabrefCheckout } from "./guard";
import { dist, printStandalone, round, type Dist } from "./stats";

export const QUESTION_TARGET_MS = 1000;

export interface QuestionBenchResult {
  repo: string;
  questions: number;
  rounds: number;
  wall: Dist;
  /** The CLI process's user CPU time. */
  userCpu: Dist;
  /** User + system CPU time. */
  cpu: Dist;
  /** Load average (1 min) before and after the timed runs. */
  load: [number, number];
  /**
   * The same questions through one resident `deliberate mcp` server (eval/resident.ts), after its warm-up: the
   * product as an agent or the editor runs it. Not run on a checkout that is not the bench's own (the server writes
   * receipts).
   */
  resident?: ResidentBench;
  error?: string;
}

export interface ResidentBench {
  /** Spawn to `initialize` answered, and spawn to the end of the warm-up (corpus and history index loaded). */
  startMs: number;
  warmMs?: number;
  wall: Dist;
  /** The server process's CPU time per question (user + system, all threads; git's children not included). */
  cpu?: Dist;
  error?: string;
}

interface ProbeOut {
  userCpuMs: number;
  systemCpuMs: number;
}

export const LARGE_QUESTION_REPO = "apache/james-project";

/** The eval's questions about one repository (every question file of the development and test halves). */
function evalQuestions(root: string, repo: string): string[] {
  const out: string[] = [];
  for (const file of ["questions.json", "questions-dev-open.json", "questions-test.json"]) {
    const path = join(root, "eval", file);
    if (!existsSync(path)) continue;
    const qs = (JSON.parse(readFileSync(path, "utf8")) as { questions: { repo: string; question: string }[] }).questions;
    out.push(...qs.filter((q) => q.repo === repo).map((q) => q.question));
  }
  return out;
}

export async function measureQuestions(root: string, log: (m: string) => void, rounds = 1, given?: { repo: string; cache: string }, repoName = "JabRef/jabref"): Promise<QuestionBenchResult> {
  const cli = join(root, "dist", "cli.js");
  if (!existsSync(cli)) throw new Error(`${cli} is missing; run npm run build`);
  const workRoot = mkdtempSync(join(os.tmpdir(), "delib-bench-question-"));
  try {
    let dir = given?.repo;
    if (!dir) {
      const checkout = jabrefCheckout(root, workRoot, repoName);
      if (typeof checkout !== "string") throw new Error(`no ${repoName} checkout (${checkout.skip})`);
      dir = checkout;
    }
    const questions = evalQuestions(root, repoName);
    if (!questions.length) throw new Error(`no ${repoName} questions in eval/`);
    const probeOut = join(workRoot, "probe.json");
    const env = {
      ...process.env,
      NO_COLOR: "1",
      XDG_CACHE_HOME: given?.cache ?? join(workRoot, "xdg-cache"),
      DELIBERATIVE_KEY_DIR: join(workRoot, "keys"),
      DELIBERATIVE_NO_BACKGROUND_INDEX: "1",
      DELIB_BENCH_RSS_OUT: probeOut,
    };
    if (!given) {
      log("question bench: building the history index and the corpus snapshot (deliberate index)");
      execFileSync(process.execPath, [cli, "index", "--repo", dir], { env, stdio: ["ignore", "ignore", "pipe"], timeout: 15 * 60_000 });
    }
    const run = (q: string) => {
      const t = performance.now();
      execFileSync(process.execPath, ["--require", join(__dirname, "rss-probe.cjs"), cli, q, "--repo", dir, "--offline", "--json", "--no-cache", "--force", "--git-budget-ms", "60000", ...(given ? ["--no-receipt"] : [])], {
        cwd: dir,
        env,
        encoding: "utf8",
        maxBuffer: 64 * 1024 * 1024,
        stdio: ["ignore", "pipe", "pipe"],
      });
      const ms = performance.now() - t;
      const probe = JSON.parse(readFileSync(probeOut, "utf8")) as ProbeOut;
      return { ms, user: probe.userCpuMs, cpu: probe.userCpuMs + probe.systemCpuMs };
    };
    log(`question bench: ${repoName}, ${questions.length} questions × ${rounds}; one warm-up run first`);
    run(questions[0]); // the code cache and the snapshot's first read, as any earlier question leaves them
    const loadBefore = os.loadavg()[0];
    const wall: number[] = [];
    const user: number[] = [];
    const cpu: number[] = [];
    for (let r = 0; r < rounds; r++) {
      for (const q of questions) {
        const x = run(q);
        wall.push(x.ms);
        user.push(x.user);
        cpu.push(x.cpu);
      }
    }
    const loadAfter = os.loadavg()[0];
    const resident = given ? undefined : await measureResident(cli, dir, env, questions, rounds, log).catch((err: Error) => ({ startMs: 0, wall: dist([]), error: err.message.split("\n")[0] }));
    return {
      repo: repoName,
      questions: questions.length,
      rounds,
      wall: dist(wall),
      userCpu: dist(user),
      cpu: dist(cpu),
      load: [round(loadBefore, 2), round(loadAfter, 2)],
      ...(resident ? { resident } : {}),
    };
  } finally {
    rmSync(workRoot, { recursive: true, force: true });
  }
}

/** A process's CPU time so far (user + system, ms) from /proc; undefined where there is none. */
function processCpuMs(pid: number | null): number | undefined {
  if (!pid) return undefined;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) * (1000 / 100);
  } catch {
    return undefined;
  }
}

/** The questions through one resident server, timed per call after its warm-up. */
async function measureResident(cli: string, dir: string, env: NodeJS.ProcessEnv, questions: string[], rounds: number, log: (m: string) => void): Promise<ResidentBench> {
  log(`question bench: the same questions through one resident deliberate mcp server`);
  const server = await ResidentServer.start({ cli, repoDir: dir, env, gitBudgetMs: "60000", timeoutMs: 120_000 });
  try {
    const wall: number[] = [];
    const cpu: number[] = [];
    for (let r = 0; r < rounds; r++) {
      for (const q of questions) {
        const before = processCpuMs(server.pid);
        const answer = await server.ask(q);
        if (answer.error) throw new Error(`resident: ${answer.error}`);
        const after = processCpuMs(server.pid);
        wall.push(answer.ms);
        if (before !== undefined && after !== undefined) cpu.push(after - before);
      }
    }
    return { startMs: round(server.startMs), ...(server.warmMs !== undefined ? { warmMs: round(server.warmMs) } : {}), wall: dist(wall), ...(cpu.length === wall.length ? { cpu: dist(cpu) } : {}) };
  } finally {
    await server.close();
  }
}

export function questionLines(q: QuestionBenchResult | undefined): string[] {
  if (!q) return [];
  if (q.error) return ["", `Per question, fresh CLI process: ${q.error}`];
  return [
    "",
    `Per question, fresh CLI process (${q.repo}, ${q.questions} eval questions × ${q.rounds}, offline, --no-cache, warm index and snapshot; load ${q.load[0]} → ${q.load[1]})`,
    `  wall p50 ${q.wall.p50.toFixed(0)} ms, p95 ${q.wall.p95.toFixed(0)} ms; CPU (user) p50 ${q.userCpu.p50.toFixed(0)} ms, p95 ${q.userCpu.p95.toFixed(0)} ms; CPU (user + system) p50 ${q.cpu.p50.toFixed(0)} ms, p95 ${q.cpu.p95.toFixed(0)} ms (n=${q.wall.n})`,
    ...residentLines(q.resident),
  ];
}

function residentLines(r: ResidentBench | undefined): string[] {
  if (!r) return [];
  if (r.error) return [`  resident MCP server: ${r.error}`];
  const cpu = r.cpu ? `; server CPU p50 ${r.cpu.p50.toFixed(0)} ms, p95 ${r.cpu.p95.toFixed(0)} ms` : "";
  return [
    `  resident MCP server (one server, the same questions after its warm-up): wall p50 ${r.wall.p50.toFixed(0)} ms, p95 ${r.wall.p95.toFixed(0)} ms${cpu} (n=${r.wall.n}); start-up ${r.startMs.toFixed(0)} ms, warm-up done at ${r.warmMs?.toFixed(0) ?? "–"} ms`,
  ];
}

/** The ≤ 1 s target for a resident server's questions (after its warm-up). */
export function residentTarget(q: QuestionBenchResult | undefined): { name: string; target: string; measured: string; status: "PASS" | "MISS" | "n/a" } {
  const name = `one question to a resident MCP server, ${q?.repo ?? "real repository"} (p95)`;
  const target = `≤ ${QUESTION_TARGET_MS} ms`;
  const r = q?.resident;
  if (!q || q.error || !r || r.error) return { name, target, measured: r?.error ?? q?.error ?? "not run", status: "n/a" };
  return {
    name,
    target,
    measured: `${r.wall.p95.toFixed(0)} ms wall${r.cpu ? `, ${r.cpu.p95.toFixed(0)} ms server CPU` : ""} (${q.repo}, load ${q.load[1]})`,
    status: r.wall.p95 <= QUESTION_TARGET_MS ? "PASS" : "MISS",
  };
}

export function questionTarget(q: QuestionBenchResult | undefined): { name: string; target: string; measured: string; status: "PASS" | "MISS" | "n/a" } {
  const name = `one question per fresh CLI process, ${q?.repo ?? "real repository"} (p95)`;
  const target = `≤ ${QUESTION_TARGET_MS} ms`;
  if (!q || q.error) return { name, target, measured: q?.error ?? "not run", status: "n/a" };
  return {
    name,
    target,
    measured: `${q.wall.p95.toFixed(0)} ms wall, ${q.cpu.p95.toFixed(0)} ms CPU (${q.repo}, load ${q.load[0]})`,
    status: q.wall.p95 <= QUESTION_TARGET_MS ? "PASS" : "MISS",
  };
}

if (require.main === module) {
  const args = process.argv.slice(2);
  const flag = (name: string) => {
    const i = args.indexOf(name);
    return i >= 0 ? args.splice(i, 2)[1] : undefined;
  };
  const repo = flag("--repo");
  const cache = flag("--cache");
  const name = flag("--name") ?? "JabRef/jabref";
  const root = resolve(flag("--root") ?? resolve(__dirname, ".."));
  const rounds = Number(args[0] ?? 1);
  printStandalone(measureQuestions(root, (m) => process.stderr.write(`${m}\n`), rounds, repo && cache ? { repo: resolve(repo), cache: resolve(cache) } : undefined, name), questionLines, (q) => [questionTarget(q), residentTarget(q)]);
}
