// Where and how this repository keeps its ADRs: the folder (the one holding most records, or what `.adr-dir` /
// `.log4brains.yml` name), the format its records are written in (MADR with or without front matter, Nygard,
// log4brains) and its file naming (NNNN-slug.md with its padding and prefix, dated names, one folder per ADR).
// With no ADRs yet: MADR 4 in docs/decisions/, numbered 0001-….
import { promises as fs } from "node:fs";
import { join, posix } from "node:path";
import { resolveInside } from "../contain";
import { adrFolderOf, parseAdrDirFile, parseLog4brainsFile } from "../internal/adrDetect";
import { parseAdr, type ParsedAdr } from "../internal/adr";
import { discoverArtifacts } from "../internal/discovery";
import type { DeliberationConfig } from "../types";
import { AdrExportError } from "./errors";

export type AdrFormat = "madr" | "nygard" | "log4brains";
export const ADR_FORMATS: readonly AdrFormat[] = ["madr", "nygard", "log4brains"];

export type AdrNaming =
  | { kind: "numbered"; prefix: string; width: number; separator: "-" | "_" }
  | { kind: "dated"; compact: boolean }
  /** One folder per ADR: `<date>-<slug>/<doc>` (doc is README.md, index.md, …). */
  | { kind: "folder"; compact: boolean; doc: string };

export interface AdrLayout {
  /** Workspace-relative folder ("" for the root). */
  dir: string;
  format: AdrFormat;
  /** MADR: status in YAML front matter (MADR 4) rather than `* Status:` bullets (MADR 2–3). */
  frontMatter: boolean;
  naming: AdrNaming;
  /** How the layout was chosen, for the CLI and the log. */
  source: "existing ADRs" | ".adr-dir" | ".log4brains.yml" | "default";
  /** The folder does not exist yet (the default docs/decisions/). */
  createDir: boolean;
  /** The ADRs found in the repository (every folder), parsed. */
  adrs: ParsedAdr[];
}

export const DEFAULT_ADR_DIR = "docs/decisions";
const NUMBERED_NAME = /^((?:adr|ADR|Adr)[-_]?)?(\d{1,6})([-_])/;
const DATED_NAME = /^(\d{4}-\d{2}-\d{2}|\d{8})[-_]/;

/** Reads `.adr-dir` / `.log4brains.yml` at the root: the folder it names, and whether that folder exists. */
async function declaredFolder(repo: string): Promise<{ dir: string; via: ".adr-dir" | ".log4brains.yml"; exists: boolean } | undefined> {
  for (const [name, via, parse] of [
    [".log4brains.yml", ".log4brains.yml", parseLog4brainsFile],
    [".adr-dir", ".adr-dir", parseAdrDirFile],
  ] as const) {
    const real = await resolveInside(repo, name);
    if (!real) continue;
    const body = await fs.readFile(real, "utf8").catch(() => undefined);
    const dir = body === undefined ? undefined : parse(body.slice(0, 64 * 1024));
    if (dir === undefined) continue;
    const st = await fs.stat(join(repo, dir)).catch(() => undefined);
    if (st && !st.isDirectory()) throw new AdrExportError(`${via} names ${dir || "."}, which is a file, not a folder; nothing was written`);
    return { dir, via, exists: !!st };
  }
  return undefined;
}

function majority<T>(values: T[], key: (v: T) => string = String): T | undefined {
  const counts = new Map<string, { v: T; n: number }>();
  for (const v of values) {
    const k = key(v);
    const c = counts.get(k) ?? { v, n: 0 };
    c.n++;
    counts.set(k, c);
  }
  return [...counts.values()].sort((a, b) => b.n - a.n)[0]?.v;
}

/** The naming most of the folder's ADRs follow. */
export function namingOf(paths: string[], dir: string): AdrNaming | undefined {
  const namings: AdrNaming[] = [];
  for (const p of paths) {
    const rel = dir ? p.slice(dir.length + 1) : p;
    const parts = rel.split("/");
    if (parts.length === 2 && DATED_NAME.test(parts[0] + "-")) {
      namings.push({ kind: "folder", compact: /^\d{8}/.test(parts[0]), doc: parts[1] });
      continue;
    }
    if (parts.length !== 1) continue;
    const dated = DATED_NAME.exec(rel);
    if (dated) {
      namings.push({ kind: "dated", compact: dated[1].length === 8 });
      continue;
    }
    const num = NUMBERED_NAME.exec(rel);
    if (num) namings.push({ kind: "numbered", prefix: num[1] ?? "", width: num[2].startsWith("0") || num[2].length > 1 ? num[2].length : 1, separator: num[3] as "-" | "_" });
  }
  return majority(namings, (n) => JSON.stringify(n));
}

function formatOf(adrs: ParsedAdr[], naming: AdrNaming | undefined, via?: string): { format: AdrFormat; frontMatter: boolean } {
  if (via === ".log4brains.yml") return { format: "log4brains", frontMatter: false };
  const format = majority(adrs.map((a) => a.format)) ?? (via === ".adr-dir" ? "nygard" : "madr");
  if (format === "madr" && naming?.kind === "dated" && naming.compact && adrs.every((a) => !a.doc.frontMatter)) return { format: "log4brains", frontMatter: false };
  const madr = adrs.filter((a) => a.format === "madr");
  const withFm = madr.filter((a) => a.doc.frontMatter && "status" in a.doc.frontMatter.data).length;
  return { format, frontMatter: madr.length === 0 || withFm * 2 >= madr.length };
}

/**
 * The repository's ADR layout. `format` forces the format (the naming still follows the folder). Throws
 * AdrExportError when `.adr-dir` or `.log4brains.yml` names a folder that is missing or a file.
 */
