// Finds the repo's decision artifacts: ADRs, architecture docs, agent instructions, contribution guides, and the
// canonical files those docs name by path. Never throws for a bad file: it is skipped with a reason, so one binary
// or oversized file cannot sink a deliberation. Only an abort stops discovery.
import { readdir, readFile, realpath, stat } from "node:fs/promises";
import { isAbsolute, posix, relative, resolve } from "node:path";
import fg from "fast-glob";
import ignore, { type Ignore } from "ignore";
import picomatch from "picomatch";
import { simpleGit } from "simple-git";
import { isIndexFile, statusesFromIndexes } from "./indexStatus";
import { statusFromFolder, templateProse } from "./adr";
import { hardenedSimpleGitOptions } from "./gitSafety";
import { sha256 } from "../hash";
import { cmp } from "../text";
import type { SourceType } from "../schemas";
import type { ArtifactFile, ArtifactSet, DeliberationConfig } from "../types";
import {
  adrFolderOf,
  adrNameSignal,
  contentSignals,
  inRecordFolder,
  isIndexPage,
  isTemplatePath,
  looksLikeTemplate,
  parseAdrDirFile,
  parseLog4brainsFile,
  rfcShaped,
  strongAdrContent,
  weakAdrContent,
  type AdrFolderHint,
} from "./adrDetect";
import { asMarkdown, DOC_EXTENSION } from "./lightMarkup";

/** Files a doc may name that are never text worth citing (images, archives, binaries). */
const NOT_TEXT = /\.(png|jpe?g|gif|webp|bmp|ico|svg|pdf|zip|gz|tgz|jar|war|class|exe|dll|so|dylib|woff2?|ttf|otf|mp4|mov|mp3|wav|drawio)$/i;

/** Above this many markdown files, only plausible decision records are read. */
const MAX_MARKDOWN_READS = 3000;
const DECISION_FOLDER = /(^|\/)(adrs?|decisions?|decision[-_]?records?|architecture|design|rfcs?)(\/|$)/i;

/** At most this many files are added because a doc names them. */
export const MAX_CANONICAL_FILES = 50;
const BINARY_SNIFF_BYTES = 8 * 1024;

/**
 * What a discovery looked at besides the folders it walked, so a stat fingerprint of them can vouch for its result
 * (corpus/discovery.ts): every file it read or looked for (workspace-relative), and git's own files (absolute).
 */
export interface DiscoveryTrace {
  files: Set<string>;
  /** Files outside the workspace's namespace whose content matters (git's info/exclude). */
  outside: Set<string>;
  /** Files whose size alone matters (git's index: which paths are tracked). */
  sizes: Set<string>;
}

export function newDiscoveryTrace(): DiscoveryTrace {
  return { files: new Set(), outside: new Set(), sizes: new Set() };
}

