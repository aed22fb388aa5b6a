// BM25 over text sections, shared by every expert that ranks passages (repo docs here, dependency and web docs
// elsewhere). One in-memory MiniSearch index per sections array, reused while the caller keeps that array.
import MiniSearch, { type Options } from "minisearch";

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
  /** Whether results list the index terms they matched (`matched`); default true. Without, `matched` is empty. */
  matched?: boolean;
  /** Whether results list the query's terms they matched (`queryMatched`); default true. Without, it is empty. */
  queryMatched?: boolean;
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
  const groups = [
    queryTerms(termQuery).map((term) => ({ term, boost: 1, loose })),
    queryTerms(expQuery).map((term) => ({ term, boost: w, loose })),
    queryTerms((options.feedback ?? []).join(" ")).map((term) => ({ term, boost: options.feedbackWeight ?? 0.3, loose: false })),
  ];
  return rankByTerms(index, sections, groups, limit, { matched: options.matched !== false, queryMatched: options.queryMatched !== false });
}

/** The source terms MiniSearch makes of a query string: its tokenizer's split, then processTerm. */
function queryTerms(query: string): string[] {
  return query ? query.split(/[\n\r\p{Z}\p{P}]+/u).flatMap((t) => processTerm(t) ?? []) : [];
}

/**
 * The OR-search of all the source terms, computed one term at a time. MiniSearch scores a section as the sum of
 * its term scores times the number of distinct query terms it matched, summing each sub-query's terms in order and
 * then the sub-queries' sums; adding up the same numbers in the same grouping gives exactly its score, while only
 * one term's matches are alive at a time instead of every term's (a common word matches most sections of a large
 * corpus, and all of that became old-generation garbage in a long-lived host).
 */
function rankByTerms<T extends TextSection>(
  index: SectionIndex,
  sections: readonly T[],
  groups: { term: string; boost: number; loose: boolean }[][],
  limit: number,
  lists: { matched: boolean; queryMatched: boolean },
): RankedSection<T>[] {
  const n = sections.length;
  const raw = new Float64Array(n);
  const group = new Float64Array(n);
  // Which distinct source terms each section matched, as bits: no per-section arrays while searching.
  const distinct = [...new Set(groups.flat().map((g) => g.term))];
  const words = Math.max(1, Math.ceil(distinct.length / 32));
  const masks = new Uint32Array(n * words);
  const derived = lists.matched ? new Map<number, string[]>() : undefined;
  const touched: number[] = [];
  for (const specs of groups) {
    touched.length = 0;
    for (const spec of specs) {
      const bit = distinct.indexOf(spec.term);
      eachHit(index, spec, (id, score, terms) => {
        if (group[id] === 0) touched.push(id);
        group[id] += score; // one source term: MiniSearch's quality factor is 1, the score is the term's own
        masks[id * words + (bit >>> 5)] |= 1 << (bit & 31);
        if (derived) {
          const der = derived.get(id);
          if (!der) derived.set(id, terms());
          else for (const t of terms()) if (!der.includes(t)) der.push(t);
        }
      });
    }
    for (const id of touched) {
      raw[id] += group[id];
      group[id] = 0;
    }
  }
  const ranked: RankedSection<T>[] = [];
  for (let id = 0; id < n; id++) {
    const count = bitCount(masks, id, words);
    if (!count) continue;
    const score = raw[id] * count;
    if (!(score > 0)) continue;
    const matched = derived ? derived.get(id)!.sort() : NONE;
    ranked.push({ section: sections[id], index: id, score, matched, queryMatched: lists.queryMatched ? sourcesOf(masks, id, words, distinct).sort() : NONE });
  }
  ranked.sort((x, y) => y.score - x.score || x.index - y.index);
  return ranked.length > limit ? ranked.slice(0, limit) : ranked;
}

type RawHits = Map<number, { score: number; match: Record<string, unknown> }>;
interface QueryInternals {
  executeQuery?: (query: string, options: object) => RawHits;
  _documentIds?: Map<number, unknown>;
}

/**
 * Each section one source term matches, with its score and (on demand) the index terms it matched. MiniSearch's
 * executeQuery gives the scored matches before search() wraps each in a result object and sorts them all; both of
 * those are garbage here (a common word matches most sections), so it is used when present, else search().
 */
