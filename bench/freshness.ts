// Cost of the freshness check (core/receipts/freshness.ts) for N receipts of one repository: the sample repository,
// a few real deliberations, copied (re-signed under new ids) up to N receipts. Measures a check with nothing
// changed (a turn-cache fingerprint proves the artifact set), and one after a cited line was edited (the artifact
// set is scanned once, every cited file re-read once).
//   node --import tsx bench/freshness.ts [N=50] [rounds=5]
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createSampleRepo } from "../test/fixtures/sampleRepo";
import { deliberate } from "../src/core/pipeline";
import { checkFreshnessAll } from "../src/core/receipts/freshness";
import { generateSigningKey, signReceipt } from "../src/core/receipts/signing";
import { listReceipts, writeReceipt } from "../src/core/receipts/store";
import type { Receipt } from "../src/core/schemas";

const N = Number(process.argv[2] ?? 50);
const ROUNDS = Number(process.argv[3] ?? 5);
const QUESTIONS = [
  "Should we store orders in MongoDB or PostgreSQL?",
  "Should we adopt winston for logging?",
  "Redux or Zustand for the cart state?",
];

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

async function main(): Promise<void> {
  const repo = createSampleRepo();
  const key = generateSigningKey();
  const made: Receipt[] = [];
  for (const question of QUESTIONS) {
    const out = await deliberate({ repo, question, signingKey: key, config: { offline: true } });
    if (out.kind === "deliberated") made.push(out.receipt);
  }
  for (let i = made.length; i < N; i++) {
    const { signature: _s, signing: _k, ...rest } = made[i % made.length]!;
    await writeReceipt(repo, signReceipt({ ...rest, receipt_id: `${rest.receipt_id.slice(0, 16)}-copy${String(i).padStart(4, "0")}` }, key));
  }
  const entries = await listReceipts(repo);
  const time = async () => {
    const t = performance.now();
    const res = await checkFreshnessAll(repo, entries);
    return { ms: performance.now() - t, res };
  };
  await new Promise((r) => setTimeout(r, 100)); // past the turn cache's racy-stat window
  const unchanged: number[] = [];
  for (let i = 0; i < ROUNDS; i++) unchanged.push((await time()).ms);
  const cite = made[0]!.payload.citations.find((c) => c.line_range && !c.commit)!;
  const abs = join(repo, cite.path_or_url);
  const lines = readFileSync(abs, "utf8").split("\n");
  lines[cite.line_range!.start - 1] += " (edited)";
  writeFileSync(abs, lines.join("\n"));
  const edited: number[] = [];
  let stale = 0;
  for (let i = 0; i < ROUNDS; i++) {
    const { ms, res } = await time();
    edited.push(ms);
    stale = [...res.values()].filter((f) => f.state !== "fresh").length;
  }
  console.log(`${entries.length} receipts: nothing changed ${median(unchanged).toFixed(1)} ms (median of ${ROUNDS}); after an edit to a cited file ${median(edited).toFixed(1)} ms, ${stale} stale`);
}

void main();
