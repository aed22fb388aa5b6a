// Receipt trust is visible everywhere a receipt is read, one receipt counts once, and a pick keeps who minted the
// receipt — through the built CLI and the real MCP server (the SDK's Client over stdio), on real git repositories:
// a receipt with a forged pick (signature no longer matches) and one re-signed by an unknown key are served with
// `verification` and their picks only as claims; `deliberate diff` names an untrusted signer; forty copies of one
// genuine override are one valid receipt and forty ignored files for `verify` and `stats`; and after a pick,
// `verify` names both the picker and the minter.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { createSampleRepo } from "../fixtures/sampleRepo";
import { CLI, assertCliBuilt, newCliUser, runCli, runCliJson } from "../helpers/cli";
import { OptionPickerSchema, ReceiptSchema, type OptionPicker, type Receipt } from "../../src/core/schemas";
import { generateSigningKey, signReceipt, verifyReceiptSignature } from "../../src/core/receipts/signing";

const USER = newCliUser();
const MONGO_Q = "Should we store orders in MongoDB or PostgreSQL?";
const WINSTON_Q = "Should we adopt winston for logging?";
const mallory = generateSigningKey();

function deliberateJson(repo: string, question: string, env = USER.env): OptionPicker {
  return OptionPickerSchema.parse(runCliJson([question, "--repo", repo, "--json", "--offline", "--no-cache"], { env }));
}

function receiptFile(repo: string, id: string): string {
  return join(repo, ".deliberations", `${id}.json`);
}

function readRaw(repo: string, id: string): Receipt & Record<string, unknown> {
  return JSON.parse(readFileSync(receiptFile(repo, id), "utf8")) as Receipt & Record<string, unknown>;
}

/** The receipt with an operator override added by hand (not re-signed). */
function withForgedPick(r: Receipt): Receipt {
  const other = r.payload.options.find((o) => o.id !== r.payload.recommendation.option_id)!;
  const pick = { option_id: other.id, reason: "forged", at: new Date().toISOString(), overrode_recommendation: true };
  return { ...r, operator_pick: pick, picks: [...(r.picks ?? []), { ...pick, picked_by: "operator", who: "the operator", key_id: r.signing.key_id }] };
}

/** Same bytes, re-signed by a key nobody trusts. */
function resignedBy(r: Receipt, key = mallory): Receipt {
  const { signature: _s, signing: _k, ...unsigned } = r;
  return signReceipt(unsigned, key);
}

function textOf(r: CallToolResult): string {
  return r.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
}

interface Verification {
  state: string;
  trusted: boolean;
  signer?: string;
  reason?: string;
}

