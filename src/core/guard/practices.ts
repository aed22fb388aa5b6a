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

/** The calls of each practice a rule turns down ("Django ORM over raw SQL"), kept out of code outside tests. */
export function practiceExclusions(text: string, range: LineRange): DecidedThing[] {
  const out: DecidedThing[] = [];
  for (const practice of PRACTICES) {
    const m = practice.cue.exec(text);
    if (!m || !TURNED_DOWN.test(text.slice(Math.max(0, m.index - 60), m.index))) continue;
    for (const call of practice.calls) out.push({ name: practice.subject, keys: { display: practice.subject, exact: call, tokens: [] }, range, notInTests: true, practice: true });
  }
  for (const practice of SHAPED_PRACTICES) {
    const m = practice.cue.exec(text);
    if (!m || !TURNED_DOWN.test(text.slice(Math.max(0, m.index - 60), m.index))) continue;
    out.push({ name: practice.subject, keys: { display: practice.subject, tokens: [] }, range, notInTests: true, practice: true, codeShape: practice.shape });
  }
  return out;
}
