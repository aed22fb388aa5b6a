// `deliberate check` as a real process on real git repositories (issue 22): exit codes by --fail-on, usage errors
// (one line, exit 2), --json against its schema, --sarif validated by the SARIF Multitool, and the documented
// pre-commit hook and GitHub Actions job run as scripts.
import { describe, test, before } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { accessSync, chmodSync, constants, copyFileSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { GuardReportSchema } from "../../src/core/guard";
import { CLI, assertCliBuilt, assertOneLineError, newCliUser, runCli } from "../helpers/cli";
import { GIT_ENV, git, makeTempDir, writeFiles } from "../helpers/gitRepo";
import { CSS_ADR_PATH, createGuardRepo, packageJsonWith } from "../helpers/guardRepo";

const ROOT = resolve(__dirname, "../..");
const user = newCliUser();
const MULTITOOL = join(ROOT, "node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool");

function check(repo: string, args: string[] = []) {
  return runCli(["check", "--repo", repo, ...args], { env: user.env });
}

/** The SARIF Multitool's binary, made executable when npm skipped its install script; undefined when it cannot run. */
function multitool(): string | undefined {
  if (process.platform !== "linux" || !existsSync(MULTITOOL)) return undefined;
  try {
    accessSync(MULTITOOL, constants.X_OK);
  } catch {
    try {
      chmodSync(MULTITOOL, 0o755);
    } catch {
      return undefined;
    }
  }
  const r = spawnSync(MULTITOOL, ["--version"], { encoding: "utf8", timeout: 60_000, env: { ...process.env, DOTNET_CLI_TELEMETRY_OPTOUT: "1" } });
  return r.status === 0 ? MULTITOOL : undefined;
}

/** Errors the Multitool's validator reports for a SARIF file (schema and rule errors). */
function sarifErrors(tool: string, file: string): string[] {
  const out = `${file}.validation.sarif`;
  const r = spawnSync(tool, ["validate", file, "--output", out, "--log", "ForceOverwrite"], { encoding: "utf8", timeout: 120_000, env: { ...process.env, DOTNET_CLI_TELEMETRY_OPTOUT: "1" } });
  assert.equal(r.status, 0, r.stdout + r.stderr);
  const log = JSON.parse(readFileSync(out, "utf8")) as { runs: { results?: { level?: string; ruleId: string; message: { text?: string } }[] }[] };
  return (log.runs[0].results ?? []).filter((x) => x.level === "error").map((x) => `${x.ruleId}: ${x.message.text ?? ""}`);
}

describe("deliberate check", () => {
  before(() => assertCliBuilt());

  test("a rejected option fails at the default threshold (high) and names the record", () => {
    const repo = createGuardRepo();
    try {
      writeFiles(repo, { "package.json": packageJsonWith({ tailwindcss: "^3.4.0" }) });
      const r = check(repo);
      assert.equal(r.code, 1, r.stderr);
      assert.match(r.stdout, /HIGH introduces-rejected-option {2}package\.json:8/);
      assert.match(r.stdout, new RegExp(`decision: ${CSS_ADR_PATH}:15 \\(accepted\\)`));
      assert.match(r.stdout, /1 finding \(1 high, 0 med, 0 low\)/);
      assert.equal(check(repo, ["--fail-on", "never"]).code, 0);
      assert.equal(check(repo, ["--fail-on", "med"]).code, 1);
      const json = check(repo, ["--json", "--fail-on", "never"]);
      assert.equal(json.code, 0);
      const report = GuardReportSchema.parse(JSON.parse(json.stdout));
      assert.equal(report.findings[0].decision.path, CSS_ADR_PATH);
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  });

  test("--fail-on: a med finding fails only at med; a comment (low) and an innocent change never fail", () => {
    const repo = createGuardRepo();
    try {
      writeFiles(repo, { "src/app.ts": "import { format } from \"date-fns\";\n\nexport function show(el: HTMLElement) { el.innerHTML = format(new Date(), \"yyyy\"); }\n" });
      assert.equal(check(repo).code, 0);
      assert.equal(check(repo, ["--fail-on", "med"]).code, 1);
      writeFiles(repo, { "src/app.ts": "import { format } from \"date-fns\";\n\n// not Tailwind: ADR 7 chose Pollen CSS\nexport const today = () => format(new Date(), \"yyyy-MM-dd\");\n" });
      const low = check(repo, ["--fail-on", "med", "--json"]);
      assert.equal(low.code, 0, low.stdout);
      assert.ok(JSON.parse(low.stdout).findings.every((f: { severity: string }) => f.severity === "low"));
      git(repo, ["checkout", "--", "src/app.ts"]);
      writeFiles(repo, { "README.md": "# Shop\n\nSells things.\n" });
      const innocent = check(repo, ["--fail-on", "med"]);
      assert.equal(innocent.code, 0);
      assert.match(innocent.stdout, /^0 findings/m);
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  });

  test("a picked deliberation is a decision: adding the option it turned down is found, citing the receipt", () => {
    const repo = createGuardRepo();
    try {
      const asked = runCli(["Should we use Redis or Memcached for the session cache?", "--repo", repo, "--json", "--offline"], { env: user.env });
      assert.equal(asked.code, 0, asked.stderr);
      const picker = JSON.parse(asked.stdout) as { options: { id: string; title: string }[]; receipt_ref: string };
      const memcached = picker.options.find((o) => /memcached/i.test(o.title));
      assert.ok(memcached && picker.options.some((o) => /redis/i.test(o.title)), JSON.stringify(picker.options));
      assert.equal(runCli(["pick", picker.receipt_ref, memcached.id, "--repo", repo], { env: user.env }).code, 0);
      writeFiles(repo, { "package.json": packageJsonWith({ ioredis: "^5.4.0" }) });
      const r = check(repo, ["--json", "--fail-on", "never"]);
      const f = (JSON.parse(r.stdout) as { findings: { kind: string; severity: string; decision: { path: string; status: string } }[] }).findings.find((x) => x.decision.path.startsWith(".deliberations/"));
      assert.ok(f, r.stdout);
      assert.equal(f.kind, "introduces-rejected-option");
      assert.equal(f.severity, "high");
      assert.equal(f.decision.path, `.deliberations/${picker.receipt_ref}.json`);
      assert.equal(f.decision.status, "picked");
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  });

  test("bad input is one line on stderr with exit 2", () => {
    const repo = createGuardRepo();
    const plain = makeTempDir("delib-guard-plain-");
    try {
      assertOneLineError(check(repo, ["--json", "--sarif"]), 2, /--json or --sarif/);
      assertOneLineError(check(repo, ["--fail-on", "always"]), 2, /--fail-on: expected high, med or never/);
      assertOneLineError(check(repo, ["--staged", "--diff", "HEAD"]), 2, /one of --diff, --staged or --files/);
      assertOneLineError(check(repo, ["--diff", "no-such-ref"]), 2, /unknown revision/);
      assertOneLineError(check(repo, ["--diff", "--upload-pack=x"]), 2, /./);
      assertOneLineError(check(repo, ["--files", "../../etc/passwd"]), 2, /not a file inside the repository/);
      assertOneLineError(check(repo, ["stray"]), 2, /unexpected argument/);
      assertOneLineError(check(plain), 2, /not a git repository/);
    } finally {
      rmSync(repo, { recursive: true, force: true });
      rmSync(plain, { recursive: true, force: true });
    }
  });

  test("--sarif is SARIF 2.1.0 that the SARIF Multitool validates", (t) => {
    const repo = createGuardRepo();
    try {
      writeFiles(repo, {
        "package.json": packageJsonWith({ tailwindcss: "^3.4.0", moment: "^2.30.0" }),
        "src/my view.ts": "export function show(el: HTMLElement, s: string) { el.innerHTML = s; } // tailwind later\n",
      });
      const r = check(repo, ["--sarif"]);
      assert.equal(r.code, 1, r.stderr);
      const sarif = JSON.parse(r.stdout);
      assert.equal(sarif.version, "2.1.0");
      const results = sarif.runs[0].results as { ruleId: string; level: string; locations: { physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } } }[] }[];
      assert.ok(results.some((x) => x.ruleId === "introduces-rejected-option" && x.level === "error" && x.locations[0].physicalLocation.artifactLocation.uri === "package.json"));
      assert.ok(results.some((x) => x.ruleId === "breaks-rule" && x.level === "warning" && x.locations[0].physicalLocation.artifactLocation.uri === "src/my%20view.ts"));
      const tool = multitool();
      if (!tool) {
        t.skip("the SARIF Multitool's linux binary cannot run here (not installed, or not executable); the schema assertions above still ran");
        return;
      }
      const file = join(makeTempDir("delib-guard-sarif-"), "results.sarif");
      writeFileSync(file, r.stdout);
      assert.deepEqual(sarifErrors(tool, file), []);
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  });

  test("the pre-commit hook (scripts/guard/pre-commit) blocks a commit that adds a rejected option and lets an innocent one through", () => {
    const repo = createGuardRepo();
    try {
      copyFileSync(join(ROOT, "scripts/guard/pre-commit"), join(repo, ".git/hooks/pre-commit"));
      chmodSync(join(repo, ".git/hooks/pre-commit"), 0o755);
      const env = { ...user.env, ...GIT_ENV, DELIBERATE: `${process.execPath} ${CLI}`, XDG_CACHE_HOME: user.cacheHome, DELIBERATIVE_KEY_DIR: user.keyDir };
      const commit = (message: string) => spawnSync("git", ["commit", "-q", "-m", message], { cwd: repo, env, encoding: "utf8", timeout: 60_000 });
      const head = git(repo, ["rev-parse", "HEAD"]).trim();
      writeFiles(repo, { "package.json": packageJsonWith({ tailwindcss: "^3.4.0" }) });
      git(repo, ["add", "package.json"]);
      const blocked = commit("add tailwind");
      assert.notEqual(blocked.status, 0, "the hook must stop the commit");
      assert.match(blocked.stdout + blocked.stderr, /introduces-rejected-option {2}package\.json:8/);
      assert.equal(git(repo, ["rev-parse", "HEAD"]).trim(), head);
      // Unstaged changes are not the commit's: only the staged innocent change is checked.
      git(repo, ["reset", "-q", "package.json"]);
      writeFiles(repo, { "README.md": "# Shop\n\nSells things.\n" });
      git(repo, ["add", "README.md"]);
      const passed = commit("readme");
      assert.equal(passed.status, 0, passed.stdout + passed.stderr);
      assert.notEqual(git(repo, ["rev-parse", "HEAD"]).trim(), head);
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  });

  test("the documented GitHub Actions step (scripts/guard/decision-guard.yml) fails a branch that breaks a decision and writes valid SARIF", () => {
    const workflow = readFileSync(join(ROOT, "scripts/guard/decision-guard.yml"), "utf8");
    const step = /- name: deliberate check\n(?:.*\n)*?\s+run: \|\n((?:\s{10}.*\n)+)/.exec(workflow);
    assert.ok(step, "the workflow has the deliberate check step");
    const script = step[1].replace(/^ {10}/gm, "");
    const bin = makeTempDir("delib-guard-bin-");
    writeFileSync(join(bin, "deliberate"), `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`, { mode: 0o755 });
    const run = (repo: string) =>
      spawnSync("sh", ["-e", "-c", script], { cwd: repo, env: { ...user.env, ...GIT_ENV, BASE_REF: "main", PATH: `${bin}:${process.env.PATH}` }, encoding: "utf8", timeout: 60_000 });
    const branch = (files: Record<string, string>) => {
      const repo = createGuardRepo();
      // What actions/checkout leaves: the base branch as origin/main, the pull request's commits checked out.
      git(repo, ["update-ref", "refs/remotes/origin/main", "HEAD"]);
      git(repo, ["checkout", "-q", "-b", "feature"]);
      writeFiles(repo, files);
      git(repo, ["add", "-A"]);
      git(repo, ["commit", "-qm", "feature"]);
      // main moves on meanwhile: its later commits are not the branch's doing.
      git(repo, ["checkout", "-q", "main"]);
      writeFiles(repo, { "src/other.ts": "export const other = 1;\n" });
      git(repo, ["add", "-A"]);
      git(repo, ["commit", "-qm", "main moves"]);
      git(repo, ["update-ref", "refs/remotes/origin/main", "HEAD"]);
      git(repo, ["checkout", "-q", "feature"]);
      return repo;
    };
    const bad = branch({ "package.json": packageJsonWith({ tailwindcss: "^3.4.0" }) });
    const good = branch({ "README.md": "# Shop\n\nSells things.\n" });
    try {
      const failed = run(bad);
      assert.equal(failed.status, 1, failed.stdout + failed.stderr);
      const sarif = JSON.parse(readFileSync(join(bad, "results.sarif"), "utf8"));
      assert.equal(sarif.runs[0].results.length, 1);
      assert.equal(sarif.runs[0].results[0].ruleId, "introduces-rejected-option");
      const passed = run(good);
      assert.equal(passed.status, 0, passed.stdout + passed.stderr);
      assert.deepEqual(JSON.parse(readFileSync(join(good, "results.sarif"), "utf8")).runs[0].results, []);
    } finally {
      for (const d of [bad, good, bin]) rmSync(d, { recursive: true, force: true });
    }
  });
});
