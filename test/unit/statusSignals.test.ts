// Every way a decision log says a record is no longer in force, read the same: a folder, a symbol, a successor
// link without "by", front matter, a callout, and the log's own index. Fixtures are written for these tests.
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { resolveConfig } from "../../src/core/config";
import { decisionModelOf } from "../../src/core/decisions";
import { normaliseStatus, parseAdr, statusFromFolder } from "../../src/core/internal/adr";
import { discoverArtifacts } from "../../src/core/internal/discovery";
import { runDocsExpert, supersessionOf } from "../../src/core/internal/docsExpert";
import { statusesFromIndexes, withIndexStatus } from "../../src/core/internal/indexStatus";
import { buildRulesPlan } from "../../src/core/terms";
import { createGitRepo } from "../helpers/gitRepo";

const config = resolveConfig();
const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const record = (title: string, status: string | undefined, body: string) =>
  `# ${title}\n\n${status === undefined ? "" : `## Status\n\n${status}\n\n`}## Context\n\nThe team has to choose.\n\n## Decision\n\n${body}\n`;

async function rankedRecords(files: Record<string, string>, question: string): Promise<{ paths: string[]; status: Map<string, string | undefined> }> {
  const repo = createGitRepo([{ message: "records", files }]);
  dirs.push(repo);
  const set = await discoverArtifacts(repo, config);
  const r = await runDocsExpert({ question, plan: buildRulesPlan(question), config, artifacts: set, signal: new AbortController().signal });
  const paths = [...new Set(r.items.filter((i) => i.adr).map((i) => i.path_or_url))];
  return { paths, status: new Map(r.items.filter((i) => i.adr).map((i) => [i.path_or_url, i.adr?.status])) };
}

describe("status from the folder a record sits in", () => {
  it("reads superseded, archived, rejected, deprecated and proposed folders, alone or beside 'adr' words", () => {
    assert.deepEqual(statusFromFolder("docs/adr/_superseded/0003-queues.md"), { status: "superseded", folder: "docs/adr/_superseded" });
    assert.equal(statusFromFolder("decisions/archive/0001-x.md")?.status, "deprecated");
    assert.equal(statusFromFolder("decisions/_archived/0001-x.md")?.status, "deprecated");
    assert.equal(statusFromFolder("docs/historic-adrs/004-x.md")?.status, "deprecated");
    assert.equal(statusFromFolder("adr/rejected/0007-graphql.md")?.status, "rejected");
    assert.equal(statusFromFolder("adr/Deprecated_Decisions/0002-x.md")?.status, "deprecated");
    assert.equal(statusFromFolder("adr/proposed-adrs/0009-x.md")?.status, "proposed");
  });

  it("leaves ordinary folders and a record's own folder alone", () => {
    assert.equal(statusFromFolder("docs/adr/0003-queues.md"), undefined);
    assert.equal(statusFromFolder("docs/adr/archive-service/0001-x.md"), undefined, "a folder about an archive service says nothing");
    assert.equal(statusFromFolder("records/2023-01-01-deprecated/README.md"), undefined, "the record's own folder names the record");
    assert.equal(statusFromFolder("0001-x.md"), undefined);
  });

  it("a folder takes an 'Accepted' record out of force, and fills in a missing status", () => {
    const moved = parseAdr("docs/adr/superseded/0002-use-rabbitmq.md", record("2. Use RabbitMQ", "Accepted", "We use RabbitMQ."));
    assert.equal(moved.status, "superseded");
    assert.ok(moved.warnings.some((w) => /from its folder docs\/adr\/superseded/.test(w)));
    const draft = parseAdr("docs/adr/proposed/0010-x.md", record("10. Try X", undefined, "We try X."));
    assert.equal(draft.status, "proposed");
    const stillAccepted = parseAdr("docs/adr/proposed/0011-y.md", record("11. Y", "Accepted", "We use Y."));
    assert.equal(stillAccepted.status, "accepted", "a 'proposed' folder never overrides a stated status");
  });
});