export async function discoverArtifacts(repo: string, config: DeliberationConfig, signal?: AbortSignal, trace?: DiscoveryTrace): Promise<ArtifactSet> {
  const root = resolve(repo);
  signal?.throwIfAborted();
  const realRoot = await realpath(root).catch(() => root);
  const listed = await listCandidates(root, config, signal, trace);
  const { hints } = listed;
  signal?.throwIfAborted();

  const skipped: ArtifactSet["skipped"] = [];
  const notes: string[] = [];
  for (const h of hints.missing) notes.push(`${h.via} names ${h.dir || "."}, which is not a folder`);
  for (const link of listed.outsideLinks) skipped.push({ path: link, reason: "symlink leads outside the repository" });

  // Every markdown file may be an ADR; read them all once (they are small) and decide by name, folder and content.
  let candidates = listed.markdown;
  if (candidates.length > MAX_MARKDOWN_READS) {
    // A docs site with thousands of pages: read only what could plausibly be a decision record.
    const plausible = (p: string) => !!adrNameSignal(p) || hints.found.some((h) => inFolder(p, h.dir)) || DECISION_FOLDER.test(p);
    candidates = candidates.filter(plausible).slice(0, MAX_MARKDOWN_READS);
    notes.push(`${listed.markdown.length} markdown files: only ADR-named files and decision folders were read`);
  }
  const { isIgnored, fromGlob, conventions } = listed;
  const markdown = new Set([...candidates, ...fromGlob].filter((p) => !isIgnored(p) && !listed.dropped(p)));
  const toRead = [...new Set([...markdown, ...conventions.keys()])].sort();
  for (const p of toRead) trace?.files.add(p);
  const reads = await mapBounded(toRead, READ_CONCURRENCY, (path) => {
    signal?.throwIfAborted();
    return readArtifact(root, realRoot, path, "architecture", config.maxFileBytes);
  });
  const readByPath = new Map<string, ReadResult>(toRead.map((p, i) => [p, reads[i]]));
  const texts = [...markdown].sort().flatMap((p) => {
    const r = readByPath.get(p);
    return r && !("reason" in r) ? [{ path: p, text: r.text }] : [];
  });
  const decided = classifyAdrs(texts, { hints: hints.found, fromGlob });
  const { adrPaths, strayDocs, folders } = separateStrayDocs(decided);
  const guides = developerGuides(texts.map((t) => t.path), folders, (p) => adrPaths.has(p) || conventions.has(p) || strayDocs.has(p) || decided.rejected.has(p));
  const indexStatuses = statusesFromIndexes(
    texts.filter((t) => isIndexFile(t.path)),
    adrPaths,
  );

  const files: ArtifactFile[] = [];
  for (const path of toRead) {
    const read = readByPath.get(path)!;
    const convention = conventions.get(path);
    if ("reason" in read) {
      // Only report files that would have been artifacts: an ADR-shaped name, an ADR folder, a glob or convention match.
      if (read.reason !== "missing" && (convention || fromGlob.has(path) || adrNameSignal(path) || hints.found.some((h) => inFolder(path, h.dir)))) skipped.push(read);
      continue;
    }
    if (adrPaths.has(path)) {
      const indexStatus = indexStatuses.get(path);
      files.push({ ...read, source_type: "adr", ...(indexStatus ? { index_status: indexStatus } : {}) });
    }
    else if (convention) files.push({ ...read, source_type: convention });
    else if (strayDocs.has(path) || guides.has(path)) files.push({ ...read, source_type: "architecture" });
  }
  for (const [path, reason] of decided.rejected) notes.push(`${path}: ${reason}`);
  // A template or index a doc names is still no record: discovery already read it and set it aside.
  await addNamedFiles(root, realRoot, config, files, skipped, isIgnored, signal, trace, new Set(decided.rejected.keys()));

  files.sort((a, b) => cmp(a.path, b.path));
  skipped.sort((a, b) => cmp(a.path, b.path));
  // An index's status is part of what the records say: a changed index invalidates what was built on the set.
  // A record still carrying its template's instructions is read without them (parseAdr).
  const templateLines = templateProse(texts.filter((t) => decided.rejected.get(t.path) === "template").map((t) => t.text));
  const hash = sha256(files.map((f) => `${f.path}\0${f.hash}${f.index_status ? `\0${f.index_status.status}` : ""}\n`).join("") + templateLines.join("\n"));
  return { files, skipped, hash, adrFolders: folders, notes, ...(templateLines.length ? { template_lines: templateLines } : {}) };
}

interface Candidates {
  markdown: string[];
  outsideLinks: string[];
  isIgnored: (path: string) => boolean;
  /** ADR glob matches (settings). */
  fromGlob: Set<string>;
  /** Negated ADR globs ("!docs/legacy/**") narrow discovery. */
  dropped: (path: string) => boolean;
  conventions: Map<string, SourceType>;
  hints: { found: AdrFolderHint[]; missing: AdrFolderHint[] };
}

/**
 * What discovery may read. In a git work tree one `git ls-files` lists everything (ignore rules applied) and the
 * globs are matched against it; only outside git are the globs walked on disk.
 */
