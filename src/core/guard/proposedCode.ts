// What a rejected proposal would have added to the code, read from its own diff: a record that shows its design as
// a patch ("+  enum PeerType {") declares the types the proposal brings in. The record was rejected, so a change that
// declares one of those types again brings the rejected design back. Only lines a diff block adds ("+", not the
// context around them, which is code that already exists) and only declarations of a type whose name has at least two
// capitalised parts (`PeerType`, not `Config`) are read: a field or a one-word type name says too little alone.
// Pure and linear: one pass over the record's lines.
import type { LineRange } from "../schemas";
import { tokensOf } from "./names";

/** A type declared on an added line: `enum PeerType {`, `message StoreGroup {`, `type PeerType int`, `class Foo…`. */
const ADDED_DECLARATION = /^\+\s*(?:export\s+|public\s+|pub\s+)?(?:enum|message|service|struct|class|interface|trait|type|record)\s+([A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+)\b/;
const MAX_DECLARATIONS = 20;

export interface ProposedDeclaration {
  name: string;
  keys: { display: string; exact: string[]; tokens: string[] };
  range: LineRange;
  reason: string;
  identifier: true;
}

/** The types a record's diff blocks add, each keyed by its name's words in a row. */
export function proposedDeclarations(text: string): ProposedDeclaration[] {
  const out: ProposedDeclaration[] = [];
  const lines = text.split("\n", 20_000);
  let inDiff = false;
  lines.forEach((line, i) => {
    const fence = /^\s*(`{3,}|~{3,})\s*([\w-]*)/.exec(line);
    if (fence) {
      inDiff = !inDiff && /^(?:diff|patch)$/i.test(fence[2]);
      return;
    }
    if (!inDiff || out.length >= MAX_DECLARATIONS) return;
    const m = ADDED_DECLARATION.exec(line.slice(0, 300));
    if (!m || out.some((d) => d.name === m[1])) return;
    out.push({ name: m[1], keys: { display: m[1], exact: tokensOf(m[1]), tokens: [] }, range: { start: i + 1, end: i + 1 }, reason: `the rejected proposal's diff declares ${m[1]}`, identifier: true });
  });
  return out;
}
