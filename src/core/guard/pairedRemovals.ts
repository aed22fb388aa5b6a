// A record that takes a thing out ("Remove Postgres (for now)") takes out what an earlier record adopted to go with
// it: "Use typeorm with postgres" chose typeorm as the way to reach postgres, so with postgres removed, bringing
// typeorm back brings back a dependency on it. Only a title that pairs its choice with the removed thing by "with"
// counts, and only an earlier record (by path, the order records are numbered in); the earlier record no longer
// keeps what the later one took out.
import { GENERIC_PURPOSES, findName, keysOf, tokensOf } from "./names";
import type { DecidedThing, GuardDecision } from "./decisions";

const TITLE_REMOVES = /^(?:remove|removing|drop|dropping|retire|retiring|get\s+rid\s+of|phase\s+out|stop\s+using)\s+(.{1,60})$/i;
/** "Use typeorm with postgres", "Adopt Sequelize with MySQL": the choice, and the thing it goes with. */
const TITLE_PAIRS = /^(?:use|using|adopt|adopting|choose|go\s+with)\s+(.{1,60}?)\s+with\s+(.{1,60})$/i;
/** A title's aside ("(for now)") qualifies when, not what. */
const titleName = (s: string) => s.replace(/\s*\([^()]{0,40}\)\s*$/, "").replace(/\s+for\s+now$/i, "").trim();

/** Adds to each removing record what earlier records chose with the removed thing; those records stop keeping it. */
export function addPairedRemovals(records: GuardDecision[]): void {
  const sorted = [...records].sort((a, b) => (a.citation.path < b.citation.path ? -1 : a.citation.path > b.citation.path ? 1 : 0));
  for (const [i, removing] of sorted.entries()) {
    if (removing.source !== "record") continue;
    const m = TITLE_REMOVES.exec(removing.citation.title.trim());
    const removed = m ? removing.forbidden.find((f) => f.name === titleName(m[1])) : undefined;
    if (!removed || removed.keys.stems) continue;
    for (const earlier of sorted.slice(0, i)) {
      const pair = earlier.source === "record" ? TITLE_PAIRS.exec(earlier.citation.title.trim()) : null;
      if (!pair || !findName(tokensOf(pair[2]), removed.keys)) continue;
      const partner = new Set(tokensOf(pair[2]).filter((t) => !GENERIC_PURPOSES.has(t)));
      const keys = keysOf(pair[1], partner);
      if (!keys || (!keys.exact && !keys.tokens.length) || removing.forbidden.some((f) => f.keys.display === keys.display)) continue;
      const thing: DecidedThing = { name: pair[1].trim(), keys, range: removed.range, reason: `"${earlier.citation.title}" (${earlier.citation.path}) chose ${pair[1].trim()} with ${pair[2].trim()}, which this record removes` };
      removing.forbidden.push(thing);
      earlier.required = earlier.required.filter((r) => !findName(tokensOf(r.name), keys) && !findName(tokensOf(r.name), removed.keys));
    }
  }
}
