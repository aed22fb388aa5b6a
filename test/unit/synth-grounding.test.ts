// The rules synthesizer on small synthetic repositories: options stay on the question's topic, and the
// recommendation follows the record (or rule) that decided the question, citing it — or is undecidable with the
// reason. Every ADR text here is written for these tests.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { synthesizeWithRules } from "../../src/core/synth/rules";
import { DraftPickerSchema, UNDECIDABLE, type AdrMeta, type FusedEvidence, type StageStatus } from "../../src/core/schemas";
import { canonicalJson } from "../../src/core/hash";

const OK: StageStatus = { status: "ok", count: 1, ms: 1 };
const EMPTY: StageStatus = { status: "empty", count: 0, ms: 1, reason: "offline" };
const classification = { class: "open-question" as const, confidence: 0.9, reasons: [] };

let n = 0;
function item(partial: Partial<FusedEvidence> & Pick<FusedEvidence, "excerpt" | "path_or_url">): FusedEvidence {
  n++;
  return {
    id: `ev-${String(n).padStart(12, "0")}`,
    kind: "internal",
    expert: "docs",
    source_type: "adr",
    line_range: { start: 1, end: 5 },
    precision_class: "section",
    score: 1,
    rank: n,
    fused_score: 0.01,
    experts: ["docs"],
    ...partial,
  };
}

/** One section of an ADR as the docs expert returns it. */
function adr(path: string, title: string, section: string, excerpt: string, meta: Partial<AdrMeta> = {}, rank?: number): FusedEvidence {
  const e = item({
    path_or_url: path,
    title: `${title} — ${section}`,
    excerpt,
    adr: { path, title, status: "accepted", supersedes: [], superseded_by: [], considered_options: [], section: section.toLowerCase().replace(/\s+/g, "-"), ...meta },
  });
  if (rank) e.rank = rank;
  return e;
}

function run(question: string, evidence: FusedEvidence[], stages = { internal: OK, external: EMPTY }) {
  const out = synthesizeWithRules({ question, classification, evidence, stages, configVersion: "test" });
  DraftPickerSchema.parse(out.draft);
  return out.draft;
}

function recommended(draft: ReturnType<typeof run>) {
  return draft.options.find((o) => o.id === draft.recommendation.option_id);
}

/** A small repository whose decisions are about sessions, order storage and dates — nothing about RPC. */
function unrelatedRepo(): FusedEvidence[] {
  return [
    adr("docs/adr/0001-sessions-in-signed-cookies.md", "Keep user sessions in signed cookies", "Decision", "## Decision\n\nWe will keep sessions in signed, HTTP-only cookies and rotate the signing key each quarter. Calls to the session endpoint stay stateless."),
    adr("docs/adr/0002-orders-in-postgresql.md", "Use PostgreSQL for order data", "Decision", "## Decision\n\nWe will store orders in PostgreSQL, behind the repository layer used by every service."),
    adr(
      "docs/adr/0003-date-library.md",
      "Date handling library",
      "Decision Outcome",
      '## Decision Outcome\n\nChosen option: "date-fns", because it is modular and works on plain Date values passed between services.',
      { considered_options: ["Moment.js", "date-fns", "Luxon"], chosen_option: "date-fns" },
    ),
  ];
}

