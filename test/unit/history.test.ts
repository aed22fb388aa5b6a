// The persistent git history index (src/core/internal/history) against real git repositories in temp dirs:
// build and query, incremental update, rebase re-sync, concurrent updaters, a corrupt index, a shallow clone being
// deepened, an empty repository, and the live fallback while a build runs
// (`deliberate index` itself: test/cli/index.test.ts).
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { before, describe, it } from "node:test";
import { promisify } from "node:util";
import { resolveConfig } from "../../src/core/config";
import { createGitExpert } from "../../src/core/internal/git";
import { selectTerms } from "../../src/core/internal/gitTerms";
import { buildIndex, historyCacheRoot, indexStatus, readRepoState, runningBuild, searchIndex, type HistoryIndexOptions } from "../../src/core/internal/history";
import type { ExpertContext } from "../../src/core/types";
import { historyTestEnv } from "../fixtures/historyRepo";
import { commit, git, makeTempDir } from "../helpers/gitRepo";

const { cache: CACHE, cleanup, fixtureRepo } = historyTestEnv("delib-history-cache-");
const ROOT = resolve(__dirname, "..", "..");

function terms(...words: string[]) {
  return selectTerms(words, 1, 8, new Set());
}

async function fileOf(repo: string): Promise<string> {
  const st = await readRepoState(repo);
  assert.ok(!("error" in st));
  return st.file;
}

function search(file: string, ...words: string[]) {
  return searchIndex(file, terms(...words), 20);
}

function context(repo: string, words: string[], logs: string[] = []): ExpertContext {
  const config = resolveConfig();
  return {
    repo,
    question: words.join(" "),
    plan: { mode: "rules", terms: words, expansions: [] },
    // The question's own index (git.ts) must never be cut short on a loaded test machine.
    config: { ...config, git: { ...config.git, maxMs: 60_000 } },
    artifacts: { files: [], skipped: [], hash: "" },
    signal: new AbortController().signal,
    log: (m) => logs.push(m),
  };
}

describe("history index: build and query", () => {
  let repo: string;
  let file: string;
  before(async () => {
    repo = fixtureRepo();
    const r = await buildIndex(repo);
    assert.equal(r.action, "built");
    assert.equal(r.added, 6);
    file = r.state!.file;
  });

  it("lives in the user's cache directory, outside the working tree", () => {
    assert.ok(file.startsWith(historyCacheRoot()), file);
    assert.ok(file.startsWith(CACHE));
    assert.ok(!file.startsWith(repo));
    assert.equal(git(repo, ["status", "--porcelain"]).trim(), "");
  });

  it("finds commits by subject, by documentation diff text, by path token and by body", () => {
    const pino = search(file, "pino");
    const subjects = pino.commits.map((c) => c.subject);
    assert.ok(subjects.includes("Switch logging from winston to pino"), subjects.join(" | "));
    const adr = pino.commits.find((c) => c.subject.startsWith("docs(adr)"));
    assert.ok(adr, "the ADR commit matches through its diff text");
    assert.equal(adr.doc?.path, "docs/adr/0001-logging.md");
    assert.equal(adr.doc?.start, 1);
    assert.match(adr.doc!.line, /pino/);
    assert.deepEqual(search(file, "gateway").commits.map((c) => c.subject), ["Refactor retries"]);
    assert.deepEqual(search(file, "kafka").commits.map((c) => c.subject), ["Tune consumer"]);
    assert.equal(search(file, "nonexistentword").commits.length, 0);
  });

  it("answers the git expert with cited commits and no cut-short reason", async () => {
    const logs: string[] = [];
    const r = await createGitExpert({ index: { build: "none" } }).run(context(repo, ["pino", "logging"], logs));
    assert.equal(r.status, "ok");
    assert.ok(!r.truncated);
    assert.doesNotMatch(r.reason ?? "", /cut short/);
    const adr = r.items.find((i) => i.title?.startsWith("docs(adr)"));
    assert.ok(adr);
    assert.equal(adr.path_or_url, "docs/adr/0001-logging.md");
    assert.match(adr.excerpt, /docs\/adr\/0001-logging\.md lines 1–\d+: \+.*pino/);
    assert.deepEqual(adr.touched_paths, ["docs/adr/0001-logging.md"]);
    assert.ok(logs.some((l) => /^history index: /.test(l)), logs.join("\n"));
  });
});

