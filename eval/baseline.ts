// The plain baseline every column is measured against (issue 20): BM25 over only the Markdown files whose path says
// adr, decision or architecture, with the title and the file name counted three times. No supersession, no status,
// no history: if the product ranks the deciding record below this, its extra machinery is costing recall.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { adrTitle, contentWords, stem, STOP_WORDS } from "./metrics";

const K1 = 1.2;
const B = 0.75;
const TITLE_WEIGHT = 3;
const RECORD_PATH = /adr|decision|architecture/i;

/** Every content token with repeats (BM25 needs term frequencies, contentWords gives a set). */
function tokens(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.toLowerCase().replace(/['’]s\b/g, "").split(/[^a-z0-9]+/)) {
    if (raw.length < 2 || /^\d+$/.test(raw) || STOP_WORDS.has(raw)) continue;
    const w = stem(raw);
    if (!STOP_WORDS.has(w)) out.push(w);
  }
  return out;
}

interface Doc {
  path: string;
  tf: Map<string, number>;
  length: number;
}

export class Bm25Baseline {
  private readonly docs: Doc[] = [];
  private readonly df = new Map<string, number>();
  private readonly avgLength: number;

  constructor(files: { path: string; content: string }[]) {
    for (const f of files) {
      const name = f.path.split("/").slice(-2).join(" ");
      const boosted = `${adrTitle(f.content, f.path)} ${name} `.repeat(TITLE_WEIGHT);
      const toks = tokens(`${boosted} ${f.content}`);
      const tf = new Map<string, number>();
      for (const t of toks) tf.set(t, (tf.get(t) ?? 0) + 1);
      for (const t of tf.keys()) this.df.set(t, (this.df.get(t) ?? 0) + 1);
      this.docs.push({ path: f.path, tf, length: toks.length });
    }
    this.avgLength = this.docs.reduce((s, d) => s + d.length, 0) / Math.max(1, this.docs.length);
  }

  get size(): number {
    return this.docs.length;
  }

  /** Paths in score order (ties by path, so the baseline is deterministic); documents that match nothing are left out. */
  rank(question: string): string[] {
    const terms = [...contentWords(question)];
    const n = this.docs.length;
    const scored: { path: string; score: number }[] = [];
    for (const d of this.docs) {
      let score = 0;
      for (const t of terms) {
        const f = d.tf.get(t);
        if (!f) continue;
        const df = this.df.get(t) ?? 0;
        const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
        score += (idf * f * (K1 + 1)) / (f + K1 * (1 - B + (B * d.length) / this.avgLength));
      }
      if (score > 0) scored.push({ path: d.path, score });
    }
    return scored.sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : 1)).map((s) => s.path);
  }
}

/** The baseline over a checkout: tracked Markdown files whose path says adr, decision or architecture. */
export function baselineFor(checkout: string): Bm25Baseline {
  const listed = execFileSync("git", ["-C", checkout, "ls-files", "-z", "--", "*.md", "*.markdown"], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  const files: { path: string; content: string }[] = [];
  for (const path of listed.split("\0")) {
    if (!path || !RECORD_PATH.test(path)) continue;
    try {
      files.push({ path, content: readFileSync(join(checkout, path), "utf8") });
    } catch {
      // left out of a sparse checkout
    }
  }
  return new Bm25Baseline(files);
}
