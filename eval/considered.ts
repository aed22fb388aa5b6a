// The open-question check of issue 21: are the deciding record's own options among the options offered? Shared by
// the full eval (eval/run.ts) and the records-only harness (eval/retrieval.ts); it reads the record with the core's
// decision model, so it lives apart from the dependency-free metrics.
import { decisionModelOf } from "../src/core/decisions";
import { parseAdr } from "../src/core/internal/adr";

/**
 * How many of the deciding record's considered options (as its decision model reads them, at most 4) an option title
 * names: a title and an option match when either contains the other, compared as lower-case words.
 */
export function consideredAmongOptions(path: string, text: string, titles: string[]): { wanted: number; found: number } | undefined {
  if (!text) return undefined;
  const considered = decisionModelOf(parseAdr(path, text)).considered.map((o) => o.name).slice(0, 4);
  if (considered.length < 2) return undefined;
  const flat = (t: string) => ` ${t.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ").trim()} `;
  const found = considered.filter((o) => titles.some((t) => flat(t).includes(flat(o)) || flat(o).includes(flat(t)))).length;
  return { wanted: considered.length, found };
}
