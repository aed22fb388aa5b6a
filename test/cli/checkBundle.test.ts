// `deliberate check` runs from a bundle of its own (src/cli/checkMain.ts → dist/cliCheck.js) that never loads the
// deliberation pipeline: its static imports do not reach the pipeline, the model clients or web extraction, the
// launcher runs it for `check` (its code cache is the one written), and it answers like the full CLI did.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { assertCliBuilt, newCliUser, runCli } from "../helpers/cli";
import { writeFiles } from "../helpers/gitRepo";
import { createGuardRepo, packageJsonWith } from "../helpers/guardRepo";

const ROOT = resolve(__dirname, "../..");

/** The .ts files a source reaches through value imports (type-only imports are erased by the bundler). */
function reached(entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, "utf8");
    const specs = [
      ...[...text.matchAll(/(?:^|\n)\s*(?:import|export)(\s+type)?\s[^;]*?from\s+["']([^"']+)["']/g)].filter((m) => !m[1]).map((m) => m[2]),
      ...[...text.matchAll(/\b(?:require|import)\(\s*["']([^"']+)["']\s*\)/g)].map((m) => m[1]),
    ];
    for (const spec of specs) {
      if (!spec.startsWith(".")) continue;
      const base = resolve(dirname(file), spec).replace(/\.js$/, "");
      const next = [`${base}.ts`, join(base, "index.ts")].find((p) => existsSync(p));
      if (next) visit(next);
    }
  };
  visit(entry);
  return seen;
}

describe("deliberate check's own bundle", () => {
  test("reaches the guard but not the deliberation pipeline, model clients or web extraction", () => {
    const files = [...reached(join(ROOT, "src/cli/checkMain.ts"))].map((f) => relative(ROOT, f));
    assert.ok(files.includes("src/core/guard/index.ts"), files.join("\n"));
    // The model's error classes are plain data (cancellation shares them); its clients and prompts are the weight.
    const heavy = files.filter((f) => f === "src/core/pipeline.ts" || (f.startsWith("src/core/model/") && f !== "src/core/model/errors.ts") || f.startsWith("src/core/external/") || f === "src/cli/main.ts");
    assert.deepEqual(heavy, [], `checkMain.ts reaches: ${heavy.join(", ")}`);
  });

  test("the launcher runs it for check: same report and exit codes, its own code cache", () => {
    assertCliBuilt();
    assert.ok(existsSync(join(ROOT, "dist", "cliCheck.js")), "dist/cliCheck.js is built");
    const user = newCliUser();
    const repo = createGuardRepo();
    try {
      writeFiles(repo, { "package.json": packageJsonWith({ tailwindcss: "^3.4.0" }) });
      const run = runCli(["check", "--repo", repo, "--json"], { env: user.env });
      assert.equal(run.code, 1, run.stderr);
      const report = JSON.parse(run.stdout) as { findings: { kind: string; file: string }[] };
      assert.deepEqual(report.findings.map((f) => [f.kind, f.file]), [["introduces-rejected-option", "package.json"]]);
      const bad = runCli(["check", "--repo", join(repo, "missing")], { env: user.env });
      assert.equal(bad.code, 2);
      assert.match(bad.stderr, /^deliberate: repository path does not exist: /);
      const v8 = join(user.cacheHome, "deliberative-search", "v8");
      const caches = existsSync(v8) ? readdirSync(v8) : [];
      assert.ok(caches.some((n) => /^cliCheck-.*-check\.bin$/.test(n)), `code caches: ${caches.join(", ")}`);
      assert.ok(!caches.some((n) => n.startsWith("cliMain-")), "the full CLI bundle was not loaded");
    } finally {
      rmSync(repo, { recursive: true, force: true });
      rmSync(user.keyDir, { recursive: true, force: true });
      rmSync(user.cacheHome, { recursive: true, force: true });
    }
  });
});
