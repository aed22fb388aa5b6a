// A record that chose how something is written — a language ("implemented as shell scripts that use standard Unix
// tools"), a document format ("record decisions in Markdown") — is gone around by a new file written another way,
// added beside the files that follow the choice. Only there: a Python script in a folder of Python tools, or a new
// language in a folder that already mixes languages, goes around nothing. The formats are a fixed table of well-known
// languages and document formats, never a project's choice.
import { closeSync, openSync, readdirSync, readSync, realpathSync } from "node:fs";
import { join, posix, resolve } from "node:path";
import { isInside } from "../contain";
import { languageOfFile } from "./newFiles";

export interface Format {
  family: "code" | "document";
  name: string;
}

/** A file beside a new one: its path (repository-relative) and, for a file without an extension, its first line. */
export interface FolderFile {
  path: string;
  firstLine: string;
}

const DOCUMENT_OF_EXTENSION: Record<string, string> = {
  md: "Markdown",
  markdown: "Markdown",
  rst: "reStructuredText",
  adoc: "AsciiDoc",
  asciidoc: "AsciiDoc",
  textile: "Textile",
};

/** What an extensionless script is written in, by its `#!` line. */
const SHEBANG: [RegExp, string][] = [
  [/\bpython[0-9.]*\b/, "python"],
  [/\b(?:ba|z|k|da)?sh\b/, "shell"],
  [/\b(?:node|deno|bun)\b/, "javascript"],
  [/\bruby\b/, "ruby"],
  [/\bperl\b/, "perl"],
  [/\bphp\b/, "php"],
];

/** The format a file is written in, by its extension or (without one) its `#!` line; undefined when unknown. */
export function formatOfFile(path: string, firstLine = ""): Format | undefined {
  const base = posix.basename(path);
  const ext = /\.([a-z0-9]{1,10})$/i.exec(base)?.[1]?.toLowerCase();
  if (ext && DOCUMENT_OF_EXTENSION[ext]) return { family: "document", name: DOCUMENT_OF_EXTENSION[ext] };
  if (ext === "sh" || ext === "bash") return { family: "code", name: "shell" };
  const language = languageOfFile(path);
  if (language) return { family: "code", name: language[0] };
  if (!ext && firstLine.startsWith("#!")) for (const [re, name] of SHEBANG) if (re.test(firstLine)) return { family: "code", name };
  return undefined;
}

/** Languages and formats by the words a decision names them with ("shell scripts", "Markdown"). */
const NAMED: [string, Format][] = [
  [String.raw`shell[- ]?scripts?|bash`, { family: "code", name: "shell" }],
  ["python", { family: "code", name: "python" }],
  ["typescript", { family: "code", name: "typescript" }],
  ["javascript", { family: "code", name: "javascript" }],
  ["ruby", { family: "code", name: "ruby" }],
  ["kotlin", { family: "code", name: "kotlin" }],
  ["java", { family: "code", name: "java" }],
  ["golang", { family: "code", name: "golang" }],
  ["rust", { family: "code", name: "rust" }],
  ["perl", { family: "code", name: "perl" }],
  ["markdown", { family: "document", name: "Markdown" }],
  [String.raw`restructured ?text`, { family: "document", name: "reStructuredText" }],
  ["asciidoc", { family: "document", name: "AsciiDoc" }],
];

const MEDIUM_WORDS = String.raw`(?:\s+(?:format|language|scripts?|files?|code))?`;
/**
 * Only a name that is the medium itself: it opens with the language ("shell scripts that use standard Unix tools",
 * "Kotlin") or says what is written in it ("record decisions in Markdown format"). "Java Native Access", "Deep Java
 * Library", "a Markdown parser" and "Python and JS projects" name a library or a scope, not how to write.
 */
