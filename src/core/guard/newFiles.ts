// What a newly added file is by its name alone, for the guard: a source file is written in a language (a record that
// moved off `python` or Java is about new `.py` and `.java` files), and a CI configuration file belongs to one CI
// system (a record that chose GitHub Actions is bypassed by a new `Jenkinsfile`). Both are well-known file names,
// not libraries: the table names languages and CI systems, never a project's choice.
import { posix } from "node:path";
import { findName, isVendor, tokensOf, type NameKeys } from "./names";

/** A source file's language, as the words a record names it by ("node.js" is `node js`). */
const LANGUAGE_OF_EXTENSION: Record<string, string[]> = {
  py: ["python"],
  rb: ["ruby"],
  js: ["javascript", "node", "js", "nodejs"],
  mjs: ["javascript", "node", "js", "nodejs"],
  cjs: ["javascript", "node", "js", "nodejs"],
  ts: ["typescript"],
  tsx: ["typescript"],
  mts: ["typescript"],
  cts: ["typescript"],
  jsx: ["javascript", "js"],
  java: ["java"],
  kt: ["kotlin"],
  kts: ["kotlin"],
  scala: ["scala"],
  go: ["golang"],
  rs: ["rust"],
  cs: ["csharp"],
  php: ["php"],
  swift: ["swift"],
  dart: ["dart"],
  groovy: ["groovy"],
  pl: ["perl"],
  ps1: ["powershell"],
  lua: ["lua"],
  ex: ["elixir"],
  exs: ["elixir"],
  clj: ["clojure"],
  hs: ["haskell"],
};

const LANGUAGE_NAMES = new Set(Object.values(LANGUAGE_OF_EXTENSION).map((w) => w[0]));

/** The language a decided thing's name is, when it is exactly a language's name ("Java", "`python`"), else undefined. */
export function languageNamed(name: string): string | undefined {
  const bare = name.replace(/[`*_"“”]/g, "").trim().toLowerCase();
  return LANGUAGE_NAMES.has(bare) ? bare : undefined;
}

/** The source extensions of a language named by one of its words ("kotlin" → kt, kts), in the table's order. */
export function extensionsOf(word: string): string[] {
  return Object.entries(LANGUAGE_OF_EXTENSION)
    .filter(([, words]) => words.includes(word))
    .map(([ext]) => ext);
}

/** The language words of a new source file, or undefined (a config, a doc, an unknown extension). */
export function languageOfFile(path: string): string[] | undefined {
  const ext = /\.([a-z0-9]{1,6})$/i.exec(posix.basename(path))?.[1]?.toLowerCase();
  return ext ? LANGUAGE_OF_EXTENSION[ext] : undefined;
}

/** Whether a decided thing is the language those words name (a language's name, not a library that contains it). */
export function namesLanguage(words: string[], keys: NameKeys): string | undefined {
  if (keys.stems) return undefined;
  // The thing must be the language itself: all its keys among the language's words ("node.js", "Python"), so a
  // "python-dotenv" or "Java Native Access" is not a language.
  const own = keys.exact ?? keys.tokens;
  if (!own.length || !own.every((t) => words.includes(t))) return undefined;
  return findName(words, keys);
}

interface CiSystem {
  /** Its name's words, all of which a decision must name. */
  words: string[];
  config: RegExp;
}

/** CI systems and the files that configure them. */
const CI_SYSTEMS: CiSystem[] = [
  { words: ["github", "actions"], config: /(^|\/)\.github\/workflows\/[^/]+\.ya?ml$/i },
  { words: ["circleci"], config: /(^|\/)\.circleci\/config\.ya?ml$/i },
  { words: ["jenkins"], config: /(^|\/)Jenkinsfile(\.[\w-]+)?$/ },
  { words: ["gitlab"], config: /(^|\/)\.gitlab-ci\.ya?ml$/i },
  { words: ["travis"], config: /(^|\/)\.travis\.ya?ml$/i },
  { words: ["azure", "devops"], config: /(^|\/)azure-pipelines[\w.-]*\.ya?ml$/i },
  { words: ["azure", "pipelines"], config: /(^|\/)azure-pipelines[\w.-]*\.ya?ml$/i },
  { words: ["bitbucket"], config: /(^|\/)bitbucket-pipelines\.ya?ml$/i },
  { words: ["drone"], config: /(^|\/)\.drone\.ya?ml$/i },
  { words: ["buildkite"], config: /(^|\/)\.buildkite\/[^/]+\.ya?ml$/i },
  { words: ["teamcity"], config: /(^|\/)\.teamcity\//i },
  { words: ["appveyor"], config: /(^|\/)\.?appveyor\.ya?ml$/i },
  // AWS CodeBuild reads `buildspec.yml` (or a variant a project names, `buildspec-test.yml`) at the source's root.
  { words: ["codebuild"], config: /(^|\/)buildspec[\w.-]*\.ya?ml$/i },
  // Concourse reads its pipelines from wherever `fly` is pointed: a folder named for it is the convention.
  { words: ["concourse"], config: /(^|\/)concourse\/(?:[^/]+\/)*[^/]+\.ya?ml$/i },
];

/** The CI systems a file configures (one, or two names of one system). */
export function ciSystemsOfFile(path: string): string[][] {
  return CI_SYSTEMS.filter((s) => s.config.test(path)).map((s) => s.words);
}

/** The CI systems a text names with all of their words ("Travis CI", "GitHub Actions"), a vendor's word aside. */
export function ciSystemsNamedIn(text: string): string[][] {
  const words = new Set(tokensOf(text.slice(0, 100_000), 20_000));
  return CI_SYSTEMS.filter((s) => s.words.every((w) => words.has(w) || (isVendor(w) && s.words.length > 1))).map((s) => s.words);
}

/** The CI system a decided thing names with all of its words, or undefined. */
export function ciSystemNamed(keys: NameKeys): string[] | undefined {
  if (keys.stems) return undefined;
  const own = new Set([...(keys.exact ?? []), ...keys.tokens, ...(keys.compact ? [keys.compact] : [])]);
  // "Azure DevOps" keys by "devops": a vendor's word is no part of what must be named.
  return CI_SYSTEMS.find((s) => s.words.every((w) => own.has(w) || (isVendor(w) && s.words.length > 1)) || own.has(s.words.join("")))?.words;
}



/**
 * Files that package or distribute software for one system, at their conventional paths: a Debian package's
 * `debian/control`, an RPM `.spec`, Arch's `PKGBUILD`, a Homebrew formula, a Snap, a NuGet/Chocolatey `.nuspec`, a
 * MacPorts `Portfile`, a Gentoo ebuild, a GoReleaser config. A fixed table of well-known systems, never a project's.
 */
const PACKAGING_FILES: readonly RegExp[] = [
  /(^|\/)debian\/(?:control|rules|changelog|install|copyright)$/,
  /(^|\/)[\w.+-]+\.spec$/,
  /(^|\/)(?:PKGBUILD|APKBUILD|Portfile)$/,
  /(^|\/)(?:Formula|HomebrewFormula|homebrew)\/[\w.+-]+\.rb$/,
  /(^|\/)snap(?:craft)?\/snapcraft\.ya?ml$|(^|\/)snapcraft\.ya?ml$/,
  /(^|\/)[\w.+-]+\.(?:nuspec|ebuild|wxs)$/,
  /(^|\/)\.goreleaser\.ya?ml$/,
];

/** Whether a file is a packaging or distribution manifest of a well-known system. */
export function isPackagingFile(path: string): boolean {
  return PACKAGING_FILES.some((re) => re.test(path));
}
