// Which decided things a changed line may name, found by the line's tokens: each thing of each decision is filed
// under the token prefixes, tokens or token runs that `mayName` needs (names.ts `nameTriggers`), so a line is tried
// only against the things it may name, not against every thing of every decision. With 1,000 accepted records and a
// 20,000-line change, the matching made some 100 million `mayName` calls (27 s); now a line costs a few set lookups
// per token, plus the things it really may name.
import type { DecidedThing, GuardDecision } from "./decisions";
import { nameTriggers, type TokenIndex } from "./names";

/** One decided thing of one decision, with its place in the decisions' order (decision by decision, thing by thing). */
export interface ThingEntry {
  d: GuardDecision;
  thing: DecidedThing;
  order: number;
  /** The decision's place among the decisions. */
  decision: number;
}

/** Every thing on one side of every decision, in order. */
export function thingEntries(decisions: readonly GuardDecision[], side: "forbidden" | "required"): ThingEntry[] {
  const out: ThingEntry[] = [];
  decisions.forEach((d, decision) => {
    for (const thing of d[side]) out.push({ d, thing, order: out.length, decision });
  });
  return out;
}

function file(map: Map<string, ThingEntry[]>, keys: string[], entry: ThingEntry): void {
  for (const k of keys) {
    const list = map.get(k);
    if (!list) map.set(k, [entry]);
    else if (list.at(-1) !== entry) list.push(entry);
  }
}

export class ThingIndex {
  private readonly pre = new Map<string, ThingEntry[]>();
  private readonly full = new Map<string, ThingEntry[]>();
  private readonly run4 = new Map<string, ThingEntry[]>();
  /** Things any text may name (a compact form shorter than four letters): always tried. */
  private readonly any: ThingEntry[] = [];

  constructor(readonly entries: readonly ThingEntry[]) {
    for (const entry of entries) {
      const triggers = nameTriggers(entry.thing.keys);
      if (triggers === "any") {
        this.any.push(entry);
        continue;
      }
      file(this.pre, triggers.pre, entry);
      file(this.full, triggers.full, entry);
      file(this.run4, triggers.run4, entry);
    }
  }

  /** The things a text with these token indexes may name, in the decisions' order (so findings come out as before). */
  candidates(indexes: readonly TokenIndex[]): ThingEntry[] {
    const found = new Set<ThingEntry>(this.any);
    const add = (list: ThingEntry[] | undefined) => {
      if (list) for (const e of list) found.add(e);
    };
    for (const ix of indexes) {
      if (this.pre.size) for (const p of ix.pre) add(this.pre.get(p));
      if (this.full.size) for (const f of ix.full) add(this.full.get(f));
      if (this.run4.size) for (const r of ix.run4) add(this.run4.get(r));
    }
    const out = [...found];
    return out.length > 1 ? out.sort((a, b) => a.order - b.order) : out;
  }
}
