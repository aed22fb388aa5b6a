// The CodeLens scanner runs on the extension host's thread on every edit (third probe, finding 3): a run of `;` made
// its tag pattern quadratic (300 lines of 2,000 `;` blocked the host 9 s), and every plain TODO went to the tagger
// (20,000 long ones: 86 s). Now a line costs a substring test unless it holds a tag's word, the patterns are linear,
// the classifier has a per-pass budget, and Restricted Mode gets tagged comments only.
import "../helpers/vscodeStub";
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { PLAIN_TODO_LINE } from "../../src/core/classify";
import { MAX_CLASSIFIED_PER_PASS, buildMatcher, findQuestionLines } from "../../src/vscode/codelens";
import { DEFAULT_CODELENS_TAGS } from "../../src/vscode/constants";

const matcher = buildMatcher(DEFAULT_CODELENS_TAGS, true);
const timed = <T>(f: () => T): [T, number] => {
  const t = performance.now();
  const r = f();
  return [r, performance.now() - t];
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

  it("plain TODOs reach the classifier at most MAX_CLASSIFIED_PER_PASS times a pass; tagged ones are not limited", () => {
    const plain = Array.from({ length: 5000 }, (_, i) => `// TODO: should we use redis${i} or memcached${i} for the session cache?`).join("\n");
    const [found, ms] = timed(() => findQuestionLines(plain, matcher));
    assert.equal(found.length, MAX_CLASSIFIED_PER_PASS);
    assert.ok(ms < 5000, `${ms} ms`);
    const tagged = Array.from({ length: 5000 }, (_, i) => `// TODO(decide): redis${i} or memcached${i}?`).join("\n");
    assert.equal(findQuestionLines(tagged, matcher).length, 5000);
  });

  it("long plain TODOs are bounded by characters too", () => {
    const long = Array.from({ length: 2000 }, (_, i) => `// TODO: should we use redis${i} or memcached${i}? ${"which of the two is better for us or not ".repeat(45)}`).join("\n");
    const [found, ms] = timed(() => findQuestionLines(long, matcher));
    assert.ok(found.length < 60, `${found.length} lenses`);
    assert.ok(ms < 3000, `${ms} ms (20,000 such lines took 86 s)`);
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
    "const todo = 1;",
  ].join("\r\n");

  it("finds the tagged and the plain open questions, on the lines they are on", () => {
    assert.deepEqual(
      findQuestionLines(text, matcher).map((q) => [q.line, q.question]),
      [
        [1, "should we use Redux or Zustand for the cart state?"],
        [2, "Guile or Racket for the build scripts?"],
        [3, "tabs or spaces?"],
        [4, "Postgres or MySQL for reporting?"],
        [5, "should we use Redis or Memcached for the session cache?"],
      ],
    );
  });

  it("in Restricted Mode (plainTodos: false) only tagged comments get a lens", () => {
    assert.deepEqual(
      findQuestionLines(text, matcher, undefined, { plainTodos: false }).map((q) => q.line),
      [1, 2, 3, 4],
    );
  });
});
