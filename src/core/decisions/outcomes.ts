// Whether a phrase read as a choice says what happens instead of naming what was chosen. A decision sentence read
// word by word sometimes yields its predicate ("result in more load", "need two counters", "be done later") or a
// whole clause that says what may happen ("old clients could read stale data", "an error arises"). Such a reading is
// a consequence, a requirement or a description, never an option weighed against others, so it should lose to a
// better candidate.

/** Verbs that report an effect, a need or a state, not an action someone chose to take; "agree on X" and "decide
 * how X" put the choice off rather than make it. */
const OUTCOME_OPENING =
  /^(?:be|been|being|is|are|was|were|has|had|needs?(?!\s+to\b)|needed(?!\s+to\b)|results?|resulting|leads?|causes?|happens?|happening|affects?|means|refers?|seems?|depends?|requires|becomes?|arises?|occurs?|explain|describe|discuss|outline|agree (?:on|upon)|decide (?:on|whether|how|which|what|when))\b/i;

/**
 * A subject, then a modal of possibility that starts the predicate: "old clients could read stale data". What may
 * happen is a risk the record describes; "the cache will be dropped" (a firm modal) is what it decided.
 */
const MODAL_PREDICATE = /^[\w`'"-]+(?:\s+[\w`'"-]+){0,5}?\s+(?:could|can|may|might)\s+\w+/i;

/** A short subject, then a verb of happening: "an error arises when …", "the import fails on …". */
const SUBJECT_HAPPENS = /^(?:(?:a|an|the|this|that|each|every|any)\s+)?[\w-]+(?:\s+[\w-]+)?\s+(?:arises|occurs|happens|fails|breaks|crashes)\b/i;

/** "a job that can run nightly": a relative clause belongs to the name before it. */
const RELATIVE = /\b(?:that|which|who|where)\s+(?:could|can|may|might)\b/i;

/** True when `phrase` (a reading of a decision sentence) states an outcome or a whole clause rather than a choice. */
export function statesAnOutcome(phrase: string): boolean {
  const text = phrase.slice(0, 400).trim();
  if (OUTCOME_OPENING.test(text)) return true;
  if (SUBJECT_HAPPENS.test(text)) return true;
  return MODAL_PREDICATE.test(text) && !RELATIVE.test(text);
}
