// Which git pathspecs each of the guard's diffs reads (change.ts). A change is read in two diffs that share the
// 20,000-line budget, the first one first:
//  - "priority": dependency manifests, and files a .gitattributes marks `-diff` or `binary` (read with --text, so an
//    attribute cannot hide a file; a real binary is still told by its NUL bytes). A 25k-line source or data change
//    can no longer use up the budget before package.json is read.
//  - "rest": everything else, as git shows it (a real binary is "Binary files … differ", cheaply).
// Lock files are in neither: they are skipped anyway ("its manifest is checked instead"), and a 50 MB one cost the
// whole budget, or git's whole 30 s. A name-only listing of the change, run first, names the manifests and lock files
// (literal pathspecs are cheap, globs over a large tree are not) and says which files the diffs left out (lock files,
// binaries by name, files past the budget), so the report names every changed file.
import { posix } from "node:path";
import { fileKind } from "./lines";

/** Lock files (lines.ts LOCK_FILES), matched case-insensitively in any folder. */
const LOCK_NAMES = [
  "package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml", "bun.lockb", "cargo.lock", "go.sum", "poetry.lock", "pipfile.lock",
  "gemfile.lock", "composer.lock", "packages.lock.json", "uv.lock", "pdm.lock", "gradle.lockfile",
];

/** Dependency manifests (lines.ts MANIFEST_NAMES and its requirements/project-file patterns), as globs under a folder. */
const MANIFEST_GLOBS = [
  "package.json", "pom.xml", "build.gradle", "build.gradle.kts", "go.mod", "cargo.toml", "pyproject.toml", "setup.py", "setup.cfg", "pipfile",
  "composer.json", "gemfile", "packages.config", "directory.packages.props", "libs.versions.toml", "requirements*.txt", "requirements*.in",
  "requirements/*.txt", "requirements/*.in", "*.csproj", "*.fsproj", "*.vbproj", "*.gemspec", ".pre-commit-config.yaml", ".pre-commit-config.yml",
];

/**
 * Formats whose bytes are binary whatever a .gitattributes says: a file marked `binary` with such a name is not read
 * as text (a repository that marks `*.png binary` would otherwise spend the budget on image bytes).
 */
const BINARY_EXTENSIONS = [
  "png", "jpg", "jpeg", "gif", "bmp", "ico", "icns", "webp", "avif", "heic", "tif", "tiff", "psd", "pdf", "zip", "gz", "tgz", "bz2", "xz", "zst", "7z",
  "rar", "jar", "war", "ear", "aar", "whl", "class", "dll", "exe", "so", "dylib", "o", "a", "lib", "obj", "pdb", "wasm", "pyc", "woff", "woff2",
  "ttf", "otf", "eot", "mp3", "mp4", "m4a", "wav", "ogg", "flac", "avi", "mov", "mkv", "webm", "sqlite", "db",
];
const BINARY_EXT = new RegExp(`\\.(${BINARY_EXTENSIONS.join("|")})$`, "i");

/** Pathspec magic that makes git read "-diff"/"binary" as an attribute, never as a path. */
const ATTR_BINARY = "attr:-diff";

/** A literal path as a glob pattern (git's glob magic reads `*?[\` specially). */
function globEscape(p: string): string {
  return p.replace(/[*?[\]\\]/g, "\\$&");
}

export function isBinaryByName(path: string): boolean {
  return BINARY_EXT.test(posix.basename(path));
}

export interface DiffPathspecs {
  priority: string[];
  rest: string[];
  /** Whether a path the priority diff read lies inside the --files scope (manifest globs ignore case). */
  inScope: (path: string) => boolean;
}

/** Past this many manifests or lock files in one change, globs name them instead of one literal path each. */
const MAX_LITERALS = 500;

/** The listing's manifests as includes, or, for a very large change, a glob per manifest name in each scope path. */
function manifestIncludes(manifests: string[], scope: string[] | undefined): string[] {
  if (manifests.length <= MAX_LITERALS) return manifests.map((p) => `:(literal)${p}`);
  if (!scope) return MANIFEST_GLOBS.map((g) => `:(glob,icase)**/${g}`);
  return scope.flatMap((p) => [...(fileKind(p) === "manifest" ? [`:(literal)${p}`] : []), ...MANIFEST_GLOBS.map((g) => `:(glob,icase)${globEscape(p)}/**/${g}`)]);
}

/**
 * The pathspecs of the guard's two diffs, from the name-only listing of the change (`listing`) and the `--files` scope
 * (repository-relative paths; undefined: the whole change). Literal paths where the listing names them: a glob
 * tried against every path of a large work tree costs more than the diff itself.
 */
export function diffPathspecs(scope: string[] | undefined, listing: string[]): DiffPathspecs {
  const manifests = listing.filter((p) => fileKind(p) === "manifest");
  const locks = listing.filter((p) => fileKind(p) === "lock");
  // In the priority diff these are tried only against the few paths its includes matched: globs are cheap there.
  const excludeLocks = LOCK_NAMES.map((n) => `:(exclude,glob,icase)**/${n}`);
  const excludeBinaryNames = BINARY_EXTENSIONS.map((e) => `:(exclude,glob,icase)**/*.${e}`);
  const attrMarked = scope ? scope.map((p) => `:(${ATTR_BINARY},literal)${p}`) : [`:(${ATTR_BINARY})`];
  const restExcludes = [
    ...(locks.length <= MAX_LITERALS ? locks.map((p) => `:(exclude,literal)${p}`) : excludeLocks),
    ...(manifests.length <= MAX_LITERALS ? manifests.map((p) => `:(exclude,literal)${p}`) : MANIFEST_GLOBS.map((g) => `:(exclude,glob,icase)**/${g}`)),
    `:(exclude,${ATTR_BINARY})`,
  ];
  return {
    priority: [...manifestIncludes(manifests, scope), ...attrMarked, ...excludeLocks, ...excludeBinaryNames],
    rest: [...(scope ? scope.map((p) => `:(literal)${p}`) : ["."]), ...restExcludes],
    inScope: scope ? (path) => scope.some((p) => path === p || path.startsWith(`${p}/`)) : () => true,
  };
}

/** Every lock file name and manifest glob here is read by lines.ts the same way (a test keeps the lists in step). */
export const PATHSPEC_NAMES = { LOCK_NAMES, MANIFEST_GLOBS };
