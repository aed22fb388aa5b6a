// The decision guard reads a picked receipt in `.deliberations/` as a decision only when its signature verifies with
// a trusted key (your own, or one listed in `.deliberations/allowed_signers`) and its evidence is intact. On a real
// git repository with a real deliberation and a real signed pick: the properly signed pick gives a finding; the same
// pick with no trusted signer, a forged pick (the file edited after signing), a pick re-signed by a stranger's key
// and an unsigned copy give none, and the report says in one note that they were skipped.
import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { checkChange, GuardReportSchema, type GuardReport } from "../../src/core/guard";
import { deliberate } from "../../src/core/pipeline";
import { generateSigningKey, signReceipt } from "../../src/core/receipts/signing";
import { recordPick } from "../../src/core/receipts/store";
import { addAllowedSigner, signerLine } from "../../src/core/receipts/trust";
import type { Receipt } from "../../src/core/schemas";
import { LEARNING_Q, createLearningRepo } from "../fixtures/learningRepo";
import { makeTempDir } from "../helpers/gitRepo";

const DIR = ".deliberations";
const key = generateSigningKey();
const stranger = generateSigningKey();

/** The change under test: the rejected queue comes in as a dependency. */
const PACKAGE_JSON = `{\n  "name": "shop",\n  "dependencies": {\n    "rabbitmq-client": "^5.0.0"\n  }\n}\n`;

async function check(repo: string, ownPublicKeyPem?: string): Promise<GuardReport> {
  const report = await checkChange(repo, { kind: "worktree" }, { config: {}, ...(ownPublicKeyPem ? { ownPublicKeyPem } : {}) });
  return GuardReportSchema.parse(report);
}

const fromReceipts = (r: GuardReport) => r.findings.filter((f) => f.decision.path.startsWith(`${DIR}/`));
const skippedNote = (r: GuardReport) => r.notes.find((n) => /picked receipts? skipped: not signed by a trusted key/.test(n));

/** A copy of the repository with only the working-tree change and the receipt file as `edit` leaves it. */
function copyWith(source: string, receiptId: string, edit: (raw: Record<string, unknown>) => Record<string, unknown>): string {
  const repo = join(makeTempDir(), "copy");
  cpSync(source, repo, { recursive: true });
  const file = join(repo, DIR, `${receiptId}.json`);
  writeFileSync(file, `${JSON.stringify(edit(JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>), null, 2)}\n`);
  return repo;
}

describe("guard: picked receipts count only when a trusted key signed them", () => {
  let repo: string;
  let receiptId: string;
  let redisId: string;

  before(async () => {
    repo = createLearningRepo();
    const out = await deliberate({ repo, question: LEARNING_Q, signingKey: key, useCache: false });
    assert.equal(out.kind, "deliberated");
    if (out.kind !== "deliberated") return;
    const redis = out.payload.options.find((o) => /redis/i.test(o.title) && !/rabbit/i.test(o.title));
    assert.ok(redis, `a Redis option among ${out.payload.options.map((o) => o.title).join(", ")}`);
    assert.ok(out.payload.options.some((o) => /rabbit/i.test(o.title) && !/redis/i.test(o.title)), "a RabbitMQ option");
    // The operator picks Redis: RabbitMQ is now turned down by a signed deliberation.
    await recordPick(repo, out.receipt.receipt_id, { option_id: redis.id, reason: "Redis with persistence is enough for us" }, key, DIR);
    receiptId = out.receipt.receipt_id;
    redisId = redis.id;
    writeFileSync(join(repo, "package.json"), PACKAGE_JSON);
  });

  test("a pick signed with your own key is a decision: adding the rejected option is a finding citing the receipt", async () => {
    const report = await check(repo, key.publicKeyPem);
    const found = fromReceipts(report);
    assert.equal(found.length, 1, JSON.stringify(report.findings, null, 2));
    assert.equal(found[0].kind, "introduces-rejected-option");
    assert.equal(found[0].decision.path, `${DIR}/${receiptId}.json`);
    assert.equal(found[0].file, "package.json");
    assert.match(found[0].matched.subject, /rabbit/i);
    assert.equal(skippedNote(report), undefined);
  });

  test("the same pick signed by a key that is neither yours nor an allowed signer decides nothing", async () => {
    const report = await check(repo);
    assert.deepEqual(fromReceipts(report), []);
    assert.ok(skippedNote(report), report.notes.join("\n"));
  });

  test("a key listed in .deliberations/allowed_signers is trusted without being yours", async () => {
    const copy = copyWith(repo, receiptId, (raw) => raw);
    await addAllowedSigner(copy, DIR, "alice", signerLine("alice", key.publicKeyPem).split(" ").slice(1).join(" "));
    const report = await check(copy);
    assert.equal(fromReceipts(report).length, 1, JSON.stringify(report, null, 2));
    assert.equal(skippedNote(report), undefined);
  });

  test("a forged pick (the receipt edited after signing) gives no finding, even with your key trusted", async () => {
    // The forger flips the pick to RabbitMQ without a key, so Redis would be the rejected one: the signature no
    // longer matches the bytes.
    const forged = copyWith(repo, receiptId, (raw) => {
      const payload = raw.payload as Receipt["payload"];
      const other = payload.options.find((o) => o.id !== redisId && /rabbit/i.test(o.title))!;
      return { ...raw, operator_pick: { ...(raw.operator_pick as object), option_id: other.id } };
    });
    writeFileSync(join(forged, "package.json"), PACKAGE_JSON.replace("rabbitmq-client", "redis"));
    const report = await check(forged, key.publicKeyPem);
    assert.deepEqual(fromReceipts(report), []);
    assert.ok(skippedNote(report), report.notes.join("\n"));
    // Control: the untouched receipt still counts in the original repository.
    const control = await check(repo, key.publicKeyPem);
    assert.equal(fromReceipts(control).length, 1);
  });

  test("a pick re-signed with a stranger's key, or with its signature removed, gives no finding", async () => {
    const resigned = copyWith(repo, receiptId, (raw) => {
      const { signature: _s, signing: _k, ...unsigned } = raw;
      return signReceipt(unsigned as Omit<Receipt, "signature" | "signing">, stranger) as unknown as Record<string, unknown>;
    });
    const report = await check(resigned, key.publicKeyPem);
    assert.deepEqual(fromReceipts(report), []);
    assert.ok(skippedNote(report));
    const unsigned = copyWith(repo, receiptId, (raw) => {
      const { signature: _s, ...rest } = raw;
      return rest;
    });
    const bare = await check(unsigned, key.publicKeyPem);
    assert.deepEqual(fromReceipts(bare), []);
    rmSync(resigned, { recursive: true, force: true });
  });
});
