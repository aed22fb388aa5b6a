// Tokenising a question with compromise: raw terms become Toks, hyphenated words are joined, sentences split after a
// list number are rejoined, and the tagger's usual slips on technical questions are repaired.

import { DECISION_VERBS, DETERMINERS, LIGHT_VERBS, NEVER_NOUNISH, QUANTIFIERS } from "./vocabulary";
import { asNoun, asVerb, endsClause, isConj, isCopula, isModal, isNounish, isPrep, isVerb, lexicon, nlp, type Tok } from "./tokens";

interface RawTerm {
  text: string;
  normal?: string;
  root?: string;
  tags?: string[];
  pre?: string;
  post?: string;
  switch?: string;
}

/** Tokens joined by a hyphen without spaces ("service-to-service", "vscode-elements") are one token. */
function mergeHyphens(terms: Tok[]): Tok[] {
  const out: Tok[] = [];
  for (const t of terms) {
    const prev = out[out.length - 1];
    if (prev && /^[-–]$/.test(prev.post) && !t.pre) {
      prev.text = `${prev.text}-${t.text}`;
      prev.norm = `${prev.norm}-${t.norm}`;
      prev.root = prev.norm;
      prev.post = t.post;
      prev.tags = new Set(["Noun", ...(t.tags.has("Plural") ? ["Plural"] : [])]);
      delete prev.amb;
      continue;
    }
    out.push({ ...t, tags: new Set(t.tags) });
  }
  return out;
}

/** Repairs the tagger's usual slips on technical questions, using its own tags as context. */
function repairTags(toks: Tok[]): void {
  // "io_uring", "getUser": a word with an underscore or an inner capital is a name, whatever its ending; so is one
  // the tagger conjugated from a root it does not know, set against a noun ("redis or memcached").
  const lex = lexicon();
  toks.forEach((t, k) => {
    const againstNoun = k > 1 && ["or", "vs", "versus"].includes(toks[k - 1].norm) && isNounish(toks[k - 2]) && !isVerb(toks[k - 2]);
    const unknownRoot = againstNoun && t.tags.has("PastTense") && t.root !== t.norm && !(t.root in lex) && !(`${t.root}e` in lex);
    if (isVerb(t) && (/[a-z]_[a-z]|[a-z][A-Z]/.test(t.text) || unknownRoot)) asNoun(t);
  });
  // "or switch to websockets", "we store sessions", "need to": a verb the tagger read as a noun, where a verb must be.
  for (let i = 1; i < toks.length; i++) {
    const t = toks[i];
    const prev = toks[i - 1];
    const next = toks[i + 1];
    // "Should we shard tenants …": after a modal and its pronoun subject comes the verb, whatever the tagger says.
    const afterModalSubject = ["we", "i", "you", "they"].includes(prev.norm) && !!toks[i - 2] && isModal(toks[i - 2]) && t.tags.has("Noun") && !t.tags.has("Pronoun") && !t.tags.has("ProperNoun") && /^[a-z]+$/.test(t.norm) && !QUANTIFIERS.has(t.norm) && !NEVER_NOUNISH.has(t.norm);
    if (isVerb(t) || !(DECISION_VERBS.has(t.norm) || LIGHT_VERBS.has(t.norm) || /Verb/.test(t.amb ?? "") || afterModalSubject)) continue;
    const verbSlot = ["or", "to", "and", "we", "i", "you", "they", "just", "simply", "rather", "still"].includes(prev.norm) || isModal(prev);
    const objectFollows = !!next && (DETERMINERS.has(next.norm) || isPrep(next) || next.tags.has("Possessive") || isNounish(next) || next.norm === "to");
    if (verbSlot && objectFollows && !endsClause(t) && !(prev.norm === "to" && !isVerbish(toks[i - 2]))) asVerb(t);
  }
  // "the projects each manage their own": a quantifier floating after a plural subject; the -s word before it is the
  // plural noun, and the word after it, when the tagger took it for a noun, is the verb.
  for (let i = 1; i + 1 < toks.length; i++) {
    const [subject, quantifier, verb] = [toks[i - 1], toks[i], toks[i + 1]];
    if (!["each", "all", "both"].includes(quantifier.norm) || !isVerb(subject) || !/Plural/.test(subject.amb ?? "") || !/[^s]s$/.test(subject.norm)) continue;
    if (!verb.tags.has("Noun") || verb.tags.has("Plural") || verb.tags.has("ProperNoun") || !/^[a-z]+$/.test(verb.text)) continue;
    asNoun(subject);
    asVerb(verb);
  }
  // "thinking of moving our CI …": an -ing word opening the sentence or following "of"/"about", and taking an
  // object, is a gerund even when the tagger called it a noun or adjective.
  for (let i = 0; i < toks.length - 1; i++) {
    const t = toks[i];
    const next = toks[i + 1];
    if (isVerb(t) || !/^[a-z]{3,}ing$/.test(t.norm) || !(i === 0 || ["of", "about", "on", "into"].includes(toks[i - 1].norm))) continue;
    if (!(DETERMINERS.has(next.norm) || next.tags.has("Possessive") || ["of", "about", "to", "onto", "into"].includes(next.norm))) continue;
    t.tags.delete("Noun");
    t.tags.delete("Adjective");
    t.tags.delete("Singular");
    t.tags.add("Verb");
    t.tags.add("Gerund");
    const inf = (nlp()(t.norm).verbs().toInfinitive().text() as string).toLowerCase();
    const stem = t.norm.replace(/ing$/, "");
    const lex = lexicon();
    const guess = [stem, `${stem}e`, stem.replace(/([b-df-hj-np-tv-z])\1$/, "$1")].find((c) => typeof lex[c] === "string") ?? stem;
    t.root = inf && inf !== t.norm ? inf : guess;
  }
  for (let i = 1; i < toks.length; i++) {
    const t = toks[i];
    const prev = toks[i - 1];
    // "should names use dashes or underscores": after "or", a conjugated verb form is a plural noun.
    if (["or", "vs", "versus", "and", "nor"].includes(prev.norm) && isVerb(t) && t.tags.has("PresentTense") && !t.tags.has("Infinitive") && /s$/.test(t.norm)) asNoun(t);
  }
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    const prev = toks[i - 1];
    const next = toks[i + 1];
    if (!isVerb(t) || t.tags.has("Gerund")) continue;
    // "the backend", "our build", "a search index": a verb right after a determiner or a modifier is a noun.
    const afterDet = prev && (DETERMINERS.has(prev.norm) || prev.tags.has("Possessive") || (prev.tags.has("Adjective") && !prev.tags.has("Verb") && !NEVER_NOUNISH.has(prev.norm)));
    // "should retries be configured": after a modal, a conjugated (non-infinitive) verb followed by a verb is a noun.
    // "should retries be …", "should embeddings for …": a modal is followed by an infinitive or a subject, never a conjugated verb.
    const subjectAfterModal = prev && isModal(prev) && !t.tags.has("Infinitive") && !t.tags.has("Gerund") && !t.tags.has("PastTense");
    // "with JSpecify", "for Vite": right after a preposition, a noun.
    const afterPrep = prev && isPrep(prev) && prev.norm !== "to" && !t.tags.has("Gerund");
    // "the Flask backend with", "gRPC for service-to-service calls": a verb ending a noun phrase that began with a determiner.
    let k = i - 1;
    while (k >= 0 && toks[k].tags.has("Noun") && !toks[k].tags.has("Pronoun") && !isVerb(toks[k])) k--;
    // "use default exports for …": a modifier then an -s verb form, right after a decision verb, is its object.
    const objectOfDecision = k >= 0 && k === i - 2 && isVerb(toks[k]) && DECISION_VERBS.has(toks[k].norm) && t.tags.has("PresentTense") && /[^s]s$/.test(t.norm);
    const inNounPhrase = k < i - 1 && (k < 0 || DETERMINERS.has(toks[k].norm) || isPrep(toks[k]) || toks[k].tags.has("Possessive") || objectOfDecision);
    const nounEnd = !next || endsClause(t) || isPrep(next) || isConj(next) || (isVerb(next) && (next.tags.has("PastTense") || next.tags.has("Participle")));
    const nounCompound = prev && inNounPhrase && nounEnd && (!t.tags.has("Infinitive") || /Noun/.test(t.amb ?? "") || !(t.norm in lexicon()));
    if (afterDet || subjectAfterModal || afterPrep || nounCompound) asNoun(t);
  }
}

