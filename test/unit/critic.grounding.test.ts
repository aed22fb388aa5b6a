// The Critic's grounding checks (src/core/critic/grounding.ts): does the recommendation rest on the record that
// decides the question? A real-git deliberation whose deciding record never weighed the product the question proposes
// gets a blocking objection that lowers the confidence; when the record weighed it, none. Then each check on
// hand-built evidence, firing (blocking or as a concern) and staying quiet. The weak-grounding score has its own file
// (critic.signals.test.ts).
// These tests read the checks under the units that blocked before the odds of doubt (policy.ts UNITS_BEFORE_DOUBTS);
// critic-doubts.test.ts tests the odds.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { applyObjections, critique, findings } from "../../src/core/critic";
import { DOUBTS, UNITS_BEFORE_DOUBTS } from "../../src/core/critic/policy";
import { deliberate } from "../../src/core/pipeline";
import { generateSigningKey } from "../../src/core/receipts/signing";
import type { AdrMeta, DraftPicker, FusedEvidence } from "../../src/core/schemas";
import { createGitRepo } from "../helpers/gitRepo";

const key = generateSigningKey();

function docsRepo(markdownRecord: string): string {
  return createGitRepo([
    {
      message: "init",
      files: {
        "docs/adr/0001-use-markdown-for-docs.md": markdownRecord,
        "docs/adr/0002-use-postgresql.md":
          "# 2. Use PostgreSQL for orders\n\nStatus: accepted\n\n## Context\n\nOrders need transactions.\n\n## Decision\n\nWe will store orders in PostgreSQL.\n",
        "README.md": "# shop\n",
      },
    },
  ]);
}

const MARKDOWN_ONLY =
  "# 1. Use Markdown for the user documentation\n\nStatus: accepted\n\n## Context\n\nThe user guide lives in the repository and is rendered by the site generator.\n\n" +
  "## Decision\n\nWe will write the user documentation in Markdown.\n\n## Consequences\n\nEveryone can edit it in a pull request.\n";
const WEIGHED_ASCIIDOC =
  "# 1. Use Markdown for the user documentation\n\nStatus: accepted\n\n## Context\n\nThe user guide lives in the repository. We compared Markdown with AsciiDoc: " +
  "AsciiDoc has richer tables, but fewer people know it.\n\n## Decision\n\nWe will write the user documentation in Markdown.\n";
const QUESTION = "Should we adopt AsciiDoc for the user documentation?";

describe("critic grounding: a record that never weighed the question's proposal (real git)", () => {
  test("no record names AsciiDoc, the deciding one included: found, citing the record, and it blocks (round 34: no record here weighed it)", async () => {
    const out = await deliberate({ repo: docsRepo(MARKDOWN_ONLY), question: QUESTION, signingKey: key, useCache: false, writeReceipt: false });
    assert.equal(out.kind, "deliberated");
    if (out.kind !== "deliberated") return;
    const p = out.payload;
    const rec = p.options.find((o) => o.id === p.recommendation.option_id);
    assert.match(rec?.title ?? "", /Markdown/);
    const objection = (p.objections ?? []).find((o) => o.text.startsWith("The question proposes AsciiDoc"));
    assert.ok(objection, JSON.stringify(p.objections));
    // Nothing retrieved naming it at all weighs heavily in the odds of doubt (policy.ts's DOUBTS): on this answer it
    // reaches the bar and, as the strongest finding, blocks; the record merely not naming it weighs less.
    assert.ok((DOUBTS.ratio["unweighed-proposal/unknown-product"] ?? 1) > (DOUBTS.ratio["unweighed-proposal/product"] ?? 1));
    assert.equal(objection.severity, "blocking");
    assert.match(objection.text, /which no retrieved record mentions, ADR 1 "Use Markdown for the user documentation" included/);
    const cited = objection.citations.map((id) => p.citations.find((c) => c.id === id));
    assert.ok(cited.length > 0 && cited.every((c) => c?.path_or_url === "docs/adr/0001-use-markdown-for-docs.md"), JSON.stringify(cited));
    assert.match(p.recommendation.rationale, /The Critic objects: The question proposes AsciiDoc/);
    assert.equal(out.receipt.stages.critic.status, "ok");
  });

  test("the record weighed AsciiDoc and turned it down: no grounding objection", async () => {
    const out = await deliberate({ repo: docsRepo(WEIGHED_ASCIIDOC), question: QUESTION, signingKey: key, useCache: false, writeReceipt: false });
    assert.equal(out.kind, "deliberated");
    if (out.kind !== "deliberated") return;
    assert.ok(!(out.payload.objections ?? []).some((o) => o.severity === "blocking"), JSON.stringify(out.payload.objections));
  });

  test("rulesCritic: false answers without the Critic (the eval's DELIBERATIVE_CRITIC=off)", async () => {
    const out = await deliberate({ repo: docsRepo(MARKDOWN_ONLY), question: QUESTION, signingKey: key, useCache: false, writeReceipt: false, rulesCritic: false });
    assert.equal(out.kind, "deliberated");
    if (out.kind !== "deliberated") return;
    assert.deepEqual(out.payload.objections ?? [], []);
    assert.doesNotMatch(out.payload.recommendation.rationale, /The Critic objects/);
  });
});

