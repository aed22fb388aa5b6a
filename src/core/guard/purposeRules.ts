// A rule that names the library to use for a purpose, in the shape "Use structured logging (`tracing`)": the purpose
// word ("logging") and the chosen name (`tracing`) are both in the rule, so a newly added dependency or import whose
// name is made from the purpose word (`log`, `env_logger`) is another library for the same purpose and breaks the
// rule. No list of libraries: the purpose's own word is the key, and only dependencies and imports are read (a code
// line that says "log" is not a new library). Linear: one bounded pattern per rule text.
import type { LineRange } from "../schemas";
import type { DecidedThing } from "./decisions";
import { GENERIC_PURPOSES, keysOf, LEADING_WORDS, tokensOf, type NameKeys } from "./names";

/** "use [one or two qualifiers] <purpose> (`chosen`": the purpose word right before a parenthesised code span. */
// Lower-case words only: "Use JSpecify annotations (`@Nullable`, …)" names its library before the parenthesis.
const PURPOSE_IN_PARENS = /\b[Uu]se\s+((?:[a-z][a-z-]{0,30}\s+){0,2}?)([a-z]{4,30})\s*\(\s*`([^`]{1,60})`/g;

/** Inflections a purpose word carries that a library's name does not ("logging" → "log", "errors" → "error"). */
export function purposeStem(word: string): string | undefined {
  const w = word.toLowerCase();
  const stem = w.replace(/(?:([a-z])\1ing|ing|s)$/, (_m, doubled: string | undefined) => doubled ?? "");
  return stem.length >= 3 ? stem : undefined;
}

/** The "other libraries for this purpose" a rule turns down, each keyed by the purpose's stem. */
export function purposeExclusions(text: string, range: LineRange): DecidedThing[] {
  const out: DecidedThing[] = [];
  for (const m of text.slice(0, 600).matchAll(PURPOSE_IN_PARENS)) {
    const stem = purposeStem(m[2]);
    if (!stem) continue;
    const chosen = tokensOf(m[3]);
    // A chosen name made from the purpose word ("`logger`" for logging) leaves nothing to tell the others by.
    if (chosen.some((t) => t.startsWith(stem))) continue;
    out.push({
      name: `another ${m[2].toLowerCase()} library than ${m[3]}`,
      // A name that holds the chosen one (`tracing-log`) is that library's bridge or plugin, not another library.
      keys: { display: `${m[2].toLowerCase()} (other than ${m[3]})`, tokens: [], stems: [stem], not: chosen, notNames: [{ display: m[3], tokens: chosen }] },
      range,
      importsOnly: true,
      reason: `the rule names ${m[3]} for ${m[2].toLowerCase()}`,
    });
  }
  return out;
}

// ----- purposes named by a label, a "for" phrase or a turned-down category (issue 22, third round) -----
//
// More shapes of the same idea, all read from the rule's own words: "**Fixtures:** model-bakery for model factories"
// (the label and the "for" phrase are the purpose; model-bakery is the chosen one), "Koin for dependency injection"
// under "Agents MUST use:", and a category turned down whole ("Avoid mocking frameworks", "MUST NOT add telemetry,
// analytics, ads, or tracking"). The purpose word's stem keys the others ("factory" for `factory-boy`, "mock" for
// `requests-mock`, "i18n" for `react-i18next`). These are weaker than a name, so only a newly added dependency breaks
// them (a manifest line, not an import of the project's own "telemetry" module), and a line that names the chosen
// library is that library (`org.koin.core.component.inject` is Koin's). A purpose word the guard treats as generic
// ("testing", "database", "code", "styling") keys nothing: too many libraries carry it.

/** A bold or underlined label and its value: "**Fixtures:** model-bakery …", "- **Data Fetching**: SWR …". */
const LABELLED = /(?<=^|\s)(?:\*\*([^*:]{1,40}):\*\*|\*\*([^*:]{1,40})\*\*\s{0,2}:|__([^_:]{1,40})__\s{0,2}:)\s*([^*_]{1,200})/g;
/** Words of a label: a purpose is named in one or two ("Fixtures", "Data Fetching"), not a phrase ("Keep working code"). */
const MAX_LABEL_WORDS = 2;
/** The chosen part of a value is a name of a few words ("responses library"), not an instruction. */
const MAX_CHOSEN_WORDS = 3;
/** "use <name> for …": the chosen name is one to three name-like words or a code span; forPurpose reads the rest. */
const NAMED_FOR = /\b[Uu]se\s+(`[^`]{1,60}`|[\w@./-]{2,40}(?:\s+[A-Z][\w.-]{1,30}){0,2})\s+for\s+/g;

