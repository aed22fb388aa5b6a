// The plain view of a question over the records (issue 20): classic BM25 over each record's opening with the title and file
// name counted three times, queried with the content words of the question. Fixtures are written for these tests.
import { test } from "node:test";
import assert from "node:assert/strict";
import { RecordBm25, questionWeights } from "../../src/core/internal/recordBm25";

const records = [
  { path: "docs/adr/0003-nightly-exports.md", title: "Run nightly exports as Kubernetes CronJobs", text: "Context: exports ran from cron on a VM. Decision: scheduled work runs as Kubernetes CronJobs." },
  {
    path: "docs/adr/0007-message-broker.md",
    title: "Use RabbitMQ for domain events",
    text: `${"RabbitMQ queues exchanges consumers acknowledgements retries dead letters. ".repeat(40)} Jobs may publish events.`,
  },
  { path: "docs/adr/0009-sftp-partners.md", title: "Deliver partner files over SFTP", text: "Partners receive files over SFTP from a dedicated host; keys rotate yearly." },
];

test("a long symptom question finds the record whose title and text share its words; a long record does not win by length", () => {
  const view = new RecordBm25(records);
  const scores = view.scores("We're adding a nightly job that exports invoices to the finance team's SFTP server; some older jobs are cron entries on a VM and some are Kubernetes CronJobs. Where should scheduled work run now?");
  const ranked = [...scores.entries()].sort((a, b) => b[1] - a[1]).map(([p]) => p);
  assert.equal(ranked[0], "docs/adr/0003-nightly-exports.md");
  assert.ok(!ranked.slice(0, 2).includes("docs/adr/0007-message-broker.md"), ranked.join(", "));
});

test("words no record has give no scores; the same question always gives the same scores", () => {
  const view = new RecordBm25(records);
  assert.equal(view.scores("quantum chromodynamics lattice").size, 0);
  const q = "Should partner files still go over SFTP?";
  assert.deepEqual([...view.scores(q)], [...new RecordBm25(records).scores(q)]);
  assert.ok((view.scores(q).get("docs/adr/0009-sftp-partners.md") ?? 0) > 0);
});

test("the file name counts: a record whose file name carries the word outranks one that mentions it once in passing", () => {
  const view = new RecordBm25([
    { path: "docs/adr/0001-feature-flags.md", title: "Flags", text: "We toggle risky changes at runtime." },
    { path: "docs/adr/0002-ci.md", title: "Continuous integration", text: "Builds run on every push; a feature branch builds too." },
  ]);
  const ranked = [...view.scores("How should we manage feature flags?").entries()].sort((a, b) => b[1] - a[1]).map(([p]) => p);
  assert.equal(ranked[0], "docs/adr/0001-feature-flags.md");
});

test("only a record's opening counts: a long design that names the question's words deep in its body does not outrank the record about them", () => {
  const filler = "The controller reconciles objects, retries with backoff and records conditions on every resource it owns. ".repeat(60);
  const view = new RecordBm25([
    { path: "rfcs/0012-reconciler.md", title: "Reconciler design", text: `${filler} Appendix: tokens, rotation, vault, secrets, expiry, rotation schedule, vault paths, secrets rotation.` },
    { path: "rfcs/0020-secret-rotation.md", title: "Rotating secrets", text: "Secrets in the vault rotate every ninety days; expired tokens are revoked." },
  ]);
  const ranked = [...view.scores("How often should tokens and secrets in the vault rotate, and what happens on expiry?").entries()].sort((a, b) => b[1] - a[1]).map(([p]) => p);
  assert.deepEqual(ranked, ["rfcs/0020-secret-rotation.md"]);
});

test("the question's function words score nothing: a record does not win on the grammar it shares with the question", () => {
  const view = new RecordBm25([
    { path: "docs/adr/0001-grammar.md", title: "Notes", text: "They said so because after that it went over and under again, once more." },
    { path: "docs/adr/0002-backups.md", title: "Nightly backups", text: "Backups run every night to cold storage." },
  ]);
  assert.equal(view.scores("Because they ran over again after that, once more").size, 0);
  const ranked = [...view.scores("They told us after the outage that backups ran over again because nobody checked").entries()].sort((a, b) => b[1] - a[1]);
  assert.deepEqual(ranked.map(([p]) => p), ["docs/adr/0002-backups.md"]);
});

test("a word of the asking sentence counts more than a word of the story before it", () => {
  const weights = questionWeights("Finance exports invoices every week. Where should we archive them?");
  assert.ok(weights.get("archive")! > weights.get("invoice")!, JSON.stringify([...weights]));
  // One sentence, all asking: nothing to weigh against, every word counts alike.
  assert.deepEqual(new Set(questionWeights("Where should we archive the invoices?").values()), new Set([1]));
  const view = new RecordBm25([
    { path: "docs/adr/0001-invoices.md", title: "Invoices", text: "Invoices." },
    { path: "docs/adr/0002-archive.md", title: "Archive", text: "Archive." },
  ]);
  const ranked = [...view.scores("Finance exports invoices every week. Where should we archive them?").entries()].sort((a, b) => b[1] - a[1]);
  assert.equal(ranked[0][0], "docs/adr/0002-archive.md");
  assert.ok(ranked[0][1] > ranked[1][1]);
});