// ---------------------------------------------------------------------------------------------------------
// Each check on hand-built evidence

/** A record section; its retrieval score falls with its rank (100 at rank 1) so records far apart in rank are far apart in score. */
function record(meta: Partial<AdrMeta> & { path: string; title: string }, rank: number, excerpt = "We decided."): FusedEvidence {
  return {
    id: `ev-${meta.path.replace(/\W/g, "")}`,
    kind: "internal",
    expert: "docs",
    source_type: "adr",
    path_or_url: meta.path,
    line_range: { start: 1, end: 10 },
    precision_class: "section",
    title: meta.title,
    excerpt,
    score: 100 / rank,
    rank,
    fused_score: 1,
    experts: ["docs"],
    adr: { status: "accepted", supersedes: [], superseded_by: [], considered_options: [], section: "decision", ...meta },
  };
}

type Option = DraftPicker["options"][number];

function option(id: string, title: string, supports: string[] = []): Option {
  return { id, title, summary: "s", supports, dissent: [], tradeoffs: [], cost: "low", risk: "low" };
}

function draft(question: string, options: Option[], recommended: string, rationale: string, evidence: FusedEvidence[]): DraftPicker {
  const cited = new Set(options.flatMap((o) => o.supports));
  return {
    question,
    class: "open-question",
    options,
    recommendation: { option_id: recommended, rationale, confidence: "med" },
    citations: evidence.filter((e) => cited.has(e.id)).map((e) => ({ id: e.id, kind: e.kind, path_or_url: e.path_or_url, precision_class: e.precision_class, excerpt: e.excerpt })),
    coverage: { internal: evidence.length, external: 0, top_score: 1 },
  };
}

/** The blocking objections, under UNITS_BEFORE_DOUBTS unless another set of blocking kinds is given (no odds of doubt). */
function blocking(question: string, d: DraftPicker, evidence: FusedEvidence[], texts: Record<string, string> = {}, kinds: ReadonlySet<string> = UNITS_BEFORE_DOUBTS) {
  return critique({ question, draft: d, evidence, recordText: (p) => texts[p] }, kinds, null).filter((o) => o.severity === "blocking");
}

function concerns(question: string, d: DraftPicker, evidence: FusedEvidence[], texts: Record<string, string> = {}) {
  return critique({ question, draft: d, evidence, recordText: (p) => texts[p] }, UNITS_BEFORE_DOUBTS, null).filter((o) => o.severity === "concern");
}

/** The checks among objections, leaving out the weak-grounding score (tested in critic.signals.test.ts). */
function checksOf(raised: { check: string }[]): string[] {
  return raised.map((o) => o.check).filter((c) => c !== "weak-grounding");
}

