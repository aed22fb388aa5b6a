// Whether a phrase read from a record's prose names anything. A decision sentence read word by word sometimes yields
// a piece of the sentence ("find a way", "look like", "this position change") instead of the thing it decided; such a
// piece is worse than no reading, so the decision model keeps no chosen option rather than a fragment.

/** Verbs that carry no choice by themselves ("find a way", "make it so"). */
const GENERIC_VERBS = new Set([
  "find", "look", "be", "do", "make", "get", "have", "go", "see", "try", "take", "give", "come", "work", "seem", "need",
  "want", "help", "start", "continue", "consider", "think", "know", "say", "keep", "proceed", "move", "implement", "done",
]);
/** Nouns that stand for some option without naming one ("a way", "the approach", "this change", "a structure"). */
const GENERIC_NOUNS = new Set([
  "way", "ways", "thing", "things", "something", "anything", "nothing", "one", "ones", "approach", "solution", "option",
  "options", "change", "changes", "position", "idea", "method", "step", "steps", "stuff", "lot", "bit", "part", "case",
  "point", "time", "place", "above", "below", "following", "same", "instead", "structure", "format", "convention",
  "pattern", "process", "standard", "strategy", "policy", "mechanism", "system",
]);
/** Words that name nothing by themselves. */
const FUNCTION_WORDS = new Set([
  "a", "an", "the", "to", "of", "for", "with", "in", "on", "at", "by", "as", "like", "and", "or", "that", "this",
  "these", "those", "such", "from", "into", "than", "then", "so", "but", "not", "no", "its", "their", "our", "we", "it",
  "is", "are", "be", "been", "was", "were", "will", "would", "should", "can", "could", "which", "what", "how", "there",
]);
/** Words that point back at something said elsewhere; a phrase that opens with one names nothing on its own. */
const POINTING = /^(?:this|that|these|those|such|it|they|them)$/;

/** "see the rollout section", "refer to the appendix below": a pointer to another part of the record names nothing. */
const SECTION_POINTER = /^(?:see|refer to|read|check|consult)\b.{0,200}?\b(?:section|sections|below|above|appendix|chapter)\b/;

/** "find a way to X", "figure out how to X": a goal still to be met, not something chosen. */
const SEARCHING = /^(?:find|finding|look for|figure out|work out|explore|investigate)\s(?:a way|ways|how|some way|an? (?:approach|solution|option))\b/;

/** "implemented", "finding", "looks" → the verb they inflect, when it is a generic one. */
function genericVerb(w: string): boolean {
  if (GENERIC_VERBS.has(w)) return true;
  const base = w.replace(/(?:ed|ing|s)$/, "");
  return base.length >= 2 && (GENERIC_VERBS.has(base) || GENERIC_VERBS.has(`${base}e`));
}

/**
 * True when `phrase` is a piece of a sentence rather than the name of something chosen: it points back at something
 * said elsewhere ("this position change"), or holds nothing but function words, generic verbs and generic nouns
 * ("find a way", "look like", "be done"). A name cut off after its content ("a lambda function to achieve this")
 * still names something.
 */
export function isFragment(phrase: string): boolean {
  const words = phrase.slice(0, 400).toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  if (words.length === 0) return true;
  if (POINTING.test(words[0])) return true;
  if (SEARCHING.test(words.slice(0, 4).join(" "))) return true;
  if (SECTION_POINTER.test(phrase.slice(0, 400).toLowerCase())) return true;
  return words.every((w) => FUNCTION_WORDS.has(w) || genericVerb(w) || GENERIC_NOUNS.has(w));
}