async function listCandidates(root: string, config: DeliberationConfig, signal?: AbortSignal, trace?: DiscoveryTrace): Promise<Candidates> {
  // Walks skip config.ignoreGlobs plus the plain folder names of the root .gitignore (build/, target/, .venv/), so
  // big ignored trees are never descended; the exact gitignore semantics are applied to the results afterwards.
  const walkIgnore = [...config.ignoreGlobs, ...(await rootGitignorePrunes(root))];
  const adrGlobsAdd = config.adrGlobs.filter((g) => !g.startsWith("!"));
  const dropRules = ignore({ ignorecase: true }).add(config.adrGlobs.filter((g) => g.startsWith("!")).map((g) => g.slice(1)));
  for (const p of [".gitignore", ".adr-dir", ".log4brains.yml"]) trace?.files.add(p);
  const [listed, hints] = await Promise.all([gitListing(root, signal, trace), adrFolderHints(root)]);
  let isIgnored: (path: string) => boolean;
  let adrGlobPaths: string[];
  let conventionPaths: string[];
  let listing: { markdown: string[]; outsideLinks: string[] };
  if (listed) {
    const configIgnore = ignore({ ignorecase: true }).add(config.ignoreGlobs);
    const present = new Set(listed.paths);
    // A path the ignore rules cannot even test ("./", "a//b") is no file git listed: skipped, never thrown on.
    isIgnored = (p) => !ignore.isPathValid(p) || configIgnore.ignores(p) || !present.has(p);
    const paths = listed.paths.filter((p) => !configIgnore.ignores(p));
    const matcher = (globs: string[]) => (globs.length ? picomatch(globs, { dot: true, nocase: true }) : () => false);
    const isAdrGlob = matcher(adrGlobsAdd);
    const isConventionGlob = matcher(config.conventionGlobs);
    adrGlobPaths = paths.filter((p) => isAdrGlob(p));
    conventionPaths = paths.filter((p) => isConventionGlob(p));
    listing = await markdownAndLinks(root, paths, listed.links);
  } else {
    const globOpts = { cwd: root, dot: true, onlyFiles: true, followSymbolicLinks: false, caseSensitiveMatch: false, suppressErrors: true, unique: true, ignore: walkIgnore };
    const [adrGlobs, conventionGlobs] = await Promise.all([caseInsensitiveBases(root, adrGlobsAdd), caseInsensitiveBases(root, config.conventionGlobs)]);
    [isIgnored, adrGlobPaths, conventionPaths, listing] = await Promise.all([
      loadIgnoreRules(root, config.ignoreGlobs, walkIgnore, trace),
      adrGlobs.length ? fg(adrGlobs, globOpts) : Promise.resolve([] as string[]),
      conventionGlobs.length ? fg(conventionGlobs, globOpts) : Promise.resolve([] as string[]),
      walkMarkdown(root, walkIgnore),
    ]);
  }
  const conventions = new Map<string, SourceType>();
  for (const p of conventionPaths) if (!isIgnored(p)) conventions.set(p, conventionType(p));
  return {
    ...listing,
    isIgnored,
    fromGlob: new Set(adrGlobPaths.filter((p) => !isIgnored(p))),
    dropped: (p) => dropRules.ignores(p),
    conventions,
    hints,
  };
}

/**
 * A decision-shaped doc found by content alone in a stray folder (a spike write-up, a guide), in a repository that
 * keeps its ADRs in a real log elsewhere, is read as an architecture doc rather than as an ADR of that log.
 */
/** A folder of at least this many records is a repository's decision log. */
export const MAIN_LOG_RECORDS = 5;

/**
 * Folders whose few records were recognised by content alone while a decision log exists elsewhere: design notes
 * that read like records, not records. `mainLog`: whether a log exists (here, or in a decision source).
 */
export function strayRecordFolders(folders: NonNullable<ArtifactSet["adrFolders"]>, mainLog = folders.some((f) => f.count >= MAIN_LOG_RECORDS)): Set<string> {
  // A topic subfolder of a log ("text/profiles/" below the records of "text/") belongs to that log.
  const logs = new Set(folders.filter((f) => f.count >= MAIN_LOG_RECORDS).map((f) => f.dir));
  return new Set(folders.filter((f) => mainLog && f.via === "content" && f.count < 3 && !ancestorsOf(f.dir).some((a) => logs.has(a))).map((f) => f.dir));
}