describe("critic grounding: outranked", () => {
  const Q = "Should the dispatcher stay an actor or become a plain class?";
  const top = record({ path: "docs/adr/0005-plain-dispatcher.md", title: "Make the dispatcher a plain class", number: 5, chosen_option: "Become a plain class" }, 1);
  const deep = record({ path: "docs/adr/0002-cache-zlayer.md", title: "Move the cache manager to ZLayer", number: 2, chosen_option: "Keep the actor" }, 9);
  const options = [option("opt-actor", "Keep the actor", [deep.id]), option("opt-plain", "Become a plain class", [])];

  test("a better-ranked in-force record that chose another option, not replaced by the deciding one: found; a concern unless its kind blocks", () => {
    const d = draft(Q, options, "opt-actor", 'ADR 2 "Move the cache manager to ZLayer" decided this question.', [top, deep]);
    // The dev fit never saw it on enough wrong answers to make it block (policy.ts).
    assert.deepEqual(checksOf(blocking(Q, d, [top, deep])), []);
    assert.deepEqual(concerns(Q, d, [top, deep]).filter((o) => o.check === "outranked").map((o) => o.kind), ["outranked/chose-other"]);
    const raised = blocking(Q, d, [top, deep], {}, new Set(["outranked/chose-other"]));
    assert.deepEqual(raised.map((o) => o.check), ["outranked"]);
    assert.match(raised[0].text, /^ADR 5 "Make the dispatcher a plain class" \(accepted\) ranks above ADR 2 .* chose "Become a plain class"/);
    assert.deepEqual(raised[0].citations, [top.id, deep.id]);
    assert.equal(raised[0].effect, "lower");
  });

  test("not when the deciding record supersedes it, or when it is superseded, proposed or tied in rank", () => {
    const all = new Set(["outranked/chose-other", "outranked/trails"]);
    const successor = { ...deep, adr: { ...deep.adr!, supersedes: [top.path_or_url] } };
    assert.deepEqual(checksOf(blocking(Q, draft(Q, options, "opt-actor", "r", [top, successor]), [top, successor], {}, all)), []);
    for (const status of ["superseded", "proposed"] as const) {
      const old = { ...top, adr: { ...top.adr!, status } };
      assert.deepEqual(checksOf(blocking(Q, draft(Q, options, "opt-actor", "r", [old, deep]), [old, deep], {}, all)), [], status);
    }
    const tied = { ...top, rank: deep.rank };
    assert.deepEqual(checksOf(blocking(Q, draft(Q, options, "opt-actor", "r", [tied, deep]), [tied, deep], {}, all)), []);
  });

  test("two other records ranked above it: found (it is only the 3rd record on the question); one is not", () => {
    const a = record({ path: "docs/adr/0007-responders.md", title: "Port the responders to ZIO", number: 7 }, 1);
    const b = record({ path: "docs/adr/0009-api-v3.md", title: "API v3", number: 9 }, 3);
    const ev = [a, b, deep];
    const d = draft(Q, options, "opt-actor", "r", ev);
    // The dev fit no longer makes it block: the plain view below says the same more tellingly (policy.ts).
    assert.deepEqual(concerns(Q, d, ev, {}).filter((o) => o.check === "outranked").map((o) => o.kind), ["outranked/trails"]);
    const raised = blocking(Q, d, ev, {}, new Set(["outranked/trails"])).filter((o) => o.check === "outranked");
    assert.equal(raised[0]?.kind, "outranked/trails");
    assert.equal(raised[0]?.effect, "lower");
    assert.equal(raised.length, 1);
    assert.match(raised[0].text, /is only the 3rd record retrieval ranked on this question \(ADR 7 "Port the responders to ZIO", ADR 9 "API v3" rank above it\)/);
    assert.deepEqual(checksOf(critique({ question: Q, draft: draft(Q, options, "opt-actor", "r", [a, deep]), evidence: [a, deep] }, UNITS_BEFORE_DOUBTS, null)).filter((c) => c === "outranked"), []);
  });
});

