// A later record in force on the same subject ranks above an earlier record that never says it was replaced
// (issue 20's "superseded above its successor"): a withdrawn or rejected proposal that a later accepted record
// settled, and an accepted record that a later record retiring its subject ("Remove …") links back to.
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { resolveConfig } from "../../src/core/config";
import { discoverArtifacts } from "../../src/core/internal/discovery";
import { createDocsExpert } from "../../src/core/internal/docsExpert";
import { buildRulesPlan } from "../../src/core/terms";
import type { ExpertContext } from "../../src/core/types";
import { createGitRepo } from "../helpers/gitRepo";

const config = resolveConfig();
const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const record = (n: number, title: string, status: string, date: string, body: string) =>
  `# ${n}. ${title}\n\nDate: ${date}\n\n## Status\n\n${status}\n\n${body}`;

/** Unrelated records, so term statistics are those of a log and not of two documents. */
const filler = Object.fromEntries(
  Array.from({ length: 12 }, (_, i) => [
    `docs/adr/${String(30 + i).padStart(4, "0")}-pick-a-formatter-${i}.md`,
    record(30 + i, `Pick a code formatter for the forms API ${i}`, "Accepted", `2021-0${(i % 9) + 1}-01`, `## Context\n\nSource files need one style (${i}).\n\n## Decision\n\nWe will use formatter ${i}.\n`),
  ]),
);

async function ranked(files: Record<string, string>, question: string): Promise<string[]> {
  const dir = createGitRepo([{ message: "records", files: { ...filler, ...files } }]);
  dirs.push(dir);
  const set = await discoverArtifacts(dir, config);
  const ctx: ExpertContext = { repo: dir, question, plan: buildRulesPlan(question), config, artifacts: set, signal: new AbortController().signal, log: () => {} };
  const result = await createDocsExpert().run(ctx);
  return [...new Set(result.items.map((i) => i.path_or_url))];
}

describe("a rejected proposal that a later accepted record settled", () => {
  const REJECTED = "docs/adr/0017-use-version-snapshots-for-draft-and-live-forms.md";
  const ACCEPTED = "docs/adr/0025-use-a-state-machine-for-form-state.md";
  const rejected = record(
    17,
    "Use version snapshots for draft and live forms",
    "Rejected",
    "2023-03-03",
    "## Context\n\nA form can be draft, live, or live with a draft. We tried keeping version snapshots of each form and its pages " +
      "to tell a draft form from a live form. Snapshots of draft and live forms broke when pages were deleted, and a live form could not be rebuilt.\n\n" +
      "## Decision\n\nWe will not use version snapshots to track draft and live forms.\n",
  );
  const accepted = record(
    25,
    "Use a state machine for form state",
    "Accepted",
    "2024-02-05",
    "## Context\n\nWhether a form is draft, live or live with a draft was inferred from timestamps, and a data migration " +
      "made live forms look like draft forms. We need to track draft forms and live forms explicitly; version snapshots of forms were tried and dropped.\n\n" +
      "## Decision\n\nWe will track draft and live forms: we will store whether each form is draft or live in a state machine with guarded transitions, so a draft form is never taken for a live form.\n",
  );
  const QUESTION = "Should we track draft and live forms with version snapshots?";

  it("ranks the later accepted record above the rejected one on the same subject", async () => {
    const docs = await ranked({ [REJECTED]: rejected, [ACCEPTED]: accepted }, QUESTION);
    assert.deepEqual(docs.slice(0, 2), [ACCEPTED, REJECTED]);
  });

  it("leaves a rejected record first when no later record in force is about the same thing", async () => {
    const other = record(25, "Use a queue for form submissions", "Accepted", "2024-02-05", "## Context\n\nSubmissions of a live form are sent by email.\n\n## Decision\n\nWe will queue form submissions.\n");
    const docs = await ranked({ [REJECTED]: rejected, [ACCEPTED]: other }, QUESTION);
    assert.equal(docs[0], REJECTED);
  });
});

describe("an accepted record that a later record retiring its subject links back to", () => {
  const EARLIER = "docs/adr/0034-api-v2-for-forms.md";
  const LATER = "docs/adr/0045-remove-forms-api.md";
  const earlier = record(
    34,
    "API v2 for Forms",
    "Accepted",
    "2024-08-19",
    "## Context\n\nForms are modelled in forms-api. The runner reads form documents from forms-api endpoints.\n\n" +
      "## Decision\n\nWe will add a simpler set of v2 endpoints to forms-api, from which the runner reads form documents.\n",
  );
  const later = (title: string, link: boolean) =>
    record(
      45,
      title,
      "Accepted",
      "2025-08-19",
      `## Context\n\nMaintaining a separate API app costs toil${link ? " (see [ADR 34](0034-api-v2-for-forms.md))" : ""}.\n\n` +
        "## Decision\n\nThe runner will read form documents from the admin app, not through forms-api endpoints. We will retire forms-api.\n",
    );
  const QUESTION = "Should the runner read form documents through v2 endpoints in forms-api?";

  it("ranks the later record above the earlier one", async () => {
    const docs = await ranked({ [EARLIER]: earlier, [LATER]: later("Remove forms-api", true) }, QUESTION);
    assert.deepEqual(docs.slice(0, 2), [LATER, EARLIER]);
  });

  it("leaves the order alone without the link back, or when the later title retires nothing", async () => {
    const unlinked = await ranked({ [EARLIER]: earlier, [LATER]: later("Remove forms-api", false) }, QUESTION);
    assert.equal(unlinked[0], EARLIER);
    const refines = await ranked({ [EARLIER]: earlier, [LATER]: later("Serve forms-api documents", true) }, QUESTION);
    assert.equal(refines[0], EARLIER);
  });
});
