// Declared dependencies of a workspace, read with light parsers: package.json, pyproject.toml, requirements*.txt,
// go.mod, Cargo.toml (+ Cargo.lock for exact versions). Names and declared versions only; what is installed is
// found by dependencyDocs.ts. The TOML reader handles the subset manifests use (tables, key = value, inline
// tables, arrays spanning lines), not TOML in general.
import { constants as fsConstants, promises as fs } from "node:fs";
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

/** A manifest longer than this is not read. */
const MAX_MANIFEST_BYTES = 1024 * 1024;
/** Bytes read over all of a workspace's manifests: past it, the manifests left are not read (a warning says so). */
export const MAX_MANIFEST_TOTAL_BYTES = 2 * 1024 * 1024;
/** requirements*.txt files read, at most. */
const MAX_REQUIREMENTS_FILES = 32;
/** Lines are cut to this many characters before any pattern sees them: a requirement or TOML key is far shorter. */
const MAX_LINE_CHARS = 1024;
/** A TOML value (an array or inline table gathered over lines) longer than this is skipped with its key. */
export const MAX_TOML_VALUE_CHARS = 64 * 1024;
/** A TOML value nested deeper than this is skipped with its key. */
export const MAX_TOML_DEPTH = 32;
/**
 * The reading of a TOML value visits each character once per level it is nested in: a value costing more than
 * this (characters times their depth) is skipped with its key, and so is every value past MAX_TOML_WORK in one file.
 * A real manifest's longest array costs a few thousand.
 */
const MAX_TOML_VALUE_WORK = 256 * 1024;
const MAX_TOML_WORK = 1024 * 1024;

/**
 * Reads the repository's top-level manifests: regular files only — a symbolic link is never followed (a committed
 * `requirements.txt -> /etc/hostname` is not read) — each at most MAX_MANIFEST_BYTES, all together at most
 * MAX_MANIFEST_TOTAL_BYTES.
 */
class ManifestReader {
  private left = MAX_MANIFEST_TOTAL_BYTES;

  constructor(
    private readonly repo: string,
    private readonly warnings: string[],
  ) {}

  async read(name: string): Promise<string | undefined> {
    const abs = join(this.repo, name);
    let handle: fs.FileHandle | undefined;
    try {
      const st = await fs.lstat(abs);
      if (st.isSymbolicLink()) {
        this.warnings.push(`${name}: a symbolic link, not read`);
        return undefined;
      }
      if (!st.isFile() || st.size > MAX_MANIFEST_BYTES) return undefined;
      // No symlink swapped in since the lstat: O_NOFOLLOW (where the platform has it) refuses one.
      handle = await fs.open(abs, fsConstants.O_RDONLY | (fsConstants.O_NOFOLLOW ?? 0));
      const opened = await handle.stat();
      if (!opened.isFile() || opened.size > MAX_MANIFEST_BYTES) return undefined;
      if (opened.size > this.left) {
        this.warnings.push(`${name}: not read (the manifests' ${MAX_MANIFEST_TOTAL_BYTES / 1048576} MB reading budget is spent)`);
        return undefined;
      }
      this.left -= opened.size;
      return await handle.readFile("utf8");
    } catch {
      return undefined;
    } finally {
      await handle?.close();
    }
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
  const reader = new ManifestReader(repo, report.warnings);

  const pkg = await reader.read("package.json");
  if (pkg !== undefined) {
    report.manifests.push("package.json");
    readPackageJson(pkg, add, report.warnings);
  }

  const pyproject = await reader.read("pyproject.toml");
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
  const requirements = entries.filter((e) => e.length <= 255 && /^requirements.*\.txt$/i.test(e));
  if (requirements.length > MAX_REQUIREMENTS_FILES) report.warnings.push(`${requirements.length} requirements*.txt files: the first ${MAX_REQUIREMENTS_FILES} read`);
  for (const f of requirements.slice(0, MAX_REQUIREMENTS_FILES)) {
    const text = await reader.read(f);
    if (text === undefined) continue;
    report.manifests.push(f);
    for (const d of parseRequirements(text)) add({ ...d, manifest: f, ...(/dev|test/i.test(f) ? { dev: true } : {}) });
  }

  const gomod = await reader.read("go.mod");
  if (gomod !== undefined) {
    report.manifests.push("go.mod");
    for (const d of parseGoMod(gomod)) add({ ...d, manifest: "go.mod" });
  }

  const cargo = await reader.read("Cargo.toml");
  if (cargo !== undefined) {
    report.manifests.push("Cargo.toml");
    for (const d of parseCargoToml(cargo)) add({ ...d, manifest: "Cargo.toml" });
    const lock = await reader.read("Cargo.lock");
    if (lock !== undefined) for (const [n, v] of parseCargoLock(lock)) report.locked.set(n, v);
  }
  return report;
}

function readPackageJson(text: string, add: (d: DeclaredDependency) => void, warnings: string[]): void {
  try {
    const json = JSON.parse(text) as Record<string, unknown>;
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
    warnings.push(`package.json: not valid JSON (${(err as Error).message.split("\n")[0]})`);
  }
}

// ---------------------------------------------------------------------------------------------------------
// Python.

/** PEP 508 requirement -> name and the version part ("requests[socks]>=2.31; python_version>'3.8'"). */
export function parsePep508(req: string): { name: string; declared?: string } | undefined {
  // Cut first: every pattern below then runs on at most MAX_LINE_CHARS characters.
  const s = req.slice(0, MAX_LINE_CHARS).split(";")[0].trim();
  const m = /^([A-Za-z0-9][A-Za-z0-9._-]*)\s*(\[[^\]]*\])?\s*(.*)$/.exec(s);
  if (!m) return undefined;
  const rest = m[3].replace(/^\(|\)$/g, "").trim();
  if (rest.startsWith("@")) return { name: m[1], declared: rest };
  return { name: m[1], ...(rest ? { declared: rest } : {}) };
}