describe("critic grounding: the plain view of the question puts another record first", () => {
  const Q = "How should the exporter hand rows back to its callers?";
  const timestamps = record({ path: "docs/adr/0004-timestamps.md", title: "Add creation timestamps", number: 4, chosen_option: "Add timestamps" }, 1);
  const streaming = record({ path: "docs/adr/0006-streaming.md", title: "Stream query results", number: 6, chosen_option: "Stream the rows" }, 2);
  const at = (e: FusedEvidence, plain_rank: number): FusedEvidence => ({ ...e, plain_rank });
  const options = [option("opt-ts", "Add timestamps", [timestamps.id]), option("opt-keep", "Keep the current approach")];
  const low = (ev: FusedEvidence[]): DraftPicker => {
    const d = draft(Q, options, "opt-ts", 'ADR 4 "Add creation timestamps" is the nearest record.', ev);
    return { ...d, recommendation: { ...d.recommendation, confidence: "low" } };
  };
  const plainOf = (d: DraftPicker, ev: FusedEvidence[]) => findings({ question: Q, draft: d, evidence: ev }).filter((f) => f.kind.startsWith("outranked/plain-view"));

  test("on a low-confidence answer: blocking, naming and citing the record the plain view puts first", () => {
    const ev = [at(timestamps, 2), at(streaming, 1)];
    const raised = blocking(Q, low(ev), ev).filter((o) => o.check === "outranked");
    assert.equal(raised.length, 1, JSON.stringify(raised));
    assert.equal(raised[0].kind, "outranked/plain-view");
    assert.match(raised[0].text, /^Read word for word over every record, the question matches ADR 6 "Stream query results" better than ADR 4 "Add creation timestamps"/);
    assert.deepEqual(raised[0].citations, [streaming.id, timestamps.id]);
    assert.ok(UNITS_BEFORE_DOUBTS.has("outranked/plain-view"));
  });

  test("on a surer answer it is a kind of its own, a concern", () => {
    const ev = [at(timestamps, 2), at(streaming, 1)];
    const d = draft(Q, options, "opt-ts", "r", ev);
    assert.deepEqual(plainOf(d, ev).map((f) => f.kind), ["outranked/plain-view-confident"]);
    assert.ok(!UNITS_BEFORE_DOUBTS.has("outranked/plain-view-confident"));
  });

  test("quiet when the plain view agrees, when the record above is one the deciding record replaced, or when no item carries a plain rank", () => {
    const agree = [at(timestamps, 1), at(streaming, 2)];
    assert.deepEqual(plainOf(low(agree), agree), []);
    const older = { ...at(streaming, 1), adr: { ...streaming.adr!, superseded_by: [timestamps.path_or_url] } };
    assert.deepEqual(plainOf(low([at(timestamps, 2), older]), [at(timestamps, 2), older]), []);
    assert.deepEqual(plainOf(low([timestamps, streaming]), [timestamps, streaming]), []);
  });

  test("the deciding record is not even on the plain view's list, or documents out of sight rank above it: found all the same", () => {
    const unseen = [timestamps, at(streaming, 3)];
    assert.deepEqual(plainOf(low(unseen), unseen).map((f) => f.kind), ["outranked/plain-view"]);
    // Ranks 1 and 2 are documents the evidence does not hold: the text says so and cites the deciding record only.
    const hidden = [at(timestamps, 3)];
    const [f] = plainOf(low(hidden), hidden);
    assert.match(f.text, /matches other documents better than ADR 4/);
    assert.deepEqual(f.citations, [timestamps.id]);
  });
});

