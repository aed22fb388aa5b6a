// The layering rules, enforced: the core and the shared protocol never import `vscode`; the webview never imports
// `vscode` or the host; the core never reaches into the extension. A violation names the file and the import.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";

const ROOT = resolve(__dirname, "../..");

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? sources(p) : /\.ts$/.test(name) && !name.endsWith(".d.ts") ? [p] : [];
  });
}

function imports(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const found: string[] = [];
  for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+["']([^"']+)["']/g)) found.push(m[1]);
  for (const m of text.matchAll(/\b(?:require|import)\(\s*["']([^"']+)["']\s*\)/g)) found.push(m[1]);
  return found;
}

function violations(dir: string, forbidden: (spec: string, file: string) => boolean): string[] {
  return sources(join(ROOT, dir)).flatMap((file) =>
    imports(file)
      .filter((spec) => forbidden(spec, file))
      .map((spec) => `${relative(ROOT, file)} imports ${spec}`),
  );
}

test("src/core never imports vscode or the extension host", () => {
  assert.deepEqual(violations("src/core", (s) => s === "vscode" || /(^|\/)vscode\//.test(s) || s.includes("../vscode")), []);
});

test("src/shared (the host<->webview protocol) imports neither vscode nor the host", () => {
  assert.deepEqual(violations("src/shared", (s) => s === "vscode" || s.includes("/vscode/") || s.startsWith("../core/pipeline")), []);
});

test("the webview never imports vscode, the host or the core pipeline", () => {
  assert.deepEqual(violations("webview", (s) => s === "vscode" || s.includes("src/vscode") || s.includes("../src/core/pipeline")), []);
});

test("the checker sees imports (it can fail)", () => {
  assert.ok(imports(join(ROOT, "src/vscode/extension.ts")).includes("vscode"));
});