/**
 * A requirements line without its comment: from the first "#" after whitespace (a line starting with "#" is a
 * comment too, and never a requirement). This is what `/\s+#.*$/` removed, found in one pass instead of a
 * backtracking match from every space; like `.*$`, a comment does not reach over a line-break character.
 */
function stripRequirementComment(line: string): string {
  const breakAt = Math.max(line.lastIndexOf("\r"), line.lastIndexOf("\u2028"), line.lastIndexOf("\u2029"));
  for (let i = Math.max(1, breakAt + 1); i < line.length; i++) if (line[i] === "#" && /\s/.test(line[i - 1])) return line.slice(0, i);
  return line;
}

export function parseRequirements(text: string): Omit<DeclaredDependency, "manifest">[] {
  const out: Omit<DeclaredDependency, "manifest">[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = stripRequirementComment(raw.slice(0, MAX_LINE_CHARS)).trim();
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
  for (const full of text.split(/\r?\n/)) {
    const raw = full.slice(0, MAX_LINE_CHARS);
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

/**
 * Name -> version of each [[package]] block. A quoted value does not reach past its line: a `name = "` with no
 * closing quote on its line costs that line, not a scan to the end of the block from every such line.
 */
export function parseCargoLock(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const block of text.split(/^\[\[package\]\]\s*$/m).slice(1)) {
    const name = /^name\s*=\s*"([^"\r\n\u2028\u2029]+)"/m.exec(block)?.[1];
    const version = /^version\s*=\s*"([^"\r\n\u2028\u2029]+)"/m.exec(block)?.[1];
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
  let currentName = "";
  tables.set("", current);
  const lines = text.split(/\r?\n/);
  let work = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = stripTomlComment(lines[i]).trim();
    if (!line) continue;
    if (line.startsWith("[[")) {
      current = undefined;
      continue;
    }
    if (line.startsWith("[")) {
      // No key starts with "[": a line that is not a header is skipped. A header too long to be one is a table
      // whose keys are not read.
      if (line.length > MAX_LINE_CHARS) current = undefined;
      const name = line.length > MAX_LINE_CHARS ? undefined : tableName(line);
      if (name === undefined) continue;
      current = tables.get(name) ?? {};
      tables.set((currentName = name), current);
      continue;
    }
    if (!current) continue;
    const kv = /^("[^"]+"|'[^']+'|[A-Za-z0-9_.-]+)\s*=\s*/.exec(line.slice(0, MAX_LINE_CHARS));
    if (!kv) continue;
    const first = line.slice(kv[0].length);
    // `key = (.*)$` never matched a value holding a line-break character: such a line was skipped, and still is.
    if (/[\r\u2028\u2029]/.test(first)) continue;
    const gathered = gatherValue(first, lines, i);
    i = gathered.last;
    work += gathered.work;
    if (gathered.value === undefined || work > MAX_TOML_WORK) continue;
    const key = kv[1].replace(/^["']|["']$/g, "");
    const dotted = key.split(".");
    if (dotted.length > 1 && !/^["']/.test(kv[1])) {
      // a.b = v inside [t] -> table t.a, key b (enough for `foo.version = "1"` in Cargo manifests)
      const sub = [currentName, ...dotted.slice(0, -1)].filter(Boolean).join(".");
      const t = tables.get(sub) ?? {};
      tables.set(sub, t);
      t[dotted[dotted.length - 1]] = parseTomlValue(gathered.value);
      continue;
    }
    current[key] = parseTomlValue(gathered.value);
  }
  return tables;
}

/** `[a.b."c"]` -> "a.b.c"; undefined when the line is not a header. */
function tableName(line: string): string | undefined {
  const header = /^\[([^\]]+)\]$/.exec(line);
  if (!header) return undefined;
  return header[1]
    .split(".")
    .map((p) => p.trim().replace(/^["']|["']$/g, ""))
    .join(".");
}

/**
 * A key's value from `first` (the rest of its line), gathered over the following lines while its brackets are open.
 * The depth is kept as the lines come (each character is read once), and the value is dropped — undefined, so its
 * key is skipped — when it grows past MAX_TOML_VALUE_CHARS, nests deeper than MAX_TOML_DEPTH or would cost more
 * than MAX_TOML_VALUE_WORK to read; its lines are consumed all the same. `last` is the index of the value's last line.
 */
function gatherValue(first: string, lines: string[], at: number): { value: string | undefined; last: number; work: number } {
  const scan: BracketScan = { depth: 0, max: 0, work: 0, escape: false };
  scanBrackets(scan, first);
  let value: string | undefined = first.length > MAX_TOML_VALUE_CHARS ? undefined : first;
  let i = at;
  while (scan.depth > 0 && i + 1 < lines.length) {
    const next = stripTomlComment(lines[++i]).trim();
    scanBrackets(scan, " ");
    scanBrackets(scan, next);
    if (value !== undefined) value = value.length + 1 + next.length > MAX_TOML_VALUE_CHARS ? undefined : `${value} ${next}`;
  }
  const over = scan.max > MAX_TOML_DEPTH || scan.work > MAX_TOML_VALUE_WORK;
  return { value: over ? undefined : value, last: i, work: over ? 0 : scan.work };
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

/** Bracket depth outside strings, carried from one piece of a value to the next. */
interface BracketScan {
  depth: number;
  /** The deepest the value went. */
  max: number;
  /** What reading the value will cost: each character counted once per level it lies in. */
  work: number;
  inStr?: string;
  /** The piece ended on a backslash inside a "string": the next piece's first character is escaped. */
  escape: boolean;
}

function scanBrackets(st: BracketScan, s: string): void {
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (st.escape) {
      st.escape = false;
      continue;
    }
    if (st.inStr) {
      if (c === "\\" && st.inStr === '"') st.escape = true;
      else if (c === st.inStr) st.inStr = undefined;
    } else if (c === '"' || c === "'") st.inStr = c;
    else if (c === "[" || c === "{") st.max = Math.max(st.max, ++st.depth);
    else if (c === "]" || c === "}") st.depth--;
    st.work += Math.max(0, st.depth) + 1;
  }
}

/**
 * A value: a string, number, boolean, array or inline table. Nesting past MAX_TOML_DEPTH (only reachable by a call
 * from outside parseTomlLite, which drops such values first) yields undefined rather than recursing further.
 */
export function parseTomlValue(raw: string, depth = 0): unknown {
  const s = raw.trim();
  if (s.startsWith('"') || s.startsWith("'")) {
    const q = s[0];
    const end = s.indexOf(q, 1);
    return end > 0 ? s.slice(1, end) : s.slice(1);
  }
  if ((s.startsWith("[") || s.startsWith("{")) && depth >= MAX_TOML_DEPTH) return undefined;
  if (s.startsWith("[")) return splitTop(s, 1, s.lastIndexOf("]")).map((part) => parseTomlValue(part, depth + 1));
  if (s.startsWith("{")) {
    const obj: Record<string, unknown> = {};
    for (const part of splitTop(s, 1, s.lastIndexOf("}"))) {
      const m = /^\s*("[^"]+"|'[^']+'|[A-Za-z0-9_.-]+)\s*=\s*/.exec(part.slice(0, MAX_LINE_CHARS));
      if (m) obj[m[1].replace(/^["']|["']$/g, "")] = parseTomlValue(part.slice(m[0].length), depth + 1);
    }
    return obj;
  }
  if (s === "true" || s === "false") return s === "true";
  const n = Number(s);
  return s && Number.isFinite(n) ? n : s;
}

/**
 * Splits `s` between `from` and `to` (exclusive; a negative `to` is s.length - to, as slice reads it) on top-level
 * commas (outside strings and brackets); parts trimmed, empty parts dropped. Each character is read once.
 */
function splitTop(s: string, from: number, to: number): string[] {
  const end = to < 0 ? Math.max(from, s.length + to) : Math.max(from, to);
  const parts: string[] = [];
  let depth = 0;
  let inStr: string | undefined;
  let start = from;
  const push = (stop: number) => {
    const part = s.slice(start, stop).trim();
    if (part) parts.push(part);
  };
  for (let i = from; i < end; i++) {
    const c = s[i];
    if (inStr) {
      if (c === "\\" && inStr === '"' && i + 1 < end) i++;
      else if (c === inStr) inStr = undefined;
      continue;
    }
    if (c === '"' || c === "'") inStr = c;
    else if (c === "[" || c === "{") depth++;
    else if (c === "]" || c === "}") depth--;
    else if (c === "," && depth === 0) {
      push(i);
      start = i + 1;
    }
  }
  push(end);
  return parts;
}
