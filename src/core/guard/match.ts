// Matches a parsed change against the in-force decisions. Deterministic: the same change and the same records give
// the same findings in the same order. A mention inside a decision (a record, an instruction file, a receipt) is
// never a finding; a line moved unchanged (removed here, added there) brings nothing new in. Each line is tried only
// against the decided things its tokens may name (thingIndex.ts), and the matching gives the event loop a turn every
// few milliseconds and stops at the check's time budget (pace.ts); a check cut so says what it left out.
import { posix } from "node:path";
import type { ChangedFile, ChangedLine, ParsedDiff } from "./diff";
import type { DecidedThing, DecisionSet, GuardDecision } from "./decisions";
import { commentStart, fileKind, readLine, type FileKind, type LineKind } from "./lines";
import { cloudProductsOf } from "./cloudProducts";
import { changeTokensOf, findName, GENERIC_PURPOSES, indexTokens, mayName, namesWhole, tokensOf, type NameKeys, type TokenIndex } from "./names";
import { pinnedVersionBypasses } from "./centralVersions";
import { isTestPath } from "./determinism";
import { isFixturePath, keptOutAt } from "./lineContext";
import { againstInstrument, identifierWords } from "./instruments";
import { crossesBoundary, isGradleBuildFile, projectDependencyOf } from "./moduleBoundaries";
import { ciSystemNamed, ciSystemsOfFile, isPackagingFile, languageOfFile, namesLanguage } from "./newFiles";
import type { Finding, FindingKind, Severity } from "./schema";
import { ThingIndex, thingEntries, type ThingEntry } from "./thingIndex";
import { CHECK_TIME_BUDGET_MS, Pacer } from "./pace";
import { coversPath, hasHeader, HEADER_LINES, reservedRightsLine } from "./fileHeaders";
import { formatNamed, formatOfFile, goesAround, type Format, type FolderFile } from "./formats";
import { shapeOf } from "./shapes";
import { heldByChosenName, onlyInDefinedKey } from "./compoundNames";

type Via = Finding["matched"]["via"];

const SEVERITY_OF: Record<Via, Severity> = { dependency: "high", import: "high", infra: "high", code: "med", config: "med", string: "low", comment: "low", doc: "low", path: "low" };
const SEVERITY_RANK: Record<Severity, number> = { high: 0, med: 1, low: 2 };
// On one line, a record's finding comes before a rule's: the record says why, and a rule often restates it.
const KIND_RANK: Record<FindingKind, number> = { "introduces-rejected-option": 0, "removes-chosen-option": 1, "breaks-rule": 2, "touches-decided-area": 3 };

const WHAT: Record<Via, string> = {
  dependency: "adds the dependency",
  import: "imports",
  infra: "runs",
  code: "uses",
  config: "configures",
  string: "mentions in a string",
  comment: "mentions in a comment",
  doc: "mentions in documentation",
  path: "changes",
};

export interface MatchOutcome {
  findings: Finding[];
  skipped: { file: string; reason: string }[];
  checkedFiles: number;
  /** Set when the time budget ran out before every file was matched: what was left out. */
  cut?: MatchCut;
}

export interface MatchCut {
  budgetMs: number;
  /** Changed files not matched at all (each is among the skipped files, with the reason). */
  unmatched: number;
  /** The file the cut fell in, and the last of its lines that was matched (0: none). */
  partial?: { file: string; line: number };
}

export interface MatchOptions {
  /** performance.now() at which the check's time is up (default: CHECK_TIME_BUDGET_MS from now). */
  deadline?: number;
  /** The budget the deadline came from, for the report. */
  budgetMs?: number;
  signal?: AbortSignal;
  /** The files beside a new one, for a choice of language or format it may go around (formats.ts). */
  folderFiles?: (dir: string) => FolderFile[];
  /** The folders of added files that the change's base already holds (undefined: unknown, all count as existing). */
  existingDirs?: Set<string>;
}

/** What the matching looks up, built once per check: the decided things by the tokens that may name them, and so on. */
interface MatchPlan {
  forbidden: ThingIndex;
  required: ThingIndex;
  /** Decisions that keep dependency versions in one place. */
  versioned: GuardDecision[];
  /** Records with an area a changed file can fall in. */
  areas: GuardDecision[];
  generated: GeneratedPlan;
  /** Rules that name an instrument (`%w`, `t.TempDir()`, a setting kept on). */
  instrumented: GuardDecision[];
  /** Rules that keep a kind of module private to its own module. */
  bounded: GuardDecision[];
  /** Rules that new files of a kind begin with a licence header. */
  headed: GuardDecision[];
  /** Rules that take contributions under an open licence or into the public domain. */
  openLicensed: GuardDecision[];
  kinds: KindPlan;
  existingDirs?: Set<string>;
  /** Chosen things that name a language or document format. */
  formats: (ThingEntry & { format: Format })[];
  /** Turned-down things written as a package's import path (`github.com/acme/kit/log`): a module may hold them. */
  packagePaths: (ThingEntry & { path: string })[];
  /** Turned-down things written as a code shape with a stand-in name (`!!someVariable`). */
  shaped: (ThingEntry & { shape: RegExp })[];
  /** Records whose title turns a behaviour off ("Disable fetch on focus"). */
  keptOff: GuardDecision[];
  /** Records whose title dropped support for versions of a runtime. */
  droppedVersions: GuardDecision[];
  pacer: Pacer;
}

/**
 * Whether a name the file's path writes is the project's own there: a file that was there before, or a new one in a
 * folder the project already had that is named for it ("mailbox/cassandra/…"), or a new file only its own name names. A folder the change creates for it
 * (`performance-tests/locust/locustfile.py`) brings the thing in with the folder.
 */
function ownPath(file: ChangedFile, found: string, existingDirs: Set<string> | undefined): boolean {
  if (!existingDirs || file.status !== "added") return true;
  const parts = file.path.split("/");
  let namedBy = false;
  for (let i = 1; i < parts.length; i++) {
    if (!pathWords(parts[i - 1]).includes(found)) continue;
    if (existingDirs.has(parts.slice(0, i).join("/"))) return true;
    namedBy = true;
  }
  // Only the file's own name says it (`src/browser/canvas.ts`): the project's naming, as before.
  return !namedBy;
}

/** Whether every word of a found name is in a string that is a call's only argument (`createCollection('a_b')`). */
function isArgument(reading: Reading, found: string): boolean {
  const args = reading.argTokens;
  return !!args && found.toLowerCase().split(/[- ]/).every((w) => args.includes(w));
}

/** A word of a whole name (`whole`) that the line writes and the file's path does not. */
function otherWordOnLine(reading: Reading, keys: NameKeys, pathTokens: ReadonlySet<string>): boolean {
  if (!keys.whole || keys.whole.length < 2) return false;
  const onLine = [...reading.tokens, ...reading.stringTokens];
  return keys.whole.some((w) => !pathTokens.has(w) && namesWhole(onLine, [w]));
}

/**
 * The words a path writes, each also without a trailing version number: `app-elasticsearch6/` is the project's
 * Elasticsearch as `app-elasticsearch/` would be.
 */
function pathWords(path: string): string[] {
  const words = tokensOf(path);
  const bare = words.map((w) => /^([a-z]{4,})\d{1,3}$/.exec(w)?.[1]).filter((w): w is string => !!w);
  return bare.length ? [...words, ...bare] : words;
}

/** Whether a folder the base already holds, on the file's path, names `found`: the project's own naming there. */
function folderAtBaseNames(file: ChangedFile, found: string, existingDirs: Set<string> | undefined): boolean {
  if (!existingDirs) return false;
  const parts = file.path.split("/");
  for (let i = 1; i < parts.length; i++) if (pathWords(parts[i - 1]).includes(found) && existingDirs.has(parts.slice(0, i).join("/"))) return true;
  return false;
}

/** A Go package's import path: a host with a dot, then at least three more segments (`github.com/acme/kit/log`). */
const PACKAGE_PATH = /^[a-z0-9-]+(?:\.[a-z0-9-]+)+(?:\/[\w.-]+){3,}$/i;

/**
 * A module required in `go.mod` whose path holds a package a decision turned down (`github.com/acme/kit` for
 * `github.com/acme/kit/log`): the change brings in what it is needed for (med: the module has other packages). Not
 * when the decision requires a package of the same module: then the module is needed anyway.
 */
