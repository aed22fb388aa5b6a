// A record that weighed an option the question names and chose something else decides the question (issue 21): its
// own choice is offered and recommended, at most "med", and cited to it. A record that weighed none of the named
// options, or one that is only proposed, does not decide this way. Real git repositories, deliberated offline; the
// records are written for these tests.
import { describe, test, before } from "node:test";
import assert from "node:assert/strict";
import { UNDECIDABLE, type OptionPicker } from "../../src/core/schemas";
import { askOffline as ask, recommendedOption as recommended } from "../helpers/ask";
import { createGitRepo } from "../helpers/gitRepo";
import { passedOverOption } from "../../src/core/synth/rules";

function citedPaths(p: OptionPicker): Set<string | undefined> {
  return new Set(recommended(p)?.supports.map((id) => p.citations.find((c) => c.id === id)?.path_or_url));
}

const SHADOWS = "docs/adr/0003-card-shadows.md";
const shadowsAdr = (status: string) => `# 3. Depth cues on dashboard cards

- Status: ${status}
- Date: 2024-05-02

## Context and Problem Statement

Cards on the dashboard blend into the page background on low-contrast screens.

## Considered Options

- Drop shadows under every card
- Hairline borders

## Decision Outcome

Chosen option: "Hairline borders", because they stay crisp on every screen and cost nothing to render.
`;

const QUEUE = "docs/adr/0004-job-queue.md";
const QUEUE_ADR = `# 4. Job queue for report exports

- Status: accepted

## Considered Options

- A table in the main database polled by workers
- A hosted message broker

## Decision Outcome

Chosen option: "A table in the main database polled by workers", because it needs no new service.
`;

describe("a record that weighed a named option and chose another decides the question", () => {
  let repo: string;
  let proposedRepo: string;
  before(() => {
    repo = createGitRepo([{ message: "Card depth", files: { [SHADOWS]: shadowsAdr("accepted"), [QUEUE]: QUEUE_ADR, "README.md": "# Dashboard\n" } }]);
    proposedRepo = createGitRepo([{ message: "Card depth", files: { [SHADOWS]: shadowsAdr("proposed"), [QUEUE]: QUEUE_ADR, "README.md": "# Dashboard\n" } }]);
  });

  test("the record's own choice is offered, recommended at most 'med', and cited", async () => {
    const p = await ask(repo, "Widgets on the home screen look flat. Should we add a soft shadow or a gradient fill to them?");
    assert.notEqual(p.recommendation.option_id, UNDECIDABLE, p.recommendation.rationale);
    assert.match(recommended(p)?.title ?? "", /hairline borders/i, p.options.map((o) => o.title).join(" | "));
    assert.ok(citedPaths(p).has(SHADOWS));
    assert.notEqual(p.recommendation.confidence, "high");
    assert.match(p.recommendation.rationale, /weighed "Drop shadows under every card", which the question names/);
    // The question's own alternatives stay on offer.
    assert.ok(p.options.some((o) => /shadow/i.test(o.title)) && p.options.some((o) => /gradient/i.test(o.title)));
  });

  test("a record that weighed none of the named options does not decide by its choice", async () => {
    const p = await ask(repo, "Widgets on the home screen look flat. Should we add a tinted background or a gradient fill to them?");
    assert.doesNotMatch(p.recommendation.rationale, /which the question names/);
    assert.doesNotMatch(recommended(p)?.title ?? "", /hairline borders/i);
  });

  test("a record that is only proposed does not decide this way", async () => {
    const p = await ask(proposedRepo, "Widgets on the home screen look flat. Should we add a soft shadow or a gradient fill to them?");
    assert.doesNotMatch(p.recommendation.rationale, /which the question names/);
  });
});

describe("which weighed option names an option the question names", () => {
  const meta = {
    considered_options: ["Saving in handlers", "Saving once after the handler returns, in one unit of work"],
    rejected_options: [{ name: "Saving in handlers", range: { start: 8, end: 8 } }],
  };
  const chosen = "Saving once after the handler returns, in one unit of work";

  test("a short weighed option whose every word the long named option says is that option, strictly or not", () => {
    const named = ["Every handler saves its changes explicitly at its end so the write lands where the logic is"];
    assert.equal(passedOverOption(meta, chosen, named, true), "Saving in handlers");
    assert.equal(passedOverOption(meta, chosen, named), "Saving in handlers");
  });

  test("the record's own choice is never the passed-over option", () => {
    assert.equal(passedOverOption({ considered_options: [chosen] }, chosen, ["Save once after the handler returns in one unit of work"]), undefined);
  });

  test("half of a named option's own words match only when not strict; words both named options share do not count", () => {
    const weighedOnly = { considered_options: ["Convert the value to a boolean first", "Ternary expression"] };
    const named = ["Guard the value with a boolean cast", "Guard the value with a double negation"];
    assert.equal(passedOverOption(weighedOnly, "Ternary expression", named), "Convert the value to a boolean first");
    assert.equal(passedOverOption(weighedOnly, "Ternary expression", named, true), undefined);
    // "guard" and "value" are in both named options: they name neither.
    assert.equal(passedOverOption({ considered_options: ["Guard every value", "Ternary expression"] }, "Ternary expression", named), undefined);
  });

  test("a weighed option that shares no word with any named option is none of them", () => {
    assert.equal(passedOverOption(meta, chosen, ["Move the queue to a hosted broker"]), undefined);
  });
});
