// The record retrieval ranked first speaks first (issue 21): when it is on the question's topic and states a choice,
// a lower-ranked record that shares a stray word with one of the named options does not decide over it; the first
// record's own choice becomes an option and decides. The records here are written for these tests.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { synthesizeWithRules } from "../../src/core/synth/rules";
import { DraftPickerSchema, type AdrMeta, type FusedEvidence, type StageStatus } from "../../src/core/schemas";
import { adrSectionMaker } from "../helpers/adrSection";

const OK: StageStatus = { status: "ok", count: 1, ms: 1 };
const EMPTY: StageStatus = { status: "empty", count: 0, ms: 1, reason: "offline" };

const section = adrSectionMaker("ev-first");

/** The rules synthesizer's answer, retrieval's order being the order given. */
function answer(question: string, ranked: FusedEvidence[]) {
  const evidence = ranked.map((e, i) => ({ ...e, rank: i + 1 }));
  const out = synthesizeWithRules({ question, classification: { class: "open-question", confidence: 0.9, reasons: [] }, evidence, stages: { internal: OK, external: EMPTY }, configVersion: "test" });
  DraftPickerSchema.parse(out.draft);
  const draft = out.draft;
  const picked = draft.options.find((o) => o.id === draft.recommendation.option_id);
  const cited = new Map(draft.citations.map((c) => [c.id, c.path_or_url]));
  return { title: picked?.title ?? draft.recommendation.option_id, cites: (picked?.supports ?? []).map((id) => cited.get(id)) };
}

describe("the first-ranked record speaks first", () => {
  const CACHE = "docs/adr/0031-package-cache.md";
  const BLOBS = "docs/adr/0012-blob-storage.md";
  const QUESTION = "Should our npm package cache keep running on the office file server, or should we put it on Azure?";
  const cacheRecord = (decision: string, chosen: string) =>
    section(CACHE, "Package cache", "Decision", `## Decision\n\n${decision}`, {
      decided_option: { name: chosen, range: { start: 5, end: 5 } },
      subject: "Package cache",
      considered_options: ["Keep the office file server", "Azure Artifacts", chosen],
    });
  const blobs = section(BLOBS, "Blob storage for build artifacts", "Decision", "## Decision\n\nChosen option: the Azure Blob SDK, because the artifacts already live in Azure storage accounts.", {
    chosen_option: "the Azure Blob SDK",
    considered_options: ["the Azure Blob SDK", "a mounted network share"],
    decided_option: { name: "the Azure Blob SDK", range: { start: 5, end: 5 } },
  });

  test("a lower-ranked record sharing a stray word with an option does not decide over the first record's own choice", () => {
    const got = answer(QUESTION, [cacheRecord("We will run Verdaccio on dedicated build machines.", "Verdaccio on dedicated build machines"), blobs]);
    assert.match(got.title, /Verdaccio/);
    assert.deepEqual(got.cites, [CACHE]);
  });

  test("a lower-ranked record still decides when the first record states no choice of its own", () => {
    const silent = section(CACHE, "Package cache", "Context", "## Context\n\nThe package cache runs on the office file server today.", { subject: "Package cache" });
    const got = answer(QUESTION, [silent, blobs]);
    assert.equal(got.title, "Put it on Azure");
    assert.deepEqual(got.cites, [BLOBS]);
  });
});

describe("the first record both rankings agree on may decide", () => {
  const LAYOUT = "docs/adr/0007-partition-strategy.md";
  const QUESTION = "How should we arrange prefixes in the raw bucket so queries read less: team and dataset first with load-date folders underneath, or by date first?";
  // Its headline ("Partition strategy") shares no word with the question; its decision is a path template.
  const layout = (plainRank?: number) => ({
    ...section(LAYOUT, "Partition strategy", "Decision", "## Decision\n\nFolder structure: `{team/service}/{dataset-name}/load_year={load-year}`", {
      decided_option: { name: "Folder structure: {team/service}/{dataset-name}/load_year={load-year}", range: { start: 5, end: 5 } },
    }),
    ...(plainRank ? { plain_rank: plainRank } : {}),
  });

  test("a first-ranked record that the plain view also ranks first decides", () => {
    const got = answer(QUESTION, [layout(1)]);
    assert.match(got.title, /team and dataset first/i);
    assert.deepEqual(got.cites, [LAYOUT]);
  });

  test("without the plain view's agreement, a record that shares no word with the question does not decide", () => {
    const got = answer(QUESTION, [layout()]);
    assert.doesNotMatch(got.title, /team and dataset first/i);
  });
});

describe("how sure an answer naming a third option may be", () => {
  const FEED = "docs/adr/0005-change-feed.md";
  const QUESTION = "Should we stand up Kafka so the VM service publishes each update and consumers subscribe to it?";
  const feed = (meta: Partial<AdrMeta>) =>
    ({
      ...section(FEED, "Change feed for VM updates", "Decision", "## Decision\n\nWe weighed Kafka and RabbitMQ. Each API will expose a change feed that consumers subscribe to.", {
        considered_options: ["Kafka", "RabbitMQ"],
        decided_option: { name: "Each API will expose a change feed", range: { start: 5, end: 5 } },
        ...meta,
      }),
      plain_rank: 1,
    }) as FusedEvidence;
  const level = (ranked: FusedEvidence[]) => {
    const out = synthesizeWithRules({ question: QUESTION, classification: { class: "open-question", confidence: 0.9, reasons: [] }, evidence: ranked, stages: { internal: OK, external: EMPTY }, configVersion: "test" });
    return { confidence: out.draft.recommendation.confidence, title: out.draft.options.find((o) => o.id === out.draft.recommendation.option_id)?.title ?? "" };
  };

  test("a choice read from the record's prose, which the question never named, is not 'high'", () => {
    const got = level([feed({})]);
    assert.match(got.title, /change feed/i);
    assert.equal(got.confidence, "med");
  });

  test("the same choice on a 'Chosen option' line may be 'high'", () => {
    const got = level([feed({ chosen_option: "Each API will expose a change feed" })]);
    assert.match(got.title, /change feed/i);
    assert.equal(got.confidence, "high");
  });
});
