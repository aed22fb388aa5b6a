// The Critic's weak-grounding score (src/core/critic/signals.ts): support = log2 margin of the deciding record's
// retrieval score over the best other document's + 0.25 × headline words shared with what the question asks; below
// 0.5 the Critic blocks. Each input moves the score as documented, and the objection cites the record and its rival.
// Also the named-product reading (grounding.ts's namesProduct) that decides whether an unweighed proposal blocks.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { applyObjections, critique } from "../../src/core/critic";
import { namesProduct } from "../../src/core/critic/grounding";
import { BLOCKING_KINDS } from "../../src/core/critic/policy";
import { answersNamedChoice, groundingSignals, questionNames, HEADLINE_WORD_WEIGHT, MARGIN_CAP, WEAK_SUPPORT } from "../../src/core/critic/signals";
import type { AdrMeta, DraftPicker, FusedEvidence } from "../../src/core/schemas";

function doc(path: string, score: number, rank: number, meta?: Partial<AdrMeta> & { title: string }): FusedEvidence {
  return {
    id: `ev-${path.replace(/\W/g, "")}`,
    kind: "internal",
    expert: "docs",
    source_type: meta ? "adr" : "architecture",
    path_or_url: path,
    line_range: { start: 1, end: 10 },
    precision_class: "section",
    title: meta?.title ?? path,
    excerpt: "We decided.",
    score,
    rank,
    fused_score: 1 / rank,
    experts: ["docs"],
    ...(meta ? { adr: { path, status: "accepted" as const, supersedes: [], superseded_by: [], considered_options: [], section: "decision", ...meta } } : {}),
  };
}

type Option = DraftPicker["options"][number];

function option(id: string, title: string, supports: string[] = []): Option {
  return { id, title, summary: "s", supports, dissent: [], tradeoffs: [], cost: "low", risk: "low" };
}

function draft(question: string, options: Option[], recommended: string): DraftPicker {
  return {
    question,
    class: "open-question",
    options,
    recommendation: { option_id: recommended, rationale: "r", confidence: "med" },
    citations: [],
    coverage: { internal: 1, external: 0, top_score: 1 },
  };
}

const Q = "How should the nightly export reach the finance team?";
// The record's headline shares no word with what the question asks ("nightly", "export", "finance", "reach").
const pipeline = (score: number) => doc("docs/adr/0004-event-pipeline.md", score, 1, { title: "Event pipeline", number: 4, chosen_option: "Kafka topics" });
const guide = (score: number) => doc("docs/architecture/overview.md", score, 2);
const options = (recordId: string) => [option("opt-kafka", "Kafka topics", [recordId]), option("opt-keep", "Keep the current approach")];

function focusOf(evidence: FusedEvidence[], question = Q) {
  const record = evidence[0];
  const d = draft(question, options(record.id), "opt-kafka");
  return {
    question,
    draft: d,
    evidence,
    rec: d.options[0],
    record: { meta: record.adr!, cite: record, text: `${record.adr!.title}\nWe decided.` },
    terms: new Map([["opt-kafka", ["kafka topics", "kafka"]]]),
  };
}

/** Every weak-tie kind blocks: what the score says, whatever policy.ts makes of each question form. */
const WEAK_KINDS = new Set(["weak-grounding", "weak-grounding/open", "weak-grounding/named-choice"]);

function raised(evidence: FusedEvidence[], question = Q, kinds: ReadonlySet<string> = WEAK_KINDS) {
  const record = evidence[0];
  return critique({ question, draft: draft(question, options(record.id), "opt-kafka"), evidence }, kinds);
}

