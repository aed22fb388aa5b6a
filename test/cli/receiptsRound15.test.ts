// `deliberate list` verifies each receipt as `verify`, `diff` and the MCP server do (.scratch/probe2/FINDINGS.md 5),
// through the built CLI on real git repositories: a receipt re-signed by a key nobody trusts and receipts whose
// evidence file was swapped are `unverified`, marked in the text, and their picks are only claimed; --json carries
// `verification`. A receipt with a `__proto__` member or a duplicate key, and one over the size cap, are listed as
// corrupt with one line saying why (findings 7 and 8), and `pick` refuses the first two.
import { test, describe, before } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createSampleRepo } from "../fixtures/sampleRepo";
import { assertCliBuilt, newCliUser, runCli, runCliJson } from "../helpers/cli";
import { OptionPickerSchema, type OptionPicker, type Receipt } from "../../src/core/schemas";
import { generateSigningKey, signReceipt } from "../../src/core/receipts/signing";

const USER = newCliUser();
const MONGO_Q = "Should we store orders in MongoDB or PostgreSQL?";
const mallory = generateSigningKey();

interface Row {
  receipt_id: string;
  state: string;
  pick?: string | null;
  claimed_pick?: string | null;
  error?: string;
  verification: { state: string; trusted: boolean; signer?: string; reason?: string };
}

function ask(repo: string): OptionPicker {
  return OptionPickerSchema.parse(runCliJson([MONGO_Q, "--repo", repo, "--json", "--offline", "--no-cache"], { env: USER.env }));
}

function file(repo: string, id: string): string {
  return join(repo, ".deliberations", `${id}.json`);
}

function list(repo: string): { rows: Row[]; text: string } {
  const rows = runCliJson<Row[]>(["list", "--repo", repo, "--json"], { env: USER.env });
  const text = runCli(["list", "--repo", repo], { env: USER.env });
  assert.equal(text.code, 0, text.stderr);
  return { rows, text: text.stdout };
}

/** A genuine receipt, picked with the recommendation by the user; the other option's id. */
function pickedReceipt(repo: string): { id: string; other: string } {
  const p = ask(repo);
  const picked = runCli(["pick", p.receipt_ref, p.recommendation.option_id, "--repo", repo], { env: USER.env });
  assert.equal(picked.code, 0, picked.stderr);
  return { id: p.receipt_ref, other: p.options.find((o) => o.id !== p.recommendation.option_id)!.id };
}

