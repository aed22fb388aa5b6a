// Whether a sentence states a goal rather than a choice. "We want to improve X", "Our aim is to reduce Y" say what the
// record is for; the option it picks to get there comes later. A goal read as the chosen option answers "what did
// they decide?" with "what did they want?", so such a sentence commits to nothing.

/** "we want to", "we would like to", "we aim to", "the goal is to", "our objective is to". */
const WANTING = /\b(?:(?:we|i)\s+(?:(?:really|also|still)\s+)?(?:want|wish|hope|aim|seek|strive|would\s+like|'d\s+like)\s+to|(?:goal|aim|objective|purpose|intent|intention|ambition)s?\s+(?:of\s+\S+\s+(?:\S+\s+)?)?(?:is|are|was|were)\s+to)\s+(\w+)/i;

/** Verbs that name an end, not a means: what the record wants to improve, not how. */
const END_VERBS = new Set([
  "improve", "increase", "reduce", "decrease", "minimise", "minimize", "maximise", "maximize", "ensure", "enable",
  "allow", "help", "support", "simplify", "avoid", "prevent", "speed", "lower", "raise", "better", "boost",
  "encourage", "foster", "promote", "streamline", "empower", "achieve",
]);

/**
 * Verbs that pick a means: "we want to use X" names X as the choice. Any other wanted action ("we want to offer CI to
 * the community", "we want to add support for v1") is what the record is for, and its choice comes later.
 */
const MEANS_VERBS = new Set(["use", "adopt", "choose", "pick", "select", "switch", "migrate", "move", "go", "keep", "stick", "stay", "replace", "standardise", "standardize"]);

/** True when `sentence` wants an end ("we want to improve the adoption of X") rather than choosing a means. */
export function statesAGoal(sentence: string): boolean {
  const m = WANTING.exec(sentence.slice(0, 400));
  if (m === null) return false;
  const verb = m[1].toLowerCase();
  // Any wanted action counts only where the sentence opens with the wish: "what we want to test" inside a clause
  // does not say what the record wants.
  const opens = sentence.slice(0, m.index).trim() === "";
  return END_VERBS.has(verb) || (opens && !MEANS_VERBS.has(verb));
}

/** Qualities a record values: "favour consistency over simplicity" ranks values; the option that serves them comes later. */
const VALUE_NOUN = /^(?:consistency|simplicity|flexibility|reliability|security|safety|performance|speed|stability|maintainability|readability|usability|scalability|portability|clarity|correctness|robustness|predictability|transparency|efficiency|quality|convenience|compatibility)$/i;

/** True when `phrase` names only a quality ("consistency", "long-term maintainability"), not a thing or an approach. */
export function namesAValue(phrase: string): boolean {
  const words = phrase.trim().split(/\s+/);
  return words.length <= 2 && VALUE_NOUN.test(words[words.length - 1]);
}
