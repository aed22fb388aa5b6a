// Why a model step fell back, read by kind: new receipts carry `fallback: {kind, detail}`; a receipt written before
// that carries only the text, and fallbackOf derives the kind from it once. The stored fixture is a real receipt of
// the previous release (a model run whose endpoint refused the connection): it still loads, verifies and renders.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { renderPicker } from "../../src/cli/main";
import { describeFallback, fallbackOf, isModelFailure, planFallbackOf } from "../../src/core/fallback";
import { receiptToMarkdown } from "../../src/core/render";
import { loadReceiptFile, receiptPath, verifyEntry } from "../../src/core/receipts/store";
import { ReceiptSchema } from "../../src/core/schemas";

const FIXTURE = join(import.meta.dirname, "..", "fixtures", "legacy-receipt");
const LEGACY_ID = "20261130-083144Z-dd9f1af8";

describe("fallbackOf", () => {
  test("a structured fallback is returned as it is, whatever the text says", () => {
    const fallback = { kind: "auth" as const, detail: "HTTP 401" };
    assert.deepEqual(fallbackOf({ fallback, fallback_reason: "timeout: something else" }), fallback);
    assert.deepEqual(planFallbackOf({ fallback, reason: "timeout: x (rules plan used)" }), fallback);
  });

  test("no fallback: undefined", () => {
    assert.equal(fallbackOf(undefined), undefined);
    assert.equal(fallbackOf({}), undefined);
    assert.equal(planFallbackOf({ reason: undefined }), undefined);
  });

  test("a legacy `fallback_reason` gives its kind and detail", () => {
    assert.deepEqual(fallbackOf({ fallback_reason: "no-evidence: nothing to send, so the model was not called" }), {
      kind: "no-evidence",
      detail: "nothing to send, so the model was not called",
    });
    assert.deepEqual(fallbackOf({ fallback_reason: "auth: HTTP 401: check your API key / base URL" }), { kind: "auth", detail: "HTTP 401: check your API key / base URL" });
  });

  test("a legacy synthesizer failure (no known kind) is a synthesizer-error with the whole text", () => {
    assert.deepEqual(fallbackOf({ fallback_reason: "model failed: boom" }), { kind: "synthesizer-error", detail: "model failed: boom" });
    assert.deepEqual(fallbackOf({ fallback_reason: "authentication: nope" }), { kind: "synthesizer-error", detail: "authentication: nope" });
  });

  test("only no-evidence is not a model failure", () => {
    assert.equal(isModelFailure({ kind: "no-evidence", detail: "" }), false);
    for (const kind of ["auth", "timeout", "connection-refused", "synthesizer-error"] as const) assert.equal(isModelFailure({ kind, detail: "" }), true);
    assert.equal(describeFallback({ kind: "timeout", detail: "60 s" }), "timeout: 60 s");
  });
});

describe("a receipt written before structured fallbacks", () => {
  test("it loads, verifies, and its fallbacks are read by kind", async () => {
    const repo = mkdtempSync(join(tmpdir(), "delib-legacy-"));
    cpSync(FIXTURE, join(repo, ".deliberations"), { recursive: true });
    const raw = JSON.parse(readFileSync(join(FIXTURE, `${LEGACY_ID}.json`), "utf8"));
    assert.equal(raw.synthesis.fallback, undefined, "the fixture predates `fallback`");
    assert.ok(ReceiptSchema.safeParse(raw).success);

    const entry = await loadReceiptFile(receiptPath(repo, LEGACY_ID));
    assert.notEqual(entry.state, "corrupt", entry.state === "corrupt" ? entry.error : "");
    if (entry.state === "corrupt") return;
    const v = await verifyEntry(repo, entry, { ownPublicKeyPem: entry.receipt.signing.public_key, citations: false });
    assert.equal(v.signature, "valid");
    assert.equal(v.evidence, "intact");
    assert.ok(v.ok, v.summary);

    const synthesis = fallbackOf(entry.receipt.synthesis);
    assert.equal(synthesis?.kind, "network-error");
    assert.match(synthesis!.detail, /^could not reach 127\.0\.0\.1:9/);
    assert.equal(planFallbackOf(entry.receipt.stages.plan)?.kind, "network-error");

    const text = renderPicker(entry.receipt.payload, entry.receipt, undefined, false);
    assert.match(text, /Synthesis: rules synthesizer used — network-error: could not reach/);
    assert.match(text, /Stages: Internal conventions ok/);
    assert.match(receiptToMarkdown(entry.receipt), /- Synthesis: ok/);
  });
});
