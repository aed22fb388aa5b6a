// Round 35 of the rules synthesizer: a word read from a record's prose titles an option only when it reads as a name.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readQuestion } from "../../src/core/synth/question";
import { synthesizeWithRules } from "../../src/core/synth/rules";
import { DraftPickerSchema, type AdrMeta, type FusedEvidence, type StageStatus } from "../../src/core/schemas";
import { adrSectionMaker } from "../helpers/adrSection";

const OK: StageStatus = { status: "ok", count: 1, ms: 1 };
const EMPTY: StageStatus = { status: "empty", count: 0, ms: 1, reason: "offline" };
const classification = { class: "open-question" as const, confidence: 0.9, reasons: [] };
const adrSection = adrSectionMaker("ev-r35-");
const adr = (path: string, title: string, section: string, excerpt: string, meta: Partial<AdrMeta> = {}): FusedEvidence => adrSection(path, title, section, excerpt, meta);

function optionTitles(question: string, evidence: FusedEvidence[]): string[] {
  const draft = synthesizeWithRules({ question, classification, evidence, stages: { internal: OK, external: EMPTY }, configVersion: "test" }).draft;
  DraftPickerSchema.parse(draft);
  return draft.options.map((o) => o.title);
}

describe("what a record chose is named by a name, not by a common word of its clause", () => {
  test("the head of a clause ('command that changes …') does not become 'Keep command'", () => {
    const path = "docs/adr/0009-commands-and-queries.md";
    const evidence = [
      adr(path, "Commands and queries for the server", "Decision", "## Decision\n\nEvery command that changes the state of the system goes through one service method; queries read views shaped for the screens.", {
        decided_option: { name: "command that changes the state of the system", range: { start: 3, end: 3 } },
      }),
    ];
    const titles = optionTitles("Should we adopt Drizzle as the query layer for the server?", evidence);
    assert.ok(titles.includes("Adopt Drizzle"), titles.join(" | "));
    assert.ok(!titles.some((t) => /^Keep command$/i.test(t)), titles.join(" | "));
  });

  test("a single capitalised word the record only writes at a heading is no name; one it writes inside a sentence is", () => {
    const heading = "docs/adr/0003-sharded-notifier.md";
    const asHeading = [
      adr(heading, "Sharded notifier", "Conclusion", "## Conclusion\n\nArchitecture\n\nUnder these proposals the notifier replicas each serve a part of the tenants and hand state over on a ring change.", {
        decided_option: { name: "Architecture", range: { start: 3, end: 3 } },
      }),
    ];
    const first = optionTitles("Should we move the notifier onto a queue with one consumer per tenant?", asHeading);
    assert.ok(!first.includes("Keep Architecture"), first.join(" | "));

    const named = "docs/adr/0005-code-formatting.md";
    const inSentence = [
      adr(named, "Code formatting", "Decision", "## Decision\n\nWe format every Python file with Black, run from the pre-commit hook, and do not argue about style in review.", {
        decided_option: { name: "Black", range: { start: 3, end: 3 } },
      }),
    ];
    const second = optionTitles("Should we switch the project's formatter to YAPF with a style file of our own?", inSentence);
    assert.ok(second.includes("Keep Black"), second.join(" | "));
  });
});

describe("an alternative that says the subject's head noun again", () => {
  test("'or limit 5' after 'should the retry limit be 3' is the other value of the limit, not a verb", () => {
    const read = readQuestion("Should the retry limit be 3 so that flaky calls recover on their own, or limit 5?");
    assert.deepEqual(read.alternatives.map((a) => a.title), ["The retry limit is 3 so that flaky calls recover on their own", "The retry limit is 5"]);
  });
});

describe("a decision that endorses the proposal's tool for something else", () => {
  test("the sentence about what the proposal does names another tool: the proposal is not what the record chose", () => {
    const path = "docs/adr/0011-release-pipelines.md";
    const evidence = [
      adr(path, "Using BuildFarm for releases", "Decision", "## Decision\n\nKeep running the unit tests on Jenkins. BuildFarm will build the container images and deploy them into every environment after each merge.", {
        decided_option: { name: "BuildFarm", range: { start: 3, end: 3 } },
      }),
    ];
    const draft = synthesizeWithRules({
      question: "Our tests already run on Jenkins. Should we let Jenkins build the container images and deploy them into staging and production?",
      classification, evidence, stages: { internal: OK, external: EMPTY }, configVersion: "test",
    }).draft;
    const picked = draft.options.find((o) => o.id === draft.recommendation.option_id)?.title ?? "";
    assert.match(picked, /BuildFarm/, draft.options.map((o) => o.title).join(" | "));
  });
});

describe("a record whose choice is a change", () => {
  test("'Rename X to Y' chose Y, though its words name X as well", () => {
    const path = "docs/adr/0070-retry-budgets.md";
    const title = "Rename client retry Tokens to Retry Budgets";
    const evidence = [
      adr(path, title, "Decision", "## Decision\n\nThe client retry tokens introduced last year are renamed: from now on the API calls them retry budgets, with the method Budget() in place of GetToken().", {
        decided_option: { name: title, range: { start: 1, end: 1 } },
      }),
    ];
    const draft = synthesizeWithRules({
      question: "A client object that caps retries across calls: do we call it a retry token (GetToken) or a retry budget (Budget)?",
      classification, evidence, stages: { internal: OK, external: EMPTY }, configVersion: "test",
    }).draft;
    const picked = draft.options.find((o) => o.id === draft.recommendation.option_id)?.title ?? "";
    assert.match(picked, /budget/i, draft.options.map((o) => o.title).join(" | "));
  });
});
