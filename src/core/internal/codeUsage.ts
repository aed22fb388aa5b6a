// The code-usage expert: how many files of the repository use each option today, read from what says "we use it"
// in code — dependency manifests and lock files, import/require lines, and infrastructure files (Dockerfiles,
// Terraform, CI workflows). Prose (ADRs, READMEs, comments) never counts: a record that names moment is not a use
// of moment.
//
// In a git work tree: one `git grep` over the work tree (tracked and untracked, never .gitignore'd files) through the
// hardened runner (gitSafety.ts), fixed strings, case-insensitive, word boundaries; the lines it returns are
// classified here. Outside git: a bounded walk of the folder (./codeUsageWalk.ts) under discovery's ignore rules,
// feeding the very same classifier. The history index plays no part, so the same work tree gives the same figures
// with or without it. The git search runs under a time budget, the walk under file and byte budgets; a cut is
// reported and the counts are then lower bounds.
// codeUsageState() fingerprints what the count reads (the stat of every file in scope), so a cached turn
// (turnCache.ts) is served only while the code it counted is unchanged.
import { spawn } from "node:child_process";
import { lstatSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { cachedCheck, cachedListing, indexProof, keepListing } from "./gitStateCache";
import { createHash } from "node:crypto";
import { walkState, walkUsageFiles, type WalkBudget } from "./codeUsageWalk";
import { checkRepository, hardenedGitArgs, hardenedGitEnv, type RepositoryCheck } from "./gitSafety";
import type { UsageScope } from "./codeUsageScope";

export type UsageKind = "manifest" | "lock" | "import" | "infra";

export interface UsageLine {
  /** Workspace-relative, forward slashes. */
  path: string;
  line: number;
  /** The line as found, trimmed and capped. */
  text: string;
  kind: UsageKind;
}

export interface OptionTerms {
  id: string;
  title: string;
  /** Package-like names (lowercase) that mean this option in code: "moment", "date-fns", "postgresql". */
  terms: string[];
}

export interface OptionUsage {
  id: string;
  title: string;
  terms: string[];
  /** Distinct files with at least one usage line. */
  files: number;
  /** Files per kind (a file counts under the kind of its first usage line). */
  byKind: Record<UsageKind, number>;
  /** Up to MAX_EXAMPLES lines, manifests first, then imports, infrastructure and lock files; by path and line. */
  examples: UsageLine[];
}

export interface CodeUsageReport {
  status: "ok" | "empty" | "failed" | "skipped";
  reason?: string;
  /** The time budget cut the search: counts are lower bounds. */
  truncated?: boolean;
  options: OptionUsage[];
  /** Files that matched but were not counted, with why (at most MAX_SKIPPED listed; `skippedTotal` counts all). */
  skipped: { path: string; reason: string }[];
  skippedTotal: number;
  ms: number;
}

export interface CodeUsageOptions {
  signal?: AbortSignal;
  /** Wall-clock budget for the search (default CODE_USAGE_BUDGET_MS). */
  budgetMs?: number;
  /** Folders (workspace-relative) never searched: the receipts folder holds the question's own words. */
  excludeDirs?: string[];
  /** Lock files larger than this are skipped with a reason (default MAX_LOCK_BYTES). */
  maxLockBytes?: number;
  /** The caller's own check of `repo` (the pipeline checks it once per turn): saves running git rev-parse again. */
  repoCheck?: RepositoryCheck;
  /**
   * The untracked and ignored tracked files in scope, listed ahead of the count (./codeUsageScope.ts): when they
   * allow, git searches the tracked files without walking the work tree, with the same result.
   */
  scope?: Promise<UsageScope | undefined>;
  /** The walk's budgets outside git (defaults in codeUsageWalk.ts). */
  walk?: Partial<WalkBudget>;
  /** Discovery's ignore globs, which the walk outside git honours too (default: DEFAULT_CONFIG.ignoreGlobs). */
  ignoreGlobs?: string[];
}

export const CODE_USAGE_BUDGET_MS = 3000;
export const MAX_LOCK_BYTES = 8 * 1024 * 1024;
export const MAX_EXAMPLES = 3;
const MAX_SKIPPED = 20;
/** A matching line longer than this is a minified bundle or generated data, and its file is skipped. */
const MAX_LINE_CHARS = 1000;
/** Lines of one file examined before the file's verdict is final (a lock file can match thousands of times). */
const MAX_LINES_PER_FILE = 200;
const MAX_TERMS = 40;

const MANIFESTS = new Set([
  "package.json", "deno.json", "pom.xml", "build.gradle", "build.gradle.kts", "settings.gradle", "settings.gradle.kts", "libs.versions.toml",
  "go.mod", "cargo.toml", "requirements.txt", "pyproject.toml", "setup.py", "setup.cfg", "pipfile", "environment.yml",
  "composer.json", "gemfile", "packages.config", "directory.packages.props", "directory.build.props",
]);
const LOCKS = new Set([
  "package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml", "bun.lock", "go.sum", "cargo.lock", "poetry.lock",
  "pipfile.lock", "uv.lock", "composer.lock", "gemfile.lock", "packages.lock.json", "gradle.lockfile", ".terraform.lock.hcl",
]);
const SOURCE_EXTENSIONS = [
  "ts", "tsx", "mts", "cts", "js", "jsx", "mjs", "cjs", "vue", "svelte", "py", "java", "kt", "kts", "scala", "groovy", "go", "rs",
  "rb", "php", "cs", "fs", "swift", "c", "cc", "cpp", "h", "hpp", "m", "mm", "ex", "exs", "erl", "clj", "dart", "lua", "r", "jl",
  "css", "scss", "less",
];
const SOURCE_EXT = new Set(SOURCE_EXTENSIONS);

/**
 * The files searched, as git glob pathspecs: a 100k-file repository's prose and data are never read. They define the
 * scope exactly (inUsageScope); git is handed the plain-pathspec equivalents (usagePathspecs), which match a superset
 * ("*" also crosses "/") but cost git half the time of glob magic, and the few extra paths are dropped here.
 */
const SCOPE_GLOBS = [
  ...[...MANIFESTS, ...LOCKS].flatMap((n) => [`:(glob,icase)${n}`, `:(glob,icase)**/${n}`]),
  ":(glob,icase)**/requirements*.txt", ":(glob)**/*.gemspec", ":(glob)**/*.csproj", ":(glob)**/*.fsproj", ":(glob)**/*.vbproj",
  ":(glob)**/Dockerfile", ":(glob)**/Dockerfile.*", ":(glob)**/*.dockerfile", ":(glob)**/Containerfile",
  ":(glob)**/docker-compose*.yml", ":(glob)**/docker-compose*.yaml", ":(glob)**/compose.yml", ":(glob)**/compose.yaml",
  ":(glob)**/*.tf", ":(glob)**/*.tf.json", ":(glob)**/*.hcl",
  ":(glob).github/workflows/*.yml", ":(glob).github/workflows/*.yaml", ":(glob).gitlab-ci.yml", ":(glob)**/Jenkinsfile",
  ":(glob).circleci/config.yml", ":(glob)azure-pipelines.yml", ":(glob)bitbucket-pipelines.yml", ":(glob).travis.yml",
  ...SOURCE_EXTENSIONS.map((e) => `:(glob)**/*.${e}`),
];

function globToRegExpSource(glob: string): string {
  return glob
    .split(/(\*\*\/|\*)/)
    .map((part) => (part === "**/" ? "(?:.*/)?" : part === "*" ? "[^/]*" : part.replace(/[.+?^${}()|[\]\\]/g, "\\$&")))
    .join("");
}

function scopeMatcher(specs: string[]): (path: string) => boolean {
  const parse = (spec: string) => /^:\(([^)]*)\)(.*)$/.exec(spec)!;
  const sources = (icase: boolean) => specs.map(parse).filter((m) => m[1].split(",").includes("icase") === icase).map((m) => globToRegExpSource(m[2]));
  const exact = new RegExp(`^(?:${sources(false).join("|")})$`);
  const folded = new RegExp(`^(?:${sources(true).join("|")})$`, "i");
  return (path) => exact.test(path) || folded.test(path);
}

