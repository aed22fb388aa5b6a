// Discovery by content and supersession in the layouts real projects use, on real git repositories in temp dirs.
// Every fixture below is written for these tests; none is copied from another project.
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { resolveConfig } from "../../src/core/config";
import { classifyAdrs, describeDiscovery, discoverArtifacts } from "../../src/core/internal/discovery";
import { adrNameSignal, parseAdrDirFile, parseLog4brainsFile } from "../../src/core/internal/adrDetect";
import { parseAdr } from "../../src/core/internal/adr";
import { runDocsExpert, supersessionOf } from "../../src/core/internal/docsExpert";
import { buildRulesPlan } from "../../src/core/terms";
import { createGitRepo, makeTempDir } from "../helpers/gitRepo";

const config = resolveConfig();
const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
function repoWith(files: Record<string, string | Buffer>): string {
  const dir = createGitRepo([{ message: "initial", files }]);
  dirs.push(dir);
  return dir;
}

const nygard = (title: string, status: string, decision: string, extra = "") =>
  `# ${title}\n\nDate: 2023-04-01\n\n## Status\n\n${status}\n\n## Context\n\nWe need to settle this.\n\n## Decision\n\n${decision}\n\n## Consequences\n\nSome follow-up work.\n${extra}`;
const bare = (title: string, decision: string) => `# ${title}\n\n## Context\n\nBackground words.\n\n## Decision\n\n${decision}\n`;

async function adrPaths(repo: string, cfg = config): Promise<string[]> {
  const set = await discoverArtifacts(repo, cfg);
  return set.files.filter((f) => f.source_type === "adr").map((f) => f.path);
}

