// What a question is about: its content words minus stop words (the topic), and the purpose phrase ("for
// service-to-service calls").

import { normaliseAbbreviations } from "../words";
import { DETERMINERS } from "./vocabulary";
import { isNounish, isVerb, type Tok } from "./tokens";
import { spanText, trimNoun } from "./phrases";

const STOP = new Set(
  ("a an the and or but if then for to of in on at by with from into onto over is are was were be been should would could can " +
    "will we our us you your it its this that these those there what which who how when where why than vs versus between instead " +
    "rather not no do does did have has had time right way better best good still just also keep use using adopt move migrate switch stop " +
    "i me my they them their as per about so own whether something anything think consider considering worth idea codebase pattern " +
    "patterns approach approaches option options tradeoff tradeoffs trade-off decision repo repository project thing things favour favor " +
    "prefer choice fit today now everywhere only always").split(" "),
);

export function contentOf(text: string): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const raw of normaliseAbbreviations(text).split(/[^a-z0-9.+#_@/-]+/)) {
    for (const part of raw.split(/-(?:to-)?/)) {
      // The trailing trim starts only where a run starts: /x+$/ alone is quadratic on a long run of x then text.
      const w = part.replace(/^[._/-]+/, "").replace(/(?<![._/?-])[._/?-]+$/, "");
      if (w.length < 2 || /^\d+$/.test(w) || STOP.has(w) || seen.has(w)) continue;
      seen.add(w);
      out.push(w);
    }
  }
  return out;
}

/** What the question is about: its nouns and modifiers (not its verbs), minus stop words. */
export function topicWords(sentences: Tok[][]): string[] {
  const out: string[] = [];
  for (const toks of sentences) {
    for (const t of toks) {
      if (!isNounish(t) || DETERMINERS.has(t.norm) || t.tags.has("Pronoun") || (isVerb(t) && !t.tags.has("Noun"))) continue;
      for (const w of contentOf(t.text)) if (!out.includes(w)) out.push(w);
    }
  }
  return out;
}

/** The purpose phrase: the object of the last "for" outside the alternatives. */
export function purposeOf(toks: Tok[]): string | undefined {
  for (let i = toks.length - 2; i >= 0; i--) {
    if (toks[i].norm !== "for") continue;
    const text = spanText(toks, trimNoun(toks, i + 1, toks.length), { dropDeterminer: true });
    return text || undefined;
  }
  return undefined;
}
