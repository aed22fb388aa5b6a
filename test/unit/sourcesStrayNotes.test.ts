// A decision log moved into a decision source must rank as it did inside the repository. Inside, discovery reads a
// repository's two design notes that look like records (Context / Decision headings, in a folder of their own) as
// architecture docs, because the repository's log of records sits elsewhere; with the log moved to a source, the
// repository has no log of its own, so the notes were taken for records and outranked the source's log (and the
// "own record first" rule pushed the source's record below them). Found by eval/sources.ts on the corpus.
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { createGitRepo, makeTempDir } from "../helpers/gitRepo";
import { discoverArtifacts } from "../../src/core/internal/discovery";
import { resolveConfig } from "../../src/core/config";
import { readSources, withSourceFiles } from "../../src/core/sources";
import { deliberate } from "../../src/core/pipeline";
import { generateSigningKey } from "../../src/core/receipts/signing";

const note = (title: string, decision: string) => `# ${title}\n\n## Context\n\nNotes from a design session.\n\n## Decision\n\n${decision}\n`;

const NOTES = {
  "README.md": "# Billing service\n",
  "docs/design/ucr/message-queue-notes.md": note("Message queue notes", "We lean towards Kafka or RabbitMQ for billing events; the platform decides which."),
  "docs/design/ucr/retention-notes.md": note("Data retention notes", "Keep invoices seven years."),
};

function record(n: number, title: string, decision: string): string {
  return `# ${n}. ${title}\n\nDate: 2023-0${n}-01\n\n## Status\n\nAccepted\n\n## Context\n\nA platform decision.\n\n## Decision\n\n${decision}\n\n## Consequences\n\nServices follow it.\n`;
}

function architecture(records: number): string {
  const files: Record<string, string> = { "README.md": "# Architecture\n" };
  const all = [
    record(1, "Record architecture decisions", "We record platform decisions here."),
    record(2, "Use RabbitMQ for service events", "Every service publishes its events to RabbitMQ. Kafka is not used, because the platform team runs RabbitMQ only."),
    record(3, "Use PostgreSQL for persistence", "Services store data in PostgreSQL."),
    record(4, "Use OpenTelemetry for tracing", "Services emit OpenTelemetry traces."),
    record(5, "Use REST for public APIs", "Public APIs are REST over HTTPS."),
  ];
  all.slice(0, records).forEach((r, i) => (files[`decisions/000${i + 1}-r${i + 1}.md`] = r));
  return createGitRepo([{ message: "records", files }]);
}

const typesOf = (files: { path: string; source_type: string }[]) => Object.fromEntries(files.map((f) => [f.path, f.source_type]));

describe("a decision log in a source counts as the repository's own would", () => {
  test("the repository's record-like design notes read as architecture docs once a source holds a log", async () => {
    const service = createGitRepo([{ message: "service", files: NOTES }]);
    const config = resolveConfig({ offline: true });
    const own = await discoverArtifacts(service, config);
    // Alone, with no log to compare with, the notes are taken for records.
    assert.equal(typesOf(own.files)["docs/design/ucr/message-queue-notes.md"], "adr");

    const withLog = await readSources({ specs: [`arch=${architecture(5)}`] }, service, config, new AbortController().signal);
    assert.equal(withLog[0]?.mainLog, true);
    const merged = typesOf(withSourceFiles(own, withLog).files);
    assert.equal(merged["docs/design/ucr/message-queue-notes.md"], "architecture");
    assert.equal(merged["docs/design/ucr/retention-notes.md"], "architecture");
    assert.equal(merged["arch:decisions/0002-r2.md"], "adr");

    // A source of two records is no log: the repository's notes stay what discovery made them.
    const small = await readSources({ specs: [`arch=${architecture(2)}`] }, service, config, new AbortController().signal);
    assert.equal(small[0]?.mainLog, false);
    assert.equal(typesOf(withSourceFiles(own, small).files)["docs/design/ucr/message-queue-notes.md"], "adr");
  });

  test("the source's record ranks above the repository's note on the same subject", async () => {
    const service = createGitRepo([{ message: "service", files: NOTES }]);
    const out = await deliberate({
      repo: service,
      question: "Should billing events go to Kafka or RabbitMQ?",
      signingKey: generateSigningKey(),
      writeReceipt: false,
      useCache: false,
      learning: false,
      config: { offline: true },
      sources: { specs: [`arch=${architecture(5)}`], cacheRoot: makeTempDir("delib-stray-cache-") },
    });
    assert.equal(out.kind, "deliberated");
    if (out.kind !== "deliberated") return;
    const docs = out.evidence.filter((e) => e.kind === "internal" && !e.commit).map((e) => e.path_or_url);
    assert.equal(docs[0], "arch:decisions/0002-r2.md", `ranked: ${[...new Set(docs)].join(", ")}`);
  });
});
