// Installed dependency docs: the offline half of the external stage. The workspace's declared dependencies
// (package.json, pyproject.toml / requirements*.txt, go.mod, Cargo.toml) are matched to what is installed
// (node_modules, a Python virtualenv's dist-info, vendor/ or the Go module cache, vendor/ or the Cargo registry),
// their READMEs, changelogs and docs are split into sections and ranked against the plan, and each hit is cited as
// `<ecosystem>:<package>@<installed version>/<path>` with a line range. A deprecated package yields an item with
// `deprecated: true`, which synthesis reads as dissent against adopting it. Never touches the network.
// Containment: a package folder is taken by its real path (every symlink followed) and only when that lies inside the
// repository (node_modules, a virtualenv, vendor/) or inside the Go module cache / Cargo registry it was looked up in;
// each file is read by its real path and only inside its package's real folder. A committed
// `node_modules/x -> /elsewhere` is not a package, and a README symlinked out of its package is not read.
import { promises as fs } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import fg from "fast-glob";
import { keptKey, keptOrBuilt, type LookedAt } from "./dependencyCache";
import { evidenceId } from "../hash";
import { splitSections } from "../internal/markdown";
import { rankTextSections } from "../internal/sectionIndex";
import type { EvidenceItem } from "../schemas";
import type { Expert, ExpertContext, ExpertResult } from "../types";
import { isInside } from "../contain";
import { windowSections } from "./extract";
import { readDeclaredDependencies, type DeclaredDependency, type Ecosystem } from "./manifests";
import { makeExcerpt, matchesAny, normaliseRepoUrl, planTokens } from "./text";

export interface DependencyDocsOptions {
  /** Declared dependencies looked at, at most. Default 300. */
  maxPackages?: number;
  /** Doc files read per package (README and CHANGELOG first, then docs/**). Default 12. */
  maxFilesPerPackage?: number;
  /** Bytes read per doc file; longer files are indexed up to this size (whole lines). Default 512 KiB. */
  maxFileBytes?: number;
  /** Bytes read over all packages. Default 16 MiB. */
  maxTotalBytes?: number;
  /** Items returned. Default 12. */
  maxItems?: number;
  /** Items per package. Default 4. */
  maxItemsPerPackage?: number;
  /** Go module cache (default $GOMODCACHE, $GOPATH/pkg/mod, ~/go/pkg/mod). */
  goModCache?: string;
  /** Cargo home (default $CARGO_HOME, ~/.cargo). */
  cargoHome?: string;
}

type DocKind = "readme" | "changelog" | "docs" | "metadata";

interface DocFile {
  abs: string;
  /** Relative to the package root, forward slashes. */
  rel: string;
  kind: DocKind;
}

interface Deprecation {
  message: string;
  rel: string;
  line?: number;
  endLine?: number;
  source: "manifest" | "readme" | "classifier" | "go.mod" | "badge";
}

export interface InstalledPackage {
  ecosystem: Ecosystem;
  name: string;
  version: string;
  root: string;
  docs: DocFile[];
  /** Repository or homepage URL from the package's own manifest. */
  url?: string;
  deprecated?: Deprecation;
  /** METADATA files: the header block (lines 1..n) is metadata, not prose. */
  headerLines?: number;
}

interface Unit {
  heading: string;
  title: string;
  body: string;
  pkg: InstalledPackage;
  doc: DocFile;
  start: number;
  end: number;
  mtime: string;
}

const DOC_WEIGHT: Record<DocKind, number> = { readme: 1, docs: 0.9, metadata: 0.9, changelog: 0.6 };

export function createDependencyDocsExpert(options: DependencyDocsOptions = {}): Expert {
  return {
    name: "deps",
    kind: "external",
    offlineCapable: true,
    run: (ctx) => runDependencyDocs(ctx, options),
  };
}

/**
 * Manifests at the repository's root of ecosystems whose installed packages this stage cannot read (their docs live
 * in a user-wide cache, or in no readable form): named in the empty reason, so "no manifest" is never said of a
 * Gradle or Maven project.
 */
const UNREAD_MANIFESTS = ["pom.xml", "build.gradle", "build.gradle.kts", "settings.gradle", "settings.gradle.kts", "composer.json", "Gemfile", "Package.swift", "mix.exs", "build.sbt", "pubspec.yaml"];

