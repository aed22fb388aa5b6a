// Nygard-style decision prose: what a sentence such as "We will use X", "Use X.", "It was decided that X",
// "X will be implemented", "We will not use Y", "instead of Z" or "rather than Z" commits to or turns down.
// Linear time by construction: every sentence is cut to MAX_SENTENCE_CHARS before anything reads it, and the reader
// walks the sentence's words with fixed-length look-aheads instead of regular expressions with nested quantifiers.
import { stripInline } from "../internal/markdown";
import { compromise } from "../nlp";
import { overAChannel } from "../channels";
import { splitSentences, withoutOpenEnd } from "../text";

/** Longer sentences are cut here before any pattern runs (a decision sentence is rarely longer). */
export const MAX_SENTENCE_CHARS = 400;
/** A phrase read from prose keeps at most this many words. */
export const MAX_PHRASE_WORDS = 12;

export interface ProseReading {
  /** What the sentence adopts ("Architecture Decision Records", "decommission the CLI Tool"). */
  chosen?: string;
  /** What it turns down ("We will not use X", "instead of X", "rather than X", "decided against X"). */
  rejected: string[];
  /** Which phrasing it matched, for the model's "how". */
  cue?: string;
  /** What the sentence commits to not doing, negation kept ("no longer rely on X", "not connect to Y"): the
   * decision of a record that only refuses something. */
  refusal?: string;
  /** The commitment only keeps what is there ("we will continue to use X", "for the time being we keep X"): a record
   * that also commits to something new decided that, not this. */
  continuity?: boolean;
}

const MODALS = new Set(["will", "shall", "should", "must", "'ll", "would"]);
/** Verbs whose object is the option itself: "We will use X" chooses X. */
const CHOOSE_VERBS = new Set(["use", "adopt", "choose", "select", "pick", "employ", "utilise", "utilize", "pursue", "prefer", "favour", "favor", "take"]);
/** Imperatives that open a decision ("Use X.", "Implement delegation", "Remove the substack"). */
export const IMPERATIVES = new Set([
  "use", "adopt", "install", "implement", "introduce", "create", "build", "change", "remove", "add", "migrate", "switch", "move",
  "keep", "reuse", "replace", "prefer", "deploy", "enable", "disable", "decommission", "extract", "support", "follow",
  "apply", "accept", "make", "maintain", "reintroduce", "store", "run", "provide", "offer", "ship", "go", "stop",
  "drop", "retire", "split", "merge", "standardise", "standardize", "consolidate", "separate", "convert", "rename",
  "deprecate", "guide", "document", "require", "allow", "forbid", "prohibit", "limit", "restrict", "avoid", "define",
  "expose", "publish", "encrypt", "validate", "generate", "host", "schedule", "write", "rewrite", "upgrade", "delete",
  "archive", "automate", "centralise", "centralize", "integrate", "wrap", "rely", "treat", "release", "pin", "target",
  "refactor", "adapt", "enforce", "declare", "deliver", "handle", "isolate", "package", "place", "put", "send",
  "record",
]);
/** "Using X for Y", "Introducing X": a decision section may open with its choice as a gerund phrase. */
const GERUNDS = new Map<string, string>();
for (const verb of [...IMPERATIVES, ...CHOOSE_VERBS]) {
  for (const form of [`${verb}ing`, `${verb.replace(/e$/, "")}ing`, `${verb}${verb.slice(-1)}ing`]) if (!GERUNDS.has(form)) GERUNDS.set(form, verb);
}
/** Participles whose subject is the option itself: "X is used", "X will be introduced". Any other participle ("X will be
 * deposited into Y") makes the whole clause the choice, since the action is what was decided. */
/** Past tenses of the decision verbs: "We disabled X", "we adopted X", "we chose X" report what was decided. */
const DECIDED_PAST = new Map<string, string>([["chose", "choose"], ["took", "take"], ["went", "go"], ["kept", "keep"], ["made", "make"], ["wrote", "write"], ["built", "build"], ["put", "put"], ["split", "split"]]);
for (const verb of [...IMPERATIVES, ...CHOOSE_VERBS]) {
  for (const form of [`${verb}d`, `${verb}ed`, `${verb}${verb.slice(-1)}ed`, `${verb.replace(/y$/, "i")}ed`]) if (form !== verb && !DECIDED_PAST.has(form)) DECIDED_PAST.set(form, verb);
}
/** Past tenses that report history or habit rather than a decision ("we used X until", "we tried X"). */
for (const habit of ["used", "had", "ran", "made", "went", "took"]) DECIDED_PAST.delete(habit);
const CHANGE_VERBS = new Set(["change", "switch", "move", "migrate", "convert", "set", "configure", "update", "adapt", "modify", "restrict", "limit"]);
/** Verbs whose "to" and verb complete them ("want to test"): no purpose follows them. */
const WANTING = /^(?:want|wants|need|needs|have|has|had|ought|able|unable|wish|wishes|try|tries|intend|intends)$/;
/** Verbs that, after "to", state what a chosen thing is for ("… environment to build …"). */
const PURPOSE_VERBS = new Set(["build", "test", "run", "develop", "store", "host", "serve", "deploy", "manage", "monitor", "process", "handle", "validate", "publish", "generate", "track", "keep", "hold", "perform", "execute", "write", "read", "check", "measure", "drive", "orchestrate", "schedule", "coordinate", "detect", "collect"]);
/** Participles that put the decision off: "X should be decided before Y" commits to nothing yet. */
const DEFERRING_PARTICIPLES = new Set(["decided", "determined", "discussed", "evaluated", "investigated", "revisited", "reviewed", "considered", "explored", "clarified", "agreed", "defined"]);
/** "X will be defined separate from Y" commits to how X is defined; only "X will be defined (later, in another
 * record, …)" puts it off. */
function defers(low: string[], at: number): boolean {
  if (!DEFERRING_PARTICIPLES.has(low[at] ?? "")) return false;
  if (low[at] !== "defined") return true;
  const next = low[at + 1] ?? "";
  return !next || /^(?:later|before|after|in|by|at|once|when|separately|elsewhere|during|until|upon|per|soon|there)$/.test(next);
}
/** Participles of change: "X needs to be changed to follow Y", "X will be migrated to Y" name Y as the choice. */
const CHANGE_PARTICIPLES = new Set(["changed", "moved", "migrated", "switched", "converted", "restructured", "refactored", "ported", "upgraded", "delegated", "outsourced", "handed", "assigned"]);
/** "The tool is implemented as shell scripts", "X will be written in Go": how the thing is made is the choice. */
const MADE_PARTICIPLES = new Set(["implemented", "built", "written", "developed", "rewritten"]);
const MADE_HOW = /^(?:as|in|using|with)$/;
const CHOICE_PARTICIPLES = new Set(["introduced", "implemented", "created", "built", "added", "deployed", "shipped", "developed", "established", "written", "provided", "used", "adopted", "chosen", "selected", "preferred", "kept", "retained", "picked", "favoured", "favored", "accepted"]);
/** What a project stops taking or doing: "X will no longer be supported / allowed / merged". */
const REFUSED_PARTICIPLES = new Set(["supported", "allowed", "permitted", "tolerated", "merged", "maintained", "considered"]);
/** Irregular participles the "-ed" test misses. */
const IRREGULAR_PARTICIPLES = new Set(["built", "chosen", "kept", "run", "done", "made", "set", "put", "held", "brought", "written", "taken", "given", "split", "shown", "known", "sent", "spent", "driven", "rewritten", "undertaken"]);
const isParticiple = (w: string) => (w.length > 4 && w.endsWith("ed")) || IRREGULAR_PARTICIPLES.has(w);
/** Words that mark a commitment as keeping the status quo. */
const CONTINUITY_WORDS = new Set(["continue", "continues", "keep", "keeps", "retain", "retains", "remain", "remains", "stay", "stays", "stick", "still"]);
/** "Thrift was chosen": in the past tense only a participle of picking reports the decision ("X was used" is history). */
const PICKED = new Set(["chosen", "selected", "adopted", "preferred"]);
const PASSIVE_VERBS = new Set(["provided", "used", "adopted", "implemented", "introduced", "chosen", "selected", "preferred", "refactored", "built", "created", "added", "deployed", "kept", "deposited", "replaced", "removed", "retained", "shipped"]);
const DECIDE_WORDS = new Set(["decided", "decide", "agreed", "agree", "chose", "choose", "opted", "opt", "resolved", "elected"]);
/** Words that end the phrase a cue introduces: a reason or a qualification starts there. */
const PHRASE_END = new Set(["for", "over", "because", "since", "as", "so", "which", "where", "while", "when", "whereby", "due", "given", "until", "unless", "if", "although", "though", "but", "however", "thus", "hence", "instead", "rather", "except"]);

/** A sentence and the lines of the paragraph or list item it came from. */
export interface LocatedSentence {
  text: string;
  start: number;
  end: number;
}

/** Typographic HTML entities markdown passes through ("X &mdash; an aside &mdash; Y"), read as the characters they are. */
const TYPOGRAPHY: Record<string, string> = { mdash: "—", ndash: "–", nbsp: " ", hellip: "…", lsquo: "‘", rsquo: "’", ldquo: "“", rdquo: "”", amp: "&", quot: '"', apos: "'" };
/** What every block-level markup sentencesIn reads starts with, after indentation: fences, comments, headings, tables, list items (or an entity that may spell one). */
const MARKUP_START = /^\s*[`~<#|*+&\d-]/;

function withTypography(line: string): string {
  return line.includes("&") ? line.replace(/&([a-z]+);/g, (entity, name: string) => TYPOGRAPHY[name] ?? entity) : line;
}

/**
 * Sentences of lines `from..to` (1-based, inclusive) of a markdown document: paragraphs and list items are split
 * into sentences, headings become one sentence each (an outcome may be a heading: "### A) No prefixes"), code
 * fences, tables and HTML comments are skipped. Every sentence is capped at MAX_SENTENCE_CHARS.
 */
export function sentencesIn(lines: string[], from: number, to: number, limit = 60): LocatedSentence[] {
  const out: LocatedSentence[] = [];
  let paragraph = "";
  let paraStart = 0;
  let paraEnd = 0;
  const flush = () => {
    if (paragraph.trim()) for (const text of sentencesOfParagraph(paragraph)) out.push({ text, start: paraStart, end: paraEnd });
    paragraph = "";
  };
  let inFence = false;
  let inComment = false;
  for (let n = from; n <= to && out.length < limit; n++) {
    const raw = lines[n - 1] ?? "";
    // A line of running text (no fence, comment, heading, table or list marker can start it) only continues the
    // paragraph: one test instead of six on the usual line.
    if (!inFence && !inComment && !MARKUP_START.test(raw) && raw.trim()) {
      if (!paragraph) paraStart = n;
      if (paragraph.length < MAX_SENTENCE_CHARS * 4) paragraph += (paragraph ? " " : "") + withTypography(raw.slice(0, MAX_SENTENCE_CHARS * 4)).trim();
      paraEnd = n;
      continue;
    }
    if (!inComment && /^ {0,3}(`{3,}|~{3,})/.test(raw)) {
      inFence = !inFence;
      flush();
      continue;
    }
    if (inFence) continue;
    // An HTML comment (a template's guidance, "<!-- This is where we get down to … -->") is no text of the record.
    if (inComment || /^\s*<!--/.test(raw)) {
      inComment = !/-->/.test(inComment ? raw : raw.slice(raw.indexOf("<!--") + 4));
      flush();
      continue;
    }
    const line = withTypography(raw.length > MAX_SENTENCE_CHARS * 4 ? raw.slice(0, MAX_SENTENCE_CHARS * 4) : raw);
    const heading = /^ {0,3}#{1,6}[ \t]+(.*)$/.exec(line);
    if (heading) {
      flush();
      const text = stripInline(heading[1]).replace(/\{#[^}]*\}/g, "").trim().slice(0, MAX_SENTENCE_CHARS);
      if (text) out.push({ text, start: n, end: n });
      continue;
    }
    if (!line.trim() || /^\s*\|/.test(line) || /^\s*<!--/.test(line)) {
      flush();
      continue;
    }
    const item = /^\s*(?:[-*+]|\d{1,3}[.)])\s+(.*)$/.exec(line);
    if (item) {
      flush();
      paragraph = item[1];
      paraStart = paraEnd = n;
      continue;
    }
    if (!paragraph) paraStart = n;
    // sentencesOfParagraph reads no further than its first MAX_SENTENCE_CHARS * 4 characters: a longer paragraph grows no more.
    if (paragraph.length < MAX_SENTENCE_CHARS * 4) paragraph += (paragraph ? " " : "") + line.trim();
    paraEnd = n;
  }
  flush();
  return out.slice(0, limit);
}

