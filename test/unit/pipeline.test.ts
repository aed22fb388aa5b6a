import { test, describe, before } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createSampleRepo } from "../fixtures/sampleRepo";
import { newCliUser, runCli, runCliAsync } from "../helpers/cli";
import { deliberate, DeliberationError } from "../../src/core/pipeline";
import { generateSigningKey, verifyReceiptSignature } from "../../src/core/receipts/signing";
import { listReceipts, recordPick, readReceipt } from "../../src/core/receipts/store";
import { addAllowedSigner, signerLine } from "../../src/core/receipts/trust";
import { ReceiptSchema } from "../../src/core/schemas";
import type { Expert, ProgressEvent } from "../../src/core/types";

const key = generateSigningKey();
const Q = "Should we store orders in MongoDB or PostgreSQL?";

function receiptCount(repo: string): number {
  const dir = join(repo, ".deliberations");
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".json")).length : 0;
}

describe("pipeline", () => {
  let repo: string;
  before(() => {
    repo = createSampleRepo();
  });

  test("reports every stage through the progress callback and records timings", async () => {
    const events: ProgressEvent[] = [];
    const out = await deliberate({ repo, question: Q, signingKey: key, onProgress: (e) => events.push(e), useCache: false });
    assert.equal(out.kind, "deliberated");
    if (out.kind !== "deliberated") return;
    const done = events.filter((e) => e.state === "done").map((e) => e.stage);
    for (const stage of ["discovery", "plan", "internal:docs", "internal:git", "synthesis", "receipt"] as const) assert.ok(done.includes(stage), `${stage} reported`);
    for (const stage of ["classify", "discovery", "internal", "external", "fusion", "synthesis"]) assert.ok(out.receipt.stages[stage], `${stage} in receipt`);
    assert.equal(out.receipt.stages.external.status, "empty");
    assert.ok(out.receipt.plan?.terms.includes("mongodb"));
  });

  test("cancelling through the AbortSignal rejects and writes no receipt", async () => {
    const fresh = createSampleRepo();
    const controller = new AbortController();
    // Cancel once the slow expert runs, not after a fixed delay: on a loaded machine a timer can fire while the
    // question is still being classified, which is a different (and separately tested) cancellation point.
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const slow: Expert = {
      name: "slow",
      kind: "internal",
      run: (ctx) =>
        new Promise((_, reject) => {
          ctx.signal.addEventListener("abort", () => reject(ctx.signal.reason), { once: true });
          started();
        }),
    };
    const pending = deliberate({ repo: fresh, question: Q, signingKey: key, signal: controller.signal, internalExperts: [slow] });
    void running.then(() => controller.abort(new Error("user cancelled")));
    await assert.rejects(pending, /user cancelled/);
    assert.equal(receiptCount(fresh), 0);
  });

  test("a failing expert is reported as failed with its reason; the others still run", async () => {
    const broken: Expert = { name: "broken", kind: "internal", run: async () => { throw new Error("disk on fire"); } };
    const out = await deliberate({ repo, question: Q, signingKey: key, useCache: false, writeReceipt: false, internalExperts: [broken] });
    assert.equal(out.kind, "deliberated");
    if (out.kind !== "deliberated") return;
    assert.equal(out.receipt.stages["internal:broken"].status, "failed");
    assert.match(out.receipt.stages["internal:broken"].reason ?? "", /disk on fire/);
    assert.equal(out.receipt.stages.internal.status, "failed");
    assert.equal(out.payload.recommendation.confidence, "low");
  });

  test("claims without a location are dropped, never softened", async () => {
    const sloppy: Expert = {
      name: "sloppy",
      kind: "internal",
      run: async () => ({
        status: "ok",
        items: [{ id: "ev-000000000001", kind: "internal", expert: "sloppy", source_type: "architecture", path_or_url: "ARCHITECTURE.md", precision_class: "section", excerpt: "Use PostgreSQL", score: 9 }],
      }),
    };
    const out = await deliberate({ repo, question: Q, signingKey: key, useCache: false, writeReceipt: false, internalExperts: [sloppy] });
    assert.equal(out.kind === "deliberated" && out.receipt.stages["internal:sloppy"].status, "empty");
  });

  test("a decision tag in the raw comment counts: classifyText is what the classifier reads", async () => {
    const bare = await deliberate({ repo, question: "redis for sessions", signingKey: key, writeReceipt: false });
    assert.equal(bare.kind, "abstained");
    const tagged = await deliberate({ repo, question: "redis for sessions", classifyText: "// TODO(decide): redis for sessions", signingKey: key, writeReceipt: false });
    assert.equal(tagged.kind, "deliberated");
    assert.equal(tagged.kind === "deliberated" && tagged.receipt.class_mismatch, undefined);
  });

  test("bad input throws a DeliberationError with a one-line message", async () => {
    await assert.rejects(deliberate({ repo: "/no/such/dir", question: Q, signingKey: key }), (e: unknown) => e instanceof DeliberationError && e.code === "bad-input");
    await assert.rejects(deliberate({ repo, question: " \n ", signingKey: key }), /empty/);
  });

  test("a citation whose file vanished mid-flight is flagged resolution_failed and its option drops to low", async () => {
    const ghost: Expert = {
      name: "ghost",
      kind: "internal",
      run: async () => ({
        status: "ok",
        items: [
          { id: "ev-00000000000a", kind: "internal", expert: "ghost", source_type: "agent-instructions", path_or_url: "GONE.md", line_range: { start: 1, end: 1 }, precision_class: "exact-lines", excerpt: "Use PostgreSQL for orders.", score: 5 },
        ],
      }),
    };
    const out = await deliberate({ repo, question: Q, signingKey: key, useCache: false, writeReceipt: false, internalExperts: [ghost] });
    if (out.kind !== "deliberated") throw new Error("expected a payload");
    const c = out.payload.citations.find((x) => x.id === "ev-00000000000a");
    assert.equal(c?.resolution_failed, true);
    const opt = out.payload.options.find((o) => o.supports.includes("ev-00000000000a"));
    assert.equal(opt?.confidence, "low");
  });
});

