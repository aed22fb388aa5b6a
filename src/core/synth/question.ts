// Reads the structure of a design question with an English parser (compromise): which alternatives it names, which
// of them is in place today and which is proposed, and what the question is about. The synthesizer builds its
// options from this: titles are whole phrases a person would write ("Put a Varnish layer in front of the API"),
// and the terms that find an option in the evidence ("varnish layer", "varnish") are kept apart from the title.
//
// Forms, in the order they are tried on the clause that asks:
//   migration      "move / migrate / switch from A to B", "replace A with B",
//                  "swap A for B", "drop A and build with B"                    → Keep A · Move to B
//   alternatives   "A or B", "A, B or C", "A vs B", "between A and B",
//                  "A instead of / rather than B", "prefer A over B",
//                  "is A a better fit than B"                                   → each alternative
//   instead        "…X is slow; should we integrate Y instead?"                 → Keep X · Integrate Y
//   move-to        "move X onto B", "switch to B"                               → Keep X · Move X onto B
//   keep / drop    "keep X?", "is X still the right choice?", "do we still need
//                  to publish X?" / "stop using X?", "drop X?"                   → Keep X · (successor) / Drop X
//   adopt          "adopt / introduce / use / add A", "is A worth adding?"      → Adopt A · (current approach)
//   action         "should we <verb phrase>?"                                   → <Verb phrase> · (current approach)
//   open           "which pattern …", "how should we …"                         → options come from the evidence
import type nlpLib from "compromise";
import { compromise } from "../nlp";
import { TECH_ALIASES, normaliseAbbreviations } from "./words";

export type QuestionForm = "migration" | "alternatives" | "move-to" | "keep" | "drop" | "adopt" | "action" | "open";

export interface Alternative {
  /** Display title, a whole readable phrase: "Put a Varnish layer in front of the API", "Keep cron jobs". */
  title: string;
  /** The thing the alternative is about, as written: "Varnish layer", "cron jobs", "Redux". */
  subject: string;
  /** Lower-case terms that find this alternative in evidence text (never shown). Empty: nothing to look for. */
  terms: string[];
  /** What the question says about it: in place today, proposed, or one of several alternatives. */
  role: "alternative" | "incumbent" | "target";
  /** The alternative is the negation of its terms ("Stop using X"): evidence for X counts against it. */
  inverse?: boolean;
}

export interface QuestionStructure {
  form: QuestionForm;
  /** The alternatives the question itself names, in question order. */
  alternatives: Alternative[];
  /** What the question says is in place today (the A of "move from A to B", the X of "keep X?"). */
  incumbent?: Alternative;
  /** What the question proposes (the B of "move from A to B", the A of "adopt A?"). */
  target?: Alternative;
  /** The purpose phrase: "service-to-service calls" in "adopt gRPC for service-to-service calls?". */
  purpose?: string;
  /** Lower-case content words of the question that name no alternative: what the question is about. */
  topic: string[];
  /** The question with editor tags ("TODO(decide):") removed. */
  text: string;
}

// ---------------------------------------------------------------------------------------------------------
// Tokens

/**
 * compromise, with the part-of-speech tagger the classifier also uses ("compromise/two" is the same instance and
 * lexicon: importing the full build here adds only its phrase methods, ~20 ms, not a second lexicon).
 */
function nlp(): typeof nlpLib {
  return compromise();
}

interface Tok {
  text: string;
  /** Lower-case, punctuation-free form. */
  norm: string;
  /** Infinitive of a verb, singular of a noun (compromise's root), else norm. */
  root: string;
  tags: Set<string>;
  pre: string;
  post: string;
  /** The tagger's note that the word can also be another part of speech ("Noun|Verb"). */
  amb?: string;
}

interface RawTerm {
  text: string;
  normal?: string;
  root?: string;
  tags?: string[];
  pre?: string;
  post?: string;
  switch?: string;
}

/** Prepositions, whatever compromise tagged them ("in front of" comes back as adjectives). */
const PREPS = new Set(
  "in on at by with from to into onto for of per via through over under behind across within without inside outside about between towards toward against after before during like than as upon beside besides alongside beyond throughout".split(
    " ",
  ),
);
/** Subordinators that open an adverbial alternative: "publish on every merge, or only when we cut a release". */
const SUBORDINATORS = new Set(["when", "whenever", "once", "after", "before", "if", "unless", "while", "until"]);
/** Words before a preposition that make its object context, not an alternative: "in front of the API". */
const RELATIONAL = new Set(["front", "top", "behind", "next", "instead", "ahead", "beside", "alongside", "between", "around", "besides", "addition"]);
/** Prepositions after which a phrase says what for, not what: shared by every alternative. */
const PURPOSE = new Set(["for", "when", "because", "since", "so", "given", "if", "unless", "while", "once", "whenever"]);
const DETERMINERS = new Set(["the", "a", "an", "our", "its", "their", "my", "your", "this", "that", "these", "those", "some", "any", "each", "every", "his", "her"]);
const PRONOUNS = new Set(["we", "i", "you", "us", "they", "it", "one", "someone", "anyone", "them", "those", "these", "this", "that"]);
const PERSONAL = new Set(["we", "i", "you", "us", "one", "someone", "anyone", "people", "developers", "engineers", "team"]);
const WH = new Set(["which", "what", "how", "where", "when", "who", "whom", "whose", "why", "what's", "how's", "where's", "who's", "which's"]);
/** Verbs that carry the question, not the alternative: "should we consider moving …", "do we need to …". */
const LIGHT_VERBS = new Set(["consider", "think", "want", "need", "plan", "start", "begin", "try", "decide", "worth", "make", "mean", "propose", "suggest", "wonder", "look", "evaluate", "explore", "time", "have", "ought", "continue"]);
/** Words the tagger sometimes calls adjectives or nouns that never belong to a noun phrase. */
const NEVER_NOUNISH = new Set(["worth", "still", "also", "even", "just", "really", "only", "already", "currently", "now", "then", "instead", "rather", "yet", "too", "either", "else", "always", "never", "locally", "directly", "everywhere", "anymore", "instead"]);

const MOVE_VERBS = new Set(["move", "migrate", "switch", "port", "transition", "shift", "convert", "transfer", "go", "change", "upgrade", "downgrade", "rewrite", "migration", "switchover"]);
const REPLACE_VERBS = new Set(["replace", "swap", "substitute", "exchange", "trade"]);
const KEEP_VERBS = new Set(["keep", "continue", "stick", "stay", "remain", "retain", "maintain", "preserve"]);
const DROP_VERBS = new Set(["stop", "drop", "remove", "retire", "deprecate", "abandon", "ditch", "eliminate", "discontinue", "sunset", "kill", "delete"]);
const ADOPT_VERBS = new Set(["adopt", "introduce", "use", "add", "try", "embrace", "enable", "include", "employ", "utilize", "utilise", "leverage", "integrate", "implement", "bring", "pick", "choose", "select"]);
/** Verbs that place their object somewhere: the place is the alternative ("store uploads on the local disk"). */
const PLACEMENT_VERBS = new Set(["store", "keep", "put", "save", "host", "persist", "run", "deploy", "cache", "write", "place", "hold", "serve", "live", "locate", "stash", "archive", "log", "publish", "queue", "schedule", "rely", "depend", "build", "base"]);
/** Verbs that take their beneficiary as subject: "should staging get X" reads as "Give staging X". */
const RECEIVE_VERBS = new Set(["get", "have", "receive"]);
/** Verbs that only say "pick one": the alternatives are titled by themselves. */
const CHOICE_VERBS = new Set(["prefer", "favour", "favor", "choose", "pick", "select", "recommend", "want", "go", "take", "decide", "use", "standardize", "standardise", "adopt"]);
const LINKING_VERBS = new Set(["stay", "remain", "become", "seem", "look", "feel", "get"]);
const DECISION_VERBS = new Set([...MOVE_VERBS, ...REPLACE_VERBS, ...KEEP_VERBS, ...DROP_VERBS, ...ADOPT_VERBS, ...PLACEMENT_VERBS, "talk", "call", "target", "pay", "track", "purge", "cap", "route", "poll", "subscribe", "read", "install", "leave", "fold", "split", "merge", "encrypt"]);
/** Where or with what something is done: what verb-phrase alternatives usually differ in. */
const LOCATIVE = ["in", "on", "at", "with", "via", "through", "inside", "within", "using", "behind", "per", "by"];

