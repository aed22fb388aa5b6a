// First-contact fixes of the rules synthesizer: a product name's common word ("new" of "New Relic") does not find
// the product in any text, and a record lends its weighed options to a proposal only when it is about that proposal.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { aboutProposal, synthesizeWithRules } from "../../src/core/synth/rules";
import { isStopWord } from "../../src/core/synth/words";
import { DraftPickerSchema, type AdrMeta, type FusedEvidence, type StageStatus } from "../../src/core/schemas";
import { adrSectionMaker } from "../helpers/adrSection";

const OK: StageStatus = { status: "ok", count: 1, ms: 1 };
const EMPTY: StageStatus = { status: "empty", count: 0, ms: 1, reason: "offline" };
const classification = { class: "open-question" as const, confidence: 0.9, reasons: [] };
const adrSection = adrSectionMaker("ev-f12-");
const adr = (path: string, title: string, section: string, excerpt: string, meta: Partial<AdrMeta> = {}): FusedEvidence => adrSection(path, title, section, excerpt, meta);

function answer(question: string, evidence: FusedEvidence[]) {
  const draft = synthesizeWithRules({ question, classification, evidence, stages: { internal: OK, external: EMPTY }, configVersion: "test" }).draft;
  DraftPickerSchema.parse(draft);
  const rec = draft.recommendation;
  return { id: rec.option_id, confidence: rec.confidence, title: draft.options.find((o) => o.id === rec.option_id)?.title, titles: draft.options.map((o) => o.title) };
}

describe("a product named with a common word", () => {
  test("'new' is a stop word, so it names nothing by itself", () => {
    assert.ok(isStopWord("new") && isStopWord("New"));
    assert.ok(!isStopWord("relic"));
  });

  test("records that only say 'new' do not favour 'New Relic': no record decides, and the answer says so", () => {
    const question = "For alerting on crashes in the billing service, should we page through Opsgenie or through New Relic?";
    const evidence = [
      adr("docs/adr/0007-new-invoice-numbers.md", "New invoice numbers", "Decision", "## Decision\n\nNew invoices get a new number from the billing service when they are issued.", {
        decided_option: { name: "number new invoices from the billing service", range: { start: 3, end: 3 } },
      }),
      adr("docs/adr/0008-retry-failed-payments.md", "Retry failed payments", "Decision", "## Decision\n\nThe billing service retries a failed payment with a new attempt after an hour.", {
        decided_option: { name: "retry failed payments after an hour", range: { start: 3, end: 3 } },
      }),
    ];
    const a = answer(question, evidence);
    assert.ok(a.id === "undecidable-on-current-evidence" || a.confidence === "low", JSON.stringify(a));
    assert.notEqual(a.confidence === "low" ? undefined : a.title, "Page through New Relic");
  });
});

describe("options a record weighed, lent to a proposal", () => {
  const proposal = "Build a separate reservations service with its own API that talks to the library system";

  test("a record is about a proposal when its title or file name shares a word of it", () => {
    assert.ok(aboutProposal("Reservations", "docs/adr/0012-reservations.md", proposal));
    assert.ok(aboutProposal("Lending desk", "docs/adr/0013-library-system-api.md", proposal), "the file name counts too");
  });

  test("a record that only has a word of the proposal among its weighed options is not about it", () => {
    // Its options ("Title", "Reservations", "Copy") are not its title: a sync of record types is another subject.
    assert.ok(!aboutProposal("Catalogue sync", "docs/adr/0030-catalogue-sync.md", proposal));
    // Framing words ("use", "keep", "move") are shared by every proposal and name nothing.
    assert.ok(!aboutProposal("Use pipelines", "docs/adr/0031-ci.md", "Use a queue"));
  });
});
