// The code-usage expert on real git repositories with known usage: exact file counts per option, examples cited as
// path:line, prose and comments never counted, vendored / minified / generated / oversized / ignored files skipped
// (with a reason where git shows them), the budget cut reported, the same figures run after run. Outside git the
// folder is walked: the same figures, the walk's count budget reported; and the code state a cached turn is keyed by
// moves with every change the count would see, and only with those.
import { describe, test, before } from "node:test";
import assert from "node:assert/strict";
import { cpSync, rmSync } from "node:fs";
import { join } from "node:path";
import { classifyUsageFile, codeUsageState, countCodeUsage, describeUsage, inUsageScope, isImportLine, usableTerms, usagePathspecs } from "../../src/core/internal/codeUsage";
import { optionTermsFor } from "../../src/core/synth/codeUsage";
import { commit, createGitRepo, makeTempDir, writeFiles } from "../helpers/gitRepo";

const OPTIONS = [
  { id: "opt-moment", title: "Keep moment", terms: ["moment"] },
  { id: "opt-date-fns", title: "Use date-fns", terms: ["date-fns"] },
  { id: "opt-luxon", title: "Use Luxon", terms: ["luxon"] },
];

function momentFiles(n: number): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < n; i++) out[`src/feature${String(i).padStart(2, "0")}.ts`] = `// feature ${i}\nimport moment from "moment";\nexport const t${i} = moment();\n`;
  return out;
}

