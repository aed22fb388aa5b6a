// The question text around the tagger: editor tags ("TODO(decide):") and asides before "or" removed before reading,
// the bounded excerpt of a long text the tagger reads, and a dangling coordination cut from titles after.

export const TAG_PREFIX = /^\s*(?:\/\/+|#+|--|\/\*+|\*+|;+)?\s*(?:(?:todo|fixme|xxx)\s*(?:\([^)]*\))?\s*:?\s*)?(?:(?:decide|open question|question)\s*:\s*)?/i;

/** Past this length the tagger reads only the asking sentence and a little context (its cost grows per sentence). */
export const MAX_READ_CHARS = 600;
const CONTEXT_SENTENCES = 2;

/**
 * The part of a long text the tagger reads: the first sentence that asks (else the last sentence) with up to two
 * sentences before it, then at most MAX_READ_CHARS of that, keeping the end where the asking sentence is. A
 * question is a few sentences, so this changes nothing for one; a decision record's paragraph stays cheap.
 */
export function boundedForReading(text: string): string {
  if (text.length <= MAX_READ_CHARS) return text;
  const rough = text.split(/(?<=[.!?])\s+|\n+/).filter((x) => x.trim());
  const asks = rough.findIndex((x) => x.includes("?"));
  const last = asks >= 0 ? asks : rough.length - 1;
  const kept = rough.slice(Math.max(0, last - CONTEXT_SENTENCES), last + 1).join(" ");
  if (kept.length <= MAX_READ_CHARS) return kept;
  const tail = kept.slice(kept.length - MAX_READ_CHARS);
  const space = tail.indexOf(" ");
  return space >= 0 && space < MAX_READ_CHARS / 2 ? tail.slice(space + 1) : tail;
}

/** "Keep X, the way it does in Carrenza today, or move to Y?": an aside between commas right before "or" compares
 * with how things are; it is no alternative of its own, and without it the first alternative is the clause before. */
const ASIDE_BEFORE_OR = /,\s+(?:the way|just as|much as|as|like|which|where)\s[^,;:?]{1,100},(?=\s+or\s)/gi;
/** ", the way adr-tools does", ", just as the old farm did": wherever it stands, a comparison with how someone does it. */
const THE_WAY_ASIDE = /,\s+(?:the way|just as|much as)\s[^,;:?]{1,80}?\b(?:do|does|did|done|today|now)\b(?=\s*[,;:?]|\s*$)/gi;
export function withoutAsideBeforeOr(text: string): string {
  return text.replace(ASIDE_BEFORE_OR, "").replace(THE_WAY_ASIDE, "");
}

/** A code span's content that makes it an example, not a name: a brace, bracket, quote, comma or "=" ("{"a": 1}"); a
 * colon, semicolon or pipe ("autoinstall: false", "Task | Branch") would split the clause that asks. */
const EXAMPLE_CONTENT = /[{}[\]"',=:;|]/;

/**
 * "a hash keyed by MIME type (`{"text/html": …}`) or an array of `{content_type, content}` objects?": an example in
 * parentheses is an aside and goes; one inside a phrase keeps its words, without the punctuation that would split
 * the alternatives. Code spans pair up from the left, as Markdown reads them.
 */
export function withoutCodeExamples(text: string): string {
  return text.replace(/(\s*\(\s*)?`([^`\n]*)`(\s*\))?/g, (span, open: string | undefined, body: string, close: string | undefined) => {
    if (!EXAMPLE_CONTENT.test(body)) return span;
    if (open && close) return "";
    const words = body.replace(/[^\p{L}\p{N}_\s-]+/gu, " ").replace(/\s+/g, " ").trim();
    return `${open ?? ""}${words ? `\`${words}\`` : ""}${close ?? ""}`;
  });
}

/**
 * "Should we translate the UI strings, and which i18n library should we use?": a second question joined to the first
 * by "and" is a question of its own (which library), not part of what is proposed. The reading stops before it; the
 * topic still holds its words.
 */
const FOLLOW_UP_QUESTION = /(?:,\s*|\s+)(?:and|but)\s+(?:if so,?\s+|then\s+)?(?:which|what|how|where|when|who|whom|whose|why|whether)\b[^?]*(?=\?\s*$)/i;
export function withoutFollowUpQuestion(text: string): string {
  const m = FOLLOW_UP_QUESTION.exec(text);
  // Only after a clause that proposes something: "which … and how …?" keeps its whole asking.
  return m && m.index > 0 && /\b(?:should|shall|do|does|can|could|would|will|must|is|are)\s+(?:we|i|you|they|it)\b/i.test(text.slice(0, m.index)) ? text.slice(0, m.index) + text.slice(m.index + m[0].length) : text;
}

/** A title cut off after ", and wait" ends before the coordination it could not read: an option is never a fragment. */
export function withoutDanglingCoordination(title: string): string {
  return title.replace(/,\s+(?:and|or|then)\s+[a-z]+$/, "");
}