function separateStrayDocs(decided: AdrDecision): { adrPaths: Set<string>; strayDocs: Set<string>; folders: AdrDecision["folders"] } {
  const stray = strayRecordFolders(decided.folders);
  // "problem/0005-x.md" beside a log "design/0001-y.md": a folder next to the log (the same parent) whose records
  // continue the log's numbering (numbered the same way, no number the log already uses) holds a stage of the same
  // process, not design notes that read like records; notes numbered from 1 again are a series of their own.
  const parentOf = (dir: string) => (dir.includes("/") ? dir.slice(0, dir.lastIndexOf("/")) : "");
  const logs = new Map<string, { shapes: Set<string>; numbers: Set<number> }>();
  for (const [path, a] of decided.adrs) {
    const n = numberingOf(path);
    if (stray.has(a.folder) || !n) continue;
    const log = logs.get(parentOf(a.folder)) ?? { shapes: new Set<string>(), numbers: new Set<number>() };
    log.shapes.add(n.shape);
    log.numbers.add(n.number);
    logs.set(parentOf(a.folder), log);
  }
  for (const dir of [...stray]) {
    const log = logs.get(parentOf(dir));
    const inDir = [...decided.adrs].filter(([, a]) => a.folder === dir).map(([p]) => numberingOf(p));
    // Number 0 is where a log keeps its template or process page, in every stage.
    const continues = (n: ReturnType<typeof numberingOf>) => !!n && !!log && log.shapes.has(n.shape) && (n.number === 0 || !log.numbers.has(n.number));
    if (inDir.length && inDir.every(continues)) stray.delete(dir);
  }
  const adrPaths = new Set([...decided.adrs].filter(([, a]) => !(stray.has(a.folder) && a.via === "content")).map(([p]) => p));
  const strayDocs = new Set([...decided.adrs.keys()].filter((p) => !adrPaths.has(p)));
  return { adrPaths, strayDocs, folders: decided.folders.filter((f) => !(stray.has(f.dir) && f.via === "content")) };
}

/**
 * How a numbered record's file name is numbered, and its number: "0005-x.md" → "#4z" and 5 (zero-padded, so a year
 * such as "2023-…" is numbered otherwise), "rfc-12-x.md" → "rfc#2" and 12; undefined for a name that is not numbered.
 */
function numberingOf(path: string): { shape: string; number: number } | undefined {
  const m = /^([a-z]{0,5})[-_ ]?(\d{1,5})[-_. ]/i.exec(posix.basename(path));
  if (!m || adrNameSignal(path) !== "numbered") return undefined;
  return { shape: `${m[1].toLowerCase()}#${m[2].length}${m[2].startsWith("0") ? "z" : ""}`, number: Number(m[2]) };
}

/** Canonical files named by agent instructions and architecture docs (at most MAX_CANONICAL_FILES). */
async function addNamedFiles(
  root: string,
  realRoot: string,
  config: DeliberationConfig,
  files: ArtifactFile[],
  skipped: ArtifactSet["skipped"],
  isIgnored: (path: string) => boolean,
  signal?: AbortSignal,
  trace?: DiscoveryTrace,
  setAside: Set<string> = new Set(),
): Promise<void> {
  const known = new Set([...files.map((f) => f.path), ...skipped.map((s) => s.path), ...setAside]);
  const named: string[] = [];
  for (const doc of [...files]) {
    if (doc.source_type !== "agent-instructions" && doc.source_type !== "architecture") continue;
    // Candidates are unvalidated tokens ("e.g", "Node.js"); cap the existence checks per doc.
    for (const candidate of mentionedPaths(doc.text, doc.path).slice(0, 500)) {
      if (named.length >= MAX_CANONICAL_FILES) break;
      if (known.has(candidate) || named.includes(candidate) || isIgnored(candidate) || NOT_TEXT.test(candidate)) continue;
      if (!(await existsAsFile(root, candidate))) continue;
      named.push(candidate);
    }
  }
  for (const p of named) trace?.files.add(p);
  const namedReads = await mapBounded(named, READ_CONCURRENCY, (path) => {
    signal?.throwIfAborted();
    return readArtifact(root, realRoot, path, namedFileType(path), config.maxFileBytes);
  });
  for (const read of namedReads) {
    if ("reason" in read) {
      if (read.reason !== "missing") skipped.push(read);
    } else files.push(read);
  }
}

const isMarkdown = (p: string) => DOC_EXTENSION.test(p);

