// A coding guide that an instruction file or contribution guide points to ("Familiarize yourself with our [coding
// style guidelines](docs/contributing/style-guide.md)") holds the project's rules too. Its prose explains and
// shows both sides ("Avoid 🔥 … Better 🤓"), so only its rule headings are read: "Never Use Panics", "Avoid Prints",
// "Avoid Using the `reflect` or `unsafe` Packages". A heading's plain plural of one word names a construct that code
// writes in the singular (`panic(…)`, `print(…)`); a section that says tests may do it ("For testing code, it's
// fine to use reflect") keeps the rule out of tests. A body sentence that sets a practice outright ("never prefix wrap
// messages with `failed …`") is read as written.
import { posix, resolve } from "node:path";
import { resolveInside } from "../contain";
import { readRegularFile } from "../receipts/fsutil";
import { mentionedPaths, normaliseText } from "../internal/discovery";
import type { ArtifactFile } from "../types";
import { setsMessagePrefix } from "./practices";

/** A guide's file name: a style guide, coding conventions or guidelines ("coding-style-guide.md", "CONVENTIONS.md"). */
const GUIDE_NAME = /(?:^|[-_.])(?:style|coding|conventions?|guidelines?)(?:[-_.]|$)/i;
/** A heading that forbids: "Never Use X", "Avoid X", "Don't X", "No X". */
const RULE_HEADING = /^(#{2,6})\s+((?:never|avoid|don't|do not|no)\b[^;]*?)\s*[.!]?\s*$/i;
/** A section that lets tests do it: "For testing code, it's fine to use reflect", "allowed in tests". */
const TESTS_ALLOWED = /\b(?:test(?:s|ing)?(?: code)?\b[^.]{0,40}\b(?:fine|ok|okay|allowed|acceptable)|(?:fine|ok|okay|allowed|acceptable)\b[^.]{0,20}\bin tests?)\b/i;
const MAX_GUIDE_BYTES = 512 * 1024;

/** The guides the instruction files and contribution guides point to (repository paths), in the order they are named. */
export function linkedGuidePaths(files: ArtifactFile[]): string[] {
  const known = new Set(files.map((f) => f.path));
  const out: string[] = [];
  for (const f of files) {
    if (f.source_type !== "agent-instructions" && f.source_type !== "contributing") continue;
    for (const p of mentionedPaths(f.text, f.path)) {
      if (known.has(p) || !/\.(?:md|markdown)$/i.test(p) || !GUIDE_NAME.test(posix.basename(p).replace(/\.[^.]+$/, ""))) continue;
      known.add(p);
      out.push(p);
    }
  }
  return out;
}

/**
 * The guides at these paths, read now (a guide is not among the files discovery fingerprints, so it is never taken
 * from a cache): a regular file inside the repository once symlinks are resolved, of a bounded size, opened without
 * blocking; anything else is skipped.
 */
export async function readGuides(root: string, paths: string[]): Promise<ArtifactFile[]> {
  const out: ArtifactFile[] = [];
  for (const p of paths) {
    const real = await resolveInside(root, p);
    if (!real) continue;
    const read = await readRegularFile(real, { maxBytes: MAX_GUIDE_BYTES }).catch(() => undefined);
    if (!read) continue;
    const text = normaliseText(read.toString("utf8"));
    out.push({ path: p, abs: resolve(root, ...p.split("/")), bytes: text.length, hash: "", source_type: "contributing", text });
  }
  return out;
}

/** A heading's words as the rule says them: "Never Use Panics" is "Never use `panic`." */
function headingRule(heading: string): string {
  return heading.replace(/^((?:never|avoid|don't|do not|no)(?:\s+(?:use|using|add|call|calling))?\s+)([A-Z][a-z]{2,30}s)$/i, (_m, lead: string, plural: string) => {
    const one = plural.toLowerCase().replace(/s$/, "");
    return `${lead}\`${one}\``;
  });
}

/**
 * A guide's text as rules: each rule heading becomes a sentence on its own line, everything else is blanked (line
 * numbers kept), and the headings whose section lets tests do it are returned by line.
 */
export function guideRuleText(text: string): { text: string; testsAllowed: Set<number> } {
  const lines = text.split("\n");
  const out = lines.map(() => "");
  const testsAllowed = new Set<number>();
  let fence = false;
  for (let i = 0; i < lines.length; i++) {
    if (/^\s*(?:`{3,}|~{3,})/.test(lines[i])) fence = !fence;
    if (fence) continue;
    // A body sentence that sets a practice outright ("never prefix wrap messages with `failed …`") is a rule as written.
    if (!/^#/.test(lines[i]) && setsMessagePrefix(lines[i])) {
      out[i] = lines[i];
      continue;
    }
    const m = RULE_HEADING.exec(lines[i]);
    if (!m) continue;
    out[i] = `${headingRule(m[2].trim())}.`;
    let j = i + 1;
    while (j < lines.length && !/^#{1,6}\s/.test(lines[j])) j++;
    if (TESTS_ALLOWED.test(lines.slice(i + 1, j).join(" "))) testsAllowed.add(i + 1);
  }
  return { text: out.join("\n"), testsAllowed };
}
