// Decision sources per workspace folder: the settings are resource-scoped (a folder's own settings.json, or a
// multi-root workspace's per-folder settings, may name its own sources), each folder's settings become its own
// source list with relative folders resolved against that folder, and the other folders join as sources.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseSources } from "../../src/core/sources";
import { toDecisionSources } from "../../src/vscode/config";
import { SECTION } from "../../src/vscode/constants";
import { parseSettings } from "../../src/vscode/settingsSchema";

const ROOT = join(import.meta.dirname, "..", "..");
const FOLDERS = [
  { name: "orders-service", path: "/ws/orders-service" },
  { name: "billing", path: "/ws/billing" },
  { name: "architecture", path: "/ws/architecture" },
];

const settingsOf = (values: Record<string, unknown>) => parseSettings((key) => values[key]);

describe("decision sources per workspace folder", () => {
  it("package.json declares the source settings resource-scoped, so each folder may name its own", () => {
    const props = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).contributes.configuration.properties as Record<string, { scope?: string }>;
    for (const key of ["decisionSources", "decisionSources.refreshMinutes", "shareDecisionsAcrossFolders"]) {
      assert.equal(props[`${SECTION}.${key}`]?.scope, "resource", `${key} is resource-scoped`);
    }
  });

  it("the deliberation request reads the settings of the asking folder", () => {
    // Every deliberation entry point builds its request from readSettings(<the asking folder>): a window-wide read
    // would give every folder the first folder's sources.
    const deliberate = readFileSync(join(ROOT, "src/vscode/deliberate.ts"), "utf8");
    assert.match(deliberate, /readSettings\(req\.folder\)/);
    const request = readFileSync(join(ROOT, "src/vscode/request.ts"), "utf8");
    assert.match(request, /toDecisionSources\(settings, req\.folder\.uri\.fsPath\)/);
    const config = readFileSync(join(ROOT, "src/vscode/config.ts"), "utf8");
    assert.match(config, /getConfiguration\(SECTION, scope\)/);
  });

  it("two folders with their own settings get their own sources; a relative folder is the asking folder's", () => {
    const orders = toDecisionSources(settingsOf({ decisionSources: ["platform=../platform-decisions"], shareDecisionsAcrossFolders: false }), FOLDERS[0].path, FOLDERS);
    const billing = toDecisionSources(settingsOf({ decisionSources: ["https://git.example.test/org/finance-decisions.git#main:adr"], shareDecisionsAcrossFolders: false }), FOLDERS[1].path, FOLDERS);
    assert.deepEqual(orders?.specs, ["platform=../platform-decisions"]);
    assert.deepEqual(billing?.specs, ["https://git.example.test/org/finance-decisions.git#main:adr"]);
    const parsed = parseSources(orders, FOLDERS[0].path);
    assert.deepEqual(parsed.map((s) => ("bad" in s ? s.reason : [s.name, s.kind === "folder" ? s.folder : s.display])), [["platform", "/ws/platform-decisions"]]);
    const nested = parseSources(toDecisionSources(settingsOf({ decisionSources: ["docs/decisions"], shareDecisionsAcrossFolders: false }), FOLDERS[1].path, FOLDERS), FOLDERS[1].path);
    assert.deepEqual(nested.map((s) => ("bad" in s ? s.reason : s.kind === "folder" ? s.folder : "")), ["/ws/billing/docs/decisions"]);
  });

  it("sharing: the other folders join each folder's own sources, never the asking folder itself", () => {
    const req = toDecisionSources(settingsOf({ decisionSources: ["../platform-decisions"] }), FOLDERS[0].path, FOLDERS);
    assert.deepEqual(req?.specs, ["../platform-decisions", "billing=/ws/billing", "architecture=/ws/architecture"]);
    const names = parseSources(req, FOLDERS[0].path).map((s) => ("bad" in s ? "bad" : s.name));
    assert.deepEqual(names, ["platform-decisions", "billing", "architecture"]);
    // A folder the settings name that is also a shared workspace folder is read once (twice, its records would
    // count double), under the name it was given first.
    const twice = parseSources(toDecisionSources(settingsOf({ decisionSources: ["arch=../architecture", "../architecture/"] }), FOLDERS[0].path, FOLDERS), FOLDERS[0].path);
    assert.deepEqual(twice.map((s) => ("bad" in s ? "bad" : `${s.name}=${s.kind === "folder" ? s.folder : s.display}`)), ["arch=/ws/architecture", "billing=/ws/billing"]);
    const gitTwice = parseSources({ specs: ["https://git.example.test/org/arch.git#main", "other=https://tok@git.example.test/org/arch.git#main"] }, "/ws/x");
    assert.equal(gitTwice.length, 1);
  });
});
