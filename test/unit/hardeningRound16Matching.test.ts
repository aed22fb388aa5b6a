// The third probe's #8: the guard's matching ran synchronously on its caller's thread (the MCP server's, the
// extension host's) with super-linear paths: a pyproject.toml pattern that split runs of spaces every way (O(n²) per
// line), every changed path compared with every other for generated files (O(files²)), every line tried against every
// thing of every decision, and no clock. Each input below took many seconds before; now it is answered in a fraction
// of that, the findings on ordinary changes are those of before, the event loop keeps turning while a large check
// runs, a cancellation stops it, and a time budget cuts it with a report of what was left out.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { checkChange, parseUnifiedDiff, type GuardReport } from "../../src/core/guard";
import { loadDecisions } from "../../src/core/guard/decisions";
import { dependencyOf } from "../../src/core/guard/lines";
import { matchChange } from "../../src/core/guard/match";
import { findName, indexTokens, keysOf, mayName, tokensOf } from "../../src/core/guard/names";
import { makeTempDir, writeFiles } from "../helpers/gitRepo";
import { AGENTS, CSS_ADR, CSS_ADR_PATH } from "../helpers/guardRepo";

const DB_ADR = `# 8. Use PostgreSQL

## Status

Accepted

## Considered Options

* PostgreSQL
* MySQL

## Decision Outcome

Chosen option: "PostgreSQL", because JSONB fits the data.
`;

const CI_ADR = `# 5. Use GitHub Actions as our CI/CD runner

## Status

Accepted

## Decision

We have decided to use GitHub Actions as our CI/CD runner.
`;

const GENERATED_RULE = "- Do not hand-edit generated files such as `*.pb.go`; change the `.proto` source and regenerate.\n";

/** A folder with the decisions (no git: the changes below are diff text, as an agent passes them). */
function decisionsRepo(extra: Record<string, string> = {}): string {
  const repo = makeTempDir("r16-match-");
  writeFiles(repo, { [CSS_ADR_PATH]: CSS_ADR, "docs/adr/0008-use-postgresql.md": DB_ADR, "docs/adr/0005-ci.md": CI_ADR, "AGENTS.md": AGENTS + GENERATED_RULE, ...extra });
  return repo;
}

/** One file's diff: added lines (a new file when `created`), removed lines. */
function fileDiff(path: string, added: string[], removed: string[] = [], created = false): string {
  const head = created ? `diff --git a/${path} b/${path}\nnew file mode 100644\n--- /dev/null\n+++ b/${path}\n` : `diff --git a/${path} b/${path}\n--- a/${path}\n+++ b/${path}\n`;
  const hunk = `@@ -${removed.length ? 1 : 0},${removed.length} +${added.length ? 1 : 0},${added.length} @@\n`;
  return head + hunk + removed.map((l) => `-${l}\n`).join("") + added.map((l) => `+${l}\n`).join("");
}

const check = (repo: string, diff: string, opts: { timeBudgetMs?: number; signal?: AbortSignal } = {}) => checkChange(repo, { kind: "text", diff }, opts);
const summary = (r: GuardReport) => r.findings.map((f) => `${f.severity} ${f.kind} ${f.file}:${f.line} ${f.matched.via} "${f.matched.text}" ← ${f.decision.path}`);

async function timed<T>(run: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const t0 = performance.now();
  const value = await run();
  return { value, ms: performance.now() - t0 };
}

/** 400 rules of five things each, all starting with "libz": what a line of "libzzzz…" tokens may name, every one. */
function manyRules(): string {
  const rules = Array.from({ length: 400 }, (_, i) => `- Do not use libz${i}aq, libz${i}bq, libz${i}cq or libz${i}dq.`);
  return `# Agents\n\n${rules.join("\n")}\n`;
}

/** Lines whose 250 tokens each start like every rule's names and match none: some 10 ms a line for those rules. */
const libzLines = (n: number) => Array.from({ length: n }, (_, i) => `${Array.from({ length: 250 }, (_, j) => `libzz${j}zzq`).join(" ")} ${i}`);

