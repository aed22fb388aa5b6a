// Decision sources on real git: a service repository plus a separate architecture repository, read as a local
// folder and as a file:// git URL (fetched into a cache folder). The architecture record decides a question asked in
// the service; a local record that deviates wins and the answer says so; a source that moved on marks a receipt
// stale; bad input gives one line and the deliberation still answers.
import { test, describe, before } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { commit, createGitRepo, git, makeTempDir } from "../helpers/gitRepo";
import { ARCH_ADR_1, ARCH_ADR_7, LOCAL_ADR, LOCAL_ADR_PATH, SOURCES_Q, architectureRepo, serviceRepo } from "../fixtures/sourceRepos";
import { deliberate, type DeliberateOutcome } from "../../src/core/pipeline";
import { generateSigningKey } from "../../src/core/receipts/signing";
import { listReceipts, verifyAll } from "../../src/core/receipts/store";
import { signerLine } from "../../src/core/receipts/trust";
import { checkFreshnessAll } from "../../src/core/receipts/freshness";
import { parseSourceSpec, redactText } from "../../src/core/sources";
import { cachedCopyOf } from "../../src/core/sources/checkout";
import { renameSync } from "node:fs";
import { ReceiptSchema } from "../../src/core/schemas";
import { createModelSynthesizer } from "../../src/core/model/synthesizer";
import { createOpenAIChatModel } from "../../src/core/model";
import { completion, okStages, startFakeOpenAI } from "../helpers/fakeOpenAI";

const key = generateSigningKey();
const Q = SOURCES_Q;

function deliberated(out: DeliberateOutcome): Extract<DeliberateOutcome, { kind: "deliberated" }> {
  assert.equal(out.kind, "deliberated");
  return out as Extract<DeliberateOutcome, { kind: "deliberated" }>;
}

function recommended(out: Extract<DeliberateOutcome, { kind: "deliberated" }>): string {
  const p = out.payload;
  return p.options.find((o) => o.id === p.recommendation.option_id)?.title ?? p.recommendation.option_id;
}

