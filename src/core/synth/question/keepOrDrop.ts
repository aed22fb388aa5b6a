// The keep and drop forms: "keep X?", "stop using X?", "drop X and build with Y?", and judged subjects ("Is X still
// the right choice?", "Would X be worth adding?") that read as keep or adopt.

import type { Alternative, QuestionStructure } from "./types";
import { ADOPT_VERBS, DETERMINERS, DROP_VERBS, JUDGEMENTS, KEEP_VERBS, PRONOUNS } from "./vocabulary";
import { isCopula, isModal, isNounish, isPrep, isVerb, type Tok } from "./tokens";
import { clauseEnd, isNamePhrase, phraseEnd, type Span, spanText, trimNoun } from "./phrases";
import { gerund, infinitive } from "./verbForms";
import { termsForNounItem, termsForPhrase, termsForVerbPhrase } from "./terms";
import type { Clause } from "./clause";
import { alt, capitalise, imperative, keepTitle, nounAlternative } from "./titles";

/** Verbs of needing: "still need X" asks whether to keep X. */
const NEEDING = new Set(["need", "require", "want"]);

/** "keep storing uploads on the local disk?", "stick with X?", "do we still need to publish X?", "stop using X?". */
export function readKeepOrDrop(toks: Tok[], clause: Clause): Partial<QuestionStructure> | undefined {
  const v = clause.verb;
  if (v < 0 || clause.passive || clause.linking) return undefined;
  const t = toks[v];
  const still = toks.slice(0, v).some((x) => x.norm === "still");
  const keep = KEEP_VERBS.has(t.root) || still;
  const drop = DROP_VERBS.has(t.root) || (t.root === "get" && toks[v + 1]?.norm === "rid");
  if (!keep && !drop) return undefined;
  const end = phraseEnd(toks, v + 1, clauseEnd(toks, v));
  // "Should error tracking stay in Sentry?": what stays is the subject, and where it stays is the place it may leave.
  const subj = clause.subject;
  if ((t.root === "stay" || t.root === "remain") && subj && !PRONOUNS.has(toks[subj.start].norm) && ["in", "on", "at", "with"].includes(toks[v + 1]?.norm ?? "")) {
    const place = trimNoun(toks, v + 2, end);
    if (place.end > place.start) {
      const what = spanText(toks, subj, { dropDeterminer: true });
      const where = spanText(toks, place, { dropDeterminer: true });
      const terms = termsForPhrase(toks, place);
      const kept = alt(`${keepTitle(toks, subj)} ${toks[v + 1].norm} ${spanText(toks, place)}`, where, terms, "incumbent");
      const moved = alt(`${keepTitle(toks, subj, "Move")} off ${spanText(toks, place)}`, what, terms, "target", true);
      return { form: "keep", alternatives: [kept, moved], incumbent: kept, target: moved };
    }
  }
  let objStart = v + 1;
  if (toks[objStart]?.norm === "rid" && toks[objStart + 1]?.norm === "of") objStart += 2;
  const useVerb = (x: Tok | undefined) => !!x && ["use", "using"].includes(x.norm);
  while (objStart < end && (["with", "on", "to", "at"].includes(toks[objStart].norm) || useVerb(toks[objStart]))) objStart++;
  if (objStart >= end) return undefined;
  const bodyIsVerb = KEEP_VERBS.has(t.root) && isVerb(toks[objStart]) && toks[objStart].tags.has("Gerund");
  const np = trimNoun(toks, objStart, end);
  const body: Span = { start: objStart, end };
  const { terms, subject } = bodyIsVerb ? termsForVerbPhrase(toks, body) : { terms: termsForPhrase(toks, np), subject: spanText(toks, np, { dropDeterminer: true }) };
  // The kept thing: "Keep storing uploads on the local disk", "Keep publishing the DAPS identity module", "Keep Cassandra".
  let keptTitle: string;
  if (bodyIsVerb) keptTitle = `Keep ${spanText(toks, body)}`;
  // "Do we still need the Varnish layer?" keeps the layer, not the needing.
  else if (KEEP_VERBS.has(t.root) || (still && (ADOPT_VERBS.has(t.root) || NEEDING.has(t.root))) || drop) keptTitle = keepTitle(toks, { start: np.start, end: drop ? np.end : Math.max(np.end, end) });
  else keptTitle = `Keep ${gerund(infinitive(t))} ${spanText(toks, np)}`;
  const kept = alt(keptTitle, subject, terms, "incumbent");
  if (drop) {
    // "drop Next.js and build with Vite": what is done instead is named, and the drop is a move to it ("and clean up
    // our code" names nothing new: still a drop).
    const next = toks[np.end + 1];
    if (toks[np.end]?.norm === "and" && next && isVerb(next) && !next.tags.has("Gerund") && isNamePhrase(toks, { start: np.end + 2, end })) {
      const instead = termsForVerbPhrase(toks, { start: np.end + 1, end });
      const target = alt(imperative(toks, { start: v, end }), instead.subject, instead.terms.filter((x) => !terms.includes(x)), "target");
      if (target.terms.length) return { form: "migration", alternatives: [kept, target], incumbent: kept, target };
    }
    const dropped = alt(imperative(toks, { start: v, end: np.end }), subject, terms, "target", true);
    return { form: "drop", alternatives: [kept, dropped], incumbent: kept, target: dropped };
  }
  // "… now that decentralized claims are the way forward": the question names the successor.
  const nowThat = toks.findIndex((x, k) => k > v && x.norm === "now" && toks[k + 1]?.norm === "that");
  if (nowThat > 0) {
    const succ = trimNoun(toks, nowThat + 2, toks.length);
    // Only a successor the clause states as such ("X are the way forward"); "now that the CDN caches most responses"
    // gives a reason, not a successor.
    const stated = succ.end < toks.length && isCopula(toks[succ.end]);
    if (stated && succ.end > succ.start && toks.slice(succ.start, succ.end).some((x) => isNounish(x) && !PRONOUNS.has(x.norm))) {
      const target = nounAlternative(toks, succ, "target", `Move to ${spanText(toks, succ, { dropDeterminer: true })}`);
      return { form: "migration", alternatives: [kept, target], incumbent: kept, target };
    }
  }
  return keepForm(kept);
}

