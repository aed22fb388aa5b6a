// Receipts notice when their evidence changes: real git repositories in temp dirs, real deliberations, real edits.
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { deliberate } from "../../src/core/pipeline";
import { withContentHashes, citedPart, normaliseCitedText } from "../../src/core/receipts/citedContent";
import { FreshnessContext, checkFreshness, checkFreshnessAll, type Freshness } from "../../src/core/receipts/freshness";
import { generateSigningKey, signReceipt } from "../../src/core/receipts/signing";
import { listReceipts, readReceipt } from "../../src/core/receipts/store";
import { sha256 } from "../../src/core/hash";
import type { Citation, Receipt } from "../../src/core/schemas";
import { createGitRepo, git, writeFiles } from "../helpers/gitRepo";
import { ADR_GRAPHQL, ADR_REST, API_Q, DB_Q, decisionRepo } from "../fixtures/decisionRepo";

const key = generateSigningKey();
async function run(repo: string, question: string): Promise<Receipt> {
  const out = await deliberate({ repo, question, signingKey: key, config: { offline: true }, useCache: false });
  assert.equal(out.kind, "deliberated");
  if (out.kind !== "deliberated") throw new Error("abstained");
  return out.receipt;
}

async function freshness(repo: string): Promise<Map<string, Freshness>> {
  return checkFreshnessAll(repo, await listReceipts(repo));
}

/** Rewrites one line (1-based) of a file. */
function editLine(repo: string, path: string, line: number, text: string): void {
  const abs = join(repo, path);
  const lines = readFileSync(abs, "utf8").split("\n");
  lines[line - 1] = text;
  writeFileSync(abs, lines.join("\n"));
}

function fileCitations(r: Receipt, path: string): Citation[] {
  return r.payload.citations.filter((c) => c.path_or_url === path && !c.commit);
}

const REST = "docs/adr/0002-use-rest-for-the-public-api.md";
const PG = "docs/adr/0003-use-postgresql-for-order-storage.md";

