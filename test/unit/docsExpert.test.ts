import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { resolveConfig } from "../../src/core/config";
import { evidenceId, sha256 } from "../../src/core/hash";
import { discoverArtifacts } from "../../src/core/internal/discovery";
import { createDocsExpert, recordViewWeight, runDocsExpert, splitRules } from "../../src/core/internal/docsExpert";
import { rankTextSections } from "../../src/core/internal/sectionIndex";
import { EvidenceItemSchema, type EvidenceItem, type QueryPlan } from "../../src/core/schemas";
import type { ArtifactFile, ArtifactSet, ExpertContext, ExpertResult } from "../../src/core/types";
import { createSampleRepo } from "../fixtures/sampleRepo";
import { createGitRepo } from "../helpers/gitRepo";
import { buildRulesPlan } from "../../src/core/terms";

const config = resolveConfig();
const ADR2 = "docs/adr/0002-use-mongodb-for-order-storage.md";
const ADR5 = "docs/adr/0005-use-postgresql-for-order-storage.md";

let repo: string;
let artifacts: ArtifactSet;
before(async () => {
  repo = createSampleRepo();
  artifacts = await discoverArtifacts(repo, config);
});
const dirsToRemove: string[] = [];
after(() => {
  rmSync(repo, { recursive: true, force: true });
  for (const d of dirsToRemove) rmSync(d, { recursive: true, force: true });
});

function plan(terms: string[], expansions: string[] = []): QueryPlan {
  return { mode: "rules", terms, expansions };
}

async function run(p: QueryPlan, set: ArtifactSet = artifacts): Promise<ExpertResult> {
  const ctx: ExpertContext = { repo, question: "q", plan: p, config, artifacts: set, signal: new AbortController().signal, log: () => {} };
  return createDocsExpert().run(ctx);
}

/** Every item cites real lines of an existing file, and its excerpt is those lines' text. */
function assertRealLines(items: EvidenceItem[], root = repo): void {
  for (const item of items) {
    EvidenceItemSchema.parse(item);
    assert.ok(item.line_range, `${item.path_or_url} has a line range`);
    const lines = readFileSync(join(root, item.path_or_url), "utf8").replace(/\r\n?/g, "\n").split("\n");
    const { start, end } = item.line_range;
    assert.ok(start >= 1 && end >= start && end <= lines.length, `${item.path_or_url}:${start}-${end} within ${lines.length} lines`);
    assert.ok(lines[start - 1].trim() !== "" && lines[end - 1].trim() !== "", `${item.path_or_url}:${start}-${end} starts and ends on text`);
    const cited = lines.slice(start - 1, end).join("\n").trim();
    const excerpt = item.excerpt.replace(/…$/, "");
    assert.ok(cited.startsWith(excerpt), `excerpt of ${item.path_or_url}:${start}-${end} is the cited text`);
    assert.equal(item.id, evidenceId({ kind: "internal", path_or_url: item.path_or_url, line_range: item.line_range }));
  }
}