/**
 * Plain pathspecs that match at least what each glob matches: "**\/x" becomes "x" and "*\/x", and "**\/*.ts" just
 * "*.ts" (a plain "*" crosses folders). Each pathspec costs git a match per file, so there are as few as possible.
 */
function plainPathspecs(specs: string[]): string[] {
  const out = specs.flatMap((spec) => {
    const [, magic, pattern] = /^:\(([^)]*)\)(.*)$/.exec(spec)!;
    const prefix = magic.split(",").includes("icase") ? ":(icase)" : "";
    if (!pattern.startsWith("**/")) return [`${prefix}${pattern}`];
    const rest = pattern.slice(3);
    return rest.startsWith("*") ? [`${prefix}${rest}`] : [`${prefix}${rest}`, `${prefix}*/${rest}`];
  });
  return [...new Set(out)];
}

/** Whether a workspace-relative path is in the count's scope: a manifest, lock, infrastructure or source file by name. */
export const inUsageScope = scopeMatcher(SCOPE_GLOBS);
const LOCK_GLOBS = [...LOCKS].flatMap((n) => [`:(glob,icase)${n}`, `:(glob,icase)**/${n}`]);
const isLockPath = scopeMatcher(LOCK_GLOBS);
/** The pathspecs git is given (grep, status): a superset of the scope, cheap for git to match. */
export const usagePathspecs = plainPathspecs(SCOPE_GLOBS);
const LOCK_PATHSPECS = plainPathspecs(LOCK_GLOBS);

