// The words that split a question into alternatives ("or", "vs", "instead of", "over", "better than", "between …
// and"), and how the right side of the last one starts: a verb, a preposition or a noun.

import { DETERMINERS, PRONOUNS, RELATIONAL, SUBORDINATORS } from "./vocabulary";
import { asVerb, endsClause, isAdverb, isCopula, isModal, isNounish, isPrep, isVerb, type Tok } from "./tokens";
import { type Clause, mainVerb } from "./clause";
import { nounPhraseEnd } from "./phrases";

export interface Connector {
  at: number;
  /** Tokens the connector spans ("instead of" is two). */
  width: number;
  kind: "or" | "instead" | "over" | "and" | "than";
  /** ", or": a comma before it makes it a top-level split. */
  comma: boolean;
}

export function findConnectors(toks: Tok[]): Connector[] {
  const all: Connector[] = [];
  // "between A and B" is the choice only when no "or" comes before it ("a queue or direct calls between the billing
  // and invoicing services").
  // A comparison before it ("Would gRPC be a better fit than REST for the calls between A and B?") is the choice too.
  const firstOr = toks.findIndex((t, i) => ["or", "vs", "versus"].includes(t.norm) || (t.norm === "than" && toks.slice(Math.max(0, i - 3), i).some((x) => x.tags.has("Comparative"))));
  const betweenAt = toks.findIndex((t) => t.norm === "between");
  const between = firstOr >= 0 && firstOr < betweenAt ? -1 : betweenAt;
  for (let i = 1; i < toks.length; i++) {
    const t = toks[i];
    const next = toks[i + 1];
    const comma = /,/.test(toks[i - 1].post);
    if (["or", "vs", "versus", "nor"].includes(t.norm)) {
      // "… or not", "whether or not", "or so": no second alternative.
      if (!next || ["not", "so", "otherwise"].includes(next.norm) || toks[i - 1].norm === "whether") continue;
      if (insideCondition(toks, i)) continue;
      all.push({ at: i, width: 1, kind: "or", comma });
    } else if ((t.norm === "instead" || t.norm === "rather") && next && (next.norm === "of" || next.norm === "than") && i + 2 < toks.length) {
      all.push({ at: i, width: 2, kind: "instead", comma });
    } else if (t.norm === "over" && i + 1 < toks.length) {
      const verb = toks.slice(0, i).reverse().find((x) => isVerb(x));
      if (!verb || ["prefer", "favour", "favor", "choose", "pick", "select", "recommend", "use", "want"].includes(verb.root)) all.push({ at: i, width: 1, kind: "over", comma });
    } else if (t.norm === "than" && i + 1 < toks.length && toks.slice(Math.max(0, i - 3), i).some((x) => x.tags.has("Comparative") || x.norm === "more" || x.norm === "less")) {
      all.push({ at: i, width: 1, kind: "than", comma });
    } else if (t.norm === "and" && between >= 0 && between < i && !all.some((c) => c.kind === "and")) {
      all.push({ at: i, width: 1, kind: "and", comma });
    }
  }
  // "a release-include or release-exclude label, or a richer set": with a ", or" the bare "or"s before it are inside an alternative.
  const last = all[all.length - 1];
  return last?.comma && last.kind === "or" ? all.filter((c) => c.comma || c.at > last.at || c.kind !== "or") : all;
}

/**
 * "What should the SDKs do when the API is slow or briefly down?": an "or" inside a condition ("when", "if", "once",
 * … with no comma closing it before the "or") joins what the condition covers, not choices. An "or" followed by a
 * verb ("fail the build when a test is flaky, or retry it", "… or only warn") or by another condition ("validate when
 * saving or when loading") is still one.
 */
function insideCondition(toks: Tok[], at: number): boolean {
  for (let k = at - 1; k >= 0; k--) {
    if (/[,;:]/.test(toks[k].post)) return false;
    if (SUBORDINATORS.has(toks[k].norm)) return rightMode(toks, at + 1).mode !== "verb" && !SUBORDINATORS.has(toks[at + 1]?.norm ?? "");
  }
  return false;
}

