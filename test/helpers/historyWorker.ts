// A separate process that updates a repository's history index and prints the result as JSON (concurrency tests).
//   node --import tsx test/helpers/historyWorker.ts <repo> [--rebuild]
import { buildIndex } from "../../src/core/internal/history";

async function main(): Promise<void> {
  const [repo, flag] = process.argv.slice(2);
  const r = await buildIndex(repo, { rebuild: flag === "--rebuild" });
  const { state, ...rest } = r;
  process.stdout.write(JSON.stringify({ ...rest, file: state?.file }) + "\n");
}

main().catch((err) => {
  process.stdout.write(JSON.stringify({ error: String(err instanceof Error ? err.message : err) }) + "\n");
  process.exitCode = 1;
});