function eachHit(index: SectionIndex, spec: { term: string; boost: number; loose: boolean }, fn: (id: number, score: number, terms: () => string[]) => void): void {
  const options = { tokenize: (q: string) => [q], processTerm: (t: string) => t, boostTerm: () => spec.boost, ...(spec.loose ? {} : { prefix: false, fuzzy: false }) };
  const inner = index as unknown as QueryInternals;
  if (internalsAllowed && typeof inner.executeQuery === "function" && inner._documentIds instanceof Map) {
    for (const [shortId, hit] of inner.executeQuery.call(index, spec.term, options)) {
      fn(inner._documentIds.get(shortId) as number, hit.score, () => Object.keys(hit.match));
    }
    return;
  }
  for (const h of index.search(spec.term, options)) fn(h.id as number, h.score, () => h.terms);
}

let internalsAllowed = true;

/** Ranks through MiniSearch's public search() only (tests: both paths must rank alike). */
export function rankThroughPublicSearchOnly(on: boolean): void {
  internalsAllowed = !on;
}

/** The shared empty list of a result whose caller asked for no term lists (read-only by contract). */
const NONE: string[] = [];

function bitCount(masks: Uint32Array, id: number, words: number): number {
  let count = 0;
  for (let w = 0; w < words; w++) {
    let m = masks[id * words + w];
    while (m) {
      m &= m - 1;
      count++;
    }
  }
  return count;
}

function sourcesOf(masks: Uint32Array, id: number, words: number, distinct: string[]): string[] {
  const out: string[] = [];
  for (let w = 0; w < words; w++) {
    let m = masks[id * words + w];
    while (m) {
      const bit = 31 - Math.clz32(m);
      out.push(distinct[w * 32 + bit]);
      m &= ~(1 << bit);
    }
  }
  return out;
}

/**
 * The ranking one OR-search over two queries would give, from each query's own ranking: MiniSearch sums a section's
 * term scores and then multiplies the sum by how many distinct query terms the section matched. A second pass that
 * only adds terms (pseudo-relevance feedback) then searches for those terms alone, not for the whole query again.
 */
export function combineRankings<T extends TextSection>(a: readonly RankedSection<T>[], b: readonly RankedSection<T>[]): RankedSection<T>[] {
  const out = new Map<number, RankedSection<T>>();
  for (const r of a) out.set(r.index, r);
  for (const r of b) {
    const x = out.get(r.index);
    if (!x) {
      out.set(r.index, r);
      continue;
    }
    const queryMatched = [...new Set([...x.queryMatched, ...r.queryMatched])].sort();
    const raw = x.score / Math.max(1, x.queryMatched.length) + r.score / Math.max(1, r.queryMatched.length);
    out.set(r.index, { section: x.section, index: x.index, score: raw * Math.max(1, queryMatched.length), matched: [...new Set([...x.matched, ...r.matched])].sort(), queryMatched });
  }
  return [...out.values()].sort((p, q) => q.score - p.score || p.index - q.index);
}

type SectionDoc = { id: number; heading: string; title: string; body: string };
type SectionIndex = MiniSearch<SectionDoc>;

/**
 * Indexes are reused for the same sections array (callers that keep their sections per artifact set get one
 * index per set, not one per question); a new array always gets a fresh index, so ranking stays a pure function
 * of its inputs.
 */
const indexCache = new WeakMap<readonly TextSection[], Map<string, SectionIndex>>();

type IndexOptions = Pick<RankOptions, "boost" | "maxBodyChars">;

function indexKey(options: IndexOptions): string {
  return JSON.stringify([options.boost ?? {}, options.maxBodyChars ?? 50_000]);
}

function miniSearchOptions(options: IndexOptions): Options<SectionDoc> {
  return {
    fields: ["heading", "title", "body"],
    processTerm: (t: string) => processTerm(t),
    searchOptions: {
      boost: { heading: options.boost?.heading ?? 2, title: options.boost?.title ?? 1.5, body: options.boost?.body ?? 1 },
      prefix: (t: string) => t.length >= 4,
      fuzzy: (t: string) => (t.length >= 6 ? 0.2 : false),
      maxFuzzy: 1,
      combineWith: "OR",
    },
  };
}

function remember(sections: readonly TextSection[], key: string, index: SectionIndex): SectionIndex {
  let byOptions = indexCache.get(sections);
  if (!byOptions) indexCache.set(sections, (byOptions = new Map()));
  byOptions.set(key, index);
  return index;
}

function indexFor(sections: readonly TextSection[], options: IndexOptions): SectionIndex {
  const key = indexKey(options);
  const cached = indexCache.get(sections)?.get(key);
  if (cached) return cached;
  const maxBody = options.maxBodyChars ?? 50_000;
  const index: SectionIndex = new MiniSearch(miniSearchOptions(options));
  index.addAll(
    sections.map((s, id) => ({ id, heading: s.heading, title: s.title ?? "", body: s.body.length > maxBody ? s.body.slice(0, maxBody) : s.body })),
  );
  return remember(sections, key, index);
}

