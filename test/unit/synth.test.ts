import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { synthesizeWithRules, optionsFromQuestion, keyFor, questionScope, scopeSentence } from "../../src/core/synth/rules";
import { clausePolarity, stanceOf } from "../../src/core/synth/stance";
import { DraftPickerSchema, UNDECIDABLE, type FusedEvidence, type StageStatus } from "../../src/core/schemas";
import { canonicalJson } from "../../src/core/hash";

const OK: StageStatus = { status: "ok", count: 1, ms: 1 };
const EMPTY: StageStatus = { status: "empty", count: 0, ms: 1, reason: "offline" };
const classification = { class: "open-question" as const, confidence: 0.9, reasons: [] };

let n = 0;
function ev(partial: Partial<FusedEvidence> & Pick<FusedEvidence, "excerpt">): FusedEvidence {
  n++;
  return {
    id: `ev-${String(n).padStart(12, "0")}`,
    kind: "internal",
    expert: "docs",
    source_type: "agent-instructions",
    path_or_url: "AGENTS.md",
    line_range: { start: n, end: n },
    precision_class: "exact-lines",
    score: 1,
    rank: n,
    fused_score: 0.01,
    experts: ["docs"],
    ...partial,
  };
}

function run(question: string, evidence: FusedEvidence[], stages = { internal: OK, external: EMPTY }) {
  return synthesizeWithRules({ question, classification, evidence, stages, configVersion: "test" });
}

describe("options from the question", () => {
  const cases: [string, string[]][] = [
    ["Should we use Redux or Zustand for the cart state?", ["Redux", "Zustand"]],
    ["MongoDB vs PostgreSQL for orders", ["MongoDB", "PostgreSQL"]],
    ["tradeoff between polling and websockets for notifications", ["Polling", "Websockets"]],
    ["Should we adopt pnpm?", ["Adopt pnpm"]],
    ["Kafka, RabbitMQ or SQS for background jobs?", ["Kafka", "RabbitMQ", "SQS"]],
    ["which pattern does our codebase favour for errors?", []],
    ["Should we sign receipts with HMAC instead of Ed25519?", ["HMAC", "Ed25519"]],
    ["prefer tabs over spaces for indentation?", ["Tabs", "Spaces"]],
    ["TODO(decide): should receipts live in the repo or in the user config dir?", ["Receipts live in the repo", "Receipts live in the user config dir"]],
  ];
  for (const [q, expected] of cases) test(q, () => assert.deepEqual(optionsFromQuestion(q), expected));
});

describe("stance reading", () => {
  const pino = keyFor("pino");
  const winston = keyFor("winston");
  test("replace X with Y", () => {
    assert.equal(clausePolarity("Replace winston with pino for structured logging", winston).polarity, -1);
    assert.equal(clausePolarity("Replace winston with pino for structured logging", pino).polarity, 1);
  });
  test("migrate from X to Y", () => {
    assert.equal(clausePolarity("Migrate orders from MongoDB to PostgreSQL", keyFor("MongoDB")).polarity, -1);
    assert.equal(clausePolarity("Migrate orders from MongoDB to PostgreSQL", keyFor("PostgreSQL")).polarity, 1);
  });
  test("negation stays in its own clause", () => {
    assert.equal(clausePolarity("Never use console.log in src/; do not add winston.", winston).polarity, -1);
    assert.equal(clausePolarity("Use pino for logging", pino).polarity, 1);
    assert.equal(clausePolarity("MongoDB is retired for orders once the migration completes.", keyFor("mongodb")).polarity, -1);
  });
  test("a superseded ADR's choice is dissent, not support", () => {
    const e = ev({
      source_type: "adr",
      excerpt: "We will store orders in MongoDB.",
      adr: { path: "docs/adr/2.md", title: "Use MongoDB for orders", status: "superseded", supersedes: [], superseded_by: ["docs/adr/5.md"], considered_options: [] },
    });
    assert.equal(stanceOf(e, keyFor("MongoDB"))?.polarity, -1);
  });
  test("a multi-word option does not match on a common word alone", () => {
    assert.equal(clausePolarity("Webview messages are validated with zod.", keyFor("webview UI toolkit")).polarity, 0);
    assert.equal(clausePolarity("Do not use @vscode/webview-ui-toolkit.", keyFor("webview UI toolkit")).polarity, -1);
  });
});