/** Outside git: markdown files and symlinks from a walk of the folder. */
async function walkMarkdown(root: string, walkIgnore: string[]): Promise<{ markdown: string[]; outsideLinks: string[] }> {
  const entries = await fg(["**"], {
    cwd: root,
    dot: true,
    onlyFiles: false,
    objectMode: true,
    followSymbolicLinks: false,
    suppressErrors: true,
    ignore: [...walkIgnore, "**/.git/**"],
  });
  return markdownAndLinks(
    root,
    entries.filter((e) => !e.dirent.isDirectory()).map((e) => e.path),
    entries.filter((e) => e.dirent.isSymbolicLink()).map((e) => e.path),
  );
}

/** The markdown among `paths`, and the symlinks among `links` whose target is outside the repository (never followed, reported). */
async function markdownAndLinks(root: string, paths: string[], links: string[]): Promise<{ markdown: string[]; outsideLinks: string[] }> {
  const realRoot = await realpath(root).catch(() => root);
  const outsideLinks: string[] = [];
  await mapBounded(links.slice(0, 5000), READ_CONCURRENCY, async (p) => {
    const real = await realpath(resolve(root, ...p.split("/"))).catch(() => undefined);
    if (real && !isInside(realRoot, real)) outsideLinks.push(p);
  });
  return { markdown: [...new Set(paths.filter(isMarkdown))].sort(), outsideLinks: outsideLinks.sort() };
}

/**
 * Tracked files (symlinks told apart by their 120000 mode) and untracked, not-ignored files; undefined outside a
 * git work tree (or without git), where the caller walks the folder instead.
 */
async function gitListing(root: string, signal?: AbortSignal, trace?: DiscoveryTrace): Promise<{ paths: string[]; links: string[] } | undefined> {
  const git = () => simpleGit({ baseDir: root, ...hardenedSimpleGitOptions(), abort: signal, timeout: { block: 15_000 } });
  try {
    const [staged, others, gitPaths] = await Promise.all([
      git().raw(["ls-files", "-z", "--stage", "--", "."]),
      git().raw(["ls-files", "-z", "--others", "--exclude-standard", "--", "."]),
      trace ? git().raw(["rev-parse", "--git-path", "index", "--git-path", "info/exclude"]) : Promise.resolve(""),
    ]);
    if (trace) {
      // Relative to the folder git ran in (git < 2.31 has no --path-format=absolute).
      const [index, exclude] = gitPaths.split("\n").map((l) => l.trim());
      if (index) trace.sizes.add(resolve(root, index));
      if (exclude) trace.outside.add(resolve(root, exclude));
    }
    const paths: string[] = [];
    const links: string[] = [];
    for (const entry of staged.split("\0")) {
      const tab = entry.indexOf("\t");
      if (tab < 0) continue;
      const path = entry.slice(tab + 1);
      paths.push(path);
      if (entry.startsWith("120000 ")) links.push(path);
    }
    for (const path of others.split("\0")) {
      if (!path) continue;
      paths.push(path);
      // Untracked entries are few: any of them may be a symlink, so each is checked.
      links.push(path);
    }
    // Any .gitignore decides which untracked files the listing shows.
    if (trace) for (const p of paths) if (p === ".gitignore" || p.endsWith("/.gitignore")) trace.files.add(p);
    return { paths, links };
  } catch {
    return undefined;
  }
}

/** The ADR folders a repository declares: `.adr-dir` (adr-tools) and `.log4brains.yml` (`project.adrFolder`). */
async function adrFolderHints(root: string): Promise<{ found: AdrFolderHint[]; missing: AdrFolderHint[] }> {
  const found: AdrFolderHint[] = [];
  const missing: AdrFolderHint[] = [];
  const sources: [string, AdrFolderHint["via"], (body: string) => string | undefined][] = [
    [".adr-dir", ".adr-dir", parseAdrDirFile],
    [".log4brains.yml", ".log4brains.yml", parseLog4brainsFile],
  ];
  for (const [file, via, parse] of sources) {
    let body: string;
    try {
      body = await readFile(resolve(root, file), "utf8");
    } catch {
      continue;
    }
    const dir = parse(body.slice(0, 64 * 1024));
    if (dir === undefined) continue;
    const st = await stat(resolve(root, ...dir.split("/"))).catch(() => undefined);
    (st?.isDirectory() ? found : missing).push({ dir, via });
  }
  return { found, missing };
}

