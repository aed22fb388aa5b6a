// How a record's option list is shaped, beyond each option's own name: a heading that groups listed options, words
// that every sibling option shares, and a file name that states the choice. Linear in the record's lines.
import type { LineRange } from "../schemas";
import { isVendor, tokensOf } from "./names";
import type { LineOption } from "./optionLines";
import { namesIn } from "./proseOptions";

/** A markdown heading line. */
const HEADING = /^\s{0,3}#{2,6}\s+\S/;
/** A bullet or numbered list item, with its text. */
const ITEM = /^\s{0,3}(?:[-*+]|\d{1,2}[.)])\s+(.+?)\s*$/;

/**
 * A rejected option that is a heading whose section is a list of options ("### Keycloak as AuthN, another system as
 * AuthZ" over "- Keycloak with JWT tokens and Open Policy Agent (OPA)") names a group, not a thing: its words
 * (`AuthZ`) are what the group's items have in common. The group's items are the options, the chosen one aside.
 * Returns the options with each such heading replaced by its items.
 */
export function ungroupedOptions(rejected: readonly LineOption[], lines: readonly string[], chosen: string | undefined): LineOption[] {
  const chosenText = chosen ? squash(chosen) : undefined;
  const out: LineOption[] = [];
  for (const r of rejected) {
    const at = r.range.start - 1;
    if (!HEADING.test(lines[at] ?? "")) {
      out.push(r);
      continue;
    }
    const items: LineOption[] = [];
    let prose = false;
    for (let i = at + 1; i < lines.length && !HEADING.test(lines[i]); i++) {
      const line = lines[i];
      if (!line.trim()) continue;
      const m = ITEM.exec(line);
      // Pros and cons ("- Good, because …") or a sentence are what the heading's option is like, not options.
      if (!m || VERDICT.test(m[1]) || withoutAsides(m[1]).split(/\s+/).length > MAX_ITEM_WORDS) {
        prose = true;
        break;
      }
      items.push({ name: m[1], range: { start: i + 1, end: i + 1 } as LineRange, ...(r.reason ? { reason: r.reason } : {}) });
    }
    // A heading over prose (an option described in paragraphs) is the option itself.
    if (prose || !items.length) {
      out.push(r);
      continue;
    }
    for (const item of items) {
      if (chosenText && squash(item.name) === chosenText) continue;
      if (!out.some((o) => o.range.start === item.range.start) && !rejected.some((o) => o.range.start === item.range.start)) out.push(item);
    }
  }
  return out;
}

/** An item that judges rather than names: a MADR pro or con, an example. */
const VERDICT = /^(?:\*\*)?(?:good|bad|neutral|pros?|cons?|positive|negative|e\.g\.|example)\b/i;
/** Words an item may have, its asides in parentheses aside, and still be an option's name. */
const MAX_ITEM_WORDS = 12;

/** A name without its parenthesised asides: "Kafka Stream (Storing unstructured data (JSON) …)" is "Kafka Stream". */
export function withoutAsides(name: string): string {
  let out = name;
  for (let i = 0; i < 3; i++) out = out.replace(/\s*\([^()]*\)/g, "");
  return out.trim();
}

function squash(s: string): string {
  return tokensOf(s).join(" ");
}

/** How many sibling options must share a word before it names what they have in common rather than any one of them. */
const SHARED_BY = 3;

/**
 * Words that three or more of a record's listed options share ("Table per Tenant", "Schema per Tenant", "Database per
 * Tenant"): the subject the options are ways of doing, not a name that tells one of them apart.
 */
export function sharedOptionWords(names: readonly string[]): Set<string> {
  const count = new Map<string, number>();
  // An option listed twice (chosen and among the rest) is one option; a vendor's word is read by the vendor rule.
  for (const n of new Set(names.map((x) => tokensOf(x).join(" ")))) for (const t of new Set(tokensOf(n))) if (!isVendor(t)) count.set(t, (count.get(t) ?? 0) + 1);
  return new Set([...count].filter(([, c]) => c >= SHARED_BY).map(([t]) => t));
}

/** A file name that states a choice the way a title does: "2024-05-20-use-did-urls-to-reference-resources.md". */
const CHOOSING_SLUG = /^(?:use|using|adopt|choose|prefer|switch-to|migrate-to|move-to)-(.+)$/;

/**
 * The choice a record's file name states, as title words, when it is an imperative ("use-did-urls-…") and the record's
 * own title is not (a title rewritten later, "Storage for SSI related resources", leaves the file name saying what
 * was chosen).
 */
export function slugChoice(path: string): string | undefined {
  const base = (path.split("/").pop() ?? path).replace(/\.[a-z]+$/i, "").toLowerCase();
  const slug = base.replace(/^(?:\d{4}-\d{2}-\d{2}|\d{1,5})[-_]/, "");
  const m = CHOOSING_SLUG.exec(slug);
  // "use-x-instead-of-y": only the part before the one it sets aside is chosen.
  return m ? m[1].split(/-(?:instead-of|rather-than|over|not|vs|versus)-/)[0].replace(/-/g, " ") : undefined;
}

/**
 * The names a rejected option's parenthesised description gives ("use OpenAPI tools (… generate server stub for
 * Akka …)", "… other server-side library (Play, Finch, Lagom)"). Read only when the option's head names nothing the
 * chosen option does not (the caller checks): the description is then what sets the option apart.
 */
export function describedNames(name: string): string[] {
  const out: string[] = [];
  for (const m of name.slice(0, 600).matchAll(/\(([^()]{2,300})\)/g)) {
    for (const n of namesIn(m[1].replace(/\s+(?:and|or)\s+/gi, ", "))) if (!out.includes(n)) out.push(n);
  }
  return out.slice(0, 8);
}

/**
 * A listed option as a name: one of more than `maxWords` words is a sentence the reader took for an option, unless
 * what is over the limit is a description in parentheses ("Kafka Stream (Storing unstructured data …)").
 */
export function namedOption<T extends { name: string }>(r: T, maxWords: number): T | undefined {
  if (r.name.split(/\s+/).length <= maxWords) return r;
  const head = withoutAsides(r.name);
  if (!head || head.split(/\s+/).length > maxWords || /[.!?]\s/.test(head)) return undefined;
  return { ...r, name: head };
}
