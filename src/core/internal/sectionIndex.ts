// BM25 over text sections, shared by every expert that ranks passages (repo docs here, dependency and web docs
// elsewhere). One in-memory MiniSearch index per sections array, reused while the caller keeps that array.
import MiniSearch from "minisearch";

export interface TextSection {
  /** The section's own heading (boosted most). */
  heading: string;
  /** The enclosing document's title, e.g. the ADR title (boosted less). */
  title?: string;
  body: string;
}

export interface RankedSection<T extends TextSection> {
  section: T;
  /** Position of the section in the input array (the deterministic tie-break). */
  index: number;
  /** BM25 score: query terms at full weight plus expansions at `expansionWeight`. */
  score: number;
  /** Index terms that matched (after stemming; prefix and fuzzy matches included). */
  matched: string[];
  /** The query's own terms (processed) that found something in this section. */
  queryMatched: string[];
}

export interface RankOptions {
  /** Weight of expansion terms relative to the plan's own terms. Default 0.5. */
  expansionWeight?: number;
  boost?: { heading?: number; title?: number; body?: number };
  /** Bodies are indexed up to this many characters. Default 50 000. */
  maxBodyChars?: number;
  /** Prefix matching for terms of 4+ characters and one edit of fuzziness for 6+. Default true. */
  loose?: boolean;
  /** Feedback terms (pseudo-relevance feedback), exact matches only, at `feedbackWeight` (default 0.3). */
  feedback?: readonly string[];
  feedbackWeight?: number;
}

const STOP_WORDS = new Set(
  (
    "a an and are as at be but by can could do does for from has have how i if in into is it its of on or our " +
    "should so than that the their them then there these this those to use used uses using was we what when where " +
    "which while who why will with would you your vs versus not no yes all any each more most other some such"
  ).split(" "),
);

/**
 * Lower-cases, drops stop words and one-character tokens, splits camelCase identifiers into their parts (keeping
 * the whole), and strips plural endings, so "Orders" meets "order" and "createOrder" meets "order".
 */
export function processTerm(term: string): string[] | null {
  // Indexing calls this once per token of every document; words repeat, so the answer is memoised.
  const hit = termMemo.get(term);
  if (hit !== undefined) return hit;
  const result = processTermUncached(term);
  if (termMemo.size > 200_000) termMemo.clear();
  termMemo.set(term, result);
  return result;
}

const termMemo = new Map<string, string[] | null>();

function processTermUncached(term: string): string[] | null {
  const parts = term.split(/(?<=[a-z0-9])(?=[A-Z])/);
  const out = new Set<string>();
  for (const raw of parts.length > 1 ? [term, ...parts] : [term]) {
    const t = raw.toLowerCase();
    if (t.length < 2 || STOP_WORDS.has(t)) continue;
    out.add(stem(t));
  }
  return out.size ? [...out] : null;
}

/** Plural stripping only: cheap, predictable, and applied identically to documents and queries. */
export function stem(t: string): string {
  if (t.length <= 3 || /\d/.test(t)) return t;
  if (t.endsWith("ies") && t.length > 4) return t.slice(0, -3) + "y";
  if (/(ss|us|is|ws)$/.test(t)) return t;
  if (/(sses|xes|ches|shes)$/.test(t)) return t.slice(0, -2);
  if (t.endsWith("s")) return t.slice(0, -1);
  return t;
}

/**
 * Ranks sections against the plan's terms (full weight) and expansions (lower weight), OR-combined, with prefix
 * matching on terms of 4+ characters and one edit of fuzziness on terms of 6+. Returns at most `limit` sections
 * with a positive score, best first, ties broken by input order.
 */
export function rankTextSections<T extends TextSection>(
  sections: readonly T[],
  terms: readonly string[],
  expansions: readonly string[] = [],
  limit = Number.POSITIVE_INFINITY,
  options: RankOptions = {},
): RankedSection<T>[] {
  const termQuery = terms.map((t) => t.trim()).filter(Boolean).join(" ");
  const termTokens = new Set(termQuery.split(/[\s\p{P}]+/u).flatMap((t) => processTerm(t) ?? []));
  // An expansion that repeats a term would count twice; keep only the new words.
  const expQuery = expansions
    .flatMap((e) => e.split(/[\s\p{P}]+/u))
    .filter((e) => e && !(processTerm(e) ?? []).every((t) => termTokens.has(t)))
    .join(" ");
  if (!sections.length || (!termQuery && !expQuery && !options.feedback?.length)) return [];

  const index = indexFor(sections, options);

  const w = options.expansionWeight ?? 0.5;
  const loose = options.loose ?? true;
  const results = index.search({
    combineWith: "OR",
    ...(loose ? {} : { prefix: false, fuzzy: false }),
    queries: [
      ...(termQuery ? [{ queries: [termQuery] }] : []),
      ...(expQuery ? [{ queries: [expQuery], boostTerm: () => w }] : []),
      ...(options.feedback?.length
        ? [{ queries: [options.feedback.join(" ")], prefix: false, fuzzy: false, boostTerm: () => options.feedbackWeight ?? 0.3 }]
        : []),
    ],
  });

  return results
    .filter((r) => r.score > 0)
    .map((r) => ({ section: sections[r.id as number], index: r.id as number, score: r.score, matched: [...r.terms].sort(), queryMatched: [...r.queryTerms].sort() }))
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, limit);
}

type SectionIndex = MiniSearch<{ id: number; heading: string; title: string; body: string }>;

/**
 * Indexes are reused for the same sections array (callers that keep their sections per artifact set get one
 * index per set, not one per question); a new array always gets a fresh index, so ranking stays a pure function
 * of its inputs.
 */
const indexCache = new WeakMap<readonly TextSection[], Map<string, SectionIndex>>();

function indexFor(sections: readonly TextSection[], options: RankOptions): SectionIndex {
  const key = JSON.stringify([options.boost ?? {}, options.maxBodyChars ?? 50_000]);
  let byOptions = indexCache.get(sections);
  const cached = byOptions?.get(key);
  if (cached) return cached;
  const maxBody = options.maxBodyChars ?? 50_000;
  const index: SectionIndex = new MiniSearch({
    fields: ["heading", "title", "body"],
    processTerm: (t) => processTerm(t),
    searchOptions: {
      boost: { heading: options.boost?.heading ?? 2, title: options.boost?.title ?? 1.5, body: options.boost?.body ?? 1 },
      prefix: (t) => t.length >= 4,
      fuzzy: (t) => (t.length >= 6 ? 0.2 : false),
      maxFuzzy: 1,
      combineWith: "OR",
    },
  });
  index.addAll(
    sections.map((s, id) => ({ id, heading: s.heading, title: s.title ?? "", body: s.body.length > maxBody ? s.body.slice(0, maxBody) : s.body })),
  );
  if (!byOptions) indexCache.set(sections, (byOptions = new Map()));
  byOptions.set(key, index);
  return index;
}
