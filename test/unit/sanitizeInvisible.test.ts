// Bidi controls and invisible characters (issue 19, finding 11): removed from everything printed or shown
// (invisibleSafe, terminalSafe), escaped in printed JSON (terminalSafeJson), refused in questions and reasons
// (hasControlChars); the joiners that Persian, the Indic scripts and emoji need are kept.
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { hasControlChars, invisibleSafe, terminalSafe, terminalSafeJson, terminalSafeLine } from "../../src/core/sanitize";

const BIDI = ["\u061c", "\u200e", "\u200f", "\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069"];
const INVISIBLE = ["\u180e", "\u200b", "\u2060", "\u2061", "\u2064", "\u206a", "\u206f", "\ufeff", "\ufff9", "\ufffb", "\u{e0001}", "\u{e0020}", "\u{e0041}", "\u{e007f}"];
const ENGLAND = "🏴\u{e0067}\u{e0062}\u{e0065}\u{e006e}\u{e0067}\u{e007f}";

/** Every code point of the text that is a format character (Cf): what must not survive outside the kept cases. */
function formatChars(text: string): string[] {
  return [...text].filter((c) => /\p{Cf}/u.test(c)).map((c) => `U+${c.codePointAt(0)!.toString(16).toUpperCase()}`);
}

describe("invisibleSafe and terminalSafe", () => {
  test("every bidi control is removed, and a reordered file name reads as it is", () => {
    for (const c of BIDI) {
      for (const clean of [invisibleSafe, terminalSafe, terminalSafeLine]) assert.equal(clean(`report${c}fdp.exe`), "reportfdp.exe", `U+${c.charCodeAt(0).toString(16)}`);
    }
    assert.equal(terminalSafe("Use \u202eredis\u202c or \u2067memcached\u2069?"), "Use redis or memcached?");
  });

  test("zero-width, invisible operator, BOM and tag characters are removed", () => {
    for (const c of INVISIBLE) assert.equal(invisibleSafe(`pass${c}word`), "password", `U+${c.codePointAt(0)!.toString(16)}`);
    // Tag characters spell ASCII no reader sees but a model reads: "ignore" hidden after a visible word.
    const smuggled = `Use Redis${[..."ignore"].map((ch) => String.fromCodePoint(0xe0000 + ch.charCodeAt(0))).join("")}.`;
    assert.equal(invisibleSafe(smuggled), "Use Redis.");
  });

  test("ZWJ and ZWNJ stay where a script or an emoji needs them and go everywhere else", () => {
    const kept = ["👩\u200d💻", "👨\u200d👩\u200d👧", "🏳\ufe0f\u200d🌈", "👩🏽\u200d🚀", "می\u200cخواهم", "क्\u200dष", "ക്\u200dക"];
    for (const s of kept) assert.equal(invisibleSafe(s), s, `${s} is kept`);
    assert.equal(invisibleSafe("pa\u200dss\u200cword"), "password");
    assert.equal(invisibleSafe("\u200dstart and end\u200c"), "start and end");
    assert.equal(invisibleSafe("a\u200d\u200d\u200db"), "ab", "a run of joiners between ASCII letters");
    assert.equal(invisibleSafe("👩\u200d x"), "👩 x", "a joiner before a space");
  });

  test("a subdivision flag keeps its tag characters; stray tag characters go", () => {
    assert.equal(invisibleSafe(`${ENGLAND} England`), `${ENGLAND} England`);
    assert.equal(invisibleSafe(`🏴\u{e0041}\u{e0042} x`), "🏴 x", "capital tag letters are no flag");
    assert.equal(invisibleSafe(`${ENGLAND}\u{e0041}`), ENGLAND, "text smuggled after a real flag still goes");
  });

  test("text without any of them is returned as it is (the same string)", () => {
    for (const s of ["plain ASCII", "Ünïcödé — “quotes” · ✓", "日本語のテキスト", "עברית and العربية without controls", ""]) assert.equal(invisibleSafe(s), s);
  });

  test("a bidi control inside an escape sequence does not leave debris: the whole sequence goes", () => {
    assert.equal(terminalSafe("\x1b[\u202e31mred\x1b[0m"), "red");
    assert.equal(terminalSafe("\x1b]0;\u200btitle\x07text"), "text");
    assert.deepEqual(formatChars(terminalSafe(`a\u202e\x1b[2Jb\u2066c\u200bd${ENGLAND.slice(2)}e`)), []);
  });

  test("linear time on text made of nothing but invisible characters", () => {
    const hostile = "\u200d\u202e\u200ba\u200c".repeat(50_000);
    const started = performance.now();
    assert.equal(terminalSafe(hostile), "a".repeat(50_000));
    // A backtracking pattern would take minutes here; one linear pass takes milliseconds even on a busy machine.
    assert.ok(performance.now() - started < 5000, `took ${Math.round(performance.now() - started)} ms`);
  });
});

describe("hasControlChars refuses bidi controls", () => {
  test("every bidi control counts as a control character; invisible ones are stripped on output instead", () => {
    for (const c of BIDI) assert.equal(hasControlChars(`Redis ${c}or Memcached?`), true, `U+${c.charCodeAt(0).toString(16)}`);
    for (const s of ["Redis or Memcached?", "می\u200cخواهم", "👩\u200d💻 or 🤖?", "line one\nline two\ttab\r\n"]) assert.equal(hasControlChars(s), false, s);
  });
});

describe("terminalSafeJson", () => {
  test("bidi and invisible characters are \\u escapes: printed inertly, parsed back unchanged", () => {
    const value = { question: "Use \u202eredis\u202c or \u2066x\u2069?", note: `a\u200bb\ufeff\u{e0041}${ENGLAND} 👩\u200d💻\x85` };
    const printed = terminalSafeJson(JSON.stringify(value, null, 2));
    assert.deepEqual(formatChars(printed), [], "no format character printed raw");
    assert.match(printed, /\\u202e/);
    assert.match(printed, /\\udb40\\udc41/, "a tag character as both halves of its surrogate pair");
    assert.deepEqual(JSON.parse(printed), value);
  });
});
