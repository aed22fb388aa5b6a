// Round 36 of the rules synthesizer: a record that chose itself is described by its headline, and a choice that
// makes a new one of something is matched to the alternative that does the same.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readQuestion } from "../../src/core/synth/question";
import { synthesizeWithRules } from "../../src/core/synth/rules";
import { DraftPickerSchema, type AdrMeta, type FusedEvidence, type StageStatus } from "../../src/core/schemas";
import { adrSectionMaker } from "../helpers/adrSection";

const OK: StageStatus = { status: "ok", count: 1, ms: 1 };
const EMPTY: StageStatus = { status: "empty", count: 0, ms: 1, reason: "offline" };
const classification = { class: "open-question" as const, confidence: 0.9, reasons: [] };
const adrSection = adrSectionMaker("ev-r36-");
const adr = (path: string, title: string, section: string, excerpt: string, meta: Partial<AdrMeta> = {}): FusedEvidence => adrSection(path, title, section, excerpt, meta);

function picked(question: string, evidence: FusedEvidence[]): { title: string; titles: string[] } {
  const draft = synthesizeWithRules({ question, classification, evidence, stages: { internal: OK, external: EMPTY }, configVersion: "test" }).draft;
  DraftPickerSchema.parse(draft);
  const titles = draft.options.map((o) => o.title);
  return { title: draft.options.find((o) => o.id === draft.recommendation.option_id)?.title ?? draft.recommendation.option_id, titles };
}

describe("a record whose chosen option is its own name", () => {
  const considered = ["QueueSplitV3", "Keep the billing jobs on the shared queue and tune its workers", "Move jobs to a hosted queue"];
  const record = (path: string, title: string) =>
    adr(path, title, "Decision Outcome", "## Decision Outcome\n\nChosen option: QueueSplitV3, because it removes the head-of-line blocking we measured.", {
      considered_options: considered,
      decided_option: { name: "QueueSplitV3", range: { start: 3, end: 3 } },
    });
  const question = "Should we keep one queue and tune its worker count, or give the billing jobs a queue of their own?";

  test("the title says what that name is: the alternative the title describes is what the record chose", () => {
    const { title, titles } = picked(question, [record("docs/adr/0031-QueueSplitV3.md", "Give billing jobs a queue of their own")]);
    assert.equal(title, "Give the billing jobs their own queue", titles.join(" | "));
  });

});

describe("a record that chose to make a new one of the thing the question asks about", () => {
  const question = "The importer now has to keep its staging rows. Should we add its tables to the Postgres cluster the web app already uses, or give the importer a cluster of its own?";
  const record = (decision: string) =>
    adr("docs/adr/0042-importer-database.md", "Database for the importer", "Decision", `## Decision\n\n${decision}`, {
      decided_option: { name: decision.replace(/\.$/, ""), range: { start: 3, end: 3 } },
    });

  // An older record, ranked below, that chose the shared cluster for another service matches the first alternative
  // word for word.
  const older = () =>
    adr("docs/adr/0012-web-app-database.md", "Database for the web app", "Decision", "## Decision\n\nWe will add the web app's tables to the Postgres cluster the admin already uses.", {
      decided_option: { name: "add the web app's tables to the Postgres cluster the admin already uses", range: { start: 3, end: 3 } },
    });

  test("'provision another cluster' chose the cluster of its own, though it shares one word with each alternative", () => {
    const { title, titles } = picked(question, [record("We will provision another Postgres cluster for the staging rows."), older()]);
    assert.equal(title, "Give the importer its own cluster", titles.join(" | "));
  });

  test("'reuse the existing cluster' chose the cluster already in use", () => {
    const { title, titles } = picked(question, [record("We will reuse the existing Postgres cluster and keep the importer's staging rows in a schema there.")]);
    assert.equal(title, "Add its tables to the Postgres cluster the web app already uses", titles.join(" | "));
  });
});

describe("a second question joined to the first by 'and'", () => {
  test("'…, and which library should we use?' is not part of what is proposed", () => {
    const read = readQuestion("Should we translate the dashboard's labels into other languages, and which i18n library should we use?");
    assert.deepEqual(read.alternatives.map((a) => a.title), ["Translate the dashboard's labels into other languages"]);
    assert.ok(read.text.includes("which i18n library"), "the structure keeps the question as asked");
  });

  test("'and if so which …' and 'and how long …' are cut the same way; alternatives joined by 'or' are not", () => {
    assert.deepEqual(readQuestion("Should we add a search index, and if so which engine should we pick?").alternatives.map((a) => a.title), ["Add a search index"]);
    assert.deepEqual(readQuestion("Should we cache rendered pages and how long should they live?").alternatives.map((a) => a.title), ["Cache rendered pages"]);
    assert.deepEqual(readQuestion("Should we keep Jenkins or move the builds to GitHub Actions?").alternatives.map((a) => a.title), ["Keep Jenkins", "Move the builds to GitHub Actions"]);
  });
});
