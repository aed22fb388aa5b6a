// The one door from the activation path to the heavy modules (the core pipeline, zod, the model SDK, …). They live in
// a second bundle, dist/core.js (built from ./core.ts), which is required on first use, so loading dist/extension.js
// and activate() never pay for them.
//
// `require("./core.js")` is left alone by esbuild (scripts/build.mjs marks it external), so at run time it resolves
// next to dist/extension.js. Run from sources (tsx: the unit tests), it resolves to ./core.ts. Any other bundler of
// these sources (the extension-host test suite) simply inlines ./core.ts.
import type * as Core from "./core";

export type CoreModule = typeof Core;

let core: CoreModule | undefined;

/** The heavy half of the extension, loaded once (synchronously) on first use. */
export function loadCore(): CoreModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  core ??= require("./core.js") as CoreModule;
  return core;
}
