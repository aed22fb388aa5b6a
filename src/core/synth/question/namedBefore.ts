// "Half of our repos use Jest and half use Vitest. Which one should new packages pick?": a "which" question that lists
// nothing picks from the things the sentences before it name.
import type { Alternative } from "./types";
import { isNameLike, type Tok } from "./tokens";
import { nounAlternative } from "./titles";

/** At most this many names are read from the sentences before the question. */
const MAX_NAMED = 5;

/**
 * The names the sentences before a "which" question mention (runs of capitalised or name-shaped words, not at the
 * start of a sentence), as alternatives; none when fewer than two distinct names are found.
 */
export function namedBefore(context: Tok[][]): Alternative[] {
  const out: Alternative[] = [];
  const seen = new Set<string>();
  for (const sentence of context) {
    let k = 1;
    while (k < sentence.length) {
      if (!isName(sentence[k])) {
        k++;
        continue;
      }
      let end = k + 1;
      while (end < sentence.length && isName(sentence[end]) && !/[,;:]/.test(sentence[end - 1].post)) end++;
      const a = nounAlternative(sentence, { start: k, end }, "alternative");
      const key = a.title.toLowerCase();
      if (!seen.has(key)) {
        seen.add(key);
        out.push(a);
      }
      k = end;
    }
  }
  return out.length >= 2 && out.length <= MAX_NAMED ? out : [];
}

function isName(t: Tok): boolean {
  return /^[A-Z0-9]/.test(t.text) && isNameLike(t);
}