describe("off-topic evidence is never an option, a support or a dissent", () => {
  test("adopt gRPC in a repository whose records are about sessions, PostgreSQL and dates", () => {
    const evidence = unrelatedRepo();
    const draft = run("Should we adopt gRPC for service-to-service calls?", evidence);
    assert.deepEqual(draft.options.map((o) => o.title), ["Adopt gRPC", "Keep the current approach"]);
    assert.equal(draft.recommendation.option_id, UNDECIDABLE);
    assert.equal(draft.recommendation.confidence, "low");
    assert.match(draft.recommendation.rationale, /no decision record or rule in the repository is about this question/);
    const cited = new Set(draft.options.flatMap((o) => [...o.supports, ...o.dissent]));
    for (const e of evidence) assert.ok(!cited.has(e.id), `${e.path_or_url} must not be cited`);
    assert.ok(!draft.options.some((o) => /date-fns|moment|luxon|postgres/i.test(o.title)));
  });

  test("an on-topic incumbent names 'the current approach'", () => {
    const evidence = [
      ...unrelatedRepo(),
      adr(
        "docs/adr/0004-rest-between-services.md",
        "Use REST for service-to-service calls",
        "Decision",
        "## Decision\n\nService-to-service calls use REST over HTTP with JSON bodies. gRPC was considered and rejected for now: the tooling cost is too high for four services.",
      ),
    ];
    const draft = run("Should we adopt gRPC for service-to-service calls?", evidence);
    assert.deepEqual(draft.options.map((o) => o.title), ["Adopt gRPC", "Keep REST"]);
    const rec = recommended(draft);
    assert.equal(rec?.title, "Keep REST");
    const rest = evidence[evidence.length - 1];
    assert.ok(rec?.supports.includes(rest.id));
    assert.ok(draft.options.find((o) => o.title === "Adopt gRPC")?.dissent.includes(rest.id));
  });
});

