// Export a picked receipt as an ADR, against real git repositories in temp dirs with the three layouts real
// projects use: deliberate → pick (or override with a reason) → export; the file parses as an ADR of the
// repository's format; supersession updates both files; the next deliberation ranks the new ADR first and follows it.
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { applyAdrPlan, exportAdr, linkLabel, planAdrExport, AdrExportError, AdrExportRefusedError, type AdrExportPlan } from "../../src/core/adrExport";
import { relativeLink } from "../../src/core/adrExport/layout";
import { parseAdr } from "../../src/core/internal/adr";
import { deliberate } from "../../src/core/pipeline";
import { generateSigningKey, verifyReceiptSignature, type SigningKey } from "../../src/core/receipts/signing";
import { listReceipts, readReceipt, recordAdrExport, recordPick } from "../../src/core/receipts/store";
import { checkFreshnessAll } from "../../src/core/receipts/freshness";
import { toRankedRows } from "../../src/core/fuse";
import type { Receipt } from "../../src/core/schemas";
import { EVENTS_Q, RABBIT_ADR, createLayoutRepo, type LayoutName } from "../fixtures/adrLayouts";
import { git, makeTempDir } from "../helpers/gitRepo";

const key = generateSigningKey();
const repos: string[] = [];
after(() => {
  for (const r of repos) rmSync(r, { recursive: true, force: true });
});

function layoutRepo(layout: LayoutName): string {
  const repo = createLayoutRepo(layout);
  repos.push(repo);
  return repo;
}

async function deliberated(repo: string, signingKey: SigningKey = key): Promise<Receipt> {
  const out = await deliberate({ repo, question: EVENTS_Q, signingKey, force: true });
  assert.equal(out.kind, "deliberated");
  return out.kind === "deliberated" ? out.receipt : (undefined as never);
}

const optionId = (r: Receipt, name: RegExp) => r.payload.options.find((o) => name.test(o.title))!.id;
const read = (repo: string, path: string) => readFileSync(join(repo, path), "utf8");
/** Tracked files changed and untracked files, outside the receipts folder. */
const changes = (repo: string) =>
  git(repo, ["status", "--porcelain", "--untracked-files=all"])
    .split("\n")
    .filter((l) => l && !l.includes(".deliberations/"));