function inFolder(path: string, dir: string): boolean {
  return dir === "" || path.startsWith(dir + "/");
}

export interface AdrDecision {
  /** ADR path → the folder it belongs to and how that folder was found. */
  adrs: Map<string, { folder: string; via: AdrFolderHint["via"] }>;
  /** Markdown in an ADR folder or matching an ADR glob that is not a decision: template, index, … */
  rejected: Map<string, string>;
  folders: NonNullable<ArtifactSet["adrFolders"]>;
}

/**
 * Decides which markdown files are ADRs. A file counts when it sits in a declared ADR folder or matches an ADR
 * glob, when its own content reads as a decision record, or when it has an ADR-shaped name (numbered, dated, or a
 * dated folder's README) and either some ADR structure or a folder that already holds two content-confirmed ADRs.
 * Templates, examples and index pages never count.
 */
export function classifyAdrs(docs: { path: string; text: string }[], opts: { hints: AdrFolderHint[]; fromGlob: Set<string> }): AdrDecision {
  const adrs = new Map<string, { folder: string; via: AdrFolderHint["via"] }>();
  const rejected = new Map<string, string>();
  const pending: { path: string; folder: string }[] = [];
  const confirmedPerFolder = new Map<string, number>();
  const unnamed: { path: string; folder: string }[] = [];
  for (const { path, text } of docs) {
    const name = adrNameSignal(path);
    const hint = opts.hints.find((h) => inFolder(path, h.dir));
    const signals = contentSignals(text);
    if (isTemplatePath(path) || looksLikeTemplate(text)) {
      if (hint || opts.fromGlob.has(path) || name) rejected.set(path, "template");
      continue;
    }
    const decisionHeading = signals.headings.has("decision") || signals.headings.has("decision-outcome");
    // A record's own folder's README is the record, not an index of it.
    const ownFolder = name === "dated-folder" || name === "numbered-folder";
    const index = ownFolder ? signals.linkListShare >= 0.5 && !decisionHeading : isIndexPage(path, signals);
    if (index) {
      if (hint || opts.fromGlob.has(path) || name) rejected.set(path, "index page");
      continue;
    }
    const folder = adrFolderOf(path);
    // Any other markdown inside a dated ADR folder ("2022-11-09-api/renaming.md") is part of that ADR.
    const parentDir = posix.dirname(path);
    if (!name && /^(?:\d{4}-\d{2}-\d{2}|\d{8})[-_].+$/.test(posix.basename(parentDir)) && !hint && !opts.fromGlob.has(path)) {
      pending.push({ path, folder: posix.dirname(parentDir) === "." ? "" : posix.dirname(parentDir) });
      continue;
    }
    if (hint) adrs.set(path, { folder: hint.dir, via: hint.via });
    else if (opts.fromGlob.has(path)) adrs.set(path, { folder, via: "setting" });
    else if (inRecordFolder(path)) adrs.set(path, { folder, via: "folder name" });
    else if (strongAdrContent(signals) || (name && weakAdrContent(signals))) adrs.set(path, { folder, via: "content" });
    // "accepted/wasmtime-lts.md": an RFC-style proposal filed under a folder that names its status is a record.
    else if (rfcShaped(signals) && statusFromFolder(path)) adrs.set(path, { folder, via: "content" });
    else if (name) {
      pending.push({ path, folder });
      continue;
    } else {
      if (folder && !WELL_KNOWN_DOC.test(posix.basename(path))) unnamed.push({ path, folder });
      continue;
    }
    confirmedPerFolder.set(folder, (confirmedPerFolder.get(folder) ?? 0) + 1);
  }
  // ADR-named files without headings of their own, in a folder that other ADRs confirm.
  for (const p of pending) if ((confirmedPerFolder.get(p.folder) ?? 0) >= 2) adrs.set(p.path, { folder: p.folder, via: "content" });
  for (const p of recordsByMajority(unnamed, pending, confirmedPerFolder)) adrs.set(p.path, { folder: p.folder, via: "content" });

  const byFolder = new Map<string, { dir: string; via: AdrFolderHint["via"]; count: number }>();
  for (const { folder, via } of adrs.values()) {
    const key = `${folder}\0${via}`;
    const f = byFolder.get(key) ?? { dir: folder, via, count: 0 };
    f.count++;
    byFolder.set(key, f);
  }
  const folders = [...byFolder.values()].sort((a, b) => b.count - a.count || cmp(a.dir, b.dir));
  return { adrs, rejected, folders };
}

