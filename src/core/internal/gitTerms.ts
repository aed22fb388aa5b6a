// What the live history search and the history index share: search terms, the decision-verb signal, and how a
// commit becomes an evidence item (which touched file to cite, the excerpt).
import { evidenceId } from "../hash";
import type { EvidenceItem } from "../schemas";

export interface Term {
  text: string;
  weight: number;
  /** Whole-word match (plural / -ed / -ing allowed), case-insensitive. */
  word: RegExp;
}

export interface TouchedFile {
  status: string;
  path: string;
}

export const PRIMARY_WEIGHT = 1;
export const EXPANSION_WEIGHT = 0.5;
export const MAX_PRIMARY_TERMS = 8;
export const MAX_EXPANSION_TERMS = 8;
const EXCERPT_CHARS = 400;
/** Longest commit subject kept as an evidence title. */
const MAX_TITLE_CHARS = 300;

/** Words that match nearly every commit message; searching for them only fills the result limit with noise. */
export const COMMON_TERMS = new Set(
  (
    "the and for with from into that this what which when where why how should would could will can use used using " +
    "add adds added update updates updated change changes changed fix fixes fixed bump bumps merge merged branch " +
    "commit commits file files code repo repository project new old work wip misc chore tmp temp"
  ).split(/\s+/),
);

/** Subject words that mark a commit as the moment a choice was made or reversed. */
export const DECISION_VERB = /(?<![\p{L}\p{N}])(migrat|replac|switch|adopt|remov|drop|deprecat|introduc)\p{L}*/iu;

/** Lock files are touched by every dependency change and explain nothing; they are cited only as a last resort. */
const LOCK_FILE =
  /(^|\/)(package-lock\.json|npm-shrinkwrap\.json|yarn\.lock|pnpm-lock\.yaml|bun\.lockb?|Cargo\.lock|Gemfile\.lock|poetry\.lock|Pipfile\.lock|composer\.lock|go\.sum|[^/]*\.lock)$/i;

export function selectTerms(raw: string[], weight: number, max: number, exclude: Set<string>): Term[] {
  const out: Term[] = [];
  const seen = new Set(exclude);
  for (const r of raw) {
    // eslint-disable-next-line no-control-regex
    const text = r.replace(/[\u0000-\u001f\u007f]/g, " ").replace(/\s+/g, " ").trim().toLowerCase().slice(0, 64);
    if (text.length < 3 || /^\d+$/.test(text) || COMMON_TERMS.has(text) || seen.has(text)) continue;
    seen.add(text);
    out.push({ text, weight, word: wordRegex(text) });
    if (out.length >= max) break;
  }
  return out;
}

export function wordRegex(term: string): RegExp {
  const escaped = term.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(?<![\\p{L}\\p{N}_])${escaped}(?:s|es|ed|ing)?(?![\\p{L}\\p{N}_])`, "iu");
}

/** The touched file a reader should open: one whose path names a term, else the first that is not a lock file. */
export function citedPath(files: TouchedFile[], terms: Term[]): string {
  const live = files.filter((f) => f.status !== "D");
  const pool = live.length > 0 ? live : files;
  let best: TouchedFile | undefined;
  let bestScore = 0;
  for (const f of pool) {
    const p = f.path.toLowerCase();
    const s = terms.reduce((sum, t) => sum + (p.includes(t.text) ? t.weight : 0), 0);
    if (s > bestScore) {
      best = f;
      bestScore = s;
    }
  }
  if (best) return best.path;
  return (pool.find((f) => !LOCK_FILE.test(f.path)) ?? pool[0]).path;
}

export interface CommitForEvidence {
  sha: string;
  subject: string;
  body: string;
  files: TouchedFile[];
  /** Total files touched (files may be capped). */
  nfiles?: number;
}

/** A documentation change that matched the terms: the file, the lines (in the commit's version) and a line. */
export interface DocCitation {
  path: string;
  start: number;
  end: number;
  line: string;
}

export function commitEvidence(record: CommitForEvidence, terms: Term[], score: number, doc?: DocCitation): EvidenceItem {
  const path = doc?.path ?? citedPath(record.files, terms);
  const bodyLines = record.body
    .split("\n")
    .map((l) => l.trimEnd())
    .filter((l) => l.trim().length > 0)
    .slice(0, 6);
  let text = [record.subject, ...bodyLines].join("\n");
  const docLine = doc ? `\n${doc.path} lines ${doc.start}–${doc.end}: ${doc.line.length > 160 ? doc.line.slice(0, 159) + "…" : doc.line}` : "";
  const room = EXCERPT_CHARS - docLine.length;
  if (text.length > room) text = text.slice(0, Math.max(0, room - 1)).trimEnd() + "…";
  const names = record.files.map((f) => f.path);
  const total = Math.max(record.nfiles ?? names.length, names.length);
  const shown = names.slice(0, 3).join(", ") + (total > 3 ? `, +${total - 3} more` : "");
  return {
    id: evidenceId({ kind: "internal", path_or_url: path, commit: record.sha }),
    kind: "internal",
    expert: "git",
    source_type: "commit",
    path_or_url: path,
    commit: record.sha,
    precision_class: "commit",
    // A subject is a line, not a document: a 150 KB one would be carried through every ranking, rendering and receipt.
    title: record.subject.length > MAX_TITLE_CHARS ? `${record.subject.slice(0, MAX_TITLE_CHARS - 1).trimEnd()}…` : record.subject,
    excerpt: `${text}${docLine} (files: ${shown})`,
    score,
    touched_paths: names.slice(0, 50),
  };
}
