// The layering is enforced by lint, and lint must be able to fail: a probe that imports the editor from core, the
// host from the webview, or closes an import cycle is reported with the rule that owns it.
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { randomBytes } from "node:crypto";
import { ESLint } from "eslint";

const root = resolve(__dirname, "../..");
const eslint = new ESLint({ cwd: root });
const probes: string[] = [];
after(() => {
  for (const p of probes) rmSync(p, { recursive: true, force: true });
});

async function rulesFor(text: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(text, { filePath: join(root, filePath) });
  return result.messages.map((m) => m.ruleId ?? "fatal");
}

describe("lint enforces the architecture", () => {
  it("refuses vscode in core and in the shared protocol", async () => {
    assert.ok((await rulesFor('import * as vscode from "vscode";\nexport const x = vscode;\n', "src/core/probe.ts")).includes("no-restricted-imports"));
    assert.ok((await rulesFor('import * as vscode from "vscode";\nexport const x = vscode;\n', "src/shared/probe.ts")).includes("no-restricted-imports"));
    assert.deepEqual(await rulesFor('import * as vscode from "vscode";\nexport const x = vscode;\n', "src/vscode/probe.ts"), []);
  });

  it("refuses the host in the webview and the host in core", async () => {
    assert.ok((await rulesFor('import { x } from "../src/vscode/log";\nexport const y = x;\n', "webview/probe.ts")).includes("no-restricted-imports"));
    assert.ok((await rulesFor('import { x } from "../vscode/log";\nexport const y = x;\n', "src/core/probe.ts")).includes("no-restricted-imports"));
  });

  it("reports an import cycle", async () => {
    const dir = join(root, "src", "core", `lintprobe-${randomBytes(4).toString("hex")}`);
    probes.push(dir);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "a.ts"), 'import { b } from "./b";\nexport const a = () => b();\n');
    writeFileSync(join(dir, "b.ts"), 'import { a } from "./a";\nexport const b = () => a();\n');
    const [result] = await eslint.lintFiles([join(dir, "a.ts")]);
    assert.ok(result.messages.some((m) => m.ruleId === "import-x/no-cycle"), JSON.stringify(result.messages));
  });

  it("caps functions at 80 lines", async () => {
    const body = Array.from({ length: 85 }, (_, i) => `  const v${i} = ${i};`).join("\n");
    assert.ok((await rulesFor(`export function long(): void {\n${body}\n}\n`, "src/core/probe.ts")).includes("max-lines-per-function"));
  });
});
