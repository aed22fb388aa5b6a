// Receipt defects the second adversarial probe found (.scratch/probe2/FINDINGS.md 7 and 8), on a real git repository
// with a real signed receipt: a `__proto__` member was left out of the canonical bytes (so out of the signature) and
// a duplicate key verified (JSON.parse keeps the last), and a pick re-signed both; and receipt listings read every
// file at once with a 16 MiB per-file cap and no overall limit. `deliberate list` (finding 5) is tested through the
// built CLI in test/cli/receiptsRound15.test.ts.
import { test, describe, before } from "node:test";
import assert from "node:assert/strict";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { LEARNING_Q, createLearningRepo } from "../fixtures/learningRepo";
import { makeTempDir } from "../helpers/gitRepo";
import { deliberate } from "../../src/core/pipeline";
import { canonicalJson } from "../../src/core/hash";
import { generateSigningKey, verifyReceiptSignature } from "../../src/core/receipts/signing";
import { PickRefusedError, listReceiptFiles, listReceipts, loadReceiptFile, parseReceiptText, recordPick, verifyAll } from "../../src/core/receipts/store";
import { computeLearning } from "../../src/core/learning/load";

const DIR = ".deliberations";
const MiB = 1024 * 1024;
const me = generateSigningKey();

function receiptFile(repo: string, id: string): string {
  return join(repo, DIR, `${id}.json`);
}

function copyRepo(repo: string): string {
  const copy = makeTempDir("delib-r15-copy-");
  cpSync(repo, copy, { recursive: true });
  return copy;
}