/** "Keep X?" names one side; the other, until the evidence names a successor, is dropping it. */
function keepForm(kept: Alternative): Partial<QuestionStructure> {
  const rest = kept.title.replace(/^Keep\s+/, "");
  // "running our own Sentry" is a gerund; "Spring Retry" is a name.
  const gerundBody = /^[a-z]+ing\b/.test(rest) && !/^(?:the|a|an)\b/i.test(rest);
  const dropped = alt(gerundBody ? `Stop ${rest}` : `Drop ${rest}`, kept.subject, kept.terms, "target", true);
  return { form: "keep", alternatives: [kept, dropped], incumbent: kept, target: dropped };
}

/** Qualities asked of a candidate before it is taken up ("Is X mature enough?"), not of what is in place ("fast enough"). */
const READINESS = new Set(["mature", "ready", "stable", "proven", "complete", "production-ready", "robust", "established"]);
/** Judgements that something will do as it is: "Is X enough?", "Are the scripts fine?". */
const SUFFICIENT = new Set(["enough", "sufficient", "fine", "ok", "okay", "acceptable", "adequate"]);

/** "Is X still the right choice for Y?" → keep X; "Is X worth keeping?" → keep X; "Would X be worth adding?" → add X. */
export function readCopula(toks: Tok[]): Partial<QuestionStructure> | undefined {
  if (!toks.length || !(isCopula(toks[0]) || isModal(toks[0]))) return undefined;
  // "Is Spring Retry enough?", "Is X the right direction …": the subject ends where the judgement starts.
  let judgementAt = toks.findIndex((t, k) => k > 1 && (JUDGEMENTS.has(t.norm) || ["still", "really", "worth"].includes(t.norm) || t.tags.has("Comparative")));
  // "… a reasonable choice": the judgement starts at its article and adjectives.
  const adjective = (t: Tok) => t.tags.has("Adjective") && !t.tags.has("Noun") && !SUFFICIENT.has(toks[judgementAt]?.norm ?? "");
  while (judgementAt > 2 && (DETERMINERS.has(toks[judgementAt - 1].norm) || adjective(toks[judgementAt - 1]))) judgementAt--;
  // "Is Kotlin Multiplatform mature enough?": the quality judged belongs to the judgement, not to the name.
  if (judgementAt > 2 && SUFFICIENT.has(toks[judgementAt].norm) && toks[judgementAt - 1].tags.has("Adjective") && !toks[judgementAt - 1].tags.has("Noun")) judgementAt--;
  let s = judgementAt > 1 && isCopula(toks[0]) ? { start: 1, end: judgementAt } : trimNoun(toks, 1, toks.length);
  // "Would a GraphQL endpoint next to JMAP be worth adding": with a modal, the subject runs to the copula.
  const modal = isModal(toks[0]) && !isCopula(toks[0]);
  if (modal) {
    const cop = toks.findIndex((t, k) => k > 1 && isCopula(t));
    // "Do we still need X now that Y are the way forward?": a person acting is no judged subject.
    if (cop < 0 || PRONOUNS.has(toks[1].norm)) return undefined;
    s = { start: 1, end: cop };
  }
  if (s.end <= s.start || s.end >= toks.length || toks.slice(s.start, s.end).every((t) => PRONOUNS.has(t.norm) || t.norm === "there")) return undefined;
  // "Is ESLint going to change how it finds the right setup?": a verb in the progressive ("going to", "planning
  // to") makes a clause about doing something, not a judgement of X ("the right" belongs to the verb's object).
  if (toks.slice(s.start + 1, s.end + 1).some((t, k) => t.norm === "to" && toks[s.start + k].tags.has("Gerund"))) return undefined;
  let j = s.end;
  if (modal) j++;
  const still = toks[j]?.norm === "still";
  if (still) j++;
  const rest = toks.slice(j).filter((t) => !DETERMINERS.has(t.norm));
  const worth = rest.findIndex((t) => t.norm === "worth");
  // "Would an S3 event notification be simpler?": a comparison judges its subject too.
  const judged = rest.some((t) => JUDGEMENTS.has(t.root) || JUDGEMENTS.has(t.norm) || (t.tags.has("Comparative") && t === rest[0]));
  if (!judged) return undefined;
  const subject = spanText(toks, s, { dropDeterminer: true });
  const terms = termsForNounItem(toks, s);
  const g = worth >= 0 ? rest[worth + 1] : undefined;
  const gv = g && g.tags.has("Gerund") ? infinitive(g) : undefined;
  // "Is Spring Retry enough?", "Is the origin fast enough?": what will do as it is stays ("would X be enough?"
  // proposes X); "Is X mature enough?" weighs whether X is ready to be taken up.
  const sufficient = isCopula(toks[0]) && (SUFFICIENT.has(rest[0]?.norm ?? "") || (!READINESS.has(rest[0]?.norm ?? "") && SUFFICIENT.has(rest[1]?.norm ?? "")));
  // "Is our Jenkins setup too slow?": what the asker already has is in place, whatever the judgement.
  const inPlace = isCopula(toks[0]) && (toks[s.start].norm === "our" || (["the", "our"].includes(toks[s.start].norm) && ["current", "existing"].includes(toks[s.start + 1]?.norm ?? "")));
  if (still || sufficient || inPlace || (gv && KEEP_VERBS.has(gv))) {
    return keepForm(alt(keepTitle(toks, s), subject, terms, "incumbent"));
  }
  const verb = gv && !["have", "use", "adopt", "do"].includes(gv) ? gv : "adopt";
  // "Is configuring them under the platform sections fine?": a judged act is done, not adopted.
  const act = verb === "adopt" && toks[s.start].tags.has("Gerund") && isVerb(toks[s.start]);
  // "Is Terraform Cloud worth paying for?": the verb keeps its preposition ("Pay for Terraform Cloud").
  const prep = g && gv && rest.length === worth + 3 && isPrep(rest[worth + 2]) ? ` ${rest[worth + 2].norm}` : "";
  const title = act ? imperative(toks, s) : capitalise(`${verb}${verb === "adopt" ? "" : prep} ${spanText(toks, s, { dropDeterminer: verb === "adopt" })}`);
  const target = alt(title, subject, terms, "target");
  return { form: "adopt", alternatives: [target], target };
}