describe("round 16 (#8): the guard's line patterns stay linear", () => {
  test("pyproject.toml and requirements lines read as before; 20,000 adversarial 2,000-character lines in well under a second each", () => {
    const cases: [string, string, string | undefined][] = [
      ["pyproject.toml", '    "requests>=2.31",', "requests"],
      ["pyproject.toml", "  'django[argon2] ~= 4.2' ,", "django"],
      ["pyproject.toml", '"numpy"', "numpy"],
      ["pyproject.toml", '"a b"', undefined],
      ["pyproject.toml", 'requests = "^2.0"', "requests"],
      ["pyproject.toml", 'name = "shop"', undefined],
      ["pyproject.toml", 'pydantic = { version = "2" }', "pydantic"],
      ["requirements.txt", "requests>=2.0", "requests"],
      ["requirements.txt", "  Django [bcrypt] == 4.2  ", "Django"],
      ["requirements.txt", "flask", "flask"],
      ["requirements.txt", "flask   ", "flask"],
      ["requirements.txt", "-r other.txt", undefined],
      ["requirements.txt", "flask # the web framework", undefined],
      ["requirements.txt", "uvicorn[standard]; python_version >= '3.8'", "uvicorn"],
    ];
    for (const [path, line, name] of cases) assert.equal(dependencyOf(path, line), name, `${path}: ${line}`);
    const shapes = ['"a' + " ".repeat(1997) + "x", "'a[" + " ".repeat(1996) + "x", "a" + " ".repeat(1998) + "x", "a" + " ".repeat(1000) + "[" + " ".repeat(997) + "x"];
    for (const path of ["pyproject.toml", "requirements.txt", "setup.cfg"]) {
      for (const line of shapes) {
        const t0 = performance.now();
        for (let i = 0; i < 20_000; i++) dependencyOf(path, line);
        const ms = performance.now() - t0;
        // Before: 1.7 ms a line for the first shape in pyproject.toml (33 s for 20,000 lines).
        assert.ok(ms < 3000, `${path} ${JSON.stringify(line.slice(0, 4))}…: ${Math.round(ms)} ms for 20,000 lines`);
      }
    }
  });

  test("a 19,800-line pyproject.toml diff shaped for the old pattern is checked in seconds, and still finds what it should", async () => {
    const repo = decisionsRepo();
    const lines = Array.from({ length: 19_800 }, () => '"a' + " ".repeat(500) + "x");
    const { value: report, ms } = await timed(() => check(repo, fileDiff("pyproject.toml", [...lines, '"mysqlclient>=2.2",'])));
    // Before: 26 s of one synchronous call on this machine (9.7 s in the probe's).
    assert.ok(ms < 8000, `${Math.round(ms)} ms`);
    assert.deepEqual(summary(report), ['high introduces-rejected-option pyproject.toml:19801 dependency "mysqlclient" ← docs/adr/0008-use-postgresql.md']);
    assert.equal(report.limits.timed_out, false);
  });
});