describe("critic grounding: the question's proposal", () => {
  const Q = "Should we adopt GraphQL for the webmail frontend?";
  const jmap = record({ path: "docs/adr/0047-jmap-push.md", title: "JMAP push for the webmail frontend", number: 47, chosen_option: "Implement JMAP push" }, 1);
  const options = (supports: string[]) => [option("opt-graphql", "Adopt GraphQL"), option("opt-jmap", "Implement JMAP push", supports)];

  test("the record never names GraphQL: found (blocking when its kind blocks); naming it in its text is enough to stay quiet", () => {
    const d = draft(Q, options([jmap.id]), "opt-jmap", "r", [jmap]);
    const product = new Set(["unweighed-proposal/product", "unweighed-proposal/unknown-product"]);
    const raised = blocking(Q, d, [jmap], { [jmap.path_or_url]: "# JMAP push for the webmail frontend\n\nWe will implement JMAP push." }, product);
    assert.deepEqual(raised.map((o) => o.check), ["unweighed-proposal"]);
    // The only retrieved record never names GraphQL: nothing retrieved does (round 34's kind of its own).
    assert.deepEqual(raised.map((o) => o.kind), ["unweighed-proposal/unknown-product"]);
    assert.match(raised[0].text, /^The question proposes GraphQL, which no retrieved record mentions, ADR 47 "JMAP push for the webmail frontend" included/);
    assert.deepEqual(blocking(Q, d, [jmap], { [jmap.path_or_url]: "We looked at GraphQL and kept JMAP: clients already speak it." }, product), []);
  });

  test("the record is about the proposal (its title names it) yet the recommendation is something else: a concern", () => {
    const scopes = record({ path: "docs/adr/0025-graphql-gateway.md", title: "GraphQL gateway", number: 25, chosen_option: "Go forward with the granular variation" }, 1);
    const d = draft(Q, [option("opt-graphql", "Adopt GraphQL"), option("opt-keep", "Keep REST", [scopes.id])], "opt-keep", "r", [scopes]);
    const texts = { [scopes.path_or_url]: "# GraphQL gateway\n\nWe go forward with the granular variation of GraphQL." };
    assert.deepEqual(blocking(Q, d, [scopes], texts), []);
    const raised = concerns(Q, d, [scopes], texts).filter((o) => o.check === "unweighed-proposal");
    assert.equal(raised.length, 1);
    assert.match(raised[0].text, /is about it, yet the recommendation is "Keep REST", not GraphQL/);
    // Recommending the proposal itself draws no such objection.
    const adopt = draft(Q, [option("opt-graphql", "Adopt GraphQL", [scopes.id]), option("opt-keep", "Keep REST")], "opt-graphql", "r", [scopes]);
    assert.deepEqual(critique({ question: Q, draft: adopt, evidence: [scopes], recordText: () => "# GraphQL gateway\n\nWe adopt GraphQL." }, UNITS_BEFORE_DOUBTS, null).filter((o) => o.check === "unweighed-proposal"), []);
  });

  test("a proposal the question describes rather than names ('a lookup layer') that the record never names: only a concern", () => {
    const q = "Should we introduce a lookup layer for all outbound protocol messages?";
    const registry = record({ path: "docs/adr/0012-dispatcher-registry.md", title: "Remote message dispatcher registry", number: 12, chosen_option: "A dispatcher registry per protocol" }, 1);
    const d = draft(q, [option("opt-registry", "A dispatcher registry per protocol", [registry.id]), option("opt-keep", "Keep the current approach")], "opt-registry", "r", [registry]);
    const texts = { [registry.path_or_url]: "# Remote message dispatcher registry\n\nEach protocol registers its dispatcher." };
    assert.deepEqual(blocking(q, d, [registry], texts), []);
    assert.deepEqual(concerns(q, d, [registry], texts).map((o) => o.check).filter((c) => c === "unweighed-proposal"), ["unweighed-proposal"]);
  });

  test("recommending the named product on a record that never names it: found (blocking when its kind blocks)", () => {
    const q = "Should we adopt OpenTelemetry to trace a request through the responders?";
    const http = record({ path: "docs/adr/0006-use-zio-http.md", title: "Use ZIO HTTP", number: 6, chosen_option: "ZIO HTTP" }, 1);
    const d = draft(q, [option("opt-otel", "Adopt OpenTelemetry", [http.id]), option("opt-keep", "Keep the current approach")], "opt-otel", "r", [http]);
    const raised = blocking(q, d, [http], { [http.path_or_url]: "# Use ZIO HTTP\n\nWe will serve the routes with ZIO HTTP." }, new Set(["unweighed-proposal/product"]));
    assert.deepEqual(raised.map((o) => o.check), ["unweighed-proposal"]);
    assert.match(raised[0].text, /^The question proposes OpenTelemetry, which ADR 6 "Use ZIO HTTP" never mentions: the recommendation adopts it on a record that did not weigh it/);
    assert.deepEqual(raised[0].citations, [http.id]);
  });

  test("a question that names two alternatives proposes neither alone", () => {
    const q = "Should we use GraphQL or JMAP for the webmail frontend?";
    const d = draft(q, options([jmap.id]), "opt-jmap", "r", [jmap]);
    assert.deepEqual(blocking(q, d, [jmap], { [jmap.path_or_url]: "# JMAP push for the webmail frontend\n\nWe will implement JMAP push." }), []);
  });
});

