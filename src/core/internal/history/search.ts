// Querying the history index: BM25 (FTS5's bm25(), column-weighted) per term, summed with the term's weight
// (question terms 1, expansions 0.5), then decision-verb and recency nudges (recency from HEAD's date). A term
// matching more than MAX_MATCHES_PER_TERM commits is scored over its newest matches only (rowids grow with the
// author date), which bounds the cost of very common words on a 100k-commit history.
import { DECISION_VERB, type DocCitation, type Term, type TouchedFile } from "../gitTerms";
import { decodeFiles } from "./build";
import { openDb, parkConnection, readMeta, safeClose, takeParkedConnection, withRetry, SCHEMA_VERSION, CorruptIndexError, type Db } from "./db";
import { checkMetaSeal, checkRowSeal, historySealKey, type SealedRow } from "./seal";

const MAX_MATCHES_PER_TERM = 2_000;
/** Terms matching more than this share of all commits are left out (IDF near zero). */
const TOO_COMMON_SHARE = 0.25;
/** A documentation file touched by at least this share of all commits is a hub (see build.ts DOC_FILE). */
const HUB_SHARE = 0.02;
/** Column weights: subject, body, path tokens, documentation diff text. */
const BM25_WEIGHTS = "3.0, 1.5, 0.75, 1.0";
const DECISION_BONUS = 0.2;
const RECENCY_BONUS = 0.1;
const RECENCY_HALF_LIFE_DAYS = 365;

export interface IndexedCommit {
  sha: string;
  ts: number;
  subject: string;
  body: string;
  files: TouchedFile[];
  nfiles: number;
  score: number;
  /** The documentation change that matched best, when the diff text matched. */
  doc?: DocCitation;
}

export interface SearchOutcome {
  commits: IndexedCommit[];
  /** Commits matching at least one term. */
  candidates: number;
  /** Terms whose matches were more than MAX_MATCHES_PER_TERM (scored over the newest). */
  capped: string[];
  /** Terms left out because they match more than a quarter of all commits. */
  common: string[];
  /** Documentation files touched by a large share of all commits (a changelog): kept out of touched_paths. */
  hubs: string[];
  meta: Record<string, string>;
}

/** An FTS5 phrase for a term: FTS5 tokenises it like the indexed text (so "event bus" is a two-word phrase). */
export function ftsPhrase(text: string): string {
  return `"${text.replace(/"/g, '""')}"`;
}

export function searchIndex(file: string, terms: Term[], limit: number, opts: { keepOpen?: boolean } = {}): SearchOutcome {
  return withRetry(file, () => {
    // The connection the freshness check just used, when it is still this file's: opening SQLite costs more than
    // the metadata read itself.
    const db = takeParkedConnection(file) ?? openDb(file);
    let kept = false;
    try {
      const outcome = readTransaction(db, () => search(db, terms, limit));
      // A long-lived host parks the connection again for the next question's freshness check: SQLite's page cache
      // (the FTS5 pages a query reads) survives, instead of being read from the file again. Parked connections are
      // closed when unused for a few seconds, and never used once another file was renamed over this one.
      kept = !!opts.keepOpen && parkConnection(file, db);
      return outcome;
    } finally {
      if (!kept) safeClose(db);
    }
  });
}

/**
 * One read transaction for a whole query: the VFS takes its lock (a directory) once instead of once per statement,
 * which on some filesystems costs milliseconds each time.
 */
export function readTransaction<T>(db: Db, fn: () => T): T {
  db.exec("BEGIN");
  try {
    return fn();
  } finally {
    try {
      db.exec("COMMIT");
    } catch {
      // nothing was written; closing the handle releases the lock
    }
  }
}

/**
 * The time recency is measured from: the indexed HEAD's own date, never the clock, so the same repository state
 * ranks the same today and next year (the newest indexed date when HEAD's row is missing).
 */
function headTime(db: Db, head: string | undefined): number {
  const row = (head ? db.get("SELECT ts FROM commits WHERE sha = ?", [head]) : undefined) as { ts: number } | undefined | null;
  if (row) return Number(row.ts);
  return Number((db.get("SELECT max(ts) AS ts FROM commits") as { ts: number | null }).ts ?? 0);
}