async function unreadManifests(repo: string): Promise<string[]> {
  let names: string[];
  try {
    names = await fs.readdir(repo);
  } catch {
    return [];
  }
  const here = new Set(names);
  return [...UNREAD_MANIFESTS.filter((n) => here.has(n)), ...names.filter((n) => /\.(?:csproj|fsproj|sln)$/.test(n)).sort().slice(0, 2)];
}

export function citationPrefix(p: Pick<InstalledPackage, "ecosystem" | "name" | "version">): string {
  return `${p.ecosystem}:${p.name}@${p.version}`;
}

async function runDependencyDocs(ctx: ExpertContext, opts: DependencyDocsOptions): Promise<ExpertResult> {
  const maxPackages = opts.maxPackages ?? 300;
  const manifest = await readDeclaredDependencies(ctx.repo);
  for (const w of manifest.warnings) ctx.log(w);
  if (!manifest.manifests.length) {
    const other = await unreadManifests(ctx.repo);
    const seen = other.length ? `; ${other.join(", ")} ${other.length === 1 ? "is a manifest" : "are manifests"} whose packages keep no docs inside the repository` : "";
    return { status: "empty", reason: `no dependency manifest this stage reads (package.json, pyproject.toml, requirements*.txt, go.mod, Cargo.toml)${seen}`, items: [] };
  }
  if (!manifest.dependencies.length) {
    return { status: "empty", reason: `${manifest.manifests.join(", ")} declare${manifest.manifests.length === 1 ? "s" : ""} no dependencies`, items: [] };
  }
  let truncated = manifest.dependencies.length > maxPackages;
  const declared = manifest.dependencies.slice(0, maxPackages);
  const { installed, read } = await installedDocs(ctx.repo, declared, manifest.locked, opts, ctx.signal);
  if (!installed.length) {
    return {
      status: "empty",
      reason: `no installed docs for the ${declared.length} declared dependenc${declared.length === 1 ? "y" : "ies"} (dependencies not installed?)`,
      items: [],
      ...(truncated ? { truncated } : {}),
    };
  }

  truncated ||= read.truncated;
  const { terms, expansions } = planTokens(ctx.plan);
  const ranked = rankUnits(read.units, ctx.plan, terms, expansions);
  const picked = pickSectionItems(ranked, opts, new Set([...terms, ...expansions]));
  truncated ||= picked.truncated;
  const items = picked.items;
  items.push(...(await deprecationItems(installed, ranked, terms)));

  const sources = [...new Set(items.map((i) => i.package && installed.find((p) => p.name === i.package)?.url).filter((u): u is string => !!u))].sort();
  if (!items.length) {
    return {
      status: "empty",
      reason: `nothing matched in the docs of ${installed.length} installed package${installed.length === 1 ? "" : "s"} (${read.units.length} sections)`,
      items: [],
      ...(truncated ? { truncated } : {}),
    };
  }
  items.sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
  return { status: "ok", items, ...(truncated ? { truncated } : {}), ...(sources.length ? { sources } : {}) };
}

/**
 * The installed packages and their docs' sections: the same for every question, so a long-lived host keeps them
 * (dependencyCache.ts) while nothing they were read from has changed, and their index with them.
 */
async function installedDocs(
  repo: string,
  declared: DeclaredDependency[],
  locked: Map<string, string>,
  opts: DependencyDocsOptions,
  signal: AbortSignal,
): Promise<{ installed: InstalledPackage[]; read: { units: Unit[]; truncated: boolean } }> {
  // The environment says where the Go module cache and the Cargo registry are.
  const where = [process.env.GOMODCACHE, process.env.GOPATH, process.env.CARGO_HOME, homedir()];
  const key = keptKey([repo, declared, [...locked], opts, where]);
  checkAborted(signal);
  return keptOrBuilt(repo, key, async (looked) => {
    const installed = await locateInstalled(declared, new Locator(repo, opts, locked, looked), signal, looked);
    return { installed, read: await readDocUnits(installed, opts, signal, looked) };
  });
}

/** The declared dependencies found installed, looked up 16 at a time. */
async function locateInstalled(declared: DeclaredDependency[], locator: Locator, signal: AbortSignal, looked: LookedAt): Promise<InstalledPackage[]> {
  const installed: InstalledPackage[] = [];
  for (let i = 0; i < declared.length; i += 16) {
    checkAborted(signal);
    const batch = await Promise.all(
      declared.slice(i, i + 16).map((d) =>
        locator.locate(d).catch((err: unknown) => {
          looked.failed(err);
          return undefined;
        }),
      ),
    );
    for (const p of batch) if (p) installed.push(p);
  }
  return installed;
}

