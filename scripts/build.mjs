// Bundles the CLI, the extension host and the webview with esbuild. Type checking is a separate step
// (`npm run typecheck`), so a build never waits on tsc.
//
// The extension host is two bundles, so activation stays cheap: dist/extension.js (the activation path: commands,
// tree, CodeLens, picker wiring; no zod, no model SDK, no core pipeline) and dist/heavyBundle.js
// (src/vscode/heavyBundle.ts: the core pipeline and everything heavy), which extension.js requires on first use
// (src/vscode/loadHeavyBundle.ts).
// `--analyze` prints the largest inputs of both bundles.
import { build } from "esbuild";
import { existsSync, mkdirSync, copyFileSync } from "node:fs";
import { resolve } from "node:path";

const production = process.argv.includes("--production");
const analyze = process.argv.includes("--analyze");
const common = { bundle: true, sourcemap: !production, minify: production, logLevel: "warning", legalComments: "none" };

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
  const host = { ...common, platform: "node", target: "node20", format: "cjs", external: ["vscode"], plugins: [heavyBundleExternal], metafile: true };
  jobs.push(
    build({ ...host, entryPoints: ["src/vscode/extension.ts"], outfile: "dist/extension.js" }).then((r) => checkActivationBundle(r.metafile)),
    build({ ...host, plugins: [...host.plugins, mcpWithoutAjv], entryPoints: ["src/vscode/heavyBundle.ts"], outfile: "dist/heavyBundle.js" }).then((r) => analyze && printInputs(r.metafile)),
    // dist/mcpServer.js: `node dist/mcpServer.js --repo DIR`, a shim over dist/heavyBundle.js (the MCP server lives there).
    build({ ...host, entryPoints: ["src/vscode/mcpServerMain.ts"], outfile: "dist/mcpServer.js", banner: { js: "#!/usr/bin/env node" } }).then((r) => checkShim(r.metafile, "mcpServer.js")),
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
// requires it (dist/cli.js, dist/heavyBundle.js).
mkdirSync("dist", { recursive: true });
copyFileSync("node_modules/node-sqlite3-wasm/dist/node-sqlite3-wasm.wasm", "dist/node-sqlite3-wasm.wasm");

await Promise.all(jobs);

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
