// The CodeLens scanner runs on the extension host's thread on every edit (third probe, finding 3): a run of `;` made
// its tag pattern quadratic (300 lines of 2,000 `;` blocked the host 9 s), and every plain TODO went to the tagger
// (20,000 long ones: 86 s). Now a line costs a substring test unless it holds a tag's word, the patterns are linear,
// stacked comment markers are peeled in one step, the classifier has a per-pass budget (calls, characters, time)
// with verdicts cached by text, Restricted Mode gets tagged comments only, and a document the pass cannot read to
// its end (20,000 lines, 8 MB) or classify in full says so in the log instead of silently lacking lenses.
import { Disposable, Uri, workspace } from "../helpers/vscodeStub";
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { PLAIN_TODO_LINE } from "../../src/core/classify";
import * as codelens from "../../src/vscode/codelens";
import { MAX_CLASSIFIED_PER_PASS, buildMatcher, findQuestionLines, type ScanLimit } from "../../src/vscode/codelens";
import { DEFAULT_CODELENS_TAGS } from "../../src/vscode/constants";
import type { Log } from "../../src/vscode/log";
import type { ReceiptIndex } from "../../src/vscode/receiptIndex";
import type { TextDocument } from "vscode";
import { ORDERS_TS } from "../fixtures/sampleRepo";

const matcher = buildMatcher(DEFAULT_CODELENS_TAGS, true);
const timed = <T>(f: () => T): [T, number] => {
  const t = performance.now();
  const r = f();
  return [r, performance.now() - t];
};
/** A classifier that says yes and counts its calls (each test gets its own, so no verdict is cached yet). */
const counting = () => {
  const c = { calls: 0, classify: (_raw: string) => (c.calls++, true) };
  return c;
};
const scan = (text: string, opts: Parameters<typeof findQuestionLines>[3] = {}) => {
  const limits: ScanLimit[] = [];
  const found = findQuestionLines(text, matcher, undefined, { ...opts, onLimit: (l) => limits.push(l) });
  return { lines: found.map((q) => q.line), limits };
};

describe("CodeLens scanner on hostile documents", () => {
  it("a run of ';' before a tag is scanned in linear time, and the tag still gets its lens", () => {
    const text = Array.from({ length: 300 }, () => `${";".repeat(1950)} TODO(decide): Redis or Memcached for sessions?`).join("\n");
    const [found, ms] = timed(() => findQuestionLines(text, matcher));
    assert.equal(found.length, 300);
    assert.ok(ms < 2000, `${ms} ms (the quadratic pattern took ~9 s here)`);
    // The plain-TODO pattern shares the comment openers.
    const line = `${";".repeat(1990)}x TODO`;
    const [, plainMs] = timed(() => {
      for (let i = 0; i < 300; i++) PLAIN_TODO_LINE.exec(line);
    });
    assert.ok(plainMs < 1000, `${plainMs} ms`);
  });

  it("plain TODOs reach the classifier at most MAX_CLASSIFIED_PER_PASS times a pass; verdicts are cached by text", () => {
    const c = counting();
    const plain = Array.from({ length: 5000 }, (_, i) => `// TODO: should we use redis${i} or memcached${i} for the session cache?`).join("\n");
    const first = scan(plain, { classify: c.classify });
    assert.equal(c.calls, MAX_CLASSIFIED_PER_PASS);
    assert.deepEqual(first.lines, Array.from({ length: MAX_CLASSIFIED_PER_PASS }, (_, i) => i));
    assert.deepEqual(first.limits, ["classifier"]);
    // The next pass (an edit) reuses the 200 verdicts for free and classifies the next 200.
    const second = scan(plain, { classify: c.classify });
    assert.equal(c.calls, 2 * MAX_CLASSIFIED_PER_PASS);
    assert.equal(second.lines.length, 2 * MAX_CLASSIFIED_PER_PASS);
    // A document whose TODOs all have verdicts costs no classifier call at all.
    scan(plain.split("\n").slice(0, 300).join("\n"), { classify: c.classify });
    assert.equal(c.calls, 2 * MAX_CLASSIFIED_PER_PASS);
    // Tagged comments need no classifier, so they are not limited.
    const tagged = Array.from({ length: 5000 }, (_, i) => `// TODO(decide): redis${i} or memcached${i}?`).join("\n");
    assert.equal(scan(tagged, { classify: c.classify }).lines.length, 5000);
    assert.equal(c.calls, 2 * MAX_CLASSIFIED_PER_PASS);
  });

  it("with the real classifier, 20,000 plain TODO questions take well under a second's worth of tagger", () => {
    const plain = Array.from({ length: 20_000 }, (_, i) => `// TODO: should we use valkey${i} or memcached${i} for the session cache here?`).join("\n");
    const [found, ms] = timed(() => findQuestionLines(plain, matcher));
    assert.ok(found.length > 5 && found.length <= MAX_CLASSIFIED_PER_PASS, `${found.length} lenses`);
    assert.ok(ms < 4000, `${ms} ms (this took ~11-13 s)`);
  });

  it("long plain TODOs are bounded by characters too", () => {
    const long = Array.from({ length: 2000 }, (_, i) => `// TODO: should we use redis${i} or memcached${i}? ${"which of the two is better for us or not ".repeat(45)}`).join("\n");
    const [found, ms] = timed(() => findQuestionLines(long, matcher));
    assert.ok(found.length < 60, `${found.length} lenses`);
    assert.ok(ms < 3000, `${ms} ms (20,000 such lines took 86 s)`);
  });

  it("stacked comment markers before a question are peeled in one step", () => {
    // 20,000 lines, of which the pass reads its 8 MB: ~1,000 markers a line were peeled one by one (~2.3 s).
    const text = Array.from({ length: 20_000 }, (_, i) => `// TODO(decide): ${"* ".repeat(970)}Redis or Memcached for cache ${i}?`).join("\n");
    const [found, ms] = timed(() => scan(text));
    assert.ok(found.lines.length > 3000, `${found.lines.length} lenses`);
    assert.deepEqual(findQuestionLines(text.slice(0, 5000), matcher)[0]?.question, "Redis or Memcached for cache 0?");
    assert.deepEqual(found.limits, ["chars"]);
    assert.ok(ms < 1000, `${ms} ms`);
  });
});

