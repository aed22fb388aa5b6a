// Hardening round 15 (second probe, findings 3 and 10): what the user's cache folder holds is not trusted as content.
// Anyone who can write that folder (a restored CI cache) could otherwise have forged text cited and signed:
//  - the git history index, the web page cache and the corpus snapshots are sealed with an HMAC under the per-user
//    key (core/cacheKey.ts): a history row or metadata whose seal fails means the index is discarded and rebuilt, a
//    web entry is fetched again, a snapshot rebuilt;
//  - a symlinked history key folder leading out of the cache folder: `deliberate index` refuses it, as questions do.
// Real temp git repositories, real files, a real local HTTP server.
import assert from "node:assert/strict";
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { deserialize, serialize } from "node:v8";
import * as zlib from "node:zlib";
import { after, afterEach, before, describe, it } from "node:test";
import { indexCommand } from "../../src/cli/historyIndex";
import { UsageError } from "../../src/cli/common";
import { CACHE_KEY_FILE, forgetCacheSealKeys, loadOrCreateCacheKey } from "../../src/core/cacheKey";
import { resolveConfig } from "../../src/core/config";
import { cacheFileFor, createWebDocsExpert, type WebDocsOptions } from "../../src/core/external/docsFetch";
import { discoverWithSnapshot, forgetDiscoverySnapshots } from "../../src/core/internal/corpus/discovery";
import { corpusDirFor, readSnapshot, writeSnapshot } from "../../src/core/internal/corpus/store";
import { createGitExpert } from "../../src/core/internal/git";
import { buildIndex, indexStatus, prepareIndex, readRepoState, type HistoryIndexOptions } from "../../src/core/internal/history";
import { closeParkedConnection, openDb, safeClose } from "../../src/core/internal/history/db";
import type { ExpertContext } from "../../src/core/types";
import { expertContext, htmlPage, startServer, type TestServer } from "../fixtures/external/http";
import { createSampleRepo } from "../fixtures/sampleRepo";
import { commit, createGitRepo, git, makeTempDir } from "../helpers/gitRepo";

const saved = { XDG_CACHE_HOME: process.env.XDG_CACHE_HOME, DELIBERATIVE_KEY_DIR: process.env.DELIBERATIVE_KEY_DIR };
const cleanup: string[] = [];
const temp = (prefix: string) => {
  const d = makeTempDir(prefix);
  cleanup.push(d);
  return d;
};
const CACHE = temp("delib-r15c-cache-");
const KEYS = temp("delib-r15c-keys-");
process.env.XDG_CACHE_HOME = CACHE;
process.env.DELIBERATIVE_KEY_DIR = KEYS;
after(() => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  forgetCacheSealKeys();
  for (const d of cleanup) rmSync(d, { recursive: true, force: true });
});

const GENUINE = "Move background jobs from Redis to RabbitMQ: we need durable delivery for the job queue";
const FORGED = "Decided: the job queue stays on Redis, RabbitMQ is forbidden by the security team";

function queueRepo(): string {
  const repo = createGitRepo([
    { message: "init", files: { "README.md": "# app\n" } },
    { message: GENUINE, files: { "queue.yml": "queue: rabbitmq\n" } },
    { message: "docs(adr): record the queue decision", files: { "docs/adr/0001-queue.md": "# 1. Queue\n\n## Decision\n\nWe will use RabbitMQ for the job queue.\n" } },
    { message: "chore 1", files: { "f1.txt": "1\n" } },
  ]);
  cleanup.push(repo);
  return repo;
}

function context(repo: string, words: string[], logs: string[] = []): ExpertContext {
  const config = resolveConfig();
  return {
    repo,
    question: words.join(" "),
    plan: { mode: "rules", terms: words, expansions: [] },
    config: { ...config, git: { ...config.git, maxMs: 60_000 } },
    artifacts: { files: [], skipped: [], hash: "" },
    signal: new AbortController().signal,
    log: (m) => logs.push(m),
  };
}

