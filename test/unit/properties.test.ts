// Property-based tests (fast-check): arbitrary strings, bytes and values never throw out of the functions that
// read untrusted input — the ADR parser, receipt loading and verification, the webview message validator, the
// question classifier, the terminal sanitiser, the allowed_signers parser and path containment — and every result
// lands in one of the documented classes.
import { describe, test, before } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import fc from "fast-check";
import { classifyQuestion } from "../../src/core/classify";
import { isInside, resolveInside } from "../../src/core/contain";
import { canonicalJson } from "../../src/core/hash";
import { parseAdr } from "../../src/core/internal/adr";
import { deliberate } from "../../src/core/pipeline";
import { generateSigningKey, isCanonicalSignature, verifyReceiptSignature } from "../../src/core/receipts/signing";
import { loadReceiptFile, parseReceiptText, verifyEntry, type ReceiptEntry } from "../../src/core/receipts/store";
import { classifySigner, parseAllowedSigners, publicKeyToLine } from "../../src/core/receipts/trust";
import { hasControlChars, terminalSafe, terminalSafeJson } from "../../src/core/sanitize";
import { AdrStatusSchema, ClassificationSchema, type Receipt } from "../../src/core/schemas";
import { parseWebviewMessage, WebviewToHostSchema } from "../../src/shared/protocolSchemas";
import { createSampleRepo } from "../fixtures/sampleRepo";
import { makeTempDir } from "../helpers/gitRepo";

const RUNS = Number(process.env.FC_RUNS ?? 300);

/** Text the way an attacker or a broken file would give it: any string, any unicode, any bytes decoded as UTF-8 or latin1. */
const hostileText = fc.oneof(
  fc.string({ maxLength: 400 }),
  fc.string({ unit: "binary", maxLength: 400 }),
  fc.string({ unit: fc.constantFrom("\x1b", "\x07", "\x9b", "\x9d", "\r", "\n", "\t", "\0", "#", "-", "*", ":", "[", "]", "(", ")", "|", "`", "~", " ", "a", "Z", "1", ".", "\u2028", "\ufeff", "😀"), maxLength: 300 }),
  fc.uint8Array({ maxLength: 400 }).map((b) => new TextDecoder("utf-8").decode(b)),
  fc.uint8Array({ maxLength: 400 }).map((b) => Buffer.from(b).toString("latin1")),
);

/** Markdown-ish documents built from ADR-like lines, so the parser's structure paths are exercised too. */
const adrLike = fc.array(
    fc.oneof(
      fc.constantFrom(
        "# 1. Use Postgres",
        "# ADR-0005: Use Kafka",
        "## Status",
        "## Context and Problem Statement",
        "## Decision",
        "## Decision Outcome",
        "## Considered Options",
        "## Pros and Cons of the Options",
        "### Option A",
        "Accepted",
        "Superseded by [5. Use X](0005-use-x.md)",
        "Supersedes [2. Use Y](../0002-use-y.md)",
        'Chosen option: "Option A", because it is simple.',
        "* Good, because fast",
        "* Bad, because slow",
        "- Option A",
        "---",
        "status: accepted",
        "date: 2024-01-01",
        "```",
        "",
      ),
      hostileText,
    ),
    { maxLength: 40 },
  );
const adrDoc = fc.tuple(adrLike, fc.constantFrom("\n", "\r\n")).map(([lines, eol]) => lines.join(eol));

const STATUSES = new Set(AdrStatusSchema.options);

describe("parseAdr (ADR parser)", () => {
  test("arbitrary text never throws and always yields a classified status and a known format", () => {
    fc.assert(
      fc.property(fc.oneof(hostileText, adrDoc), fc.constantFrom("docs/adr/0001-x.md", "adr/x.md", "decisions/weird name.md"), (text, path) => {
        const adr = parseAdr(path, text);
        assert.ok(STATUSES.has(adr.status), `status ${adr.status}`);
        assert.ok(["nygard", "madr", "log4brains"].includes(adr.format), `format ${adr.format}`);
        assert.equal(typeof adr.title, "string");
        assert.ok(Array.isArray(adr.supersedes) && Array.isArray(adr.superseded_by) && Array.isArray(adr.considered_options));
        for (const r of Object.values(adr.sections)) assert.ok(r && r.start >= 1 && r.end >= r.start, "section ranges are valid line ranges");
      }),
      { numRuns: RUNS },
    );
  });
});

describe("classifyQuestion (question classifier)", () => {
  test("arbitrary strings never throw; every result is a valid classification", () => {
    fc.assert(
      fc.property(fc.oneof(hostileText, fc.string({ maxLength: 4096 })), (text) => {
        const c = classifyQuestion(text);
        ClassificationSchema.parse(c);
        assert.ok(["open-question", "lookup", "abstain"].includes(c.class));
        assert.ok(c.confidence >= 0 && c.confidence <= 1 && Number.isFinite(c.confidence));
      }),
      { numRuns: RUNS },
    );
  });
});

