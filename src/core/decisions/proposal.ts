// What a proposal-style record proposes. An RFC, RFD, OTEP, TEP or design proposal has no "Decision" section: it
// states its proposal once, near the top ("This RFC proposes X", "Introduce X", "X will be every 12 versions") and
// then argues for it. Every such record is read the same way: the sentences of the parts that state a proposal (its
// summary and the like first, then its proposal or design part) are scored on general features (how firmly the
// sentence commits, how early it comes, whether it describes today's problem instead) and the best one is the
// proposal, read to the end of its clause.
import type { LineRange } from "../schemas";
import type { ParsedAdr } from "../internal/adr";
import { stripInline, type MarkdownSection } from "../internal/markdown";
import { isFragment } from "./fragments";
import { statesAGoal } from "./goals";
import { statesAnOutcome } from "./outcomes";
import { coverage, headingKey } from "./words";
import { CHOICE_NOUNS, readDecisionSentence, sentencesIn, type LocatedSentence } from "./prose";

/** Parts that sum the record up: where a proposal is stated first. */
const LEAD_PART = /^(?:summary|abstract|tl;?\s?dr|synopsis|executive summary|overview|introduction|intro|what|about)$/;
/** Parts that lay the proposal out: its statement may open them. */
const DESIGN_PART = /^(?:(?:the )?proposal|proposed (?:solution|design|change|approach)s?|(?:the )?solution|how|(?:detailed |technical |high[- ]level )?design(?: details| overview)?|detailed explanation|explanation|internal details|specification|implementation(?: details)?)$/;

