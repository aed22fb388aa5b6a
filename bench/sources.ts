// Cost of one git decision source (src/core/sources/) that is already cached: the sample repository as the service,
// a separate architecture repository as a file:// source fetched once beforehand. Each round runs the same question
// without and with the source (no turn cache, no receipt), alternating, and reports p50/p95 of each and of the
// difference. Issue 24's bar: the source adds at most 150 ms p95.
// `--process` runs each deliberation as a fresh `deliberate` process (dist/cli.js, `--no-cache --no-receipt`): a
// cold start, where the source's copy and its discovery snapshot come from the cache folder, not from memory.
//   nice -n 10 node --import tsx bench/sources.ts [rounds=15] [--process]
import { loadavg } from "node:os";
import { deliberate } from "../src/core/pipeline";
import { generateSigningKey } from "../src/core/receipts/signing";
import { makeTempDir } from "../test/helpers/gitRepo";
import { newCliUser, runCli } from "../test/helpers/cli";
import { createSampleRepo } from "../test/fixtures/sampleRepo";
import { architectureRepo } from "../test/fixtures/sourceRepos";

const args = process.argv.slice(2);
const ROUNDS = Number(args.find((a) => /^\d+$/.test(a)) ?? 15);
const PROCESS = args.includes("--process");
const QUESTION = "Should we store orders in MongoDB or PostgreSQL?";

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
}

async function main(): Promise<void> {
  const repo = createSampleRepo();
  const source = `architecture=file://${architectureRepo()}`;
  const cacheRoot = makeTempDir("delib-bench-sources-");
  const key = generateSigningKey();
  const user = newCliUser();
  const runProcess = async (withSource: boolean) => {
    const out = runCli([QUESTION, "--repo", repo, "--offline", "--json", "--no-cache", "--no-receipt", ...(withSource ? ["--source", source] : [])], { env: user.env, timeoutMs: 120_000 });
    if (out.code !== 0) throw new Error(`deliberate exited with ${out.code}: ${out.stderr.slice(0, 300)}`);
    if (withSource && !/architecture:decisions\//.test(out.stdout)) throw new Error("the source was not read");
    return out.ms;
  };
  const runInProcess = async (withSource: boolean) => {
    const t = performance.now();
    const out = await deliberate({
      repo,
      question: QUESTION,
      signingKey: key,
      writeReceipt: false,
      useCache: false,
      learning: false,
      config: { offline: true },
      ...(withSource ? { sources: { specs: [source], cacheRoot } } : {}),
    });
    if (withSource && out.kind === "deliberated" && out.receipt.stages["internal:source:architecture"]?.status !== "ok") throw new Error("the source was not read");
    return performance.now() - t;
  };
  const run = PROCESS ? runProcess : runInProcess;
  // Warm-up: the fetch into the cache (not measured), and one run of each.
  await run(true);
  await run(false);
  const without: number[] = [];
  const withSrc: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    without.push(await run(false));
    withSrc.push(await run(true));
  }
  const diff = withSrc.map((w, i) => w - without[i]!);
  const f = (n: number) => `${n.toFixed(0)} ms`;
  console.log(`rounds ${ROUNDS}${PROCESS ? ", a fresh process each" : ", in one process"}; load ${loadavg().map((l) => l.toFixed(2)).join(" ")}`);
  console.log(`without source: p50 ${f(pct(without, 50))}, p95 ${f(pct(without, 95))}`);
  console.log(`with a cached git source: p50 ${f(pct(withSrc, 50))}, p95 ${f(pct(withSrc, 95))}`);
  console.log(`added: p50 ${f(pct(diff, 50))}, p95 ${f(pct(diff, 95))} (p95 with - p95 without: ${f(pct(withSrc, 95) - pct(without, 95))})`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