describe("receipt trust through the MCP server and deliberate diff", () => {
  let repo: string;
  let client: Client;
  let forged: string;
  let untrusted: string;
  let genuine: string;
  let genuineTwin: string;

  before(async () => {
    assertCliBuilt();
    repo = createSampleRepo();
    forged = deliberateJson(repo, MONGO_Q).receipt_ref;
    writeFileSync(receiptFile(repo, forged), JSON.stringify(withForgedPick(readRaw(repo, forged)), null, 2));
    untrusted = deliberateJson(repo, WINSTON_Q).receipt_ref;
    writeFileSync(receiptFile(repo, untrusted), JSON.stringify(resignedBy(withForgedPick(readRaw(repo, untrusted))), null, 2));
    const g = deliberateJson(repo, MONGO_Q);
    genuine = g.receipt_ref;
    const picked = runCli(["pick", genuine, g.recommendation.option_id, "--repo", repo], { env: USER.env });
    assert.equal(picked.code, 0, picked.stderr);
    // The same deliberation re-signed, untouched, by a key that is neither the user's nor an allowed signer.
    genuineTwin = deliberateJson(repo, MONGO_Q).receipt_ref;
    writeFileSync(receiptFile(repo, genuineTwin), JSON.stringify(resignedBy(readRaw(repo, genuineTwin)), null, 2));

    const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, "mcp", "--repo", repo], env: USER.env as Record<string, string>, stderr: "pipe" });
    client = new Client({ name: "trust-test", version: "1.0.0" });
    await client.connect(transport);
  });
  after(() => client.close());

  const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult;

  test("get_receipt: a forged pick is a claim, with verification 'signature invalid'", async () => {
    const r = await call("get_receipt", { receipt_id: forged });
    assert.notEqual(r.isError, true, textOf(r));
    const v = (r.structuredContent as { verification: Verification }).verification;
    assert.deepEqual([v.state, v.trusted], ["signature invalid", false]);
    assert.match(v.reason ?? "", /signature does not match/);
    const text = textOf(r);
    assert.match(text, /^WARNING: this receipt is unverified \(signature invalid/);
    assert.match(text, /An unverified receipt claims a pick of `[^`]+` by the operator \(the operator\) at .*not proven/);
    assert.doesNotMatch(text, /^Picked /m, "the pick is never stated as a fact");
    assert.doesNotMatch(text, /\*\*Picked/, "the rendered receipt leaves the claimed pick out");
  });

  test("get_receipt: a receipt re-signed by an unknown key is 'untrusted signer', naming the key", async () => {
    const r = await call("get_receipt", { receipt_id: untrusted });
    const v = (r.structuredContent as { verification: Verification }).verification;
    assert.deepEqual([v.state, v.trusted, v.signer], ["untrusted signer", false, mallory.keyId]);
    assert.match(textOf(r), /An unverified receipt claims a pick/);
    const ok = await call("get_receipt", { receipt_id: genuine });
    const okV = (ok.structuredContent as { verification: Verification }).verification;
    assert.deepEqual([okV.state, okV.trusted, okV.signer], ["valid", true, "you"]);
    assert.match(textOf(ok), /^Picked `[^`]+` by the operator/);
  });

  test("list_receipts: unverified receipts carry their state, and their pick only as claimed_pick", async () => {
    const r = await call("list_receipts", {});
    const rows = (r.structuredContent as { receipts: { receipt_id: string; state: string; pick: string | null; claimed_pick?: string | null; verification: Verification }[] }).receipts;
    const row = (id: string) => rows.find((x) => x.receipt_id === id)!;
    assert.deepEqual([row(forged).state, row(forged).pick, row(forged).verification.state], ["unverified", null, "signature invalid"]);
    assert.ok(row(forged).claimed_pick);
    assert.deepEqual([row(untrusted).state, row(untrusted).verification.state, row(untrusted).verification.signer], ["unverified", "untrusted signer", mallory.keyId]);
    assert.deepEqual([row(genuine).state, row(genuine).verification.state], ["picked", "valid"]);
    assert.match(textOf(r), new RegExp(`${forged}\` UNVERIFIED \\(signature invalid: .*claims a pick of`));
  });

  test("resources: list and read carry _meta.verification; the Markdown opens with the warning; the JSON is the signed bytes", async () => {
    const { resources } = await client.listResources();
    const res = resources.find((x) => x.uri.endsWith(`/${forged}`))!;
    assert.equal((res._meta as { verification: Verification }).verification.state, "signature invalid");
    assert.match(res.description ?? "", /unverified \(signature invalid.*claims a pick of/);
    assert.doesNotMatch(res.description ?? "", /: picked /);
    const read = await client.readResource({ uri: res.uri });
    for (const c of read.contents) assert.equal((c._meta as { verification: Verification }).verification.state, "signature invalid");
    const md = read.contents.find((c) => c.mimeType === "text/markdown") as { text: string };
    assert.match(md.text, /^> \*\*Unverified receipt\*\* \(signature invalid/);
    assert.doesNotMatch(md.text, /\*\*Picked/);
    const json = read.contents.find((c) => c.mimeType === "application/json") as { text: string };
    assert.deepEqual(JSON.parse(json.text), readRaw(repo, forged), "the receipt exactly as on disk");
    const good = await client.readResource({ uri: res.uri.replace(forged, genuine) });
    const goodJson = JSON.parse((good.contents.find((c) => c.mimeType === "application/json") as { text: string }).text);
    assert.equal(verifyReceiptSignature(goodJson).ok, true, "a genuine receipt's JSON still verifies as served");
    assert.equal(ReceiptSchema.parse(goodJson).receipt_id, genuine);
  });

  test("deliberate diff names an untrusted signer (not 'valid') in JSON, on stderr and in the text", () => {
    const j = runCli(["diff", genuine, genuineTwin, "--json", "--repo", repo], { env: USER.env });
    assert.equal(j.code, 0, j.stderr);
    const d = JSON.parse(j.stdout) as { signatures: Record<string, string>; verification: Record<string, Verification> };
    assert.deepEqual(d.signatures, { [genuine]: "valid", [genuineTwin]: "untrusted signer" });
    assert.equal(d.verification[genuineTwin].signer, mallory.keyId);
    assert.match(j.stderr, new RegExp(`warning: receipt ${genuineTwin} is unverified \\(untrusted signer`));
    const t = runCli(["diff", genuine, forged, "--repo", repo], { env: USER.env });
    assert.equal(t.code, 0, t.stderr);
    assert.match(t.stdout, new RegExp(`^Unverified: receipt ${forged} is unverified \\(signature invalid`, "m"));
  });
});

describe("one receipt counts once (CLI verify, stats, list)", () => {
  test("forty byte-identical copies of a genuine override: 1 valid, 40 ignored; stats counts one pick", () => {
    assertCliBuilt();
    const repo = createSampleRepo();
    const p = deliberateJson(repo, MONGO_Q);
    const other = p.options.find((o) => o.id !== p.recommendation.option_id)!;
    assert.equal(runCli(["pick", p.receipt_ref, other.id, "--repo", repo], { env: USER.env }).code, 0);
    const single = runCliJson<{ weights: { sources: Record<string, number> } }>(["stats", "--repo", repo, "--json"], { env: USER.env });
    for (let i = 0; i < 40; i++) copyFileSync(receiptFile(repo, p.receipt_ref), receiptFile(repo, `copy-${String(i).padStart(2, "0")}`));
    const v = runCli(["verify", "--repo", repo], { env: USER.env });
    assert.equal(v.code, 1, "a folder with misnamed copies does not pass verify");
    assert.match(v.stdout, /^1 valid, 0 failed, 40 ignored \(a file name that is not its receipt_id/m);
    assert.match(v.stdout, new RegExp(`^IGNORED\\s+copy-00  ignored: the file name copy-00\\.json does not match the receipt_id it holds \\(${p.receipt_ref}\\); another file holds the same receipt`, "m"));
    const stats = runCliJson<{ counted: number; ignored: { by_reason: Record<string, number> }; weights: { sources: Record<string, number> } }>(["stats", "--repo", repo, "--json"], { env: USER.env });
    assert.equal(stats.counted, 1);
    assert.equal(stats.ignored.by_reason.duplicate, 40);
    assert.deepEqual(stats.weights.sources, single.weights.sources, "the copies move no weight");
    const text = runCli(["stats", "--repo", repo], { env: USER.env });
    assert.match(text.stdout, /ignored: 40 \(40 duplicate copy\)/);
    assert.deepEqual(runCliJson<{ receipt_id: string }[]>(["list", "--repo", repo, "--json"], { env: USER.env }).map((r) => r.receipt_id), [p.receipt_ref]);
  });
});

describe("a pick keeps the original signer", () => {
  test("alice mints, I pick: verify says 'signed by you …; minted by alice (allowed signer)'", () => {
    assertCliBuilt();
    const repo = createSampleRepo();
    const alice = newCliUser();
    const p = deliberateJson(repo, MONGO_Q, alice.env);
    const line = runCli(["keys", "show", "--name", "alice"], { env: alice.env }).stdout.trim();
    const [name, , key] = line.split(" ");
    assert.equal(runCli(["keys", "add", name, key, "--repo", repo], { env: USER.env }).code, 0);
    const minted = readRaw(repo, p.receipt_ref);
    assert.equal(runCli(["pick", p.receipt_ref, p.recommendation.option_id, "--repo", repo], { env: USER.env }).code, 0);
    const after = ReceiptSchema.parse(readRaw(repo, p.receipt_ref));
    assert.notEqual(after.signing.key_id, minted.signing.key_id, "re-signed with my key");
    assert.deepEqual([after.minted_by?.key_id, after.minted_by?.signature], [minted.signing.key_id, minted.signature]);
    const v = runCli(["verify", "--repo", repo], { env: USER.env });
    assert.equal(v.code, 0, v.stdout + v.stderr);
    assert.match(v.stdout, new RegExp(`^ok\\s+${p.receipt_ref}  signature valid; signed by you \\(your own key\\); minted by alice \\(allowed signer\\); evidence intact`, "m"));
    // Alice's own verify: her key minted it; mine, which picked it, is not one she trusts.
    const hers = runCli(["verify", "--repo", repo, "--allow-untrusted"], { env: alice.env });
    assert.match(hers.stdout, /untrusted signer .*; minted by alice \(you\); accepted with --allow-untrusted/);
  });
});
