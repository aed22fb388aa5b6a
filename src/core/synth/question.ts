// Reads the structure of a design question with an English parser (compromise): which alternatives it names, which
// of them is in place today and which is proposed, and what the question is about. The synthesizer builds its
// options from this: titles are whole phrases a person would write ("Put a Varnish layer in front of the API"),
// and the terms that find an option in the evidence ("varnish layer", "varnish") are kept apart from the title.
//
// Forms, in the order they are tried on the clause that asks:
//   migration      "move / migrate / switch from A to B", "replace A with B",
//                  "swap A for B", "drop A and build with B"                    → Keep A · Move to B
//   alternatives   "A or B", "A, B or C", "A vs B", "between A and B",
//                  "A instead of / rather than B", "prefer A over B",
//                  "is A a better fit than B"                                   → each alternative
//   instead        "…X is slow; should we integrate Y instead?"                 → Keep X · Integrate Y
//   move-to        "move X onto B", "switch to B"                               → Keep X · Move X onto B
//   keep / drop    "keep X?", "is X still the right choice?", "do we still need
//                  to publish X?" / "stop using X?", "drop X?"                   → Keep X · (successor) / Drop X
//   adopt          "adopt / introduce / use / add A", "is A worth adding?"      → Adopt A · (current approach)
//   action         "should we <verb phrase>?"                                   → <Verb phrase> · (current approach)
//   open           "which pattern …", "how should we …"                         → options come from the evidence
//
// This file is the entry point (readQuestion, its memo, and the order the forms are tried); the grammar itself lives in
// the modules under ./question/, and the public types are defined in ./question/types.ts.
import type { QuestionStructure } from "./question/types";
import { tokenize } from "./question/tagging";
import { clausesOf, mainVerb, proposes } from "./question/clause";
import { findConnectors } from "./question/connectors";
import { readAlternatives } from "./question/alternatives";
import { askingOf, listedAnswersStart } from "./question/asking";
import { readMigration, readMoveTo } from "./question/migration";
import { readCopula, readKeepOrDrop } from "./question/keepOrDrop";
import { readAction, readAdopt } from "./question/adopt";
import { alongsideIncumbent, insteadIncumbent } from "./question/incumbents";
import { contentOf, purposeOf, topicWords } from "./question/topic";
import { isCopula, isModal, isNounish, isVerb, type Tok } from "./question/tokens";
import { trimNoun } from "./question/phrases";
import { termsForPhrase } from "./question/terms";
import { DETERMINERS, PERSONAL, PRONOUNS } from "./question/vocabulary";
import { readableTitle } from "./question/readable";
import { capitalise, referredTo } from "./question/titles";
import { boundedForReading, TAG_PREFIX, withoutAsideBeforeOr, withoutCodeExamples, withoutDanglingCoordination, withoutFollowUpQuestion } from "./question/questionText";

export type { QuestionForm, Alternative, QuestionStructure } from "./question/types";
export { MAX_READ_CHARS } from "./question/questionText";

/**
 * "Would it be better to vendor X, or rely on Y?", "Is it a good idea to let …?": a placeholder "it" with a judgement
 * asks whether to do what follows, as "should we …" does; read that way, each side is the act itself.
 */
const PLACEHOLDER_ASK = /\b(?:(?:would|will|could|is|was)\s+it\s+(?:be\s+)?(?:better|best|wiser|easier|simpler|cheaper|safer|preferable|sensible|a\s+(?:good|better|bad)\s+idea)|(?:would|will|could|does|did)\s+it\s+make\s+(?:more\s+)?sense)\s+(?:for\s+us\s+)?to\s+/gi;

/**
 * "Would adding a GraphQL layer help the mobile team?", "Is adopting Bazel going to pay off?": an act named as the
 * subject, judged by its effect, is what is proposed; read as "is it worth adding …?", whose gerund the reader takes.
 */
const ACT_JUDGED_BY_EFFECT =
  /\b(?:would|will|could|can|does|did|is|was)\s+((?:[a-z]+-)?[a-z]{3,}ing\s+[^?]{3,160}?)\s+(?:(?:really|actually|ever)\s+)?(?:help|pay\s+off|be\s+worth|reduce|improve|speed\s+up|simplify|fix|solve|cut|lower|save|prevent|make\s+(?:it|things|us|the)|going\s+to\s+(?:pay|help|be\s+worth))\b[^?]*\?/gi;

