// The built `deliberate` CLI (dist/cli.js) run as a real process against real git repositories in temp dirs.
import { test, describe, before } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, readFileSync, readdirSync, writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { createSampleRepo } from "../fixtures/sampleRepo";
import { CLI, assertCliBuilt, assertOneLineError, newCliUser, runCli, runCliAsync, runCliJson, type CliOptions } from "../helpers/cli";
import { createGitRepo, makeTempDir, writeFiles } from "../helpers/gitRepo";
import { OptionPickerSchema, ReceiptSchema, RankedEvidenceRowSchema, UNDECIDABLE, type OptionPicker } from "../../src/core/schemas";
import { verifyReceiptSignature } from "../../src/core/receipts/signing";

// One user for the whole file: receipts signed by one key, caches outside the repositories.
const AS_USER: CliOptions = { env: newCliUser().env };
const run = (args: string[]) => runCli(args, AS_USER);
const runAsync = (args: string[]) => runCliAsync(args, AS_USER);
const json = <T = unknown>(args: string[]): T => runCliJson<T>(args, AS_USER);

function receiptFiles(repo: string): string[] {
  const dir = join(repo, ".deliberations");
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".json")) : [];
}

const MONGO_Q = "Should we store orders in MongoDB or PostgreSQL?";
const WINSTON_Q = "Should we adopt winston for logging?";
// Two runs agree only when neither cuts the git search short, which the default 1.2 s budget can on a busy machine
// (the load test runs next to these).
const NO_GIT_CUTOFF = ["--git-budget-ms", "60000"];

