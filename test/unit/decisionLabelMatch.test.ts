// How eval/decisionModel.ts matches a read chosen option to its hand label: besides sharing half the label's words,
// a read that names the labelled option more briefly (the label's opening words) matches, unless another labelled
// option matches it too. Labels and readings invented for this test.
import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import { namedMoreBriefly, phraseMatches } from "../../eval/decisionModel";

describe("a read option named more briefly than its label", () => {
  it("matches when it is the label's opening words", () => {
    assert.equal(phraseMatches("Plain gRPC for calls between services", "Plain gRPC"), false);
    assert.ok(namedMoreBriefly("Plain gRPC for calls between services", "Plain gRPC", ["Plain gRPC", "An event bus"]));
    assert.ok(namedMoreBriefly("tern formatter for the Go code", "tern", ["gofmt", "tern"]));
    assert.ok(namedMoreBriefly("region scoped controller", "Region scope", ["account scoped controller"]));
  });

  it("does not match words taken from later in the label, or out of order", () => {
    assert.equal(namedMoreBriefly("Plain gRPC for calls between services", "calls between services", []), false);
    assert.equal(namedMoreBriefly("Plain gRPC for calls between services", "gRPC plain", []), false);
  });

  it("does not match when another labelled option matches the read too", () => {
    assert.equal(namedMoreBriefly("shared caching in the existing Postgres", "shared caching", ["Local caching", "shared caching", "Postgres"]), false);
  });

  it("does not match the whole label's words or an empty read", () => {
    assert.equal(namedMoreBriefly("tern", "tern", []), false);
    assert.equal(namedMoreBriefly("tern formatter", "the", []), false);
  });
});
