// Options read as phrases a person would write: a cut name ends on a whole phrase, a condition's "or" names no
// choices, and what the question grammar leaves half-done (an open bracket, "be a …", a question after its
// context, a subject that points back) is finished before it becomes an option.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { cutWords } from "../../src/core/text";
import { readQuestion } from "../../src/core/synth/question";
import { parseAdr } from "../../src/core/internal/adr";
import { decisionModelOf } from "../../src/core/decisions";

const titles = (q: string) => readQuestion(q).alternatives.map((a) => a.title);

describe("cutting a long option name", () => {
  it("leaves a short name as it is", () => {
    assert.equal(cutWords("Store receipts in the repository", 12), "Store receipts in the repository");
  });

  it("never ends on a word that opens what was cut", () => {
    const cut = cutWords("Offer a single export of the current state from each service and then replay the change stream", 12);
    assert.equal(cut, "Offer a single export of the current state from each service…");
  });

  it("never leaves an aside open", () => {
    const cut = cutWords("Every HTTP endpoint must be reachable per tenant (as well as per region and per cluster)", 12);
    assert.equal(cut, "Every HTTP endpoint must be reachable per tenant…");
  });
});

describe("alternatives the question names", () => {
  it("reads an 'or' inside a condition as what the condition covers, not as choices", () => {
    const q = readQuestion("What should the client libraries do when the gateway is slow or briefly unreachable, and where is that configured?");
    assert.equal(q.form, "open");
    assert.deepEqual(q.alternatives, []);
  });

  it("still reads a verb after such an 'or' as an alternative", () => {
    assert.deepEqual(titles("Should the nightly build fail when a test is flaky, or retry it?"), ["Fail when a test is flaky", "Retry it"]);
  });

  it("closes a bracket the split cut off", () => {
    assert.deepEqual(titles("Should it be a space on Wikispace (Confluence), the repository wiki, or a static site?"), [
      "A space on Wikispace (Confluence)",
      "A space on the repository wiki",
      "A space on a static site",
    ]);
  });

  it("names the thing, not 'Be a …', when the question asks what something should be", () => {
    const t = titles("When a field carries two markups, should it be a map keyed by media type or a list of typed parts?");
    assert.equal(t[0], "A map keyed by media type");
    assert.ok(t.every((x) => !/^be\b/i.test(x)), t.join(" | "));
  });

  it("reads 'or is it time to X?' as X", () => {
    assert.deepEqual(titles("Should we keep bucketing users on their device id, or is it time to switch to the account id?"), ["Keep bucketing users on their device id", "Switch to the account id"]);
  });

  it("turns a question left after its context into what it proposes", () => {
    const t = titles("When a desktop client does network calls on the render thread, should the library itself flag that and report it as an error event, or should the backend detect it from spans?");
    assert.equal(t[0], "The library itself flags that and reports it as an error event");
    assert.ok(t.every((x) => !/,\s*should\b/i.test(x)), t.join(" | "));
  });

  it("words an alternative whose subject points back at the context as an instruction", () => {
    const t = titles("Our reporting queries are verified against SQLite, which lacks window functions; should those pipelines target a real Postgres instead?");
    assert.ok(t.includes("Target a real Postgres"), t.join(" | "));
    assert.ok(!t.some((x) => /^those\b/i.test(x)), t.join(" | "));
  });
});

describe("a chosen option read from prose at its word limit", () => {
  it("ends before the words that opened what was cut", () => {
    const md = [
      "# 7. Let teams receive exports in their own bucket",
      "",
      "## Status",
      "",
      "Accepted",
      "",
      "## Decision",
      "",
      "We will send the nightly usage exports to a [storage bucket](https://example.org/buckets) the team runs itself, with a policy that lets our role write to it.",
      "",
    ].join("\n");
    const chosen = decisionModelOf(parseAdr("docs/adr/0007-exports.md", md)).chosen?.name ?? "";
    assert.ok(chosen.length > 0, "a choice is read");
    assert.doesNotMatch(chosen, /\b(?:with|a|the|and|of)$/i);
  });
});

describe("a predicate the decision model reads without its subject", () => {
  it("is no option that was turned down ('fields must not be final')", () => {
    const md = [
      "# Inject configuration into extensions",
      "",
      "## Decision",
      "",
      "We will inject configuration values into annotated fields of each extension.",
      "",
      "- annotated fields must not be final",
      "- nested configuration objects are not supported",
      "",
    ].join("\n");
    const model = decisionModelOf(parseAdr("docs/decisions/0003-inject-configuration.md", md));
    const names = [...model.considered.map((o) => o.name), ...model.rejected.map((o) => o.name)];
    assert.ok(!names.some((n) => /^be\b/i.test(n)), names.join(" | "));
  });
});