describe("history index: updates", () => {
  it("follows new commits incrementally", async () => {
    const repo = fixtureRepo();
    const first = await buildIndex(repo);
    assert.equal(first.action, "built");
    for (let i = 0; i < 10; i++) commit(repo, { message: `Add feature ${i}${i === 7 ? " with opentelemetry tracing" : ""}`, files: { [`src/f${i}.ts`]: `export const f = ${i};\n` } }, 10 + i);
    const r = await buildIndex(repo);
    assert.equal(r.action, "updated");
    assert.equal(r.added, 10);
    assert.equal(r.commits, 16);
    assert.deepEqual(search(r.state!.file, "opentelemetry").commits.map((c) => c.subject), ["Add feature 7 with opentelemetry tracing"]);
    assert.equal((await buildIndex(repo)).action, "current");
  });

  it("re-syncs after a rebase: rewritten commits replaced, dropped ones gone", async () => {
    const repo = fixtureRepo();
    const dropped = commit(repo, { message: "Adopt moment for dates", files: { "src/dates.ts": "import moment from 'moment';\n" } }, 20);
    commit(repo, { message: "Use dayjs instead", files: { "src/dates2.ts": "import dayjs from 'dayjs';\n" } }, 21);
    const built = await buildIndex(repo);
    assert.equal(built.commits, 8);
    // Drop the moment commit with a rebase (history rewritten).
    git(repo, ["rebase", "-q", "--onto", `${dropped}~1`, dropped]);
    const r = await buildIndex(repo);
    assert.equal(r.action, "resynced");
    assert.equal(r.removed, 2, "the dropped commit and the old copy of its successor");
    assert.equal(r.added, 1);
    assert.equal(r.commits, 7);
    const file = r.state!.file;
    assert.equal(search(file, "moment").commits.length, 0);
    const dayjs = search(file, "dayjs").commits;
    assert.equal(dayjs.length, 1);
    assert.equal(dayjs[0].sha, git(repo, ["rev-parse", "HEAD"]).trim());
    // A forced full rebuild gives the same index.
    const again = await buildIndex(repo, { rebuild: true });
    assert.equal(again.action, "built");
    assert.equal(again.commits, 7);
  });

  it("never corrupts the index when several processes update it at once", async () => {
    const repo = fixtureRepo();
    for (let i = 0; i < 30; i++) commit(repo, { message: `Commit ${i} about graphql`, files: { [`src/g${i}.md`]: `graphql note ${i}\n` } }, 30 + i);
    const run = promisify(execFile);
    const worker = join(ROOT, "test", "helpers", "historyWorker.ts");
    const outs = await Promise.all(
      Array.from({ length: 4 }, (_, i) => run(process.execPath, ["--import", "tsx", worker, repo, ...(i % 2 ? ["--rebuild"] : [])], { cwd: ROOT, env: process.env })),
    );
    const results = outs.map((o) => JSON.parse(o.stdout.trim().split("\n").pop()!));
    for (const r of results) assert.ok(["built", "busy", "current"].includes(r.action), JSON.stringify(r));
    assert.ok(results.some((r) => r.action === "built"));
    // Whatever interleaving happened, the index is complete and readable, and no temp or lock file is left.
    const file = await fileOf(repo);
    assert.equal(search(file, "graphql").commits.length, 20);
    assert.equal((await buildIndex(repo)).action, "current");
    const st = await indexStatus(repo);
    assert.equal(st.summary?.commits, 36);
    const leftovers = readdirSync(st.dir!).filter((n) => n !== "index.sqlite");
    assert.deepEqual(leftovers, []);
  });

  it("rebuilds a corrupt index, saying so in one line", async () => {
    const repo = fixtureRepo();
    const r = await buildIndex(repo);
    writeFileSync(r.state!.file, Buffer.alloc(64 * 1024, 0x5a));
    const logs: string[] = [];
    const notices: string[] = [];
    const opts: HistoryIndexOptions = { build: "foreground", minCommits: 1, log: (l) => notices.push(l) };
    const out = await createGitExpert({ index: opts }).run(context(repo, ["pino"], logs));
    assert.equal(out.status, "ok");
    assert.ok(out.items.some((i) => i.title === "Switch logging from winston to pino"));
    assert.equal(notices.length, 1, notices.join("\n"));
    assert.match(notices[0], /history index at .* cannot be used \(.*\); rebuilding it/);
    assert.equal(logs.filter((l) => /cannot be used/.test(l)).length, 1);
    assert.equal((await buildIndex(repo)).action, "current");
  });
});