describe("recommendations grounded in the deciding record", () => {
  test("a Nygard record's Decision section decides a migration question", () => {
    // What the decision model reads from the Decision sentence (src/core/decisions/prose.ts); every section carries it.
    const model = { decided_option: { name: "run the nightly reports as workflows on a workflow engine", range: { start: 3, end: 3 } } };
    const evidence = [
      adr("docs/adr/0007-scheduling.md", "Scheduling of batch work", "Context", "## Context\n\nNightly reports are produced by cron entries on one host; when the host reboots, reports are silently skipped.", model),
      adr("docs/adr/0007-scheduling.md", "Scheduling of batch work", "Decision", "## Decision\n\nWe will run the nightly reports as workflows on a workflow engine (Temporal) instead of cron jobs, so that missed runs are retried.", model),
      ...unrelatedRepo(),
    ];
    const draft = run("Is it time to move from cron jobs to a workflow engine for nightly reports?", evidence);
    assert.deepEqual(draft.options.map((o) => o.title), ["Keep cron jobs", "Move to a workflow engine"]);
    const rec = recommended(draft);
    assert.equal(rec?.title, "Move to a workflow engine");
    assert.ok(rec?.supports.includes(evidence[1].id), "the Decision section is cited");
    assert.match(draft.recommendation.rationale, /ADR "Scheduling of batch work" \(accepted\) decided this question/);
    assert.equal(draft.recommendation.confidence, "high");
  });

  test("a MADR record's chosen option decides between named alternatives", () => {
    const evidence = [
      adr(
        "docs/decisions/0005-queue-for-background-jobs.md",
        "Queue for background jobs",
        "Decision Outcome",
        '## Decision Outcome\n\nChosen option: "RabbitMQ", because we need per-message acknowledgements and already run it for email.',
        { considered_options: ["Kafka", "RabbitMQ", "SQS"], chosen_option: "RabbitMQ", status: "unknown" },
      ),
    ];
    const draft = run("Kafka, RabbitMQ or SQS for background jobs?", evidence);
    assert.equal(recommended(draft)?.title, "RabbitMQ");
    assert.ok(recommended(draft)?.supports.includes(evidence[0].id));
    assert.equal(draft.recommendation.confidence, "high", "a record without a status line is in force, and its chosen option is recommended");
    assert.match(draft.recommendation.rationale, /\(no status line\) decided this question/);
    // The options it weighed and did not choose carry it as dissent, not support.
    for (const t of ["Kafka", "SQS"]) assert.ok(!draft.options.find((o) => o.title === t)?.supports.includes(evidence[0].id));
  });

  test("a superseded record counts for its successor's choice", () => {
    const oldPath = "docs/adr/0002-orders-in-mongodb.md";
    const newPath = "docs/adr/0009-orders-in-postgresql.md";
    const evidence = [
      adr(oldPath, "Use MongoDB for orders", "Decision", "## Decision\n\nWe will store orders as documents in MongoDB.", { status: "superseded", superseded_by: [newPath] }),
      adr(newPath, "Move order storage to PostgreSQL", "Decision", "## Decision\n\nWe will migrate orders from MongoDB to PostgreSQL; reporting needs joins and transactions.", { supersedes: [oldPath] }),
    ];
    const draft = run("MongoDB or PostgreSQL for order data?", evidence);
    const rec = recommended(draft);
    assert.equal(rec?.title, "PostgreSQL");
    assert.ok(rec?.supports.includes(evidence[1].id));
    assert.ok(!draft.options.find((o) => o.title === "MongoDB")?.supports.includes(evidence[0].id), "the outdated decision supports nothing");
  });

  test("'keep X?' offers the successor the repository decided on", () => {
    const evidence = [
      adr(
        "docs/adr/0011-user-uploads.md",
        "Store user uploads in object storage",
        "Decision",
        "## Decision\n\nWe will store user uploads in S3-compatible object storage instead of on the local disk of the web hosts.",
      ),
    ];
    const draft = run("Should we keep storing uploads on the local disk?", evidence);
    assert.equal(draft.options[0].title, "Keep storing uploads on the local disk");
    const rec = recommended(draft);
    assert.ok(rec && rec !== draft.options[0], `recommended ${rec?.title}`);
    assert.match(rec!.title, /object storage/i);
    assert.ok(rec!.supports.includes(evidence[0].id));
  });

  test("of two records that disagree, the newer decision wins", () => {
    const evidence = [
      adr("docs/adr/0003-ui-state.md", "Use Redux for UI state", "Decision", "## Decision\n\nWe will use Redux for UI state across the web app.", {}, 1),
      adr("docs/adr/0014-ui-state-revisited.md", "Use Zustand for UI state", "Decision", "## Decision\n\nWe will use Zustand for UI state; Redux boilerplate slowed every feature.", {}, 2),
    ];
    const draft = run("Should we use Redux or Zustand for UI state?", evidence);
    assert.equal(recommended(draft)?.title, "Zustand");
    assert.ok(recommended(draft)?.supports.includes(evidence[1].id));
  });

  test("a later record about another subject that happens to praise an option does not overrule the record that decided", () => {
    const evidence = [
      adr("docs/decisions/0004-own-changelog-tool.md", "Write own changelog tool", "Decision Outcome", '## Decision Outcome\n\nChosen option: "Write own tool relnotes", because we want the entries grouped by component. We weighed the release command of gitkit and turned it down.', { considered_options: ["Write own tool relnotes", "Use the release command of gitkit"], chosen_option: "Write own tool relnotes" }, 1),
      adr("docs/decisions/0009-branch-names.md", "Use slashes in branch names", "Decision Outcome", '## Decision Outcome\n\nChosen option: "type/short-name - the format the release command of gitkit reads", because\n\n* it sorts branches by type\n* this is exactly the format the gitkit release command expects', { considered_options: ["type/short-name - the format the release command of gitkit reads", "short-name only"], chosen_option: "type/short-name - the format the release command of gitkit reads" }, 2),
    ];
    const draft = run("Should we adopt the release command of gitkit to build the changelog?", evidence);
    assert.match(recommended(draft)?.title ?? "", /own tool relnotes/i, draft.options.map((o) => o.title).join(" | "));
    assert.ok(recommended(draft)?.supports.includes(evidence[0].id));
    assert.doesNotMatch(draft.recommendation.rationale, /replaces/);
  });

  test("a later record that links to an earlier one as its basis does not overrule it; one that says it replaces it does", () => {
    const question = "Should we use Redux or Zustand for UI state?";
    const records = (sentence: string) => [
      adr("docs/adr/0003-ui-state.md", "Use Redux for UI state", "Decision", "## Decision\n\nWe will use Redux for UI state across the web app.", {}, 1),
      adr("docs/adr/0014-form-drafts.md", "Use Zustand for form drafts", "Decision", `## Decision\n\nWe will use Zustand for UI state of unsaved form drafts. ${sentence}`, {}, 2),
    ];
    const building = records("Everything else stays in the [shared store](./0003-ui-state.md) that the other screens read.");
    const kept = run(question, building);
    assert.equal(recommended(kept)?.title, "Redux", kept.recommendation.rationale);
    assert.ok(recommended(kept)?.supports.includes(building[0].id));
    assert.doesNotMatch(kept.recommendation.rationale, /replaces/);
    const reversing = records("This replaces the [shared store](./0003-ui-state.md) that the other screens read.");
    const replaced = run(question, reversing);
    assert.equal(recommended(replaced)?.title, "Zustand", replaced.recommendation.rationale);
    assert.match(replaced.recommendation.rationale, /replaces/);
  });

  test("a record that made a new one is not matched to the option that reuses the existing one, though they share its name", () => {
    const evidence = [
      adr("docs/adr/0012-billing-database.md", "Billing database", "Decision", "## Decision\n\nWe will provision another Postgres cluster and store the data relating to runs there.", { decided_option: { name: "provision another Postgres cluster and store the data relating to runs there", range: { start: 5, end: 5 } } }, 1),
    ];
    const draft = run("Should the runner's tables go into the Postgres cluster the API and admin already use, or should the runner get a cluster of its own?", evidence);
    assert.equal(draft.options.length, 2, draft.options.map((o) => o.title).join(" | "));
    assert.match(recommended(draft)?.title ?? "", /its own cluster/i, draft.options.map((o) => o.title).join(" | "));
    assert.ok(recommended(draft)?.supports.includes(evidence[0].id));
  });

  test("a record retrieval ranked below the sixth does not decide by a word it shares with an option", () => {
    const question = "Should mail search stay on the old 7.10 client or go with the community fork that Acme maintains?";
    const stray = (rank: number) =>
      adr("docs/adr/0041-blob-storage-sdk.md", "Replace the blob storage backend with the Acme SDK backend", "Decision", "## Decision\n\nWe will go with the Acme SDK for blob storage and drop the old backend.", { decided_option: { name: "the Acme SDK", range: { start: 5, end: 5 } } }, rank);
    const others = ["sessions", "orders", "dates", "logging", "queues", "billing"].map((topic, i) =>
      adr(`docs/adr/000${i + 1}-${topic}.md`, `Keep ${topic} simple`, "Decision", `## Decision\n\nWe will keep ${topic} in the service that owns them.`, {}, i + 1),
    );
    const deep = run(question, [...others, stray(7)]);
    assert.equal(deep.recommendation.option_id, UNDECIDABLE, recommended(deep)?.title);
    const first = run(question, [stray(1), ...others]);
    assert.notEqual(first.recommendation.option_id, UNDECIDABLE);
  });

  test("'X or Y?' that matches no record by option: the record about its subject answers with its own choice, at low confidence", () => {
    const evidence = [
      adr("docs/adr/0007-nightly-export-schedule.md", "Nightly export schedule", "Decision", "## Decision\n\nWe will trigger exports from the warehouse's own task scheduler, one task per tenant.", { decided_option: { name: "warehouse's own task scheduler", range: { start: 5, end: 5 } } }, 1),
    ];
    const draft = run("Should the nightly export schedule live in crontab on the VM or in a Kubernetes CronJob?", evidence);
    const rec = recommended(draft);
    assert.match(rec?.title ?? "", /task scheduler/i, draft.options.map((o) => o.title).join(" | "));
    assert.equal(draft.recommendation.confidence, "low");
    assert.ok(rec?.supports.includes(evidence[0].id));
    // The question's own alternatives stay; nothing else the record weighed is added.
    assert.equal(draft.options.length, 3);
  });

  test("an AGENTS.md rule decides when no record does", () => {
    const rule = item({ source_type: "agent-instructions", path_or_url: "AGENTS.md", precision_class: "exact-lines", excerpt: "Use pino for all logging; never add winston." });
    const draft = run("Should we use winston or pino for logging?", [rule]);
    assert.equal(recommended(draft)?.title, "Pino");
    assert.ok(recommended(draft)?.supports.includes(rule.id));
    assert.match(draft.recommendation.rationale, /AGENTS\.md:1 prescribes/);
  });

  test("an on-topic record that does not say which option it chose leaves the question undecidable, with the reason", () => {
    const evidence = [adr("docs/adr/0006-logging.md", "Logging", "Context", "## Context\n\nServices log in different formats, which makes search across them hard.")];
    const draft = run("Should we use winston or pino for logging?", evidence);
    assert.equal(draft.recommendation.option_id, UNDECIDABLE);
    assert.match(draft.recommendation.rationale, /ADR "Logging" is on this topic but does not say which of these options it chose/);
  });

  test("a decision against what is in place today chooses the other side", () => {
    const evidence = [adr("docs/adr/0021-soap-client-deprecation.md", "SOAP client deprecation", "Decision", "## Decision\n\nWe will stop publishing the SOAP client module.")];
    const draft = run("Do we still need to publish the SOAP client now that the REST client is the way forward?", evidence);
    assert.equal(recommended(draft)?.title, "Move to REST client");
  });

  test("same inputs, byte-identical payload", () => {
    const evidence = unrelatedRepo();
    const a = synthesizeWithRules({ question: "Should we adopt gRPC for service-to-service calls?", classification, evidence, stages: { internal: OK, external: EMPTY }, configVersion: "t" });
    const b = synthesizeWithRules({ question: "Should we adopt gRPC for service-to-service calls?", classification, evidence, stages: { internal: OK, external: EMPTY }, configVersion: "t" });
    assert.equal(canonicalJson(a), canonicalJson(b));
  });
});

