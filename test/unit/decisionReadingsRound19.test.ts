// Readings that say what happens rather than what was chosen: a predicate that reports an effect or a need ("result
// in …", "need two hosts …"), a clause that describes a risk ("old clients could …"), a goal, a pointer to another
// section or a remark on the text's layout is no option, so the model reads another sentence or keeps no chosen
// option. And phrasings that do choose: "X is set to Y", "the simplest option seems to be X", "a convention where …".
// Every record and sentence here is written for these tests.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { parseAdr } from "../../src/core/internal/adr";
import { DecisionRecordSchema, decisionModelOf, readDecisionSentence, type DecisionRecord } from "../../src/core/decisions";
import { isFragment } from "../../src/core/decisions/fragments";
import { namesAValue, statesAGoal } from "../../src/core/decisions/goals";
import { statesAnOutcome } from "../../src/core/decisions/outcomes";

function model(path: string, text: string): DecisionRecord {
  const m = decisionModelOf(parseAdr(path, text));
  DecisionRecordSchema.parse(m);
  return m;
}

describe("outcomes are not choices", () => {
  test("effects, needs and possibilities are outcomes; commitments and names are not", () => {
    for (const p of ["result in two copies of every row", "need two counters to enforce a quota", "happen before the nightly export", "be finished in a later release", "stale replicas could serve old data", "agree on what each log level means", "decide how long backups are kept"]) {
      assert.equal(statesAnOutcome(p), true, p);
    }
    for (const p of ["need to cache the rendered pages", "the old dashboard will be removed", "a worker that could retry failed jobs", "PostgreSQL", "require every service to expose a health check"]) {
      assert.equal(statesAnOutcome(p), false, p);
    }
  });

  const record = (decision: string) =>
    ["# 4. Job retries", "", "## Status", "", "Accepted", "", "## Context", "", "Jobs fail when the mail gateway is slow.", "", "## Decision", "", decision, ""].join("\n");

  test("a decision that only reports an effect keeps no chosen option", () => {
    const m = model("docs/adr/0004-job-retries.md", record("A longer timeout will result in fewer failed jobs overall."));
    assert.ok(!/result in/i.test(m.chosen?.name ?? ""), JSON.stringify(m.chosen));
  });

  test("a decision that says what it needs, not what it does, keeps no chosen option", () => {
    const m = model("docs/adr/0004-job-retries.md", record("In general, we would need two more hosts to absorb the retries."));
    assert.ok(!/need two/i.test(m.chosen?.name ?? ""), JSON.stringify(m.chosen));
  });

  test('"we need to X" still commits to X', () => {
    const m = model("docs/adr/0004-job-retries.md", record("We need to retry failed jobs with exponential backoff."));
    assert.match(m.chosen?.name ?? "", /retry failed jobs/);
  });
});

describe("goals, pointers and layout are not choices", () => {
  test("a sentence that wants an end is a goal; one that wants a means still chooses", () => {
    assert.equal(statesAGoal("We want to reduce the time a release takes."), true);
    assert.equal(statesAGoal("The aim of this change is to simplify onboarding."), true);
    assert.equal(statesAGoal("We want to use SQLite for the local cache."), false);
  });

  const rfc = (summary: string) =>
    ["# Faster releases", "", "## Summary", "", summary, "", "## Motivation", "", "Releases take a whole day.", "", "## Design", "", "See the rollout section below for the steps.", ""].join("\n");

  test("a goal sentence in the summary is not the proposal", () => {
    const m = model("text/0042-faster-releases.md", rfc("We want to reduce the time a release takes to under an hour."));
    assert.ok(!/reduce the time/i.test(m.chosen?.name ?? ""), JSON.stringify(m.chosen));
  });

  test("a bare kind of arrangement names nothing; with its own words it does", () => {
    assert.equal(isFragment("structure"), true);
    assert.equal(isFragment("the standard process"), true);
    assert.equal(isFragment("a trunk-based branching convention"), false);
  });

  test("a pointer to another section names nothing", () => {
    assert.equal(isFragment("See the rollout section below"), true);
    assert.equal(isFragment("Refer to the appendix for the figures"), true);
    assert.equal(isFragment("Seed the cache from the nightly dump"), false);
  });

  test('"X are introduced in the order …" says how the text is laid out', () => {
    assert.equal(readDecisionSentence("Terms are introduced in the order in which the reader meets them.").chosen, undefined);
    assert.equal(readDecisionSentence("A shared retry helper is used across services.").chosen, "shared retry helper");
  });
});

