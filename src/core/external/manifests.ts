// Declared dependencies of a workspace, read with light parsers: package.json, pyproject.toml, requirements*.txt,
// go.mod, Cargo.toml (+ Cargo.lock for exact versions). Names and declared versions only; what is installed is
// found by dependencyDocs.ts. The TOML reader handles the subset manifests use (tables, key = value, inline
// tables, arrays spanning lines), not TOML in general.
import { promises as fs } from "node:fs";
import { join } from "node:path";

export type Ecosystem = "npm" | "pypi" | "go" | "crates";

export interface DeclaredDependency {
  ecosystem: Ecosystem;
  name: string;
  /** The requirement as written ("^4.6.7", ">=2,<3", "v1.9.0"), when there is one. */
  declared?: string;
  /** The manifest that declares it (workspace-relative). */
  manifest: string;
  dev?: boolean;
}

export interface ManifestReport {
  manifests: string[];
  dependencies: DeclaredDependency[];
  warnings: string[];
  /** Exact versions from lock files where known (crates: Cargo.lock), keyed by name. */
  locked: Map<string, string>;
}

const MAX_MANIFEST_BYTES = 1024 * 1024;

async function readSmall(abs: string): Promise<string | undefined> {
  try {
    const st = await fs.stat(abs);
    if (!st.isFile() || st.size > MAX_MANIFEST_BYTES) return undefined;
    return await fs.readFile(abs, "utf8");
  } catch {
    return undefined;
  }
}

export async function readDeclaredDependencies(repo: string): Promise<ManifestReport> {
  const report: ManifestReport = { manifests: [], dependencies: [], warnings: [], locked: new Map() };
  const seen = new Set<string>();
  const add = (d: DeclaredDependency) => {
    const key = `${d.ecosystem}:${d.name}`;
    if (seen.has(key)) return;
    seen.add(key);
    report.dependencies.push(d);
  };

  const pkg = await readSmall(join(repo, "package.json"));
  if (pkg !== undefined) {
    report.manifests.push("package.json");
    try {
      const json = JSON.parse(pkg) as Record<string, unknown>;
      for (const [field, dev] of [
        ["dependencies", false],
        ["devDependencies", true],
        ["optionalDependencies", false],
        ["peerDependencies", false],
      ] as const) {
        const deps = json[field];
        if (!deps || typeof deps !== "object") continue;
        for (const [name, v] of Object.entries(deps as Record<string, unknown>)) {
          add({ ecosystem: "npm", name, ...(typeof v === "string" ? { declared: v } : {}), manifest: "package.json", ...(dev ? { dev } : {}) });
        }
      }
    } catch (err) {
      report.warnings.push(`package.json: not valid JSON (${(err as Error).message.split("\n")[0]})`);
    }
  }

  const pyproject = await readSmall(join(repo, "pyproject.toml"));
  if (pyproject !== undefined) {
    report.manifests.push("pyproject.toml");
    for (const d of parsePyproject(pyproject)) add({ ...d, manifest: "pyproject.toml" });
  }
  let entries: string[] = [];
  try {
    entries = (await fs.readdir(repo)).sort();
  } catch {
    entries = [];
  }
  for (const f of entries.filter((e) => /^requirements.*\.txt$/i.test(e))) {
    const text = await readSmall(join(repo, f));
    if (text === undefined) continue;
    report.manifests.push(f);
    for (const d of parseRequirements(text)) add({ ...d, manifest: f, ...(/dev|test/i.test(f) ? { dev: true } : {}) });
  }

  const gomod = await readSmall(join(repo, "go.mod"));
  if (gomod !== undefined) {
    report.manifests.push("go.mod");
    for (const d of parseGoMod(gomod)) add({ ...d, manifest: "go.mod" });
  }

  const cargo = await readSmall(join(repo, "Cargo.toml"));
  if (cargo !== undefined) {
    report.manifests.push("Cargo.toml");
    for (const d of parseCargoToml(cargo)) add({ ...d, manifest: "Cargo.toml" });
    const lock = await readSmall(join(repo, "Cargo.lock"));
    if (lock !== undefined) for (const [n, v] of parseCargoLock(lock)) report.locked.set(n, v);
  }
  return report;
}

// ---------------------------------------------------------------------------------------------------------
// Python.

/** PEP 508 requirement -> name and the version part ("requests[socks]>=2.31; python_version>'3.8'"). */
export function parsePep508(req: string): { name: string; declared?: string } | undefined {
  const s = req.split(";")[0].trim();
  const m = /^([A-Za-z0-9][A-Za-z0-9._-]*)\s*(\[[^\]]*\])?\s*(.*)$/.exec(s);
  if (!m) return undefined;
  const rest = m[3].replace(/^\(|\)$/g, "").trim();
  if (rest.startsWith("@")) return { name: m[1], declared: rest };
  return { name: m[1], ...(rest ? { declared: rest } : {}) };
}

