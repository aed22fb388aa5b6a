// `deliberate stats [--json] [--reset]` run as a real process against a real git repository: picks made through
// the CLI show up as agreement and weights, a tampered receipt is listed as ignored, a reset is a signed marker
// after which earlier picks stop counting, and bad input is one line with nothing written.
import { test, describe, before } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { LEARNING_Q, createLearningRepo } from "../fixtures/learningRepo";
import { assertCliBuilt, assertOneLineError, newCliUser, runCli, runCliJson, type CliOptions } from "../helpers/cli";
import { createGitRepo } from "../helpers/gitRepo";
import { OptionPickerSchema, ReceiptSchema } from "../../src/core/schemas";

const AS_USER: CliOptions = { env: newCliUser().env };
const run = (args: string[]) => runCli(args, AS_USER);
const json = <T = unknown>(args: string[]): T => runCliJson<T>(args, AS_USER);

interface StatsJson {
  counted: number;
  agreed: number;
  overridden: number;
  agreement_rate: number | null;
  ignored: { total: number; by_reason: Record<string, number>; receipts: { receipt_id: string; reason: string }[] };
  weights: { sources: Record<string, number>; synthesis: Record<string, number>; hash: string };
  config_version: string;
  reset: { at: string; by: string } | null;
}

describe("deliberate stats", () => {
  let repo: string;
  const ids: string[] = [];

  before(() => {
    assertCliBuilt();
    repo = createLearningRepo();
    // Three deliberations: two overridden towards RabbitMQ (the ADR's side), one accepted.
    for (let i = 0; i < 3; i++) {
      const p = OptionPickerSchema.parse(json([LEARNING_Q, "--repo", repo, "--json", "--no-cache"]));
      const rabbit = p.options.find((o) => /rabbit/i.test(o.title))!;
      const option = i < 2 ? rabbit.id : p.recommendation.option_id;
      const r = run(["pick", p.receipt_ref, option, "--repo", repo, "--reason", "learning test"]);
      assert.equal(r.code, 0, r.stderr);
      ids.push(p.receipt_ref);
    }
  });

  test("--json reports the agreement rate, the counted picks and weights that moved towards the ADR", () => {
    const s = json<StatsJson>(["stats", "--repo", repo, "--json"]);
    assert.equal(s.counted, 3);
    assert.equal(s.overridden, 2);
    assert.equal(s.agreed, 1);
    assert.equal(s.agreement_rate, 0.3333);
    assert.ok(s.weights.sources.adr > 1, `adr ${s.weights.sources.adr}`);
    assert.ok(s.weights.sources.convention < 1, `convention ${s.weights.sources.convention}`);
    assert.match(s.config_version, new RegExp(`\\+w${s.weights.hash.slice(0, 10)}$`));
    assert.equal(s.reset, null);
  });

  test("the next deliberation records the weights it ranked with, the same ones stats shows", () => {
    const s = json<StatsJson>(["stats", "--repo", repo, "--json"]);
    const p = OptionPickerSchema.parse(json([LEARNING_Q, "--repo", repo, "--json", "--no-cache"]));
    const receipt = ReceiptSchema.parse(JSON.parse(readFileSync(join(repo, ".deliberations", `${p.receipt_ref}.json`), "utf8")));
    assert.equal(receipt.learned_weights?.hash, s.weights.hash);
    assert.deepEqual(receipt.learned_weights?.sources, s.weights.sources);
    assert.equal(receipt.config_version, s.config_version);
  });

  test("text output names the agreement, the weights and why receipts were ignored", () => {
    const r = run(["stats", "--repo", repo]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /agreement: 33%/);
    assert.match(r.stdout, /ADRs\s+1\.\d+×/);
    assert.match(r.stdout, /convention rules\s+0\.\d+×/);
    assert.match(r.stdout, /ignored: 1 \(1 no pick yet\)/);
    assert.match(r.stdout, /rule: w = exp/);
  });

  test("a tampered receipt is listed as ignored and its pick does not count", () => {
    const file = join(repo, ".deliberations", `${ids[2]}.json`);
    const original = readFileSync(file, "utf8");
    try {
      const raw = JSON.parse(original);
      raw.picks[raw.picks.length - 1].reason = "edited by hand";
      writeFileSync(file, JSON.stringify(raw, null, 2));
      const s = json<StatsJson>(["stats", "--repo", repo, "--json"]);
      assert.equal(s.counted, 2);
      assert.equal(s.agreed, 0);
      assert.ok(s.ignored.receipts.some((i) => i.receipt_id === ids[2] && i.reason === "signature-invalid"));
      assert.equal(s.ignored.by_reason["signature-invalid"], 1);
    } finally {
      writeFileSync(file, original);
    }
  });

  test("--reset writes a signed marker: earlier picks stop counting and every weight is 1 again", () => {
    const r = run(["stats", "--reset", "--repo", repo]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /learning reset at .*: 3 earlier pick\(s\) no longer count/);
    const marker = join(repo, ".deliberations", "learning", "reset.json");
    assert.ok(existsSync(marker));
    const s = json<StatsJson>(["stats", "--repo", repo, "--json"]);
    assert.equal(s.counted, 0);
    assert.equal(s.ignored.by_reason["picked-before-reset"], 3);
    assert.ok(s.reset?.at);
    assert.ok(Object.values(s.weights.sources).every((w) => w === 1));
    assert.doesNotMatch(s.config_version, /\+w/);
    // A marker edited by hand is ignored, and stats says so.
    const m = JSON.parse(readFileSync(marker, "utf8"));
    writeFileSync(marker, JSON.stringify({ ...m, reset_at: "2000-01-01T00:00:00.000Z" }));
    const after = run(["stats", "--repo", repo]);
    assert.match(after.stdout, /reset marker ignored: .*signature does not verify/);
    assert.match(after.stdout, /picks counted: 3/);
  });

  test("bad input is one line, exit 2, nothing written", () => {
    assertOneLineError(run(["stats", "--repo", "/nonexistent/repo"]), 2, /repository path does not exist/);
    const empty = createGitRepo([{ message: "init", files: { "README.md": "# x\n" } }]);
    assertOneLineError(run(["stats", "--reset", "--repo", empty]), 2, /no \.deliberations folder .*no picks to reset/);
    assert.ok(!existsSync(join(empty, ".deliberations")));
    assertOneLineError(run(["stats", "--bogus", "--repo", empty]), 2, /bogus/);
    // Stats on a repository without receipts is not an error.
    const s = json<StatsJson>(["stats", "--repo", empty, "--json"]);
    assert.equal(s.counted, 0);
    assert.equal(s.agreement_rate, null);
    assert.ok(!existsSync(join(empty, ".deliberations")), "stats writes nothing");
  });
});
