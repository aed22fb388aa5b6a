// Corpus snapshots (src/core/internal/corpus/): discovery kept with a stat fingerprint, the docs expert's prepared
// corpus and search indexes stored in the user's cache. Every test runs against a real git repository in a temp
// dir, with the cache in another temp dir; a "fresh process" is simulated by forgetting what memory holds.
import { after, beforeEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, truncateSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { resolveConfig } from "../../src/core/config";
import { discoverWithSnapshot, forgetDiscoverySnapshots } from "../../src/core/internal/corpus/discovery";
import { buildCorpusSnapshot } from "../../src/core/internal/corpus";
import { corpusDirFor, type CorpusCacheOptions } from "../../src/core/internal/corpus/store";
import { discoverArtifacts } from "../../src/core/internal/discovery";
import { forgetPreparedCorpora, runDocsExpert } from "../../src/core/internal/docsExpert";
import { ensureSectionIndex, exportSectionIndexes, rankTextSections, restoreSectionIndexes } from "../../src/core/internal/sectionIndex";
import { buildRulesPlan } from "../../src/core/terms";
import { git, makeTempDir, writeFiles } from "../helpers/gitRepo";
import { createSampleRepo } from "../fixtures/sampleRepo";

const config = resolveConfig({ offline: true });
const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
function track(dir: string): string {
  dirs.push(dir);
  return dir;
}
/** Past the fingerprint's racy window, so what was just written can be vouched for. */
const settle = () => new Promise((r) => setTimeout(r, 40));

function cacheFor(notices: string[] = []): CorpusCacheOptions {
  return { dir: track(makeTempDir("delib-corpus-cache-")), codeId: "test", notice: (l) => notices.push(l) };
}

function freshProcess(): void {
  forgetDiscoverySnapshots();
  forgetPreparedCorpora();
}

beforeEach(freshProcess);

describe("discovery snapshot", () => {
  it("serves the same set from memory, then from disk in a fresh process, and writes nothing into the repository", async () => {
    const repo = track(createSampleRepo());
    await settle();
    const cache = cacheFor();
    const first = await discoverWithSnapshot(repo, config, { cache });
    assert.equal(first.from, "discovery");
    const again = await discoverWithSnapshot(repo, config, { cache });
    assert.equal(again.from, "memory");
    assert.equal(again.set, first.set, "the very same set object");
    freshProcess();
    const fromDisk = await discoverWithSnapshot(repo, config, { cache });
    assert.equal(fromDisk.from, "disk");
    assert.equal(fromDisk.set.hash, first.set.hash);
    assert.deepEqual(fromDisk.set.files.map((f) => [f.path, f.hash, f.text.length]), first.set.files.map((f) => [f.path, f.hash, f.text.length]));
    assert.equal(git(repo, ["status", "--porcelain"]).trim(), "", "nothing written in the work tree");
    const files = readdirSync(corpusDirFor(cache.dir, repo));
    assert.ok(files.some((f) => /^discovery-[0-9a-f]{16}\.bin$/.test(f)), files.join(", "));
  });

  const changes: [string, (repo: string) => void, (set: Awaited<ReturnType<typeof discoverArtifacts>>) => boolean][] = [
    ["an ADR edited in place", (r) => appendFileSync(join(r, "docs/adr/0005-use-postgresql-for-order-storage.md"), "\nAlso: read replicas.\n"), (s) => s.files.some((f) => f.text.includes("read replicas"))],
    ["a new ADR in an existing folder", (r) => writeFiles(r, { "docs/adr/0006-use-kafka-for-events.md": "# 6. Use Kafka for events\n\n## Status\n\nAccepted\n\n## Context\n\nEvents.\n\n## Decision\n\nKafka.\n" }), (s) => s.files.some((f) => f.path === "docs/adr/0006-use-kafka-for-events.md")],
    ["an ADR deleted", (r) => rmSync(join(r, "docs/adr/0003-use-rest-for-the-public-api.md")), (s) => !s.files.some((f) => f.path.includes("0003"))],
    ["a new folder of agent instructions", (r) => writeFiles(r, { "services/billing/AGENTS.md": "# Billing\n\n- Use Kafka.\n" }), (s) => s.files.some((f) => f.path === "services/billing/AGENTS.md")],
    ["a new untracked ADR", (r) => writeFiles(r, { "docs/adr/0007-draft.md": "# 7. Draft\n\n## Status\n\nProposed\n\n## Decision\n\nMaybe.\n" }), (s) => s.files.some((f) => f.path === "docs/adr/0007-draft.md")],
  ];
  for (const [what, change, visible] of changes) {
    it(`notices ${what} and discovers again`, async () => {
      const repo = track(createSampleRepo());
      await settle();
      const cache = cacheFor();
      const before = await discoverWithSnapshot(repo, config, { cache });
      change(repo);
      await settle();
      const after = await discoverWithSnapshot(repo, config, { cache });
      assert.equal(after.from, "discovery");
      assert.ok(visible(after.set), "the change is in the new set");
      assert.notEqual(after.set.hash, before.set.hash);
      assert.equal(after.set.hash, (await discoverArtifacts(repo, config)).hash, "the same set a plain discovery finds");
      freshProcess();
      assert.equal((await discoverWithSnapshot(repo, config, { cache })).set.hash, after.set.hash, "the disk snapshot was replaced");
    });
  }

  it("works outside git too (a folder walk): a new ADR is noticed, an untouched tree is served", async () => {
    const dir = track(makeTempDir("delib-plain-"));
    writeFiles(dir, {
      "docs/adr/0001-use-postgresql.md": "# 1. Use PostgreSQL\n\n## Status\n\nAccepted\n\n## Context\n\nOrders.\n\n## Decision\n\nPostgreSQL.\n",
      "AGENTS.md": "# Agents\n\n- Keep orders in PostgreSQL.\n",
    });
    await settle();
    const cache = cacheFor();
    const first = await discoverWithSnapshot(dir, config, { cache });
    assert.equal(first.set.files.length, 2);
    assert.equal((await discoverWithSnapshot(dir, config, { cache })).from, "memory");
    writeFiles(dir, { "docs/adr/0002-use-kafka.md": "# 2. Use Kafka\n\n## Status\n\nAccepted\n\n## Context\n\nEvents.\n\n## Decision\n\nKafka.\n" });
    await settle();
    const after = await discoverWithSnapshot(dir, config, { cache });
    assert.equal(after.from, "discovery");
    assert.equal(after.set.files.length, 3);
  });

  it("notices an ignore rule added to .gitignore", async () => {
    const repo = track(createSampleRepo());
    writeFiles(repo, { "docs/adr/0007-draft.md": "# 7. Draft\n\n## Status\n\nProposed\n\n## Decision\n\nMaybe.\n" });
    await settle();
    const cache = cacheFor();
    const before = await discoverWithSnapshot(repo, config, { cache });
    assert.ok(before.set.files.some((f) => f.path === "docs/adr/0007-draft.md"));
    appendFileSync(join(repo, ".gitignore"), "\ndocs/adr/0007-draft.md\n");
    await settle();
    const after = await discoverWithSnapshot(repo, config, { cache });
    assert.equal(after.from, "discovery");
    assert.ok(!after.set.files.some((f) => f.path === "docs/adr/0007-draft.md"));
  });

  it("does not trust a snapshot taken moments after a change (racy window)", async () => {
    const repo = track(createSampleRepo());
    const adr = join(repo, "docs/adr/0005-use-postgresql-for-order-storage.md");
    const cache = cacheFor();
    appendFileSync(adr, "\nEdited just now.\n");
    // Stamped as if written while discovery runs: no fingerprint taken before it can vouch for it.
    utimesSync(adr, new Date(), new Date(Date.now() + 500));
    const first = await discoverWithSnapshot(repo, config, { cache });
    assert.equal(first.from, "discovery");
    const second = await discoverWithSnapshot(repo, config, { cache });
    assert.equal(second.from, "discovery", "an mtime inside the racy window cannot vouch for the set");
  });

  it("keeps settings and code apart: another ADR glob or another code id never reads the snapshot", async () => {
    const repo = track(createSampleRepo());
    await settle();
    const cache = cacheFor();
    await discoverWithSnapshot(repo, config, { cache });
    freshProcess();
    const other = resolveConfig({ offline: true, adrGlobs: ["nothing/**/*.md"] });
    assert.equal((await discoverWithSnapshot(repo, other, { cache })).from, "discovery");
    freshProcess();
    assert.equal((await discoverWithSnapshot(repo, config, { cache: { ...cache, codeId: "newer code" } })).from, "discovery");
  });

  for (const [what, damage] of [
    ["truncated", (f: string) => truncateSync(f, 100)],
    ["overwritten with junk", (f: string) => writeFileSync(f, "not a snapshot")],
    ["bit-flipped", (f: string) => {
      const b = readFileSync(f);
      b[b.length - 10] ^= 0xff;
      writeFileSync(f, b);
    }],
  ] as const) {
    it(`rebuilds a ${what} snapshot, with one line saying so`, async () => {
      const repo = track(createSampleRepo());
      await settle();
      const notices: string[] = [];
      const cache = cacheFor(notices);
      const first = await discoverWithSnapshot(repo, config, { cache });
      const dir = corpusDirFor(cache.dir, repo);
      const file = join(dir, readdirSync(dir).find((f) => f.startsWith("discovery-"))!);
      damage(file);
      freshProcess();
      const again = await discoverWithSnapshot(repo, config, { cache });
      assert.equal(again.from, "discovery");
      assert.equal(again.set.hash, first.set.hash);
      assert.equal(notices.length, 1, notices.join(" | "));
      assert.match(notices[0], /discovery snapshot .*discovering again/);
      assert.ok(!notices[0].includes("\n"));
      freshProcess();
      assert.equal((await discoverWithSnapshot(repo, config, { cache })).from, "disk", "the rebuilt snapshot is whole again");
    });
  }
});

describe("an unusable cache folder", () => {
  it("costs one line per snapshot, never the answer", async () => {
    const repo = track(createSampleRepo());
    await settle();
    const notices: string[] = [];
    const blocker = join(track(makeTempDir("delib-cache-file-")), "not-a-folder");
    writeFileSync(blocker, "a file where the cache folder should be");
    const cache: CorpusCacheOptions = { dir: blocker, codeId: "test", notice: (l) => notices.push(l) };
    const found = await discoverWithSnapshot(repo, config, { cache });
    assert.equal(found.set.hash, (await discoverArtifacts(repo, config)).hash);
    const q = "Should we use PostgreSQL or MongoDB for order storage?";
    const ranked = await runDocsExpert({ question: q, plan: buildRulesPlan(q), config, artifacts: found.set, signal: new AbortController().signal, repo, cache });
    assert.equal(ranked.status, "ok");
    assert.deepEqual(
      notices.map((l) => l.replace(/:.*/, "")),
      ["could not save the discovery snapshot", "could not save the docs index"],
    );
  });
});

describe("docs corpus on disk", () => {
  const questions = ["Should we use PostgreSQL or MongoDB for order storage?", "Should we use REST or GraphQL for the public API?", "Which logging library do we use?"];

  async function rank(repo: string, cache: CorpusCacheOptions | undefined, artifacts: Awaited<ReturnType<typeof discoverArtifacts>>) {
    const out = [];
    for (const q of questions) {
      out.push(await runDocsExpert({ question: q, plan: buildRulesPlan(q), config, artifacts, signal: new AbortController().signal, repo, cache }));
    }
    return out;
  }

  it("a fresh process loads the stored corpus and ranks exactly as a fresh preparation does", async () => {
    const repo = track(createSampleRepo());
    const cache = cacheFor();
    const artifacts = await discoverArtifacts(repo, config);
    const fresh = await rank(repo, undefined, artifacts);
    freshProcess();
    await rank(repo, cache, artifacts); // prepares and stores
    const stored = readdirSync(corpusDirFor(cache.dir, repo)).filter((f) => f.startsWith("docs-"));
    assert.equal(stored.length, 1);
    freshProcess();
    const loaded = await rank(repo, cache, artifacts);
    assert.deepEqual(loaded, fresh);
    assert.ok(fresh.every((r) => r.status === "ok" && r.items.length > 0));
  });

  it("rebuilds a damaged docs corpus with one line, and ranks the same", async () => {
    const repo = track(createSampleRepo());
    const notices: string[] = [];
    const cache = cacheFor(notices);
    const artifacts = await discoverArtifacts(repo, config);
    const first = await rank(repo, cache, artifacts);
    const dir = corpusDirFor(cache.dir, repo);
    const file = join(dir, readdirSync(dir).find((f) => f.startsWith("docs-"))!);
    truncateSync(file, 50);
    freshProcess();
    assert.deepEqual(await rank(repo, cache, artifacts), first);
    assert.equal(notices.length, 1);
    assert.match(notices[0], /^docs index .*rebuilding it$/);
  });

  it("stores a new corpus when a document changes, and keeps at most two per work tree", async () => {
    const repo = track(createSampleRepo());
    const cache = cacheFor();
    const dir = corpusDirFor(cache.dir, repo);
    for (let i = 0; i < 4; i++) {
      appendFileSync(join(repo, "ARCHITECTURE.md"), `\nRevision ${i}.\n`);
      await rank(repo, cache, await discoverArtifacts(repo, config));
    }
    assert.equal(readdirSync(dir).filter((f) => f.startsWith("docs-")).length, 2);
  });

  it("buildCorpusSnapshot prepares both indexes ahead of time, and a question then reads them", async () => {
    const repo = track(createSampleRepo());
    await settle();
    const cache = cacheFor();
    const built = await buildCorpusSnapshot(repo, cache, { config: { offline: true } });
    assert.ok(built.documents >= 5 && built.sections > built.documents, JSON.stringify(built));
    assert.equal(built.dir, corpusDirFor(cache.dir, repo));
    assert.ok(existsSync(built.dir));
    freshProcess();
    const { set } = await discoverWithSnapshot(repo, config, { cache });
    const loaded = await rank(repo, cache, set);
    freshProcess();
    assert.deepEqual(loaded, await rank(repo, undefined, await discoverArtifacts(repo, config)));
  });
});

describe("section index snapshots", () => {
  it("a restored index answers exactly as the index it was taken of (exact, prefix and fuzzy terms)", () => {
    const sections = [
      { heading: "Decision", title: "Use Kafka for events", body: "We use Kafka for the billing event bus. Consumers are idempotent." },
      { heading: "Context", title: "Use Kafka for events", body: "RabbitMQ queues backed up during the sale; events were lost." },
      { heading: "Logging", title: "Conventions", body: "Use pino for structured logging; never console.log in services." },
      { heading: "Storage", title: "Orders", body: "Orders live in PostgreSQL; MongoDB was retired." },
    ];
    const boost = { boost: { heading: 3, title: 1.5, body: 1 } };
    ensureSectionIndex(sections);
    ensureSectionIndex(sections, boost);
    const snaps = exportSectionIndexes(sections);
    assert.equal(snaps.length, 2);
    const copy = sections.map((s) => ({ ...s }));
    restoreSectionIndexes(copy, snaps);
    for (const [terms, expansions, opts] of [
      [["kafka", "rabbitmq"], ["queue"], {}],
      [["eventing"], [], boost], // prefix of nothing, fuzzy of "events"
      [["logg"], ["structured"], { ...boost, feedback: ["pino"] }],
      [["postgresql", "orders"], [], { loose: false }],
    ] as const) {
      const a = rankTextSections(sections, terms, expansions, Infinity, opts);
      const b = rankTextSections(copy, terms, expansions, Infinity, opts);
      assert.deepEqual(
        b.map((r) => [r.index, r.score, r.matched, r.queryMatched]),
        a.map((r) => [r.index, r.score, r.matched, r.queryMatched]),
        terms.join(" "),
      );
    }
  });

  it("ignores a snapshot taken over a different number of sections", () => {
    const sections = [{ heading: "A", body: "alpha beta" }, { heading: "B", body: "beta gamma" }];
    ensureSectionIndex(sections);
    const snaps = exportSectionIndexes(sections);
    const other = [{ heading: "A", body: "alpha beta" }];
    restoreSectionIndexes(other, snaps);
    assert.deepEqual(exportSectionIndexes(other), []);
  });
});

// Keeps the cache folder layout honest: nothing but snapshot files below a work tree's folder.
describe("cache layout", () => {
  it("writes only .bin snapshots, no temporary files left behind", async () => {
    const repo = track(createSampleRepo());
    await settle();
    const cache = cacheFor();
    await buildCorpusSnapshot(repo, cache);
    const dir = corpusDirFor(cache.dir, repo);
    mkdirSync(dir, { recursive: true });
    const files = readdirSync(dir);
    assert.ok(files.length >= 2 && files.every((f) => f.endsWith(".bin")), files.join(", "));
  });
});
