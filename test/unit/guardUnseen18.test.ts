// The guard on readings dev18 showed it missed on repositories it was never tuned on (issue 22): a title "Replace X
// with YZ" chooses a tool whose name is two capitals, too short to be read as a name elsewhere. Records written for
// these tests, each with an innocent look-alike.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { createGitRepo } from "../helpers/gitRepo";
import { checkFilesOverHead, findingSummary } from "../helpers/guardRepo";

const nygard = (title: string, context: string, decision: string) => `# ${title}\n\n## Status\n\nAccepted\n\n## Context\n\n${context}\n\n## Decision\n\n${decision}\n\n## Consequences\n\nNone yet.\n`;

const REQUIREMENTS = "flask==3.0.0\n\n# job queue\nqz==1.4.2\nqz-cron==0.2.0\n";

describe("guard: a two-capital tool a replacing title chose", () => {
  const record = nygard("Replace Spindle with QZ", "Spindle upgrades kept breaking our workers.", "We looked at several queues and settled on the simplest one.");
  const repo = () => createGitRepo([{ message: "init", files: { "docs/decisions/0002-replace-spindle-with-qz.md": record, "requirements.in": REQUIREMENTS } }]);

  test("dropping it from the manifest removes the chosen option", async () => {
    const dropped = await checkFilesOverHead(repo(), { "requirements.in": REQUIREMENTS.replace("qz==1.4.2\n", "") });
    assert.ok(findingSummary(dropped).includes("removes-chosen-option docs/decisions/0002-replace-spindle-with-qz.md"), JSON.stringify(dropped.findings));
  });

  test("bumping it, or dropping a neighbour, does not", async () => {
    const r = repo();
    const bumped = await checkFilesOverHead(r, { "requirements.in": REQUIREMENTS.replace("qz==1.4.2", "qz==1.5.0") });
    assert.deepEqual(findingSummary(bumped), []);
    const other = await checkFilesOverHead(r, { "requirements.in": REQUIREMENTS.replace("flask==3.0.0\n", "") });
    assert.deepEqual(findingSummary(other), []);
  });

  test("a generic two-letter word in the title chooses nothing", async () => {
    const generic = nygard("Replace the dashboard with UI", "The dashboard was slow.", "We rebuild it.");
    const r = createGitRepo([{ message: "init", files: { "docs/decisions/0003-replace-dashboard.md": generic, "requirements.in": "ui==1.0\n" } }]);
    const dropped = await checkFilesOverHead(r, { "requirements.in": "" });
    assert.deepEqual(findingSummary(dropped), []);
  });
});
