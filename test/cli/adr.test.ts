// `deliberate adr` as a real process against real git repositories in temp dirs: the dry run (files and a unified
// diff, nothing written), the export (the ADR, the superseded ADR, the receipt re-signed with the export), a forced
// format, and bad input (no pick, unknown receipt or format, a read-only ADR, an untrusted receipt).
import { describe, test, before } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { parseAdr } from "../../src/core/internal/adr";
import { verifyReceiptSignature } from "../../src/core/receipts/signing";
import { ReceiptSchema, type OptionPicker } from "../../src/core/schemas";
import { EVENTS_Q, RABBIT_ADR, createLayoutRepo } from "../fixtures/adrLayouts";
import { assertCliBuilt, assertOneLineError, newCliUser, runCli, runCliJson, type CliOptions, type CliUser } from "../helpers/cli";
import { git } from "../helpers/gitRepo";

const user = newCliUser();
const AS_USER: CliOptions = { env: { ...user.env, DELIBERATIVE_SIGNER_NAME: "ops-lead" } };
const run = (args: string[], opts: CliOptions = AS_USER) => runCli(args, opts);

function picked(repo: string, option: RegExp | "recommended", reason?: string): OptionPicker {
  const p = runCliJson<OptionPicker>([EVENTS_Q, "--repo", repo, "--json", "--force"], AS_USER);
  const id = option === "recommended" ? p.recommendation.option_id : p.options.find((o) => option.test(o.title))!.id;
  const r = run(["pick", p.receipt_ref, id, "--repo", repo, ...(reason ? ["--reason", reason] : [])]);
  assert.equal(r.code, 0, r.stderr);
  return p;
}

const receiptBytes = (repo: string, id: string) => readFileSync(join(repo, ".deliberations", `${id}.json`), "utf8");
const worktreeChanges = (repo: string) =>
  git(repo, ["status", "--porcelain", "--untracked-files=all"])
    .split("\n")
    .filter((l) => l && !l.includes(".deliberations/"));

