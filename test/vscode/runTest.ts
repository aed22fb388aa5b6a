// Extension-host tests with @vscode/test-electron: downloads VS Code 1.100.3 (needs the internet, so this is not
// part of .ci/run here), opens a generated sample repository and runs test/vscode/suite inside the extension host.
// usage: npm run test:vscode     (VSCODE_TEST_VERSION overrides the VS Code version)
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { build } from "esbuild";
import { runTests } from "@vscode/test-electron";
import { createSampleRepo } from "../fixtures/sampleRepo";

const ROOT = resolve(import.meta.dirname, "../..");

async function main(): Promise<void> {
  const outDir = join(ROOT, "out", "test-vscode");
  await build({
    entryPoints: [join(ROOT, "test/vscode/suite/index.ts")],
    outfile: join(outDir, "suite.js"),
    bundle: true,
    platform: "node",
    target: "node20",
    format: "cjs",
    external: ["vscode"],
    sourcemap: true,
    logLevel: "warning",
  });
  const tmp = mkdtempSync(join(tmpdir(), "delib-vscode-test-"));
  const ws = join(tmp, "acme-shop");
  mkdirSync(ws, { recursive: true });
  createSampleRepo(ws);
  try {
    const code = await runTests({
      version: process.env.VSCODE_TEST_VERSION || "1.100.3",
      extensionDevelopmentPath: ROOT,
      extensionTestsPath: join(outDir, "suite.js"),
      extensionTestsEnv: { DELIB_TEST_WORKSPACE: ws },
      launchArgs: [ws, "--disable-extensions", "--disable-workspace-trust", "--skip-welcome", "--skip-release-notes", "--user-data-dir", join(tmp, "user-data")],
    });
    process.exitCode = code;
  } catch (err) {
    console.error("test:vscode failed:", err);
    process.exitCode = 1;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

void main();