/** Sections of every doc file, bounded by the per-file and total byte budgets. */
async function readDocUnits(installed: InstalledPackage[], opts: DependencyDocsOptions, signal: AbortSignal, looked?: LookedAt): Promise<{ units: Unit[]; truncated: boolean }> {
  const budget = { bytes: opts.maxTotalBytes ?? 16 * 1024 * 1024 };
  let truncated = false;
  const units: Unit[] = [];
  for (const pkg of installed) {
    checkAborted(signal);
    for (const doc of pkg.docs) {
      if (budget.bytes <= 0) {
        truncated = true;
        break;
      }
      const read = await readCapped(doc.abs, Math.min(opts.maxFileBytes ?? 512 * 1024, budget.bytes), pkg.root, looked);
      if (!read) continue;
      budget.bytes -= Buffer.byteLength(read.text);
      if (read.truncated) truncated = true;
      units.push(...docUnits(pkg, doc, read));
    }
  }
  return { units, truncated };
}

function docUnits(pkg: InstalledPackage, doc: DocFile, read: { text: string; mtime: string }): Unit[] {
  const lines = read.text.split("\n");
  const sections = windowSections(
    splitSections(read.text).map((s) => ({ heading: s.heading, level: s.level, start: s.start, end: s.contentEnd, body: s.body })),
    lines,
  );
  const units: Unit[] = [];
  for (const s of sections) {
    if (pkg.headerLines && doc.kind === "metadata" && s.start <= pkg.headerLines) continue;
    if (!s.body.trim() && !s.heading) continue;
    units.push({
      heading: s.heading,
      title: `${pkg.name} ${doc.rel}`,
      body: s.body,
      pkg,
      doc,
      start: s.start,
      end: s.end,
      mtime: read.mtime,
    });
  }
  return units;
}

interface RankedUnit {
  unit: Unit;
  score: number;
}

function rankUnits(units: Unit[], plan: ExpertContext["plan"], terms: ReadonlySet<string>, expansions: ReadonlySet<string>): RankedUnit[] {
  return rankTextSections(units, plan.terms, plan.expansions, Number.POSITIVE_INFINITY, { boost: { heading: 2, title: 2.5, body: 1 } })
    // A hit must rest on one of the plan's own terms, or on two or more expansion words; one stray synonym is noise.
    .filter((r) => matchesAny(r.matched, terms) > 0 || matchesAny(r.matched, expansions) >= 2)
    .map((r) => ({ unit: r.section, score: r.score * DOC_WEIGHT[r.section.doc.kind] }))
    .sort((a, b) => b.score - a.score);
}

/** The best sections, a few per package, down to 15% of the top score. */
function pickSectionItems(ranked: RankedUnit[], opts: DependencyDocsOptions, tokens: Set<string>): { items: EvidenceItem[]; truncated: boolean } {
  const maxItems = opts.maxItems ?? 12;
  const perPackage = opts.maxItemsPerPackage ?? 4;
  const items: EvidenceItem[] = [];
  const perPkg = new Map<InstalledPackage, number>();
  const top = ranked[0]?.score ?? 0;
  for (const r of ranked) {
    if (items.length >= maxItems) return { items, truncated: ranked.length > maxItems };
    if (r.score < top * 0.15) break;
    const n = perPkg.get(r.unit.pkg) ?? 0;
    if (n >= perPackage) continue;
    perPkg.set(r.unit.pkg, n + 1);
    items.push(sectionItem(r.unit, r.score, tokens));
  }
  return { items, truncated: false };
}

/** Deprecation is dissent: surface it for every deprecated package the question touches (by name or by a hit). */
async function deprecationItems(installed: InstalledPackage[], ranked: RankedUnit[], terms: ReadonlySet<string>): Promise<EvidenceItem[]> {
  const top = ranked[0]?.score ?? 0;
  const nameHit = (p: InstalledPackage) => matchesAny(p.name.split(/[@/._-]+/).filter(Boolean).map((t) => t.toLowerCase()), terms) > 0;
  const items: EvidenceItem[] = [];
  for (const pkg of installed) {
    if (!pkg.deprecated) continue;
    const best = ranked.find((r) => r.unit.pkg === pkg)?.score;
    if (best === undefined && !nameHit(pkg)) continue;
    const item = await deprecationItem(pkg, Math.max(best ?? 0, top) * 1.01 || 1);
    if (item) items.push(item);
  }
  return items;
}