describe("critic signals: the weak-grounding score", () => {
  test("the margin is log2 of the record's score over the best other document's, within ±2; alone it leads by the cap", () => {
    assert.equal(groundingSignals(focusOf([pipeline(100), guide(50)]))?.margin, 1);
    assert.equal(groundingSignals(focusOf([pipeline(100), guide(100)]))?.margin, 0);
    assert.equal(groundingSignals(focusOf([pipeline(25), guide(100)]))?.margin, -2);
    assert.equal(groundingSignals(focusOf([pipeline(1), guide(100)]))?.margin, -MARGIN_CAP);
    assert.equal(groundingSignals(focusOf([pipeline(100)]))?.margin, MARGIN_CAP);
    assert.equal(groundingSignals(focusOf([pipeline(100), guide(50)]))?.rival?.path_or_url, "docs/architecture/overview.md");
  });

  test("a record it replaced is no rival; commits and other experts' items do not count", () => {
    const old = doc("docs/adr/0002-batch-files.md", 200, 2, { title: "Batch files", number: 2 });
    const successor = { ...pipeline(100), adr: { ...pipeline(100).adr!, supersedes: ["docs/adr/0002-batch-files.md"] } };
    assert.equal(groundingSignals(focusOf([successor, old]))?.margin, MARGIN_CAP);
    assert.equal(groundingSignals(focusOf([pipeline(100), old]))?.margin, -1);
    const commit: FusedEvidence = { ...guide(500), id: "ev-commit", expert: "git", source_type: "commit", commit: "a".repeat(40), path_or_url: "a".repeat(40) };
    assert.equal(groundingSignals(focusOf([pipeline(100), commit]))?.margin, MARGIN_CAP);
  });

  test("a record the documents expert never scored gives no signals (nothing is measured, nothing is claimed)", () => {
    const fromElsewhere = { ...pipeline(100), expert: "git" };
    assert.equal(groundingSignals(focusOf([fromElsewhere, guide(100)])), undefined);
  });

  test("a record that barely leads and shares no headline word with the question: blocking, citing it and its rival", () => {
    const ev = [pipeline(100), guide(90)];
    const blocking = raised(ev).filter((o) => o.severity === "blocking");
    assert.deepEqual(blocking.map((o) => o.check), ["weak-grounding"]);
    assert.match(blocking[0].text, /^ADR 4 "Event pipeline" is weakly tied to this question: it leads docs\/architecture\/overview\.md by only 1\.1× in retrieval score, and its title and options share no word of what the question asks/);
    assert.deepEqual(blocking[0].citations, [ev[0].id, ev[1].id]);
    const applied = applyObjections(draft(Q, options(ev[0].id), "opt-kafka"), blocking, ev);
    assert.equal(applied.recommendation.confidence, "low");
    assert.equal(applied.critic_effect?.action, "lowered");
  });

  test("a record another document outscores says so", () => {
    const blocking = raised([pipeline(50), guide(100)]).filter((o) => o.severity === "blocking");
    assert.match(blocking[0]?.text ?? "", /docs\/architecture\/overview\.md scores 2\.0× higher in retrieval/);
  });

  test("a clear lead is enough: no objection at a margin of 0.5 or more", () => {
    assert.ok(WEAK_SUPPORT <= 0.5);
    assert.deepEqual(raised([pipeline(100), guide(70)]).filter((o) => o.check === "weak-grounding"), []);
    assert.deepEqual(raised([pipeline(100)]).filter((o) => o.check === "weak-grounding"), []);
  });

  test("headline words shared with the question make up for a thin lead: two words (0.5) clear the bar, one does not", () => {
    const exportRecord = (title: string) => doc("docs/adr/0004-event-pipeline.md", 100, 1, { title, number: 4, chosen_option: "Kafka topics" });
    const one = groundingSignals(focusOf([exportRecord("Nightly jobs"), guide(100)]));
    assert.equal(one?.shared.length, 1);
    assert.equal(one?.support, HEADLINE_WORD_WEIGHT);
    assert.equal(raised([exportRecord("Nightly jobs"), guide(100)]).filter((o) => o.check === "weak-grounding").length, 1);
    const two = groundingSignals(focusOf([exportRecord("Nightly finance jobs"), guide(100)]));
    assert.equal(two?.support, 2 * HEADLINE_WORD_WEIGHT);
    assert.deepEqual(raised([exportRecord("Nightly finance jobs"), guide(100)]).filter((o) => o.check === "weak-grounding"), []);
  });

  test("a contradiction found by another grounding check is the one blocking objection; the weak tie is not repeated", () => {
    const other = doc("docs/adr/0007-sftp-drop.md", 200, 1, { title: "SFTP drop for finance", number: 7, chosen_option: "Keep the current approach" });
    const deciding = { ...pipeline(100), rank: 2 };
    const q = "Should the nightly export use Kafka topics or keep the current approach?";
    const kinds = new Set(["outranked/chose-other", "weak-grounding", "weak-grounding/named-choice"]);
    const all = critique({ question: q, draft: draft(q, options(deciding.id), "opt-kafka"), evidence: [other, deciding] }, kinds);
    assert.deepEqual(all.filter((o) => o.severity === "blocking").map((o) => o.check), ["outranked"]);
    assert.deepEqual(all.filter((o) => o.check === "weak-grounding").map((o) => o.severity), ["concern"]);
  });
});