/** Changes rows of a built index the way someone with write access to the cache folder would. */
function forge(file: string, sql: string, params: (string | number)[]): void {
  closeParkedConnection();
  const db = openDb(file, { write: true });
  try {
    db.run(sql, params);
  } finally {
    safeClose(db);
  }
}

const identity = (file: string) => {
  const st = statSync(file);
  return [st.ino, st.mtimeMs, st.size];
};

describe("history index rows and metadata are sealed", () => {
  it("a forged subject is not cited: the index is discarded and rebuilt, with one line", async () => {
    const repo = queueRepo();
    const sha = git(repo, ["log", "-1", "--format=%H", "--grep", "^Move background"]).trim();
    const built = await buildIndex(repo);
    forge(built.state!.file, "UPDATE commits SET subject = ?, body = '' WHERE sha = ?", [FORGED, sha]);
    const notices: string[] = [];
    const opts: HistoryIndexOptions = { build: "foreground", minCommits: 1, log: (l) => notices.push(l) };
    const r = await createGitExpert({ index: opts }).run(context(repo, ["redis", "rabbitmq", "queue"]));
    assert.equal(r.status, "ok", r.reason);
    const cited = r.items.find((i) => i.commit === sha);
    assert.ok(cited, JSON.stringify(r.items.map((i) => i.title)));
    assert.equal(cited.title, GENUINE);
    assert.ok(!r.items.some((i) => /forbidden/.test(`${i.title} ${i.excerpt}`)), "the forged subject is cited nowhere");
    assert.equal(notices.length, 1, notices.join("\n"));
    assert.match(notices[0], /cannot be used \(the row of commit [0-9a-f]{12} fails its seal \(altered, or written with another key\)\); rebuilding it/);
    // Rebuilt from git: the forged row is gone.
    closeParkedConnection();
    const db = openDb(built.state!.file);
    try {
      assert.equal((db.get("SELECT subject FROM commits WHERE sha = ?", [sha]) as { subject: string }).subject, GENUINE);
    } finally {
      safeClose(db);
    }
  });

  it("a forged documentation hunk is not cited", async () => {
    const repo = queueRepo();
    const sha = git(repo, ["log", "-1", "--format=%H", "--grep", "^docs(adr)"]).trim();
    const built = await buildIndex(repo);
    const forgedDocs = JSON.stringify([{ p: "docs/adr/0001-queue.md", h: [[1, 1, "+We will use Redis; RabbitMQ is forbidden for the job queue."]] }]);
    forge(built.state!.file, "UPDATE commits SET docs = ? WHERE sha = ?", [forgedDocs, sha]);
    const notices: string[] = [];
    const r = await createGitExpert({ index: { build: "foreground", minCommits: 1, log: (l) => notices.push(l) } }).run(context(repo, ["rabbitmq", "queue"]));
    assert.equal(r.status, "ok", r.reason);
    assert.ok(!r.items.some((i) => /forbidden/.test(i.excerpt)), JSON.stringify(r.items.map((i) => i.excerpt)));
    const adr = r.items.find((i) => i.commit === sha);
    assert.ok(adr);
    assert.match(adr.excerpt, /We will use RabbitMQ for the job queue/);
    assert.equal(notices.length, 1, notices.join("\n"));
  });

  it("a forged `head` does not pass a stale index as current", async () => {
    const repo = queueRepo();
    const built = await buildIndex(repo);
    const later = commit(repo, { message: "Adopt RabbitMQ quorum queues for the job queue", files: { "queue.yml": "queue: rabbitmq-quorum\n" } }, 20);
    forge(built.state!.file, "UPDATE meta SET value = ? WHERE key = 'head'", [later]);
    const notices: string[] = [];
    const r = await createGitExpert({ index: { build: "foreground", minCommits: 1, log: (l) => notices.push(l) } }).run(context(repo, ["rabbitmq", "quorum"]));
    assert.ok(r.items.some((i) => i.commit === later), "the newest commit is found");
    assert.equal(notices.length, 1, notices.join("\n"));
    assert.match(notices[0], /its metadata fails its seal/);
  });

  it("an index written with another user's key is rebuilt before anything in it is cited", async () => {
    const repo = queueRepo();
    const state = await readRepoState(repo);
    assert.ok(!("error" in state));
    // Built under another key (a cache restored from another machine), with a forged row.
    process.env.DELIBERATIVE_KEY_DIR = temp("delib-r15c-keys-other-");
    forgetCacheSealKeys();
    try {
      await buildIndex(repo);
    } finally {
      process.env.DELIBERATIVE_KEY_DIR = KEYS;
      forgetCacheSealKeys();
    }
    const sha = git(repo, ["log", "-1", "--format=%H", "--grep", "^Move background"]).trim();
    forge(state.file, "UPDATE commits SET subject = ? WHERE sha = ?", [FORGED, sha]);
    const notices: string[] = [];
    const r = await createGitExpert({ index: { build: "foreground", minCommits: 1, log: (l) => notices.push(l) } }).run(context(repo, ["redis", "rabbitmq", "queue"]));
    assert.equal(r.items.find((i) => i.commit === sha)?.title, GENUINE);
    assert.equal(notices.length, 1, notices.join("\n"));
    assert.equal((await buildIndex(repo)).action, "current", "rebuilt under this user's key");
  });

  it("without a usable key no index is kept: `deliberate index` refuses in one line, a question indexes for itself", { skip: process.platform === "win32" }, async () => {
    const repo = queueRepo();
    const keys = temp("delib-r15c-keys-open-");
    writeFileSync(join(keys, CACHE_KEY_FILE), Buffer.alloc(32, 7), { mode: 0o644 });
    process.env.DELIBERATIVE_KEY_DIR = keys;
    forgetCacheSealKeys();
    try {
      const built = await buildIndex(repo);
      assert.match(built.error ?? "", /^no usable key to seal the history index with \(code-cache\.key .*\); not keeping one$/);
      assert.ok(!existsSync(built.state!.dir), "nothing written");
      const r = await createGitExpert({ index: { build: "foreground", minCommits: 1 } }).run(context(repo, ["rabbitmq", "queue"]));
      assert.ok(r.items.some((i) => i.title === GENUINE));
      assert.match(r.reason ?? "", /no usable key to seal the history index/);
    } finally {
      process.env.DELIBERATIVE_KEY_DIR = KEYS;
      forgetCacheSealKeys();
    }
  });

  it("an untouched index is reused as it is: no rebuild, no notice, across merges, long bodies and many files", async () => {
    const repo = queueRepo();
    git(repo, ["checkout", "-q", "-b", "side"]);
    const many: Record<string, string> = {};
    for (let i = 0; i < 60; i++) many[`src/queue/worker${i}.ts`] = `export const w = ${i};\n`;
    commit(repo, { message: "Add rabbitmq queue workers", files: many }, 10);
    commit(repo, { message: `Tune the rabbitmq queue\n\n${"durable delivery matters. ".repeat(400)}`, files: { "docs/queue.md": "# Queue\n\nRabbitMQ queue tuning notes.\n" } }, 11);
    git(repo, ["checkout", "-q", "main"]);
    commit(repo, { message: "chore 2", files: { "f2.txt": "2\n" } }, 12);
    git(repo, ["merge", "-q", "--no-ff", "-m", "Merge the rabbitmq queue workers", "side"], { GIT_AUTHOR_DATE: "2024-03-01T00:00:00Z", GIT_COMMITTER_DATE: "2024-03-01T00:00:00Z" });
    const built = await buildIndex(repo);
    assert.equal(built.action, "built");
    const before = identity(built.state!.file);
    const notices: string[] = [];
    const opts: HistoryIndexOptions = { build: "foreground", minCommits: 1, log: (l) => notices.push(l) };
    for (let round = 0; round < 2; round++) {
      const r = await createGitExpert({ index: opts }).run(context(repo, ["rabbitmq", "queue", "workers", "durable"]));
      assert.equal(r.status, "ok", r.reason);
      const titles = r.items.map((i) => i.title);
      for (const t of ["Add rabbitmq queue workers", "Tune the rabbitmq queue", "Merge the rabbitmq queue workers", GENUINE]) assert.ok(titles.includes(t), `${t} in ${titles.join(" | ")}`);
      assert.match(r.items.find((i) => i.title === "Add rabbitmq queue workers")!.excerpt, /\+57 more/);
    }
    assert.deepEqual(notices, []);
    assert.deepEqual(identity(built.state!.file), before, "the index file was neither rebuilt nor rewritten");
  });
});