describe("any question over any of these records", () => {
  test("gives 2–5 options, a schema-valid payload, and cites only given evidence", () => {
    const pool = [...unrelatedRepo(), adr("docs/adr/0011-user-uploads.md", "Store user uploads in object storage", "Decision", "## Decision\n\nWe will store user uploads in object storage instead of on the local disk.")];
    const words = ["should", "we", "keep", "use", "adopt", "move", "from", "to", "or", "gRPC", "REST", "PostgreSQL", "date-fns", "uploads", "cookies", "sessions", "instead", "of", "?", ",", "the", "local", "disk", "is", "still"];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 14 }), fc.subarray(pool), (ws, evidence) => {
        const draft = run(ws.join(" "), evidence);
        assert.ok(draft.options.length >= 2 && draft.options.length <= 5);
        const ids = new Set(evidence.map((e) => e.id));
        for (const c of draft.citations) assert.ok(ids.has(c.id));
      }),
      { numRuns: 150 },
    );
  });
});

describe("high confidence answers what the question asked", () => {
  test("an option only the record brought in, when the record weighed nothing the question names, is low, and the rationale says why", () => {
    const evidence = [
      adr("docs/adr/0003-static-site-generator.md", "Static site generator", "Decision", "## Decision\n\nChosen option: Next.js, because it renders the static site and the preview server from one code base.", { chosen_option: "Next.js", considered_options: ["Next.js", "Gatsby", "Hugo"] }),
      adr("docs/adr/0003-static-site-generator.md", "Static site generator", "Context", "## Context\n\nThe static site is built in CI on every merge, inside a Docker image that has Node installed, and published to the docs host."),
      adr("docs/adr/0001-record-format.md", "Record format", "Decision", "## Decision\n\nWe write records in Markdown.", { chosen_option: "Markdown" }),
    ];
    const notAsked = run("Should we publish an official Docker image so CI pipelines can build the static site without installing Node?", evidence);
    assert.equal(recommended(notAsked)?.title, "Keep Next.js");
    assert.equal(notAsked.recommendation.confidence, "low");
    assert.match(notAsked.recommendation.rationale, /never weighed an option the question names/);
    // The same record, asked about the options it weighed, is claimed "high".
    const asked = run("Should we build the static site with Next.js or Hugo?", evidence);
    assert.equal(recommended(asked)?.title, "Next.js");
    assert.equal(asked.recommendation.confidence, "high");
  });
});

