// Term statistics over the repository's own documents, for the two signals plain BM25 misses: a question's
// two-word phrases ("single active consumer", "bloom filter") appearing as phrases, and vocabulary widening by
// pseudo-relevance feedback (the words the best-matching documents use that the question did not).
import { processTerm } from "./sectionIndex";

export interface DocStats {
  tf: Map<string, number>;
  length: number;
  bigrams: Set<string>;
}

/**
 * Statistics of a corpus, compact: the document frequency of each term, and for each two-word phrase the ascending
 * indices of the documents that contain it (a posting list; its length is the phrase's document frequency). A
 * document's own term frequencies are recomputed from its text when needed (feedback reads three documents), so
 * nothing here is a per-document map: a few typed arrays instead of thousands of Maps and Sets, which keeps the
 * heap small and a stored corpus quick to load.
 */
export interface CorpusStats {
  /** Number of documents. */
  n: number;
  df: Map<string, number>;
  bigramDocs: PhrasePostings;
}

/** Each phrase's posting list (ascending document indices). A Map when built; a packed form when loaded. */
export interface PhrasePostings {
  get(phrase: string): Uint32Array | undefined;
  entries(): Iterable<[string, Uint32Array]>;
}

/** Stemmed content tokens in order (stop words and one-letter tokens dropped, camelCase split). */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.split(/[^\p{L}\p{N}]+/u)) {
    if (!raw) continue;
    const terms = processTerm(raw);
    if (terms) out.push(terms[0]);
  }
  return out;
}

export function docStats(text: string): DocStats {
  const tokens = tokenize(text);
  const tf = new Map<string, number>();
  const bigrams = new Set<string>();
  for (let i = 0; i < tokens.length; i++) {
    tf.set(tokens[i], (tf.get(tokens[i]) ?? 0) + 1);
    if (i > 0 && tokens[i - 1] !== tokens[i]) bigrams.add(`${tokens[i - 1]} ${tokens[i]}`);
  }
  return { tf, length: tokens.length, bigrams };
}

export function corpusStats(texts: string[]): CorpusStats {
  const df = new Map<string, number>();
  const postings = new Map<string, number[]>();
  texts.forEach((text, i) => {
    const d = docStats(text);
    for (const t of d.tf.keys()) df.set(t, (df.get(t) ?? 0) + 1);
    for (const b of d.bigrams) {
      const list = postings.get(b);
      if (list) list.push(i);
      else postings.set(b, [i]);
    }
  });
  const bigramDocs = new Map<string, Uint32Array>();
  for (const [b, list] of postings) bigramDocs.set(b, Uint32Array.from(list));
  return { n: texts.length, df, bigramDocs };
}

/** The question's adjacent content-word pairs. */
export function questionBigrams(question: string): string[] {
  const tokens = tokenize(question);
  const out = new Set<string>();
  for (let i = 1; i < tokens.length; i++) if (tokens[i - 1] !== tokens[i]) out.add(`${tokens[i - 1]} ${tokens[i]}`);
  return [...out];
}

/** Per document, the sum of the IDF of the question's phrases it contains as phrases. */
export function phraseScores(bigrams: string[], corpus: CorpusStats): Float64Array {
  const scores = new Float64Array(corpus.n);
  for (const b of bigrams) {
    const docs = corpus.bigramDocs.get(b);
    if (!docs) continue;
    const idf = Math.log(1 + corpus.n / docs.length);
    for (const i of docs) scores[i] += idf;
  }
  return scores;
}

/**
 * Pseudo-relevance feedback: the terms that weigh most in the top documents (frequency within each, times rarity
 * across the repository, times the document's share of the top score), excluding the query's own terms and
 * terms nearly every document uses.
 */
export function feedbackTerms(top: { doc: DocStats; weight: number }[], corpus: CorpusStats, exclude: Set<string>, limit: number): string[] {
  const n = corpus.n;
  if (n < 4 || top.length === 0) return [];
  const scores = new Map<string, number>();
  for (const { doc, weight } of top) {
    if (doc.length === 0) continue;
    for (const [t, f] of doc.tf) {
      if (exclude.has(t) || t.length < 3 || /^\d+$/.test(t)) continue;
      const df = corpus.df.get(t) ?? 1;
      if (df > n * 0.3 || df < 2) continue; // everywhere says nothing; only here cannot lead anywhere else
      scores.set(t, (scores.get(t) ?? 0) + weight * (f / doc.length) * Math.log(n / df));
    }
  }
  return [...scores.entries()]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, limit)
    .map(([t]) => t);
}

/**
 * The statistics as they are stored: the phrase postings as three flat arrays (phrases sorted, each one's first
 * posting, the postings). A repository's docs have tens of thousands of phrases, and a Map of as many typed arrays
 * costs V8 about as long to deserialize as the rest of the stored corpus together; flat arrays load in
 * microseconds and a question looks up only its own few phrases.
 */
export interface StoredCorpusStats {
  n: number;
  df: Map<string, number>;
  phrases: string[];
  /** Per phrase, its first entry in `phraseDocs` (length phrases + 1). */
  phraseStart: Uint32Array;
  phraseDocs: Uint32Array;
}

export function packCorpusStats(stats: CorpusStats): StoredCorpusStats {
  const entries = [...stats.bigramDocs.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const phraseStart = new Uint32Array(entries.length + 1);
  let total = 0;
  entries.forEach(([, docs], i) => {
    phraseStart[i] = total;
    total += docs.length;
  });
  phraseStart[entries.length] = total;
  const phraseDocs = new Uint32Array(total);
  entries.forEach(([, docs], i) => phraseDocs.set(docs, phraseStart[i]));
  return { n: stats.n, df: stats.df, phrases: entries.map(([p]) => p), phraseStart, phraseDocs };
}

/** The stored statistics back in use (undefined when the shape is not the one packCorpusStats writes). */
export function unpackCorpusStats(stored: unknown): CorpusStats | undefined {
  const s = stored as Partial<StoredCorpusStats> | undefined;
  if (!s || typeof s.n !== "number" || !(s.df instanceof Map) || !Array.isArray(s.phrases)) return undefined;
  if (!(s.phraseStart instanceof Uint32Array) || !(s.phraseDocs instanceof Uint32Array) || s.phraseStart.length !== s.phrases.length + 1) return undefined;
  if (s.phraseStart[s.phrases.length] !== s.phraseDocs.length) return undefined;
  return { n: s.n, df: s.df, bigramDocs: new PackedPhrasePostings(s.phrases, s.phraseStart, s.phraseDocs) };
}

/** Phrase postings read in place: a binary search over the sorted phrases, a view of the postings. */
class PackedPhrasePostings implements PhrasePostings {
  constructor(
    private readonly phrases: string[],
    private readonly start: Uint32Array,
    private readonly docs: Uint32Array,
  ) {}

  get(phrase: string): Uint32Array | undefined {
    let lo = 0;
    let hi = this.phrases.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const p = this.phrases[mid];
      if (p === phrase) return this.docs.subarray(this.start[mid], this.start[mid + 1]);
      if (p < phrase) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  }

  *entries(): Iterable<[string, Uint32Array]> {
    for (let i = 0; i < this.phrases.length; i++) yield [this.phrases[i], this.docs.subarray(this.start[i], this.start[i + 1])];
  }
}
