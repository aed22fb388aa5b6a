// Where a changed line sits, when that changes what naming a decided thing means there: inside a list that keeps the
// thing out (a linter's deny list, an ignore list of a dependency bot, a build's exclusions), the line enforces the
// decision rather than going against it; inside a test fixture, it is data a test reads, not the product's setting.
import type { ChangedLine } from "./diff";

/** Folders of data that tests read: fixtures, golden files, recorded payloads, mocks. */
const FIXTURE_DIR = /(?:^|\/)(?:testdata|test[-_]data|fixtures?|__fixtures__|__mocks__|__snapshots__|golden)\//i;

/** Whether a path is test data (a fixture), not code or configuration the product runs with. */
export function isFixturePath(path: string): boolean {
  return FIXTURE_DIR.test(path);
}

/** Words of a key or a setting that keep what it lists out. */
const KEEPS_OUT = /\b(?:deny|denied|denies|denylist|blocklist|blacklist|ban|bans|banned|forbid|forbids|forbidden|restrict|restricts|restricted|disallow|disallows|disallowed|prohibit|prohibits|prohibited|exclude|excludes|excluded|exclusion|exclusions|ignore|ignores|ignored)\b/i;

/** How many lines above a changed line its enclosing keys are looked for. */
const PARENT_WINDOW = 8;

/** "ignoreDeps" → "ignore Deps", "bannedDependencies" → "banned Dependencies": a key's words. */
function words(text: string): string {
  return text.slice(0, 300).replace(/([a-z])([A-Z])/g, "$1 $2").replace(/[_]/g, " ");
}

function indentOf(text: string): number {
  return text.length - text.trimStart().length;
}

/**
 * Whether an added line names `found` inside a list that keeps it out: the line itself says so outside the name
 * (`"ignoreDeps": ["cypress"]`, `'no-restricted-imports': [..., 'moment']`), unless the line is a dependency (a
 * package may be called "…-ban"), or one of the lines it sits under does (`deny:` above `- pkg: …logrus`,
 * `<exclusion>` above an `<artifactId>`). Only the added lines are read, the nearest PARENT_WINDOW of them above it
 * in one run, each taken when it is indented less than every line between it and this one.
 */
export function keptOutAt(added: readonly ChangedLine[], line: ChangedLine, found: string, dependency: boolean): boolean {
  if (!dependency) {
    // The line's own key keeps out what it lists after it (`"ignoreDeps": ["cypress"]`); a keep-out word after the
    // name counts only within the name's own element, before the next comma (`{ use: 'ts-loader', exclude: … }` is
    // a loader and an exclusion of something else).
    const text = line.text.slice(0, 300);
    const at = text.toLowerCase().indexOf(found.toLowerCase());
    const before = at >= 0 ? text.slice(0, at) : text;
    const after = at >= 0 ? text.slice(at + found.length).split(/[,;]/)[0] : "";
    if (KEEPS_OUT.test(words(before)) || KEEPS_OUT.test(words(after))) return true;
  }
  const at = added.indexOf(line);
  let indent = indentOf(line.text);
  for (let i = at - 1, prev = line.line; i >= 0 && at - i <= PARENT_WINDOW && indent > 0; i--) {
    const above = added[i];
    if (above.line !== prev - 1) break;
    prev = above.line;
    if (!above.text.trim()) continue;
    const n = indentOf(above.text);
    if (n >= indent) continue;
    if (KEEPS_OUT.test(words(above.text))) return true;
    indent = n;
  }
  return false;
}
