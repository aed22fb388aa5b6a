// A rule that every new file of a kind begins with a licence header ("All new `.go` files must begin with the header
// from `cmd/flux/main.go` (Apache 2.0)", "Every Java source file must start with the license header"). A new file of
// that kind whose first lines carry no copyright or licence line breaks it. Which header exactly is the project's own;
// what every such header has is that line, so that is what is looked for. Only new files: an existing file's header
// is not the change's doing. A rule that names no kind of file is not read (guessing every file would be noise).
import { extensionsOf } from "./newFiles";

/** "… must begin with the header …", "… should start with a licence header". */
const BEGINS_WITH_HEADER = /\b(?:must|should|shall|needs? to|has to|have to)\s+(?:always\s+)?(?:begin|start|open)\s+with\s+(?:the|a|an|our|this)\s+(?:[\w.()`'-]+\s+){0,3}?header\b/i;
/** The header is a licence or copyright one: a rule about a module's doc-comment header is another matter. */
const LICENCE_WORDS = /\b(?:licen[cs]e[sd]?|copyright|spdx|apache|mit|gpl|bsd|mpl)\b/i;
/** What marks a licence header in a file's first lines. */
const HEADER_LINE = /copyright|\u00a9|\(c\)\s*\d{4}|licen[cs]ed\b|spdx-license-identifier|license[,:]?\s+version/i;
/** How many of a new file's first lines may hold the header (a shebang or a package line may come first). */
export const HEADER_LINES = 20;

/** How a rule writes a language before "files" that the language table (newFiles.ts) keys otherwise. */
const LANGUAGE_SPELLINGS: Record<string, string> = { go: "golang", "c#": "csharp" };

export interface HeaderRule {
  /** The extensions of the files it covers, lower case, without the dot. */
  extensions: string[];
}

/** The header rule a rule's text states, if it states one and names the kind of file it covers. */
export function headerRuleOf(text: string): HeaderRule | undefined {
  const said = BEGINS_WITH_HEADER.exec(text);
  if (!said || !LICENCE_WORDS.test(text)) return undefined;
  const subject = text.slice(0, said.index);
  // "`.go` files", "`*.ts` files": the extension as written; else the language named before "files".
  const written = [...subject.matchAll(/`\*?\.([A-Za-z0-9]{1,6})`/g)].map((m) => m[1].toLowerCase());
  if (written.length) return { extensions: [...new Set(written)] };
  const files = /\b([\w#+ ]{1,30}?)\s+(?:source\s+)?files?\b/i.exec(subject);
  const words = files ? files[1].toLowerCase().split(/\s+/) : [];
  const named = [...new Set(words.flatMap((w) => extensionsOf(LANGUAGE_SPELLINGS[w] ?? w)))];
  return named.length ? { extensions: named } : undefined;
}

/** Whether a new file's first lines carry a licence header. */
export function hasHeader(firstLines: readonly string[]): boolean {
  return firstLines.slice(0, HEADER_LINES).some((l) => HEADER_LINE.test(l.slice(0, 400)));
}

/** Whether a header rule covers this path. */
export function coversPath(rule: HeaderRule, path: string): boolean {
  const ext = /\.([A-Za-z0-9]{1,6})$/.exec(path)?.[1]?.toLowerCase();
  return !!ext && rule.extensions.includes(ext);
}

/**
 * "All contributions to this project will be released under the CC0 dedication", "Contributions are licensed under
 * the Apache License 2.0": the project takes contributions under an open licence or into the public domain.
 */
const OPEN_CONTRIBUTIONS = /\bcontributions?\b[^.]{0,80}?\b(?:(?:will\s+be|are|is|get)\s+)?(?:released|licen[cs]ed|dedicated|made\s+available)\s+(?:to\s+the\s+public\s+domain|under\b)/i;
/** A file header that keeps the rights to itself, which no open licence or public-domain dedication allows. */
const RESERVED_RIGHTS = /\ball\s+rights\s+reserved\b|\bproprietary\s+and\s+confidential\b|\bconfidential\s+and\s+proprietary\b|\bnot\s+for\s+(?:re)?distribution\b/i;

/** Whether a rule says the project takes contributions under an open licence or into the public domain. */
export function takesOpenContributions(text: string): boolean {
  return OPEN_CONTRIBUTIONS.test(text);
}

/** The first of a new file's first lines that reserves its rights, if one does. */
export function reservedRightsLine(firstLines: readonly { line: number; text: string }[]): { line: number; text: string } | undefined {
  return firstLines.filter((l) => l.line <= HEADER_LINES).find((l) => RESERVED_RIGHTS.test(l.text.slice(0, 400)) && !/\bno\s+rights\s+reserved\b/i.test(l.text));
}
