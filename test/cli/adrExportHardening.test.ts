// `deliberate adr` hardening (issue 19, finding 8), as real processes against real git repositories in temp dirs:
// a cited record that changed since the receipt is never superseded; an agent's pick exports as a proposed record
// that supersedes nothing; two exports of one receipt at once write one ADR and one supersession, and a repeated
// export names the first; no ADR is written inside .git; a folder symlinked outside the repository is refused
// before anything is created there; --dry-run refuses what the export refuses; a title from another ADR reaches
// the new ADR's "Supersedes" link only as inert text.
import { describe, test, before } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseAdr } from "../../src/core/internal/adr";
import { loadOrCreateKeyFile } from "../../src/core/receipts/signing";
import { recordPick } from "../../src/core/receipts/store";
import { ReceiptSchema, type OptionPicker } from "../../src/core/schemas";
import { EVENTS_Q, RABBIT_ADR, createLayoutRepo } from "../fixtures/adrLayouts";
import { assertCliBuilt, assertOneLineError, newCliUser, runCli, runCliAsync, runCliJson, type CliOptions, type CliRun, type CliUser } from "../helpers/cli";
import { commit, git, makeTempDir } from "../helpers/gitRepo";

const user = newCliUser();
const AS_USER: CliOptions = { env: { ...user.env, DELIBERATIVE_SIGNER_NAME: "ops-lead" } };
const run = (args: string[], opts: CliOptions = AS_USER) => runCli(args, opts);

function deliberated(repo: string): OptionPicker {
  return runCliJson<OptionPicker>([EVENTS_Q, "--repo", repo, "--json", "--force"], AS_USER);
}

function picked(repo: string, option: RegExp, reason = "Replaying order events is now required."): OptionPicker {
  const p = deliberated(repo);
  const r = run(["pick", p.receipt_ref, p.options.find((o) => option.test(o.title))!.id, "--repo", repo, "--reason", reason]);
  assert.equal(r.code, 0, r.stderr);
  return p;
}

const read = (repo: string, path: string) => readFileSync(join(repo, path), "utf8");
const receiptOf = (repo: string, id: string) => ReceiptSchema.parse(JSON.parse(read(repo, `.deliberations/${id}.json`)));
const worktreeChanges = (repo: string) =>
  git(repo, ["status", "--porcelain", "--untracked-files=all"])
    .split("\n")
    .filter((l) => l && !l.includes(".deliberations/"));

/** The export refuses with one line, and the dry run exactly as the export does: same exit code, same line. */
function assertSameRefusal(real: CliRun, dry: CliRun, code: number, pattern: RegExp): void {
  assertOneLineError(real, code, pattern);
  assertOneLineError(dry, code, pattern);
  assert.equal(dry.stderr, real.stderr, "the dry run names the same refusal");
  assert.doesNotMatch(dry.stdout, /would write/);
}

