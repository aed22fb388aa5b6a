// What a question costs the history index in a fresh process (issue 20): the freshness check and the query share one
// SQLite connection, which is never reused once the file at that path was replaced or removed; and a short-lived
// process (the CLI) compiles SQLite's WebAssembly with V8's baseline compiler only when it reads an existing index,
// while a process whose first use builds one, or a host that does not say it is short-lived, optimises as before.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { copyFileSync, readFileSync, renameSync } from "node:fs";
import { join, resolve } from "node:path";
import { before, describe, it } from "node:test";
import { Script } from "node:vm";
import { historyOptionsForCli } from "../../src/cli/historyIndex";
import { selectTerms } from "../../src/core/internal/gitTerms";
import { buildIndex, searchIndex } from "../../src/core/internal/history";
import { removeIndexFiles } from "../../src/core/internal/history/build";
import { takeParkedConnection } from "../../src/core/internal/history/db";
import { readIndexMeta } from "../../src/core/internal/history/search";
import { historyTestEnv } from "../fixtures/historyRepo";
import { commit } from "../helpers/gitRepo";

const { cache: CACHE, fixtureRepo } = historyTestEnv("delib-history-conn-cache-");
const ROOT = resolve(__dirname, "..", "..");

function subjects(file: string, word: string): string[] {
  return searchIndex(file, selectTerms([word], 1, 8, new Set()), 20).commits.map((c) => c.subject);
}

/** Counts the SQLite connections opened from now on (db.ts looks the constructor up on the module at each open). */
function countOpens(): { readonly n: number; restore(): void } {
  const mod = require("node-sqlite3-wasm") as { Database: new (...args: unknown[]) => unknown };
  const original = mod.Database;
  let n = 0;
  mod.Database = class extends (original as new (...args: unknown[]) => object) {
    constructor(...args: unknown[]) {
      n++;
      super(...args);
    }
  } as typeof original;
  return {
    get n() {
      return n;
    },
    restore: () => void (mod.Database = original),
  };
}

describe("history index: one connection per question", () => {
  let file: string;
  before(async () => {
    const r = await buildIndex(fixtureRepo());
    assert.equal(r.action, "built");
    file = r.state!.file;
  });

  it("opens SQLite once for the freshness check and the query that follows, with the same results", () => {
    const fresh = subjects(file, "pino");
    assert.ok(fresh.includes("Switch logging from winston to pino"), fresh.join(" | "));
    const opens = countOpens();
    try {
      assert.equal(readIndexMeta(file).commits, "6");
      assert.deepEqual(subjects(file, "pino"), fresh);
      assert.equal(opens.n, 1);
      // The query took the connection and closed it: the next query opens its own.
      assert.equal(takeParkedConnection(file), undefined);
      assert.deepEqual(subjects(file, "pino"), fresh);
      assert.equal(opens.n, 2);
    } finally {
      opens.restore();
    }
  });

  it("never queries through a connection to a file that a rebuild has since renamed over the path", async () => {
    const other = fixtureRepo();
    commit(other, { files: { "docs/queue.md": "We pick RabbitMQ for the work queue.\n" }, message: "Adopt rabbitmq for the work queue" }, 40);
    const built = await buildIndex(other);
    assert.ok(built.state && built.state.file !== file);
    readIndexMeta(file); // parks a connection to the first index
    copyFileSync(built.state.file, `${file}.new`);
    renameSync(`${file}.new`, file); // what a full rebuild does
    assert.deepEqual(subjects(file, "rabbitmq"), ["Adopt rabbitmq for the work queue"]);
  });

  it("closes the parked connection before the index files are removed", async () => {
    const r = await buildIndex(fixtureRepo());
    const f = r.state!.file;
    readIndexMeta(f);
    await removeIndexFiles(f);
    assert.equal(takeParkedConnection(f), undefined);
    assert.throws(() => readIndexMeta(f));
  });
});

const CACHED_SOURCE = "(function cached(a, b) { return [a, b].join('+'); })";
const CACHED_DATA = join(CACHE, "code-cache.bin");

/** Whether V8 in this process (default flags) accepts the code the child cached. */
function cachedCodeAccepted(): boolean {
  const script = new Script(CACHED_SOURCE, { cachedData: readFileSync(CACHED_DATA) });
  return script.cachedDataRejected === false;
}

/** Runs prepareIndex in a fresh process (the WebAssembly is compiled once per process) and reports how. */
function tieringInFreshProcess(repo: string, opts: { shortLived: boolean; removeFirst?: boolean }): string {
  const code = `
    const { prepareIndex, sqliteWasmTiering, readRepoState } = require(${JSON.stringify(join(ROOT, "src/core/internal/history"))});
    const { removeIndexFiles } = require(${JSON.stringify(join(ROOT, "src/core/internal/history/build"))});
    // Code cached at exit (as the CLI caches its bundle, with a listener added before the question runs) must still
    // load under V8's default flags.
    const script = new (require("node:vm").Script)(${JSON.stringify(CACHED_SOURCE)});
    process.once("exit", () => require("node:fs").writeFileSync(${JSON.stringify(CACHED_DATA)}, script.createCachedData()));
    (async () => {
      if (${opts.removeFirst ? "true" : "false"}) { const s = await readRepoState(${JSON.stringify(repo)}); await removeIndexFiles(s.file); }
      const p = await prepareIndex(${JSON.stringify(repo)}, { build: "foreground", minCommits: 1, shortLived: ${opts.shortLived} }, new AbortController().signal, () => {});
      process.stdout.write(p.kind + " " + sqliteWasmTiering());
    })().catch((e) => { process.stderr.write(String(e)); process.exit(1); });`;
  return execFileSync(process.execPath, ["--import", "tsx", "-e", code], { cwd: ROOT, env: { ...process.env, XDG_CACHE_HOME: CACHE }, encoding: "utf8" });
}

describe("history index: how SQLite's WebAssembly is compiled", () => {
  let repo: string;
  before(async () => {
    repo = fixtureRepo();
    assert.equal((await buildIndex(repo)).action, "built");
  });

  it("uses the baseline compiler only in a short-lived process that reads an existing index", () => {
    assert.equal(tieringInFreshProcess(repo, { shortLived: true }), "ready baseline");
    // V8's flags are back to their defaults: code cached in that process is not rejected by the next one.
    assert.equal(cachedCodeAccepted(), true);
  });

  it("optimises in a host that is not short-lived", () => {
    assert.equal(tieringInFreshProcess(repo, { shortLived: false }), "ready optimising");
  });

  it("optimises when the process's first use of SQLite builds the index", () => {
    assert.equal(tieringInFreshProcess(repo, { shortLived: true, removeFirst: true }), "ready optimising");
  });

  it("is asked for by the CLI, whether or not stderr is a terminal", () => {
    const io = { stderrIsTTY: false, err: () => undefined } as unknown as Parameters<typeof historyOptionsForCli>[0];
    assert.equal(historyOptionsForCli(io, false)?.shortLived, true);
    assert.equal(historyOptionsForCli({ ...io, stderrIsTTY: true } as typeof io, false)?.shortLived, true);
  });
});
