// One resident `deliberate mcp` answering several questions (the eval's --resident mode, eval/resident.ts): nothing
// one question leaves behind in the server (caches, parsed corpus, worker state) may change another's answer. The
// server runs with --no-cache, as the eval runs it, so a repeated question is deliberated again rather than served
// from the turn cache, and its answer must equal the first one and the fresh process's.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ResidentServer } from "../../eval/resident";
import { answerKey, stableJson } from "../../eval/answerKey";
import { rankedDocs, type LooseEvidence } from "../../eval/metrics";
import { createSampleRepo } from "../fixtures/sampleRepo";
import { git } from "../helpers/gitRepo";
import { CLI, assertCliBuilt, assertOneLineError, newCliUser, runCli } from "../helpers/cli";

const USER = newCliUser();
const MONGO_Q = "Should we store orders in MongoDB or PostgreSQL?";
const LOGGING_Q = "Should we adopt winston for logging?";
const CART_Q = "Redux or Zustand for cart state?";

interface Answer {
  receipt_ref: string;
  evidence_ref: string;
  options: { title: string }[];
}

/** The eval's answer key: the payload without ids, times and durations, plus the ranked documents. */
function keyOf(repo: string, payload: Answer): string {
  const evidence = JSON.parse(readFileSync(join(repo, ".deliberations", "evidence", `${payload.evidence_ref}.json`), "utf8")) as LooseEvidence[];
  return answerKey(payload, rankedDocs(evidence));
}

describe("a resident MCP server answering one question after another", () => {
  let repo: string;
  let server: ResidentServer;
  before(async () => {
    assertCliBuilt();
    repo = createSampleRepo();
    server = await ResidentServer.start({ cli: CLI, repoDir: repo, env: { ...USER.env, DELIBERATIVE_NO_BACKGROUND_INDEX: "1" }, gitBudgetMs: "60000", timeoutMs: 120_000 });
  });
  after(() => server.close());

  test("asked again after two other questions, a question gets the answer it got first", async () => {
    const asked: Answer[] = [];
    for (const question of [MONGO_Q, LOGGING_Q, CART_Q, MONGO_Q]) {
      const answer = await server.ask(question);
      assert.equal(answer.error, undefined, `${question}: ${answer.error} ${server.stderr()}`);
      asked.push(answer.payload as Answer);
    }
    const [first, logging, cart, repeat] = asked;
    assert.notEqual(repeat.receipt_ref, first.receipt_ref, "the repeat was deliberated again (--no-cache), not served from the turn cache");
    assert.notEqual(stableJson(logging), stableJson(first), "the questions in between have answers of their own");
    assert.notEqual(stableJson(cart), stableJson(first));
    assert.match(first.options.map((o) => o.title).join(" | "), /postgres/i);
    assert.equal(keyOf(repo, repeat), keyOf(repo, first), "the same payload and ranked documents");
  });

  test("the resident answer equals a fresh process's answer to the same question", async () => {
    const resident = await server.ask(CART_Q);
    assert.equal(resident.error, undefined, resident.error);
    const r = runCli([CART_Q, "--repo", repo, "--offline", "--json", "--no-cache", "--force", "--git-budget-ms", "60000"], {
      env: { ...USER.env, DELIBERATIVE_NO_BACKGROUND_INDEX: "1" },
      cwd: repo,
      timeoutMs: 120_000,
    });
    assert.equal(r.code, 0, r.stderr);
    const fresh = JSON.parse(r.stdout) as Answer & { synthesis?: unknown };
    delete fresh.synthesis; // the CLI's --json adds which synthesis path ran; the MCP payload is the payload alone
    assert.equal(keyOf(repo, resident.payload as Answer), keyOf(repo, fresh));
  });
});

describe("a resident MCP server after the repository changed between two questions", () => {
  let repo: string;
  let server: ResidentServer;
  const env = { ...USER.env, DELIBERATIVE_NO_BACKGROUND_INDEX: "1" };
  before(async () => {
    assertCliBuilt();
    repo = createSampleRepo();
    server = await ResidentServer.start({ cli: CLI, repoDir: repo, env, gitBudgetMs: "60000", timeoutMs: 120_000 });
  });
  after(() => server.close());

  /** The resident answer and a fresh process's, as answer keys, with the paths of the evidence the resident one cites. */
  async function askBoth(question: string): Promise<{ resident: string; fresh: string; paths: string[] }> {
    const answer = await server.ask(question);
    assert.equal(answer.error, undefined, `${answer.error} ${server.stderr()}`);
    const payload = answer.payload as Answer;
    const r = runCli([question, "--repo", repo, "--offline", "--json", "--no-cache", "--force", "--git-budget-ms", "60000"], { env, cwd: repo, timeoutMs: 120_000 });
    assert.equal(r.code, 0, r.stderr);
    const fresh = JSON.parse(r.stdout) as Answer & { synthesis?: unknown };
    delete fresh.synthesis;
    const evidence = JSON.parse(readFileSync(join(repo, ".deliberations", "evidence", `${payload.evidence_ref}.json`), "utf8")) as { path_or_url?: string; commit?: string }[];
    return { resident: keyOf(repo, payload), fresh: keyOf(repo, fresh), paths: evidence.map((e) => e.commit ?? e.path_or_url ?? "") };
  }

  test("a new file, an ignore rule and a commit made between questions show in the next answer, as a fresh process sees them", async () => {
    assert.ok(server.warmMs !== undefined, "the server warmed up before the first question");
    const before = await askBoth(MONGO_Q);
    assert.equal(before.resident, before.fresh);
    assert.ok(!before.paths.includes("src/archive/mongoStore.ts"));
    await server.ask(LOGGING_Q);

    // An untracked source file in a new folder that imports one of the options.
    mkdirSync(join(repo, "src", "archive"));
    writeFileSync(join(repo, "src", "archive", "mongoStore.ts"), 'import { MongoClient } from "mongodb";\nexport const archive = new MongoClient("mongodb://localhost");\n');
    await new Promise((r) => setTimeout(r, 60));
    const added = await askBoth(MONGO_Q);
    assert.equal(added.resident, added.fresh, "the resident server sees the new file as a fresh process does");
    assert.ok(added.paths.includes("src/archive/mongoStore.ts"), `the new file is cited: ${added.paths.join(", ")}`);
    assert.notEqual(added.resident, before.resident);

    // Ignored from now on.
    writeFileSync(join(repo, ".gitignore"), "src/archive/\n");
    await new Promise((r) => setTimeout(r, 60));
    const ignored = await askBoth(MONGO_Q);
    assert.equal(ignored.resident, ignored.fresh);
    assert.ok(!ignored.paths.includes("src/archive/mongoStore.ts"), "an ignored file is not counted");

    // Committed (forced past the ignore rule): HEAD moves, the history index catches up, the commit can be cited.
    git(repo, ["add", "-f", "src/archive/mongoStore.ts"]);
    git(repo, ["commit", "-q", "-m", "Archive old orders in MongoDB instead of PostgreSQL"]);
    const head = git(repo, ["rev-parse", "HEAD"]).trim();
    const committed = await askBoth(MONGO_Q);
    assert.equal(committed.resident, committed.fresh);
    assert.ok(committed.paths.includes(head), `the new commit is cited: ${committed.paths.join(", ")}`);
  });
});

test("deliberate mcp refuses a git budget outside 50..60000 ms before serving", () => {
  assertCliBuilt();
  const r = runCli(["mcp", "--repo", ".", "--git-budget-ms", "10"], { env: USER.env });
  assertOneLineError(r, 2, /--git-budget-ms: expected an integer from 50 to 60000, got 10/);
});