function isModal(t: Tok): boolean {
  return t.tags.has("Modal") || t.tags.has("Auxiliary") || ["should", "would", "could", "can", "shall", "will", "must", "may", "might", "do", "does", "did"].includes(t.norm);
}
function isCopula(t: Tok): boolean {
  return t.tags.has("Copula") || ["be", "is", "are", "was", "were", "been", "being"].includes(t.norm);
}
function isVerb(t: Tok): boolean {
  return t.tags.has("Verb") && !isModal(t) && !isCopula(t) && !PREPS.has(t.norm) && !t.tags.has("Particle") && !NEVER_NOUNISH.has(t.norm);
}
function isPrep(t: Tok): boolean {
  return PREPS.has(t.norm);
}
function isConj(t: Tok): boolean {
  return ["and", "or", "nor", "but", "vs", "versus"].includes(t.norm) || (t.tags.has("Conjunction") && !PREPS.has(t.norm) && t.norm !== "that");
}
function isAdverb(t: Tok): boolean {
  return NEVER_NOUNISH.has(t.norm) || (t.tags.has("Adverb") && !t.tags.has("Adjective") && !t.tags.has("Noun"));
}
function endsClause(t: Tok): boolean {
  const post = t.post.replace(/\.\.\./g, "").replace(/['"’”)\]]/g, "");
  // "1. Context": a list number's period ends nothing.
  return /[,;:?!]/.test(post) || (/\./.test(post) && !/^\d+$/.test(t.norm));
}
const PARTICLES = new Set(["up", "out", "off", "down", "away", "back"]);

function isNounish(t: Tok): boolean {
  if (NEVER_NOUNISH.has(t.norm) || PARTICLES.has(t.norm) || t.tags.has("Particle")) return false;
  if (PREPS.has(t.norm) || isConj(t) || isModal(t) || isCopula(t) || WH.has(t.norm) || SUBORDINATORS.has(t.norm)) return false;
  if (isAdverb(t)) return false;
  if (isVerb(t)) return t.tags.has("Gerund") || t.tags.has("Noun");
  return true;
}
/** Capitalised in the middle of a sentence, an acronym, or carrying a digit, dot, @ or slash: the name of a thing. */
function isNameLike(t: Tok): boolean {
  return t.tags.has("ProperNoun") || t.tags.has("Acronym") || /[A-Z]/.test(t.text.slice(1)) || /[\d.@/:]/.test(t.text.replace(/[.?!,;:'"]+$/, "")) || isHyphenatedName(t);
}

/** "adr-tools", "scala-opentracing": a hyphenated word whose first part is no English word is a name. */
function isHyphenatedName(t: Tok): boolean {
  const m = /^([a-z][a-z0-9]{2,})-[a-z0-9]/.exec(t.norm);
  if (!m || COMMON_PREFIXES.has(m[1])) return false;
  const lex = lexicon();
  return !(m[1] in lex) && !(`${m[1]}s` in lex) && !(m[1].replace(/s$/, "") in lex);
}
const COMMON_PREFIXES = new Set(["pre", "post", "non", "multi", "sub", "self", "cross", "inter", "intra", "over", "under", "anti", "semi", "auto", "co", "re", "de", "un", "mid", "end"]);
function lexicon(): Record<string, unknown> {
  return (nlp() as unknown as { world(): { model: { one: { lexicon: Record<string, unknown> } } } }).world().model.one.lexicon;
}
/** The word is ordinary English (in the tagger's lexicon, or a regular form of such a word). */
function isKnownWord(t: Tok): boolean {
  const lex = lexicon();
  return t.norm in lex || t.root in lex || t.tags.has("Gerund") || (t.tags.has("Adjective") && !t.tags.has("ProperNoun"));
}

/** Tokens joined by a hyphen without spaces ("service-to-service", "vscode-elements") are one token. */
function mergeHyphens(terms: Tok[]): Tok[] {
  const out: Tok[] = [];
  for (const t of terms) {
    const prev = out[out.length - 1];
    if (prev && /^[-–]$/.test(prev.post) && !t.pre) {
      prev.text = `${prev.text}-${t.text}`;
      prev.norm = `${prev.norm}-${t.norm}`;
      prev.root = prev.norm;
      prev.post = t.post;
      prev.tags = new Set(["Noun", ...(t.tags.has("Plural") ? ["Plural"] : [])]);
      delete prev.amb;
      continue;
    }
    out.push({ ...t, tags: new Set(t.tags) });
  }
  return out;
}

function asVerb(t: Tok): void {
  for (const tag of ["Noun", "Singular", "Plural", "Adjective", "ProperNoun"]) t.tags.delete(tag);
  t.tags.add("Verb");
  t.tags.add("Infinitive");
}
function asNoun(t: Tok): void {
  const wasThirdPerson = t.tags.has("PresentTense") && !t.tags.has("Infinitive") && /s$/.test(t.norm);
  for (const tag of ["Verb", "Infinitive", "PresentTense", "PastTense"]) t.tags.delete(tag);
  t.tags.add("Noun");
  if (wasThirdPerson || (/[^s]s$/.test(t.norm) && t.root !== t.norm)) t.tags.add("Plural");
}

/** The word can be a verb: tagged so, noted as ambiguous, a decision verb, or a verb in the lexicon. */
function verbCapable(t: Tok | undefined): boolean {
  if (!t || PREPS.has(t.norm) || DETERMINERS.has(t.norm) || PRONOUNS.has(t.norm) || isConj(t) || isModal(t) || NEVER_NOUNISH.has(t.norm)) return false;
  if (isVerb(t) || /Verb/.test(t.amb ?? "") || DECISION_VERBS.has(t.norm) || LIGHT_VERBS.has(t.norm)) return true;
  const lex = lexicon()[t.norm];
  return typeof lex === "string" && /Infinitive|PresentTense|PastTense|Gerund|Verb/.test(lex);
}

/** Repairs the tagger's usual slips on technical questions, using its own tags as context. */
function repairTags(toks: Tok[]): void {
  // "or switch to websockets", "we store sessions", "need to": a verb the tagger read as a noun, where a verb must be.
  for (let i = 1; i < toks.length; i++) {
    const t = toks[i];
    const prev = toks[i - 1];
    const next = toks[i + 1];
    if (isVerb(t) || !(DECISION_VERBS.has(t.norm) || LIGHT_VERBS.has(t.norm) || /Verb/.test(t.amb ?? ""))) continue;
    const verbSlot = ["or", "to", "and", "we", "i", "you", "they", "just", "simply", "rather", "still"].includes(prev.norm) || isModal(prev);
    const objectFollows = !!next && (DETERMINERS.has(next.norm) || isPrep(next) || next.tags.has("Possessive") || isNounish(next) || next.norm === "to");
    if (verbSlot && objectFollows && !endsClause(t) && !(prev.norm === "to" && !isVerbish(toks[i - 2]))) asVerb(t);
  }
  // "thinking of moving our CI …": an -ing word opening the sentence or following "of"/"about", and taking an
  // object, is a gerund even when the tagger called it a noun or adjective.
  for (let i = 0; i < toks.length - 1; i++) {
    const t = toks[i];
    const next = toks[i + 1];
    if (isVerb(t) || !/^[a-z]{3,}ing$/.test(t.norm) || !(i === 0 || ["of", "about", "on", "into"].includes(toks[i - 1].norm))) continue;
    if (!(DETERMINERS.has(next.norm) || next.tags.has("Possessive") || ["of", "about", "to", "onto", "into"].includes(next.norm))) continue;
    t.tags.delete("Noun");
    t.tags.delete("Adjective");
    t.tags.delete("Singular");
    t.tags.add("Verb");
    t.tags.add("Gerund");
    const inf = (nlp()(t.norm).verbs().toInfinitive().text() as string).toLowerCase();
    const stem = t.norm.replace(/ing$/, "");
    const lex = lexicon();
    const guess = [stem, `${stem}e`, stem.replace(/([b-df-hj-np-tv-z])\1$/, "$1")].find((c) => typeof lex[c] === "string") ?? stem;
    t.root = inf && inf !== t.norm ? inf : guess;
  }
  for (let i = 1; i < toks.length; i++) {
    const t = toks[i];
    const prev = toks[i - 1];
    // "should names use dashes or underscores": after "or", a conjugated verb form is a plural noun.
    if (["or", "vs", "versus", "and", "nor"].includes(prev.norm) && isVerb(t) && t.tags.has("PresentTense") && !t.tags.has("Infinitive") && /s$/.test(t.norm)) asNoun(t);
    // "be parsed with …": after "be", a word in -ed is the participle.
    if (isCopula(prev) && !isVerb(t) && /[a-z]ed$/.test(t.norm) && t.tags.has("Noun")) {
      t.tags.delete("Noun");
      t.tags.delete("Singular");
      t.tags.add("Verb");
      t.tags.add("PastTense");
      t.tags.add("Participle");
    }
  }
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    const prev = toks[i - 1];
    const next = toks[i + 1];
    if (!isVerb(t) || t.tags.has("Gerund")) continue;
    // "the backend", "our build", "a search index": a verb right after a determiner or a modifier is a noun.
    const afterDet = prev && (DETERMINERS.has(prev.norm) || prev.tags.has("Possessive") || (prev.tags.has("Adjective") && !prev.tags.has("Verb") && !NEVER_NOUNISH.has(prev.norm)));
    // "should retries be configured": after a modal, a conjugated (non-infinitive) verb followed by a verb is a noun.
    // "should retries be …", "should embeddings for …": a modal is followed by an infinitive or a subject, never a conjugated verb.
    const subjectAfterModal = prev && isModal(prev) && !t.tags.has("Infinitive") && !t.tags.has("Gerund") && !t.tags.has("PastTense");
    // "with JSpecify", "for Vite": right after a preposition, a noun.
    const afterPrep = prev && isPrep(prev) && prev.norm !== "to" && !t.tags.has("Gerund");
    // "the Flask backend with", "gRPC for service-to-service calls": a verb ending a noun phrase that began with a determiner.
    let k = i - 1;
    while (k >= 0 && toks[k].tags.has("Noun") && !toks[k].tags.has("Pronoun") && !isVerb(toks[k])) k--;
    // "use default exports for …": a modifier then an -s verb form, right after a decision verb, is its object.
    const objectOfDecision = k >= 0 && k === i - 2 && isVerb(toks[k]) && DECISION_VERBS.has(toks[k].norm) && t.tags.has("PresentTense") && /[^s]s$/.test(t.norm);
    const inNounPhrase = k < i - 1 && (k < 0 || DETERMINERS.has(toks[k].norm) || isPrep(toks[k]) || toks[k].tags.has("Possessive") || objectOfDecision);
    const nounEnd = !next || endsClause(t) || isPrep(next) || isConj(next) || (isVerb(next) && (next.tags.has("PastTense") || next.tags.has("Participle")));
    const nounCompound = prev && inNounPhrase && nounEnd && (!t.tags.has("Infinitive") || /Noun/.test(t.amb ?? "") || !(t.norm in lexicon()));
    if (afterDet || subjectAfterModal || afterPrep || nounCompound) asNoun(t);
  }
}

/** Words after which "to" marks an infinitive ("need to", "time to", "able to", "whether to"). */
function isVerbish(t: Tok | undefined): boolean {
  return !!t && (isVerb(t) || LIGHT_VERBS.has(t.norm) || isCopula(t) || (t.tags.has("Adjective") && !t.tags.has("Noun")) || ["whether", "how", "what", "where", "when"].includes(t.norm));
}

function tokenize(text: string): Tok[][] {
  const doc = nlp()(text);
  doc.compute("root");
  const sentences = (doc.json({ terms: { normal: true } }) as { terms: RawTerm[] }[]).map((s) =>
    // "RabbitMQ's" may come back as "RabbitMQ's" plus an implied "is": the possessive stays one token.
    s.terms
      .filter((t, k, all) => {
        if (t.text.trim()) return true;
        if (k > 0) all[k - 1].post = t.post ?? all[k - 1].post;
        return false;
      })
      .map((t) => {
      const norm = (t.normal ?? t.text.toLowerCase()).replace(/[?!.,;:]+$/, "");
      const tags = new Set(t.tags ?? []);
      if (/['’]s$/.test(t.text)) {
        tags.add("Possessive");
        tags.delete("Verb");
      }
      return { text: t.text, norm, root: t.root ?? norm, tags, pre: t.pre ?? "", post: t.post ?? "", ...(t.switch ? { amb: t.switch } : {}) } as Tok;
    }),
  );
  // "numbers like '1. Context'": a sentence split after a list number or inside quotes is not a sentence end.
  const joined: Tok[][] = [];
  for (const s of sentences) {
    const prev = joined[joined.length - 1];
    const last = prev?.[prev.length - 1];
    if (prev && last && (/^\d+$/.test(last.norm) || /['"‘“]/.test(last.pre) || !/[A-Z"'‘“(]/.test(s[0]?.text[0] ?? "A"))) prev.push(...s);
    else joined.push([...s]);
  }
  return joined.map((s) => {
    const toks = mergeHyphens(s);
    repairTags(toks);
    return toks;
  });
}

// ---------------------------------------------------------------------------------------------------------
// Spans and phrases

interface Span {
  start: number;
  /** Exclusive. */
  end: number;
}

function spanText(toks: Tok[], span: Span, opts: { dropDeterminer?: boolean } = {}): string {
  const s = { start: Math.max(0, span.start), end: Math.min(span.end, toks.length) };
  if (s.start >= s.end) return "";
  let start = s.start;
  if (opts.dropDeterminer) while (start < s.end - 1 && DETERMINERS.has(toks[start].norm) && !toks[start].tags.has("Possessive")) start++;
  // Quotation marks around words are dropped from titles (an apostrophe inside a word stays: "RabbitMQ's").
  const unquote = (x: string) => x.replace(/["'‘’“”`]/g, "");
  let out = "";
  for (let i = start; i < s.end; i++) {
    const t = toks[i];
    const pre = i === start ? "" : unquote(t.pre);
    const post = i === s.end - 1 ? "" : unquote(t.post) || (/^\S/.test(toks[i + 1]?.pre ?? "") ? "" : " ");
    out += `${pre}${t.text.replace(/^["'‘“`]+|["'’”`]+$/g, "")}${post}`;
  }
  return out.replace(/\s+/g, " ").trim().replace(/[,;:?!]+$/, "");
}

/** End (exclusive) of the noun phrase starting at i: determiners, modifiers, nouns, "of" continuations, examples. */
function nounPhraseEnd(toks: Tok[], i: number, limit = toks.length, opts: { examples?: boolean; and?: boolean } = {}): number {
  limit = Math.min(limit, toks.length);
  let j = i;
  let sawNoun = false;
  while (j < limit) {
    const t = toks[j];
    if (sawNoun && !endsClause(toks[j - 1]) && j + 1 < limit) {
      // "database of its own", "numbers like '1. Context'", "cookies and query parameters".
      const ofJoin = t.norm === "of" && isNounish(toks[j + 1]) && !RELATIONAL.has(toks[j - 1].norm);
      const example = opts.examples !== false && (t.norm === "like" || (t.norm === "such" && toks[j + 1].norm === "as") || t.norm === "including");
      const andJoin = opts.and && t.norm === "and" && isNounish(toks[j + 1]) && (!isVerb(toks[j + 1]) || toks[j + 1].tags.has("Gerund"));
      if (ofJoin || andJoin) {
        j++;
        continue;
      }
      if (example) {
        j += t.norm === "such" ? 2 : 1;
        // An example list runs to the clause end: "like breaking-change, bugfix and feature".
        while (j < limit && (isNounish(toks[j]) || (toks[j].norm === "and" || toks[j].norm === "or") && j + 1 < limit && isNounish(toks[j + 1]) && /,/.test(toks[j - 1].post) === false)) {
          if (/[;?!.]/.test(toks[j].post)) return j + 1;
          j++;
        }
        return j;
      }
    }
    if (!isNounish(t)) break;
    // "Picocli a better fit": a determiner after a noun starts another phrase.
    if (sawNoun && DETERMINERS.has(t.norm) && !t.tags.has("Possessive")) break;
    sawNoun = true;
    j++;
    if (endsClause(t)) break;
  }
  return j;
}

/** Start of the noun phrase that ends just before `end`: walks back over modifiers, stopping at a list comma. */
function nounPhraseStart(toks: Tok[], end: number, floor = 0): number {
  let j = end;
  while (j - 1 >= floor) {
    const t = toks[j - 1];
    if (!isNounish(t)) {
      // "database of its own", "numbers like '1. Context'": a joining word between two noun parts.
      if ((t.norm === "of" || t.norm === "like") && j - 2 >= floor && isNounish(toks[j - 2]) && !RELATIONAL.has(toks[j - 2].norm) && !endsClause(toks[j - 2])) {
        j--;
        continue;
      }
      break;
    }
    if (j < end && endsClause(t)) break;
    j--;
    if (DETERMINERS.has(t.norm)) break;
  }
  return j;
}

/** "sharing the production database", "storing uploads": a gerund followed by its object acts as a verb. */
function gerundTakesObject(toks: Tok[], i: number, end: number): boolean {
  const next = toks[i + 1];
  const prev = toks[i - 1];
  if (prev && (DETERMINERS.has(prev.norm) || prev.tags.has("Possessive") || (prev.tags.has("Adjective") && !prev.tags.has("Verb")))) return false;
  return i + 1 < end && !endsClause(toks[i]) && (DETERMINERS.has(next.norm) || next.tags.has("Possessive") || isPrep(next) || (isNounish(next) && !next.tags.has("Adjective") && toks[i].root !== toks[i].norm));
}

interface NounPhrase {
  span: Span;
  prep?: string;
  relational: boolean;
  afterVerb?: string;
}

/** The noun phrases inside a span, with the preposition (if any) that governs each. */
function nounPhrases(toks: Tok[], span: Span): NounPhrase[] {
  const s = { start: Math.max(0, span.start), end: Math.min(span.end, toks.length) };
  const out: NounPhrase[] = [];
  let prep: string | undefined;
  let verb: string | undefined;
  let relational = false;
  for (let i = s.start; i < s.end; ) {
    const t = toks[i];
    if (isPrep(t) && t.norm !== "like") {
      prep = t.norm;
      if (RELATIONAL.has(toks[i - 1]?.norm ?? "") || ["alongside", "besides", "beside", "than"].includes(t.norm)) relational = true;
      i++;
      continue;
    }
    if (isVerb(t) && (!t.tags.has("Gerund") || gerundTakesObject(toks, i, s.end))) {
      verb = t.root;
      prep = undefined;
      relational = false;
      i++;
      continue;
    }
    if (isNounish(t) && !RELATIONAL.has(t.norm)) {
      const end = Math.max(i + 1, nounPhraseEnd(toks, i, s.end, { examples: false }));
      if (RELATIONAL.has(toks[end - 1]?.norm ?? "")) {
        relational = true;
        i = end;
        continue;
      }
      if (toks.slice(i, end).some((x) => x.tags.has("Noun") || x.tags.has("Acronym") || isNameLike(x) || x.tags.has("Gerund"))) out.push({ span: { start: i, end }, prep, afterVerb: verb, relational });
      i = end;
      prep = undefined;
      relational = false;
      continue;
    }
    i++;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// Matching terms

const OWN_SYNONYMS = ["own", "separate", "dedicated", "isolated", "independent"];
/** Aliases that name the same technology. */
const ALIASES: readonly string[][] = [
  ...TECH_ALIASES,
  ["websocket", "websockets", "web socket", "web sockets"],
  ["go", "golang"],
];
/** Acronyms every codebase uses: never enough to find an option by themselves. */
const GENERIC_ACRONYMS = new Set(["api", "apis", "ui", "cli", "http", "https", "rest", "json", "sql", "url", "urls", "id", "ids", "db", "io", "os", "ci", "cd", "sdk", "jvm", "vm", "app", "aws", "gcp"]);
/** Heads too generic to find an option by themselves. */
const GENERIC_HEADS = new Set(["approach", "way", "thing", "option", "solution", "setup", "one", "system", "mechanism", "strategy", "pattern", "method", "style", "model", "policy", "process", "it", "them", "that", "this", "one", "ones", "own"]);
/** Heads that stand for what follows "of": "a copy of X", "a set of X", "the number of X". */
const PARTITIVES = new Set(["copy", "set", "kind", "type", "number", "list", "part", "piece", "lot", "bunch", "subset", "version", "instance", "use", "usage", "form"]);
/** Nouns that stand for their complement: "support for X", "use of X", "dependency on X". */
const GENERIC_OBJECTS = new Set(["support", "use", "usage", "dependency", "reliance", "integration", "adoption", "version", "copy", "instance", "fork"]);

function singularPlural(phrase: string): string[] {
  const words = phrase.split(" ");
  const last = words[words.length - 1];
  if (!/^[a-z][a-z-]*$/.test(last) || last.length < 3) return [];
  const sing = (nlp()(last).nouns().toSingular().text() as string).toLowerCase();
  const plur = (nlp()(last).nouns().toPlural().text() as string).toLowerCase();
  const out: string[] = [];
  for (const v of [sing, plur]) if (v && v !== last && /^[a-z-]+$/.test(v)) out.push([...words.slice(0, -1), v].join(" "));
  return out;
}

/** Terms for one noun phrase: the phrase, its spaced/hyphenated/joined and singular/plural forms, a name head, names in it. */
function termsForPhrase(toks: Tok[], s: Span): string[] {
  const all = toks.slice(s.start, s.end).filter((t) => !DETERMINERS.has(t.norm) && !t.tags.has("Possessive") && !PRONOUNS.has(t.norm));
  // "a container like Guice": the head phrase and each example are found separately.
  const cut = all.findIndex((t) => ["like", "including", "such", "as", "and", "or"].includes(t.norm));
  let words = (cut >= 0 ? all.slice(0, cut) : all).filter((t) => !isAdverb(t));
  // "a copy of production data": the complement of a partitive head is the thing.
  const ofAt = words.findIndex((t) => t.norm === "of");
  if (ofAt > 0 && PARTITIVES.has(words[ofAt - 1].root) && ofAt + 1 < words.length) words = words.slice(ofAt + 1);
  const ofPhrase = words.some((t) => t.norm === "of") ? words.map((t) => t.norm).join(" ") : undefined;
  words = words.filter((t) => t.norm !== "of");
  const examples = cut >= 0 ? all.slice(cut).filter((t) => isNounish(t) && isNameLike(t)) : [];
  const own = words.some((t) => t.norm === "own");
  const core = words.filter((t) => t.norm !== "own");
  const out = new Set<string>();
  if (core.length && !(core.length === 1 && (GENERIC_HEADS.has(core[0].root) || GENERIC_OBJECTS.has(core[0].root)))) {
    const lower = core.map((t) => t.norm);
    const phrase = lower.join(" ");
    out.add(phrase);
    if (core.length > 1) {
      out.add(lower.join("-"));
      out.add(lower.join(""));
      // "Varnish layer" is found by "Varnish"; "browser cache" is not found by "browser".
      if (isNameLike(core[0]) && !GENERIC_ACRONYMS.has(core[0].norm)) out.add(core[0].norm);
    }
    const last = core[core.length - 1];
    const variants = isNameLike(last) || !isKnownWord(last) ? [] : singularPlural(phrase);
    for (const v of variants) out.add(v);
    if (own) {
      // "a database of its own": "own database", "separate database", … — never the bare head noun.
      out.clear();
      out.add(`${phrase} of its own`);
      for (const syn of OWN_SYNONYMS) for (const p of [phrase, ...variants]) out.add(`${syn} ${p}`);
    }
    if (ofPhrase && !own) out.add(ofPhrase);
    // A name inside a longer phrase finds it too: "the DAPS identity module" → "daps".
    // "React Native" is one name: its later English words are not names of their own (its first word still finds it).
    const oneName = core.every((t) => /^[A-Z]/.test(t.text) && !t.tags.has("Acronym"));
    for (const t of core.slice(1)) {
      if (!isNameLike(t) || t.norm.length <= 2 || GENERIC_ACRONYMS.has(t.norm)) continue;
      // Within one name, only a word that is no English word ("Pekko" in "Apache Pekko", not "Native").
      if (oneName && (t.norm in lexicon() || t.root in lexicon())) continue;
      out.add(t.norm);
    }
  }
  for (const t of examples) out.add(t.norm);
  for (const group of ALIASES) if (group.some((g) => out.has(g))) group.forEach((g) => out.add(g));
  return [...out].filter((t) => t.length > 1);
}

/**
 * The terms of a verb-phrase alternative: its main noun phrase (where or with what something is done, else the
 * object), plus any other name in it. Objects of relational prepositions ("in front of the API") and purposes
 * ("for nightly reports") are context, not the alternative.
 */
function termsForVerbPhrase(toks: Tok[], s: Span): { terms: string[]; subject: string } {
  const replacing = toks.slice(s.start, s.end).some((t) => isVerb(t) && REPLACE_VERBS.has(t.root));
  const nps = nounPhrases(toks, s).filter(
    (np) => !np.relational && !(np.prep && PURPOSE.has(np.prep) && !(replacing && np.prep === "for")) && !toks.slice(np.span.start, np.span.end).every((t) => PRONOUNS.has(t.norm) || DETERMINERS.has(t.norm)),
  );
  if (!nps.length) {
    // "stay optional", "publish only when we cut a release": the words themselves.
    const words = toks.slice(s.start, s.end).filter((t) => !isVerb(t) && !isModal(t) && !isCopula(t) && !DETERMINERS.has(t.norm) && !PRONOUNS.has(t.norm) && !isPrep(t) && !isConj(t) && !SUBORDINATORS.has(t.norm));
    const main = toks.slice(s.start, s.end).find((t) => isVerb(t));
    const terms = words.filter((t) => t.norm.length > 2 && !NEVER_NOUNISH.has(t.norm)).map((t) => t.norm);
    return { terms: terms.length ? terms : main ? [main.root] : [], subject: words.map((t) => t.text).join(" ") };
  }
  const verbTok = toks.slice(s.start, s.end).find((t) => isVerb(t) || isCopula(t));
  const verb = verbTok ? infinitive(verbTok) : "";
  const placement = PLACEMENT_VERBS.has(verb) || MOVE_VERBS.has(verb) || nps.some((np) => np.afterVerb && (PLACEMENT_VERBS.has(np.afterVerb) || MOVE_VERBS.has(np.afterVerb)));
  const places = placement ? [...LOCATIVE, "into", "onto", "to"] : LOCATIVE;
  const named = (np: NounPhrase) => toks.slice(np.span.start, np.span.end).some(isNameLike);
  let primary: NounPhrase;
  let pool = nps;
  if (REPLACE_VERBS.has(verb)) {
    // "swap Akka for Apache Pekko": the newcomer is the alternative, the replaced thing is context.
    const newcomer = nps.find((np) => np.prep && ["with", "by", "for"].includes(np.prep));
    pool = newcomer ? nps.filter((np) => np === newcomer || np.prep) : nps;
    primary = newcomer ?? nps[0];
  } else if (LINKING_VERBS.has(verb) || verb === "be") {
    // "become an ordinary object", "stay an Akka actor": the complement.
    primary = nps[0];
  } else {
    const locative = (np: NounPhrase) => !!np.prep && places.includes(np.prep) && !isGerundOnly(toks, np.span);
    primary =
      nps.find((np) => named(np) && locative(np)) ??
      nps.find((np) => named(np) && !np.prep) ??
      nps.find((np) => named(np)) ??
      nps.find(locative) ??
      nps.find((np) => !isGerundOnly(toks, np.span) && !isVagueOnly(toks, np.span)) ??
      nps[0];
  }
  const chosen = [primary, ...pool.filter((np) => np !== primary && named(np))];
  const terms = new Set<string>();
  for (const np of chosen) for (const t of np.prep === "per" ? perTerms(toks, np.span) : termsForPhrase(toks, np.span)) terms.add(t);
  for (const t of toks.slice(s.start, s.end)) {
    // "locally with a Java library", "always appended": a manner adverb sets the alternative apart; so does a
    // predicate adjective ("be given bare", "keep infrastructure external", "stay optional").
    if (isAdverb(t) && /ly$/.test(t.norm) && t.norm.length > 4) terms.add(t.norm);
  }
  for (let k = s.start; k < s.end; k++) {
    const t = toks[k];
    const next = toks[k + 1];
    if (t.tags.has("Adjective") && !t.tags.has("Noun") && (k + 1 >= s.end || !isNounish(next)) && t.norm.length > 2 && !NEVER_NOUNISH.has(t.norm) && !RELATIONAL.has(t.norm) && !isPrep(next ?? t)) terms.add(t.norm);
  }
  return { terms: [...terms], subject: spanText(toks, primary.span, { dropDeterminer: true }) };
}

function isVagueOnly(toks: Tok[], s: Span): boolean {
  return toks.slice(s.start, s.end).every((t) => DETERMINERS.has(t.norm) || GENERIC_HEADS.has(t.root) || GENERIC_OBJECTS.has(t.root));
}

function isGerundOnly(toks: Tok[], s: Span): boolean {
  return toks.slice(s.start, s.end).every((t) => t.tags.has("Gerund") || DETERMINERS.has(t.norm));
}

/** "per query", "per user": a lone common noun after "per" is found with it. */
function perTerms(toks: Tok[], s: Span): string[] {
  const words = toks.slice(s.start, s.end).filter((t) => !DETERMINERS.has(t.norm));
  if (words.length !== 1 || isNameLike(words[0])) return termsForPhrase(toks, s);
  return [words[0].norm, ...singularPlural(words[0].norm)].flatMap((w) => [`per ${w}`, `per-${w}`]);
}

// ---------------------------------------------------------------------------------------------------------
// Verbs and titles

function capitalise(s: string): string {
  return s.length ? s[0].toUpperCase() + s.slice(1) : s;
}

function infinitive(t: Tok): string {
  if (isCopula(t)) return "be";
  if (t.root !== t.norm || t.tags.has("Infinitive")) return t.root;
  const inf = (nlp()(t.norm).verbs().toInfinitive().text() as string).toLowerCase();
  if (inf && inf !== t.norm) return inf;
  // A participle the tagger did not know as one ("parsed"): the lexicon's verb among the regular stems.
  if (/ed$/.test(t.norm)) {
    const lex = lexicon();
    const candidates = [t.norm.replace(/ied$/, "y"), t.norm.slice(0, -1), t.norm.slice(0, -2), t.norm.replace(/([b-df-hj-np-tv-z])\1ed$/, "$1")];
    const known = candidates.find((c) => typeof lex[c] === "string" && /Infinitive|Verb|PresentTense/.test(lex[c] as string));
    return known ?? (/[^aeiou][^aeiouy]ed$/.test(t.norm) && !/(?:ss|[^s]s)ed$/.test(t.norm) ? t.norm.slice(0, -2) : t.norm.slice(0, -1));
  }
  return inf || t.norm;
}

/** Third person of a verb for a singular or plural subject: "stays", "carries", "is", "live". */
function thirdPerson(verb: string, plural: boolean): string {
  if (verb === "be") return plural ? "are" : "is";
  if (plural) return verb;
  if (verb === "have") return "has";
  const conj = (nlp()(verb).verbs().conjugate() as { PresentTense?: string }[])[0]?.PresentTense;
  if (conj && !/\s/.test(conj)) return conj;
  if (/(?:s|x|z|ch|sh|o)$/.test(verb)) return `${verb}es`;
  if (/[^aeiou]y$/.test(verb)) return `${verb.slice(0, -1)}ies`;
  return `${verb}s`;
}

function gerund(verb: string): string {
  const g = (nlp()(verb).verbs().toGerund().text() as string).replace(/^(?:is|are|am)\s+/, "");
  return g && !/\s/.test(g) ? g : `${verb}ing`;
}

function isPlural(toks: Tok[], s: Span): boolean {
  const words = toks.slice(s.start, s.end);
  // The head is the last noun before any preposition or example: "headings in the template" is plural, "ADR
  // metadata such as status and date" is not; "the processor and the metamodel" is.
  let head: Tok | undefined;
  for (const t of words) {
    if (isPrep(t) || t.norm === "such" || t.norm === "like") break;
    if (t.norm === "and") return true;
    if (isNounish(t)) head = t;
  }
  return !!head && (head.tags.has("Plural") || ["we", "they", "those", "these"].includes(head.norm));
}

function isPersonal(toks: Tok[], s?: Span): boolean {
  return !s || toks.slice(s.start, s.end).every((t) => PERSONAL.has(t.norm) || DETERMINERS.has(t.norm) || isAdverb(t));
}
function isPronounSubject(toks: Tok[], s?: Span): boolean {
  return !!s && toks.slice(s.start, s.end).every((t) => PRONOUNS.has(t.norm) || (DETERMINERS.has(t.norm) && s.end - s.start > 1 && ["those", "these", "this", "that"].includes(toks[s.start].norm)));
}

/** Imperative form of a verb phrase: "moving our ETL scripts onto Airflow" → "Move our ETL scripts onto Airflow". */
function imperative(toks: Tok[], s: Span): string {
  let i = s.start;
  const lead: string[] = [];
  while (i < s.end - 1 && isAdverb(toks[i])) lead.push(toks[i++].text.toLowerCase());
  const first = toks[i];
  const rest = spanText(toks, { start: i + 1, end: s.end });
  const verb = isVerb(first) || isCopula(first) ? infinitive(first) : first.text;
  return capitalise([...lead, verb, rest].filter(Boolean).join(" "));
}

interface Clause {
  /** Index of the first token of the main verb phrase (after modal, subject, "to"), or -1. */
  verb: number;
  /** The subject span, when there is one before the verb. */
  subject?: Span;
  /** "should retries be configured": the subject is the verb's object; `verb` is the participle. */
  passive: boolean;
  /** "should the patch number stay optional", "be a service": a linking verb with a complement. */
  linking: boolean;
  /** Index of the copula of a passive or linking clause ("be" in "be appended"), else -1. */
  copula: number;
  /** "is it time to X", "would it be better to X": the subject is a placeholder, not the actor. */
  expletive?: boolean;
}

const NO_CLAUSE: Clause = { verb: -1, passive: false, linking: false, copula: -1 };

/**
 * The main verb of the clause tokens [from, to): after a fronted phrase ("For release notes, should …"), the
 * modal and the subject; "is it time to X", "do we need to X" read X.
 */
function mainVerb(toks: Tok[], from: number, to: number): Clause {
  // A fronted adverbial ending in a comma before the modal: "For wiring services into views, should we …".
  const firstModal = toks.findIndex((t, k) => k >= from && k < to && isModal(t) && k > from);
  if (firstModal > from) for (let k = firstModal - 1; k >= from; k--) if (/,/.test(toks[k].post)) {
    from = k + 1;
    break;
  }
  let i = from;
  while (i < to && (WH.has(toks[i].norm) || isAdverb(toks[i]) || isConj(toks[i]))) i++;
  let sawAux = false;
  let copulaLed = false;
  while (i < to && (isModal(toks[i]) || (isCopula(toks[i]) && !sawAux))) {
    if (isCopula(toks[i])) copulaLed = true;
    sawAux = true;
    i++;
  }
  const subjStart = i;
  const resolved = sawAux && !copulaLed ? verbAfterSubject(toks, subjStart, to) : -1;
  if (resolved >= 0) {
    for (let k = subjStart; k < resolved; k++) if (isVerb(toks[k]) && !toks[k].tags.has("Gerund") && !PRONOUNS.has(toks[k].norm)) asNoun(toks[k]);
    if (!isVerb(toks[resolved]) && !isCopula(toks[resolved])) asVerb(toks[resolved]);
    i = resolved;
  } else {
    while (i < to && !isVerb(toks[i]) && !isCopula(toks[i])) {
      if ((isPrep(toks[i]) && toks[i].norm === "to") || (toks[i].norm === "that" && i > subjStart)) break;
      i++;
    }
  }
  // "should the web UI talk to the API": no verb found, but the subject's last word can be one.
  if (sawAux && (i >= to || isPrep(toks[i])) && i - 1 > subjStart && /Verb/.test(toks[i - 1].amb ?? "")) {
    i--;
    asVerb(toks[i]);
  }
  const subject = i > subjStart ? { start: subjStart, end: i } : undefined;
  if (i >= to) return { ...NO_CLAUSE, subject };
  // "is it time to X", "would it be better to X", "do we need to X": the infinitive carries the proposal.
  if (copulaLed || (isVerb(toks[i]) && LIGHT_VERBS.has(toks[i].root))) {
    for (let k = i; k < to - 1; k++) {
      if (toks[k].norm === "to" && (isVerb(toks[k + 1]) || DECISION_VERBS.has(toks[k + 1].norm))) {
        if (!isVerb(toks[k + 1])) asVerb(toks[k + 1]);
        return skipLight(toks, k + 1, to, { ...NO_CLAUSE, verb: k + 1, subject, ...(copulaLed ? { expletive: true } : {}) });
      }
      if (isVerb(toks[k]) && !LIGHT_VERBS.has(toks[k].root) && k > i) break;
    }
  }
  // "retries be configured", "the patch number always be appended": passive; "be a separate service": linking.
  let j = i;
  while (j < to && isAdverb(toks[j])) j++;
  if (j < to && isCopula(toks[j])) {
    let k = j + 1;
    while (k < to && isAdverb(toks[k])) k++;
    if (k < to && isVerb(toks[k]) && (toks[k].tags.has("PastTense") || toks[k].tags.has("Participle"))) return { verb: k, subject, passive: true, linking: false, copula: j };
    return { verb: j, subject, passive: false, linking: true, copula: j };
  }
  if (!isVerb(toks[i])) return { ...NO_CLAUSE, subject };
  const c = skipLight(toks, i, to, { ...NO_CLAUSE, verb: i, subject });
  if (LINKING_VERBS.has(toks[c.verb].root) && c.verb + 1 < to && !isVerb(toks[c.verb + 1]) && !isPrep(toks[c.verb + 1]) && !(toks[c.verb].root === "get" && c.verb + 1 < to && isNounish(toks[c.verb + 1]))) {
    return { ...c, linking: true };
  }
  return c;
}

/**
 * After a modal, the subject comes first and then the verb; the tagger often gets noun-verb pairs wrong in
 * technical text ("should mail search stay on …", "should the static asset build use webpack", "should Glue jobs
 * connect …"). The verb is the word that can be one, follows at least one subject word, and is followed by what a
 * verb takes (a determiner, preposition, adverb, adjective, pronoun, a name for a decision verb, or the end),
 * with no later verb candidate before the phrase boundary.
 */
function verbAfterSubject(toks: Tok[], from: number, to: number): number {
  if (from >= to) return -1;
  if (PRONOUNS.has(toks[from].norm) || PERSONAL.has(toks[from].norm)) {
    for (let p = from + 1; p < to; p++) if (verbCapable(toks[p]) || isCopula(toks[p])) return p;
    return -1;
  }
  for (let p = from + 1; p < to; p++) {
    const t = toks[p];
    const prev = toks[p - 1];
    if (isCopula(t)) return p;
    // After a modal comes an infinitive: "sourcing" in "the event sourcing modules" is a modifier.
    if (!verbCapable(t) || t.tags.has("Gerund") || (t.tags.has("PresentTense") && !t.tags.has("Infinitive") && /s$/.test(t.norm) && !DECISION_VERBS.has(t.norm))) continue;
    if (DETERMINERS.has(prev.norm) || (isPrep(prev) && prev.norm !== "to") || (prev.tags.has("Adjective") && !prev.tags.has("Noun") && !isVerb(prev))) continue;
    const next = toks[p + 1];
    const objectLike =
      !next || endsClause(t) || isConj(next) || DETERMINERS.has(next.norm) || (isPrep(next) && next.norm !== "of") || isAdverb(next) || (next.tags.has("Adjective") && !next.tags.has("Noun")) || PRONOUNS.has(next.norm) || next.tags.has("Possessive") || next.tags.has("Gerund") || next.norm === "to";
    if (objectLike) return p;
    // A noun follows: the verb's object ("carry numbers", "use webpack"), unless the next word is the verb ("mail search stay").
    if (!verbCapable(next) || isNameLike(next) || (next.tags.has("Plural") && !verbCapable(toks[p + 2]))) return p;
  }
  return -1;
}

/** "consider moving X", "start using X", "need to publish X": the second verb is the proposal. */
function skipLight(toks: Tok[], i: number, to: number, c: Clause): Clause {
  let v = i;
  // "thinking of moving …", "wondering about switching …" too.
  const joiner = (t: Tok | undefined) => !!t && ["to", "of", "about"].includes(t.norm);
  while (v + 1 < to && LIGHT_VERBS.has(toks[v].root) && (isVerb(toks[v + 1]) || (joiner(toks[v + 1]) && v + 2 < to && isVerb(toks[v + 2])))) {
    v += joiner(toks[v + 1]) ? 2 : 1;
  }
  return { ...c, verb: v };
}

/**
 * Title of a verb-phrase alternative starting at s.start. Personal subjects ("should we …") give an imperative;
 * a passive gives an imperative on its subject ("Write rules in a declarative language"); another subject gives a
 * statement when it is the alternative's own or the verb takes no object ("The CLI talks to the webadmin REST API").
 */
function clauseTitle(toks: Tok[], s: Span, clause: Clause | undefined, sharedSubject: boolean): string {
  const subj = clause?.subject;
  const v = toks[s.start];
  if (!clause || !subj || clause.expletive || isPersonal(toks, subj) || isPronounSubject(toks, subj)) {
    if (clause?.passive && clause.verb >= s.start && subj && !isPersonal(toks, subj)) return passiveImperative(toks, s, clause, subj);
    return imperative(toks, s);
  }
  if (clause.passive && clause.verb >= s.start) return passiveImperative(toks, s, clause, subj);
  // "should staging get a database of its own" → "Give staging a database of its own".
  if (isVerb(v) && RECEIVE_VERBS.has(v.root) && s.end > s.start + 1 && isNounish(toks[s.start + 1])) {
    return capitalise(`give ${spanText(toks, subj, { dropDeterminer: true })} ${spanText(toks, { start: s.start + 1, end: s.end })}`);
  }
  // A subject the alternatives share reads best as an instruction ("Keep sharing the production database"), except
  // with a linking verb ("The patch number stays optional"); alternatives with subjects of their own are statements
  // ("A scheduled Lambda copies it into S3").
  if (sharedSubject && !clause.linking && !isCopula(v)) return imperative(toks, s);
  return statement(toks, s, subj);
}

function passiveImperative(toks: Tok[], s: Span, clause: Clause, subj: Span): string {
  const lead = toks.slice(s.start, clause.verb).filter((t) => isAdverb(t)).map((t) => t.text.toLowerCase());
  const rest = spanText(toks, { start: clause.verb + 1, end: s.end });
  const object = isPronounSubject(toks, subj) ? "" : spanText(toks, headOf(toks, subj));
  return capitalise([...lead, infinitive(toks[clause.verb]), object, rest].filter(Boolean).join(" "));
}

/** The subject without trailing prepositional phrases when it is long: "embeddings for questions over papers" → "embeddings". */
function headOf(toks: Tok[], s: Span): Span {
  if (s.end - s.start <= 3) return s;
  for (let i = s.start + 1; i < s.end; i++) if (isPrep(toks[i])) return { start: s.start, end: i };
  return s;
}

function statement(toks: Tok[], s: Span, subj: Span): string {
  let i = s.start;
  const lead: string[] = [];
  while (i < s.end - 1 && isAdverb(toks[i])) lead.push(toks[i++].text.toLowerCase());
  const v = toks[i];
  const verb = isVerb(v) || isCopula(v) ? thirdPerson(infinitive(v), isPlural(toks, subj)) : v.text;
  const rest = spanText(toks, { start: i + 1, end: s.end });
  return capitalise([spanText(toks, subj), ...lead, verb, rest].filter(Boolean).join(" "));
}

/** A noun alternative on its own: "Polling", "Tabs", but "pnpm" and "gRPC" as written. */
function bareTitle(toks: Tok[], s: Span): string {
  const text = spanText(toks, s, { dropDeterminer: true });
  let i = s.start;
  while (i < s.end - 1 && DETERMINERS.has(toks[i].norm)) i++;
  const first = toks[i];
  // "pnpm", "gRPC" and "vscode-elements" stay as written.
  return first && /^[a-z]+$/.test(first.text) && /[aeiouy]/.test(first.text) && !isNameLike(first) ? capitalise(text) : text;
}

/** "Keep the embedded in-memory engine": an indefinite article reads as the definite one after "Keep". */
function keepTitle(toks: Tok[], s: Span, verb = "Keep"): string {
  const first = toks[s.start];
  let text = ["a", "an"].includes(first?.norm ?? "") ? `the ${spanText(toks, { start: s.start + 1, end: s.end })}` : spanText(toks, s);
  if (first && DETERMINERS.has(first.norm)) text = text[0].toLowerCase() + text.slice(1);
  return `${verb} ${text}`;
}

// ---------------------------------------------------------------------------------------------------------
// Forms

function alt(title: string, subject: string, terms: string[], role: Alternative["role"], inverse = false): Alternative {
  const clean = title.replace(/[\s,]+(?:instead|anymore|then|or not)$/i, "").replace(/\s+for (?:that|this|it|them)$/i, "").trim();
  return { title: clean, subject, terms, role, ...(inverse ? { inverse: true } : {}) };
}

function nounAlternative(toks: Tok[], s: Span, role: Alternative["role"], title?: string): Alternative {
  const subject = spanText(toks, s, { dropDeterminer: true });
  return alt(title ?? subject, subject, termsForPhrase(toks, s), role);
}

/** A noun phrase from `start`, skipping leading adverbs, up to a purpose preposition or the clause end. */
function trimNoun(toks: Tok[], start: number, limit: number, opts: { examples?: boolean; and?: boolean } = {}): Span {
  let i = start;
  while (i < limit && isAdverb(toks[i])) i++;
  return { start: i, end: Math.min(toks.length, Math.max(i + 1, Math.min(limit, nounPhraseEnd(toks, i, limit, opts)))) };
}

/** End of a phrase that runs to the clause end, stopping before a purpose ("for …", "so that …", "if …"). */
function phraseEnd(toks: Tok[], start: number, limit: number): number {
  for (let j = start + 1; j < limit; j++) {
    if (/[;?!]/.test(toks[j - 1].post) || (/[.]/.test(toks[j - 1].post) && !/^\d+$/.test(toks[j - 1].norm))) return j;
    // "swap Akka for Pekko": after a replacing verb, "for" names the replacement, not a purpose.
    const swapping = toks[j].norm === "for" && toks.slice(start, j).some((t) => REPLACE_VERBS.has(t.root));
    if (["for", "because", "since", "given", "unless"].includes(toks[j].norm) && j > start + 1 && !swapping) return j;
  }
  return limit;
}

/** "move / migrate / switch (X) from A to B", "a migration from A to B", "replace A with B", "swap A for B". */
function readMigration(toks: Tok[]): Partial<QuestionStructure> | undefined {
  for (let v = 0; v < toks.length; v++) {
    const t = toks[v];
    if (REPLACE_VERBS.has(t.root) && (isVerb(t) || t.tags.has("Noun"))) {
      const a = trimNoun(toks, v + 1, toks.length);
      const w = a.end < toks.length && ["with", "by", "for"].includes(toks[a.end].norm) ? a.end : -1;
      if (w < 0 || a.end === a.start) continue;
      const b = trimNoun(toks, w + 1, toks.length);
      // "substitute B for A": the first object is the newcomer.
      const [oldS, newS] = t.root === "substitute" && toks[w].norm === "for" ? [b, a] : [a, b];
      const incumbent = nounAlternative(toks, oldS, "incumbent", keepTitle(toks, oldS));
      const target = nounAlternative(toks, newS, "target", capitalise(`${t.root} ${spanText(toks, { start: v + 1, end: b.end })}`));
      return { form: "migration", alternatives: [incumbent, target], incumbent, target };
    }
    if (!MOVE_VERBS.has(t.root) || !(isVerb(t) || t.tags.has("Noun"))) continue;
    let from = -1;
    for (let j = v + 1; j < toks.length && j <= v + 6; j++) {
      if (toks[j].norm === "from") {
        from = j;
        break;
      }
      if (isConj(toks[j]) || (isVerb(toks[j]) && !toks[j].tags.has("Gerund"))) break;
    }
    if (from < 0) continue;
    let to = -1;
    for (let j = from + 2; j < toks.length; j++) {
      if (["to", "onto", "into", "towards", "toward"].includes(toks[j].norm)) {
        to = j;
        break;
      }
      if (isVerb(toks[j]) && !toks[j].tags.has("Gerund") && !toks[j].tags.has("Noun")) break;
    }
    if (to < 0) continue;
    const a = { start: from + 1, end: to };
    const b = trimNoun(toks, to + 1, toks.length);
    if (b.end <= b.start) continue;
    const verb = isVerb(t) ? infinitive(t) : "move";
    const incumbent = nounAlternative(toks, a, "incumbent", keepTitle(toks, a));
    const target = nounAlternative(toks, b, "target", capitalise(`${verb === "migration" ? "migrate" : verb} ${toks[to].norm} ${spanText(toks, b)}`));
    return { form: "migration", alternatives: [incumbent, target], incumbent, target };
  }
  return undefined;
}

interface Connector {
  at: number;
  /** Tokens the connector spans ("instead of" is two). */
  width: number;
  kind: "or" | "instead" | "over" | "and" | "than";
  /** ", or": a comma before it makes it a top-level split. */
  comma: boolean;
}

function findConnectors(toks: Tok[]): { connectors: Connector[]; between: number } {
  const all: Connector[] = [];
  // "between A and B" is the choice only when no "or" comes before it ("a queue or direct calls between the billing
  // and invoicing services").
  const firstOr = toks.findIndex((t) => ["or", "vs", "versus"].includes(t.norm));
  const betweenAt = toks.findIndex((t) => t.norm === "between");
  const between = firstOr >= 0 && firstOr < betweenAt ? -1 : betweenAt;
  for (let i = 1; i < toks.length; i++) {
    const t = toks[i];
    const next = toks[i + 1];
    const comma = /,/.test(toks[i - 1].post);
    if (["or", "vs", "versus", "nor"].includes(t.norm)) {
      // "… or not", "whether or not", "or so": no second alternative.
      if (!next || ["not", "so", "otherwise"].includes(next.norm) || toks[i - 1].norm === "whether") continue;
      if (insideCondition(toks, i)) continue;
      all.push({ at: i, width: 1, kind: "or", comma });
    } else if ((t.norm === "instead" || t.norm === "rather") && next && (next.norm === "of" || next.norm === "than") && i + 2 < toks.length) {
      all.push({ at: i, width: 2, kind: "instead", comma });
    } else if (t.norm === "over" && i + 1 < toks.length && !overAMedium(toks, i)) {
      const verb = toks.slice(0, i).reverse().find((x) => isVerb(x));
      if (!verb || ["prefer", "favour", "favor", "choose", "pick", "select", "recommend", "use", "want"].includes(verb.root)) all.push({ at: i, width: 1, kind: "over", comma });
    } else if (t.norm === "than" && i + 1 < toks.length && toks.slice(Math.max(0, i - 3), i).some((x) => x.tags.has("Comparative"))) {
      all.push({ at: i, width: 1, kind: "than", comma });
    } else if (t.norm === "and" && between >= 0 && between < i && !all.some((c) => c.kind === "and")) {
      all.push({ at: i, width: 1, kind: "and", comma });
    }
  }
  // "a release-include or release-exclude label, or a richer set": with a ", or" the bare "or"s before it are inside an alternative.
  const last = all[all.length - 1];
  const connectors = last?.comma && last.kind === "or" ? all.filter((c) => c.comma || c.at > last.at || c.kind !== "or") : all;
  return { connectors, between };
}

/**
 * "How should on-call hear about it when a backup or restore job fails?": an "or" inside a condition
 * (after "when", "if", "until" … in the same clause) says when, not which; the question names no alternatives there.
 * "before or after the deploy" and "when saving or when loading" still are alternatives.
 */
function insideCondition(toks: Tok[], orAt: number): boolean {
  if (SUBORDINATORS.has(toks[orAt + 1]?.norm ?? "")) return false;
  for (let j = orAt - 1; j > 0; j--) {
    if (/[,;:?.!]/.test(toks[j].post)) return false;
    if (SUBORDINATORS.has(toks[j].norm)) return j < orAt - 1;
  }
  return false;
}

type Mode = "verb" | "prep" | "noun";

/** What the right side of a connector starts with decides how both sides are read. */
function rightMode(toks: Tok[], i: number): { mode: Mode; at: number; lead: number; clause?: Clause } {
  let j = i;
  while (j < toks.length && (isAdverb(toks[j]) || ["either", "whether"].includes(toks[j].norm))) j++;
  const lead = i;
  const t = toks[j];
  if (!t) return { mode: "noun", at: j, lead };
  if (isCopula(t) && j + 1 < toks.length) {
    // "or (always) be folded into the control plane": the left clause's subject, a passive or linking verb of its own.
    return { mode: "verb", at: j, lead };
  }
  if (isModal(t)) {
    // "…, or should staging get a database of its own?": a clause of its own.
    const clause = mainVerb(toks, j, toks.length);
    if (clause.verb >= 0) return { mode: "verb", at: clause.copula >= 0 && !clause.linking ? clause.copula : clause.verb, lead: clause.subject ? clause.verb : lead, clause };
  }
  if (t.norm === "to" && toks[j + 1] && isVerb(toks[j + 1])) return { mode: "verb", at: j + 1, lead: j + 1 };
  if (isVerb(t) && !t.tags.has("Gerund")) return { mode: "verb", at: j, lead };
  if (isVerb(t) && t.tags.has("Gerund") && j + 1 < toks.length && (DETERMINERS.has(toks[j + 1].norm) || isPrep(toks[j + 1]))) return { mode: "verb", at: j, lead };
  if (isPrep(t) || SUBORDINATORS.has(t.norm) || RELATIONAL.has(t.norm)) return { mode: "prep", at: j, lead };
  return { mode: "noun", at: j, lead };
}

/** End of the clause that starts at i: the sentence end or a semicolon. */
function clauseEnd(toks: Tok[], i: number): number {
  for (let j = i; j < toks.length; j++) if (/[;?!]/.test(toks[j].post) || (/[.]/.test(toks[j].post) && j < toks.length - 1 && !/^\d+$/.test(toks[j].norm))) return j + 1;
  return toks.length;
}

/** End of a noun alternative on the right: the noun phrase and its prepositional phrases, short of a purpose or a verb. */
function nounWithPhrasesEnd(toks: Tok[], at: number): number {
  let end = Math.max(at + 1, nounPhraseEnd(toks, at, toks.length, { and: true }));
  while (end < toks.length - 1 && !endsClause(toks[end - 1]) && isPrep(toks[end]) && !PURPOSE.has(toks[end].norm) && toks[end].norm !== "to") {
    const np = nounPhraseEnd(toks, end + 1, toks.length, { and: true });
    if (np <= end + 1) break;
    end = np;
  }
  return end;
}

function isNamePhrase(toks: Tok[], s: Span): boolean {
  return toks.slice(s.start, s.end).some((t) => isNameLike(t));
}

/** Start of the prepositional phrase that ends at `end`: back to its preposition ("next to it", "per call"). */
function prepPhraseStart(toks: Tok[], end: number, floor: number): number {
  let p = end - 1;
  while (p > floor && !((isPrep(toks[p]) || SUBORDINATORS.has(toks[p].norm)) && toks[p].norm !== "of" && toks[p].norm !== "like")) p--;
  if (!(isPrep(toks[p]) || SUBORDINATORS.has(toks[p].norm))) return -1;
  while (p - 1 > floor && (RELATIONAL.has(toks[p - 1].norm) || isAdverb(toks[p - 1]))) p--;
  return p;
}

interface Item {
  span: Span;
  mode: Mode | "keep";
  clause?: Clause;
}

/** "…, adopt an open-source tool": a word that can be a verb, followed by its object. */
function canStartVerbPhrase(toks: Tok[], j: number): boolean {
  const t = toks[j];
  const next = toks[j + 1];
  if (isVerb(t)) return !t.tags.has("Gerund");
  const verbLike = DECISION_VERBS.has(t.norm) || /Verb/.test(t.amb ?? "") || lexicon()[t.norm] === "Infinitive";
  return verbLike && !!next && (DETERMINERS.has(next.norm) || isNounish(next) || isPrep(next) || next.tags.has("Possessive"));
}

/** Where the clause that ends at `limit` starts: just after the last ";" or ":" before it, else at 0. */
function clauseStartBefore(toks: Tok[], limit: number): number {
  for (let k = limit - 1; k >= 0; k--) if (/[;:]/.test(toks[k].post)) return k + 1;
  return 0;
}

type RightSide = ReturnType<typeof rightMode>;

/** The pieces a question's connectors split it into, before they are worded as alternatives. */
interface Reading {
  items: Item[];
  /** Words before noun or prepositional alternatives that every one of them shares ("Store sessions"). */
  frame?: string;
  /** The clause left of verb alternatives, whose subject an elliptical right side shares. */
  leftClause?: Clause;
}

/** "Is Picocli a better fit than Apache Commons CLI for …": the copula's subject against the object of "than". */
function readThan(toks: Tok[], last: Connector): Reading | undefined {
  const clause = mainVerb(toks, 0, last.at);
  const subj = clause.subject ? trimNoun(toks, clause.subject.start, clause.subject.end) : undefined;
  const r = trimNoun(toks, last.at + 1, toks.length);
  if (!subj || r.end <= r.start) return undefined;
  return {
    items: [
      { span: subj, mode: "noun" },
      { span: r, mode: "noun" },
    ],
  };
}

/** Verb alternatives: the right side is a verb phrase; the left side is the main clause's (or a judged subject). */
function readVerbAlternatives(toks: Tok[], right: RightSide, leftLimit: number): Reading {
  const items: Item[] = [];
  // A trailing purpose ("… for date handling?") belongs to every alternative, not to the last one.
  const rEnd = phraseEnd(toks, right.at, clauseEnd(toks, right.at));
  items.push({ span: { start: right.lead <= right.at ? right.lead : right.at, end: rEnd }, mode: "verb", clause: right.clause });
  const start = clauseStartBefore(toks, leftLimit);
  const clause = mainVerb(toks, start, leftLimit);
  // "Is Java 8 still good enough, or should we migrate to Java 11?": the judged subject is kept on the left.
  const judgedSubject = isCopula(toks[start]) && toks.slice(start, leftLimit).some((t) => t.norm === "still" || JUDGEMENTS.has(t.norm)) ? trimNoun(toks, start + 1, leftLimit) : undefined;
  const expletive = !!judgedSubject && (PRONOUNS.has(toks[judgedSubject.start].norm) || toks.slice(start, leftLimit).some((t, k, all) => t.norm === "to" && !!all[k + 1] && isVerb(all[k + 1])));
  if (judgedSubject && judgedSubject.end > judgedSubject.start && !expletive) {
    items.unshift({ span: judgedSubject, mode: "keep" });
  } else if (clause.verb >= 0) {
    items.unshift(...leftVerbPhrases(toks, clause, start, leftLimit).map((l) => ({ span: l, mode: "verb" as Mode, clause })));
  } else {
    const ns = nounPhraseStart(toks, leftLimit, start);
    if (ns < leftLimit) items.unshift({ span: { start: ns, end: leftLimit }, mode: "noun" });
  }
  return { items, leftClause: clause };
}

/** The verb phrases left of the connector; "A, B, or C" with verbs splits at commas that start a new verb phrase. */
function leftVerbPhrases(toks: Tok[], clause: Clause, start: number, leftLimit: number): Span[] {
  const vstart = clause.copula >= 0 && !clause.linking ? clause.copula : clause.verb;
  let vs = vstart;
  while (vs - 1 >= start && isAdverb(toks[vs - 1]) && toks[vs - 1].norm !== "still") vs--;
  const lefts: Span[] = [];
  let s = vs;
  for (let j = vs + 1; j < leftLimit; j++) {
    if (/,/.test(toks[j - 1].post) && canStartVerbPhrase(toks, j)) {
      // The word is read as a verb from here on, whatever the tagger made of it.
      if (!isVerb(toks[j])) asVerb(toks[j]);
      lefts.push({ start: s, end: j });
      s = j;
    }
  }
  lefts.push({ start: s, end: leftLimit });
  return lefts;
}

/** Noun or prepositional alternatives. The right one runs to the clause end, short of a purpose. */
function readNounAlternatives(toks: Tok[], connectors: Connector[], between: number, last: Connector, right: RightSide): Reading | undefined {
  const rStart = right.lead;
  const rSpan: Span =
    right.mode === "prep"
      ? { start: rStart, end: phraseEnd(toks, right.at, toks.length) }
      : { start: rStart, end: nounWithPhrasesEnd(toks, right.at) };
  if (rSpan.end <= rSpan.start) return undefined;
  const leftItems = leftNounItems(toks, connectors, between, last, right.mode);
  if (!leftItems?.length) return undefined;
  const frame = frameBefore(toks, last, right.mode, leftItems[0].start, [...leftItems, rSpan]);
  const items: Item[] = leftItems.map((s) => ({ span: s, mode: right.mode }));
  items.push({ span: rSpan, mode: right.mode });
  return { items, frame };
}

/** The noun or prepositional alternatives left of the last connector; undefined or empty when there are none. */
function leftNounItems(toks: Tok[], connectors: Connector[], between: number, last: Connector, rightMode: Mode): Span[] | undefined {
  const leftLimit = last.at;
  // Alternatives without a verb before them ("…: a one-click download button in the UI, or documented steps in the
  // console?", "Kafka, RabbitMQ or SQS for …"): each comma-separated piece is one alternative, whole.
  const segStart = clauseStartBefore(toks, leftLimit);
  const segment = toks.slice(segStart, leftLimit);
  const verbless = last.kind !== "and" && !segment.some((t) => (isVerb(t) && !t.tags.has("Gerund") && !t.tags.has("Participle") && !(t.tags.has("PastTense") && !t.tags.has("Infinitive"))) || isModal(t) || isCopula(t) || WH.has(t.norm));
  if (verbless && segment.length) return verblessPieces(toks, connectors, last, segStart, rightMode);
  if (last.kind === "and" && between >= 0) return betweenList(toks, between, leftLimit);
  if (rightMode === "prep") return prepList(toks, connectors, last);
  return nounList(toks, connectors, last);
}

/** A verbless list split at its commas and earlier connectors, without a fronted purpose. */
function verblessPieces(toks: Tok[], connectors: Connector[], last: Connector, segStart: number, rightMode: Mode): Span[] {
  const leftLimit = last.at;
  let s0 = segStart;
  const pieces: Span[] = [];
  for (let j = segStart; j < leftLimit; j++) {
    const earlier = connectors.find((c) => c !== last && c.at === j);
    if (earlier) {
      pieces.push({ start: s0, end: j });
      s0 = j + earlier.width;
      j += earlier.width - 1;
    } else if (/,/.test(toks[j].post) && j + 1 < leftLimit) {
      pieces.push({ start: s0, end: j + 1 });
      s0 = j + 1;
    }
  }
  pieces.push({ start: s0, end: leftLimit });
  // A fronted purpose ("For collecting JVM metrics, Micrometer or …") is not an alternative.
  while (pieces.length > 1 && (isPrep(toks[pieces[0].start]) || SUBORDINATORS.has(toks[pieces[0].start].norm) || WH.has(toks[pieces[0].start].norm) || toks[pieces[0].start].tags.has("QuestionWord")) && rightMode !== "prep") pieces.shift();
  return pieces.filter((p) => p.end > p.start && toks.slice(p.start, p.end).some((t) => isNounish(t) || isPrep(t)));
}

/** "between A, B and C": the comma-separated items after "between". */
function betweenList(toks: Tok[], between: number, leftLimit: number): Span[] {
  const items: Span[] = [];
  let s = between + 1;
  for (let j = between + 1; j < leftLimit; j++) {
    if (/,/.test(toks[j].post)) {
      items.push({ start: s, end: j + 1 });
      s = j + 1;
    }
  }
  items.push({ start: s, end: leftLimit });
  return items;
}

/** Prepositional alternatives, back over a list: "inside the .bib file, next to it, or in the app-data directory". */
function prepList(toks: Tok[], connectors: Connector[], last: Connector): Span[] {
  const items: Span[] = [];
  let end = last.at;
  for (;;) {
    const p = prepPhraseStart(toks, end, 0);
    if (p < 0) break;
    items.unshift({ start: p, end });
    const earlier = connectors.find((c) => c !== last && c.at + c.width === p);
    if (earlier) end = earlier.at;
    else if (p > 0 && /,/.test(toks[p - 1].post) && (isNounish(toks[p - 1]) || PRONOUNS.has(toks[p - 1].norm))) {
      // Only another prepositional phrase continues the list.
      const q = prepPhraseStart(toks, p, 0);
      if (q < 0 || toks.slice(q, p).some((t) => isVerb(t) && !t.tags.has("Gerund"))) break;
      end = p;
    } else break;
  }
  return items;
}

/** Noun alternatives, back from the last connector over "A or B or C" and "A, B": undefined when there is none. */
function nounList(toks: Tok[], connectors: Connector[], last: Connector): Span[] | undefined {
  const leftLimit = last.at;
  let end = leftLimit;
  // "JWT bearer header only, or …": a trailing adverb belongs to the alternative.
  while (end - 1 > 0 && isAdverb(toks[end - 1])) end--;
  let ns = nounPhraseStart(toks, end, 0);
  if (ns >= end) return undefined;
  // "a release-include or release-exclude label, or …": an inner "or" that is not a split joins one alternative.
  while (ns > 1 && ["or", "and"].includes(toks[ns - 1].norm) && !connectors.some((c) => c.at === ns - 1) && isNounish(toks[ns - 2]) && !endsClause(toks[ns - 2])) {
    const inner = nounPhraseStart(toks, ns - 1, 0);
    if (inner >= ns - 1) break;
    ns = inner;
  }
  // "adopt Java virtual threads for the workers instead of fixed thread pools": the object, not the purpose.
  if ((last.kind === "instead" || last.kind === "over") && ns > 1 && PURPOSE.has(toks[ns - 1].norm)) {
    const ps = nounPhraseStart(toks, ns - 1, 0);
    if (ps < ns - 1) {
      end = ns - 1;
      ns = ps;
    }
  }
  const items: Span[] = [{ start: ns, end: end === leftLimit || isAdverb(toks[end]) ? leftLimit : end }];
  end = ns;
  // "A or B or C".
  for (;;) {
    const earlier = connectors.find((c) => c !== last && c.at + c.width === ns);
    if (earlier) end = earlier.at;
    else if (ns > 0 && /,/.test(toks[ns - 1].post) && isNounish(toks[ns - 1])) end = ns;
    else break;
    ns = nounPhraseStart(toks, end, 0);
    // "…better for our mobile app, React Native or Flutter": the object of a preposition is no list item.
    if (ns >= end || (ns > 0 && PURPOSE.has(toks[ns - 1].norm))) break;
    items.unshift({ start: ns, end });
  }
  return items;
}

/** A frame before the alternatives: "should receipts live …", "should we store sessions …", "Configure retries …". */
function frameBefore(toks: Tok[], last: Connector, rightMode: Mode, first: number, spans: Span[]): string | undefined {
  const cstart = clauseStartBefore(toks, first);
  const clause = last.kind === "and" ? NO_CLAUSE : mainVerb(toks, cstart, first);
  const names = spans.every((s) => isNamePhrase(toks, s));
  const verbRoot = clause.verb >= 0 ? toks[clause.verb].root : "";
  if (clause.verb >= 0 && clause.verb < first && (rightMode === "prep" || (!names && !CHOICE_VERBS.has(verbRoot)))) return frameTitle(toks, clause, first);
  return undefined;
}

/** How every item of one question is worded, beyond the item itself. */
interface Wording {
  frame?: string;
  leftClause?: Clause;
  /** The alternatives' own subjects overlap, or there are fewer than two. */
  sharedSubject: boolean;
  /** One alternative is a linking clause ("stay as plain Markdown lines"). */
  anyLinking: boolean;
}

/** The items worded as alternatives; an item whose title repeats an earlier one (any case) is dropped. */
function wordAlternatives(toks: Tok[], reading: Reading): Alternative[] {
  const { items, frame, leftClause } = reading;
  // Alternatives with a subject of their own share it when the subjects overlap ("the staging environment" / "staging").
  const subjects = items.map((it) => it.clause?.subject).filter((s): s is Span => !!s);
  const subjectWords = subjects.map((s) => new Set(toks.slice(s.start, s.end).map((t) => t.norm).filter((w) => !DETERMINERS.has(w))));
  const sharedSubject = subjects.length < 2 || subjectWords.every((w) => [...w].some((x) => subjectWords[0].has(x)));
  // "should ADR metadata go into YAML front matter, or stay as plain Markdown lines?": one linking alternative makes
  // every alternative a statement about the shared subject, so they read alike.
  const anyLinking = items.some((it) => it.mode === "verb" && (it.clause ?? mainVerbOf(toks, it.span)).linking) && !!leftClause?.subject && !isPersonal(toks, leftClause.subject) && !isPronounSubject(toks, leftClause.subject) && !leftClause.expletive;
  const wording: Wording = { frame, leftClause, sharedSubject, anyLinking };
  const alternatives: Alternative[] = [];
  for (const it of items) {
    const a = wordItem(toks, it, wording);
    if (a.title && !alternatives.some((x) => x.title.toLowerCase() === a.title.toLowerCase())) alternatives.push(a);
  }
  return alternatives;
}

function wordItem(toks: Tok[], it: Item, wording: Wording): Alternative {
  if (it.mode === "keep") return alt(keepTitle(toks, it.span), spanText(toks, it.span, { dropDeterminer: true }), termsForPhrase(toks, it.span), "incumbent");
  if (it.mode === "verb") return verbAlternative(toks, it, wording);
  if (it.mode === "prep") {
    let p = it.span.start;
    while (p < it.span.end && !(isPrep(toks[p]) || SUBORDINATORS.has(toks[p].norm))) p++;
    const inner = { start: Math.min(p + 1, it.span.end), end: it.span.end };
    const text = spanText(toks, it.span);
    const terms = prepTerms(toks, it.span, p);
    return alt(wording.frame ? `${wording.frame} ${text}` : capitalise(text), spanText(toks, inner, { dropDeterminer: true }), terms, "alternative");
  }
  const subject = spanText(toks, it.span, { dropDeterminer: true });
  return alt(wording.frame ? `${wording.frame} ${spanText(toks, it.span)}` : bareTitle(toks, it.span), subject, termsForNounItem(toks, it.span), "alternative");
}

function verbAlternative(toks: Tok[], it: Item, wording: Wording): Alternative {
  const { leftClause, sharedSubject, anyLinking } = wording;
  const { terms, subject } = termsForVerbPhrase(toks, it.span);
  // An elliptical right side ("or be folded into the control plane", "or left to the package managers") shares
  // the left clause's subject.
  let clause = it.clause;
  if (!clause && leftClause?.subject) {
    clause = { ...mainVerbOf(toks, it.span), subject: leftClause.subject };
    const first = toks[clause.verb];
    if (leftClause.passive && !clause.passive && first && isVerb(first) && (first.tags.has("PastTense") || first.tags.has("Participle"))) clause = { ...clause, passive: true };
  }
  // Alternatives with subjects of their own are found by their subjects too ("a scheduled Lambda").
  if (!sharedSubject && it.clause?.subject && !it.clause.expletive && !isPersonal(toks, it.clause.subject) && !isPronounSubject(toks, it.clause.subject)) {
    terms.push(...termsForPhrase(toks, headOf(toks, it.clause.subject)).filter((t) => !terms.includes(t)));
  }
  return alt(clauseTitle(toks, it.span, clause, (sharedSubject || !it.clause) && !anyLinking), subject, terms, "alternative");
}

/** "push blocks to a companion over gRPC", "send it over the network": "over" names the channel, not a rival. */
const CHANNELS = new Set(["grpc", "http", "https", "http2", "tcp", "udp", "ssh", "tls", "ssl", "websocket", "websockets", "rest", "rpc", "amqp", "mqtt", "vpn", "sftp", "ftp", "nfs", "smb", "email", "wifi", "bluetooth", "ipc", "quic"]);
const CHANNEL_NOUNS = new Set(["network", "wire", "internet", "channel", "socket", "connection", "bus", "link", "tunnel", "api", "queue", "stream", "protocol", "line"]);
function overAMedium(toks: Tok[], i: number): boolean {
  const next = toks[i + 1]?.norm ?? "";
  if (CHANNELS.has(next.replace(/[^a-z0-9]/g, ""))) return true;
  return /^(?:a|an|the|our|its)$/.test(next) && CHANNEL_NOUNS.has(toks[i + 2]?.norm ?? "");
}

/** The alternatives of an "or" / "vs" / "between" / "instead of" / "over" / "better than" question. */
function readAlternatives(toks: Tok[]): Partial<QuestionStructure> | undefined {
  const { connectors, between } = findConnectors(toks);
  if (!connectors.length) return undefined;
  const last = connectors[connectors.length - 1];
  const right = rightMode(toks, last.at + last.width);
  const reading =
    last.kind === "than" ? readThan(toks, last) : right.mode === "verb" ? readVerbAlternatives(toks, right, last.at) : readNounAlternatives(toks, connectors, between, last, right);
  if (!reading) return undefined;
  const alternatives = wordAlternatives(toks, reading);
  dedupeTerms(alternatives);
  if (alternatives.length < 2) return undefined;
  const out: Partial<QuestionStructure> = { form: "alternatives", alternatives };
  // "X instead of Y", "X rather than Y": Y is what is done today.
  if (last.kind === "instead" && alternatives.length === 2) {
    alternatives[1].role = "incumbent";
    alternatives[0].role = "target";
    out.incumbent = alternatives[1];
    out.target = alternatives[0];
  }
  return out;
}

/** The clause shape of an elliptical verb phrase: "be folded into the control plane" is passive. */
function mainVerbOf(toks: Tok[], s: Span): Clause {
  let j = s.start;
  while (j < s.end && isAdverb(toks[j])) j++;
  if (j < s.end && isCopula(toks[j])) {
    let k = j + 1;
    while (k < s.end && isAdverb(toks[k])) k++;
    if (k < s.end && isVerb(toks[k]) && (toks[k].tags.has("PastTense") || toks[k].tags.has("Participle"))) return { verb: k, passive: true, linking: false, copula: j };
    return { verb: j, passive: false, linking: true, copula: j };
  }
  return { ...NO_CLAUSE, verb: j, linking: j < s.end && LINKING_VERBS.has(toks[j].root) };
}

/** The shared start of prepositional or noun alternatives: "Configure retries", "Store sessions", "Receipts live". */
function frameTitle(toks: Tok[], clause: Clause, end: number): string | undefined {
  const subj = clause.subject;
  if (clause.passive && subj) return passiveImperative(toks, { start: clause.copula >= 0 ? clause.copula : clause.verb, end }, clause, subj);
  const s = { start: clause.copula >= 0 && clause.linking ? clause.copula : clause.verb, end };
  if (!subj || clause.expletive || isPersonal(toks, subj) || isPronounSubject(toks, subj)) return imperative(toks, s);
  const v = toks[s.start];
  // "should PRs get a … label, or a richer set" → "Give PRs a … label".
  if (RECEIVE_VERBS.has(v.root) && !clause.linking) {
    const between = spanText(toks, { start: s.start + 1, end });
    return capitalise(`give ${spanText(toks, subj, { dropDeterminer: true })}${between ? ` ${between}` : ""}`);
  }
  return statement(toks, s, subj);
}

/**
 * Terms of a prepositional alternative ("per call", "in a shared policy", "only when we cut a release"): the
 * object's terms, but a lone common noun is looked for with its preposition ("per call"), since "call" alone is in
 * every text; a manner adverb ("locally") counts too.
 */
function prepTerms(toks: Tok[], s: Span, p: number): string[] {
  const inner = { start: Math.min(p + 1, s.end), end: s.end };
  const adverbs = toks.slice(s.start, p).filter((t) => isAdverb(t) && /ly$/.test(t.norm) && t.norm.length > 4).map((t) => t.norm);
  if (SUBORDINATORS.has(toks[p]?.norm ?? "")) return [...adverbs, ...termsForVerbPhrase(toks, inner).terms];
  const words = toks.slice(inner.start, inner.end).filter((t) => !DETERMINERS.has(t.norm) && !t.tags.has("Possessive"));
  if (words.length === 1 && !isNameLike(words[0]) && isKnownWord(words[0])) {
    const prep = toks[p].norm;
    const forms = [words[0].norm, ...singularPlural(words[0].norm)];
    return [...adverbs, ...forms.flatMap((w) => [`${prep} ${w}`, `${prep}-${w}`])];
  }
  if (words.every((t) => PRONOUNS.has(t.norm))) {
    // "next to it": the relation is the alternative.
    const rel = toks.slice(s.start, p + 1).filter((t) => !isAdverb(t)).map((t) => t.norm).join(" ");
    return rel ? [rel] : [];
  }
  return [...adverbs, ...termsForNounItem(toks, inner)];
}

/** Terms of a noun alternative that may carry phrases ("GeoPandas with Shapely", "tags in each file"): its head phrase and the names in it. */
function termsForNounItem(toks: Tok[], s: Span): string[] {
  const nps = nounPhrases(toks, s).filter((np) => !np.relational && !(np.prep && PURPOSE.has(np.prep)));
  if (nps.length <= 1) return termsForPhrase(toks, s);
  const out = new Set<string>(termsForPhrase(toks, nps[0].span));
  for (const np of nps.slice(1)) if (toks.slice(np.span.start, np.span.end).some(isNameLike)) for (const t of termsForPhrase(toks, np.span)) out.add(t);
  return [...out];
}

/** Terms two alternatives share name neither of them ("production database" vs "own database" share "database"). */
function dedupeTerms(alts: Alternative[]): void {
  const count = new Map<string, number>();
  for (const a of alts) for (const t of new Set(a.terms)) count.set(t, (count.get(t) ?? 0) + 1);
  for (const a of alts) a.terms = a.terms.filter((t) => count.get(t) === 1);
}

/** "move X onto B", "switch to B", "migrate X to B" without a "from": B is proposed, X is kept as it is today. */
function readMoveTo(toks: Tok[], clause: Clause): Partial<QuestionStructure> | undefined {
  for (let v = Math.max(0, clause.verb); v < toks.length; v++) {
    const t = toks[v];
    if (!MOVE_VERBS.has(t.root) || !isVerb(t)) continue;
    for (let j = v + 1; j < toks.length && j <= v + 8; j++) {
      if (!["to", "onto", "into", "towards", "toward"].includes(toks[j].norm)) {
        if (isVerb(toks[j]) && !toks[j].tags.has("Gerund")) break;
        continue;
      }
      const b = trimNoun(toks, j + 1, toks.length);
      if (b.end <= b.start || !toks.slice(b.start, b.end).some((x) => isNounish(x) && !DETERMINERS.has(x.norm))) break;
      const end = phraseEnd(toks, j + 1, toks.length);
      const target = nounAlternative(toks, b, "target", imperative(toks, { start: v, end }));
      const object = j > v + 1 ? { start: v + 1, end: j } : undefined;
      if (object && toks.slice(object.start, object.end).some((x) => isNounish(x) && !DETERMINERS.has(x.norm) && !PRONOUNS.has(x.norm))) {
        // "move our Glue ETL jobs to dbt": keeping the jobs as they are is the other option.
        const incumbent = alt(keepTitle(toks, object), spanText(toks, object, { dropDeterminer: true }), termsForPhrase(toks, object), "incumbent");
        incumbent.terms = incumbent.terms.filter((x) => !target.terms.includes(x));
        return { form: "migration", alternatives: [incumbent, target], incumbent, target };
      }
      return { form: "move-to", alternatives: [target], target };
    }
  }
  return undefined;
}

/** "keep storing uploads on the local disk?", "stick with X?", "do we still need to publish X?", "stop using X?", "drop X and build with Y?". */
function readKeepOrDrop(toks: Tok[], clause: Clause): Partial<QuestionStructure> | undefined {
  const v = clause.verb;
  if (v < 0 || clause.passive || clause.linking) return undefined;
  const t = toks[v];
  const still = toks.slice(0, v).some((x) => x.norm === "still");
  const keep = KEEP_VERBS.has(t.root) || still;
  const drop = DROP_VERBS.has(t.root) || (t.root === "get" && toks[v + 1]?.norm === "rid");
  if (!keep && !drop) return undefined;
  const end = phraseEnd(toks, v + 1, clauseEnd(toks, v));
  let objStart = v + 1;
  if (toks[objStart]?.norm === "rid" && toks[objStart + 1]?.norm === "of") objStart += 2;
  const useVerb = (x: Tok | undefined) => !!x && ["use", "using"].includes(x.norm);
  while (objStart < end && (["with", "on", "to", "at"].includes(toks[objStart].norm) || useVerb(toks[objStart]))) objStart++;
  if (objStart >= end) return undefined;
  // "drop Next.js and build with Vite": a replacement in one breath.
  const andVerb = toks.findIndex((x, k) => k > objStart && k < end - 1 && x.norm === "and" && isVerb(toks[k + 1]) && !toks[k + 1].tags.has("Gerund"));
  const bodyIsVerb = KEEP_VERBS.has(t.root) && isVerb(toks[objStart]) && toks[objStart].tags.has("Gerund");
  let np = trimNoun(toks, objStart, andVerb > 0 ? andVerb : end);
  let thing = np;
  // "drop support for Node 18", "keep our use of Lombok": the thing is the object of the generic noun.
  const head = toks[np.end - 1];
  if (!bodyIsVerb && head && GENERIC_OBJECTS.has(head.root) && np.end < end && isPrep(toks[np.end])) {
    thing = trimNoun(toks, np.end + 1, end);
    np = { start: np.start, end: thing.end };
  }
  const body: Span = { start: objStart, end };
  const { terms, subject } = bodyIsVerb ? termsForVerbPhrase(toks, body) : { terms: termsForPhrase(toks, thing), subject: spanText(toks, thing, { dropDeterminer: true }) };
  if (drop && andVerb > 0) {
    const incumbent = alt(keepTitle(toks, np), subject, terms, "incumbent");
    const second = { start: andVerb + 1, end };
    const target = alt(imperative(toks, { start: v, end }), termsForVerbPhrase(toks, second).subject, termsForVerbPhrase(toks, second).terms, "target");
    return { form: "migration", alternatives: [incumbent, target], incumbent, target };
  }
  // The kept thing: "Keep storing uploads on the local disk", "Keep publishing the DAPS identity module", "Keep Cassandra".
  let keptTitle: string;
  if (bodyIsVerb) keptTitle = `Keep ${spanText(toks, body)}`;
  else if (KEEP_VERBS.has(t.root) || (still && ADOPT_VERBS.has(t.root)) || drop) keptTitle = keepTitle(toks, { start: np.start, end: andVerb > 0 || drop ? np.end : Math.max(np.end, end) });
  else keptTitle = `Keep ${gerund(infinitive(t))} ${spanText(toks, np)}`;
  const kept = alt(keptTitle, subject, terms, "incumbent");
  if (drop) {
    const dropped = alt(imperative(toks, { start: v, end: np.end }), subject, terms, "target", true);
    return { form: "drop", alternatives: [kept, dropped], incumbent: kept, target: dropped };
  }
  // "… now that decentralized claims are the way forward": the question names the successor.
  const nowThat = toks.findIndex((x, k) => k > v && x.norm === "now" && toks[k + 1]?.norm === "that");
  if (nowThat > 0) {
    const succ = trimNoun(toks, nowThat + 2, toks.length);
    if (succ.end > succ.start && toks.slice(succ.start, succ.end).some((x) => isNounish(x) && !PRONOUNS.has(x.norm))) {
      const target = nounAlternative(toks, succ, "target", `Move to ${spanText(toks, succ, { dropDeterminer: true })}`);
      return { form: "migration", alternatives: [kept, target], incumbent: kept, target };
    }
  }
  return keepForm(kept);
}

/** "Keep X?" names one side; the other, until the evidence names a successor, is dropping it. */
function keepForm(kept: Alternative): Partial<QuestionStructure> {
  const rest = kept.title.replace(/^Keep\s+/, "");
  const gerundBody = /^\w+ing\b/.test(rest) && !/^(?:the|a|an)\b/i.test(rest);
  const dropped = alt(gerundBody ? `Stop ${rest}` : `Drop ${rest}`, kept.subject, kept.terms, "target", true);
  return { form: "keep", alternatives: [kept, dropped], incumbent: kept, target: dropped };
}

const JUDGEMENTS = new Set(["choice", "fit", "option", "worth", "enough", "needed", "necessary", "right", "good", "best", "appropriate", "suitable", "sensible", "idea", "answer", "tool", "fine", "ok", "okay"]);

/** "Is X still the right choice for Y?" → keep X; "Is X worth keeping?" → keep X; "Would X be worth adding?" → add X. */
function readCopula(toks: Tok[]): Partial<QuestionStructure> | undefined {
  if (!toks.length || !(isCopula(toks[0]) || isModal(toks[0]))) return undefined;
  let s = trimNoun(toks, 1, toks.length);
  // "Would a GraphQL endpoint next to JMAP be worth adding": with a modal, the subject runs to the copula.
  if (isModal(toks[0])) {
    const cop = toks.findIndex((t, k) => k > 1 && isCopula(t));
    if (cop < 0) return undefined;
    s = { start: 1, end: cop };
  }
  if (s.end <= s.start || s.end >= toks.length || toks.slice(s.start, s.end).every((t) => PRONOUNS.has(t.norm))) return undefined;
  let j = s.end;
  if (isModal(toks[0])) j++;
  const still = toks[j]?.norm === "still";
  if (still) j++;
  const rest = toks.slice(j).filter((t) => !DETERMINERS.has(t.norm));
  const worth = rest.findIndex((t) => t.norm === "worth");
  const judged = rest.some((t) => JUDGEMENTS.has(t.root) || JUDGEMENTS.has(t.norm));
  if (!judged) return undefined;
  const subject = spanText(toks, s, { dropDeterminer: true });
  const terms = termsForNounItem(toks, s);
  const g = worth >= 0 ? rest[worth + 1] : undefined;
  const gv = g && g.tags.has("Gerund") ? infinitive(g) : undefined;
  if (still || (gv && KEEP_VERBS.has(gv))) {
    return keepForm(alt(keepTitle(toks, s), subject, terms, "incumbent"));
  }
  const verb = gv && !["have", "use", "adopt", "do"].includes(gv) ? gv : "adopt";
  const target = alt(capitalise(`${verb} ${spanText(toks, s, { dropDeterminer: verb === "adopt" })}`), subject, terms, "target");
  return { form: "adopt", alternatives: [target], target };
}

/** "adopt / introduce / use / add A (for …)?" */
function readAdopt(toks: Tok[], clause: Clause): Partial<QuestionStructure> | undefined {
  const v = clause.verb >= 0 && ADOPT_VERBS.has(toks[clause.verb].root) && !clause.passive ? clause.verb : -1;
  if (v < 0 || !isVerb(toks[v])) return undefined;
  let o = v + 1;
  if (["in", "on"].includes(toks[o]?.norm ?? "") && toks[v].root === "bring") o++;
  // "adopt Build On Top Of Experimenter?", "adopt Amazon Cognito": a run of capitalised words is one name, whatever
  // parts of speech its words have on their own.
  const named = nameRun(toks, o);
  // "what should we use for caching?": no object, an open question.
  if (!named && (!toks[o] || isPrep(toks[o]) || (isVerb(toks[o]) && !toks[o].tags.has("Gerund")))) return undefined;
  const s = named ?? withQualifier(toks, trimNoun(toks, o, toks.length));
  if (s.end <= s.start || toks.slice(s.start, s.end).every((t) => DETERMINERS.has(t.norm) || PRONOUNS.has(t.norm))) return undefined;
  const subject = spanText(toks, s, { dropDeterminer: true });
  const plainAdopt = ["adopt", "introduce", "use", "try", "embrace", "employ", "utilize", "utilise", "leverage"].includes(toks[v].root);
  const title = plainAdopt ? `Adopt ${subject}` : imperative(toks, { start: v, end: phraseEnd(toks, v + 1, clauseEnd(toks, v)) });
  const target = alt(title, subject, termsForPhrase(toks, s), "target");
  return { form: "adopt", alternatives: [target], target };
}

/** Two or more capitalised words in a row from `i`, within the clause: a name ("Build On Top Of Experimenter"). */
function nameRun(toks: Tok[], i: number): Span | undefined {
  let j = i;
  while (j < toks.length && /^\p{Lu}/u.test(toks[j].text)) {
    j++;
    if (endsClause(toks[j - 1])) break;
  }
  // "Nat Pryce's adr-tools": a possessive owns the name that follows; the noun phrase reading takes it whole.
  if (j > i && /['’]s$/i.test(toks[j - 1].text) && !endsClause(toks[j - 1])) return undefined;
  return j - i >= 2 ? { start: i, end: j } : undefined;
}

/** "Prettier only", "Redis alone": a trailing word that restricts the name belongs to it. */
function withQualifier(toks: Tok[], s: Span): Span {
  const next = toks[s.end];
  return next && !endsClause(toks[s.end - 1]) && ["only", "alone"].includes(next.norm) ? { start: s.start, end: s.end + 1 } : s;
}

/** "should we put a Varnish layer in front of the API?": the verb phrase is the proposal. */
function readAction(toks: Tok[], clause: Clause): Partial<QuestionStructure> | undefined {
  if (clause.verb < 0) return undefined;
  const start = clause.copula >= 0 && !clause.passive ? clause.copula : clause.verb;
  const end = phraseEnd(toks, start, clauseEnd(toks, start));
  const span = { start, end };
  const { terms, subject } = termsForVerbPhrase(toks, { start: clause.verb, end });
  if (!terms.length && !subject) return undefined;
  const target = alt(clauseTitle(toks, span, clause, false), subject, terms, "target");
  return { form: "action", alternatives: [target], target };
}

/**
 * "…X is painful; is it time to integrate Y instead?", "Our stores are verified against an in-memory engine;
 * should those suites target a real Postgres instead?": a trailing "instead" replaces something the context named.
 * The incumbent is the context's noun phrase in the same role: the object of the same verb, else the complement
 * when the question's subject continues the context's ("it", "those suites"), else the context's subject.
 */
function insteadIncumbent(context: Tok[][], toks: Tok[], clause: Clause): Alternative | undefined {
  const ctx = context[context.length - 1];
  if (!ctx?.length) return undefined;
  const c = mainVerb(ctx, 0, ctx.length);
  const qVerb = clause.verb >= 0 ? toks[clause.verb] : undefined;
  const nps = nounPhrases(ctx, { start: c.verb >= 0 ? c.verb : 0, end: clauseEnd(ctx, 0) }).filter((np) => !ctx.slice(np.span.start, np.span.end).every((t) => PRONOUNS.has(t.norm)) && !np.relational);
  // Stop before a relative clause ("an engine that lacks JSON operators").
  const cut = (np: NounPhrase) => {
    const s = np.span;
    for (let k = s.start; k < s.end; k++) if (["that", "which", "who"].includes(ctx[k].norm)) return { start: s.start, end: k };
    return s;
  };
  let pick: Span | undefined;
  if (qVerb && c.verb >= 0 && infinitive(ctx[c.verb]) === infinitive(qVerb)) {
    pick = nps.find((np) => !np.prep || LOCATIVE.includes(np.prep))?.span;
  }
  const continues = (!clause.expletive && isPronounSubject(toks, clause.subject)) || (clause.subject && ["those", "these", "this", "that"].includes(toks[clause.subject.start].norm));
  if (!pick && continues && c.subject) {
    const afterSubject = nps.filter((np) => np.span.start >= (c.subject?.end ?? 0) && (!np.prep || ["against", "with", "on", "in", "by", "via", "through"].includes(np.prep)));
    pick = afterSubject[0]?.span;
  }
  if (!pick && c.subject && !isPersonal(ctx, c.subject) && !isPronounSubject(ctx, c.subject)) pick = c.subject;
  // "We deploy with Ansible": with a personal subject, what it works with.
  if (!pick && (!c.subject || isPersonal(ctx, c.subject))) pick = nps.find((np) => !np.prep || LOCATIVE.includes(np.prep))?.span;
  if (!pick) return undefined;
  const span = cut({ span: pick, relational: false });
  if (span.end <= span.start) return undefined;
  return alt(keepTitle(ctx, span), spanText(ctx, span, { dropDeterminer: true }), termsForPhrase(ctx, span), "incumbent");
}

/** "publish the templates in AsciiDoc alongside Markdown": Markdown is what exists today. */
function alongsideIncumbent(toks: Tok[], s: Span): Alternative | undefined {
  for (let i = s.start; i < s.end - 1; i++) {
    const rel = ["alongside", "besides"].includes(toks[i].norm) || (toks[i].norm === "next" && toks[i + 1].norm === "to") || (toks[i].norm === "addition" && toks[i + 1]?.norm === "to");
    if (!rel) continue;
    const at = toks[i + 1].norm === "to" ? i + 2 : i + 1;
    const np = trimNoun(toks, at, s.end);
    if (np.end <= np.start || !isNamePhrase(toks, np)) continue;
    return alt(`Keep ${spanText(toks, np, { dropDeterminer: true })} only`, spanText(toks, np, { dropDeterminer: true }), termsForPhrase(toks, np), "incumbent");
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------------------
// Entry point

const TAG_PREFIX = /^\s*(?:\/\/+|#+|--|\/\*+|\*+|;+)?\s*(?:(?:todo|fixme|xxx)\s*(?:\([^)]*\))?\s*:?\s*)?(?:(?:decide|open question|question)\s*:\s*)?/i;
const STOP = new Set(
  ("a an the and or but if then for to of in on at by with from into onto over is are was were be been should would could can " +
    "will we our us you your it its this that these those there what which who how when where why than vs versus between instead " +
    "rather not no do does did have has had time right way better best good still just also keep use using adopt move migrate switch stop " +
    "i me my they them their as per about so own whether something anything think consider considering worth idea codebase pattern " +
    "patterns approach approaches option options tradeoff tradeoffs trade-off decision repo repository project thing things favour favor " +
    "prefer choice fit today now everywhere only always").split(" "),
);

function contentOf(text: string): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const raw of normaliseAbbreviations(text).split(/[^a-z0-9.+#_@/-]+/)) {
    for (const part of raw.split(/-(?:to-)?/)) {
      // The trailing trim starts only where a run starts: /x+$/ alone is quadratic on a long run of x then text.
      const w = part.replace(/^[._/-]+/, "").replace(/(?<![._/?-])[._/?-]+$/, "");
      if (w.length < 2 || /^\d+$/.test(w) || STOP.has(w) || seen.has(w)) continue;
      seen.add(w);
      out.push(w);
    }
  }
  return out;
}

/** What the question is about: its nouns and modifiers (not its verbs), minus stop words. */
function topicWords(sentences: Tok[][]): string[] {
  const out: string[] = [];
  for (const toks of sentences) {
    for (const t of toks) {
      if (!isNounish(t) || DETERMINERS.has(t.norm) || t.tags.has("Pronoun") || (isVerb(t) && !t.tags.has("Noun"))) continue;
      for (const w of contentOf(t.text)) if (!out.includes(w)) out.push(w);
    }
  }
  return out;
}

/** The purpose phrase: the object of the last "for" outside the alternatives. */
function purposeOf(toks: Tok[]): string | undefined {
  for (let i = toks.length - 2; i >= 0; i--) {
    if (toks[i].norm !== "for") continue;
    const text = spanText(toks, trimNoun(toks, i + 1, toks.length), { dropDeterminer: true });
    return text || undefined;
  }
  return undefined;
}

/** Splits a sentence into clauses at semicolons and colons. */
function clausesOf(toks: Tok[]): Tok[][] {
  const out: Tok[][] = [[]];
  for (const t of toks) {
    out[out.length - 1].push(t);
    if (/[;:]/.test(t.post) && !/^\d/.test(t.post)) out.push([]);
  }
  return out.filter((c) => c.length);
}

function asksSomething(toks: Tok[]): boolean {
  const first = toks.find((t) => !isConj(t) && !isAdverb(t));
  return !!first && (isModal(first) || isCopula(first) || WH.has(first.norm));
}

/**
 * A clause that can carry a proposal: it asks ("should we …", "is it …") or opens with a verb ("split the monolith
 * into services"). A statement ("retention rules differ from one product to another") proposes nothing: it is open.
 */
function proposes(toks: Tok[]): boolean {
  if (asksSomething(toks)) return true;
  const first = toks.find((t) => !isConj(t) && !isAdverb(t));
  return !!first && (first.tags.has("Imperative") || first.tags.has("Infinitive"));
}

/** Past this length the tagger reads only the asking sentence and a little context (its cost grows per sentence). */
export const MAX_READ_CHARS = 600;
const CONTEXT_SENTENCES = 2;

/**
 * The part of a long text the tagger reads: the first sentence that asks (else the last sentence) with up to two
 * sentences before it, then at most MAX_READ_CHARS of that, keeping the end where the asking sentence is. A
 * question is a few sentences, so this changes nothing for one; a decision record's paragraph stays cheap.
 */
function boundedForReading(text: string): string {
  if (text.length <= MAX_READ_CHARS) return text;
  const rough = text.split(/(?<=[.!?])\s+|\n+/).filter((x) => x.trim());
  const asks = rough.findIndex((x) => x.includes("?"));
  const last = asks >= 0 ? asks : rough.length - 1;
  const kept = rough.slice(Math.max(0, last - CONTEXT_SENTENCES), last + 1).join(" ");
  if (kept.length <= MAX_READ_CHARS) return kept;
  const tail = kept.slice(kept.length - MAX_READ_CHARS);
  const space = tail.indexOf(" ");
  return space >= 0 && space < MAX_READ_CHARS / 2 ? tail.slice(space + 1) : tail;
}

const memo = new Map<string, QuestionStructure>();

/** Reads the question's structure. Pure and deterministic (memoised: the synthesizer asks about each decision sentence). */
export function readQuestion(question: string): QuestionStructure {
  const hit = memo.get(question);
  if (hit) return structuredClone(hit);
  let value: QuestionStructure;
  try {
    value = readQuestionUncached(question);
  } catch {
    // A sentence the reader cannot take apart is an open question, never a failed deliberation.
    value = { form: "open", alternatives: [], topic: contentOf(question), text: question.trim() };
  }
  if (memo.size > 2000) memo.clear();
  memo.set(question, value);
  return structuredClone(value);
}

/** "Keep X, the way it does in Carrenza today, or move to Y?": an aside between commas right before "or" compares
 * with how things are; it is no alternative of its own, and without it the first alternative is the clause before. */
const ASIDE_BEFORE_OR = /,\s+(?:the way|just as|much as|as|like|which|where)\s[^,;:?]{1,100},(?=\s+or\s)/gi;
/** ", the way adr-tools does", ", just as the old farm did": wherever it stands, a comparison with how someone does it. */
const THE_WAY_ASIDE = /,\s+(?:the way|just as|much as)\s[^,;:?]{1,80}?\b(?:do|does|did|done|today|now)\b(?=\s*[,;:?]|\s*$)/gi;
function withoutAsideBeforeOr(text: string): string {
  return text.replace(ASIDE_BEFORE_OR, "").replace(THE_WAY_ASIDE, "");
}

function withoutDanglingCoordination(title: string): string {
  return title.replace(/,\s+(?:and|or|then)\s+[a-z]+$/, "");
}

/** The reader without the memo and the safety net (tests use it to find sentences it cannot take apart). */
export function readQuestionUncached(question: string): QuestionStructure {
  const text = withoutAsideBeforeOr(question.replace(TAG_PREFIX, "").replace(/[`*_]{1,2}([^`*_]+)[`*_]{1,2}/g, "$1").trim());
  const base: QuestionStructure = { form: "open", alternatives: [], topic: contentOf(text), text };
  if (!text) return base;
  const sentences = tokenize(boundedForReading(text)).filter((s) => s.length);
  if (!sentences.length) return base;
  base.topic = topicWords(sentences);
  // The sentence that asks (ends with "?"), else the last one; within it, the clause that asks or lists.
  const si = Math.max(0, sentences.findIndex((s) => /\?/.test(s[s.length - 1].post)));
  const asking = sentences.findIndex((s) => /\?/.test(s[s.length - 1].post)) >= 0 ? sentences[si] : sentences[sentences.length - 1];
  const clauses = clausesOf(asking);
  let ci = clauses.length - 1;
  for (let k = clauses.length - 1; k >= 0; k--) if (asksSomething(clauses[k])) {
    ci = k;
    break;
  }
  // "Which engine should render our layouts: Velocity, FreeMarker or Thymeleaf?": the list after the colon;
  // "Choosing between Swagger and RAML: which should we use?": the list before it.
  if (ci < clauses.length - 1 && WH.has(clauses[ci].find((t) => !isConj(t))?.norm ?? "")) ci = clauses.length - 1;
  if (!findConnectors(clauses[ci]).connectors.length) {
    const withList = clauses.findIndex((c) => findConnectors(c).connectors.length > 0);
    if (withList >= 0) ci = withList;
  }
  const whole = clauses[ci];
  // "…, so nothing is ever lost?": a result clause says why, never what is proposed.
  const so = whole.findIndex((t, k) => k > 2 && t.norm === "so" && /,/.test(whole[k - 1].post) && !["far", "on", "forth", "much", "many"].includes(whole[k + 1]?.norm ?? ""));
  const toks = so > 0 ? whole.slice(0, so) : whole;
  const context = [...sentences.slice(0, sentences.indexOf(asking)), ...clauses.slice(0, ci)];
  const clause = mainVerb(toks, 0, toks.length);
  const wh = WH.has(toks.find((t) => !isConj(t))?.norm ?? "");
  let found =
    readAlternatives(toks) ??
    readMigration(toks) ??
    readCopula(toks) ??
    readMoveTo(toks, clause) ??
    readKeepOrDrop(toks, clause) ??
    readAdopt(toks, clause) ??
    (wh || !proposes(toks) ? undefined : readAction(toks, clause));
  // A trailing "instead" ("… integrate Rspamd instead?") names the incumbent in the context.
  // "We deploy with Ansible today. Would Terraform be a better fit?": a comparative does the same.
  const replaces = toks.some((t, k) => t.norm === "instead" && !["of"].includes(toks[k + 1]?.norm ?? "")) || (context.length > 0 && toks.some((t) => t.tags.has("Comparative")));
  if (found?.alternatives?.length === 1 && found.target && replaces) {
    const inc = insteadIncumbent(context, toks, clause);
    if (inc) found = { form: "migration", alternatives: [inc, found.target], incumbent: inc, target: found.target };
  }
  if (found?.alternatives?.length === 1 && found.target && (found.form === "action" || found.form === "adopt")) {
    const inc = alongsideIncumbent(toks, { start: 0, end: toks.length });
    if (inc) {
      // What exists beside the proposal does not find the proposal.
      const target = { ...found.target, terms: found.target.terms.filter((t) => !inc.terms.includes(t)) };
      found = { ...found, alternatives: [target, inc], incumbent: inc, target };
    }
  }
  // Nothing without a readable title or with empty matching terms survives; a title cut off after ", and wait" ends
  // before the coordination it could not read.
  const alternatives = (found?.alternatives ?? [])
    .map((a) => ({ ...a, title: withoutDanglingCoordination(a.title) }))
    .filter((a) => /[a-z0-9]/i.test(a.title))
    .map((a) => ({ ...a, terms: a.terms.filter((t) => /[a-z0-9]/i.test(t)) }));
  if (!found || !alternatives.length) return base;
  if (found.incumbent) found.incumbent = alternatives.find((a) => a.title === withoutDanglingCoordination(found!.incumbent!.title));
  if (found.target) found.target = alternatives.find((a) => a.title === withoutDanglingCoordination(found!.target!.title));
  if (!found.incumbent) delete found.incumbent;
  if (!found.target) delete found.target;
  const named = new Set(alternatives.flatMap((a) => [...a.terms, ...contentOf(a.subject)]).flatMap((t) => t.split(/[\s-]+/)));
  const topic = base.topic.filter((w) => !named.has(w));
  const purpose = purposeOf(whole);
  return { ...base, ...found, form: found.form ?? "open", alternatives, topic, ...(purpose ? { purpose } : {}) };
}