describe("rules synthesizer", () => {
  const evidence = [
    ev({ excerpt: "Use pino for logging." }),
    ev({ excerpt: "Never use console.log in src/; do not add winston." }),
    ev({ source_type: "commit", expert: "git", commit: "a".repeat(40), line_range: undefined, precision_class: "commit", title: "Replace winston with pino", excerpt: "Replace winston with pino" }),
  ];

  test("recommends the supported option and cites only given evidence", () => {
    const { draft } = run("Should we use winston or pino for logging?", evidence);
    DraftPickerSchema.parse(draft);
    const rec = draft.options.find((o) => o.id === draft.recommendation.option_id);
    assert.equal(rec?.title, "Pino");
    const ids = new Set(evidence.map((e) => e.id));
    for (const c of draft.citations) assert.ok(ids.has(c.id));
    assert.match(draft.recommendation.rationale, /no external best practice/i);
  });

  test("is byte-identical for the same inputs", () => {
    const a = run("Should we use winston or pino for logging?", evidence);
    const b = run("Should we use winston or pino for logging?", evidence);
    assert.equal(canonicalJson(a), canonicalJson(b));
  });

  test("symmetric evidence is undecidable, never a silent first pick", () => {
    const sym = [ev({ excerpt: "Use kafka for events." }), ev({ excerpt: "Use rabbitmq for events." })];
    const { draft, info } = run("Kafka or RabbitMQ for events?", sym);
    assert.equal(draft.recommendation.option_id, UNDECIDABLE);
    assert.equal(draft.recommendation.confidence, "low");
    assert.equal(info.symmetric, true);
    assert.equal(draft.options.length, 2);
  });

  test("no evidence still yields 2–5 options and a non-empty recommendation", () => {
    const { draft } = run("Should we adopt Bazel?", [], { internal: { status: "empty", count: 0, ms: 0, reason: "no ADRs" }, external: EMPTY });
    DraftPickerSchema.parse(draft);
    assert.ok(draft.options.length >= 2 && draft.options.length <= 5);
    assert.equal(draft.recommendation.option_id, UNDECIDABLE);
    assert.match(draft.recommendation.rationale, /No internal convention was found/);
  });

  test("an empty internal stage caps confidence at low; internal + external agreement raises it", () => {
    const external = ev({ kind: "external", expert: "deps", source_type: "dependency-doc", path_or_url: "npm:pino@9.0.0/README.md", fetched_at: "2026-01-01T00:00:00.000Z", precision_class: "section", excerpt: "We recommend pino for production logging." });
    const capped = run("Should we use winston or pino for logging?", evidence, { internal: { status: "empty", count: 0, ms: 0, reason: "x" }, external: OK });
    assert.equal(capped.draft.recommendation.confidence, "low");
    const agreed = run("Should we use winston or pino for logging?", [...evidence, external], { internal: OK, external: OK });
    assert.equal(agreed.draft.recommendation.confidence, "high");
    assert.match(agreed.draft.recommendation.rationale, /agree/);
  });

  test("a deprecated package is dissent against adopting it", () => {
    const dep = ev({ kind: "external", expert: "deps", source_type: "dependency-doc", path_or_url: "npm:request@2.88.2/README.md", fetched_at: "2026-01-01T00:00:00.000Z", precision_class: "section", deprecated: true, package: "request", excerpt: "request has been deprecated" });
    const { draft } = run("Should we adopt request for HTTP calls?", [dep], { internal: OK, external: OK });
    const adopt = draft.options.find((o) => /request/.test(o.title))!;
    assert.deepEqual(adopt.dissent, [dep.id]);
  });
});

