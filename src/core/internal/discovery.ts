// Finds the repo's decision artifacts: ADRs, architecture docs, agent instructions, contribution guides, and the
// canonical files those docs name by path. Never throws for a bad file: it is skipped with a reason, so one binary
// or oversized file cannot sink a deliberation. Only an abort stops discovery.
import { lstat, readdir, readFile, realpath, stat } from "node:fs/promises";
import { posix, relative, resolve } from "node:path";
import fg from "fast-glob";
import ignore, { type Ignore } from "ignore";
import { sha256 } from "../hash";
import type { SourceType } from "../schemas";
import type { ArtifactFile, ArtifactSet, DeliberationConfig } from "../types";

/** At most this many files are added because a doc names them. */
export const MAX_CANONICAL_FILES = 50;
const BINARY_SNIFF_BYTES = 8 * 1024;

export async function discoverArtifacts(repo: string, config: DeliberationConfig, signal?: AbortSignal): Promise<ArtifactSet> {
  const root = resolve(repo);
  signal?.throwIfAborted();
  // Walks skip config.ignoreGlobs plus the plain folder names of the root .gitignore (build/, target/, .venv/), so
  // big ignored trees are never descended; the exact gitignore semantics are applied to the results afterwards.
  const walkIgnore = [...config.ignoreGlobs, ...(await rootGitignorePrunes(root))];
  const globOpts = {
    cwd: root,
    dot: true,
    onlyFiles: true,
    followSymbolicLinks: false,
    caseSensitiveMatch: false,
    suppressErrors: true,
    unique: true,
    ignore: walkIgnore,
  };
  const [adrGlobs, conventionGlobs] = await Promise.all([caseInsensitiveBases(root, config.adrGlobs), caseInsensitiveBases(root, config.conventionGlobs)]);
  const [isIgnored, adrPaths, conventionPaths] = await Promise.all([
    loadIgnoreRules(root, config.ignoreGlobs, walkIgnore),
    adrGlobs.length ? fg(adrGlobs, globOpts) : Promise.resolve([] as string[]),
    conventionGlobs.length ? fg(conventionGlobs, globOpts) : Promise.resolve([] as string[]),
  ]);

  // An ADR glob match wins over a convention glob match ("0001-record-architecture-decisions.md" matches both).
  const wanted = new Map<string, SourceType>();
  for (const p of conventionPaths) if (!isIgnored(p)) wanted.set(p, conventionType(p));
  for (const p of adrPaths) if (!isIgnored(p)) wanted.set(p, "adr");

  const files: ArtifactFile[] = [];
  const skipped: ArtifactSet["skipped"] = [];
  const reads = await mapBounded([...wanted.keys()].sort(), READ_CONCURRENCY, (path) => {
    signal?.throwIfAborted();
    return readArtifact(root, path, wanted.get(path)!, config.maxFileBytes);
  });
  for (const read of reads) {
    if ("reason" in read) skipped.push(read);
    else files.push(read);
  }

  // Canonical files named by agent instructions and architecture docs.
  const known = new Set(wanted.keys());
  const named: string[] = [];
  for (const doc of files) {
    if (doc.source_type !== "agent-instructions" && doc.source_type !== "architecture") continue;
    // Candidates are unvalidated tokens ("e.g", "Node.js"); cap the existence checks per doc.
    for (const candidate of mentionedPaths(doc.text, doc.path).slice(0, 500)) {
      if (named.length >= MAX_CANONICAL_FILES) break;
      if (known.has(candidate) || named.includes(candidate) || isIgnored(candidate)) continue;
      if (!(await isFileInside(root, candidate))) continue;
      named.push(candidate);
    }
  }
  const namedReads = await mapBounded(named, READ_CONCURRENCY, (path) => {
    signal?.throwIfAborted();
    return readArtifact(root, path, namedFileType(path), config.maxFileBytes);
  });
  for (const read of namedReads) {
    if ("reason" in read) skipped.push(read);
    else files.push(read);
  }

  files.sort((a, b) => cmp(a.path, b.path));
  skipped.sort((a, b) => cmp(a.path, b.path));
  const hash = sha256(files.map((f) => `${f.path}\0${f.hash}\n`).join(""));
  return { files, skipped, hash };
}