describe("code usage: exact counts on a synthetic repository", () => {
  let repo: string;
  before(() => {
    repo = createGitRepo([
      {
        message: "app",
        files: {
          "package.json": `{\n  "name": "app",\n  "dependencies": {\n    "date-fns": "^3.6.0",\n    "moment": "^2.30.1",\n    "moment-timezone": "^0.5.0"\n  }\n}\n`,
          ...momentFiles(7),
          "src/dates.ts": `import { format } from "date-fns";\nexport const f = format;\n`,
          "src/multi.ts": `import {\n  parseISO,\n} from "date-fns";\n`,
          "src/tz.ts": `import tz from "moment-timezone";\n`,
          "src/comment-only.ts": `// we used to use moment here\nexport const x = "moment";\n`,
          "server/main.py": `import luxon\n`,
          "cmd/main.go": `package main\n\nimport (\n\t"fmt"\n\tlx "github.com/example/luxon"\n)\n`,
          "docs/adr/0001-dates.md": `# Use date-fns\n\nWe chose date-fns over moment.\n`,
          "README.md": "moment moment moment\n",
          "Dockerfile": "FROM node:20\nRUN npm install -g luxon\n",
          ".github/workflows/ci.yml": "jobs:\n  test:\n    steps:\n      - run: npx date-fns-cli\n      - run: echo moment\n",
          "vendor/lib/moment.js": `import moment from "moment";\n`,
          "public/app.min.js": `import moment from "moment";\n`,
          "src/generated/client.ts": `import moment from "moment";\n`,
          "src/bundle.ts": `import moment from "moment"; ${"x".repeat(1200)}\n`,
          // One line far longer than a pipe chunk: read once, kept only as far as it matters, skipped.
          "src/huge.js": `import moment from "moment"; ${"y".repeat(3_000_000)}\nimport more from "moment";\n`,
          "yarn.lock": `moment@^2.30.1:\n  version "2.30.1"\n${"# padding\n".repeat(300)}`,
          "assets/blob.bin": Buffer.concat([Buffer.from("import moment from \"moment\"\n"), Buffer.from([0, 1, 2, 3])]),
          ".gitignore": "ignored/\n",
        },
      },
    ]);
    // An ignored file never counts; an untracked one that is not ignored does; the receipts folder never does.
    writeFiles(repo, {
      "ignored/x.ts": `import moment from "moment";\n`,
      "src/untracked.ts": `import { addDays } from "date-fns";\n`,
      ".deliberations/cache/y.ts": `import moment from "moment";\n`,
    });
  });

  test("counts each option's files exactly and cites up to three example lines", async () => {
    const r = await countCodeUsage(repo, OPTIONS, { excludeDirs: [".deliberations"], maxLockBytes: 1024 });
    assert.equal(r.status, "ok");
    assert.equal(r.truncated, undefined);
    const [moment, dateFns, luxon] = r.options;
    // package.json + 7 feature files + the CI workflow line (not tz.ts, comment-only.ts, README, the record, vendored, minified, generated,
    // the long-line file, the oversized lock, the binary, the ignored file or the receipts folder).
    assert.equal(moment.files, 9, JSON.stringify(moment));
    assert.deepEqual(moment.byKind, { manifest: 1, lock: 0, import: 7, infra: 1 });
    assert.deepEqual(
      moment.examples.map((e) => `${e.path}:${e.line}`),
      ["package.json:5", "src/feature00.ts:2", "src/feature01.ts:2"],
    );
    assert.equal(describeUsage(moment), "moment: 9 files (package.json:5, src/feature00.ts:2, src/feature01.ts:2, …)");
    // package.json, dates.ts, multi.ts (the `} from` line), the untracked file; not the CI line's date-fns-cli.
    assert.equal(dateFns.files, 4, JSON.stringify(dateFns));
    assert.ok(dateFns.examples.some((e) => e.path === "src/multi.ts" && e.line === 3));
    // Python import, Go import block, Dockerfile.
    assert.equal(luxon.files, 3, JSON.stringify(luxon));
    assert.deepEqual(luxon.byKind, { manifest: 0, lock: 0, import: 2, infra: 1 });
    const reasons = new Map(r.skipped.map((s) => [s.path, s.reason]));
    assert.equal(reasons.get("vendor/lib/moment.js"), "vendored folder");
    assert.equal(reasons.get("public/app.min.js"), "minified bundle");
    assert.equal(reasons.get("src/generated/client.ts"), "generated code");
    assert.match(reasons.get("src/bundle.ts") ?? "", /^minified or generated \(a line over 1000 characters\)$/);
    assert.match(reasons.get("src/huge.js") ?? "", /minified or generated/);
    assert.match(reasons.get("yarn.lock") ?? "", /^lock file is 0\.0 MB \(limit 0 MB\)$/);
    assert.ok(!reasons.has("ignored/x.ts") && !reasons.has(".deliberations/cache/y.ts"));
    assert.match(r.reason ?? "", /6 files skipped/);
  });

  test("the same work tree gives the same figures, run after run", async () => {
    const a = await countCodeUsage(repo, OPTIONS, { excludeDirs: [".deliberations"] });
    const b = await countCodeUsage(repo, OPTIONS, { excludeDirs: [".deliberations"] });
    assert.deepEqual({ ...a, ms: 0 }, { ...b, ms: 0 });
    // With a lock file under the limit, its line counts (a lock file is a use too).
    assert.equal(a.options[0].files, 10);
    assert.equal(a.options[0].byKind.lock, 1);
  });

  test("a zero budget is reported as a cut, never as exact", async () => {
    const r = await countCodeUsage(repo, OPTIONS, { budgetMs: 0 });
    assert.equal(r.truncated, true);
    assert.match(r.reason ?? "", /cut at the 0 ms budget: counts are lower bounds/);
  });

  test("outside git the folder is walked: the very same figures, examples and skips", async () => {
    // The same files without .git: the walk honours .gitignore, prunes the receipts folder, reads untracked files.
    const plain = makeTempDir();
    cpSync(repo, plain, { recursive: true, filter: (src) => !/[\\/]\.git(?:[\\/]|$)/.test(src) });
    const viaGit = await countCodeUsage(repo, OPTIONS, { excludeDirs: [".deliberations"], maxLockBytes: 1024 });
    const walked = await countCodeUsage(plain, OPTIONS, { excludeDirs: [".deliberations"], maxLockBytes: 1024 });
    assert.equal(walked.status, "ok");
    assert.equal(walked.truncated, undefined);
    assert.deepEqual(
      walked.options.map((u) => [u.files, u.byKind, u.examples]),
      viaGit.options.map((u) => [u.files, u.byKind, u.examples]),
    );
    assert.deepEqual(walked.options.map((u) => u.files), [9, 4, 3]);
    assert.deepEqual(walked.skipped, viaGit.skipped);
    assert.equal(walked.reason, viaGit.reason);
  });

  test("the walk stops at its file budget, says so, and cuts the same way every run", async () => {
    const plain = makeTempDir();
    const files: Record<string, string> = {};
    for (let i = 0; i < 30; i++) files[`src/f${String(i).padStart(2, "0")}.ts`] = `import moment from "moment";
`;
    writeFiles(plain, files);
    const whole = await countCodeUsage(plain, OPTIONS);
    assert.equal(whole.options[0].files, 30);
    const a = await countCodeUsage(plain, OPTIONS, { walk: { maxFiles: 10 } });
    const b = await countCodeUsage(plain, OPTIONS, { walk: { maxFiles: 10 } });
    assert.equal(a.truncated, true);
    assert.match(a.reason ?? "", /walk stopped at its 10-file budget \(10 files visited\): counts are lower bounds/);
    // Name order: the first ten files, whatever order the file system lists them in.
    assert.equal(a.options[0].files, 10);
    assert.deepEqual(a.options[0].examples.map((e) => e.path), ["src/f00.ts", "src/f01.ts", "src/f02.ts"]);
    assert.deepEqual({ ...a, ms: 0 }, { ...b, ms: 0 });
    const bytes = await countCodeUsage(plain, OPTIONS, { walk: { maxBytes: 100 } });
    assert.equal(bytes.truncated, true);
    assert.match(bytes.reason ?? "", /walk stopped reading at its 0 MB budget/);
    assert.equal(bytes.options[0].files, 3, "three 29-byte files fit in 100 bytes");
  });

  test("options without a package-like name are not searched", async () => {
    const none = await countCodeUsage(repo, [{ id: "keep", title: "Keep the current approach", terms: ["current approach"] }]);
    assert.equal(none.status, "empty");
    assert.match(none.reason ?? "", /no option names a package/);
  });
});

