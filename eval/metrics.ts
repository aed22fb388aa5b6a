// Pure helpers of the eval harness (eval/run.ts): content words, ADR titles, and the per-question scores.
// Dependency-free on purpose: the eval must keep working while the core changes underneath it.

// ---------------------------------------------------------------------------------------------------------------
// Content words

/**
 * English function words plus the generic verbs and fillers of a design question ("should we use / keep / move /
 * switch / adopt …"), so that "Should we adopt X?" and a record titled "Adopt Y" do not count as sharing a word.
 */
export const STOP_WORDS = new Set(
  `a an the and or but nor of to in on at by for with without from into onto over under about as than then so too very
   is are was were be been being am do does did doing done have has had having it its this that these those there here
   we us our ours you your i me my mine they them their he she his her who whom whose what which when where why how
   whether if not no yes just only also still now today already yet ever even again once
   should would could can may might must shall will let lets get gets got make makes made
   use uses used using keep keeps kept stay stays stick move moves moving switch switching adopt adopting go going
   want wants need needs needed think thinking consider considering wonder wondering decide deciding
   instead rather vs versus between either neither both each every all any some such one ones more most less other
   another same like via per up down out off time worth better best good bad way ok okay fine new adr adrs`
    .split(/\s+/)
    .filter(Boolean),
);

/** Crude plural stemming: "policies" → "policy", "boxes" → "box", "tests" → "test"; "class", "status" stay. */
export function stem(word: string): string {
  if (word.length > 4 && word.endsWith("ies")) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && /(?:sses|shes|ches|xes)$/.test(word)) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith("s") && !/(?:ss|us|is)$/.test(word)) return word.slice(0, -1);
  return word;
}

