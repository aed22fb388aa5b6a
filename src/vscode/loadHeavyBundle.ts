// The one door from the activation path to the heavy modules (the core pipeline, zod, the model SDK, …). They live in
// a second bundle, dist/heavyBundle.js (built from ./heavyBundle.ts), which is required on first use, so loading
// dist/extension.js and activate() never pay for them.
//
// `require("./heavyBundle.js")` is left alone by esbuild (scripts/build.mjs marks it external), so at run time it
// resolves next to dist/extension.js. Run from sources (tsx: the unit tests), it resolves to ./heavyBundle.ts. Any
// other bundler of these sources (the extension-host test suite) simply inlines ./heavyBundle.ts.
import type * as Heavy from "./heavyBundle";

export type HeavyBundle = typeof Heavy;

let heavy: HeavyBundle | undefined;

/** The heavy half of the extension, loaded once (synchronously) on first use. */
export function loadHeavyBundle(): HeavyBundle {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  heavy ??= require("./heavyBundle.js") as HeavyBundle;
  return heavy;
}
