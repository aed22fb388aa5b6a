// The decision guard as the extension host runs it (src/vscode/guard/guardDiagnostics.ts), under plain Node with a
// stand-in `vscode` module (test/helpers/vscodeStub.ts), on the e2e's own sample repository. Also the cause of the
// guard never showing a diagnostic in code-server: VS Code 1.100 refused the MCP server definition provider (it
// looks it up under the contribution point `modelContextServerCollections`), the throw ended activate() before the
// guard was created, and nothing in the extension's own log said so.
import { stub, Uri, workspace, lm, type WorkspaceFolder } from "../helpers/vscodeStub";
import { describe, test, beforeEach } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createSampleRepo } from "../fixtures/sampleRepo";
import { makeTempDir } from "../helpers/gitRepo";
import type * as vscodeTypes from "vscode";
import { GuardDiagnostics, OPEN_DECISION_COMMAND } from "../../src/vscode/guard/guardDiagnostics";
import { GUARD_SOURCE } from "../../src/vscode/guard/findings";
import { MCP_PROVIDER_ID, registerMcpProvider } from "../../src/vscode/mcpProvider";
import type { Log } from "../../src/vscode/log";

const ROOT = join(import.meta.dirname, "../..");

interface Logged {
  level: "info" | "warn" | "error";
  message: string;
}

function recordingLog(): { log: Log; lines: Logged[] } {
  const lines: Logged[] = [];
  const log = {
    info: (message: string) => lines.push({ level: "info", message }),
    warn: (message: string) => lines.push({ level: "warn", message }),
    error: (message: string, err?: unknown) => lines.push({ level: "error", message: err === undefined ? message : `${message}: ${String(err)}` }),
    show: () => {},
    dispose: () => {},
  };
  return { log: log as unknown as Log, lines };
}

function folderAt(path: string): WorkspaceFolder {
  const folder = { uri: Uri.file(path), name: "acme-shop", index: 0 };
  workspace.workspaceFolders = [folder];
  return folder;
}

const asFolder = (f: WorkspaceFolder) => f as unknown as vscodeTypes.WorkspaceFolder;
const docAt = (path: string) => ({ uri: Uri.file(path) }) as unknown as vscodeTypes.TextDocument;

