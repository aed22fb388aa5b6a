// How much of a whole question the record leading an answer speaks to (src/core/synth/recordLed.ts questionCover):
// a record whose headline shares the asked words but whose text holds little of the question does not lead a "med"
// answer, since the question may be about something no record decided.
import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import type { AdrMeta } from "../../src/core/schemas";
import { questionCover, recordLedAnswer, type LedRecord } from "../../src/core/synth/recordLed";

function record(path: string, meta: Partial<AdrMeta>, allText: string): LedRecord {
  return { path, active: true, allText, meta: { path, title: "Untitled", status: "accepted", supersedes: [], superseded_by: [], considered_options: [], ...meta } };
}

const audit = record(
  "docs/adr/0004-audit-log-storage.md",
  { title: "Audit log storage", considered_options: ["Append-only table", "Object storage"], chosen_option: "Append-only table" },
  "Audit log storage — Context\nEvery change to an account writes an audit log entry; auditors query entries by account and date, and entries are kept for seven years.",
);
const logging = record(
  "docs/adr/0002-structured-logging.md",
  { title: "Structured logging", chosen_option: "JSON lines" },
  "Structured logging — Decision\nServices write JSON lines to standard output; the collector ships them to the log index.",
);
const noSuccessor = () => undefined;

describe("questionCover", () => {
  it("weighs a word by how few retrieved records hold it: words no record holds weigh most", () => {
    const texts = [audit.allText!, logging.allText!];
    // Most of what the question says is in the first record's text ("long" is not).
    assert.ok(questionCover("How long are audit log entries kept for auditors?", texts, 0) > 0.5);
    // The same record holds only the asked words of a question that is mostly about something else.
    const offTopic = "Our nightly exports to the partner SFTP server drop rows whenever the warehouse schema changes. Where should the export audit log be stored?";
    assert.ok(questionCover(offTopic, texts, 0) < 0.15);
    // A successor's text counts with the record's own.
    assert.ok(questionCover(offTopic, texts, 0, "Nightly partner exports over SFTP follow the warehouse schema") > questionCover(offTopic, texts, 0));
  });
});

describe("recordLedAnswer lowers a record-led answer whose record holds little of the question", () => {
  it("med when the record's text speaks to the question, low when only its headline shares the asked words", () => {
    const decided = recordLedAnswer("Where should audit log entries be stored, so auditors can query them by account?", [audit, logging], noSuccessor, 5);
    assert.equal(decided?.doc.path, audit.path);
    assert.equal(decided?.confidence, "med");
    const q = "Our nightly exports to the partner SFTP server drop rows whenever the warehouse schema changes. Where should the export audit log be stored?";
    const nearest = recordLedAnswer(q, [audit, logging], noSuccessor, 5);
    // The same record, the same recommendation: only how sure the answer is changes.
    assert.equal(nearest?.doc.path, audit.path);
    assert.equal(nearest?.choice, decided?.choice);
    assert.equal(nearest?.focusHits !== undefined && nearest.focusHits >= 2, true);
    assert.equal(nearest?.confidence, "low");
    assert.ok((nearest?.cover ?? 1) < 0.15);
  });

  it("does not weigh a record whose retrieved text is unknown", () => {
    const bare: LedRecord = { ...audit, allText: undefined };
    const q = "Our nightly exports to the partner SFTP server drop rows whenever the warehouse schema changes. Where should the export audit log be stored?";
    assert.equal(recordLedAnswer(q, [bare, logging], noSuccessor, 5)?.confidence, "med");
  });
});
