// Output hygiene. Text that came from the repository (ADR titles, file names, commit subjects), a model or the web
// may carry terminal control sequences: `ESC ] 0 ; … BEL` retitles the window, `ESC [ 2 J` clears the screen, OSC 8
// forges hyperlinks, a bare CR overwrites a line. Everything the CLI prints passes through `terminalSafe`, which
// removes ANSI/ECMA-48 escape sequences (CSI, OSC, DCS, SOS, PM, APC, and two-byte ESC sequences, in their 7-bit and
// 8-bit forms) and every remaining C0 / C1 control character except newline and tab.
// Text can also lie without a terminal escape: a bidi override (U+202E) shows `txt.exe` as `exe.txt` and reorders
// a command or a path in front of the reader; zero-width and other invisible format characters make two different
// strings look the same or hide text (Unicode tag characters spell invisible ASCII an agent still reads). So
// `invisibleSafe` removes them from everything printed, written into an ADR or shown in the webview; terminalSafe
// includes it.

// An escape sequence that runs to a string terminator: OSC, DCS, SOS, PM, APC (7-bit `ESC ]`, `ESC P`, `ESC X`,
// `ESC ^`, `ESC _`, or their 8-bit C1 forms), ended by BEL, `ESC \` or the 8-bit ST — or by the end of the text.
const STRING_SEQUENCE = /(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[\s\S]*?(?:\x07|\x1b\\|\x9c|$)/g;
// CSI: `ESC [` or 8-bit 0x9b, parameter bytes, intermediate bytes, one final byte (or the end of the text).
const CSI_SEQUENCE = /(?:\x1b\[|\x9b)[\x30-\x3f]*[\x20-\x2f]*(?:[\x40-\x7e]|$)/g;
// Any other escape: ESC, optional intermediates, one final byte.
const ESC_SEQUENCE = /\x1b[\x20-\x2f]*[\x30-\x7e]?/g;
// What is left: C0 controls except TAB and LF, DEL, and the C1 block.
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

// Bidirectional formatting controls: ALM, LRM, RLM, the embeddings and overrides LRE RLE PDF LRO RLO, and the
// isolates LRI RLI FSI PDI. Questions, pick reasons and ADR titles with one are refused (hasControlChars).
const BIDI = "\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069";
// Invisible format characters no text needs: Mongolian vowel separator, zero-width space, word joiner, the invisible
// math operators, the deprecated format characters, BOM / zero-width no-break space, interlinear annotation marks,
// and the Unicode tag characters (U+E0001, U+E0020-U+E007F).
const INVISIBLE = "\\u180e\\u200b\\u2060-\\u2064\\u206a-\\u206f\\ufeff\\ufff9-\\ufffb\\u{e0001}\\u{e0020}-\\u{e007f}";
// ZWNJ and ZWJ are needed inside words of scripts that shape letters (Persian, Arabic, the Indic scripts) and inside
// emoji sequences (👩‍💻), so they stay between two such characters and go everywhere else, e.g. between ASCII letters.
const JOINS = "[\\p{L}\\p{M}\\p{Extended_Pictographic}\\p{Emoji_Modifier}\\ufe0f]";
const STRAY_JOINER = `(?<!${JOINS})[\\u200c\\u200d]|(?<=[\\x00-\\x7f])[\\u200c\\u200d]|[\\u200c\\u200d](?!${JOINS})|[\\u200c\\u200d](?=[\\x00-\\x7f])`;
// A subdivision flag (🏴 + tag letters + cancel tag, e.g. England) is the one legitimate use of tag characters: kept.
const TAG_FLAG = "\\u{1f3f4}[\\u{e0030}-\\u{e0039}\\u{e0061}-\\u{e007a}]{1,6}\\u{e007f}";
// One pass over the text: every alternative is a single character with fixed-width look-around, so it is linear.
const INVISIBLE_OR_BIDI = new RegExp(`(${TAG_FLAG})|[${BIDI}${INVISIBLE}]|${STRAY_JOINER}`, "gu");
// The quick test: any character the pass above might remove (tag characters as their UTF-16 surrogate pairs).
const MAYBE_INVISIBLE = /[\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]|\udb40[\udc01\udc20-\udc7f]/;
const BIDI_CONTROL = new RegExp(`[${BIDI}]`);

/** The text without bidi controls and invisible format characters (joiners stay where a script or emoji needs them). */
export function invisibleSafe(text: string): string {
  if (!MAYBE_INVISIBLE.test(text)) return text;
  // "$1" keeps a tag flag and drops everything else; a string replacement, because a callback per match costs
  // several times more on text full of invisible characters.
  return text.replace(INVISIBLE_OR_BIDI, "$1");
}

/**
 * The text with every terminal control sequence and control character removed (newline and tab are kept), and
 * with bidi controls and invisible characters removed (invisibleSafe).
 */
export function terminalSafe(text: string): string {
  // Invisible characters go first, so one hidden inside an escape sequence cannot split it into visible debris.
  const visible = invisibleSafe(text);
  if (!/[\x00-\x08\x0b-\x1f\x7f-\x9f]/.test(visible)) return visible;
  return visible.replace(STRING_SEQUENCE, "").replace(CSI_SEQUENCE, "").replace(ESC_SEQUENCE, "").replace(CONTROL, "");
}

/** terminalSafe for one line: newlines and tabs become spaces too. */
export function terminalSafeLine(text: string): string {
  return terminalSafe(text).replace(/[\n\t]/g, " ");
}

/**
 * True when the text holds a control character other than whitespace (TAB, LF, CR): any C0 control, DEL, a C1
 * control, or a bidi control (U+202E and its kin). Questions, pick reasons and ADR titles with one are refused:
 * stripping would record something other than what was typed, and the text is never echoed back.
 */
export function hasControlChars(text: string): boolean {
  return /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]/.test(text) || BIDI_CONTROL.test(text);
}

/**
 * JSON for a terminal: JSON.stringify already escapes C0 controls inside strings, but not DEL, the C1 block (which
 * some terminals act on), bidi controls or invisible characters. They are written as \u escapes (both halves of a
 * surrogate pair for a tag character), so the JSON means the same and prints inertly and visibly.
 */
export function terminalSafeJson(json: string): string {
  return json.replace(JSON_UNSAFE, (c) => c.split("").map((u) => `\\u${u.charCodeAt(0).toString(16).padStart(4, "0")}`).join(""));
}

const JSON_UNSAFE = /[\x7f-\x9f\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]|\udb40[\udc01\udc20-\udc7f]/g;
