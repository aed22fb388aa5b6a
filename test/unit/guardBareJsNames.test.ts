// A chosen option written as "Name.js" is often published without the suffix: dropping the bare package drops it.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { findName, keysOf, tokensOf } from "../../src/core/guard/names";

describe("guard: a chosen Name.js keys by its bare name", () => {
  test("a chosen 'Quarkle.js' is found in a removed `quarkle` dependency", () => {
    const chosen = keysOf("Quarkle.js", new Set(), { shortNames: true });
    assert.ok(chosen);
    assert.equal(findName(tokensOf('"quarkle": "^2.3.9",'), chosen), "quarkle");
    assert.ok(findName(tokensOf("quarkle.js"), chosen));
  });
  test("a rejected 'Quarkle.js' still needs both words (no bare-name key)", () => {
    const rejected = keysOf("Quarkle.js");
    assert.ok(rejected);
    assert.equal(findName(tokensOf('"quarkle": "^2.3.9",'), rejected), undefined);
  });
  test("a short or generic stem keeps the exact form", () => {
    const k = keysOf("Vue.js", new Set(), { shortNames: true });
    assert.ok(k);
    assert.equal(findName(tokensOf('"vue": "^3.0.0",'), k), undefined);
  });
});
