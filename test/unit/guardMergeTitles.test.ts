// The guard on records whose title merges one thing into another (issue 22, dev17): "Combine X into Y" takes X out
// and keeps Y, so bringing X back is a conflict and Y is untouched. When both sides end alike ("queue-east broker
// into queue broker"), the shared tail says what kind of thing they are and the part left names what went.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { checkChange, GuardReportSchema, type GuardReport } from "../../src/core/guard";
import { proseOptionsOf } from "../../src/core/guard/proseOptions";
import { parseAdr } from "../../src/core/internal/adr";
import { createGitRepo, writeFiles } from "../helpers/gitRepo";

async function check(repo: string): Promise<GuardReport> {
  const report = await checkChange(repo, { kind: "worktree" }, { config: {} });
  GuardReportSchema.parse(report);
  return report;
}

const strong = (r: GuardReport) => r.findings.filter((f) => f.severity !== "low").map((f) => `${f.kind} ${f.file} ← ${f.decision.path}`);

const MERGE_ADR = `# 9. Fold billing-cache cluster into shared-cache cluster

Date: 2021-02-01

## Status

Accepted

## Context

Two cache clusters cost twice as much and the billing one is nearly idle.

## Decision

Point the billing service at the shared cache and retire the separate cluster.
`;

const MAIN_TF = `module "shared-cache" {
  source = "../../modules/cache_cluster"
  name   = "shared-cache"
}
`;

describe("merge titles (dev17)", () => {
  test("the side merged away is turned down, named without the tail both sides share; the side kept is chosen", () => {
    const read = proseOptionsOf(parseAdr("docs/adr/0009-fold.md", MERGE_ADR), undefined);
    assert.deepEqual(read.rejected.map((r) => r.name), ["billing-cache"]);
    assert.deepEqual(read.chosen.map((c) => c.name), ["shared-cache cluster"]);
    const plain = proseOptionsOf(parseAdr("docs/adr/0010-merge.md", MERGE_ADR.replace("# 9. Fold billing-cache cluster into shared-cache cluster", "# 10. Merge ReportDB into MainDB")), undefined);
    assert.deepEqual(plain.rejected.map((r) => r.name), ["ReportDB"]);
  });

  test("bringing the merged-away cluster back is a conflict; another module on the kept cluster is not", async () => {
    const repo = createGitRepo([{ message: "init", files: { "docs/adr/0009-fold-billing-cache.md": MERGE_ADR, "infra/main.tf": MAIN_TF } }]);
    writeFiles(repo, { "infra/main.tf": `${MAIN_TF}\nmodule "billing-cache" {\n  source = "../../modules/cache_cluster"\n  name   = "billing-cache"\n}\n` });
    assert.ok(strong(await check(repo)).includes("introduces-rejected-option infra/main.tf ← docs/adr/0009-fold-billing-cache.md"));
    writeFiles(repo, { "infra/main.tf": `${MAIN_TF}\nmodule "shared-cache-alarms" {\n  source  = "../../modules/alarms"\n  cluster = "shared-cache"\n}\n` });
    assert.deepEqual(strong(await check(repo)), []);
  });
});
