// The reader's public shapes: the form a question takes, the alternatives it names and the structure read from it.
// Re-exported by ../question.ts, which importers use.

export type QuestionForm = "migration" | "alternatives" | "move-to" | "keep" | "drop" | "adopt" | "action" | "open";

export interface Alternative {
  /** Display title, a whole readable phrase: "Put a Varnish layer in front of the API", "Keep cron jobs". */
  title: string;
  /** The thing the alternative is about, as written: "Varnish layer", "cron jobs", "Redux". */
  subject: string;
  /** Lower-case terms that find this alternative in evidence text (never shown). Empty: nothing to look for. */
  terms: string[];
  /** What the question says about it: in place today, proposed, or one of several alternatives. */
  role: "alternative" | "incumbent" | "target";
  /** The alternative is the negation of its terms ("Stop using X"): evidence for X counts against it. */
  inverse?: boolean;
  /** It names a kind of thing ("the project's formatter"), no particular one: a record may say which it is. */
  unnamed?: boolean;
}

export interface QuestionStructure {
  form: QuestionForm;
  /** The alternatives the question itself names, in question order. */
  alternatives: Alternative[];
  /** What the question says is in place today (the A of "move from A to B", the X of "keep X?"). */
  incumbent?: Alternative;
  /** What the question proposes (the B of "move from A to B", the A of "adopt A?"). */
  target?: Alternative;
  /** The purpose phrase: "service-to-service calls" in "adopt gRPC for service-to-service calls?". */
  purpose?: string;
  /** Lower-case content words of the question that name no alternative: what the question is about. */
  topic: string[];
  /** The question with editor tags ("TODO(decide):") removed. */
  text: string;
}