/** The pathspecs that keep the given folders (workspace-relative) out of git's search. */
export function excludePathspecs(dirs: string[]): string[] {
  return dirs.filter(Boolean).map((d) => `:(exclude,glob)${d.replace(/\/+$/, "")}/**`);
}

/** Folders whose files are someone else's code or build output: never a use by this codebase. */
const VENDORED_DIR = /(?:^|\/)(?:node_modules|vendor|vendors|third[_-]?party|bower_components|jspm_packages|\.yarn|Pods|Carthage|external|deps)\//i;
const GENERATED = /(?:^|\/)(?:dist|build|out|target|coverage|\.next|\.nuxt|generated|__generated__|gen)\/|\.(?:pb|pb\.gw|gen|generated|g)\.\w+$|_pb2(?:_grpc)?\.py$|\.d\.ts$/i;
const MINIFIED = /[.-]min\.(?:js|css|mjs)$|\.bundle\.js$/i;

function basename(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1).toLowerCase();
}

/** What a file is to the usage count, or why it does not count. */
export function classifyUsageFile(path: string): { kind: "source" | "manifest" | "lock" | "infra" } | { skip: string } {
  if (VENDORED_DIR.test(path)) return { skip: "vendored folder" };
  if (MINIFIED.test(path)) return { skip: "minified bundle" };
  const name = basename(path);
  if (LOCKS.has(name)) return { kind: "lock" };
  if (MANIFESTS.has(name) || /^requirements.*\.txt$/.test(name) || /\.(?:gemspec|csproj|fsproj|vbproj)$/.test(name)) return { kind: "manifest" };
  if (
    /^(?:dockerfile(?:\..+)?|.+\.dockerfile|containerfile|docker-compose.*\.ya?ml|compose\.ya?ml|jenkinsfile|\.gitlab-ci\.yml|azure-pipelines\.yml|bitbucket-pipelines\.yml|\.travis\.yml)$/.test(name) ||
    /\.(?:tf|tf\.json|hcl)$/.test(name) ||
    /^\.github\/workflows\/[^/]+\.ya?ml$/.test(path) ||
    path === ".circleci/config.yml"
  ) {
    return { kind: "infra" };
  }
  if (GENERATED.test(path)) return { skip: "generated code" };
  const dot = name.lastIndexOf(".");
  if (dot > 0 && SOURCE_EXT.has(name.slice(dot + 1))) return { kind: "source" };
  return { skip: "not a manifest, source or infrastructure file" };
}

/**
 * Whether a source line brings a module in: ES/TS import and export-from, require(), dynamic import(), Python
 * import/from, Java/Kotlin/Scala/Go/Swift/Dart import, C# using, Rust use/extern crate, PHP use, Ruby require,
 * C/C++ #include, CSS @import / @use. Anchored at the line start: linear on a capped line.
 */