function search(db: Db, terms: Term[], limit: number): SearchOutcome {
  const meta = readMeta(db);
  if (meta.schema !== SCHEMA_VERSION) throw new CorruptIndexError(`schema ${meta.schema ?? "missing"}, expected ${SCHEMA_VERSION}`);
  const key = historySealKey();
  checkMetaSeal(key, meta);
  const headTs = headTime(db, meta.head);
  const scores = new Map<number, number>();
  const capped: string[] = [];
  const common: string[] = [];
  const st = db.prepare(`SELECT rowid AS id, bm25(fts, ${BM25_WEIGHTS}) AS s FROM fts WHERE fts MATCH ? ORDER BY rowid DESC LIMIT ${MAX_MATCHES_PER_TERM + 1}`);
  const countSt = db.prepare("SELECT count(*) AS n FROM fts WHERE fts MATCH ?");
  const total = Number(meta.commits) || 0;
  try {
    for (const term of terms) {
      // A term in more than a quarter of all commits carries almost no BM25 weight (its IDF is near zero) and is
      // the costliest to score: counting its matches is cheap, scoring them is not.
      if (total >= 2_000) {
        const n = Number((countSt.get([ftsPhrase(term.text)]) as { n: number }).n);
        if (n > total * TOO_COMMON_SHARE) {
          common.push(term.text);
          continue;
        }
      }
      const rows = st.all([ftsPhrase(term.text)]) as { id: number; s: number }[];
      if (rows.length > MAX_MATCHES_PER_TERM) {
        capped.push(term.text);
        rows.length = MAX_MATCHES_PER_TERM;
      }
      for (const r of rows) scores.set(Number(r.id), (scores.get(Number(r.id)) ?? 0) + term.weight * Math.max(0, -r.s));
    }
  } finally {
    st.finalize();
    countSt.finalize();
  }
  const candidates = scores.size;
  // Hubs: documentation files in at least 2% of all commits (and 30 of them).
  const hubs = (db.all("SELECT path FROM doc_paths WHERE n >= ?", [Math.max(30, Math.ceil(total * HUB_SHARE))]) as { path: string }[]).map((r) => r.path);
  const hubSet = new Set(hubs);
  // Rank by BM25 first; the best few are nudged (decision verb, recency) from their subject and date, and only the
  // final `limit` are read back in full (bodies, files and documentation hunks live in overflow pages).
  const top = [...scores.entries()].sort((a, b) => b[1] - a[1] || b[0] - a[0]).slice(0, Math.max(limit * 2, limit + 10));
  if (top.length === 0 || limit <= 0) return { commits: [], candidates, capped, common, hubs, meta };
  const light = db.all(`SELECT id, sha, ts, subject FROM commits WHERE id IN (${top.map(() => "?").join(",")})`, top.map(([id]) => id)) as {
    id: number;
    sha: string;
    ts: number;
    subject: string;
  }[];
  const nudged = light
    .map((r) => {
      const base = scores.get(Number(r.id)) ?? 0;
      const subjectHit = terms.some((t) => t.word.test(r.subject));
      const ageDays = Math.max(0, headTs - Number(r.ts)) / 86400;
      const nudge = 1 + (subjectHit && DECISION_VERB.test(r.subject) ? DECISION_BONUS : 0) + RECENCY_BONUS * Math.pow(0.5, ageDays / RECENCY_HALF_LIFE_DAYS);
      return { id: Number(r.id), sha: r.sha, ts: Number(r.ts), score: Math.round(base * nudge * 1000) / 1000 };
    })
    // Ties by date, then by sha: row ids depend on how the index was built (in one go or updated), shas do not.
    .sort((a, b) => b.score - a.score || b.ts - a.ts || (a.sha < b.sha ? -1 : a.sha > b.sha ? 1 : 0))
    .slice(0, limit);
  const scoreOf = new Map(nudged.map((n) => [n.id, n.score]));
  const out = readCited(db, nudged.map((n) => n.id), key).map((r) => {
    const doc = r.docs ? bestDocChange(r.docs, terms, hubSet) : undefined;
    const c: IndexedCommit = { sha: r.sha, ts: r.ts, subject: r.subject, body: r.body, files: decodeFiles(r.files), nfiles: r.nfiles, score: scoreOf.get(r.id) ?? 0 };
    return doc ? { ...c, doc } : c;
  });
  out.sort((a, b) => b.score - a.score || b.ts - a.ts || (a.sha < b.sha ? -1 : 1));
  return { commits: out.slice(0, limit), candidates, capped, common, hubs, meta };
}

