// What a changed line is: a dependency in a manifest (npm, Maven/Gradle, Go, Cargo, pip/pyproject, Composer, Bundler,
// NuGet, Cabal), an import, an infrastructure line that names an image or provider, code, config, a comment or prose. The
// kind sets how directly the change names a thing, and so a finding's severity. Line patterns only (a manifest's
// hunk rarely shows its section header), each anchored and bounded so it runs in linear time.
import { posix } from "node:path";

export type FileKind = "manifest" | "lock" | "doc" | "infra" | "config" | "code";
export type LineKind = "dependency" | "import" | "infra" | "code" | "config" | "comment" | "doc";

const LOCK_FILES = new Set([
  "package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml", "bun.lockb", "cargo.lock", "go.sum", "poetry.lock", "pipfile.lock",
  "gemfile.lock", "composer.lock", "packages.lock.json", "uv.lock", "pdm.lock", "gradle.lockfile",
]);
const MANIFEST_NAMES = new Set(["package.json", "pom.xml", "build.gradle", "build.gradle.kts", "go.mod", "cargo.toml", "pyproject.toml", "setup.py", "setup.cfg", "pipfile", "composer.json", "gemfile", "packages.config", "directory.packages.props", "libs.versions.toml", ".pre-commit-config.yaml", ".pre-commit-config.yml"]);
const DOC_EXT = /\.(md|mdx|markdown|rst|txt|adoc|asciidoc|org|rdoc)$/i;
const CONFIG_EXT = /\.(ya?ml|toml|ini|cfg|conf|properties|json|jsonc|json5|xml|env|plist|editorconfig)$/i;