/** Builds (or finds) the index rankTextSections would use for these sections and options. */
export function ensureSectionIndex(sections: readonly TextSection[], options: IndexOptions = {}): void {
  if (sections.length) indexFor(sections, options);
}

/**
 * A built index in compact form: MiniSearch's own plain serialisation (toJSON) flattened into typed arrays, so a
 * stored index loads as a few buffers instead of hundreds of thousands of small objects (~5× faster, far less
 * garbage). Terms → their fields → postings (document short id, term frequency).
 */
export interface SectionIndexSnapshot {
  options: IndexOptions;
  documentCount: number;
  nextId: number;
  fieldIds: Record<string, number>;
  averageFieldLength: number[];
  dirtCount: number;
  /** Short ids in order, and the section index each one stands for. */
  shortIds: Uint32Array;
  ids: Uint32Array;
  /** Field lengths per document, `fieldCount` per short id, in `shortIds` order. */
  fieldLengths: Uint32Array;
  terms: string[];
  /** Per term, its first entry in `entryField` (length terms + 1). */
  termStart: Uint32Array;
  entryField: Uint8Array;
  /** Per entry, its first posting (length entries + 1). */
  entryStart: Uint32Array;
  postingDoc: Uint32Array;
  postingFreq: Uint32Array;
}

type PlainIndex = ReturnType<SectionIndex["toJSON"]>;

export function exportSectionIndexes(sections: readonly TextSection[]): SectionIndexSnapshot[] {
  return [...(indexCache.get(sections) ?? new Map<string, SectionIndex>())].map(([key, index]) => {
    const [boost, maxBodyChars] = JSON.parse(key) as [IndexOptions["boost"], number];
    return compact({ boost, maxBodyChars }, index);
  });
}