/** The probe's raw text edits (forge.js): nothing re-signed. */
const EDITS = {
  protoTop: (t: string) => t.replace(/^\{/, '{\n  "__proto__": {"operator_pick": {"option_id": "opt-x", "at": "2026-01-01T00:00:00.000Z", "overrode_recommendation": true}, "injected": "not signed"},'),
  protoStages: (t: string) => t.replace(/"stages": \{/, '"stages": {\n    "__proto__": {"status": "ok", "reason": "INJECTED unsigned text"},'),
  protoEscaped: (t: string) => t.replace(/^\{/, '{\n  "\\u005f_proto__": {"injected": true},'),
  dupPick: (t: string) => t.replace(/^\{/, '{\n  "operator_pick": {"option_id": "opt-x", "at": "2026-01-01T00:00:00.000Z", "overrode_recommendation": true},'),
};

describe("finding 7: __proto__ members and duplicate keys are covered or refused", () => {
  let repo: string;
  let id: string;
  let option: string;

  before(async () => {
    repo = createLearningRepo();
    const out = await deliberate({ repo, question: LEARNING_Q, signingKey: me, useCache: false });
    assert.equal(out.kind, "deliberated");
    if (out.kind !== "deliberated") return;
    id = out.receipt.receipt_id;
    option = out.payload.options[0].id;
  });

  test("canonical JSON keeps a parsed __proto__ member as a member, so the signature covers it", () => {
    assert.equal(canonicalJson(JSON.parse('{"b":1,"__proto__":{"x":1},"a":2}')), '{"__proto__":{"x":1},"a":2,"b":1}');
    assert.equal(canonicalJson(JSON.parse('{"s":{"__proto__":[1],"k":true}}')), '{"s":{"__proto__":[1],"k":true}}');
    // A signed receipt with a __proto__ block added by hand no longer verifies, at the top or inside `stages`.
    const text = readFileSync(receiptFile(repo, id), "utf8");
    assert.equal(verifyReceiptSignature(JSON.parse(text)).ok, true);
    for (const edit of [EDITS.protoTop, EDITS.protoStages]) {
      const edited = edit(text);
      assert.notEqual(edited, text);
      assert.deepEqual(verifyReceiptSignature(JSON.parse(edited)), { ok: false, reason: "signature does not match the receipt's content" });
    }
  });

  test("reading refuses a __proto__ key (also escaped) and a duplicate key, with one line saying where", async () => {
    const text = readFileSync(receiptFile(repo, id), "utf8");
    const expected: [keyof typeof EDITS, RegExp][] = [
      ["protoTop", /^not a valid receipt: a "__proto__" key at the top level \(JavaScript reads it as the prototype, not as a member\)$/],
      ["protoStages", /^not a valid receipt: a "__proto__" key in stages /],
      ["protoEscaped", /^not a valid receipt: a "__proto__" key at the top level /],
      ["dupPick", /^not a valid receipt: duplicate key "operator_pick" at the top level \(JSON readers disagree on which one counts\)$/],
    ];
    for (const [edit, reason] of expected) {
      const copy = copyRepo(repo);
      writeFileSync(receiptFile(copy, id), EDITS[edit](text));
      const entry = await loadReceiptFile(receiptFile(copy, id));
      assert.equal(entry.state, "corrupt", edit);
      if (entry.state === "corrupt") assert.match(entry.error, reason, edit);
      const [v] = await verifyAll(copy, DIR, { ownPublicKeyPem: me.publicKeyPem, citations: false });
      assert.deepEqual([v.signature, v.ok], ["corrupt", false], edit);
    }
    // Nested: the path names the object, arrays by index.
    const nested = parseReceiptText('{"payload":{"citations":[{"id":"a"},{"id":"b","title":"x","id":"c"}]}}', "/x/r.json");
    assert.equal(nested.state === "corrupt" && nested.error, 'not a valid receipt: duplicate key "id" in payload.citations[1] (JSON readers disagree on which one counts)');
    // Keys equal only as raw text are not duplicates, and a value "__proto__" is fine.
    const fine = parseReceiptText('{"a":"__proto__","b":{"a":1},"c":[{"a":1},{"a":2}],"d":"\\"a\\"","e":{}}', "/x/r.json");
    assert.match(fine.state === "corrupt" ? fine.error : "", /^not a valid receipt: (?!.*(duplicate key|__proto__))/, "only the schema objects");
  });

  test("a pick cannot launder such a file into a freshly signed one: refused, nothing written", async () => {
    const text = readFileSync(receiptFile(repo, id), "utf8");
    for (const edit of [EDITS.protoTop, EDITS.protoStages, EDITS.dupPick]) {
      const copy = copyRepo(repo);
      const edited = edit(text);
      writeFileSync(receiptFile(copy, id), edited);
      await assert.rejects(recordPick(copy, id, { option_id: option }, me, DIR), (err: Error) => err instanceof PickRefusedError && /is corrupt \(not a valid receipt: (a "__proto__" key|duplicate key)/.test(err.message));
      assert.equal(readFileSync(receiptFile(copy, id), "utf8"), edited, "the file is byte for byte as it was");
      const learning = await computeLearning(copy, DIR, me.publicKeyPem);
      assert.deepEqual(learning.ignored.map((i) => [i.receipt_id, i.reason]), [[id, "corrupt"]]);
    }
  });

  test("the check is linear and stack-safe: 3M-deep arrays and 300k-deep objects, a duplicate at the bottom found", () => {
    const text = readFileSync(receiptFile(repo, id), "utf8");
    const started = performance.now();
    const deepArrays = parseReceiptText(text.replace(/^\{/, `{"x": ${"[".repeat(3_000_000)}${"]".repeat(3_000_000)},`), "/x/r.json");
    // Read without a stack overflow; the signature (which the text edit broke) then fails as usual.
    assert.equal(deepArrays.state, "ok");
    if (deepArrays.state === "ok") assert.equal(verifyReceiptSignature(deepArrays.raw).ok, false);
    const depth = 300_000;
    const deepDup = `{"x": ${'{"a":'.repeat(depth)}{"k":1,"k":2}${"}".repeat(depth)}}`;
    const found = parseReceiptText(deepDup, "/x/r.json");
    assert.equal(found.state, "corrupt");
    if (found.state === "corrupt") assert.match(found.error, /^not a valid receipt: duplicate key "k" in x\.a\.a\.a/);
    assert.ok(performance.now() - started < 20_000, "bounded time");
  });
});

describe("finding 8: receipt listings are bounded per file and in all", () => {
  let repo: string;
  let id: string;

  before(async () => {
    repo = createLearningRepo();
    const out = await deliberate({ repo, question: LEARNING_Q, signingKey: me, useCache: false });
    assert.equal(out.kind, "deliberated");
    if (out.kind === "deliberated") id = out.receipt.receipt_id;
  });

  /** A valid JSON object of exactly `bytes` bytes (not a receipt: reading it proves it was read). */
  const filler = (bytes: number) => `{"x":"${"a".repeat(bytes - 9)}"}\n`;

  test("a receipt over 2 MiB is reported unreadable with its size, never parsed; one under the cap is read", async () => {
    const copy = copyRepo(repo);
    writeFileSync(receiptFile(copy, "20990101-000000Z-aaaaaaaa"), filler(2 * MiB + 1));
    writeFileSync(receiptFile(copy, "20990101-000000Z-bbbbbbbb"), filler(2 * MiB - 1));
    const { entries } = await listReceiptFiles(copy, DIR);
    const byName = new Map(entries.map((e) => [e.receipt_id, e]));
    const over = byName.get("20990101-000000Z-aaaaaaaa");
    assert.equal(over?.state === "corrupt" && over.error, `unreadable: ${2 * MiB + 1} bytes is over the ${2 * MiB}-byte limit for a receipt`);
    const under = byName.get("20990101-000000Z-bbbbbbbb");
    assert.match(under?.state === "corrupt" ? under.error : "", /^not a valid receipt: /, "read and parsed");
    assert.equal(byName.get(id)?.state, "ok");
  });

  test("past one listing's byte budget the oldest files are reported, not dropped; the outcome does not depend on timing", async () => {
    const copy = copyRepo(repo);
    const size = readFileSync(receiptFile(copy, id)).length;
    // Newer names than the receipt's (read first), each as large as the budget leaves room for two of.
    const names = ["20990101-000000Z-00000001", "20990101-000000Z-00000002", "20990101-000000Z-00000003"];
    for (const n of names) writeFileSync(receiptFile(copy, n), filler(10_000));
    const budgetBytes = 30_000 + size - 1;
    const runs = await Promise.all([1, 2, 3].map(() => listReceiptFiles(copy, DIR, { budgetBytes })));
    for (const { entries } of runs) {
      const errors = new Map(entries.map((e) => [e.receipt_id, e.state === "corrupt" ? e.error : "ok"]));
      for (const n of names) assert.match(errors.get(n) ?? "", /^not a valid receipt: /, `${n} was read`);
      assert.match(errors.get(id) ?? "", new RegExp(`^unreadable: over one listing's ${budgetBytes}-byte budget, used up by the newer receipt files \\(this one is ${size} bytes\\); archive old receipts$`));
    }
    // The default budget (64 MiB) reads them all.
    const all = await listReceipts(copy, DIR);
    assert.equal(all.find((e) => e.receipt_id === id)?.state, "ok");
  });
});
