// dist/cli.js, the `deliberate` command: a few lines that run the CLI bundle (dist/cliMain.js, from ./cli.ts) through
// V8's code cache. Compiling the 3 MB bundle and the functions a run uses is ~50 ms of every run; the cache, kept in
// the user's cache folder (never in a repository), keyed by the bundle's size and mtime, the Node version and the
// subcommand, saves most of it.
// A missing, stale or unwritable cache only means compiling as usual: V8 itself rejects data that does not match the
// source, and `DELIBERATIVE_CODE_CACHE=off` turns the cache off.
import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { Script } from "node:vm";
import { userCacheDir } from "./core/cacheDir";

interface CliMain {
  runCli(): void;
}

const BUNDLE = join(__dirname, "cliMain.js");

const SUBCOMMANDS = new Set(["pick", "verify", "list", "keys", "index", "stats", "diff", "mcp", "adr"]);

/**
 * One cache per subcommand (a question is "ask"): the data is written after the first run and covers the functions
 * that run compiled, so each kind of run gets the code it actually uses.
 */
function cacheFileFor(bundle: string, argv: string[]): { file: string; key: string } {
  const st = statSync(bundle);
  const key = [st.size, Math.floor(st.mtimeMs), process.version, process.arch].join("-").replace(/[^A-Za-z0-9.-]/g, "_");
  const kind = SUBCOMMANDS.has(argv[0] ?? "") ? argv[0] : "ask";
  return { file: join(userCacheDir(), "v8", `cliMain-${key}-${kind}.bin`), key };
}

function readCache(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/**
 * Writes V8's data for the functions compiled so far, and drops the data of other bundle versions (an upgrade or a
 * rebuild); a failure is not an error.
 */
function storeCache(script: Script, file: string, key: string): void {
  try {
    const dir = dirname(file);
    mkdirSync(dir, { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, script.createCachedData());
    renameSync(tmp, file);
    for (const name of readdirSync(dir)) if (name.startsWith("cliMain-") && !name.includes(key)) rmSync(join(dir, name), { force: true });
  } catch {
    // a read-only or full cache folder: the next run compiles again
  }
}

/** Evaluates the bundle as the CommonJS module it is, with V8's cached code when there is usable data. */
function loadCliMain(): CliMain {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the bundle beside this file, at run time
  if (process.env.DELIBERATIVE_CODE_CACHE === "off") return require(BUNDLE) as CliMain;
  const source = readFileSync(BUNDLE, "utf8").replace(/^#!.*/, "");
  const cache = cacheFileFor(BUNDLE, process.argv.slice(2));
  const cachedData = readCache(cache.file);
  const wrapped = `(function (exports, require, module, __filename, __dirname) {${source}\n})`;
  const script = new Script(wrapped, { filename: BUNDLE, ...(cachedData ? { cachedData } : {}) });
  const mod = { exports: {} as CliMain };
  const run = script.runInThisContext() as (e: unknown, r: NodeJS.Require, m: typeof mod, f: string, d: string) => void;
  run(mod.exports, createRequire(BUNDLE), mod, BUNDLE, __dirname);
  // After the run, so the data also covers the functions the CLI compiled on its way.
  if (!cachedData || script.cachedDataRejected) process.once("exit", () => storeCache(script, cache.file, cache.key));
  return mod.exports;
}

loadCliMain().runCli();