describe("status lines in the forms real logs use", () => {
  it("reads an emoji status with a bare successor link (no 'by')", () => {
    const adr = parseAdr("adr/0012-one-cluster.md", record("12. One cluster", "\u231b\ufe0f Superseded [19](0019-two-clusters.md)", "One cluster."));
    assert.equal(adr.status, "superseded");
    assert.deepEqual(adr.superseded_by, ["adr/0019-two-clusters.md"]);
  });

  it("reads 'Superseded: ADR-19' and 'Superseded \u2192 [19](…)' as a link to the successor", () => {
    assert.deepEqual(parseAdr("adr/0012-a.md", record("12. A", "Superseded: ADR-19", "A.")).superseded_by, ["ADR-19"]);
    assert.deepEqual(parseAdr("adr/0012-a.md", record("12. A", "Superseded \u2192 [19](0019-b.md)", "A.")).superseded_by, ["adr/0019-b.md"]);
  });

  it("reads 'Rejected in favour of ADR 19' as rejected, with the record named as its successor", () => {
    const adr = parseAdr("adr/0012-a.md", record("12. A", "Rejected in favour of ADR 19", "A."));
    assert.equal(adr.status, "rejected");
    assert.deepEqual(adr.superseded_by, ["ADR 19"]);
    assert.deepEqual(parseAdr("adr/0012-a.md", record("12. A", "Withdrawn in favor of [19](0019-b.md)", "A.")).superseded_by, ["adr/0019-b.md"]);
  });

  it("a record rejected in favour of another by number ranks below it", async () => {
    const { paths } = await rankedRecords(
      {
        "docs/adr/0007-plugin-host-over-rpc.md": record("7. Plugin host over RPC", "Rejected in favour of ADR 8", "Plugins run in a separate host process that the editor reaches over RPC."),
        "docs/adr/0008-no-plugin-host.md": record("8. No plugin host", "Accepted", "Plugins stay in process; the editor offers no plugin host at all."),
        "docs/adr/0001-record-decisions.md": record("1. Record decisions", "Accepted", "We keep decision records."),
      },
      "Should plugins run in a separate host process that the editor talks to over RPC?",
    );
    assert.ok(paths.indexOf("docs/adr/0008-no-plugin-host.md") < paths.indexOf("docs/adr/0007-plugin-host-over-rpc.md"), paths.join(", "));
  });

  it("of two accepted records with the same title, the later one ranks first, even from a legacy subfolder", async () => {
    const { paths } = await rankedRecords(
      {
        "docs/adr/legacy/adr-012-request-batching.md": record("ADR 12: Request batching", "Accepted", "Clients batch requests for up to 50 ms before sending them."),
        "docs/adr/adr-031-request-batching.md": record("ADR 31: Request batching", "Accepted", "Clients send each request at once; the server batches writes instead."),
        "docs/adr/adr-001-record-decisions.md": record("ADR 1: Record decisions", "Accepted", "We keep decision records."),
      },
      "Should clients batch their requests before sending them?",
    );
    assert.ok(paths.indexOf("docs/adr/adr-031-request-batching.md") < paths.indexOf("docs/adr/legacy/adr-012-request-batching.md"), paths.join(", "));
  });

  it("a record whose title undoes an earlier one by number ranks above it", async () => {
    const { paths } = await rankedRecords(
      {
        "docs/adr/adr-040-hide-internal-packages.md": record("ADR 40: Hide internal packages", "Accepted", "Every package except the public client moves under internal/ so it cannot be imported."),
        "docs/adr/adr-044-partly-undo-adr-40.md": record("ADR 44: Partly undo ADR 40 (internal packages)", "Accepted", "The storage and state packages are exported again; the rest stay internal."),
        "docs/adr/adr-001-record-decisions.md": record("ADR 1: Record decisions", "Accepted", "We keep decision records."),
      },
      "Should every package except the public client move under internal/ so that it cannot be imported?",
    );
    assert.ok(paths.indexOf("docs/adr/adr-044-partly-undo-adr-40.md") < paths.indexOf("docs/adr/adr-040-hide-internal-packages.md"), paths.join(", "));
  });

  it("reads a status given only as a symbol", () => {
    assert.equal(normaliseStatus("\u2705"), "accepted");
    assert.equal(normaliseStatus("\u274c"), "rejected");
    assert.equal(normaliseStatus("\u23f3"), "superseded");
    assert.equal(normaliseStatus("Archived"), "deprecated");
  });

  it("reads the words logs use for a decision being built, taken back or not yet made", () => {
    assert.equal(normaliseStatus("Implementing"), "accepted");
    assert.equal(normaliseStatus("In progress"), "accepted");
    assert.equal(normaliseStatus("IN DEV"), "accepted");
    assert.equal(normaliseStatus("Proposed, implementation to follow"), "proposed");
    assert.equal(normaliseStatus("Reverted"), "deprecated");
    assert.equal(normaliseStatus("Rolled back in March"), "deprecated");
    assert.equal(normaliseStatus("to_be_deleted"), "deprecated");
    assert.equal(normaliseStatus("TBD"), "proposed");
  });

  it("a reverted record is out of force: it is read as deprecated", () => {
    assert.equal(parseAdr("adr/0014-supervised.md", record("14. Supervised installs", "Reverted", "We support supervised installs.")).status, "deprecated");
  });

  it("a section about some other status ('Status updates') is no status section; 'Status: Accepted' and 'Status of this RFC' are", () => {
    const body = "# Exports\n\n## Context\n\nUsers export imagery.\n\n## Decision\n\nWe build an export endpoint.\n\n### 5. Status updates\n\nWe will need to tell the user how far the export got.\n";
    const exported = parseAdr("docs/adr-0017-exports.md", body);
    assert.equal(exported.status, "unknown");
    assert.equal(exported.raw_status, undefined);
    assert.equal(decisionModelOf(exported).status_display, "no status line");
    assert.equal(parseAdr("rfcs/0003-x.md", "# X\n\n## Status of this RFC\n\nAccepted\n\n## Decision\n\nX.\n").status, "accepted");
    assert.equal(parseAdr("rfcs/0003-x.md", "# X\n\n## Status: Rejected\n\n## Decision\n\nX.\n").status, "rejected");
    assert.equal(parseAdr("rfcs/0003-x.md", "# X\n\n## Status quo\n\nWe poll.\n\n## Decision\n\nX.\n").raw_status, undefined);
  });

  it("a status line left as a placeholder ('-') shows as no status line, not as an unrecognised status", () => {
    assert.equal(decisionModelOf(parseAdr("adr/0002-x.md", record("2. X", "-", "X."))).status_display, "no status line");
    assert.equal(decisionModelOf(parseAdr("adr/0002-x.md", record("2. X", "Sketch", "X."))).status_display, "unrecognised status: Sketch");
  });

  it("a metadata table's status wins over a later 'Status' section that documents something else", () => {
    const text = `# Key-value buckets\n\n| Metadata | Value |\n|---|---|\n| Status | Implemented |\n\n## Design\n\nBuckets hold keys.\n\n### Status\n\nThis describes the bucket's own status call.\n\n## Decision\n\nWe build buckets on streams.\n`;
    const adr = parseAdr("adr/ADR-8.md", text);
    assert.equal(adr.status, "accepted");
    assert.equal(adr.raw_status, "Implemented");
    const only = parseAdr("adr/ADR-9.md", record("9. X", "Written up in the wiki", "We use X."));
    assert.match(decisionModelOf(only).status_display, /^unrecognised status: Written up/, "with no other signal the section's line is still shown");
  });

  it("reads status from front matter under 'status' or 'state'", () => {
    assert.equal(parseAdr("d/0001-x.md", "---\nstatus: superseded by 0004\n---\n# X\n\n## Decision\n\nX.\n").status, "superseded");
    assert.equal(parseAdr("d/0001-x.md", "---\nstate: rejected\n---\n# X\n\n## Decision\n\nX.\n").status, "rejected");
  });

  it("an 'Archived:' callout at the top wins over an older 'Accepted'", () => {
    const text = "# RFC 12: Use X\n\n> **Archived:** this proposal was not carried forward.\n\nStatus: Accepted\n\n## Context\n\nWhy.\n\n## Decision\n\nX.\n";
    const adr = parseAdr("rfcs/0012-use-x.md", text);
    assert.equal(adr.status, "deprecated");
    assert.ok(adr.warnings.some((w) => /from a callout/.test(w)));
  });
});

