// `deliberate list --json`, `deliberate verify --evidence` and `deliberate diff`, run as real processes against
// real git repositories in temp dirs: stale receipts are named with their citations, and two deliberations of one
// question are compared.
import { test, describe, before } from "node:test";
import assert from "node:assert/strict";
import { cpSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { assertCliBuilt, assertOneLineError, newCliUser, runCli, runCliJson, type CliOptions } from "../helpers/cli";
import { writeFiles } from "../helpers/gitRepo";
import { ADR_GRAPHQL, API_Q, DB_Q, decisionRepo } from "../fixtures/decisionRepo";
import { OptionPickerSchema, type OptionPicker } from "../../src/core/schemas";

const AS_USER: CliOptions = { env: newCliUser().env };
const run = (args: string[]) => runCli(args, AS_USER);
const json = <T = unknown>(args: string[]): T => runCliJson<T>(args, AS_USER);

const REST = "docs/adr/0002-use-rest-for-the-public-api.md";
const NEW_ADR = "docs/adr/0004-use-graphql-for-the-public-api.md";

interface ListRow {
  receipt_id: string;
  state: string;
  freshness: null | { state: string; label: string; stale_citations: { id: string; location: string; reason: string }[]; new_artifacts?: string[] };
}

function deliberateJson(repo: string, question: string): OptionPicker {
  return OptionPickerSchema.parse(json([question, "--repo", repo, "--json", "--offline", "--no-cache"]));
}

function rowOf(repo: string, id: string): ListRow {
  const rows = json<ListRow[]>(["list", "--repo", repo, "--json"]);
  const row = rows.find((r) => r.receipt_id === id);
  assert.ok(row, `receipt ${id} listed`);
  return row;
}

describe("stale receipts in the CLI", () => {
  before(() => assertCliBuilt());

  test("editing one cited line: list and verify --evidence name exactly that receipt and citation", () => {
    const repo = decisionRepo();
    const api = deliberateJson(repo, API_Q);
    const db = deliberateJson(repo, DB_Q);
    assert.equal(rowOf(repo, api.receipt_ref).freshness?.state, "fresh");
    const cite = api.citations.find((c) => c.path_or_url === REST && c.line_range && !c.commit)!;
    const abs = join(repo, REST);
    const lines = readFileSync(abs, "utf8").split("\n");
    lines[cite.line_range!.end - 1] += " Unless a partner pays for it.";
    writeFileSync(abs, lines.join("\n"));

    const stale = rowOf(repo, api.receipt_ref).freshness!;
    assert.equal(stale.state, "evidence-changed");
    assert.equal(stale.label, "stale: evidence changed");
    assert.deepEqual(stale.stale_citations.map((c) => c.id), [cite.id]);
    assert.equal(stale.stale_citations[0]!.location, `${REST}:${cite.line_range!.start}-${cite.line_range!.end}`);
    assert.equal(rowOf(repo, db.receipt_ref).freshness?.state, "fresh");

    const v = run(["verify", "--evidence", "--repo", repo]);
    assert.equal(v.code, 0, "staleness does not fail verify");
    const apiLine = v.stdout.split("\n").findIndex((l) => l.includes(api.receipt_ref));
    assert.ok(apiLine >= 0);
    assert.match(v.stdout.split("\n")[apiLine + 1]!, /evidence: stale: evidence changed/);
    assert.ok(v.stdout.split("\n")[apiLine + 2]!.includes(`${cite.id} ${REST}:${cite.line_range!.start}-${cite.line_range!.end} (cited lines changed)`), v.stdout);
    const vj = json<{ receipt_id: string; ok: boolean; freshness: { state: string } }[]>(["verify", "--evidence", "--json", "--repo", repo]);
    assert.equal(vj.find((r) => r.receipt_id === api.receipt_ref)?.freshness.state, "evidence-changed");
    assert.equal(vj.find((r) => r.receipt_id === db.receipt_ref)?.freshness.state, "fresh");
    // Without --evidence, verify's output is as before.
    assert.ok(!("freshness" in json<Record<string, unknown>[]>(["verify", "--json", "--repo", repo])[0]!));
  });

  test("deleting the cited file does the same", () => {
    const repo = decisionRepo();
    const api = deliberateJson(repo, API_Q);
    const db = deliberateJson(repo, DB_Q);
    rmSync(join(repo, REST));
    const f = rowOf(repo, api.receipt_ref).freshness!;
    assert.equal(f.state, "evidence-changed");
    const expected = api.citations.filter((c) => c.path_or_url === REST && !c.commit).map((c) => c.id).sort();
    assert.deepEqual(f.stale_citations.map((c) => c.id).sort(), expected);
    assert.ok(f.stale_citations.every((c) => c.reason === "missing"));
    assert.equal(rowOf(repo, db.receipt_ref).freshness?.state, "fresh");
    const text = run(["list", "--repo", repo]);
    assert.match(text.stdout, new RegExp(`${api.receipt_ref}.*\\[stale: evidence changed\\]`));
  });

  test("a new ADR: 'stale: new evidence'; diff reports the added ADR and the changed recommendation", () => {
    const repo = decisionRepo();
    const first = deliberateJson(repo, API_Q);
    writeFiles(repo, { [NEW_ADR]: ADR_GRAPHQL });
    const f = rowOf(repo, first.receipt_ref).freshness!;
    assert.equal(f.state, "new-evidence");
    assert.equal(f.label, "stale: new evidence");
    assert.deepEqual(f.new_artifacts, [NEW_ADR]);

    const second = deliberateJson(repo, API_Q);
    const d = json<{
      recommendation: { changed: boolean };
      before: { receipt_id: string; recommendation: { title: string } };
      after: { receipt_id: string; recommendation: { title: string } };
      citations: { same_set: boolean; added: { location: string; stage: string }[] };
      moved_by: { stage: string }[];
      signatures: Record<string, string>;
    }>(["diff", first.receipt_ref, second.receipt_ref, "--json", "--repo", repo]);
    assert.equal(d.before.receipt_id, first.receipt_ref);
    assert.equal(d.recommendation.changed, true);
    assert.match(d.before.recommendation.title, /REST/);
    assert.match(d.after.recommendation.title, /GraphQL/);
    assert.equal(d.citations.same_set, false);
    assert.ok(d.citations.added.some((c) => c.location.startsWith(NEW_ADR) && c.stage === "internal:docs"));
    assert.equal(d.moved_by[0]?.stage, "internal:docs");
    assert.deepEqual(Object.values(d.signatures), ["valid", "valid"]);

    const text = run(["diff", second.receipt_ref, first.receipt_ref, "--repo", repo]);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /Recommendation changed: "REST" → "GraphQL"/);
    assert.ok(text.stdout.includes(`+ ${NEW_ADR}`), text.stdout);
    assert.match(text.stdout, /Moved by ADRs and docs \(internal:docs\)/);
    assert.equal(rowOf(repo, second.receipt_ref).freshness?.state, "fresh");
  });

  test("diff: bad input is one line, exit 2", () => {
    const repo = decisionRepo();
    const api = deliberateJson(repo, API_Q);
    const db = deliberateJson(repo, DB_Q);
    assertOneLineError(run(["diff", api.receipt_ref, db.receipt_ref, "--repo", repo]), 2, /different questions/);
    assertOneLineError(run(["diff", api.receipt_ref, "20990101-000000Z-deadbeef", "--repo", repo]), 2, /unknown receipt: 20990101-000000Z-deadbeef/);
    assertOneLineError(run(["diff", api.receipt_ref, "--repo", repo]), 2, /two receipt ids/);
  });

  test("legacy receipts are 'evidence unchecked'; a tampered receipt fails verify and is not fresh", () => {
    const repo = decisionRepo();
    const api = deliberateJson(repo, API_Q);
    cpSync(join(__dirname, "..", "fixtures", "legacy-receipt"), join(repo, ".deliberations"), { recursive: true });
    assert.equal(rowOf(repo, "20261130-083144Z-dd9f1af8").freshness?.label, "evidence unchecked");
    const file = join(repo, ".deliberations", `${api.receipt_ref}.json`);
    const raw = JSON.parse(readFileSync(file, "utf8"));
    raw.payload.citations[0].content_sha256 = "0".repeat(64);
    writeFileSync(file, JSON.stringify(raw, null, 2));
    assert.equal(rowOf(repo, api.receipt_ref).freshness?.state, "unverified");
    const v = run(["verify", "--evidence", "--repo", repo]);
    assert.equal(v.code, 1);
    assert.match(v.stdout, new RegExp(`INVALID\\s+${api.receipt_ref}`));
    assert.match(v.stdout, /not checked: signature invalid/);
  });
});
