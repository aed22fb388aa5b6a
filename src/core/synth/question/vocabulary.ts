// Word classes the question grammar reads by: prepositions, determiners, pronouns, and the verbs that move, replace,
// keep, drop, adopt or place something. Plain sets of lower-case words; no tagging here.

/** Prepositions, whatever compromise tagged them ("in front of" comes back as adjectives). */
export const PREPS = new Set(
  "in on at by with from to into onto for of per via through over under behind across within without inside outside about between towards toward against after before during like than as upon beside besides alongside beyond throughout".split(
    " ",
  ),
);
/** Subordinators that open an adverbial alternative: "publish on every merge, or only when we cut a release". */
export const SUBORDINATORS = new Set(["when", "whenever", "once", "after", "before", "if", "unless", "while", "until"]);
/** Words before a preposition that make its object context, not an alternative: "in front of the API". */
export const RELATIONAL = new Set(["front", "top", "behind", "next", "instead", "ahead", "beside", "alongside", "between", "around", "besides", "addition"]);
/** Prepositions after which a phrase says what for, not what: shared by every alternative. */
export const PURPOSE = new Set(["for", "when", "because", "since", "so", "given", "if", "unless", "while", "once", "whenever"]);
export const DETERMINERS = new Set(["the", "a", "an", "our", "its", "their", "my", "your", "this", "that", "these", "those", "some", "any", "each", "every", "his", "her"]);
export const PRONOUNS = new Set(["we", "i", "you", "us", "they", "it", "one", "someone", "anyone", "them", "those", "these", "this", "that"]);
/** Words that only count or point ("them all", "both of those"): with pronouns and determiners, never a name. */
export const QUANTIFIERS = new Set(["all", "both", "each", "every", "none", "some", "any", "most", "many", "few", "several", "of", "ones"]);
export const PERSONAL = new Set(["we", "i", "you", "us", "one", "someone", "anyone", "people", "developers", "engineers", "team"]);
export const WH = new Set(["which", "what", "how", "where", "when", "who", "whom", "whose", "why", "what's", "how's", "where's", "who's", "which's"]);
/** Verbs that carry the question, not the alternative: "should we consider moving …", "do we need to …". */
export const LIGHT_VERBS = new Set(["consider", "think", "want", "need", "plan", "start", "begin", "try", "decide", "worth", "make", "mean", "propose", "suggest", "wonder", "look", "evaluate", "explore", "time", "have", "ought", "continue"]);
/** Words the tagger sometimes calls adjectives or nouns that never belong to a noun phrase. */
export const NEVER_NOUNISH = new Set(["worth", "still", "also", "even", "just", "really", "only", "already", "currently", "now", "then", "instead", "rather", "yet", "too", "either", "else", "always", "never", "locally", "directly", "everywhere", "anymore"]);

export const MOVE_VERBS = new Set(["move", "migrate", "switch", "port", "transition", "shift", "convert", "transfer", "go", "change", "upgrade", "downgrade", "rewrite", "migration", "switchover"]);
/** Prepositions that name where something moves to: "move X onto B". */
export const DESTINATIONS = new Set(["to", "onto", "into", "towards", "toward"]);
export const REPLACE_VERBS = new Set(["replace", "swap", "substitute", "exchange", "trade"]);
export const KEEP_VERBS = new Set(["keep", "continue", "stick", "stay", "remain", "retain", "maintain", "preserve"]);
export const DROP_VERBS = new Set(["stop", "drop", "remove", "retire", "deprecate", "abandon", "ditch", "eliminate", "discontinue", "sunset", "kill", "delete"]);
export const ADOPT_VERBS = new Set(["adopt", "introduce", "use", "add", "try", "embrace", "enable", "include", "employ", "utilize", "utilise", "leverage", "integrate", "implement", "bring", "pick", "choose", "select"]);
/** Verbs that place their object somewhere: the place is the alternative ("store uploads on the local disk"). */
export const PLACEMENT_VERBS = new Set(["store", "keep", "put", "save", "host", "persist", "run", "deploy", "cache", "write", "place", "hold", "serve", "live", "locate", "stash", "archive", "log", "publish", "queue", "schedule", "rely", "depend", "build", "base"]);
/** Verbs that only say "pick one": the alternatives are titled by themselves. */
export const CHOICE_VERBS = new Set(["prefer", "favour", "favor", "choose", "pick", "select", "recommend", "want", "go", "take", "decide", "use", "standardize", "standardise", "adopt"]);
export const LINKING_VERBS = new Set(["stay", "remain", "become", "seem", "look", "feel", "get"]);
export const DECISION_VERBS = new Set([...MOVE_VERBS, ...REPLACE_VERBS, ...KEEP_VERBS, ...DROP_VERBS, ...ADOPT_VERBS, ...PLACEMENT_VERBS, "talk", "call", "target", "pay", "track", "purge", "cap", "route", "poll", "subscribe", "read", "install", "leave", "fold", "split", "merge", "encrypt", "own"]);
/** Where or with what something is done: what verb-phrase alternatives usually differ in. */
export const LOCATIVE = ["in", "on", "at", "with", "via", "through", "inside", "within", "using", "behind", "per", "by"];

export const JUDGEMENTS = new Set(["choice", "fit", "option", "worth", "enough", "needed", "necessary", "right", "good", "best", "appropriate", "suitable", "sensible", "idea", "answer", "tool", "fine", "ok", "okay", "way", "direction", "sufficient", "acceptable", "adequate", "overkill", "too"]);
