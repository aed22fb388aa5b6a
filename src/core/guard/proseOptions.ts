// Options a record weighs outside a "Considered Options" list, for the guard: Nygard records name them in prose
// ("JMeter was considered as an alternative", "candidates … including Django, Play and Akka HTTP", "X is also not
// an option"), as headings under a section like "The Contenders", as a short list after "There are a few services
// …:", or in a replacing title ("Replace JCloud-based ObjectStorage with the AWS S3 SDK"). One rule decides which of
// them were turned down: an option named by a turning-down cue is rejected; of the others, the ones the decision's
// first sentence names are chosen and the rest rejected (when that sentence names none, nothing is concluded).
// Pure and linear: sentences are capped by sentencesIn, names are read word by word.
import type { ParsedAdr } from "../internal/adr";
import { sentencesIn, type LocatedSentence } from "../decisions";
import type { LineRange } from "../schemas";
import { GENERIC_PURPOSES, keysOf, tokensOf } from "./names";

export interface ProseOption {
  name: string;
  range: LineRange;
  /** Options offered together (one heading's subsections, one list, one sentence): the decision picks among them. */
  group?: number;
  /** The sentence that turned it down, when one did. */
  reason?: string;
  /** Written as a name by its markup (a list item led by a code span, bold or a link): a name however it is cased. */
  marked?: boolean;
  /** Chosen by a sentence outside any decision section, over the rest of its group (the record's only choice). */
  decidesGroup?: boolean;
  /** Words of its name the record also writes in lower case ("Proof of Possession" … "a proof"): no name of a thing. */
  common?: string[];
}

export interface ProseOptions {
  rejected: ProseOption[];
  chosen: ProseOption[];
}

const MAX_NAME_WORDS = 4;
const MAX_LIST = 8;
const MAX_SENTENCES = 400;

