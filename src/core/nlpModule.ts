// The English parser (compromise), imported in exactly one place. Only ./nlp.ts requires this module, on first use,
// so the bundle evaluates compromise's lexicon set-up (~100 ms) only when a question is actually read.
import nlp from "compromise";

export { nlp };