/** A paragraph's sentences as plain text, each cut to MAX_SENTENCE_CHARS. */
function sentencesOfParagraph(paragraph: string): string[] {
  const plain = stripInline(paragraph.slice(0, MAX_SENTENCE_CHARS * 4)).replace(/\s+/g, " ").trim();
  return splitSentences(plain).map((s) => s.slice(0, MAX_SENTENCE_CHARS));
}

/** Words with their original spelling, punctuation kept attached so phrases can stop at a comma. */
function tokens(sentence: string): string[] {
  return sentence.slice(0, MAX_SENTENCE_CHARS).split(/\s+/).filter(Boolean);
}

const bare = (t: string) => t.toLowerCase().replace(/^[^\w']+|[^\w']+$/g, "");

/**
 * The phrase from token `from`: up to a reason word, punctuation that closes a clause, or MAX_PHRASE_WORDS words.
 * "instead of X" / "rather than X" inside it is cut off and returned as a rejected phrase.
 */
/** Nouns for a kind of rule or arrangement that says nothing until a "where" clause spells it out. */
const KIND_NOUNS = /^(?:convention|conventions|structure|pattern|scheme|model|policy|rule|rules|standard|setup|layout|system|format|arrangement)$/;

function phraseFrom(toks: string[], from: number): { phrase?: string; rejected: string[] } {
  const words: string[] = [];
  const rejected: string[] = [];
  let inList = false;
  let adjectiveComma = false;
  for (let i = from; i < toks.length && words.length < MAX_PHRASE_WORDS; i++) {
    const w = bare(toks[i]);
    if ((w === "instead" && bare(toks[i + 1] ?? "") === "of") || (w === "rather" && bare(toks[i + 1] ?? "") === "than")) {
      const r = phraseFrom(toks, i + 2).phrase;
      if (r) rejected.push(r);
      break;
    }
    // "use AWS SSO in favour of X": the phrase ends there (turnedDown says whether X was turned down).
    if (words.length > 0 && w === "in" && /^favou?r$/.test(bare(toks[i + 1] ?? "")) && bare(toks[i + 2] ?? "") === "of") break;
    // "Use ECS as the execution environment": after a bare name (one or two words), "as" and a noun phrase give the
    // name its role, not a reason ("as it is faster"); a longer phrase already says what it is.
    const asRole = w === "as" && words.length <= 2 && /^(?:a|an|the|our|its)$/.test(bare(toks[i + 1] ?? "")) && !/^(?:is|are|was|were|has|have|will|can|does|do|would)$/.test(bare(toks[i + 3] ?? ""));
    // "RDS configured as Aurora Serverless": "as" after a participle says what the thing is set up as.
    const asForm = w === "as" && words.length > 0 && words.length <= 4 && isParticiple(bare(words[words.length - 1]));
    // "implement subscriptions over SSE": "over" a channel says what the choice runs on, and the phrase goes on.
    const overChannel = w === "over" && words.length > 0 && overAChannel(bare(toks[i + 1] ?? ""), bare(toks[i + 2] ?? ""));
    // "switch our language for Android development from Java to Kotlin": after a verb of change, a scope phrase
    // ("for …", "over …") comes before the "from X to Y" that says what changes; the phrase goes on from there.
    const scopeBeforeChange = words.length > 0 && CHANGE_VERBS.has(bare(words[0])) ? changeSpanAfter(toks, i) : undefined;
    if (scopeBeforeChange !== undefined) {
      i = scopeBeforeChange - 1;
      continue;
    }
    // "infrastructure types such as OpenAPI schemas": the examples say which things are meant.
    const examples = w === "as" && /^such$/i.test(words[words.length - 1] ?? "");
    // "a naming convention where files are named after their class": a bare kind of rule is spelled out by its clause.
    const spelledOut = (w === "where" || w === "whereby") && words.length <= 3 && KIND_NOUNS.test(bare(words[words.length - 1] ?? ""));
    if (words.length > 0 && PHRASE_END.has(w) && !asRole && !asForm && !overChannel && !examples && !spelledOut) break;
    if (words.length > 0 && (w === "to" || w === "for" || w === "in") && /^(?:order|ensure|allow|make|avoid|enable|support|reduce|improve|help)$/.test(bare(toks[i + 1] ?? ""))) break;
    // "use the staging environment to build and test jobs": "to" and a verb after a named thing give its purpose;
    // after a verb of change ("change the trigger to run on releases") they say what it changes into, and stay.
    // "what we want to test", "the data we need to store": after a verb of wanting or needing, "to" and a verb are its
    // complement, part of the phrase.
    if (words.length >= 2 && w === "to" && PURPOSE_VERBS.has(bare(toks[i + 1] ?? "")) && !CHANGE_VERBS.has(bare(words[0])) && !WANTING.test(bare(words[words.length - 1]))) break;
    const t = toks[i];
    // "Scala, with Akka HTTP as the framework": a comma followed by "with" / "plus" still names the same choice.
    // "a comprehensive, repeatable test suite": a comma between the adjectives of one noun phrase ends nothing (the
    // comma follows the first word after the article, and a lower-case word goes on).
    // "historic, unused data": a phrase that opens with an adjective and a comma goes on to its noun.
    // "an internal, private, zone", "our Angular-based, user-facing application": after a determiner, and after an
    // adjective that was itself followed by such a comma, the next comma still sits between adjectives.
    // The next word, less the comma that may follow it in turn ("internal, private, zone").
    const nextWord = (toks[i + 1] ?? "").replace(/,$/, "");
    const betweenAdjectives: boolean = /,$/.test(t) && (/^(?:a|an|the|our|their|its|each|every)$/i.test(words[words.length - 1] ?? "") || (adjectiveComma && words.length > 0) || (words.length === 0 && /^[a-z][a-z-]+,$/.test(t) && compromise()(t.slice(0, -1)).has("^#Adjective$"))) && /^[a-z][a-z-]+$/.test(nextWord) && !/^(?:and|or|but|which|that|so|because|since|as|while|where|when|if|called|named|dubbed|known|including|such|like|e\.g|i\.e|the|a|an|we|it|they|this|these|those|its|their|our)$/.test(nextWord);
    const listed: boolean = /,$/.test(t) && !betweenAdjectives && ((inList && /^(?:and|or)$/.test(bare(toks[i + 1] ?? ""))) || (words.length <= 2 && coordinatedNames(toks, i + 1)));
    inList ||= listed;
    adjectiveComma = betweenAdjectives;
    const continues = /,$/.test(t) && (/^(?:with|plus|backed)$/.test(bare(toks[i + 1] ?? "")) || betweenAdjectives || listed);
    const closes = !continues && /[,;:)]$|[.!?]$/.test(t) && !/^(?:e\.g\.|i\.e\.)$/i.test(t);
    // A parenthetical ("(EKS)", "(opt in)") is skipped, not ended on.
    if (t.startsWith("(") && words.length > 0) {
      let j = i;
      while (j < toks.length && !toks[j].includes(")") && j - i < 12) j++;
      if (/[,;:.!?]$/.test(toks[j] ?? "")) break;
      i = j;
      continue;
    }
    words.push(listed ? t.replace(/^\(/, "") : t.replace(/[,;:.!?]+$/, "").replace(/^\(/, ""));
    if (closes) {
      // "a Python testing framework, pytest": a kind of thing, then its name in apposition: the name is the choice.
      // "a new store, called X, that …": the name it is given is the choice.
      const given = /,$/.test(t) && /^(?:called|named|dubbed)$/.test(bare(toks[i + 1] ?? "")) ? appositiveName(toks, i + 2, true) : undefined;
      if (given) return { phrase: given, rejected };
      const named = /^(?:a|an)$/i.test(words[0] ?? "") && /,$/.test(t) ? appositiveName(toks, i + 1) : undefined;
      if (named) return { phrase: named, rejected };
      break;
    }
  }
  // A phrase cut at the word limit ends before the words that opened what was cut ("… they host, with a").
  let phrase = tidy((words.length >= MAX_PHRASE_WORDS ? withoutOpenEnd(words) : words).join(" "));
  // "(~24 chars instead of 36)": a closing parenthesis the phrase never opened ends an aside, not a name.
  if (phrase.endsWith(")") && !phrase.includes("(")) phrase = phrase.slice(0, -1).trim();
  // A name has at least one letter: "36" is a number the sentence compared, not an option.
  return { phrase: phrase && /\p{L}/u.test(phrase) ? phrase : undefined, rejected };
}

/**
 * "`bash`, `nodejs`, and `python` as our core languages": after a comma, short items separated by commas up to a
 * last one after "and" / "or" name more of the same choice, not the start of another clause.
 */
function coordinatedNames(toks: string[], from: number): boolean {
  let item = 0;
  for (let i = from; i < Math.min(toks.length, from + 12); i++) {
    const w = bare(toks[i]);
    // "a queue, and retry on failure": right after the comma, "and" opens a second clause; a list has a middle item.
    if ((w === "and" || w === "or") && i === from) return false;
    if (w === "and" || w === "or") {
      // The last item: one to three words that end the clause or the list.
      for (let j = i + 1; j < Math.min(toks.length, i + 4); j++) {
        if (/^(?:the|a|an|we|it|they|this|that|there)$/.test(bare(toks[j])) && j === i + 1) return false;
        if (/[,;:.!?]$/.test(toks[j]) || j === toks.length - 1 || PHRASE_END.has(bare(toks[j + 1] ?? ""))) return true;
      }
      return false;
    }
    if (!w || PHRASE_END.has(w) || /^(?:is|are|was|were|will|would|can|should|must|has|have|we|it|they)$/.test(w)) return false;
    item++;
    if (item > 3) return false;
    if (/,$/.test(toks[i])) item = 0;
    else if (/[;:.!?]$/.test(toks[i])) return false;
  }
  return false;
}

/**
 * Where "from X to Y" starts when the clause from token `at` (a scope phrase such as "for Android development") reaches
 * it within a few words without closing; undefined otherwise.
 */
function changeSpanAfter(toks: string[], at: number): number | undefined {
  if (!/^(?:for|over|in|on|across|within)$/.test(bare(toks[at]))) return undefined;
  for (let j = at + 1; j < Math.min(toks.length - 2, at + 7); j++) {
    if (/[,;:.!?]$/.test(toks[j - 1])) return undefined;
    if (bare(toks[j]) === "from" && toks.slice(j + 1, j + 6).some((t) => bare(t) === "to")) return j;
  }
  return undefined;
}

/** What a commitment takes from token `start` (its verb when `keepVerb`): what replaces something, a name it is
 * given, a verb with its particle "for", else the phrase there. */
function committedPhrase(toks: string[], low: string[], start: number, keepVerb: boolean): { phrase?: string; rejected: string[] } {
  const swap = replacement(toks, low, start);
  if (swap) return { phrase: swap.chosen, rejected: swap.rejected };
  // "a new thread pool …, which is called X": the name the sentence gives what it commits to is the choice.
  const given = givenName(toks, low, start);
  if (given) return { phrase: given, rejected: [] };
  // "allow for X", "account for X": "for" right after a kept verb is its particle, not a reason.
  if (keepVerb && low[start + 1] === "for") {
    const object = phraseFrom(toks, start + 2).phrase;
    if (object) return { phrase: `${toks[start]} for ${object}`, rejected: [] };
  }
  return phraseFrom(toks, start);
}

/** "…, which is called X", "…, called X", "… named X" after token `from`: X, up to three words. */
function givenName(toks: string[], low: string[], from: number): string | undefined {
  for (let i = from + 1; i < Math.min(low.length - 1, from + MAX_PHRASE_WORDS + 6); i++) {
    if (!/^(?:called|named|dubbed)$/.test(low[i])) continue;
    const lead = low[i - 1] === "is" || low[i - 1] === "be" ? (/^(?:which|that)$/.test(low[i - 2] ?? "") ? 2 : -1) : /,$/.test(toks[i - 1]) ? 0 : -1;
    if (lead < 0) continue;
    return appositiveName(toks, i + 1, true);
  }
  return undefined;
}

/** Up to three words after an appositive comma that read as a name: no function word, ending the clause. */
function appositiveName(toks: string[], from: number, given = false): string | undefined {
  const words: string[] = [];
  for (let i = from; i < toks.length && words.length < 3; i++) {
    const w = bare(toks[i]);
    // "a maintenance mode, implemented via flags": a participle after the comma says how, it names nothing.
    if (words.length === 0 && !given && (isParticiple(w) || /^[a-z]{3,}ing$/.test(w))) return undefined;
    if (!w || PHRASE_END.has(w) || /^(?:and|or|the|a|an|that|with|to|of|in|on|is|are|was|will|which|who|e\.g|i\.e)$/.test(w)) {
      // A name given with "called X" ends where the clause goes on ("named X that outputs …").
      if (given && words.length > 0) {
        const name = tidy(words.join(" "));
        return /\p{L}/u.test(name) ? name : undefined;
      }
      return undefined;
    }
    words.push(toks[i].replace(/[,;:.!?)]+$/, ""));
    if (/[,;:.!?)]$/.test(toks[i]) || i === toks.length - 1) {
      const name = tidy(words.join(" "));
      return /\p{L}/u.test(name) ? name : undefined;
    }
  }
  return undefined;
}