function matchModuleHolding(file: ChangedFile, reading: Reading, line: ChangedLine, plan: MatchPlan, out: FindingList, hit: Set<GuardDecision>): void {
  if (!plan.packagePaths.length || reading.via !== "dependency" || !reading.name || !/(?:^|\/)go\.mod$/.test(file.path)) return;
  const module = reading.name.toLowerCase();
  for (const { d, thing, path } of plan.packagePaths) {
    if (!path.startsWith(`${module}/`) || (d.scope && !inArea(file.path, d.scope))) continue;
    if (d.required.some((r) => r.name.toLowerCase().startsWith(`${module}/`) || r.name.toLowerCase() === module)) continue;
    hit.add(d);
    const kindOf: FindingKind = d.source === "rule" || thing.practice ? "breaks-rule" : "introduces-rejected-option";
    out.push({
      kind: kindOf,
      severity: "med",
      decision: citationFor(d, thing),
      file: file.path,
      line: Math.max(1, line.line),
      message: messageFor(kindOf, "dependency", reading.name, d, thing),
      matched: { text: reading.name, subject: thing.name, via: "dependency" },
    });
  }
}

function planOf(set: DecisionSet, changedPaths: string[], pacer: Pacer, existingDirs?: Set<string>): MatchPlan {
  const forbidden = thingEntries(set.decisions, "forbidden");
  const required = thingEntries(set.decisions, "required");
  return {
    forbidden: new ThingIndex(forbidden),
    required: new ThingIndex(required),
    kinds: kindPlan(forbidden, required),
    formats: required.flatMap((e) => {
      const format = formatNamed(e.thing.name);
      return format ? [{ ...e, format }] : [];
    }),
    packagePaths: forbidden.flatMap((e) => (PACKAGE_PATH.test(e.thing.name) ? [{ ...e, path: e.thing.name.toLowerCase() }] : [])),
    shaped: forbidden.flatMap((e) => {
      const shape = e.thing.codeShape ? new RegExp(e.thing.codeShape) : shapeOf(e.thing.name);
      return shape ? [{ ...e, shape }] : [];
    }),
    versioned: set.decisions.filter((d) => d.versionSchemes?.length),
    areas: set.decisions.filter((d) => d.source === "record" && d.area.length),
    generated: generatedPlan(set, changedPaths),
    instrumented: set.decisions.filter((d) => d.instruments?.length),
    headed: set.decisions.filter((d) => d.header),
    openLicensed: set.decisions.filter((d) => d.openContributions),
    bounded: set.decisions.filter((d) => d.boundary),
    keptOff: set.decisions.filter((d) => d.keptOff),
    droppedVersions: set.decisions.filter((d) => d.droppedVersions),
    pacer,
    ...(existingDirs ? { existingDirs } : {}),
  };
}


interface Reading {
  via: Via;
  /** Tokens of the part that names things (the code before a comment, the dependency, the module). */
  tokens: string[];
  /** Tokens of a code line's string literals (a name inside quotes is a mention, not a use). */
  stringTokens: string[];
  /** Tokens of a trailing comment (matched as a comment). */
  commentTokens: string[];
  /**
   * The line defines a command-line flag, option or subcommand (`cmd.Flag("name", "help")`, `add_argument("--x",
   * help=…)`): its strings are the program's own interface, not messages, so a name in them is used.
   */
  definesOption?: boolean;
  /** Tokens of the strings that are a call's only argument, one word each (`getContext('webgl2')`): a use in code. */
  argTokens?: string[];
  /** A code line's strings that are a whole file name (`"index-cache.json"`), each as its tokens joined by "-". */
  fileNames?: string[];
  name?: string;
  /** The three token lists as sets, built on first use (see `nameIn`). */
  index?: { tokens?: TokenIndex; stringTokens?: TokenIndex; commentTokens?: TokenIndex };
}

/** `findName` on one of a reading's token lists, skipped when the sets say it cannot match (most lines, most things). */
function nameIn(reading: Reading, list: "tokens" | "stringTokens" | "commentTokens", keys: NameKeys): string | undefined {
  const index = (reading.index ??= {});
  const ix = (index[list] ??= indexTokens(reading[list]));
  return mayName(ix, keys) ? findName(reading[list], keys) : undefined;
}

/** The token indexes of a reading's non-empty lists (built once, shared with `nameIn`). */
function indexesOf(reading: Reading, lists: readonly ("tokens" | "stringTokens" | "commentTokens")[]): TokenIndex[] {
  const index = (reading.index ??= {});
  return lists.filter((l) => reading[l].length).map((l) => (index[l] ??= indexTokens(reading[l])));
}

const ALL_LISTS = ["tokens", "stringTokens", "commentTokens"] as const;

/** A code line split into what is outside string literals and what is inside them (one pass, no backtracking). */
function splitStrings(text: string): { code: string; strings: string } {
  let code = "";
  let strings = "";
  let quote = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === "\\") {
        strings += text.slice(i, i + 2);
        i++;
      } else if (c === quote) {
        quote = "";
        strings += " ";
      } else strings += c;
    } else if (c === '"' || c === "'" || c === "`") {
      quote = c;
      code += " ";
    } else code += c;
  }
  return { code, strings };
}

/**
 * A call that defines a command-line flag, option or subcommand by a string name: `cmd.Flag("a.b", …)`,
 * `app.Command("x", …)`, `parser.add_argument("--x", …)`, `program.option("-x, --xx", …)`. Not a call that runs a
 * program (`exec.Command("git", …)`).
 */