/** Grows a typed array by doubling: the postings of a large corpus never exist as a JavaScript array. */
class Growable<A extends Uint32Array | Uint8Array> {
  length = 0;
  constructor(private data: A) {}
  push(v: number): void {
    if (this.length === this.data.length) {
      const next = new (this.data.constructor as new (n: number) => A)(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = v;
  }
  done(): A {
    return this.data.slice(0, this.length) as A;
  }
}

/**
 * Flattens an index, reading MiniSearch's maps directly where they are as expected (no plain copy of every
 * posting is made), else through its public toJSON().
 */
function compact(options: IndexOptions, index: SectionIndex): SectionIndexSnapshot {
  const inner = index as unknown as Partial<Internals>;
  const direct = inner._documentIds instanceof Map && inner._fieldLength instanceof Map && typeof (inner._index as Iterable<unknown> | undefined)?.[Symbol.iterator] === "function";
  const js = direct ? undefined : index.toJSON();
  const documentIds: [number, unknown][] = direct ? [...inner._documentIds!] : Object.entries(js!.documentIds).map(([k, v]) => [Number(k), v]);
  const fieldLengthOf = (sid: number): number[] => (direct ? inner._fieldLength!.get(sid) : js!.fieldLength[sid]) ?? [];
  const terms: string[] = [];
  const termStart = new Growable(new Uint32Array(1024));
  const entryField = new Growable(new Uint8Array(1024));
  const entryStart = new Growable(new Uint32Array(1024));
  const postingDoc = new Growable(new Uint32Array(4096));
  const postingFreq = new Growable(new Uint32Array(4096));
  termStart.push(0);
  entryStart.push(0);
  const addTerm = (term: string, fields: Iterable<[number, Iterable<[number, number]>]>) => {
    terms.push(term);
    for (const [field, postings] of fields) {
      entryField.push(field);
      for (const [doc, freq] of postings) {
        postingDoc.push(doc);
        postingFreq.push(freq);
      }
      entryStart.push(postingDoc.length);
    }
    termStart.push(entryField.length);
  };
  if (direct) for (const [term, data] of inner._index as unknown as Iterable<[string, Map<number, Map<number, number>>]>) addTerm(term, data);
  else for (const [term, data] of js!.index) addTerm(term, Object.entries(data).map(([f, p]) => [Number(f), Object.entries(p).map(([d, n]) => [Number(d), n] as [number, number])]));
  const fieldIds = direct ? (index as unknown as { _fieldIds: Record<string, number> })._fieldIds : js!.fieldIds;
  const fieldCount = Object.keys(fieldIds).length;
  const fieldLengths = new Uint32Array(documentIds.length * fieldCount);
  documentIds.forEach(([sid], i) => fieldLengthOf(sid).forEach((n, f) => (fieldLengths[i * fieldCount + f] = n)));
  const header = direct ? (index as unknown as { _documentCount: number; _nextId: number; _avgFieldLength: number[]; _dirtCount: number }) : undefined;
  return {
    options,
    documentCount: header ? header._documentCount : js!.documentCount,
    nextId: header ? header._nextId : js!.nextId,
    fieldIds,
    averageFieldLength: header ? header._avgFieldLength : js!.averageFieldLength,
    dirtCount: (header ? header._dirtCount : js!.dirtCount) ?? 0,
    shortIds: Uint32Array.from(documentIds.map(([sid]) => sid)),
    ids: Uint32Array.from(documentIds.map(([, id]) => id as number)),
    fieldLengths,
    terms,
    termStart: termStart.done(),
    entryField: entryField.done(),
    entryStart: entryStart.done(),
    postingDoc: postingDoc.done(),
    postingFreq: postingFreq.done(),
  };
}

/** MiniSearch's index internals, as its own loadJS fills them (minisearch is pinned; restore() checks they exist). */
interface Internals {
  _documentIds: Map<number, unknown>;
  _idToShortId: Map<unknown, number>;
  _fieldLength: Map<number, number[]>;
  _index: { set(term: string, data: Map<number, Map<number, number>>): unknown };
}

/** Rebuilds the index a snapshot was taken of. */
function restore(snap: SectionIndexSnapshot): SectionIndex {
  const fieldCount = Object.keys(snap.fieldIds).length;
  const empty = { ...plainHeader(snap), documentIds: {}, fieldLength: {}, storedFields: {}, index: [] };
  const index = MiniSearch.loadJS(empty, miniSearchOptions(snap.options)) as SectionIndex;
  const inner = index as unknown as Partial<Internals>;
  if (!(inner._documentIds instanceof Map && inner._idToShortId instanceof Map && inner._fieldLength instanceof Map && typeof inner._index?.set === "function")) {
    return MiniSearch.loadJS(expand(snap), miniSearchOptions(snap.options)) as SectionIndex; // other internals: the public path
  }
  snap.shortIds.forEach((sid, i) => {
    inner._documentIds!.set(sid, snap.ids[i]);
    inner._idToShortId!.set(snap.ids[i], sid);
    inner._fieldLength!.set(sid, Array.from(snap.fieldLengths.subarray(i * fieldCount, (i + 1) * fieldCount)));
  });
  eachTerm(snap, (term, data) => inner._index!.set(term, data));
  return index;
}

function plainHeader(snap: SectionIndexSnapshot) {
  return { documentCount: snap.documentCount, nextId: snap.nextId, fieldIds: snap.fieldIds, averageFieldLength: snap.averageFieldLength, dirtCount: snap.dirtCount, serializationVersion: 2 };
}

function eachTerm(snap: SectionIndexSnapshot, fn: (term: string, data: Map<number, Map<number, number>>) => void): void {
  snap.terms.forEach((term, t) => {
    const data = new Map<number, Map<number, number>>();
    for (let e = snap.termStart[t]; e < snap.termStart[t + 1]; e++) {
      const postings = new Map<number, number>();
      for (let p = snap.entryStart[e]; p < snap.entryStart[e + 1]; p++) postings.set(snap.postingDoc[p], snap.postingFreq[p]);
      data.set(snap.entryField[e], postings);
    }
    fn(term, data);
  });
}

/** The snapshot back in MiniSearch's plain form. */
function expand(snap: SectionIndexSnapshot): PlainIndex {
  const fieldCount = Object.keys(snap.fieldIds).length;
  const documentIds: Record<string, unknown> = {};
  const fieldLength: Record<string, number[]> = {};
  snap.shortIds.forEach((sid, i) => {
    documentIds[sid] = snap.ids[i];
    fieldLength[sid] = Array.from(snap.fieldLengths.subarray(i * fieldCount, (i + 1) * fieldCount));
  });
  const index: PlainIndex["index"] = [];
  eachTerm(snap, (term, data) => {
    const fields: Record<string, Record<string, number>> = {};
    for (const [f, postings] of data) fields[f] = Object.fromEntries(postings);
    index.push([term, fields]);
  });
  return { ...plainHeader(snap), documentIds, fieldLength, storedFields: {}, index };
}

/**
 * Adopts snapshots of indexes built over an equal sections array (same texts, same order): the caller vouches for
 * the equality, e.g. by the content hash the snapshot was stored under.
 */
export function restoreSectionIndexes(sections: readonly TextSection[], snapshots: readonly SectionIndexSnapshot[]): void {
  for (const snap of snapshots) {
    if (snap.documentCount !== sections.length) continue; // not this array's index: build afresh when needed
    remember(sections, indexKey(snap.options), restore(snap));
  }
}
