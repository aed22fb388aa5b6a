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
