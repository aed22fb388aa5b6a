// The decision guard's latency (issue 22): the shipped CLI, `deliberate check --json` on a working tree with a
// 500-line diff, with a warm corpus snapshot (the first runs build it; only the later ones are measured). Target:
// ≤ 1 s p95. On JabRef/jabref at the eval's pinned commit (about 60 records, 4,400 files) when its mirror is here,
// else on the guard's small test repository.
//
//   node --import tsx bench/guard.ts [rounds]        on its own (npm run build first)
//
// The diff: a dependency the records turned down in a Gradle build file, a new Java source file of imports and code,
// a new Markdown page, and edits to an existing file: 500 added or removed lines in all, so every line kind the
// guard reads (dependency, import, code, comment, doc) is there. Each run is a fresh process, as the pre-commit hook
// and CI run it; the corpus snapshot lives in the bench's own XDG_CACHE_HOME.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import { dirname, join, resolve } from "node:path";
import { createGuardRepo } from "../test/helpers/guardRepo";
import { dist, printStandalone, round, type Dist } from "./stats";

export const GUARD_DIFF_LINES = 500;
export const GUARD_TARGET_MS = 1000;

export interface GuardBenchResult {
  repo: string;
  /** Lines the diff adds or removes (git diff --numstat against HEAD). */
  diffLines: number;
  rounds: number;
  /** The first run: discovery builds the corpus snapshot. */
  coldMs: number;
  warm: Dist;
  findings: number;
  decisions: number;
  error?: string;
}

function git(dir: string, args: string[], input?: string): string {
  return execFileSync("git", ["-c", "core.hooksPath=/dev/null", ...args], {
    cwd: dir,
    input,
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
    stdio: ["pipe", "pipe", "pipe"],
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" },
  });
}

/** A full checkout of JabRef/jabref at the eval's pinned commit (blobs the mirror lacks left out), or why not. */
export function jabrefCheckout(root: string, workRoot: string, name = "JabRef/jabref"): string | { skip: string } {
  // Any repository of the eval's corpus (development or test half) checks out the same way; JabRef is the default.
  const repos = ["corpus.json", "corpus-test.json"]
    .map((f) => join(root, "eval", f))
    .filter((f) => existsSync(f))
    .flatMap((f) => (JSON.parse(readFileSync(f, "utf8")) as { repos: { name: string; mirror: string; sha: string }[] }).repos);
  const spec = repos.find((r) => r.name === name);
  if (!spec) return { skip: `${name} is not in eval/corpus.json or eval/corpus-test.json` };
  const mirrors = process.env.MIRRORS ?? "/work/.mirror";
  const mirror = [join(mirrors, spec.mirror, "repo"), join(mirrors, spec.mirror)].find((p) => existsSync(join(p, "HEAD")));
  if (!mirror) return { skip: `no mirror under ${join(mirrors, spec.mirror)}` };
  const dir = join(workRoot, `${name === "JabRef/jabref" ? "jabref" : spec.mirror}-${spec.sha.slice(0, 12)}`);
  try {
    git(workRoot, ["clone", "-q", "--shared", "--no-checkout", mirror, dir]);
    const blobs = git(dir, ["ls-tree", "-r", "-z", spec.sha])
      .split("\0")
      .map((e) => /^\d+ blob ([0-9a-f]+)\t([\s\S]+)$/.exec(e))
      .filter((m): m is RegExpExecArray => !!m);
    const missing = new Set(
      git(dir, ["cat-file", "--batch-check"], blobs.map((m) => m[1]).join("\n") + "\n")
        .split("\n")
        .filter((l) => l.endsWith(" missing"))
        .map((l) => l.split(" ")[0]),
    );
    if (missing.size) {
      git(dir, ["config", "core.sparseCheckout", "true"]);
      const excluded = blobs.filter((m) => missing.has(m[1])).map((m) => `!/${m[2].replace(/[\\*?[\]!#]/g, (c) => `\\${c}`)}`);
      writeFileSync(join(dir, ".git", "info", "sparse-checkout"), ["/*", ...excluded].join("\n") + "\n");
    }
    git(dir, ["checkout", "-q", "--detach", spec.sha]);
    return dir;
  } catch (err) {
    return { skip: `could not check out ${spec.name}: ${(err as Error).message.split("\n")[0]}` };
  }
}

