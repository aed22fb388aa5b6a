// Readings of the decision model added for records from repositories nobody tuned it on (issue 21, round 3):
// options written as numbered headings after a sentence that announces them, "Approaches considered" and
// "Potential solutions" sections, "Option:" headings, "Option N:" list labels over their description, alternatives
// written as paragraphs, "Chosen option: Option 3", an RFC's summary or title as its proposal, a bold statement in
// the decision, a negated option, and Nygard prose in the third person, in the passive and with asides. Every record
// and sentence here is written for these tests.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { parseAdr } from "../../src/core/internal/adr";
import { DecisionRecordSchema, decisionModelOf, readDecisionSentence, type DecisionRecord } from "../../src/core/decisions";

function model(path: string, text: string): DecisionRecord {
  const m = decisionModelOf(parseAdr(path, text));
  DecisionRecordSchema.parse(m);
  return m;
}
const names = (m: DecisionRecord) => m.considered.map((o) => o.name);

describe("options written as headings", () => {
  test("numbered headings right after a sentence that announces them are the options; 'option (2)' picks one", () => {
    const text = `# 4. Loading spinner on slow pages

Date: 2021-03-02

## Context

Pages that wait on the search index show nothing for seconds.

We weighed three possible approaches:

### 1. Leave the pages as they are

Nothing changes.

### 2. Show a spinner after one second

A small script adds the spinner.

### 3. Render a cached copy first

The cache needs invalidation.

## Decision

We decided to go with option (2) for now, since it needs no cache.

## Status

Accepted
`;
    const m = model("docs/adr/0004-spinner.md", text);
    assert.deepEqual(names(m), ["Leave the pages as they are", "Show a spinner after one second", "Render a cached copy first"]);
    assert.equal(m.chosen?.name, "Show a spinner after one second");
    assert.equal(m.chosen?.considered_index, 1);
    // Without the announcing sentence the headings are only context: no options are made up.
    const unannounced = model("docs/adr/0004-spinner.md", text.replace("We weighed three possible approaches:", "Some background follows."));
    assert.ok(!names(unannounced).includes("Render a cached copy first"));
  });

  test("'Approaches considered' and 'Potential solutions' list every option, the chosen one among them", () => {
    for (const heading of ["Approaches considered", "Potential solutions"]) {
      const text = `# 9. Where invoices are rendered

## Context

Invoices are rendered twice today.

### ${heading}

#### Render in the billing service

The service owns the data.

#### Render in a shared PDF worker

One worker serves every team.

## Decision

Invoices will be rendered in a shared PDF worker owned by the platform team.
`;
      const m = model("docs/adr/0009-invoices.md", text);
      assert.deepEqual(names(m), ["Render in the billing service", "Render in a shared PDF worker"], heading);
      assert.equal(m.chosen?.name, "Render in a shared PDF worker", heading);
    }
  });

  test("sibling 'Option:' headings without labels are the options", () => {
    const text = `# Configuration format

## Context

#### Option: Plain JSON files

Easy to parse.

#### Option: A small Lua DSL

Expressive.

## Decision

Developers will write configuration in a small Lua DSL, loaded at start-up.
`;
    const m = model("adr-007-config.md", text);
    assert.deepEqual(names(m), ["Plain JSON files", "A small Lua DSL"]);
    assert.equal(m.chosen?.name, "A small Lua DSL");
  });
});

describe("options as labelled list groups, and a chosen option named by its label", () => {
  test("'* Option 1:' over its description items is one option named by its first item; 'Chosen option: **Option 2**' resolves", () => {
    const text = `# Paging the on-call engineer

* Status: accepted

## Considered Options

* Option 1:
  * Send pages through a hosted paging service
  * It costs money per seat
* Option 2:
  * Open a tracker issue from each alert
  * Free, and visible to everyone
* Option 3:
  * Post alerts to a chat channel

## Decision Outcome

Chosen option: **Option 2**, because the tracker is where the team already works.
`;
    const m = model("adr/0007-paging.md", text);
    assert.deepEqual(names(m), ["Send pages through a hosted paging service", "Open a tracker issue from each alert", "Post alerts to a chat channel"]);
    assert.equal(m.chosen?.name, "Open a tracker issue from each alert");
    assert.equal(m.chosen?.how, "chosen-option-line");
  });
});