describe("ADR discovery by content", () => {
  it("honours .adr-dir (adr-tools), including a folder no default glob names", async () => {
    const repo = repoWith({
      ".adr-dir": "engineering/records\n",
      "engineering/records/0001-record-decisions.md": nygard("1. Record decisions", "Accepted", "We keep ADRs."),
      "engineering/records/0002-pick-a-queue.md": nygard("2. Pick a queue", "Accepted", "We will use NATS."),
      "engineering/records/README.md": "# Decisions\n\n* [Record decisions](0001-record-decisions.md)\n* [Pick a queue](0002-pick-a-queue.md)\n",
    });
    const set = await discoverArtifacts(repo, config);
    assert.deepEqual(
      set.files.filter((f) => f.source_type === "adr").map((f) => f.path),
      ["engineering/records/0001-record-decisions.md", "engineering/records/0002-pick-a-queue.md"],
    );
    assert.deepEqual(set.adrFolders, [{ dir: "engineering/records", via: ".adr-dir", count: 2 }]);
    assert.match(describeDiscovery(set) ?? "", /engineering\/records \(\.adr-dir, 2\)/);
  });

  it("honours .log4brains.yml project.adrFolder with dated names, and skips its template and index", async () => {
    const repo = repoWith({
      ".log4brains.yml": "project:\n  name: Demo\n  adrFolder: ./design/choices\n",
      "design/choices/20230105-use-vite.md": "# Use Vite\n\n- Status: accepted\n- Date: 2023-01-05\n\n## Context and Problem Statement\n\nBuilds are slow.\n\n## Decision Outcome\n\nChosen option: \"Vite\"\n",
      "design/choices/template.md": "# [short title of solved problem and solution]\n\n- Status: [proposed | rejected | accepted | deprecated | superseded by [xxx](yyyymmdd-xxx.md)]\n\n## Context and Problem Statement\n\n[Describe the context and problem statement]\n",
      "design/choices/index.md": "# Decision log\n\n- [Use Vite](20230105-use-vite.md)\n",
    });
    const set = await discoverArtifacts(repo, config);
    assert.deepEqual(set.files.filter((f) => f.source_type === "adr").map((f) => f.path), ["design/choices/20230105-use-vite.md"]);
    assert.equal(set.adrFolders?.[0]?.via, ".log4brains.yml");
    assert.match(describeDiscovery(set) ?? "", /template\.md: template/);
  });

  it("finds numbered ADRs with no Status heading in a folder no glob names (adr-NNNN-slug.md)", async () => {
    const repo = repoWith({
      "docs/arch/adr-0001-auth.md": bare("ADR 0001 - Authentication", "We use sessions."),
      "docs/arch/adr-0002-queue.md": bare("ADR 0002 - Job queue", "We use a database-backed queue."),
      "docs/arch/adr-0003-notes.md": "# ADR 0003 - Notes\n\nShort prose, no headings of an ADR at all.\n",
      "docs/guide/0001-getting-started.md": "# Getting started\n\nInstall it.\n",
    });
    assert.deepEqual(await adrPaths(repo), ["docs/arch/adr-0001-auth.md", "docs/arch/adr-0002-queue.md", "docs/arch/adr-0003-notes.md"]);
  });

  it("finds one folder per ADR (YYYY-MM-DD-slug/README.md, also with underscores)", async () => {
    const repo = repoWith({
      "developer/records/2022-03-01-tracing/README.md": "# Tracing\n\n## Decision\n\nUse OpenTelemetry.\n\n## Rationale\n\nVendor neutral.\n",
      "developer/records/2022_04_02_metrics/README.md": "# Metrics\n\n## Decision\n\nUse Micrometer.\n",
      "developer/records/README.md": "# Records\n\n- [Tracing](2022-03-01-tracing/README.md)\n- [Metrics](2022_04_02_metrics/README.md)\n",
    });
    const paths = await adrPaths(repo);
    assert.ok(paths.includes("developer/records/2022-03-01-tracing/README.md"));
    assert.ok(!paths.includes("developer/records/README.md"), "the index README is not an ADR");
    const set = await discoverArtifacts(repo, config);
    const parsed = parseAdr("developer/records/2022-03-01-tracing/README.md", set.files.find((f) => f.path.includes("tracing"))!.text);
    assert.equal(parsed.title, "Tracing");
  });

  it("recognises ADR-NNNN and YYYYMMDD names, front-matter status, and MADR headings anywhere", async () => {
    const repo = repoWith({
      "platform/adr/ADR-0001-use-zio.md": nygard("ADR-0001 Use ZIO", "Accepted", "We use ZIO."),
      "notes/20240101-cache.md": "---\nstatus: accepted\n---\n# Cache responses\n\n## Context\n\nSlow pages.\n",
      "handbook/choosing-a-db.md": "# Choosing a database\n\n## Context and Problem Statement\n\nWhich database?\n\n## Considered Options\n\n* Postgres\n* MySQL\n\n## Decision Outcome\n\nChosen option: \"Postgres\"\n",
      "handbook/onboarding.md": "# Onboarding\n\n## Context\n\nWelcome.\n",
    });
    assert.deepEqual(await adrPaths(repo), ["handbook/choosing-a-db.md", "notes/20240101-cache.md", "platform/adr/ADR-0001-use-zio.md"]);
  });

  it("skips templates and examples, and does not take a template word in an ADR's name for a template", async () => {
    const repo = repoWith({
      "docs/decisions/0001-use-a-template-engine.md": nygard("1. Use a template engine", "Accepted", "Velocity."),
      "docs/decisions/adr-template.md": "# {short title of solved problem and solution}\n\n## Context and Problem Statement\n\n{Describe the context and problem statement}\n\n## Decision Outcome\n\nChosen option: \"{title of option 1}\"\n",
      "template/0000-example.md": nygard("0. Example", "Accepted", "Example."),
    });
    assert.deepEqual(await adrPaths(repo), ["docs/decisions/0001-use-a-template-engine.md"]);
  });

  it("lets glob settings add a folder and negated globs narrow discovery", async () => {
    const repo = repoWith({
      "rfcs/caching.md": "# Caching\n\nWe cache at the edge.\n",
      "docs/adr/0001-a.md": nygard("1. A", "Accepted", "A."),
      "legacy/adr/0001-old.md": nygard("1. Old", "Accepted", "Old."),
    });
    const cfg = resolveConfig({ adrGlobs: ["rfcs/*.md", "!legacy/**"] });
    assert.deepEqual(await adrPaths(repo, cfg), ["docs/adr/0001-a.md", "rfcs/caching.md"]);
  });

  it("skips malformed ADRs with a reason and never crashes: binary, huge, invalid UTF-8, broken front matter", async () => {
    const repo = repoWith({
      "docs/adr/0001-ok.md": nygard("1. Fine", "Accepted", "Fine."),
      "docs/adr/0002-binary.md": Buffer.from([0x23, 0x20, 0x00, 0x01, 0x02]),
      "docs/adr/0003-latin1.md": Buffer.from([0x23, 0x20, 0xe9, 0xe8, 0x0a]),
      "docs/adr/0004-huge.md": `# 4. Huge\n\n## Decision\n\n${"x".repeat(1100 * 1024)}\n`,
      "docs/adr/0005-broken-front-matter.md": "---\nstatus: [unclosed\n---\n# 5. Broken\n\n## Decision\n\nStill readable.\n",
      "docs/adr/0006-no-headings.md": "Just a paragraph about nothing in particular.\n",
    });
    const set = await discoverArtifacts(repo, config);
    const reasons = Object.fromEntries(set.skipped.map((s) => [s.path, s.reason]));
    assert.match(reasons["docs/adr/0002-binary.md"], /binary/);
    assert.match(reasons["docs/adr/0003-latin1.md"], /UTF-8/);
    assert.match(reasons["docs/adr/0004-huge.md"], /over 1 MB/);
    const adrs = set.files.filter((f) => f.source_type === "adr").map((f) => f.path);
    assert.ok(adrs.includes("docs/adr/0005-broken-front-matter.md"));
    assert.ok(adrs.includes("docs/adr/0006-no-headings.md"), "a glob match in an ADR folder counts even without headings");
    const parsed = parseAdr("docs/adr/0005-broken-front-matter.md", set.files.find((f) => f.path.endsWith("0005-broken-front-matter.md"))!.text);
    assert.equal(parsed.title, "Broken");
    assert.match(describeDiscovery(set) ?? "", /skipped 3/);
  });

  it("never reads through a symlinked folder that leads outside the repository", async () => {
    const outside = makeTempDir("delib-outside-");
    dirs.push(outside);
    writeFileSync(join(outside, "secret.md"), "# Secret\n\n## Decision\n\nleaked words\n");
    const repo = repoWith({
      "AGENTS.md": "# Rules\n\n- See docs/linked/secret.md for the decision.\n",
      "docs/adr/0001-a.md": nygard("1. A", "Accepted", "A."),
    });
    mkdirSync(join(repo, "docs"), { recursive: true });
    symlinkSync(outside, join(repo, "docs", "linked"));
    const set = await discoverArtifacts(repo, config);
    assert.ok(!set.files.some((f) => f.path.startsWith("docs/linked") || f.text.includes("leaked")), "nothing outside was read");
    assert.ok(set.skipped.some((s) => s.path === "docs/linked" && /outside the repository/.test(s.reason)));
  });

  it("parses the config files and names", () => {
    assert.equal(parseAdrDirFile("doc/arch\n"), "doc/arch");
    assert.equal(parseAdrDirFile("../elsewhere\n"), undefined);
    assert.equal(parseLog4brainsFile("project:\n  adrFolder: ./docs/adr\n"), "docs/adr");
    assert.equal(parseLog4brainsFile("project: [unclosed"), undefined);
    assert.equal(adrNameSignal("x/0042-use-x.md"), "numbered");
    assert.equal(adrNameSignal("x/ADR-0042-use-x.md"), "numbered");
    assert.equal(adrNameSignal("x/2024-03-01-use-x.md"), "dated");
    assert.equal(adrNameSignal("x/20240301-use-x.md"), "dated");
    assert.equal(adrNameSignal("x/2024-03-01-use-x/README.md"), "dated-folder");
    assert.equal(adrNameSignal("x/1.2-release-notes.md"), undefined);
    assert.equal(adrNameSignal("x/notes.md"), undefined);
  });

  it("confirms ADR-named files without headings by the folder's other ADRs", () => {
    const decided = classifyAdrs(
      [
        { path: "d/0001-a.md", text: bare("A", "a") },
        { path: "d/0002-b.md", text: bare("B", "b") },
        { path: "d/0003-c.md", text: "Plain prose only.\n" },
        { path: "e/0001-lonely.md", text: "Plain prose only.\n" },
      ],
      { hints: [], fromGlob: new Set() },
    );
    assert.deepEqual([...decided.adrs.keys()].sort(), ["d/0001-a.md", "d/0002-b.md", "d/0003-c.md"]);
  });
});