describe("history index: shallow clones and empty repositories", () => {
  it("indexes a shallow clone, and re-syncs when it is deepened", async () => {
    const origin = fixtureRepo();
    for (let i = 0; i < 6; i++) commit(origin, { message: `Later change ${i}`, files: { "docs/notes.md": `note ${i} about sqlite\n` } }, 40 + i);
    const clone = makeTempDir("delib-shallow-");
    cleanup.push(clone);
    git(clone, ["clone", "-q", "--depth", "3", `file://${origin}`, "."]);
    const r = await buildIndex(clone);
    assert.equal(r.action, "built");
    assert.equal(r.commits, 3);
    const boundary = git(clone, ["rev-parse", "HEAD~2"]).trim();
    git(clone, ["fetch", "-q", "--deepen", "5"]);
    const deeper = await buildIndex(clone);
    assert.equal(deeper.action, "resynced");
    assert.equal(deeper.commits, 8);
    assert.equal(deeper.reason, "shallow clone changed");
    // The old boundary commit was re-indexed with its real parent: it now touches one file, not the whole tree.
    const hit = search(deeper.state!.file, "later").commits.find((c) => c.sha === boundary);
    assert.ok(hit);
    assert.deepEqual(hit.files.map((f) => f.path), ["docs/notes.md"]);
    git(clone, ["fetch", "-q", "--unshallow"]);
    const full = await buildIndex(clone);
    assert.equal(full.commits, 12);
  });

  it("reports an empty repository without creating an index", async () => {
    const repo = makeTempDir("delib-empty-");
    cleanup.push(repo);
    git(repo, ["init", "-q", "-b", "main"]);
    const r = await buildIndex(repo);
    assert.equal(r.action, "empty");
    const out = await createGitExpert({ index: { build: "foreground", minCommits: 1 } }).run(context(repo, ["pino"]));
    assert.equal(out.status, "empty");
    assert.match(out.reason ?? "", /no commits yet/);
    const st = await indexStatus(repo);
    assert.equal(st.exists, false);
  });
});

describe("history index: while it is building", () => {
  it("answers from an index of its own and says the index is building, then uses the index", async () => {
    const repo = fixtureRepo();
    const seen: string[] = [];
    const opts: HistoryIndexOptions = { build: "background", minCommits: 1, onBackgroundBuild: (b) => seen.push(b.toplevel) };
    const expert = createGitExpert({ index: opts });
    const first = await expert.run(context(repo, ["pino"]));
    assert.match(first.reason ?? "", /history index is building/);
    assert.ok(first.items.some((i) => i.title === "Switch logging from winston to pino"), "the question's own index still answers");
    assert.equal(seen.length, 1);
    const st = await readRepoState(repo);
    assert.ok(!("error" in st));
    const build = runningBuild(st.toplevel);
    if (build) assert.equal((await build.done).action, "built");
    const second = await expert.run(context(repo, ["pino"]));
    assert.doesNotMatch(second.reason ?? "", /building|cut short/);
    assert.equal(second.status, "ok");
  });

  it("indexes a short history before the query whatever the host's build mode", async () => {
    const repo = fixtureRepo();
    const out = await createGitExpert({ index: { build: "background" } }).run(context(repo, ["pino"]));
    assert.equal(out.status, "ok");
    assert.equal(out.reason, undefined);
    assert.equal((await indexStatus(repo)).exists, true);
  });
});