/** The folders above `folder`, nearest first, without the repository root. */
function ancestorsOf(folder: string): string[] {
  const out: string[] = [];
  for (let i = folder.lastIndexOf("/"); i > 0; i = folder.lastIndexOf("/", i - 1)) out.push(folder.slice(0, i));
  return out;
}

const SITE_INDEX = /^(?:index|toc|summary|_sidebar|sidebar)\.(?:md|markdown|rst|adoc|asciidoc)$/i;

/** A documentation folder's own pages beyond this many are a docs site, not a handful of team guides. */
const MAX_GUIDES = 40;

/**
 * The pages of the documentation folder that holds the decision log ("docs/How to add a column.md" beside
 * "docs/architecture/decisions/"): the team's own guides, which state conventions the records never wrote down, so
 * they are read as architecture docs. Only that folder's own pages, and none when it holds a docs site.
 */
function developerGuides(paths: string[], logs: NonNullable<ArtifactSet["adrFolders"]>, taken: (path: string) => boolean): Set<string> {
  const docsDirs = new Set<string>();
  for (const log of logs) {
    const outer = [log.dir, ...ancestorsOf(log.dir)].filter((d) => /^(?:docs?|documentation)$/i.test(posix.basename(d))).pop();
    if (outer !== undefined) docsDirs.add(outer);
  }
  const out = new Set<string>();
  for (const dir of docsDirs) {
    // A site's index or table of contents lists the guides; it is none of them.
    const pages = paths.filter((p) => posix.dirname(p) === dir && !WELL_KNOWN_DOC.test(posix.basename(p)) && !SITE_INDEX.test(posix.basename(p)) && !isTemplatePath(p));
    if (pages.length > MAX_GUIDES) continue;
    for (const p of pages) if (!taken(p)) out.add(p);
  }
  return out;
}

/** A repository's own documents, never records however their folder reads: README, CHANGELOG, CONTRIBUTING, … */
const WELL_KNOWN_DOC = /^(readme|changelog|changes|history|contributing|code[-_]of[-_]conduct|security|support|license|licence|authors|maintainers|governance|owners|codeowners|notice)(\.[a-z]+)?$/i;

/**
 * A folder whose markdown is mostly records read from their content (at least MAIN_LOG_RECORDS, and at least half
 * of its files) is a decision log, so the rest of its files are records too: RFC-style logs ("docs/proposals/")
 * write some proposals without the sections or status line that give the others away, and a proposal missed here
 * can never be found for the question it decided.
 */
function recordsByMajority(unnamed: { path: string; folder: string }[], pending: { path: string; folder: string }[], confirmed: Map<string, number>): { path: string; folder: string }[] {
  const others = new Map<string, number>();
  for (const p of [...unnamed, ...pending]) others.set(p.folder, (others.get(p.folder) ?? 0) + 1);
  return unnamed.filter((p) => {
    const n = confirmed.get(p.folder) ?? 0;
    return n >= MAIN_LOG_RECORDS && n * 2 >= n + (others.get(p.folder) ?? 0);
  });
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
    // Instruction files split by area or kept local ("agents.backend.md", "AGENTS.override.md", "CLAUDE.local.md").
    /^(?:agents|claude)\.[\w-]{1,40}\.md$/.test(base) ||
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

/** Reads one file, or says why it was skipped. Reads never leave the repository: the real path must stay inside it. */
async function readArtifact(root: string, realRoot: string, path: string, type: SourceType, maxBytes: number): Promise<ReadResult> {
  const abs = resolve(root, ...path.split("/"));
  try {
    const real = await realpath(abs);
    if (!isInside(realRoot, real)) return { path, reason: "resolves outside the repository (symlink)" };
    const st = await stat(real);
    if (!st.isFile()) return { path, reason: "not a regular file" };
    if (st.size > maxBytes) return { path, reason: `over ${formatBytes(maxBytes)} (${st.size} bytes)` };
    const buf = await readFile(real);
    // Re-check: the file may have grown between stat and read.
    if (buf.length > maxBytes) return { path, reason: `over ${formatBytes(maxBytes)} (${buf.length} bytes)` };
    if (buf.subarray(0, BINARY_SNIFF_BYTES).includes(0)) return { path, reason: "binary (NUL byte in the first 8 KB)" };
    let text: string;
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(buf);
    } catch {
      return { path, reason: "invalid UTF-8" };
    }
    // reStructuredText and AsciiDoc are read as the Markdown they say, line for line (see lightMarkup.ts).
    text = asMarkdown(path, normaliseText(text));
    // Hash the normalised text, so a CRLF checkout and an LF checkout of the same commit get the same set hash.
    return { path, abs, bytes: buf.length, hash: sha256(text), source_type: type, text };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // A file git still lists but the work tree no longer has is simply not there.
    if (code === "ENOENT") return { path, reason: "missing" };
    return { path, reason: `unreadable${code ? ` (${code})` : ""}` };
  }
}

