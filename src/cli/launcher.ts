// dist/cli.js, the `deliberate` command: a few lines that run the CLI bundle (dist/cliMain.js, from ./main.ts) through
// V8's code cache. Compiling the 3 MB bundle and the functions a run uses is ~50 ms of every run; the cache, kept in
// the user's cache folder (never in a repository), keyed by the bundle's size and mtime, the Node version and the
// subcommand, saves most of it.
// V8 itself rejects data made for another source, but not damaged data, which can crash it or worse; so the files
// are sealed with an HMAC under a per-user key kept beside the signing key (./codeCache.ts), and only data that
// verifies reaches V8. A missing, stale, damaged or unwritable cache only means compiling as usual, and
// `DELIBERATIVE_CODE_CACHE=off` turns the cache off.
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join } from "node:path";
import { Script } from "node:vm";
import { discardCodeCache, loadOrCreateCodeCacheKey, readCodeCache, writeCodeCache } from "./codeCache";
import { cacheFolderRefusal, userCacheDir } from "../core/cacheDir";
import { defaultKeyDir } from "../core/receipts/signing";

interface CliMain {
  runCli(): void;
}

/** `deliberate check` has a bundle of its own (./checkMain.ts: no deliberation pipeline to load); the rest, cliMain.js. */
const CHECK_BUNDLE = join(__dirname, "cliCheck.js");
const BUNDLE = process.argv[2] === "check" && existsSync(CHECK_BUNDLE) ? CHECK_BUNDLE : join(__dirname, "cliMain.js");
/** The bundle's name without ".js": each bundle's cache files start with it, so neither prunes the other's. */
const BUNDLE_NAME = basename(BUNDLE, ".js");

const SUBCOMMANDS = new Set(["pick", "verify", "list", "keys", "index", "stats", "diff", "mcp", "adr", "check"]);

/**
 * One cache per subcommand (a question is "ask"): the data is written after the first run and covers the functions
 * that run compiled, so each kind of run gets the code it actually uses.
 */
function cacheFileFor(bundle: string, argv: string[]): { file: string; key: string } {
  const st = statSync(bundle);
  const key = [st.size, Math.floor(st.mtimeMs), process.version, process.arch].join("-").replace(/[^A-Za-z0-9.-]/g, "_");
  const kind = SUBCOMMANDS.has(argv[0] ?? "") ? argv[0] : "ask";
  return { file: join(userCacheDir(), "v8", `${BUNDLE_NAME}-${key}-${kind}.bin`), key };
}

/**
 * Writes V8's data for the functions compiled so far, sealed, and drops the data of other bundle versions (an
 * upgrade or a rebuild); a failure is not an error.
 */
function storeCache(script: Script, file: string, key: string, hmacKey: Buffer): void {
  try {
    const dir = dirname(file);
    // A `v8` folder that leads out of the cache folder: neither written nor pruned through.
    if (cacheFolderRefusal(dir)) return;
    mkdirSync(dir, { recursive: true });
    writeCodeCache(hmacKey, file, script.createCachedData());
    for (const name of readdirSync(dir)) if (name.startsWith(`${BUNDLE_NAME}-`) && !name.includes(key)) rmSync(join(dir, name), { force: true });
  } catch {
    // a read-only or full cache folder: the next run compiles again
  }
}

/** The bundle compiled with the verified cached data; data V8 cannot load is deleted and the bundle compiled from source. */
function compile(wrapped: string, file: string, cachedData: Buffer | undefined): Script {
  if (cachedData) {
    try {
      return new Script(wrapped, { filename: BUNDLE, cachedData });
    } catch {
      discardCodeCache(file);
    }
  }
  return new Script(wrapped, { filename: BUNDLE });
}

/** Evaluates the bundle as the CommonJS module it is, with V8's cached code when there is usable data. */
function loadCliMain(): CliMain {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the bundle beside this file, at run time
  if (process.env.DELIBERATIVE_CODE_CACHE === "off") return require(BUNDLE) as CliMain;
  const source = readFileSync(BUNDLE, "utf8").replace(/^#!.*/, "");
  const cache = cacheFileFor(BUNDLE, process.argv.slice(2));
  // No usable key (an unwritable config folder, a key file others can read): no cache at all, neither read nor written.
  const hmacKey = loadOrCreateCodeCacheKey(defaultKeyDir());
  const cachedData = hmacKey ? readCodeCache(hmacKey, cache.file) : undefined;
  const wrapped = `(function (exports, require, module, __filename, __dirname) {${source}\n})`;
  const script = compile(wrapped, cache.file, cachedData);
  const mod = { exports: {} as CliMain };
  const run = script.runInThisContext() as (e: unknown, r: NodeJS.Require, m: typeof mod, f: string, d: string) => void;
  run(mod.exports, createRequire(BUNDLE), mod, BUNDLE, __dirname);
  // After the run, so the data also covers the functions the CLI compiled on its way.
  if (hmacKey && (!cachedData || script.cachedDataRejected !== false)) process.once("exit", () => storeCache(script, cache.file, cache.key, hmacKey));
  return mod.exports;
}

loadCliMain().runCli();
