// A second, plain view of the question over the decision records: classic BM25 (k1 1.2, b 0.75) over each record's
// opening (its first 500 words), its title and file name counted three times, queried with the question's content
// words (function words dropped, the asking sentence's words lifted a little). The docs expert's own ranking reads planned terms, sections, phrases and feedback; those help
// when a question is short and names its subject, and drift on long questions full of incidental detail, where the
// plain view holds up (issue 20). Fusing the two keeps what each gets right. Pure and deterministic.
import { tokenize } from "./docStats";

const K1 = 1.2;
const B = 0.75;
const TITLE_REPEAT = 3;
/** The part of a record the view reads; records are rarely longer, and the cap keeps a giant file from skewing lengths. */
const INDEXED_CHARS = 50_000;
/**
 * Only a record's opening counts: its title, then the first words of its body, where it says what it is about (summary,
 * context, decision). A long RFC's later design detail mentions much that it does not decide, and on long questions
 * full of incidental detail those mentions outweighed what the record is about (development half: recall@1 0.80 ->
 * 0.84; open questions 0.67 -> 0.74; any cap from 400 to 700 words gives the same).
 */
const OPENING_WORDS = 500;

/**
 * English function words (the common NLTK list): a long question is full of them ("they", "after", "over",
 * "because"), and in a log of a few dozen records one that two records happen to use gets a rare word's weight, so
 * a record wins on the question's grammar rather than its subject. Only the question drops them; records are
 * indexed whole, so lengths and document frequencies stay those of the text.
 */
const FUNCTION_WORDS = new Set(
  tokenize(
    "i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her hers herself it its itself " +
      "they them their theirs themselves what which who whom this that these those am is are was were be been being have has had " +
      "having do does did doing a an the and but if or because as until while of at by for with about against between into through " +
      "during before after above below to from up down in out on off over under again further then once here there when where why how " +
      "all any both each few more most other some such no nor not only own same so than too very can will just don should now",
  ),
);

/**
 * How much more a word of the asking sentence counts than a word of the story around it. A long question tells what
 * happened and then asks ("… How should form creators sign in?"): the asking sentence names the decision subject, the
 * story its incidental detail (issue 20). A modest lift, so a rare word of the story still counts.
 */
const ASKING_WEIGHT = 1.3;

/** The question's content words, each weighted: those of its asking sentences by ASKING_WEIGHT, the rest by one. */
export function questionWeights(question: string): Map<string, number> {
  const sentences = question.split(/(?<=[.?!;:])\s+/).filter((s) => s.trim());
  const asking = sentences.filter((s) => /\?["')\]]*\s*$/.test(s));
  // A question that is all asking (or never asks) has no story to weigh against.
  const lifted = asking.length && asking.length < sentences.length ? new Set(tokenize(asking.join(" "))) : new Set<string>();
  const weights = new Map<string, number>();
  for (const t of tokenize(question)) if (!FUNCTION_WORDS.has(t)) weights.set(t, lifted.has(t) ? ASKING_WEIGHT : 1);
  return weights;
}

export interface RecordText {
  path: string;
  title: string;
  text: string;
}

export class RecordBm25 {
  private readonly tf: Map<string, number>[] = [];
  private readonly lengths: number[] = [];
  private readonly df = new Map<string, number>();
  private readonly avgLength: number;

  constructor(private readonly records: readonly RecordText[]) {
    for (const r of records) {
      const name = r.path.replace(/\.(md|markdown|mdx|txt|adoc|rst)$/i, "").split("/").slice(-2).join(" ").replace(/[_.-]+/g, " ");
      const tokens = [...tokenize(`${r.title} ${name} `.repeat(TITLE_REPEAT)), ...tokenize(r.text.slice(0, INDEXED_CHARS)).slice(0, OPENING_WORDS)];
      const tf = new Map<string, number>();
      for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
      for (const t of tf.keys()) this.df.set(t, (this.df.get(t) ?? 0) + 1);
      this.tf.push(tf);
      this.lengths.push(tokens.length);
    }
    this.avgLength = this.lengths.reduce((a, b) => a + b, 0) / Math.max(1, this.lengths.length);
  }

  /** Score of every record that matches at least one of the question's words, by path. */
  scores(question: string): Map<string, number> {
    const terms = questionWeights(question);
    const n = this.records.length;
    const out = new Map<string, number>();
    this.records.forEach((r, i) => {
      let score = 0;
      const tf = this.tf[i];
      const norm = K1 * (1 - B + (B * this.lengths[i]) / (this.avgLength || 1));
      for (const [t, weight] of terms) {
        const f = tf.get(t);
        if (!f) continue;
        const df = this.df.get(t) ?? 0;
        score += weight * Math.log(1 + (n - df + 0.5) / (df + 0.5)) * ((f * (K1 + 1)) / (f + norm));
      }
      if (score > 0) out.set(r.path, score);
    });
    return out;
  }
}