/** The purpose of a "for" phrase: its last word, up to three words in ("for HTTP mocks" → "mocks", "for dependency injection" → "injection"). */
function forPurpose(phrase: string): string | undefined {
  const words = phrase.slice(0, 120).split(/[.,;:()!?]|\s(?:and|or|with|via|in|unless|when)\s/)[0].trim().split(/\s+/);
  // One word, or a noun and the purpose ("dependency injection", "model factories"); an adjective makes it a manner
  // ("functional programming"), and a longer phrase a description ("real database/service instances").
  if (words.length > 2 || (words.length === 2 && ADJECTIVE.test(words[0]))) return undefined;
  const last = words.at(-1);
  return last && /^[a-z][a-z0-9]{3,30}$/.test(last) ? last : undefined;
}

const ADJECTIVE = /(?:al|ic|ive|ous|ful|ent|ant|ary|less|able|ible)$/i;
/** A qualifier after the object ("… with known vulnerabilities"); "of any kind" only stresses the category. */
const QUALIFIED = /\s(?:with|without|that|which|from|in|on|for|to|of(?!\s+any\s+(?:kind|sort|type)))\s/i;
/** Nouns that make a purpose word a category ("mocking frameworks"). */
const CATEGORY_NOUN = /^(?:frameworks?|librar(?:y|ies)|tools?|packages?|dependenc(?:y|ies)|sdks?|services?)$/i;

/** A word shaped like a purpose or a kind of tool ("mocking", "fixtures", "injection", "i18n"), not a domain ("Email", "Phone"). */
const PURPOSE_SHAPED = /(?:ing|[^s]s|ion)$|^[a-z]\d{1,2}[a-z]$/i;

/** A purpose word's stem for library names: "factories" → "factory", "mocking" → "mock", "injection" → "inject". */
export function purposeWordStem(word: string): string | undefined {
  const w = word.toLowerCase();
  if (!/^[a-z][a-z0-9]{3,30}$/.test(w) || GENERIC_PURPOSES.has(w)) return undefined;
  const stem = w.endsWith("ies") ? `${w.slice(0, -3)}y` : w.endsWith("tion") ? w.slice(0, -3) : (purposeStem(w) ?? w);
  return stem.length >= 4 && !GENERIC_PURPOSES.has(stem) ? stem : undefined;
}

/** The chosen names of a rule value ("model-bakery", "responses library", "Fluent (@fluent/react)"), as name keys. */
function chosenKeys(value: string): NameKeys[] {
  const head = value.split(/\s(?:for|via|with|when|to)\s|[;.]\s/)[0];
  const out: NameKeys[] = [];
  for (const part of head.split(/[(),]|\s(?:and|or)\s/)) {
    // "responses library": a value leads with its name, even in lower case and even when the word is a common one.
    const first = part.trim().split(/\s+/)[0] ?? "";
    const keys = keysOf(part.trim()) ?? keysOf(first) ?? (/^[a-z][\w.-]{2,40}$/.test(first) ? { display: first, tokens: tokensOf(first) } : undefined);
    if (keys) out.push(keys);
  }
  return out;
}

function stemThing(stem: string, purpose: string, chosen: NameKeys[], chosenText: string, range: LineRange): DecidedThing {
  return {
    name: chosenText ? `another ${purpose} library than ${chosenText}` : `a ${purpose} library`,
    keys: { display: chosenText ? `${purpose} (other than ${chosenText})` : purpose, tokens: [], stems: [stem], ...(chosen.length ? { notNames: chosen } : {}) },
    range,
    dependencyOnly: true,
    reason: chosenText ? `the rule names ${chosenText} for ${purpose}` : `the rule turns down ${purpose}`,
  };
}

