// Rules that keep code deterministic ("Do not let map iteration order, wall-clock time, randomness, or host-specific
// behavior affect state changes"): the rule names a source of nondeterminism, not a library, so the calls that read
// it are known here, by language (a fixed table, like the CI systems of newFiles.ts). Only code outside tests breaks
// such a rule: a test may read the clock to time itself. Pure and linear.
import type { LineRange } from "../schemas";
import type { DecidedThing } from "./decisions";

/** A rule that forbids (or keeps out) what follows: "do not let …", "never use …", "must not depend on …", "no …". */
const NEGATED = /\b(?:do\s+not|don['’]t|never|must\s+not|should\s+not|shall\s+not|cannot|no)\b/i;

const SOURCES: { cue: RegExp; subject: string; calls: string[][] }[] = [
  {
    cue: /\b(?:wall[- ]?clock(?:\s+time)?|system\s+(?:time|clock))\b/i,
    subject: "wall-clock time",
    // Go, JavaScript, Java, Python, Rust, C#: the calls that read the host's clock.
    calls: [["time", "now"], ["date", "now"], ["new", "date"], ["system", "currenttimemillis"], ["instant", "now"], ["datetime", "now"], ["datetime", "utcnow"], ["systemtime", "now"], ["localdatetime", "now"]],
  },
  {
    cue: /\b(?:randomness|random\s+numbers?|random\s+number\s+generators?|rngs?)\b/i,
    subject: "randomness",
    calls: [["math", "rand"], ["math", "random"], ["random", "random"], ["random", "randint"], ["rand", "thread", "rng"], ["java", "util", "random"], ["new", "random"]],
  },
];

/** A path of test code (`_test.go`, `*.test.ts`, `tests/`, `spec/`). */
export function isTestPath(path: string): boolean {
  return /(?:^|\/)(?:tests?|spec|__tests__|testing|e2e)\/|_test\.\w+$|[._-](?:test|spec)\.\w+$|(?:^|\/)test_[^/]*$/i.test(path);
}

/** The nondeterministic calls a negated rule names the source of ("wall-clock time", "randomness"). */
export function nondeterminismExclusions(text: string, range: LineRange): DecidedThing[] {
  const negated = NEGATED.exec(text);
  if (!negated) return [];
  const rest = text.slice(negated.index, negated.index + 300);
  const out: DecidedThing[] = [];
  for (const source of SOURCES) {
    if (!source.cue.test(rest)) continue;
    for (const call of source.calls) out.push({ name: source.subject, keys: { display: source.subject, exact: call, tokens: [] }, range, notInTests: true });
  }
  return out;
}
