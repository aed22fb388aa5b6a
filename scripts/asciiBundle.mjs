// A bundle that is pure ASCII loads faster: Node decodes it into a one-byte string (a fast copy), where a single
// non-ASCII character makes the whole 5 MB source a two-byte string, decoded character by character and twice the
// size for V8 to scan and hash. esbuild already escapes non-ASCII characters in strings and templates; it leaves
// them in regular expression literals and in comments it keeps. This rewrites exactly those as \u escapes, which
// mean the same in both places; the file is left as it is when any non-ASCII character stands anywhere else, or
// when the parser (acorn, which ESLint brings) is not installed.
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";

const NON_ASCII = /[^\x00-\x7f]/u;

export function asciiOnlyBundle(file) {
  const source = readFileSync(file, "utf8");
  if (!NON_ASCII.test(source)) return "ascii already";
  let acorn;
  try {
    acorn = createRequire(import.meta.url)("acorn");
  } catch {
    return "left as is (acorn not installed)";
  }
  const spans = [];
  acorn.parse(source, {
    ecmaVersion: "latest",
    sourceType: "script",
    allowHashBang: true,
    allowReturnOutsideFunction: true,
    onComment: (_block, _text, start, end) => spans.push({ start, end, regex: false }),
    onToken: (t) => {
      if (t.type === acorn.tokTypes.regexp) spans.push({ start: t.start, end: t.end, regex: true });
    },
  });
  spans.sort((a, b) => a.start - b.start);
  let out = "";
  let at = 0;
  let span = 0;
  for (let i = 0; i < source.length; i++) {
    const code = source.charCodeAt(i);
    if (code < 0x80) continue;
    while (span < spans.length && spans[span].end <= i) span++;
    const inside = spans[span] && spans[span].start <= i;
    if (!inside) return `left as is (a non-ASCII character outside a regular expression or comment at ${i})`;
    // An identity escape of the character ("\–" in a regular expression without the u flag) becomes its \u escape.
    let backslashes = 0;
    while (spans[span].regex && source.charCodeAt(i - 1 - backslashes) === 0x5c) backslashes++;
    out += source.slice(at, backslashes % 2 ? i - 1 : i) + `\\u${code.toString(16).padStart(4, "0")}`;
    at = i + 1;
  }
  writeFileSync(file, out + source.slice(at));
  return "escaped";
}