describe("deliberate CLI on the sample repository", () => {
  let repo: string;
  before(() => {
    assertCliBuilt();
    repo = createSampleRepo();
  });

  test("recommends the superseding ADR's choice and cites it", () => {
    const p = OptionPickerSchema.parse(json([MONGO_Q, "--repo", repo, "--json"]));
    const rec = p.options.find((o) => o.id === p.recommendation.option_id);
    assert.ok(rec, `recommendation should name an option, got ${p.recommendation.option_id}`);
    assert.match(rec.title, /postgres/i);
    const cited = rec.supports.map((id) => p.citations.find((c) => c.id === id)!);
    assert.ok(cited.some((c) => c.path_or_url === "docs/adr/0005-use-postgresql-for-order-storage.md"), "cites ADR 0005");
    const mongo = p.options.find((o) => /mongo/i.test(o.title))!;
    assert.ok(mongo.dissent.length > 0, "MongoDB carries dissent");
    assert.ok(p.receipt_ref && p.evidence_ref);
  });

  test("ranked evidence never puts the superseded ADR above the one that supersedes it", () => {
    const rows = json<unknown[]>([MONGO_Q, "--repo", repo, "--json", "--shape", "ranked-evidence", "--no-receipt"]).map((r) => RankedEvidenceRowSchema.parse(r));
    const rankOf = (path: string) => Math.min(...rows.filter((r) => r.path_or_url === path && !r.commit).map((r) => r.rank));
    const superseding = rankOf("docs/adr/0005-use-postgresql-for-order-storage.md");
    const superseded = rankOf("docs/adr/0002-use-mongodb-for-order-storage.md");
    assert.ok(Number.isFinite(superseding), "ADR 0005 is in the ranked evidence");
    assert.ok(!Number.isFinite(superseded) || superseding < superseded, `0005 at ${superseding}, 0002 at ${superseded}`);
    rows.forEach((r, i) => assert.equal(r.rank, i + 1));
  });

  test("every internal citation resolves to real lines of an existing file", () => {
    for (const q of [MONGO_Q, WINSTON_Q, "Redux or Zustand for the cart state?"]) {
      const p = OptionPickerSchema.parse(json([q, "--repo", repo, "--json", "--no-receipt"]));
      assert.ok(p.citations.length > 0, `${q}: has citations`);
      for (const c of p.citations.filter((c) => c.kind === "internal")) {
        const file = join(repo, c.path_or_url);
        assert.ok(existsSync(file), `${c.path_or_url} exists`);
        if (c.line_range) {
          const lines = readFileSync(file, "utf8").split("\n");
          assert.ok(c.line_range.end <= lines.length, `${c.path_or_url}:${c.line_range.end} within ${lines.length} lines`);
          const cited = lines.slice(c.line_range.start - 1, c.line_range.end).join("\n");
          const probe = c.excerpt.split("\n").find((l) => l.trim().length > 8)?.trim().slice(0, 40);
          if (probe) assert.ok(cited.includes(probe), `excerpt "${probe}" is inside ${c.path_or_url}:${c.line_range.start}-${c.line_range.end}`);
        } else {
          assert.ok(c.commit, "an internal citation without lines names a commit");
        }
      }
    }
  });

  test("adopting a library the conventions forbid is argued against", () => {
    const p = OptionPickerSchema.parse(json([WINSTON_Q, "--repo", repo, "--json", "--no-receipt"]));
    const adopt = p.options.find((o) => /winston/i.test(o.title))!;
    assert.ok(adopt, "an 'Adopt winston' option");
    assert.ok(adopt.dissent.length >= 2, "AGENTS.md rule and the pino ADR dissent");
    assert.ok(adopt.dissent.some((id) => p.citations.find((c) => c.id === id)!.path_or_url === "AGENTS.md"));
    const rec = p.options.find((o) => o.id === p.recommendation.option_id);
    assert.ok(rec && /pino/i.test(rec.title), `recommends keeping pino, got ${p.recommendation.option_id}`);
    assert.match(p.recommendation.rationale, /no external best practice/i);
  });

  test("two runs give the same payload apart from the receipt id", () => {
    const a = json<OptionPicker>([MONGO_Q, "--repo", repo, "--json", "--no-cache", ...NO_GIT_CUTOFF]);
    const b = json<OptionPicker>([MONGO_Q, "--repo", repo, "--json", "--no-cache", ...NO_GIT_CUTOFF]);
    assert.notEqual(a.receipt_ref, b.receipt_ref);
    assert.deepEqual({ ...a, receipt_ref: "" }, { ...b, receipt_ref: "" });
  });

  test("a repeated turn is served from the turn cache, and an ADR change invalidates it", () => {
    const repo2 = createSampleRepo();
    const first = json<OptionPicker>([WINSTON_Q, "--repo", repo2, "--json"]);
    const second = json<OptionPicker>([WINSTON_Q, "--repo", repo2, "--json"]);
    assert.equal(second.receipt_ref, first.receipt_ref, "cache hit returns the same receipt");
    const rows = json<unknown[]>([WINSTON_Q, "--repo", repo2, "--json", "--shape", "ranked-evidence"]);
    assert.ok(rows.length > 0, "a cached turn still serves its stored evidence");
    writeFiles(repo2, { "AGENTS.md": readFileSync(join(repo2, "AGENTS.md"), "utf8") + "\n- Prefer small modules.\n" });
    const third = json<OptionPicker>([WINSTON_Q, "--repo", repo2, "--json"]);
    assert.notEqual(third.receipt_ref, first.receipt_ref, "artifact change re-mines");
  });

  test("writes a signed receipt and content-addressed evidence; pick re-signs; verify passes", () => {
    const repo3 = createSampleRepo();
    const p = json<OptionPicker>([MONGO_Q, "--repo", repo3, "--json"]);
    const file = join(repo3, ".deliberations", `${p.receipt_ref}.json`);
    const raw = JSON.parse(readFileSync(file, "utf8"));
    const receipt = ReceiptSchema.parse(raw);
    assert.equal(receipt.operator_pick, null);
    assert.deepEqual(verifyReceiptSignature(raw), { ok: true });
    assert.ok(existsSync(join(repo3, ".deliberations", "evidence", `${receipt.evidence_ref}.json`)));
    assert.equal(receipt.synthesis.mode, "rules");
    assert.equal(receipt.synthesis.options_count, p.options.length);
    for (const stage of ["internal", "external", "synthesis"]) assert.ok(receipt.stages[stage], `stage ${stage} recorded`);

    const other = p.options.find((o) => o.id !== p.recommendation.option_id)!;
    const picked = run(["pick", p.receipt_ref, other.id, "--reason", "team prefers it", "--repo", repo3]);
    assert.equal(picked.code, 0, picked.stderr);
    assert.match(picked.stdout, /overrides the recommendation/);
    const after = JSON.parse(readFileSync(file, "utf8"));
    assert.equal(after.operator_pick.option_id, other.id);
    assert.equal(after.operator_pick.reason, "team prefers it");
    assert.equal(after.operator_pick.overrode_recommendation, true);
    assert.deepEqual(verifyReceiptSignature(after), { ok: true });

    const verified = run(["verify", "--repo", repo3]);
    assert.equal(verified.code, 0, verified.stdout + verified.stderr);
    assert.match(verified.stdout, /^ok\s+\S+\s+signature valid; signed by you \(your own key\); evidence intact; citations resolve$/m);

    const listed = json<{ receipt_id: string; state: string }[]>(["list", "--repo", repo3, "--json"]);
    assert.equal(listed.find((r) => r.receipt_id === p.receipt_ref)?.state, "overridden");
  });

  test("flipping one byte of a receipt makes verify fail", () => {
    const repo4 = createSampleRepo();
    const p = json<OptionPicker>([MONGO_Q, "--repo", repo4, "--json"]);
    const file = join(repo4, ".deliberations", `${p.receipt_ref}.json`);
    const text = readFileSync(file, "utf8");
    const at = text.indexOf("PostgreSQL");
    writeFileSync(file, text.slice(0, at) + "Q" + text.slice(at + 1));
    const r = run(["verify", "--repo", repo4]);
    assert.equal(r.code, 1);
    assert.match(r.stdout, /INVALID\s+\S+\s+signature does not match/);
  });

  test("a corrupt receipt is listed as corrupt while the others still verify", () => {
    const repo5 = createSampleRepo();
    const p = json<OptionPicker>([MONGO_Q, "--repo", repo5, "--json"]);
    writeFileSync(join(repo5, ".deliberations", "20990101-000000Z-deadbeef.json"), "{ not json");
    const listed = json<{ receipt_id: string; state: string }[]>(["list", "--repo", repo5, "--json"]);
    assert.deepEqual(listed.map((r) => r.state).sort(), ["corrupt", "pending"]);
    const r = run(["verify", "--repo", repo5]);
    assert.equal(r.code, 1);
    assert.match(r.stdout, new RegExp(`^ok\\s+${p.receipt_ref}`, "m"));
    assert.match(r.stdout, /^CORRUPT\s+20990101-000000Z-deadbeef\s+not valid JSON/m);
  });

  test("the readable rendering shows the recommendation, options and citations", () => {
    const r = run([MONGO_Q, "--repo", repo, "--no-receipt"]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /★ Recommended: .*PostgreSQL/i);
    assert.match(r.stdout, /Citations:\n\s+\[1\] int\s+\S+/);
    assert.match(r.stdout, /Receipt: \S+\s+\(not written\)/);
    assert.equal(receiptFiles(repo).length >= 0, true);
  });
});

