// Learning from operator picks: the pure weight rule (bounds, order independence) and the scripted scenario on a
// real git repository with real signed receipts: ten overrides towards the ADR-supported option move the next
// deliberation's ranking towards ADR evidence; tampered, untrusted and agent-picked receipts do not count.
import { test, describe, before } from "node:test";
import assert from "node:assert/strict";
import { cpSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { ADR_PATH, LEARNING_Q, createLearningRepo } from "../fixtures/learningRepo";
import { makeTempDir } from "../helpers/gitRepo";
import { deliberate } from "../../src/core/pipeline";
import { generateSigningKey, signReceipt } from "../../src/core/receipts/signing";
import { recordPick } from "../../src/core/receipts/store";
import { collectObservations, computeLearning, loadLearning, LEARNING_CACHE_FILE } from "../../src/core/learning/load";
import { readResetMarker, resetMarkerPath, writeResetMarker } from "../../src/core/learning/reset";
import { readAllowedSigners } from "../../src/core/receipts/trust";
import {
  LEARNED_SOURCES,
  MAX_WEIGHT,
  MIN_WEIGHT,
  computeWeights,
  sourceOf,
  type LearnedSource,
  type PickObservation,
} from "../../src/core/learning/weights";
import type { FusedEvidence, Receipt } from "../../src/core/schemas";

const key = generateSigningKey();
const DIR = ".deliberations";

function shuffled<T>(list: T[], seed: number): T[] {
  const out = [...list];
  let s = seed;
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** The share of the total fused score that a learned source's items hold, and the best rank of its items. */
function shareOf(evidence: FusedEvidence[], source: LearnedSource): { share: number; bestRank: number } {
  const total = evidence.reduce((n, e) => n + e.fused_score, 0);
  const mine = evidence.filter((e) => sourceOf(e.source_type) === source);
  return { share: mine.reduce((n, e) => n + e.fused_score, 0) / total, bestRank: Math.min(...mine.map((e) => e.rank)) };
}

function ranksOf(evidence: FusedEvidence[], source: LearnedSource): string {
  return `[${evidence.filter((e) => sourceOf(e.source_type) === source).map((e) => e.rank).join(",")}]`;
}

function receiptIds(repo: string): string[] {
  return readdirSync(join(repo, DIR)).filter((f) => f.endsWith(".json")).map((f) => f.replace(/\.json$/, ""));
}

function readJson(repo: string, id: string): Receipt {
  return JSON.parse(readFileSync(join(repo, DIR, `${id}.json`), "utf8")) as Receipt;
}

/** A copy of a stored receipt under a new id, re-signed (with `signer`), optionally changed first. */
function cloneReceipt(repo: string, fromId: string, newId: string, signer = key, change: (r: Record<string, unknown>) => void = () => {}): void {
  const { signature: _s, signing: _k, ...rest } = readJson(repo, fromId) as Receipt & Record<string, unknown>;
  const copy = { ...rest, receipt_id: newId, payload: { ...rest.payload, receipt_ref: newId } } as Record<string, unknown>;
  change(copy);
  const signed = signReceipt(copy as Omit<Receipt, "signature" | "signing">, signer);
  writeFileSync(join(repo, DIR, `${newId}.json`), JSON.stringify(signed, null, 2) + "\n");
}

// ---------------------------------------------------------------------------------------------------------
// The pure rule.

const sourceArb = fc.constantFrom(...LEARNED_SOURCES);
const observationArb = fc
  .record({
    id: fc.string({ minLength: 1, maxLength: 8 }),
    synthesis: fc.constantFrom("rules" as const, "model" as const),
    options: fc.array(fc.record({ supports: fc.array(sourceArb, { maxLength: 4 }), dissent: fc.array(sourceArb, { maxLength: 3 }) }), { minLength: 2, maxLength: 4 }),
    rec: fc.nat(),
    pick: fc.nat(),
    undecidable: fc.boolean(),
  })
  .map(({ id, synthesis, options, rec, pick, undecidable }): PickObservation => ({
    receipt_id: id,
    synthesis,
    recommended: undecidable ? "undecidable-on-current-evidence" : `o${rec % options.length}`,
    picked: `o${pick % options.length}`,
    options: Object.fromEntries(options.map((o, i) => [`o${i}`, o])),
  }));

describe("learned weights: the rule", () => {
  test("bounded within 0.5×–2× and independent of the order of the receipts", () => {
    fc.assert(
      fc.property(fc.array(observationArb, { maxLength: 60 }), fc.nat(), (obs, seed) => {
        const w = computeWeights(obs);
        for (const v of [...Object.values(w.sources), ...Object.values(w.synthesis)]) assert.ok(v >= MIN_WEIGHT && v <= MAX_WEIGHT, `weight ${v}`);
        // Receipt ids are unique on disk; equal ids would make the order of equal keys matter only for exact ties.
        const unique = [...new Map(obs.map((o) => [o.receipt_id, o])).values()];
        assert.deepEqual(computeWeights(shuffled(unique, seed)), computeWeights(unique));
      }),
      { numRuns: 300 },
    );
  });

  test("one more override towards an option only ADRs support never lowers the ADR weight", () => {
    fc.assert(
      fc.property(fc.array(observationArb, { maxLength: 40 }), (obs) => {
        const extra: PickObservation = {
          receipt_id: "\uffff-extra",
          synthesis: "rules",
          recommended: "other",
          picked: "adr-side",
          options: { other: { supports: ["convention"], dissent: [] }, "adr-side": { supports: ["adr"], dissent: [] } },
        };
        assert.ok(computeWeights([...obs, extra]).sources.adr >= computeWeights(obs).sources.adr);
      }),
      { numRuns: 200 },
    );
  });

  test("an override towards ADR-only support raises ADRs and lowers the overridden option's sources; an agreement rewards the supporters", () => {
    const override: PickObservation = {
      receipt_id: "a1",
      synthesis: "rules",
      recommended: "redis",
      picked: "rabbit",
      options: { redis: { supports: ["convention", "git-history"], dissent: [] }, rabbit: { supports: ["adr"], dissent: [] } },
    };
    const w = computeWeights([override]);
    assert.ok(w.sources.adr > 1 && w.sources.convention < 1 && w.sources["git-history"] < 1, JSON.stringify(w.sources));
    assert.equal(w.sources.web, 1);
    assert.ok(w.synthesis.rules < 1);
    const agree = computeWeights([{ ...override, picked: "redis" }]);
    assert.ok(agree.sources.convention > 1 && agree.sources.adr === 1 && agree.synthesis.rules > 1, JSON.stringify(agree));
    // Many one-sided picks saturate at the bounds, never past them.
    const many = computeWeights(Array.from({ length: 200 }, (_, i) => ({ ...override, receipt_id: `r${i}` })));
    assert.equal(many.sources.adr, MAX_WEIGHT);
    assert.equal(many.sources.convention, MIN_WEIGHT);
  });
});

// ---------------------------------------------------------------------------------------------------------
// The scripted scenario on a real repository.

describe("learning from picks on a real repository", () => {
  let repo: string;
  let baseline: Awaited<ReturnType<typeof deliberate>>;
  let after: Awaited<ReturnType<typeof deliberate>>;
  const picked: string[] = [];

  before(async () => {
    repo = createLearningRepo();
    baseline = await deliberate({ repo, question: LEARNING_Q, signingKey: key });
    // Ten deliberations, each overridden towards the option the ADR supports.
    for (let i = 0; i < 10; i++) {
      const out = await deliberate({ repo, question: LEARNING_Q, signingKey: key, useCache: false });
      assert.equal(out.kind, "deliberated");
      if (out.kind !== "deliberated") return;
      const rabbit = out.payload.options.find((o) => /rabbit/i.test(o.title))!;
      assert.notEqual(out.payload.recommendation.option_id, rabbit.id, "the rules recommend the convention's Redis");
      await recordPick(repo, out.receipt.receipt_id, { option_id: rabbit.id, reason: "ADR 0007: jobs must survive restarts" }, key, DIR);
      picked.push(out.receipt.receipt_id);
    }
    after = await deliberate({ repo, question: LEARNING_Q, signingKey: key });
  });

  test("the baseline: the ADR supports RabbitMQ, the convention rule Redis, and the rules recommend Redis", () => {
    assert.equal(baseline.kind, "deliberated");
    if (baseline.kind !== "deliberated") return;
    const src = new Map(baseline.evidence.map((e) => [e.id, sourceOf(e.source_type)]));
    const rabbit = baseline.payload.options.find((o) => /rabbit/i.test(o.title))!;
    const redis = baseline.payload.options.find((o) => /redis/i.test(o.title))!;
    assert.ok(rabbit.supports.some((id) => src.get(id) === "adr"));
    assert.ok(redis.supports.some((id) => src.get(id) === "convention"));
    assert.equal(baseline.payload.recommendation.option_id, redis.id);
    // Nothing learned yet: every weight 1, the config version unchanged.
    assert.ok(Object.values(baseline.receipt.learned_weights!.sources).every((w) => w === 1));
    assert.doesNotMatch(baseline.receipt.config_version, /\+w/);
  });

  test("after 10 overrides towards the ADR, the next deliberation ranks ADR evidence higher, by a measured amount", (t) => {
    assert.ok(baseline.kind === "deliberated" && after.kind === "deliberated");
    if (baseline.kind !== "deliberated" || after.kind !== "deliberated") return;
    assert.equal(after.cached, false, "the turn cache must not serve a result ranked with other weights");
    const w = after.receipt.learned_weights!;
    assert.equal(w.picks_counted, 10);
    assert.ok(w.sources.adr > 1.2, `ADR weight ${w.sources.adr}`);
    assert.ok(w.sources.convention < 0.85, `convention weight ${w.sources.convention}`);
    assert.ok(w.synthesis.rules < 1, "ten overrides of the rules path lower its weight");
    assert.match(after.receipt.config_version, new RegExp(`\\+w${w.hash.slice(0, 10)}$`));
    const adrBefore = shareOf(baseline.evidence, "adr");
    const adrAfter = shareOf(after.evidence, "adr");
    const convBefore = shareOf(baseline.evidence, "convention");
    const convAfter = shareOf(after.evidence, "convention");
    t.diagnostic(
      `weights adr ${w.sources.adr} convention ${w.sources.convention} rules-path ${w.synthesis.rules}; ADR fused-score share ${adrBefore.share.toFixed(4)} -> ${adrAfter.share.toFixed(4)} ` +
        `(+${((adrAfter.share / adrBefore.share - 1) * 100).toFixed(1)}%); convention share ${convBefore.share.toFixed(4)} -> ${convAfter.share.toFixed(4)}; ` +
        `AGENTS.md best rank ${convBefore.bestRank} -> ${convAfter.bestRank}; ADR ranks ${ranksOf(baseline.evidence, "adr")} -> ${ranksOf(after.evidence, "adr")}; ` +
        `git-history ranks ${ranksOf(baseline.evidence, "git-history")} -> ${ranksOf(after.evidence, "git-history")}`,
    );
    assert.ok(adrAfter.share >= adrBefore.share * 1.1, `ADR share ${adrBefore.share} -> ${adrAfter.share}: expected at least +10%`);
    assert.ok(convAfter.share <= convBefore.share * 0.85, `convention share ${convBefore.share} -> ${convAfter.share}: expected at least −15%`);
    assert.ok(convAfter.bestRank >= convBefore.bestRank, "the overridden convention rule does not climb");
    assert.equal(adrAfter.bestRank, 1, "an ADR section ranks first");
    const rankSum = (ev: FusedEvidence[]) => ev.filter((e) => sourceOf(e.source_type) === "adr").reduce((n, e) => n + e.rank, 0);
    assert.ok(rankSum(after.evidence) < rankSum(baseline.evidence), `ADR sections climb: ${ranksOf(baseline.evidence, "adr")} -> ${ranksOf(after.evidence, "adr")}`);
    const adrTop = after.evidence.find((e) => e.path_or_url === ADR_PATH)!;
    assert.equal(adrTop.rank, 1);
  });

  test("with the weights unchanged, the turn cache answers again (a new unpicked receipt changes no weight)", async () => {
    const again = await deliberate({ repo, question: LEARNING_Q, signingKey: key });
    assert.ok(again.kind === "deliberated" && after.kind === "deliberated");
    if (again.kind !== "deliberated" || after.kind !== "deliberated") return;
    assert.equal(again.cached, true);
    assert.equal(again.receipt.receipt_id, after.receipt.receipt_id);
  });

  test("the same receipts give the same weights whatever order they are read in", async () => {
    const { observations } = await collectObservations(repo, DIR, key.publicKeyPem);
    assert.equal(observations.length, 10);
    const reference = computeWeights(observations);
    for (let seed = 1; seed <= 20; seed++) assert.deepEqual(computeWeights(shuffled(observations, seed)), reference);
    // And a second, independent read of the folder agrees.
    assert.deepEqual((await computeLearning(repo, DIR, key.publicKeyPem)).weights, reference);
  });

  test("a tampered receipt, an untrusted signer and an agent's pick do not count", async () => {
    const copy = makeTempDir("delib-learn-copy-");
    cpSync(repo, copy, { recursive: true });
    const before = await computeLearning(copy, DIR, key.publicKeyPem);
    // Tampered: the pick changed by hand, signature not renewed.
    const target = picked[0];
    const raw = readJson(copy, target);
    raw.picks![raw.picks!.length - 1].option_id = raw.payload.recommendation.option_id;
    writeFileSync(join(copy, DIR, `${target}.json`), JSON.stringify(raw, null, 2));
    // Untrusted: a copy signed by a key that is neither yours nor an allowed signer.
    cloneReceipt(copy, picked[1], "zz-untrusted-0001", generateSigningKey());
    // An agent's pick, signed by your own key.
    cloneReceipt(copy, picked[2], "zz-agent-pick-0001", key, (r) => {
      const picks = r.picks as Record<string, unknown>[];
      picks[picks.length - 1] = { ...picks[picks.length - 1], picked_by: "agent" };
    });
    // Evidence changed: the evidence file one receipt signed is edited.
    const evidenceTarget = readJson(copy, picked[9]);
    const evidenceFile = join(copy, DIR, evidenceTarget.evidence_files![0].path);
    writeFileSync(evidenceFile, readFileSync(evidenceFile, "utf8").replace(/"excerpt":"/, '"excerpt":"edited '));
    const report = await computeLearning(copy, DIR, key.publicKeyPem);
    const reasonOf = (id: string) => report.ignored.find((i) => i.receipt_id === id)?.reason;
    assert.equal(reasonOf(target), "signature-invalid");
    assert.equal(reasonOf("zz-untrusted-0001"), "untrusted-signer");
    // Today the schema itself refuses a non-operator pick (corrupt); once agents may pick, the learning skips it.
    assert.ok(["not-operator-pick", "corrupt"].includes(reasonOf("zz-agent-pick-0001") ?? ""), reasonOf("zz-agent-pick-0001"));
    assert.equal(reasonOf(picked[9]), "evidence-changed");
    const dropped = new Set(report.ignored.map((i) => i.receipt_id));
    assert.ok(report.counted.length <= before.counted.length - 2);
    assert.ok(!report.counted.some((c) => c.receipt_id === target || c.receipt_id === picked[9]));
    // Ignoring them leaves exactly the weights of the receipts that still verify.
    const rest = (await collectObservations(repo, DIR, key.publicKeyPem)).observations.filter((o) => !dropped.has(o.receipt_id));
    assert.equal(rest.length, report.counted.length);
    assert.deepEqual(report.weights, computeWeights(rest));
  });

  test("a signed reset makes earlier picks stop counting; a later pick counts; a forged marker is ignored", async () => {
    const copy = makeTempDir("delib-learn-reset-");
    cpSync(repo, copy, { recursive: true });
    const at = await writeResetMarker(copy, DIR, key, new Date());
    let report = await computeLearning(copy, DIR, key.publicKeyPem);
    assert.equal(report.reset.at, at);
    assert.equal(report.counted.length, 0);
    assert.equal(report.ignored.filter((i) => i.reason === "picked-before-reset").length, 10);
    assert.ok(Object.values(report.weights.sources).every((w) => w === 1));
    // A pick after the reset counts again.
    const out = await deliberate({ repo: copy, question: LEARNING_Q, signingKey: key, useCache: false });
    assert.ok(out.kind === "deliberated");
    if (out.kind !== "deliberated") return;
    const later = new Date(Date.parse(at) + 1000);
    await recordPick(copy, out.receipt.receipt_id, { option_id: out.payload.recommendation.option_id, at: later }, key, DIR);
    report = await computeLearning(copy, DIR, key.publicKeyPem);
    assert.deepEqual(report.counted.map((c) => c.receipt_id), [out.receipt.receipt_id]);
    assert.equal(report.weights.agreement_rate, 1);
    // A marker edited by hand (an earlier instant) no longer verifies and is ignored.
    const file = resetMarkerPath(copy, DIR);
    const marker = JSON.parse(readFileSync(file, "utf8"));
    writeFileSync(file, JSON.stringify({ ...marker, reset_at: "2000-01-01T00:00:00.000Z" }));
    const state = await readResetMarker(copy, DIR, key.publicKeyPem, await readAllowedSigners(copy, DIR));
    assert.equal(state.at, undefined);
    assert.match(state.ignored ?? "", /signature does not verify/);
    // A marker signed by an untrusted key is ignored too.
    await writeResetMarker(copy, DIR, generateSigningKey(), new Date());
    const untrusted = await readResetMarker(copy, DIR, key.publicKeyPem, await readAllowedSigners(copy, DIR));
    assert.match(untrusted.ignored ?? "", /untrusted signer/);
  });

  test("the weights are cached, signed with your key, and recomputed when a receipt changes (50 receipts measured)", async (t) => {
    const copy = makeTempDir("delib-learn-cache-");
    cpSync(repo, copy, { recursive: true });
    for (let i = 0; i < 40; i++) cloneReceipt(copy, picked[i % picked.length], `zz-clone-${String(i).padStart(4, "0")}`);
    const files = receiptIds(copy).length;
    assert.ok(files >= 50, `${files} receipts`);
    let started = performance.now();
    const cold = await loadLearning(copy, key, { dirName: DIR });
    const coldMs = performance.now() - started;
    started = performance.now();
    const warm = await loadLearning(copy, key, { dirName: DIR });
    const warmMs = performance.now() - started;
    assert.equal(cold.cached, false);
    assert.equal(warm.cached, true);
    assert.deepEqual(warm.weights, cold.weights);
    assert.equal(cold.counted.length, 50);
    t.diagnostic(`${files} receipts (50 picked): computing the weights ${coldMs.toFixed(0)} ms, from the signed cache ${warmMs.toFixed(1)} ms`);
    // A cache signed by another key is not used.
    const cacheFile = join(copy, DIR, "cache", LEARNING_CACHE_FILE);
    const cached = JSON.parse(readFileSync(cacheFile, "utf8"));
    const first = Object.keys(cached.judged)[0];
    const forged = { ...cached, judged: { ...cached.judged, [first]: { ...cached.judged[first], result: { receipt_id: "x", reason: "no-pick", detail: "forged" } } } };
    writeFileSync(cacheFile, JSON.stringify(forged));
    const reread = await loadLearning(copy, key, { dirName: DIR });
    assert.equal(reread.cached, false);
    assert.equal(reread.verified, files, "a forged cache is discarded whole");
    assert.deepEqual(reread.weights, cold.weights);
    // A new pick changes a receipt: the cache key changes and the weights are recomputed.
    const out = await deliberate({ repo: copy, question: LEARNING_Q, signingKey: key, useCache: false });
    assert.ok(out.kind === "deliberated");
    if (out.kind !== "deliberated") return;
    await recordPick(copy, out.receipt.receipt_id, { option_id: out.payload.recommendation.option_id }, key, DIR);
    started = performance.now();
    const fresh = await loadLearning(copy, key, { dirName: DIR });
    const incrementalMs = performance.now() - started;
    assert.equal(fresh.cached, false);
    assert.equal(fresh.verified, 1, "only the changed receipt is verified again");
    assert.equal(fresh.counted.length, 51);
    assert.deepEqual(fresh.weights, (await computeLearning(copy, DIR, key.publicKeyPem)).weights);
    t.diagnostic(`one new pick among ${files + 1} receipts: ${incrementalMs.toFixed(1)} ms (1 receipt verified)`);
  });

  test("learning: false ranks exactly as before learning and records no weights", async () => {
    const plain = await deliberate({ repo, question: LEARNING_Q, signingKey: key, useCache: false, writeReceipt: false, learning: false });
    assert.ok(plain.kind === "deliberated" && baseline.kind === "deliberated");
    if (plain.kind !== "deliberated" || baseline.kind !== "deliberated") return;
    assert.equal(plain.receipt.learned_weights, undefined);
    assert.deepEqual(plain.evidence.map((e) => [e.id, e.fused_score]), baseline.evidence.map((e) => [e.id, e.fused_score]));
  });
});
