// Decision sources on the corpus (issue 24): for corpus repositories, recall@1 and recall@3 of their gold
// questions with the records inside the repository, and with the records moved into a separate repository that is
// configured as a decision source (a file:// git URL with the records' folder as its path). The two should match:
// a record ranks the same wherever it lives.
//
//   MIRRORS=/work/.mirror [EVAL_WORKDIR=…] nice -n 10 node --import tsx eval/sources.ts [--repo adr/madr ...] [--corpus] [--json]
//
// --corpus runs CORPUS_REPOS: the organisation design repositories (nats-io/nats-architecture-and-design,
// edgexfoundry/edgex-docs, both held out in the test set) and three development repositories. A held-out
// repository reports only its totals: its per-question rows are never printed (eval/README.md).
//
// Runs in one process (the pipeline called directly, rules only, offline) and writes only under a temp folder.
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { deliberate } from "../src/core/pipeline";
import { generateSigningKey } from "../src/core/receipts/signing";
import { firstRank, rankedDocs, type EvalQuestion, type LooseEvidence } from "./metrics";
import { loadSets, type CorpusRepo, type SetName, type SetQuestion } from "./sets";

const GIT_ENV = { ...process.env, GIT_AUTHOR_NAME: "eval", GIT_AUTHOR_EMAIL: "eval@example.test", GIT_COMMITTER_NAME: "eval", GIT_COMMITTER_EMAIL: "eval@example.test", GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" };

function git(args: string[], cwd?: string): string {
  return execFileSync("git", args, { cwd, env: GIT_ENV, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], maxBuffer: 256 * 1024 * 1024 });
}

/** The eval's own checkout of the repository (EVAL_WORKDIR, made by `npm run eval`), when it is there and ready. */
function evalCheckout(repo: CorpusRepo): string | undefined {
  const root = process.env.EVAL_WORKDIR;
  if (!root) return undefined;
  const dir = join(root, `${repo.mirror}@${repo.sha.slice(0, 12)}`);
  if (!existsSync(join(dir, ".git", "deliberative-search-eval-ready"))) return undefined;
  try {
    return git(["rev-parse", "HEAD"], dir).trim() === repo.sha ? dir : undefined;
  } catch {
    return undefined;
  }
}

