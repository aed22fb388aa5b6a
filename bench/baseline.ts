// The naive baseline: what an agent does by hand without the tool.
//  1. Pick the question's key terms (content words, as written).
//  2. For each term, search the full history with `git log -S<term> --oneline` (execFile, no shell), one after
//     another, as a person or an agent pasting commands would.
//  3. Read every markdown file in the working tree and rank the files by how often the terms occur in them
//     (case-insensitive, whole words). The top 3 files are what the agent reads.
import { execFile } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";

const STOP = new Set(
  (
    "a an the and or but of to in on at by for with from into as is are was be should shall would could can we us our " +
    "you your it its this that these those use using adopt adopting keep switch move migrate go stay pick choose which " +
    "what how why when where service services vs versus"
  ).split(/\s+/),
);

/** The question's key terms as written (case kept, so `git log -S` sees what the agent would type). */
export function keyTerms(question: string): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const raw of question.split(/[^A-Za-z0-9.+#_-]+/)) {
    const w = raw.replace(/^[._-]+|[._-]+$/g, "");
    const lower = w.toLowerCase();
    if (w.length < 2 || STOP.has(lower) || /^\d+$/.test(w) || seen.has(lower)) continue;
    seen.add(lower);
    out.push(w);
  }
  return out;
}

export interface BaselineRun {
  terms: string[];
  ms: number;
  gitMs: number;
  rankMs: number;
  /** Commits `git log -S` printed, per term. */
  commits: Record<string, number>;
  top3: { path: string; score: number }[];
  filesRead: number;
}

function gitLogS(repo: string, term: string): Promise<number> {
  return new Promise((resolve, reject) => {
    execFile(
      "git",
      ["log", `-S${term}`, "--oneline", "--no-color"],
      { cwd: repo, maxBuffer: 512 * 1024 * 1024, env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null", GIT_PAGER: "cat" } },
      (err, stdout) => {
        if (err) reject(err);
        else resolve(stdout.split("\n").filter(Boolean).length);
      },
    );
  });
}

async function markdownFiles(root: string, rel = ""): Promise<string[]> {
  const out: string[] = [];
  const entries = await readdir(join(root, rel), { withFileTypes: true });
  for (const e of entries) {
    if (e.name === ".git" || e.name === "node_modules" || e.name === ".deliberations") continue;
    const p = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...(await markdownFiles(root, p)));
    else if (e.isFile() && /\.md$/i.test(e.name)) out.push(p);
  }
  return out;
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

export async function runBaseline(repo: string, question: string): Promise<BaselineRun> {
  const terms = keyTerms(question);
  const started = performance.now();
  const commits: Record<string, number> = {};
  for (const term of terms) commits[term] = await gitLogS(repo, term);
  const gitDone = performance.now();

  const files = await markdownFiles(repo);
  const res = terms.map((t) => new RegExp(`(?<![A-Za-z0-9_])${escapeRe(t.toLowerCase())}(?![A-Za-z0-9_])`, "g"));
  const scored: { path: string; score: number }[] = [];
  for (const path of files) {
    const text = (await readFile(join(repo, path), "utf8")).toLowerCase();
    let score = 0;
    for (const re of res) {
      re.lastIndex = 0;
      while (re.exec(text)) score++;
    }
    if (score > 0) scored.push({ path, score });
  }
  scored.sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const done = performance.now();
  return { terms, ms: done - started, gitMs: gitDone - started, rankMs: done - gitDone, commits, top3: scored.slice(0, 3), filesRead: files.length };
}
