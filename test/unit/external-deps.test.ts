import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createDependencyDocsExpert } from "../../src/core/external/dependencyDocs";
import { recheckExternalCitations } from "../../src/core/external/index";
import { parseCargoLock, parseCargoToml, parseGoMod, parsePyproject, parseRequirements } from "../../src/core/external/manifests";
import { EvidenceItemSchema, type Citation, type EvidenceItem } from "../../src/core/schemas";
import { expertContext, spyOnConnect } from "../fixtures/external/http";
import { makeWorkspace, writeFiles } from "../fixtures/external/workspace";

function linesOf(root: string, pkg: string, rel: string, range: { start: number; end: number }): string {
  return readFileSync(join(root, "node_modules", ...pkg.split("/"), rel), "utf8").split("\n").slice(range.start - 1, range.end).join("\n");
}

function asCitation(i: EvidenceItem): Citation {
  return { id: i.id, kind: i.kind, path_or_url: i.path_or_url, ...(i.line_range ? { line_range: i.line_range } : {}), precision_class: i.precision_class, excerpt: i.excerpt };
}

describe("dependency docs expert", { timeout: 20_000 }, () => {
  let ws: ReturnType<typeof makeWorkspace>;
  let spy: ReturnType<typeof spyOnConnect>;
  before(() => {
    ws = makeWorkspace();
    spy = spyOnConnect();
  });
  after(() => {
    spy.restore();
    ws.cleanup();
  });
  const expert = createDependencyDocsExpert();

  it("is the offline-capable external expert named deps", () => {
    assert.equal(expert.name, "deps");
    assert.equal(expert.kind, "external");
    assert.equal(expert.offlineCapable, true);
  });

  it("cites installed README sections with the installed version, line range, mtime and repository URL", async () => {
    const r = await createDependencyDocsExpert({ maxItemsPerPackage: 8 }).run(expertContext({ repo: ws.root, terms: ["cache", "ttl", "eviction"], offline: true }));
    assert.equal(r.status, "ok", r.reason);
    for (const i of r.items) assert.ok(EvidenceItemSchema.safeParse(i).success, JSON.stringify(i));
    const ttl = r.items.find((i) => i.path_or_url === "npm:cache-lib@2.1.3/README.md" && i.title?.includes("Time to live"));
    assert.ok(ttl, JSON.stringify(r.items.map((i) => [i.path_or_url, i.title]), null, 1));
    assert.equal(ttl.kind, "external");
    assert.equal(ttl.source_type, "dependency-doc");
    assert.equal(ttl.expert, "deps");
    assert.equal(ttl.precision_class, "section");
    assert.equal(ttl.package, "cache-lib");
    assert.deepEqual(ttl.line_range, { start: 11, end: 14 });
    assert.match(linesOf(ws.root, "cache-lib", "README.md", ttl.line_range!), /^## Time to live\n\nEvery entry takes a TTL/);
    assert.match(ttl.title!, /https:\/\/github\.com\/example\/cache-lib/);
    assert.match(ttl.excerpt, /TTL in milliseconds/);
    assert.ok(!Number.isNaN(Date.parse(ttl.fetched_at!)));
    assert.equal(ttl.deprecated, undefined);
    // docs/** and CHANGELOG are read too.
    assert.ok(r.items.some((i) => i.path_or_url === "npm:cache-lib@2.1.3/docs/guide/ttl.md"));
    assert.ok(r.items.some((i) => i.path_or_url === "npm:cache-lib@2.1.3/CHANGELOG.md"));
    assert.deepEqual(r.sources, ["https://github.com/example/cache-lib"]);
    // Nothing about logging or HTTP matched this question.
    assert.ok(!r.items.some((i) => i.package === "old-logger" || i.package === "@scope/legacy-http"));
  });

  it("surfaces package.json deprecation as a deprecated item citing the manifest line", async () => {
    const r = await expert.run(expertContext({ repo: ws.root, terms: ["logging", "logger"], expansions: ["log"] }));
    assert.equal(r.status, "ok", r.reason);
    const dep = r.items.find((i) => i.deprecated);
    assert.ok(dep, JSON.stringify(r.items, null, 1));
    assert.equal(dep.package, "old-logger");
    assert.equal(dep.path_or_url, "npm:old-logger@1.4.0/package.json");
    assert.equal(dep.precision_class, "exact-lines");
    assert.match(linesOf(ws.root, "old-logger", "package.json", dep.line_range!), /"deprecated": "old-logger is deprecated; use pino instead"/);
    assert.match(dep.excerpt, /use pino instead/);
    assert.match(dep.title!, /old-logger@1\.4\.0 is deprecated · https:\/\/old-logger\.example\.org/);
    assert.equal(r.items[0], dep, "deprecation ranks first for a question about that package");
    // The README item of the deprecated package is not itself flagged.
    assert.ok(r.items.some((i) => i.package === "old-logger" && !i.deprecated));
  });

  it("detects a README banner ('no longer maintained') on a scoped package", async () => {
    const r = await expert.run(expertContext({ repo: ws.root, terms: ["http", "retries"] }));
    const dep = r.items.find((i) => i.deprecated);
    assert.ok(dep, JSON.stringify(r.items, null, 1));
    assert.equal(dep.path_or_url, "npm:@scope/legacy-http@0.9.4/README.md");
    assert.deepEqual(dep.line_range, { start: 1, end: 2 });
    assert.match(dep.excerpt, /no longer maintained/);
    assert.match(dep.title!, /https:\/\/github\.com\/scope\/legacy-http/);
  });

  it("does not read an option's deprecation note as the package being deprecated", async () => {
    const r = await expert.run(expertContext({ repo: ws.root, terms: ["assertions", "spies", "legacy", "option"] }));
    assert.ok(r.items.some((i) => i.package === "test-kit"));
    assert.ok(!r.items.some((i) => i.package === "test-kit" && i.deprecated));
  });

  it("reports why it is empty: nothing matched", async () => {
    const r = await expert.run(expertContext({ repo: ws.root, terms: ["kubernetes", "helm"] }));
    assert.equal(r.status, "empty");
    assert.match(r.reason!, /nothing matched in the docs of 4 installed packages/);
  });

  it("reports why it is empty: no manifest, no dependencies, nothing installed", async () => {
    const bare = mkdtempSync(join(tmpdir(), "ds-ext-bare-"));
    try {
      let r = await expert.run(expertContext({ repo: bare, terms: ["cache"] }));
      assert.equal(r.status, "empty");
      assert.match(r.reason!, /no dependency manifest/);
      assert.doesNotMatch(r.reason!, /whose packages keep no docs/);
      // A Gradle project has a manifest, just not one whose packages' docs sit in the repository: the reason says so.
      writeFileSync(join(bare, "build.gradle.kts"), 'dependencies { testImplementation("com.willowtreeapps.assertk:assertk:0.28.1") }\n');
      r = await expert.run(expertContext({ repo: bare, terms: ["cache"] }));
      assert.match(r.reason!, /no dependency manifest this stage reads .*; build\.gradle\.kts is a manifest whose packages keep no docs inside the repository/);
      rmSync(join(bare, "build.gradle.kts"));
      writeFileSync(join(bare, "package.json"), JSON.stringify({ name: "x" }));
      r = await expert.run(expertContext({ repo: bare, terms: ["cache"] }));
      assert.match(r.reason!, /package\.json declares no dependencies/);
      writeFileSync(join(bare, "package.json"), JSON.stringify({ name: "x", dependencies: { a: "1", b: "2" } }));
      r = await expert.run(expertContext({ repo: bare, terms: ["cache"] }));
      assert.match(r.reason!, /no installed docs for the 2 declared dependencies/);
    } finally {
      rmSync(bare, { recursive: true, force: true });
    }
  });

  it("respects the item caps and marks truncation", async () => {
    const small = createDependencyDocsExpert({ maxItems: 2 });
    const r = await small.run(expertContext({ repo: ws.root, terms: ["cache", "ttl", "eviction"] }));
    assert.equal(r.items.length, 2);
    assert.equal(r.truncated, true);
  });

  it("stops when cancelled", async () => {
    const ac = new AbortController();
    ac.abort(new Error("stop"));
    await assert.rejects(expert.run(expertContext({ repo: ws.root, terms: ["cache"], signal: ac.signal })), /stop/);
  });

  it("re-checks local citations at return time: version bumps and shrunk files fail", async () => {
    const r = await expert.run(expertContext({ repo: ws.root, terms: ["cache", "ttl"] }));
    const cits = r.items.map(asCitation);
    let check = await recheckExternalCitations(cits, { repo: ws.root, offline: true });
    assert.deepEqual(check.failed, []);
    assert.equal(check.checked, cits.length);
    const ws2 = makeWorkspace();
    try {
      writeFiles(ws2.root, {
        "node_modules/cache-lib/package.json": JSON.stringify({ name: "cache-lib", version: "3.0.0" }),
      });
      check = await recheckExternalCitations(cits, { repo: ws2.root, offline: true });
      assert.deepEqual(new Set(check.failed), new Set(cits.filter((c) => c.path_or_url.startsWith("npm:cache-lib@")).map((c) => c.id)));
      assert.match(Object.values(check.reasons)[0], /installed version is 3\.0\.0, cited 2\.1\.3/);
      writeFiles(ws2.root, {
        "node_modules/cache-lib/package.json": JSON.stringify({ name: "cache-lib", version: "2.1.3" }),
        "node_modules/cache-lib/README.md": "# cache-lib\n",
      });
      check = await recheckExternalCitations(cits, { repo: ws2.root, offline: true });
      assert.ok(check.failed.length > 0);
      assert.match(Object.values(check.reasons).join(" "), /README\.md has 1 lines/);
    } finally {
      ws2.cleanup();
    }
  });

  it("never opened a socket", () => assert.deepEqual(spy.calls, []));
});

describe("other ecosystems", { timeout: 20_000 }, () => {
  it("parses requirements, pyproject, go.mod, Cargo.toml and Cargo.lock", () => {
    assert.deepEqual(
      parseRequirements("# c\nrequests[socks]>=2.31 ; python_version>'3.8'\n-r dev.txt\nflask==3.0.0  # web\n\nhttps://x/y.whl\n").map((d) => [d.name, d.declared]),
      [["requests", ">=2.31"], ["flask", "==3.0.0"]],
    );
    const py = parsePyproject(`[project]\nname = "app"\ndependencies = [\n  "httpx>=0.27", # http\n  "pydantic[email]~=2.7",\n]\n[project.optional-dependencies]\ntest = ["pytest>=8"]\n[tool.poetry.dependencies]\npython = "^3.11"\nrich = { version = "^13", optional = true }\n`);
    assert.deepEqual(py.map((d) => [d.name, d.declared, !!d.dev]), [
      ["httpx", ">=0.27", false],
      ["pydantic", "~=2.7", false],
      ["pytest", ">=8", true],
      ["rich", "^13", false],
    ]);
    assert.deepEqual(
      parseGoMod("module x\n\ngo 1.22\n\nrequire github.com/a/b v1.2.3\nrequire (\n\tgolang.org/x/sync v0.7.0\n\tgithub.com/C/d v0.1.0 // indirect\n)\n").map((d) => [d.name, d.declared]),
      [["github.com/a/b", "v1.2.3"], ["golang.org/x/sync", "v0.7.0"], ["github.com/C/d", "v0.1.0"]],
    );
    assert.deepEqual(
      parseCargoToml(`[package]\nname = "x"\n[dependencies]\nserde = { version = "1.0", features = ["derive"] }\ntokio = "1"\n[dev-dependencies]\ninsta = "1.39"\n[dependencies.reqwest]\nversion = "0.12"\n`).map((d) => [d.name, d.declared, !!d.dev]),
      [["serde", "1.0", false], ["tokio", "1", false], ["insta", "1.39", true], ["reqwest", "0.12", false]],
    );
    assert.deepEqual([...parseCargoLock(`[[package]]\nname = "serde"\nversion = "1.0.203"\n\n[[package]]\nname = "tokio"\nversion = "1.38.0"\n`)], [["serde", "1.0.203"], ["tokio", "1.38.0"]]);
  });

  it("reads a virtualenv's dist-info METADATA and a Go vendor dir, with their deprecation signals", async () => {
    const root = mkdtempSync(join(tmpdir(), "ds-ext-poly-"));
    try {
      writeFiles(root, {
        "requirements.txt": "retrylib==1.2.0\n",
        ".venv/lib/python3.12/site-packages/retrylib-1.2.0.dist-info/METADATA":
          "Metadata-Version: 2.1\nName: retrylib\nVersion: 1.2.0\nClassifier: Development Status :: 7 - Inactive\nProject-URL: Source, https://github.com/example/retrylib\n\n# retrylib\n\n## Backoff\n\nRetries use exponential backoff with jitter.\n",
        "go.mod": "module example.com/app\n\ngo 1.22\n\nrequire github.com/example/backoff v1.0.0\n",
        "vendor/github.com/example/backoff/README.md": "# backoff\n\n## Jitter\n\nFull jitter backoff for retries.\n",
        "vendor/github.com/example/backoff/go.mod": "// Deprecated: use github.com/example/backoff/v2\nmodule github.com/example/backoff\n",
      });
      const r = await createDependencyDocsExpert({ goModCache: join(root, "no-cache") }).run(expertContext({ repo: root, terms: ["retries", "backoff", "jitter"] }));
      assert.equal(r.status, "ok", r.reason);
      const py = r.items.find((i) => i.path_or_url.startsWith("pypi:retrylib@1.2.0/retrylib-1.2.0.dist-info/METADATA") && !i.deprecated);
      assert.ok(py, JSON.stringify(r.items, null, 1));
      assert.equal(py.line_range?.start, 9);
      assert.match(py.title!, /https:\/\/github\.com\/example\/retrylib/);
      const pyDep = r.items.find((i) => i.package === "retrylib" && i.deprecated);
      assert.ok(pyDep);
      assert.match(pyDep.excerpt, /7 - Inactive/);
      const go = r.items.find((i) => i.path_or_url === "go:github.com/example/backoff@v1.0.0/README.md");
      assert.ok(go);
      const goDep = r.items.find((i) => i.package === "github.com/example/backoff" && i.deprecated);
      assert.ok(goDep);
      assert.equal(goDep.path_or_url, "go:github.com/example/backoff@v1.0.0/go.mod");
      assert.match(goDep.excerpt, /use github\.com\/example\/backoff\/v2/);
      const check = await recheckExternalCitations(r.items.map(asCitation), { repo: root, offline: true, goModCache: join(root, "no-cache") });
      assert.deepEqual(check.failed, []);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