/** Waits until the guard has logged its outcome for a folder (a refresh may restart when another one is scheduled). */
async function outcome(lines: Logged[], what: RegExp, ms = 60_000): Promise<Logged> {
  const until = Date.now() + ms;
  for (;;) {
    const hit = lines.find((l) => what.test(l.message));
    if (hit) return hit;
    if (Date.now() > until) throw new Error(`no log line ${what}; log: ${JSON.stringify(lines)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The sample repository with the e2e's edit: winston added to package.json just before pino (line 6). */
function sampleWithWinston(): string {
  const dir = makeTempDir("delib-guard-editor-");
  createSampleRepo(dir);
  const file = join(dir, "package.json");
  writeFileSync(file, readFileSync(file, "utf8").replace('    "pino"', '    "winston": "^3.11.0",\n    "pino"'));
  return dir;
}

describe("activation in VS Code 1.100: the MCP provider", () => {
  beforeEach(() => stub.reset());

  test("a refused MCP provider registration is logged and skipped, never thrown into activate()", () => {
    lm.registerMcpServerDefinitionProvider = () => {
      throw new Error('MCP configuration providers must be registered in the contributes.modelContextServerCollections array within your package.json, but "deliberativeSearch.mcpServers" was not');
    };
    try {
      const { log, lines } = recordingLog();
      let registered: unknown[] = [];
      assert.doesNotThrow(() => (registered = registerMcpProvider(ROOT, "0.1.0", log)));
      assert.deepEqual(registered, []);
      const warning = lines.find((l) => l.level === "warn");
      assert.ok(warning, JSON.stringify(lines));
      assert.match(warning.message, /refused the MCP server definition provider.*modelContextServerCollections/);
    } finally {
      delete lm.registerMcpServerDefinitionProvider;
    }
  });

  test("where the editor accepts it, the provider is registered", () => {
    const ids: string[] = [];
    lm.registerMcpServerDefinitionProvider = (id: string) => {
      ids.push(id);
      return { dispose() {} };
    };
    try {
      const { log } = recordingLog();
      assert.equal(registerMcpProvider(ROOT, "0.1.0", log).length, 4);
      assert.deepEqual(ids, [MCP_PROVIDER_ID]);
    } finally {
      delete lm.registerMcpServerDefinitionProvider;
    }
  });

  test("the manifest declares the provider for 1.100 and 1.101+, and activates without a source file open", () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
      engines: { vscode: string };
      activationEvents: string[];
      contributes: Record<string, Array<{ id: string }> | undefined>;
    };
    assert.equal(manifest.engines.vscode, "^1.100.0");
    assert.deepEqual(manifest.contributes.modelContextServerCollections?.map((c) => c.id), [MCP_PROVIDER_ID], "VS Code 1.100's contribution point");
    assert.deepEqual(manifest.contributes.mcpServerDefinitionProviders?.map((c) => c.id), [MCP_PROVIDER_ID], "VS Code 1.101's contribution point");
    // The guard's Problems cover package.json, pom.xml, go.mod, …: it must be running whatever file is (or is not) open.
    assert.ok(manifest.activationEvents.includes("onStartupFinished"), manifest.activationEvents.join(", "));
  });
});

describe("the guard in the extension host", () => {
  beforeEach(() => stub.reset());

  test("the e2e's edit: a diagnostic on the winston line, a hover citing the record with a link, both quick fixes", async () => {
    const repo = sampleWithWinston();
    const folder = folderAt(repo);
    const { log, lines } = recordingLog();
    const guard = new GuardDiagnostics(log, async () => {});
    try {
      void folder;
      guard.refreshAll();
      await outcome(lines, /^guard: acme-shop: \d+ finding|^guard: acme-shop: the check failed/);
      const diags = stub.diagnostics.get(join(repo, "package.json"));
      assert.ok(diags?.length, `no diagnostics; log: ${JSON.stringify(lines)}`);
      const d = diags[0]!;
      assert.equal(d.source, GUARD_SOURCE);
      assert.equal(d.range.start.line, 5, "0-based line of the added winston dependency");
      assert.equal(d.severity, 0, "a dependency is a high finding: an error");
      assert.equal(d.code, "introduces-rejected-option");
      assert.match(d.message, /winston.*pino/);
      assert.equal(d.relatedInformation?.[0]?.location.uri.fsPath, join(repo, "docs/decisions/20240312-use-pino-for-logging.md"));

      const hover = guard.provideHover(docAt(join(repo, "package.json")), { line: 5, character: 3 } as vscodeTypes.Position);
      const md = (hover?.contents as unknown as { value: string; isTrusted: unknown }) ?? { value: "", isTrusted: undefined };
      assert.match(md.value, /\*\*Decision guard\*\*/);
      assert.match(md.value, /\[Use pino for structured logging\]\(command:deliberativeSearch\.guard\.openDecision\?/);
      assert.ok(md.value.includes("`docs/decisions/20240312-use-pino-for-logging.md`"), md.value);
      assert.deepEqual(md.isTrusted, { enabledCommands: [OPEN_DECISION_COMMAND] });
      assert.equal(guard.provideHover(docAt(join(repo, "package.json")), { line: 4, character: 0 } as vscodeTypes.Position), undefined, "no hover on the pino line");

      const context = { diagnostics: diags } as unknown as vscodeTypes.CodeActionContext;
      const actions = guard.provideCodeActions(docAt(join(repo, "package.json")), { start: { line: 5 } } as vscodeTypes.Range, context);
      assert.deepEqual(
        actions.map((a) => a.title),
        // The record's fixes first; AGENTS.md's rule ("do not add winston") marks the same line, with its own.
        ["Open Decision: Use pino for structured logging", "Deliberate on This", "Open Decision: Use pino for logging (see docs/decisions/20240312-use-pino-for-logging.md).", "Deliberate on This"],
      );
      assert.deepEqual(actions[0]!.command?.arguments?.slice(1), ["docs/decisions/20240312-use-pino-for-logging.md", 20]);
      assert.equal(stub.statusItems[0]?.visible, false, "no failure to show");
      assert.ok(lines.some((l) => l.level === "info" && /2 finding\(s\) in 1 changed file/.test(l.message)), JSON.stringify(lines));
    } finally {
      guard.dispose();
      rmSync(repo, { recursive: true, force: true });
    }
  });

  test("a check that fails says so in the log and the status bar; a folder outside git stays quiet", async () => {
    const repo = sampleWithWinston();
    const plain = makeTempDir("delib-guard-plain-");
    const { log, lines } = recordingLog();
    const guard = new GuardDiagnostics(log, async () => {});
    try {
      writeFileSync(join(repo, ".git", "index"), "garbage"); // git diff fails: "index file smaller than expected"
      folderAt(repo);
      guard.refreshAll();
      const error = await outcome(lines, /^guard: acme-shop: /);
      assert.equal(error.level, "error", JSON.stringify(lines));
      assert.match(error.message, /^guard: acme-shop: the check failed: .*index/);
      const status = stub.statusItems[0]!;
      assert.equal(status.visible, true);
      assert.match(status.text, /Decision guard failed/);
      assert.match(String(status.tooltip), /acme-shop: .*index/);
      assert.equal(status.command, "deliberativeSearch.showLog");

      lines.length = 0;
      folderAt(plain);
      guard.refreshAll();
      await outcome(lines, /not a git repository/);
      assert.deepEqual(lines.filter((l) => l.level !== "info"), []);
      assert.equal(status.visible, false, "the failed folder left the workspace and the plain one is no failure");
      assert.equal(stub.diagnostics.size, 0);
    } finally {
      guard.dispose();
      rmSync(repo, { recursive: true, force: true });
      rmSync(plain, { recursive: true, force: true });
    }
  });

  test("settings off or an untrusted workspace: no check, no diagnostics", async () => {
    const repo = sampleWithWinston();
    const { log, lines } = recordingLog();
    const guard = new GuardDiagnostics(log, async () => {});
    try {
      const folder = folderAt(repo);
      stub.settings.set("deliberativeSearch.guard.enabled", false);
      await guard.refresh(asFolder(folder));
      assert.equal(stub.diagnostics.size, 0);
      stub.settings.clear();
      workspace.isTrusted = false;
      await guard.refresh(asFolder(folder));
      assert.equal(stub.diagnostics.size, 0);
      assert.deepEqual(lines, []);
    } finally {
      guard.dispose();
      rmSync(repo, { recursive: true, force: true });
    }
  });
});