describe("parseWebviewMessage (webview message validator)", () => {
  const anyValue = fc.anything({
    withBigInt: true,
    withBoxedValues: true,
    withDate: true,
    withMap: true,
    withSet: true,
    withNullPrototype: true,
    withObjectString: true,
    withSparseArray: true,
    withTypedArray: true,
    withUnicodeString: true,
  });
  /** Objects shaped like real messages with hostile fields. */
  const params = fc.record(
    {
      citationId: fc.oneof(fc.string({ maxLength: 250 }), anyValue),
      optionId: fc.oneof(fc.string({ maxLength: 250 }), anyValue),
      reason: fc.oneof(fc.string({ maxLength: 2100 }), anyValue),
      extra: anyValue,
    },
    { requiredKeys: [] },
  );
  const messageLike = fc.record(
    {
      type: fc.oneof(fc.constantFrom("ready", "request", "reply", "render", "__proto__"), fc.string()),
      protocol: fc.oneof(fc.constant(2), anyValue),
      id: fc.oneof(fc.string({ maxLength: 80 }), anyValue),
      method: fc.oneof(fc.constantFrom("openCitation", "pick", "copyMarkdown", "openReceiptFile", "toString", "__proto__"), fc.string()),
      params: fc.oneof(params, anyValue),
      extra: anyValue,
    },
    { requiredKeys: ["type"] },
  );

  test("arbitrary values never throw; each is accepted as a protocol message or rejected with a one-line error", () => {
    fc.assert(
      fc.property(fc.oneof(anyValue, messageLike), (raw) => {
        const r = parseWebviewMessage(raw);
        if (r.ok) WebviewToHostSchema.parse(r.message);
        else {
          assert.equal(typeof r.error, "string");
          assert.ok(!r.error.includes("\n"), "one line");
        }
      }),
      { numRuns: RUNS * 2 },
    );
  });

  test("a well-formed pick is accepted exactly when its reason is at most 2,000 characters", () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 64 }), fc.string({ minLength: 1, maxLength: 200 }), fc.string({ maxLength: 2100 }), (id, optionId, reason) => {
        const r = parseWebviewMessage({ type: "request", id, method: "pick", params: { optionId, reason } });
        assert.equal(r.ok, reason.length <= 2000);
      }),
      { numRuns: RUNS },
    );
  });
});

describe("receipt loading and verification", () => {
  let repo: string;
  let receipt: Receipt;
  let text: string;
  const key = generateSigningKey();
  const states = new Set(["valid", "invalid", "corrupt"]);

  before(async () => {
    repo = createSampleRepo();
    const out = await deliberate({ repo, question: "Should we store orders in MongoDB or PostgreSQL?", signingKey: key, useCache: false });
    if (out.kind !== "deliberated") throw new Error("expected a receipt");
    receipt = out.receipt;
    text = JSON.stringify(receipt, null, 2);
  });

  async function verifyText(t: string, file = join(repo, ".deliberations", "x.json")) {
    const entry: ReceiptEntry = parseReceiptText(t, file);
    assert.ok(entry.state === "ok" || entry.state === "corrupt");
    if (entry.state === "corrupt") assert.ok(entry.error.length > 0 && !entry.error.includes("\n"), "a one-line reason");
    const v = await verifyEntry(repo, entry, { ownPublicKeyPem: key.publicKeyPem, citations: false });
    assert.ok(states.has(v.signature));
    assert.ok(["own-key", "allowed-signer", "untrusted", undefined].includes(v.trust));
    assert.ok(["intact", "changed", "missing", "not-covered", "unchecked"].includes(v.evidence));
    assert.equal(typeof v.ok, "boolean");
    return { entry, v };
  }

  test("the untouched receipt verifies: valid, your own key, evidence intact", async () => {
    const { v } = await verifyText(text);
    assert.deepEqual([v.signature, v.trust, v.evidence, v.ok], ["valid", "own-key", "intact", true]);
  });

  test("arbitrary strings and bytes never throw out of loading or verification", async () => {
    await fc.assert(
      fc.asyncProperty(hostileText, async (t) => {
        await verifyText(t);
        assert.equal(verifyReceiptSignature(safeJson(t) as Record<string, unknown>).ok, false);
      }),
      { numRuns: RUNS },
    );
  });

  test("loadReceiptFile on arbitrary bytes on disk is ok or corrupt, never a throw", async () => {
    const dir = makeTempDir("delib-prop-");
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 2000 }), async (bytes) => {
        const file = join(dir, `r${n++}.json`);
        writeFileSync(file, bytes);
        const e = await loadReceiptFile(file);
        assert.ok(e.state === "ok" || e.state === "corrupt");
      }),
      { numRuns: RUNS },
    );
  });

  test("any changed character of a signed receipt that changes its content is detected", async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: text.length - 1 }), fc.string({ unit: "binary", minLength: 0, maxLength: 3 }), fc.nat({ max: 3 }), async (at, insert, remove) => {
        const mutated = text.slice(0, at) + insert + text.slice(at + remove);
        const { entry, v } = await verifyText(mutated);
        const parsed = safeJson(mutated);
        const same = parsed !== undefined && canonicalJson(parsed) === canonicalJson(JSON.parse(text));
        if (!same) {
          assert.notEqual(v.signature, "valid", `a content change at ${at} verified: ${JSON.stringify(insert)} -${remove}`);
          assert.equal(v.ok, false);
        } else assert.equal(entry.state, "ok");
      }),
      { numRuns: RUNS * 2 },
    );
  });

  test("any value set anywhere in a signed receipt breaks its signature", async () => {
    const paths = leafPaths(JSON.parse(text));
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...paths), fc.jsonValue({ maxDepth: 2 }), async (path, value) => {
        const raw = JSON.parse(text);
        const before = canonicalJson(raw);
        setPath(raw, path, value);
        const { v } = await verifyText(JSON.stringify(raw));
        if (canonicalJson(raw) !== before) assert.notEqual(v.signature, "valid", `set ${path.join(".")}`);
      }),
      { numRuns: RUNS },
    );
  });

  test("only the canonical base64 spelling of a 64-byte signature is accepted", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 64, maxLength: 64 }), fc.nat({ max: 87 }), fc.constantFrom(...[..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/= \n"]), (bytes, at, c) => {
        const canonical = Buffer.from(bytes).toString("base64");
        assert.ok(isCanonicalSignature(canonical));
        const other = canonical.slice(0, at) + c + canonical.slice(at + 1);
        // Another spelling of the same bytes (padding bits, stray characters) is refused…
        if (other !== canonical && Buffer.from(other, "base64").equals(Buffer.from(bytes))) assert.equal(isCanonicalSignature(other), false);
        // …and whatever is accepted is the one spelling of what it decodes to.
        if (isCanonicalSignature(other)) assert.equal(Buffer.from(other, "base64").toString("base64"), other);
      }),
      { numRuns: RUNS },
    );
  });

  test("allowed_signers: arbitrary text never throws, and garbage lines never grant trust", () => {
    const stranger = generateSigningKey();
    fc.assert(
      fc.property(fc.array(fc.oneof(hostileText, fc.constant(`alice ed25519 ${publicKeyToLine(key.publicKeyPem)}`)), { maxLength: 10 }), (lines) => {
        const signers = parseAllowedSigners(lines.join("\n"));
        for (const s of signers.signers) assert.ok(/^[A-Za-z0-9._@+-]{1,100}$/.test(s.name));
        assert.equal(classifySigner(stranger.publicKeyPem, undefined, signers).trust, "untrusted");
      }),
      { numRuns: RUNS },
    );
  });
});

