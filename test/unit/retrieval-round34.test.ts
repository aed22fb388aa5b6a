// Retrieval of the deciding record (issue 20, round 34): a later record that takes something away answers a
// question about whether to keep doing it, above the earlier record that put it in place, though neither names the
// other and no status says so. Only when the question asks whether something goes on or stops, and only when the
// two records share a rare word of the question (in any of the forms the log writes it in).
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { docsRanking } from "../helpers/docsRanking";

const { ranked, cleanup } = docsRanking();
after(cleanup);

const record = (title: string, sections: [string, string][]) => `# ${title}\n\n${sections.map(([h, b]) => `## ${h}\n\n${b}\n`).join("\n")}`;

/** Records on other matters, so that the words of the records under test are rare in the log. */
function filler(into: Record<string, string>): void {
  const topics = ["Pick a changelog format", "Sign release tarballs", "Lint commit messages", "Publish nightly docs", "Pin the compiler version", "Name branches by ticket", "Store secrets in the vault", "Tag container images by digest"];
  topics.forEach((t, i) => {
    into[`docs/decisions/${String(20 + i).padStart(4, "0")}-${t.toLowerCase().replace(/\s+/g, "-")}.md`] = record(t, [
      ["Decision", `We ${t.toLowerCase()}.`],
      ["Rationale", `Contributors asked how to ${t.toLowerCase()}.`],
    ]);
  });
}

const EARLIER = "docs/decisions/0004-worker-pool-health.md";
const LATER = "docs/decisions/0011-pool-monitor-dismission.md";

/** An earlier record that put a heartbeat in place and a later one, with no status or link, that discontinues it. */
function pool(extra: Record<string, string> = {}): Record<string, string> {
  const files: Record<string, string> = {
    [EARLIER]: record("Worker pool health", [
      ["Decision", "Workers register with the dispatcher when they start, and the dispatcher checks their health."],
      [
        "Approach",
        "Workers in the pool sometimes go down for a minute while the dispatcher keeps sending them jobs. The dispatcher will send a heartbeat to every worker each minute and drop workers that miss it from the pool until they answer again, so jobs only go to workers that are up.",
      ],
    ]),
    [LATER]: record("Pool monitor dismission", [
      ["Decision", "We will discontinue the pool monitor."],
      [
        "Rationale",
        "The pool monitor sends the heartbeat to the workers and drops the silent ones until they come back. Workers that go down for a moment should not change which workers get jobs; restarts belong to the process supervisor, not to the dispatcher.",
      ],
    ]),
    ...extra,
  };
  filler(files);
  return files;
}

describe("a later record that discontinues what an earlier one put in place", () => {
  test("answers a question that asks whether to keep doing it, though the question writes the word another way", async () => {
    const docs = await ranked(pool(), "Workers go down for a minute now and then. Should the dispatcher keep heartbeating them and drop unavailable workers from the pool until they come back?");
    assert.ok(docs.includes(EARLIER), "the earlier record is still found");
    assert.ok(docs.indexOf(LATER) < docs.indexOf(EARLIER), `expected the later record first, got ${docs.slice(0, 3).join(", ")}`);
  });

  test("leaves the earlier record first for a question that does not ask whether anything goes on", async () => {
    const docs = await ranked(pool(), "Workers go down for a minute now and then. How should the dispatcher heartbeat them and take unavailable workers out of the pool?");
    assert.equal(docs[0], EARLIER);
  });

  test("does not move a record for a later removal of something else, which lacks the word the question turns on", async () => {
    const other = "docs/decisions/0012-remove-the-legacy-job-format.md";
    const files = pool({
      [other]: record("Remove the legacy job format", [
        ["Decision", "We will remove the legacy job format."],
        ["Rationale", "Workers in the pool that go down drop jobs in the legacy format, and the dispatcher cannot send them again when they come back."],
      ]),
    });
    delete files[LATER];
    const docs = await ranked(files, "Workers go down for a minute now and then. Should the dispatcher keep heartbeating them and drop unavailable workers from the pool until they come back?");
    assert.equal(docs[0], EARLIER);
  });
});