describe("alternatives written as paragraphs", () => {
  test("each paragraph's first sentence names its alternative: what we could do or tried, or a subject in code", () => {
    const text = `# Batched writes

## Summary

This RFC proposes a write buffer, which is called \`WriteBatcher\`.

## Motivation

Small writes dominate.

## Detailed design

Writes are grouped per region.

## Alternatives

We could tune the storage engine instead of batching. It is risky.

\`Group Commit\` can also merge writes at the log layer. It needs a new log format.

For example, we tried to compress each write separately. The gain was small.

There is little else to say.
`;
    const m = model("text/0042-batched-writes.md", text);
    assert.equal(m.chosen?.name, "WriteBatcher");
    assert.deepEqual(names(m), ["WriteBatcher", "tune the storage engine", "Group Commit", "compress each write separately"]);
    assert.deepEqual(
      m.rejected.map((r) => r.name),
      ["tune the storage engine", "Group Commit", "compress each write separately"],
    );
  });

  test("'An alternative approach would be to X' in a single item, and 'Alternative option is to X', each name one alternative", () => {
    const base = `# Cached lookups

## Summary

This RFC proposes caching lookups on the follower.

## Motivation

Lookups are slow.

## Alternatives

`;
    const a = model("text/0050-a.md", `${base}- An alternative approach would be to batch lookups on the leader, which adds latency.\n`);
    assert.ok(names(a).some((n) => /batch lookups on the leader/.test(n)), names(a).join(" | "));
    const b = model("text/0050-b.md", `${base}Alternative option is to shard the lookup table. It is a large change.\n`);
    assert.ok(names(b).some((n) => /shard the lookup table/.test(n)), names(b).join(" | "));
  });
});

describe("an RFC's proposal", () => {
  const rfc = (title: string, summary: string) => `# ${title}

## Summary

${summary}

## Motivation

Operators asked for it.

## Detailed design

The details.

## Drawbacks

More code.
`;
  test("the summary's own commitment ('Support X.', 'This RFC proposes X') is the proposal", () => {
    assert.equal(model("text/0001.md", rfc("Range deletion", "Support an RPC `DropRange` that frees a whole key range at once.")).chosen?.name, "Support an RPC DropRange that frees a whole key range at once");
  });

  test("else the title names it: a summary about something else, or a purpose, does not", () => {
    assert.equal(model("text/0002.md", rfc("RFC: Adaptive region size", "The purpose of this design is to reduce hot spots.")).chosen?.name, "Adaptive region size");
    // The existing system the summary describes in the third person is background, not the proposal.
    assert.equal(model("text/0003.md", rfc("Leader warm-up", "Raft supports leadership transfer by an extension.")).chosen?.name, "Leader warm-up");
  });

  test("a placeholder or question title names nothing, and a record without RFC sections is not read as one", () => {
    assert.equal(model("text/0004.md", rfc("Title", "The purpose of this design is to reduce hot spots.")).chosen, undefined);
    assert.equal(model("text/0005.md", rfc("Should we split regions by load?", "The purpose of this design is to reduce hot spots.")).chosen, undefined);
    assert.equal(model("notes/ideas.md", "# Adaptive region size\n\nSome thoughts on region sizes.\n").chosen, undefined);
  });
});

describe("a bold statement in the decision", () => {
  test("the first paragraph opening with a bold sentence states the decision over the prose around it", () => {
    const text = `# Library versioning

## Status

Accepted

## Decision

It is unclear when a consumer would need two versions at once.
Until there is a reason to support that:

**Two major versions cannot be imported together**.
Releases should focus on backwards compatibility.

**Deprecated calls stay for one major version**.
`;
    assert.equal(model("docs/architecture/adr-002-versioning.md", text).chosen?.name, "Two major versions cannot be imported together");
    // A bold note is no decision.
    const note = text.replace("**Two major versions cannot be imported together**.", "**Note: see the release guide**.").replace("**Deprecated calls stay for one major version**.", "");
    assert.notEqual(model("docs/architecture/adr-002-versioning.md", note).chosen?.name, "Note: see the release guide");
  });
});

describe("a negated option", () => {
  test("'No shared cache' is not named by a sentence that uses a shared cache", () => {
    const text = `# 2: Shared cache

## Context

### Option 1: No shared cache

Each service caches alone.

### Option 2: Use a shared cache

One cache for all.

## Decision

We will use a shared cache which every service reads through.
`;
    const m = model("docs/adr/0002-cache.md", text);
    assert.equal(m.chosen?.name, "Use a shared cache");
    assert.equal(model("docs/adr/0002-cache.md", text.replace("We will use a shared cache which every service reads through.", "We will not introduce a shared cache yet.")).chosen?.name === "Use a shared cache", false);
  });
});

