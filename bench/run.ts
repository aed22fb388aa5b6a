// `npm run bench`: latency, memory, recall and size benchmark of the offline pipeline (issue 6).
//
//   npm run bench                                   all sizes, 20 questions each
//   npm run bench -- --sizes small,medium           some sizes
//   npm run bench -- --questions 5                  fewer questions per size
//   npm run bench -- --baseline-questions 3         baseline subset size (default: 20 / 20 / 5)
//   npm run bench -- --no-baseline --no-vsix        skip the naive baseline / the .vsix packaging
//   npm run bench -- --profile                      CPU-profile the measured runs and print the hot functions
//
// Each size is measured in its own child process (so peak RSS is per size); the naive baseline runs in another
// child on the same questions. Results go to bench/results.json and a table on stdout.
//
// The parts: args.ts (flags), orchestrate.ts (the main process), measure.ts (the worker: our pipeline and the
// baseline), shipped.ts (CLI, activation, bundle, .vsix), history.ts (the history index), summary.ts (summaries and
// targets), report.ts (the printed tables), results.ts (the shape of results.json), generate.ts (the repositories).
import { writeFileSync } from "node:fs";
import { parseArgs, type Args } from "./args";
import { workerBaseline, workerOurs } from "./measure";
import { runBench } from "./orchestrate";

async function workerMain(args: Args): Promise<void> {
  if (!args.size || !args.out) throw new Error("--worker needs --size and --out");
  const result = args.worker === "ours" ? await workerOurs(args.size, args.questions) : await workerBaseline(args.size, args.questions);
  writeFileSync(args.out, JSON.stringify(result));
}

const args = parseArgs(process.argv.slice(2));
(args.worker ? workerMain(args) : runBench(args)).catch((err) => {
  console.error(err instanceof Error ? err.stack ?? err.message : err);
  process.exit(1);
});
