// Decision sources on the corpus (issue 24): for one corpus repository, recall@1 and recall@3 of its dev-set
// questions with the records inside the repository, and with the records moved into a separate repository that is
// configured as a decision source (a file:// git URL with the records' folder as its path). The two should match:
// a record ranks the same wherever it lives.
//
//   MIRRORS=/work/.mirror nice -n 10 node --import tsx eval/sources.ts [--repo adr/madr] [--json]
//
// Runs in one process (the pipeline called directly, rules only, offline) and writes only under a temp folder.
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { deliberate } from "../src/core/pipeline";
import { generateSigningKey } from "../src/core/receipts/signing";
import { firstRank, rankedDocs, type EvalQuestion, type LooseEvidence } from "./metrics";

interface Repo {
  name: string;
  mirror: string;
  sha: string;
  adr_dir: string;
}

const GIT_ENV = { ...process.env, GIT_AUTHOR_NAME: "eval", GIT_AUTHOR_EMAIL: "eval@example.test", GIT_COMMITTER_NAME: "eval", GIT_COMMITTER_EMAIL: "eval@example.test", GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" };

function git(args: string[], cwd?: string): string {
  return execFileSync("git", args, { cwd, env: GIT_ENV, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], maxBuffer: 256 * 1024 * 1024 });
}

function readJson<T>(file: string): T {
  return JSON.parse(readFileSync(file, "utf8")) as T;
}

/** The repository at its pinned commit; then the same tree without its records, and the records on their own. */
function layouts(mirrors: string, repo: Repo, work: string): { inside: string; service: string; architecture: string } {
  const inside = join(work, "inside");
  git(["clone", "--quiet", "--shared", "--no-checkout", join(mirrors, repo.mirror, "repo"), inside]);
  git(["checkout", "--quiet", "--detach", repo.sha], inside);
  const service = join(work, "service");
  git(["clone", "--quiet", "--shared", inside, service]);
  git(["checkout", "--quiet", "--detach", repo.sha], service);
  git(["rm", "-r", "-q", "--", repo.adr_dir], service);
  git(["commit", "-q", "-m", "records moved to the architecture repository"], service);
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

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { repo: { type: "string" }, json: { type: "boolean" } } });
  const mirrors = process.env.MIRRORS ?? "/work/.mirror";
  const wanted = values.repo ?? "adr/madr";
  const corpus = readJson<{ repos: Repo[] }>(join(__dirname, "corpus.json")).repos;
  const repo = corpus.find((r) => r.name === wanted);
  if (!repo) throw new Error(`no corpus repository ${wanted} in eval/corpus.json (dev set)`);
  const questions = readJson<{ questions: (EvalQuestion & { id: string; repo: string })[] }>(join(__dirname, "questions.json")).questions.filter((q) => q.repo === repo.name && q.gold.length);
  const work = mkdtempSync(join(tmpdir(), "delib-eval-sources-"));
  const key = generateSigningKey();
  try {
    const { inside, service, architecture } = layouts(mirrors, repo, work);
    const source = `architecture=file://${architecture}#:${repo.adr_dir}`;
    const cacheRoot = join(work, "cache");
    const rows: { id: string; inside?: number; source?: number; inside_ms: number; source_ms: number; reason?: string }[] = [];
    for (const q of questions) {
      const a = await rankOf(q, inside, undefined, cacheRoot, key);
      const b = await rankOf(q, service, [source], cacheRoot, key);
      rows.push({ id: q.id, inside: a.rank, source: b.rank, inside_ms: Math.round(a.ms), source_ms: Math.round(b.ms), ...(b.reason ? { reason: b.reason } : {}) });
    }
    const at = (k: number, col: "inside" | "source") => rows.filter((r) => r[col] !== undefined && r[col]! <= k).length / Math.max(1, rows.length);
    const summary = {
      repo: repo.name,
      questions: rows.length,
      inside: { recall_at_1: at(1, "inside"), recall_at_3: at(3, "inside") },
      source: { recall_at_1: at(1, "source"), recall_at_3: at(3, "source") },
      differing: rows.filter((r) => r.inside !== r.source).map((r) => `${r.id}: inside ${r.inside ?? "-"} vs source ${r.source ?? "-"}`),
    };
    if (values.json) {
      process.stdout.write(`${JSON.stringify({ summary, rows }, null, 2)}\n`);
      return;
    }
    for (const r of rows) console.log(`${r.id.padEnd(12)} inside ${String(r.inside ?? "-").padStart(2)} (${r.inside_ms} ms)   source ${String(r.source ?? "-").padStart(2)} (${r.source_ms} ms)${r.reason ? `   ${r.reason}` : ""}`);
    console.log(`${repo.name}: ${rows.length} questions; recall@3 inside ${summary.inside.recall_at_3.toFixed(2)}, as a source ${summary.source.recall_at_3.toFixed(2)}; recall@1 inside ${summary.inside.recall_at_1.toFixed(2)}, as a source ${summary.source.recall_at_1.toFixed(2)}`);
    if (summary.differing.length) console.log(`differing: ${summary.differing.join("; ")}`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(`eval/sources: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