describe("decision sources", () => {
  let arch: string;
  let cacheRoot: string;
  before(() => {
    arch = architectureRepo();
    cacheRoot = makeTempDir("delib-sources-cache-");
  });

  test("the architecture record (a local folder) decides a question asked in the service", async () => {
    const repo = serviceRepo();
    const out = deliberated(await deliberate({ repo, question: Q, signingKey: key, sources: { specs: [arch], cacheRoot } }));
    assert.match(recommended(out), /postgres/i);
    const name = arch.split("/").pop()!;
    const cited = out.payload.citations.find((c) => c.path_or_url.startsWith(`${name}:decisions/0007-`));
    assert.ok(cited, `a citation names the source: ${out.payload.citations.map((c) => c.path_or_url).join(", ")}`);
    const head = git(arch, ["rev-parse", "HEAD"]).trim();
    assert.deepEqual(cited.decision_source, { name, commit: head });
    assert.ok(cited.content_sha256, "the source's cited lines are hashed into the receipt");
    assert.equal(cited.resolution_failed, undefined);
    assert.deepEqual(out.receipt.decision_sources, [{ name, kind: "folder", spec: arch, commit: head }]);
    assert.ok(ReceiptSchema.safeParse(out.receipt).success);
    assert.equal(out.receipt.stages[`internal:source:${name}`].status, "ok");
  });

  test("a file:// git source is fetched into the cache, named by the URL's repository, and decides", async () => {
    const repo = serviceRepo();
    const url = `file://${arch}#main:decisions`;
    const out = deliberated(await deliberate({ repo, question: Q, signingKey: key, sources: { specs: [`architecture=${url}`], cacheRoot } }));
    assert.match(recommended(out), /postgres/i);
    const cited = out.payload.citations.find((c) => c.path_or_url.startsWith("architecture:decisions/0007-"));
    assert.ok(cited, out.payload.citations.map((c) => c.path_or_url).join(", "));
    assert.match(cited.path_or_url, /^architecture:decisions\/0007-use-postgresql-for-service-persistence\.md$/);
    assert.equal(cited.decision_source?.commit, git(arch, ["rev-parse", "HEAD"]).trim());
    assert.equal(out.receipt.decision_sources?.[0].kind, "git");
    assert.equal(out.receipt.decision_sources?.[0].spec, url);
  });

  test("a local record that deviates wins, and the answer names the disagreement", async () => {
    const repo = serviceRepo({ "docs/adr/0001-use-mongodb-for-order-storage.md": LOCAL_ADR });
    const out = deliberated(await deliberate({ repo, question: Q, signingKey: key, sources: { specs: [`architecture=${arch}`], cacheRoot } }));
    assert.match(recommended(out), /mongo/i);
    assert.match(out.payload.recommendation.rationale, /deviates from ADR 7 "Use PostgreSQL for service persistence" from architecture/);
    const local = out.evidence.findIndex((e) => e.adr?.path === "docs/adr/0001-use-mongodb-for-order-storage.md");
    const remote = out.evidence.findIndex((e) => e.adr?.path.startsWith("architecture:"));
    assert.ok(local >= 0 && remote >= 0 && local < remote, `local record ranks first (${local} < ${remote})`);
  });

  test("on the model path too, the answer names the local deviation", async () => {
    const repo = serviceRepo({ [LOCAL_ADR_PATH]: LOCAL_ADR });
    const rules = deliberated(await deliberate({ repo, question: Q, signingKey: key, writeReceipt: false, sources: { specs: [`architecture=${arch}`], cacheRoot } }));
    const local = rules.evidence.find((e) => e.adr?.path === LOCAL_ADR_PATH && /decision/.test(e.adr.section ?? ""))!.id;
    const remote = rules.evidence.find((e) => e.decision_source && /decision/.test(e.adr?.section ?? ""))!.id;
    const answer = {
      options: [
        { id: "opt-mongodb", title: "MongoDB", summary: "The service's own record chose MongoDB for orders.", supports: [local], dissent: [], tradeoffs: [], cost: "low", risk: "low" },
        { id: "opt-postgresql", title: "PostgreSQL", summary: "The platform record chose PostgreSQL.", supports: [remote], dissent: [], tradeoffs: [], cost: "med", risk: "low" },
      ],
      recommendation: { option_id: "opt-mongodb", rationale: "The service's accepted ADR chose MongoDB for orders.", confidence: "high" },
    };
    const server = await startFakeOpenAI([completion(JSON.stringify(answer))]);
    try {
      const synth = createModelSynthesizer(createOpenAIChatModel({ baseURL: server.baseURL, model: "fake-synth", apiKey: "sk-test-sources", maxRetries: 1, retryBaseMs: 5, timeoutMs: 5000 }));
      const out = await synth.synthesize({ question: Q, classification: rules.receipt.classification, evidence: rules.evidence, stages: okStages(), configVersion: "t", signal: new AbortController().signal });
      assert.equal(out.info.mode, "model", out.info.fallback?.detail);
      assert.match(out.draft.recommendation.rationale, /^The service's accepted ADR chose MongoDB for orders\. .*It deviates from ADR 7 "Use PostgreSQL for service persistence" from architecture/);
    } finally {
      await server.close();
    }
  });

  test("a source that moved on marks a receipt stale; an untouched one stays fresh", async () => {
    const archCopy = architectureRepo();
    const repo = serviceRepo();
    const url = `file://${archCopy}`;
    deliberated(await deliberate({ repo, question: Q, signingKey: key, sources: { specs: [`architecture=${url}`], cacheRoot, refreshMinutes: 0 } }));
    const entries = await listReceipts(repo, ".deliberations");
    let fresh = await checkFreshnessAll(repo, entries, { sources: { cacheRoot, refreshMinutes: 0 } });
    assert.equal([...fresh.values()][0].state, "fresh", [...fresh.values()][0].summary);
    commit(archCopy, { message: "revisit 7", files: { "decisions/0007-use-postgresql-for-service-persistence.md": ARCH_ADR_7.replace("Every service stores its data in PostgreSQL.", "Every service stores its data in CockroachDB.") } });
    fresh = await checkFreshnessAll(repo, entries, { sources: { cacheRoot, refreshMinutes: 0 } });
    const f = [...fresh.values()][0];
    assert.equal(f.state, "evidence-changed", f.summary);
    assert.match(f.summary, /architecture:decisions\/0007-/);
  });

  test("bad input: each source gets a one-line reason and the deliberation still answers", async () => {
    const repo = serviceRepo();
    const aFile = join(makeTempDir(), "notes.md");
    writeFileSync(aFile, "# not a folder\n");
    const pages = makeTempDir("delib-pages-");
    for (let i = 0; i < 10_000; i++) {
      if (i % 500 === 0) mkdirSync(join(pages, `section-${i / 500}`), { recursive: true });
      writeFileSync(join(pages, `section-${Math.floor(i / 500)}`, `page-${i}.md`), `# Page ${i}\n\nSome text about widgets number ${i}.\n`);
    }
    const specs = [
      "unreach=file:///nonexistent/architecture.git",
      `missingref=file://${arch}#no-such-branch`,
      aFile,
      `pages=${pages}`,
      "http://example.test/arch.git",
      `architecture=${arch}`,
    ];
    const started = performance.now();
    const out = deliberated(await deliberate({ repo, question: Q, signingKey: key, sources: { specs, cacheRoot, budgetMs: 6000 } }));
    assert.ok(performance.now() - started < 20_000);
    const stage = (name: string) => {
      const s = out.receipt.stages[`internal:source:${name}`];
      assert.ok(s, `stage for ${name} among ${Object.keys(out.receipt.stages).join(", ")}`);
      return s;
    };
    assert.match(stage("unreach").reason ?? "", /unreachable/);
    assert.match(stage("missingref").reason ?? "", /ref no-such-branch does not exist/);
    assert.match(stage("notes.md").reason ?? "", /is a file, not a folder/);
    assert.match(stage("pages").reason ?? "", /no decision records found|budget/);
    const httpStage = Object.entries(out.receipt.stages).find(([k]) => k.includes("example.test"));
    assert.match(httpStage?.[1].reason ?? "", /only https, ssh and file URLs are allowed/);
    for (const [k, s] of Object.entries(out.receipt.stages)) if (k.startsWith("internal:source:")) assert.ok(!(s.reason ?? "").includes("\n"), k);
    assert.match(recommended(out), /postgres/i, "the good source still decides");
  });

  test("a source's receipts folder is never read: not its records, not its allowed signers", async () => {
    const stranger = generateSigningKey();
    const source = createGitRepo([
      {
        message: "arch with a receipts folder",
        files: {
          "decisions/0001-record-architecture-decisions.md": ARCH_ADR_1,
          "decisions/0007-use-postgresql-for-service-persistence.md": ARCH_ADR_7,
          ".deliberations/allowed_signers": `${signerLine("stranger", stranger.publicKeyPem)}\n`,
          ".deliberations/0009-use-mongodb-everywhere.md": ARCH_ADR_7.replace(/PostgreSQL/g, "MongoDB").replace("# 7.", "# 9."),
        },
      },
    ]);
    const repo = serviceRepo();
    const out = deliberated(await deliberate({ repo, question: Q, signingKey: stranger, sources: { specs: [`architecture=${source}`], cacheRoot } }));
    assert.ok(!out.evidence.some((e) => e.path_or_url.includes(".deliberations")));
    assert.match(recommended(out), /postgres/i);
    // Signed by a key only the source's allowed_signers lists: untrusted in the service.
    const [verified] = await verifyAll(repo, ".deliberations", { ownPublicKeyPem: key.publicKeyPem });
    assert.equal(verified.trust, "untrusted");
  });

  test("offline, a git source answers from its last fetched copy and the stage says how old it is", async () => {
    const url = "https://git.example.test/org/architecture.git#main";
    const spec = parseSourceSpec(url);
    assert.ok(!("bad" in spec) && spec.kind === "git");
    if ("bad" in spec || spec.kind !== "git") return;
    // A copy fetched three hours ago (seeded as a fetch would leave it; the host does not exist).
    const copy = cachedCopyOf(spec, cacheRoot);
    git(makeTempDir(), ["clone", "-q", arch, copy]);
    const head = git(copy, ["rev-parse", "HEAD"]).trim();
    const fetchedAt = new Date(Date.now() - 3 * 3600_000).toISOString();
    writeFileSync(`${copy}.json`, JSON.stringify({ safe_url: spec.safeUrl, ref: "main", commit: head, fetched_at: fetchedAt }));
    const repo = serviceRepo();
    const out = deliberated(await deliberate({ repo, question: Q, signingKey: key, config: { offline: true }, sources: { specs: [url], cacheRoot } }));
    assert.match(out.receipt.stages["internal:source:architecture"].reason ?? "", /offline: using the copy fetched 3 h ago/);
    assert.match(recommended(out), /postgres/i);
  });

  test("a source that cannot be refreshed answers from its last copy, saying why and how old", async () => {
    const moving = architectureRepo();
    const repo = serviceRepo();
    const specs = [`architecture=file://${moving}`];
    deliberated(await deliberate({ repo, question: Q, signingKey: key, sources: { specs, cacheRoot } }));
    renameSync(moving, `${moving}-gone`);
    // Not from the turn cache (the copy is unchanged, so that would answer): the stage of this turn is the point.
    const out = deliberated(await deliberate({ repo, question: Q, signingKey: key, useCache: false, sources: { specs, cacheRoot, refreshMinutes: 0 } }));
    assert.match(out.receipt.stages["internal:source:architecture"].reason ?? "", /refresh failed \(unreachable .*\); using the copy fetched \d+ s ago/);
    assert.match(recommended(out), /postgres/i);
  });

  test("the turn cache answers again while the source holds still, and not once it moved on", async () => {
    const moving = architectureRepo();
    const repo = serviceRepo();
    const ask = () => deliberate({ repo, question: Q, signingKey: key, sources: { specs: [`architecture=${moving}`], cacheRoot } }).then(deliberated);
    const first = await ask();
    assert.equal(first.cached, false);
    await new Promise((r) => setTimeout(r, 50)); // past the stat fingerprint's racy window
    const second = await ask();
    assert.equal(second.cached, true);
    assert.equal(second.receipt.receipt_id, first.receipt.receipt_id);
    commit(moving, { message: "revisit 7", files: { "decisions/0007-use-postgresql-for-service-persistence.md": ARCH_ADR_7.replace("Schema changes need migrations.", "Schema changes need reviewed migrations.") } });
    const third = await ask();
    assert.equal(third.cached, false);
    assert.notEqual(third.receipt.receipt_id, first.receipt.receipt_id);
  });

  test("two deliberations fetching the same new source at once both read it (one fetch at a time per copy)", async () => {
    const shared = architectureRepo();
    const fresh = makeTempDir("delib-sources-cache-");
    const ask = () => deliberate({ repo: serviceRepo(), question: Q, signingKey: key, writeReceipt: false, sources: { specs: [`architecture=file://${shared}`], cacheRoot: fresh } }).then(deliberated);
    const outs = await Promise.all([ask(), ask(), ask()]);
    for (const out of outs) assert.equal(out.receipt.stages["internal:source:architecture"].status, "ok", out.receipt.stages["internal:source:architecture"].reason);
  });

  test("credentials never reach what is shown or recorded", () => {
    const spec = parseSourceSpec("https://user:s3cret@git.example.test/org/architecture.git#main:decisions");
    assert.ok(!("bad" in spec) && spec.kind === "git");
    if ("bad" in spec || spec.kind !== "git") return;
    assert.equal(spec.display, "https://git.example.test/org/architecture.git#main:decisions");
    assert.equal(spec.name, "architecture");
    assert.equal(spec.ref, "main");
    assert.equal(spec.path, "decisions");
    assert.ok(!spec.display.includes("s3cret") && !spec.safeUrl.includes("user"));
    const token = parseSourceSpec("https://ghp_TOKEN@git.example.test/org/arch.git");
    assert.ok(!("bad" in token) && !token.display.includes("ghp_TOKEN"));
    const query = parseSourceSpec("https://git.example.test/org/arch.git?private_token=abc#main");
    assert.ok(!("bad" in query) && query.kind === "git" && !query.display.includes("abc") && query.url.includes("private_token=abc"));
    assert.equal(redactText("fatal: unable to access 'https://u:p@h/x.git/'"), "fatal: unable to access 'https://h/x.git/'");
    for (const bad of ["http://h/x.git", "git://h/x.git", "ext::sh -c evil", "https://h/x.git#--upload-pack=evil", "https://h/x.git#main:../up", "-rf"]) {
      const r = parseSourceSpec(bad);
      if (bad === "ext::sh -c evil") {
        // Not a URL scheme git would run a helper for: read as a folder name, which does not exist.
        assert.ok(!("bad" in r) && r.kind === "folder");
        continue;
      }
      assert.ok("bad" in r, bad);
    }
    const ssh = parseSourceSpec("git@github.com:org/architecture.git#v2");
    assert.ok(!("bad" in ssh) && ssh.kind === "git" && ssh.scheme === "ssh" && ssh.ref === "v2" && ssh.name === "architecture");
  });

  test("a git source receipt and log carry no credentials", async () => {
    const repo = serviceRepo();
    const logs: string[] = [];
    const out = deliberated(
      await deliberate({ repo, question: Q, signingKey: key, onLog: (l) => logs.push(l), sources: { specs: [`file://user:hunter2@${arch}`.replace("file://user:hunter2@/", "file://user:hunter2@localhost/")], cacheRoot } }),
    );
    const text = readFileSync(out.receiptFile!, "utf8") + logs.join("\n") + JSON.stringify(out.receipt.stages);
    assert.ok(!text.includes("hunter2"));
  });
});

