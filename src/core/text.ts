// Small text helpers shared by the core, the CLI and the extension. Zod-free and import-free, so the extension's
// activation path may use them.

/** The first line of an error's message (or of any thrown value), at most `max` characters: for one-line reports. */
export function oneLine(err: unknown, max = 300): string {
  const msg = err instanceof Error ? err.message : String(err);
  return (msg.split("\n")[0] ?? "").slice(0, max);
}

/** Code-unit order (not locale order): a deterministic tie-break for sorting ids and paths. */
export function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The text with its first character in upper case ("use Redis" → "Use Redis"). */
export function capitalise(s: string): string {
  return s.length ? s[0].toUpperCase() + s.slice(1) : s;
}

/** Whether a text closes every bracket, brace, backtick and double quote it opens: a cut inside code or a quotation does not. */
export function balanced(text: string): boolean {
  const count = (re: RegExp) => (text.match(re) ?? []).length;
  return count(/\{/g) === count(/\}/g) && count(/\(/g) === count(/\)/g) && count(/\[/g) === count(/\]/g) && count(/`/g) % 2 === 0 && count(/"/g) % 2 === 0;
}

/** Words a cut phrase never ends on: they open what was cut away ("… from the service and…", "… with a"). */
const OPENS_MORE = new Set(["a", "an", "the", "and", "or", "but", "nor", "of", "to", "for", "with", "without", "from", "in", "into", "on", "onto", "at", "by", "as", "via", "than", "that", "which", "who", "whose", "when", "where", "while", "if", "so", "because", "its", "their", "our", "your", "this", "these", "those", "be", "is", "are", "was", "were", "will", "would", "should", "can", "could", "may", "must", "not", "like", "such", "e.g", "i.e"]);

/**
 * A phrase of more than `max` words, cut to at most that many and marked with an ellipsis; shorter ones unchanged.
 * The cut never leaves an aside open ("… per profile (in addition to per…") or ends on a word that opens what
 * follows ("… from the service and…"): a shortened option still reads as a phrase.
 */
export function cutWords(text: string, max: number): string {
  const words = text.trim().split(/\s+/);
  if (words.length <= max) return text.trim();
  let kept = words.slice(0, max);
  // An opening bracket whose close was cut away: the cut goes before it.
  let depth = 0;
  let openedAt = -1;
  kept.forEach((w, i) => {
    for (const ch of w) {
      if (ch === "(" || ch === "[") {
        if (depth++ === 0) openedAt = i;
      } else if ((ch === ")" || ch === "]") && depth > 0) depth--;
    }
  });
  if (depth > 0 && openedAt >= 2) kept = kept.slice(0, openedAt);
  return `${withoutOpenEnd(kept).join(" ").replace(/[\s.,;:!([\u2013\u2014-]+$/, "")}…`;
}

/** The words of a phrase cut short, without the words at its end that open what was cut away (two stay at least). */
export function withoutOpenEnd(words: string[]): string[] {
  const bare = (w: string) => w.toLowerCase().replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, "");
  let n = words.length;
  while (n > 2 && (OPENS_MORE.has(bare(words[n - 1])) || !bare(words[n - 1]))) n--;
  return words.slice(0, n);
}

/**
 * The sentences of plain text (markup already taken out): a sentence ends at ". ", "! " or "? " before a capital, a
 * quote or a bracket, so "e.g. this", "v2.1" and "etc. and" do not end one.
 */
export function splitSentences(plain: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (let i = 0; i < plain.length; i++) {
    const c = plain[i];
    if ((c === "." || c === "!" || c === "?") && plain[i + 1] === " " && /[A-Z"“(]/.test(plain[i + 2] ?? "") && !/\b(?:e\.g|i\.e|etc|vs|cf)$/i.test(plain.slice(Math.max(0, i - 4), i))) {
      out.push(plain.slice(start, i + 1).trim());
      start = i + 2;
    }
  }
  if (start < plain.length) out.push(plain.slice(start).trim());
  return out.filter(Boolean);
}