/** A preposition right after a verb's particle ("rely on during"): the particle's object is elsewhere. */
const DANGLING = /^(?:during|before|after|until|within|throughout|at|from|by|when|while|in|on|to|for|with)$/;

const LEADING_FILLER = /^(?:the|a|an|to|using|use)\s+/i;

function tidy(s: string): string {
  let t = s;
  for (let i = 0; i < 3 && LEADING_FILLER.test(t); i++) t = t.replace(LEADING_FILLER, "");
  // "a Mediator class that will:" — a relative clause the sentence leaves to a list names nothing of its own.
  // An underscore inside a word is part of its name ("document_id"); elsewhere it is emphasis.
  return t.replace(/(?<![\p{L}\p{N}])_+|_+(?![\p{L}\p{N}])/gu, "").replace(/["“”'‘’`*]+/g, (q) => (q === "'" ? q : "")).replace(/\s+/g, " ").trim().replace(/\s+(?:that|which|who)(?:\s+(?:will|shall|should|must|can|would))?\s*:?$/i, "");
}

const ILLUSTRATION = /^\s*(?:for (?:example|instance)\b|e\.g\.)/i;

/** Reads one sentence. Returns no chosen phrase when the sentence is not a commitment. */
/** "… via a third party library called `useSWR`": a kind of thing and the name it goes by. */
const CALLED = /\b(?:library|tool|package|framework|service|product|gem|crate|module|plugin|component|engine|database|platform)\s+(?:called|named)\s+(?!(?:after|for|by|in|as|on)\b)[`"“]?([\w@][\w@./-]{1,40}?)[`"”]?(?=[\s,.;:)]|$)/i;

/** "refer to X as Y", "call X Y", "name X Y": a naming decision, whose choice is the name. */
const NAMING_VERB = /^(?:refer\s+to|call|name|rename)\b/i;
/** " as _SPA_ (Single Page Application)": a name given with "as", up to three words, before any gloss. */
const GIVEN_AS = /\bas\s+[`"“'_*]*([\p{L}\p{N}][\p{L}\p{N}.-]*(?:\s+[\p{Lu}\p{N}][\p{L}\p{N}.-]*){0,2})[`"”'_*]*(?=\s*(?:\(|[,.;:]|\s+and\b|$))/gu;

/**
 * "We will refer to our web front end as SPA and to our back end as API": what a naming decision settles is the names
 * ("SPA and API"), not the thing it names.
 */
function givenNames(reading: ProseReading, sentence: string): ProseReading {
  if (!reading.chosen || !NAMING_VERB.test(reading.chosen)) return reading;
  const plain = stripInline(sentence);
  const at = plain.indexOf(reading.chosen.split(" ").slice(0, 2).join(" "));
  const names = at < 0 ? [] : [...plain.slice(at).matchAll(GIVEN_AS)].map((m) => m[1].replace(/[.-]+$/, ""));
  return names.length > 0 ? { ...reading, chosen: names.join(" and ") } : reading;
}

/** A chosen phrase that runs on to a thing named by "called X" / "named X" is a choice of X. */
function calledByName(reading: ProseReading, sentence: string): ProseReading {
  if (!reading.chosen) return reading;
  const plain = stripInline(sentence);
  const m = CALLED.exec(plain);
  const at = plain.indexOf(reading.chosen.split(" ")[0] ?? "");
  if (!m || at < 0 || m.index < at || reading.chosen.includes(m[1])) return reading;
  return { ...reading, chosen: m[1] };
}

const AWAY_FROM = /^(?:move|moving|migrate|migrating|shift|shifting|step|stepping|transition|transitioning)\s+away\s+from\s+(?:using\s+)?(.+?)(?:\s+(?:to|towards?|in\s+favou?r\s+of)\s+(?:using\s+)?(.+))?$/i;

/**
 * "move away from using makeStyles" turns makeStyles down and names no choice of its own (the sentence after it
 * says where to); "move away from Jenkins to GitHub Actions" chooses GitHub Actions.
 */
function awayFrom(reading: ProseReading): ProseReading {
  const m = reading.chosen ? AWAY_FROM.exec(reading.chosen) : null;
  if (!m) return reading;
  const { chosen: _away, ...rest } = reading;
  return { ...rest, ...(m[2] ? { chosen: m[2] } : {}), rejected: [...reading.rejected, m[1]] };
}

/** A connective adverb right after "We"/"I" at the start of a sentence ("We therefore suggest …"). */
const SUBJECT_CONNECTIVE = /^(\s*(?:we|i)\s+)(?:therefore|thus|hence|consequently|accordingly|ultimately|finally|now|so),?\s+(?=[a-z])/i;
/** "Therefore we propose X" is "We propose X": a connective opening the sentence, with no comma, before the team. */
const OPENING_CONNECTIVE = /^\s*(?:therefore|thus|hence|consequently|accordingly|ultimately|finally|so)\s+(?=(?:we|i)\s)/i;

/** After ", not": words that start no turned-down thing ("not only", "not because", "not be"). */
const NOT_A_CONTRAST = /^(?:only|just|merely|simply|because|since|necessarily|least|yet|even|always|all|every|to|be|been|being|have|has|had|do|does|did|in|on|at|for|with|when|if|as|so|the)$|(?:ed|ly)$/;

/** An aside set off by a pair of em or en dashes (or "--"), written tight or spaced. */
const DASHED_ASIDE = /\s*(?:—|–|\s--\s)[^—–.;:]{1,120}?(?:—|–|\s--\s)\s*/g;

export function readDecisionSentence(text: string): ProseReading {
  // Callers pass sentences from sentencesIn (already cut) and titles; anything longer is cut here first.
  // "We therefore suggest X" is "We suggest X": a connective between the subject and its verb changes nothing, and
  // neither does one before the subject ("Thus we recommend X").
  // An aside between two dashes ("All domain code—including store interfaces—must …") is no part of the clause.
  const sentence = (text.length > MAX_SENTENCE_CHARS ? text.slice(0, MAX_SENTENCE_CHARS) : text).replace(OPENING_CONNECTIVE, "").replace(SUBJECT_CONNECTIVE, "$1").replace(DASHED_ASIDE, " ");
  // "For example, …": an illustration of the decision, never the decision itself.
  if (ILLUSTRATION.test(stripInline(sentence))) return { rejected: [] };
  const read = givenNames(calledByName(awayFrom(readSentence(sentence)), sentence), sentence);
  // "instead of X" is read both where the sentence says it and inside the chosen phrase: name it once.
  const reading = { ...read, rejected: [...new Set(read.rejected)] };
  if (!reading.chosen) return reading;
  const toks = tokens(stripInline(sentence));
  const low = toks.map(bare);
  // Only the clause that commits may say it keeps what is there: "…, but still minimise overhead, X will consist
  // of Y" keeps nothing.
  const first = bare(reading.chosen.split(" ")[0] ?? "");
  const at = low.findIndex((w, i) => w === first && i > 0);
  let from = 0;
  for (let i = 1; at > 0 && i < at; i++) if (/[,;:]$/.test(toks[i - 1])) from = i;
  const head = low.slice(from, from + 12);
  // "for now" keeps what is there only when what is chosen is no change of its own ("remove X for now" changes).
  const changes = /^(?:remove|drop|delete|disable|stop|replace|switch|move|migrate|introduce|add|adopt|split|merge|rename|deprecate)\b/i.test(reading.chosen);
  const keeps = reading.cue !== "best choice" && head.some((w) => CONTINUITY_WORDS.has(w)) || (!changes && /\bfor (?:the time being|now)\b|\bas (?:is|before)\b/i.test(sentence));
  return keeps ? { ...reading, continuity: true } : reading;
}

/** Verbs after which "X over Y" turns Y down. */
const PREFER_VERBS = new Set(["prefer", "prefers", "preferred", "favour", "favor", "favours", "favors", "choose", "chose", "chosen", "pick", "picked", "select", "selected"]);
/** Where the object of "We've implemented X", "We have therefore settled upon X" starts; undefined for other sentences. */
function firstPersonPerfect(low: string[]): number | undefined {
  if (low[0] !== "we" || !/^(?:have|had)$/.test(low[1] ?? "")) return undefined;
  const verb = /^(?:therefore|thus|now|finally|also|hence|then|so)$/.test(low[2] ?? "") ? 3 : 2;
  if (!/^(?:implemented|introduced|adopted|chosen|selected|built|created|added|standardised|standardized|settled)$/.test(low[verb] ?? "")) return undefined;
  return /^(?:on|upon)$/.test(low[verb + 1] ?? "") ? verb + 2 : verb + 1;
}

/** A preference stated as made ("Prefer X over Y", "we chose X over Y", "X was selected over Y"), not one that only
 * may be made ("ECS-optimised images we may choose to use over Ubuntu"). */
/** "in favour of" / "in favor of" at i. */
function inFavourOf(low: string[], i: number): boolean {
  return low[i] === "in" && /^favou?r$/.test(low[i + 1] ?? "") && low[i + 2] === "of";
}

/** A verb of choosing ("use", "adopt", "chose") in the clause before `at`, with no verb of dropping after it. */
function choosesBefore(low: string[], at: number): boolean {
  let chose = false;
  for (let k = Math.max(0, at - 12); k < at; k++) {
    if (CHOOSE_VERBS.has(low[k]) || PREFER_VERBS.has(low[k]) || /^(?:chose|opted|adopted|went)$/.test(low[k])) chose = true;
    if (/^(?:deprecate[ds]?|deprecating|drop(?:ped|s)?|dropping|remove[ds]?|removing|abandon(?:ed|s)?|retire[ds]?|retiring|replace[ds]?|replacing|against|phase|phased|sunset)$/.test(low[k])) chose = false;
  }
  return chose;
}

function prefersBefore(low: string[], at: number): boolean {
  for (let k = 0; k < at; k++) {
    if (!PREFER_VERBS.has(low[k])) continue;
    if (low.slice(0, k).some((w) => /^(?:may|might|could|can|would|if|whether)$/.test(w))) return false;
    if (k === 0 || /^(?:we|will|shall|have|had|was|were|is|are|been)$/.test(low[k - 1])) return true;
  }
  return false;
}
const CONTRACTIONS: [RegExp, string][] = [
  // "Its simpler to X": the contraction without its apostrophe, before a comparison.
  [/\b([Ii])ts\s+(?=(?:simpler|better|safer|best|simplest|safest)\b)/g, "$1t is "],
  [/\b(we|they|you)['’]re\b/gi, "$1 are"],
  [/\b(we|they|you|i)['’]ve\b/gi, "$1 have"],
  [/\b(it|that)['’]s\b/gi, "$1 is"],
  // "We’ll" with a typographic apostrophe is the same modal as "we'll".
  [/\b(we|they|you|i|it)’ll\b/gi, "$1'll"],
];
const REPLACE_WORDS = new Set(["replace", "replaces", "replacing", "replaced", "substitute", "substituting"]);

/**
 * What a sentence turns down anywhere, whatever else it does, added to `rejected`: "instead of X", "rather than X",
 * ", not X", "prefer Y over X". True when it opens "decided against X": the sentence then chooses nothing.
 */
function turnedDown(toks: string[], low: string[], rejected: string[]): boolean {
  const add = (from: number) => {
    const r = phraseFrom(toks, from).phrase;
    if (r) rejected.push(r);
  };
  for (let i = 0; i + 1 < low.length; i++) {
    if ((low[i] === "instead" && low[i + 1] === "of") || (low[i] === "rather" && low[i + 1] === "than")) add(i + 2);
    // "operate on domain types, not infrastructure types": after a comma, "not" and a noun phrase turn that down.
    if (low[i] === "not" && i > 1 && /,$/.test(toks[i - 1]) && !NOT_A_CONTRAST.test(low[i + 1] ?? "")) add(i + 1);
    // "Prefer X over Y", "we chose X over Y": Y was weighed and turned down.
    if (low[i] === "over" && i > 1 && prefersBefore(low, i)) add(i + 1);
    // "We decided to use X in favour of Y": Y was turned down ("deprecate X in favour of Y" chooses Y: no verb
    // of choosing before it).
    if (inFavourOf(low, i) && i > 1 && choosesBefore(low, i)) add(i + 3);
    if (low[i] === "decided" && low[i + 1] === "against") {
      add(i + 2);
      return true;
    }
  }
  return false;
}

/**
 * What a record says it retires or restructures: "This RFC deprecates X", "This proposal removes X", "This ADR
 * replaces X with Y", "This RFC merges A and B". ("This RFC changes X" or "adds X" may name only a step of the design.)
 */
const RECORD_CHANGES = /^(?:deprecates|removes|retires|replaces|renames|splits|merges|migrates|switches|moves|unifies)$/;

/** The change a record states, its verb in the plain form: "deprecates the personal config" becomes "deprecate the personal config". */
function recordChange(reading: ProseReading): ProseReading {
  // "This OTEP renames these X": an object that points back names nothing.
  if (/^\S+\s+(?:this|that|these|those|it|them)\b/i.test(reading.chosen ?? "")) return { ...reading, chosen: undefined };
  const chosen = reading.chosen?.replace(/^(\S+?)(ies|es|s)(?=\s)/, (_, stem: string, end: string) => (end === "ies" ? `${stem}y` : end === "es" && !/(?:ss|sh|ch|x)$/i.test(stem) ? `${stem}e` : stem));
  return chosen ? { ...reading, chosen } : reading;
}

function readSentence(sentence: string): ProseReading {
  let plain = stripInline(sentence);
  for (const [from, to] of CONTRACTIONS) plain = plain.replace(from, to);
  const toks = tokens(plain);
  const low = toks.map(bare);
  const rejected: string[] = [];
  const take = (from: number, cue: string, verbIndex?: number): ProseReading => {
    const keepVerb = verbIndex !== undefined && !CHOOSE_VERBS.has(low[verbIndex]);
    // "move from Gulp and Sprockets to a build based on vite-rails": what it moves to is the choice.
    const fromAt = verbIndex !== undefined && MOVE_VERBS.test(low[verbIndex]) && low[verbIndex + 1] === "from" ? verbIndex + 1 : -1;
    const toAt = fromAt > 0 ? low.findIndex((w, k) => k > fromAt + 1 && w === "to") : -1;
    if (toAt > 0) {
      const target = committedPhrase(toks, low, toAt + 1, false);
      if (target.phrase) return { chosen: target.phrase, rejected: [...rejected, ...target.rejected], cue };
    }
    let start = keepVerb ? verbIndex : from;
    // "go with X", "move to X", "switch to X", "migrate to X", "rely on X": the particle is part of the verb.
    if (!keepVerb && /^(?:with|to|on|for)$/.test(low[start] ?? "")) start++;
    // "the modules it should rely on during start-up": the verb's object came before it (a relative clause), so
    // what follows is no option.
    const particle = keepVerb ? verbIndex + 1 : start - 1;
    if (particle >= 0 && /^(?:with|to|on|upon|for|in)$/.test(low[particle] ?? "") && DANGLING.test(low[particle + 1] ?? "")) return { rejected, cue };
    const p = committedPhrase(toks, low, start, keepVerb);
    return { chosen: p.phrase, rejected: [...rejected, ...p.rejected], cue };
  };

  if (turnedDown(toks, low, rejected)) return { rejected, cue: "decided against" };

  // "A solution like X has been discarded for its setup cost": X was weighed and turned down.
  const discarded = discardedSubject(toks, low);
  if (discarded) rejected.push(discarded);
  const proposed = firstPersonProposal(toks, low, rejected, take) ?? decisionIsTo(toks, low, rejected, take);
  if (proposed) return proposed;
  // "This RFC proposes X", "This ADR introduces X", "This RFC is to introduce X".
  // "This is a proposal to add X", "This is a proposal for X".
  if (/^(?:this|it)$/.test(low[0] ?? "") && low[1] === "is" && /^(?:a|an)$/.test(low[2] ?? "") && /^(?:proposal|rfc|otep|kep|pep|tep)$/.test(low[3] ?? "") && /^(?:to|for)$/.test(low[4] ?? "")) {
    return take(low[4] === "to" && CHOOSE_VERBS.has(low[5] ?? "") ? 6 : 5, "this record proposes");
  }
  if (/^(?:this|the)$/.test(low[0] ?? "") && /^(?:rfc|adr|proposal|document|design|record|otep|kep|pep|tep|rfd|enhancement)$/.test(low[1] ?? "")) {
    let i = 2;
    if (low[i] === "is" && low[i + 1] === "to") i += 2;
    if (/^(?:proposes|introduces|introduce|suggests|recommends|adopts|defines)$/.test(low[i] ?? "")) return take(i + 1, "this record proposes");
    // "This RFC deprecates the personal config", "This ADR replaces X with Y": the change is the proposal, verb and all.
    if (RECORD_CHANGES.test(low[i] ?? "")) return recordChange(take(i + 1, "this record proposes", i));
  }
  // "X remains the best choice for Y", "X is the preferred option"; "The best approach would be to X".
  const best = bestChoice(toks, low);
  if (best) return { ...best, rejected: [...rejected, ...best.rejected], cue: "best choice" };
  // "It was decided that X", "It has been decided to X", "the decision has been made to X", anywhere in the sentence.
  for (let i = 1; i < low.length; i++) {
    const decidedIt = DECIDE_WORDS.has(low[i]) && /^(?:was|been|is)$/.test(low[i - 1]);
    const madeIt = low[i] === "made" && /^(?:was|been)$/.test(low[i - 1]) && low.slice(Math.max(0, i - 4), i).includes("decision");
    if ((decidedIt || madeIt) && low[i + 1] === "that") {
      const action = longSubjectAction(toks, low, i + 2);
      if (action) return { chosen: action.phrase, rejected: [...rejected, ...action.rejected], cue: "it was decided" };
    }
    if ((decidedIt || madeIt) && /^(?:that|to)$/.test(low[i + 1] ?? "")) {
      const from = low[i + 1] === "to" && CHOOSE_VERBS.has(low[i + 2]) ? i + 3 : i + 2;
      return take(from, "it was decided", low[i + 1] === "to" && !CHOOSE_VERBS.has(low[i + 2]) ? i + 2 : undefined);
    }
  }
  // Each clause (the sentence start and every point after a comma, semicolon or colon) may open with a subject of
  // at most seven words followed by a modal, "decided to", "are adopting" or a passive "is used".
  let depth = 0;
  for (let start = 0; start < low.length; start++) {
    if (start > 0) {
      const prev = toks[start - 1];
      depth = Math.max(0, depth + (prev.split("(").length - 1) - (prev.split(")").length - 1));
      if (depth > 0 || !/[,;:]$/.test(prev)) continue;
    }
    // "…, which in turn will enable X": a relative clause says what the choice leads to, not what was chosen.
    if (start > 0 && /^(?:which|who|whose)$/.test(low[start] ?? "")) continue;
    const reading = clauseReading(toks, low, start, rejected, take);
    if (reading) return reading;
  }
  // "However, given the time it takes, we have opted to do X": a first-person decision deep in a long clause.
  for (let i = 0; i + 3 < low.length; i++) {
    if (low[i] !== "we") continue;
    const d = /^(?:have|had)$/.test(low[i + 1]) ? i + 2 : i + 1;
    if ((DECIDE_WORDS.has(low[d]) || low[d] === "chosen") && low[d + 1] === "to") return take(d + 3, "decided to", d + 2);
  }
  // "We've implemented a command-bus package which …", "We have adopted X": a first-person perfect that opens the
  // sentence reports the choice as made (only the decision section's sentences are read this way).
  const perfect = firstPersonPerfect(low);
  if (perfect !== undefined) return take(perfect, "we have");
  const gerund = gerundReading(toks, low, rejected, take);
  if (gerund) return gerund;
  // Imperative: "Use managed node groups.", "Implement delegation in Apache James", "Increase the size to 29 bytes".
  if (opensWithImperative(toks, low)) return take(1, "imperative", CHOOSE_VERBS.has(low[0]) ? undefined : 0);
  // A decision written as a bare infinitive: "To implement ADR-101 instead of ADR-100.", "To use X for Y."
  // "To give each part its own folder:" and a list: a purpose that announces the steps after it, not the decision.
  if (low[0] === "to" && /^To$/.test(toks[0] ?? "") && IMPERATIVES.has(low[1] ?? "") && !/[,;:]$/.test(toks[1] ?? "") && !/:$/.test(toks[toks.length - 1] ?? "")) return take(2, "imperative", CHOOSE_VERBS.has(low[1]) ? undefined : 1);
  return { rejected };
}

/**
 * Gerund: "Using the format YYYY.MM for versions, where …". Only when no verb of its own follows in the first clause
 * ("Using X would make Y harder" argues, it does not decide), unless it states what a change brings.
 */
function gerundReading(toks: string[], low: string[], rejected: string[], take: Take): ProseReading | undefined {
  const gerundOf = GERUNDS.get(low[0] ?? "");
  if (gerundOf && /^[A-Z]/.test(toks[0])) {
    const firstClause = low.slice(1, Math.max(2, toks.findIndex((t) => /[,;:]$/.test(t)) + 1 || low.length));
    // "Switching to X means we can Y": a change stated with what it brings, in the present, is the decision itself.
    const statesGain = (CHANGE_VERBS.has(gerundOf) || CHOOSE_VERBS.has(gerundOf)) && firstClause.some((w) => /^(?:means|lets|enables|allows)$/.test(w));
    const argues = !statesGain && firstClause.some((w) => MODALS.has(w) || /^(?:is|are|was|were|has|have|makes|made|means|gives|leads|allows|requires|can|could|may|might)$/.test(w));
    if (statesGain) {
      // The choice ends where what it brings begins.
      const cut = low.findIndex((w, i) => i > 0 && /^(?:means|lets|enables|allows)$/.test(w));
      const keepVerb = !CHOOSE_VERBS.has(gerundOf);
      const p = committedPhrase(toks.slice(0, cut), low.slice(0, cut), keepVerb ? 0 : 1, keepVerb);
      return p.phrase ? { chosen: p.phrase, rejected: [...rejected, ...p.rejected], cue: "gerund" } : { rejected };
    }
    if (!argues) return take(1, "gerund", CHOOSE_VERBS.has(gerundOf) ? undefined : 0);
  }
  return undefined;
}

/** Words that can open a sentence before a determiner without being a verb ("Overall the team…", "Today the …"). */
const NOT_VERBS = new Set(
  "overall today currently now then thus hence also still instead however therefore finally first second third next lastly initially eventually moreover furthermore additionally meanwhile otherwise indeed perhaps maybe once since after before during until unless if when while where whereas although though because as at by for from in into of on onto over per to under upon via with within without about across against along among around behind below beneath beside between beyond despite except inside like near outside past through throughout toward towards all both each every either neither some any many most much few several no none not only even just yes".split(" "),
);
/** Determiners that open the object of an imperative: "Shard the index", "Version each namespace". */
const DETERMINERS = /^(?:the|a|an|each|every|all|our|its|their|this|these|those|any|both|no)$/;

/**
 * A sentence that opens with a command: a verb the decision vocabulary knows ("Use X"), or any verb the English model
 * reads as an imperative ("Increase the size", "Cap the pool"), or a capitalised word straight before a determiner that
 * the model took for a noun ("Shard the index": English verbs double as nouns). The vocabulary is a fast path; the
 * model reads every other verb.
 */
function opensWithImperative(toks: string[], low: string[]): boolean {
  const first = low[0] ?? "";
  if (!first || !/^[A-Z][a-z]+$/.test(toks[0]?.replace(/[,;:]$/, "") ?? "") || /[,;:]$/.test(toks[0] ?? "")) return false;
  if (IMPERATIVES.has(first)) return true;
  if (NOT_VERBS.has(first) || first.endsWith("ly") || first.length < 3 || toks.length < 3) return false;
  // "Text tags are identical to X": a finite "is/are" right after the first words makes them its subject.
  if (/^(?:is|are|was|were)$/.test(low[1] ?? "") || (/^(?:is|are|was|were)$/.test(low[2] ?? "") && !/[,;:]$/.test(toks[1] ?? ""))) return false;
  const head = compromise()(toks.slice(0, 4).join(" "));
  if (head.has("^#Imperative")) return true;
  return DETERMINERS.test(low[1] ?? "") && head.has("^#Noun") && !head.has("^#ProperNoun") && !head.has("^#Plural");
}

/** "I propose that we switch to X", "We propose to adopt X", "We recommend X": what the authors put forward. */
function firstPersonProposal(toks: string[], low: string[], rejected: string[], take: Take): ProseReading | undefined {
  if (!/^(?:i|we)$/.test(low[0] ?? "") || !/^(?:propose|suggest|recommend)$/.test(low[1] ?? "")) return undefined;
  if (low[2] === "that") {
    const clause = readClause(toks, low, 3, rejected, take);
    return clause?.chosen ? { ...clause, cue: "we propose" } : undefined;
  }
  if (low[2] === "to") return take(4, "we propose", CHOOSE_VERBS.has(low[3] ?? "") ? undefined : 3);
  return take(2, "we propose");
}

/** "This ADR records our decision", "we made the decision": what states that the decision it names was taken. */
const RECORDS_DECISION = /^(?:(?:this|the) (?:adr|rfc|record|document|decision record|proposal|page) (?:captures|records|documents|describes|states|formalises|formalizes|sets out)|we (?:have |had )?(?:made|took|taken|reached))$/;

/** "…, the decision is to use X", "Our decision was that we adopt X", "This ADR records our decision to use X". */
function decisionIsTo(toks: string[], low: string[], rejected: string[], take: Take): ProseReading | undefined {
  for (let d = 0; d + 3 < low.length; d++) {
    // "This ADR captures our decision to license X under Y", "We made the decision to move to X": the record says
    // the decision it names was taken ("the decision to use X was a mistake" says no such thing).
    if (low[d] === "decision" && low[d + 1] === "to" && /^(?:our|the)$/.test(low[d - 1] ?? "") && RECORDS_DECISION.test(low.slice(0, d - 1).join(" "))) {
      return take(CHOOSE_VERBS.has(low[d + 2]) ? d + 3 : d + 2, "it was decided", CHOOSE_VERBS.has(low[d + 2]) ? undefined : d + 2);
    }
    // "The proposal is to remove X", "our recommendation is to use Y", "my suggestion is that we add Z": a record's own proposal, in the present (a
    // proposal that "was" made may be one the record goes on to turn down).
    // "The solution is to X", "our approach is to Y": the record's own solution, stated the same way.
    const ownProposal = /^(?:proposal|recommendation|suggestion|solution|approach)$/.test(low[d]) && /^(?:the|our|my)$/.test(low[d - 1] ?? "");
    if (low[d] !== "decision" && !ownProposal) continue;
    // "Our approach is based on the system's page scanner": what the record's own approach builds on names it.
    if (ownProposal && low[d - 1] === "our" && low[d + 1] === "is" && /^(?:based|built)$/.test(low[d + 2] ?? "") && /^(?:on|upon)$/.test(low[d + 3] ?? "")) return withoutSecondPredicate(take(d + 4, "our approach"));
    // "The decision I've made is to X", "the decision we reached was that X": a short relative clause in between.
    let i = d;
    for (let k = d + 1; k <= d + 4 && k < low.length; k++) if (/^(?:is|was)$/.test(low[k]) && /^(?:to|that)$/.test(low[k + 1] ?? "")) (i = k - 1);
    if (!(ownProposal ? /^is$/ : /^(?:is|was)$/).test(low[i + 1])) continue;
    if (low[i + 2] === "to") return take(CHOOSE_VERBS.has(low[i + 3]) ? i + 4 : i + 3, "it was decided", CHOOSE_VERBS.has(low[i + 3]) ? undefined : i + 3);
    if (low[i + 2] === "that") {
      const clause = readClause(toks, low, i + 3, rejected, take);
      if (clause?.chosen) return { ...clause, cue: "it was decided" };
    }
    return undefined;
  }
  return undefined;
}

/** "X and attempts to be Y" after "Our approach is based on": the approach's second predicate, not part of what it builds on. */
function withoutSecondPredicate(reading: ProseReading): ProseReading {
  const m = reading.chosen ? /^(.+?)\s+and\s+([a-z]+s)\b/.exec(reading.chosen) : null;
  if (!m || !compromise()(`it ${m[2]}`).has("#PresentTense")) return reading;
  return { ...reading, chosen: m[1] };
}

const DISCARD_PARTICIPLES = new Set(["discarded", "rejected", "dismissed", "abandoned", "dropped"]);
/** "A solution like X", "an approach such as X", "options like X": the lead-in before the name. */
const LIKE_LEAD = /^(?:(?:a|an|the|any)\s+)?(?:\w+\s+){0,2}(?:like|such as)\s+/i;

/** The subject of "X has been discarded", "X was rejected", "X is ruled out", when it is short enough to be a name. */
function discardedSubject(toks: string[], low: string[]): string | undefined {
  for (let i = 1; i + 1 < low.length && i < 16; i++) {
    const aux = /^(?:has|have|had)$/.test(low[i]) && low[i + 1] === "been" ? i + 2 : /^(?:was|were|is|are)$/.test(low[i]) ? i + 1 : -1;
    if (aux < 0) continue;
    const verb = low[aux] ?? "";
    if (!(DISCARD_PARTICIPLES.has(verb) || (verb === "ruled" && low[aux + 1] === "out"))) continue;
    let from = 0;
    for (let j = 0; j < i; j++) if (/[,;:]$/.test(toks[j])) from = j + 1;
    const subject = tidy(toks.slice(from, i).join(" ").replace(LIKE_LEAD, ""));
    const words = subject.split(" ").length;
    return subject && words <= 6 && /\p{L}/u.test(subject) && !/^(?:it|this|that|these|those|they|which)$/i.test(subject) ? subject : undefined;
  }
  return undefined;
}

const WEIGHED = new Set(["considered", "evaluated", "explored", "investigated", "trialled", "trialed", "prototyped"]);

/**
 * What a sentence says was weighed: "X was considered as an alternative", "We also explored having X",
 * "We evaluated X and Y" (the first). Undefined when it names nothing short enough to be an option.
 */
export function weighedInSentence(sentence: string): string | undefined {
  const toks = tokens(stripInline(sentence));
  const low = toks.map(bare);
  // "X was considered (as an alternative)": X is the subject, at most six words from the sentence start.
  for (let i = 1; i + 1 < low.length && i <= 6; i++) {
    if (/^(?:was|were)$/.test(low[i]) && (WEIGHED.has(low[i + 1]) || (low[i + 1] === "also" && WEIGHED.has(low[i + 2] ?? "")))) {
      const subject = tidy(toks.slice(0, i).join(" ").replace(LIKE_LEAD, ""));
      return subject && /\p{L}/u.test(subject) && !/^(?:it|this|that|these|those|they|which|one|several|many|other|others)$/i.test(subject.split(" ")[0]) ? subject : undefined;
    }
  }
  // "We (also) explored having X", "we evaluated X".
  let v = low[0] === "we" ? 1 : -1;
  if (v > 0 && low[v] === "also") v++;
  if (v > 0 && WEIGHED.has(low[v] ?? "")) {
    let from = v + 1;
    if (/^(?:having|using|adding|building|running|introducing)$/.test(low[from] ?? "")) from++;
    const p = phraseFrom(toks, from).phrase;
    return p && p.split(" ").length <= MAX_PHRASE_WORDS && !/^(?:it|this|that|these|those|them|several|many|other|alternatives|options|ways)\b/i.test(p) ? p : undefined;
  }
  return undefined;
}

/** A subject longer than this many words is no option name: what is done to it is the choice. */
const LONG_SUBJECT_WORDS = 7;

/**
 * "… decided that the X service and the whole implementation of its Y backend is refactored using Z": the subject is
 * too long to be an option, so the action done to it ("refactored using Z") is what was decided.
 */
function longSubjectAction(toks: string[], low: string[], from: number): { phrase: string; rejected: string[] } | undefined {
  for (let j = from + 1; j < Math.min(low.length - 1, from + 30); j++) {
    const be = /^(?:is|are)$/.test(low[j]) ? j + 1 : low[j] === "be" && MODALS.has(low[j - 1] ?? "") ? j + 1 : -1;
    if (be < 0) continue;
    const participle = low[be] ?? "";
    if (!(PASSIVE_VERBS.has(participle) || isParticiple(participle)) || defers(low, be)) return undefined;
    const subjectWords = (low[j - 1] && MODALS.has(low[j - 1]) ? j - 1 : j) - from;
    if (subjectWords <= LONG_SUBJECT_WORDS) return undefined;
    const p = phraseFrom(toks, be);
    return p.phrase ? { phrase: p.phrase, rejected: p.rejected } : undefined;
  }
  return undefined;
}

/**
 * "replacing the Airflow workers with AWS Batch", "remove X and replace it with Y": what comes in is the choice and
 * what it replaces is turned down (a pronoun names nothing new and is left out).
 */
function replacement(toks: string[], low: string[], from: number): { chosen: string; rejected: string[] } | undefined {
  const end = Math.min(low.length, from + 2 * MAX_PHRASE_WORDS + 4);
  for (let i = from; i < end; i++) {
    if (!REPLACE_WORDS.has(low[i])) continue;
    for (let j = i + 1; j < Math.min(low.length, i + 12); j++) {
      if (low[j] !== "with" && low[j] !== "by") continue;
      const chosen = phraseFrom(toks, j + 1).phrase;
      if (!chosen) return undefined;
      const out = tidy(toks.slice(i + 1, j).join(" ").replace(/[,;:]+$/, ""));
      const before = i > from ? tidy(toks.slice(from, i).join(" ").replace(/\s+and$/i, "").replace(/[,;:]+$/, "")) : "";
      const rejected = [out, before].filter((r) => r && !/^(?:it|them|this|that|these|those)$/i.test(r) && !REPLACE_WORDS.has(r.split(" ")[0].toLowerCase()));
      const unverbed = rejected.map((r) => tidy(r.replace(/^(?:removing|remove|dropping|drop|retiring|retire|deprecating|deprecate)\s+/i, "")));
      return { chosen, rejected: /^(?:remov|drop|retir|deprecat)/i.test(before) ? unverbed : rejected.filter((r) => r === out) };
    }
    // "Replace the existing schema (…), and replace it with Y": a later "replace … with" says what comes in.
  }
  return undefined;
}

export const CHOICE_NOUNS = /^(?:choice|option|approach|solution|fit|candidate|alternative|way|path|tool|framework|library|bet)$/;
/** Words that rank an option above the others: superlatives, and comparatives that leave the comparison implicit. */
const RANKING_WORDS = /^(?:best|preferred|recommended|better|safer|safest|simplest|simpler|only)$/;

/**
 * "JointJS remains the best choice as the framework", "React Spring seems to be a better option to go for": the
 * subject. "… that the best approach would be to move X", "it is a safer bet to switch to X now": the rest.
 */
function bestChoice(toks: string[], low: string[]): { chosen: string; rejected: string[] } | undefined {
  for (let b = 0; b + 2 < low.length; b++) {
    if (!RANKING_WORDS.test(low[b])) continue;
    // A comparative with its comparison in the sentence ("better than X") argues; it does not choose.
    if (low.slice(b + 1, b + 6).includes("than")) continue;
    let n = b + 1;
    while (n < b + 4 && !CHOICE_NOUNS.test(low[n] ?? "")) n++;
    // "it is better to use X": the extraposed subject needs no noun.
    const noun = CHOICE_NOUNS.test(low[n] ?? "");
    // "the only solution that will work" ranks; "only" without a choice noun ("we only use X") does not.
    if (!noun && low[b] === "only") continue;
    if (!noun) n = b;
    // "The preferred path forward is to use X": an adverb may follow the noun.
    if (noun && /^(?:forward|ahead|here|now)$/.test(low[n + 1] ?? "")) n++;
    // Predicate: "the best long term solution is to enhance X", "the best approach would be to move X".
    // "the simplest option seems to be X", "the best fit appears to be X": a hedged copula still names the pick.
    const hedgedCopula = /^(?:seems|appears)$/.test(low[n + 1] ?? "") && low[n + 2] === "to" && low[n + 3] === "be";
    const copula = !noun ? 0 : /^(?:is|was|remains)$/.test(low[n + 1] ?? "") ? 1 : low[n + 1] === "would" && low[n + 2] === "be" ? 2 : hedgedCopula ? 3 : 0;
    if (copula) {
      let from = n + 1 + copula;
      if (low[from] === "to" || low[from] === "that") from++;
      const p = phraseFrom(toks, from);
      return p.phrase ? { chosen: p.phrase, rejected: p.rejected } : undefined;
    }
    // Extraposed: "it is a safer bet to switch to X", "it seems best to use X": what follows "to" is the choice.
    let c = b - 1;
    if (/^(?:the|our|a|an)$/.test(low[c] ?? "")) c--;
    const seemsToBe = low[c] === "be" && low[c - 1] === "to" && /^(?:seems|seem|appears|appear)$/.test(low[c - 2] ?? "");
    const verbAt = seemsToBe ? c - 2 : c;
    const linked = /^(?:is|remains|was|seems|looks|appears)$/.test(low[verbAt] ?? "");
    // "It is simpler for the time being to remove X": a short phrase may stand between the comparison and "to".
    let to = n + 1;
    while (to <= n + 5 && low[to] !== "to" && !/[,;:]$/.test(toks[to] ?? ",")) to++;
    // Not after "the": "it is the preferred way to test X" says what "it" (named before) is, not what to do.
    if (linked && low[b - 1] !== "the" && /^(?:it|this)$/.test(low[verbAt - 1] ?? "") && low[to] === "to" && verbAt - 1 <= 1 + lastClauseStart(toks, verbAt)) {
      const verb = to + 1;
      const from = CHOOSE_VERBS.has(low[verb] ?? "") ? verb + 1 : verb;
      const p = committedPhrase(toks, low, from, !CHOOSE_VERBS.has(low[verb] ?? ""));
      if (p.phrase) return { chosen: p.phrase, rejected: p.rejected };
      continue;
    }
    // Subject: "JointJS remains the best choice …", "Postgres is our preferred option".
    if (noun && verbAt >= 1 && linked) {
      // "By considering the above facts, React Spring seems …": the subject is the clause's, not the lead-in's.
      const subject = tidy(toks.slice(lastClauseStart(toks, verbAt), verbAt).join(" ").replace(/[,;:]+$/, "")).replace(/^(?:and|but|so|yet)\s+/i, "");
      const pronoun = /^(?:this|that|it|which|there)$/i.test(subject);
      if (subject && !pronoun && subject.split(" ").length <= 6) return { chosen: subject, rejected: [] };
    }
    if (/^(?:best|preferred|recommended)$/.test(low[b])) return undefined;
  }
  return undefined;
}

/** The index where the clause holding token `at` starts (after the last comma, semicolon or colon before it). */
function lastClauseStart(toks: string[], at: number): number {
  for (let i = at - 1; i > 0; i--) if (/[,;:]$/.test(toks[i - 1])) return i;
  return 0;
}

/** Words after "we" that do not commit to anything ("we need more data", "we were", "we have"). */
const NOT_A_COMMITMENT = new Set(["are", "were", "have", "had", "need", "needed", "want", "know", "think", "believe", "feel", "can", "could", "may", "might", "do", "did", "don't", "also", "still", "then", "all", "both", "currently", "already", "found", "see", "considered", "identified", "explored", "looked", "expect", "hope", "is", "was", "wanted", "tried", "intend", "plan", "aim", "would", "should", "must", "will", "shall", "usually", "often", "sometimes", "never", "only"]);

/** Words that open a reason or concession clause. */
const SUBORDINATORS = new Set(["since", "because", "although", "though", "whereas", "while", "if", "unless", "until", "once", "when", "whenever"]);
/** Words inside a subject that open a subordinate clause: a modal after them ("It is unclear when a user would need
 * X") belongs to that clause, not to a commitment. */
const SUBORDINATE_IN_SUBJECT = /^(?:when|whether|if|unless|until|once)$/;
/** "X will try to support Y": the effort words before the verb that commits. */
const EFFORT_WORDS = /^(?:try|attempt|strive|seek|aim)$/;
/** "Home Assistant supports X", "the proposed solution hashes X": a third-person present verb from the choice verbs. */
function thirdPersonVerb(w: string): string | undefined {
  if (!/^[a-z]+s$/.test(w) || w.endsWith("ss")) return undefined;
  for (const base of [w.slice(0, -1), w.endsWith("es") ? w.slice(0, -2) : ""]) if (base && !EFFECT_VERBS.has(base) && (CHOOSE_VERBS.has(base) || IMPERATIVES.has(base))) return base;
  return undefined;
}
/** Verbs that, in the third person, state what something brings about ("X keeps the team in control", "Y makes
 * it slower"): an argument for a choice, not the choice. */
const EFFECT_VERBS = new Set(["keep", "make", "allow", "enable", "avoid", "limit", "restrict", "handle", "go", "put", "place", "send", "stop", "run", "change", "move", "take", "follow", "treat", "rely"]);
/** Subjects that stand for the record's own proposal: any present verb of theirs states what it does. */
const PROPOSAL_SUBJECT = /^(?:the|our|this)\s+(?:proposed\s+|chosen\s+|new\s+)?(?:solution|approach|design|proposal|implementation)$/;

type Take = (from: number, cue: string, verbIndex?: number) => ProseReading;

/** "Packaging and distribution will be managed by X": a gerund subject whose modal is followed by a passive. */
function gerundSubjectPassive(low: string[], start: number): boolean {
  for (let i = start + 1; i < Math.min(low.length - 2, start + 8); i++) {
    if (MODALS.has(low[i])) return low[i + 1] === "be" && (PASSIVE_VERBS.has(low[i + 2]) || isParticiple(low[i + 2] ?? ""));
  }
  return false;
}

/** Verbs that, after a refusal and "and", state what was taken instead ("…, and have instead opted for Ruby"). */
const INSTEAD_VERBS = /^(?:opted|chose|chosen|selected|picked|went|gone|use|adopt|choose|keep|retain|stay|stick|continue)$/;

/**
 * "We will not build X using Rust and have instead opted for Ruby", "decided not to use X … and to keep Y": the
 * choice a refusal goes on to make, with the token where its clause starts (the refused phrase ends there).
 */
function choiceAfterRefusal(toks: string[], low: string[], from: number): { phrase: string; at: number } | undefined {
  for (let i = from + 1; i < low.length - 1; i++) {
    if (low[i] !== "and") continue;
    let v = i + 1;
    while (v < i + 4 && /^(?:have|has|had|instead|then|to|we|will|'ve)$/.test(low[v] ?? "")) v++;
    if (!INSTEAD_VERBS.test(low[v] ?? "")) continue;
    const keeps = /^(?:keep|retain|stay|stick|continue)$/.test(low[v]);
    const start = keeps ? v : /^(?:for|with|to|on)$/.test(low[v + 1] ?? "") ? v + 2 : v + 1;
    const phrase = phraseFrom(toks, start).phrase;
    if (phrase) return { phrase, at: i };
  }
  return undefined;
}

/** Where a leading purpose clause ("To keep X fast,", "In order to Y,") ends, when a main clause follows its comma. */
function purposeClauseEnd(toks: string[], low: string[], start: number): number | undefined {
  const verbAt = low[start] === "to" ? start + 1 : low[start] === "in" && low[start + 1] === "order" && low[start + 2] === "to" ? start + 3 : -1;
  if (verbAt < 0 || !/^[a-z]+$/.test(low[verbAt] ?? "") || /[,;:]$/.test(toks[verbAt] ?? "")) return undefined;
  for (let i = verbAt + 1; i < Math.min(low.length - 2, verbAt + 14); i++) {
    if (/[;:.]$/.test(toks[i])) return undefined;
    if (/,$/.test(toks[i])) return /^(?:we|i|the|this|our|it|they|all|each|every)$/.test(low[i + 1] ?? "") ? i : undefined;
  }
  return undefined;
}

/** After "we are" / "the team is" (at `i`): "going to use X", "proposing X", "adopting X", "moving to X". */
function progressiveReading(low: string[], i: number, take: Take): ProseReading | undefined {
  // "We are going to use X" is "we will use X"; "We are proposing X" puts X forward.
  if (low[i + 1] === "going" && low[i + 2] === "to" && /^[a-z]+$/.test(low[i + 3] ?? "")) return take(i + 4, "we will", CHOOSE_VERBS.has(low[i + 3]) ? undefined : i + 3);
  if (/^(?:proposing|suggesting|recommending)$/.test(low[i + 1] ?? "") && !/^(?:that|to)$/.test(low[i + 2] ?? "")) return take(i + 2, "we propose");
  // "We are adopting X", "we are replacing X with Y", "The team is moving to X".
  const progressive = GERUNDS.get(low[i + 1] ?? "");
  return progressive ? take(i + 2, "we are adopting", CHOOSE_VERBS.has(progressive) ? undefined : i + 1) : undefined;
}

/** "Install X along with packages that depend on it": a sentence that opens with a command has no subject. */
function opensWithCommand(toks: string[], low: string[], start: number, i: number): boolean {
  return start === 0 && IMPERATIVES.has(low[0]) && /^[A-Z]/.test(toks[0]) && !/^(?:the|a|an)$/.test(low[1] ?? "") && i - start >= 2;
}

/** "The operator is set to cluster scope" (copula at `i`): the value a setting is given is what was settled on. */
function isSetTo(low: string[], start: number, i: number): boolean {
  if (!(low[i] === "is" || low[i] === "are") || low[i + 1] !== "set" || low[i + 2] !== "to") return false;
  // "This is set to change": a pronoun subject and a verb after "to" speak of what is about to happen.
  return !IMPERATIVES.has(low[i + 3] ?? "") && !/^(?:it|this|that|which|there)$/.test(low[start]) && i > start && i - start <= 6;
}

/** "We'll be using X", "we will be adopting X" ("be" at `v`): the future progressive commits as "we will use X" does. */
function futureProgressive(low: string[], start: number, v: number, take: Take): ProseReading | undefined {
  const verb = low[v] === "be" && /^(?:we|i)(?:['’]ll)?$/.test(low[start]) ? GERUNDS.get(low[v + 1] ?? "") : undefined;
  return verb ? take(v + 2, "we will", CHOOSE_VERBS.has(verb) ? undefined : v + 1) : undefined;
}

/** "The operator may decide to add X": a choice left to someone later is one the text allows, not one it makes. */
const LEFT_TO_LATER = /^(?:may|might|could|can)$/;

/**
 * "We realize that X is Y", "we note that X will be used": the verb's object is a statement, not an option; only a
 * commitment inside that statement chooses anything. ("We decided that X" has readings of its own.)
 */
function statesThat(low: string[], start: number): boolean {
  const verb = low[start + 1] ?? "";
  return low[start] === "we" && low[start + 2] === "that" && /^[a-z]+$/.test(verb) && !MODALS.has(verb) && !DECIDE_WORDS.has(verb);
}

/** readClause, except that a clause that only states something ("We realize that …") commits to what its statement does. */
function clauseReading(toks: string[], low: string[], start: number, rejected: string[], take: Take): ProseReading | undefined {
  if (!statesThat(low, start)) return readClause(toks, low, start, rejected, take);
  const inner = readClause(toks, low, start + 3, rejected, take);
  return inner?.chosen ? inner : undefined;
}

function readClause(toks: string[], low: string[], start: number, rejected: string[], take: Take): ProseReading | undefined {
  // "Using X would make Y slower": a gerund subject with a modal weighs an option; it commits to nothing.
  // "Packaging and distribution will be managed by X" is a passive commitment about an activity, not a weighing.
  // "since the tooling will take months, …": a clause giving a reason or a concession is not the one that decides.
  // "However, …": a lone connective is no clause; the one after its comma is read next.
  // "To keep builds fast, we use X", "In order to …, we …": a purpose clause before the main one chooses nothing.
  const decidesNothing = (GERUNDS.has(low[start] ?? "") && !gerundSubjectPassive(low, start)) || SUBORDINATORS.has(low[start] ?? "") || /[,;:]$/.test(toks[start] ?? "");
  if (decidesNothing || purposeClauseEnd(toks, low, start) !== undefined) return undefined;
  // "To keep builds fast, we propose X": what the authors put forward, as at the start of a sentence ("Instead of X,
  // we propose to roll out Y": the verb after "to" opens it).
  if (low[start] === "we" && /^(?:propose|suggest|recommend)$/.test(low[start + 1] ?? "") && low[start + 2] !== "that") return take(low[start + 2] === "to" ? start + 3 : start + 2, "we propose");
  // "We use X", "we adapt X", "We prefer X": a present-tense commitment by the team.
  if (low[start] === "we" && low[start + 1] && !NOT_A_COMMITMENT.has(low[start + 1]) && !MODALS.has(low[start + 1]) && /^[a-z]+$/.test(low[start + 1]) && !/(?:ed|ing)$/.test(low[start + 1])) {
    return take(start + 2, "we use", start + 1);
  }
  // "We disabled this default behaviour", "we adopted X": a past-tense decision verb reports the choice made.
  if (low[start] === "we" && DECIDED_PAST.has(low[start + 1] ?? "")) return take(start + 2, "we decided", start + 1);
  // A parenthetical ("(json, csv, .sql)") neither counts toward the subject's length nor ends the clause.
  let depth = 0;
  let counted = 0;
  for (let i = start; i < low.length && counted < 12; i++) {
    const opens = toks[i].split("(").length - 1;
    const closes = toks[i].split(")").length - 1;
    if (depth > 0 || opens > 0) {
      depth = Math.max(0, depth + opens - closes);
      if (i > start) continue;
    }
    counted++;
    const w = low[i];
    // "This is a milestone toward the implementation which will drop X": the modal belongs to a relative clause,
    // and what follows it is no commitment of the subject's.
    // "… others take arguments that will be used to build X": "that" right before the modal opens one too.
    if (i > start && (/^(?:which|who)$/.test(w) || (w === "that" && i > start + 1 && MODALS.has(low[i + 1] ?? "")))) return undefined;
    if (i > start && SUBORDINATE_IN_SUBJECT.test(w)) return undefined;
    // "Home Assistant supports X", "the proposed solution hashes X": a short subject (no pronoun) and a present verb.
    if (i > start && i - start <= 4 && !opensWithCommand(toks, low, start, i) && !/^(?:it|this|that|these|those|they|there|which|who|he|she|each|every|all|any|some|no|either|neither|both|one|none|such)$/.test(low[start])) {
      const subject = low.slice(start, i).join(" ");
      const proposal = PROPOSAL_SUBJECT.test(subject);
      // A plural noun that is also a verb ("Our changes will …", "Existing records are …") has a determiner or an
      // auxiliary next to it; a verb has neither.
      const nounLike = /^(?:the|a|an|our|its|their|this|that|these|those|each|every|all|any|some|no|new|existing|of|and|or)$/.test(low[i - 1]) || /^(?:will|shall|should|must|would|can|could|may|might|are|were|is|was|have|had|do|did|'ll)$/.test(low[i + 1] ?? "");
      if (!nounLike && ((proposal && /^[a-z]+s$/.test(w) && !/^(?:is|was|has|does|needs)$/.test(w)) || (!proposal && thirdPersonVerb(w) && !toks.slice(start, i).some((t) => /[,;:]$/.test(t))))) {
        const verb = thirdPersonVerb(w);
        return take(i + 1, "third person", verb && CHOOSE_VERBS.has(verb) ? undefined : i);
      }
    }
    if (MODALS.has(w) || w.endsWith("'ll") || (/^(?:want|intend|intends|plan|plans|need|aim|agree)$/.test(w) && low[i + 1] === "to" && i > start) || (w === "needs" && low[i + 1] === "to" && low[i + 2] === "be" && CHANGE_PARTICIPLES.has(low[i + 3] ?? "") && i > start)) {
      // "It would then be used to …": a pronoun with "would" describes how the thing named before behaves.
      if (w === "would" && i === start + 1 && /^(?:it|this|that|they)$/.test(low[start])) return undefined;
      // "An attempt to replay the history would encounter errors": a hypothetical about something else, not a plan.
      if (w === "would" && !/^(?:we|i)$/.test(low[start])) return undefined;
      // "Products will, given the set of X, generate Y": an aside after the modal; the clause is too tangled to read.
      if (toks[i].endsWith(",")) return undefined;
      let v = i + 1;
      if (low[v] === "like" && low[v + 1] === "to") v += 2;
      // "X will need to be authorised" commits to X being authorised, as "X will be authorised" does.
      if ((low[v] === "have" || (low[v] === "need" && low[v + 2] === "be")) && low[v + 1] === "to") v += 2;
      // "Each of these should have an independent storybook": having something is the commitment.
      // "We will have no charges for X": having none of something is the commitment too.
      if (low[v] === "have" && /^(?:a|an|its|their|one|separate|independent|independant|own|dedicated|no)$/.test(low[v + 1] ?? "")) return take(v + 1, "we will");
      // "will (as appropriate) use X": an aside right after the modal is skipped.
      if (toks[v]?.startsWith("(")) {
        let j = v;
        while (j < toks.length - 1 && !toks[j].includes(")") && j - v < 8) j++;
        v = j + 1;
      }
      while ((/^(?:now|also|still|continue|to|instead|then|only|first|from)$/.test(low[v] ?? "") || (EFFORT_WORDS.test(low[v] ?? "") && low[v + 1] === "to")) && v < i + 6) v++;
      if (low[v] === "not" || low[v] === "no" || w.endsWith("n't")) {
        const refused = negatedPassive(toks, low, { start, modal: i, after: v }, rejected);
        if (refused) return refused;
        const from = CHOOSE_VERBS.has(low[v + 1]) ? v + 2 : v + 1;
        const other = choiceAfterRefusal(toks, low, from);
        const r = phraseFrom(other ? toks.slice(0, other.at) : toks, from).phrase;
        if (other) return { chosen: other.phrase, rejected: r ? [...rejected, r] : rejected, cue: "we will" };
        const refusal = w.endsWith("n't") ? (r ? `not ${r}` : undefined) : phraseFrom(toks, v).phrase;
        return { rejected: r ? [...rejected, r] : rejected, cue: "will not", ...(refusal ? { refusal } : {}) };
      }
      // "The compute pool will consist of a shared Nomad cluster": what it is made of is the choice.
      if (/^(?:consist|comprise)$/.test(low[v] ?? "")) return take(low[v + 1] === "of" ? v + 2 : v + 1, "we will");
      if (low[v] === "be" && defers(low, v + 1)) return undefined;
      if (low[v] === "be" && (PASSIVE_VERBS.has(low[v + 1]) || isParticiple(low[v + 1] ?? "")) && i > start) return passive(toks, start, i, v + 1, rejected);
      if (low[v] === "be" || low[v] === "have" || !low[v]) return futureProgressive(low, start, v, take);
      return take(v + 1, "we will", v);
    }
    if (DECIDE_WORDS.has(w) && low[i + 1] === "to") return LEFT_TO_LATER.test(low[i - 1] ?? "") ? undefined : take(i + 3, "decided to", i + 2);
    // "The team decided not to use X, and to keep Y for Z": X is turned down, Y (if any) is the choice.
    if (DECIDE_WORDS.has(w) && low[i + 1] === "not" && low[i + 2] === "to") {
      const from = CHOOSE_VERBS.has(low[i + 3] ?? "") ? i + 4 : i + 3;
      const other = choiceAfterRefusal(toks, low, from);
      const r = phraseFrom(other ? toks.slice(0, other.at) : toks, from).phrase;
      const refused = r ? [...rejected, r] : rejected;
      return other ? { chosen: other.phrase, rejected: refused, cue: "decided to" } : { rejected: refused, cue: "will not", ...(r ? { refusal: `not ${phraseFrom(toks, i + 3).phrase ?? r}` } : {}) };
    }
    // "We opted for X", "the team opted for X".
    if (DECIDE_WORDS.has(w) && low[i + 1] === "for" && i > start) return take(i + 2, "decided on");
    if (DECIDE_WORDS.has(w) && low[i + 1] === "that" && i > start) return decidedThat(toks, low, i + 2, rejected, take);
    if (DECIDE_WORDS.has(w) && low[i + 1] === "on") return passiveDecidedOn(toks, low, start, i, rejected) ?? take(i + 2, "decided on");
    if ((w === "are" || w === "is") && i - start <= 3) {
      const reading = progressiveReading(low, i, take);
      if (reading) return reading;
    }
    if ((w === "is" || w === "are" || (/^(?:was|were)$/.test(w) && PICKED.has(low[i + 1] ?? ""))) && i > start && i - start <= 6 && (isSetTo(low, start, i) || PASSIVE_VERBS.has(low[i + 1] ?? ""))) return isSetTo(low, start, i) ? take(i + 3, "set to") : passive(toks, start, i, i + 1, rejected);
    if (i > start && /[.,;:]$/.test(toks[i])) break;
  }
  return undefined;
}

/** A subject that names no thing of its own: the deciders, or a word pointing back. */
const NAMELESS_SUBJECT = /^(?:we|i|you|they|it|this|that|these|those|there|he|she|one|each|all|both|everyone|everybody|nobody|someone)$/;

/**
 * "We decided that GOV.UK Publishing Components will store the rendering logic": the clause after "decided that" is
 * what was decided, its subject included (the thing given the task is the choice), as "It was decided that X will Y"
 * is read. A first-person or pointing subject ("we decided that we will use X") names nothing: the clause is read on
 * its own.
 */
function decidedThat(toks: string[], low: string[], from: number, rejected: string[], take: Take): ProseReading | undefined {
  const clause = readClause(toks, low, from, rejected, take);
  if (clause?.cue !== "we will" || NAMELESS_SUBJECT.test(low[from] ?? "")) return clause ?? take(from, "decided that");
  const whole = take(from, "decided that");
  return whole.chosen ? whole : clause;
}

/** "gRPC was decided on to replace the protocol": in the passive, the subject was chosen; what follows is its purpose. */
function passiveDecidedOn(toks: string[], low: string[], start: number, i: number, rejected: string[]): ProseReading | undefined {
  if (i - 1 <= start || !/^(?:was|were|been|is|are)$/.test(low[i - 1])) return undefined;
  const subject = tidy(toks.slice(start, i - 1).join(" ").replace(/[,;:]+$/, ""));
  return subject && subject.split(" ").length <= MAX_PHRASE_WORDS ? { chosen: subject, rejected, cue: "passive" } : undefined;
}

/** Verbs that take something from one thing to another ("move from X to Y"), as a regular-expression alternation. */
export const MOVING_VERBS = "move|moving|migrate|migrating|switch|switching|transition|transitioning|change|changing|go|going";
const MOVE_VERBS = new RegExp(`^(?:${MOVING_VERBS})$`);

/**
 * "A mockable shared Clock is used across modules": the subject is what was chosen. "Recovered data will be deposited
 * into the landing zone": with a participle of action the clause itself (subject, verb and complement) is the choice.
 */
/** What follows a participle that places something in the text: "in the order …", "below", "in this section". */
const ABOUT_THE_LAYOUT = /^(?:in (?:the |this )?order|in order of|below|above|as follows|in (?:this|the following|the next|the previous) (?:section|chapter|document))\b/;

/**
 * "Changes to existing YAML configuration will no longer be accepted": the subject is what is turned down. A subject
 * set off by a comma ("Changes to X for these integrations, will no longer …") opens the sentence. `after` is the
 * "not" / "no" after the modal (or the word after a "won't").
 */
function negatedPassive(toks: string[], low: string[], at: { start: number; modal: number; after: number }, rejected: string[]): ProseReading | undefined {
  const { start, modal, after } = at;
  const be = low[modal].endsWith("n't") ? after : low[after + 1] === "longer" ? after + 2 : after + 1;
  const subjectAt = modal > start ? start : modal > 0 && toks[modal - 1].endsWith(",") ? 0 : -1;
  const participle = low[be + 1] ?? "";
  if (low[be] !== "be" || !(CHOICE_PARTICIPLES.has(participle) || REFUSED_PARTICIPLES.has(participle)) || subjectAt < 0) return undefined;
  const subject = tidy(toks.slice(subjectAt, modal).join(" ").replace(/[,;:]+$/, ""));
  return { rejected: subject && subject.split(" ").length <= MAX_PHRASE_WORDS ? [...rejected, subject] : rejected, cue: "will not" };
}

function passive(toks: string[], start: number, verbAt: number, participleAt: number, rejected: string[]): ProseReading {
  const subject = tidy(toks.slice(start, verbAt).join(" ").replace(/[,;:]+$/, ""));
  if (!subject || subject.split(" ").length > MAX_PHRASE_WORDS) return { rejected, cue: "passive" };
  // "Concepts are introduced in the order they depend on each other": how the document is laid out, not a choice.
  const after = toks.slice(participleAt + 1, participleAt + 4).map(bare).join(" ");
  if (ABOUT_THE_LAYOUT.test(after)) return { rejected, cue: "passive" };
  // "The tool is implemented as shell scripts": what it is made as or with is the choice, not the thing made.
  if (MADE_PARTICIPLES.has(bare(toks[participleAt])) && MADE_HOW.test(bare(toks[participleAt + 1] ?? ""))) {
    const how = phraseFrom(toks, participleAt + 2);
    if (how.phrase) return { chosen: how.phrase, rejected: [...rejected, ...how.rejected], cue: "passive" };
  }
  if (CHOICE_PARTICIPLES.has(bare(toks[participleAt]))) return { chosen: subject, rejected, cue: "passive" };
  // "The project structure needs to be changed, to follow a component structure": what it changes to is the choice.
  if (CHANGE_PARTICIPLES.has(bare(toks[participleAt])) && bare(toks[participleAt + 1] ?? "") === "to" && /^[a-z]+$/.test(bare(toks[participleAt + 2] ?? ""))) {
    const target = phraseFrom(toks, participleAt + 2);
    if (target.phrase) return { chosen: target.phrase, rejected: [...rejected, ...target.rejected], cue: "passive" };
  }
  const rest = phraseFrom(toks, participleAt);
  const clause = [subject, ...toks.slice(verbAt, participleAt).map((t) => t.replace(/[,;:]+$/, "")), rest.phrase ?? ""].join(" ").trim();
  return { chosen: clause, rejected: [...rejected, ...rest.rejected], cue: "passive" };
}
