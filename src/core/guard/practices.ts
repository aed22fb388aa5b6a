// Rules that turn down a practice, not a library ("Use Django ORM over raw SQL", "We will avoid default exports"): the
// practice shows in code as a few well-known calls or statements, listed here by language (a fixed table, like
// determinism.ts's). A record that sets a practice aside sets a rule: doing it breaks that rule. Only code outside
// tests breaks it: a test may set up its fixtures with a query. Pure and linear.
import type { LineRange } from "../schemas";
import type { DecidedThing } from "./decisions";

/** A word that turns down what follows it: "never", "avoid", "over", "instead of", "rather than", "no", "without". */
const TURNED_DOWN = /\b(?:not|never|avoid|avoiding|no|without|over|instead\s+of|rather\s+than|in\s+place\s+of)\s+(?:\w+\s+){0,3}$/i;

const PRACTICES: { cue: RegExp; subject: string; calls: string[][] }[] = [
  {
    cue: /\b(?:raw|hand[- ]?written|plain|inline)\s+sql\b|\braw\s+(?:database\s+)?quer(?:y|ies)\b|\bsql\s+strings?\b/i,
    subject: "raw SQL",
    // Python DB-API and Django, Node (knex, Sequelize, pg), Java (JDBC), Go (database/sql), Ruby (ActiveRecord).
    calls: [
      ["cursor", "execute"], ["connection", "cursor"], ["objects", "raw"], ["rawsql"], ["knex", "raw"], ["sequelize", "query"], ["createstatement"],
      ["executequery"], ["executeupdate"], ["db", "exec"], ["db", "query"], ["find", "by", "sql"], ["connection", "execute"], ["exec", "query"],
    ],
  },
  {
    // "Never use `print`", "Avoid Prints", "no print statements": output written past the logger.
    cue: /`print`|\bprints\b|\bprint\s+(?:statements?|calls?)\b/i,
    subject: "print calls",
    // Go (fmt), Python, Java, Kotlin and Rust.
    calls: [["fmt", "print"], ["fmt", "println"], ["fmt", "printf"], ["print"], ["println"], ["system", "out", "println"], ["system", "out", "print"]],
  },
  {
    cue: /\bdefault exports?\b/i,
    subject: "default exports",
    // JavaScript and TypeScript modules.
    calls: [["export", "default"]],
  },
];

/**
 * Practices a rule turns down that show in where a statement stands, not in its words: "No global variables" (a `var`
 * or `let` declared at a file's top level, Go, JavaScript, TypeScript, Kotlin, Swift; a constant is no variable).
 */
const SHAPED_PRACTICES: { cue: RegExp; subject: string; shape: string }[] = [
  { cue: /\bglobal\s+(?:variables?|vars|mutable\s+state)\b/i, subject: "global variables", shape: String.raw`^(?:var|let)\s*(?:\(\s*$|(?!_\s)[A-Za-z_$][\w$]*)` },
];

/** A naming style a rule names, and what breaks it: a capital letter, or the other separator. */
const STYLE_BREAKS: Record<string, string> = {
  snake: String.raw`[^"\s]*(?:[A-Z]|-)[^"\s]*`,
  kebab: String.raw`[^"\s]*(?:[A-Z]|_)[^"\s]*`,
};

/**
 * Where a naming rule's subject is written in Go code: a struct tag's key ("YAML uses `snake_case`": `yaml:"…"`), or a
 * flag's name in its definition ("CLI flags use `kebab-case`": `f.IntVar(&cfg.X, "name", …)`, `cmd.Flag("name", …)`).
 */
const NAMED_PLACES: { subject: RegExp; place: (name: string) => string }[] = [
  { subject: /\b(yaml|json|toml)\b/i, place: (name) => String.raw`\b${name}:"${"$STYLE"}"` },
  { subject: /\b(?:cli\s+)?flags?\b/i, place: () => String.raw`\b\w*(?:Var|Flag)\(\s*(?:&[\w.]+,\s*)?"${"$STYLE"}"` },
];

