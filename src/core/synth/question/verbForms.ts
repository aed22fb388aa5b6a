// Verb forms for titles: the infinitive of a token, the third person and the gerund of a verb.

import { isCopula, nlp, type Tok } from "./tokens";

export function infinitive(t: Tok): string {
  if (isCopula(t)) return "be";
  if (t.root !== t.norm || t.tags.has("Infinitive")) return t.root;
  const inf = (nlp()(t.norm).verbs().toInfinitive().text() as string).toLowerCase();
  return inf || t.norm;
}

/** Third person of a verb for a singular or plural subject: "stays", "carries", "is", "live". */
export function thirdPerson(verb: string, plural: boolean): string {
  if (verb === "be") return plural ? "are" : "is";
  if (plural) return verb;
  const conj = (nlp()(verb).verbs().conjugate() as { PresentTense?: string }[])[0]?.PresentTense;
  return conj && !/\s/.test(conj) ? conj : `${verb}s`;
}

export function gerund(verb: string): string {
  const g = (nlp()(verb).verbs().toGerund().text() as string).replace(/^(?:is|are|am)\s+/, "");
  return g && !/\s/.test(g) ? g : `${verb}ing`;
}