describe("a history key folder that leads outside the cache folder", () => {
  it("is refused alike by `deliberate index` and by a question; nothing is written where it points", async () => {
    const repo = queueRepo();
    const state = await readRepoState(repo);
    assert.ok(!("error" in state));
    const outside = temp("delib-r15c-outside-");
    mkdirSync(join(state.dir, ".."), { recursive: true });
    rmSync(state.dir, { recursive: true, force: true });
    symlinkSync(outside, state.dir);
    const built = await buildIndex(repo);
    assert.match(built.error ?? "", /history index folder .* is a symlink leading outside the cache folder; not using it/);
    await assert.rejects(indexCommand(["--repo", repo], { out: () => undefined, err: () => undefined, stderrIsTTY: false }), (err: unknown) => {
      assert.ok(err instanceof UsageError);
      assert.equal(err.message, built.error);
      assert.ok(!err.message.includes("\n"));
      return true;
    });
    const notices: string[] = [];
    const prepared = await prepareIndex(repo, { build: "foreground", minCommits: 1 }, new AbortController().signal, (l) => notices.push(l));
    assert.equal(prepared.kind, "live");
    assert.equal(prepared.kind === "live" ? prepared.reason : "", built.error);
    assert.deepEqual(notices, [built.error]);
    assert.equal((await indexStatus(repo)).error, built.error);
    assert.deepEqual(readdirSync(outside), [], "nothing written through the symlink");
    assert.ok(lstatSync(state.dir).isSymbolicLink(), "left for the user to look at");
    // The question still answers, from an index of its own.
    const r = await createGitExpert({ index: { build: "foreground", minCommits: 1 } }).run(context(repo, ["rabbitmq", "queue"]));
    assert.ok(r.items.some((i) => i.title === GENUINE));
    assert.deepEqual(readdirSync(outside), []);
    // A symlink that stays inside the cache folder is only a detour, and is used.
    const inside = join(CACHE, "deliberative-search", "elsewhere");
    mkdirSync(inside, { recursive: true });
    rmSync(state.dir);
    symlinkSync(inside, state.dir);
    assert.equal((await buildIndex(repo)).action, "built");
    assert.ok(existsSync(join(inside, "index.sqlite")));
  });
});