describe("critic grounding: off-subject record and decision mismatch", () => {
  test("the record's own option, and its headline shares no word with what the question asks: a concern", () => {
    const q = "How should we name each decision document on disk so they sort sensibly?";
    const madr = record({ path: "docs/adr/0000-use-markdown-records.md", title: "Use Markdown Architectural Decision Records", number: 0, chosen_option: "MADR 4.0.0" }, 1);
    const yaml = record({ path: "docs/adr/0013-front-matter.md", title: "Use YAML front matter", number: 13, chosen_option: "YAML front matter" }, 3);
    const d = draft(q, [option("opt-madr", "MADR 4.0.0", [madr.id]), option("opt-keep", "Keep the current approach")], "opt-madr", "r", [madr, yaml]);
    assert.deepEqual(blocking(q, d, [madr, yaml]), []);
    const raised = concerns(q, d, [madr, yaml]).filter((o) => o.check === "off-subject");
    assert.equal(raised.length, 1);
    assert.match(raised[0].text, /^ADR 0 "Use Markdown Architectural Decision Records" shares no word of what the question asks/);
    // A record whose headline names what is asked ("file names", "dashes") is on subject.
    const dashes = record({ path: "docs/adr/0005-dashes-in-file-names.md", title: "Use dashes in file names so records sort", number: 5, chosen_option: "NNNN-title-with-dashes" }, 1);
    const onTopic = draft(q, [option("opt-dashes", "NNNN-title-with-dashes", [dashes.id]), option("opt-keep", "Keep the current approach")], "opt-dashes", "r", [dashes, yaml]);
    assert.deepEqual(critique({ question: q, draft: onTopic, evidence: [dashes, yaml] }, UNITS_BEFORE_DOUBTS, null).filter((o) => o.check === "off-subject"), []);
  });

  test("one shared word pins the record only when no other retrieved record's headline has it", () => {
    const q = "How should we cap what a compromised mail account can send per hour?";
    const queue = record({ path: "docs/adr/0052-pulsar-mail-queue.md", title: "Pulsar mail queue", number: 52, chosen_option: "A distributed queue on Pulsar" }, 1);
    const other = record({ path: "docs/adr/0031-distributed-mail-queue.md", title: "Distributed mail queue", number: 31, chosen_option: "RabbitMQ" }, 3);
    const d = (ev: FusedEvidence[]) => draft(q, [option("opt-pulsar", "A distributed queue on Pulsar", [queue.id]), option("opt-keep", "Keep the current approach")], "opt-pulsar", "r", ev);
    const offSubject = (ev: FusedEvidence[]) => critique({ question: q, draft: d(ev), evidence: ev }, UNITS_BEFORE_DOUBTS, null).filter((o) => o.check === "off-subject").map((o) => o.severity);
    assert.deepEqual(offSubject([queue, other]), ["concern"]);
    assert.deepEqual(offSubject([queue]), []);
  });

  test("the record's chosen option reads as another option, not the recommended one: found (blocking, by default since round 32); a choice that turns something down is not read", () => {
    const q = "Reading headers from object storage is slow. Should we route blobs by size, or put a read cache in front of the store?";
    const cache = record({ path: "docs/adr/0025-blob-cache.md", title: "Blob store cache", number: 25, chosen_option: "Implement a write through read cache in front of the store" }, 1);
    const options = [option("opt-route", "Route blobs by size", [cache.id]), option("opt-cache", "Put a read cache in front of the store")];
    const byDefault = critique({ question: q, draft: draft(q, options, "opt-route", "r", [cache]), evidence: [cache] }, UNITS_BEFORE_DOUBTS, null).filter((o) => o.check === "decision-mismatch");
    assert.deepEqual(byDefault.map((o) => [o.kind, o.severity]), [["decision-mismatch/reads-as", "blocking"]]);
    const mismatch = new Set(["decision-mismatch/reads-as", "decision-mismatch/two-readings"]);
    const blocking = (qq: string, d: DraftPicker, ev: FusedEvidence[]) => critique({ question: qq, draft: d, evidence: ev }, mismatch, null).filter((o) => o.severity === "blocking");
    const raised = blocking(q, draft(q, options, "opt-route", "r", [cache]), [cache]);
    assert.deepEqual(raised.map((o) => o.check), ["decision-mismatch"]);
    assert.match(raised[0].text, /chose "Implement a write through read cache in front of the store", which reads as "Put a read cache in front of the store"/);
    const applied = applyObjections(draft(q, options, "opt-route", "r", [cache]), raised, [cache]);
    assert.equal(applied.recommendation.confidence, "low");
    assert.equal(applied.critic_effect?.action, "lowered");
    assert.equal(applied.critic_effect?.draft_option_id, "opt-route");
    const stop = { ...cache, adr: { ...cache.adr!, chosen_option: "Stop putting a read cache in front of the store" } };
    assert.deepEqual(blocking(q, draft(q, options, "opt-route", "r", [stop]), [stop]), []);
  });
});