describe("terminal output hygiene", () => {
  test("terminalSafe leaves no control character but newline and tab, and is idempotent", () => {
    fc.assert(
      fc.property(hostileText, (t) => {
        const safe = terminalSafe(t);
        assert.doesNotMatch(safe, /[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
        assert.equal(terminalSafe(safe), safe);
        assert.equal(hasControlChars(safe.replace(/[\n\t]/g, "")), false);
      }),
      { numRuns: RUNS },
    );
  });

  test("terminalSafeJson keeps JSON meaning and leaves nothing a terminal acts on", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const out = terminalSafeJson(JSON.stringify(value, null, 2));
        assert.doesNotMatch(out, /[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
        assert.deepEqual(JSON.parse(out), JSON.parse(JSON.stringify(value)));
      }),
      { numRuns: RUNS },
    );
  });
});

describe("path containment", () => {
  test("resolveInside never throws and returns only real paths inside the root", async () => {
    const root = makeTempDir("delib-contain-");
    const outside = makeTempDir("delib-contain-out-");
    mkdirSync(join(root, "docs"), { recursive: true });
    writeFileSync(join(root, "docs", "a.md"), "a\n");
    writeFileSync(join(outside, "secret"), "s\n");
    symlinkSync(outside, join(root, "docs", "out"));
    symlinkSync(join(root, "docs", "a.md"), join(root, "in-link"));
    const segment = fc.oneof(fc.constantFrom("docs", "a.md", "out", "secret", "..", ".", "in-link", "", relative(root, outside)), fc.string({ maxLength: 8 }));
    await fc.assert(
      fc.asyncProperty(fc.array(segment, { maxLength: 6 }), fc.boolean(), async (parts, absolute) => {
        const rel = (absolute ? "/" : "") + parts.join("/");
        const real = await resolveInside(root, rel);
        if (real !== undefined) assert.ok(isInside(root, real), `${rel} -> ${real}`);
      }),
      { numRuns: RUNS },
    );
    assert.equal(await resolveInside(root, "docs/out/secret"), undefined);
    assert.equal(await resolveInside(root, "in-link"), join(root, "docs", "a.md"));
  });
});

function safeJson(t: string): unknown {
  try {
    return JSON.parse(t);
  } catch {
    return undefined;
  }
}

function leafPaths(value: unknown, prefix: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) leafPaths(v, [...prefix, Array.isArray(value) ? Number(k) : k], out);
  }
  out.push(prefix);
  return out.filter((p) => p.length > 0);
}

function setPath(obj: any, path: (string | number)[], value: unknown): void {
  let cur = obj;
  for (const k of path.slice(0, -1)) cur = cur[k];
  cur[path[path.length - 1]] = value;
}