/** Checks out `sha` in a fresh no-checkout clone, skipping the blobs the mirror lacks (as eval/run.ts does). */
function checkoutSkippingMissing(dir: string, sha: string): void {
  const tree = git(["ls-tree", "-r", "-z", sha], dir).split("\0").filter(Boolean);
  const blobs = tree.flatMap((entry) => {
    const m = /^\d+ blob ([0-9a-f]+)\t([\s\S]+)$/.exec(entry);
    return m ? [{ id: m[1]!, path: m[2]! }] : [];
  });
  const check = execFileSync("git", ["cat-file", "--batch-check"], { cwd: dir, env: GIT_ENV, input: blobs.map((b) => b.id).join("\n") + "\n", encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
  const missingIds = new Set(check.split("\n").filter((l) => / missing$/.test(l)).map((l) => l.split(" ")[0]));
  const missing = blobs.filter((b) => missingIds.has(b.id)).map((b) => b.path);
  if (missing.length) {
    git(["config", "core.sparseCheckout", "true"], dir);
    writeFileSync(join(dir, ".git", "info", "sparse-checkout"), ["/*", ...missing.map((p) => `!/${p.replace(/[\\*?[\]!#]/g, (c) => `\\${c}`)}`)].join("\n") + "\n");
  }
  git(["checkout", "--quiet", "--detach", sha], dir);
}

/** The repository at its pinned commit; then the same tree without its records, and the records on their own. */
function layouts(mirrors: string, repo: CorpusRepo, work: string): { inside: string; service: string; architecture: string } {
  const mirror = join(mirrors, repo.mirror, "repo");
  let inside = evalCheckout(repo);
  if (!inside) {
    inside = join(work, "inside");
    git(["clone", "--quiet", "--shared", "--no-checkout", mirror, inside]);
    checkoutSkippingMissing(inside, repo.sha);
  }
  // The service keeps the whole history (the git expert reads it), minus the records, removed in one last commit.
  const service = join(work, "service");
  git(["clone", "--quiet", "--shared", "--no-checkout", mirror, service]);
  checkoutSkippingMissing(service, repo.sha);
  git(["rm", "-r", "-q", "--", repo.adr_dir], service);
  // --missing-ok: the tree may name the blobs the mirror lacks (left out of the working tree above).
  const tree = git(["write-tree", "--missing-ok"], service).trim();
  const moved = git(["commit-tree", tree, "-p", "HEAD", "-m", "records moved to the architecture repository"], service).trim();
  git(["update-ref", "HEAD", moved], service);
  const architecture = join(work, "architecture");
  mkdirSync(architecture, { recursive: true });
  cpSync(join(inside, repo.adr_dir), join(architecture, repo.adr_dir), { recursive: true });
  git(["init", "-q", "-b", "main"], architecture);
  git(["add", "-A"], architecture);
  git(["commit", "-q", "-m", "records"], architecture);
  return { inside, service, architecture };
}

async function rankOf(question: EvalQuestion, repo: string, sources: string[] | undefined, cacheRoot: string, key: ReturnType<typeof generateSigningKey>): Promise<{ rank?: number; ms: number; reason?: string }> {
  const started = performance.now();
  const out = await deliberate({
    repo,
    question: question.question,
    force: true,
    writeReceipt: false,
    useCache: false,
    learning: false,
    signingKey: key,
    config: { offline: true, git: { maxMs: 60_000, pickaxeCommits: 2000, maxResults: 20 } },
    ...(sources ? { sources: { specs: sources, cacheRoot, budgetMs: 60_000 } } : {}),
  });
  const ms = performance.now() - started;
  if (out.kind !== "deliberated") return { ms, reason: "abstained" };
  // A source's path is `architecture:<path>`: the same record as `<path>` inside the repository.
  const evidence = out.evidence.map((e) => (e.decision_source ? { ...e, path_or_url: e.path_or_url.replace(/^[^:]+:/, ""), adr: e.adr ? { ...e.adr, path: e.adr.path.replace(/^[^:]+:/, "") } : e.adr } : e));
  const stage = Object.entries(out.receipt.stages).find(([k]) => k.startsWith("internal:source:"))?.[1];
  return { rank: firstRank(rankedDocs(evidence as LooseEvidence[]), question.gold), ms, ...(stage && stage.status !== "ok" ? { reason: stage.reason } : {}) };
}

/** The organisation design repositories (records that govern other repositories) plus three development ones. */
export const CORPUS_REPOS = ["nats-io/nats-architecture-and-design", "edgexfoundry/edgex-docs", "adr/madr", "JabRef/jabref", "eclipse-edc/Connector"];

interface Row {
  id: string;
  inside?: number;
  source?: number;
  inside_ms: number;
  source_ms: number;
  reason?: string;
}

interface RepoSummary {
  repo: string;
  set: SetName;
  questions: number;
  inside: { recall_at_1: number; recall_at_3: number };
  source: { recall_at_1: number; recall_at_3: number };
  /** Questions whose first gold rank differs; ids only for the development set (held-out sets stay unread). */
  differing: number;
  differing_ids?: string[];
}

function recallOf(rows: Row[], col: "inside" | "source") {
  const at = (k: number) => rows.filter((r) => r[col] !== undefined && r[col]! <= k).length / Math.max(1, rows.length);
  return { recall_at_1: at(1), recall_at_3: at(3) };
}

async function measureRepo(mirrors: string, repo: CorpusRepo, questions: SetQuestion[], key: ReturnType<typeof generateSigningKey>): Promise<{ summary: RepoSummary; rows: Row[] }> {
  const work = mkdtempSync(join(tmpdir(), "delib-eval-sources-"));
  try {
    const { inside, service, architecture } = layouts(mirrors, repo, work);
    const source = `architecture=file://${architecture}#:${repo.adr_dir}`;
    const cacheRoot = join(work, "cache");
    const rows: Row[] = [];
    for (const q of questions) {
      const a = await rankOf(q, inside, undefined, cacheRoot, key);
      const b = await rankOf(q, service, [source], cacheRoot, key);
      rows.push({ id: q.id, inside: a.rank, source: b.rank, inside_ms: Math.round(a.ms), source_ms: Math.round(b.ms), ...(b.reason ? { reason: b.reason } : {}) });
    }
    const differing = rows.filter((r) => r.inside !== r.source);
    const summary: RepoSummary = {
      repo: repo.name,
      set: repo.set,
      questions: rows.length,
      inside: recallOf(rows, "inside"),
      source: recallOf(rows, "source"),
      differing: differing.length,
      ...(repo.set === "dev" ? { differing_ids: differing.map((r) => `${r.id}: inside ${r.inside ?? "-"} vs source ${r.source ?? "-"}`) } : {}),
    };
    return { summary, rows: repo.set === "dev" ? rows : [] };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

const pct = (x: number) => x.toFixed(2);

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { repo: { type: "string", multiple: true }, corpus: { type: "boolean" }, json: { type: "boolean" } } });
  const mirrors = process.env.MIRRORS ?? "/work/.mirror";
  const wanted = values.corpus ? CORPUS_REPOS : (values.repo?.length ? values.repo : ["adr/madr"]);
  const sets = loadSets(__dirname, join(__dirname, ".."));
  const key = generateSigningKey();
  const summaries: RepoSummary[] = [];
  const allRows: Row[] = [];
  for (const name of wanted) {
    const repo = sets.repos.find((r) => r.name === name && r.set !== "independent");
    if (!repo) throw new Error(`no corpus repository ${name} in eval/corpus.json or eval/corpus-test.json`);
    const questions = sets.questions.filter((q) => q.repo === repo.name && q.set === repo.set && q.gold.length);
    const { summary, rows } = await measureRepo(mirrors, repo, questions, key);
    summaries.push(summary);
    allRows.push(...rows);
    if (!values.json) {
      for (const r of rows) console.log(`${r.id.padEnd(12)} inside ${String(r.inside ?? "-").padStart(2)} (${r.inside_ms} ms)   source ${String(r.source ?? "-").padStart(2)} (${r.source_ms} ms)${r.reason ? `   ${r.reason}` : ""}`);
      console.log(line(summary));
      if (summary.differing_ids?.length) console.log(`  differing: ${summary.differing_ids.join("; ")}`);
    }
  }
  const total = totalOf(summaries);
  if (values.json) {
    process.stdout.write(`${JSON.stringify({ summaries, total, rows: allRows }, null, 2)}\n`);
    return;
  }
  if (summaries.length > 1) console.log(line(total));
}

/** All repositories together: each repository's recall weighted by its question count (held-out rows are not kept). */
function totalOf(summaries: RepoSummary[]): RepoSummary {
  const n = summaries.reduce((a, s) => a + s.questions, 0);
  const weighted = (f: (s: RepoSummary) => number) => summaries.reduce((a, s) => a + f(s) * s.questions, 0) / Math.max(1, n);
  return {
    repo: "total",
    set: "dev",
    questions: n,
    inside: { recall_at_1: weighted((s) => s.inside.recall_at_1), recall_at_3: weighted((s) => s.inside.recall_at_3) },
    source: { recall_at_1: weighted((s) => s.source.recall_at_1), recall_at_3: weighted((s) => s.source.recall_at_3) },
    differing: summaries.reduce((a, s) => a + s.differing, 0),
  };
}

function line(s: RepoSummary): string {
  const set = s.repo === "total" ? "" : ` [${s.set}]`;
  return `${s.repo}${set}: ${s.questions} questions; recall@3 inside ${pct(s.inside.recall_at_3)}, as a source ${pct(s.source.recall_at_3)}; recall@1 inside ${pct(s.inside.recall_at_1)}, as a source ${pct(s.source.recall_at_1)}; ${s.differing} differing`;
}

main().catch((err) => {
  console.error(`eval/sources: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