describe("critic grounding: a decision model that reads two ways", () => {
  const q = "Should the experiment console start as a new service or build on the existing app?";
  const meta = { path: "docs/adr/0001-console.md", title: "Build the console", number: 1 };
  const opts = (id: string) => [option("opt-careful", "After careful consideration of both options", [id]), option("opt-build", "Build on top of the existing app")];

  test("its chosen option and its decision section share no word: found, citing the record (blocking when its kind blocks)", () => {
    const rec = record({ ...meta, chosen_option: "After careful consideration of both options", decided_option: { name: "Build On Top Of Experimenter", range: { start: 5, end: 6 } } }, 1);
    assert.deepEqual(findings({ question: q, draft: draft(q, opts(rec.id), "opt-careful", "r", [rec]), evidence: [rec] }).filter((f) => f.check === "decision-mismatch").map((f) => f.kind), ["decision-mismatch/two-readings"]);
    const raised = blocking(q, draft(q, opts(rec.id), "opt-careful", "r", [rec]), [rec], {}, new Set(["decision-mismatch/two-readings"]));
    assert.deepEqual(raised.map((o) => o.check), ["decision-mismatch"]);
    assert.match(raised[0].text, /^ADR 1 "Build the console" reads two ways: its chosen option is "After careful consideration of both options", its decision says "Build On Top Of Experimenter"/);
    assert.deepEqual(raised[0].citations, [rec.id]);
  });

  test("the two readings share a word, or there is only one: no objection", () => {
    const agree = record({ ...meta, chosen_option: "Build on top of the existing app", decided_option: { name: "Build On Top Of Experimenter", range: { start: 5, end: 6 } } }, 1);
    const follows = [option("opt-careful", "After careful consideration of both options"), option("opt-build", "Build on top of the existing app", [agree.id])];
    assert.deepEqual(checksOf(blocking(q, draft(q, follows, "opt-build", "r", [agree]), [agree])), []);
    const one = record({ ...meta, chosen_option: "After careful consideration of both options" }, 1);
    assert.deepEqual(checksOf(blocking(q, draft(q, opts(one.id), "opt-careful", "r", [one]), [one])), []);
  });
});

describe("critic: code disagrees only between options code can name", () => {
  test("a recommended option with no code name ('Write it out as JSON') is not out-counted; one with a name is", () => {
    const q = "Should we keep chat messages in MVStore or write them out as JSON?";
    const rec = record({ path: "docs/adr/0060-json-chats.md", title: "Use JSON to serialize chat messages", number: 60, chosen_option: "JSON" }, 1);
    const usage = (recTerms: string[]) => ({
      report: {
        status: "ok" as const,
        skipped: [],
        skippedTotal: 0,
        ms: 1,
        options: [
          { id: "opt-mvstore", title: "Keep it in MVStore", terms: ["mvstore"], files: 16, byKind: { manifest: 1, lock: 0, import: 15, infra: 0 }, examples: [{ path: "build.gradle.kts", line: 111, text: 'implementation("com.h2database:h2-mvstore:2.3")', kind: "manifest" as const }] },
          { id: "opt-json", title: "Write it out as JSON", terms: recTerms, files: 0, byKind: { manifest: 0, lock: 0, import: 0, infra: 0 }, examples: [] },
        ],
      },
      citedBy: new Map<string, string[]>(),
    });
    const d = draft(q, [option("opt-mvstore", "Keep it in MVStore"), option("opt-json", "Write it out as JSON", [rec.id])], "opt-json", "r", [rec]);
    const checks = (terms: string[]) => critique({ question: q, draft: d, evidence: [rec], usage: usage(terms) }, UNITS_BEFORE_DOUBTS, null).filter((o) => o.severity === "blocking").map((o) => o.check);
    assert.deepEqual(checks(["write-out-as-json", "writeoutasjson"]), []);
    assert.deepEqual(checks(["jackson-databind"]), ["code-disagrees"]);
  });
});