describe("receipts under concurrency", () => {
  test("concurrent picks never corrupt a receipt (in-process and across processes)", async () => {
    const repo = createSampleRepo();
    const out = await deliberate({ repo, question: Q, signingKey: key });
    if (out.kind !== "deliberated") throw new Error("expected a payload");
    const id = out.receipt.receipt_id;
    const [a, b] = out.payload.options;
    await Promise.all(Array.from({ length: 8 }, (_, i) => recordPick(repo, id, { option_id: (i % 2 ? a : b).id, reason: `r${i}` }, key)));
    const cliUser = { env: newCliUser().env };
    // The CLI signs with its own key: it re-signs a receipt signed by this test's key only once that key is an
    // allowed signer (and the CLI's key is listed too, as a teammate would list it).
    await addAllowedSigner(repo, ".deliberations", "test-key", signerLine("test-key", key.publicKeyPem).split(" ").slice(1).join(" "));
    const line = runCli(["keys", "show", "--name", "cli-user"], cliUser).stdout.trim();
    await addAllowedSigner(repo, ".deliberations", "cli-user", line.split(" ").slice(1).join(" "));
    const picks = await Promise.all(Array.from({ length: 4 }, (_, i) => runCliAsync(["pick", id, (i % 2 ? a : b).id, "--repo", repo], cliUser)));
    picks.forEach((p, i) => assert.equal(p.code, 0, `pick ${i} exited ${p.code}: ${p.stderr}`));
    const raw = JSON.parse(readFileSync(join(repo, ".deliberations", `${id}.json`), "utf8"));
    ReceiptSchema.parse(raw);
    assert.deepEqual(verifyReceiptSignature(raw), { ok: true });
    const entries = await listReceipts(repo);
    assert.equal(entries.length, 1);
    assert.equal(entries[0].state, "ok");
    assert.ok(!readdirSync(join(repo, ".deliberations")).some((f) => f.endsWith(".tmp") || f.endsWith(".lock")), "no temp or lock files left");
    const r = await readReceipt(repo, id);
    assert.ok([a.id, b.id].includes(r.operator_pick!.option_id));
    assert.equal(r.picks?.length, 12, "every pick is in the history");
  });
});

describe("turn cache fingerprint", () => {
  function ageTree(dir: string, seconds: number): void {
    const { readdirSync: ls, statSync: st, utimesSync } = require("node:fs") as typeof import("node:fs");
    const when = new Date(Date.now() - seconds * 1000);
    const walk = (d: string) => {
      for (const name of ls(d)) {
        if (name === ".git") continue;
        const p = join(d, name);
        if (st(p).isDirectory()) walk(p);
        utimesSync(p, when, when);
      }
    };
    walk(dir);
    utimesSync(dir, when, when);
  }

  test("a hit skips discovery while no stat changed; a new ADR anywhere re-mines; a touched file re-checks content", async () => {
    const repo = createSampleRepo();
    const { mkdirSync: mkdir } = require("node:fs") as typeof import("node:fs");
    mkdir(join(repo, ".deliberations", "cache"), { recursive: true });
    ageTree(repo, 3600);
    const stagesOf = async () => {
      const events: string[] = [];
      const out = await deliberate({ repo, question: Q, signingKey: key, onProgress: (e) => e.state === "done" && events.push(e.stage) });
      if (out.kind !== "deliberated") throw new Error("expected a payload");
      return { out, events };
    };
    const cold = await stagesOf();
    assert.equal(cold.out.cached, false);
    const warm = await stagesOf();
    assert.equal(warm.out.cached, true);
    assert.ok(!warm.events.includes("discovery"), `fast path skips discovery: ${warm.events}`);
    assert.equal(warm.out.receipt.receipt_id, cold.out.receipt.receipt_id);

    const { utimesSync, writeFileSync: write } = require("node:fs") as typeof import("node:fs");
    const now = new Date();
    utimesSync(join(repo, "AGENTS.md"), now, now);
    const touched = await stagesOf();
    assert.equal(touched.out.cached, true, "same content: still a hit");
    assert.ok(touched.events.includes("discovery"), "but discovery re-checked the content");

    write(join(repo, "docs/adr/0006-keep-postgresql.md"), "# 6. Keep PostgreSQL\n\n## Status\n\nAccepted\n\n## Decision\n\nOrders stay in PostgreSQL.\n");
    const changed = await stagesOf();
    assert.equal(changed.out.cached, false, "a new ADR changes the artifact set");
    assert.notEqual(changed.out.receipt.artifact_set_hash, cold.out.receipt.artifact_set_hash);
  });
});