/** Headings whose subsections are the options ("The Contenders", "Options", "Alternatives considered"). */
const OPTIONS_HEADING = /\b(?:contenders?|candidates?|options?|alternatives?|choices|approaches|considered)\b/i;
/** A sentence that introduces options ("candidates to choose from, including …", "under consideration are …"). */
const CANDIDATES_CUE = /\b(?:candidates?|alternatives|options|contenders|under consideration|to choose from|choices)\b/i;
/** "We considered/evaluated/compared A, B and C": the names that follow are the options weighed. */
const WEIGHED = /\bwe\s+(?:have\s+|also\s+)?(?:considered|evaluated|looked at|compared|assessed|investigated|explored|reviewed|tried out|tried)\s+/i;
const LIST_TRIGGER = /\b(?:including|include|such as|namely|are|were|between)\b\s*:?|:\s/i;
/** "X was considered as an alternative", "X is also not an option", "An alternative … could have been X". */
// An assessment ("… is not feasible to maintain") is not a turned-down option; "rejected" as an adjective ("see the
// rejected ADR") has no subject: only "we rejected X" counts.
const REJECTED_BEFORE = /\b(?:was|were|is|are)\s+(?:also\s+)?(?:considered\s+as\s+an?\s+alternative|not\s+(?:an?\s+)?(?:option|viable|chosen|selected|adopted|pursued))\b|\b(?:was|were)\s+(?:considered\s+and\s+)?(?:rejected|discarded|ruled out|dismissed|dropped)\b/i;
// "we can drop the `vuex-class` dependency": a dependency the decision lets go is turned down (the object must be
// followed by "dependency", "library" or "package", so "drop the legacy UI" is not read).
const REJECTED_AFTER = /\b(?:this|it|which)\s+replaces\s+(?:the\s+)?(?:usage|use)\s+of\s+|\balternative\s+to\s+[\w.-]+(?:\s+[\w.-]+)?\s+(?:could|would|might)\s+have\s+been\s+|\bwe\s+(?:have\s+)?(?:rejected|ruled out|decided against|turned down)\s+|\b(?:drop|dropping|remove|removing|get rid of|getting rid of|phase out|phasing out)\s+(?:the|our|its|their)\s+(?=[`\w@./-]{2,80}\s+(?:dependency|dependencies|library|libraries|package|packages)\b)/i;
/** "… allowed us to delete the AuditTrail model": a part of the code the decision deleted, named as code names it. */
const DELETED_PART = /\b(?:[Dd]elete|[Dd]eleting|[Dd]rop|[Dd]ropping|[Rr]emove|[Rr]emoving)\s+(?:the|our|its|their)\s+(?=(?:[A-Z][a-z0-9]{1,30}){2,4}\s+(?:model|class|table|module|worker|service|component|endpoint)\b|[a-z][a-z0-9]{0,30}(?:[_.:][a-z0-9]{1,30}){1,4}\s+(?:model|class|table|module|worker|service|component|endpoint)\b)/;
/** A paragraph that leads a short list of options ("Another option … There are a few services …:"). */
const LIST_INTRO_CUE = /\b(?:options?|alternatives?|candidates?|contenders?|considered|choices|approaches|evaluated|compared|looked at|assessed)\b/i;
/**
 * A sentence outside a decision section that says which option won ("`ruff` is the recommended tool", "we chose
 * X"): a record with no "Decision" heading decides there.
 */
const CHOOSING = /\b(?:is|was|are|were)\s+(?:the\s+)?(?:recommended|preferred|chosen|selected|winning)\b|\bwe\s+(?:recommend|chose|selected|picked|went with|decided (?:on|to use|to adopt|to go with))\b/i;
const TITLE_REPLACES = /^(?:replace|replacing|migrate\s+from|migrating\s+from|move\s+from|moving\s+from|switch\s+from|switching\s+from)\s+(.{1,80}?)\s+(?:with|by|to)\s+(.{1,80})$/i;
// "Combine api-redis into backend-redis", "Merge the X instance into the main one": the first goes, the second stays.
const TITLE_MERGES = /^(?:combine|combining|merge|merging|fold|folding|consolidate|consolidating)\s+(.{1,60}?)\s+into\s+(.{1,60})$/i;
// "Swapping JS Test Framework Jest for Vitest": what the title gives up, then what it takes.
const TITLE_SWAPS = /^(?:swap|swapping|swapped)\s+(.{1,80}?)\s+for\s+(.{1,80})$/i;
// "Use of conditionals in JSX (deprecation of `<ConditionallyRender />`)", "Deprecate X": what it deprecates is turned down.
// "Deprecated gossip clustering in favor of File SD": what a done deprecation took out is turned down as well.
const TITLE_DEPRECATES = /\bdeprecat(?:e|es|ed|ing|ion\s+of)\s+(`[^`]{1,60}`|[\w@./-]{2,60})/i;
// "Change … from X to Y", "Switch Test Assertions from Truth to assertk", "Move the build from Travis to Actions".
const TITLE_CHANGES = /^(?:change|changing|switch|switching|move|moving|migrate|migrating)\s+.{1,80}?\s+from\s+(.{1,60}?)\s+to\s+(.{1,60})$/i;
// "Use yarn workspaces instead of lerna", "Prefer X over Y": the title states the choice and what it set aside.
const TITLE_PREFERS = /^(?:use|using|prefer|preferring|choose|adopt|adopting|pick|go\s+with)\s+(.{1,60}?)\s+(?:over|instead\s+of|rather\s+than|in\s+place\s+of)\s+(.{1,60})$/i;
// "Remove Postgres (for now)", "Drop support for IE11": what the title takes out is turned down.
const TITLE_REMOVES = /^(?:remove|removing|drop|dropping|retire|retiring|get\s+rid\s+of|phase\s+out|stop\s+using)\s+(.{1,60})$/i;
// "Use Redis and Bull for background tasks", "Adopt X with Y": the title names what it chose, and the purpose after.
const TITLE_USES = /^(?:use|using|adopt|adopting|choose|go\s+with)\s+(.{1,80}?)(?:\s+(?:for|in|to|as|on|when|across)\s+.{1,80})?$/i;
// "Runner Class Replacing OldEngine", "X supersedes Y": the title names what it took first, then what it set aside.
const TITLE_REPLACING = /^(.{1,60}?)\s+(?:replacing|replaces|supersedes|superseding)\s+(.{1,60})$/i;
/** A record's own number before its title ("KEP-0042: ", "ORG-ADR-0003 - ", "RFC 12. "): no part of what it says. */
const TITLE_NUMBER = /^(?:[A-Za-z]{2,8}[- ]){0,3}\d{1,5}[a-z]?\s*[:.\u2013\u2014-]\s+/;
/** A version on its own ("8.x", "11", "v2.1"): a title that drops versions of a thing keeps the thing. */
const VERSION_WORD = /(?:^|\s)v?\d+(?:\.(?:\d+|x))*(?=[\s,)]|$)/i;
/** A title's aside ("(for now)") and a trailing "for now" qualify when, not what. */
const titleName = (s: string) => s.replace(/\s*\([^()]{0,40}\)\s*$/, "").replace(/\s+for\s+now$/i, "").trim();

/** "the switch from (using) X (for …) to Y", "we migrated from X to Y": X and Y, each a code span, a link or a name. */
const SWITCH_SENTENCE = /\b(?:switch(?:ed|ing)?|migrat(?:e|ed|ing|ion)|mov(?:e|ed|ing))\s+(?:away\s+)?from\s+(?:using\s+)?(.{1,80}?)\s+(?:for\s+[\w\s-]{1,40}?\s+)?to\s+(?:using\s+)?(?:the\s+)?(.{1,80})/i;
/** "hide … the `stm` library in favor of `io-classes`": the name before the cue is set aside for the one after it. */
const IN_FAVOUR_OF = /(\S{1,60})\s+(?:(?:librar(?:y|ies)|packages?|modules?|crates?|gems?|tools?|frameworks?)\s+)?in\s+favou?r\s+of\s+(?:the\s+)?(\S{1,60})/i;
/** "X and Y have been replaced by Z", "X was replaced with Z": what was replaced is before the cue. */
const REPLACED_BY = /\b(?:(?:has|have|had)\s+(?:now\s+|since\s+)?been|(?:was|were))\s+replaced\s+(?:by|with)\b/i;
/**
 * "(rather than using a pre-existing setup such as [`create-react-app`](…))": the example of what the record did not
 * use, when the clause names it by an example ("such as", "like") or straight away as code or a link.
 */
const RATHER_THAN_USING = /\b(?:rather\s+than|instead\s+of)\s+(?:using|adopting|relying\s+on)\s+/i;
/** "We have therefore settled upon D3, for a number of reasons": the decision names what it took. */
const SETTLED_ON = /\bwe\s+(?:have\s+)?(?:therefore\s+|thus\s+|finally\s+|eventually\s+)?(?:settled\s+(?:up)?on|went\s+with|opted\s+for)\s+(?:the\s+)?/i;
/** "We were using X and Y, but …", "we previously used X": what the project used before the decision. */
const PAST_USE = /\bwe\s+(?:were\s+using|had\s+been\s+using|previously\s+used|used\s+to\s+use)\s+([^;]{1,120}?),?\s+but\b/i;

/** "including", "such as": a context sentence that enumerates things by name. */
const ENUMERATING = /\b(?:including|such\s+as)\s+/i;
/**
 * "There are other such libraries, e.g. [A] and [B]": the context names rivals of what the decision then takes; the
 * ones it does not take are turned down. Only a kind of thing (libraries, tools, …) qualified as "other" or
 * "alternative", then an example cue.
 */
const OTHER_SUCH = /\b(?:other|alternative|competing|similar)\s+(?:such\s+)?(?:librar(?:y|ies)|packages?|tools?|frameworks?|crates?|gems?|modules?|implementations?|solutions?)\b[^.;:]{0,40}?(?:e\.\s?g\.?|such\s+as|like|including|for\s+(?:example|instance))[,:]?\s+/i;
/** Groups of enumerated names (one per section); each name the decision section writes is kept, not turned down. */
const ENUMERATED_GROUP = 500_000;

/** The code spans and link texts of a fragment, in order; without any, its name-like runs. */
export function spanNames(fragment: string): string[] {
  const marked = [...fragment.slice(0, 600).matchAll(/`([^`]{1,80})`|\[([^\]]{1,80})\]\([^)\s]{0,300}\)/g)].map((m) => (m[1] ?? m[2]).replace(/[`*_]/g, "").trim()).filter(Boolean);
  return marked.length ? marked.slice(0, MAX_LIST) : namesIn(fragment);
}

/** Words that start a sentence or a clause and name nothing, even capitalised. */
const NOT_NAMES = new Set(
  ("a an the this that these those there their its it we our us they i you he she one some any each every all both either neither another other " +
    "however also but and or so if when while because although though since as at in on of for to by with from into upon not no yes " +
    "upgrade upgrading using use moving move switching migration migrating alternative alternatives option options candidate candidates " +
    "contenders considered consideration decision context consequences status eg e.g ie i.e etc").split(" "),
);

/** "We trialled two systems (A, a …, and B, …)": what a team tried out before it chose. */
const TRIALLED = /\bwe\s+(?:have\s+|also\s+|first\s+)?(?:trialled|trialed|piloted|prototyped|tried\s+out|test-drove)\s+/i;
/** "We have therefore decided to go with …", "we settled on …": the sentence that says what the team chose. */
const WENT_WITH = /\b(?:decided\s+(?:to\s+(?:go\s+with|use|adopt|build)|on|upon)|settled\s+(?:on|upon)|opted\s+(?:for|to)|went\s+with|chose|selected)\b/i;