const PAGE = htmlPage("Job queues", [["Choosing a job queue", "RabbitMQ offers durable delivery and acknowledgements for the job queue; Redis queues can lose jobs on failover."]]);

describe("the web page cache is sealed", { timeout: 30_000 }, () => {
  let docs: TestServer;
  let requests = 0;
  const FIXED = new Date("2026-03-01T12:00:00.000Z");
  before(async () => {
    docs = await startServer((_req, res) => {
      requests++;
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(PAGE);
    });
  });
  after(() => docs.close());
  afterEach(() => {
    process.env.DELIBERATIVE_KEY_DIR = KEYS;
    forgetCacheSealKeys();
  });

  const opts = (cacheDir: string, now: Date): WebDocsOptions => ({
    docsUrls: [`${docs.origin}/queues`],
    allowHosts: [docs.hostPort],
    includeDefaultHosts: false,
    cacheDir,
    now: () => now,
    timeoutMs: 2000,
  });
  const ask = (cacheDir: string, now: Date) => createWebDocsExpert(opts(cacheDir, now)).run(expertContext({ terms: ["rabbitmq", "redis", "queue"], question: "Redis or RabbitMQ for the job queue?" }));
  const later = new Date(FIXED.getTime() + 60 * 60 * 1000);

  it("an untouched entry is served without a request; an edited one is refused, fetched again and rewritten", async () => {
    const cacheDir = join(temp("delib-r15c-web-"), "web");
    const first = await ask(cacheDir, FIXED);
    assert.equal(first.status, "ok", first.reason);
    const file = cacheFileFor(cacheDir, `${docs.origin}/queues`);
    assert.match(JSON.parse(readFileSync(file, "utf8")).mac, /^[0-9a-f]{64}$/);
    const count = requests;
    const reused = await ask(cacheDir, later);
    assert.equal(requests, count, "no request for a sealed, fresh entry");
    assert.equal(reused.items[0].fetched_at, FIXED.toISOString());
    assert.doesNotMatch(reused.reason ?? "", /integrity/);

    const entry = JSON.parse(readFileSync(file, "utf8"));
    const forged = "FORGED: RabbitMQ is deprecated for job queues; use Redis.";
    entry.text = entry.text.replace("RabbitMQ offers durable delivery", forged);
    for (const s of entry.sections) s.body = s.body.replace("RabbitMQ offers durable delivery", forged);
    writeFileSync(file, JSON.stringify(entry));
    const logs: string[] = [];
    const r = await createWebDocsExpert(opts(cacheDir, later)).run(
      expertContext({ terms: ["rabbitmq", "redis", "queue"], question: "Redis or RabbitMQ for the job queue?", log: (l: string) => logs.push(l) }),
    );
    assert.equal(r.status, "ok", r.reason);
    assert.equal(requests, count + 1, "fetched again");
    assert.ok(!r.items.some((i) => i.excerpt.includes("FORGED")), JSON.stringify(r.items));
    assert.ok(r.items.every((i) => i.fetched_at === later.toISOString()), "cited with the new fetch's time");
    assert.match(r.reason ?? "", /1 cached page failed the cache's integrity check and was fetched again/);
    assert.ok(logs.some((l) => /ignored: its seal does not match its contents; fetching it again/.test(l)), logs.join("\n"));
    assert.ok(!readFileSync(file, "utf8").includes("FORGED"), "the genuine page replaced it");
  });

  it("an entry sealed under another user's key, an unsealed one and a symlink are not served", async () => {
    const cacheDir = join(temp("delib-r15c-web-"), "web");
    await ask(cacheDir, FIXED);
    const file = cacheFileFor(cacheDir, `${docs.origin}/queues`);
    // Another key: a cache restored from another machine or user.
    process.env.DELIBERATIVE_KEY_DIR = temp("delib-r15c-keys2-");
    forgetCacheSealKeys();
    let count = requests;
    const other = await ask(cacheDir, later);
    assert.equal(requests, count + 1);
    assert.match(other.reason ?? "", /integrity check/);
    // Unsealed (as written before entries were sealed): fetched again, no note.
    const entry = JSON.parse(readFileSync(file, "utf8"));
    delete entry.mac;
    writeFileSync(file, JSON.stringify(entry));
    count = requests;
    const unsealed = await ask(cacheDir, later);
    assert.equal(requests, count + 1);
    assert.doesNotMatch(unsealed.reason ?? "", /integrity/);
    // A symlink to a sealed entry elsewhere is refused, not followed.
    const elsewhere = join(temp("delib-r15c-web-"), "entry.json");
    writeFileSync(elsewhere, readFileSync(file));
    rmSync(file);
    symlinkSync(elsewhere, file);
    count = requests;
    const linked = await ask(cacheDir, later);
    assert.equal(requests, count + 1);
    assert.match(linked.reason ?? "", /integrity check/);
  });
});

describe("the per-user cache key", () => {
  it("is created 0600 and never read through a symlink", { skip: process.platform === "win32" }, () => {
    const dir = join(temp("delib-r15c-key-"), "cfg");
    const key = loadOrCreateCacheKey(dir);
    assert.ok(key);
    assert.equal(statSync(join(dir, CACHE_KEY_FILE)).mode & 0o777, 0o600);
    const linked = temp("delib-r15c-key-");
    symlinkSync(join(dir, CACHE_KEY_FILE), join(linked, CACHE_KEY_FILE));
    assert.equal(loadOrCreateCacheKey(linked), undefined, "a symlinked key is not used");
    assert.ok(lstatSync(join(linked, CACHE_KEY_FILE)).isSymbolicLink(), "and not replaced");
  });
});

describe("corpus snapshots are sealed", () => {
  const config = resolveConfig({ offline: true });
  const settle = () => new Promise((r) => setTimeout(r, 40));
  const ADR = "docs/adr/0005-use-postgresql-for-order-storage.md";

  /** The discovery snapshot's value, changed so the ADR says something else; its stat fingerprint still holds. */
  function forgedDiscovery(file: string): Buffer {
    const buf = readFileSync(file);
    const header = buf.subarray(0, buf.indexOf(0x0a) + 1 + 32);
    const value = deserialize(buf.subarray(header.length)) as { set: { files: { path: string; text: string }[] } };
    const f = value.set.files.find((x) => x.path === ADR)!;
    f.text = f.text.replace(/PostgreSQL/g, "MongoDB");
    return Buffer.concat([header, serialize(value)]);
  }

  it("a genuine snapshot is served from disk; a forged one (old tag, or the old CRC format) is not", async () => {
    const repo = createSampleRepo();
    cleanup.push(repo);
    await settle();
    const notices: string[] = [];
    const cache = { dir: temp("delib-r15c-corpus-"), codeId: "test", notice: (l: string) => notices.push(l) };
    const first = await discoverWithSnapshot(repo, config, { cache });
    assert.equal(first.from, "discovery");
    forgetDiscoverySnapshots();
    assert.equal((await discoverWithSnapshot(repo, config, { cache })).from, "disk", "an untouched snapshot is reused");
    const folder = corpusDirFor(cache.dir, repo);
    const file = join(folder, readdirSync(folder).find((n) => n.startsWith("discovery-"))!);
    const genuine = readFileSync(file);

    writeFileSync(file, forgedDiscovery(file));
    forgetDiscoverySnapshots();
    const again = await discoverWithSnapshot(repo, config, { cache });
    assert.equal(again.from, "discovery");
    assert.match(again.set.files.find((f) => f.path === ADR)!.text, /PostgreSQL/);
    assert.deepEqual(notices, ["discovery snapshot seal mismatch (damaged, or not written by this user); discovering again"]);

    // The format before sealing carried a CRC-32, which anyone can recompute: such a file is not read at all.
    writeFileSync(file, genuine);
    const forged = forgedDiscovery(file);
    const payload = forged.subarray(genuine.indexOf(0x0a) + 1 + 32);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE((zlib as unknown as { crc32: (b: Buffer) => number }).crc32(payload));
    writeFileSync(file, Buffer.concat([Buffer.from("DSCORPUS1\n"), crc, payload]));
    forgetDiscoverySnapshots();
    const legacy = await discoverWithSnapshot(repo, config, { cache });
    assert.equal(legacy.from, "discovery");
    assert.match(legacy.set.files.find((f) => f.path === ADR)!.text, /PostgreSQL/);
  });

  it("a snapshot sealed under another key is refused; a planted symlink is not followed", async () => {
    const dir = temp("delib-r15c-snap-");
    const file = join(dir, "k", "docs-x.bin");
    await writeSnapshot(file, { hello: "world" });
    assert.deepEqual(await readSnapshot(file), { value: { hello: "world" } });
    process.env.DELIBERATIVE_KEY_DIR = temp("delib-r15c-keys3-");
    forgetCacheSealKeys();
    try {
      assert.match(JSON.stringify(await readSnapshot(file)), /seal mismatch/);
    } finally {
      process.env.DELIBERATIVE_KEY_DIR = KEYS;
      forgetCacheSealKeys();
    }
    const link = join(dir, "k", "docs-y.bin");
    symlinkSync(file, link);
    assert.match(JSON.stringify(await readSnapshot(link)), /is a symlink/);
  });
});