/** True when `real` is `realRoot` or below it (both already resolved through realpath). */
export function isInside(realRoot: string, real: string): boolean {
  const rel = relative(realRoot, real);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
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
async function loadIgnoreRules(root: string, ignoreGlobs: string[], walkIgnore: string[], trace?: DiscoveryTrace): Promise<(path: string) => boolean> {
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
    trace?.files.add(gi);
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
    if (!ignore.isPathValid(path) || globs.ignores(path)) return true;
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
  // An instruction file that another one points to ("see agents.backend.md") holds rules too.
  if (conventionType(path) === "agent-instructions") return "agent-instructions";
  if (DOC_EXTENSION.test(lower) && /(^|\/)(adrs?|decisions|decision-records|architecture-decisions)\//.test(lower)) return "adr";
  return "canonical-file";
}

/** Cheap existence check for a path a doc names; containment is enforced when it is read. */
async function existsAsFile(root: string, rel: string): Promise<boolean> {
  try {
    return (await stat(resolve(root, ...rel.split("/")))).isFile();
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
  // The lookbehind starts the trailing trim only where a run starts (/x+$/ is quadratic on a long run of x).
  const clean = (raw: string) => raw.replace(/[#?].*$/, "").replace(/:\d+(?::\d+)?$/, "").replace(/(?<![.,;:])[.,;:]+$/, "");
  const norm = (p: string) => {
    // "go test ./..." names the current folder, no file: "./" and "dir/" are folders.
    const n = posix.normalize(p);
    return n.startsWith("../") || n === ".." || n === "." || n.startsWith("/") || n.endsWith("/") ? undefined : n;
  };

  // Markdown link targets are relative to the doc.
  // Only up to the last ")": past it every "](" fails only after rescanning the rest of the text (cubic time).
  const linkText = text.slice(0, text.lastIndexOf(")") + 1);
  const linkRe = /\]\(\s*<?([^)\s>]+)>?[^)]*\)/g;
  for (let m = linkRe.exec(linkText); m; m = linkRe.exec(linkText)) {
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

/**
 * The discovery stage's reason line: which ADR folders were read and how each was found, then what was skipped, so
 * a user can see why a document was or was not read.
 */
export function describeDiscovery(set: ArtifactSet): string | undefined {
  const parts: string[] = [];
  const folders = set.adrFolders ?? [];
  if (folders.length) {
    const shown = folders.slice(0, 6).map((f) => `${f.dir || "."} (${f.via}, ${f.count})`);
    parts.push(`ADRs in ${shown.join(", ")}${folders.length > 6 ? `, and ${folders.length - 6} more folders` : ""}`);
  } else if (set.files.length) {
    parts.push("no ADRs found");
  }
  if (set.notes?.length) parts.push(set.notes.slice(0, 3).join("; ") + (set.notes.length > 3 ? `; ${set.notes.length - 3} more notes` : ""));
  if (set.skipped.length) {
    parts.push(`skipped ${set.skipped.length}: ${set.skipped.slice(0, 3).map((s) => `${s.path} (${s.reason})`).join(", ")}${set.skipped.length > 3 ? ", …" : ""}`);
  }
  return parts.length ? parts.join("; ") : undefined;
}