/**
 * The things a team trialled and then went with something else: "We trialled two ready-made systems (Prismic, a
 * commercial PaaS, and Strapi, …) as well as an in-house prototype … We have therefore decided to go with the
 * home-grown option." Each listed item is known by the name it starts with (its description after a comma is no
 * item); when the first sentence after the trial that says what was chosen names none of them, all were turned
 * down. One that it names is the choice, and the others are the group's rest, read as options elsewhere.
 */
function trialledNotChosen(sentences: LocatedSentence[]): ProseOption[] {
  for (let i = 0; i < sentences.length; i++) {
    const s = sentences[i];
    const cue = TRIALLED.exec(s.text);
    if (!cue) continue;
    const names: string[] = [];
    for (const part of s.text.slice(cue.index + cue[0].length, cue.index + cue[0].length + 600).split(/[(),;]|\band\b|\bas\s+well\s+as\b/i)) {
      const words = part.trim().split(/\s+/);
      if (!words[0] || !nameWord(words[0])) continue;
      const lead = namesIn(part.trim(), 1)[0];
      if (lead && part.trim().startsWith(lead)) names.push(lead);
    }
    if (names.length < 2 || names.length > MAX_LIST) continue;
    const chose = sentences.slice(i + 1, i + 6).find((d) => WENT_WITH.test(d.text) && !/\b(?:not|never)\b/i.test(d.text.slice(0, WENT_WITH.exec(d.text)!.index)));
    if (!chose) continue;
    const words = new Set(tokensOf(chose.text));
    if (names.some((n) => overlaps(n, words))) continue;
    return names.map((name) => ({ name, range: { start: s.start, end: s.end }, reason: chose.text.slice(0, 200), marked: true }));
  }
  return [];
}

/** "The alternative of timestamp generation is `HLC`": the one other way the record names for something it does. */
const THE_ALTERNATIVE = /\bthe\s+(?:only\s+|other\s+|main\s+)?alternative\s+(?:of|to|for)\s+[^.;:]{1,80}?\s+(?:is|was)\s+/i;
/** "… we prefer to utilize TSO", "we chose X": a preference the record states for itself. */
const WE_PREFER = /\bwe\s+(?:still\s+|therefore\s+|would\s+)?(?:prefer|preferred|chose|choose|decided\s+(?:on|to\s+use)|opted\s+for|went\s+with|settled\s+(?:on|upon))\b/i;

/**
 * "The alternative of timestamp generation is `HLC` … we prefer to utilize TSO as timestamp": the alternative a
 * record names is turned down when that sentence or one of the next two states a preference that does not name it.
 * A record that names an alternative and prefers nothing ("the alternative is X; it has these costs") reads nothing.
 */