describe("CodeLens scanner limits are told, not silent", () => {
  it("a question below line 20,000 gets no lens, and the pass says why", () => {
    const text = `${"const x = 1;\n".repeat(20_000)}// TODO(decide): Redis or Memcached?\n`;
    assert.deepEqual(scan(text), { lines: [], limits: ["lines"] });
    // Exactly 20,000 lines (with or without a final newline) are read in full.
    const full = `${"const x = 1;\n".repeat(19_999)}// TODO(decide): Redis or Memcached?`;
    assert.deepEqual(scan(full), { lines: [19_999], limits: [] });
    assert.deepEqual(scan(`${full}\n`), { lines: [19_999], limits: [] });
  });

  it("the provider names the document in the log once, however often the pass runs", () => {
    const info: string[] = [];
    const log = { info: (m: string) => info.push(m) } as unknown as Log;
    const index = { onDidChange: () => new Disposable() } as unknown as ReceiptIndex;
    const provider = new codelens.QuestionCodeLensProvider(index, log);
    const text = `${"let a = 1;\n".repeat(20_000)}// TODO(decide): tabs or spaces?\n`;
    const document = { uri: Uri.file("/ws/big.ts"), getText: () => text } as unknown as TextDocument;
    for (let i = 0; i < 3; i++) assert.deepEqual(provider.provideCodeLenses(document), []);
    assert.equal(info.length, 1);
    assert.match(info[0]!, /big\.ts has more than 20,000 lines/);
    provider.dispose();
  });
});

describe("CodeLens scanner on ordinary files", () => {
  const text = [
    'import { db } from "./db/client";',
    "// TODO(decide): should we use Redux or Zustand for the cart state?",
    ";;; TODO(decide): Guile or Racket for the build scripts?",
    "x = 1; // DECIDE: tabs or spaces?",
    "-- OPEN QUESTION: Postgres or MySQL for reporting?",
    "# TODO: should we use Redis or Memcached for the session cache?",
    "// TODO: remove this once the migration lands",
    "/** * TODO(decide): Vitest or Jest? */",
    "const todo = 1;",
  ].join("\r\n");

  it("finds the tagged and the plain open questions, on the lines they are on (the e2e sample's too)", () => {
    assert.deepEqual(
      findQuestionLines(text, matcher).map((q) => [q.line, q.question]),
      [
        [1, "should we use Redux or Zustand for the cart state?"],
        [2, "Guile or Racket for the build scripts?"],
        [3, "tabs or spaces?"],
        [4, "Postgres or MySQL for reporting?"],
        [5, "should we use Redis or Memcached for the session cache?"],
        [7, "Vitest or Jest?"],
      ],
    );
    assert.deepEqual(scan(text), { lines: [1, 2, 3, 4, 5, 7], limits: [] });
    // test/e2e waits for "Deliberate" above this comment of the sample repository's src/orders.ts.
    assert.deepEqual(
      findQuestionLines(ORDERS_TS, matcher).map((q) => [q.line, q.question]),
      [[2, "should we use Redux or Zustand for the cart state?"]],
    );
  });

  it("in Restricted Mode (plainTodos: false) only tagged comments get a lens, and the classifier never runs", () => {
    const c = counting();
    assert.deepEqual(scan(text, { plainTodos: false, classify: c.classify }), { lines: [1, 2, 3, 4, 7], limits: [] });
    assert.equal(c.calls, 0);
    assert.deepEqual(scan(text, { classify: c.classify }).lines, [1, 2, 3, 4, 5, 7]);
    assert.equal(c.calls, 1);
    assert.equal(workspace.isTrusted, true);
  });
});