describe("code usage: the state a cached turn is keyed by", () => {
  test("in git: moves with an edit, a new or deleted file in scope; not with prose, the receipts folder or a bare commit", async () => {
    const repo = createGitRepo([{ message: "init", files: { "package.json": `{"dependencies":{"moment":"1"}}\n`, "src/a.ts": `import m from "moment";\n`, "README.md": "hi\n" } }]);
    const state = () => codeUsageState(repo, { excludeDirs: [".deliberations"] });
    const s0 = await state();
    assert.match(s0 ?? "", /^git:[0-9a-f]{40}$/);
    assert.equal(await state(), s0, "stable while nothing changes");
    writeFiles(repo, { "README.md": "prose moment\n", ".deliberations/cache/x.ts": `import m from "moment";\n` });
    assert.equal(await state(), s0, "prose and the receipts folder are not what the count reads");
    writeFiles(repo, { "src/b.ts": `import d from "date-fns";\n` });
    const s1 = await state();
    assert.notEqual(s1, s0, "an untracked source file");
    writeFiles(repo, { "src/b.ts": `import d from "date-fns";\nimport l from "luxon";\n` });
    const s2 = await state();
    assert.notEqual(s2, s1, "the same untracked file, edited again");
    writeFiles(repo, { "src/a.ts": `import d from "date-fns";\n` });
    const s3 = await state();
    assert.notEqual(s3, s2, "a tracked file edited");
    // The count reads the work tree: committing what is already there changes no figure, a checkout does.
    commit(repo, { message: "switch", files: {} });
    assert.equal(await state(), s3, "a commit of the work tree as it is");
    commit(repo, { message: "drop", files: {}, remove: ["src/b.ts"] });
    const s4 = await state();
    assert.notEqual(s4, s3, "a commit that deletes a file");
    assert.equal(await state(), s4);
  });

  test("outside git: moves with an edited or new file in scope; not with prose", async () => {
    const plain = makeTempDir();
    writeFiles(plain, { "package.json": `{"dependencies":{"moment":"1"}}\n`, "src/a.ts": `import m from "moment";\n`, "README.md": "hi\n" });
    const s0 = await codeUsageState(plain);
    assert.match(s0 ?? "", /^walk:[0-9a-f]{40}$/);
    writeFiles(plain, { "README.md": "prose\n" });
    assert.equal(await codeUsageState(plain), s0);
    writeFiles(plain, { "src/b.ts": `import d from "date-fns";\n` });
    const s1 = await codeUsageState(plain);
    assert.notEqual(s1, s0);
    rmSync(join(plain, "src/b.ts"));
    assert.equal(await codeUsageState(plain), s0);
  });

  test("the plain pathspecs git is given cover the scope; the scope itself is exact", () => {
    for (const p of ["package.json", "a/b/Cargo.toml", "src/x.ts", "Dockerfile", "ops/Dockerfile.prod", ".github/workflows/ci.yml", "infra/main.tf", "requirements-dev.txt", "YARN.LOCK"]) {
      assert.ok(inUsageScope(p), p);
    }
    for (const p of ["README.md", "docs/a.json", "src/x.TS", ".github/workflows/sub/ci.yml", "a/docker-compose/x.yml", "notes.txt"]) assert.ok(!inUsageScope(p), p);
    // Fewer pathspecs than glob patterns (each costs git a match per file), none with glob magic.
    assert.ok(usagePathspecs.length < 150 && usagePathspecs.every((s) => !s.includes("glob")));
  });
});

