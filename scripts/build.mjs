// Bundles the CLI, the extension host and the webview with esbuild. Type checking is a separate step
// (`npm run typecheck`), so a build never waits on tsc.
//
// The extension host is two bundles, so activation stays cheap: dist/extension.js (the activation path: commands,
// tree, CodeLens, picker wiring; no zod, no model SDK, no core pipeline) and dist/core.js (src/vscode/core.ts: the
// core pipeline and everything heavy), which extension.js requires on first use (src/vscode/lazyCore.ts).
// `--analyze` prints the largest inputs of both bundles.
import { build } from "esbuild";
import { existsSync, mkdirSync, copyFileSync } from "node:fs";

const production = process.argv.includes("--production");
const analyze = process.argv.includes("--analyze");
const common = { bundle: true, sourcemap: !production, minify: production, logLevel: "warning", legalComments: "none" };

/**
 * Leaves lazyCore.ts's `require("./core.js")` alone: at run time it is dist/core.js, next to dist/extension.js.
 * A plugin rather than `external: ["./core.js"]`, which would also match zod's own internal `./core.js` imports.
 */
const coreExternal = {
  name: "core-external",
  setup(b) {
    b.onResolve({ filter: /^\.\/core\.js$/ }, (args) => (args.importer.replace(/\\/g, "/").endsWith("/src/vscode/lazyCore.ts") ? { path: "./core.js", external: true } : undefined));
  },
};

const jobs = [
  build({
    ...common,
    entryPoints: ["src/cli.ts"],
    outfile: "dist/cli.js",
    platform: "node",
    target: "node20",
    format: "cjs",
    banner: { js: "#!/usr/bin/env node" },
  }),
];

if (existsSync("src/vscode/extension.ts")) {
  const host = { ...common, platform: "node", target: "node20", format: "cjs", external: ["vscode"], plugins: [coreExternal], metafile: true };
  jobs.push(
    build({ ...host, entryPoints: ["src/vscode/extension.ts"], outfile: "dist/extension.js" }).then((r) => checkActivationBundle(r.metafile)),
    build({ ...host, entryPoints: ["src/vscode/core.ts"], outfile: "dist/core.js" }).then((r) => analyze && printInputs(r.metafile)),
  );
}

if (existsSync("webview/main.ts")) {
  mkdirSync("dist/webview", { recursive: true });
  jobs.push(
    build({
      ...common,
      entryPoints: ["webview/main.ts"],
      outfile: "dist/webview/main.js",
      platform: "browser",
      target: "es2022",
      format: "esm",
    }),
  );
  if (existsSync("webview/styles.css")) copyFileSync("webview/styles.css", "dist/webview/styles.css");
}

// The history index's SQLite (node-sqlite3-wasm) loads its WebAssembly binary from next to the bundle that
// requires it (dist/cli.js, dist/core.js).
mkdirSync("dist", { recursive: true });
copyFileSync("node_modules/node-sqlite3-wasm/dist/node-sqlite3-wasm.wasm", "dist/node-sqlite3-wasm.wasm");

await Promise.all(jobs);

/** dist/extension.js must not inline any dependency (zod, openai, minisearch, …): those belong in dist/core.js. */
function checkActivationBundle(metafile) {
  if (analyze) printInputs(metafile);
  const [file, output] = Object.entries(metafile.outputs).find(([f]) => f.endsWith("extension.js"));
  const deps = Object.keys(output.inputs).filter((p) => p.includes("node_modules/"));
  if (deps.length) {
    const pkgs = [...new Set(deps.map((p) => p.replace(/^.*node_modules\/((?:@[^/]+\/)?[^/]+).*$/, "$1")))];
    throw new Error(`${file} inlines ${pkgs.join(", ")}: the activation path imports a heavy module at run time; go through loadCore() (src/vscode/lazyCore.ts)`);
  }
  if (!output.imports.some((i) => i.path === "./core.js" && i.external)) {
    throw new Error(`${file} does not require ./core.js lazily: check the core-external plugin in scripts/build.mjs`);
  }
}

function printInputs(metafile, top = 15) {
  for (const [file, output] of Object.entries(metafile.outputs)) {
    if (file.endsWith(".map")) continue;
    const rows = Object.entries(output.inputs).sort((a, b) => b[1].bytesInOutput - a[1].bytesInOutput);
    console.log(`${file}: ${(output.bytes / 1024).toFixed(0)} KB from ${rows.length} inputs; largest:`);
    for (const [p, i] of rows.slice(0, top)) console.log(`  ${(i.bytesInOutput / 1024).toFixed(1).padStart(8)} KB  ${p}`);
  }
}