/** How firmly a reading's cue commits: a stated proposal or decision most, a description of how things will be least. */
const CUE_WEIGHT: Record<string, number> = {
  "this record proposes": 4,
  "we propose": 4,
  "it was decided": 4,
  "decided to": 4,
  "decided that": 4,
  "decided on": 4,
  "we decided": 4,
  "best choice": 3,
  imperative: 2.5,
  "we will": 2,
  "set to": 3,
  "we are adopting": 2,
  gerund: 1.5,
  passive: 1.5,
  "we have": 1,
  "third person": 1,
  "we use": 1,
};
/** A part's weight: the summary's statement over the design's. */
const LEAD_WEIGHT = 1;
const DESIGN_WEIGHT = 0.5;
/** Each sentence further into its part counts this much less. */
const POSITION_COST = 0.4;
/** Sentences read from the top of each part. */
const PART_SENTENCES = 6;
/** A sentence about how things are today, or about the problem, states no proposal. */
const DESCRIBES_TODAY = /\b(?:currently|today|at the moment|at present|presently|right now|problem|issue|pain|lacks?|unable|cannot|can't|doesn't|does not|isn't|is not)\b/i;
/** Hedged, hypothetical or future-work wording: "we could", "one option would be", "in the future". */
const HEDGED = /\b(?:could|might|may|would|in the future|future work|out of scope|non-goal|alternatively|for example|e\.g\.)\b/i;
/** How much a sentence at the record's end counts less than one at its start. */
const LATE_COST = 1.5;
/** How much a statement that names what the title names counts more. */
const TITLE_GAIN = 0.75;
const WORDING_COST = 1.5;
const FIRST_PERSON_GAIN = 1;
const FORM_COST = 1;
/** The authors' own commitment: "We will X", "We propose X" ("We want to X" states a goal). */
const FIRST_PERSON_COMMITMENT = /^\s*(?:we|i)(?:\s+will|\s+shall|'ll|\s+are going to|\s+propose|\s+(?:have\s+)?decided)\b/i;
const LIST_ITEM = /^\s*(?:[-*+]|\d{1,3}[.)])\s/;
/** "- Start Date: 2020-04-27", "**Author**: …": a label and its value. */
const METADATA = /^\s*(?:[-*+]\s+)?(?:\*\*|__)?[A-Z][\w-]*(?:\s[\w-]+){0,2}(?:\*\*|__)?\s*:(?:\*\*|__)?\s+\S/;
/** "send these requests", "adopt it": an object that only points back at what came before names nothing. */
const POINTS_AT_CONTEXT = /^\S+\s+(?:this|that|these|those|it|them)\b/i;
/** Cues that may only describe: they state a proposal only with a modal ("X will be …", "X should be …"). */
const DESCRIPTIVE_CUES = new Set(["passive", "third person", "we use", "we have", "gerund"]);
const MODAL = /\b(?:will|shall|should|must|is to|are to|'ll)\b/i;
/** "We will go through the rationale", "describe the current design": what the document does, not what it proposes. */
const ABOUT_THE_TEXT = /^(?:describe|discuss|explain|outline|go (?:through|over)|cover|present|highlight|explore|look (?:at|into)|summari[sz]e|walk through|elaborate|clarify|capture|list|review)\b/i;
/** "the strategy for managing X", "the approach to versioning": the topic the record settles, not what it settles on. */
const NAMES_THE_TOPIC = /^(?:the\s+(?:\w+\s+)?)?(?:strategy|approach|process|plan|policy|way|direction|guidelines|rules|conventions?)\s+(?:for|to|towards?|around|regarding)\b/i;
export function namesOnlyTheTopic(phrase: string): boolean {
  return NAMES_THE_TOPIC.test(phrase);
}
/** Below this score no sentence is taken for the proposal. */
const MIN_SCORE = 2.5;
/** A phrase that names only a capability: "provide a mechanism for …", "support for …", "allow users to …". */
const CAPABILITY =
  /^(?:(?:provide|introduce|add|offer|create|implement)\s+(?:a|an|the)\s+(?:new\s+)?(?:mechanism|way|means|method|ability|capability|option)\b|(?:add\s+|implement\s+|introduce\s+)?support\s+for\b|(?:allow|enable|let)\s+(?:users?|developers?|operators?|people|clients?)\s+to\b)/i;
/** A statement that names the design outranks a capability from this score on, below MIN_SCORE: it names more. */
const DESIGN_OVER_CAPABILITY = 2;
/** A design is named in at least this many words ("need to configure" is a fragment of a requirement). */
const DESIGN_WORDS = 4;

/** The proposal a proposal-style record states, with the sentence that states it; undefined when none does. */
export interface ProposalStatement {
  name: string;
  range: LineRange;
  score: number;
}

export interface Candidate {
  sentence: LocatedSentence;
  phrase: string;
  score: number;
  /** Stated in a part that lays the design out ("Detailed design", "Proposal"), not one that sums the record up. */
  inDesign: boolean;
}

/** The parts of the record that may state its proposal, each with its weight; the text before the first part too. */
function statingParts(parsed: ParsedAdr): { from: number; to: number; weight: number; inDesign: boolean }[] {
  const { sections } = parsed.doc;
  const out: { from: number; to: number; weight: number; inDesign: boolean }[] = [];
  sections.forEach((s: MarkdownSection, i) => {
    if (s.level === 0) return;
    const key = headingKey(s.heading);
    // The title's own body (text between the title and the first part) is the record's opening.
    const opening = parsed.section_names[i] === "title" || s.level === 1;
    const weight = LEAD_PART.test(key) || opening ? LEAD_WEIGHT : DESIGN_PART.test(key) ? DESIGN_WEIGHT : undefined;
    // "## Proposal" then "### Overview": the overview of the design is part of the design.
    const parent = sections.slice(0, i).reverse().find((p: MarkdownSection) => p.level > 0 && p.level < s.level);
    const inDesign = DESIGN_PART.test(key) || (parent !== undefined && DESIGN_PART.test(headingKey(parent.heading)));
    if (weight !== undefined) out.push({ from: s.bodyStart, to: s.contentEnd, weight, inDesign });
  });
  return out;
}

/** Every committing sentence of the stating parts, best first (the earlier on a tie). */
export function proposalCandidates(parsed: ParsedAdr): Candidate[] {
  const { lines } = parsed.doc;
  const out: Candidate[] = [];
  for (const part of statingParts(parsed)) {
    const sentences = sentencesIn(lines, part.from, part.to, PART_SENTENCES * 2).filter((s) => !(s.start === s.end && /^ {0,3}#/.test(lines[s.start - 1] ?? "")));
    sentences.slice(0, PART_SENTENCES).forEach((s, position) => {
      const c = scored(s, position, part.weight, lines, parsed.title);
      if (c) out.push({ ...c, inDesign: part.inDesign });
    });
  }
  return out.sort((a, b) => b.score - a.score || a.sentence.start - b.sentence.start);
}

/** Scores one sentence as the record's statement of its proposal; undefined when it commits to nothing. */
function scored(sentence: LocatedSentence, position: number, weight: number, lines: string[], title: string): Omit<Candidate, "inDesign"> | undefined {
  // A question asks; a metadata line ("Start Date: 2020-04-27") labels.
  if (/\?\s*$/.test(sentence.text) || METADATA.test(lines[sentence.start - 1] ?? "")) return undefined;
  const reading = readDecisionSentence(sentence.text);
  // "We will X" is the authors' own commitment; "X will Y" may only describe how a thing behaves.
  const cue = (CUE_WEIGHT[reading.cue ?? ""] ?? NaN) + (reading.cue === "we will" && /^\s*(?:we|i)\b/i.test(stripInline(sentence.text)) ? FIRST_PERSON_GAIN : 0);
  if (!reading.chosen || Number.isNaN(cue) || reading.continuity || isFragment(reading.chosen) || statesAnOutcome(reading.chosen) || statesAGoal(sentence.text) || POINTS_AT_CONTEXT.test(reading.chosen) || ABOUT_THE_TEXT.test(reading.chosen)) return undefined;
  // "Release notes are written by hand" is no command to release notes: a finite verb right after the first words
  // makes the sentence a statement.
  if (reading.cue === "imperative" && /^\S+\s+(?:\S+\s+)?(?:is|are|was|were|has|have|had)\b/i.test(stripInline(sentence.text))) return undefined;
  // "Release notes are written by hand": a present-tense statement without a modal says how things are.
  if (DESCRIPTIVE_CUES.has(reading.cue ?? "") && !MODAL.test(sentence.text)) return undefined;
  const phrase = withDefiningAside(sentence.text, toClauseEnd(sentence.text, reading.chosen));
  if (namesOnlyTheTopic(phrase)) return undefined;
  const line = lines[sentence.start - 1] ?? "";
  let score = cue + weight - POSITION_COST * position - LATE_COST * (sentence.start / Math.max(1, lines.length)) + TITLE_GAIN * coverage(title, phrase);
  if (DESCRIBES_TODAY.test(sentence.text)) score -= WORDING_COST;
  if (HEDGED.test(sentence.text.replace(/\bwould like to\b/gi, ""))) score -= WORDING_COST;
  // A list item is a goal, step or detail, unless the authors commit to it in their own voice ("1. We will fork X");
  // a sentence that ends in a colon announces what follows it.
  if (LIST_ITEM.test(line) && !FIRST_PERSON_COMMITMENT.test(stripInline(sentence.text))) score -= FORM_COST;
  if (/:\s*$/.test(sentence.text)) score -= FORM_COST;
  return { sentence, phrase, score };
}

/**
 * What a proposal-style record proposes: the best-scored committing sentence among the first sentences of its summary
 * (or abstract, overview, introduction, opening) and of its proposal or design parts; undefined when none scores
 * MIN_SCORE. On a tie the earlier sentence wins.
 */
export function proposalStatement(parsed: ParsedAdr): ProposalStatement | undefined {
  const candidates = proposalCandidates(parsed);
  let best = candidates[0];
  if (!best || best.score < MIN_SCORE) return undefined;
  // "Provide a mechanism for users to X", "Add support for X", "Allow users to X": a capability says what the proposal
  // achieves, not what it is; a statement of the design part that names the design itself ("Add a field called
  // overrides") says that. (The motivation's "It will bring new languages to X" is a benefit, not the design.)
  if (CAPABILITY.test(best.phrase)) best = candidates.find((c) => c.inDesign && !CAPABILITY.test(c.phrase) && c.phrase.split(/\s+/).length >= DESIGN_WORDS && c.score >= DESIGN_OVER_CAPABILITY) ?? best;
  return { name: best.phrase, range: { start: best.sentence.start, end: best.sentence.end }, score: best.score };
}

/** "Pulley — a portable interpreter — to X": an aside between dashes that says what the name before it is. */
const DEFINING_ASIDE = /([\p{L}\p{N}][\w.-]*)\s*(?:—|–|\s--\s)\s*((?:a|an)\s[^—–.;:]{1,100}?)\s*(?:—|–|\s--\s)/iu;

/** "introduces PlacementV2, a redesign that moves X into Y": an appositive after a name, to the end of the sentence,
 * that says what the name stands for. */
const DEFINING_APPOSITIVE = /([\p{L}\p{N}][\w.-]*)["”'`]?\s*,\s+((?:a|an)\s[^,.;:()]{8,160}?)\s*(?=[.;:]?$)/iu;
/** A phrase of at most this many words is a bare name that an appositive may define. */
const NAME_WORDS = 2;

/**
 * The reading drops asides between dashes; one that defines a name the proposal holds ("Introduce Pulley — a
 * portable, optimizing interpreter — to Wasmtime") says what is proposed, so it is put back after that name.
 */
export function withDefiningAside(sentence: string, phrase: string): string {
  const m = DEFINING_ASIDE.exec(stripInline(sentence)) ?? (phrase.split(/\s+/).length <= NAME_WORDS ? DEFINING_APPOSITIVE.exec(stripInline(sentence)) : null);
  if (!m) return phrase;
  const words = phrase.split(/\s+/);
  const at = words.findIndex((w) => w === m[1]);
  return at < 0 ? phrase : [...words.slice(0, at + 1), `(${m[2].trim()})`, ...words.slice(at + 1)].join(" ");
}

/** A proposal is read to the end of its clause, up to this many words. */
const STATEMENT_WORDS = 24;
/** Words that end the clause that states a proposal: a reason, a contrast, a relative clause, what it leads to. */
const CLAUSE_END = /^(?:because|since|so|over|which|while|whereas|although|though|but|however|thus|hence|unless|until|instead|rather|where|when|if)$/;
/** "to allow", "in order to", "so that": a purpose after the proposal, not part of it. */
/** Words that bring a clause to where its action leads: "to PostgreSQL", "into a single team". */
const DESTINATION = /^(?:to|into|onto)$/;
/** An identifier as code writes it: snake_case, dotted.path, --flag, camelCase. */
const CODE_NAME = /^[^\s,]*(?:[a-z0-9]_[a-z0-9]|[a-z]\.[a-z]|^--?[a-z]|[a-z][A-Z])[^\s]*$/;
/** An aside between commas before the destination is at most this long: "two teams, A and B, into one". */
const APPOSITIVE_WORDS = 5;
const PURPOSE = /^(?:order|ensure|allow|make|avoid|enable|support|reduce|improve|help|prevent|provide|simplify)$/;

/**
 * The reading's phrase, carried on through the rest of its clause: "adding support in the Wasmtime API" becomes "adding
 * support in the Wasmtime API for sharing host function definitions between multiple stores". The phrase is kept as
 * it is when the sentence does not hold it word for word.
 */
export function toClauseEnd(sentence: string, phrase: string): string {
  const toks = stripInline(sentence).split(/\s+/).filter(Boolean);
  const bare = (t: string) => t.toLowerCase().replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, "");
  const want = phrase.split(/\s+/).map(bare).filter(Boolean);
  if (want.length === 0) return phrase;
  const low = toks.map(bare);
  const at = low.findIndex((_, i) => want.every((w, k) => low[i + k] === w));
  if (at < 0) return phrase;
  let end = at + want.length - 1;
  // The phrase already ends its clause (a parenthesis it opened itself closes nothing: "Manager (CCM) to X").
  const closesOwn = /\)$/.test(toks[end]) && toks.slice(at, end + 1).some((t) => t.includes("("));
  // "port X from A, to B", "merge two teams, A and B, into one": after a comma the clause still has its destination;
  // "add a new histogram, query_duration_seconds": a code name right after the comma names what was just introduced.
  const destinationAfter = (k: number): number | undefined => {
    if (CODE_NAME.test(toks[k + 1] ?? "") && !/^(?:e\.g|i\.e|cf|etc|vs)\b/i.test(toks[k + 1])) return k;
    for (let j = k; j <= k + APPOSITIVE_WORDS && j < toks.length - 1; j++) {
      if (!toks[j].endsWith(",")) continue;
      const direct = j === k && low.slice(at, k + 1).includes("from");
      if ((direct || j > k) && DESTINATION.test(low[j + 1]) && !PURPOSE.test(low[j + 2] ?? "")) return j;
      if (j > k) return undefined;
    }
    return undefined;
  };
  const resume = /,$/.test(toks[end]) ? destinationAfter(end) : undefined;
  if (resume === undefined && ((/[,;:.!?)]$/.test(toks[end]) && !closesOwn) || end + 1 >= toks.length)) return phrase;
  const out = [resume === undefined ? phrase : stripInline(toks.slice(at, resume + 1).join(" "))];
  if (resume !== undefined) end = resume;
  let count = want.length;
  for (let i = end + 1; i < toks.length && count < STATEMENT_WORDS; i++, count++) {
    const w = low[i];
    // A parenthetical ("(that is, X)", "(EKS)") is an aside: skipped, and the clause goes on after it.
    if (toks[i].startsWith("(")) {
      let j = i;
      while (j < toks.length - 1 && !toks[j].includes(")") && j - i < STATEMENT_WORDS) j++;
      if (/\)[,;:.!?]$/.test(toks[j])) break;
      i = j;
      continue;
    }
    if (CLAUSE_END.test(w)) break;
    // "… as the preferred approach" gives the proposal a role; "marked as optional" goes on.
    if (w === "as" && /^(?:a|an|the|our|its|their)$/.test(low[i + 1] ?? "")) break;
    if ((w === "to" || w === "in" || w === "so") && PURPOSE.test(low[i + 1] ?? "")) break;
    if (/^[—–]$|^--$/.test(toks[i])) break;
    if (/,$/.test(toks[i])) {
      const j = destinationAfter(i);
      if (j !== undefined) {
        out.push(toks.slice(i, j + 1).join(" ").replace(/(?<![\w])[*_`]+|[*_`]+(?![\w])/g, ""));
        count += j - i;
        i = j;
        continue;
      }
    }
    out.push(toks[i].replace(/[,;:.!?]+$/, "").replace(/^[*_`]+|[*_`]+$/g, ""));
    if (/[,;:.!?]$/.test(toks[i])) break;
  }
  return out.join(" ").replace(/\s+(?:and|or|the|a|an|of|to|for|with|in|on|by)$/i, "").trim();
}

/** A sentence that goes on about the proposal opens with a subject of at most this many words. */
const DETAIL_SUBJECT_WORDS = 5;
/** A detail adds at most this many words to the proposal's name, and at least DETAIL_MIN_WORDS. */
const DETAIL_WORDS = 10;
const DETAIL_MIN_WORDS = 3;
const DETAIL_VERB = /^(?:will|shall|must|should|is|are)$/i;
const POINTING_SUBJECT = /^(?:this|that|these|those|it|they|there|which|each|some|many|most|all|both)$/i;

/**
 * "Add a Long Term Support (LTS) channel of releases for Wasmtime. LTS releases for Wasmtime will be every 12
 * versions …": a sentence right after the statement, in its paragraph, whose subject is made only of the statement's
 * own words says what the proposed thing is; its predicate joins the name ("… channel of releases that will be every
 * 12 versions …"), as a decision's next sentence about the chosen thing does. A subject that points back ("This
 * should …") or brings words of its own names something else.
 */
export function withFollowingDetail(lines: string[], statement: { name: string; range: LineRange }): string | undefined {
  let end = statement.range.end;
  while (end < lines.length && (lines[end] ?? "").trim() && !/^\s*(?:#|[-*+]\s|\d{1,3}[.)]\s)/.test(lines[end])) end++;
  const sentences = sentencesIn(lines, statement.range.start, end, 6);
  const own = sentences.findIndex((s) => s.start <= statement.range.start && statement.range.start <= s.end);
  if (own < 0) return undefined;
  const stated = sentences[own].text;
  for (const s of sentences.slice(own + 1, own + 3)) {
    const words = stripInline(s.text).split(/\s+/).filter(Boolean);
    const verbAt = words.findIndex((w, i) => i > 0 && DETAIL_VERB.test(w));
    if (verbAt < 1 || verbAt > DETAIL_SUBJECT_WORDS || POINTING_SUBJECT.test(words[0])) continue;
    const subject = words.slice(0, verbAt).join(" ");
    if (coverage(subject, stated) < 1 || coverage(subject, statement.name) === 0) continue;
    // The detail ends where a reason, an aside or a further clause begins.
    const clause = words.slice(verbAt).join(" ").split(/[.;:!?](?:\s|$)|,\s|\s\(|\s(?:as|because|since|so|but|which|while)\s/)[0];
    const detail = clause.split(/\s+/).slice(0, DETAIL_WORDS);
    // "The Operator is a natural fit": a predicate that ranks the thing says why it was picked, not what it is.
    if (/^(?:is|are)$/i.test(detail[0]) && /^(?:a|an|the)$/i.test(detail[1] ?? "") && detail.slice(2, 4).some((w) => CHOICE_NOUNS.test(w.toLowerCase()))) continue;
    if (detail.length < DETAIL_MIN_WORDS) return undefined;
    return `${statement.name} that ${detail.join(" ")}`;
  }
  return undefined;
}
