// Local rules classifier: is this text an open DESIGN question worth deliberating over, a lookup (a symbol,
// a file, an error to chase, "where is X"), or too thin to tell? No model call: a table of weighted regex
// rules feeds two evidence totals, and their difference is mapped through a logistic to a confidence.
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

// A named option in "X or Y": one or two tokens, never a value word ("is it null or undefined?" is no choice).
const NOT_AN_OPTION = "(?!(?:null|undefined|true|false|not|none|nil|zero|empty|never|nothing|something)\\b)";
const OPTION = `${NOT_AN_OPTION}[\\w.+#-]+`;
const CHOICE = `\\b${OPTION} or ${OPTION}(?: [\\w.+#-]+)?`;

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
const URL = /\b[a-z][\w+.-]*:\/\/\S+/gi;
const CODE_SPAN = /`[^`\n]+`/g;

const RULES: Rule[] = [
  // ---- Open-question evidence -------------------------------------------------------------------------
  {
    side: "open", label: "decision phrasing", weight: 3,
    re: phrases([
      "should (?:we|i|you|the team|our)", "should (?:this|it|that|these|those) (?:be|use|live|go|stay)", "shall we", "ought (?:we|to)", "how should (?:we|i)",
      "is it (?:better|worth|wise|preferable|a good idea|time to)", "would it be (?:better|worth|wise)",
      "(?:is|are) \\w+(?: \\w+)? worth (?:it|the|using|adopting)", "worth (?:using|adopting|switching|it|the (?:cost|effort|complexity))",
      "(?:is|are) [\\w.-]+(?: [\\w.-]+)? (?:a )?(?:good|right|better|bad|poor) (?:fit|idea|choice|option|match)",
      "pros and cons", "trade-?offs? (?:between|of|for)",
      "do we (?:want|really need|even need)", "do we need (?:a|an)",
      "what(?:'s| is) the (?:best|right|recommended|preferred|idiomatic|cleanest|simplest) (?:way|approach|pattern|option|choice|tool|library|strategy)",
      "what are (?:the|our|some) (?:options|alternatives)", "alternatives? (?:to|for)",
      "how (?:do|does|did|are|is|should|would) (?:others|other (?:teams|projects|companies|repos|codebases)|people|most teams|the community|similar projects)",
      "(?:pick|choose|decide) (?:a|an|one|between|whether|on|if)", "makes? (?:more )?sense to", "go with",
      "better (?:to|than)", "standardi[sz]e on",
    ]),
  },
  // "vs" but not "VS Code".
  { side: "open", label: "comparison", weight: 3, re: phrases(["\\bvs\\.?(?=\\s)(?!\\s?code\\b)", "\\bversus\\b", "\\bcompared? (?:to|with)\\b", "\\bcomparison (?:of|between)\\b"], { bounded: false }) },
  // "Postgres or MySQL for X": the canonical design shape, strong enough to outweigh identifier-named options
  // ("useEffect or useReducer for form state?").
  { side: "open", label: "alternative for a purpose", weight: 3.5, re: new RegExp(`${CHOICE}(?= for\\b)`, "i") },
  // "... RabbitMQ or SQS" at the end, "tabs or spaces?": a bare choice between two named things.
  { side: "open", label: "alternative choice", weight: 2.5, re: new RegExp(`${CHOICE}(?=\\s*\\?|\\s*$)`, "i") },
  {
    side: "open", label: "adoption verb", weight: 2.5,
    re: phrases([
      "adopt(?:ing|ion)?", "migrat(?:e|ing|ion) (?:to|from|off|away)", "instead of",
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
    side: "open", label: "preference wording", weight: 1.5,
    re: phrases(["favou?r(?:s|ed)?", "prefer(?:s|red|able)?", "idiomatic", "best practices?", "recommend(?:ed|s)?", "conventional", "consider(?:ing)?", "evaluat(?:e|ing)"]),
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
// (or end of line) so "#123", "*args" and "--force" survive.
const LEADING_MARKER = /^(?:\/\/+!?|\/\*+!?|\*+(?=\s|$)|#+(?=\s|$)|--+(?=\s|$)|;;+|<!--)\s*/;
const TRAILING_MARKER = /\s*(?:\*+\/|-->)\s*$/;
// A decision tag behind trailing code: `retry(); // TODO(decide): ...` keeps only the comment.
const INLINE_TAG = /(?:\/\/+|\/\*+|#|--)\s*(?=(?:TODO|FIXME)\s*\(\s*decide\s*\)|DECIDE\s*[:\-–]|OPEN[ _-]?QUESTION\s*[:\-–])/i;

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
      line = line.replace(LEADING_MARKER, "").replace(TRAILING_MARKER, "").trim();
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

/** Classifies a text as an open design question, a lookup, or abstains. Deterministic, no I/O. */
export function classifyQuestion(text: string): Classification {
  const stripped = stripWithTags(text ?? "");
  // A bare tag ("// TODO(decide):") names no question, so it is as empty as whitespace.
  if (!stripped.text) return { class: "abstain", confidence: 0, reasons: ["empty text"] };
  const { tags } = stripped;

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
    prose: noUrls.replace(CODE_SPAN, " ").replace(new RegExp(FILE_PATH.source, "g"), " "),
  };
  for (const rule of RULES) {
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
  }

  if (score.open === 0 && score.lookup === 0) reasons.push("no rule fired");

  const margin = score.open - score.lookup;
  const openConf = round(logistic(margin - MARGIN_OFFSET));
  const lookupConf = round(logistic(-margin - MARGIN_OFFSET));
  if (openConf >= CLASSIFY_THRESHOLD) return { class: "open-question", confidence: openConf, reasons };
  if (lookupConf >= CLASSIFY_THRESHOLD) return { class: "lookup", confidence: lookupConf, reasons };
  return { class: "abstain", confidence: Math.max(openConf, lookupConf), reasons };
}
