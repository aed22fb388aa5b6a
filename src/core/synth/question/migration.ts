// The migration and move-to forms: "move / migrate / switch from A to B", "replace A with B", "swap A for B", and
// "move X onto B" / "switch to B" without a "from".

import type { QuestionStructure } from "./types";
import { DESTINATIONS, DETERMINERS, MOVE_VERBS, PRONOUNS, REPLACE_VERBS } from "./vocabulary";
import { isConj, isNounish, isVerb, type Tok } from "./tokens";
import { isNamePhrase, phraseEnd, spanText, trimNoun } from "./phrases";
import { infinitive } from "./verbForms";
import { termsForPhrase } from "./terms";
import type { Clause } from "./clause";
import { alt, capitalise, imperative, keepTitle, nounAlternative } from "./titles";

/** "move / migrate / switch (X) from A to B", "a migration from A to B", "replace A with B", "swap A for B". */
export function readMigration(toks: Tok[]): Partial<QuestionStructure> | undefined {
  for (let v = 0; v < toks.length; v++) {
    const t = toks[v];
    if (REPLACE_VERBS.has(t.root) && (isVerb(t) || t.tags.has("Noun"))) {
      const a = trimNoun(toks, v + 1, toks.length);
      const w = a.end < toks.length && ["with", "by", "for"].includes(toks[a.end].norm) ? a.end : -1;
      if (w < 0 || a.end === a.start) continue;
      const b = trimNoun(toks, w + 1, toks.length);
      const incumbent = nounAlternative(toks, a, "incumbent", keepTitle(toks, a));
      const target = nounAlternative(toks, b, "target", capitalise(`${t.root} ${spanText(toks, { start: v + 1, end: b.end })}`));
      return { form: "migration", alternatives: [incumbent, target], incumbent, target };
    }
    if (!MOVE_VERBS.has(t.root) || !(isVerb(t) || t.tags.has("Noun"))) continue;
    let from = -1;
    // "switch the default key-value store for new nodes from A to B": the object may carry a phrase of its own.
    for (let j = v + 1; j < toks.length && j <= v + 10; j++) {
      // "move off Sidekiq onto Temporal" leaves Sidekiq as "from" does.
      if (toks[j].norm === "from" || toks[j].norm === "off") {
        from = j;
        break;
      }
      if (isConj(toks[j]) || (isVerb(toks[j]) && !toks[j].tags.has("Gerund"))) break;
    }
    if (from < 0) continue;
    let to = -1;
    for (let j = from + 2; j < toks.length; j++) {
      if (DESTINATIONS.has(toks[j].norm)) {
        to = j;
        break;
      }
    }
    if (to < 0) continue;
    // "off EC2 and onto EKS": the conjunction before the destination belongs to neither side.
    let end = to;
    while (end > from + 1 && isConj(toks[end - 1])) end--;
    const a = { start: from + 1, end };
    const b = trimNoun(toks, to + 1, toks.length);
    if (b.end <= b.start) continue;
    const verb = isVerb(t) ? infinitive(t) : "move";
    // "switch the default store for new nodes from goleveldb to PebbleDB": what stays is said with where it stays.
    const object = { start: v + 1, end: from };
    const ownObject = from > v + 1 && toks.slice(object.start, object.end).some((x) => isNounish(x) && !DETERMINERS.has(x.norm) && !PRONOUNS.has(x.norm));
    const stays = ownObject && toks[from].norm === "from" ? `${keepTitle(toks, object)} on ${spanText(toks, a)}` : keepTitle(toks, a);
    const incumbent = nounAlternative(toks, a, "incumbent", stays);
    // "move the nightly exports off the cron box onto Airflow": what moves is said with the move.
    const moved = from > v + 1 && toks[from].norm === "off" ? ` ${spanText(toks, { start: v + 1, end: from })}` : "";
    const target = nounAlternative(toks, b, "target", capitalise(`${verb}${moved} ${toks[to].norm} ${spanText(toks, b)}`));
    return { form: "migration", alternatives: [incumbent, target], incumbent, target };
  }
  return undefined;
}

/** Particles of a moving verb that may stand before its destination ("over to", "across to", "back to"). */
const MOVE_PARTICLES = new Set(["over", "across", "back", "away"]);

/** "move X onto B", "switch to B", "migrate X to B" without a "from": B is proposed, X is kept as it is today. */
export function readMoveTo(toks: Tok[], clause: Clause): Partial<QuestionStructure> | undefined {
  for (let v = Math.max(0, clause.verb); v < toks.length; v++) {
    const t = toks[v];
    if (!MOVE_VERBS.has(t.root) || !isVerb(t)) continue;
    for (let j = v + 1; j < toks.length && j <= v + 8; j++) {
      if (!DESTINATIONS.has(toks[j].norm)) {
        if (isVerb(toks[j]) && !toks[j].tags.has("Gerund")) break;
        continue;
      }
      const b = trimNoun(toks, j + 1, toks.length);
      if (b.end <= b.start || !toks.slice(b.start, b.end).some((x) => isNounish(x) && !DETERMINERS.has(x.norm))) break;
      const end = phraseEnd(toks, j + 1, toks.length);
      const target = nounAlternative(toks, b, "target", imperative(toks, { start: v, end }));
      // "move X over to B", "move X across to B": the particle belongs to the verb, not to what is moved.
      let objectEnd = j;
      while (objectEnd > v + 1 && MOVE_PARTICLES.has(toks[objectEnd - 1].norm)) objectEnd--;
      const object = objectEnd > v + 1 ? { start: v + 1, end: objectEnd } : undefined;
      if (object && toks.slice(object.start, object.end).some((x) => isNounish(x) && !DETERMINERS.has(x.norm) && !PRONOUNS.has(x.norm))) {
        // "move our Glue ETL jobs to dbt": keeping the jobs as they are is the other option.
        const incumbent = alt(keepTitle(toks, object), spanText(toks, object, { dropDeterminer: true }), termsForPhrase(toks, object), "incumbent");
        incumbent.terms = incumbent.terms.filter((x) => !target.terms.includes(x));
        if (!isNamePhrase(toks, object)) incumbent.unnamed = true;
        return { form: "migration", alternatives: [incumbent, target], incumbent, target };
      }
      return { form: "move-to", alternatives: [target], target };
    }
  }
  return undefined;
}
