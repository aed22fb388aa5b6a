// Lazy access to compromise: a turn-cache hit answers without classifying or reading the question, and must not pay
// for the parser's start-up. The classifier and the question reader share this one instance (one lexicon).
import type Nlp from "compromise";

let loaded: typeof Nlp | undefined;

export function compromise(): typeof Nlp {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- deferred on purpose (see above)
  loaded ??= (require("./nlpModule") as typeof import("./nlpModule")).nlp;
  return loaded;
}