const EXPECTED: Record<Exclude<LayoutName, "empty">, { format: string; path: RegExp; status: RegExp }> = {
  madr: { format: "madr", path: /^docs\/decisions\/0004-kafka-should-we-use-rabbitmq-or-kafka-for-the-order-events\.md$/, status: /^status: "superseded by \[4\. Kafka/m },
  nygard: { format: "nygard", path: /^doc\/architecture\/decisions\/0003-kafka-[a-z0-9-]+\.md$/, status: /^## Status\n\nSuperseded by \[3\. Kafka/m },
  log4brains: { format: "log4brains", path: /^docs\/adr\/\d{8}-kafka-[a-z0-9-]+\.md$/, status: /^- Status: Superseded by \[Kafka/m },
};

describe("export an overridden receipt as an ADR, per layout", () => {
  for (const layout of ["madr", "nygard", "log4brains"] as const) {
    it(`${layout}: override → export → the file parses, supersession updates both files, the next deliberation follows it`, async () => {
      const repo = layoutRepo(layout);
      const receipt = await deliberated(repo);
      assert.equal(receipt.payload.recommendation.option_id, optionId(receipt, /rabbitmq/i), "the ADR's choice is recommended first");
      const reason = "Replaying order events is now a requirement from billing.";
      await recordPick(repo, receipt.receipt_id, { option_id: optionId(receipt, /kafka/i), reason }, key);
      const { plan, written } = await exportAdr(repo, receipt.receipt_id, { ownPublicKeyPem: key.publicKeyPem, decisionMaker: "ops-lead" });
      const want = EXPECTED[layout];
      assert.match(plan.path, want.path);
      assert.deepEqual(written, [plan.path, RABBIT_ADR[layout]]);
      assert.deepEqual(plan.supersedes.map((s) => s.path), [RABBIT_ADR[layout]]);

      const text = read(repo, plan.path);
      const adr = parseAdr(plan.path, text);
      assert.equal(adr.format, want.format);
      assert.equal(adr.status, "accepted");
      assert.equal(adr.chosen_option, "Kafka");
      // Nygard has no Considered Options section; the options are subsections of its Decision.
      if (layout === "nygard") assert.match(text, /^## Decision\n[\s\S]*^#### RabbitMQ$[\s\S]*^#### Kafka$[\s\S]*^## Consequences$/m);
      else assert.deepEqual(adr.considered_options.sort(), ["Kafka", "RabbitMQ"]);
      assert.deepEqual(adr.supersedes, [RABBIT_ADR[layout]], "the new ADR links the one it supersedes");
      assert.match(text, /^Chosen option: "Kafka", because replaying order events is now a requirement from billing\.$/m, "the override's reason is the decision's because");
      assert.match(text, /recommended "RabbitMQ"/);
      assert.match(text, new RegExp(`receipt \`${receipt.receipt_id}\``));
      assert.match(text, /signature sha256 `[0-9a-f]{64}`/);
      if (layout === "nygard") assert.equal(adr.number, 3);

      const old = parseAdr(RABBIT_ADR[layout], read(repo, RABBIT_ADR[layout]));
      assert.equal(old.status, "superseded");
      assert.deepEqual(old.superseded_by, [plan.path], "the old ADR links its successor");
      assert.match(read(repo, RABBIT_ADR[layout]), want.status);

      const again = await deliberate({ repo, question: EVENTS_Q, signingKey: key, force: true });
      assert.equal(again.kind, "deliberated");
      if (again.kind !== "deliberated") return;
      assert.equal(again.cached, false, "the new ADR invalidates the turn cache");
      const firstAdr = toRankedRows(again.evidence).find((r) => r.path_or_url.endsWith(".md") && !r.commit && r.path_or_url !== "AGENTS.md");
      assert.equal(firstAdr?.path_or_url, plan.path, "the new ADR ranks first");
      assert.equal(again.payload.recommendation.option_id, optionId(again.receipt, /kafka/i), "the recommendation follows the new ADR");
      const rec = again.payload.options.find((o) => o.id === again.payload.recommendation.option_id)!;
      assert.ok(rec.supports.some((id) => again.payload.citations.find((c) => c.id === id)?.path_or_url === plan.path), "and cites it");
    });
  }

  it("no ADRs yet: MADR 4 with front matter in docs/decisions/0001-…", async () => {
    const repo = layoutRepo("empty");
    const receipt = await deliberated(repo);
    await recordPick(repo, receipt.receipt_id, { option_id: optionId(receipt, /kafka/i) }, key);
    const { plan } = await exportAdr(repo, receipt.receipt_id, { ownPublicKeyPem: key.publicKeyPem, decisionMaker: "ops-lead" });
    assert.equal(plan.path, "docs/decisions/0001-kafka-should-we-use-rabbitmq-or-kafka-for-the-order-events.md");
    assert.equal(plan.layout.source, "default");
    const text = read(repo, plan.path);
    assert.match(text, /^---\nstatus: accepted\ndate: \d{4}-\d{2}-\d{2}\ndecision-makers: "ops-lead"\n---\n\n# Kafka: Should we use RabbitMQ or Kafka/);
    for (const h of ["Context and Problem Statement", "Considered Options", "Decision Outcome", "Pros and Cons of the Options", "More Information"]) {
      assert.match(text, new RegExp(`^## ${h}$`, "m"));
    }
    assert.match(text, /^### Consequences$/m);
    const adr = parseAdr(plan.path, text);
    assert.equal(adr.format, "madr");
    assert.equal(adr.status, "accepted");
    assert.equal(adr.chosen_option, "Kafka");
    assert.deepEqual(plan.candidates, []);
  });

  it("an accepted recommendation exports without superseding anything, and the receipt records the export", async () => {
    const repo = layoutRepo("madr");
    const receipt = await deliberated(repo);
    const sibling = await deliberate({ repo, question: EVENTS_Q, signingKey: key, force: true, useCache: false });
    assert.ok(sibling.kind === "deliberated" && sibling.receipt.receipt_id !== receipt.receipt_id);
    await recordPick(repo, receipt.receipt_id, { option_id: receipt.payload.recommendation.option_id }, key);
    const { plan, written } = await exportAdr(repo, receipt.receipt_id, { ownPublicKeyPem: key.publicKeyPem });
    assert.deepEqual(written, [plan.path]);
    assert.deepEqual(plan.candidates, []);
    const text = read(repo, plan.path);
    assert.match(text, /^Chosen option: "RabbitMQ", because /m);
    assert.equal(parseAdr(RABBIT_ADR.madr, read(repo, RABBIT_ADR.madr)).status, "accepted", "the agreeing ADR is left alone");
    const updated = await recordAdrExport(repo, receipt.receipt_id, { path: plan.path, format: plan.format }, key);
    assert.equal(updated.adr_exports?.[0]?.path, plan.path);
    assert.ok(verifyReceiptSignature(JSON.parse(readFileSync(join(repo, ".deliberations", `${receipt.receipt_id}.json`), "utf8"))).ok);
    assert.equal((await readReceipt(repo, receipt.receipt_id)).adr_exports?.length, 1);
    // The ADR a receipt was exported as is its own decision, not new evidence against it; for a receipt made at
    // the same time that was not exported, the new ADR is new evidence.
    const freshness = await checkFreshnessAll(repo, await listReceipts(repo));
    assert.equal(freshness.get(receipt.receipt_id)?.state, "fresh", freshness.get(receipt.receipt_id)?.summary);
    if (sibling.kind === "deliberated") {
      assert.equal(freshness.get(sibling.receipt.receipt_id)?.state, "new-evidence");
      assert.deepEqual(freshness.get(sibling.receipt.receipt_id)?.new_artifacts, [plan.path]);
    }
  });

  it("--no-supersede (supersede: false) leaves the old ADR alone but still lists it as a candidate", async () => {
    const repo = layoutRepo("nygard");
    const receipt = await deliberated(repo);
    await recordPick(repo, receipt.receipt_id, { option_id: optionId(receipt, /kafka/i), reason: "replay" }, key);
    const before = read(repo, RABBIT_ADR.nygard);
    const { plan, written } = await exportAdr(repo, receipt.receipt_id, { ownPublicKeyPem: key.publicKeyPem, supersede: false });
    assert.deepEqual(written, [plan.path]);
    assert.deepEqual(plan.candidates.map((c) => c.path), [RABBIT_ADR.nygard]);
    assert.equal(read(repo, RABBIT_ADR.nygard), before);
    assert.deepEqual(parseAdr(plan.path, read(repo, plan.path)).supersedes, []);
  });
});

describe("numbering and collisions", () => {
  it("a name taken between planning and writing is never overwritten: planning again takes the next number", async () => {
    const repo = layoutRepo("madr");
    const receipt = await deliberated(repo);
    await recordPick(repo, receipt.receipt_id, { option_id: optionId(receipt, /kafka/i), reason: "replay" }, key);
    const plan = await planAdrExport(repo, receipt.receipt_id, { ownPublicKeyPem: key.publicKeyPem });
    assert.match(plan.path, /\/0004-/);
    writeFileSync(join(repo, plan.path), "someone else's ADR\n");
    await assert.rejects(applyAdrPlan(repo, plan), /created by someone else/);
    assert.equal(read(repo, plan.path), "someone else's ADR\n");
    assert.equal(parseAdr(RABBIT_ADR.madr, read(repo, RABBIT_ADR.madr)).status, "accepted", "nothing half-written");
    writeFileSync(join(repo, "docs/decisions/0005-other-work.md"), "# Other work\n");
    const { plan: second } = await exportAdr(repo, receipt.receipt_id, { ownPublicKeyPem: key.publicKeyPem });
    assert.match(second.path, /^docs\/decisions\/0006-kafka-/);
    assert.equal(read(repo, plan.path), "someone else's ADR\n");
  });
});

describe("bad input: one clear line, nothing written", () => {
  it("a receipt with no pick", async () => {
    const repo = layoutRepo("madr");
    const receipt = await deliberated(repo);
    await assert.rejects(exportAdr(repo, receipt.receipt_id, { ownPublicKeyPem: key.publicKeyPem }), (err: Error) => {
      assert.ok(err instanceof AdrExportError);
      assert.match(err.message, /has no pick yet: pick an option first .*nothing was written/);
      return true;
    });
    assert.deepEqual(changes(repo), []);
  });

  it("an unknown receipt id, and a malformed one", async () => {
    const repo = layoutRepo("madr");
    await assert.rejects(exportAdr(repo, "20990101-000000Z-00000000", { ownPublicKeyPem: key.publicKeyPem }), /unknown receipt/);
    await assert.rejects(exportAdr(repo, "../../etc/passwd", { ownPublicKeyPem: key.publicKeyPem }), /invalid receipt id/);
  });

  it("a tampered receipt and a receipt from an untrusted key are refused", async () => {
    const repo = layoutRepo("madr");
    const receipt = await deliberated(repo);
    await recordPick(repo, receipt.receipt_id, { option_id: optionId(receipt, /kafka/i) }, key);
    const stranger = generateSigningKey();
    await assert.rejects(exportAdr(repo, receipt.receipt_id, { ownPublicKeyPem: stranger.publicKeyPem }), (err: Error) => {
      assert.ok(err instanceof AdrExportRefusedError);
      assert.match(err.message, /failed verification \(untrusted signer/);
      return true;
    });
    const file = join(repo, ".deliberations", `${receipt.receipt_id}.json`);
    const raw = JSON.parse(readFileSync(file, "utf8"));
    raw.payload.recommendation.rationale = "Edited after signing.";
    writeFileSync(file, JSON.stringify(raw, null, 2));
    await assert.rejects(exportAdr(repo, receipt.receipt_id, { ownPublicKeyPem: key.publicKeyPem }), /failed verification \(signature/);
    assert.deepEqual(changes(repo), []);
  });

  it("an .adr-dir naming a missing folder", async () => {
    const repo = layoutRepo("nygard");
    const receipt = await deliberated(repo);
    await recordPick(repo, receipt.receipt_id, { option_id: optionId(receipt, /kafka/i) }, key);
    writeFileSync(join(repo, ".adr-dir"), "doc/adr-moved\n");
    await assert.rejects(exportAdr(repo, receipt.receipt_id, { ownPublicKeyPem: key.publicKeyPem }), /\.adr-dir names the ADR folder doc\/adr-moved, which does not exist/);
    assert.deepEqual(changes(repo), [" M .adr-dir"]);
  });

  it("the ADR folder removed after planning", async () => {
    const repo = layoutRepo("madr");
    const receipt = await deliberated(repo);
    await recordPick(repo, receipt.receipt_id, { option_id: optionId(receipt, /kafka/i) }, key);
    const plan = await planAdrExport(repo, receipt.receipt_id, { ownPublicKeyPem: key.publicKeyPem, supersede: false });
    rmSync(join(repo, "docs/decisions"), { recursive: true });
    await assert.rejects(applyAdrPlan(repo, plan), /the ADR folder docs\/decisions is missing/);
    assert.equal(existsSync(join(repo, "docs/decisions")), false);
  });

  it("an ADR changed since planning: nothing is written", async () => {
    const repo = layoutRepo("madr");
    const receipt = await deliberated(repo);
    await recordPick(repo, receipt.receipt_id, { option_id: optionId(receipt, /kafka/i) }, key);
    const plan = await planAdrExport(repo, receipt.receipt_id, { ownPublicKeyPem: key.publicKeyPem });
    writeFileSync(join(repo, RABBIT_ADR.madr), read(repo, RABBIT_ADR.madr) + "\nA late note.\n");
    await assert.rejects(applyAdrPlan(repo, plan), /changed since the export was planned; nothing was written/);
    assert.equal(existsSync(join(repo, plan.path)), false);
  });

  it("a read-only ADR to supersede: nothing is written", { skip: process.getuid?.() === 0 ? "root writes read-only files (the CLI test runs this case as an unprivileged user)" : false }, async () => {
    const { chmodSync } = await import("node:fs");
    const repo = layoutRepo("madr");
    const receipt = await deliberated(repo);
    await recordPick(repo, receipt.receipt_id, { option_id: optionId(receipt, /kafka/i) }, key);
    chmodSync(join(repo, RABBIT_ADR.madr), 0o444);
    await assert.rejects(exportAdr(repo, receipt.receipt_id, { ownPublicKeyPem: key.publicKeyPem }), /is read-only .*nothing was written/);
    assert.deepEqual(readdirSync(join(repo, "docs/decisions")).sort(), ["0001-use-a-record-of-decisions.md", "0003-use-rabbitmq-for-order-events.md"]);
  });
});

describe("evidence stays text in the ADR", () => {
  it("HTML and link syntax from a pick reason and evidence are neutralised", async () => {
    const repo = layoutRepo("madr");
    const receipt = await deliberated(repo);
    const reason = 'Billing asked <script>alert("x")</script> for [replay](javascript:alert(1)) ![img](http://evil.test/x.png)';
    await recordPick(repo, receipt.receipt_id, { option_id: optionId(receipt, /kafka/i), reason }, key);
    const plan: AdrExportPlan = await planAdrExport(repo, receipt.receipt_id, { ownPublicKeyPem: key.publicKeyPem });
    const text = plan.files[0].after;
    assert.doesNotMatch(text, /<script/i);
    assert.match(text, /&lt;script&gt;alert\("x"\)&lt;\/script&gt;/);
    assert.doesNotMatch(text, /[^\\]\](?=\(javascript:)/, "no unescaped link");
    assert.doesNotMatch(text, /(^|[^\\])!\[img/, "no image");
    assert.match(text, /\\\[replay\\\]\(javascript:alert\(1\)\)/);
    assert.equal(parseAdr(plan.path, text).chosen_option, "Kafka", "quoted evidence never reads as the record's own decision");
  });
});

describe("links to other records", () => {
  it("a label from another ADR's title is inert: HTML escaped, brackets as character references, invisible and bidi characters gone", () => {
    assert.equal(
      linkLabel("3. Use [Rabbit]\u200D <b>MQ</b> `x` ![i](j) \u202Egnp.exe\u2066"),
      "3. Use &#91;Rabbit&#93; &lt;b&gt;MQ&lt;/b&gt; \\`x\\` \\!&#91;i&#93;(j) gnp.exe",
    );
    assert.equal(linkLabel("a\\[b"), "a\\\\&#91;b", "a backslash stays a backslash");
  });

  it("a link target encodes what would end the link or read as HTML, and keeps other letters", () => {
    assert.equal(relativeLink("docs/d/0004-new.md", "docs/d/0003-a (b) <img>é\u202E.md"), "0003-a%20%28b%29%20%3Cimg%3Eé%E2%80%AE.md");
    assert.equal(relativeLink("docs/a/0004-new.md", "docs/d/0003-x.md"), "../d/0003-x.md");
  });
});

describe("the ADR folder turned into a symlink outside after planning", () => {
  it("applying refuses before creating anything outside the repository", async () => {
    const repo = layoutRepo("empty");
    const receipt = await deliberated(repo);
    await recordPick(repo, receipt.receipt_id, { option_id: optionId(receipt, /kafka/i) }, key);
    const plan = await planAdrExport(repo, receipt.receipt_id, { ownPublicKeyPem: key.publicKeyPem });
    assert.equal(plan.layout.createDir, true);
    const outside = makeTempDir("delib-outside-");
    repos.push(outside);
    rmSync(join(repo, "docs"), { recursive: true });
    symlinkSync(outside, join(repo, "docs"));
    await assert.rejects(applyAdrPlan(repo, plan), /the ADR folder docs\/decisions \(through docs\) resolves outside the repository \(a symlink\); nothing was written/);
    assert.deepEqual(readdirSync(outside), []);
  });
});