describe("round 16 (#8): the matching scales with what a change may name, not with files × files or lines × decisions", () => {
  test("4,900 one-line files with distinct stems and a generated-files rule: every finding, in a fraction of the time", async () => {
    const repo = decisionsRepo();
    // Four diff lines a file, so 4,900 of them fit the 20,000-line budget.
    const files = Array.from({ length: 4900 }, (_, i) => `--- /dev/null\n+++ b/src/f${i}.js\n@@ -0,0 +1 @@\n+const db = require("mysql");\n`);
    // A generated file edited by hand is found; one regenerated with its source is not.
    const generated = [fileDiff("api/other.pb.go", ["func X() {}"]), fileDiff("api/transfer.pb.go", ["func Y() {}"]), fileDiff("api/transfer.proto", ["message T {}"])];
    const { value: report, ms } = await timed(() => check(repo, [...files, ...generated].join("")));
    // Before: 14 s (every changed path compared with every other for each file, and each one with every glob).
    assert.ok(ms < 5000, `${Math.round(ms)} ms`);
    assert.equal(report.findings.filter((f) => f.kind === "introduces-rejected-option" && f.matched.text === "mysql").length, 4900);
    assert.deepEqual(
      report.findings.filter((f) => f.file.startsWith("api/")).map((f) => `${f.kind} ${f.file}`),
      ["breaks-rule api/other.pb.go"],
    );
    assert.equal(report.limits.timed_out, false);
  });

  test("300 accepted records of nine options × a 20,000-line change of ordinary code: fast, and the one line that names a rejected option is found", async () => {
    const records: Record<string, string> = {};
    for (let i = 0; i < 300; i++) {
      const rejected = Array.from({ length: 8 }, (_, j) => `* Lib${i}x${String.fromCharCode(97 + j)}\n`).join("");
      records[`docs/adr/${String(i + 1).padStart(4, "0")}-use-chosen${i}.md`] = `# ${i + 1}. Use Chosen${i} for part ${i}\n\n## Status\n\nAccepted\n\n## Considered Options\n\n* Chosen${i}\n${rejected}\n## Decision Outcome\n\nChosen option: "Chosen${i}", because it fits.\n`;
    }
    const repo = makeTempDir("r16-records-");
    writeFiles(repo, records);
    const set = await loadDecisions(repo, {});
    assert.equal(set.decisions.length, 300);
    const lines = Array.from({ length: 19_999 }, (_, i) => `const v${i} = compute(alpha${i}, beta, gamma, delta, epsilon, zeta, eta, theta, iota, kappa);`);
    lines.splice(12_345, 0, 'const z = require("lib7xc");');
    const diff = { ...parseUnifiedDiff(fileDiff("src/big.js", lines)), root: repo };
    // Awaited whether it returns a promise (now) or not (before): only the matching is timed.
    const { value: outcome, ms } = await timed(async () => matchChange(diff, set));
    // Before: 6.4 s here (every line against each of the 2,700 decided things); 15.6 s with 1,000 records in the probe.
    assert.ok(ms < 3000, `${Math.round(ms)} ms`);
    assert.deepEqual(
      outcome.findings.map((f) => `${f.severity} ${f.kind} ${f.file}:${f.line} ${f.matched.text} ← ${f.decision.path}`),
      ["high introduces-rejected-option src/big.js:12346 lib7xc ← docs/adr/0008-use-chosen7.md"],
    );
  });

  test("a decided thing is tried on every line that may name it: the index never drops what mayName lets through", async () => {
    const { ThingIndex, thingEntries } = await import("../../src/core/guard/thingIndex");
    const names = ["PostgreSQL", "Redis", "Tailwind CSS", "React Query", "@vscode/webview-ui-toolkit", "Moment.js", "date-fns", "H2", "Go Kit", "D3", "io", "abc", "a b c"];
    const keys = [...names.map((n) => keysOf(n)).filter((k) => k !== undefined), { display: "log", tokens: [], stems: ["log", "logr"] }, { display: "ab", tokens: [], compact: "ab" }];
    const decisions = keys.map((k, i) => ({ forbidden: [{ name: k.display, keys: k, range: { start: i + 1, end: i + 1 } }], required: [] })) as never;
    const index = new ThingIndex(thingEntries(decisions, "forbidden"));
    const words = ["pg", "postgres", "ioredis", "redis", "tailwindcss", "tail", "wind", "react", "query", "reactquery", "vscode", "webview", "ui", "toolkit", "moment", "momentjs", "date", "fns", "h2database", "go", "kit", "gokit", "d3js", "io", "a", "b", "c", "abc", "logrus", "logger", "zap"];
    let seed = 16;
    const rnd = () => (seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32;
    let tried = 0;
    for (let i = 0; i < 5000; i++) {
      const tokens = tokensOf(Array.from({ length: 1 + Math.floor(rnd() * 6) }, () => words[Math.floor(rnd() * words.length)]).join(" "));
      const ix = indexTokens(tokens);
      const candidates = new Set(index.candidates([ix]).map((e) => e.thing.keys));
      for (const k of keys) {
        if (!mayName(ix, k)) continue;
        tried++;
        assert.ok(candidates.has(k), `${JSON.stringify(k)} not tried on ${JSON.stringify(tokens)} (findName: ${findName(tokens, k)})`);
      }
    }
    assert.ok(tried > 5000, `enough lines that may name a thing: ${tried}`);
  });
});

describe("round 16 (#8): a large check gives the event loop its turns, stops when cancelled, and is cut by its time budget", () => {
  test("an ordinary change: the findings of before, matched whole within the budget", async () => {
    const repo = decisionsRepo();
    const diff = [
      fileDiff("package.json", ['    "tailwindcss": "^3.4.0",', '    "moment": "^2.30.0",'], ['    "pollen-css": "^4.0.0",']),
      fileDiff("src/view.ts", ["el.innerHTML = userText; // not safe", 'import { format } from "date-fns";'], ['import { format } from "date-fns";']),
      fileDiff("Jenkinsfile", ["pipeline { agent any }"], [], true),
      fileDiff("api/ledger.pb.go", ["func (l Ledger) Empty() bool { return true }"]),
      fileDiff("docs/notes.md", ["We looked at MySQL once."]),
    ].join("");
    const report = await check(repo, diff);
    assert.deepEqual(summary(report), [
      'high introduces-rejected-option package.json:1 dependency "tailwindcss" ← docs/adr/0007-use-pollen-css.md',
      'high removes-chosen-option package.json:1 dependency "pollen-css" ← docs/adr/0007-use-pollen-css.md',
      'high breaks-rule package.json:2 dependency "moment" ← AGENTS.md',
      'med removes-chosen-option Jenkinsfile:1 config "a new jenkins configuration" ← docs/adr/0005-ci.md',
      'med breaks-rule api/ledger.pb.go:1 path "api/ledger.pb.go" ← AGENTS.md',
      'med breaks-rule src/view.ts:1 code "innerHTML" ← AGENTS.md',
      'low introduces-rejected-option docs/notes.md:1 doc "MySQL" ← docs/adr/0008-use-postgresql.md',
    ]);
    assert.equal(report.limits.truncated, false);
    assert.equal(report.limits.timed_out, false);
    assert.ok((report.limits.time_budget_ms ?? 0) >= 10_000, "a budget no ordinary check comes near");
  });

  test("the time budget cuts the check and the report says what was left out, as the line budget's cut does", async () => {
    const repo = decisionsRepo({ "AGENTS.md": manyRules() });
    const files = ["a.js", "b.js", "c.js"].map((f) => fileDiff(`src/${f}`, ['const db = require("mysql");'], [], true)).join("");
    const none = await check(repo, files, { timeBudgetMs: 1 });
    assert.deepEqual(none.findings, []);
    assert.equal(none.limits.timed_out, true);
    assert.equal(none.limits.truncated, true, "a cut check is no pass");
    assert.equal(none.limits.time_budget_ms, 1);
    assert.deepEqual(none.skipped.map((s) => s.file), ["src/a.js", "src/b.js", "src/c.js"]);
    assert.ok(none.skipped.every((s) => /time budget ran out/.test(s.reason)), JSON.stringify(none.skipped));
    assert.ok(none.notes.some((n) => /ran out of its 1 ms time budget.*3 changed files were not matched/.test(n)), JSON.stringify(none.notes));
    // Cut inside a file: what was found before the cut stands, and the note names the file and its last line matched.
    const heavy = fileDiff("src/heavy.js", ['const db = require("libz3aq");', ...libzLines(1500)], [], true);
    const { value: part, ms } = await timed(() => check(repo, files + heavy, { timeBudgetMs: 2500 }));
    assert.ok(ms < 9000, `stopped near its budget: ${Math.round(ms)} ms`);
    assert.equal(part.limits.timed_out, true);
    assert.ok(part.findings.some((f) => f.file === "src/heavy.js" && f.line === 1 && f.matched.text === "libz3aq"), summary(part).join("\n"));
    assert.ok(part.notes.some((n) => /src\/heavy\.js was matched only up to line \d+/.test(n)), JSON.stringify(part.notes));
  });

  test("the event loop keeps turning during a large check, and an abort stops it", async () => {
    const repo = decisionsRepo({ "AGENTS.md": manyRules() });
    // Some 10 ms a line (every line may name every rule's thing): 15 s in all, were it not cut.
    const diff = fileDiff("src/heavy.js", libzLines(1500), [], true);
    let last = performance.now();
    let worst = 0;
    const timer = setInterval(() => {
      const now = performance.now();
      worst = Math.max(worst, now - last);
      last = now;
    }, 5);
    try {
      const { value: report, ms } = await timed(() => check(repo, diff, { timeBudgetMs: 3000 }));
      // Let the timer see a wait that ended just now.
      await new Promise((resume) => setTimeout(resume, 30));
      // Before: one synchronous call of many seconds; now a turn every few milliseconds (a line takes ~10 ms).
      assert.ok(worst < 1000, `the longest the event loop waited: ${Math.round(worst)} ms (check: ${Math.round(ms)} ms)`);
      assert.ok(ms > 1000, "a check long enough to mean something");
      assert.deepEqual(report.findings, []);
    } finally {
      clearInterval(timer);
    }
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const started = performance.now();
    await assert.rejects(check(repo, diff, { signal: controller.signal }), (err: Error) => err.name === "AbortError");
    assert.ok(performance.now() - started < 2000, `stopped ${Math.round(performance.now() - started)} ms after the start (aborted at 300 ms)`);
  });
});
