// `deliberate --source` and `deliberate verify --evidence` as real processes: a question asked in a service is
// decided by a separate architecture repository's record, the citation names the source and its commit, the receipt
// records the source without credentials, and an edit to the cited record makes verify report the receipt stale.
import { test, describe, before } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { assertCliBuilt, newCliUser, runCli, type CliOptions } from "../helpers/cli";
import { commit, git } from "../helpers/gitRepo";
import { ARCH_ADR_7, ARCH_ADR_7_PATH, SOURCES_Q, architectureRepo, serviceRepo } from "../fixtures/sourceRepos";
import { mcpSettingsFromArgs } from "../../src/mcp/main";
import { toDecisionSources } from "../../src/vscode/config";
import { parseSettings } from "../../src/vscode/settingsSchema";

const AS_USER: CliOptions = { env: newCliUser().env };

describe("decision sources in the CLI", () => {
  before(() => assertCliBuilt());

  test("--source decides, cites the source with its commit, and verify --evidence sees the source change", () => {
    const arch = architectureRepo();
    const repo = serviceRepo();
    const head = git(arch, ["rev-parse", "HEAD"]).trim();
    const asked = runCli([SOURCES_Q, "--repo", repo, "--source", `arch=${arch}`, "--offline"], AS_USER);
    assert.equal(asked.code, 0, asked.stderr);
    assert.match(asked.stdout, new RegExp(`arch:${ARCH_ADR_7_PATH.replace(/\./g, "\\.")}:\\d+-\\d+ @ ${head.slice(0, 10)}`));
    assert.match(asked.stdout, /PostgreSQL/);

    const receipts = readdirSync(join(repo, ".deliberations")).filter((f) => f.endsWith(".json"));
    assert.equal(receipts.length, 1);
    const receipt = JSON.parse(readFileSync(join(repo, ".deliberations", receipts[0]), "utf8"));
    assert.deepEqual(receipt.decision_sources, [{ name: "arch", kind: "folder", spec: arch, commit: head }]);

    let verified = runCli(["verify", "--repo", repo, "--evidence"], AS_USER);
    assert.equal(verified.code, 0, verified.stdout + verified.stderr);
    assert.match(verified.stdout, /evidence: fresh/);

    commit(arch, { message: "platform moves to CockroachDB", files: { [ARCH_ADR_7_PATH]: ARCH_ADR_7.replace("Every service stores its data in PostgreSQL.", "Every service stores its data in CockroachDB.") } });
    verified = runCli(["verify", "--repo", repo, "--evidence"], AS_USER);
    // Staleness is reported, never an exit code: the receipt is still an honest record of what the source said.
    assert.equal(verified.code, 0);
    assert.match(verified.stdout, /stale: evidence changed/);
    assert.match(verified.stdout, /arch:decisions\/0007-use-postgresql-for-service-persistence\.md:\d+-\d+ @ [0-9a-f]{10} \(cited lines changed\)/);
  });

  test("a bad --source is one line in the stage, and the answer still comes", () => {
    const repo = serviceRepo();
    const asked = runCli([SOURCES_Q, "--repo", repo, "--source", "http://example.test/arch.git", "--offline", "--json", "--no-receipt"], AS_USER);
    assert.equal(asked.code, 0, asked.stderr);
    assert.ok(JSON.parse(asked.stdout).options.length >= 2);
  });

  test("MCP --source is configured on the server, a relative folder resolved there", () => {
    const { settings } = mcpSettingsFromArgs(["--repo", ".", "--source", "https://u:tok@git.example.test/org/architecture.git#main:decisions", "--source", "test"], process.env);
    assert.equal(settings.sources?.[0], "https://u:tok@git.example.test/org/architecture.git#main:decisions");
    assert.equal(settings.sources?.[1], `test=${join(process.cwd(), "test")}`);
  });

  test("VS Code: configured sources plus the other workspace folders; the asking folder is never its own source", () => {
    const settings = parseSettings((key) => ({ decisionSources: ["https://git.example.test/org/architecture.git"] })[key]);
    assert.equal(settings.shareDecisionsAcrossFolders, true);
    assert.equal(settings.decisionSourcesRefreshMinutes, 60);
    const folders = [{ name: "web", path: "/ws/web" }, { name: "api server", path: "/ws/api" }];
    const req = toDecisionSources(settings, "/ws/web", folders);
    assert.deepEqual(req, { specs: ["https://git.example.test/org/architecture.git", "api-server=/ws/api"], cwd: "/ws/web", refreshMinutes: 60 });
    const off = toDecisionSources({ ...settings, decisionSources: [], shareDecisionsAcrossFolders: false }, "/ws/web", folders);
    assert.equal(off, undefined);
  });
});