export function fileKind(path: string): FileKind {
  const base = posix.basename(path).toLowerCase();
  if (LOCK_FILES.has(base)) return "lock";
  if (MANIFEST_NAMES.has(base) || /^requirements.*\.(txt|in)$/.test(base) || /(^|\/)requirements\/[^/]+\.(txt|in)$/i.test(path) || /\.(csproj|fsproj|vbproj|gemspec|cabal)$/.test(base)) return "manifest";
  if (base === "dockerfile" || base.startsWith("dockerfile.") || base.endsWith(".dockerfile") || /^(docker-)?compose[\w.-]*\.ya?ml$/.test(base) || /\.(tf|tfvars|hcl)$/.test(base) || base === "containerfile") return "infra";
  if (/(^|\/)\.github\/workflows\//.test(path) || /(^|\/)(k8s|kubernetes|helm|charts|deploy|manifests)\//i.test(path)) return CONFIG_EXT.test(base) ? "infra" : "config";
  // A page rendered through a template ("guide.html.md.erb", "index.md.j2") is still documentation.
  if (DOC_EXT.test(base) || DOC_EXT.test(base.replace(/\.(erb|j2|jinja2?|tmpl|tpl|liquid|njk|hbs|mustache)$/, ""))) return "doc";
  if (CONFIG_EXT.test(base) || base.startsWith(".env")) return "config";
  // A tool's settings written as a script (`.eslintrc.js`, `jest.config.ts`): its strings are settings, not mentions.
  if (/^\.[\w-]+rc\.[cm]?[jt]s$|\.config\.[cm]?[jt]s$/.test(base)) return "config";
  return "code";
}

export interface LineReading {
  kind: LineKind;
  /** The dependency or module the line names, when it names one (an import's module, a manifest's package). */
  name?: string;
}

const NOT_DEPENDENCY_KEYS = new Set([
  "name", "version", "description", "main", "module", "types", "typings", "license", "author", "homepage", "private", "type", "node", "npm", "yarn",
  "pnpm", "vscode", "python", "edition", "rust-version", "readme", "requires-python", "keywords", "repository", "url", "publisher", "icon",
  "displayname", "packagemanager", "build-backend", "authors", "include", "exclude", "features", "default", "path", "git", "branch", "tag", "rev",
]);

/** The package a manifest line adds or removes, or undefined. */
export function dependencyOf(path: string, text: string): string | undefined {
  const base = posix.basename(path).toLowerCase();
  const line = text.slice(0, 500);
  // Cut first, then trimmed: the patterns below that read it start and end at a token, not at a run of spaces.
  const trimmed = line.trim();
  let m: RegExpExecArray | null;
  if (base === "package.json" || base === "composer.json") {
    m = /^\s*"(@?[\w.~-]+(?:\/[\w.~-]+)?)"\s*:\s*"([^"]{0,200})"/.exec(line);
    if (m && !NOT_DEPENDENCY_KEYS.has(m[1].toLowerCase()) && /^(?:[\^~<>=*]|\d|v\d|latest|next|workspace:|file:|link:|npm:|git|https?:|github:|dev-|@)/i.test(m[2] || "*")) return m[1];
    return undefined;
  }
  if (base === "go.mod") {
    m = /^\s*(?:require\s+)?([\w.-]+\.[a-z]{2,}\/[\w./~-]+)\s+v\d/.exec(line);
    return m?.[1];
  }
  if (/^requirements.*\.(txt|in)$/.test(base) || /\.(txt|in)$/.test(base)) {
    // One `\s*` between tokens (the optional extras carry their own): two in a row around an optional group would
    // split a run of spaces every way before failing, O(n²) on a line of spaces.
    m = /^([A-Za-z0-9][\w.-]*)\s*(?:\[[\w,\s.-]*\]\s*)?(?:[=<>!~;@]|$)/.exec(trimmed);
    return m ? m[1] : undefined;
  }
  if (base === "pyproject.toml" || base === "setup.py" || base === "setup.cfg" || base === "pipfile") {
    m = /^["']([A-Za-z0-9][\w.-]*)\s*(?:\[[\w,\s.-]*\]\s*)?(?:[=<>!~;@][^"']*)?["']\s*,?$/.exec(trimmed);
    if (m) return m[1];
    m = /^([A-Za-z0-9][\w.-]*)\s*=\s*(?:"[^"]*"|'[^']*'|\{)/.exec(trimmed);
    return m && !NOT_DEPENDENCY_KEYS.has(m[1].toLowerCase()) ? m[1] : undefined;
  }
  if (base === "cargo.toml") {
    m = /^\s*([A-Za-z0-9][\w-]*)\s*=\s*(?:"[^"]*"|\{)/.exec(line);
    return m && !NOT_DEPENDENCY_KEYS.has(m[1].toLowerCase()) ? m[1] : undefined;
  }
  if (base === "libs.versions.toml") {
    m = /module\s*=\s*"([\w.-]+):([\w.-]+)"/.exec(line) ?? /^\s*[\w-]+\s*=\s*"([\w.-]+):([\w.-]+):[^"]*"/.exec(line);
    return m ? `${m[1]}:${m[2]}` : undefined;
  }
  if (base === "build.gradle" || base === "build.gradle.kts") {
    m = /^\s*(?:implementation|api|compile|compileOnly|runtimeOnly|testImplementation|testRuntimeOnly|annotationProcessor|kapt|ksp|classpath|developmentOnly)\s*\(?\s*(?:platform\s*\(\s*)?["']([\w.-]+):([\w.-]+)/.exec(line);
    if (m) return `${m[1]}:${m[2]}`;
    // A version catalog's accessor: implementation(libs.truth), testImplementation(libs.hilt.android).
    m = /^\s*(?:implementation|api|compileOnly|runtimeOnly|testImplementation|testRuntimeOnly|androidTestImplementation|debugImplementation|annotationProcessor|kapt|ksp|coreLibraryDesugaring)\s*\(\s*(?:platform\s*\(\s*)?libs\.((?:[A-Za-z][\w]{0,60}\.){0,6}[A-Za-z][\w]{0,60})\s*\)/.exec(line);
    if (m) return m[1];
    // The Java-module dependencies plugin names modules: requires("org.assertj.core").
    m = /^\s*(?:requires|requiresStatic|requiresTransitive|requiresRuntime|testRequires)\s*\(\s*["']([\w.-]+)["']\s*\)/.exec(line);
    return m?.[1];
  }
  if (base === "pom.xml") {
    m = /<artifactId>\s*([\w.-]+)\s*<\/artifactId>/.exec(line);
    return m?.[1];
  }
  if (base === "gemfile" || base.endsWith(".gemspec")) {
    m = /^\s*(?:gem|(?:s|spec)\.add_(?:runtime_|development_)?dependency)\s*\(?\s*["']([\w.-]+)["']/.exec(line);
    return m?.[1];
  }
  if (base === ".pre-commit-config.yaml" || base === ".pre-commit-config.yml") {
    // A hook's repository is a tool the project runs on every commit: `- repo: https://github.com/psf/black` is black.
    m = /^-?\s*repo:\s*(?:https?:\/\/|git@)[\w.-]+[/:][\w.-]+\/([\w.-]+?)(?:\.git)?\s*$/.exec(trimmed);
    return m?.[1];
  }
  if (base.endsWith(".cabal")) {
    // A build-depends entry: "  build-depends: base", "    , io-sim:strict-stm >=1.0" or "    aeson >=2,". Only a
    // field's own value or a list entry with its comma: an indented word alone may be an extension or a module. The
    // package is what is depended on; a sub-library after its colon is one of that package's parts.
    m =
      /^\s*build-depends:\s*([A-Za-z][\w-]*(?::[\w-]+)?)\s*(?:[<>=^][^,]*)?,?\s*$/i.exec(line) ??
      /^\s*,\s*([A-Za-z][\w-]*(?::[\w-]+)?)\s*(?:[<>=^][^,]*)?$/.exec(line) ??
      /^\s+([a-z][\w-]*(?::[\w-]+)?)\s*(?:[<>=^][^,]*)?,\s*$/.exec(line);
    return m?.[1].split(":")[0];
  }
  if (/\.(csproj|fsproj|vbproj)$/.test(base) || base === "packages.config" || base === "directory.packages.props") {
    m = /<(?:PackageReference|PackageVersion|package)\s+(?:Include|Update|id)\s*=\s*"([\w.-]+)"/i.exec(line);
    return m?.[1];
  }
  return undefined;
}

const C_LIKE = /\.(js|jsx|mjs|cjs|ts|tsx|mts|cts|java|kt|kts|scala|go|rs|c|h|cc|cpp|hpp|cs|swift|php|dart|groovy|gradle|vue|svelte|css|scss|less)$/i;
const HASH_LIKE = /\.(py|rb|sh|bash|zsh|pl|r|ya?ml|toml|tf|tfvars|hcl|cfg|conf|ini|properties|env|mk)$|(^|\/)(dockerfile|makefile|gemfile|pipfile|containerfile)$/i;
const DASH_LIKE = /\.(sql|lua|hs|elm)$/i;

/** Where a line's comment starts (its index), or -1: by the file's comment syntax; a URL's "//" is no comment. */
export function commentStart(path: string, text: string): number {
  const t = text.trimStart();
  const lead = text.length - t.length;
  if (/^<!--/.test(t)) return lead;
  if (C_LIKE.test(path)) {
    if (/^(?:\/\/|\/\*|\*(?:\s|\/|$))/.test(t)) return lead;
    if (/\.php$/i.test(path) && t.startsWith("#")) return lead;
    const i = text.search(/(?<![:"'\\/])\/\/|\/\*/);
    return i;
  }
  if (HASH_LIKE.test(path)) {
    if (t.startsWith("#")) return lead;
    if (/\.tf$|\.hcl$/i.test(path) && t.startsWith("//")) return lead;
    return text.search(/\s#(?![{!])/);
  }
  if (DASH_LIKE.test(path)) return t.startsWith("--") ? lead : text.search(/\s--\s/);
  return -1;
}

/** The module an import line names (JS/TS, Python, Go, Java/Kotlin/Scala, C#, Rust, Ruby, PHP, Haskell, C/C++), or undefined. */
export function importOf(path: string, text: string): string | undefined {
  const line = text.slice(0, 500);
  let m: RegExpExecArray | null;
  if (/\.(js|jsx|mjs|cjs|ts|tsx|mts|cts|vue|svelte)$/i.test(path)) {
    m = /^\s*(?:import|export)\b[^'"]{0,300}?\bfrom\s*["']([^"']{1,200})["']/.exec(line) ?? /^\s*import\s*["']([^"']{1,200})["']/.exec(line) ?? /\b(?:require|import)\s*\(\s*["']([^"']{1,200})["']\s*\)/.exec(line);
    return m?.[1];
  }
  if (/\.py$/i.test(path)) {
    m = /^\s*from\s+([\w.]+)\s+import\b/.exec(line) ?? /^\s*import\s+([\w.]+)/.exec(line);
    return m?.[1];
  }
  if (/\.go$/i.test(path)) {
    m = /^\s*(?:import\s+)?(?:[\w.]+\s+)?"([\w.-]+(?:\/[\w.~-]+)+)"\s*$/.exec(line);
    return m?.[1];
  }
  if (/(^|\/)module-info\.java$/i.test(path)) {
    // A Java module's dependencies: requires [transitive|static] other.module;
    m = /^\s*requires\s+(?:(?:transitive|static)\s+){0,2}([\w.]+)\s*;/.exec(line);
    if (m) return m[1];
  }
  if (/\.(java|kt|kts|scala|groovy)$/i.test(path)) {
    m = /^\s*import\s+(?:static\s+)?([\w.]+)/.exec(line);
    return m?.[1];
  }
  if (/\.cs$/i.test(path)) {
    m = /^\s*(?:global\s+)?using\s+(?:static\s+)?([\w.]+)\s*;/.exec(line);
    return m?.[1];
  }
  if (/\.rs$/i.test(path)) {
    m = /^\s*(?:pub\s+)?use\s+([\w]+)::/.exec(line) ?? /^\s*extern\s+crate\s+(\w+)/.exec(line);
    return m?.[1];
  }
  if (/\.rb$/i.test(path)) {
    m = /^\s*require(?:_relative)?\s*\(?\s*["']([\w./-]+)["']/.exec(line);
    return m?.[1];
  }
  if (/\.php$/i.test(path)) {
    m = /^\s*use\s+([\w\\]+)/.exec(line);
    return m?.[1];
  }
  if (/\.(hs|lhs)$/i.test(path)) {
    m = /^\s*import\s+(?:safe\s+)?(?:qualified\s+)?(?:"[\w-]+"\s+)?([A-Z][\w']*(?:\.[A-Z][\w']*)*)/.exec(line);
    return m?.[1];
  }
  if (/\.(c|h|cc|cpp|hpp|cxx|m|mm)$/i.test(path)) {
    m = /^\s*#\s*include\s*[<"]([\w./-]+)[>"]/.exec(line);
    return m?.[1];
  }
  return undefined;
}

/** An infrastructure line that names what runs: a base image, a compose image, a Terraform provider or module source. */
function infraName(text: string): string | undefined {
  const line = text.slice(0, 500);
  const m =
    /^\s*FROM\s+(?:--platform=\S+\s+)?([\w./:@-]+)/i.exec(line) ??
    /^\s*-?\s*image:\s*["']?([\w./:@-]+)/.exec(line) ??
    /^\s*provider\s+"([\w-]+)"/.exec(line) ??
    /^\s*source\s*=\s*"([\w./:-]+)"/.exec(line) ??
    /^\s*(?:resource|data)\s+"([\w-]+)"/.exec(line) ??
    /^\s*-?\s*uses:\s*([\w./-]+)/.exec(line) ??
    // A Helm chart a Terraform helm_release or a helmfile/Argo CD entry installs.
    /^\s*-?\s*chart\s*[=:]\s*["']?([\w./@-]+)/.exec(line);
  return m?.[1];
}

/** An sbt dependency ("org" %% "name" % version) in a build definition (.sbt, project/*.scala): "org:name". */
export function sbtDependencyOf(path: string, text: string): string | undefined {
  if (!/\.(sbt|scala)$/i.test(path)) return undefined;
  const m = /"([\w.-]{1,120})"\s{0,4}%{1,3}\s{0,4}"([\w.-]{1,120})"\s{0,4}%/.exec(text.slice(0, 500));
  return m ? `${m[1]}:${m[2]}` : undefined;
}

/** What a changed line of a file is, for matching. */
export function readLine(path: string, kind: FileKind, text: string): LineReading {
  if (kind === "doc") return { kind: "doc" };
  if (kind === "manifest") {
    const dep = dependencyOf(path, text);
    if (dep) return { kind: "dependency", name: dep };
  }
  if (kind === "infra") {
    const name = infraName(text);
    if (name) return { kind: "infra", name };
  }
  const c = commentStart(path, text);
  if (c >= 0 && !text.slice(0, c).trim()) return { kind: "comment" };
  if (kind === "code") {
    const sbt = sbtDependencyOf(path, text);
    if (sbt) return { kind: "dependency", name: sbt };
    const mod = importOf(path, text);
    if (mod) return { kind: "import", name: mod };
    return { kind: "code" };
  }
  return { kind: "config" };
}