describe("deliberate CLI bad input", () => {
  let repo: string;
  before(() => {
    repo = createSampleRepo();
  });

  test("missing repo path", () => assertOneLineError(run(["Should we use Redis or Memcached?", "--repo", "/nonexistent/repo"]), 2, /repository path does not exist/));

  test("repo path is a file", () => assertOneLineError(run(["Should we use Redis or Memcached?", "--repo", join(repo, "AGENTS.md")]), 2, /not a directory/));

  test("empty question", () => assertOneLineError(run(["   ", "--repo", repo]), 2, /question is empty/));

  test("question over 4 kB", () => {
    const q = "Should we adopt GraphQL or keep REST? " + "x".repeat(4200);
    assertOneLineError(run([q, "--repo", repo]), 2, /limit is 4096/);
    assert.equal(receiptFiles(repo).length, 0, "nothing written");
  });

  test("unknown flag", () => assertOneLineError(run(["Should we use Redis?", "--frobnicate"]), 2, /frobnicate/));

  test("the classifier abstains on a lookup: exit 3 and one line; --force deliberates anyway", () => {
    const r = run(["where is loadOrder defined in src/orders.ts?", "--repo", repo]);
    assertOneLineError(r, 3, /does not look like an open design question.*--force/);
    const forced = run(["where is loadOrder defined in src/orders.ts?", "--repo", repo, "--force", "--json", "--no-receipt"]);
    assert.equal(forced.code, 0, forced.stderr);
    OptionPickerSchema.parse(JSON.parse(forced.stdout));
  });

  test("not a git repository: the git expert reports empty with its reason, the rest runs", () => {
    const dir = makeTempDir();
    writeFiles(dir, { "docs/adr/0001-use-redis-for-caching.md": "# 1. Use Redis for caching\n\n## Status\n\nAccepted\n\n## Decision\n\nWe will use Redis for caching sessions.\n" });
    const p = json<OptionPicker>(["Should we use Redis or Memcached for caching?", "--repo", dir, "--json"]);
    const receipt = ReceiptSchema.parse(JSON.parse(readFileSync(join(dir, ".deliberations", `${p.receipt_ref}.json`), "utf8")));
    assert.equal(receipt.stages["internal:git"].status, "empty");
    assert.match(receipt.stages["internal:git"].reason ?? "", /not a git repository/);
    assert.equal(receipt.stages["internal:docs"].status, "ok");
    assert.match(p.options.find((o) => o.id === p.recommendation.option_id)?.title ?? "", /redis/i);
  });

  test("unknown receipt id and unknown option id on pick", () => {
    assertOneLineError(run(["pick", "20990101-000000Z-00000000", "opt-x", "--repo", repo]), 2, /unknown receipt/);
    const p = json<OptionPicker>([MONGO_Q, "--repo", repo, "--json"]);
    assertOneLineError(run(["pick", p.receipt_ref, "opt-nope", "--repo", repo]), 2, /unknown option "opt-nope"/);
    assertOneLineError(run(["pick", "../../etc/passwd", "opt-x", "--repo", repo]), 2, /invalid receipt id/);
  });

  test("awkward ADR files are skipped or parsed, never fatal", () => {
    const dir = createGitRepo([
      {
        message: "ADRs of every awkward kind",
        files: {
          "docs/adr/0001-use-kafka-for-events.md": "# 1. Use Kafka for events\r\n\r\n## Status\r\n\r\nAccepted\r\n\r\n## Decision\r\n\r\nWe will use Kafka for domain events.\r\n",
          "docs/adr/0002-binary.md": Buffer.from([0x23, 0x20, 0x00, 0x01, 0x02, 0xff]),
          "docs/adr/0003-huge.md": "# 3. Huge\n\n" + "kafka rabbitmq ".repeat(80_000),
          "docs/adr/0004-bad-utf8.md": Buffer.concat([Buffer.from("# 4. Bad\n\nkafka "), Buffer.from([0xc3, 0x28]), Buffer.from("\n")]),
          "docs/adr/0005-bad-front-matter.md": "---\nstatus: [accepted\ndate: : :\n---\n# Use RabbitMQ for jobs\n\nRabbitMQ for background jobs.\n",
        },
      },
    ]);
    const r = run(["Kafka or RabbitMQ for domain events?", "--repo", dir, "--json"]);
    assert.equal(r.code, 0, r.stderr);
    const p = OptionPickerSchema.parse(JSON.parse(r.stdout));
    const receipt = ReceiptSchema.parse(JSON.parse(readFileSync(join(dir, ".deliberations", `${p.receipt_ref}.json`), "utf8")));
    assert.match(receipt.stages.discovery.reason ?? "", /skipped 3/);
    const kafka = p.citations.find((c) => c.path_or_url === "docs/adr/0001-use-kafka-for-events.md");
    assert.ok(kafka?.line_range, "the CRLF ADR is cited with lines");
    const lines = readFileSync(join(dir, kafka.path_or_url), "utf8").split(/\r?\n/);
    assert.ok(kafka.line_range.end <= lines.length);
  });
});

