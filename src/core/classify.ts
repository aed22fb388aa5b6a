// Local rules classifier: is this text an open DESIGN question worth deliberating over, a lookup (a symbol,
// a file, a glob, an error to chase, "where is X", "how does X behave"), a task ("rename X"), or too thin to tell?
// No model call. Two kinds of evidence feed two totals, and their difference is mapped through a logistic to a
// confidence:
//   - a table of weighted regex rules for surface signals (paths, identifiers, stack traces, decision wording);
//   - the structure of each clause, read with `compromise` (part-of-speech tags): what the clause opens with
//     (a modal, an auxiliary or wh-word asking how something behaves, an imperative verb, a deliberation verb, or
//     a bare noun phrase) and whether it coordinates alternatives ("A or B", "A vs B", "between A and B", "A
//     instead of B"). Alternatives count as a design choice only in a deliberating frame: "should X be A or B",
//     "A or B for Z?", "wondering whether to A or B"; not in "is the id a UUID or an integer?" (a lookup) or
//     "remove this or rename it" (a task).
import { compromise } from "./nlp";
import type { Classification } from "./schemas";

/** Confidence at or above which a class is committed to; below it the classifier abstains. */
export const CLASSIFY_THRESHOLD = 0.6;

type Side = "open" | "lookup";

interface Rule {
  side: Side;
  /** Reason prefix, e.g. "decision phrasing"; the matched text is appended. */
  label: string;
  /** Weight added once per distinct match, up to `cap` matches (default 1: a rule counts once). */
  weight: number;
  cap?: number;
  re: RegExp;
  /**
   * Which form of the text the rule reads: "body" (default), "noUrls" (so "github.com/a/b.html" is not a file
   * path) or "prose" (URLs, paths and code spans removed, so "src/core/schemas.ts" is not design lexicon).
   */
  on?: "body" | "noUrls" | "prose";
  /**
   * Counts only when the text asks something: a clause ends in "?", or deliberates, or opens like a question
   * ("should …", "do we …"), or a decision tag marks it. "migrate to X" or "better than" in a statement is a remark.
   */
  asked?: boolean;
  /** Show the match as written rather than lowercased (paths and identifiers are case-sensitive). */
  verbatim?: boolean;
}

// Builds a regex (flags default "i") from a list of alternatives, each a regex source fragment, so each rule
// below reads as a list of phrases. Word-bounded unless `bounded: false`.
function phrases(alts: string[], opts: { bounded?: boolean; flags?: string } = {}): RegExp {
  const body = `(?:${alts.join("|")})`;
  return new RegExp(opts.bounded === false ? body : `\\b${body}\\b`, opts.flags ?? "i");
}

// Design-lexicon words: alone they are weak (a one-word "logging" must not become a question; the cap of 2
// keeps a pile of nouns below the threshold), together with interrogative or decision phrasing they tip it.
const DESIGN_WORDS = [
  "architecture", "architectural", "patterns?", "approach(?:es)?", "strateg(?:y|ies)", "librar(?:y|ies)", "frameworks?",
  "dependenc(?:y|ies)", "conventions?", "design", "trade-?offs?", "scalab\\w*", "maintainab\\w*", "performance",
  "latency", "throughput", "consistency", "reliability", "queues?", "cach(?:e|es|ing)", "databases?", "orms?",
  "monorepos?", "microservices?", "monoliths?", "state management", "package managers?", "bundlers?", "build tools?",
  "linters?", "formatters?", "tooling", "testing", "observability", "logging", "authentication", "authori[sz]ation",
  "polling", "websockets?", "rest", "graphql", "grpc", "event[- ]driven", "event sourcing", "serverless",
  "vendor lock-?in", "message brokers?", "migrations?", "schemas?", "apis?", "sdks?", "runtimes?", "deployment",
  "infrastructure", "feature flags?", "versioning", "validation", "sessions?", "rendering", "concurrency",
];