describe("status from the log's own index", () => {
  const records = new Set(["adr/0001-use-a.md", "adr/0002-use-b.md", "adr/0003-deprecate-v1.md", "adr/0004-use-c.md"]);

  it("reads a status column, a trailing status, and a struck-through link", () => {
    const index = [
      "| # | Record | Status |",
      "| - | ------ | ------ |",
      "| 1 | [Use A](0001-use-a.md) | Superseded by [2](0002-use-b.md) |",
      "| 2 | [Use B](0002-use-b.md) | \u2705 Accepted |",
      "",
      "- [Deprecate the v1 API](0003-deprecate-v1.md)",
      "- ~~[Use C](0004-use-c.md)~~",
    ].join("\n");
    const got = statusesFromIndexes([{ path: "adr/README.md", text: index }], records);
    assert.equal(got.get("adr/0001-use-a.md")?.status, "superseded");
    assert.equal(got.get("adr/0002-use-b.md")?.status, "accepted");
    assert.equal(got.has("adr/0003-deprecate-v1.md"), false, "a title that starts with a status verb is not a status");
    assert.equal(got.get("adr/0004-use-c.md")?.status, "deprecated");
  });

  it("an index that disagrees with itself says nothing", () => {
    const index = "- [Use A](0001-use-a.md) - accepted\n- [Use A again](0001-use-a.md) - rejected\n";
    assert.equal(statusesFromIndexes([{ path: "adr/index.md", text: index }], records).size, 0);
  });

  it("fills a missing status, and takes an accepted record out of force, but never brings one back", () => {
    const unknown = { status: "unknown" as const, warnings: [] as string[] };
    assert.equal(withIndexStatus(unknown, { status: "accepted", from: "adr/README.md" }).status, "accepted");
    const accepted = { status: "accepted" as const, warnings: [] as string[] };
    assert.equal(withIndexStatus({ ...accepted }, { status: "superseded", from: "adr/README.md" }).status, "superseded");
    assert.equal(withIndexStatus({ ...accepted }, { status: "proposed", from: "adr/README.md" }).status, "accepted");
    const rejected = { status: "rejected" as const, warnings: [] as string[] };
    assert.equal(withIndexStatus(rejected, { status: "accepted", from: "adr/README.md" }).status, "rejected");
  });
});

