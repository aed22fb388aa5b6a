// Pointers in a question: a demonstrative object, a relative clause without "that" and a quantifier after a plural
// subject.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readQuestion } from "../../src/core/synth/question";

describe("a demonstrative standing alone as the object", () => {
  test("names no act of its own, so the question is open", () => {
    for (const q of ["A reviewer proposed caching the tariff tables at the edge. Should we do that?", "Should we roll this out for every tenant?"]) {
      const s = readQuestion(q);
      assert.equal(s.form, "open", q);
      assert.deepEqual(s.alternatives, [], q);
    }
  });

  test("with a thing named after it, the act stays an option", () => {
    assert.equal(readQuestion("Should we route those through the billing gateway?").target?.title, "Route those through the billing gateway");
  });
});

describe("a noun followed by a relative clause without 'that'", () => {
  test("'remove drafts they abandoned' names the drafts, not 'drafts they'", () => {
    const s = readQuestion("Can people remove drafts they abandoned last year?");
    assert.ok(s.alternatives.length > 0);
    for (const a of s.alternatives) assert.doesNotMatch(a.title, /\bthey$/, a.title);
  });
});

describe("a quantifier floating after a plural subject", () => {
  test("'the services each pick …. Should we move them all to X?' names the services, without the quantifier", () => {
    const s = readQuestion("The mobile apps each bundle fonts differently (system fonts, copied files, a CDN). Should we standardise them all on one font package?");
    assert.equal(s.target?.title, "Standardise the mobile apps on one font package");
  });
});

