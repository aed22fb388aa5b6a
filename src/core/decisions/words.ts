// Words of headings and phrases as the decision readers compare them: heading keys, content words, coverage.
import { stripInline } from "../internal/markdown";
import { MAX_SENTENCE_CHARS } from "./prose";

/** Heading text as a key: no numbering, anchors, trailing colon or emphasis. */
export function headingKey(heading: string): string {
  return stripInline(heading)
    .replace(/\{#[^}]*\}/g, "")
    .toLowerCase()
    .replace(/^\d+(?:\.\d+)*[.)]?\s+/, "")
    .replace(/[:.]+$/, "")
    .trim();
}

const STOP = new Set([
  "a", "an", "the", "and", "or", "of", "to", "in", "on", "for", "with", "by", "as", "at", "is", "are", "be", "it", "its",
  "we", "our", "use", "using", "option", "via", "from", "into", "that", "this", "all", "only", "do", "not", "no",
]);

/** Content words of a phrase, lightly stemmed ("streaming" and "streams" both give "stream"). */
export function contentWordsOf(phrase: string): string[] {
  const out: string[] = [];
  for (const w of stripInline(phrase.slice(0, MAX_SENTENCE_CHARS)).toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
    if (!w || STOP.has(w)) continue;
    out.push(stem(w));
  }
  return out;
}

function stem(w: string): string {
  if (w.length > 5 && w.endsWith("ing")) return w.slice(0, -3);
  if (w.length > 4 && w.endsWith("ies")) return `${w.slice(0, -3)}y`;
  if (w.length > 4 && w.endsWith("ed")) return w.slice(0, -2);
  if (w.length > 3 && w.endsWith("s") && !w.endsWith("ss")) return w.slice(0, -1);
  return w;
}

/** Share of `phrase`'s content words that occur in `text` (0 when the phrase has none). */
export function coverage(phrase: string, text: string): number {
  const want = [...new Set(contentWordsOf(phrase))];
  if (want.length === 0) return 0;
  const have = new Set(contentWordsOf(text));
  return want.filter((w) => have.has(w)).length / want.length;
}

