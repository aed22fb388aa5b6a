// How a proposal-style record's own statement of what it proposes is found (src/core/decisions/proposal.ts): the
// sentences that open its summary-like and proposal-like parts are scored on general features, and the best one is
// read to the end of its clause. Every record here is made up for these tests.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { parseAdr } from "../../src/core/internal/adr";
import { DecisionRecordSchema, decisionModelOf, type DecisionRecord } from "../../src/core/decisions";
import { proposalStatement, toClauseEnd } from "../../src/core/decisions/proposal";

function model(path: string, text: string): DecisionRecord {
  const m = decisionModelOf(parseAdr(path, text));
  DecisionRecordSchema.parse(m);
  return m;
}

const rfc = (...parts: string[]) => parts.join("\n");

describe("a proposal-style record's statement of its proposal", () => {
  test("the summary's statement is read to the end of its clause, past 'in' and 'for'", () => {
    const m = model(
      "text/0042-shared-parsers.md",
      rfc(
        "# Shared parsers",
        "",
        "## Summary",
        "",
        "This RFC proposes keeping one parser cache in the runtime for reusing compiled grammars between worker processes.",
        "",
        "## Motivation",
        "",
        "Every worker compiles the same grammars at start-up.",
        "",
        "## Drawbacks",
        "",
        "The cache needs locking.",
      ),
    );
    assert.equal(m.chosen?.name, "keeping one parser cache in the runtime for reusing compiled grammars between worker processes");
  });

  test("a summary that first describes today's problem states its proposal after it", () => {
    const m = model(
      "text/0043-queue.md",
      rfc(
        "# Job queue",
        "",
        "## Summary",
        "",
        "Currently every service polls the database for pending jobs.",
        "We propose a shared job queue backed by the message broker.",
        "",
        "## Motivation",
        "",
        "Polling wastes connections.",
        "",
        "## Alternatives",
        "",
        "- A cron job per service",
      ),
    );
    assert.equal(m.chosen?.name, "shared job queue backed by the message broker");
  });

  test("metadata lines under the title ('Start Date: …') propose nothing", () => {
    const parsed = parseAdr(
      "text/0044-cache.md",
      rfc(
        "# Meta",
        "",
        "- Name: Cache warmer",
        "- Start Date: 2021-03-04",
        "",
        "## Summary",
        "",
        "Add a cache warmer that fills the artifact cache before each nightly build.",
        "",
        "## Motivation",
        "",
        "Cold caches slow the first build.",
      ),
    );
    assert.equal(proposalStatement(parsed)?.name, "Add a cache warmer that fills the artifact cache before each nightly build");
  });

  test("a present-tense description is no proposal: the title stands when nothing commits", () => {
    const m = model(
      "text/0045-notes.md",
      rfc(
        "# Curated release notes",
        "",
        "## Summary",
        "",
        "Release notes are assembled by hand from the merged pull requests.",
        "",
        "## Motivation",
        "",
        "Changes go missing.",
        "",
        "## Drawbacks",
        "",
        "More process.",
      ),
    );
    assert.equal(m.chosen?.name, "Curated release notes");
  });

  test("a record whose only decision part is its Proposal section takes its summary's firm statement over that part's first description", () => {
    const m = model(
      "proposals/metrics-sampling.md",
      rfc(
        "# Metrics sampling",
        "",
        "## Summary",
        "",
        "We will sample request metrics at the gateway instead of recording every request.",
        "",
        "## Motivation",
        "",
        "Storage for raw request metrics grows without bound.",
        "",
        "## Proposal",
        "",
        "Gateways will keep a reservoir of recent requests and flush it every minute.",
        "",
        "## Alternatives",
        "",
        "- Sampling in each service",
      ),
    );
    assert.equal(m.chosen?.name, "sample request metrics at the gateway");
  });

  test("a goal in a list loses to a prose statement of the proposal", () => {
    const m = model(
      "text/0046-indexer.md",
      rfc(
        "# Incremental indexer",
        "",
        "## Overview",
        "",
        "- Reduce indexing time",
        "",
        "## Proposal",
        "",
        "We will re-read only the files whose hashes changed since the last run.",
        "",
        "## Drawbacks",
        "",
        "Hashes must be stored.",
      ),
    );
    assert.equal(m.chosen?.name, "re-read only the files whose hashes changed");
  });
});

describe("toClauseEnd", () => {
  test("carries a phrase on through the rest of its clause", () => {
    assert.equal(toClauseEnd("We propose moving the scheduler into the control plane for every cluster.", "moving the scheduler"), "moving the scheduler into the control plane for every cluster");
  });

  test("stops before a reason, a purpose or a new clause", () => {
    assert.equal(toClauseEnd("We propose a read-through cache because the store is slow.", "read-through cache"), "read-through cache");
    assert.equal(toClauseEnd("Add a retry budget to allow callers to back off.", "Add a retry budget"), "Add a retry budget");
    assert.equal(toClauseEnd("Adopt the new format, which older readers ignore.", "Adopt the new format"), "Adopt the new format");
  });

  test("keeps the phrase as it is when the sentence does not hold it word for word", () => {
    assert.equal(toClauseEnd("Use the hosted runner.", "something else"), "something else");
  });
});
