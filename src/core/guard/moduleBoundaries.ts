// A rule that keeps modules apart by a kind of module ("Never depend on another module's `:internal` or
// `:internal-*` modules"; "Only `app-common` and `app-main` may depend on `:internal` modules"): a build file that
// adds a dependency on another module's module of that kind breaks it. Gradle names project modules as
// `project(":feature:mail:internal")` or the type-safe accessor `projects.feature.mail.internal`; a module's own kinds
// (its `:internal` beside its `:api`) and the modules the rule lets depend on them are no crossing.
import { posix } from "node:path";

export interface ModuleBoundary {
  /** The module kinds kept private: `internal`, or `internal-` for `:internal-*`. */
  kinds: string[];
  /** Top-level modules the rules let depend on them anyway. */
  exempt: string[];
}

const NO_DEPENDING = /\b(?:never|do\s+not|don['’]t|must\s+not|should\s+not|shall\s+not|may\s+not)\s+depend\s+on\s+(?:an)?other\s+modules?['’]?s?\s+((?:`:[\w-]+(?:-\*)?`(?:\s*,\s*|\s+or\s+|\s+and\s+|\s*,\s*or\s+)?){1,4})\s*modules?\b/i;
const ONLY_MAY = /\bOnly\s+((?:`[\w-]+`(?:\s*,\s*|\s+and\s+|\s*,\s*and\s+|\s+or\s+)?){1,8})\s*(?:may|can|are\s+allowed\s+to)\s+depend\s+on\s+`:([\w-]+)`/gi;

/** The module boundary a rule's text sets, with the exemptions the instruction file grants for those kinds. */
export function boundaryOf(rule: string, fileText: string): ModuleBoundary | undefined {
  const m = NO_DEPENDING.exec(rule.slice(0, 400));
  if (!m) return undefined;
  const kinds = [...m[1].matchAll(/`:([\w-]+?)(-\*)?`/g)].map((k) => (k[2] ? `${k[1]}-` : k[1]));
  if (!kinds.length) return undefined;
  const exempt: string[] = [];
  for (const o of fileText.slice(0, 100_000).matchAll(ONLY_MAY)) {
    if (kinds.includes(o[2])) exempt.push(...[...o[1].matchAll(/`([\w-]+)`/g)].map((e) => e[1]));
  }
  return { kinds, exempt: [...new Set(exempt)].sort() };
}

/** The project module a Gradle dependency line names, as its path segments (`project(":a:b")`, `projects.a.b`). */
export function projectDependencyOf(text: string): string[] | undefined {
  const quoted = /\bproject\(\s*(?:path\s*[:=]\s*)?["'](:[\w:.-]{1,200})["']/.exec(text);
  if (quoted) return quoted[1].split(":").filter(Boolean);
  const accessor = /\bprojects\.([\w.]{1,200})/.exec(text);
  return accessor ? accessor[1].split(".").filter(Boolean) : undefined;
}

const isKind = (segment: string, kinds: readonly string[]) => kinds.some((k) => (k.endsWith("-") ? segment.startsWith(k) : segment === k));
/** Gradle's accessors camel-case a kebab name (`internal-imap` → `internalImap`); a path writes it as is. */
const kebab = (segment: string) => segment.replace(/([a-z0-9])([A-Z])/g, "$1-$2").toLowerCase();

/**
 * Whether a dependency from the module whose build file is `buildFile` on `dependency` crosses the boundary: the
 * dependency is a module of a private kind, and of another module than the depending one's own.
 */
export function crossesBoundary(buildFile: string, dependency: string[], boundary: ModuleBoundary): boolean {
  const segments = dependency.map(kebab);
  const last = segments.at(-1);
  if (!last || !isKind(last, boundary.kinds)) return false;
  const depending = posix.dirname(buildFile).split("/").filter((s) => s && s !== ".");
  if (depending.length && boundary.exempt.includes(depending[0])) return false;
  // The module the private kind belongs to: the dependency's path without its kind segment.
  const owner = segments.slice(0, -1).join("/");
  const own = depending.slice(0, -1).join("/");
  const here = depending.join("/");
  return owner !== own && here !== owner && !here.startsWith(`${owner}/`);
}

/** Whether a file is a Gradle build file, where module dependencies are declared. */
export function isGradleBuildFile(path: string): boolean {
  return /(^|\/)build\.gradle(\.kts)?$/.test(path);
}