const FILE_EXT = "(?:ts|tsx|js|jsx|mjs|cjs|json|py|go|rs|java|kt|rb|php|cs|cpp|cc|c|h|hpp|ya?ml|toml|md|lock|sh|sql|css|scss|html|vue|svelte|ini|cfg|xml|gradle|txt)";
// Dir-qualified file, ./ or ../ relative path, absolute path, or a bare lowercase file name with a code
// extension. Capitalised "Node.js"/"Next.js" are product names, so bare names must start lowercase.
const FILE_PATH = new RegExp(
  [
    `(?:\\.{1,2}|~)?\\/?(?:[\\w.@-]+\\/)+[\\w.@-]+\\.${FILE_EXT}\\b`,
    `(?<![\\w/])\\.{1,2}\\/[\\w./@-]+`,
    `(?<![\\w./-])\\/(?:[\\w.-]+\\/)+[\\w.-]+`,
    `(?<![\\w./-])[a-z0-9_-][\\w-]*(?:\\.[\\w-]+)*\\.${FILE_EXT}\\b`,
  ].join("|"),
);
// A glob: a token with a "*" (or "**") that also has a "/" or ends in a file extension: `src/foo/*.ts`,
// `**/*.md`, `packages/*/src`; not "*args" or "**bold**".
const GLOB = new RegExp(`(?<![\\w*])(?:[\\w.@{},-]*\\/)*[\\w.@{},-]*\\*[\\w.@{},*-]*(?:\\/[\\w.@{},*-]+)*(?:\\.${FILE_EXT}\\b|\\/)|(?<![\\w*])(?:[\\w.@-]+\\/)+\\*{1,2}(?![\\w*])`);
const URL = /\b[a-z][\w+.-]*:\/\/\S+/gi;
const CODE_SPAN = /`[^`\n]+`/g;

const RULES: Rule[] = [
  // ---- Open-question evidence -------------------------------------------------------------------------
  {
    side: "open", label: "decision phrasing", weight: 3,
    re: phrases([
      "should (?:we|i|you|the team|our)", "should (?:this|it|that|these|those) (?:be|use|live|go|stay)", "shall we", "ought we", "how should (?:we|i)",
      "is it (?:better|worth|wise|preferable|a good idea|time to)", "would it be (?:better|worth|wise)",
      "(?:is|are) \\w+(?: \\w+)? worth (?:it|the|using|adopting)",
      "(?:is|are) [\\w.-]+(?: [\\w.-]+)? (?:a )?(?:good|right|better|bad|poor) (?:fit|idea|choice|option|match)",
      "pros and cons", "trade-?offs? (?:between|of|for)",
      "do we (?:want|really need|even need)", "do we need (?:a|an)",
      "what(?:'s| is| would be| are) the (?:best|right|recommended|preferred|idiomatic|cleanest|simplest|proper) (?:ways?|approach(?:es)?|patterns?|options?|choices?|tools?|librar(?:y|ies)|strateg(?:y|ies)|place)",
      "what are (?:the|our|some) (?:options|alternatives)", "alternatives? (?:to|for)",
      "how (?:do|does|did|are|is|should|would) (?:others|other (?:teams|projects|companies|repos|codebases)|people|most teams|the community|similar projects)",
      "standardi[sz]e on", "any reason (?:not )?to",
      "(?:is|are) (?:it|this|that|we) (?:still )?(?:the )?(?:right|wrong) (?:tool|choice|call|approach|place|layer|fit)",
    ]),
  },
  {
    // Evaluative words that weigh options in a question ("would X be enough?", "better off with A than B?") but
    // are only remarks in a statement ("this is better than giving the crate access", "the proper way to do this
    // is …").
    side: "open", label: "evaluative wording", weight: 2.5, asked: true,
    re: phrases([
      "better (?:to|than|off)", "makes? (?:more )?sense to", "go with", "ought to", "worth (?:using|adopting|switching|it|the (?:cost|effort|complexity))",
      "(?:the )?(?:best|right|cleanest|simplest|preferred|recommended|idiomatic|proper) (?:way|approach|place|pattern) (?:to|for)",
      "(?:is|are|was|be) [\\w.-]+(?: [\\w.-]+){0,3} (?:overkill|justified|warranted|enough|sufficient|over-?engineer(?:ed|ing))",
    ]),
  },
  // "A vs B", "A or B", "instead of" are read from the clause structure (see `alternativesIn`).
  { side: "open", label: "comparison", weight: 3, asked: true, re: phrases(["compared? (?:to|with)", "comparison (?:of|between)"]) },
  {
    side: "open", label: "adoption verb", weight: 2.5, asked: true,
    re: phrases([
      "adopt(?:ing|ion)?", "migrat(?:e|ing|ion) (?:to|from|off|away)", "as an? (?:replacement|alternative|successor) (?:for|to)", "in favou?r of",
      "switch(?:ing)? (?:(?:our|the) [\\w.-]+(?: [\\w.-]+)? )?(?:to|from|over|away)",
      "replac(?:e|ing) [\\w.+#-]+(?: [\\w.+#-]+)? with", "mov(?:e|ing) (?:away from|off|from [\\w.+#-]+ to)",
      "stick with", "keep (?:the|using|our) [\\w.+#-]+ or", "drop(?:ping)? (?:support for|the|our)", "deprecat(?:e|ing)",
    ]),
  },
  {
    // "which pattern does our codebase favour", "which testing framework should we ..."
    side: "open", label: "choice question", weight: 2.5,
    re: /\bwhich (?:[\w-]+ ){0,2}(?:pattern|approach|style|convention|library|framework|tool|strategy|option|design|architecture|database|db|orm|queue|broker|package manager|bundler|way|stack|provider)s?\b/i,
  },
  {
    side: "open", label: "preference wording", weight: 1.5, asked: true,
    re: phrases(["favou?r(?:s|ed)?", "prefer(?:s|red|able)?", "idiomatic", "best practices?", "recommend(?:ed|s)?", "conventional"]),
  },
  { side: "open", label: "design lexicon", weight: 1, cap: 2, on: "prose", re: phrases(DESIGN_WORDS, { flags: "gi" }) },
  { side: "open", label: "interrogative", weight: 0.5, re: /\?\s*$|^(?:should|which|is|are|would|could|can|do|does|how|what|why|when|shall)\b/i },

  // ---- Lookup evidence --------------------------------------------------------------------------------
  {
    side: "lookup", label: "navigational phrasing", weight: 4,
    re: phrases([
      "where(?:'s| is| are| do| does| did| can i find| should i look)", "find (?:the|all|where|usages|references|a|my|every)",
      "go to", "jump to", "show me", "^open", "open the", "list (?:all|the|every)", "grep", "look up", "locate",
      "what does [\\w.`$()]+(?: \\w+)? (?:return|do|mean|output|contain|accept|take|print|emit|throw)",
      "which (?:file|files|module|folder|directory|class|function|method|line|test|component|service|package|commit) (?:defines?|contains?|has|implements?|handles?|calls?|exports?|imports?|is|owns|uses)",
      // How-to about this codebase; "how do I choose ..." is left to the decision rules.
      "how (?:do|can) (?:i|you)(?! (?:choose|decide|pick|compare|evaluate|weigh)\\b)",
      "how (?:do|can) we (?:run|build|test|install|start|deploy|debug|configure|set up|setup|launch|compile|lint|format|use|call|import|enable|disable|regenerate|update|add)",
      "how does (?:(?:the|our|this|that) )?[\\w-]+(?: [\\w-]+)? work", "who (?:calls|wrote|owns|uses|changed)",
      "(?:usages?|references|callers|definition|signature|implementation|source) of",
    ]),
  },
  { side: "lookup", label: "definition lookup", weight: 1.5, re: phrases(["defined", "declared", "implemented", "located", "lives?"]) },
  {
    side: "lookup", label: "factual question", weight: 3,
    re: phrases([
      "what(?:'s| is| are) the (?:default|current|value|type|version|port|name|path|url|signature|format|return type|status|size|limit|timeout|env(?:ironment)? var(?:iable)?)s?",
      "what (?:version|port|type) (?:of|is|does)",
    ]),
  },
  {
    side: "lookup", label: "stack trace", weight: 4, verbatim: true,
    re: /(?:\bat [\w$.<>[\] ]+ \(?[^()\s]+:\d+:\d+\)?|Traceback \(most recent call last\)|File "[^"]+", line \d+|^\s*at [\w$.<>]+ \()/m,
  },
  {
    // Two distinct hits ("TypeError:" and "Cannot read properties of") are stronger than one.
    side: "lookup", label: "error message", weight: 3, cap: 2, verbatim: true,
    re: new RegExp(
      [
        "\\b[A-Z][A-Za-z]*(?:Error|Exception)\\b:?", "\\b(?:Error|ERROR|panic|FATAL|fatal|Uncaught):",
        "\\bE(?:NOENT|ACCES|CONNREFUSED|ADDRINUSE|PERM|TIMEDOUT|CONNRESET|EXIST|NOTDIR|ISDIR|MFILE|PIPE)\\b",
        "\\b(?:runtime|syntax|type|reference|compile|fatal) error\\b", "[Cc]annot read propert(?:y|ies) of",
        "is not a function", "is (?:not defined|undefined|null)\\b", "[Ss]egmentation fault", "exit code \\d+",
        "[Uu]nhandled (?:promise )?rejection", "command not found", "[Cc]annot find module", "[Mm]odule not found",
        "[Nn]o such file or directory", "index out of range", "out of memory", "stack overflow", "null pointer",
      ].join("|"),
      "g",
    ),
  },
  {
    // "why does the build fail", "why is X null": chasing a defect, not choosing a design.
    side: "lookup", label: "debugging phrasing", weight: 3,
    re: /\bwhy (?:is|does|did|do|am|are|was|won't|doesn't|isn't|can't)\b.*?\b(?:fail\w*|error\w*|null|undefined|crash\w*|throw\w*|slow|break\w*|empty|wrong|hang\w*|timeout|time out|missing|flak\w*)\b/i,
  },
  {
    side: "lookup", label: "bug wording", weight: 1.5,
    re: phrases([
      "fix(?:es|ing)?", "bug", "crash(?:es|ed|ing)?", "broken", "fails?", "failing", "throws?", "doesn't work", "does not work",
      "not working", "regression", "returns? (?:null|undefined|nan|nothing|an empty)",
    ]),
  },
  { side: "lookup", label: "file path", weight: 2.5, on: "noUrls", verbatim: true, re: FILE_PATH },
  { side: "lookup", label: "glob", weight: 2.5, on: "noUrls", verbatim: true, re: GLOB },
  { side: "lookup", label: "source location", weight: 2, verbatim: true, re: /\b[\w.-]+\.[a-z]{1,5}:\d+(?::\d+)?\b|\bline \d+\b/ },
  {
    // camelCase with a real lowercase run on both sides, so "gRPC", "iOS", "macOS", "jQuery" are not identifiers;
    // snake_case; SCREAMING_SNAKE; PascalCase only with 3+ humps ("GitHub", "TypeScript" are product names).
    side: "lookup", label: "identifier", weight: 1.5, verbatim: true,
    re: /\b[a-z][a-z0-9]+(?:[A-Z][a-z0-9]+)+\w*\b|\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b|\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b|\b[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]+){2,}\b/,
  },
  // Foo.bar(), parseConfig(x), symbol(): code, not prose. No space before "(" so "Redis (cluster)" is prose.
  { side: "lookup", label: "call expression", weight: 2.5, verbatim: true, re: /[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*\([^()\s]{0,40}\)/ },
  // config.retries, UserService.findById; a file extension after the dot is a file name, not a member.
  { side: "lookup", label: "member access", weight: 1, verbatim: true, on: "noUrls", re: new RegExp(`\\b[A-Za-z_$][\\w$]+\\.(?!${FILE_EXT}\\b)[a-z_$][\\w$]+\\b`) },
  { side: "lookup", label: "code span", weight: 1, verbatim: true, re: CODE_SPAN },
  {
    side: "lookup", label: "shell command", weight: 1.5,
    re: /\b(?:npm|pnpm|yarn|npx|git|node|python3?|pip|cargo|make|docker|kubectl|tsc) (?:run|install|i|test|build|start|exec|commit|push|pull|rebase|up|apply|add|log|blame|diff|checkout)\b/i,
  },
  {
    // The whole text is one symbol or path: "parseConfig", "get_user_by_id", "Foo.bar()".
    side: "lookup", label: "bare symbol", weight: 2, verbatim: true,
    re: /^(?=[\w$.()/-]*(?:[a-z][A-Z]|_|\.|\(\)|\/))[\w$.()/-]+$/,
  },
];

