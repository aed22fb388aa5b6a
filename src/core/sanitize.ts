// Output hygiene. Text that came from the repository (ADR titles, file names, commit subjects), a model or the web
// may carry terminal control sequences: `ESC ] 0 ; … BEL` retitles the window, `ESC [ 2 J` clears the screen, OSC 8
// forges hyperlinks, a bare CR overwrites a line. Everything the CLI prints passes through `terminalSafe`, which
// removes ANSI/ECMA-48 escape sequences (CSI, OSC, DCS, SOS, PM, APC, and two-byte ESC sequences, in their 7-bit and
// 8-bit forms) and every remaining C0 / C1 control character except newline and tab.

// An escape sequence that runs to a string terminator: OSC, DCS, SOS, PM, APC (7-bit `ESC ]`, `ESC P`, `ESC X`,
// `ESC ^`, `ESC _`, or their 8-bit C1 forms), ended by BEL, `ESC \` or the 8-bit ST — or by the end of the text.
const STRING_SEQUENCE = /(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[\s\S]*?(?:\x07|\x1b\\|\x9c|$)/g;
// CSI: `ESC [` or 8-bit 0x9b, parameter bytes, intermediate bytes, one final byte (or the end of the text).
const CSI_SEQUENCE = /(?:\x1b\[|\x9b)[\x30-\x3f]*[\x20-\x2f]*(?:[\x40-\x7e]|$)/g;
// Any other escape: ESC, optional intermediates, one final byte.
const ESC_SEQUENCE = /\x1b[\x20-\x2f]*[\x30-\x7e]?/g;
// What is left: C0 controls except TAB and LF, DEL, and the C1 block.
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

/** The text with every terminal control sequence and control character removed (newline and tab are kept). */
export function terminalSafe(text: string): string {
  if (!/[\x00-\x08\x0b-\x1f\x7f-\x9f]/.test(text)) return text;
  return text.replace(STRING_SEQUENCE, "").replace(CSI_SEQUENCE, "").replace(ESC_SEQUENCE, "").replace(CONTROL, "");
}

/** terminalSafe for one line: newlines and tabs become spaces too. */
export function terminalSafeLine(text: string): string {
  return terminalSafe(text).replace(/[\n\t]/g, " ");
}

/**
 * True when the text holds a control character other than whitespace (TAB, LF, CR): any C0 control, DEL or a C1
 * control. Questions and pick reasons with one are refused.
 */
export function hasControlChars(text: string): boolean {
  return /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]/.test(text);
}

/**
 * JSON for a terminal: JSON.stringify already escapes C0 controls inside strings, but not DEL or the C1 block,
 * which some terminals act on. They are written as \u escapes, so the JSON means the same and prints inertly.
 */
export function terminalSafeJson(json: string): string {
  return json.replace(/[\x7f-\x9f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
