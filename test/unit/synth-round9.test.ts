// Answers on records the rules had never seen (ninth session, issue 21): a proposal the record weighed under a name
// of its own and did not take; a proposal that is the opposite of what the record chose ("immutable" against
// "mutability"); an option named by its long form where the record uses the acronym it defines; a rejected record
// that names what it took instead; "over SSE" as the channel a choice runs on; and a status
// line left as the template's menu ("Accepted or Rejected"), which is no rejection. Real git repositories,
// deliberated offline; every record here is written for these tests.
import { describe, test, before } from "node:test";
import assert from "node:assert/strict";
import { acronymsDefined, oppositeOfChoice } from "../../src/core/synth/rules";
import { normaliseStatus, parseAdr } from "../../src/core/internal/adr";
import { decisionModelOf } from "../../src/core/decisions";
import { overAChannel } from "../../src/core/channels";
import type { OptionPicker } from "../../src/core/schemas";
import { createGitRepo } from "../helpers/gitRepo";
import { askOffline, recommendedOption } from "../helpers/ask";

const ask = askOffline;

const recommended = recommendedOption;

function titles(p: OptionPicker): string {
  return p.options.map((o) => o.title).join(" | ");
}

const CONFIG = "docs/adr/adr003-settings-format.md";
const CONFIG_ADR = `# ADR003: How service settings are declared

## Status

accepted

## Context

Settings can be declared in two ways: Code First, as typed classes the settings file is generated from, or File First,
where the YAML file is written by hand and the classes are generated from it.

## Considered Options

- Code First
- File First

## Decision

We are using the Code First approach: the typed classes are the source of truth and the YAML file is generated.

## Consequences

Renaming a setting is a refactoring, not a search through YAML.
`;

const TOKENS = "docs/adr/adr004-api-keys.md";
const TOKENS_ADR = `# ADR004: Make gateway API keys mutable

## Status

accepted

## Context

Each gateway API key keeps its secret for life. This is called key immutability, and it is a feature of the gateway
that we have enabled: immutability is usually a desirable property, since a key can never change under a client.

Partners asked to rotate a leaked key without changing their configuration, which key immutability does not allow.

## Decision

We have decided to enable key mutability for the gateway API keys we issue.

## Consequences

Audit logs must record each rotation.
`;

const PUSH = "docs/adr/adr005-live-updates.md";
const PUSH_ADR = `# ADR005: Live board updates over SSE

## Status

accepted

## Context

The board must show new tickets without a reload. Updates could be pushed over WebSockets, with a socket library
on both ends, or with Server-sent events (SSE), which only the browser's EventSource needs.

## Decision

We push board updates over SSE. WebSockets would give us a channel back to the server that we do not need, and
WebSockets bypass the request pipeline where our guards run.

## Consequences

Browsers allow a few open connections per host.
`;

const MENU = "docs/adr/adr006-use-pagerbell.md";
const MENU_ADR = `# ADR006: Use PagerBell for out-of-hours alerts

## Status

> Accepted or Rejected

## Context

Nobody is woken when the service fails at night, and we need a rota with escalation.

## Decision

We have decided to pay for the PagerBell service for on-call rotas and phone alerts.

## Consequences

We depend on PagerBell being up to hear about our own failures.
`;

const TRIAL = "docs/adr/adr007-try-elixir-for-the-notifier.md";
const TRIAL_ADR = `# ADR007: Try Elixir for the notifier

## Status

Rejected

## Context

The notifier fans out messages to many subscribers. A spike rewrote it in Elixir to see whether the BEAM's
processes would make that simpler than our Kotlin code.

## Decision

We will not rewrite the notifier in Elixir and have instead opted for Kotlin coroutines, which the team already knows.

## Consequences

Nobody has to learn a second language to be on call for the notifier.
`;