describe("a record lends its weighed options only when it weighed the thing the question names", () => {
  const evidence = () => [
    adr(
      "docs/adr/0002-record-template.md",
      "Use a Markdown template for records",
      "Decision Outcome",
      '## Decision Outcome\n\nChosen option: "Template 3.1 with the Rivet patch", because the Rivet site reads it.',
      { chosen_option: "Template 3.1 with the Rivet patch", considered_options: ["Template 3.1 with the Rivet patch", "Plain Nygard template", "Free-form notes"] },
    ),
    adr("docs/adr/0005-rivet-tools.md", "Adopt Rivet for the decision log", "Decision Outcome", '## Decision Outcome\n\nChosen option: "Rivet", because it builds the site and the CLI from one package.', {
      chosen_option: "Rivet",
      considered_options: ["Rivet", "Quill Tools", "Quill Tools Python"],
    }),
  ];

  test("a product name inside the proposal ('a container image of Rivet') does not bring in a template record's options", () => {
    const draft = run("Should we publish an official container image of Rivet so CI can build the site without Node?", evidence());
    const titles = draft.options.map((o) => o.title);
    assert.ok(!titles.some((t) => /Template 3\.1|Nygard|Free-form/.test(t)), titles.join(" | "));
  });

  test("the same thing by its whole name ('quill-tools' and 'Quill Tools') still brings in the record's options", () => {
    const draft = run("Should we adopt Ana Lee's quill-tools to create and number the records?", evidence());
    const titles = draft.options.map((o) => o.title);
    assert.ok(titles.includes("Rivet"), titles.join(" | "));
    assert.equal(draft.options.find((o) => o.id === draft.recommendation.option_id)?.title, "Rivet");
  });
});

