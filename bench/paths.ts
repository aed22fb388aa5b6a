// Where the bench lives. bench/run.ts is both the entry point and the worker entry (it spawns itself).
import { dirname, join, resolve } from "node:path";

export const ENTRY = process.argv[1];
export const ROOT = resolve(dirname(ENTRY), "..");
export const RESULTS_FILE = join(ROOT, "bench", "results.json");
