// The open-question check of issue 21: are the deciding record's own options among the options offered? Shared by
// the full eval (eval/run.ts) and the records-only harness (eval/retrieval.ts); it reads the record with the core's
// decision model, so it lives apart from the dependency-free metrics.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { decisionModelOf } from "../src/core/decisions";
import { parseAdr, templateProse } from "../src/core/internal/adr";
import { isTemplatePath } from "../src/core/internal/adrDetect";

/** The prose of the templates beside a record in a checkout (as discovery reads them), for parseAdr. */
function templateBeside(repoDir: string, path: string): Set<string> {
  try {
    const dir = join(repoDir, dirname(path));
    const texts = readdirSync(dir).filter((f) => isTemplatePath(join(dirname(path), f))).map((f) => readFileSync(join(dir, f), "utf8"));
    return new Set(templateProse(texts));
  } catch {
    return new Set();
  }
}

/**
 * How many of the deciding record's considered options (as its decision model reads them, at most 4) an option title
 * names: a title and an option match when either contains the other, compared as lower-case words.
 */
export function consideredAmongOptions(path: string, text: string, titles: string[], repoDir?: string): { wanted: number; found: number } | undefined {
  if (!text) return undefined;
  // The record as the product reads it: without the instructions its log's template left in it.
  const considered = decisionModelOf(parseAdr(path, text, repoDir ? templateBeside(repoDir, path) : undefined)).considered.map((o) => o.name).slice(0, 4);
  if (considered.length < 2) return undefined;
  const flat = (t: string) => ` ${t.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ").trim()} `;
  const found = considered.filter((o) => titles.some((t) => flat(t).includes(flat(o)) || flat(o).includes(flat(t)))).length;
  return { wanted: considered.length, found };
}