export async function detectAdrLayout(repo: string, config: DeliberationConfig, opts: { format?: AdrFormat; signal?: AbortSignal } = {}): Promise<AdrLayout> {
  const declared = await declaredFolder(repo);
  if (declared && !declared.exists) {
    throw new AdrExportError(`${declared.via} names the ADR folder ${declared.dir || "."}, which does not exist: create it or fix ${declared.via}; nothing was written`);
  }
  const artifacts = await discoverArtifacts(repo, config, opts.signal);
  const files = artifacts.files.filter((f) => f.source_type === "adr");
  const adrs = files.map((f) => parseAdr(f.path, f.text));
  const dir = declared?.dir ?? artifacts.adrFolders?.[0]?.dir;
  if (dir === undefined) {
    const createDir = !(await fs.stat(join(repo, DEFAULT_ADR_DIR)).then((s) => s.isDirectory(), () => false));
    return {
      dir: DEFAULT_ADR_DIR,
      format: opts.format ?? "madr",
      frontMatter: true,
      naming: opts.format === "log4brains" ? { kind: "dated", compact: true } : { kind: "numbered", prefix: "", width: 4, separator: "-" },
      source: "default",
      createDir,
      adrs,
    };
  }
  const inFolder = adrs.filter((a) => adrFolderOf(a.path) === dir);
  const detected = namingOf(inFolder.map((a) => a.path), dir);
  const found = formatOf(inFolder, detected, declared?.via);
  const format = opts.format ?? found.format;
  const naming: AdrNaming =
    detected ?? (format === "log4brains" ? { kind: "dated", compact: true } : { kind: "numbered", prefix: "", width: 4, separator: "-" });
  return {
    dir,
    format,
    frontMatter: opts.format && opts.format !== found.format ? format === "madr" : found.frontMatter,
    naming,
    source: declared && inFolder.length === 0 ? declared.via : "existing ADRs",
    createDir: false,
    adrs,
  };
}

/** Lists a folder's entries, with a one-line error for a folder that is missing, a file or unreadable. */
export async function listAdrFolder(repo: string, dir: string, mayCreate: boolean): Promise<string[]> {
  try {
    return await fs.readdir(join(repo, dir));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" && mayCreate) return [];
    if (code === "ENOENT") throw new AdrExportError(`the ADR folder ${dir || "."} is missing; nothing was written`);
    if (code === "ENOTDIR") throw new AdrExportError(`the ADR folder ${dir || "."} is a file, not a folder; nothing was written`);
    throw new AdrExportError(`the ADR folder ${dir || "."} cannot be read (${code ?? (err as Error).message}); nothing was written`);
  }
}

/** `slug` for a file name: lower case, hyphens, at most ~60 characters cut at a word boundary. */
export function fileSlug(title: string): string {
  const s = title
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  if (s.length <= 60) return s || "decision";
  const cut = s.slice(0, 61);
  return cut.slice(0, cut.lastIndexOf("-") > 20 ? cut.lastIndexOf("-") : 60).replace(/-+$/, "");
}

/**
 * The next free name in the folder: one above the highest number any entry uses (gaps are never reused; numbers
 * only grow), or the date with a -2, -3 … suffix when that name is taken. `skip` numbers are taken too (a
 * collision found while writing).
 */
export function nextAdrName(entries: string[], naming: AdrNaming, slug: string, date: string, skip = 0): { name: string; number?: number } {
  const taken = new Set(entries.map((e) => e.toLowerCase()));
  if (naming.kind === "numbered") {
    let max = 0;
    for (const e of entries) {
      const m = NUMBERED_NAME.exec(e);
      if (m && (m[1] ?? "").toLowerCase() === naming.prefix.toLowerCase()) max = Math.max(max, Number(m[2]));
    }
    const number = max + 1 + skip;
    return { name: `${naming.prefix}${String(number).padStart(naming.width, "0")}${naming.separator}${slug}.md`, number };
  }
  const stamp = naming.compact ? date.replace(/-/g, "") : date;
  for (let n = 1 + skip; ; n++) {
    const base = `${stamp}-${slug}${n > 1 ? `-${n}` : ""}`;
    const name = naming.kind === "folder" ? `${base}/${naming.doc}` : `${base}.md`;
    if (!taken.has(naming.kind === "folder" ? base.toLowerCase() : name.toLowerCase())) return { name };
  }
}

// In a link target: ASCII other than letters, digits, `-._~` and `/`, and the invisible and bidi characters.
const UNSAFE_IN_TARGET = /[^A-Za-z0-9\-._~/\u00A1-\uFFFF]|[\u00AD\u061C\u180E\u200B-\u200F\u2028-\u202E\u2060-\u206F\uFEFF]|\uDB40[\uDC00-\uDC7F]/g;

/**
 * A relative Markdown link target from one ADR to another: forward slashes, and every ASCII character outside
 * letters, digits and `-._~` percent-encoded (a space, parentheses, `<` or `>` in a file name would end the link
 * or turn it into raw HTML), as are invisible and bidi characters; other letters stay as they are.
 */
export function relativeLink(fromPath: string, toPath: string): string {
  const rel = posix.relative(posix.dirname(fromPath), toPath) || posix.basename(toPath);
  // encodeURIComponent leaves !'()* as they are; a parenthesis would end the link.
  return rel.replace(UNSAFE_IN_TARGET, (c) => encodeURIComponent(c).replace(/[!'()*]/g, (x) => `%${x.charCodeAt(0).toString(16).toUpperCase()}`));
}