/** Words after which "to" marks an infinitive ("need to", "time to", "able to", "whether to"). */
function isVerbish(t: Tok | undefined): boolean {
  return !!t && (isVerb(t) || LIGHT_VERBS.has(t.norm) || isCopula(t) || (t.tags.has("Adjective") && !t.tags.has("Noun")) || ["whether", "how", "what", "where", "when"].includes(t.norm));
}

export function tokenize(text: string): Tok[][] {
  const doc = nlp()(text);
  doc.compute("root");
  const sentences = (doc.json({ terms: { normal: true } }) as { terms: RawTerm[] }[]).map((s) =>
    // "RabbitMQ's" may come back as "RabbitMQ's" plus an implied "is": the possessive stays one token.
    s.terms
      .filter((t, k, all) => {
        if (t.text.trim()) return true;
        if (k > 0) all[k - 1].post = t.post ?? all[k - 1].post;
        return false;
      })
      .map((t) => {
      // "`cond && <X />`,": punctuation the tagger left on a code token's text ends the phrase as a comma does.
      const stuck = /.([,;:]+)$/.exec(t.text)?.[1];
      if (stuck) [t.text, t.post] = [t.text.slice(0, -stuck.length), `${stuck}${t.post ?? ""}`];
      const norm = (t.normal ?? t.text.toLowerCase()).replace(/[?!.,;:]+$/, "");
      const tags = new Set(t.tags ?? []);
      if (/['’]s$/.test(t.text)) {
        tags.add("Possessive");
        tags.delete("Verb");
      }
      return { text: t.text, norm, root: t.root ?? norm, tags, pre: t.pre ?? "", post: t.post ?? "", ...(t.switch ? { amb: t.switch } : {}) } as Tok;
    }),
  );
  // "numbers like '1. Context'": a sentence split after a list number or inside quotes is not a sentence end.
  const joined: Tok[][] = [];
  for (const s of sentences) {
    const prev = joined[joined.length - 1];
    const last = prev?.[prev.length - 1];
    if (prev && last && (/^\d+$/.test(last.norm) || /['"‘“]/.test(last.pre) || !/[A-Z"'‘“(]/.test(s[0]?.text[0] ?? "A"))) prev.push(...s);
    else joined.push([...s]);
  }
  return joined.map((s) => {
    const toks = mergeHyphens(s);
    repairTags(toks);
    return toks;
  });
}
