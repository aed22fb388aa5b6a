// The guard's round-14 gains (issue 22): a cloud resource type read as the product it provisions, a rejected record
// that still decides (its proposal is turned down, nothing is required), and "use X in favour of Y". Each case writes
// records into a real git repository, changes a file, and checks the finding.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { checkChange, GuardReportSchema, type GuardReport } from "../../src/core/guard";
import { cloudProductsOf } from "../../src/core/guard/cloudProducts";
import { readDecisionSentence } from "../../src/core/decisions/prose";
import { createGitRepo, writeFiles } from "../helpers/gitRepo";

async function check(repo: string): Promise<GuardReport> {
  const report = await checkChange(repo, { kind: "worktree" }, { config: {} });
  GuardReportSchema.parse(report);
  return report;
}
const strong = (r: GuardReport) => r.findings.filter((f) => f.severity !== "low");

const record = (n: number, title: string, status: string, decision: string) => `# ${n}. ${title}\n\nDate: 2024-01-01\n\n## Status\n\n${status}\n\n## Context\n\nWe need a way to do this.\n\n## Decision\n\n${decision}\n\n## Consequences\n\nSome.\n`;

describe("guard: cloud resources and rejected records", () => {
  test("a resource type reads as its product: the longest prefix wins, unknown types name nothing", () => {
    assert.deepEqual(cloudProductsOf("aws_service_discovery_private_dns_namespace"), ["AWS Cloud Map"]);
    assert.deepEqual(cloudProductsOf("aws_ssm_parameter"), ["SSM Parameter Store", "Parameter Store"]);
    assert.deepEqual(cloudProductsOf("aws_ssm_association"), ["AWS Systems Manager", "SSM"]);
    assert.deepEqual(cloudProductsOf("azurerm_servicebus_queue"), ["Azure Service Bus"]);
    assert.deepEqual(cloudProductsOf("null_resource"), []);
  });

  test("a rejected record forbids its proposal, by its product, and requires nothing", async () => {
    const repo = createGitRepo([
      {
        message: "records",
        files: {
          "docs/adr/0001-use-cloud-map.md": record(1, "Use of AWS Cloud Map", "❌ Rejected", "We have decided not to adopt AWS Cloud Map for service discovery: it needs too many permissions."),
          "docs/adr/0002-use-iam-federated-access.md": record(2, "Use IAM Federated Access", "Rejected", "Rather than running the joiners process ourselves, we can use IAM Federated Access through an identity provider."),
          "infra/main.tf": 'resource "aws_iam_role" "ci" {\n  name = "ci"\n}\n',
        },
      },
    ]);
    writeFiles(repo, {
      "infra/discovery.tf": 'resource "aws_service_discovery_private_dns_namespace" "shared" {\n  name = "shared.internal"\n}\n',
      "infra/main.tf": 'resource "aws_iam_role" "ci" {\n  name = "ci"\n}\n\nresource "aws_iam_role" "deploy" {\n  name = "deploy"\n}\n',
    });
    const findings = strong(await check(repo));
    const map = findings.find((f) => f.decision.path === "docs/adr/0001-use-cloud-map.md");
    assert.equal(map?.kind, "introduces-rejected-option");
    assert.equal(map?.file, "infra/discovery.tf");
    assert.equal(map?.severity, "high");
    // An ordinary IAM role is no federated access: the refused proposal is keyed by all of its words.
    assert.ok(!findings.some((f) => f.file === "infra/main.tf"), JSON.stringify(findings.map((f) => [f.file, f.matched])));
    assert.ok(!findings.some((f) => f.kind === "removes-chosen-option"), "a rejected record requires nothing");
  });

  test("'use X in favour of Y' turns Y down; 'deprecate X in favour of Y' does not", () => {
    assert.deepEqual(readDecisionSentence("We decided to use AWS SSO in favour of IAM Federated Access to manage identities centrally."), {
      chosen: "AWS SSO",
      rejected: ["IAM Federated Access"],
      cue: "decided to",
    });
    assert.deepEqual(readDecisionSentence("We will deprecate the v1 API in favour of the v2 API.").rejected, []);
  });
});