describe("answers on records the rules had never seen", () => {
  let repo: string;
  before(() => {
    repo = createGitRepo([
      { message: "Settings", files: { [CONFIG]: CONFIG_ADR, "README.md": "# Service\n" } },
      { message: "Keys", files: { [TOKENS]: TOKENS_ADR } },
      { message: "Live updates", files: { [PUSH]: PUSH_ADR } },
      { message: "Alerts", files: { [MENU]: MENU_ADR } },
      { message: "Notifier trial", files: { [TRIAL]: TRIAL_ADR } },
    ]);
  });

  test("a rejected record that names what it took instead decides: that choice is offered by name and recommended", async () => {
    const p = await ask(repo, "The notifier struggles with thousands of subscribers. Should we rewrite the notifier in Elixir?");
    assert.match(recommended(p)?.title ?? "", /Kotlin coroutines/, titles(p));
    assert.ok(recommended(p)?.supports.some((id) => p.citations.find((c) => c.id === id)?.path_or_url === TRIAL));
    assert.match(p.recommendation.rationale, /own proposal was rejected/);
  });

  test("a proposal the record weighed under its own name ('File First') is not its choice: the chosen option is offered and recommended", async () => {
    const p = await ask(repo, "Should we write the YAML settings file by hand first, and generate the typed classes from it?");
    assert.match(recommended(p)?.title ?? "", /Code First/i, titles(p));
    assert.ok(recommended(p)?.supports.some((id) => p.citations.find((c) => c.id === id)?.path_or_url === CONFIG));
  });

  test("a proposal that is the opposite of the record's choice is not recommended", async () => {
    const p = await ask(repo, "A security review said issued keys should never be overwritten. Should we make the gateway API keys immutable?");
    assert.doesNotMatch(recommended(p)?.title ?? "", /immutable/i, titles(p));
  });

  test("an alternative named by its long form finds the acronym the record chose", async () => {
    const p = await ask(repo, "Should live board updates reach the browser over WebSockets or with server-sent events?");
    assert.match(recommended(p)?.title ?? "", /server-sent/i, titles(p));
  });

  test("a status line left as the template's menu is no rejection: the record still answers", async () => {
    const p = await ask(repo, "Nobody gets woken when the service fails at night. Should we pay for PagerBell for on-call rotas and alerts?");
    assert.match(recommended(p)?.title ?? "", /PagerBell/, titles(p));
    assert.notEqual(p.recommendation.option_id, "undecidable-on-current-evidence");
  });
});

describe("readings behind them", () => {
  test("a record's acronyms are read with their long forms", () => {
    const found = acronymsDefined("Pushed with Server-sent events (SSE), keys in a Key Management Service (KMS), and the records (ADRs).");
    assert.equal(found.get("SSE"), "Server-sent events");
    assert.equal(found.get("KMS"), "Key Management Service");
    assert.equal(found.has("ADR"), false);
  });

  test("an option with a negating prefix is the opposite of a choice on the same root, and only then", () => {
    assert.equal(oppositeOfChoice("enable tag mutability", "Make the image tags in ECR immutable"), true);
    assert.equal(oppositeOfChoice("Encrypt the exports at rest", "Keep the exports unencrypted"), true);
    assert.equal(oppositeOfChoice("Use the JSON format", "Store information in a table"), false);
    assert.equal(oppositeOfChoice("enable tag mutability", "Make image tags mutable"), false);
    assert.equal(oppositeOfChoice(undefined, "Make the image tags immutable"), false);
  });

  test("a template's menu of statuses is no status; a history of statuses still is", () => {
    assert.equal(normaliseStatus("> Accepted or Rejected"), "unknown");
    assert.equal(normaliseStatus("Proposed / Accepted / Deprecated"), "unknown");
    assert.equal(normaliseStatus("Rejected"), "rejected");
    assert.equal(normaliseStatus("Proposed, Accepted"), "accepted");
    const m = decisionModelOf(parseAdr(MENU, MENU_ADR));
    assert.equal(m.status, "unknown");
    assert.match(m.status_display, /unrecognised status/);
  });

  test("'over' a channel stays in the chosen phrase; 'over' a rival does not", () => {
    assert.equal(overAChannel("SSE"), true);
    assert.equal(overAChannel("the", "network"), true);
    assert.equal(overAChannel("MySQL"), false);
    const m = decisionModelOf(parseAdr(PUSH, PUSH_ADR));
    assert.match(m.chosen?.name ?? "", /over SSE$/);
  });
});
