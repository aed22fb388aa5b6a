// Retrieval of the deciding record (issue 20, round 33): a record whose heading happens to be a name every object
// carries ("Constructor") still ranks; a question that matches a replaced record best is answered by the record
// that replaced it, which takes the replaced record's place even when it matched the question weakly itself; and a
// template's list of the statuses a record may take retires no record.
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { docsRanking } from "../helpers/docsRanking";
import { parseAdr } from "../../src/core/internal/adr";

const { ranked, cleanup } = docsRanking();
after(cleanup);

const record = (title: string, status: string, sections: [string, string][]) =>
  `# ${title}\n\n## Status\n\n${status}\n\n${sections.map(([h, b]) => `## ${h}\n\n${b}\n`).join("\n")}`;

/** Records about other things, so that the words of the records under test are rare in the log. */
function filler(into: Record<string, string>): void {
  const topics = ["Pick a changelog format", "Sign release tarballs", "Lint commit messages", "Publish nightly docs", "Pin the compiler version", "Name branches by ticket"];
  topics.forEach((t, i) => {
    into[`docs/adr/00${30 + i}-${t.toLowerCase().replace(/\s+/g, "-")}.md`] = record(t, "Accepted", [["Context", `Contributors asked how to ${t.toLowerCase()}.`], ["Decision", `We ${t.toLowerCase()}.`]]);
  });
}

describe("section names that every object carries", () => {
  const QUESTION = "Should the client class take its options object in the constructor or through setter methods?";
  const DECIDING = "docs/adr/0004-client-options-in-the-constructor.md";

  // Section names are lower-cased headings, so "Constructor" is read as the key every object inherits.
  for (const heading of ["Constructor", "● Constructor"]) {
    test(`a record with a "${heading}" section still ranks, first when it decides the question`, async () => {
      const files: Record<string, string> = {
        [DECIDING]: record("Client options in the constructor", "Accepted", [
          ["Context", "The client class reads its options object in many places; setter methods let options change half way through a request."],
          ["Decision", "The client class takes its whole options object in the constructor; there are no setter methods."],
          [heading, "The constructor validates the options object and freezes it, so setter methods cannot exist."],
        ]),
        "docs/adr/0005-retry-failed-requests.md": record("Retry failed requests", "Accepted", [["Decision", "The client class retries a failed request twice, whatever its options say."]]),
      };
      filler(files);
      const docs = await ranked(files, QUESTION);
      assert.equal(docs[0], DECIDING);
    });
  }
});

describe("a question that matches a replaced record best", () => {
  const QUESTION = "Should background jobs keep polling the jobs table in Postgres every second for new work?";
  const OLD = "docs/adr/0003-poll-the-jobs-table.md";
  const NEW = "docs/adr/0009-notify-workers-on-new-jobs.md";
  const SIBLING = "docs/adr/0006-background-jobs-retry-policy.md";

  function files(): Record<string, string> {
    const out: Record<string, string> = {
      [OLD]: record("Poll the jobs table", "Superseded by [ADR 9](0009-notify-workers-on-new-jobs.md)", [
        ["Context", "Background jobs wait in the jobs table in Postgres. Workers need to find new work quickly."],
        ["Decision", "Workers keep polling the jobs table every second for new jobs. Polling the table in Postgres is simple and every worker can do it."],
      ]),
      [NEW]: record("Notify workers on new jobs", "Accepted\n\nSupersedes [ADR 3](0003-poll-the-jobs-table.md)", [
        ["Context", "The database spends a large share of its time answering the workers' queries while nothing is waiting."],
        ["Decision", "Enqueueing sends a LISTEN/NOTIFY message; workers sleep until they are woken and no longer poll."],
      ]),
      [SIBLING]: record("Background jobs retry policy", "Accepted", [
        ["Context", "Background jobs fail now and then; the jobs table keeps failed jobs."],
        ["Decision", "A failed background job is retried three times, one minute apart, and then stays in the jobs table as dead."],
      ]),
    };
    filler(out);
    return out;
  }

  test("the replacing record takes the replaced record's place, above a sibling that matched better than it did", async () => {
    const docs = await ranked(files(), QUESTION);
    assert.deepEqual(docs.slice(0, 2), [NEW, OLD]);
    assert.ok(docs.indexOf(SIBLING) > 1, `sibling at ${docs.indexOf(SIBLING)}`);
  });

  test("the same question without the supersession link leaves the replaced record first", async () => {
    const f = files();
    f[OLD] = f[OLD].replace("Superseded by [ADR 9](0009-notify-workers-on-new-jobs.md)", "Accepted");
    f[NEW] = f[NEW].replace("\n\nSupersedes [ADR 3](0003-poll-the-jobs-table.md)", "");
    const docs = await ranked(f, QUESTION);
    assert.equal(docs[0], OLD);
  });
});

describe("a template's list of statuses left in a record", () => {
  const GUIDANCE = '> Valid statuses are: "Proposed", "Accepted", "Rejected", "Deprecated", "Superseded by ADR-zzz", pick one when the pull request merges.';

  test("is no supersession link and no status", () => {
    const adr = parseAdr("docs/adr/0031-page-the-engineer-on-call.md", `# Page the engineer on call\n\n## Status\n\n> Accepted or Rejected\n>\n${GUIDANCE}\n\n## Decision\n\nAlerts page the engineer on call.\n`);
    assert.deepEqual(adr.superseded_by, []);
    assert.notEqual(adr.status, "superseded");
  });

  test("a status line naming its successor still links, beside the guidance", () => {
    const adr = parseAdr("docs/adr/0031-page-the-engineer-on-call.md", `# Page the engineer on call\n\n## Status\n\nSuperseded by [ADR 40](0040-alert-routing.md)\n\n${GUIDANCE}\n`);
    assert.deepEqual(adr.superseded_by, ["docs/adr/0040-alert-routing.md"]);
    assert.equal(adr.status, "superseded");
  });

  test("the record written from that template ranks first for its question", async () => {
    const files: Record<string, string> = {
      "docs/adr/0031-page-the-engineer-on-call.md": `# Page the engineer on call\n\n## Status\n\n> Accepted or Rejected\n>\n${GUIDANCE}\n\n## Decision\n\nWhen the service returns errors at night, alerts page the engineer on call through a paging service.\n`,
      "docs/adr/0032-status-page-for-incidents.md": `# Status page for incidents\n\n## Status\n\nAccepted\n\n## Decision\n\nWhen the service returns errors at night, the engineer on call announces the incident on a public status page.\n`,
    };
    filler(files);
    const docs = await ranked(files, "Nobody was woken when the service started returning errors at night. How should alerts reach the engineer on call?");
    assert.equal(docs[0], "docs/adr/0031-page-the-engineer-on-call.md");
  });
});
