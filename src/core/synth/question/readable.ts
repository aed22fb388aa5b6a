// The last look at a title before it becomes an option: what the grammar left half-done is finished, so an option
// reads as a phrase a person would write and never as a cut piece of the question.

import { capitalise } from "../../text";

const CLOSER: Record<string, string> = { "(": ")", "[": "]", "{": "}" };

/** "Mana (Confluence": an aside the split cut off before its bracket closed is closed. */
function closeBrackets(title: string): string {
  const open: string[] = [];
  for (const ch of title) {
    if (ch in CLOSER) open.push(CLOSER[ch]);
    else if (open.length && ch === open[open.length - 1]) open.pop();
  }
  return open.length ? `${title}${open.reverse().join("")}` : title;
}

/**
 * A title an option can carry: brackets closed; "Be a hash keyed by MIME type" (from "should it be a hash …") names
 * the hash; "a database of its own" is "its own database".
 */
export function readableTitle(title: string): string {
  const t = closeBrackets(title.trim());
  // A name written in lower case ("zstd", "x && y") stays as written; only a title this rewrites starts anew.
  // "… or is it time to switch to client_id?": the proposal is what it is time to do.
  const expletive = /^be it (?:time|better|worth it|wiser|best|safer|easier|simpler) to\s+(.+)$/i.exec(t);
  if (expletive) return capitalise(expletive[1]);
  const complement = /^be\s+((?:a|an|the|one|its|our|their|plain|separate|single)\s.+)$/i.exec(t);
  if (complement) return capitalise(complement[1]);
  // "give each tenant a database of its own" says "its own database".
  const own = t.replace(/\b(?:a|an)\s+([\w-]+(?:\s[\w-]+)?)\s+of\s+(its|their|our|your|his|her)\s+own\b/gi, "$2 own $1");
  if (own !== t) return own;
  return t;
}