describe("supersession in the phrasings real logs use", () => {
  const graphOf = async (files: Record<string, string>) => {
    const repo = repoWith(files);
    const set = await discoverArtifacts(repo, config);
    return { set, edges: (await supersessionOf(set)).edges.map(([o, n, inferred]) => `${o.split("/").pop()} -> ${n.split("/").pop()}${inferred ? " (inferred)" : ""}`) };
  };

  it("reads status sections, bullets, front matter and prose sentences", async () => {
    const { edges } = await graphOf({
      "adr/0001-queue-a.md": nygard("1. Queue A", "Superseded by [2. Queue B](0002-queue-b.md)", "Use A."),
      "adr/0002-queue-b.md": nygard("2. Queue B", "Accepted", "Use B."),
      "adr/0003-cache-a.md": "# 3. Cache A\n\nThis ADR has been superseded by `ADR-0004`.\n\n## Context\n\nc\n\n## Decision\n\nUse A.\n",
      "adr/0004-cache-b.md": "# 4. Cache B\n\nThis ADR supersedes `ADR-003`.\n\n## Context\n\nc\n\n## Decision\n\nUse B.\n",
      "adr/0005-log-a.md": '---\nstatus: "superseded by ADR-0006"\n---\n# Log A\n\n## Context\n\nc\n\n## Decision\n\nUse A.\n',
      "adr/0006-log-b.md": nygard("6. Log B", "Accepted; supersedes ADR 0005", "Use B."),
      "adr/0007-upload-a.md": nygard("7. Upload A", "Overridden by [Upload B](0008-upload-b.md)", "Use A."),
      "adr/0008-upload-b.md": nygard("8. Upload B", "Accepted", "Use B."),
      "adr/0009-gc-a.md": nygard("9. GC A", "Accepted\n\nAn alternative is proposed in [GC B](0010-gc-b.md)", "Use A."),
      "adr/0010-gc-b.md": nygard("10. GC B", "Accepted", "Use B."),
      "adr/0011-list-a.md": "# 11. List A\n\n* Status: superseded by [12](0012-list-b.md)\n\n## Context\n\nc\n\n## Decision\n\nA.\n",
      "adr/0012-list-b.md": nygard("12. List B", "Accepted", "B."),
    });
    for (const e of [
      "0001-queue-a.md -> 0002-queue-b.md",
      "0003-cache-a.md -> 0004-cache-b.md",
      "0005-log-a.md -> 0006-log-b.md",
      "0007-upload-a.md -> 0008-upload-b.md",
      "0009-gc-a.md -> 0010-gc-b.md",
      "0011-list-a.md -> 0012-list-b.md",
    ]) {
      assert.ok(edges.includes(e), `missing ${e} in ${edges.join("; ")}`);
    }
  });

  it("resolves a bare 'Superseded' through the later ADR that links back, and marks it inferred", async () => {
    const { edges } = await graphOf({
      "records/008-prod-data-in-staging.md": "---\nstatus: Superseded\n---\n# Production data in staging\n\n## Context\n\nc\n\n## Decision\n\nCopy it.\n",
      "records/012-separate-staging.md":
        "---\nstatus: Accepted\n---\n# Separate staging\n\n## Context\n\nWe earlier decided otherwise, see [ADR 008](/records/prod-data-in-staging).\n\n## Decision\n\nNo production data in staging.\n",
    });
    assert.deepEqual(edges, ["008-prod-data-in-staging.md -> 012-separate-staging.md (inferred)"]);
  });

  it("infers that a later ADR removing an earlier one's subject supersedes it", async () => {
    const { edges, set } = await graphOf({
      "records/2022-01-10-helm-chart/README.md": "# Helm chart\n\n## Decision\n\nShip a Helm chart with the connector.\n",
      "records/2023-05-17-delete-helm-chart/README.md": "# Delete the Helm chart\n\n## Decision\n\nRemove the chart; each operator maintains one.\n",
      "records/2022-06-01-tracing/README.md": "# Tracing\n\n## Decision\n\nUse OpenTelemetry.\n",
    });
    assert.deepEqual(edges, ["README.md -> README.md (inferred)"]);
    const r = await runDocsExpert({ question: "Should we keep shipping a helm chart?", plan: buildRulesPlan("Should we keep shipping a helm chart?"), config, artifacts: set, signal: new AbortController().signal });
    const docs = [...new Set(r.items.map((i) => i.path_or_url))];
    assert.equal(docs[0], "records/2023-05-17-delete-helm-chart/README.md");
    const old = r.items.find((i) => i.path_or_url.includes("2022-01-10"));
    assert.equal(old?.adr?.status, "superseded");
    assert.equal(old?.adr?.supersession_inferred, true);
  });

  it("reads where a removal applies from the later record's summary, and only beside a rare title word the two share", async () => {
    const { edges } = await graphOf({
      "docs/adr/0004-arm-in-the-builder.md": "# Support for ARM in the builder components\n\n## Summary\n\nThe builder runs on ARM hosts.\n",
      "docs/adr/0009-builder-cache.md": "# Builder cache layout\n\n## Summary\n\nCache layers per builder.\n",
      "docs/adr/0011-builder-logs.md": "# Builder log levels\n\n## Summary\n\nAdd a debug level.\n",
      "docs/adr/0012-builder-hooks.md": "# Builder hooks\n\n## Summary\n\nHooks before each phase.\n",
      "docs/adr/0020-remove-arm-images.md":
        "# Remove ARM images support\n\n## Summary\n\nKeep ARM in the spec, but remove ARM images support from the `builder` and its documentation.\n",
      // Removes something else from the builder: shares no rare title word with the ARM record, so no successor.
      "docs/adr/0021-remove-builder-hooks-flag.md": "# Remove the legacy flag\n\n## Summary\n\nRemove the legacy flag from the builder.\n",
    });
    assert.deepEqual(edges, ["0004-arm-in-the-builder.md -> 0020-remove-arm-images.md (inferred)"]);
  });

  it("does not take examples in prose or a template's status menu for supersession", async () => {
    const { edges } = await graphOf({
      "docs/decisions/0001-use-markdown.md": nygard("1. Use Markdown", "Accepted", "Markdown."),
      "docs/decisions/0002-add-status.md":
        "# 2. Add a status field\n\n## Status\n\nAccepted\n\n## Context\n\nA status can read `superseded by ADR-0001`, for example, and placeholders are replaced by real values.\n\n## Decision\n\nAdd it.\n",
      "docs/decisions/adr-template.md": '---\nstatus: "{proposed | rejected | accepted | deprecated | superseded by ADR-0001}"\n---\n# {short title of solved problem}\n',
    });
    assert.deepEqual(edges, []);
  });

  it("takes the later record that answers a rejected proposal, linking to it on the same subject, as its successor", async () => {
    const { edges } = await graphOf({
      "adr/0004-ledger-export-push.md": nygard("4. Ledger export by push", "Rejected", "The node pushes each block to the exporter."),
      "adr/0005-ledger-export-pull.md": nygard("5. Ledger export by pull", "Accepted", "Exporters pull blocks, instead of the push of [ADR 4](0004-ledger-export-push.md)."),
      // Links to the rejected record too, but on another subject: not a successor.
      "adr/0006-metrics.md": nygard("6. Metrics endpoint", "Accepted", "Expose Prometheus metrics; unlike ADR 4, nothing is pushed."),
      // Rejected with no later record linking back: stays as it is.
      "adr/0007-sharding.md": nygard("7. Shard the ledger", "Rejected", "Not now."),
    });
    assert.deepEqual(edges, ["0004-ledger-export-push.md -> 0005-ledger-export-pull.md (inferred)"]);
  });

  it("ranks a rejected proposal below the accepted record on its subject for an open question, not for one naming it", async () => {
    const files = {
      "adr/0003-search-engine-elastic.md": nygard("3. Search with Elasticsearch", "Rejected", "Run an Elasticsearch cluster for product search, with synonyms, facets and search relevance tuning for products."),
      "adr/0009-search-in-postgres.md": nygard("9. Product search in Postgres", "Accepted", "Use Postgres full-text search for product search, with a synonym dictionary, facet counts and relevance weights."),
    };
    const repo = repoWith(files);
    const set = await discoverArtifacts(repo, config);
    const top = async (question: string) => {
      const r = await runDocsExpert({ question, plan: buildRulesPlan(question), config, artifacts: set, signal: new AbortController().signal });
      return [...new Set(r.items.map((i) => i.path_or_url))][0];
    };
    assert.equal(await top("What should power product search with synonyms, facets and relevance tuning?"), "adr/0009-search-in-postgres.md");
    assert.equal(await top("Should we adopt Elasticsearch for product search with synonyms and facets?"), "adr/0003-search-engine-elastic.md");
  });

  it("resolves a reference by title when it names no file or number", async () => {
    const { edges } = await graphOf({
      "adr/0001-queue-a.md": nygard("1. Queue A", "Superseded by Pick a durable queue", "Use A."),
      "adr/0002-durable.md": nygard("2. Pick a durable queue", "Accepted", "Use B."),
      "adr/0003-other.md": nygard("3. Other", "Superseded by a decision nobody wrote down", "Use C."),
    });
    assert.deepEqual(edges, ["0001-queue-a.md -> 0002-durable.md"]);
  });

  it("keeps two ADRs with the same number apart and resolves a link by file name", async () => {
    const { edges, set } = await graphOf({
      "adr/0009-java-upgrade.md": nygard("9. Java upgrade", "Superseded by [Java 21](0065-java-21.md)", "Java 11."),
      "adr/0009-mapping.md": nygard("9. Disable dynamic mapping", "Accepted", "Strict mapping."),
      "adr/0065-java-21.md": nygard("65. Java 21", "Accepted", "Java 21."),
    });
    assert.equal(set.files.filter((f) => f.source_type === "adr").length, 3);
    assert.deepEqual(edges, ["0009-java-upgrade.md -> 0065-java-21.md"]);
  });
});