/** Lower-cased, stemmed content words: split on anything that is not a letter or digit; digits-only tokens dropped. */
export function contentWords(text: string): Set<string> {
  const out = new Set<string>();
  for (const raw of text.toLowerCase().replace(/['’]s\b/g, "").split(/[^a-z0-9]+/)) {
    if (raw.length < 2 || /^\d+$/.test(raw) || STOP_WORDS.has(raw)) continue;
    const w = stem(raw);
    if (!STOP_WORDS.has(w)) out.add(w);
  }
  return out;
}

export function sharedWords(a: string, b: string): string[] {
  const wb = contentWords(b);
  return [...contentWords(a)].filter((w) => wb.has(w));
}

// ---------------------------------------------------------------------------------------------------------------
// ADR titles

const GENERIC_HEADINGS = new Set(["context", "decision", "status", "consequences", "background", "problem", "summary", "overview"]);

/**
 * The title of a decision record: front-matter `title:`, else the first level-1 heading (ATX `# T`, also `#T`, or
 * setext `T` over `===`) that is not a section name like "Context", else the file name (for `…/README.md` or
 * `index.md`, the folder name) without its number, date or `adr-` prefix.
 */
export function adrTitle(content: string, path: string): string {
  const text = content.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
  let body = text;
  const fm = /^---\n([\s\S]*?)\n---[ \t]*(?:\n|$)/.exec(text);
  if (fm) {
    const t = /^title:[ \t]*(.+?)[ \t]*$/m.exec(fm[1]);
    const title = t?.[1].replace(/^(["'])(.*)\1$/, "$2").trim();
    if (title) return title;
    body = text.slice(fm[0].length);
  }
  const lines = body.split("\n");
  let fenced = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      continue;
    }
    if (fenced) continue;
    let heading: string | undefined;
    const atx = /^#(?!#)\s*(.+?)\s*#*\s*$/.exec(line);
    if (atx) heading = atx[1];
    else if (line.trim() && i + 1 < lines.length && /^=+\s*$/.test(lines[i + 1])) heading = line.trim();
    if (heading === undefined) continue;
    if (GENERIC_HEADINGS.has(heading.toLowerCase().replace(/[^a-z]/g, ""))) continue;
    return heading;
  }
  return titleFromPath(path);
}

export function titleFromPath(path: string): string {
  const parts = path.split("/");
  let name = parts[parts.length - 1].replace(/\.(md|markdown|mdx|txt|adoc|rst)$/i, "");
  if (/^(readme|index)$/i.test(name) && parts.length > 1) name = parts[parts.length - 2];
  return name
    .replace(/^\d{4}-\d{2}-\d{2}[-_]?/, "")
    .replace(/^\d{8}[-_]?/, "")
    .replace(/^adr[-_]?/i, "")
    .replace(/^\d+[-_.]?/, "")
    .replace(/[-_]+/g, " ")
    .trim();
}

// ---------------------------------------------------------------------------------------------------------------
// Shapes read from the CLI's output (parsed leniently: the core may add fields)

export interface EvalQuestion {
  id: string;
  repo: string;
  question: string;
  gold: string[];
  superseded?: string[];
  expected_options: string[][];
  gold_choice_keywords?: string[];
  no_content_word_overlap?: boolean;
  tags: string[];
}

export interface LooseEvidence {
  rank?: number;
  kind?: string;
  source_type?: string;
  path_or_url?: string;
  commit?: string;
  title?: string;
  adr?: { path?: string; status?: string; title?: string } | null;
}

export interface LooseCitation {
  id: string;
  kind?: string;
  path_or_url?: string;
  commit?: string;
}

export interface LooseOption {
  id: string;
  title: string;
  supports?: string[];
  dissent?: string[];
}

export interface LoosePayload {
  options?: LooseOption[];
  recommendation?: { option_id?: string; confidence?: string; rationale?: string };
  citations?: LooseCitation[];
  receipt_ref?: string;
  evidence_ref?: string;
  objections?: { severity?: string }[];
  critic_effect?: { action: string; draft_option_id: string; draft_confidence: string };
}

export const UNDECIDABLE_ID = "undecidable-on-current-evidence";

export function normPath(p: string): string {
  return p.replace(/\\/g, "/").replace(/^\.\//, "").replace(/[#?].*$/, "").replace(/:\d+(?:-\d+)?$/, "");
}

function isCommit(e: { commit?: string; source_type?: string }): boolean {
  return !!e.commit || e.source_type === "commit";
}

/**
 * Distinct internal documents in fused rank order. Commits are skipped even when they carry a file path (a
 * commit that touched an ADR is history about the ADR, not the ADR); web and dependency docs are external.
 */
export function rankedDocs(evidence: LooseEvidence[]): string[] {
  const sorted = evidence
    .map((e, i) => ({ e, i }))
    .sort((a, b) => (a.e.rank ?? a.i + 1) - (b.e.rank ?? b.i + 1) || a.i - b.i)
    .map((x) => x.e);
  const out: string[] = [];
  const seen = new Set<string>();
  for (const e of sorted) {
    if (e.kind !== "internal" || isCommit(e)) continue;
    const p = e.adr?.path || e.path_or_url;
    if (!p) continue;
    const key = normPath(p);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(key);
  }
  return out;
}

/** 1-based rank of the first gold document among `docs`, or undefined. */
export function firstRank(docs: string[], paths: string[]): number | undefined {
  const want = new Set(paths.map(normPath));
  const i = docs.findIndex((d) => want.has(d));
  return i < 0 ? undefined : i + 1;
}

// ---------------------------------------------------------------------------------------------------------------
// Options

/** A keep / defer / do-nothing marker; the rest of a generic option's title may only be filler words. */
const GENERIC_MARKER = /\b(keep|stay|stick|current|currently|existing|status quo|defer|postpone|wait|do nothing|no change|as[- ]is|leave)\b/i;
const GENERIC_FILLER = new Set(
  `defer deferred do approach setup solution design status quo decision later gather collect more evidence information postpone wait nothing
   change changes leave current currently existing present option alternative what have the and with as is it for now until`
    .split(/\s+/)
    .filter(Boolean),
);

/**
 * Options that take no side on the named alternatives: "Keep the current approach", "Defer the decision and gather
 * more evidence", "Do nothing". "Keep Guice modules" is not generic: it names something, so it must be on topic.
 */
export function isGenericOption(title: string): boolean {
  if (!GENERIC_MARKER.test(title)) return false;
  return title
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter(Boolean)
    .every((t) => GENERIC_FILLER.has(t) || STOP_WORDS.has(t));
}

function hasKeyword(title: string, keywords: string[]): boolean {
  const t = title.toLowerCase();
  return keywords.some((k) => k && t.includes(k.toLowerCase()));
}

/** Assigns each expected group a distinct option whose title contains one of the group's keywords (backtracking). */
export function matchGroups(titles: string[], groups: string[][]): (number | undefined)[] {
  const best: (number | undefined)[] = groups.map(() => undefined);
  let bestCount = -1;
  const current: (number | undefined)[] = [];
  const used = new Set<number>();
  const walk = (g: number, count: number): void => {
    if (count + (groups.length - g) <= bestCount) return;
    if (g === groups.length) {
      if (count > bestCount) {
        bestCount = count;
        current.forEach((v, i) => (best[i] = v));
      }
      return;
    }
    for (let i = 0; i < titles.length; i++) {
      if (used.has(i) || !hasKeyword(titles[i], groups[g])) continue;
      used.add(i);
      current[g] = i;
      walk(g + 1, count + 1);
      used.delete(i);
    }
    current[g] = undefined;
    walk(g + 1, count);
  };
  walk(0, 0);
  return best;
}

export interface OptionsVerdict {
  ok: boolean;
  unmatched: string[][];
  fragments: string[];
  off_topic: string[];
}

/**
 * Options are right when every expected group matches a distinct option title, no title is a fragment (at most one
 * content word, no expected group's or gold choice's keyword in it, and not a generic keep/defer option), and no
 * title is off-topic (shares no content word with the question, matches no expected group, is not generic, and is
 * not the gold choice). A title the deciding record itself writes (word for word) is neither.
 */
export function judgeOptions(question: EvalQuestion, titles: string[], goldTexts: string[] = []): OptionsVerdict {
  const flat = (t: string) => t.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ").trim();
  const gold = goldTexts.map(flat);
  const groups = question.expected_options ?? [];
  const assignment = matchGroups(titles, groups);
  const unmatched = groups.filter((_, i) => assignment[i] === undefined);
  const qWords = contentWords(question.question);
  const fragments: string[] = [];
  const offTopic: string[] = [];
  for (const title of titles) {
    if (isGenericOption(title)) continue;
    // An option named from the deciding record ("its title: what it decided") is from the record when each part is.
    const inGold = (t: string) => flat(t).length >= 3 && gold.some((g) => ` ${g} `.includes(` ${flat(t)} `));
    const inGoldRecord = inGold(title) || (/: /.test(title) && title.split(/: /).every((part) => inGold(part.replace(/…$/, ""))));
    if (inGoldRecord) continue;
    const words = [...contentWords(title)];
    const named = groups.some((g) => hasKeyword(title, g));
    const isChoice = !!question.gold_choice_keywords?.length && hasKeyword(title, question.gold_choice_keywords);
    // "Keep Black" names what the deciding record chose: one word, but the whole name of an option.
    if (words.length <= 1 && !named && !isChoice) fragments.push(title);
    if (!named && !isChoice && !words.some((w) => qWords.has(w))) offTopic.push(title);
  }
  return { ok: unmatched.length === 0 && fragments.length === 0 && offTopic.length === 0, unmatched, fragments, off_topic: offTopic };
}

// ---------------------------------------------------------------------------------------------------------------
// Recommendation

export interface GroundedVerdict {
  grounded: boolean;
  reason: string;
}

/**
 * Grounded: a recommendation (not undecidable) whose option's supports cite a gold record itself (a non-commit
 * citation whose path_or_url is a gold path), and, when gold_choice_keywords are given, whose title names the
 * choice the gold record made.
 */
export function judgeGrounded(question: EvalQuestion, payload: LoosePayload): GroundedVerdict {
  const rec = payload.recommendation?.option_id;
  if (!rec) return { grounded: false, reason: "no recommendation" };
  if (rec === UNDECIDABLE_ID) return { grounded: false, reason: "undecidable" };
  const option = payload.options?.find((o) => o.id === rec);
  if (!option) return { grounded: false, reason: `recommended option ${rec} not found` };
  const gold = new Set(question.gold.map(normPath));
  const citations = new Map((payload.citations ?? []).map((c) => [c.id, c]));
  const citesGold = (option.supports ?? []).some((id) => {
    const c = citations.get(id);
    return !!c && !isCommit(c) && !!c.path_or_url && gold.has(normPath(c.path_or_url));
  });
  if (!citesGold) return { grounded: false, reason: `"${option.title}" does not cite the gold record in its supports` };
  const kws = question.gold_choice_keywords ?? [];
  if (kws.length && !hasKeyword(option.title, kws)) return { grounded: false, reason: `"${option.title}" is not the gold choice (${kws.join("/")})` };
  return { grounded: true, reason: "ok" };
}

export function noAnswerFlagged(payload: LoosePayload): boolean {
  return payload.recommendation?.option_id === UNDECIDABLE_ID || payload.recommendation?.confidence === "low";
}

// ---------------------------------------------------------------------------------------------------------------
// Aggregates

export function percentile(values: number[], p: number): number | undefined {
  if (!values.length) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const idx = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[idx];
}

export function ratio(num: number, den: number): number | undefined {
  return den ? num / den : undefined;
}

