// A record's options as its own lines write them, beside what the decision model read from them:
//   - a link text or a code span on an option's line is a name ("using `nginx` for routing" names nginx, a long
//     option the model keeps as prose);
//   - a URL is never a name ("Other templates listed at <https://github.com/…>" is not about GitHub);
//   - a chosen option whose words name another listed option chose that one too ("both manual test case creation and
//     the Bogus library");
//   - a choosing title's package-shaped words name the chosen thing ("Use vuex-smart-modules in Data Bridge");
//   - an outcome that names nothing ("Chosen option: \"\"") leaves the choice to the title: the one listed option a
//     choosing title names ("Use [Zap](…) logging …") is the chosen one;
//   - an option whose lead name is the chosen option's ("[sqlboiler] with separate packages for Postgres and MySQL"
//     against "[sqlboiler] in a shared package …") is a way of using the chosen thing, not another thing;
//   - a later record that chooses what an earlier one turned down overrules it there;
//   - an option that is the absence of a thing ("not using `react-table` and writing custom code") names nothing to
//     turn down: what it does without is what the others use;
//   - a narrated fact taken for an option ("On average, a note (`TITLE`, `BODY`) is 60 bytes") names nothing either.
// Linear: bounded patterns over single lines.
import type { DecisionRecord } from "../decisions";
import type { LineRange } from "../schemas";
import type { GuardDecision } from "./decisions";
import { isVendor, keysOf, tokensOf, worksOnThing, type NameKeys } from "./names";
import { ciSystemNamed } from "./newFiles";

export interface LineOption {
  name: string;
  range: LineRange;
  reason?: string;
}

/** The names a line writes as names: link texts and code spans, in order. */
export function linkedNames(line: string): string[] {
  const out: string[] = [];
  for (const m of line.slice(0, 2000).matchAll(/\[([^\]]{1,80})\]\([^)\s]{0,500}\)|`([^`]{1,80})`/g)) {
    const name = (m[1] ?? m[2]).replace(/[`*_]/g, "").trim();
    if (name && !out.includes(name)) out.push(name);
  }
  return out;
}