describe("question scope", () => {
  const adr = (svc: string, choice: string, other: string) =>
    ev({
      source_type: "adr",
      path_or_url: `docs/adr/use-${choice.toLowerCase()}-for-the-${svc}-frontend-build.md`,
      title: `Use ${choice} for the ${svc} frontend build — Decision`,
      excerpt: `Chosen option: "${choice}", because it suits the ${svc} frontend build.`,
      adr: { path: `docs/adr/use-${choice.toLowerCase()}-for-the-${svc}-frontend-build.md`, title: `Use ${choice} for the ${svc} frontend build`, status: "accepted", supersedes: [], superseded_by: [], considered_options: [choice, other], chosen_option: choice, section: "decision-outcome" },
    });

  test("another service's decisions are analogies, not precedent: the in-scope ADR decides", () => {
    const evidence = [
      adr("admin", "Parcel", "webpack"),
      adr("analytics", "webpack", "Parcel"),
      adr("onboarding", "webpack", "Parcel"),
      adr("billing", "webpack", "Parcel"),
      adr("search", "webpack", "Parcel"),
      adr("media", "webpack", "Parcel"),
    ];
    const { draft } = run("Should we use Parcel or webpack for frontend build in the admin service?", evidence);
    const rec = draft.options.find((o) => o.id === draft.recommendation.option_id);
    assert.equal(rec?.title, "Parcel");
    assert.match(draft.recommendation.rationale, /"admin" is taken to be about another part of the codebase and counts for less/);
    assert.doesNotMatch(draft.recommendation.rationale, /\d×|per side/);
  });

  test("counts and amounts are never a scope, however few items mention them", () => {
    const evidence = ["admin", "media", "three", "hundred", "several", "checkout", "reports", "login"].map((svc) => adr(svc, "webpack", "Parcel"));
    const q = "Should we use Parcel or webpack for the frontend build of the admin service, three hundred pages in several bundles?";
    const words = questionScope(q, evidence).words;
    assert.ok(words.includes("admin"), JSON.stringify(words));
    for (const w of ["three", "hundred", "sever", "several"]) assert.ok(!words.includes(w), JSON.stringify(words));
  });

  test("the rationale names at most four scope words and counts the rest", () => {
    assert.equal(scopeSentence(["admin"]), 'Evidence that does not mention "admin" is taken to be about another part of the codebase and counts for less than evidence that does.');
    assert.match(scopeSentence(["admin", "billing"]), /mention "admin" or "billing" is taken/);
    assert.match(scopeSentence(["a1", "b2", "c3", "d4", "e5"]), /mention "a1", "b2", "c3", "d4" or 1 other word of the question is taken/);
    assert.match(scopeSentence(["a1", "b2", "c3", "d4", "e5", "f6", "g7"]), /"d4" or 3 other words of the question is taken/);
  });

  test("the scope word is named as the question wrote it, never as a stem", () => {
    const evidence = [
      adr("notifications", "Parcel", "webpack"),
      adr("analytics", "webpack", "Parcel"),
      adr("onboarding", "webpack", "Parcel"),
      adr("billing", "webpack", "Parcel"),
      adr("search", "webpack", "Parcel"),
      adr("media", "webpack", "Parcel"),
    ];
    const { draft } = run("Should we use Parcel or webpack for frontend build in the notifications service?", evidence);
    assert.match(draft.recommendation.rationale, /does not mention "notifications" is taken to be about another part/);
    assert.doesNotMatch(draft.recommendation.rationale, /"notific"/);
  });

  test("a scope word the tokenizer folds to an abbreviation is shown as the question spelled it", () => {
    const evidence = [
      adr("k8s", "Parcel", "webpack"),
      adr("analytics", "webpack", "Parcel"),
      adr("onboarding", "webpack", "Parcel"),
      adr("billing", "webpack", "Parcel"),
      adr("search", "webpack", "Parcel"),
      adr("media", "webpack", "Parcel"),
    ];
    const { draft } = run("Should we use Parcel or webpack to build the dashboards we run on Kubernetes?", evidence);
    assert.match(draft.recommendation.rationale, /does not mention "kubernetes"/);
    assert.doesNotMatch(draft.recommendation.rationale, /"k8s"/);
  });

  test("a scope word with a dot in it is shown whole, as the question wrote it", () => {
    const evidence = [
      adr("yyyy.mm", "Parcel", "webpack"),
      adr("analytics", "webpack", "Parcel"),
      adr("onboarding", "webpack", "Parcel"),
      adr("billing", "webpack", "Parcel"),
      adr("search", "webpack", "Parcel"),
      adr("media", "webpack", "Parcel"),
    ];
    const { draft } = run("Should we use Parcel or webpack for the frontend build of releases cut as YYYY.MM?", evidence);
    assert.match(draft.recommendation.rationale, /does not mention "yyyy\.mm"/);
    assert.doesNotMatch(draft.recommendation.rationale, /"yyyy\.m"/);
  });

  test("without a distinctive scope word every item counts fully", () => {
    const evidence = [adr("admin", "Parcel", "webpack"), adr("admin", "Parcel", "webpack"), adr("admin", "webpack", "Parcel")];
    const { draft } = run("Should we use Parcel or webpack for the frontend build?", evidence);
    assert.doesNotMatch(draft.recommendation.rationale, /× weight/);
  });
});

