// Small text helpers shared by the external experts: query tokens, excerpt windows, match checks.
import { processTerm } from "../internal/sectionIndex";
import type { QueryPlan } from "../schemas";

/** Normalised tokens (same processing as the section index) of the plan's own terms and of its expansions. */
export function planTokens(plan: Pick<QueryPlan, "terms" | "expansions">): { terms: Set<string>; expansions: Set<string> } {
  const toks = (xs: readonly string[]) => new Set(xs.flatMap((x) => x.split(/[\s\p{P}]+/u)).flatMap((t) => (t ? processTerm(t) ?? [] : [])));
  const terms = toks(plan.terms);
  const expansions = new Set([...toks(plan.expansions)].filter((t) => !terms.has(t)));
  return { terms, expansions };
}

/** Whether an index term that matched (possibly by prefix or one edit) stands for one of the tokens. */
export function matchesAny(matched: readonly string[], tokens: ReadonlySet<string>): number {
  let n = 0;
  for (const m of matched) {
    for (const t of tokens) {
      if (m === t || (t.length >= 4 && m.startsWith(t)) || (m.length >= 4 && t.startsWith(m))) {
        n++;
        break;
      }
    }
  }
  return n;
}

/**
 * The section's most relevant lines, up to maxChars: the window that starts at the line with the most query-token
 * hits (first such line), prefixed by the heading. Whitespace is collapsed per line; code fences are kept.
 */
export function makeExcerpt(heading: string, body: string, tokens: ReadonlySet<string>, maxChars = 600): string {
  const lines = body.split("\n").map((l) => l.trimEnd());
  let best = 0;
  let bestHits = 0;
  lines.forEach((l, i) => {
    const words = l.split(/[\s\p{P}]+/u).flatMap((w) => (w ? processTerm(w) ?? [] : []));
    const hits = words.filter((w) => tokens.has(w)).length;
    if (hits > bestHits) {
      bestHits = hits;
      best = i;
    }
  });
  // Start a little before the best line so it reads in context, but never before the first non-blank line.
  let from = Math.max(0, best - 1);
  while (from < lines.length && !lines[from].trim()) from++;
  const out: string[] = [];
  let size = heading ? heading.length + 1 : 0;
  for (let i = from; i < lines.length; i++) {
    const l = lines[i];
    if (size + l.length + 1 > maxChars && out.length) break;
    out.push(l.length > maxChars ? l.slice(0, maxChars - 1) + "…" : l);
    size += l.length + 1;
  }
  while (out.length && !out[out.length - 1].trim()) out.pop();
  const text = out.join("\n").replace(/\n{3,}/g, "\n\n");
  return heading ? (text ? `${heading}\n${text}` : heading) : text;
}

/** A repository URL as a browsable https URL: git+https://…/x.git, git@github.com:x/y.git, github:x/y, x/y. */
export function normaliseRepoUrl(raw: unknown): string | undefined {
  let s: string | undefined;
  if (typeof raw === "string") s = raw;
  else if (raw && typeof raw === "object" && typeof (raw as { url?: unknown }).url === "string") s = (raw as { url: string }).url;
  if (!s) return undefined;
  s = s.trim();
  const short = /^(github|gitlab|bitbucket):([\w.-]+\/[\w.-]+)$/.exec(s);
  if (short) return `https://${short[1]}.${short[1] === "bitbucket" ? "org" : "com"}/${short[2]}`;
  if (/^[\w.-]+\/[\w.-]+$/.test(s)) return `https://github.com/${s}`;
  const ssh = /^(?:git\+)?(?:ssh:\/\/)?git@([^:/]+)[:/](.+?)(?:\.git)?\/?$/.exec(s);
  if (ssh) return `https://${ssh[1]}/${ssh[2]}`;
  s = s.replace(/^git\+/, "").replace(/^git:\/\//, "https://").replace(/\.git$/, "").replace(/#.*$/, "");
  try {
    const u = new URL(s);
    if (u.protocol !== "https:" && u.protocol !== "http:") return undefined;
    u.username = "";
    u.password = "";
    return u.href.replace(/\/$/, "");
  } catch {
    return undefined;
  }
}
