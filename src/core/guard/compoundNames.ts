// A rejected name met inside a longer name is not always the rejected thing. Two shapes of a longer name are read
// here (issue 22, false positives):
// - a compound that also names what the same decision chose (`tracing-log`, `[tool.ruff.lint.flake8-quotes]`): a
//   plugin, bridge or setting of the chosen tool, unless the rejected option's own name holds that chosen word too
//   ("ESLint with Google code style" is `eslint-config-google`);
// - a snake-case key or constant the line sets to a value (`apex_domain: …`, `SOURCE_OF_TRUTH = …`) that does not
//   name the thing: a project's own word for something else. A key opening a block is a section for the thing.
import type { DecidedThing } from "./decisions";
import { changeTokensOf, findName, tokensOf } from "./names";

/** Runs of name characters on a line: a package, a dotted key path, an identifier. */
const NAME_RUN = /[A-Za-z0-9_@][\w.@/:-]{0,200}/g;

/** The runs of the line whose tokens hold the found word. */
function runsHolding(text: string, found: string): string[] {
  const word = found.toLowerCase();
  return [...text.slice(0, 500).matchAll(NAME_RUN)].map((m) => m[0]).filter((run) => changeTokensOf(run).includes(word));
}

/**
 * Whether every run of the line that holds the found word also names something the decision chose, by a word the
 * rejected option's own name lacks: the chosen tool's plugin or setting, not the rejected one.
 */
export function heldByChosenName(text: string, found: string, rejected: DecidedThing, chosen: readonly DecidedThing[]): boolean {
  if (!chosen.length) return false;
  const runs = runsHolding(text, found);
  if (!runs.length) return false;
  const rejectedWords = new Set([...tokensOf(rejected.name), ...(rejected.keys.whole ?? []), ...rejected.keys.tokens].map((w) => w.toLowerCase()));
  return runs.every((run) => {
    const tokens = changeTokensOf(run).filter((t) => t !== found.toLowerCase());
    return chosen.some((c) => {
      const hit = findName(tokens, c.keys);
      return !!hit && !changeTokensOf(hit).some((w) => rejectedWords.has(w));
    });
  });
}

/** A line defining a snake-case key or constant: `apex_domain: x`, `const val SOURCE_OF_TRUTH = "…"`, `"max_retries": 3`. */
const DEFINED_KEY = /^\s*(?:-\s+)?(?:(?:export|const|val|var|let|private|internal|public|protected|static|final|readonly)\s+){0,4}["']?([A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+)["']?\s*(?::(?!:)|=(?!=))(.*)$/;

/** Whether the found word is only one part of the snake-case key the line defines, and its value does not name it. */
export function onlyInDefinedKey(text: string, found: string): boolean {
  const m = DEFINED_KEY.exec(text.slice(0, 500));
  if (!m) return false;
  const word = found.toLowerCase();
  const parts = m[1].toLowerCase().split("_");
  if (!parts.includes(word) || parts.length < 2) return false;
  // A key that opens a block (`pagerduty_configs:`) is a section for the thing itself; one set to a value is a setting.
  const value = m[2].replace(/\s+#.*$/, "").trim();
  return !!value && !/^[[{|>]$/.test(value) && !changeTokensOf(value).includes(word);
}