/** Reads overlap I/O without opening thousands of files at once. */
const READ_CONCURRENCY = 16;

/** Maps with at most `limit` calls in flight, keeping the input order in the output. */
async function mapBounded<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/**
 * fast-glob's caseSensitiveMatch only applies below a pattern's static base folder: "docs/decisions/**" walks from
 * "docs/decisions" exactly as spelt and misses "Docs/Decisions". So rewrite each pattern's static folder prefix to
 * every real spelling of it on disk (one readdir per level), and let fast-glob match the rest case-insensitively.
 */
async function caseInsensitiveBases(root: string, patterns: string[]): Promise<string[]> {
  const out = new Set<string>();
  const listing = new Map<string, Promise<string[]>>();
  const dirsIn = (dir: string) => {
    if (!listing.has(dir)) {
      listing.set(
        dir,
        readdir(resolve(root, ...dir.split("/").filter(Boolean)), { withFileTypes: true })
          .then((es) => es.filter((e) => e.isDirectory()).map((e) => e.name))
          .catch(() => [] as string[]),
      );
    }
    return listing.get(dir)!;
  };
  for (const pattern of patterns) {
    const segs = pattern.replace(/^\.\//, "").split("/");
    let k = 0;
    while (k < segs.length - 1 && !fg.isDynamicPattern(segs[k]) && segs[k] !== "" && segs[k] !== "." && segs[k] !== "..") k++;
    if (k === 0) {
      out.add(pattern);
      continue;
    }
    let bases = [""];
    for (const seg of segs.slice(0, k)) {
      const next: string[] = [];
      for (const base of bases) {
        for (const name of await dirsIn(base)) if (name.toLowerCase() === seg.toLowerCase()) next.push(base ? `${base}/${name}` : name);
      }
      bases = next;
    }
    const rest = segs.slice(k).join("/");
    for (const base of bases) out.add(`${fg.escapePath(base)}/${rest}`);
  }
  return [...out];
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Classifies a convention-glob match by its name; anything unrecognised (custom globs) counts as architecture. */
/**
 * Every folder discovery may descend into (the root included): a new ADR or AGENTS.md anywhere changes one of
 * their mtimes, which is what lets the turn cache trust a fingerprint of stats instead of re-reading files.
 */
export async function discoveryDirectories(repo: string, config: DeliberationConfig): Promise<string[]> {
  const root = resolve(repo);
  // The receipts folder changes with every receipt; it is never an artifact folder.
  const receipts = config.receiptsDir.replace(/^\.?\/+|\/+$/g, "");
  const walkIgnore = [...config.ignoreGlobs, ...(await rootGitignorePrunes(root)), "**/.git", "**/.git/**", receipts, `${receipts}/**`];
  const dirs = await fg("**", { cwd: root, dot: true, onlyDirectories: true, followSymbolicLinks: false, suppressErrors: true, ignore: walkIgnore });
  return [".", ...dirs.sort()];
}

export function conventionType(path: string): SourceType {
  const lower = path.toLowerCase();
  const base = posix.basename(lower);
  if (
    base === "agents.md" ||
    base === "claude.md" ||
    base === "copilot-instructions.md" ||
    base === ".cursorrules" ||
    base === ".windsurfrules" ||
    base === "gemini.md" ||
    lower.startsWith(".cursor/rules/") ||
    lower.includes("/.cursor/rules/") ||
    lower.startsWith(".github/instructions/")
  ) {
    return "agent-instructions";
  }
  if (base.startsWith("contributing")) return "contributing";
  return "architecture";
}

type ReadResult = ArtifactFile | { path: string; reason: string };

/** Reads one file, or says why it was skipped. */
async function readArtifact(root: string, path: string, type: SourceType, maxBytes: number): Promise<ReadResult> {
  const abs = resolve(root, ...path.split("/"));
  try {
    const st = await stat(abs);
    if (!st.isFile()) return { path, reason: "not a regular file" };
    if (st.size > maxBytes) return { path, reason: `over ${formatBytes(maxBytes)} (${st.size} bytes)` };
    const buf = await readFile(abs);
    // Re-check: the file may have grown between stat and read.
    if (buf.length > maxBytes) return { path, reason: `over ${formatBytes(maxBytes)} (${buf.length} bytes)` };
    if (buf.subarray(0, BINARY_SNIFF_BYTES).includes(0)) return { path, reason: "binary (NUL byte in the first 8 KB)" };
    let text: string;
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(buf);
    } catch {
      return { path, reason: "invalid UTF-8" };
    }
    text = normaliseText(text);
    // Hash the normalised text, so a CRLF checkout and an LF checkout of the same commit get the same set hash.
    return { path, abs, bytes: buf.length, hash: sha256(text), source_type: type, text };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return { path, reason: `unreadable${code ? ` (${code})` : ""}` };
  }
}

/**
 * Walk-pruning globs from the root .gitignore: only plain names ("build/", "/target", ".venv"), and none at all when
 * the file has a negation, since a "!" rule could re-include something inside a pruned folder.
 */
async function rootGitignorePrunes(root: string): Promise<string[]> {
  let body: string;
  try {
    body = await readFile(resolve(root, ".gitignore"), "utf8");
  } catch {
    return [];
  }
  const rules = body.split(/\r?\n/).map((l) => l.trim()).filter((l) => l && !l.startsWith("#"));
  if (rules.some((l) => l.startsWith("!"))) return [];
  const out: string[] = [];
  for (const rule of rules) {
    const m = /^(\/)?([\w.-]+)\/?$/.exec(rule);
    if (!m || m[2] === "." || m[2] === "..") continue;
    out.push(m[1] ? `${m[2]}/**` : `**/${m[2]}/**`);
  }
  return out;
}

/** Strips a BOM and normalises CRLF (and lone CR) to LF. */
export function normaliseText(text: string): string {
  return text.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
}

function formatBytes(n: number): string {
  if (n >= 1024 * 1024 && n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MB`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KB`;
  return `${n} bytes`;
}

/**
 * The ignore predicate: config.ignoreGlobs plus every .gitignore in the tree (each applied relative to its own
 * folder, like git does) and .git/info/exclude. Paths are workspace-relative with forward slashes.
 */
async function loadIgnoreRules(root: string, ignoreGlobs: string[], walkIgnore: string[]): Promise<(path: string) => boolean> {
  const layers: { dir: string; ig: Ignore }[] = [];
  const gitignores = await fg(["**/.gitignore"], {
    cwd: root,
    dot: true,
    onlyFiles: true,
    followSymbolicLinks: false,
    suppressErrors: true,
    ignore: ["**/.git/**", "**/node_modules/**", ...walkIgnore],
  });
  const sources = [...gitignores.sort((a, b) => a.split("/").length - b.split("/").length || cmp(a, b))];
  for (const gi of [".git/info/exclude", ...sources]) {
    let body: string;
    try {
      body = await readFile(resolve(root, ...gi.split("/")), "utf8");
    } catch {
      continue;
    }
    const dir = gi === ".git/info/exclude" ? "" : posix.dirname(gi) === "." ? "" : posix.dirname(gi);
    layers.push({ dir, ig: ignore().add(body) });
  }
  // fast-glob already applied ignoreGlobs to the glob results; this catches the files docs name by path.
  const globs = ignore({ ignorecase: true }).add(ignoreGlobs);
  return (path: string) => {
    if (globs.ignores(path)) return true;
    // Later (deeper) layers can re-include what a shallower one ignored, as in git.
    let ignored = false;
    for (const { dir, ig } of layers) {
      if (dir && !path.startsWith(dir + "/")) continue;
      const rel = dir ? path.slice(dir.length + 1) : path;
      const r = ig.test(rel);
      if (r.ignored) ignored = true;
      else if (r.unignored) ignored = false;
    }
    return ignored;
  };
}

/**
 * The type of a file a doc names. Files the globs match are already known, so this only sees the rest: markdown in
 * an ADR-looking folder outside the configured globs is still an ADR; everything else is a canonical file.
 */
function namedFileType(path: string): SourceType {
  const lower = path.toLowerCase();
  if (/\.(md|markdown)$/.test(lower) && /(^|\/)(adrs?|decisions|decision-records|architecture-decisions)\//.test(lower)) return "adr";
  return "canonical-file";
}

async function isFileInside(root: string, rel: string): Promise<boolean> {
  const abs = resolve(root, ...rel.split("/"));
  try {
    const st = await lstat(abs);
    if (st.isSymbolicLink()) {
      const real = await realpath(abs);
      const realRoot = await realpath(root);
      if (relative(realRoot, real).startsWith("..")) return false;
      return (await stat(real)).isFile();
    }
    return st.isFile();
  } catch {
    return false;
  }
}

// A path-looking token: at least one folder separator or a file extension, no spaces, no scheme.
const PATH_TOKEN = /(?:^|[\s(`'"<\[])((?:\.{1,2}\/)?[\w@.-]+(?:\/[\w@.-]+)*\.[A-Za-z0-9]{1,10}|(?:\.{1,2}\/)?[\w@.-]+(?:\/[\w@.-]+)+)(?=$|[\s)`'">\],;:!?#]|\.(?:\s|$))/g;

/**
 * Workspace-relative paths a doc mentions: in backticks, markdown links or plain text. Link targets and "./x"
 * paths resolve against the doc's folder; other paths are tried as workspace-relative first, then doc-relative.
 * Returned in order of first mention, unvalidated (the caller checks existence).
 */
export function mentionedPaths(text: string, docPath: string): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const docDir = posix.dirname(docPath) === "." ? "" : posix.dirname(docPath);
  const push = (p: string | undefined) => {
    if (!p || seen.has(p)) return;
    seen.add(p);
    out.push(p);
  };
  const clean = (raw: string) => raw.replace(/[#?].*$/, "").replace(/:\d+(?::\d+)?$/, "").replace(/[.,;:]+$/, "");
  const norm = (p: string) => {
    const n = posix.normalize(p);
    return n.startsWith("../") || n === ".." || n === "." || n.startsWith("/") ? undefined : n;
  };

  // Markdown link targets are relative to the doc.
  const linkRe = /\]\(\s*<?([^)\s>]+)>?[^)]*\)/g;
  for (let m = linkRe.exec(text); m; m = linkRe.exec(text)) {
    const target = clean(m[1]);
    if (!target || /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("#")) continue;
    push(norm(target.startsWith("/") ? target.slice(1) : posix.join(docDir, target)));
  }
  for (let m = PATH_TOKEN.exec(text); m; m = PATH_TOKEN.exec(text)) {
    const raw = clean(m[1]);
    if (!raw || /^[a-z][a-z0-9+.-]*:\/\//i.test(raw) || /^\d+(\.\d+)+$/.test(raw)) continue;
    if (!raw.includes("/") && !/\.[A-Za-z]/.test(raw)) continue;
    if (raw.startsWith("./") || raw.startsWith("../")) push(norm(posix.join(docDir, raw)));
    else {
      push(norm(raw));
      if (docDir) push(norm(posix.join(docDir, raw)));
    }
  }
  return out;
}