describe("ranking follows every status signal", () => {
  it("a record in a superseded folder ranks below the record that replaced it", async () => {
    const { paths, status } = await rankedRecords(
      {
        "docs/adr/_superseded/0002-message-broker.md": record("2. Message broker: RabbitMQ", "Accepted", "We use RabbitMQ as the message broker for events between services."),
        "docs/adr/0005-message-broker-kafka.md": record("5. Kafka for events", "Accepted", "We move events to Kafka; the broker before it is retired."),
        "docs/adr/0001-record-decisions.md": record("1. Record decisions", "Accepted", "We keep decision records."),
      },
      "Which message broker should services use for events?",
    );
    assert.equal(status.get("docs/adr/_superseded/0002-message-broker.md"), "superseded");
    assert.ok(paths.indexOf("docs/adr/0005-message-broker-kafka.md") < paths.indexOf("docs/adr/_superseded/0002-message-broker.md"), paths.join(", "));
  });

  it("a record its README marks superseded ranks below its successor", async () => {
    const { paths, status } = await rankedRecords(
      {
        "adr/0001-session-store.md": record("1. Session store in Redis", undefined, "Sessions are stored in Redis with a TTL."),
        "adr/0002-session-store-db.md": record("2. Sessions in the database", undefined, "Sessions move to the database; Redis sessions end."),
        "adr/0003-logging.md": record("3. Logging", undefined, "Structured logs."),
        "adr/README.md": "# Decisions\n\n| Record | Status |\n| --- | --- |\n| [1. Session store in Redis](0001-session-store.md) | Superseded |\n| [2. Sessions in the database](0002-session-store-db.md) | Accepted |\n| [3. Logging](0003-logging.md) | Accepted |\n",
      },
      "Where should session state be stored, redis or the database?",
    );
    assert.equal(status.get("adr/0001-session-store.md"), "superseded");
    assert.equal(status.get("adr/0002-session-store-db.md"), "accepted");
    assert.ok(paths.indexOf("adr/0002-session-store-db.md") < paths.indexOf("adr/0001-session-store.md"), paths.join(", "));
  });
});

