// The decisions a change is checked against, each with what it turned down and what it keeps:
//   - in-force records: read through the decision model (decisions/), out of force when their status says so or
//     when a later record supersedes them (the docs expert's supersession graph, explicit and inferred links);
//   - rules in agent instructions and contribution guides: "do not use X", "never use X", "avoid X",
//     "use Y instead of X", "prefer Y over X" (X forbidden), "always use Y" (Y kept);
//   - picked receipts in `.deliberations/`: the picked option kept, the others turned down; only a receipt whose
//     signature verifies with a trusted key (your own, or one in `.deliberations/allowed_signers`) and whose evidence
//     is intact counts: anyone can write a receipt file, so an unsigned or foreign one decides nothing.
// Discovery is the one the deliberation pipeline uses (with its corpus snapshot), so both read the same records.
import { existsSync, readFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { INACTIVE_ADR_STATUSES, UNDECIDABLE } from "../constants";
import { isInside } from "../contain";
import { resolveConfig } from "../config";
import { decisionModelOf, type DecisionRecord } from "../decisions";
import { parseAdr, type ParsedAdr } from "../internal/adr";
import { discoverWithSnapshot } from "../internal/corpus/discovery";
import type { CorpusCacheOptions } from "../internal/corpus/store";
import { mentionedPaths } from "../internal/discovery";
import { splitRules, supersessionEdgesOf } from "../internal/docsExpert";
import { withIndexStatus } from "../internal/indexStatus";
import { runGit } from "./changeGit";
import { guideRuleText, linkedGuidePaths, readGuides } from "./guides";
import { stripInline } from "../internal/markdown";
import { trustViewOf } from "../receipts/readerTrust";
import { DEFAULT_RECEIPTS_DIR, listReceipts, verifyEntry } from "../receipts/store";
import { readAllowedSigners } from "../receipts/trust";
import type { LineRange } from "../schemas";
import type { ArtifactFile, ArtifactSet, DeliberationConfig } from "../types";
import { acronymOf, GENERIC_PURPOSES, inPassing, isVendor, keysOf, LEADING_WORDS, tokenSet, tokensOf, vendorProductKeys, type NameKeys } from "./names";
import { knownPackagesOf, membersOfKind, peerExclusions, purposeEvidenceOf, recordPeerExclusions, withoutPeersNamedElsewhere } from "./peers";
import { describedNames, namedOption, slugChoice, sharedOptionWords, ungroupedOptions } from "./optionGroups";
import { refineOptions, withoutOverruled, type LineOption } from "./optionLines";
import { decisionSentencesOf, familyWords, lowerCaseWords, namesIn, ordinaryWords, proseOptionsOf } from "./proseOptions";
import { categoryExclusions, labelledPurposes, purposeExclusions } from "./purposeRules";
import { schemesChosenIn, type VersionScheme } from "./centralVersions";
import { ciSystemNamed, ciSystemsNamedIn, languageNamed } from "./newFiles";
import { forbiddenExamples, forbiddenKinds, inConsequences, ownedThing, withVerdicts } from "./recordReading";
import { numberedOptions, recordPreferences, type PreferredThing } from "./recordPreferences";
import { nondeterminismExclusions } from "./determinism";
import { practiceExclusions } from "./practices";
import { instrumentsOf, type Instrument } from "./instruments";
import { headerRuleOf, takesOpenContributions, type HeaderRule } from "./fileHeaders";
import { cachedDecisionBasis } from "./basisCache";
import { cachedRecordDecisions, type RecordDecisions } from "./recordCache";
import { implementationRepositories, optionRepositories } from "./repositoryLinks";
import { addPairedRemovals } from "./pairedRemovals";
import { proposedDeclarations } from "./proposedCode";
import { boundaryOf, type ModuleBoundary } from "./moduleBoundaries";
import type { DecisionCitation } from "./schema";

export interface DecidedThing {
  /** The option or rule subject as the decision names it. */
  name: string;
  keys: NameKeys;
  /** Where the decision says it (the option's line, the rule's lines). */
  range: LineRange;
  /** Why it was turned down, in the decision's words, when it says. */
  reason?: string;
  /** A rule about imports ("never imports X"): only an import or a dependency breaks it. */
  importsOnly?: boolean;
  /** With importsOnly: a container image that names it brings it in too (`mcr.microsoft.com/mssql/server`). */
  imagesToo?: boolean;
  /** A thing known only by its purpose's word (purposeRules.ts): only a newly added dependency brings it in. */
  dependencyOnly?: boolean;
  /** A well-known peer a rule turns down (peers.ts): its purpose and the members the rule named for it. */
  peer?: { purpose: number; named: string[] };
  /** Turned down for one use ("provisioned EC2 databases"): outside dependencies and imports, the changed file must show that use by one of these words (peers.ts). */
  purposeEvidence?: string[];
  /** A rule about prose ("do not use X in human-readable text"): only documentation and comments break it. */
  textOnly?: boolean;
  /** A language too common a word to find in lines ("Java"): only a new source file in it brings it in (newFiles.ts). */
  languageOnly?: boolean;
  /** Written as code by the record (`js-failed`): inside a changed line's string literal it is used, not mentioned. */
  identifier?: boolean;
  /** A source of nondeterminism (determinism.ts): only code outside tests reads it against the rule. */
  notInTests?: boolean;
  /** What a project "will not contain" ("packaging or distribution scripts"): only a new file's path brings it in. */
  pathOnly?: boolean;
  /** A practice kept out of code (practices.ts: raw SQL, default exports): doing it breaks a rule, whoever set it. */
  practice?: boolean;
  /** A practice seen in the shape of a code line, not in its words (a top-level `var`): a regular expression's source. */
  codeShape?: string;
  /** The shape is read in the whole code line, strings and struct tags too (a flag's or a key's name). */
  shapeInStrings?: boolean;
  /** A feature a title took out of the project ("Deprecated gossip clustering …"): a flag or command that names it brings it back. */
  feature?: boolean;
  /**
   * A module path the record also writes deeper as the way to go (`sentry.models` beside `sentry.models.user`): only
   * an import of that module itself brings it in, not one of its submodules.
   */
  wholeModule?: boolean;
}

export interface GuardDecision {
  source: "record" | "rule" | "receipt";
  citation: DecisionCitation;
  /** What the decision turned down or forbids: a change that brings it in conflicts. */
  forbidden: DecidedThing[];
  /** What the decision chose or requires: a change that drops it conflicts. */
  required: DecidedThing[];
  /** The chosen option's name, for messages. */
  chosen?: string;
  /** Repository paths the record names (its decided area). */
  area: string[];
  /** A rule about part of the repository ("`src/core/` never imports `vscode`"): only files under these paths. */
  scope?: string[];
  /** Where dependency versions are kept, when the decision chose one place (centralVersions.ts). */
  versionSchemes?: VersionScheme[];
  /** Files a rule says are generated and not to be edited by hand (globs such as `*.pb.go`): editing one breaks it. */
  generated?: string[];
  /** What a rule says to do with (`%w`, `t.TempDir()` in tests, a setting kept on): doing it otherwise breaks it (instruments.ts). */
  instruments?: Instrument[];
  /** The rule takes contributions under an open licence or into the public domain: a new file reserving its rights breaks it. */
  openContributions?: boolean;
  /** The files a rule says must begin with a licence header: a new one without it breaks it (fileHeaders.ts). */
  header?: HeaderRule;
  /** A kind of module a rule keeps private to its own module (moduleBoundaries.ts): depending on another's breaks it. */
  boundary?: ModuleBoundary;
  /** CI systems a record that chose one names besides it: the ones it weighed or moved away from. */
  ciWeighed?: string[][];
  /** A behaviour a record's title turns off ("Disable fetch on focus"), by the words a flag for it is named with. */
  keptOff?: { name: string; words: string[] };
  /** Versions a title dropped support for ("Drop support for Node.js 14.x and 15.x"): the runtime's word and the majors. */
  droppedVersions?: { name: string; runtime: string; majors: number[] };
}

export interface DecisionSet {
  decisions: GuardDecision[];
  /** Paths that are decisions themselves: a mention inside one is not a finding. */
  recordPaths: Set<string>;
  notes: string[];
}

/** A choice that takes something out rather than bringing something in. */
const REMOVAL = /^(?:remove|removing|drop|dropping|delete|deleting|retire|retiring|get\s+rid\s+of|phase\s+out|stop\s+using|deprecate|deprecating)\b/i;
/**
 * "deprecating the separate `Checkpoints` CRD and using Steps to …": a chosen option that deprecates a thing
 * turns it down. The thing is what follows the verb up to the next clause; a trailing kind word ("CRD") is dropped.
 */
const DEPRECATING = /^(?:deprecate|deprecating)\s+(?:the\s+|our\s+|its\s+)?(?:separate\s+|existing\s+|current\s+|old\s+|legacy\s+)?(.{2,60}?)(?:\s+(?:and|in\s+favou?r\s+of|with)\s+|[,;.]|$)/i;
const KIND_TAIL = /\s+(?:CRDs?|custom\s+resources?|resources?|types?|kinds?|fields?|APIs?|objects?)$/i;
const MAX_RULE_LINES = 3000;
/** Rules read from one instruction file at most: a real one has tens; past this it is generated text. */
const MAX_RULES_PER_FILE = 400;
/** An option name longer than this is prose the record reader took for an option. */
const MAX_OPTION_WORDS = 12;
const MAX_RULE_CHARS = 400;
const MAX_RECEIPTS = 500;
/** Paths a record names, kept before the working tree is asked which exist (50 of those are used). */
const MAX_AREA_CANDIDATES = 400;

function shorten(s: string, max: number): string {
  const t = s.replace(/\s+/g, " ").trim();
  return t.length <= max ? t : `${t.slice(0, max - 1).replace(/\s+\S*$/, "")}…`;
}

// ----- records -----

/** A record's decision; its `area` lists every path the record names, before the working tree says which exist. */
function recordDecision(file: ArtifactFile, modelRead: DecisionRecord, status: string, adr?: ParsedAdr, inForce = true): GuardDecision | undefined {
  // The decision section's own verdicts outrank an outcome read from the first option it names (recordReading.ts).
  const model = adr ? withVerdicts(adr, modelRead) : modelRead;
  // Options weighed outside an option list (prose, headings, a short list, a replacing title): proseOptions.ts.
  const read = adr ? proseOptionsOf(adr, model.chosen?.name) : { rejected: [], chosen: [] };
  // The option list as the record's lines write it: names in links and code spans, no URLs, the title's choice.
  const fileLines = file.text.split("\n", 20_000);
  const refined = refineOptions(model, fileLines, MAX_OPTION_WORDS);
  // A list of what follows from the choice ("### Advantages") holds no options; an option named as someone's
  // ("GitHub's repository explorer") is the thing after the possessive.
  // Words three or more listed options share ("… per Tenant") say what they are ways of doing, not which one.
  const listed = listedOptions(refined, fileLines, model.chosen?.name ?? refined.chosen[0]?.name, adr);
  // The option list's own chosen option, when it names a thing, outranks what the prose seems to choose.
  const listChoiceNames = !!model.chosen && !!keysOf(model.chosen.name);
  // An option the prose chose from a group it turned the rest of down ("`ruff` is the recommended tool" over pylint
  // and flake8) is kept as well: the title's choice ("Use Code Linters …") names the subject, not the winner.
  // "No message queue (RabbitMQ or otherwise) shall be used" turns the examples down.
  const examples = adr ? forbiddenExamples(adr) : [];
  // "Use Typescript over Proptypes", "Continue using Bootstrap", "We will use [A] in combination with [B] and [C]".
  const prefs = adr ? recordPreferences(adr) : { chosen: [], rejected: [] };
  // "### 3. Implement …" under a decision that took "option 2": option 3's own identifiers (`js-failed`).
  const numbered = adr ? numberedOptions(adr) : [];
  const prose = { rejected: [...read.rejected.map((r) => ({ ...r, name: ownedThing(r.name) })), ...examples], chosen: listChoiceNames ? read.chosen.filter((c) => c.group !== undefined && c.decidesGroup) : read.chosen };
  // A choice to take something out ("Remove all dependencies on postgres") keeps nothing: what it names is no chosen thing.
  // "port Content Store from its current … MongoDB, to PostgreSQL": the move chose where it goes, not where it left.
  const { chosen: modelChosen, left } = afterMove(model.chosen && !REMOVAL.test(model.chosen.name.trim()) ? model.chosen : undefined);
  const chosenName = (listChoiceNames && modelChosen ? modelChosen.name : undefined) ?? listed.chosen[0]?.name ?? modelChosen?.name ?? prose.chosen[0]?.name;
  const rejectedWords = tokenSet([...listed.rejected, ...prose.rejected].map((r) => r.name));
  // The title usually names what was chosen ("Use SLF4J together with log4j2"), even when no option line says so;
  // a replacing title ("Replace JCloud with the S3 SDK") names the rejected one too, so only its chosen part counts.
  const titleRejects = prose.rejected.filter((r) => r.range.start === 1 && r.reason === model.title.trim()).map((r) => r.name);
  const title = titleRejects.reduce((t, r) => t.replace(r, " "), model.title);
  // A file name that states the choice ("use-did-urls-to-reference-resources") names it as a title does.
  const chosenWords = tokenSet([keptPartOfTitle(chosenName, titleRejects, model.title, title) ?? "", ...prose.chosen.map((c) => c.name), title, slugChoice(file.path) ?? ""]);
  const forbidden: DecidedThing[] = [];
  const proseRejected = prose.rejected.filter((p) => !listed.rejected.some((r) => r.name === p.name));
  const lower = lowerCaseWords(fileLines);
  for (const listedOrProse of [...listed.rejected, ...proseRejected]) {
    const inProse = proseRejected.includes(listedOrProse as (typeof proseRejected)[number]);
    // A sentence the reader took for an option ("Once we find out that we can not live with jOOQ …") names no option.
    // "Schema per Tenant": an isolation pattern, seen in code that creates such a thing under a computed name.
    const perUnit = inProse ? undefined : perUnitShape(listedOrProse.name);
    if (perUnit) forbidden.push({ name: listedOrProse.name.split(/\s+[-–—:(]\s*/)[0].trim(), keys: { display: listedOrProse.name.trim(), tokens: [] }, range: listedOrProse.range, codeShape: perUnit, shapeInStrings: true });
    const r = namedOption(listedOrProse, MAX_OPTION_WORDS);
    if (!r || ofChosenVersion(r.name, chosenWords)) continue;
    const fromProse = "common" in r || inProse;
    const common: string[] = "common" in r && Array.isArray(r.common) ? r.common : [];
    let keys = optionKeys(r.name, chosenWords, common, fromProse ? new Set() : listed.shared) ?? (fromProse ? undefined : markedOnItemLine(r.name, fileLines[r.range.start - 1] ?? "", chosenWords));
    // A listed option of several words keys by its words that name a thing: "Secrets Store CSI driver" is the CSI
    // driver, not every line about secrets, when the record writes "secrets" in lower case too. With no such word
    // left, all its words must be there.
    // "Docker Swarm" where the record also writes "Docker containers": the first word names a family of things, and
    // the option is the Swarm, not every line about Docker.
    const ordinary = !fromProse && keys && !keys.exact && r.name.trim().split(/\s+/).length > 1 ? [...ordinaryWords(r.name, lower), ...familyWords(r.name, file.text)] : [];
    if (keys && ordinary.some((t) => keys!.tokens.includes(t))) {
      const named = keysOf(r.name, new Set([...chosenWords, ...ordinary]));
      keys = named && named.tokens.length ? named : { ...keys, all: true };
    }
    if (keys) keys = asWritten(keys, r, inProse, file.text);
    // "AWS Instance Scheduler" where the record writes "instance" as an ordinary word: the vendor and the product's
    // capitalised words together, not "scheduler" alone.
    const vendor = keys && !keys.exact ? vendorProductKeys(r.name) : undefined;
    if (keys && vendor && vendor.product.some((t) => !keys!.tokens.includes(t) && !GENERIC_PURPOSES.has(t))) keys = vendor.keys;
    // "use OpenAPI tools (… server stub for Akka …)" beside a chosen option that uses OpenAPI tools too: the head names
    // nothing of its own, so the names its description gives are what was turned down.
    const headless = !keys || (!!keys.exact && keys.exact.every((t) => chosenWords.has(t)));
    if (headless && !fromProse) addHeadlessNames(forbidden, listedOrProse, r.name, fileLines, chosenWords);
    // A package path the chosen option names too ("org.x.model uses only org.x.model" vs "org.x.model may use …") is the subject, not the rejected thing.
    if (keys?.exact && keys.exact.every((t) => chosenWords.has(t))) continue;
    // "Using PHPUnit for the feature coverage": turned down for that purpose only; a new dependency on it is still news.
    // "Deprecated gossip clustering in favor of File SD": what a title takes out was the project's own feature.
    const feature = r.reason === model.title && TAKES_OUT_TITLE.test(model.title);
    if (keys) forbidden.push({ name: r.name, keys, range: r.range, ...(r.reason ? { reason: shorten(stripInline(r.reason), 200) } : {}), ...(FOR_A_PURPOSE.test(r.name) ? { dependencyOnly: true } : {}), ...(feature ? { feature } : {}), ...forOneUse(r.name, keys) });
    // "Switch from Java to Kotlin": a language's name is too common a word for lines, not for a new file's language.
    const language = keys ? undefined : languageNamed(r.name);
    if (language) forbidden.push({ name: r.name, keys: { display: r.name, tokens: [language] }, range: r.range, languageOnly: true, ...(r.reason ? { reason: shorten(stripInline(r.reason), 200) } : {}) });
  }
  addTurnedDown(forbidden, prefs, numbered, chosenWords);
  if (left) addLeftBehind(forbidden, left, chosenWords);
  if (adr) for (const x of [...contentExclusions(adr), ...droppedParts(adr), ...(inForce ? [...removedFiles(fileLines), ...droppedComponents(adr), ...deprecatedByChoice(model.chosen)] : [])]) if (!forbidden.some((f) => f.name === x.name)) forbidden.push(x);
  if (adr) addKnownOtherwise(forbidden, adr, [...listed.rejected, ...proseRejected], file.text);
  // What the prose chose beside an outcome that names no thing ("Use an existing visualisation library" … "settled
  // upon D3") is the choice whose peers are turned down as well.
  const choices = [...new Set([...(chosenName ? [chosenName] : []), ...prose.chosen.map((c) => c.name)])].join(". ") || undefined;
  if (inForce) addInForceExclusions(forbidden, adr, { title, fullTitle: model.title }, choices, modelChosen?.range);
  // The chosen option, and the ones the prose chose ("will use a third-party service, Auth0" names Auth0).
  const required = chosenThings([...(modelChosen ? [{ name: modelChosen.name, range: modelChosen.range }] : []), ...listed.chosen, ...prose.chosen], rejectedWords);
  addPreferred(required, forbidden, prefs.chosen);
  addTitleTools(required, forbidden, title, rejectedWords);
  if (inForce) addOtherVersions(forbidden, required, file.text);
  const head = file.text.slice(0, 100_000);
  // Folders in code spans ("`src/db/`") as well as the paths discovery reads from a doc.
  const folders = [...head.matchAll(/`([\w@.-]{1,80}(?:\/[\w@.-]{1,80}){0,8}\/)`/g)].map((m) => m[1].replace(/^\.\//, ""));
  // A module the record names in a code span ("a `build-plugin` module"): a top-level path of that name, when one exists.
  const named = [...head.matchAll(/`([\w@][\w@.-]{1,79})`/g)].map((m) => m[1]).filter((p) => /[a-z]/.test(p) && !/^\.|\.$/.test(p));
  const area = [...[...mentionedPaths(head, file.path), ...folders].filter((p) => /\//.test(p)), ...named].filter((p) => p !== file.path && !/\.(md|markdown)$/i.test(p) && !p.startsWith("../"));
  // "Utilizing the Gradle Version Catalog to centrally manage … all dependencies": a module pinning its own is a bypass.
  const versionSchemes = schemesChosenIn(decisionText(model, file.text));
  // "Use `GitProcess.exec` even in tests": the decision's own imperative names how to do it (instruments.ts).
  const instruments = adr ? recordInstruments(adr, file.text) : [];
  const [keptOff, droppedVersions] = inForce ? [keptOffByTitle(model.title), droppedVersionsByTitle(model.title)] : [];
  if (!forbidden.length && !required.length && !area.length && !versionSchemes.length && !instruments.length && !keptOff && !droppedVersions) return undefined;
  const lines = file.text.split("\n").length;
  // A record that chose a CI system and names others ("legacy Travis CI infrastructure") weighed them or left them.
  const ciChosen = required.map((r) => ciSystemNamed(r.keys)).filter((x): x is string[] => !!x);
  const ciWeighed = ciChosen.length ? ciSystemsNamedIn(file.text).filter((s) => !ciChosen.some((c) => c.join(" ") === s.join(" "))) : [];
  return {
    source: "record",
    citation: { path: file.path, line_range: { start: 1, end: Math.max(1, lines) }, title: model.title, status },
    forbidden,
    required,
    ...(chosenName ? { chosen: chosenName } : {}),
    area: [...new Set(area)].slice(0, MAX_AREA_CANDIDATES),
    ...(versionSchemes.length ? { versionSchemes } : {}),
    ...(instruments.length ? { instruments } : {}),
    ...(ciWeighed.length ? { ciWeighed } : {}),
    ...(keptOff ? { keptOff } : {}),
    ...(droppedVersions ? { droppedVersions } : {}),
  };
}

/**
 * The code span a list item's line opens with, right after its verb ("1. Using [`fast-loader`](…) to read …"), when the
 * option's name writes it as a word of its own: the thing the item would use. A span further on ("Using rsync in
 * `WidgetRef`") is where it would be used, not what.
 */
export function markedOnItemLine(name: string, line: string, chosenWords: Set<string>): NameKeys | undefined {
  const m = /^\s*(?:[-*+]|\d{1,3}[.)])\s+(?:\*\*)?(?:using|use|adopting|adopt|with|via)\s+\[?`([^`\s]{3,60})`/i.exec(line.slice(0, 600));
  if (!m) return undefined;
  const span = m[1].replace(/\(\)$/, "");
  const words = new Set(name.toLowerCase().split(/[^a-z0-9@/._-]+/).filter(Boolean));
  if (!words.has(span.toLowerCase())) return undefined;
  const keys = keysOf(`\`${span}\``, chosenWords);
  return keys && (keys.exact?.length || keys.tokens.length) ? keys : undefined;
}

/** A choice read from the title itself ("Runner Class Replacing OldEngine") chose only the title's kept part. */
function keptPartOfTitle(chosenName: string | undefined, titleRejects: string[], fullTitle: string, kept: string): string | undefined {
  return chosenName && titleRejects.length && stripInline(chosenName).trim() === stripInline(fullTitle).trim() ? kept : chosenName;
}

/** What a chosen option deprecates ("deprecating the separate `Checkpoints` CRD and using …"), turned down. */
function deprecatedByChoice(chosen: { name: string; range: LineRange } | undefined): DecidedThing[] {
  const deprecated = chosen ? DEPRECATING.exec(stripInline(chosen.name).trim()) : null;
  if (!chosen || !deprecated) return [];
  const thing = deprecated[1].replace(/[`*_]/g, "").replace(KIND_TAIL, "").trim();
  // The title ("Checkpoints Beta") names the subject the record deprecates, so its words are not the chosen side's here.
  const keys = keysOf(thing);
  return keys && (keys.exact?.length || keys.tokens.length) ? [{ name: thing, keys, range: chosen.range, reason: shorten(stripInline(chosen.name), 200) }] : [];
}

/** Each name a rejected option's description gives, keyed apart from the chosen side's words. */
function addDescribedNames(forbidden: DecidedThing[], option: { name: string; range: LineRange }, chosenWords: Set<string>): void {
  for (const name of describedNames(option.name)) {
    const keys = keysOf(name, chosenWords);
    if (!keys || (!keys.exact && !keys.tokens.length) || forbidden.some((f) => f.keys.display === keys.display)) continue;
    forbidden.push({ name, keys, range: option.range, reason: shorten(stripInline(option.name), 200) });
  }
}

/**
 * A turned-down option whose own name keys nothing: the names its description gives ("use OpenAPI tools (… Akka …)"),
 * when the name as read dropped them, and the implementation its body offers as the example.
 */
function addHeadlessNames(forbidden: DecidedThing[], option: { name: string; range: LineRange }, readName: string, lines: string[], chosenWords: Set<string>): void {
  if (readName !== option.name) addDescribedNames(forbidden, option, chosenWords);
  addExampleImplementations(forbidden, option, lines, chosenWords);
}

/** "… or we could deploy an existing open source implementation such as Confluent schema registry." */
const EXAMPLE_IMPLEMENTATION = /\b(?:implementations?|products?|tools?|services?|librar(?:y|ies)|solutions?)\s+(?:such\s+as|like|e\.\s?g\.,?)\s+([A-Z][\w.-]{1,40}(?:\s+[A-Za-z][\w.-]{1,40}){0,3})/;

/**
 * A turned-down option whose own name keys nothing ("Deploy a separate service") is known by the implementation its
 * body offers as the example of it ("an existing open source implementation such as Confluent schema registry"): all
 * of that name's words, so its vendor's other products ("confluent-kafka") stay allowed.
 */
function addExampleImplementations(forbidden: DecidedThing[], option: { name: string; range: LineRange }, lines: string[], chosenWords: Set<string>): void {
  const body = lines.slice(option.range.start, Math.min(option.range.end, option.range.start + 40)).filter((l) => !/^\s*(?:```|~~~|#)/.test(l)).join(" ");
  const m = EXAMPLE_IMPLEMENTATION.exec(body.slice(0, 6000));
  if (!m) return;
  const name = m[1].replace(/[.,;:]+$/, "").trim();
  const words = tokensOf(name);
  if (words.length < 1 || words.every((w) => chosenWords.has(w)) || forbidden.some((f) => f.name === name)) return;
  const keys = words.length === 1 ? keysOf(name, chosenWords) : { display: name, tokens: words, all: true };
  if (keys && (keys.exact?.length || keys.tokens.length)) forbidden.push({ name, keys, range: option.range, reason: shorten(stripInline(option.name), 200) });
}

/**
 * "WebGL Canvas" beside a chosen "WebGL1": an option that names the chosen thing without a version of its own is the
 * chosen technology, of which the decision took one version ("Python 2" beside "Python3" is another version).
 */
function ofChosenVersion(name: string, chosenWords: ReadonlySet<string>): boolean {
  const stems = new Set([...chosenWords].map((w) => /^([a-z]{3,20})\d{1,2}$/.exec(w)?.[1]).filter((w): w is string => !!w));
  if (!stems.size) return false;
  const words = tokensOf(name);
  return words.some((w) => stems.has(w)) && !words.some((w) => /\d/.test(w));
}

/** "Schema per Tenant", "Database per Customer": one store object for each unit of isolation. */
const PER_UNIT = /^\s*(?:a\s+|one\s+)?(schema|table|database|db|keyspace|bucket|queue|topic|index)s?\s+(?:per|for\s+each|for\s+every)\s+(?:tenant|customer|client|account|organi[sz]ation|wallet|user|project|team|workspace)s?\b/i;
/** Each kind's SQL keyword, when a statement creates it, and the word a create call names it by. */
const CREATES: Record<string, { sql?: string; call: string }> = {
  schema: { sql: "schema", call: "schema" },
  table: { sql: "table", call: "table" },
  database: { sql: "database", call: "database" },
  db: { sql: "database", call: "database" },
  keyspace: { sql: "keyspace", call: "keyspace" },
  bucket: { call: "bucket" },
  queue: { call: "queue" },
  topic: { call: "topic" },
  index: { sql: "index", call: "index" },
};

/**
 * The code shape of a rejected "X per Tenant" option: a line that creates an X and builds its name from a value
 * (`${id}`, `+ id`, `%s`, `{}`, `++`), since a fixed name is one shared X, the pattern the record chose instead.
 */
function perUnitShape(name: string): string | undefined {
  const m = PER_UNIT.exec(name.replace(/[`*_]/g, "").slice(0, 200));
  if (!m) return undefined;
  const { sql, call } = CREATES[m[1].toLowerCase()];
  const statement = sql ? `\\b(?:CREATE|create)\\s+(?:${sql.toUpperCase()}|${sql})\\b|` : "";
  const creates = `${statement}\\bcreate_?[${call[0].toUpperCase()}${call[0]}]${call.slice(1)}\\s*\\(`;
  return `(?:${creates})[^\\n]{0,200}?(?:\\$\\{|\\$[A-Za-z_]|\\+\\+|\\+\\s*[A-Za-z_]|%s|\\{\\}|\\.format\\()`;
}

/** "Disable fetch on focus", "Turn off autosave": a title that switches a behaviour off and keeps it off. */
const TURNS_OFF_TITLE = /^\W*(?:\d+[.:]?\s+)?(?:disable|disabling|turn\s+off|switch\s+off)\s+(?:the\s+)?([A-Za-z][\w\s-]{2,50}?)\s*$/i;

/** Words of a behaviour's name that say nothing of which flag it is. */
const OFF_FILLER = new Set(["the", "and", "for", "all", "any", "default", "defaults", "by", "behaviour", "behavior", "feature", "option", "setting", "settings"]);

/** The behaviour a title turns off, by one to three words a flag for it is named with ("fetch", "focus"). */
function keptOffByTitle(title: string): { name: string; words: string[] } | undefined {
  const m = TURNS_OFF_TITLE.exec(title.trim());
  if (!m) return undefined;
  const words = m[1].toLowerCase().split(/[^a-z0-9]+/).filter((w) => w.length >= 3 && !OFF_FILLER.has(w));
  return words.length >= 1 && words.length <= 3 ? { name: m[1].trim(), words } : undefined;
}

/** "Drop support for Node.js 14.x and 15.x", "Remove support for Python 3.7": versions of a runtime a title lets go. */
const DROPS_VERSIONS_TITLE = /^\W*(?:(?:[A-Za-z]{2,8}[- ]?)?\d{1,5}\s*[:.]?\s+)?(?:drop|dropping|remove|removing|end)\s+(?:supports?\s+(?:for|of)\s+)?([A-Za-z][\w.+#-]{1,30})\s+(v?\d+(?:\.(?:\d+|x))*(?:\s*(?:,|and|&)\s*v?\d+(?:\.(?:\d+|x))*){0,5})(?:\s+support)?\s*$/i;

/** The runtime and the major versions a title drops support for; undefined for any other title. */
export function droppedVersionsByTitle(title: string): { name: string; runtime: string; majors: number[] } | undefined {
  const m = DROPS_VERSIONS_TITLE.exec(stripInline(title).trim());
  if (!m) return undefined;
  // "Node.js" is `node` in a manifest or an image name; "Python" is `python`.
  const runtime = tokensOf(m[1].replace(/\.js$/i, ""))[0];
  const majors = [...m[2].matchAll(/v?(\d+)/g)].map((x) => Number(x[1])).filter((n, i, all) => all.indexOf(n) === i);
  // A version list is how a title names what goes; a version alone is read only with the runtime's own word.
  if (!runtime || runtime.length < 2 || !majors.length) return undefined;
  return { name: `${m[1]} ${m[2]}`, runtime, majors };
}

/** A title that takes something out of the project ("Deprecated gossip clustering …", "Remove X", "Drop X"). */
const TAKES_OUT_TITLE = /^\W*(?:\d+[.:]?\s+)?(?:deprecat\w*|remov\w*|drop\w*)\s/i;

/** An option that uses a thing for a purpose ("Using PHPUnit for the feature coverage"), not the thing itself. */
const FOR_A_PURPOSE = /^(?:using|use)\s+(?:the\s+|an?\s+)?[\w.@/-]+(?:\s+[\w.@/-]+)?\s+for\s+(?:the\s+|our\s+|an?\s+)?[a-z]/i;

/** A move's verb, then what moves, "from" where it was, "to" where it goes ("port X from MongoDB to PostgreSQL"). */
const MOVED_FROM_TO = /^(?:port|porting|migrate|migrating|move|moving|switch|switching|transition|transitioning)\b[^.;]{0,80}?\bfrom\s+([^.;]{2,100}?),?\s+(?:to|onto|into)\s+([^.;]{2,120})$/i;

type Chosen = { name: string; range: LineRange };

/** A chosen move as where it goes (the choice) and what it leaves behind, with the sentence; other choices as they are. */
function afterMove<T extends Chosen>(chosen: T | undefined): { chosen: T | undefined; left?: { from: string; range: LineRange; reason: string } } {
  const m = chosen ? MOVED_FROM_TO.exec(chosen.name.trim()) : null;
  if (!chosen || !m) return { chosen };
  return { chosen: { ...chosen, name: m[2].trim() }, left: { from: m[1].trim(), range: chosen.range, reason: shorten(stripInline(chosen.name), 200) } };
}

/** What a move left behind, turned down by its own words (never the chosen side's). */
function addLeftBehind(forbidden: DecidedThing[], left: { from: string; range: LineRange; reason: string }, chosenWords: Set<string>): void {
  const keys = keysOf(left.from, chosenWords);
  if (keys && !forbidden.some((f) => f.keys.display === keys.display)) forbidden.push({ name: left.from, keys, range: left.range, reason: left.reason });
}

/** The chosen options as things, each keyed by its name (and its acronym), none by a rejected option's words. */
function chosenThings(chosenOnes: { name: string; range: LineRange }[], rejectedWords: Set<string>): DecidedThing[] {
  const required: DecidedThing[] = [];
  for (const c of chosenOnes) {
    let keys = keysOf(c.name, rejectedWords, { shortNames: true });
    // "Java Native Access" is required as `jna` too: a dropped `com.sun.jna` module drops it.
    const acronym = acronymOf(c.name);
    // The acronym keys it alone: the full name's words in a row ("java native access") are its compact form.
    if (acronym && !rejectedWords.has(acronym)) {
      const { exact: _words, ...rest } = keys ?? { display: c.name.trim(), tokens: [] };
      keys = { ...rest, tokens: [...new Set([...rest.tokens, acronym])].sort() };
    }
    if (keys && !keys.exact && !keys.tokens.length) keys = undefined;
    if (keys && !required.some((r) => r.keys.display === keys!.display)) required.push({ name: c.name, keys, range: c.range });
  }
  return required;
}

/**
 * "Browsers do not yet support WebGL2 reliably, so WebGL1 is chosen" / "Use WebGL1": a chosen name that ends in its
 * version (`WebGL1`, `Python3`) sets aside the other versions of that name the record writes (`WebGL2`), each known
 * by its own word. Only a name of at least three letters before a one- or two-digit version, written as one word.
 */
function addOtherVersions(forbidden: DecidedThing[], required: DecidedThing[], text: string): void {
  const chosen = new Map<string, string>();
  for (const r of required) {
    for (const t of r.keys.tokens) {
      const m = /^([a-z]{3,20})(\d{1,2})$/.exec(t);
      if (m) chosen.set(m[1], m[2]);
    }
  }
  if (!chosen.size) return;
  const lines = text.slice(0, 100_000).split("\n");
  const seen = new Set(forbidden.flatMap((f) => f.keys.tokens));
  lines.forEach((line, i) => {
    for (const m of line.matchAll(/\b([A-Za-z]{3,20})(\d{1,2})\b/g)) {
      const version = chosen.get(m[1].toLowerCase());
      const word = m[0].toLowerCase();
      if (version === undefined || version === m[2] || seen.has(word)) continue;
      seen.add(word);
      forbidden.push({ name: m[0], keys: { display: m[0], tokens: [word] }, range: { start: i + 1, end: i + 1 }, reason: shorten(stripInline(line.trim()), 200) });
    }
  });
}

/**
 * The record's option list as its lines write it, each heading that groups options replaced by its items, with the
 * words three or more of them share. A list of what follows from the choice ("### Advantages") holds no options; an
 * option named as someone's ("GitHub's repository explorer") is the thing after the possessive.
 */
function listedOptions(refined: { rejected: LineOption[]; chosen: LineOption[] }, lines: string[], chosen: string | undefined, adr: ParsedAdr | undefined) {
  const rejected = ungroupedOptions(refined.rejected, lines, chosen)
    .filter((r) => !adr || !inConsequences(adr, r.range.start))
    .map((r) => ({ ...r, name: ownedThing(r.name) }));
  return { chosen: refined.chosen, rejected, shared: sharedOptionWords([...rejected, ...refined.chosen].map((r) => r.name)) };
}

/**
 * A rejected option's keys: never the chosen side's words, nor what prose options (`common`) or listed siblings
 * (`shared`) have in common — unless that leaves only a vendor's word ("Use AWS Systems Manager").
 */
function optionKeys(name: string, chosenWords: Set<string>, common: string[], shared: Set<string>): NameKeys | undefined {
  const keys = keysOf(name, common.length || shared.size ? new Set([...chosenWords, ...common, ...shared]) : chosenWords);
  if (shared.size && keys && !keys.exact && keys.tokens.every((t) => isVendor(t))) return keysOf(name, common.length ? new Set([...chosenWords, ...common]) : chosenWords);
  return keys;
}

/**
 * "### Option 1 - Use a third party Lambda" whose section links the Lambda's repository: the option is known by that
 * repository (repositoryLinks.ts), used where a line names it (a module source, an import path).
 */
function addLinkedRepositories(forbidden: DecidedThing[], adr: ParsedAdr, rejected: { name: string; range: LineRange }[], text: string): void {
  const lines = text.split("\n", 20_000);
  for (const r of rejected) {
    for (const repo of [...optionRepositories(adr, r.range.start, lines), ...implementationRepositories(lines, r.name)]) {
      if (!forbidden.some((f) => f.keys.display === repo.keys.display)) forbidden.push({ name: `${r.name} (${repo.name})`, keys: repo.keys, range: r.range, identifier: true });
    }
  }
}

/** "The project will not contain any packaging or distribution scripts": what a project keeps out of its tree. */
const WILL_NOT_CONTAIN = /\b(?:will|shall|must|should|does)\s+not\s+(?:contain|include|ship|hold|keep|host|carry)\s+(?:any\s+)?([^.;:()]{3,80})/i;

/**
 * What a record's decision keeps out of the repository ("will not contain any packaging or distribution scripts and
 * config"), by its words that are not generic (packaging, distribution): a new file whose path names one brings it in.
 */
function contentExclusions(adr: ParsedAdr): DecidedThing[] {
  const out: DecidedThing[] = [];
  for (const s of decisionSentencesOf(adr)) {
    const m = WILL_NOT_CONTAIN.exec(s.text);
    if (!m) continue;
    const words = [...new Set(tokensOf(m[1]).filter((t) => t.length >= 4 && !GENERIC_PURPOSES.has(t)))].sort();
    if (!words.length || words.length > 3) continue;
    out.push({ name: m[1].trim(), keys: { display: m[1].trim(), tokens: words }, range: { start: s.start, end: s.end }, reason: shorten(s.text, 200), pathOnly: true });
  }
  return out;
}

/**
 * "The MongoDB collection for MASH referrals will be dropped": a part of the system's data or code (a collection, a
 * table, a queue …) that the decision takes out, named by the words after "for"/"of". Known by those words in a row,
 * as code writes them (`mash_referrals`, `MashReferrals`): two or three words, so one ordinary word ("users") is not
 * read.
 */
const DROPPED_PART = /\bthe\s+(?:[\w-]+\s+)?(?:collection|table|model|index|queue|topic|bucket|endpoint|service|worker|job|class|module|component|schema|view)\s+(?:for|of)\s+(?:the\s+)?([A-Za-z][\w-]*(?:\s+[A-Za-z][\w-]*){1,2})\s+(?:will|shall|should|is\s+to|are\s+to|was|has|have)\s+(?:be\s+|been\s+)?(?:dropped|removed|deleted|retired|decommissioned)\b/i;

function droppedParts(adr: ParsedAdr): DecidedThing[] {
  const out: DecidedThing[] = [];
  for (const s of decisionSentencesOf(adr)) {
    const m = DROPPED_PART.exec(s.text.slice(0, 1000));
    if (!m) continue;
    const words = tokensOf(m[1]);
    if (words.length < 2 || words.length > 3 || words.some((w) => w.length < 3)) continue;
    out.push({ name: m[1].trim(), keys: { display: m[1].trim(), exact: words, tokens: [] }, range: { start: s.start, end: s.end }, reason: shorten(s.text, 200) });
  }
  return out;
}

const COMMON_STEMS = new Set("index main readme changelog setup init mod makefile dockerfile license licence package contributing spec tests".split(" "));

/** A step that takes a file out: "- Remove the wizard (`tool/lib/setup/wizardgen.js`) and its tests". */
const REMOVE_STEP = /^\s*(?:[-*+]|\d{1,3}[.)])\s+(?:remove|delete|drop)\b/i;

/**
 * The files a record's steps take out, by name (`wizardgen.js`): a new file of that name brings it back. Only paths
 * written with a folder and an extension in a code span of a list item that opens with the removal.
 */
export function removedFiles(lines: string[]): DecidedThing[] {
  const out: DecidedThing[] = [];
  let fenced = false;
  for (const [i, line] of lines.slice(0, 5000).entries()) {
    if (/^\s*(?:```|~~~)/.test(line)) fenced = !fenced;
    if (fenced || !REMOVE_STEP.test(line)) continue;
    for (const m of line.slice(0, 600).matchAll(/`((?:[\w@.-]+\/)+([\w-]+\.[a-z0-9]{1,8}))`/g)) {
      const base = m[2];
      // `index.js`, `main.go`, `setup.py`: a name every project reuses says nothing about the removed thing.
      const stem = tokensOf(base.replace(/\.[a-z0-9]+$/, "")).filter((t) => t.length >= 4 && !GENERIC_PURPOSES.has(t) && !COMMON_STEMS.has(t));
      if (!stem.length || out.some((o) => o.name === base)) continue;
      const keys = keysOf(`\`${base}\``);
      if (keys) out.push({ name: base, keys, range: { start: i + 1, end: i + 1 }, reason: shorten(stripInline(line.trim()), 200), pathOnly: true });
    }
  }
  return out;
}

/** A dotted module path (`sentry.models`, `app.core`): lower-case identifiers joined by dots. */
const MODULE_PATH = /^[a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*)+$/;

/**
 * A turned-down module path that the record's code spans also write one level deeper ("rather than `from
 * sentry.models import User`, import `from sentry.models.user import User`"): the deeper import is the record's own
 * way, so only an import of the module itself is the turned-down one.
 */
function markWholeModules(forbidden: DecidedThing[], text: string): void {
  const spans = [...text.slice(0, 100_000).matchAll(/`([^`\n]{1,200})`/g)].map((m) => m[1]);
  for (const f of forbidden) {
    const path = f.name.replace(/[`*]/g, "").trim();
    if (!MODULE_PATH.test(path)) continue;
    const deeper = new RegExp(`(?:^|[\\s(])${path.replace(/\./g, "\\.")}\\.[a-z_]\\w*`);
    if (spans.some((s) => deeper.test(s))) f.wholeModule = true;
  }
}

/** An identifier alone in a code span (`Reliability`, `wire-proxy`): a part of the project's code, not a path or a call. */
const COMPONENT_SPAN = /`([A-Za-z][\w-]{3,60})`/g;

/**
 * The parts of the code a decision's steps take out by name ("- Drop existing implementation of `Ouroboros` and
 * `Reliability` components"): a new file whose path names one brings it back. Only list items of a decision section
 * that open with the removal, and only names in code spans (a path is removedFiles' to read).
 */
export function droppedComponents(adr: ParsedAdr): DecidedThing[] {
  const out: DecidedThing[] = [];
  const { lines, sections } = adr.doc;
  sections.forEach((s, i) => {
    const name = adr.section_names[i];
    if (name !== "decision" && name !== "decision-outcome") return;
    for (let n = s.bodyStart; n <= Math.min(s.contentEnd, s.bodyStart + 300); n++) {
      const line = (lines[n - 1] ?? "").slice(0, 600);
      if (!REMOVE_STEP.test(line) && !/^\s*(?:[-*+]|\d{1,3}[.)])\s+retire\b/i.test(line)) continue;
      for (const m of line.matchAll(COMPONENT_SPAN)) {
        const words = tokensOf(m[1]).filter((t) => t.length >= 4 && !GENERIC_PURPOSES.has(t) && !COMMON_STEMS.has(t));
        if (!words.length || out.some((o) => o.name === m[1])) continue;
        const keys = keysOf(`\`${m[1]}\``);
        if (keys) out.push({ name: m[1], keys, range: { start: n, end: n }, reason: shorten(stripInline(line.trim()), 200), pathOnly: true });
      }
    }
  });
  return out;
}

/** The instruments a record's decision names, read from its sentences' own lines (the sentences as read lose their code spans). */
function recordInstruments(adr: ParsedAdr, text: string): Instrument[] {
  const lines = text.split("\n", 20_000);
  const ranges = new Map<string, LineRange>();
  for (const s of decisionSentencesOf(adr)) ranges.set(`${s.start}-${s.end}`, { start: s.start, end: Math.min(s.end, s.start + 20) });
  return [...ranges.values()].flatMap((r) => instrumentsOf(lines.slice(r.start - 1, r.end).join(" "), r));
}

/** What a record's imperative lines and numbered options turn down (recordPreferences.ts), beside its option list. */
function addTurnedDown(forbidden: DecidedThing[], prefs: { chosen: PreferredThing[]; rejected: PreferredThing[] }, numbered: PreferredThing[], chosenWords: Set<string>): void {
  const covered = (k: NameKeys) => (k.exact ?? k.tokens).every((t) => chosenWords.has(t));
  for (const p of prefs.rejected) {
    if (covered(p.keys) || prefs.chosen.some((c) => c.keys.display === p.keys.display) || forbidden.some((f) => f.keys.display === p.keys.display)) continue;
    forbidden.push({ name: p.name, keys: inPassing(p.keys, p.name), range: p.range, ...(p.reason ? { reason: shorten(stripInline(p.reason), 200) } : {}) });
  }
  for (const p of numbered) {
    if (forbidden.some((f) => f.keys.display === p.keys.display) || (!p.identifier && covered(p.keys))) continue;
    forbidden.push({ name: p.name, keys: p.keys, range: p.range, ...(p.reason ? { reason: p.reason } : {}), ...(p.identifier ? { identifier: true } : {}) });
  }
}

/**
 * A rejected name's keys as the record wrote it. A name read from prose is a phrase: all its identifying words must
 * be there ("Cluster Auto Scaler" is not "auto"). One that no line lists as its own item or heading ("- logrus",
 * "* [logrus](…) - …", "### logrus") was turned down in passing, and a plain lower-case word there names a package
 * at most (inPassing).
 */
function asWritten(keys: NameKeys, r: { name: string; range: LineRange }, fromProse: boolean, text: string): NameKeys {
  if (fromProse) return { ...inPassing(keys, r.name), all: true };
  const line = text.split("\n", r.range.start)[r.range.start - 1] ?? "";
  const bare = stripInline(line.replace(/^\s*(?:[-*+]|\d+[.)]|#{1,6})\s+/, "")).trim().toLowerCase();
  return bare.startsWith(r.name.trim().toLowerCase()) ? keys : inPassing(keys, r.name);
}

/** Two keys name the same thing: the same package path, else the same words. */
function sameKeys(a: NameKeys, b: NameKeys): boolean {
  return a.exact || b.exact ? a.exact?.join(" ") === b.exact?.join(" ") : a.tokens.join(" ") === b.tokens.join(" ");
}

/** Adds each thing whose keys no listed thing has already: what the record turned down by name keeps its reason. */
function addUnlisted(forbidden: DecidedThing[], things: DecidedThing[]): void {
  for (const x of things) if (!forbidden.some((f) => sameKeys(f.keys, x.keys))) forbidden.push(x);
}

/** "No message queue (RabbitMQ or otherwise)": the kind's other well-known members are turned down too. */
function addKindMembers(forbidden: DecidedThing[], adr: ParsedAdr): void {
  for (const k of forbiddenKinds(adr)) addUnlisted(forbidden, membersOfKind(k.kind, k.range, k.reason));
}

/** Things a record turns down that its names do not key: a kind's members, and options known by a linked repository. */
function addKnownOtherwise(forbidden: DecidedThing[], adr: ParsedAdr, rejected: { name: string; range: LineRange }[], text: string): void {
  // "Microsoft SQLServer": a well-known thing written its own way is turned down as its packages too (`mssql`).
  for (const f of [...forbidden]) for (const x of knownPackagesOf(f)) if (!forbidden.some((g) => g.keys.display === x.keys.display && g.range.start === x.range.start)) forbidden.push(x);
  addKindMembers(forbidden, adr);
  addLinkedRepositories(forbidden, adr, rejected, text);
  // And a module path it turns down beside its deeper one is that module only.
  markWholeModules(forbidden, text);
}

/**
 * "Use Redis and Bull for background tasks": the well-known libraries for the same purpose (Agenda, Kue, …) are turned
 * down in dependencies and imports, as a rule naming Bull would turn them down. Only what the title (without the part
 * it replaces) and the chosen option say counts as the choice; what the record turned down by name keeps its reason.
 */
function addChosenPeers(forbidden: DecidedThing[], titles: { title: string; fullTitle: string }, chosen: string | undefined, chosenRange: LineRange | undefined): void {
  const range = chosenRange ?? { start: 1, end: 1 };
  const [choice, purpose] = [titles.title, titles.fullTitle].map((t) => (chosen ? `${t}. ${chosen}` : t));
  addUnlisted(forbidden, recordPeerExclusions(choice, purpose, range));
}

/**
 * What only a record in force turns down besides its options: its chosen library's peers (addChosenPeers), and a
 * practice it sets aside ("We will avoid default exports in all our codebase"), which reads as a rule there.
 */
function addInForceExclusions(forbidden: DecidedThing[], adr: ParsedAdr | undefined, titles: { title: string; fullTitle: string }, chosen: string | undefined, chosenRange: LineRange | undefined): void {
  addChosenPeers(forbidden, titles, chosen, chosenRange);
  if (!adr) return;
  for (const s of decisionSentencesOf(adr)) addUnlisted(forbidden, practiceExclusions(s.text, { start: s.start, end: s.end }));
}

/** "Multi-packages architecture in a monorepo with Yarn and Lerna": the tools a title builds its choice with are chosen. */
function addTitleTools(required: DecidedThing[], forbidden: DecidedThing[], title: string, rejectedWords: ReadonlySet<string>): void {
  for (const name of toolsInTitle(title)) {
    const keys = keysOf(name, rejectedWords, { shortNames: true }) ?? titleAcronymKeys(name, rejectedWords);
    if (!keys || !keys.tokens.length || keys.exact) continue;
    const covered = (k: NameKeys) => keys.tokens.every((t) => k.tokens.includes(t));
    if (!forbidden.some((f) => covered(f.keys)) && !required.some((r) => covered(r.keys))) required.push({ name, keys, range: { start: 1, end: 1 } });
  }
}

/**
 * A two-capital name the title chose ("Replace X with RQ"): too short to key a rejected option, but the title names
 * the tool the whole record is about, and as a chosen key it only reads a removed dependency of that name.
 */
function titleAcronymKeys(name: string, rejectedWords: ReadonlySet<string>): NameKeys | undefined {
  if (!/^[A-Z]{2}$/.test(name)) return undefined;
  const token = name.toLowerCase();
  return GENERIC_SHORT.has(token) || rejectedWords.has(token) ? undefined : { display: name, tokens: [token] };
}
/** Two-letter abbreviations that name a kind of thing, not a tool. */
const GENERIC_SHORT = new Set(["ui", "ux", "ci", "cd", "db", "io", "js", "ts", "qa", "id", "ip", "os", "vm", "ai", "ml", "pr", "api"]);

/** The capitalised names a title's "with …" or "using …" tail lists ("… with Yarn and Lerna" → Yarn, Lerna). */
function toolsInTitle(title: string): string[] {
  const tail = /\s(?:with|using)\s+(.{2,80})$/i.exec(title.replace(/\s*\{#[^}]*\}\s*$/, "").trim())?.[1];
  if (!tail) return [];
  const names = tail.split(/\s*(?:,|\band\b|&|\+)\s*/).map((n) => n.trim()).filter(Boolean);
  // Only a list of names: one word each, capitalised or code ("Yarn", "Lerna", "`pnpm`").
  return names.length >= 1 && names.length <= 4 && names.every((n) => /^(?:[A-Z][\w.-]*|`[^`]+`)$/.test(n)) ? names : [];
}

/** What a record's imperative lines and listed uses choose, unless it turns that same name down elsewhere. */
function addPreferred(required: DecidedThing[], forbidden: DecidedThing[], chosen: PreferredThing[]): void {
  for (const p of chosen) {
    if (!forbidden.some((f) => sameKeys(f.keys, p.keys)) && !required.some((r) => r.keys.display === p.keys.display || sameKeys(r.keys, p.keys))) required.push({ name: p.name, keys: p.keys, range: p.range });
  }
}

/** A record's text without its consequences (what follows from a choice is no choice of its own). */
function decisionText(model: DecisionRecord, text: string): string {
  const lines = text.split("\n", 20_000);
  const cut = new Set<number>();
  for (const r of model.consequences) for (let n = r.start; n <= r.end && n - r.start < 2000; n++) cut.add(n);
  return lines.filter((_, i) => !cut.has(i + 1)).join("\n");
}

/** The records' decisions with their areas cut to the named paths that exist; a decision left with nothing is dropped. */
function inWorkTree(decisions: GuardDecision[], exists: (path: string) => boolean): GuardDecision[] {
  const out: GuardDecision[] = [];
  for (const d of decisions) {
    const area = d.area.filter(exists).slice(0, 50);
    if (d.forbidden.length || d.required.length || area.length || d.versionSchemes?.length || d.instruments?.length || d.keptOff || d.droppedVersions) out.push({ ...d, area });
  }
  return out;
}

async function recordDecisions(set: ArtifactSet): Promise<RecordDecisions> {
  const notes: string[] = [];
  const files = set.files.filter((f) => f.source_type === "adr");
  if (!files.length) return { decisions: [], notes };
  const parsed: { file: ArtifactFile; adr: ParsedAdr }[] = [];
  const template = new Set(set.template_lines ?? []);
  for (const [i, file] of files.entries()) {
    // Let other work (git's output) progress while this CPU-bound loop runs.
    if (i % 200 === 199) await new Promise((r) => setImmediate(r));
    try {
      parsed.push({ file, adr: withIndexStatus(parseAdr(file.path, file.text, template), file.index_status) });
    } catch (err) {
      notes.push(`${file.path}: could not be read as a record (${(err as Error).message.slice(0, 120)})`);
    }
  }
  // The docs expert's supersession (explicit links both ways, and the inferred ones) decides what is out of force.
  const superseded = new Set(supersessionEdgesOf(parsed.map((p) => p.adr)).map(([old]) => old));
  const out: GuardDecision[] = [];
  for (const { file, adr } of parsed) {
    const model = decisionModelOf(adr);
    if (superseded.has(file.path) || model.status === "proposed") continue;
    // A rejected record still decides, the other way: what it proposed ("Use of AWS Cloud Map") is turned down,
    // and nothing it names is required. Deprecated and superseded records decide nothing any more.
    if (model.status === "rejected") {
      const d = recordDecision(file, model, model.status_display, adr, false);
      // The types the proposal's own diff adds ("+  enum PeerType {") are its design, turned down with it.
      const declared = proposedDeclarations(file.text);
      const refused = d ? refusalOf(d) : declared.length ? emptyDecision(file, model.title, model.status_display) : undefined;
      if (refused) out.push({ ...refused, forbidden: [...refused.forbidden, ...declared.filter((x) => !refused.forbidden.some((f) => f.keys.display === x.keys.display))] });
      continue;
    }
    if (INACTIVE_ADR_STATUSES.has(model.status)) continue;
    const d = recordDecision(file, model, model.status_display, adr);
    if (d) out.push(d);
  }
  addPairedRemovals(out);
  withoutOverruled(out);
  return { decisions: out, notes };
}

/** "provisioned EC2 databases": the words that show the use an option was turned down for (peers.ts), when it names one. */
function forOneUse(name: string, keys: NameKeys): { purposeEvidence?: string[] } {
  const purposeEvidence = keys.exact ? undefined : purposeEvidenceOf(name, keys.tokens);
  return purposeEvidence ? { purposeEvidence } : {};
}

/** A record's decision that so far turns nothing down and keeps nothing. */
function emptyDecision(file: ArtifactFile, title: string, status: string): GuardDecision {
  const lines = file.text.split("\n").length;
  return { source: "record", citation: { path: file.path, line_range: { start: 1, end: Math.max(1, lines) }, title, status }, forbidden: [], required: [], area: [] };
}

/**
 * A rejected record's decision: what it proposed is forbidden, nothing is required. Its proposal is what it would
 * have chosen, keyed as a phrase (every identifying word present: "IAM Federated Access" is not every `aws_iam_role`);
 * what it argued against on the way ("rather than managing access ourselves") was never decided, so it stays out.
 * A record that states only its refusal ("We have decided not to adopt X") has that as its turned-down option.
 */
function refusalOf(d: GuardDecision): GuardDecision {
  const proposal: DecidedThing[] = [];
  for (const r of d.required) {
    if (r.keys.exact) {
      proposal.push(r);
      continue;
    }
    // Its initials ("TGRA") name it alone; its words name it together.
    const acronym = acronymOf(r.name);
    const words = r.keys.tokens.filter((t) => t !== acronym);
    if (acronym && words.length !== r.keys.tokens.length) proposal.push({ ...r, keys: { display: r.keys.display, tokens: [acronym] } });
    // One word left of a name of several ("IaC Network tester" keyed by "iac") is too loose to forbid by.
    if (words.length > 1 || r.name.trim().split(/\s+/).length === 1) proposal.push({ ...r, keys: { ...r.keys, tokens: words, all: words.length > 1 } });
  }
  const forbidden = d.required.length ? proposal : d.forbidden;
  return { ...d, forbidden, required: [], chosen: undefined, versionSchemes: undefined, instruments: undefined };
}

// ----- rules -----

/** "do not use X", "never use X", "avoid X", "must not import X" (X up to the clause's end). */
// The verb is optional with its own word boundary: "avoid `std::thread::sleep`" has none before the code span.
const FORBID = /\b(do not|don't|never|must not|mustn't|shall not|should not|may not|avoid|no longer|no use of|no usage of)\s+(?:(use|using|add|adding|import|imports|importing|introduce|introducing|depend on|rely on|install|reach for)\b\s*)?/gi;
/** "use Y instead of X", "prefer Y over X", "Y rather than X". */
const INSTEAD = /\b(?:use|prefer|choose)\s+([^;,()]{1,80}?)\s+(?:instead of|over|rather than|in place of)\s+/gi;
const ALWAYS = /\b(?:always|must)\s+use\s+/gi;
/** "(instead of X)", "Instead of X, use Y", "Y should be used instead of X": X is turned down however the rule is phrased. */
const INSTEAD_OF = /\b(?:instead of|rather than|in place of)\s+/gi;
/** "some ScalaTests exist but will be migrated to ZIO Test": what is being migrated away from is not to be added. */
const MIGRATED = /\b(?:will be|are being|is being|should be|must be|to be)\s+(?:migrated|moved|ported|replaced|converted|phased out)(?:\s+(?:to|by|with)\s+)?/gi;
/** "(not `X`)", ", not `X`": a code span set against the one the sentence names first. */
const NOT_SPAN = /(?:\(|,|;|—|–)\s*(?:and\s+|but\s+)?not\s+(`[^`]{1,100}`)/gi;
/** "No `X`." as a sentence of its own. */
const NO_SPAN = /(?:^|[.;!?]\s+)No\s+(`[^`]{1,100}`)\s*(?=[.;!]|$)/g;
/** "X is not allowed", "X are NOT permitted": X, the subject, is forbidden. */
const NOT_ALLOWED = /\b(?:is|are)\s+(?:not|never)\s+(?:allowed|permitted|accepted)\b/gi;
/** "X must not be used", "X should never be added", "X is to be avoided": X, the subject of the passive, is forbidden. */
const PASSIVE_FORBID = /\b(?:must|should|shall|may|can)\s*(?:not|never)\s+be\s+(?:used|added|imported|introduced|installed|relied\s+on)\b|\b(?:is|are)\s+(?:to\s+be\s+avoided|forbidden|prohibited|banned|deprecated\s+and\s+must\s+not\s+be\s+used)\b/gi;

/**
 * The subject of a "… is not allowed" clause: its last few words, a code span whole. A first word capitalised only
 * because it starts the sentence ("Raw Material components") is no part of the name when a capitalised word follows.
 */
function notAllowedSubject(before: string): string | undefined {
  const clause = (before.split(/[.;:!?]\s|[(),]/).at(-1) ?? "").trim();
  const span = /`[^`]{1,100}`\s*$/.exec(clause);
  if (span) return span[0].trim();
  const words = clause.split(/\s+/).filter(Boolean).slice(-4);
  if (words.length >= 2 && /^[A-Z][a-z]+$/.test(words[0]) && /^[A-Z]/.test(words[1])) words.shift();
  return words.length ? words.join(" ") : undefined;
}

/** A lead-in above a list, at most this long ("Agents MUST NOT:", "Testing libraries:"). */
const MAX_LEAD_IN = 120;

/** A forbidding rule's object as a list of categories: up to its clause's end, commas and "or" kept. */
function categoryObject(rest: string): string {
  // Cut at an exception ("unless strongly justified"), not at a qualifier, which categoryExclusions reads.
  const end = rest.search(/[;():!?]|\s[—–-]\s|\.(?:\s|$)|\s(?:when|unless|except|because|since|as|if|but|it|where|outside|inside)\s/i);
  return (end >= 0 ? rest.slice(0, end) : rest).trim();
}

/** Words of a language, not things: "instead of `null` checks" turns down no library. */
const LANGUAGE_WORDS = new Set(["null", "nil", "none", "undefined", "new", "this", "true", "false", "return", "if", "else", "var", "let", "const"]);

/** A rule's object: up to the end of its clause, and before a qualifier ("innerHTML for evidence" → "innerHTML"). */
function clauseObject(rest: string): string {
  const end = rest.search(/[;,():!?]|\s[—–-]\s|\.(?:\s|$)|\s(?:for|in|when|unless|except|because|since|to|with|on|as|if|and|or|but|it|which|where|outside|inside)\s/i);
  return (end >= 0 ? rest.slice(0, end) : rest).trim();
}

function ruleThing(object: string, range: LineRange, explicitUse: boolean, reason?: string, importsOnly = false): DecidedThing | undefined {
  const text = object.slice(0, 120);
  if (!text) return undefined;
  // "never build a shell string": a verb phrase, not a named thing; only code spans and name-like words count there.
  const named = explicitUse ? text : (text.match(/`[^`]{1,100}`|\S*(?:[a-z][A-Z]|[.@/])\S*/g) ?? []).join(" ");
  const keys = named ? keysOf(named) : undefined;
  return keys ? { name: stripInline(text), keys, range, ...(reason ? { reason } : {}), ...(importsOnly ? { importsOnly } : {}) } : undefined;
}

/** Folders a rule's subject names before its verb ("`src/core/` never imports …", "Code in src/mcp/ must not …"). */
function ruleScope(before: string): string[] {
  return [...before.matchAll(/`?((?:\.\/)?[\w@.-]{1,80}(?:\/[\w@.-]{1,80}){0,8}\/?)`?/g)]
    .map((m) => m[1].replace(/^\.\//, ""))
    .filter((p) => p.includes("/") && !/^https?:/.test(p))
    .map((p) => p.replace(/\/$/, ""));
}

/** What a rule turns down beyond "do not use X": purposes it names a library for, "X is not allowed", "No `X`.". */
function moreExclusions(text: string, range: LineRange, reason: string | undefined): DecidedThing[] {
  const out = labelledPurposes(text, range);
  // "Raw Material components are NOT allowed outside …": the subject before the cue is forbidden.
  for (const m of text.matchAll(NOT_ALLOWED)) {
    const subject = notAllowedSubject(text.slice(Math.max(0, m.index - 200), m.index));
    const x = subject ? ruleThing(subject, range, true, reason) : undefined;
    if (x) out.push(x);
  }
  // "`moment` must not be used in new code", "Lodash is forbidden": the passive's subject is forbidden.
  for (const m of text.matchAll(PASSIVE_FORBID)) {
    const subject = notAllowedSubject(text.slice(Math.max(0, m.index - 200), m.index));
    // A subject of one word or a code span names the thing; a longer one only by its name-like words.
    const x = subject ? ruleThing(subject, range, /^`[^`]+`$|^\S+$/.test(subject), reason) : undefined;
    if (x) out.push(x);
  }
  // "Use `github.com/a/log` (not `github.com/a/kit/log`)": the code span after a bare "not" is what the rule turns down.
  for (const m of text.matchAll(NOT_SPAN)) {
    if (!/\b(?:use|prefer|choose|import|call)\b/i.test(text.slice(0, m.index))) continue;
    const x = ruleThing(m[1], range, true, reason);
    if (x) out.push(x);
  }
  // "All pages must be statically exportable. No `getServerSideProps`.": a bare "No" before a code span forbids it.
  for (const m of text.matchAll(NO_SPAN)) {
    const x = ruleThing(m[1], range, true, reason);
    if (x) out.push(x);
  }
  return out;
}

/** The rules of one instruction file (exported for the linear-time matcher tests). */
export function ruleDecisions(file: ArtifactFile): GuardDecision[] {
  const lines = file.text.split("\n").slice(0, MAX_RULE_LINES);
  const out: GuardDecision[] = [];
  let fence = false;
  const blocks = splitRules(lines, 1, lines.length);
  // "Agents MUST use:" or "Agents MUST NOT:" above a list: each item is read with it ("Agents MUST NOT add telemetry").
  let leadIn: string | undefined;
  for (const block of blocks) {
    if (out.length >= MAX_RULES_PER_FILE) break;
    const raw = lines.slice(block.start - 1, block.end).join(" ");
    if (/^\s*(`{3,}|~{3,})/.test(lines[block.start - 1] ?? "")) fence = true;
    if (fence) {
      fence = false;
      leadIn = undefined;
      continue;
    }
    if (/^\s*#/.test(raw)) {
      leadIn = undefined;
      continue;
    }
    const bullet = /^\s*(?:[-*+]|\d+[.)])\s+/.test(raw);
    const item = raw.slice(0, MAX_RULE_CHARS).replace(/^\s*(?:[-*+]|\d+[.)])\s+/, "");
    const carried = bullet && leadIn !== undefined;
    const text = carried ? `${leadIn} ${item}` : item;
    if (!bullet) leadIn = /:\s*$/.test(item) && item.length <= MAX_LEAD_IN ? item.replace(/:\s*$/, "").trim() : undefined;
    const range = { start: block.start, end: block.end };
    const forbidden: DecidedThing[] = [];
    const required: DecidedThing[] = [];
    const reason = /;\s*(it is [^.;]{1,120}|[^.;]*\b(?:deprecated|insecure|slow|unmaintained)\b[^.;]{0,80})/i.exec(text)?.[1];
    for (const m of text.matchAll(INSTEAD)) {
      const y = ruleThing(clauseObject(m[1]), range, true);
      const x = ruleThing(clauseObject(text.slice(m.index + m[0].length)), range, true, y ? `use ${y.name} instead` : undefined);
      if (x) forbidden.push(x);
      if (y) required.push(y);
    }
    for (const m of text.matchAll(INSTEAD_OF)) {
      const rest = text.slice(m.index + m[0].length);
      // "Instead of `Files.createTempDirectory` `@TempDir` … should be used": the first code span is what is replaced.
      const span = /^`[^`]{1,100}`/.exec(rest);
      // Only a name-like object ("FileChooser", "org.assertj", a code span): "instead of spaces" names no thing.
      const x = ruleThing(span ? span[0] : clauseObject(rest), range, false, reason?.trim());
      if (x && !x.keys.exact && x.keys.tokens.every((t) => LANGUAGE_WORDS.has(t))) continue;
      if (x && !forbidden.some((f) => f.name === x.name)) forbidden.push(x);
    }
    for (const m of text.matchAll(MIGRATED)) {
      // The name just before the cue, in its clause ("some ScalaTests exist but will be migrated to …").
      const clause = text.slice(0, m.index).split(/[,;:(]/).at(-1) ?? "";
      const name = namesIn(clause).at(-1);
      const x = name ? ruleThing(name, range, true, reason?.trim()) : undefined;
      if (x && !forbidden.some((f) => f.name === x.name)) forbidden.push(x);
    }
    for (const x of [...purposeExclusions(text, range), ...moreExclusions(text, range, reason?.trim())]) if (!forbidden.some((f) => f.name === x.name)) forbidden.push(x);
    // "Do not let … wall-clock time, randomness … affect state changes": the calls that read them.
    forbidden.push(...nondeterminismExclusions(text, range), ...practiceExclusions(text, range));
    for (const x of peerExclusions(text, range)) if (!forbidden.some((f) => f.name === x.name && f.keys.display === x.keys.display && JSON.stringify(f.keys) === JSON.stringify(x.keys))) forbidden.push(x);
    let scope: string[] = [];
    for (const m of text.matchAll(FORBID)) {
      const verb = (m[2] ?? "").toLowerCase();
      // "avoid Lodash" and "no use of Swing" name their object directly; "never build a shell string" does not.
      const rest = text.slice(m.index + m[0].length);
      // A code span is the object whole ("avoid `std::thread::sleep`, …": its colons end no clause).
      const span = /^`[^`]{1,100}`/.exec(rest);
      // An item read under its lead-in names its object plainly ("Add permissions …"): only name-like words are things there.
      const x = ruleThing(span ? span[0] : clauseObject(rest), range, !carried && (!!m[2] || /^(?:avoid|no use|no usage)/i.test(m[1])), reason?.trim(), verb.startsWith("import"));
      if (x && !forbidden.some((f) => f.name === x.name)) forbidden.push(x);
      // "Avoid mocking frameworks", "MUST NOT add telemetry, analytics, or tracking": categories, known by their word.
      if (!span && (/^(?:use|using|add|adding|introduce|introducing|install|depend on|rely on)$/.test(verb) || /^(?:avoid|no use|no usage)/i.test(m[1]))) {
        for (const c of categoryExclusions(categoryObject(rest), range)) if (!forbidden.some((f) => f.name === c.name)) forbidden.push(c);
      }
      if (x && !scope.length) scope = ruleScope(text.slice(0, m.index));
    }
    dropPeersNamedOutright(forbidden);
    for (const m of text.matchAll(ALWAYS)) {
      const y = ruleThing(clauseObject(text.slice(m.index + m[0].length)), range, true);
      if (y && !required.some((r) => r.name === y.name)) required.push(y);
    }
    // "Do not use X; it is deprecated. Use Y." — the replacement the rule names is kept.
    const use = /(?:^|[.;]\s+)Use\s+(`[^`]{1,100}`|@?[\w.-]+(?:\/[\w.-]+)+)/.exec(text);
    if (use && forbidden.length) {
      const y = ruleThing(use[1], range, true);
      if (y && !required.some((r) => r.name === y.name) && !forbidden.some((f) => f.name === y.name)) required.push(y);
    }
    // "Prefer adding dependencies at the workspace root … under `[workspace.dependencies]`": versions live there.
    const versionSchemes = schemesChosenIn(text);
    // "Do not hand-edit generated files such as `*.pb.go`"; "Wrap errors with `%w`", "Use `t.TempDir()` in tests";
    // "All new `.go` files must begin with the licence header"; "Never depend on another module's `:internal`".
    const [generated, instruments, header, boundary, openContributions] = [generatedFiles(text), instrumentsOf(text, range), headerRuleOf(text), boundaryOf(text, file.text), takesOpenContributions(text)];
    if (!forbidden.length && !required.length && !versionSchemes.length && !generated.length && !instruments.length && !header && !boundary && !openContributions) continue;
    // "Do not use X in human-readable text": code, imports and dependencies may still say X.
    if (/\b(?:human[- ]readable|in (?:the )?(?:docs|documentation|prose|comments|commit messages|pr titles|ui text|user-facing text))\b/i.test(text)) for (const f of forbidden) f.textOnly = true;
    out.push({ source: "rule", citation: { path: file.path, line_range: range, title: shorten(stripInline(text), 160), status: "rule" }, forbidden, required, area: [], ...(scope.length ? { scope } : {}), ...(versionSchemes.length ? { versionSchemes } : {}), ...(generated.length ? { generated } : {}), ...(instruments.length ? { instruments } : {}), ...(header ? { header } : {}), ...(boundary ? { boundary } : {}), ...(openContributions ? { openContributions } : {}) });
  }
  return out;
}

/** A thing the rule turns down by name carries the rule's own reason; the same thing as a peer of its choice goes. */
function dropPeersNamedOutright(forbidden: DecidedThing[]): void {
  const byName = new Set(forbidden.filter((f) => !f.peer).map((f) => f.name.toLowerCase()));
  for (let i = forbidden.length - 1; i >= 0; i--) if (forbidden[i].peer && byName.has(forbidden[i].name.toLowerCase())) forbidden.splice(i, 1);
}

/** "do not (hand-)edit", "never modify … by hand", "must not be edited manually": a rule about editing files. */
const NO_EDIT = /\b(?:do\s+not|don['’]t|never|must\s+not|should\s+not|shall\s+not)\s+(?:manually\s+|hand[- ]?)?(?:edit|modify|change|alter|touch)\b|\b(?:must|should)\s+(?:not|never)\s+be\s+(?:hand[- ]?)?(?:edited|modified|changed)\b/i;

/**
 * The files a rule says not to edit by hand: the globs in its code spans (`*.pb.go`, `**\/generated/*.ts`), and, when
 * the rule says the files are generated, the paths it spans (`src/gen/api.ts`). Without such a cue, none.
 */
export function generatedFiles(text: string): string[] {
  if (!NO_EDIT.test(text)) return [];
  const generatedWord = /\b(?:generated|autogenerated|auto-generated|codegen)\b/i.test(text);
  // "Always check the `vendor/` folder … Do not modify vendored code directly": copied upstream code, hands off.
  const vendoredWord = /\bvendored\s+(?:code|files?|dependencies|packages|modules|libraries|copies|sources?)\b/i.test(text);
  const out: string[] = [];
  for (const m of text.slice(0, MAX_RULE_CHARS).matchAll(/`([^`\s]{2,100})`/g)) {
    const span = m[1].replace(/^\.\//, "");
    if (vendoredWord && /^[\w@.-]+(?:\/[\w@.-]+)*\/$/.test(span)) {
      out.push(`${span}**`);
      continue;
    }
    // A folder the rule keeps hands off ("Never hand-edit files under `cmd/flux/manifests/`"): every file in it.
    if (/^[\w@.-]+(?:\/[\w@.-]+)+\/$/.test(span) && /\b(?:files?|anything)\s+(?:under|in|inside|within)\s*$/i.test(text.slice(0, m.index))) {
      out.push(`${span}**`);
      continue;
    }
    // A file glob or path: an extension after a name or a star (`*.pb.go`, `api/*.gen.ts`), never a command.
    if (!/^[\w*@.\/-]+$/.test(span) || !/(?:^|[\w*])\.[A-Za-z][\w]{0,9}$/.test(span)) continue;
    if (span.includes("*") || (generatedWord && span.includes("/"))) out.push(span);
  }
  return [...new Set(out)].slice(0, 20);
}

// ----- receipts -----

async function receiptDecisions(repo: string, notes: string[], ownPublicKeyPem: string | undefined): Promise<{ decisions: GuardDecision[]; paths: string[] }> {
  const entries = await listReceipts(repo).catch(() => []);
  const decisions: GuardDecision[] = [];
  const paths: string[] = [];
  const signers = entries.length ? await readAllowedSigners(repo, DEFAULT_RECEIPTS_DIR) : undefined;
  let untrusted = 0;
  for (const e of entries.slice(0, MAX_RECEIPTS)) {
    const path = `${DEFAULT_RECEIPTS_DIR}/${e.receipt_id}.json`;
    paths.push(path);
    if (e.state !== "ok") continue;
    const r = e.receipt;
    const pick = r.operator_pick;
    if (!pick || pick.option_id === UNDECIDABLE) continue;
    const picked = r.payload.options.find((o) => o.id === pick.option_id);
    if (!picked) continue;
    // Verified only when it would count: a pick that is not signed by a trusted key is a claim, not a decision.
    const verification = await verifyEntry(repo, e, { ownPublicKeyPem, signers, citations: false }).catch(() => undefined);
    if (!verification || !trustViewOf(verification).trusted) {
      untrusted++;
      continue;
    }
    const others = r.payload.options.filter((o) => o.id !== picked.id);
    const pickedWords = tokenSet([picked.title]);
    const forbidden = others.flatMap((o) => {
      const keys = keysOf(o.title, pickedWords);
      return keys ? [{ name: o.title, keys, range: { start: 1, end: 1 }, ...(pick.reason ? { reason: shorten(pick.reason, 200) } : {}) }] : [];
    });
    const keys = keysOf(picked.title, tokenSet(others.map((o) => o.title)));
    const required = keys ? [{ name: picked.title, keys, range: { start: 1, end: 1 } }] : [];
    if (!forbidden.length && !required.length) continue;
    const by = r.picks?.at(-1)?.picked_by === "agent" ? "picked by an agent" : "picked";
    decisions.push({ source: "receipt", citation: { path, line_range: { start: 1, end: 1 }, title: shorten(r.question, 160), status: by }, forbidden, required, chosen: picked.title, area: [] });
  }
  if (untrusted) notes.push(`${untrusted} picked receipt${untrusted === 1 ? "" : "s"} skipped: not signed by a trusted key (yours or ${DEFAULT_RECEIPTS_DIR}/allowed_signers) with evidence intact`);
  if (entries.length > MAX_RECEIPTS) notes.push(`${entries.length} receipts: only the newest ${MAX_RECEIPTS} were read`);
  return { decisions, paths };
}

/**
 * The project's own names: its folder's and its remotes' owner and repository names ("jabref", "eclipse", "edc",
 * "apache", "james"). A record that turns down "Replace the internal # in JabRef" is not about the word JabRef.
 */
function ownNames(root: string): Set<string> {
  const names = [basename(root)];
  try {
    const config = readFileSync(join(root, ".git", "config"), "utf8").slice(0, 100_000);
    for (const m of config.matchAll(/^\s*url\s*=\s*(\S{1,500})\s*$/gm)) names.push(...m[1].replace(/\.git$/, "").split(/[/:]/).slice(-2));
  } catch {
    // a worktree's .git is a file, or there is no git: the folder's name is all there is
  }
  return new Set(names.flatMap((n) => tokensOf(n)).filter((t) => t.length >= 3));
}

/** Drops keys that only name the project itself; a thing left with no key is dropped. */
function withoutOwnNames(decisions: GuardDecision[], own: Set<string>): void {
  for (const d of decisions) {
    for (const list of [d.forbidden, d.required]) {
      for (let i = list.length - 1; i >= 0; i--) {
        const k = list[i].keys;
        if (k.exact || k.stems || list[i].codeShape) continue;
        // "WikibaseClient" in a Wikibase repository is the project's own part, not another thing.
        // "acme" where the organisation is `acmehq`: an owner's name is often the project's with a short suffix.
        k.tokens = k.tokens.filter((t) => !own.has(t) && ![...own].some((o) => (o.length >= 5 && t.startsWith(o)) || (t.length >= 5 && o.startsWith(t) && o.length - t.length <= 2)));
        if (!k.tokens.length) list.splice(i, 1);
      }
    }
  }
}

/** A repository needs this many records before a word they share can be told from a word one record turns down. */
const VOCABULARY_MIN_RECORDS = 8;
/** A word in this share of the records (and in at least five) is the project's own vocabulary. */
const VOCABULARY_SHARE = 0.4;
/**
 * For an approach written as a phrase ("Add Labels under WidgetRef in Flow", "Special afterStep"), the share that
 * makes its named word the project's own: the approach changes how that part is used, it does not bring in another.
 */
const APPROACH_VOCABULARY_SHARE = 0.15;

/**
 * Drops the words of a turned-down thing that most of the repository's records use: "Store Gateway" or "Querier" in
 * a project whose proposals all talk about its store gateway and querier is one of its own parts, not something one
 * record turned down, even where a record lists it among what a design touches.
 */
function withoutProjectVocabulary(decisions: GuardDecision[], records: ArtifactFile[]): void {
  if (records.length < VOCABULARY_MIN_RECORDS) return;
  const wordsOf = records.map((f) => new Set(tokensOf(f.text, 200_000)));
  const need = Math.max(5, Math.ceil(records.length * VOCABULARY_SHARE));
  const needForApproach = Math.max(5, Math.ceil(records.length * APPROACH_VOCABULARY_SHARE));
  const counts = new Map<string, number>();
  const common = (t: string, approach: boolean): boolean => {
    let known = counts.get(t);
    if (known === undefined) {
      // A plural and its singular are one word ("queriers", "querier").
      const forms = [t, t.endsWith("s") ? t.slice(0, -1) : `${t}s`];
      known = wordsOf.filter((w) => forms.some((x) => w.has(x))).length;
      counts.set(t, known);
    }
    return known >= (approach ? needForApproach : need);
  };
  for (const d of decisions) {
    if (d.source !== "record") continue;
    // What the title names is what the record decides ("Switch from Java to Kotlin"), however often others say it.
    const title = new Set(tokensOf(d.citation.title));
    for (let i = d.forbidden.length - 1; i >= 0; i--) {
      const k = d.forbidden[i].keys;
      if (k.exact || k.stems || d.forbidden[i].peer || !k.tokens.length) continue;
      // Only a thing every word of which is the project's own goes: one word left would key it more loosely.
      const approach = isApproach(k.display);
      const own = (t: string) => !title.has(t) && common(t, approach);
      if (k.tokens.every(own)) d.forbidden.splice(i, 1);
      // An approach keyed by any of its words ("Track retries in StepRun/Run, keep attemptCount …"): the project's
      // own words among them key nothing, its rarer ones still do (none of them needs the others).
      else if (approach && !k.whole && !k.all && k.tokens.some(own)) k.tokens = k.tokens.filter((t) => !own(t));
    }
  }
}

/** An option written as what to do or what kind ("Add Labels under WidgetRef", "Special afterStep"), not as a name alone. */
export function isApproach(display: string): boolean {
  const words = display.replace(/[`*_"]/g, "").trim().split(/\s+/).filter(Boolean);
  if (words.length < 2) return false;
  return /^[a-z]/.test(words[0]) || LEADING_WORDS.has(words[0].toLowerCase());
}

/**
 * A one-word name (`cluster-scope`) that one record turned down and another chose as written is the place both speak
 * of, not a rival: "A `cluster-scope` application" chosen, and a later "Deploy all … within `cluster-scope`" not taken,
 * weighed what goes there. Only names of joined parts: a plain word is left to the peers' rule.
 */
export function withoutOthersChoices(decisions: GuardDecision[]): void {
  const chosenWords = decisions.map((d) => (d.source === "record" && d.required.length && d.chosen ? new Set(d.chosen.toLowerCase().replace(/[`*_"]/g, "").split(/[^a-z0-9.-]+/)) : undefined));
  decisions.forEach((d, i) => {
    if (d.source !== "record") return;
    for (let j = d.forbidden.length - 1; j >= 0; j--) {
      const k = d.forbidden[j].keys;
      const word = k.display.replace(/[`*_"]/g, "").trim().toLowerCase();
      if (!k.exact || k.exact.length < 2 || !/^[a-z0-9]+(?:-[a-z0-9]+)+$/.test(word) || d.forbidden[j].peer) continue;
      if (chosenWords.some((w, at) => at !== i && w?.has(word))) d.forbidden.splice(j, 1);
    }
  });
}

/** At most this many tracked paths are read for the names of the project's parts. */
const MAX_TRACKED_NAMES = 200_000;

/** The lower-cased names of tracked folders and file stems ("mediator" for `docs/home/mediator.md`): the project's parts. */
async function trackedNames(root: string): Promise<Set<string>> {
  const run = await runGit(root, ["ls-files", "-z"], { maxBytes: 32 * 1024 * 1024, maxLines: MAX_TRACKED_NAMES }).catch(() => undefined);
  const out = new Set<string>();
  for (const path of (run?.stdout ?? "").split("\0")) for (const seg of path.split("/")) out.add(seg.replace(/\.[^.]*$/, "").toLowerCase());
  return out;
}

/** A title's opening word that says what it does or asks, not which part it is about. */
const TITLE_VERB = /^(?:use|adopt|choose|replace|remove|add|introduce|migrate|switch|move|prefer|deprecate|support|how|which|what|when|why|where|should|record|decide|enable|allow|keep|make|create|define|implement|provide|store|separate|split|drop|rename|upgrade|update|standardi[sz]e|consolidate|\w+ing|\w+ed)$/i;

/**
 * A record whose title opens with the name of one of the project's parts ("Mediator message storage", where the
 * repository has a `mediator` page or folder) decides for that part: a file elsewhere ("services/cloud-agent/…") is
 * not held to it. The part must be a tracked name outside the records and no generic word ("Database selection").
 */
function scopeToComponents(decisions: GuardDecision[], tracked: Set<string>): void {
  for (const d of decisions) {
    if (d.source !== "record" || d.scope) continue;
    const title = d.citation.title.replace(/^(?:(?:ADR|RFC|RFD)[\s-]*\d{1,5}\s*[:.-]?\s*|\d{1,5}\s*[:.-]?\s+)/i, "").trim();
    const m = /^([A-Z][a-z]{3,30})\s+[a-z]\w*\s+\S/.exec(title);
    if (!m || TITLE_VERB.test(m[1])) continue;
    const part = m[1].toLowerCase();
    const recordStem = (d.citation.path.split("/").at(-1) ?? "").replace(/\.[^.]*$/, "").toLowerCase();
    if (GENERIC_PURPOSES.has(part) || !tracked.has(part) || recordStem === part) continue;
    d.scope = [`**/${part}`];
  }
}

/** The rules of a coding guide an instruction file points to: its rule headings (guides.ts). */
export function guideDecisions(file: ArtifactFile): GuardDecision[] {
  const { text, testsAllowed } = guideRuleText(file.text);
  const out = ruleDecisions({ ...file, text });
  for (const d of out) {
    if (!testsAllowed.has(d.citation.line_range.start)) continue;
    for (const f of d.forbidden) f.notInTests = true;
  }
  return out;
}

/** Folders that hold other projects' code copied in: their records and instruction files are not this project's. */
const DEPENDENCY_FOLDER = /(?:^|\/)(?:vendor|node_modules|bower_components|third[_-]party|site-packages|\.venv)\//;

/** Every in-force decision of a repository, in a stable order (records, rules, receipts; each by path and line). */
export async function loadDecisions(
  repo: string,
  opts: { signal?: AbortSignal; cache?: CorpusCacheOptions; config?: Partial<DeliberationConfig>; ownPublicKeyPem?: string } = {},
): Promise<DecisionSet> {
  const notes: string[] = [];
  const config = resolveConfig({ ...opts.config, offline: true });
  const root = resolve(repo);
  const basis = await cachedDecisionBasis(root, config, opts.cache, async () => {
    const { set, fingerprint } = await discoverWithSnapshot(repo, config, { signal: opts.signal, ...(opts.cache ? { cache: opts.cache } : {}) });
    opts.signal?.throwIfAborted();
    // An instruction file or record inside a vendored dependency (`vendor/…/CLAUDE.md`) is that dependency's.
    const own = set.files.filter((f) => !DEPENDENCY_FOLDER.test(f.path));
    const ownSet = own.length === set.files.length ? set : { ...set, files: own };
    const records = await cachedRecordDecisions(root, ownSet, opts.cache, () => recordDecisions(ownSet));
    withoutProjectVocabulary(records.decisions, own.filter((f) => f.source_type === "adr"));
    withoutOthersChoices(records.decisions);
    scopeToComponents(records.decisions, await trackedNames(root));
    const rules = own.filter((f) => f.source_type === "agent-instructions" || f.source_type === "contributing").flatMap(ruleDecisions);
    const recordPaths = own.filter((f) => f.source_type === "adr" || f.source_type === "agent-instructions" || f.source_type === "contributing").map((f) => f.path);
    return { basis: { records, rules, recordPaths, guidePaths: linkedGuidePaths(own) }, fingerprint };
  });
  // The guides are read on every check: the fingerprint that keeps the basis does not cover them.
  const guides = await readGuides(root, basis.guidePaths);
  opts.signal?.throwIfAborted();
  // A decided area is a path that is there ("src/db/"), not prose that looks like one ("and/or", "try/catch").
  const exists = (p: string) => {
    const abs = resolve(root, p);
    return isInside(root, abs) && abs !== root && existsSync(abs);
  };
  notes.push(...basis.records.notes);
  const records = inWorkTree(basis.records.decisions, exists);
  const rules = [...basis.rules, ...guides.flatMap(guideDecisions)];
  withoutPeersNamedElsewhere([...records, ...rules]);
  const receipts = await receiptDecisions(repo, notes, opts.ownPublicKeyPem);
  withoutOwnNames([...records, ...rules], ownNames(root));
  const recordPaths = new Set<string>([...basis.recordPaths, ...guides.map((g) => g.path), ...receipts.paths]);
  const byPlace = (a: GuardDecision, b: GuardDecision) => (a.citation.path < b.citation.path ? -1 : a.citation.path > b.citation.path ? 1 : a.citation.line_range.start - b.citation.line_range.start);
  return { decisions: [...records.sort(byPlace), ...rules.sort(byPlace), ...receipts.decisions.sort(byPlace)], recordPaths, notes };
}