function alternativeNotPreferred(sentences: LocatedSentence[]): ProseOption[] {
  const out: ProseOption[] = [];
  sentences.forEach((s, i) => {
    const cue = THE_ALTERNATIVE.exec(s.text);
    if (!cue) return;
    const rest = s.text.slice(cue.index + cue[0].length).replace(/^[`"'“[]+/, "");
    const name = namesIn(rest, 1)[0];
    if (!name || !rest.startsWith(name)) return;
    const prefers = [s, ...sentences.slice(i + 1, i + 3)].find((d) => WE_PREFER.test(d.text));
    if (!prefers) return;
    const preferred = prefers.text.slice(WE_PREFER.exec(prefers.text)!.index);
    if (overlaps(name, new Set(tokensOf(preferred)))) return;
    out.push({ name, range: { start: s.start, end: s.end }, reason: `${s.text.slice(0, 120)} … ${preferred.slice(0, 80)}`, marked: true });
  });
  return out.slice(0, MAX_LIST);
}

/** A name-like word: capitalised, inner capital, digit or package punctuation ("JMeter", "SolR", "http4s-tracer"). */
function nameWord(w: string): boolean {
  const bare = w.replace(/^[^\w@]+|[^\w+#]+$/g, "");
  if (!bare || NOT_NAMES.has(bare.toLowerCase())) return false;
  return /^[A-Z]/.test(bare) || /[a-z][A-Z]/.test(bare) || (/\d/.test(bare) && /[a-z]/i.test(bare)) || /^[a-z][\w]*[-.][\w.-]*[a-z0-9]$/i.test(bare);
}

/** The name-like runs of a fragment, at most MAX_NAME_WORDS words each, split at punctuation and parentheses. */
export function namesIn(fragment: string, limit = MAX_LIST): string[] {
  const out: string[] = [];
  let run: string[] = [];
  const flush = () => {
    if (run.length && run.length <= MAX_NAME_WORDS) out.push(run.join(" "));
    run = [];
  };
  let depth = 0;
  for (const raw of fragment.slice(0, 600).split(/\s+/)) {
    if (!raw) continue;
    const opens = (raw.match(/\(/g) ?? []).length;
    const closes = (raw.match(/\)/g) ?? []).length;
    const inside = depth > 0 || raw.startsWith("(");
    depth = Math.max(0, depth + opens - closes);
    if (inside) {
      flush();
      continue;
    }
    const word = raw.replace(/^["'“‘[*_`]+|["'”’\]*_`,;:.!?]+$/g, "");
    if (nameWord(word)) run.push(word);
    else flush();
    if (/[,;:.!?]$/.test(raw)) flush();
    if (out.length >= limit) break;
  }
  flush();
  return out.slice(0, limit);
}

function headingText(heading: string): string {
  return heading.replace(/[`*_]/g, "").replace(/\s+/g, " ").trim();
}

/** Names that sections under an options heading give as their headings. */
function headingOptions(parsed: ParsedAdr): ProseOption[] {
  const { sections } = parsed.doc;
  const out: ProseOption[] = [];
  const childrenOf = new Map<number, typeof sections>();
  for (const c of sections) if (c.parent !== undefined) childrenOf.set(c.parent, [...(childrenOf.get(c.parent) ?? []), c].slice(0, MAX_LIST + 1));
  sections.forEach((s, i) => {
    if (s.level === 0 || !OPTIONS_HEADING.test(s.heading.slice(0, 200)) || /\bpros and cons\b/i.test(s.heading.slice(0, 200))) return;
    const children = childrenOf.get(i) ?? [];
    if (children.length < 2 || children.length > MAX_LIST) return;
    for (const c of children) {
      const text = headingText(c.heading).replace(/^(?:option\s+)?(?:\d+|[A-Z])[.):]\s+/i, "");
      if (text && text.split(" ").length <= MAX_NAME_WORDS) out.push({ name: text, range: { start: c.start, end: c.start }, group: -i - 1 });
    }
  });
  return out;
}

/** A body that weighs an option: it has both pros and cons ("**Pros**:", "Cons", "Advantages" / "Disadvantages"). */
const PROS = /\b(?:pros|advantages|benefits)\b/i;
const CONS = /\b(?:cons|disadvantages|drawbacks)\b/i;

/** A name's compact form ("React GA", "react-ga" and "ReactGA" are all `reactga`). */
const compactOf = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, "");

/**
 * Sibling headings each weighing one option by its pros and cons, under a record that never says which it took
 * ("### React Beacon" and "### React GA"), and consequences that build on exactly one of them ("call simple functions
 * provided by the ReactGA"): that one is the choice and its siblings were turned down. Compact forms match, since
 * consequences write a name as code does. Nothing is read when the decision names some of them but not all, or when
 * the consequences name none or several.
 */
function chosenByConsequences(parsed: ParsedAdr, decided: Set<string>): ProseOptions {
  const { sections } = parsed.doc;
  const none = { rejected: [], chosen: [] };
  const consequences = sections.filter((_, i) => parsed.section_names[i] === "consequences").map((c) => c.body).join("\n").slice(0, 20_000);
  if (!consequences) return none;
  const words = consequences.split(/[^A-Za-z0-9]+/).filter(Boolean).map((w) => w.toLowerCase());
  const said = new Set([...words, ...words.slice(1).map((w, k) => words[k] + w)]);
  const childrenOf = new Map<number, typeof sections>();
  for (const c of sections) if (c.parent !== undefined) childrenOf.set(c.parent, [...(childrenOf.get(c.parent) ?? []), c].slice(0, MAX_LIST + 1));
  for (const children of childrenOf.values()) {
    if (children.length < 2 || children.length > MAX_LIST || !children.every((c) => PROS.test(c.body) && CONS.test(c.body))) continue;
    const options = children.map((c) => ({ name: headingText(c.heading), range: { start: c.start, end: c.start } })).filter((o) => o.name.split(" ").length <= MAX_NAME_WORDS && compactOf(o.name).length >= 3);
    // A decision that names some of them but not all picks among them; one that lists them all only introduces them.
    const inDecision = options.filter((o) => overlaps(o.name, decided)).length;
    if (options.length !== children.length || (inDecision > 0 && inDecision < options.length)) continue;
    const named = options.filter((o) => said.has(compactOf(o.name)));
    if (named.length !== 1) continue;
    const reason = `the record weighed ${options.map((o) => o.name).join(" and ")}; its consequences build on ${named[0].name}`;
    return { chosen: [{ ...named[0], marked: true }], rejected: options.filter((o) => o !== named[0]).map((o) => ({ ...o, reason, marked: true })) };
  }
  return none;
}

/** A package-shaped name: lower-case parts joined by hyphens or dots, each with a letter (`grpc-gateway`, `go-kit.log`). */
const PACKAGE_WORD = /(?<![\w./-])[a-z][a-z0-9]*(?:[-.][a-z][a-z0-9]*)+(?![\w/-]|\.\w)/g;

/** A kind of software, then (within the line) one lower-case name alone in brackets: "… library is not maintained. (cmux)". */
const KIND_THEN_NAME = /\b(?:librar(?:y|ies)|packages?|tools?|frameworks?|modules?|drivers?|plugins?|clients?)\b[^()\n]{0,80}\(\s*([a-z][a-z0-9]{2,30}(?:[-.][a-z0-9]+){0,3})\s*\)/g;

/**
 * "## Alternatives" with nothing under it, then "## Define APIs in gRPC … with grpc - gateway" weighed by its pros and
 * cons at the same level: a record that flattened its headings lists the alternatives it did not take as the
 * siblings after an empty options heading, each with pros and cons, up to the first sibling without them. Each such
 * heading is read for the packages it names (`grpc-gateway`, a spaced "grpc - gateway" too); its words otherwise
 * describe a way of doing things ("Define HTTP RESTful API only in OpenAPI") and name nothing to turn down. Its body
 * names a package only in brackets after a kind of software ("Same port library is not maintained. (cmux)").
 */
function flatAlternatives(parsed: ParsedAdr): ProseOption[] {
  const { sections } = parsed.doc;
  const out: ProseOption[] = [];
  sections.forEach((s, i) => {
    if (s.level === 0 || !/\balternatives?\b/i.test(s.heading.slice(0, 200)) || s.body.trim() || sections[i + 1]?.parent === i) return;
    for (const sibling of sections.slice(i + 1, i + 1 + MAX_LIST)) {
      if (sibling.level !== s.level || !PROS.test(sibling.body) || !CONS.test(sibling.body)) break;
      const heading = headingText(sibling.heading).replace(/\b([a-z][a-z0-9]*) - ([a-z][a-z0-9]*)\b/g, "$1-$2");
      for (const m of heading.matchAll(PACKAGE_WORD)) {
        if (!out.some((o) => o.name === m[0])) out.push({ name: m[0], range: { start: sibling.start, end: sibling.start }, reason: heading.slice(0, 200), marked: true });
      }
      // "Same port library is not maintained. (cmux)": the alternative's own library, named in brackets after a
      // sentence about a library or tool it would need.
      for (const m of sibling.body.slice(0, 4000).matchAll(KIND_THEN_NAME)) {
        if (!out.some((o) => o.name === m[1])) out.push({ name: m[1], range: { start: sibling.start, end: sibling.start }, reason: heading.slice(0, 200), marked: true });
      }
    }
  });
  return out.slice(0, MAX_LIST);
}

/** "Option 2: Kyverno", "Alternative B - OPA": a heading that numbers an option, wherever it sits. */
const NUMBERED_OPTION = /^(?:option|alternative|approach|proposal|choice)\s+(?:\d{1,2}|[A-Za-z])\s*[:.)\-–—]\s*(.{1,120})$/i;

function numberedHeadingOptions(parsed: ParsedAdr): ProseOption[] {
  const out: ProseOption[] = [];
  for (const s of parsed.doc.sections) {
    if (s.level === 0) continue;
    const m = NUMBERED_OPTION.exec(headingText(s.heading).slice(0, 200));
    if (m && m[1].split(" ").length <= 8) out.push({ name: m[1].trim(), range: { start: s.start, end: s.start }, group: -1_000_000 - (s.parent ?? 0) });
  }
  return out;
}

/** A list item led by a bold, linked or code name ("- **Styletron**: …", "* [Kyverno](…) — …"). */
const LEAD_NAME = /^\s*(?:[-*+]|\d{1,3}[.)])\s+(?:\*\*([^*]{1,60})\*\*|__([^_]{1,60})__|\[([^\]]{1,60})\]\([^)]{0,300}\)|`([^`]{1,60})`|\[([^\]]{1,60})\]\[[^\]]{0,60}\])/;
/** A table whose first column lists the options ("| Option | Pros | Cons |"). */
const OPTION_COLUMN = /^\s*\|?\s*\**\s*(?:options?|tools?|alternatives?|candidates?|librar(?:y|ies)|frameworks?|solutions?|approach(?:es)?|products?|names?)\s*\**\s*\|/i;

/**
 * Option-table rows wherever the table says its first column is the option, and lead-named list items in sections
 * about options (not in the context, where "- `mailboxId`: …" describes what exists), one group per section or table.
 */
function ledAndTabledOptions(parsed: ParsedAdr): ProseOption[] {
  const { lines, sections } = parsed.doc;
  const out: ProseOption[] = [];
  sections.forEach((s, i) => {
    const name = parsed.section_names[i];
    const about = name === "considered-options" || name === "alternatives" || OPTIONS_HEADING.test(s.heading.slice(0, 200));
    if (s.level === 0) return;
    const led: ProseOption[] = [];
    let table: ProseOption[] | undefined;
    let tableStart = 0;
    const flushTable = () => {
      if (table && table.length >= 2 && table.length <= MAX_LIST) out.push(...table);
      table = undefined;
    };
    for (let n = s.bodyStart; n <= s.contentEnd && n - s.bodyStart < 2000; n++) {
      const line = (lines[n - 1] ?? "").slice(0, 1000);
      if (OPTION_COLUMN.test(line)) {
        flushTable();
        table = [];
        tableStart = n;
        continue;
      }
      if (table) {
        if (!/^\s*\|/.test(line)) flushTable();
        else if (!/^\s*\|?[\s:|-]+$/.test(line)) {
          const cell = line.replace(/^\s*\|/, "").split("|")[0].replace(/\[([^\]]{1,80})\]\([^)]{0,300}\)/g, "$1").replace(/[`*_]/g, "").trim();
          if (cell && cell.split(/\s+/).length <= MAX_NAME_WORDS) table.push({ name: cell, range: { start: n, end: n }, group: 300_000 + tableStart });
          continue;
        }
      }
      const m = LEAD_NAME.exec(line);
      const lead = m ? (m[1] ?? m[2] ?? m[3] ?? m[4] ?? m[5] ?? "").trim() : "";
      if (about && lead && lead.split(/\s+/).length <= MAX_NAME_WORDS) led.push({ name: lead, range: { start: n, end: n }, group: 400_000 + i });
    }
    flushTable();
    if (led.length >= 2 && led.length <= MAX_LIST) out.push(...led);
  });
  return out;
}

/** A short list (2..MAX_LIST items of a few words) right after a paragraph that introduces options and ends with ":". */
function introducedLists(parsed: ParsedAdr): ProseOption[] {
  const lines = parsed.doc.lines;
  const out: ProseOption[] = [];
  for (let n = 1; n < lines.length && n < 5000; n++) {
    const line = lines[n - 1] ?? "";
    if (!line.trimEnd().endsWith(":") || !LIST_INTRO_CUE.test(line.slice(0, 1000))) continue;
    let k = n + 1;
    while (k <= lines.length && !(lines[k - 1] ?? "").trim()) k++;
    const items: ProseOption[] = [];
    for (; k <= lines.length && items.length <= MAX_LIST; k++) {
      const item = (lines[k - 1] ?? "").slice(0, 1000);
      // A wrapped item's next lines are indented: still the same item.
      if (items.length && /^\s+\S/.test(item) && !/^\s*[-*+]\s/.test(item)) continue;
      // An item led by its name ("- `pylint` for identifying the most issues. …") is that name, however long.
      const led = LEAD_NAME.exec(item);
      const lead = led ? (led[1] ?? led[2] ?? led[3] ?? led[4] ?? led[5] ?? "").trim() : "";
      const m = lead ? [item, lead] : /^\s*[-*+]\s+(.{1,120})$/.exec(item);
      if (!m) break;
      const text = m[1].replace(/\[([^\]]{1,80})\]\([^)]{0,300}\)/g, "$1").replace(/[`*_]/g, "").trim();
      if (text.split(/\s+/).length > MAX_NAME_WORDS || (!lead && !namesIn(text, 1).length)) {
        items.length = 0;
        break;
      }
      items.push({ name: text, range: { start: k, end: k }, ...(lead ? { marked: true } : {}) });
    }
    if (items.length >= 2 && items.length <= MAX_LIST) out.push(...items.map((o) => ({ ...o, group: n })));
  }
  return out;
}

function isDecisionSection(name: string | undefined): boolean {
  return name === "decision" || name === "decision-outcome";
}

/**
 * The sentences outside the decision and status sections, each marked whether it comes before the decision (the
 * context and options, where the choice's candidates are) or after it (consequences, which may list the candidates
 * of a later choice).
 */
function otherSentences(parsed: ParsedAdr): (LocatedSentence & { beforeDecision: boolean; section?: number })[] {
  const { lines, sections } = parsed.doc;
  const out: (LocatedSentence & { beforeDecision: boolean; section?: number })[] = [];
  let seenDecision = false;
  sections.forEach((s, i) => {
    const name = parsed.section_names[i];
    if (isDecisionSection(name)) seenDecision = true;
    if (isDecisionSection(name) || name === "status" || out.length >= MAX_SENTENCES) return;
    const alternatives = name === "alternatives" || /\balternatives?\b/i.test(s.heading);
    for (const sentence of sentencesIn(lines, s.bodyStart, s.contentEnd, MAX_SENTENCES - out.length)) out.push({ ...sentence, beforeDecision: !seenDecision || alternatives, section: i });
  });
  return out;
}

/** A record's decision sections, sentence by sentence (for the instruments it names: instruments.ts). */
export function decisionSentencesOf(parsed: ParsedAdr): LocatedSentence[] {
  return decisionSentences(parsed);
}

function decisionSentences(parsed: ParsedAdr): LocatedSentence[] {
  const { lines, sections } = parsed.doc;
  const out: LocatedSentence[] = [];
  sections.forEach((s, i) => {
    if (isDecisionSection(parsed.section_names[i]) && out.length < 40) out.push(...sentencesIn(lines, s.bodyStart, s.contentEnd, 40 - out.length));
  });
  return out;
}

function cueOptions(sentences: (LocatedSentence & { beforeDecision: boolean; inDecision?: boolean; section?: number })[], lines: string[]): { candidates: ProseOption[]; turnedDown: ProseOption[]; switchedTo: ProseOption[] } {
  const candidates: ProseOption[] = [];
  const turnedDown: ProseOption[] = [];
  const switchedTo: ProseOption[] = [];
  for (const s of sentences) {
    const range = { start: s.start, end: s.end };
    const reason = s.text.slice(0, 200);
    // "the switch from using `anomaly` for error handling to the `flex-error` crate": what is switched away from is
    // turned down and what it is switched to chosen, wherever the record says so.
    // The sentence's text has lost its code spans and links, which are how such a record writes names: a word is a
    // name when it is written as one there, or as code or a link on the sentence's lines.
    const raw = lines.slice(s.start - 1, Math.min(s.end, s.start + 5)).join(" ").slice(0, 3000);
    const named = (fragment: string) => {
      const word = (fragment.trim().split(/\s+/)[0] ?? "").replace(/^[^\w@]+|[^\w+#]+$/g, "");
      if (!word || NOT_NAMES.has(word.toLowerCase())) return undefined;
      return nameWord(word) || raw.includes(`\`${word}\``) || raw.includes(`[${word}]`) || raw.includes(`[\`${word}\`]`) ? word : undefined;
    };
    // A switch one could make ("we can switch from the eyre tracer to …") is a possibility, not the decision.
    const switched = SWITCH_SENTENCE.exec(s.text);
    if (switched && !/\b(?:can|could|may|might|would|to)\s+$/i.test(s.text.slice(Math.max(0, switched.index - 12), switched.index))) {
      const from = named(switched[1]);
      const to = named(switched[2]);
      if (from && to && from !== to) {
        turnedDown.push({ name: from, range, reason, marked: true });
        switchedTo.push({ name: to, range, marked: true });
      }
    }
    const favoured = inFavourOf(s.text, named);
    if (favoured) turnedDown.push({ name: favoured.from, range, reason, marked: true });
    if (favoured) switchedTo.push({ name: favoured.to, range, marked: true });
    // "We were using `python` and `node.js`, but …": what the project used before the decision is what it moves off.
    const past = s.beforeDecision ? PAST_USE.exec(s.text) : null;
    if (past) for (const part of past[1].split(/,|\band\b/)) {
      const name = named(part);
      if (name) turnedDown.push({ name, range, reason, marked: true });
    }
    // "`tsc` and `ts-loader` have been replaced by Babel": what was replaced is turned down, wherever the record says
    // so, each part by its head word when that is written as a name ("Typescript's compiler `tsc`" is tsc), never
    // a replacement one could make ("could have been replaced").
    const replaced = REPLACED_BY.exec(s.text);
    if (replaced && !/\b(?:can|could|may|might|would|should|must|will)\s+(?:not\s+)?$/i.test(s.text.slice(Math.max(0, replaced.index - 14), replaced.index))) {
      const subject = s.text.slice(0, replaced.index).split(/[;:]/).at(-1) ?? "";
      for (const part of subject.split(/,|\band\b|\bor\b/)) {
        // "the `x` and `y` packages": the kind of thing after the names is no name.
        const head = part.trim().replace(/\s+(?:packages?|librar(?:y|ies)|modules?|plugins?|tools?|dependenc(?:y|ies)|crates?|gems?)$/i, "").split(/\s+/).at(-1) ?? "";
        const name = head && !/['’]s$/.test(head) ? named(head) : undefined;
        if (name) turnedDown.push({ name, range, reason, marked: true });
      }
    }
    // The decision section is read for its switch only: its other cues are the outcome's, read elsewhere.
    if (s.inDecision) continue;
    const before = REJECTED_BEFORE.exec(s.text);
    if (before) {
      // The name closest before the cue is its subject ("[JMeter] was considered as an alternative").
      // The subject is the name right before the cue, a version aside ("[JMeter] was considered", "ElasticSearch 8.2 is
      // not an option"), and not the object of "of" ("the UI made at the start of Wikidata is not …" is about the UI).
      const words = s.text.slice(0, before.index).trim().split(/\s+/).slice(-6);
      while (words.length && /^v?\d[\w.]*$/.test(words.at(-1) ?? "")) words.pop();
      const last = namesIn(words.join(" ")).at(-1);
      const at = last ? words.length - last.split(" ").length : -1;
      if (last && words.slice(at).join(" ") === last && words[at - 1]?.toLowerCase() !== "of") turnedDown.push({ name: last, range, reason });
    }
    const example = ratherThanExample(s.text, raw);
    if (example) turnedDown.push({ name: example, range, reason, marked: true });
    const after = REJECTED_AFTER.exec(s.text) ?? DELETED_PART.exec(s.text);
    if (after) {
      const first = namesIn(s.text.slice(after.index + after[0].length), 1)[0];
      if (first) turnedDown.push({ name: first, range, reason });
    }
    // "… methods currently used, including [A], [B] and [C]", "other solutions such as [D]": the linked or coded
    // names the context enumerates are what the decision chose among; one group per section.
    const listing = s.beforeDecision && s.section !== undefined ? ENUMERATING.exec(raw) : null;
    if (listing) {
      const names = spanNames(raw.slice(listing.index + listing[0].length)).filter((n) => /[`[]/.test(raw.slice(listing.index)) && (raw.includes(`[${n}]`) || raw.includes(`\`${n}\``)));
      for (const name of names) candidates.push({ name, range, group: ENUMERATED_GROUP + s.section!, marked: true });
    }
    // Rivals named as examples of "other such libraries": only names the lines write as code or links.
    const rivals = s.beforeDecision ? OTHER_SUCH.exec(raw) : null;
    if (rivals) for (const name of spanNames(raw.slice(rivals.index + rivals[0].length)).filter((n) => raw.includes(`[${n}]`) || raw.includes(`\`${n}\``))) turnedDown.push({ name, range, reason, marked: true });
    const cue = s.beforeDecision ? CANDIDATES_CUE.exec(s.text) : null;
    if (cue) {
      const rest = s.text.slice(cue.index + cue[0].length);
      const trigger = LIST_TRIGGER.exec(rest);
      if (trigger) for (const name of namesIn(rest.slice(trigger.index + trigger[0].length))) candidates.push({ name, range, group: 100_000 + s.start });
    }
    const weighed = s.beforeDecision ? WEIGHED.exec(s.text) : null;
    // "We looked at a 3rd party Lambda written in Python and Terraform": one thing described, whose attributes
    // (its language, its tooling) are no options.
    if (weighed && !/^(?:a|an|one|the|this|that|some)\s/i.test(s.text.slice(weighed.index + weighed[0].length))) {
      // "… upgrading to Sidekiq Pro, which persists jobs in Redis": a relative clause describes the option weighed.
      const names = namesIn(s.text.slice(weighed.index + weighed[0].length).split(/,?\s+(?:which|that|where|who|whose)\s/i)[0]);
      if (names.length >= 2) for (const name of names) candidates.push({ name, range, group: 200_000 + s.start });
    }
  }
  return { candidates, turnedDown, switchedTo };
}

/** "… the `stm` library in favor of `io-classes`": what is set aside and for what, both written as names. */
function inFavourOf(text: string, named: (fragment: string) => string | undefined): { from: string; to: string } | undefined {
  const m = IN_FAVOUR_OF.exec(text);
  const [from, to] = m ? [named(m[1]), named(m[2])] : [];
  return from && to && from.toLowerCase() !== to.toLowerCase() ? { from, to } : undefined;
}

/** What "rather than using … such as X" sets aside, when the raw lines write X as code or a link (or X comes first). */
function ratherThanExample(text: string, raw: string): string | undefined {
  const cue = RATHER_THAN_USING.exec(text);
  if (!cue) return undefined;
  const rest = text.slice(cue.index + cue[0].length, cue.index + cue[0].length + 200);
  const example = /^(?:an?\s+|the\s+)?(?:[\w-]+\s+){0,5}?(?:such\s+as|like)\s+/i.exec(rest);
  const at = example ? rest.slice(example[0].length) : rest;
  const name = (namesIn(at, 1)[0] ?? at.trim().split(/[\s),;]+/)[0])?.replace(/[^\w+#]+$/, "");
  if (!name || !at.trimStart().startsWith(name)) return undefined;
  // Without an example cue, only a name the record marks as code or a link ("rather than using `x`").
  const marked = raw.includes(`\`${name}\``) || raw.includes(`[${name}]`) || raw.includes(`[\`${name}\`]`);
  return marked || (example && nameWord(name)) ? name : undefined;
}

/** "We have therefore settled upon D3": the name the decision says it took, when it comes right after the cue. */
function settledOn(sentences: LocatedSentence[]): ProseOption[] {
  for (const s of sentences) {
    const cue = SETTLED_ON.exec(s.text);
    if (!cue) continue;
    const rest = s.text.slice(cue.index + cue[0].length);
    const name = namesIn(rest, 1)[0];
    if (name && rest.startsWith(name)) return [{ name, range: { start: s.start, end: s.end }, marked: true }];
  }
  return [];
}

/** Whether a text's words name the option: by the words that identify it (keysOf), never by "pattern" or "current". */
function overlaps(name: string, words: Set<string>): boolean {
  const keys = keysOf(name);
  if (!keys) return false;
  if (keys.exact) return keys.exact.every((t) => words.has(t));
  return keys.tokens.some((t) => words.has(t)) || (!!keys.compact && words.has(keys.compact));
}

/**
 * The words a record writes in lower case outside code and links: a capitalised word of an option ("Proof",
 * "Signatures") that the record also writes as "proof" is an ordinary word, while a product's name ("Stormpath",
 * "Django") is capitalised wherever it appears (or written as code, which is not read here).
 */
export function lowerCaseWords(lines: string[]): Set<string> {
  const out = new Set<string>();
  const text = lines.join("\n").slice(0, 200_000).replace(/`[^`\n]{0,200}`/g, " ").replace(/\]\([^()[\]\s]{0,500}\)/g, "] ").replace(/\bhttps?:\/\/\S{0,500}/g, " ");
  for (const w of text.split(/[^A-Za-z0-9]+/)) if (/^[a-z]/.test(w)) out.add(w);
  return out;
}

/** A word of an option name that names a thing however the record writes it: code, inner capitals, digits, a package shape. */
const SHAPED_NAME = /^`|[a-z][A-Z]|\d|^[A-Z]{2,}|^[a-z][\w]*[-.][\w.-]*[a-z0-9]$/;

/** The words of an option name the record also writes in lower case ("Secrets Store CSI driver" … "the secrets"). */
export function ordinaryWords(name: string, lower: Set<string>): string[] {
  return name.split(/\s+/).filter((w) => w && !SHAPED_NAME.test(w)).flatMap((w) => tokensOf(w)).filter((t) => lower.has(t));
}

/**
 * The first word of a name of two or three capitalised words when the record writes it before another word too
 * ("Docker Swarm" and "Docker containers"): a family or brand, not the thing. Linear: one scan per name.
 */
export function familyWords(name: string, text: string): string[] {
  const words = name.replace(/[`*_"“”]/g, "").trim().split(/\s+/);
  if (words.length < 2 || words.length > 3 || !words.every((w) => /^[A-Z][\w-]*$/.test(w))) return [];
  const [first, next] = [words[0], words[1]];
  const escaped = (w: string) => w.replace(/[.*+?^${}()|[\]\\-]/g, "\\$&");
  const other = new RegExp(`\\b${escaped(first)}\\s+(?!${escaped(next)}\\b)[A-Za-z]`);
  return other.test(text.slice(0, 200_000)) ? tokensOf(first) : [];
}

/** Marks each option's ordinary words; drops an option whose every word is ordinary. */
function withNameWords(options: ProseOption[], lower: Set<string>): ProseOption[] {
  const out: ProseOption[] = [];
  for (const o of options) {
    const words = o.name.split(/\s+/).filter(Boolean);
    const common = words.filter((w) => !SHAPED_NAME.test(w)).flatMap((w) => tokensOf(w)).filter((t) => lower.has(t));
    const named = o.marked || words.some((w) => SHAPED_NAME.test(w) || tokensOf(w).some((t) => !lower.has(t) && t.length >= 3));
    if (named) out.push(common.length && !o.marked ? { ...o, common } : o);
  }
  return out;
}

/**
 * The things a choosing title names ("Use Redis and Bull for …" → Redis, Bull; "Use typeorm with postgres"), each kept
 * only when the decision section names it too: the title's words alone may be its subject, not its choice.
 */
function titleChoices(parsed: ParsedAdr, title: string, range: { start: number; end: number }): ProseOption[] {
  const uses = TITLE_USES.exec(title);
  if (!uses) return [];
  const decided = new Set(decisionSentences(parsed).flatMap((d) => tokensOf(d.text)));
  const parts = titleName(uses[1]).split(/\s*(?:,|\band\b|\bwith\b|\bplus\b|&|\+)\s*/i).map((p) => p.trim()).filter(Boolean);
  // A list of more than three is a sentence, not a choice of things.
  if (parts.length > 3) return [];
  // A part of ordinary words ("command/query-based API") names a manner, not a thing.
  const named = (p: string) => tokensOf(p).some((t) => !GENERIC_PURPOSES.has(t) && decided.has(t));
  return parts.filter((p) => p.split(/\s+/).length <= 3 && !!keysOf(p) && named(p)).map((name) => ({ name, range, marked: true }));
}

/**
 * A merge title's two sides often end alike ("api-mongo cluster into mongo cluster"): the shared tail says what kind
 * of thing both are, so the side that goes is named by what is left of it ("api-mongo").
 */
function withoutSharedTail(merge: RegExpExecArray): RegExpExecArray {
  const gone = merge[1].trim().split(/\s+/);
  const kept = merge[2].trim().split(/\s+/);
  let shared = 0;
  while (shared < gone.length - 1 && shared < kept.length && gone[gone.length - 1 - shared].toLowerCase() === kept[kept.length - 1 - shared].toLowerCase()) shared++;
  const out = [...merge] as unknown as RegExpExecArray;
  out[1] = gone.slice(0, gone.length - shared).join(" ");
  return out;
}

/** The options a record weighs beyond its option list, split into the rejected and the chosen ones. */
export function proseOptionsOf(parsed: ParsedAdr, chosenName: string | undefined): ProseOptions {
  const rejected: ProseOption[] = [];
  const chosen: ProseOption[] = [];
  const title = parsed.title.trim();
  // The title's words after the record's own number: what the title regexes read.
  const named = title.replace(TITLE_NUMBER, "");
  const swaps = TITLE_REPLACES.test(named) || TITLE_CHANGES.test(named) ? undefined : TITLE_SWAPS.exec(named);
  const merges = TITLE_MERGES.exec(named);
  const replaces = TITLE_REPLACES.exec(named) ?? TITLE_CHANGES.exec(named) ?? swaps ?? (merges ? withoutSharedTail(merges) : null);
  const titleRange = { start: 1, end: 1 };
  if (replaces) {
    // "JCloud-based ObjectStorage backend" is JCloud; "Swapping JS Test Framework Jest for …" is Jest (the words
    // before the last name say what kind of thing it is).
    const based = /([\w.+#-]{2,40})-based\b/i.exec(replaces[1]);
    const kindThenName = swaps ? /^(?:[A-Z][\w.-]*\s+){1,4}([A-Z][\w.+#-]{1,40})$/.exec(replaces[1].trim()) : null;
    rejected.push({ name: based ? based[1] : kindThenName ? kindThenName[1] : replaces[1].trim(), range: titleRange, reason: title });
    // The title's "to Y" is a name by its place, however it is cased ("… from Truth to assertk").
    chosen.push({ name: replaces[2].trim(), range: titleRange, marked: true });
  }
  const replacing = replaces ? undefined : TITLE_REPLACING.exec(named);
  if (replacing) {
    rejected.push({ name: titleName(replacing[2]), range: titleRange, reason: title, marked: true });
    chosen.push({ name: titleName(replacing[1]), range: titleRange, marked: true });
  }
  const prefers = replaces || replacing ? undefined : TITLE_PREFERS.exec(named);
  if (prefers) {
    // Both sides are options by their place in the title, however they are cased ("… instead of lerna").
    rejected.push({ name: titleName(prefers[2]), range: titleRange, reason: title, marked: true });
    chosen.push({ name: titleName(prefers[1]), range: titleRange, marked: true });
  }
  const removes = replaces || replacing || prefers ? undefined : TITLE_REMOVES.exec(named);
  // "Drop support for Node.js 14.x and 15.x" drops versions: the runtime itself stays.
  if (removes && titleName(removes[1]) && !VERSION_WORD.test(titleName(removes[1]))) rejected.push({ name: titleName(removes[1]), range: titleRange, reason: title, marked: true });
  const deprecates = replaces || replacing || prefers || removes ? undefined : TITLE_DEPRECATES.exec(named);
  if (deprecates) rejected.push({ name: deprecates[1].replace(/`/g, "").trim(), range: titleRange, reason: title, marked: true });
  // "Use Redis and Bull for background tasks": each thing the title chose that the decision section names as well.
  if (!replaces && !replacing && !prefers && !removes) chosen.push(...titleChoices(parsed, named, titleRange));
  const others = otherSentences(parsed);
  const { candidates, turnedDown, switchedTo } = cueOptions([...others, ...decisionSentences(parsed).map((d) => ({ ...d, beforeDecision: false, inDecision: true }))], parsed.doc.lines);
  for (const o of switchedTo) if (!chosen.some((c) => c.name === o.name)) chosen.push(o);
  for (const o of settledOn(decisionSentences(parsed))) if (!chosen.some((c) => c.name === o.name)) chosen.push(o);
  const listed = [...headingOptions(parsed), ...numberedHeadingOptions(parsed), ...ledAndTabledOptions(parsed), ...introducedLists(parsed), ...candidates];
  // The decision's first sentence that names a listed option says which ones were chosen; without one, a sentence
  // elsewhere that says which option won ("`ruff` is the recommended tool").
  const namesListed = (s: LocatedSentence) => listed.some((o) => overlaps(o.name, new Set(tokensOf(s.text))));
  const inDecision = decisionSentences(parsed).find(namesListed);
  const decided = inDecision ?? others.find((s) => CHOOSING.test(s.text) && namesListed(s));
  const decidedWords = new Set([...(decided ? tokensOf(decided.text) : []), ...(chosenName ? tokensOf(chosenName) : [])]);
  // An enumerated name the decision section writes anywhere ("Parameter Store can be used for …") is allowed there.
  const decisionWords = new Set(decisionSentences(parsed).flatMap((d) => tokensOf(d.text)));
  const isEnumerated = (group: number | undefined) => group !== undefined && group >= ENUMERATED_GROUP && group < ENUMERATED_GROUP + 100_000;
  // A group is decided when the decision names one of its options: the others of that group were turned down.
  const decidedGroups = new Set(listed.filter((o) => overlaps(o.name, decidedWords)).map((o) => o.group));
  const groupSize = new Map<number | undefined, number>();
  for (const o of listed) groupSize.set(o.group, (groupSize.get(o.group) ?? 0) + 1);
  const seen = new Set<string>();
  for (const o of listed) {
    const key = tokensOf(o.name).join(" ");
    if (seen.has(key) || !keysOf(o.name)) continue;
    seen.add(key);
    // A record without a decision section ("`ruff` is the recommended tool"): what that sentence picked is the choice.
    const decidesGroup = !inDecision && !!decided && listed.some((p) => p.group === o.group && !overlaps(p.name, decidedWords));
    if (overlaps(o.name, decidedWords)) chosen.push(decidesGroup ? { ...o, decidesGroup } : o);
    else if (decided && decidedGroups.has(o.group) && (groupSize.get(o.group) ?? 0) >= 2 && !(isEnumerated(o.group) && overlaps(o.name, decisionWords))) rejected.push(o);
  }
  for (const o of turnedDown) if (!overlaps(o.name, decidedWords)) rejected.push(o);
  if (!decided && !chosen.length) {
    const implicit = chosenByConsequences(parsed, decisionWords);
    chosen.push(...implicit.chosen);
    rejected.push(...implicit.rejected);
  }
  rejected.push(...flatAlternatives(parsed).filter((o) => !overlaps(o.name, decidedWords)));
  rejected.push(...alternativeNotPreferred(others).filter((o) => !overlaps(o.name, decidedWords)));
  rejected.push(...trialledNotChosen([...others, ...decisionSentences(parsed)].sort((a, b) => a.start - b.start)).filter((o) => !overlaps(o.name, decidedWords)));
  // The whole text's word list is read only when there is a name to check against it.
  if (!rejected.length && !chosen.length) return { rejected, chosen };
  const lower = lowerCaseWords(parsed.doc.lines);
  return { rejected: withNameWords(rejected, lower), chosen: withNameWords(chosen, lower) };
}
