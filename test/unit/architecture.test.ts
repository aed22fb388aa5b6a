// The layering rules, enforced: the core and the shared protocol never import `vscode`; the webview never imports
// `vscode` or the host; the core never reaches into the extension; the extension's activation path reaches the
// heavy bundle only through loadHeavyBundle(); and no import cycle runs through the extension, the shared modules,
// the webview or the CLI. A violation names the file and the import.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const ROOT = resolve(__dirname, "../..");

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? sources(p) : /\.ts$/.test(name) && !name.endsWith(".d.ts") ? [p] : [];
  });
}

function imports(file: string, opts: { types?: boolean } = {}): string[] {
  const text = readFileSync(file, "utf8");
  const found: string[] = [];
  for (const m of text.matchAll(/(?:^|\n)\s*(import|export)(\s+type)?\s[^;]*?from\s+["']([^"']+)["']/g)) {
    if (opts.types !== false || !m[2]) found.push(m[3]);
  }
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

/** A relative import as the .ts file it names (".js" requires resolve to their sources), else undefined. */
function resolveImport(from: string, spec: string): string | undefined {
  if (!spec.startsWith(".")) return undefined;
  const base = resolve(dirname(from), spec).replace(/\.js$/, "");
  return [`${base}.ts`, join(base, "index.ts")].find((p) => existsSync(p));
}

/** Every import cycle (type imports included) that passes through a file `mine` accepts. */
function cycles(files: string[], mine: (file: string) => boolean): string[][] {
  const graph = new Map(files.map((f) => [f, imports(f).map((s) => resolveImport(f, s)).filter((x): x is string => !!x)]));
  const found: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (f: string) => {
    state.set(f, "open");
    stack.push(f);
    for (const next of graph.get(f) ?? []) {
      if (state.get(next) === "open") {
        const cycle = stack.slice(stack.indexOf(next));
        if (cycle.some(mine)) found.push(cycle.map((p) => relative(ROOT, p)));
      } else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(f, "done");
  };
  for (const f of files) if (!state.has(f)) visit(f);
  return found;
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

test("src/vscode/constants.ts is a leaf: it imports nothing", () => {
  assert.deepEqual(imports(join(ROOT, "src/vscode/constants.ts")), []);
});

test("only loadHeavyBundle.ts loads the heavy bundle; everything else imports at most its types", () => {
  const offenders = sources(join(ROOT, "src/vscode")).flatMap((file) =>
    imports(file, { types: false })
      .filter((s) => /(^|\/)heavyBundle(\.js)?$/.test(s) && !file.endsWith("loadHeavyBundle.ts"))
      .map((s) => `${relative(ROOT, file)} imports ${s}`),
  );
  assert.deepEqual(offenders, []);
});

test("no import cycle runs through src/vscode, src/shared, the webview or the CLI", () => {
  const files = [...sources(join(ROOT, "src")), ...sources(join(ROOT, "webview"))];
  const mine = (f: string) => /[\\/](src[\\/](vscode|shared)|webview)[\\/]|[\\/]src[\\/]cli\w*\.ts$/.test(f);
  assert.deepEqual(cycles(files, mine), []);
});

test("the checkers see imports and cycles (they can fail)", () => {
  assert.ok(imports(join(ROOT, "src/vscode/extension.ts")).includes("vscode"));
  const a = join(ROOT, "src/vscode/config.ts");
  const b = join(ROOT, "src/vscode/loadHeavyBundle.ts");
  assert.ok(resolveImport(a, "./loadHeavyBundle") === b);
  assert.ok(imports(b).includes("./heavyBundle") && imports(b).includes("./heavyBundle.js"), "the loader's type import and its require");
});
