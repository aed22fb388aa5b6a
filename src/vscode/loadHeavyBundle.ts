// The one door from the activation path to the heavy modules (the core pipeline, zod, the model SDK, …). They live in
// a second bundle, dist/heavyBundle.js (built from ./heavyBundle.ts), which is required on first use, so loading
// dist/extension.js and activate() never pay for them.
//
// `require("./heavyBundle.js")` is left alone by esbuild (scripts/build.mjs marks it external), so at run time it
// resolves next to dist/extension.js. Run from sources (tsx: the unit tests), it resolves to ./heavyBundle.ts. Any
// other bundler of these sources (the extension-host test suite) simply inlines ./heavyBundle.ts.
//
// The packaged extension ships the bundle brotli-compressed instead (dist/heavyBundle.js.br, written by the
// production build): the .vsix is ~110 KB smaller than zip's deflate makes it, and unpacking costs ~6 ms once.
import { existsSync, readFileSync } from "node:fs";
import Module from "node:module";
import { dirname, join } from "node:path";
import { brotliDecompressSync } from "node:zlib";
import type * as Heavy from "./heavyBundle";

export type HeavyBundle = typeof Heavy;

let heavy: HeavyBundle | undefined;

/** The heavy half of the extension, loaded once (synchronously) on first use. */
export function loadHeavyBundle(): HeavyBundle {
  heavy ??= requireHeavyBundle();
  return heavy;
}

function requireHeavyBundle(): HeavyBundle {
  const packed = join(__dirname, "heavyBundle.js.br");
  if (existsSync(packed)) return compileCommonJs(join(__dirname, "heavyBundle.js"), brotliDecompressSync(readFileSync(packed)).toString("utf8")) as HeavyBundle;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require("./heavyBundle.js") as HeavyBundle;
}

type CompilableModule = Module & { _compile(code: string, filename: string): void };
type ModuleStatics = typeof Module & { _nodeModulePaths(dir: string): string[] };

/**
 * Evaluates CommonJS source as the module at `filename`, the way `require` would after reading the file: its own
 * `require` resolves next to it, and the editor's `require("vscode")` hook sees a module of this extension.
 */
function compileCommonJs(filename: string, code: string): unknown {
  const mod = new Module(filename, module) as CompilableModule;
  mod.filename = filename;
  mod.paths = (Module as ModuleStatics)._nodeModulePaths(dirname(filename));
  mod._compile(code, filename);
  mod.loaded = true;
  return mod.exports;
}
