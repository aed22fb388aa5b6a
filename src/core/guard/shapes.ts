// Code shapes a decision turns down by example: "Instead of `!!someVariable` prefer `Boolean(someVariable)`" writes
// the shape it does not want with a stand-in name (`someVariable`, `foo`): any code line that writes that shape with
// any name (`!!links?.length`) goes against it. Only an example with a stand-in name and an operator or call around it
// is read, so a plain name (`someFunction`) or a call without one (`Boolean(x)`) is no shape. Linear: the shape is
// a regular expression of the example's own characters around one identifier pattern, with no nested repetition.

/** A stand-in name an example writes for any name: `someVariable`, `myValue`, `foo`, `bar`. */
const STAND_IN = /\b(?:(?:some|my|your|any)[A-Z]\w{0,30}|foo|bar|baz)\b/;

/** What a stand-in name stands for in code: an identifier with member accesses (`links?.length`, `this.x`, `a[0]`). */
const ANY_NAME = String.raw`[A-Za-z_$][\w$]*(?:\??\.[A-Za-z_$][\w$]*|\[[^\]\n]{0,40}\])*`;

/** The regular expression of an example's shape, or undefined when the example is no shape. */
export function shapeOf(example: string): RegExp | undefined {
  const text = example.replace(/^`|`$/g, "").trim();
  if (text.length > 60 || /\s{2,}/.test(text)) return undefined;
  const m = STAND_IN.exec(text);
  if (!m) return undefined;
  const before = text.slice(0, m.index);
  const after = text.slice(m.index + m[0].length);
  // The shape is what surrounds the stand-in: at least two characters of operators or punctuation, not words alone.
  const around = `${before}${after}`.replace(/[\w\s]/g, "");
  if (around.length < 2 || STAND_IN.test(after)) return undefined;
  const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/\s+/g, "\\s*");
  // An operator that opens the example (`!!`) must not be part of a longer one (`!!!`); a word must start a word.
  const lead = before && /^[^\w\s]/.test(before) ? `(?<![${escClass(before[0])}])` : before ? "\\b" : "";
  return new RegExp(`${lead}${esc(before)}\\s*${ANY_NAME}\\s*${esc(after)}`);
}

function escClass(c: string): string {
  return c.replace(/[\]\\^-]/g, "\\$&");
}