const DEFINES_OPTION = /(?<!\b(?:exec|subprocess|child_process|os|Process|process|spawn)\s*\.\s*)\b(?:Flag|Command|Option|Argument|Arg|SubCommand|Subcommand|flag|command|option|argument|add_argument|add_option|add_parser|addCommand|addOption|addArgument)\s*\(\s*(['"`])[-\w.: ,]{1,80}\1\s*,/;

function readingOf(path: string, kind: FileKind, line: ChangedLine): Reading {
  const r = readLine(path, kind, line.text);
  const via: Via = r.kind as LineKind;
  if (r.kind === "code" || r.kind === "config") {
    const c = commentStart(path, line.text);
    const body = c > 0 ? line.text.slice(0, c) : line.text;
    const parts = r.kind === "code" ? splitStrings(body) : { code: body, strings: "" };
    // A string that is a call's only argument and one word (`getContext('webgl2')`) picks what the call uses.
    const args = r.kind === "code" ? [...body.slice(0, 2000).matchAll(/[\w$]\(\s*(['"`])([\w@.:-]{2,60})\1\s*\)/g)].flatMap((m) => changeTokensOf(m[2])) : [];
    // A string that is a whole file name (`const CacheFile = "index-cache.json"`) is the file the code reads or writes.
    const files = r.kind === "code" ? [...body.slice(0, 2000).matchAll(/(['"`])(?:[\w@.-]{1,60}\/){0,6}([\w@-]{1,60}(?:\.[\w-]{1,30}){0,3}\.[A-Za-z][A-Za-z0-9]{0,7})\1/g)].map((m) => tokensOf(m[2]).join("-")) : [];
    const definesOption = r.kind === "code" && DEFINES_OPTION.test(body.slice(0, 400));
    return { via, tokens: changeTokensOf(parts.code), stringTokens: changeTokensOf(parts.strings), commentTokens: c > 0 ? changeTokensOf(line.text.slice(c)) : [], ...(args.length ? { argTokens: args } : {}), ...(files.length ? { fileNames: files } : {}), ...(definesOption ? { definesOption } : {}) };
  }
  // A cloud resource type reads as the product it provisions too (`aws_service_discovery_…` is AWS Cloud Map).
  const products = r.kind === "infra" && r.name ? cloudProductsOf(r.name).flatMap((p) => changeTokensOf(p)) : [];
  const brand = r.name && (r.kind === "dependency" || r.kind === "import") ? scopeBrandOf(r.name) : r.name && r.kind === "infra" ? imageBrandOf(r.name) : undefined;
  return { via, tokens: [...changeTokensOf(r.name ?? line.text), ...products, ...(brand ? [brand] : [])], stringTokens: [], commentTokens: [], ...(r.name ? { name: r.name } : {}) };
}

/** The parts of an import's module path, lower case: `Control.Concurrent.STM` → control, concurrent, stm. */
function importParts(name: string): string[] {
  return name.toLowerCase().split(/[./:\\@_-]+/).filter(Boolean);
}

/**
 * The brand a container image's namespace is named for, with an organisation's suffix (`confluentinc/cp-kafka` →
 * confluent): as with an npm scope, the vendor publishes under its name. Registry hosts (with a dot) are skipped.
 */
export function imageBrandOf(image: string): string | undefined {
  const parts = image.split("/").slice(0, -1).filter((p) => !p.includes(".") && !p.includes(":"));
  for (const p of parts) {
    const m = /^([a-z][a-z0-9]{2,30}?)[-_]?(?:io|hq|js|labs|app|dev|inc|org)$/i.exec(p);
    if (m) return m[1].toLowerCase();
  }
  return undefined;
}

/**
 * The brand an npm scope is named for, when the scope is the brand with an organisation's suffix (`@prismicio/client`
 * → prismic, `@reduxjs/toolkit` → redux): a vendor publishes under its name, and a record names the vendor.
 */
export function scopeBrandOf(name: string): string | undefined {
  const m = /^@([a-z][a-z0-9]{2,30}?)[-_]?(?:io|hq|js|labs|app|dev|inc|org)\//i.exec(name);
  return m ? m[1].toLowerCase() : undefined;
}

/** The text as the change wrote it ("innerHTML"), where the match is one run of it; else the match as found. */
function asWritten(line: string, hit: string): string {
  if (/[\s-]/.test(hit)) return hit;
  const i = line.toLowerCase().indexOf(hit);
  return i >= 0 ? line.slice(i, i + hit.length) : hit;
}

function messageFor(kind: FindingKind, via: Via, matchedText: string, d: GuardDecision, thing: DecidedThing, dropping = false): string {
  const cite = citeOf(d, thing.range.start);
  const what = via === "path" ? `changes a file in an area ${cite} decides` : `${dropping ? "removes" : WHAT[via]} ${JSON.stringify(matchedText)}`;
  const why = thing.reason ? ` (${thing.reason.replace(/[.\s]+$/, "")})` : "";
  if (kind === "breaks-rule") {
    return dropping
      ? `${what}, but the rule in ${cite} says to always use ${thing.name}.`
      : `${what}, but the rule in ${cite} says not to use ${thing.name}${why}.`;
  }
  if (kind === "introduces-rejected-option") {
    const chose = d.chosen ? ` and chose ${JSON.stringify(d.chosen)}` : "";
    const subject = d.source === "receipt" ? `the deliberation "${d.citation.title}" (${d.citation.status})` : `"${d.citation.title}" (${cite}, ${d.citation.status})`;
    return `${what}, but ${subject} turned down ${JSON.stringify(thing.name)}${chose}${why}.`;
  }
  if (kind === "removes-chosen-option") {
    const subject = d.source === "receipt" ? `the deliberation "${d.citation.title}" (${d.citation.status})` : `"${d.citation.title}" (${cite}, ${d.citation.status})`;
    return `${what}, which ${subject} chose.`;
  }
  return `${what}: "${d.citation.title}" (${d.citation.status}) is the decision there; deliberate before changing it.`;
}

/** Going against what a decision requires breaks a rule, or removes what a record chose. */
function droppedKind(d: GuardDecision): FindingKind {
  return d.source === "rule" ? "breaks-rule" : "removes-chosen-option";
}

/** How a message names the decision: a rule by its file and line, a record by its file. */
function citeOf(d: GuardDecision, line: number): string {
  return `${d.citation.path}${d.source === "rule" ? ` line ${line}` : ""}`;
}

function citationFor(d: GuardDecision, thing: DecidedThing | undefined): Finding["decision"] {
  if (!thing || d.source === "rule") return d.citation;
  return { ...d.citation, line_range: thing.range };
}

/** Whether a path lies in an area a record names (the file itself, or a folder it names). */
function inArea(path: string, area: string[]): boolean {
  // "**/mediator": one of the project's parts, wherever a path names it (a record scoped to a component).
  return area.some((a) => (a.startsWith("**/") ? path.toLowerCase().split(/[/._-]+/).includes(a.slice(3)) : path === a || path.startsWith(a.endsWith("/") ? a : `${a}/`)));
}

/** Why a changed file is not matched, or undefined when it is. */
function skipReason(file: ChangedFile, kind: FileKind, set: DecisionSet): string | undefined {
  if (set.recordPaths.has(file.path) || (file.old_path && set.recordPaths.has(file.old_path)) || /(^|\/)\.deliberations\//.test(file.path)) {
    return "a decision itself (record, instructions or receipt): mentions inside it are not findings";
  }
  if (file.unread) return file.unread;
  if (file.binary) return "binary file: no lines to read";
  if (kind === "lock") return "lock file: its manifest is checked instead";
  if (file.status === "renamed" && !file.added.length && !file.removed.length) return `renamed from ${file.old_path ?? "?"} without a content change`;
  if (file.status === "deleted" && kind !== "manifest") return "deleted file: it adds nothing (a deleted manifest is still read for dropped dependencies)";
  if (!file.added.length && !file.removed.length) return "no changed lines (a mode change or an empty file)";
  return undefined;
}

/** What the whole change adds and removes: a line or name on both sides moved, or changed only its version. */
interface ChangeIndex {
  addedNames: Set<string>;
  removedNames: Set<string>;
  addedTexts: Set<string>;
  removedTexts: Set<string>;
  /** Dependencies whose removed line pinned a version itself (a bump of one stays what it was). */
  removedPinned: Set<string>;
}

/** Read whole (never cut: without it a moved line would read as new), giving the event loop its turns. */
async function indexChange(work: { file: ChangedFile; kind: FileKind }[], pacer: Pacer): Promise<ChangeIndex> {
  const ix: ChangeIndex = { addedNames: new Set(), removedNames: new Set(), addedTexts: new Set(), removedTexts: new Set(), removedPinned: new Set() };
  for (const { file, kind } of work) {
    for (const [lines, texts, names] of [[file.added, ix.addedTexts, ix.addedNames], [file.removed, ix.removedTexts, ix.removedNames]] as const) {
      for (const l of lines) {
        if (pacer.due()) await pacer.turn();
        texts.add(l.text.trim());
        const r = readLine(file.path, kind, l.text);
        if (r.name && (r.kind === "dependency" || r.kind === "import")) names.add(r.name.toLowerCase());
        if (r.name && r.kind === "dependency" && names === ix.removedNames && pinnedVersionBypasses(file.path, l.text)) ix.removedPinned.add(r.name.toLowerCase());
        // An image or action whose tag changed ("server:2022-latest" → "server:2022-CU14") is the same thing.
        if (r.name && r.kind === "infra") names.add(unversioned(r.name));
      }
    }
  }
  return ix;
}

/** An image, action or module name without its tag, digest or ref. */
function unversioned(name: string): string {
  return name.toLowerCase().replace(/[:@][\w.+-]*$/, "").replace(/\?ref=.*$/, "");
}

class FindingList {
  findings: Finding[] = [];
  private seen = new Set<string>();
  push(f: Finding): void {
    const key = `${f.kind}\0${f.file}\0${f.line}\0${f.decision.path}\0${f.decision.line_range.start}\0${f.matched.text}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.findings.push(f);
  }
}

/** Whether the file's path or its added lines name one of the words that show a use. */
function showsUse(file: ChangedFile, pathTokens: Set<string>, evidence: string[]): boolean {
  const words = new Set([...pathTokens, ...file.added.flatMap((l) => tokensOf(l.text.slice(0, 500)))]);
  return evidence.some((w) => words.has(w));
}

/** A config line that sets text people read: a title, a description, a label, a help text. */
const PROSE_SETTING = /^\s*["']?(?:title|description|summary|label|help|help_?text|message|caption|tooltip|display_?name)["']?\s*[:=]/i;

/**
 * Added lines that bring in what a decision turned down or a rule forbids. Resolves with the last line matched when
 * the time ran out in this file (0: none of it), else undefined.
 */
async function matchAdded(file: ChangedFile, kind: FileKind, plan: MatchPlan, ix: ChangeIndex, out: FindingList, hit: Set<GuardDecision>): Promise<number | undefined> {
  // Folders and the file's name without its extension (a .raml file may still bring in RAML).
  const pathTokens = new Set(pathWords(file.path.replace(/\.[^./]*$/, "")));
  const fixture = isFixturePath(file.path);
  let done = 0;
  for (const line of file.added) {
    if (plan.pacer.due() && (await plan.pacer.turn())) return done;
    done = line.line;
    // A line moved as it was (removed in one place, added in another) introduces nothing.
    if (line.text.trim() && ix.removedTexts.has(line.text.trim())) continue;
    // A package or namespace declaration names the project's own code.
    if (/^\s*(?:package|namespace)\s+[\w.:]+\s*[;{]?\s*$/.test(line.text.slice(0, 300))) continue;
    const reading = readingOf(file.path, kind, line);
    // A dependency that now pins its own version, where it did not before (`x = { workspace = true }` → `x = "1.0"`).
    if (reading.via === "dependency" && !(reading.name && ix.removedPinned.has(reading.name.toLowerCase()))) matchPinnedVersion(file, line, reading, plan, out, hit);
    // A dependency whose version changed, or an import kept, was there before.
    if (reading.name && (reading.via === "dependency" || reading.via === "import") && ix.removedNames.has(reading.name.toLowerCase())) continue;
    matchModuleHolding(file, reading, line, plan, out, hit);
    for (const { d, thing } of plan.forbidden.candidates(indexesOf(reading, ALL_LISTS))) {
      if (d.scope && !inArea(file.path, d.scope)) continue;
      if (thing.languageOnly || thing.pathOnly) continue;
      if (thing.importsOnly && reading.via !== "import" && reading.via !== "dependency" && !(thing.imagesToo && reading.via === "infra")) continue;
      if (thing.dependencyOnly && reading.via !== "dependency") continue;
      if (thing.wholeModule && (reading.via !== "import" || reading.name?.toLowerCase() !== thing.name.replace(/[`*]/g, "").trim().toLowerCase())) continue;
      if (thing.notInTests && (isTestPath(file.path) || (reading.via !== "code" && reading.via !== "import"))) continue;
      let via = reading.via;
      let found = nameIn(reading, "tokens", thing.keys);
      if (!found && reading.stringTokens.length) {
        found = nameIn(reading, "stringTokens", thing.keys);
        // A class name or key the record writes as code (`js-failed`) is used in code's strings, not mentioned.
        via = thing.identifier && reading.via === "code" ? "code" : found && (isArgument(reading, found) || reading.fileNames?.includes(found.toLowerCase()) || reading.definesOption) ? "code" : "string";
      }
      if (!found && thing.keys.all && reading.stringTokens.length) {
        // A name of several words split between code and a string (`canvas.getContext('2d')` for "2D Canvas"): the
        // string part is used when it is the call's only argument.
        found = findName([...reading.tokens, ...reading.stringTokens], thing.keys);
        via = found && found.split(" ").every((w) => reading.tokens.includes(w) || isArgument(reading, w)) ? reading.via : "string";
      }
      if (!found && reading.commentTokens.length) {
        found = nameIn(reading, "commentTokens", thing.keys);
        via = "comment";
      }
      if (!found) continue;
      // "provisioned EC2 databases": an instance is that only where the file shows the use (a database installed on it).
      if (thing.purposeEvidence && via !== "dependency" && via !== "import" && !showsUse(file, pathTokens, thing.purposeEvidence)) continue;
      // A plugin or setting of the chosen tool that carries the rejected name as a part (`tracing-log`,
      // `[tool.ruff.lint.flake8-quotes]`), or a snake-case key of the project's own (`apex_domain: …`).
      if (via !== "doc" && via !== "comment" && heldByChosenName(reading.name ?? line.text, found, thing, d.required)) continue;
      if ((via === "code" || via === "config" || via === "string") && !thing.keys.whole && onlyInDefinedKey(line.text, found)) continue;
      // The file's own path names it ("org/apache/james/…", "mailbox/cassandra/…"): the project's own code, not a newcomer.
      // Not when the name's other word is on the line itself ("2d" of "2D Canvas" in `canvas.ts`): the path explains
      // only the word it shares.
      if (pathTokens.has(found.toLowerCase()) && ownPath(file, found.toLowerCase(), plan.existingDirs) && !otherWordOnLine(reading, thing.keys, pathTokens)) continue;
      // A word that only opens a sentence-like option ("Give AWS accounts …") names a package, an import or an image.
      // A key cut down to the word that tells the option apart ("hub" of "Docker Hub", "pro" of "Sidekiq Pro") names
      // a package as it is; in code or config the whole name must be on the line or in the file's path.
      // A flag or command defined for a feature a title took out brings the feature back, however plainly it is named.
      if (thing.keys.leadOnly && via !== "dependency" && via !== "import" && via !== "infra" && !(thing.feature && reading.definesOption)) continue;
      // Such a word names an import by a whole part of its path (`Control.Concurrent.STM`), not by a piece of a
      // camel-case name (`MonadSTM` is another library's class).
      if (thing.keys.leadOnly && via === "import" && reading.name && !importParts(reading.name).includes(found.toLowerCase())) continue;
      if (thing.keys.whole && via !== "dependency" && via !== "import" && !namesWhole([...reading.tokens, ...reading.stringTokens, ...reading.commentTokens, ...pathTokens], thing.keys.whole)) continue;
      // A setting's title or description ("title": "…") is text people read, whatever file holds it.
      if (thing.textOnly && via !== "doc" && via !== "comment" && via !== "string" && !(via === "config" && PROSE_SETTING.test(line.text))) continue;
      // A deny list, an ignore list, an exclusion: the line keeps the thing out, as the decision does.
      if (via !== "import" && via !== "doc" && keptOutAt(file.added, line, found, via === "dependency")) continue;
      hit.add(d);
      const kindOf: FindingKind = d.source === "rule" || thing.practice ? "breaks-rule" : "introduces-rejected-option";
      const written = reading.name ?? asWritten(line.text, found);
      out.push({
        kind: kindOf,
        // A test fixture's line is data a test reads: a hint, not the product's setting.
        severity: fixture && via !== "dependency" && via !== "import" ? "low" : SEVERITY_OF[via],
        decision: citationFor(d, thing),
        file: file.path,
        line: Math.max(1, line.line),
        message: messageFor(kindOf, via, written, d, thing),
        matched: { text: written, subject: thing.name, via },
      });
    }
  }
  return undefined;
}

/**
 * A code line that writes a shape a decision turned down by example (`!!someVariable`) with any name: only the code
 * outside strings and comments, and not a line moved as it was.
 */
function matchShapes(file: ChangedFile, kind: FileKind, plan: MatchPlan, out: FindingList, hit: Set<GuardDecision>): void {
  if (!plan.shaped.length || kind !== "code") return;
  const removed = new Set(file.removed.map((l) => l.text.trim()));
  for (const line of file.added) {
    if (removed.has(line.text.trim()) || readLine(file.path, kind, line.text).kind !== "code") continue;
    const c = commentStart(file.path, line.text);
    const whole = c > 0 ? line.text.slice(0, c) : line.text;
    const code = splitStrings(whole).code;
    for (const { d, thing, shape } of plan.shaped) {
      if (d.scope && !inArea(file.path, d.scope)) continue;
      if (thing.notInTests && isTestPath(file.path)) continue;
      const m = shape.exec((thing.shapeInStrings ? whole : code).slice(0, 2000));
      if (!m) continue;
      hit.add(d);
      const kindOf: FindingKind = d.source === "rule" || thing.practice ? "breaks-rule" : "introduces-rejected-option";
      const written = line.text.slice(m.index, m.index + m[0].length).trim() || m[0].trim();
      out.push({
        kind: kindOf,
        severity: SEVERITY_OF.code,
        decision: citationFor(d, thing),
        file: file.path,
        line: Math.max(1, line.line),
        message: messageFor(kindOf, "code", written, d, thing),
        matched: { text: written, subject: thing.name, via: "code" },
      });
    }
  }
}

/** A module's manifest pinning a dependency's version itself, where a decision chose to keep versions in one place. */
function matchPinnedVersion(file: ChangedFile, line: ChangedLine, reading: Reading, plan: MatchPlan, out: FindingList, hit: Set<GuardDecision>): void {
  if (!plan.versioned.length) return;
  const scheme = pinnedVersionBypasses(file.path, line.text);
  if (!scheme) return;
  for (const d of plan.versioned) {
    if (!d.versionSchemes?.includes(scheme) || (d.scope && !inArea(file.path, d.scope))) continue;
    hit.add(d);
    const kindOf = droppedKind(d);
    const name = reading.name ?? line.text.trim();
    const cite = citeOf(d, d.citation.line_range.start);
    out.push({
      kind: kindOf,
      severity: "med",
      decision: d.citation,
      file: file.path,
      line: Math.max(1, line.line),
      message: `pins the version of ${JSON.stringify(name)} in this module, but ${cite} keeps dependency versions in one place (${VERSION_PLACE[scheme]}).`,
      matched: { text: name, subject: VERSION_PLACE[scheme], via: "dependency" },
    });
  }
}

const VERSION_PLACE: Record<string, string> = {
  "gradle-catalog": "the Gradle version catalog",
  "cargo-workspace": "the workspace's [workspace.dependencies]",
  "nuget-central": "Directory.Packages.props",
};

/** The word a packaging manifest's path is read with (newFiles.ts), beside its own. */
const PACKAGING = "packaging";

/**
 * A new configuration or infrastructure file whose path names what a decision turned down (`deploy/nginx/router.conf`,
 * `webpack.config.js` aside: code files are read by their lines): the file is that thing's configuration even when
 * no line of it names the thing. Only added files: an existing file's path is the project's own.
 */
function matchNewFilePath(file: ChangedFile, kind: FileKind, plan: MatchPlan, out: FindingList, hit: Set<GuardDecision>): void {
  if (file.status !== "added" || kind === "doc") return;
  // A code file's path is the project's own naming, except for what a record keeps out of the tree whole.
  const anyPath = kind === "config" || kind === "infra";
  const own = tokensOf(file.path.replace(/\.[^./]*$/, ""));
  // `debian/control` is packaging whatever its path says: what a record keeps out of the tree as packaging.
  const packaging = isPackagingFile(file.path) && !own.includes(PACKAGING) ? [PACKAGING] : [];
  const tokens = [...own, ...packaging];
  const ix = indexTokens(tokens);
  for (const { d, thing } of plan.forbidden.candidates([ix])) {
    if ((!anyPath && !thing.pathOnly) || (d.scope && !inArea(file.path, d.scope))) continue;
    if (thing.importsOnly || thing.textOnly || thing.languageOnly || thing.notInTests || thing.keys.stems || !mayName(ix, thing.keys)) continue;
    const found = findName(thing.pathOnly ? tokens : own, thing.keys);
    if (!found) continue;
    // A prose compound keyed by its one plain word ("catalog" of "Catalog source") is named by a path only as a whole.
    if (thing.keys.whole?.some((w) => GENERIC_PURPOSES.has(w)) && !namesWhole(tokens, thing.keys.whole)) continue;
    // A folder the project already had names it (`terraform/projects/…`): the project's own layout, not a newcomer.
    if (folderAtBaseNames(file, found.toLowerCase(), plan.existingDirs)) continue;
    hit.add(d);
    pushPathFinding(file, d, thing, found, out);
  }
  matchNewFileName(file, plan, out, hit);
}

/** A new file that by its path or name brings back what a decision turned down, found at its first added line. */
function pushPathFinding(file: ChangedFile, d: GuardDecision, thing: DecidedThing, found: string, out: FindingList): void {
  const kindOf: FindingKind = d.source === "rule" ? "breaks-rule" : "introduces-rejected-option";
  out.push({
    kind: kindOf,
    severity: SEVERITY_OF.config,
    decision: citationFor(d, thing),
    file: file.path,
    line: Math.max(1, file.added[0]?.line ?? 1),
    message: messageFor(kindOf, "config", found, d, thing),
    matched: { text: found, subject: thing.name, via: "config" },
  });
}

/**
 * A new file whose name is a file a decision turned down by that name ("Replace `config.sh` with an executable …"):
 * adding `src/config.sh` brings it back, whatever its lines say.
 */
function matchNewFileName(file: ChangedFile, plan: MatchPlan, out: FindingList, hit: Set<GuardDecision>): void {
  const base = (file.path.split("/").pop() ?? file.path).toLowerCase();
  if (!/^[\w-]+\.[a-z0-9]{1,8}$/.test(base)) return;
  const tokens = tokensOf(base);
  const ix = indexTokens(tokens);
  for (const { d, thing } of plan.forbidden.candidates([ix])) {
    // A config file whose path already named it (`settings.env` keyed by `settings`) is found once.
    if (hit.has(d) || (d.scope && !inArea(file.path, d.scope))) continue;
    if (thing.importsOnly || thing.textOnly || thing.languageOnly || thing.dependencyOnly || thing.name.replace(/[`*"]/g, "").trim().toLowerCase() !== base) continue;
    hit.add(d);
    pushPathFinding(file, d, thing, base, out);
  }
}

/** The things a new file's kind can go against: filed once per check, not looked for in every decision per file. */
interface KindPlan {
  /** Turned-down things that are the language of these words (memoised by language). */
  language: (words: string[]) => ThingEntry[];
  /** Turned-down things that name a CI system. */
  ciForbidden: ThingEntry[];
  /** Chosen things that name a CI system. */
  ciRequired: ThingEntry[];
}

function kindPlan(forbidden: ThingEntry[], required: ThingEntry[]): KindPlan {
  const fileKindOnly = forbidden.filter(({ thing }) => !thing.importsOnly && !thing.textOnly && !thing.dependencyOnly && !thing.pathOnly);
  const byLanguage = new Map<string, ThingEntry[]>();
  return {
    language: (words) => {
      const key = words.join(" ");
      let list = byLanguage.get(key);
      if (!list) byLanguage.set(key, (list = fileKindOnly.filter(({ thing }) => namesLanguage(words, thing.keys))));
      return list;
    },
    ciForbidden: fileKindOnly.filter(({ thing }) => !thing.languageOnly && ciSystemNamed(thing.keys)),
    ciRequired: required.filter(({ thing }) => ciSystemNamed(thing.keys)),
  };
}

/**
 * A new file by what it is, not by its lines (newFiles.ts): a source file in a language a decision turned down, and a
 * CI configuration of another system than the one a decision chose (or of one it turned down).
 */
function matchNewFileKind(file: ChangedFile, kind: FileKind, plan: KindPlan, out: FindingList, hit: Set<GuardDecision>): void {
  if (file.status !== "added") return;
  const language = kind === "code" ? languageOfFile(file.path) : undefined;
  const systems = ciSystemsOfFile(file.path);
  if (!language && !systems.length) return;
  const line = Math.max(1, file.added[0]?.line ?? 1);
  const same = (a: string[], b: string[]) => a.join(" ") === b.join(" ");
  // Decision by decision, its turned-down things before its chosen ones: the order the findings were always made in.
  const forbidden = new Set([...(language ? plan.language(language) : []), ...(systems.length ? plan.ciForbidden : [])]);
  const steps = [...[...forbidden].map((e) => ({ e, chosen: false })), ...(systems.length ? plan.ciRequired : []).map((e) => ({ e, chosen: true }))];
  steps.sort((a, b) => a.e.decision - b.e.decision || Number(a.chosen) - Number(b.chosen) || a.e.order - b.e.order);
  for (const { e, chosen } of steps) {
    const { d, thing } = e;
    if (d.scope && !inArea(file.path, d.scope)) continue;
    const rule = d.source === "rule";
    if (!chosen) {
      const named = language ? namesLanguage(language, thing.keys) : undefined;
      const system = systems.length && !thing.languageOnly ? ciSystemNamed(thing.keys) : undefined;
      if (!named && !(system && systems.some((s) => same(s, system)))) continue;
      hit.add(d);
      const kindOf: FindingKind = rule ? "breaks-rule" : "introduces-rejected-option";
      const text = named ? `a new ${language![0]} file` : `a new ${system!.join(" ")} configuration`;
      out.push({ kind: kindOf, severity: "med", decision: citationFor(d, thing), file: file.path, line, message: messageFor(kindOf, named ? "code" : "config", text, d, thing), matched: { text, subject: thing.name, via: named ? "code" : "config" } });
      continue;
    }
    const system = ciSystemNamed(thing.keys);
    if (!system || systems.some((s) => same(s, system))) continue;
    hit.add(d);
    // A system the record names besides its choice is one it weighed or moved away from: bringing it back
    // introduces what it set aside, not only goes around its choice.
    const weighed = !rule && systems.some((s) => d.ciWeighed?.some((w) => same(w, s)));
    const kindOf: FindingKind = rule ? "breaks-rule" : weighed ? "introduces-rejected-option" : "removes-chosen-option";
    const text = `a new ${systems[0].join(" ")} configuration`;
    const cite = `${d.citation.path}${rule ? ` line ${thing.range.start}` : ""}`;
    out.push({
      kind: kindOf,
      severity: "med",
      decision: citationFor(d, thing),
      file: file.path,
      line,
      message: `adds ${text}, which goes around ${thing.name}: "${d.citation.title}" (${cite}, ${d.citation.status}) chose it as the CI system${weighed ? `, and names ${systems[0].join(" ")} as one it set aside` : ""}.`,
      matched: { text, subject: thing.name, via: "config" },
    });
  }
}

/**
 * A new file written in another language or format than a decision chose, beside files that follow the choice
 * (formats.ts): a Python subcommand among a tool's shell scripts goes around "implemented as shell scripts".
 */
function matchGoneAround(file: ChangedFile, plan: MatchPlan, folder: { folderFiles: (dir: string) => FolderFile[]; added: Set<string> }, out: FindingList, hit: Set<GuardDecision>): void {
  if (file.status !== "added" || !plan.formats.length) return;
  const first = file.added.find((l) => l.line === 1)?.text ?? "";
  const mine = formatOfFile(file.path, first);
  if (!mine) return;
  const dir = posix.dirname(file.path);
  // Files this change adds are not yet what the folder holds.
  const siblings = folder.folderFiles(dir === "." ? "" : dir).filter((f) => !folder.added.has(f.path) && f.path !== file.path);
  for (const { d, thing, format } of plan.formats) {
    if (hit.has(d) || (d.scope && !inArea(file.path, d.scope))) continue;
    const around = goesAround(mine, format, siblings);
    if (!around) continue;
    hit.add(d);
    // Document formats are interchangeable ways to write the same text: a record in another is the format the choice
    // set aside (a peer, as peers.ts turns down a purpose's other libraries). A program in another language runs
    // beside the chosen one: it goes around the choice.
    const kind = mine.family === "document" && d.source === "record" ? "introduces-rejected-option" : droppedKind(d);
    const text = `a new ${mine.name} file`;
    const cite = citeOf(d, thing.range.start);
    const chose = d.source === "rule" ? `the rule in ${cite} says to write ${format.name}` : `"${d.citation.title}" (${cite}, ${d.citation.status}) chose ${JSON.stringify(thing.name)}`;
    out.push({
      kind,
      severity: "med",
      decision: citationFor(d, thing),
      file: file.path,
      line: Math.max(1, file.added[0]?.line ?? 1),
      message: `adds ${text} beside ${around.following} ${format.name} files, which goes around the choice: ${chose}.`,
      matched: { text, subject: thing.name, via: "code" },
    });
  }
}

/** A line that sets one key (`config.active_job.queue_adapter = :sidekiq`, `adapter: sidekiq`): its key and value. */
export function settingOf(text: string): { key: string; value: string } | undefined {
  const m = /^\s*(?:export\s+|set\s+)?([A-Za-z_][\w.[\]'"-]{0,120}?)\s*(?:=|:)(?![=:>])\s*(\S.{0,200}?)\s*[,;]?\s*$/.exec(text.slice(0, 400));
  if (!m || /^[=>]/.test(m[2])) return undefined;
  return { key: m[1].replace(/['"]/g, ""), value: m[2] };
}

/**
 * Settings the change gives another value: a removed line that set a key whose added line sets it to something
 * else (`queue_adapter = :sidekiq` → `queue_adapter = :async`). Dropping the chosen thing there moves off it.
 */
function switchedSettings(file: ChangedFile, kind: FileKind): Map<number, string> {
  const out = new Map<number, string>();
  if (kind !== "code" && kind !== "config" && kind !== "infra") return out;
  // Each key's first new value and all of them (a set: thousands of lines may set one key).
  const added = new Map<string, { first: string; values: Set<string> }>();
  for (const l of file.added) {
    const s = settingOf(l.text);
    if (!s) continue;
    const known = added.get(s.key);
    if (known) known.values.add(s.value);
    else added.set(s.key, { first: s.value, values: new Set([s.value]) });
  }
  if (!added.size) return out;
  file.removed.forEach((l, i) => {
    const s = settingOf(l.text);
    const now = s ? added.get(s.key) : undefined;
    if (s && now && !now.values.has(s.value)) out.set(i, now.first);
  });
  return out;
}

/**
 * Removed dependencies and imports of what a decision chose or a rule requires (removed prose or code is too weak a
 * signal). Resolves with the last line matched when the time ran out in this file (0: none of it), else undefined.
 */
async function matchRemoved(file: ChangedFile, kind: FileKind, plan: MatchPlan, ix: ChangeIndex, out: FindingList, hit: Set<GuardDecision>): Promise<number | undefined> {
  const switched = switchedSettings(file, kind);
  let done = 0;
  for (const [at, line] of file.removed.entries()) {
    if (plan.pacer.due() && (await plan.pacer.turn())) return done;
    done = line.at ?? line.line;
    if (ix.addedTexts.has(line.text.trim())) continue;
    const reading = readingOf(file.path, kind, line);
    // In a CI workflow, a Dockerfile or Terraform, a removed step or resource line is what runs: dropping the one that
    // runs the chosen tool drops the tool ("Install SonarCloud Scanner").
    const ran = kind === "infra" && reading.via !== "comment" && reading.via !== "doc";
    // A setting moved off its value (`queue_adapter = :sidekiq` → `:async`): the old value is what the code dropped.
    const setTo = reading.via === "dependency" || reading.via === "import" ? undefined : switched.get(at);
    if (setTo !== undefined) {
      matchSwitchedSetting(file, line, reading, setTo, plan, out, hit);
      continue;
    }
    if (reading.via !== "dependency" && reading.via !== "import" && !ran) continue;
    if (reading.name && ix.addedNames.has(reading.name.toLowerCase())) continue;
    if (ran && reading.name && ix.addedNames.has(unversioned(reading.name))) continue;
    for (const { d, thing } of plan.required.candidates(indexesOf(reading, ["tokens"]))) {
      if (d.scope && !inArea(file.path, d.scope)) continue;
      const found = nameIn(reading, "tokens", thing.keys);
      if (!found) continue;
      // One package of the chosen thing's family swapped for another (`bullmq` dropped, `bull` added) keeps it.
      if (reading.via === "dependency" && addedAlso(ix, thing.keys)) continue;
      // A step rewritten in place (`npm install -g tool` → `npm install -g tool@1.0.1`) still runs the thing.
      if (ran && !reading.name && stillRun(file, kind, thing.keys)) continue;
      hit.add(d);
      const kindOf = droppedKind(d);
      out.push({
        kind: kindOf,
        severity: reading.via === "dependency" ? "high" : "med",
        decision: citationFor(d, thing),
        file: file.path,
        line: Math.max(1, line.at ?? line.line),
        message: messageFor(kindOf, reading.via, reading.name ?? found, d, thing, true),
        matched: { text: reading.name ?? found, subject: thing.name, via: reading.via },
      });
    }
  }
  return undefined;
}

/** Whether a line the file adds, outside comments and prose, names the thing: the step that runs it is still there. */
function stillRun(file: ChangedFile, kind: FileKind, keys: NameKeys): boolean {
  return file.added.some((l) => {
    const via = readingOf(file.path, kind, l).via;
    return via !== "comment" && via !== "doc" && !!findName(changeTokensOf(l.text), keys);
  });
}

/** A flag set off in a line (`refetchOnWindowFocus: false`): its name. */
const SET_OFF = /([A-Za-z_][\w-]*)["']?\s*(?::|=|:=)\s*(?:false|off|no|0)\b/gi;

/** Whether a flag's name holds every word of a behaviour (`refetchOnWindowFocus` holds "fetch" and "focus"). */
function flagNamesBehaviour(flag: string, words: readonly string[]): boolean {
  const own = identifierWords(flag);
  return words.every((w) => own.some((x) => x === w || (w.length >= 4 && x.endsWith(w))));
}

/**
 * A record whose title turns a behaviour off ("Disable fetch on focus"), and a change that drops the line setting a
 * flag for it off, with no line of the file setting it off again: the default is back on. A flag set on for one
 * call (`refetchOnWindowFocus: true` in one query) removes nothing and is not read.
 */
function matchTurnedBackOn(file: ChangedFile, kind: FileKind, plan: MatchPlan, out: FindingList, hit: Set<GuardDecision>): void {
  if (!plan.keptOff.length || (kind !== "code" && kind !== "config") || !file.removed.length) return;
  const offAgain = new Set(file.added.flatMap((l) => [...l.text.slice(0, 400).matchAll(SET_OFF)].map((m) => m[1])));
  for (const line of file.removed) {
    for (const m of line.text.slice(0, 400).matchAll(SET_OFF)) {
      if (offAgain.has(m[1])) continue;
      for (const d of plan.keptOff) {
        if (hit.has(d) || (d.scope && !inArea(file.path, d.scope)) || !flagNamesBehaviour(m[1], d.keptOff!.words)) continue;
        hit.add(d);
        out.push({
          kind: "removes-chosen-option",
          severity: "med",
          decision: d.citation,
          file: file.path,
          line: Math.max(1, line.at ?? line.line),
          message: `removes ${JSON.stringify(m[0].trim())}, which turned ${d.keptOff!.name} off as "${d.citation.title}" (${d.citation.path}, ${d.citation.status}) chose.`,
          matched: { text: m[1], subject: d.keptOff!.name, via: "code" },
        });
      }
    }
  }
}

/**
 * A manifest, config or image line that admits a version a record dropped support for: the runtime's word, then a
 * version range or tag whose lowest major is a dropped one (`"node": ">=8.10.0"`, `FROM node:8-alpine`). A range that
 * starts at a kept major (`"^18.18.0 || >=21"`) is not read.
 */
function matchDroppedVersions(file: ChangedFile, kind: FileKind, plan: MatchPlan, out: FindingList, hit: Set<GuardDecision>): void {
  if (!plan.droppedVersions.length || kind === "doc" || kind === "lock") return;
  for (const line of file.added) {
    const text = line.text.slice(0, 400);
    const c = commentStart(file.path, text);
    const code = c >= 0 ? text.slice(0, c) : text;
    for (const d of plan.droppedVersions) {
      const dv = d.droppedVersions!;
      if (hit.has(d) || (d.scope && !inArea(file.path, d.scope))) continue;
      const m = new RegExp(`(?:^|[^\\w.-])${dv.runtime}(?:js)?["']?\\s*(?:[:=@]|\\s)\\s*["']?\\s*(?:>=|>|\\^|~|==|=)?\\s*v?(\\d+)(?=[.x\\s"'-]|$)`, "i").exec(code);
      if (!m || !dv.majors.includes(Number(m[1]))) continue;
      hit.add(d);
      out.push({
        kind: "introduces-rejected-option",
        severity: "med",
        decision: d.citation,
        file: file.path,
        line: Math.max(1, line.line),
        message: `admits ${dv.runtime} ${m[1]}, whose support "${d.citation.title}" (${d.citation.path}, ${d.citation.status}) dropped.`,
        matched: { text: m[0].trim(), subject: dv.name, via: kind === "code" ? "code" : "config" },
      });
    }
  }
}

/** Whether a dependency or import the change adds names the thing too. */
function addedAlso(ix: ChangeIndex, keys: NameKeys): boolean {
  for (const n of ix.addedNames) if (findName(changeTokensOf(n), keys)) return true;
  return false;
}

/** A glob as a test of a path: one without a slash is matched against the file's name, `**` crosses folders. */
function globMatcher(glob: string): (path: string) => boolean {
  let pattern = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === "*" && glob[i + 1] === "*") {
      // "**/" is any number of folders, "**" anything.
      pattern += glob[i + 2] === "/" ? "(?:.*/)?" : ".*";
      i += glob[i + 2] === "/" ? 2 : 1;
    } else if (c === "*") pattern += "[^/]*";
    else if (c === "?") pattern += "[^/]";
    else pattern += c.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  const re = new RegExp(`^${pattern}$`);
  const whole = glob.includes("/");
  return (path) => re.test(whole ? path : (path.split("/").pop() ?? path));
}

/** A file's name up to its first dot: `transfer.pb.go` and `transfer.proto` share `transfer`. */
const stemOf = (path: string) => (path.split("/").pop() ?? path).split(".")[0];

/** The rules' generated-file globs, compiled once, and the change's paths by stem (built once per check, not per file). */
interface GeneratedPlan {
  rules: { d: GuardDecision; globs: { glob: string; test: (path: string) => boolean }[] }[];
  /** Whether the change also touches another file of this path's stem that no glob calls generated (its source). */
  regenerated: (path: string) => boolean;
}

function generatedPlan(set: DecisionSet, changedPaths: string[]): GeneratedPlan {
  const rules = set.decisions.filter((d) => d.generated?.length).map((d) => ({ d, globs: d.generated!.map((glob) => ({ glob, test: globMatcher(glob) })) }));
  const sources = new Map<string, Set<string>>();
  if (rules.length) {
    for (const p of changedPaths) {
      if (rules.some((r) => r.globs.some((g) => g.test(p)))) continue;
      const stem = stemOf(p);
      const paths = sources.get(stem);
      if (paths) paths.add(p);
      else sources.set(stem, new Set([p]));
    }
  }
  return {
    rules,
    regenerated: (path) => {
      const paths = sources.get(stemOf(path));
      return !!paths && paths.size - (paths.has(path) ? 1 : 0) > 0;
    },
  };
}

/**
 * An edited file that a rule says is generated and not to be edited by hand (`*.pb.go`). Regenerating it changes its
 * source too: when the change also touches another file of the same stem (`transfer.proto`), it is not flagged.
 */
function matchGenerated(file: ChangedFile, plan: GeneratedPlan, out: FindingList, hit: Set<GuardDecision>): void {
  if (file.status === "deleted" || !file.added.length || !plan.rules.length) return;
  if (plan.regenerated(file.path)) return;
  for (const { d, globs } of plan.rules) {
    const glob = globs.find((g) => g.test(file.path))?.glob;
    if (!glob || (d.scope && !inArea(file.path, d.scope))) continue;
    hit.add(d);
    const kindOf = droppedKind(d);
    const cite = citeOf(d, d.citation.line_range.start);
    out.push({
      kind: kindOf,
      severity: "med",
      decision: d.citation,
      file: file.path,
      line: Math.max(1, file.added[0]?.line ?? 1),
      message: `edits ${file.path} by hand, but the rule in ${cite} says files matching ${glob} are generated: change their source and regenerate them.`,
      matched: { text: file.path, subject: glob, via: "path" },
    });
  }
}

/** An added Gradle dependency on another module's private module (moduleBoundaries.ts): one finding per line and rule. */
function matchBoundary(file: ChangedFile, plan: MatchPlan, out: FindingList, hit: Set<GuardDecision>): void {
  if (!plan.bounded.length || !isGradleBuildFile(file.path)) return;
  for (const line of file.added) {
    const dependency = projectDependencyOf(line.text);
    // A commented-out dependency declares nothing.
    const comment = commentStart(file.path, line.text);
    if (!dependency || (comment >= 0 && comment < line.text.search(/\bprojects?\b/))) continue;
    for (const d of plan.bounded) {
      if ((d.scope && !inArea(file.path, d.scope)) || !crossesBoundary(file.path, dependency, d.boundary!)) continue;
      hit.add(d);
      const module = `:${dependency.join(":")}`;
      out.push({
        kind: "breaks-rule",
        severity: "high",
        decision: d.citation,
        file: file.path,
        line: line.line,
        message: `adds a dependency on ${module}, another module's private module, but the rule in ${citeOf(d, d.citation.line_range.start)} keeps modules of that kind to their own module.`,
        matched: { text: module, subject: d.boundary!.kinds.map((k) => `:${k.endsWith("-") ? `${k}*` : k}`).join(", "), via: "dependency" },
      });
    }
  }
}

/** A new file whose header reserves its rights, where a rule takes contributions under an open licence (fileHeaders.ts). */
function matchReservedRights(file: ChangedFile, plan: MatchPlan, out: FindingList, hit: Set<GuardDecision>): void {
  if (file.status !== "added" || !plan.openLicensed.length || !file.added.length) return;
  const reserved = reservedRightsLine(file.added);
  if (!reserved) return;
  for (const d of plan.openLicensed) {
    if (d.scope && !inArea(file.path, d.scope)) continue;
    hit.add(d);
    out.push({
      kind: "breaks-rule",
      severity: "med",
      decision: d.citation,
      file: file.path,
      line: reserved.line,
      message: `adds ${file.path} with a header that reserves its rights, but the rule in ${citeOf(d, d.citation.line_range.start)} takes contributions under an open licence or into the public domain.`,
      matched: { text: reserved.text.trim().slice(0, 120), subject: "contribution licence", via: "comment" },
    });
  }
}

/** A new file that a rule says must begin with a licence header, without one in its first lines (fileHeaders.ts). */
function matchHeader(file: ChangedFile, plan: MatchPlan, out: FindingList, hit: Set<GuardDecision>): void {
  if (file.status !== "added" || !plan.headed.length || !file.added.length) return;
  // Only the file's own first lines: a diff that starts further down shows no header either way.
  const first = file.added.filter((l) => l.line <= HEADER_LINES);
  if (first[0]?.line !== 1 || hasHeader(first.map((l) => l.text))) return;
  for (const d of plan.headed) {
    if (!coversPath(d.header!, file.path) || (d.scope && !inArea(file.path, d.scope))) continue;
    hit.add(d);
    out.push({
      kind: "breaks-rule",
      severity: "med",
      decision: d.citation,
      file: file.path,
      line: 1,
      message: `adds ${file.path} without a licence header, but the rule in ${citeOf(d, d.citation.line_range.start)} says new files of this kind begin with one.`,
      matched: { text: file.path, subject: "licence header", via: "path" },
    });
  }
}

/**
 * Added code lines that do what a rule names an instrument for without it (instruments.ts): an error built with `%v`
 * where the rule wraps with `%w`, `os.MkdirTemp` in a test where the rule uses `t.TempDir()`, a flag that turns off
 * a setting the rule keeps on. Code only (a comment or a doc names, it does not do); one finding per line and rule.
 */
function matchInstruments(file: ChangedFile, kind: FileKind, plan: MatchPlan, ix: ChangeIndex, out: FindingList, hit: Set<GuardDecision>): void {
  if (!plan.instrumented.length || (kind !== "code" && kind !== "config")) return;
  for (const line of file.added) {
    const text = line.text.slice(0, 2000);
    if (!text.trim() || ix.removedTexts.has(text.trim())) continue;
    const r = readLine(file.path, kind, text);
    if (r.kind !== "code" && r.kind !== "config") continue;
    const c = commentStart(file.path, text);
    const parts = splitStrings(c > 0 ? text.slice(0, c) : text);
    for (const d of plan.instrumented) {
      if (d.scope && !inArea(file.path, d.scope)) continue;
      for (const inst of d.instruments!) {
        // A setting is a flag in code or config; a verb or a call is code.
        if (inst.shape !== "setting" && inst.shape !== "flag" && kind !== "code") continue;
        const did = againstInstrument(inst, file.path, parts.code, parts.strings);
        if (!did) continue;
        hit.add(d);
        const cite = citeOf(d, inst.range.start);
        const says = inst.shape === "setting" ? `keeps ${inst.name} on` : inst.shape === "flag" ? `says never to run ${inst.name}` : `says to use ${inst.name}`;
        // A record's imperative ("Use `GitProcess.exec` even in tests") is a rule it sets: doing otherwise breaks it.
        out.push({
          kind: "breaks-rule",
          severity: SEVERITY_OF.code,
          decision: d.source === "rule" ? d.citation : { ...d.citation, line_range: inst.range },
          file: file.path,
          line: Math.max(1, line.line),
          message: `${inst.shape === "setting" ? "sets" : "uses"} ${JSON.stringify(did)}, but ${d.source === "rule" ? "the rule in " : ""}${cite} ${says}.`,
          matched: { text: did, subject: inst.name, via: "code" },
        });
        break;
      }
    }
  }
}

/** A setting whose old value named what a decision chose and whose new value does not. */
function matchSwitchedSetting(file: ChangedFile, line: ChangedLine, reading: Reading, setTo: string, plan: MatchPlan, out: FindingList, hit: Set<GuardDecision>): void {
  const now = changeTokensOf(setTo);
  for (const { d, thing } of plan.required.candidates(indexesOf(reading, ["tokens"]))) {
    if (d.scope && !inArea(file.path, d.scope)) continue;
    const found = nameIn(reading, "tokens", thing.keys);
    if (!found || findName(now, thing.keys)) continue;
    hit.add(d);
    const kindOf = droppedKind(d);
    const cite = citeOf(d, thing.range.start);
    out.push({
      kind: kindOf,
      severity: "med",
      decision: citationFor(d, thing),
      file: file.path,
      line: Math.max(1, line.at ?? line.line),
      message: `sets ${JSON.stringify(setTo.slice(0, 60))} where the line chose ${JSON.stringify(found)}, but ${d.source === "rule" ? `the rule in ${cite}` : `"${d.citation.title}" (${cite}, ${d.citation.status})`} chose ${thing.name}.`,
      matched: { text: found, subject: thing.name, via: "config" },
    });
  }
}

/** A file in an area a record decides, with no conflict found against that record: a hint to deliberate. */
function matchArea(file: ChangedFile, plan: MatchPlan, out: FindingList, hit: Set<GuardDecision>): void {
  for (const d of plan.areas) {
    if (hit.has(d) || !inArea(file.path, d.area)) continue;
    const first = file.added[0]?.line ?? file.removed[0]?.at ?? 1;
    const thing = d.required[0] ?? d.forbidden[0] ?? { name: d.citation.title, keys: { display: "", tokens: [] }, range: d.citation.line_range };
    out.push({
      kind: "touches-decided-area",
      severity: "low",
      decision: d.citation,
      file: file.path,
      line: Math.max(1, first),
      message: messageFor("touches-decided-area", "path", file.path, d, thing),
      matched: { text: file.path, subject: d.citation.title, via: "path" },
    });
  }
}

const byPath = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Why a changed file was not matched when the time ran out first. */
export const TIME_CUT = "not matched: the check's time budget ran out before this file";

/**
 * Matches a change against the decisions. Gives the event loop a turn every few milliseconds and stops at the
 * deadline: the files it did not reach are skipped with TIME_CUT, and `cut` says so (index.ts reports it).
 */
export async function matchChange(diff: ParsedDiff, set: DecisionSet, opts: MatchOptions = {}): Promise<MatchOutcome> {
  const budgetMs = opts.budgetMs ?? CHECK_TIME_BUDGET_MS;
  const pacer = new Pacer(opts.deadline ?? performance.now() + budgetMs, opts.signal);
  const skipped: { file: string; reason: string }[] = [];
  const work: { file: ChangedFile; kind: FileKind }[] = [];
  for (const file of [...diff.files].sort((a, b) => byPath(a.path, b.path))) {
    const kind = fileKind(file.path);
    const reason = skipReason(file, kind, set);
    if (reason) skipped.push({ file: file.path, reason });
    else work.push({ file, kind });
  }
  const ix = await indexChange(work, pacer);
  const addedPaths = new Set(diff.files.filter((f) => f.status === "added").map((f) => f.path));
  const out = new FindingList();
  const plan = planOf(set, diff.files.map((f) => f.path), pacer, opts.existingDirs);
  let cut: MatchCut | undefined;
  let checkedFiles = 0;
  for (const { file, kind } of work) {
    if (cut || pacer.out()) {
      cut ??= { budgetMs, unmatched: 0 };
      cut.unmatched++;
      skipped.push({ file: file.path, reason: TIME_CUT });
      continue;
    }
    checkedFiles++;
    const hit = new Set<GuardDecision>();
    matchGenerated(file, plan.generated, out, hit);
    const added = await matchAdded(file, kind, plan, ix, out, hit);
    const removed = added === undefined ? await matchRemoved(file, kind, plan, ix, out, hit) : 0;
    if (added !== undefined || removed !== undefined) {
      // Cut inside this file: what it found so far stands, the rest of its lines (and its file-level checks) wait.
      cut = { budgetMs, unmatched: 0, partial: { file: file.path, line: added ?? removed ?? 0 } };
      continue;
    }
    matchInstruments(file, kind, plan, ix, out, hit);
    matchTurnedBackOn(file, kind, plan, out, hit);
    matchDroppedVersions(file, kind, plan, out, hit);
    matchShapes(file, kind, plan, out, hit);
    matchNewFilePath(file, kind, plan, out, hit);
    matchHeader(file, plan, out, hit);
    matchReservedRights(file, plan, out, hit);
    matchBoundary(file, plan, out, hit);
    matchNewFileKind(file, kind, plan.kinds, out, hit);
    if (opts.folderFiles) matchGoneAround(file, plan, { folderFiles: opts.folderFiles, added: addedPaths }, out, hit);
    matchArea(file, plan, out, hit);
  }
  const findings = out.findings.sort(
    (a, b) =>
      SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] ||
      byPath(a.file, b.file) ||
      a.line - b.line ||
      KIND_RANK[a.kind] - KIND_RANK[b.kind] ||
      byPath(a.decision.path, b.decision.path) ||
      a.decision.line_range.start - b.decision.line_range.start,
  );
  return { findings, skipped, checkedFiles, ...(cut ? { cut } : {}) };
}