/** Writes a change of exactly `GUARD_DIFF_LINES` changed lines; `build` is a Gradle/npm manifest to add one dependency to. */
export function writeDiff(dir: string, build: { file: string; after: string; line: string } | undefined): void {
  let budget = GUARD_DIFF_LINES;
  if (build) {
    const abs = join(dir, build.file);
    const lines = readFileSync(abs, "utf8").split("\n");
    const at = lines.findIndex((l) => l.includes(build.after));
    lines.splice(at < 0 ? lines.length : at + 1, 0, build.line);
    writeFileSync(abs, lines.join("\n"));
    budget -= 1;
  }
  const doc = ["# Guard bench notes", "", ...Array.from({ length: 38 }, (_, i) => `Line ${i} of a page that talks about the build, templates and tests.`)];
  mkdirSync(join(dir, "docs", "bench"), { recursive: true });
  writeFileSync(join(dir, "docs", "bench", "guard-bench.md"), doc.join("\n") + "\n");
  budget -= doc.length;
  const imports = ["import java.util.List;", "import java.util.Map;", "import org.slf4j.Logger;", "import org.slf4j.LoggerFactory;"];
  const head = ["package org.jabref.logic.bench;", "", ...imports, "", "public class GuardBench {"];
  const tail = ["}"];
  const body: string[] = [];
  for (let i = 0; body.length < budget - head.length - tail.length; i++) {
    body.push(i % 10 === 0 ? `    // step ${i}: keeps the values in order` : `    static int value${i}(Map<String, List<Integer>> m) { return m.containsKey("k${i}") ? m.get("k${i}").size() : ${i}; }`);
  }
  const file = join(dir, "src", "main", "java", "org", "jabref", "logic", "bench", "GuardBench.java");
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, [...head, ...body, ...tail].join("\n") + "\n");
}

export function diffLines(dir: string): number {
  git(dir, ["add", "-N", "."]);
  // A checkout written in the same second as its index leaves every entry "racily clean": each git diff would then
  // re-read all 4,400 files. A working copy in use has long had its index refreshed; do that once, a second later.
  execFileSync("sleep", ["1.1"]);
  git(dir, ["status", "--porcelain"]);
  return git(dir, ["diff", "--numstat", "HEAD"])
    .split("\n")
    .filter(Boolean)
    .reduce((n, l) => n + (Number(l.split("\t")[0]) || 0) + (Number(l.split("\t")[1]) || 0), 0);
}

export async function measureGuard(root: string, log: (m: string) => void, rounds = 20): Promise<GuardBenchResult> {
  const cli = join(root, "dist", "cli.js");
  if (!existsSync(cli)) throw new Error(`${cli} is missing; run npm run build`);
  const workRoot = mkdtempSync(join(os.tmpdir(), "delib-bench-guard-"));
  try {
    const jabref = jabrefCheckout(root, workRoot);
    let dir: string;
    let name: string;
    if (typeof jabref === "string") {
      dir = jabref;
      name = "JabRef/jabref";
      writeDiff(dir, { file: "jablib/build.gradle.kts", after: 'antlr("org.antlr:antlr4")', line: '    testImplementation("org.hamcrest:hamcrest:3.0")' });
    } else {
      log(`guard bench: ${jabref.skip}; using the guard's test repository`);
      dir = createGuardRepo();
      name = "guard test repository";
      writeDiff(dir, undefined);
    }
    const lines = diffLines(dir);
    const env = { ...process.env, NO_COLOR: "1", XDG_CACHE_HOME: join(workRoot, "xdg-cache"), DELIBERATIVE_KEY_DIR: join(workRoot, "keys"), DELIBERATIVE_NO_BACKGROUND_INDEX: "1" };
    const run = () => {
      const t = performance.now();
      const out = execFileSync(process.execPath, [cli, "check", "--repo", dir, "--json", "--fail-on", "never"], { env, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
      return { ms: performance.now() - t, report: JSON.parse(out) as { findings: unknown[]; checked: { decisions: number } } };
    };
    log(`guard bench: ${name}, ${lines}-line diff; cold run, one warm-up, then ${rounds} rounds`);
    const cold = run();
    run();
    const times: number[] = [];
    let last = cold.report;
    for (let i = 0; i < rounds; i++) {
      const r = run();
      times.push(r.ms);
      last = r.report;
    }
    return { repo: name, diffLines: lines, rounds, coldMs: round(cold.ms), warm: dist(times), findings: last.findings.length, decisions: last.checked.decisions };
  } finally {
    rmSync(workRoot, { recursive: true, force: true });
  }
}

export function guardLines(g: GuardBenchResult | undefined): string[] {
  if (!g) return [];
  if (g.error) return ["", `Decision guard: ${g.error}`];
  return [
    "",
    `Decision guard (deliberate check --json, ${g.repo}, ${g.diffLines}-line diff, ${g.decisions} decisions, ${g.findings} findings)`,
    `  cold (snapshot built) ${g.coldMs.toFixed(0)} ms; warm p50 ${g.warm.p50.toFixed(0)} ms, p95 ${g.warm.p95.toFixed(0)} ms, max ${g.warm.max.toFixed(0)} ms (n=${g.warm.n})`,
  ];
}

export function guardTarget(g: GuardBenchResult | undefined): { name: string; target: string; measured: string; status: "PASS" | "MISS" | "n/a" } {
  const name = "deliberate check, 500-line diff, warm snapshot (p95)";
  const target = `≤ ${GUARD_TARGET_MS} ms`;
  if (!g || g.error) return { name, target, measured: g?.error ?? "not run", status: "n/a" };
  return { name, target, measured: `${g.warm.p95.toFixed(0)} ms (${g.repo})`, status: g.warm.p95 <= GUARD_TARGET_MS ? "PASS" : "MISS" };
}

if (require.main === module) {
  const rounds = Number(process.argv[2] ?? 20);
  printStandalone(measureGuard(resolve(__dirname, ".."), (m) => process.stderr.write(`${m}\n`), rounds), guardLines, guardTarget);
}
