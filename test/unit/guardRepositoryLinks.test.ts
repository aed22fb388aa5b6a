// A rejected option whose heading names no thing of its own ("Option 1 - Use a third party Lambda") but whose section
// links the option's code repository is known by that repository: a Terraform module sourced from the registry
// address of that repository brings it in. Innocent look-alikes: the chosen option's own module, a link to a file
// in the project's own repository, and a comment that names the repository. Real git, the working tree against HEAD;
// the record is written for these tests.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { repositoriesLinkedIn } from "../../src/core/guard/repositoryLinks";
import { createGitRepo } from "../helpers/gitRepo";
import { checkFilesOverHead } from "../helpers/guardRepo";

const RECORD_PATH = "adr/0012-nightly-shutdown.md";
const RECORD = `# 12. Shut down test servers at night with our own function

Date: 2023-05-02

## Status

Accepted

## Context

We want test servers off at night. See the [spike](https://github.com/example-org/platform/issues/77).

## Options

### Option 1 - Reuse a community function

A community function written in Python - <https://github.com/nightowl-labs/terraform-aws-server-sleeper>

It needs changes for several accounts, and the [languages record](https://github.com/example-org/platform/blob/main/adr/0009-languages.md) keeps Python out.

### Option 2 - Write our own function

We write and keep a small function in Go.

## Decision

Option 2, we will write our own function in Go.

## Consequences

We need to learn to deploy functions.
`;

function repoWith(): string {
  return createGitRepo([{ message: "init", files: { [RECORD_PATH]: RECORD, "infra/main.tf": 'locals {\n  env = "test"\n}\n', "README.md": "# platform\n" } }]);
}

async function findingsFor(repo: string, files: Record<string, string>): Promise<string[]> {
  const report = await checkFilesOverHead(repo, files);
  return report.findings.filter((f) => f.severity !== "low").map((f) => `${f.kind} ${f.severity} ${f.file}:${f.line} ← ${f.decision.path}`);
}

describe("guard: a rejected option known by the repository its section links", () => {
  test("a repository link keys by owner and name, and a Terraform module's by its registry address too", () => {
    const linked = repositoriesLinkedIn("See <https://github.com/nightowl-labs/terraform-aws-server-sleeper> and https://github.com/example-org/platform/issues/77");
    assert.deepEqual(linked.map((r) => r.name), ["nightowl-labs/terraform-aws-server-sleeper", "nightowl-labs/server-sleeper/aws"]);
    assert.deepEqual(repositoriesLinkedIn("[guide](https://github.com/example-org/platform/blob/main/README.md)"), []);
  });

  test("the registry module of the turned-down option is found; the chosen function's own module is not", async () => {
    const repo = repoWith();
    const module = (source: string) => ({ "infra/sleep.tf": `module "sleep" {\n  source  = "${source}"\n  version = "2.1.0"\n}\n` });
    assert.deepEqual(await findingsFor(repo, module("nightowl-labs/server-sleeper/aws")), [`introduces-rejected-option high infra/sleep.tf:2 ← ${RECORD_PATH}`]);
    assert.deepEqual(await findingsFor(repo, module("./modules/own-sleeper")), []);
  });

  test("a link to a file of the project's own repository, and a comment naming the module, are no use of it", async () => {
    const repo = repoWith();
    assert.deepEqual(await findingsFor(repo, { "infra/main.tf": 'locals {\n  env = "test"\n  # see example-org/platform for the languages record\n}\n' }), []);
    assert.deepEqual(await findingsFor(repo, { "infra/main.tf": 'locals {\n  env = "test"\n  # not nightowl-labs/server-sleeper/aws: ADR 12\n}\n' }), []);
  });
});