describe("deliberate list/verify on an empty repo", () => {
  test("no receipts is reported, not an error", () => {
    const dir = makeTempDir();
    mkdirSync(join(dir, "x"));
    const r = run(["verify", "--repo", dir]);
    assert.equal(r.code, 0);
    assert.match(r.stdout, /no receipts found/);
    assert.equal(UNDECIDABLE, "undecidable-on-current-evidence");
  });
});

describe("deliberate CLI with external sources", () => {
  test("cites an allow-listed docs page with URL and fetched_at; --offline makes no request", async () => {
    const { createServer } = await import("node:http");
    let hits = 0;
    const server = createServer((_req, res) => {
      hits++;
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(`<html><head><title>Logging guide</title></head><body><article><h1>Logging in Node.js</h1>
        <h2>Structured logging</h2><p>We recommend pino for structured JSON logging in production services; winston is slower.</p>
        <p>Prefer structured logs over console.log so fields can be searched.</p></article></body></html>`);
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const port = (server.address() as { port: number }).port;
    const url = `http://127.0.0.1:${port}/guide/logging`;
    try {
      const repo = createSampleRepo();
      const args = [WINSTON_Q, "--repo", repo, "--json", "--no-receipt", "--docs-url", url, "--allow-host", `127.0.0.1:${port}`];
      const child = await runAsync(args);
      assert.equal(child.code, 0, child.stderr);
      const p = OptionPickerSchema.parse(JSON.parse(child.stdout));
      const web = p.citations.find((c) => c.kind === "external");
      assert.ok(web, "an external citation");
      assert.ok(web.path_or_url.startsWith(url));
      assert.ok(web.fetched_at && !Number.isNaN(Date.parse(web.fetched_at)));
      assert.ok(p.coverage.external > 0);
      assert.ok(hits >= 1);

      const before = hits;
      const repo2 = createSampleRepo();
      const offline = run([WINSTON_Q, "--repo", repo2, "--json", "--no-receipt", "--offline", "--docs-url", url, "--allow-host", `127.0.0.1:${port}`]);
      assert.equal(offline.code, 0, offline.stderr);
      assert.equal(hits, before, "offline sends no request");
      assert.equal(OptionPickerSchema.parse(JSON.parse(offline.stdout)).coverage.external, 0);
    } finally {
      server.close();
    }
  });

  test("--adr-glob points discovery at a custom ADR folder", () => {
    const dir = createGitRepo([{ message: "records", files: { "records/use-nats-for-events.md": "# Use NATS for events\n\n## Status\n\nAccepted\n\n## Decision\n\nWe will use NATS for domain events.\n" } }]);
    const q = "Kafka or NATS for domain events?";
    // Found by its content with no setting; a negated glob narrows it away; a glob names the folder explicitly.
    const byContent = OptionPickerSchema.parse(JSON.parse(run([q, "--repo", dir, "--json", "--no-receipt"]).stdout));
    assert.ok(byContent.citations.some((c) => c.path_or_url === "records/use-nats-for-events.md" && c.line_range));
    const narrowed = OptionPickerSchema.parse(JSON.parse(run([q, "--repo", dir, "--json", "--no-receipt", "--adr-glob", "!records/**"]).stdout));
    assert.ok(!narrowed.citations.some((c) => c.path_or_url === "records/use-nats-for-events.md" && c.line_range));
    const withGlob = OptionPickerSchema.parse(JSON.parse(run([q, "--repo", dir, "--json", "--no-receipt", "--adr-glob", "records/*.md"]).stdout));
    assert.ok(withGlob.citations.some((c) => c.path_or_url === "records/use-nats-for-events.md" && c.line_range));
    assert.match(withGlob.options.find((o) => o.id === withGlob.recommendation.option_id)?.title ?? "", /NATS/);
    assertOneLineError(run([q, "--repo", dir, "--git-budget-ms", "soon"]), 2, /--git-budget-ms/);
  });

  test("a malformed --docs-url or --allow-host is a one-line usage error", () => {
    assertOneLineError(run([WINSTON_Q, "--docs-url", "ftp://example.com/x"]), 2, /--docs-url: not an http\(s\) URL/);
    assertOneLineError(run([WINSTON_Q, "--allow-host", "bad host!"]), 2, /--allow-host: expected HOST\[:PORT\]/);
  });
});

describe("deliberate CLI with a model endpoint", () => {
  test("an endpoint that is down still yields the offline payload, with the classified reason in the receipt", async () => {
    const { closedPortURL } = await import("../helpers/fakeOpenAI");
    const baseUrl = await closedPortURL();
    const repo = createSampleRepo();
    const r = run([MONGO_Q, "--repo", repo, "--json", "--base-url", baseUrl, "--model", "test-model", ...NO_GIT_CUTOFF]);
    assert.equal(r.code, 0, r.stderr);
    const p = OptionPickerSchema.parse(JSON.parse(r.stdout));
    const receipt = ReceiptSchema.parse(JSON.parse(readFileSync(join(repo, ".deliberations", `${p.receipt_ref}.json`), "utf8")));
    assert.equal(receipt.synthesis.mode, "rules");
    assert.match(receipt.synthesis.fallback_reason ?? "", /connection-refused/);
    const offline = OptionPickerSchema.parse(JSON.parse(run([MONGO_Q, "--repo", repo, "--json", "--no-receipt", "--offline", ...NO_GIT_CUTOFF]).stdout));
    assert.deepEqual({ ...p, receipt_ref: "" }, { ...offline, receipt_ref: "" });
  });

  test("--dry-run prints what would leave the machine and calls nothing", async () => {
    const { startFakeOpenAI } = await import("../helpers/fakeOpenAI");
    const fake = await startFakeOpenAI([{ status: 500 }]);
    try {
      const repo = createSampleRepo();
      const r = await runAsync([MONGO_Q, "--repo", repo, "--dry-run", "--base-url", fake.baseURL, "--model", "test-model"]);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /127\.0\.0\.1/);
      assert.match(r.stdout, /docs\/adr\/0005-use-postgresql-for-order-storage\.md/);
      assert.equal(fake.chatCalls(), 0);
      assert.equal(receiptFiles(repo).length, 0);
    } finally {
      await fake.close();
    }
  });
});

describe("deliberate CLI writing into a pipe that closes early", () => {
  test("exits quietly with its own code when the reader stops reading (EPIPE)", async () => {
    assertCliBuilt();
    // The reader is gone before the CLI writes its usage text: the write fails with EPIPE.
    const child = spawn(process.execPath, [CLI, "--help"], { stdio: ["ignore", "pipe", "pipe"], env: AS_USER.env });
    child.stdout.destroy();
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((done) => child.on("close", done));
    assert.equal(code, 0, `exit code 0 expected, stderr: ${stderr}`);
    assert.doesNotMatch(stderr, /EPIPE|Unhandled|at .*cli\.js/);
  });
});

describe("deliberate through V8's code cache (dist/cli.js runs dist/cliMain.js)", () => {
  const v8Dir = (cacheHome: string) => join(cacheHome, "deliberative-search", "v8");
  const cacheFiles = (cacheHome: string) => (existsSync(v8Dir(cacheHome)) ? readdirSync(v8Dir(cacheHome)).filter((f) => f.endsWith(".bin")) : []);

  test("the first run writes the cache in the user's cache folder; later runs use it and print the same", () => {
    assertCliBuilt();
    const user = newCliUser();
    const first = runCli(["keys", "list"], { env: user.env });
    assert.equal(first.code, 0, first.stderr);
    const files = cacheFiles(user.cacheHome);
    assert.equal(files.length, 1, `one cache file, got ${files.join(", ")}`);
    assert.match(files[0], /^cliMain-.*-keys\.bin$/);
    const written = readFileSync(join(v8Dir(user.cacheHome), files[0]));
    const second = runCli(["keys", "list"], { env: user.env });
    assert.equal(second.code, 0, second.stderr);
    assert.equal(second.stdout, first.stdout);
    assert.ok(readFileSync(join(v8Dir(user.cacheHome), files[0])).equals(written), "a usable cache is not rewritten");
  });

  test("a corrupt cache is rejected by V8 and replaced; another bundle version's cache is removed", () => {
    const user = newCliUser();
    assert.equal(runCli(["--help"], { env: user.env }).code, 0);
    const [file] = cacheFiles(user.cacheHome);
    writeFileSync(join(v8Dir(user.cacheHome), file), "not V8 data at all");
    writeFileSync(join(v8Dir(user.cacheHome), "cliMain-1-2-v0.0.0-x64-ask.bin"), "an older version's data");
    const run = runCli(["--help"], { env: user.env });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^usage:/);
    assert.deepEqual(cacheFiles(user.cacheHome), [file]);
    assert.notEqual(readFileSync(join(v8Dir(user.cacheHome), file), "utf8"), "not V8 data at all");
  });

  test("DELIBERATIVE_CODE_CACHE=off runs the bundle directly and writes no cache", () => {
    const user = newCliUser();
    const run = runCli(["--help"], { env: { ...user.env, DELIBERATIVE_CODE_CACHE: "off" } });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^usage:/);
    assert.equal(existsSync(v8Dir(user.cacheHome)), false);
  });
});
