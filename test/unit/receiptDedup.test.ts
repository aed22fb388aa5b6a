// One receipt counts once, and a pick keeps who minted the receipt. On a real git repository with real signed
// receipts: forty byte-identical copies of one genuine override (other file names) teach the learned weights
// nothing more than the one receipt, `verifyAll` names them as ignored, listings leave them out, and a file whose
// name does not match the receipt_id inside it is never read, picked or served as that receipt. A pick re-signs with
// your key but keeps the minter's key id and signature, and the minter's signature still checks after the pick.
import { test, describe, before } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, cpSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { LEARNING_Q, createLearningRepo } from "../fixtures/learningRepo";
import { makeTempDir } from "../helpers/gitRepo";
import { deliberate } from "../../src/core/pipeline";
import { generateSigningKey, signReceipt, verifyMintedBy, verifyReceiptSignature } from "../../src/core/receipts/signing";
import { PickRefusedError, listReceipts, loadReceiptFile, loadTrustedReceipt, readReceipt, recordPick, verifyAll, verifyEntry } from "../../src/core/receipts/store";
import { addAllowedSigner, parseAllowedSigners, publicKeyToLine } from "../../src/core/receipts/trust";
import { earlierTrustedReceipts, pickStatement, pickTally, trustViewOf } from "../../src/core/receipts/readerTrust";
import { computeLearning, loadLearning } from "../../src/core/learning/load";
import { MAX_WEIGHT, MIN_WEIGHT } from "../../src/core/learning/weights";
import { ReceiptSchema, type Receipt } from "../../src/core/schemas";

const DIR = ".deliberations";
const me = generateSigningKey();
const alice = generateSigningKey();

function file(repo: string, name: string): string {
  return join(repo, DIR, `${name}.json`);
}

function copyRepo(repo: string): string {
  const copy = makeTempDir("delib-dedup-copy-");
  cpSync(repo, copy, { recursive: true });
  return copy;
}