describe("Nygard prose beyond 'We will use X'", () => {
  const chosen = (s: string) => readDecisionSentence(s).chosen;
  test("'X is implemented as Y' and 'X will be written in Y' choose Y; 'X will be delegated to Y' chooses Y", () => {
    assert.equal(chosen("The service is implemented as a set of AWS Lambda functions."), "set of AWS Lambda functions");
    assert.equal(chosen("The importer will be written in Rust."), "Rust");
    assert.equal(chosen("These checks will be delegated to the CI pipeline."), "CI pipeline");
  });

  test("a gerund subject with a passive commits; a gerund subject that argues does not", () => {
    assert.equal(chosen("Hosting and backups will be handled by the managed database service."), "Hosting and backups will be handled by the managed database service");
    assert.equal(chosen("Hosting it ourselves would make upgrades slower."), undefined);
  });

  test("'will try to X', an aside after the modal, 'allow for X' and a name given with 'called'", () => {
    assert.equal(chosen("The project will try to support the two newest runtime releases."), "support the two newest runtime releases");
    assert.equal(chosen("Our clients will (where possible) use the generated SDK."), "generated SDK");
    assert.equal(chosen("We will allow for the queue to pause when the disk is full."), "allow for queue to pause");
    assert.equal(chosen("Replace the shell wrapper with a binary, named runctl that reads the same flags."), "runctl");
    assert.equal(chosen("This RFC proposes a scheduler that balances load, which is called Tidewater."), "Tidewater");
  });

  test("a short subject with a present-tense choice verb commits; a plural noun, a pronoun or an effect does not", () => {
    assert.equal(chosen("The gateway supports only TLS 1.3 for external traffic."), "supports only TLS 1.3");
    assert.equal(chosen("Instead of padding the ids, the proposed solution hashes the prefix to a fixed length."), "hashes the prefix to a fixed length");
    assert.equal(chosen("Our changes include a new cache."), undefined);
    assert.equal(chosen("Either keeps the team in control of its data."), undefined);
    assert.equal(chosen("Polling keeps the load predictable."), undefined);
  });

  test("an example and a modal inside a subordinate clause commit to nothing", () => {
    assert.equal(chosen("For example, if the newest release is 5, we will support 4 and 5."), undefined);
    assert.equal(chosen("It is unclear when a consumer would need two versions at once."), undefined);
    assert.equal(chosen("Record every schema change in the changelog."), "Record every schema change in the changelog");
  });
});

describe("lists that say things are no options", () => {
  test("a list of statements ('We want …', 'You can …') is not read as options, nor announced by an item of its own", () => {
    const text = `# Use lightweight records

## Context

The project has goals:

- We want to weigh all alternatives and make a considered choice.
- We want to be open about how decisions are made.
- We want to revisit old decisions.

The following list enumerates the ways a plugin can be used:

1. You can call the plugin's functions.
2. You can extend the plugin's protocols.

## Decision

We will write lightweight decision records.
`;
    const m = model("adr-001-records.md", text);
    assert.equal(m.chosen?.name, "write lightweight decision records");
    assert.deepEqual(names(m), []);
  });
});

describe("a list whose items open with a code term", () => {
  test("the terms are the candidates when the decision chooses one of them", () => {
    const text = `# 8. Deleting accounts

## Context

Foreign keys can react to a deleted row in several ways:

* \`block\` is a good fit when a child would be left invalid, for example an invoice without its customer.
* \`clear\` works well when the link is optional and the row can live without it.
* \`purge\` suits rows that mean nothing once their parent is gone, such as a session of a deleted user.

## Decision

Nothing needs deleting yet. We should keep it simple and block on every foreign key.
`;
    const m = model("docs/adr/0008-deleting.md", text);
    assert.deepEqual(names(m), ["block", "clear", "purge"]);
    assert.equal(m.chosen?.considered_index, 0);
  });
});

describe("a decision that opens with a verb the decision vocabulary does not list", () => {
  test("the English model reads 'Increase …', 'Cap …' and 'Shard the …' as commands; 'Overall the …' and a noun subject are not", () => {
    assert.equal(readDecisionSentence("Increase the session timeout to 30 minutes for every tenant.").chosen, "Increase the session timeout to 30 minutes");
    assert.match(readDecisionSentence("Cap the worker pool at 64 threads.").chosen ?? "", /^Cap the worker pool at 64 threads/);
    assert.match(readDecisionSentence("Shard the search index by tenant.").chosen ?? "", /^Shard the search index by tenant/);
    assert.equal(readDecisionSentence("Overall the team agreed it was a good idea.").chosen, undefined);
    assert.equal(readDecisionSentence("Session length is currently ten minutes.").chosen, undefined);
    assert.equal(readDecisionSentence("Currently the pool grows without limit.").chosen, undefined);
  });

  test("a Nygard record whose decision opens with such a verb has that choice", () => {
    const m = model(
      "docs/adr/0009-session-timeout.md",
      `# 9. Session timeout

## Status

Accepted

## Context

Users on slow connections are logged out while they type long forms.

## Decision

Lengthen the session timeout to 30 minutes. Sessions still end when the browser closes.

## Consequences

Idle sessions stay open longer.
`,
    );
    assert.match(m.chosen?.name ?? "", /^Lengthen the session timeout to 30 minutes/);
    assert.deepEqual(m.not_understood, []);
  });
});