describe("receipt freshness", () => {
  test("sealing stores the sha256 of exactly the cited lines, inside the signed payload", async () => {
    const repo = decisionRepo();
    const r = await run(repo, API_Q);
    const cited = fileCitations(r, REST);
    assert.ok(cited.length > 0, "the REST ADR is cited");
    for (const c of cited) {
      const text = normaliseCitedText(readFileSync(join(repo, REST), "utf8"));
      assert.equal(c.content_sha256, sha256(citedPart(text, c.line_range)!), `hash of ${c.id}`);
    }
    assert.ok(r.artifact_path_keys && r.artifact_path_keys.length >= 2, "the artifact membership is recorded");
    // A commit citation carries no content hash: its sha is its content address.
    for (const c of r.payload.citations.filter((x) => x.commit)) assert.equal(c.content_sha256, undefined);
  });

  test("editing one cited line marks exactly that receipt stale and names exactly that citation", async () => {
    const repo = decisionRepo();
    const api = await run(repo, API_Q);
    const db = await run(repo, DB_Q);
    assert.ok(fileCitations(db, REST).length === 0, "the database receipt does not cite the REST ADR");
    assert.ok(fileCitations(db, PG).length > 0, "the database receipt cites the PostgreSQL ADR");
    const before = await freshness(repo);
    assert.equal(before.get(api.receipt_id)?.state, "fresh", before.get(api.receipt_id)?.summary);
    assert.equal(before.get(db.receipt_id)?.state, "fresh", before.get(db.receipt_id)?.summary);

    const target = fileCitations(api, REST).find((c) => c.line_range)!;
    const line = target.line_range!.start;
    editLine(repo, REST, line, "We will expose the public API as gRPC services. (edited)");
    const after = await freshness(repo);
    const f = after.get(api.receipt_id)!;
    assert.equal(f.state, "evidence-changed");
    assert.equal(f.label, "stale: evidence changed");
    const expected = api.payload.citations.filter((c) => c.path_or_url === REST && c.line_range && c.line_range.start <= line && line <= c.line_range.end && !c.commit);
    assert.deepEqual(f.changed.map((c) => c.id).sort(), expected.map((c) => c.id).sort());
    assert.ok(f.changed.some((c) => c.id === target.id && c.reason === "changed" && c.location === `${REST}:${target.line_range!.start}-${target.line_range!.end}`));
    assert.equal(after.get(db.receipt_id)?.state, "fresh", "the other receipt, citing other lines, stays fresh");
  });

  test("deleting a cited file marks that receipt stale, naming its citations; the other stays fresh", async () => {
    const repo = decisionRepo();
    const api = await run(repo, API_Q);
    const db = await run(repo, DB_Q);
    rmSync(join(repo, REST));
    const f = (await freshness(repo)).get(api.receipt_id)!;
    assert.equal(f.state, "evidence-changed");
    assert.deepEqual(f.changed.map((c) => c.id).sort(), fileCitations(api, REST).map((c) => c.id).sort());
    assert.ok(f.changed.every((c) => c.reason === "missing"));
    const other = (await freshness(repo)).get(db.receipt_id)!;
    assert.equal(other.state, "fresh", other.summary);
    assert.equal(other.removed_artifacts, 1);
  });

  test("a new ADR makes receipts 'stale: new evidence', naming it", async () => {
    const repo = decisionRepo();
    const api = await run(repo, API_Q);
    writeFiles(repo, { "docs/adr/0004-use-graphql-for-the-public-api.md": ADR_GRAPHQL });
    const f = (await freshness(repo)).get(api.receipt_id)!;
    assert.equal(f.state, "new-evidence");
    assert.equal(f.label, "stale: new evidence");
    assert.deepEqual(f.new_artifacts, ["docs/adr/0004-use-graphql-for-the-public-api.md"]);
    assert.equal(f.changed.length, 0);
  });

  test("a cited block that only moved is found at its new lines and not called changed", async () => {
    const repo = decisionRepo();
    const api = await run(repo, API_Q);
    const abs = join(repo, REST);
    writeFileSync(abs, readFileSync(abs, "utf8").replace("## Status", "Deciders: the API guild\n\n## Status"));
    const f = (await freshness(repo)).get(api.receipt_id)!;
    assert.equal(f.state, "fresh", f.summary);
    const ranged = fileCitations(api, REST).filter((c) => c.line_range && c.line_range.start > 3);
    assert.ok(ranged.length > 0);
    for (const c of ranged) {
      const moved = f.moved.find((m) => m.id === c.id);
      assert.ok(moved, `${c.id} reported as moved`);
      assert.equal(moved.now.start, c.line_range!.start + 2);
    }
  });

  test("a CRLF checkout of the same content is not a change", async () => {
    const repo = decisionRepo();
    const api = await run(repo, API_Q);
    const abs = join(repo, REST);
    writeFileSync(abs, readFileSync(abs, "utf8").replace(/\n/g, "\r\n"));
    assert.equal((await freshness(repo)).get(api.receipt_id)?.state, "fresh");
  });

  test("a commit citation goes stale when history is rewritten and the commit is gone", async () => {
    const repo = createGitRepo([
      { message: "Record the API decision", files: { [REST]: ADR_REST } },
      { message: "Switch the public API from GraphQL to REST: partners want plain HTTP", files: { "src/api.ts": "export const api = 'rest';\n" } },
    ]);
    const api = await run(repo, API_Q);
    const commits = api.payload.citations.filter((c) => c.commit);
    assert.ok(commits.length > 0, "the git expert cites the commits");
    git(repo, ["reset", "-q", "--hard", "HEAD~1"]);
    git(repo, ["reflog", "expire", "--expire=now", "--all"]);
    git(repo, ["gc", "-q", "--prune=now"]);
    const f = (await freshness(repo)).get(api.receipt_id)!;
    const gone = f.changed.filter((c) => c.reason === "commit-missing").map((c) => c.id);
    const head = git(repo, ["rev-parse", "HEAD"]).trim();
    assert.deepEqual(gone.sort(), commits.filter((c) => c.commit !== head).map((c) => c.id).sort());
    // The same through a context that was not told the shas up front (they are looked up on first use).
    const entry = (await listReceipts(repo)).find((e) => e.receipt_id === api.receipt_id);
    assert.ok(entry && entry.state === "ok");
    const single = await checkFreshness(new FreshnessContext(repo), entry);
    assert.deepEqual(single.changed.filter((c) => c.reason === "commit-missing").map((c) => c.id).sort(), gone);
  });

  test("a legacy receipt without content hashes is 'evidence unchecked', never stale", async () => {
    const repo = decisionRepo();
    mkdirSync(join(repo, ".deliberations"), { recursive: true });
    cpSync(join(import.meta.dirname, "..", "fixtures", "legacy-receipt"), join(repo, ".deliberations"), { recursive: true });
    // And one of ours with the hashes stripped (re-signed, so only the missing hashes differ).
    const api = await run(repo, API_Q);
    const { signature: _s, signing: _k, artifact_path_keys: _a, ...rest } = api;
    const stripped = signReceipt({ ...rest, payload: { ...rest.payload, citations: rest.payload.citations.map(({ content_sha256: _c, ...c }) => c) } }, key);
    writeFileSync(join(repo, ".deliberations", `${api.receipt_id}.json`), JSON.stringify(stripped, null, 2));
    editLine(repo, REST, 15, "We will expose the public API as SOAP. (edited)");
    writeFiles(repo, { "docs/adr/0004-use-graphql-for-the-public-api.md": ADR_GRAPHQL });
    const all = await freshness(repo);
    assert.equal(all.get("20261130-083144Z-dd9f1af8")?.state, "unchecked");
    assert.equal(all.get(api.receipt_id)?.state, "unchecked");
    assert.equal(all.get(api.receipt_id)?.label, "evidence unchecked");
  });

  test("a tampered receipt is never reported as fresh", async () => {
    const repo = decisionRepo();
    const api = await run(repo, API_Q);
    const file = join(repo, ".deliberations", `${api.receipt_id}.json`);
    const raw = JSON.parse(readFileSync(file, "utf8"));
    raw.payload.recommendation.rationale = "Trust me.";
    writeFileSync(file, JSON.stringify(raw, null, 2));
    const f = (await freshness(repo)).get(api.receipt_id)!;
    assert.equal(f.state, "unverified");
    assert.notEqual(f.state, "fresh");
    // The receipt as stored still parses; only its signature is wrong.
    assert.equal((await readReceipt(repo, api.receipt_id)).payload.recommendation.rationale, "Trust me.");
  });

  test("withContentHashes never reads outside the repository", async () => {
    const repo = decisionRepo();
    const outside: Citation = { id: "ev-x", kind: "internal", path_or_url: "../../etc/passwd", line_range: { start: 1, end: 1 }, precision_class: "exact-lines", excerpt: "" };
    const [c] = await withContentHashes(repo, [outside]);
    assert.equal(c!.content_sha256, undefined);
  });
});
