// Verb forms for titles: the infinitive of a token, the third person and the gerund of a verb.

import { isCopula, lexicon, nlp, type Tok } from "./tokens";

export function infinitive(t: Tok): string {
  if (isCopula(t)) return "be";
  if (t.root !== t.norm || t.tags.has("Infinitive")) return t.root;
  const inf = (nlp()(t.norm).verbs().toInfinitive().text() as string).toLowerCase();
  if (inf && inf !== t.norm) return inf;
  // A participle the tagger did not know as one ("parsed"): the lexicon's verb among the regular stems.
  if (/ed$/.test(t.norm)) {
    const lex = lexicon();
    const candidates = [t.norm.replace(/ied$/, "y"), t.norm.slice(0, -1), t.norm.slice(0, -2), t.norm.replace(/([b-df-hj-np-tv-z])\1ed$/, "$1")];
    const known = candidates.find((c) => typeof lex[c] === "string" && /Infinitive|Verb|PresentTense/.test(lex[c] as string));
    return known ?? (/[^aeiou][^aeiouy]ed$/.test(t.norm) && !/(?:ss|[^s]s)ed$/.test(t.norm) ? t.norm.slice(0, -2) : t.norm.slice(0, -1));
  }
  return inf || t.norm;
}

/** Third person of a verb for a singular or plural subject: "stays", "carries", "is", "live". */
export function thirdPerson(verb: string, plural: boolean): string {
  if (verb === "be") return plural ? "are" : "is";
  if (plural) return verb;
  if (verb === "have") return "has";
  const conj = (nlp()(verb).verbs().conjugate() as { PresentTense?: string }[])[0]?.PresentTense;
  if (conj && !/\s/.test(conj)) return conj;
  if (/(?:s|x|z|ch|sh|o)$/.test(verb)) return `${verb}es`;
  if (/[^aeiou]y$/.test(verb)) return `${verb.slice(0, -1)}ies`;
  return `${verb}s`;
}

export function gerund(verb: string): string {
  const g = (nlp()(verb).verbs().toGerund().text() as string).replace(/^(?:is|are|am)\s+/, "");
  return g && !/\s/.test(g) ? g : `${verb}ing`;
}
