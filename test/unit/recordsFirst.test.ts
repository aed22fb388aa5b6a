// Retrieval that generalises: a long question is searched by the clause that asks, and records rank as records
// (commits and files the docs merely name support a record or stand below it). Fixtures written for these tests.
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { resolveConfig } from "../../src/core/config";
import { fuseRankedLists } from "../../src/core/fuse";
import { discoverArtifacts } from "../../src/core/internal/discovery";
import { runDocsExpert } from "../../src/core/internal/docsExpert";
import type { EvidenceItem } from "../../src/core/schemas";
import { buildRulesPlan, splitAsking } from "../../src/core/terms";
import { createGitRepo } from "../helpers/gitRepo";

const config = resolveConfig();
const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("a long question is searched by the clause that asks", () => {
  const long =
    "We are building a weekly report that emails the support team a CSV of open tickets from the helpdesk database; " +
    "some reports today run from a shell script on an old VM and others from the CI scheduler — where should recurring jobs run from now on?";

  it("takes the asking clause after the dash as the terms and keeps the setting as lower-weight expansions", () => {
    const { asking, setting } = splitAsking(long);
    assert.match(asking, /^where should recurring jobs run/);
    assert.match(setting, /weekly report/);
    const plan = buildRulesPlan(long);
    assert.deepEqual(plan.terms, ["recurring", "jobs", "run"]);
    for (const w of ["weekly", "report", "helpdesk", "scheduler", "vm"]) assert.ok(plan.expansions.includes(w), w);
  });

  it("leaves a short question, and one whose asking part is too thin, whole", () => {
    assert.deepEqual(splitAsking("Should we use Redux or Zustand for the cart state?"), { asking: "Should we use Redux or Zustand for the cart state?", setting: "" });
    const thin = "Our nightly import reads supplier spreadsheets, validates every row, writes them to Postgres and mails a summary to the buyers. Why?";
    assert.equal(splitAsking(thin).setting, "");
  });

  it("the record on the asking clause's subject outranks the one about the setting's incidental detail", async () => {
    const record = (title: string, body: string) => `# ${title}\n\n## Status\n\nAccepted\n\n## Context\n\n${body}\n\n## Decision\n\n${body}\n`;
    const repo = createGitRepo([
      {
        message: "records",
        files: {
          "docs/adr/0001-helpdesk-database.md": record("1. Helpdesk database", "The helpdesk database keeps tickets; the support team reads open tickets and weekly CSV reports from it."),
          "docs/adr/0002-recurring-jobs.md": record("2. Recurring jobs run on the CI scheduler", "Recurring jobs run from the CI scheduler, not from cron on a VM."),
          "docs/adr/0003-email.md": record("3. Email through the relay", "Mail goes through the company relay."),
        },
      },
    ]);
    dirs.push(repo);
    const set = await discoverArtifacts(repo, config);
    const r = await runDocsExpert({ question: long, plan: buildRulesPlan(long), config, artifacts: set, signal: new AbortController().signal });
    assert.equal(r.items[0]?.path_or_url, "docs/adr/0002-recurring-jobs.md");
  });
});

function item(over: Partial<EvidenceItem> & { id: string; path_or_url: string }): EvidenceItem {
  return { kind: "internal", expert: "docs", source_type: "adr", precision_class: "section", excerpt: "", score: 1, ...over };
}