/** Purposes a rule names with the library chosen for each (labels, "use X for Y"), each keyed by its stem. */
export function labelledPurposes(text: string, range: LineRange): DecidedThing[] {
  const out: DecidedThing[] = [];
  // Most rules have neither a label nor "use … for": nothing to scan.
  if (!text.includes("**") && !text.includes("__") && !/\b[Uu]se\s/.test(text)) return out;
  const add = (purposeWords: string[], value: string) => {
    const head = value.split(/\s(?:for|via|with|when|to|in)\s|[(,;]|\.\s|\.$/)[0].trim();
    if (!head || head.split(/\s+/).length > MAX_CHOSEN_WORDS) return;
    // A name ("SWR", "model-bakery", "responses library"), not an instruction ("Change type definitions").
    const [first, ...rest] = head.replace(/[`*]/g, "").split(/\s+/);
    if (LEADING_WORDS.has(first.toLowerCase())) return;
    if (!keysOf(head) && !(/^[a-z@][\w@./-]*$/.test(first) && rest.every((w) => GENERIC_PURPOSES.has(w.toLowerCase())))) return;
    const chosen = chosenKeys(value);
    if (!chosen.length) return;
    const chosenText = stripInlineName(value.split(/\s(?:for|via|with)\s|[;.]\s/)[0]);
    const chosenTokens = new Set(chosen.flatMap((k) => [...(k.exact ?? []), ...k.tokens]));
    for (const w of purposeWords) {
      const stem = PURPOSE_SHAPED.test(w) ? purposeWordStem(w) : undefined;
      // A chosen name made from the purpose word ("coverage.py" for coverage) leaves nothing to tell the others by.
      if (!stem || [...chosenTokens].some((t) => t.startsWith(stem)) || out.some((o) => o.keys.stems?.[0] === stem)) continue;
      out.push(stemThing(stem, w.toLowerCase(), chosen, chosenText, range));
    }
  };
  const capped = text.slice(0, 1200);
  for (const m of capped.matchAll(LABELLED)) {
    const label = (m[1] ?? m[2] ?? m[3] ?? "").trim();
    const value = m[4].trim();
    const labelWords = label.split(/[\s/&-]+/).filter((w) => /^[A-Za-z][A-Za-z0-9]+$/.test(w));
    if (!labelWords.length || labelWords.length > MAX_LABEL_WORDS) continue;
    const forAt = /\bfor\s+/.exec(value);
    const forWord = forAt ? forPurpose(value.slice(forAt.index + forAt[0].length)) : undefined;
    add([...labelWords, ...(forWord ? [forWord] : [])], value);
  }
  for (const m of capped.matchAll(NAMED_FOR)) {
    const purpose = forPurpose(capped.slice(m.index + m[0].length));
    if (purpose) add([purpose], m[1]);
  }
  return out;
}

/** A category a forbidding rule turns down whole: "mocking frameworks", or a list of bare nouns ("telemetry, analytics"). */
export function categoryExclusions(object: string, range: LineRange): DecidedThing[] {
  const out: DecidedThing[] = [];
  // Categories are lower-case words: a name, a path or a sentence is none.
  if (!/^[a-z][a-z0-9 ,-]{0,199}$/.test(object.slice(0, 200))) return out;
  // "dependencies with known vulnerabilities", "permissions without explicit request": a kind of thing, not a category.
  if (QUALIFIED.test(object.slice(0, 200))) return out;
  const items = object.slice(0, 200).replace(/\bof any kind\b.*$/i, "").split(/,\s*|\s+(?:or|and|nor)\s+/).map((s) => s.trim().replace(/^(?:or|and)\s+/, "")).filter(Boolean);
  if (!items.length || items.length > 6) return out;
  for (const item of items) {
    const words = item.split(/\s+/);
    // One lower-case noun, or a purpose word and a category noun; a qualified item ("insecure cryptography") is a kind of thing, not a category.
    const word = words.length === 1 ? words[0] : words.length === 2 && CATEGORY_NOUN.test(words[1]) ? words[0] : undefined;
    if (!word || !/^[a-z][a-z0-9]+$/.test(word)) continue;
    const stem = purposeWordStem(word);
    if (stem && !out.some((o) => o.keys.stems?.[0] === stem)) out.push(stemThing(stem, word, [], "", range));
  }
  return out;
}

const stripInlineName = (s: string) => s.replace(/[`*_]/g, "").replace(/\s+/g, " ").trim().slice(0, 80);
