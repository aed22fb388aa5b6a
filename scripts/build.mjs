// Bundles the CLI, the extension host and the webview with esbuild. Type checking is a separate step
// (`npm run typecheck`), so a build never waits on tsc.
//
// The extension host is two bundles, so activation stays cheap: dist/extension.js (the activation path: commands,
// tree, CodeLens, picker wiring; no zod, no model SDK, no core pipeline) and dist/heavyBundle.js
// (src/vscode/heavyBundle.ts: the core pipeline and everything heavy), which extension.js requires on first use
// (src/vscode/loadHeavyBundle.ts).
// `--analyze` prints the largest inputs of both bundles.
import { build } from "esbuild";
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { brotliCompressSync, brotliDecompressSync, constants as zlibConstants } from "node:zlib";
import { resolve } from "node:path";
import { asciiOnlyBundle } from "./asciiBundle.mjs";
import { compromisePrecomputedModel } from "./compromiseModel.mjs";

const production = process.argv.includes("--production");
const analyze = process.argv.includes("--analyze");
const common = { bundle: true, sourcemap: !production, minify: production, logLevel: "warning", legalComments: "none" };
/**
 * The CLI bundles are minified in every build, as they ship: a fresh `deliberate` process reads, decodes and (through
 * the code cache) loads the whole bundle before it answers, and the 5.5 MB readable one cost ~0.2 s of CPU more per
 * question than the 3.2 MB minified one. Source maps still come with a development build.
 */
const cli = { ...common, minify: true };

/**
 * Leaves loadHeavyBundle.ts's `require("./heavyBundle.js")` alone: at run time it is dist/heavyBundle.js, next to
 * dist/extension.js. Only that importer's require is external; everything else is bundled as usual.
 */
const heavyBundleExternal = {
  name: "heavy-bundle-external",
  setup(b) {
    b.onResolve({ filter: /^\.\/heavyBundle\.js$/ }, (args) =>
      args.importer.replace(/\\/g, "/").endsWith("/src/vscode/loadHeavyBundle.ts") ? { path: "./heavyBundle.js", external: true } : undefined,
    );
  },
};

/** The heavy bundle's MCP server never elicits, so the SDK's Ajv validator (only used for elicitation) is left out. */
const mcpWithoutAjv = {
  name: "mcp-without-ajv",
  setup(b) {
    b.onResolve({ filter: /\/validation\/ajv-provider\.js$/ }, (args) =>
      args.importer.replace(/\\/g, "/").includes("/@modelcontextprotocol/sdk/") ? { path: resolve("src/mcp/noElicitationValidator.ts") } : undefined,
    );
  },
};

/**
 * Drops two modules that nothing here can reach but that would otherwise be bundled whole:
 * - zod's `locales` namespace (every translation of its error messages, ~260 KB minified): zod itself installs
 *   English; nothing here calls `z.locales`, but `export * as locales` keeps all of them alive in a namespace object.
 * - linkedom's CSS parser (cssomnom, ~195 KB): it only backs `<style>.sheet`, and page extraction never reads a sheet.
 */
const trimUnreachable = {
  name: "trim-unreachable",
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /node_modules[\\/]zod[\\/]/.test(args.importer) ? { path: "zod-locales-en-only", namespace: "trimmed", pluginData: args.resolveDir } : undefined,
    );
    b.onResolve({ filter: /^cssomnom\/parse$/ }, () => ({ path: "cssomnom-parse-unused", namespace: "trimmed" }));
    b.onLoad({ filter: /^zod-locales-en-only$/, namespace: "trimmed" }, (args) => ({
      contents: `export { default as en } from "../locales/en.js";`,
      resolveDir: args.pluginData,
    }));
    b.onLoad({ filter: /^cssomnom-parse-unused$/, namespace: "trimmed" }, () => ({
      contents: `export function parse() { return { cssRules: [] }; }`,
    }));
  },
};

const SQLITE_WASM_BR = "node-sqlite3-wasm.wasm.br";

/**
 * node-sqlite3-wasm is an Emscripten build whose first statement is `var Module = typeof Module != "undefined" ?
 * Module : {}`: declaring `Module` ahead of it with `wasmBinary` hands it the binary, unpacked from the .br file
 * beside the bundle, instead of letting it read an uncompressed .wasm.
 */
const sqliteWasmFromBrotli = {
  name: "sqlite-wasm-from-brotli",
  setup(b) {
    b.onLoad({ filter: /node-sqlite3-wasm[\\/]dist[\\/]node-sqlite3-wasm\.js$/ }, (args) => ({
      contents:
        `var Module = { wasmBinary: require("node:zlib").brotliDecompressSync(require("node:fs").readFileSync(require("node:path").join(__dirname, ${JSON.stringify(SQLITE_WASM_BR)}))) };\n` +
        readFileSync(args.path, "utf8"),
      loader: "js",
    }));
  },
};

/** Brotli at the highest quality takes ~2 s, so an existing .br that already unpacks to the same binary is kept. */
function writeCompressedWasm(source, target) {
  const binary = readFileSync(source);
  if (existsSync(target) && brotliDecompressSync(readFileSync(target)).equals(binary)) return;
  writeBrotli(binary, target);
}

function writeBrotli(bytes, target) {
  const packed = brotliCompressSync(bytes, {
    params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11, [zlibConstants.BROTLI_PARAM_LGWIN]: 24 },
  });
  writeFileSync(`${target}.tmp`, packed);
  renameSync(`${target}.tmp`, target);
}