export function parseRequirements(text: string): Omit<DeclaredDependency, "manifest">[] {
  const out: Omit<DeclaredDependency, "manifest">[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/\s+#.*$/, "").replace(/^#.*$/, "").trim();
    if (!line || line.startsWith("-") || /^(https?|git\+|file):/.test(line)) continue;
    const r = parsePep508(line);
    if (r) out.push({ ecosystem: "pypi", ...r });
  }
  return out;
}

export function parsePyproject(text: string): Omit<DeclaredDependency, "manifest">[] {
  const toml = parseTomlLite(text);
  const out: Omit<DeclaredDependency, "manifest">[] = [];
  const project = toml.get("project");
  const pushReqs = (v: unknown, dev: boolean) => {
    if (!Array.isArray(v)) return;
    for (const item of v) if (typeof item === "string") {
      const r = parsePep508(item);
      if (r) out.push({ ecosystem: "pypi", ...r, ...(dev ? { dev } : {}) });
    }
  };
  pushReqs(project?.dependencies, false);
  const optional = toml.get("project.optional-dependencies");
  if (optional) for (const v of Object.values(optional)) pushReqs(v, true);
  const groups = toml.get("dependency-groups");
  if (groups) for (const v of Object.values(groups)) pushReqs(v, true);
  for (const [table, dev] of [
    ["tool.poetry.dependencies", false],
    ["tool.poetry.dev-dependencies", true],
    ["tool.poetry.group.dev.dependencies", true],
  ] as const) {
    const deps = toml.get(table);
    if (!deps) continue;
    for (const [name, v] of Object.entries(deps)) {
      if (name.toLowerCase() === "python") continue;
      const declared = typeof v === "string" ? v : typeof (v as Record<string, unknown>)?.version === "string" ? String((v as Record<string, unknown>).version) : undefined;
      out.push({ ecosystem: "pypi", name, ...(declared ? { declared } : {}), ...(dev ? { dev } : {}) });
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// Go.

export function parseGoMod(text: string): Omit<DeclaredDependency, "manifest">[] {
  const out: Omit<DeclaredDependency, "manifest">[] = [];
  let inRequire = false;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/\/\/.*$/, "").trim();
    if (!line) continue;
    if (inRequire) {
      if (line === ")") {
        inRequire = false;
        continue;
      }
      const m = /^(\S+)\s+(v\S+)/.exec(line);
      if (m) out.push({ ecosystem: "go", name: m[1], declared: m[2], ...(/\/\/\s*indirect/.test(raw) ? { dev: true } : {}) });
      continue;
    }
    if (/^require\s*\($/.test(line)) {
      inRequire = true;
      continue;
    }
    const single = /^require\s+(\S+)\s+(v\S+)/.exec(line);
    if (single) out.push({ ecosystem: "go", name: single[1], declared: single[2] });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// Rust.

export function parseCargoToml(text: string): Omit<DeclaredDependency, "manifest">[] {
  const toml = parseTomlLite(text);
  const out: Omit<DeclaredDependency, "manifest">[] = [];
  for (const [table, values] of toml) {
    const kind = /(?:^|\.)((?:dev-|build-)?dependencies)$/.exec(table);
    if (kind) {
      for (const [name, v] of Object.entries(values)) {
        const spec = v as Record<string, unknown> | string;
        const declared = typeof spec === "string" ? spec : typeof spec?.version === "string" ? String(spec.version) : undefined;
        const realName = typeof spec === "object" && typeof spec?.package === "string" ? String(spec.package) : name;
        out.push({ ecosystem: "crates", name: realName, ...(declared ? { declared } : {}), ...(kind[1] !== "dependencies" ? { dev: true } : {}) });
      }
      continue;
    }
    // [dependencies.serde] version = "1"
    const single = /(?:^|\.)((?:dev-|build-)?dependencies)\.([^.]+)$/.exec(table);
    if (single) {
      const declared = typeof values.version === "string" ? values.version : undefined;
      const realName = typeof values.package === "string" ? values.package : single[2];
      out.push({ ecosystem: "crates", name: realName, ...(declared ? { declared } : {}), ...(single[1] !== "dependencies" ? { dev: true } : {}) });
    }
  }
  return out;
}

export function parseCargoLock(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const block of text.split(/^\[\[package\]\]\s*$/m).slice(1)) {
    const name = /^name\s*=\s*"([^"]+)"/m.exec(block)?.[1];
    const version = /^version\s*=\s*"([^"]+)"/m.exec(block)?.[1];
    if (name && version && !out.has(name)) out.set(name, version);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// A TOML subset: [table] / [a.b."c"] headers, key = value with strings, numbers, booleans, arrays (multi-line)
// and inline tables. Array-of-tables ([[x]]) bodies are skipped. Returns table name -> key/value record.

export function parseTomlLite(text: string): Map<string, Record<string, unknown>> {
  const tables = new Map<string, Record<string, unknown>>();
  let current: Record<string, unknown> | undefined = {};
  tables.set("", current);
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = stripTomlComment(lines[i]).trim();
    if (!line) continue;
    if (line.startsWith("[[")) {
      current = undefined;
      continue;
    }
    const header = /^\[([^\]]+)\]$/.exec(line);
    if (header) {
      const name = header[1]
        .split(".")
        .map((p) => p.trim().replace(/^["']|["']$/g, ""))
        .join(".");
      current = tables.get(name) ?? {};
      tables.set(name, current);
      continue;
    }
    if (!current) continue;
    const kv = /^("[^"]+"|'[^']+'|[A-Za-z0-9_.-]+)\s*=\s*(.*)$/.exec(line);
    if (!kv) continue;
    let value = kv[2];
    // Gather a multi-line array or inline table until its brackets balance.
    while (bracketDepth(value) > 0 && i + 1 < lines.length) value += " " + stripTomlComment(lines[++i]).trim();
    const key = kv[1].replace(/^["']|["']$/g, "");
    const dotted = key.split(".");
    if (dotted.length > 1 && !/^["']/.test(kv[1])) {
      // a.b = v inside [t] -> table t.a, key b (enough for `foo.version = "1"` in Cargo manifests)
      const parentName = [...tables.entries()].find(([, t]) => t === current)?.[0] ?? "";
      const sub = [parentName, ...dotted.slice(0, -1)].filter(Boolean).join(".");
      const t = tables.get(sub) ?? {};
      tables.set(sub, t);
      t[dotted[dotted.length - 1]] = parseTomlValue(value);
      continue;
    }
    current[key] = parseTomlValue(value);
  }
  return tables;
}

function stripTomlComment(line: string): string {
  let inStr: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (inStr) {
      if (c === "\\" && inStr === '"') i++;
      else if (c === inStr) inStr = undefined;
    } else if (c === '"' || c === "'") inStr = c;
    else if (c === "#") return line.slice(0, i);
  }
  return line;
}

function bracketDepth(s: string): number {
  let depth = 0;
  let inStr: string | undefined;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (inStr) {
      if (c === "\\" && inStr === '"') i++;
      else if (c === inStr) inStr = undefined;
    } else if (c === '"' || c === "'") inStr = c;
    else if (c === "[" || c === "{") depth++;
    else if (c === "]" || c === "}") depth--;
  }
  return depth;
}

export function parseTomlValue(raw: string): unknown {
  const s = raw.trim();
  if (s.startsWith('"') || s.startsWith("'")) {
    const q = s[0];
    const end = s.indexOf(q, 1);
    return end > 0 ? s.slice(1, end) : s.slice(1);
  }
  if (s.startsWith("[")) return splitTop(s.slice(1, s.lastIndexOf("]"))).map(parseTomlValue);
  if (s.startsWith("{")) {
    const obj: Record<string, unknown> = {};
    for (const part of splitTop(s.slice(1, s.lastIndexOf("}")))) {
      const m = /^\s*("[^"]+"|'[^']+'|[A-Za-z0-9_.-]+)\s*=\s*(.*)$/s.exec(part);
      if (m) obj[m[1].replace(/^["']|["']$/g, "")] = parseTomlValue(m[2]);
    }
    return obj;
  }
  if (s === "true" || s === "false") return s === "true";
  const n = Number(s);
  return s && Number.isFinite(n) ? n : s;
}

/** Splits on top-level commas (outside strings and brackets); empty parts dropped. */
function splitTop(s: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let inStr: string | undefined;
  let cur = "";
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (inStr) {
      cur += c;
      if (c === "\\" && inStr === '"' && i + 1 < s.length) cur += s[++i];
      else if (c === inStr) inStr = undefined;
      continue;
    }
    if (c === '"' || c === "'") inStr = c;
    else if (c === "[" || c === "{") depth++;
    else if (c === "]" || c === "}") depth--;
    if (c === "," && depth === 0) {
      if (cur.trim()) parts.push(cur.trim());
      cur = "";
      continue;
    }
    cur += c;
  }
  if (cur.trim()) parts.push(cur.trim());
  return parts;
}