describe("settings, hedged rankings and spelled-out rules", () => {
  test('"X is set to Y" reads Y', () => {
    assert.equal(readDecisionSentence("The queue visibility timeout is set to five minutes.").chosen, "five minutes");
    assert.equal(readDecisionSentence("This is set to change next quarter.").chosen, undefined);
  });

  test('"the simplest option seems to be X" reads X', () => {
    assert.equal(readDecisionSentence("The simplest option seems to be a shared Postgres schema.").chosen, "shared Postgres schema");
  });

  test('"a convention where …" keeps the clause that says what the convention is', () => {
    const r = readDecisionSentence("We decided on a layout convention where every test sits next to the module it covers.");
    assert.match(r.chosen ?? "", /every test sits next to the module/);
    assert.equal(readDecisionSentence("We will cache responses where possible.").chosen, "cache responses");
  });

  test('"the new system intends to use X" commits to X', () => {
    assert.match(readDecisionSentence("The new service intends to use Kafka as its event log.").chosen ?? "", /Kafka as its event log/);
  });
});

describe("values, happenings and pointers at the record's own work", () => {
  test("a quality the record values is no option; the option that serves it is read instead", () => {
    assert.equal(namesAValue("consistency"), true);
    assert.equal(namesAValue("long-term maintainability"), true);
    assert.equal(namesAValue("a consistency checker for replicas"), false);
  });

  test("a subject and a verb of happening is an outcome", () => {
    assert.equal(statesAnOutcome("an error arises and the service stops"), true);
    assert.equal(statesAnOutcome("the nightly import fails on empty files"), true);
    assert.equal(statesAnOutcome("test results dashboard"), false);
  });

  test('"we will proceed with the implementation in X" points at the record\'s own design: its title names it', () => {
    const text = ["# 9. Fee estimation endpoint", "", "## Status", "", "Accepted", "", "## Context", "", "Clients guess fees and often overpay.", "", "## Decision", "", "We will proceed with the implementation in the node repository.", ""].join("\n");
    const m = model("docs/adr/0009-fee-estimation-endpoint.md", text);
    assert.match(m.chosen?.name ?? "", /fee estimation endpoint/i);
  });
});

describe("a proposal named in its heading", () => {
  test('"## Proposal: X" outranks the summary\'s "This RFC proposes …"', () => {
    const text = [
      "# Faster first builds",
      "",
      "## Summary",
      "",
      "This RFC proposes adding a second, quicker code generator to the toolchain.",
      "",
      "## Motivation",
      "",
      "First builds take minutes because the optimising generator is slow.",
      "",
      "## Proposal: Sprint single-pass generator",
      "",
      "Sprint emits code in one pass over the input.",
      "",
    ].join("\n");
    const m = model("accepted/faster-first-builds.md", text);
    assert.match(m.chosen?.name ?? "", /Sprint single-pass generator/);
  });

  test("a purpose that announces a list is not the decision", () => {
    assert.equal(readDecisionSentence("To give each part a clearer home:").chosen, undefined);
    assert.match(readDecisionSentence("To adopt the shared lint preset for every package.").chosen ?? "", /shared lint preset/);
  });
});

describe("a commanding sub-heading that opens the proposal", () => {
  const rfc = (parts: string[]) =>
    ["# Highly available schedulers", "", "## Problem", "", "One scheduler owns each job group, so an outage skips runs.", "", "## Proposal", "", ...parts].join("\n");

  test("the only commanding sub-heading names the proposal", () => {
    const m = model("docs/proposals/scheduler-ha.md", rfc(["### Make the replica count configurable", "", "The count is fixed at one today.", "", "### Storage impact", "", "None.", ""]));
    assert.match(m.chosen?.name ?? "", /replica count configurable/);
  });

  test("several commanding sub-headings are steps: the first is not the whole proposal", () => {
    const m = model("docs/proposals/scheduler-ha.md", rfc(["### Add a lease table", "", "Each scheduler takes a lease.", "", "### Drop the owner column", "", "It is no longer needed.", ""]));
    assert.ok(!/^Add a lease table$/.test(m.chosen?.name ?? ""), JSON.stringify(m.chosen));
  });
});

describe("options laid out under headings inside the proposal", () => {
  test('what "#### Option 1: X" says about X chooses nothing; the recommendation after the options does', () => {
    const text = [
      "# Replace emailed reviews",
      "",
      "## Summary",
      "",
      "Reviews are sent by email and get lost.",
      "",
      "## Proposal",
      "",
      "### Options",
      "",
      "1. Review screen inside the editor app.",
      "2. Separate review service.",
      "3. Mountable review module within the editor.",
      "",
      "#### Option 1: Review screen inside the editor app",
      "",
      "This would build the screen straight into the editor, next to the Separate review service idea.",
      "",
      "#### Option 2: Separate review service",
      "",
      "A separate review service would keep the editor small.",
      "",
      "#### Option 3: Mountable review module within the editor",
      "",
      "A mountable module reuses the editor's code.",
      "",
      "### Recommendation",
      "",
      "We lean towards option 3 (the mountable module).",
      "",
    ].join("\n");
    const m = model("rfc-201-replace-emailed-reviews.md", text);
    assert.match(m.chosen?.name ?? "", /Mountable review module/);
  });
});