describe("deliberate adr: hardening", () => {
  before(() => assertCliBuilt());

  test("a cited ADR replaced since the receipt by an unrelated record is not superseded (dry run and export, exit 1)", () => {
    const repo = createLayoutRepo("madr");
    const p = picked(repo, /kafka/i);
    // The file at the cited path is now another decision altogether, still accepted.
    commit(repo, {
      message: "Reuse the number for the database decision",
      files: { [RABBIT_ADR.madr]: "---\nstatus: accepted\ndate: 2024-05-01\n---\n\n# Use PostgreSQL for orders\n\n## Decision Outcome\n\nChosen option: \"PostgreSQL\", because it is boring.\n" },
    });
    const replaced = read(repo, RABBIT_ADR.madr);
    const refusal = new RegExp(
      `^deliberate: refusing to supersede docs/decisions/0003-use-rabbitmq-for-order-events\\.md: it changed since receipt ${p.receipt_ref} was made ` +
        `\\((\\S+ docs/decisions/0003-use-rabbitmq-for-order-events\\.md(:\\d+-\\d+)?: cited lines (changed|no longer exist)(; )?)+\\), so it may not be the record the deliberation weighed; ` +
        "nothing was written\\. Deliberate again, or export with --no-supersede$",
    );
    const real = run(["adr", p.receipt_ref, "--repo", repo]);
    assert.equal(read(repo, RABBIT_ADR.madr), replaced, "the unrelated record is not marked superseded");
    assert.deepEqual(worktreeChanges(repo), []);
    assertSameRefusal(real, run(["adr", p.receipt_ref, "--repo", repo, "--dry-run"]), 1, refusal);
    assert.equal(receiptOf(repo, p.receipt_ref).adr_exports, undefined);
    // Exporting without superseding still works, and leaves the unrelated record alone.
    const kept = run(["adr", p.receipt_ref, "--repo", repo, "--no-supersede"]);
    assert.equal(kept.code, 0, kept.stderr);
    assert.equal(read(repo, RABBIT_ADR.madr), replaced);
    assert.equal(parseAdr(RABBIT_ADR.madr, replaced).status, "accepted");
  });

  test("an unchanged cited ADR is still superseded (the hash check passes on the record the receipt cited)", () => {
    const repo = createLayoutRepo("madr");
    const p = picked(repo, /kafka/i);
    // Edits elsewhere in the repository do not matter; only the cited record's content does.
    commit(repo, { message: "unrelated", files: { "README.md": "# Orders\n\nMore words.\n" } });
    const r = run(["adr", p.receipt_ref, "--repo", repo]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^superseded docs\/decisions\/0003-use-rabbitmq-for-order-events\.md/m);
    assert.equal(parseAdr(RABBIT_ADR.madr, read(repo, RABBIT_ADR.madr)).status, "superseded");
  });

  test("an agent's pick exports as a proposed ADR with a note, and supersedes nothing", async () => {
    const repo = createLayoutRepo("madr");
    const p = deliberated(repo);
    const kafka = p.options.find((o) => /kafka/i.test(o.title))!.id;
    // The pick the MCP server's record_pick makes, signed with the same key the CLI uses.
    await recordPick(repo, p.receipt_ref, { option_id: kafka, reason: "Replay is needed." }, loadOrCreateKeyFile(user.keyDir), undefined, { who: "claude-code", pickedBy: "agent" });
    const before = read(repo, RABBIT_ADR.madr);
    const r = run(["adr", p.receipt_ref, "--repo", repo]);
    assert.equal(r.code, 0, r.stderr);
    const path = /^wrote (\S+)/m.exec(r.stdout)![1];
    assert.match(r.stdout, /^note: an agent \(claude-code\) made this pick, so the ADR is proposed, not accepted, and supersedes nothing; a person's pick exports it as accepted$/m);
    assert.match(r.stdout, /^note: the pick goes against the accepted docs\/decisions\/0003-use-rabbitmq-for-order-events\.md; left as it is \(an agent's pick supersedes nothing\)$/m);
    const text = read(repo, path);
    const adr = parseAdr(path, text);
    assert.equal(adr.status, "proposed");
    assert.match(text, /^status: proposed$/m);
    assert.match(text, /^decision-makers: "claude-code \(agent\)"$/m);
    assert.match(text, /^Proposed, not accepted: a coding agent \(claude-code\) picked this option through the MCP server on \d{4}-\d{2}-\d{2}, not a person\./m);
    assert.match(text, /The agent "claude-code" overrode that recommendation/);
    assert.doesNotMatch(text, /The operator overrode/);
    assert.deepEqual(adr.supersedes, []);
    assert.equal(read(repo, RABBIT_ADR.madr), before, "the accepted ADR is left as it is");
    // A person's pick afterwards is a new decision: it exports again, accepted, and supersedes.
    const human = run(["pick", p.receipt_ref, kafka, "--repo", repo, "--reason", "Confirmed: replay is needed."]);
    assert.equal(human.code, 0, human.stderr);
    const accepted = run(["adr", p.receipt_ref, "--repo", repo]);
    assert.equal(accepted.code, 0, accepted.stderr);
    const second = /^wrote (\S+)/m.exec(accepted.stdout)![1];
    assert.notEqual(second, path);
    assert.equal(parseAdr(second, read(repo, second)).status, "accepted");
    assert.equal(parseAdr(RABBIT_ADR.madr, read(repo, RABBIT_ADR.madr)).status, "superseded");
  });

  test("two exports of one receipt at once: one ADR, one supersession, and the other names it; a later one too", async () => {
    const repo = createLayoutRepo("madr");
    const p = picked(repo, /kafka/i);
    const args = ["adr", p.receipt_ref, "--repo", repo];
    const [a, b] = await Promise.all([runCliAsync(args, AS_USER), runCliAsync(args, AS_USER)]);
    assert.equal(a.code, 0, a.stderr);
    assert.equal(b.code, 0, b.stderr);
    const wrote = [a, b].filter((r) => /^wrote /m.test(r.stdout));
    const named = [a, b].filter((r) => /already exported/.test(r.stdout));
    assert.equal(wrote.length, 1, `one export writes: ${a.stdout}\n${b.stdout}`);
    assert.equal(named.length, 1);
    const path = /^wrote (\S+)/m.exec(wrote[0].stdout)![1];
    assert.match(named[0].stdout, new RegExp(`^receipt ${p.receipt_ref} was already exported as ${path.replace(/\./g, "\\.")} \\(\\d{4}-\\d{2}-\\d{2}\\); nothing was written`));
    assert.deepEqual(readdirSync(join(repo, "docs/decisions")).filter((n) => n.startsWith("0004") || n.startsWith("0005")), [path.split("/").pop()]);
    const old = read(repo, RABBIT_ADR.madr);
    assert.equal(old.match(/superseded by/gi)?.length, 1, "superseded once");
    assert.deepEqual(parseAdr(RABBIT_ADR.madr, old).superseded_by, [path]);
    const receipt = receiptOf(repo, p.receipt_ref);
    assert.deepEqual(receipt.adr_exports?.map((e) => [e.path, e.supersedes]), [[path, RABBIT_ADR.madr]]);
    assert.deepEqual(readdirSync(join(repo, ".deliberations")).filter((n) => /\.lock$|\.tmp$/.test(n)), [], "no lock or temp file left");
    // Repeated later (and as a dry run): the same answer, nothing written.
    const again = run([...args]);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /already exported as /);
    const dry = run([...args, "--dry-run"]);
    assert.equal(dry.code, 0, dry.stderr);
    assert.equal(dry.stdout, again.stdout);
    assert.deepEqual(worktreeChanges(repo).sort(), [` M ${RABBIT_ADR.madr}`, `?? ${path}`]);
    assert.equal(receiptOf(repo, p.receipt_ref).adr_exports?.length, 1);
  });

  test(".adr-dir naming .git/hooks (directly or through a symlink) is refused: nothing is written inside .git", () => {
    const repo = createLayoutRepo("madr");
    const p = picked(repo, /kafka/i);
    const hooks = () => readdirSync(join(repo, ".git/hooks")).sort();
    const before = hooks();
    writeFileSync(join(repo, ".adr-dir"), ".git/hooks\n");
    const real = run(["adr", p.receipt_ref, "--repo", repo]);
    assert.deepEqual(hooks(), before, "nothing written into .git/hooks");
    assertSameRefusal(
      real,
      run(["adr", p.receipt_ref, "--repo", repo, "--dry-run"]),
      2,
      /^deliberate: the ADR folder \.git\/hooks is inside \.git; ADRs are never written there, nothing was written$/,
    );
    // Spelled differently on a case-insensitive file system, or reached through a symlink: still .git.
    symlinkSync(".git/hooks", join(repo, "adr-link"));
    writeFileSync(join(repo, ".adr-dir"), "adr-link\n");
    const throughLink = run(["adr", p.receipt_ref, "--repo", repo]);
    assert.deepEqual(hooks(), before, "nothing written into .git/hooks through the symlink");
    assertSameRefusal(
      throughLink,
      run(["adr", p.receipt_ref, "--repo", repo, "--dry-run"]),
      2,
      /^deliberate: the ADR folder adr-link resolves into \.git; ADRs are never written there, nothing was written$/,
    );
    assert.deepEqual(hooks(), before);
    assert.deepEqual(worktreeChanges(repo).sort(), ["?? .adr-dir", "?? adr-link"]);
    assert.equal(read(repo, RABBIT_ADR.madr).includes("superseded"), false);
  });

  test("docs symlinked outside the repository: refused before any folder is created out there", () => {
    const repo = createLayoutRepo("empty");
    const p = picked(repo, /kafka/i);
    const outside = makeTempDir("delib-outside-");
    rmSync(join(repo, "docs"), { recursive: true });
    symlinkSync(outside, join(repo, "docs"));
    const real = run(["adr", p.receipt_ref, "--repo", repo]);
    assert.deepEqual(readdirSync(outside), [], "no folder was created outside");
    assertSameRefusal(
      real,
      run(["adr", p.receipt_ref, "--repo", repo, "--dry-run"]),
      2,
      /^deliberate: the ADR folder docs\/decisions \(through docs\) resolves outside the repository \(a symlink\); nothing was written$/,
    );
    assert.equal(existsSync(join(outside, "decisions")), false);
    assert.equal(receiptOf(repo, p.receipt_ref).adr_exports, undefined);
  });

  test("--dry-run refuses what the export refuses: a read-only ADR to supersede, same line, same exit code", () => {
    const repo = createLayoutRepo("madr");
    const p = picked(repo, /kafka/i);
    chmodSync(join(repo, RABBIT_ADR.madr), 0o444);
    // Root writes read-only files, so when the tests run as root an unprivileged user that trusts our key runs it.
    let other: CliUser | undefined;
    if (process.getuid?.() === 0) {
      const line = run(["keys", "show", "--name", "ops-lead"]).stdout.trim().split(/\s+/);
      assert.equal(run(["keys", "add", line[0], line.slice(1).join(" "), "--repo", repo]).code, 0);
      other = newCliUser();
      for (const d of [repo, other.keyDir, other.cacheHome]) chmodSync(d, 0o777);
      spawnSync("chmod", ["-R", "a+rX", repo]);
      spawnSync("chmod", ["a+w", join(repo, "docs/decisions"), join(repo, ".deliberations")]);
    }
    const as: CliOptions = other ? { env: other.env, uid: 65534, gid: 65534 } : AS_USER;
    assertSameRefusal(
      run(["adr", p.receipt_ref, "--repo", repo], as),
      run(["adr", p.receipt_ref, "--repo", repo, "--dry-run"], as),
      2,
      /^deliberate: docs\/decisions\/0003-use-rabbitmq-for-order-events\.md is read-only \(EACCES\), so it cannot be marked superseded; nothing was written$/,
    );
    assert.deepEqual(worktreeChanges(repo), []);
  });

  test("a title from another ADR reaches the Supersedes link as inert text: no HTML, brackets escaped, no bidi characters", () => {
    const repo = createLayoutRepo("madr");
    // A heading's own inline HTML (an anchor, a badge <img>) is dropped when it is read; other markup stays text and is escaped.
    const hostile = "Use RabbitMQ <script>alert(1)</script> <img src=x onerror=alert(1)> for [order] events\u202Etxt.exe\u200B";
    commit(repo, { message: "Retitle", files: { [RABBIT_ADR.madr]: read(repo, RABBIT_ADR.madr).replace("# Use RabbitMQ for order events", `# ${hostile}`) } });
    const p = picked(repo, /kafka/i);
    const r = run(["adr", p.receipt_ref, "--repo", repo]);
    assert.equal(r.code, 0, r.stderr);
    const path = /^wrote (\S+)/m.exec(r.stdout)![1];
    const text = read(repo, path);
    const link = text.split("\n").find((l) => l.startsWith("Supersedes "));
    assert.equal(link, "Supersedes [3. Use RabbitMQ &lt;script&gt;alert(1)&lt;/script&gt; for &#91;order&#93; eventstxt.exe](0003-use-rabbitmq-for-order-events.md)");
    assert.doesNotMatch(text, /<img|<script/);
    assert.doesNotMatch(text, /[\u200B-\u200F\u202A-\u202E\u2066-\u2069]/);
    assert.deepEqual(parseAdr(path, text).supersedes, [RABBIT_ADR.madr], "the link still resolves");
    assert.deepEqual(parseAdr(RABBIT_ADR.madr, read(repo, RABBIT_ADR.madr)).superseded_by, [path]);
  });
});