describe("no choice by elimination when the record weighed the other option too", () => {
  test("a record that moved from A to C, having weighed B, does not choose B when asked 'A or B?'", () => {
    const evidence = [
      adr(
        "docs/adrs/0007-bucketing-unit.md",
        "Change the bucketing unit from device_id to household_id",
        "Status",
        "## Status\n\nACCEPTED: Option 1, move to `household_id`.\n\n## Considered Options\n\n- Move to `household_id`\n- Stay the course\n- Move to `account_id`",
        { chosen_option: "Move to household_id", considered_options: ["Move to household_id", "Stay the course", "Move to account_id"] },
      ),
    ];
    const draft = run("Should we keep bucketing experiments on device_id, or move to account_id?", evidence);
    const rec = recommended(draft);
    assert.notEqual(rec?.title, "Move to account_id");
    assert.match(rec?.title ?? draft.recommendation.option_id, /household_id|undecidable/);
  });
});

describe("the alternatives a question names stay apart", () => {
  test("two alternatives that share a word ('height') are two options, and the record that chose the second is followed", () => {
    const evidence = [
      adr(
        "docs/architecture/adr-031-upgrade-at-a-height.md",
        "ADR 031: Switch consensus rules automatically at the upgrade height",
        "Decision",
        "## Decision\n\nWe will let operators install the new binary ahead of time; it switches its consensus rules automatically at the upgrade height, so no validator has to stop.",
        { chosen_option: "install the new binary ahead of time and switch automatically at the upgrade height" },
      ),
    ];
    const draft = run("For the next network upgrade, do we stop every validator at a height and swap binaries together, or let operators install the new binary ahead of time and switch automatically at the upgrade height?", evidence);
    const titles = draft.options.map((o) => o.title);
    assert.ok(titles.some((t) => /^Stop every validator at a height/.test(t)), titles.join(" | "));
    assert.ok(titles.some((t) => /^Let operators install the new binary ahead of time/.test(t)), titles.join(" | "));
    assert.match(recommended(draft)?.title ?? "", /^Let operators install the new binary/);
  });
});

describe("a record's choice is aligned with a named option only by its whole name", () => {
  test("'Plain JSON' is not 'JSON-LD': the record's own choice is offered and followed", () => {
    const evidence = [
      adr(
        "docs/adr/0012-api-v4.md",
        "API v4 for the web client",
        "Decision",
        "## Decision\n\nImplement a new v4 API with these properties:\n\n- Internal, not public\n- **Plain JSON** requests and responses, described by an OpenAPI document",
        { decided_option: { name: "Plain JSON requests and responses", range: { start: 5, end: 7 } } } as Partial<AdrMeta>,
      ),
    ];
    const draft = run("Should we adopt JSON-LD for the request and response bodies of the v4 routes?", evidence);
    const rec = recommended(draft);
    assert.notEqual(rec?.title, "Adopt JSON-LD");
  });
});