function sectionItem(u: Unit, score: number, tokens: Set<string>): EvidenceItem {
  const path = `${citationPrefix(u.pkg)}/${u.doc.rel}`;
  const line_range = { start: u.start, end: u.end };
  return {
    id: evidenceId({ kind: "external", path_or_url: path, line_range }),
    kind: "external",
    expert: "deps",
    source_type: "dependency-doc",
    path_or_url: path,
    line_range,
    fetched_at: u.mtime,
    precision_class: "section",
    title: [`${u.pkg.name}@${u.pkg.version}`, u.doc.rel + (u.heading ? ` § ${u.heading}` : ""), u.pkg.url].filter(Boolean).join(" · "),
    excerpt: makeExcerpt(u.heading, u.body, tokens),
    score: round4(score),
    package: u.pkg.name,
  };
}

async function deprecationItem(pkg: InstalledPackage, score: number): Promise<EvidenceItem | undefined> {
  const dep = pkg.deprecated!;
  const abs = join(pkg.root, ...dep.rel.split("/"));
  let mtime: string;
  try {
    mtime = (await fs.stat(abs)).mtime.toISOString();
  } catch {
    mtime = new Date().toISOString();
  }
  const path = `${citationPrefix(pkg)}/${dep.rel}`;
  const line_range = dep.line ? { start: dep.line, end: dep.endLine ?? dep.line } : undefined;
  const where = { manifest: "its package manifest", readme: "a README banner", classifier: "its Development Status classifier", "go.mod": "its go.mod", badge: "a README badge" }[dep.source];
  return {
    id: evidenceId({ kind: "external", path_or_url: path, ...(line_range ? { line_range } : {}) }),
    kind: "external",
    expert: "deps",
    source_type: "dependency-doc",
    path_or_url: path,
    ...(line_range ? { line_range } : {}),
    fetched_at: mtime,
    precision_class: line_range ? "exact-lines" : "document",
    title: [`${pkg.name}@${pkg.version} is deprecated`, pkg.url].filter(Boolean).join(" · "),
    excerpt: `${pkg.name}@${pkg.version} is marked deprecated by ${where}: ${dep.message}`.slice(0, 600),
    score: round4(score),
    package: pkg.name,
    deprecated: true,
  };
}

function round4(n: number): number {
  return Math.round(n * 1e4) / 1e4;
}

function checkAborted(signal: AbortSignal): void {
  if (signal.aborted) throw signal.reason instanceof Error ? signal.reason : new Error("cancelled");
}

/**
 * Reads at most `cap` bytes, cut back to the last whole line when the file is longer. Only a regular file whose real
 * path lies inside `within` (a real path: the package's folder) is read; anything else reads as missing.
 */
async function readCapped(abs: string, cap: number, within: string, looked?: LookedAt): Promise<{ text: string; truncated: boolean; mtime: string } | undefined> {
  let handle: fs.FileHandle | undefined;
  looked?.add(abs);
  try {
    const real = await fs.realpath(abs);
    if (!isInside(within, real)) return undefined;
    const st = await fs.stat(real);
    if (!st.isFile()) return undefined;
    handle = await fs.open(real, "r");
    const size = Math.min(st.size, cap);
    const buf = Buffer.alloc(size);
    const { bytesRead } = await handle.read(buf, 0, size, 0);
    let text = buf.subarray(0, bytesRead).toString("utf8").replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
    const truncated = st.size > cap;
    if (truncated) text = text.slice(0, Math.max(0, text.lastIndexOf("\n")));
    if (text.includes("\u0000")) return undefined;
    return { text, truncated, mtime: st.mtime.toISOString() };
  } catch (err) {
    looked?.failed(err);
    return undefined;
  } finally {
    await handle?.close();
  }
}

// ---------------------------------------------------------------------------------------------------------
// Locating installed packages and their docs.

const README = /^readme(\.(md|markdown|mdx|txt|rst))?$/i;
const CHANGELOG = /^(changelog|changes|history|releases|news)(\.(md|markdown|mdx|txt|rst))?$/i;

/**
 * README banner patterns that mean the package itself is deprecated (not that it deprecates an option). Only
 * the first lines are checked: that is where such banners live.
 */