const IMPORT_LINE =
  /^\s*(?:import\b|\}\s*from\s+["'`]|export\s[^;]{0,200}?\bfrom\b|from\s+[\w.]+\s+import\b|using\s+(?:static\s+)?[\w.]+\s*;|use\s+[\w\\:{]|extern\s+crate\b|require(?:_relative)?\b|#\s*include\b|@(?:import|use)\b|(?:const|let|var)\s[^=]{0,120}=\s*(?:await\s+)?(?:require|import)\s*\()|\brequire\s*\(\s*["'`]|\bimport\s*\(\s*["'`]/;

/** A Go import block's inner line: an optional alias and a quoted path, alone on the line. */
const GO_BLOCK_IMPORT = /^\s*(?:[\w.]+\s+)?"[^"\s]{1,300}"\s*(?:\/\/.{0,300})?$/;

export function isImportLine(line: string, path = ""): boolean {
  const capped = line.slice(0, MAX_LINE_CHARS);
  return IMPORT_LINE.test(capped) || (path.endsWith(".go") && GO_BLOCK_IMPORT.test(capped));
}

/** Characters that continue a package name: a term inside "moment-timezone" or "my_moment" is another name. */
const NAME_CHAR = /[A-Za-z0-9_-]/;

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The term occurs in the line as a whole package-like name (hyphens and underscores are part of a name). */
function termMatcher(term: string): (line: string) => boolean {
  const re = new RegExp(escapeRegExp(term), "gi");
  return (line) => {
    re.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = re.exec(line))) {
      const before = m.index > 0 ? line[m.index - 1] : "";
      const after = line[m.index + m[0].length] ?? "";
      // A trailing hyphen before a non-name character ("moment-") still ends the name; "moment-timezone" does not.
      const afterOk = !after || !NAME_CHAR.test(after) || (after === "-" && !NAME_CHAR.test(line[m.index + m[0].length + 1] ?? ""));
      if ((!before || !NAME_CHAR.test(before)) && afterOk) return true;
      if (m[0].length === 0) re.lastIndex++;
    }
    return false;
  };
}

/** Terms that can name a package: one token, at least three characters, no spaces. */
export function usableTerms(terms: string[]): string[] {
  const out = new Set<string>();
  for (const t of terms) {
    const term = t.trim().toLowerCase();
    if (term.length >= 3 && term.length <= 100 && /^[@a-z0-9][a-z0-9._/@+-]*$/.test(term) && /[a-z]/.test(term)) out.add(term);
  }
  return [...out].sort();
}

const KIND_ORDER: Record<UsageKind, number> = { manifest: 0, import: 1, infra: 2, lock: 3 };

interface FileState {
  path: string;
  fileKind: "source" | "manifest" | "lock" | "infra";
  lines: number;
  /** Option index -> the file's first usage line for it. */
  hits: Map<number, UsageLine>;
  skip?: string;
}

/**
 * Counts, for each option, the files that use it. Exact for the work tree when `truncated` is not set. Never throws
 * for a bad repository: the report's status and reason say what happened (a cancellation still rejects).
 */
export async function countCodeUsage(repo: string, options: OptionTerms[], opts: CodeUsageOptions = {}): Promise<CodeUsageReport> {
  const started = performance.now();
  // Handled at once: a listing that failed means the search with --untracked, never an unhandled rejection.
  const scope = opts.scope?.catch(() => undefined);
  const prepared = options.map((o) => ({ ...o, terms: usableTerms(o.terms) }));
  const empty = (status: CodeUsageReport["status"], reason: string): CodeUsageReport => ({
    status,
    reason,
    options: prepared.map((o) => ({ id: o.id, title: o.title, terms: o.terms, files: 0, byKind: { manifest: 0, lock: 0, import: 0, infra: 0 }, examples: [] })),
    skipped: [],
    skippedTotal: 0,
    ms: performance.now() - started,
  });
  const allTerms = [...new Set(prepared.flatMap((o) => o.terms))].sort().slice(0, MAX_TERMS);
  if (!allTerms.length) return empty("empty", "no option names a package, module or tool to look for");
  let check = opts.repoCheck;
  try {
    check ??= await checkRepository(repo, opts.signal);
  } catch (err) {
    if (opts.signal?.aborted) throw err;
    return empty("failed", err instanceof Error ? err.message : String(err));
  }

  const skippedFiles: { path: string; reason: string }[] = [];
  const excludeDirs = (opts.excludeDirs ?? []).filter(Boolean);
  const maxLockBytes = opts.maxLockBytes ?? MAX_LOCK_BYTES;
  const { files, onLine } = lineSink(prepared, allTerms);
  const lockReason = (bytes: number) => `lock file is ${(bytes / 1048576).toFixed(1)} MB (limit ${(maxLockBytes / 1048576).toFixed(0)} MB)`;

  let truncation: string | undefined;
  const budget = opts.budgetMs ?? CODE_USAGE_BUDGET_MS;
  if (check.kind !== "work-tree") {
    // Outside git: the folder walked under discovery's ignore rules, with count and size budgets (deterministic)
    // and the same wall-clock budget git's search has.
    const walked = await walkUsageFiles(repo, {
      deadline: started + budget,
      budgetMs: budget,
      terms: allTerms,
      excludeDirs,
      ...(opts.ignoreGlobs ? { ignoreGlobs: opts.ignoreGlobs } : {}),
      maxLockBytes,
      isLock: isLockPath,
      inScope: inUsageScope,
      budget: opts.walk,
      signal: opts.signal,
      onLine,
      lockReason,
    });
    skippedFiles.push(...walked.skipped);
    truncation = walked.truncated;
  } else {
    const excludes = excludePathspecs(excludeDirs);
    // One budget for the whole count: the lock-file listing spends it too.
    const left = () => Math.max(0, budget - (performance.now() - started));
    const listed = await scope;
    for (const lock of await largeLockFiles(repo, maxLockBytes, left(), opts.signal, listed?.locks)) {
      skippedFiles.push({ path: lock.path, reason: lockReason(lock.bytes) });
      excludes.push(`:(exclude,literal)${lock.path}`);
    }
    const untracked = untrackedSearchArgs(listed);
    const args = [
      "grep", "-z", "-n", "-I", "-i", "-F", "-w", ...untracked.flags, "--no-color", "--full-name",
      ...allTerms.flatMap((t) => ["-e", t]),
      "--", ...usagePathspecs, ...excludes, ...untracked.excludes,
    ];
    const run = await runGrep(repo, args, left(), onLine, opts.signal);
    if (run.error) return { ...empty("failed", `git grep failed: ${run.error}`), skipped: skippedFiles.slice(0, MAX_SKIPPED), skippedTotal: skippedFiles.length };
    if (run.truncated) truncation = `cut at the ${budget} ms budget: counts are lower bounds`;
  }

  const usage = tally(prepared, files, skippedFiles);
  skippedFiles.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const total = usage.reduce((n, u) => n + u.files, 0);
  const reasons: string[] = [];
  if (truncation) reasons.push(truncation);
  if (skippedFiles.length) reasons.push(`${skippedFiles.length} file${skippedFiles.length > 1 ? "s" : ""} skipped (${summariseReasons(skippedFiles)})`);
  if (!total) reasons.unshift("no manifest, import or infrastructure file uses any option");
  return {
    status: total ? "ok" : "empty",
    ...(reasons.length ? { reason: reasons.join("; ") } : {}),
    ...(truncation ? { truncated: true } : {}),
    options: usage,
    skipped: skippedFiles.slice(0, MAX_SKIPPED),
    skippedTotal: skippedFiles.length,
    ms: performance.now() - started,
  };
}

export interface CodeStateOptions {
  excludeDirs?: string[];
  ignoreGlobs?: string[];
  repoCheck?: RepositoryCheck;
  walk?: Partial<WalkBudget>;
  signal?: AbortSignal;
}

/** The given check, else a fresh one; undefined when it cannot be taken (a cancellation still rejects). */
export async function repositoryCheckOrNothing(repo: string, given: RepositoryCheck | undefined, signal?: AbortSignal): Promise<RepositoryCheck | undefined> {
  if (given) return given;
  try {
    return await checkRepository(repo, signal);
  } catch (err) {
    if (signal?.aborted) throw err;
    return undefined;
  }
}

/**
 * A fingerprint of the code the count reads: the path, size and mtime of every file in scope — in a git work tree
 * the tracked and the untracked, not-ignored files as `git ls-files` lists them, outside git every file the walk
 * visits. The count reads the work tree, so this moves with every edit, new or deleted file and checkout it would
 * see, and with nothing else (prose, the receipts folder). No file is read: `git status` would hash changed files
 * through the repository's clean filters, which run programs (see gitSafety.ts), so it is not used. Undefined when it
 * cannot be taken (then nothing is cached on it).
 */
export async function codeUsageState(repo: string, opts: CodeStateOptions = {}): Promise<string | undefined> {
  const excludeDirs = (opts.excludeDirs ?? []).filter(Boolean);
  const check = await repositoryCheckOrNothing(repo, opts.repoCheck, opts.signal);
  if (!check) return undefined;
  if (check.kind !== "work-tree") {
    return walkState(repo, { excludeDirs, ...(opts.ignoreGlobs ? { ignoreGlobs: opts.ignoreGlobs } : {}), inScope: inUsageScope, budget: opts.walk, signal: opts.signal });
  }
  const out: string[] = [];
  // No pathspec but the exclusions: matching ~150 pathspecs against every file costs git more than listing them all.
  const args = ["ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", ".", ...excludePathspecs(excludeDirs)];
  const run = await runGit(repo, args, STATE_BUDGET_MS, (chunk) => out.push(chunk), opts.signal);
  if (run.error || run.truncated) return undefined;
  const paths = [...new Set(out.join("").split("\0").filter((p) => p && inUsageScope(p)))].sort();
  const h = createHash("sha256").update("git-ls-files\n");
  for (let i = 0; i < paths.length; i++) {
    if (i % 1024 === 1023) {
      await new Promise((r) => setImmediate(r));
      if (opts.signal?.aborted) throw opts.signal.reason ?? new Error("aborted");
    }
    try {
      const st = lstatSync(join(repo, paths[i]));
      h.update(`${paths[i]}\0${st.size}\0${Math.floor(st.mtimeMs)}\n`);
    } catch {
      h.update(`${paths[i]}\0gone\n`);
    }
  }
  return `git:${h.digest("hex").slice(0, 40)}`;
}

/** Past this many ignored tracked files the exclusions would cost git more per file than the walk they save. */
export const MAX_IGNORED_TRACKED = 64;

/**
 * The git grep arguments that stand for `--untracked` under a listed scope: none plus one exclusion per ignored
 * tracked file when the plain search reads the very same files, else `--untracked` itself.
 */
export function untrackedSearchArgs(scope: UsageScope | undefined): { flags: string[]; excludes: string[] } {
  if (!scope || scope.untracked.length || scope.ignoredTracked.length > MAX_IGNORED_TRACKED) return { flags: ["--untracked"], excludes: [] };
  // `top`: the path is the repository's full name, whatever folder git runs in.
  return { flags: [], excludes: scope.ignoredTracked.map((p) => `:(exclude,top,literal)${p}`) };
}

/** A state that takes longer than this is not taken: the turn is simply not served from the cache. */
const STATE_BUDGET_MS = 10_000;

/** Where matching lines go (from git grep or the walk): each file classified once, its first usage line per option kept. */
function lineSink(prepared: OptionTerms[], allTerms: string[]): { files: Map<string, FileState>; onLine: (path: string, lineNo: number, text: string) => void } {
  const matchers = prepared.map((o) => o.terms.filter((t) => allTerms.includes(t)).map(termMatcher));
  const files = new Map<string, FileState>();
  const onLine = (path: string, lineNo: number, text: string) => {
    // git was given plain pathspecs, a superset of the scope: what lies outside it was never asked for.
    if (!inUsageScope(path)) return;
    let f = files.get(path);
    if (!f) {
      const c = classifyUsageFile(path);
      f = { path, fileKind: "kind" in c ? c.kind : "source", lines: 0, hits: new Map(), ...("skip" in c ? { skip: c.skip } : {}) };
      files.set(path, f);
    }
    if (f.skip || f.lines >= MAX_LINES_PER_FILE) return;
    f.lines++;
    if (text.length > MAX_LINE_CHARS) {
      // The length as read can depend on how the output was chunked: the reason names the limit, not the length.
      f.skip = `minified or generated (a line over ${MAX_LINE_CHARS} characters)`;
      return;
    }
    if (f.fileKind === "source" && !isImportLine(text, path)) return;
    const kind: UsageKind = f.fileKind === "source" ? "import" : f.fileKind;
    matchers.forEach((ms, i) => {
      if (!f!.hits.has(i) && ms.some((m) => m(text))) f!.hits.set(i, { path, line: lineNo, text: text.trim().slice(0, 200), kind });
    });
  };
  return { files, onLine };
}

/** Each option's files, kinds and examples from the files git grep returned; skipped files join `skippedFiles`. */
function tally(prepared: OptionTerms[], files: Map<string, FileState>, skippedFiles: { path: string; reason: string }[]): OptionUsage[] {
  const usage: OptionUsage[] = prepared.map((o) => ({ id: o.id, title: o.title, terms: o.terms, files: 0, byKind: { manifest: 0, lock: 0, import: 0, infra: 0 }, examples: [] }));
  const perOption: UsageLine[][] = prepared.map(() => []);
  for (const f of [...files.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    if (f.skip) {
      skippedFiles.push({ path: f.path, reason: f.skip });
      continue;
    }
    for (const [i, hit] of f.hits) {
      usage[i].files++;
      usage[i].byKind[hit.kind]++;
      perOption[i].push(hit);
    }
  }
  perOption.forEach((hits, i) => {
    usage[i].examples = hits.sort((a, b) => KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0) || a.line - b.line).slice(0, MAX_EXAMPLES);
  });
  return usage;
}

function summariseReasons(skipped: { reason: string }[]): string {
  const counts = new Map<string, number>();
  for (const s of skipped) {
    const key = s.reason.replace(/\s*\(.*$/, "").replace(/ is [\d.]+ MB.*$/, " too large");
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([r, n]) => `${n} ${r}`).join(", ");
}

/**
 * The tracked lock files by name (git ls-files, paths as git gives them from `repo`), sorted; undefined when the
 * listing failed or ran out of time (the count then skips no lock file).
 */
export async function listTrackedLocks(repo: string, budgetMs: number, signal?: AbortSignal): Promise<string[] | undefined> {
  // The listing depends on the index alone: while its checksum is the same (gitStateCache.ts), so is the listing.
  const key = `${resolve(repo)}\0tracked-locks`;
  const check = cachedCheck<{ toplevel: string; gitDir: string }>(resolve(repo));
  const known = check ? cachedListing<string[]>(key, check.gitDir) : undefined;
  if (known) {
    if (signal?.aborted) throw signal.reason ?? new Error("aborted");
    return [...known];
  }
  const proof = check ? indexProof(check.gitDir) : undefined;
  const out: string[] = [];
  const run = await runGit(repo, ["ls-files", "-z", "--cached", "--", ...LOCK_PATHSPECS], budgetMs, (chunk) => out.push(chunk), signal);
  if (run.error || run.truncated) return undefined;
  const locks = [...new Set(out.join("").split("\0").filter((p) => p && isLockPath(p)))].sort();
  keepListing(key, proof, [...locks]);
  return locks;
}

/**
 * Tracked lock files over the limit, found by name (git ls-files; no work-tree walk) and measured with stat: git
 * grep never reads them. An untracked lock file is rare, and the line-length cap still bounds what it costs.
 */
async function largeLockFiles(repo: string, limit: number, budgetMs: number, signal?: AbortSignal, listed?: string[]): Promise<{ path: string; bytes: number }[]> {
  const paths = listed ?? (await listTrackedLocks(repo, budgetMs, signal));
  if (!paths) return [];
  const big: { path: string; bytes: number }[] = [];
  for (const path of paths) {
    try {
      const bytes = statSync(join(repo, path)).size;
      if (bytes > limit) big.push({ path, bytes });
    } catch {
      // a deleted tracked file: git grep skips it too
    }
  }
  return big;
}

export interface RunResult {
  truncated: boolean;
  error?: string;
}

/**
 * git grep's -z output, record by record: the path up to a NUL, the line number up to the next NUL, the text up to a
 * newline. With -z a path is given raw, so it may hold a newline itself: the stream is read as fields, never split
 * at newlines first (a file named "src/zz<newline>src/db.ts" must not credit its line to src/db.ts). Exit 1 is "no
 * match", not a failure.
 */
function runGrep(repo: string, args: string[], budgetMs: number, onLine: (path: string, line: number, text: string) => void, signal?: AbortSignal): Promise<RunResult> {
  const records = grepRecords(onLine);
  return runGit(repo, args, budgetMs, records.take, signal, records.end);
}

/** Longest path or line-number field kept; a longer one is no field git writes, and its record is dropped. */
const MAX_GREP_FIELD = 16 * 1024;

/** A reader of git grep -z records from chunks of its output (each character looked at once). */
export function grepRecords(onLine: (path: string, line: number, text: string) => void): { take: (chunk: string) => void; end: () => void } {
  let field = 0;
  let path = "";
  let lineNo = "";
  let text = "";
  const emit = () => {
    const n = Number(lineNo);
    if (path && path.length <= MAX_GREP_FIELD && /^\d+$/.test(lineNo) && Number.isInteger(n) && n > 0) onLine(path, n, text);
    field = 0;
    path = lineNo = text = "";
  };
  const take = (chunk: string) => {
    let i = 0;
    while (i < chunk.length) {
      if (field < 2) {
        const z = chunk.indexOf("\0", i);
        const piece = chunk.slice(i, z < 0 ? chunk.length : z);
        if (field === 0) path = path.length > MAX_GREP_FIELD ? path : path + piece;
        else lineNo = lineNo.length > MAX_GREP_FIELD ? lineNo : lineNo + piece;
        if (z < 0) return;
        field++;
        i = z + 1;
        continue;
      }
      const nl = chunk.indexOf("\n", i);
      const stop = nl < 0 ? chunk.length : nl;
      // A line with no end in sight (a one-line bundle) is kept only as far as it can matter: it is over MAX_LINE_CHARS.
      if (text.length < 4 * MAX_LINE_CHARS) text += chunk.slice(i, Math.min(stop, i + 4 * MAX_LINE_CHARS - text.length));
      if (nl < 0) return;
      emit();
      i = nl + 1;
    }
  };
  // The last record may lack its newline.
  const end = () => {
    if (field === 2) emit();
  };
  return { take, end };
}

/** One hardened git process under a wall-clock budget; past it the process is killed and the result is truncated. */
export function runGit(repo: string, args: string[], budgetMs: number, onChunk: (chunk: string) => void, signal?: AbortSignal, onEnd?: () => void): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason ?? new Error("aborted"));
    const child = spawn("git", [...hardenedGitArgs(), "-c", "core.quotepath=false", "-c", "grep.threads=2", ...args], {
      cwd: repo,
      env: { ...hardenedGitEnv(), LC_ALL: "C" },
      stdio: ["ignore", "pipe", "pipe"],
      shell: false,
      windowsHide: true,
    });
    let truncated = false;
    let stderr = "";
    let spawnError: string | undefined;
    const timer = setTimeout(() => {
      truncated = true;
      child.kill("SIGTERM");
    }, budgetMs);
    const onAbort = () => child.kill("SIGTERM");
    signal?.addEventListener("abort", onAbort, { once: true });
    child.stdout.setEncoding("utf8");
    child.stderr.setEncoding("utf8");
    child.stdout.on("data", (c: string) => {
      if (!truncated) onChunk(c);
    });
    child.stderr.on("data", (c: string) => {
      if (stderr.length < 2000) stderr += c;
    });
    child.on("error", (err) => {
      spawnError = err.message;
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      if (signal?.aborted) return reject(signal.reason ?? new Error("aborted"));
      if (!truncated) onEnd?.();
      if (spawnError) return resolve({ truncated, error: spawnError });
      if (!truncated && code !== 0 && code !== 1) return resolve({ truncated, error: stderr.split("\n").find((l) => l.trim())?.slice(0, 200) ?? `exit ${code}` });
      resolve({ truncated });
    });
  });
}

/** "moment: 41 files (package.json:12, src/a.ts:3, …)". */
export function describeUsage(u: OptionUsage, label = u.terms[0] ?? u.title): string {
  if (!u.files) return `${label}: no files`;
  const cites = u.examples.map((e) => `${e.path}:${e.line}`);
  return `${label}: ${u.files} file${u.files === 1 ? "" : "s"} (${cites.join(", ")}${u.files > u.examples.length ? ", …" : ""})`;
}
