// Bundles the CLI, the extension host and the webview with esbuild. Type checking is a separate step
// (`npm run typecheck`), so a build never waits on tsc.
import { build } from "esbuild";
import { existsSync, mkdirSync, copyFileSync } from "node:fs";

const production = process.argv.includes("--production");
const common = { bundle: true, sourcemap: !production, minify: production, logLevel: "warning", legalComments: "none" };

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
  jobs.push(
    build({
      ...common,
      entryPoints: ["src/vscode/extension.ts"],
      outfile: "dist/extension.js",
      platform: "node",
      target: "node20",
      format: "cjs",
      external: ["vscode"],
    }),
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

await Promise.all(jobs);