describe("deliberate list verifies each receipt (signer, evidence) and shows unverified picks only as claims", () => {
  before(() => assertCliBuilt());

  test("a pick re-signed with an untrusted key: unverified, [untrusted signer], claims a pick; the genuine one is picked", () => {
    const repo = createSampleRepo();
    const forged = pickedReceipt(repo);
    const genuine = ask(repo).receipt_ref;
    // The probe's pick-attacker: the pick set to the other option, re-signed by mallory (minted_by kept).
    const raw = JSON.parse(readFileSync(file(repo, forged.id), "utf8")) as Receipt;
    const pick = { option_id: forged.other, at: new Date().toISOString(), overrode_recommendation: true };
    const { signature: _s, signing: _k, ...unsigned } = { ...raw, operator_pick: pick, picks: [...(raw.picks ?? []), { ...pick, picked_by: "operator" as const, who: "alice", key_id: mallory.keyId }] };
    writeFileSync(file(repo, forged.id), JSON.stringify(signReceipt(unsigned, mallory), null, 2));

    const { rows, text } = list(repo);
    const row = rows.find((r) => r.receipt_id === forged.id)!;
    assert.deepEqual([row.state, row.pick, row.claimed_pick], ["unverified", null, forged.other]);
    assert.deepEqual([row.verification.state, row.verification.trusted, row.verification.signer], ["untrusted signer", false, mallory.keyId]);
    const ok = rows.find((r) => r.receipt_id === genuine)!;
    assert.deepEqual([ok.state, ok.verification.state, ok.verification.trusted, ok.verification.signer], ["pending", "valid", true, "you"]);
    assert.match(text, new RegExp(`^${forged.id}  unverified \\[untrusted signer\\] ${MONGO_Q.replace("?", "\\?")}  \\(claims a pick of ${forged.other}; not proven\\)$`, "m"));
    assert.doesNotMatch(text, new RegExp(`^${forged.id}  overridden`, "m"), "the pick is not shown as a fact");
    assert.match(text, new RegExp(`^${genuine}  pending `, "m"));
  });

  test("swapped evidence files: every receipt is unverified [evidence changed]; a picked one claims its pick", () => {
    const repo = createSampleRepo();
    const picked = pickedReceipt(repo);
    const before = list(repo).rows.find((r) => r.receipt_id === picked.id)!;
    assert.deepEqual([before.state, before.verification.state], ["picked", "valid"]);
    const evidence = join(repo, ".deliberations", "evidence");
    for (const f of readdirSync(evidence)) writeFileSync(join(evidence, f), "[]\n");
    const { rows, text } = list(repo);
    const row = rows.find((r) => r.receipt_id === picked.id)!;
    assert.deepEqual([row.state, row.pick, row.verification.state, row.verification.trusted], ["unverified", null, "evidence changed", false]);
    assert.ok(row.claimed_pick);
    assert.match(row.verification.reason ?? "", /evidence file evidence\/sha256-[0-9a-f]+\.json changed/);
    assert.match(text, new RegExp(`^${picked.id}  unverified \\[evidence changed\\] .*\\(claims a pick of ${row.claimed_pick}; not proven\\)$`, "m"));
  });

  test("a __proto__ member, a duplicate key and a file over the cap are corrupt with why; pick refuses and writes nothing", () => {
    const repo = createSampleRepo();
    const a = ask(repo);
    const b = ask(repo);
    const c = ask(repo);
    const textOf = (id: string) => readFileSync(file(repo, id), "utf8");
    writeFileSync(file(repo, a.receipt_ref), textOf(a.receipt_ref).replace(/^\{/, '{\n  "__proto__": {"injected": "not signed"},'));
    writeFileSync(file(repo, b.receipt_ref), textOf(b.receipt_ref).replace(/^\{/, `{\n  "operator_pick": {"option_id": "${b.options[0].id}", "at": "2026-01-01T00:00:00.000Z", "overrode_recommendation": true},`));
    writeFileSync(file(repo, c.receipt_ref), textOf(c.receipt_ref).replace(/^\{/, `{\n  "x": "${"a".repeat(2 * 1024 * 1024)}",`));
    const { rows, text } = list(repo);
    const error = (id: string) => rows.find((r) => r.receipt_id === id)?.error ?? "";
    assert.equal(error(a.receipt_ref), 'not a valid receipt: a "__proto__" key at the top level (JavaScript reads it as the prototype, not as a member)');
    assert.equal(error(b.receipt_ref), 'not a valid receipt: duplicate key "operator_pick" at the top level (JSON readers disagree on which one counts)');
    assert.match(error(c.receipt_ref), /^unreadable: \d+ bytes is over the 2097152-byte limit for a receipt$/);
    assert.match(text, new RegExp(`^${b.receipt_ref}  CORRUPT  not a valid receipt: duplicate key "operator_pick"`, "m"));
    for (const p of [a, b]) {
      const bytes = textOf(p.receipt_ref);
      const r = runCli(["pick", p.receipt_ref, p.options[0].id, "--repo", repo], { env: USER.env });
      assert.equal(r.code, 1, r.stdout + r.stderr);
      assert.match(r.stderr, /is corrupt \(not a valid receipt: (a "__proto__" key|duplicate key "operator_pick").*nothing was written/);
      assert.equal(textOf(p.receipt_ref), bytes, "not re-signed");
    }
    const v = runCli(["verify", "--repo", repo], { env: USER.env });
    assert.equal(v.code, 1);
    assert.match(v.stdout, new RegExp(`^CORRUPT\\s+${a.receipt_ref}  not a valid receipt: a "__proto__" key`, "m"));
  });
});