/** A name without its URLs. */
export function withoutUrls(name: string): string {
  return name
    .replace(/<https?:\/\/[^>\s]{0,500}>|\(https?:\/\/[^)\s]{0,500}\)|\bhttps?:\/\/\S{0,500}/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/** An option that does without a thing ("not using X and …", "without X", "don't use X"): it names no thing of its own. */
const ABSENCE = /^\s*(?:not\s+(?:using|to\s+use|adopting|adding)|without|do\s+not\s+use|don['’]t\s+use)\s/i;

/**
 * A list item that opens with a framing phrase and a comma ("On average, a note … is 60 bytes", "with that, we can
 * assume …", "Finally, …") reports a fact about the problem; an option is named or ordered, not narrated.
 */
const NARRATION = /^\s*(?:(?:on|at|with|by|in|as|for|from|after|before|since|given)\s+[^,]{1,50}|finally|typically|currently|overall|however|also|then|thus|therefore|additionally|moreover|furthermore|generally|usually|today|now|so)\s*,\s+\S+(?:\s+\S+){5}/i;

/** A title that states a choice ("Use X", "Adopt X"), not a replacement or a question. */
const CHOOSING_TITLE = /^(?:(?:ADR|RFC)[\s-]*\d{1,5}\s*[:.-]\s*)?(?:use|using|adopt|choose|select|pick|prefer|go with)\b/i;

/** An option read as its label only ("Option B (alternative, non-preferred option)"): a letter or number, a note. */
const LABEL_ONLY = /^(?:option|alternative|approach|proposal|solution)\s+[A-Za-z0-9]{1,3}\s*(?:\([^)]{0,80}\))?\s*$/i;

/**
 * The name an option's own line gives after its label ("### **Option B (…): Deploy a separate service**"), when the
 * option was read as the label only; else the name as read.
 */
export function labelledName(name: string, line: string): string {
  if (!LABEL_ONLY.test(name.trim())) return name;
  const plain = line.replace(/^\s*(?:#{1,6}\s+|[-*+]\s+|\d{1,3}[.)]\s+)?/, "").replace(/[*_]/g, "").trim();
  const after = /^[^:]{1,100}:\s+(\S.{2,120})$/.exec(plain);
  return after ? after[1].trim() : name;
}

function named(keys: NameKeys | undefined, words: Set<string>): boolean {
  if (!keys) return false;
  if (keys.exact) return keys.exact.every((t) => words.has(t));
  return keys.tokens.length > 0 && keys.tokens.every((t) => words.has(t));
}

/** The model's rejected and chosen options, refined by the record's own lines (see the file comment). */
export function refineOptions(model: DecisionRecord, lines: string[], maxWords: number): { rejected: LineOption[]; chosen: LineOption[] } {
  const lineAt = (range: LineRange) => lines[range.start - 1] ?? "";
  let rejected: LineOption[] = model.rejected.filter((r) => !ABSENCE.test(r.name) && !NARRATION.test(r.name)).map((r) => ({ name: withoutUrls(labelledName(r.name, lineAt(r.range))), range: r.range, ...(r.reason ? { reason: r.reason } : {}) }));
  const chosen: LineOption[] = [];
  let chosenLinked: string[] = [];
  // Only a "Chosen option: …" line is the choice itself; a decision sentence may link what it sets aside too.
  if (model.chosen && model.chosen.how === "chosen-option-line") {
    chosenLinked = linkedNames(lineAt(model.chosen.range)).filter((n) => keysOf(n));
    for (const n of chosenLinked) chosen.push({ name: n, range: model.chosen.range });
  }
  if (!chosenLinked.length && !(model.chosen && keysOf(model.chosen.name.replace(/["“”']/g, ""))) && CHOOSING_TITLE.test(model.title.trim())) {
    const title = new Set(tokensOf(model.title));
    const inTitle = rejected.filter((r) => named(keysOf(r.name), title));
    if (inTitle.length === 1) {
      chosen.push(inTitle[0]);
      chosenLinked = [inTitle[0].name];
      rejected = rejected.filter((r) => r !== inTitle[0]);
    }
  }
  // An outcome that names a listed option besides its own ("leverage both manual test case creation and the Bogus
  // library") chose that one too, unless it names it to set it aside ("instead of X", "rather than X").
  // The chosen option's own words name another listed option ("leverage both manual test case creation and the
  // Bogus library"): that one was chosen too, unless the words set it aside ("instead of X", "rather than X").
  if (model.chosen && !/\b(?:instead|rather|over|than|not|no|without|replac\w*|except|port\w*|migrat\w*|mov\w*|switch\w*|from|away|drop\w*|remov\w*|deprecat\w*|wrap\w*)\b/i.test(model.chosen.name)) {
    // Within the listed option's own name, only an option it wholly contains is part of it ("ESLint with Airbnb code
    // style" in "Prettier-ESLint with Airbnb code style"): "Create a custom Lambda using Go" shares "Lambda" with a
    // turned-down "Use a third party Lambda" and names it no more for that. The words the outcome adds are keyed.
    const own = model.chosen.considered_index !== undefined ? new Set(tokensOf(model.considered[model.chosen.considered_index]?.name ?? "")) : new Set<string>();
    const outcome = new Set(tokensOf(model.chosen.name).filter((t) => !own.has(t)));
    const partOfOwn = (name: string) => own.size > 0 && tokensOf(name).every((t) => own.has(t));
    // A vendor's word is no key of a product ("Amazon Cognito" is Cognito), but it still tells "ESLint with Google code
    // style" apart from a chosen "ESLint with Airbnb code style".
    const alsoChosen = rejected.filter((r) => partOfOwn(r.name) || (named(keysOf(r.name), outcome) && tokensOf(r.name).every((t) => !isVendor(t) || outcome.has(t))));
    chosen.push(...alsoChosen);
    rejected = rejected.filter((r) => !alsoChosen.includes(r));
  }
  // A choosing title's package-shaped words ("Use vuex-smart-modules in Data Bridge") name the chosen thing.
  if (CHOOSING_TITLE.test(model.title.trim())) {
    for (const w of model.title.split(/\s+/).slice(0, 20)) {
      const word = w.replace(/^[`"“(]+|[`"”),.:;]+$/g, "");
      if (/^[a-z][a-z0-9]{1,30}(?:-[a-z][a-z0-9]{1,30}){2,4}$/.test(word) && !chosen.some((c) => c.name === word)) chosen.push({ name: word, range: { start: 1, end: 1 } });
    }
  }
  const chosenTokens = new Set(chosenLinked.flatMap((n) => tokensOf(n)));
  const isChosen = (n: string) => chosenTokens.size > 0 && tokensOf(n).every((t) => chosenTokens.has(t));
  const out: LineOption[] = [];
  for (const r of rejected) {
    const linked = linkedNames(lineAt(r.range)).filter((n) => keysOf(n));
    if (linked.length && isChosen(linked[0])) continue;
    if (r.name.split(/\s+/).length > maxWords && linked.length) {
      for (const n of linked) if (!isChosen(n)) out.push({ name: n, range: r.range, ...(r.reason ? { reason: r.reason } : {}) });
      continue;
    }
    out.push(r);
  }
  return { rejected: out, chosen };
}

function sameThing(a: NameKeys, b: NameKeys): boolean {
  if (a.exact || b.exact) return !!a.exact && !!b.exact && a.exact.join(" ") === b.exact.join(" ");
  if (a.compact && a.compact === b.compact) return true;
  return a.tokens.length > 0 && a.tokens.every((t) => b.tokens.includes(t));
}

/**
 * Drops what an earlier record turned down when a later one (by path order: numbers, dates) chose it, and the CI
 * system an earlier record chose when a later one chose another and names the earlier one's ("Use Concourse CI",
 * then "Use GitHub Actions … we will decommission our Concourse pipelines").
 */
export function withoutOverruled(records: GuardDecision[]): void {
  const sorted = [...records].sort((a, b) => (a.citation.path < b.citation.path ? -1 : a.citation.path > b.citation.path ? 1 : 0));
  for (const [i, d] of sorted.entries()) {
    const laterOnes = sorted.slice(i + 1);
    const later = laterOnes.flatMap((e) => e.required);
    if (!later.length) continue;
    // What a title took out ("Runner Class Replacing OldEngine") is not taken up again by a later choice that works
    // on it ("Make the OldEngine cwd option available to rules"): that one changes the part, it does not choose it.
    const takesUp = (f: GuardDecision["forbidden"][number], r: GuardDecision["required"][number]) => sameThing(f.keys, r.keys) && !(f.range.start === 1 && worksOnThing(r.keys.display));
    d.forbidden = d.forbidden.filter((f) => !later.some((r) => takesUp(f, r)));
    const leftCi = laterOnes.flatMap((e) => e.ciWeighed ?? []).map((w) => w.join(" "));
    if (leftCi.length) d.required = d.required.filter((r) => !leftCi.includes(ciSystemNamed(r.keys)?.join(" ") ?? "\0"));
  }
}
