// "Someone suggested X. Should we do that?": a demonstrative standing for the act the sentence before put forward is
// read as that act (src/core/synth/question/questionText.ts withRestatedProposal).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readQuestion } from "../../src/core/synth/question";
import { withRestatedProposal } from "../../src/core/synth/question/questionText";

describe("a question whose 'that' points back at a proposal", () => {
  test("'suggested we …, since …. Should we wire that in?' proposes the act, without its reason", () => {
    const s = readQuestion("An auditor suggested we forward every outbound email through the shared relay, since it signs messages for us. Should we wire that in for all tenants?");
    assert.equal(s.target?.title, "Forward every outbound email through the shared relay");
    assert.ok(s.target?.terms.includes("shared relay"), JSON.stringify(s.target?.terms));
  });

  test("a gerund proposal ('proposed moving …') keeps its move", () => {
    const s = readQuestion("A colleague proposed moving our cron scripts onto Dagster. Should we do that?");
    assert.match(s.target?.title ?? "", /^Move our cron scripts onto Dagster$/);
  });

  test("'we could …. Is that worth it?' judges the act", () => {
    const s = readQuestion("We could run a warm replica of the search index in the second region. Is that worth it?");
    assert.equal(s.target?.title, "Run a warm replica of the search index in the second region");
  });

  test("a demonstrative that determines a noun is no pointer back", () => {
    const text = "Someone suggested we shard the orders table by customer. Should we do that migration before the sale?";
    assert.equal(withRestatedProposal(text), text);
  });

  test("with nothing put forward before it, the question is left as written", () => {
    const text = "The deploy job takes forty minutes. Should we do that in parallel?";
    assert.equal(withRestatedProposal(text), text);
  });

  test("'build that on top of X' with nothing put forward before it proposes building on X", () => {
    assert.equal(withRestatedProposal("Should we build that on top of the event store?"), "Should we build on top of the event store?");
    assert.equal(readQuestion("Should we build that on top of the event store?").target?.title, "Build on top of the event store");
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

