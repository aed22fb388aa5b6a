// A rule that names the library to use for a purpose, in the shape "Use structured logging (`tracing`)": the purpose
// word ("logging") and the chosen name (`tracing`) are both in the rule, so a newly added dependency or import whose
// name is made from the purpose word (`log`, `env_logger`) is another library for the same purpose and breaks the
// rule. No list of libraries: the purpose's own word is the key, and only dependencies and imports are read (a code
// line that says "log" is not a new library). Linear: one bounded pattern per rule text.
import type { LineRange } from "../schemas";
import type { DecidedThing } from "./decisions";
import { tokensOf } from "./names";

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
      keys: { display: `${m[2].toLowerCase()} (other than ${m[3]})`, tokens: [], stems: [stem], not: chosen },
      range,
      importsOnly: true,
      reason: `the rule names ${m[3]} for ${m[2].toLowerCase()}`,
    });
  }
  return out;
}
