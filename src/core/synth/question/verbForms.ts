// Verb forms for titles: the infinitive of a token, the third person and the gerund of a verb.

import { isCopula, nlp, type Tok } from "./tokens";

export function infinitive(t: Tok): string {
  if (isCopula(t)) return "be";
  if (t.root !== t.norm || t.tags.has("Infinitive")) return t.root;
  const inf = (nlp()(t.norm).verbs().toInfinitive().text() as string).toLowerCase();
  return inf || t.norm;
}

/** The base form of a word in "-ing" the tagger took for an adjective ("moving" in "worth moving our jobs"), else the word. */
export function baseOfIng(norm: string): string {
  if (!/^[a-z]{2,}ing$/.test(norm)) return norm;
  const inf = (nlp()(`we are ${norm} it`).verbs().toInfinitive().text() as string).toLowerCase().trim();
  return /^[a-z]+$/.test(inf) && inf.slice(0, 2) === norm.slice(0, 2) ? inf : norm;
}

/** Third person of a verb for a singular or plural subject: "stays", "carries", "is", "live". */
export function thirdPerson(verb: string, plural: boolean): string {
  if (verb === "be") return plural ? "are" : "is";
  if (plural) return verb;
  const conj = (nlp()(verb).verbs().conjugate() as { PresentTense?: string }[])[0]?.PresentTense;
  if (conj && !/\s/.test(conj)) return conj;
  // A word the tagger does not know as a verb ("batch", "proxy") still takes the regular spelling.
  if (/(?:s|x|z|ch|sh|o)$/.test(verb)) return `${verb}es`;
  return /[^aeiou]y$/.test(verb) ? `${verb.slice(0, -1)}ies` : `${verb}s`;
}

export function gerund(verb: string): string {
  const g = (nlp()(verb).verbs().toGerund().text() as string).replace(/^(?:is|are|am)\s+/, "");
  return g && !/\s/.test(g) ? g : `${verb}ing`;
}