const BANNER_PATTERNS: RegExp[] = [
  // A line that *is* the banner: "# DEPRECATED", "**Deprecated**: use x", "> Unmaintained - …" (not "## Deprecated options").
  /^\s*(?:>\s*)*(?:\[!(?:warning|caution|important|note)\]\s*)?(?:#+\s*)?(?:[*_]{1,2})?(?:⚠️\s*)?(?:deprecated|deprecation notice|unmaintained|archived|no longer maintained)\s*(?:[*_]{1,2})?\s*(?:[:!.\-—–]|$)/i,
  /\b(?:this|the)\s+(?:project|package|library|module|repo(?:sitory)?|crate|tool)\s+(?:is|has\s+been)\s+(?:now\s+|officially\s+)?(?:deprecated|archived|unmaintained|abandoned|no\s+longer\s+(?:actively\s+)?maintained)\b/i,
  /\bno\s+longer\s+(?:actively\s+)?(?:maintained|supported|developed)\b/i,
  /\bthis\s+repository\s+has\s+been\s+archived\b/i,
];
const BADGE = /!\[[^\]]*\]\([^)]*(?:deprecated|unmaintained|no-maintenance|maintenance-no|inactive)[^)]*\)/i;
const BANNER_LINES = 30;

export async function detectReadmeDeprecation(abs: string, rel: string, within: string, looked?: LookedAt): Promise<Deprecation | undefined> {
  const read = await readCapped(abs, 64 * 1024, within, looked);
  if (!read) return undefined;
  const lines = read.text.split("\n");
  let inFence = false;
  for (let i = 0; i < Math.min(lines.length, BANNER_LINES); i++) {
    const line = lines[i];
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    if (inFence) continue;
    if (BADGE.test(line)) return { message: line.trim().slice(0, 300), rel, line: i + 1, source: "badge" };
    if (BANNER_PATTERNS.some((p) => p.test(line))) {
      // The banner and the lines around it in the same paragraph (a "> **Warning**" line above, continuation
      // lines below), at most 3 lines each way.
      let start = i;
      while (start > 0 && i - start < 3 && lines[start - 1].trim() && !/^\s*(```|~~~)/.test(lines[start - 1])) start--;
      let end = i;
      while (end + 1 < lines.length && end - i < 3 && lines[end + 1].trim() && !/^\s*(```|~~~)/.test(lines[end + 1])) end++;
      const message = lines
        .slice(start, end + 1)
        .map((l) => l.replace(/^[\s>#*_]+|[*_]+$/g, "").trim())
        .join(" ")
        .slice(0, 400);
      return { message, rel, line: start + 1, endLine: end + 1, source: "readme" };
    }
  }
  return undefined;
}

async function isDir(p: string, looked?: LookedAt): Promise<boolean> {
  looked?.add(p);
  try {
    return (await fs.stat(p)).isDirectory();
  } catch (err) {
    looked?.failed(err);
    return false;
  }
}

/** Lists a folder (undefined when it is not one), as one more path looked at. */
async function listDir(dir: string, looked?: LookedAt): Promise<string[] | undefined> {
  looked?.add(dir);
  try {
    return await fs.readdir(dir);
  } catch (err) {
    looked?.failed(err);
    return undefined;
  }
}

/**
 * The real path of a package folder when it is a folder lying inside one of `allowed` (real paths), else undefined:
 * the repository's own folders, or the module cache it was looked up in — never elsewhere through a symlink.
 */
async function containedDir(dir: string, allowed: readonly (string | undefined)[], looked?: LookedAt): Promise<string | undefined> {
  looked?.add(dir);
  try {
    const real = await fs.realpath(dir);
    if (!allowed.some((a) => a !== undefined && isInside(a, real))) return undefined;
    return (await fs.stat(real)).isDirectory() ? real : undefined;
  } catch (err) {
    looked?.failed(err);
    return undefined;
  }
}

/** A real path, or undefined when there is none (missing). */
async function realOrNothing(p: string): Promise<string | undefined> {
  try {
    return await fs.realpath(p);
  } catch {
    return undefined;
  }
}

async function readJson(abs: string, within: string, looked?: LookedAt): Promise<Record<string, unknown> | undefined> {
  const r = await readCapped(abs, 1024 * 1024, within, looked);
  if (!r || r.truncated) return undefined;
  try {
    const v = JSON.parse(r.text);
    return v && typeof v === "object" ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** README and CHANGELOG at the package root, then docs/**.md, at most `max` files. */
async function docFilesOf(root: string, max: number, looked?: LookedAt): Promise<DocFile[]> {
  const listed = await listDir(root, looked);
  if (!listed) return [];
  const entries = listed.sort();
  const out: DocFile[] = [];
  for (const e of entries) if (README.test(e)) out.push({ abs: join(root, e), rel: e, kind: "readme" });
  for (const e of entries) if (CHANGELOG.test(e)) out.push({ abs: join(root, e), rel: e, kind: "changelog" });
  if (out.length < max && (await isDir(join(root, "docs"), looked))) {
    const files = await fg(["docs/**/*.{md,markdown,mdx}"], {
      cwd: root,
      onlyFiles: true,
      followSymbolicLinks: false,
      deep: 5,
      caseSensitiveMatch: false,
      ignore: ["**/node_modules/**"],
    });
    if (looked) await lookAtDocsFolders(root, looked);
    for (const f of files.sort().slice(0, max - out.length)) out.push({ abs: join(root, f), rel: f, kind: "docs" });
  }
  return out.slice(0, max);
}

/** Every folder the docs/** search could have found a file in (one level deeper than it reads, to be sure). */
async function lookAtDocsFolders(root: string, looked: LookedAt): Promise<void> {
  const dirs = await fg(["docs/**"], { cwd: root, onlyDirectories: true, followSymbolicLinks: false, deep: 6, ignore: ["**/node_modules/**"] });
  for (const d of dirs) looked.add(join(root, d));
}

function normalisePyName(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, "-");
}

/** Go module path escaping in the module cache: upper-case letters become "!" + lower case. */
export function escapeGoModulePath(path: string): string {
  return path.replace(/[A-Z]/g, (c) => `!${c.toLowerCase()}`);
}

class Locator {
  private sitePackages?: Promise<Map<string, { dir: string; distInfo: string; version: string }>>;
  private realRepo?: Promise<string | undefined>;

  constructor(
    private readonly repo: string,
    private readonly opts: DependencyDocsOptions,
    private readonly locked: Map<string, string>,
    /** Every path read, listed or looked for, when the result is to be kept (dependencyCache.ts). */
    private readonly looked?: LookedAt,
  ) {}

  private get maxFiles(): number {
    return this.opts.maxFilesPerPackage ?? 12;
  }

  /** The repository's real path: packages installed in it (node_modules, a virtualenv, vendor/) must lie inside. */
  private repoRoot(): Promise<string | undefined> {
    this.realRepo ??= realOrNothing(this.repo);
    return this.realRepo;
  }

  async locate(d: DeclaredDependency): Promise<InstalledPackage | undefined> {
    switch (d.ecosystem) {
      case "npm":
        return this.npm(d);
      case "pypi":
        return this.pypi(d);
      case "go":
        return this.go(d);
      case "crates":
        return this.crate(d);
    }
  }

  private async npm(d: DeclaredDependency): Promise<InstalledPackage | undefined> {
    if (!/^(@[\w.-]+\/)?[\w.-]+$/.test(d.name)) return undefined;
    // node_modules/<name> by its real path, inside the repository: a workspace link (to packages/x) is one, a
    // committed link out of the repository is not.
    const root = await containedDir(join(this.repo, "node_modules", ...d.name.split("/")), [await this.repoRoot()], this.looked);
    if (!root) return undefined;
    const manifest = await readJson(join(root, "package.json"), root, this.looked);
    if (!manifest) return undefined;
    const version = typeof manifest.version === "string" ? manifest.version : d.declared ?? "unknown";
    const docs = await docFilesOf(root, this.maxFiles, this.looked);
    const url = normaliseRepoUrl(manifest.repository) ?? normaliseRepoUrl(manifest.homepage);
    let deprecated: Deprecation | undefined;
    if (manifest.deprecated !== undefined && manifest.deprecated !== false) {
      const text = (await readCapped(join(root, "package.json"), 1024 * 1024, root, this.looked))?.text ?? "";
      const line = text.split("\n").findIndex((l) => /"deprecated"\s*:/.test(l));
      deprecated = {
        message: typeof manifest.deprecated === "string" ? manifest.deprecated : "deprecated",
        rel: "package.json",
        ...(line >= 0 ? { line: line + 1 } : {}),
        source: "manifest",
      };
    }
    deprecated ??= await this.readmeDeprecation(docs, root);
    if (!docs.length && !deprecated) return undefined;
    return { ecosystem: "npm", name: d.name, version, root, docs, ...(url ? { url } : {}), ...(deprecated ? { deprecated } : {}) };
  }

  private async readmeDeprecation(docs: DocFile[], root: string): Promise<Deprecation | undefined> {
    const readme = docs.find((f) => f.kind === "readme");
    return readme ? detectReadmeDeprecation(readme.abs, readme.rel, root, this.looked) : undefined;
  }

  private async pypi(d: DeclaredDependency): Promise<InstalledPackage | undefined> {
    this.sitePackages ??= this.indexSitePackages();
    const hit = (await this.sitePackages).get(normalisePyName(d.name));
    if (!hit) return undefined;
    const metadataAbs = join(hit.dir, hit.distInfo, "METADATA");
    const read = await readCapped(metadataAbs, 64 * 1024, hit.dir, this.looked);
    if (!read) return undefined;
    const lines = read.text.split("\n");
    let headerLines = lines.findIndex((l) => l.trim() === "");
    if (headerLines < 0) headerLines = lines.length;
    const headers = lines.slice(0, headerLines);
    const header = (k: string) => headers.filter((l) => l.toLowerCase().startsWith(`${k.toLowerCase()}:`)).map((l) => l.slice(k.length + 1).trim());
    const version = header("Version")[0] ?? hit.version;
    const projectUrls = header("Project-URL").map((v) => v.split(",").map((x) => x.trim()));
    const preferred = projectUrls.find(([k]) => /source|repository|code|github/i.test(k ?? "")) ?? projectUrls.find(([k]) => /home/i.test(k ?? ""));
    const url = normaliseRepoUrl(preferred?.[1]) ?? normaliseRepoUrl(header("Home-page")[0]);
    const rel = `${hit.distInfo}/METADATA`;
    let deprecated: Deprecation | undefined;
    const inactive = headers.findIndex((l) => /^Classifier:\s*Development Status\s*::\s*7\s*-\s*Inactive/i.test(l));
    if (inactive >= 0) deprecated = { message: "Development Status :: 7 - Inactive", rel, line: inactive + 1, source: "classifier" };
    const docs: DocFile[] = [{ abs: metadataAbs, rel, kind: "metadata" }];
    return { ecosystem: "pypi", name: d.name, version, root: hit.dir, docs, headerLines, ...(url ? { url } : {}), ...(deprecated ? { deprecated } : {}) };
  }

  private async indexSitePackages(): Promise<Map<string, { dir: string; distInfo: string; version: string }>> {
    const out = new Map<string, { dir: string; distInfo: string; version: string }>();
    const dirs = await fg(["{.venv,venv,env,.env}/lib/python*/site-packages", "{.venv,venv,env,.env}/Lib/site-packages"], {
      cwd: this.repo,
      onlyDirectories: true,
      deep: 4,
      absolute: true,
      dot: true,
    });
    if (this.looked) await this.lookAtVirtualenvs(this.looked);
    const repoRoot = await this.repoRoot();
    for (const found of dirs.sort()) {
      // A virtualenv is the repository's own folder: one linked in from elsewhere is not read.
      const dir = await containedDir(found, [repoRoot], this.looked);
      if (!dir) continue;
      const entries = await listDir(dir, this.looked);
      if (!entries) continue;
      for (const e of entries.sort()) {
        const m = /^(.+?)-([^-]+)\.dist-info$/.exec(e);
        if (!m) continue;
        const key = normalisePyName(m[1]);
        if (!out.has(key)) out.set(key, { dir, distInfo: e, version: m[2] });
      }
    }
    return out;
  }

  /** The folders the virtualenv search read: a site-packages folder that appears changes one of them. */
  private async lookAtVirtualenvs(looked: LookedAt): Promise<void> {
    for (const env of [".venv", "venv", "env", ".env"]) {
      looked.add(join(this.repo, env));
      looked.add(join(this.repo, env, "Lib"));
      looked.add(join(this.repo, env, "Lib", "site-packages"));
      for (const python of (await listDir(join(this.repo, env, "lib"), looked)) ?? []) looked.add(join(this.repo, env, "lib", python));
    }
  }

  private goModCache(): string {
    return this.opts.goModCache ?? process.env.GOMODCACHE ?? join(process.env.GOPATH ?? join(homedir(), "go"), "pkg", "mod");
  }

  private async go(d: DeclaredDependency): Promise<InstalledPackage | undefined> {
    if (!/^[\w.~/-]+$/.test(d.name) || d.name.includes("..")) return undefined;
    const version = d.declared ?? "unknown";
    // vendor/ inside the repository; the module cache (the environment's, not the repository's) inside itself.
    const candidates: [string, Promise<string | undefined>][] = [[join(this.repo, "vendor", ...d.name.split("/")), this.repoRoot()]];
    if (d.declared && /^v[\w.+-]+$/.test(d.declared)) {
      const cache = this.goModCache();
      candidates.push([join(cache, ...`${escapeGoModulePath(d.name)}@${d.declared}`.split("/")), realOrNothing(cache)]);
    }
    for (const [candidate, within] of candidates) {
      const root = await containedDir(candidate, [await within], this.looked);
      if (!root) continue;
      const docs = await docFilesOf(root, this.maxFiles, this.looked);
      let deprecated: Deprecation | undefined;
      const gomod = await readCapped(join(root, "go.mod"), 64 * 1024, root, this.looked);
      if (gomod) {
        const lines = gomod.text.split("\n");
        const moduleLine = lines.findIndex((l) => /^module\s/.test(l));
        for (let i = 0; i < (moduleLine < 0 ? 0 : moduleLine); i++) {
          const m = /^\/\/\s*Deprecated:\s*(.*)$/.exec(lines[i].trim());
          if (m) deprecated = { message: m[1] || "deprecated", rel: "go.mod", line: i + 1, source: "go.mod" };
        }
      }
      deprecated ??= await this.readmeDeprecation(docs, root);
      if (!docs.length && !deprecated) continue;
      const url = d.name.startsWith("github.com/") ? `https://${d.name.split("/").slice(0, 3).join("/")}` : `https://pkg.go.dev/${d.name}`;
      return { ecosystem: "go", name: d.name, version, root, docs, url, ...(deprecated ? { deprecated } : {}) };
    }
    return undefined;
  }

  private async crate(d: DeclaredDependency): Promise<InstalledPackage | undefined> {
    if (!/^[\w-]+$/.test(d.name)) return undefined;
    const exact = this.locked.get(d.name);
    // vendor/ inside the repository; the Cargo registry (the environment's) inside its registry/src.
    const candidates: [string, Promise<string | undefined>][] = [[join(this.repo, "vendor", d.name), this.repoRoot()]];
    const cargoHome = this.opts.cargoHome ?? process.env.CARGO_HOME ?? join(homedir(), ".cargo");
    // The version comes from the repository's Cargo.lock: only a plain one goes into the folder pattern.
    if (exact && /^[\w.+-]+$/.test(exact)) {
      const found = await fg([`registry/src/*/${d.name}-${exact}`], { cwd: cargoHome, onlyDirectories: true, deep: 3, absolute: true });
      // A crate unpacked later changes its registry's folder (or, a new registry, registry/src).
      if (this.looked) for (const r of (await listDir(join(cargoHome, "registry", "src"), this.looked)) ?? []) this.looked.add(join(cargoHome, "registry", "src", r));
      const registry = realOrNothing(join(cargoHome, "registry", "src"));
      candidates.push(...found.sort().map((f): [string, Promise<string | undefined>] => [f, registry]));
    }
    for (const [candidate, within] of candidates) {
      const root = await containedDir(candidate, [await within], this.looked);
      if (!root) continue;
      const cargo = await readCapped(join(root, "Cargo.toml"), 256 * 1024, root, this.looked);
      const pkgVersion = cargo ? /^\s*version\s*=\s*"([^"]+)"/m.exec(cargo.text)?.[1] : undefined;
      const version = pkgVersion ?? exact ?? d.declared ?? "unknown";
      const url = cargo
        ? normaliseRepoUrl(/^\s*repository\s*=\s*"([^"]+)"/m.exec(cargo.text)?.[1]) ?? normaliseRepoUrl(/^\s*homepage\s*=\s*"([^"]+)"/m.exec(cargo.text)?.[1])
        : undefined;
      const docs = await docFilesOf(root, this.maxFiles, this.looked);
      let deprecated: Deprecation | undefined;
      if (cargo) {
        const lines = cargo.text.split("\n");
        const idx = lines.findIndex((l) => /maintenance\s*=\s*\{[^}]*status\s*=\s*"deprecated"/.test(l) || /^\s*status\s*=\s*"deprecated"/.test(l));
        if (idx >= 0) deprecated = { message: "maintenance status: deprecated", rel: "Cargo.toml", line: idx + 1, source: "manifest" };
      }
      deprecated ??= await this.readmeDeprecation(docs, root);
      if (!docs.length && !deprecated) continue;
      return { ecosystem: "crates", name: d.name, version, root, docs, ...(url ? { url } : {}), ...(deprecated ? { deprecated } : {}) };
    }
    return undefined;
  }
}
