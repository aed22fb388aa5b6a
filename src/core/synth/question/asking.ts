// What kind of asking a clause does, which decides what the question may name. "Should we adopt X?" proposes X;
// "How should we bring this dump onto the platform?" asks for a way and proposes nothing: what follows "how" is the
// goal, never an option. "Which engine should render the layouts, Velocity or FreeMarker?" asks to pick from what it
// lists. "Is there a plan for enforcing the limit?" asks whether a decision exists: an open question too.

import { SUBORDINATORS, WH } from "./vocabulary";
import { isConj, isCopula, isModal, type Tok } from "./tokens";

/** Nouns that name a way of doing something: "is there a plan / way / process for X" asks for one, proposes nothing. */
const WAY_NOUNS = new Set(["plan", "plans", "way", "ways", "process", "mechanism", "strategy", "roadmap", "policy", "proposal", "proposals", "approach", "guidance", "convention", "recommendation"]);
export interface Asking {
  /** The clause from where it asks: after a fronted subordinate clause ("When a block changes, should we …"). */
  start: number;
  /** The question word it opens with ("how", "which"), when it is a wh-question. */
  wh?: string;
  /** It asks for a way or whether a decision exists: it names no option of its own (a list after a comma aside). */
  seeksWay: boolean;
}

/** Words that open a fronted reason or setting: "Given that most traffic is reads, would …", "Since X, should …". */
const FRONTING = new Set(["given", "since", "because", "as", "now", "with"]);

/** A fronted subordinate clause ends at the comma before the first modal or copula: "When X happens, should we …". */
function askingStart(toks: Tok[]): number {
  const first = toks.findIndex((t) => !isConj(t));
  if (first < 0 || !(SUBORDINATORS.has(toks[first].norm) || FRONTING.has(toks[first].norm))) return 0;
  const aux = toks.findIndex((t, k) => k > first && (isModal(t) || isCopula(t)) && /,/.test(toks[k - 1].post));
  return aux > 0 ? aux : 0;
}

/**
 * Words that ask for the one the team goes by: "is there a house language", "is there a standard logging library"
 * asks which it is, as "is there a plan" asks for the plan.
 */
const CONVENTION_WORDS = new Set(["house", "standard", "preferred", "recommended", "default", "official", "agreed", "canonical", "go-to"]);

/** "is there a plan for …", "are there plans to …", "is there a house language …": an existential copula before a noun of ways. */
function asksForAWay(toks: Tok[], from: number): boolean {
  const first = toks.slice(from).find((t) => !isConj(t));
  const at = first ? toks.indexOf(first) : -1;
  if (at < 0 || !isCopula(toks[at]) || toks[at + 1]?.norm !== "there") return false;
  // The noun comes within a few words: "is there an official plan", "is there a longer-term plan".
  return toks.slice(at + 2, at + 6).some((t) => WAY_NOUNS.has(t.norm) || CONVENTION_WORDS.has(t.norm));
}

/** Reads how a clause asks. */
export function askingOf(toks: Tok[]): Asking {
  const start = askingStart(toks);
  const lead = toks.slice(start).find((t) => !isConj(t))?.norm ?? "";
  // "What about X instead of Y?", "How about X?" propose X.
  const about = toks[toks.findIndex((t, k) => k >= start && !isConj(t)) + 1]?.norm === "about";
  const wh = WH.has(lead) && !about ? lead : undefined;
  const seeksWay = wh === "how" || asksForAWay(toks, start);
  return { start, ...(wh ? { wh } : {}), seeksWay };
}

/**
 * Where a question that asks for a way or a pick lists answers of its own: after the first comma (or dash) of the
 * asking clause that comes before an "or" ("How should we store sessions, in Redis or in Postgres?", "Which engine
 * should render the reports, Mustache or Handlebars?"). -1 when it lists none that way.
 */
export function listedAnswersStart(toks: Tok[], from: number): number {
  const or = toks.findIndex((t, k) => k > from && ["or", "vs", "versus"].includes(t.norm));
  if (or < 0) return -1;
  for (let k = from; k < or - 1; k++) if (/[,–—]|\s-\s/.test(toks[k].post)) return k + 1;
  return -1;
}