/** The rows about to be cited, each checked against its seal (seal.ts): only what this user's build wrote is cited. */
function readCited(db: Db, ids: number[], key: Buffer | undefined): (SealedRow & { id: number })[] {
  const rows = db.all(`SELECT id, sha, ts, subject, body, nfiles, files, docs, mac FROM commits WHERE id IN (${ids.map(() => "?").join(",")})`, ids) as unknown as (SealedRow & {
    id: number;
    mac: Uint8Array | null;
  })[];
  return rows.map((r) => {
    const row = { ...r, id: Number(r.id), ts: Number(r.ts), nfiles: Number(r.nfiles) };
    checkRowSeal(key, row);
    return row;
  });
}

/** The hunk whose changed lines name the most (weighted) terms, cited with its line range. */
function bestDocChange(docsJson: string, terms: Term[], hubs: Set<string>): DocCitation | undefined {
  let docs: { p: string; h: [number, number, string][] }[];
  try {
    docs = JSON.parse(docsJson);
  } catch {
    return undefined;
  }
  let best: DocCitation | undefined;
  let bestScore = 0;
  for (const d of docs) {
    for (const [line, count, text] of d.h) {
      let s = 0;
      let hitLine = "";
      for (const t of terms) {
        if (!t.word.test(text)) continue;
        s += t.weight;
        if (!hitLine) hitLine = text.split("\n").find((l) => t.word.test(l)) ?? "";
      }
      // A hub (the changelog) is cited only when no other document's change matched.
      if (s > 0 && hubs.has(d.p)) s = Math.min(s, 1e-3);
      if (s > bestScore) {
        bestScore = s;
        best = { path: d.p, start: line, end: Math.max(line, line + Math.max(count, 1) - 1), line: hitLine };
      }
    }
  }
  return best;
}

/** The index's metadata (schema checked): a cheap freshness check before any lock is taken. */
export function readIndexMeta(file: string): Record<string, string> {
  return withRetry(file, () => {
    const db = takeParkedConnection(file) ?? openDb(file);
    let keep = false;
    try {
      const meta = readTransaction(db, () => readMeta(db));
      if (meta.schema !== SCHEMA_VERSION) throw new CorruptIndexError(`schema ${meta.schema ?? "missing"}, expected ${SCHEMA_VERSION}`);
      // A forged `head` would pass a stale index as current.
      checkMetaSeal(historySealKey(), meta);
      // A query usually follows at once: it reuses this connection (searchIndex) instead of opening the file again.
      keep = parkConnection(file, db);
      return meta;
    } finally {
      if (!keep) safeClose(db);
    }
  });
}

/** What `deliberate index --status` and the extension show. */
export interface IndexSummary {
  file: string;
  bytes: number;
  commits: number;
  head?: string;
  builtAt?: string;
  updatedAt?: string;
  buildMs?: number;
  repo?: string;
}

export function summariseIndex(file: string, bytes: number): IndexSummary {
  return withRetry(file, () => {
    const db = openDb(file);
    try {
      const meta = readMeta(db);
      if (meta.schema !== SCHEMA_VERSION) throw new CorruptIndexError(`schema ${meta.schema ?? "missing"}, expected ${SCHEMA_VERSION}`);
      checkMetaSeal(historySealKey(), meta);
      const n = Number((db.get("SELECT count(*) AS n FROM commits") as { n: number }).n);
      return {
        file,
        bytes,
        commits: n,
        head: meta.head,
        builtAt: meta.built_at,
        updatedAt: meta.updated_at,
        buildMs: meta.build_ms ? Number(meta.build_ms) : undefined,
        repo: meta.repo,
      };
    } finally {
      safeClose(db);
    }
  });
}

/** How the index is read. In this thread: a worker thread was measured to cost 40 MB more for no gain in wall time. */
export interface IndexReader {
  meta(file: string): Promise<Record<string, string>>;
  search(file: string, terms: Term[], limit: number): Promise<SearchOutcome>;
}

export const inThreadReader: IndexReader = {
  meta: async (file) => readIndexMeta(file),
  search: async (file, terms, limit) => searchIndex(file, terms, limit),
};