describe("records rank as records", () => {
  it("no commit ranks above the three best records, even one at the top of its own list", () => {
    const docs = ["a", "b", "c", "d"].map((n, i) => item({ id: `d-${n}`, path_or_url: `adr/${n}.md`, score: 10 - i }));
    const commits = ["1", "2", "3"].map((n, i) => item({ id: `c-${n}`, path_or_url: `src/x${n}.ts`, expert: "git", source_type: "commit", commit: n.repeat(40), score: 10 - i }));
    const fused = fuseRankedLists([
      { expert: "docs", items: docs },
      { expert: "git", items: commits },
    ]);
    const order = fused.map((f) => f.id);
    assert.deepEqual(order.slice(0, 3), ["d-a", "d-b", "d-c"]);
    assert.ok(order.indexOf("c-1") > order.indexOf("d-c"));
  });

  it("no convention file, architecture page or code file ranks above the three best records; external evidence is not moved", () => {
    const docs = ["a", "b", "c", "d"].map((n, i) => item({ id: `d-${n}`, path_or_url: `adr/${n}.md`, score: 10 - i }));
    const others = [
      item({ id: "o-agents", path_or_url: "AGENTS.md", source_type: "agent-instructions", score: 50 }),
      item({ id: "o-arch", path_or_url: "docs/architecture.md", source_type: "architecture", score: 40 }),
    ];
    const web = item({ id: "w-1", kind: "external", expert: "web", path_or_url: "https://example.invalid/guide", source_type: "web", score: 60 });
    const fused = fuseRankedLists([
      { expert: "docs", items: [others[0], others[1], ...docs] },
      { expert: "web", items: [web] },
    ]);
    const order = fused.map((f) => f.id);
    for (const id of ["o-agents", "o-arch"]) assert.ok(order.indexOf(id) > order.indexOf("d-c"), `${id}: ${order.join(", ")}`);
    assert.ok(order.indexOf("w-1") < order.indexOf("d-c"), order.join(", "));
  });

  it("a file the agent instructions name never ranks above the best records that matched", async () => {
    const repo = createGitRepo([
      {
        message: "records",
        files: {
          "AGENTS.md": "# Agents\n\nRelease notes go in CHANGELOG.md.\n",
          "CHANGELOG.md": "# Changelog\n\n- Retry logic: moved retries for the payment client into a queue; retry backoff tuned; retry limits.\n".repeat(3),
          "docs/adr/0001-retries.md": "# 1. Retries go through the queue\n\n## Status\n\nAccepted\n\n## Decision\n\nRetries of the payment client go through a queue.\n",
          "docs/adr/0002-logging.md": "# 2. Logging\n\n## Status\n\nAccepted\n\n## Decision\n\nStructured logs.\n",
        },
      },
    ]);
    dirs.push(repo);
    const set = await discoverArtifacts(repo, config);
    const q = "Should payment client retries stay in the client or go through a queue?";
    const r = await runDocsExpert({ question: q, plan: buildRulesPlan(q), config, artifacts: set, signal: new AbortController().signal });
    const order = [...new Set(r.items.map((i) => i.path_or_url))];
    assert.equal(order[0], "docs/adr/0001-retries.md", order.join(", "));
    if (order.includes("CHANGELOG.md")) assert.ok(order.indexOf("CHANGELOG.md") > order.indexOf("docs/adr/0001-retries.md"));
  });
});

describe("records in a language other than English", () => {
  it("a French question finds the French record (accented words are whole terms)", async () => {
    assert.deepEqual(buildRulesPlan("Où stocker les données de sécurité ?").terms.slice(0, 4), ["où", "stocker", "les", "données"]);
    const repo = createGitRepo([
      {
        message: "records",
        files: {
          "docs/adr/0001-sécurité-des-données.md": "# 1. Chiffrement des données de sécurité\n\n## Statut\n\nAccepté\n\n## Décision\n\nLes données de sécurité sont chiffrées dans la base.\n",
          "docs/adr/0002-journalisation.md": "# 2. Journalisation\n\n## Statut\n\nAccepté\n\n## Décision\n\nDes journaux structurés.\n",
        },
      },
    ]);
    dirs.push(repo);
    const set = await discoverArtifacts(repo, config);
    const q = "Faut-il chiffrer les données de sécurité dans la base ?";
    const r = await runDocsExpert({ question: q, plan: buildRulesPlan(q), config, artifacts: set, signal: new AbortController().signal });
    assert.equal(r.items[0]?.path_or_url, "docs/adr/0001-sécurité-des-données.md");
  });
});