describe("deliberate adr", () => {
  before(() => assertCliBuilt());

  test("--dry-run prints the new file and the supersession as a unified diff, and writes nothing", () => {
    const repo = createLayoutRepo("madr");
    const p = picked(repo, /kafka/i, "Replaying order events is now required.");
    const before = receiptBytes(repo, p.receipt_ref);
    const r = run(["adr", p.receipt_ref, "--repo", repo, "--dry-run"]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^would write docs\/decisions\/0004-kafka-should-we-use-rabbitmq-or-kafka-for-the-order-events\.md {2}\[MADR 4, front matter; docs\/decisions\/ \(existing ADRs\)\]$/m);
    assert.match(r.stdout, /^would supersede docs\/decisions\/0003-use-rabbitmq-for-order-events\.md/m);
    assert.match(r.stdout, /^--- \/dev\/null\n\+\+\+ b\/docs\/decisions\/0004-kafka-[^\n]+\n@@ -0,0 \+1,\d+ @@\n\+---\n\+status: accepted\n/m);
    assert.match(r.stdout, /^--- a\/docs\/decisions\/0003-use-rabbitmq-for-order-events\.md\n\+\+\+ b\/docs\/decisions\/0003-use-rabbitmq-for-order-events\.md\n@@ -1,\d+ \+1,\d+ @@\n ---\n-status: accepted\n\+status: "superseded by \[4\. Kafka/m);
    assert.match(r.stdout, /decision-makers: "ops-lead"/);
    assert.match(r.stdout, /\(dry run: nothing was written\)\n$/);
    assert.deepEqual(worktreeChanges(repo), []);
    assert.equal(receiptBytes(repo, p.receipt_ref), before, "the receipt is not touched");
  });

  test("writes the ADR and the superseded ADR, and re-signs the receipt with the export recorded", () => {
    const repo = createLayoutRepo("nygard");
    const p = picked(repo, /kafka/i, "Replaying order events is now required.");
    const r = run(["adr", p.receipt_ref, "--repo", repo]);
    assert.equal(r.code, 0, r.stderr);
    const newPath = "doc/architecture/decisions/0003-kafka-should-we-use-rabbitmq-or-kafka-for-the-order-events.md";
    assert.match(r.stdout, new RegExp(`^wrote ${newPath.replace(/\./g, "\\.")} {2}\\[Nygard \\(adr-tools\\); doc/architecture/decisions/ \\(existing ADRs\\)\\]$`, "m"));
    assert.match(r.stdout, /^superseded doc\/architecture\/decisions\/0002-use-rabbitmq-for-order-events\.md/m);
    assert.match(r.stdout, /re-signed with the export recorded$/m);
    assert.deepEqual(worktreeChanges(repo).sort(), [` M ${RABBIT_ADR.nygard}`, `?? ${newPath}`]);
    const adr = parseAdr(newPath, readFileSync(join(repo, newPath), "utf8"));
    assert.equal(adr.format, "nygard");
    assert.equal(adr.number, 3);
    assert.equal(adr.status, "accepted");
    assert.deepEqual(adr.supersedes, [RABBIT_ADR.nygard]);
    assert.equal(parseAdr(RABBIT_ADR.nygard, readFileSync(join(repo, RABBIT_ADR.nygard), "utf8")).status, "superseded");
    const raw = JSON.parse(receiptBytes(repo, p.receipt_ref));
    const receipt = ReceiptSchema.parse(raw);
    assert.equal(receipt.adr_exports?.[0]?.path, newPath);
    assert.equal(receipt.adr_exports?.[0]?.format, "nygard");
    assert.equal(receipt.adr_exports?.[0]?.supersedes, RABBIT_ADR.nygard);
    assert.ok(verifyReceiptSignature(raw).ok);
    assert.equal(run(["verify", "--repo", repo]).code, 0, "the receipt still verifies");
    // The loop: asked again, the new ADR decides.
    const again = runCliJson<OptionPicker>([EVENTS_Q, "--repo", repo, "--json", "--force"], AS_USER);
    assert.match(again.options.find((o) => o.id === again.recommendation.option_id)!.title, /kafka/i);
    // A second export of the same pick writes nothing and names the first (the receipt records it).
    const recorded = receiptBytes(repo, p.receipt_ref);
    const second = run(["adr", p.receipt_ref, "--repo", repo, "--format", "madr"]);
    assert.equal(second.code, 0, second.stderr);
    assert.equal(second.stdout, `receipt ${p.receipt_ref} was already exported as ${newPath} (${receipt.adr_exports![0].at.slice(0, 10)}); nothing was written (a new pick can be exported again)\n`);
    assert.deepEqual(worktreeChanges(repo).sort(), [` M ${RABBIT_ADR.nygard}`, `?? ${newPath}`]);
    assert.equal(receiptBytes(repo, p.receipt_ref), recorded);
  });

  test("bad input: one line, exit 2, nothing written", () => {
    const repo = createLayoutRepo("madr");
    const p = runCliJson<OptionPicker>([EVENTS_Q, "--repo", repo, "--json", "--force"], AS_USER);
    assertOneLineError(run(["adr", p.receipt_ref, "--repo", repo]), 2, /has no pick yet: pick an option first/);
    assertOneLineError(run(["adr", "20990101-000000Z-00000000", "--repo", repo]), 2, /unknown receipt/);
    assertOneLineError(run(["adr", p.receipt_ref, "--repo", repo, "--format", "rst"]), 2, /unknown --format rst/);
    assertOneLineError(run(["adr", "--repo", repo]), 2, /adr needs one <receipt_id>/);
    assertOneLineError(run(["adr", p.receipt_ref, "--repo", join(repo, "nope")]), 2, /repository path does not exist/);
    assert.deepEqual(worktreeChanges(repo), []);
  });

  test("a receipt signed by someone you do not trust is refused (exit 1)", () => {
    const repo = createLayoutRepo("madr");
    const p = picked(repo, /kafka/i);
    const stranger = newCliUser();
    assertOneLineError(run(["adr", p.receipt_ref, "--repo", repo], { env: stranger.env }), 1, /failed verification \(untrusted signer/);
    assert.deepEqual(worktreeChanges(repo), []);
  });

  test("a read-only ADR to supersede: one line, exit 2, nothing half-written", () => {
    const repo = createLayoutRepo("madr");
    const p = picked(repo, /kafka/i, "replay");
    chmodSync(join(repo, RABBIT_ADR.madr), 0o444);
    // Root writes read-only files, so when the tests run as root an unprivileged user that trusts our key runs it.
    const asRoot = process.getuid?.() === 0;
    let other: CliUser | undefined;
    if (asRoot) {
      const line = run(["keys", "show", "--name", "ops-lead"]).stdout.trim().split(/\s+/);
      assert.equal(run(["keys", "add", line[0], line.slice(1).join(" "), "--repo", repo]).code, 0);
      other = newCliUser();
      for (const d of [repo, other.keyDir, other.cacheHome]) chmodSync(d, 0o777);
      spawnSync("chmod", ["-R", "a+rX", repo]);
      spawnSync("chmod", ["a+w", join(repo, "docs/decisions"), join(repo, ".deliberations")]);
    }
    const r = run(["adr", p.receipt_ref, "--repo", repo], other ? { env: other.env, uid: 65534, gid: 65534 } : AS_USER);
    assertOneLineError(r, 2, /docs\/decisions\/0003-use-rabbitmq-for-order-events\.md is read-only \(EACCES\), so it cannot be marked superseded; nothing was written/);
    assert.deepEqual(readdirSync(join(repo, "docs/decisions")).sort(), ["0001-use-a-record-of-decisions.md", "0003-use-rabbitmq-for-order-events.md"]);
    assert.ok(!receiptBytes(repo, p.receipt_ref).includes("adr_exports"));
    // --no-supersede leaves the read-only ADR alone, so the export goes through.
    const kept = run(["adr", p.receipt_ref, "--repo", repo, "--no-supersede"]);
    assert.equal(kept.code, 0, kept.stderr);
    assert.match(kept.stdout, /^note: the pick goes against the accepted docs\/decisions\/0003-use-rabbitmq-for-order-events\.md; left as it is \(--no-supersede\)$/m);
    assert.equal(parseAdr(RABBIT_ADR.madr, readFileSync(join(repo, RABBIT_ADR.madr), "utf8")).status, "accepted");
  });
});