export type Mode = "verb" | "prep" | "noun";

/** Words that open a verb's object and never follow a noun inside its own phrase. */
const OBJECT_OPENERS = new Set([...DETERMINERS].filter((w) => w !== "that" && w !== "this" && w !== "his" && w !== "her").concat(["all"]));

/** What the right side of a connector starts with decides how both sides are read. */
export function rightMode(toks: Tok[], i: number): { mode: Mode; at: number; lead: number; clause?: Clause } {
  let j = i;
  while (j < toks.length && (isAdverb(toks[j]) || ["either", "whether"].includes(toks[j].norm))) j++;
  const lead = i;
  const t = toks[j];
  if (!t) return { mode: "noun", at: j, lead };
  if (isCopula(t) && j + 1 < toks.length) {
    // "or (always) be folded into the control plane": the left clause's subject, a passive or linking verb of its own.
    return { mode: "verb", at: j, lead };
  }
  if (isModal(t)) {
    // "…, or should staging get a database of its own?": a clause of its own.
    const clause = mainVerb(toks, j, toks.length);
    if (clause.verb >= 0) return { mode: "verb", at: clause.copula >= 0 && !clause.linking ? clause.copula : clause.verb, lead: clause.subject ? clause.verb : lead, clause };
  }
  if (isVerb(t) && !t.tags.has("Gerund")) return { mode: "verb", at: j, lead };
  // "…, or page every engineer at once?", "…, or query the database every time?": a plain lower-case word the tagger
  // took for a noun, followed by an article or a quantifier, is a verb with its object (no noun takes one).
  if (isNounish(t) && /^[a-z]+$/.test(t.text) && OBJECT_OPENERS.has(toks[j + 1]?.norm ?? "")) {
    asVerb(t);
    return { mode: "verb", at: j, lead };
  }
  // "rather than us carrying every app version …", "instead of our team writing manifests": a subject of its own
  // before a gerund; the gerund's phrase is the alternative, not a noun beside the left side's last one.
  const g = gerundAfterSubject(toks, j);
  if (g > j) return { mode: "verb", at: g, lead: g };
  // "instead of hand-writing it": a hyphenated gerund the tagger took for a noun, with its object.
  const gerund = (isVerb(t) && t.tags.has("Gerund")) || /^[a-z]+-[a-z]+ing$/.test(t.norm);
  if (gerund && j + 1 < toks.length && (DETERMINERS.has(toks[j + 1].norm) || isPrep(toks[j + 1]) || PRONOUNS.has(toks[j + 1].norm) || (["of", "than"].includes(toks[i - 1]?.norm ?? "") && objectThenPrep(toks, j + 1)))) return { mode: "verb", at: j, lead };
  if (isPrep(t) || SUBORDINATORS.has(t.norm) || RELATIONAL.has(t.norm)) return { mode: "prep", at: j, lead };
  return { mode: "noun", at: j, lead };
}

/** "instead of handing blocking calls to a pool": a bare noun phrase then a preposition is the gerund's object. */
function objectThenPrep(toks: Tok[], at: number): boolean {
  const end = nounPhraseEnd(toks, at, toks.length, { examples: false });
  return end > at && !!toks[end] && isPrep(toks[end]) && toks[end].norm !== "of" && !endsClause(toks[end - 1]);
}

export type RightSide = ReturnType<typeof rightMode>;

/** Where a gerund stands after a subject of its own ("us carrying", "our team writing"), else -1. */
function gerundAfterSubject(toks: Tok[], j: number): number {
  let k = -1;
  if (/^(?:us|them|me|you|everyone|everybody)$/.test(toks[j].norm)) k = j + 1;
  else if (/^(?:our|their|my|your)$/.test(toks[j].norm)) {
    k = j + 1;
    while (k < j + 3 && toks[k] && isNounish(toks[k]) && !toks[k].tags.has("Gerund")) k++;
    if (k === j + 1) return -1;
  }
  const g = toks[k];
  return g && isVerb(g) && g.tags.has("Gerund") && k + 1 < toks.length ? k : -1;
}