describe("docs expert on the sample repo", () => {
  it("ranks ADR 0005's Decision above every section of the superseded ADR 0002", async () => {
    const r = await run(plan(["orders", "mongodb", "postgresql", "storage"]));
    assert.equal(r.status, "ok");
    const items = r.items;
    const decision5 = items.find((i) => i.path_or_url === ADR5 && i.adr?.section === "decision");
    assert.ok(decision5, "ADR 5 Decision is cited");
    assert.equal(decision5.precision_class, "section");
    assert.equal(decision5.title, "ADR 5: Use PostgreSQL for order storage — Decision");
    assert.match(decision5.excerpt, /We will store orders in PostgreSQL/);
    const adr2 = items.filter((i) => i.path_or_url === ADR2);
    assert.ok(adr2.length > 0);
    for (const i of adr2) {
      assert.ok(decision5.score > i.score, `${i.title} (${i.score}) below ADR 5 Decision (${decision5.score})`);
      assert.ok(items.indexOf(decision5) < items.indexOf(i));
      assert.equal(i.adr?.status, "superseded");
      assert.deepEqual(i.adr?.superseded_by, [ADR5]);
      assert.match(i.title ?? "", /\(superseded\)$/);
    }
    // Every ADR 5 section outranks every ADR 2 section (the hard rule), not only the Decision.
    const minAdr5 = Math.min(...items.filter((i) => i.path_or_url === ADR5).map((i) => i.score));
    assert.ok(adr2.every((i) => i.score < minAdr5));
    assert.equal(items[0].path_or_url, ADR5);
    assert.deepEqual(decision5.adr?.supersedes, [ADR2]);
    assertRealLines(items);
  });

  it("is sorted by score with a deterministic tie-break, and stable across runs", async () => {
    const a = await run(plan(["orders", "mongodb", "postgresql", "storage"], ["database"]));
    const b = await run(plan(["orders", "mongodb", "postgresql", "storage"], ["database"]));
    assert.deepEqual(a, b);
    // Scores never rise down the list, and each document's sections sit together (document-level ranking).
    const seen: string[] = [];
    for (let i = 0; i < a.items.length; i++) {
      if (i > 0) assert.ok(a.items[i - 1].score >= a.items[i].score, `order at ${i}`);
      const path = a.items[i].path_or_url;
      if (seen.at(-1) !== path) {
        assert.ok(!seen.includes(path), `${path} appears in two places`);
        seen.push(path);
      }
    }
    assert.ok(a.items.length <= 36);
    assert.equal(new Set(a.items.map((i) => i.id)).size, a.items.length);
  });

  it("pulls in the superseding ADR's Decision when only the superseded ADR matches", async () => {
    // "document", "schema" and "migrations" appear in ADR 2's Context/Decision; only "schema" appears in ADR 5.
    const r = await run(plan(["document", "evolve", "storefronts"]));
    assert.equal(r.status, "ok");
    const adr2 = r.items.filter((i) => i.path_or_url === ADR2);
    assert.ok(adr2.length > 0, "ADR 2 matched");
    const decision5 = r.items.find((i) => i.path_or_url === ADR5 && i.adr?.section === "decision");
    assert.ok(decision5, "ADR 5 Decision was pulled in");
    for (const i of adr2) assert.ok(decision5.score > i.score);
    assertRealLines(r.items);
  });

  it("cites agent-instruction rules line by line (exact-lines)", async () => {
    const r = await run(plan(["winston", "logging", "pino"]));
    const rules = r.items.filter((i) => i.path_or_url === "AGENTS.md");
    assert.ok(rules.length >= 2);
    const agents = readFileSync(join(repo, "AGENTS.md"), "utf8").split("\n");
    for (const rule of rules) {
      assert.equal(rule.source_type, "agent-instructions");
      assert.equal(rule.precision_class, "exact-lines");
      assert.equal(rule.line_range!.start, rule.line_range!.end, "one bullet, one line");
      assert.match(agents[rule.line_range!.start - 1], /^- /);
      assert.match(rule.title ?? "", /^AGENTS\.md › Logging — /);
    }
    assert.ok(rules.some((i) => /do not add winston/.test(i.excerpt)));
    // The log4brains ADR carries its AdrMeta.
    const pino = r.items.find((i) => i.path_or_url === "docs/decisions/20240312-use-pino-for-logging.md");
    assert.ok(pino?.adr);
    assert.equal(pino.adr.chosen_option, "pino");
    assert.deepEqual(pino.adr.considered_options, ["winston", "pino", "console.log"]);
    assertRealLines(r.items);
  });

  it("cites MADR option subsections and the Decision Outcome", async () => {
    const r = await run(plan(["redux", "zustand", "cart", "state"]));
    const madr = r.items.filter((i) => i.path_or_url === "docs/decisions/0004-use-zustand-for-cart-state.md");
    const sections = madr.map((i) => i.adr?.section);
    assert.ok(sections.includes("decision-outcome"));
    assert.ok(sections.includes("pros-and-cons: Redux Toolkit"));
    assert.ok(madr.every((i) => i.adr?.chosen_option === "Zustand"));
    assertRealLines(r.items);
  });

  it("weighs expansions below terms", async () => {
    const withTerm = await run(plan(["zustand"]));
    const asExpansion = await run(plan(["orders"], ["zustand"]));
    const top = (r: ExpertResult) => r.items.find((i) => i.adr?.section === "decision-outcome" && i.path_or_url.includes("0004"))?.score ?? 0;
    assert.ok(top(withTerm) > top(asExpansion));
  });

  it("returns empty with a reason when nothing matches or there are no artifacts", async () => {
    const none = await run(plan(["kubernetes", "helm"]));
    assert.equal(none.status, "empty");
    assert.equal(none.reason, "no artifact matched the terms: kubernetes, helm");
    assert.deepEqual(none.items, []);

    const empty = await run(plan(["orders"]), { files: [], skipped: [], hash: sha256("") });
    assert.equal(empty.status, "empty");
    assert.match(empty.reason ?? "", /^no ADRs, architecture docs or agent instructions found \(globs: docs\/adr\/\*\*\/\*\.md/);

    const noTerms = await run(plan([]));
    assert.equal(noTerms.status, "empty");
    assert.ok(noTerms.reason);
  });

  it("runs fast on the sample repo", async (t) => {
    const p = plan(["orders", "mongodb", "postgresql", "storage"], ["database", "sql"]);
    await run(p); // warm-up (module init, JIT)
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      await run(p);
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    t.diagnostic(`docs expert on the sample repo: median ${times[2].toFixed(2)} ms, max ${times[4].toFixed(2)} ms`);
    assert.ok(times[2] < 250, `median ${times[2]} ms`);
  });
});

describe("docs expert on synthetic artifact sets", () => {
  function file(path: string, text: string, source_type: ArtifactFile["source_type"] = "adr"): ArtifactFile {
    return { path, abs: `/nonexistent/${path}`, bytes: text.length, hash: sha256(text), source_type, text };
  }
  const set = (files: ArtifactFile[]): ArtifactSet => ({ files, skipped: [], hash: "x" });

  it("keeps a supersession chain in order, resolving bare references by number", async () => {
    const a = file("adr/0001-cache-in-memcached.md", "# 1. Cache in memcached\n\n## Status\n\nSuperseded by ADR-0002\n\n## Decision\n\nWe cache sessions in memcached.\n");
    const b = file("adr/0002-cache-in-redis.md", "# 2. Cache in Redis\n\n## Status\n\nAccepted\n\nSuperseded by [3](0003-cache-in-valkey.md)\n\n## Decision\n\nWe cache sessions in Redis.\n");
    const c = file("adr/0003-cache-in-valkey.md", "# 3. Cache in Valkey\n\n## Status\n\nAccepted\n\n## Decision\n\nUse Valkey.\n");
    const r = await run(plan(["cache", "sessions", "memcached"]), set([a, b, c]));
    const pos = (p: string) => r.items.findIndex((i) => i.path_or_url === p && i.adr?.section === "decision");
    assert.ok(pos(c.path) >= 0 && pos(b.path) >= 0 && pos(a.path) >= 0, JSON.stringify(r.items.map((i) => [i.path_or_url, i.adr?.section])));
    assert.ok(pos(c.path) < pos(b.path) && pos(b.path) < pos(a.path));
    const first = r.items.find((i) => i.path_or_url === a.path);
    assert.deepEqual(first?.adr?.superseded_by, [b.path]);
    // B says "Accepted" but is superseded by C: it counts as superseded.
    assert.equal(r.items.find((i) => i.path_or_url === b.path)?.adr?.status, "superseded");
  });

  it("ranks a deprecated ADR below an accepted one with the same text", async () => {
    const body = "\n\n## Decision\n\nAll services emit OpenTelemetry traces.\n";
    const dep = file("adr/0001-a.md", "# 1. Tracing\n\n## Status\n\nDeprecated" + body);
    const acc = file("adr/0002-b.md", "# 2. Tracing\n\n## Status\n\nAccepted" + body);
    const r = await run(plan(["opentelemetry", "traces"]), set([dep, acc]));
    assert.equal(r.items[0].path_or_url, acc.path);
    const s = (p: string) => r.items.find((i) => i.path_or_url === p && i.adr?.section === "decision")!.score;
    assert.ok(s(acc.path) > 2 * s(dep.path));
  });

  it("ranks a record that says it replaces part of another above it, without retiring the other", async () => {
    const earlier = file(
      "adr/0004-widget-storage-model.md",
      "# 4. Widget storage model\n\n## Status\n\nProposed\n\n## Decision\n\nWidgets inherit parent fields; widget storage uses nested tables for widgets.\n",
    );
    const laterText = (note: string) => `# 7. Flatten widget records\n\n${note}\n\n## Status\n\nProposed\n\n## Decision\n\nWidget storage keeps flat rows.\n`;
    const terms = plan(["widgets", "storage", "nested", "tables"]);
    const order = (r: ExpertResult) => [...new Set(r.items.map((i) => i.path_or_url))];
    const noted = file("adr/0007-flatten-widget-records.md", laterText("Note: this ADR supersedes some aspects of [ADR-4](0004-widget-storage-model.md)."));
    const r = await run(terms, set([earlier, noted]));
    assert.deepEqual(order(r), [noted.path, earlier.path]);
    // Replaced only in part: the earlier record keeps its own status.
    assert.equal(r.items.find((i) => i.path_or_url === earlier.path)?.adr?.status, "proposed");
    // A record that only reports another's replacement, or links without saying so, changes nothing.
    for (const note of ["The team noted that [ADR-2](0002-x.md) supersedes [ADR-4](0004-widget-storage-model.md).", "See [ADR-4](0004-widget-storage-model.md)."]) {
      const other = file("adr/0007-flatten-widget-records.md", laterText(note));
      assert.deepEqual(order(await run(terms, set([earlier, other]))), [earlier.path, other.path], note);
    }
  });

  it("cites a code file named by a doc as a whole document, and a heading-less doc as a document", async () => {
    const code = file("src/db/client.ts", "// PostgreSQL client\nexport const db = 1;\n\n", "canonical-file");
    const rules = file(".cursorrules", "Always use the PostgreSQL client.\n\n- Never open raw connections.\n  Use the pool instead.\n", "agent-instructions");
    const arch = file("DESIGN.md", "PostgreSQL holds everything.\n", "architecture");
    const r = await run(plan(["postgresql", "pool"]), set([code, rules, arch]));
    const byPath = new Map(r.items.map((i) => [`${i.path_or_url}:${i.line_range!.start}`, i]));
    const c = byPath.get("src/db/client.ts:1");
    assert.equal(c?.precision_class, "document");
    assert.deepEqual(c?.line_range, { start: 1, end: 2 });
    assert.equal(byPath.get(".cursorrules:1")?.precision_class, "exact-lines");
    assert.deepEqual(byPath.get(".cursorrules:3")?.line_range, { start: 3, end: 4 });
    assert.equal(byPath.get("DESIGN.md:1")?.precision_class, "document");
  });
});

describe("splitRules and rankTextSections", () => {
  it("splits bullets, nested bullets, continuations and paragraphs into rules", () => {
    const lines = [
      "- one", // 1
      "  - nested", // 2
      "- two", // 3
      "  continued", // 4
      "", // 5
      "  loose continuation", // 6
      "", // 7
      "A paragraph", // 8
      "over two lines.", // 9
      "", // 10
      "1. numbered", // 11
      "2. numbered too", // 12
      "```", // 13
      "- not a rule", // 14
      "```", // 15
    ];
    assert.deepEqual(splitRules(lines, 1, lines.length), [
      { start: 1, end: 2 },
      { start: 3, end: 6 },
      { start: 8, end: 9 },
      { start: 11, end: 11 },
      { start: 12, end: 15 },
    ]);
  });

  it("ranks sections by BM25 with stemming, prefix and small fuzziness", () => {
    const sections = [
      { heading: "Orders", body: "Order storage lives in PostgreSQL." },
      { heading: "Cart", body: "The cart uses Zustand." },
      { heading: "Misc", body: "postgres connection pooling via pgbouncer" },
    ];
    const r = rankTextSections(sections, ["orders", "postgres"], []);
    assert.equal(r[0].index, 0);
    assert.ok(r.some((x) => x.index === 2));
    assert.ok(!r.some((x) => x.index === 1));
    assert.equal(rankTextSections(sections, ["kart"], []).length, 0, "short terms get no fuzziness");
    assert.equal(rankTextSections(sections, ["postgrsql"], [])[0]?.index, 0, "one edit on longer terms");
    assert.deepEqual(rankTextSections(sections, [], []), []);
  });
});

/** A MADR record on where the assistant's chat history is kept, choosing `chosen` of SnapStore and JSON files. */
const madr = (title: string, chosen: string, extra = "") =>
  `# ${title}\n\n${extra}## Context and Problem Statement\n\nThe chat history of the assistant panel has to be persisted between sessions.\n\n` +
  `## Considered Options\n\n* SnapStore\n* JSON files\n\n## Decision Outcome\n\nChosen option: "${chosen}", because it suits how chat history is read back.\n`;

describe("a later decision that chose another of the question's alternatives", () => {
  // Two MADR records on one subject, neither linking the other: 0004 chose a binary store, 0009 later chose JSON.
  const ADR_OLD = "docs/decisions/0004-keep-chat-history-in-snapstore.md";
  const ADR_NEW = "docs/decisions/0009-write-chat-history-as-json.md";
  const filler = Object.fromEntries(
    Array.from({ length: 12 }, (_, i) => [`docs/decisions/${String(20 + i).padStart(4, "0")}-topic-${i}.md`, madr(`Pick a formatter ${i}`, `Formatter ${i}`)]),
  );
  const QUESTION = "Should the chat history stay in SnapStore or be written out as JSON?";

  async function rankFor(files: Record<string, string>, question = QUESTION): Promise<string[]> {
    const dir = createGitRepo([{ message: "records", files: { ...filler, ...files } }]);
    try {
      const set = await discoverArtifacts(dir, config);
      const ctx: ExpertContext = { repo: dir, question, plan: buildRulesPlan(question), config, artifacts: set, signal: new AbortController().signal, log: () => {} };
      const result = await createDocsExpert().run(ctx);
      return [...new Set(result.items.map((i) => i.path_or_url))];
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it("ranks the later record first even when the earlier one matches the question better", async () => {
    // The older record repeats the question's words; without the rule it would rank first.
    const older = madr("Keep chat history in SnapStore", "SnapStore", "Chat history chat history SnapStore stays in SnapStore.\n\n");
    const docs = await rankFor({ [ADR_OLD]: older, [ADR_NEW]: madr("Write chat history as JSON", "JSON files") });
    assert.deepEqual(docs.slice(0, 2), [ADR_NEW, ADR_OLD]);
  });

  it("leaves the order alone when the later record chose neither alternative, or is rejected", async () => {
    const older = madr("Keep chat history in SnapStore", "SnapStore", "Chat history chat history SnapStore stays in SnapStore.\n\n");
    const undecided = await rankFor({ [ADR_OLD]: older, [ADR_NEW]: madr("Write chat history somewhere", "Postpone") });
    assert.equal(undecided[0], ADR_OLD);
    const rejected = await rankFor({ [ADR_OLD]: older, [ADR_NEW]: madr("Write chat history as JSON", "JSON files").replace("## Context", "## Status\n\nRejected\n\n## Context") });
    assert.equal(rejected[0], ADR_OLD);
  });
});

describe("the supersession rule has the last word after the later-decision cap", () => {
  // 0002 kept chat history in memory and was superseded by 0004 (SnapStore); 0009 later chose JSON, neither record
  // linking the other. The later-decision rule lowers 0004 below 0009; 0002 must then follow 0004 down, not stay
  // where the first supersession pass left it (just under 0004's earlier, higher score).
  const SUPERSEDED = "docs/decisions/0002-keep-chat-history-in-memory.md";
  const SUCCESSOR = "docs/decisions/0004-keep-chat-history-in-snapstore.md";
  const LATER = "docs/decisions/0009-write-chat-history-as-json.md";
  const filler = Object.fromEntries(
    Array.from({ length: 12 }, (_, i) => [`docs/decisions/${String(20 + i).padStart(4, "0")}-topic-${i}.md`, madr(`Pick a formatter ${i}`, `Formatter ${i}`)]),
  );
  const QUESTION = "Should the chat history stay in SnapStore or be written out as JSON?";

  it("never leaves a superseded record above its successor", async () => {
    const files = {
      ...filler,
      [SUPERSEDED]: madr(
        "Keep chat history in memory, not in SnapStore or JSON",
        "In memory",
        "## Status\n\nSuperseded by [ADR 4](0004-keep-chat-history-in-snapstore.md)\n\nChat history stays in memory; SnapStore and JSON written out were both considered for the chat history.\n\n",
      ),
      [SUCCESSOR]: madr("Keep chat history in SnapStore", "SnapStore", "Chat history chat history SnapStore stays in SnapStore.\n\n"),
      [LATER]: madr("Write chat history as JSON", "JSON files"),
    };
    const dir = createGitRepo([{ message: "records", files }]);
    dirsToRemove.push(dir);
    const set = await discoverArtifacts(dir, config);
    const ctx: ExpertContext = { repo: dir, question: QUESTION, plan: buildRulesPlan(QUESTION), config, artifacts: set, signal: new AbortController().signal, log: () => {} };
    const docs = [...new Set((await createDocsExpert().run(ctx)).items.map((i) => i.path_or_url))];
    assert.equal(docs[0], LATER, docs.join(", "));
    assert.ok(docs.indexOf(SUCCESSOR) >= 0 && docs.indexOf(SUPERSEDED) > docs.indexOf(SUCCESSOR), docs.join(", "));
  });
});

describe("how much the plain record view counts", () => {
  it("counts more when the question names fewer than two alternatives", () => {
    const named = recordViewWeight("Should the chat history stay in SnapStore or be written out as JSON?");
    for (const q of [
      "Should we adopt Kafka for domain events?",
      "We're adding a nightly job that exports invoices to the finance team's SFTP server; some older jobs are cron entries on a VM. Where should scheduled work run now?",
    ]) {
      assert.ok(recordViewWeight(q) > named, q);
    }
    assert.equal(recordViewWeight("Should we adopt Kafka for domain events?"), recordViewWeight("Should we adopt Kafka for domain events?"));
  });

  it("an adopt question finds the record on its subject, not the one its planned expansions favour", async () => {
    // "Kafka" expands to broker, queues and messaging in the planned terms, which pull the broker record up; the
    // question is about the audit trail, and the plain view, reading the question as asked, says so.
    const rec = (title: string, context: string, decision: string) => `# ${title}\n\n## Status\n\nAccepted\n\n## Context\n\n${context}\n\n## Decision\n\n${decision}\n`;
    const AUDIT = "docs/adr/0001-audit-trail.md";
    const files = {
      [AUDIT]: rec("Keep the audit trail in an append-only table", "Auditors need every change to an account. Kafka was weighed for the audit trail.", "Audit entries go to an append-only Postgres table."),
      "docs/adr/0002-message-broker.md": rec(
        "Use RabbitMQ, not Kafka, as the message broker",
        "Services need messaging: queues for work, a broker for events, pubsub for fan-out. Kafka and SQS were compared as brokers; Kafka topics, Kafka partitions, Kafka consumers. The audit trail was one use.",
        "RabbitMQ is the broker; queues per service; messaging through the broker only; Kafka queues rejected. Kafka stays out.",
      ),
      "docs/adr/0003-logging.md": rec("Structured logging", "Logs were plain text.", "Services log JSON lines."),
      "docs/adr/0004-ci.md": rec("Continuous integration", "Builds were manual.", "Every push builds and tests."),
      "docs/adr/0005-cache.md": rec("Cache sessions in Redis", "Sessions were slow.", "Redis keeps sessions."),
    };
    const dir = createGitRepo([{ message: "records", files }]);
    dirsToRemove.push(dir);
    const question = "Should we adopt Kafka for the audit trail?";
    const set = await discoverArtifacts(dir, config);
    const ctx: ExpertContext = { repo: dir, question, plan: buildRulesPlan(question), config, artifacts: set, signal: new AbortController().signal, log: () => {} };
    const items = (await createDocsExpert().run(ctx)).items;
    const docs = [...new Set(items.map((i) => i.path_or_url))];
    assert.equal(docs[0], AUDIT, docs.join(", "));
    // Each record carries where the plain view puts it (the Critic compares the deciding record with it): the audit
    // record first, every section of a record the same place, and no two records sharing one.
    const places = new Map<string, Set<number | undefined>>();
    for (const i of items) places.set(i.path_or_url, (places.get(i.path_or_url) ?? new Set()).add(i.plain_rank));
    assert.deepEqual([...places.get(AUDIT)!], [1]);
    for (const [path, at] of places) assert.equal(at.size, 1, path);
    const ranks = [...places.values()].map((at) => [...at][0]);
    assert.ok(ranks.every((r) => typeof r === "number" && r >= 1), JSON.stringify(ranks));
    assert.equal(new Set(ranks).size, ranks.length);
    // Without the question as asked (a plan alone) there is no plain view and no plain rank.
    const { question: _asked, ...withoutQuestion } = ctx;
    const planOnly = (await runDocsExpert(withoutQuestion)).items;
    assert.ok(planOnly.length > 0 && planOnly.every((i) => i.plain_rank === undefined));
  });
});
