// Issue 20, "Deterministic answers": the same question on the same repository state gives the same payload cold
// (no history index, no corpus snapshot, an empty cache folder) and warm (after `deliberate index`), and twice warm.
// The payload is compared as the eval compares it (eval/answerKey.ts: ids, times and durations left out), with the
// ranked evidence of the receipt (ids in order) next to it.
import assert from "node:assert/strict";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { answerKey, firstDifference } from "../../eval/answerKey";
import { createSampleRepo } from "../fixtures/sampleRepo";
import { assertCliBuilt, newCliUser, runCli } from "../helpers/cli";
import { commit, type CommitSpec } from "../helpers/gitRepo";

const cleanup: string[] = [];
after(() => {
  for (const dir of cleanup) rmSync(dir, { recursive: true, force: true });
});

/** The sample repository plus history that only the documentation diffs tell: edits whose message names no term. */
function repoWithHistory(): string {
  const repo = createSampleRepo();
  const edits: CommitSpec[] = [
    { message: "Tidy the storage notes", files: { "docs/notes/storage.md": "# Storage\n\nOrders live in PostgreSQL since ADR 5; MongoDB is gone.\n" } },
    { message: "Spell-check", files: { "docs/notes/storage.md": "# Storage\n\nOrders live in PostgreSQL since ADR 5; MongoDB is retired.\n" } },
    { message: "Wire the connection pool", files: { "src/db/pool.ts": "export const poolSize = 10; // postgresql\n" } },
    { message: "Logging notes", files: { "docs/notes/logging.md": "# Logging\n\npino writes JSON lines; winston is no longer used.\n" } },
  ];
  edits.forEach((c, i) => commit(repo, { ...c, date: new Date(Date.UTC(2024, 6, 1 + i)).toISOString() }, i));
  return repo;
}

const QUESTIONS = [
  "Should we keep PostgreSQL for order storage or go back to MongoDB?",
  "How should the services do structured logging: pino or winston?",
];

interface Answer {
  key: string;
  evidence: string[];
}

function ask(repo: string, env: NodeJS.ProcessEnv, question: string): Answer {
  const run = runCli([question, "--repo", repo, "--offline", "--json", "--no-cache", "--force", "--git-budget-ms", "60000"], { env, timeoutMs: 120_000 });
  assert.equal(run.code, 0, run.stderr);
  const out = JSON.parse(run.stdout) as { receipt_ref: string };
  const receipt = JSON.parse(readFileSync(join(repo, ".deliberations", `${out.receipt_ref}.json`), "utf8")) as { payload: unknown; evidence_ref: string };
  const raw = JSON.parse(readFileSync(join(repo, ".deliberations", "evidence", `${receipt.evidence_ref}.json`), "utf8")) as unknown;
  const items = (Array.isArray(raw) ? raw : (raw as { items: unknown[] }).items) as { id: string }[];
  const evidence = items.map((e) => e.id);
  return { key: answerKey(receipt.payload, evidence), evidence };
}

function assertSame(a: Answer, b: Answer, labels: [string, string]): void {
  assert.ok(a.key === b.key, `${labels[0]} and ${labels[1]} answers differ: ${firstDifference(a.key, b.key, labels)}`);
}

describe("identical answers cold and warm (CLI)", () => {
  it("gives the same payload without and with the history index and the corpus snapshot, and twice warm", () => {
    assertCliBuilt();
    const repo = repoWithHistory();
    const user = newCliUser();
    cleanup.push(repo, user.keyDir, user.cacheHome);
    const cold = { ...user.env, DELIBERATIVE_HISTORY_INDEX: "off", DELIBERATIVE_CORPUS_CACHE: "off", DELIBERATIVE_NO_BACKGROUND_INDEX: "1" };
    const warm = { ...user.env, DELIBERATIVE_NO_BACKGROUND_INDEX: "1" };
    const coldAnswers = QUESTIONS.map((q) => ask(repo, cold, q));
    const indexed = runCli(["index", "--repo", repo], { env: warm, timeoutMs: 120_000 });
    assert.equal(indexed.code, 0, indexed.stderr);
    const warmAnswers = QUESTIONS.map((q) => ask(repo, warm, q));
    const again = QUESTIONS.map((q) => ask(repo, warm, q));
    QUESTIONS.forEach((q, i) => {
      // The history must take part, or the comparison proves nothing about it.
      assert.ok(warmAnswers[i].key.includes('"commit":"'), `no commit cited for: ${q}`);
      assertSame(coldAnswers[i], warmAnswers[i], ["cold", "warm"]);
      assertSame(warmAnswers[i], again[i], ["warm", "warm again"]);
    });
  });
});