/** "YAML uses `snake_case`, CLI flags use `kebab-case`": a name written in another style breaks the rule. */
function namingExclusions(text: string, range: LineRange): DecidedThing[] {
  const out: DecidedThing[] = [];
  for (const m of text.matchAll(/([\w ]{2,30}?)\s+(?:uses?|are|is|in|must be|should be)\s+`?(snake|kebab)[_-]case`?/gi)) {
    for (const p of NAMED_PLACES) {
      const s = p.subject.exec(m[1]);
      if (!s) continue;
      const shape = p.place((s[1] ?? "").toLowerCase()).replace("$STYLE", STYLE_BREAKS[m[2].toLowerCase()]);
      out.push({ name: `${m[1].trim()} in ${m[2].toLowerCase()}_case`, keys: { display: m[1].trim(), tokens: [] }, range, notInTests: true, practice: true, codeShape: shape, shapeInStrings: true });
    }
  }
  return out;
}

/** "never prefix wrap messages with wording like `failed ...` or `error occurred while...`": what a message may not open with. */
const MESSAGE_PREFIX = /\b(?:never|don't|do\s+not|avoid)\s+(?:prefix(?:ing)?|start(?:ing)?|begin(?:ning)?)\s+(?:[\w-]+\s+){0,2}messages?\s+with\b/i;

/**
 * A message a rule says not to open with certain words: a string literal in code outside tests that opens with them
 * (`errors.Wrap(err, "failed to open …")`) breaks it. The words are the rule's code spans or quoted examples, up to
 * an ellipsis; one to four plain words each.
 */
/** Whether a sentence sets what a message may not open with (a guide's body sentence read as a rule, guides.ts). */
export function setsMessagePrefix(text: string): boolean {
  return MESSAGE_PREFIX.test(text);
}

function messagePrefixExclusions(text: string, range: LineRange): DecidedThing[] {
  const m = MESSAGE_PREFIX.exec(text);
  if (!m) return [];
  const rest = text.slice(m.index + m[0].length, m.index + m[0].length + 200);
  const out: DecidedThing[] = [];
  for (const q of rest.matchAll(/`([^`]{2,60})`|"([^"]{2,60})"/g)) {
    const words = (q[1] ?? q[2] ?? "").replace(/\s*(?:\.{2,}|…).*$/, "").trim();
    if (!/^[A-Za-z]+(?: [A-Za-z]+){0,3}$/.test(words)) continue;
    // The first letter either case ("Failed to …" too); the pattern carries no flags.
    const first = `[${words[0].toLowerCase()}${words[0].toUpperCase()}]`;
    const shape = String.raw`["'\x60]` + first + words.slice(1).split(" ").join(String.raw`\s+`) + String.raw`\b`;
    out.push({ name: `messages opening "${words}"`, keys: { display: words, tokens: [] }, range, notInTests: true, practice: true, codeShape: shape, shapeInStrings: true });
  }
  return out;
}

/** The calls of each practice a rule turns down ("Django ORM over raw SQL"), kept out of code outside tests. */
export function practiceExclusions(text: string, range: LineRange): DecidedThing[] {
  const out: DecidedThing[] = [];
  for (const practice of PRACTICES) {
    const m = practice.cue.exec(text);
    if (!m || !TURNED_DOWN.test(text.slice(Math.max(0, m.index - 60), m.index))) continue;
    for (const call of practice.calls) out.push({ name: practice.subject, keys: { display: practice.subject, exact: call, tokens: [] }, range, notInTests: true, practice: true });
  }
  out.push(...namingExclusions(text, range), ...messagePrefixExclusions(text, range));
  for (const practice of SHAPED_PRACTICES) {
    const m = practice.cue.exec(text);
    if (!m || !TURNED_DOWN.test(text.slice(Math.max(0, m.index - 60), m.index))) continue;
    out.push({ name: practice.subject, keys: { display: practice.subject, tokens: [] }, range, notInTests: true, practice: true, codeShape: practice.shape });
  }
  return out;
}