const NAMED_AS_MEDIUM = NAMED.map(([words, format]) => ({
  format,
  head: new RegExp(String.raw`^\s*(?:${words})${MEDIUM_WORDS}\s*(?:$|[,.;:(]|\s+(?:that|which|using|with|--)(?:\s|$))`, "i"),
  medium: new RegExp(String.raw`\b(?:in|as)\s+(?:${words})${MEDIUM_WORDS}\s*(?:$|[,.;:)])`, "i"),
}));

/** The one language or document format a chosen thing's name is; undefined for none or several. */
export function formatNamed(name: string): Format | undefined {
  const hits = NAMED_AS_MEDIUM.filter((n) => n.head.test(name) || n.medium.test(name));
  return hits.length === 1 ? hits[0].format : undefined;
}

/** Files of the chosen format a folder must hold before a new file beside them is read as going around it. */
const MIN_FOLLOWING = 2;
/** The share of the folder's files of that family that must follow the choice. */
const FOLLOWING_SHARE = 0.8;

/**
 * Whether a new file written as `mine` goes around the choice of `chosen`, given the other files in its folder:
 * the same family (code or documents), another format, a folder whose files of that family mostly follow the
 * choice, and none yet written as the new one is.
 */
export function goesAround(mine: Format, chosen: Format, siblings: readonly FolderFile[]): { following: number } | undefined {
  if (mine.family !== chosen.family || mine.name === chosen.name) return undefined;
  const formats = siblings.flatMap((s) => {
    const f = formatOfFile(s.path, s.firstLine);
    return f && f.family === chosen.family ? [f.name] : [];
  });
  if (formats.includes(mine.name)) return undefined;
  const following = formats.filter((f) => f === chosen.name).length;
  return following >= MIN_FOLLOWING && following >= FOLLOWING_SHARE * formats.length ? { following } : undefined;
}

/** How many entries of a folder are looked at, and how much of an extensionless file's start is read. */
const MAX_FOLDER_ENTRIES = 500;
const FIRST_LINE_BYTES = 200;

/**
 * The files of a repository folder (never a symlink, never outside the repository), each extensionless one with its
 * first line, memoised per folder for one check. `tracked` adds the folder's files git tracks but the work tree does
 * not hold (a sparse checkout): a template kept out of the checkout still shows what the folder is written in. Those
 * are known by their extension only; no first line is read for them.
 */
export function folderFilesOf(root: string, tracked: readonly string[] = []): (dir: string) => FolderFile[] {
  const memo = new Map<string, FolderFile[]>();
  let realRoot: string | undefined;
  return (dir) => {
    const hit = memo.get(dir);
    if (hit) return hit;
    const out: FolderFile[] = [];
    try {
      realRoot ??= realpathSync(root);
      const abs = realpathSync(resolve(root, dir || "."));
      if (isInside(realRoot, abs)) {
        for (const e of readdirSync(abs, { withFileTypes: true }).slice(0, MAX_FOLDER_ENTRIES)) {
          if (!e.isFile()) continue;
          const path = dir ? `${dir}/${e.name}` : e.name;
          out.push({ path, firstLine: e.name.includes(".") ? "" : firstLineOf(join(abs, e.name)) });
        }
      }
    } catch {
      // A folder that cannot be read has no files to compare with: nothing is found, nothing fails.
    }
    const seen = new Set(out.map((f) => f.path));
    for (const path of tracked) {
      if (out.length >= MAX_FOLDER_ENTRIES) break;
      if (posix.dirname(path) === (dir || ".") && !seen.has(path) && path.slice(path.lastIndexOf("/") + 1).includes(".")) out.push({ path, firstLine: "" });
    }
    memo.set(dir, out);
    return out;
  };
}

function firstLineOf(file: string): string {
  let fd: number | undefined;
  try {
    fd = openSync(file, "r");
    const buf = Buffer.alloc(FIRST_LINE_BYTES);
    const n = readSync(fd, buf, 0, FIRST_LINE_BYTES, 0);
    return buf.subarray(0, n).toString("utf8").split("\n")[0];
  } catch {
    return "";
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
