// The guard on an option turned down for one use (issue 22, dev17): "Use a managed store instead of self-run VM
// databases" turns VMs down as databases, not every VM. A VM that installs a database breaks it; a VM that runs a web
// proxy does not. Real git repositories.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { checkChange, GuardReportSchema, type GuardReport } from "../../src/core/guard";
import { purposeEvidenceOf } from "../../src/core/guard/peers";
import { createGitRepo, writeFiles } from "../helpers/gitRepo";

async function check(repo: string): Promise<GuardReport> {
  const report = await checkChange(repo, { kind: "worktree" }, { config: {} });
  GuardReportSchema.parse(report);
  return report;
}

const strong = (r: GuardReport) => r.findings.filter((f) => f.severity !== "low").map((f) => `${f.kind} ${f.file} ← ${f.decision.path}`);

const ADR = `# 4. Use Kestrel instead of Droplet databases

Date: 2020-03-01

## Status

Accepted

## Context

Every Droplet we run a database on needs patching and backups we keep forgetting.

## Decision

We will use Kestrel, the hosted store, instead of Droplet databases.
`;

const vm = (install: string) => `resource "vmcloud_droplet" "box" {
  image     = "ubuntu-22-04"
  user_data = <<-EOF
    #!/bin/bash
    apt-get install -y ${install}
  EOF
}
`;

describe("options turned down for one use (dev17)", () => {
  test("the use a trailing purpose word names is shown by that word or its well-known members", () => {
    const evidence = purposeEvidenceOf("Droplet databases", ["droplet"]) ?? [];
    assert.ok(evidence.includes("database") && evidence.includes("mysql") && evidence.includes("postgres"));
    assert.equal(purposeEvidenceOf("Droplet", ["droplet"]), undefined);
    assert.equal(purposeEvidenceOf("Droplet wrappers", ["droplet"]), undefined);
    // A singular purpose word is part of a name, not a use: "Acme code style" is a style called Acme.
    assert.equal(purposeEvidenceOf("Acme code style", ["acme"]), undefined);
  });

  test("a Droplet that installs a database goes against the record; one that runs a proxy does not", async () => {
    const repo = createGitRepo([{ message: "init", files: { "docs/adr/0004-use-kestrel.md": ADR, "infra/README.md": "Infra.\n" } }]);
    writeFiles(repo, { "infra/db.tf": vm("mysql-server") });
    assert.deepEqual(strong(await check(repo)), ["introduces-rejected-option infra/db.tf ← docs/adr/0004-use-kestrel.md"]);
    writeFiles(repo, { "infra/db.tf": vm("nginx") });
    assert.deepEqual(strong(await check(repo)), []);
  });
});
