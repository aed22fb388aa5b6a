// Defects the third adversarial probe found on the question's offline paths, each reproduced on its real input: the
// dependency-manifest readers were quadratic or recursed per nesting level (#2: a 200 KB Cargo.toml held every
// question for minutes, a deep one overflowed the stack); installed dependency docs followed a committed
// `node_modules/<dep>` symlink out of the repository into the receipt, and a symlinked manifest was read (#7); a file
// name holding a newline made the code-usage count credit its line to another file (#11). Also: the plain-folder
// code-usage walk stops at the count's wall-clock budget and says so.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readdirSync, readFileSync, statSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { createDependencyDocsExpert } from "../../src/core/external/dependencyDocs";
import {
  parseCargoLock,
  parseCargoToml,
  parseGoMod,
  parsePyproject,
  parseRequirements,
  parseTomlLite,
  readDeclaredDependencies,
} from "../../src/core/external/manifests";
import { countCodeUsage, grepRecords } from "../../src/core/internal/codeUsage";
import { deliberate } from "../../src/core/pipeline";
import { generateSigningKey } from "../../src/core/receipts/signing";
import { expertContext } from "../fixtures/external/http";
import { createGitRepo, makeTempDir, writeFiles } from "../helpers/gitRepo";

const posixOnly = process.platform === "win32" ? { skip: "POSIX symlinks and file names" } : {};

/** The result of `fn` and how long it took (ms). */
function timed<T>(fn: () => T): { value: T; ms: number } {
  const t = performance.now();
  const value = fn();
  return { value, ms: performance.now() - t };
}

const names = (deps: { name: string }[]) => deps.map((d) => d.name);

