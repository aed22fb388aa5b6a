// Word-level helpers of the rules synthesizer: content words and a light stemmer, so "storing", "stored" and
// "store" meet, and "policies" meets "policy". Kept here (not shared with retrieval) so ranking changes elsewhere
// never move the synthesizer's decisions.

const STOP = new Set(
  (
    "a an the and or but nor if then else for to of in on at by with from into onto over under about as is are was were be been " +
    "being do does did done doing have has had having should would could can may might must shall will we our us you your they " +
    "them their it its this that these those there here what which who whom whose when where why how than too very just also not " +
    "no any all some each every both either neither more most other such only same so i me my he she his her one ones " +
    "instead rather versus vs between whether via per up out off still now today already yet ever even again once new"
  ).split(" "),
);

/** A word that names nothing by itself ("new" in "New Relic", "one" in "OneDrive" spelled apart). */
export function isStopWord(word: string): boolean {
  return STOP.has(word.toLowerCase());
}

/** Verbs and fillers that say how an option is phrased, not what it is ("Keep …", "Use …", "Move to …"). */
export const FRAME_WORDS = new Set(
  (
    "keep kept keeping use used using uses move moving moved adopt adopting stay staying stick go going get give let make put add " +
    "switch switching migrate migrating replace replacing write run have do stop drop leave current approach option decision " +
    "defer evidence gather nothing way better best good right fine time"
  ).split(" "),
);

/** A light English stemmer: plural, -ing, -ed and a final -e are stripped ("storing", "stored", "store" → "stor"). */
export function stemWord(word: string): string {
  let w = word.toLowerCase();
  if (w.length <= 3 || /\d/.test(w)) return w;
  if (w.endsWith("ies") && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (/(?:sses|xes|ches|shes)$/.test(w)) w = w.slice(0, -2);
  else if (w.endsWith("s") && !/(?:ss|us|is)$/.test(w)) w = w.slice(0, -1);
  // "documentation" meets "document", "automation" meets "automate".
  if (w.length > 8 && /ations?$/.test(w)) w = w.replace(/ations?$/, "");
  else if (w.length > 7 && w.endsWith("ate")) w = w.slice(0, -3);
  if (w.length > 5 && w.endsWith("ing")) w = w.slice(0, -3);
  else if (w.length > 4 && w.endsWith("ed")) w = w.slice(0, -2);
  // "formatter" meets "formatting", "logger" meets "logging": the one who does it and the doing, where both double
  // the verb's last consonant (an "-er" after a single one is as often no agent: "cluster", "number").
  else if (w.length > 5 && /([b-df-hj-np-tv-z])\1er$/.test(w)) w = w.slice(0, -2);
  if (w.length > 3 && /([b-df-hj-np-tv-z])\1$/.test(w)) w = w.slice(0, -1);
  if (w.length > 3 && w.endsWith("e")) w = w.slice(0, -1);
  return w;
}

/** Lower-cased content words of a text, in first-seen order, without stop words, numbers or one-letter tokens. */
/** Standard abbreviations and their spelled-out forms meet: "end-to-end" and "e2e", "k8s" and "kubernetes". */
const ABBREVIATIONS: [RegExp, string][] = [
  [/\bend-to-end\b/g, "e2e"],
  [/\bkubernetes\b/g, "k8s"],
  [/\binternationali[sz]ation\b/g, "i18n"],
  [/\blocali[sz]ation\b/g, "l10n"],
  [/\baccessibility\b/g, "a11y"],
  // Everyday synonyms of the trade.
  // A subfolder is a folder nested in another: "use subfolders" answers "nested folders".
  [/\bsub-?(?:folders?|dirs?|director(?:y|ies))\b/g, "nested directory"],
  [/\b(?:folders?|dirs?)\b/g, "directory"],
  [/\brepos\b/g, "repositories"],
  [/\brepo\b/g, "repository"],
  [/\bconfigs?\b/g, "configuration"],
  [/\benvs?\b/g, "environment"],
  [/\bdbs?\b/g, "database"],
  [/\bdata ?stores?\b/g, "database"],
  // A password or a credential is a secret: records decide "secrets management" for both.
  [/\b(?:credentials?|passwords?)\b/g, "secrets"],
];

export function normaliseAbbreviations(text: string): string {
  let out = text.toLowerCase();
  for (const [re, short] of ABBREVIATIONS) out = out.replace(re, short);
  return out;
}

export function words(text: string): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const raw of normaliseAbbreviations(text).split(/[^a-z0-9.+#_@-]+/)) {
    for (const part of raw.split(/-(?:to-)?|_/)) {
      // The lookbehind starts the trailing trim only where a run starts (/x+$/ is quadratic on a long run of x).
      const w = part.replace(/^[._@-]+/, "").replace(/(?<![._@-])[._@-]+$/, "");
      if (w.length < 2 || /^\d+$/.test(w) || STOP.has(w) || seen.has(w)) continue;
      seen.add(w);
      out.push(w);
    }
  }
  return out;
}

/** Stemmed content words of a text. */
export function stems(text: string): Set<string> {
  return new Set(words(text).map(stemWord));
}

/** Names of one technology: an option named by any of them is found by all of them. */
export const TECH_ALIASES: readonly string[][] = [
  ["postgresql", "postgres", "pg"],
  ["mongodb", "mongo"],
  ["javascript", "js"],
  ["typescript", "ts"],
  ["kubernetes", "k8s"],
  ["redux", "redux toolkit", "rtk"],
  ["console.log", "console"],
];