describe("critic signals: a weak tie on a question that names the recommended alternative", () => {
  test("the recommendation is one of two alternatives the question names; an adopt question names one thing only", () => {
    assert.equal(answersNamedChoice("Should the nightly export use Kafka topics or SFTP uploads?", { title: "Kafka topics" }), true);
    assert.equal(answersNamedChoice("Should we move the nightly export from SFTP uploads to Kafka topics?", { title: "Kafka topics" }), true);
    assert.equal(answersNamedChoice("Should the nightly export use Kafka topics or SFTP uploads?", { title: "Write files to a bucket" }), false);
    assert.equal(answersNamedChoice("Should we adopt Kafka topics for the nightly export?", { title: "Kafka topics" }), false);
    assert.equal(answersNamedChoice(Q, { title: "Kafka topics" }), false);
  });

  test("the same thin lead is a finding kind of its own by what the question names; whether it blocks is policy's", () => {
    const weak = (question: string) => raised([pipeline(100), guide(120)], question, BLOCKING_KINDS).filter((o) => o.check === "weak-grounding").map((o) => [o.kind, o.severity]);
    const as = (kind: string) => [kind, BLOCKING_KINDS.has(kind as never) ? "blocking" : "concern"];
    assert.deepEqual(weak("Should the nightly export go out as Kafka topics or as SFTP uploads?"), [as("weak-grounding/named-choice")]);
    assert.deepEqual(weak(Q), [as("weak-grounding/open")]);
    assert.deepEqual(weak("Should the nightly export adopt signed file uploads?"), [as("weak-grounding")]);
    assert.equal(questionNames(Q, { title: "Kafka topics" }), "open");
    assert.equal(questionNames("Should the nightly export adopt signed file uploads?", { title: "Kafka topics" }), "proposal");
  });
});

describe("critic signals: a proposal that names a product", () => {
  test("capitals inside a word, a non-generic acronym, or a capitalised word mid-sentence name a product", () => {
    assert.equal(namesProduct("Should we adopt OpenTelemetry to trace requests?", "OpenTelemetry"), true);
    assert.equal(namesProduct("Should we move to gRPC?", "gRPC"), true);
    assert.equal(namesProduct("Should we add an EVM execution environment?", "EVM execution environment"), true);
    assert.equal(namesProduct("Should we adopt Sentry to collect exceptions?", "Sentry"), true);
  });

  test("descriptions, generic acronyms and a capital that only starts the sentence do not", () => {
    assert.equal(namesProduct("Should we introduce a lookup layer for outbound messages?", "kind of lookup layer"), false);
    assert.equal(namesProduct("Should we adopt calendar-style versions like 2023.02?", "calendar-style versions like 2023.02"), false);
    assert.equal(namesProduct("Should we add a new API for exports?", "new API"), false);
    assert.equal(namesProduct("Caching in front of the store: should we?", "Caching"), false);
    assert.equal(namesProduct("Is it time? Caching could help.", "Caching"), false);
  });
});