describe("manifest readers are linear and bounded (#2)", () => {
  // Each input below took seconds to minutes before (in process: 20k open-array lines 3.2 s, growing with the square).
  // The bound is loose on purpose: the readers now take milliseconds.
  const FAST_MS = 2000;

  test("a Cargo.toml array left open over 40k lines: the key is skipped, the keys before it read, in milliseconds", () => {
    const text = `[package]\nname = "x"\n\n[dependencies]\ntokio = "1"\nserde = [\n${"a\n".repeat(40_000)}`;
    const { value, ms } = timed(() => parseCargoToml(text));
    assert.deepEqual(value, [{ ecosystem: "crates", name: "tokio", declared: "1" }]);
    assert.ok(ms < FAST_MS, `${ms.toFixed(0)} ms`);
  });

  test("a pyproject dependencies array left open over 20k lines: skipped, in milliseconds", () => {
    const text = `[project]\nname = "x"\ndependencies = [\n${'"a",\n'.repeat(20_000)}`;
    const { value, ms } = timed(() => parsePyproject(text));
    assert.deepEqual(value, []);
    assert.ok(ms < FAST_MS, `${ms.toFixed(0)} ms`);
  });

  test("values nested 20k and 150k deep (arrays, inline tables): skipped without recursing, no stack overflow", () => {
    for (const value of ["[".repeat(20_000) + "]".repeat(20_000), "[".repeat(150_000) + "]".repeat(150_000), "{a=".repeat(150_000) + "1" + "}".repeat(150_000)]) {
      const text = `[dependencies]\nserde = ${value}\nlog = "0.4"\n`;
      const { value: deps, ms } = timed(() => parseCargoToml(text));
      assert.deepEqual(deps, [{ ecosystem: "crates", name: "log", declared: "0.4" }]);
      assert.ok(ms < FAST_MS, `${ms.toFixed(0)} ms`);
    }
  });

  test("nesting up to 32 levels is read; 33 is skipped with its key", () => {
    const at = (depth: number) => parseCargoToml(`[dependencies]\nx = ${"[".repeat(depth)}1${"]".repeat(depth)}\ny = "2"\n`);
    assert.deepEqual(names(at(32)), ["x", "y"]);
    assert.deepEqual(names(at(33)), ["y"]);
    let v: unknown = parseTomlLite(`x = ${"[".repeat(32)}1${"]".repeat(32)}\n`).get("")?.x;
    for (let i = 0; i < 32; i++) v = (v as unknown[])[0];
    assert.equal(v, 1);
  });

  test("a value over 64 KB is skipped with its key; one just under it is read", () => {
    const items = (n: number) => Array.from({ length: n }, (_, i) => `  "pkg${i}>=1",`).join("\n");
    const under = parsePyproject(`[project]\ndependencies = [\n${items(3000)}\n]\n`);
    assert.equal(under.length, 3000);
    const over = parsePyproject(`[project]\ndependencies = [\n${items(5000)}\n]\n`);
    assert.deepEqual(over, []);
  });

  test("values costly to read (deep and wide) are skipped before they are read, in milliseconds", () => {
    const deepWide = `${"[".repeat(31)}${"a,".repeat(32_000)}${"]".repeat(31)}`;
    const text = `[dependencies]\n${Array.from({ length: 16 }, (_, i) => `k${i} = ${deepWide}`).join("\n")}\nlog = "0.4"\n`;
    const { value, ms } = timed(() => parseCargoToml(text));
    assert.deepEqual(names(value), ["log"]);
    assert.ok(ms < FAST_MS, `${ms.toFixed(0)} ms`);
  });

  test("10k tables with a dotted key each: read in milliseconds (each dotted key looked its table up among all)", () => {
    const text = Array.from({ length: 10_000 }, (_, i) => `[t${i}]\na.b = ${i}`).join("\n") + "\n";
    const { value, ms } = timed(() => parseTomlLite(text));
    assert.deepEqual(value.get("t9999.a"), { b: 9999 });
    assert.deepEqual(value.get("t0"), {});
    assert.ok(ms < FAST_MS, `${ms.toFixed(0)} ms`);
  });

  test("a requirements line of 60k spaces: cut to 1 KB, read in milliseconds; comments still stripped", () => {
    const { value, ms } = timed(() => parseRequirements(`a${" ".repeat(60_000)}x\nb${" ".repeat(60_000)}[${" ".repeat(60_000)}\nflask==3.0.0${" ".repeat(500)}# web\n`));
    assert.deepEqual(value, [
      { ecosystem: "pypi", name: "a" },
      { ecosystem: "pypi", name: "b" },
      { ecosystem: "pypi", name: "flask", declared: "==3.0.0" },
    ]);
    assert.ok(ms < FAST_MS, `${ms.toFixed(0)} ms`);
  });

  // A guard, not a reproduction: these results are the old readers' own, and must not move.
  test("normal manifests read exactly as before", () => {
    assert.deepEqual(parseCargoToml(NORMAL_CARGO), [
      { ecosystem: "crates", name: "anyhow", declared: "1.0.86" },
      { ecosystem: "crates", name: "serde", declared: "1.0" },
      { ecosystem: "crates", name: "tokio", declared: "1.38" },
      { ecosystem: "crates", name: "reqwest", declared: "0.12" },
      { ecosystem: "crates", name: "serde_json", declared: "1" },
      { ecosystem: "crates", name: "quoted-name", declared: "0.3" },
      { ecosystem: "crates", name: "log", declared: "0.4" },
      { ecosystem: "crates", name: "anyhow" },
      { ecosystem: "crates", name: "clap", declared: "4.5" },
      { ecosystem: "crates", name: "nix", declared: "0.29" },
      { ecosystem: "crates", name: "insta", declared: "1.39", dev: true },
      { ecosystem: "crates", name: "criterion", declared: "0.5", dev: true },
      { ecosystem: "crates", name: "cc", declared: "1.0", dev: true },
    ]);
    assert.deepEqual(parsePyproject(NORMAL_PYPROJECT), [
      { ecosystem: "pypi", name: "httpx", declared: ">=0.27,<1" },
      { ecosystem: "pypi", name: "pydantic", declared: "~=2.7" },
      { ecosystem: "pypi", name: "redis", declared: ">=5" },
      { ecosystem: "pypi", name: "celery", declared: "@ https://example.com/celery-5.4.0.tar.gz" },
      { ecosystem: "pypi", name: "pytest", declared: ">=8", dev: true },
      { ecosystem: "pypi", name: "pytest-cov", dev: true },
      { ecosystem: "pypi", name: "mkdocs", dev: true },
      { ecosystem: "pypi", name: "ruff", declared: "==0.5.0", dev: true },
      { ecosystem: "pypi", name: "rich", declared: "^13" },
      { ecosystem: "pypi", name: "click", declared: "8.1.7" },
      { ecosystem: "pypi", name: "black", declared: "^24.4", dev: true },
    ]);
    assert.deepEqual(parseRequirements(NORMAL_REQUIREMENTS), [
      { ecosystem: "pypi", name: "requests", declared: ">=2.31" },
      { ecosystem: "pypi", name: "flask", declared: "==3.0.0" },
      { ecosystem: "pypi", name: "Django", declared: ">= 4.2, < 5.0" },
      { ecosystem: "pypi", name: "numpy" },
      { ecosystem: "pypi", name: "uvicorn", declared: "==0.30.1" },
      { ecosystem: "pypi", name: "git", declared: "+https://github.com/example/lib.git#egg=lib" },
      { ecosystem: "pypi", name: "psycopg2-binary", declared: "==2.9.9" },
      { ecosystem: "pypi", name: "zope.interface", declared: ">=6" },
    ]);
    assert.deepEqual(parseGoMod(NORMAL_GOMOD), [
      { ecosystem: "go", name: "github.com/a/b", declared: "v1.2.3" },
      { ecosystem: "go", name: "golang.org/x/sync", declared: "v0.7.0" },
      { ecosystem: "go", name: "github.com/C/d", declared: "v0.1.0", dev: true },
    ]);
    assert.deepEqual([...parseCargoLock(NORMAL_LOCK)], [["serde", "1.0.203"], ["tokio", "1.38.0"]]);
  });

  test("the manifests together are read within a byte budget; what is past it is named in a warning", async () => {
    const root = makeTempDir("ds-man-budget-");
    const padding = `# ${"x".repeat(98)}\n`.repeat(9000); // ~900 KB each
    writeFiles(root, { "requirements-a.txt": `alpha==1\n${padding}`, "requirements-b.txt": `beta==1\n${padding}`, "requirements-c.txt": `gamma==1\n${padding}` });
    assert.ok(3 * statSync(join(root, "requirements-a.txt")).size > 2 * 1024 * 1024, "together over the 2 MB budget");
    const report = await readDeclaredDependencies(root);
    assert.deepEqual(names(report.dependencies), ["alpha", "beta"]);
    assert.deepEqual(report.manifests, ["requirements-a.txt", "requirements-b.txt"]);
    assert.match(report.warnings.join("\n"), /requirements-c\.txt: not read \(the manifests' 2 MB reading budget is spent\)/);
  });
});

describe("dependency docs never leave the repository through a symlink (#7)", () => {
  const SECRET = "SECRET-TOKEN-4242";

  /** A folder outside any repository that looks like an installed package whose README holds the secret. */
  function secretPackage(): string {
    const dir = makeTempDir("ds-secret-proj-");
    writeFiles(dir, {
      "package.json": '{ "name": "private-thing", "version": "9.9.9" }\n',
      "README.md": `# Private project\n\n${SECRET}: we use Redis for the job queue rather than RabbitMQ; the database password is hunter2.\n`,
      "docs/queue.md": `# Queue\n\n${SECRET} Redis job queue notes.\n`,
    });
    return dir;
  }

  test("a committed node_modules/<dep> link out of the repository: not read, not cited, not in the receipt or evidence", posixOnly, async () => {
    const outside = secretPackage();
    const repo = makeTempDir("ds-depsym-");
    mkdirSync(join(repo, "node_modules"));
    symlinkSync(outside, join(repo, "node_modules/redis-helper"));
    createGitRepo([{ message: "init", files: { "package.json": '{ "name": "x", "dependencies": { "redis-helper": "1.0.0" } }\n' } }], repo);
    const out = await deliberate({ repo, question: "Should we use Redis or RabbitMQ for the job queue?", signingKey: generateSigningKey(), force: true, useCache: false, config: { offline: true } });
    assert.equal(out.kind, "deliberated");
    const written = listFiles(join(repo, ".deliberations"));
    assert.ok(written.some((f) => f.endsWith(".json")), "a receipt was written");
    for (const f of written) assert.ok(!readFileSync(f, "utf8").includes(SECRET), `${f} holds the outside README`);
    const r = await createDependencyDocsExpert().run(expertContext({ repo, terms: ["redis", "queue", "rabbitmq"], offline: true }));
    assert.equal(r.items.length, 0, JSON.stringify(r.items));
    assert.match(r.reason ?? "", /no installed docs/);
  });

  test("a README or docs file linked out of a real package folder is not read; the package's own files are", posixOnly, async () => {
    const outside = secretPackage();
    const repo = makeTempDir("ds-depsym-file-");
    writeFiles(repo, {
      "package.json": '{ "name": "x", "dependencies": { "qhelper": "1.0.0" } }\n',
      "node_modules/qhelper/package.json": '{ "name": "qhelper", "version": "2.0.0" }\n',
      "node_modules/qhelper/CHANGELOG.md": "# Changelog\n\n## 2.0.0\n\nRedis queue backend added.\n",
      "node_modules/qhelper/docs/guide.md": "# Guide\n\nUse the Redis queue for jobs.\n",
    });
    symlinkSync(join(outside, "README.md"), join(repo, "node_modules/qhelper/README.md"));
    symlinkSync(join(outside, "docs/queue.md"), join(repo, "node_modules/qhelper/docs/queue.md"));
    const r = await createDependencyDocsExpert().run(expertContext({ repo, terms: ["redis", "queue"], offline: true }));
    assert.equal(r.status, "ok", r.reason);
    assert.ok(!JSON.stringify(r.items).includes(SECRET), JSON.stringify(r.items));
    assert.deepEqual([...new Set(r.items.map((i) => i.path_or_url.replace(/^npm:qhelper@2\.0\.0\//, "")))].sort(), ["CHANGELOG.md", "docs/guide.md"]);
  });

  test("symlinked top-level manifests are not read: requirements.txt and package.json leading outside", posixOnly, async () => {
    const elsewhere = makeTempDir("ds-outside-manifests-");
    writeFiles(elsewhere, { "host.txt": "leakedhostname\n", "pkg.json": '{ "dependencies": { "leaked-dep": "1.0.0" } }\n' });
    const repo = makeTempDir("ds-mansym-");
    symlinkSync(join(elsewhere, "host.txt"), join(repo, "requirements.txt"));
    symlinkSync(join(elsewhere, "pkg.json"), join(repo, "package.json"));
    writeFiles(repo, { "requirements-dev.txt": "pytest==8.0.0\n" });
    const report = await readDeclaredDependencies(repo);
    assert.deepEqual(report.manifests, ["requirements-dev.txt"]);
    assert.deepEqual(names(report.dependencies), ["pytest"]);
    assert.match(report.warnings.join("\n"), /package\.json: a symbolic link, not read/);
    assert.match(report.warnings.join("\n"), /requirements\.txt: a symbolic link, not read/);
  });

  // A guard, not a reproduction: what is deliberately supported keeps working.
  test("still found: a workspace link inside the repository, and a Go module cache outside it (the environment's, not a link)", posixOnly, async () => {
    const repo = makeTempDir("ds-legit-");
    const cache = makeTempDir("ds-gomodcache-");
    writeFiles(repo, {
      "package.json": '{ "name": "x", "dependencies": { "@acme/queue": "workspace:*" } }\n',
      "packages/queue/package.json": '{ "name": "@acme/queue", "version": "0.1.0" }\n',
      "packages/queue/README.md": "# Queue\n\n## Redis\n\nThe Redis queue adapter retries jobs.\n",
      "go.mod": "module example.com/app\n\ngo 1.22\n\nrequire github.com/example/backoff v1.0.0\n",
    });
    writeFiles(cache, { "github.com/example/backoff@v1.0.0/README.md": "# backoff\n\n## Redis\n\nRedis queue retries use backoff.\n" });
    mkdirSync(join(repo, "node_modules/@acme"), { recursive: true });
    symlinkSync("../../packages/queue", join(repo, "node_modules/@acme/queue"));
    const r = await createDependencyDocsExpert({ goModCache: cache }).run(expertContext({ repo, terms: ["redis", "queue", "retries"], offline: true }));
    assert.equal(r.status, "ok", r.reason);
    const cited = r.items.map((i) => i.path_or_url.replace(/:\d.*$/, ""));
    assert.ok(cited.includes("npm:@acme/queue@0.1.0/README.md"), cited.join(", "));
    assert.ok(cited.includes("go:github.com/example/backoff@v1.0.0/README.md"), cited.join(", "));
  });

  test("a committed vendor/ or virtualenv link out of the repository is not read either", posixOnly, async () => {
    const outside = secretPackage();
    const site = makeTempDir("ds-outside-site-");
    writeFiles(site, { "lib/python3.12/site-packages/redis_helper-1.0.dist-info/METADATA": `Metadata-Version: 2.1\nName: redis-helper\nVersion: 1.0\n\n# redis-helper\n\n${SECRET} Redis queue.\n` });
    const repo = makeTempDir("ds-vendorsym-");
    writeFiles(repo, { "go.mod": "module example.com/app\n\ngo 1.22\n\nrequire github.com/example/queue v1.0.0\n", "requirements.txt": "redis-helper==1.0\n" });
    mkdirSync(join(repo, "vendor/github.com/example"), { recursive: true });
    symlinkSync(outside, join(repo, "vendor/github.com/example/queue"));
    symlinkSync(site, join(repo, ".venv"));
    const r = await createDependencyDocsExpert({ goModCache: join(repo, "no-cache") }).run(expertContext({ repo, terms: ["redis", "queue"], offline: true }));
    assert.ok(!JSON.stringify(r.items).includes(SECRET), JSON.stringify(r.items));
    assert.equal(r.items.length, 0);
  });
});

describe("code usage reads git grep -z as fields (#11)", () => {
  test("a path holding a newline stays one path, whatever the chunking", () => {
    const stream = "zz\ndb.ts\u00001\u0000import mysql from \"mysql\";\nsrc/a.ts\u000012\u0000import pg from \"pg\";\nlast.ts\u00003\u0000no newline at the end";
    const want = [
      ["zz\ndb.ts", 1, 'import mysql from "mysql";'],
      ["src/a.ts", 12, 'import pg from "pg";'],
      ["last.ts", 3, "no newline at the end"],
    ];
    for (let cut = 0; cut <= stream.length; cut++) {
      for (const step of [1, 7, stream.length]) {
        const got: unknown[] = [];
        const r = grepRecords((...rec) => got.push(rec));
        const pieces = [stream.slice(0, cut), ...chunks(stream.slice(cut), step)];
        for (const p of pieces) r.take(p);
        r.end();
        assert.deepEqual(got, want, `cut ${cut} step ${step}`);
      }
    }
  });

  test("a file named 'zz<newline>db.ts' that imports mysql is credited to itself, never to db.ts", posixOnly, async () => {
    const repo = createGitRepo([
      {
        message: "init",
        files: { "db.ts": "export const db = connect(process.env.DB_URL);\n", "zz\ndb.ts": 'import mysql from "mysql";\n', "src/pg.ts": 'import postgres from "postgres";\n' },
      },
    ]);
    const r = await countCodeUsage(repo, [
      { id: "opt-mysql", title: "MySQL", terms: ["mysql"] },
      { id: "opt-postgresql", title: "PostgreSQL", terms: ["postgres"] },
    ]);
    assert.equal(r.status, "ok", r.reason);
    const [mysql, pg] = r.options;
    assert.equal(mysql.files, 1);
    assert.deepEqual(mysql.examples, [{ path: "zz\ndb.ts", line: 1, text: 'import mysql from "mysql";', kind: "import" }]);
    assert.deepEqual(pg.examples.map((e) => e.path), ["src/pg.ts"]);
    assert.ok(!r.options.some((o) => o.examples.some((e) => e.path === "db.ts")), "db.ts imports neither");
  });
});

describe("the plain-folder code-usage walk stops at the count's wall-clock budget (minor)", () => {
  test("outside git, a walk past the budget is cut and reported as lower bounds, the way git's search is", async () => {
    const plain = makeTempDir("ds-walk-budget-");
    const files: Record<string, string> = {};
    for (let i = 0; i < 400; i++) files[`src/m${String(i).padStart(3, "0")}.ts`] = 'import { createClient } from "redis";\n';
    writeFiles(plain, files);
    const cut = await countCodeUsage(plain, [{ id: "opt-redis", title: "Redis", terms: ["redis"] }], { budgetMs: 0 });
    assert.equal(cut.truncated, true);
    assert.match(cut.reason ?? "", /cut at the 0 ms budget: counts are lower bounds/);
    assert.ok(cut.options[0].files < 400);
    const whole = await countCodeUsage(plain, [{ id: "opt-redis", title: "Redis", terms: ["redis"] }]);
    assert.equal(whole.truncated, undefined);
    assert.equal(whole.options[0].files, 400);
  });
});

function chunks(s: string, n: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < s.length; i += n) out.push(s.slice(i, i + n));
  return out;
}

function listFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...listFiles(p));
    else if (e.isFile()) out.push(p);
  }
  return out;
}

// Normal manifests (comments, multi-line arrays and inline tables, dotted keys, quoted keys, markers, extras,
// options and URLs); the expected results are what the readers returned before this change.
const NORMAL_CARGO = `[package]
name = "app" # the app
version = "0.1.0"
edition = "2021"

[workspace.dependencies]
anyhow = "1.0.86"

[dependencies]
serde = { version = "1.0", features = ["derive"] }
tokio = { version = "1.38", features = [
    "rt-multi-thread", # runtime
    "macros",
] }
anyhow.workspace = true
reqwest = { version = "0.12", default-features = false, features = ["json", "rustls-tls"] }
my-serde = { package = "serde_json", version = "1" }
"quoted-name" = "0.3"
log = '0.4'

[dependencies.clap]
version = "4.5"
features = ["derive"]

[target.'cfg(unix)'.dependencies]
nix = "0.29"

[dev-dependencies]
insta = { version = "1.39", features = ["yaml"] }
criterion.version = "0.5"

[build-dependencies]
cc = "1.0"

[[bin]]
name = "tool"
path = "src/bin/tool.rs"

[features]
default = ["std"]
`;

const NORMAL_PYPROJECT = `[build-system]
requires = ["hatchling>=1.21"]

[project]
name = "svc"
description = "a \\"quoted\\" service # not a comment"
dependencies = [
  "httpx[http2]>=0.27,<1", # http client
  "pydantic~=2.7",
  'redis>=5 ; python_version >= "3.9"',
  "celery @ https://example.com/celery-5.4.0.tar.gz",
]

[project.optional-dependencies]
test = ["pytest>=8", "pytest-cov"]
docs = [
  "mkdocs",
]

[dependency-groups]
lint = ["ruff==0.5.0"]

[tool.poetry.dependencies]
python = "^3.11"
rich = { version = "^13", optional = true }
click = "8.1.7"

[tool.poetry.group.dev.dependencies]
black = "^24.4"
`;

const NORMAL_REQUIREMENTS = `# production
-r base.txt
--index-url https://pypi.example.com/simple
requests[socks]>=2.31 ; python_version>'3.8'
flask==3.0.0  # web
Django >= 4.2, < 5.0
numpy
uvicorn[standard] ==0.30.1
git+https://github.com/example/lib.git#egg=lib
https://x/y.whl
-e ./local
psycopg2-binary==2.9.9\t# db
zope.interface>=6
`;

const NORMAL_GOMOD = `module example.com/app

go 1.22

require github.com/a/b v1.2.3 // pinned
require (
\tgolang.org/x/sync v0.7.0
\tgithub.com/C/d v0.1.0 // indirect
\t// a comment
)
replace github.com/a/b => ../b
`;

const NORMAL_LOCK = `# This file is automatically @generated by Cargo.
version = 3

[[package]]
name = "serde"
version = "1.0.203"
source = "registry+https://github.com/rust-lang/crates.io-index"
dependencies = [
 "serde_derive",
]

[[package]]
name = "tokio"
version = "1.38.0"

[[package]]
name = "serde"
version = "0.9.0"
`;
