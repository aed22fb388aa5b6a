// "high" means the record decides the question and the answer follows it (issue 21). A record whose choice is not one
// of the options it lists, but shares a word with them, has not said which of those options it chose: the answer it
// leads is at most "med". The end-to-end case runs on a real git repository, deliberated offline; the records are
// written for these tests.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { deliberate } from "../../src/core/pipeline";
import { generateSigningKey } from "../../src/core/receipts/signing";
import type { OptionPicker } from "../../src/core/schemas";
import { recordListsOption } from "../../src/core/synth/rules";
import { createGitRepo } from "../helpers/gitRepo";

const key = generateSigningKey();

async function ask(repo: string, question: string): Promise<OptionPicker> {
  const out = await deliberate({ repo, question, signingKey: key, force: true, useCache: false, writeReceipt: false, config: { offline: true } });
  if (out.kind !== "deliberated") throw new Error(`not deliberated: ${out.kind}`);
  return out.payload;
}

const BROKER = "docs/adr/0004-message-broker.md";
const BROKER_ADR = `# 4. Message broker

## Status

Accepted

## Considered Options

- RabbitMQ
- Kafka

## Decision Outcome

Chosen option: "RabbitMQ", because the team already runs it.
`;

describe("'high' needs a choice the record lists as a whole option", () => {
  const loader = {
    considered_options: ["Using ts-node to parse TypeScript configuration files", "Using tsx to parse TypeScript configuration files"],
  };

  test("a choice sharing only a word with the listed options is not one of them", () => {
    assert.equal(recordListsOption(loader, "Add experimental support for TypeScript config files"), false);
  });

  test("a listed option, named in full or by its opening words, is one of them", () => {
    assert.equal(recordListsOption(loader, "Using tsx to parse TypeScript configuration files"), true);
    assert.equal(recordListsOption(loader, "Using tsx"), true);
    assert.equal(recordListsOption({ considered_options: ["RabbitMQ", "Kafka"] }, "Keep RabbitMQ"), true);
  });

  test("a 'Chosen option' line names the choice as the record's own", () => {
    assert.equal(recordListsOption({ ...loader, chosen_option: "Add experimental support" }, "Add experimental support"), true);
  });

  test("a chosen option the record lists stays 'high'", async () => {
    const repo = createGitRepo([{ message: "Broker", files: { [BROKER]: BROKER_ADR, "README.md": "# Orders\n" } }]);
    const p = await ask(repo, "Should we use RabbitMQ or Kafka for order events?");
    const rec = p.options.find((o) => o.id === p.recommendation.option_id);
    assert.equal(rec?.title, "RabbitMQ");
    assert.equal(p.recommendation.confidence, "high");
  });
});