const jobs = [
  // The CLI bundle, run by dist/cli.js (src/cli/launcher.ts: the `deliberate` command) through V8's code cache.
  build({
    ...cli,
    entryPoints: ["src/cli/main.ts"],
    outfile: "dist/cliMain.js",
    platform: "node",
    target: "node20",
    format: "cjs",
    plugins: [trimUnreachable, sqliteWasmFromBrotli, compromisePrecomputedModel],
  }).then(() => asciiOnlyBundle("dist/cliMain.js")),
  // `deliberate check` alone (src/cli/checkMain.ts): the guard in hooks and CI loads no deliberation pipeline.
  build({
    ...cli,
    entryPoints: ["src/cli/checkMain.ts"],
    outfile: "dist/cliCheck.js",
    platform: "node",
    target: "node20",
    format: "cjs",
    plugins: [trimUnreachable, sqliteWasmFromBrotli, compromisePrecomputedModel],
  }).then(() => asciiOnlyBundle("dist/cliCheck.js")),
  build({
    ...common,
    entryPoints: ["src/cli/launcher.ts"],
    outfile: "dist/cli.js",
    platform: "node",
    target: "node20",
    format: "cjs",
    banner: { js: "#!/usr/bin/env node" },
  }),
];

if (existsSync("src/vscode/extension.ts")) {
  const host = { ...common, platform: "node", target: "node20", format: "cjs", external: ["vscode"], plugins: [heavyBundleExternal, trimUnreachable, sqliteWasmFromBrotli], metafile: true };
  jobs.push(
    build({ ...host, entryPoints: ["src/vscode/extension.ts"], outfile: "dist/extension.js" }).then((r) => checkActivationBundle(r.metafile)),
    build({ ...host, plugins: [...host.plugins, mcpWithoutAjv], entryPoints: ["src/vscode/heavyBundle.ts"], outfile: "dist/heavyBundle.js" }).then((r) => analyze && printInputs(r.metafile)),
    // dist/mcpServer.js: `node dist/mcpServer.js --repo DIR`, a shim over dist/heavyBundle.js (the MCP server lives there).
    build({ ...host, entryPoints: ["src/vscode/mcpServerMain.ts"], outfile: "dist/mcpServer.js", banner: { js: "#!/usr/bin/env node" } }).then((r) => checkShim(r.metafile, "mcpServer.js")),
    // dist/mcpWorker.js: the MCP server's deliberation worker thread, another shim over dist/heavyBundle.js.
    build({ ...host, entryPoints: ["src/vscode/mcpWorkerMain.ts"], outfile: "dist/mcpWorker.js" }).then((r) => checkShim(r.metafile, "mcpWorker.js")),
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

// The history index's SQLite (node-sqlite3-wasm) gets its WebAssembly binary from next to the bundle that requires
// it (dist/cli.js, dist/heavyBundle.js), stored brotli-compressed: 408 KB instead of 1.28 MB on disk and ~120 KB
// less in the .vsix than zip's deflate manages; unpacking it costs ~5 ms when the history index first opens.
mkdirSync("dist", { recursive: true });
writeCompressedWasm("node_modules/node-sqlite3-wasm/dist/node-sqlite3-wasm.wasm", `dist/${SQLITE_WASM_BR}`);

await Promise.all(jobs);

// The packaged extension ships dist/heavyBundle.js brotli-compressed (src/vscode/loadHeavyBundle.ts unpacks it on
// first use); a development build removes the .br so it can never shadow a newer dist/heavyBundle.js.
if (existsSync("dist/heavyBundle.js")) {
  if (production) writeBrotli(readFileSync("dist/heavyBundle.js"), "dist/heavyBundle.js.br");
  else rmSync("dist/heavyBundle.js.br", { force: true });
}

/** dist/extension.js must not inline any dependency (zod, openai, minisearch, …): those belong in dist/heavyBundle.js. */
function checkActivationBundle(metafile) {
  if (analyze) printInputs(metafile);
  const [file, output] = Object.entries(metafile.outputs).find(([f]) => f.endsWith("extension.js"));
  const deps = Object.keys(output.inputs).filter((p) => p.includes("node_modules/"));
  if (deps.length) {
    const pkgs = [...new Set(deps.map((p) => p.replace(/^.*node_modules\/((?:@[^/]+\/)?[^/]+).*$/, "$1")))];
    throw new Error(`${file} inlines ${pkgs.join(", ")}: the activation path imports a heavy module at run time; go through loadHeavyBundle() (src/vscode/loadHeavyBundle.ts)`);
  }
  if (!output.imports.some((i) => i.path === "./heavyBundle.js" && i.external)) {
    throw new Error(`${file} does not require ./heavyBundle.js lazily: check the heavy-bundle-external plugin in scripts/build.mjs`);
  }
}

/** A shim over dist/heavyBundle.js (dist/mcpServer.js) inlines no dependency and requires ./heavyBundle.js at run time. */
function checkShim(metafile, name) {
  const [file, output] = Object.entries(metafile.outputs).find(([f]) => f.endsWith(name));
  const deps = Object.keys(output.inputs).filter((p) => p.includes("node_modules/"));
  if (deps.length || !output.imports.some((i) => i.path === "./heavyBundle.js" && i.external)) throw new Error(`${file} must only require ./heavyBundle.js (inlines: ${deps.join(", ") || "nothing"})`);
}

function printInputs(metafile, top = 15) {
  for (const [file, output] of Object.entries(metafile.outputs)) {
    if (file.endsWith(".map")) continue;
    const rows = Object.entries(output.inputs).sort((a, b) => b[1].bytesInOutput - a[1].bytesInOutput);
    console.log(`${file}: ${(output.bytes / 1024).toFixed(0)} KB from ${rows.length} inputs; largest:`);
    for (const [p, i] of rows.slice(0, top)) console.log(`  ${(i.bytesInOutput / 1024).toFixed(1).padStart(8)} KB  ${p}`);
  }
}