describe("confidence follows retrieval's order of records", () => {
  const record = (i: number, title: string, excerpt: string, section = "decision") =>
    ev({
      source_type: "adr",
      path_or_url: `docs/adr/${i}.md`,
      precision_class: "section",
      rank: i,
      title: `ADR ${i}: ${title}`,
      excerpt,
      adr: { path: `docs/adr/${i}.md`, title, status: "accepted", supersedes: [], superseded_by: [], considered_options: [], section, number: i },
    });
  const question = "Should the cart state live in Redux or in Zustand?";
  const others = [record(1, "Release trains", "We ship every two weeks."), record(2, "Branch names", "Branches are named after tickets."), record(3, "Code owners", "Each folder has an owner.")];
  test("a deciding record ranked below three other records claims only low, and says why", () => {
    const deep = run(question, [...others, record(4, "Use Zustand for client state", "We will use Zustand for the cart state instead of Redux.")]).draft;
    const picked = deep.options.find((o) => o.id === deep.recommendation.option_id);
    assert.match(picked?.title ?? "", /Zustand/);
    assert.equal(deep.recommendation.confidence, "low");
    assert.match(deep.recommendation.rationale, /ranked it only 4th among the records/);
  });
  test("the same record ranked first keeps its confidence", () => {
    const first = run(question, [record(0, "Use Zustand for client state", "We will use Zustand for the cart state instead of Redux."), ...others]).draft;
    assert.notEqual(first.recommendation.confidence, "low");
    assert.doesNotMatch(first.recommendation.rationale, /ranked it only/);
  });
});

describe("an open question answered by a record that states no choice", () => {
  test("the record's design is offered by its title and the heading retrieval found, and the rationale says no choice was stated", () => {
    const section = (heading: string, excerpt: string) =>
      ev({
        source_type: "adr",
        path_or_url: "docs/adr/10-api-basics.md",
        precision_class: "section",
        title: `ADR 10: API basics — ${heading}`,
        excerpt,
        adr: { path: "docs/adr/10-api-basics.md", title: "API basics", status: "accepted", supersedes: [], superseded_by: [], considered_options: [], section: heading.toLowerCase(), number: 10 },
      });
    const out = run("Clients want to page through long result lists. How should the new routes do it?", [section("Pagination", "Lists return a cursor and a page size of at most 100."), section("Context", "The new routes serve the web client.")]).draft;
    const picked = out.options.find((o) => o.id === out.recommendation.option_id);
    assert.equal(picked?.title, "API basics: Pagination");
    assert.equal(out.recommendation.confidence, "low");
    assert.match(out.recommendation.rationale, /ADR 10 "API basics" \(accepted\) is the nearest record on this question and states no single choice/);
  });
});