describe("code usage: the pieces", () => {
  test("import lines in several languages, and what is not one", () => {
    for (const l of [
      `import moment from "moment";`,
      `} from "date-fns";`,
      `export { format } from "date-fns";`,
      `const m = require("moment");`,
      `from luxon import DateTime`,
      `import luxon`,
      `using Npgsql;`,
      `use serde::Deserialize;`,
      `require 'rails'`,
      `#include <boost/asio.hpp>`,
      `@import "bootstrap";`,
      `const x = await import("moment");`,
    ]) {
      assert.ok(isImportLine(l), l);
    }
    assert.ok(isImportLine(`\tlx "github.com/example/luxon"`, "cmd/main.go"));
    assert.ok(!isImportLine(`\tlx "github.com/example/luxon"`, "src/a.ts"));
    for (const l of [`// we used moment`, `const s = "moment";`, `moment().format()`]) assert.ok(!isImportLine(l), l);
  });

  test("files are classified by name, and skipped ones say why", () => {
    assert.deepEqual(classifyUsageFile("services/api/package.json"), { kind: "manifest" });
    assert.deepEqual(classifyUsageFile("go.sum"), { kind: "lock" });
    assert.deepEqual(classifyUsageFile("infra/main.tf"), { kind: "infra" });
    assert.deepEqual(classifyUsageFile(".github/workflows/ci.yml"), { kind: "infra" });
    assert.deepEqual(classifyUsageFile("docker/Dockerfile.prod"), { kind: "infra" });
    assert.deepEqual(classifyUsageFile("node_modules/x/index.js"), { skip: "vendored folder" });
    assert.deepEqual(classifyUsageFile("api/gen/foo.pb.go"), { skip: "generated code" });
  });

  test("option titles become package-like names, never an inner word", () => {
    const terms = optionTermsFor([
      { id: "a", title: "Use React Query", summary: "s", supports: [], dissent: [], tradeoffs: [], cost: "low", risk: "low" },
      { id: "b", title: "Move to PostgreSQL", summary: "s", supports: [], dissent: [], tradeoffs: [], cost: "low", risk: "low" },
    ]);
    assert.deepEqual(usableTerms(terms[0].terms), ["react-query", "reactquery"]);
    assert.deepEqual(usableTerms(terms[1].terms), ["postgres", "postgresql"]);
  });
});