// Tags that mark a comment as an explicit open decision. They are stripped from the text but counted.
const STRONG_TAG_WEIGHT = 4;
const TAGS: Array<{ re: RegExp; name: string; weight: number }> = [
  { re: /^(?:TODO|FIXME)\s*\(\s*decide\s*\)\s*[:\-–]?\s*/i, name: "TODO(decide)", weight: STRONG_TAG_WEIGHT },
  { re: /^DECIDE\s*[:\-–]\s*/i, name: "DECIDE", weight: STRONG_TAG_WEIGHT },
  { re: /^OPEN[ _-]?QUESTION\s*[:\-–]\s*/i, name: "OPEN QUESTION", weight: STRONG_TAG_WEIGHT },
  { re: /^QUESTION\s*[:\-–]\s*/i, name: "QUESTION", weight: 1.5 },
  // Plain TODO/FIXME carry no signal either way; uppercase only, so "todo app: …" keeps its words.
  { re: /^(?:TODO|FIXME|XXX)\b(?:\s*\([^)]*\))?\s*[:\-–]?\s*/, name: "TODO", weight: 0 },
];

// Leading comment markers: //, ///, /*, /**, *, #, --, ;;, <!--. "#", "*" and "--" need a following space
// (or end of line) so "#123", "*args" and "--force" survive. A run of them ("// * # ") goes in one step.
const LEADING_MARKER = /^(?:(?:\/\/+!?|\/\*+!?|\*+(?=\s|$)|#+(?=\s|$)|--+(?=\s|$)|;;+|<!--)\s*)+/;
// Removes a trailing block-comment closer (stars and a slash) or "-->" with the space around it, scanning from the
// end: the regex form of this is quadratic on long space or star runs.
function stripTrailingMarker(line: string): string {
  const t = line.trimEnd();
  if (t.endsWith("-->")) return t.slice(0, -3).trimEnd();
  if (!t.endsWith("*/")) return line;
  let i = t.length - 2;
  while (i > 0 && t[i - 1] === "*") i--;
  return t.slice(0, i).trimEnd();
}
// A decision tag behind trailing code: `retry(); // TODO(decide): ...` keeps only the comment.
const INLINE_TAG = /(?:(?<!\/)\/\/+|\/\*+|#|--)\s*(?=(?:TODO|FIXME)\s*\(\s*decide\s*\)|DECIDE\s*[:\-–]|OPEN[ _-]?QUESTION\s*[:\-–])/i;

interface Stripped {
  text: string;
  tags: Array<{ name: string; weight: number }>;
}

function stripWithTags(text: string): Stripped {
  const tags: Stripped["tags"] = [];
  const lines: string[] = [];
  for (const raw of text.split(/\r?\n/)) {
    let line = raw.trim();
    const inline = INLINE_TAG.exec(line);
    if (inline && inline.index > 0) line = line.slice(inline.index);
    // Markers and tags can stack ("// * TODO(decide): DECIDE: ..."), so peel until nothing changes.
    for (let prev = ""; prev !== line; ) {
      prev = line;
      line = stripTrailingMarker(line.replace(LEADING_MARKER, "")).trim();
      for (const tag of TAGS) {
        const m = tag.re.exec(line);
        if (m && m[0].length > 0) {
          if (!tags.some((t) => t.name === tag.name)) tags.push({ name: tag.name, weight: tag.weight });
          line = line.slice(m[0].length).trim();
        }
      }
    }
    if (line) lines.push(line);
  }
  return { text: lines.join(" ").replace(/\s+/g, " ").trim(), tags };
}

/** Removes comment markers (`//`, `#`, `/*`, `*`, `--`, …) and decision/TODO tags, joining lines with spaces. */
export function stripCommentMarkers(text: string): string {
  return stripWithTags(text).text;
}

// ---- Clause structure (compromise) --------------------------------------------------------------------------

/** What a clause opens with, which decides whether alternatives in it are a design choice. */
export type ClauseFrame =
  /** "does X …", "is X …", "how is X …", "what does X return", "when/where/who/why …": asks how things are. */
  | "descriptive"
  /** "considering …", "thinking of …", "wondering whether …", "decide between …", "torn between …". */
  | "deliberative"
  /** "should X …", "do we …", "can we …", "which library …", "is it better …": asks what ought to be. */
  | "normative"
  /** An imperative ending in "?": "use Zod instead?", "switch to Vitest?": a proposal put as a question. */
  | "proposal"
  /** An imperative without a question mark: "rename X", "fix the flaky test". */
  | "imperative"
  /** Anything else: a noun phrase ("Postgres or MySQL for Z?", "tabs or spaces") or a plain statement. */
  | "nominal";

export interface ClauseInfo {
  text: string;
  frame: ClauseFrame;
  /** Ends with "?". */
  question: boolean;
  /** The alternatives marker ("or", "vs", "instead of", "between … and", …) when the clause names alternatives. */
  alternatives?: string;
  /** No finite verb before the alternatives marker ("Kafka or a job table for the outbox"). */
  verbless: boolean;
  /** The deliberation phrase, when the frame is deliberative. */
  deliberation?: string;
  /** The first words, for reasons. */
  opener: string;
  /** The clause weighs what ought to be: "should X …", "would X …", "is it reasonable to …", "which is better …". */
  weighs?: boolean;
}

interface Tok {
  w: string;
  tags: Set<string>;
  post: string;
}

// Read at most this much with the tagger: questions are short, and tagging is the costly part.
const STRUCTURE_CHARS = 480;

const FILLERS = new Set(["so", "ok", "okay", "well", "hmm", "hm", "also", "and", "but", "then", "now", "hey", "quick", "honest", "question", "q", "just", "please", "maybe", "perhaps", "basically", "re", "idea", "thought"]);
const AUX = new Set(["does", "did", "do", "is", "are", "was", "were", "has", "have", "had", "will", "can", "could", "may", "might", "isn't", "doesn't", "don't", "aren't", "wasn't", "won't", "can't", "didn't"]);
// "should X …", "would X …": asks what ought to be, or what a change would do.
const MODAL_NORMATIVE = new Set(["should", "shall", "ought", "shouldn't", "would", "wouldn't"]);
const WE = new Set(["we", "i", "us", "you", "anyone", "anybody", "folks", "people", "others", "everyone", "somebody", "someone"]);
const WH = new Set(["how", "what", "when", "where", "who", "whom", "whose", "why", "which", "what's", "how's", "where's", "who's"]);
// "which file defines X" is a lookup; "which library should we use" is a choice.
const CODE_NOUNS = /^(?:files?|modules?|folders?|director(?:y|ies)|class(?:es)?|functions?|methods?|lines?|tests?|components?|packages?|commits?|env|environment|variables?|vars?|flags?|settings?|branch(?:es)?|versions?|ports?|endpoints?|tables?|columns?|routes?|hooks?|handlers?|crates?|structs?|types?|keys?|fields?|configs?|scripts?|services?|jobs?|errors?|exceptions?|pages?|views?|parts?|ones?|step|steps|process(?:es)?|user|users|team|teams)$/;
// Words that make an auxiliary-led question evaluative ("is it better", "is X enough", "does it make sense").
const EVALUATIVE =
  /\b(?:better|best|worse|worth|wise|advisable|overkill|justified|warranted|enough|sufficient|preferable|prefer\w*|recommend\w*|idiomatic|sensible|sense|cleanest|cleaner|simplest|simpler|(?:good|bad) (?:idea|fit|choice|approach|practice)|(?:right|wrong) (?:tool|choice|call|approach|way|place|fit|move|time|abstraction|layer|home|level|thing)|pros and cons|trade-?offs?|options|alternatives?|(?:we|you|anyone|anybody) (?:think|want|need|prefer|recommend)|ok to|okay to|fine to|reasonable|appropriate|viable|time to)\b/;
// Modal words make a question normative (gating how its alternatives are read) but weigh nothing by themselves
// when they come late: "is Other really the error we should get here?".
const MODAL_WORD = /\b(?:should|ought|shall)\b/;
// A deliberation: someone is weighing a change. "considering that …" is a conjunction, not a deliberation.
const DELIBERATION =
  /\b(?:thinking (?:of|about|that|we|i)|wondering|whether (?:or not )?to|whether \w+(?: [\w'-]+){0,5} should|(?:opinions?|thoughts|objections?|concerns|feedback|views|input|preferences?) (?:on|about|to|regarding|against)|any (?:objections|concerns|opinions|preferences)|considering(?! (?:that|the fact|how)\b)|contemplating|weighing|debating|deliberating|mulling|toying with|leaning (?:towards?|to)|torn between|undecided|unsure (?:if|whether|about|which)|not sure (?:if|whether|about|which)|on the fence|open to (?:using|moving|switching|adopting)|evaluating|(?:decide|deciding|choose|choosing|pick|picking)(?: on| about)? (?:whether|between|if|which)|(?:decide|choose|pick) (?:on )?(?:a|an|one|the) (?:\w+ )?(?:for|between)|let(?:'s| us) (?:discuss|decide|talk|settle|choose|pick|compare))\b/;
// Imperative verbs that put a choice rather than a chore.
const DECISION_VERBS = new Set(["decide", "choose", "pick", "compare", "weigh", "discuss", "debate", "settle", "select"]);
// "X or Y" where one side is one of these is no choice between designs.
const NOT_AN_OPTION = new Set(["null", "undefined", "true", "false", "none", "nil", "zero", "empty", "never", "nothing", "something", "not", "so", "similar", "whatever", "else", "anything", "anyone", "later", "less", "more", "whatnot", "whether", "otherwise", "two", "three", "fewer", "vice"]);

function tokensOf(text: string): Tok[][] {
  // "vs." and "e.g." would end a sentence for the tokenizer.
  const doc = compromise()(text.replace(/\b(vs|e\.g|i\.e|etc)\./gi, "$1")) as unknown as { docs: Array<Array<{ normal: string; text: string; post: string; tags?: Set<string> }>> };
  const sentences: Tok[][] = [];
  for (const sentence of doc.docs) {
    let clause: Tok[] = [];
    for (const t of sentence) {
      const w = (t.normal || t.text || "").toLowerCase();
      if (w) clause.push({ w, tags: t.tags ?? new Set(), post: t.post ?? "" });
      // A colon, semicolon or dash ends a clause: "Let's discuss: do we cache at the edge or in the app?"
      if (/[:;]|\s[-–—]\s/.test(t.post ?? "") && clause.length > 0) {
        sentences.push(clause);
        clause = [];
      }
    }
    if (clause.length > 0) sentences.push(clause);
  }
  return sentences;
}

const isFinite = (t: Tok) => t.tags.has("Verb") && !t.tags.has("Gerund") && !t.tags.has("Infinitive") && (t.tags.has("PresentTense") || t.tags.has("PastTense") || t.tags.has("Copula") || t.tags.has("Modal"));

// compromise reads some imperatives as nouns ("port the script", "drop support for", "inline this helper"); a
// clause-initial noun followed by a determiner or a bare noun is re-read after a subject ("we port the script").
function imperativeVerb(clause: Tok[], start: number): boolean {
  const first = clause[start];
  if (!first) return false;
  const second = clause[start + 1];
  const third = clause[start + 2];
  const readsAsVerb = (t: Tok) => {
    if (t.tags.has("Verb")) return !(t.tags.has("Gerund") || t.tags.has("PastTense") || t.tags.has("Modal") || t.tags.has("Copula") || t.tags.has("Auxiliary") || t.tags.has("QuestionWord")) && (t.tags.has("Imperative") || t.tags.has("Infinitive"));
    if (!t.tags.has("Singular") || t.tags.has("ProperNoun") || t.tags.has("Acronym")) return false;
    const again = compromise()(`we ${t.w} it`) as unknown as { docs: Array<Array<{ tags?: Set<string> }>> };
    return !!again.docs[0]?.[1]?.tags?.has("Verb");
  };
  // "A or B …" at the start: verbs sharing an object ("generalize or upstream this optimization", "log or trace the
  // request") are a command; nouns ("REST vs gRPC for services", "cache or queue for jobs") are not.
  if (second && /^(?:or|and|vs|vs\.|versus|nor)$/.test(second.w)) {
    const after = clause[start + 3];
    return !!third && !!after && (after.tags.has("Determiner") || after.tags.has("Possessive") || after.tags.has("Pronoun")) && readsAsVerb(first);
  }
  if (first.tags.has("Verb")) return readsAsVerb(first);
  if (!second) return false;
  // compromise reads some imperatives as nouns ("port the script", "drop support for X", "check submodule instead
  // of Y", "support defer or source imports"); such a word is taken for a verb when it goes on to an object and
  // reads as a verb after a subject. A compound noun ("error handling", "build is green") does not.
  const object =
    second.tags.has("Determiner") ||
    second.tags.has("Possessive") ||
    (second.tags.has("Verb") && second.tags.has("Infinitive") && !!third && /^(?:or|and)$/.test(third.w)) ||
    (second.tags.has("Noun") && !second.tags.has("ProperNoun") && !second.tags.has("Gerund") && !!third && (third.tags.has("Preposition") || third.tags.has("Determiner") || third.tags.has("Adverb")));
  return object && readsAsVerb(first);
}

function frameOf(clause: Tok[], text: string, question: boolean): { frame: ClauseFrame; start: number; deliberation?: string; weighs?: boolean } {
  let start = 0;
  while (start < clause.length - 1 && (FILLERS.has(clause[start]!.w) || clause[start]!.tags.has("Expression"))) start++;
  const w0 = clause[start]?.w ?? "";
  const w1 = clause[start + 1]?.w ?? "";
  const w2 = clause[start + 2]?.w ?? "";
  const weighing = EVALUATIVE.test(text);
  const evaluative = weighing || MODAL_WORD.test(text);
  const deliberation = DELIBERATION.exec(text)?.[0];

  // Auxiliary- or wh-led questions about how things are, unless they ask what ought to be.
  if (AUX.has(w0) && !WE.has(w1) && !evaluative) return { frame: "descriptive", start };
  if ((AUX.has(w0) || WH.has(w0)) && evaluative && !deliberation) return { frame: "normative", start, weighs: weighing };
  if (WH.has(w0) && !evaluative) {
    const normativeWh =
      (w0 === "which" && w1 !== "" && !CODE_NOUNS.test(w1) && !(w1 === "of" || AUX.has(w1))) ||
      (w0 === "why" && w1 === "not") ||
      (w0 === "how" && AUX.has(w1) && (WE.has(w2) || w2 === "other" || w2 === "most" || w2 === "similar") && w2 !== "i" && w2 !== "you") ||
      (w0 === "how" && AUX.has(w1) && (w2 === "i" || w2 === "you") && /^(?:choose|decide|pick|compare|evaluate|weigh)$/.test(clause[start + 3]?.w ?? ""));
    if (!normativeWh) return { frame: "descriptive", start };
    if (!deliberation) return { frame: "normative", start };
  }
  if (deliberation) return { frame: "deliberative", start, deliberation };
  // "instead of X, do Y" opens a suggestion.
  if (w0 === "instead" && !question) return { frame: "imperative", start };
  // "should X be …" asks; "should probably check …" (no subject) is a note to self, unless it ends in "?".
  const next = clause[start + 1];
  const subjectless = MODAL_NORMATIVE.has(w0) && !question && !!next && !["Noun", "Pronoun", "Determiner", "Adjective", "Value", "Possessive"].some((tag) => next.tags.has(tag));
  if (MODAL_NORMATIVE.has(w0) && !subjectless) return { frame: "normative", start, weighs: true };
  if ((AUX.has(w0) && (WE.has(w1) || evaluative)) || WH.has(w0)) return { frame: "normative", start };
  if (imperativeVerb(clause, start)) {
    if (DECISION_VERBS.has(w0)) return { frame: "deliberative", start, deliberation: w0 };
    return { frame: question ? "proposal" : "imperative", start };
  }
  return { frame: "nominal", start };
}

/** The alternatives marker of a clause ("or", "vs", "instead of", "between … and", …), and where it is. */
function alternativesIn(clause: Tok[]): { marker: string; at: number } | undefined {
  for (let i = 0; i < clause.length; i++) {
    const t = clause[i]!;
    const prev = clause[i - 1];
    const next = clause[i + 1];
    switch (t.w) {
      case "or": {
        if (!prev || !next || t.tags.has("SlashedTerm")) break;
        if (NOT_AN_OPTION.has(prev.w) || NOT_AN_OPTION.has(next.w)) break;
        if (prev.tags.has("Value") && next.tags.has("Value")) break; // "one or two", "3 or 4"
        if (prev.tags.has("Pronoun") || prev.tags.has("Determiner")) break; // "this or …" names no option
        return { marker: "or", at: i };
      }
      case "vs":
      case "vs.":
      case "versus":
        if (prev && next && next.w !== "code") return { marker: t.w, at: i };
        break;
      case "instead":
        return { marker: next?.w === "of" ? "instead of" : "instead", at: i };
      case "rather":
        if (next?.w === "than") return { marker: "rather than", at: i };
        break;
      case "than":
        // "better off with X than Y", "SSE rather than websockets"; not "more than 2 GB".
        if (clause.slice(Math.max(0, i - 8), i).some((p) => /^(?:better|worse|rather|prefer\w*|cleaner|simpler|safer|faster|cheaper)$/.test(p.w))) return { marker: "than", at: i };
        break;
      case "between":
        if (clause.slice(i + 2).some((p) => p.w === "and")) return { marker: "between … and", at: i };
        break;
      case "over":
        if (prev && /^(?:prefer\w*|favou?r\w*|choos\w*|chose|pick\w*)$/.test(clause[i - 2]?.w ?? "") ) return { marker: "over", at: i };
        break;
      case "against":
        if (clause.slice(0, i).some((p) => /^(?:weigh\w*|compar\w*|pit\w*|benchmark\w*)$/.test(p.w))) return { marker: "against", at: i };
        break;
      case "favour":
      case "favor":
        if (prev?.w === "in" && next?.w === "of") return { marker: "in favour of", at: i };
        break;
      case "replacement":
      case "alternative":
      case "successor":
        if (prev && /^(?:a|an)$/.test(prev.w) && clause[i - 2]?.w === "as") return { marker: `as ${prev.w} ${t.w}`, at: i };
        break;
    }
  }
  return undefined;
}

/** Reads the clause structure of a (marker-stripped) text: each clause's frame and alternatives. */
export function questionStructure(text: string): ClauseInfo[] {
  const head = text.length > STRUCTURE_CHARS ? text.slice(0, STRUCTURE_CHARS) : text;
  const out: ClauseInfo[] = [];
  for (const clause of tokensOf(head)) {
    const clauseText = clause.map((t) => t.w).join(" ");
    const question = /\?/.test(clause[clause.length - 1]?.post ?? "");
    const { frame, start, deliberation, weighs } = frameOf(clause, clauseText, question);
    const alt = alternativesIn(clause);
    out.push({
      text: clauseText,
      frame,
      question,
      ...(alt ? { alternatives: alt.marker } : {}),
      verbless: alt ? !clause.slice(0, alt.at).some(isFinite) : !clause.some(isFinite),
      ...(deliberation ? { deliberation } : {}),
      ...(weighs ? { weighs } : {}),
      opener: clause.slice(start, start + 2).map((t) => t.w).join(" "),
    });
  }
  return out;
}

/** Whether a clause's alternatives are a design choice: in a deliberating frame, not in a lookup or a chore. */
function choiceClause(c: ClauseInfo, tagged: boolean): boolean {
  if (!c.alternatives) return false;
  switch (c.frame) {
    case "normative":
    case "deliberative":
    case "proposal":
      return true;
    case "nominal":
      return c.question || c.verbless || tagged;
    case "imperative":
      return tagged;
    case "descriptive":
      return false;
  }
}

const logistic = (x: number): number => 1 / (1 + Math.exp(-x));
// Margin 0 (no evidence either way) maps to ~0.12, so a class needs about 2.4 points of net evidence to reach
// the 0.6 threshold: one strong rule plus a little support, or two moderate ones.
const MARGIN_OFFSET = 2;
const MAX_CHARS = 2000;
const round = (x: number): number => Math.round(x * 1000) / 1000;

function quote(s: string, verbatim: boolean): string {
  let t = s.replace(/\s+/g, " ").trim();
  if (!verbatim) t = t.toLowerCase();
  if (t.length > 48) t = `${t.slice(0, 45)}...`;
  return verbatim ? t : `'${t}'`;
}

// Weights of the structural evidence (same scale as the rules).
const W_ALTERNATIVES = 3.5;
const W_DELIBERATION = 3;
const W_NORMATIVE = 2.5;
const W_DESCRIPTIVE = 2.5;
const W_TASK = 3;

interface Analysis {
  classification: Classification;
  clauses: ClauseInfo[];
  tagged: boolean;
}

function analyse(text: string): Analysis {
  const stripped = stripWithTags(text ?? "");
  // A bare tag ("// TODO(decide):") names no question, so it is as empty as whitespace.
  if (!stripped.text) return { classification: { class: "abstain", confidence: 0, reasons: ["empty text"] }, clauses: [], tagged: false };
  const { tags } = stripped;
  const tagged = tags.some((t) => t.weight >= STRONG_TAG_WEIGHT);

  const score: Record<Side, number> = { open: 0, lookup: 0 };
  const reasons: string[] = [];
  // Several rules scan in quadratic time on long runs of path-like characters; a question (or the head of a
  // stack trace) fits well within the cap.
  let body = stripped.text;
  if (body.length > MAX_CHARS) {
    body = body.slice(0, MAX_CHARS);
    reasons.push(`long text: read the first ${MAX_CHARS} characters`);
  }
  for (const tag of tags) {
    if (tag.weight === 0) continue;
    score.open += tag.weight;
    reasons.push(`decision tag: ${tag.name}`);
  }

  const noUrls = body.replace(URL, " ");
  const subjects = {
    body,
    noUrls,
    prose: noUrls.replace(CODE_SPAN, " ").replace(new RegExp(FILE_PATH.source, "g"), " ").replace(new RegExp(GLOB.source, "g"), " "),
  };
  // Structure: code spans and URLs are not words to tag.
  const clauses = questionStructure(subjects.noUrls.replace(CODE_SPAN, "X"));
  const asks = tagged || clauses.some((c) => c.question || c.frame === "normative" || c.frame === "deliberative" || c.frame === "proposal");
  const fired = new Set<string>();
  for (const rule of RULES) {
    if (rule.asked && !asks) continue;
    const subject = subjects[rule.on ?? "body"];
    const cap = rule.cap ?? 1;
    const flags = rule.re.flags.includes("g") ? rule.re.flags : `${rule.re.flags}g`;
    const seen: string[] = [];
    for (const m of subject.matchAll(new RegExp(rule.re.source, flags))) {
      const hit = quote(m[0], rule.verbatim ?? false);
      if (!hit || hit === "''" || seen.includes(hit)) continue;
      seen.push(hit);
      if (seen.length >= cap) break;
    }
    if (seen.length === 0) continue;
    score[rule.side] += rule.weight * seen.length;
    reasons.push(`${rule.label}: ${seen.join(", ")}`);
    fired.add(rule.label);
  }

  const choice = clauses.find((c) => choiceClause(c, tagged));
  if (choice) {
    score.open += W_ALTERNATIVES;
    reasons.push(`alternatives: '${choice.alternatives}' (${choice.frame}${choice.question ? " question" : ""})`);
  }
  // "Should timestamps be stored in UTC?", "is it reasonable to store prefs as JSON?": a question that weighs,
  // when the decision-phrasing rules have not already counted it.
  const weighs = clauses.find((c) => c.weighs);
  if (weighs && !fired.has("decision phrasing") && !fired.has("evaluative wording")) {
    score.open += W_NORMATIVE;
    reasons.push(`weighs what ought to be: '${weighs.opener}'`);
  }
  const deliberative = clauses.find((c) => c.frame === "deliberative");
  if (deliberative) {
    score.open += W_DELIBERATION;
    reasons.push(`deliberation phrasing: '${deliberative.deliberation}'`);
  }
  const asksWhatOught = clauses.some((c) => c.frame === "normative" || c.frame === "deliberative" || c.frame === "proposal");
  const descriptive = clauses.find((c) => c.frame === "descriptive");
  if (descriptive && !asksWhatOught && !choice) {
    score.lookup += W_DESCRIPTIVE;
    reasons.push(`asks how things are: '${descriptive.opener}'`);
  }
  const first = clauses[0];
  if (first?.frame === "imperative" && !tagged && !asksWhatOught && !clauses.some((c) => c.question)) {
    score.lookup += W_TASK;
    reasons.push(`task: '${first.opener}'`);
  }

  if (score.open === 0 && score.lookup === 0) reasons.push("no rule fired");

  const margin = score.open - score.lookup;
  const openConf = round(logistic(margin - MARGIN_OFFSET));
  const lookupConf = round(logistic(-margin - MARGIN_OFFSET));
  let classification: Classification;
  if (openConf >= CLASSIFY_THRESHOLD) classification = { class: "open-question", confidence: openConf, reasons };
  else if (lookupConf >= CLASSIFY_THRESHOLD) classification = { class: "lookup", confidence: lookupConf, reasons };
  else classification = { class: "abstain", confidence: Math.max(openConf, lookupConf), reasons };
  return { classification, clauses, tagged };
}

/** Classifies a text as an open design question, a lookup, or abstains. Deterministic, no I/O. */
export function classifyQuestion(text: string): Classification {
  return analyse(text).classification;
}

// ---- Plain TODO comments ------------------------------------------------------------------------------------

// Comment openers across languages: // /* * # -- ; <!-- % ' REM {- (*
// A run of `;` starts a marker only at its first `;`: `;` is also what may stand before a marker ("x; // TODO"),
// and without the look-behind every `;` of a long run would start an attempt that scans the rest of the run.
export const COMMENT_OPENER = String.raw`(?:\/\/+!?|\/\*+!?|\*+|#+|--+|(?<!;);+|<!--|%+|'|\bREM\b|\{-|\(\*)`;

/** A plain `TODO`/`FIXME` comment on a line of code (uppercase, after a comment opener), as the CodeLens finds it. */
export const PLAIN_TODO_LINE = new RegExp(`(?:^|[\\s;{}(),])${COMMENT_OPENER}\\s*(?:TODO|FIXME)\\b`);

/** The plain TODO comment of a line, from its comment opener on, or undefined. */
export function plainTodoComment(line: string): string | undefined {
  const m = PLAIN_TODO_LINE.exec(line);
  return m ? line.slice(m.index).trim() : undefined;
}

// Cheap necessary conditions for a TODO to ask a question between alternatives: some question form and some
// alternatives marker. Most TODOs ("fix this", "remove once X lands") fail here without being tagged.
const TODO_QUESTION_HINT = /\?|\b(?:whether|should|shall|decid\w*|wonder\w*|unsure|not sure|choos\w*|which|torn|weigh\w*|consider\w*|thinking)\b/i;
const TODO_ALTERNATIVES_HINT = /\b(?:or|vs\.?|versus|instead|rather|between|than|over|against|favou?r|replacement|alternative|successor)\b/i;

/**
 * The cheap half of `isOpenQuestionTodo`, free of the tagger: false means `isOpenQuestionTodo` is false too.
 * The CodeLens runs it on every plain TODO line before loading the core bundle.
 */
export function mayBeOpenQuestionTodo(commentText: string): boolean {
  const text = stripCommentMarkers(commentText);
  return text.length > 0 && TODO_QUESTION_HINT.test(text) && TODO_ALTERNATIVES_HINT.test(text);
}

/**
 * Whether a plain `TODO`/`FIXME` comment asks an open design question between alternatives, and so gets the
 * "Deliberate" CodeLens: the classifier rates it an open question AND one of its clauses puts alternatives in a
 * question or a deliberation ("should this be an error or a warning?", "u64 or usize?", "decide whether to allow
 * or deny this", "do this in the VFS instead?"). Tasks ("replace this function with panic when that works",
 * "make a local state instead of a getter"), yes/no questions ("should we remove this?") and questions about
 * how code behaves ("is this called before or after X?") do not. Pure; the CodeLens and
 * scripts/todo-precision.ts share it.
 */
export function isOpenQuestionTodo(commentText: string): boolean {
  if (!mayBeOpenQuestionTodo(commentText)) return false;
  const { classification, clauses, tagged } = analyse(commentText);
  if (classification.class !== "open-question") return false;
  return clauses.some((c) => choiceClause(c, tagged) && (c.question || c.frame !== "nominal"));
}