/** "…, or is it premature?", "…, or would that be overkill?": a tag that judges the proposal itself names no other option. */
const JUDGED_TAG = /,?\s+or\s+(?:is|would|will|was|isn't)\s+(?:it|that|this)\s+(?:be\s+)?(?:just\s+|still\s+|too\s+|a\s+bit\s+)?[a-z-]{3,20}(?:\s+(?:for\s+us|now|here|yet))?\s*\?/gi;

/** "Would / does X make (more) sense …": a subject of its own (not the placeholder "it") judged. */
const SUBJECT_MAKES_SENSE = /\b(?:would|will|could|does|did)\s+((?!it\b)[a-z][^?,;:]{1,80}?)\s+make\s+(?:more\s+)?sense\b/gi;

/** The question with its roundabout ways of asking put plainly: "is it worth VP-ing …?", "should we VP …?". */
function canonicalAsk(text: string): string {
  const sentenceStart = (m: string, word: string) => (/^[A-Z]/.test(m) ? word.charAt(0).toUpperCase() + word.slice(1) : word);
  return text
    .replace(JUDGED_TAG, "?")
    .replace(ACT_JUDGED_BY_EFFECT, (m, act: string) => `${sentenceStart(m, "is")} it worth ${act}?`)
    // "Is it better to retry in the client than in the gateway?" weighs two ways of doing it, as "should we retry in
    // the client rather than in the gateway?" does.
    .replace(new RegExp(`(${PLACEHOLDER_ASK.source})([^?.!]*?)\\b(?<!rather\\s)than\\b`, "gi"), (m, ask: string, tail: string) => `${sentenceStart(ask, "should")} we ${tail}rather than`)
    .replace(PLACEHOLDER_ASK, (m) => `${sentenceStart(m, "should")} we `)
    // "Would a CQRS split make sense for the catalog?" judges its subject as "would a CQRS split be a good idea" does.
    .replace(SUBJECT_MAKES_SENSE, (m, np: string) => `${sentenceStart(m, "would")} ${np} be a good idea`);
}

const memo = new Map<string, QuestionStructure>();
/** Markdown emphasis or code around words ("`Redis`", "**keep**"); an underscore inside a name ("client_id") is no marker. */
const EMPHASIS = /(?<![\p{L}\p{N}])([`*_]{1,2})([^`*_]+)\1(?![\p{L}\p{N}])/gu;

/** Reads the question's structure. Pure and deterministic (memoised: the synthesizer asks about each decision sentence). */
export function readQuestion(question: string): QuestionStructure {
  const hit = memo.get(question);
  if (hit) return structuredClone(hit);
  let value: QuestionStructure;
  try {
    value = readQuestionUncached(question);
  } catch {
    // A sentence the reader cannot take apart is an open question, never a failed deliberation.
    value = { form: "open", alternatives: [], topic: contentOf(question), text: question.trim() };
  }
  if (memo.size > 2000) memo.clear();
  memo.set(question, value);
  return structuredClone(value);
}

/** The reader without the memo and the safety net (tests use it to find sentences it cannot take apart). */
export function readQuestionUncached(question: string): QuestionStructure {
  const plain = withoutAsideBeforeOr(withoutCodeExamples(question.replace(TAG_PREFIX, "")).replace(EMPHASIS, "$2").trim());
  // The structure keeps the question as asked; only the reading sees it put plainly.
  const text = canonicalAsk(withoutFollowUpQuestion(plain));
  const base: QuestionStructure = { form: "open", alternatives: [], topic: contentOf(plain), text: plain };
  if (!text) return base;
  const paired = readQuestionPair(text);
  if (paired) return { ...base, ...paired, topic: topicWords(tokenize(boundedForReading(text)).filter((s) => s.length)) };
  const sentences = tokenize(boundedForReading(text)).filter((s) => s.length);
  if (!sentences.length) return base;
  base.topic = topicWords(sentences);
  // The sentence that asks (ends with "?"), else the last one; within it, the last clause, or the one that lists.
  const asks = sentences.findIndex((s) => /\?/.test(s[s.length - 1].post));
  const asking = sentences[asks >= 0 ? asks : sentences.length - 1];
  const askingAt = sentences.indexOf(asking);
  const clauses = clausesOf(asking);
  let ci = clauses.length - 1;
  // "Choosing between Swagger and RAML: which should we use?": the clause that lists, when the last one does not.
  if (!findConnectors(clauses[ci]).length) {
    const withList = clauses.findIndex((c) => findConnectors(c).length > 0);
    if (withList >= 0) ci = withList;
  }
  // "Cap'n Proto has no decode step, so should we move to it?": after a statement, "so" opens the asking clause.
  const joinedAt = clauses[ci].findIndex((t, k) => k > 2 && t.norm === "so" && /,/.test(clauses[ci][k - 1].post) && !!clauses[ci][k + 1] && (isModal(clauses[ci][k + 1]) || isCopula(clauses[ci][k + 1])));
  const whole = joinedAt > 0 ? clauses[ci].slice(joinedAt + 1) : clauses[ci];
  // "…, so nothing is ever lost?": a result clause says why, never what is proposed.
  // "… kept in the log so we can see Y": "so" and a subject open one too, comma or not, unless an alternative
  // follows ("post X to an endpoint so they are stored, or fetch them on demand?").
  const resultClause = (k: number) => /,/.test(whole[k - 1].post) || (["we", "you", "they", "that", "users", "people"].includes(whole[k + 1]?.norm ?? "") && !whole.slice(k).some((t) => t.norm === "or"));
  const so = whole.findIndex((t, k) => k > 2 && t.norm === "so" && resultClause(k) && !["far", "on", "forth", "much", "many"].includes(whole[k + 1]?.norm ?? ""));
  const toks = so > 0 ? whole.slice(0, so) : whole;
  const context = [...sentences.slice(0, askingAt), ...clauses.slice(0, ci), ...(joinedAt > 0 ? [clauses[ci].slice(0, joinedAt)] : [])];
  const clause = mainVerb(toks, 0, toks.length);
  // A question that asks for a way ("how should we …?", "is there a plan for …?") names no option of its own, unless
  // it lists answers after a comma; a wh-question ("which engine should …?") only picks from what it lists; the rest
  // propose something ("should we adopt X?").
  const ask = askingOf(toks);
  const listed = ask.seeksWay || ask.wh ? listedAnswersStart(toks, ask.start) : -1;
  let found: Partial<QuestionStructure> | undefined;
  if (ask.seeksWay) found = listed >= 0 ? readAlternatives(toks.slice(listed)) : undefined;
  else if (ask.wh) found = (listed >= 0 ? readAlternatives(toks.slice(listed)) : undefined) ?? readAlternatives(toks);
  else found = readAlternatives(toks) ?? readMigration(toks) ?? readCopula(toks.slice(ask.start)) ?? readMoveTo(toks, clause) ?? readKeepOrDrop(toks, clause) ?? readAdopt(toks, clause) ?? (proposes(toks) ? readAction(toks, clause) : undefined);
  // "What should the server do so these are caught, instead of relying on every author?": a wh-question asks for
  // what to do; only what it turns away from is named, and the question stays open ("what about X instead of Y?"
  // proposes X).
  if (ask.wh && found?.form === "alternatives" && found.incumbent && found.target) found = undefined;
  // A trailing "instead" ("… integrate Rspamd instead?") names the incumbent in the context.
  // "We deploy with Ansible today. Would Terraform be a better fit?": a comparative does the same.
  const replaces = toks.some((t, k) => t.norm === "instead" && !["of"].includes(toks[k + 1]?.norm ?? "")) || (context.length > 0 && toks.some((t) => t.tags.has("Comparative")));
  if (found?.alternatives?.length === 1 && found.target && replaces) {
    const inc = insteadIncumbent(context, toks, clause);
    if (inc) found = { form: "migration", alternatives: [inc, found.target], incumbent: inc, target: found.target };
  }
  if (found?.alternatives?.length === 1 && found.target && (found.form === "action" || found.form === "adopt")) {
    const inc = alongsideIncumbent(toks, { start: 0, end: toks.length });
    if (inc) {
      // What exists beside the proposal does not find the proposal.
      const target = { ...found.target, terms: found.target.terms.filter((t) => !inc.terms.includes(t)) };
      found = { ...found, alternatives: [target, inc], incumbent: inc, target };
    }
  }
  // Nothing without a readable title or with empty matching terms survives; a title cut off after ", and wait" ends
  // before the coordination it could not read.
  const finished = (title: string) => readableTitle(withoutDanglingCoordination(title));
  const alternatives = (found?.alternatives ?? [])
    .map((a) => ({ ...a, title: finished(a.title) }))
    .filter((a) => /[a-z0-9]/i.test(a.title))
    .map((a) => ({ ...a, terms: a.terms.filter((t) => /[a-z0-9]/i.test(t)) }));
  if (!found || !alternatives.length) return base;
  // Only a pronoun the asking sentence has not named a thing before may point into the sentence before it.
  // After ", so" the statement it joins is the sentence before ("We run Postgres, so should we use it for queues?").
  const askingPart = joinedAt > 0 ? whole : asking;
  const pronounAt = askingPart.findIndex((t) => t.norm === "it" || t.norm === "them");
  const namedFirst = askingPart.slice(0, Math.max(0, pronounAt)).some((t) => isNounish(t) && !PRONOUNS.has(t.norm) && !PERSONAL.has(t.norm));
  const statement = joinedAt > 0 ? clauses[ci].slice(0, joinedAt) : askingAt > 0 ? sentences[askingAt - 1] : undefined;
  const before = statement && pronounAt > 0 && !namedFirst ? statement : undefined;
  if (before) {
    for (const role of ["incumbent", "target"] as const) {
      const named = found[role] && alternatives.find((a) => a.title === finished(found![role]!.title));
      if (named) found[role] = { ...named, title: withAntecedent(named, before).title };
    }
    for (let k = 0; k < alternatives.length; k++) alternatives[k] = withAntecedent(alternatives[k], before);
  }
  if (found.incumbent) found.incumbent = alternatives.find((a) => a.title === finished(found!.incumbent!.title));
  if (found.target) found.target = alternatives.find((a) => a.title === finished(found!.target!.title));
  if (!found.incumbent) delete found.incumbent;
  if (!found.target) delete found.target;
  const named = new Set(alternatives.flatMap((a) => [...a.terms, ...contentOf(a.subject)]).flatMap((t) => t.split(/[\s-]+/)));
  const topic = base.topic.filter((w) => !named.has(w));
  const purpose = purposeOf(whole);
  return { ...base, ...found, form: found.form ?? "open", alternatives, topic, ...(purpose ? { purpose } : {}) };
}

/** Words that open a yes/no question ("Is …", "Should …", "Do we …"). */
const AUXILIARY = "(?:is|are|was|were|would|should|could|can|do|does|did|will|shall|must|might|may)";
const OPENS_WITH_AUXILIARY = new RegExp(`^${AUXILIARY}\\s`, "i");
/** A yes/no question, after at most a fronted phrase ("For the audit trail, should …"). */
const YES_NO_QUESTION = new RegExp(`^(?:[^,?]{1,80},\\s+)?${AUXILIARY}\\s`, "i");
/** A question that judges something rather than proposing an act: "is/are/would … be", "do we (still) need". */
const JUDGING = /^(?:(?:is|are|was|were)\s|(?:would|could|will|might)\s+(?!we\b|you\b|they\b)[^?]*?\bbe\b|(?:do|does)\s+(?:we|you|they)\s+(?:still\s+|really\s+)?need\b)/i;
/** ", or is X enough", ", or should each team …": a second question joined to the first. */
const OR_QUESTION = new RegExp(`,?\\s+or\\s+(?=${AUXILIARY}\\s)`, "gi");

/**
 * "Is resilience4j worth adopting, or is Spring Retry enough?": two yes/no questions joined by "or", each proposing
 * one thing. Each is read on its own (with the sentences before it), and what a "yes" to it means is an option:
 * "Adopt resilience4j" and "Keep Spring Retry". Undefined when the question is not two such questions, or when
 * either side proposes nothing readable (the whole question is then read as one).
 */
function readQuestionPair(text: string): Partial<QuestionStructure> | undefined {
  const sentences = text.split(/(?<=[.!?])\s+/);
  const asking = sentences.findIndex((x) => x.includes("?"));
  if (asking < 0 || !YES_NO_QUESTION.test(sentences[asking])) return undefined;
  const sentence = sentences[asking];
  const joins = [...sentence.matchAll(OR_QUESTION)];
  if (joins.length !== 1) return undefined;
  const at = joins[0].index!;
  // Two "should …" questions are one question with two alternatives, which the alternatives form reads with their
  // shared subject; a side that judges ("is X enough", "do we still need X") is a question of its own.
  const right = sentence.slice(at + joins[0][0].length);
  const left = OPENS_WITH_AUXILIARY.test(sentence) ? sentence : sentence.replace(/^[^,?]{1,80},\s+/, "");
  if (!JUDGING.test(right) && !JUDGING.test(left)) return undefined;
  const context = sentences.slice(0, asking).join(" ");
  const side = (q: string) => readQuestionUncached(`${context} ${q.replace(/\?*\s*$/, "?")}`.trim());
  // A fronted phrase ("For secrets in local development, is …") sets the scene for both sides; neither is read with it.
  const asked = (q: string) => q.charAt(0).toUpperCase() + q.slice(1);
  const [a, b] = [yesOption(side(asked(sentence.slice(sentence.length - left.length, at)))), yesOption(side(asked(right)))];
  if (!a || !b || a.title.toLowerCase() === b.title.toLowerCase()) return undefined;
  // "Do we still need Varnish, or is the CDN's cache good enough?": only one side is what is in place, the first.
  const alternatives = a.role === "incumbent" && b.role === "incumbent" ? [a, { ...b, title: capitalise(b.subject), role: "target" as const }] : [a, b];
  const incumbent = alternatives.find((x) => x.role === "incumbent");
  const target = incumbent ? alternatives.find((x) => x !== incumbent) : undefined;
  return { form: "alternatives", alternatives, ...(incumbent && target ? { incumbent, target: { ...target, role: "target" } } : {}) };
}

/** What answering "yes" to a one-proposal question chooses: the kept thing for "keep X?", else the proposal. */
function yesOption(s: QuestionStructure): QuestionStructure["alternatives"][number] | undefined {
  if (s.form === "keep") return s.incumbent;
  if (s.form === "open" || s.form === "alternatives") return undefined;
  return s.target;
}

/**
 * "We keep our Terraform state in an S3 bucket. Should we move it to Terraform Cloud?": an option must name what it
 * is about on its own, so "it" (or "them") right after the option's verb becomes the first singular (or plural)
 * noun phrase of the sentence before ("Move our Terraform state to Terraform Cloud").
 */
function withAntecedent(a: QuestionStructure["alternatives"][number], before: Tok[]): QuestionStructure["alternatives"][number] {
  const m = /^(\S+)\s+(it|them)\b/.exec(a.title);
  if (!m) return a;
  const plural = m[2] === "them";
  for (let i = 0; i < before.length; i++) {
    const t = before[i];
    const opens = DETERMINERS.has(t.norm) || (isNounish(t) && !(i > 0 && isNounish(before[i - 1])));
    if (!opens || PRONOUNS.has(t.norm) || PERSONAL.has(t.norm) || t.tags.has("Pronoun") || t.tags.has("Actor") || /^(?:no|some|every|any)(?:body|one)$/.test(t.norm)) continue;
    const np = trimNoun(before, i, before.length);
    // "a homegrown flags table": a plural the tagger took for a verb, before a noun, is a modifier.
    while (np.end + 1 < before.length && /s$/.test(before[np.end].norm) && before[np.end + 1].tags.has("Noun") && !PRONOUNS.has(before[np.end + 1].norm)) np.end = trimNoun(before, np.end + 1, before.length).end;
    const head = before[np.end - 1];
    // A phrase that leaves its sentence no verb has swallowed it ("our Python services pin dependencies"): misread.
    const swallowed = !before.some((x, k) => (k < np.start || k >= np.end) && (isVerb(x) || isCopula(x)));
    if (swallowed) {
      i = np.end - 1;
      continue;
    }
    if (np.end - np.start < (DETERMINERS.has(t.norm) ? 2 : 1) || !head || !isNounish(head) || /^\d/.test(before[np.start].norm)) continue;
    // People ("the team", "our developers") act; they are not what an option is about.
    if (head.tags.has("Plural") !== plural || PERSONAL.has(head.norm) || head.tags.has("Pronoun")) {
      i = np.end - 1;
      continue;
    }
    // "standardise them all on Poetry": the quantifier counted the pronoun's things; with the things named it goes.
    return { ...a, title: `${m[1]} ${referredTo(before, np)}${a.title.slice(m[0].length).replace(/^\s+(?:all|both|each)\b/, "")}`, terms: [...new Set([...a.terms, ...termsForPhrase(before, np)])] };
  }
  return a;
}