describe("circular supersession", () => {
  it("a loop of three records is broken at the link that points back in time, and the stage says so", async () => {
    const repo = createGitRepo([
      {
        message: "records",
        files: {
          "adr/0001-cache-a.md": record("1. Cache in process", "Superseded by [2](0002-cache-b.md)", "An in-process cache."),
          "adr/0002-cache-b.md": record("2. Cache in Redis", "Superseded by [3](0003-cache-c.md)", "A Redis cache."),
          "adr/0003-cache-c.md": record("3. Cache at the edge", "Superseded by [1](0001-cache-a.md)", "An edge cache."),
        },
      },
    ]);
    dirs.push(repo);
    const set = await discoverArtifacts(repo, config);
    const { edges } = await supersessionOf(set);
    assert.deepEqual(
      edges.map(([old, repl]) => `${old} -> ${repl}`),
      ["adr/0001-cache-a.md -> adr/0002-cache-b.md", "adr/0002-cache-b.md -> adr/0003-cache-c.md"],
    );
    const question = "Where should we cache responses?";
    const r = await runDocsExpert({ question, plan: buildRulesPlan(question), config, artifacts: set, signal: new AbortController().signal });
    assert.match(r.reason ?? "", /circular supersession among adr\/0001-cache-a\.md, adr\/0002-cache-b\.md, adr\/0003-cache-c\.md/);
    assert.equal(r.items.find((i) => i.path_or_url === "adr/0003-cache-c.md")?.adr?.status !== "superseded", true, "the latest record stays in force");
  });
});

describe("records that share a title", () => {
  it("are both kept and cited by path, and the stage names the shared title", async () => {
    const repo = createGitRepo([
      {
        message: "records",
        files: {
          "records/2022-01-01-tooling/README.md": record("Documentation tooling", "Accepted", "Generate docs with tool A."),
          "records/2023-01-01-tooling/README.md": record("Documentation tooling", "Accepted", "Generate docs with tool B instead of tool A."),
          "records/2023-02-01-logging/README.md": record("Logging", "Accepted", "Structured logs."),
        },
      },
    ]);
    dirs.push(repo);
    const set = await discoverArtifacts(repo, config);
    const question = "Which documentation tooling generates the docs?";
    const r = await runDocsExpert({ question, plan: buildRulesPlan(question), config, artifacts: set, signal: new AbortController().signal });
    const paths = new Set(r.items.map((i) => i.path_or_url));
    assert.ok(paths.has("records/2022-01-01-tooling/README.md") && paths.has("records/2023-01-01-tooling/README.md"));
    assert.match(r.reason ?? "", /1 title is shared by several records, cited by path: "Documentation tooling"/);
  });
});

describe("layouts named by their folder or file", () => {
  it("a folder named for decision records holds records of any shape; a decision log page at the root is one too", async () => {
    const repo = createGitRepo([
      {
        message: "records",
        files: {
          "doc/dev/decisionrecords/Codestyle.md": "# Code style\n\nWe format with the formatter and keep lines short.\n",
          "doc/dev/decisionrecords/NamingConventions.md": "# Naming\n\nTypes are nouns; methods are verbs.\n",
          "doc/dev/decisionrecords/_TEMPLATE.md": "# Title\n\nDescribe the decision.\n",
          "DEVELOPMENT_DECISION_RECORDS.md": "# Development decision records\n\n## Use dependency injection\n\nServices get their collaborators injected.\n",
          "doc/user/Guide.md": "# Guide\n\nHow to run it.\n",
        },
      },
    ]);
    dirs.push(repo);
    const set = await discoverArtifacts(repo, config);
    assert.deepEqual(
      set.files.filter((f) => f.source_type === "adr").map((f) => f.path),
      ["DEVELOPMENT_DECISION_RECORDS.md", "doc/dev/decisionrecords/Codestyle.md", "doc/dev/decisionrecords/NamingConventions.md"],
    );
    assert.ok(set.adrFolders?.some((f) => f.dir === "doc/dev/decisionrecords" && f.via === "folder name"));
  });

  it("reads the status from a metadata table under the title", () => {
    const text = "# Direct reads\n\n| Metadata | Value |\n|---|---|\n| Date | 2023-01-01 |\n| Status | Implemented |\n\n## Context\n\nWhy.\n";
    assert.equal(parseAdr("adr/ADR-31.md", text).status, "accepted");
  });
});