describe("one receipt counts once; picks keep the minter", () => {
  let repo: string;
  let id: string;
  let before_: Receipt;

  before(async () => {
    repo = createLearningRepo();
    // Alice minted the deliberation; her key is an allowed signer of the repository.
    await addAllowedSigner(repo, DIR, "alice", publicKeyToLine(alice.publicKeyPem));
    const out = await deliberate({ repo, question: LEARNING_Q, signingKey: alice, useCache: false });
    assert.equal(out.kind, "deliberated");
    if (out.kind !== "deliberated") return;
    id = out.receipt.receipt_id;
    before_ = out.receipt;
    const rabbit = out.payload.options.find((o) => /rabbit/i.test(o.title))!;
    // I override towards RabbitMQ: the receipt is re-signed with my key.
    await recordPick(repo, id, { option_id: rabbit.id, reason: "ADR 0007" }, me, DIR);
  });

  test("a pick keeps the minter's key id and signature; verify names both; the minting signature still checks", async () => {
    const raw = JSON.parse(readFileSync(file(repo, id), "utf8")) as Record<string, unknown>;
    const r = ReceiptSchema.parse(raw);
    assert.equal(r.signing.key_id, me.keyId);
    assert.equal(r.minted_by?.key_id, alice.keyId, "the minter's key id is kept");
    assert.equal(r.minted_by?.signature, before_.signature, "the minter's own signature is kept");
    assert.equal(r.minted_by?.operator_pick, null);
    assert.equal(r.minted_by?.picks, 0, "the minted receipt had an empty pick history");
    assert.deepEqual(verifyMintedBy(raw), { ok: true });

    const v = await verifyEntry(repo, await loadReceiptFile(file(repo, id)), { ownPublicKeyPem: me.publicKeyPem, dirName: DIR, citations: false });
    assert.equal(v.ok, true, v.summary);
    assert.match(v.summary, /^signed by you \(your own key\); minted by alice \(allowed signer\); evidence intact$/);
    assert.deepEqual([v.minted_by?.signature, v.minted_by?.trust, v.minted_by?.signer], ["valid", "allowed-signer", "alice"]);
    const view = trustViewOf(v);
    assert.deepEqual([view.state, view.trusted, view.signer, view.minted_by?.state, view.minted_by?.signer], ["valid", true, "you", "valid", "alice"]);

    // A second pick (Alice's own) keeps the first minter, and her signature still checks over the rebuilt bytes.
    // (Alice's own allowed_signers lists my key; the repository's need not for this step.)
    const hers = parseAllowedSigners(`me ed25519 ${publicKeyToLine(me.publicKeyPem)}\n`);
    await recordPick(repo, id, { option_id: r.payload.recommendation.option_id }, alice, DIR, { signers: hers });
    const raw2 = JSON.parse(readFileSync(file(repo, id), "utf8")) as Record<string, unknown>;
    const r2 = ReceiptSchema.parse(raw2);
    assert.equal(r2.signing.key_id, alice.keyId);
    assert.deepEqual(r2.minted_by, r.minted_by, "later re-signs keep the first minter");
    assert.deepEqual(verifyMintedBy(raw2), { ok: true });
    // Put my override back on top for the learning tests below.
    await recordPick(repo, id, { option_id: r.operator_pick!.option_id, reason: "ADR 0007" }, me, DIR);
  });

  test("a minted_by that the minter did not sign is reported (the outer signature is still yours)", async () => {
    const copy = copyRepo(repo);
    const raw = JSON.parse(readFileSync(file(copy, id), "utf8")) as Record<string, unknown> & { minted_by: Record<string, unknown> };
    // Someone with a trusted key rewrites who minted it: claims my key minted it, re-signs the whole with mine.
    const { signature: _s, signing: _k, ...unsigned } = raw;
    const forged = signReceipt({ ...unsigned, minted_by: { ...raw.minted_by, key_id: me.keyId, public_key: me.publicKeyPem } } as Omit<Receipt, "signature" | "signing">, me);
    writeFileSync(file(copy, id), JSON.stringify(forged, null, 2));
    const v = await verifyEntry(copy, await loadReceiptFile(file(copy, id)), { ownPublicKeyPem: me.publicKeyPem, dirName: DIR, citations: false });
    assert.equal(v.signature, "valid");
    assert.equal(v.minted_by?.signature, "invalid");
    assert.match(v.summary, /minted_by does not verify \(minting signature: signature does not match/);
    assert.equal(trustViewOf(v).minted_by?.state, "signature invalid");
  });

  test("forty byte-identical copies of a genuine override count once in learning, and stats say why", async () => {
    const copy = copyRepo(repo);
    const single = await computeLearning(copy, DIR, me.publicKeyPem);
    assert.equal(single.counted.length, 1);
    // Warm the signed verdict cache first: verdicts cached before the copies existed must not let them count.
    await loadLearning(copy, me, { dirName: DIR });
    for (let i = 0; i < 40; i++) copyFileSync(file(copy, id), file(copy, `copy-${String(i).padStart(2, "0")}-of-it`));
    for (const report of [await computeLearning(copy, DIR, me.publicKeyPem), await loadLearning(copy, me, { dirName: DIR })]) {
      assert.deepEqual(report.counted.map((c) => c.receipt_id), [id]);
      assert.deepEqual(report.weights.sources, single.weights.sources, "the weights are those of the one receipt");
      assert.notEqual(report.weights.sources.adr, MAX_WEIGHT);
      assert.notEqual(report.weights.sources.convention, MIN_WEIGHT);
      const dups = report.ignored.filter((i) => i.reason === "duplicate");
      assert.equal(dups.length, 40);
      assert.ok(dups.every((d) => d.holds === id && /does not match the receipt_id it holds/.test(d.detail)), JSON.stringify(dups[0]));
    }
  });

  test("verifyAll: one valid receipt and forty ignored copies; listings and reads leave the copies out", async () => {
    const copy = copyRepo(repo);
    for (let i = 0; i < 40; i++) copyFileSync(file(copy, id), file(copy, `copy-${String(i).padStart(2, "0")}-of-it`));
    const results = await verifyAll(copy, DIR, { ownPublicKeyPem: me.publicKeyPem, citations: false });
    assert.equal(results.filter((r) => r.ok).length, 1);
    const ignored = results.filter((r) => r.ignored);
    assert.equal(ignored.length, 40);
    assert.ok(ignored.every((r) => !r.ok && r.ignored === "duplicate" && r.receipt_id.startsWith("copy-") && /ignored: the file name copy-\d\d-of-it\.json does not match/.test(r.summary)));
    assert.deepEqual((await listReceipts(copy, DIR)).map((e) => e.receipt_id), [id]);
    await assert.rejects(readReceipt(copy, "copy-00-of-it", DIR), /does not match the receipt_id it holds/);
  });

  test("a file renamed away from its id is ignored (name-mismatch), and is never picked or served by the turn cache", async () => {
    const copy = copyRepo(repo);
    renameSync(file(copy, id), file(copy, "renamed-receipt"));
    const report = await computeLearning(copy, DIR, me.publicKeyPem);
    assert.equal(report.counted.length, 0);
    assert.deepEqual(report.ignored.map((i) => [i.receipt_id, i.reason, i.holds]), [["renamed-receipt", "name-mismatch", id]]);
    const bytes = readFileSync(file(copy, "renamed-receipt"), "utf8");
    const option = ReceiptSchema.parse(JSON.parse(bytes)).payload.options[0].id;
    await assert.rejects(recordPick(copy, "renamed-receipt", { option_id: option }, me, DIR), (err: Error) => err instanceof PickRefusedError && /does not match the receipt_id/.test(err.message));
    assert.equal(readFileSync(file(copy, "renamed-receipt"), "utf8"), bytes, "nothing written");
    assert.equal(await loadTrustedReceipt(copy, "renamed-receipt", me.publicKeyPem, DIR), undefined);
    const v = await verifyAll(copy, DIR, { ownPublicKeyPem: me.publicKeyPem, citations: false });
    assert.deepEqual(v.map((r) => [r.receipt_id, r.ignored, r.ok]), [["renamed-receipt", "name-mismatch", false]]);
  });

  test("trust views: an invalid or untrusted receipt's pick is a claim; the tally counts trusted receipts only", async () => {
    const copy = copyRepo(repo);
    const raw = JSON.parse(readFileSync(file(copy, id), "utf8")) as Receipt;
    // Forged: the pick's reason edited, the signature left as it was.
    writeFileSync(file(copy, id), JSON.stringify({ ...raw, operator_pick: { ...raw.operator_pick!, reason: "forged" } }, null, 2));
    const v = await verifyEntry(copy, await loadReceiptFile(file(copy, id)), { ownPublicKeyPem: me.publicKeyPem, dirName: DIR, citations: false });
    const view = trustViewOf(v);
    assert.deepEqual([view.state, view.trusted], ["signature invalid", false]);
    assert.match(pickStatement(raw, view), /^An unverified receipt claims a pick of `[^`]+` by the operator \(you\) at .*not proven \(signature invalid: signature does not match/);
    const good = await verifyEntry(repo, await loadReceiptFile(file(repo, id)), { ownPublicKeyPem: me.publicKeyPem, dirName: DIR, citations: false });
    assert.match(pickStatement(raw, trustViewOf(good)), /^Picked `[^`]+` by the operator \(you\) at /);
    // Untrusted: nobody trusts Alice in a repository without allowed_signers, and only she signed this one.
    const mallory = generateSigningKey();
    const { signature: _s, signing: _k, minted_by: _m, ...unsigned } = raw as Receipt & Record<string, unknown>;
    const other = signReceipt(unsigned as Omit<Receipt, "signature" | "signing">, mallory);
    assert.equal(verifyReceiptSignature(other).ok, true);
    writeFileSync(file(copy, id), JSON.stringify(other, null, 2));
    const u = trustViewOf(await verifyEntry(copy, await loadReceiptFile(file(copy, id)), { ownPublicKeyPem: me.publicKeyPem, dirName: DIR, citations: false }));
    assert.deepEqual([u.state, u.trusted, u.signer], ["untrusted signer", false, mallory.keyId]);
    const tally = pickTally([
      { trusted: true, receipt: raw },
      { trusted: false, receipt: raw },
      { trusted: false, receipt: raw },
    ]);
    assert.deepEqual(tally, { accepted: 0, overridden: 1, pending: 0, untrusted: 2, total: 3 });
  });
});

describe("the editor's trusted-only helpers", () => {
  const base = { question_hash: "q1", operator_pick: null, payload: { recommendation: { option_id: "a" } } };
  const r = (id: string, at: string, extra: Record<string, unknown> = {}) => ({ ...base, receipt_id: id, created_at: at, ...extra }) as unknown as Receipt;

  test("'What changed' compares only against trusted earlier receipts of the same question, newest first", () => {
    const now = r("now", "2026-03-01T00:00:00Z");
    const items = [
      { id: "forged-newer", trusted: false, receipt: r("forged-newer", "2026-02-20T00:00:00Z") },
      { id: "old", trusted: true, receipt: r("old", "2026-01-01T00:00:00Z") },
      { id: "mid", trusted: true, receipt: r("mid", "2026-02-01T00:00:00Z") },
      { id: "other-q", trusted: true, receipt: r("other-q", "2026-02-10T00:00:00Z", { question_hash: "q2" }) },
      { id: "later", trusted: true, receipt: r("later", "2026-04-01T00:00:00Z") },
      { id: "now", trusted: true, receipt: now },
    ];
    assert.deepEqual(earlierTrustedReceipts(items, now).map((i) => i.id), ["mid", "old"]);
  });

  test("the sidebar tally leaves untrusted and corrupt receipts out of accepted, overridden and pending", () => {
    const picked = r("p", "2026-01-01T00:00:00Z", { operator_pick: { option_id: "a", at: "2026-01-02T00:00:00Z", overrode_recommendation: false } });
    const pending = r("n", "2026-01-01T00:00:00Z");
    assert.deepEqual(pickTally([{ trusted: true, receipt: picked }, { trusted: false, receipt: picked }, { trusted: true, receipt: pending }, { trusted: false, receipt: pending }, {}]), {
      accepted: 1,
      overridden: 0,
      pending: 1,
      untrusted: 3,
      total: 5,
    });
  });
});
